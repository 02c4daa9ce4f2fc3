namespace Dbdf
{
    /// <summary>Data type of an object (format header, byte 1).</summary>
    public enum DataType
    {
        /// <summary>DenseMatrix.</summary>
        Dense = 1,
        /// <summary>CSRMatrix.</summary>
        Csr = 2,
        /// <summary>Frame: one value type and label per column.</summary>
        Frame = 3,
        /// <summary>A single value, read as a 1 x 1 object with one dense block. Only in <see cref="Dialect.Daphne"/>.</summary>
        Scalar = 4
    }
}
