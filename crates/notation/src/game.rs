//! Whole games as text: "1. e4 e5 2. Sf3 Sc6 ... 1/2-1/2" to legal moves, with language detection.
//!
//! Accepts move numbers ("1.", "1 .", "1...", "12.Nf3", a bare "9"), results (1-0 0-1 1/2-1/2
//! ½-½ 0.5-0.5 *), draw offers "(=)", annotation marks, "e.p." as its own word, braces and ";"
//! comments, PGN tags, line breaks anywhere, and a closing "etc." in the text's language.

use std::fmt;

use shakmaty::{CastlingMode, Chess, Color, Move, Position, fen::Fen};

use super::lang::{Lang, all_languages, languages, skeleton_str};
use super::parse::{Annotations, MatchKind, MoveError, Reading, parse_move, split_annotations};
use super::spell::english_san;
use crate::pgn::{PgnGame, PgnMove};

/// Which letter set to read a game in.
#[derive(Clone, Copy, Debug)]
pub enum LangChoice {
    /// Try every language and notation (algebraic, then descriptive); keep the one under which
    /// the game is legal.
    Auto,
    /// This language only.
    Fixed(&'static Lang),
}

/// Why a game could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The text holds no moves.
    NoMoves,
    /// A start position given in a FEN tag is not a legal chess position.
    BadFen(String),
    /// A move could not be resolved.
    Move {
        /// The move's number.
        number: u32,
        /// The side whose move it is.
        color: Color,
        /// The move as written.
        text: String,
        /// Why it could not be resolved.
        problem: MoveProblem,
    },
}

/// What is wrong with one written move of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveProblem {
    /// Not a move in this language (the reason).
    NotAMove(String),
    /// No legal move matches.
    Illegal,
    /// Several legal moves match and the rest of the game does not tell which (English SAN).
    Ambiguous(Vec<String>),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::NoMoves => write!(f, "no moves found"),
            GameError::BadFen(e) => write!(f, "bad FEN start position: {e}"),
            GameError::Move { number, color, text, problem } => {
                let dots = if *color == Color::White { "." } else { "..." };
                write!(f, "move {number}{dots} \"{text}\": ")?;
                match problem {
                    MoveProblem::NotAMove(why) => write!(f, "not a move ({why})"),
                    MoveProblem::Illegal => write!(f, "illegal here"),
                    MoveProblem::Ambiguous(alts) => write!(f, "ambiguous between {}", alts.join(" and ")),
                }
            }
        }
    }
}

impl std::error::Error for GameError {}

/// A word of the game text that is a move, with what came with it.
#[derive(Clone, Debug, Default)]
struct Written {
    text: String,
    ann: Annotations,
    comments: Vec<String>,
}

/// The game text cut into moves.
#[derive(Clone, Debug, Default)]
struct Tokens {
    headers: Vec<(String, String)>,
    intro: Vec<String>,
    moves: Vec<Written>,
    result: Option<String>,
    /// Black moves first ("12... Nf6" at the start).
    black_first: bool,
    first_number: Option<u32>,
    /// Words that end a transcript early ("usw.", "jne.").
    etc_word: Option<String>,
    /// A resignation written ("resigns", "White resigns"): the side that resigned where the
    /// text says it, else the side to move after the last move.
    resigned: Option<Option<Color>>,
}

fn normalize_result(w: &str) -> Option<&'static str> {
    let w = match w.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
        Some(inner) if inner != "=" => inner,
        _ => w,
    };
    match w {
        "1-0" | "1:0" | "1–0" => Some("1-0"),
        "0-1" | "0:1" | "0–1" => Some("0-1"),
        "1/2-1/2" | "½-½" | "0.5-0.5" | "½:½" | "1/2:1/2" | "1/2–1/2" => Some("1/2-1/2"),
        "*" => Some("*"),
        _ => None,
    }
}

/// A draw written as a word ("Drawn", Spanish "Tablas").
fn is_draw_word(w: &str) -> bool {
    matches!(w.to_lowercase().trim_end_matches('.'), "draw" | "drawn" | "tablas")
}

/// A resignation written as a word ("resigns", Spanish "abandona").
fn is_resign_word(w: &str) -> bool {
    let w = w.to_lowercase();
    let w = w.trim_matches(|c: char| c == '(' || c == ')' || c == '.');
    matches!(w, "resigns" | "resigned" | "resign" | "abandona" | "abandonan" | "abandonó" | "abandonaron")
}

