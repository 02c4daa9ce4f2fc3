package org.dbdf;

/**
 * One reference to a native reader, held by something other than its {@link Reader} (an Arrow stream that borrows
 * it): the native reader is not freed before this is closed. Closing is idempotent and tells the Reader
 * ({@code onRelease}) that it may be used again.
 */
final class NativeReaderHold implements AutoCloseable {
    private final SharedNativeReader state;
    private final Runnable onRelease;
    private boolean released;

    NativeReaderHold(SharedNativeReader state, Runnable onRelease) {
        this.state = state;
        this.onRelease = onRelease;
    }

    @Override
    public synchronized void close() {
        if (!released) {
            released = true;
            try {
                onRelease.run();
            } finally {
                state.release();
            }
        }
    }
}
