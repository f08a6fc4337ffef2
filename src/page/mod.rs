//! Page geometry: from a scan or a phone photo of a scoresheet to labelled move cells.
//!
//! [`load()`] reads every page of an image file with decoding limits; [`segment`] finds the sheet of
//! paper where a photo shows it whole on a darker table (`paper`), the page's orientation
//! (0/90/180/270 degrees), skew (0.1 degree steps) and perspective, straightens it, finds the
//! printed move table (ruled rows and columns, move-number columns, white and black move
//! columns, on any form) and returns every move cell with its label, box and crop.
//!
//! Nothing about a particular form is hard-coded: rulings are found by morphology (long runs of ink
//! in a locally thresholded image, robust to handwriting crossing them), rows by their regular
//! pitch, blocks by two wide move columns with a narrow number column left of or between them,
//! and the rows' move numbers by reading the digits printed in the number cells (`digits`,
//! `numbering`; continuation pages starting at e.g. 61 included).

mod digits;
mod draw;
pub mod eval;
pub mod geom;
mod grid;
mod lines;
pub mod load;
mod lost_blocks;
mod numbering;
mod paper;
pub mod pdf;

use std::cmp::Reverse;
use std::fmt;
use std::path::PathBuf;

use image::{DynamicImage, GrayImage, RgbImage};
use serde::Serialize;

pub use draw::{overlay, save_png};
pub use geom::Homography;
use lines::Bin;
pub use load::{LoadError, MAX_BYTES, MAX_SIDE, load};

/// Which player's half-move a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White's move.
    White,
    /// Black's move.
    Black,
}

impl Side {
    /// `"white"` or `"black"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

/// One move cell of the sheet.
#[derive(Clone, Debug, Serialize)]
pub struct Cell {
    /// Move number printed on the row.
    #[serde(rename = "move")]
    pub mv: u32,
    /// White or black half-move.
    pub side: Side,
    /// Axis-aligned box `[x0, y0, x1, y1]` around the cell as it lies in the input image (pixels).
    #[serde(rename = "box")]
    pub box_in_input: [f32; 4],
    /// Box `[x0, y0, x1, y1]` of the cell in [`Sheet::page`] (pixels).
    #[serde(skip)]
    pub box_straight: [f32; 4],
    /// True when the cell holds no handwriting.
    pub blank: bool,
    /// True when the cell's row was numbered by counting rows, its block's printed numbers
    /// unread: the move number is a guess.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub numbering_guessed: bool,
    /// Share of the cell's inner area covered by ink (0..1), the basis of `blank`.
    #[serde(skip)]
    pub ink: f32,
    /// Grey crop of the cell from the straightened page, with a small margin so that ink crossing
    /// the cell border is kept.
    #[serde(skip)]
    pub crop: GrayImage,
    /// The cell's window moved down by each of [`LOW_OFFSETS`] of the row height. For writers
    /// whose moves sit across the row's lower ruling; `read` reads a page's cells there when the
    /// handwriting reads clearly better so.
    #[serde(skip)]
    pub lowered: Vec<Lowered>,
}

/// A cell's window moved down by `offset` of the row height ([`Cell::lowered`]).
#[derive(Clone, Debug)]
pub struct Lowered {
    /// Share of the row height the window is moved down by.
    pub offset: f64,
    /// The moved window's box in the input image (pixels).
    pub box_in_input: [f32; 4],
    /// The crop there (with the same margin as [`Cell::crop`]).
    pub crop: GrayImage,
    /// No handwriting in the moved window (the cell's own ruling across it left out).
    pub blank: bool,
}

/// One block of the printed table: a move-number column and its white and black columns.
#[derive(Clone, Debug, Serialize)]
pub struct Block {
    /// First move number of the block.
    pub first_move: u32,
    /// Number of move rows.
    pub rows: u32,
    /// Box `[x0, y0, x1, y1]` of the block's move rows in [`Sheet::page`].
    pub box_straight: [f32; 4],
    /// Whether the rows are numbered by the move numbers printed on them (else they were counted,
    /// and the numbering is a guess).
    pub printed_numbers: bool,
}

/// A segmented scoresheet page.
#[derive(Clone, Debug, Serialize)]
pub struct Sheet {
    /// Straightened grey page (orientation, skew and perspective corrected, at about the input's
    /// resolution; a small input's enlarged, see [`segment_gray`]).
    #[serde(skip)]
    pub page: GrayImage,
    /// Maps input-image pixel coordinates to [`Sheet::page`] coordinates.
    #[serde(skip)]
    pub to_page: Homography,
    /// Clockwise quarter turns applied to the input (0..=3).
    #[serde(skip)]
    pub quarter_turns: u32,
    /// Residual skew corrected, degrees.
    #[serde(skip)]
    pub skew_deg: f64,
    /// Whether a perspective correction was applied.
    #[serde(skip)]
    pub perspective: bool,
    /// Blocks of the table in reading order.
    #[serde(skip)]
    pub blocks: Vec<Block>,
    /// Move cells in move order, white before black.
    pub cells: Vec<Cell>,
    /// The page holds a second copy of the form beside the one read (half-page forms printed
    /// two to a sheet), whose blocks repeat its move numbers: that copy is not read.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub second_form_unread: bool,
    /// Some block's printed numbers did not read at first and were read again (enlarged,
    /// widened): a sign of small print, see [`segment_gray`].
    #[serde(skip)]
    numbers_read_again: bool,
    /// The factor [`Sheet::page`] was downscaled by for the table's analysis, and the glyphs'
    /// binary's window radius there: what a cell's ink is measured at.
    #[serde(skip)]
    analysis_scale: u32,
    #[serde(skip)]
    glyph_radius: usize,
    /// The table's blocks leave part of its ruled width uncovered: a block beside them was lost
    /// (its printed numbers unseen, its rulings faint), see [`reads_in_part`].
    #[serde(skip)]
    blocks_leave_ruled_width: bool,
    /// How many blocks were placed where the grid found none ([`lost_blocks`]): a reading of the
    /// page that finds them reads it better, see [`reads_more_and_no_fewer`].
    #[serde(skip)]
    blocks_placed: usize,
    /// How many rows' printed numbers read as the move the row is labelled with.
    #[serde(skip)]
    numbers_read_as_labelled: usize,
}

/// Everything that can go wrong reading or segmenting a page.
#[derive(Debug)]
pub enum PageError {
    /// The file, or one of its pages, cannot be loaded (see [`load()`]).
    Load {
        /// The file.
        path: PathBuf,
        /// Why.
        source: LoadError,
    },
    /// No scoresheet move table was found on the page.
    NoTable {
        /// Why: what was found instead.
        reason: String,
    },
    /// An error about a particular file (wraps a segmentation error with the file's name).
    InFile {
        /// The file (and page).
        path: PathBuf,
        /// The error.
        source: Box<PageError>,
    },
    /// Writing outputs failed.
    Write {
        /// The file or folder written.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

impl fmt::Display for PageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PageError::Load { path, source } => write!(f, "{}: {source}", path.display()),
            PageError::NoTable { reason } => write!(f, "no scoresheet move table found: {reason}"),
            PageError::InFile { path, source } => write!(f, "{}: {source}", path.display()),
            PageError::Write { path, reason } => write!(f, "{}: cannot write: {reason}", path.display()),
        }
    }
}

impl std::error::Error for PageError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PageError::Load { source, .. } => Some(source),
            PageError::InFile { source, .. } => Some(source.as_ref()),
            _ => None,
        }
    }
}

impl PageError {
    /// Attaches the file name to an error that lacks one.
    pub fn in_file(self, path: impl Into<PathBuf>) -> PageError {
        match self {
            e @ (PageError::Load { .. } | PageError::InFile { .. } | PageError::Write { .. }) => e,
            e => PageError::InFile { path: path.into(), source: Box::new(e) },
        }
    }
}

/// Shares of the row height by which a cell's window may be moved down ([`Cell::lowered`]).
pub const LOW_OFFSETS: [f64; 2] = [0.25, 0.5];

/// Ink share above which a cell counts as written in.
pub const BLANK_INK: f64 = 0.012;

/// Threshold of the binary that rulings are found in (% of the local mean, least contrast): more
/// permissive than for glyphs, so faint rulings of low-contrast photos stay whole.
const LINE_PCT: u64 = 90;
const LINE_DIFF: u64 = 8;

/// Where the page stage writes its debug images, if anywhere (see [`set_debug_dir`]).
static DEBUG_DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Makes the page stage write the binaries it analyses (`rulings.png`, `glyphs.png`, one more of
/// each for every further frame tried) into `dir` (`segment --debug DIR`). Set once a process;
/// later calls are ignored.
pub fn set_debug_dir(dir: PathBuf) {
    let _ = DEBUG_DIR.set(dir);
}

fn debug_dir() -> Option<&'static PathBuf> {
    DEBUG_DIR.get()
}

/// Segments a page image (any colour type). See [`segment_gray`].
///
/// A page that reads in part ([`reads_in_part`]; or whose few rows start past move 1) or not at
/// all is read again from its print image ([`print_image`]), once with each darkest grey of
/// [`PRINT_IMAGE_DARKEST`]; a reading is kept where it reads more of the table than the one kept
/// before it and no less. Its cells are cut from the grey page all the same.
pub fn segment(img: &DynamicImage) -> Result<Sheet, PageError> {
    let grey = img.to_luma8();
    // (a page whose first block does not start at move 1 is read again only where it has few
    // rows: a continuation page, read from its printed numbers, is no sign of a part lost)
    let few_rows = |sheet: &Sheet| sheet.blocks.iter().map(|block| block.rows).sum::<u32>() < FEW_MOVE_ROWS;
    let read_whole = |sheet: &Sheet| !reads_in_part(sheet) && !(reads_poorly(sheet) && few_rows(sheet));
    let mut sheet = segment_gray(&grey);
    if sheet.as_ref().is_ok_and(read_whole) {
        return sheet;
    }
    let colour = img.to_rgb8();
    let mut read_from_print = false;
    for darkest in PRINT_IMAGE_DARKEST {
        let from_print = segment_gray(&print_image(&colour, darkest));
        sheet = match (sheet, from_print) {
            (Ok(sheet), Ok(again)) if reads_more_and_no_fewer(&again, &sheet) => {
                log::debug!(
                    "print image {darkest}: {:?} cells read, {:?} before",
                    rows_read(&again),
                    rows_read(&sheet)
                );
                read_from_print = true;
                Ok(again)
            }
            // (a table the grey page shows none of is taken only where some of its rows read
            // their printed numbers: rows counted on a page whose print reads nowhere are a
            // guess, and the print image finds rulings in whatever stays of a page out of focus)
            (Err(error), Ok(again)) if rows_read(&again).0 > 0 => {
                log::debug!("print image {darkest}: table found where none was ({error})");
                read_from_print = true;
                Ok(again)
            }
            (sheet, _) => sheet,
        };
    }
    // (the page, crops and ink come from the grey page once, for the reading kept: how much of
    // the table a reading reads does not depend on them)
    if read_from_print { sheet.map(|sheet| sheet.inked_from(&grey)) } else { sheet }
}

