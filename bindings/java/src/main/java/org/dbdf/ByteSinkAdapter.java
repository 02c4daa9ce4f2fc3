package org.dbdf;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * What the native writer calls to write to a Java byte sink (bindings/swig/java/dbdf_java.i): write consumes a
 * direct buffer over the library's memory, valid during the call only. An exception it throws reaches the caller
 * of the writer as {@link DbdfException#withCallbackFailure} decides: an {@link IOException} as the cause of the
 * call's {@link DbdfException} ({@link Status#SINK}), a {@link RuntimeException} or an {@link Error} itself, with
 * that {@link DbdfException} suppressed.
 */
abstract class ByteSinkAdapter {
    /** Writes every remaining byte of {@code data}. */
    abstract void write(ByteBuffer data) throws IOException;

    static ByteSinkAdapter of(OutputStream stream) {
        return new StreamSink(stream);
    }

    static ByteSinkAdapter of(WritableByteChannel channel) {
        return new ChannelSink(channel);
    }

    private static final class StreamSink extends ByteSinkAdapter {
        private static final int MAX_CHUNK = 1 << 16;
        private final OutputStream stream;
        private final byte[] chunk = new byte[MAX_CHUNK];

        StreamSink(OutputStream stream) {
            this.stream = stream;
        }

        @Override
        void write(ByteBuffer data) throws IOException {
            while (data.hasRemaining()) {
                int length = Math.min(data.remaining(), chunk.length);
                data.get(chunk, 0, length);
                stream.write(chunk, 0, length);
            }
        }
    }

    private static final class ChannelSink extends ByteSinkAdapter {
        private final WritableByteChannel channel;

        ChannelSink(WritableByteChannel channel) {
            this.channel = channel;
        }

        @Override
        void write(ByteBuffer data) throws IOException {
            // Read-only: the buffer is the library's output, which the channel must not change.
            ByteBuffer output = data.asReadOnlyBuffer();
            while (output.hasRemaining()) {
                channel.write(output);
            }
        }
    }
}
