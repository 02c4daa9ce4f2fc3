package org.dbdf.spark;

import java.io.Serializable;

/**
 * Rows [firstRow, endRow) of an object and the blocks that hold them: no block of the object crosses the band's
 * edges, so the band is read from these blocks alone. The block positions and column ranges come from the block
 * index, so that an executor can skip blocks of columns not selected without reading them.
 *
 * @param blockIndices ordinal of each block in the file
 * @param blockCols    first object column of each block
 * @param blockWidths  columns of each block
 * @param bytes        encoded bytes of the blocks
 */
record RowBand(long firstRow, long endRow, long[] blockIndices, long[] blockCols, long[] blockWidths, long bytes)
        implements Serializable {

    long rows() {
        return endRow - firstRow;
    }

    int blockCount() {
        return blockIndices.length;
    }
}
