package org.dbdf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/** Checks on the value buffers handed to the native code, done in Java so that misuse gives a clear exception. */
final class Values {
    private Values() {
    }

    /**
     * Checks that {@code values} can hold values of {@code type}: the matching primitive array, or a direct
     * ByteBuffer aligned for the type, in native byte order when the type is wider than a byte (the library reads
     * and writes the memory as native values, whatever order the buffer says), and writable when {@code output}.
     * Returns what to pass down: the array, or the buffer sliced at its position so that the native side starts
     * there.
     */
    static Object check(ValueType type, Object values, boolean output) {
        Objects.requireNonNull(type, "value type");
        Objects.requireNonNull(values, "values");
        if (type == ValueType.NONE) {
            throw new IllegalArgumentException("value type NONE cannot hold values");
        }
        if (values instanceof ByteBuffer buffer) {
            if (!buffer.isDirect()) {
                throw new IllegalArgumentException("a ByteBuffer must be direct (ByteBuffer.allocateDirect)");
            }
            if (output && buffer.isReadOnly()) {
                throw new IllegalArgumentException("the output ByteBuffer is read-only");
            }
            if (type.size() > 1 && buffer.order() != ByteOrder.nativeOrder()) {
                throw new IllegalArgumentException("the ByteBuffer's byte order is " + buffer.order() + ", but " + type
                        + " values cross in the native order " + ByteOrder.nativeOrder()
                        + ": use buffer.order(ByteOrder.nativeOrder())");
            }
            if (buffer.alignmentOffset(buffer.position(), type.size()) != 0) {
                throw new IllegalArgumentException(
                        "the ByteBuffer's position is not aligned to " + type.size() + " bytes for " + type);
            }
            return buffer.slice();
        }
        if (!type.arrayClass().isInstance(values)) {
            throw new IllegalArgumentException("value type " + type + " needs a " + type.arrayClass().getSimpleName()
                    + " or a direct ByteBuffer, not a " + values.getClass().getSimpleName());
        }
        return values;
    }

    /** Number of elements of a dense output, which must fit a Java array. */
    static int arrayLength(long rows, long cols) {
        long cells = Math.multiplyExact(rows, cols);
        if (cells > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(rows + " x " + cols + " values do not fit in one Java array");
        }
        return (int) cells;
    }
}
