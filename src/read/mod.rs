//! `scoresheet read`: batches of scans to games.
//!
//! Files (and folders, walked recursively) are loaded page by page ([`mod@crate::page::load`]),
//! every page is cut into labelled cells by the page stage (a [`Cutter`]), the cells of a page
//! are read together by the recognizer, the sheets of one game (by default, one file; see
//! [`inputs::Grouping`]) are put together as copies and continuation pages, and each game is
//! decoded. Sheets are read in parallel (rayon), each worker with its own loaded recognizer. A file that cannot be read is
//! reported with its name and the reason, and the rest of the batch goes on.

mod error;
pub mod eval;
pub mod inputs;
pub mod journal;
pub mod merge;
pub mod outputs;
pub mod resume;
pub mod shard;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use image::{DynamicImage, GrayImage, RgbImage};
use rayon::prelude::*;

use crate::decode::{CellScorer, InkAware, Params, SheetCopy, decode};
use crate::notation::{Lang, Notation};
use crate::output::{FileError, GameOutput, SheetRef};
use crate::page::load::{Pages, load_pages};
use crate::page::{Lowered, PageError};
use crate::recognize::{CellScores, Recognizer, ViewReaders};
pub use error::ReadError;

/// Exit code of `read` and `merge`: every file was read.
pub const EXIT_OK: u8 = 0;
/// Exit code: nothing could be done (bad arguments, no model, an output that cannot be written).
pub const EXIT_FATAL: u8 = 1;
/// Exit code: some files could not be read; the others were, and their games were written.
pub const EXIT_SOME_FAILED: u8 = 2;

/// One cell cut from a page.
#[derive(Clone, Debug)]
pub struct CutCell {
    /// Half-move index: 0 is white's first move, 1 black's first, 120 white's 61st.
    pub ply: usize,
    /// The cell's box in the input image's pixels.
    pub bbox: [f32; 4],
    /// The crop the recognizer reads.
    pub crop: GrayImage,
    /// The page stage found no ink in the cell.
    pub blank: bool,
    /// The cell's move number was counted, not read from the form (see
    /// [`crate::page::Cell::numbering_guessed`]).
    pub numbering_guessed: bool,
    /// The cell's window moved down by each of [`crate::page::LOW_OFFSETS`] of the row height
    /// (empty where the cutter offers none).
    pub lowered: Vec<Lowered>,
}

/// A page cut into its move cells.
pub struct CutPage {
    /// The move cells, labelled by half-move.
    pub cells: Vec<CutCell>,
    /// The page holds a second copy of the form that is not read (see
    /// [`crate::page::Sheet::second_form_unread`]).
    pub second_form_unread: bool,
}

/// The page stage as `read` uses it: a page image to its labelled cells.
pub trait Cutter: Sync {
    /// The cells of the move table on `page`, or why there is none.
    fn cut(&self, page: &DynamicImage) -> Result<CutPage, PageError>;
}

/// The page stage ([`crate::page::segment`]) as a [`Cutter`].
pub struct PageCutter;

impl Cutter for PageCutter {
    fn cut(&self, page: &DynamicImage) -> Result<CutPage, PageError> {
        let sheet = crate::page::segment(page)?;
        let cells = sheet
            .cells
            .into_iter()
            .filter(|c| c.mv >= 1)
            .map(|c| CutCell {
                ply: (c.mv as usize - 1) * 2 + usize::from(c.side == crate::page::Side::Black),
                bbox: c.box_in_input,
                crop: c.crop,
                blank: c.blank,
                numbering_guessed: c.numbering_guessed,
                lowered: c.lowered,
            })
            .collect();
        Ok(CutPage { cells, second_form_unread: sheet.second_form_unread })
    }
}

