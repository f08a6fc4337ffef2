//! scoresheet: reads handwritten chess scoresheets into PGN.
//!
//! [`Reader`] is the front door: a sheet image (or all the sheets of one game) in, the game out
//! as PGN, with a confidence for every move:
//!
//! ```no_run
//! use scoresheet::{Reader, ReaderOptions};
//!
//! let reader = Reader::new(ReaderOptions::default())?;
//! let game = reader.read_file("scan.jpg".as_ref())?;
//! print!("{}", game.to_pgn());
//! # Ok::<(), scoresheet::read::ReadError>(())
//! ```
//!
//! Behind it, one module per stage, in the order data flows through them:
//! [`page`] (load, straighten, cut cells) -> [`recognize`] (handwriting model) ->
//! [`decode`] (legal-game beam search) -> [`output`] (PGN, JSON, review page); [`read`] runs
//! them over batches of files. [`notation`] knows how chess moves are written in every
//! language; [`synth`] renders synthetic scoresheets with exact ground truth.

#![warn(missing_docs)]

pub mod decode;
pub mod output;
pub mod page;
pub mod read;
mod reader;
pub mod recognize;
mod sort;
pub mod synth;

pub use reader::{Reader, ReaderOptions};
/// The notation engine (the `scoresheet-notation` crate): how chess moves are written, in every
/// language, both ways.
pub use scoresheet_notation as notation;
