package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ReaderOptions and WriterOptions: the thread counts change how the work is spread, never the bytes written or the
 * values read; a durable file write gives the same file as a default one and leaves nothing else behind.
 */
class OptionsTest {
    /** 16 MiB of f64: as large as the automatic thread choice needs to decode on several threads. */
    private static final int ROWS = 2048;
    private static final int COLS = 1024;
    private static final int TILE = 128;

    private static double[] matrix;
    /** The matrix written to memory on the calling thread only: what every other way of writing must match. */
    private static byte[] oneThreadBytes;

    /**
     * Tiles of four kinds in turn, so that the automatic encoding picks several block types and value types: all
     * zero (empty), a diagonal (sparse), small integers (narrowed to i8), and fractions (dense f64).
     */
    private static double[] tiledMatrix() {
        double[] values = new double[ROWS * COLS];
        int tilesPerRow = COLS / TILE;
        for (int row = 0; row < ROWS; row++) {
            for (int col = 0; col < COLS; col++) {
                int tile = (row / TILE) * tilesPerRow + col / TILE;
                values[row * COLS + col] = switch (tile % 4) {
                    case 0 -> 0.0;
                    case 1 -> row % TILE == col % TILE ? row + 0.25 : 0.0;
                    case 2 -> (row * 7 + col * 3) % 100 - 50;
                    default -> row * 0.001 + col / 3.0;
                };
            }
        }
        return values;
    }

    private static byte[] writeToMemory(WriterOptions options) {
        try (Writer writer = Writer.toMemory(options)) {
            assertEquals(options, writer.options());
            writer.beginMatrix(DataType.DENSE, ValueType.F64, ROWS, COLS);
            writer.writeDense(ValueType.F64, matrix, 0, Encoding.AUTO, TILE, TILE);
            writer.finish();
            return writer.toByteArray();
        }
    }

    private static void writeToFile(Path file, WriterOptions options) {
        try (Writer writer = Writer.toFile(file, options)) {
            assertEquals(options, writer.options());
            writer.beginMatrix(DataType.DENSE, ValueType.F64, ROWS, COLS);
            writer.writeDense(ValueType.F64, matrix, 0, Encoding.AUTO, TILE, TILE);
            writer.finish();
        }
    }

    private static List<String> namesIn(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }

    @BeforeAll
    static void writeTheMatrixOnOneThread() {
        matrix = tiledMatrix();
        oneThreadBytes = writeToMemory(WriterOptions.defaults().withThreads(1));
    }

    @Test
    void defaultsAreTheCInterfacesAndWithersLeaveTheOriginalAlone() {
        ReaderOptions reader = ReaderOptions.defaults();
        assertEquals(Dialect.SPEC, reader.dialect());
        assertEquals(0, reader.threads());
        ReaderOptions changed = reader.withThreads(3).withDialect(Dialect.DAPHNE);
        assertEquals(3, changed.threads());
        assertEquals(Dialect.DAPHNE, changed.dialect());
        assertEquals(0, ReaderOptions.defaults().threads());
        ReaderOptions same = ReaderOptions.defaults().withDialect(Dialect.DAPHNE).withThreads(3);
        assertEquals(changed, same);
        assertEquals(changed.hashCode(), same.hashCode());
        assertNotEquals(changed, changed.withThreads(2));
        assertEquals("ReaderOptions[dialect=DAPHNE, threads=3]", changed.toString());

        WriterOptions writer = WriterOptions.defaults();
        assertEquals(Dialect.SPEC, writer.dialect());
        assertTrue(writer.writeMeta());
        assertFalse(writer.durable());
        assertEquals(0, writer.threads());
        WriterOptions durable = writer.withDurable(true).withThreads(2).withWriteMeta(false);
        assertTrue(durable.durable());
        assertEquals(2, durable.threads());
        assertFalse(durable.writeMeta());
        assertFalse(WriterOptions.defaults().durable());
        assertEquals(durable, WriterOptions.defaults().withWriteMeta(false).withThreads(2).withDurable(true));
        assertNotEquals(durable, durable.withDurable(false));
        assertEquals("WriterOptions[dialect=SPEC, writeMeta=false, durable=true, threads=2]", durable.toString());
    }

