//! What can go wrong loading or running the recognizer.

use std::fmt;
use std::path::PathBuf;

/// Everything that can go wrong loading the recognizer or reading cells with it. Each message
/// names the file or model it is about.
#[derive(Clone, Debug)]
pub enum RecognizeError {
    /// A file (model, alphabet, preprocessing, cell image) cannot be read or is malformed.
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// An alphabet or preprocessing description is malformed (the caller adds the file).
    Malformed(String),
    /// The ONNX Runtime library cannot be found, fetched or started.
    Runtime(String),
    /// The model cannot be loaded or run.
    Model {
        /// The model's file (or built-in name).
        model: String,
        /// Why.
        reason: String,
    },
    /// One of the cells given cannot be read.
    Cell {
        /// The cell's place among those given, from 0.
        index: usize,
        /// Why.
        source: Box<RecognizeError>,
    },
    /// A cell image without pixels.
    EmptyImage {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
}

impl fmt::Display for RecognizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecognizeError::File { path, reason } => write!(f, "{}: {reason}", path.display()),
            RecognizeError::Malformed(reason) | RecognizeError::Runtime(reason) => f.write_str(reason),
            RecognizeError::Model { model, reason } => write!(f, "{model}: {reason}"),
            RecognizeError::Cell { index, source } => write!(f, "cell {index}: {source}"),
            RecognizeError::EmptyImage { width, height } => {
                write!(f, "the image is empty ({width} x {height} pixels)")
            }
        }
    }
}

impl std::error::Error for RecognizeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RecognizeError::Cell { source, .. } => Some(source.as_ref()),
            _ => None,
        }
    }
}

impl RecognizeError {
    /// The error as one about the file `path` (its message after the file's name).
    pub fn in_file(self, path: impl Into<PathBuf>) -> RecognizeError {
        RecognizeError::File { path: path.into(), reason: self.to_string() }
    }
}
