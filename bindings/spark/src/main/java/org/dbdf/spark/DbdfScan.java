package org.dbdf.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;
import org.dbdf.DbdfException;

/**
 * A read of the selected fields. Partitions are planned on the driver from each file's header and block index:
 * one per run of row bands up to maxPartitionBytes encoded bytes, never spanning two files.
 */
final class DbdfScan implements Scan, Batch {
    private final DbdfTable table;
    private final StructType readSchema;
    private final int[] outputColumns;
    private final long maxPartitionBytes;

    DbdfScan(DbdfTable table, StructType readSchema, int[] outputColumns, long maxPartitionBytes) {
        this.table = table;
        this.readSchema = readSchema;
        this.outputColumns = outputColumns;
        this.maxPartitionBytes = maxPartitionBytes;
    }

    @Override
    public StructType readSchema() {
        return readSchema;
    }

    @Override
    public String description() {
        return "dbdf " + table.name() + " " + readSchema.simpleString();
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        List<InputPartition> partitions = new ArrayList<>();
        for (FileStatus file : table.files()) {
            String path = file.getPath().toString();
            try (HadoopFiles.OpenReader open = HadoopFiles.open(path, file.getLen(), table.configuration().get(),
                    table.options().readerOptions())) {
                TableShape shape = TableShape.of(open.reader(), table.options(), path);
                if (!shape.compatible(table.shape())) {
                    throw new IllegalArgumentException("dbdf: " + path + " has the schema "
                            + shape.schema().simpleString() + ", unlike " + table.files().get(0).getPath() + " ("
                            + table.shape().schema().simpleString() + "): all files of a load must have one schema");
                }
                for (List<RowBand> bands : BandPlanner.partitions(BandPlanner.bands(open.reader()),
                        maxPartitionBytes)) {
                    partitions.add(new DbdfInputPartition(path, file.getLen(), bands));
                }
            } catch (DbdfException error) {
                throw HadoopFiles.invalid(path, error);
            } catch (IOException error) {
                throw new UncheckedIOException("dbdf: cannot close " + path, error);
            }
        }
        return partitions.toArray(new InputPartition[0]);
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new DbdfReaderFactory(table.configuration(), table.options(), table.shape(), outputColumns);
    }
}
