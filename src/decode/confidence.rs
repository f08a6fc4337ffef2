//! Per-move confidence.
//!
//! A beam's final hypotheses mostly share their early moves, so their posterior says little about
//! those moves. Instead, at every half-move of the game read, each plausible alternative move is
//! played and the game is continued for a few half-moves (a small beam) against the same ink; the
//! game read is continued the same way. The softmax of those totals (at a temperature fitted on
//! training sheets) is the probability of each move. An alternative whose own cell score is far
//! below the move read is not continued: its probability is negligible.

use shakmaty::san::San;
use shakmaty::{Chess, Move, Position};

use super::beam::{Ink, ScoredLine};
use super::{CellReading, Params};
use crate::notation::Lang;

/// Alternatives weighed per half-move.
const MAX_ALTERNATIVES: usize = 4;
/// Alternatives weighed where no cell shows the move: the ink does not tell them apart, the prior
/// ranks them, and the move the later cells support may rank low.
const MAX_BLANK_ALTERNATIVES: usize = 16;

/// Alternatives whose cell score trails the move read by more than this are not weighed.
const LOCAL_MARGIN: f32 = 14.0;
/// Beam width of the look-ahead.
const LOOKAHEAD_BEAM: usize = 2;

/// Whether no cell shows the move: every copy with a cell for it left it blank.
pub(crate) fn unwritten(readings: &[CellReading]) -> bool {
    let mut seen = readings.iter().filter(|c| **c != CellReading::Missing).peekable();
    seen.peek().is_some() && seen.all(|c| *c == CellReading::Blank)
}

/// The best log-score of `window` half-moves from `ply`, starting in `pos`.
fn continuation(ink: &mut Ink<'_>, pos: &Chess, ply: usize, window: usize, lang: &Lang, params: &Params) -> f32 {
    let end = (ply + window).min(ink.plies);
    let tail = ink.end_score(end).0;
    // (position, score); `None` once the game has ended inside the window.
    let mut beam: Vec<(Option<Chess>, f32)> = vec![(Some(pos.clone()), 0.0)];
    for p in ply..end {
        // (score, game in the beam, move played; `None`: the game ended) - positions are made
        // only for the few kept.
        // The best LOOKAHEAD_BEAM, ties in the order they come (as a stable sort would keep).
        let mut next: Vec<(f32, usize, Option<Move>)> = Vec::with_capacity(LOOKAHEAD_BEAM + 1);
        let mut keep = |c: (f32, usize, Option<Move>)| {
            let at = next.iter().position(|k| c.0.total_cmp(&k.0).is_gt()).unwrap_or(next.len());
            if at < LOOKAHEAD_BEAM {
                next.insert(at, c);
                next.truncate(LOOKAHEAD_BEAM);
            }
        };
        let ended = ink.end_score(p).0;
        for (i, (pos, score)) in beam.iter().enumerate() {
            let Some(pos) = pos else {
                keep((*score, i, None));
                continue;
            };
            // The game may end here: the rest of the window is then blank cells.
            keep((score + ended - tail, i, None));
            let exp = ink.expand(pos, p, lang, params);
            for (mv, s, _) in ink.entries(exp).iter() {
                keep((score + s, i, Some(*mv)));
            }
        }
        beam = next
            .into_iter()
            .map(|(score, i, mv)| {
                let pos = match (mv, &beam[i].0) {
                    (Some(mv), Some(pos)) => {
                        let mut after = pos.clone();
                        after.play_unchecked(mv);
                        Some(after)
                    }
                    _ => None,
                };
                (pos, score)
            })
            .collect();
    }
    beam.first().map_or(0.0, |b| b.1)
}

/// What the look-ahead found about one move.
pub(crate) struct Weighed {
    /// Softmax probability of the move against its alternatives, each continued a few half-moves.
    pub p: f32,
    /// The alternatives with their softmax probabilities, most likely first (3 at most).
    pub alternatives: Vec<(Move, f32)>,
    /// The move's own cell score less the best alternative's (capped at `LOCAL_MARGIN`).
    pub local_margin: f32,
}