/// A page read: its cells with the recognizer's scores.
pub struct SheetRead {
    /// The file the page is in.
    pub file: PathBuf,
    /// The page within the file, from 0.
    pub page: usize,
    /// (half-move, box in the input, blank, the recognizer's scores).
    pub cells: Vec<(usize, [f32; 4], bool, CellScores)>,
    /// The page image, kept for the review page.
    pub image: Option<RgbImage>,
    /// The share of the row height the cells' windows were moved down by (see [`Lowering`]);
    /// the boxes are the moved windows.
    pub lowered: Option<f64>,
    /// The page read in lowered windows too, for the decoder to judge ([`decode_game`] keeps
    /// the reading whose game fits the ink better).
    pub alt: Option<Box<SheetAlt>>,
    /// Some of the page's rows were numbered by counting, not by their printed numbers.
    pub numbering_guessed: bool,
    /// The page holds a second copy of the form that is not read.
    pub second_form_unread: bool,
}

/// A page's cells read in lowered windows ([`SheetRead::alt`]).
pub struct SheetAlt {
    /// Share of the row height the windows were moved down by.
    pub lowered: f64,
    /// As [`SheetRead::cells`].
    pub cells: Vec<(usize, [f32; 4], bool, CellScores)>,
}

/// Recognizers for the workers: one loaded model each, made on first use.
pub struct RecognizerPool {
    model: PathBuf,
    /// The recognizers not in use, shared with [`RecognizerPool::loaded_model_alone`]'s pool:
    /// which models read the views is chosen per call.
    free: Arc<Mutex<Vec<Recognizer>>>,
    /// Which models read the views of the cells [`RecognizerPool::recognize`] reads.
    readers: ViewReaders,
    /// Whether the model has partners that read some views.
    partnered: bool,
}

impl RecognizerPool {
    /// A pool over the model at `model` (checked by loading one recognizer now).
    pub fn new(model: &Path) -> Result<RecognizerPool, ReadError> {
        let first = Recognizer::load(model)?;
        let partnered = first.has_partners();
        Ok(RecognizerPool {
            model: model.to_path_buf(),
            free: Arc::new(Mutex::new(vec![first])),
            readers: ViewReaders::Partnered,
            partnered,
        })
    }

    /// The same recognizers with every view read by the model loaded, not by its partners (see
    /// [`ViewReaders::LoadedModel`]); `None` where the model has no partners.
    pub fn loaded_model_alone(&self) -> Option<RecognizerPool> {
        self.partnered.then(|| RecognizerPool {
            model: self.model.clone(),
            free: Arc::clone(&self.free),
            readers: ViewReaders::LoadedModel,
            partnered: true,
        })
    }

    /// Reads cells with a recognizer of the pool, its views read as the pool says.
    pub fn recognize(&self, cells: &[GrayImage]) -> Result<Vec<CellScores>, ReadError> {
        Ok(self.with(|r| r.recognize_with(cells, self.readers))??)
    }

    /// Runs `f` with a recognizer of the pool.
    pub fn with<T>(&self, f: impl FnOnce(&mut Recognizer) -> T) -> Result<T, ReadError> {
        let taken = self.free.lock().map_err(|_| ReadError::PoolPoisoned)?.pop();
        let mut r = match taken {
            Some(r) => r,
            None => Recognizer::load(&self.model)?,
        };
        let out = f(&mut r);
        if let Ok(mut free) = self.free.lock() {
            free.push(r);
        }
        Ok(out)
    }
}

/// Where a page's cells are read: the cells' own windows, or windows moved down for a writer
/// whose moves sit across the row's lower ruling ([`crate::page::LOW_OFFSETS`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Lowering {
    /// Moved down where the handwriting reads clearly better so (`writing_offset`).
    #[default]
    Auto,
    /// Always the cells' own windows.
    Off,
    /// Always moved down by the `LOW_OFFSETS` entry at this index.
    At(usize),
}

impl std::str::FromStr for Lowering {
    type Err = ReadError;

