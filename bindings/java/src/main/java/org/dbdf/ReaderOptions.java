package org.dbdf;

import java.util.Objects;

/**
 * How a {@link Reader} is opened: the dialect of its input, and how many threads the whole-object reads
 * ({@code readDense}, {@code readWindow}, {@code readColumn} and the {@code read*s()} shortcuts) decode on.
 * Immutable: start from {@link #defaults()} and change what differs.
 *
 * <pre>{@code
 * ReaderOptions options = ReaderOptions.defaults().withDialect(Dialect.DAPHNE).withThreads(4);
 * try (Reader reader = Reader.open(path, options)) {
 *     double[] values = reader.readDoubles();   // decoded on up to 4 threads, the calling one included
 * }
 * }</pre>
 */
public final class ReaderOptions {
    private static final ReaderOptions DEFAULTS = new ReaderOptions(Dialect.SPEC, 0);

    private final Dialect dialect;
    private final int threads;

    private ReaderOptions(Dialect dialect, int threads) {
        this.dialect = dialect;
        this.threads = threads;
    }

    /**
     * {@link Dialect#SPEC}, automatic threads: what {@link Reader#open(java.nio.file.Path)} and the other ways to
     * open a reader without options use.
     */
    public static ReaderOptions defaults() {
        return DEFAULTS;
    }

    /** The layout of the input; {@link Dialect#SPEC} by default. */
    public Dialect dialect() {
        return dialect;
    }

    /**
     * Threads the whole-object reads decode on, the calling thread included; they are started for each such call
     * and joined before it returns. 0 (the default): automatic, one per processor core for reads of 16 MiB or more
     * and only the calling thread for smaller ones. 1: only the calling thread. More than max(64, the processor
     * count) start only that many. The values read are the same whatever the count. Block-by-block decoding always
     * runs on the calling thread alone.
     */
    public int threads() {
        return threads;
    }

    /** These options with {@code dialect}. */
    public ReaderOptions withDialect(Dialect dialect) {
        return new ReaderOptions(Objects.requireNonNull(dialect, "dialect"), threads);
    }

    /**
     * These options with {@code threads} (see {@link #threads()}).
     *
     * @throws IllegalArgumentException if {@code threads} is negative
     */
    public ReaderOptions withThreads(int threads) {
        return new ReaderOptions(dialect, checkThreads(threads));
    }

    /** A thread count of the reader or writer options: 0 means automatic, so only negative counts are wrong. */
    static int checkThreads(int threads) {
        if (threads < 0) {
            throw new IllegalArgumentException(
                    "threads must be 0 (automatic), 1 (the calling thread only) or more, not " + threads);
        }
        return threads;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ReaderOptions options && dialect == options.dialect && threads == options.threads;
    }

    @Override
    public int hashCode() {
        return Objects.hash(dialect, threads);
    }

    @Override
    public String toString() {
        return "ReaderOptions[dialect=" + dialect + ", threads=" + threads + "]";
    }
}
