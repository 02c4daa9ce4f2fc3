package org.dbdf.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.dbdf.Block;
import org.dbdf.BlockType;
import org.dbdf.ValueType;

/**
 * Reads a matrix as (row, col, value) rows of its stored entries, block by block in the order of the row bands
 * (within a band, in the order of the blocks' positions): the entries a block yields as COO, with object
 * coordinates. Empty blocks yield none.
 */
final class EntriesPartitionReader extends BandPartitionReader {
    private final ValueType valueType;
    /** Field of (row, col, value) each output field is: 0, 1 or 2. */
    private final int[] outputFields;

    private RowBand band;
    private int member;
    private long blockRow;
    private long blockCol;
    private int[] rows = new int[0];
    private int[] cols = new int[0];
    private Object values;
    private int entries;
    private int entry = -1;

    EntriesPartitionReader(HadoopFiles.OpenReader file, TableShape shape, int[] outputFields,
            DbdfInputPartition partition) {
        super(file, partition);
        this.valueType = shape.columnTypes()[0];
        this.outputFields = outputFields;
    }

    @Override
    protected boolean advance() {
        while (entry + 1 >= entries) {
            if (band == null || member >= band.blockCount()) {
                if (!bands.hasNext()) {
                    return false;
                }
                band = bands.next();
                member = 0;
                continue;
            }
            decodeBlock(file.reader().seekBlock(band.blockIndices()[member++]));
        }
        entry++;
        return true;
    }

    private void decodeBlock(Block block) {
        entry = -1;
        entries = 0;
        if (block.blockType() == BlockType.EMPTY) {
            return;
        }
        // At most the values stored: rows * cols for a dense block (its zeros are no entries), the entry count
        // of its header for a sparse one. The header was checked against the file's size when the block was read.
        long stored = block.info().storedValues();
        if (stored > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("dbdf: cannot read " + file.path() + ": block " + block.index()
                    + " stores " + stored + " values, more than one Java array holds");
        }
        int count = (int) stored;
        if (rows.length < count) {
            rows = new int[count];
            cols = new int[count];
        }
        values = TypeMapping.newArray(valueType, count);
        entries = BlockDecoding.decodeCoo(block, valueType, rows, cols, values);
        blockRow = block.row();
        blockCol = block.col();
    }

    @Override
    public InternalRow get() {
        Object[] output = new Object[outputFields.length];
        for (int field = 0; field < outputFields.length; field++) {
            output[field] = switch (outputFields[field]) {
                case 0 -> blockRow + rows[entry];
                case 1 -> blockCol + cols[entry];
                default -> TypeMapping.sparkValue(valueType, values, entry);
            };
        }
        return new GenericInternalRow(output);
    }
}
