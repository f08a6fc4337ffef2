//! The printed-digit reader: reads the move number printed in a number cell.
//!
//! A printed digit is told by its shape alone. Each glyph found in a number cell is scaled into a
//! small box of ink shares and compared with the digits 0-9 drawn in the fonts forms are printed
//! in (Arial- and Times-like faces, DejaVu's sans, serif, bold and condensed faces; see
//! `assets/fonts/digits/README.md`); the nearest drawing names the digit, and the distances to
//! every digit are kept, so that a move number the numbering expects can be scored even where
//! the nearest drawing names another.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, PxScale};
use image::GrayImage;

/// Size of the box a glyph is scaled into (width, height).
const SHAPE_W: usize = 12;
const SHAPE_H: usize = 18;
type Shape = [f32; SHAPE_W * SHAPE_H];

/// A glyph whose nearest digit drawing is further than this (one less their correlation) is no
/// printed digit: a letter of a heading ("No", "Move"), a check box, a writer's stroke.
const NOT_A_DIGIT: f32 = 0.5;

/// Sizes (pixels a line) digits are also drawn at, for print that a scan or a photo renders small.
const SMALL_PRINT: [f32; 2] = [13.0, 18.0];

/// Ink share above which a pixel belongs to a glyph: low enough that the hairlines of a bold
/// serif digit hold it together.
const PIECE_INK: f32 = 0.25;
/// Ink share a piece must reach somewhere to be a glyph (a printed stroke has a dark core; the
/// grain of the paper has none).
const CORE_INK: f32 = 0.65;

/// Most digits a printed move number has.
const MAX_DIGITS: usize = 3;

/// The fonts digits are drawn in.
static FONTS: &[&[u8]] = &[
    include_bytes!("../../assets/fonts/digits/LiberationSans-Regular.ttf"),
    include_bytes!("../../assets/fonts/digits/LiberationSerif-Regular.ttf"),
    include_bytes!("../../assets/fonts/digits/LiberationSerif-Bold.ttf"),
    include_bytes!("../../assets/fonts/digits/DejaVuSans.ttf"),
    include_bytes!("../../assets/fonts/digits/DejaVuSansCondensed-Bold.ttf"),
    include_bytes!("../../assets/fonts/digits/DejaVuSerifCondensed.ttf"),
    include_bytes!("../../assets/fonts/digits/DejaVuSerif.ttf"),
    include_bytes!("../../assets/fonts/digits/DejaVuSerif-Bold.ttf"),
    include_bytes!("../../assets/fonts/digits/DejaVuSans-Bold.ttf"),
    include_bytes!("../../assets/fonts/digits/DejaVuSansCondensed.ttf"),
    // (a "1" without a foot, as Arial and Helvetica print it: Liberation's and DejaVu's have one)
    include_bytes!("../../assets/fonts/digits/Roboto-Regular.ttf"),
    include_bytes!("../../assets/fonts/digits/Roboto-Bold.ttf"),
];

/// The fonts of [`FONTS`] cut to the digits from the printed fonts the synthetic forms use
/// (`assets/fonts`), by file name.
#[cfg(test)]
const CUT_FROM_FORM_FONTS: [&str; 4] =
    ["DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansCondensed.ttf"];

/// The digits 0-9 drawn in every font, each also a little bolder (print and scans thicken
/// strokes), laid out pixel by pixel: for each pixel of the shape box, that pixel of every
/// drawing in a row. A glyph's correlation with every drawing is then a sum of scaled rows, which
/// the compiler keeps in vector registers (a dot product per drawing is a float sum it may not
/// reorder).
struct Drawings {
    /// The digit each drawing shows.
    digit: Vec<u8>,
    /// `SHAPE_LEN` rows of `digit.len()` ink values.
    by_pixel: Vec<f32>,
}

/// Pixels of the shape box.
const SHAPE_LEN: usize = SHAPE_W * SHAPE_H;

/// The digit drawings, made once (at the first number read).
fn drawings() -> &'static Drawings {
    static DRAWINGS: OnceLock<Drawings> = OnceLock::new();
    DRAWINGS.get_or_init(|| {
        let mut shapes: Vec<(u8, Shape)> = Vec::new();
        for data in FONTS {
            let Ok(font) = FontRef::try_from_slice(data) else { continue };
            for digit in 0..10u8 {
                let Some(ink) = draw_digit(&font, digit, 64.0) else { continue };
                shapes.push((digit, shape_of(&ink)));
                let bold = ink.thickened().thickened();
                shapes.push((digit, shape_of(&bold)));
                shapes.push((digit, shape_of(&bold.thickened().thickened())));
                // (small print, as a scan or a photo renders it: a dozen pixels high, blurred)
                for px in SMALL_PRINT {
                    if let Some(small) = draw_digit(&font, digit, px) {
                        shapes.push((digit, shape_of(&small)));
                        shapes.push((digit, shape_of(&small.smoothed().stretched())));
                    }
                }
            }
        }
        let count = shapes.len();
        let mut by_pixel = vec![0f32; SHAPE_LEN * count];
        for (i, (_, shape)) in shapes.iter().enumerate() {
            for (pixel, &ink) in shape.iter().enumerate() {
                by_pixel[pixel * count + i] = ink;
            }
        }
        Drawings { digit: shapes.iter().map(|(digit, _)| *digit).collect(), by_pixel }
    })
}

/// Ink shares (0..1) of a small image, row by row.
#[derive(Clone, Debug)]
struct InkMap {
    w: usize,
    h: usize,
    ink: Vec<f32>,
}

impl InkMap {
    fn at(&self, x: usize, y: usize) -> f32 {
        self.ink[y * self.w + x]
    }

    /// Each pixel the mean of its 3x3 neighbourhood: specks of a grainy paper fade, strokes stay.
    fn smoothed(&self) -> InkMap {
        let mut out = self.clone();
        for y in 0..self.h {
            for x in 0..self.w {
                let (mut sum, mut n) = (0.0, 0.0);
                for yy in y.saturating_sub(1)..(y + 2).min(self.h) {
                    for xx in x.saturating_sub(1)..(x + 2).min(self.w) {
                        sum += self.at(xx, yy);
                        n += 1.0;
                    }
                }
                out.ink[y * self.w + x] = sum / n;
            }
        }
        out
    }

    /// Ink shares scaled so that the darkest is 1.
    fn stretched(&self) -> InkMap {
        let darkest = self.ink.iter().copied().fold(0.0, f32::max);
        let mut out = self.clone();
        if darkest > 0.0 {
            out.ink.iter_mut().for_each(|v| *v /= darkest);
        }
        out
    }

    /// Each pixel the darkest of itself and its four neighbours.
    fn thickened(&self) -> InkMap {
        let mut out = self.clone();
        for y in 0..self.h {
            for x in 0..self.w {
                let mut m = self.at(x, y);
                if x > 0 {
                    m = m.max(self.at(x - 1, y));
                }
                if x + 1 < self.w {
                    m = m.max(self.at(x + 1, y));
                }
                if y > 0 {
                    m = m.max(self.at(x, y - 1));
                }
                if y + 1 < self.h {
                    m = m.max(self.at(x, y + 1));
                }
                out.ink[y * self.w + x] = m;
            }
        }
        out
    }
}

