//! From a written move to the legal moves it can mean.
//!
//! Tolerant as a human reader is: capture marks "x", "×", ":" (before or after) or none; "e.p.";
//! promotion "d8D", "d8=D", "d8(D)", "d8/D" (or no piece at all: a queen is assumed); castling
//! with zeros or letters, with or without hyphens; check and mate marks; annotation marks;
//! draw offers; disambiguation by file, rank or square; long algebraic with or without hyphen;
//! coordinate notation; and the informal forms players write: "ed", "exd", "dxe", "PxP", "RxR",
//! "NxB", a missing disambiguation, a missing capture mark, a stray "P" prefix, a file letter
//! written in upper case.

use std::fmt;

use shakmaty::{CastlingSide, Chess, File, Move, Position, Rank, Role, Square};

use super::lang::{Lang, skeleton, skeleton_str};

/// How a written move matched a legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatchKind {
    /// Standard notation naming exactly this move.
    Exact,
    /// Standard notation that leaves several legal moves open ("Nd7" with two knights able to go
    /// there): this is one of them.
    Underspecified,
    /// An informal form ("ed", "PxP", "Pe4", a missing promotion piece) that names this move.
    Informal,
}

/// One legal move a writing can mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reading {
    /// The legal move.
    pub mv: Move,
    /// How closely the writing matches it.
    pub kind: MatchKind,
}

/// Why a written move could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Nothing but white space or annotation marks.
    Empty,
    /// The text is not a chess move in this language.
    NotAMove {
        /// The text.
        text: String,
        /// Why it is not a move.
        reason: String,
    },
    /// The text is a move, but no legal move in the position matches it.
    Illegal {
        /// The text.
        text: String,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Empty => write!(f, "empty move"),
            MoveError::NotAMove { text, reason } => write!(f, "\"{text}\" is not a move ({reason})"),
            MoveError::Illegal { text } => write!(f, "\"{text}\" is illegal here"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Marks written after a move that do not change which move it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    /// "+" written.
    pub check: bool,
    /// "#" or "++" written.
    pub mate: bool,
    /// "e.p." written.
    pub en_passant: bool,
    /// "(=)" written: a draw offer.
    pub draw_offer: bool,
    /// "!", "?", "!!", "??", "!?", "?!" as a PGN NAG number.
    pub nag: Option<u8>,
}

/// Splits trailing annotations off a written move: "Kb1(=)" -> ("Kb1", draw offer),
/// "exd6 e.p.+" -> ("exd6", e.p. and check), "Qh5!?" -> ("Qh5", NAG 5).
pub fn split_annotations(text: &str) -> (String, Annotations) {
    let mut ann = Annotations::default();
    let mut s: String = text.trim().to_string();
    loop {
        let before = s.len();
        let t = s.trim_end().to_string();
        s = t;
        for (suffix, nag) in [("!!", 3), ("??", 4), ("!?", 5), ("?!", 6), ("!", 1), ("?", 2)] {
            if let Some(rest) = s.strip_suffix(suffix) {
                ann.nag = ann.nag.or(Some(nag));
                s = rest.to_string();
                break;
            }
        }
        if let Some(rest) = s.strip_suffix("(=)") {
            ann.draw_offer = true;
            s = rest.to_string();
        }
        if let Some(rest) = s.strip_suffix("++").or_else(|| s.strip_suffix('#')) {
            ann.mate = true;
            s = rest.to_string();
        }
        if let Some(rest) = s.strip_suffix('+').or_else(|| s.strip_suffix('†')) {
            ann.check = true;
            s = rest.to_string();
        }
        let sk = skeleton_str(&s);
        for ep in ["e.p.", "e. p.", "e.p", "ep."] {
            if sk.ends_with(ep) && sk.len() > ep.len() {
                // skeleton keeps the byte length of ASCII but not of Cyrillic: cut by chars.
                let n = s.chars().count() - ep.chars().count();
                s = s.chars().take(n).collect();
                ann.en_passant = true;
                break;
            }
        }
        if s.len() == before {
            break;
        }
    }
    (s.trim().to_string(), ann)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Piece(Role),
    /// A pawn letter ("P", Russian "п"), or "P" in a language where it is no piece.
    Pawn,
    File(File),
    /// A file letter written in upper case where that letter is no piece.
    UpperFile(File),
    Rank(Rank),
    Capture,
    Hyphen,
    PromoMark,
    Close,
}

/// A character no move is written with.
struct UnexpectedChar(char);

fn tokenize(text: &str, lang: &Lang) -> Result<Vec<Tok>, UnexpectedChar> {
    let sk: Vec<char> = text.chars().map(skeleton).collect();
    // The language's letters, longest first so "Kp" wins over "K".
    let mut letters: Vec<(Vec<char>, Tok)> =
        lang.letters().map(|(role, l)| (l.chars().map(skeleton).collect(), Tok::Piece(role))).collect();
    match lang.pawn {
        Some(p) => letters.push((p.chars().map(skeleton).collect(), Tok::Pawn)),
        None => {
            if !letters.iter().any(|(l, _)| l == &['P']) {
                letters.push((vec!['P'], Tok::Pawn));
            }
        }
    }
    letters.sort_by_key(|(l, _)| std::cmp::Reverse(l.len()));
    let mut toks = Vec::new();
    let mut i = 0;
    'outer: while i < sk.len() {
        let c = sk[i];
        if c.is_whitespace() || c == '.' && !toks.is_empty() && i + 1 == sk.len() {
            i += 1;
            continue;
        }
        for (l, tok) in &letters {
            if sk[i..].starts_with(l) {
                toks.push(*tok);
                i += l.len();
                continue 'outer;
            }
        }
        let tok = match c {
            'a'..='h' => Tok::File(File::new(c as u32 - 'a' as u32)),
            'A'..='H' => Tok::UpperFile(File::new(c as u32 - 'A' as u32)),
            '1'..='8' => Tok::Rank(Rank::new(c as u32 - '1' as u32)),
            'x' | ':' => Tok::Capture,
            '-' | '–' | '—' => Tok::Hyphen,
            '=' | '/' | '(' => Tok::PromoMark,
            ')' => Tok::Close,
            _ => return Err(UnexpectedChar(text.chars().nth(i).unwrap_or(c))),
        };
        toks.push(tok);
        i += 1;
    }
    Ok(toks)
}

