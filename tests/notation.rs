//! The notation engine against its acceptance texts and tolerant-reading cases.

use scoresheet::notation::{
    Game, GameError, LangChoice, MatchKind, MoveError, MoveProblem, english_san, lang, parse_game, parse_move,
};
use shakmaty::{Chess, Position, fen::Fen};

fn seed(name: &str) -> String {
    let path = format!("{}/tests/data/seed/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn expected() -> Vec<(String, usize, String)> {
    seed("expected.tsv")
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].parse().unwrap(), f[2].to_string())
        })
        .collect()
}

fn sans(g: &Game) -> Vec<String> {
    g.moves.iter().map(|m| m.san.clone()).collect()
}

#[test]
fn every_seed_transcript_reads_as_a_legal_game_in_its_language() {
    let cases = expected();
    assert_eq!(cases.len(), 8);
    for (file, plies, code) in cases {
        let g = parse_game(&seed(&file), LangChoice::Auto, false).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(g.moves.len(), plies, "{file}: half-moves");
        let codes: Vec<&str> = g.lang_candidates.iter().map(|l| l.code).collect();
        assert!(codes.contains(&code.as_str()), "{file}: language {codes:?}, expected {code}");
        // Every candidate language has the letters of the expected one.
        let want = lang(&code).unwrap();
        assert!(g.lang_candidates.iter().all(|l| l.same_letters(want)), "{file}: {codes:?}");
        // The moves replay legally from the start (the SANs were produced on the way).
        let mut pos = Chess::default();
        for m in &g.moves {
            assert!(pos.is_legal(m.mv), "{file}: {} illegal", m.san);
            pos.play_unchecked(m.mv);
        }
    }
}

#[test]
fn estonian_letters_are_read_as_estonian() {
    let g = parse_game(&seed("et.txt"), LangChoice::Auto, false).unwrap();
    assert_eq!(g.language_tag(), "et");
    let s = sans(&g);
    // "Lb3" is a queen move in Estonian, "Rf6" a knight, "Ob4" a bishop, "Ve8" a rook.
    assert_eq!(s[1], "Nf6");
    assert_eq!(s[5], "Bb4");
    assert_eq!(s[18], "Qb3");
    assert_eq!(s[25], "Re8");
    assert!(g.moves.last().unwrap().annotations.draw_offer);
    // "jne." is not a result.
    assert_eq!(g.result, "*");
}

#[test]
fn german_and_estonian_samples_are_the_same_game() {
    let de = parse_game(&seed("de.txt"), LangChoice::Auto, false).unwrap();
    let et = parse_game(&seed("et.txt"), LangChoice::Auto, false).unwrap();
    assert_eq!(de.language_tag(), "de", "\"usw.\" names German among the K D T L S languages");
    assert_eq!(sans(&de)[..33], sans(&et)[..33]);
}

#[test]
fn norwegian_and_russian_forms_agree() {
    let no1 = sans(&parse_game(&seed("no-1.txt"), LangChoice::Auto, false).unwrap());
    let no2 = sans(&parse_game(&seed("no-2.txt"), LangChoice::Auto, false).unwrap());
    let ru1 = sans(&parse_game(&seed("ru-1.txt"), LangChoice::Auto, false).unwrap());
    let ru2 = sans(&parse_game(&seed("ru-2.txt"), LangChoice::Auto, false).unwrap());
    let ru3 = sans(&parse_game(&seed("ru-3.txt"), LangChoice::Auto, false).unwrap());
    assert_eq!(no1, no2);
    assert_eq!(no1, ru1);
    assert_eq!(ru1, ru2);
    // The long-algebraic transcript plays 8. Qd4d3 where the short ones play 8. Qe3+.
    assert_eq!(ru3[14], "Qd3");
    assert_eq!(ru1[14], "Qe3+");
    assert_eq!(ru1[..14], ru3[..14]);
    assert_eq!(ru1[15..], ru3[15..]);
    assert_eq!(no1[10], "exd6", "e.p. capture");
}

#[test]
fn fixed_language_overrides_detection() {
    let err = parse_game(&seed("et.txt"), LangChoice::Fixed(lang("de").unwrap()), false).unwrap_err();
    match err {
        GameError::Move { number: 1, text, problem: MoveProblem::NotAMove(_), .. } => assert_eq!(text, "Rf6"),
        other => panic!("{other:?}"),
    }
    let msg = parse_game(&seed("et.txt"), LangChoice::Fixed(lang("de").unwrap()), false).unwrap_err().to_string();
    assert!(msg.contains("move 1... \"Rf6\""), "{msg}");
}

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>().unwrap().into_position(shakmaty::CastlingMode::Standard).unwrap()
}

