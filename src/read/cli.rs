//! The `scoresheet read` command line.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;

use super::inputs::{self, Fix, Grouping};
use super::{BatchOptions, Cutter, RecognizerPool, read_batch};
use crate::decode::Params;
use crate::notation::lang;
use crate::output::review::{ReviewGame, review_html};
use crate::output::{Report, report::GameJson};

/// Exit code: every file was read.
pub const EXIT_OK: u8 = 0;
/// Exit code: nothing could be done (bad arguments, no model, an output that cannot be written).
pub const EXIT_FATAL: u8 = 1;
/// Exit code: some files could not be read; the others were, and their games were written.
pub const EXIT_SOME_FAILED: u8 = 2;

/// Arguments of `scoresheet read`.
#[derive(Args, Debug)]
pub struct ReadArgs {
    /// Scans: image files (PNG, JPEG, TIFF, multi-page TIFF), PDF files, or folders (walked
    /// recursively, in sorted order).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Where each page's cells are read: auto (the cells' own windows, or windows moved down by
    /// 0.25 or 0.5 of a row where the handwriting reads clearly better so: writers who put their
    /// moves across the rows' lower rulings), off, or one of those shares.
    #[arg(long, default_value = "auto")]
    pub lower: super::Lowering,
    /// Write the PGN here instead of standard output.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Write a JSON report: per game the files, language, and per half-move the move, the text
    /// read, confidence, alternatives and cell box.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Write a self-contained HTML review page (review.html) into this folder.
    #[arg(long)]
    pub review: Option<PathBuf>,
    /// Piece letters: auto (found from the moves, descriptive notation included) or a language
    /// code (en, de, fr, ru, ..., en-descriptive, es-descriptive).
    #[arg(long, default_value = "auto")]
    pub lang: String,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// All inputs of the call are one game (the players' copies, continuation pages).
    #[arg(long, conflicts_with = "group")]
    pub copies: bool,
    /// Files whose names give the same key under this regular expression are one game (the
    /// key is its capture groups), e.g. 'r(\d+)-b(\d+)' for r3-b12-white.jpg / r3-b12-black.jpg.
    #[arg(long)]
    pub group: Option<String>,
    /// Overwrite existing output files.
    #[arg(long)]
    pub force: bool,
    /// Pin a move and read the rest of that game around it: GAME:14b=Nf6 (black's 14th move of
    /// game GAME, named as in the PGN's Source/the JSON's id). May be repeated.
    #[arg(long = "fix")]
    pub fixes: Vec<String>,
    /// A file of corrections, one GAME:14b=Nf6 per line (as the review page writes them).
    #[arg(long)]
    pub fixes_file: Option<PathBuf>,
    /// PGN Event tag for every game.
    #[arg(long)]
    pub event: Option<String>,
    /// PGN Site tag.
    #[arg(long)]
    pub site: Option<String>,
    /// PGN Date tag (YYYY.MM.DD).
    #[arg(long)]
    pub date: Option<String>,
    /// PGN Round tag.
    #[arg(long)]
    pub round: Option<String>,
    /// A CSV of tags per game: a `file` column (file name, path or game name) and one column per
    /// tag (White, Black, Round, Board, ...).
    #[arg(long)]
    pub headers: Option<PathBuf>,
    /// The recognizer model file (alphabet.json and preprocess.json must be beside it);
    /// default: the file $SCORESHEET_MODEL names, else the model built into scoresheet.
    #[arg(long)]
    pub model: Option<PathBuf>,
}

/// Writes `bytes` to `path` atomically (a temporary file beside it, then a rename); refuses to
/// replace an existing file unless `force`.
pub fn write_atomic(path: &Path, bytes: &[u8], force: bool) -> Result<(), String> {
    if path.exists() && !force {
        return Err(format!("{}: already exists (use --force to overwrite)", path.display()));
    }
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| {
            f.write_all(bytes)?;
            f.sync_all()
        })
        .and_then(|_| std::fs::rename(&tmp, path));
    if let Err(e) = result {
        std::fs::remove_file(&tmp).ok();
        return Err(format!("{}: cannot write: {e}", path.display()));
    }
    Ok(())
}

/// Runs `read` with the page stage `cutter`. Returns the exit code; messages go to stderr.
pub fn run(args: &ReadArgs, cutter: &dyn Cutter) -> u8 {
    match run_inner(args, cutter) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("scoresheet: {e}");
            EXIT_FATAL
        }
    }
}