/// `digit` drawn at `px` pixels a line in `font`, cropped to its ink.
fn draw_digit(font: &FontRef, digit: u8, px: f32) -> Option<InkMap> {
    let glyph = font.glyph_id((b'0' + digit) as char).with_scale(PxScale::from(px));
    let outlined = font.outline_glyph(glyph)?;
    let bounds = outlined.px_bounds();
    let (w, h) = (bounds.width().ceil() as usize + 1, bounds.height().ceil() as usize + 1);
    let mut map = InkMap { w, h, ink: vec![0.0; w * h] };
    outlined.draw(|x, y, c| {
        let (x, y) = (x as usize, y as usize);
        if x < w && y < h {
            map.ink[y * w + x] = c.clamp(0.0, 1.0);
        }
    });
    crop_to_ink(&map)
}

/// The part of `map` holding ink (above a tenth), or None when there is none.
fn crop_to_ink(map: &InkMap) -> Option<InkMap> {
    let inked = |x: usize, y: usize| map.at(x, y) > 0.1;
    let rows: Vec<usize> = (0..map.h).filter(|&y| (0..map.w).any(|x| inked(x, y))).collect();
    let cols: Vec<usize> = (0..map.w).filter(|&x| (0..map.h).any(|y| inked(x, y))).collect();
    let (&y0, &y1, &x0, &x1) = (rows.first()?, rows.last()?, cols.first()?, cols.last()?);
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let ink = (y0..=y1).flat_map(|y| (x0..=x1).map(move |x| (x, y))).map(|(x, y)| map.at(x, y)).collect();
    Some(InkMap { w, h, ink })
}

/// A glyph scaled into the shape box: its height fills the box, its width keeps the glyph's
/// proportions (a "1" stays narrow) up to the box's width, centred; then blurred a little, so
/// that strokes a pixel apart still overlap.
fn shape_of(glyph: &InkMap) -> Shape {
    let scale = SHAPE_H as f32 / glyph.h as f32;
    let w = ((glyph.w as f32 * scale).round() as usize).clamp(1, SHAPE_W);
    let x_off = (SHAPE_W - w) / 2;
    let mut box_ink = [0f32; SHAPE_W * SHAPE_H];
    // area sampling: each box pixel averages the glyph pixels it covers
    let (sx, sy) = (glyph.w as f32 / w as f32, glyph.h as f32 / SHAPE_H as f32);
    for by in 0..SHAPE_H {
        for bx in 0..w {
            let (gx0, gx1) = ((bx as f32 * sx) as usize, (((bx + 1) as f32 * sx).ceil() as usize).min(glyph.w));
            let (gy0, gy1) = ((by as f32 * sy) as usize, (((by + 1) as f32 * sy).ceil() as usize).min(glyph.h));
            let mut sum = 0.0;
            let mut n = 0;
            for gy in gy0..gy1.max(gy0 + 1).min(glyph.h) {
                for gx in gx0..gx1.max(gx0 + 1).min(glyph.w) {
                    sum += glyph.at(gx, gy);
                    n += 1;
                }
            }
            box_ink[by * SHAPE_W + bx + x_off] = if n > 0 { sum / n as f32 } else { 0.0 };
        }
    }
    normalized(&blur(&blur(&box_ink)))
}

/// A shape less its mean ink, scaled to unit length: shapes then compare by their correlation,
/// whatever the stroke weight and contrast of the print.
fn normalized(s: &Shape) -> Shape {
    let mean = s.iter().sum::<f32>() / s.len() as f32;
    let mut out = s.map(|v| v - mean);
    let norm = out.iter().map(|v| v * v).sum::<f32>().sqrt();
    if norm > 0.0 {
        out.iter_mut().for_each(|v| *v /= norm);
    }
    out
}

/// A 3x3 binomial blur of a shape.
fn blur(s: &Shape) -> Shape {
    let mut out = [0f32; SHAPE_W * SHAPE_H];
    for y in 0..SHAPE_H {
        for x in 0..SHAPE_W {
            let mut sum = 0.0;
            let mut weight = 0.0;
            for dy in -1i32..=1 {
                for dx in -1i32..=1 {
                    let (xx, yy) = (x as i32 + dx, y as i32 + dy);
                    if xx >= 0 && yy >= 0 && (xx as usize) < SHAPE_W && (yy as usize) < SHAPE_H {
                        let k = [1.0, 2.0, 1.0][(dx + 1) as usize] * [1.0, 2.0, 1.0][(dy + 1) as usize];
                        sum += k * s[yy as usize * SHAPE_W + xx as usize];
                        weight += k;
                    }
                }
            }
            out[y * SHAPE_W + x] = sum / weight;
        }
    }
    out
}

/// Distance of a glyph's shape to each digit: to the nearest drawing of that digit, one less
/// their correlation.
fn digit_distances(shape: &Shape) -> [f32; 10] {
    let drawings = drawings();
    let count = drawings.digit.len();
    let mut correlation = vec![0f32; count];
    for (&ink, row) in shape.iter().zip(drawings.by_pixel.chunks_exact(count)) {
        for (sum, &drawn) in correlation.iter_mut().zip(row) {
            *sum += ink * drawn;
        }
    }
    let mut best = [f32::MAX; 10];
    for (&digit, c) in drawings.digit.iter().zip(correlation) {
        let slot = &mut best[digit as usize];
        *slot = slot.min(1.0 - c);
    }
    best
}

/// What a number cell shows.
#[derive(Clone, Debug, PartialEq)]
pub enum PrintedNumber {
    /// No printed glyph: an empty cell (a heading's, a footer's, a table without numbers).
    Empty,
    /// Glyphs that are no printed move number: letters, marks, more than three glyphs.
    Other,
    /// One to three glyphs, each with its distance to every digit (left to right).
    Digits(Vec<[f32; 10]>),
}

impl PrintedNumber {
    /// The number the nearest drawings spell.
    pub fn best(&self) -> Option<u32> {
        let PrintedNumber::Digits(glyphs) = self else { return None };
        let digits = glyphs.iter().map(|d| nearest(d).0);
        Some(digits.fold(0, |n, d| n * 10 + d))
    }

    /// How well `n` fits the glyphs: its digits' distances less the nearest drawings', summed
    /// (0 where `n` is what the glyphs read); None where `n` has another count of digits.
    pub fn extra_cost(&self, n: u32) -> Option<f32> {
        let PrintedNumber::Digits(glyphs) = self else { return None };
        // (no string: the numbering asks this for every start of every block)
        let len = super::grid::digits(n);
        if len != glyphs.len() {
            return None;
        }
        let digit = |i: usize| ((n / 10u32.pow((len - 1 - i) as u32)) % 10) as usize;
        let cost = glyphs.iter().enumerate().map(|(i, d)| d[digit(i)] - nearest(d).1).sum();
        Some(cost)
    }

