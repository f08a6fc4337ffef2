//! `scoresheet read`: batches of scans to games.
//!
//! Files (and folders, walked recursively) are loaded page by page ([`load`]), every page is cut
//! into labelled cells by the page stage (a [`Cutter`]), the cells of a page are read together by
//! the recognizer, the sheets of one game (by default, one file; see [`inputs::Grouping`]) are
//! put together as copies and continuation pages, and each game is decoded. Sheets are read in
//! parallel (rayon), each worker with its own ONNX Runtime session. A file that cannot be read is
//! reported with its name and the reason, and the rest of the batch goes on.

pub mod cli;
pub mod eval;
pub mod inputs;
pub mod load;
pub mod pdf;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use image::{DynamicImage, GrayImage, RgbImage};
use rayon::prelude::*;

use crate::decode::{CellScorer, Copy, InkAware, Params, decode};
use crate::notation::Lang;
use crate::output::{FileError, GameOutput, SheetRef};
use crate::recognize::{CellScores, Recognizer};

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
}

/// The page stage as `read` uses it: a page image to its labelled cells.
pub trait Cutter: Sync {
    /// The cells of the move table on `page`, or why there is none.
    fn cut(&self, page: &DynamicImage) -> Result<Vec<CutCell>, String>;
}

/// The page stage ([`crate::page::segment`]) as a [`Cutter`].
pub struct PageCutter;

impl Cutter for PageCutter {
    fn cut(&self, page: &DynamicImage) -> Result<Vec<CutCell>, String> {
        let sheet = crate::page::segment(page).map_err(|e| e.to_string())?;
        Ok(sheet
            .cells
            .into_iter()
            .filter(|c| c.mv >= 1)
            .map(|c| CutCell {
                ply: (c.mv as usize - 1) * 2 + usize::from(c.side == crate::page::Side::Black),
                bbox: c.box_in_input,
                crop: c.crop,
                blank: c.blank,
            })
            .collect())
    }
}

/// A page read: its cells with the recognizer's scores.
pub struct SheetRead {
    pub file: PathBuf,
    pub page: usize,
    /// (half-move, box in the input, blank, the recognizer's scores).
    pub cells: Vec<(usize, [f32; 4], bool, CellScores)>,
    /// The page image, kept for the review page.
    pub image: Option<RgbImage>,
}

/// Recognizers for the workers: one ONNX Runtime session each, made on first use.
pub struct RecognizerPool {
    model: PathBuf,
    free: Mutex<Vec<Recognizer>>,
}

impl RecognizerPool {
    /// A pool over the model at `model` (checked by loading one session now).
    pub fn new(model: &Path) -> Result<RecognizerPool, String> {
        let first = Recognizer::load(model)?;
        Ok(RecognizerPool { model: model.to_path_buf(), free: Mutex::new(vec![first]) })
    }

