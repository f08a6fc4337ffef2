//! The journal of a batch (`read --journal FILE`): one JSON line per game as it is finished,
//! written, flushed and synced to disk before the next, so that a run killed at any moment loses
//! at most the games it was reading. A rerun with the same journal takes every game it finds
//! there (same files, same content, same options) and reads only the rest; the outputs are
//! rebuilt from the journal, in input order ([`super::outputs`]).
//!
//! Lines, each an object with a `kind`:
//! - `listing`: written at the start of every run: the batch's games in input order (their
//!   count and a hash of their names and files), the shard read, and the inputs that could not
//!   be opened.
//! - `game`: one game finished: its place in the listing, name, files, content hash, options
//!   hash, PGN text, JSON report entry, counts and the errors of its files.
//! - `output`: an output file about to be put in place, with the hash of its content: a later
//!   run may replace a file it finds with that content without `--force` (it is the journal's
//!   own product, e.g. of a run killed after writing the PGN but before the report).
//!
//! A line cut short by a kill (the last one, without its newline) is dropped on the next open.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::ReadError;
use crate::output::FileError;

/// The start of a run: what the batch is.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Listing {
    /// Hash of the batch's games in input order (names and files): runs over the same inputs
    /// have the same listing, whatever shard they read.
    pub listing: String,
    /// Games in the whole batch (every shard).
    pub games: usize,
    /// The share read, as `K/N`; absent for the whole batch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// Inputs that could not be opened or listed (they belong to no game).
    #[serde(default)]
    pub input_errors: Vec<FileError>,
}

/// One game finished.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GameEntry {
    /// The game's place in the listing (input order, from 0).
    pub index: usize,
    /// The listing the index is a place in ([`Listing::listing`]).
    pub listing: String,
    /// The game's name (the PGN's Source, the report's id).
    pub id: String,
    /// Its files, as given.
    pub files: Vec<String>,
    /// Hash of the files' bytes ([`content_hash`]); absent where a file could not be read, and
    /// then the game is read again by a rerun.
    pub content: Option<String>,
    /// Hash of everything else the reading depends on ([`options_hash`]).
    pub options: String,
    /// The game's PGN text (empty when no sheet could be read).
    pub pgn: String,
    /// The game's entry of the JSON report, as the report prints it; absent when no sheet could
    /// be read.
    pub report: Option<String>,
    /// Pages read.
    pub sheets: usize,
    /// Half-moves read and how many of them are flagged for review.
    pub moves: usize,
    /// Of `moves`: those flagged.
    pub flagged: usize,
    /// Files or pages of the game that could not be read.
    pub errors: Vec<FileError>,
}

/// An output file about to be put in place.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct OutputEntry {
    /// The file's absolute path.
    pub path: String,
    /// Hash of its content ([`hash_hex`]).
    pub content: String,
}

/// A line of the journal.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Line {
    /// The batch's inputs, grouped into games.
    Listing(Listing),
    /// A game read.
    Game(GameEntry),
    /// An output file about to be put in place.
    Output(OutputEntry),
}

/// What [`Journal::open`] keeps of a game line: enough to match it, without its texts.
#[derive(Deserialize, Clone, Debug)]
pub struct GameKey {
    /// The game's place in the listing.
    pub index: usize,
    /// The listing the index is a place in ([`Listing::listing`]).
    pub listing: String,
    /// The game's name.
    pub id: String,
    /// Its files.
    pub files: Vec<String>,
    /// Hash of the files' bytes ([`content_hash`]).
    pub content: Option<String>,
    /// Hash of everything else the reading depends on ([`options_hash`]).
    pub options: String,
}

/// A line as [`Journal::open`] reads it (game lines without their texts).
#[derive(Deserialize, Debug)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum LineHead {
    Listing(Listing),
    Game(GameKey),
    Output(OutputEntry),
}

/// What an existing journal holds, light enough to keep for a batch of any size.
#[derive(Default, Debug)]
pub struct Contents {
    /// The listing lines, oldest first.
    pub listings: Vec<Listing>,
    /// Each game line with its byte offset in the file, oldest first.
    pub games: Vec<(u64, GameKey)>,
    /// The output lines.
    pub outputs: Vec<OutputEntry>,
}

/// What the journal at `path` holds, read without changing it (a cut-off last line is left out).
pub fn read_only(path: &Path) -> Result<Contents, ReadError> {
    let mut file = File::open(path).map_err(|e| ReadError::file(path, format!("cannot open: {e}")))?;
    read_contents(&mut file).map(|(contents, _)| contents).map_err(|e| ReadError::file(path, format!("{e}")))
}

/// An open journal, appended to by the workers as they finish games.
pub struct Journal {
    path: PathBuf,
    /// The file for appending, and its length (the offset of the next line).
    append: Mutex<(File, u64)>,
    /// Whether each line is synced to disk (the user's journal; not a run's scratch journal).
    durable: bool,
}

