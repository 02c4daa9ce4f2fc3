package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers over a SeekableByteChannel or a PositionedSource and writers to an OutputStream or a WritableByteChannel:
 * round trips, every golden vector read through a source that answers with short reads and through one that fails
 * at each offset, and exceptions of sources and sinks recovered: an IOException as the cause of the DbdfException,
 * a RuntimeException or an Error rethrown itself with the DbdfException suppressed.
 */
class SourcesAndSinksTest {
    private static final Path VECTORS = Path.of(System.getProperty("dbdf.vectors.dir", "../../tests/vectors"));

    /** A 7 x 5 matrix of distinct doubles, row-major. */
    private static double[] matrixValues() {
        double[] values = new double[35];
        for (int index = 0; index < values.length; index++) {
            values[index] = index * 1.5 - 7;
        }
        return values;
    }

    private static void writeMatrix(Writer writer, double[] values) {
        writer.beginMatrix(DataType.DENSE, ValueType.F64, 7, 5);
        writer.writeDense(ValueType.F64, values, 0, Encoding.AUTO, 3, 2);
        writer.finish();
    }

    /** A 300 x 100 matrix of doubles: more than one read-ahead window, so payloads are fetched as they are decoded. */
    private static double[] largeMatrixValues() {
        double[] values = new double[300 * 100];
        Arrays.setAll(values, index -> index + 0.5);
        return values;
    }

    private static byte[] largeMatrixInMemory(double[] values) {
        try (Writer writer = Writer.toMemory()) {
            writer.beginMatrix(DataType.DENSE, ValueType.F64, 300, 100);
            writer.writeDense(ValueType.F64, values, 0, Encoding.DENSE, 50, 50);
            writer.finish();
            return writer.toByteArray();
        }
    }

    private static byte[] matrixInMemory(double[] values) {
        try (Writer writer = Writer.toMemory()) {
            writeMatrix(writer, values);
            return writer.toByteArray();
        }
    }

    /** A PositionedSource over bytes that answers at most {@code maxRead} bytes per call, and counts its calls. */
    private static final class ShortReads implements PositionedSource {
        private final byte[] bytes;
        private final int maxRead;
        int calls;

        ShortReads(byte[] bytes, int maxRead) {
            this.bytes = bytes;
            this.maxRead = maxRead;
        }

        @Override
        public int read(long position, byte[] buffer, int offset, int length) {
            calls++;
            assertTrue(length > 0, "the reader asks for at least one byte");
            if (position >= bytes.length) {
                return -1;
            }
            int count = (int) Math.min(Math.min(length, maxRead), bytes.length - position);
            System.arraycopy(bytes, (int) position, buffer, offset, count);
            return count;
        }
    }

    /** Serves bytes before {@code failAt} and throws {@code failure} for any read that reaches byte failAt. */
    private static PositionedSource failingAt(byte[] bytes, long failAt, IOException failure) {
        return (position, buffer, offset, length) -> {
            if (position + length > failAt) {
                throw failure;
            }
            System.arraycopy(bytes, (int) position, buffer, offset, length);
            return length;
        };
    }

    /** Throws {@code thrown}, checked or not, from code that declares no checked exception of its class. */
    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneakyThrow(Throwable thrown) throws T {
        throw (T) thrown;
    }

    /**
     * A SeekableByteChannel over bytes (read-only) whose size() throws {@code sizeFailure} and whose reads throw
     * {@code readFailure} once {@code failing} is set, when these are not null.
     */
    private static final class BytesChannel implements SeekableByteChannel {
        private final byte[] bytes;
        private long position;
        IOException sizeFailure;
        Throwable readFailure;
        boolean failing;

