package org.dbdf.spark;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * One column of fixed-width values (byte, short, int, long, float, double) that a window read decoded into native
 * memory, {@code strideBytes} apart: its own buffer (stride one value) or its place in the rows of a buffer holding
 * several columns of a block, read in one pass. Each getter is one load, as in Spark's OffHeapColumnVector, where an
 * ArrowColumnVector checks bounds and validity per value; the column has no nulls (every dbdf column is
 * non-nullable), so Spark's generated code asks for none. Indices are not checked: callers stay within the batch's
 * rows, as with Spark's own vectors.
 */
final class NativeValuesVector extends ColumnVector {
    private final ArrowBuf memory;
    private final long firstValue;
    private final long strideBytes;
    private boolean closed;

    /**
     * A view of {@code memory} starting {@code offset} bytes in; holds one reference to it (released by close), so
     * that the columns sharing one buffer free it with the last of them.
     */
    NativeValuesVector(DataType type, ArrowBuf memory, long offset, long strideBytes) {
        super(type);
        memory.getReferenceManager().retain();
        this.memory = memory;
        this.firstValue = memory.memoryAddress() + offset;
        this.strideBytes = strideBytes;
    }

    private long address(int rowId) {
        return firstValue + rowId * strideBytes;
    }

    /**
     * Releases this vector's reference to the buffer, once: Spark closes a batch's vectors when it has consumed them
     * (ColumnVector.closeIfFreeable) and the reader closes the batch again before the next read.
     */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            memory.getReferenceManager().release();
        }
    }

    @Override
    public boolean hasNull() {
        return false;
    }

    @Override
    public int numNulls() {
        return 0;
    }

    @Override
    public boolean isNullAt(int rowId) {
        return false;
    }

    @Override
    public byte getByte(int rowId) {
        return Platform.getByte(null, address(rowId));
    }

    @Override
    public short getShort(int rowId) {
        return Platform.getShort(null, address(rowId));
    }

    @Override
    public int getInt(int rowId) {
        return Platform.getInt(null, address(rowId));
    }

    @Override
    public long getLong(int rowId) {
        return Platform.getLong(null, address(rowId));
    }

    @Override
    public float getFloat(int rowId) {
        return Platform.getFloat(null, address(rowId));
    }

    @Override
    public double getDouble(int rowId) {
        return Platform.getDouble(null, address(rowId));
    }

    @Override
    public boolean getBoolean(int rowId) {
        throw unsupported();
    }

    @Override
    public ColumnarArray getArray(int rowId) {
        throw unsupported();
    }

    @Override
    public ColumnarMap getMap(int ordinal) {
        throw unsupported();
    }

    @Override
    public Decimal getDecimal(int rowId, int precision, int scale) {
        throw unsupported();
    }

    @Override
    public UTF8String getUTF8String(int rowId) {
        throw unsupported();
    }

    @Override
    public byte[] getBinary(int rowId) {
        throw unsupported();
    }

    @Override
    public ColumnVector getChild(int ordinal) {
        throw unsupported();
    }

    private UnsupportedOperationException unsupported() {
        return new UnsupportedOperationException("dbdf: a column of " + dataType() + " has no such values");
    }
}