/// The darkest greys of the print image, in the order tried: handwriting far darker than a faint
/// form's print is brought up to it (the higher, the nearer the print: forms printed light grey
/// read best with the higher, 200 lifting rulings 10 grey levels under tinted paper out of a
/// scan's grain once stretched; a thumbnail of a form printed black with the lower).
const PRINT_IMAGE_DARKEST: [u8; 3] = [120, 160, 200];

/// The page as the form's print shows apart from the handwriting: each pixel's lightest colour
/// channel, so that ink of a colour (blue, green, red) comes out pale where black and grey print
/// stays as it is, and no pixel darker than `darkest`.
///
/// On a form printed light grey, ink far darker than the print pulls the local mean down around
/// it, and the binaries' local thresholds, shares of that mean, lose the faint rulings beside the
/// handwriting; capped, the page is pale ([`stretch_pale_page`]) and its print stretched to full
/// contrast, with the handwriting no darker than `darkest`.
fn print_image(rgb: &RgbImage, darkest: u8) -> GrayImage {
    let lightest = |p: &image::Rgb<u8>| p.0.into_iter().max().unwrap_or(0).max(darkest);
    GrayImage::from_fn(rgb.width(), rgb.height(), |x, y| image::Luma([lightest(rgb.get_pixel(x, y))]))
}

struct Frame {
    /// small (analysis-scale) input coordinates -> straightened analysis frame
    h: Homography,
    w: usize,
    hh: usize,
    quarter: u32,
    skew: f64,
    perspective: bool,
    /// total length of long horizontal rulings found
    hsum: f64,
    /// the move table found in this frame
    grid: grid::Grid,
    /// the analysis image straightened into this frame (None where the frame is the analysis
    /// image itself)
    straightened: Option<GrayImage>,
    /// the table's ruled width, once a table is found in the frame ([`grid::Grid::Found`])
    ruled_span: (f64, f64),
}

/// Rotation by quarter turns + skew about the image, translated so the result starts at 0.
fn rotation(w: usize, h: usize, quarter: u32, skew: f64) -> (Homography, usize, usize) {
    let r = Homography::rotate_deg(quarter as f64 * 90.0 - skew);
    let corners = [(0.0, 0.0), (w as f64, 0.0), (w as f64, h as f64), (0.0, h as f64)];
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (x, y) in corners {
        let (u, v) = r.apply(x, y);
        x0 = x0.min(u);
        y0 = y0.min(v);
        x1 = x1.max(u);
        y1 = y1.max(v);
    }
    let t = Homography::translate(-x0, -y0).after(&r);
    (t, (x1 - x0).ceil() as usize, (y1 - y0).ceil() as usize)
}

/// Vanishing point (homogeneous) of a family of near-horizontal rulings `y = a + b x`: under a
/// perspective the slope changes linearly with the ruling's position, `b = b0 + k y(xc)`.
/// Fitted by length-weighted least squares with outliers (a page edge, a stray line) dropped.
/// `None` with fewer than 3 rulings spread over a third of `extent`.
fn vanishing(segs: &[&lines::Line], xc: f64, extent: f64) -> Option<[f64; 3]> {
    let mut pts: Vec<(f64, f64, f64)> = segs.iter().map(|s| (s.at(xc), s.slope, s.len())).collect();
    for _ in 0..3 {
        if pts.len() < 3 {
            return None;
        }
        let (y0, y1) = pts.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
        if y1 - y0 < extent / 3.0 {
            return None;
        }
        let sw: f64 = pts.iter().map(|p| p.2).sum();
        let my = pts.iter().map(|p| p.0 * p.2).sum::<f64>() / sw;
        let mb = pts.iter().map(|p| p.1 * p.2).sum::<f64>() / sw;
        let syy: f64 = pts.iter().map(|p| p.2 * (p.0 - my) * (p.0 - my)).sum();
        let syb: f64 = pts.iter().map(|p| p.2 * (p.0 - my) * (p.1 - mb)).sum();
        let k = if syy > 1e-9 { syb / syy } else { 0.0 };
        let b0 = mb - k * my;
        let res: Vec<f64> = pts.iter().map(|p| (p.1 - b0 - k * p.0).abs()).collect();
        let mut sorted = res.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        let tol = (3.0 * sorted[sorted.len() / 2]).max(0.002);
        if sorted[sorted.len() - 1] <= tol {
            return Some([xc * k - 1.0, -b0, k]);
        }
        pts = pts.into_iter().zip(&res).filter(|(_, r)| **r <= tol).map(|(p, _)| p).collect();
    }
    None
}

/// The line through a homogeneous point `v` and the point `(x, y)`, intersected with another such
/// line: the corner of the table's quadrilateral.
fn cross(p: [f64; 3], q: [f64; 3]) -> [f64; 3] {
    [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]]
}

/// Perspective correction from the table's own rulings: the vanishing points of the horizontal
/// and the vertical rulings give the table's quadrilateral (through the outer rulings' positions),
/// which is mapped to a rectangle. `None` when there is no clear perspective.
fn perspective(hs: &[lines::Line], vs: &[lines::Line], w: usize, h: usize) -> Option<Homography> {
    let hmax = hs.iter().map(|s| s.len()).fold(0.0, f64::max);
    let vmax = vs.iter().map(|s| s.len()).fold(0.0, f64::max);
    let hl: Vec<&lines::Line> = hs.iter().filter(|s| s.len() >= 0.5 * hmax).collect();
    let vl: Vec<&lines::Line> = vs.iter().filter(|s| s.len() >= 0.5 * vmax).collect();
    if hl.len() < 3 || vl.len() < 3 {
        return None;
    }
    // table extent: median ends of the long rulings of the other family
    let med = grid::median;
    let xc = med(hl.iter().map(|s| 0.5 * (s.start + s.end)).collect());
    let yc = med(vl.iter().map(|s| 0.5 * (s.start + s.end)).collect());
    let dbg = log::log_enabled!(log::Level::Debug);
    if dbg {
        log::debug!("perspective: {} long h, {} long v", hl.len(), vl.len());
    }
    let vh = vanishing(&hl, xc, vmax)?;
    let tv: Vec<lines::Line> = vl.iter().map(|s| **s).collect();
    let tvr: Vec<&lines::Line> = tv.iter().collect();
    let vv = vanishing(&tvr, yc, hmax)?; // in (y, x) order
    let vv = [vv[1], vv[0], vv[2]];
    if dbg {
        log::debug!("perspective: vanishing points {vh:?} {vv:?}");
    }
    let (x0, x1) = (med(hl.iter().map(|s| s.start).collect()), med(hl.iter().map(|s| s.end).collect()));
    let (y0, y1) = (med(vl.iter().map(|s| s.start).collect()), med(vl.iter().map(|s| s.end).collect()));
    if x1 - x0 < 0.2 * w as f64 || y1 - y0 < 0.2 * h as f64 {
        return None;
    }
    // lines through the vanishing points and the table's outer edges at its centre lines
    let top = cross(vh, [xc, y0, 1.0]);
    let bot = cross(vh, [xc, y1, 1.0]);
    let left = cross(vv, [x0, yc, 1.0]);
    let right = cross(vv, [x1, yc, 1.0]);
    let pt = |l: [f64; 3], m: [f64; 3]| {
        let p = cross(l, m);
        (p[2].abs() > 1e-9).then(|| (p[0] / p[2], p[1] / p[2]))
    };
    let q = [pt(top, left)?, pt(top, right)?, pt(bot, right)?, pt(bot, left)?];
    let rect = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)];
    let dev = q.iter().zip(&rect).map(|(a, b)| (a.0 - b.0).abs().max((a.1 - b.1).abs())).fold(0.0, f64::max);
    if !(1.5..0.25 * (x1 - x0).min(y1 - y0)).contains(&dev) {
        return None;
    }
    Homography::from_points(&q, &rect)
}

/// How far the long rulings' slopes spread (length-weighted mean distance from their weighted
/// median): near 0 when all rulings of a family are parallel.
fn spread(segs: &[lines::Line]) -> f64 {
    let lmax = segs.iter().map(|s| s.len()).fold(0.0, f64::max);
    let mut v: Vec<(f64, f64)> = segs.iter().filter(|s| s.len() >= 0.5 * lmax).map(|s| (s.slope, s.len())).collect();
    if v.len() < 2 {
        return 0.0;
    }
    crate::sort::by_key(&mut v, |p| p.0);
    let total: f64 = v.iter().map(|p| p.1).sum();
    let mut acc = 0.0;
    let mut med = v[0].0;
    for p in &v {
        acc += p.1;
        if acc >= 0.5 * total {
            med = p.0;
            break;
        }
    }
    v.iter().map(|p| (p.0 - med).abs() * p.1).sum::<f64>() / total
}

/// Builds the straightened analysis frame for one orientation guess: the grey analysis image is
/// warped (bilinear) and binarized again in each straightened frame, so thin rulings stay
/// unbroken. Where the rulings show a perspective, the frame that undoes it is analysed first;
/// it is kept where its rulings come out more nearly parallel and it holds a table.
fn frame(small_l: &GrayImage, bin0: &Bin, lbin0: &Bin, radius: usize, quarter: u32, rulings: Rulings) -> Frame {
    let (r0, w0, h0) = rotation(bin0.w, bin0.h, quarter, 0.0);
    let skew = if quarter == 0 {
        lines::skew(lbin0, 12.0).0
    } else {
        let b = lbin0.warp(&r0.inverse().unwrap_or(Homography::IDENTITY), w0, h0);
        lines::skew(&b, 12.0).0
    };
    let (r, w, h) = rotation(bin0.w, bin0.h, quarter, skew);
    let inverse = |hm: &Homography| hm.inverse().unwrap_or(Homography::IDENTITY);
    // (the grey image straightened by `hm` and its rulings' binary: what a perspective is
    // measured on)
    let straight_rulings = |hm: &Homography| {
        let grey = geom::warp_gray(small_l, &inverse(hm), w as u32, h as u32);
        (binarize_rulings(&grey, radius, rulings), grey)
    };
    let unturned = quarter == 0 && skew == 0.0;
    let (lbin1, grey1) = if unturned {
        (lbin0.clone(), None)
    } else {
        let (lbin, grey) = straight_rulings(&r);
        (lbin, Some(grey))
    };
    let lh = (w / 25).max(16);
    let hsum: f64 = lines::rulings(&lbin1, lh, 1, 0.2 * w as f64).iter().map(|s| s.len()).sum();
    // (rulings tilted by the perspective break into pieces: joined again)
    let joined = |b: &Bin, run: usize, len: usize| {
        let pieces = lines::rulings(b, run / 2, 1, run as f64);
        lines::join_broken(pieces, 2.0, len as f64 / 20.0).into_iter().filter(|s| s.len() >= 0.2 * len as f64).collect()
    };
    let hs: Vec<lines::Line> = joined(&lbin1, lh, w);
    let vs: Vec<lines::Line> = joined(&lbin1.transpose(), (h / 30).max(12), h);
    let persp = perspective(&hs, &vs, w, h);
    log::debug!("frame q {quarter} skew {skew:.1} hsum {hsum:.0} perspective {persp:?}");
    if let Some(p) = persp {
        let hh = p.after(&r);
        let (lbin, grey) = straight_rulings(&hh);
        // (only where its rulings come out more nearly parallel: the rulings' vanishing points
        // can be thrown off by a page edge or a ruling of another part of the form)
        let hs2: Vec<lines::Line> = joined(&lbin, lh, w);
        let vs2: Vec<lines::Line> = joined(&lbin.transpose(), (h / 30).max(12), h);
        let (s1, s2) = (spread(&hs) + spread(&vs), spread(&hs2) + spread(&vs2));
        log::debug!("perspective: slope spread {s1:.4} -> {s2:.4}");
        if s2 < 0.8 * s1 {
            let glyphs = bin0.warp(&inverse(&hh), w, h);
            let warped = grid::analyze(&glyphs, &lbin, &grey);
            log::debug!("perspective: {} rows read", warped.rows());
            if warped.rows() > 0 {
                return Frame {
                    h: hh,
                    w,
                    hh: h,
                    quarter,
                    skew,
                    perspective: true,
                    hsum,
                    grid: warped,
                    straightened: Some(grey),
                    ruled_span: (0.0, 0.0),
                };
            }
        }
    }
    let glyphs = if unturned { bin0.clone() } else { bin0.warp(&inverse(&r), w, h) };
    let plain = grid::analyze(&glyphs, &lbin1, grey1.as_ref().unwrap_or(small_l));
    Frame {
        h: r,
        w,
        hh: h,
        quarter,
        skew,
        perspective: false,
        hsum,
        grid: plain,
        straightened: grey1,
        ruled_span: (0.0, 0.0),
    }
}

