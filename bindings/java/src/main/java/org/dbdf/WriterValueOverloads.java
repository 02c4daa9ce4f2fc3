package org.dbdf;

import java.nio.ByteBuffer;

/**
 * The typed value-buffer methods of {@link Writer}: one overload per buffer kind (double[], float[], long[], int[],
 * short[], byte[] and a direct ByteBuffer), so that a buffer of any other class is refused at compile time. Each
 * forwards to the one implementation in Writer. A superclass only to keep Writer itself short; not part of the API.
 */
abstract class WriterValueOverloads {
    WriterValueOverloads() {
    }

    abstract void addDenseValues(long row, long col, long rows, long cols, ValueType type, Object values,
            long rowStride, Encoding encoding);

    abstract void addCsrValues(long row, long col, long rows, long cols, ValueType type, long[] rowOffsets,
            int[] colIndices, Object values, Encoding encoding);

    abstract void addCooValues(long row, long col, long rows, long cols, ValueType type, int[] rowIndices,
            int[] colIndices, Object values, Encoding encoding);

    abstract void writeDenseValues(ValueType type, Object values, long rowStride, Encoding encoding, long blockRows,
            long blockCols);

    abstract void writeColumnValues(long column, ValueType type, Object values, Encoding encoding, long blockRows);

    // ---- a dense block, value type taken from the array ----------------------------------------------------------

    /** Adds the dense block at (row, col) of rows x cols F64 values, encoded automatically. */
    public void addDense(long row, long col, long rows, long cols, double[] values) {
        addDenseValues(row, col, rows, cols, ValueType.F64, values, 0, Encoding.AUTO);
    }

    /** Adds the dense block at (row, col) of rows x cols F32 values, encoded automatically. */
    public void addDense(long row, long col, long rows, long cols, float[] values) {
        addDenseValues(row, col, rows, cols, ValueType.F32, values, 0, Encoding.AUTO);
    }

    /**
     * Adds the dense block at (row, col) of rows x cols I64 values (pass {@link ValueType#U64} explicitly for
     * unsigned data), encoded automatically.
     */
    public void addDense(long row, long col, long rows, long cols, long[] values) {
        addDenseValues(row, col, rows, cols, ValueType.I64, values, 0, Encoding.AUTO);
    }

    /** Adds the dense block at (row, col) of rows x cols I32 values, encoded automatically. */
    public void addDense(long row, long col, long rows, long cols, int[] values) {
        addDenseValues(row, col, rows, cols, ValueType.I32, values, 0, Encoding.AUTO);
    }

    /** Adds the dense block at (row, col) of rows x cols I16 values, encoded automatically. */
    public void addDense(long row, long col, long rows, long cols, short[] values) {
        addDenseValues(row, col, rows, cols, ValueType.I16, values, 0, Encoding.AUTO);
    }

    /** Adds the dense block at (row, col) of rows x cols I8 values, encoded automatically. */
    public void addDense(long row, long col, long rows, long cols, byte[] values) {
        addDenseValues(row, col, rows, cols, ValueType.I8, values, 0, Encoding.AUTO);
    }

    // ---- a dense block -------------------------------------------------------------------------------------------

    /** Adds the dense block at (row, col) of rows x cols values of {@code type}, encoded automatically. */
    public void addDense(long row, long col, long rows, long cols, ValueType type, double[] values) {
        addDenseValues(row, col, rows, cols, type, values, 0, Encoding.AUTO);
    }

    /** As {@link #addDense(long, long, long, long, ValueType, double[])}, from a float[]. */
    public void addDense(long row, long col, long rows, long cols, ValueType type, float[] values) {
        addDenseValues(row, col, rows, cols, type, values, 0, Encoding.AUTO);
    }

    /** As {@link #addDense(long, long, long, long, ValueType, double[])}, from a long[]. */
    public void addDense(long row, long col, long rows, long cols, ValueType type, long[] values) {
        addDenseValues(row, col, rows, cols, type, values, 0, Encoding.AUTO);
    }

    /** As {@link #addDense(long, long, long, long, ValueType, double[])}, from an int[]. */
    public void addDense(long row, long col, long rows, long cols, ValueType type, int[] values) {
        addDenseValues(row, col, rows, cols, type, values, 0, Encoding.AUTO);
    }

