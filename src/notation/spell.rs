//! From a legal move to the ways a player writes it.
//!
//! [`spell`] writes one move in one language and one writer's [`Style`]; [`spellings`] lists every
//! plausible way, for the decoder to score against the ink. Every string produced parses back to
//! exactly the move it was made from (tested over random positions in every language).

use rand::Rng;
use shakmaty::{CastlingSide, Chess, File, Move, Position, Rank, Role, Square};

use super::lang::Lang;
use super::parse::parse_move;

/// How a writer marks a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CaptureMark {
    /// "Nxf3", "exd5".
    #[default]
    X,
    /// "N:f3", "e:d5".
    Colon,
    /// "Nf3:", "ed5:".
    ColonAfter,
    /// "Nf3", "ed5".
    Omitted,
}

/// How a writer marks check and mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CheckMark {
    /// No marks at all.
    Omitted,
    /// "+" for check, "#" for mate.
    #[default]
    Plus,
    /// "+" for check, "++" for mate.
    PlusPlus,
}

/// How a writer writes castling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CastleStyle {
    /// "O-O", "O-O-O".
    #[default]
    Letters,
    /// "0-0", "0-0-0".
    Zeros,
}

/// How a writer writes the promoted piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PromotionStyle {
    /// "d8=Q".
    #[default]
    Equals,
    /// "d8Q".
    Bare,
    /// "d8(Q)".
    Parens,
    /// "d8/Q".
    Slash,
}

/// Short, long or coordinate algebraic notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MoveForm {
    /// "Nf3", "e4".
    #[default]
    Short,
    /// "Ng1-f3", "e2-e4" (hyphen) or "Ng1f3", "e2e4".
    Long { hyphen: bool },
    /// "g1-f3": squares only, a letter only for the promoted piece.
    Coordinate,
}

/// How a writer writes pawn captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PawnCaptureStyle {
    /// "exd5" (or "ed5" without the capture mark).
    #[default]
    Square,
    /// "exd" / "ed": files only, when that names one move.
    Files,
}

/// One writer's habits, kept for a whole sheet.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Style {
    pub capture: CaptureMark,
    pub check: CheckMark,
    pub castle: CastleStyle,
    pub promotion: PromotionStyle,
    pub form: MoveForm,
    pub pawn_capture: PawnCaptureStyle,
    /// Append " e.p." to en-passant captures.
    pub ep_suffix: bool,
}

impl Style {
    /// A plausible writer: mostly standard short notation, with the habits real sheets show at
    /// roughly the rates they show them.
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Style {
        let capture = match rng.gen_range(0..100) {
            0..=64 => CaptureMark::X,
            65..=69 => CaptureMark::Colon,
            70..=72 => CaptureMark::ColonAfter,
            _ => CaptureMark::Omitted,
        };
        let check = match rng.gen_range(0..100) {
            0..=59 => CheckMark::Plus,
            60..=69 => CheckMark::PlusPlus,
            _ => CheckMark::Omitted,
        };
        let castle = if rng.gen_bool(0.5) { CastleStyle::Letters } else { CastleStyle::Zeros };
        let promotion = match rng.gen_range(0..10) {
            0..=4 => PromotionStyle::Equals,
            5..=7 => PromotionStyle::Bare,
            8 => PromotionStyle::Parens,
            _ => PromotionStyle::Slash,
        };
        let form = match rng.gen_range(0..100) {
            0..=87 => MoveForm::Short,
            88..=93 => MoveForm::Long { hyphen: true },
            94..=97 => MoveForm::Long { hyphen: false },
            _ => MoveForm::Coordinate,
        };
        let pawn_capture = if form == MoveForm::Short && rng.gen_bool(0.15) {
            PawnCaptureStyle::Files
        } else {
            PawnCaptureStyle::Square
        };
        Style { capture, check, castle, promotion, form, pawn_capture, ep_suffix: rng.gen_bool(0.3) }
    }
}

fn file_char(f: File) -> char {
    f.char()
}

fn rank_char(r: Rank) -> char {
    r.char()
}

fn push_square(s: &mut String, sq: Square) {
    s.push(file_char(sq.file()));
    s.push(rank_char(sq.rank()));
}

