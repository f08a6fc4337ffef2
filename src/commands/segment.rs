//! The `scoresheet segment` command and its evaluation modes.

use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;

use scoresheet::page::eval::{eval_hcs, eval_synth};
use scoresheet::page::{Cell, PageError, Sheet, load, save_png, segment};

/// Arguments of `scoresheet segment`.
#[derive(Args, Debug, Clone)]
pub struct SegmentArgs {
    /// Page image (PNG, JPEG, GIF, BMP, WebP, TIFF or a scanned PDF; every page of a multi-page
    /// TIFF or PDF is segmented).
    pub image: PathBuf,
    /// Write the straightened page, an overlay and every cell (`MOVE_white.png`, `MOVE_black.png`)
    /// to this directory (one sub-directory per page for multi-page files).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print the cells as JSON: `{"cells": [{"move", "side", "box", "blank"}, ...]}`.
    #[arg(long)]
    pub json: bool,
    /// Write the binaries the page stage analyses (rulings, glyphs; one more of each for every
    /// further frame tried) to this directory; `-v` prints what it finds.
    #[arg(long, value_name = "DIR")]
    pub debug: Option<PathBuf>,
}

/// Arguments of `scoresheet-dev segment`: the page stage's evaluation modes.
#[derive(Args, Debug, Clone)]
pub struct SegmentEvalArgs {
    /// Evaluate on an HCS directory (`GGG_P.jpg` + `training_tags.txt`): pages with 120 cells and
    /// agreement of blank cells with the labels.
    #[arg(long, value_name = "DIR", required_unless_present = "eval_synth", conflicts_with = "eval_synth")]
    pub eval_hcs: Option<PathBuf>,
    /// Evaluate on a directory of synthetic sheets (image + ground-truth JSON of the same stem):
    /// share of true cells matched by a cell with the same label and IoU >= 0.7.
    #[arg(long, value_name = "DIR")]
    pub eval_synth: Option<PathBuf>,
    /// Write overlays of failing pages here.
    #[arg(long, value_name = "DIR")]
    pub eval_overlays: Option<PathBuf>,
    /// Write the binaries the page stage analyses (rulings, glyphs; one more of each for every
    /// further frame tried) to this directory; `-v` prints what it finds.
    #[arg(long, value_name = "DIR")]
    pub debug: Option<PathBuf>,
}

#[derive(Serialize)]
struct JsonOut<'a> {
    cells: &'a [Cell],
}

/// Runs `scoresheet segment`.
pub fn run(args: &SegmentArgs) -> Result<(), Box<dyn std::error::Error>> {
    set_debug_dir(args.debug.as_deref())?;
    let path = &args.image;
    let pages = load(path)?;
    let n = pages.len();
    let mut sheets = Vec::new();
    for (i, img) in pages.iter().enumerate() {
        let sheet = segment(img).map_err(|e| {
            if n > 1 { e.in_file(format!("{} (page {})", path.display(), i + 1)) } else { e.in_file(path) }
        })?;
        if let Some(out) = &args.out {
            let dir = if n > 1 { out.join(format!("page{}", i + 1)) } else { out.clone() };
            write_outputs(&sheet, &dir)?;
        }
        sheets.push(sheet);
    }
    if args.json {
        if n == 1 {
            println!("{}", serde_json::to_string_pretty(&JsonOut { cells: &sheets[0].cells })?);
        } else {
            let all: Vec<JsonOut> = sheets.iter().map(|s| JsonOut { cells: &s.cells }).collect();
            println!("{}", serde_json::to_string_pretty(&all)?);
        }
    } else if args.out.is_none() {
        for (i, s) in sheets.iter().enumerate() {
            let written = s.cells.iter().filter(|c| !c.blank).count();
            println!(
                "page {}: {} cells ({} written) in {} blocks, turned {} deg, skew {:.1} deg{}",
                i + 1,
                s.cells.len(),
                written,
                s.blocks.len(),
                s.quarter_turns * 90,
                s.skew_deg,
                if s.perspective { ", perspective corrected" } else { "" }
            );
        }
    }
    Ok(())
}

/// Runs `scoresheet-dev segment`: the HCS or the synthetic evaluation.
pub fn run_eval(args: &SegmentEvalArgs) -> Result<(), Box<dyn std::error::Error>> {
    set_debug_dir(args.debug.as_deref())?;
    match (&args.eval_hcs, &args.eval_synth) {
        (Some(dir), _) => eval_hcs(dir, args.eval_overlays.as_deref()),
        (None, Some(dir)) => eval_synth(dir, args.eval_overlays.as_deref()),
        (None, None) => Err("--eval-hcs DIR or --eval-synth DIR is required".into()),
    }
}

/// Makes `dir` (when given) the folder the page stage writes its binaries to.
fn set_debug_dir(dir: Option<&Path>) -> Result<(), Box<dyn std::error::Error>> {
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        scoresheet::page::set_debug_dir(dir.to_path_buf());
    }
    Ok(())
}

/// Writes `page.png`, `overlay.png` and every cell crop into `dir`.
pub fn write_outputs(sheet: &Sheet, dir: &Path) -> Result<(), PageError> {
    let werr = |p: &Path, e: &dyn std::fmt::Display| PageError::Write { path: p.to_path_buf(), reason: e.to_string() };
    std::fs::create_dir_all(dir).map_err(|e| werr(dir, &e))?;
    let p = dir.join("page.png");
    save_png(&sheet.page, &p).map_err(|e| werr(&p, &e))?;
    let p = dir.join("overlay.png");
    save_png(&sheet.overlay(), &p).map_err(|e| werr(&p, &e))?;
    for c in &sheet.cells {
        let p = dir.join(format!("{}_{}.png", c.mv, c.side.as_str()));
        save_png(&c.crop, &p).map_err(|e| werr(&p, &e))?;
    }
    Ok(())
}