        BytesChannel(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public int read(ByteBuffer destination) {
            if (failing && readFailure != null) {
                sneakyThrow(readFailure);
            }
            if (position >= bytes.length) {
                return -1;
            }
            int count = (int) Math.min(destination.remaining(), bytes.length - position);
            destination.put(bytes, (int) position, count);
            position += count;
            return count;
        }

        @Override
        public int write(ByteBuffer source) throws IOException {
            throw new IOException("read-only");
        }

        @Override
        public long position() {
            return position;
        }

        @Override
        public SeekableByteChannel position(long newPosition) {
            position = newPosition;
            return this;
        }

        @Override
        public long size() throws IOException {
            if (sizeFailure != null) {
                throw sizeFailure;
            }
            return bytes.length;
        }

        @Override
        public SeekableByteChannel truncate(long size) throws IOException {
            throw new IOException("read-only");
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    /** An OutputStream that accepts {@code limit} bytes, then throws {@code failure} (checked or not). */
    private static OutputStream failingAfter(int limit, Throwable failure) {
        return new OutputStream() {
            private int written;

            @Override
            public void write(int value) throws IOException {
                write(new byte[] {(byte) value}, 0, 1);
            }

            @Override
            public void write(byte[] buffer, int offset, int length) throws IOException {
                if (written + length > limit) {
                    sneakyThrow(failure);
                }
                written += length;
            }
        };
    }

    /**
     * Checks that {@code thrown} carries the call's DbdfException as its only suppressed exception, with
     * {@code status} and a message naming what the callback threw.
     */
    private static DbdfException assertSuppressedFailure(Throwable thrown, Status status) {
        Throwable[] suppressed = thrown.getSuppressed();
        assertEquals(1, suppressed.length, () -> Arrays.toString(suppressed));
        DbdfException failure = assertInstanceOf(DbdfException.class, suppressed[0]);
        assertEquals(status, failure.status(), failure.getMessage());
        assertTrue(failure.getMessage().contains(thrown.toString()), failure.getMessage());
        assertEquals(IOException.class, failure.getCause().getClass(), "the failure's own cause, no other");
        return failure;
    }

    @Test
    void outputStreamAndPositionedSourceRoundTrip() {
        double[] values = matrixValues();
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        try (Writer writer = Writer.toStream(stream)) {
            writeMatrix(writer, values);
        }
        byte[] written = stream.toByteArray();
        assertArrayEquals(matrixInMemory(values), written, "the stream receives exactly the memory writer's bytes");

        ShortReads source = new ShortReads(written, Integer.MAX_VALUE);
        try (Reader reader = Reader.open(source, written.length)) {
            assertEquals(new ObjectInfo(DataType.DENSE, ValueType.F64, 7, 5, reader.info().headerBytes(),
                    written.length), reader.info());
            double[] read = new double[35];
            reader.readDense(read);
            assertArrayEquals(values, read);
            // A direct buffer and a window: both decode payloads fetched through the source.
            ByteBuffer direct = ByteBuffer.allocateDirect(35 * 8).order(ByteOrder.nativeOrder());
            reader.readDense(ValueType.F64, direct, 0);
            assertEquals(values[34], direct.getDouble(34 * 8));
            double[] window = new double[4];
            reader.readWindow(ValueType.F64, 5, 3, 2, 2, window, 0);
            assertArrayEquals(new double[] {values[28], values[29], values[33], values[34]}, window);
            reader.validate();
        }
        assertTrue(source.calls > 0, "the reader read through the source");
    }

    @Test
    void writableAndSeekableByteChannelsRoundTrip(@TempDir Path directory) throws IOException {
        double[] values = matrixValues();
        Path file = directory.resolve("m.dbdf");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                Writer writer = Writer.toChannel(channel)) {
            writer.beginMatrix(DataType.CSR, ValueType.F64, 7, 5);
            writer.writeDense(ValueType.F64, values, 0, Encoding.CSR, 4, 5);
            writer.finish();
        }
        try (SeekableByteChannel channel = Files.newByteChannel(file); Reader reader = Reader.open(channel)) {
            assertEquals(DataType.CSR, reader.info().dataType());
            assertEquals(Files.size(file), reader.info().totalBytes());
            long[] rowOffsets = new long[8];
            long[] colIndices = new long[35];
            double[] read = new double[35];
            // Every value but the -7 + 1.5 * k = 0 one (k is not an integer there: all 35 are non-zero).
            assertEquals(35, reader.readCsr(ValueType.F64, rowOffsets, colIndices, read));
            assertArrayEquals(values, read);
            assertEquals(35, rowOffsets[7]);
            assertEquals(4, colIndices[34]);
        }
        try (Reader fromFile = Reader.open(file)) {
            assertArrayEquals(values, fromFile.readDoubles(), "a file written through a channel reads as a file");
        }
    }

    /** What a reader reports about its object, in a form two readers of the same bytes must agree on. */
    private static List<String> describe(Reader reader) {
        List<String> lines = new ArrayList<>();
        ObjectInfo info = reader.info();
        lines.add(info.toString());
        if (info.dataType() == DataType.FRAME) {
            for (long column = 0; column < info.cols(); column++) {
                lines.add(reader.columnType(column) + " " + reader.columnLabel(column));
            }
        }
        for (Block block : reader.blocks()) {
            ByteBuffer payload = block.payload();
            byte[] bytes = new byte[payload.remaining()];
            payload.get(bytes);
            lines.add(block.info() + " " + HexFormat.of().formatHex(bytes));
        }
        if (info.dataType() != DataType.FRAME) {
            try {
                lines.add(Arrays.toString(reader.readDoubles()));
            } catch (DbdfException error) {
                lines.add("readDoubles: " + error.status()); // values a double cannot hold exactly
            }
        }
        lines.add("blocks " + reader.buildIndex());
        lines.add(reader.violations().toString());
        return lines;
    }

    private static List<Path> validVectors() throws IOException {
        try (Stream<Path> files = Files.list(VECTORS)) {
            List<Path> vectors = files.filter(file -> file.toString().endsWith(".dbdf")).sorted().toList();
            assertTrue(vectors.size() >= 30, "golden vectors found in " + VECTORS.toAbsolutePath());
            return vectors;
        }
    }

    @TestFactory
    Stream<DynamicTest> goldenVectorsReadThroughShortReads() throws IOException {
        return validVectors().stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
            byte[] bytes = Files.readAllBytes(file);
            List<String> expected;
            try (Reader reader = Reader.fromBytes(bytes)) {
                expected = describe(reader);
            }
            for (int maxRead : new int[] {1, 3, 64}) {
                try (Reader reader = Reader.open(new ShortReads(bytes, maxRead), bytes.length)) {
                    assertEquals(expected, describe(reader), "reads of at most " + maxRead + " bytes");
                }
            }
            try (Reader reader = Reader.open(new ShortReads(bytes, 5), -1)) {
                assertEquals(expected, describe(reader), "a source of unknown size");
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> goldenVectorsFailingAtEveryOffset() throws IOException {
        return validVectors().stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
            byte[] bytes = Files.readAllBytes(file);
            for (int failAt = 0; failAt < bytes.length; failAt++) {
                IOException failure = new IOException("injected at byte " + failAt);
                PositionedSource source = failingAt(bytes, failAt, failure);
                DbdfException error = assertThrows(DbdfException.class, () -> {
                    try (Reader reader = Reader.open(source, bytes.length)) {
                        describe(reader);
                    }
                }, "reading must fail when byte " + failAt + " cannot be read");
                assertEquals(Status.IO, error.status(), error.getMessage());
                assertSame(failure, error.getCause(), "the source's own exception is the cause");
                assertTrue(error.getMessage().contains("injected at byte " + failAt), error.getMessage());
            }
        }));
    }