    fn from_str(s: &str) -> Result<Lowering, ReadError> {
        match s {
            "auto" => Ok(Lowering::Auto),
            "off" | "0" => Ok(Lowering::Off),
            _ => {
                let v: Option<f64> = s.parse().ok();
                crate::page::LOW_OFFSETS
                    .iter()
                    .position(|&o| v.is_some_and(|v| (v - o).abs() < 1e-9))
                    .map(Lowering::At)
                    .ok_or_else(|| {
                        let offs: Vec<String> = crate::page::LOW_OFFSETS.iter().map(|o| o.to_string()).collect();
                        ReadError::Invalid(format!(
                            "expected auto, off or one of {} (share of the row height), not {s:?}",
                            offs.join(", ")
                        ))
                    })
            }
        }
    }
}

/// Reads one page: cut, then recognize all its cells in one batch, in the windows `lowering`
/// says (with [`Lowering::Auto`], a page whose cells read unsurely is read in lowered windows
/// too, see `writing_offset`).
pub fn read_page(
    cutter: &dyn Cutter,
    pool: &RecognizerPool,
    file: &Path,
    page: usize,
    image: DynamicImage,
    keep_image: bool,
    lowering: Lowering,
) -> Result<SheetRead, ReadError> {
    let CutPage { mut cells, second_form_unread } = cutter.cut(&image)?;
    if cells.is_empty() {
        return Err(ReadError::NoCells);
    }
    let numbering_guessed = cells.iter().any(|c| c.numbering_guessed);
    let read = |cells: &[CutCell]| -> Result<Vec<CellScores>, ReadError> {
        let crops: Vec<GrayImage> = cells.iter().map(|c| c.crop.clone()).collect();
        pool.recognize(&crops)
    };
    let lower = |cells: &mut [CutCell], k: usize| -> Option<f64> {
        if !cells.iter().all(|c| k < c.lowered.len()) {
            return None;
        }
        let mut offset = None;
        for c in cells.iter_mut() {
            let l = c.lowered.swap_remove(k);
            (c.crop, c.blank, c.bbox) = (l.crop, l.blank, l.box_in_input);
            offset = Some(l.offset);
        }
        offset
    };
    let cells_of = |cells: Vec<CutCell>, scores: Vec<CellScores>| -> Vec<(usize, [f32; 4], bool, CellScores)> {
        cells.into_iter().zip(scores).map(|(c, s)| (c.ply, c.bbox, c.blank, s)).collect()
    };
    let mut lowered = None;
    let mut alt = None;
    let scores = match lowering {
        Lowering::Off => read(&cells)?,
        Lowering::At(k) => {
            lowered = lower(&mut cells, k);
            read(&cells)?
        }
        Lowering::Auto => {
            let scores = read(&cells)?;
            if let Some(k) = writing_offset(pool, &cells, &scores)? {
                let mut low = cells.clone();
                if let Some(offset) = lower(&mut low, k) {
                    let s = read(&low)?;
                    alt = Some(Box::new(SheetAlt { lowered: offset, cells: cells_of(low, s) }));
                }
            }
            scores
        }
    };
    Ok(SheetRead {
        file: file.to_path_buf(),
        page,
        cells: cells_of(cells, scores),
        image: keep_image.then(|| image.to_rgb8()),
        lowered,
        alt,
        numbering_guessed,
        second_form_unread,
    })
}

/// Mean log-probability of the recognizer's best reading over a page's inked cells under which
/// the page is also read with its windows lowered (most pages read at -0.1 to -0.6; 90 % of the
/// 173 HCS pages outside the test split, and every synthetic sheet but a few badly damaged ones,
/// stay above it). It depends on the models: -0.5 for `recognizer.int8.onnx` read alone, -0.65
/// with the two shipped models, whose mean scores are lower (the same share of those pages above
/// it: 90.8 and 90.2 %).
const OFFSET_TRIGGER: f32 = -0.65;
/// Inked cells read at each lowered window to choose between them.
const OFFSET_SAMPLE: usize = 16;

