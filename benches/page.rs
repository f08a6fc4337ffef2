//! Page geometry speed: `page::segment_gray` on the HCS pages in tests/data (about 1450x1750 px
//! originals, here downscaled to 725 px wide) and, when given, on full-size pages:
//! `cargo bench --bench page -- [IMAGE...]`. Single-threaded; prints the median ms per page of
//! 15 runs.

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
    // (the median of the runs: a shared machine's other work slows some runs down)
    let runs = 15;
    for (p, g) in paths.iter().zip(&pages) {
        let mut cells = 0;
        let mut ms: Vec<f64> = (0..runs)
            .map(|_| {
                let t = Instant::now();
                cells = scoresheet::page::segment_gray(g).map(|s| s.cells.len()).unwrap_or(0);
                t.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        ms.sort_by(f64::total_cmp);
        let (median, fastest) = (ms[runs / 2], ms[0]);
        println!(
            "{}: {}x{} px, {cells} cells, {median:.1} ms/page (median of {runs}; fastest {fastest:.1})",
            p.display(),
            g.width(),
            g.height()
        );
    }
}
