using System;
using Dbdf.Internal;

namespace Dbdf
{
    // The ways to open a writer: a file (written atomically) or memory; each in the spec dialect, in a dialect chosen
    // explicitly, or with every option of WriterOptions.
    public sealed partial class Writer
    {
        /// <summary>Writes the file at <paramref name="path"/> atomically (a temporary file in the same directory until Finish()).</summary>
        public static Writer ToFile(string path)
        {
            return ToFile(path, Dialect.Spec, false);
        }

        /// <summary>
        /// Writes the file at <paramref name="path"/> atomically in <paramref name="dialect"/>. In
        /// <see cref="Dialect.Daphne"/> the output is byte for byte what DAPHNE's runtime writes: one block covering
        /// the object, in its own value type (docs/daphne-dialect.md says what that allows: a dense matrix may also
        /// be added as full-width row bands in order, so that it never has to be in memory whole).
        /// </summary>
        /// <param name="path">The target; a temporary file in the same directory until Finish().</param>
        /// <param name="dialect">The layout to write.</param>
        /// <param name="writeMeta">
        /// In <see cref="Dialect.Daphne"/>: whether Finish() also writes the JSON sidecar <c>path + ".meta"</c> that
        /// DaphneDSL's <c>read</c> opens before a .dbdf file (atomically, after the data file is in place; a failure
        /// there is a <see cref="Status.Io"/> from Finish()). Ignored in <see cref="Dialect.Spec"/>.
        /// </param>
        /// <exception cref="System.IO.DirectoryNotFoundException">
        /// The folder of <paramref name="path"/> does not exist; the <see cref="Exception.InnerException"/> is the
        /// library's <see cref="DbdfException"/>.
        /// </exception>
        /// <exception cref="DbdfException">
        /// <see cref="Status.Io"/> when the temporary file cannot be created; <see cref="Status.InvalidArgument"/> for
        /// a dialect the library does not know.
        /// </exception>
        /// <example>
        /// <code>
        /// using (Writer writer = Writer.ToFile("m.dbdf", Dialect.Daphne))   // also writes m.dbdf.meta
        /// {
        ///     writer.BeginMatrix(DataType.Dense, Dbdf.ValueType.F64, rows, cols);
        ///     writer.WriteDense(values);
        ///     writer.Finish();
        /// }
        /// </code>
        /// </example>
        public static Writer ToFile(string path, Dialect dialect, bool writeMeta = true)
        {
            return ToFile(path, new WriterOptions { Dialect = dialect, WriteMeta = writeMeta });
        }

        /// <summary>
        /// Writes the file at <paramref name="path"/> atomically as <paramref name="options"/> say: the dialect and
        /// the .meta sidecar (see <see cref="ToFile(string, Dialect, bool)"/>), whether Finish() syncs the file to the
        /// disk (<see cref="WriterOptions.Durable"/>), and the threads of <c>WriteDense</c>. Fails as
        /// <see cref="ToFile(string, Dialect, bool)"/> does.
        /// </summary>
        /// <example>
        /// <code>
        /// using (Writer writer = Writer.ToFile("m.dbdf", new WriterOptions { Durable = true }))
        /// {
        ///     writer.BeginMatrix(DataType.Dense, Dbdf.ValueType.F64, rows, cols);
        ///     writer.WriteDense(values);
        ///     writer.Finish();                        // returns once the file survives a power loss
        /// }
        /// </code>
        /// </example>
        public static Writer ToFile(string path, WriterOptions options)
        {
            if (path == null)
            {
                throw new ArgumentNullException("path");
            }
            WriterOptions opened = CopyOf(options);
            NativeLoader.EnsureLoaded();
            try
            {
                return new Writer(new NativeWriter(path, (int)opened.Dialect, opened.WriteMeta, opened.Durable,
                    (uint)opened.Threads), opened);
            }
            catch (DbdfException error)
            {
                throw error.ForMissingFolder(path);
            }
        }

        /// <summary>Writes to memory; get the bytes with <see cref="ToArray"/> after Finish().</summary>
        public static Writer ToMemory()
        {
            return ToMemory(Dialect.Spec);
        }

        /// <summary>
        /// Writes to memory in <paramref name="dialect"/>; get the bytes with <see cref="ToArray"/> after Finish().
        /// No .meta sidecar: that belongs to files.
        /// </summary>
        /// <exception cref="DbdfException"><see cref="Status.InvalidArgument"/> for a dialect the library does not know.</exception>
        public static Writer ToMemory(Dialect dialect)
        {
            return ToMemory(new WriterOptions { Dialect = dialect });
        }

        /// <summary>
        /// Writes to memory in the dialect and with the <c>WriteDense</c> threads <paramref name="options"/> give; get
        /// the bytes with <see cref="ToArray"/> after Finish(). A memory writer has no .meta sidecar and nothing to
        /// sync: it ignores <see cref="WriterOptions.WriteMeta"/> and <see cref="WriterOptions.Durable"/>.
        /// </summary>
        /// <exception cref="DbdfException"><see cref="Status.InvalidArgument"/> for a dialect the library does not know.</exception>
        public static Writer ToMemory(WriterOptions options)
        {
            WriterOptions opened = CopyOf(options);
            NativeLoader.EnsureLoaded();
            return new Writer(new NativeWriter((int)opened.Dialect, (uint)opened.Threads), opened);
        }

        /// <summary>The writer's own copy of <paramref name="options"/>, which the caller may change afterwards.</summary>
        private static WriterOptions CopyOf(WriterOptions options)
        {
            if (options == null)
            {
                throw new ArgumentNullException("options");
            }
            return options.Copy();
        }
    }
}
