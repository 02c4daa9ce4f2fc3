//! Sparse results: CSR arrays and COO triplets.

/// A matrix or block in CSR form: `row_offsets` has one entry per row plus one; the entries of row `i` are
/// `col_indices[row_offsets[i]..row_offsets[i + 1]]` (strictly increasing) with their `values`. Blocks give
/// block-local `u32` column indices, whole objects object-wide `u64` ones.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Csr<T, I = u64> {
    /// Where each row's entries start, plus the entry count at the end.
    pub row_offsets: Vec<u64>,
    /// The column of each entry.
    pub col_indices: Vec<I>,
    /// The value of each entry.
    pub values: Vec<T>,
}

/// A block as COO triplets with block-local indices, in row-major order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Coo<T> {
    /// The row of each entry.
    pub row_indices: Vec<u32>,
    /// The column of each entry.
    pub col_indices: Vec<u32>,
    /// The value of each entry.
    pub values: Vec<T>,
}
