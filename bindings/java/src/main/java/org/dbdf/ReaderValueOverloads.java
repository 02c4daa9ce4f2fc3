package org.dbdf;

import java.nio.ByteBuffer;

/**
 * The typed value-buffer methods of {@link Reader}: one overload per buffer kind (double[], float[], long[], int[],
 * short[], byte[] and a direct ByteBuffer), so that a buffer of any other class is refused at compile time. Each
 * forwards to the one implementation in Reader. A superclass only to keep Reader itself short; not part of the API.
 */
abstract class ReaderValueOverloads {
    ReaderValueOverloads() {
    }

    abstract void readDenseValues(ValueType type, Object values, long rowStride);

    abstract void readWindowValues(ValueType type, long row, long col, long rows, long cols, Object values,
            long rowStride);

    abstract void readColumnValues(long column, ValueType type, Object values);

    abstract long readCsrValues(ValueType type, long[] rowOffsets, long[] colIndices, Object values);

    // ---- the whole object, value type taken from the array ----------------------------------------------------

    /** The whole object as dense row-major F64 values. */
    public void readDense(double[] values) {
        readDenseValues(ValueType.F64, values, 0);
    }

    /** The whole object as dense row-major F32 values. */
    public void readDense(float[] values) {
        readDenseValues(ValueType.F32, values, 0);
    }

    /** The whole object as dense row-major I64 values (pass {@link ValueType#U64} explicitly for unsigned data). */
    public void readDense(long[] values) {
        readDenseValues(ValueType.I64, values, 0);
    }

    /** The whole object as dense row-major I32 values. */
    public void readDense(int[] values) {
        readDenseValues(ValueType.I32, values, 0);
    }

    /** The whole object as dense row-major I16 values. */
    public void readDense(short[] values) {
        readDenseValues(ValueType.I16, values, 0);
    }

    /** The whole object as dense row-major I8 values. */
    public void readDense(byte[] values) {
        readDenseValues(ValueType.I8, values, 0);
    }

    // ---- the whole object -------------------------------------------------------------------------------------

    /**
     * The whole object as dense row-major values of {@code type}, {@code rowStride} elements apart (0: cols). The
     * array must be the one of the type's width (see {@link ValueType}).
     */
    public void readDense(ValueType type, double[] values, long rowStride) {
        readDenseValues(type, values, rowStride);
    }

    /** As {@link #readDense(ValueType, double[], long)}, into a float[]. */
    public void readDense(ValueType type, float[] values, long rowStride) {
        readDenseValues(type, values, rowStride);
    }

    /** As {@link #readDense(ValueType, double[], long)}, into a long[]. */
    public void readDense(ValueType type, long[] values, long rowStride) {
        readDenseValues(type, values, rowStride);
    }

    /** As {@link #readDense(ValueType, double[], long)}, into an int[]. */
    public void readDense(ValueType type, int[] values, long rowStride) {
        readDenseValues(type, values, rowStride);
    }

    /** As {@link #readDense(ValueType, double[], long)}, into a short[]. */
    public void readDense(ValueType type, short[] values, long rowStride) {
        readDenseValues(type, values, rowStride);
    }

    /** As {@link #readDense(ValueType, double[], long)}, into a byte[]. */
    public void readDense(ValueType type, byte[] values, long rowStride) {
        readDenseValues(type, values, rowStride);
    }

    /** As {@link #readDense(ValueType, double[], long)}, into a direct buffer from its position. */
    public void readDense(ValueType type, ByteBuffer values, long rowStride) {
        readDenseValues(type, values, rowStride);
    }

    // ---- a window ---------------------------------------------------------------------------------------------

    /** The window of rows [row, row + rows) and columns [col, col + cols), dense, row-major. */
    public void readWindow(ValueType type, long row, long col, long rows, long cols, double[] values,
            long rowStride) {
        readWindowValues(type, row, col, rows, cols, values, rowStride);
    }

    /** As {@link #readWindow(ValueType, long, long, long, long, double[], long)}, into a float[]. */
    public void readWindow(ValueType type, long row, long col, long rows, long cols, float[] values,
            long rowStride) {
        readWindowValues(type, row, col, rows, cols, values, rowStride);
    }

    /** As {@link #readWindow(ValueType, long, long, long, long, double[], long)}, into a long[]. */
    public void readWindow(ValueType type, long row, long col, long rows, long cols, long[] values,
            long rowStride) {
        readWindowValues(type, row, col, rows, cols, values, rowStride);
    }

