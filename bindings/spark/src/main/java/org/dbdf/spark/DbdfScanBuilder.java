package org.dbdf.spark;

import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** Takes the columns a query needs (column pruning): blocks holding none of them are not decoded. */
final class DbdfScanBuilder implements ScanBuilder, SupportsPushDownRequiredColumns {
    private final DbdfTable table;
    private StructType required;

    DbdfScanBuilder(DbdfTable table) {
        this.table = table;
        this.required = table.schema();
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
        required = requiredSchema;
    }

    @Override
    public Scan build() {
        StructType full = table.shape().schema();
        StructField[] fields = required.fields();
        int[] outputColumns = new int[fields.length];
        for (int field = 0; field < fields.length; field++) {
            int index = full.fieldIndex(fields[field].name());
            outputColumns[field] = table.shape().kind() == TableShape.Kind.ENTRIES ? index
                    : table.shape().objectColumnOf(index);
        }
        return new DbdfScan(table, required, outputColumns, SQLConf.get().filesMaxPartitionBytes());
    }
}
