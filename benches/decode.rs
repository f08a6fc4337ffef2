//! Decoding speed: one sheet (the 85-ply Slovenian sample game on a 120-cell form) against a
//! simulated recognizer whose scores cost next to nothing, so the figure is the search itself.
//! Run: cargo bench --bench decode

use std::time::Instant;

use scoresheet::decode::{CellScorer, Params, SheetCopy, decode};
use scoresheet::notation::{LangChoice, Style, lang, parse_game, spell};
use shakmaty::{Chess, Position};

struct Cell(String);

impl CellScorer for Cell {
    fn logp(&mut self, texts: &[&str]) -> Vec<f32> {
        // A cheap stand-in for CTC scores: characters in common, position by position.
        texts
            .iter()
            .map(|t| {
                let same = t.chars().zip(self.0.chars()).filter(|(a, b)| a == b).count();
                let len = t.chars().count().max(self.0.chars().count());
                -0.2 - 4.0 * (len - same) as f32
            })
            .collect()
    }
    fn best(&mut self) -> (String, f32) {
        (self.0.clone(), -0.2)
    }
}

fn main() {
    let text = include_str!("../tests/data/seed/sl.txt");
    let game = parse_game(text, LangChoice::Auto, false).unwrap();
    let l = lang("de").unwrap();
    let mut pos = Chess::default();
    let mut cells: Vec<String> = Vec::new();
    for m in &game.moves {
        cells.push(spell(&pos, &m.mv, l, &Style::default()));
        pos.play_unchecked(m.mv);
    }
    cells.resize(120, String::new());
    let copies = || {
        vec![SheetCopy {
            cells: cells.iter().map(|t| Some(Box::new(Cell(t.clone())) as Box<dyn CellScorer>)).collect(),
        }]
    };
    let no_conf = Params { confidence_window: 0, ..Params::default() };
    for (name, lang, params) in [
        ("known language", Some(l), Params::default()),
        ("language found", None, Params::default()),
        ("known language, confidence look-ahead off", Some(l), no_conf),
    ] {
        let runs = 5;
        let t = Instant::now();
        for _ in 0..runs {
            let g = decode(copies(), lang, &params);
            assert_eq!(g.moves.len(), game.moves.len());
        }
        let ms = t.elapsed().as_secs_f64() * 1000.0 / runs as f64;
        println!("decode, {name}: {ms:.1} ms per sheet (85 plies, 120 cells, beam {})", params.beam);
    }
}