fn promotion_suffix(s: &mut String, lang: &Lang, role: Role, style: PromotionStyle) {
    let letter = lang.piece_letter(role);
    match style {
        PromotionStyle::Equals => {
            s.push('=');
            s.push_str(letter);
        }
        PromotionStyle::Bare => s.push_str(letter),
        PromotionStyle::Parens => {
            s.push('(');
            s.push_str(letter);
            s.push(')');
        }
        PromotionStyle::Slash => {
            s.push('/');
            s.push_str(letter);
        }
    }
}

/// The check/mate suffix of `mv` played in `pos`, in `style`.
fn check_suffix(pos: &Chess, mv: &Move, style: CheckMark) -> &'static str {
    if style == CheckMark::Omitted {
        return "";
    }
    let mut after = pos.clone();
    after.play_unchecked(*mv);
    if after.is_checkmate() {
        if style == CheckMark::PlusPlus { "++" } else { "#" }
    } else if after.is_check() {
        "+"
    } else {
        ""
    }
}

/// The minimal disambiguation SAN needs for a piece move: (file, rank).
fn disambiguation(pos: &Chess, mv: &Move) -> (bool, bool) {
    let (role, from, to) = match *mv {
        Move::Normal { role, from, to, .. } if role != Role::Pawn && role != Role::King => (role, from, to),
        _ => return (false, false),
    };
    let others: Vec<Square> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.role() == role && m.to() == to && m.from() != Some(from) && !m.is_castle())
        .filter_map(|m| m.from())
        .collect();
    if others.is_empty() {
        return (false, false);
    }
    if others.iter().all(|o| o.file() != from.file()) {
        (true, false)
    } else if others.iter().all(|o| o.rank() != from.rank()) {
        (false, true)
    } else {
        (true, true)
    }
}

/// Whether `text` reads as `mv` and nothing else.
fn names_only(pos: &Chess, text: &str, lang: &Lang, mv: &Move) -> bool {
    matches!(parse_move(pos, text, lang), Ok(r) if r.len() == 1 && r[0].mv == *mv)
}

/// The body of a move (no check suffix) in one form.
fn body(pos: &Chess, mv: &Move, lang: &Lang, style: &Style) -> String {
    let mut s = String::new();
    if let Some(side) = mv.castling_side() {
        let o = if style.castle == CastleStyle::Zeros { "0" } else { "O" };
        s.push_str(o);
        s.push('-');
        s.push_str(o);
        if side == CastlingSide::QueenSide {
            s.push('-');
            s.push_str(o);
        }
        return s;
    }
    let (role, from, to, capture, promotion) = match *mv {
        Move::Normal { role, from, to, capture, promotion } => (role, from, to, capture.is_some(), promotion),
        Move::EnPassant { from, to } => (Role::Pawn, from, to, true, None),
        _ => return s,
    };
    let (mark_before, mark_after) = match style.capture {
        CaptureMark::X => ("x", ""),
        CaptureMark::Colon => (":", ""),
        CaptureMark::ColonAfter => ("", ":"),
        CaptureMark::Omitted => ("", ""),
    };
    match style.form {
        MoveForm::Coordinate => {
            push_square(&mut s, from);
            s.push('-');
            push_square(&mut s, to);
        }
        MoveForm::Long { hyphen } => {
            s.push_str(lang.piece_letter(role));
            push_square(&mut s, from);
            if capture && style.capture != CaptureMark::Omitted && style.capture != CaptureMark::ColonAfter {
                s.push_str(mark_before);
            } else if hyphen {
                s.push('-');
            }
            push_square(&mut s, to);
            if capture {
                s.push_str(mark_after);
            }
        }
        MoveForm::Short => {
            if role == Role::Pawn {
                if capture {
                    s.push(file_char(from.file()));
                    s.push_str(mark_before);
                    if style.pawn_capture == PawnCaptureStyle::Files {
                        s.push(file_char(to.file()));
                    } else {
                        push_square(&mut s, to);
                    }
                    s.push_str(mark_after);
                } else {
                    push_square(&mut s, to);
                }
            } else {
                s.push_str(lang.piece_letter(role));
                let (f, r) = disambiguation(pos, mv);
                if f {
                    s.push(file_char(from.file()));
                }
                if r {
                    s.push(rank_char(from.rank()));
                }
                if capture {
                    s.push_str(mark_before);
                }
                push_square(&mut s, to);
                if capture {
                    s.push_str(mark_after);
                }
            }
        }
    }
    if let Some(p) = promotion {
        promotion_suffix(&mut s, lang, p, style.promotion);
    }
    s
}

