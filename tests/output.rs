//! PGN with review comments, the JSON report and the review page, from a decoded game.

use image::RgbImage;
use scoresheet::decode::{CellScorer, Params, SheetCopy, decode};
use scoresheet::notation::{LangChoice, Style, lang, parse_game, spell};
use scoresheet::output::review::{ReviewGame, review_html};
use scoresheet::output::{FileError, GameOutput, Report, SheetRef};
use shakmaty::{Chess, Position};

struct Exact(String);

impl CellScorer for Exact {
    fn logp(&mut self, texts: &[&str]) -> Vec<f32> {
        texts
            .iter()
            .map(|t| if *t == self.0 { -0.1 } else { -6.0 * (1 + t.len().abs_diff(self.0.len())) as f32 })
            .collect()
    }
    fn best(&mut self) -> (String, f32) {
        (self.0.clone(), -0.1)
    }
}

/// The cells of the sample game as written in English, then blank cells up to 20.
fn sample_cells() -> Vec<String> {
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7";
    let moves: Vec<_> = parse_game(text, LangChoice::Auto, false).unwrap().moves.into_iter().map(|m| m.mv).collect();
    let mut pos = Chess::default();
    let mut cells: Vec<String> = Vec::new();
    for m in &moves {
        cells.push(spell(&pos, m, lang("en").unwrap(), &Style::default()));
        pos.play_unchecked(*m);
    }
    cells.resize(20, String::new());
    cells
}

/// `cells` read by an exact recognizer and decoded in English.
fn decode_exact(cells: &[String]) -> scoresheet::decode::DecodedGame {
    let copy =
        SheetCopy { cells: cells.iter().map(|t| Some(Box::new(Exact(t.clone())) as Box<dyn CellScorer>)).collect() };
    decode(vec![copy], Some(lang("en").unwrap()), &Params::default())
}

fn sample() -> GameOutput {
    let mut cells = sample_cells();
    cells[5] = "a#".into(); // unreadable: 3... a6 or a5
    let game = decode_exact(&cells);
    let boxes = (0..20)
        .map(|i| {
            Some([
                10.0 + 100.0 * (i % 2) as f32,
                10.0 + 30.0 * (i / 2) as f32,
                100.0 + 100.0 * (i % 2) as f32,
                35.0 + 30.0 * (i / 2) as f32,
            ])
        })
        .collect();
    GameOutput {
        id: "round3-board1".into(),
        sheets: vec![SheetRef {
            file: "scans/r3b1.jpg".into(),
            page: 0,
            copy: 0,
            boxes,
            lowered: None,
            numbering_guessed: false,
            second_form_unread: false,
        }],
        game,
        headers: vec![("Event".into(), "Club \"Open\"".into()), ("Round".into(), "3".into())],
    }
}

#[test]
fn pgn_has_tags_sources_and_comments_on_flagged_moves() {
    let g = sample();
    assert_eq!(g.game.moves.len(), 10);
    assert!(g.game.moves[5].flagged, "{:?}", g.game.moves[5]);
    let pgn = g.to_pgn();
    assert!(pgn.contains("[Event \"Club \\\"Open\\\"\"]"));
    assert!(pgn.contains("[Round \"3\"]"));
    assert!(pgn.contains("[Source \"scans/r3b1.jpg\"]"));
    assert!(pgn.contains("[Language \"en\"]"));
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    let flagged_san = &g.game.moves[5].san;
    assert!(flat.contains(&format!("3. Bb5 {flagged_san} {{scoresheet: check this move, confidence")), "{pgn}");
    assert!(flat.contains("; or "), "{pgn}");
}

#[test]
fn a_flagged_move_names_the_earlier_move_its_meaning_hangs_on() {
    let mut g = sample();
    // (as the decoder marks a move whose piece an uncertain earlier move may have moved)
    g.game.moves[7].flagged = true;
    g.game.moves[7].hangs_on = Some(5);
    let flat = g.to_pgn().split_whitespace().collect::<Vec<_>>().join(" ");
    let earlier = &g.game.moves[5].san;
    assert!(flat.contains(&format!("its meaning hangs on 3... {earlier}}}")), "{flat}");
    let v = serde_json::to_value(g.to_json()).unwrap();
    assert_eq!(v["moves"][7]["hangs_on"], 6, "the earlier move's ply");
    assert!(v["moves"][0].get("hangs_on").is_none());
}

