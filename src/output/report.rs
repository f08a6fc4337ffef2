//! One game read from its sheets, and how it is written out: PGN with review comments, and the
//! JSON report.

use serde::Serialize;
use shakmaty::{Chess, Color, Position, fen::Fen};

use super::pgn::{PgnGame, PgnMove, write_pgn};
use crate::decode::{CellReading, DecodedGame};

/// A sheet image that holds (part of) a game.
#[derive(Clone, Debug)]
pub struct SheetRef {
    /// The file, as given on the command line.
    pub file: String,
    /// Page within the file (multi-page TIFF, PDF), from 0.
    pub page: usize,
    /// Which of the game's copies this sheet is (its index in the decoder's copies): the two
    /// players' sheets are copies 0 and 1; a continuation page has the copy of its first page.
    pub copy: usize,
    /// Each half-move's cell box on this sheet, in the input image's pixels: `boxes[ply]`.
    pub boxes: Vec<Option<[f32; 4]>>,
    /// The share of the row height the cells' windows were moved down by, where the writer's
    /// moves sat across the rows' lower rulings (the boxes are the moved windows).
    pub lowered: Option<f64>,
    /// Some rows of the sheet were numbered by counting, its printed move numbers unread: the
    /// move numbers, and so the moves' order, are a guess there.
    pub numbering_guessed: bool,
    /// The sheet's page holds a second copy of the form beside the one read, which is not read.
    pub second_form_unread: bool,
}

/// A game read, with where it came from.
#[derive(Clone, Debug)]
pub struct GameOutput {
    /// A name for the game: the file stem or the group's name.
    pub id: String,
    /// Its sheets (pages of all copies).
    pub sheets: Vec<SheetRef>,
    /// The game decoded: its moves with their confidences and readings.
    pub game: DecodedGame,
    /// PGN tags given by the user (Event, Round, ...).
    pub headers: Vec<(String, String)>,
}

fn pct(p: f32) -> String {
    format!("{:.0}%", (p * 100.0).clamp(0.0, 100.0))
}

impl GameOutput {
    /// The FEN before each half-move and after the last.
    pub fn fens(&self) -> Vec<String> {
        let mut pos = Chess::default();
        let mut out = vec![Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string()];
        for m in &self.game.moves {
            pos.play_unchecked(m.mv);
            out.push(Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string());
        }
        out
    }

    /// The game as PGN: standard English SAN, the user's tags, the language and source files;
    /// each flagged move carries a comment with its confidence and alternatives.
    pub fn to_pgn(&self) -> String {
        let mut headers = self.headers.clone();
        let files: Vec<String> = self
            .sheets
            .iter()
            .map(|s| if s.page > 0 { format!("{}#{}", s.file, s.page + 1) } else { s.file.clone() })
            .collect();
        headers.push(("Source".into(), files.join(" ")));
        headers.push(("Language".into(), self.game.lang.code.into()));
        let all = &self.game.moves;
        let moves = all
            .iter()
            .map(|m| {
                let mut comments = Vec::new();
                if m.flagged {
                    let mut c = format!("scoresheet: check this move, confidence {}", pct(m.confidence));
                    if !m.alternatives.is_empty() {
                        let alts: Vec<String> =
                            m.alternatives.iter().map(|(san, p)| format!("{san} {}", pct(*p))).collect();
                        c.push_str(&format!("; or {}", alts.join(", ")));
                    }
                    if m.unwritten() {
                        c.push_str("; its cell is blank");
                    }
                    if let Some(e) = m.hangs_on.and_then(|j| all.get(j)) {
                        let dots = if e.color == Color::White { "." } else { "..." };
                        c.push_str(&format!("; its meaning hangs on {}{dots} {}", e.number, e.san));
                    }
                    comments.push(c);
                }
                PgnMove { san: m.san.clone(), nags: Vec::new(), comments }
            })
            .collect();
        write_pgn(&PgnGame {
            headers,
            intro: Vec::new(),
            first_move: (1, false),
            moves,
            result: self.game.result.clone(),
        })
    }

    /// The sheet of copy `copy` that holds half-move `ply` (or the copy's first sheet).
    pub fn sheet_for(&self, copy: usize, ply: usize) -> Option<&SheetRef> {
        self.sheets
            .iter()
            .find(|s| s.copy == copy && s.boxes.get(ply).is_some_and(Option::is_some))
            .or_else(|| self.sheets.iter().find(|s| s.copy == copy))
    }

