package org.dbdf;

/**
 * Value types of the format (codes 1..10).
 *
 * <p>Java has no unsigned integers. Unsigned values travel in the signed array of the same width, bit for bit:
 * U8 in {@code byte[]}, U16 in {@code short[]}, U32 in {@code int[]}, U64 in {@code long[]}. Read them back with
 * {@link Byte#toUnsignedInt}, {@link Short#toUnsignedInt}, {@link Integer#toUnsignedLong} and
 * {@link Long#toUnsignedString}. Overloads without a ValueType take the signed type of the array's width; pass the
 * ValueType explicitly for unsigned data.
 */
public enum ValueType {
    /** "No single value type": the object value type of a frame. Never valid for data. */
    NONE(0, 0, null),
    U8(1, 1, byte[].class),
    U16(2, 2, short[].class),
    U32(3, 4, int[].class),
    U64(4, 8, long[].class),
    I8(5, 1, byte[].class),
    I16(6, 2, short[].class),
    I32(7, 4, int[].class),
    I64(8, 8, long[].class),
    F32(9, 4, float[].class),
    F64(10, 8, double[].class);

    private final int code;
    private final int size;
    private final Class<?> arrayClass;

    ValueType(int code, int size, Class<?> arrayClass) {
        this.code = code;
        this.size = size;
        this.arrayClass = arrayClass;
    }

    /** The format's code. */
    public int code() {
        return code;
    }

    /** Size of one value in bytes (0 for NONE). */
    public int size() {
        return size;
    }

    /** The Java array class that holds values of this type ({@code null} for NONE). */
    public Class<?> arrayClass() {
        return arrayClass;
    }

    public boolean isUnsigned() {
        return this == U8 || this == U16 || this == U32 || this == U64;
    }

    public boolean isFloatingPoint() {
        return this == F32 || this == F64;
    }

    /** The value type with this code. */
    public static ValueType fromCode(int code) {
        for (ValueType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown value type code " + code);
    }
}
