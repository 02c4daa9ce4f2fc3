package org.dbdf;

import java.nio.ByteBuffer;

/**
 * The current block of a {@link Reader}: its description, and decoding of its values. Valid until the reader
 * moves to another block (then every method throws IllegalStateException) or is closed.
 */
public final class Block extends BlockValueOverloads {
    private final Reader reader;
    private final BlockInfo info;
    private final long position;

    Block(Reader reader, BlockInfo info, long position) {
        this.reader = reader;
        this.info = info;
        this.position = position;
    }

    long position() {
        return position;
    }

    /** The block as stored; stays readable after the reader moved on. */
    public BlockInfo info() {
        return info;
    }

    public long index() {
        return info.index();
    }

    public long row() {
        return info.row();
    }

    public long col() {
        return info.col();
    }

    public long rows() {
        return info.rows();
    }

    public long cols() {
        return info.cols();
    }

    public BlockType blockType() {
        return info.blockType();
    }

    public ValueType valueType() {
        return info.valueType();
    }

    /**
     * The payload bytes as stored: a read-only direct buffer in little-endian order (dense: row-major values; CSR:
     * the per-row records after the entry count; COO: the entries after the entry count; empty: no bytes). Only
     * the current block has a payload to ask for, but the buffer stays readable for as long as it (or any view of
     * it) is reachable, even after the reader moved on or was closed. For a reader over memory it points into that
     * memory without copying, which is freed only when the reader is closed and every payload buffer it handed out
     * has been garbage collected (holding on to payload buffers keeps the whole input in memory). For a file it is
     * a copy of the payload, read when asked for: throws {@link DbdfException} with {@link Status#IO} if the
     * file shrank since it was opened.
     */
    public ByteBuffer payload() {
        return reader.payload(this);
    }

    @Override
    void decodeDenseValues(ValueType type, Object values, long rowStride) {
        reader.decodeDense(this, type, values, rowStride);
    }

    /** The block's values as a new row-major double[]. */
    public double[] toDoubleArray() {
        double[] values = new double[Values.arrayLength(info.rows(), info.cols())];
        decodeDenseValues(ValueType.F64, values, 0);
        return values;
    }

    /** The block's values as a new row-major long[] (I64; unsigned 64-bit data needs decodeDense(U64, ...)). */
    public long[] toLongArray() {
        long[] values = new long[Values.arrayLength(info.rows(), info.cols())];
        decodeDenseValues(ValueType.I64, values, 0);
        return values;
    }

    /** Number of entries the block yields as CSR or COO. */
    public long countEntries() {
        return reader.countEntries(this);
    }

    @Override
    long decodeCsrValues(ValueType type, long[] rowOffsets, int[] colIndices, Object values) {
        return reader.decodeCsr(this, type, rowOffsets, colIndices, values);
    }

    @Override
    long decodeCooValues(ValueType type, int[] rowIndices, int[] colIndices, Object values) {
        return reader.decodeCoo(this, type, rowIndices, colIndices, values);
    }

    /**
     * The stored block's description, as its {@link BlockInfo} gives it but under this class's name:
     * {@code Block[index=0, row=0, col=0, rows=2, cols=3, blockType=DENSE, valueType=F64, storedValues=6,
     * offset=19, encodedBytes=68]}.
     */
    @Override
    public String toString() {
        return "Block[index=" + info.index() + ", row=" + info.row() + ", col=" + info.col() + ", rows=" + info.rows()
                + ", cols=" + info.cols() + ", blockType=" + info.blockType() + ", valueType=" + info.valueType()
                + ", storedValues=" + info.storedValues() + ", offset=" + info.offset() + ", encodedBytes="
                + info.encodedBytes() + "]";
    }
}
