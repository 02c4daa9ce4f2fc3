namespace Dbdf
{
    /// <summary>How the writer encodes a block that is added.</summary>
    public enum Encoding
    {
        /// <summary>
        /// Smallest exact encoding among empty, dense, CSR and COO, with the narrowest value type into which every
        /// value round-trips bit for bit (-0.0 and NaN payloads survive). The default.
        /// </summary>
        Auto = 0,
        /// <summary>The block type of the add call (dense for AddDense, ...) and the value type of the array.</summary>
        AsGiven = 1,
        /// <summary>A dense block, value type as given.</summary>
        Dense = 2,
        /// <summary>A CSR block, value type as given.</summary>
        Csr = 3,
        /// <summary>A COO block, value type as given.</summary>
        Coo = 4
    }
}
