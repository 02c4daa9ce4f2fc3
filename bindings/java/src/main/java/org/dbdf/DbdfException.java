package org.dbdf;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A call into the dbdf library failed. Carries the {@link Status} and the library's message, which names what was
 * wrong and where (field, block, byte offset, and for format violations the rule that was broken). The rule and the
 * byte offset are also given as numbers, by {@link #rule()} and {@link #offset()}, so that no caller has to parse
 * them out of the text.
 *
 * <p>{@link #getMessage()} is the status's name as the library spells it, a colon and the library's message:
 * {@code "format: data type 9 is unknown (1 dense, 2 CSR, 3 frame) at byte 1 (spec layout)"}. The message is
 * never cut, however long (a long label or path it quotes stays whole).
 *
 * <p>Unchecked: use {@link #status()} to tell bad input ({@link Status#isInvalidData()}) from I/O failures
 * ({@link Status#isIoError()}) and from misuse of the API ({@link Status#isUsageError()}).
 */
public class DbdfException extends RuntimeException {
    private static final long serialVersionUID = 2L;

    private final Status status;
    private final int statusCode;
    private final String nativeMessage;
    /** 0 when the failure names no rule, as {@code dbdf_last_error_rule()} says. */
    private final int rule;
    /** -1 when the failure has no byte offset ({@code DBDF_NO_OFFSET}). */
    private final long offset;

    /** A failure with this status and message, naming no rule and no byte offset. */
    public DbdfException(Status status, String nativeMessage) {
        this(status, status.code(), nativeMessage, 0, -1);
    }

    /**
     * Called by the native code with the raw {@code dbdf_status_t} value, the message's UTF-8 bytes (decoded here,
     * malformed bytes replaced), the rule (0 for none) and the byte offset (-1 for none).
     */
    DbdfException(int statusCode, byte[] nativeMessage, int rule, long offset) {
        this(Status.fromCode(statusCode), statusCode, new String(nativeMessage, StandardCharsets.UTF_8), rule, offset);
    }

    private DbdfException(Status status, int statusCode, String nativeMessage, int rule, long offset) {
        super(status.name().toLowerCase(Locale.ROOT) + ": " + nativeMessage);
        this.status = status;
        this.statusCode = statusCode;
        this.nativeMessage = nativeMessage;
        this.rule = rule;
        this.offset = offset;
    }

    public Status status() {
        return status;
    }

    /** The numeric {@code dbdf_status_t} as the library returned it (also for {@link Status#UNKNOWN}). */
    public int statusCode() {
        return statusCode;
    }

    /** The library's message without the status prefix. */
    public String nativeMessage() {
        return nativeMessage;
    }

    /**
     * The number of the rule of the format rules (docs/format-rules.md: 1 partition, 2 bounds, ..., 16 labels) that the
     * data broke, the rule the message names as "(rule N)"; given for the statuses {@link Status#TRUNCATED},
     * {@link Status#FORMAT} and {@link Status#RANGE}. Empty when there is no such number: the input breaks the
     * spec's published layout itself (the message says "(spec layout)") or the daphne dialect's, or the failure
     * is of another kind (an argument, the call order, I/O, memory).
     */
    public OptionalInt rule() {
        return rule == 0 ? OptionalInt.empty() : OptionalInt.of(rule);
    }

    /**
     * The byte offset, counted from the start of the input, at which the library found the fault: the offending
     * field of a header, block header or payload, or where the input ended too early (the offset the message names
     * as "at byte N"). Empty when the failure has no place in the input (an argument, the call order, memory).
     */
    public OptionalLong offset() {
        return offset < 0 ? OptionalLong.empty() : OptionalLong.of(offset);
    }
}