impl Journal {
    /// Opens the journal at `path`, creating it if need be, and reads what it holds. A last line
    /// cut short (no newline, or not a whole JSON object) is cut off the file.
    pub fn open(path: &Path) -> Result<(Journal, Contents), ReadError> {
        let name = path.display();
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| ReadError::Invalid(format!("{name}: cannot open the journal: {e}")))?;
        let (contents, good_len) = read_contents(&mut file).map_err(|e| ReadError::Invalid(format!("{name}: {e}")))?;
        let len = file.metadata().map_err(|e| ReadError::Invalid(format!("{name}: {e}")))?.len();
        if good_len < len {
            log::warn!("{name}: dropping an unfinished last line ({} bytes) of the journal", len - good_len);
            file.set_len(good_len)
                .and_then(|_| file.sync_all())
                .map_err(|e| ReadError::Invalid(format!("{name}: cannot repair: {e}")))?;
        }
        let journal = Journal { path: path.to_path_buf(), append: Mutex::new((file, good_len)), durable: true };
        Ok((journal, contents))
    }

    /// A new, empty journal at `path` whose lines are not synced to disk: a run's scratch space
    /// for its finished games when the user keeps no journal.
    pub fn scratch(path: &Path) -> Result<Journal, ReadError> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| ReadError::file(path, format!("cannot create: {e}")))?;
        Ok(Journal { path: path.to_path_buf(), append: Mutex::new((file, 0)), durable: false })
    }

    /// The journal's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one line (written, flushed and, for a user's journal, synced before returning).
    /// Returns its byte offset.
    pub fn append(&self, line: &Line) -> Result<u64, ReadError> {
        let mut text = serde_json::to_string(line).map_err(|e| ReadError::Invalid(e.to_string()))?;
        text.push('\n');
        let mut guard = self.append.lock().unwrap_or_else(|e| e.into_inner());
        let (file, len) = &mut *guard;
        let offset = *len;
        let written = file.write_all(text.as_bytes()).and_then(|_| file.flush());
        let synced = written.and_then(|_| if self.durable { file.sync_data() } else { Ok(()) });
        synced.map_err(|e| ReadError::file(&self.path, format!("cannot write the journal: {e}")))?;
        *len += text.len() as u64;
        Ok(offset)
    }

    /// A reader for the game lines at given offsets ([`EntryReader::game_at`]).
    pub fn reader(&self) -> Result<EntryReader, ReadError> {
        let file = File::open(&self.path).map_err(|e| ReadError::file(&self.path, format!("cannot open: {e}")))?;
        Ok(EntryReader { path: self.path.clone(), file: BufReader::new(file) })
    }
}

/// Reads whole game lines of a journal by their offsets.
pub struct EntryReader {
    path: PathBuf,
    file: BufReader<File>,
}

impl EntryReader {
    /// Opens the journal at `path` for reading.
    pub fn open(path: &Path) -> Result<EntryReader, ReadError> {
        let file = File::open(path).map_err(|e| ReadError::file(path, format!("cannot open: {e}")))?;
        Ok(EntryReader { path: path.to_path_buf(), file: BufReader::new(file) })
    }

    /// The game line at byte `offset`.
    pub fn game_at(&mut self, offset: u64) -> Result<GameEntry, ReadError> {
        let bad = |e: String| ReadError::file(&self.path, format!("byte {offset}: {e}"));
        self.file.seek(SeekFrom::Start(offset)).map_err(|e| bad(e.to_string()))?;
        let mut text = String::new();
        self.file.read_line(&mut text).map_err(|e| bad(e.to_string()))?;
        match serde_json::from_str(&text).map_err(|e| bad(e.to_string()))? {
            Line::Game(entry) => Ok(entry),
            _ => Err(bad("not a game line".into())),
        }
    }
}

/// Reads the journal's lines. Returns them with the length of the file up to the end of its
/// last whole line; a line that cannot be read before that is an error naming it.
fn read_contents(file: &mut File) -> Result<(Contents, u64), ReadError> {
    file.seek(SeekFrom::Start(0)).map_err(|e| ReadError::Invalid(e.to_string()))?;
    let mut reader = BufReader::new(file);
    let mut contents = Contents::default();
    let mut offset = 0u64;
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line).map_err(|e| ReadError::Invalid(e.to_string()))?;
        if n == 0 {
            return Ok((contents, offset));
        }
        number += 1;
        let whole = line.ends_with(b"\n");
        match (serde_json::from_slice::<LineHead>(&line), whole) {
            (Ok(LineHead::Listing(l)), true) => contents.listings.push(l),
            (Ok(LineHead::Game(g)), true) => contents.games.push((offset, g)),
            (Ok(LineHead::Output(o)), true) => contents.outputs.push(o),
            // A cut-off last line: what the file holds ends before it.
            _ if is_at_end(&mut reader)? => return Ok((contents, offset)),
            (parsed, _) => {
                let why = parsed.err().map_or_else(|| "no end of line".to_string(), |e| e.to_string());
                return Err(ReadError::Invalid(format!("line {number} of the journal cannot be read: {why}")));
            }
        }
        offset += n as u64;
    }
}