/// The move table in the analysis image, in the first orientation that holds one, with the
/// glyphs' binary `glyphs` and the rulings binarized for `rulings`: the frame, its cells and blocks, and the row pitch; or why
/// none was found.
fn find_table(glyphs: &Bin, small_l: &GrayImage, radius: usize, rulings: Rulings) -> Result<Table, PageError> {
    let found = find_table_in(glyphs, small_l, radius, rulings);
    match &found {
        Ok(table) => log::debug!(
            "{rulings:?} rulings at {}x{}: {} move rows",
            small_l.width(),
            small_l.height(),
            move_rows(table)
        ),
        Err(error) => log::debug!("{rulings:?} rulings at {}x{}: {error}", small_l.width(), small_l.height()),
    }
    found
}

/// [`find_table`] without its log line.
fn find_table_in(glyphs: &Bin, small_l: &GrayImage, radius: usize, rulings: Rulings) -> Result<Table, PageError> {
    let ruling_bin = binarize_rulings(small_l, radius, rulings);
    // orientation: the table has more ruled length across than down
    // (the upright frame is tried first; the quarter-turned one only when that finds no table or
    // the quarter-turned frame has more ruled length across)
    let f0 = frame(small_l, glyphs, &ruling_bin, radius, 0, rulings);
    let (first, second) = if matches!(f0.grid, grid::Grid::Found { .. }) {
        (Some(f0), None)
    } else {
        let f1 = frame(small_l, glyphs, &ruling_bin, radius, 1, rulings);
        if f1.hsum > f0.hsum { (Some(f1), Some(f0)) } else { (Some(f0), Some(f1)) }
    };
    let q0 = first.as_ref().map_or(0, |f| f.quarter);
    let mut last_err = String::from("no ruled table");
    let make = |q: u32| frame(small_l, glyphs, &ruling_bin, radius, q, rulings);
    for mut fr in frames_by_turn([first, second], make) {
        let q = fr.quarter;
        match std::mem::replace(&mut fr.grid, grid::Grid::NotFound(String::new())) {
            grid::Grid::Found { cells, blocks, pitch, ruled_span } => {
                fr.ruled_span = ruled_span;
                return Ok((fr, cells, blocks, pitch));
            }
            grid::Grid::Flipped => last_err = "move-number columns lie right of the move columns".into(),
            grid::Grid::NotFound(e) => {
                if q == q0 {
                    last_err = e;
                }
            }
        }
    }
    Err(PageError::NoTable { reason: last_err })
}

/// The frames of the four quarter turns in the order a table is looked for in them: the turn of
/// the first frame `made` first, then that turn upside down, then the other two. The frames
/// already `made` are taken at their own turns, the others made by `make` as they are reached
/// (each turn analysed once).
fn frames_by_turn(mut made: [Option<Frame>; 2], mut make: impl FnMut(u32) -> Frame) -> impl Iterator<Item = Frame> {
    let q0 = made[0].as_ref().map_or(0, |f| f.quarter);
    [q0, q0 + 2, q0 + 1, q0 + 3].into_iter().map(move |q| {
        let q = q % 4;
        let made_at_q = made.iter_mut().find(|f| f.as_ref().is_some_and(|f| f.quarter == q));
        made_at_q.and_then(Option::take).unwrap_or_else(|| make(q))
    })
}

/// A table found: its frame, cells, blocks and row pitch.
type Table = (Frame, Vec<grid::GCell>, Vec<grid::GBlock>, f64);

/// Fewer move rows than this in a table found with the plain rulings' binary send the page to the
/// faint-rulings pass too.
const FEW_MOVE_ROWS: u32 = 20;

/// The move rows of a table's blocks whose printed numbers the analysis saw: rows taken beyond
/// them with their numbers unseen ([`grid::GBlock::rows_numbers_unseen`]) are the numbering's to
/// keep, and make no reading of the table win over another.
fn move_rows(table: &Table) -> u32 {
    let unseen = |b: &grid::GBlock| (b.rows_numbers_unseen.first + b.rows_numbers_unseen.last) as u32;
    table.2.iter().map(|b| b.rows.saturating_sub(unseen(b))).sum()
}

/// The share of a table's ruled width its blocks must cover for the table to be whole (a table
/// of four blocks that lost one covers three quarters of it).
const BLOCKS_COVER_RULED_WIDTH: f64 = 0.85;

/// Whether a table's blocks cover its ruled width ([`BLOCKS_COVER_RULED_WIDTH`] of it).
fn blocks_cover_the_ruled_width(table: &Table) -> bool {
    let (start, end) = table.0.ruled_span;
    end <= start || blocks_width(table) >= BLOCKS_COVER_RULED_WIDTH * (end - start)
}

/// The width from a table's leftmost block's left side to its rightmost block's right side.
fn blocks_width(table: &Table) -> f64 {
    let left = table.2.iter().map(|b| b.bx[0]).fold(f64::MAX, f64::min);
    let right = table.2.iter().map(|b| b.bx[2]).fold(f64::MIN, f64::max);
    right - left
}

/// How the rulings are binarized: as printed in black, light grey on grainy paper, also where
/// a shaded column's edge stands for a ruling, also where shaded rows' edges do, or also where
/// faint dots make a row ruling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rulings {
    Plain,
    Faint,
    ShadeEdges,
    ShadedRows,
    Dotted,
}

/// The rulings' binary of `g` (see [`lines::binarize_faint_rulings`] for faint ones,
/// [`lines::binarize_with_shade_edges`] for shade edges).
fn binarize_rulings(g: &GrayImage, radius: usize, rulings: Rulings) -> Bin {
    match rulings {
        Rulings::Plain => lines::binarize_with(g, radius, LINE_PCT, LINE_DIFF),
        Rulings::Faint => lines::binarize_faint_rulings(g, radius, LINE_PCT, LINE_DIFF),
        Rulings::ShadeEdges => lines::binarize_with_shade_edges(g, radius, LINE_PCT, LINE_DIFF),
        Rulings::ShadedRows => lines::binarize_with_shaded_rows(g, radius, LINE_PCT, LINE_DIFF),
        Rulings::Dotted => lines::binarize_dotted_rulings(g, radius, LINE_PCT, LINE_DIFF),
    }
}

/// A table found in an analysed image downscaled by `scale`.
struct Located {
    table: Table,
    scale: u32,
    /// The glyphs' binary's window radius at that size.
    radius: usize,
}

/// The move table of the grey image `g`, analysed downscaled to about 800 pixels (or half that,
/// for [`Analysis::Halved`]): rulings as printed in black first, light grey ones where those find
/// no table or only part of one.
fn locate_table(g: &GrayImage, analysis: Analysis) -> Result<Located, PageError> {
    let long_side = g.width().max(g.height());
    let scale = (long_side / ANALYSED_LONG_SIDE).max(1);
    match analysis {
        Analysis::Full => locate_table_at(g, scale),
        Analysis::Halved if long_side / (2 * scale) >= LEAST_ANALYSED_LONG_SIDE => locate_table_at(g, 2 * scale),
        Analysis::Halved => Err(PageError::NoTable { reason: "image too small to analyse at half size".into() }),
        Analysis::Doubled if scale >= 2 => locate_table_at(g, scale.div_ceil(2)),
        Analysis::Doubled => Err(PageError::NoTable { reason: "image too small to analyse at twice the size".into() }),
    }
}

/// The size a page is analysed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Analysis {
    /// Downscaled to about [`ANALYSED_LONG_SIDE`].
    Full,
    /// Half that: rulings out of focus, blurred over more pixels than a ridge's neighbours lie
    /// from it, are no ruling at the full analysed size, and sharp enough at half; the printed
    /// numbers are still read at the input's resolution.
    Halved,
    /// Twice [`Analysis::Full`]'s size, where the input has it (the downscaling factor halved,
    /// rounded up: a page downscaled 3 times is analysed downscaled twice, not at full size,
    /// which costs four times the work): a dense table's thin, dotted or faint row rulings, a
    /// few pixels apart at the full analysed size, blur away when the page is downscaled that far.
    Doubled,
}

/// The long side an image is downscaled to, about, for the page's analysis.
const ANALYSED_LONG_SIDE: u32 = 800;
/// The least long side a page is analysed at ([`Analysis::Halved`] is not tried under it).
const LEAST_ANALYSED_LONG_SIDE: u32 = 400;

