package org.dbdf;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Values of every value type as raw bit patterns, and conversions between them and the value buffers the API takes:
 * typed Java arrays and direct buffers. Both are held as Object here, for tests that choose the value type at run
 * time; {@link TypedOverloads} passes them to the matching overload.
 */
final class TestData {
    /** Where values live. */
    enum Storage {
        /** The Java array of the value type's width. */
        ARRAY,
        /** A direct buffer in native byte order. */
        DIRECT_BUFFER
    }

    private TestData() {
    }

    /** The value type the reader reports for an empty block, which stores none: dbdf.h says DBDF_VALUE_NONE. */
    static ValueType emptyBlockValueType(ValueType objectOrColumnType) {
        return ValueType.NONE;  // empty blocks store no values (dbdf.h: DBDF_VALUE_NONE)
    }

    /** A new array of the Java class that holds {@code type}, with {@code length} elements. */
    static Object newArray(ValueType type, int length) {
        return Array.newInstance(type.arrayClass().getComponentType(), length);
    }

    /** Room for {@code length} values of {@code type} in {@code storage}, all zero. */
    static Object newValues(ValueType type, int length, Storage storage) {
        return switch (storage) {
            case ARRAY -> newArray(type, length);
            case DIRECT_BUFFER -> ByteBuffer.allocateDirect(length * type.size()).order(ByteOrder.nativeOrder());
        };
    }

    /** A typed array from raw bit patterns (low bits of each long). */
    static Object fromBits(ValueType type, long[] bits) {
        Object array = newArray(type, bits.length);
        for (int index = 0; index < bits.length; index++) {
            long value = bits[index];
            switch (type) {
                case U8, I8 -> ((byte[]) array)[index] = (byte) value;
                case U16, I16 -> ((short[]) array)[index] = (short) value;
                case U32, I32 -> ((int[]) array)[index] = (int) value;
                case U64, I64 -> ((long[]) array)[index] = value;
                case F32 -> ((float[]) array)[index] = Float.intBitsToFloat((int) value);
                case F64 -> ((double[]) array)[index] = Double.longBitsToDouble(value);
                default -> throw new IllegalArgumentException(type.toString());
            }
        }
        return array;
    }

    /** Values of {@code type} in {@code storage} from raw bit patterns (low bits of each long). */
    static Object fromBits(ValueType type, long[] bits, Storage storage) {
        if (storage == Storage.ARRAY) {
            return fromBits(type, bits);
        }
        ByteBuffer buffer = (ByteBuffer) newValues(type, bits.length, storage);
        for (int index = 0; index < bits.length; index++) {
            int offset = index * type.size();
            switch (type.size()) {
                case 1 -> buffer.put(offset, (byte) bits[index]);
                case 2 -> buffer.putShort(offset, (short) bits[index]);
                case 4 -> buffer.putInt(offset, (int) bits[index]);
                default -> buffer.putLong(offset, bits[index]);
            }
        }
        return buffer;
    }

    /** Raw bit patterns of values in an array or a native-order buffer, zero-extended to the type's width. */
    static long[] toBits(ValueType type, Object values) {
        if (!(values instanceof ByteBuffer buffer)) {
            return arrayToBits(type, values);
        }
        long[] bits = new long[buffer.capacity() / type.size()];
        for (int index = 0; index < bits.length; index++) {
            int offset = index * type.size();
            bits[index] = switch (type.size()) {
                case 1 -> buffer.get(offset) & 0xFFL;
                case 2 -> buffer.getShort(offset) & 0xFFFFL;
                case 4 -> buffer.getInt(offset) & 0xFFFF_FFFFL;
                default -> buffer.getLong(offset);
            };
        }
        return bits;
    }

    /** Raw bit patterns of a typed array, zero-extended to the type's width (no NaN canonicalisation). */
    private static long[] arrayToBits(ValueType type, Object array) {
        int length = Array.getLength(array);
        long[] bits = new long[length];
        for (int index = 0; index < length; index++) {
            bits[index] = switch (type) {
                case U8, I8 -> ((byte[]) array)[index] & 0xFFL;
                case U16, I16 -> ((short[]) array)[index] & 0xFFFFL;
                case U32, I32 -> ((int[]) array)[index] & 0xFFFF_FFFFL;
                case U64, I64 -> ((long[]) array)[index];
                case F32 -> Float.floatToRawIntBits(((float[]) array)[index]) & 0xFFFF_FFFFL;
                case F64 -> Double.doubleToRawLongBits(((double[]) array)[index]);
                default -> throw new IllegalArgumentException(type.toString());
            };
        }
        return bits;
    }

    /** Masks bit patterns to the type's width, so expected values compare with {@link #toBits}. */
    static long[] masked(ValueType type, long[] bits) {
        long[] result = new long[bits.length];
        long mask = type.size() == 8 ? -1L : (1L << (8 * type.size())) - 1;
        for (int index = 0; index < bits.length; index++) {
            result[index] = bits[index] & mask;
        }
        return result;
    }

    /**
     * A rows x cols matrix of bit patterns for {@code type}: about a third of the cells zero, the others spread over
     * the type's range, including its extremes (and -0.0, a NaN with payload, infinities and a subnormal for
     * floating-point types).
     */
    static long[] sampleBits(ValueType type, int rows, int cols) {
        long[] specials = switch (type) {
            case U8 -> new long[] {0xFF, 1, 0x80, 0x7F};
            case U16 -> new long[] {0xFFFF, 1, 0x8000, 300};
            case U32 -> new long[] {0xFFFF_FFFFL, 1, 0x8000_0000L, 70000};
            case U64 -> new long[] {-1L, 1, Long.MIN_VALUE, 1L << 40};
            case I8 -> new long[] {-128, 127, -1, 5};
            case I16 -> new long[] {-32768, 32767, -1, 200};
            case I32 -> new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE, -1, 100000};
            case I64 -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE, -1, 1L << 50};
            case F32 -> new long[] {Float.floatToRawIntBits(-0.0f), 0x7FC0_1234L, Float.floatToRawIntBits(1.5f),
                    Float.floatToRawIntBits(Float.NEGATIVE_INFINITY), 1L, Float.floatToRawIntBits(3.25e30f)};
            case F64 -> new long[] {Double.doubleToRawLongBits(-0.0), 0x7FF8_0000_0000_BEEFL,
                    Double.doubleToRawLongBits(0.1), Double.doubleToRawLongBits(Double.POSITIVE_INFINITY), 1L,
                    Double.doubleToRawLongBits(-1e300)};
            default -> throw new IllegalArgumentException(type.toString());
        };
        long[] bits = new long[rows * cols];
        int special = 0;
        for (int index = 0; index < bits.length; index++) {
            if (index % 3 == 1) {
                continue;
            }
            bits[index] = masked(type, new long[] {specials[special % specials.length]})[0];
            special++;
        }
        return bits;
    }

    /** The block of a row-major rows x cols matrix at (row, col) with the given shape, row-major. */
    static long[] tile(long[] matrix, int cols, int row, int col, int tileRows, int tileCols) {
        long[] tile = new long[tileRows * tileCols];
        for (int i = 0; i < tileRows; i++) {
            System.arraycopy(matrix, (row + i) * cols + col, tile, i * tileCols, tileCols);
        }
        return tile;
    }
}