/// The side a word names before "resigns" ("White", Spanish "Blancas").
fn side_word(w: &str) -> Option<Color> {
    match w.to_lowercase().as_str() {
        "white" | "blancas" | "blanco" => Some(Color::White),
        "black" | "negras" | "negro" => Some(Color::Black),
        _ => None,
    }
}

/// Words that mark the move before them as check or mate in descriptive notation ("QxQ ch",
/// "B-Q3 dis ch").
fn is_check_word(w: &str) -> bool {
    matches!(
        w.to_lowercase().trim_end_matches('.'),
        "ch" | "check" | "dis" | "disch" | "dbl" | "dblch" | "double" | "mate" | "jaque" | "jaquemate"
    )
}

/// A word that completes the move before it: the side in "Castles KR", the piece in
/// "P-K8 (Q)".
fn completes(previous: &str, w: &str) -> bool {
    let castles = previous.eq_ignore_ascii_case("castles") || previous.eq_ignore_ascii_case("castle");
    // (the side may carry the check mark: "Castles QRch")
    let side = w.trim_end_matches(['+', '#']);
    let side = side.strip_suffix("ch").unwrap_or(side).trim_matches(|c| c == '(' || c == ')').to_uppercase();
    let piece_in_parens = w.len() >= 3
        && w.starts_with('(')
        && w.ends_with(')')
        && w[1..w.len() - 1].chars().all(|c| c.is_alphabetic())
        && w[1..w.len() - 1].chars().count() <= 2
        && w != "(=)";
    (castles && matches!(side.as_str(), "K" | "KR" | "Q" | "QR"))
        || (piece_in_parens && previous.ends_with(|c: char| c.is_ascii_digit()))
}

fn is_etc_word(w: &str) -> bool {
    let lw = w.to_lowercase();
    lw == "..." || lw == "…" || languages().iter().any(|l| l.etc_words.iter().any(|e| e.to_lowercase() == lw))
}

/// Cuts the text into header tags, comments and move words.
fn tokenize(text: &str) -> Tokens {
    let mut t = Tokens::default();
    // First pass: comments, tags and words.
    let mut words: Vec<(bool, String)> = Vec::new(); // (is_comment, text)
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut cur = String::new();
    let flush = |cur: &mut String, words: &mut Vec<(bool, String)>| {
        if !cur.is_empty() {
            words.push((false, std::mem::take(cur)));
        }
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '{' => {
                flush(&mut cur, &mut words);
                let end = chars[i + 1..].iter().position(|&c| c == '}').map(|p| i + 1 + p).unwrap_or(chars.len());
                let body: String = chars[i + 1..end].iter().collect();
                words.push((true, body.split_whitespace().collect::<Vec<_>>().join(" ")));
                i = end + 1;
                continue;
            }
            ';' => {
                flush(&mut cur, &mut words);
                let end = chars[i..].iter().position(|&c| c == '\n').map(|p| i + p).unwrap_or(chars.len());
                let body: String = chars[i + 1..end].iter().collect();
                words.push((true, body.trim().to_string()));
                i = end;
                continue;
            }
            '[' if cur.is_empty() => {
                let end = chars[i..].iter().position(|&c| c == ']').map(|p| i + p).unwrap_or(chars.len());
                let body: String = chars[i + 1..end].iter().collect();
                if let Some((k, v)) = body.trim().split_once(char::is_whitespace) {
                    t.headers.push((k.to_string(), v.trim().trim_matches('"').to_string()));
                }
                i = end + 1;
                continue;
            }
            c if c.is_whitespace() || c == '|' => flush(&mut cur, &mut words),
            _ => cur.push(c),
        }
        i += 1;
    }
    flush(&mut cur, &mut words);

    let mut ended = false;
    for (is_comment, w) in words {
        if ended {
            continue;
        }
        if is_comment {
            match t.moves.last_mut() {
                Some(m) => m.comments.push(w),
                None => t.intro.push(w),
            }
            continue;
        }
        let mut w = w.as_str();
        // A move number: "12." "12..." "12" "12.Nf3" "12…".
        let digits = w.chars().take_while(|c| c.is_ascii_digit()).count();
        if digits > 0 {
            let rest = &w[digits..];
            let dots = rest.chars().take_while(|&c| c == '.' || c == '…').count();
            let after = &rest[rest.char_indices().nth(dots).map(|(i, _)| i).unwrap_or(rest.len())..];
            if (dots > 0 || rest.is_empty()) && normalize_result(w).is_none() {
                let n: u32 = w[..digits].parse().unwrap_or(0);
                if t.moves.is_empty() {
                    t.first_number = Some(n);
                    t.black_first = rest.starts_with("...") || rest.starts_with('…');
                }
                w = after;
                if w.is_empty() {
                    continue;
                }
            }
        }
        if w.chars().all(|c| c == '.' || c == '…') {
            if w.len() >= 3 && t.moves.is_empty() && t.first_number.is_some() {
                t.black_first = true;
            }
            continue;
        }
        if let Some(r) = normalize_result(w) {
            t.result = Some(r.to_string());
            ended = true;
            continue;
        }
        if is_draw_word(w) && t.result.is_none() {
            t.result = Some("1/2-1/2".into());
            ended = true;
            continue;
        }
        if is_resign_word(w) {
            let side = t.moves.last().and_then(|m| side_word(&m.text));
            if side.is_some() {
                t.moves.pop();
            }
            t.resigned = Some(side);
            ended = true;
            continue;
        }
        if let Some(m) = t.moves.last_mut()
            && (is_check_word(w) || completes(&m.text, w))
        {
            if is_check_word(w) {
                m.ann.check = true;
            } else {
                m.text = format!("{} {w}", m.text);
            }
            continue;
        }
        if is_etc_word(w) {
            t.etc_word = Some(w.to_string());
            ended = true;
            continue;
        }
        if w == "=" {
            // The Slovenian text marks a draw offer with a lone "=".
            if let Some(m) = t.moves.last_mut() {
                m.ann.draw_offer = true;
            }
            continue;
        }
        // Words that only annotate the move before them: "(=)", "e.p.", "!?", "+".
        let (core, ann) = split_annotations(w);
        // ("e.p.ch": descriptive writers put the check word after it)
        let ep_word = matches!(skeleton_str(&core).as_str(), "e.p" | "e.p.")
            || skeleton_str(w).strip_prefix("e.p.").is_some_and(|rest| rest.is_empty() || is_check_word(rest));
        if core.is_empty() || ep_word {
            if let Some(m) = t.moves.last_mut() {
                let en_passant = ann.en_passant || !core.is_empty();
                merge(&mut m.ann, Annotations { en_passant, ..ann });
            }
            continue;
        }
        t.moves.push(Written { text: w.to_string(), ann, comments: Vec::new() });
    }
    t
}