/// For each move of `path`: its probability and the alternatives with theirs.
pub(crate) fn per_move(
    ink: &mut Ink<'_>,
    start: &Chess,
    lang: &Lang,
    params: &Params,
    path: &ScoredLine,
) -> Vec<Weighed> {
    ink.set_context(lang, params);
    let mut out = Vec::with_capacity(path.moves.len());
    let mut pos = start.clone();
    for (ply, (mv, readings)) in path.moves.iter().enumerate() {
        let exp = ink.expand(&pos, ply, lang, params);
        let mut scored: Vec<(Move, f32)> = ink.entries(exp).iter().map(|(m, s, _)| (*m, *s)).collect();
        crate::sort::by_key_descending(&mut scored, |a| a.1);
        let chosen = scored.iter().find(|(m, _)| m == mv).map_or(f32::NEG_INFINITY, |c| c.1);
        let rivals: Vec<(Move, f32)> = scored
            .iter()
            .filter(|(m, s)| m != mv && *s >= chosen - LOCAL_MARGIN)
            .take(if unwritten(readings) { MAX_BLANK_ALTERNATIVES } else { MAX_ALTERNATIVES })
            .copied()
            .collect();
        let local_margin = rivals.first().map_or(LOCAL_MARGIN, |r| (chosen - r.1).min(LOCAL_MARGIN));
        if rivals.is_empty() {
            out.push(Weighed { p: 1.0, alternatives: Vec::new(), local_margin });
        } else {
            let total_of = |ink: &mut Ink<'_>, m: &Move, local: f32| {
                let mut after = pos.clone();
                after.play_unchecked(*m);
                local + continuation(ink, &after, ply + 1, params.confidence_window, lang, params)
            };
            let mine = total_of(ink, mv, chosen);
            let theirs: Vec<(Move, f32)> = rivals.iter().map(|(m, s)| (*m, total_of(ink, m, *s))).collect();
            let t = params.temperature.max(1e-3);
            let max = theirs.iter().map(|x| x.1).fold(mine, f32::max);
            let z: f32 = ((mine - max) / t).exp() + theirs.iter().map(|x| ((x.1 - max) / t).exp()).sum::<f32>();
            let p_mine = ((mine - max) / t).exp() / z;
            let mut alts: Vec<(Move, f32)> = theirs.iter().map(|(m, s)| (*m, ((s - max) / t).exp() / z)).collect();
            crate::sort::by_key_descending(&mut alts, |a| a.1);
            alts.truncate(3);
            out.push(Weighed { p: p_mine, alternatives: alts, local_margin });
        }
        pos.play_unchecked(*mv);
    }
    out
}

/// Number of calibration inputs per move (see `features`).
pub const FEATURES: usize = 7;

/// Half-moves on each side whose evidence is averaged into a move's context features.
const CONTEXT: usize = 4;

/// Logistic calibration: weights of `features` and the bias, fitted on the HCS development
/// games (`scoresheet-dev eval --hcs --dev 100 --dump F`, then `scripts/fit_calibration.py F`).
pub const CALIBRATION: [f32; FEATURES + 1] = [0.2064, 0.7528, 0.0, -1.8888, 0.0, -0.5131, 0.4563, 1.4379];

fn logit(p: f32) -> f32 {
    let p = p.clamp(1e-4, 1.0 - 1e-4);
    (p / (1.0 - p)).ln()
}

/// The calibration inputs of every move: the look-ahead probability (as a logit), the cell-score
/// margin over the best alternative, the share of the move's cells that do not show it (blank or
/// another text), and the last two averaged over the neighbouring half-moves (a game that has
/// lost its way shows it over several moves); then, from `ink_fit`, how far the move's spelling
/// scores under the cell's best free reading and the recognizer's score of that reading (each
/// over 10 and clipped: 0..1 and -1..0).
pub(crate) fn features(weighed: &[Weighed], off_ink: &[f32], ink_fit: &[(f32, f32)]) -> Vec<[f32; FEATURES]> {
    let n = weighed.len();
    (0..n)
        .map(|i| {
            let lo = i.saturating_sub(CONTEXT);
            let hi = (i + CONTEXT + 1).min(n);
            let k = (hi - lo) as f32;
            let ctx_off = off_ink[lo..hi].iter().sum::<f32>() / k;
            let ctx_logit = weighed[lo..hi].iter().map(|w| logit(w.p)).sum::<f32>() / k;
            [
                logit(weighed[i].p),
                weighed[i].local_margin / LOCAL_MARGIN,
                off_ink[i],
                ctx_off,
                ctx_logit,
                ink_fit[i].0,
                ink_fit[i].1,
            ]
        })
        .collect()
}

