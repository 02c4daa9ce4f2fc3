package org.dbdf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;

/**
 * What the native reader calls to read a Java byte source (bindings/swig/java/dbdf_java.i): readAt fills a direct
 * buffer over the library's memory. An exception it throws reaches the caller of the reader as
 * {@link DbdfException#withCallbackFailure} decides: an {@link IOException} as the cause of the call's
 * {@link DbdfException} ({@link Status#IO}), a {@link RuntimeException} or an {@link Error} itself, with that
 * {@link DbdfException} suppressed.
 */
abstract class ByteSourceAdapter {
    /** Reads bytes from {@code offset} into {@code destination}'s remaining space; 0 only at the end. */
    abstract long readAt(long offset, ByteBuffer destination) throws IOException;

    static ByteSourceAdapter of(SeekableByteChannel channel) {
        return new ChannelSource(channel);
    }

    static ByteSourceAdapter of(PositionedSource source) {
        return new Positioned(source);
    }

    private static final class ChannelSource extends ByteSourceAdapter {
        private final SeekableByteChannel channel;

        ChannelSource(SeekableByteChannel channel) {
            this.channel = channel;
        }

        @Override
        long readAt(long offset, ByteBuffer destination) throws IOException {
            channel.position(offset);
            int read = channel.read(destination);
            return read < 0 ? 0 : read;
        }
    }

    /** Reads through a byte array, since PositionedSource takes one; the array grows up to MAX_CHUNK bytes. */
    private static final class Positioned extends ByteSourceAdapter {
        /** Larger requests are answered with short reads of this size, which the library completes. */
        private static final int MAX_CHUNK = 1 << 20;
        private final PositionedSource source;
        private byte[] chunk = new byte[0];

        Positioned(PositionedSource source) {
            this.source = source;
        }

        @Override
        long readAt(long offset, ByteBuffer destination) throws IOException {
            int wanted = Math.min(destination.remaining(), MAX_CHUNK);
            if (chunk.length < wanted) {
                chunk = new byte[wanted];
            }
            int read = source.read(offset, chunk, 0, wanted);
            if (read <= 0) {
                return 0;
            }
            if (read > wanted) {
                throw new IllegalStateException(
                        "the PositionedSource returned " + read + " bytes for a read of " + wanted);
            }
            destination.put(chunk, 0, read);
            return read;
        }
    }
}
