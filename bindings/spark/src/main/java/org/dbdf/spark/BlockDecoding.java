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

    /** Blocks whose payload was decoded in this JVM since it started, by every reader of this data source. */
    static long decodedBlocks() {
        return DECODED_BLOCKS.get();
    }

    /** Decodes the block as dense row-major values of {@code type} into {@code values} (rows * cols of them). */
    static void decodeDense(Block block, ValueType type, Object values) {
        DECODED_BLOCKS.incrementAndGet();
        if (values instanceof double[] array) {
            block.decodeDense(type, array);
        } else if (values instanceof float[] array) {
            block.decodeDense(type, array);
        } else if (values instanceof long[] array) {
            block.decodeDense(type, array);
        } else if (values instanceof int[] array) {
            block.decodeDense(type, array);
        } else if (values instanceof short[] array) {
            block.decodeDense(type, array);
        } else if (values instanceof byte[] array) {
            block.decodeDense(type, array);
        } else {
            throw new IllegalArgumentException("not a primitive value array: " + values.getClass());
        }
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

    /** Copies {@code count} values taken {@code stride} apart from {@code source} into consecutive places. */
    static void copyStrided(Object source, int sourceStart, int stride, Object target, int targetStart, int count) {
        if (stride == 1) {
            System.arraycopy(source, sourceStart, target, targetStart, count);
        } else if (source instanceof double[] from && target instanceof double[] to) {
            for (int i = 0; i < count; i++) {
                to[targetStart + i] = from[sourceStart + i * stride];
            }
        } else if (source instanceof float[] from && target instanceof float[] to) {
            for (int i = 0; i < count; i++) {
                to[targetStart + i] = from[sourceStart + i * stride];
            }
        } else if (source instanceof long[] from && target instanceof long[] to) {
            for (int i = 0; i < count; i++) {
                to[targetStart + i] = from[sourceStart + i * stride];
            }
        } else if (source instanceof int[] from && target instanceof int[] to) {
            for (int i = 0; i < count; i++) {
                to[targetStart + i] = from[sourceStart + i * stride];
            }
        } else if (source instanceof short[] from && target instanceof short[] to) {
            for (int i = 0; i < count; i++) {
                to[targetStart + i] = from[sourceStart + i * stride];
            }
        } else if (source instanceof byte[] from && target instanceof byte[] to) {
            for (int i = 0; i < count; i++) {
                to[targetStart + i] = from[sourceStart + i * stride];
            }
        } else {
            throw new IllegalArgumentException("arrays of different classes: " + source.getClass() + ", "
                    + target.getClass());
        }
    }
}