/// The calibrated probability that a move with these features is right.
pub fn calibrated(f: &[f32; FEATURES]) -> f32 {
    let z = CALIBRATION[FEATURES] + f.iter().zip(CALIBRATION).map(|(x, w)| x * w).sum::<f32>();
    1.0 / (1.0 + (-z).exp())
}

/// For each half-move of `moves`: the earlier half-move (within [`BROUGHT_WINDOW`]) that brought
/// the moved piece to the square it leaves, and the one that brought a captured piece to the
/// square it is taken on. Had that earlier move been misread, the piece stood elsewhere and the
/// same written move means another move on the board, or none. (For `eval --dump`: evidence
/// for the calibration.)
pub fn brought_by(moves: &[Move]) -> Vec<(Option<usize>, Option<usize>)> {
    let last_to = |i: usize, sq: Option<shakmaty::Square>| {
        let sq = sq?;
        (i.saturating_sub(BROUGHT_WINDOW)..i).rev().find(|&j| moves[j].to() == sq)
    };
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let captured = if m.is_capture() && !m.is_en_passant() { Some(m.to()) } else { None };
            (last_to(i, m.from()), last_to(i, captured))
        })
        .collect()
}

/// For each half-move of `moves` not flagged by its own confidence (`first`: flagged, confidence)
/// but under `threshold`: the flagged half-move that brought its piece, or the piece it takes,
/// to its square ([`brought_by`]), which flags it too. `None` for the others.
pub fn flagged_by(moves: &[Move], first: &[(bool, f32)], threshold: f32) -> Vec<Option<usize>> {
    brought_by(moves)
        .into_iter()
        .zip(first)
        .map(|((from, taken), &(flagged, conf))| {
            if flagged || conf >= threshold {
                return None;
            }
            [from, taken].into_iter().flatten().find(|&j| first[j].0)
        })
        .collect()
}

/// Half-moves looked back by [`brought_by`].
pub const BROUGHT_WINDOW: usize = 24;

/// How much of [`dependence`] a move's confidence loses: `conf * (1 - DEPENDENCE_WEIGHT * dep)`.
/// Fitted on the HCS development games by log-loss on the calibration's two-fold predictions
/// (`scripts/fit_calibration.py`, scored by the truth that follows the reading where the labels
/// cannot tell moves apart: none 0.1810, 0.25: 0.1751, 0.5: 0.1767, 0.75: 0.1805, 1: 0.1862):
/// the alternatives' shares are generous.
pub const DEPENDENCE_WEIGHT: f32 = 0.25;

/// A move whose [`dependence`] is at least this names the earlier move it hangs on.
pub const HANGS_ON_NAMED: f32 = 0.1;

/// Half-moves after an uncertain one through which its alternatives are followed.
const DEPENDENCE_WINDOW: usize = 24;
/// Alternatives less likely than this are not followed.
const DEPENDENCE_MIN_P: f32 = 0.05;