    @Test
    void negativeThreadCountsAreRefused() {
        for (int threads : new int[] {-1, -2, Integer.MIN_VALUE}) {
            IllegalArgumentException reading = assertThrows(IllegalArgumentException.class,
                    () -> ReaderOptions.defaults().withThreads(threads));
            assertEquals("threads must be 0 (automatic), 1 (the calling thread only) or more, not " + threads,
                    reading.getMessage());
            IllegalArgumentException writing = assertThrows(IllegalArgumentException.class,
                    () -> WriterOptions.defaults().withThreads(threads));
            assertEquals(reading.getMessage(), writing.getMessage());
        }
        assertEquals(Integer.MAX_VALUE, ReaderOptions.defaults().withThreads(Integer.MAX_VALUE).threads());
        assertThrows(NullPointerException.class, () -> ReaderOptions.defaults().withDialect(null));
        assertThrows(NullPointerException.class, () -> WriterOptions.defaults().withDialect(null));
        assertThrows(NullPointerException.class, () -> Reader.fromBytes(oneThreadBytes, (ReaderOptions) null));
        assertThrows(NullPointerException.class, () -> Writer.toMemory((WriterOptions) null));
    }

    @Test
    void writeDenseWritesTheSameBytesOnAnyThreadCount(@TempDir Path directory) throws IOException {
        // The tiles really took different encodings, so the helper thread had choices to make.
        Set<BlockType> blockTypes = EnumSet.noneOf(BlockType.class);
        Set<ValueType> valueTypes = EnumSet.noneOf(ValueType.class);
        try (Reader reader = Reader.fromBytes(oneThreadBytes)) {
            for (Block block : reader.blocks()) {
                blockTypes.add(block.info().blockType());
                valueTypes.add(block.info().valueType());
            }
        }
        assertTrue(blockTypes.containsAll(Set.of(BlockType.EMPTY, BlockType.DENSE)) && blockTypes.size() >= 3,
                blockTypes.toString());
        assertTrue(valueTypes.containsAll(Set.of(ValueType.I8, ValueType.F64)), valueTypes.toString());

        for (int threads : new int[] {2, 0, 5}) {
            assertArrayEquals(oneThreadBytes, writeToMemory(WriterOptions.defaults().withThreads(threads)),
                    "threads " + threads);
        }
        Path file = directory.resolve("m.dbdf");
        writeToFile(file, WriterOptions.defaults().withThreads(2));
        assertArrayEquals(oneThreadBytes, Files.readAllBytes(file));
    }

    @Test
    void wholeObjectReadsGiveTheSameValuesOnAnyThreadCount(@TempDir Path directory) throws IOException {
        Path file = directory.resolve("m.dbdf");
        Files.write(file, oneThreadBytes);
        // A window that cuts through tiles on every side.
        int windowRow = 100;
        int windowCol = 200;
        int windowRows = 1500;
        int windowCols = 700;
        double[] expectedWindow = new double[windowRows * windowCols];
        for (int row = 0; row < windowRows; row++) {
            System.arraycopy(matrix, (windowRow + row) * COLS + windowCol, expectedWindow, row * windowCols,
                    windowCols);
        }
        for (int threads : new int[] {1, 2, 0, 7}) {
            ReaderOptions options = ReaderOptions.defaults().withThreads(threads);
            try (Reader reader = Reader.open(file, options)) {
                assertSame(options, reader.options());
                assertEquals(Dialect.SPEC, reader.dialect());
                assertArrayEquals(matrix, reader.readDoubles(), "threads " + threads);
                double[] window = new double[windowRows * windowCols];
                reader.readWindow(ValueType.F64, windowRow, windowCol, windowRows, windowCols, window, 0);
                assertArrayEquals(expectedWindow, window, "window, threads " + threads);
            }
            ByteBuffer direct = ByteBuffer.allocateDirect(oneThreadBytes.length);
            direct.put(oneThreadBytes).flip();
            try (Reader reader = Reader.fromBuffer(direct, options)) {
                assertEquals(threads, reader.options().threads());
                assertArrayEquals(matrix, reader.readDoubles(), "buffer, threads " + threads);
            }
        }
    }

    @Test
    void readColumnGivesTheSameValuesOnAnyThreadCount() {
        int rows = 100_000;
        long[] ids = new long[rows];
        double[] weights = new double[rows];
        for (int row = 0; row < rows; row++) {
            ids[row] = row * 3L - 7;
            weights[row] = row % 5 == 0 ? 0.0 : row / 8.0;
        }
        byte[] frame;
        try (Writer writer = Writer.toMemory(WriterOptions.defaults().withThreads(2))) {
            writer.beginFrame(rows, new ValueType[] {ValueType.I64, ValueType.F64}, new String[] {"id", "weight"});
            writer.writeColumn(0, ValueType.I64, ids, Encoding.AUTO, 4096);
            writer.writeColumn(1, ValueType.F64, weights, Encoding.AUTO, 4096);
            writer.finish();
            frame = writer.toByteArray();
        }
        for (int threads : new int[] {1, 2, 0}) {
            try (Reader reader = Reader.fromBytes(frame, ReaderOptions.defaults().withThreads(threads))) {
                long[] readIds = new long[rows];
                reader.readColumn(0, ValueType.I64, readIds);
                assertArrayEquals(ids, readIds, "threads " + threads);
                double[] readWeights = new double[rows];
                reader.readColumn(1, ValueType.F64, readWeights);
                assertArrayEquals(weights, readWeights, "threads " + threads);
            }
        }
    }

