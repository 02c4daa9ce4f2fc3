package org.dbdf.spark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.dbdf.BlockInfo;
import org.dbdf.Reader;

/**
 * Cuts an object into row bands from its block index only (block headers; no payload is read): blocks whose row
 * ranges overlap belong to one band, so each band is read from its own blocks. Consecutive bands are then merged
 * into input partitions of at most {@code maxPartitionBytes} encoded bytes (a band larger than that is a partition
 * of its own), as Spark's file sources pack file splits up to spark.sql.files.maxPartitionBytes.
 */
final class BandPlanner {
    private BandPlanner() {
    }

    static List<RowBand> bands(Reader reader) {
        long blockCount = reader.buildIndex();
        List<BlockInfo> blocks = new ArrayList<>();
        for (long index = 0; index < blockCount; index++) {
            blocks.add(reader.indexEntry(index));
        }
        blocks.sort(Comparator.comparingLong(BlockInfo::row).thenComparingLong(BlockInfo::col));
        long objectRows = reader.info().rows();
        List<RowBand> bands = new ArrayList<>();
        List<BlockInfo> members = new ArrayList<>();
        long firstRow = 0;
        long endRow = 0;
        for (BlockInfo block : blocks) {
            if (block.rows() == 0) {
                continue; // covers no cell: nothing to read
            }
            if (!members.isEmpty() && block.row() >= endRow) {
                bands.add(band(firstRow, endRow, members));
                members.clear();
                firstRow = endRow;
            }
            members.add(block);
            endRow = Math.max(endRow, block.row() + block.rows());
        }
        if (!members.isEmpty() || objectRows > firstRow) {
            // The last band reaches the last row: an object of no columns has rows but no blocks.
            bands.add(band(firstRow, Math.max(endRow, objectRows), members));
        }
        return bands;
    }

    static List<List<RowBand>> partitions(List<RowBand> bands, long maxPartitionBytes) {
        List<List<RowBand>> partitions = new ArrayList<>();
        List<RowBand> current = new ArrayList<>();
        long currentBytes = 0;
        for (RowBand band : bands) {
            if (!current.isEmpty() && currentBytes + band.bytes() > maxPartitionBytes) {
                partitions.add(current);
                current = new ArrayList<>();
                currentBytes = 0;
            }
            current.add(band);
            currentBytes += band.bytes();
        }
        if (!current.isEmpty()) {
            partitions.add(current);
        }
        return partitions;
    }

    private static RowBand band(long firstRow, long endRow, List<BlockInfo> members) {
        int count = members.size();
        long[] indices = new long[count];
        long[] cols = new long[count];
        long[] widths = new long[count];
        long bytes = 0;
        for (int member = 0; member < count; member++) {
            BlockInfo block = members.get(member);
            indices[member] = block.index();
            cols[member] = block.col();
            widths[member] = block.cols();
            bytes += block.encodedBytes();
        }
        return new RowBand(firstRow, endRow, indices, cols, widths, bytes);
    }
}
