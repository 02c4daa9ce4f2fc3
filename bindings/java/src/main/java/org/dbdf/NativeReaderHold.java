package org.dbdf;

/**
 * One reference to a native reader, held by something other than its {@link Reader} (an Arrow stream that borrows
 * it): the native reader is not freed before this is closed. Closing is idempotent.
 */
final class NativeReaderHold implements AutoCloseable {
    private final SharedNativeReader state;
    private boolean released;

    NativeReaderHold(SharedNativeReader state) {
        this.state = state;
    }

    @Override
    public synchronized void close() {
        if (!released) {
            released = true;
            state.release();
        }
    }
}
