//! Descriptive notation, both ways: "P-K4", "N-KB3", "QxQch", "P-K8(Q)" in English, "P4R",
//! "C3AR", "AxC" in Spanish.
//!
//! A square is named from the mover's side: its file by the piece that stands on it at the start
//! (QR QN QB Q K KB KN KR; Spanish TD CD AD D R AR CR TR), its rank counted from the mover's first
//! rank, so White's K4 is e4 and Black's K4 is e5. A file of rook, knight or bishop may be written
//! without its wing ("B4": QB4 or KB4) where the legal moves leave one meaning. A piece may be
//! named by its wing (KN, QR: the one on the king's or the queen's half of the board, files e to h
//! or a to d), a pawn by its file (KP, QBP, BP), a piece by the square or rank it stands on
//! (R/Q1, R/1); a capture names the piece taken (PxP, BxN, NxKP, PxBP, PxP/Q4).
//!
//! Both directions go through one list of written forms (`FORMS`): a move's spellings are the
//! texts of its forms that no other legal move shares, and a written move means the legal moves
//! one of whose forms reads as it. So every spelling parses back to exactly its move.

use rustc_hash::FxHashMap as HashMap;
use shakmaty::{CastlingSide, Chess, Color, File, Move, MoveList, Position, Rank, Role, Square};

use super::lang::{Lang, WordOrder};
use super::parse::{MatchKind, MoveError, Reading, split_annotations};
use super::spell::{CastleStyle, CheckMark, MoveForm, PromotionStyle, Spelling, Style, Variant};

/// How the moving piece is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mover {
    /// "N", "P".
    Letter,
    /// A piece by its wing ("KN", Spanish "CR"); a pawn by its whole file ("KBP", "PAR").
    Wing,
    /// A pawn by its file without the wing ("BP", Spanish "PA").
    ShortFile,
    /// A piece by the rank it stands on ("R/1").
    FromRank,
    /// A piece by the square it stands on ("R/Q1").
    FromSquare,
}

/// How the move's goal is named: the square moved to, or the piece taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Goal {
    /// "KB3", Spanish "3AR".
    Square,
    /// "B3", Spanish "3A" (rook, knight and bishop files only).
    ShortSquare,
    /// "P", "N": the piece taken.
    Victim,
    /// "KN", "QBP" (Spanish "CR", "PAD"): the piece taken, by its wing or file.
    QualifiedVictim,
    /// "BP" (Spanish "PA"): a pawn taken, by its file without the wing.
    ShortFileVictim,
    /// "P/Q4": the piece taken and its square.
    VictimSquare,
    /// "P/B4": the piece taken and its square without the wing.
    VictimShortSquare,
}

/// The written forms: every way of naming the mover with every way of naming the square moved
/// to (moves) or the piece taken (captures).
const FORMS: [(Mover, Goal); 35] = {
    const MOVERS: [Mover; 5] = [Mover::Letter, Mover::ShortFile, Mover::Wing, Mover::FromRank, Mover::FromSquare];
    const GOALS: [Goal; 7] = [
        Goal::ShortSquare,
        Goal::Square,
        Goal::Victim,
        Goal::ShortFileVictim,
        Goal::QualifiedVictim,
        Goal::VictimShortSquare,
        Goal::VictimSquare,
    ];
    let mut forms = [(Mover::Letter, Goal::Square); 35];
    let mut i = 0;
    while i < 35 {
        forms[i] = (MOVERS[i / 7], GOALS[i % 7]);
        i += 1;
    }
    forms
};

/// Bit of [`SpellKey`](super::SpellKey)'s descriptive field saying Black moves (the forms take
/// bits 0 to 34).
pub(crate) const BLACK_BIT: u64 = 1 << 40;

fn is_capture_goal(goal: Goal) -> bool {
    !matches!(goal, Goal::Square | Goal::ShortSquare)
}

/// The words of one descriptive notation: its letters and word order.
#[derive(Clone, Copy)]
struct Words<'a> {
    lang: &'a Lang,
    order: WordOrder,
}

impl<'a> Words<'a> {
    fn new(lang: &'a Lang) -> Option<Words<'a>> {
        lang.descriptive().map(|order| Words { lang, order })
    }

    fn letter(&self, role: Role) -> &'static str {
        if role == Role::Pawn { self.lang.pawn.unwrap_or("P") } else { self.lang.piece_letter(role) }
    }

