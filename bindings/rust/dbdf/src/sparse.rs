//! Sparse results: CSR arrays and COO triplets.

/// A matrix or block in CSR form: `row_offsets` has one entry per row plus one; the entries of row `i` are
/// `col_indices[row_offsets[i]..row_offsets[i + 1]]` (strictly increasing) with their `values`. Blocks give
/// block-local `u32` column indices, whole objects object-wide `u64` ones.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Csr<T, I = u64> {
    pub row_offsets: Vec<u64>,
    pub col_indices: Vec<I>,
    pub values: Vec<T>,
}

/// A block as COO triplets with block-local indices, in row-major order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Coo<T> {
    pub row_indices: Vec<u32>,
    pub col_indices: Vec<u32>,
    pub values: Vec<T>,
}