    /** As {@link #addDense(long, long, long, long, ValueType, double[])}, from a short[]. */
    public void addDense(long row, long col, long rows, long cols, ValueType type, short[] values) {
        addDenseValues(row, col, rows, cols, type, values, 0, Encoding.AUTO);
    }

    /** As {@link #addDense(long, long, long, long, ValueType, double[])}, from a byte[]. */
    public void addDense(long row, long col, long rows, long cols, ValueType type, byte[] values) {
        addDenseValues(row, col, rows, cols, type, values, 0, Encoding.AUTO);
    }

    /** As {@link #addDense(long, long, long, long, ValueType, double[])}, from a direct buffer. */
    public void addDense(long row, long col, long rows, long cols, ValueType type, ByteBuffer values) {
        addDenseValues(row, col, rows, cols, type, values, 0, Encoding.AUTO);
    }

    // ---- a dense block with a row stride and an encoding ---------------------------------------------------------

    /**
     * Adds the block at (row, col) of shape rows x cols from row-major values: element (i, j) is at index
     * i * rowStride + j (rowStride 0: cols), encoded as {@code encoding} says.
     */
    public void addDense(long row, long col, long rows, long cols, ValueType type, double[] values, long rowStride,
            Encoding encoding) {
        addDenseValues(row, col, rows, cols, type, values, rowStride, encoding);
    }

    /** As {@link #addDense(long, long, long, long, ValueType, double[], long, Encoding)}, from a float[]. */
    public void addDense(long row, long col, long rows, long cols, ValueType type, float[] values, long rowStride,
            Encoding encoding) {
        addDenseValues(row, col, rows, cols, type, values, rowStride, encoding);
    }

    /** As {@link #addDense(long, long, long, long, ValueType, double[], long, Encoding)}, from a long[]. */
    public void addDense(long row, long col, long rows, long cols, ValueType type, long[] values, long rowStride,
            Encoding encoding) {
        addDenseValues(row, col, rows, cols, type, values, rowStride, encoding);
    }

    /** As {@link #addDense(long, long, long, long, ValueType, double[], long, Encoding)}, from an int[]. */
    public void addDense(long row, long col, long rows, long cols, ValueType type, int[] values, long rowStride,
            Encoding encoding) {
        addDenseValues(row, col, rows, cols, type, values, rowStride, encoding);
    }

    /** As {@link #addDense(long, long, long, long, ValueType, double[], long, Encoding)}, from a short[]. */
    public void addDense(long row, long col, long rows, long cols, ValueType type, short[] values, long rowStride,
            Encoding encoding) {
        addDenseValues(row, col, rows, cols, type, values, rowStride, encoding);
    }

    /** As {@link #addDense(long, long, long, long, ValueType, double[], long, Encoding)}, from a byte[]. */
    public void addDense(long row, long col, long rows, long cols, ValueType type, byte[] values, long rowStride,
            Encoding encoding) {
        addDenseValues(row, col, rows, cols, type, values, rowStride, encoding);
    }

    /** As {@link #addDense(long, long, long, long, ValueType, double[], long, Encoding)}, from a direct buffer. */
    public void addDense(long row, long col, long rows, long cols, ValueType type, ByteBuffer values, long rowStride,
            Encoding encoding) {
        addDenseValues(row, col, rows, cols, type, values, rowStride, encoding);
    }

    // ---- a CSR block ---------------------------------------------------------------------------------------------

    /** Adds a block from block-local CSR arrays, encoded automatically. */
    public void addCsr(long row, long col, long rows, long cols, ValueType type, long[] rowOffsets, int[] colIndices,
            double[] values) {
        addCsrValues(row, col, rows, cols, type, rowOffsets, colIndices, values, Encoding.AUTO);
    }

    /** As {@link #addCsr(long, long, long, long, ValueType, long[], int[], double[])}, values from a float[]. */
    public void addCsr(long row, long col, long rows, long cols, ValueType type, long[] rowOffsets, int[] colIndices,
            float[] values) {
        addCsrValues(row, col, rows, cols, type, rowOffsets, colIndices, values, Encoding.AUTO);
    }

    /** As {@link #addCsr(long, long, long, long, ValueType, long[], int[], double[])}, values from a long[]. */
    public void addCsr(long row, long col, long rows, long cols, ValueType type, long[] rowOffsets, int[] colIndices,
            long[] values) {
        addCsrValues(row, col, rows, cols, type, rowOffsets, colIndices, values, Encoding.AUTO);
    }