/// [`locate_table`] in `g` downscaled by `scale`.
fn locate_table_at(g: &GrayImage, scale: u32) -> Result<Located, PageError> {
    let (small, small_l) = lines::downscale(g, scale);
    let radius = (small.width() as usize / 60).max(7);
    // (rulings printed light grey, on pages where the plain binary finds no table, are looked
    // for again in a binary made for them: it finds more ink everywhere, so it is a second try)
    // (and where it finds one block only, a block whose faint rulings were lost beside it, or
    // fewer move rows than a short game's, pieces of a table whose faint rulings broke: the table
    // with more move rows wins)
    // (where that still finds no table or a poor one, a shaded column's edge may stand for a
    // ruling a form does not print: a third try, as edges of every shade come out)
    // (the glyphs' binary is the same for every pass)
    let glyphs = lines::binarize(&small, radius);
    // (a table whose first block does not start at move 1, by the count of its numbers' digits,
    // may have lost the blocks before it to rulings too faint for this pass; a continuation
    // page's table is looked for again too, and the table with more move rows wins)
    // (and a table whose blocks leave a part of its ruled width uncovered, a block there lost
    // to rulings that faded beside dense handwriting)
    let whole = |table: &Table| {
        table.2.len() >= 2
            && move_rows(table) >= FEW_MOVE_ROWS
            && table.2.iter().map(|b| b.first).min() == Some(1)
            && blocks_cover_the_ruled_width(table)
    };
    // (the table with more move rows of two, where it covers more of the ruled width than the
    // other leaves uncovered: more rows in fewer columns are a misreading of the same part)
    let better = |found: Result<Table, PageError>, again: Result<Table, PageError>| {
        let wider = |table: &Table, again: &Table| {
            blocks_cover_the_ruled_width(table) || blocks_width(again) > blocks_width(table)
        };
        match (found, again) {
            (Ok(table), Ok(again)) if move_rows(&again) > move_rows(&table) && wider(&table, &again) => Ok(again),
            (Ok(table), _) => Ok(table),
            (Err(_), Ok(again)) => Ok(again),
            (Err(first_error), Err(_)) => Err(first_error),
        }
    };
    let mut found = find_table(&glyphs, &small_l, radius, Rulings::Plain);
    for rulings in [Rulings::Faint, Rulings::ShadeEdges] {
        if found.as_ref().is_ok_and(whole) {
            break;
        }
        found = better(found, find_table(&glyphs, &small_l, radius, rulings));
    }
    // (faint dotted rows, seen only averaged along the row, on a page where no binary above
    // finds a table: a last try, as the ridges of print and handwriting come out longer too)
    if found.is_err() {
        if let Ok(table) = find_table(&glyphs, &small_l, radius, Rulings::Dotted) {
            found = Ok(table);
        }
    }
    // (rows shaded every other row with no rulings read as rows two rows high: the bands'
    // edges stand for the rulings, after every other binary, as they tell the orientation
    // less well; that reading is kept where it has half again as many move rows at least, as
    // the misreading it mends counts every other row, and a lighting edge across a photo moves
    // a row or two; tried where no table or one of few move rows is found, as it costs a pass)
    if !found.as_ref().is_ok_and(|table| move_rows(table) >= FEW_MOVE_ROWS) {
        let again = find_table(&glyphs, &small_l, radius, Rulings::ShadedRows);
        let many_more_rows = match (&found, &again) {
            (Ok(table), Ok(again)) => 2 * move_rows(again) >= 3 * move_rows(table),
            _ => true,
        };
        if many_more_rows {
            found = better(found, again);
        }
    }
    Ok(Located { table: found?, scale, radius })
}

/// The table on the sheet of paper a photo shows whole on a darker table, straightened from the
/// paper's corners; with the transform from input pixels to the straightened paper's. `None`
/// where the photo shows no such sheet or no table is found on it.
fn locate_table_on_paper(g: &GrayImage, analysis: Analysis) -> Option<(Located, Homography)> {
    let corners = paper::find_paper(g)?;
    log::debug!("paper: corners {corners:?}");
    let (paper, to_paper) = paper::straighten(g, &corners)?;
    let on_paper = locate_table(&paper, analysis);
    match &on_paper {
        Ok(t) => log::debug!("paper: {} move rows on the straightened paper", move_rows(&t.table)),
        Err(e) => log::debug!("paper: {e}"),
    }
    Some((on_paper.ok()?, to_paper))
}

/// Segments a grey page: the sheet of paper in a photo, orientation, skew and perspective
/// correction, move table, cells.
///
/// Errors with [`PageError::NoTable`] when the image holds no recognisable move table (a blank
/// page, a photo of something else).
pub fn segment_gray(g: &GrayImage) -> Result<Sheet, PageError> {
    let (gw, gh) = (g.width(), g.height());
    if gw < 32 || gh < 32 {
        return Err(PageError::NoTable { reason: format!("image is only {gw}x{gh} pixels") });
    }
    // (a pale page, faded print or a light scan with nothing black on it, is read with its grey
    // stretched to full contrast)
    let stretched = stretch_pale_page(g);
    let g = stretched.as_ref().unwrap_or(g);
    // (a small image, a thumbnail or a low-resolution scan, has rulings a pixel apart from the
    // handwriting that crosses them and gaps of a pixel or two that close: it is read enlarged,
    // its cells' boxes given back in its own pixels)
    let upscale = upscale_factor(gw.max(gh));
    if upscale > 1 {
        log::debug!("small image ({gw}x{gh}): read enlarged {upscale} times");
        return segment_enlarged(g, upscale);
    }
    let sheet = segment_at_input_resolution(g)?;
    // (a table of small print, rows under 32 px apart, where a block's printed numbers do not
    // read at first: digits a few pixels high run into each other and into the rulings, and the
    // rows around them are found in part; the image is read again enlarged twice, and that
    // reading kept where it numbers more cells from their printed numbers)
    if sheet.numbers_read_again && sheet.row_pitch().is_some_and(|pitch| pitch < SMALL_PRINT_ROW_PITCH) {
        if let Ok(enlarged) = segment_enlarged(g, 2) {
            log::debug!(
                "small print: {} cells numbered from printed numbers at its own size, {} enlarged twice",
                rows_read(&sheet).0,
                rows_read(&enlarged).0
            );
            if rows_read(&enlarged).0 > rows_read(&sheet).0 {
                return Ok(enlarged);
            }
        }
    }
    Ok(sheet)
}

/// The share of a page's pixels taken for its darkest ink when its contrast is measured.
const DARKEST_INK_SHARE: f64 = 0.005;
/// The share of a page's pixels at least as dark as its paper level (paper and a photo's
/// background, the bright side of the page's pixels).
const PAPER_SHARE: f64 = 0.9;
/// The grey level of a page's darkest ink at and above which the page is pale: nothing on it is
/// black (HCS pages, pencil on black print, have ink at 45-90).
const PALE_PAGE_DARKEST_INK: u8 = 110;
/// The grey level the paper of a pale page is stretched to.
const STRETCHED_PAPER: f64 = 240.0;

/// `g` with its grey stretched linearly so its darkest ink is black and its paper nearly white,
/// where nothing on it is black (faded print, a light scan or photocopy); `None` where the page
/// has black enough.
///
/// The binaries' local thresholds are shares of the local mean grey: on a page whose ink is
/// grey they need a far larger step from the paper than on a page whose print is black.
fn stretch_pale_page(g: &GrayImage) -> Option<GrayImage> {
    let histogram = GreyHistogram::of(g.as_raw());
    let level_at_share = |share: f64| histogram.level_reached_by(share * histogram.total as f64);
    let (darkest, paper) = (level_at_share(DARKEST_INK_SHARE), level_at_share(PAPER_SHARE));
    if darkest < PALE_PAGE_DARKEST_INK || paper <= darkest {
        return None;
    }
    log::debug!("pale page: darkest ink {darkest}, paper {paper}: stretched");
    let gain = STRETCHED_PAPER / f64::from(paper - darkest);
    let mut stretched = g.clone();
    for p in stretched.pixels_mut() {
        p.0[0] = (f64::from(p.0[0].saturating_sub(darkest)) * gain).round().min(255.0) as u8;
    }
    Some(stretched)
}

/// [`segment_at_input_resolution`] on `g` enlarged `factor` times, the sheet given back in `g`'s
/// own pixels.
fn segment_enlarged(g: &GrayImage, factor: u32) -> Result<Sheet, PageError> {
    let (gw, gh) = (g.width(), g.height());
    let enlarged = image::imageops::resize(g, gw * factor, gh * factor, image::imageops::FilterType::CatmullRom);
    segment_at_input_resolution(&enlarged).map(|sheet| sheet.reduced(factor))
}

/// The row pitch, in pixels of the straightened page, under which a table whose printed numbers
/// do not all read is read again enlarged (its printed digits stand under about 10 px high).
const SMALL_PRINT_ROW_PITCH: f64 = 32.0;

/// The long side under which an image is read enlarged (to at least [`ENLARGED_LONG_SIDE`]).
const SMALL_IMAGE_LONG_SIDE: u32 = 600;
/// The long side a small image is enlarged to, at least: rows of a full page's table are about
/// 20 pixels apart there.
const ENLARGED_LONG_SIDE: u32 = 800;

/// The integer factor a page image of long side `long_side` is enlarged by before it is read
/// (1: read as it is).
fn upscale_factor(long_side: u32) -> u32 {
    if long_side >= SMALL_IMAGE_LONG_SIDE { 1 } else { ENLARGED_LONG_SIDE.div_ceil(long_side.max(1)) }
}

/// [`segment_gray`] on an image read at its own resolution.
fn segment_at_input_resolution(g: &GrayImage) -> Result<Sheet, PageError> {
    let sheet = segment_as_it_lies(g)?;
    // (a page upside down whose columns do not tell it, e.g. a clock column taken for the
    // numbers: no block reads its printed numbers; the page turned upside down is read too, and
    // kept where at least half as many cells as the first reading has are numbered from printed
    // numbers)
    if sheet.blocks.is_empty() || sheet.blocks.iter().any(|block| block.printed_numbers) {
        return Ok(sheet);
    }
    let turned = image::imageops::rotate180(g);
    match segment_as_it_lies(&turned) {
        Ok(upright) if 2 * rows_read(&upright).0 >= sheet.cells.len() => {
            log::debug!("upside down: {} cells numbered from printed numbers", rows_read(&upright).0);
            Ok(upright.turned_back(g.width(), g.height()))
        }
        _ => Ok(sheet),
    }
}

/// [`segment_at_input_resolution`] on the image as it lies (turned by quarter turns only where
/// its rulings say so).
fn segment_as_it_lies(g: &GrayImage) -> Result<Sheet, PageError> {
    // (a table found nowhere at the analysed size is looked for at half that size, for rulings
    // out of focus, and at twice that size, for thin or faint rulings that blur away when the
    // page is downscaled: last tries, the reading with more rows numbered from their printed
    // numbers kept)
    let sheet = match segment_analysed(g, Analysis::Full) {
        Ok(sheet) => sheet,
        Err(error) => {
            log::debug!("no table at the analysed size: {error}");
            let halved = segment_analysed(g, Analysis::Halved);
            let doubled = segment_analysed(g, Analysis::Doubled);
            return match (halved, doubled) {
                (Ok(halved), Ok(doubled)) if rows_read(&doubled) > rows_read(&halved) => {
                    log::debug!("table found at twice the analysed size");
                    Ok(doubled)
                }
                (Ok(halved), _) => {
                    log::debug!("table found at half the analysed size");
                    Ok(halved)
                }
                (Err(_), Ok(doubled)) => {
                    log::debug!("table found at twice the analysed size");
                    Ok(doubled)
                }
                (Err(_), Err(_)) => Err(error),
            };
        }
    };
    // (a dense table, its rows a few pixels apart at the analysed size, that reads poorly is
    // looked for again at twice that size, and kept where it reads more rows, or more rows from
    // their printed numbers, and no fewer of either: its thin or dotted rulings can have blurred
    // away, and blocks or rows with them)
    if row_pitch_share(&sheet, g) >= DENSE_ROW_PITCH_SHARE || !reads_poorly(&sheet) {
        return Ok(sheet);
    }
    match segment_analysed(g, Analysis::Doubled) {
        Ok(doubled) if reads_more_and_no_fewer(&doubled, &sheet) => {
            log::debug!("dense table: read at twice the analysed size");
            Ok(doubled)
        }
        _ => Ok(sheet),
    }
}

