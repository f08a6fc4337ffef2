//! From a legal move to the ways a player writes it.
//!
//! [`spell`] writes one move in one language and one writer's [`Style`]; [`spellings`] lists every
//! plausible way, for the decoder to score against the ink. Every string produced parses back to
//! exactly the move it was made from (tested over random positions in every language).

use rand::Rng;
use shakmaty::{CastlingSide, Chess, File, Move, MoveList, Position, Rank, Role, Square};

use super::descriptive;
use super::lang::Lang;

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
    Long {
        /// Whether a hyphen stands between the squares.
        hyphen: bool,
    },
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
    /// How captures are marked.
    pub capture: CaptureMark,
    /// How checks and mates are marked.
    pub check: CheckMark,
    /// How castling is written.
    pub castle: CastleStyle,
    /// How a promotion is written.
    pub promotion: PromotionStyle,
    /// Short, long or coordinate notation.
    pub form: MoveForm,
    /// How pawn captures are written.
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
fn disambiguation(pos: &Chess, legal: &MoveList, mv: &Move) -> (bool, bool) {
    let (role, from, to) = match *mv {
        Move::Normal { role, from, to, .. } if role != Role::Pawn && role != Role::King => (role, from, to),
        _ => return (false, false),
    };
    // The usual case: no other piece of this kind could even reach the square.
    let board = pos.board();
    let piece = shakmaty::Piece { color: pos.turn(), role };
    let others = board.by_role(role) & board.by_color(pos.turn()) & !shakmaty::Bitboard::from_square(from);
    if others.is_empty() || (shakmaty::attacks::attacks(to, piece, board.occupied()) & others).is_empty() {
        return (false, false);
    }
    let (mut any, mut same_file, mut same_rank) = (false, false, false);
    for o in legal.iter().filter(|m| m.role() == role && m.to() == to && !m.is_castle()).filter_map(|m| m.from()) {
        if o != from {
            any = true;
            same_file |= o.file() == from.file();
            same_rank |= o.rank() == from.rank();
        }
    }
    match (any, same_file, same_rank) {
        (false, _, _) => (false, false),
        (true, false, _) => (true, false),
        (true, true, false) => (false, true),
        (true, true, true) => (true, true),
    }
}

fn promotion_of(m: &Move) -> Option<Role> {
    match *m {
        Move::Normal { promotion, .. } => promotion,
        _ => None,
    }
}

/// Whether "ed" / "exd" (files only, with the promotion piece if any) names `mv` alone.
fn files_capture_unique(legal: &MoveList, mv: &Move) -> bool {
    let (Some(from), to) = (mv.from(), mv.to()) else { return false };
    !legal.iter().any(|m| {
        m != mv
            && m.role() == Role::Pawn
            && m.is_capture()
            && m.from().is_some_and(|f| f.file() == from.file())
            && m.to().file() == to.file()
            // (a promotion written without its piece reads as a queen's: "axb" is a7xb8=Q too)
            && (promotion_of(m) == promotion_of(mv) || (promotion_of(mv).is_none() && promotion_of(m) == Some(Role::Queen)))
    })
}

/// Whether "PxP" / "RxN" (mover and victim only; a promotion then means a queen) names `mv` alone.
fn piece_takes_piece_unique(legal: &MoveList, mv: &Move) -> bool {
    let fits = |m: &Move| {
        m.role() == mv.role() && m.capture() == mv.capture() && matches!(promotion_of(m), None | Some(Role::Queen))
    };
    fits(mv) && legal.iter().filter(|m| fits(m)).count() == 1
}

/// The body of a move (no check suffix) in one form.
fn body(dis: (bool, bool), mv: &Move, lang: &Lang, style: &Style) -> String {
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
                let (f, r) = dis;
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
    if lang.descriptive().is_some() {
        return descriptive::spell(pos, mv, lang, style);
    }
    let legal = pos.legal_moves();
    let dis = disambiguation(pos, &legal, mv);
    let mut text = body(dis, mv, lang, style);
    if style.pawn_capture == PawnCaptureStyle::Files
        && mv.role() == Role::Pawn
        && mv.is_capture()
        && !files_capture_unique(&legal, mv)
    {
        let fallback = Style { pawn_capture: PawnCaptureStyle::Square, ..style.clone() };
        text = body(dis, mv, lang, &fallback);
    }
    if style.ep_suffix && matches!(mv, Move::EnPassant { .. }) {
        text.push_str(" e.p.");
    }
    text.push_str(check_suffix(pos, mv, style.check));
    text
}

