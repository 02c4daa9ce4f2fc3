using System;
using System.Runtime.InteropServices;

namespace Dbdf.Internal
{
    /// <summary>
    /// A (pointer, size) pair returned by the native glue by value: dbdf_swig_bytes_t and dbdf_swig_borrowed_t,
    /// which share this layout.
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct NativeBytes
    {
        public IntPtr Data;
        public UIntPtr Length;

        public long LongLength
        {
            get { return checked((long)Length.ToUInt64()); }
        }

        /// <summary>A managed copy of the bytes.</summary>
        public byte[] ToArray()
        {
            long length = LongLength;
            if (length > int.MaxValue)
            {
                throw new InvalidOperationException(length + " bytes do not fit in one byte[]");
            }
            byte[] bytes = new byte[length];
            if (length > 0)
            {
                Marshal.Copy(Data, bytes, 0, (int)length);
            }
            return bytes;
        }
    }
}
