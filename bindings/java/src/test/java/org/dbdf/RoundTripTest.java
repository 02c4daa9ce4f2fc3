package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.dbdf.TestData.Storage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Objects written through the binding and read back, for every value type and block type. */
class RoundTripTest {
    private static final int ROWS = 5;
    private static final int COLS = 7;
    /** Tiles of at most 3 x 4: (row, col, rows, cols). */
    private static final int[][] TILES = {{0, 0, 3, 4}, {0, 4, 3, 3}, {3, 0, 2, 4}, {3, 4, 2, 3}};

    @TempDir
    Path temporary;

    /** Adds one tile as the given block type, as given (no re-encoding), from values in {@code storage}. */
    private static void addTile(Writer writer, ValueType type, BlockType blockType, long[] tileBits, int[] tile,
            Storage storage) {
        int row = tile[0];
        int col = tile[1];
        int rows = tile[2];
        int cols = tile[3];
        switch (blockType) {
            case EMPTY -> writer.addEmpty(row, col, rows, cols);
            case DENSE -> TypedOverloads.call(writer, "addDense", row, col, rows, cols, type,
                    TestData.fromBits(type, tileBits, storage), 0, Encoding.AS_GIVEN);
            case CSR -> {
                long[] rowOffsets = new long[rows + 1];
                List<Integer> colIndices = new ArrayList<>();
                List<Long> values = new ArrayList<>();
                for (int i = 0; i < rows; i++) {
                    for (int j = 0; j < cols; j++) {
                        if (tileBits[i * cols + j] != 0) {
                            colIndices.add(j);
                            values.add(tileBits[i * cols + j]);
                        }
                    }
                    rowOffsets[i + 1] = colIndices.size();
                }
                TypedOverloads.call(writer, "addCsr", row, col, rows, cols, type, rowOffsets,
                        colIndices.stream().mapToInt(Integer::intValue).toArray(),
                        TestData.fromBits(type, values.stream().mapToLong(Long::longValue).toArray(), storage),
                        Encoding.AS_GIVEN);
            }
            case COO -> {
                List<int[]> positions = new ArrayList<>();
                List<Long> values = new ArrayList<>();
                for (int i = 0; i < rows; i++) {
                    for (int j = 0; j < cols; j++) {
                        if (tileBits[i * cols + j] != 0) {
                            positions.add(new int[] {i, j});
                            values.add(tileBits[i * cols + j]);
                        }
                    }
                }
                TypedOverloads.call(writer, "addCoo", row, col, rows, cols, type,
                        positions.stream().mapToInt(p -> p[0]).toArray(),
                        positions.stream().mapToInt(p -> p[1]).toArray(),
                        TestData.fromBits(type, values.stream().mapToLong(Long::longValue).toArray(), storage),
                        Encoding.AS_GIVEN);
            }
        }
    }

