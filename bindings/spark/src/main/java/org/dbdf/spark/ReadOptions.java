package org.dbdf.spark;

import java.io.Serializable;
import java.util.Locale;
import java.util.Map;
import org.dbdf.Dialect;
import org.dbdf.ReaderOptions;

/**
 * The options of {@code spark.read.format("dbdf")}: {@code dialect} ({@code spec}, the default, or {@code daphne}
 * for files DAPHNE's runtime writes) and {@code layout} ({@code auto}, the default, or {@code entries}: any matrix
 * as (row, col, value) rows of its stored entries).
 */
record ReadOptions(Dialect dialect, boolean entries) implements Serializable {

    static ReadOptions parse(Map<String, String> options) {
        String dialectText = option(options, "dialect", "spec");
        Dialect dialect = switch (dialectText) {
            case "spec" -> Dialect.SPEC;
            case "daphne" -> Dialect.DAPHNE;
            default -> throw new IllegalArgumentException(
                    "dbdf: option dialect must be 'spec' or 'daphne', not '" + dialectText + "'");
        };
        String layoutText = option(options, "layout", "auto");
        boolean entries = switch (layoutText) {
            case "auto" -> false;
            case "entries" -> true;
            default -> throw new IllegalArgumentException(
                    "dbdf: option layout must be 'auto' or 'entries', not '" + layoutText + "'");
        };
        return new ReadOptions(dialect, entries);
    }

    /** Options keys are case-insensitive in Spark; the map given may be case-sensitive. */
    private static String option(Map<String, String> options, String key, String fallback) {
        for (Map.Entry<String, String> entry : options.entrySet()) {
            if (entry.getKey().equalsIgnoreCase(key)) {
                return entry.getValue().toLowerCase(Locale.ROOT);
            }
        }
        return fallback;
    }

    ReaderOptions readerOptions() {
        // One thread: Spark runs one task per core already; the reader decodes block by block on the task's thread.
        return ReaderOptions.defaults().withDialect(dialect).withThreads(1);
    }
}
