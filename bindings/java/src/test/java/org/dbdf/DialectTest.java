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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daphne dialect from Java, against the files DAPHNE's runtime wrote (tests/vectors/daphne-runtime). */
class DialectTest {
    private static final Path CORPUS =
            Path.of(System.getProperty("dbdf.vectors.dir", "../../tests/vectors")).resolve("daphne-runtime");

    @Test
    void readsRuntimeFilesInTheDaphneDialect() {
        try (Reader reader = Reader.open(CORPUS.resolve("dense_f64_3x4.dbdf"), Dialect.DAPHNE)) {
            assertEquals(Dialect.DAPHNE, reader.dialect());
            assertEquals(DataType.DENSE, reader.info().dataType());
            assertEquals(ValueType.F64, reader.info().valueType());
            double[] expected = new double[12];
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 4; c++) {
                    expected[r * 4 + c] = r * 10.0 + c + 0.5;
                }
            }
            assertArrayEquals(expected, reader.readDoubles());
        }
        try (Reader frame = Reader.open(CORPUS.resolve("frame_mixed.dbdf").toString(), Dialect.DAPHNE)) {
            assertFalse(frame.labelsRecoverable());
            assertEquals("col_0", frame.columnLabel(0));
            assertEquals(ValueType.F32, frame.columnType(2));
            long[] ids = new long[4];
            frame.readColumn(0, ValueType.I64, ids);
            assertArrayEquals(new long[] {1000, 1001, 1002, 1003}, ids);
        }
    }

    @Test
    void specModeStaysStrictAndStringsAreRefused() throws IOException {
        byte[] bytes = Files.readAllBytes(CORPUS.resolve("csr_f64_6x5.dbdf"));
        try (Reader spec = Reader.fromBytes(bytes)) {
            assertEquals(Dialect.SPEC, spec.dialect());
            assertThrows(DbdfException.class, spec::validate);
        }
        try (Reader daphne = Reader.fromBytes(bytes, Dialect.DAPHNE)) {
            assertTrue(daphne.labelsRecoverable());
            assertEquals(7, daphne.countEntries());
        }
        DbdfException refused = assertThrows(DbdfException.class,
                () -> Reader.open(CORPUS.resolve("dense_str_2x2.dbdf"), Dialect.DAPHNE));
        assertEquals(Status.UNSUPPORTED, refused.status());
    }

    @Test
    void writesTheRuntimesBytesAndMetaFile(@TempDir Path directory) throws IOException {
        double[] values = new double[12];
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 4; c++) {
                values[r * 4 + c] = r * 10.0 + c + 0.5;
            }
        }
        byte[] written;
        try (Writer writer = Writer.toMemory(Dialect.DAPHNE)) {
            assertEquals(Dialect.DAPHNE, writer.dialect());
            writer.beginMatrix(DataType.DENSE, ValueType.F64, 3, 4);
            writer.writeDense(values);
            writer.finish();
            written = writer.toByteArray();
        }
        assertArrayEquals(Files.readAllBytes(CORPUS.resolve("dense_f64_3x4.dbdf")), written);

        Path file = directory.resolve("m.dbdf");
        try (Writer writer = Writer.toFile(file, Dialect.DAPHNE, true)) {
            writer.beginMatrix(DataType.DENSE, ValueType.F64, 3, 4);
            writer.writeDense(values);
            writer.finish();
        }
        assertArrayEquals(written, Files.readAllBytes(file));
        assertEquals(Files.readString(CORPUS.resolve("dense_f64_3x4.dbdf.meta"), StandardCharsets.UTF_8),
                Files.readString(directory.resolve("m.dbdf.meta"), StandardCharsets.UTF_8));

        try (Writer refused = Writer.toMemory(Dialect.DAPHNE)) {
            DbdfException error = assertThrows(DbdfException.class,
                    () -> refused.beginMatrix(DataType.DENSE, ValueType.I16, 2, 2));
            assertEquals(Status.INVALID_ARGUMENT, error.status());
        }
    }
}