    /// The wing letter of a file: the king's (files e to h) or the queen's.
    fn wing(&self, file: File) -> &'static str {
        self.letter(if file >= File::E { Role::King } else { Role::Queen })
    }

    /// A wing and a piece letter in the language's order: "KN", Spanish "CR".
    fn with_wing(&self, wing: &str, letter: &str) -> String {
        match self.order {
            WordOrder::English => format!("{wing}{letter}"),
            WordOrder::Spanish => format!("{letter}{wing}"),
        }
    }

    /// The piece a file is named by, where it is a rook's, knight's or bishop's.
    fn file_piece(file: File) -> Option<Role> {
        match file {
            File::A | File::H => Some(Role::Rook),
            File::B | File::G => Some(Role::Knight),
            File::C | File::F => Some(Role::Bishop),
            _ => None,
        }
    }

    /// A file's whole name: "QR", "K", "KB"; Spanish "TD", "R", "AR".
    fn file_name(&self, file: File) -> String {
        match Self::file_piece(file) {
            Some(role) => self.with_wing(self.wing(file), self.letter(role)),
            None => self.wing(file).to_string(),
        }
    }

    /// A file's name without its wing ("B"), for rook, knight and bishop files.
    fn short_file_name(&self, file: File) -> Option<&'static str> {
        Self::file_piece(file).map(|role| self.letter(role))
    }

    /// A rank counted from `color`'s side.
    fn rank_name(color: Color, rank: Rank) -> char {
        let n = if color == Color::White { rank as u32 + 1 } else { 8 - rank as u32 };
        char::from_digit(n, 10).unwrap_or('?')
    }

    /// A square named from `color`'s side ("KB3", Spanish "3AR"); `short`: without the wing
    /// (None on the king's and queen's files).
    fn square(&self, color: Color, sq: Square, short: bool) -> Option<String> {
        let file = if short { self.short_file_name(sq.file())?.to_string() } else { self.file_name(sq.file()) };
        let rank = Self::rank_name(color, sq.rank());
        Some(match self.order {
            WordOrder::English => format!("{file}{rank}"),
            WordOrder::Spanish => format!("{rank}{file}"),
        })
    }

    /// A pawn named by its file ("KBP", "BP"; Spanish "PAR", "PA").
    fn pawn_on(&self, file: File, short: bool) -> Option<String> {
        let name = if short { self.short_file_name(file)?.to_string() } else { self.file_name(file) };
        let p = self.letter(Role::Pawn);
        Some(match self.order {
            WordOrder::English => format!("{name}{p}"),
            WordOrder::Spanish => format!("{p}{name}"),
        })
    }

    /// The moving piece in `mover`'s way, None where the way does not apply to it. `swap_wing`
    /// names a piece's wing the other way (a reader's fallback, see [`parse_move`]).
    fn mover(&self, mover: Mover, color: Color, role: Role, from: Square, swap_wing: bool) -> Option<String> {
        let letter = self.letter(role);
        match (mover, role) {
            (Mover::Letter, _) => Some(letter.to_string()),
            (Mover::Wing, Role::Pawn) => self.pawn_on(from.file(), false),
            (Mover::Wing, Role::Rook | Role::Knight | Role::Bishop) => {
                let own = from.file() >= File::E;
                let king_side = own != swap_wing;
                Some(self.with_wing(self.wing(if king_side { File::E } else { File::D }), letter))
            }
            (Mover::ShortFile, Role::Pawn) => self.pawn_on(from.file(), true),
            (Mover::FromRank, r) if r != Role::Pawn && r != Role::King => {
                Some(format!("{letter}/{}", Self::rank_name(color, from.rank())))
            }
            (Mover::FromSquare, r) if r != Role::Pawn && r != Role::King => {
                Some(format!("{letter}/{}", self.square(color, from, false)?))
            }
            _ => None,
        }
    }

    /// The piece taken, by its wing or file ("KN", "QBP"), or None for a queen.
    fn qualified_victim(&self, victim: Role, at: Square, short: bool, swap_wing: bool) -> Option<String> {
        match victim {
            Role::Pawn => self.pawn_on(at.file(), short),
            Role::Rook | Role::Knight | Role::Bishop if !short => {
                let own = at.file() >= File::E;
                let king_side = own != swap_wing;
                Some(self.with_wing(self.wing(if king_side { File::E } else { File::D }), self.letter(victim)))
            }
            _ => None,
        }
    }

    /// The text of `mv` (played by `color`) in one form, None where the form does not apply.
    /// The promoted piece is written "=Q"; no check mark.
    fn text(&self, form: (Mover, Goal), color: Color, mv: &Move, swap_wing: bool) -> Option<String> {
        let (role, from, to, victim, promotion) = match *mv {
            Move::Normal { role, from, to, capture, promotion } => (role, from, to, capture, promotion),
            Move::EnPassant { from, to } => (Role::Pawn, from, to, Some(Role::Pawn), None),
            _ => return None,
        };
        let (mover, goal) = form;
        if victim.is_some() != is_capture_goal(goal) {
            return None;
        }
        let who = self.mover(mover, color, role, from, swap_wing)?;
        let what = match (goal, victim) {
            (Goal::Square, _) => self.square(color, to, false)?,
            (Goal::ShortSquare, _) => self.square(color, to, true)?,
            (Goal::Victim, Some(v)) => self.letter(v).to_string(),
            (Goal::QualifiedVictim, Some(v)) => self.qualified_victim(v, to, false, swap_wing)?,
            (Goal::ShortFileVictim, Some(v)) => self.qualified_victim(v, to, true, swap_wing)?,
            (Goal::VictimSquare, Some(v)) => format!("{}/{}", self.letter(v), self.square(color, to, false)?),
            (Goal::VictimShortSquare, Some(v)) => format!("{}/{}", self.letter(v), self.square(color, to, true)?),
            _ => return None,
        };
        let join = match (victim.is_some(), self.order) {
            (true, _) => "x",
            (false, WordOrder::English) => "-",
            (false, WordOrder::Spanish) => "",
        };
        let mut s = format!("{who}{join}{what}");
        if let Some(p) = promotion {
            s.push('=');
            s.push_str(self.letter(p));
        }
        Some(s)
    }

    /// Every form's text of `mv`, by form index (hyphens kept).
    fn texts(&self, color: Color, mv: &Move, swap_wing: bool) -> Vec<(usize, String)> {
        FORMS.iter().enumerate().filter_map(|(i, f)| Some((i, self.text(*f, color, mv, swap_wing)?))).collect()
    }

    fn castle(&self, side: CastlingSide, zeros: bool) -> &'static str {
        match (side, zeros) {
            (CastlingSide::KingSide, false) => "O-O",
            (CastlingSide::QueenSide, false) => "O-O-O",
            (CastlingSide::KingSide, true) => "0-0",
            (CastlingSide::QueenSide, true) => "0-0-0",
        }
    }
}