fn read(p: &Chess, text: &str, code: &str) -> Vec<(String, MatchKind)> {
    let mut v: Vec<(String, MatchKind)> = parse_move(p, text, lang(code).unwrap())
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .into_iter()
        .map(|r| (english_san(p, &r.mv), r.kind))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

fn one(p: &Chess, text: &str, code: &str) -> (String, MatchKind) {
    let v = read(p, text, code);
    assert_eq!(v.len(), 1, "{text}: {v:?}");
    v[0].clone()
}

#[test]
fn capture_marks_and_suffixes() {
    // White: pawns e4, c4; knight f3; black: pawn d5, knight e5.
    let p = pos("4k3/8/8/3pn3/2P1P3/5N2/8/4K3 w - - 0 1");
    use MatchKind::*;
    for text in ["Nxe5", "N:e5", "Ne5:", "Ne5", "Sxe5", "S:e5"] {
        let code = if text.starts_with('S') { "de" } else { "en" };
        let got = one(&p, text, code);
        assert_eq!(got.0, "Nxe5", "{text}");
    }
    assert_eq!(one(&p, "Nf3xe5", "en"), ("Nxe5".into(), Exact));
    assert_eq!(one(&p, "Nf3-e5", "en"), ("Nxe5".into(), Exact));
    assert_eq!(one(&p, "f3-e5", "en"), ("Nxe5".into(), Exact));
    assert_eq!(one(&p, "Nxe5+!?", "en").0, "Nxe5");
    // Pawn captures: full, without mark, informal by files; two pawns can take on d5.
    assert_eq!(one(&p, "exd5", "en"), ("exd5".into(), Exact));
    assert_eq!(one(&p, "ed5", "en"), ("exd5".into(), Exact));
    assert_eq!(one(&p, "e:d5", "en"), ("exd5".into(), Exact));
    assert_eq!(one(&p, "ed", "en"), ("exd5".into(), Informal));
    assert_eq!(one(&p, "exd", "en"), ("exd5".into(), Informal));
    assert_eq!(one(&p, "cd", "en"), ("cxd5".into(), Informal));
    // "PxP" could be either pawn: both reported.
    assert_eq!(read(&p, "PxP", "en"), vec![("cxd5".into(), Informal), ("exd5".into(), Informal)]);
    // "NxP" is impossible (the knight takes a knight); "NxN" is the capture.
    assert!(matches!(parse_move(&p, "NxP", lang("en").unwrap()), Err(MoveError::Illegal { .. })));
    assert_eq!(one(&p, "NxN", "en"), ("Nxe5".into(), Informal));
    // A capture mark on a quiet move is not that move.
    assert!(matches!(parse_move(&p, "Nxg5", lang("en").unwrap()), Err(MoveError::Illegal { .. })));
    // A stray "P".
    assert_eq!(one(&p, "Pc5", "en"), ("c5".into(), Informal));
    assert_eq!(one(&p, "Pc5", "de"), ("c5".into(), Informal));
    // Cyrillic look-alikes in a Latin text: "Nхе5" with Cyrillic х and е.
    assert_eq!(one(&p, "Nхе5", "en").0, "Nxe5");
}

#[test]
fn disambiguation_missing_or_given() {
    // Knights on b8 and f6 can both go to d7; rooks on a1 and a5 can both go to a3.
    let p = pos("1n2k3/8/5n2/R7/8/8/8/R3K3 b - - 0 1");
    use MatchKind::*;
    assert_eq!(read(&p, "Nd7", "en"), vec![("Nbd7".into(), Underspecified), ("Nfd7".into(), Underspecified)]);
    assert_eq!(one(&p, "Nbd7", "en"), ("Nbd7".into(), Exact));
    assert_eq!(one(&p, "Nf6d7", "en"), ("Nfd7".into(), Exact));
    assert_eq!(one(&p, "Кbd7", "ru"), ("Nbd7".into(), Exact));
    let w = pos("1n2k3/8/5n2/R7/8/8/8/R3K3 w - - 0 1");
    assert_eq!(one(&w, "R5a3", "en"), ("R5a3".into(), Exact));
    assert_eq!(one(&w, "T1a3", "de"), ("R1a3".into(), Exact));
    assert_eq!(read(&w, "Ra3", "en").len(), 2);
}

#[test]
fn promotion_castling_and_en_passant() {
    let p = pos("3r2k1/4P3/8/8/8/8/8/R3K2R w KQ - 0 1");
    use MatchKind::*;
    for text in ["e8D", "e8=D", "e8(D)", "e8/D", "e7-e8D", "e7e8=D"] {
        assert_eq!(one(&p, text, "de"), ("e8=Q+".into(), Exact), "{text}");
    }
    assert_eq!(one(&p, "exd8S", "de"), ("exd8=N".into(), Exact));
    assert_eq!(one(&p, "exd8=N", "en"), ("exd8=N".into(), Exact));
    assert_eq!(one(&p, "e7-e8S", "sl"), ("e8=N".into(), Exact));
    assert_eq!(one(&p, "e8", "en"), ("e8=Q+".into(), Informal), "no piece: a queen");
    let p = pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    for text in ["0-0", "O-O", "o-o", "00", "0-0+"] {
        assert_eq!(one(&p, text, "en"), ("O-O".into(), Exact), "{text}");
    }
    for text in ["0-0-0", "O-O-O", "000"] {
        assert_eq!(one(&p, text, "en"), ("O-O-O".into(), Exact), "{text}");
    }
    assert_eq!(one(&p, "Kg1", "en"), ("O-O".into(), Informal));
    let ep = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(one(&ep, "exd6 e.p.", "en"), ("exd6".into(), Exact));
    assert_eq!(one(&ep, "exd6e.p.", "no"), ("exd6".into(), Exact));
    assert_eq!(one(&ep, "ed6 е.р.", "ru"), ("exd6".into(), Exact));
    assert_eq!(one(&ep, "пxп", "ru"), ("exd6".into(), Informal));
}

#[test]
fn languages_with_two_letter_and_cyrillic_pieces() {
    let p = Chess::default();
    assert_eq!(one(&p, "Кg1f3", "ru").0, "Nf3");
    assert_eq!(one(&p, "Кf3", "ru").0, "Nf3");
    assert_eq!(one(&p, "Kf3", "ru").0, "Nf3", "Latin K reads as Cyrillic К");
    assert_eq!(one(&p, "Кf3", "uk").0, "Nf3");
    assert_eq!(one(&p, "Кf3", "bg").0, "Nf3");
    assert_eq!(one(&p, "Af3", "tr").0, "Nf3");
    assert_eq!(one(&p, "Jf3", "cs").0, "Nf3");
    assert_eq!(one(&p, "Hf3", "hu").0, "Nf3");
    assert_eq!(one(&p, "Pf3", "nl").0, "Nf3", "P is a knight in Dutch");
    assert_eq!(one(&p, "Cf3", "fr").0, "Nf3");
    let after = {
        let mut c = p.clone();
        c.play_unchecked(parse_move(&c, "e4", lang("en").unwrap()).unwrap()[0].mv);
        c.play_unchecked(parse_move(&c, "e5", lang("en").unwrap()).unwrap()[0].mv);
        c
    };
    assert_eq!(one(&after, "Крe2", "ru").0, "Ke2");
    assert_eq!(one(&after, "Kpe2", "ru").0, "Ke2");
    assert_eq!(one(&after, "Фh5", "ru").0, "Qh5");
    assert_eq!(one(&after, "Цe2", "bg").0, "Ke2");
    assert_eq!(one(&after, "Şe2", "tr").0, "Ke2");
}

#[test]
fn game_text_variants() {
    let text = "[Event \"Club\"]\n{opening} 1 . e4 e5 2.Nf3! {good} Nc6\n3.Bb5 a6 4.Ba4?! Nf6 5.O-O Be7 ; comment\n 6.Re1 b5 7.Bb3 d6 8.c3 O-O 9.h3 ½-½";
    let g = parse_game(text, LangChoice::Auto, false).unwrap();
    assert_eq!(g.moves.len(), 17);
    assert_eq!(g.result, "1/2-1/2");
    assert_eq!(g.headers[0], ("Event".to_string(), "Club".to_string()));
    assert_eq!(g.intro, vec!["opening".to_string()]);
    assert_eq!(g.moves[2].annotations.nag, Some(1));
    assert_eq!(g.moves[2].comments, vec!["good".to_string()]);
    assert_eq!(g.moves[6].annotations.nag, Some(6));
    let pgn = scoresheet::output::pgn::write_pgn(&g.to_pgn_game());
    assert!(pgn.contains("[Event \"Club\"]"));
    assert!(pgn.contains("2. Nf3 $1 {good} 2... Nc6"), "{pgn}");
    // Black to move first, from a FEN tag.
    let text = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 12\"]\n12... Kd7 13. e4 Kc6 *";
    let g = parse_game(text, LangChoice::Auto, false).unwrap();
    assert_eq!(g.moves.len(), 3);
    let pgn = scoresheet::output::pgn::write_pgn(&g.to_pgn_game());
    assert!(pgn.contains("12... Kd7 13. e4 Kc6 *"), "{pgn}");
    assert!(pgn.contains("[SetUp \"1\"]"));
}

#[test]
fn mate_sets_the_result_and_ambiguity_is_resolved_by_what_follows() {
    let g = parse_game("1. f3 e5 2. g4 Qh4#", LangChoice::Auto, false).unwrap();
    assert_eq!(g.result, "0-1");
    assert!(g.moves[3].annotations.mate);
    // 4. Nd2 (two knights can go there: b1 and f3): only Nbd2 lets 5. Nf3-e5 follow.
    let g = parse_game("1. Nf3 d5 2. d3 e5 3. e4 a6 4. Nd2 a5 5. Ne5", LangChoice::Fixed(lang("en").unwrap()), false);
    let g = g.unwrap();
    assert_eq!(g.moves[6].san, "Nbd2");
    assert_eq!(g.moves[6].kind, MatchKind::Underspecified);
    // Here nothing tells: an error in strict mode, a comment in lenient mode.
    let err = parse_game("1. Nf3 d5 2. d3 e5 3. e4 a6 4. Nd2 a5", LangChoice::Auto, false).unwrap_err();
    assert!(err.to_string().contains("ambiguous between Nbd2 and Nfd2"), "{err}");
    let g = parse_game("1. Nf3 d5 2. d3 e5 3. e4 a6 4. Nd2 a5", LangChoice::Auto, true).unwrap();
    assert_eq!(g.moves.len(), 8);
    assert!(g.moves[6].comments[0].contains("ambiguous"));
}

#[test]
fn lenient_mode_follows_as_far_as_it_can() {
    let g = parse_game("1. e4 e5 2. Nf3 Ke3 3. Bc4 Nc6", LangChoice::Auto, true).unwrap();
    assert_eq!(g.moves.len(), 3);
    assert!(g.problem.is_some());
    assert!(g.moves[2].comments.iter().any(|c| c.contains("\"Ke3\": illegal here")), "{:?}", g.moves[2].comments);
    assert_eq!(g.result, "*");
    let err = parse_game("1. e4 e5 2. Nf3 Ke3 3. Bc4 Nc6", LangChoice::Auto, false).unwrap_err();
    assert_eq!(err.to_string(), "move 2... \"Ke3\": illegal here");
}

#[test]
fn garbage_empty_and_huge_inputs_are_errors_not_panics() {
    let en = lang("en").unwrap();
    let p = Chess::default();
    for text in [
        "", "   ", "!!", "x", "xx", "=", "(", "Q=", "e9", "i4", "Nxx", "N-", "-e4", "e4e", "\u{0}", "💥", "e4=K", "K",
        "1.", "0-0-0-0",
    ] {
        assert!(parse_move(&p, text, en).is_err(), "{text:?}");
    }
    assert!(matches!(parse_move(&p, "", en), Err(MoveError::Empty)));
    for text in ["", "\n\n", "1.", "1-0", "{only a comment}", "the quick brown fox", "1. e4 e5 2. 💥"] {
        assert!(parse_game(text, LangChoice::Auto, false).is_err(), "{text:?}");
    }
    let huge = "Nf3 Nf6 ".repeat(50_000);
    assert!(parse_game(&huge, LangChoice::Auto, false).is_err());
    let huge_word = "e".repeat(100_000);
    assert!(parse_game(&huge_word, LangChoice::Auto, true).is_err());
    let bytes: String = (0..20_000u32).filter_map(|i| char::from_u32(i * 7919 % 0x2FFF)).collect();
    let _ = parse_game(&bytes, LangChoice::Auto, true);
}
