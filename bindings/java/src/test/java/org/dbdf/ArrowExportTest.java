package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.util.TransferPair;
import org.dbdf.arrow.DbdfArrow;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Arrow export through Arrow Java's C Data module: every golden frame and matrix gives, bit for bit, the values of
 * the ordinary reads (readColumn, readDense, readCsr), from a file and from memory; batches outlive the reader.
 */
class ArrowExportTest extends ArrowAllocatorTest {
    private static final Path VECTORS = Path.of(System.getProperty("dbdf.vectors.dir", "../../tests/vectors"));

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> validVectors() throws IOException {
        Map<String, Object> manifest = (Map<String, Object>) MiniJson.parse(
                Files.readString(VECTORS.resolve("vectors.json"), StandardCharsets.UTF_8));
        return (List<Map<String, Object>>) manifest.get("valid");
    }

    @TestFactory
    Stream<DynamicTest> everyGoldenObjectExportsTheOrdinaryReadsValues() throws IOException {
        return validVectors().stream().map(entry -> DynamicTest.dynamicTest((String) entry.get("file"), () -> {
            Path file = VECTORS.resolve((String) entry.get("file"));
            String dataType = ((String) entry.get("data_type")).toUpperCase(Locale.ROOT);
            assertTrue(List.of("FRAME", "DENSE", "CSR").contains(dataType), "a frame or matrix: " + dataType);
            try (Reader reader = Reader.open(file)) {
                checkExport(reader);
            }
            try (Reader reader = Reader.fromBytes(Files.readAllBytes(file))) {
                checkExport(reader);
            }
        }));
    }

    /** The reader's export against its own ordinary reads, as columns and, for a dense matrix, as lists. */
    private void checkExport(Reader reader) throws IOException {
        ObjectInfo info = reader.info();
        int rows = Math.toIntExact(info.rows());
        int cols = Math.toIntExact(info.cols());
        Map<String, byte[]> exported = exportedBytes(reader, false);
        switch (info.dataType()) {
            case FRAME -> {
                assertEquals(cols, exported.size(), "fields");
                for (int column = 0; column < cols; column++) {
                    ValueType type = reader.columnType(column);
                    ByteBuffer values = direct(rows * type.size());
                    reader.readColumn(column, type, values);
                    assertArrayEquals(bytes(values), exported.get(reader.columnLabel(column)), "column " + column);
                }
            }
            case DENSE -> {
                ValueType type = info.valueType();
                ByteBuffer values = direct(rows * cols * type.size());
                if (rows > 0 && cols > 0) {
                    reader.readDense(type, values, 0);
                }
                byte[] rowMajor = bytes(values);
                assertEquals(cols, exported.size(), "fields");
                for (int column = 0; column < cols; column++) {
                    assertArrayEquals(columnOf(rowMajor, rows, cols, column, type.size()), exported.get("c" + column),
                            "c" + column);
                }
                if (cols > 0) {
                    reader.rewind();
                    assertArrayEquals(rowMajor, exportedBytes(reader, true).get("values"), "fixed-size lists");
                }
            }
            case CSR -> {
                ValueType type = info.valueType();
                int entries = Math.toIntExact(reader.countEntries());
                long[] rowOffsets = new long[rows + 1];
                long[] colIndices = new long[entries];
                ByteBuffer values = direct(entries * type.size());
                reader.readCsr(type, rowOffsets, colIndices, values);
                ByteBuffer rowOfEntry = direct(entries * 8);
                ByteBuffer colOfEntry = direct(entries * 8);
                for (int row = 0; row < rows; row++) {
                    for (long entry = rowOffsets[row]; entry < rowOffsets[row + 1]; entry++) {
                        rowOfEntry.putLong((int) entry * 8, row);
                        colOfEntry.putLong((int) entry * 8, colIndices[(int) entry]);
                    }
                }
                assertEquals(List.of("row", "col", "value"), new ArrayList<>(exported.keySet()));
                assertArrayEquals(bytes(rowOfEntry), exported.get("row"), "row");
                assertArrayEquals(bytes(colOfEntry), exported.get("col"), "col");
                assertArrayEquals(bytes(values), exported.get("value"), "value");
            }
            default -> throw new AssertionError(info.dataType().toString());
        }
    }

