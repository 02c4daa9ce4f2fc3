using System;
using System.IO;
using Dbdf.Internal;

namespace Dbdf
{
    /// <summary>
    /// Writes one .dbdf object: <see cref="BeginMatrix"/> or <see cref="BeginFrame"/>, then blocks (added one at a
    /// time or by the tiling helpers), then <see cref="Finish"/>.
    /// </summary>
    /// <example>
    /// <code>
    /// using (Writer writer = Writer.ToFile("m.dbdf"))
    /// {
    ///     writer.BeginMatrix(DataType.Dense, Dbdf.ValueType.F64, rows, cols);
    ///     writer.WriteDense(values, blockRows: 1024, blockCols: 1024);
    ///     writer.Finish();
    /// }
    /// </code>
    /// </example>
    /// <remarks>
    /// A file writer writes to a temporary file in the target's directory and renames it over the target in
    /// Finish(); disposing a writer without a successful Finish() discards everything and leaves an existing file
    /// untouched. The file is not synced to the disk unless the writer was opened with
    /// <see cref="WriterOptions.Durable"/>. Owns native memory: dispose it (<c>using</c>); Dispose is idempotent and
    /// every other member throws <see cref="System.ObjectDisposedException"/> after it; a finalizer is only a safety net.
    ///
    /// Value arrays are pinned, not copied, during each call; the array's element type is the value type of the
    /// values given, and every value must be exactly representable in the object's (column's) value type.
    /// </remarks>
    public sealed partial class Writer : IDisposable
    {
        private readonly object sync = new object();
        private NativeWriter native;
        /// <summary>The writer's own copy of the options it was opened with.</summary>
        private readonly WriterOptions options;
        private bool disposed;

        private Writer(NativeWriter native, WriterOptions options)
        {
            this.native = native;
            this.options = options;
        }

        ~Writer()
        {
            Dispose(false);
        }

        private void EnsureOpen()
        {
            if (disposed)
            {
                throw new ObjectDisposedException("Writer", "the writer is disposed");
            }
        }

        /// <summary>True after <see cref="Dispose()"/>.</summary>
        public bool IsDisposed
        {
            get { lock (sync) { return disposed; } }
        }

        /// <summary>The dialect the writer was opened with.</summary>
        public Dialect Dialect
        {
            get
            {
                lock (sync)
                {
                    EnsureOpen();
                    return (Dialect)native.opened_dialect();
                }
            }
        }

        /// <summary>
        /// Whether the writer was opened with <see cref="WriterOptions.Durable"/>: Finish() then syncs the file to the
        /// disk (memory writers ignore it).
        /// </summary>
        public bool Durable
        {
            get
            {
                lock (sync)
                {
                    EnsureOpen();
                    return options.Durable;
                }
            }
        }

        /// <summary>
        /// The threads <c>WriteDense</c> uses (<see cref="WriterOptions.Threads"/>; 0: automatic), as the writer was
        /// opened.
        /// </summary>
        public int Threads
        {
            get
            {
                lock (sync)
                {
                    EnsureOpen();
                    return options.Threads;
                }
            }
        }

        /// <summary>Writes the header of a matrix (<see cref="DataType.Dense"/> or <see cref="DataType.Csr"/>).</summary>
        public void BeginMatrix(DataType dataType, ValueType valueType, long rows, long cols)
        {
            lock (sync)
            {
                EnsureOpen();
                native.start_matrix((int)dataType, (int)valueType, Arguments.NonNegative(rows, "rows"),
                    Arguments.NonNegative(cols, "cols"));
            }
        }