/// For a page whose cells read unsurely, the lowered windows ([`CutCell::lowered`]) its
/// handwriting reads best in: some writers put each move across the row's lower ruling, and
/// the cell's own window cuts their letters in half. The lowered windows are chosen by the
/// recognizer's confidence in its best reading on a sample of the inked cells; whether they
/// beat the cells' own windows is the decoder's call ([`decode_game`]): a misplaced window can
/// read fragments of two moves as confidently as one move. `scores`: the cells read in their
/// own windows.
fn writing_offset(pool: &RecognizerPool, cells: &[CutCell], scores: &[CellScores]) -> Result<Option<usize>, ReadError> {
    let inked: Vec<usize> = (0..cells.len()).filter(|&i| !cells[i].blank).collect();
    let offsets = cells.iter().map(|c| c.lowered.len()).min().unwrap_or(0);
    if inked.len() < 4 || offsets == 0 {
        return Ok(None);
    }
    let conf = |s: &mut dyn Iterator<Item = &CellScores>| {
        let (sum, n) = s.fold((0.0, 0usize), |(a, n), s| (a + s.greedy().logp, n + 1));
        sum / n as f32
    };
    let all = conf(&mut inked.iter().map(|&i| &scores[i]));
    let debug = log::log_enabled!(log::Level::Debug);
    if all >= OFFSET_TRIGGER && !debug {
        return Ok(None);
    }
    let n = inked.len().min(OFFSET_SAMPLE);
    let sample: Vec<usize> = (0..n).map(|j| inked[j * inked.len() / n]).collect();
    let mut best: Option<(usize, f32)> = None;
    let mut tried = Vec::new();
    for k in 0..offsets {
        let crops: Vec<GrayImage> = sample.iter().map(|&i| cells[i].lowered[k].crop.clone()).collect();
        let c = conf(&mut pool.recognize(&crops)?.iter());
        tried.push(c);
        if best.is_none_or(|(_, b)| c > b) {
            best = Some((k, c));
        }
    }
    if debug {
        let base = conf(&mut sample.iter().map(|&i| &scores[i]));
        eprintln!("lowered windows: confidence {all:.3} over the inked cells; sample {base:.3}, lowered {tried:.3?}");
    }
    Ok(best.filter(|_| all < OFFSET_TRIGGER).map(|b| b.0))
}

/// Puts the sheets of one game together: a sheet whose half-moves come after everything a copy
/// holds continues that copy (a continuation page); one that overlaps every copy is another
/// copy (the other player's sheet). Returns, per sheet, its copy index.
pub fn assign_copies(sheets: &[SheetRead]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..sheets.len()).collect();
    let first = |s: &SheetRead| s.cells.iter().map(|c| c.0).min().unwrap_or(0);
    crate::sort::by_key(&mut order, |&i| first(&sheets[i]));
    let mut copy_end: Vec<usize> = Vec::new(); // last ply held by each copy
    let mut out = vec![0; sheets.len()];
    for i in order {
        let lo = first(&sheets[i]);
        let hi = sheets[i].cells.iter().map(|c| c.0).max().unwrap_or(0);
        match copy_end.iter().position(|&end| end < lo) {
            Some(c) => {
                copy_end[c] = hi;
                out[i] = c;
            }
            None => {
                copy_end.push(hi);
                out[i] = copy_end.len() - 1;
            }
        }
    }
    out
}

/// Decodes one game from its sheets. A sheet also read in lowered windows ([`SheetRead::alt`])
/// is read there when the game found then fits the ink better (the decoder's score).
pub fn decode_game(
    id: &str,
    sheets: &[SheetRead],
    lang: Option<&'static Lang>,
    params: &Params,
    headers: Vec<(String, String)>,
) -> GameOutput {
    let mut pick = vec![false; sheets.len()];
    let mut best = decode_picked(id, sheets, &pick, lang, params, headers.clone());
    for s in 0..sheets.len() {
        if sheets[s].alt.is_none() {
            continue;
        }
        pick[s] = true;
        let g = decode_picked(id, sheets, &pick, lang, params, headers.clone());
        log::debug!(
            "{}: lowered windows score {:.1} against {:.1}",
            sheets[s].file.display(),
            g.game.score,
            best.game.score
        );
        if g.game.score > best.game.score {
            best = g;
        } else {
            pick[s] = false;
        }
    }
    best
}

