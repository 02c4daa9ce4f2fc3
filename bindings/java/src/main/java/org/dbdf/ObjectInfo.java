package org.dbdf;

/**
 * What an object header says.
 *
 * @param valueType   {@link ValueType#NONE} for frames: each column has its own, see {@link Reader#columnType}
 * @param headerBytes size of the object header; the first block starts there
 * @param totalBytes  size of the whole input
 */
public record ObjectInfo(DataType dataType, ValueType valueType, long rows, long cols, long headerBytes,
        long totalBytes) {
}