        /// <summary>Writes the header of a frame: one value type and one label (unique, at most 65535 UTF-8 bytes) per column.</summary>
        public void BeginFrame(long rows, ValueType[] columnTypes, string[] labels)
        {
            if (columnTypes == null)
            {
                throw new ArgumentNullException("columnTypes");
            }
            if (labels == null)
            {
                throw new ArgumentNullException("labels");
            }
            if (columnTypes.Length != labels.Length)
            {
                throw new ArgumentException(columnTypes.Length + " column types but " + labels.Length + " labels",
                    "labels");
            }
            int[] typeCodes = new int[columnTypes.Length];
            uint[] labelLengths = new uint[labels.Length];
            MemoryStream labelBytes = new MemoryStream();
            for (int column = 0; column < columnTypes.Length; column++)
            {
                if (labels[column] == null)
                {
                    throw new ArgumentNullException("labels", "label " + column + " is null");
                }
                typeCodes[column] = (int)columnTypes[column];
                byte[] label = System.Text.Encoding.UTF8.GetBytes(labels[column]);
                labelLengths[column] = (uint)label.Length;
                labelBytes.Write(label, 0, label.Length);
            }
            byte[] allLabels = labelBytes.ToArray();
            ulong rowCount = Arguments.NonNegative(rows, "rows");
            lock (sync)
            {
                EnsureOpen();
                using (PinnedArray pinnedTypes = new PinnedArray(typeCodes, "columnTypes"))
                using (PinnedArray pinnedLengths = new PinnedArray(labelLengths, "labels"))
                using (PinnedArray pinnedLabels = new PinnedArray(allLabels, "labels"))
                {
                    native.start_frame(rowCount, pinnedTypes.Address, pinnedTypes.Count, pinnedLengths.Address,
                        pinnedLengths.Count, pinnedLabels.Address, pinnedLabels.ByteCount);
                }
            }
        }

        /// <summary>Adds an all-zero block.</summary>
        public void AddEmpty(long row, long col, long rows, long cols)
        {
            lock (sync)
            {
                EnsureOpen();
                native.put_empty(Arguments.NonNegative(row, "row"), Arguments.NonNegative(col, "col"),
                    Arguments.BlockDimension(rows, "rows"), Arguments.BlockDimension(cols, "cols"));
            }
        }

        /// <summary>
        /// Finishes the object: checks that the blocks cover every cell, flushes, and for a file writer syncs and
        /// renames the temporary file over the target. A Format failure (cells not covered) leaves the writer open
        /// for more blocks.
        /// </summary>
        public void Finish()
        {
            lock (sync)
            {
                EnsureOpen();
                native.finish_object();
            }
        }

        /// <summary>Number of bytes written so far (header and blocks).</summary>
        public long BytesWritten
        {
            get
            {
                lock (sync)
                {
                    EnsureOpen();
                    return (long)native.written_bytes();
                }
            }
        }

        /// <summary>A copy of the bytes of a finished memory writer.</summary>
        public byte[] ToArray()
        {
            lock (sync)
            {
                EnsureOpen();
                return native.output_bytes();
            }
        }

        /// <summary>Frees the native writer; without a successful Finish() everything written is discarded. Idempotent.</summary>
        public void Dispose()
        {
            Dispose(true);
            GC.SuppressFinalize(this);
        }

        private void Dispose(bool disposing)
        {
            // Taking the lock also in the finalizer: a call still running on another thread finishes first.
            lock (sync)
            {
                if (disposed)
                {
                    return;
                }
                disposed = true;
                if (native != null)
                {
                    native.Dispose();
                    native = null;
                }
            }
        }

        // ---- array-based operations behind the typed overloads (Writer.Typed.cs.in) -----------------------------

        private static ValueType TypeOf(Array values)
        {
            if (values == null)
            {
                throw new ArgumentNullException("values");
            }
            return ValueTypes.Of(values.GetType().GetElementType());
        }

        private void AddDenseArray(long row, long col, long rows, long cols, Array values, long rowStride,
                                   Encoding encoding)
        {
            ValueType type = TypeOf(values);
            lock (sync)
            {
                EnsureOpen();
                using (PinnedArray pinned = new PinnedArray(values, "values"))
                {
                    native.put_dense(Arguments.NonNegative(row, "row"), Arguments.NonNegative(col, "col"),
                        Arguments.BlockDimension(rows, "rows"), Arguments.BlockDimension(cols, "cols"), (int)type,
                        pinned.Address, pinned.ByteCount, Arguments.NonNegative(rowStride, "rowStride"),
                        (int)encoding);
                }
            }
        }

