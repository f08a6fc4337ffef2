//! Repair of the leading game when a cell contradicts it: a player who wrote a wrong but legal
//! move ("b4" for a4) leaves no trace until a later cell is impossible after the move written
//! ("Qxa4" with no piece on a4). By then the beam has long dropped the true game, which paid a
//! mismatch back at the wrong cell. So where the best game must take a cell as a player's error,
//! the half-moves before it are tried with another move each, the game's later moves replayed
//! after it; a repaired game under which the cell reads as a legal move joins the beam with its
//! full score, and the cells after decide between it and the original. Where the leader's later
//! moves cannot all be replayed (the wrongly recorded piece moved again, "Qd2" for Bd2 then
//! "Qd1"), the few likeliest alternatives may replace up to three of them, each by the likeliest
//! move in its place. Where the leader is contradicted, the next game of the beam is repaired
//! too (`Params::repair_games`): a slip can leave the leader a game that needs two moves
//! changed ("Qxd2" read for Nbxd2, then "Be2" written for Qe2 before "O-O-O"), while the game
//! behind it needs one.

use super::{Hyp, Ink, Node, lineage};
use crate::decode::Params;
use crate::notation::{Lang, parse_move};
use rustc_hash::FxHashSet as HashSet;
use shakmaty::{Chess, EnPassantMode, Move, Position, zobrist::Zobrist64};

/// Repaired games added at one half-move, at most (the best by score).
const MAX_REPAIRED: usize = 2;

/// At each half-move tried, this many of the likeliest other moves may replace the repaired game's
/// later moves they make illegal ...
const REFILL_ALTERNATIVES: usize = 4;
/// ... at most this many.
const MAX_REFILLS: usize = 3;

/// `mv` as it would be played in `pos`: a normal move's captured piece is whatever stands on
/// its target square there.
fn adapt(mv: &Move, pos: &Chess) -> Move {
    match *mv {
        Move::Normal { role, from, to, promotion, .. } => {
            Move::Normal { role, from, capture: pos.board().role_at(to), to, promotion }
        }
        other => other,
    }
}

/// A cell whose best reading scores this much (natural log) above a game's best move's
/// spelling contradicts that game.
const CONTRADICTION: f32 = 4.0;

/// The best readings of the cells at half-move `ply` that contradict `game`: no legal move of its
/// position is spelled near what the cell most likely shows (empty when none does).
fn contradicted(ink: &mut Ink<'_>, game: &Hyp, ply: usize, lang: &Lang, params: &Params) -> Vec<String> {
    let exp = ink.expand(&game.pos, ply, lang, params);
    let Some(&(_, _, key)) = ink.entries(exp).iter().max_by(|a, b| a.1.total_cmp(&b.1)) else {
        return Vec::new();
    };
    let scores = ink.key_scores(&key, ply, lang, params);
    let mut out = Vec::new();
    for (sc, cells) in ink.scores(scores).iter().zip(&ink.copies) {
        let (Some((written, _, _)), Some(Some(cell))) = (sc, cells.get(ply)) else { continue };
        if !cell.best.0.is_empty() && cell.best.1 - written > CONTRADICTION {
            out.push(cell.best.0.clone());
        }
    }
    out
}

