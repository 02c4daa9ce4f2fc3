package org.dbdf.spark;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Iterator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.dbdf.DbdfException;
import org.dbdf.ValueType;

/**
 * Reads a frame or a dense matrix as ColumnarBatches of Arrow vectors, a row band (or a slice of at most
 * {@link #MAX_BATCH_BYTES} of values of one) per batch. Each selected column of a slice is one window read
 * (rows x 1) straight into its Arrow vector's data buffer, as dbdf's own Arrow export decodes a column: only the
 * blocks that hold a selected column are read, each block's part of the column is decoded once, no copy follows,
 * and a band taller than memory (an empty block claiming billions of rows costs a file nothing) is read slice by
 * slice. The {@code row} field of a dense matrix is an on-heap vector of row indices.
 */
final class ColumnarBandReader implements PartitionReader<ColumnarBatch> {
    /** Values per batch at most: the bound dbdf's Arrow export has (docs/arrow.md, "Batches"). */
    static final long MAX_BATCH_BYTES = 64L << 20;

    private final HadoopFiles.OpenReader file;
    private final TableShape shape;
    /** Object column of each output field, -1 for the row index. */
    private final int[] outputColumns;
    private final Iterator<RowBand> bands;
    private final BufferAllocator allocator;
    private final long maxBatchRows;
    /** Name of each output field. */
    private final String[] fieldNames;

    private RowBand band;
    /** Where the next batch starts, inside {@link #band}. */
    private long nextRow;
    private ColumnarBatch batch;

    ColumnarBandReader(HadoopFiles.OpenReader file, TableShape shape, int[] outputColumns,
            DbdfInputPartition partition) {
        this.file = file;
        this.shape = shape;
        this.outputColumns = outputColumns;
        this.bands = partition.bands().iterator();
        long rowBytes = 0;
        for (int column : outputColumns) {
            rowBytes += column < 0 ? Long.BYTES : sparkWidth(shape.columnTypes()[column]);
        }
        // At least one row; ColumnarBatch counts rows in an int.
        this.maxBatchRows = Math.min(Integer.MAX_VALUE - 8, Math.max(1, MAX_BATCH_BYTES / Math.max(1, rowBytes)));
        this.fieldNames = shape.schema().fieldNames();
        this.allocator = ArrowUtils.rootAllocator().newChildAllocator("dbdf " + file.path(), 0, Long.MAX_VALUE);
    }

    @Override
    public boolean next() {
        closeBatch();
        while (band == null || nextRow == band.endRow()) {
            if (!bands.hasNext()) {
                return false;
            }
            band = bands.next();
            nextRow = band.firstRow();
            countBlocksRead();
        }
        int rows = (int) Math.min(maxBatchRows, band.endRow() - nextRow);
        try {
            batch = readSlice(nextRow, rows);
        } catch (DbdfException error) {
            throw HadoopFiles.invalid(file.path(), error);
        }
        nextRow += rows;
        return true;
    }

    @Override
    public ColumnarBatch get() {
        return batch;
    }

    @Override
    public void close() throws IOException {
        closeBatch();
        try {
            allocator.close();
        } finally {
            file.close();
        }
    }

    private void closeBatch() {
        if (batch != null) {
            batch.close();
            batch = null;
        }
    }

    private ColumnarBatch readSlice(long firstRow, int rows) {
        ColumnVector[] vectors = new ColumnVector[outputColumns.length];
        try {
            for (int field = 0; field < outputColumns.length; field++) {
                int column = outputColumns[field];
                vectors[field] = column < 0 ? rowIndices(firstRow, rows)
                        : readColumn(column, fieldNames[fieldOf(column)], firstRow, rows);
            }
        } catch (RuntimeException | Error failure) {
            for (ColumnVector vector : vectors) {
                if (vector != null) {
                    vector.close();
                }
            }
            throw failure;
        }
        return new ColumnarBatch(vectors, rows);
    }

    private static ColumnVector rowIndices(long firstRow, int rows) {
        OnHeapColumnVector indices = new OnHeapColumnVector(rows, DataTypes.LongType);
        for (int row = 0; row < rows; row++) {
            indices.putLong(row, firstRow + row);
        }
        return indices;
    }

    /**
     * Rows [firstRow, firstRow + rows) of one object column, decoded into an Arrow vector of its Spark type: unsigned
     * types widened exactly by the library to the next signed type, u64 into a decimal vector's low words (a
     * window read with a stride of two u64 values, the high words left zero).
     */
    private ArrowColumnVector readColumn(int column, String name, long firstRow, int rows) {
        ValueType stored = shape.columnTypes()[column];
        BaseFixedWidthVector vector = newVector(stored, name);
        try {
            vector.allocateNew(rows);
            vector.setValueCount(rows);
            vector.getDataBuffer().setZero(0, vector.getDataBuffer().capacity());
            vector.getValidityBuffer().setOne(0, BitVectorHelper.getValidityBufferSizeFromCount(rows));
            if (rows > 0) {
                ByteBuffer target = vector.getDataBuffer().nioBuffer(0, rows * vector.getTypeWidth())
                        .order(ByteOrder.nativeOrder());
                ValueType decoded = decodedType(stored);
                long stride = stored == ValueType.U64 ? 2 : 1;
                file.reader().readWindow(decoded, firstRow, column, rows, 1, target, stride);
            }
            return new ArrowColumnVector(vector);
        } catch (RuntimeException | Error failure) {
            vector.close();
            throw failure;
        }
    }

    private int fieldOf(int column) {
        return shape.frame() ? column : column + 1;
    }

    private BaseFixedWidthVector newVector(ValueType stored, String name) {
        return switch (stored) {
            case I8 -> new TinyIntVector(name, allocator);
            case I16, U8 -> new SmallIntVector(name, allocator);
            case I32, U16 -> new IntVector(name, allocator);
            case I64, U32 -> new BigIntVector(name, allocator);
            case U64 -> new DecimalVector(name, allocator, TypeMapping.U64_TYPE.precision(),
                    TypeMapping.U64_TYPE.scale());
            case F32 -> new Float4Vector(name, allocator);
            case F64 -> new Float8Vector(name, allocator);
            default -> throw new IllegalArgumentException("dbdf: value type " + stored + " has no Spark type");
        };
    }

    /** The type the library decodes a column of {@code stored} values into: that of its Spark type. */
    private static ValueType decodedType(ValueType stored) {
        return switch (stored) {
            case U8 -> ValueType.I16;
            case U16 -> ValueType.I32;
            case U32 -> ValueType.I64;
            default -> stored;
        };
    }

    /** Bytes of one value in the Spark type's vector. */
    private static int sparkWidth(ValueType stored) {
        return stored == ValueType.U64 ? 16 : decodedType(stored).size();
    }

    /** Blocks of the band holding a selected column, read as the band's slices are (what pruning saves). */
    private void countBlocksRead() {
        long read = 0;
        for (int member = 0; member < band.blockCount(); member++) {
            long first = band.blockCols()[member];
            long end = first + band.blockWidths()[member];
            for (int column : outputColumns) {
                if (column >= first && column < end) {
                    read++;
                    break;
                }
            }
        }
        BlockDecoding.countBlocks(read);
    }
}