/// [`decode_game`] with each sheet read in its own windows, or where `pick` says, in its
/// lowered ones.
fn decode_picked(
    id: &str,
    sheets: &[SheetRead],
    pick: &[bool],
    lang: Option<&'static Lang>,
    params: &Params,
    headers: Vec<(String, String)>,
) -> GameOutput {
    let copy_of = assign_copies(sheets);
    let copies_n = copy_of.iter().max().map_or(0, |m| m + 1);
    let plies = sheets.iter().flat_map(|s| s.cells.iter().map(|c| c.0 + 1)).max().unwrap_or(0);
    let mut copies: Vec<SheetCopy<'_>> =
        (0..copies_n).map(|_| SheetCopy { cells: (0..plies).map(|_| None).collect() }).collect();
    let mut refs = Vec::new();
    for (s, sheet) in sheets.iter().enumerate() {
        let (cells, lowered) = match (&sheet.alt, pick[s]) {
            (Some(alt), true) => (&alt.cells, Some(alt.lowered)),
            _ => (&sheet.cells, sheet.lowered),
        };
        let mut boxes = vec![None; plies];
        for (ply, bbox, blank, scores) in cells {
            if *ply >= plies {
                continue;
            }
            boxes[*ply] = Some(*bbox);
            let scorer = InkAware::new(scores.clone(), *blank, params.blank_flag_weight);
            copies[copy_of[s]].cells[*ply] = Some(Box::new(scorer) as Box<dyn CellScorer>);
        }
        refs.push(SheetRef {
            file: sheet.file.display().to_string(),
            page: sheet.page,
            copy: copy_of[s],
            boxes,
            lowered,
            numbering_guessed: sheet.numbering_guessed,
            second_form_unread: sheet.second_form_unread,
        });
    }
    let game = decode(copies, lang, params);
    GameOutput { id: id.to_string(), sheets: refs, game, headers }
}

/// A batch read.
pub struct Batch {
    /// The games read, in input order.
    pub games: Vec<GameOutput>,
    /// The page images of each game's sheets (only when asked to keep them).
    pub images: Vec<Vec<Option<RgbImage>>>,
    /// The files (or pages) that could not be read.
    pub errors: Vec<FileError>,
    /// Pages read.
    pub sheets: usize,
}

/// PGN tags for a game, from its name and files.
pub type HeadersFn<'a> = dyn Fn(&str, &[PathBuf]) -> Vec<(String, String)> + Sync + 'a;

/// Everything `read_batch` needs besides the files.
pub struct BatchOptions<'a> {
    /// The page stage.
    pub cutter: &'a dyn Cutter,
    /// The recognizers.
    pub pool: &'a RecognizerPool,
    /// The language the moves are written in; `None`: found from the ink.
    pub lang: Option<&'static Lang>,
    /// The decoder's knobs.
    pub params: Params,
    /// Keep the page images (for the review page).
    pub keep_images: bool,
    /// Where the cells are read (see [`Lowering`]).
    pub lowering: Lowering,
    /// Tags per game, by game name.
    pub headers: &'a HeadersFn<'a>,
    /// Pinned moves per game name: (ply, English SAN).
    pub fixes: &'a [inputs::Fix],
    /// Called after each page is read (for a progress bar).
    pub progress: &'a (dyn Fn() + Sync),
}

