using System;
using System.Collections;
using System.Collections.Generic;
using System.Collections.ObjectModel;
using System.IO;
using System.Text;
using Dbdf.Internal;

namespace Dbdf
{
    /// <summary>
    /// Reads one .dbdf object: its header, then its blocks one at a time, or the whole object at once.
    /// </summary>
    /// <example>
    /// <code>
    /// using (Reader reader = Reader.Open("m.dbdf"))
    /// {
    ///     foreach (Block block in reader.Blocks())
    ///     {
    ///         double[] values = block.ToDoubleArray();
    ///     }
    /// }
    /// </code>
    /// </example>
    /// <remarks>
    /// Owns native memory: dispose it (<c>using</c>). <see cref="Dispose()"/> is idempotent; every other member
    /// throws <see cref="System.ObjectDisposedException"/> after it. A finalizer frees a reader that was never disposed,
    /// as a safety net only. A reader is used by one thread at a time; its members lock it, so that a Dispose from
    /// another thread cannot free it during a call.
    ///
    /// Value arrays are pinned, not copied, during each call; their element type is the value type of the
    /// values (see <see cref="ValueType"/>), and values are converted exactly or the call fails with
    /// <see cref="Status.Range"/>.
    /// </remarks>
    public sealed partial class Reader : IDisposable, IEnumerable<Block>
    {
        private readonly object sync = new object();
        /// <summary>The native reader and its input, shared with the payload streams; the Reader holds one reference.</summary>
        private SharedNativeReader shared;
        /// <summary>The native reader of <see cref="shared"/>; null once disposed.</summary>
        private NativeReader native;
        private NativeBlockInfo scratch;
        private readonly ObjectInfo info;
        /// <summary>The reader's own copy of the options it was opened with.</summary>
        private readonly ReaderOptions options;
        private bool disposed;
        /// <summary>The current block, or null before the first and after the last.</summary>
        private BlockInfo? current;
        /// <summary>Changes whenever the current block changes, so that stale <see cref="Block"/> views are detected.</summary>
        private long position;
        /// <summary>True for a reader of a file, whose payloads are copied (see OpenPayload).</summary>
        private bool readsFile;

        /// <summary>Takes over <paramref name="native"/> and <paramref name="ownedMemory"/> (the native copy of FromBytes' input, or zero), also when it throws.</summary>
        private Reader(NativeReader native, IntPtr ownedMemory, ReaderOptions options)
        {
            this.options = options;
            shared = new SharedNativeReader(native, ownedMemory);
            this.native = native;
            scratch = new NativeBlockInfo();
            try
            {
                using (NativeObjectInfo header = native.info())
                {
                    info = new ObjectInfo(header);
                }
            }
            catch
            {
                Dispose();
                throw;
            }
        }

        ~Reader()
        {
            Dispose(false);
        }

        private void EnsureOpen()
        {
            if (disposed)
            {
                throw new ObjectDisposedException("Reader", "the reader is disposed");
            }
        }

        /// <summary>True after <see cref="Dispose()"/>.</summary>
        public bool IsDisposed
        {
            get { lock (sync) { return disposed; } }
        }

        /// <summary>What the object header says.</summary>
        public ObjectInfo Info
        {
            get
            {
                lock (sync)
                {
                    EnsureOpen();
                    return info;
                }
            }
        }

        /// <summary>The dialect the reader was opened with.</summary>
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
        /// The threads the whole-object reads decode on (<see cref="ReaderOptions.Threads"/>; 0: automatic), as the
        /// reader was opened.
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

        /// <summary>
        /// Whether <see cref="ColumnLabel"/> returns the labels the file holds: false when they could not be recovered
        /// and are DAPHNE's defaults <c>col_0</c>, <c>col_1</c>, ... (frames in <see cref="Dialect.Daphne"/>, whose
        /// runtime writes memory bytes instead of the label text). True for matrices.
        /// </summary>
        public bool LabelsRecoverable
        {
            get
            {
                lock (sync)
                {
                    EnsureOpen();
                    return native.labels_are_recoverable();
                }
            }
        }

        /// <summary>Value type of a column: a frame column's own type, for a matrix the object's value type.</summary>
        public ValueType ColumnType(long column)
        {
            lock (sync)
            {
                EnsureOpen();
                return (ValueType)native.value_type_of_column(Arguments.NonNegative(column, "column"));
            }
        }

