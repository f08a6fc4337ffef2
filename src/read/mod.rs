//! `scoresheet read`: batches of scans to games.

pub mod pdf;
