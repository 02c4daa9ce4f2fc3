using System;
using System.IO;
using System.Runtime.InteropServices;

namespace Dbdf.Internal
{
    /// <summary>
    /// The managed side of byte sources and sinks: the three functions the native glue calls (registered once, see
    /// bindings/swig/csharp/dbdf_csharp.i), each given a GCHandle of a <see cref="StreamSource"/> or
    /// <see cref="StreamSink"/> as its context. No exception crosses into native code: a stream's exception is kept
    /// for the calling thread, its message handed to the library, and the failing call's
    /// <see cref="DbdfException"/> carries it as InnerException.
    /// </summary>
    internal static class StreamCallbacks
    {
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate long ReadAtDelegate(IntPtr context, ulong offset, IntPtr destination, UIntPtr length);

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate int WriteDelegate(IntPtr context, IntPtr data, UIntPtr nbytes);

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void ReleaseDelegate(IntPtr context);

        /// <summary>Larger reads are answered in pieces of this size (short reads, which the library completes).</summary>
        internal const int MaxChunk = 1 << 20;

        /// <summary>What a stream threw during the current native call on this thread, until the call's failure takes it.</summary>
        [ThreadStatic]
        private static Exception failure;

        /// <summary>The exception a stream threw during the failed call, or null; forgets it.</summary>
        internal static Exception TakeFailure()
        {
            Exception taken = failure;
            failure = null;
            return taken;
        }

        private static int liveContexts;

        /// <summary>How many contexts are made and not yet released: what the tests check for leaks.</summary>
        internal static int LiveContexts
        {
            get { return System.Threading.Volatile.Read(ref liveContexts); }
        }

        /// <summary>A GCHandle (as the native context) keeping <paramref name="adapter"/> alive until Release.</summary>
        internal static IntPtr ContextOf(object adapter)
        {
            IntPtr context = GCHandle.ToIntPtr(GCHandle.Alloc(adapter));
            System.Threading.Interlocked.Increment(ref liveContexts);
            return context;
        }

        internal static long ReadAt(IntPtr context, ulong offset, IntPtr destination, UIntPtr length)
        {
            try
            {
                StreamSource source = (StreamSource)GCHandle.FromIntPtr(context).Target;
                return source.ReadAt(offset, destination, length.ToUInt64());
            }
            catch (Exception thrown)
            {
                Fail(thrown);
                return -1;
            }
        }

        internal static int Write(IntPtr context, IntPtr data, UIntPtr nbytes)
        {
            try
            {
                StreamSink sink = (StreamSink)GCHandle.FromIntPtr(context).Target;
                sink.Write(data, nbytes.ToUInt64());
                return 0;
            }
            catch (Exception thrown)
            {
                Fail(thrown);
                return 1;
            }
        }

        internal static void Release(IntPtr context)
        {
            GCHandle.FromIntPtr(context).Free();
            System.Threading.Interlocked.Decrement(ref liveContexts);
        }

        private static void Fail(Exception thrown)
        {
            failure = thrown;
            try
            {
                dbdf.dbdf_set_callback_error(thrown.GetType().FullName + ": " + thrown.Message);
            }
            catch (Exception)
            {
                // The library then reports its own message; the stream's exception is still the InnerException.
            }
        }
    }

    /// <summary>A seekable, readable stream read at the offsets the native reader asks for.</summary>
    internal sealed class StreamSource
    {
        private readonly Stream stream;
        private byte[] chunk = new byte[0];

        internal StreamSource(Stream stream)
        {
            this.stream = stream;
        }

        internal long ReadAt(ulong offset, IntPtr destination, ulong length)
        {
            if (offset > long.MaxValue)
            {
                throw new IOException("offset " + offset + " is beyond the largest stream position");
            }
            int wanted = (int)Math.Min(length, (ulong)StreamCallbacks.MaxChunk);
            if (chunk.Length < wanted)
            {
                chunk = new byte[wanted];
            }
            stream.Seek((long)offset, SeekOrigin.Begin);
            int read = stream.Read(chunk, 0, wanted);
            if (read < 0 || read > wanted)
            {
                throw new IOException("the stream returned " + read + " bytes for a read of " + wanted);
            }
            Marshal.Copy(chunk, 0, destination, read);
            return read;
        }
    }

    /// <summary>A writable stream the native writer writes to, in order.</summary>
    internal sealed class StreamSink
    {
        private const int MaxChunk = 1 << 16;
        private readonly Stream stream;
        private readonly byte[] chunk = new byte[MaxChunk];

        internal StreamSink(Stream stream)
        {
            this.stream = stream;
        }

        internal void Write(IntPtr data, ulong nbytes)
        {
            IntPtr next = data;
            while (nbytes > 0)
            {
                int length = (int)Math.Min(nbytes, (ulong)chunk.Length);
                Marshal.Copy(next, chunk, 0, length);
                stream.Write(chunk, 0, length);
                next = new IntPtr(next.ToInt64() + length);
                nbytes -= (ulong)length;
            }
        }
    }
}
