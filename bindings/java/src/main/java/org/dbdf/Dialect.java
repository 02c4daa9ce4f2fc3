package org.dbdf;

/**
 * Which byte layout a .dbdf file follows. Chosen explicitly when a reader or writer is opened; never guessed.
 *
 * <p>{@link #DAPHNE} is the layout DAPHNE's own runtime writes (its value type codes, CSR as three arrays with
 * 64-bit indices, frames without a block header and without recoverable labels, a scalar form); see
 * docs/daphne-dialect.md and section 5 of dbdf.h.
 */
public enum Dialect {
    /** The published format; the default. */
    SPEC(0),
    /** The layout DAPHNE's runtime writes. */
    DAPHNE(1);

    private final int code;

    Dialect(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static Dialect fromCode(int code) {
        for (Dialect dialect : values()) {
            if (dialect.code == code) {
                return dialect;
            }
        }
        throw new IllegalArgumentException("unknown dialect code " + code);
    }
}