    /** As {@link #readWindow(ValueType, long, long, long, long, double[], long)}, into an int[]. */
    public void readWindow(ValueType type, long row, long col, long rows, long cols, int[] values,
            long rowStride) {
        readWindowValues(type, row, col, rows, cols, values, rowStride);
    }

    /** As {@link #readWindow(ValueType, long, long, long, long, double[], long)}, into a short[]. */
    public void readWindow(ValueType type, long row, long col, long rows, long cols, short[] values,
            long rowStride) {
        readWindowValues(type, row, col, rows, cols, values, rowStride);
    }

    /** As {@link #readWindow(ValueType, long, long, long, long, double[], long)}, into a byte[]. */
    public void readWindow(ValueType type, long row, long col, long rows, long cols, byte[] values,
            long rowStride) {
        readWindowValues(type, row, col, rows, cols, values, rowStride);
    }

    /** As {@link #readWindow(ValueType, long, long, long, long, double[], long)}, into a direct buffer. */
    public void readWindow(ValueType type, long row, long col, long rows, long cols, ByteBuffer values,
            long rowStride) {
        readWindowValues(type, row, col, rows, cols, values, rowStride);
    }

    // ---- a column ---------------------------------------------------------------------------------------------

    /** Frame (or matrix) column {@code column} as rows values of {@code type}. */
    public void readColumn(long column, ValueType type, double[] values) {
        readColumnValues(column, type, values);
    }

    /** As {@link #readColumn(long, ValueType, double[])}, into a float[]. */
    public void readColumn(long column, ValueType type, float[] values) {
        readColumnValues(column, type, values);
    }

    /** As {@link #readColumn(long, ValueType, double[])}, into a long[]. */
    public void readColumn(long column, ValueType type, long[] values) {
        readColumnValues(column, type, values);
    }

    /** As {@link #readColumn(long, ValueType, double[])}, into an int[]. */
    public void readColumn(long column, ValueType type, int[] values) {
        readColumnValues(column, type, values);
    }

    /** As {@link #readColumn(long, ValueType, double[])}, into a short[]. */
    public void readColumn(long column, ValueType type, short[] values) {
        readColumnValues(column, type, values);
    }

    /** As {@link #readColumn(long, ValueType, double[])}, into a byte[]. */
    public void readColumn(long column, ValueType type, byte[] values) {
        readColumnValues(column, type, values);
    }

    /** As {@link #readColumn(long, ValueType, double[])}, into a direct buffer. */
    public void readColumn(long column, ValueType type, ByteBuffer values) {
        readColumnValues(column, type, values);
    }

    // ---- object-wide CSR --------------------------------------------------------------------------------------

    /**
     * The whole object as CSR with object-wide indices: rowOffsets gets rows + 1 entries, colIndices and values
     * one per entry. Returns the number of entries. Size the arrays with {@link Reader#countEntries()}.
     */
    public long readCsr(ValueType type, long[] rowOffsets, long[] colIndices, double[] values) {
        return readCsrValues(type, rowOffsets, colIndices, values);
    }

    /** As {@link #readCsr(ValueType, long[], long[], double[])}, values into a float[]. */
    public long readCsr(ValueType type, long[] rowOffsets, long[] colIndices, float[] values) {
        return readCsrValues(type, rowOffsets, colIndices, values);
    }

    /** As {@link #readCsr(ValueType, long[], long[], double[])}, values into a long[]. */
    public long readCsr(ValueType type, long[] rowOffsets, long[] colIndices, long[] values) {
        return readCsrValues(type, rowOffsets, colIndices, values);
    }

    /** As {@link #readCsr(ValueType, long[], long[], double[])}, values into an int[]. */
    public long readCsr(ValueType type, long[] rowOffsets, long[] colIndices, int[] values) {
        return readCsrValues(type, rowOffsets, colIndices, values);
    }

    /** As {@link #readCsr(ValueType, long[], long[], double[])}, values into a short[]. */
    public long readCsr(ValueType type, long[] rowOffsets, long[] colIndices, short[] values) {
        return readCsrValues(type, rowOffsets, colIndices, values);
    }

    /** As {@link #readCsr(ValueType, long[], long[], double[])}, values into a byte[]. */
    public long readCsr(ValueType type, long[] rowOffsets, long[] colIndices, byte[] values) {
        return readCsrValues(type, rowOffsets, colIndices, values);
    }

    /** As {@link #readCsr(ValueType, long[], long[], double[])}, values into a direct buffer. */
    public long readCsr(ValueType type, long[] rowOffsets, long[] colIndices, ByteBuffer values) {
        return readCsrValues(type, rowOffsets, colIndices, values);
    }
}