    /// How many digits were read (0 where no number was).
    pub(super) fn digit_count(&self) -> usize {
        let PrintedNumber::Digits(glyphs) = self else { return 0 };
        glyphs.len()
    }

    /// How far the glyphs are from their nearest drawings, on average; infinite where the cell
    /// shows no digits.
    fn mean_distance(&self) -> f32 {
        let PrintedNumber::Digits(glyphs) = self else { return f32::INFINITY };
        glyphs.iter().map(|d| nearest(d).1).sum::<f32>() / glyphs.len() as f32
    }
}

/// The nearest digit and its distance.
fn nearest(d: &[f32; 10]) -> (u32, f32) {
    (0..10u32).map(|i| (i, d[i as usize])).min_by(|a, b| a.1.total_cmp(&b.1)).unwrap_or((0, f32::MAX))
}

/// A connected piece of ink: its box (inclusive) and pixel count.
#[derive(Clone, Copy, Debug)]
struct Piece {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
    pixels: usize,
}

impl Piece {
    fn w(&self) -> usize {
        self.x1 - self.x0 + 1
    }
    fn h(&self) -> usize {
        self.y1 - self.y0 + 1
    }
    fn merge(&mut self, o: &Piece) {
        self.x0 = self.x0.min(o.x0);
        self.y0 = self.y0.min(o.y0);
        self.x1 = self.x1.max(o.x1);
        self.y1 = self.y1.max(o.y1);
        self.pixels += o.pixels;
    }
}

/// Printed glyphs lower than this (pixels) are read again enlarged ([`read_number_enlarged`]): a
/// number printed a dozen pixels high runs its strokes together at its own size, and a scan's or
/// a photo's blur widens them (a blurred "1" or "3" takes the proportions of an "8").
const SMALL_GLYPH: usize = 22;
/// The height small glyphs are enlarged to, at least.
const ENLARGED_GLYPH: f64 = 28.0;
/// How much of its width a number cell is widened by on each side when it is read again.
const WIDENED_SHARE: f64 = 0.15;
/// Ink shares a blurred glyph is sharpened between, each way tried: below the first is paper,
/// above the second full ink. The grey fringe a blur spreads about each stroke goes, the
/// stroke's core stays; the second way for heavier blur (a photo out of focus), which fills the
/// openings of 2, 3, 5, 6 and 9 and makes each an 8.
const SHARPENINGS: [[f32; 2]; 2] = [[0.5, 0.85], [0.7, 0.95]];
/// How much nearer its drawings the heavier sharpening's reading must be than the best other one.
const HEAVY_MARGIN: f32 = 0.9;

/// Reads the number printed in the cell `bx` (`[x0, y0, x1, y1]`, between the cell's rulings)
/// of a grey page.
pub fn read_number(page: &GrayImage, bx: [f64; 4]) -> PrintedNumber {
    read_number_at_its_size(page, bx, None).0
}

/// [`read_number`], with small print read again enlarged: slower, for the blocks whose numbers
/// [`read_number`] does not make out.
pub fn read_number_enlarged(page: &GrayImage, bx: [f64; 4]) -> PrintedNumber {
    let (read, glyph_height) = read_number_at_its_size(page, bx, None);
    let Some(height) = glyph_height.filter(|&h| h < SMALL_GLYPH) else { return read };
    // (enlarged, read as it is and sharpened each way; the reading the drawings fit best wins:
    // sharpening restores blurred print and thins crisp print's hairlines)
    let factor = (ENLARGED_GLYPH / height.max(1) as f64).ceil();
    let (enlarged, enlarged_box) = enlarged_cell(page, bx, factor);
    // (a sharpening that leaves no ink says nothing of the cell: faint print is not blank; the
    // heavier one, which can wipe out thin strokes (the "2" of a small 24, read as 4), only
    // where it keeps the digits of the lighter one and fits the drawings clearly better)
    let [light, heavy] = SHARPENINGS.map(|s| read_number_at_its_size(&enlarged, enlarged_box, Some(s)).0);
    let keeps_the_digits = heavy.digit_count() >= light.digit_count();
    let mut best = read_number_at_its_size(&enlarged, enlarged_box, None).0;
    if light != PrintedNumber::Empty && light.mean_distance() <= best.mean_distance() {
        best = light;
    }
    if keeps_the_digits && heavy != PrintedNumber::Empty && heavy.mean_distance() < HEAVY_MARGIN * best.mean_distance()
    {
        best = heavy;
    }
    best
}

/// [`read_number_enlarged`] on the cell widened by [`WIDENED_SHARE`] of its width on each side:
/// a number column's ruling can be found inside its numbers' first digits (where the stacked
/// leading zeros of 001-030 and the edges of rounded number boxes blur into one line), and the
/// cell between the rulings then cuts each first "0" into a "3".
pub fn read_number_widened(page: &GrayImage, bx: [f64; 4]) -> PrintedNumber {
    let more = WIDENED_SHARE * (bx[2] - bx[0]);
    read_number_enlarged(page, [bx[0] - more, bx[1], bx[2] + more, bx[3]])
}

/// The part of `page` about the cell `bx` enlarged `factor` times (bicubic), with the cell's box
/// in it.
fn enlarged_cell(page: &GrayImage, bx: [f64; 4], factor: f64) -> (GrayImage, [f64; 4]) {
    let (pw, ph) = page.dimensions();
    // (a pixel of margin beyond the box, so that the resampling at its edges sees the page)
    let x0 = (bx[0].floor() - 1.0).clamp(0.0, pw as f64) as u32;
    let y0 = (bx[1].floor() - 1.0).clamp(0.0, ph as f64) as u32;
    let x1 = (bx[2].ceil() + 1.0).clamp(0.0, pw as f64) as u32;
    let y1 = (bx[3].ceil() + 1.0).clamp(0.0, ph as f64) as u32;
    let (w, h) = (x1.saturating_sub(x0).max(1), y1.saturating_sub(y0).max(1));
    let part = image::imageops::crop_imm(page, x0, y0, w, h).to_image();
    let (ew, eh) = ((w as f64 * factor) as u32, (h as f64 * factor) as u32);
    let enlarged = image::imageops::resize(&part, ew, eh, image::imageops::FilterType::CatmullRom);
    let in_enlarged = |v: f64, origin: u32| (v - origin as f64) * factor;
    let enlarged_box = [in_enlarged(bx[0], x0), in_enlarged(bx[1], y0), in_enlarged(bx[2], x0), in_enlarged(bx[3], y0)];
    (enlarged, enlarged_box)
}

