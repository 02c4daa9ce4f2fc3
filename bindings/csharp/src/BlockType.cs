namespace Dbdf
{
    /// <summary>How a block is stored.</summary>
    public enum BlockType
    {
        /// <summary>All zeros, no payload.</summary>
        Empty = 0,
        /// <summary>Row-major values.</summary>
        Dense = 1,
        /// <summary>Per-row counts and (column, value) pairs.</summary>
        Csr = 2,
        /// <summary>(row, [column,] value) triplets.</summary>
        Coo = 3
    }
}