/// A table whose rows lie closer than this share of the image's long side is dense: under 20
/// pixels apart at the analysed size ([`ANALYSED_LONG_SIDE`]).
const DENSE_ROW_PITCH_SHARE: f64 = 20.0 / ANALYSED_LONG_SIDE as f64;

/// The height of a sheet's move cells (their median, on the straightened page, which keeps the
/// input's resolution) as a share of the input's long side.
fn row_pitch_share(sheet: &Sheet, g: &GrayImage) -> f64 {
    let heights: Vec<f64> = sheet.cells.iter().map(|c| (c.box_straight[3] - c.box_straight[1]) as f64).collect();
    if heights.is_empty() {
        return 1.0;
    }
    grid::median(heights) / g.width().max(g.height()) as f64
}

/// Whether a sheet shows signs of a table read in part: its first block does not start at move 1
/// (a heading or a first row lost; or a continuation page), or [`reads_in_part`].
fn reads_poorly(sheet: &Sheet) -> bool {
    sheet.blocks.iter().map(|block| block.first_move).min() != Some(1) || reads_in_part(sheet)
}

/// Whether a sheet's blocks show that part of its table was lost or misread: no block, a block's
/// rows counted, blocks holding different numbers of rows (rows lost at a block's end; or a
/// form printed so), move numbers leaving a gap between blocks (a block lost between them), or
/// blocks that leave part of the table's ruled width uncovered (a block lost beside them), or
/// blocks placed there ([`lost_blocks`]: another reading may find them).
fn reads_in_part(sheet: &Sheet) -> bool {
    if sheet.blocks_leave_ruled_width || sheet.blocks_placed > 0 {
        return true;
    }
    let blocks = blocks_in_move_order(sheet);
    let Some(first) = blocks.first() else { return true };
    blocks.iter().any(|block| !block.printed_numbers || block.rows != first.rows)
        || blocks.windows(2).any(|pair| pair[1].first_move > pair[0].first_move + pair[0].rows)
}

/// [`segment_as_it_lies`] with the page analysed at the size `analysis` says.
fn segment_analysed(g: &GrayImage, analysis: Analysis) -> Result<Sheet, PageError> {
    // (a photo of a page lying whole on a darker table: the page straightened from its outline,
    // at the resolution it has in the photo, and the whole photo, where a shadow across the page
    // can cut the outline short; of two sheets the one with more rows numbered from their printed
    // numbers wins, then the one with more rows, then the one whose cells repeat fewer labels,
    // the paper's on a tie: more rows at the photo's lower resolution can be headings and
    // pieces of rows, counted)
    let on_paper =
        locate_table_on_paper(g, analysis).and_then(|(located, to_paper)| sheet_from_table(g, located, to_paper).ok());
    let whole = locate_table(g, analysis).and_then(|located| sheet_from_table(g, located, Homography::IDENTITY));
    match (on_paper, whole) {
        (Some(on_paper), Ok(whole))
            if (rows_read(&whole), Reverse(repeated_labels(&whole)))
                > (rows_read(&on_paper), Reverse(repeated_labels(&on_paper))) =>
        {
            Ok(whole)
        }
        (Some(on_paper), _) => Ok(on_paper),
        (None, whole) => whole,
    }
}

/// Whether sheet `a` reads more of its table than `b`, and no less: no fewer cells labelled from
/// their rows' printed numbers, no fewer cells, and more of one or the other; or as many of
/// each with fewer blocks placed ([`lost_blocks`]), or as many placed and more rows whose
/// printed numbers read as labelled, or with fewer cells repeating a label; or `a` reads its
/// table whole as found ([`found_whole`]) where `b` does not, with more cells labelled from
/// printed numbers and [`WHOLE_OVER_COUNTED_LABELS`] as many cells at least (any number where
/// under a quarter of `b`'s labels come from printed numbers); or `a`'s rows read the numbers
/// they are labelled with in [`LABELS_READ_CLEARLY_MORE`] more rows at least, with
/// [`WHOLE_OVER_COUNTED_LABELS`] as many cells.
fn reads_more_and_no_fewer(a: &Sheet, b: &Sheet) -> bool {
    // (blocks placed where `b`'s blocks, found and read whole, leave nothing uncovered are
    // copies laid on some other printed table: a two-page form's team results beside its
    // blocks of 25 and 20 rows, its "Brett 1, 2, 3" read on as moves 91-94)
    let b_whole = found_whole(b);
    if a.blocks_placed > 0 && b_whole {
        return false;
    }
    let ((a_printed, a_all), (b_printed, b_all)) = (rows_read(a), rows_read(b));
    let as_many = (a_printed, a_all) == (b_printed, b_all);
    // (as many rows, with fewer blocks placed rather than found: a block placed is a copy of
    // its neighbour, and a found block's mistakes are the copy's too; with as many placed, the
    // copies whose number cells read their numbers more often sit on the printed numbers)
    let as_many_found = as_many
        && (a.blocks_placed < b.blocks_placed
            || (a.blocks_placed > 0
                && a.blocks_placed == b.blocks_placed
                && a.numbers_read_as_labelled > b.numbers_read_as_labelled));
    // (as many labels, fewer given twice: two blocks numbered alike are one block misread)
    let as_many_once = as_many && repeated_labels(a) < repeated_labels(b);
    // (a reading found whole, more of its labels from printed numbers, reads more than one with
    // blocks counted that labels a few rows more: the count runs on past a line under a block,
    // "RESULT:", read as its last row, and numbers the next block a move late)
    // (and than one that labels any number of rows more where under a quarter of its labels
    // come from printed numbers: rows split in two, at half the pitch, by the dashes of long
    // algebraic moves read as rulings at a smaller analysed size, count twice the rows the
    // printed numbers give)
    let nearly_all_counted = 4 * b_printed < b_all;
    let whole_over_counted = !b_whole
        && found_whole(a)
        && a_printed > b_printed
        && (nearly_all_counted || a_all as f64 >= WHOLE_OVER_COUNTED_LABELS * b_all as f64);
    // (a reading whose rows read the numbers they are labelled with in clearly more rows reads
    // more than one labelling a few rows more: a row split in two by a writer's ink, where no
    // ruling parts the rows, is a row too many, and every label below it is one too high where
    // its printed number reads one less)
    let labels_read_clearly_more = a_all as f64 >= WHOLE_OVER_COUNTED_LABELS * b_all as f64
        && a.numbers_read_as_labelled >= b.numbers_read_as_labelled + LABELS_READ_CLEARLY_MORE.max(b_all / 20);
    (a_printed >= b_printed && a_all >= b_all && !as_many)
        || as_many_found
        || as_many_once
        || whole_over_counted
        || labels_read_clearly_more
}

/// How many more rows reading the numbers they are labelled with a reading holds at least (or a
/// tenth of the other reading's rows, two labels a row) to read more than one with more labels.
const LABELS_READ_CLEARLY_MORE: usize = 4;

/// The least share of another reading's labels that a reading holds where it reads more than
/// that one for its printed numbers alone: found whole ([`found_whole`]), or with clearly more
/// rows reading their labels ([`LABELS_READ_CLEARLY_MORE`]).
const WHOLE_OVER_COUNTED_LABELS: f64 = 0.9;

/// Whether a sheet's table is read whole as found: no block placed, none of the ruled width left
/// uncovered, every block numbered from its printed numbers, each continuing the one before (its
/// blocks may hold different numbers of rows, as a form prints them).
fn found_whole(sheet: &Sheet) -> bool {
    let blocks = blocks_in_move_order(sheet);
    sheet.blocks_placed == 0
        && !sheet.blocks_leave_ruled_width
        && !blocks.is_empty()
        && blocks.iter().all(|block| block.printed_numbers)
        && blocks.windows(2).all(|pair| pair[1].first_move == pair[0].first_move + pair[0].rows)
}

/// A sheet's blocks in the order of their first moves.
fn blocks_in_move_order(sheet: &Sheet) -> Vec<&Block> {
    let mut blocks: Vec<&Block> = sheet.blocks.iter().collect();
    crate::sort::by_key(&mut blocks, |block| block.first_move as usize);
    blocks
}

/// How much of a sheet is read: its labels given to cells from their rows' printed numbers, then
/// all its labels; each label counted once (a reading that gives two blocks one run of numbers,
/// a block of a second copy of the form beside a block of the first lost, reads no more of the
/// game for it).
fn rows_read(sheet: &Sheet) -> (usize, usize) {
    let printed = distinct_labels(&mut sheet.cells.iter().filter(|c| !c.numbering_guessed));
    (printed, distinct_labels(&mut sheet.cells.iter()))
}

/// How many labels (move and side) `cells` hold, each counted once.
fn distinct_labels(cells: &mut dyn Iterator<Item = &Cell>) -> usize {
    let mut labels: Vec<(u32, bool)> = cells.map(|c| (c.mv, c.side == Side::Black)).collect();
    labels.sort_unstable();
    labels.dedup();
    labels.len()
}

/// How many of a sheet's cells repeat a label another cell has.
fn repeated_labels(sheet: &Sheet) -> usize {
    sheet.cells.len() - distinct_labels(&mut sheet.cells.iter())
}

/// How close, in row pitches, a block's end comes to the frame's edge where the frame may cut its
/// rows beyond: a row and the ruling under it need more room.
const FRAME_EDGE_PITCHES: f64 = 2.0;