        /// <summary>Label of a frame column, decoded as UTF-8.</summary>
        public string ColumnLabel(long column)
        {
            return System.Text.Encoding.UTF8.GetString(ColumnLabelBytes(column));
        }

        /// <summary>Label of a frame column as stored.</summary>
        public byte[] ColumnLabelBytes(long column)
        {
            lock (sync)
            {
                EnsureOpen();
                return native.label_of_column(Arguments.NonNegative(column, "column"));
            }
        }

        /// <summary>
        /// Moves to the next block. Returns false past the last block, after checking that the blocks partition the
        /// object. Throws <see cref="DbdfException"/> for a malformed block; further calls then repeat the error.
        /// </summary>
        public bool NextBlock()
        {
            lock (sync)
            {
                EnsureOpen();
                position++;
                current = null;
                bool more = native.move_next(scratch);
                if (more)
                {
                    current = new BlockInfo(scratch);
                }
                return more;
            }
        }

        /// <summary>The current block. Throws InvalidOperationException before the first NextBlock() and after the last.</summary>
        public Block CurrentBlock
        {
            get
            {
                lock (sync)
                {
                    EnsureOpen();
                    if (!current.HasValue)
                    {
                        throw new InvalidOperationException(
                            "no current block: call NextBlock() first (or the blocks are done)");
                    }
                    return new Block(this, current.Value, position);
                }
            }
        }

        /// <summary>Goes back before the first block.</summary>
        public void Rewind()
        {
            lock (sync)
            {
                EnsureOpen();
                native.rewind_blocks();
                position++;
                current = null;
            }
        }

        /// <summary>
        /// The blocks in file order, for a foreach loop. Each enumeration starts from the first block (it rewinds),
        /// and each Block is valid until the loop moves on.
        /// </summary>
        public IEnumerable<Block> Blocks()
        {
            lock (sync)
            {
                EnsureOpen();
            }
            return EnumerateBlocks();
        }

        private IEnumerable<Block> EnumerateBlocks()
        {
            Rewind();
            while (NextBlock())
            {
                yield return CurrentBlock;
            }
        }

        /// <summary>The same as <see cref="Blocks()"/>: <c>foreach (Block block in reader)</c>.</summary>
        public IEnumerator<Block> GetEnumerator()
        {
            return Blocks().GetEnumerator();
        }

        IEnumerator IEnumerable.GetEnumerator()
        {
            return GetEnumerator();
        }

        /// <summary>Walks all block headers (payloads skipped) and checks the layout; returns the number of blocks.</summary>
        public long BuildIndex()
        {
            lock (sync)
            {
                EnsureOpen();
                return (long)native.index_blocks();
            }
        }

        /// <summary>Describes block <paramref name="index"/> (file order), building the index first if needed.</summary>
        public BlockInfo IndexEntry(long index)
        {
            lock (sync)
            {
                EnsureOpen();
                ulong checkedIndex = Arguments.NonNegative(index, "index");
                using (NativeBlockInfo entry = new NativeBlockInfo())
                {
                    native.indexed_block(checkedIndex, entry);
                    return new BlockInfo(entry);
                }
            }
        }

        /// <summary>Makes block <paramref name="index"/> (file order) the current block and returns it; NextBlock() continues after it.</summary>
        public Block SeekBlock(long index)
        {
            lock (sync)
            {
                EnsureOpen();
                ulong checkedIndex = Arguments.NonNegative(index, "index");
                position++;
                current = null;
                native.seek(checkedIndex);
                native.current_block(scratch);
                current = new BlockInfo(scratch);
                return new Block(this, current.Value, position);
            }
        }

        /// <summary>The whole object as a new row-major double[] (every value must be exactly representable as a double).</summary>
        public double[] ReadDoubles()
        {
            ObjectInfo header = Info;
            double[] values = new double[Arguments.ArrayLength(header.Rows, header.Cols)];
            ReadDense(values);
            return values;
        }

        /// <summary>The whole object as a new row-major array of <typeparamref name="T"/> (one of the ten element types).</summary>
        public T[] ReadDense<T>() where T : struct
        {
            ObjectInfo header = Info;
            T[] values = new T[Arguments.ArrayLength(header.Rows, header.Cols)];
            ReadDenseArray(values, 0);
            return values;
        }