/// The habits a spelling shows, for a decoder to weigh how likely a writer is to use it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Short, long or coordinate notation.
    pub form: MoveForm,
    /// The capture mark used (`X` for moves that capture nothing).
    pub capture: CaptureMark,
    /// How castling is written.
    pub castle: CastleStyle,
    /// How a promotion is written.
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
    /// The text written.
    pub text: String,
    /// The habits it shows.
    pub variant: Variant,
}

/// Which writing habits to spell moves with: a decoder that knows a writer's style asks for
/// fewer spellings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Habits {
    /// Short, long with hyphen, long without hyphen, coordinate.
    pub forms: Vec<MoveForm>,
    /// Capture marks in use.
    pub captures: Vec<CaptureMark>,
    /// Check and mate marks may be left out.
    pub check_omitted: bool,
    /// "ed", "exd", "PxP", "RxN".
    pub informal: bool,
    /// Under-specified forms ("Nd7" for one of two knights).
    pub underspecified: bool,
}

impl Habits {
    /// Every habit.
    pub fn all() -> Habits {
        Habits {
            forms: vec![
                MoveForm::Short,
                MoveForm::Long { hyphen: true },
                MoveForm::Long { hyphen: false },
                MoveForm::Coordinate,
            ],
            captures: vec![CaptureMark::X, CaptureMark::Omitted, CaptureMark::Colon, CaptureMark::ColonAfter],
            check_omitted: true,
            informal: true,
            underspecified: true,
        }
    }
}

impl Default for Habits {
    fn default() -> Self {
        Habits::all()
    }
}

/// Every plausible way a player may write `mv` (legal in `pos`) in `lang`, without duplicates,
/// the standard short form first. Each parses back to exactly `mv`.
///
/// Covers: capture mark x, ":" before or after, or none; check marks "+", "#", "++" or none;
/// castling with letters or zeros; promotion "=Q", "Q", "(Q)", "/Q"; long algebraic with and
/// without hyphen; coordinate notation; informal pawn captures ("ed", "exd"), "PxP"; "e.p.".
pub fn spellings(pos: &Chess, mv: &Move, lang: &Lang) -> Vec<String> {
    if lang.descriptive().is_some() {
        return descriptive::spellings(pos, mv, lang);
    }
    let mut out: Vec<String> = Vec::new();
    for s in spelling_variants(pos, mv, lang) {
        if !s.variant.underspecified && !out.contains(&s.text) {
            out.push(s.text);
        }
    }
    out
}

/// [`spellings`] with the habits each shows, plus the under-specified forms a player may write
/// when the move needs disambiguation ("Nd7", flagged [`Variant::underspecified`]: those also
/// read as another move). May hold the same text twice (with different habits).
pub fn spelling_variants(pos: &Chess, mv: &Move, lang: &Lang) -> Vec<Spelling> {
    let mut out = Vec::new();
    spell_with_habits(pos, &pos.legal_moves(), mv, lang, &Habits::all(), &mut out);
    out
}

/// [`spelling_variants`] for a position whose legal moves are at hand, limited to `habits`,
/// appended to `out`.
pub fn spell_with_habits(
    pos: &Chess,
    legal: &MoveList,
    mv: &Move,
    lang: &Lang,
    habits: &Habits,
    out: &mut Vec<Spelling>,
) {
    spell_key_with_habits(&spell_key(pos, legal, mv, lang, habits), lang, habits, out);
}