    @Test
    void sourceIoExceptionsAreTheCause() {
        byte[] bytes = matrixInMemory(matrixValues());
        IOException reset = new IOException("connection reset");
        DbdfException error = assertThrows(DbdfException.class, () -> Reader.open((position, buffer, offset,
                length) -> {
            throw reset;
        }, bytes.length));
        assertEquals(Status.IO, error.status(), error.getMessage());
        assertSame(reset, error.getCause(), "the source's own exception is the cause");
        assertTrue(error.getMessage().contains(reset.toString()), error.getMessage());
        assertEquals(0, error.getSuppressed().length);

        // A source that breaks after the reader opened (payloads beyond the first read-ahead window are fetched
        // later): the later call fails with the cause, and the reader still closes cleanly.
        byte[] largeBytes = largeMatrixInMemory(largeMatrixValues());
        IOException late = new IOException("late failure");
        boolean[] broken = {false};
        PositionedSource breaking = (position, buffer, offset, length) -> {
            if (broken[0]) {
                throw late;
            }
            System.arraycopy(largeBytes, (int) position, buffer, offset, length);
            return length;
        };
        try (Reader reader = Reader.open(breaking, largeBytes.length)) {
            broken[0] = true;
            DbdfException readError = assertThrows(DbdfException.class, reader::readDoubles);
            assertEquals(Status.IO, readError.status());
            assertSame(late, readError.getCause());
        }
    }

