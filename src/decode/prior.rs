//! How likely a move is to be played, before any ink is read: a small conditional-logit model
//! over a position's legal moves, fitted on the moves of real games (the HCS training games;
//! `examples/prior_data.rs` writes the features, `scripts/fit_prior.py` fits the weights).
//!
//! Where a cell's ink leaves several legal moves close, players' habits decide: they recapture,
//! develop pieces in the opening, castle, move an attacked piece away, and seldom hang a piece.
//! The decoder adds `Params::prior_weight` times this log-probability (plus a constant, see
//! [`log_odds`]) to each move's ink score.

use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, Square};

/// Number of features per move.
pub const FEATURES: usize = 33;

/// The fitted weights, one per feature (see [`features`] for what each one is).
/// Fitted by `scripts/fit_prior.py` on the HCS training games (not the test or development games).
#[allow(clippy::approx_constant)] // fitted numbers, one of which happens to be near pi / 4
pub const WEIGHTS: [f32; FEATURES] = [
    0.7854, 0.5994, 0.4540, 0.7350, 0.6957, 1.1046, //
    2.4189, 2.9416, 0.2497, 0.2906, 0.0659, 0.0527, //
    -0.1231, 0.0560, 0.5169, -0.8560, -0.7145, -0.6742, //
    -1.6114, 0.3827, -0.3071, -1.0453, 0.8470, 0.7796, //
    -0.9930, 0.5412, -1.1607, -3.3020, -0.0384, 0.1547, //
    0.3361, -0.9090, 0.6999,
];

/// Material value in pawns (also what the synthetic games' players weigh).
pub(crate) fn value(role: Role) -> f32 {
    match role {
        Role::Pawn => 1.0,
        Role::Knight | Role::Bishop => 3.0,
        Role::Rook => 5.0,
        Role::Queen => 9.0,
        Role::King => 0.0,
    }
}

/// Rank from `color`'s side: 0 is its back rank.
fn relative_rank(sq: Square, color: Color) -> u32 {
    let r = u32::from(sq.rank());
    if color == Color::White { r } else { 7 - r }
}

/// 0 on the rim, 1 in the four centre squares.
fn centrality(sq: Square) -> f32 {
    let f = u32::from(sq.file()) as f32;
    let r = u32::from(sq.rank()) as f32;
    (3.5 - (f - 3.5).abs().max((r - 3.5).abs()) - 0.5) / 3.0
}

/// `color`'s material in pawns.
pub(crate) fn material(board: &shakmaty::Board, color: Color) -> f32 {
    [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .map(|r| (board.by_role(r) & board.by_color(color)).count() as f32 * value(r))
        .sum()
}

/// Whether a piece of `by` attacks `sq` with the board's pieces on `occupied`.
pub(crate) fn attacked(board: &shakmaty::Board, sq: Square, by: Color, occupied: Bitboard) -> bool {
    board.attacks_to(sq, by, occupied).any()
}

/// The features of `mv` in `pos`, `check` and `mate` whether it gives them. They depend on the
/// position alone (not on the moves that led there), so that a position's prior is made once.
/// For many moves of one position, [`PositionFeatures`] shares the work.
pub fn features(pos: &Chess, mv: &Move, check: bool, mate: bool) -> [f32; FEATURES] {
    PositionFeatures::new(pos).of(mv, check, mate)
}

/// [`features`] for the moves of one position: what they share (material, attacks on a
/// square) is computed once.
pub struct PositionFeatures<'a> {
    pos: &'a Chess,
    /// How far the side to move is behind in material.
    behind: f32,
    /// Per square, once asked: whether the opponent attacks it (board as is).
    defended_by_them: [Option<bool>; 64],
    /// Per from-square, once asked: whether the piece there is attacked, and really threatened.
    escape: [Option<(bool, bool)>; 64],
}

