package org.dbdf;

import java.nio.file.Path;

/**
 * The matrix every language writes and checks: a DenseMatrix of f64, 6 x 5, value(i, j) = 0.0 when (i + j) % 3 == 0,
 * else (i * 5 + j) * 0.5, written with write_dense in 4 x 3 blocks and automatic encoding.
 *
 * <p>Run as a program ({@code write FILE} or {@code check FILE}, exit status 0 on success) by the cross-language
 * CTest tests, next to the C example doing the same.
 */
public final class CrossLanguageMatrix {
    public static final int ROWS = 6;
    public static final int COLS = 5;
    public static final int BLOCK_ROWS = 4;
    public static final int BLOCK_COLS = 3;

    private CrossLanguageMatrix() {
    }

    public static double value(int row, int col) {
        return (row + col) % 3 == 0 ? 0.0 : (row * COLS + col) * 0.5;
    }

    public static double[] values() {
        double[] values = new double[ROWS * COLS];
        for (int row = 0; row < ROWS; row++) {
            for (int col = 0; col < COLS; col++) {
                values[row * COLS + col] = value(row, col);
            }
        }
        return values;
    }

    /** The matrix written to memory, as the bytes of a finished object. */
    public static byte[] bytes() {
        try (Writer writer = Writer.toMemory()) {
            writer.beginMatrix(DataType.DENSE, ValueType.F64, ROWS, COLS);
            writer.writeDense(ValueType.F64, values(), 0, Encoding.AUTO, BLOCK_ROWS, BLOCK_COLS);
            writer.finish();
            return writer.toByteArray();
        }
    }

    public static void write(Path path) {
        try (Writer writer = Writer.toFile(path)) {
            writer.beginMatrix(DataType.DENSE, ValueType.F64, ROWS, COLS);
            writer.writeDense(ValueType.F64, values(), 0, Encoding.AUTO, BLOCK_ROWS, BLOCK_COLS);
            writer.finish();
        }
    }

    /** Null when the file holds exactly the matrix, else what differs. */
    public static String mismatch(Path path) {
        try (Reader reader = Reader.open(path)) {
            ObjectInfo info = reader.info();
            if (info.dataType() != DataType.DENSE || info.valueType() != ValueType.F64 || info.rows() != ROWS
                    || info.cols() != COLS) {
                return "header is " + info + ", expected a 6 x 5 DenseMatrix of F64";
            }
            reader.validate();
            double[] actual = reader.readDoubles();
            for (int row = 0; row < ROWS; row++) {
                for (int col = 0; col < COLS; col++) {
                    long expectedBits = Double.doubleToRawLongBits(value(row, col));
                    long actualBits = Double.doubleToRawLongBits(actual[row * COLS + col]);
                    if (expectedBits != actualBits) {
                        return "value(" + row + ", " + col + ") is " + actual[row * COLS + col] + ", expected "
                                + value(row, col);
                    }
                }
            }
            return null;
        }
    }

    public static void main(String[] args) {
        if (args.length != 2 || !(args[0].equals("write") || args[0].equals("check"))) {
            System.err.println("usage: CrossLanguageMatrix write|check FILE");
            System.exit(2);
        }
        Path path = Path.of(args[1]);
        try {
            if (args[0].equals("write")) {
                write(path);
                System.out.println("wrote the cross-language matrix to " + path);
                return;
            }
            String mismatch = mismatch(path);
            if (mismatch != null) {
                System.err.println(path + ": " + mismatch);
                System.exit(1);
            }
            System.out.println(path + ": holds the cross-language matrix");
        } catch (DbdfException error) {
            System.err.println(path + ": " + error.getMessage());
            System.exit(1);
        }
    }
}