/// [`read_number`] on the page as it is, its ink sharpened to `[paper, full]` ink shares (one of
/// [`SHARPENINGS`]) or not, with the height of the cell's tallest piece of ink (None where it
/// holds none).
fn read_number_at_its_size(
    page: &GrayImage,
    bx: [f64; 4],
    sharpening: Option<[f32; 2]>,
) -> (PrintedNumber, Option<usize>) {
    let Some(mut ink) = cell_ink(page, bx) else { return (PrintedNumber::Empty, None) };
    if let Some([paper, full]) = sharpening {
        ink.ink.iter_mut().for_each(|v| *v = ((*v - paper) / (full - paper)).clamp(0.0, 1.0));
    }
    let pieces = pieces_of(&ink);
    let tallest = pieces.iter().map(|p| p.h()).max();
    let Some(glyphs) = glyphs(&ink, pieces) else { return (PrintedNumber::Other, tallest) };
    if glyphs.is_empty() {
        // (ink that makes no glyph: a mark, a stroke, a digit run into a bent ruling)
        let read = if tallest.is_none() { PrintedNumber::Empty } else { PrintedNumber::Other };
        return (read, tallest);
    }
    if glyphs.len() > MAX_DIGITS {
        return (PrintedNumber::Other, tallest);
    }
    let mut read = Vec::new();
    for g in glyphs {
        let d = digit_distances(&shape_of(&g));
        if nearest(&d).1 > NOT_A_DIGIT {
            return (PrintedNumber::Other, tallest);
        }
        read.push(d);
    }
    (PrintedNumber::Digits(read), tallest)
}

/// The contrast (grey levels) of the ink in a number cell against its paper, measured at its
/// darkest few pixels with the cell's rulings left out (a single small digit covers too little
/// of the cell for a share of its pixels to tell), over the cell widened as
/// [`read_number_widened`] reads it (the digits a cell cuts count); 0 where it holds no ink.
pub fn ink_contrast(page: &GrayImage, bx: [f64; 4]) -> f32 {
    let more = WIDENED_SHARE * (bx[2] - bx[0]);
    let Some((grey, w, h)) = inner_grey(page, [bx[0] - more, bx[1], bx[2] + more, bx[3]]) else { return 0.0 };
    // (partial selections, not sorts: every number cell of a page is measured)
    let mut order = grey.clone();
    let last = order.len() - 1;
    let at_rank = |order: &mut Vec<u8>, rank: usize| *order.select_nth_unstable(rank.min(last)).1 as f32;
    let paper = at_rank(&mut order, grey.len() * 7 / 10);
    let darkest = at_rank(&mut order, DARKEST_PIXELS - 1);
    if paper - darkest < 1.0 {
        return 0.0;
    }
    let mut map = ink_against_paper(&grey, w, h, paper, paper - darkest);
    clear_rulings(&mut map);
    let mut darkness: Vec<f32> =
        grey.iter().zip(&map.ink).filter(|&(_, &ink)| ink > 0.0).map(|(&v, _)| paper - v as f32).collect();
    if darkness.is_empty() {
        return 0.0;
    }
    let rank = (DARKEST_PIXELS - 1).min(darkness.len() - 1);
    *darkness.select_nth_unstable_by(rank, |a, b| b.total_cmp(a)).1
}

/// How many of a cell's darkest pixels its ink's contrast is measured at (the darkest alone
/// may be a speck of dust).
const DARKEST_PIXELS: usize = 4;

/// A number cell whose ink is fainter than this share of the block's printed numbers' holds no
/// printed number of the block: it is the back page's print showing through, or a speck.
const FAINT_SHARE: f32 = 0.3;

/// Which cells of a block hold only ink faint beside the block's printed numbers (`contrasts`
/// from [`ink_contrast`], cell by cell; the printed numbers those `reads` reads as digits): the
/// number cell of a row past the printed rows shows the back page's numbers through the paper,
/// and a heading's the grey edge of a ruling, which each cell's own contrast alone reads as
/// print. (A number printed light is faint too: the numbering keeps a faint row that reads its
/// number.)
pub fn faint_cells(reads: &[PrintedNumber], contrasts: &[f32]) -> Vec<bool> {
    let mut printed: Vec<f32> = reads
        .iter()
        .zip(contrasts)
        .filter(|(read, _)| matches!(read, PrintedNumber::Digits(_)))
        .map(|(_, &c)| c)
        .collect();
    if printed.len() < 3 {
        return vec![false; reads.len()];
    }
    printed.sort_unstable_by(f32::total_cmp);
    let typical = printed[printed.len() / 2];
    contrasts.iter().map(|&contrast| contrast < FAINT_SHARE * typical).collect()
}

/// The cell's inner part as ink shares: darkness against the cell's own paper, scaled by its
/// contrast, with the cell's rulings (rows or columns of ink across most of the cell) cleared.
/// None where the cell holds no ink that stands out from its paper.
fn cell_ink(page: &GrayImage, bx: [f64; 4]) -> Option<InkMap> {
    let (grey, w, h) = inner_grey(page, bx)?;
    let mut sorted = grey.clone();
    sorted.sort_unstable();
    // paper: most of a number cell is background (shaded or not); ink: its darkest pixels
    let paper = sorted[sorted.len() * 7 / 10] as f32;
    let darkest = sorted[sorted.len() / 100] as f32;
    let contrast = paper - darkest;
    if contrast < 25.0 {
        return None;
    }
    let mut map = ink_against_paper(&grey, w, h, paper, contrast);
    clear_rulings(&mut map);
    // (a ruling darker than the print set the contrast: the ink left is measured against the
    // darkest of itself)
    let mut left: Vec<f32> = map.ink.clone();
    left.sort_unstable_by(f32::total_cmp);
    let darkest_left = left[left.len() * 995 / 1000];
    if darkest_left * contrast < 20.0 {
        return None;
    }
    map.ink.iter_mut().for_each(|v| *v = (*v / darkest_left).min(1.0));
    Some(map)
}

/// The grey pixels of the cell's inner part (a few pixels in from each side, past the rulings'
/// own thickness), with its width and height; None where too little is left.
fn inner_grey(page: &GrayImage, bx: [f64; 4]) -> Option<(Vec<u8>, usize, usize)> {
    let (pw, ph) = (page.width() as f64, page.height() as f64);
    let (w, h) = (bx[2] - bx[0], bx[3] - bx[1]);
    let (mx, my) = ((0.04 * w).max(2.0), (0.08 * h).max(2.0));
    let x0 = (bx[0] + mx).clamp(0.0, pw) as usize;
    let x1 = (bx[2] - mx).clamp(0.0, pw) as usize;
    let y0 = (bx[1] + my).clamp(0.0, ph) as usize;
    let y1 = (bx[3] - my).clamp(0.0, ph) as usize;
    if x1 < x0 + 4 || y1 < y0 + 6 {
        return None;
    }
    let (cw, chh) = (x1 - x0, y1 - y0);
    let mut grey: Vec<u8> = Vec::with_capacity(cw * chh);
    for y in y0..y1 {
        for x in x0..x1 {
            grey.push(page.get_pixel(x as u32, y as u32)[0]);
        }
    }
    Some((grey, cw, chh))
}