    private static void checkBlockByBlock(Reader reader, ValueType type, BlockType blockType, long[] matrixBits,
            Storage storage) {
        int seen = 0;
        for (Block block : reader.blocks()) {
            int[] tile = TILES[seen];
            assertEquals(seen, block.index());
            assertEquals(tile[0], block.row());
            assertEquals(tile[1], block.col());
            assertEquals(tile[2], block.rows());
            assertEquals(tile[3], block.cols());
            assertEquals(blockType, block.blockType());
            assertEquals(blockType == BlockType.EMPTY ? TestData.emptyBlockValueType(type) : type,
                    block.valueType());
            long[] expected = TestData.tile(matrixBits, COLS, tile[0], tile[1], tile[2], tile[3]);
            Object decoded = TestData.newValues(type, tile[2] * tile[3], storage);
            TypedOverloads.call(block, "decodeDense", type, decoded);
            assertArrayEquals(expected, TestData.toBits(type, decoded), "block " + seen + " of " + type);

            long nonZeros = Arrays.stream(expected).filter(bits -> bits != 0).count();
            long entries = block.countEntries();
            assertEquals(nonZeros, entries);
            long[] rowOffsets = new long[tile[2] + 1];
            int[] colIndices = new int[(int) entries];
            Object values = TestData.newValues(type, (int) entries, storage);
            assertEquals(entries, TypedOverloads.call(block, "decodeCsr", type, rowOffsets, colIndices, values));
            long[] valueBits = TestData.toBits(type, values);
            int entry = 0;
            for (int i = 0; i < tile[2]; i++) {
                assertEquals(entry, rowOffsets[i]);
                for (int j = 0; j < tile[3]; j++) {
                    if (expected[i * tile[3] + j] != 0) {
                        assertEquals(j, colIndices[entry]);
                        assertEquals(expected[i * tile[3] + j], valueBits[entry]);
                        entry++;
                    }
                }
            }
            assertEquals(entry, rowOffsets[tile[2]]);

            int[] cooRows = new int[(int) entries];
            int[] cooCols = new int[(int) entries];
            Object cooValues = TestData.newValues(type, (int) entries, storage);
            assertEquals(entries, TypedOverloads.call(block, "decodeCoo", type, cooRows, cooCols, cooValues));
            assertArrayEquals(valueBits, TestData.toBits(type, cooValues));
            for (int k = 0; k < entries; k++) {
                assertEquals(expected[cooRows[k] * tile[3] + cooCols[k]], valueBits[k]);
            }
            seen++;
        }
        assertEquals(TILES.length, seen);

        Object whole = TestData.newValues(type, ROWS * COLS, storage);
        TypedOverloads.call(reader, "readDense", type, whole, 0);
        assertArrayEquals(matrixBits, TestData.toBits(type, whole));
    }

    /** Every value type except NONE, with values in arrays and in direct buffers. */
    static Stream<Arguments> valueTypesAndStorages() {
        return Arrays.stream(ValueType.values()).filter(type -> type != ValueType.NONE)
                .flatMap(type -> Arrays.stream(Storage.values()).map(storage -> Arguments.of(type, storage)));
    }