/// How a writer with `style` writes `mv` (legal in `pos`) in `lang`.
///
/// Where the style's informal pawn capture ("ed") would not name one move, the square is written.
pub fn spell(pos: &Chess, mv: &Move, lang: &Lang, style: &Style) -> String {
    let mut text = body(pos, mv, lang, style);
    if style.pawn_capture == PawnCaptureStyle::Files
        && mv.role() == Role::Pawn
        && mv.is_capture()
        && !names_only(pos, &text, lang, mv)
    {
        let fallback = Style { pawn_capture: PawnCaptureStyle::Square, ..style.clone() };
        text = body(pos, mv, lang, &fallback);
    }
    if style.ep_suffix && matches!(mv, Move::EnPassant { .. }) {
        text.push_str(" e.p.");
    }
    text.push_str(check_suffix(pos, mv, style.check));
    text
}

/// The habits a spelling shows, for a decoder to weigh how likely a writer is to use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    pub form: MoveForm,
    /// The capture mark used (`X` for moves that capture nothing).
    pub capture: CaptureMark,
    pub castle: CastleStyle,
    pub promotion: PromotionStyle,
    /// "ed", "exd": files only.
    pub pawn_files: bool,
    /// "PxP", "RxR", "NxB".
    pub piece_takes_piece: bool,
    /// The check or mate mark the move deserves is left out.
    pub check_omitted: bool,
    /// Mate written "++".
    pub mate_plusplus: bool,
    /// "e.p." written.
    pub ep_suffix: bool,
    /// The disambiguation the move needs is left out ("Nd7" for one of two knights): this
    /// spelling also reads as the other moves.
    pub underspecified: bool,
}

/// One way of writing a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spelling {
    pub text: String,
    pub variant: Variant,
}

/// Every plausible way a player may write `mv` (legal in `pos`) in `lang`, without duplicates,
/// the standard short form first. Each parses back to exactly `mv`.
///
/// Covers: capture mark x, ":" before or after, or none; check marks "+", "#", "++" or none;
/// castling with letters or zeros; promotion "=Q", "Q", "(Q)", "/Q"; long algebraic with and
/// without hyphen; coordinate notation; informal pawn captures ("ed", "exd"), "PxP"; "e.p.".
pub fn spellings(pos: &Chess, mv: &Move, lang: &Lang) -> Vec<String> {
    spelling_variants(pos, mv, lang).into_iter().filter(|s| !s.variant.underspecified).map(|s| s.text).collect()
}

