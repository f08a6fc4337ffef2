//! Recognizer speed on one core: ms per cell (model + preprocessing, batched as a page would be),
//! and candidate scoring. Run: `cargo bench --bench recognize` (needs the shipped model).

use std::time::Instant;

use image::GrayImage;
use scoresheet::recognize::{Recognizer, default_model_path, load_cell};

fn main() {
    let model = std::env::var_os("SCORESHEET_MODEL").map(Into::into).unwrap_or_else(default_model_path);
    let mut r = match Recognizer::load(&model) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("skipping: {e}");
            return;
        }
    };
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cells");
    let mut cells: Vec<GrayImage> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "png"))
        .map(|p| load_cell(&p).unwrap())
        .collect();
    // A page: 120 cells of the size the page stage cuts.
    let base = cells[0].clone();
    cells = (0..120).map(|i| if i % 2 == 0 { base.clone() } else { cells[i % cells.len()].clone() }).collect();
    let _ = r.recognize(&cells).unwrap();
    let repeats = 5;
    let t = Instant::now();
    let mut scores = Vec::new();
    for _ in 0..repeats {
        scores = r.recognize(&cells).unwrap();
    }
    let per_cell = t.elapsed().as_secs_f64() * 1000.0 / (repeats * cells.len()) as f64;
    println!("recognize: {per_cell:.3} ms per cell (one core, {} cells per page)", cells.len());

    let t = Instant::now();
    let mut n = 0;
    for s in &scores {
        let _ = s.top(5);
        n += 1;
    }
    println!("top-5 beam search: {:.3} ms per cell", t.elapsed().as_secs_f64() * 1000.0 / n as f64);

    let files = "abcdefgh";
    let mut cands = Vec::new();
    for p in ["", "N", "B", "R", "Q", "K"] {
        for f in files.chars() {
            for rank in 1..=8 {
                cands.push(format!("{p}{f}{rank}"));
                cands.push(format!("{p}x{f}{rank}"));
                cands.push(format!("{p}{f}{rank}+"));
            }
        }
    }
    let t = Instant::now();
    for s in &scores {
        let _ = s.score(&cands);
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "candidate scoring: {} candidates per cell, {:.3} ms per cell, {:.2} us per candidate",
        cands.len(),
        secs * 1000.0 / scores.len() as f64,
        secs * 1e6 / (scores.len() * cands.len()) as f64
    );
}
