package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writing the daphne dialect: the output is byte for byte the file DAPHNE's runtime wrote for the same object, and a
 * file writer puts DaphneDSL's .meta sidecar next to it unless told not to (never for a scalar).
 */
class DialectWriteTest {
    /**
     * Writes the matrix or scalar a corpus entry describes: writeDense for dense (and for a scalar, whose value goes
     * in as a 1 x 1 matrix's), one covering CSR block for CSR.
     */
    private static void writeMatrix(Writer writer, Map<String, Object> entry) {
        ValueType type = DaphneCorpus.valueTypeOf(entry);
        long rows = DaphneCorpus.integer(entry, "rows");
        long cols = DaphneCorpus.integer(entry, "cols");
        Object values = DaphneCorpus.values(entry, "values", type);
        writer.beginMatrix(DaphneCorpus.dataTypeOf(entry), type, rows, cols);
        if (rows == 0 || cols == 0) {
            // A matrix without cells takes no block (rule 4): finish writes its empty body.
        } else if (DaphneCorpus.dataTypeOf(entry) == DataType.CSR) {
            long[] colIndices = DaphneCorpus.colIndices(entry);
            int[] narrowed = new int[colIndices.length];
            for (int index = 0; index < colIndices.length; index++) {
                narrowed[index] = Math.toIntExact(colIndices[index]);
            }
            TypedOverloads.call(writer, "addCsr", 0L, 0L, rows, cols, type, DaphneCorpus.rowOffsets(entry), narrowed,
                    values, Encoding.AUTO);
        } else {
            TypedOverloads.call(writer, "writeDense", type, values, 0L, Encoding.AUTO, 0L, 0L);
        }
        writer.finish();
    }

    @TestFactory
    Stream<DynamicTest> memoryOutputIsTheRuntimesFile() {
        return DaphneCorpus.reproducibleMatricesAndScalars().stream().map(entry ->
                DynamicTest.dynamicTest(DaphneCorpus.fileOf(entry), () -> {
                    try (Writer writer = Writer.toMemory(Dialect.DAPHNE)) {
                        assertEquals(Dialect.DAPHNE, writer.dialect());
                        writeMatrix(writer, entry);
                        assertArrayEquals(Files.readAllBytes(DaphneCorpus.pathOf(entry)), writer.toByteArray());
                    }
                }));
    }

    @TestFactory
    Stream<DynamicTest> fileOutputIsTheRuntimesFileWithItsMeta(@TempDir Path directory) {
        return DaphneCorpus.reproducibleMatricesAndScalars().stream().map(entry ->
                DynamicTest.dynamicTest(DaphneCorpus.fileOf(entry), () -> {
                    // A directory per file, so that each sees only what it wrote.
                    Path folder = Files.createDirectory(directory.resolve(DaphneCorpus.fileOf(entry) + ".d"));
                    Path target = folder.resolve(DaphneCorpus.fileOf(entry));
                    Path meta = folder.resolve(DaphneCorpus.fileOf(entry) + ".meta");
                    try (Writer writer = Writer.toFile(target, Dialect.DAPHNE, true)) {
                        assertEquals(Dialect.DAPHNE, writer.dialect());
                        writeMatrix(writer, entry);
                    }
                    assertArrayEquals(Files.readAllBytes(DaphneCorpus.pathOf(entry)), Files.readAllBytes(target));
                    if (DaphneCorpus.dataTypeOf(entry) == DataType.SCALAR) {
                        // The runtime writes no .meta for a scalar, so neither does dbdf.
                        assertFalse(Files.exists(meta), "no .meta sidecar for a scalar");
                        assertEquals(List.of(target), filesIn(folder));
                        return;
                    }
                    assertTrue(Files.exists(meta), "the .meta sidecar is written next to the file");
                    assertEquals(expectedMeta(entry), Files.readString(meta, StandardCharsets.UTF_8), ".meta");
                    assertEquals(List.of(target, meta), filesIn(folder));
                }));
    }

