//! The beam search over board states.

use std::rc::Rc;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

mod repair;
mod style;

use style::Style;

use super::truth::edit_distance;
use super::{CellReading, DecodedGame, DecodedMove, Params, SheetCopy, confidence, prior};
use crate::notation::{
    CaptureMark, CastleStyle, Habits, Lang, MoveForm, PromotionStyle, SpellKey, SpellKeys, Spelling, Variant,
    descriptive_languages, english_san, languages, spell_key_with_habits,
};

/// Results a player may write in the cell after the last move.
pub(crate) const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "½-½"];

/// Log-prior of a writing habit: standard short algebraic is the norm; the rest is seen on real
/// sheets at lower rates.
pub(crate) fn variant_prior(v: &Variant) -> f32 {
    let mut p = form_prior(v.form) + capture_prior(v.capture);
    p += match v.castle {
        CastleStyle::Letters => 0.0,
        CastleStyle::Zeros => -0.2,
    };
    p += match v.promotion {
        PromotionStyle::Equals => 0.0,
        PromotionStyle::Bare => -0.5,
        PromotionStyle::Parens => -1.5,
        PromotionStyle::Slash => -2.0,
    };
    p += pawn_files_prior(v.pawn_files);
    if v.piece_takes_piece {
        p -= 3.0;
    }
    p += check_prior(v.check_omitted);
    if v.mate_plusplus {
        p -= 1.0;
    }
    if v.ep_suffix {
        p -= 0.5;
    }
    if v.underspecified {
        p -= 1.5;
    }
    p
}

/// [`variant_prior`]'s term for the move form, before the writer's style is known.
pub(crate) fn form_prior(f: MoveForm) -> f32 {
    match f {
        MoveForm::Short => 0.0,
        MoveForm::Long { .. } => -2.5,
        MoveForm::Coordinate => -3.5,
    }
}

/// [`variant_prior`]'s term for the capture mark (`X` also for moves that capture nothing).
pub(crate) fn capture_prior(c: CaptureMark) -> f32 {
    match c {
        CaptureMark::X => 0.0,
        CaptureMark::Omitted => -0.7,
        CaptureMark::Colon => -2.0,
        CaptureMark::ColonAfter => -2.5,
    }
}

/// [`variant_prior`]'s term for a pawn capture written by files alone ("ed", "exd").
pub(crate) fn pawn_files_prior(files: bool) -> f32 {
    if files { -2.0 } else { 0.0 }
}

/// [`variant_prior`]'s term for a check or mate mark left out.
pub(crate) fn check_prior(omitted: bool) -> f32 {
    if omitted { -0.7 } else { 0.0 }
}

/// One spelling of a move key: its text (an id in [`Ink`]'s text table), length in characters,
/// habits and their log-prior.
#[derive(Clone, Copy)]
struct Spelled {
    text: u32,
    chars: u32,
    variant: Variant,
    prior: f32,
}

/// One cell with its scores remembered.
pub(crate) struct CachedCell<'a> {
    scorer: Box<dyn super::CellScorer + 'a>,
    /// By text id: the text's score and its distance from the best reading (edit distance over
    /// length; NaN until asked for).
    scores: HashMap<u32, (f32, f32)>,
    best: (String, f32),
    blank: f32,
    /// The best result text and its log-probability.
    result: (usize, f32),
    /// A spelling scoring under this can never be what the cell shows (a mismatch or a skip
    /// always explains the cell better): such scores are kept only as bounds under it.
    floor: f32,
}

impl CachedCell<'_> {
    /// What explaining this cell as the player's own error costs, for a move whose nearest
    /// spelling is `far` (0..=1, see [`KeyScores`]) from the cell's best reading.
    fn mismatch(&self, far: f32, params: &Params) -> f32 {
        params.mismatch_penalty + self.best.1 - params.mismatch_closeness * far
    }

    /// What explaining this cell as skipped (blank though a move was played) costs.
    fn skip(&self, params: &Params) -> f32 {
        params.skip_penalty + self.blank
    }

    /// Scores the texts of `ids` not scored yet, in one call (`texts`: the text table).
    fn fill(&mut self, ids: impl IntoIterator<Item = u32>, texts: &[String]) {
        let mut missing: Vec<u32> = Vec::new();
        for id in ids {
            if let std::collections::hash_map::Entry::Vacant(e) = self.scores.entry(id) {
                e.insert((f32::NAN, f32::NAN));
                missing.push(id);
            }
        }
        if missing.is_empty() {
            return;
        }
        let strs: Vec<&str> = missing.iter().map(|&id| texts[id as usize].as_str()).collect();
        let lps = self.scorer.logp_above(&strs, self.floor);
        for (id, lp) in missing.into_iter().zip(lps) {
            self.scores.insert(id, (lp, f32::NAN));
        }
    }

    /// The score of text `id` and, if `distance`, its distance from the best reading (scored
    /// now if not yet).
    fn score_of(&mut self, id: u32, chars: u32, distance: bool, texts: &[String]) -> (f32, f32) {
        if !self.scores.contains_key(&id) {
            self.fill([id], texts);
        }
        let best = &self.best.0;
        let entry = self.scores.get_mut(&id).expect("scored");
        if distance && entry.1.is_nan() && !best.is_empty() {
            let text = &texts[id as usize];
            let len = (chars as usize).max(best.chars().count()).max(1);
            entry.1 = edit_distance(text, best) as f32 / len as f32;
        }
        *entry
    }
}

