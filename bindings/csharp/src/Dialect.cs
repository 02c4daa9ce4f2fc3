namespace Dbdf
{
    /// <summary>
    /// Which byte layout a .dbdf file follows. It is chosen explicitly when a <see cref="Reader"/> or
    /// <see cref="Writer"/> is opened and never guessed: the spec dialect does not accept the daphne layout.
    /// </summary>
    /// <remarks>
    /// <see cref="Daphne"/> is what DAPHNE's own runtime writes: its value type codes, CSR blocks as three arrays
    /// with 64-bit indices, frames without a block header whose labels cannot be recovered, and a scalar form
    /// (docs/daphne-dialect.md). Read in that dialect, a file is presented as blocks like a spec file, so every
    /// reading member works unchanged. The codes are those of the C interface (dbdf_dialect_t).
    /// </remarks>
    public enum Dialect
    {
        /// <summary>The published format; the default of every member that takes no dialect.</summary>
        Spec = 0,
        /// <summary>The layout DAPHNE's runtime writes.</summary>
        Daphne = 1
    }
}
