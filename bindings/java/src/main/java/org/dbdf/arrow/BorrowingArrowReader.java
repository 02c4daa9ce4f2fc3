package org.dbdf.arrow;

import java.io.IOException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.dbdf.DbdfException;
import org.dbdf.Status;

/**
 * The ArrowReader Arrow's C Data module imports from dbdf's stream, plus the hold on the native reader the stream
 * borrows (nothing for a reader over memory, whose stream has a native reader of its own): released only after the
 * stream, when this is closed. Failures of the stream become DbdfException with the library's message.
 */
final class BorrowingArrowReader extends ArrowReader {
    /**
     * How Arrow Java reports a failing get_next: "[errno 22] CDataJniException{errno=22, message=...}", the message
     * being the stream's last error, dbdf's own.
     */
    private static final Pattern ARROW_FAILURE =
            Pattern.compile("errno=(\\d+), message=(.*)}\\s*$", Pattern.DOTALL);
    private static final int EIO = 5;
    private static final int ENOMEM = 12;

    private final ArrowReader imported;
    private final AutoCloseable readerHold;

    BorrowingArrowReader(BufferAllocator allocator, ArrowReader imported, AutoCloseable readerHold) {
        super(allocator);
        this.imported = imported;
        this.readerHold = readerHold;
    }

    @Override
    public VectorSchemaRoot getVectorSchemaRoot() throws IOException {
        try {
            return imported.getVectorSchemaRoot();
        } catch (IOException failure) {
            throw asDbdfException(failure);
        }
    }

    @Override
    public Map<Long, Dictionary> getDictionaryVectors() throws IOException {
        return imported.getDictionaryVectors();
    }

    @Override
    public Dictionary lookup(long id) {
        return imported.lookup(id);
    }

    @Override
    public boolean loadNextBatch() throws IOException {
        try {
            return imported.loadNextBatch();
        } catch (IOException failure) {
            throw asDbdfException(failure);
        }
    }

    @Override
    public long bytesRead() {
        return imported.bytesRead();
    }

    @Override
    protected Schema readSchema() throws IOException {
        return getVectorSchemaRoot().getSchema();
    }

    /** Releases the stream (and the imported root), then the native reader it borrowed. */
    @Override
    protected void closeReadSource() throws IOException {
        try {
            imported.close();
        } finally {
            try {
                readerHold.close();
            } catch (Exception failure) {
                throw new IOException(failure);
            }
        }
    }

    /**
     * The library's message from Arrow's error, with the status the stream's errno stands for (EINVAL: the input
     * breaks the format) and the rule and byte offset the message names; Arrow's exception is kept as a suppressed
     * one.
     */
    private static DbdfException asDbdfException(IOException failure) {
        String message = String.valueOf(failure.getMessage());
        Status status = Status.FORMAT;
        Matcher parts = ARROW_FAILURE.matcher(message);
        if (parts.find()) {
            int errno = Integer.parseInt(parts.group(1));
            status = errno == EIO ? Status.IO : errno == ENOMEM ? Status.NOMEM : Status.FORMAT;
            message = parts.group(2);
        }
        DbdfException converted = DbdfException.fromLibraryMessage(status, message);
        converted.addSuppressed(failure);
        return converted;
    }
}
