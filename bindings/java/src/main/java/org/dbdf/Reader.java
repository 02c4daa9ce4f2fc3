package org.dbdf;

import java.io.IOException;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * Reads one .dbdf object: its header, then its blocks one at a time, or the whole object at once.
 *
 * <pre>{@code
 * try (Reader reader = Reader.open(path)) {
 *     for (Block block : reader.blocks()) {
 *         double[] values = block.toDoubleArray();
 *     }
 * }
 * }</pre>
 *
 * <p>Owns native memory: close it (try-with-resources). {@link #close()} is idempotent; any other call after it
 * throws IllegalStateException. A Cleaner frees a reader that was never closed once it becomes unreachable, but
 * only as a safety net. A reader is used by one thread at a time; its methods are synchronized so that a close()
 * from another thread cannot free it during a call.
 *
 * <p>Value buffers have one overload per kind: a primitive array of the value type's width ({@code double[]},
 * {@code float[]}, {@code long[]}, {@code int[]}, {@code short[]}, {@code byte[]}; see {@link ValueType} for
 * unsigned types), pinned, not copied, during the call; or a direct ByteBuffer, which receives values from its
 * position, aligned for the value type and, for types wider than one byte, in {@link ByteOrder#nativeOrder()}.
 *
 * <p>Block payloads ({@link Block#payload()}) of a reader over memory ({@link #fromBytes}, {@link #fromBuffer})
 * point into that memory without copying it; the native reader and its input are freed only when the reader is
 * closed and every payload buffer it handed out is unreachable. A file is read as blocks are asked for, into a
 * buffer the native reader reuses from block to block, so a file's payloads are copies.
 *
 * <p>A file that another process truncates while the reader has it open makes the reads that need the lost bytes
 * throw {@link DbdfException} with {@link Status#IO} ("the file shrank while being read"); the JVM is unharmed.
 */
public final class Reader extends ReaderValueOverloads implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    private final SharedNativeReader state;
    private final Cleaner.Cleanable cleanable;
    private final ObjectInfo info;
    private final ReaderOptions options;
    private boolean closed;
    /** The current block, or null before the first and after the last. */
    private BlockInfo current;
    /** Changes whenever the current block changes, so that stale {@link Block} views are detected. */
    private long position;
    /** True for a file: the native reader's payload buffer is reused for the next block, so payloads are copied. */
    private final boolean readsFile;
    /** Arrow streams over this reader not yet released: every call but close() is refused meanwhile. */
    private int openArrowStreams;

    private Reader(NativeReader reader, ByteBuffer borrowed, ReaderOptions options) {
        this.options = options;
        this.readsFile = borrowed == null;
        this.state = new SharedNativeReader(reader, borrowed);
        // Holds no reference to the Reader: a method reference to the shared state only.
        this.cleanable = CLEANER.register(this, state::release);
        try {
            NativeObjectInfo header = reader.info();
            try {
                this.info = new ObjectInfo(DataType.fromCode(header.getData_type()),
                        ValueType.fromCode(header.getValue_type()), header.getRows(), header.getCols(),
                        header.getHeader_bytes(), header.getTotal_bytes());
            } finally {
                header.delete();
            }
        } catch (RuntimeException error) {
            cleanable.clean();
            throw error;
        }
    }

    /** Opens the file at {@code path} (memory-mapped, read-only) and parses its header. */
    public static Reader open(Path path) {
        Objects.requireNonNull(path, "path");
        return open(path.toString());
    }

    /** Opens the file at {@code path} (memory-mapped, read-only) and parses its header. */
    public static Reader open(String path) {
        return open(path, ReaderOptions.defaults());
    }

    /** Opens the file at {@code path} in {@code dialect} (memory-mapped, read-only) and parses its header. */
    public static Reader open(Path path, Dialect dialect) {
        Objects.requireNonNull(path, "path");
        return open(path.toString(), dialect);
    }

    /** Opens the file at {@code path} in {@code dialect} (memory-mapped, read-only) and parses its header. */
    public static Reader open(String path, Dialect dialect) {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(dialect, "dialect");
        return open(path, ReaderOptions.defaults().withDialect(dialect));
    }

    /**
     * Opens the file at {@code path} (memory-mapped, read-only) as {@code options} say (dialect, decoding threads)
     * and parses its header.
     */
    public static Reader open(Path path, ReaderOptions options) {
        Objects.requireNonNull(path, "path");
        return open(path.toString(), options);
    }

    /** As {@link #open(Path, ReaderOptions)}. */
    public static Reader open(String path, ReaderOptions options) {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(options, "options");
        NativeLibrary.load();
        try {
            return new Reader(new NativeReader(path, options.dialect().code(), options.threads()), null, options);
        } catch (DbdfException error) {
            throw error.withMissingFileCause(path);
        }
    }

    /**
     * Reads the object in {@code channel} (a file, a remote object, a part of a container) from position 0 to its
     * size, through positioned reads: the header, the block headers it needs, then only the payloads of the blocks
     * it decodes. The channel is neither closed nor otherwise used by the reader after {@link #close()}; its
     * position changes. An {@link IOException} the channel throws (from {@code size()} too) fails the reader's call
     * with {@link DbdfException} ({@link Status#IO}) whose {@code getCause()} is that very exception. A
     * {@link RuntimeException} or an {@link Error} a read throws is rethrown itself, unwrapped, with the call's
     * {@link DbdfException} (status and message of the library) attached as a suppressed exception
     * ({@link Throwable#getSuppressed()}); from {@code size()}, it is rethrown as it is.
     */
    public static Reader open(SeekableByteChannel channel) {
        return open(channel, ReaderOptions.defaults());
    }

    /** As {@link #open(SeekableByteChannel)}, as {@code options} say (dialect, decoding threads). */
    public static Reader open(SeekableByteChannel channel, ReaderOptions options) {
        Objects.requireNonNull(channel, "channel");
        long size;
        try {
            size = channel.size();
        } catch (IOException error) {
            throw new DbdfException(Status.IO, "the channel's size is unknown: " + error, error);
        }
        return open(ByteSourceAdapter.of(channel), size, 0, options);
    }

    /**
     * Reads the object in the first {@code size} bytes of {@code source} (-1: until the source ends), through
     * positioned reads as {@link #open(SeekableByteChannel)} does; exceptions of the source surface the same way.
     */
    public static Reader open(PositionedSource source, long size) {
        return open(source, size, ReaderOptions.defaults());
    }

    /** As {@link #open(PositionedSource, long)}, as {@code options} say (dialect, decoding threads). */
    public static Reader open(PositionedSource source, long size, ReaderOptions options) {
        return open(source, size, 0, options);
    }

    /**
     * As {@link #open(PositionedSource, long, ReaderOptions)}, coalescing small reads through a read-ahead window
     * of {@code readAheadBytes} bytes (0: the library's default, 64 KiB; at most 64 MiB): a larger window means
     * fewer, larger reads of a remote source.
     */
    public static Reader open(PositionedSource source, long size, long readAheadBytes, ReaderOptions options) {
        Objects.requireNonNull(source, "source");
        return open(ByteSourceAdapter.of(source), size, readAheadBytes, options);
    }

    private static Reader open(ByteSourceAdapter source, long size, long readAheadBytes, ReaderOptions options) {
        Objects.requireNonNull(options, "options");
        if (size < -1) {
            throw new IllegalArgumentException("size must be -1 (unknown) or at least 0, not " + size);
        }
        if (readAheadBytes < 0) {
            throw new IllegalArgumentException("readAheadBytes must be at least 0, not " + readAheadBytes);
        }
        NativeLibrary.load();
        return new Reader(new NativeReader(size, readAheadBytes, options.dialect().code(), options.threads(), source),
                null, options);
    }

    /** Reads a copy of {@code bytes} in {@code dialect}. */
    public static Reader fromBytes(byte[] bytes, Dialect dialect) {
        Objects.requireNonNull(bytes, "bytes");
        Objects.requireNonNull(dialect, "dialect");
        return fromBytes(bytes, ReaderOptions.defaults().withDialect(dialect));
    }

    /** Reads a copy of {@code bytes} as {@code options} say. */
    public static Reader fromBytes(byte[] bytes, ReaderOptions options) {
        Objects.requireNonNull(bytes, "bytes");
        Objects.requireNonNull(options, "options");
        ByteBuffer copy = ByteBuffer.allocateDirect(bytes.length);
        copy.put(bytes).flip();
        return fromBuffer(copy, options);
    }

    /** Reads the remaining bytes of a direct buffer in place in {@code dialect}; see {@link #fromBuffer(ByteBuffer)}. */
    public static Reader fromBuffer(ByteBuffer buffer, Dialect dialect) {
        Objects.requireNonNull(buffer, "buffer");
        Objects.requireNonNull(dialect, "dialect");
        return fromBuffer(buffer, ReaderOptions.defaults().withDialect(dialect));
    }

    /** Reads a direct buffer in place as {@code options} say; see {@link #fromBuffer(ByteBuffer)}. */
    public static Reader fromBuffer(ByteBuffer buffer, ReaderOptions options) {
        Objects.requireNonNull(buffer, "buffer");
        Objects.requireNonNull(options, "options");
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("the buffer must be direct; use fromBytes for heap data");
        }
        NativeLibrary.load();
        ByteBuffer window = buffer.slice();
        return new Reader(new NativeReader(window, options.dialect().code(), options.threads()), window, options);
    }

    /** The options the reader was opened with ({@link ReaderOptions#defaults()} when none were given). */
    public ReaderOptions options() {
        ensureOpen();
        return options;
    }

    /** The dialect the reader was opened with. */
    public synchronized Dialect dialect() {
        ensureOpen();
        try {
            return Dialect.fromCode(state.reader.opened_dialect());
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * Whether {@link #columnLabel(long)} returns the file's labels: false when they could not be recovered and are
     * DAPHNE's defaults col_0, col_1, ... (frames in the daphne dialect).
     */
    public synchronized boolean labelsRecoverable() {
        ensureOpen();
        try {
            return state.reader.labels_are_recoverable();
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Reads a copy of {@code bytes} (copied once into native memory, so the array may change afterwards). */
    public static Reader fromBytes(byte[] bytes) {
        return fromBytes(bytes, ReaderOptions.defaults());
    }

    /**
     * Reads the remaining bytes of a direct buffer in place, without copying. The reader keeps a reference to it;
     * its contents must not change while the reader is open.
     */
    public static Reader fromBuffer(ByteBuffer buffer) {
        return fromBuffer(buffer, ReaderOptions.defaults());
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the reader is closed");
        }
        if (openArrowStreams > 0) {
            throw new IllegalStateException("the reader is exported as an Arrow stream, which reads through it: "
                    + "close that stream first");
        }
    }

    /** What the object header says. */
    public ObjectInfo info() {
        ensureOpen();
        return info;
    }

    /** Value type of a column: a frame column's own type, for a matrix the object's value type. */
    public synchronized ValueType columnType(long column) {
        ensureOpen();
        try {
            return ValueType.fromCode(state.reader.value_type_of_column(Arguments.uint64(column, "column")));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Label of a frame column, decoded as UTF-8. */
    public String columnLabel(long column) {
        return new String(columnLabelBytes(column), StandardCharsets.UTF_8);
    }

    /** Label of a frame column as stored. */
    public synchronized byte[] columnLabelBytes(long column) {
        ensureOpen();
        try {
            return state.reader.label_of_column(Arguments.uint64(column, "column"));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * Moves to the next block. Returns false past the last block, after checking that the blocks partition the
     * object. Throws DbdfException for a malformed block; further calls then repeat the error.
     */
    public synchronized boolean nextBlock() {
        ensureOpen();
        try {
            boolean more = state.reader.move_next(state.scratch);
            position++;
            current = more ? toBlockInfo(state.scratch) : null;
            return more;
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** The current block. Throws IllegalStateException before the first nextBlock() and after the last. */
    public synchronized Block block() {
        ensureOpen();
        if (current == null) {
            throw new IllegalStateException("no current block: call nextBlock() first (or the blocks are done)");
        }
        return new Block(this, current, position);
    }

    /** Goes back before the first block. */
    public synchronized void rewind() {
        ensureOpen();
        try {
            state.reader.rewind_blocks();
            position++;
            current = null;
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * The blocks in file order, for a for-each loop. Each iteration starts from the first block (it rewinds), and
     * each Block is valid until the loop moves on.
     */
    public Iterable<Block> blocks() {
        return () -> {
            rewind();
            return new Iterator<>() {
                private Boolean hasNext;

                @Override
                public boolean hasNext() {
                    if (hasNext == null) {
                        hasNext = nextBlock();
                    }
                    return hasNext;
                }

                @Override
                public Block next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException("no more blocks");
                    }
                    hasNext = null;
                    return block();
                }
            };
        };
    }

    /** Walks all block headers (payloads skipped) and checks the layout; returns the number of blocks. */
    public synchronized long buildIndex() {
        ensureOpen();
        try {
            return state.reader.index_blocks();
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Describes block {@code index} (file order), building the index first if needed. */
    public synchronized BlockInfo indexEntry(long index) {
        ensureOpen();
        NativeBlockInfo entry = new NativeBlockInfo();
        try {
            state.reader.indexed_block(Arguments.uint64(index, "index"), entry);
            return toBlockInfo(entry);
        } finally {
            entry.delete();
            Reference.reachabilityFence(this);
        }
    }

    /** Makes block {@code index} (file order) the current block and returns it; nextBlock() continues after it. */
    public synchronized Block seekBlock(long index) {
        ensureOpen();
        try {
            state.reader.seek(Arguments.uint64(index, "index"));
            state.reader.current_block(state.scratch);
            position++;
            current = toBlockInfo(state.scratch);
            return new Block(this, current, position);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    synchronized void readDenseValues(ValueType type, Object values, long rowStride) {
        ensureOpen();
        Object checked = Values.check(type, values, true);
        try {
            state.reader.read_all(type.code(), checked, Arguments.uint64(rowStride, "rowStride"));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** The whole object as a new row-major double[] (every value must be exactly representable as a double). */
    public double[] readDoubles() {
        double[] values = new double[Values.arrayLength(info().rows(), info().cols())];
        readDenseValues(ValueType.F64, values, 0);
        return values;
    }

    @Override
    synchronized void readWindowValues(ValueType type, long row, long col, long rows, long cols, Object values,
            long rowStride) {
        ensureOpen();
        Object checked = Values.check(type, values, true);
        try {
            state.reader.read_window(type.code(), Arguments.uint64(row, "row"), Arguments.uint64(col, "col"),
                    Arguments.uint64(rows, "rows"), Arguments.uint64(cols, "cols"), checked,
                    Arguments.uint64(rowStride, "rowStride"));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    synchronized void readColumnValues(long column, ValueType type, Object values) {
        ensureOpen();
        Object checked = Values.check(type, values, true);
        try {
            state.reader.read_column_values(Arguments.uint64(column, "column"), type.code(), checked);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Number of entries the whole object yields as CSR. */
    public synchronized long countEntries() {
        ensureOpen();
        try {
            return state.reader.object_entries();
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    synchronized long readCsrValues(ValueType type, long[] rowOffsets, long[] colIndices, Object values) {
        ensureOpen();
        Objects.requireNonNull(rowOffsets, "rowOffsets");
        Objects.requireNonNull(colIndices, "colIndices");
        Object checked = Values.check(type, values, true);
        try {
            return state.reader.read_all_csr(type.code(), rowOffsets, colIndices, checked);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** Checks every rule of the format strictly; throws DbdfException naming the first violation. */
    public synchronized void validate() {
        ensureOpen();
        try {
            state.reader.check_rules();
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * Checks every rule of the format strictly and returns every violation found, in the order the library reports
     * them; an empty list for a valid object. The list is unmodifiable. Throws DbdfException only when the check
     * itself cannot run (for example {@link Status#NOMEM}), never because of a violation.
     */
    public synchronized List<Violation> violations() {
        ensureOpen();
        try {
            NativeViolations found = state.reader.find_violations();
            try {
                Violation[] violations = new Violation[Math.toIntExact(found.count())];
                for (int index = 0; index < violations.length; index++) {
                    violations[index] = new Violation(found.rule(index), found.offset(index),
                            new String(found.message_bytes(index), StandardCharsets.UTF_8));
                }
                return List.of(violations);
            } finally {
                found.delete();
            }
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /**
     * Fills the {@code struct ArrowArrayStream} at {@code streamAddress} (native memory the caller allocated, such as
     * Arrow Java's {@code ArrowArrayStream.memoryAddress()}) with a stream of Arrow's C stream interface over this
     * reader's object (docs/arrow.md has the mapping). {@link org.dbdf.arrow.DbdfArrow} does this for Arrow Java;
     * this level serves other Arrow libraries. With {@code denseAsList}, a dense matrix is one fixed-size-list field
     * instead of one field per column. Close the returned hold once the stream is released (never before).
     *
     * <p>A reader over memory ({@link #fromBytes}, {@link #fromBuffer}) lends it: the stream reads through a
     * native reader of its own over the same bytes, so this reader stays free to use, and batches point into the
     * bytes where a column's block already has Arrow's layout (no copy); the bytes stay alive until the last batch
     * is released (a buffer given to {@link #fromBuffer} must stay unchanged that long). The hold does nothing.
     *
     * <p>A reader over a file or a byte source is borrowed: the hold keeps its native reader alive, also past
     * {@link #close()}, and until it is closed the stream moves the reader's block position, so every call on this
     * reader but {@link #close()} throws IllegalStateException; its current block is forgotten now. Batches own
     * their buffers. Either way batches may outlive both. Throws {@link DbdfException}
     * ({@link Status#INVALID_ARGUMENT} for address 0, {@link Status#UNSUPPORTED} beyond 2^24 columns, and beyond
     * 2^16 for a frame or, without {@code denseAsList}, a dense matrix).
     */
    public synchronized AutoCloseable exportArrowStream(long streamAddress, boolean denseAsList) {
        ensureOpen();
        ByteBuffer memory = state.borrowed();
        if (memory != null) {
            try {
                NativeDbdf.dbdf_swig_export_arrow_lending(memory, options.dialect().code(), options.threads(),
                        streamAddress, denseAsList, memory);
            } finally {
                Reference.reachabilityFence(this);
            }
            return () -> { };
        }
        current = null;
        position++;
        state.retain();
        boolean exported = false;
        try {
            state.reader.export_arrow_stream(streamAddress, denseAsList);
            exported = true;
        } finally {
            if (!exported) {
                state.release();
            }
            Reference.reachabilityFence(this);
        }
        openArrowStreams++;
        return new NativeReaderHold(state, this::arrowStreamReleased);
    }

    private synchronized void arrowStreamReleased() {
        openArrowStreams--;
    }

    /**
     * Closes the reader: every later call throws IllegalStateException. Idempotent. The native reader is freed now,
     * or, while payload buffers from {@link Block#payload()} are still reachable, once the last of them is
     * collected, so that they stay readable.
     */
    @Override
    public synchronized void close() {
        closed = true;
        current = null;
        cleanable.clean();
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    /** The native reader this reader shares with its payload buffers (tests watch it being freed). */
    SharedNativeReader sharedNativeReader() {
        return state;
    }

    // ---- operations on the current block, used by Block ------------------------------------------------------

    synchronized void checkCurrent(Block block) {
        ensureOpen();
        if (block.position() != position) {
            throw new IllegalStateException("block " + block.info().index()
                    + " is no longer the current block of its reader");
        }
    }

    /**
     * The current block's payload over the native memory. The buffer the JNI code creates holds a reference to the
     * shared native reader, released by a Cleaner once that buffer is unreachable. Every view of it (the read-only
     * buffer returned here, and any slice, duplicate or typed view the caller makes) keeps it reachable, as the
     * JDK's views keep the buffer whose memory they share.
     */
    synchronized ByteBuffer payload(Block block) {
        checkCurrent(block);
        try {
            ByteBuffer memory = state.reader.payload();
            if (readsFile) {
                ByteBuffer copy = ByteBuffer.allocateDirect(memory.remaining());
                copy.put(memory).flip();
                return copy.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
            }
            state.retain();
            CLEANER.register(memory, state::release);
            return memory.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    synchronized void decodeDense(Block block, ValueType type, Object values, long rowStride) {
        checkCurrent(block);
        Object checked = Values.check(type, values, true);
        try {
            state.reader.decode_dense(type.code(), checked, Arguments.uint64(rowStride, "rowStride"));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    synchronized long countEntries(Block block) {
        checkCurrent(block);
        try {
            return state.reader.block_entries();
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    synchronized long decodeCsr(Block block, ValueType type, long[] rowOffsets, int[] colIndices, Object values) {
        checkCurrent(block);
        Objects.requireNonNull(rowOffsets, "rowOffsets");
        Objects.requireNonNull(colIndices, "colIndices");
        Object checked = Values.check(type, values, true);
        try {
            return state.reader.decode_csr(type.code(), rowOffsets, colIndices, checked);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    synchronized long decodeCoo(Block block, ValueType type, int[] rowIndices, int[] colIndices, Object values) {
        checkCurrent(block);
        Objects.requireNonNull(rowIndices, "rowIndices");
        Objects.requireNonNull(colIndices, "colIndices");
        Object checked = Values.check(type, values, true);
        try {
            return state.reader.decode_coo(type.code(), rowIndices, colIndices, checked);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    private static BlockInfo toBlockInfo(NativeBlockInfo block) {
        return new BlockInfo(block.getIndex(), block.getRow(), block.getCol(), block.getRows(), block.getCols(),
                BlockType.fromCode(block.getBlock_type()), ValueType.fromCode(block.getValue_type()),
                block.getStored_values(), block.getOffset(), block.getEncoded_bytes());
    }
}