/// What a text is compared by: hyphens, dashes and white space left out.
fn compared(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace() && !matches!(c, '-' | '–' | '—')).collect()
}

/// Which texts name a legal move of a position alone: a text (compared without hyphens) that
/// one legal move writes and no other.
pub(crate) struct Writers {
    /// Each legal move with the forms (bits by index in `FORMS`) whose text names it alone;
    /// empty where the notation is not descriptive.
    unique: Vec<(Move, u64)>,
}

impl Writers {
    /// The texts of every legal move of `pos` in `lang` (a descriptive notation), each written
    /// once and counted over the moves.
    pub(crate) fn new(pos: &Chess, legal: &MoveList, lang: &Lang) -> Writers {
        let Some(words) = Words::new(lang) else { return Writers { unique: Vec::new() } };
        let color = pos.turn();
        let texts: Vec<Vec<(usize, String)>> = legal
            .iter()
            .map(|m| words.texts(color, m, false).into_iter().map(|(i, t)| (i, compared(&t))).collect())
            .collect();
        let mut counts: HashMap<&str, u8> = HashMap::default();
        let mut seen: Vec<&str> = Vec::new();
        for move_texts in &texts {
            seen.clear();
            for (_, t) in move_texts {
                if !seen.contains(&t.as_str()) {
                    *counts.entry(t).or_insert(0) += 1;
                    seen.push(t);
                }
            }
        }
        let unique = legal
            .iter()
            .zip(&texts)
            .map(|(m, move_texts)| {
                let alone = move_texts.iter().filter(|(_, t)| counts.get(t.as_str()) == Some(&1));
                (*m, alone.fold(0, |mask, (i, _)| mask | 1 << i))
            })
            .collect();
        Writers { unique }
    }

    /// The forms (bits by index in `FORMS`) whose text names `mv` (one of the legal moves) alone,
    /// with [`BLACK_BIT`] where Black moves; 0 where the notation is not descriptive.
    pub(crate) fn unique_forms(&self, color: Color, mv: &Move) -> u64 {
        if self.unique.is_empty() {
            return 0;
        }
        let mask = self.unique.iter().find(|(m, _)| m == mv).map_or(0, |(_, mask)| *mask);
        mask | if color == Color::Black { BLACK_BIT } else { 0 }
    }
}