    private static List<Path> filesIn(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.sorted().toList();
        }
    }

    /**
     * The .meta DAPHNE's MetaDataParser writes for a matrix (keys sorted, no spaces; CSR with its entry count).
     * Where the corpus holds the runtime's own .meta, the text must be exactly that, which checks this oracle; the
     * files without one (views, CSR) were written by the runtime's C++ API, which writes no sidecar.
     */
    private static String expectedMeta(Map<String, Object> entry) throws IOException {
        String meta = DaphneCorpus.matrixMeta(DaphneCorpus.dataTypeOf(entry), DaphneCorpus.integer(entry, "rows"),
                DaphneCorpus.integer(entry, "cols"), DaphneCorpus.valueTypeOf(entry),
                DaphneCorpus.count(entry, "values"));
        if (entry.containsKey("meta")) {
            assertEquals(Files.readString(DaphneCorpus.pathOf((String) entry.get("meta")), StandardCharsets.UTF_8),
                    meta, "the runtime's .meta");
        }
        return meta;
    }

    @Test
    void metaIsLeftOutWhenNotWanted(@TempDir Path directory) throws IOException {
        Map<String, Object> entry = DaphneCorpus.entry("dense_f64_3x4.dbdf");
        Path target = directory.resolve("no-meta.dbdf");
        try (Writer writer = Writer.toFile(target, Dialect.DAPHNE, false)) {
            writeMatrix(writer, entry);
        }
        assertArrayEquals(Files.readAllBytes(DaphneCorpus.pathOf("dense_f64_3x4.dbdf")), Files.readAllBytes(target));
        assertFalse(Files.exists(directory.resolve("no-meta.dbdf.meta")), "no .meta with writeMeta false");

        // The spec dialect has no sidecar, whatever writeMeta says.
        Path spec = directory.resolve("spec.dbdf");
        try (Writer writer = Writer.toFile(spec, Dialect.SPEC, true)) {
            assertEquals(Dialect.SPEC, writer.dialect());
            writer.beginMatrix(DataType.DENSE, ValueType.F64, 1, 1);
            writer.writeDense(new double[] {1.0});
            writer.finish();
        }
        assertEquals(List.of(target, spec), filesIn(directory), "only the two data files");
    }

    /**
     * The runtime wrote memory bytes instead of frame_mixed's labels; written with the labels it was given, the file
     * is the runtime's with those label bytes replaced by the text.
     */
    @Test
    void frameIsTheRuntimesFileWithItsLabelsAsText(@TempDir Path directory) throws IOException {
        Map<String, Object> entry = DaphneCorpus.entry("frame_mixed.dbdf");
        assertTrue(DaphneCorpus.isTrue(entry, "reproducible_with_labels_replaced"), "the corpus says so");
        List<Map<String, Object>> columns = DaphneCorpus.columns(entry);
        ValueType[] types = columns.stream().map(DaphneCorpus::valueTypeOf).toArray(ValueType[]::new);
        String[] labels = columns.stream().map(column -> (String) column.get("written_label")).toArray(String[]::new);
        Path target = directory.resolve("frame.dbdf");
        try (Writer writer = Writer.toFile(target, Dialect.DAPHNE, true)) {
            writer.beginFrame(DaphneCorpus.integer(entry, "rows"), types, labels);
            for (int column = 0; column < columns.size(); column++) {
                TypedOverloads.call(writer, "writeColumn", (long) column, types[column],
                        DaphneCorpus.values(columns.get(column), "values", types[column]), Encoding.AUTO, 0L);
            }
            writer.finish();
        }
        byte[] expected = Files.readAllBytes(DaphneCorpus.pathOf("frame_mixed.dbdf"));
        replaceFrameLabels(expected, labels);
        assertArrayEquals(expected, Files.readAllBytes(target));
        assertEquals("{\"numCols\":3,\"numRows\":4,\"schema\":[{\"label\":\"id\",\"valueType\":\"si64\"},"
                + "{\"label\":\"score\",\"valueType\":\"f64\"},{\"label\":\"w\",\"valueType\":\"f32\"}]}",
                Files.readString(directory.resolve("frame.dbdf.meta"), StandardCharsets.UTF_8));
    }

    /**
     * Overwrites the label bytes of a daphne frame file: after the 18-byte header and one type code per column,
     * each label is a little-endian uint16 length and that many bytes.
     */
    private static void replaceFrameLabels(byte[] file, String[] labels) {
        int offset = 18 + labels.length;
        for (String label : labels) {
            byte[] text = label.getBytes(StandardCharsets.UTF_8);
            int length = (file[offset] & 0xFF) | ((file[offset + 1] & 0xFF) << 8);
            assertEquals(text.length, length, "label length in the runtime's file");
            System.arraycopy(text, 0, file, offset + 2, length);
            offset += 2 + length;
        }
    }

    /**
     * A scalar is begun as a 1 x 1 object of data type SCALAR and takes its one value as a 1 x 1 dense matrix does:
     * the bytes are those of the runtime's serializer, with no .meta; the spec dialect has no scalar.
     */
    @Test
    void scalarsAreWrittenInTheDaphneDialectOnly(@TempDir Path directory) throws IOException {
        byte[] written;
        try (Writer writer = Writer.toMemory(Dialect.DAPHNE)) {
            writer.beginMatrix(DataType.SCALAR, ValueType.F64, 1, 1);
            writer.writeDense(new double[] {3.25});
            writer.finish();
            written = writer.toByteArray();
        }
        assertArrayEquals(Files.readAllBytes(DaphneCorpus.pathOf("value_f64_serialized.bin")), written);
        try (Reader reader = Reader.fromBytes(written, Dialect.DAPHNE)) {
            assertEquals(DataType.SCALAR, reader.info().dataType());
            assertArrayEquals(new double[] {3.25}, reader.readDoubles());
        }

        // A file writer asked for a sidecar writes none for a scalar; the value converts exactly to the object's type.
        Path target = directory.resolve("value.bin");
        try (Writer writer = Writer.toFile(target, Dialect.DAPHNE, true)) {
            writer.beginMatrix(DataType.SCALAR, ValueType.I64, 1, 1);
            writer.writeDense(new int[] {-7});
            writer.finish();
        }
        assertArrayEquals(Files.readAllBytes(DaphneCorpus.pathOf("value_i64_serialized.bin")),
                Files.readAllBytes(target));
        assertEquals(List.of(target), filesIn(directory), "no .meta sidecar for a scalar");

        try (Writer writer = Writer.toMemory(Dialect.DAPHNE)) {
            DbdfException error = assertThrows(DbdfException.class,
                    () -> writer.beginMatrix(DataType.SCALAR, ValueType.F64, 1, 2));
            assertEquals(Status.INVALID_ARGUMENT, error.status(), error.getMessage());
        }
        try (Writer writer = Writer.toMemory()) {
            DbdfException error = assertThrows(DbdfException.class,
                    () -> writer.beginMatrix(DataType.SCALAR, ValueType.F64, 1, 1));
            assertEquals(Status.INVALID_ARGUMENT, error.status(), error.getMessage());
            assertEquals(0, writer.bytesWritten());
            // The writer stays usable for what the spec has instead: a 1 x 1 dense matrix.
            writer.beginMatrix(DataType.DENSE, ValueType.F64, 1, 1);
            writer.writeDense(new double[] {3.25});
            writer.finish();
            try (Reader reader = Reader.fromBytes(writer.toByteArray())) {
                assertEquals(DataType.DENSE, reader.info().dataType());
                assertArrayEquals(new double[] {3.25}, reader.readDoubles());
            }
        }
    }

    @Test
    void whatTheRuntimeCannotHoldIsRefused(@TempDir Path directory) {
        try (Writer writer = Writer.toMemory(Dialect.DAPHNE)) {
            // i16 has no DAPHNE value type code.
            DbdfException error = assertThrows(DbdfException.class,
                    () -> writer.beginMatrix(DataType.DENSE, ValueType.I16, 2, 2));
            assertEquals(Status.INVALID_ARGUMENT, error.status(), error.getMessage());
        }
        try (Writer writer = Writer.toMemory(Dialect.DAPHNE)) {
            writer.beginMatrix(DataType.DENSE, ValueType.F64, 2, 2);
            // The block is the matrix row-major: one narrower than the matrix cannot be part of it.
            DbdfException error = assertThrows(DbdfException.class,
                    () -> writer.addDense(0, 0, 2, 1, new double[] {1.0, 3.0}));
            assertEquals(Status.INVALID_ARGUMENT, error.status(), error.getMessage());
            // The writer stays usable: the covering block goes in, converted exactly from int.
            writer.addDense(0, 0, 2, 2, new int[] {1, 2, 3, 4});
            writer.finish();
            try (Reader reader = Reader.fromBytes(writer.toByteArray(), Dialect.DAPHNE)) {
                assertArrayEquals(new double[] {1.0, 2.0, 3.0, 4.0}, reader.readDoubles());
            }
        }
        assertThrows(NullPointerException.class, () -> Writer.toMemory((Dialect) null));
        assertThrows(NullPointerException.class, () -> Writer.toFile(directory.resolve("x.dbdf"), null, true));
        assertThrows(NullPointerException.class, () -> Writer.toFile((Path) null, Dialect.DAPHNE, true));
        assertFalse(Files.exists(directory.resolve("x.dbdf")), "refused writers leave no file behind");
    }
}
