using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Threading;

namespace Dbdf.Internal
{
    /// <summary>
    /// A read-only stream over a copy of a block's payload in unmanaged memory of its own, freed when the stream is
    /// disposed or finalized. A file reader's payload lives in a buffer the native reader reuses for the next block,
    /// so a stream that may outlive the block must own its bytes.
    /// </summary>
    internal sealed unsafe class CopiedPayloadStream : UnmanagedMemoryStream
    {
        private IntPtr memory;

        private CopiedPayloadStream(IntPtr memory, long length)
            : base((byte*)memory.ToPointer(), length, length, FileAccess.Read)
        {
            this.memory = memory;
        }

        /// <summary>Copies <paramref name="payload"/>, which must stay valid during the call.</summary>
        public static CopiedPayloadStream CopyOf(NativeBytes payload)
        {
            long length = payload.LongLength;
            IntPtr memory = Marshal.AllocHGlobal(new IntPtr(Math.Max(length, 1L)));
            try
            {
                Buffer.MemoryCopy(payload.Data.ToPointer(), memory.ToPointer(), length, length);
                return new CopiedPayloadStream(memory, length);
            }
            catch
            {
                Marshal.FreeHGlobal(memory);
                throw;
            }
        }

        ~CopiedPayloadStream()
        {
            Dispose(false);
        }

        protected override void Dispose(bool disposing)
        {
            try
            {
                base.Dispose(disposing);
            }
            finally
            {
                // Once only, also when Dispose races with the finalizer or with itself.
                IntPtr released = Interlocked.Exchange(ref memory, IntPtr.Zero);
                if (released != IntPtr.Zero)
                {
                    Marshal.FreeHGlobal(released);
                }
            }
        }
    }
}