fn run_inner(args: &ReadArgs, cutter: &dyn Cutter) -> Result<u8, String> {
    let started = Instant::now();
    // Everything that can be checked before reading is checked first.
    let language = match args.lang.as_str() {
        "auto" => None,
        code => Some(
            lang(code)
                .ok_or_else(|| format!("unknown language \"{code}\"; use auto or a code such as en, de, fr, ru"))?,
        ),
    };
    let grouping = match (&args.group, args.copies) {
        (Some(p), _) => Grouping::pattern(p)?,
        (None, true) => Grouping::All,
        (None, false) => Grouping::PerFile,
    };
    let mut fixes: Vec<Fix> = args.fixes.iter().map(|f| f.parse()).collect::<Result<_, _>>()?;
    if let Some(path) = &args.fixes_file {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            fixes.push(line.parse().map_err(|e| format!("{}: {e}", path.display()))?);
        }
    }
    let table = match &args.headers {
        Some(p) => inputs::headers_csv(p)?,
        None => BTreeMap::new(),
    };
    for out in [&args.output, &args.json].into_iter().flatten() {
        if out.exists() && !args.force {
            return Err(format!("{}: already exists (use --force to overwrite)", out.display()));
        }
    }
    if let Some(dir) = &args.review {
        let page = dir.join("review.html");
        if page.exists() && !args.force {
            return Err(format!("{}: already exists (use --force to overwrite)", page.display()));
        }
    }
    let model = args.model.clone().unwrap_or_else(crate::recognize::default_model_path);
    let pool = RecognizerPool::new(&model)?;
    if let Some(j) = args.jobs {
        // Ignore the error of a second initialisation (tests run several batches).
        rayon::ThreadPoolBuilder::new().num_threads(j.max(1)).build_global().ok();
    }

    let (files, mut errors) = inputs::collect(&args.inputs);
    let games = inputs::group(&files, &grouping);
    let common: Vec<(String, String)> =
        [("Event", &args.event), ("Site", &args.site), ("Date", &args.date), ("Round", &args.round)]
            .into_iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| (k.to_string(), v.clone())))
            .collect();
    let headers = |game: &str, files: &[PathBuf]| {
        let mut h = common.clone();
        if let Some(tags) = inputs::tags_for(&table, game, files) {
            for (k, v) in tags {
                h.retain(|(hk, _)| hk != k);
                h.push((k.clone(), v.clone()));
            }
        }
        h
    };
    let bar = if std::io::stderr().is_terminal() {
        let b = indicatif::ProgressBar::new(files.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {pos} pages read [{elapsed_precise}] {wide_bar} {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Some(b)
    } else {
        None
    };
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    let opts = BatchOptions {
        cutter,
        pool: &pool,
        lang: language,
        params: Params::default(),
        keep_images: args.review.is_some(),
        lowering: args.lower,
        headers: &headers,
        fixes: &fixes,
        progress: &tick,
    };
    let batch = read_batch(&games, &opts);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    errors.extend(batch.errors.iter().cloned());

    // Outputs.
    let pgn: String = batch.games.iter().map(|g| g.to_pgn()).collect();
    match &args.output {
        Some(path) => write_atomic(path, pgn.as_bytes(), args.force)?,
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(pgn.as_bytes()).and_then(|_| out.flush()).map_err(|e| format!("cannot write PGN: {e}"))?;
        }
    }
    if let Some(path) = &args.json {
        let report = Report {
            games: batch.games.iter().map(|g| g.to_json()).collect::<Vec<GameJson>>(),
            errors: errors.clone(),
        };
        let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        write_atomic(path, text.as_bytes(), args.force)?;
    }
    if let Some(dir) = &args.review {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
        let review: Vec<ReviewGame<'_>> = batch
            .games
            .iter()
            .zip(&batch.images)
            .map(|(g, imgs)| ReviewGame { game: g, images: imgs.iter().map(Option::as_ref).collect() })
            .collect();
        let html = review_html("scoresheet review", &review, &errors);
        write_atomic(&dir.join("review.html"), html.as_bytes(), args.force)?;
    }
    for e in &errors {
        eprintln!("scoresheet: {}: {}", e.file, e.error);
    }
    let moves: usize = batch.games.iter().map(|g| g.game.moves.len()).sum();
    let flagged: usize = batch.games.iter().map(|g| g.game.moves.iter().filter(|m| m.flagged).count()).sum();
    let failed: std::collections::BTreeSet<&str> = errors.iter().map(|e| e.file.as_str()).collect();
    eprintln!(
        "scoresheet: {} sheets read, {} games, {} moves, {} flagged, {} files failed, {:.1} s",
        batch.sheets,
        batch.games.len(),
        moves,
        flagged,
        failed.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(if errors.is_empty() { EXIT_OK } else { EXIT_SOME_FAILED })
}
