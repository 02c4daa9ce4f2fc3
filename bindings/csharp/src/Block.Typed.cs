// One overload per element type (the ten value types of the format), each pinning the array for the call.
namespace Dbdf
{
    public sealed partial class Block
    {
        /// <summary>Decodes as dense row-major F64 values: element (i, j) goes to index i * rowStride + j (rowStride 0: the block's cols). Zeros are filled in for sparse and empty blocks.</summary>
        public void DecodeDense(double[] values, long rowStride = 0)
        {
            reader.DecodeDense(this, values, rowStride);
        }

        /// <summary>Decodes as dense row-major F32 values: element (i, j) goes to index i * rowStride + j (rowStride 0: the block's cols). Zeros are filled in for sparse and empty blocks.</summary>
        public void DecodeDense(float[] values, long rowStride = 0)
        {
            reader.DecodeDense(this, values, rowStride);
        }

        /// <summary>Decodes as dense row-major I64 values: element (i, j) goes to index i * rowStride + j (rowStride 0: the block's cols). Zeros are filled in for sparse and empty blocks.</summary>
        public void DecodeDense(long[] values, long rowStride = 0)
        {
            reader.DecodeDense(this, values, rowStride);
        }

        /// <summary>Decodes as dense row-major U64 values: element (i, j) goes to index i * rowStride + j (rowStride 0: the block's cols). Zeros are filled in for sparse and empty blocks.</summary>
        public void DecodeDense(ulong[] values, long rowStride = 0)
        {
            reader.DecodeDense(this, values, rowStride);
        }

        /// <summary>Decodes as dense row-major I32 values: element (i, j) goes to index i * rowStride + j (rowStride 0: the block's cols). Zeros are filled in for sparse and empty blocks.</summary>
        public void DecodeDense(int[] values, long rowStride = 0)
        {
            reader.DecodeDense(this, values, rowStride);
        }

        /// <summary>Decodes as dense row-major U32 values: element (i, j) goes to index i * rowStride + j (rowStride 0: the block's cols). Zeros are filled in for sparse and empty blocks.</summary>
        public void DecodeDense(uint[] values, long rowStride = 0)
        {
            reader.DecodeDense(this, values, rowStride);
        }

        /// <summary>Decodes as dense row-major I16 values: element (i, j) goes to index i * rowStride + j (rowStride 0: the block's cols). Zeros are filled in for sparse and empty blocks.</summary>
        public void DecodeDense(short[] values, long rowStride = 0)
        {
            reader.DecodeDense(this, values, rowStride);
        }

        /// <summary>Decodes as dense row-major U16 values: element (i, j) goes to index i * rowStride + j (rowStride 0: the block's cols). Zeros are filled in for sparse and empty blocks.</summary>
        public void DecodeDense(ushort[] values, long rowStride = 0)
        {
            reader.DecodeDense(this, values, rowStride);
        }

        /// <summary>Decodes as dense row-major I8 values: element (i, j) goes to index i * rowStride + j (rowStride 0: the block's cols). Zeros are filled in for sparse and empty blocks.</summary>
        public void DecodeDense(sbyte[] values, long rowStride = 0)
        {
            reader.DecodeDense(this, values, rowStride);
        }

        /// <summary>Decodes as dense row-major U8 values: element (i, j) goes to index i * rowStride + j (rowStride 0: the block's cols). Zeros are filled in for sparse and empty blocks.</summary>
        public void DecodeDense(byte[] values, long rowStride = 0)
        {
            reader.DecodeDense(this, values, rowStride);
        }

        /// <summary>Decodes as CSR of F64 values with block-local indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long DecodeCsr(ulong[] rowOffsets, uint[] colIndices, double[] values)
        {
            return reader.DecodeCsr(this, rowOffsets, colIndices, values);
        }

        /// <summary>Decodes as CSR of F32 values with block-local indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long DecodeCsr(ulong[] rowOffsets, uint[] colIndices, float[] values)
        {
            return reader.DecodeCsr(this, rowOffsets, colIndices, values);
        }

        /// <summary>Decodes as CSR of I64 values with block-local indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long DecodeCsr(ulong[] rowOffsets, uint[] colIndices, long[] values)
        {
            return reader.DecodeCsr(this, rowOffsets, colIndices, values);
        }

        /// <summary>Decodes as CSR of U64 values with block-local indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long DecodeCsr(ulong[] rowOffsets, uint[] colIndices, ulong[] values)
        {
            return reader.DecodeCsr(this, rowOffsets, colIndices, values);
        }

