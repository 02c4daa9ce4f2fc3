package org.dbdf.arrow;

import java.io.IOException;
import java.util.Objects;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.dbdf.Reader;
import org.dbdf.Writer;

/**
 * dbdf objects to and from Arrow Java through Arrow's C stream interface (Arrow's {@code arrow-c-data} module,
 * which must be on the class path; the rest of the dbdf jar does not need Arrow). The mapping of types and shapes
 * is docs/arrow.md's.
 *
 * <pre>{@code
 * try (BufferAllocator allocator = new RootAllocator();
 *      Reader reader = Reader.open(path);
 *      ArrowReader batches = DbdfArrow.toArrow(reader, allocator)) {
 *     VectorSchemaRoot root = batches.getVectorSchemaRoot();
 *     while (batches.loadNextBatch()) {
 *         // root holds the next row band
 *     }
 * }
 * }</pre>
 */
public final class DbdfArrow {
    private DbdfArrow() {}

    /** As {@link #toArrow(Reader, BufferAllocator, boolean)}, a dense matrix as one field per column. */
    public static ArrowReader toArrow(Reader reader, BufferAllocator allocator) {
        return toArrow(reader, allocator, false);
    }

    /**
     * The reader's object as an {@link ArrowReader}: a frame as one field per column (named by its label), a dense
     * matrix as fields {@code c0}, {@code c1}, ... or, with {@code denseAsList}, one fixed-size-list field
     * {@code values}, a CSR matrix as the fields {@code row}, {@code col}, {@code value} of its stored entries. Each
     * {@link ArrowReader#loadNextBatch()} decodes one row band (or a slice of at most 64 MiB of values of one)
     * into the reader's {@code VectorSchemaRoot}. The ArrowReader borrows {@code reader}: until the ArrowReader
     * is closed, every call on the reader but {@code close()} throws IllegalStateException, and its native part
     * stays alive even if the reader is closed first. A file that breaks the format fails {@code loadNextBatch()} with
     * {@link org.dbdf.DbdfException} carrying the library's message; an object of more than 2^24 columns fails
     * here ({@link org.dbdf.Status#UNSUPPORTED}), as does a frame, or a dense matrix without {@code denseAsList}, of
     * more than 2^16.
     */
    public static ArrowReader toArrow(Reader reader, BufferAllocator allocator, boolean denseAsList) {
        Objects.requireNonNull(reader, "reader");
        Objects.requireNonNull(allocator, "allocator");
        ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
        AutoCloseable hold = null;
        try {
            hold = reader.exportArrowStream(stream.memoryAddress(), denseAsList);
            // The import moves the stream out of `stream`, whose struct is then freed.
            ArrowReader imported = Data.importArrayStream(allocator, stream);
            return new BorrowingArrowReader(allocator, imported, hold);
        } catch (RuntimeException | Error failure) {
            closeAfter(hold, failure);
            throw failure;
        } finally {
            stream.close();
        }
    }

    /** As {@link #write(Writer, ArrowReader, long, BufferAllocator, boolean, boolean)}: a frame, booleans refused. */
    public static void write(Writer writer, ArrowReader source, long rows, BufferAllocator allocator) {
        write(writer, source, rows, allocator, false, false);
    }

    /**
     * Writes every batch of {@code source} with {@code writer} (not yet begun) and finishes nothing: call
     * {@link Writer#finish()} afterwards. A frame of {@code rows} rows (the number the source delivers; the header
     * holds it before the first block), one column per field labelled by its name; with {@code asMatrix}, a dense
     * matrix whose columns are the fields, all of one type. Arrow booleans become u8 0 / 1 with
     * {@code booleansAsU8}. One batch is held at a time. {@code source} is closed afterwards, on every path (the C
     * stream that carries it owns it). Throws {@link org.dbdf.DbdfException} naming the column for a type dbdf
     * has not (strings, nested, decimals, ...: {@link org.dbdf.Status#UNSUPPORTED}) and the column and row for a
     * null ({@link org.dbdf.Status#FORMAT}).
     */
    public static void write(Writer writer, ArrowReader source, long rows, BufferAllocator allocator,
            boolean asMatrix, boolean booleansAsU8) {
        Objects.requireNonNull(writer, "writer");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(allocator, "allocator");
        try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
            Data.exportArrayStream(allocator, source, stream);
            writer.importArrowStream(stream.memoryAddress(), rows, asMatrix, booleansAsU8);
        }
    }

    /** Closes {@code resource} after {@code failure}, keeping a failure of the close as suppressed. */
    static void closeAfter(AutoCloseable resource, Throwable failure) {
        if (resource == null) {
            return;
        }
        try {
            resource.close();
        } catch (Exception closeFailure) {
            failure.addSuppressed(closeFailure);
        }
    }
}