/// Ink shares of grey pixels: darkness against `paper`, scaled by `contrast`, within 0..1.
fn ink_against_paper(grey: &[u8], w: usize, h: usize, paper: f32, contrast: f32) -> InkMap {
    InkMap { w, h, ink: grey.iter().map(|&v| ((paper - v as f32) / contrast).clamp(0.0, 1.0)).collect() }
}

/// Clears rows and columns whose ink runs across most of the cell: pieces of its rulings.
fn clear_rulings(map: &mut InkMap) {
    let dark = |v: f32| v > PIECE_INK;
    for y in 0..map.h {
        let n = (0..map.w).filter(|&x| dark(map.at(x, y))).count();
        if n as f64 > 0.7 * map.w as f64 {
            (0..map.w).for_each(|x| map.ink[y * map.w + x] = 0.0);
        }
    }
    for x in 0..map.w {
        let n = (0..map.h).filter(|&y| dark(map.at(x, y))).count();
        if n as f64 > 0.8 * map.h as f64 {
            (0..map.h).for_each(|y| map.ink[y * map.w + x] = 0.0);
        }
    }
}

/// The printed glyphs of a cell, left to right, each cropped from `ink`: its `pieces` of ink
/// ([`pieces_of`]), pieces above one another joined (a digit broken by faint print), kept where they stand
/// on one band of one height (printed digits do; a dot, a writer's stroke do not); a piece as
/// wide as two digits is split where its ink is thinnest (touching digits). None where lower
/// glyphs stand on the same baseline: lower-case letters of a word ("No", "Move").
fn glyphs(ink: &InkMap, mut pieces: Vec<Piece>) -> Option<Vec<InkMap>> {
    // (a frame round the cell, three of its sides or more, holds no digit)
    let frame =
        |p: &Piece| [p.x0 == 0, p.y0 == 0, p.x1 + 1 == ink.w, p.y1 + 1 == ink.h].iter().filter(|&&e| e).count() >= 3;
    pieces.retain(|p| !frame(p));
    crate::sort::by_key(&mut pieces, |p| p.x0);
    let mut joined: Vec<Piece> = Vec::new();
    for p in pieces {
        let above_one_another = |j: &Piece| {
            let gap = p.y0.saturating_sub(j.y1).max(j.y0.saturating_sub(p.y1));
            overlap(j.x0, j.x1, p.x0, p.x1) * 2 > p.w().min(j.w()) && gap as f64 <= 0.15 * ink.h as f64
        };
        match joined.iter_mut().find(|j| above_one_another(j)) {
            Some(j) => j.merge(&p),
            None => joined.push(p),
        }
    }
    let min_h = (0.25 * ink.h as f64).max(4.0) as usize;
    join_parts_cut_by_hairlines(&mut joined, min_h);
    joined.retain(|p| p.h() >= min_h && p.h() < ink.h.saturating_sub(1) && p.pixels >= 6);
    let Some(tallest) = joined.iter().map(|p| p.h()).max() else { return Some(Vec::new()) };
    // the digits' band: the tallest glyph's rows; printed digits share it
    let band = joined.iter().find(|p| p.h() == tallest).map(|p| (p.y0, p.y1)).unwrap_or((0, 0));
    let th = tallest as f64;
    let lower_case = joined.iter().any(|p| {
        let h = p.h() as f64;
        (0.4 * th..0.75 * th).contains(&h) && (p.y1 as f64 - band.1 as f64).abs() <= 0.12 * th + 1.0
    });
    if lower_case {
        return None;
    }
    joined.retain(|p| {
        p.h() as f64 >= 0.7 * th
            && (p.y0 as f64 - band.0 as f64).abs() <= 0.25 * th
            && (p.y1 as f64 - band.1 as f64).abs() <= 0.25 * th
    });
    let mut out = Vec::new();
    for p in joined {
        let p = without_a_full_stop_run_into_it(ink, p);
        if p.w() as f64 > 0.9 * p.h() as f64 && digits_wide(&p).round() > 1.0 {
            out.extend(split_into_digits(ink, &p));
        } else if let Some(g) = crop(ink, p.x0, p.y0, p.x1, p.y1) {
            out.push(g);
        }
    }
    Some(out)
}

/// `p` less a full stop printed after its last digit ("12.") that blur has run into it: at its
/// right end, columns whose dark ink (above [`STOP_CORE_INK`]) lies in the lowest two fifths of
/// its rows only, at most two fifths of its height wide, parted from the digit by columns with
/// no dark ink (the stop's grey fringe joins the two). A digit's own foot (the base of a "2",
/// the bar of a "4") runs dark into the rest of the digit. Without this the stop widens the
/// piece by a digit, and the split cuts "50." into "5" and "0." (read as 6).
fn without_a_full_stop_run_into_it(ink: &InkMap, p: Piece) -> Piece {
    let h = p.h() as f64;
    let lowest_rows = p.y0 + (0.6 * h).ceil() as usize;
    let dark_rows = |x: usize| (p.y0..=p.y1).filter(move |&y| ink.at(x, y) > STOP_CORE_INK);
    let low_dark_only = |x: usize| dark_rows(x).next().is_some() && dark_rows(x).all(|y| y >= lowest_rows);
    // (from the right: the stop's fringe, the stop, the columns parting it from the digit)
    let mut x = p.x1;
    while x > p.x0 && dark_rows(x).next().is_none() {
        x -= 1;
    }
    let stop_right = x;
    while x > p.x0 && low_dark_only(x) {
        x -= 1;
    }
    let stop_width = stop_right - x;
    let neck_right = x;
    while x > p.x0 && dark_rows(x).next().is_none() {
        x -= 1;
    }
    let parted = x < neck_right;
    if stop_width == 0 || stop_width as f64 > 0.4 * h || !parted || x == p.x0 {
        return p;
    }
    Piece { x1: x, ..p }
}

/// Ink share of a full stop's core and of a digit's strokes, against the grey fringe blur
/// spreads between them.
const STOP_CORE_INK: f32 = 0.5;

/// The digits of a piece wider than one digit (touching digits), cut at the columns of least
/// ink. A printed digit is about 0.62 of its height wide, a bold one up to 0.8: the count the
/// piece's width gives in such digits is taken unless the next count up or down makes parts
/// that look clearly more like digits ("40" in a bold face is 2.6 such digits wide).
fn split_into_digits(ink: &InkMap, p: &Piece) -> Vec<InkMap> {
    let digits_wide = digits_wide(p);
    let fewest = (digits_wide.floor() as usize).max(2);
    let most = (digits_wide.ceil() as usize).max(2);
    let parts_for = |count: usize| -> Vec<InkMap> {
        split_points(ink, p, count).into_iter().filter_map(|(a, b)| crop(ink, a, p.y0, b, p.y1)).collect()
    };
    let mean_distance = |parts: &[InkMap]| {
        let sum: f32 = parts.iter().map(|g| nearest(&digit_distances(&shape_of(g))).1).sum();
        sum / parts.len().max(1) as f32
    };
    // (each count's parts and their mean distance, computed once; the usual count, the width
    // rounded, is the floor or the ceiling, so one of them)
    let mut splits: Vec<(Vec<InkMap>, f32)> = (fewest..=most)
        .map(|count| {
            let parts = parts_for(count);
            let distance = mean_distance(&parts);
            (parts, distance)
        })
        .collect();
    let usual = (digits_wide.round() as usize).max(2) - fewest;
    let usual_distance = splits[usual].1;
    let chosen = (0..splits.len())
        .filter(|&i| !splits[i].0.is_empty() && splits[i].1 < CLEARLY_NEARER * usual_distance)
        .min_by(|&i, &j| splits[i].1.total_cmp(&splits[j].1))
        .unwrap_or(usual);
    splits.swap_remove(chosen).0
}