    @Test
    void channelIoExceptionsAreTheCause() {
        byte[] bytes = largeMatrixInMemory(largeMatrixValues());
        BytesChannel unsized = new BytesChannel(bytes);
        unsized.sizeFailure = new IOException("size unknown");
        DbdfException sizeError = assertThrows(DbdfException.class, () -> Reader.open(unsized));
        assertEquals(Status.IO, sizeError.status(), sizeError.getMessage());
        assertSame(unsized.sizeFailure, sizeError.getCause());
        assertTrue(sizeError.getMessage().contains("size unknown"), sizeError.getMessage());

        BytesChannel failingAtOpen = new BytesChannel(bytes);
        failingAtOpen.readFailure = new IOException("channel closed by peer");
        failingAtOpen.failing = true;
        DbdfException openError = assertThrows(DbdfException.class, () -> Reader.open(failingAtOpen));
        assertEquals(Status.IO, openError.status(), openError.getMessage());
        assertSame(failingAtOpen.readFailure, openError.getCause());

        BytesChannel failingLater = new BytesChannel(bytes);
        failingLater.readFailure = new IOException("channel closed later");
        try (Reader reader = Reader.open(failingLater)) {
            failingLater.failing = true;
            DbdfException readError = assertThrows(DbdfException.class, reader::readDoubles);
            assertEquals(Status.IO, readError.status(), readError.getMessage());
            assertSame(failingLater.readFailure, readError.getCause());
        }
    }

    @Test
    void sourceRuntimeExceptionsAreRethrownWithTheFailureSuppressed() {
        byte[] bytes = matrixInMemory(matrixValues());
        UncheckedIOException unchecked = new UncheckedIOException(new IOException("connection reset"));
        UncheckedIOException thrown = assertThrows(UncheckedIOException.class, () -> Reader.open((position, buffer,
                offset, length) -> {
            throw unchecked;
        }, bytes.length));
        assertSame(unchecked, thrown, "the source's own exception, not a DbdfException");
        assertFalse(thrown instanceof DbdfException);
        DbdfException failure = assertSuppressedFailure(thrown, Status.IO);
        assertTrue(failure.getMessage().contains("connection reset"), failure.getMessage());

        // Also after the reader opened, through a channel; the reader still closes cleanly.
        BytesChannel channel = new BytesChannel(largeMatrixInMemory(largeMatrixValues()));
        IllegalStateException refused = new IllegalStateException("channel refused");
        channel.readFailure = refused;
        try (Reader reader = Reader.open(channel)) {
            channel.failing = true;
            IllegalStateException readError = assertThrows(IllegalStateException.class, reader::readDoubles);
            assertSame(refused, readError);
            assertSuppressedFailure(readError, Status.IO);
        }
    }

    @Test
    void sourceErrorsAreRethrownWithTheFailureSuppressed() {
        byte[] bytes = matrixInMemory(matrixValues());
        AssertionError assertion = new AssertionError("broken source");
        AssertionError thrown = assertThrows(AssertionError.class, () -> Reader.open((position, buffer, offset,
                length) -> {
            throw assertion;
        }, bytes.length));
        assertSame(assertion, thrown);
        assertSuppressedFailure(thrown, Status.IO);

        BytesChannel channel = new BytesChannel(bytes);
        StackOverflowError overflow = new StackOverflowError("deep channel");
        channel.readFailure = overflow;
        channel.failing = true;
        StackOverflowError channelError = assertThrows(StackOverflowError.class, () -> Reader.open(channel));
        assertSame(overflow, channelError);
        assertSuppressedFailure(channelError, Status.IO);
    }

