//! Random but plausible legal games: weighted playouts that develop pieces, castle, take what
//! hangs, give checks now and then, play a mate when one is there, and end in mate, resignation
//! or an agreed draw after 20-80 moves.

use rand::Rng;
use shakmaty::{Chess, Color, KnownOutcome, Move, Outcome, Position, Role, Square};

use crate::decode::prior::{attacked, material, value};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Insufficient material or a draw agreed at the board.
    Draw,
    /// The side to move (or the side behind) resigned.
    Resigned,
}

/// A generated game.
#[derive(Clone, Debug)]
pub struct Game {
    /// The moves, each with the position it was played from.
    pub plies: Vec<(Chess, Move)>,
    /// The final position.
    pub end: Chess,
    /// Why the game ended.
    pub ending: Ending,
    /// "1-0", "0-1" or "1/2-1/2".
    pub result: &'static str,
}

/// Whether a piece of `color` attacks `sq` in `pos`.
fn attacked_by(pos: &Chess, sq: Square, color: Color) -> bool {
    attacked(pos.board(), sq, color, pos.board().occupied())
}

/// A plausibility score for `mv` in `pos` at full move `fullmove` (higher is likelier).
fn score(pos: &Chess, mv: &Move, fullmove: u32) -> f32 {
    let us = pos.turn();
    let them = !us;
    let mut s = 0.0f32;
    let role = mv.role();
    let to = mv.to();
    if let Some(victim) = mv.capture() {
        s += value(victim) * 1.2;
    }
    if mv.is_castle() {
        s += if fullmove < 15 { 3.5 } else { 1.0 };
    }
    let opening = fullmove <= 12;
    let centrality = |sq: Square| {
        let f = u32::from(sq.file()) as f32;
        let r = u32::from(sq.rank()) as f32;
        3.5 - (f - 3.5).abs().max((r - 3.5).abs()) // 0.5 (rim) .. 3.5 (centre)
    };
    s += 0.15 * centrality(to);
    if let Some(from) = mv.from() {
        let home = if us == Color::White { 0 } else { 7 };
        let at_home = u32::from(from.rank()) == home;
        match role {
            Role::Knight | Role::Bishop if opening => {
                if at_home {
                    s += 1.0 + 0.45 * centrality(to);
                } else {
                    s -= 0.9;
                }
                if role == Role::Knight && matches!(u32::from(to.file()), 0 | 7) {
                    s -= 1.3;
                }
            }
            Role::Pawn if opening => {
                let f = u32::from(from.file());
                s += match f {
                    3 | 4 => 1.5,
                    2 | 5 => 0.6,
                    1 | 6 if fullmove > 3 => 0.1,
                    _ => -0.9,
                };
            }
            Role::Queen if fullmove < 8 => s -= 1.4,
            Role::Rook if fullmove < 10 => s -= 1.0,
            Role::King if !mv.is_castle() => s -= if fullmove < 30 { 3.0 } else { 0.8 },
            _ => {}
        }
        // Moving a piece that is attacked is good.
        if role != Role::Pawn && role != Role::King && attacked_by(pos, from, them) {
            s += value(role) * 0.5;
        }
    }
    // Hanging the moved piece is unlikely.
    let mut after = pos.clone();
    after.play_unchecked(*mv);
    if role != Role::King && attacked_by(&after, to, them) {
        let defended = attacked_by(&after, to, us);
        let loss = value(role) - mv.capture().map(value).unwrap_or(0.0);
        if loss > 0.0 {
            s -= if defended { loss * 0.4 } else { loss * 1.1 };
        }
    }
    if after.is_check() {
        s += 0.8;
    }
    if mv.is_promotion() {
        s += if mv.promotion() == Some(Role::Queen) { 6.0 } else { -2.0 };
    }
    s
}

