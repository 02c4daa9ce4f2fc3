package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file that another process shortens while a reader has it open: the reads that need the lost bytes throw
 * DbdfException (Status.IO), where a mapped file used to kill the JVM with SIGBUS in the native decode.
 */
class ChangingFileTest {
    private static final int SIDE = 512;

    @TempDir
    Path temporary;

    private Path writeLargeFile() {
        Path file = temporary.resolve("large.dbdf");
        double[] values = new double[SIDE * SIDE];
        for (int index = 0; index < values.length; index++) {
            values[index] = index % 1000 + 0.5;
        }
        try (Writer writer = Writer.toFile(file)) {
            writer.beginMatrix(DataType.DENSE, ValueType.F64, SIDE, SIDE);
            writer.writeDense(ValueType.F64, values, 0, Encoding.DENSE, 128, 128);
            writer.finish();
        }
        return file;
    }

    private static void assertShrank(DbdfException error) {
        assertEquals(Status.IO, error.status());
        assertTrue(error.getMessage().contains("the file shrank while being read"), error.getMessage());
    }

    @Test
    void truncatedBetweenListingAndDecodingThrows() throws Exception {
        Path file = writeLargeFile();
        try (Reader reader = Reader.open(file)) {
            assertEquals(16, reader.buildIndex());
            try (RandomAccessFile shortened = new RandomAccessFile(file.toFile(), "rw")) {
                shortened.setLength(100);
            }
            double[] values = new double[SIDE * SIDE];
            assertShrank(assertThrows(DbdfException.class, () -> reader.readDense(values)));
            Block block = reader.seekBlock(2);
            double[] blockValues = new double[128 * 128];
            assertShrank(assertThrows(DbdfException.class, () -> block.decodeDense(blockValues)));
            assertShrank(assertThrows(DbdfException.class, block::payload));
        }
    }
}
