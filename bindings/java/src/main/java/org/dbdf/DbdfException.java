package org.dbdf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * <p>Unchecked, and an {@link UncheckedIOException}, as the JDK reports failures to read a file and malformed data
 * in it (a {@code ZipException} or a {@code MalformedInputException} is an {@link IOException}): code that already
 * handles I/O failures handles dbdf's. {@link #getCause()} is the checked {@link IOException} a Java file API would
 * have thrown: a {@link NoSuchFileException} naming the path when the file to read does not exist or the folder
 * of a file to write does not exist, the
 * {@link IOException} a byte source or sink threw when one failed the call (see
 * {@link Reader#open(java.nio.channels.SeekableByteChannel)}, {@link Writer#toStream(java.io.OutputStream)}), a
 * plain {@link IOException} with the same message otherwise. Use {@link #status()} to tell bad input
 * ({@link Status#isInvalidData()}) from I/O failures ({@link Status#isIoError()}) and from misuse of the API
 * ({@link Status#isUsageError()}). Arguments the binding checks itself (a null, a short array) throw the usual
 * {@link NullPointerException} and {@link IllegalArgumentException} instead.
 */
public class DbdfException extends UncheckedIOException {
    private static final long serialVersionUID = 3L;

    private final Status status;
    private final int statusCode;
    private final String nativeMessage;
    /** 0 when the failure names no rule, as {@code dbdf_last_error_rule()} says. */
    private final int rule;
    /** -1 when the failure has no byte offset ({@code DBDF_NO_OFFSET}). */
    private final long offset;

    /**
     * How the library's message for bad input ends: " at byte N" when the fault has a place in the input, then
     * " (rule N)" or " (spec layout)" (core/src/error.cpp).
     */
    private static final Pattern VIOLATION_SUFFIX =
            Pattern.compile("(?: at byte (\\d{1,18}))? \\((?:rule (\\d{1,9})|spec layout)\\)$");

    /** A failure with this status and message, naming no rule and no byte offset. */
    public DbdfException(Status status, String nativeMessage) {
        this(status, status.code(), nativeMessage, 0, -1);
    }

    /**
     * A failure with this status and the library's message, as an API that passes on the text alone gives it (an
     * Arrow stream's {@code get_last_error()}, which {@link org.dbdf.arrow.DbdfArrow}'s readers turn into this
     * exception). For bad input ({@link Status#isInvalidData()}), {@link #rule()} and {@link #offset()} are read
     * back from the end of the message, where the library always puts them: "at byte N" and "(rule N)", or
     * "(spec layout)" for no rule. Otherwise, or when the message does not end that way, both are empty.
     */
    public static DbdfException fromLibraryMessage(Status status, String nativeMessage) {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(nativeMessage, "nativeMessage");
        int rule = 0;
        long offset = -1;
        Matcher suffix = VIOLATION_SUFFIX.matcher(nativeMessage);
        if (status.isInvalidData() && suffix.find()) {
            offset = suffix.group(1) == null ? -1 : Long.parseLong(suffix.group(1));
            rule = suffix.group(2) == null ? 0 : Integer.parseInt(suffix.group(2));
        }
        return new DbdfException(status, status.code(), nativeMessage, rule, offset);
    }

    /** A failure with this status and message, naming no rule and no byte offset, caused by {@code cause}. */
    DbdfException(Status status, String nativeMessage, IOException cause) {
        this(status, status.code(), nativeMessage, 0, -1, Objects.requireNonNull(cause, "cause"));
    }

    /**
     * Called by the native code with the raw {@code dbdf_status_t} value, the message's UTF-8 bytes (decoded here,
     * malformed bytes replaced), the rule (0 for none) and the byte offset (-1 for none).
     */
    DbdfException(int statusCode, byte[] nativeMessage, int rule, long offset) {
        this(Status.fromCode(statusCode), statusCode, new String(nativeMessage, StandardCharsets.UTF_8), rule, offset);
    }

    private DbdfException(Status status, int statusCode, String nativeMessage, int rule, long offset) {
        this(status, statusCode, nativeMessage, rule, offset, new IOException(describe(status, nativeMessage)));
    }

    private DbdfException(Status status, int statusCode, String nativeMessage, int rule, long offset,
            IOException cause) {
        super(describe(status, nativeMessage), cause);
        this.status = status;
        this.statusCode = statusCode;
        this.nativeMessage = nativeMessage;
        this.rule = rule;
        this.offset = offset;
    }

    private static String describe(Status status, String nativeMessage) {
        return status.name().toLowerCase(Locale.ROOT) + ": " + nativeMessage;
    }

    /**
     * This failure to open {@code path} for reading, with a {@link NoSuchFileException} as its cause when it is an
     * I/O failure and nothing exists at {@code path}; otherwise this failure itself. The C library reports every
     * failure to open as {@link Status#IO}; whether the file is missing is asked of the file system afterwards.
     */
    DbdfException withMissingFileCause(String path) {
        if (status != Status.IO || !isMissing(path)) {
            return this;
        }
        return withCause(new NoSuchFileException(path, null, getMessage()));
    }

    /**
     * This failure to create the file at {@code path} for writing, with a {@link NoSuchFileException} naming
     * {@code path} as its cause (as {@code Files.newOutputStream} throws) when it is an I/O failure and the folder
     * that would hold the file does not exist; otherwise this failure itself. The writer creates its temporary file
     * in that folder, so a missing folder is the one way a path to write can be missing.
     */
    DbdfException withMissingFolderCause(String path) {
        if (status != Status.IO || !isMissing(folderOf(path))) {
            return this;
        }
        return withCause(new NoSuchFileException(path, null, getMessage()));
    }

    /** This failure with {@code cause} as its cause instead, thrown from where this one was made. */
    private DbdfException withCause(IOException cause) {
        DbdfException copy = new DbdfException(status, statusCode, nativeMessage, rule, offset, cause);
        copy.setStackTrace(getStackTrace());
        return copy;
    }

    /**
     * What a call raises whose byte source or sink callback threw {@code thrown}, given the library's
     * {@code failure} of that call (called by the native code, bindings/swig/java/dbdf_java.i):
     * <ul>
     * <li>an {@link IOException}: {@code failure} with {@code thrown} itself as its cause;
     * <li>a {@link RuntimeException} or an {@link Error}: {@code thrown} itself, unwrapped, as code calling a lambda
     * expects, with {@code failure} attached by {@link Throwable#addSuppressed addSuppressed};
     * <li>any other (checked, thrown sneakily): {@code failure} with an {@link IOException} wrapping {@code thrown}
     * as its cause.
     * </ul>
     */
    static Throwable withCallbackFailure(DbdfException failure, Throwable thrown) {
        if (thrown instanceof IOException cause) {
            return failure.withCause(cause);
        }
        if (thrown instanceof RuntimeException || thrown instanceof Error) {
            thrown.addSuppressed(failure);
            return thrown;
        }
        return failure.withCause(new IOException(thrown.toString(), thrown));
    }

    private static boolean isMissing(String path) {
        try {
            return Files.notExists(Path.of(path));
        } catch (InvalidPathException unusable) {
            return false;
        }
    }

    /** The folder that holds {@code path} (the working directory for a bare name); {@code path} if unusable. */
    private static String folderOf(String path) {
        try {
            Path folder = Path.of(path).toAbsolutePath().getParent();
            return folder == null ? path : folder.toString();
        } catch (InvalidPathException unusable) {
            return path;
        }
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
