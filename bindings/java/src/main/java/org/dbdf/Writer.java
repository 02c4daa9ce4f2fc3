package org.dbdf;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Writes one .dbdf object: begin with the header, add blocks one at a time (or write a whole matrix or frame
 * column, tiled), then {@link #finish()}.
 *
 * <pre>{@code
 * try (Writer writer = Writer.toFile(path)) {
 *     writer.beginMatrix(DataType.DENSE, ValueType.F64, 6, 5);
 *     writer.writeDense(ValueType.F64, values, 0, Encoding.AUTO, 4, 3);
 *     writer.finish();
 * }
 * }</pre>
 *
 * <p>A file writer writes to a temporary file that finish() renames over the target: closing a writer without
 * finishing leaves any existing file untouched. The file is not synced to the disk unless the writer was opened with
 * {@link WriterOptions#durable()}. Owns native memory: close it. {@link #close()} is idempotent; any other call after
 * it throws IllegalStateException; a Cleaner is only a safety net.
 *
 * <p>Value buffers have one overload per kind: a primitive array of the value type's width ({@code double[]},
 * {@code float[]}, {@code long[]}, {@code int[]}, {@code short[]}, {@code byte[]}; see {@link ValueType} for
 * unsigned types), pinned, not copied, during the call; or a direct ByteBuffer holding the values from its
 * position, aligned for the value type and, for types wider than one byte, in
 * {@link java.nio.ByteOrder#nativeOrder()}. Every value must be exactly representable in the object's (column's)
 * value type.
 */
public final class Writer extends WriterValueOverloads implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    private final NativeWriter writer;
    private final Cleaner.Cleanable cleanable;
    private final WriterOptions options;
    private boolean closed;

    private Writer(NativeWriter writer, WriterOptions options) {
        this.writer = writer;
        this.options = options;
        this.cleanable = CLEANER.register(this, writer::delete);
    }

    /** Writes the file at {@code path} atomically (a temporary file in the same directory until finish()). */
    public static Writer toFile(Path path) {
        Objects.requireNonNull(path, "path");
        return toFile(path.toString());
    }

    /** Writes the file at {@code path} atomically (a temporary file in the same directory until finish()). */
    public static Writer toFile(String path) {
        return toFile(path, WriterOptions.defaults());
    }

    /**
     * Writes the file at {@code path} atomically in {@code dialect}. In {@link Dialect#DAPHNE} the object is one
     * block, as DAPHNE's runtime writes it: a matrix takes writeDense (or one add call covering it; a dense matrix
     * also add calls of full-width row bands in row order, so it need not be in memory whole), a frame every column
     * once, a scalar ({@link #beginMatrix}) its one value; and with {@code writeMeta} finish()
     * also writes {@code path.meta}, the JSON file DaphneDSL's read needs (not for a scalar: the runtime writes
     * none). See section 5 of dbdf.h.
     */
    public static Writer toFile(Path path, Dialect dialect, boolean writeMeta) {
        Objects.requireNonNull(path, "path");
        return toFile(path.toString(), dialect, writeMeta);
    }

    /** As {@link #toFile(Path, Dialect, boolean)}. */
    public static Writer toFile(String path, Dialect dialect, boolean writeMeta) {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(dialect, "dialect");
        return toFile(path, WriterOptions.defaults().withDialect(dialect).withWriteMeta(writeMeta));
    }

    /**
     * Writes the file at {@code path} atomically as {@code options} say: the dialect (see
     * {@link #toFile(Path, Dialect, boolean)}), the .meta sidecar, whether finish() syncs the file to the disk
     * ({@link WriterOptions#durable()}), and the threads of writeDense.
     */
    public static Writer toFile(Path path, WriterOptions options) {
        Objects.requireNonNull(path, "path");
        return toFile(path.toString(), options);
    }

    /** As {@link #toFile(Path, WriterOptions)}. */
    public static Writer toFile(String path, WriterOptions options) {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(options, "options");
        NativeLibrary.load();
        try {
            return new Writer(new NativeWriter(path, options.dialect().code(), options.writeMeta(),
                    options.durable(), options.threads()), options);
        } catch (DbdfException error) {
            throw error.withMissingFolderCause(path);
        }
    }

    /** Writes to memory in {@code dialect}; get the bytes with {@link #toByteArray()} after finish(). */
    public static Writer toMemory(Dialect dialect) {
        Objects.requireNonNull(dialect, "dialect");
        return toMemory(WriterOptions.defaults().withDialect(dialect));
    }

    /**
     * Writes to memory in the dialect and with the writeDense threads {@code options} give (a memory writer has no
     * .meta sidecar and nothing to sync: it ignores writeMeta and durable); get the bytes with
     * {@link #toByteArray()} after finish().
     */
    public static Writer toMemory(WriterOptions options) {
        Objects.requireNonNull(options, "options");
        NativeLibrary.load();
        return new Writer(new NativeWriter(options.dialect().code(), options.threads()), options);
    }

    /**
     * Writes to {@code stream}, in order, as the object is written; nothing is held back past {@link #finish()}.
     * The stream is neither flushed nor closed. An {@link java.io.IOException} the stream throws fails the writer's
     * call with {@link DbdfException} ({@link Status#SINK}) whose {@code getCause()} is that very exception. A
     * {@link RuntimeException} or an {@link Error} it throws is rethrown itself, unwrapped, with the call's
     * {@link DbdfException} (status and message of the library) attached as a suppressed exception
     * ({@link Throwable#getSuppressed()}). Either way the writer is then unusable.
     */
    public static Writer toStream(OutputStream stream) {
        return toStream(stream, WriterOptions.defaults());
    }

    /** As {@link #toStream(OutputStream)}, in the dialect and with the writeDense threads {@code options} give. */
    public static Writer toStream(OutputStream stream, WriterOptions options) {
        Objects.requireNonNull(stream, "stream");
        return toSink(ByteSinkAdapter.of(stream), options);
    }

    /** As {@link #toStream(OutputStream)}, to a blocking {@code channel}. */
    public static Writer toChannel(WritableByteChannel channel) {
        return toChannel(channel, WriterOptions.defaults());
    }

    /** As {@link #toChannel(WritableByteChannel)}, in the dialect and with the writeDense threads {@code options} give. */
    public static Writer toChannel(WritableByteChannel channel, WriterOptions options) {
        Objects.requireNonNull(channel, "channel");
        return toSink(ByteSinkAdapter.of(channel), options);
    }

    private static Writer toSink(ByteSinkAdapter sink, WriterOptions options) {
        Objects.requireNonNull(options, "options");
        NativeLibrary.load();
        return new Writer(new NativeWriter(options.dialect().code(), options.threads(), sink), options);
    }

    /** The options the writer was opened with ({@link WriterOptions#defaults()} when none were given). */
    public WriterOptions options() {
        ensureOpen();
        return options;
    }

    /** The dialect the writer was opened with. */
    public synchronized Dialect dialect() {
        ensureOpen();
        try {
            return Dialect.fromCode(writer.opened_dialect());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Writes to memory; get the bytes with {@link #toByteArray()} after finish(). */
    public static Writer toMemory() {
        return toMemory(WriterOptions.defaults());
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the writer is closed");
        }
    }

    /**
     * Writes the header of a matrix ({@link DataType#DENSE} or {@link DataType#CSR}). A writer in
     * {@link Dialect#DAPHNE} also takes {@link DataType#SCALAR} with rows = cols = 1: a single value, given afterwards
     * as a 1 x 1 matrix's (writeDense of one value, or one add call of the 1 x 1 block) and written as DAPHNE's runtime
     * serializes it, with no .meta sidecar. A scalar in the spec dialect, or one that is not 1 x 1, is refused with
     * {@link DbdfException} ({@link Status#INVALID_ARGUMENT}).
     */
    public synchronized void beginMatrix(DataType dataType, ValueType valueType, long rows, long cols) {
        ensureOpen();
        Objects.requireNonNull(dataType, "dataType");
        Objects.requireNonNull(valueType, "valueType");
        try {
            writer.start_matrix(dataType.code(), valueType.code(), Arguments.uint64(rows, "rows"),
                    Arguments.uint64(cols, "cols"));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Writes the header of a frame: one value type and one label (unique, UTF-8, at most 65535 bytes) per column. */
    public synchronized void beginFrame(long rows, ValueType[] columnTypes, String[] labels) {
        ensureOpen();
        Objects.requireNonNull(columnTypes, "columnTypes");
        Objects.requireNonNull(labels, "labels");
        if (columnTypes.length != labels.length) {
            throw new IllegalArgumentException(
                    columnTypes.length + " column types but " + labels.length + " labels");
        }
        int[] typeCodes = new int[columnTypes.length];
        int[] labelLengths = new int[labels.length];
        ByteArrayOutputStream labelBytes = new ByteArrayOutputStream();
        for (int column = 0; column < columnTypes.length; column++) {
            typeCodes[column] = Objects.requireNonNull(columnTypes[column], "column type").code();
            byte[] label = Objects.requireNonNull(labels[column], "label").getBytes(StandardCharsets.UTF_8);
            labelLengths[column] = label.length;
            labelBytes.writeBytes(label);
        }
        try {
            writer.start_frame(Arguments.uint64(rows, "rows"), typeCodes, labelLengths, labelBytes.toByteArray());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * Writes the record batches of the {@code struct ArrowArrayStream} at {@code streamAddress} (Arrow Java's
     * {@code ArrowArrayStream.memoryAddress()} after {@code Data.exportArrayStream}; {@link org.dbdf.arrow.DbdfArrow}
     * does this for Arrow Java) as a frame of {@code rows} rows, one column per field, or with {@code asMatrix} as
     * a dense matrix of one value type; Arrow booleans become u8 0 / 1 with {@code booleansAsU8}, and are refused
     * otherwise. The writer must not have begun; the stream is released on every path. Does not finish the writer.
     * Throws {@link DbdfException}: {@link Status#UNSUPPORTED} for a field of a type dbdf has not (the message
     * names the column), {@link Status#FORMAT} for a null or a row count other than {@code rows},
     * {@link Status#IO} when the stream itself fails, {@link Status#CALL_ORDER} when the writer has begun.
     */
    public synchronized void importArrowStream(long streamAddress, long rows, boolean asMatrix, boolean booleansAsU8) {
        ensureOpen();
        try {
            writer.import_arrow_stream(streamAddress, Arguments.uint64(rows, "rows"), asMatrix, booleansAsU8);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    synchronized void addDenseValues(long row, long col, long rows, long cols, ValueType type, Object values,
            long rowStride, Encoding encoding) {
        ensureOpen();
        Object checked = Values.check(type, values, false);
        Objects.requireNonNull(encoding, "encoding");
        try {
            writer.put_dense(Arguments.uint64(row, "row"), Arguments.uint64(col, "col"), Arguments.uint32(rows, "rows"),
                    Arguments.uint32(cols, "cols"), type.code(), checked, Arguments.uint64(rowStride, "rowStride"),
                    encoding.code());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    synchronized void addCsrValues(long row, long col, long rows, long cols, ValueType type, long[] rowOffsets,
            int[] colIndices, Object values, Encoding encoding) {
        ensureOpen();
        Objects.requireNonNull(rowOffsets, "rowOffsets");
        Objects.requireNonNull(colIndices, "colIndices");
        Object checked = Values.check(type, values, false);
        Objects.requireNonNull(encoding, "encoding");
        try {
            writer.put_csr(Arguments.uint64(row, "row"), Arguments.uint64(col, "col"), Arguments.uint32(rows, "rows"),
                    Arguments.uint32(cols, "cols"), type.code(), rowOffsets, colIndices, checked, encoding.code());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    synchronized void addCooValues(long row, long col, long rows, long cols, ValueType type, int[] rowIndices,
            int[] colIndices, Object values, Encoding encoding) {
        ensureOpen();
        Objects.requireNonNull(rowIndices, "rowIndices");
        Objects.requireNonNull(colIndices, "colIndices");
        Object checked = Values.check(type, values, false);
        Objects.requireNonNull(encoding, "encoding");
        try {
            writer.put_coo(Arguments.uint64(row, "row"), Arguments.uint64(col, "col"), Arguments.uint32(rows, "rows"),
                    Arguments.uint32(cols, "cols"), type.code(), rowIndices, colIndices, checked, rowIndices.length,
                    encoding.code());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Adds an all-zero block. */
    public synchronized void addEmpty(long row, long col, long rows, long cols) {
        ensureOpen();
        try {
            writer.put_empty(Arguments.uint64(row, "row"), Arguments.uint64(col, "col"), Arguments.uint32(rows, "rows"),
                    Arguments.uint32(cols, "cols"));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    synchronized void writeDenseValues(ValueType type, Object values, long rowStride, Encoding encoding,
            long blockRows, long blockCols) {
        ensureOpen();
        Object checked = Values.check(type, values, false);
        Objects.requireNonNull(encoding, "encoding");
        try {
            writer.write_dense_tiled(type.code(), checked, Arguments.uint64(rowStride, "rowStride"), encoding.code(),
                    Arguments.uint32(blockRows, "blockRows"), Arguments.uint32(blockCols, "blockCols"));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    synchronized void writeColumnValues(long column, ValueType type, Object values, Encoding encoding,
            long blockRows) {
        ensureOpen();
        Object checked = Values.check(type, values, false);
        Objects.requireNonNull(encoding, "encoding");
        try {
            writer.write_column_values(Arguments.uint64(column, "column"), type.code(), checked, encoding.code(),
                    Arguments.uint32(blockRows, "blockRows"));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * Finishes the object: checks that the blocks cover every cell, flushes, and for a file writer syncs and renames
     * the temporary file over the target. A FORMAT failure (cells not covered) leaves the writer open for more
     * blocks.
     */
    public synchronized void finish() {
        ensureOpen();
        try {
            writer.finish_object();
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Number of bytes written so far. */
    public synchronized long bytesWritten() {
        ensureOpen();
        try {
            return writer.written_bytes();
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** A copy of the bytes of a finished memory writer. */
    public synchronized byte[] toByteArray() {
        ensureOpen();
        try {
            return writer.output_bytes();
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Frees the native writer; without a successful finish() everything written is discarded. Idempotent. */
    @Override
    public synchronized void close() {
        closed = true;
        cleanable.clean();
    }

    public synchronized boolean isClosed() {
        return closed;
    }
}
