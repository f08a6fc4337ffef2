//! `scoresheet-dev eval`: reading accuracy against ground truth.
//!
//! Two layouts are understood: our synthetic sheets (`NAME.png|jpg` beside `NAME.json`, whose
//! `pgn` is the game played; continuation pages `NAME_p2.*` join their first page), and the HCS
//! dataset (`GGG_P.jpg` pages with `testing_tags.txt`, the players' own records of the test
//! games, scored by the rule of [`crate::decode::truth`]: a ply counts when its label is legal,
//! and is right when the move read is one the label can mean).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use shakmaty::{Chess, Move, Position};

use super::ReadError;
use super::{BatchOptions, read_batch};
use crate::decode::DecodedGame;
use crate::decode::truth::{TruePly, score, true_game_along};
use crate::notation::{LangChoice, english, english_san, parse_game};

/// A game to read: its name, its image files, its truth.
pub type TruthGame = (String, Vec<PathBuf>, Truth);

/// What a reading is scored against.
#[derive(Clone, Debug)]
pub enum Truth {
    /// The moves played (synthetic sheets): the only right reading of each ply.
    Moves(Vec<TruePly>),
    /// A player's own record, in English letters: the true game behind it is found along each
    /// reading ([`true_game_along`]), so that where the record cannot tell two moves apart the
    /// reading's pick is not held against it.
    Labels(Vec<String>),
}

impl Truth {
    /// The true game a reading `read` is scored against.
    pub fn along(&self, read: &[Move]) -> Cow<'_, [TruePly]> {
        match self {
            Truth::Moves(t) => Cow::Borrowed(t),
            Truth::Labels(l) => Cow::Owned(true_game_along(&Chess::default(), l, english(), read)),
        }
    }
}

/// A standard spelling without its check or mate mark (which a different board may change).
fn without_check_mark(san: &str) -> &str {
    san.trim_end_matches(['+', '#'])
}