    /** As {@link #addCsr(long, long, long, long, ValueType, long[], int[], double[])}, values from an int[]. */
    public void addCsr(long row, long col, long rows, long cols, ValueType type, long[] rowOffsets, int[] colIndices,
            int[] values) {
        addCsrValues(row, col, rows, cols, type, rowOffsets, colIndices, values, Encoding.AUTO);
    }

    /** As {@link #addCsr(long, long, long, long, ValueType, long[], int[], double[])}, values from a short[]. */
    public void addCsr(long row, long col, long rows, long cols, ValueType type, long[] rowOffsets, int[] colIndices,
            short[] values) {
        addCsrValues(row, col, rows, cols, type, rowOffsets, colIndices, values, Encoding.AUTO);
    }

    /** As {@link #addCsr(long, long, long, long, ValueType, long[], int[], double[])}, values from a byte[]. */
    public void addCsr(long row, long col, long rows, long cols, ValueType type, long[] rowOffsets, int[] colIndices,
            byte[] values) {
        addCsrValues(row, col, rows, cols, type, rowOffsets, colIndices, values, Encoding.AUTO);
    }

    /** As {@link #addCsr(long, long, long, long, ValueType, long[], int[], double[])}, values from a direct buffer. */
    public void addCsr(long row, long col, long rows, long cols, ValueType type, long[] rowOffsets, int[] colIndices,
            ByteBuffer values) {
        addCsrValues(row, col, rows, cols, type, rowOffsets, colIndices, values, Encoding.AUTO);
    }

    // ---- a CSR block with an encoding ----------------------------------------------------------------------------

    /**
     * Adds a block from block-local CSR arrays: rowOffsets has rows + 1 entries starting at 0; the entries are
     * colIndices[k] (strictly increasing within a row, below cols) and values[k] for k below rowOffsets[rows].
     */
    public void addCsr(long row, long col, long rows, long cols, ValueType type, long[] rowOffsets, int[] colIndices,
            double[] values, Encoding encoding) {
        addCsrValues(row, col, rows, cols, type, rowOffsets, colIndices, values, encoding);
    }

    /**
     * As {@link #addCsr(long, long, long, long, ValueType, long[], int[], double[], Encoding)}, values from a
     * float[].
     */
    public void addCsr(long row, long col, long rows, long cols, ValueType type, long[] rowOffsets, int[] colIndices,
            float[] values, Encoding encoding) {
        addCsrValues(row, col, rows, cols, type, rowOffsets, colIndices, values, encoding);
    }

    /**
     * As {@link #addCsr(long, long, long, long, ValueType, long[], int[], double[], Encoding)}, values from a
     * long[].
     */
    public void addCsr(long row, long col, long rows, long cols, ValueType type, long[] rowOffsets, int[] colIndices,
            long[] values, Encoding encoding) {
        addCsrValues(row, col, rows, cols, type, rowOffsets, colIndices, values, encoding);
    }

    /**
     * As {@link #addCsr(long, long, long, long, ValueType, long[], int[], double[], Encoding)}, values from an
     * int[].
     */
    public void addCsr(long row, long col, long rows, long cols, ValueType type, long[] rowOffsets, int[] colIndices,
            int[] values, Encoding encoding) {
        addCsrValues(row, col, rows, cols, type, rowOffsets, colIndices, values, encoding);
    }

    /**
     * As {@link #addCsr(long, long, long, long, ValueType, long[], int[], double[], Encoding)}, values from a
     * short[].
     */
    public void addCsr(long row, long col, long rows, long cols, ValueType type, long[] rowOffsets, int[] colIndices,
            short[] values, Encoding encoding) {
        addCsrValues(row, col, rows, cols, type, rowOffsets, colIndices, values, encoding);
    }

    /**
     * As {@link #addCsr(long, long, long, long, ValueType, long[], int[], double[], Encoding)}, values from a
     * byte[].
     */
    public void addCsr(long row, long col, long rows, long cols, ValueType type, long[] rowOffsets, int[] colIndices,
            byte[] values, Encoding encoding) {
        addCsrValues(row, col, rows, cols, type, rowOffsets, colIndices, values, encoding);
    }