/// The unique forms' texts of a move from its key's descriptive field, shortest first (the
/// minimal unambiguous form), then the fuller ones in `FORMS` order.
fn unique_texts(words: &Words<'_>, mv: &Move, forms: u64) -> Vec<String> {
    let color = if forms & BLACK_BIT != 0 { Color::Black } else { Color::White };
    let mut texts: Vec<(usize, String)> =
        words.texts(color, mv, false).into_iter().filter(|(i, _)| forms & (1 << i) != 0).collect();
    // (a stable sort: equal lengths keep the forms' order)
    texts.sort_by_key(|(_, t)| compared(t).chars().count());
    texts.into_iter().map(|(_, t)| t).collect()
}

/// Which of a move's unique texts a writer with `form` writes: short form, the minimal one;
/// long with hyphen, the first naming the whole square or the piece taken by wing or file
/// ("N-KB3", "PxQP"); otherwise the fullest without an origin square ("KN-KB3", "KPxQP").
fn pick_text(words: &Words<'_>, mv: &Move, forms: u64, form: MoveForm) -> Option<String> {
    let color = if forms & BLACK_BIT != 0 { Color::Black } else { Color::White };
    let unique = |i: usize| forms & (1 << i) != 0;
    let minimal = unique_texts(words, mv, forms).into_iter().next();
    let full = |goals: &[Goal], fullest: bool| {
        let mut found: Vec<usize> = (0..FORMS.len())
            .filter(|&i| unique(i))
            .filter(|&i| !matches!(FORMS[i].0, Mover::FromRank | Mover::FromSquare))
            .filter(|&i| goals.contains(&FORMS[i].1))
            .collect();
        if fullest {
            found.reverse();
        }
        found.first().and_then(|&i| words.text(FORMS[i], color, mv, false))
    };
    let goals = [Goal::Square, Goal::QualifiedVictim];
    let chosen = match form {
        MoveForm::Short => None,
        MoveForm::Long { hyphen: true } => full(&goals, false),
        _ => full(&goals, true),
    };
    chosen.or(minimal)
}

/// The check or mate mark a writer with `style` adds: "+" / "#"; with the "++" habit, English
/// writers write check "ch" and mate "++".
fn check_mark(order: WordOrder, check: bool, mate: bool, style: CheckMark) -> &'static str {
    match (style, mate, check) {
        (CheckMark::Omitted, _, _) | (_, false, false) => "",
        (CheckMark::Plus, true, _) => "#",
        (CheckMark::PlusPlus, true, _) => "++",
        (CheckMark::PlusPlus, false, true) if order == WordOrder::English => "ch",
        _ => "+",
    }
}

/// The promoted piece in a writer's style: "=Q", "(Q)", "/Q", or bare "Q" right after the
/// eighth rank ("P-K8Q"; elsewhere, as in "PxR" or Spanish "P8R", it is written "=Q").
fn promotion_mark(plain: &str, words: &Words<'_>, role: Role, style: PromotionStyle) -> String {
    let l = words.letter(role);
    match style {
        PromotionStyle::Equals => format!("={l}"),
        PromotionStyle::Bare if plain.ends_with('8') => l.to_string(),
        PromotionStyle::Bare => format!("={l}"),
        PromotionStyle::Parens => format!("({l})"),
        PromotionStyle::Slash => format!("/{l}"),
    }
}

/// A text's promotion written "=Q" put in `style`.
fn restyle_promotion(words: &Words<'_>, text: &str, mv: &Move, style: PromotionStyle) -> String {
    match *mv {
        Move::Normal { promotion: Some(p), .. } => {
            let plain = text.strip_suffix(&format!("={}", words.letter(p))).unwrap_or(text);
            format!("{plain}{}", promotion_mark(plain, words, p, style))
        }
        _ => text.to_string(),
    }
}

/// How a writer with `style` writes `mv` (legal in `pos`) in `lang`, a descriptive notation.
pub(crate) fn spell(pos: &Chess, mv: &Move, lang: &Lang, style: &Style) -> String {
    let Some(words) = Words::new(lang) else { return String::new() };
    let legal = pos.legal_moves();
    let mut after = pos.clone();
    after.play_unchecked(*mv);
    let mark = check_mark(words.order, after.is_check(), after.is_checkmate(), style.check);
    let sep = if mark == "ch" { " " } else { "" };
    if let Some(side) = mv.castling_side() {
        return format!("{}{sep}{mark}", words.castle(side, style.castle == CastleStyle::Zeros));
    }
    let forms = Writers::new(pos, &legal, lang).unique_forms(pos.turn(), mv);
    let text = pick_text(&words, mv, forms, style.form).unwrap_or_default();
    let mut text = restyle_promotion(&words, &text, mv, style.promotion);
    if style.ep_suffix && matches!(mv, Move::EnPassant { .. }) {
        text.push_str(" e.p.");
    }
    format!("{text}{sep}{mark}")
}

