//! Legality-constrained game decoding: the most plausible legal game behind the handwriting.
//!
//! The decoder walks the game half-move by half-move with a beam of board states. At each
//! half-move every legal move is spelled every way a player may write it in the sheet's letters
//! ([`crate::notation::spelling_variants`]) and scored against the cell's ink by a
//! [`CellScorer`] (the recognizer's log-probability of that exact string). Three other things may
//! explain a cell: the player's own recording error (the ink is something else: a bounded penalty
//! plus the cell's best free reading), a skipped cell (a move was played but the cell is blank)
//! and the end of the game (this cell and every later one blank, or a result written).
//! Several copies of one game (the two players' sheets) are decoded together: each copy's cell
//! votes on every half-move.
//!
//! The beam keeps `beam` board states per half-move, and widens (up to `beam_max`) to keep every
//! game within `beam_margin` of the best where the ink leaves many close: a blank or misread cell
//! is often settled only by the cells after it. Where cells shown as errors or blank come close
//! together, those stretches are searched again with a wider beam. Each copy's writing style
//! (how often its writer uses each move form, capture mark, check mark and pawn captures by
//! files) is learnt from a first reading and weighs the spellings of the full one.
//! The log's trace level (`-vv`) records the letter-set probes and the beam per half-move
//! ([`Params::trace_ply`]: also the scored moves at that half-move).
//!
//! Every move of the result gets a confidence from the margin between the game read and the best
//! games that differ at that move ([`confidence`]), and up to three alternatives.

mod beam;
pub mod confidence;
pub mod prior;
pub mod truth;

pub use beam::{decode, decode_lang};

use shakmaty::{Color, Move};

use crate::notation::{Habits, Lang, Variant};

/// Scores candidate texts against the ink of one cell.
pub trait CellScorer {
    /// Natural-log probability that the cell holds exactly each of `texts` ("" = blank).
    fn logp(&mut self, texts: &[&str]) -> Vec<f32>;
    /// [`CellScorer::logp`] for a caller that only needs scores at or above `floor`: a text below
    /// it may get any value under `floor`.
    fn logp_above(&mut self, texts: &[&str], floor: f32) -> Vec<f32> {
        let _ = floor;
        self.logp(texts)
    }
    /// The most likely free reading of the cell and its log-probability.
    fn best(&mut self) -> (String, f32);
}

/// One copy of a game: its cells in half-move order (index 0 is white's first move); `None`
/// where the sheet has no cell for that half-move (outside the form, or not found).
pub struct SheetCopy<'a> {
    /// The copy's cells by half-move.
    pub cells: Vec<Option<Box<dyn CellScorer + 'a>>>,
}

/// How a copy's cell explained the move chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellReading {
    /// The cell reads as this spelling of the move, which shows these habits.
    Written {
        /// The text read.
        text: String,
        /// The way of writing the move it shows.
        variant: Variant,
    },
    /// The cell holds something else (the player's own recording error, or unreadable ink): the
    /// free reading.
    Mismatch(String),
    /// The cell is blank though the move was played.
    Blank,
    /// The copy has no cell for this half-move.
    Missing,
}

/// One half-move of a decoded game.
#[derive(Clone, Debug)]
pub struct DecodedMove {
    /// The move on the board.
    pub mv: Move,
    /// Standard English SAN with check marks.
    pub san: String,
    /// Move number.
    pub number: u32,
    /// The side that played it.
    pub color: Color,
    /// What each copy's cell says about it.
    pub cells: Vec<CellReading>,
    /// Probability that this move is the one played (see [`confidence`]).
    pub confidence: f32,
    /// Other moves that could have been played here, most likely first, with their probability.
    pub alternatives: Vec<(String, f32)>,
    /// Confidence under the review threshold ([`Params::flag_threshold`]), or under
    /// [`Params::flag_hangs_threshold`] where a flagged move brought its piece or the piece it
    /// takes to its square; or no cell shows the move ([`DecodedMove::unwritten`]).
    pub flagged: bool,
    /// The earlier half-move (index from the game's first) on whose reading this move's meaning
    /// on the board hangs, where that weighs on its confidence ("Bf4" from c1 or from e3), or
    /// the flagged move that brought its piece there where that is what flagged it.
    pub hangs_on: Option<usize>,
    /// The share of this move's meaning that hangs on uncertain earlier moves
    /// ([`confidence::dependence`]): the calibrated confidence was scaled by
    /// `1 - DEPENDENCE_WEIGHT x dependence`.
    pub dependence: f32,
    /// The evidence the confidence was calibrated from (`confidence::features`).
    pub features: [f32; confidence::FEATURES],
}

