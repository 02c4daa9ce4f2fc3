package org.dbdf;

import java.nio.ByteBuffer;

/**
 * The typed value-buffer methods of {@link Block}: one overload per buffer kind (double[], float[], long[], int[],
 * short[], byte[] and a direct ByteBuffer), so that a buffer of any other class is refused at compile time. Each
 * forwards to the one implementation in Block. A superclass only to keep Block itself short; not part of the API.
 */
abstract class BlockValueOverloads {
    BlockValueOverloads() {
    }

    abstract void decodeDenseValues(ValueType type, Object values, long rowStride);

    abstract long decodeCsrValues(ValueType type, long[] rowOffsets, int[] colIndices, Object values);

    abstract long decodeCooValues(ValueType type, int[] rowIndices, int[] colIndices, Object values);

    // ---- dense, value type taken from the array ---------------------------------------------------------------

    /** Decodes into a row-major array of rows * cols F64 values. */
    public void decodeDense(double[] values) {
        decodeDenseValues(ValueType.F64, values, 0);
    }

    /** Decodes into a row-major array of rows * cols F32 values. */
    public void decodeDense(float[] values) {
        decodeDenseValues(ValueType.F32, values, 0);
    }

    /** Decodes into a row-major array of rows * cols I64 values (pass {@link ValueType#U64} for unsigned data). */
    public void decodeDense(long[] values) {
        decodeDenseValues(ValueType.I64, values, 0);
    }

    /** Decodes into a row-major array of rows * cols I32 values. */
    public void decodeDense(int[] values) {
        decodeDenseValues(ValueType.I32, values, 0);
    }

    /** Decodes into a row-major array of rows * cols I16 values. */
    public void decodeDense(short[] values) {
        decodeDenseValues(ValueType.I16, values, 0);
    }

    /** Decodes into a row-major array of rows * cols I8 values. */
    public void decodeDense(byte[] values) {
        decodeDenseValues(ValueType.I8, values, 0);
    }

    // ---- dense, rows the block's width apart ------------------------------------------------------------------

    /** Decodes into a row-major array of values of {@code type}, rows the block's cols apart. */
    public void decodeDense(ValueType type, double[] values) {
        decodeDenseValues(type, values, 0);
    }

    /** As {@link #decodeDense(ValueType, double[])}, into a float[]. */
    public void decodeDense(ValueType type, float[] values) {
        decodeDenseValues(type, values, 0);
    }

    /** As {@link #decodeDense(ValueType, double[])}, into a long[]. */
    public void decodeDense(ValueType type, long[] values) {
        decodeDenseValues(type, values, 0);
    }

    /** As {@link #decodeDense(ValueType, double[])}, into an int[]. */
    public void decodeDense(ValueType type, int[] values) {
        decodeDenseValues(type, values, 0);
    }

    /** As {@link #decodeDense(ValueType, double[])}, into a short[]. */
    public void decodeDense(ValueType type, short[] values) {
        decodeDenseValues(type, values, 0);
    }

    /** As {@link #decodeDense(ValueType, double[])}, into a byte[]. */
    public void decodeDense(ValueType type, byte[] values) {
        decodeDenseValues(type, values, 0);
    }

    /** As {@link #decodeDense(ValueType, double[])}, into a direct buffer from its position. */
    public void decodeDense(ValueType type, ByteBuffer values) {
        decodeDenseValues(type, values, 0);
    }

    // ---- dense, with a row stride -----------------------------------------------------------------------------

    /**
     * Decodes as dense values of {@code type}: element (i, j) goes to index i * rowStride + j (rowStride 0: the
     * block's cols). Zeros are filled in for sparse and empty blocks. Fails with RANGE when a value is not exactly
     * representable in {@code type}, and with BUFFER_TOO_SMALL when the buffer is too short.
     */
    public void decodeDense(ValueType type, double[] values, long rowStride) {
        decodeDenseValues(type, values, rowStride);
    }

    /** As {@link #decodeDense(ValueType, double[], long)}, into a float[]. */
    public void decodeDense(ValueType type, float[] values, long rowStride) {
        decodeDenseValues(type, values, rowStride);
    }

    /** As {@link #decodeDense(ValueType, double[], long)}, into a long[]. */
    public void decodeDense(ValueType type, long[] values, long rowStride) {
        decodeDenseValues(type, values, rowStride);
    }

    /** As {@link #decodeDense(ValueType, double[], long)}, into an int[]. */
    public void decodeDense(ValueType type, int[] values, long rowStride) {
        decodeDenseValues(type, values, rowStride);
    }

    /** As {@link #decodeDense(ValueType, double[], long)}, into a short[]. */
    public void decodeDense(ValueType type, short[] values, long rowStride) {
        decodeDenseValues(type, values, rowStride);
    }

