//! scoresheet: reads handwritten chess scoresheets into PGN.
//!
//! One module per stage, in the order data flows through them:
//! [`page`] (load, straighten, cut cells) -> [`recognize`] (handwriting model) ->
//! [`decode`] (legal-game beam search) -> [`output`] (PGN, JSON, review page).
//! [`notation`] knows how chess moves are written in every language; [`synth`] renders
//! synthetic scoresheets with exact ground truth.

pub mod decode;
pub mod notation;
pub mod output;
pub mod page;
pub mod read;
pub mod recognize;
pub mod synth;
