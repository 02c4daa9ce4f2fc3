package org.dbdf.spark;

import java.io.IOException;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.dbdf.DbdfException;

/**
 * What the partition readers share: the open file, the partition's row bands in order, and the library's failures
 * reported with the file's path in front.
 */
abstract class BandPartitionReader implements PartitionReader<InternalRow> {
    protected final HadoopFiles.OpenReader file;
    protected final Iterator<RowBand> bands;

    BandPartitionReader(HadoopFiles.OpenReader file, DbdfInputPartition partition) {
        this.file = file;
        this.bands = partition.bands().iterator();
    }

    @Override
    public final boolean next() {
        try {
            return advance();
        } catch (DbdfException error) {
            throw HadoopFiles.invalid(file.path(), error);
        }
    }

    /** Moves to the next row, decoding the next blocks when needed; false after the last. */
    protected abstract boolean advance();

    @Override
    public void close() throws IOException {
        file.close();
    }
}
