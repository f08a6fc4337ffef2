//! The notation engine: how chess moves are written, in every language, both ways.
//!
//! A written move ("Sf3" in German, "Кf3" in Russian, "P-K4" in English descriptive notation,
//! "exd6 e.p.", "0-0+") is read as the legal moves it can mean in a position, and a legal move is
//! spelled as a player of a language and a writing habit writes it. Positions and moves are
//! [`shakmaty`]'s.
//!
//! ```
//! use scoresheet_notation::{MatchKind, Style, english_san, lang, parse_move, spell};
//! use shakmaty::Chess;
//!
//! let start = Chess::default();
//!
//! // "Sf3" in German (S for Springer): the knight from g1 to f3.
//! let german = lang("de").expect("German is a known language");
//! let readings = parse_move(&start, "Sf3", german)?;
//! assert_eq!(readings.len(), 1);
//! assert_eq!(readings[0].kind, MatchKind::Exact);
//! let knight = readings[0].mv;
//! assert_eq!(english_san(&start, &knight), "Nf3");
//!
//! // The same move as a Russian player writes it (К for конь).
//! let russian = lang("ru").expect("Russian is a known language");
//! assert_eq!(spell(&start, &knight, russian, &Style::default()), "Кf3");
//!
//! // "P-K4" in English descriptive notation: the king's pawn two squares forward.
//! let descriptive = lang("en-descriptive").expect("a known notation");
//! let readings = parse_move(&start, "P-K4", descriptive)?;
//! assert_eq!(english_san(&start, &readings[0].mv), "e4");
//! # Ok::<(), scoresheet_notation::MoveError>(())
//! ```
//!
//! A whole game typed up in any language becomes PGN:
//!
//! ```
//! use scoresheet_notation::{LangChoice, parse_game, pgn::write_pgn};
//!
//! let game = parse_game("1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 1/2-1/2", LangChoice::Auto, false)?;
//! assert_eq!(game.lang.code, "de");
//! let pgn = write_pgn(&game.to_pgn_game());
//! assert!(pgn.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1/2-1/2"));
//! # Ok::<(), scoresheet_notation::GameError>(())
//! ```
//!
//! The modules:
//! - [`mod@lang`]: national piece letters for 26 languages, Cyrillic included, and the descriptive
//!   notations "en-descriptive" and "es-descriptive".
//! - [`parse`]: one written move to the legal moves it can mean ([`parse_move`]).
//! - [`mod@spell`]: one legal move to the ways a player writes it ([`spell()`], [`spellings`]).
//! - [`game`]: whole games as text, with language and notation detection ([`parse_game`]).
//! - [`pgn`]: PGN writing.
//!
//! Descriptive notation ("P-K4", "N-KB3"; Spanish "P4R", "C3AR") is read and written by the same
//! functions, given a descriptive language.

#![deny(missing_docs)]

mod descriptive;
pub mod game;
pub mod lang;
pub mod parse;
pub mod pgn;
pub mod spell;

pub use game::{Game, GameError, GameMove, LangChoice, MoveProblem, follow, parse_game};
pub use lang::{Lang, Notation, WordOrder, all_languages, descriptive_languages, english, lang, languages};
pub use parse::{Annotations, MatchKind, MoveError, Reading, parse_move, split_annotations};
pub use spell::{
    CaptureMark, CastleStyle, CheckMark, Habits, MoveForm, PawnCaptureStyle, PromotionStyle, SpellKey, SpellKeys,
    Spelling, Style, Variant, english_san, spell, spell_key, spell_key_with_habits, spell_with_habits,
    spelling_variants, spellings,
};