    /**
     * As {@link #addCsr(long, long, long, long, ValueType, long[], int[], double[], Encoding)}, values from a direct
     * buffer.
     */
    public void addCsr(long row, long col, long rows, long cols, ValueType type, long[] rowOffsets, int[] colIndices,
            ByteBuffer values, Encoding encoding) {
        addCsrValues(row, col, rows, cols, type, rowOffsets, colIndices, values, encoding);
    }

    // ---- a COO block ---------------------------------------------------------------------------------------------

    /** Adds a block from block-local COO triplets, encoded automatically. */
    public void addCoo(long row, long col, long rows, long cols, ValueType type, int[] rowIndices, int[] colIndices,
            double[] values) {
        addCooValues(row, col, rows, cols, type, rowIndices, colIndices, values, Encoding.AUTO);
    }

    /** As {@link #addCoo(long, long, long, long, ValueType, int[], int[], double[])}, values from a float[]. */
    public void addCoo(long row, long col, long rows, long cols, ValueType type, int[] rowIndices, int[] colIndices,
            float[] values) {
        addCooValues(row, col, rows, cols, type, rowIndices, colIndices, values, Encoding.AUTO);
    }

    /** As {@link #addCoo(long, long, long, long, ValueType, int[], int[], double[])}, values from a long[]. */
    public void addCoo(long row, long col, long rows, long cols, ValueType type, int[] rowIndices, int[] colIndices,
            long[] values) {
        addCooValues(row, col, rows, cols, type, rowIndices, colIndices, values, Encoding.AUTO);
    }

    /** As {@link #addCoo(long, long, long, long, ValueType, int[], int[], double[])}, values from an int[]. */
    public void addCoo(long row, long col, long rows, long cols, ValueType type, int[] rowIndices, int[] colIndices,
            int[] values) {
        addCooValues(row, col, rows, cols, type, rowIndices, colIndices, values, Encoding.AUTO);
    }

    /** As {@link #addCoo(long, long, long, long, ValueType, int[], int[], double[])}, values from a short[]. */
    public void addCoo(long row, long col, long rows, long cols, ValueType type, int[] rowIndices, int[] colIndices,
            short[] values) {
        addCooValues(row, col, rows, cols, type, rowIndices, colIndices, values, Encoding.AUTO);
    }

    /** As {@link #addCoo(long, long, long, long, ValueType, int[], int[], double[])}, values from a byte[]. */
    public void addCoo(long row, long col, long rows, long cols, ValueType type, int[] rowIndices, int[] colIndices,
            byte[] values) {
        addCooValues(row, col, rows, cols, type, rowIndices, colIndices, values, Encoding.AUTO);
    }

    /** As {@link #addCoo(long, long, long, long, ValueType, int[], int[], double[])}, values from a direct buffer. */
    public void addCoo(long row, long col, long rows, long cols, ValueType type, int[] rowIndices, int[] colIndices,
            ByteBuffer values) {
        addCooValues(row, col, rows, cols, type, rowIndices, colIndices, values, Encoding.AUTO);
    }

    // ---- a COO block with an encoding ----------------------------------------------------------------------------

    /**
     * Adds a block from block-local COO triplets in strictly increasing (row, column) order; there are
     * rowIndices.length entries, and colIndices and values must hold at least as many.
     */
    public void addCoo(long row, long col, long rows, long cols, ValueType type, int[] rowIndices, int[] colIndices,
            double[] values, Encoding encoding) {
        addCooValues(row, col, rows, cols, type, rowIndices, colIndices, values, encoding);
    }

    /**
     * As {@link #addCoo(long, long, long, long, ValueType, int[], int[], double[], Encoding)}, values from a
     * float[].
     */
    public void addCoo(long row, long col, long rows, long cols, ValueType type, int[] rowIndices, int[] colIndices,
            float[] values, Encoding encoding) {
        addCooValues(row, col, rows, cols, type, rowIndices, colIndices, values, encoding);
    }

    /**
     * As {@link #addCoo(long, long, long, long, ValueType, int[], int[], double[], Encoding)}, values from a long[].
     */
    public void addCoo(long row, long col, long rows, long cols, ValueType type, int[] rowIndices, int[] colIndices,
            long[] values, Encoding encoding) {
        addCooValues(row, col, rows, cols, type, rowIndices, colIndices, values, encoding);
    }

    /**
     * As {@link #addCoo(long, long, long, long, ValueType, int[], int[], double[], Encoding)}, values from an int[].
     */
    public void addCoo(long row, long col, long rows, long cols, ValueType type, int[] rowIndices, int[] colIndices,
            int[] values, Encoding encoding) {
        addCooValues(row, col, rows, cols, type, rowIndices, colIndices, values, encoding);
    }