/// How many digits of the usual width, 0.62 of their height, a piece is wide.
fn digits_wide(p: &Piece) -> f64 {
    p.w() as f64 / (0.62 * p.h() as f64)
}

/// How much nearer the digits' drawings another count of digits must bring a piece's parts than
/// the count its width gives, to be taken instead.
const CLEARLY_NEARER: f32 = 0.85;

/// The widest a printed digit is, as a share of its height (a bold serif "0" or "4").
const ONE_DIGIT_WIDTH: f64 = 0.8;

/// Joins the parts of a digit whose hairlines the print lost (a bold serif face printed faint
/// keeps its thick strokes alone): two pieces at least `min_h` high, the lower three fifths of
/// the other's height at least, side by side with no blank column between them (the bowl and
/// the stem of a "9"), and a small piece beside a tall one, within its rows and at most a sixth
/// of its height away (the ball ends of a "3"; not a full stop after it), joined to the nearest;
/// each where the two together are no wider than a digit. Separate printed digits stand further
/// apart.
fn join_parts_cut_by_hairlines(pieces: &mut Vec<Piece>, min_h: usize) {
    let rows_overlap = |a: &Piece, b: &Piece| overlap(a.y0, a.y1, b.y0, b.y1);
    // (joined, no wider than one printed digit: a speck or a writer's stroke beside a digit
    // widens it to two)
    let one_digit_wide = |a: &Piece, b: &Piece| {
        let (x0, x1) = (a.x0.min(b.x0), a.x1.max(b.x1));
        let height = a.y1.max(b.y1) - a.y0.min(b.y0) + 1;
        (x1 - x0 + 1) as f64 <= ONE_DIGIT_WIDTH * height as f64
    };
    let column_gap = |a: &Piece, b: &Piece| b.x0.saturating_sub(a.x1 + 1).max(a.x0.saturating_sub(b.x1 + 1));
    crate::sort::by_key(pieces, |p| p.x0);
    let mut halves: Vec<Piece> = Vec::new();
    for p in pieces.drain(..) {
        match halves.last_mut() {
            Some(last)
                if last.h() >= min_h
                    && p.h() >= min_h
                    && p.x0 <= last.x1 + 1
                    && 2 * rows_overlap(last, &p) >= last.h().min(p.h())
                    && 5 * last.h().min(p.h()) >= 3 * last.h().max(p.h())
                    && one_digit_wide(last, &p) =>
            {
                last.merge(&p)
            }
            _ => halves.push(p),
        }
    }
    // (a full stop printed after the number, "12.", stands right of its last digit, on its foot
    // within a seventh of its height and under half as high: no part of it)
    let a_stop_after = |digit: &Piece, mark: &Piece| {
        mark.x0 > digit.x1 && 2 * mark.h() <= digit.h() && 7 * (mark.y1 + 1) + digit.h() >= 7 * (digit.y1 + 1)
    };
    let (tall, small): (Vec<Piece>, Vec<Piece>) = halves.into_iter().partition(|p| p.h() >= min_h);
    let mut joined = tall.clone();
    for mark in small {
        let within_rows = |digit: &Piece| mark.y0 + 1 >= digit.y0 && mark.y1 <= digit.y1 + 1;
        let near = |digit: &Piece, gap: usize| gap as f64 <= (digit.h() as f64 / 6.0).max(1.0);
        let nearest = tall
            .iter()
            .enumerate()
            .filter(|(_, digit)| within_rows(digit) && !a_stop_after(digit, &mark))
            .map(|(i, digit)| (i, column_gap(digit, &mark)))
            .filter(|&(i, gap)| near(&tall[i], gap) && one_digit_wide(&tall[i], &mark))
            .min_by_key(|&(_, gap)| gap);
        match nearest {
            Some((i, _)) => joined[i].merge(&mark),
            None => joined.push(mark),
        }
    }
    crate::sort::by_key(&mut joined, |p| p.x0);
    *pieces = joined;
}

/// The pieces of ink in a cell, less what is left of its rulings: thin pieces against its sides,
/// flat ones against its top and bottom.
fn pieces_of(ink: &InkMap) -> Vec<Piece> {
    let mut pieces = pieces(&ink.smoothed(), ink);
    let side_ruling = |p: &Piece| (p.x0 == 0 || p.x1 + 1 == ink.w) && p.w() as f64 <= (0.2 * p.h() as f64).max(3.0);
    let flat_ruling = |p: &Piece| (p.y0 == 0 || p.y1 + 1 == ink.h) && p.h() as f64 <= (0.2 * p.w() as f64).max(3.0);
    pieces.retain(|p| p.pixels >= 4 && !side_ruling(p) && !flat_ruling(p));
    pieces
}

/// Length of the overlap of `[a0, a1]` and `[b0, b1]` (inclusive).
fn overlap(a0: usize, a1: usize, b0: usize, b1: usize) -> usize {
    (a1.min(b1) + 1).saturating_sub(a0.max(b0))
}

/// Column ranges splitting `p` into `parts` glyphs at the columns of least ink near the even cuts.
fn split_points(ink: &InkMap, p: &Piece, parts: usize) -> Vec<(usize, usize)> {
    let column_ink = |x: usize| (p.y0..=p.y1).map(|y| ink.at(x, y)).sum::<f32>();
    let step = p.w() as f64 / parts as f64;
    let mut cuts = vec![p.x0];
    for k in 1..parts {
        let centre = p.x0 as f64 + k as f64 * step;
        let reach = (0.25 * step) as usize;
        let (lo, hi) = ((centre as usize).saturating_sub(reach), (centre as usize + reach).min(p.x1));
        let cut = (lo..=hi).min_by(|&a, &b| column_ink(a).total_cmp(&column_ink(b))).unwrap_or(centre as usize);
        cuts.push(cut);
    }
    cuts.push(p.x1 + 1);
    cuts.windows(2).filter(|c| c[1] > c[0] + 1).map(|c| (c[0], c[1] - 1)).collect()
}

/// The ink of `[x0, x1] x [y0, y1]`, cropped to its inked part.
fn crop(ink: &InkMap, x0: usize, y0: usize, x1: usize, y1: usize) -> Option<InkMap> {
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let part = (y0..=y1).flat_map(|y| (x0..=x1).map(move |x| (x, y))).map(|(x, y)| ink.at(x, y)).collect();
    crop_to_ink(&InkMap { w, h, ink: part })
}

