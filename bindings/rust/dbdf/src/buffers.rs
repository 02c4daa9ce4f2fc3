//! Output buffers the convenience methods allocate, and the checks of caller slices that the C interface cannot
//! make itself because it receives no length for them.

use crate::error::{Error, Result, Status};
use crate::value::Value;

/// A vector of `len` zero values, or a clear error when that many cannot be allocated (headers may announce
/// huge objects; a failed allocation must not abort the process).
pub(crate) fn zeroed_vec<T: Default + Clone>(len: u64, what: &str) -> Result<Vec<T>> {
    let too_large = || {
        Error::new(
            Status::NoMem,
            format!("cannot allocate {len} values of {} bytes for {what}", std::mem::size_of::<T>()),
        )
    };
    let len = usize::try_from(len).map_err(|_| too_large())?;
    let mut values = Vec::new();
    values.try_reserve_exact(len).map_err(|_| too_large())?;
    values.resize(len, T::default());
    Ok(values)
}

/// Number of values a row-major window of `rows` x `cols` needs with `row_stride` (0: `cols`), as the C interface
/// computes it; `None` if it overflows.
pub(crate) fn strided_len(rows: u64, cols: u64, row_stride: u64) -> Option<u64> {
    if rows == 0 || cols == 0 {
        return Some(0);
    }
    let stride = if row_stride == 0 { cols } else { row_stride };
    (rows - 1).checked_mul(stride)?.checked_add(cols)
}

pub(crate) fn require_same_len(what: &str, first: usize, second: usize) -> Result<()> {
    if first == second {
        Ok(())
    } else {
        Err(Error::new(Status::InvalidArgument, format!("{what}: {first} and {second} elements differ")))
    }
}

/// CSR row offsets must have one entry per row plus one: the C interface reads exactly that many.
pub(crate) fn require_row_offsets(row_offsets: &[u64], rows: u64) -> Result<()> {
    if u64::try_from(row_offsets.len()).ok() == rows.checked_add(1) {
        Ok(())
    } else {
        Err(Error::new(
            Status::InvalidArgument,
            format!("row_offsets has {} entries; {rows} rows need {}", row_offsets.len(), rows.saturating_add(1)),
        ))
    }
}

pub(crate) fn value_ptr<T: Value>(values: &[T]) -> *const std::ffi::c_void {
    values.as_ptr().cast()
}

pub(crate) fn value_ptr_mut<T: Value>(values: &mut [T]) -> *mut std::ffi::c_void {
    values.as_mut_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strided_len_follows_the_c_interface() {
        assert_eq!(strided_len(2, 3, 0), Some(6));
        assert_eq!(strided_len(2, 3, 5), Some(8));
        assert_eq!(strided_len(0, 3, 5), Some(0));
        assert_eq!(strided_len(4, 0, 0), Some(0));
        assert_eq!(strided_len(u64::MAX, 2, 0), None);
    }

    #[test]
    fn impossible_allocations_are_errors() {
        let error = zeroed_vec::<u64>(u64::MAX, "a test").unwrap_err();
        assert_eq!(error.status(), Status::NoMem);
        assert!(error.message().contains("for a test"), "{error}");
        assert_eq!(zeroed_vec::<f64>(1 << 61, "a test").unwrap_err().status(), Status::NoMem);
        assert_eq!(zeroed_vec::<i16>(3, "a test").unwrap(), vec![0, 0, 0]);
    }

    #[test]
    fn row_offsets_need_one_entry_per_row_plus_one() {
        assert!(require_row_offsets(&[0, 1, 1], 2).is_ok());
        assert_eq!(require_row_offsets(&[0, 1], 2).unwrap_err().status(), Status::InvalidArgument);
        assert_eq!(require_row_offsets(&[0], u64::MAX).unwrap_err().status(), Status::InvalidArgument);
        assert!(require_same_len("x", 2, 2).is_ok());
        assert!(require_same_len("x", 2, 3).unwrap_err().message().contains("2 and 3"));
    }
}
