//! The commands' clap arguments and their glue over the library, shared by both binaries:
//! `scoresheet` (read, merge, transcribe, segment, recognize) and `scoresheet-dev` (synth, eval,
//! segment's evaluations). The library itself carries no argument parsing.

// Each binary uses only its own commands of this shared tree.
#![allow(dead_code)]

pub mod eval;
pub mod merge;
pub mod read;
pub mod recognize;
pub mod segment;
pub mod synth;
pub mod transcribe;

use std::process::ExitCode;

/// A command's exit code: success, or its error printed to stderr after the program's name.
pub fn exit_code(program: &str, outcome: Result<(), Box<dyn std::error::Error>>) -> ExitCode {
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{program}: {message}");
            ExitCode::FAILURE
        }
    }
}
