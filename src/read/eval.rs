//! `scoresheet eval`: reading accuracy against ground truth.
//!
//! Two layouts are understood: our synthetic sheets (`NAME.png|jpg` beside `NAME.json`, whose
//! `pgn` is the game played; continuation pages `NAME_p2.*` join their first page), and the HCS
//! dataset (`GGG_P.jpg` pages with `testing_tags.txt`, the players' own records of the test
//! games, scored by the rule of [`crate::decode::truth`]: a ply counts when its label is legal,
//! and is right when the move read is one the label can mean).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use shakmaty::{Chess, Move, Position};

use super::{BatchOptions, read_batch};
use crate::decode::DecodedGame;
use crate::decode::truth::{TruePly, score, true_game};
use crate::notation::{LangChoice, english, parse_game};

/// A game to read: its name, its image files, its truth.
pub type TruthGame = (String, Vec<PathBuf>, Vec<TruePly>);

/// The figures of one evaluation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figures {
    pub games: usize,
    pub games_right: usize,
    pub plies_right: usize,
    pub plies_counted: usize,
    pub moves_read: usize,
    pub flagged: usize,
    pub wrong: usize,
    pub wrong_flagged: usize,
    pub failed_files: usize,
}

impl Figures {
    /// Adds one game read against its truth.
    pub fn add(&mut self, read: &DecodedGame, truth: &[TruePly]) {
        let moves: Vec<Move> = read.moves.iter().map(|m| m.mv).collect();
        let (right, counted) = score(&moves, truth);
        self.games += 1;
        self.games_right += usize::from(right == counted && moves.len() == truth.len());
        self.plies_right += right;
        self.plies_counted += counted;
        self.moves_read += moves.len();
        for (i, m) in read.moves.iter().enumerate() {
            let ok = truth.get(i).is_some_and(|t| !t.counted() || t.allowed.contains(&m.mv));
            self.flagged += usize::from(m.flagged);
            if !ok {
                self.wrong += 1;
                self.wrong_flagged += usize::from(m.flagged);
            }
        }
        // Plies of the truth the reading does not reach are wrong and unflagged.
        let missing = truth.iter().skip(moves.len()).filter(|t| t.counted()).count();
        self.wrong += missing;
    }

    /// Move recognition accuracy: plies right / plies counted.
    pub fn mra(&self) -> f64 {
        self.plies_right as f64 / self.plies_counted.max(1) as f64
    }

    /// A human-readable summary.
    pub fn summary(&self, name: &str) -> String {
        format!(
            "{name}: MRA {:.1}% ({} of {} half-moves), games fully right {} of {}, wrong moves flagged {:.1}% ({} of {}), moves flagged {:.1}% ({} of {}), files failed {}",
            100.0 * self.mra(),
            self.plies_right,
            self.plies_counted,
            self.games_right,
            self.games,
            100.0 * self.wrong_flagged as f64 / self.wrong.max(1) as f64,
            self.wrong_flagged,
            self.wrong,
            100.0 * self.flagged as f64 / self.moves_read.max(1) as f64,
            self.flagged,
            self.moves_read,
            self.failed_files
        )
    }
}

/// The truth of a synthetic sheet: every ply counted, the move played the only one right.
pub fn synthetic_truth(pgn: &str) -> Result<Vec<TruePly>, String> {
    let game = parse_game(pgn, LangChoice::Fixed(english()), false).map_err(|e| e.to_string())?;
    Ok(game.moves.into_iter().map(|m| TruePly { label: m.san, allowed: vec![m.mv], played: m.mv }).collect())
}

/// The HCS test games: game number to its labels in half-move order.
pub fn hcs_test_labels(tags: &str) -> BTreeMap<String, Vec<String>> {
    let mut games: BTreeMap<String, BTreeMap<(u32, u8), String>> = BTreeMap::new();
    for line in tags.lines() {
        let mut it = line.split_whitespace();
        let Some(name) = it.next() else { continue };
        let label: String = it.collect::<Vec<_>>().join(" ");
        let parts: Vec<&str> = name.trim_end_matches(".png").split('_').collect();
        let [g, m, side] = parts[..] else { continue };
        let Ok(m) = m.parse::<u32>() else { continue };
        games.entry(g.to_string()).or_default().insert((m, u8::from(side == "black")), label);
    }
    games.into_iter().map(|(g, cells)| (g, cells.into_values().collect())).collect()
}

/// Synthetic sheets in `dir`: games (name, image files) and their truths.
pub fn synthetic_games(dir: &Path) -> Result<Vec<TruthGame>, String> {
    let mut jsons: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    jsons.sort();
    let mut games: Vec<TruthGame> = Vec::new();
    for j in jsons {
        let stem = j.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        let image = ["png", "jpg", "jpeg"].iter().map(|e| j.with_extension(e)).find(|p| p.exists());
        let Some(image) = image else { continue };
        let base = stem.strip_suffix("_p2").unwrap_or(&stem).to_string();
        if let Some(g) = games.iter_mut().find(|g| g.0 == base) {
            g.1.push(image);
            continue;
        }
        let text = std::fs::read_to_string(&j).map_err(|e| format!("{}: {e}", j.display()))?;
        let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", j.display()))?;
        let pgn = v["pgn"].as_str().ok_or_else(|| format!("{}: no pgn", j.display()))?;
        games.push((base, vec![image], synthetic_truth(pgn).map_err(|e| format!("{}: {e}", j.display()))?));
    }
    Ok(games)
}

