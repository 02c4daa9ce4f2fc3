// Binding overhead, Java: decodes the only block of FILE (float64, dense) into a preallocated double[] REPEATS
// times and prints one JSON line with the median and minimum seconds (see ../block_read.c).
import java.util.Arrays;
import java.util.Locale;
import org.dbdf.Block;
import org.dbdf.Reader;

public final class BlockRead {
    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: BlockRead FILE REPEATS");
            System.exit(2);
        }
        int repeats = Integer.parseInt(args[1]);
        try (Reader reader = Reader.open(args[0])) {
            if (!reader.nextBlock()) throw new IllegalStateException(args[0] + " has no block");
            Block block = reader.block();
            double[] values = new double[Math.toIntExact(block.rows() * block.cols())];
            double[] seconds = new double[repeats];
            for (int run = -1; run < repeats; ++run) {  // run -1 warms up (class loading, JIT of the call path)
                long start = System.nanoTime();
                block.decodeDense(values);
                if (run >= 0) seconds[run] = (System.nanoTime() - start) * 1e-9;
            }
            Arrays.sort(seconds);
            System.out.printf(Locale.ROOT,
                    "{\"language\": \"java\", \"median_seconds\": %.9f, \"min_seconds\": %.9f, \"bytes\": %d, "
                            + "\"check\": %.17g}%n",
                    seconds[repeats / 2], seconds[0], (long) values.length * Double.BYTES, values[values.length - 1]);
        }
    }
}
