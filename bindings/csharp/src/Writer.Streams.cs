using System;
using System.IO;
using Dbdf.Internal;

namespace Dbdf
{
    // Opening a writer over any writable stream.
    public sealed partial class Writer
    {
        /// <summary>
        /// Writes to <paramref name="stream"/>, in order, as the object is written (it need not seek); nothing is held
        /// back past <see cref="Finish"/>. The stream is neither flushed nor closed, and must stay open until the
        /// writer is disposed.
        /// </summary>
        /// <exception cref="ArgumentException">The stream cannot write.</exception>
        /// <remarks>
        /// When the stream throws, the writer's call fails with <see cref="DbdfException"/> (<see cref="Status.Sink"/>)
        /// whose <see cref="Exception.InnerException"/> is the stream's exception; the writer is then unusable.
        /// </remarks>
        public static Writer ToStream(Stream stream)
        {
            return ToStream(stream, new WriterOptions());
        }

        /// <summary>
        /// As <see cref="ToStream(Stream)"/>, in the dialect and with the WriteDense threads <paramref name="options"/>
        /// give (WriteMeta and Durable concern files only).
        /// </summary>
        public static Writer ToStream(Stream stream, WriterOptions options)
        {
            if (stream == null)
            {
                throw new ArgumentNullException("stream");
            }
            if (!stream.CanWrite)
            {
                throw new ArgumentException("the stream must be writable", "stream");
            }
            WriterOptions opened = CopyOf(options);
            NativeLoader.EnsureLoaded();
            // Released (the GCHandle freed) when the native writer is freed, or at once if opening fails.
            IntPtr context = StreamCallbacks.ContextOf(new StreamSink(stream));
            return new Writer(new NativeWriter((int)opened.Dialect, (uint)opened.Threads, context), opened);
        }
    }
}