        /// <summary>
        /// Adds the block at (row, col) of shape rows x cols from row-major values of <paramref name="type"/> at a raw
        /// address holding <paramref name="count"/> elements: element (i, j) is at index i * rowStride + j
        /// (rowStride 0: cols).
        /// </summary>
        public void AddDense(long row, long col, long rows, long cols, ValueType type, IntPtr values, long count,
                             long rowStride = 0, Encoding encoding = Encoding.Auto)
        {
            ulong nbytes = Arguments.AddressBytes(type, values, count, "values");
            lock (sync)
            {
                EnsureOpen();
                native.put_dense(Arguments.NonNegative(row, "row"), Arguments.NonNegative(col, "col"),
                    Arguments.BlockDimension(rows, "rows"), Arguments.BlockDimension(cols, "cols"), (int)type,
                    values, nbytes, Arguments.NonNegative(rowStride, "rowStride"), (int)encoding);
            }
        }

        private void AddCsrArray(long row, long col, long rows, long cols, ulong[] rowOffsets, uint[] colIndices,
                                 Array values, Encoding encoding)
        {
            ValueType type = TypeOf(values);
            lock (sync)
            {
                EnsureOpen();
                using (PinnedArray pinnedOffsets = new PinnedArray(rowOffsets, "rowOffsets"))
                using (PinnedArray pinnedColumns = new PinnedArray(colIndices, "colIndices"))
                using (PinnedArray pinnedValues = new PinnedArray(values, "values"))
                {
                    native.put_csr(Arguments.NonNegative(row, "row"), Arguments.NonNegative(col, "col"),
                        Arguments.BlockDimension(rows, "rows"), Arguments.BlockDimension(cols, "cols"), (int)type,
                        pinnedOffsets.Address, pinnedOffsets.Count, pinnedColumns.Address, pinnedColumns.Count,
                        pinnedValues.Address, pinnedValues.ByteCount, (int)encoding);
                }
            }
        }

        /// <summary>
        /// Adds a block from block-local CSR arrays at raw addresses, under the rules of the array overloads:
        /// <paramref name="rowOffsets"/> points to <paramref name="rowOffsetsCount"/> <c>ulong</c> elements (at least
        /// rows + 1, starting at 0), <paramref name="colIndices"/> to <paramref name="colIndicesCount"/> <c>uint</c>
        /// elements and <paramref name="values"/> to <paramref name="valuesCount"/> elements of
        /// <paramref name="type"/>; both of these counts must reach rowOffsets[rows], the number of entries. Counts
        /// are elements, not bytes. The memory is read only during the call.
        /// </summary>
        public void AddCsr(long row, long col, long rows, long cols, ValueType type, IntPtr rowOffsets,
                           long rowOffsetsCount, IntPtr colIndices, long colIndicesCount, IntPtr values,
                           long valuesCount, Encoding encoding = Encoding.Auto)
        {
            ulong offsetsCount = Arguments.AddressCount(rowOffsets, rowOffsetsCount, "rowOffsets", "rowOffsetsCount");
            ulong columnsCount = Arguments.AddressCount(colIndices, colIndicesCount, "colIndices", "colIndicesCount");
            ulong nbytes = Arguments.AddressBytes(type, values, valuesCount, "values", "valuesCount");
            lock (sync)
            {
                EnsureOpen();
                native.put_csr(Arguments.NonNegative(row, "row"), Arguments.NonNegative(col, "col"),
                    Arguments.BlockDimension(rows, "rows"), Arguments.BlockDimension(cols, "cols"), (int)type,
                    rowOffsets, offsetsCount, colIndices, columnsCount, values, nbytes, (int)encoding);
            }
        }

        private void AddCooArray(long row, long col, long rows, long cols, uint[] rowIndices, uint[] colIndices,
                                 Array values, Encoding encoding)
        {
            ValueType type = TypeOf(values);
            lock (sync)
            {
                EnsureOpen();
                using (PinnedArray pinnedRows = new PinnedArray(rowIndices, "rowIndices"))
                using (PinnedArray pinnedColumns = new PinnedArray(colIndices, "colIndices"))
                using (PinnedArray pinnedValues = new PinnedArray(values, "values"))
                {
                    native.put_coo(Arguments.NonNegative(row, "row"), Arguments.NonNegative(col, "col"),
                        Arguments.BlockDimension(rows, "rows"), Arguments.BlockDimension(cols, "cols"), (int)type,
                        pinnedRows.Address, pinnedRows.Count, pinnedColumns.Address, pinnedColumns.Count,
                        pinnedValues.Address, pinnedValues.ByteCount, pinnedRows.Count, (int)encoding);
                }
            }
        }

