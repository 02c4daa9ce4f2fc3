package org.dbdf.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/** Consecutive row bands of one file, planned on the driver from its block index. */
record DbdfInputPartition(String path, long fileBytes, ArrayList<RowBand> bands) implements InputPartition {

    DbdfInputPartition(String path, long fileBytes, List<RowBand> bands) {
        this(path, fileBytes, new ArrayList<>(bands));
    }
}
