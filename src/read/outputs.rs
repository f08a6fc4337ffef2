//! The outputs of a batch, built from its journal's game lines in input order: the PGN (a file,
//! or standard output) and the JSON report. Each file is written beside its place under a
//! temporary name, synced, and renamed into place, so that no reader ever sees part of one; the
//! games stream through, one at a time, so memory does not grow with the batch.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::ReadError;
use super::journal::{GameEntry, OutputEntry, hash_file_into, hex};
use crate::output::FileError;

/// A file being written under a temporary name beside `path`; [`AtomicFile::finish`] syncs it,
/// [`Finished::put_in_place`] renames it to `path`. Dropped before that, the temporary file is
/// removed.
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<BufWriter<File>>,
    hasher: Sha256,
}

impl AtomicFile {
    /// Starts writing the file that will be `path`.
    pub fn create(path: &Path) -> Result<AtomicFile, ReadError> {
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
        let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let file = File::create(&tmp).map_err(|e| ReadError::file(path, format!("cannot write: {e}")))?;
        Ok(AtomicFile { path: path.to_path_buf(), tmp, file: Some(BufWriter::new(file)), hasher: Sha256::new() })
    }

    /// Appends `bytes`.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), ReadError> {
        self.hasher.update(bytes);
        let file = self.file.as_mut().ok_or_else(|| ReadError::file(&self.path, "already finished"))?;
        file.write_all(bytes).map_err(|e| ReadError::file(&self.path, format!("cannot write: {e}")))
    }

    /// Flushes and syncs the temporary file; returns it ready to be put in place, with the hash
    /// of its content.
    pub fn finish(mut self) -> Result<Finished, ReadError> {
        let file = self.file.take().ok_or_else(|| ReadError::file(&self.path, "already finished"))?;
        let synced = file.into_inner().map_err(|e| e.into_error()).and_then(|f| f.sync_all());
        synced.map_err(|e| ReadError::file(&self.path, format!("cannot write: {e}")))?;
        let content = hex(&std::mem::take(&mut self.hasher).finalize());
        let path = std::mem::take(&mut self.path);
        let tmp = std::mem::take(&mut self.tmp);
        Ok(Finished { path, tmp, content })
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.tmp.as_os_str().is_empty() {
            std::fs::remove_file(&self.tmp).ok();
        }
    }
}

/// A file written and synced under its temporary name.
pub struct Finished {
    path: PathBuf,
    tmp: PathBuf,
    content: String,
}

impl Finished {
    /// The record of this file for the journal.
    pub fn entry(&self) -> OutputEntry {
        OutputEntry { path: absolute(&self.path), content: self.content.clone() }
    }

    /// Renames the file into place (replacing what is there).
    pub fn put_in_place(self) -> Result<(), ReadError> {
        std::fs::rename(&self.tmp, &self.path).map_err(|e| {
            std::fs::remove_file(&self.tmp).ok();
            ReadError::file(&self.path, format!("cannot write: {e}"))
        })
    }
}

/// `path` made absolute (as the journal records outputs).
pub fn absolute(path: &Path) -> String {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()).display().to_string()
}

/// SHA-256 of a file's bytes, in hex.
pub fn file_hash(path: &Path) -> Result<String, ReadError> {
    let mut hasher = Sha256::new();
    hash_file_into(&mut hasher, path)?;
    Ok(hex(&hasher.finalize()))
}

/// Checks that the output `path` may be written: it does not exist, `force` is given, or it holds
/// exactly what a run with the same journal put there (`written`: the journal's output lines).
pub fn check_may_write(path: &Path, force: bool, written: &[OutputEntry]) -> Result<(), ReadError> {
    if force || !path.exists() {
        return Ok(());
    }
    let own = absolute(path);
    let ours = written.iter().any(|w| w.path == own) && {
        let content = file_hash(path)?;
        written.iter().any(|w| w.path == own && w.content == content)
    };
    if ours {
        return Ok(());
    }
    Err(ReadError::file(path, "already exists (use --force to overwrite)"))
}

/// What the outputs hold, for the closing summary.
#[derive(Default, Debug)]
pub struct Totals {
    /// Games with a reading (in the PGN and the report).
    pub games: usize,
    /// Pages read.
    pub sheets: usize,
    /// Half-moves read.
    pub moves: usize,
    /// Of `moves`: those flagged.
    pub flagged: usize,
    /// The inputs that could not be opened, then each game's failed files and pages, in order.
    pub errors: Vec<FileError>,
}

/// Where the PGN goes.
pub enum PgnTarget<'a> {
    /// This file.
    File(&'a Path),
    /// Standard output.
    Stdout,
}

/// Writes the PGN and the JSON report (when `json` is given) from the game lines `entries`, in
/// the order given. `input_errors` open the report's errors. Each output file, once synced
/// under its temporary name, is handed to `record` (the journal notes it) and then put in place.
pub fn write_outputs(
    entries: &mut dyn Iterator<Item = Result<GameEntry, ReadError>>,
    input_errors: &[FileError],
    pgn: PgnTarget<'_>,
    json: Option<&Path>,
    record: &dyn Fn(&OutputEntry) -> Result<(), ReadError>,
) -> Result<Totals, ReadError> {
    let mut pgn_file = match pgn {
        PgnTarget::File(path) => Some(AtomicFile::create(path)?),
        PgnTarget::Stdout => None,
    };
    let mut stdout = std::io::stdout().lock();
    let mut report = json.map(ReportWriter::create).transpose()?;
    let mut totals = Totals { errors: input_errors.to_vec(), ..Totals::default() };
    for entry in entries {
        let entry = entry?;
        match &mut pgn_file {
            Some(f) => f.write(entry.pgn.as_bytes())?,
            None => stdout
                .write_all(entry.pgn.as_bytes())
                .map_err(|e| ReadError::Invalid(format!("cannot write PGN: {e}")))?,
        }
        if let Some(text) = &entry.report {
            totals.games += 1;
            if let Some(r) = &mut report {
                r.add_game(text)?;
            }
        }
        totals.sheets += entry.sheets;
        totals.moves += entry.moves;
        totals.flagged += entry.flagged;
        totals.errors.extend(entry.errors);
    }
    stdout.flush().map_err(|e| ReadError::Invalid(format!("cannot write PGN: {e}")))?;
    let finished_pgn = pgn_file.map(AtomicFile::finish).transpose()?;
    let finished_report = report.map(|r| r.finish(&totals.errors)).transpose()?;
    for file in finished_pgn.into_iter().chain(finished_report) {
        record(&file.entry())?;
        file.put_in_place()?;
    }
    Ok(totals)
}

