package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * One handle shared by several threads, against the C header's rule (one thread at a time), and closed while they
 * run: every call either completes with correct data or throws IllegalStateException; nothing else escapes and the
 * JVM never crashes.
 */
class ConcurrentMisuseTest {
    private static final int THREADS = 4;
    private static final int CALLS_PER_THREAD = 2_000;

    /** Runs `call` on THREADS threads until each made CALLS_PER_THREAD calls or saw the handle closed. */
    private static int hammerThenClose(Runnable call, AutoCloseable handle) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch started = new CountDownLatch(THREADS);
        AtomicInteger closedSeen = new AtomicInteger();
        List<Future<?>> results = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            results.add(pool.submit(() -> {
                started.countDown();
                for (int i = 0; i < CALLS_PER_THREAD; i++) {
                    try {
                        call.run();
                    } catch (IllegalStateException closed) {
                        closedSeen.incrementAndGet();
                        return null;
                    }
                }
                return null;
            }));
        }
        started.await();
        Thread.sleep(5);
        handle.close();
        for (Future<?> result : results) {
            result.get(60, TimeUnit.SECONDS);  // rethrows anything but IllegalStateException
        }
        pool.shutdown();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        return closedSeen.get();
    }

    @Test
    void sharedReaderClosedWhileReadingThrowsOnlyIllegalState() throws Exception {
        Reader reader = Reader.fromBytes(CrossLanguageMatrix.bytes());
        double[] expected = CrossLanguageMatrix.values();
        hammerThenClose(() -> {
            double[] values = reader.readDoubles();
            assertArrayEquals(expected, values);
            // Iterations of different threads interleave; each call still sees a consistent block or fails cleanly.
            reader.rewind();
            for (Block block : reader.blocks()) {
                assertTrue(block.rows() >= 1 && block.rows() <= 4);
            }
        }, reader);
        assertTrue(reader.isClosed());
    }

    @Test
    void sharedWriterClosedWhileAddingThrowsOnlyIllegalStateOrItsOwnErrors() throws Exception {
        Writer writer = Writer.toMemory();
        writer.beginMatrix(DataType.DENSE, ValueType.F64, 1, 1L << 20);
        AtomicInteger nextColumn = new AtomicInteger();
        hammerThenClose(() -> {
            int column = nextColumn.getAndIncrement();
            if (column >= (1 << 20)) {
                return;
            }
            writer.addDense(0, column, 1, 1, new double[] {column});
        }, writer);
        assertTrue(writer.isClosed());
    }

    @Test
    void separateReadersOverTheSameBytesRunConcurrently() throws Exception {
        byte[] bytes = CrossLanguageMatrix.bytes();
        double[] expected = CrossLanguageMatrix.values();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<Integer>> results = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            results.add(pool.submit(() -> {
                int reads = 0;
                try (Reader reader = Reader.fromBytes(bytes)) {
                    for (int i = 0; i < 500; i++) {
                        assertArrayEquals(expected, reader.readDoubles());
                        reads++;
                    }
                }
                return reads;
            }));
        }
        for (Future<Integer> result : results) {
            assertEquals(500, result.get(60, TimeUnit.SECONDS));
        }
        pool.shutdown();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }
}