/// The ink of every copy, with cached scores.
pub(crate) struct Ink<'a> {
    pub(crate) copies: Vec<Vec<Option<CachedCell<'a>>>>,
    /// Per copy, the sum from each half-move to the end of the cells' scores as cells after the
    /// game (blank, or non-move ink at a penalty).
    blank_suffix: Vec<Vec<f32>>,
    pub(crate) plies: usize,
    /// Expansions already made, by (half-move, position), for the letter set and habits of
    /// `cache_context`.
    expanded: HashMap<(usize, u64), Expansion>,
    /// The entries of every expansion in `expanded`, each expansion a run of them (one
    /// allocation for all, freed at once; emptied with `expanded`).
    arena: Vec<Entry>,
    /// Reused buffers of [`Ink::expand_uncached`]: the legal moves with their keys, and the keys
    /// not scored yet.
    scratch_keyed: Vec<(Move, SpellKey)>,
    scratch_missing: Vec<SpellKey>,
    /// The spellings of each move key in the context's letters and habits.
    spellings: HashMap<SpellKey, Rc<[Spelled]>>,
    /// Every text spelled (kept across contexts), by id, and the id of each.
    texts: Vec<String>,
    text_ids: HashMap<String, u32>,
    /// Per (move key, half-move): per copy, the best spelling's score with its prior and its
    /// index (`None`: the copy has no cell there).
    key_scores: HashMap<(SpellKey, usize), KeyScores>,
    /// The scores [`KeyScores`] point into, one per copy each (emptied with `key_scores`).
    key_score_arena: Vec<KeyScore>,
    cache_context: String,
    /// Per copy, the writer's style as learnt for the letter set being read (see [`Style`]);
    /// empty: the fixed priors.
    pub(crate) styles: Vec<Style>,
    /// The move prior of every legal move (in legal-move order), by position: it depends on
    /// the position alone, so it is kept across contexts.
    priors: HashMap<u64, u32>,
    /// The priors `priors` points into (each a run of one per legal move).
    prior_arena: Vec<f32>,
}

/// A legal move of a position scored at one half-move: (move, log-score, its spelling key, from
/// which [`Ink::readings`] tells what each cell says).
pub(crate) type Entry = (Move, f32, SpellKey);

/// Every legal move of a position scored at one half-move: a run of entries in [`Ink`]'s arena
/// (see [`Ink::entries`]), valid until the context changes ([`Ink::set_context`]).
#[derive(Clone, Copy)]
pub(crate) struct Expansion {
    start: u32,
    len: u32,
}

impl Expansion {
    /// The arena index of the expansion's `index`th entry.
    fn at(self, index: usize) -> u32 {
        self.start + index as u32
    }
}

/// Per copy, the best spelling's score (with its prior), its index, and how far the nearest
/// spelling is from the cell's best reading (edit distance over length, 0..=1); `None`: no cell
/// there.
type KeyScore = Option<(f32, u32, f32)>;

/// Where a move key's [`KeyScore`]s, one per copy, start in [`Ink`]'s `key_score_arena`.
#[derive(Clone, Copy)]
pub(crate) struct KeyScores(u32);

/// How one copy's cell explains a move.
enum Explained {
    Written(f32, u32),
    Mismatch(f32),
    Blank(f32),
    Missing,
}

impl<'a> Ink<'a> {
    pub(crate) fn new(copies: Vec<SheetCopy<'a>>, params: &Params) -> Ink<'a> {
        let plies = copies.iter().map(|c| c.cells.len()).max().unwrap_or(0);
        let mut texts: Vec<String> = vec![String::new()];
        texts.extend(RESULTS.iter().map(|r| r.to_string()));
        let text_ids: HashMap<String, u32> = texts.iter().enumerate().map(|(i, t)| (t.clone(), i as u32)).collect();
        let mut out = Vec::new();
        let mut suffixes = Vec::new();
        for copy in copies {
            let mut cells = Vec::new();
            for cell in copy.cells {
                cells.push(cell.map(|mut scorer| {
                    let blank = scorer.logp(&[""])[0];
                    let best = scorer.best();
                    // A result is only ever read where it beats what the cell scores as a cell
                    // after the game (see `Ink::end_score` and the suffixes below): under that
                    // (less a margin for the sums' rounding), an exact score is not needed.
                    let after_end = blank.max(params.mismatch_penalty + best.1);
                    let lps = scorer.logp_above(&RESULTS, after_end - 1.0);
                    let (ri, rlp) = lps
                        .iter()
                        .enumerate()
                        .fold((0, f32::NEG_INFINITY), |acc, (i, &lp)| if lp > acc.1 { (i, lp) } else { acc });
                    let mut scores = HashMap::default();
                    scores.insert(0, (blank, f32::NAN));
                    let mut cell =
                        CachedCell { scorer, scores, best, blank, result: (ri, rlp), floor: f32::NEG_INFINITY };
                    // The least a mismatch can score here, or what a skip scores, whichever is
                    // more: a spelling under it is never what `Ink::explain` picks.
                    cell.floor = cell.mismatch(0.0, params).min(cell.mismatch(1.0, params)).max(cell.skip(params));
                    cell
                }));
            }
            let mut suffix = vec![0.0; plies + 1];
            for i in (0..plies).rev() {
                // After the game, a cell is blank, or holds something that is not a move (the
                // result, "resigns", a signature): the same bounded penalty as a mismatch.
                let after_end = cells
                    .get(i)
                    .and_then(|c| c.as_ref())
                    .map_or(0.0, |c| c.blank.max(params.mismatch_penalty + c.best.1));
                suffix[i] = suffix[i + 1] + after_end;
            }
            suffixes.push(suffix);
            out.push(cells);
        }
        Ink {
            copies: out,
            blank_suffix: suffixes,
            plies,
            expanded: HashMap::default(),
            arena: Vec::new(),
            scratch_keyed: Vec::new(),
            scratch_missing: Vec::new(),
            spellings: HashMap::default(),
            texts,
            text_ids,
            key_scores: HashMap::default(),
            key_score_arena: Vec::new(),
            cache_context: String::new(),
            styles: Vec::new(),
            priors: HashMap::default(),
            prior_arena: Vec::new(),
        }
    }

    /// Log-score of the game ending before half-move `ply` (every later cell blank, or a result
    /// written right after the last move), and the result written if any.
    pub(crate) fn end_score(&self, ply: usize) -> (f32, Option<&'static str>) {
        let mut total = 0.0;
        let mut result_votes: Vec<(usize, f32)> = Vec::new();
        for (c, cells) in self.copies.iter().enumerate() {
            let suffix = &self.blank_suffix[c];
            let plain = suffix[ply.min(self.plies)];
            match cells.get(ply).and_then(|c| c.as_ref()) {
                Some(cell) => {
                    let with_result = cell.result.1 + suffix[ply + 1];
                    if with_result > plain {
                        total += with_result;
                        result_votes.push(cell.result);
                    } else {
                        total += plain;
                    }
                }
                None => total += plain,
            }
        }
        let result = result_votes
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| if RESULTS[*i] == "½-½" { "1/2-1/2" } else { RESULTS[*i] });
        (total, result)
    }

