package org.dbdf;

/**
 * Status codes of the dbdf C interface ({@code dbdf_status_t}). Every error a call can report is one of these;
 * {@link DbdfException#status()} tells which.
 */
public enum Status {
    OK(0),
    END_OF_BLOCKS(1),
    INVALID_ARGUMENT(-1),
    CALL_ORDER(-2),
    BUFFER_TOO_SMALL(-3),
    IO(-4),
    TRUNCATED(-5),
    FORMAT(-6),
    RANGE(-7),
    NOMEM(-8),
    UNSUPPORTED(-9),
    INTERNAL(-10),
    SINK(-11),
    /** A code this version of the binding does not know (a newer native library). */
    UNKNOWN(Integer.MIN_VALUE);

    private final int code;

    Status(int code) {
        this.code = code;
    }

    /** The numeric code of {@code dbdf_status_t}. */
    public int code() {
        return code;
    }

    /** The status with this numeric code, or {@link #UNKNOWN}. */
    public static Status fromCode(int code) {
        for (Status status : values()) {
            if (status.code == code) {
                return status;
            }
        }
        return UNKNOWN;
    }

    /** True when the input data itself is bad: truncated, breaking the format, or holding a value out of range. */
    public boolean isInvalidData() {
        return this == TRUNCATED || this == FORMAT || this == RANGE;
    }

    /** True when the failure came from the environment: the file system or the output sink. */
    public boolean isIoError() {
        return this == IO || this == SINK;
    }

    /** True when the caller used the API wrongly: bad argument, wrong call order, buffer too small. */
    public boolean isUsageError() {
        return this == INVALID_ARGUMENT || this == CALL_ORDER || this == BUFFER_TOO_SMALL;
    }
}