/// The spellings of a move from its key's parts (see [`super::spell_key_with_habits`]): the
/// minimal unambiguous form (habit: short form) and, with long forms among `forms`, the fuller
/// unique ones; castling "O-O" and "0-0"; promotion "=Q", "(Q)", "/Q", bare "Q"; check "+",
/// English "ch" and " ch", or none with `check_omitted`; mate "#" or "++"; "e.p.".
pub(crate) fn key_spellings(
    lang: &Lang,
    mv: &Move,
    descriptive: u64,
    (check, mate): (bool, bool),
    forms: &[MoveForm],
    check_omitted: bool,
    out: &mut Vec<Spelling>,
) {
    let Some(words) = Words::new(lang) else { return };
    let base = Variant::default();
    let mut checks: Vec<(&str, Variant)> = Vec::new();
    if mate {
        checks.push(("#", base));
        checks.push(("++", Variant { mate_plusplus: true, ..base }));
    } else if check {
        checks.push(("+", base));
        if words.order == WordOrder::English {
            checks.push(("ch", base));
            checks.push((" ch", base));
        }
    } else {
        checks.push(("", base));
    }
    if check && check_omitted {
        checks.push(("", Variant { check_omitted: true, ..base }));
    }
    let ep = matches!(mv, Move::EnPassant { .. });
    let push = |body: &str, v: Variant, out: &mut Vec<Spelling>| {
        for (mark, cv) in &checks {
            let v = Variant { check_omitted: cv.check_omitted, mate_plusplus: cv.mate_plusplus, ..v };
            out.push(Spelling { text: format!("{body}{mark}"), variant: v });
            if ep {
                let v = Variant { ep_suffix: true, ..v };
                out.push(Spelling { text: format!("{body} e.p.{mark}"), variant: v });
            }
        }
    };
    if let Some(side) = mv.castling_side() {
        push(words.castle(side, false), base, out);
        push(words.castle(side, true), Variant { castle: CastleStyle::Zeros, ..base }, out);
        return;
    }
    let long = forms.iter().any(|f| *f != MoveForm::Short);
    let promotions: &[PromotionStyle] = match (*mv, words.order) {
        (Move::Normal { promotion: Some(_), .. }, WordOrder::English) => {
            &[PromotionStyle::Equals, PromotionStyle::Parens, PromotionStyle::Bare, PromotionStyle::Slash]
        }
        (Move::Normal { promotion: Some(_), .. }, WordOrder::Spanish) => {
            &[PromotionStyle::Equals, PromotionStyle::Parens, PromotionStyle::Slash]
        }
        _ => &[PromotionStyle::Equals],
    };
    for (i, text) in unique_texts(&words, mv, descriptive).into_iter().enumerate() {
        let form = if i == 0 { MoveForm::Short } else { MoveForm::Long { hyphen: true } };
        if form != MoveForm::Short && !long {
            break;
        }
        for &promotion in promotions {
            let v = Variant { form, promotion, ..base };
            push(&restyle_promotion(&words, &text, mv, promotion), v, out);
        }
    }
}

/// A written move made ready to compare with the forms' texts.
enum Written {
    /// Castling: "O-O", "0-0-0", "Castles", "Castles QR"; no side for a bare "Castles".
    Castle(Option<CastlingSide>),
    /// The move's text without marks, hyphens or spaces, knights written "N", the promoted
    /// piece written "=Q" (or not at all).
    Move(String),
}

/// Check and mate words descriptive writers put after a move, longest first.
const CHECK_WORDS: [&str; 12] =
    ["dis. ch.", "dbl. ch.", "dis ch", "dbl ch", "dis.ch", "dblch", "disch", "check", "mate", "jaque", "ch.", "ch"];

/// Strips check words and annotation marks from the end of `text`.
fn strip_marks(text: &str) -> String {
    let mut s = text.trim().to_string();
    loop {
        let before = s.len();
        s = split_annotations(&s).0;
        for w in CHECK_WORDS {
            if s.len() > w.len() && s.to_lowercase().ends_with(w) && s.is_char_boundary(s.len() - w.len()) {
                s.truncate(s.len() - w.len());
                s = s.trim_end().to_string();
                break;
            }
        }
        if s.len() == before {
            return s;
        }
    }
}