/// The figures of one evaluation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figures {
    /// Games evaluated.
    pub games: usize,
    /// Games read without a wrong half-move.
    pub games_right: usize,
    /// Counted half-moves read right.
    pub plies_right: usize,
    /// Half-moves of the truth counted.
    pub plies_counted: usize,
    /// Half-moves read.
    pub moves_read: usize,
    /// Half-moves read and flagged.
    pub flagged: usize,
    /// Counted half-moves read wrong (or not reached, or read past the truth's end).
    pub wrong: usize,
    /// Of `wrong`: those flagged.
    pub wrong_flagged: usize,
    /// Of `wrong`: moves read past the truth's last half-move.
    pub beyond: usize,
    /// Of `wrong`: counted half-moves of the truth the reading does not reach.
    pub missing: usize,
    /// Files that could not be read.
    pub failed_files: usize,
    /// Of `wrong`: counted half-moves read as a move whose standard spelling is the true move's
    /// (the boards differ after an earlier disagreement: the PGN prints the true text), and how
    /// many of those are not flagged.
    pub same_text: usize,
    /// Of `same_text`: those not flagged.
    pub same_text_unflagged: usize,
    /// Of `wrong`: moves a reviewer is led to: flagged ones, and moves printed as the true move
    /// on a board that went wrong earlier, where the wrong move that parted the boards (the
    /// chain's first move) is flagged: correcting that move corrects the chain.
    pub wrong_caught: usize,
    /// The counted half-moves read wrong (not those past the truth's end): "12... Bf4 for
    /// \"Bxf4\" (0.93)", flagged ones marked.
    pub wrong_moves: Vec<String>,
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
        // The true board before each half-move (truths start from the initial position).
        let mut true_pos = Chess::default();
        let mut true_sans = Vec::with_capacity(truth.len());
        let mut true_boards = Vec::with_capacity(truth.len());
        for t in truth {
            true_sans.push(english_san(&true_pos, &t.played));
            true_boards.push(true_pos.board().clone());
            true_pos.play_unchecked(t.played);
        }
        // Whether the wrong move where the read board last parted from the true one was flagged.
        let mut chain_start_flagged = false;
        let mut read_pos = Chess::default();
        for (i, m) in read.moves.iter().enumerate() {
            let boards_agree = true_boards.get(i).is_some_and(|b| b == read_pos.board());
            read_pos.play_unchecked(m.mv);
            let ok = truth.get(i).is_some_and(|t| !t.counted() || t.allowed.contains(&m.mv));
            self.flagged += usize::from(m.flagged);
            if !ok {
                self.wrong += 1;
                self.beyond += usize::from(i >= truth.len());
                self.wrong_flagged += usize::from(m.flagged);
                let prints_as_truth =
                    true_sans.get(i).is_some_and(|t| without_check_mark(t) == without_check_mark(&m.san));
                if boards_agree {
                    chain_start_flagged = m.flagged;
                }
                let in_caught_chain = !boards_agree && prints_as_truth && chain_start_flagged;
                self.wrong_caught += usize::from(m.flagged || in_caught_chain);
                let Some(label) = truth.get(i).map(|t| t.label.as_str()) else { continue };
                if prints_as_truth {
                    self.same_text += 1;
                    self.same_text_unflagged += usize::from(!m.flagged);
                }
                let dots = if m.color == shakmaty::Color::White { "." } else { "..." };
                let flag = if m.flagged { ", flagged" } else { "" };
                self.wrong_moves
                    .push(format!("{}{dots} {} for \"{label}\" ({:.2}{flag})", m.number, m.san, m.confidence));
            }
        }
        // Plies of the truth the reading does not reach are wrong and unflagged.
        let missing = truth.iter().skip(moves.len()).filter(|t| t.counted()).count();
        self.wrong += missing;
        self.missing += missing;
    }

    /// Adds another set of figures.
    pub fn merge(&mut self, o: &Figures) {
        self.games += o.games;
        self.games_right += o.games_right;
        self.plies_right += o.plies_right;
        self.plies_counted += o.plies_counted;
        self.moves_read += o.moves_read;
        self.flagged += o.flagged;
        self.wrong += o.wrong;
        self.wrong_flagged += o.wrong_flagged;
        self.beyond += o.beyond;
        self.missing += o.missing;
        self.failed_files += o.failed_files;
        self.same_text += o.same_text;
        self.same_text_unflagged += o.same_text_unflagged;
        self.wrong_caught += o.wrong_caught;
        self.wrong_moves.extend(o.wrong_moves.iter().cloned());
    }

    /// Move recognition accuracy: plies right / plies counted.
    pub fn mra(&self) -> f64 {
        self.plies_right as f64 / self.plies_counted.max(1) as f64
    }

    /// A human-readable summary.
    pub fn summary(&self, name: &str) -> String {
        format!(
            "{name}: MRA {:.1}% ({} of {} half-moves), games fully right {} of {}, wrong moves flagged {:.1}% ({} of {}; {} past the game's end, {} not reached), moves flagged {:.1}% ({} of {}), files failed {}; wrong moves printed as the true move {} ({} unflagged); wrong moves caught {:.1}% ({} of {}: flagged, or printed as the true move in a chain whose first move is flagged)",
            100.0 * self.mra(),
            self.plies_right,
            self.plies_counted,
            self.games_right,
            self.games,
            100.0 * self.wrong_flagged as f64 / self.wrong.max(1) as f64,
            self.wrong_flagged,
            self.wrong,
            self.beyond,
            self.missing,
            100.0 * self.flagged as f64 / self.moves_read.max(1) as f64,
            self.flagged,
            self.moves_read,
            self.failed_files,
            self.same_text,
            self.same_text_unflagged,
            100.0 * self.wrong_caught as f64 / self.wrong.max(1) as f64,
            self.wrong_caught,
            self.wrong
        )
    }
}

/// The truth of a synthetic sheet: every ply counted, the move played the only one right.
pub fn synthetic_truth(pgn: &str) -> Result<Vec<TruePly>, ReadError> {
    let game = parse_game(pgn, LangChoice::Fixed(english()), false).map_err(|e| ReadError::Invalid(e.to_string()))?;
    Ok(game.moves.into_iter().map(|m| TruePly { label: m.san, allowed: vec![m.mv], played: m.mv }).collect())
}

/// One line of an HCS tags file, `NAME.png LABEL`: the name's `_`-separated parts and the label.
fn tag_line(line: &str) -> Option<(Vec<&str>, String)> {
    let mut it = line.split_whitespace();
    let name = it.next()?;
    Some((name.trim_end_matches(".png").split('_').collect(), it.collect::<Vec<_>>().join(" ")))
}

/// The HCS test games: game number to its labels in half-move order.
pub fn hcs_test_labels(tags: &str) -> BTreeMap<String, Vec<String>> {
    let mut games: BTreeMap<String, BTreeMap<(u32, u8), String>> = BTreeMap::new();
    for line in tags.lines() {
        let Some((parts, label)) = tag_line(line) else { continue };
        let [g, m, side] = parts[..] else { continue };
        let Ok(m) = m.parse::<u32>() else { continue };
        games.entry(g.to_string()).or_default().insert((m, u8::from(side == "black")), label);
    }
    games.into_iter().map(|(g, cells)| (g, cells.into_values().collect())).collect()
}

