//! `scoresheet-dev`: the developers' tools, apart from the user's `scoresheet` binary so that it
//! stays small: synthetic sheets, accuracy measurement, the page stage's evaluations.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use scoresheet::read;

#[path = "../commands/mod.rs"]
mod commands;
#[path = "../stderr_log.rs"]
mod stderr_log;

#[derive(Parser)]
#[command(
    name = "scoresheet-dev",
    version,
    about = "Developers' tools of scoresheet: synthetic sheets and evaluations"
)]
struct Cli {
    #[command(flatten)]
    verbosity: stderr_log::Verbosity,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Render synthetic handwritten scoresheets (or single cells) with exact ground truth.
    Synth(commands::synth::SynthArgs),
    /// Measure reading accuracy on sheets with ground truth (synthetic sheets, or HCS).
    Eval(commands::eval::EvalArgs),
    /// Evaluate the page stage: cells found and numbered on HCS or synthetic sheets.
    Segment(commands::segment::SegmentEvalArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    stderr_log::init(cli.verbosity.verbose);
    let outcome: Result<(), Box<dyn std::error::Error>> = match cli.command {
        Command::Synth(args) => commands::synth::run(&args).map(|out| print!("{out}")),
        Command::Eval(args) => {
            commands::eval::run(&args, &read::PageCutter).map(|out| print!("{out}")).map_err(Into::into)
        }
        Command::Segment(args) => commands::segment::run_eval(&args),
    };
    commands::exit_code("scoresheet-dev", outcome)
}