        /// <summary>Decodes as CSR of I32 values with block-local indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long DecodeCsr(ulong[] rowOffsets, uint[] colIndices, int[] values)
        {
            return reader.DecodeCsr(this, rowOffsets, colIndices, values);
        }

        /// <summary>Decodes as CSR of U32 values with block-local indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long DecodeCsr(ulong[] rowOffsets, uint[] colIndices, uint[] values)
        {
            return reader.DecodeCsr(this, rowOffsets, colIndices, values);
        }

        /// <summary>Decodes as CSR of I16 values with block-local indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long DecodeCsr(ulong[] rowOffsets, uint[] colIndices, short[] values)
        {
            return reader.DecodeCsr(this, rowOffsets, colIndices, values);
        }

        /// <summary>Decodes as CSR of U16 values with block-local indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long DecodeCsr(ulong[] rowOffsets, uint[] colIndices, ushort[] values)
        {
            return reader.DecodeCsr(this, rowOffsets, colIndices, values);
        }

        /// <summary>Decodes as CSR of I8 values with block-local indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long DecodeCsr(ulong[] rowOffsets, uint[] colIndices, sbyte[] values)
        {
            return reader.DecodeCsr(this, rowOffsets, colIndices, values);
        }

        /// <summary>Decodes as CSR of U8 values with block-local indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long DecodeCsr(ulong[] rowOffsets, uint[] colIndices, byte[] values)
        {
            return reader.DecodeCsr(this, rowOffsets, colIndices, values);
        }

        /// <summary>Decodes as COO triplets of F64 values with block-local indices, row-major. Returns the number of entries.</summary>
        public long DecodeCoo(uint[] rowIndices, uint[] colIndices, double[] values)
        {
            return reader.DecodeCoo(this, rowIndices, colIndices, values);
        }

        /// <summary>Decodes as COO triplets of F32 values with block-local indices, row-major. Returns the number of entries.</summary>
        public long DecodeCoo(uint[] rowIndices, uint[] colIndices, float[] values)
        {
            return reader.DecodeCoo(this, rowIndices, colIndices, values);
        }

        /// <summary>Decodes as COO triplets of I64 values with block-local indices, row-major. Returns the number of entries.</summary>
        public long DecodeCoo(uint[] rowIndices, uint[] colIndices, long[] values)
        {
            return reader.DecodeCoo(this, rowIndices, colIndices, values);
        }

        /// <summary>Decodes as COO triplets of U64 values with block-local indices, row-major. Returns the number of entries.</summary>
        public long DecodeCoo(uint[] rowIndices, uint[] colIndices, ulong[] values)
        {
            return reader.DecodeCoo(this, rowIndices, colIndices, values);
        }

        /// <summary>Decodes as COO triplets of I32 values with block-local indices, row-major. Returns the number of entries.</summary>
        public long DecodeCoo(uint[] rowIndices, uint[] colIndices, int[] values)
        {
            return reader.DecodeCoo(this, rowIndices, colIndices, values);
        }

        /// <summary>Decodes as COO triplets of U32 values with block-local indices, row-major. Returns the number of entries.</summary>
        public long DecodeCoo(uint[] rowIndices, uint[] colIndices, uint[] values)
        {
            return reader.DecodeCoo(this, rowIndices, colIndices, values);
        }

        /// <summary>Decodes as COO triplets of I16 values with block-local indices, row-major. Returns the number of entries.</summary>
        public long DecodeCoo(uint[] rowIndices, uint[] colIndices, short[] values)
        {
            return reader.DecodeCoo(this, rowIndices, colIndices, values);
        }

        /// <summary>Decodes as COO triplets of U16 values with block-local indices, row-major. Returns the number of entries.</summary>
        public long DecodeCoo(uint[] rowIndices, uint[] colIndices, ushort[] values)
        {
            return reader.DecodeCoo(this, rowIndices, colIndices, values);
        }

        /// <summary>Decodes as COO triplets of I8 values with block-local indices, row-major. Returns the number of entries.</summary>
        public long DecodeCoo(uint[] rowIndices, uint[] colIndices, sbyte[] values)
        {
            return reader.DecodeCoo(this, rowIndices, colIndices, values);
        }

        /// <summary>Decodes as COO triplets of U8 values with block-local indices, row-major. Returns the number of entries.</summary>
        public long DecodeCoo(uint[] rowIndices, uint[] colIndices, byte[] values)
        {
            return reader.DecodeCoo(this, rowIndices, colIndices, values);
        }
    }
}
