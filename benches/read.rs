//! End to end: `scoresheet read` from file to PGN, per sheet, on the three real sample pages
//! (samples/hcs), each read as its own game, the batch repeated to 12 sheets. Prints the time
//! of each stage on one core, the batch time on one and on two worker threads (the speed-up),
//! and the process's peak resident memory.
//! Run: cargo bench --bench read

use std::path::PathBuf;
use std::time::Instant;

use scoresheet::decode::Params;
use scoresheet::read::{BatchOptions, Lowering, PageCutter, RecognizerPool, decode_game, read_batch, read_page};

fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let (pages, errors) = scoresheet::read::inputs::collect(&[root.join("samples/hcs")]);
    assert!(errors.is_empty() && !pages.is_empty(), "samples/hcs: {errors:?}");
    let pool = RecognizerPool::new(&scoresheet::recognize::default_model_path()).expect("the shipped model loads");
    let cutter = PageCutter;
    let params = Params::default();

    // Stages, one core, each sample page once (after one warm-up read).
    let (mut t_load, mut t_cut_rec, mut t_decode) = (0.0, 0.0, 0.0);
    for pass in 0..2 {
        for p in &pages {
            let t = Instant::now();
            let img = image::open(p).expect("sample image");
            let load = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let sheet = read_page(&cutter, &pool, p, 0, img, false, Lowering::Auto).expect("sample page reads");
            let cut_rec = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let g = decode_game("bench", std::slice::from_ref(&sheet), None, &params, Vec::new());
            let decode = t.elapsed().as_secs_f64();
            assert!(!g.game.moves.is_empty());
            if pass == 1 {
                t_load += load;
                t_cut_rec += cut_rec;
                t_decode += decode;
            }
        }
    }
    let n = pages.len() as f64;
    println!(
        "one core, per sheet: load {:.0} ms, page + recognize {:.0} ms, decode {:.0} ms, total {:.0} ms",
        1000.0 * t_load / n,
        1000.0 * t_cut_rec / n,
        1000.0 * t_decode / n,
        1000.0 * (t_load + t_cut_rec + t_decode) / n
    );

    // The batch on 1 and 2 worker threads.
    let games: Vec<(String, Vec<PathBuf>)> =
        (0..4).flat_map(|r| pages.iter().map(move |p| (format!("{r}-{}", p.display()), vec![p.clone()]))).collect();
    let opts = BatchOptions::plain(&cutter, &pool, None, params);
    let mut per_jobs = Vec::new();
    for jobs in [1, 2] {
        let threads = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().expect("thread pool");
        threads.install(|| read_batch(&games, &opts)); // warm-up: one loaded recognizer per worker
        let t = Instant::now();
        let batch = threads.install(|| read_batch(&games, &opts));
        let s = t.elapsed().as_secs_f64();
        assert_eq!(batch.games.len(), games.len());
        println!(
            "batch of {} sheets, {jobs} worker thread(s): {:.2} s, {:.0} ms per sheet",
            games.len(),
            s,
            1000.0 * s / games.len() as f64
        );
        per_jobs.push(s);
    }
    println!("speed-up on 2 threads: {:.2}x", per_jobs[0] / per_jobs[1]);
    if let Some(mb) = peak_rss_mb() {
        println!("peak resident memory of this process: {mb:.0} MB");
    }
}