    @Test
    void sneakilyThrownCheckedExceptionsAreWrappedInAnIoExceptionCause() {
        byte[] bytes = matrixInMemory(matrixValues());
        TimeoutException timeout = new TimeoutException("remote timed out");
        DbdfException error = assertThrows(DbdfException.class, () -> Reader.open((position, buffer, offset,
                length) -> {
            sneakyThrow(timeout);
            return 0;
        }, bytes.length));
        assertEquals(Status.IO, error.status(), error.getMessage());
        assertEquals(IOException.class, error.getCause().getClass());
        assertEquals(timeout.toString(), error.getCause().getMessage());
        assertSame(timeout, error.getCause().getCause());
        assertTrue(error.getMessage().contains("remote timed out"), error.getMessage());
        assertEquals(0, error.getSuppressed().length);

        TimeoutException sinkTimeout = new TimeoutException("sink timed out");
        try (Writer writer = Writer.toStream(failingAfter(40, sinkTimeout))) {
            DbdfException sinkError = assertThrows(DbdfException.class, () -> writeMatrix(writer, matrixValues()));
            assertEquals(Status.SINK, sinkError.status(), sinkError.getMessage());
            assertEquals(IOException.class, sinkError.getCause().getClass());
            assertSame(sinkTimeout, sinkError.getCause().getCause());
        }
    }

