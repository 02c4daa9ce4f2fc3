package org.dbdf;

import java.io.IOException;

/**
 * A byte source read at explicit positions, as Hadoop's {@code PositionedReadable} offers it: the way to read a
 * .dbdf object from remote or custom storage with {@link Reader#open(PositionedSource, long)}.
 *
 * <pre>{@code
 * FSDataInputStream in = fileSystem.open(path);
 * try (Reader reader = Reader.open(in::read, fileSystem.getFileStatus(path).getLen())) { ... }
 * }</pre>
 *
 * <p>The reader asks for the header, the block headers it needs and the payloads of the blocks it decodes, never
 * the whole object; small reads are coalesced through a read-ahead window. Calls come only from the thread that
 * is calling the reader, during that call.
 */
@FunctionalInterface
public interface PositionedSource {
    /**
     * Reads up to {@code length} (at least 1) bytes starting at {@code position} of the source into
     * {@code buffer[offset, offset + length)}. Returns how many were read: {@code length}, or fewer (the reader
     * asks again for the rest), or -1 (or 0) at the end of the source. An {@link IOException} fails the reader's
     * call with a {@link DbdfException} of {@link Status#IO} whose cause is that very exception; a
     * {@link RuntimeException} or an {@link Error} is rethrown itself, with that {@link DbdfException} suppressed
     * ({@link Throwable#getSuppressed()}), as {@link Reader#open(java.nio.channels.SeekableByteChannel)} says.
     */
    int read(long position, byte[] buffer, int offset, int length) throws IOException;
}
