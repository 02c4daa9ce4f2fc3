// One overload per element type (the ten value types of the format), each pinning the array for the call.
namespace Dbdf
{
    public sealed partial class Writer
    {
        /// <summary>Adds the block at (row, col) of shape rows x cols from row-major F64 values: element (i, j) is at index i * rowStride + j (rowStride 0: cols).</summary>
        public void AddDense(long row, long col, long rows, long cols, double[] values, long rowStride = 0, Encoding encoding = Encoding.Auto)
        {
            AddDenseArray(row, col, rows, cols, values, rowStride, encoding);
        }

        /// <summary>Adds the block at (row, col) of shape rows x cols from row-major F32 values: element (i, j) is at index i * rowStride + j (rowStride 0: cols).</summary>
        public void AddDense(long row, long col, long rows, long cols, float[] values, long rowStride = 0, Encoding encoding = Encoding.Auto)
        {
            AddDenseArray(row, col, rows, cols, values, rowStride, encoding);
        }

        /// <summary>Adds the block at (row, col) of shape rows x cols from row-major I64 values: element (i, j) is at index i * rowStride + j (rowStride 0: cols).</summary>
        public void AddDense(long row, long col, long rows, long cols, long[] values, long rowStride = 0, Encoding encoding = Encoding.Auto)
        {
            AddDenseArray(row, col, rows, cols, values, rowStride, encoding);
        }

        /// <summary>Adds the block at (row, col) of shape rows x cols from row-major U64 values: element (i, j) is at index i * rowStride + j (rowStride 0: cols).</summary>
        public void AddDense(long row, long col, long rows, long cols, ulong[] values, long rowStride = 0, Encoding encoding = Encoding.Auto)
        {
            AddDenseArray(row, col, rows, cols, values, rowStride, encoding);
        }

        /// <summary>Adds the block at (row, col) of shape rows x cols from row-major I32 values: element (i, j) is at index i * rowStride + j (rowStride 0: cols).</summary>
        public void AddDense(long row, long col, long rows, long cols, int[] values, long rowStride = 0, Encoding encoding = Encoding.Auto)
        {
            AddDenseArray(row, col, rows, cols, values, rowStride, encoding);
        }

        /// <summary>Adds the block at (row, col) of shape rows x cols from row-major U32 values: element (i, j) is at index i * rowStride + j (rowStride 0: cols).</summary>
        public void AddDense(long row, long col, long rows, long cols, uint[] values, long rowStride = 0, Encoding encoding = Encoding.Auto)
        {
            AddDenseArray(row, col, rows, cols, values, rowStride, encoding);
        }

        /// <summary>Adds the block at (row, col) of shape rows x cols from row-major I16 values: element (i, j) is at index i * rowStride + j (rowStride 0: cols).</summary>
        public void AddDense(long row, long col, long rows, long cols, short[] values, long rowStride = 0, Encoding encoding = Encoding.Auto)
        {
            AddDenseArray(row, col, rows, cols, values, rowStride, encoding);
        }

        /// <summary>Adds the block at (row, col) of shape rows x cols from row-major U16 values: element (i, j) is at index i * rowStride + j (rowStride 0: cols).</summary>
        public void AddDense(long row, long col, long rows, long cols, ushort[] values, long rowStride = 0, Encoding encoding = Encoding.Auto)
        {
            AddDenseArray(row, col, rows, cols, values, rowStride, encoding);
        }

        /// <summary>Adds the block at (row, col) of shape rows x cols from row-major I8 values: element (i, j) is at index i * rowStride + j (rowStride 0: cols).</summary>
        public void AddDense(long row, long col, long rows, long cols, sbyte[] values, long rowStride = 0, Encoding encoding = Encoding.Auto)
        {
            AddDenseArray(row, col, rows, cols, values, rowStride, encoding);
        }

        /// <summary>Adds the block at (row, col) of shape rows x cols from row-major U8 values: element (i, j) is at index i * rowStride + j (rowStride 0: cols).</summary>
        public void AddDense(long row, long col, long rows, long cols, byte[] values, long rowStride = 0, Encoding encoding = Encoding.Auto)
        {
            AddDenseArray(row, col, rows, cols, values, rowStride, encoding);
        }

