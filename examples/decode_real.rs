//! The decoder alone on real recognizer scores: the three sample pages (samples/hcs) are cut and
//! recognized once, then each is decoded `DECODE_REPS` times (default 5, language found). Prints
//! the decode time per sheet and a digest of the readings (moves, confidences), so that a run
//! under `perf stat` with `DECODE_REPS=0` and one with `DECODE_REPS=N` give the decoder's
//! instruction count by difference. `DECODE_SAVE=F` writes the recognizer's scores to F;
//! `DECODE_LOAD=F` reads them from F instead of running the recognizer (for valgrind).
//! Run: cargo run --release --example decode_real

use std::path::PathBuf;
use std::time::Instant;

use scoresheet::decode::Params;
use scoresheet::read::{Lowering, PageCutter, RecognizerPool, SheetRead, decode_game, read_page};
use scoresheet::recognize::{Alphabet, CellScores, LogProbs};

fn save(file: &PathBuf, sheets: &[SheetRead]) {
    let mut out: Vec<u8> = Vec::new();
    let mut put = |x: u64| out.extend_from_slice(&x.to_le_bytes());
    put(sheets.len() as u64);
    for s in sheets {
        put(s.cells.len() as u64);
        for (ply, bbox, blank, scores) in &s.cells {
            put(*ply as u64);
            for b in bbox {
                put(b.to_bits() as u64);
            }
            put(u64::from(*blank));
            put(scores.views().len() as u64);
            for lp in scores.views() {
                put(lp.frames() as u64);
                put(lp.classes() as u64);
                for v in lp.as_slice() {
                    put(v.to_bits() as u64);
                }
            }
        }
    }
    std::fs::write(file, out).expect("scores written");
}

fn load(file: &PathBuf, pages: &[PathBuf]) -> Vec<SheetRead> {
    let alphabet = std::sync::Arc::new(Alphabet::shipped());
    let bytes = std::fs::read(file).expect("scores file");
    let mut at = 0;
    let mut get = || {
        let v = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
        at += 8;
        v
    };
    let n = get() as usize;
    (0..n)
        .map(|i| {
            let cells = (0..get())
                .map(|_| {
                    let ply = get() as usize;
                    let bbox = [0; 4].map(|_| f32::from_bits(get() as u32));
                    let blank = get() != 0;
                    let views = (0..get())
                        .map(|_| {
                            let (frames, classes) = (get() as usize, get() as usize);
                            let data = (0..frames * classes).map(|_| f32::from_bits(get() as u32)).collect();
                            LogProbs::new(frames, classes, data)
                        })
                        .collect();
                    (ply, bbox, blank, CellScores::from_views(views, alphabet.clone()))
                })
                .collect();
            SheetRead {
                file: pages[i].clone(),
                page: 0,
                cells,
                image: None,
                lowered: None,
                alt: None,
                numbering_guessed: false,
                second_form_unread: false,
            }
        })
        .collect()
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let (pages, errors) = scoresheet::read::inputs::collect(&[root.join("samples/hcs")]);
    assert!(errors.is_empty() && !pages.is_empty(), "samples/hcs: {errors:?}");
    let reps: usize = std::env::var("DECODE_REPS").ok().and_then(|v| v.parse().ok()).unwrap_or(5);
    let sheets: Vec<SheetRead> = match std::env::var_os("DECODE_LOAD") {
        Some(f) => load(&PathBuf::from(f), &pages),
        None => {
            let pool =
                RecognizerPool::new(&scoresheet::recognize::default_model_path()).expect("the shipped model loads");
            pages
                .iter()
                .map(|p| {
                    read_page(&PageCutter, &pool, p, 0, image::open(p).expect("sample image"), false, Lowering::Auto)
                        .expect("reads")
                })
                .collect()
        }
    };
    if let Some(f) = std::env::var_os("DECODE_SAVE") {
        save(&PathBuf::from(f), &sheets);
    }
    let params = Params::default();
    let t = Instant::now();
    let mut digest = String::new();
    for r in 0..reps {
        for sheet in &sheets {
            let g = decode_game("bench", std::slice::from_ref(sheet), None, &params, Vec::new());
            if r == 0 {
                digest.push_str(&format!("{} {} {:.4}\n", g.game.lang.code, g.game.result, g.game.score));
                for m in &g.game.moves {
                    digest.push_str(&format!("  {} {:.4} {:?}\n", m.san, m.confidence, m.alternatives));
                }
            }
        }
    }
    if reps > 0 {
        let ms = 1000.0 * t.elapsed().as_secs_f64() / (reps * sheets.len()) as f64;
        println!("decode {ms:.1} ms per sheet ({} sheets x {reps})", sheets.len());
    }
    if std::env::var_os("DECODE_DIGEST").is_some() {
        print!("{digest}");
    }
}