/// The sheet of the table `located` in the image `to_analysed` maps `g` onto: the page cut out of
/// `g` around the table and straightened, its printed numbers read, its cells labelled and cut.
fn sheet_from_table(g: &GrayImage, located: Located, to_analysed: Homography) -> Result<Sheet, PageError> {
    let (gw, gh) = (g.width(), g.height());
    let blocks_leave_ruled_width = !blocks_cover_the_ruled_width(&located.table);
    let Located { table: (fr, mut gcells, mut gblocks, pitch), scale: k, radius } = located;
    let perspective = fr.perspective || to_analysed != Homography::IDENTITY;
    // full resolution: input -> analysed image (to_analysed) -> small (1/k) -> frame (fr.h) ->
    // page (x k, minus crop origin)
    let kf = k as f64;
    let to_frame_full = Homography::scale(kf).after(&fr.h).after(&Homography::scale(1.0 / kf)).after(&to_analysed);
    // page = table region plus a margin, within the frame
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    // (the number cells too: their printed numbers are read on the page)
    let number_cells = gblocks.iter().flat_map(|b| b.number_cells.iter().chain(&b.other_number_cells));
    for bx in gcells.iter().map(|c| &c.bx).chain(number_cells) {
        x0 = x0.min(bx[0]);
        y0 = y0.min(bx[1]);
        x1 = x1.max(bx[2]);
        y1 = y1.max(bx[3]);
    }
    // (and the ruled width the blocks leave uncovered, where a lost block may be placed)
    let room_for_lost_blocks = lost_blocks::room_left(&gblocks, fr.ruled_span);
    if room_for_lost_blocks {
        x0 = x0.min(fr.ruled_span.0);
        x1 = x1.max(fr.ruled_span.1);
    }
    let mx = 0.06 * (x1 - x0) + 2.0 * pitch;
    let my = 0.06 * (y1 - y0) + 2.0 * pitch;
    let px0 = (x0 - mx).max(0.0).floor();
    let py0 = (y0 - my).max(0.0).floor();
    let px1 = (x1 + mx).min(fr.w as f64).ceil();
    let py1 = (y1 + my).min(fr.hh as f64).ceil();
    let to_page = Homography::translate(-px0 * kf, -py0 * kf).after(&to_frame_full);
    let pw = ((px1 - px0) * kf) as u32;
    let ph = ((py1 - py0) * kf) as u32;
    let from_page =
        to_page.inverse().ok_or_else(|| PageError::NoTable { reason: "degenerate page geometry".into() })?;
    // (where the table was analysed at the input's resolution, the frame's straightened image is
    // the page already: cut out, not warped again)
    let page = if k == 1 && to_analysed == Homography::IDENTITY && pw > 0 && ph > 0 {
        copy_rect(fr.straightened.as_ref().unwrap_or(g), px0 as u32, py0 as u32, pw, ph)
    } else {
        geom::warp_gray(g, &from_page, pw.max(1), ph.max(1))
    };
    let on_page = |bx: &[f64; 4]| [(bx[0] - px0) * kf, (bx[1] - py0) * kf, (bx[2] - px0) * kf, (bx[3] - py0) * kf];
    let on_page_ref: &dyn Fn(&[f64; 4]) -> [f64; 4] = &on_page;
    let (mut printed, mut page_numbers, mut numbers_read_again) =
        read_and_number_rows(&page, on_page_ref, &gblocks, pitch, fr.hh as f64);
    // (blocks lost to their rulings beside the blocks found, placed again where their printed
    // numbers read: lost_blocks; copies of the blocks numbered from their printed numbers, kept
    // only where the numbering keeps them; their numbers read in the print's darkness alone,
    // as handwriting lies across them where no ruling keeps it apart)
    let mut blocks_placed = 0;
    if room_for_lost_blocks {
        let numbered: Vec<bool> = page_numbers.blocks.iter().map(|n| n.printed && !n.rows.is_empty()).collect();
        let print_only = print_darkness_only(&page, gblocks.iter().flat_map(|b| &b.number_cells).map(&on_page));
        let read = |bx: [f64; 4]| digits::read_number(&print_only, on_page(&bx));
        let (mut blocks_with_copies, mut cells_with_copies) = (gblocks.clone(), gcells.clone());
        let placed = lost_blocks::place_lost_blocks(
            &mut blocks_with_copies,
            &mut cells_with_copies,
            &numbered,
            fr.ruled_span,
            read,
        );
        if !placed.is_empty() {
            let again = read_and_number_rows(&page, on_page_ref, &blocks_with_copies, pitch, fr.hh as f64);
            if lost_blocks::numbering_keeps(&again.1.blocks, &placed) {
                ink_placed_cells(&page, k, radius, (px0, py0), &placed, &mut cells_with_copies);
                (gblocks, gcells) = (blocks_with_copies, cells_with_copies);
                blocks_placed = placed.len();
                (printed, page_numbers, numbers_read_again) = again;
            } else {
                log::debug!("lost blocks placed at {placed:?} taken out again: the numbering does not keep them");
            }
        }
    }
    let numbering::PageNumbers { blocks: numbers, second_form_from } = page_numbers;
    let numbers_read_as_labelled = printed
        .iter()
        .zip(&numbers)
        .map(|(reads, n)| {
            n.rows.clone().filter(|&row| reads.get(row).and_then(|read| read.best()) == Some(n.move_of(row))).count()
        })
        .sum();
    if log::log_enabled!(log::Level::Debug) {
        for (reads, n) in printed.iter().zip(&numbers) {
            let read: Vec<String> = reads
                .iter()
                .map(|r| match r {
                    digits::PrintedNumber::Empty => "_".into(),
                    digits::PrintedNumber::Other => "?".into(),
                    _ => r.best().map_or("-".into(), |v| v.to_string()),
                })
                .collect();
            log::debug!("  printed numbers {}: {n:?}", read.join(" "));
        }
    }
    let mut cells = Vec::with_capacity(gcells.len());
    for mut c in gcells {
        let n = &numbers[c.block];
        if !n.rows.contains(&c.row) {
            continue;
        }
        c.mv = n.move_of(c.row);
        let sb = on_page(&c.bx);
        let ib = geom::map_box(&from_page, sb);
        let crop = cell_crop(&page, sb, 0.0);
        let clamp = |v: f64, m: u32| v.clamp(0.0, m as f64) as f32;
        let lowered = LOW_OFFSETS
            .iter()
            .zip(c.ink_low)
            .map(|(&offset, ink)| {
                let dy = offset * (sb[3] - sb[1]);
                let lb = geom::map_box(&from_page, [sb[0], sb[1] + dy, sb[2], sb[3] + dy]);
                Lowered {
                    offset,
                    box_in_input: [clamp(lb[0], gw), clamp(lb[1], gh), clamp(lb[2], gw), clamp(lb[3], gh)],
                    crop: cell_crop(&page, sb, offset),
                    blank: ink < BLANK_INK,
                }
            })
            .collect();
        cells.push(Cell {
            mv: c.mv,
            side: c.side,
            box_in_input: [clamp(ib[0], gw), clamp(ib[1], gh), clamp(ib[2], gw), clamp(ib[3], gh)],
            box_straight: [sb[0] as f32, sb[1] as f32, sb[2] as f32, sb[3] as f32],
            blank: c.ink < BLANK_INK,
            numbering_guessed: !n.printed,
            ink: c.ink as f32,
            crop,
            lowered,
        });
    }
    let blocks = gblocks
        .iter()
        .zip(&numbers)
        .filter(|(_, n)| !n.rows.is_empty())
        .map(|(b, n)| {
            // (the kept rows' span: rows left out at either end are no part of the block)
            let (top, bottom) = (b.number_cells[n.rows.start][1], b.number_cells[n.rows.end - 1][3]);
            let sb = on_page(&[b.bx[0], top, b.bx[2], bottom]);
            Block {
                first_move: n.first,
                rows: n.rows.len() as u32,
                box_straight: sb.map(|v| v as f32),
                printed_numbers: n.printed,
            }
        })
        .collect();
    Ok(Sheet {
        page,
        to_page,
        quarter_turns: fr.quarter,
        skew_deg: fr.skew,
        perspective,
        blocks,
        cells,
        second_form_unread: second_form_from.is_some(),
        numbers_read_again,
        analysis_scale: k,
        glyph_radius: radius,
        blocks_leave_ruled_width,
        blocks_placed,
        numbers_read_as_labelled,
    })
}

/// The share of the way from the print's darkness to the paper's grey above which
/// [`print_darkness_only`] takes a pixel for paper.
const PRINT_DARKNESS_SHARE: f64 = 0.3;

/// `page` with every pixel lighter than the print (the darkest grey of the printed numbers in
/// `number_cells`, boxes on the page, typically) by [`PRINT_DARKNESS_SHARE`] of the way to the
/// paper turned paper: handwriting in coloured ink or pencil lying across printed numbers goes,
/// the numbers stay. The page as it is where print and paper are close.
fn print_darkness_only(page: &GrayImage, number_cells: impl Iterator<Item = [f64; 4]>) -> GrayImage {
    let darkest_in = |bx: [f64; 4]| {
        let crop = copy_rect(
            page,
            bx[0].max(0.0) as u32,
            bx[1].max(0.0) as u32,
            (bx[2] - bx[0]) as u32,
            (bx[3] - bx[1]) as u32,
        );
        GreyHistogram::of(crop.as_raw()).level_at_rank(|total| total / 50)
    };
    let print: Vec<f64> = number_cells.filter_map(darkest_in).map(f64::from).collect();
    let Some(paper) = GreyHistogram::of(page.as_raw()).level_at_rank(|total| total / 2).map(f64::from) else {
        return page.clone();
    };
    if print.is_empty() {
        return page.clone();
    }
    let print = grid::median(print);
    if paper - print < MIN_PRINT_CONTRAST {
        return page.clone();
    }
    let lightest_print = print + PRINT_DARKNESS_SHARE * (paper - print);
    let paper = paper as u8;
    GrayImage::from_fn(page.width(), page.height(), |x, y| {
        let grey = page.get_pixel(x, y).0[0];
        image::Luma([if f64::from(grey) > lightest_print { paper.max(grey) } else { grey }])
    })
}

/// The least difference between paper and print for [`print_darkness_only`] to tell handwriting
/// from print by its grey.
const MIN_PRINT_CONTRAST: f64 = 60.0;