/// Reads `games` and scores them.
pub fn evaluate(games: &[TruthGame], opts: &BatchOptions<'_>) -> Figures {
    let list: Vec<(String, Vec<PathBuf>)> = games.iter().map(|(n, f, _)| (n.clone(), f.clone())).collect();
    let batch = read_batch(&list, opts);
    let mut figures = Figures { failed_files: batch.errors.len(), ..Figures::default() };
    for (name, _, truth) in games {
        match batch.games.iter().find(|g| g.id == *name) {
            Some(g) => figures.add(&g.game, truth),
            None => {
                figures.games += 1;
                figures.plies_counted += truth.iter().filter(|t| t.counted()).count();
                figures.wrong += truth.len();
            }
        }
    }
    figures
}

/// The HCS test games in `dir` (less the endgame study 039): with `both_pages`, pages 0 and 1
/// read together as copies; else page 0 alone.
pub fn hcs_games(dir: &Path, both_pages: bool) -> Result<Vec<TruthGame>, String> {
    let tags_path = dir.join("testing_tags.txt");
    let tags = std::fs::read_to_string(&tags_path).map_err(|e| format!("{}: {e}", tags_path.display()))?;
    let mut out = Vec::new();
    for (g, labels) in hcs_test_labels(&tags) {
        if g == "039" {
            continue;
        }
        let pages: Vec<PathBuf> = (0..if both_pages { 2 } else { 1 })
            .map(|p| dir.join(format!("{g}_{p}.jpg")))
            .filter(|p| p.exists())
            .collect();
        if pages.is_empty() {
            continue;
        }
        let truth = true_game(&Chess::default(), &labels, english());
        out.push((g, pages, truth));
    }
    Ok(out)
}

/// Arguments of `scoresheet eval`.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// A folder of synthetic sheets (image + JSON ground truth), or with `--hcs` the HCS folder
    /// (`GGG_P.jpg` pages and `testing_tags.txt`).
    pub dir: PathBuf,
    /// The folder is the HCS dataset: read its 17 test games (less the endgame study 039), page 0
    /// alone and both pages together.
    #[arg(long)]
    pub hcs: bool,
    /// Piece letters: auto or a language code.
    #[arg(long, default_value = "auto")]
    pub lang: String,
    /// Decoder beam width.
    #[arg(long)]
    pub beam: Option<usize>,
    /// The recognizer model (default: the shipped one).
    #[arg(long)]
    pub model: Option<PathBuf>,
}

/// Runs `eval`: returns the figures as text.
pub fn run(args: &EvalArgs, cutter: &dyn super::Cutter) -> Result<String, String> {
    let lang = match args.lang.as_str() {
        "auto" => None,
        c => Some(crate::notation::lang(c).ok_or_else(|| format!("unknown language \"{c}\""))?),
    };
    let model = args.model.clone().unwrap_or_else(crate::recognize::default_model_path);
    let pool = super::RecognizerPool::new(&model)?;
    let mut params = crate::decode::Params::default();
    if let Some(b) = args.beam {
        params.beam = b;
    }
    let no_headers = |_: &str, _: &[PathBuf]| Vec::new();
    let tick = || {};
    let opts = BatchOptions {
        cutter,
        pool: &pool,
        lang,
        params,
        keep_images: false,
        headers: &no_headers,
        fixes: &[],
        progress: &tick,
    };
    let started = std::time::Instant::now();
    let mut out = String::new();
    if args.hcs {
        for (both, name) in [(false, "HCS test split, page 0 alone"), (true, "HCS test split, both pages together")] {
            let games = hcs_games(&args.dir, both)?;
            out.push_str(&evaluate(&games, &opts).summary(name));
            out.push('\n');
        }
    } else {
        let games = synthetic_games(&args.dir)?;
        out.push_str(&evaluate(&games, &opts).summary(&format!("synthetic sheets in {}", args.dir.display())));
        out.push('\n');
    }
    out.push_str(&format!("time {:.1} s\n", started.elapsed().as_secs_f64()));
    Ok(out)
}

/// Checks a truth replays: every played move legal in turn.
pub fn truth_is_legal(truth: &[TruePly]) -> bool {
    let mut pos = Chess::default();
    truth.iter().all(|t| {
        let ok = pos.is_legal(t.played);
        pos.play_unchecked(t.played);
        ok
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hcs_labels_by_game_in_order() {
        let tags =
            "001_1_white.png d4\n001_1_black.png Nf6\n001_2_white.png c4\n005_1_white.png e4\n001_10_white.png h3\n";
        let g = hcs_test_labels(tags);
        assert_eq!(g["001"], vec!["d4", "Nf6", "c4", "h3"]);
        assert_eq!(g["005"], vec!["e4"]);
    }

    #[test]
    fn synthetic_truth_from_pgn() {
        let t = synthetic_truth("[Event \"?\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0").unwrap();
        assert_eq!(t.len(), 4);
        assert!(truth_is_legal(&t));
        assert!(t.iter().all(TruePly::counted));
    }
}