    /// Scores every legal move of `pos` at half-move `ply`: (move, log-score, what each cell says).
    /// Forgets expansions made for another letter set or other parameters.
    pub(crate) fn set_context(&mut self, lang: &Lang, params: &Params) {
        let context = format!(
            "{}|{:?}|{:?}|{:?}|{}|{}|{}|{}|{}",
            lang.code,
            params.habits,
            self.styles,
            params.pins,
            params.mismatch_penalty,
            params.mismatch_closeness,
            params.skip_penalty,
            params.missing_penalty,
            params.prior_weight
        );
        if context != self.cache_context {
            self.expanded.clear();
            self.arena.clear();
            self.spellings.clear();
            self.key_scores.clear();
            self.key_score_arena.clear();
            self.cache_context = context;
        }
    }

    /// Every legal move of `pos` scored at half-move `ply` (cached; call [`Ink::set_context`]
    /// first).
    pub(crate) fn expand(&mut self, pos: &Chess, ply: usize, lang: &Lang, params: &Params) -> Expansion {
        let key = (ply, pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0);
        if let Some(e) = self.expanded.get(&key) {
            return *e;
        }
        let e = self.expand_uncached(pos, key.1, ply, lang, params);
        self.expanded.insert(key, e);
        e
    }

    /// The entries of expansion `e` (made in the current context).
    pub(crate) fn entries(&self, e: Expansion) -> &[Entry] {
        &self.arena[e.start as usize..(e.start + e.len) as usize]
    }

    /// The entry at arena index `at`.
    fn entry(&self, at: u32) -> &Entry {
        &self.arena[at as usize]
    }

    /// The spellings of the move `key` in the context's letters and habits (cached).
    fn spellings(&mut self, key: &SpellKey, lang: &Lang, params: &Params) -> Rc<[Spelled]> {
        if let Some(s) = self.spellings.get(key) {
            return s.clone();
        }
        let mut out: Vec<Spelling> = Vec::with_capacity(8);
        spell_key_with_habits(key, lang, &params.habits, &mut out);
        let spelled: Rc<[Spelled]> = out
            .into_iter()
            .map(|sp| {
                let chars = sp.text.chars().count() as u32;
                let text = match self.text_ids.get(sp.text.as_str()) {
                    Some(&id) => id,
                    None => {
                        let id = self.texts.len() as u32;
                        self.text_ids.insert(sp.text.clone(), id);
                        self.texts.push(sp.text);
                        id
                    }
                };
                Spelled { text, chars, prior: variant_prior(&sp.variant), variant: sp.variant }
            })
            .collect();
        self.spellings.insert(*key, spelled.clone());
        spelled
    }

    /// Scores the spellings of every move key in `keys` (not yet scored at half-move `ply`) in
    /// one call per cell, their common prefixes shared.
    fn prefill(&mut self, keys: &[SpellKey], ply: usize, lang: &Lang, params: &Params) {
        let spelled: Vec<Rc<[Spelled]>> = keys.iter().map(|key| self.spellings(key, lang, params)).collect();
        if spelled.is_empty() {
            return;
        }
        for cells in self.copies.iter_mut() {
            if let Some(Some(cell)) = cells.get_mut(ply) {
                cell.fill(spelled.iter().flat_map(|s| s.iter().map(|sp| sp.text)), &self.texts);
            }
        }
    }

    /// Per copy, the best spelling of the move `key` at half-move `ply` (cached).
    fn key_scores(&mut self, key: &SpellKey, ply: usize, lang: &Lang, params: &Params) -> KeyScores {
        if let Some(s) = self.key_scores.get(&(*key, ply)) {
            return *s;
        }
        let spelled = self.spellings(key, lang, params);
        let texts = &self.texts;
        let at = KeyScores(self.key_score_arena.len() as u32);
        let (capture, (check, mate)) = (key.mv.is_capture(), key.gives());
        let pawn_capture = capture && key.mv.role() == shakmaty::Role::Pawn;
        for (c, cells) in self.copies.iter_mut().enumerate() {
            let style = self.styles.get(c);
            let score = match cells.get_mut(ply) {
                Some(Some(cell)) => {
                    let mut best = (f32::NEG_INFINITY, 0u32);
                    let mut far = 1.0f32;
                    let closeness = params.mismatch_closeness > 0.0 && !cell.best.0.is_empty();
                    for (i, sp) in spelled.iter().enumerate() {
                        let (lp, distance) = cell.score_of(sp.text, sp.chars, closeness, texts);
                        let sc = lp
                            + sp.prior
                            + style.map_or(0.0, |s| s.adjust(&sp.variant, capture, pawn_capture, check || mate));
                        if sc > best.0 {
                            best = (sc, i as u32);
                        }
                        if closeness {
                            far = far.min(distance);
                        }
                    }
                    Some((best.0, best.1, far))
                }
                _ => None,
            };
            self.key_score_arena.push(score);
        }
        self.key_scores.insert((*key, ply), at);
        at
    }

