//! The notation engine: how chess moves are written, in every language, both ways.
//!
//! - [`lang`]: national piece letters for 26 languages, Cyrillic included.
//! - [`parse`]: one written move to the legal moves it can mean ([`parse_move`]).
//! - [`spell`]: one legal move to the ways a player writes it ([`spell`], [`spellings`]).
//! - [`game`]: whole games as text, with language detection ([`parse_game`]).

pub mod cli;
pub mod game;
pub mod lang;
pub mod parse;
pub mod spell;

pub use game::{Game, GameError, GameMove, LangChoice, MoveProblem, follow, parse_game};
pub use lang::{Lang, english, lang, languages};
pub use parse::{Annotations, MatchKind, MoveError, Reading, parse_move, split_annotations};
pub use spell::{
    CaptureMark, CastleStyle, CheckMark, Habits, MoveForm, PawnCaptureStyle, PromotionStyle, SpellKey, SpellKeys,
    Spelling, Style, Variant, english_san, spell, spell_key, spell_key_with_habits, spell_with_habits,
    spelling_variants, spellings,
};
