using System.IO;
using System.Threading;

namespace Dbdf.Internal
{
    /// <summary>
    /// A read-only stream over a block's payload in the reader's memory, holding a reference on that memory
    /// (<see cref="SharedNativeReader"/>) until it is disposed or finalized, so that it stays readable after the
    /// Reader is disposed.
    /// </summary>
    internal sealed unsafe class PayloadStream : UnmanagedMemoryStream
    {
        private SharedNativeReader owner;

        /// <summary>Takes over one reference on <paramref name="owner"/>, already added by the caller.</summary>
        public PayloadStream(SharedNativeReader owner, NativeBytes payload)
            : base((byte*)payload.Data.ToPointer(), payload.LongLength, payload.LongLength, FileAccess.Read)
        {
            this.owner = owner;
        }

        // Stream has no finalizer of its own: without this one, a stream that is dropped undisposed would keep
        // the native reader (and a file mapping) alive for the rest of the process.
        ~PayloadStream()
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
                SharedNativeReader released = Interlocked.Exchange(ref owner, null);
                if (released != null)
                {
                    released.Release();
                }
            }
        }
    }
}
