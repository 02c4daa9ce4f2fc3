package org.dbdf;

/** How the writer encodes a block that is added. */
public enum Encoding {
    /**
     * Smallest exact encoding among empty, dense, CSR and COO, with the narrowest value type into which every value
     * round-trips bit for bit (-0.0 and NaN payloads survive). The default.
     */
    AUTO(0),
    /** The block type of the add call (dense for addDense, ...) and the value type given. */
    AS_GIVEN(1),
    DENSE(2),
    CSR(3),
    COO(4);

    private final int code;

    Encoding(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