impl<'a> PositionFeatures<'a> {
    /// The features of `pos`, each worked out when first asked for.
    pub fn new(pos: &'a Chess) -> PositionFeatures<'a> {
        let board = pos.board();
        let us = pos.turn();
        let behind = material(board, !us) - material(board, us);
        PositionFeatures { pos, behind, defended_by_them: [None; 64], escape: [None; 64] }
    }

    /// The features of `mv` (see [`features`]).
    pub fn of(&mut self, mv: &Move, check: bool, mate: bool) -> [f32; FEATURES] {
        let pos = self.pos;
        let mut f = [0.0f32; FEATURES];
        let us = pos.turn();
        let them = !us;
        let board = pos.board();
        let occupied = board.occupied();
        let fullmove = u32::from(pos.fullmoves());
        let opening = fullmove <= 12;
        let role = mv.role();
        let to = mv.to();
        let castle = mv.is_castle();
        if let Some(victim) = mv.capture() {
            f[0] = 1.0;
            f[1] = value(victim) / 9.0;
            // Taking back material just lost (a recapture, mostly): the side to move is behind.
            let behind = self.behind;
            // A lesser piece taking a greater one.
            f[31] = (value(victim) - value(role)).max(0.0) / 9.0;
            if behind > 0.0 {
                f[2] = 1.0;
                f[30] = value(victim).min(behind) / 9.0;
            }
            // A capture of an undefended piece ("take what hangs").
            if !matches!(mv, Move::EnPassant { .. }) {
                let defended =
                    *self.defended_by_them[usize::from(to)].get_or_insert_with(|| attacked(board, to, them, occupied));
                if !defended {
                    f[3] = value(victim) / 9.0;
                }
            }
        }
        f[4] = f32::from(u8::from(check));
        f[5] = f32::from(u8::from(mate));
        f[6] = f32::from(u8::from(castle));
        match mv.promotion() {
            Some(Role::Queen) => f[7] = 1.0,
            Some(_) => f[8] = 1.0,
            None => {}
        }
        if !castle {
            match role {
                Role::Pawn => {}
                Role::Knight => f[9] = 1.0,
                Role::Bishop => f[10] = 1.0,
                Role::Rook => f[11] = 1.0,
                Role::Queen => f[12] = 1.0,
                Role::King => f[13] = 1.0,
            }
        }
        let from = mv.from();
        if let (Some(from), false) = (from, castle) {
            let home = relative_rank(from, us) == 0;
            if opening {
                match role {
                    Role::Knight | Role::Bishop => f[if home { 14 } else { 15 }] = 1.0,
                    Role::Queen => f[16] = 1.0,
                    Role::Rook => f[17] = 1.0,
                    Role::King => f[18] = 1.0,
                    Role::Pawn => match u32::from(from.file()) {
                        3 | 4 => f[19] = 1.0,
                        2 | 5 => f[20] = 1.0,
                        _ => f[21] = 1.0,
                    },
                }
            } else if role == Role::King && fullmove > 30 {
                f[22] = 1.0;
            }
            f[23] = centrality(to);
            if role == Role::Knight && matches!(u32::from(to.file()), 0 | 7) {
                f[24] = 1.0;
            }
            // Moving an attacked piece away; more so if it is attacked by a lesser piece or not
            // defended (really threatened).
            if role != Role::Pawn && role != Role::King {
                let (attacked_now, threatened) = *self.escape[usize::from(from)].get_or_insert_with(|| {
                    let attackers = board.attacks_to(from, them, occupied);
                    if !attackers.any() {
                        return (false, false);
                    }
                    let least =
                        attackers.into_iter().filter_map(|sq| board.role_at(sq)).map(value).fold(f32::MAX, f32::min);
                    (true, least < value(role) || !attacked(board, from, us, occupied))
                });
                if attacked_now {
                    f[25] = value(role) / 9.0;
                    if threatened {
                        f[32] = value(role) / 9.0;
                    }
                }
            }
            // Leaving the moved piece where it can be taken: what it loses, defended or not.
            if role != Role::King {
                let loss = value(role) - mv.capture().map(value).unwrap_or(0.0);
                if loss > 0.0 {
                    let after = (occupied ^ Bitboard::from(from)) | Bitboard::from(to);
                    let after = match mv {
                        Move::EnPassant { to, .. } => {
                            let taken = Square::from_coords(to.file(), from.rank());
                            after ^ Bitboard::from(taken)
                        }
                        _ => after,
                    };
                    // Attackers that were captured do not count.
                    let attackers = board.attacks_to(to, them, after) & !Bitboard::from(to);
                    if attackers.any() {
                        let defended = (board.attacks_to(to, us, after) & !Bitboard::from(from)).any();
                        f[if defended { 26 } else { 27 }] = loss / 9.0;
                    }
                }
            }
            // A retreat toward the own back rank (pieces only).
            if role != Role::Pawn && relative_rank(to, us) < relative_rank(from, us) {
                f[28] = 1.0;
            }
            if role == Role::Pawn && relative_rank(to, us).abs_diff(relative_rank(from, us)) == 2 {
                f[29] = 1.0;
            }
        }
        f
    }

    /// The fitted model's logit of `mv` (the weighted sum of [`PositionFeatures::of`]).
    pub fn logit(&mut self, mv: &Move, check: bool, mate: bool) -> f32 {
        logit(&self.of(mv, check, mate))
    }
}

/// The fitted model's logit of a move with features `f`.
fn logit(f: &[f32; FEATURES]) -> f32 {
    f.iter().zip(&WEIGHTS).map(|(x, w)| x * w).sum()
}

/// The mean log of the number of legal moves over the positions of the fitting games (what
/// `scripts/fit_prior.py` prints as "uniform"): a move of that many is an average one.
const MEAN_LN_LEGAL: f32 = 3.388;

/// For each of a position's legal moves (given by their features): the log of its probability
/// under the fitted model, plus `MEAN_LN_LEGAL`. Against the ink, an average move thus costs
/// nothing, so a game going on is not penalized against its ending; and the score stays a
/// probability within the position, so a line is not favoured for leaving more legal moves (a
/// piece kept instead of traded).
pub fn log_odds(feats: &[[f32; FEATURES]]) -> Vec<f32> {
    let mut logits: Vec<f32> = feats.iter().map(logit).collect();
    log_odds_in_place(&mut logits);
    logits
}

/// [`log_odds`] from the moves' logits ([`PositionFeatures::logit`]), in place.
pub fn log_odds_in_place(logits: &mut [f32]) {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    if !max.is_finite() {
        logits.fill(0.0);
        return;
    }
    let lse = max + logits.iter().map(|l| (l - max).exp()).sum::<f32>().ln();
    for l in logits {
        *l = *l - lse + MEAN_LN_LEGAL;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::san::San;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>().expect("fen").into_position(CastlingMode::Standard).expect("legal")
    }

    fn feats_of(p: &Chess, san: &str) -> [f32; FEATURES] {
        let mv = san.parse::<San>().expect("san").to_move(p).expect("legal");
        let mut after = p.clone();
        after.play_unchecked(mv);
        features(p, &mv, after.is_check(), after.is_checkmate())
    }

    #[test]
    fn features_tell_recaptures_hanging_pieces_and_development() {
        // 1. e4 d5 2. exd5: black is a pawn behind, and Qxd5 takes it back.
        let p = pos("rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2");
        let back = feats_of(&p, "Qxd5");
        assert_eq!((back[0], back[2]), (1.0, 1.0));
        assert!((back[30] - 1.0 / 9.0).abs() < 1e-6);
        assert_eq!(back[31], 0.0, "a queen taking a pawn is no lesser piece taking a greater");
        // 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4, white to move: material is level.
        let p = pos("r1bqkbnr/pppp1ppp/8/4p3/2BnP3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let take = feats_of(&p, "Nxd4");
        assert_eq!((take[0], take[2]), (1.0, 0.0));
        assert!((take[1] - 3.0 / 9.0).abs() < 1e-6);
        // Nothing defends e5 now: taking it is free, and the knight then stands attacked by
        // nothing (the queen on d8 does not reach e5).
        let pawn = feats_of(&p, "Nxe5");
        assert!((pawn[3] - 1.0 / 9.0).abs() < 1e-6);
        assert_eq!((pawn[26], pawn[27]), (0.0, 0.0));
        // Bxf7+ gives check and leaves the bishop where the king takes it, undefended: it loses
        // 3 - 1 pawns.
        let sac = feats_of(&p, "Bxf7+");
        assert_eq!(sac[4], 1.0);
        assert!((sac[27] - 2.0 / 9.0).abs() < 1e-6 && sac[26] == 0.0);
        // Castling; a developing knight move from the back rank; a rook move in the opening.
        assert_eq!(feats_of(&p, "O-O")[6], 1.0);
        let dev = feats_of(&p, "Nc3");
        assert_eq!((dev[9], dev[14]), (1.0, 1.0));
        assert_eq!(feats_of(&p, "Rf1")[17], 1.0);
        // The knight on f3 is attacked by the knight on d4 (a piece of equal value, and f3 is
        // defended by the queen and the g-pawn): attacked, but not really threatened.
        let away = feats_of(&p, "Ng5");
        assert!((away[25] - 3.0 / 9.0).abs() < 1e-6);
        assert_eq!(away[32], 0.0);
        // The fitted prior puts the free pawn above hanging the bishop.
        let all: Vec<[f32; FEATURES]> = ["Nxe5", "Bxf7+"].iter().map(|s| feats_of(&p, s)).collect();
        let lo = log_odds(&all);
        assert!(lo[0] > lo[1]);
    }

    #[test]
    fn log_odds_are_a_distribution_shifted_by_a_constant() {
        let p = Chess::default();
        let feats: Vec<_> = p.legal_moves().iter().map(|m| features(&p, m, false, false)).collect();
        let lo = log_odds(&feats);
        let total: f32 = lo.iter().map(|l| (l - MEAN_LN_LEGAL).exp()).sum();
        assert!((total - 1.0).abs() < 1e-4);
    }
}
