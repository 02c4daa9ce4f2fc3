using System;
using System.IO;
using Dbdf.Internal;

namespace Dbdf
{
    /// <summary>
    /// The current block of a <see cref="Reader"/>: its description, and decoding of its values. Valid until the
    /// reader moves to another block (then every decoding member throws InvalidOperationException) or is disposed
    /// (ObjectDisposedException). The description (<see cref="Info"/>) stays readable.
    /// </summary>
    public sealed partial class Block
    {
        private readonly Reader reader;

        internal Block(Reader reader, BlockInfo info, long position)
        {
            this.reader = reader;
            Info = info;
            Position = position;
        }

        internal long Position { get; private set; }

        /// <summary>The block as stored.</summary>
        public BlockInfo Info { get; private set; }

        public long Index { get { return Info.Index; } }
        public long Row { get { return Info.Row; } }
        public long Col { get { return Info.Col; } }
        public long Rows { get { return Info.Rows; } }
        public long Cols { get { return Info.Cols; } }
        public BlockType BlockType { get { return Info.BlockType; } }
        public ValueType ValueType { get { return Info.ValueType; } }

        /// <summary>
        /// The payload bytes as stored: a read-only stream over the reader's input, or for a file over a copy (dense: row-major
        /// little-endian values; CSR: the per-row records after the entry count; COO: the entries after the entry
        /// count; empty: no bytes). In <see cref="Dialect.Daphne"/> a CSR payload is DAPHNE's three arrays and a
        /// frame column's values lie a frame row apart (docs/daphne-dialect.md); the decoding members handle both.
        /// </summary>
        /// <remarks>
        /// The stream stays readable after the block is no longer current and after the reader is disposed. Over memory
        /// it keeps the reader's input alive, which is freed once the reader and every such stream are disposed (or
        /// finalized); for a file (read as blocks are asked for, into a buffer the reader reuses) it holds a copy of the
        /// payload. Dispose the stream (<c>using</c>). Like any stream, one thread at a time. Over
        /// <see cref="Reader.FromMemory(System.IntPtr, long)"/> it reads the caller's memory, which must stay valid
        /// as long.
        /// </remarks>
        public UnmanagedMemoryStream OpenPayload()
        {
            return reader.OpenPayload(this);
        }

        /// <summary>A copy of the payload bytes as stored.</summary>
        public byte[] PayloadToArray()
        {
            return reader.PayloadToArray(this);
        }

        /// <summary>
        /// Decodes as dense values of <paramref name="type"/> into a raw address holding <paramref name="capacity"/>
        /// elements: element (i, j) goes to index i * rowStride + j (rowStride 0: the block's cols).
        /// </summary>
        public void DecodeDense(ValueType type, IntPtr values, long capacity, long rowStride = 0)
        {
            reader.DecodeDense(this, type, values, capacity, rowStride);
        }

        /// <summary>
        /// Decodes as CSR of <paramref name="type"/> values with block-local indices, at raw addresses:
        /// <paramref name="rowOffsets"/> points to <paramref name="rowOffsetsCapacity"/> <c>ulong</c> elements and
        /// gets Rows + 1 of them; <paramref name="colIndices"/> (<paramref name="colIndicesCapacity"/> <c>uint</c>
        /// elements) and <paramref name="values"/> (<paramref name="valuesCapacity"/> elements of
        /// <paramref name="type"/>) get one per entry (size them with CountEntries()). Capacities are elements, not
        /// bytes; the library writes only during the call, and nothing when a capacity is too small. Returns the
        /// number of entries.
        /// </summary>
        public long DecodeCsr(ValueType type, IntPtr rowOffsets, long rowOffsetsCapacity, IntPtr colIndices,
                              long colIndicesCapacity, IntPtr values, long valuesCapacity)
        {
            return reader.DecodeCsr(this, type, rowOffsets, rowOffsetsCapacity, colIndices, colIndicesCapacity, values,
                valuesCapacity);
        }

        /// <summary>
        /// Decodes as COO triplets of <paramref name="type"/> values with block-local indices, row-major, at raw
        /// addresses: <paramref name="rowIndices"/> (<paramref name="rowIndicesCapacity"/> <c>uint</c> elements),
        /// <paramref name="colIndices"/> (<paramref name="colIndicesCapacity"/> <c>uint</c> elements) and
        /// <paramref name="values"/> (<paramref name="valuesCapacity"/> elements of <paramref name="type"/>) each get
        /// one per entry (size them with CountEntries()). Capacities are elements, not bytes; the library writes only
        /// during the call, and nothing when a capacity is too small. Returns the number of entries.
        /// </summary>
        public long DecodeCoo(ValueType type, IntPtr rowIndices, long rowIndicesCapacity, IntPtr colIndices,
                              long colIndicesCapacity, IntPtr values, long valuesCapacity)
        {
            return reader.DecodeCoo(this, type, rowIndices, rowIndicesCapacity, colIndices, colIndicesCapacity, values,
                valuesCapacity);
        }

        /// <summary>The block's values as a new row-major double[].</summary>
        public double[] ToDoubleArray()
        {
            return ToArray<double>();
        }

        /// <summary>The block's values as a new row-major array of <typeparamref name="T"/> (one of the ten element types).</summary>
        public T[] ToArray<T>() where T : struct
        {
            T[] values = new T[Arguments.ArrayLength(Rows, Cols)];
            reader.DecodeDense(this, values, 0);
            return values;
        }

        /// <summary>Number of entries the block yields as CSR or COO.</summary>
        public long CountEntries()
        {
            return reader.CountEntries(this);
        }

        public override string ToString()
        {
            return Info.ToString();
        }
    }
}
