//! The page stage's evaluations (`scoresheet-dev segment --eval-hcs`, `--eval-synth`): cells
//! found and numbered on HCS pages or synthetic sheets against their truth.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::{PageError, Sheet, Side, load, segment};

/// Saves `sheet`'s overlay as `NAME.png` in `dir`, when a folder is given.
fn save_overlay(dir: Option<&Path>, name: &str, sheet: &Sheet) {
    if let Some(d) = dir {
        let _ = std::fs::create_dir_all(d);
        let _ = sheet.overlay().save(d.join(format!("{name}.png")));
    }
}

/// HCS evaluation: pages with exactly the 120 expected cells (moves 1-60), and how often
/// `blank` agrees with the labels (a labelled cell is written, an unlabelled one blank).
pub fn eval_hcs(dir: &Path, overlays: Option<&Path>) -> Result<(), Box<dyn std::error::Error>> {
    let tags = std::fs::read_to_string(dir.join("training_tags.txt")).unwrap_or_default();
    let mut written: HashMap<String, bool> = HashMap::new();
    for line in tags.lines() {
        let mut it = line.splitn(2, ' ');
        let name = it.next().unwrap_or("").trim_end_matches(".png").to_string();
        let label = it.next().unwrap_or("").trim();
        written.insert(name, !label.is_empty());
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jpg" || x == "png"))
        .collect();
    files.sort();
    type PageResult = (String, Result<(usize, bool, usize, usize), PageError>);
    let results: Vec<PageResult> = files
        .par_iter()
        .map(|p| {
            let stem = p.file_stem().unwrap_or_default().to_string_lossy().to_string();
            let r = (|| -> Result<(usize, bool, usize, usize), PageError> {
                let img = load(p)?.remove(0);
                let sheet = segment(&img).map_err(|e| e.in_file(p))?;
                let labels_ok =
                    (1..=60).all(|m| sheet.cell(m, Side::White).is_some() && sheet.cell(m, Side::Black).is_some());
                let (mut agree, mut known) = (0, 0);
                for c in &sheet.cells {
                    if let Some(&w) = written.get(&format!("{stem}_{}_{}", c.mv, c.side.as_str())) {
                        known += 1;
                        agree += (w != c.blank) as usize;
                    }
                }
                let ok = sheet.cells.len() == 120 && labels_ok;
                if !ok {
                    save_overlay(overlays, &stem, &sheet);
                }
                Ok((sheet.cells.len(), labels_ok, agree, known))
            })();
            (stem, r)
        })
        .collect();
    let (mut ok, mut agree, mut known) = (0, 0, 0);
    for (stem, r) in &results {
        match r {
            Ok((n, labels, a, k)) => {
                agree += a;
                known += k;
                if *n == 120 && *labels {
                    ok += 1;
                } else {
                    println!("{stem}: {n} cells");
                }
            }
            Err(e) => println!("{stem}: error: {e}"),
        }
    }
    println!("HCS: {ok}/{} pages with 120 cells labelled 1-60", results.len());
    if known > 0 {
        println!(
            "blank flag agrees with labels on {agree}/{known} cells ({:.2} %)",
            100.0 * agree as f64 / known as f64
        );
    }
    Ok(())
}

#[derive(serde::Deserialize)]
struct TruthCell {
    #[serde(rename = "move")]
    mv: u32,
    side: Side,
    #[serde(rename = "box")]
    bx: [f64; 4],
}

#[derive(serde::Deserialize)]
struct Truth {
    #[serde(default)]
    form: String,
    #[serde(default)]
    damage: String,
    cells: Vec<TruthCell>,
}

fn iou(a: [f64; 4], b: [f64; 4]) -> f64 {
    let iw = (a[2].min(b[2]) - a[0].max(b[0])).max(0.0);
    let ih = (a[3].min(b[3]) - a[1].max(b[1])).max(0.0);
    let inter = iw * ih;
    let ua = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
    if ua <= 0.0 { 0.0 } else { inter / ua }
}

/// Share of true cells of `truth` matched by a cell of `sheet` with the same label and IoU >= 0.7.
pub fn match_count(sheet_cells: &[super::Cell], truth: &[(u32, Side, [f64; 4])]) -> usize {
    truth
        .iter()
        .filter(|(m, s, b)| {
            sheet_cells.iter().any(|c| c.mv == *m && c.side == *s && iou(c.box_in_input.map(|v| v as f64), *b) >= 0.7)
        })
        .count()
}

/// One synthetic sheet segmented against its truth.
struct SynthResult {
    stem: String,
    form: String,
    damage: String,
    /// True move cells matched by a cell of the same label, of all true move cells.
    matched: usize,
    cells: usize,
    /// Move rows numbered by their printed numbers, of the rows found (or printed, if more).
    rows_printed: usize,
    rows: usize,
    /// Cells found whose label no true cell has.
    extra: usize,
    error: Option<String>,
}

/// Synthetic evaluation: the share of true cells matched by a cell of the same label with IoU
/// >= 0.7, per form and per damage kind, and the rows numbered by their printed numbers.
pub fn eval_synth(dir: &Path, overlays: Option<&Path>) -> Result<(), Box<dyn std::error::Error>> {
    let mut jsons: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    jsons.sort();
    let results: Vec<SynthResult> = jsons
        .par_iter()
        .filter_map(|j| {
            let truth: Truth = serde_json::from_str(&std::fs::read_to_string(j).ok()?).ok()?;
            let img = ["png", "jpg", "jpeg", "tif", "tiff"].iter().map(|e| j.with_extension(e)).find(|p| p.exists())?;
            let stem = j.file_stem()?.to_string_lossy().to_string();
            let t: Vec<(u32, Side, [f64; 4])> = truth.cells.iter().map(|c| (c.mv, c.side, c.bx)).collect();
            let res = load(&img).and_then(|mut v| segment(&v.remove(0)).map_err(|e| e.in_file(&img)));
            let mut result = SynthResult {
                stem: stem.clone(),
                form: truth.form,
                damage: truth.damage,
                matched: 0,
                cells: t.len(),
                rows_printed: 0,
                rows: t.len() / 2,
                extra: 0,
                error: None,
            };
            match res {
                Ok(sheet) => {
                    result.matched = match_count(&sheet.cells, &t);
                    // (cells whose label no true cell has: a heading, result or signature row
                    // read as moves)
                    result.extra = sheet
                        .cells
                        .iter()
                        .filter(|c| !t.iter().any(|(mv, side, _)| *mv == c.mv && *side == c.side))
                        .count();
                    if result.matched < t.len() || result.extra > 0 {
                        save_overlay(overlays, &stem, &sheet);
                    }
                    // (rows numbered by their printed numbers, of the rows found or printed)
                    let found: u32 = sheet.blocks.iter().map(|b| b.rows).sum();
                    result.rows_printed =
                        sheet.blocks.iter().filter(|b| b.printed_numbers).map(|b| b.rows as usize).sum();
                    result.rows = result.rows.max(found as usize);
                }
                Err(e) => result.error = Some(e.to_string()),
            }
            Some(result)
        })
        .collect();
    let (mut m, mut n) = (0, 0);
    let (mut printed, mut rows, mut extra) = (0, 0, 0);
    let mut by: HashMap<String, (usize, usize)> = HashMap::new();
    for r in &results {
        m += r.matched;
        n += r.cells;
        printed += r.rows_printed;
        rows += r.rows;
        extra += r.extra;
        for key in [format!("form {}", r.form), format!("damage {}", r.damage)] {
            let e = by.entry(key).or_default();
            e.0 += r.matched;
            e.1 += r.cells;
        }
        let counted = if r.error.is_none() { r.rows - r.rows_printed } else { 0 };
        if r.matched < r.cells || r.extra > 0 || counted > 0 {
            println!(
                "{} ({}, {}): {}/{}{}{}{}",
                r.stem,
                r.form,
                r.damage,
                r.matched,
                r.cells,
                if r.extra > 0 { format!(", {} cells the truth lacks", r.extra) } else { String::new() },
                if counted > 0 { format!(", {counted} rows counted") } else { String::new() },
                r.error.as_ref().map(|e| format!(" error: {e}")).unwrap_or_default()
            );
        }
    }
    let mut keys: Vec<_> = by.keys().cloned().collect();
    keys.sort();
    for k in keys {
        let (a, b) = by[&k];
        println!("{k}: {a}/{b} ({:.2} %)", 100.0 * a as f64 / b.max(1) as f64);
    }
    println!(
        "rows numbered by their printed numbers: {printed}/{rows} ({:.2} %)",
        100.0 * printed as f64 / rows.max(1) as f64
    );
    println!("cells whose label no true cell has (headings, result rows read as moves): {extra}");
    println!(
        "synthetic: {m}/{n} true cells matched ({:.2} %) on {} sheets",
        100.0 * m as f64 / n.max(1) as f64,
        results.len()
    );
    Ok(())
}
