//! The `scoresheet` command line: a thin layer over the library, with the commands users need
//! (the developers' tools are in `scoresheet-dev`).

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use scoresheet::{page, read, recognize};

mod stderr_log;
mod transcribe_cli;

#[derive(Parser)]
#[command(name = "scoresheet", version, about = "Reads handwritten chess scoresheets into PGN")]
struct Cli {
    #[command(flatten)]
    verbosity: stderr_log::Verbosity,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read scans of scoresheets (images, PDFs, folders) into PGN, a JSON report and a review page.
    Read(Box<read::cli::ReadArgs>),
    /// Join the journals of a batch read in shares (`read --shard K/N --journal FILE`) into one
    /// PGN and one JSON report.
    Merge(read::merge::MergeArgs),
    /// Read a typed-up game in any language's notation and print it as PGN.
    Transcribe(transcribe_cli::TranscribeArgs),
    /// Find the move table and cut every move cell out of a page image.
    Segment(page::cli::SegmentArgs),
    /// Read cell images (one handwritten move each) and print their most likely readings.
    Recognize(recognize::cli::RecognizeArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    stderr_log::init(cli.verbosity.verbose);
    let outcome: Result<(), Box<dyn std::error::Error>> = match cli.command {
        Command::Read(args) => return ExitCode::from(read::cli::run(&args, &read::PageCutter)),
        Command::Merge(args) => return ExitCode::from(read::merge::run(&args)),
        Command::Transcribe(args) => transcribe_cli::run(&args).map(|pgn| print!("{pgn}")),
        Command::Segment(args) => page::cli::run(&args),
        Command::Recognize(args) => recognize::cli::run(&args).map(|out| print!("{out}")),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("scoresheet: {message}");
            ExitCode::FAILURE
        }
    }
}