impl DecodedMove {
    /// Whether no cell shows this move: every copy that has a cell for it left it blank, so the
    /// move was inferred from the moves around it (such a move is always flagged).
    pub fn unwritten(&self) -> bool {
        confidence::unwritten(&self.cells)
    }
}

/// A decoded game.
#[derive(Clone, Debug)]
pub struct DecodedGame {
    /// The letter set it was read in (the first language with those letters).
    pub lang: &'static Lang,
    /// Every half-move, in order.
    pub moves: Vec<DecodedMove>,
    /// The result written on the sheet, or implied by mate or stalemate, else "*".
    pub result: String,
    /// Total log-score of the reading.
    pub score: f32,
}

/// The decoder's knobs. Defaults are chosen by measurement (see the README).
#[derive(Clone, Debug)]
pub struct Params {
    /// Board states kept per half-move.
    pub beam: usize,
    /// The most board states kept per half-move: the beam widens up to this to keep every game
    /// within `beam_margin` of the best.
    pub beam_max: usize,
    /// Games this close (log-score) to the best are kept, up to `beam_max`.
    pub beam_margin: f32,
    /// Log-penalty for a cell that does not show the move played (a player's own error).
    pub mismatch_penalty: f32,
    /// Extra log-penalty, times the edit distance over length (0..=1) between the move's nearest
    /// spelling and the cell's best reading, for a cell that does not show the move played: a
    /// recording error near the move is likelier than one far from it.
    pub mismatch_closeness: f32,
    /// Log-penalty for a blank cell inside the game.
    pub skip_penalty: f32,
    /// Where the best game must take a cell as the player's error, this many half-moves before
    /// it are tried with another move (the game's later moves replayed): a wrong but legal move
    /// written earlier shows only when a later cell becomes impossible. 0: off.
    pub repair_window: usize,
    /// How many of the beam's best games are repaired where a cell contradicts them (the leader
    /// first). A writer's slip ("Be2" for Qe2, then "O-O-O") can leave the leader a game that
    /// needs two earlier moves changed, while the runner-up needs one.
    pub repair_games: usize,
    /// Log-penalty for a half-move for which no copy has a cell at all.
    pub missing_penalty: f32,
    /// Weight of the move prior ([`prior`]: how likely a move is to be played, before the ink)
    /// added to each move's score. 0: every legal move alike.
    pub prior_weight: f32,
    /// Half-moves looked ahead when weighing an alternative move for confidence.
    pub confidence_window: usize,
    /// Temperature of the confidence softmax (fitted so that confidences are calibrated).
    pub temperature: f32,
    /// Moves under this confidence are flagged for review.
    pub flag_threshold: f32,
    /// Moves under this confidence are flagged too where the piece they move, or the piece they
    /// take, was brought to its square by a flagged move (within
    /// [`confidence::BROUGHT_WINDOW`] half-moves): had that move been misread, the piece stood
    /// elsewhere and the same writing means another move.
    pub flag_hangs_threshold: f32,
    /// A game read with more than this share of its half-moves taken as the player's errors
    /// (some cell shows something else) has likely lost its way in a narrow beam: it is searched
    /// again with a wider one (at least 64 kept, up to 256, margin 15), and the better-scoring
    /// reading is kept. Infinity: never.
    pub wide_search_share: f32,
    /// The writing habits to consider (all, unless the writer's style is known).
    pub habits: Habits,
    /// How much the page stage's blank flag for a cell moves the odds of reading it blank (natural
    /// log); the flag is only used where the model reads nothing with confidence. 0: ignored.
    pub blank_flag_weight: f32,
    /// Moves fixed by the user (a correction): half-move index (0 = white's first) to English
    /// SAN. The rest of the game is decoded around them.
    pub pins: std::collections::BTreeMap<usize, String>,
    /// The half-move whose scored moves the trace log records (at the log's trace level).
    pub trace_ply: Option<usize>,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            beam: 32,
            beam_max: 128,
            beam_margin: 10.0,
            mismatch_penalty: -9.0,
            mismatch_closeness: 3.0,
            skip_penalty: -6.0,
            repair_window: 40,
            repair_games: 2,
            missing_penalty: -4.0,
            prior_weight: 1.25,
            confidence_window: 5,
            temperature: 1.0,
            flag_threshold: 0.86,
            flag_hangs_threshold: 0.95,
            wide_search_share: 0.15,
            habits: Habits::all(),
            blank_flag_weight: 0.0,
            pins: Default::default(),
            trace_ply: None,
        }
    }
}

