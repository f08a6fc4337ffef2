//! Tests of the synthetic scoresheet generator: determinism, ground truth, legality, cells mode.

use std::path::PathBuf;

use scoresheet::notation;
use scoresheet::synth::{self, Damage, FontSet, Options, forms};
use shakmaty::san::San;
use shakmaty::{Chess, Position};

fn opts(form: Option<&'static str>, damage: Option<Damage>) -> Options {
    Options { seed: 11, form, damage, ..Options::default() }
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("scoresheet-synth-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Replays the PGN's movetext with shakmaty; returns the SAN of every move played.
fn replay(pgn: &str) -> Vec<String> {
    let movetext = pgn.split("\n\n").nth(1).expect("movetext");
    let mut pos = Chess::default();
    let mut sans = Vec::new();
    for tok in movetext.split_whitespace() {
        if tok.ends_with('.') || ["1-0", "0-1", "1/2-1/2", "*"].contains(&tok) {
            continue;
        }
        let san: San = tok.trim_end_matches(['+', '#']).parse().unwrap_or_else(|_| panic!("bad SAN {tok}"));
        let mv = san.to_move(&pos).unwrap_or_else(|_| panic!("illegal {tok}"));
        sans.push(notation::english_san(&pos, &mv));
        pos.play_unchecked(mv);
    }
    sans
}

#[test]
fn every_form_renders_truthful_sheets() {
    for (i, name) in forms::library().enumerate() {
        let damage = [Damage::None, Damage::Scan, Damage::Photo][i % 3];
        let o = opts(Some(name), Some(damage));
        let pages = synth::render_sheet(&o, i).expect("renders");
        for page in &pages {
            let t = &page.truth;
            assert_eq!((t.width, t.height), (page.image.w, page.image.h));
            assert_eq!(t.damage, damage.name());
            let sans = replay(&t.pgn);
            assert!(sans.len() >= 39, "{name}: game of {} plies", sans.len());
            let form = forms::form(&t.form).expect("known form");
            assert_eq!(t.cells.len(), form.slots().len(), "{name}: every printed cell is listed");
            // Move numbers run on from the page's first row, White then Black, none missing.
            let expected: Vec<(u32, bool)> =
                (form.first_move()..=form.last_move()).flat_map(|m| [(m, false), (m, true)]).collect();
            let got: Vec<(u32, bool)> = t.cells.iter().map(|c| (c.move_no, c.side == forms::Side::Black)).collect();
            assert_eq!(got, expected, "{name}: cells in game order");
            for c in &t.cells {
                let [x0, y0, x1, y1] = c.bbox;
                assert!(0 <= x0 && x0 < x1 && x1 <= t.width as i32, "{name}: box {:?}", c.bbox);
                assert!(0 <= y0 && y0 < y1 && y1 <= t.height as i32, "{name}: box {:?}", c.bbox);
                let ply = ((c.move_no - 1) * 2 + (c.side == forms::Side::Black) as u32) as usize;
                assert_eq!(c.san.as_deref(), sans.get(ply).map(String::as_str), "{name}: move {}", c.move_no);
                if c.san.is_some() && c.note.is_none() {
                    assert!(!c.text.is_empty());
                }
            }
            for [x, y] in t.page_corners {
                assert!(x >= -1.0 && y >= -1.0 && x <= t.width as f32 + 1.0 && y <= t.height as f32 + 1.0);
            }
            // The JSON carries the names later checks read.
            let v = serde_json::to_value(t).unwrap();
            for key in ["form", "lang", "damage", "pgn", "page_corners", "cells"] {
                assert!(v.get(key).is_some(), "missing {key}");
            }
            let cell = &v["cells"][0];
            for key in ["move", "side", "box", "text", "san"] {
                assert!(cell.get(key).is_some(), "cell missing {key}");
            }
        }
    }
}

#[test]
fn same_seed_same_bytes() {
    let o = Options { count: 2, ..opts(Some("club"), Some(Damage::Scan)) };
    let a = synth::render_sheet(&o, 1).unwrap();
    let b = synth::render_sheet(&o, 1).unwrap();
    assert_eq!(a.len(), b.len());
    for (pa, pb) in a.iter().zip(&b) {
        assert_eq!(synth::encode_image(pa).unwrap(), synth::encode_image(pb).unwrap());
        assert_eq!(serde_json::to_string(&pa.truth).unwrap(), serde_json::to_string(&pb.truth).unwrap());
    }
    let c = synth::render_sheet(&Options { seed: 12, ..o }, 1).unwrap();
    assert_ne!(a[0].truth.pgn, c[0].truth.pgn, "another seed, another game");
}

#[test]
fn a_form_printed_faint_keeps_its_game_and_writing() {
    let plain = Options { seed: 4, ..opts(Some("club"), Some(Damage::None)) };
    let faint = Options { print_contrast: Some(0.25), ..plain.clone() };
    let a = &synth::render_sheet(&plain, 0).unwrap()[0];
    let b = &synth::render_sheet(&faint, 0).unwrap()[0];
    assert_eq!(serde_json::to_string(&a.truth).unwrap(), serde_json::to_string(&b.truth).unwrap());
    let (a, b) = (&a.image.px, &b.image.px);
    // (the print faded: black rulings and digits come out light grey; the writing, drawn over the
    // faded form, keeps its darkest ink)
    let faded = a.iter().zip(b).filter(|&(&p, &f)| p < 60 && f > 170).count();
    assert!(faded > 5000, "{faded} dark pixels faded");
    assert!(b.iter().any(|&v| v < 60), "no dark ink left");
    assert!(a.iter().zip(b).all(|(&p, &f)| f >= p || f < 120), "the faint form darker than the plain one");
}

#[test]
fn copies_are_one_game_written_by_two_writers() {
    let o = opts(Some("hcs"), Some(Damage::Scan));
    let copies = Options { copies: true, ..o.clone() };
    for i in 0..3 {
        let single = synth::render_sheet(&o, i).unwrap();
        let both = synth::render_sheet(&copies, i).unwrap();
        assert_eq!(both.len(), 2 * single.len());
        // The first copy is the sheet rendered without copies, byte for byte.
        for (a, b) in single.iter().zip(&both) {
            assert_eq!(a.name, b.name);
            assert_eq!(synth::encode_image(a).unwrap(), synth::encode_image(b).unwrap());
        }
        let (first, second) = both.split_at(single.len());
        assert_eq!(second[0].name, format!("{}_c2", first[0].name));
        assert_eq!(replay(&first[0].truth.pgn), replay(&second[0].truth.pgn), "the same game");
        assert_ne!(synth::encode_image(&first[0]).unwrap(), synth::encode_image(&second[0]).unwrap());
        // The same moves, each as its own writer put it (habits and mistakes of their own).
        let sans = |p: &synth::Page| -> Vec<Option<String>> { p.truth.cells.iter().map(|c| c.san.clone()).collect() };
        assert_eq!(sans(&first[0]), sans(&second[0]));
    }
    let texts = |p: &synth::Page| -> Vec<String> { p.truth.cells.iter().map(|c| c.text.clone()).collect() };
    let differ = (0..3).any(|i| {
        let both = synth::render_sheet(&copies, i).unwrap();
        texts(&both[0]) != texts(&both[both.len() / 2])
    });
    assert!(differ, "two writers wrote every cell alike in three games");
}

#[test]
fn long_games_continue_on_page_two() {
    let o = opts(Some("long-column"), Some(Damage::None));
    let mut seen = false;
    for i in 0..12 {
        let pages = synth::render_sheet(&o, i).unwrap();
        let plies = replay(&pages[0].truth.pgn).len();
        assert_eq!(pages.len(), if plies > 80 { 2 } else { 1 }, "{plies} plies");
        if pages.len() == 2 {
            seen = true;
            let t = &pages[1].truth;
            assert_eq!(t.form, "long-column-p2");
            assert_eq!(t.cells[0].move_no, 41);
            assert_eq!(t.page, 2);
            assert!(pages[1].name.ends_with("_p2"));
        }
    }
    assert!(seen, "no game in 12 ran past move 40");
}

#[test]
fn mix_deals_every_form_and_damage() {
    let o = Options { count: 15, ..opts(None, None) };
    let specs: Vec<_> = (0..15).map(|i| synth::sheet_spec(&o, i)).collect();
    for name in forms::NAMES {
        assert!(specs.iter().any(|s| s.form == name), "{name}");
    }
    for d in [Damage::None, Damage::Scan, Damage::Photo] {
        assert!(specs.iter().any(|s| s.damage == d));
    }
    let mut langs: Vec<_> = specs.iter().map(|s| s.lang.code).collect();
    langs.dedup();
    assert!(langs.len() >= 5);
}

#[test]
fn every_language_has_fonts_in_every_set() {
    for lang in notation::languages() {
        let mut charset: String = lang.pieces.concat();
        charset.push_str("abcdefgh12345678x:+#=-O0()/");
        for set in [FontSet::Train, FontSet::HeldOut, FontSet::All] {
            assert!(!synth::fonts::hands(set, &charset).is_empty(), "{} {:?}", lang.code, set);
        }
    }
    let held: Vec<_> = synth::fonts::hands(FontSet::HeldOut, "").iter().map(|f| f.name).collect();
    let train: Vec<_> = synth::fonts::hands(FontSet::Train, "").iter().map(|f| f.name).collect();
    assert!(held.iter().all(|h| !train.contains(h)));
    assert!(!held.is_empty() && train.len() >= 6);
}

/// Whether two boxes share more than a rounding error of area.
fn overlap(a: [f32; 4], b: [f32; 4]) -> bool {
    const EPS: f32 = 0.01;
    a[0] < b[2] - EPS && b[0] < a[2] - EPS && a[1] < b[3] - EPS && b[1] < a[3] - EPS
}

#[test]
fn forms_are_consistent() {
    let all = forms::all();
    assert_eq!(all.len(), 20 + forms::CONTINUATIONS.len());
    for f in &all {
        let slots = f.slots();
        let moves = (f.last_move() - f.first_move() + 1) as usize;
        assert_eq!(slots.len(), moves * 2, "{}", f.name);
        let numbers: Vec<u32> = slots.iter().map(|s| s.move_no).collect();
        let consecutive: Vec<u32> = (f.first_move()..=f.last_move()).flat_map(|m| [m, m]).collect();
        assert_eq!(numbers, consecutive, "{}: move numbers", f.name);
        for s in &slots {
            assert!(
                s.rect[0] >= 0.0 && s.rect[2] <= f.width && s.rect[1] >= 0.0 && s.rect[3] <= f.height,
                "{}",
                f.name
            );
            let w = s.write;
            assert!(w[0] >= s.rect[0] && w[2] <= s.rect[2] && w[0] < w[2], "{}: writing area outside its cell", f.name);
        }
        for (i, a) in slots.iter().enumerate() {
            for b in &slots[i + 1..] {
                assert!(!overlap(a.rect, b.rect), "{}: cells {} and {} overlap", f.name, a.move_no, b.move_no);
            }
        }
        // Number and clock columns lie beside the move cells, never on them.
        for b in &f.blocks {
            for col in [
                forms::Column::Number,
                forms::Column::Clock(forms::Side::White),
                forms::Column::Clock(forms::Side::Black),
            ] {
                for r in 0..b.rows {
                    let Some(other) = b.cell_of(r, col) else { continue };
                    assert!(slots.iter().all(|s| !overlap(s.rect, other)), "{}: {col:?} on a move cell", f.name);
                }
            }
        }
        if let Some(next) = f.continuation {
            assert_eq!(forms::form(next).unwrap().first_move(), f.last_move() + 1);
        }
    }
}

#[test]
fn twenty_named_forms_five_held_out() {
    let names: Vec<&str> = forms::library().collect();
    let mut distinct = names.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), names.len(), "a name twice");
    assert!(names.len() >= 20);
    for name in forms::HELD_OUT_FORMS {
        assert!(forms::form(name).is_some(), "{name}");
        assert!(!forms::DEVELOPMENT_FORMS.contains(&name), "{name} is also a development form");
    }
    let mut held = forms::HELD_OUT_FORMS.to_vec();
    held.dedup();
    assert_eq!(held.len(), 5);
    assert!(forms::HELD_OUT_FORMS.contains(&forms::HELD_OUT_FORM));
    // The original five stay what `mix` deals.
    for name in forms::NAMES {
        assert!(names.contains(&name));
    }
    for name in forms::CONTINUATIONS {
        assert!(forms::form(name).is_some() && !names.contains(&name), "{name}");
    }
}