fn is_at_end(reader: &mut impl BufRead) -> Result<bool, ReadError> {
    Ok(reader.fill_buf().map_err(|e| ReadError::Invalid(e.to_string()))?.is_empty())
}

/// SHA-256 of `bytes`, in hex.
pub fn hash_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Bytes in lower-case hex.
pub fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hash of the files' bytes, in order (each with its length, so that bytes moved from one file
/// to the next change it).
pub fn content_hash(files: &[PathBuf]) -> Result<String, ReadError> {
    let mut hasher = Sha256::new();
    for file in files {
        let len = std::fs::metadata(file).map_err(|e| ReadError::file(file, format!("cannot open: {e}")))?.len();
        hasher.update(len.to_le_bytes());
        hash_file_into(&mut hasher, file)?;
    }
    Ok(hex(&hasher.finalize()))
}

/// Feeds a file's bytes to `hasher`, read in blocks.
pub fn hash_file_into(hasher: &mut Sha256, path: &Path) -> Result<(), ReadError> {
    let mut f = File::open(path).map_err(|e| ReadError::file(path, format!("cannot open: {e}")))?;
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf).map_err(|e| ReadError::file(path, format!("cannot read: {e}")))?;
        if n == 0 {
            return Ok(());
        }
        hasher.update(&buf[..n]);
    }
}

/// Hash of what a game's reading depends on besides its files: `common` (the tool's version, the
/// model, the language and window options: the same for every game of a run), the game's tags
/// and its pinned moves.
pub fn options_hash(common: &str, headers: &[(String, String)], fixes: &[String]) -> String {
    let text = serde_json::json!({ "common": common, "headers": headers, "fixes": fixes }).to_string();
    hash_hex(text.as_bytes())
}

/// Hash of a batch's games in input order: names and files.
pub fn listing_hash(games: &[(String, Vec<PathBuf>)]) -> String {
    let mut hasher = Sha256::new();
    for (id, files) in games {
        hasher.update(id.as_bytes());
        hasher.update([0]);
        for f in files {
            hasher.update(f.to_string_lossy().as_bytes());
            hasher.update([1]);
        }
        hasher.update([2]);
    }
    hex(&hasher.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(index: usize) -> Line {
        Line::Game(GameEntry {
            index,
            listing: "L".into(),
            id: format!("g{index}"),
            files: vec![format!("g{index}.png")],
            content: Some("c".into()),
            options: "o".into(),
            pgn: "[Event \"?\"]\n\n1. e4 *\n\n".into(),
            report: Some("{\n  \"id\": \"g\"\n}".into()),
            sheets: 1,
            moves: 1,
            flagged: 0,
            errors: Vec::new(),
        })
    }

    #[test]
    fn lines_are_read_back_by_offset() {
        let dir = std::env::temp_dir().join(format!("journal-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.jsonl");
        std::fs::remove_file(&path).ok();
        let (journal, contents) = Journal::open(&path).unwrap();
        assert!(contents.games.is_empty());
        let first = journal.append(&entry(0)).unwrap();
        let second = journal.append(&entry(1)).unwrap();
        let mut reader = journal.reader().unwrap();
        assert_eq!(Line::Game(reader.game_at(second).unwrap()), entry(1));
        assert_eq!(Line::Game(reader.game_at(first).unwrap()), entry(0));
        let (_, contents) = Journal::open(&path).unwrap();
        let offsets: Vec<u64> = contents.games.iter().map(|g| g.0).collect();
        assert_eq!(offsets, vec![first, second]);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_torn_last_line_is_cut_off() {
        let dir = std::env::temp_dir().join(format!("journal-torn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.jsonl");
        std::fs::remove_file(&path).ok();
        let (journal, _) = Journal::open(&path).unwrap();
        journal.append(&entry(0)).unwrap();
        let whole = std::fs::metadata(&path).unwrap().len();
        drop(journal);
        let mut torn = serde_json::to_string(&entry(1)).unwrap();
        torn.truncate(torn.len() / 2);
        OpenOptions::new().append(true).open(&path).unwrap().write_all(torn.as_bytes()).unwrap();
        let (journal, contents) = Journal::open(&path).unwrap();
        assert_eq!(contents.games.len(), 1);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), whole);
        let offset = journal.append(&entry(2)).unwrap();
        assert_eq!(offset, whole);
        let (_, contents) = Journal::open(&path).unwrap();
        assert_eq!(contents.games.iter().map(|g| g.1.index).collect::<Vec<_>>(), vec![0, 2]);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_bad_line_before_the_last_is_an_error() {
        let dir = std::env::temp_dir().join(format!("journal-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.jsonl");
        let good = serde_json::to_string(&entry(0)).unwrap();
        std::fs::write(&path, format!("{{not json\n{good}\n")).unwrap();
        let err = Journal::open(&path).err().unwrap().to_string();
        assert!(err.contains("a.jsonl") && err.contains("line 1"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