    /// The JSON report of this game.
    pub fn to_json(&self) -> GameJson {
        let moves = self
            .game
            .moves
            .iter()
            .enumerate()
            .map(|(ply, m)| MoveJson {
                ply: ply + 1,
                number: m.number,
                side: if m.color == Color::White { "white" } else { "black" },
                san: m.san.clone(),
                confidence: m.confidence,
                flagged: m.flagged,
                alternatives: m.alternatives.iter().map(|(san, p)| AltJson { san: san.clone(), p: *p }).collect(),
                hangs_on: m.hangs_on.map(|j| j + 1),
                cells: m
                    .cells
                    .iter()
                    .enumerate()
                    .map(|(c, r)| {
                        let sheet = self.sheet_for(c, ply);
                        let (kind, text) = match r {
                            CellReading::Written { text, .. } => ("written", text.clone()),
                            CellReading::Mismatch(t) => ("mismatch", t.clone()),
                            CellReading::Blank => ("blank", String::new()),
                            CellReading::Missing => ("missing", String::new()),
                        };
                        CellJson {
                            file: sheet.map(|s| s.file.clone()).unwrap_or_default(),
                            page: sheet.map_or(0, |s| s.page),
                            reading: kind,
                            text,
                            cell_box: sheet.and_then(|s| s.boxes.get(ply).copied().flatten()),
                        }
                    })
                    .collect(),
            })
            .collect();
        GameJson {
            id: self.id.clone(),
            files: self.sheets.iter().map(|s| s.file.clone()).collect(),
            language: self.game.lang.code.to_string(),
            result: self.game.result.clone(),
            flagged: self.game.moves.iter().filter(|m| m.flagged).count(),
            score: self.game.score,
            lowered: self
                .sheets
                .iter()
                .filter_map(|s| s.lowered.map(|offset| LoweredJson { file: s.file.clone(), page: s.page, offset }))
                .collect(),
            numbering_guessed: self.pages_where(|s| s.numbering_guessed),
            second_form_unread: self.pages_where(|s| s.second_form_unread),
            moves,
        }
    }

    /// The sheets for which `holds` is true, as the report names pages.
    fn pages_where(&self, holds: impl Fn(&SheetRef) -> bool) -> Vec<PageJson> {
        self.sheets.iter().filter(|s| holds(s)).map(|s| PageJson { file: s.file.clone(), page: s.page }).collect()
    }
}

/// One game in the JSON report.
#[derive(Serialize, Debug)]
pub struct GameJson {
    /// The game's name (the file stem or the group's name).
    pub id: String,
    /// Its files, in reading order.
    pub files: Vec<String>,
    /// The code of the language the moves are written in.
    pub language: String,
    /// The game's result as PGN writes it ("1-0", "0-1", "1/2-1/2" or "*").
    pub result: String,
    /// Half-moves flagged for checking.
    pub flagged: usize,
    /// The decoder's log-score of the game read: how well the moves fit the ink, comparable
    /// between readings of the same files (e.g. with and without a correction).
    pub score: f32,
    /// Sheets whose cells were read in windows moved down (the writer's moves sat across the
    /// rows' lower rulings); absent when none was.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lowered: Vec<LoweredJson>,
    /// Sheets whose rows were numbered by counting, their printed move numbers unread (the
    /// numbering is a guess); absent when every row was numbered by its printed number.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub numbering_guessed: Vec<PageJson>,
    /// Sheets whose page holds a second copy of the form (half-page forms printed two to a
    /// sheet) beside the one read: that copy is not read; absent when no page does.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub second_form_unread: Vec<PageJson>,
    /// Every half-move read.
    pub moves: Vec<MoveJson>,
}

/// A page of a file, in the JSON report.
#[derive(Serialize, Debug)]
pub struct PageJson {
    /// The file.
    pub file: String,
    /// The page within it, from 1.
    pub page: usize,
}

/// A sheet read in lowered windows, in the JSON report.
#[derive(Serialize, Debug)]
pub struct LoweredJson {
    /// The file.
    pub file: String,
    /// The page within it, from 1.
    pub page: usize,
    /// Share of the row height the windows were moved down by.
    pub offset: f64,
}

/// One half-move in the JSON report.
#[derive(Serialize, Debug)]
pub struct MoveJson {
    /// Half-move index: 0 is white's first move.
    pub ply: usize,
    /// Move number.
    pub number: u32,
    /// "white" or "black".
    pub side: &'static str,
    /// The move in standard English SAN.
    pub san: String,
    /// Probability that this is the move played.
    pub confidence: f32,
    /// Whether the move is flagged for checking.
    pub flagged: bool,
    /// Other moves that fit, most likely first.
    pub alternatives: Vec<AltJson>,
    /// The earlier half-move (its `ply`) on whose reading this move's meaning on the board hangs,
    /// where that lowers its confidence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hangs_on: Option<usize>,
    /// What each sheet's cell shows.
    pub cells: Vec<CellJson>,
}

/// An alternative move.
#[derive(Serialize, Debug)]
pub struct AltJson {
    /// The move in standard English SAN.
    pub san: String,
    /// Its probability.
    pub p: f32,
}

/// One sheet's cell for a half-move.
#[derive(Serialize, Debug)]
pub struct CellJson {
    /// The sheet's file.
    pub file: String,
    /// The page within it, from 1.
    pub page: usize,
    /// "written" (the text is a spelling of the move), "mismatch" (the text read is something
    /// else: a player's own error or unreadable ink), "blank", or "missing" (no cell).
    pub reading: &'static str,
    /// The text read in the cell (empty for a blank or missing cell).
    pub text: String,
    #[serde(rename = "box")]
    /// The cell's box in the page image's pixels (x0, y0, x1, y1); none for a missing cell.
    pub cell_box: Option<[f32; 4]>,
}

/// A file that could not be read.
#[derive(Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
pub struct FileError {
    /// The file (and page, for one page of several).
    pub file: String,
    /// Why it could not be read.
    pub error: String,
}

/// The whole JSON report of a batch.
#[derive(Serialize, Debug)]
pub struct Report {
    /// The games read, in input order.
    pub games: Vec<GameJson>,
    /// The files (or pages) that could not be read.
    pub errors: Vec<FileError>,
}