impl<'a> BatchOptions<'a> {
    /// Options that read the games as they are: no header tags, no fixed moves, no page images
    /// kept, no progress shown (evaluation, benchmarks).
    pub fn plain(
        cutter: &'a dyn Cutter,
        pool: &'a RecognizerPool,
        lang: Option<&'static Lang>,
        params: Params,
    ) -> BatchOptions<'a> {
        fn no_headers(_: &str, _: &[PathBuf]) -> Vec<(String, String)> {
            Vec::new()
        }
        fn no_progress() {}
        BatchOptions {
            cutter,
            pool,
            lang,
            params,
            keep_images: false,
            lowering: Lowering::Auto,
            headers: &no_headers,
            fixes: &[],
            progress: &no_progress,
        }
    }
}

/// One game read: its decoded output (none when every sheet failed), the page images kept for
/// the review page, and the files or pages that could not be read.
pub struct GameRead {
    /// The game decoded; none when every sheet failed.
    pub output: Option<GameOutput>,
    /// The page images of the game's sheets (only when asked to keep them).
    pub images: Vec<Option<RgbImage>>,
    /// The game's files (or pages) that could not be read.
    pub errors: Vec<FileError>,
    /// Pages read.
    pub sheets: usize,
}

/// Reads the games in parallel and hands each to `on_game` (with its position in `games`) as
/// soon as it is decoded, in whatever order they finish: nothing of a game is kept once
/// `on_game` returns, so memory does not grow with the batch.
pub fn read_each(
    games: &[(String, Vec<PathBuf>)],
    opts: &BatchOptions<'_>,
    on_game: &(dyn Fn(usize, GameRead) + Sync),
) {
    games.par_iter().enumerate().for_each(|(g, (id, files))| on_game(g, read_game(id, files, opts)));
}

/// Reads one game: its files' pages in parallel, then the decoder over them; a game in
/// descriptive notation as [`read_in_its_notation`] says.
pub fn read_game(id: &str, files: &[PathBuf], opts: &BatchOptions<'_>) -> GameRead {
    let read = |pool: &RecognizerPool, lang: Option<&'static Lang>| {
        let again = pool.readers == ViewReaders::LoadedModel && opts.lang != lang;
        let opts = BatchOptions {
            cutter: opts.cutter,
            pool,
            lang,
            params: opts.params.clone(),
            keep_images: opts.keep_images,
            lowering: opts.lowering,
            headers: opts.headers,
            fixes: opts.fixes,
            // (each page counts once in the progress, when it is first read)
            progress: if again { &|| {} } else { opts.progress },
        };
        let per_file: Vec<(&Path, Vec<Result<SheetRead, ReadError>>)> =
            files.par_iter().map(|file| (file.as_path(), read_pages(file, load_pages(file), &opts))).collect();
        decode_reads(id, files, per_file, &opts)
    };
    read_in_its_notation(opts.pool, opts.lang, read, |game| game.output.as_ref().map(|o| o.game.lang))
}

