package org.dbdf.spark;

import java.util.concurrent.atomic.AtomicLong;
import org.dbdf.Block;
import org.dbdf.ValueType;

/**
 * Calls the binding's per-array overloads for an array whose class is known only at run time, and counts the
 * blocks decoded in this JVM (what column pruning saves is visible in {@link #decodedBlocks()}).
 */
final class BlockDecoding {
    private static final AtomicLong DECODED_BLOCKS = new AtomicLong();

    private BlockDecoding() {
    }

    /**
     * Blocks whose payload was read and decoded in this JVM since it started, by every reader of this data source (a
     * block counts once per row band read, however many slices and selected columns of it are decoded).
     */
    static long decodedBlocks() {
        return DECODED_BLOCKS.get();
    }

    /** Counts {@code count} blocks read by a window read (ColumnarBandReader), which decodes them in the library. */
    static void countBlocks(long count) {
        DECODED_BLOCKS.addAndGet(count);
    }

    /** Decodes the block's stored entries as COO triplets with block-local indices; returns how many. */
    static int decodeCoo(Block block, ValueType type, int[] rows, int[] cols, Object values) {
        DECODED_BLOCKS.incrementAndGet();
        long count;
        if (values instanceof double[] array) {
            count = block.decodeCoo(type, rows, cols, array);
        } else if (values instanceof float[] array) {
            count = block.decodeCoo(type, rows, cols, array);
        } else if (values instanceof long[] array) {
            count = block.decodeCoo(type, rows, cols, array);
        } else if (values instanceof int[] array) {
            count = block.decodeCoo(type, rows, cols, array);
        } else if (values instanceof short[] array) {
            count = block.decodeCoo(type, rows, cols, array);
        } else if (values instanceof byte[] array) {
            count = block.decodeCoo(type, rows, cols, array);
        } else {
            throw new IllegalArgumentException("not a primitive value array: " + values.getClass());
        }
        return Math.toIntExact(count);
    }
}
