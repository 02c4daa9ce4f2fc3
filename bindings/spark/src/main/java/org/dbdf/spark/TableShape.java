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
 * @param columnTypes value type of each object column (for a matrix, the matrix's value type for every column);
 *                    for {@link Kind#ENTRIES} the matrix's value type alone
 * @param labels      the table's name of each object column; none for {@link Kind#ENTRIES}
 */
record TableShape(Kind kind, boolean frame, long rows, long cols, ValueType[] columnTypes, String[] labels)
        implements Serializable {

    enum Kind { COLUMNS, ENTRIES }

    static final String ROW = "row";
    static final String COL = "col";
    static final String VALUE = "value";

    /** More columns than this make a schema no query can use: the header is refused (layout=entries reads any). */
    static final long MAX_COLUMNS = 65536;

    static TableShape of(Reader reader, ReadOptions options, String path) {
        ObjectInfo info = reader.info();
        boolean frame = info.dataType() == org.dbdf.DataType.FRAME;
        if (frame && options.entries()) {
            throw new IllegalArgumentException("dbdf: " + path + " holds a frame; layout=entries applies to "
                    + "matrices only");
        }
        // Shapes are unsigned 64-bit: a negative long is 2^63 or more.
        if (info.rows() < 0 || info.cols() < 0) {
            reader.buildIndex(); // the library's own finding (the rule broken) comes first, if it has one
            throw new IllegalArgumentException("dbdf: " + path + " declares " + Long.toUnsignedString(info.rows())
                    + " x " + Long.toUnsignedString(info.cols()) + ", more rows or columns than a table holds");
        }
        if (!frame && (options.entries() || info.dataType() == org.dbdf.DataType.CSR)) {
            // Entries need the matrix's value type only, whatever its width.
            return new TableShape(Kind.ENTRIES, false, info.rows(), info.cols(),
                    new ValueType[] {info.valueType()}, new String[0]);
        }
        if (info.cols() > MAX_COLUMNS) {
            throw new IllegalArgumentException("dbdf: " + path + " has " + info.cols() + " columns, more than the "
                    + MAX_COLUMNS + " a table of this source may have" + (frame ? "" : "; read it with layout=entries"));
        }
        int cols = (int) info.cols();
        ValueType[] types = new ValueType[cols];
        String[] labels = new String[cols];
        for (int column = 0; column < cols; column++) {
            types[column] = frame ? reader.columnType(column) : info.valueType();
            String label = frame ? reader.columnLabel(column) : "c" + column;
            // Spark cannot select a column without a name; the format allows empty labels.
            labels[column] = label.isEmpty() ? "col_" + column : label;
        }
        return new TableShape(Kind.COLUMNS, frame, info.rows(), info.cols(), types, labels);
    }

    /** The Spark schema: every value of every column fits its Spark type exactly. */
    StructType schema() {
        if (kind == Kind.ENTRIES) {
            return new StructType(new StructField[] {
                field(ROW, DataTypes.LongType), field(COL, DataTypes.LongType),
                field(VALUE, TypeMapping.sparkType(columnTypes[0]))});
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