    /** Every field's values over all batches, as the bytes of Arrow's data buffers (list children for lists). */
    private Map<String, byte[]> exportedBytes(Reader reader, boolean denseAsList) throws IOException {
        Map<String, ByteArrayOutputStream> gathered = new LinkedHashMap<>();
        try (ArrowReader batches = DbdfArrow.toArrow(reader, allocator, denseAsList)) {
            VectorSchemaRoot root = batches.getVectorSchemaRoot();
            for (Field field : root.getSchema().getFields()) {
                assertFalse(field.isNullable(), field.getName() + " is not nullable");
                gathered.put(field.getName(), new ByteArrayOutputStream());
            }
            while (batches.loadNextBatch()) {
                for (FieldVector vector : root.getFieldVectors()) {
                    assertEquals(0, vector.getNullCount(), vector.getName());
                    gathered.get(vector.getName()).writeBytes(valueBytes(vector));
                }
            }
        }
        Map<String, byte[]> result = new LinkedHashMap<>();
        gathered.forEach((name, stream) -> result.put(name, stream.toByteArray()));
        return result;
    }

    static byte[] valueBytes(FieldVector vector) {
        if (vector instanceof FixedSizeListVector list) {
            return valueBytes((FieldVector) list.getDataVector());
        }
        int width = ((BaseFixedWidthVector) vector).getTypeWidth();
        byte[] bytes = new byte[vector.getValueCount() * width];
        vector.getDataBuffer().getBytes(0, bytes);
        return bytes;
    }

    private static ByteBuffer direct(int nbytes) {
        return ByteBuffer.allocateDirect(nbytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.capacity()];
        buffer.duplicate().clear().get(bytes);
        return bytes;
    }

    private static byte[] columnOf(byte[] rowMajor, int rows, int cols, int column, int width) {
        byte[] result = new byte[rows * width];
        for (int row = 0; row < rows; row++) {
            System.arraycopy(rowMajor, (row * cols + column) * width, result, row * width, width);
        }
        return result;
    }