/// Everything about a move in its position that its spellings depend on (given the letter set
/// and habits): moves with equal keys are spelled alike, so a decoder can spell a key once.
#[derive(Clone, Copy, Debug)]
pub struct SpellKey {
    /// The move.
    pub mv: Move,
    check: bool,
    mate: bool,
    needs_file: bool,
    needs_rank: bool,
    /// "ed" / "exd" names the move alone (only looked at with informal habits).
    files_unique: bool,
    /// "PxP" names the move alone (only looked at with informal habits).
    piece_takes_piece_unique: bool,
    /// In a descriptive notation, the forms that name the move alone and the side moving; 0 in
    /// algebraic notation. Keys are compared and hashed by it and `packed`.
    descriptive: u64,
    /// Every field above but `descriptive` in one number ([`SpellKey::pack`]), made once by
    /// [`SpellKey::sealed`].
    packed: u64,
}

impl SpellKey {
    /// The key with its packed number made from its fields (every key is built through this).
    fn sealed(mut self) -> SpellKey {
        self.packed = self.pack();
        self
    }

    /// Whether the move gives check, and mate.
    pub fn gives(&self) -> (bool, bool) {
        (self.check, self.mate)
    }

    /// What keys are compared and hashed by (see [`SpellKey::pack`]).
    fn packed(&self) -> u64 {
        self.packed
    }

    /// Every field in one number (one to one), cheaper to compare and hash than the move's enum
    /// field by field (decoders look keys up for every legal move).
    fn pack(&self) -> u64 {
        let sq = |s: Square| u64::from(u32::from(s));
        let role = |r: Role| r as u64;
        let mv = match self.mv {
            Move::Normal { role: r, from, capture, to, promotion } => {
                role(r) << 2
                    | sq(from) << 5
                    | capture.map_or(0, role) << 11
                    | sq(to) << 14
                    | promotion.map_or(0, role) << 20
            }
            Move::EnPassant { from, to } => 1 | sq(from) << 5 | sq(to) << 14,
            Move::Castle { king, rook } => 2 | sq(king) << 5 | sq(rook) << 14,
            Move::Put { role: r, to } => 3 | role(r) << 2 | sq(to) << 14,
        };
        let flags =
            [self.check, self.mate, self.needs_file, self.needs_rank, self.files_unique, self.piece_takes_piece_unique];
        flags.iter().enumerate().fold(mv, |acc, (i, &f)| acc | u64::from(f) << (23 + i))
    }
}

impl PartialEq for SpellKey {
    fn eq(&self, other: &SpellKey) -> bool {
        self.packed() == other.packed() && self.descriptive == other.descriptive
    }
}

impl Eq for SpellKey {}

impl std::hash::Hash for SpellKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.packed());
        state.write_u64(self.descriptive);
    }
}

/// Whether `mv` (legal in `pos`) checks the other king: the board after the move alone, without
/// playing it in a whole position (what [`Position::is_check`] after the move would say).
fn gives_check(pos: &Chess, mv: &Move) -> bool {
    use shakmaty::{Bitboard, Piece, attacks};
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else { return false };
    let (from, to, role, gone) = match *mv {
        Move::Normal { role, from, to, promotion, .. } => (from, to, promotion.unwrap_or(role), Bitboard::EMPTY),
        Move::EnPassant { from, to } => {
            (from, to, Role::Pawn, Bitboard::from_square(Square::from_coords(to.file(), from.rank())))
        }
        _ => {
            // Castling (and drops, not in standard chess): the whole move played.
            let mut after = pos.clone();
            after.play_unchecked(*mv);
            return after.is_check();
        }
    };
    // The board after the move: `from` (and a pawn taken en passant) emptied, `to` taken.
    let occupied = (board.occupied() & !Bitboard::from_square(from) & !gone) | Bitboard::from_square(to);
    // The piece moved (or promoted) attacks the king...
    if attacks::attacks(to, Piece { color: us, role }, occupied).contains(king) {
        return true;
    }
    // ... or a line to it opens for one of our other sliders.
    let ours = board.by_color(us) & !Bitboard::from_square(from);
    let rooks = ours & board.rooks_and_queens();
    let bishops = ours & board.bishops_and_queens();
    (attacks::rook_attacks(king, occupied) & rooks).any() || (attacks::bishop_attacks(king, occupied) & bishops).any()
}

/// Whether `mv` (legal in `pos`) mates: the move played.
fn gives_mate(pos: &Chess, mv: &Move) -> bool {
    let mut after = pos.clone();
    after.play_unchecked(*mv);
    after.is_checkmate()
}

