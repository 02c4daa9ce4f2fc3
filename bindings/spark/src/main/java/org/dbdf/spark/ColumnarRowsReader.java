package org.dbdf.spark;

import java.io.IOException;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The rows of a frame or dense matrix, for a caller that asks the factory for rows: those of the batches
 * {@link ColumnarBandReader} reads, so that one decoding path (bounded batches, pruning, no copy) serves both.
 */
final class ColumnarRowsReader implements PartitionReader<InternalRow> {
    private final ColumnarBandReader batches;
    private Iterator<InternalRow> rows;
    private InternalRow row;

    ColumnarRowsReader(ColumnarBandReader batches) {
        this.batches = batches;
    }

    @Override
    public boolean next() {
        while (rows == null || !rows.hasNext()) {
            if (!batches.next()) {
                return false;
            }
            ColumnarBatch batch = batches.get();
            rows = batch.rowIterator();
        }
        row = rows.next();
        return true;
    }

    /** Valid until the next call of next(): the row is a view of the current batch, as Spark's readers give. */
    @Override
    public InternalRow get() {
        return row;
    }

    @Override
    public void close() throws IOException {
        batches.close();
    }
}
