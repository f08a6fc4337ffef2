//! `scoresheet synth`: the command line over [`super::write_sheets`] and [`super::write_cells`].

use std::path::PathBuf;

use super::{Damage, FontSet, Options, forms};
use crate::notation;

/// Arguments of `scoresheet synth`.
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
    /// Language code (en, de, ru, ...) or "mix".
    #[arg(long, default_value = "mix")]
    pub lang: String,
    /// Form name (see docs/forms.md: hcs, club, us-tournament, ...), or a mix: "mix" (the
    /// original five forms), "dev-mix" (the 15 development forms) or "heldout-mix" (the 5
    /// held-out forms).
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
}

/// Parses the arguments into [`Options`].
pub fn options(args: &SynthArgs) -> Result<Options, String> {
    let lang = match args.lang.as_str() {
        "mix" => None,
        code => Some(notation::lang(code).ok_or_else(|| {
            let codes: Vec<&str> = notation::languages().iter().map(|l| l.code).collect();
            format!("unknown language '{code}' (use mix or one of {})", codes.join(", "))
        })?),
    };
    let (form, mix_forms): (_, &'static [&'static str]) = match args.form.as_str() {
        "mix" => (None, &forms::NAMES),
        "dev-mix" => (None, &forms::DEVELOPMENT_FORMS),
        "heldout-mix" => (None, &forms::HELD_OUT_FORMS),
        name => {
            let known = forms::library().find(|n| *n == name).ok_or_else(|| {
                let names: Vec<&str> = forms::library().collect();
                format!("unknown form '{name}' (use mix, dev-mix, heldout-mix or one of {})", names.join(", "))
            })?;
            (Some(known), &forms::NAMES)
        }
    };
    let damage = match args.damage.as_str() {
        "mix" => None,
        "none" => Some(Damage::None),
        "scan" => Some(Damage::Scan),
        "photo" => Some(Damage::Photo),
        other => return Err(format!("unknown damage '{other}' (use none, scan, photo or mix)")),
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
    })
}

/// Runs the command; returns a one-line summary.
pub fn run(args: &SynthArgs) -> Result<String, String> {
    let opts = options(args)?;
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
        Some(0) => Err("--jobs must be at least 1".to_string()),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| format!("cannot start {n} threads: {e}"))?
            .install(work),
        None => work(),
    }
}