/// For each half-move of the game read (`moves`, played from `start`): the probability that its
/// written move means another move on the board, because an earlier half-move was one of its
/// `alternatives` (with their probabilities). Under the alternative the same standard spelling
/// may be another move ("Bf4" from e3, not c1, when the bishop went to e3 instead of a pawn to
/// f3) or no legal move; the move read is then right only if that earlier move was. With it, the
/// earlier half-move whose alternatives weigh most.
pub fn dependence(start: &Chess, moves: &[Move], alternatives: &[Vec<(Move, f32)>]) -> Vec<(f32, Option<usize>)> {
    let mut positions = Vec::with_capacity(moves.len());
    let mut pos = start.clone();
    for m in moves {
        positions.push(pos.clone());
        pos.play_unchecked(*m);
    }
    let sans: Vec<San> = moves.iter().zip(&positions).map(|(m, p)| San::from_move(p, *m)).collect();
    // the probability that each move keeps its meaning
    let mut keep = vec![1.0f32; moves.len()];
    // (the earlier half-move weighing most on each move, and its weight)
    let mut most: Vec<(f32, Option<usize>)> = vec![(0.0, None); moves.len()];
    for (j, alts) in alternatives.iter().enumerate().take(moves.len()) {
        for &(alt, p) in alts.iter().filter(|a| a.1 >= DEPENDENCE_MIN_P) {
            let mut other = positions[j].clone();
            other.play_unchecked(alt);
            let mut hangs = |k: usize| {
                keep[k] *= 1.0 - p;
                if p > most[k].0 {
                    most[k] = (p, Some(j));
                }
            };
            for k in j + 1..(j + 1 + DEPENDENCE_WINDOW).min(moves.len()) {
                match sans[k].to_move(&other) {
                    Ok(m) => {
                        if m != moves[k] {
                            hangs(k);
                        }
                        other.play_unchecked(m);
                    }
                    Err(_) => {
                        hangs(k);
                        break;
                    }
                }
            }
        }
    }
    keep.into_iter().zip(most).map(|(k, m)| (1.0 - k, m.1)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::san::San;

    /// The moves of `sans` from the initial position.
    fn play(sans: &str) -> Vec<Move> {
        let mut pos = Chess::default();
        sans.split_whitespace()
            .map(|s| {
                let m = s.parse::<San>().unwrap().to_move(&pos).unwrap();
                pos.play_unchecked(m);
                m
            })
            .collect()
    }

    #[test]
    fn each_move_names_the_moves_that_brought_its_piece_and_its_victim() {
        // 1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. Nf3 Qxa2
        let moves = play("e4 d5 exd5 Qxd5 Nc3 Qa5 Nf3 Qxa2");
        let b = brought_by(&moves);
        assert_eq!(b[0], (None, None), "a pawn from its first square");
        assert_eq!(b[2], (Some(0), Some(1)), "exd5: the pawn came by e4, the victim by d5");
        assert_eq!(b[3], (None, Some(2)), "Qxd5: the queen from d8, the victim by exd5");
        assert_eq!(b[5], (Some(3), None), "Qa5: the queen came by Qxd5");
        assert_eq!(b[7], (Some(5), None), "Qxa2: the pawn on a2 never moved");
    }

    #[test]
    fn a_move_whose_piece_an_uncertain_earlier_move_may_have_moved_is_as_uncertain() {
        // read: 6. f3 (written "e3": the bishop to e3 is as likely), then 8. Bf4 - from c1 as
        // read, from e3 had the bishop gone there; the other moves mean the same either way
        let moves = play("e4 c6 d4 d5 e5 Bf5 h4 h6 g4 Be4 f3 Bh7 e6 fxe6 Bf4 Qb6 Nc3");
        let mut pos = Chess::default();
        for m in &moves[..10] {
            pos.play_unchecked(*m);
        }
        let be3 = "Be3".parse::<San>().unwrap().to_move(&pos).unwrap();
        let mut alts = vec![Vec::new(); moves.len()];
        alts[10] = vec![(be3, 0.45)];
        let dep = dependence(&Chess::default(), &moves, &alts);
        assert!((dep[14].0 - 0.45).abs() < 1e-6 && dep[14].1 == Some(10), "Bf4 hangs on f3: {dep:?}");
        for (i, d) in dep.iter().enumerate() {
            if i != 14 {
                assert_eq!(*d, (0.0, None), "half-move {i} means the same either way: {dep:?}");
            }
        }
        // an unlikely alternative is not followed
        alts[10] = vec![(be3, 0.01)];
        assert!(dependence(&Chess::default(), &moves, &alts).iter().all(|d| *d == (0.0, None)));
    }

    #[test]
    fn a_move_of_a_piece_a_flagged_move_brought_is_flagged_under_the_higher_bar() {
        // 1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. Nf3 Qxa2, with 2... Qxd5 flagged
        let moves = play("e4 d5 exd5 Qxd5 Nc3 Qa5 Nf3 Qxa2");
        let mut first = vec![(false, 0.9); moves.len()];
        first[3] = (true, 0.5);
        first[7] = (false, 0.97);
        let by = flagged_by(&moves, &first, 0.95);
        // 3... Qa5 moves the queen 2... Qxd5 brought; 4... Qxa2 moves the queen 3... Qa5
        // brought, which was not flagged by its own confidence (and is over the bar anyway).
        assert_eq!(by, [None, None, None, None, None, Some(3), None, None]);
        // Over the bar, or flagged already: not flagged by another move.
        first[5] = (false, 0.96);
        assert!(flagged_by(&moves, &first, 0.95).iter().all(Option::is_none));
        first[5] = (true, 0.5);
        assert_eq!(flagged_by(&moves, &first, 0.99)[5], None);
        assert_eq!(flagged_by(&moves, &first, 0.99)[7], Some(5));
    }
}
