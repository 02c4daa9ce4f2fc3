using System;
using System.Runtime.InteropServices;

namespace Dbdf.Internal
{
    /// <summary>
    /// The native reader and the native copy of its input (Reader.FromBytes), freed when the last of their users
    /// lets go: the <see cref="Reader"/> and every payload stream opened from it. Payload streams point into memory
    /// that the native reader maps or that the copy holds, so freeing it when only the Reader is disposed would
    /// leave a live stream reading unmapped memory.
    /// </summary>
    /// <remarks>
    /// No finalizer here on purpose: the Reader's and the streams' finalizers release their references, and this
    /// object stays intact until the last of them has run (it is reachable from each of them until then).
    /// </remarks>
    internal sealed class SharedNativeReader
    {
        private readonly object sync = new object();
        private NativeReader native;
        private IntPtr ownedMemory;
        private int references = 1;

        /// <summary>Takes over <paramref name="native"/> and, unless zero, <paramref name="ownedMemory"/> (AllocHGlobal); one reference, the creator's.</summary>
        public SharedNativeReader(NativeReader native, IntPtr ownedMemory)
        {
            this.native = native;
            this.ownedMemory = ownedMemory;
        }

        /// <summary>The native reader; only valid while the caller holds a reference.</summary>
        public NativeReader Native
        {
            get { return native; }
        }

        /// <summary>True once the last reference was released and everything freed.</summary>
        public bool IsFreed
        {
            get { lock (sync) { return references == 0; } }
        }

        /// <summary>One more user. Throws ObjectDisposedException when everything is already freed.</summary>
        public void AddReference()
        {
            lock (sync)
            {
                if (references == 0)
                {
                    throw new ObjectDisposedException("Reader", "the reader is disposed");
                }
                references++;
            }
        }

        /// <summary>One user fewer; the last one frees the native reader, then the memory it read.</summary>
        public void Release()
        {
            lock (sync)
            {
                if (references == 0)
                {
                    return;
                }
                references--;
                if (references > 0)
                {
                    return;
                }
                if (native != null)
                {
                    native.Dispose();
                    native = null;
                }
                if (ownedMemory != IntPtr.Zero)
                {
                    Marshal.FreeHGlobal(ownedMemory);
                    ownedMemory = IntPtr.Zero;
                }
            }
        }
    }
}
