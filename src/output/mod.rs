//! Output: PGN (standard English SAN), the JSON report and the review page.

pub use scoresheet_notation::pgn;
pub mod report;
pub mod review;

pub use report::{FileError, GameOutput, Report, SheetRef};