    @ParameterizedTest
    @MethodSource("valueTypesAndStorages")
    void everyBlockTypeRoundTripsForEveryValueType(ValueType type, Storage storage) {
        for (BlockType blockType : BlockType.values()) {
            long[] matrixBits = blockType == BlockType.EMPTY ? new long[ROWS * COLS]
                    : TestData.sampleBits(type, ROWS, COLS);
            byte[] bytes;
            try (Writer writer = Writer.toMemory()) {
                writer.beginMatrix(DataType.DENSE, type, ROWS, COLS);
                for (int[] tile : TILES) {
                    addTile(writer, type, blockType, TestData.tile(matrixBits, COLS, tile[0], tile[1], tile[2],
                            tile[3]), tile, storage);
                }
                writer.finish();
                assertTrue(writer.bytesWritten() > 19);
                bytes = writer.toByteArray();
                assertEquals(writer.bytesWritten(), bytes.length);
            }
            try (Reader reader = Reader.fromBytes(bytes)) {
                ObjectInfo info = reader.info();
                assertEquals(new ObjectInfo(DataType.DENSE, type, ROWS, COLS, 19, bytes.length), info);
                reader.validate();
                checkBlockByBlock(reader, type, blockType, matrixBits, storage);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = ValueType.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void automaticEncodingRoundTripsExactly(ValueType type) {
        long[] matrixBits = TestData.sampleBits(type, ROWS, COLS);
        Path file = temporary.resolve("auto-" + type + ".dbdf");
        try (Writer writer = Writer.toFile(file)) {
            writer.beginMatrix(DataType.CSR, type, ROWS, COLS);
            TypedOverloads.call(writer, "writeDense", type, TestData.fromBits(type, matrixBits), 0, Encoding.AUTO, 3,
                    4);
            writer.finish();
        }
        try (Reader reader = Reader.open(file)) {
            assertEquals(DataType.CSR, reader.info().dataType());
            assertEquals(type, reader.info().valueType());
            assertEquals(4, reader.buildIndex());
            Object whole = TestData.newArray(type, ROWS * COLS);
            TypedOverloads.call(reader, "readDense", type, whole, 0);
            assertArrayEquals(matrixBits, TestData.toBits(type, whole));
        }
    }

    @Test
    void automaticEncodingNarrowsAndDropsZeros() {
        // Left tile (4 x 3): small non-negative integers; right tile (4 x 3): all zero; both stored as f64 input.
        double[] values = new double[4 * 6];
        for (int row = 0; row < 4; row++) {
            for (int col = 0; col < 3; col++) {
                values[row * 6 + col] = row * 3 + col + 1;
            }
        }
        byte[] bytes;
        try (Writer writer = Writer.toMemory()) {
            writer.beginMatrix(DataType.DENSE, ValueType.F64, 4, 6);
            writer.writeDense(ValueType.F64, values, 0, Encoding.AUTO, 4, 3);
            writer.finish();
            bytes = writer.toByteArray();
        }
        try (Reader reader = Reader.fromBytes(bytes)) {
            assertTrue(reader.nextBlock());
            Block left = reader.block();
            assertEquals(BlockType.DENSE, left.blockType());
            assertEquals(ValueType.U8, left.valueType(), "values 1..12 fit in u8 exactly");
            // Zero-copy view of the stored payload: 12 u8 values, row-major.
            ByteBuffer payload = left.payload();
            assertTrue(payload.isReadOnly());
            assertTrue(payload.isDirect());
            assertEquals(12, payload.remaining());
            for (int index = 0; index < 12; index++) {
                assertEquals(index + 1, payload.get(index));
            }
            assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, left.toDoubleArray());
            assertTrue(reader.nextBlock());
            assertEquals(BlockType.EMPTY, reader.block().blockType());
            assertEquals(0, reader.block().payload().remaining());
            assertArrayEquals(new double[12], reader.block().toDoubleArray());
            assertFalse(reader.nextBlock());
            assertArrayEquals(values, reader.readDoubles());
        }
    }

    @Test
    void singleColumnBlocksOfEveryKind() {
        for (BlockType blockType : BlockType.values()) {
            byte[] bytes;
            int[] cooRows = {1, 3};
            int[] cooCols = {0, 0};
            int[] values = {-7, 42};
            try (Writer writer = Writer.toMemory()) {
                writer.beginMatrix(DataType.DENSE, ValueType.I32, 4, 1);
                switch (blockType) {
                    case EMPTY -> writer.addEmpty(0, 0, 4, 1);
                    case DENSE -> writer.addDense(0, 0, 4, 1, ValueType.I32, new int[] {0, -7, 0, 42}, 0,
                            Encoding.AS_GIVEN);
                    case CSR -> writer.addCsr(0, 0, 4, 1, ValueType.I32, new long[] {0, 0, 1, 1, 2},
                            new int[] {0, 0}, values, Encoding.AS_GIVEN);
                    case COO -> writer.addCoo(0, 0, 4, 1, ValueType.I32, cooRows, cooCols, values,
                            Encoding.AS_GIVEN);
                }
                writer.finish();
                bytes = writer.toByteArray();
            }
            try (Reader reader = Reader.fromBytes(bytes)) {
                assertTrue(reader.nextBlock());
                assertEquals(blockType, reader.block().blockType());
                int[] decoded = new int[4];
                reader.block().decodeDense(decoded);
                int[] expected = blockType == BlockType.EMPTY ? new int[4] : new int[] {0, -7, 0, 42};
                assertArrayEquals(expected, decoded);
                assertFalse(reader.nextBlock());
            }
        }
    }

    @Test
    void frameColumnsKeepTheirTypesAndLabels() {
        Path file = temporary.resolve("frame.dbdf");
        int[] ids = {10, -20, 30, 0, 50};
        double[] scores = {0.5, Double.NaN, -0.0, 1e-310, 7};
        byte[] flags = {1, 0, (byte) 0xFF, 0, 1};
        String[] labels = {"id", "größe", "flag"};
        try (Writer writer = Writer.toFile(file)) {
            writer.beginFrame(5, new ValueType[] {ValueType.I32, ValueType.F64, ValueType.U8}, labels);
            writer.writeColumn(0, ids);
            writer.writeColumn(1, ValueType.F64, scores, Encoding.AUTO, 2);
            writer.writeColumn(2, ValueType.U8, flags, Encoding.AUTO, 0);
            writer.finish();
        }
        try (Reader reader = Reader.open(file)) {
            assertEquals(DataType.FRAME, reader.info().dataType());
            assertEquals(ValueType.NONE, reader.info().valueType());
            assertEquals(5, reader.info().rows());
            assertEquals(3, reader.info().cols());
            assertEquals(ValueType.I32, reader.columnType(0));
            assertEquals(ValueType.F64, reader.columnType(1));
            assertEquals(ValueType.U8, reader.columnType(2));
            for (int column = 0; column < 3; column++) {
                assertEquals(labels[column], reader.columnLabel(column));
            }
            int[] idsRead = new int[5];
            reader.readColumn(0, ValueType.I32, idsRead);
            assertArrayEquals(ids, idsRead);
            double[] scoresRead = new double[5];
            reader.readColumn(1, ValueType.F64, scoresRead);
            for (int row = 0; row < 5; row++) {
                assertEquals(Double.doubleToRawLongBits(scores[row]), Double.doubleToRawLongBits(scoresRead[row]));
            }
            byte[] flagsRead = new byte[5];
            reader.readColumn(2, ValueType.U8, flagsRead);
            assertArrayEquals(flags, flagsRead);
            assertEquals(255, Byte.toUnsignedInt(flagsRead[2]));
            reader.validate();
        }
    }

    @Test
    void directBuffersCrossWithoutCopies() {
        // Values from a direct buffer in native order, and decoding into one.
        ByteBuffer input = ByteBuffer.allocateDirect(6 * 8).order(ByteOrder.nativeOrder());
        for (int index = 0; index < 6; index++) {
            input.putLong(index * 8, index % 2 == 0 ? 0 : -index * 1_000_000_000_000L);
        }
        ByteBuffer file;
        try (Writer writer = Writer.toMemory()) {
            writer.beginMatrix(DataType.DENSE, ValueType.I64, 2, 3);
            writer.writeDense(ValueType.I64, input, 0, Encoding.AUTO, 0, 0);
            writer.finish();
            byte[] bytes = writer.toByteArray();
            file = ByteBuffer.allocateDirect(bytes.length);
            file.put(bytes).flip();
        }
        try (Reader reader = Reader.fromBuffer(file)) {
            ByteBuffer output = ByteBuffer.allocateDirect(6 * 8).order(ByteOrder.nativeOrder());
            reader.readDense(ValueType.I64, output, 0);
            for (int index = 0; index < 6; index++) {
                assertEquals(input.getLong(index * 8), output.getLong(index * 8));
            }
            // Decoding one block into a direct buffer, starting at the buffer's position.
            assertTrue(reader.nextBlock());
            ByteBuffer blockOutput = ByteBuffer.allocateDirect(8 + 6 * 8).order(ByteOrder.nativeOrder());
            blockOutput.position(8);
            reader.block().decodeDense(ValueType.I64, blockOutput);
            assertEquals(0, blockOutput.getLong(0));
            assertEquals(-1_000_000_000_000L, blockOutput.getLong(16));
            assertEquals(-5_000_000_000_000L, blockOutput.getLong(48));
        }
    }

    @Test
    void indexWindowAndObjectCsr() {
        double[] values = CrossLanguageMatrix.values();
        Path file = temporary.resolve("cross.dbdf");
        CrossLanguageMatrix.write(file);
        assertTrue(Files.exists(file));
        assertEquals(null, CrossLanguageMatrix.mismatch(file));
        try (Reader reader = Reader.open(file)) {
            assertEquals(4, reader.buildIndex());
            BlockInfo last = reader.indexEntry(3);
            assertEquals(4, last.row());
            assertEquals(3, last.col());
            assertEquals(2, last.rows());
            assertEquals(2, last.cols());
            Block block = reader.seekBlock(3);
            assertArrayEquals(new double[] {11.5, 12, 14, 0}, block.toDoubleArray());
            assertFalse(reader.nextBlock(), "seekBlock(3) makes the next block the end");

            double[] window = new double[2 * 3];
            reader.readWindow(ValueType.F64, 1, 1, 2, 3, window, 0);
            assertArrayEquals(new double[] {3, 0, 4, 0, 6, 6.5}, window);

            long entries = reader.countEntries();
            long nonZeros = Arrays.stream(values).filter(value -> value != 0).count();
            assertEquals(nonZeros, entries);
            long[] rowOffsets = new long[CrossLanguageMatrix.ROWS + 1];
            long[] colIndices = new long[(int) entries];
            double[] csrValues = new double[(int) entries];
            assertEquals(entries, reader.readCsr(ValueType.F64, rowOffsets, colIndices, csrValues));
            int entry = 0;
            for (int row = 0; row < CrossLanguageMatrix.ROWS; row++) {
                assertEquals(entry, rowOffsets[row]);
                for (int col = 0; col < CrossLanguageMatrix.COLS; col++) {
                    if (CrossLanguageMatrix.value(row, col) != 0) {
                        assertEquals(col, colIndices[entry]);
                        assertEquals(CrossLanguageMatrix.value(row, col), csrValues[entry]);
                        entry++;
                    }
                }
            }
        }
    }

    @Test
    void whileLoopAndRewindSeeTheSameBlocks() {
        byte[] bytes;
        try (Writer writer = Writer.toMemory()) {
            writer.beginMatrix(DataType.DENSE, ValueType.F64, 6, 5);
            writer.writeDense(ValueType.F64, CrossLanguageMatrix.values(), 0, Encoding.AUTO, 4, 3);
            writer.finish();
            bytes = writer.toByteArray();
        }
        try (Reader reader = Reader.fromBytes(bytes)) {
            List<BlockInfo> first = new ArrayList<>();
            while (reader.nextBlock()) {
                first.add(reader.block().info());
            }
            List<BlockInfo> second = new ArrayList<>();
            for (Block block : reader.blocks()) {
                second.add(block.info());
            }
            assertEquals(4, first.size());
            assertEquals(first, second);
        }
    }

    @Test
    void unsignedValuesTravelInSignedArraysOfTheSameWidth() {
        long[] values = {-1L, 0, Long.MIN_VALUE, 1};
        byte[] bytes;
        try (Writer writer = Writer.toMemory()) {
            writer.beginMatrix(DataType.DENSE, ValueType.U64, 2, 2);
            writer.addDense(0, 0, 2, 2, ValueType.U64, values);
            writer.finish();
            bytes = writer.toByteArray();
        }
        try (Reader reader = Reader.fromBytes(bytes)) {
            long[] read = new long[4];
            reader.readDense(ValueType.U64, read, 0);
            assertArrayEquals(values, read);
            assertEquals("18446744073709551615", Long.toUnsignedString(read[0]));
            // 2^64 - 1 is not an i64: exact conversion fails instead of wrapping.
            DbdfException error = assertThrows(DbdfException.class,
                    () -> reader.readDense(ValueType.I64, new long[4], 0));
            assertEquals(Status.RANGE, error.status());
        }
    }

    @Test
    void readersOnSeveralThreadsAreIndependent() throws Exception {
        Path file = temporary.resolve("shared.dbdf");
        CrossLanguageMatrix.write(file);
        double[] expected = CrossLanguageMatrix.values();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int thread = 0; thread < 4; thread++) {
            threads.add(new Thread(() -> {
                try {
                    for (int round = 0; round < 50; round++) {
                        try (Reader reader = Reader.open(file)) {
                            assertArrayEquals(expected, reader.readDoubles());
                            // Errors are per thread: a failure here must not leak into another thread's message.
                            DbdfException error = assertThrows(DbdfException.class, () -> reader.indexEntry(99));
                            assertEquals(Status.INVALID_ARGUMENT, error.status());
                        }
                    }
                } catch (Throwable failure) {
                    failures.add(failure);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(List.of(), failures);
    }

    @Test
    void versionIsReported() {
        assertEquals(200, Dbdf.versionNumber());
        assertEquals("0.2.0", Dbdf.version());
        assertEquals("format", Dbdf.statusName(Status.FORMAT));
    }
}
