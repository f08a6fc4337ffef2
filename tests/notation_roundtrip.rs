//! Property tests: every spelling produced for every legal move, in every language, parses back to
//! exactly that move; any text fed to the parsers gives a result or an error, never a panic.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use scoresheet::notation::{LangChoice, Style, languages, parse_game, parse_move, spell, spelling_variants, spellings};
use shakmaty::{Chess, Position};

/// A position reached by a random playout of up to `plies` half-moves; promotions, en passant and
/// castling show up often enough over many seeds, and are forced into some playouts by preferring
/// special moves when present.
fn random_position(seed: u64, plies: usize) -> Chess {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Chess::default();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let special: Vec<_> =
            moves.iter().filter(|m| m.is_promotion() || m.is_en_passant() || m.is_castle() || m.is_capture()).collect();
        let m = if !special.is_empty() && rng.gen_bool(0.5) {
            *special[rng.gen_range(0..special.len())]
        } else {
            moves[rng.gen_range(0..moves.len())]
        };
        pos.play_unchecked(m);
    }
    pos
}

fn check_position(pos: &Chess, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    for mv in pos.legal_moves() {
        for lang in languages() {
            for text in spellings(pos, &mv, lang) {
                let readings = parse_move(pos, &text, lang)
                    .map_err(|e| TestCaseError::fail(format!("{} {text:?}: {e}", lang.code)))?;
                prop_assert_eq!(readings.len(), 1, "{} {:?} reads as {:?}", lang.code, text, readings);
                prop_assert_eq!(readings[0].mv, mv, "{} {:?}", lang.code, text);
            }
            for s in spelling_variants(pos, &mv, lang).into_iter().filter(|s| s.variant.underspecified) {
                let readings = parse_move(pos, &s.text, lang)
                    .map_err(|e| TestCaseError::fail(format!("{} {:?}: {e}", lang.code, s.text)))?;
                prop_assert!(readings.len() > 1 && readings.iter().any(|r| r.mv == mv), "{} {:?}", lang.code, s.text);
            }
            let style = Style::random(&mut rng);
            let text = spell(pos, &mv, lang, &style);
            let readings = parse_move(pos, &text, lang)
                .map_err(|e| TestCaseError::fail(format!("{} {text:?} ({style:?}): {e}", lang.code)))?;
            prop_assert!(
                readings.len() == 1 && readings[0].mv == mv,
                "{} {:?} ({:?}) reads as {:?}",
                lang.code,
                text,
                style,
                readings
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn every_spelling_parses_back_to_its_move(seed in any::<u64>(), plies in 0usize..120) {
        let pos = random_position(seed, plies);
        check_position(&pos, seed)?;
    }

    #[test]
    fn parse_move_never_panics(text in "\\PC{0,30}", seed in any::<u64>(), plies in 0usize..60) {
        let pos = random_position(seed, plies);
        for lang in languages() {
            let _ = parse_move(&pos, &text, lang);
        }
    }

    #[test]
    fn parse_game_never_panics(text in "[0-9a-hxKQRBNSDTL:=+#!?(). \\n{}½/-]{0,200}") {
        let _ = parse_game(&text, LangChoice::Auto, false);
        let _ = parse_game(&text, LangChoice::Auto, true);
    }
}

#[test]
fn special_moves_are_covered() {
    // Positions with promotion (with capture), en passant and both castlings, in every language.
    for fen in [
        "3r2k1/4P3/8/8/8/8/8/R3K2R w KQ - 0 1",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        "1n2k3/8/5n2/R7/8/8/8/R3K3 b - - 0 1",
        "4k3/8/8/8/8/8/3p4/2N3K1 b - - 0 1",
        // a pawn capture and a promotion capture between the same files ("axb": a4xb5 or a7xb8)
        "1n2k3/P7/8/1p6/P7/8/8/4K3 w - - 0 1",
    ] {
        let pos: Chess =
            fen.parse::<shakmaty::fen::Fen>().unwrap().into_position(shakmaty::CastlingMode::Standard).unwrap();
        check_position(&pos, 1).unwrap();
    }
}