/// The [`SpellKey`] of `mv` in `pos` (`legal`: the legal moves of `pos`) written in `lang`.
pub fn spell_key(pos: &Chess, legal: &MoveList, mv: &Move, lang: &Lang, habits: &Habits) -> SpellKey {
    let check = gives_check(pos, mv);
    let mate = check && gives_mate(pos, mv);
    let (needs_file, needs_rank) = disambiguation(pos, legal, mv);
    let informal = habits.informal;
    let files_unique = informal && mv.role() == Role::Pawn && mv.is_capture() && files_capture_unique(legal, mv);
    let piece_takes_piece_unique = informal
        && mv.capture().is_some()
        && !matches!(mv, Move::EnPassant { .. })
        && piece_takes_piece_unique(legal, mv);
    let descriptive = match lang.descriptive() {
        Some(_) => descriptive::Writers::new(pos, legal, lang).unique_forms(pos.turn(), mv),
        None => 0,
    };
    SpellKey {
        mv: *mv,
        check,
        mate,
        needs_file,
        needs_rank,
        files_unique,
        piece_takes_piece_unique,
        descriptive,
        packed: 0,
    }
    .sealed()
}

/// The [`SpellKey`]s of a position's moves: what the moves share (which pawn captures and
/// "PxP" captures name a move alone) is worked out once per position; each key is what
/// [`spell_key`] gives.
pub struct SpellKeys<'a> {
    pos: &'a Chess,
    legal: &'a MoveList,
    informal: bool,
    /// Legal moves per (role, captured role or none) that "PxP" could name (no promotion but
    /// to a queen).
    piece_takes_piece: [[u8; 8]; 8],
    /// Legal pawn captures per (from file, to file, promotion or none).
    pawn_captures: [[[u8; 8]; 8]; 8],
    /// Per role, the squares from which a piece of the side to move checks the other king.
    check_squares: [shakmaty::Bitboard; 8],
    /// The side to move's pieces that alone stand between one of its sliders and the other king.
    blockers: shakmaty::Bitboard,
    /// The other king.
    king: Option<Square>,
    /// In a descriptive notation, which texts name a legal move alone.
    writers: Option<descriptive::Writers>,
}

