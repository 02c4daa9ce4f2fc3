package org.dbdf;

/**
 * A call into the dbdf library failed. Carries the {@link Status} and the library's message, which names what was
 * wrong and where (field, block, byte offset, and for format violations the rule that was broken).
 *
 * <p>Unchecked: use {@link #status()} to tell bad input ({@link Status#isInvalidData()}) from I/O failures
 * ({@link Status#isIoError()}) and from misuse of the API ({@link Status#isUsageError()}).
 */
public class DbdfException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Status status;
    private final int statusCode;
    private final String nativeMessage;

    public DbdfException(Status status, String nativeMessage) {
        this(status, status.code(), nativeMessage);
    }

    /** Called by the native code with the raw {@code dbdf_status_t} value. */
    DbdfException(int statusCode, String nativeMessage) {
        this(Status.fromCode(statusCode), statusCode, nativeMessage);
    }

    private DbdfException(Status status, int statusCode, String nativeMessage) {
        super(status.name().toLowerCase(java.util.Locale.ROOT) + ": " + nativeMessage);
        this.status = status;
        this.statusCode = statusCode;
        this.nativeMessage = nativeMessage;
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
}