/// Plays a random plausible game of `target` full moves at most (it may end earlier in mate).
pub fn random_game<R: Rng>(rng: &mut R, min_moves: u32, max_moves: u32) -> Game {
    let max_moves = max_moves.max(min_moves);
    let target = rng.gen_range(min_moves..=max_moves);
    let temperature = rng.gen_range(0.4..0.7);
    let mut pos = Chess::default();
    let mut plies = Vec::new();
    let mut weights = Vec::with_capacity(64);
    loop {
        let fullmove = plies.len() as u32 / 2 + 1;
        if let Outcome::Known(outcome) = pos.outcome() {
            let (ending, result) = match outcome {
                KnownOutcome::Decisive { winner: Color::White } => (Ending::Checkmate, "1-0"),
                KnownOutcome::Decisive { winner: Color::Black } => (Ending::Checkmate, "0-1"),
                KnownOutcome::Draw if pos.is_stalemate() => (Ending::Stalemate, "1/2-1/2"),
                KnownOutcome::Draw => (Ending::Draw, "1/2-1/2"),
            };
            return Game { plies, end: pos, ending, result };
        }
        if plies.len() as u32 >= target * 2 - (rng.gen_bool(0.5) as u32) && fullmove > min_moves {
            let diff = material(pos.board(), Color::White) - material(pos.board(), Color::Black);
            let (ending, result) = if diff >= 2.5 || (diff > 0.5 && rng.gen_bool(0.5)) {
                (Ending::Resigned, "1-0")
            } else if diff <= -2.5 || (diff < -0.5 && rng.gen_bool(0.5)) {
                (Ending::Resigned, "0-1")
            } else if rng.gen_bool(0.6) {
                (Ending::Draw, "1/2-1/2")
            } else if rng.gen_bool(0.5) {
                (Ending::Resigned, "1-0")
            } else {
                (Ending::Resigned, "0-1")
            };
            return Game { plies, end: pos, ending, result };
        }
        let legal = pos.legal_moves();
        // A mate on the board is played most of the time.
        let mate = legal.iter().find(|m| {
            let mut p = pos.clone();
            p.play_unchecked(**m);
            p.is_checkmate()
        });
        let early = fullmove < min_moves;
        let mv = match mate {
            Some(m) if !early && rng.gen_bool(0.9) => *m,
            _ => {
                weights.clear();
                let mut best = f32::MIN;
                for m in &legal {
                    let mut s = score(&pos, m, fullmove);
                    if early && mate == Some(m) {
                        s -= 100.0; // no miniatures: games last at least `min_moves`
                    }
                    best = best.max(s);
                    weights.push(s);
                }
                let mut total = 0.0;
                for w in weights.iter_mut() {
                    *w = ((*w - best) / temperature).exp();
                    total += *w;
                }
                let mut pick = rng.gen_range(0.0..total);
                let mut chosen = legal[legal.len() - 1];
                for (m, w) in legal.iter().zip(&weights) {
                    if pick < *w {
                        chosen = *m;
                        break;
                    }
                    pick -= w;
                }
                chosen
            }
        };
        plies.push((pos.clone(), mv));
        pos.play_unchecked(mv);
    }
}

/// The game as PGN with standard English SAN and the result.
pub fn pgn(game: &Game, white: &str, black: &str) -> String {
    let mut s = String::new();
    s.push_str("[Event \"Synthetic scoresheet\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n");
    s.push_str(&format!("[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{}\"]\n\n", game.result));
    let mut line = String::new();
    for (i, (pos, mv)) in game.plies.iter().enumerate() {
        let mut tok = String::new();
        if i % 2 == 0 {
            tok.push_str(&format!("{}. ", i / 2 + 1));
        }
        tok.push_str(&crate::notation::english_san(pos, mv));
        if line.len() + tok.len() + 1 > 79 {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
        line.push_str(&tok);
        line.push(' ');
    }
    line.push_str(game.result);
    s.push_str(&line);
    s.push('\n');
    s
}