/// Connected pieces of ink (8-connected; ink share above [`PIECE_INK`]) that hold a dark core in
/// `core_of` (above [`CORE_INK`]): grain of the paper has none.
fn pieces(ink: &InkMap, core_of: &InkMap) -> Vec<Piece> {
    let (w, h) = (ink.w, ink.h);
    let mut seen = vec![false; w * h];
    let mut out = Vec::new();
    let mut stack = Vec::new();
    for start in 0..w * h {
        if seen[start] || ink.ink[start] <= PIECE_INK {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut p = Piece { x0: usize::MAX, y0: usize::MAX, x1: 0, y1: 0, pixels: 0 };
        let mut core = 0f32;
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            core = core.max(core_of.ink[i]);
            p.merge(&Piece { x0: x, y0: y, x1: x, y1: y, pixels: 1 });
            for dy in -1i64..=1 {
                for dx in -1i64..=1 {
                    let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                    if nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64 {
                        continue;
                    }
                    let j = ny as usize * w + nx as usize;
                    if !seen[j] && ink.ink[j] > PIECE_INK {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
        if core >= CORE_INK {
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A number cell: `text` drawn in `font` on grey paper `paper`, with rulings above and below.
    fn cell(font: &[u8], text: &str, height: f32, paper: u8, print: u8) -> (GrayImage, [f64; 4]) {
        let font = FontRef::try_from_slice(font).expect("font");
        let (w, h) = ((height * 3.0) as u32, (height * 2.2) as u32);
        let mut img = GrayImage::from_pixel(w, h, Luma([paper]));
        let mut x = 0.3 * height;
        for c in text.chars() {
            let id = font.glyph_id(c);
            let scale = PxScale::from(height * 1.35);
            let adv = font.as_scaled(scale).h_advance(id);
            let g = id.with_scale_and_position(scale, ab_glyph::point(x, 0.55 * h as f32 + 0.5 * height));
            if let Some(o) = font.outline_glyph(g) {
                let b = o.px_bounds();
                o.draw(|gx, gy, cov| {
                    let (px, py) = (b.min.x as i32 + gx as i32, b.min.y as i32 + gy as i32);
                    if px >= 0 && py >= 0 && (px as u32) < w && (py as u32) < h {
                        let v = paper as f32 - cov * (paper - print) as f32;
                        img.put_pixel(px as u32, py as u32, Luma([v as u8]));
                    }
                });
            }
            x += adv;
        }
        for x in 0..w {
            img.put_pixel(x, 1, Luma([print]));
            img.put_pixel(x, h - 2, Luma([print]));
        }
        (img, [0.0, 1.0, w as f64, h as f64 - 2.0])
    }

    use ab_glyph::ScaleFont;

    /// The digit-only fonts draw every digit, at every size the drawings use, pixel for pixel as
    /// the fonts they were cut from.
    #[test]
    fn digit_fonts_draw_as_the_fonts_they_were_cut_from() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/fonts");
        for name in CUT_FROM_FORM_FONTS {
            let whole = std::fs::read(dir.join(name)).expect("font");
            let cut = std::fs::read(dir.join("digits").join(name)).expect("font");
            assert!(FONTS.contains(&cut.as_slice()), "{name} is not among the digit fonts");
            let (whole, cut) = (FontRef::try_from_slice(&whole).unwrap(), FontRef::try_from_slice(&cut).unwrap());
            for digit in 0..10u8 {
                for px in [64.0, SMALL_PRINT[0], SMALL_PRINT[1], 22.0] {
                    let (a, b) = (draw_digit(&whole, digit, px).unwrap(), draw_digit(&cut, digit, px).unwrap());
                    let bits = |m: &InkMap| m.ink.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
                    assert!((a.w, a.h, bits(&a)) == (b.w, b.h, bits(&b)), "{name}: {digit} at {px} px");
                }
                let id = |f: &FontRef| f.glyph_id((b'0' + digit) as char);
                assert_eq!(whole.h_advance_unscaled(id(&whole)), cut.h_advance_unscaled(id(&cut)), "{name}: {digit}");
            }
            assert_eq!(
                (whole.ascent_unscaled(), whole.descent_unscaled()),
                (cut.ascent_unscaled(), cut.descent_unscaled())
            );
        }
    }

    #[test]
    fn printed_numbers_read_in_the_fonts_drawn_from() {
        for font in FONTS {
            for n in [1u32, 7, 10, 26, 38, 45, 59, 60, 83, 100, 112] {
                let (img, bx) = cell(font, &n.to_string(), 22.0, 250, 30);
                assert_eq!(read_number(&img, bx).best(), Some(n), "{n}");
            }
        }
    }

    #[test]
    fn numbers_printed_in_a_font_not_drawn_from_read() {
        // (GNU FreeSans, a Helvetica face: its "1" has no foot, as Arial's and Helvetica's,
        // where Liberation Sans and DejaVu draw one; with footed ones only, each "1" read as a "4")
        let free_sans: &[u8] = include_bytes!("../../tests/data/fonts/FreeSans-digits.ttf");
        let numbers: Vec<u32> = (1..=60).chain([75, 88, 99, 101, 111]).collect();
        for height in [14.0, 20.0, 32.0] {
            let wrong: Vec<u32> = numbers
                .iter()
                .copied()
                .filter(|&n| {
                    let (img, bx) = cell(free_sans, &n.to_string(), height, 245, 30);
                    read_number(&img, bx).best() != Some(n)
                })
                .collect();
            assert!(wrong.is_empty(), "{height} px: {wrong:?} read wrong");
        }
    }

    #[test]
    fn faint_grey_print_on_shaded_paper_reads() {
        let (img, bx) = cell(FONTS[0], "34", 18.0, 205, 140);
        assert_eq!(read_number(&img, bx).best(), Some(34));
    }

    /// The number read in a whole number cell of `tests/data/printed_numbers`.
    fn read_test_cell(file: &str) -> Option<u32> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/printed_numbers");
        let cell = image::open(dir.join(file)).expect("test image").to_luma8();
        read_number(&cell, [0.0, 0.0, cell.width() as f64, cell.height() as f64]).best()
    }

    #[test]
    fn faint_bold_serif_numbers_whose_hairlines_the_print_lost_read() {
        // (number cells of a synthetic form printed at 0.15 of its contrast and scanned: the
        // bold serif face keeps its stems, and the hairlines that join a "3"'s ball ends, a
        // "9"'s bowl and a "4"'s bar to them are gone)
        for n in [33, 39, 46] {
            assert_eq!(read_test_cell(&format!("faint_bold_serif_{n}.png")), Some(n));
        }
    }

    #[test]
    fn touching_bold_digits_split_into_as_many_digits_as_they_are() {
        // (number cells "26." "28." "40." of a synthetic form printed at a quarter of its contrast
        // in a bold serif face and scanned: the blur joins the two digits into one piece, 2.6
        // usual digits wide, which was split into three, "40." read 441)
        for n in [26, 28, 40] {
            assert_eq!(read_test_cell(&format!("faint_bold_serif_touching_{n}.png")), Some(n));
        }
    }

    #[test]
    fn a_full_stop_run_into_the_last_digit_is_no_digit() {
        // (number cells "49." "50." "52." of a synthetic scan of a form printed at a quarter of
        // its contrast, in a bold serif face 15 pixels high: the blur joins the stop to the last
        // digit, and "50." read 56, "52." 51)
        for n in [49, 50, 52] {
            assert_eq!(read_test_cell(&format!("bold_serif_stop_run_in_{n}.png")), Some(n));
        }
    }

    #[test]
    fn a_full_stop_blurred_into_a_number_leaves_its_reading() {
        // (the fonts the synthetic forms print in, whole: the digit fonts have no full stop;
        // numbers 16 to 24 pixels high, blurred enough that the stop's grey fringe joins it to
        // the last digit; without the stop left out, 8 of these 144 read otherwise than the
        // number alone, "50." as 546, "2." as 21)
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/fonts");
        let numbers = [1u32, 2, 4, 9, 12, 22, 24, 40, 47, 50, 52, 74];
        let mut changed = Vec::new();
        for name in CUT_FROM_FORM_FONTS {
            let font = std::fs::read(dir.join(name)).expect("font");
            for (height, blur) in [(16.0, 1.2), (20.0, 1.5), (24.0, 1.8)] {
                for n in numbers {
                    let read = |text: String| {
                        let (img, bx) = cell(&font, &text, height, 245, 30);
                        read_number(&imageproc::filter::gaussian_blur_f32(&img, blur), bx).best()
                    };
                    let (with_stop, without) = (read(format!("{n}.")), read(n.to_string()));
                    if with_stop != without {
                        changed.push((name, height, n, with_stop, without));
                    }
                }
            }
        }
        assert!(changed.is_empty(), "{changed:?}");
    }

    #[test]
    fn small_blurred_print_reads() {
        // (digits 9 and 13 pixels high under a photo's blur: at their own size a third to three
        // quarters of these read wrong, most as 8s)
        let numbers = [1u32, 3, 7, 12, 15, 21, 24, 29, 31, 33, 36, 40];
        for font in [FONTS[0], FONTS[3]] {
            for (height, blur) in [(9.0, 1.1), (13.0, 1.4)] {
                let read_right = |n: &&u32| {
                    let (img, bx) = cell(font, &n.to_string(), height, 235, 40);
                    let blurred = imageproc::filter::gaussian_blur_f32(&img, blur);
                    read_number_enlarged(&blurred, bx).best() == Some(**n)
                };
                let right = numbers.iter().filter(read_right).count();
                assert!(
                    right >= numbers.len() - 1,
                    "{height} px, blur {blur}: {right} of {} read right",
                    numbers.len()
                );
            }
        }
    }

    #[test]
    fn zero_padded_numbers_cut_by_the_cell_read_widened() {
        // (the number column's left ruling found in the middle of the numbers' first "0"s, as the
        // stacked zeros of 001-030 and rounded box edges blur into one line: the cell cuts each
        // first "0", which reads as another digit)
        let numbers = [1u32, 2, 5, 8, 13, 17, 20, 24, 29, 30];
        let (mut cut_right, mut widened_right) = (0, 0);
        for n in numbers {
            let height = 20.0;
            let (img, bx) = cell(FONTS[0], &format!("{n:03}"), height, 250, 30);
            let cut = [bx[0] + 0.6 * height as f64, bx[1], bx[2], bx[3]];
            cut_right += usize::from(read_number(&img, cut).best() == Some(n));
            widened_right += usize::from(read_number_widened(&img, cut).best() == Some(n));
        }
        assert!(cut_right <= numbers.len() / 2, "{cut_right} of {} read right cut", numbers.len());
        assert!(widened_right >= numbers.len() - 1, "{widened_right} of {} read right widened", numbers.len());
    }

    #[test]
    fn an_empty_cell_and_a_heading_word_are_no_number() {
        let (img, bx) = cell(FONTS[0], "", 20.0, 250, 30);
        assert_eq!(read_number(&img, bx), PrintedNumber::Empty);
        let (img, bx) = cell(FONTS[0], "Move", 20.0, 250, 30);
        assert!(read_number(&img, bx).best().is_none(), "{:?}", read_number(&img, bx));
    }

    #[test]
    fn print_showing_through_from_the_back_page_is_faint() {
        // (a block's numbers printed black; the row past them shows the back page's "41" at a
        // seventh of their contrast, which its own contrast alone reads as print)
        let mut cells: Vec<(GrayImage, [f64; 4])> =
            (61..=64).map(|n| cell(FONTS[0], &n.to_string(), 20.0, 245, 30)).collect();
        cells.push(cell(FONTS[0], "41", 20.0, 245, 212));
        let reads: Vec<PrintedNumber> = cells.iter().map(|(img, bx)| read_number(img, *bx)).collect();
        let read: Vec<Option<u32>> = reads.iter().map(PrintedNumber::best).collect();
        assert_eq!(read, [Some(61), Some(62), Some(63), Some(64), Some(41)]);
        let contrasts: Vec<f32> = cells.iter().map(|(img, bx)| ink_contrast(img, *bx)).collect();
        assert_eq!(faint_cells(&reads, &contrasts), [false, false, false, false, true]);
    }

    #[test]
    fn a_single_digit_in_a_wide_number_cell_has_the_contrast_of_its_print() {
        // (a "7" in a cell twelve times as wide as it is high covers under a hundredth of the
        // cell: measured at a share of the cell's pixels, its contrast is the paper's grain)
        let (narrow, narrow_box) = cell(FONTS[0], "17", 20.0, 245, 30);
        let (small, _) = cell(FONTS[0], "7", 20.0, 245, 30);
        let mut wide = GrayImage::from_pixel(240, small.height(), Luma([245]));
        image::imageops::overlay(&mut wide, &small, 0, 0);
        (0..240).for_each(|x| wide.put_pixel(x, 1, Luma([30])));
        let wide_box = [0.0, 1.0, 240.0, small.height() as f64 - 2.0];
        let (single, pair) = (ink_contrast(&wide, wide_box), ink_contrast(&narrow, narrow_box));
        assert!(single > 0.8 * pair, "a single digit {single}, two digits {pair}");
    }

    #[test]
    fn a_number_the_glyphs_resemble_costs_less_than_one_they_do_not() {
        let (img, bx) = cell(FONTS[1], "18", 20.0, 250, 30);
        let read = read_number(&img, bx);
        assert_eq!(read.extra_cost(18), Some(0.0));
        let near = read.extra_cost(13).expect("two digits");
        let far = read.extra_cost(41).expect("two digits");
        assert!(near >= 0.0 && far > 0.0);
        assert_eq!(read.extra_cost(118), None);
    }
}
