//! `scoresheet merge`: joins the journals of a batch read in shares (`read --shard K/N
//! --journal FILE`) into one PGN and one JSON report, the games in input order: the same files
//! as one run over the whole batch. It is a command of its own, not an option of `read`: it reads
//! no scans and takes none of `read`'s options, only journals.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;

use super::ReadError;
use super::journal::{self, EntryReader, Listing};
use super::outputs::{PgnTarget, check_may_write, write_outputs};
use super::{EXIT_FATAL, EXIT_OK, EXIT_SOME_FAILED};

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
    match merge(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("scoresheet: {e}");
            EXIT_FATAL
        }
    }
}

fn merge(args: &MergeArgs) -> Result<u8, ReadError> {
    for out in [&args.output, &args.json].into_iter().flatten() {
        check_may_write(out, args.force, &[])?;
    }
    let (listing, places) = gather(&args.journals)?;
    let missing: Vec<usize> = (0..listing.games).filter(|g| !places.contains_key(g)).collect();
    if !missing.is_empty() {
        let shown: Vec<String> = missing.iter().take(8).map(|g| (g + 1).to_string()).collect();
        return Err(ReadError::Invalid(format!(
            "{} of the {} games are in none of the journals (games {}{} in input order): a share has not \
             finished; run it again with its journal",
            missing.len(),
            listing.games,
            shown.join(", "),
            if missing.len() > shown.len() { ", ..." } else { "" }
        )));
    }
    let mut readers = args.journals.iter().map(|p| EntryReader::open(p)).collect::<Result<Vec<_>, _>>()?;
    let mut entries = places.values().map(|place| readers[place.journal].game_at(place.offset));
    let pgn_target = args.output.as_deref().map_or(PgnTarget::Stdout, PgnTarget::File);
    let totals = write_outputs(&mut entries, &listing.input_errors, pgn_target, args.json.as_deref(), &|_| Ok(()))?;
    eprintln!(
        "scoresheet: {} journals merged: {} sheets read, {} games, {} moves, {} flagged, {} files failed",
        args.journals.len(),
        totals.sheets,
        totals.games,
        totals.moves,
        totals.flagged,
        totals.errors.iter().map(|e| e.file.as_str()).collect::<std::collections::BTreeSet<_>>().len()
    );
    Ok(if totals.errors.is_empty() { EXIT_OK } else { EXIT_SOME_FAILED })
}

/// Where a game's line is: which journal (its place in the arguments) and at which byte offset.
struct JournalPlace {
    journal: usize,
    offset: u64,
}

/// The batch's listing (the last one of each journal; they must agree) and, per place in it,
/// the journal and byte offset of the game's line (the latest one where several are).
fn gather(journals: &[PathBuf]) -> Result<(Listing, BTreeMap<usize, JournalPlace>), ReadError> {
    let mut listing: Option<Listing> = None;
    let mut places = BTreeMap::new();
    for (j, path) in journals.iter().enumerate() {
        let contents = journal::read_only(path)?;
        let last = contents
            .listings
            .last()
            .cloned()
            .ok_or_else(|| ReadError::file(path, "not a journal of `scoresheet read` (no listing line)"))?;
        match &listing {
            None => listing = Some(last.clone()),
            Some(first) if first.listing != last.listing || first.games != last.games => {
                return Err(ReadError::Invalid(format!(
                    "{}: a journal of other inputs than {} (the shares must list the same files)",
                    path.display(),
                    journals[0].display()
                )));
            }
            Some(_) => {}
        }
        for (offset, key) in contents.games {
            if key.listing == last.listing && key.index < last.games {
                places.insert(key.index, JournalPlace { journal: j, offset });
            }
        }
    }
    let listing = listing.ok_or_else(|| ReadError::Invalid("no journals given".into()))?;
    Ok((listing, places))
}