        /// <summary>
        /// Adds a block from block-local COO triplets at raw addresses, under the rules of the array overloads: there
        /// are <paramref name="rowIndicesCount"/> entries, at <paramref name="rowIndices"/> (<c>uint</c> elements),
        /// and <paramref name="colIndices"/> (<paramref name="colIndicesCount"/> <c>uint</c> elements) and
        /// <paramref name="values"/> (<paramref name="valuesCount"/> elements of <paramref name="type"/>) hold at least
        /// as many. Counts are elements, not bytes. The memory is read only during the call.
        /// </summary>
        public void AddCoo(long row, long col, long rows, long cols, ValueType type, IntPtr rowIndices,
                           long rowIndicesCount, IntPtr colIndices, long colIndicesCount, IntPtr values,
                           long valuesCount, Encoding encoding = Encoding.Auto)
        {
            ulong entries = Arguments.AddressCount(rowIndices, rowIndicesCount, "rowIndices", "rowIndicesCount");
            ulong columnsCount = Arguments.AddressCount(colIndices, colIndicesCount, "colIndices", "colIndicesCount");
            ulong nbytes = Arguments.AddressBytes(type, values, valuesCount, "values", "valuesCount");
            lock (sync)
            {
                EnsureOpen();
                native.put_coo(Arguments.NonNegative(row, "row"), Arguments.NonNegative(col, "col"),
                    Arguments.BlockDimension(rows, "rows"), Arguments.BlockDimension(cols, "cols"), (int)type,
                    rowIndices, entries, colIndices, columnsCount, values, nbytes, entries, (int)encoding);
            }
        }

        private void WriteDenseArray(Array values, long rowStride, Encoding encoding, long blockRows, long blockCols)
        {
            ValueType type = TypeOf(values);
            lock (sync)
            {
                EnsureOpen();
                using (PinnedArray pinned = new PinnedArray(values, "values"))
                {
                    native.write_dense_tiled((int)type, pinned.Address, pinned.ByteCount,
                        Arguments.NonNegative(rowStride, "rowStride"), (int)encoding,
                        Arguments.BlockDimension(blockRows, "blockRows"),
                        Arguments.BlockDimension(blockCols, "blockCols"));
                }
            }
        }

        /// <summary>
        /// Writes the whole matrix from dense row-major values of <paramref name="type"/> at a raw address holding
        /// <paramref name="count"/> elements, tiled into blockRows x blockCols blocks (0: automatic).
        /// </summary>
        public void WriteDense(ValueType type, IntPtr values, long count, long rowStride = 0,
                               Encoding encoding = Encoding.Auto, long blockRows = 0, long blockCols = 0)
        {
            ulong nbytes = Arguments.AddressBytes(type, values, count, "values");
            lock (sync)
            {
                EnsureOpen();
                native.write_dense_tiled((int)type, values, nbytes, Arguments.NonNegative(rowStride, "rowStride"),
                    (int)encoding, Arguments.BlockDimension(blockRows, "blockRows"),
                    Arguments.BlockDimension(blockCols, "blockCols"));
            }
        }

        private void WriteColumnArray(long column, Array values, Encoding encoding, long blockRows)
        {
            ValueType type = TypeOf(values);
            lock (sync)
            {
                EnsureOpen();
                using (PinnedArray pinned = new PinnedArray(values, "values"))
                {
                    native.write_column_values(Arguments.NonNegative(column, "column"), (int)type, pinned.Address,
                        pinned.ByteCount, (int)encoding, Arguments.BlockDimension(blockRows, "blockRows"));
                }
            }
        }

        /// <summary>Writes frame column <paramref name="column"/> from Rows values of <paramref name="type"/> at a raw address.</summary>
        public void WriteColumn(long column, ValueType type, IntPtr values, long count,
                                Encoding encoding = Encoding.Auto, long blockRows = 0)
        {
            ulong nbytes = Arguments.AddressBytes(type, values, count, "values");
            lock (sync)
            {
                EnsureOpen();
                native.write_column_values(Arguments.NonNegative(column, "column"), (int)type, values, nbytes,
                    (int)encoding, Arguments.BlockDimension(blockRows, "blockRows"));
            }
        }
    }
}
