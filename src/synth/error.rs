//! What can go wrong rendering synthetic sheets.

use std::fmt;
use std::path::{Path, PathBuf};

/// Everything that can go wrong rendering synthetic sheets or cells: an option or a form image
/// that cannot be used, a file that cannot be read or written.
#[derive(Debug)]
pub enum SynthError {
    /// An option's value, a form image or its cells that cannot be used.
    Invalid(String),
    /// A file (output, form image, cells) cannot be read or written.
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A page or cell cannot be encoded as PNG.
    Encode {
        /// The page's name, or "a cell".
        name: String,
        /// Why.
        reason: String,
    },
}

impl SynthError {
    /// An error about the file `path`.
    pub fn file(path: impl AsRef<Path>, reason: impl Into<String>) -> SynthError {
        SynthError::File { path: path.as_ref().to_path_buf(), reason: reason.into() }
    }
}

impl fmt::Display for SynthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SynthError::Invalid(reason) => f.write_str(reason),
            SynthError::File { path, reason } => write!(f, "{}: {reason}", path.display()),
            SynthError::Encode { name, reason } => write!(f, "cannot encode {name}: {reason}"),
        }
    }
}

impl std::error::Error for SynthError {}