    /// The per-copy scores `at` points to.
    fn scores(&self, at: KeyScores) -> &[KeyScore] {
        &self.key_score_arena[at.0 as usize..at.0 as usize + self.copies.len()]
    }

    /// How each copy's cell explains a move whose best spellings score `scores`.
    fn explain(&self, scores: KeyScores, ply: usize, params: &Params) -> impl Iterator<Item = Explained> {
        self.scores(scores).iter().zip(&self.copies).map(move |(sc, cells)| {
            let (Some((best, i, far)), Some(Some(cell))) = (sc, cells.get(ply)) else { return Explained::Missing };
            // A player's own error is more often near what the move's spelling would be (a wrong
            // digit or letter) than far from it: the farther, the more it costs.
            let mismatch = cell.mismatch(*far, params);
            let skip = cell.skip(params);
            if *best >= mismatch && *best >= skip {
                Explained::Written(*best, *i)
            } else if mismatch >= skip {
                Explained::Mismatch(mismatch)
            } else {
                Explained::Blank(skip)
            }
        })
    }

    /// What each copy's cell says about the move of `key` played at half-move `ply`.
    pub(crate) fn readings(&mut self, key: &SpellKey, ply: usize, lang: &Lang, params: &Params) -> Vec<CellReading> {
        let scores = self.key_scores(key, ply, lang, params);
        let spelled = self.spellings[key].clone();
        self.explain(scores, ply, params)
            .zip(&self.copies)
            .map(|(e, cells)| match e {
                Explained::Written(_, i) => {
                    let s = &spelled[i as usize];
                    CellReading::Written { text: self.texts[s.text as usize].clone(), variant: s.variant }
                }
                Explained::Mismatch(_) => {
                    CellReading::Mismatch(cells[ply].as_ref().map_or(String::new(), |c| c.best.0.clone()))
                }
                Explained::Blank(_) => CellReading::Blank,
                Explained::Missing => CellReading::Missing,
            })
            .collect()
    }

    fn expand_uncached(&mut self, pos: &Chess, hash: u64, ply: usize, lang: &Lang, params: &Params) -> Expansion {
        let legal = pos.legal_moves();
        // A move fixed by the user: only it is played here, whatever the ink says.
        let pinned = params.pins.get(&ply);
        let mut keys = SpellKeys::new(pos, &legal, lang, &params.habits);
        let mut all = std::mem::take(&mut self.scratch_keyed);
        all.clear();
        all.extend(legal.iter().map(|m| (*m, keys.key(m))));
        // How likely each move is to be played, before the ink (over every legal move, so that a
        // pinned move scores as it would unpinned).
        let prior: Option<usize> = if params.prior_weight == 0.0 {
            None
        } else if let Some(&p) = self.priors.get(&hash) {
            Some(p as usize)
        } else {
            let mut of = prior::PositionFeatures::new(pos);
            let start = self.prior_arena.len();
            self.prior_arena.extend(all.iter().map(|(m, key)| {
                let (check, mate) = key.gives();
                of.logit(m, check, mate)
            }));
            prior::log_odds_in_place(&mut self.prior_arena[start..]);
            self.priors.insert(hash, start as u32);
            Some(start)
        };
        let playable = |m: &Move| pinned.is_none_or(|san| pinned_san_matches(pos, m, san));
        let mut missing = std::mem::take(&mut self.scratch_missing);
        missing.clear();
        missing.extend(
            all.iter().filter(|(m, k)| playable(m) && !self.key_scores.contains_key(&(*k, ply))).map(|(_, k)| *k),
        );
        if !missing.is_empty() {
            self.prefill(&missing, ply, lang, params);
        }
        let start = self.arena.len() as u32;
        for (i, (m, key)) in all.iter().enumerate() {
            if !playable(m) {
                continue;
            }
            let scores = self.key_scores(key, ply, lang, params);
            let mut total = 0.0;
            let mut any = false;
            for e in self.explain(scores, ply, params) {
                match e {
                    Explained::Written(s, _) | Explained::Mismatch(s) | Explained::Blank(s) => {
                        total += s;
                        any = true;
                    }
                    Explained::Missing => {}
                }
            }
            if !any {
                // No copy has a cell here (a row the page stage missed): bridging it costs.
                total += params.missing_penalty;
            }
            let prior = prior.map_or(0.0, |p| self.prior_arena[p + i]);
            self.arena.push((*m, total + params.prior_weight * prior, *key));
        }
        self.scratch_keyed = all;
        self.scratch_missing = missing;
        Expansion { start, len: self.arena.len() as u32 - start }
    }
}

/// Whether `m` is the move a user pinned as `san` (English SAN; check marks optional).
fn pinned_san_matches(pos: &Chess, m: &Move, san: &str) -> bool {
    let want = san.trim_end_matches(['+', '#', '!', '?']);
    english_san(pos, m).trim_end_matches(['+', '#']) == want
}

#[derive(Clone)]
struct Hyp {
    pos: Chess,
    score: f32,
    /// Index of its last move in the node arena, or usize::MAX at the start.
    node: usize,
}

struct Node {
    parent: usize,
    /// The move played here, its score and its spelling key: an entry in [`Ink`]'s arena.
    at: u32,
}

/// The nodes of the game ending at `node`, from its first move to its last.
fn lineage(nodes: &[Node], mut node: usize) -> Vec<usize> {
    let mut chain = Vec::new();
    while node != usize::MAX {
        chain.push(node);
        node = nodes[node].parent;
    }
    chain.reverse();
    chain
}