        /// <summary>Adds a block from block-local CSR arrays of F64 values: rowOffsets has rows + 1 entries starting at 0; the entries are colIndices[k] (strictly increasing within a row, below cols) and values[k] for k below rowOffsets[rows].</summary>
        public void AddCsr(long row, long col, long rows, long cols, ulong[] rowOffsets, uint[] colIndices, double[] values, Encoding encoding = Encoding.Auto)
        {
            AddCsrArray(row, col, rows, cols, rowOffsets, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local CSR arrays of F32 values: rowOffsets has rows + 1 entries starting at 0; the entries are colIndices[k] (strictly increasing within a row, below cols) and values[k] for k below rowOffsets[rows].</summary>
        public void AddCsr(long row, long col, long rows, long cols, ulong[] rowOffsets, uint[] colIndices, float[] values, Encoding encoding = Encoding.Auto)
        {
            AddCsrArray(row, col, rows, cols, rowOffsets, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local CSR arrays of I64 values: rowOffsets has rows + 1 entries starting at 0; the entries are colIndices[k] (strictly increasing within a row, below cols) and values[k] for k below rowOffsets[rows].</summary>
        public void AddCsr(long row, long col, long rows, long cols, ulong[] rowOffsets, uint[] colIndices, long[] values, Encoding encoding = Encoding.Auto)
        {
            AddCsrArray(row, col, rows, cols, rowOffsets, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local CSR arrays of U64 values: rowOffsets has rows + 1 entries starting at 0; the entries are colIndices[k] (strictly increasing within a row, below cols) and values[k] for k below rowOffsets[rows].</summary>
        public void AddCsr(long row, long col, long rows, long cols, ulong[] rowOffsets, uint[] colIndices, ulong[] values, Encoding encoding = Encoding.Auto)
        {
            AddCsrArray(row, col, rows, cols, rowOffsets, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local CSR arrays of I32 values: rowOffsets has rows + 1 entries starting at 0; the entries are colIndices[k] (strictly increasing within a row, below cols) and values[k] for k below rowOffsets[rows].</summary>
        public void AddCsr(long row, long col, long rows, long cols, ulong[] rowOffsets, uint[] colIndices, int[] values, Encoding encoding = Encoding.Auto)
        {
            AddCsrArray(row, col, rows, cols, rowOffsets, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local CSR arrays of U32 values: rowOffsets has rows + 1 entries starting at 0; the entries are colIndices[k] (strictly increasing within a row, below cols) and values[k] for k below rowOffsets[rows].</summary>
        public void AddCsr(long row, long col, long rows, long cols, ulong[] rowOffsets, uint[] colIndices, uint[] values, Encoding encoding = Encoding.Auto)
        {
            AddCsrArray(row, col, rows, cols, rowOffsets, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local CSR arrays of I16 values: rowOffsets has rows + 1 entries starting at 0; the entries are colIndices[k] (strictly increasing within a row, below cols) and values[k] for k below rowOffsets[rows].</summary>
        public void AddCsr(long row, long col, long rows, long cols, ulong[] rowOffsets, uint[] colIndices, short[] values, Encoding encoding = Encoding.Auto)
        {
            AddCsrArray(row, col, rows, cols, rowOffsets, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local CSR arrays of U16 values: rowOffsets has rows + 1 entries starting at 0; the entries are colIndices[k] (strictly increasing within a row, below cols) and values[k] for k below rowOffsets[rows].</summary>
        public void AddCsr(long row, long col, long rows, long cols, ulong[] rowOffsets, uint[] colIndices, ushort[] values, Encoding encoding = Encoding.Auto)
        {
            AddCsrArray(row, col, rows, cols, rowOffsets, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local CSR arrays of I8 values: rowOffsets has rows + 1 entries starting at 0; the entries are colIndices[k] (strictly increasing within a row, below cols) and values[k] for k below rowOffsets[rows].</summary>
        public void AddCsr(long row, long col, long rows, long cols, ulong[] rowOffsets, uint[] colIndices, sbyte[] values, Encoding encoding = Encoding.Auto)
        {
            AddCsrArray(row, col, rows, cols, rowOffsets, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local CSR arrays of U8 values: rowOffsets has rows + 1 entries starting at 0; the entries are colIndices[k] (strictly increasing within a row, below cols) and values[k] for k below rowOffsets[rows].</summary>
        public void AddCsr(long row, long col, long rows, long cols, ulong[] rowOffsets, uint[] colIndices, byte[] values, Encoding encoding = Encoding.Auto)
        {
            AddCsrArray(row, col, rows, cols, rowOffsets, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local COO triplets of F64 values in strictly increasing (row, column) order; there are rowIndices.Length entries, and colIndices and values hold at least as many.</summary>
        public void AddCoo(long row, long col, long rows, long cols, uint[] rowIndices, uint[] colIndices, double[] values, Encoding encoding = Encoding.Auto)
        {
            AddCooArray(row, col, rows, cols, rowIndices, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local COO triplets of F32 values in strictly increasing (row, column) order; there are rowIndices.Length entries, and colIndices and values hold at least as many.</summary>
        public void AddCoo(long row, long col, long rows, long cols, uint[] rowIndices, uint[] colIndices, float[] values, Encoding encoding = Encoding.Auto)
        {
            AddCooArray(row, col, rows, cols, rowIndices, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local COO triplets of I64 values in strictly increasing (row, column) order; there are rowIndices.Length entries, and colIndices and values hold at least as many.</summary>
        public void AddCoo(long row, long col, long rows, long cols, uint[] rowIndices, uint[] colIndices, long[] values, Encoding encoding = Encoding.Auto)
        {
            AddCooArray(row, col, rows, cols, rowIndices, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local COO triplets of U64 values in strictly increasing (row, column) order; there are rowIndices.Length entries, and colIndices and values hold at least as many.</summary>
        public void AddCoo(long row, long col, long rows, long cols, uint[] rowIndices, uint[] colIndices, ulong[] values, Encoding encoding = Encoding.Auto)
        {
            AddCooArray(row, col, rows, cols, rowIndices, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local COO triplets of I32 values in strictly increasing (row, column) order; there are rowIndices.Length entries, and colIndices and values hold at least as many.</summary>
        public void AddCoo(long row, long col, long rows, long cols, uint[] rowIndices, uint[] colIndices, int[] values, Encoding encoding = Encoding.Auto)
        {
            AddCooArray(row, col, rows, cols, rowIndices, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local COO triplets of U32 values in strictly increasing (row, column) order; there are rowIndices.Length entries, and colIndices and values hold at least as many.</summary>
        public void AddCoo(long row, long col, long rows, long cols, uint[] rowIndices, uint[] colIndices, uint[] values, Encoding encoding = Encoding.Auto)
        {
            AddCooArray(row, col, rows, cols, rowIndices, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local COO triplets of I16 values in strictly increasing (row, column) order; there are rowIndices.Length entries, and colIndices and values hold at least as many.</summary>
        public void AddCoo(long row, long col, long rows, long cols, uint[] rowIndices, uint[] colIndices, short[] values, Encoding encoding = Encoding.Auto)
        {
            AddCooArray(row, col, rows, cols, rowIndices, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local COO triplets of U16 values in strictly increasing (row, column) order; there are rowIndices.Length entries, and colIndices and values hold at least as many.</summary>
        public void AddCoo(long row, long col, long rows, long cols, uint[] rowIndices, uint[] colIndices, ushort[] values, Encoding encoding = Encoding.Auto)
        {
            AddCooArray(row, col, rows, cols, rowIndices, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local COO triplets of I8 values in strictly increasing (row, column) order; there are rowIndices.Length entries, and colIndices and values hold at least as many.</summary>
        public void AddCoo(long row, long col, long rows, long cols, uint[] rowIndices, uint[] colIndices, sbyte[] values, Encoding encoding = Encoding.Auto)
        {
            AddCooArray(row, col, rows, cols, rowIndices, colIndices, values, encoding);
        }

        /// <summary>Adds a block from block-local COO triplets of U8 values in strictly increasing (row, column) order; there are rowIndices.Length entries, and colIndices and values hold at least as many.</summary>
        public void AddCoo(long row, long col, long rows, long cols, uint[] rowIndices, uint[] colIndices, byte[] values, Encoding encoding = Encoding.Auto)
        {
            AddCooArray(row, col, rows, cols, rowIndices, colIndices, values, encoding);
        }

        /// <summary>Writes the whole matrix from dense row-major F64 values (rowStride apart, 0: cols), tiled into blockRows x blockCols blocks (0: automatic), each encoded as encoding says. Only right after BeginMatrix().</summary>
        public void WriteDense(double[] values, long rowStride = 0, Encoding encoding = Encoding.Auto, long blockRows = 0, long blockCols = 0)
        {
            WriteDenseArray(values, rowStride, encoding, blockRows, blockCols);
        }

        /// <summary>Writes the whole matrix from dense row-major F32 values (rowStride apart, 0: cols), tiled into blockRows x blockCols blocks (0: automatic), each encoded as encoding says. Only right after BeginMatrix().</summary>
        public void WriteDense(float[] values, long rowStride = 0, Encoding encoding = Encoding.Auto, long blockRows = 0, long blockCols = 0)
        {
            WriteDenseArray(values, rowStride, encoding, blockRows, blockCols);
        }

        /// <summary>Writes the whole matrix from dense row-major I64 values (rowStride apart, 0: cols), tiled into blockRows x blockCols blocks (0: automatic), each encoded as encoding says. Only right after BeginMatrix().</summary>
        public void WriteDense(long[] values, long rowStride = 0, Encoding encoding = Encoding.Auto, long blockRows = 0, long blockCols = 0)
        {
            WriteDenseArray(values, rowStride, encoding, blockRows, blockCols);
        }

        /// <summary>Writes the whole matrix from dense row-major U64 values (rowStride apart, 0: cols), tiled into blockRows x blockCols blocks (0: automatic), each encoded as encoding says. Only right after BeginMatrix().</summary>
        public void WriteDense(ulong[] values, long rowStride = 0, Encoding encoding = Encoding.Auto, long blockRows = 0, long blockCols = 0)
        {
            WriteDenseArray(values, rowStride, encoding, blockRows, blockCols);
        }

        /// <summary>Writes the whole matrix from dense row-major I32 values (rowStride apart, 0: cols), tiled into blockRows x blockCols blocks (0: automatic), each encoded as encoding says. Only right after BeginMatrix().</summary>
        public void WriteDense(int[] values, long rowStride = 0, Encoding encoding = Encoding.Auto, long blockRows = 0, long blockCols = 0)
        {
            WriteDenseArray(values, rowStride, encoding, blockRows, blockCols);
        }

        /// <summary>Writes the whole matrix from dense row-major U32 values (rowStride apart, 0: cols), tiled into blockRows x blockCols blocks (0: automatic), each encoded as encoding says. Only right after BeginMatrix().</summary>
        public void WriteDense(uint[] values, long rowStride = 0, Encoding encoding = Encoding.Auto, long blockRows = 0, long blockCols = 0)
        {
            WriteDenseArray(values, rowStride, encoding, blockRows, blockCols);
        }

        /// <summary>Writes the whole matrix from dense row-major I16 values (rowStride apart, 0: cols), tiled into blockRows x blockCols blocks (0: automatic), each encoded as encoding says. Only right after BeginMatrix().</summary>
        public void WriteDense(short[] values, long rowStride = 0, Encoding encoding = Encoding.Auto, long blockRows = 0, long blockCols = 0)
        {
            WriteDenseArray(values, rowStride, encoding, blockRows, blockCols);
        }

        /// <summary>Writes the whole matrix from dense row-major U16 values (rowStride apart, 0: cols), tiled into blockRows x blockCols blocks (0: automatic), each encoded as encoding says. Only right after BeginMatrix().</summary>
        public void WriteDense(ushort[] values, long rowStride = 0, Encoding encoding = Encoding.Auto, long blockRows = 0, long blockCols = 0)
        {
            WriteDenseArray(values, rowStride, encoding, blockRows, blockCols);
        }

        /// <summary>Writes the whole matrix from dense row-major I8 values (rowStride apart, 0: cols), tiled into blockRows x blockCols blocks (0: automatic), each encoded as encoding says. Only right after BeginMatrix().</summary>
        public void WriteDense(sbyte[] values, long rowStride = 0, Encoding encoding = Encoding.Auto, long blockRows = 0, long blockCols = 0)
        {
            WriteDenseArray(values, rowStride, encoding, blockRows, blockCols);
        }

        /// <summary>Writes the whole matrix from dense row-major U8 values (rowStride apart, 0: cols), tiled into blockRows x blockCols blocks (0: automatic), each encoded as encoding says. Only right after BeginMatrix().</summary>
        public void WriteDense(byte[] values, long rowStride = 0, Encoding encoding = Encoding.Auto, long blockRows = 0, long blockCols = 0)
        {
            WriteDenseArray(values, rowStride, encoding, blockRows, blockCols);
        }

        /// <summary>Writes frame column <paramref name="column"/> from Rows F64 values, as blocks of blockRows rows (0: automatic).</summary>
        public void WriteColumn(long column, double[] values, Encoding encoding = Encoding.Auto, long blockRows = 0)
        {
            WriteColumnArray(column, values, encoding, blockRows);
        }

        /// <summary>Writes frame column <paramref name="column"/> from Rows F32 values, as blocks of blockRows rows (0: automatic).</summary>
        public void WriteColumn(long column, float[] values, Encoding encoding = Encoding.Auto, long blockRows = 0)
        {
            WriteColumnArray(column, values, encoding, blockRows);
        }

        /// <summary>Writes frame column <paramref name="column"/> from Rows I64 values, as blocks of blockRows rows (0: automatic).</summary>
        public void WriteColumn(long column, long[] values, Encoding encoding = Encoding.Auto, long blockRows = 0)
        {
            WriteColumnArray(column, values, encoding, blockRows);
        }

        /// <summary>Writes frame column <paramref name="column"/> from Rows U64 values, as blocks of blockRows rows (0: automatic).</summary>
        public void WriteColumn(long column, ulong[] values, Encoding encoding = Encoding.Auto, long blockRows = 0)
        {
            WriteColumnArray(column, values, encoding, blockRows);
        }

        /// <summary>Writes frame column <paramref name="column"/> from Rows I32 values, as blocks of blockRows rows (0: automatic).</summary>
        public void WriteColumn(long column, int[] values, Encoding encoding = Encoding.Auto, long blockRows = 0)
        {
            WriteColumnArray(column, values, encoding, blockRows);
        }

        /// <summary>Writes frame column <paramref name="column"/> from Rows U32 values, as blocks of blockRows rows (0: automatic).</summary>
        public void WriteColumn(long column, uint[] values, Encoding encoding = Encoding.Auto, long blockRows = 0)
        {
            WriteColumnArray(column, values, encoding, blockRows);
        }

        /// <summary>Writes frame column <paramref name="column"/> from Rows I16 values, as blocks of blockRows rows (0: automatic).</summary>
        public void WriteColumn(long column, short[] values, Encoding encoding = Encoding.Auto, long blockRows = 0)
        {
            WriteColumnArray(column, values, encoding, blockRows);
        }

        /// <summary>Writes frame column <paramref name="column"/> from Rows U16 values, as blocks of blockRows rows (0: automatic).</summary>
        public void WriteColumn(long column, ushort[] values, Encoding encoding = Encoding.Auto, long blockRows = 0)
        {
            WriteColumnArray(column, values, encoding, blockRows);
        }

        /// <summary>Writes frame column <paramref name="column"/> from Rows I8 values, as blocks of blockRows rows (0: automatic).</summary>
        public void WriteColumn(long column, sbyte[] values, Encoding encoding = Encoding.Auto, long blockRows = 0)
        {
            WriteColumnArray(column, values, encoding, blockRows);
        }

        /// <summary>Writes frame column <paramref name="column"/> from Rows U8 values, as blocks of blockRows rows (0: automatic).</summary>
        public void WriteColumn(long column, byte[] values, Encoding encoding = Encoding.Auto, long blockRows = 0)
        {
            WriteColumnArray(column, values, encoding, blockRows);
        }
    }
}