/// Synthetic sheets in `dir`: games (name, image files) and their truths.
pub fn synthetic_games(dir: &Path) -> Result<Vec<TruthGame>, ReadError> {
    let mut jsons: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| ReadError::Invalid(format!("{}: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    jsons.sort();
    let mut games: Vec<TruthGame> = Vec::new();
    for j in jsons {
        let stem = j.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        let image = ["png", "jpg", "jpeg"].iter().map(|e| j.with_extension(e)).find(|p| p.exists());
        let Some(image) = image else { continue };
        // A continuation page (`_p2`) and the second player's copy (`_c2`) belong to the game.
        let base = stem.strip_suffix("_p2").unwrap_or(&stem);
        let base = base.strip_suffix("_c2").unwrap_or(base).to_string();
        if let Some(g) = games.iter_mut().find(|g| g.0 == base) {
            g.1.push(image);
            continue;
        }
        let text = std::fs::read_to_string(&j).map_err(|e| ReadError::Invalid(format!("{}: {e}", j.display())))?;
        let v: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| ReadError::Invalid(format!("{}: {e}", j.display())))?;
        let pgn = v["pgn"].as_str().ok_or_else(|| ReadError::Invalid(format!("{}: no pgn", j.display())))?;
        let truth = synthetic_truth(pgn).map_err(|e| ReadError::Invalid(format!("{}: {e}", j.display())))?;
        games.push((base, vec![image], Truth::Moves(truth)));
    }
    Ok(games)
}

/// Reads `games` and scores them: all together and each game's figures.
pub fn evaluate_each(games: &[TruthGame], opts: &BatchOptions<'_>) -> (Figures, Vec<(String, Figures)>) {
    let (all, each, _) = evaluate_with_evidence(games, opts);
    (all, each)
}

/// Like [`evaluate_each`], with one line per move read for fitting the confidence calibration:
/// game, half-move, the move's calibration features, the half-moves that brought its piece and
/// the piece it takes to their squares (-1: none; [`crate::decode::confidence::brought_by`]), its
/// dependence on earlier moves, and 1 if it is right, 0 if wrong, -1 if not counted (the truth is
/// the player's own error, or the move is past the truth's end).
pub fn evaluate_with_evidence(
    games: &[TruthGame],
    opts: &BatchOptions<'_>,
) -> (Figures, Vec<(String, Figures)>, String) {
    let list: Vec<(String, Vec<PathBuf>)> = games.iter().map(|(n, f, _)| (n.clone(), f.clone())).collect();
    let batch = read_batch(&list, opts);
    let mut figures = Figures { failed_files: batch.errors.len(), ..Figures::default() };
    let mut each = Vec::new();
    let mut evidence = String::new();
    for (name, _, truth) in games {
        let mut one = Figures::default();
        match batch.games.iter().find(|g| g.id == *name) {
            Some(g) => {
                let read: Vec<Move> = g.game.moves.iter().map(|m| m.mv).collect();
                let truth = &truth.along(&read);
                one.add(&g.game, truth);
                let brought = crate::decode::confidence::brought_by(&read);
                for (i, (m, (from, taken))) in g.game.moves.iter().zip(brought).enumerate() {
                    // -1: not counted (the player's own error, or past the truth), or no such move
                    let right = match truth.get(i).filter(|t| t.counted()) {
                        Some(t) => i8::from(t.allowed.contains(&m.mv)),
                        None => -1,
                    };
                    let f: Vec<String> = m.features.iter().map(|x| format!("{x:.4}")).collect();
                    let ply = |j: Option<usize>| j.map_or(-1, |j| j as i64);
                    let (from, taken, dep) = (ply(from), ply(taken), m.dependence);
                    evidence.push_str(&format!("{name}\t{i}\t{}\t{from}\t{taken}\t{dep:.4}\t{right}\n", f.join("\t")));
                }
            }
            None => {
                let truth = truth.along(&[]);
                one.games += 1;
                one.plies_counted += truth.iter().filter(|t| t.counted()).count();
                one.wrong += truth.len();
            }
        }
        figures.merge(&one);
        each.push((name.clone(), one));
    }
    (figures, each, evidence)
}

/// The HCS test games in `dir` (less the endgame study 039): with `both_pages`, pages 0 and 1
/// read together as copies; else page 0 alone.
pub fn hcs_games(dir: &Path, both_pages: bool) -> Result<Vec<TruthGame>, ReadError> {
    let tags_path = dir.join("testing_tags.txt");
    let tags =
        std::fs::read_to_string(&tags_path).map_err(|e| ReadError::Invalid(format!("{}: {e}", tags_path.display())))?;
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
        out.push((g, pages, Truth::Labels(labels)));
    }
    Ok(out)
}

