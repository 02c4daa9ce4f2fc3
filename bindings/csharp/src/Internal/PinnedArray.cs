using System;
using System.Runtime.InteropServices;

namespace Dbdf.Internal
{
    /// <summary>
    /// Pins a managed array of primitive values for the duration of one native call, so the library reads or
    /// writes it in place: no copy is made. Use with <c>using</c>.
    /// </summary>
    internal struct PinnedArray : IDisposable
    {
        private GCHandle handle;

        public IntPtr Address { get; private set; }

        /// <summary>Size of the array in bytes.</summary>
        public ulong ByteCount { get; private set; }

        /// <summary>Number of elements of the array.</summary>
        public ulong Count { get; private set; }

        public PinnedArray(Array array, string parameterName)
        {
            if (array == null)
            {
                throw new ArgumentNullException(parameterName);
            }
            handle = GCHandle.Alloc(array, GCHandleType.Pinned);
            Address = handle.AddrOfPinnedObject();
            Count = (ulong)array.LongLength;
            ByteCount = Count * (ulong)Marshal.SizeOf(array.GetType().GetElementType());
        }

        public void Dispose()
        {
            if (handle.IsAllocated)
            {
                handle.Free();
            }
        }
    }
}