    @Test
    void sinkIoExceptionsAreTheCause(@TempDir Path directory) throws IOException {
        IOException full = new IOException("disk full");
        try (Writer writer = Writer.toStream(failingAfter(40, full))) {
            DbdfException error = assertThrows(DbdfException.class, () -> writeMatrix(writer, matrixValues()));
            assertEquals(Status.SINK, error.status(), error.getMessage());
            assertSame(full, error.getCause());
            assertTrue(error.getMessage().contains("disk full"), error.getMessage());
            assertEquals(0, error.getSuppressed().length);
        }

        // A channel closed under the writer: the channel's ClosedChannelException is the cause.
        try (FileChannel channel = FileChannel.open(directory.resolve("closed.dbdf"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); Writer writer = Writer.toChannel(channel)) {
            channel.close();
            DbdfException error = assertThrows(DbdfException.class, () -> writeMatrix(writer, matrixValues()));
            assertEquals(Status.SINK, error.status(), error.getMessage());
            assertInstanceOf(ClosedChannelException.class, error.getCause());
        }
    }

    @Test
    void sinkRuntimeExceptionsAndErrorsAreRethrownWithTheFailureSuppressed() {
        IllegalStateException refused = new IllegalStateException("sink closed");
        try (Writer writer = Writer.toStream(failingAfter(0, refused))) {
            IllegalStateException error = assertThrows(IllegalStateException.class,
                    () -> writeMatrix(writer, matrixValues()));
            assertSame(refused, error);
            DbdfException failure = assertSuppressedFailure(error, Status.SINK);
            assertTrue(failure.getMessage().contains("sink closed"), failure.getMessage());
        }

        OutOfMemoryError exhausted = new OutOfMemoryError("sink buffer");
        try (Writer writer = Writer.toStream(failingAfter(40, exhausted))) {
            OutOfMemoryError error = assertThrows(OutOfMemoryError.class, () -> writeMatrix(writer, matrixValues()));
            assertSame(exhausted, error);
            assertSuppressedFailure(error, Status.SINK);
        }
    }

    @Test
    void successfulCallsAfterAFailureCarryNoStaleCause() {
        byte[] bytes = matrixInMemory(matrixValues());
        IOException failure = new IOException("first reader fails");
        assertThrows(DbdfException.class, () -> Reader.open(failingAt(bytes, 0, failure), bytes.length));
        IllegalStateException refused = new IllegalStateException("second reader fails");
        assertThrows(IllegalStateException.class, () -> Reader.open((position, buffer, offset, length) -> {
            throw refused;
        }, bytes.length));
        // A failure of another kind afterwards on the same thread has its own plain cause and nothing suppressed.
        try (Reader reader = Reader.open(new ShortReads(bytes, 7), bytes.length)) {
            DbdfException error = assertThrows(DbdfException.class, () -> reader.seekBlock(1000));
            assertFalse(error.status() == Status.IO);
            assertEquals(IOException.class, error.getCause().getClass());
            assertEquals(error.getMessage(), error.getCause().getMessage());
            assertEquals(0, error.getSuppressed().length);
        }
        assertEquals(1, refused.getSuppressed().length, "the later failure is not attached to an earlier exception");
    }

    /** True once {@code reference}'s object was collected, asking the collector a few times. */
    private static boolean collected(WeakReference<?> reference) throws InterruptedException {
        for (int attempt = 0; attempt < 50 && reference.get() != null; attempt++) {
            System.gc();
            Thread.sleep(10);
        }
        return reference.get() == null;
    }

    private static WeakReference<PositionedSource> readAndClose(byte[] bytes, long failAt) {
        PositionedSource source = failingAt(bytes, failAt, new IOException("injected"));
        try (Reader reader = Reader.open(source, bytes.length)) {
            reader.readDoubles();
        } catch (DbdfException expected) {
            assertSame(IOException.class, expected.getCause().getClass());
        }
        return new WeakReference<>(source);
    }

    private static WeakReference<OutputStream> writeAndClose(boolean finish) {
        OutputStream stream = new ByteArrayOutputStream();
        try (Writer writer = Writer.toStream(stream)) {
            writer.beginMatrix(DataType.DENSE, ValueType.F64, 7, 5);
            if (finish) {
                writer.writeDense(ValueType.F64, matrixValues(), 0, Encoding.AUTO, 3, 2);
                writer.finish();
            }
        }
        return new WeakReference<>(stream);
    }

    @Test
    void sourcesAndSinksAreReleasedWithTheirReaderOrWriter() throws InterruptedException {
        // The native side holds a global reference to each source and sink: closing (or failing to open) must
        // delete it, or the object would stay reachable for ever.
        byte[] bytes = matrixInMemory(matrixValues());
        assertTrue(collected(readAndClose(bytes, bytes.length)), "a source read to the end and closed");
        assertTrue(collected(readAndClose(bytes, 0)), "a source whose reader failed to open");
        assertTrue(collected(readAndClose(bytes, bytes.length / 2)), "a source that failed after opening");
        assertTrue(collected(writeAndClose(true)), "a sink of a finished writer");
        assertTrue(collected(writeAndClose(false)), "a sink of an abandoned writer");
    }

    @Test
    void callbacksRunOnTheCallingThreadOnlyAlsoWithDecodingThreads() {
        double[] values = largeMatrixValues();
        byte[] bytes = largeMatrixInMemory(values);
        Thread caller = Thread.currentThread();
        List<String> otherThreads = new ArrayList<>();
        PositionedSource source = (position, buffer, offset, length) -> {
            if (Thread.currentThread() != caller) {
                otherThreads.add(Thread.currentThread().getName());
            }
            System.arraycopy(bytes, (int) position, buffer, offset, length);
            return length;
        };
        try (Reader reader = Reader.open(source, bytes.length, ReaderOptions.defaults().withThreads(4))) {
            assertArrayEquals(values, reader.readDoubles());
        }
        assertEquals(List.of(), otherThreads);
    }

    @Test
    void aLargerReadAheadWindowMeansFewerReads() {
        double[] values = largeMatrixValues();
        byte[] bytes = largeMatrixInMemory(values);
        ShortReads smallWindow = new ShortReads(bytes, Integer.MAX_VALUE);
        try (Reader reader = Reader.open(smallWindow, bytes.length, 4096, ReaderOptions.defaults())) {
            assertArrayEquals(values, reader.readDoubles());
        }
        ShortReads wholeWindow = new ShortReads(bytes, Integer.MAX_VALUE);
        try (Reader reader = Reader.open(wholeWindow, bytes.length, 1 << 20, ReaderOptions.defaults())) {
            assertArrayEquals(values, reader.readDoubles());
        }
        assertTrue(wholeWindow.calls < smallWindow.calls,
                wholeWindow.calls + " reads with a 1 MiB window, " + smallWindow.calls + " with 4 KiB");
        assertThrows(IllegalArgumentException.class,
                () -> Reader.open(wholeWindow, bytes.length, -1, ReaderOptions.defaults()));
        DbdfException tooLarge = assertThrows(DbdfException.class,
                () -> Reader.open(wholeWindow, bytes.length, 1L << 40, ReaderOptions.defaults()));
        assertEquals(Status.INVALID_ARGUMENT, tooLarge.status(), tooLarge.getMessage());
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(NullPointerException.class, () -> Reader.open((PositionedSource) null, 10));
        assertThrows(NullPointerException.class, () -> Reader.open((SeekableByteChannel) null));
        assertThrows(NullPointerException.class, () -> Writer.toStream(null));
        assertThrows(IllegalArgumentException.class, () -> Reader.open(new ShortReads(new byte[0], 1), -2));
        DbdfException empty = assertThrows(DbdfException.class, () -> Reader.open(new ShortReads(new byte[0], 1), 0));
        assertFalse(empty.getMessage().isEmpty());
    }
}
