package org.dbdf;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;

/**
 * The native reader and the memory it reads, shared by a {@link Reader} and by every payload buffer the reader
 * handed out. Each of them holds one reference: the Reader until it is closed (or, never closed, until a Cleaner
 * finds it unreachable), each payload buffer until a Cleaner finds it unreachable. The native reader is freed when
 * the last reference is released, because a payload buffer points into the reader's input (a mapped file or a
 * borrowed direct buffer), which must stay valid for as long as the buffer can be read.
 */
final class SharedNativeReader {
    final NativeReader reader;
    /** Receives the description of the current block; used under the Reader's lock only. */
    final NativeBlockInfo scratch = new NativeBlockInfo();
    /** Memory the native reader reads in place (null for a file); referenced here so it outlives the native reader. */
    private final ByteBuffer borrowed;
    private int references = 1;

    SharedNativeReader(NativeReader reader, ByteBuffer borrowed) {
        this.reader = reader;
        this.borrowed = borrowed;
    }

    /** The memory the native reader reads in place, or null for a file or a byte source. */
    ByteBuffer borrowed() {
        return borrowed;
    }

    /** Adds a reference for one more holder; the native reader must not be freed yet. */
    synchronized void retain() {
        if (references == 0) {
            throw new IllegalStateException("the native reader is already freed");
        }
        references++;
    }

    /** Drops one holder's reference and frees the native reader when it was the last. */
    synchronized void release() {
        if (references == 0) {
            throw new IllegalStateException("the native reader is already freed");
        }
        references--;
        if (references == 0) {
            reader.delete();
            scratch.delete();
            // The borrowed memory may be collected only once the native reader no longer reads it.
            Reference.reachabilityFence(borrowed);
        }
    }

    /** True once the last reference is released and the native memory freed. */
    synchronized boolean isFreed() {
        return references == 0;
    }
}
