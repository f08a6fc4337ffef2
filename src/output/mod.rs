//! Output: PGN (standard English SAN).

pub mod pgn;
