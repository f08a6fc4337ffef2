//! The `scoresheet` command line: a thin layer over the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use scoresheet::{notation, recognize};

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
    /// Find the move table and cut every move cell out of a page image.
    Segment(scoresheet::page::cli::SegmentArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Transcribe(args) => notation::cli::run(&args).map(|pgn| print!("{pgn}")),
        Command::Recognize(args) => recognize::cli::run(&args).map(|out| print!("{out}")),
        Command::Segment(args) => scoresheet::page::cli::run(&args).map_err(|e| e.to_string()),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("scoresheet: {message}");
            ExitCode::FAILURE
        }
    }
}
