package org.dbdf.spark;

import java.io.Serializable;
import java.util.Arrays;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.dbdf.ObjectInfo;
import org.dbdf.Reader;
import org.dbdf.ValueType;

/**
 * How one .dbdf object appears as a table, known from its header alone.
 *
 * <ul>
 * <li>{@link Kind#COLUMNS}: a frame (one column per frame column) or a dense matrix ({@code row}, then
 * {@code c0}, {@code c1}, ... one per matrix column);
 * <li>{@link Kind#ENTRIES}: a CSR matrix, or any matrix read with {@code layout=entries}: {@code (row, col, value)}
 * per stored entry.
 * </ul>
 *
 * @param columnTypes value type of each object column (for a matrix, the matrix's value type for every column)
 * @param labels      the table's name of each object column
 */
record TableShape(Kind kind, boolean frame, long rows, long cols, ValueType[] columnTypes, String[] labels)
        implements Serializable {

    enum Kind { COLUMNS, ENTRIES }

    static final String ROW = "row";
    static final String COL = "col";
    static final String VALUE = "value";

    static TableShape of(Reader reader, ReadOptions options, String path) {
        ObjectInfo info = reader.info();
        int cols = Math.toIntExact(info.cols());
        ValueType[] types = new ValueType[cols];
        String[] labels = new String[cols];
        boolean frame = info.dataType() == org.dbdf.DataType.FRAME;
        for (int column = 0; column < cols; column++) {
            types[column] = frame ? reader.columnType(column) : info.valueType();
            String label = frame ? reader.columnLabel(column) : "c" + column;
            // Spark cannot select a column without a name; the format allows empty labels.
            labels[column] = label.isEmpty() ? "col_" + column : label;
        }
        Kind kind;
        if (frame) {
            if (options.entries()) {
                throw new IllegalArgumentException("dbdf: " + path + " holds a frame; layout=entries applies to "
                        + "matrices only");
            }
            kind = Kind.COLUMNS;
        } else {
            kind = options.entries() || info.dataType() == org.dbdf.DataType.CSR ? Kind.ENTRIES : Kind.COLUMNS;
        }
        return new TableShape(kind, frame, info.rows(), info.cols(), types, labels);
    }

    /** The Spark schema: every value of every column fits its Spark type exactly. */
    StructType schema() {
        if (kind == Kind.ENTRIES) {
            return new StructType(new StructField[] {
                field(ROW, DataTypes.LongType), field(COL, DataTypes.LongType),
                field(VALUE, TypeMapping.sparkType(columnTypes.length == 0 ? ValueType.F64 : columnTypes[0]))});
        }
        int offset = frame ? 0 : 1;
        StructField[] fields = new StructField[labels.length + offset];
        if (!frame) {
            fields[0] = field(ROW, DataTypes.LongType);
        }
        for (int column = 0; column < labels.length; column++) {
            fields[column + offset] = field(labels[column], TypeMapping.sparkType(columnTypes[column]));
        }
        return new StructType(fields);
    }

    /** Index of the object column a schema field is, or -1 for {@code row}. */
    int objectColumnOf(int field) {
        return frame ? field : field - 1;
    }

    /** Whether two files can be read as one table: same kind and the same schema. */
    boolean compatible(TableShape other) {
        return kind == other.kind && frame == other.frame && schema().equals(other.schema())
                && Arrays.equals(columnTypes, other.columnTypes);
    }

    private static StructField field(String name, DataType type) {
        // The format has no missing values: nothing is ever null.
        return new StructField(name, type, false, Metadata.empty());
    }
}