    @Test
    void durableWriteGivesTheSameFileAndLeavesNothingBehind(@TempDir Path directory) throws IOException {
        Path plainDirectory = Files.createDirectory(directory.resolve("plain"));
        Path durableDirectory = Files.createDirectory(directory.resolve("durable"));
        writeToFile(plainDirectory.resolve("m.dbdf"), WriterOptions.defaults());
        writeToFile(durableDirectory.resolve("m.dbdf"), WriterOptions.defaults().withDurable(true));
        assertArrayEquals(oneThreadBytes, Files.readAllBytes(plainDirectory.resolve("m.dbdf")));
        assertArrayEquals(oneThreadBytes, Files.readAllBytes(durableDirectory.resolve("m.dbdf")));
        assertEquals(List.of("m.dbdf"), namesIn(plainDirectory));
        assertEquals(List.of("m.dbdf"), namesIn(durableDirectory));

        // Replacing an existing file, durably and not: the new contents, and still no temporary file.
        double[] small = {1.5, -2.0, 3.25, 0.0, 5.0, 6.5};
        for (boolean durable : new boolean[] {true, false}) {
            WriterOptions options = WriterOptions.defaults().withDurable(durable);
            try (Writer writer = Writer.toFile(durableDirectory.resolve("m.dbdf"), options)) {
                assertEquals(durable, writer.options().durable());
                writer.beginMatrix(DataType.DENSE, ValueType.F64, 2, 3);
                writer.writeDense(small);
                writer.finish();
            }
            try (Reader reader = Reader.open(durableDirectory.resolve("m.dbdf"))) {
                assertArrayEquals(small, reader.readDoubles());
            }
            assertEquals(List.of("m.dbdf"), namesIn(durableDirectory), "durable " + durable);
        }

        // The daphne dialect's .meta sidecar is written durably too, with the same contents.
        for (Path target : List.of(plainDirectory.resolve("d.dbdf"), durableDirectory.resolve("d.dbdf"))) {
            boolean durable = target.startsWith(durableDirectory);
            WriterOptions options = WriterOptions.defaults().withDialect(Dialect.DAPHNE).withDurable(durable);
            try (Writer writer = Writer.toFile(target, options)) {
                assertEquals(Dialect.DAPHNE, writer.dialect());
                writer.beginMatrix(DataType.DENSE, ValueType.F64, 2, 3);
                writer.writeDense(small);
                writer.finish();
            }
        }
        assertArrayEquals(Files.readAllBytes(plainDirectory.resolve("d.dbdf")),
                Files.readAllBytes(durableDirectory.resolve("d.dbdf")));
        assertEquals(Files.readString(plainDirectory.resolve("d.dbdf.meta")),
                Files.readString(durableDirectory.resolve("d.dbdf.meta")));
        assertEquals(List.of("d.dbdf", "d.dbdf.meta", "m.dbdf"), namesIn(durableDirectory));
    }

    @Test
    void readersAndWritersOpenedWithoutOptionsReportTheDefaults(@TempDir Path directory) throws IOException {
        Path file = directory.resolve("m.dbdf");
        Files.write(file, oneThreadBytes);
        try (Reader reader = Reader.open(file)) {
            assertEquals(ReaderOptions.defaults(), reader.options());
        }
        try (Reader reader = Reader.fromBytes(oneThreadBytes, Dialect.SPEC)) {
            assertEquals(ReaderOptions.defaults(), reader.options());
        }
        try (Writer writer = Writer.toMemory()) {
            assertEquals(WriterOptions.defaults(), writer.options());
        }
        try (Writer writer = Writer.toFile(directory.resolve("d.dbdf"), Dialect.DAPHNE, false)) {
            assertEquals(WriterOptions.defaults().withDialect(Dialect.DAPHNE).withWriteMeta(false), writer.options());
        }
        Reader closed = Reader.open(file);
        closed.close();
        assertThrows(IllegalStateException.class, closed::options);
        Writer closedWriter = Writer.toMemory();
        closedWriter.close();
        assertThrows(IllegalStateException.class, closedWriter::options);
        // The file writer closed without finish() left neither its target nor its temporary file.
        assertEquals(List.of("m.dbdf"), namesIn(directory));
    }
}
