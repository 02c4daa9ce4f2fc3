using System;
using System.IO;
using Dbdf.Internal;

namespace Dbdf
{
    // Opening a reader over a seekable stream: a file, a remote object, a part of a container.
    public sealed partial class Reader
    {
        /// <summary>
        /// Reads the object in <paramref name="stream"/> (readable and seekable) from position 0 to its length, through
        /// positioned reads: the header, the block headers it needs, then only the payloads of the blocks it decodes,
        /// never the whole stream at once. The reader seeks the stream and reads it during its own calls only, on the
        /// calling thread; it neither closes nor disposes it. The stream must stay open until the reader is disposed.
        /// </summary>
        /// <exception cref="ArgumentException">The stream cannot read or cannot seek.</exception>
        /// <exception cref="DbdfException">
        /// As <see cref="Open(string, Dialect)"/>; when the stream throws, <see cref="Status.Io"/> with the stream's
        /// exception as <see cref="Exception.InnerException"/>, from this call or any later one that reads.
        /// </exception>
        public static Reader FromStream(Stream stream)
        {
            return FromStream(stream, new ReaderOptions());
        }

        /// <summary>As <see cref="FromStream(Stream)"/>, as <paramref name="options"/> say (dialect, decoding threads).</summary>
        public static Reader FromStream(Stream stream, ReaderOptions options)
        {
            return FromStream(stream, options, 0);
        }

        /// <summary>
        /// As <see cref="FromStream(Stream, ReaderOptions)"/>, coalescing small reads through a read-ahead window of
        /// <paramref name="readAheadBytes"/> bytes (0: the library's default, 64 KiB; at most 64 MiB): a larger window
        /// means fewer, larger reads of a remote stream.
        /// </summary>
        public static Reader FromStream(Stream stream, ReaderOptions options, long readAheadBytes)
        {
            if (stream == null)
            {
                throw new ArgumentNullException("stream");
            }
            if (!stream.CanRead || !stream.CanSeek)
            {
                throw new ArgumentException("the stream must be readable and seekable", "stream");
            }
            ulong readAhead = Arguments.NonNegative(readAheadBytes, "readAheadBytes");
            ReaderOptions opened = CopyOf(options);
            long length = stream.Length;
            NativeLoader.EnsureLoaded();
            // The library releases the context (the GCHandle) exactly once, also when opening fails.
            IntPtr context = StreamCallbacks.ContextOf(new StreamSource(stream));
            Reader reader = new Reader(new NativeReader(length, readAhead, (int)opened.Dialect, (uint)opened.Threads, context),
                IntPtr.Zero, opened);
            // Like a file, the native reader reads payloads into a buffer it reuses: payload streams are copies.
            reader.readsFile = true;
            return reader;
        }
    }
}
