package org.dbdf;

import java.util.Objects;

/**
 * How a {@link Writer} is opened: the dialect it writes, whether a daphne file gets its {@code .meta} sidecar,
 * whether finish() makes a file durable, and how many threads {@code writeDense} uses. Immutable: start from
 * {@link #defaults()} and change what differs.
 *
 * <pre>{@code
 * WriterOptions options = WriterOptions.defaults().withDurable(true).withThreads(1);
 * try (Writer writer = Writer.toFile(path, options)) {
 *     writer.beginMatrix(DataType.DENSE, ValueType.F64, rows, cols);
 *     writer.writeDense(values);
 *     writer.finish();                          // returns once the file survives a power loss
 * }
 * }</pre>
 */
public final class WriterOptions {
    private static final WriterOptions DEFAULTS = new WriterOptions(Dialect.SPEC, true, false, 0);

    private final Dialect dialect;
    private final boolean writeMeta;
    private final boolean durable;
    private final int threads;

    private WriterOptions(Dialect dialect, boolean writeMeta, boolean durable, int threads) {
        this.dialect = dialect;
        this.writeMeta = writeMeta;
        this.durable = durable;
        this.threads = threads;
    }

    /**
     * {@link Dialect#SPEC}, with the .meta sidecar, not durable, automatic threads: what
     * {@link Writer#toFile(java.nio.file.Path)} and {@link Writer#toMemory()} use.
     */
    public static WriterOptions defaults() {
        return DEFAULTS;
    }

    /** The layout to write; {@link Dialect#SPEC} by default. */
    public Dialect dialect() {
        return dialect;
    }

    /**
     * {@link Dialect#DAPHNE} file writers only: whether finish() also writes {@code path.meta}, the JSON file
     * DaphneDSL's read needs (true by default). Ignored in the spec dialect and by memory writers.
     */
    public boolean writeMeta() {
        return writeMeta;
    }

    /**
     * File writers only: whether finish() syncs the file (and the .meta sidecar) to the disk before moving it over
     * the target, and the directory after, so that the new file survives a system crash or power loss once finish()
     * returns; it costs a flush of the data to the disk. False (the default): the target is still replaced in one
     * step (readers see the old file or the new one, never a part of it), but after a crash the new contents may be
     * missing. Ignored by memory writers.
     */
    public boolean durable() {
        return durable;
    }

    /**
     * Threads {@code writeDense} uses, the calling thread included; the others are started for the call and joined
     * before it returns. Every one of them analyses the values of the next block not yet taken (the calling thread
     * whenever the next block to write is not analysed yet) while the calling thread encodes and writes the blocks
     * in order. 0 (the default): automatic, one per processor core, at most four, for matrices of 16 MiB or more;
     * one otherwise. 1: only the calling thread. More than max(64, the processor count) start only that many. The
     * bytes written are the same whatever the count; other calls always run on the calling thread.
     */
    public int threads() {
        return threads;
    }

    /** These options with {@code dialect}. */
    public WriterOptions withDialect(Dialect dialect) {
        return new WriterOptions(Objects.requireNonNull(dialect, "dialect"), writeMeta, durable, threads);
    }

    /** These options with {@code writeMeta} (see {@link #writeMeta()}). */
    public WriterOptions withWriteMeta(boolean writeMeta) {
        return new WriterOptions(dialect, writeMeta, durable, threads);
    }

    /** These options with {@code durable} (see {@link #durable()}). */
    public WriterOptions withDurable(boolean durable) {
        return new WriterOptions(dialect, writeMeta, durable, threads);
    }

    /**
     * These options with {@code threads} (see {@link #threads()}).
     *
     * @throws IllegalArgumentException if {@code threads} is negative
     */
    public WriterOptions withThreads(int threads) {
        return new WriterOptions(dialect, writeMeta, durable, ReaderOptions.checkThreads(threads));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof WriterOptions options && dialect == options.dialect
                && writeMeta == options.writeMeta && durable == options.durable && threads == options.threads;
    }

    @Override
    public int hashCode() {
        return Objects.hash(dialect, writeMeta, durable, threads);
    }

    @Override
    public String toString() {
        return "WriterOptions[dialect=" + dialect + ", writeMeta=" + writeMeta + ", durable=" + durable + ", threads="
                + threads + "]";
    }
}