/// Castling written: "O-O", "0-0-0", "Castles", "Castles KR", "Castles(Q)", "castles long".
fn castling(core: &str) -> Option<Written> {
    let s = compared(core);
    let upper = s.to_uppercase();
    if !upper.is_empty() && upper.chars().all(|c| matches!(c, 'O' | '0')) {
        return match upper.len() {
            2 => Some(Written::Castle(Some(CastlingSide::KingSide))),
            3 => Some(Written::Castle(Some(CastlingSide::QueenSide))),
            _ => None,
        };
    }
    let rest = upper.strip_prefix("CASTLES").or_else(|| upper.strip_prefix("CASTLE"))?;
    let rest = rest.trim_matches(|c| c == '(' || c == ')' || c == '.');
    match rest {
        "" => Some(Written::Castle(None)),
        "K" | "KR" | "KSIDE" | "SHORT" => Some(Written::Castle(Some(CastlingSide::KingSide))),
        "Q" | "QR" | "QSIDE" | "LONG" => Some(Written::Castle(Some(CastlingSide::QueenSide))),
        _ => None,
    }
}

/// Why a text is not a descriptive move.
enum Unreadable {
    Empty,
    Character(char),
    TooLong,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreadable::Empty => f.write_str("empty move"),
            Unreadable::Character(c) => write!(f, "unexpected character '{c}'"),
            Unreadable::TooLong => f.write_str("too long for a move"),
        }
    }
}

/// Makes a written move comparable with the forms' texts (see [`Written::Move`]).
fn normalize(text: &str, words: &Words<'_>) -> Result<Written, Unreadable> {
    let core = strip_marks(text);
    if core.is_empty() {
        return Err(Unreadable::Empty);
    }
    if let Some(c) = castling(&core) {
        return Ok(c);
    }
    let mut s = compared(&core).replace('×', "x");
    if words.order == WordOrder::English {
        s = s.replace("Kt", "N");
    }
    let promotable: Vec<&str> = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight].map(|r| words.letter(r)).into();
    // The promoted piece: "(Q)", "/Q", "Q" after the eighth rank, all written "=Q".
    for p in &promotable {
        for mark in [format!("({p})"), format!("/{p}")] {
            if let Some(rest) = s.strip_suffix(mark.as_str()) {
                s = format!("{rest}={p}");
            }
        }
        if words.order == WordOrder::English
            && let Some(rest) = s.strip_suffix(&format!("8{p}"))
        {
            s = format!("{rest}8={p}");
        }
    }
    // An origin or victim square in parentheses: "R(Q1)-Q2", "PxP(Q4)".
    s = s.replace('(', "/").replace(')', "");
    if let Some(c) = s.chars().find(|c| !c.is_alphanumeric() && !matches!(c, 'x' | '/' | '=')) {
        return Err(Unreadable::Character(c));
    }
    if s.chars().count() > 16 {
        return Err(Unreadable::TooLong);
    }
    Ok(Written::Move(s))
}

/// The legal moves in `pos` that `text`, in `lang`'s descriptive notation, can mean.
///
/// A text that names a piece by a wing it is not on ("KN" for the knight on the queen's half,
/// the one that started on the king's side) is read with the wing ignored where nothing else
/// fits, as an informal match; so is a promotion without its piece (a queen).
pub(crate) fn parse_move(pos: &Chess, text: &str, lang: &Lang) -> Result<Vec<Reading>, MoveError> {
    let not_a_move = |reason: String| MoveError::NotAMove { text: text.into(), reason };
    let Some(words) = Words::new(lang) else { return Err(not_a_move("not a descriptive notation".into())) };
    if split_annotations(text).0.is_empty() {
        return Err(MoveError::Empty);
    }
    let legal = pos.legal_moves();
    let written = normalize(text, &words).map_err(|e| not_a_move(e.to_string()))?;
    let found: Vec<Reading> = match written {
        Written::Castle(side) => {
            let exact = |m: &&Move| side.is_none_or(|s| m.castling_side() == Some(s));
            let mut castles: Vec<&Move> = legal.iter().filter(|m| m.is_castle()).filter(exact).collect();
            // A bare "Castles" is the king's side where both are legal.
            if side.is_none() && castles.len() > 1 {
                castles.retain(|m| m.castling_side() == Some(CastlingSide::KingSide));
            }
            castles.into_iter().map(|m| Reading { mv: *m, kind: MatchKind::Exact }).collect()
        }
        Written::Move(key) => {
            let color = pos.turn();
            let promotable: Vec<&str> =
                [Role::Queen, Role::Rook, Role::Bishop, Role::Knight].map(|r| words.letter(r)).into();
            // A promotion without its piece: a queen.
            let queen = format!("={}", words.letter(Role::Queen));
            // (the forms one at a time, up to the first that matches: the decoder asks this for
            // many positions)
            let reads = |key: &str, m: &Move, swap_wing: bool| {
                FORMS.iter().find_map(|form| {
                    let t = compared(&words.text(*form, color, m, swap_wing)?);
                    if t == key {
                        return Some(MatchKind::Exact);
                    }
                    (t.strip_suffix(&queen) == Some(key)).then_some(MatchKind::Informal)
                })
            };
            let mut found: Vec<Reading> =
                legal.iter().filter_map(|m| reads(&key, m, false).map(|kind| Reading { mv: *m, kind })).collect();
            // A promoted piece written bare after the piece taken: "PxRQ".
            let promoted = promotable.iter().find_map(|p| key.strip_suffix(p).map(|rest| format!("{rest}={p}")));
            if let (true, false, Some(promoted)) = (found.is_empty(), key.contains('='), &promoted) {
                found = legal
                    .iter()
                    .filter_map(|m| reads(promoted, m, false).map(|kind| Reading { mv: *m, kind }))
                    .collect();
            }
            if found.is_empty() {
                found = legal
                    .iter()
                    .filter_map(|m| reads(&key, m, true).map(|_| Reading { mv: *m, kind: MatchKind::Informal }))
                    .collect();
            }
            found
        }
    };
    match found.len() {
        0 => Err(MoveError::Illegal { text: text.into() }),
        1 => Ok(found),
        _ => Ok(found
            .into_iter()
            .map(|r| Reading { kind: if r.kind == MatchKind::Exact { MatchKind::Underspecified } else { r.kind }, ..r })
            .collect()),
    }
}

