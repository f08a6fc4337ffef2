//! `scoresheet-dev synth`: the command line over [`synth::write_sheets`] and [`synth::write_cells`].

use std::path::PathBuf;

use scoresheet::synth::{self, FontSet, OptionNames, SynthError, options_from_names};

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
    /// held-out forms), or "random": a layout drawn for every sheet, none of the named forms.
    /// With --form-image: the form's name in the truth (default: the image's
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
    /// Print the form at this share of its contrast against the paper (0 to 1): 0.25 turns
    /// black print light grey (level 191 on white), as forms printed grey come out; the writing
    /// keeps its ink. With --form-image, its cells are found on the form as given.
    #[arg(long, value_name = "SHARE")]
    pub print_contrast: Option<f32>,
}

impl SynthArgs {
    /// The library's names of the choices made.
    fn option_names(&self) -> OptionNames {
        OptionNames {
            count: self.count,
            seed: self.seed,
            lang: self.lang.clone(),
            form: self.form.clone(),
            damage: self.damage.clone(),
            fonts: self.fonts,
            low_writing: self.low_writing,
            copies: self.copies,
            form_image: self.form_image.clone(),
            cells_from: self.cells_from.clone(),
            print_contrast: self.print_contrast,
        }
    }
}

/// Runs the command; returns a one-line summary.
pub fn run(args: &SynthArgs) -> Result<String, Box<dyn std::error::Error>> {
    let opts = options_from_names(&args.option_names())?;
    if let Some(form) = opts.form_image.as_ref().filter(|f| !f.checked) {
        eprintln!(
            "warning: the cells of {} are the page stage's own reading of the blank form, and the truth is only \
             as right as it: check its overlay (segment IMAGE --out DIR) or give checked cells with --cells-from",
            form.name
        );
    }
    let work = || {
        if args.cells {
            synth::write_cells(&opts, &args.out)
                .map(|n| format!("wrote {n} cell images and labels.tsv to {}\n", args.out.display()))
        } else {
            synth::write_sheets(&opts, &args.out)
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