fn merge(a: &mut Annotations, b: Annotations) {
    a.check |= b.check;
    a.mate |= b.mate;
    a.en_passant |= b.en_passant;
    a.draw_offer |= b.draw_offer;
    a.nag = a.nag.or(b.nag);
}

/// One move of a game that was read.
#[derive(Clone, Debug)]
pub struct GameMove {
    /// The legal move.
    pub mv: Move,
    /// Standard English SAN with check marks.
    pub san: String,
    /// What was written.
    pub written: String,
    /// How the writing matched.
    pub kind: MatchKind,
    /// Marks written after it.
    pub annotations: Annotations,
    /// Comments after it (from the text, and notes of the reader).
    pub comments: Vec<String>,
}

/// A game read from text.
#[derive(Clone, Debug)]
pub struct Game {
    /// The language it was read in.
    pub lang: &'static Lang,
    /// Every language that reads the game equally well (same letters), best first.
    pub lang_candidates: Vec<&'static Lang>,
    /// Tags found in the text.
    pub headers: Vec<(String, String)>,
    /// Comments before the first move.
    pub intro: Vec<String>,
    /// The position the game starts from (a FEN tag's, else the standard one).
    pub start: Chess,
    /// The moves, in order.
    pub moves: Vec<GameMove>,
    /// The result written, or implied by mate or stalemate; "*" if neither.
    pub result: String,
    /// Lenient mode: where the text could no longer be followed.
    pub problem: Option<GameError>,
}

struct Walk {
    moves: Vec<GameMove>,
    problem: Option<GameError>,
    informal: usize,
}

fn move_number(start: &Chess, ply: usize) -> (u32, Color) {
    let first = start.fullmoves().get();
    let offset = if start.turn() == Color::Black { ply + 1 } else { ply };
    let color = if offset % 2 == 0 { Color::White } else { Color::Black };
    (first + (offset / 2) as u32, color)
}

