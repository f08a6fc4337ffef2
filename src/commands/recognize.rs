//! `scoresheet recognize`: the top readings of cell images.

use std::fmt::Write;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use scoresheet::recognize::{Reading, Recognizer, default_model_path, load_cell};

/// Arguments of `scoresheet recognize`.
#[derive(Args, Debug)]
pub struct RecognizeArgs {
    /// Cell images (one handwritten move each).
    #[arg(required = true)]
    pub images: Vec<PathBuf>,
    /// How many readings to print per image.
    #[arg(long, default_value_t = 5)]
    pub top: usize,
    /// Print JSON: [{"image": PATH, "top": [{"text": ..., "logp": ...}, ...]}, ...].
    #[arg(long)]
    pub json: bool,
    /// The ONNX model file (alphabet.json and preprocess.json must be beside it); default: the
    /// file $SCORESHEET_MODEL names, else the model built into scoresheet.
    #[arg(long)]
    pub model: Option<PathBuf>,
}

#[derive(Serialize)]
struct ImageResult {
    image: String,
    top: Vec<Reading>,
}

/// Runs `recognize`: returns what to print, or the error message.
pub fn run(args: &RecognizeArgs) -> Result<String, Box<dyn std::error::Error>> {
    if args.top == 0 {
        return Err("--top must be at least 1".into());
    }
    let model = args.model.clone().unwrap_or_else(default_model_path);
    let cells = args.images.iter().map(|p| load_cell(p)).collect::<Result<Vec<_>, _>>()?;
    let mut recognizer = Recognizer::load(&model)?;
    let scores = recognizer.recognize(&cells)?;
    let results: Vec<ImageResult> = args
        .images
        .iter()
        .zip(&scores)
        .map(|(p, s)| ImageResult { image: p.display().to_string(), top: s.top(args.top) })
        .collect();
    if args.json {
        let mut s = serde_json::to_string_pretty(&results).map_err(|e| format!("cannot write JSON: {e}"))?;
        s.push('\n');
        return Ok(s);
    }
    let mut out = String::new();
    for r in &results {
        let _ = writeln!(out, "{}", r.image);
        for (i, reading) in r.top.iter().enumerate() {
            let _ = writeln!(out, "  {}. {:<12} {:.3}", i + 1, reading.text, reading.logp);
        }
    }
    Ok(out)
}