/// The best game found: its moves and readings, the end score, the result.
pub(crate) struct ScoredLine {
    pub(crate) moves: Vec<(Move, Vec<CellReading>)>,
    pub(crate) score: f32,
    pub(crate) result: Option<&'static str>,
}

/// Scores below the best by more than this are dropped from the beam early.
const PRUNE_MARGIN: f32 = 20.0;

pub(crate) fn search(ink: &mut Ink<'_>, start: &Chess, lang: &Lang, params: &Params, limit: usize) -> ScoredLine {
    search_widened(ink, start, lang, params, limit, &[], params, &[])
}

/// [`search`], with the beam of `wide` (its `beam`, `beam_max` and `beam_margin`) at the
/// half-moves of `windows` (each `start..end`), and the game `follow` played (alone, unrepaired)
/// before the first window.
#[allow(clippy::too_many_arguments)]
pub(crate) fn search_widened(
    ink: &mut Ink<'_>,
    start: &Chess,
    lang: &Lang,
    params: &Params,
    limit: usize,
    windows: &[std::ops::Range<usize>],
    wide: &Params,
    follow: &[Move],
) -> ScoredLine {
    let from = windows.first().map_or(0, |w| w.start).min(follow.len());
    ink.set_context(lang, params);
    let mut nodes: Vec<Node> = Vec::new();
    let mut beam = vec![Hyp { pos: start.clone(), score: 0.0, node: usize::MAX }];
    let mut best_end: Option<(f32, usize, Option<&'static str>)> = None;
    let plies = ink.plies.min(limit);
    let full = plies == ink.plies;
    for ply in 0..plies {
        if limit == usize::MAX && params.repair_window > 0 && ply > from {
            // The leader, then (where the leader is contradicted) the games behind it: one of
            // them may need only one move changed where the leader needs two.
            let mut added = 0;
            for which in 0..params.repair_games {
                match repair::repair(ink, start, lang, params, &mut nodes, &mut beam, ply, which) {
                    Some(n) => added += n,
                    None if which == 0 => break,
                    None => {}
                }
            }
            if added > 0 && trace() {
                log::trace!("{} ply {ply} repaired games added {added}", lang.code);
            }
        }
        // Children are scored first and made (position played, node stored) only if kept:
        // (score, game in the beam, index in its expansion).
        let mut children: Vec<(f32, u32, u32)> = Vec::with_capacity(beam.len() * 40);
        let mut expansions: Vec<Expansion> = Vec::with_capacity(beam.len());
        let (end, result) = ink.end_score(ply);
        for (h, hyp) in beam.iter().enumerate() {
            let ended = hyp.score + end;
            if best_end.is_none_or(|(s, _, _)| ended > s) {
                best_end = Some((ended, hyp.node, result));
            }
            let exp = ink.expand(&hyp.pos, ply, lang, params);
            if h == 0 && trace() && params.trace_ply == Some(ply) {
                let mut e: Vec<(String, f32)> =
                    ink.entries(exp).iter().map(|(m, s, _)| (english_san(&hyp.pos, m), *s)).collect();
                crate::sort::by_key_descending(&mut e, |a| a.1);
                log::trace!("expansion {:?}", &e[..e.len().min(12)]);
            }
            for (i, (mv, score, _)) in ink.entries(exp).iter().enumerate() {
                if ply < from && follow.get(ply) != Some(mv) {
                    continue;
                }
                children.push((hyp.score + score, h as u32, i as u32));
            }
            expansions.push(exp);
        }
        if full {
            // Every later term is a log-probability or a penalty (<= 0): a game already behind
            // the best finished one can never overtake it.
            if let Some((s, _, _)) = best_end {
                children.retain(|c| c.0 > s);
            }
        }
        if children.is_empty() {
            beam.clear();
            break;
        }
        let top = children.iter().map(|c| c.0).fold(f32::NEG_INFINITY, f32::max);
        children.retain(|c| c.0 >= top - PRUNE_MARGIN);
        // The beam widens where the ink leaves many games close to the best (a blank or misread
        // cell), up to `beam_max`.
        let bp = if windows.iter().any(|w| w.contains(&ply)) { wide } else { params };
        let close = children.iter().filter(|c| c.0 >= top - bp.beam_margin).count();
        let width = close.clamp(bp.beam.max(1), bp.beam_max.max(bp.beam).max(1));
        // Best first, ties in the order the children were made (a total order: the same as a
        // stable sort by score). Only the head that can fill the beam is sorted; the rest only
        // if positions repeated in the head leave the beam short.
        let order =
            |a: &(f32, u32, u32), b: &(f32, u32, u32)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2));
        let mut sorted = children.len().min(2 * width + 16);
        if sorted < children.len() {
            children.select_nth_unstable_by(sorted - 1, order);
        }
        children[..sorted].sort_unstable_by(order);
        // Games that reach the same position at the same half-move have the same future: only the
        // best of them is kept, so the beam holds distinct positions.
        let mut seen: HashSet<u64> = HashSet::default();
        let mut next = Vec::with_capacity(width);
        let mut at = 0;
        while at < children.len() && next.len() < width {
            if at == sorted {
                children[sorted..].sort_unstable_by(order);
                sorted = children.len();
            }
            let (score, h, index) = children[at];
            at += 1;
            let (h, index) = (h as usize, index as usize);
            let at = expansions[h].at(index);
            let mut pos = beam[h].pos.clone();
            pos.play_unchecked(ink.entry(at).0);
            if !seen.insert(pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0) {
                continue;
            }
            nodes.push(Node { parent: beam[h].node, at });
            next.push(Hyp { pos, score, node: nodes.len() - 1 });
        }
        beam = next;
        if trace() {
            log::trace!(
                "{} ply {ply} beam {} top {:.1} last {:.1} end {:.1}",
                lang.code,
                beam.len(),
                beam.first().map_or(f32::NAN, |h| h.score),
                beam.last().map_or(f32::NAN, |h| h.score),
                best_end.map_or(f32::NAN, |b| b.0)
            );
        }
    }
    if plies < ink.plies {
        // A probe over the first half-moves: the best live game, ends not counted.
        best_end = beam.first().map(|h| (h.score, h.node, None));
    }
    for hyp in beam.iter().filter(|_| plies == ink.plies) {
        let (end, result) = ink.end_score(plies);
        let total = hyp.score + end;
        if best_end.is_none_or(|(s, _, _)| total > s) {
            best_end = Some((total, hyp.node, result));
        }
    }
    let (score, node, result) = best_end.unwrap_or((0.0, usize::MAX, None));
    let moves = lineage(&nodes, node)
        .into_iter()
        .enumerate()
        .map(|(ply, n)| {
            let (mv, _, key) = *ink.entry(nodes[n].at);
            (mv, ink.readings(&key, ply, lang, params))
        })
        .collect();
    ScoredLine { moves, score, result }
}

