//! File paths as the C interface takes them: NUL-terminated bytes.

use std::ffi::CString;
use std::path::Path;

use crate::error::{Error, Result, Status};

pub(crate) fn path_to_c(path: &Path) -> Result<CString> {
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = path
        .to_str()
        .ok_or_else(|| Error::new(Status::InvalidArgument, format!("path {} is not valid UTF-8", path.display())))?
        .as_bytes()
        .to_vec();
    CString::new(bytes)
        .map_err(|_| Error::new(Status::InvalidArgument, format!("path {} contains a NUL byte", path.display())))
}
