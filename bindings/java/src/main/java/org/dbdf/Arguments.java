package org.dbdf;

/**
 * Checks of integer arguments against the C type they are passed as, done in Java before any native call. Java's
 * long and int are signed: a negative long handed to a C {@code uint64_t} would reach the library as 2^64 plus the
 * value (-1 as the largest position there is), and a long beyond 2^32 - 1 handed to a {@code uint32_t} would lose
 * its high bits.
 */
final class Arguments {
    /** The largest value of a C uint32_t. */
    static final long MAX_UINT32 = 0xFFFF_FFFFL;

    private Arguments() {
    }

    /**
     * A position, index, count or stride the C interface takes as {@code uint64_t}: 0..{@link Long#MAX_VALUE} as a
     * long (positions that large do not occur; a negative long is a mistake, not an unsigned value).
     *
     * @throws IllegalArgumentException naming {@code name}, the value and the range, if {@code value} is negative
     */
    static long uint64(long value, String name) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must be in 0.." + Long.MAX_VALUE + ", not " + value);
        }
        return value;
    }

    /**
     * A block dimension or tile size the C interface takes as {@code uint32_t} (the format stores block shapes in
     * unsigned 32-bit fields).
     *
     * @throws IllegalArgumentException naming {@code name}, the value and the range, if {@code value} is outside
     *         0..4294967295
     */
    static long uint32(long value, String name) {
        if (value < 0 || value > MAX_UINT32) {
            throw new IllegalArgumentException(name + " must be in 0.." + MAX_UINT32 + ", not " + value);
        }
        return value;
    }
}