/// Whether the decoder's trace records are wanted (the log's trace level, `-vv`): gathering
/// some of them costs time.
fn trace() -> bool {
    log::log_enabled!(log::Level::Trace)
}

fn number_and_color(ply: usize) -> (u32, Color) {
    ((ply / 2) as u32 + 1, if ply.is_multiple_of(2) { Color::White } else { Color::Black })
}

/// Decodes the copies of one game written in `lang`'s letters.
pub fn decode_lang(copies: Vec<SheetCopy<'_>>, lang: &'static Lang, params: &Params) -> DecodedGame {
    decode(copies, Some(lang), params)
}

fn finish(ink: &mut Ink<'_>, start: &Chess, lang: &'static Lang, params: &Params, path: ScoredLine) -> DecodedGame {
    let weighed = confidence::per_move(ink, start, lang, params, &path);
    let off_ink: Vec<f32> = path
        .moves
        .iter()
        .map(|(_, readings)| {
            let present: Vec<&CellReading> = readings.iter().filter(|r| **r != CellReading::Missing).collect();
            let off = present.iter().filter(|r| !matches!(r, CellReading::Written { .. })).count();
            if present.is_empty() { 1.0 } else { off as f32 / present.len() as f32 }
        })
        .collect();
    // How far each move's written spelling scores under its cell's best free reading, and how
    // sure the recognizer is of that reading (over the copies whose cell shows the move).
    let ink_fit: Vec<(f32, f32)> = path
        .moves
        .iter()
        .enumerate()
        .map(|(ply, (_, readings))| {
            let (mut gap, mut sure, mut n) = (0.0, 0.0, 0.0);
            for (c, r) in readings.iter().enumerate() {
                let CellReading::Written { text, .. } = r else { continue };
                let Some(Some(cell)) = ink.copies[c].get(ply) else { continue };
                let Some(score) = ink.text_ids.get(text).and_then(|id| cell.scores.get(id)).map(|s| s.0) else {
                    continue;
                };
                gap += (cell.best.1 - score).clamp(0.0, 10.0) / 10.0;
                sure += cell.best.1.clamp(-10.0, 0.0) / 10.0;
                n += 1.0;
            }
            if n > 0.0 { (gap / n, sure / n) } else { (1.0, -1.0) }
        })
        .collect();
    let features = confidence::features(&weighed, &off_ink, &ink_fit);
    // Each move's calibrated probability, and its alternatives sharing what it leaves in the
    // look-ahead's proportions.
    let (local, alts): (Vec<f32>, Vec<Vec<(Move, f32)>>) = weighed
        .into_iter()
        .zip(&features)
        .map(|(w, f)| {
            let conf = confidence::calibrated(f);
            let rest: f32 = w.alternatives.iter().map(|a| a.1).sum();
            let scale = if rest > 0.0 { (1.0 - conf) / rest.max(1.0 - w.p) } else { 0.0 };
            (conf, w.alternatives.into_iter().map(|(m, p)| (m, p * scale)).collect::<Vec<_>>())
        })
        .unzip();
    // A move whose meaning on the board hangs on an uncertain earlier one is as uncertain.
    let played: Vec<Move> = path.moves.iter().map(|(m, _)| *m).collect();
    let dependence = confidence::dependence(start, &played, &alts);
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for (ply, (((((mv, readings), conf), alts), f), dep)) in
        path.moves.iter().zip(local).zip(alts).zip(features).zip(dependence).enumerate()
    {
        let (number, color) = number_and_color(ply);
        let (dep, hangs_on) = dep;
        let conf = conf * (1.0 - confidence::DEPENDENCE_WEIGHT * dep);
        let alternatives = alts.into_iter().map(|(m, p)| (english_san(&pos, &m), p)).collect();
        moves.push(DecodedMove {
            mv: *mv,
            san: english_san(&pos, mv),
            number,
            color,
            cells: readings.clone(),
            confidence: conf,
            alternatives,
            // A move no cell shows (every copy's cell blank) was inferred from the moves around it.
            flagged: conf < params.flag_threshold || confidence::unwritten(readings),
            hangs_on: hangs_on.filter(|_| dep >= confidence::HANGS_ON_NAMED),
            dependence: dep,
            features: f,
        });
        pos.play_unchecked(*mv);
    }
    // A move whose piece (or the piece it takes) was brought to its square by a flagged move is
    // flagged too under a higher bar: had that move been misread, the piece stood elsewhere.
    let first: Vec<(bool, f32)> = moves.iter().map(|m| (m.flagged, m.confidence)).collect();
    for (m, source) in moves.iter_mut().zip(confidence::flagged_by(&played, &first, params.flag_hangs_threshold)) {
        if let Some(j) = source {
            m.flagged = true;
            m.hangs_on = Some(j);
        }
    }
    let result = match path.result {
        Some(r) => r.to_string(),
        None if pos.is_checkmate() => if pos.turn() == Color::White { "0-1" } else { "1-0" }.to_string(),
        None if pos.is_stalemate() => "1/2-1/2".to_string(),
        None => "*".to_string(),
    };
    DecodedGame { lang, moves, result, score: path.score }
}

