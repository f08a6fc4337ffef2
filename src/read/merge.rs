//! `scoresheet merge`: joins the journals of a batch read in shares (`read --shard K/N
//! --journal FILE`) into one PGN and one JSON report, the games in input order: the same files
//! as one run over the whole batch. It is a command of its own, not an option of `read`: it reads
//! no scans and takes none of `read`'s options, only journals.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::ReadError;
use super::journal::{self, EntryReader, Listing};
use super::outputs::{PgnTarget, check_may_write, write_outputs};
use super::{EXIT_OK, EXIT_SOME_FAILED};

/// Joins `journals` into one PGN (to `output`, or standard output) and, with `json`, one JSON
/// report; refuses to replace existing outputs unless `force`. Returns the exit code (as
/// `read`'s: [`EXIT_SOME_FAILED`] where some files could not be read).
pub fn merge(journals: &[PathBuf], output: Option<&Path>, json: Option<&Path>, force: bool) -> Result<u8, ReadError> {
    for out in [output, json].into_iter().flatten() {
        check_may_write(out, force, &[])?;
    }
    let (listing, places) = gather(journals)?;
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
    let mut readers = journals.iter().map(|p| EntryReader::open(p)).collect::<Result<Vec<_>, _>>()?;
    let mut entries = places.values().map(|place| readers[place.journal].game_at(place.offset));
    let pgn_target = output.map_or(PgnTarget::Stdout, PgnTarget::File);
    let totals = write_outputs(&mut entries, &listing.input_errors, pgn_target, json, &|_| Ok(()))?;
    eprintln!(
        "scoresheet: {} journals merged: {} sheets read, {} games, {} moves, {} flagged, {} files failed",
        journals.len(),
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
