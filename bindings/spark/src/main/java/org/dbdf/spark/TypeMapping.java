package org.dbdf.spark;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.dbdf.ValueType;

/**
 * The Spark type of each value type, chosen so that every value converts exactly: unsigned types go to the next
 * wider signed type, u64 (up to 2^64 - 1, more than a long holds) to DECIMAL(20, 0).
 */
final class TypeMapping {
    static final DecimalType U64_TYPE = DataTypes.createDecimalType(20, 0);

    private TypeMapping() {
    }

    static DataType sparkType(ValueType type) {
        return switch (type) {
            case I8 -> DataTypes.ByteType;
            case I16, U8 -> DataTypes.ShortType;
            case I32, U16 -> DataTypes.IntegerType;
            case I64, U32 -> DataTypes.LongType;
            case U64 -> U64_TYPE;
            case F32 -> DataTypes.FloatType;
            case F64 -> DataTypes.DoubleType;
            default -> throw new IllegalArgumentException("dbdf: value type " + type + " has no Spark type");
        };
    }

    /**
     * Element {@code index} of a decoded array of {@code type} (unsigned types in the signed array of their width) as
     * Spark's internal value of {@link #sparkType(ValueType)}.
     */
    static Object sparkValue(ValueType type, Object values, int index) {
        return switch (type) {
            case I8 -> ((byte[]) values)[index];
            case U8 -> (short) Byte.toUnsignedInt(((byte[]) values)[index]);
            case I16 -> ((short[]) values)[index];
            case U16 -> Short.toUnsignedInt(((short[]) values)[index]);
            case I32 -> ((int[]) values)[index];
            case U32 -> Integer.toUnsignedLong(((int[]) values)[index]);
            case I64 -> ((long[]) values)[index];
            case U64 -> unsignedDecimal(((long[]) values)[index]);
            case F32 -> ((float[]) values)[index];
            case F64 -> ((double[]) values)[index];
            default -> throw new IllegalArgumentException("dbdf: value type " + type + " has no Spark type");
        };
    }

    /** What a negative long's bits, read as unsigned, add to the long: 2^64. */
    private static final BigInteger TWO_TO_THE_64 = BigInteger.ONE.shiftLeft(64);

    /**
     * The u64 whose bits {@code bits} holds, as a DECIMAL(20, 0). Below 2^63 the long itself (a Decimal made from a
     * long has precision 20 and scale 0, and holds the long as it is below 10^18); from 2^63 on the long plus 2^64.
     * Neither goes through the value's text.
     */
    static Decimal unsignedDecimal(long bits) {
        if (bits >= 0) return Decimal.apply(bits);
        BigDecimal value = new BigDecimal(BigInteger.valueOf(bits).add(TWO_TO_THE_64));
        return Decimal.apply(value, U64_TYPE.precision(), U64_TYPE.scale());
    }

    /** A new array of {@code length} values of {@code type}, of the class the binding decodes that type into. */
    static Object newArray(ValueType type, int length) {
        return java.lang.reflect.Array.newInstance(type.arrayClass().getComponentType(), length);
    }
}