/// The printed move numbers of `blocks` read on `page` (boxes in the analysed frame, `on_page`
/// maps them onto it), and the rows numbered from them; with whether the numbers were read again
/// with the slower readers. `frame_height` is the analysed frame's.
fn read_and_number_rows(
    page: &GrayImage,
    on_page: &dyn Fn(&[f64; 4]) -> [f64; 4],
    gblocks: &[grid::GBlock],
    pitch: f64,
    frame_height: f64,
) -> (Vec<Vec<digits::PrintedNumber>>, numbering::PageNumbers, bool) {
    // the move numbers printed on the rows, read at full resolution, and which cells hold only
    // faint ink (the back page's print showing through: see digits::faint_cells; each cell's
    // contrast is measured once, whichever reader reads it)
    let contrasts_of =
        |cells: &[[f64; 4]]| -> Vec<f32> { cells.iter().map(|bx| digits::ink_contrast(&page, on_page(bx))).collect() };
    let read_with = |cells: &[[f64; 4]], contrasts: &[f32], read: fn(&GrayImage, [f64; 4]) -> digits::PrintedNumber| {
        let reads: Vec<digits::PrintedNumber> = cells.iter().map(|bx| read(&page, on_page(bx))).collect();
        let faint = digits::faint_cells(&reads, contrasts);
        (reads, faint)
    };
    let number_contrasts: Vec<Vec<f32>> = gblocks.iter().map(|b| contrasts_of(&b.number_cells)).collect();
    let (mut printed, mut faint): (Vec<Vec<digits::PrintedNumber>>, Vec<Vec<bool>>) = gblocks
        .iter()
        .zip(&number_contrasts)
        .map(|(b, contrasts)| read_with(&b.number_cells, contrasts, digits::read_number))
        .unzip();
    let counted: Vec<u32> = gblocks.iter().map(|b| b.first).collect();
    let rows_y: Vec<Vec<f64>> =
        gblocks.iter().map(|b| b.number_cells.iter().map(|bx| 0.5 * (bx[1] + bx[3])).collect()).collect();
    let ruled: Vec<Vec<bool>> = gblocks.iter().map(|b| b.ruled_rows.clone()).collect();
    // (a block whose last row lies under two pitches above the frame's foot has no room left for
    // the next row and the ruling under it: rows may be lost beyond; likewise at the top)
    let frame_cut: Vec<numbering::FrameCut> = rows_y
        .iter()
        .map(|ys| numbering::FrameCut {
            top: ys.first().is_some_and(|&y| y - 0.5 * pitch < FRAME_EDGE_PITCHES * pitch),
            bottom: ys.last().is_some_and(|&y| y + 0.5 * pitch > frame_height - FRAME_EDGE_PITCHES * pitch),
        })
        .collect();
    let mut page_numbers = numbering::number_page(&printed, &faint, &ruled, &counted, &rows_y, &frame_cut, pitch);
    let numbers_read_again =
        page_numbers.blocks.iter().any(|block| !block.printed) || !numbering::blocks_continue(&page_numbers.blocks);
    // (where a block's numbers do not read and its rows are counted, or the blocks' numbers do
    // not continue one another (001-030 read as 301-329 beside 031-060), every block is read again,
    // with small print enlarged, and with its cells widened too, and each keeps the surest of its
    // readings: the slower readings only on the pages the plain one fails, and for every block,
    // since each block's numbering weighs the others')
    if numbers_read_again {
        for (((block, contrasts), reads), faint) in
            gblocks.iter().zip(&number_contrasts).zip(printed.iter_mut()).zip(faint.iter_mut())
        {
            // (and in the other column that may hold the numbers: the column taken for them can be
            // a clock column whose written times look alike)
            let mut readings = vec![
                read_with(&block.number_cells, contrasts, digits::read_number_enlarged),
                read_with(&block.number_cells, contrasts, digits::read_number_widened),
            ];
            if !block.other_number_cells.is_empty() {
                let other_contrasts = contrasts_of(&block.other_number_cells);
                readings.push(read_with(&block.other_number_cells, &other_contrasts, digits::read_number));
                readings.push(read_with(&block.other_number_cells, &other_contrasts, digits::read_number_enlarged));
            }
            for (again, faint_again) in readings {
                if numbering::reading_sureness(&again) > numbering::reading_sureness(reads) {
                    *reads = again;
                    *faint = faint_again;
                }
            }
        }
        page_numbers = numbering::number_page(&printed, &faint, &ruled, &counted, &rows_y, &frame_cut, pitch);
    }
    let titled: Vec<bool> = gblocks.iter().map(|b| b.titled_top).collect();
    numbering::leave_out_titled_headings(&mut page_numbers.blocks, &printed, &titled);
    let unseen: Vec<grid::RowsAtTheEnds> = gblocks.iter().map(|b| b.rows_numbers_unseen).collect();
    numbering::leave_out_rows_whose_numbers_do_not_read(&mut page_numbers.blocks, &printed, &unseen);
    (printed, page_numbers, numbers_read_again)
}

/// Measures the ink of the cells of the blocks `placed` (indexes) on `page` as the table's
/// analysis measures it: in the glyphs' binary of the page downscaled by `scale`, whose origin
/// lies at `origin` in the analysed frame.
fn ink_placed_cells(
    page: &GrayImage,
    scale: u32,
    radius: usize,
    origin: (f64, f64),
    placed: &[usize],
    cells: &mut [grid::GCell],
) {
    let glyphs = analysed_glyphs(page, scale, radius);
    for cell in cells.iter_mut().filter(|cell| placed.contains(&cell.block)) {
        let bx = [cell.bx[0] - origin.0, cell.bx[1] - origin.1, cell.bx[2] - origin.0, cell.bx[3] - origin.1];
        cell.ink = grid::ink_fraction(&glyphs, bx);
        cell.ink_low = LOW_OFFSETS.map(|offset| grid::ink_fraction_lowered(&glyphs, bx, offset));
    }
}

/// The glyphs' binary of `page` as the table's analysis makes it: downscaled by `scale`,
/// binarized with a window of `radius` (what a cell's ink is measured in).
fn analysed_glyphs(page: &GrayImage, scale: u32, radius: usize) -> Bin {
    let (small, _) = lines::downscale(page, scale);
    lines::binarize(&small, radius)
}

/// How many pixels of each grey level a set of pixels holds.
struct GreyHistogram {
    counts: [u64; 256],
    total: u64,
}

impl GreyHistogram {
    fn of(levels: &[u8]) -> GreyHistogram {
        let mut counts = [0u64; 256];
        for &level in levels {
            counts[usize::from(level)] += 1;
        }
        GreyHistogram { counts, total: levels.len() as u64 }
    }

    /// The darkest level at which `count` pixels, counted from black, are reached (255 where they
    /// never are).
    fn level_reached_by(&self, count: f64) -> u8 {
        let mut seen = 0u64;
        (0..=255u8)
            .find(|&level| {
                seen += self.counts[usize::from(level)];
                seen as f64 >= count
            })
            .unwrap_or(255)
    }

    /// The level of the pixel at the rank `rank_of(total)` (0 the darkest) in the pixels sorted
    /// by grey; `None` where there is no pixel.
    fn level_at_rank(&self, rank_of: impl Fn(u64) -> u64) -> Option<u8> {
        (self.total > 0).then(|| self.level_reached_by((rank_of(self.total) + 1) as f64))
    }
}

/// The crop of the cell at `sb` (box in `page`) with its margin, the window moved down by
/// `offset` of the cell's height.
fn cell_crop(page: &GrayImage, sb: [f64; 4], offset: f64) -> GrayImage {
    let (pw, ph) = page.dimensions();
    let (cw, chh) = (sb[2] - sb[0], sb[3] - sb[1]);
    let (ex, ey) = (0.06 * cw, 0.2 * chh);
    let dy = offset * chh;
    let cx0 = (sb[0] - ex).max(0.0) as u32;
    let cy0 = ((sb[1] + dy - ey).max(0.0) as u32).min(ph.saturating_sub(1));
    let cx1 = ((sb[2] + ex) as u32).min(pw);
    let cy1 = ((sb[3] + dy + ey) as u32).min(ph);
    copy_rect(page, cx0, cy0, cx1.saturating_sub(cx0).max(1), cy1.saturating_sub(cy0).max(1))
}

/// The `w` x `h` rectangle of `page` at (`x0`, `y0`), clipped to the page (as
/// `imageops::crop_imm(..).to_image()`, row by row rather than pixel by pixel).
fn copy_rect(page: &GrayImage, x0: u32, y0: u32, w: u32, h: u32) -> GrayImage {
    let (pw, ph) = page.dimensions();
    let (x0, y0) = (x0.min(pw), y0.min(ph));
    let (w, h) = (w.min(pw - x0) as usize, h.min(ph - y0) as usize);
    let mut data = Vec::with_capacity(w * h);
    for row in page.as_raw().chunks_exact(pw as usize).skip(y0 as usize).take(h) {
        data.extend_from_slice(&row[x0 as usize..x0 as usize + w]);
    }
    GrayImage::from_raw(w as u32, h as u32, data).expect("a buffer of the rectangle's size")
}

impl Sheet {
    /// The sheet of an image read enlarged `factor` times, in the original image's pixels: the
    /// boxes in the input divided by `factor` (the straightened page stays enlarged).
    fn reduced(mut self, factor: u32) -> Sheet {
        let f = factor as f32;
        let shrink = |bx: &mut [f32; 4]| bx.iter_mut().for_each(|v| *v /= f);
        for cell in &mut self.cells {
            shrink(&mut cell.box_in_input);
            cell.lowered.iter_mut().for_each(|low| shrink(&mut low.box_in_input));
        }
        self.to_page = self.to_page.after(&Homography::scale(factor as f64));
        self
    }

    /// The sheet read from a `width` x `height` image turned upside down, in the image's own
    /// pixels: boxes in the input turned back, the turn added to the transform and the turns.
    fn turned_back(mut self, width: u32, height: u32) -> Sheet {
        let (w, h) = (width as f32, height as f32);
        let turn = |bx: &mut [f32; 4]| *bx = [w - bx[2], h - bx[3], w - bx[0], h - bx[1]];
        for cell in &mut self.cells {
            turn(&mut cell.box_in_input);
            cell.lowered.iter_mut().for_each(|low| turn(&mut low.box_in_input));
        }
        let upside_down = Homography([-1.0, 0.0, width as f64, 0.0, -1.0, height as f64, 0.0, 0.0, 1.0]);
        self.to_page = self.to_page.after(&upside_down);
        self.quarter_turns = (self.quarter_turns + 2) % 4;
        self
    }

    /// The sheet with its page, crops and cells' ink taken from `grey`, the input image it was
    /// not read from (a sheet read from [`print_image`], whose handwriting is pale): the same
    /// boxes, the page warped again, each cell's ink measured as the table's analysis measures it.
    fn inked_from(mut self, grey: &GrayImage) -> Sheet {
        let stretched = stretch_pale_page(grey);
        let grey = stretched.as_ref().unwrap_or(grey);
        let Some(from_page) = self.to_page.inverse() else { return self };
        let (pw, ph) = self.page.dimensions();
        self.page = geom::warp_gray(grey, &from_page, pw, ph);
        let glyphs = analysed_glyphs(&self.page, self.analysis_scale, self.glyph_radius);
        let scale = f64::from(self.analysis_scale);
        for cell in &mut self.cells {
            let on_page = cell.box_straight.map(f64::from);
            let analysed = on_page.map(|v| v / scale);
            let ink = grid::ink_fraction(&glyphs, analysed);
            cell.crop = cell_crop(&self.page, on_page, 0.0);
            cell.ink = ink as f32;
            cell.blank = ink < BLANK_INK;
            for low in &mut cell.lowered {
                low.crop = cell_crop(&self.page, on_page, low.offset);
                low.blank = grid::ink_fraction_lowered(&glyphs, analysed, low.offset) < BLANK_INK;
            }
        }
        self
    }

    /// The blocks' median distance between rows, in pixels of [`Sheet::page`]; `None` without a
    /// block.
    fn row_pitch(&self) -> Option<f64> {
        let pitches: Vec<f64> = self
            .blocks
            .iter()
            .filter(|block| block.rows > 0)
            .map(|block| f64::from(block.box_straight[3] - block.box_straight[1]) / f64::from(block.rows))
            .collect();
        (!pitches.is_empty()).then(|| grid::median(pitches))
    }

    /// The overlay picture: the straightened page with every cell's box and label drawn on it.
    pub fn overlay(&self) -> RgbImage {
        overlay(self)
    }

