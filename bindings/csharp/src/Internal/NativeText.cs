using System;
using System.Runtime.InteropServices;

namespace Dbdf.Internal
{
    /// <summary>NUL-terminated UTF-8 text from native code, decoded the same way on every runtime.</summary>
    internal static class NativeText
    {
        public static string FromUtf8(IntPtr text)
        {
            if (text == IntPtr.Zero)
            {
                return string.Empty;
            }
            int length = 0;
            while (Marshal.ReadByte(text, length) != 0)
            {
                length++;
            }
            byte[] bytes = new byte[length];
            Marshal.Copy(text, bytes, 0, length);
            return System.Text.Encoding.UTF8.GetString(bytes);
        }
    }
}
