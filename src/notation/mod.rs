//! The notation engine: how chess moves are written, in every language, both ways.
//!
//! - [`mod@lang`]: national piece letters for 26 languages, Cyrillic included.
//! - [`parse`]: one written move to the legal moves it can mean ([`parse_move`]).
//! - [`mod@spell`]: one legal move to the ways a player writes it ([`spell()`], [`spellings`]).
//! - [`descriptive`]: descriptive notation both ways ("P-K4", "N-KB3"; Spanish "P4R", "C3AR"): the
//!   languages "en-descriptive" and "es-descriptive", which [`parse_move`] and [`spell()`] hand to it.
//! - [`game`]: whole games as text, with language and notation detection ([`parse_game`]).

pub mod cli;
pub mod descriptive;
pub mod game;
pub mod lang;
pub mod parse;
pub mod spell;

pub use game::{Game, GameError, GameMove, LangChoice, MoveProblem, follow, parse_game};
pub use lang::{Lang, Notation, WordOrder, all_languages, descriptive_languages, english, lang, languages};
pub use parse::{Annotations, MatchKind, MoveError, Reading, parse_move, split_annotations};
pub use spell::{
    CaptureMark, CastleStyle, CheckMark, Habits, MoveForm, PawnCaptureStyle, PromotionStyle, SpellKey, SpellKeys,
    Spelling, Style, Variant, english_san, spell, spell_key, spell_key_with_habits, spell_with_habits,
    spelling_variants, spellings,
};