/// How many plies of `moves` from `i` can be followed, trying every reading where several fit.
fn reach(pos: &Chess, moves: &[&str], lang: &Lang, i: usize, depth: usize, budget: &mut usize) -> usize {
    if depth == 0 || i >= moves.len() || *budget == 0 {
        return 0;
    }
    *budget -= 1;
    let Ok(readings) = parse_move(pos, moves[i], lang) else { return 0 };
    let mut best = 0;
    for r in readings {
        let mut next = pos.clone();
        next.play_unchecked(r.mv);
        best = best.max(1 + reach(&next, moves, lang, i + 1, depth - 1, budget));
        if best == depth {
            break;
        }
    }
    best
}

/// How many of `moves` (written moves, in order, from `pos`) can be followed as legal moves
/// before one cannot, looking at most `depth` ahead and trying every reading where several fit.
pub fn follow(pos: &Chess, moves: &[&str], lang: &Lang, depth: usize) -> usize {
    let mut budget = 2000;
    reach(pos, moves, lang, 0, depth, &mut budget)
}

/// Of several readings, the ones under which the game goes on furthest.
fn resolve(pos: &Chess, readings: Vec<Reading>, moves: &[&str], lang: &Lang, i: usize) -> Vec<Reading> {
    const LOOKAHEAD: usize = 16;
    let scored: Vec<(usize, Reading)> = readings
        .into_iter()
        .map(|r| {
            let mut next = pos.clone();
            next.play_unchecked(r.mv);
            let mut budget = 2000;
            (reach(&next, moves, lang, i + 1, LOOKAHEAD, &mut budget), r)
        })
        .collect();
    let best = scored.iter().map(|(s, _)| *s).max().unwrap_or(0);
    scored.into_iter().filter(|(s, _)| *s == best).map(|(_, r)| r).collect()
}

fn walk(start: &Chess, tokens: &Tokens, lang: &Lang, lenient: bool) -> Walk {
    let mut pos = start.clone();
    let mut out = Walk { moves: Vec::new(), problem: None, informal: 0 };
    let texts: Vec<&str> = tokens.moves.iter().map(|w| w.text.as_str()).collect();
    for (i, w) in tokens.moves.iter().enumerate() {
        let (number, color) = move_number(start, i);
        let fail = |problem| GameError::Move { number, color, text: w.text.clone(), problem };
        let readings = match parse_move(&pos, &w.text, lang) {
            Ok(r) => r,
            Err(MoveError::Illegal { .. }) => {
                out.problem = Some(fail(MoveProblem::Illegal));
                break;
            }
            Err(MoveError::NotAMove { reason, .. }) => {
                out.problem = Some(fail(MoveProblem::NotAMove(reason)));
                break;
            }
            Err(MoveError::Empty) => continue,
        };
        let mut readings = if readings.len() > 1 { resolve(&pos, readings, &texts, lang, i) } else { readings };
        let mut comments = w.comments.clone();
        if readings.len() > 1 {
            let alts: Vec<String> = readings.iter().map(|r| english_san(&pos, &r.mv)).collect();
            if !lenient {
                out.problem = Some(fail(MoveProblem::Ambiguous(alts)));
                break;
            }
            comments.push(format!(
                "scoresheet: \"{}\" is ambiguous between {}; took the first",
                w.text,
                alts.join(" and ")
            ));
            readings.truncate(1);
        }
        let r = readings[0];
        if r.kind == MatchKind::Informal {
            out.informal += 1;
        }
        let san = english_san(&pos, &r.mv);
        if w.ann.draw_offer {
            comments.insert(0, "draw offer (=)".into());
        }
        out.moves.push(GameMove {
            mv: r.mv,
            san,
            written: w.text.clone(),
            kind: r.kind,
            annotations: w.ann.clone(),
            comments,
        });
        pos.play_unchecked(r.mv);
    }
    out
}

fn start_position(tokens: &Tokens) -> Result<Chess, GameError> {
    match tokens.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case("FEN")) {
        None => Ok(Chess::default()),
        Some((_, fen)) => {
            let fen: Fen = fen.parse().map_err(|e| GameError::BadFen(format!("{fen}: {e}")))?;
            fen.into_position(CastlingMode::Standard).map_err(|e| GameError::BadFen(e.to_string()))
        }
    }
}

