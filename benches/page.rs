//! Page geometry speed: `page::segment_gray` on the HCS pages in tests/data (about 1450x1750 px
//! originals, here downscaled to 725 px wide) and, when given, on full-size pages:
//! `cargo bench --bench page -- [IMAGE...]`. Single-threaded; prints ms per page.

use std::time::Instant;

fn main() {
    let mut paths: Vec<std::path::PathBuf> =
        std::env::args().skip(1).filter(|a| !a.starts_with('-')).map(Into::into).collect();
    if paths.is_empty() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
        paths = ["hcs_001_0.jpg", "hcs_073_0.jpg"].iter().map(|n| dir.join(n)).collect();
    }
    let pages: Vec<image::GrayImage> =
        paths.iter().map(|p| scoresheet::page::load(p).expect("readable page").remove(0).to_luma8()).collect();
    // warm-up
    for g in &pages {
        let _ = scoresheet::page::segment_gray(g);
    }
    let iters = 10;
    for (p, g) in paths.iter().zip(&pages) {
        let t = Instant::now();
        let mut cells = 0;
        for _ in 0..iters {
            cells = scoresheet::page::segment_gray(g).map(|s| s.cells.len()).unwrap_or(0);
        }
        let ms = t.elapsed().as_secs_f64() * 1000.0 / iters as f64;
        println!("{}: {}x{} px, {cells} cells, {ms:.1} ms/page", p.display(), g.width(), g.height());
    }
}