        /// <summary>Number of entries the whole object yields as CSR.</summary>
        public long CountEntries()
        {
            lock (sync)
            {
                EnsureOpen();
                return (long)native.object_entries();
            }
        }

        /// <summary>Checks every rule of the format strictly; throws DbdfException naming the first violation.</summary>
        public void Validate()
        {
            lock (sync)
            {
                EnsureOpen();
                native.check_rules();
            }
        }

        /// <summary>
        /// Checks every rule of the format strictly and returns every violation found, in the order the library
        /// reports them; an empty list for a valid object. Throws <see cref="DbdfException"/> only when the check
        /// itself cannot run (for example <see cref="Status.NoMemory"/>), never because of a violation.
        /// </summary>
        public IReadOnlyList<Violation> Violations()
        {
            lock (sync)
            {
                EnsureOpen();
                using (NativeViolations found = native.find_violations())
                {
                    Violation[] violations = new Violation[checked((int)found.count())];
                    for (int index = 0; index < violations.Length; index++)
                    {
                        violations[index] = new Violation(found.rule((ulong)index), (long)found.offset((ulong)index),
                            System.Text.Encoding.UTF8.GetString(found.message_bytes((ulong)index)));
                    }
                    // A wrapper, not the array itself, which a caller could cast back and change.
                    return new ReadOnlyCollection<Violation>(violations);
                }
            }
        }

