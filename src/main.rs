//! The `scoresheet` command line: a thin layer over the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use scoresheet::{notation, page, read, recognize, synth};

#[derive(Parser)]
#[command(name = "scoresheet", version, about = "Reads handwritten chess scoresheets into PGN")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read scans of scoresheets (images, PDFs, folders) into PGN, a JSON report and a review page.
    Read(read::cli::ReadArgs),
    /// Measure reading accuracy on sheets with ground truth (synthetic sheets, or HCS).
    Eval(read::eval::EvalArgs),
    /// Read a typed-up game in any language's notation and print it as PGN.
    Transcribe(notation::cli::TranscribeArgs),
    /// Find the move table and cut every move cell out of a page image.
    Segment(page::cli::SegmentArgs),
    /// Read cell images (one handwritten move each) and print their most likely readings.
    Recognize(recognize::cli::RecognizeArgs),
    /// Render synthetic handwritten scoresheets (or single cells) with exact ground truth.
    Synth(synth::cli::SynthArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Read(args) => return ExitCode::from(read::cli::run(&args, &read::PageCutter)),
        Command::Eval(args) => read::eval::run(&args, &read::PageCutter).map(|out| print!("{out}")),
        Command::Transcribe(args) => notation::cli::run(&args).map(|pgn| print!("{pgn}")),
        Command::Segment(args) => page::cli::run(&args).map_err(|e| e.to_string()),
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
