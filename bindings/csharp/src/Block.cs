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
        /// The payload bytes as stored, without copying: a read-only stream over the reader's input (dense: row-major
        /// little-endian values; CSR: the per-row records after the entry count; COO: the entries after the entry
        /// count; empty: no bytes). It reads the reader's memory: do not use it after the reader is disposed.
        /// </summary>
        public unsafe UnmanagedMemoryStream OpenPayload()
        {
            NativeBytes payload = reader.Payload(this);
            long length = payload.LongLength;
            return new UnmanagedMemoryStream((byte*)payload.Data.ToPointer(), length, length, FileAccess.Read);
        }

        /// <summary>A copy of the payload bytes as stored.</summary>
        public byte[] PayloadToArray()
        {
            return reader.Payload(this).ToArray();
        }

        /// <summary>
        /// Decodes as dense values of <paramref name="type"/> into a raw address holding <paramref name="capacity"/>
        /// elements: element (i, j) goes to index i * rowStride + j (rowStride 0: the block's cols).
        /// </summary>
        public void DecodeDense(ValueType type, IntPtr values, long capacity, long rowStride = 0)
        {
            reader.DecodeDense(this, type, values, capacity, rowStride);
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