        /// <summary>
        /// Releases the native reader. Idempotent. Payload streams opened from this reader stay readable: the native
        /// reader and its input are freed when the reader and every payload stream are disposed (or finalized).
        /// </summary>
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
                current = null;
                native = null;
                if (shared != null)
                {
                    shared.Release();
                    shared = null;
                }
                if (scratch != null)
                {
                    scratch.Dispose();
                    scratch = null;
                }
            }
        }

        // ---- array-based operations behind the typed overloads (Reader.Typed.cs.in) -----------------------------

        private static ValueType TypeOf(Array values, string name)
        {
            if (values == null)
            {
                throw new ArgumentNullException(name);
            }
            return ValueTypes.Of(values.GetType().GetElementType());
        }

        private void ReadDenseArray(Array values, long rowStride)
        {
            ValueType type = TypeOf(values, "values");
            ulong stride = Arguments.NonNegative(rowStride, "rowStride");
            lock (sync)
            {
                EnsureOpen();
                using (PinnedArray pinned = new PinnedArray(values, "values"))
                {
                    native.read_all((int)type, pinned.Address, pinned.ByteCount, stride);
                }
            }
        }

        /// <summary>
        /// The whole object as dense row-major values of <paramref name="type"/> at a raw address holding
        /// <paramref name="capacity"/> elements, <paramref name="rowStride"/> elements apart (0: cols).
        /// </summary>
        public void ReadDense(ValueType type, IntPtr values, long capacity, long rowStride = 0)
        {
            ulong nbytes = Arguments.AddressBytes(type, values, capacity, "values", "capacity");
            ulong stride = Arguments.NonNegative(rowStride, "rowStride");
            lock (sync)
            {
                EnsureOpen();
                native.read_all((int)type, values, nbytes, stride);
            }
        }

        private void ReadWindowArray(long row, long col, long rows, long cols, Array values, long rowStride)
        {
            ValueType type = TypeOf(values, "values");
            ulong stride = Arguments.NonNegative(rowStride, "rowStride");
            lock (sync)
            {
                EnsureOpen();
                using (PinnedArray pinned = new PinnedArray(values, "values"))
                {
                    native.read_window((int)type, Arguments.NonNegative(row, "row"), Arguments.NonNegative(col, "col"),
                        Arguments.NonNegative(rows, "rows"), Arguments.NonNegative(cols, "cols"), pinned.Address,
                        pinned.ByteCount, stride);
                }
            }
        }

        /// <summary>The window of rows [row, row + rows) and columns [col, col + cols), dense, row-major, at a raw address.</summary>
        public void ReadWindow(long row, long col, long rows, long cols, ValueType type, IntPtr values, long capacity,
                               long rowStride = 0)
        {
            ulong nbytes = Arguments.AddressBytes(type, values, capacity, "values", "capacity");
            ulong stride = Arguments.NonNegative(rowStride, "rowStride");
            lock (sync)
            {
                EnsureOpen();
                native.read_window((int)type, Arguments.NonNegative(row, "row"), Arguments.NonNegative(col, "col"),
                    Arguments.NonNegative(rows, "rows"), Arguments.NonNegative(cols, "cols"), values, nbytes, stride);
            }
        }

        private void ReadColumnArray(long column, Array values)
        {
            ValueType type = TypeOf(values, "values");
            lock (sync)
            {
                EnsureOpen();
                using (PinnedArray pinned = new PinnedArray(values, "values"))
                {
                    native.read_column_values(Arguments.NonNegative(column, "column"), (int)type, pinned.Address,
                        pinned.ByteCount);
                }
            }
        }

        /// <summary>Frame (or matrix) column <paramref name="column"/> as Rows values of <paramref name="type"/> at a raw address.</summary>
        public void ReadColumn(long column, ValueType type, IntPtr values, long capacity)
        {
            ulong nbytes = Arguments.AddressBytes(type, values, capacity, "values", "capacity");
            lock (sync)
            {
                EnsureOpen();
                native.read_column_values(Arguments.NonNegative(column, "column"), (int)type, values, nbytes);
            }
        }

        private long ReadCsrArray(ulong[] rowOffsets, ulong[] colIndices, Array values)
        {
            ValueType type = TypeOf(values, "values");
            lock (sync)
            {
                EnsureOpen();
                using (PinnedArray pinnedOffsets = new PinnedArray(rowOffsets, "rowOffsets"))
                using (PinnedArray pinnedColumns = new PinnedArray(colIndices, "colIndices"))
                using (PinnedArray pinnedValues = new PinnedArray(values, "values"))
                {
                    return (long)native.read_all_csr((int)type, pinnedOffsets.Address, pinnedOffsets.Count,
                        pinnedColumns.Address, pinnedColumns.Count, pinnedValues.Address, pinnedValues.ByteCount);
                }
            }
        }

        /// <summary>
        /// The whole object as CSR of <paramref name="type"/> values with object-wide indices, at raw addresses:
        /// <paramref name="rowOffsets"/> points to <paramref name="rowOffsetsCapacity"/> <c>ulong</c> elements and
        /// gets Rows + 1 of them; <paramref name="colIndices"/> (<paramref name="colIndicesCapacity"/> <c>ulong</c>
        /// elements) and <paramref name="values"/> (<paramref name="valuesCapacity"/> elements of
        /// <paramref name="type"/>) get one per entry (size them with CountEntries()). Capacities are elements, not
        /// bytes; the library writes only during the call, and nothing when a capacity is too small. Returns the
        /// number of entries.
        /// </summary>
        public long ReadCsr(ValueType type, IntPtr rowOffsets, long rowOffsetsCapacity, IntPtr colIndices,
                            long colIndicesCapacity, IntPtr values, long valuesCapacity)
        {
            ulong offsetsCapacity = Arguments.AddressCount(rowOffsets, rowOffsetsCapacity, "rowOffsets",
                "rowOffsetsCapacity");
            ulong columnsCapacity = Arguments.AddressCount(colIndices, colIndicesCapacity, "colIndices",
                "colIndicesCapacity");
            ulong nbytes = Arguments.AddressBytes(type, values, valuesCapacity, "values", "valuesCapacity");
            lock (sync)
            {
                EnsureOpen();
                return (long)native.read_all_csr((int)type, rowOffsets, offsetsCapacity, colIndices, columnsCapacity,
                    values, nbytes);
            }
        }

        // ---- operations on the current block, used by Block -------------------------------------------------------

        private void CheckCurrent(Block block)
        {
            EnsureOpen();
            if (block.Position != position)
            {
                throw new InvalidOperationException("block " + block.Index
                    + " is no longer the current block of its reader");
            }
        }

        internal byte[] PayloadToArray(Block block)
        {
            lock (sync)
            {
                CheckCurrent(block);
                return native.payload().ToArray();
            }
        }

        internal UnmanagedMemoryStream OpenPayload(Block block)
        {
            lock (sync)
            {
                CheckCurrent(block);
                NativeBytes payload = native.payload();
                if (readsFile)
                {
                    // The native reader reads a file's payloads into a buffer it reuses for the next block.
                    return CopiedPayloadStream.CopyOf(payload);
                }
                shared.AddReference();
                try
                {
                    return new PayloadStream(shared, payload);
                }
                catch
                {
                    shared.Release();
                    throw;
                }
            }
        }

        internal void DecodeDense(Block block, Array values, long rowStride)
        {
            ValueType type = TypeOf(values, "values");
            ulong stride = Arguments.NonNegative(rowStride, "rowStride");
            lock (sync)
            {
                CheckCurrent(block);
                using (PinnedArray pinned = new PinnedArray(values, "values"))
                {
                    native.decode_dense((int)type, pinned.Address, pinned.ByteCount, stride);
                }
            }
        }

        internal void DecodeDense(Block block, ValueType type, IntPtr values, long capacity, long rowStride)
        {
            ulong nbytes = Arguments.AddressBytes(type, values, capacity, "values", "capacity");
            ulong stride = Arguments.NonNegative(rowStride, "rowStride");
            lock (sync)
            {
                CheckCurrent(block);
                native.decode_dense((int)type, values, nbytes, stride);
            }
        }

        internal long CountEntries(Block block)
        {
            lock (sync)
            {
                CheckCurrent(block);
                return (long)native.block_entries();
            }
        }

        internal long DecodeCsr(Block block, ulong[] rowOffsets, uint[] colIndices, Array values)
        {
            ValueType type = TypeOf(values, "values");
            lock (sync)
            {
                CheckCurrent(block);
                using (PinnedArray pinnedOffsets = new PinnedArray(rowOffsets, "rowOffsets"))
                using (PinnedArray pinnedColumns = new PinnedArray(colIndices, "colIndices"))
                using (PinnedArray pinnedValues = new PinnedArray(values, "values"))
                {
                    return (long)native.decode_csr((int)type, pinnedOffsets.Address, pinnedOffsets.Count,
                        pinnedColumns.Address, pinnedColumns.Count, pinnedValues.Address, pinnedValues.ByteCount);
                }
            }
        }

        internal long DecodeCoo(Block block, uint[] rowIndices, uint[] colIndices, Array values)
        {
            ValueType type = TypeOf(values, "values");
            lock (sync)
            {
                CheckCurrent(block);
                using (PinnedArray pinnedRows = new PinnedArray(rowIndices, "rowIndices"))
                using (PinnedArray pinnedColumns = new PinnedArray(colIndices, "colIndices"))
                using (PinnedArray pinnedValues = new PinnedArray(values, "values"))
                {
                    return (long)native.decode_coo((int)type, pinnedRows.Address, pinnedRows.Count,
                        pinnedColumns.Address, pinnedColumns.Count, pinnedValues.Address, pinnedValues.ByteCount);
                }
            }
        }

        internal long DecodeCsr(Block block, ValueType type, IntPtr rowOffsets, long rowOffsetsCapacity,
                                IntPtr colIndices, long colIndicesCapacity, IntPtr values, long valuesCapacity)
        {
            ulong offsetsCapacity = Arguments.AddressCount(rowOffsets, rowOffsetsCapacity, "rowOffsets",
                "rowOffsetsCapacity");
            ulong columnsCapacity = Arguments.AddressCount(colIndices, colIndicesCapacity, "colIndices",
                "colIndicesCapacity");
            ulong nbytes = Arguments.AddressBytes(type, values, valuesCapacity, "values", "valuesCapacity");
            lock (sync)
            {
                CheckCurrent(block);
                return (long)native.decode_csr((int)type, rowOffsets, offsetsCapacity, colIndices, columnsCapacity,
                    values, nbytes);
            }
        }

        internal long DecodeCoo(Block block, ValueType type, IntPtr rowIndices, long rowIndicesCapacity,
                                IntPtr colIndices, long colIndicesCapacity, IntPtr values, long valuesCapacity)
        {
            ulong rowsCapacity = Arguments.AddressCount(rowIndices, rowIndicesCapacity, "rowIndices",
                "rowIndicesCapacity");
            ulong columnsCapacity = Arguments.AddressCount(colIndices, colIndicesCapacity, "colIndices",
                "colIndicesCapacity");
            ulong nbytes = Arguments.AddressBytes(type, values, valuesCapacity, "values", "valuesCapacity");
            lock (sync)
            {
                CheckCurrent(block);
                return (long)native.decode_coo((int)type, rowIndices, rowsCapacity, colIndices, columnsCapacity,
                    values, nbytes);
            }
        }
    }
}
