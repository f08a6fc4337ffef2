//! [`Reader`]: the library's front door, from scoresheet images to games.

use std::path::{Path, PathBuf};

use image::DynamicImage;

use crate::decode::Params;
use crate::notation::Lang;
use crate::output::GameOutput;
use crate::page::load::load_pages;
use crate::read::{
    CutPage, Cutter, Lowering, PageCutter, ReadError, RecognizerPool, SheetRead, decode_game, read_in_its_notation,
    read_page,
};
use crate::recognize::{CellScores, default_model_path};

/// How a [`Reader`] reads: the model, the language, the decoder's knobs.
#[derive(Clone, Debug)]
pub struct ReaderOptions {
    /// The handwriting model (with `alphabet.json` and `preprocess.json` beside it); `None`:
    /// the file `$SCORESHEET_MODEL` names, else the model built into the library.
    pub model: Option<PathBuf>,
    /// The language the moves are written in; `None`: found from the ink.
    pub lang: Option<&'static Lang>,
    /// Where the cells are read (see [`Lowering`]).
    pub lowering: Lowering,
    /// The decoder's knobs.
    pub params: Params,
}

impl Default for ReaderOptions {
    fn default() -> ReaderOptions {
        ReaderOptions { model: None, lang: None, lowering: Lowering::Auto, params: Params::default() }
    }
}

/// Reads scoresheets into games: the page stage, the handwriting model and the decoder behind
/// one value, as `scoresheet read` uses them. A reader can be shared between threads; each
/// thread reading gets its own loaded model.
///
/// ```
/// use scoresheet::{Reader, ReaderOptions};
///
/// let reader = Reader::new(ReaderOptions::default())?;
/// let sheet = image::open("samples/hcs/024_0.jpg")?;
/// let game = reader.read_sheet(&sheet)?;
/// let opening: Vec<&str> = game.game.moves.iter().take(3).map(|m| m.san.as_str()).collect();
/// assert_eq!(opening, ["e4", "d6", "Nf3"]);
/// print!("{}", game.to_pgn());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Reader {
    pool: RecognizerPool,
    options: ReaderOptions,
}

impl Reader {
    /// A reader with `options`; loads the model now, so that a missing or broken model (or a
    /// missing ONNX Runtime) is an error here.
    pub fn new(options: ReaderOptions) -> Result<Reader, ReadError> {
        let model = options.model.clone().unwrap_or_else(default_model_path);
        Ok(Reader { pool: RecognizerPool::new(&model)?, options })
    }

    /// Reads the game on one sheet.
    pub fn read_sheet(&self, page: &DynamicImage) -> Result<GameOutput, ReadError> {
        self.read_game(std::slice::from_ref(page))
    }

    /// Reads one game from all its sheets: the players' copies and continuation pages, in any
    /// order. Fails on the first sheet that cannot be read (naming its place among `pages`).
    pub fn read_game(&self, pages: &[DynamicImage]) -> Result<GameOutput, ReadError> {
        self.read_and_decode(|pool| {
            pages
                .iter()
                .enumerate()
                .map(|(i, page)| {
                    self.read_cells(pool, &sheet_name(i), i, page)
                        .map_err(|e| ReadError::Page { number: i + 1, source: Box::new(e) })
                })
                .collect()
        })
    }

    /// Reads the game on the pages of one file (an image, a multi-page TIFF or a scanned PDF).
    pub fn read_file(&self, path: &Path) -> Result<GameOutput, ReadError> {
        let in_file = |e: ReadError| ReadError::file(path, e.to_string());
        let pages: Vec<DynamicImage> = load_pages(path)
            .map_err(|e| in_file(e.into()))?
            .into_iter()
            .collect::<Result<_, _>>()
            .map_err(|e| in_file(e.into()))?;
        self.read_and_decode(|pool| {
            pages.iter().enumerate().map(|(i, page)| self.read_cells(pool, path, i, page)).collect::<Result<_, _>>()
        })
        .map_err(in_file)
    }

    /// The page stage alone: the move cells of the table on `page`, labelled by half-move, and
    /// whether the page holds a second copy of the form that is not read.
    pub fn cut(&self, page: &DynamicImage) -> Result<CutPage, ReadError> {
        Ok(PageCutter.cut(page)?)
    }

    /// The handwriting model alone: the readings of cell images (one move each).
    pub fn recognize(&self, cells: &[image::GrayImage]) -> Result<Vec<CellScores>, ReadError> {
        self.pool.recognize(cells)
    }

    /// One page cut and recognized by `pool`, as the decoder takes it; `file` and `page` name it.
    fn read_cells(
        &self,
        pool: &RecognizerPool,
        file: &Path,
        page: usize,
        image: &DynamicImage,
    ) -> Result<SheetRead, ReadError> {
        read_page(&PageCutter, pool, file, page, image.clone(), false, self.options.lowering)
    }

    /// The sheets of one game read by `read_sheets` (given the recognizers), then decoded, in the
    /// notation the game is written in ([`read_in_its_notation`]).
    fn read_and_decode(
        &self,
        read_sheets: impl Fn(&RecognizerPool) -> Result<Vec<SheetRead>, ReadError>,
    ) -> Result<GameOutput, ReadError> {
        let read = |pool: &RecognizerPool, lang| {
            let sheets = read_sheets(pool)?;
            Ok(decode_game("game", &sheets, lang, &self.options.params, Vec::new()))
        };
        let lang_of = |game: &Result<GameOutput, ReadError>| game.as_ref().ok().map(|g| g.game.lang);
        read_in_its_notation(&self.pool, self.options.lang, read, lang_of)
    }
}

/// The name a sheet given as an image stands under in the game's output.
fn sheet_name(index: usize) -> PathBuf {
    PathBuf::from(format!("sheet-{}", index + 1))
}
