//! `scoresheet read`: batches of scans to games.

pub mod inputs;
pub mod load;
pub mod pdf;