/// Reads a whole game written in `choice`'s letters. Strict mode stops at the first move that
/// cannot be resolved; `lenient` follows the game as far as it can and keeps the problem in
/// [`Game::problem`] (and a comment).
pub fn parse_game(text: &str, choice: LangChoice, lenient: bool) -> Result<Game, GameError> {
    let tokens = tokenize(text);
    if tokens.moves.is_empty() {
        return Err(GameError::NoMoves);
    }
    let start = start_position(&tokens)?;
    let candidates: Vec<&'static Lang> = match choice {
        LangChoice::Fixed(l) => vec![l],
        LangChoice::Auto => all_languages().collect(),
    };
    // Read under every candidate letter set; the best reading goes furthest, then with the
    // fewest informal matches.
    let mut walks: Vec<(&'static Lang, Walk)> = Vec::new();
    for lang in candidates {
        if let Some((_, w)) = walks.iter().find(|(l, _)| l.same_letters(lang)) {
            let copy = Walk { moves: w.moves.clone(), problem: w.problem.clone(), informal: w.informal };
            walks.push((lang, copy));
            continue;
        }
        let w = walk(&start, &tokens, lang, lenient);
        walks.push((lang, w));
    }
    let key = |w: &Walk| (w.moves.len(), usize::MAX - w.informal);
    let best_key = walks.iter().map(|(_, w)| key(w)).max().unwrap_or((0, 0));
    let mut tied: Vec<(&'static Lang, Walk)> = walks.into_iter().filter(|(_, w)| key(w) == best_key).collect();
    // A word like "usw." in the text points to one language of those tied.
    if let Some(etc) = &tokens.etc_word {
        let lw = etc.to_lowercase();
        tied.sort_by_key(|(l, _)| !l.etc_words.iter().any(|e| e.to_lowercase() == lw));
        let hinted = tied.iter().filter(|(l, _)| l.etc_words.iter().any(|e| e.to_lowercase() == lw)).count();
        if hinted == 1 {
            tied.truncate(1);
        }
    }
    let lang_candidates: Vec<&'static Lang> = tied.iter().map(|(l, _)| *l).collect();
    let (lang, walk) = tied.into_iter().next().expect("at least one language");
    if let Some(p) = &walk.problem
        && (!lenient || walk.moves.is_empty())
    {
        return Err(p.clone());
    }
    let mut moves = walk.moves;
    if let (Some(p), Some(last)) = (&walk.problem, moves.last_mut()) {
        last.comments.push(format!("scoresheet: stopped at {p}"));
    }
    let mut end = start.clone();
    for m in &moves {
        end.play_unchecked(m.mv);
    }
    let result = match (&tokens.result, tokens.resigned) {
        (Some(r), _) => r.clone(),
        // The side that resigned loses; unnamed, it is the side to move.
        (None, Some(side)) => match side.unwrap_or(end.turn()) {
            Color::White => "0-1".into(),
            Color::Black => "1-0".into(),
        },
        _ if walk.problem.is_none() && end.is_checkmate() => {
            if end.turn() == Color::White {
                "0-1".into()
            } else {
                "1-0".into()
            }
        }
        _ if walk.problem.is_none() && end.is_stalemate() => "1/2-1/2".into(),
        _ => "*".into(),
    };
    Ok(Game {
        lang,
        lang_candidates,
        headers: tokens.headers,
        intro: tokens.intro,
        start,
        moves,
        result,
        problem: walk.problem,
    })
}

impl Game {
    /// The language tag: one code, or the codes of every language that reads the game equally
    /// well (their letters are the same), best first, separated by spaces.
    pub fn language_tag(&self) -> String {
        self.lang_candidates.iter().map(|l| l.code).collect::<Vec<_>>().join(" ")
    }

    /// The game as a PGN record: headers from the text, the language, moves in English SAN.
    pub fn to_pgn_game(&self) -> PgnGame {
        let mut headers: Vec<(String, String)> =
            self.headers.iter().filter(|(k, _)| k != "Result" && k != "Language").cloned().collect();
        headers.push(("Language".into(), self.language_tag()));
        if self.start != Chess::default() {
            if !headers.iter().any(|(k, _)| k == "FEN") {
                let fen = Fen::from_position(&self.start, shakmaty::EnPassantMode::Legal);
                headers.push(("FEN".into(), fen.to_string()));
            }
            if !headers.iter().any(|(k, _)| k == "SetUp") {
                headers.push(("SetUp".into(), "1".into()));
            }
        }
        let moves = self
            .moves
            .iter()
            .map(|m| PgnMove {
                san: m.san.clone(),
                nags: m.annotations.nag.into_iter().collect(),
                comments: m.comments.clone(),
            })
            .collect();
        PgnGame {
            headers,
            intro: self.intro.clone(),
            first_move: (self.start.fullmoves().get(), self.start.turn() == Color::Black),
            moves,
            result: self.result.clone(),
        }
    }
}
