package org.dbdf;

/**
 * One block as stored, known without decoding its payload.
 *
 * @param index         ordinal of the block in the file, from 0
 * @param row           position of the block's first row in the object
 * @param col           position of the block's first column in the object
 * @param rows          block rows (an unsigned 32-bit field, hence long)
 * @param cols          block columns
 * @param valueType     stored value type; NONE for empty blocks (they store no values)
 * @param storedValues  values in the payload: rows*cols for dense, the entry count for CSR and COO, 0 for empty
 * @param offset        byte offset of the block record in the input
 * @param encodedBytes  size of the block record: position pair, block header and payload
 */
public record BlockInfo(long index, long row, long col, long rows, long cols, BlockType blockType,
        ValueType valueType, long storedValues, long offset, long encodedBytes) {

    /** Number of cells the block covers. */
    public long cells() {
        return rows * cols;
    }
}
