//! `scoresheet-dev eval`: the command line over [`scoresheet::read::eval`], with the decoder's
//! knobs as options.

use std::path::PathBuf;

use scoresheet::read::eval::{
    Figures, evaluate_each, evaluate_with_evidence, hcs_dev_games, hcs_games, synthetic_games,
};
use scoresheet::read::{BatchOptions, Cutter, ReadError, RecognizerPool};

/// Arguments of `scoresheet-dev eval`.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// A folder of synthetic sheets (image + JSON ground truth), or with `--hcs` the HCS folder
    /// (`GGG_P.jpg` pages and `testing_tags.txt`).
    pub dir: PathBuf,
    /// The folder is the HCS dataset: read its 17 test games (less the endgame study 039), page 0
    /// alone and both pages together.
    #[arg(long)]
    pub hcs: bool,
    /// Piece letters: auto or a language code.
    #[arg(long, default_value = "auto")]
    pub lang: String,
    /// Decoder beam width.
    #[arg(long)]
    pub beam: Option<usize>,
    /// Decoder: the most board states kept per half-move.
    #[arg(long)]
    pub beam_max: Option<usize>,
    /// Decoder: games this close to the best are kept, up to `beam_max`.
    #[arg(long)]
    pub beam_margin: Option<f32>,
    /// Decoder log-penalty for a cell that does not show the move played.
    #[arg(long, allow_hyphen_values = true)]
    pub mismatch_penalty: Option<f32>,
    /// Decoder extra mismatch penalty, times the distance of the move's spelling from the ink.
    #[arg(long)]
    pub mismatch_closeness: Option<f32>,
    /// Half-moves looked back to repair the best game where a cell contradicts it (0: off).
    #[arg(long)]
    pub repair_window: Option<usize>,
    /// How many of the decoder's best games are repaired where a cell contradicts them.
    #[arg(long)]
    pub repair_games: Option<usize>,
    /// Weight of the decoder's move prior (0: every legal move alike before the ink).
    #[arg(long)]
    pub prior_weight: Option<f32>,
    /// Decoder confidence under which a move is flagged.
    #[arg(long)]
    pub flag_threshold: Option<f32>,
    /// Decoder confidence under which a move is flagged where its piece, or the piece it takes,
    /// was brought to its square by a flagged move.
    #[arg(long)]
    pub flag_hangs_threshold: Option<f32>,
    /// Weight of the page stage's blank flag (natural log; 0 = the model alone decides).
    #[arg(long)]
    pub blank_weight: Option<f32>,
    /// Where each page's cells are read: auto, off, 0.25 or 0.5 (as for `read`).
    #[arg(long, default_value = "auto")]
    pub lower: scoresheet::read::Lowering,
    /// The recognizer model (default: the shipped one).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Print each game's figures too.
    #[arg(long)]
    pub per_game: bool,
    /// With --dev: write each move's confidence evidence and whether it is right to this file
    /// (TSV, for `scripts/fit_calibration.py`).
    #[arg(long)]
    pub dump: Option<PathBuf>,
    /// With --hcs: read the development set instead (pages outside the test split, each alone
    /// against its own labels), at most this many pages. For tuning; the test split is not.
    #[arg(long)]
    pub dev: Option<usize>,
    /// With -vv (the decoder's trace): also record the scored moves at this half-move (0 is
    /// white's first).
    #[arg(long, value_name = "PLY")]
    pub trace_ply: Option<usize>,
}

/// Runs `eval`: returns the figures as text.
pub fn run(args: &EvalArgs, cutter: &dyn Cutter) -> Result<String, ReadError> {
    let lang = match args.lang.as_str() {
        "auto" => None,
        c => {
            Some(scoresheet::notation::lang(c).ok_or_else(|| ReadError::Invalid(format!("unknown language \"{c}\"")))?)
        }
    };
    let model = args.model.clone().unwrap_or_else(scoresheet::recognize::default_model_path);
    let pool = RecognizerPool::new(&model)?;
    let mut params = scoresheet::decode::Params::default();
    if let Some(b) = args.beam {
        params.beam = b;
    }
    if let Some(p) = args.mismatch_penalty {
        params.mismatch_penalty = p;
    }
    if let Some(m) = args.beam_max {
        params.beam_max = m;
    }
    if let Some(m) = args.beam_margin {
        params.beam_margin = m;
    }
    if let Some(c) = args.mismatch_closeness {
        params.mismatch_closeness = c;
    }
    if let Some(w) = args.repair_window {
        params.repair_window = w;
    }
    if let Some(g) = args.repair_games {
        params.repair_games = g;
    }
    if let Some(w) = args.prior_weight {
        params.prior_weight = w;
    }
    if let Some(t) = args.flag_threshold {
        params.flag_threshold = t;
    }
    if let Some(t) = args.flag_hangs_threshold {
        params.flag_hangs_threshold = t;
    }
    params.trace_ply = args.trace_ply;
    if let Some(w) = args.blank_weight {
        params.blank_flag_weight = w;
    }
    let mut opts = BatchOptions::plain(cutter, &pool, lang, params);
    opts.lowering = args.lower;
    let started = std::time::Instant::now();
    let mut out = String::new();
    if let (true, Some(limit)) = (args.hcs, args.dev) {
        let games = hcs_dev_games(&args.dir, limit)?;
        let (all, each, evidence) = evaluate_with_evidence(&games, &opts);
        if let Some(path) = &args.dump {
            std::fs::write(path, evidence).map_err(|e| ReadError::Invalid(format!("{}: {e}", path.display())))?;
        }
        if args.per_game {
            push_each(&mut out, "page", &each);
        }
        out.push_str(&all.summary("HCS development pages (outside the test split), each page alone"));
        out.push('\n');
    } else if args.hcs {
        for (both, name) in [(false, "HCS test split, page 0 alone"), (true, "HCS test split, both pages together")] {
            let games = hcs_games(&args.dir, both)?;
            let (all, each) = evaluate_each(&games, &opts);
            if args.per_game {
                push_each(&mut out, "game", &each);
            }
            out.push_str(&all.summary(name));
            out.push('\n');
        }
    } else {
        let games = synthetic_games(&args.dir)?;
        let (all, each, evidence) = evaluate_with_evidence(&games, &opts);
        if let Some(path) = &args.dump {
            std::fs::write(path, evidence).map_err(|e| ReadError::Invalid(format!("{}: {e}", path.display())))?;
        }
        if args.per_game {
            push_each(&mut out, "sheet", &each);
        }
        out.push_str(&all.summary(&format!("synthetic sheets in {}", args.dir.display())));
        out.push('\n');
    }
    out.push_str(&format!("time {:.1} s\n", started.elapsed().as_secs_f64()));
    Ok(out)
}

/// Appends each game's figures, one line each, named `kind NAME`.
fn push_each(out: &mut String, kind: &str, each: &[(String, Figures)]) {
    for (g, f) in each {
        out.push_str(&f.summary(&format!("  {kind} {g}")));
        out.push('\n');
        for w in &f.wrong_moves {
            out.push_str(&format!("      wrong: {w}\n"));
        }
    }
}
