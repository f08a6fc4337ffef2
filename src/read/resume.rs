//! Resuming a batch: which of its games the journal already holds. A game is taken from the
//! journal when a game line there has the same name, the same files, the same options hash and
//! the same content hash (the files' bytes are hashed again, so a file changed since is read
//! again); every other game is read.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use rayon::prelude::*;

use super::ReadError;
use super::journal::{Contents, GameKey, Journal, Line, content_hash};

/// What a run does with each game of its share.
#[derive(Debug, Default)]
pub struct Plan {
    /// Games taken from the journal: place in the listing, and the byte offset of the game line.
    pub taken: BTreeMap<usize, u64>,
    /// Games to read, by place in the listing, in input order.
    pub to_read: Vec<usize>,
}

/// Plans a run over the games at `chosen` (places in `games`, the whole listing `listing`).
/// `options` gives a game's options hash by its place. A game line found for another place or
/// listing (files added to or removed from the batch since) is written again with its new place,
/// so that the journal alone says where each game goes.
pub fn plan(
    journal: &Journal,
    contents: &Contents,
    games: &[(String, Vec<PathBuf>)],
    chosen: &[usize],
    options: &(dyn Fn(usize) -> String + Sync),
    listing: &str,
) -> Result<Plan, ReadError> {
    // The latest line of each (name, files, options) that has a content hash.
    let mut done: HashMap<(&str, &[String], &str), (&GameKey, u64)> = HashMap::new();
    for (offset, key) in &contents.games {
        if key.content.is_some() {
            done.insert((key.id.as_str(), key.files.as_slice(), key.options.as_str()), (key, *offset));
        }
    }
    let found: Vec<(usize, Option<(&GameKey, u64)>)> = chosen
        .par_iter()
        .map(|&g| {
            let (id, files) = &games[g];
            let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
            let options = options(g);
            let line = done.get(&(id.as_str(), names.as_slice(), options.as_str())).copied();
            let same_content = line.filter(|(key, _)| content_hash(files).ok() == key.content);
            (g, same_content)
        })
        .collect();
    let mut plan = Plan::default();
    let mut reader = None;
    for (g, line) in found {
        let Some((key, offset)) = line else {
            plan.to_read.push(g);
            continue;
        };
        let offset = if key.index == g && key.listing == listing {
            offset
        } else {
            let reader = match &mut reader {
                Some(r) => r,
                None => reader.insert(journal.reader()?),
            };
            let mut entry = reader.game_at(offset)?;
            (entry.index, entry.listing) = (g, listing.to_string());
            journal.append(&Line::Game(entry))?
        };
        plan.taken.insert(g, offset);
    }
    Ok(plan)
}