impl<'a> SpellKeys<'a> {
    /// `legal`: the legal moves of `pos`; `lang`: the letters and notation moves are written in.
    pub fn new(pos: &'a Chess, legal: &'a MoveList, lang: &'a Lang, habits: &Habits) -> SpellKeys<'a> {
        let mut keys = SpellKeys {
            pos,
            legal,
            informal: habits.informal,
            piece_takes_piece: [[0; 8]; 8],
            pawn_captures: [[[0; 8]; 8]; 8],
            check_squares: [shakmaty::Bitboard::EMPTY; 8],
            blockers: shakmaty::Bitboard::EMPTY,
            king: pos.board().king_of(!pos.turn()),
            writers: lang.descriptive().map(|_| descriptive::Writers::new(pos, legal, lang)),
        };
        if let Some(king) = keys.king {
            use shakmaty::attacks;
            let board = pos.board();
            let (us, occupied) = (pos.turn(), board.occupied());
            let (bishop, rook) = (attacks::bishop_attacks(king, occupied), attacks::rook_attacks(king, occupied));
            keys.check_squares[Role::Pawn as usize] = attacks::pawn_attacks(!us, king);
            keys.check_squares[Role::Knight as usize] = attacks::knight_attacks(king);
            keys.check_squares[Role::Bishop as usize] = bishop;
            keys.check_squares[Role::Rook as usize] = rook;
            keys.check_squares[Role::Queen as usize] = bishop | rook;
            let snipers = ((attacks::rook_attacks(king, shakmaty::Bitboard::EMPTY) & board.rooks_and_queens())
                | (attacks::bishop_attacks(king, shakmaty::Bitboard::EMPTY) & board.bishops_and_queens()))
                & board.by_color(us);
            for sniper in snipers {
                let between = attacks::between(king, sniper) & occupied;
                if !between.more_than_one() && (between & board.by_color(us)).any() {
                    keys.blockers |= between;
                }
            }
        }
        if keys.informal {
            // Only captures are asked about.
            for m in legal.iter().filter(|m| m.is_capture()) {
                if let Some(ptp) = keys.ptp_slot(m) {
                    *ptp = ptp.saturating_add(1);
                }
                if let Some(pc) = keys.pawn_capture_slot(m) {
                    *pc = pc.saturating_add(1);
                }
            }
        }
        keys
    }

    fn ptp_slot(&mut self, m: &Move) -> Option<&mut u8> {
        matches!(promotion_of(m), None | Some(Role::Queen))
            .then(|| &mut self.piece_takes_piece[m.role() as usize][m.capture().map_or(0, |r| r as usize)])
    }

    fn pawn_capture_slot(&mut self, m: &Move) -> Option<&mut u8> {
        let from = m.from()?;
        (m.role() == Role::Pawn && m.is_capture()).then(|| {
            &mut self.pawn_captures[from.file() as usize][m.to().file() as usize]
                [promotion_of(m).map_or(0, |r| r as usize)]
        })
    }

    /// Whether `mv` checks the other king ([`gives_check`]): a plain move (no promotion) from
    /// the squares worked out once per position; the rest from the board.
    fn gives_check(&self, mv: &Move) -> bool {
        match (*mv, self.king) {
            (Move::Normal { role, from, to, promotion: None, .. }, Some(king)) => {
                self.check_squares[role as usize].contains(to)
                    || (self.blockers.contains(from) && !shakmaty::attacks::aligned(from, to, king))
            }
            _ => gives_check(self.pos, mv),
        }
    }

    /// The key of `mv` (one of the legal moves).
    pub fn key(&mut self, mv: &Move) -> SpellKey {
        let (pos, legal) = (self.pos, self.legal);
        let check = self.gives_check(mv);
        let mate = check && gives_mate(pos, mv);
        let (needs_file, needs_rank) = disambiguation(pos, legal, mv);
        let informal = self.informal;
        // (a promotion written without its piece reads as a queen's: "axb" is a7xb8=Q too)
        let queen_twin = |keys: &Self| {
            mv.from().is_some_and(|from| {
                promotion_of(mv).is_none()
                    && keys.pawn_captures[from.file() as usize][mv.to().file() as usize][Role::Queen as usize] > 0
            })
        };
        let files_unique = informal
            && mv.role() == Role::Pawn
            && mv.is_capture()
            && self.pawn_capture_slot(mv).is_some_and(|n| *n == 1)
            && !queen_twin(self);
        let piece_takes_piece_unique = informal
            && mv.capture().is_some()
            && !matches!(mv, Move::EnPassant { .. })
            && self.ptp_slot(mv).is_some_and(|n| *n == 1);
        let descriptive = self.writers.as_ref().map_or(0, |w| w.unique_forms(pos.turn(), mv));
        SpellKey {
            mv: *mv,
            check,
            mate,
            needs_file,
            needs_rank,
            files_unique,
            piece_takes_piece_unique,
            descriptive,
            packed: 0,
        }
        .sealed()
    }
}

/// [`spell_with_habits`] from a move's [`SpellKey`].
pub fn spell_key_with_habits(key: &SpellKey, lang: &Lang, habits: &Habits, out: &mut Vec<Spelling>) {
    let mv = &key.mv;
    if lang.descriptive().is_some() {
        let gives = (key.check, key.mate);
        descriptive::key_spellings(lang, mv, key.descriptive, gives, &habits.forms, habits.check_omitted, out);
        return;
    }
    let is_capture = mv.is_capture();
    let is_promo = promotion_of(mv).is_some();
    let is_castle = mv.is_castle();
    let castle_forms = [MoveForm::Short];
    let forms: &[MoveForm] = if is_castle { &castle_forms } else { &habits.forms };
    let no_capture = [CaptureMark::X];
    let captures: &[CaptureMark] =
        if is_capture && !habits.captures.is_empty() { &habits.captures } else { &no_capture };
    let castles: &[CastleStyle] =
        if is_castle { &[CastleStyle::Letters, CastleStyle::Zeros] } else { &[CastleStyle::Letters] };
    let promos: &[PromotionStyle] = if is_promo {
        &[PromotionStyle::Equals, PromotionStyle::Bare, PromotionStyle::Parens, PromotionStyle::Slash]
    } else {
        &[PromotionStyle::Equals]
    };
    let files_ok = key.files_unique;
    let pawn_caps: &[PawnCaptureStyle] =
        if files_ok { &[PawnCaptureStyle::Square, PawnCaptureStyle::Files] } else { &[PawnCaptureStyle::Square] };
    // (suffix, check omitted, mate as "++")
    let (check, mate) = (key.check, key.mate);
    let mut checks: Vec<(&'static str, bool, bool)> = Vec::with_capacity(3);
    if mate {
        checks.push(("#", false, false));
        checks.push(("++", false, true));
    } else if check {
        checks.push(("+", false, false));
    } else {
        checks.push(("", false, false));
    }
    if check && habits.check_omitted {
        checks.push(("", true, false));
    }
    let ep = matches!(mv, Move::EnPassant { .. });
    let (needs_file, needs_rank) = (key.needs_file, key.needs_rank);
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
    let concat = |parts: &[&str]| {
        let mut t = String::with_capacity(parts.iter().map(|p| p.len()).sum());
        for p in parts {
            t.push_str(p);
        }
        t
    };
    let push_all = |b: &str, v: Variant, out: &mut Vec<Spelling>| {
        for &(suffix, check_omitted, mate_plusplus) in &checks {
            let v = Variant { check_omitted, mate_plusplus, ..v };
            out.push(Spelling { text: concat(&[b, suffix]), variant: v });
            if ep {
                let v = Variant { ep_suffix: true, ..v };
                out.push(Spelling { text: concat(&[b, " e.p.", suffix]), variant: v });
                out.push(Spelling { text: concat(&[b, "e.p.", suffix]), variant: v });
            }
        }
    };
    for &form in forms {
        for &capture in captures {
            if form == MoveForm::Coordinate && capture != CaptureMark::X {
                continue;
            }
            for &castle in castles {
                for &promotion in promos {
                    for &pawn_capture in pawn_caps {
                        let pawn_files = pawn_capture == PawnCaptureStyle::Files;
                        if pawn_files && form != MoveForm::Short {
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
                        let b = body((needs_file, needs_rank), mv, lang, &style);
                        let v = Variant { form, capture, castle, promotion, pawn_files, ..base };
                        push_all(&b, v, out);
                        // The same without the disambiguation it needs.
                        if habits.underspecified && form == MoveForm::Short && (needs_file || needs_rank) {
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
                            push_all(&plain, Variant { underspecified: true, ..v }, out);
                        }
                    }
                }
            }
        }
    }
    // "PxP", "RxR", "NxB": piece takes piece, where that names one move.
    if let (Some(captured), false, true) = (mv.capture(), ep, habits.informal) {
        let letter = |r: Role| if r == Role::Pawn { lang.pawn.unwrap_or("") } else { lang.piece_letter(r) };
        let (mover, victim) = (letter(mv.role()), letter(captured));
        if !mover.is_empty() && !victim.is_empty() && key.piece_takes_piece_unique {
            let text = format!("{mover}x{victim}");
            let v = Variant { piece_takes_piece: true, ..base };
            for &(suffix, check_omitted, mate_plusplus) in &checks {
                let v = Variant { check_omitted, mate_plusplus, ..v };
                out.push(Spelling { text: format!("{text}{suffix}"), variant: v });
            }
        }
    }
}

/// Standard English SAN with check and mate marks, as PGN writes it.
pub fn english_san(pos: &Chess, mv: &Move) -> String {
    shakmaty::san::SanPlus::from_move(pos.clone(), *mv).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode};

    /// Calls `f` with every position (and its legal moves) of `games` random games from each of
    /// `fens`, 60 half-moves at most each.
    fn each_position(fens: &[&str], games: usize, seed: u64, mut f: impl FnMut(&Chess, &MoveList)) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for fen in fens {
            let start: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            for _ in 0..games {
                let mut pos = start.clone();
                for _ in 0..60 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    f(&pos, &legal);
                    let m = legal[rng.gen_range(0..legal.len())];
                    pos.play_unchecked(m);
                }
            }
        }
    }

