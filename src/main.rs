//! The `scoresheet` command line: a thin layer over the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use scoresheet::{notation, recognize, synth};

#[derive(Parser)]
#[command(name = "scoresheet", version, about = "Reads handwritten chess scoresheets into PGN")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read a typed-up game in any language's notation and print it as PGN.
    Transcribe(notation::cli::TranscribeArgs),
    /// Read cell images (one handwritten move each) and print their most likely readings.
    Recognize(recognize::cli::RecognizeArgs),
    /// Render synthetic handwritten scoresheets (or single cells) with exact ground truth.
    Synth(synth::cli::SynthArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Transcribe(args) => notation::cli::run(&args).map(|pgn| print!("{pgn}")),
        Command::Recognize(args) => recognize::cli::run(&args).map(|out| print!("{out}")),
        Command::Synth(args) => synth::cli::run(&args).map(|out| print!("{out}")),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("scoresheet: {message}");
            ExitCode::FAILURE
        }
    }
}
