//! The commands' clap arguments and their glue over the library, shared by both binaries:
//! `scoresheet` (read, transcribe, segment, recognize) and `scoresheet-dev` (synth, segment's
//! evaluations). The library itself carries no argument parsing.

// Each binary uses only its own commands of this shared tree.
#![allow(dead_code)]

pub mod read;
pub mod recognize;
pub mod segment;
pub mod synth;
pub mod transcribe;
