package org.dbdf;

/** Data type of an object (format header, byte 1). */
public enum DataType {
    DENSE(1),
    CSR(2),
    FRAME(3),
    /**
     * A single value, as a 1 x 1 object: {@link Dialect#DAPHNE} only (the spec has no scalar, and a spec writer
     * refuses it). Read from the runtime's serialized values; written with
     * {@code beginMatrix(DataType.SCALAR, type, 1, 1)} and {@code writeDense} of one value, without a .meta sidecar.
     */
    SCALAR(4);

    private final int code;

    DataType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static DataType fromCode(int code) {
        for (DataType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown data type code " + code);
    }
}
