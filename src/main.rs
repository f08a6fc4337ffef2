//! The `scoresheet` command line: a thin layer over the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "scoresheet", version, about = "Reads handwritten chess scoresheets into PGN")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Find the move table and cut every move cell out of a page image.
    Segment(scoresheet::page::cli::SegmentArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Segment(args) => match scoresheet::page::cli::run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
    }
}