/// Scores below this are treated as this: a string the model cannot emit at all is very
/// unlikely, not impossible (and sums of scores stay finite).
pub const LOGP_FLOOR: f32 = -1000.0;

impl CellScorer for crate::recognize::CellScores {
    fn logp(&mut self, texts: &[&str]) -> Vec<f32> {
        self.score(texts).into_iter().map(|lp| lp.max(LOGP_FLOOR)).collect()
    }

    fn logp_above(&mut self, texts: &[&str], floor: f32) -> Vec<f32> {
        self.score_above_cached(texts, floor).into_iter().map(|lp| lp.max(LOGP_FLOOR)).collect()
    }

    fn best(&mut self) -> (String, f32) {
        let r = self.greedy();
        (r.text, r.logp.max(LOGP_FLOOR))
    }
}

/// A cell scorer told by the page stage whether the cell holds ink. A cell the page stage finds
/// blank reads as blank when the model is unsure of any reading (models read paper texture as
/// faint moves); when the model reads something with confidence (faint pencil the page stage's
/// threshold missed), the model is believed. A cell with ink is unlikely to be blank.
pub struct InkAware<S: CellScorer> {
    /// The model's scorer.
    pub inner: S,
    /// The page stage found no ink in the cell.
    pub blank: bool,
    /// How much the page stage's flag moves the odds (natural log; 0: the model alone decides).
    pub weight: f32,
    /// Whether the blank flag is applied (decided on first use from the model's best reading).
    trusted: Option<bool>,
}

impl<S: CellScorer> InkAware<S> {
    /// `inner` told that the cell is `blank` (or not), the flag weighing `weight`.
    pub fn new(inner: S, blank: bool, weight: f32) -> InkAware<S> {
        InkAware { inner, blank, weight, trusted: None }
    }

    fn blank_applies(&mut self) -> bool {
        if !self.blank || self.weight <= 0.0 {
            return false;
        }
        if self.trusted.is_none() {
            let (_, lp) = self.inner.best();
            self.trusted = Some(lp < CONFIDENT_READING);
        }
        self.trusted == Some(true)
    }
}

/// A reading at least this likely overrules a blank flag.
pub const CONFIDENT_READING: f32 = -1.0;

impl<S: CellScorer> CellScorer for InkAware<S> {
    fn logp(&mut self, texts: &[&str]) -> Vec<f32> {
        self.logp_above(texts, f32::NEG_INFINITY)
    }

    /// The flag only lowers the scores of texts (all but the blank one): a text the inner scorer
    /// puts under the floor stays under it.
    fn logp_above(&mut self, texts: &[&str], floor: f32) -> Vec<f32> {
        let blank = self.blank_applies();
        let mut lps = self.inner.logp_above(texts, floor);
        let w = self.weight;
        for (t, lp) in texts.iter().zip(lps.iter_mut()) {
            match (blank, t.is_empty()) {
                (true, true) => *lp = lp.max(-0.05),
                (true, false) => *lp -= w,
                (false, true) if !self.blank => *lp -= w / 2.0,
                _ => {}
            }
        }
        lps
    }

    fn best(&mut self) -> (String, f32) {
        if self.blank_applies() { (String::new(), -0.05) } else { self.inner.best() }
    }
}
