//! Throughput of `scoresheet synth` on one core: full sheets per second (render + damage + encode,
//! per damage kind) and single cells per second (render + PNG). Run with `cargo bench --bench synth`.

use std::time::Instant;

use scoresheet::synth::{self, Damage, FontSet, Options};

fn main() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("one thread");
    pool.install(|| {
        let n = 30;
        for damage in [None, Some(Damage::None), Some(Damage::Scan), Some(Damage::Photo)] {
            let o = Options { count: n, seed: 99, lang: None, form: None, damage, fonts: FontSet::All };
            let _ = synth::render_sheet(&o, 0); // fonts loaded, caches warm
            let t = Instant::now();
            let mut bytes = 0;
            let mut images = 0;
            for i in 0..n {
                for page in synth::render_sheet(&o, i).expect("renders") {
                    bytes += synth::encode_image(&page).expect("encodes").len();
                    bytes += serde_json::to_string(&page.truth).expect("json").len();
                    images += 1;
                }
            }
            let s = t.elapsed().as_secs_f64();
            let kind = damage.map(|d| d.name()).unwrap_or("mix");
            println!(
                "sheets damage={kind:5}: {:.1} sheets/s ({images} images, {:.0} ms/sheet, {:.1} MB)",
                n as f64 / s,
                s * 1000.0 / n as f64,
                bytes as f64 / 1e6
            );
        }
        let o = Options { count: 24 * 80, seed: 5, lang: None, form: None, damage: None, fonts: FontSet::Train };
        let t = Instant::now();
        let mut cells = 0;
        for w in 0..80 {
            for c in synth::render_cells(&o, w).expect("renders") {
                let _ = synth::encode_cell(&c).expect("encodes");
                cells += 1;
            }
        }
        let s = t.elapsed().as_secs_f64();
        println!("cells: {:.0} cells/s ({:.0} per minute)", cells as f64 / s, cells as f64 / s * 60.0);
    });
}