    /**
     * As {@link #addCoo(long, long, long, long, ValueType, int[], int[], double[], Encoding)}, values from a
     * short[].
     */
    public void addCoo(long row, long col, long rows, long cols, ValueType type, int[] rowIndices, int[] colIndices,
            short[] values, Encoding encoding) {
        addCooValues(row, col, rows, cols, type, rowIndices, colIndices, values, encoding);
    }

    /**
     * As {@link #addCoo(long, long, long, long, ValueType, int[], int[], double[], Encoding)}, values from a byte[].
     */
    public void addCoo(long row, long col, long rows, long cols, ValueType type, int[] rowIndices, int[] colIndices,
            byte[] values, Encoding encoding) {
        addCooValues(row, col, rows, cols, type, rowIndices, colIndices, values, encoding);
    }

    /**
     * As {@link #addCoo(long, long, long, long, ValueType, int[], int[], double[], Encoding)}, values from a direct
     * buffer.
     */
    public void addCoo(long row, long col, long rows, long cols, ValueType type, int[] rowIndices, int[] colIndices,
            ByteBuffer values, Encoding encoding) {
        addCooValues(row, col, rows, cols, type, rowIndices, colIndices, values, encoding);
    }

    // ---- the whole matrix, value type taken from the array -------------------------------------------------------

    /** Writes the whole matrix from dense row-major F64 values, tiled automatically. */
    public void writeDense(double[] values) {
        writeDenseValues(ValueType.F64, values, 0, Encoding.AUTO, 0, 0);
    }

    /** Writes the whole matrix from dense row-major F32 values, tiled automatically. */
    public void writeDense(float[] values) {
        writeDenseValues(ValueType.F32, values, 0, Encoding.AUTO, 0, 0);
    }

    /**
     * Writes the whole matrix from dense row-major I64 values (pass {@link ValueType#U64} explicitly for unsigned
     * data), tiled automatically.
     */
    public void writeDense(long[] values) {
        writeDenseValues(ValueType.I64, values, 0, Encoding.AUTO, 0, 0);
    }

    /** Writes the whole matrix from dense row-major I32 values, tiled automatically. */
    public void writeDense(int[] values) {
        writeDenseValues(ValueType.I32, values, 0, Encoding.AUTO, 0, 0);
    }

    /** Writes the whole matrix from dense row-major I16 values, tiled automatically. */
    public void writeDense(short[] values) {
        writeDenseValues(ValueType.I16, values, 0, Encoding.AUTO, 0, 0);
    }

    /** Writes the whole matrix from dense row-major I8 values, tiled automatically. */
    public void writeDense(byte[] values) {
        writeDenseValues(ValueType.I8, values, 0, Encoding.AUTO, 0, 0);
    }

    // ---- the whole matrix ----------------------------------------------------------------------------------------

    /**
     * Writes the whole matrix from dense row-major values ({@code rowStride} apart, 0: cols), tiled into blocks of
     * blockRows x blockCols (0: automatic), each encoded as {@code encoding} says. Only right after beginMatrix().
     */
    public void writeDense(ValueType type, double[] values, long rowStride, Encoding encoding, long blockRows,
            long blockCols) {
        writeDenseValues(type, values, rowStride, encoding, blockRows, blockCols);
    }

    /** As {@link #writeDense(ValueType, double[], long, Encoding, long, long)}, from a float[]. */
    public void writeDense(ValueType type, float[] values, long rowStride, Encoding encoding, long blockRows,
            long blockCols) {
        writeDenseValues(type, values, rowStride, encoding, blockRows, blockCols);
    }

    /** As {@link #writeDense(ValueType, double[], long, Encoding, long, long)}, from a long[]. */
    public void writeDense(ValueType type, long[] values, long rowStride, Encoding encoding, long blockRows,
            long blockCols) {
        writeDenseValues(type, values, rowStride, encoding, blockRows, blockCols);
    }

    /** As {@link #writeDense(ValueType, double[], long, Encoding, long, long)}, from an int[]. */
    public void writeDense(ValueType type, int[] values, long rowStride, Encoding encoding, long blockRows,
            long blockCols) {
        writeDenseValues(type, values, rowStride, encoding, blockRows, blockCols);
    }

