package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Reading the daphne dialect: every file DAPHNE's runtime wrote (tests/vectors/daphne-runtime) reads with the values
 * corpus.json lists, from the file, from a byte array and from a direct buffer; the files it refuses fail with their
 * status.
 */
class DialectReadTest {
    /** The ways a file is opened in the daphne dialect, each checked against the same values. */
    private static final Map<String, Function<Path, Reader>> OPENINGS = Map.of(
            "file", path -> Reader.open(path, Dialect.DAPHNE),
            "bytes", path -> Reader.fromBytes(bytesOf(path), Dialect.DAPHNE),
            "direct buffer", path -> Reader.fromBuffer(directBufferOf(bytesOf(path)), Dialect.DAPHNE));

    private static byte[] bytesOf(Path path) {
        try {
            return Files.readAllBytes(path);
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    private static ByteBuffer directBufferOf(byte[] bytes) {
        return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    }

    private static List<String> openingNames() {
        return OPENINGS.keySet().stream().sorted().toList();
    }

    @TestFactory
    Stream<DynamicTest> runtimeFilesReadWithTheirValues() {
        return DaphneCorpus.readable().stream().flatMap(entry -> openingNames().stream().map(opening ->
                DynamicTest.dynamicTest(DaphneCorpus.fileOf(entry) + ", " + opening, () -> {
                    try (Reader reader = OPENINGS.get(opening).apply(DaphneCorpus.pathOf(entry))) {
                        checkObject(entry, reader);
                    }
                })));
    }

    @TestFactory
    Stream<DynamicTest> refusedFilesFailWithTheirStatus() {
        return DaphneCorpus.refused().stream().map(entry -> DynamicTest.dynamicTest(DaphneCorpus.fileOf(entry), () -> {
            Status expected = DaphneCorpus.refusalOf(entry);
            Path path = DaphneCorpus.pathOf(entry);
            for (String opening : openingNames()) {
                DbdfException error = assertThrows(DbdfException.class,
                        () -> OPENINGS.get(opening).apply(path).close(), opening);
                assertEquals(expected, error.status(), opening + ": " + error.getMessage());
                assertFalse(error.nativeMessage().isEmpty(), "the library says why");
            }
        }));
    }

    /**
     * corpus.json's "invalid" files open, but reading their values fails with the status it names, and validation
     * finds exactly the violation it names (rule and byte offset).
     */
    @TestFactory
    Stream<DynamicTest> invalidFilesAreRefusedWithTheirRule() {
        return DaphneCorpus.invalid().stream().map(entry -> DynamicTest.dynamicTest(DaphneCorpus.fileOf(entry), () -> {
            Status expected = Status.valueOf(((String) entry.get("status")).toUpperCase(java.util.Locale.ROOT));
            for (String opening : openingNames()) {
                try (Reader reader = OPENINGS.get(opening).apply(DaphneCorpus.pathOf(entry))) {
                    int cells = Math.toIntExact(reader.info().rows() * reader.info().cols());
                    DbdfException error = assertThrows(DbdfException.class,
                            () -> TypedOverloads.call(reader, "readDense", ValueType.F64, new double[cells], 0L),
                            opening);
                    assertEquals(expected, error.status(), opening + ": " + error.getMessage());
                    assertEquals(List.of(DaphneCorpus.integer(entry, "rule"), DaphneCorpus.integer(entry, "offset")),
                            reader.violations().stream().flatMap(v -> Stream.of((long) v.rule(), v.offset())).toList(),
                            opening + ": the one violation");
                }
            }
        }));
    }

    private static void checkObject(Map<String, Object> entry, Reader reader) {
        DataType dataType = DaphneCorpus.dataTypeOf(entry);
        assertEquals(Dialect.DAPHNE, reader.dialect());
        assertEquals(dataType, reader.info().dataType(), "data type");
        assertEquals(DaphneCorpus.integer(entry, "rows"), reader.info().rows(), "rows");
        assertEquals(DaphneCorpus.integer(entry, "cols"), reader.info().cols(), "cols");
        switch (dataType) {
            case DENSE, SCALAR -> checkDense(entry, reader);
            case CSR -> checkCsr(entry, reader);
            case FRAME -> checkFrame(entry, reader);
            default -> fail("corpus data type " + dataType + " is not covered");
        }
        reader.validate();
        assertEquals(List.of(), reader.violations());
    }

    private static void checkDense(Map<String, Object> entry, Reader reader) {
        ValueType type = DaphneCorpus.valueTypeOf(entry);
        assertEquals(type, reader.info().valueType(), "value type");
        assertTrue(reader.labelsRecoverable(), "a matrix has no labels to lose");
        Object values = TestData.newArray(type, Math.toIntExact(reader.info().rows() * reader.info().cols()));
        TypedOverloads.call(reader, "readDense", type, values, 0L);
        DaphneCorpus.assertSameValues(type, DaphneCorpus.values(entry, "values", type), values, "values");
        // One block at (0, 0) covering the object, as the runtime writes it.
        assertEquals(1, reader.buildIndex(), "blocks");
        BlockInfo block = reader.indexEntry(0);
        assertEquals(0, block.row());
        assertEquals(0, block.col());
        assertEquals(reader.info().rows(), block.rows());
        assertEquals(reader.info().cols(), block.cols());
        assertEquals(BlockType.DENSE, block.blockType());
    }

    private static void checkCsr(Map<String, Object> entry, Reader reader) {
        ValueType type = DaphneCorpus.valueTypeOf(entry);
        assertEquals(type, reader.info().valueType(), "value type");
        assertTrue(reader.labelsRecoverable(), "a matrix has no labels to lose");
        long entries = reader.countEntries();
        assertEquals(DaphneCorpus.count(entry, "values"), entries, "entries");
        long[] rowOffsets = new long[Math.toIntExact(reader.info().rows() + 1)];
        long[] colIndices = new long[Math.toIntExact(entries)];
        Object values = TestData.newArray(type, Math.toIntExact(entries));
        assertEquals(entries, TypedOverloads.call(reader, "readCsr", type, rowOffsets, colIndices, values));
        assertArrayEquals(DaphneCorpus.rowOffsets(entry), rowOffsets, "row offsets");
        assertArrayEquals(DaphneCorpus.colIndices(entry), colIndices, "column indices");
        DaphneCorpus.assertSameValues(type, DaphneCorpus.values(entry, "values", type), values, "values");
        assertEquals(1, reader.buildIndex(), "blocks");
        assertEquals(BlockType.CSR, reader.indexEntry(0).blockType());
    }

    private static void checkFrame(Map<String, Object> entry, Reader reader) {
        assertEquals(DaphneCorpus.isTrue(entry, "labels_recoverable"), reader.labelsRecoverable(),
                "labels recoverable");
        List<Map<String, Object>> columns = DaphneCorpus.columns(entry);
        assertEquals(columns.size(), reader.info().cols(), "columns");
        for (int column = 0; column < columns.size(); column++) {
            String where = "column " + column;
            ValueType type = DaphneCorpus.valueTypeOf(columns.get(column));
            assertEquals(columns.get(column).get("label"), reader.columnLabel(column), where + " label");
            assertEquals(type, reader.columnType(column), where + " type");
            Object values = TestData.newArray(type, Math.toIntExact(reader.info().rows()));
            TypedOverloads.call(reader, "readColumn", (long) column, type, values);
            DaphneCorpus.assertSameValues(type, DaphneCorpus.values(columns.get(column), "values", type), values,
                    where);
        }
    }

    /**
     * corpus.json accounts for every file of the folder: each data file has an entry of "files" (or is the sidecar
     * of one), the runtime's sidecars of the large files that are not copied are under "meta" and read as the
     * dense form of their shape, and the large files themselves ("regenerated") are not in the folder.
     */
    @Test
    @SuppressWarnings("unchecked")
    void corpusDescribesEveryFileOfTheFolder() throws IOException {
        Map<String, Object> description = DaphneCorpus.description();
        List<String> described = new ArrayList<>(List.of("README.md", "corpus.json"));
        for (Map<String, Object> entry : DaphneCorpus.invalid()) {
            described.add(DaphneCorpus.fileOf(entry));
        }
        for (Map<String, Object> entry : DaphneCorpus.entries()) {
            described.add(DaphneCorpus.fileOf(entry));
            if (entry.containsKey("meta")) {
                described.add((String) entry.get("meta"));
            } else if (entry.containsKey("refused")
                    && Files.exists(DaphneCorpus.pathOf(DaphneCorpus.fileOf(entry) + ".meta"))) {
                // The runtime's sidecar of a file dbdf refuses: nothing reads or writes it.
                described.add(DaphneCorpus.fileOf(entry) + ".meta");
            }
        }
        Map<String, Map<String, Object>> sidecars = (Map<String, Map<String, Object>>) description.get("meta");
        for (Map.Entry<String, Map<String, Object>> sidecar : sidecars.entrySet()) {
            Map<String, Object> shape = sidecar.getValue();
            assertEquals(DaphneCorpus.matrixMeta(DataType.DENSE, DaphneCorpus.integer(shape, "rows"),
                    DaphneCorpus.integer(shape, "cols"), DaphneCorpus.valueTypeOf(shape), 0),
                    Files.readString(DaphneCorpus.pathOf(sidecar.getKey()), StandardCharsets.UTF_8), sidecar.getKey());
            described.add(sidecar.getKey());
        }
        for (Map<String, Object> regenerated : (List<Map<String, Object>>) description.get("regenerated")) {
            assertFalse(Files.exists(DaphneCorpus.pathOf(regenerated)), DaphneCorpus.fileOf(regenerated));
            if (regenerated.containsKey("meta")) {
                assertTrue(sidecars.containsKey((String) regenerated.get("meta")), DaphneCorpus.fileOf(regenerated));
            }
        }
        List<String> present;
        try (Stream<Path> files = Files.list(DaphneCorpus.DIRECTORY)) {
            present = files.map(file -> file.getFileName().toString()).sorted().toList();
        }
        assertEquals(described.stream().sorted().toList(), present);
    }

    @Test
    void framesReportDefaultLabelsAsNotRecoverable() {
        try (Reader frame = Reader.open(DaphneCorpus.pathOf("frame_mixed.dbdf").toString(), Dialect.DAPHNE)) {
            assertFalse(frame.labelsRecoverable());
            assertEquals("col_0", frame.columnLabel(0));
            assertEquals("col_2", frame.columnLabel(2));
            assertEquals(ValueType.F32, frame.columnType(2));
            long[] ids = new long[4];
            frame.readColumn(0, ValueType.I64, ids);
            assertArrayEquals(new long[] {1000, 1001, 1002, 1003}, ids);
        }
    }

    @Test
    void directBuffersReadInPlaceInTheDaphneDialect() throws IOException {
        ByteBuffer buffer = directBufferOf(Files.readAllBytes(DaphneCorpus.pathOf("csr_f64_6x5.dbdf")));
        try (Reader reader = Reader.fromBuffer(buffer, Dialect.DAPHNE)) {
            assertEquals(Dialect.DAPHNE, reader.dialect());
            assertEquals(DataType.CSR, reader.info().dataType());
            assertEquals(7, reader.countEntries());
            double[] dense = reader.readDoubles();
            assertEquals(-2.25, dense[0 * 5 + 4]);
            assertEquals(7.125, dense[4 * 5 + 1]);
        }
    }

    /** Nothing guesses the dialect: the runtime's bytes are not a spec file. */
    @Test
    void theSpecDialectDoesNotAcceptTheRuntimesLayout() throws IOException {
        for (String file : List.of("csr_f64_6x5.dbdf", "dense_f64_3x4.dbdf")) {
            byte[] bytes = Files.readAllBytes(DaphneCorpus.pathOf(file));
            DbdfException error = assertThrows(DbdfException.class, () -> {
                try (Reader spec = Reader.fromBytes(bytes)) {
                    assertEquals(Dialect.SPEC, spec.dialect());
                    spec.validate();
                }
            }, file);
            assertTrue(error.status().isInvalidData(), file + ": " + error.getMessage());
            try (Reader daphne = Reader.fromBytes(bytes, Dialect.DAPHNE)) {
                daphne.validate();
            }
        }
        try (Reader spec = Reader.fromBytes(CrossLanguageMatrix.bytes())) {
            assertEquals(Dialect.SPEC, spec.dialect());
            assertTrue(spec.labelsRecoverable());
        }
    }

    @Test
    void nullArgumentsAreRejected() throws IOException {
        Path path = DaphneCorpus.pathOf("dense_f64_3x4.dbdf");
        byte[] bytes = Files.readAllBytes(path);
        assertThrows(NullPointerException.class, () -> Reader.open((Path) null, Dialect.DAPHNE));
        assertThrows(NullPointerException.class, () -> Reader.open((String) null, Dialect.DAPHNE));
        assertThrows(NullPointerException.class, () -> Reader.open(path, (Dialect) null));
        assertThrows(NullPointerException.class, () -> Reader.fromBytes(null, Dialect.DAPHNE));
        assertThrows(NullPointerException.class, () -> Reader.fromBytes(bytes, (Dialect) null));
        assertThrows(NullPointerException.class, () -> Reader.fromBuffer(null, Dialect.DAPHNE));
    }
}