/// Half-moves read with each letter set before the others are dropped.
const LANG_PROBE_PLIES: usize = 16;
/// After the quick look, a letter set this close to the fourth best is probed too.
const QUICK_MARGIN: f32 = 1.0;
/// A letter set whose opening reading trails the best by more than this is not read in full.
const FINALIST_MARGIN: f32 = 12.0;
/// Half-moves read with every habit to learn the writer's style.
const STYLE_PROBE_PLIES: usize = 30;

/// `params` for a quick probe: a beam of at most `width` games that never widens.
fn narrow(params: &Params, width: usize) -> Params {
    Params { beam: params.beam.min(width), beam_max: params.beam.min(width), ..params.clone() }
}

/// The writer's habits, learnt from a first reading of the opening half-moves with every habit
/// allowed: the forms and capture marks the cells show, the standard ones always kept; and each
/// copy's [`Style`], how often its writer uses each of them.
fn infer_habits(ink: &mut Ink<'_>, start: &Chess, lang: &Lang, params: &Params) -> (Habits, Vec<Style>) {
    let path = search(ink, start, lang, &narrow(params, 8), STYLE_PROBE_PLIES);
    let styles = Style::learn(&path, start, ink.copies.len());
    let mut forms = vec![MoveForm::Short];
    let mut captures = vec![CaptureMark::X, CaptureMark::Omitted];
    for (_, readings) in &path.moves {
        for r in readings {
            if let CellReading::Written { variant, .. } = r {
                if !variant.underspecified && !forms.contains(&variant.form) {
                    forms.push(variant.form);
                }
                if !captures.contains(&variant.capture) {
                    captures.push(variant.capture);
                }
            }
        }
    }
    forms.retain(|f| params.habits.forms.contains(f));
    captures.retain(|c| params.habits.captures.contains(c));
    (Habits { forms, captures, ..params.habits.clone() }, styles)
}

