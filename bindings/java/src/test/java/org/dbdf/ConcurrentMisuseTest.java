package org.dbdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

import org.junit.jupiter.api.Test;

/**
 * One handle shared by several threads, against the C header's rule (one thread at a time), and closed while they
 * call it. Reader and Writer methods are synchronized on the handle, so the test holds that lock until every
 * thread is blocked entering a call, and then closes the handle: each of those calls began before close() and ends
 * after it, which makes the race certain instead of leaving it to timing. Every call must complete, or throw
 * DbdfException, or throw IllegalStateException because the handle is closed; anything else fails the test (and a
 * JVM crash fails the surefire fork).
 */
class ConcurrentMisuseTest {
    private static final int THREADS = 4;
    /** Calls each thread makes before the handle is closed, enough for every kind of call in the loops below. */
    private static final int CALLS_BEFORE_CLOSE = 10;
    private static final long TIMEOUT_SECONDS = 60;

    /** How the calls of one thread ended. */
    private static final class Outcomes {
        final AtomicInteger completed = new AtomicInteger();
        final AtomicInteger libraryErrors = new AtomicInteger();
        /** The exception that stopped the thread: expected to be the IllegalStateException of a closed handle. */
        volatile Throwable last;
    }

    /** Calls {@code call} with 0, 1, 2, ... until it throws anything but DbdfException. */
    private static void callUntilStopped(IntConsumer call, Outcomes outcomes, CountDownLatch warmedUp) {
        for (int number = 0; ; number++) {
            try {
                call.accept(number);
                outcomes.completed.incrementAndGet();
            } catch (DbdfException expected) {
                outcomes.libraryErrors.incrementAndGet();
            } catch (Throwable stop) {
                outcomes.last = stop;
                if (number < CALLS_BEFORE_CLOSE) {
                    warmedUp.countDown();  // stopped early: the checks after close() report why
                }
                return;
            }
            if (number + 1 == CALLS_BEFORE_CLOSE) {
                warmedUp.countDown();
            }
        }
    }

    /** True when every thread is blocked waiting for the monitor of {@code handle}, or has stopped. */
    private static boolean allBlockedOn(Object handle, List<Thread> threads) {
        ThreadMXBean threadBean = ManagementFactory.getThreadMXBean();
        for (Thread thread : threads) {
            ThreadInfo info = threadBean.getThreadInfo(thread.getId());
            boolean blockedOnHandle = info != null && info.getThreadState() == Thread.State.BLOCKED
                    && info.getLockInfo() != null
                    && info.getLockInfo().getIdentityHashCode() == System.identityHashCode(handle);
            if (!blockedOnHandle && thread.isAlive()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Runs {@code call} on THREADS threads, closes {@code handle} while every thread is inside a call, and checks
     * how the calls ended. Returns each thread's outcomes.
     */
    private static List<Outcomes> closeWhileCalling(IntConsumer call, AutoCloseable handle, String closedMessage)
            throws Exception {
        CountDownLatch warmedUp = new CountDownLatch(THREADS);
        List<Outcomes> outcomes = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int index = 0; index < THREADS; index++) {
            Outcomes threadOutcomes = new Outcomes();
            outcomes.add(threadOutcomes);
            threads.add(new Thread(() -> callUntilStopped(call, threadOutcomes, warmedUp), "caller-" + index));
        }
        threads.forEach(Thread::start);
        assertTrue(warmedUp.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "every thread made its first calls");

        synchronized (handle) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
            while (!allBlockedOn(handle, threads)) {
                assertTrue(System.nanoTime() < deadline, "every thread waits to enter a call");
                Thread.sleep(1);
            }
            handle.close();
        }

        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            assertFalse(thread.isAlive(), thread.getName() + " stopped calling");
        }
        for (Outcomes threadOutcomes : outcomes) {
            assertTrue(threadOutcomes.completed.get() + threadOutcomes.libraryErrors.get() >= CALLS_BEFORE_CLOSE);
            // The call that was waiting when close() ran saw the handle closed, and nothing else stopped the thread.
            IllegalStateException closed = assertInstanceOf(IllegalStateException.class, threadOutcomes.last,
                    () -> "a call racing close() ended in " + threadOutcomes.last);
            assertEquals(closedMessage, closed.getMessage());
        }
        return outcomes;
    }

    @Test
    void sharedReaderClosedWhileReading() throws Exception {
        Reader reader = Reader.fromBytes(CrossLanguageMatrix.bytes());
        double[] expected = CrossLanguageMatrix.values();
        long blocks = reader.buildIndex();
        // Calls that do not depend on the reader's current block, which the threads would move under each other.
        List<Outcomes> outcomes = closeWhileCalling(number -> {
            switch (number % 5) {
                case 0 -> assertArrayEquals(expected, reader.readDoubles());
                case 1 -> assertEquals(number % blocks, reader.indexEntry(number % blocks).index());
                case 2 -> reader.indexEntry(blocks);  // past the last block: DbdfException (INVALID_ARGUMENT)
                case 3 -> reader.validate();
                default -> assertEquals(List.of(), reader.violations());
            }
        }, reader, "the reader is closed");
        assertTrue(reader.isClosed());
        for (Outcomes threadOutcomes : outcomes) {
            assertTrue(threadOutcomes.libraryErrors.get() >= 1, "indexEntry past the last block failed");
            assertTrue(threadOutcomes.completed.get() >= CALLS_BEFORE_CLOSE / 2);
        }
    }

    @Test
    void sharedWriterClosedWhileAdding() throws Exception {
        Writer writer = Writer.toMemory();
        // Fewer columns than the calls made before close(): the later blocks overlap and fail in the library.
        int columns = THREADS * CALLS_BEFORE_CLOSE / 2;
        writer.beginMatrix(DataType.DENSE, ValueType.F64, 1, columns);
        AtomicInteger attempts = new AtomicInteger();
        List<Outcomes> outcomes = closeWhileCalling(number -> {
            int column = attempts.getAndIncrement() % columns;
            writer.addDense(0, column, 1, 1, new double[] {column});
        }, writer, "the writer is closed");
        assertTrue(writer.isClosed());
        int added = outcomes.stream().mapToInt(threadOutcomes -> threadOutcomes.completed.get()).sum();
        int failed = outcomes.stream().mapToInt(threadOutcomes -> threadOutcomes.libraryErrors.get()).sum();
        assertTrue(added <= columns, added + " blocks added to " + columns + " columns");
        assertTrue(failed >= THREADS * CALLS_BEFORE_CLOSE - columns, failed + " overlapping blocks refused");
        // Every attempt ended one way or the other; each thread's last one on the closed writer.
        assertEquals(attempts.get(), added + failed + THREADS);
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
