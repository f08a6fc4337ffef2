//! `scoresheet-dev synth`: the command line over [`super::write_sheets`] and [`super::write_cells`].

use std::path::PathBuf;
use std::sync::Arc;

use super::SynthError;
use super::form_image::FormImage;
use super::{Damage, FontSet, Options, forms};
use crate::notation;

/// Arguments of `scoresheet-dev synth`.
#[derive(clap::Args, Debug, Clone)]
pub struct SynthArgs {
    /// Output directory (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Number of sheets (or of cells with --cells).
    #[arg(long, default_value_t = 10)]
    pub count: usize,
    /// Random seed: the same seed gives byte-identical output.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Language code (en, de, ru, ...), a descriptive notation (en-descriptive: "P-K4",
    /// es-descriptive: "P4R"), or "mix" (the algebraic languages).
    #[arg(long, default_value = "mix")]
    pub lang: String,
    /// Form name (see docs/forms.md: hcs, club, us-tournament, ...), or a mix: "mix" (the
    /// original five forms), "dev-mix" (the 15 development forms) or "heldout-mix" (the 5
    /// held-out forms). With --form-image: the form's name in the truth (default: the image's
    /// file name).
    #[arg(long, default_value = "mix")]
    pub form: String,
    /// Damage: none, scan, photo or mix.
    #[arg(long, default_value = "mix")]
    pub damage: String,
    /// Write single-cell images and labels.tsv instead of full sheets.
    #[arg(long)]
    pub cells: bool,
    /// Handwriting fonts: train, heldout or all.
    #[arg(long, value_enum, default_value_t = FontSet::All)]
    pub fonts: FontSet,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Every writer puts the moves across the rows' lower rulings (ink centred about a
    /// row-half low), as some writers do; otherwise the same sheets.
    #[arg(long)]
    pub low_writing: bool,
    /// Each game twice, as the two players' copies: the same moves written by two writers (their
    /// own hands, habits and mistakes) on the same form; the second copy's pages are named
    /// NAME_c2 (and NAME_c2_p2). Counted in page images, as without it.
    #[arg(long)]
    pub copies: bool,
    /// Write the games on this real blank form (PNG, JPEG or TIFF, upright) instead of a drawn
    /// form: the image is the background, the moves go into its move cells.
    #[arg(long, value_name = "IMAGE", conflicts_with = "cells")]
    pub form_image: Option<PathBuf>,
    /// With --form-image: the form's move cells, checked by a person (JSON as `segment --json`
    /// prints it: `{"cells": [{"move", "side", "box"}, ...]}`, boxes in the image's pixels; a
    /// cell may add `"write"`, the part of its box written in). Without it the page stage's own
    /// cells of the blank form are the truth.
    #[arg(long, value_name = "JSON", requires = "form_image")]
    pub cells_from: Option<PathBuf>,
}

/// Parses the arguments into [`Options`].
pub fn options(args: &SynthArgs) -> Result<Options, SynthError> {
    let lang = match args.lang.as_str() {
        "mix" => None,
        code => Some(notation::lang(code).ok_or_else(|| {
            let codes: Vec<&str> = notation::all_languages().map(|l| l.code).collect();
            SynthError::Invalid(format!("unknown language '{code}' (use mix or one of {})", codes.join(", ")))
        })?),
    };
    let form_image = match &args.form_image {
        Some(path) => {
            let name = Some(args.form.as_str()).filter(|n| *n != "mix");
            Some(Arc::new(FormImage::load(path, args.cells_from.as_deref(), name)?))
        }
        None => None,
    };
    let (form, mix_forms): (_, &'static [&'static str]) = match args.form.as_str() {
        _ if form_image.is_some() => (None, &forms::NAMES),
        "mix" => (None, &forms::NAMES),
        "dev-mix" => (None, &forms::DEVELOPMENT_FORMS),
        "heldout-mix" => (None, &forms::HELD_OUT_FORMS),
        name => {
            let known = forms::library().find(|n| *n == name).ok_or_else(|| {
                let names: Vec<&str> = forms::library().collect();
                SynthError::Invalid(format!(
                    "unknown form '{name}' (use mix, dev-mix, heldout-mix or one of {})",
                    names.join(", ")
                ))
            })?;
            (Some(known), &forms::NAMES)
        }
    };
    let damage = match args.damage.as_str() {
        "mix" => None,
        "none" => Some(Damage::None),
        "scan" => Some(Damage::Scan),
        "photo" => Some(Damage::Photo),
        other => return Err(SynthError::Invalid(format!("unknown damage '{other}' (use none, scan, photo or mix)"))),
    };
    Ok(Options {
        count: args.count,
        seed: args.seed,
        lang,
        form,
        mix_forms,
        damage,
        fonts: args.fonts,
        low_writing: args.low_writing,
        copies: args.copies,
        form_image,
    })
}

/// Runs the command; returns a one-line summary.
pub fn run(args: &SynthArgs) -> Result<String, Box<dyn std::error::Error>> {
    let opts = options(args)?;
    if let Some(form) = opts.form_image.as_ref().filter(|f| !f.checked) {
        eprintln!(
            "warning: the cells of {} are the page stage's own reading of the blank form, and the truth is only \
             as right as it: check its overlay (segment IMAGE --out DIR) or give checked cells with --cells-from",
            form.name
        );
    }
    let work = || {
        if args.cells {
            super::write_cells(&opts, &args.out)
                .map(|n| format!("wrote {n} cell images and labels.tsv to {}\n", args.out.display()))
        } else {
            super::write_sheets(&opts, &args.out)
                .map(|files| format!("wrote {} files ({} sheets) to {}\n", files.len(), opts.count, args.out.display()))
        }
    };
    match args.jobs {
        Some(0) => Err("--jobs must be at least 1".into()),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| SynthError::Invalid(format!("cannot start {n} threads: {e}")))?
            .install(work)
            .map_err(Into::into),
        None => work().map_err(Into::into),
    }
}
