using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Dbdf.Tests
{
    /// <summary>
    /// Unmanaged memory (Marshal.AllocHGlobal) for the raw-address overloads: copies of arrays and blocks filled with
    /// <see cref="Fill"/>, all freed on Dispose.
    /// </summary>
    internal sealed class UnmanagedBuffers : IDisposable
    {
        /// <summary>The byte a new block is filled with, so that bytes the library did not write can be recognised.</summary>
        public const byte Fill = 0xA5;

        private readonly List<IntPtr> blocks = new List<IntPtr>();

        /// <summary>A copy of the elements of an array of primitive values.</summary>
        public IntPtr CopyOf(Array array)
        {
            byte[] bytes = BytesOf(array);
            IntPtr address = Allocate(bytes.Length);
            Marshal.Copy(bytes, 0, address, bytes.Length);
            return address;
        }

        /// <summary>Room for <paramref name="count"/> elements of <paramref name="elementSize"/> bytes, every byte <see cref="Fill"/>.</summary>
        public IntPtr Filled(long count, int elementSize)
        {
            int nbytes = checked((int)count * elementSize);
            IntPtr address = Allocate(nbytes);
            byte[] fill = new byte[nbytes];
            for (int index = 0; index < nbytes; index++)
            {
                fill[index] = Fill;
            }
            Marshal.Copy(fill, 0, address, nbytes);
            return address;
        }

        private IntPtr Allocate(int nbytes)
        {
            IntPtr address = Marshal.AllocHGlobal(Math.Max(nbytes, 1));
            blocks.Add(address);
            return address;
        }

        /// <summary>The bytes of an array of primitive values, as they lie in memory.</summary>
        public static byte[] BytesOf(Array array)
        {
            byte[] bytes = new byte[Buffer.ByteLength(array)];
            Buffer.BlockCopy(array, 0, bytes, 0, bytes.Length);
            return bytes;
        }

        /// <summary>A copy of the bytes of <paramref name="count"/> elements of <paramref name="elementSize"/> bytes.</summary>
        public static byte[] Read(IntPtr address, long count, int elementSize)
        {
            byte[] bytes = new byte[checked((int)count * elementSize)];
            Marshal.Copy(address, bytes, 0, bytes.Length);
            return bytes;
        }

        /// <summary>True when <paramref name="count"/> elements of <paramref name="elementSize"/> bytes still hold only <see cref="Fill"/>.</summary>
        public static bool Untouched(IntPtr address, long count, int elementSize)
        {
            foreach (byte value in Read(address, count, elementSize))
            {
                if (value != Fill)
                {
                    return false;
                }
            }
            return true;
        }

        public void Dispose()
        {
            foreach (IntPtr address in blocks)
            {
                Marshal.FreeHGlobal(address);
            }
            blocks.Clear();
        }
    }
}
