package org.dbdf;

/** How a block is stored. */
public enum BlockType {
    /** All zeros, no payload. */
    EMPTY(0),
    /** Row-major values. */
    DENSE(1),
    /** Per-row counts and (column, value) pairs. */
    CSR(2),
    /** (row, [column,] value) triplets. */
    COO(3);

    private final int code;

    BlockType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static BlockType fromCode(int code) {
        for (BlockType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown block type code " + code);
    }
}
