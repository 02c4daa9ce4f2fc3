package org.example;

import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

import org.dbdf.DataType;
import org.dbdf.Reader;
import org.dbdf.ValueType;
import org.dbdf.Writer;

/**
 * Uses dbdf from its Maven package: writes a 2 x 3 matrix to the file named on the command line, reads it back, then
 * shows what a missing file throws. Exits with status 1 when anything differs from what is expected.
 */
public final class ReadBack {
    private ReadBack() {
    }

    public static void main(String[] args) {
        Path path = Path.of(args.length > 0 ? args[0] : "matrix.dbdf");
        double[] values = {1.5, 0.0, -2.0, 4.0, 8.25, -0.5};
        try (Writer writer = Writer.toFile(path)) {
            writer.beginMatrix(DataType.DENSE, ValueType.F64, 2, 3);
            writer.addDense(0, 0, 2, 3, values);
            writer.finish();
        }
        double[] readBack = new double[values.length];
        try (Reader reader = Reader.open(path)) {
            reader.readDense(readBack);
        }
        if (!Arrays.equals(values, readBack)) {
            System.err.println("read back " + Arrays.toString(readBack));
            System.exit(1);
        }
        System.out.println("round trip ok");

        // A missing file is an UncheckedIOException (org.dbdf.DbdfException) caused by NoSuchFileException.
        try (Reader reader = Reader.open(path.resolveSibling("absent.dbdf"))) {
            System.exit(1);
        } catch (UncheckedIOException error) {
            if (!(error.getCause() instanceof NoSuchFileException)) {
                System.exit(1);
            }
            System.out.println("missing file: " + error.getCause().getClass().getName());
        }
    }
}