/// The 17 games of the HCS test split: never trained on, never tuned on.
pub const HCS_TEST_GAMES: [&str; 17] = [
    "001", "005", "008", "017", "019", "021", "022", "023", "024", "025", "027", "029", "033", "034", "035", "039",
    "040",
];

/// Whether an HCS game is one of the decoder's development games: outside the test split, number
/// ending in 6 (16 games, 30 pages). The recognizer's training leaves them out too
/// (`models/train/cut_hcs.py`), so decoder tuning and confidence calibration see cells the model
/// was not fitted to.
pub fn is_hcs_dev_game(game: &str) -> bool {
    !HCS_TEST_GAMES.contains(&game) && game.parse::<u32>().is_ok_and(|n| n % 10 == 6)
}

/// The labelled pages of HCS games for which `keep(game)` holds, with each page's labels in
/// half-move order up to the first gap (a page's record ends where its labels end).
pub fn hcs_page_labels(dir: &Path, keep: impl Fn(&str) -> bool) -> Result<Vec<(String, Vec<String>)>, ReadError> {
    let tags_path = dir.join("training_tags.txt");
    let tags =
        std::fs::read_to_string(&tags_path).map_err(|e| ReadError::Invalid(format!("{}: {e}", tags_path.display())))?;
    let mut pages: BTreeMap<String, BTreeMap<(u32, u8), String>> = BTreeMap::new();
    for line in tags.lines() {
        let Some((parts, label)) = tag_line(line) else { continue };
        let [g, p, m, side] = parts[..] else { continue };
        if !keep(g) {
            continue;
        }
        let Ok(m) = m.parse::<u32>() else { continue };
        pages.entry(format!("{g}_{p}")).or_default().insert((m, u8::from(side == "black")), label);
    }
    Ok(pages
        .into_iter()
        .map(|(page, cells)| {
            // A cell without a label inside the page (the dataset leaves some out) is a half-move
            // whose label is unknown: "", which no move matches, so it is not counted and the true
            // game goes on with the move that best explains the labels after it.
            let mut labels = Vec::new();
            for ((m, side), label) in cells {
                let Some(i) = (m as usize).checked_sub(1).map(|m| m * 2 + side as usize) else { continue };
                if labels.len() < i {
                    labels.resize(i, String::new());
                }
                if labels.len() == i {
                    labels.push(label);
                }
            }
            (page, labels)
        })
        .collect())
}