    @Test
    void typesFollowTheMapping() throws IOException {
        try (Reader reader = Reader.open(VECTORS.resolve("dense_u16.dbdf"));
                ArrowReader batches = DbdfArrow.toArrow(reader, allocator)) {
            assertEquals(new ArrowType.Int(16, false), batches.getVectorSchemaRoot().getSchema().getFields().get(0)
                    .getType());
        }
        try (Reader reader = Reader.open(VECTORS.resolve("dense_f32.dbdf"));
                ArrowReader batches = DbdfArrow.toArrow(reader, allocator, true)) {
            Field values = batches.getVectorSchemaRoot().getSchema().getFields().get(0);
            assertEquals(new ArrowType.FixedSizeList(3), values.getType());
            assertEquals(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE),
                    values.getChildren().get(0).getType());
        }
    }

    @Test
    void batchesOutliveTheReaderAndTheStream() throws IOException {
        Reader reader = Reader.open(VECTORS.resolve("dense_u64.dbdf"));
        long[] all = new long[6];
        reader.readDense(ValueType.U64, all, 0);
        ArrowReader batches = DbdfArrow.toArrow(reader, allocator);
        // The stream reads through the reader: nobody else may meanwhile.
        IllegalStateException busy = assertThrows(IllegalStateException.class, reader::nextBlock);
        assertTrue(busy.getMessage().contains("exported as an Arrow stream"), busy.getMessage());
        assertThrows(IllegalStateException.class, () -> DbdfArrow.toArrow(reader, allocator));
        // The stream keeps the native reader alive after close(), until the stream is closed.
        reader.close();
        assertFalse(reader.sharedNativeReader().isFreed());
        assertTrue(batches.loadNextBatch());
        FieldVector column = batches.getVectorSchemaRoot().getVector("c2");
        TransferPair moved = column.getTransferPair(allocator);
        moved.transfer();
        batches.close();
        assertTrue(reader.sharedNativeReader().isFreed());
        try (UInt8Vector kept = (UInt8Vector) moved.getTo()) {
            assertEquals(2, kept.getValueCount());
            assertEquals(all[2], kept.getValueAsLong(0));
            assertEquals(all[5], kept.getValueAsLong(1));
        }
    }

    @Test
    void aReaderOverMemoryLendsItsBytesToTheBatches() throws IOException {
        byte[] file;
        try (Writer writer = Writer.toMemory()) {
            writer.beginFrame(4, new ValueType[] {ValueType.U8}, new String[] {"small"});
            writer.writeColumn(0, ValueType.U8, new byte[] {1, 2, (byte) 200, 4}, Encoding.AS_GIVEN, 0);
            writer.finish();
            file = writer.toByteArray();
        }
        ByteBuffer memory = ByteBuffer.allocateDirect(file.length);
        memory.put(file).flip();
        long first = MemoryUtil.getByteBufferAddress(memory);
        TransferPair moved;
        try (Reader reader = Reader.fromBuffer(memory);
                ArrowReader batches = DbdfArrow.toArrow(reader, allocator)) {
            // The stream reads through a native reader of its own: this one stays usable.
            assertTrue(reader.nextBlock());
            assertTrue(batches.loadNextBatch());
            FieldVector column = batches.getVectorSchemaRoot().getVector("small");
            long address = column.getDataBuffer().memoryAddress();
            assertTrue(address >= first && address + 4 <= first + file.length,
                    "the batch's values lie in the reader's memory");
            moved = column.getTransferPair(allocator);
            moved.transfer();
        }
        // The stream keeps the buffer alive as long as a batch points into it.
        memory = null;
        System.gc();
        try (UInt1Vector kept = (UInt1Vector) moved.getTo()) {
            assertEquals(List.of(1L, 2L, 200L, 4L), List.of(kept.getValueAsLong(0), kept.getValueAsLong(1),
                    kept.getValueAsLong(2), kept.getValueAsLong(3)));
        }
    }

    @Test
    void theReaderServesAgainOnceTheStreamIsClosed() throws IOException {
        try (Reader reader = Reader.open(VECTORS.resolve("frame_mixed.dbdf"))) {
            try (ArrowReader batches = DbdfArrow.toArrow(reader, allocator)) {
                assertTrue(batches.loadNextBatch());
                assertThrows(IllegalStateException.class, reader::info);
            }
            assertEquals(4, reader.info().rows());
            // The stream moved the block position; rewind() starts over.
            reader.rewind();
            assertTrue(reader.nextBlock());
            assertEquals(0, reader.block().index());
        }
    }

    @Test
    void aFileBreakingTheFormatFailsThePullWithTheLibrarysMessage() throws IOException {
        try (Reader reader = Reader.open(VECTORS.resolve("invalid/csr_unsorted_columns.dbdf"));
                ArrowReader batches = DbdfArrow.toArrow(reader, allocator)) {
            DbdfException error = assertThrows(DbdfException.class, batches::loadNextBatch);
            assertEquals(Status.FORMAT, error.status());
            assertTrue(error.getMessage().startsWith("format: block 0 at (0, 0): row 0 column index 0"),
                    error.getMessage());
            assertTrue(error.getMessage().endsWith("at byte 69 (rule 12)"), error.getMessage());
            assertEquals(OptionalInt.of(12), error.rule());
            assertEquals(OptionalLong.of(69), error.offset());
        }
    }
}
