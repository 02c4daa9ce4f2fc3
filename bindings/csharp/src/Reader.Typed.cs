// One overload per element type (the ten value types of the format), each pinning the array for the call.
namespace Dbdf
{
    public sealed partial class Reader
    {
        /// <summary>The whole object as dense row-major F64 values, rowStride elements apart (0: cols).</summary>
        public void ReadDense(double[] values, long rowStride = 0)
        {
            ReadDenseArray(values, rowStride);
        }

        /// <summary>The whole object as dense row-major F32 values, rowStride elements apart (0: cols).</summary>
        public void ReadDense(float[] values, long rowStride = 0)
        {
            ReadDenseArray(values, rowStride);
        }

        /// <summary>The whole object as dense row-major I64 values, rowStride elements apart (0: cols).</summary>
        public void ReadDense(long[] values, long rowStride = 0)
        {
            ReadDenseArray(values, rowStride);
        }

        /// <summary>The whole object as dense row-major U64 values, rowStride elements apart (0: cols).</summary>
        public void ReadDense(ulong[] values, long rowStride = 0)
        {
            ReadDenseArray(values, rowStride);
        }

        /// <summary>The whole object as dense row-major I32 values, rowStride elements apart (0: cols).</summary>
        public void ReadDense(int[] values, long rowStride = 0)
        {
            ReadDenseArray(values, rowStride);
        }

        /// <summary>The whole object as dense row-major U32 values, rowStride elements apart (0: cols).</summary>
        public void ReadDense(uint[] values, long rowStride = 0)
        {
            ReadDenseArray(values, rowStride);
        }

        /// <summary>The whole object as dense row-major I16 values, rowStride elements apart (0: cols).</summary>
        public void ReadDense(short[] values, long rowStride = 0)
        {
            ReadDenseArray(values, rowStride);
        }

        /// <summary>The whole object as dense row-major U16 values, rowStride elements apart (0: cols).</summary>
        public void ReadDense(ushort[] values, long rowStride = 0)
        {
            ReadDenseArray(values, rowStride);
        }

        /// <summary>The whole object as dense row-major I8 values, rowStride elements apart (0: cols).</summary>
        public void ReadDense(sbyte[] values, long rowStride = 0)
        {
            ReadDenseArray(values, rowStride);
        }

        /// <summary>The whole object as dense row-major U8 values, rowStride elements apart (0: cols).</summary>
        public void ReadDense(byte[] values, long rowStride = 0)
        {
            ReadDenseArray(values, rowStride);
        }

        /// <summary>The window of rows [row, row + rows) and columns [col, col + cols) as dense row-major F64 values.</summary>
        public void ReadWindow(long row, long col, long rows, long cols, double[] values, long rowStride = 0)
        {
            ReadWindowArray(row, col, rows, cols, values, rowStride);
        }

        /// <summary>The window of rows [row, row + rows) and columns [col, col + cols) as dense row-major F32 values.</summary>
        public void ReadWindow(long row, long col, long rows, long cols, float[] values, long rowStride = 0)
        {
            ReadWindowArray(row, col, rows, cols, values, rowStride);
        }

        /// <summary>The window of rows [row, row + rows) and columns [col, col + cols) as dense row-major I64 values.</summary>
        public void ReadWindow(long row, long col, long rows, long cols, long[] values, long rowStride = 0)
        {
            ReadWindowArray(row, col, rows, cols, values, rowStride);
        }

        /// <summary>The window of rows [row, row + rows) and columns [col, col + cols) as dense row-major U64 values.</summary>
        public void ReadWindow(long row, long col, long rows, long cols, ulong[] values, long rowStride = 0)
        {
            ReadWindowArray(row, col, rows, cols, values, rowStride);
        }

        /// <summary>The window of rows [row, row + rows) and columns [col, col + cols) as dense row-major I32 values.</summary>
        public void ReadWindow(long row, long col, long rows, long cols, int[] values, long rowStride = 0)
        {
            ReadWindowArray(row, col, rows, cols, values, rowStride);
        }

        /// <summary>The window of rows [row, row + rows) and columns [col, col + cols) as dense row-major U32 values.</summary>
        public void ReadWindow(long row, long col, long rows, long cols, uint[] values, long rowStride = 0)
        {
            ReadWindowArray(row, col, rows, cols, values, rowStride);
        }

        /// <summary>The window of rows [row, row + rows) and columns [col, col + cols) as dense row-major I16 values.</summary>
        public void ReadWindow(long row, long col, long rows, long cols, short[] values, long rowStride = 0)
        {
            ReadWindowArray(row, col, rows, cols, values, rowStride);
        }

        /// <summary>The window of rows [row, row + rows) and columns [col, col + cols) as dense row-major U16 values.</summary>
        public void ReadWindow(long row, long col, long rows, long cols, ushort[] values, long rowStride = 0)
        {
            ReadWindowArray(row, col, rows, cols, values, rowStride);
        }

        /// <summary>The window of rows [row, row + rows) and columns [col, col + cols) as dense row-major I8 values.</summary>
        public void ReadWindow(long row, long col, long rows, long cols, sbyte[] values, long rowStride = 0)
        {
            ReadWindowArray(row, col, rows, cols, values, rowStride);
        }

