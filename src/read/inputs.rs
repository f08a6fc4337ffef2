//! What `read` is given: files and folders, grouped into games, with PGN tags.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use regex::Regex;

use super::ReadError;
use crate::output::FileError;

/// File extensions looked at inside folders.
pub const EXTENSIONS: [&str; 9] = ["png", "jpg", "jpeg", "gif", "bmp", "webp", "tif", "tiff", "pdf"];

/// The files named on the command line, folders walked recursively in sorted order. Files named
/// explicitly are taken whatever their extension; inside folders only images and PDFs are.
pub fn collect(inputs: &[PathBuf]) -> (Vec<PathBuf>, Vec<FileError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for input in inputs {
        match std::fs::metadata(input) {
            Err(e) => errors.push(FileError { file: input.display().to_string(), error: format!("cannot open: {e}") }),
            Ok(m) if m.is_dir() => walk(input, &mut files, &mut errors),
            Ok(_) => files.push(input.clone()),
        }
    }
    (files, errors)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>, errors: &mut Vec<FileError>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            errors.push(FileError { file: dir.display().to_string(), error: format!("cannot list folder: {e}") });
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    // (one folder's entries differ in their last component: any sort gives the one order)
    paths.sort_unstable();
    for p in paths {
        if p.is_dir() {
            walk(&p, files, errors);
        } else if p
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
        {
            files.push(p);
        }
    }
}

/// How files make games.
#[derive(Clone, Debug)]
pub enum Grouping {
    /// One game per file (a multi-page file is one game over its pages).
    PerFile,
    /// Every file of the call is one game (copies or continuation pages).
    All,
    /// Files whose names give the same key are one game. The key is the pattern's capture groups
    /// joined by "-" (or its whole match when it has none); a file it does not match is a game
    /// of its own.
    Pattern(Regex),
}

impl Grouping {
    /// Parses a `--group` pattern.
    pub fn pattern(p: &str) -> Result<Grouping, ReadError> {
        Regex::new(p).map(Grouping::Pattern).map_err(|e| ReadError::Invalid(format!("bad --group pattern: {e}")))
    }
}

fn stem(p: &Path) -> String {
    p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| p.display().to_string())
}

/// The games: (name, files in order).
pub fn group(files: &[PathBuf], grouping: &Grouping) -> Vec<(String, Vec<PathBuf>)> {
    match grouping {
        Grouping::PerFile => files.iter().map(|f| (stem(f), vec![f.clone()])).collect(),
        Grouping::All if files.is_empty() => Vec::new(),
        Grouping::All => vec![(stem(&files[0]), files.to_vec())],
        Grouping::Pattern(re) => {
            let mut games: Vec<(String, Vec<PathBuf>)> = Vec::new();
            for f in files {
                let name = f.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                let key = re.captures(&name).map(|c| {
                    if c.len() > 1 {
                        c.iter().skip(1).flatten().map(|m| m.as_str()).collect::<Vec<_>>().join("-")
                    } else {
                        c[0].to_string()
                    }
                });
                let key = key.unwrap_or_else(|| stem(f));
                match games.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, v)) => v.push(f.clone()),
                    None => games.push((key, vec![f.clone()])),
                }
            }
            games
        }
    }
}

/// PGN tags per game from a CSV file: a header row naming the columns, one of them `file` (a
/// file name, with or without folder, or a game's name), the others tag names (Event, Site,
/// Date, Round, White, Black, ...).
pub fn headers_csv(path: &Path) -> Result<BTreeMap<String, Vec<(String, String)>>, ReadError> {
    let name = path.display();
    let mut reader = csv::Reader::from_path(path).map_err(|e| ReadError::Invalid(format!("{name}: {e}")))?;
    let columns: Vec<String> =
        reader.headers().map_err(|e| ReadError::Invalid(format!("{name}: {e}")))?.iter().map(str::to_string).collect();
    let key = columns
        .iter()
        .position(|c| c.eq_ignore_ascii_case("file"))
        .ok_or_else(|| ReadError::Invalid(format!("{name}: no \"file\" column")))?;
    let mut out = BTreeMap::new();
    for (i, row) in reader.records().enumerate() {
        let row = row.map_err(|e| ReadError::Invalid(format!("{name}: row {}: {e}", i + 2)))?;
        let Some(file) = row.get(key) else { continue };
        let tags = columns
            .iter()
            .enumerate()
            .filter(|(c, _)| *c != key)
            .filter_map(|(c, col)| row.get(c).filter(|v| !v.is_empty()).map(|v| (col.clone(), v.to_string())))
            .collect();
        out.insert(file.to_string(), tags);
    }
    Ok(out)
}

