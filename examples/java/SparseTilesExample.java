import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.dbdf.Block;
import org.dbdf.BlockType;
import org.dbdf.DataType;
import org.dbdf.ObjectInfo;
import org.dbdf.Reader;
import org.dbdf.ValueType;
import org.dbdf.Writer;

/**
 * Writes a sparse 1000 x 700 matrix tile by tile (256 x 256 tiles, each added from CSR arrays and encoded
 * automatically), reads it back block by block, and prints a summary. Exits with status 1 if what was read differs
 * from what was written.
 *
 * <p>Usage: java -cp dbdf.jar:. SparseTilesExample OUTPUT.dbdf
 */
public final class SparseTilesExample {
    private static final int ROWS = 1000;
    private static final int COLS = 700;
    private static final int TILE = 256;

    /** The matrix: a banded pattern, plus one tile left entirely zero and one tile dense with small integers. */
    static double value(int row, int col) {
        int tileRow = row / TILE;
        int tileCol = col / TILE;
        if (tileRow == 1 && tileCol == 1) {
            return 0.0;
        }
        if (tileRow == 3 && tileCol == 2) {
            return (row + col) % 7 + 1;
        }
        int distance = Math.abs(row - col);
        return distance % 97 == 0 ? row * 0.25 - col : 0.0;
    }

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: SparseTilesExample OUTPUT.dbdf");
            System.exit(2);
        }
        Path path = Path.of(args[0]);

        double expectedSum = 0;
        long expectedNonZeros = 0;
        try (Writer writer = Writer.toFile(path)) {
            writer.beginMatrix(DataType.CSR, ValueType.F64, ROWS, COLS);
            for (int tileRow = 0; tileRow < ROWS; tileRow += TILE) {
                for (int tileCol = 0; tileCol < COLS; tileCol += TILE) {
                    int rows = Math.min(TILE, ROWS - tileRow);
                    int cols = Math.min(TILE, COLS - tileCol);
                    long[] rowOffsets = new long[rows + 1];
                    List<Integer> colIndices = new ArrayList<>();
                    List<Double> values = new ArrayList<>();
                    for (int i = 0; i < rows; i++) {
                        for (int j = 0; j < cols; j++) {
                            double value = value(tileRow + i, tileCol + j);
                            if (value != 0.0) {
                                colIndices.add(j);
                                values.add(value);
                                expectedSum += value;
                            }
                        }
                        rowOffsets[i + 1] = colIndices.size();
                    }
                    expectedNonZeros += values.size();
                    writer.addCsr(tileRow, tileCol, rows, cols, ValueType.F64, rowOffsets,
                            colIndices.stream().mapToInt(Integer::intValue).toArray(),
                            values.stream().mapToDouble(Double::doubleValue).toArray());
                }
            }
            writer.finish();
            System.out.printf("wrote %s: %d bytes%n", path, writer.bytesWritten());
        }

        try (Reader reader = Reader.open(path)) {
            ObjectInfo info = reader.info();
            System.out.printf("object: %s %s, %d x %d%n", info.dataType(), info.valueType(), info.rows(),
                    info.cols());
            Map<BlockType, Integer> blocksByType = new EnumMap<>(BlockType.class);
            double sum = 0;
            long nonZeros = 0;
            boolean valuesMatch = true;
            for (Block block : reader.blocks()) {
                blocksByType.merge(block.blockType(), 1, Integer::sum);
                double[] values = block.toDoubleArray();
                long blockNonZeros = 0;
                for (int i = 0; i < block.rows(); i++) {
                    for (int j = 0; j < block.cols(); j++) {
                        double value = values[(int) (i * block.cols() + j)];
                        if (value != value((int) block.row() + i, (int) block.col() + j)) {
                            valuesMatch = false;
                        }
                        if (value != 0.0) {
                            blockNonZeros++;
                            sum += value;
                        }
                    }
                }
                nonZeros += blockNonZeros;
                System.out.printf("  block %2d at (%4d, %4d) %3d x %3d  %-5s %-3s  %6d non-zeros, %7d bytes%n",
                        block.index(), block.row(), block.col(), block.rows(), block.cols(), block.blockType(),
                        block.valueType(), blockNonZeros, block.info().encodedBytes());
            }
            System.out.printf("blocks by type: %s%n", blocksByType);
            System.out.printf("non-zeros: %d (written %d), sum: %.2f (written %.2f)%n", nonZeros, expectedNonZeros,
                    sum, expectedSum);
            if (!valuesMatch || nonZeros != expectedNonZeros || sum != expectedSum) {
                System.err.println("the values read back differ from those written");
                System.exit(1);
            }
        }
    }
}
