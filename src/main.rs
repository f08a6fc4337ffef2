//! The `scoresheet` command line: a thin layer over the library, with the commands users need
//! (the developers' tools are in `scoresheet-dev`).

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use scoresheet::read;

mod commands;
mod stderr_log;

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
    Read(Box<commands::read::ReadArgs>),
    /// Join the journals of a batch read in shares (`read --shard K/N --journal FILE`) into one
    /// PGN and one JSON report.
    Merge(commands::merge::MergeArgs),
    /// Read a typed-up game in any language's notation and print it as PGN.
    Transcribe(commands::transcribe::TranscribeArgs),
    /// Find the move table and cut every move cell out of a page image.
    Segment(commands::segment::SegmentArgs),
    /// Read cell images (one handwritten move each) and print their most likely readings.
    Recognize(commands::recognize::RecognizeArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    stderr_log::init(cli.verbosity.verbose);
    let outcome: Result<(), Box<dyn std::error::Error>> = match cli.command {
        Command::Read(args) => return ExitCode::from(commands::read::run(&args, &read::PageCutter)),
        Command::Merge(args) => return ExitCode::from(commands::merge::run(&args)),
        Command::Transcribe(args) => commands::transcribe::run(&args).map(|pgn| print!("{pgn}")),
        Command::Segment(args) => commands::segment::run(&args),
        Command::Recognize(args) => commands::recognize::run(&args).map(|out| print!("{out}")),
    };
    commands::exit_code("scoresheet", outcome)
}