/// The tags for a game from the CSV: looked up by each file's path, its name, its stem, and
/// the game's name.
pub fn tags_for<'a>(
    table: &'a BTreeMap<String, Vec<(String, String)>>,
    game: &str,
    files: &[PathBuf],
) -> Option<&'a Vec<(String, String)>> {
    for f in files {
        let full = f.display().to_string();
        let name = f.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        for k in [full, name, stem(f)] {
            if let Some(t) = table.get(&k) {
                return Some(t);
            }
        }
    }
    table.get(game)
}

/// A correction: `GAME:14b=Nf6` pins black's 14th move of game GAME to Nf6 (English SAN);
/// `14w` or `14` is white's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// The game's name.
    pub game: String,
    /// Half-move index, 0 = white's first move.
    pub ply: usize,
    /// The move, in English SAN.
    pub san: String,
}

impl std::str::FromStr for Fix {
    type Err = ReadError;

    fn from_str(s: &str) -> Result<Fix, ReadError> {
        let bad = || {
            ReadError::Invalid(format!(
                "bad --fix \"{s}\": write GAME:14b=Nf6 (move 14, b for black, w or nothing for white)"
            ))
        };
        let (game, rest) = s.rsplit_once(':').ok_or_else(bad)?;
        let (mv, san) = rest.split_once('=').ok_or_else(bad)?;
        let mv = mv.trim();
        let (num, black) = match mv.strip_suffix(['b', 'B']) {
            Some(n) => (n, true),
            None => (mv.strip_suffix(['w', 'W']).unwrap_or(mv), false),
        };
        let n: usize = num.parse().map_err(|_| bad())?;
        if n == 0 || san.trim().is_empty() || game.is_empty() {
            return Err(bad());
        }
        Ok(Fix { game: game.to_string(), ply: (n - 1) * 2 + usize::from(black), san: san.trim().to_string() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixes_parse() {
        assert_eq!("r3:14b=Nf6".parse::<Fix>().unwrap(), Fix { game: "r3".into(), ply: 27, san: "Nf6".into() });
        assert_eq!("a:b:1=e4".parse::<Fix>().unwrap(), Fix { game: "a:b".into(), ply: 0, san: "e4".into() });
        assert_eq!("g:2w=Nf3".parse::<Fix>().unwrap().ply, 2);
        for bad in ["", "x", "g:0=e4", "g:14b=", ":1=e4", "g:xb=e4"] {
            assert!(bad.parse::<Fix>().is_err(), "{bad}");
        }
    }

    #[test]
    fn grouping_by_pattern() {
        let files: Vec<PathBuf> = ["d/r3-b12-white.jpg", "d/r3-b12-black.jpg", "d/r3-b13-white.jpg", "d/other.png"]
            .iter()
            .map(PathBuf::from)
            .collect();
        let g = group(&files, &Grouping::pattern(r"r(\d+)-b(\d+)").unwrap());
        assert_eq!(g.len(), 3);
        assert_eq!(g[0].0, "3-12");
        assert_eq!(g[0].1.len(), 2);
        assert_eq!(g[2].0, "other");
        assert_eq!(group(&files, &Grouping::All).len(), 1);
        assert_eq!(group(&files, &Grouping::PerFile).len(), 4);
        assert!(Grouping::pattern("(").is_err());
    }
}