/// What a written (non-castling) move says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Pattern {
    role: Option<Role>,
    pawn_letter: bool,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    to_file: Option<File>,
    to_rank: Option<Rank>,
    capture: bool,
    captured: Option<Role>,
    promotion: Option<Role>,
    upper_file: bool,
}

impl Pattern {
    fn origin_square_given(&self) -> bool {
        self.from_file.is_some() && self.from_rank.is_some()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Coord {
    F(File),
    R(Rank),
}

fn build_pattern(toks: &[Tok]) -> Result<Pattern, &'static str> {
    let mut p = Pattern::default();
    let mut i = 0;
    match toks.first() {
        Some(Tok::Piece(r)) => {
            p.role = Some(*r);
            i = 1;
        }
        Some(Tok::Pawn) => {
            p.role = Some(Role::Pawn);
            p.pawn_letter = true;
            i = 1;
        }
        _ => {}
    }
    let mut coords: Vec<Coord> = Vec::new();
    // Index into coords where a capture or hyphen separated them (the from/to boundary).
    let mut split: Option<usize> = None;
    while i < toks.len() {
        match toks[i] {
            Tok::File(f) => coords.push(Coord::F(f)),
            Tok::UpperFile(f) => {
                p.upper_file = true;
                coords.push(Coord::F(f));
            }
            Tok::Rank(r) => coords.push(Coord::R(r)),
            Tok::Capture => {
                p.capture = true;
                if !coords.is_empty() && split.is_none() {
                    split = Some(coords.len());
                }
            }
            Tok::Hyphen => {
                if coords.is_empty() || split.is_some() {
                    return Err("misplaced hyphen");
                }
                split = Some(coords.len());
            }
            Tok::Piece(_) | Tok::Pawn | Tok::PromoMark | Tok::Close => break,
        }
        i += 1;
    }
    // "PxP", "RxR", "NxB", "BxNe5": a captured piece after the capture mark.
    let captured_role = match (p.capture && coords.is_empty(), toks.get(i)) {
        (true, Some(Tok::Piece(r))) => Some(*r),
        (true, Some(Tok::Pawn)) => Some(Role::Pawn),
        _ => None,
    };
    if let Some(r) = captured_role {
        if r == Role::King {
            return Err("a king cannot be captured");
        }
        p.captured = Some(r);
        i += 1;
        while let Some(&t) = toks.get(i) {
            match t {
                Tok::File(f) => coords.push(Coord::F(f)),
                Tok::Rank(r) => coords.push(Coord::R(r)),
                _ => break,
            }
            i += 1;
        }
    }
    // Promotion: "d8D", "d8=D", "d8(D)", "d8/D".
    if i < toks.len() {
        let mut j = i;
        let mut marked = false;
        if toks[j] == Tok::PromoMark {
            marked = true;
            j += 1;
        }
        match toks.get(j) {
            Some(Tok::Piece(r)) if *r != Role::King && *r != Role::Pawn => {
                p.promotion = Some(*r);
                j += 1;
                if toks.get(j) == Some(&Tok::Close) {
                    j += 1;
                }
                i = j;
            }
            _ if marked => return Err("promotion mark without a piece"),
            _ => {}
        }
    }
    if i < toks.len() {
        return Err("unexpected text after the move");
    }
    let (before, after): (Vec<Coord>, Vec<Coord>) = match split {
        Some(s) if s > 0 && s < coords.len() => (coords[..s].to_vec(), coords[s..].to_vec()),
        _ => (Vec::new(), coords.clone()),
    };
    use Coord::*;
    let assign_to = |p: &mut Pattern, c: &[Coord]| -> Result<(), &'static str> {
        match c {
            [F(f), R(r)] => {
                p.to_file = Some(*f);
                p.to_rank = Some(*r);
            }
            [F(f)] => p.to_file = Some(*f),
            _ => return Err("no target square"),
        }
        Ok(())
    };
    let assign_from = |p: &mut Pattern, c: &[Coord]| -> Result<(), &'static str> {
        match c {
            [F(f), R(r)] => {
                p.from_file = Some(*f);
                p.from_rank = Some(*r);
            }
            [F(f)] => p.from_file = Some(*f),
            [R(r)] => p.from_rank = Some(*r),
            [] => {}
            _ => return Err("bad origin"),
        }
        Ok(())
    };
    if !before.is_empty() {
        assign_from(&mut p, &before)?;
        assign_to(&mut p, &after)?;
    } else {
        // No separator: split by shape.
        match after.as_slice() {
            [] if p.captured.is_some() => {}
            [F(_)] if p.captured.is_some() => assign_to(&mut p, &after)?,
            [F(_), R(_)] => assign_to(&mut p, &after)?,
            [F(f), R(r), F(tf), R(tr)] => {
                p.from_file = Some(*f);
                p.from_rank = Some(*r);
                p.to_file = Some(*tf);
                p.to_rank = Some(*tr);
            }
            [F(f), F(tf), R(tr)] => {
                p.from_file = Some(*f);
                p.to_file = Some(*tf);
                p.to_rank = Some(*tr);
            }
            [R(r), F(tf), R(tr)] => {
                p.from_rank = Some(*r);
                p.to_file = Some(*tf);
                p.to_rank = Some(*tr);
            }
            [F(f), F(tf)] => {
                p.from_file = Some(*f);
                p.to_file = Some(*tf);
            }
            [F(f), R(r), F(tf)] => {
                p.from_file = Some(*f);
                p.from_rank = Some(*r);
                p.to_file = Some(*tf);
            }
            _ => return Err("no target square"),
        }
    }
    if p.to_rank.is_none() && p.captured.is_none() {
        // "ed", "exd": only a pawn capture can be written with files alone.
        if p.role.is_some_and(|r| r != Role::Pawn) || p.from_file.is_none() {
            return Err("no target square");
        }
    }
    Ok(p)
}

