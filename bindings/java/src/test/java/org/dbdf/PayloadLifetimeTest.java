package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A payload buffer of a reader over memory points into the reader's input without a copy. It must stay readable
 * after the reader is closed and collected (reading freed memory would crash the JVM, failing the surefire fork),
 * and the native reader must be freed once no payload buffer is reachable any more. A file is read, never mapped:
 * its payload buffers are copies, and closing the reader frees it at once.
 */
class PayloadLifetimeTest {
    /** The stored values of the only block: 12 u8 values, 1..12. */
    private static final int VALUES = 12;
    private static final long GC_TIMEOUT_NANOS = 30_000_000_000L;
    private static final Path PROCESS_MAPPINGS = Path.of("/proc/self/maps");

    @TempDir
    Path temporary;

    /** Where the reader reads from. */
    enum Source {
        /** The file, read with positioned reads. */
        FILE,
        /** A direct buffer holding a copy of the file's bytes. */
        BYTES
    }

    /** What outlives the reader: its payload, the shared native reader to watch, and a weak reference to it. */
    private record ClosedReader(ByteBuffer payload, SharedNativeReader shared, WeakReference<Reader> reader) {
    }

    /** A 4 x 3 u8 matrix stored as one dense block, exactly as given. */
    private Path writeFile() {
        Path file = temporary.resolve("payload.dbdf");
        byte[] values = new byte[VALUES];
        for (int index = 0; index < VALUES; index++) {
            values[index] = (byte) (index + 1);
        }
        try (Writer writer = Writer.toFile(file)) {
            writer.beginMatrix(DataType.DENSE, ValueType.U8, 4, 3);
            writer.addDense(0, 0, 4, 3, ValueType.U8, values, 0, Encoding.AS_GIVEN);
            writer.finish();
        }
        return file;
    }

    private static Reader open(Path file, Source source) throws IOException {
        return source == Source.FILE ? Reader.open(file) : Reader.fromBytes(Files.readAllBytes(file));
    }

    /** Opens a reader, takes the payload of its block, and closes it; the Reader and Block are left behind here. */
    private static ClosedReader payloadOfClosedReader(Path file, Source source) throws IOException {
        Reader reader = open(file, source);
        assertTrue(reader.nextBlock());
        ByteBuffer payload = reader.block().payload();
        reader.close();
        return new ClosedReader(payload, reader.sharedNativeReader(), new WeakReference<>(reader));
    }

    /** Runs the garbage collector until {@code condition} holds; fails after GC_TIMEOUT_NANOS. */
    private static void collectGarbageUntil(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + GC_TIMEOUT_NANOS;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "garbage collection did not lead to: " + what);
            System.gc();
            Thread.sleep(10);
        }
    }

    /** True when the process maps {@code file} (Linux: /proc/self/maps lists every mapping with its path). */
    private static boolean isMapped(Path file) throws IOException {
        String path = file.toRealPath().toString();
        try (var lines = Files.lines(PROCESS_MAPPINGS)) {
            return lines.anyMatch(line -> line.endsWith(" " + path));
        }
    }

    private static void assertStoredValues(ByteBuffer payload, int first, int count) {
        assertEquals(count, payload.remaining());
        for (int index = 0; index < count; index++) {
            assertEquals(first + index + 1, payload.get(payload.position() + index), "payload byte " + index);
        }
    }

    @Test
    void aFilesPayloadIsACopyThatOutlivesTheReader() throws Exception {
        Path file = writeFile();
        ClosedReader closed = payloadOfClosedReader(file, Source.FILE);
        assertTrue(closed.shared().isFreed(), "a file's payload is a copy: closing frees the native reader");
        if (Files.isReadable(PROCESS_MAPPINGS)) {
            assertFalse(isMapped(file), "the file is read, not mapped");
        }
        assertStoredValues(closed.payload(), 0, VALUES);
    }

    @ParameterizedTest
    @EnumSource(value = Source.class, names = "BYTES")
    void payloadOutlivesTheClosedAndCollectedReader(Source source) throws Exception {
        Path file = writeFile();
        boolean canSeeMappings = false;  // memory readers map nothing
        ClosedReader closed = payloadOfClosedReader(file, source);
        SharedNativeReader shared = closed.shared();
        ByteBuffer payload = closed.payload();
        WeakReference<Reader> reader = closed.reader();
        closed = null;

        // Nothing references the Reader any more: once it is collected, only the payload keeps the input alive.
        collectGarbageUntil(() -> reader.get() == null, "the closed reader is collected");
        assertFalse(shared.isFreed(), "the payload buffer still holds the native reader");
        if (canSeeMappings) {
            assertTrue(isMapped(file), "the file stays mapped while its payload is reachable");
        }
        assertStoredValues(payload, 0, VALUES);

        // A view shares the payload's memory, and holds it as the payload itself does.
        ByteBuffer view = payload.slice(4, 8);
        payload = null;
        for (int round = 0; round < 3; round++) {
            System.gc();
            Thread.sleep(10);
        }
        assertFalse(shared.isFreed(), "the view still holds the native reader");
        assertStoredValues(view, 4, 8);

        view = null;
        collectGarbageUntil(shared::isFreed, "the native reader is freed after its last payload");
        if (canSeeMappings) {
            assertFalse(isMapped(file), "the file is unmapped once its last payload is collected");
        }
    }

    @Test
    void closeFreesAtOnceWhenNoPayloadIsReachable() throws Exception {
        Path file = writeFile();
        Reader reader = Reader.open(file);
        assertTrue(reader.nextBlock());
        assertEquals(BlockType.DENSE, reader.block().blockType());
        if (Files.isReadable(PROCESS_MAPPINGS)) {
            assertFalse(isMapped(file), "the file is read, not mapped");
        }
        reader.close();
        assertTrue(reader.sharedNativeReader().isFreed());
        if (Files.isReadable(PROCESS_MAPPINGS)) {
            assertFalse(isMapped(file));
        }
    }
}