/// The JSON report written one game at a time, exactly as `serde_json::to_string_pretty` prints
/// a whole [`crate::output::Report`].
pub struct ReportWriter {
    out: AtomicFile,
    games: usize,
}

impl ReportWriter {
    /// Starts the report that will be `path`.
    pub fn create(path: &Path) -> Result<ReportWriter, ReadError> {
        let mut out = AtomicFile::create(path)?;
        out.write(b"{\n  \"games\": [")?;
        Ok(ReportWriter { out, games: 0 })
    }

    /// Adds a game's entry, as `serde_json::to_string_pretty` prints it alone.
    pub fn add_game(&mut self, pretty: &str) -> Result<(), ReadError> {
        self.out.write(if self.games == 0 { b"\n" } else { b",\n" })?;
        self.out.write(indent(pretty, "    ", true).as_bytes())?;
        self.games += 1;
        Ok(())
    }

    /// Closes the games, writes `errors` and syncs the file.
    pub fn finish(mut self, errors: &[FileError]) -> Result<Finished, ReadError> {
        self.out.write(if self.games == 0 { b"]" } else { b"\n  ]" })?;
        let errors = serde_json::to_string_pretty(errors).map_err(|e| ReadError::Invalid(e.to_string()))?;
        self.out.write(b",\n  \"errors\": ")?;
        self.out.write(indent(&errors, "  ", false).as_bytes())?;
        self.out.write(b"\n}")?;
        self.out.finish()
    }
}

/// `text` with `by` before each line (the first one too where `first`). JSON strings hold no raw
/// line breaks, so every line break is the printer's.
fn indent(text: &str, by: &str, first: bool) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if i > 0 || first {
            out.push_str(by);
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Report;
    use crate::output::report::{AltJson, CellJson, GameJson, MoveJson};

    fn game(id: &str) -> GameJson {
        GameJson {
            id: id.into(),
            files: vec![format!("{id}.png")],
            language: "en".into(),
            result: "*".into(),
            flagged: 1,
            score: -3.25,
            lowered: Vec::new(),
            numbering_guessed: Vec::new(),
            second_form_unread: Vec::new(),
            moves: vec![MoveJson {
                ply: 0,
                number: 1,
                side: "white",
                san: "e4".into(),
                confidence: 0.5,
                flagged: true,
                alternatives: vec![AltJson { san: "e3".into(), p: 0.25 }],
                hangs_on: None,
                cells: vec![CellJson {
                    file: format!("{id}.png"),
                    page: 0,
                    reading: "written",
                    text: "e4 \"quoted\"\nline".into(),
                    cell_box: Some([1.0, 2.0, 3.0, 4.0]),
                }],
            }],
        }
    }

    fn streamed(games: &[GameJson], errors: &[FileError]) -> String {
        let dir = std::env::temp_dir().join(format!("report-writer-{}-{}", std::process::id(), games.len()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.json");
        let mut w = ReportWriter::create(&path).unwrap();
        for g in games {
            w.add_game(&serde_json::to_string_pretty(g).unwrap()).unwrap();
        }
        w.finish(errors).unwrap().put_in_place().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        text
    }

    #[test]
    fn the_streamed_report_prints_as_the_whole_one() {
        let err = FileError { file: "bad.png".into(), error: "not an image".into() };
        for (n, errors) in [(0, vec![]), (1, vec![]), (2, vec![err.clone()]), (3, vec![err.clone(), err.clone()])] {
            let games: Vec<GameJson> = (0..n).map(|i| game(&format!("g{i}"))).collect();
            let text = streamed(&games, &errors);
            let whole = serde_json::to_string_pretty(&Report { games, errors }).unwrap();
            assert_eq!(text, whole, "{n} games");
        }
    }

    #[test]
    fn an_existing_output_is_replaced_only_with_force_or_when_the_journal_wrote_it() {
        let dir = std::env::temp_dir().join(format!("may-write-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.pgn");
        assert!(check_may_write(&path, false, &[]).is_ok());
        std::fs::write(&path, "mine").unwrap();
        let err = check_may_write(&path, false, &[]).unwrap_err().to_string();
        assert!(err.contains("games.pgn") && err.contains("--force"), "{err}");
        assert!(check_may_write(&path, true, &[]).is_ok());
        let ours = OutputEntry { path: absolute(&path), content: file_hash(&path).unwrap() };
        assert!(check_may_write(&path, false, std::slice::from_ref(&ours)).is_ok());
        std::fs::write(&path, "changed by hand").unwrap();
        assert!(check_may_write(&path, false, &[ours]).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn an_unfinished_file_leaves_nothing_behind() {
        let dir = std::env::temp_dir().join(format!("atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.pgn");
        let mut f = AtomicFile::create(&path).unwrap();
        f.write(b"half").unwrap();
        drop(f);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).ok();
    }
}