    /// The board-only check test agrees with playing the move, over random games and positions
    /// rich in castling, en passant, promotions and discovered checks.
    #[test]
    fn gives_check_matches_playing_the_move() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/2KpP2r/8/8/8/8 w - d6 0 1",
            "2k5/1P6/8/8/8/8/6p1/4K2R b K - 0 1",
        ];
        let mut checks = 0;
        each_position(&fens, 40, 5, |pos, legal| {
            for m in legal {
                let mut after = pos.clone();
                after.play_unchecked(*m);
                assert_eq!(
                    gives_check(pos, m),
                    after.is_check(),
                    "{} {m:?}",
                    Fen::from_position(pos, EnPassantMode::Legal)
                );
                checks += usize::from(after.is_check());
            }
        });
        assert!(checks > 100, "{checks} checks seen");
    }

    /// Keys are equal exactly when every field is (the packed form is one to one).
    #[test]
    fn spell_keys_compare_field_by_field() {
        let pos = Chess::default();
        let legal = pos.legal_moves();
        let mut keys: Vec<SpellKey> = Vec::new();
        for m in &legal {
            let k = spell_key(&pos, &legal, m, crate::english(), &Habits::all());
            for bits in 0..64u32 {
                let b = |i: u32| bits & (1 << i) != 0;
                keys.push(
                    SpellKey {
                        check: b(0),
                        mate: b(1),
                        needs_file: b(2),
                        needs_rank: b(3),
                        files_unique: b(4),
                        piece_takes_piece_unique: b(5),
                        ..k
                    }
                    .sealed(),
                );
            }
        }
        let fields = |k: &SpellKey| {
            (k.mv, k.check, k.mate, k.needs_file, k.needs_rank, k.files_unique, k.piece_takes_piece_unique)
        };
        for a in &keys {
            for b in &keys {
                assert_eq!(a == b, fields(a) == fields(b));
            }
        }
        let moves = [
            Move::Normal {
                role: Role::Pawn,
                from: Square::E7,
                capture: Some(Role::Rook),
                to: Square::D8,
                promotion: Some(Role::Queen),
            },
            Move::Normal {
                role: Role::Pawn,
                from: Square::E7,
                capture: Some(Role::Rook),
                to: Square::D8,
                promotion: Some(Role::Knight),
            },
            Move::Normal {
                role: Role::Pawn,
                from: Square::E7,
                capture: None,
                to: Square::E8,
                promotion: Some(Role::Queen),
            },
            Move::EnPassant { from: Square::E5, to: Square::D6 },
            Move::Normal { role: Role::Pawn, from: Square::E5, capture: None, to: Square::D6, promotion: None },
            Move::Castle { king: Square::E1, rook: Square::H1 },
            Move::Castle { king: Square::E1, rook: Square::A1 },
            Move::Normal { role: Role::King, from: Square::E1, capture: None, to: Square::H1, promotion: None },
            Move::Put { role: Role::Knight, to: Square::F3 },
        ];
        let base = keys[0];
        for a in moves {
            for b in moves {
                assert_eq!(SpellKey { mv: a, ..base }.sealed() == SpellKey { mv: b, ..base }.sealed(), a == b);
            }
        }
    }

    /// The keys made per position are the keys made per move.
    #[test]
    fn spell_keys_match_spell_key() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "1k6/1P1P4/2P5/3p4/2P1P3/8/5PPP/6K1 w - - 0 1",
            "4k3/8/8/2KpP2r/8/8/8/8 w - d6 0 1",
        ];
        let informal = Habits::all();
        let mut formal = Habits::all();
        formal.informal = false;
        let (mut files, mut ptp, mut checks) = (0, 0, 0);
        each_position(&fens, 30, 9, |pos, legal| {
            for habits in [&informal, &formal] {
                let mut keys = SpellKeys::new(pos, legal, crate::english(), habits);
                for m in legal {
                    let want = spell_key(pos, legal, m, crate::english(), habits);
                    assert_eq!(keys.key(m), want);
                    files += usize::from(want.files_unique);
                    ptp += usize::from(want.piece_takes_piece_unique);
                    checks += usize::from(want.check);
                }
            }
        });
        assert!(files > 100 && ptp > 100 && checks > 100, "{files} {ptp} {checks}");
    }
}