/// Adds to `beam` the repaired games of its game `which` (0: the leader) at half-move `ply` (see
/// the module text). Returns how many were added, or `None` where no cell contradicts that game.
#[allow(clippy::too_many_arguments)]
pub(super) fn repair(
    ink: &mut Ink<'_>,
    start: &Chess,
    lang: &Lang,
    params: &Params,
    nodes: &mut Vec<Node>,
    beam: &mut Vec<Hyp>,
    ply: usize,
    which: usize,
) -> Option<usize> {
    let game = beam.get(which)?;
    let targets = contradicted(ink, game, ply, lang, params);
    if targets.is_empty() {
        return None;
    }
    let node = game.node;
    // The bar a repaired game must reach: the beam's best game, once the contradicted cell is read.
    let best = &beam[0];
    let exp = ink.expand(&best.pos, ply, lang, params);
    let bar = best.score + ink.entries(exp).iter().map(|e| e.1).fold(f32::NEG_INFINITY, f32::max);
    // The repaired game's moves, the score before each and the positions from the start.
    let chain = lineage(nodes, node);
    if chain.len() != ply {
        return Some(0);
    }
    let moves: Vec<Move> = chain.iter().map(|&n| ink.entry(nodes[n].at).0).collect();
    let mut before = vec![0.0f32; ply + 1];
    for (j, &n) in chain.iter().enumerate() {
        before[j + 1] = before[j] + ink.entry(nodes[n].at).1;
    }
    let mut positions = Vec::with_capacity(ply + 1);
    positions.push(start.clone());
    for m in &moves {
        let mut p = positions.last().expect("start").clone();
        p.play_unchecked(*m);
        positions.push(p);
    }
    let mut seen: HashSet<u64> = beam.iter().map(|h| h.pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0).collect();
    // Candidates: (half-move changed, the moves from there: the one played instead, then the
    // repaired game's moves replayed).
    let mut found: Vec<(usize, Vec<Move>)> = Vec::new();
    for s in (ply.saturating_sub(params.repair_window)..ply).rev() {
        // The likeliest alternatives here may also replace a few of the game's later moves
        // that they make illegal, each by the likeliest move there (a piece moved by the wrong
        // move written later moves from elsewhere).
        let exp = ink.expand(&positions[s], s, lang, params);
        let mut here: Vec<(Move, f32)> =
            ink.entries(exp).iter().filter(|e| e.0 != moves[s]).map(|e| (e.0, e.1)).collect();
        crate::sort::by_key_descending(&mut here, |a| a.1);
        let likely: Vec<Move> = here.iter().take(REFILL_ALTERNATIVES).map(|e| e.0).collect();
        for alt in positions[s].legal_moves() {
            if alt == moves[s] {
                continue;
            }
            let mut p = positions[s].clone();
            p.play_unchecked(alt);
            let mut line = vec![alt];
            let mut ok = true;
            let mut refills = if likely.contains(&alt) { MAX_REFILLS } else { 0 };
            for (j, m) in moves[s + 1..].iter().enumerate() {
                let mut m = adapt(m, &p);
                if !p.is_legal(m) {
                    let best = (refills > 0)
                        .then(|| ink.expand(&p, s + 1 + j, lang, params))
                        .and_then(|e| ink.entries(e).iter().max_by(|a, b| a.1.total_cmp(&b.1)).map(|e| e.0));
                    let Some(best) = best else {
                        ok = false;
                        break;
                    };
                    refills -= 1;
                    m = best;
                }
                p.play_unchecked(m);
                line.push(m);
            }
            // (a position seen already is not parsed again: parsing a descriptive text spells
            // every legal move)
            let hash = p.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
            if !ok
                || seen.contains(&hash)
                || !targets.iter().all(|t| parse_move(&p, t, lang).is_ok_and(|r| !r.is_empty()))
            {
                continue;
            }
            seen.insert(hash);
            found.push((s, line));
        }
    }
    if super::trace() {
        log::trace!("repair ply {ply} targets {targets:?} candidates {}", found.len());
    }
    // Score each candidate as the beam would have, half-move by half-move.
    let mut scored: Vec<(f32, Hyp, usize, Vec<Node>)> = Vec::new();
    for (s, line) in found {
        let mut p = positions[s].clone();
        let mut score = before[s];
        let parent = if s == 0 { usize::MAX } else { chain[s - 1] };
        let mut made = Vec::with_capacity(line.len());
        let mut ok = true;
        for (j, m) in line.iter().enumerate() {
            let exp = ink.expand(&p, s + j, lang, params);
            let Some(index) = ink.entries(exp).iter().position(|e| e.0 == *m) else {
                ok = false;
                break;
            };
            let at = exp.at(index);
            score += ink.entry(at).1;
            made.push(Node { parent, at });
            p.play_unchecked(*m);
        }
        if !ok {
            continue;
        }
        let exp = ink.expand(&p, ply, lang, params);
        let best_next = ink.entries(exp).iter().map(|e| e.1).fold(f32::NEG_INFINITY, f32::max);
        scored.push((score + best_next, Hyp { pos: p, score, node: usize::MAX }, parent, made));
    }
    crate::sort::by_key_descending(&mut scored, |a| a.0);
    // A repair must come within the beam's margin of the leader once the contradicted cell is read.
    let mut added = 0;
    for (potential, mut hyp, parent, made) in scored.into_iter().take(MAX_REPAIRED) {
        if potential < bar - params.beam_margin {
            break;
        }
        let base = nodes.len();
        for (k, mut n) in made.into_iter().enumerate() {
            n.parent = if k == 0 { parent } else { base + k - 1 };
            nodes.push(n);
        }
        hyp.node = nodes.len() - 1;
        beam.push(hyp);
        added += 1;
    }
    Some(added)
}