    /// Runs `f` with a recognizer of the pool.
    pub fn with<T>(&self, f: impl FnOnce(&mut Recognizer) -> T) -> Result<T, String> {
        let taken = self.free.lock().map_err(|_| "recognizer pool poisoned".to_string())?.pop();
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

/// Reads one page: cut, then recognize all its cells in one batch.
pub fn read_page(
    cutter: &dyn Cutter,
    pool: &RecognizerPool,
    file: &Path,
    page: usize,
    image: DynamicImage,
    keep_image: bool,
) -> Result<SheetRead, String> {
    let cells = cutter.cut(&image)?;
    if cells.is_empty() {
        return Err("no move cells found".into());
    }
    let crops: Vec<GrayImage> = cells.iter().map(|c| c.crop.clone()).collect();
    let scores = pool.with(|r| r.recognize(&crops))??;
    let cells = cells.into_iter().zip(scores).map(|(c, s)| (c.ply, c.bbox, c.blank, s)).collect();
    Ok(SheetRead { file: file.to_path_buf(), page, cells, image: keep_image.then(|| image.to_rgb8()) })
}

/// Puts the sheets of one game together: a sheet whose half-moves come after everything a copy
/// holds continues that copy (a continuation page); one that overlaps every copy is another
/// copy (the other player's sheet). Returns, per sheet, its copy index.
pub fn assign_copies(sheets: &[SheetRead]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..sheets.len()).collect();
    let first = |s: &SheetRead| s.cells.iter().map(|c| c.0).min().unwrap_or(0);
    order.sort_by_key(|&i| (first(&sheets[i]), i));
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

/// Decodes one game from its sheets.
pub fn decode_game(
    id: &str,
    sheets: &[SheetRead],
    lang: Option<&'static Lang>,
    params: &Params,
    headers: Vec<(String, String)>,
) -> GameOutput {
    let copy_of = assign_copies(sheets);
    let copies_n = copy_of.iter().max().map_or(0, |m| m + 1);
    let plies = sheets.iter().flat_map(|s| s.cells.iter().map(|c| c.0 + 1)).max().unwrap_or(0);
    let mut copies: Vec<Copy<'_>> = (0..copies_n).map(|_| Copy { cells: (0..plies).map(|_| None).collect() }).collect();
    let mut refs = Vec::new();
    for (s, sheet) in sheets.iter().enumerate() {
        let mut boxes = vec![None; plies];
        for (ply, bbox, blank, scores) in &sheet.cells {
            boxes[*ply] = Some(*bbox);
            let scorer = InkAware::new(scores.clone(), *blank, params.blank_flag_weight);
            copies[copy_of[s]].cells[*ply] = Some(Box::new(scorer) as Box<dyn CellScorer>);
        }
        refs.push(SheetRef { file: sheet.file.display().to_string(), page: sheet.page, copy: copy_of[s], boxes });
    }
    let game = decode(copies, lang, params);
    GameOutput { id: id.to_string(), sheets: refs, game, headers }
}

/// A batch read.
pub struct Batch {
    pub games: Vec<GameOutput>,
    /// The page images of each game's sheets (only when asked to keep them).
    pub images: Vec<Vec<Option<RgbImage>>>,
    pub errors: Vec<FileError>,
    pub sheets: usize,
}

/// PGN tags for a game, from its name and files.
pub type HeadersFn<'a> = dyn Fn(&str, &[PathBuf]) -> Vec<(String, String)> + Sync + 'a;

/// The pages of one file as read: (game index, file, each page's reading).
type FileReads<'p> = (usize, &'p PathBuf, Vec<Result<SheetRead, String>>);

/// Everything `read_batch` needs besides the files.
pub struct BatchOptions<'a> {
    pub cutter: &'a dyn Cutter,
    pub pool: &'a RecognizerPool,
    pub lang: Option<&'static Lang>,
    pub params: Params,
    pub keep_images: bool,
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
            headers: &no_headers,
            fixes: &[],
            progress: &no_progress,
        }
    }
}

/// Reads the games: pages in parallel, then games in parallel. Games keep the order given;
/// a game whose every sheet failed is left out (its files are in `errors`).
pub fn read_batch(games: &[(String, Vec<PathBuf>)], opts: &BatchOptions<'_>) -> Batch {
    // Every page of every file, in order.
    let files: Vec<(usize, &PathBuf)> =
        games.iter().enumerate().flat_map(|(g, (_, files))| files.iter().map(move |f| (g, f))).collect();
    let per_file: Vec<FileReads<'_>> = files
        .par_iter()
        .map(|&(g, file)| {
            let pages = match load::load_pages(file) {
                Ok(p) => p,
                Err(e) => {
                    (opts.progress)();
                    return (g, file, vec![Err(e)]);
                }
            };
            let reads = pages
                .into_par_iter()
                .enumerate()
                .map(|(i, page)| {
                    let r = page
                        .and_then(|img| read_page(opts.cutter, opts.pool, file, i, img, opts.keep_images))
                        .map_err(|e| if i > 0 { format!("page {}: {e}", i + 1) } else { e });
                    (opts.progress)();
                    r
                })
                .collect();
            (g, file, reads)
        })
        .collect();
    let mut errors = Vec::new();
    let mut by_game: Vec<Vec<SheetRead>> = (0..games.len()).map(|_| Vec::new()).collect();
    let mut sheets = 0;
    for (g, file, reads) in per_file {
        for r in reads {
            match r {
                Ok(s) => {
                    sheets += 1;
                    by_game[g].push(s);
                }
                Err(e) => errors.push(FileError { file: file.display().to_string(), error: e }),
            }
        }
    }
    let decoded: Vec<Option<(GameOutput, Vec<Option<RgbImage>>)>> = by_game
        .into_par_iter()
        .enumerate()
        .map(|(g, mut sheets)| {
            if sheets.is_empty() {
                return None;
            }
            let (id, files) = &games[g];
            let mut params = opts.params.clone();
            for f in opts.fixes.iter().filter(|f| f.game == *id) {
                params.pins.insert(f.ply, f.san.clone());
            }
            let out = decode_game(id, &sheets, opts.lang, &params, (opts.headers)(id, files));
            let images = sheets.iter_mut().map(|s| s.image.take()).collect();
            Some((out, images))
        })
        .collect();
    let (games, images) = decoded.into_iter().flatten().unzip();
    Batch { games, images, errors, sheets }
}