#[test]
fn development_and_held_out_mixes_deal_their_own_forms() {
    for (deck, other) in [
        (&forms::DEVELOPMENT_FORMS[..], &forms::HELD_OUT_FORMS[..]),
        (&forms::HELD_OUT_FORMS[..], &forms::DEVELOPMENT_FORMS[..]),
    ] {
        let o = Options { count: 15, mix_forms: deck, ..opts(None, None) };
        let specs: Vec<_> = (0..15).map(|i| synth::sheet_spec(&o, i)).collect();
        for name in deck {
            assert!(specs.iter().any(|s| s.form == *name), "{name}");
        }
        assert!(specs.iter().all(|s| !other.contains(&s.form)));
    }
}

#[test]
fn cells_mode_writes_images_and_labels() {
    let dir = tmp("cells");
    let o = Options { count: 30, seed: 5, lang: notation::lang("ru"), fonts: FontSet::Train, ..Options::default() };
    assert_eq!(synth::write_cells(&o, &dir).unwrap(), 30);
    let labels = std::fs::read_to_string(dir.join("labels.tsv")).unwrap();
    let lines: Vec<&str> = labels.lines().collect();
    assert_eq!(lines.len(), 30);
    for line in lines {
        let (file, _text) = line.split_once('\t').expect("FILE<TAB>TEXT");
        let img = image::open(dir.join(file)).expect("a readable PNG");
        assert!(img.width() >= 8 && img.height() >= 8);
    }
    let again = synth::render_cells(&o, 0).unwrap();
    let first = synth::render_cells(&o, 0).unwrap();
    assert_eq!(again[0].gray, first[0].gray);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sheets_are_written_and_bad_input_is_an_error() {
    let dir = tmp("sheets");
    let o = Options { count: 2, ..opts(Some("hcs"), Some(Damage::None)) };
    let files = synth::write_sheets(&o, &dir).unwrap();
    assert_eq!(files.len(), 4);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("sheet-00000.json")).unwrap()).unwrap();
    assert_eq!(json["form"], "hcs");
    // A file where the directory should be.
    let file = dir.join("sheet-00000.png");
    assert!(synth::write_sheets(&o, &file.join("sub")).is_err());
    let _ = std::fs::remove_dir_all(&dir);

    let args = |lang: &str, form: &str, damage: &str| synth::OptionNames {
        count: 1,
        seed: 1,
        lang: lang.into(),
        form: form.into(),
        damage: damage.into(),
        fonts: FontSet::All,
        low_writing: false,
        copies: false,
        form_image: None,
        cells_from: None,
        print_contrast: None,
    };
    assert!(synth::options_from_names(&args("xx", "mix", "mix")).is_err());
    assert!(synth::options_from_names(&args("mix", "nope", "mix")).is_err());
    assert!(synth::options_from_names(&args("mix", "mix", "rain")).is_err());
    assert!(synth::options_from_names(&args("de", "club", "photo")).is_ok());
    assert!(synth::options_from_names(&args("de", "us-tournament", "photo")).is_ok());
    assert!(synth::options_from_names(&args("de", "long-column-p2", "photo")).is_err(), "a continuation page");
    let mix = |form: &str| synth::options_from_names(&args("mix", form, "mix")).unwrap().mix_forms.to_vec();
    assert_eq!(mix("mix"), forms::NAMES);
    assert_eq!(mix("dev-mix"), forms::DEVELOPMENT_FORMS);
    assert_eq!(mix("heldout-mix"), forms::HELD_OUT_FORMS);
}
