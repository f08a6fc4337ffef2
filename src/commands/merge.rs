//! `scoresheet merge`: the command line over [`scoresheet::read::merge::merge`].

use std::path::PathBuf;

use clap::Args;

use scoresheet::read::EXIT_FATAL;
use scoresheet::read::merge::merge;

/// Arguments of `scoresheet merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shares' journals (`read --shard K/N --journal FILE`), in any order.
    #[arg(required = true)]
    pub journals: Vec<PathBuf>,
    /// Write the PGN here instead of standard output.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Write the JSON report here.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Overwrite existing output files.
    #[arg(long)]
    pub force: bool,
}

/// Runs `merge`. Returns the exit code (as `read`'s); messages go to stderr.
pub fn run(args: &MergeArgs) -> u8 {
    match merge(&args.journals, args.output.as_deref(), args.json.as_deref(), args.force) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("scoresheet: {e}");
            EXIT_FATAL
        }
    }
}
