package org.dbdf.spark;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import org.apache.spark.sql.Row;
import org.dbdf.ValueType;
import org.dbdf.Writer;

/** The values of one column of a task's rows, gathered before the frame is written (its header needs the rows). */
final class ColumnBuffer {
    private static final BigInteger U64_LIMIT = BigInteger.ONE.shiftLeft(64);

    private final ValueType type;
    private final String label;
    private final int field;
    private Object values;
    private int size;

    ColumnBuffer(ValueType type, String label, int field) {
        this.type = type;
        this.label = label;
        this.field = field;
        this.values = TypeMapping.newArray(type, 1024);
    }

    /** Appends this column's value of {@code row}; {@code rowNumber} (in the task) names it in errors. */
    void add(Row row, long rowNumber) {
        if (row.isNullAt(field)) {
            throw new IllegalArgumentException("dbdf: column '" + label + "' is null in row " + rowNumber
                    + " of the task: a .dbdf frame has no missing values");
        }
        int capacity = java.lang.reflect.Array.getLength(values);
        if (size == capacity) {
            values = copy(values, 0, Math.addExact(capacity, capacity / 2 + 1));
        }
        switch (type) {
            case I8 -> ((byte[]) values)[size] = row.getByte(field);
            case I16 -> ((short[]) values)[size] = row.getShort(field);
            case I32 -> ((int[]) values)[size] = row.getInt(field);
            case I64 -> ((long[]) values)[size] = row.getLong(field);
            case F32 -> ((float[]) values)[size] = row.getFloat(field);
            case F64 -> ((double[]) values)[size] = row.getDouble(field);
            case U64 -> ((long[]) values)[size] = unsignedBits(row.getDecimal(field), rowNumber);
            default -> throw new IllegalStateException("no buffer for " + type);
        }
        size++;
    }

    /** Adds rows [first, first + count) of the column as a dense block at (first, column) of the frame. */
    void writeBlock(Writer writer, int first, int count, long column) {
        Object block = copy(values, first, first + count);
        if (block instanceof double[] array) {
            writer.addDense(first, column, count, 1, type, array);
        } else if (block instanceof float[] array) {
            writer.addDense(first, column, count, 1, type, array);
        } else if (block instanceof long[] array) {
            writer.addDense(first, column, count, 1, type, array);
        } else if (block instanceof int[] array) {
            writer.addDense(first, column, count, 1, type, array);
        } else if (block instanceof short[] array) {
            writer.addDense(first, column, count, 1, type, array);
        } else {
            writer.addDense(first, column, count, 1, type, (byte[]) block);
        }
    }

    int size() {
        return size;
    }

    private long unsignedBits(BigDecimal value, long rowNumber) {
        BigInteger integer;
        try {
            integer = value.toBigIntegerExact();
        } catch (ArithmeticException notInteger) {
            integer = null;
        }
        if (integer == null || integer.signum() < 0 || integer.compareTo(U64_LIMIT) >= 0) {
            throw new IllegalArgumentException("dbdf: column '" + label + "' (u64) holds " + value + " in row "
                    + rowNumber + " of the task: not an integer in 0..18446744073709551615");
        }
        return integer.longValue();
    }

    private static Object copy(Object array, int from, int to) {
        if (array instanceof double[] values) {
            return Arrays.copyOfRange(values, from, to);
        } else if (array instanceof float[] values) {
            return Arrays.copyOfRange(values, from, to);
        } else if (array instanceof long[] values) {
            return Arrays.copyOfRange(values, from, to);
        } else if (array instanceof int[] values) {
            return Arrays.copyOfRange(values, from, to);
        } else if (array instanceof short[] values) {
            return Arrays.copyOfRange(values, from, to);
        }
        return Arrays.copyOfRange((byte[]) array, from, to);
    }
}
