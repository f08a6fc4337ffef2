//! Tests of `synth --form-image`: games written on a real blank form's image, cells given by a
//! checked cells file (tests/data/polish_zapis_blank.png and its .cells.json).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use scoresheet::page;
use scoresheet::synth::form_image::{FormImage, parse_cells};
use scoresheet::synth::forms::Side;
use scoresheet::synth::raster::Canvas;
use scoresheet::synth::{self, Damage, FontSet, Options};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

fn form() -> Arc<FormImage> {
    let image = data("polish_zapis_blank.png");
    let cells = data("polish_zapis_blank.cells.json");
    Arc::new(FormImage::load(&image, Some(&cells), Some("polish_zapis")).expect("the test form loads"))
}

fn opts(form: Arc<FormImage>, damage: Option<Damage>) -> Options {
    Options { seed: 21, damage, form_image: Some(form), ..Options::default() }
}

/// The cells of the test form's cells file: (move, side, box).
fn given_cells() -> Vec<(u32, Side, [f32; 4])> {
    let text = std::fs::read_to_string(data("polish_zapis_blank.cells.json")).unwrap();
    parse_cells(&text).unwrap().iter().map(|s| (s.move_no, s.side, s.rect)).collect()
}

#[test]
fn the_truth_holds_the_given_cells_and_the_ink_lies_in_them() {
    let form = form();
    assert!(form.checked);
    assert_eq!(form.last_move, 60);
    let given = given_cells();
    assert_eq!(given.len(), 120);
    let background = form.image.px.clone();
    for i in 0..3 {
        let pages = synth::render_sheet(&opts(form.clone(), Some(Damage::None)), i).unwrap();
        assert_eq!(pages.len(), 1);
        let page = &pages[0];
        let t = &page.truth;
        assert_eq!(t.form, "polish_zapis");
        assert_eq!((t.width, t.height), (form.image.w, form.image.h));
        assert_eq!(t.page_corners, [[0.0, 0.0], [576.0, 0.0], [576.0, 768.0], [0.0, 768.0]]);
        // Every given cell, once, with its box, in game order.
        assert_eq!(t.cells.len(), given.len());
        for (c, g) in t.cells.iter().zip(&given) {
            assert_eq!((c.move_no, c.side), (g.0, g.1));
            assert_eq!(c.bbox, g.2.map(|v| v as i32), "move {} {:?}", c.move_no, c.side);
            assert_eq!(c.quad, [[g.2[0], g.2[1]], [g.2[2], g.2[1]], [g.2[2], g.2[3]], [g.2[0], g.2[3]]]);
        }
        // The game written is the PGN's, one ply a cell from move 1 on.
        let plies = t.cells.iter().filter(|c| c.san.is_some()).count();
        assert!(plies >= 40, "a game of at least 20 moves");
        assert!(t.cells.iter().take(plies).all(|c| c.san.is_some()));
        assert!(t.pgn.contains("1. "));

        // The ink: every pixel the writing changed, against the blank form.
        let w = page.image.w;
        let inked: Vec<(usize, usize)> = (0..page.image.h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                let o = (y * w + x) * 3;
                (0..3).any(|k| background[o + k].abs_diff(page.image.px[o + k]) > 40)
            })
            .collect();
        assert!(inked.len() > 2000, "{} inked pixels", inked.len());
        let inside = |(x, y): (usize, usize), grow_x: f32, grow_y: f32| {
            let (x, y) = (x as f32 + 0.5, y as f32 + 0.5);
            given
                .iter()
                .any(|(_, _, b)| x >= b[0] - grow_x && x <= b[2] + grow_x && y >= b[1] - grow_y && y <= b[3] + grow_y)
        };
        let row_h = form.row_h;
        // Nearly all of it inside the cells; the rest (writing over a border) near them.
        let strict = inked.iter().filter(|&&p| inside(p, 1.0, 1.0)).count();
        assert!(strict as f64 >= 0.95 * inked.len() as f64, "{strict} of {} inked pixels in the cells", inked.len());
        assert!(inked.iter().all(|&p| inside(p, 2.0 * row_h, row_h)), "ink far from every cell");
        // Every cell written in holds ink; the cells well past the game's end hold none but what
        // writing over a neighbour's border leaves.
        for c in &t.cells {
            let b = c.bbox.map(|v| v as usize);
            let ink_in = inked.iter().filter(|&&(x, y)| x >= b[0] && x < b[2] && y >= b[1] && y < b[3]).count();
            if !c.text.is_empty() {
                assert!(ink_in > 10, "move {} {:?} ({}) holds no ink", c.move_no, c.side, c.text);
            }
            let ply = (c.move_no as usize - 1) * 2 + usize::from(c.side == Side::Black);
            let area = (b[2] - b[0]) * (b[3] - b[1]);
            if ply > plies + 1 {
                assert!(ink_in * 20 < area, "move {} {:?} is past the game but inked", c.move_no, c.side);
            }
        }
    }
}