/// [`spellings`] with the habits each shows, plus the under-specified forms a player may write
/// when the move needs disambiguation ("Nd7", flagged [`Variant::underspecified`]: those also
/// read as another move).
pub fn spelling_variants(pos: &Chess, mv: &Move, lang: &Lang) -> Vec<Spelling> {
    let mut out: Vec<Spelling> = Vec::new();
    let push = |text: String, variant: Variant, out: &mut Vec<Spelling>| {
        if !out.iter().any(|s| s.text == text) {
            out.push(Spelling { text, variant });
        }
    };
    let is_capture = mv.is_capture();
    let is_pawn = mv.role() == Role::Pawn;
    let is_promo = matches!(mv, Move::Normal { promotion: Some(_), .. });
    let is_castle = mv.is_castle();
    let forms: &[MoveForm] = if is_castle {
        &[MoveForm::Short]
    } else {
        &[MoveForm::Short, MoveForm::Long { hyphen: true }, MoveForm::Long { hyphen: false }, MoveForm::Coordinate]
    };
    let captures: &[CaptureMark] = if is_capture {
        &[CaptureMark::X, CaptureMark::Omitted, CaptureMark::Colon, CaptureMark::ColonAfter]
    } else {
        &[CaptureMark::X]
    };
    let castles: &[CastleStyle] =
        if is_castle { &[CastleStyle::Letters, CastleStyle::Zeros] } else { &[CastleStyle::Letters] };
    let promos: &[PromotionStyle] = if is_promo {
        &[PromotionStyle::Equals, PromotionStyle::Bare, PromotionStyle::Parens, PromotionStyle::Slash]
    } else {
        &[PromotionStyle::Equals]
    };
    let pawn_caps: &[PawnCaptureStyle] = if is_pawn && is_capture {
        &[PawnCaptureStyle::Square, PawnCaptureStyle::Files]
    } else {
        &[PawnCaptureStyle::Square]
    };
    // (suffix, check omitted, mate as "++")
    let checks: Vec<(&'static str, bool, bool)> = {
        let plus = check_suffix(pos, mv, CheckMark::Plus);
        let plusplus = check_suffix(pos, mv, CheckMark::PlusPlus);
        let mut v = vec![(plus, false, false)];
        if !plus.is_empty() {
            v.push(("", true, false));
        }
        if plusplus != plus {
            v.push((plusplus, false, true));
        }
        v
    };
    let ep = matches!(mv, Move::EnPassant { .. });
    let (needs_file, needs_rank) = disambiguation(pos, mv);
    let base = Variant {
        form: MoveForm::Short,
        capture: CaptureMark::X,
        castle: CastleStyle::Letters,
        promotion: PromotionStyle::Equals,
        pawn_files: false,
        piece_takes_piece: false,
        check_omitted: false,
        mate_plusplus: false,
        ep_suffix: false,
        underspecified: false,
    };
    for &form in forms {
        for &capture in captures {
            for &castle in castles {
                for &promotion in promos {
                    for &pawn_capture in pawn_caps {
                        if pawn_capture == PawnCaptureStyle::Files && form != MoveForm::Short {
                            continue;
                        }
                        if form == MoveForm::Coordinate && capture != CaptureMark::X {
                            continue;
                        }
                        let style = Style {
                            capture,
                            check: CheckMark::Omitted,
                            castle,
                            promotion,
                            form,
                            pawn_capture,
                            ep_suffix: false,
                        };
                        let pawn_files = pawn_capture == PawnCaptureStyle::Files;
                        let b = body(pos, mv, lang, &style);
                        if pawn_files && !names_only(pos, &b, lang, mv) {
                            continue;
                        }
                        let v = Variant { form, capture, castle, promotion, pawn_files, ..base };
                        for &(suffix, check_omitted, mate_plusplus) in &checks {
                            let v = Variant { check_omitted, mate_plusplus, ..v };
                            push(format!("{b}{suffix}"), v, &mut out);
                            if ep {
                                let v = Variant { ep_suffix: true, ..v };
                                push(format!("{b} e.p.{suffix}"), v, &mut out);
                                push(format!("{b}e.p.{suffix}"), v, &mut out);
                            }
                        }
                        // The same without the disambiguation it needs.
                        if form == MoveForm::Short && (needs_file || needs_rank) {
                            let letter = lang.piece_letter(mv.role());
                            let mut plain = String::from(letter);
                            let from = mv.from().expect("a piece move has an origin");
                            let mut rest = &b[letter.len()..];
                            if needs_file {
                                rest = rest.strip_prefix(file_char(from.file())).unwrap_or(rest);
                            }
                            if needs_rank {
                                rest = rest.strip_prefix(rank_char(from.rank())).unwrap_or(rest);
                            }
                            plain.push_str(rest);
                            let v = Variant { underspecified: true, ..v };
                            for &(suffix, check_omitted, mate_plusplus) in &checks {
                                push(
                                    format!("{plain}{suffix}"),
                                    Variant { check_omitted, mate_plusplus, ..v },
                                    &mut out,
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    // "PxP", "RxR", "NxB": piece takes piece, where that names one move.
    if let (Some(captured), false) = (mv.capture(), ep) {
        let mover = match mv.role() {
            Role::Pawn => lang.pawn.unwrap_or(""),
            r => lang.piece_letter(r),
        };
        let victim = match captured {
            Role::Pawn => lang.pawn.unwrap_or(""),
            r => lang.piece_letter(r),
        };
        if !mover.is_empty() && !victim.is_empty() {
            let text = format!("{mover}x{victim}");
            if names_only(pos, &text, lang, mv) {
                for &(suffix, check_omitted, mate_plusplus) in &checks {
                    let v = Variant { piece_takes_piece: true, check_omitted, mate_plusplus, ..base };
                    push(format!("{text}{suffix}"), v, &mut out);
                }
            }
        }
    }
    out
}

/// Standard English SAN with check and mate marks, as PGN writes it.
pub fn english_san(pos: &Chess, mv: &Move) -> String {
    shakmaty::san::SanPlus::from_move(pos.clone(), *mv).to_string()
}
