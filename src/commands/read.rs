//! The `scoresheet read` command line.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use clap::Args;

use scoresheet::decode::Params;
use scoresheet::notation::lang;
use scoresheet::output::GameOutput;
use scoresheet::output::review::{ReviewGame, review_html};
use scoresheet::read::inputs::{self, Fix, Grouping};
use scoresheet::read::journal::{self, Contents, GameEntry, Journal, Line, Listing};
use scoresheet::read::outputs::{AtomicFile, PgnTarget, check_may_write, write_outputs};
use scoresheet::read::{
    BatchOptions, Cutter, EXIT_FATAL, EXIT_OK, EXIT_SOME_FAILED, GameRead, ReadError, RecognizerPool, read_each, resume,
};

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
    pub lower: scoresheet::read::Lowering,
    /// Write the PGN here instead of standard output.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Write a JSON report: per game the files, language, and per half-move the move, the text
    /// read, confidence, alternatives and cell box.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Write a self-contained HTML review page (review.html) into this folder.
    #[arg(long, conflicts_with_all = ["journal", "shard"])]
    pub review: Option<PathBuf>,
    /// Record each game in this file (JSON lines) as it is finished; a rerun with the same
    /// journal takes the games found there (same files, content and options) and reads only the
    /// rest. Outputs a run with this journal wrote are replaced without --force.
    #[arg(long)]
    pub journal: Option<PathBuf>,
    /// Read only share K of N of the games (by a hash of each game's name), e.g. 2/8; join the
    /// shares' journals with `scoresheet merge`.
    #[arg(long)]
    pub shard: Option<scoresheet::read::shard::Shard>,
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
fn write_atomic(path: &Path, bytes: &[u8], force: bool) -> Result<(), ReadError> {
    if path.exists() && !force {
        return Err(ReadError::file(path, "already exists (use --force to overwrite)"));
    }
    let mut file = AtomicFile::create(path)?;
    file.write(bytes)?;
    file.finish()?.put_in_place()
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

/// A game kept for the review page: its place in the batch, its output and its page images.
struct Reviewed {
    place: usize,
    game: GameOutput,
    images: Vec<Option<image::RgbImage>>,
}

fn run_inner(args: &ReadArgs, cutter: &dyn Cutter) -> Result<u8, ReadError> {
    let started = Instant::now();
    // Everything that can be checked before reading is checked first.
    let language = match args.lang.as_str() {
        "auto" => None,
        code => Some(lang(code).ok_or_else(|| {
            ReadError::Invalid(format!("unknown language \"{code}\"; use auto or a code such as en, de, fr, ru"))
        })?),
    };
    let grouping = match (&args.group, args.copies) {
        (Some(p), _) => Grouping::pattern(p)?,
        (None, true) => Grouping::All,
        (None, false) => Grouping::PerFile,
    };
    let mut fixes: Vec<Fix> = args.fixes.iter().map(|f| f.parse()).collect::<Result<_, _>>()?;
    if let Some(path) = &args.fixes_file {
        let text = std::fs::read_to_string(path).map_err(|e| ReadError::file(path, format!("cannot read: {e}")))?;
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            fixes.push(line.parse().map_err(|e| ReadError::file(path, format!("{e}")))?);
        }
    }
    let table = match &args.headers {
        Some(p) => inputs::headers_csv(p)?,
        None => BTreeMap::new(),
    };
    let (journal, contents, _scratch) = open_journal(args.journal.as_deref())?;
    for out in [&args.output, &args.json].into_iter().flatten() {
        check_may_write(out, args.force, &contents.outputs)?;
    }
    if let Some(dir) = &args.review {
        let page = dir.join("review.html");
        if page.exists() && !args.force {
            return Err(ReadError::file(page, "already exists (use --force to overwrite)"));
        }
    }
    let model = args.model.clone().unwrap_or_else(scoresheet::recognize::default_model_path);
    let common = common_options(args, &model)?;
    let pool = RecognizerPool::new(&model)?;
    if let Some(j) = args.jobs {
        // Ignore the error of a second initialisation (tests run several batches).
        rayon::ThreadPoolBuilder::new().num_threads(j.max(1)).build_global().ok();
    }

    let (files, input_errors) = inputs::collect(&args.inputs);
    let games = inputs::group(&files, &grouping);
    let chosen: Vec<usize> = (0..games.len()).filter(|&g| args.shard.is_none_or(|s| s.contains(&games[g].0))).collect();
    let common_tags: Vec<(String, String)> =
        [("Event", &args.event), ("Site", &args.site), ("Date", &args.date), ("Round", &args.round)]
            .into_iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| (k.to_string(), v.clone())))
            .collect();
    let headers = |game: &str, files: &[PathBuf]| {
        let mut h = common_tags.clone();
        if let Some(tags) = inputs::tags_for(&table, game, files) {
            for (k, v) in tags {
                h.retain(|(hk, _)| hk != k);
                h.push((k.clone(), v.clone()));
            }
        }
        h
    };
    let options_of = |g: usize| {
        let (id, files) = &games[g];
        let pins: Vec<String> =
            fixes.iter().filter(|f| f.game == *id).map(|f| format!("{}={}", f.ply, f.san)).collect();
        journal::options_hash(&common, &headers(id, files), &pins)
    };
    let listing = Listing {
        listing: journal::listing_hash(&games),
        games: games.len(),
        shard: args.shard.map(|s| s.to_string()),
        input_errors: input_errors.clone(),
    };
    journal.append(&Line::Listing(listing.clone()))?;
    let plan = resume::plan(&journal, &contents, &games, &chosen, &options_of, &listing.listing)?;
    drop(contents);
    let to_read: Vec<(String, Vec<PathBuf>)> = plan.to_read.iter().map(|&g| games[g].clone()).collect();

    let bar = if std::io::stderr().is_terminal() {
        let b = indicatif::ProgressBar::new(to_read.iter().map(|(_, f)| f.len() as u64).sum());
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
    // Each game goes to the journal as it is finished; only the review page keeps games.
    let offsets = Mutex::new(plan.taken.clone());
    let journal_error: Mutex<Option<ReadError>> = Mutex::new(None);
    let reviewed: Mutex<Vec<Reviewed>> = Mutex::new(Vec::new());
    read_each(&to_read, &opts, &|pos, read| {
        let g = plan.to_read[pos];
        let entry = game_entry(g, &listing.listing, &games[g], &read, options_of(g));
        match entry.and_then(|e| journal.append(&Line::Game(e))) {
            Ok(offset) => {
                offsets.lock().unwrap_or_else(|e| e.into_inner()).insert(g, offset);
            }
            Err(e) => {
                journal_error.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
            }
        }
        if let (true, Some(output)) = (args.review.is_some(), read.output) {
            reviewed.lock().unwrap_or_else(|e| e.into_inner()).push(Reviewed {
                place: g,
                game: output,
                images: read.images,
            });
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some(e) = journal_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }

    // Outputs, rebuilt from the journal in input order.
    let offsets = offsets.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut reader = journal.reader()?;
    let mut entries = chosen.iter().map(|g| match offsets.get(g) {
        Some(&offset) => reader.game_at(offset),
        None => Err(ReadError::Invalid(format!("{}: game {} is missing", journal.path().display(), games[*g].0))),
    });
    let pgn_target = args.output.as_deref().map_or(PgnTarget::Stdout, PgnTarget::File);
    let record = |o: &journal::OutputEntry| journal.append(&Line::Output(o.clone())).map(|_| ());
    let totals = write_outputs(&mut entries, &input_errors, pgn_target, args.json.as_deref(), &record)?;
    if let Some(dir) = &args.review {
        let mut reviewed = reviewed.into_inner().unwrap_or_else(|e| e.into_inner());
        reviewed.sort_by_key(|r| r.place);
        std::fs::create_dir_all(dir).map_err(|e| ReadError::file(dir, format!("cannot create: {e}")))?;
        let review: Vec<ReviewGame<'_>> = reviewed
            .iter()
            .map(|r| ReviewGame { game: &r.game, images: r.images.iter().map(Option::as_ref).collect() })
            .collect();
        let html = review_html("scoresheet review", &review, &totals.errors);
        write_atomic(&dir.join("review.html"), html.as_bytes(), args.force)?;
    }
    for e in &totals.errors {
        eprintln!("scoresheet: {}: {}", e.file, e.error);
    }
    let failed: std::collections::BTreeSet<&str> = totals.errors.iter().map(|e| e.file.as_str()).collect();
    let taken = match plan.taken.len() {
        0 => String::new(),
        n => format!(" ({n} games taken from the journal)"),
    };
    eprintln!(
        "scoresheet: {} sheets read, {} games, {} moves, {} flagged, {} files failed, {:.1} s{taken}",
        totals.sheets,
        totals.games,
        totals.moves,
        totals.flagged,
        failed.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(if totals.errors.is_empty() { EXIT_OK } else { EXIT_SOME_FAILED })
}

/// A scratch file removed when dropped.
struct ScratchFile(PathBuf);

impl Drop for ScratchFile {
    fn drop(&mut self) {
        std::fs::remove_file(&self.0).ok();
    }
}

/// The user's journal with what it holds, or, without one, a scratch journal in the temporary
/// folder (removed at the end) that holds the finished games until the outputs are written.
fn open_journal(path: Option<&Path>) -> Result<(Journal, Contents, Option<ScratchFile>), ReadError> {
    if let Some(path) = path {
        let (journal, contents) = Journal::open(path)?;
        return Ok((journal, contents, None));
    }
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let path = std::env::temp_dir().join(format!("scoresheet-{}-{nanos}.jsonl", std::process::id()));
    let journal = Journal::scratch(&path)?;
    Ok((journal, Contents::default(), Some(ScratchFile(path))))
}

/// What every game's reading depends on besides its files, tags and pinned moves: the tool's
/// version, the model (its files' hash, or the built-in model's name), the language and the
/// windows option.
fn common_options(args: &ReadArgs, model: &Path) -> Result<String, ReadError> {
    let model_id = if model.starts_with(scoresheet::recognize::EMBEDDED_DIR) {
        model.display().to_string()
    } else {
        let mut parts = vec![journal::content_hash(&[model.to_path_buf()])?];
        let dir = model.parent().unwrap_or(Path::new("."));
        for beside in ["alphabet.json", "preprocess.json"] {
            parts.push(journal::content_hash(&[dir.join(beside)]).unwrap_or_default());
        }
        parts.join(" ")
    };
    let text = serde_json::json!({
        "version": env!("CARGO_PKG_VERSION"),
        "model": model_id,
        "lang": args.lang,
        "lower": format!("{:?}", args.lower),
    });
    Ok(text.to_string())
}

/// The journal's line for a game read.
fn game_entry(
    index: usize,
    listing: &str,
    (id, files): &(String, Vec<PathBuf>),
    read: &GameRead,
    options: String,
) -> Result<GameEntry, ReadError> {
    let (pgn, report, moves, flagged) = match &read.output {
        Some(g) => (
            g.to_pgn(),
            Some(serde_json::to_string_pretty(&g.to_json()).map_err(|e| ReadError::Invalid(e.to_string()))?),
            g.game.moves.len(),
            g.game.moves.iter().filter(|m| m.flagged).count(),
        ),
        None => (String::new(), None, 0, 0),
    };
    Ok(GameEntry {
        index,
        listing: listing.to_string(),
        id: id.clone(),
        files: files.iter().map(|f| f.display().to_string()).collect(),
        content: journal::content_hash(files).ok(),
        options,
        pgn,
        report,
        sheets: read.sheets,
        moves,
        flagged,
        errors: read.errors.clone(),
    })
}
