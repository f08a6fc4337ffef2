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
enum Command {}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {}
}