    /** As {@link #writeDense(ValueType, double[], long, Encoding, long, long)}, from a short[]. */
    public void writeDense(ValueType type, short[] values, long rowStride, Encoding encoding, long blockRows,
            long blockCols) {
        writeDenseValues(type, values, rowStride, encoding, blockRows, blockCols);
    }

    /** As {@link #writeDense(ValueType, double[], long, Encoding, long, long)}, from a byte[]. */
    public void writeDense(ValueType type, byte[] values, long rowStride, Encoding encoding, long blockRows,
            long blockCols) {
        writeDenseValues(type, values, rowStride, encoding, blockRows, blockCols);
    }

    /** As {@link #writeDense(ValueType, double[], long, Encoding, long, long)}, from a direct buffer. */
    public void writeDense(ValueType type, ByteBuffer values, long rowStride, Encoding encoding, long blockRows,
            long blockCols) {
        writeDenseValues(type, values, rowStride, encoding, blockRows, blockCols);
    }

    // ---- a frame column, value type taken from the array ---------------------------------------------------------

    /** Writes frame column {@code column} from rows F64 values. */
    public void writeColumn(long column, double[] values) {
        writeColumnValues(column, ValueType.F64, values, Encoding.AUTO, 0);
    }

    /** Writes frame column {@code column} from rows F32 values. */
    public void writeColumn(long column, float[] values) {
        writeColumnValues(column, ValueType.F32, values, Encoding.AUTO, 0);
    }

    /**
     * Writes frame column {@code column} from rows I64 values (pass {@link ValueType#U64} explicitly for unsigned
     * data).
     */
    public void writeColumn(long column, long[] values) {
        writeColumnValues(column, ValueType.I64, values, Encoding.AUTO, 0);
    }

    /** Writes frame column {@code column} from rows I32 values. */
    public void writeColumn(long column, int[] values) {
        writeColumnValues(column, ValueType.I32, values, Encoding.AUTO, 0);
    }

    /** Writes frame column {@code column} from rows I16 values. */
    public void writeColumn(long column, short[] values) {
        writeColumnValues(column, ValueType.I16, values, Encoding.AUTO, 0);
    }

    /** Writes frame column {@code column} from rows I8 values. */
    public void writeColumn(long column, byte[] values) {
        writeColumnValues(column, ValueType.I8, values, Encoding.AUTO, 0);
    }

    // ---- a frame column ------------------------------------------------------------------------------------------

    /** Writes frame column {@code column} from rows values of {@code type}, as blocks of blockRows rows (0: auto). */
    public void writeColumn(long column, ValueType type, double[] values, Encoding encoding, long blockRows) {
        writeColumnValues(column, type, values, encoding, blockRows);
    }

    /** As {@link #writeColumn(long, ValueType, double[], Encoding, long)}, from a float[]. */
    public void writeColumn(long column, ValueType type, float[] values, Encoding encoding, long blockRows) {
        writeColumnValues(column, type, values, encoding, blockRows);
    }

    /** As {@link #writeColumn(long, ValueType, double[], Encoding, long)}, from a long[]. */
    public void writeColumn(long column, ValueType type, long[] values, Encoding encoding, long blockRows) {
        writeColumnValues(column, type, values, encoding, blockRows);
    }

    /** As {@link #writeColumn(long, ValueType, double[], Encoding, long)}, from an int[]. */
    public void writeColumn(long column, ValueType type, int[] values, Encoding encoding, long blockRows) {
        writeColumnValues(column, type, values, encoding, blockRows);
    }

    /** As {@link #writeColumn(long, ValueType, double[], Encoding, long)}, from a short[]. */
    public void writeColumn(long column, ValueType type, short[] values, Encoding encoding, long blockRows) {
        writeColumnValues(column, type, values, encoding, blockRows);
    }

    /** As {@link #writeColumn(long, ValueType, double[], Encoding, long)}, from a byte[]. */
    public void writeColumn(long column, ValueType type, byte[] values, Encoding encoding, long blockRows) {
        writeColumnValues(column, type, values, encoding, blockRows);
    }

    /** As {@link #writeColumn(long, ValueType, double[], Encoding, long)}, from a direct buffer. */
    public void writeColumn(long column, ValueType type, ByteBuffer values, Encoding encoding, long blockRows) {
        writeColumnValues(column, type, values, encoding, blockRows);
    }
}
