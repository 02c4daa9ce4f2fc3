package org.dbdf.spark;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DecimalVector;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.dbdf.DbdfException;
import org.dbdf.ValueType;

/**
 * Reads a frame or a dense matrix as ColumnarBatches, a row band (or a slice of at most {@link #MAX_BATCH_BYTES} of
 * values of one) per batch. The selected columns of a slice are read by window reads straight into native memory
 * from Spark's Arrow allocator, one read per {@link ReadGroup}: a run of adjacent selected columns of one block and
 * one type is read in one pass, row-major, into one buffer (a block whose columns are all selected is copied from
 * the file as it is, with no decoding pass), and each column is a {@link NativeValuesVector} over its place in the
 * rows. Only the blocks that hold a selected column are read, nothing is zero-filled or copied after the read, and a
 * band taller than memory (an empty block claiming billions of rows costs a file nothing) is read slice by slice.
 * u64 columns go into Arrow decimal vectors; the {@code row} field of a dense matrix is an on-heap vector of row
 * indices.
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
    /** Spark type of each output field. */
    private final DataType[] fieldTypes;
    /** The selected object columns (not the row index), sorted. */
    private final long[] selectedColumns;

    private RowBand band;
    /** How the selected columns of {@link #band} are read, except u64 columns and the row index. */
    private List<ReadGroup> groups;
    /** Where the next batch starts, inside {@link #band}. */
    private long nextRow;
    private ColumnarBatch batch;
    /**
     * The native buffer of each read of a slice (in the order of {@link #groups}), kept for the next slice, as Spark's
     * own readers keep their vectors: a new 64 MiB allocation per batch costs a page fault per 4 KiB (the kernel
     * zero-fills every page) before the read writes it. Each buffer holds at most twice what its read needs.
     */
    private final List<ArrowBuf> buffers = new ArrayList<>();

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
        this.fieldTypes = Arrays.stream(shape.schema().fields()).map(StructField::dataType).toArray(DataType[]::new);
        this.selectedColumns = Arrays.stream(outputColumns).filter(column -> column >= 0).asLongStream().sorted()
                .toArray();
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
            groups = readGroups(band);
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
            buffers.forEach(ArrowBuf::close);
            buffers.clear();
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

    /**
     * Selected columns of one block and one Spark type with adjacent object columns, in column order: read together
     * by one window read of {@code fields.length} columns from {@code firstColumn}.
     *
     * @param fields the output field of each column of the run
     */
    private record ReadGroup(int firstColumn, int[] fields) {
    }

    /**
     * The read groups of a band: the selected columns (but u64 and the row index) in column order, cut where a column
     * is not the next one, has another type, or lies in another block of the band (the first that holds it). Any cut
     * reads the same values; these make a block of several selected columns one pass over its payload.
     */
    private List<ReadGroup> readGroups(RowBand band) {
        List<Integer> fields = new ArrayList<>();
        for (int field = 0; field < outputColumns.length; field++) {
            if (outputColumns[field] >= 0 && shape.columnTypes()[outputColumns[field]] != ValueType.U64) {
                fields.add(field);
            }
        }
        fields.sort(Comparator.comparingInt(field -> outputColumns[field]));
        TreeMap<Long, Integer> blocks = blocksByFirstColumn(band);
        List<ReadGroup> found = new ArrayList<>();
        int start = 0;
        for (int end = 1; end <= fields.size(); end++) {
            boolean cut = end == fields.size();
            if (!cut) {
                int previous = outputColumns[fields.get(end - 1)];
                int column = outputColumns[fields.get(end)];
                cut = column != previous + 1
                        || decodedType(shape.columnTypes()[column]) != decodedType(shape.columnTypes()[previous])
                        || blockHolding(band, blocks, column) != blockHolding(band, blocks, previous);
            }
            if (cut) {
                int[] run = fields.subList(start, end).stream().mapToInt(Integer::intValue).toArray();
                found.add(new ReadGroup(outputColumns[run[0]], run));
                start = end;
            }
        }
        return found;
    }

    /**
     * For each block start column of the band, a block of the band starting there (the first): a block holding a
     * column is found by one look-up, not by a walk over the band's blocks per column (65536 one-column blocks and
     * columns would be 4e9 steps).
     */
    private static TreeMap<Long, Integer> blocksByFirstColumn(RowBand band) {
        TreeMap<Long, Integer> blocks = new TreeMap<>();
        for (int member = 0; member < band.blockCount(); member++) {
            blocks.putIfAbsent(band.blockCols()[member], member);
        }
        return blocks;
    }

    /** A block of the band holding object column {@code column} (see blocksByFirstColumn), -1 if none is found. */
    private static int blockHolding(RowBand band, TreeMap<Long, Integer> blocks, int column) {
        Map.Entry<Long, Integer> starting = blocks.floorEntry((long) column);
        if (starting == null) {
            return -1;
        }
        int member = starting.getValue();
        return column < band.blockCols()[member] + band.blockWidths()[member] ? member : -1;
    }

    private ColumnarBatch readSlice(long firstRow, int rows) {
        ColumnVector[] vectors = new ColumnVector[outputColumns.length];
        try {
            for (int field = 0; field < outputColumns.length; field++) {
                int column = outputColumns[field];
                if (column < 0) {
                    vectors[field] = rowIndices(firstRow, rows);
                } else if (shape.columnTypes()[column] == ValueType.U64) {
                    vectors[field] = readDecimalColumn(column, fieldNames[fieldOf(column)], firstRow, rows);
                }
            }
            for (int read = 0; read < groups.size(); read++) {
                readGroup(groups.get(read), firstRow, rows, buffer(read, rows), vectors);
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
     * Rows [firstRow, firstRow + rows) of the group's columns, decoded by one window read (row-major, the group's
     * width apart) into one native buffer, each column a vector over its place in the rows: unsigned types are widened
     * exactly by the library to the next signed type. The vectors share the buffer, each holding a reference to it.
     */
    private void readGroup(ReadGroup group, long firstRow, int rows, ArrowBuf memory, ColumnVector[] vectors) {
        ValueType decoded = decodedType(shape.columnTypes()[group.firstColumn()]);
        int width = group.fields().length;
        long rowBytes = (long) width * decoded.size();
        if (rows > 0) {
            // At most MAX_BATCH_BYTES (maxBatchRows counts every selected column): an int.
            ByteBuffer target = memory.nioBuffer(0, Math.toIntExact(rows * rowBytes)).order(ByteOrder.nativeOrder());
            file.reader().readWindow(decoded, firstRow, group.firstColumn(), rows, width, target, width);
        }
        for (int member = 0; member < width; member++) {
            int field = group.fields()[member];
            long offset = (long) member * decoded.size();
            vectors[field] = new NativeValuesVector(fieldTypes[field], memory, offset, rowBytes);
        }
    }

    /** The buffer of read {@code read} of a slice of {@code rows} rows: the one kept, if its size fits. */
    private ArrowBuf buffer(int read, int rows) {
        ReadGroup group = groups.get(read);
        int valueBytes = decodedType(shape.columnTypes()[group.firstColumn()]).size();
        long bytes = Math.max(1, (long) rows * group.fields().length * valueBytes);
        while (buffers.size() <= read) {
            buffers.add(null);
        }
        ArrowBuf kept = buffers.get(read);
        if (kept == null || kept.capacity() < bytes || kept.capacity() > 2 * bytes) {
            if (kept != null) {
                kept.close(); // the vectors of a batch still open keep it alive until they are closed
            }
            kept = allocator.buffer(bytes);
            buffers.set(read, kept);
        }
        return kept;
    }

    /**
     * Rows [firstRow, firstRow + rows) of a u64 column, into a decimal(20,0) vector's low words: a window read with a
     * stride of two u64 values, the high words zero (the data buffer is zero-filled for them).
     */
    private ArrowColumnVector readDecimalColumn(int column, String name, long firstRow, int rows) {
        DecimalVector vector = new DecimalVector(name, allocator, TypeMapping.U64_TYPE.precision(),
                TypeMapping.U64_TYPE.scale());
        try {
            vector.allocateNew(rows);
            vector.setValueCount(rows);
            vector.getDataBuffer().setZero(0, vector.getDataBuffer().capacity());
            vector.getValidityBuffer().setOne(0, BitVectorHelper.getValidityBufferSizeFromCount(rows));
            if (rows > 0) {
                ByteBuffer target = vector.getDataBuffer().nioBuffer(0, rows * vector.getTypeWidth())
                        .order(ByteOrder.nativeOrder());
                file.reader().readWindow(ValueType.U64, firstRow, column, rows, 1, target, 2);
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
            // The first selected column at or after the block's first: one binary search per block.
            int at = Arrays.binarySearch(selectedColumns, first);
            int next = at >= 0 ? at : -at - 1;
            if (next < selectedColumns.length && selectedColumns[next] < end) {
                read++;
            }
        }
        BlockDecoding.countBlocks(read);
    }
}