/// Reads and decodes a game with `read` (given the recognizers and the language), in the
/// notation it is written in. A game in descriptive notation (given as `lang`, or found from the
/// ink by a first reading, `lang_of` it) has every view of its cells read by the model loaded
/// ([`RecognizerPool::loaded_model_alone`]): its partner model reads algebraic moves only.
pub fn read_in_its_notation<T>(
    pool: &RecognizerPool,
    lang: Option<&'static Lang>,
    read: impl Fn(&RecognizerPool, Option<&'static Lang>) -> T,
    lang_of: impl Fn(&T) -> Option<&'static Lang>,
) -> T {
    let is_descriptive = |lang: &&'static Lang| matches!(lang.notation, Notation::Descriptive(_));
    let Some(alone) = pool.loaded_model_alone() else { return read(pool, lang) };
    match lang {
        Some(given) if is_descriptive(&given) => read(&alone, Some(given)),
        Some(_) => read(pool, lang),
        None => {
            let first = read(pool, None);
            match lang_of(&first).filter(is_descriptive) {
                Some(found) => {
                    log::debug!("read in {}: read again with the first model at every view", found.code);
                    read(&alone, Some(found))
                }
                None => first,
            }
        }
    }
}

/// Reads the loaded pages of one file (named `file`), in parallel; a file that could not be
/// loaded is one error.
pub fn read_pages(file: &Path, pages: Pages, opts: &BatchOptions<'_>) -> Vec<Result<SheetRead, ReadError>> {
    let pages = match pages {
        Ok(p) => p,
        Err(e) => {
            (opts.progress)();
            return vec![Err(ReadError::Load(e))];
        }
    };
    pages
        .into_par_iter()
        .enumerate()
        .map(|(i, page)| {
            let r = page
                .map_err(ReadError::Load)
                .and_then(|img| read_page(opts.cutter, opts.pool, file, i, img, opts.keep_images, opts.lowering))
                .map_err(|e| if i > 0 { ReadError::Page { number: i + 1, source: Box::new(e) } } else { e });
            (opts.progress)();
            r
        })
        .collect()
}

/// Decodes a game from its files' pages as read ([`read_pages`], in the files' order): the pages
/// that failed become the game's errors. `files` gives the game's tags.
pub fn decode_reads(
    id: &str,
    files: &[PathBuf],
    per_file: Vec<(&Path, Vec<Result<SheetRead, ReadError>>)>,
    opts: &BatchOptions<'_>,
) -> GameRead {
    let mut errors = Vec::new();
    let mut sheets = Vec::new();
    for (file, reads) in per_file {
        for r in reads {
            match r {
                Ok(s) => sheets.push(s),
                Err(e) => errors.push(FileError { file: file.display().to_string(), error: e.to_string() }),
            }
        }
    }
    if sheets.is_empty() {
        return GameRead { output: None, images: Vec::new(), errors, sheets: 0 };
    }
    let mut params = opts.params.clone();
    for f in opts.fixes.iter().filter(|f| f.game == id) {
        params.pins.insert(f.ply, f.san.clone());
    }
    let output = decode_game(id, &sheets, opts.lang, &params, (opts.headers)(id, files));
    let images = sheets.iter_mut().map(|s| s.image.take()).collect();
    GameRead { output: Some(output), images, errors, sheets: sheets.len() }
}

/// Reads the games ([`read_each`]) and keeps them all, in the order given; a game whose every
/// sheet failed is left out (its files are in `errors`).
pub fn read_batch(games: &[(String, Vec<PathBuf>)], opts: &BatchOptions<'_>) -> Batch {
    let finished: Mutex<Vec<(usize, GameRead)>> = Mutex::new(Vec::with_capacity(games.len()));
    read_each(games, opts, &|g, read| finished.lock().unwrap_or_else(|e| e.into_inner()).push((g, read)));
    let mut finished = finished.into_inner().unwrap_or_else(|e| e.into_inner());
    crate::sort::by_key(&mut finished, |(g, _)| *g);
    let mut batch = Batch { games: Vec::new(), images: Vec::new(), errors: Vec::new(), sheets: 0 };
    for (_, read) in finished {
        batch.errors.extend(read.errors);
        batch.sheets += read.sheets;
        if let Some(output) = read.output {
            batch.games.push(output);
            batch.images.push(read.images);
        }
    }
    batch
}

#[cfg(test)]
mod tests {
    use super::Lowering;

    #[test]
    fn lowering_is_auto_off_or_an_offered_share() {
        assert_eq!("auto".parse::<Lowering>().ok(), Some(Lowering::Auto));
        assert_eq!("off".parse::<Lowering>().ok(), Some(Lowering::Off));
        assert_eq!("0".parse::<Lowering>().ok(), Some(Lowering::Off));
        assert_eq!("0.25".parse::<Lowering>().ok(), Some(Lowering::At(0)));
        assert_eq!("0.5".parse::<Lowering>().ok(), Some(Lowering::At(1)));
        let err = "0.3".parse::<Lowering>().unwrap_err().to_string();
        assert!(err.contains("0.25, 0.5") && err.contains("\"0.3\""), "{err}");
        assert!("low".parse::<Lowering>().is_err());
    }
}
