//! Throughput of `scoresheet-dev synth` on one core: full sheets per second (render + damage + encode,
//! per damage kind) and single cells per second (render + PNG). Run with `cargo bench --bench synth`.

use std::time::Instant;

/// CPU seconds this thread has used (Linux), so figures hold on a busy machine; wall time elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Elapsed seconds since (`wall`, `cpu`): CPU time where available.
fn spent(wall: Instant, cpu: Option<f64>) -> (f64, f64) {
    let w = wall.elapsed().as_secs_f64();
    (w, cpu.zip(cpu_seconds()).map(|(a, b)| b - a).unwrap_or(w))
}

use scoresheet::synth::{self, Damage, FontSet, Options};

fn main() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("one thread");
    pool.install(|| {
        let n = 30;
        for damage in [None, Some(Damage::None), Some(Damage::Scan), Some(Damage::Photo)] {
            let o = Options { count: n, seed: 99, damage, ..Options::default() };
            let _ = synth::render_sheet(&o, 0); // fonts loaded, caches warm
            let (t, c) = (Instant::now(), cpu_seconds());
            let mut bytes = 0;
            let mut images = 0;
            for i in 0..n {
                for page in synth::render_sheet(&o, i).expect("renders") {
                    bytes += synth::encode_image(&page).expect("encodes").len();
                    bytes += serde_json::to_string(&page.truth).expect("json").len();
                    images += 1;
                }
            }
            let (w, s) = spent(t, c);
            let kind = damage.map(|d| d.name()).unwrap_or("mix");
            println!(
                "sheets damage={kind:5}: {:.1} sheets/s per core-second ({images} images, {:.0} ms CPU/sheet, wall {:.1} sheets/s, {:.1} MB)",
                n as f64 / s,
                s * 1000.0 / n as f64,
                n as f64 / w,
                bytes as f64 / 1e6
            );
        }
        let o = Options { count: 24 * 80, seed: 5, fonts: FontSet::Train, ..Options::default() };
        let (t, c) = (Instant::now(), cpu_seconds());
        let mut cells = 0;
        for w in 0..80 {
            for c in synth::render_cells(&o, w).expect("renders") {
                let _ = synth::encode_cell(&c).expect("encodes");
                cells += 1;
            }
        }
        let (w, s) = spent(t, c);
        println!(
            "cells: {:.0} cells/s per core-second ({:.0} per minute; wall {:.0} cells/s)",
            cells as f64 / s,
            cells as f64 / s * 60.0,
            cells as f64 / w
        );
    });
}