/// Decodes the copies of one game. With no language given, the letter set is found: every
/// distinct set reads the first half-moves (standard forms only), the two best are read in full,
/// and the better reading wins. The descriptive notations are read the same way, apart: they go
/// on instead of the algebraic sets where one reads the first half-moves better than all of
/// them. The writer's habits are learnt per letter set before the full
/// reading (see `infer_habits`).
pub fn decode(copies: Vec<SheetCopy<'_>>, lang: Option<&'static Lang>, params: &Params) -> DecodedGame {
    let mut ink = Ink::new(copies, params);
    let start = Chess::default();
    let finalists: Vec<&'static Lang> = match lang {
        Some(l) => vec![l],
        None => {
            let mut sets: Vec<&'static Lang> = Vec::new();
            for l in languages() {
                if !sets.iter().any(|s| s.same_letters(l)) {
                    sets.push(l);
                }
            }
            let habits = Habits {
                forms: vec![MoveForm::Short, MoveForm::Long { hyphen: false }, MoveForm::Long { hyphen: true }],
                captures: vec![CaptureMark::X, CaptureMark::Omitted],
                informal: false,
                underspecified: false,
                check_omitted: true,
            };
            // A quick look at the first moves with every set, then a longer one with the best few.
            let quick = Params { habits: habits.clone(), ..narrow(params, 4) };
            let mut quick_scores = |sets: Vec<&'static Lang>| {
                let mut scored: Vec<(f32, &'static Lang)> = sets
                    .into_iter()
                    .map(|l| (search(&mut ink, &start, l, &quick, LANG_PROBE_PLIES / 2).score, l))
                    .collect();
                crate::sort::by_key_descending(&mut scored, |a| a.0);
                scored
            };
            let mut scored = quick_scores(sets);
            // A sheet in descriptive notation ("P-K4") reads better in one of those than in
            // every algebraic letter set; then only the descriptive notations go on.
            let descriptive = quick_scores(descriptive_languages().iter().collect());
            if trace() {
                log::trace!(
                    "quick descriptive {:?}",
                    descriptive.iter().map(|(s, l)| (l.code, *s)).collect::<Vec<_>>()
                );
            }
            if descriptive[0].0 > scored[0].0 {
                scored = descriptive;
            }
            if trace() {
                log::trace!("quick {:?}", scored.iter().map(|(s, l)| (l.code, *s)).collect::<Vec<_>>());
            }
            // (the best 4, and every set as good as they: openings of pawn moves and castling
            // leave many sets alike)
            let probe = Params { habits, ..narrow(params, 8) };
            let fourth = scored.get(3).map_or(f32::NEG_INFINITY, |s| s.0);
            let mut scored: Vec<(f32, &'static Lang)> = scored
                .into_iter()
                .enumerate()
                .take_while(|(i, (s, _))| *i < 4 || *s >= fourth - QUICK_MARGIN)
                .map(|(_, s)| s)
                .map(|(_, l)| (search(&mut ink, &start, l, &probe, LANG_PROBE_PLIES).score, l))
                .collect();
            crate::sort::by_key_descending(&mut scored, |a| a.0);
            if trace() {
                log::trace!("probes {:?}", scored.iter().map(|(s, l)| (l.code, *s)).collect::<Vec<_>>());
            }
            // The runner-up is read in full only when the opening leaves the two close.
            let top = scored[0].0;
            scored.into_iter().take(2).filter(|(s, _)| *s >= top - FINALIST_MARGIN).map(|(_, l)| l).collect()
        }
    };
    let mut best: Option<(ScoredLine, &'static Lang, Params, Vec<Style>)> = None;
    for l in finalists {
        ink.styles.clear();
        let (habits, styles) = infer_habits(&mut ink, &start, l, params);
        ink.styles = styles;
        let p = Params { habits, ..params.clone() };
        if trace() {
            log::trace!("full {} habits {:?}", l.code, p.habits);
        }
        let path = search(&mut ink, &start, l, &p, usize::MAX);
        if trace() {
            log::trace!("finalist {} score {}", l.code, path.score);
        }
        if best.as_ref().is_none_or(|(b, _, _, _)| path.score > b.score) {
            best = Some((path, l, p, ink.styles.clone()));
        }
    }
    let (mut path, l, p, styles) = best.expect("at least one letter set");
    ink.styles = styles;
    // A game that has lost its way (many cells taken as the player's errors) is searched again
    // with a wider beam; the better-scoring reading is kept.
    let lost = mismatch_share(&path);
    if lost > p.wide_search_share {
        let wide = Params {
            beam: p.beam.max(64),
            beam_max: p.beam_max.max(256),
            beam_margin: p.beam_margin.max(15.0),
            ..p.clone()
        };
        let again = search(&mut ink, &start, l, &wide, usize::MAX);
        if trace() {
            log::trace!("wide search: mismatch share {lost:.2}, score {} -> {}", path.score, again.score);
        }
        if again.score > path.score {
            path = again;
        }
    }
    // Where the game read has trouble close together (cells taken as the player's errors, or
    // blank), several moves may need changing at once, and the beam may have lost the game
    // that does: those stretches are searched again with a wider beam (128, up to 256, margin 20).
    let windows = trouble_windows(&path);
    if !windows.is_empty() {
        let wide = Params {
            beam: p.beam.max(128),
            beam_max: p.beam_max.max(256),
            beam_margin: p.beam_margin.max(20.0),
            ..p.clone()
        };
        // (the game read is followed up to the first stretch: its expansions are cached)
        let follow: Vec<Move> = path.moves.iter().map(|(m, _)| *m).collect();
        let again = search_widened(&mut ink, &start, l, &p, usize::MAX, &windows, &wide, &follow);
        if trace() {
            log::trace!("trouble windows {windows:?}: score {} -> {}", path.score, again.score);
        }
        if again.score > path.score {
            path = again;
        }
    }
    finish(&mut ink, &start, l, &p, path)
}

/// Trouble (a cell shown as something else, or blank) this many half-moves apart or closer is
/// searched again with a wider beam (see [`trouble_windows`]).
const TROUBLE_GAP: usize = 4;
/// A trouble window starts this many half-moves before its first trouble and ends this many
/// after its last.
const TROUBLE_BEFORE: usize = 4;
const TROUBLE_AFTER: usize = 8;

/// Stretches of the game around trouble close together: two half-moves at most `TROUBLE_GAP`
/// apart whose cells some copy shows as something else or blank (overlapping stretches merged).
fn trouble_windows(path: &ScoredLine) -> Vec<std::ops::Range<usize>> {
    let trouble: Vec<usize> = path
        .moves
        .iter()
        .enumerate()
        .filter(|(_, (_, r))| r.iter().any(|c| matches!(c, CellReading::Mismatch(_) | CellReading::Blank)))
        .map(|(i, _)| i)
        .collect();
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for pair in trouble.windows(2) {
        if pair[1] - pair[0] <= TROUBLE_GAP {
            let w = pair[0].saturating_sub(TROUBLE_BEFORE)..pair[1] + TROUBLE_AFTER;
            match out.last_mut() {
                Some(last) if last.end >= w.start => last.end = last.end.max(w.end),
                _ => out.push(w),
            }
        }
    }
    out
}

/// The share of a game's half-moves that some copy's cell shows as something else than the move
/// (a player's error or unreadable ink).
fn mismatch_share(path: &ScoredLine) -> f32 {
    let n = path.moves.len().max(1) as f32;
    path.moves.iter().filter(|(_, r)| r.iter().any(|c| matches!(c, CellReading::Mismatch(_)))).count() as f32 / n
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Role, Square};

    fn path(trouble: &[usize], len: usize) -> ScoredLine {
        let mv = Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E4, promotion: None };
        let moves = (0..len)
            .map(|i| {
                let r = match (trouble.contains(&i), i % 2) {
                    (true, 0) => CellReading::Blank,
                    (true, _) => CellReading::Mismatch("Nf9".into()),
                    (false, _) => CellReading::Written { text: "e4".into(), variant: Variant::default() },
                };
                (mv, vec![r, CellReading::Missing])
            })
            .collect();
        ScoredLine { moves, score: 0.0, result: None }
    }

    #[test]
    fn trouble_close_together_is_searched_again_and_lone_trouble_is_not() {
        // A lone mismatch, or two far apart: no window.
        assert!(trouble_windows(&path(&[], 60)).is_empty());
        assert!(trouble_windows(&path(&[10], 60)).is_empty());
        assert!(trouble_windows(&path(&[10, 10 + TROUBLE_GAP + 1], 60)).is_empty());
        // Two skipped cells in a row, and a cluster of errors: one window each, from
        // TROUBLE_BEFORE before the first to TROUBLE_AFTER after the last.
        let w = trouble_windows(&path(&[20, 22, 41, 43, 45], 80));
        assert_eq!(w, vec![20 - TROUBLE_BEFORE..22 + TROUBLE_AFTER, 41 - TROUBLE_BEFORE..45 + TROUBLE_AFTER]);
        // Windows that would overlap are merged; a window at the start does not underflow.
        let w = trouble_windows(&path(&[1, 3, 14, 16], 40));
        assert_eq!(w, vec![0..16 + TROUBLE_AFTER]);
    }
}