/// The pages of the HCS development games ([`is_hcs_dev_game`]), each read alone against its own
/// page labels from `training_tags.txt`: the set for tuning the decoder. `limit` pages at most.
pub fn hcs_dev_games(dir: &Path, limit: usize) -> Result<Vec<TruthGame>, ReadError> {
    let mut out = Vec::new();
    for (page, labels) in hcs_page_labels(dir, is_hcs_dev_game)? {
        let image = dir.join(format!("{page}.jpg"));
        if !image.exists() {
            continue;
        }
        out.push((page, vec![image], Truth::Labels(labels)));
        if out.len() >= limit {
            break;
        }
    }
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
    fn development_games_stay_outside_the_test_split() {
        let dev: Vec<String> = (1..=160).map(|n| format!("{n:03}")).filter(|g| is_hcs_dev_game(g)).collect();
        assert_eq!(dev.len(), 16);
        assert!(dev.iter().all(|g| !HCS_TEST_GAMES.contains(&g.as_str())));
        assert!(!is_hcs_dev_game("001") && is_hcs_dev_game("006") && !is_hcs_dev_game("x6"));
    }

    #[test]
    fn synthetic_truth_from_pgn() {
        let t = synthetic_truth("[Event \"?\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0").unwrap();
        assert_eq!(t.len(), 4);
        assert!(truth_is_legal(&t));
        assert!(t.iter().all(TruePly::counted));
    }

    #[test]
    fn a_continuation_page_and_the_second_copy_belong_to_the_game() {
        let dir = std::env::temp_dir().join(format!("scoresheet-eval-group-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let pgn = serde_json::json!({"pgn": "[Event \"?\"]\n\n1. e4 e5 1-0"}).to_string();
        for stem in ["sheet-00001", "sheet-00001_p2", "sheet-00001_c2", "sheet-00001_c2_p2", "sheet-00002"] {
            std::fs::write(dir.join(format!("{stem}.json")), &pgn).unwrap();
            std::fs::write(dir.join(format!("{stem}.jpg")), b"").unwrap();
        }
        let games = synthetic_games(&dir).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let names: Vec<(&str, usize)> = games.iter().map(|g| (g.0.as_str(), g.1.len())).collect();
        assert_eq!(names, [("sheet-00001", 4), ("sheet-00002", 1)]);
    }

    #[test]
    fn a_page_cell_without_a_label_is_an_unknown_half_move_and_the_game_goes_on() {
        let dir = std::env::temp_dir().join(format!("scoresheet-eval-gap-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // 106_0: black's 2nd move has no label; 096_0: white's 1st has none.
        let tags = "106_0_1_white.png e4\n106_0_1_black.png e5\n106_0_2_white.png Nf3\n106_0_3_white.png Bc4\n\
                    106_0_3_black.png Nf6\n096_0_1_black.png e5\n096_0_2_white.png Nf3\n";
        std::fs::write(dir.join("training_tags.txt"), tags).unwrap();
        let pages = hcs_page_labels(&dir, |_| true).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let labels: BTreeMap<&str, &Vec<String>> = pages.iter().map(|(p, l)| (p.as_str(), l)).collect();
        assert_eq!(labels["106_0"], &vec!["e4", "e5", "Nf3", "", "Bc4", "Nf6"]);
        assert_eq!(labels["096_0"], &vec!["", "e5", "Nf3"]);
        // The unknown half-move is not counted; the game goes on through it with a move under
        // which the labels after it can be followed.
        let truth = true_game_along(&Chess::default(), labels["106_0"], english(), &[]);
        assert_eq!(truth.len(), 6);
        assert!(!truth[3].counted() && truth.iter().enumerate().all(|(i, t)| i == 3 || t.counted()));
        assert!(truth_is_legal(&truth));
    }

    #[test]
    fn a_wrong_move_printed_as_the_true_move_is_counted_apart() {
        let read_game = |sans: &[&str], flagged: &[usize]| {
            let mut pos = Chess::default();
            let mut moves = Vec::new();
            for (i, san) in sans.iter().enumerate() {
                let mv = san.parse::<shakmaty::san::San>().unwrap().to_move(&pos).unwrap();
                moves.push(crate::decode::DecodedMove {
                    mv,
                    san: english_san(&pos, &mv),
                    number: (i / 2 + 1) as u32,
                    color: if i % 2 == 0 { shakmaty::Color::White } else { shakmaty::Color::Black },
                    cells: Vec::new(),
                    confidence: if flagged.contains(&i) { 0.5 } else { 0.99 },
                    alternatives: Vec::new(),
                    flagged: flagged.contains(&i),
                    hangs_on: None,
                    dependence: 0.0,
                    features: [0.0; crate::decode::confidence::FEATURES],
                });
                pos.play_unchecked(mv);
            }
            DecodedGame { lang: english(), moves, result: "*".into(), score: 0.0 }
        };
        // 1. d3 for 1. e3 is wrong (flagged); then 2. e4 prints as the true 2. e4 but is the
        // pawn's double step from e2, not the step from e3: wrong, the same text, unflagged.
        let truth = synthetic_truth("[Event \"?\"]\n\n1. e3 a6 2. e4 *").unwrap();
        let mut f = Figures::default();
        f.add(&read_game(&["d3", "a6", "e4"], &[0]), &truth);
        assert_eq!((f.plies_right, f.wrong, f.wrong_flagged), (1, 2, 1));
        assert_eq!((f.same_text, f.same_text_unflagged), (1, 1));
        // The chain started at the flagged 1. d3: its 2. e4 is caught with it.
        assert_eq!(f.wrong_caught, 2);
        // Unflagged at its start, the chain is not caught.
        let mut f = Figures::default();
        f.add(&read_game(&["d3", "a6", "e4"], &[]), &truth);
        assert_eq!((f.wrong, f.wrong_caught), (2, 0));
        // A wrong move that does not print as the true one is not counted there; a later move
        // that is the same move on the board is right.
        let truth = synthetic_truth("[Event \"?\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Nxe5 *").unwrap();
        let mut f = Figures::default();
        f.add(&read_game(&["e4", "e5", "Nf3", "d6", "Nxe5"], &[]), &truth);
        assert_eq!((f.plies_right, f.wrong, f.same_text), (4, 1, 0));
    }
}