    /// The cell for `(mv, side)`, if the sheet has one.
    pub fn cell(&self, mv: u32, side: Side) -> Option<&Cell> {
        self.cells.iter().find(|c| c.mv == mv && c.side == side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame at quarter turn `quarter` in which no table is found.
    fn frame_turned(quarter: u32) -> Frame {
        Frame {
            h: Homography::IDENTITY,
            w: 1,
            hh: 1,
            quarter,
            skew: 0.0,
            perspective: false,
            hsum: 0.0,
            grid: grid::Grid::NotFound(String::new()),
            straightened: None,
            ruled_span: (0.0, 0.0),
        }
    }

    #[test]
    fn every_quarter_turn_is_looked_at_once_with_the_frames_made_taken_at_their_own_turns() {
        // (the quarter-turned frame first, as it holds more ruled length across, the upright
        // one made already: it is looked at last, and upside down is made)
        let mut made_here = Vec::new();
        let turns: Vec<u32> = frames_by_turn([Some(frame_turned(1)), Some(frame_turned(0))], |q| {
            made_here.push(q);
            frame_turned(q)
        })
        .map(|f| f.quarter)
        .collect();
        assert_eq!(turns, vec![1, 3, 2, 0]);
        assert_eq!(made_here, vec![3, 2]);
        let mut made_here = Vec::new();
        let turns: Vec<u32> = frames_by_turn([Some(frame_turned(0)), None], |q| {
            made_here.push(q);
            frame_turned(q)
        })
        .map(|f| f.quarter)
        .collect();
        assert_eq!((turns, made_here), (vec![0, 2, 1, 3], vec![2, 1, 3]));
    }

    #[test]
    fn the_print_image_pales_coloured_ink_and_lets_nothing_be_darker_than_its_floor() {
        let pixels = [[30, 30, 30], [22, 38, 120], [20, 110, 60], [200, 200, 200], [250, 240, 200]];
        let mut img = RgbImage::new(pixels.len() as u32, 1);
        for (x, p) in pixels.iter().enumerate() {
            img.put_pixel(x as u32, 0, image::Rgb(*p));
        }
        let print = print_image(&img, 120);
        let levels: Vec<u8> = print.pixels().map(|p| p.0[0]).collect();
        assert_eq!(levels, [120, 120, 120, 200, 250]);
        let blue_gel = print_image(&RgbImage::from_pixel(1, 1, image::Rgb([20, 60, 190])), 120);
        assert_eq!(blue_gel.get_pixel(0, 0).0[0], 190, "blue ink comes out pale");
    }

    #[test]
    fn a_sheet_inked_from_an_image_takes_its_page_crops_and_ink_from_it() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hcs_001_0.jpg");
        let grey = image::open(path).unwrap().to_luma8();
        let sheet = segment_gray(&grey).unwrap();
        // (from the image it was read from: the ink measured as the analysis measures it)
        let again = sheet.clone().inked_from(&grey);
        let agree = sheet.cells.iter().zip(&again.cells).filter(|(a, b)| a.blank == b.blank).count();
        assert!(agree * 100 >= sheet.cells.len() * 98, "{agree} of {} blank flags agree", sheet.cells.len());
        assert!(sheet.cells.iter().any(|c| !c.blank) && sheet.cells.iter().any(|c| c.blank));
        // (from a blank page: every cell blank, every crop the paper; the warp leaves white what
        // lies outside the image)
        let paper = GrayImage::from_pixel(grey.width(), grey.height(), image::Luma([230]));
        let emptied = sheet.inked_from(&paper);
        assert!(emptied.cells.iter().all(|c| c.blank && c.lowered.iter().all(|low| low.blank)));
        let paper_or_outside = |p: &image::Luma<u8>| p.0[0].abs_diff(230) <= 1 || p.0[0] == 255;
        assert!(emptied.cells.iter().all(|c| c.crop.pixels().all(paper_or_outside)));
        assert!(emptied.page.pixels().all(paper_or_outside));
    }

    /// The sample HCS page `tests/data/hcs_001_0.jpg` as the page stage reads it.
    fn hcs_001_0_read() -> Sheet {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hcs_001_0.jpg");
        segment_gray(&image::open(path).unwrap().to_luma8()).unwrap()
    }

    #[test]
    fn a_reading_that_gives_two_rows_one_label_reads_no_more_for_it() {
        let sheet = hcs_001_0_read();
        // (a second copy of moves 1-10 beside the first: more cells, no more labels)
        let mut repeating = sheet.clone();
        repeating.cells.extend(sheet.cells.iter().filter(|c| c.mv <= 10).cloned());
        assert_eq!(rows_read(&repeating), rows_read(&sheet));
        assert_eq!(repeated_labels(&repeating), 20);
        assert!(reads_more_and_no_fewer(&sheet, &repeating));
        assert!(!reads_more_and_no_fewer(&repeating, &sheet));
    }

    #[test]
    fn of_two_readings_with_blocks_placed_alike_the_one_whose_numbers_read_as_labelled_reads_more() {
        let sheet = hcs_001_0_read();
        let with = |placed: usize, read: usize| Sheet {
            blocks_placed: placed,
            numbers_read_as_labelled: read,
            ..sheet.clone()
        };
        // (a copy placed off the printed numbers reads fewer of them than one placed on them)
        assert!(reads_more_and_no_fewer(&with(1, 58), &with(1, 50)));
        assert!(!reads_more_and_no_fewer(&with(1, 50), &with(1, 58)));
        // (a block found still reads more than a block placed; with none placed, a few numbers
        // more read as labelled are no reason to take one of two readings alike)
        assert!(reads_more_and_no_fewer(&with(0, 50), &with(1, 58)));
        assert!(!reads_more_and_no_fewer(&with(0, 53), &with(0, 50)));
    }

    #[test]
    fn a_reading_whose_rows_read_their_labels_clearly_more_reads_more_than_one_a_row_longer() {
        // the page's 60 rows, against a reading of a row more, a row split in two by ink, each
        // row below it labelled one too high: its printed numbers read as labelled in the rows
        // above the split only
        let found = hcs_001_0_read();
        let last = found.blocks.iter().map(|block| block.first_move + block.rows).max().unwrap();
        let mut split = found.clone();
        for side in [Side::White, Side::Black] {
            split.cells.push(Cell { mv: last, side, ..found.cells[0].clone() });
        }
        let found = Sheet { numbers_read_as_labelled: 58, ..found };
        assert!(reads_more_and_no_fewer(&found, &Sheet { numbers_read_as_labelled: 30, ..split.clone() }));
        // (with as many rows reading their labels, the longer reading reads more)
        assert!(!reads_more_and_no_fewer(&found, &Sheet { numbers_read_as_labelled: 56, ..split.clone() }));
        assert!(reads_more_and_no_fewer(&Sheet { numbers_read_as_labelled: 56, ..split }, &found));
    }

    #[test]
    fn a_block_placed_beside_blocks_found_and_read_whole_reads_no_more() {
        // the page's blocks, found and numbered from their printed numbers one after another,
        // against the same with a block of two rows more placed beside them
        let found = hcs_001_0_read();
        assert!(found_whole(&found), "{:?}", found.blocks);
        let last = found.blocks.iter().map(|block| block.first_move + block.rows).max().unwrap();
        let mut more = found.clone();
        for (mv, side) in [(last, Side::White), (last, Side::Black), (last + 1, Side::White), (last + 1, Side::Black)] {
            more.cells.push(Cell { mv, side, ..found.cells[0].clone() });
        }
        let placed = Sheet { blocks_placed: 1, ..more.clone() };
        assert!(!reads_more_and_no_fewer(&placed, &found));
        // (two rows more found, none placed, still read more)
        assert!(reads_more_and_no_fewer(&more, &found));
    }

    #[test]
    fn a_reading_found_whole_reads_more_than_one_counting_a_block_a_row_on() {
        // the page's blocks numbered from their printed numbers, against a reading that counts
        // its last block's rows on from a row more (a result line under the block above)
        let found = hcs_001_0_read();
        assert!(found_whole(&found), "{:?}", found.blocks);
        let last_block = found.blocks.iter().map(|block| block.first_move).max().unwrap();
        let mut counted = found.clone();
        for block in counted.blocks.iter_mut().filter(|block| block.first_move == last_block) {
            block.first_move += 1;
            block.printed_numbers = false;
        }
        for cell in counted.cells.iter_mut().filter(|cell| cell.mv >= last_block) {
            cell.mv += 1;
            cell.numbering_guessed = true;
        }
        // (the result line, read as the block above's last row from its own printed number)
        let result_line: Vec<Cell> = counted.cells.iter().filter(|cell| cell.mv == last_block + 1).cloned().collect();
        counted.cells.extend(result_line.into_iter().map(|cell| Cell {
            mv: last_block,
            numbering_guessed: false,
            ..cell
        }));
        assert!(!found_whole(&counted));
        assert!(rows_read(&counted).0 < rows_read(&found).0 && rows_read(&counted).1 > rows_read(&found).1);
        assert!(reads_more_and_no_fewer(&found, &counted));
        assert!(!reads_more_and_no_fewer(&counted, &found));
        // (one that holds under nine tenths of a reading's labels does not: rows counted on
        // below the table, where the reading found whole lost a block)
        let mut counted_on_further = counted.clone();
        let extra = counted.cells.len() / 8;
        let further = counted.cells[..extra].iter().enumerate().map(|(i, cell)| Cell {
            mv: 1000 + i as u32,
            numbering_guessed: true,
            ..cell.clone()
        });
        counted_on_further.cells.extend(further.collect::<Vec<_>>());
        assert!(rows_read(&found).1 * 10 < rows_read(&counted_on_further).1 * 9);
        assert!(!reads_more_and_no_fewer(&found, &counted_on_further));
    }

    #[test]
    fn a_reading_found_whole_reads_more_than_one_counting_twice_the_rows() {
        // every row split in two (the dashes of long algebraic moves read as rulings), the
        // half-rows counted from 1: twice the labels, none from a printed number
        let found = hcs_001_0_read();
        assert!(found_whole(&found), "{:?}", found.blocks);
        let mut halves = found.clone();
        halves.cells = found
            .cells
            .iter()
            .flat_map(|cell| {
                [2 * cell.mv - 1, 2 * cell.mv].map(|mv| Cell { mv, numbering_guessed: true, ..cell.clone() })
            })
            .collect();
        for block in &mut halves.blocks {
            block.printed_numbers = false;
        }
        assert_eq!(rows_read(&halves), (0, 2 * rows_read(&found).1));
        assert!(reads_more_and_no_fewer(&found, &halves));
        assert!(!reads_more_and_no_fewer(&halves, &found));
    }

    #[test]
    fn a_copied_rectangle_equals_the_image_crate_crop_clipped_at_the_page() {
        let page = GrayImage::from_fn(37, 23, |x, y| image::Luma([(x * 7 + y * 13) as u8]));
        for (x, y, w, h) in [(0, 0, 37, 23), (5, 3, 10, 8), (30, 20, 20, 20), (36, 22, 1, 1), (40, 30, 5, 5)] {
            let expected = image::imageops::crop_imm(&page, x, y, w, h).to_image();
            assert_eq!(copy_rect(&page, x, y, w, h), expected, "rectangle {x} {y} {w} {h}");
        }
    }
}