#[test]
fn json_report_has_every_half_move_with_cells_and_boxes() {
    let g = sample();
    let report = Report {
        games: vec![g.to_json()],
        errors: vec![FileError { file: "bad.png".into(), error: "not an image".into() }],
    };
    let v: serde_json::Value = serde_json::to_value(&report).unwrap();
    let moves = v["games"][0]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 10);
    assert_eq!(moves[0]["san"], "e4");
    assert_eq!(moves[0]["side"], "white");
    assert_eq!(moves[1]["side"], "black");
    assert_eq!(moves[0]["cells"][0]["reading"], "written");
    assert_eq!(moves[0]["cells"][0]["text"], "e4");
    assert_eq!(moves[0]["cells"][0]["box"].as_array().unwrap().len(), 4);
    assert_eq!(v["games"][0]["language"], "en");
    assert_eq!(v["errors"][0]["file"], "bad.png");
    assert!(moves[5]["flagged"].as_bool().unwrap());
}

#[test]
fn review_page_is_self_contained_with_flagged_moves_first() {
    let g = sample();
    let img = RgbImage::from_pixel(220, 340, image::Rgb([250, 250, 245]));
    let html = review_html("Club open, R3", &[ReviewGame { game: &g, images: vec![Some(&img)] }], &[]);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(
        !html.contains("http://")
            || html.matches("http://").all(|_| html.contains("xmlns=\"http://www.w3.org/2000/svg\""))
    );
    assert!(!html.contains("https://"));
    assert!(html.contains("data:image/jpeg;base64,"));
    let first_row = html.find("<tr class=\"move").unwrap();
    assert!(html[first_row..].starts_with("<tr class=\"move flag\""), "flagged move first");
    assert_eq!(html.matches("<tr class=\"move").count(), 10);
    assert_eq!(html.matches("<img class=\"crop\"").count(), 10);
    assert!(html.contains("data-before=\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\""));
}

#[test]
fn a_flagged_move_no_cell_shows_says_its_cell_is_blank() {
    let mut cells = sample_cells();
    cells[7] = String::new(); // 4... Nf6 not recorded
    let game = decode_exact(&cells);
    assert!(game.moves[7].flagged && game.moves[7].unwritten(), "{:?}", game.moves[7]);
    let g = GameOutput { id: "g".into(), sheets: Vec::new(), game, headers: Vec::new() };
    let flat = g.to_pgn().split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("its cell is blank"), "{flat}");
    assert_eq!(flat.matches("its cell is blank").count(), 1, "{flat}");
}

#[test]
fn a_sheet_numbered_by_counting_says_so_in_the_report_and_the_review_page() {
    let mut g = sample();
    let v = serde_json::to_value(g.to_json()).unwrap();
    assert!(v.get("numbering_guessed").is_none(), "absent where every row was read: {v}");
    g.sheets[0].numbering_guessed = true;
    let v = serde_json::to_value(g.to_json()).unwrap();
    assert_eq!(v["numbering_guessed"][0]["file"], "scans/r3b1.jpg");
    let img = image::RgbImage::new(400, 300);
    let html = review_html("R3", &[ReviewGame { game: &g, images: vec![Some(&img)] }], &[]);
    assert!(html.contains("scans/r3b1.jpg (page 1): the printed move numbers could not be read"), "{html}");
}

#[test]
fn a_second_copy_of_the_form_left_unread_is_named_in_the_report_and_the_review_page() {
    let mut g = sample();
    let v = serde_json::to_value(g.to_json()).unwrap();
    assert!(v.get("second_form_unread").is_none(), "absent where no page holds a second form: {v}");
    g.sheets[0].second_form_unread = true;
    let v = serde_json::to_value(g.to_json()).unwrap();
    assert_eq!(v["second_form_unread"][0]["file"], "scans/r3b1.jpg");
    let img = image::RgbImage::new(400, 300);
    let html = review_html("R3", &[ReviewGame { game: &g, images: vec![Some(&img)] }], &[]);
    assert!(html.contains("scans/r3b1.jpg (page 1): the page holds a second copy of the form"), "{html}");
}
