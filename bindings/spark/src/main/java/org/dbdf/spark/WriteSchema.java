package org.dbdf.spark;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.dbdf.ValueType;

/**
 * The frame column type of each Spark column written: the reverse of {@link TypeMapping} where it is one to one
 * (byte, short, int, long, float, double), and DECIMAL(20, 0) as u64, so that a u64 column read from .dbdf is
 * written back as u64. Any other type is refused, naming the column.
 */
final class WriteSchema {
    private WriteSchema() {
    }

    static ValueType[] columnTypes(StructType schema) {
        StructField[] fields = schema.fields();
        if (fields.length == 0) {
            throw new IllegalArgumentException("dbdf: a frame needs at least one column");
        }
        ValueType[] types = new ValueType[fields.length];
        for (int field = 0; field < fields.length; field++) {
            types[field] = valueType(fields[field]);
        }
        return types;
    }

    private static ValueType valueType(StructField field) {
        DataType type = field.dataType();
        if (type.equals(DataTypes.ByteType)) {
            return ValueType.I8;
        } else if (type.equals(DataTypes.ShortType)) {
            return ValueType.I16;
        } else if (type.equals(DataTypes.IntegerType)) {
            return ValueType.I32;
        } else if (type.equals(DataTypes.LongType)) {
            return ValueType.I64;
        } else if (type.equals(DataTypes.FloatType)) {
            return ValueType.F32;
        } else if (type.equals(DataTypes.DoubleType)) {
            return ValueType.F64;
        } else if (type.equals(TypeMapping.U64_TYPE)) {
            return ValueType.U64;
        }
        throw new IllegalArgumentException("dbdf: column '" + field.name() + "' has type " + type.simpleString()
                + ": a .dbdf frame holds numeric columns only (tinyint, smallint, int, bigint, float, double, and "
                + "decimal(20,0) as u64)");
    }
}