#[test]
fn form_image_sheets_are_written_like_any_synthetic_set() {
    let dir = std::env::temp_dir().join(format!("scoresheet-form-image-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = Options { count: 3, ..opts(form(), None) };
    let files = synth::write_sheets(&o, &dir).unwrap();
    assert_eq!(files.len(), 6);
    let read = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
    };
    // The same keys as a drawn form's truth, at the top and in every cell.
    let drawn_dir = dir.join("drawn");
    synth::write_sheets(&Options { count: 1, seed: 3, form: Some("hcs"), ..Options::default() }, &drawn_dir).unwrap();
    let drawn: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(drawn_dir.join("sheet-00000.json")).unwrap()).unwrap();
    let keys = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    let mut damages = Vec::new();
    for i in 0..3 {
        let t = read(&format!("sheet-{i:05}.json"));
        assert_eq!(keys(&t), keys(&drawn));
        assert_eq!(keys(&t["cells"][0]), keys(&drawn["cells"][0]));
        assert_eq!(t["form"], "polish_zapis");
        assert!(dir.join(t["image"].as_str().unwrap()).exists());
        // Boxes lie in the image, on damaged sheets too.
        let (w, h) = (t["width"].as_i64().unwrap(), t["height"].as_i64().unwrap());
        for c in t["cells"].as_array().unwrap() {
            let b: Vec<i64> = c["box"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
            assert!(b[0] >= 0 && b[1] >= 0 && b[2] <= w && b[3] <= h && b[0] < b[2] && b[1] < b[3]);
        }
        damages.push(t["damage"].as_str().unwrap().to_string());
    }
    damages.sort();
    assert_eq!(damages, ["none", "photo", "scan"], "a mix deals every damage kind");
    // The games read back as the sheets' PGN: the reader's truth loads.
    let games = scoresheet::read::eval::synthetic_games(&dir).unwrap();
    assert_eq!(games.len(), 3);
    // The same seed gives the same sheets.
    let again = synth::render_sheet(&o, 1).unwrap();
    let first = synth::render_sheet(&o, 1).unwrap();
    assert_eq!(again[0].image.px, first[0].image.px);
    assert_eq!(serde_json::to_string(&again[0].truth).unwrap(), serde_json::to_string(&first[0].truth).unwrap());
    // Copies: the same game by a second writer.
    let copies = synth::render_sheet(&Options { copies: true, ..o.clone() }, 0).unwrap();
    assert_eq!(copies.len(), 2);
    assert_eq!(copies[1].name, "sheet-00000_c2");
    assert_eq!(copies[0].truth.pgn.split("\n\n").nth(1), copies[1].truth.pgn.split("\n\n").nth(1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_cells_are_refused() {
    let canvas = || Canvas::new(200, 200, [255, 255, 255]);
    let cells = |text: &str| parse_cells(text).unwrap();
    let two_moves = r#"{"cells": [
        {"move": 1, "side": "white", "box": [10, 10, 50, 30]}, {"move": 1, "side": "black", "box": [50, 10, 90, 30]},
        {"move": 2, "side": "white", "box": [10, 30, 50, 50]}, {"move": 2, "side": "black", "box": [50, 30, 90, 50]}]}"#;
    let ok = FormImage::new("t".into(), canvas(), cells(two_moves), true).unwrap();
    assert_eq!(ok.last_move, 2);
    assert_eq!(ok.row_h, 20.0);
    // The same cell twice (as a page stage that numbers two blocks alike gives).
    let twice = two_moves.replace(r#""move": 2, "side": "black""#, r#""move": 1, "side": "black""#);
    let e = FormImage::new("t".into(), canvas(), cells(&twice), true).unwrap_err().to_string();
    assert!(e.contains("listed twice"), "{e}");
    // Not starting at move 1 (a continuation page).
    let later = two_moves.replace(r#""move": 1"#, r#""move": 3"#);
    assert!(FormImage::new("t".into(), canvas(), cells(&later), true).is_err());
    // A box outside the image.
    let outside = two_moves.replace("[50, 30, 90, 50]", "[50, 30, 290, 50]");
    assert!(FormImage::new("t".into(), canvas(), cells(&outside), true).is_err());
    // A writing box narrower than the cell, for a number printed in it; a one-page list as
    // `segment --json` prints for multi-page files; several pages refused.
    let write =
        two_moves.replace(r#""box": [10, 10, 50, 30]}"#, r#""box": [10, 10, 50, 30], "write": [22, 10, 50, 30]}"#);
    assert_eq!(cells(&write)[0].write, [22.0, 10.0, 50.0, 30.0]);
    assert_eq!(cells(&format!("[{two_moves}]")).len(), 4);
    assert!(parse_cells(&format!("[{two_moves}, {two_moves}]")).is_err());
}

#[test]
fn the_option_names_take_a_form_image() {
    let args = |cells_from: Option<PathBuf>, form: &str| synth::OptionNames {
        count: 1,
        seed: 1,
        lang: "mix".into(),
        form: form.into(),
        damage: "mix".into(),
        fonts: FontSet::All,
        low_writing: false,
        copies: false,
        form_image: Some(data("polish_zapis_blank.png")),
        cells_from,
        print_contrast: None,
    };
    let o = synth::options_from_names(&args(Some(data("polish_zapis_blank.cells.json")), "mix")).unwrap();
    let f = o.form_image.unwrap();
    assert_eq!(f.name, "polish_zapis_blank", "named after the image by default");
    assert!(f.checked);
    let o = synth::options_from_names(&args(Some(data("polish_zapis_blank.cells.json")), "zapis")).unwrap();
    assert_eq!(o.form_image.unwrap().name, "zapis", "--form names it");
    assert!(synth::options_from_names(&args(Some(data("missing.json")), "mix")).is_err());
    // (printed faint: black comes out light grey, the paper stays; a share past 1 is refused)
    let faint =
        synth::OptionNames { print_contrast: Some(0.25), ..args(Some(data("polish_zapis_blank.cells.json")), "mix") };
    let o = synth::options_from_names(&faint).unwrap();
    let px = &o.form_image.unwrap().image.px;
    assert_eq!(
        px.iter().min(),
        Some(&(255 - (f32::from(255 - form().image.px.iter().min().unwrap()) * 0.25).round() as u8))
    );
    assert_eq!(px.iter().max(), form().image.px.iter().max());
    let too_much = synth::OptionNames { print_contrast: Some(1.5), ..faint };
    assert!(synth::options_from_names(&too_much).is_err());
}

/// The test form printed faint: every pixel's darkness (255 less its level) a quarter of the
/// original's, so black print comes out light grey (level 191), as forms printed grey do.
fn faint_form() -> Arc<FormImage> {
    let mut faint =
        FormImage::load(&data("polish_zapis_blank.png"), Some(&data("polish_zapis_blank.cells.json")), None)
            .expect("the test form loads");
    faint.fade_print(0.25);
    Arc::new(faint)
}

#[test]
fn a_form_printed_light_grey_and_filled_in_any_pen_is_read_from_its_print() {
    // (ink far darker than the print pulls the binaries' local thresholds down around it, and the
    // faint rulings beside the handwriting are lost: read from the grey page alone, one of these
    // sheets finds no table; a page read in part is read again from its print image)
    let options = Options { seed: 5, damage: Some(Damage::Scan), form_image: Some(faint_form()), ..Options::default() };
    let (mut matched, mut total) = (0, 0);
    for index in 0..8 {
        let page = &synth::render_sheet(&options, index).unwrap()[0];
        let img = image::load_from_memory(&synth::encode_image(page).unwrap()).unwrap();
        let truth: Vec<(u32, page::Side, [f64; 4])> = page
            .truth
            .cells
            .iter()
            .map(|c| {
                (
                    c.move_no,
                    if c.side == Side::White { page::Side::White } else { page::Side::Black },
                    c.bbox.map(f64::from),
                )
            })
            .collect();
        let sheet = page::segment(&img).unwrap_or_else(|e| panic!("sheet {index}: {e}"));
        let found = page::eval::match_count(&sheet.cells, &truth);
        eprintln!("sheet {index}: {found} of {} cells", truth.len());
        // (the cells are cut from the page as written, not from its print, where ink is pale)
        let written_but_blank = page
            .truth
            .cells
            .iter()
            .filter(|c| !c.text.is_empty())
            .filter(|c| {
                let side = if c.side == Side::White { page::Side::White } else { page::Side::Black };
                sheet.cell(c.move_no, side).is_some_and(|cell| cell.blank)
            })
            .count();
        assert_eq!(written_but_blank, 0, "sheet {index}: cells written in flagged blank");
        matched += found;
        total += truth.len();
    }
    assert!(100 * matched >= 99 * total, "{matched} of {total} cells matched");
}
