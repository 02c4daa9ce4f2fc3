package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every golden file of tests/vectors, as listed in vectors.json: valid files must read back with exactly the listed
 * header, blocks and values (bit patterns) and have no violations; invalid files must fail with the listed status at
 * the listed step, naming the listed rule and byte offset, and list that violation first.
 */
class GoldenVectorsTest {
    private static final Path VECTORS = Path.of(System.getProperty("dbdf.vectors.dir", "../../tests/vectors"));

    @SuppressWarnings("unchecked")
    private static Map<String, Object> manifest() throws IOException {
        Path manifest = VECTORS.resolve("vectors.json");
        assertTrue(Files.isRegularFile(manifest), "golden manifest " + manifest.toAbsolutePath() + " exists");
        return (Map<String, Object>) MiniJson.parse(Files.readString(manifest, StandardCharsets.UTF_8));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> entries(String kind) throws IOException {
        return (List<Map<String, Object>>) manifest().get(kind);
    }

    private static ValueType valueTypeNamed(Object name) {
        return name == null ? ValueType.NONE : ValueType.valueOf(((String) name).toUpperCase(Locale.ROOT));
    }

    private static int integer(Map<String, Object> entry, String key) {
        return Math.toIntExact((Long) entry.get(key));
    }

    /** A manifest cell as a bit pattern of {@code type}: decimal for integers, "0x..." bits for floats. */
    private static long cellBits(ValueType type, String cell) {
        if (type.isFloatingPoint()) {
            assertTrue(cell.startsWith("0x"), "float cells are hex bit patterns: " + cell);
            return Long.parseUnsignedLong(cell.substring(2), 16);
        }
        long value = type == ValueType.U64 ? Long.parseUnsignedLong(cell) : Long.parseLong(cell);
        return TestData.masked(type, new long[] {value})[0];
    }

    @Test
    void manifestListsEveryFileOfTheFolder() throws IOException {
        List<String> listed = new ArrayList<>();
        for (String kind : List.of("valid", "invalid")) {
            for (Map<String, Object> entry : entries(kind)) {
                listed.add((String) entry.get("file"));
            }
        }
        List<String> present = new ArrayList<>();
        for (Path folder : List.of(VECTORS, VECTORS.resolve("invalid"))) {
            try (Stream<Path> files = Files.list(folder)) {
                files.filter(file -> file.toString().endsWith(".dbdf"))
                        .forEach(file -> present.add(VECTORS.relativize(file).toString().replace('\\', '/')));
            }
        }
        assertFalse(entries("valid").isEmpty());
        assertFalse(entries("invalid").isEmpty());
        assertEquals(present.stream().sorted().toList(), listed.stream().sorted().toList());
    }

    @TestFactory
    Stream<DynamicTest> validFilesReadBackExactly() throws IOException {
        return entries("valid").stream().map(entry -> DynamicTest.dynamicTest((String) entry.get("file"),
                () -> checkValid(entry)));
    }

    @TestFactory
    Stream<DynamicTest> invalidFilesFailWithTheirStatusRuleAndOffset() throws IOException {
        return entries("invalid").stream().map(entry -> DynamicTest.dynamicTest((String) entry.get("file"),
                () -> checkInvalid(entry)));
    }

    @SuppressWarnings("unchecked")
    private static void checkValid(Map<String, Object> entry) throws IOException {
        Path file = VECTORS.resolve((String) entry.get("file"));
        DataType dataType = DataType.valueOf(((String) entry.get("data_type")).toUpperCase(Locale.ROOT));
        int rows = integer(entry, "rows");
        int cols = integer(entry, "cols");
        ValueType objectType = valueTypeNamed(entry.get("value_type"));
        List<List<String>> cells = (List<List<String>>) entry.get("values");
        assertEquals(rows, cells.size(), "manifest rows");

        ValueType[] columnTypes = new ValueType[cols];
        for (int column = 0; column < cols; column++) {
            columnTypes[column] = dataType == DataType.FRAME
                    ? valueTypeNamed(((List<Object>) entry.get("column_types")).get(column))
                    : objectType;
        }
        // Expected bit patterns, row-major, each in its column's type.
        long[] expected = new long[rows * cols];
        for (int row = 0; row < rows; row++) {
            assertEquals(cols, cells.get(row).size(), "manifest cols of row " + row);
            for (int column = 0; column < cols; column++) {
                expected[row * cols + column] = cellBits(columnTypes[column], cells.get(row).get(column));
            }
        }

        try (Reader reader = Reader.open(file)) {
            checkObject(reader, entry, dataType, objectType, rows, cols, columnTypes, expected, Files.size(file));
        }
        // The same bytes from memory must read the same.
        try (Reader reader = Reader.fromBytes(Files.readAllBytes(file))) {
            checkObject(reader, entry, dataType, objectType, rows, cols, columnTypes, expected, Files.size(file));
        }
    }

    @SuppressWarnings("unchecked")
    private static void checkObject(Reader reader, Map<String, Object> entry, DataType dataType,
            ValueType objectType, int rows, int cols, ValueType[] columnTypes, long[] expected, long totalBytes) {
        ObjectInfo info = reader.info();
        assertEquals(dataType, info.dataType());
        assertEquals(objectType, info.valueType());
        assertEquals(rows, info.rows());
        assertEquals(cols, info.cols());
        assertEquals(totalBytes, info.totalBytes());
        assertTrue(info.headerBytes() >= 19 && info.headerBytes() <= totalBytes, "header size " + info.headerBytes());
        for (int column = 0; column < cols; column++) {
            assertEquals(columnTypes[column], reader.columnType(column), "type of column " + column);
        }
        if (dataType == DataType.FRAME) {
            List<String> labels = (List<String>) entry.get("labels");
            for (int column = 0; column < cols; column++) {
                assertEquals(labels.get(column), reader.columnLabel(column), "label of column " + column);
            }
        }

        // Blocks in file order, each decoded and compared with its window of the expected values.
        List<Map<String, Object>> blocks = (List<Map<String, Object>>) entry.get("blocks");
        int index = 0;
        for (Block block : reader.blocks()) {
            assertTrue(index < blocks.size(), "more blocks than listed");
            Map<String, Object> listed = blocks.get(index);
            String where = "block " + index;
            assertEquals(index, block.index(), where);
            assertEquals(integer(listed, "row"), block.row(), where);
            assertEquals(integer(listed, "col"), block.col(), where);
            assertEquals(integer(listed, "rows"), block.rows(), where);
            assertEquals(integer(listed, "cols"), block.cols(), where);
            BlockType blockType = BlockType.valueOf(((String) listed.get("block_type")).toUpperCase(Locale.ROOT));
            assertEquals(blockType, block.blockType(), where);
            assertEquals((long) (Long) listed.get("stored_values"), block.info().storedValues(), where);
            // Zero-area blocks (rule 4) may sit past the last column of an object without columns.
            ValueType columnType = block.col() < cols ? columnTypes[(int) block.col()] : objectType;
            ValueType storedType = valueTypeNamed(listed.get("value_type"));
            if (blockType == BlockType.EMPTY) {
                storedType = TestData.emptyBlockValueType(columnType);
            }
            assertEquals(storedType, block.valueType(), where);

            int blockRows = (int) block.rows();
            int blockCols = (int) block.cols();
            ValueType decodeType = columnType;
            Object decoded = TestData.newArray(decodeType, blockRows * blockCols);
            TypedOverloads.call(block, "decodeDense", decodeType, decoded);
            long[] window = new long[blockRows * blockCols];
            for (int i = 0; i < blockRows; i++) {
                for (int j = 0; j < blockCols; j++) {
                    window[i * blockCols + j] = expected[(int) ((block.row() + i) * cols + block.col() + j)];
                }
            }
            assertArrayEquals(window, TestData.toBits(decodeType, decoded), where + " values");
            index++;
        }
        assertEquals(blocks.size(), index, "number of blocks");

        // The whole object: dense for matrices, column by column for frames.
        if (dataType == DataType.FRAME) {
            for (int column = 0; column < cols; column++) {
                Object values = TestData.newArray(columnTypes[column], rows);
                TypedOverloads.call(reader, "readColumn", column, columnTypes[column], values);
                long[] expectedColumn = new long[rows];
                for (int row = 0; row < rows; row++) {
                    expectedColumn[row] = expected[row * cols + column];
                }
                assertArrayEquals(expectedColumn, TestData.toBits(columnTypes[column], values), "column " + column);
            }
        } else if (rows > 0 && cols > 0) {
            Object values = TestData.newArray(objectType, rows * cols);
            TypedOverloads.call(reader, "readDense", objectType, values, 0);
            assertArrayEquals(expected, TestData.toBits(objectType, values), "whole object");
        }
        reader.validate();
        assertEquals(List.of(), reader.violations(), "violations of a valid object");
    }

    /**
     * {@code error} is the entry's failure: its status, its rule (none for the spec's layout, rule 0) and its byte
     * offset as numbers, and a message naming both ("(rule N)", or "(spec" for the spec's layout).
     */
    private static void assertDescribes(Map<String, Object> entry, DbdfException error, String step) {
        String where = entry.get("file") + " (" + step + "): " + error.getMessage();
        assertEquals(Status.valueOf(((String) entry.get("status")).toUpperCase(Locale.ROOT)), error.status(), where);
        int rule = integer(entry, "rule");
        long offset = (Long) entry.get("offset");
        assertEquals(rule == 0 ? OptionalInt.empty() : OptionalInt.of(rule), error.rule(), where);
        assertEquals(OptionalLong.of(offset), error.offset(), where);
        String ruleText = rule == 0 ? "(spec" : "(rule " + rule + ")";
        assertTrue(error.nativeMessage().contains(ruleText), where + " does not name " + ruleText);
        String offsetText = "byte " + offset;
        assertTrue(error.nativeMessage().contains(offsetText), where + " does not name " + offsetText);
        assertEquals(entry.get("status") + ": " + error.nativeMessage(), error.getMessage());
    }

    /**
     * The reader lists the entry's violation first, with its rule and offset, and described as validate() describes
     * it.
     */
    private static void assertListsFirst(Map<String, Object> entry, Reader reader) {
        DbdfException error = assertThrows(DbdfException.class, reader::validate);
        assertDescribes(entry, error, "validate");
        List<Violation> violations = reader.violations();
        String where = entry.get("file") + ": " + violations;
        assertFalse(violations.isEmpty(), where);
        Violation first = violations.get(0);
        assertEquals(integer(entry, "rule"), first.rule(), where);
        assertEquals((long) (Long) entry.get("offset"), first.offset(), where);
        assertEquals(error.nativeMessage(), first.message(), where);
    }

    private static void checkInvalid(Map<String, Object> entry) throws IOException {
        Path file = VECTORS.resolve((String) entry.get("file"));
        Status expected = Status.valueOf(((String) entry.get("status")).toUpperCase(Locale.ROOT));
        assertTrue(expected.isInvalidData(), "invalid files are invalid data: " + expected);
        String failsOn = (String) entry.get("fails_on");
        switch (failsOn) {
            case "open" -> {
                // No reader, hence no violations() to ask: the exception alone tells the rule and the offset.
                DbdfException error = assertThrows(DbdfException.class, () -> Reader.open(file).close());
                assertDescribes(entry, error, "open");
                byte[] bytes = Files.readAllBytes(file);
                assertDescribes(entry, assertThrows(DbdfException.class, () -> Reader.fromBytes(bytes).close()),
                        "open from memory");
            }
            case "iterate" -> {
                try (Reader reader = Reader.open(file)) {
                    DbdfException error = assertThrows(DbdfException.class, () -> {
                        while (reader.nextBlock()) {
                            // Headers only: the failure must come from walking the blocks.
                        }
                    });
                    assertDescribes(entry, error, "iterate");
                    // The reader stays usable: the same error again, and validation reports it too.
                    assertDescribes(entry, assertThrows(DbdfException.class, reader::nextBlock), "iterate again");
                    assertListsFirst(entry, reader);
                }
            }
            case "decode" -> {
                try (Reader reader = Reader.open(file)) {
                    ValueType decodeType = reader.info().valueType();
                    DbdfException firstError = null;
                    while (reader.nextBlock() && firstError == null) {
                        Block block = reader.block();
                        Object values = TestData.newArray(decodeType, (int) (block.rows() * block.cols()));
                        try {
                            TypedOverloads.call(block, "decodeDense", decodeType, values);
                        } catch (DbdfException error) {
                            firstError = error;
                        }
                    }
                    assertNotNull(firstError, "decoding some block fails");
                    assertDescribes(entry, firstError, "decode");
                    assertListsFirst(entry, reader);
                }
            }
            default -> fail("unknown fails_on '" + failsOn + "' in the manifest");
        }
    }
}