fn castle_side(core: &str) -> Option<CastlingSide> {
    let s: String = skeleton_str(core).chars().filter(|c| !c.is_whitespace() && *c != '-' && *c != '–').collect();
    if s.len() < 2 || !s.chars().all(|c| matches!(c, '0' | 'O' | 'o')) {
        return None;
    }
    match s.len() {
        2 => Some(CastlingSide::KingSide),
        3 => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// The square the king lands on, for castling; the move's target otherwise.
fn target(m: &Move) -> Square {
    match *m {
        Move::Castle { king, rook } => {
            let side = if rook.file() > king.file() { CastlingSide::KingSide } else { CastlingSide::QueenSide };
            Square::from_coords(side.king_to_file(), king.rank())
        }
        _ => m.to(),
    }
}

fn promotion_of(m: &Move) -> Option<Role> {
    match *m {
        Move::Normal { promotion, .. } => promotion,
        _ => None,
    }
}

fn matches(p: &Pattern, m: &Move) -> Option<bool> {
    // Returns Some(informal) when `m` fits the pattern.
    let mut informal = false;
    let from = m.from()?;
    let to = target(m);
    match p.role {
        Some(r) => {
            if m.role() != r {
                return None;
            }
        }
        None => {
            if m.role() != Role::Pawn && !p.origin_square_given() {
                return None;
            }
        }
    }
    if p.from_file.is_some_and(|f| f != from.file()) || p.from_rank.is_some_and(|r| r != from.rank()) {
        return None;
    }
    if p.to_file.is_some_and(|f| f != to.file()) || p.to_rank.is_some_and(|r| r != to.rank()) {
        return None;
    }
    if p.capture && !m.is_capture() {
        return None;
    }
    if let Some(c) = p.captured {
        if m.capture() != Some(c) {
            return None;
        }
        informal = true;
    }
    if p.to_rank.is_none() {
        if !m.is_capture() || p.to_file.is_none() && p.captured.is_none() {
            return None;
        }
        informal = true;
    }
    match (p.promotion, promotion_of(m)) {
        (Some(a), Some(b)) if a == b => {}
        (None, None) => {}
        (None, Some(Role::Queen)) => informal = true,
        _ => return None,
    }
    if m.is_castle() {
        // "Kg1", "Ke1-g1", "e1-g1": castling written as a king move.
        informal = informal || p.role.is_some() && !p.origin_square_given();
    }
    if p.pawn_letter && p.captured.is_none() || p.upper_file {
        informal = true;
    }
    Some(informal)
}

/// The legal moves in `pos` that `text`, written in `lang`, can mean.
///
/// `text` may carry annotations (check, mate, "e.p.", "(=)", "!?"): they are ignored here; use
/// [`split_annotations`] to keep them. An empty result is never returned: no match is
/// [`MoveError::Illegal`].
pub fn parse_move(pos: &Chess, text: &str, lang: &Lang) -> Result<Vec<Reading>, MoveError> {
    if lang.descriptive().is_some() {
        return super::descriptive::parse_move(pos, text, lang);
    }
    let (core, _) = split_annotations(text);
    if core.is_empty() {
        return Err(MoveError::Empty);
    }
    if core.chars().count() > 24 {
        return Err(MoveError::NotAMove { text: text.into(), reason: "too long for a move".into() });
    }
    let legal = pos.legal_moves();
    if let Some(side) = castle_side(&core) {
        let found: Vec<Reading> = legal
            .iter()
            .filter(|m| m.castling_side() == Some(side))
            .map(|m| Reading { mv: *m, kind: MatchKind::Exact })
            .collect();
        return if found.is_empty() { Err(MoveError::Illegal { text: text.into() }) } else { Ok(found) };
    }
    let toks = tokenize(&core, lang).map_err(|UnexpectedChar(c)| MoveError::NotAMove {
        text: text.into(),
        reason: format!("unexpected character '{c}'"),
    })?;
    let pattern =
        build_pattern(&toks).map_err(|reason| MoveError::NotAMove { text: text.into(), reason: reason.into() })?;
    let mut found: Vec<Reading> = legal
        .iter()
        .filter_map(|m| {
            matches(&pattern, m)
                .map(|informal| Reading { mv: *m, kind: if informal { MatchKind::Informal } else { MatchKind::Exact } })
        })
        .collect();
    if found.is_empty() {
        return Err(MoveError::Illegal { text: text.into() });
    }
    if found.len() > 1 {
        for r in &mut found {
            if r.kind == MatchKind::Exact {
                r.kind = MatchKind::Underspecified;
            }
        }
    }
    Ok(found)
}