/// Every way of writing `mv` (legal in `pos`) in `lang`'s descriptive notation that names it
/// alone, the minimal one first, each with the check mark the move deserves.
pub(crate) fn spellings(pos: &Chess, mv: &Move, lang: &Lang) -> Vec<String> {
    let legal = pos.legal_moves();
    let forms = Writers::new(pos, &legal, lang).unique_forms(pos.turn(), mv);
    let mut after = pos.clone();
    after.play_unchecked(*mv);
    let mut out = Vec::new();
    let all = [MoveForm::Short, MoveForm::Long { hyphen: true }];
    key_spellings(lang, mv, forms, (after.is_check(), after.is_checkmate()), &all, true, &mut out);
    let mut texts: Vec<String> = Vec::new();
    for s in out {
        if !texts.contains(&s.text) {
            texts.push(s.text);
        }
    }
    texts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn en() -> &'static Lang {
        lang("en-descriptive").unwrap()
    }

    fn es() -> &'static Lang {
        lang("es-descriptive").unwrap()
    }

    /// Plays `moves` (English SAN) from the start.
    fn after(moves: &[&str]) -> Chess {
        let mut pos = Chess::default();
        for san in moves {
            let m = san.parse::<shakmaty::san::San>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(m);
        }
        pos
    }

    /// The English SAN of the one move `text` means in `pos`.
    fn read(pos: &Chess, text: &str, lang: &Lang) -> String {
        let r = parse_move(pos, text, lang).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(r.len(), 1, "{text}: {r:?}");
        shakmaty::san::San::from_move(pos, r[0].mv).to_string()
    }

    #[test]
    fn squares_are_named_from_the_movers_side() {
        let start = Chess::default();
        assert_eq!(read(&start, "P-K4", en()), "e4");
        assert_eq!(read(&start, "N-KB3", en()), "Nf3");
        assert_eq!(read(&start, "Kt-KB3", en()), "Nf3");
        assert_eq!(read(&start, "P4R", es()), "e4");
        assert_eq!(read(&start, "C3AR", es()), "Nf3");
        let black = after(&["e4"]);
        assert_eq!(read(&black, "P-K4", en()), "e5");
        assert_eq!(read(&black, "P-QB4", en()), "c5");
        assert_eq!(read(&black, "P4AD", es()), "c5");
        assert!(parse_move(&start, "N-B3", en()).unwrap().len() == 2);
    }

    #[test]
    fn captures_promotions_castling_and_marks() {
        let pos = after(&["e4", "d5"]);
        assert_eq!(read(&pos, "PxP", en()), "exd5");
        assert_eq!(read(&pos, "KPxP", en()), "exd5");
        assert_eq!(read(&pos, "PxQP", en()), "exd5");
        assert_eq!(read(&pos, "PxP(Q5)", en()), "exd5");
        let pos = after(&["e4", "d5", "exd5", "Qxd5", "Nc3"]);
        assert_eq!(read(&pos, "Q-QR4", en()), "Qa5");
        assert!(parse_move(&pos, "Q-R4", en()).unwrap().len() == 2);
        assert_eq!(read(&pos, "D4TD", es()), "Qa5");
        let pos = after(&["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6"]);
        assert_eq!(read(&pos, "O-O", en()), "O-O");
        assert_eq!(read(&pos, "Castles", en()), "O-O");
        assert_eq!(read(&pos, "N-N5", en()), "Ng5");
        assert_eq!(read(&pos, "BxPch", en()), "Bxf7");
        assert_eq!(read(&pos, "BxP ch", en()), "Bxf7");
        assert_eq!(read(&pos, "BxP dis ch", en()), "Bxf7");
        assert_eq!(read(&pos, "AxP+", es()), "Bxf7");
        let fen = "8/4P3/8/8/8/8/2k5/K7 w - - 0 1";
        let pos: Chess =
            fen.parse::<shakmaty::fen::Fen>().unwrap().into_position(shakmaty::CastlingMode::Standard).unwrap();
        for t in ["P-K8(Q)", "P-K8=Q", "P-K8Q", "P-K8/Q", "P-K8"] {
            assert_eq!(read(&pos, t, en()), "e8=Q", "{t}");
        }
        assert_eq!(read(&pos, "P-K8(N)", en()), "e8=N");
        assert_eq!(read(&pos, "P8R=D", es()), "e8=Q");
        assert_eq!(read(&pos, "P8R(C)", es()), "e8=N");
    }

    #[test]
    fn wings_name_pieces_and_files() {
        // Knights on c3 and g1: both reach e2.
        let pos = after(&["e4", "e5", "Nc3", "Nc6"]);
        assert!(parse_move(&pos, "N-K2", en()).unwrap().len() == 2);
        assert_eq!(read(&pos, "KN-K2", en()), "Nge2");
        assert_eq!(read(&pos, "QN-K2", en()), "Nce2");
        assert_eq!(read(&pos, "CR2R", es()), "Nge2");
        assert_eq!(read(&pos, "N/QB3-K2", en()), "Nce2");
        assert_eq!(read(&pos, "N(QB3)-K2", en()), "Nce2");
    }

    #[test]
    fn errors_are_clear() {
        let start = Chess::default();
        assert!(matches!(parse_move(&start, "P-K5", en()), Err(MoveError::Illegal { .. })));
        assert!(matches!(parse_move(&start, "P-K4%", en()), Err(MoveError::NotAMove { .. })));
        assert!(matches!(parse_move(&start, "", en()), Err(MoveError::Empty)));
        assert!(matches!(parse_move(&start, "e4", en()), Err(MoveError::Illegal { .. })));
    }

    /// Every spelling, and what a writer of every style writes, parses back to exactly its move,
    /// over random games in both notations.
    #[test]
    fn every_spelling_reads_back_as_its_move() {
        let mut rng = ChaCha8Rng::seed_from_u64(30);
        let mut checked = 0;
        for lang in [en(), es()] {
            for _ in 0..3 {
                let mut pos = Chess::default();
                for _ in 0..100 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    for m in &legal {
                        let texts = spellings(&pos, m, lang);
                        assert!(
                            !texts.is_empty(),
                            "{m:?} has no spelling in {}",
                            shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
                        );
                        for t in texts {
                            let r = parse_move(&pos, &t, lang).unwrap_or_else(|e| panic!("{t}: {e}"));
                            assert_eq!(r.iter().map(|r| r.mv).collect::<Vec<_>>(), vec![*m], "{t}");
                            checked += 1;
                        }
                        let style = Style::random(&mut rng);
                        let t = spell(&pos, m, lang, &style);
                        let r = parse_move(&pos, &t, lang).unwrap_or_else(|e| panic!("{t}: {e}"));
                        assert_eq!(r.iter().map(|r| r.mv).collect::<Vec<_>>(), vec![*m], "{t}");
                    }
                    let m = legal[rng.gen_range(0..legal.len())];
                    pos.play_unchecked(m);
                }
            }
        }
        assert!(checked > 2_000, "{checked}");
    }

    #[test]
    fn minimal_and_full_forms() {
        let start = Chess::default();
        let nf3 = Move::Normal { role: Role::Knight, from: Square::G1, capture: None, to: Square::F3, promotion: None };
        let texts = spellings(&start, &nf3, en());
        assert_eq!(texts[0], "N-KB3");
        assert!(texts.contains(&"KN-KB3".to_string()) && texts.contains(&"KN-B3".to_string()), "{texts:?}");
        let e4 = Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E4, promotion: None };
        assert_eq!(spellings(&start, &e4, en())[0], "P-K4");
        assert_eq!(spellings(&start, &e4, es())[0], "P4R");
        let pos = after(&["e4", "d5"]);
        let exd5 = pos.legal_moves().into_iter().find(|m| m.is_capture()).unwrap();
        let texts = spellings(&pos, &exd5, en());
        assert_eq!(texts[0], "PxP");
        assert!(texts.contains(&"KPxQP".to_string()), "{texts:?}");
    }
}
