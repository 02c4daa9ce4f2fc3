package org.dbdf.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Sent to the executors: opens each partition's file through Hadoop and reads its bands, as ColumnarBatches for
 * frames and dense matrices, as rows of entries otherwise.
 */
final class DbdfReaderFactory implements PartitionReaderFactory {
    private static final long serialVersionUID = 1L;

    private final SerializableConfiguration configuration;
    private final ReadOptions options;
    private final TableShape shape;
    /** For each output field: the object column (COLUMNS; -1 the row index) or the entry field (ENTRIES). */
    private final int[] outputColumns;

    DbdfReaderFactory(SerializableConfiguration configuration, ReadOptions options, TableShape shape,
            int[] outputColumns) {
        this.configuration = configuration;
        this.options = options;
        this.shape = shape;
        this.outputColumns = outputColumns;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        DbdfInputPartition part = (DbdfInputPartition) partition;
        HadoopFiles.OpenReader file = open(part);
        return shape.kind() == TableShape.Kind.ENTRIES
                ? new EntriesPartitionReader(file, shape, outputColumns, part)
                : new ColumnarRowsReader(new ColumnarBandReader(file, shape, outputColumns, part));
    }

    /** Frames and dense matrices are read as ColumnarBatches of Arrow vectors; entries as rows. */
    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return shape.kind() == TableShape.Kind.COLUMNS;
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
        DbdfInputPartition part = (DbdfInputPartition) partition;
        return new ColumnarBandReader(open(part), shape, outputColumns, part);
    }

    private HadoopFiles.OpenReader open(DbdfInputPartition part) {
        return HadoopFiles.open(part.path(), part.fileBytes(), configuration.get(), options.readerOptions());
    }
}
