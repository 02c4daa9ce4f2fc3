using System;
using System.Runtime.InteropServices;
using Dbdf.Internal;

namespace Dbdf
{
    // The ways to open a reader: a file, a copy of a byte array, caller memory; each in the spec dialect, in a
    // dialect chosen explicitly, or with every option of ReaderOptions.
    public sealed partial class Reader
    {
        /// <summary>Opens the file at <paramref name="path"/> (read-only, with positioned reads) and parses its header.</summary>
        public static Reader Open(string path)
        {
            return Open(path, Dialect.Spec);
        }

        /// <summary>
        /// Opens the file at <paramref name="path"/> (read-only, with positioned reads) in <paramref name="dialect"/> and parses
        /// its header.
        /// </summary>
        /// <exception cref="System.IO.FileNotFoundException">
        /// Nothing exists at <paramref name="path"/>; the <see cref="Exception.InnerException"/> is the library's
        /// <see cref="DbdfException"/>.
        /// </exception>
        /// <exception cref="DbdfException">
        /// <see cref="Status.Io"/> when the file cannot be opened or is not a regular file (a FIFO is refused at once,
        /// never waited on), and from later reads when another process shortened the file since it was opened ("the
        /// file shrank while being read"); <see cref="Status.InvalidArgument"/> for a dialect
        /// the library does not know; in <see cref="Dialect.Daphne"/> also <see cref="Status.Unsupported"/> for string
        /// data and <see cref="Status.Truncated"/> for a frame the runtime left cut short.
        /// </exception>
        /// <example>
        /// <code>
        /// using (Reader reader = Reader.Open("written_by_daphne.dbdf", Dialect.Daphne))
        /// {
        ///     double[] values = reader.ReadDoubles();
        /// }
        /// </code>
        /// </example>
        public static Reader Open(string path, Dialect dialect)
        {
            return Open(path, new ReaderOptions { Dialect = dialect });
        }

        /// <summary>
        /// Opens the file at <paramref name="path"/> (read-only, with positioned reads) as <paramref name="options"/> say
        /// (dialect, decoding threads) and parses its header. Fails as <see cref="Open(string, Dialect)"/> does.
        /// </summary>
        /// <example>
        /// <code>
        /// using (Reader reader = Reader.Open("m.dbdf", new ReaderOptions { Threads = 1 }))
        /// {
        ///     double[] values = reader.ReadDoubles();   // decoded on the calling thread only
        /// }
        /// </code>
        /// </example>
        public static Reader Open(string path, ReaderOptions options)
        {
            if (path == null)
            {
                throw new ArgumentNullException("path");
            }
            ReaderOptions opened = CopyOf(options);
            NativeLoader.EnsureLoaded();
            Reader reader;
            try
            {
                reader = new Reader(new NativeReader(path, (int)opened.Dialect, (uint)opened.Threads), IntPtr.Zero,
                    opened);
            }
            catch (DbdfException error)
            {
                throw error.ForMissingFile(path);
            }
            reader.readsFile = true;
            return reader;
        }

        /// <summary>Reads a copy of <paramref name="bytes"/> (copied once into native memory, so the array may change afterwards).</summary>
        public static Reader FromBytes(byte[] bytes)
        {
            return FromBytes(bytes, Dialect.Spec);
        }

        /// <summary>
        /// Reads a copy of <paramref name="bytes"/> in <paramref name="dialect"/> (copied once into native memory, so the
        /// array may change afterwards). Fails as <see cref="Open(string, Dialect)"/> does, except for file errors.
        /// </summary>
        public static Reader FromBytes(byte[] bytes, Dialect dialect)
        {
            return FromBytes(bytes, new ReaderOptions { Dialect = dialect });
        }

        /// <summary>
        /// Reads a copy of <paramref name="bytes"/> as <paramref name="options"/> say (copied once into native memory,
        /// so the array may change afterwards). Fails as <see cref="Open(string, Dialect)"/> does, except for file
        /// errors.
        /// </summary>
        public static Reader FromBytes(byte[] bytes, ReaderOptions options)
        {
            if (bytes == null)
            {
                throw new ArgumentNullException("bytes");
            }
            ReaderOptions opened = CopyOf(options);
            NativeLoader.EnsureLoaded();
            IntPtr memory = Marshal.AllocHGlobal(Math.Max(bytes.Length, 1));
            NativeReader reader;
            try
            {
                Marshal.Copy(bytes, 0, memory, bytes.Length);
                reader = new NativeReader(memory, (ulong)bytes.Length, (int)opened.Dialect, (uint)opened.Threads);
            }
            catch
            {
                Marshal.FreeHGlobal(memory);
                throw;
            }
            // From here the Reader owns the memory, also if its constructor fails.
            return new Reader(reader, memory, opened);
        }

        /// <summary>
        /// Reads <paramref name="length"/> bytes at <paramref name="data"/> in place, without copying. The memory
        /// must stay valid and unchanged until the reader and every payload stream opened from it are disposed.
        /// </summary>
        public static Reader FromMemory(IntPtr data, long length)
        {
            return FromMemory(data, length, Dialect.Spec);
        }

        /// <summary>
        /// Reads <paramref name="length"/> bytes at <paramref name="data"/> in place in <paramref name="dialect"/>,
        /// without copying; the memory rule of <see cref="FromMemory(IntPtr, long)"/> applies.
        /// </summary>
        public static Reader FromMemory(IntPtr data, long length, Dialect dialect)
        {
            return FromMemory(data, length, new ReaderOptions { Dialect = dialect });
        }

        /// <summary>
        /// Reads <paramref name="length"/> bytes at <paramref name="data"/> in place as <paramref name="options"/> say,
        /// without copying; the memory rule of <see cref="FromMemory(IntPtr, long)"/> applies.
        /// </summary>
        public static Reader FromMemory(IntPtr data, long length, ReaderOptions options)
        {
            ulong nbytes = Arguments.NonNegative(length, "length");
            if (data == IntPtr.Zero && length > 0)
            {
                throw new ArgumentNullException("data");
            }
            ReaderOptions opened = CopyOf(options);
            NativeLoader.EnsureLoaded();
            return new Reader(new NativeReader(data, nbytes, (int)opened.Dialect, (uint)opened.Threads), IntPtr.Zero,
                opened);
        }

        /// <summary>The reader's own copy of <paramref name="options"/>, which the caller may change afterwards.</summary>
        private static ReaderOptions CopyOf(ReaderOptions options)
        {
            if (options == null)
            {
                throw new ArgumentNullException("options");
            }
            return options.Copy();
        }
    }
}
