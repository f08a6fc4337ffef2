//! What can go wrong reading a batch.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::page::{LoadError, PageError};
use crate::recognize::RecognizeError;

/// Everything that can go wrong reading scans into games: a page that cannot be loaded, cut
/// or recognized, a file of the batch (journal, output, list of tags) that cannot be read or
/// written, an option that cannot be used. Each message names its file where there is one.
#[derive(Debug)]
pub enum ReadError {
    /// The file, or one of its pages, cannot be loaded.
    Load(LoadError),
    /// The page stage found no move table on the page.
    Cut(PageError),
    /// The page stage found a table without move cells.
    NoCells,
    /// The recognizer cannot be loaded or run.
    Recognize(RecognizeError),
    /// One page of a multi-page file (`number` from 1) cannot be read.
    Page {
        /// The page's number, from 1.
        number: usize,
        /// Why.
        source: Box<ReadError>,
    },
    /// A file of the batch (journal, output, list of tags) cannot be read or written, or holds
    /// what it should not.
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A worker panicked while holding the recognizers.
    PoolPoisoned,
    /// An option's value, or a combination of options and inputs, that cannot be used.
    Invalid(String),
}

impl ReadError {
    /// An error about the file `path`.
    pub fn file(path: impl AsRef<Path>, reason: impl Into<String>) -> ReadError {
        ReadError::File { path: path.as_ref().to_path_buf(), reason: reason.into() }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Load(e) => e.fmt(f),
            ReadError::Cut(e) => e.fmt(f),
            ReadError::NoCells => f.write_str("no move cells found"),
            ReadError::Recognize(e) => e.fmt(f),
            ReadError::Page { number, source } => write!(f, "page {number}: {source}"),
            ReadError::File { path, reason } => write!(f, "{}: {reason}", path.display()),
            ReadError::PoolPoisoned => f.write_str("recognizer pool poisoned"),
            ReadError::Invalid(reason) => f.write_str(reason),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Load(e) => Some(e),
            ReadError::Cut(e) => Some(e),
            ReadError::Recognize(e) => Some(e),
            ReadError::Page { source, .. } => Some(source.as_ref()),
            _ => None,
        }
    }
}

impl From<LoadError> for ReadError {
    fn from(e: LoadError) -> ReadError {
        ReadError::Load(e)
    }
}

impl From<PageError> for ReadError {
    fn from(e: PageError) -> ReadError {
        ReadError::Cut(e)
    }
}

impl From<RecognizeError> for ReadError {
    fn from(e: RecognizeError) -> ReadError {
        ReadError::Recognize(e)
    }
}