    /** As {@link #decodeDense(ValueType, double[], long)}, into a byte[]. */
    public void decodeDense(ValueType type, byte[] values, long rowStride) {
        decodeDenseValues(type, values, rowStride);
    }

    /** As {@link #decodeDense(ValueType, double[], long)}, into a direct buffer from its position. */
    public void decodeDense(ValueType type, ByteBuffer values, long rowStride) {
        decodeDenseValues(type, values, rowStride);
    }

    // ---- CSR ----------------------------------------------------------------------------------------------------

    /**
     * Decodes as CSR with block-local indices: rowOffsets gets rows + 1 entries, colIndices and values one per
     * entry. Returns the number of entries. Size the arrays with {@link Block#countEntries()}.
     */
    public long decodeCsr(ValueType type, long[] rowOffsets, int[] colIndices, double[] values) {
        return decodeCsrValues(type, rowOffsets, colIndices, values);
    }

    /** As {@link #decodeCsr(ValueType, long[], int[], double[])}, values into a float[]. */
    public long decodeCsr(ValueType type, long[] rowOffsets, int[] colIndices, float[] values) {
        return decodeCsrValues(type, rowOffsets, colIndices, values);
    }

    /** As {@link #decodeCsr(ValueType, long[], int[], double[])}, values into a long[]. */
    public long decodeCsr(ValueType type, long[] rowOffsets, int[] colIndices, long[] values) {
        return decodeCsrValues(type, rowOffsets, colIndices, values);
    }

    /** As {@link #decodeCsr(ValueType, long[], int[], double[])}, values into an int[]. */
    public long decodeCsr(ValueType type, long[] rowOffsets, int[] colIndices, int[] values) {
        return decodeCsrValues(type, rowOffsets, colIndices, values);
    }

    /** As {@link #decodeCsr(ValueType, long[], int[], double[])}, values into a short[]. */
    public long decodeCsr(ValueType type, long[] rowOffsets, int[] colIndices, short[] values) {
        return decodeCsrValues(type, rowOffsets, colIndices, values);
    }

    /** As {@link #decodeCsr(ValueType, long[], int[], double[])}, values into a byte[]. */
    public long decodeCsr(ValueType type, long[] rowOffsets, int[] colIndices, byte[] values) {
        return decodeCsrValues(type, rowOffsets, colIndices, values);
    }

    /** As {@link #decodeCsr(ValueType, long[], int[], double[])}, values into a direct buffer. */
    public long decodeCsr(ValueType type, long[] rowOffsets, int[] colIndices, ByteBuffer values) {
        return decodeCsrValues(type, rowOffsets, colIndices, values);
    }

    // ---- COO ----------------------------------------------------------------------------------------------------

    /** Decodes as COO triplets with block-local indices, row-major. Returns the number of entries. */
    public long decodeCoo(ValueType type, int[] rowIndices, int[] colIndices, double[] values) {
        return decodeCooValues(type, rowIndices, colIndices, values);
    }

    /** As {@link #decodeCoo(ValueType, int[], int[], double[])}, values into a float[]. */
    public long decodeCoo(ValueType type, int[] rowIndices, int[] colIndices, float[] values) {
        return decodeCooValues(type, rowIndices, colIndices, values);
    }

    /** As {@link #decodeCoo(ValueType, int[], int[], double[])}, values into a long[]. */
    public long decodeCoo(ValueType type, int[] rowIndices, int[] colIndices, long[] values) {
        return decodeCooValues(type, rowIndices, colIndices, values);
    }

    /** As {@link #decodeCoo(ValueType, int[], int[], double[])}, values into an int[]. */
    public long decodeCoo(ValueType type, int[] rowIndices, int[] colIndices, int[] values) {
        return decodeCooValues(type, rowIndices, colIndices, values);
    }

    /** As {@link #decodeCoo(ValueType, int[], int[], double[])}, values into a short[]. */
    public long decodeCoo(ValueType type, int[] rowIndices, int[] colIndices, short[] values) {
        return decodeCooValues(type, rowIndices, colIndices, values);
    }

    /** As {@link #decodeCoo(ValueType, int[], int[], double[])}, values into a byte[]. */
    public long decodeCoo(ValueType type, int[] rowIndices, int[] colIndices, byte[] values) {
        return decodeCooValues(type, rowIndices, colIndices, values);
    }

    /** As {@link #decodeCoo(ValueType, int[], int[], double[])}, values into a direct buffer. */
    public long decodeCoo(ValueType type, int[] rowIndices, int[] colIndices, ByteBuffer values) {
        return decodeCooValues(type, rowIndices, colIndices, values);
    }
}