        /// <summary>The window of rows [row, row + rows) and columns [col, col + cols) as dense row-major U8 values.</summary>
        public void ReadWindow(long row, long col, long rows, long cols, byte[] values, long rowStride = 0)
        {
            ReadWindowArray(row, col, rows, cols, values, rowStride);
        }

        /// <summary>Frame (or matrix) column <paramref name="column"/> as Rows F64 values.</summary>
        public void ReadColumn(long column, double[] values)
        {
            ReadColumnArray(column, values);
        }

        /// <summary>Frame (or matrix) column <paramref name="column"/> as Rows F32 values.</summary>
        public void ReadColumn(long column, float[] values)
        {
            ReadColumnArray(column, values);
        }

        /// <summary>Frame (or matrix) column <paramref name="column"/> as Rows I64 values.</summary>
        public void ReadColumn(long column, long[] values)
        {
            ReadColumnArray(column, values);
        }

        /// <summary>Frame (or matrix) column <paramref name="column"/> as Rows U64 values.</summary>
        public void ReadColumn(long column, ulong[] values)
        {
            ReadColumnArray(column, values);
        }

        /// <summary>Frame (or matrix) column <paramref name="column"/> as Rows I32 values.</summary>
        public void ReadColumn(long column, int[] values)
        {
            ReadColumnArray(column, values);
        }

        /// <summary>Frame (or matrix) column <paramref name="column"/> as Rows U32 values.</summary>
        public void ReadColumn(long column, uint[] values)
        {
            ReadColumnArray(column, values);
        }

        /// <summary>Frame (or matrix) column <paramref name="column"/> as Rows I16 values.</summary>
        public void ReadColumn(long column, short[] values)
        {
            ReadColumnArray(column, values);
        }

        /// <summary>Frame (or matrix) column <paramref name="column"/> as Rows U16 values.</summary>
        public void ReadColumn(long column, ushort[] values)
        {
            ReadColumnArray(column, values);
        }

        /// <summary>Frame (or matrix) column <paramref name="column"/> as Rows I8 values.</summary>
        public void ReadColumn(long column, sbyte[] values)
        {
            ReadColumnArray(column, values);
        }

        /// <summary>Frame (or matrix) column <paramref name="column"/> as Rows U8 values.</summary>
        public void ReadColumn(long column, byte[] values)
        {
            ReadColumnArray(column, values);
        }

        /// <summary>The whole object as CSR of F64 values with object-wide indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long ReadCsr(ulong[] rowOffsets, ulong[] colIndices, double[] values)
        {
            return ReadCsrArray(rowOffsets, colIndices, values);
        }

        /// <summary>The whole object as CSR of F32 values with object-wide indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long ReadCsr(ulong[] rowOffsets, ulong[] colIndices, float[] values)
        {
            return ReadCsrArray(rowOffsets, colIndices, values);
        }

        /// <summary>The whole object as CSR of I64 values with object-wide indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long ReadCsr(ulong[] rowOffsets, ulong[] colIndices, long[] values)
        {
            return ReadCsrArray(rowOffsets, colIndices, values);
        }

        /// <summary>The whole object as CSR of U64 values with object-wide indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long ReadCsr(ulong[] rowOffsets, ulong[] colIndices, ulong[] values)
        {
            return ReadCsrArray(rowOffsets, colIndices, values);
        }

        /// <summary>The whole object as CSR of I32 values with object-wide indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long ReadCsr(ulong[] rowOffsets, ulong[] colIndices, int[] values)
        {
            return ReadCsrArray(rowOffsets, colIndices, values);
        }

        /// <summary>The whole object as CSR of U32 values with object-wide indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long ReadCsr(ulong[] rowOffsets, ulong[] colIndices, uint[] values)
        {
            return ReadCsrArray(rowOffsets, colIndices, values);
        }

        /// <summary>The whole object as CSR of I16 values with object-wide indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long ReadCsr(ulong[] rowOffsets, ulong[] colIndices, short[] values)
        {
            return ReadCsrArray(rowOffsets, colIndices, values);
        }

        /// <summary>The whole object as CSR of U16 values with object-wide indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long ReadCsr(ulong[] rowOffsets, ulong[] colIndices, ushort[] values)
        {
            return ReadCsrArray(rowOffsets, colIndices, values);
        }

        /// <summary>The whole object as CSR of I8 values with object-wide indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long ReadCsr(ulong[] rowOffsets, ulong[] colIndices, sbyte[] values)
        {
            return ReadCsrArray(rowOffsets, colIndices, values);
        }

        /// <summary>The whole object as CSR of U8 values with object-wide indices: rowOffsets gets Rows + 1 entries, colIndices and values one per entry (size them with CountEntries()). Returns the number of entries.</summary>
        public long ReadCsr(ulong[] rowOffsets, ulong[] colIndices, byte[] values)
        {
            return ReadCsrArray(rowOffsets, colIndices, values);
        }
    }
}
