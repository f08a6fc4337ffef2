//! Binarization and ruling-line detection on a downscaled page.

use image::GrayImage;

use super::geom::{self, Homography};

/// A binary image: 1 = ink.
#[derive(Clone, Debug)]
pub struct Bin {
    pub w: usize,
    pub h: usize,
    pub d: Vec<u8>,
}

impl Bin {
    pub fn new(w: usize, h: usize) -> Bin {
        Bin { w, h, d: vec![0; w * h] }
    }
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> bool {
        self.d[y * self.w + x] != 0
    }
    pub fn transpose(&self) -> Bin {
        let mut t = Bin::new(self.h, self.w);
        // (in tiles, so that both images are read and written a cache line at a time)
        const TILE: usize = 32;
        for y0 in (0..self.h).step_by(TILE) {
            for x0 in (0..self.w).step_by(TILE) {
                for y in y0..(y0 + TILE).min(self.h) {
                    let row = &self.d[y * self.w..(y + 1) * self.w];
                    for x in x0..(x0 + TILE).min(self.w) {
                        t.d[x * self.h + y] = row[x];
                    }
                }
            }
        }
        t
    }
    /// Nearest-neighbour warp: output pixel `p` is `self(to_src(p))`.
    pub fn warp(&self, to_src: &Homography, w: usize, h: usize) -> Bin {
        let mut out = Bin::new(w, h);
        let mut positions = Vec::with_capacity(w);
        for (y, row) in out.d.chunks_exact_mut(w.max(1)).enumerate().take(h) {
            geom::row_positions(to_src, y, 0.5, w, &mut positions);
            for (px, &(sx, sy)) in row.iter_mut().zip(&positions) {
                if sx >= 0 && sy >= 0 {
                    let (ix, iy) = ((sx >> geom::FRACTION_BITS) as usize, (sy >> geom::FRACTION_BITS) as usize);
                    if ix < self.w && iy < self.h {
                        *px = self.d[iy * self.w + ix];
                    }
                }
            }
        }
        out
    }
    /// Number of ink pixels in `[x0, x1) x [y0, y1)` (clamped).
    pub fn count(&self, x0: i64, y0: i64, x1: i64, y1: i64) -> usize {
        let (x0, x1) = (x0.clamp(0, self.w as i64) as usize, x1.clamp(0, self.w as i64) as usize);
        let (y0, y1) = (y0.clamp(0, self.h as i64) as usize, y1.clamp(0, self.h as i64) as usize);
        let mut n = 0;
        for y in y0..y1 {
            n += self.d[y * self.w + x0..y * self.w + x1.max(x0)].iter().filter(|&&v| v != 0).count();
        }
        n
    }
}

/// Downscale by an integer factor `k`: the box mean, and a copy for finding rulings where each
/// pixel lies halfway between the mean and the darkest pixel of its `k x k` box (a thin ruling
/// split over two rows of the reduced image keeps its contrast).
pub fn downscale(g: &GrayImage, k: u32) -> (GrayImage, GrayImage) {
    if k <= 1 {
        return (g.clone(), g.clone());
    }
    let (w, h) = (g.width() / k, g.height() / k);
    let src = g.as_raw();
    let sw = g.width() as usize;
    let mut out = vec![0u8; (w * h) as usize];
    let mut outl = vec![0u8; (w * h) as usize];
    let kk = k * k;
    let mut acc = vec![0u32; w as usize];
    let mut mn = vec![255u8; w as usize];
    for y in 0..h as usize {
        acc.iter_mut().for_each(|a| *a = 0);
        mn.iter_mut().for_each(|m| *m = 255);
        for dy in 0..k as usize {
            let row = &src[(y * k as usize + dy) * sw..];
            for ((a, m), s) in acc.iter_mut().zip(mn.iter_mut()).zip(row.chunks_exact(k as usize)) {
                *a += s.iter().map(|&v| v as u32).sum::<u32>();
                *m = (*m).min(s.iter().copied().min().unwrap_or(255));
            }
        }
        for x in 0..w as usize {
            out[y * w as usize + x] = (acc[x] / kk) as u8;
            outl[y * w as usize + x] = ((acc[x] / kk + mn[x] as u32) / 2) as u8;
        }
    }
    (GrayImage::from_raw(w, h, out).expect("size matches"), GrayImage::from_raw(w, h, outl).expect("size matches"))
}

/// Local-mean (Bradley) threshold with an integral image: ink where the pixel is darker than
/// `(1 - t)` times the mean of its `(2r+1)^2` window and at least `min_contrast` below it.
pub fn binarize(g: &GrayImage, r: usize) -> Bin {
    binarize_with(g, r, 85, 12)
}

/// Each column's sum of grey over a window of rows that moves down the image: rows enter at the
/// bottom and leave at the top as the window moves, so each row is added and taken away once.
struct ColumnSums<'a> {
    pixels: &'a [u8],
    width: usize,
    sums: Vec<u32>,
    /// Rows `top..bottom` are in the sums.
    top: usize,
    bottom: usize,
}

impl<'a> ColumnSums<'a> {
    fn new(g: &'a GrayImage) -> ColumnSums<'a> {
        let width = g.width() as usize;
        ColumnSums { pixels: g.as_raw(), width, sums: vec![0; width], top: 0, bottom: 0 }
    }

    /// The column sums over rows `top..bottom`; each call's window lies at or below the last's.
    fn over_rows(&mut self, top: usize, bottom: usize) -> &[u32] {
        let w = self.width;
        while self.bottom < bottom {
            let row = &self.pixels[self.bottom * w..(self.bottom + 1) * w];
            self.sums.iter_mut().zip(row).for_each(|(s, &v)| *s += v as u32);
            self.bottom += 1;
        }
        while self.top < top {
            let row = &self.pixels[self.top * w..(self.top + 1) * w];
            self.sums.iter_mut().zip(row).for_each(|(s, &v)| *s -= v as u32);
            self.top += 1;
        }
        &self.sums
    }
}

/// Vertical ridges: pixels darker than both their neighbours 2 or 3 pixels to the left and to the
/// right, in the grey image averaged over 3 rows (at least 5 % of the pixel's level and 4 levels).
/// A faint column ruling that binarizes as dashes comes out whole; horizontal rulings and filled
/// areas, as dark as their neighbours across, do not come out at all.
pub fn vertical_ridges(g: &GrayImage) -> Bin {
    vertical_ridges_over(g, 1, 4, 20)
}

/// [`vertical_ridges`] in the grey image averaged over `2 * half_run + 1` rows, a ridge at least
/// `min_levels` grey levels and 1 / `level_divisor` of the pixel's level darker than its
/// neighbours: over a run longer than a dotted or dashed line's period its dots come out as one
/// ridge, and the paper's grain, averaged over as many pixels, lets a shallower ridge count.
fn vertical_ridges_over(g: &GrayImage, half_run: usize, min_levels: u32, level_divisor: u32) -> Bin {
    ridges_against(g, half_run, min_levels, level_divisor, 2)
}

/// Vertical ridges of a ruling printed a few grey levels darker than the paper: [`vertical_ridges`]
/// in the grey image averaged over `2 * half_run + 1` rows, at least [`FAINT_MIN_LEVELS`] and
/// 1 / [`FAINT_DEPTH_DIVISOR`] of the pixel's level darker. Averaged down a long run, the paper's
/// grain evens out and a ruling 2 % darker stands out; handwriting and print come out in long
/// ridges too, so only long straight lines in these are rulings.
pub fn faint_vertical_ridges(g: &GrayImage, half_run: usize) -> Bin {
    ridges_against(g, half_run, FAINT_MIN_LEVELS, FAINT_DEPTH_DIVISOR, 2)
}

/// The least depth of a ridge [`faint_vertical_ridges`] finds: 2 grey levels and a 60th (1.7 %)
/// of the pixel's level (a synthetic scan's column rulings printed at a third of black's
/// contrast: 4-6 levels under paper at 242).
const FAINT_MIN_LEVELS: u32 = 2;
const FAINT_DEPTH_DIVISOR: u32 = 60;

/// Vertical ridges of a ruling out of focus, blurred over 4-5 pixels: [`vertical_ridges`] with
/// the neighbours 4 or 5 pixels to either side, in the grey averaged over 9 rows, at least 2
/// levels and 2.5 % darker (a blurred ruling's neighbours 2-3 pixels away are still on it).
/// Handwriting and print come out in long ridges too: only a ruling expected where one is
/// missing is looked for in these.
pub fn blurred_vertical_ridges(g: &GrayImage) -> Bin {
    ridges_against(g, BLURRED_HALF_RUN, DOT_MIN_LEVELS, DOT_DEPTH_DIVISOR, BLURRED_REACH)
}

/// Half the run of rows [`blurred_vertical_ridges`] averages over, and its nearer neighbours'
/// distance (pixels).
const BLURRED_HALF_RUN: usize = 4;
const BLURRED_REACH: usize = 4;

/// Pixels of `g` averaged over `2 * half_run + 1` rows that are darker, by `min_levels` grey
/// levels and 1 / `level_divisor` of their level, than both their neighbours `reach` or
/// `reach + 1` pixels to the left and right.
fn ridges_against(g: &GrayImage, half_run: usize, min_levels: u32, level_divisor: u32, reach: usize) -> Bin {
    let (w, h) = (g.width() as usize, g.height() as usize);
    let mut b = Bin::new(w, h);
    let far = reach + 1;
    if w < 2 * far + 2 || h == 0 {
        return b;
    }
    // column sums over rows y-half_run..=y+half_run (clipped at the borders)
    let mut column_sums = ColumnSums::new(g);
    for y in 0..h {
        let (top, bottom) = (y.saturating_sub(half_run), (y + half_run + 1).min(h));
        let sum = column_sums.over_rows(top, bottom);
        let n = (bottom - top) as u32;
        let row = &mut b.d[y * w..(y + 1) * w];
        for x in far..w - far {
            let c = sum[x];
            let r = (sum[x - reach].min(sum[x + reach])).max(sum[x - far].min(sum[x + far]));
            if r > c && (r - c) > (min_levels * n).max(c / level_divisor) {
                row[x] = 1;
            }
        }
    }
    b
}

/// How much darker a ruling is than the paper beside it, in grey levels: along the line, the
/// lighter of the two greys 3 pixels to either side less the darkest grey within a pixel of the
/// line, the median over the line (handwriting crossing it moves the median little).
/// `across_x`: the line is vertical (`x = at(y)`); else horizontal (`y = at(x)`).
pub fn ruling_depth(g: &GrayImage, line: &Line, across_x: bool) -> f64 {
    let (w, h) = (g.width() as i64, g.height() as i64);
    let level = |along: i64, across: i64| -> Option<i64> {
        let (x, y) = if across_x { (across, along) } else { (along, across) };
        (x >= 0 && y >= 0 && x < w && y < h).then(|| g.get_pixel(x as u32, y as u32)[0] as i64)
    };
    let mut depths: Vec<i64> = Vec::new();
    let (t0, t1) = (line.start.max(0.0) as i64, line.end as i64);
    for t in t0..=t1 {
        let c = line.at(t as f64 + 0.5).floor() as i64;
        let darkest = (-1..=1).filter_map(|d| level(t, c + d)).min();
        let (before, after) = (level(t, c - 3), level(t, c + 3));
        if let (Some(darkest), Some(before), Some(after)) = (darkest, before, after) {
            depths.push(before.min(after) - darkest);
        }
    }
    if depths.is_empty() {
        return 0.0;
    }
    let middle = depths.len() / 2;
    *depths.select_nth_unstable(middle).1 as f64
}

/// Vertical steps: the edge between two flat areas of different grey, as where a shaded number
/// column meets the white move column beside it with no ruling printed between them. A pixel is
/// a step where the 3 pixels to its left and the 3 to its right (in the grey image averaged over
/// 3 rows) differ by at least 6 % of the lighter side and 6 levels, each side as flat as the
/// 3 pixels beyond it (within a third of the step: a thin line beside the pixel is no step), and
/// the step is the steepest of its neighbours across. Handwriting's edges are steps too, but short
/// ones: only steps in long straight runs make rulings.
pub fn vertical_steps(g: &GrayImage) -> Bin {
    const K: usize = 1;
    const SIDE: usize = 3;
    let (w, h) = (g.width() as usize, g.height() as usize);
    let mut b = Bin::new(w, h);
    if w < 4 * SIDE + 3 || h == 0 {
        return b;
    }
    let mut column_sums = ColumnSums::new(g);
    // (prefix sums of the column sums along the row, and each pixel's signed step)
    let mut prefix = vec![0i64; w + 1];
    let mut step = vec![0i64; w];
    for y in 0..h {
        let (top, bottom) = (y.saturating_sub(K), (y + K + 1).min(h));
        let sum = column_sums.over_rows(top, bottom);
        let n = (bottom - top) as i64 * SIDE as i64;
        for x in 0..w {
            prefix[x + 1] = prefix[x] + sum[x] as i64;
        }
        // the sum of columns x0..x1
        let side = |x0: usize, x1: usize| prefix[x1] - prefix[x0];
        step.iter_mut().for_each(|s| *s = 0);
        for x in 2 * SIDE..w - 2 * SIDE {
            let (left, right) = (side(x - SIDE, x), side(x + 1, x + 1 + SIDE));
            let difference = right - left;
            let lighter = left.max(right);
            if difference.abs() < (6 * n).max(lighter * 6 / 100) {
                continue;
            }
            let (beyond_left, beyond_right) = (side(x - 2 * SIDE, x - SIDE), side(x + 1 + SIDE, x + 1 + 2 * SIDE));
            let flat = |a: i64, b: i64| 3 * (a - b).abs() < difference.abs();
            if flat(left, beyond_left) && flat(right, beyond_right) {
                step[x] = difference;
            }
        }
        let row = &mut b.d[y * w..(y + 1) * w];
        for x in 1..w - 1 {
            let here = step[x].abs();
            if here > 0 && here >= step[x - 1].abs() && here > step[x + 1].abs() {
                row[x] = 1;
            }
        }
    }
    b
}

/// [`binarize`] with the threshold `pct` % of the local mean and the least contrast `min_diff`.
pub fn binarize_with(g: &GrayImage, r: usize, pct: u64, min_diff: u64) -> Bin {
    let (w, h) = (g.width() as usize, g.height() as usize);
    let src = g.as_raw();
    let mut b = Bin::new(w, h);
    // (each column's sum over the window's rows, kept as the window moves down; then, row by
    // row, the running sum along the row: a window's sum is the difference of two of those)
    // (a column's sum is at most 255 times the window's rows)
    let mut window_rows = ColumnSums::new(g);
    let mut row_prefix = vec![0u64; w + 1];
    for y in 0..h {
        let (y0, y1) = (y.saturating_sub(r), (y + r + 1).min(h));
        let column_sums = window_rows.over_rows(y0, y1);
        for x in 0..w {
            row_prefix[x + 1] = row_prefix[x] + column_sums[x] as u64;
        }
        let pixels = &src[y * w..(y + 1) * w];
        let out = &mut b.d[y * w..(y + 1) * w];
        // p/n < mean * pct % and mean - p/n > min_diff, for the pixel's sum p (times n) and the
        // window's sum s of n pixels
        let dark = |p: u64, s: u64, n: u64| p * n * 100 < s * pct && p * n + min_diff * n < s;
        let rows = (y1 - y0) as u64;
        // (the window lies whole inside the row for x in r..w-r-1: its size is fixed there)
        let span = 2 * r + 1;
        let inner = if w > span { r..w - r } else { 0..0 };
        for x in (0..inner.start).chain(inner.end..w) {
            let (x0, x1) = (x.saturating_sub(r), (x + r + 1).min(w));
            let (s, n) = (row_prefix[x1] - row_prefix[x0], (x1 - x0) as u64 * rows);
            out[x] = dark(pixels[x] as u64, s, n) as u8;
        }
        let n = span as u64 * rows;
        let window_sums = row_prefix[span..].iter().zip(&row_prefix[..row_prefix.len() - span]).map(|(b, a)| b - a);
        for ((out, &p), s) in out[inner.clone()].iter_mut().zip(&pixels[inner]).zip(window_sums) {
            *out = dark(p as u64, s, n) as u8;
        }
    }
    b
}

/// A rulings' binary for rulings printed light grey: [`binarize_with`] of the grey image joined
/// with its ridges across rows and across columns ([`vertical_ridges`], and the same turned a
/// quarter). A thin line a tenth darker than the paper is a ridge along its whole length, where
/// the plain threshold breaks it into dashes; filled areas and thick print are none.
pub fn binarize_faint_rulings(g: &GrayImage, r: usize, pct: u64, min_diff: u64) -> Bin {
    faint_rulings(g, r, pct, min_diff, false)
}

/// [`binarize_faint_rulings`] with row rulings also looked for as ridges averaged along the row
/// ([`DOT_RUN`]): a dotted row ruling whose dots, blurred, are each too faint comes out whole.
/// The ridges of printed text and handwriting come out longer too, so this binary is the last
/// try, where no other finds a table.
pub fn binarize_dotted_rulings(g: &GrayImage, r: usize, pct: u64, min_diff: u64) -> Bin {
    faint_rulings(g, r, pct, min_diff, true)
}

/// The faint rulings' binary, with the averaged row ridges where `dotted`.
fn faint_rulings(g: &GrayImage, r: usize, pct: u64, min_diff: u64, dotted: bool) -> Bin {
    let mut b = binarize_with(g, r, pct, min_diff);
    let turned = image::imageops::rotate90(g);
    let mut across_rows = vertical_ridges(&turned);
    if dotted {
        let averaged = vertical_ridges_over(&turned, DOT_RUN, DOT_MIN_LEVELS, DOT_DEPTH_DIVISOR);
        across_rows.d.iter_mut().zip(&averaged.d).for_each(|(p, &q)| *p |= q);
    }
    // (a dashed or dotted row ruling comes out whole: the gaps along it are closed; the ridges
    // across rows run down the quarter-turned image's columns)
    close_gaps_down(&mut across_rows, DASH_GAP);
    join_turned(&mut b, &across_rows);
    let mut across_columns = vertical_ridges(g);
    close_gaps_down(&mut across_columns, DASH_GAP);
    b.d.iter_mut().zip(&across_columns.d).for_each(|(p, &q)| *p |= q);
    b
}

/// [`binarize_faint_rulings`] joined with the edges of shaded columns ([`vertical_steps`]): a
/// shaded number column's edge stands for the column ruling a form does not print there. Edges
/// of every shade and print come out too, so this binary is a last try. A shaded column dark
/// enough to binarize is taken out first ([`clear_shaded_columns`]): the solid bar it makes
/// would join its two edges into one thick line, a ruling at neither edge.
pub fn binarize_with_shade_edges(g: &GrayImage, r: usize, pct: u64, min_diff: u64) -> Bin {
    let mut b = binarize_faint_rulings(g, r, pct, min_diff);
    clear_shaded_columns(&mut b, g);
    let mut shade_edges = vertical_steps(g);
    close_gaps_down(&mut shade_edges, DASH_GAP);
    b.d.iter_mut().zip(&shade_edges.d).for_each(|(p, &q)| *p |= q);
    b
}

/// [`binarize_with_shade_edges`] joined with the edges of shaded rows ([`vertical_steps`] turned
/// a quarter): on a form that shades every other row and rules none, the bands' edges stand for
/// the row rulings, where the plain binaries see one ruling every two rows. The edges of every
/// shaded heading and column come out across too, and tell the page's orientation less well, so
/// this binary comes after the others.
pub fn binarize_with_shaded_rows(g: &GrayImage, r: usize, pct: u64, min_diff: u64) -> Bin {
    let mut b = binarize_with_shade_edges(g, r, pct, min_diff);
    let mut row_edges = vertical_steps(&image::imageops::rotate90(g));
    close_gaps_down(&mut row_edges, DASH_GAP);
    join_turned(&mut b, &row_edges);
    b
}

/// Joins to `b` the ink of `turned`, a binary of `b`'s image turned a quarter
/// (`image::imageops::rotate90`).
fn join_turned(b: &mut Bin, turned: &Bin) {
    // (the quarter turn maps (x, y) to (h - 1 - y, x))
    let h = b.h;
    for y in 0..b.h {
        for x in 0..b.w {
            if turned.get(h - 1 - y, x) {
                b.d[y * b.w + x] = 1;
            }
        }
    }
}

/// The longest gap (pixels) between the dashes or dots of a ruling that [`binarize_faint_rulings`]
/// closes.
const DASH_GAP: usize = 5;
/// Half the run along a row over which [`binarize_dotted_rulings`] also looks for ridges (pixels):
/// a dotted ruling's dots, blurred and a few pixels apart, are too faint one by one (a synthetic
/// scan's dotted rows: 8 levels under paper at 235 on average along the row).
const DOT_RUN: usize = 4;
/// Those ridges are at least 2 levels and 1 / 40 (2.5 %) of the paper's level darker than their
/// neighbours: half the depth a ridge one pixel long needs, the grain being averaged out.
const DOT_MIN_LEVELS: u32 = 2;
const DOT_DEPTH_DIVISOR: u32 = 40;

/// Half the side of the square (pixels) over which [`filled_areas`] measures how much of the
/// page around a pixel is inked: a ruling is 1-3 pixels thick at the analysed size, a blurred
/// double ruling 5, a shaded column a pitch wide (12-40).
const FILLED_HALF_SIDE: usize = 4;
/// The share of that square inked, at least, around a pixel of a filled area: a ruling 3 pixels
/// thick inks a third of it, two crossing a little over a half; a shade binarized with the
/// paper's grain through it inks most of it.
const FILLED_SHARE: f64 = 0.7;
/// How many times taller than wide a filled area is, at least, to be a shaded column: a column
/// runs down a block's rows; a shaded heading, row or box is as wide as a column or wider and a
/// row or two high.
const SHADED_COLUMN_TALLNESS: u32 = 3;
/// A shaded column is at most this share of the analysed image's width (`1 / divisor`) across: a
/// number column is 1-3 pitches wide, a page 25-60.
const WIDEST_SHADED_COLUMN_DIVISOR: usize = 12;
/// How much lighter than a shaded column the paper beside it is, at least, on three pixels'
/// mean: a tenth of the shade's grey and 10 levels.
const SHADE_STEP_SHARE: f64 = 0.1;
const SHADE_STEP_LEVELS: f64 = 10.0;

/// Clears the ink of shaded columns from `b`, the binary of `g`: runs along a row of
/// [`filled_areas`] that run down the page [`SHADED_COLUMN_TALLNESS`] times as far as across, at
/// most [`WIDEST_SHADED_COLUMN_DIVISOR`] of the image wide, and lie on paper
/// ([`lies_on_paper`]). Rulings stay where no such area lies across them, and so does the area's
/// rim, which the filled areas' square reaches beyond: a shaded column comes out as two lines at
/// its edges.
fn clear_shaded_columns(b: &mut Bin, g: &GrayImage) {
    let (w, h) = (b.w, b.h);
    let filled = filled_areas(b);
    let down = ink_runs_down(&filled);
    let widest = w / WIDEST_SHADED_COLUMN_DIVISOR;
    for y in 0..h {
        let row = &filled.d[y * w..(y + 1) * w];
        let mut x = 0;
        while x < w {
            if row[x] == 0 {
                x += 1;
                continue;
            }
            let start = x;
            while x < w && row[x] != 0 {
                x += 1;
            }
            // (the dark background beside a photographed page can reach the image's side)
            let across = x - start;
            if start == 0 || x == w || across > widest || !lies_on_paper(g, y, start..x, widest) {
                continue;
            }
            for i in y * w + start..y * w + x {
                if down[i] >= SHADED_COLUMN_TALLNESS * across as u32 {
                    b.d[i] = 0;
                }
            }
        }
    }
}

/// The pixels of `b`'s filled areas: ink around which at least [`FILLED_SHARE`] of the square
/// [`FILLED_HALF_SIDE`] pixels to either side is inked.
fn filled_areas(b: &Bin) -> Bin {
    let (w, h) = (b.w, b.h);
    // (the count of ink above and left of each pixel, one row and column of zeros first)
    let mut inked_before = vec![0u32; (w + 1) * (h + 1)];
    for y in 0..h {
        let mut in_row = 0;
        for x in 0..w {
            in_row += u32::from(b.d[y * w + x]);
            inked_before[(y + 1) * (w + 1) + x + 1] = inked_before[y * (w + 1) + x + 1] + in_row;
        }
    }
    let at = |row: usize, column: usize| inked_before[row * (w + 1) + column];
    let side = 2 * FILLED_HALF_SIDE + 1;
    let least = (FILLED_SHARE * (side * side) as f64).ceil() as u32;
    let mut filled = Bin::new(w, h);
    for y in FILLED_HALF_SIDE..h.saturating_sub(FILLED_HALF_SIDE) {
        let (top, bottom) = (y - FILLED_HALF_SIDE, y + FILLED_HALF_SIDE + 1);
        for x in FILLED_HALF_SIDE..w.saturating_sub(FILLED_HALF_SIDE) {
            let (left, right) = (x - FILLED_HALF_SIDE, x + FILLED_HALF_SIDE + 1);
            if b.d[y * w + x] != 0 && at(bottom, right) + at(top, left) - at(top, right) - at(bottom, left) >= least {
                filled.d[y * w + x] = 1;
            }
        }
    }
    filled
}

/// Whether the run `span` of row `y` lies on paper in `g`: within `reach` pixels of it on both
/// sides, the grey (three pixels' mean) comes up lighter than at the run's middle by
/// [`SHADE_STEP_SHARE`] and [`SHADE_STEP_LEVELS`]. A shaded column does, as does a shade's rim,
/// the shade within reach on one side and paper beyond it; the dark background beside a
/// photographed page, which binarizes only along the page's edge, stays dark on its far side,
/// and the white a straightened image is padded with is no paper.
fn lies_on_paper(g: &GrayImage, y: usize, span: std::ops::Range<usize>, reach: usize) -> bool {
    let w = g.width() as usize;
    let grey_at = |x: usize| f64::from(g.get_pixel(x as u32, y as u32).0[0]);
    let paper_mean = |x: usize| {
        let levels = [grey_at(x - 1), grey_at(x), grey_at(x + 1)];
        (!levels.contains(&255.0)).then(|| levels.iter().sum::<f64>() / 3.0)
    };
    let inside = grey_at((span.start + span.end) / 2);
    let lighter = inside + (inside * SHADE_STEP_SHARE).max(SHADE_STEP_LEVELS);
    let lighter_at = |x: usize| paper_mean(x).is_some_and(|level| level >= lighter);
    (span.start.saturating_sub(reach).max(1)..span.start).any(lighter_at)
        && (span.end..(span.end + reach).min(w - 1)).any(lighter_at)
}

/// For each pixel of `b`, the length of the run of ink down its column that it lies in (0 on
/// paper).
fn ink_runs_down(b: &Bin) -> Vec<u32> {
    let mut lengths = vec![0u32; b.w * b.h];
    for x in 0..b.w {
        let mut y = 0;
        while y < b.h {
            if b.d[y * b.w + x] == 0 {
                y += 1;
                continue;
            }
            let start = y;
            while y < b.h && b.d[y * b.w + x] != 0 {
                y += 1;
            }
            for t in start..y {
                lengths[t * b.w + x] = (y - start) as u32;
            }
        }
    }
    lengths
}

/// Fills each column's gaps of at most `gap` pixels between ink.
fn close_gaps_down(b: &mut Bin, gap: usize) {
    for x in 0..b.w {
        let mut last: Option<usize> = None;
        for y in 0..b.h {
            if b.d[y * b.w + x] == 0 {
                continue;
            }
            if let Some(l) = last
                && y > l + 1
                && y - l - 1 <= gap
            {
                for yy in l + 1..y {
                    b.d[yy * b.w + x] = 1;
                }
            }
            last = Some(y);
        }
    }
}

/// A straight ruling found on the page: for a horizontal ruling `y = intercept + slope x` over
/// `x in [start, end]` (for a vertical one, the same with x and y swapped).
#[derive(Clone, Copy, Debug)]
pub struct Line {
    pub intercept: f64,
    pub slope: f64,
    pub start: f64,
    pub end: f64,
}

impl Line {
    /// Cross coordinate at position `t` along the ruling.
    pub fn at(&self, t: f64) -> f64 {
        self.intercept + self.slope * t
    }
    /// Length along the ruling.
    pub fn len(&self) -> f64 {
        self.end - self.start
    }
    /// Cross coordinate at the ruling's middle.
    pub fn mid(&self) -> f64 {
        self.at(0.5 * (self.start + self.end))
    }
    /// The same ruling moved across by `by`.
    pub fn shifted(&self, by: f64) -> Line {
        Line { intercept: self.intercept + by, ..*self }
    }
}

/// Largest gap (pixels) bridged inside a ruling.
const GAP: usize = 0;

/// Horizontal rulings: pixels in horizontal runs at least `min_run` long (after a vertical
/// dilation by `tol` pixels, so gently sloped lines survive), grouped into connected pieces and
/// fitted with a straight line; pieces shorter than `min_len` or thick everywhere (filled areas,
/// shadows at the page border) are dropped. Handwriting crossing a ruling does not break it.
pub fn rulings(b: &Bin, min_run: usize, tol: usize, min_len: f64) -> Vec<Line> {
    rulings_upto(b, min_run, tol, min_len, 2 * tol + 6)
}

/// [`rulings`] with lines up to `thin_max` pixels thick (after the dilation) taken for rulings.
pub fn rulings_upto(b: &Bin, min_run: usize, tol: usize, min_len: f64, thin_max: usize) -> Vec<Line> {
    find_rulings(b, min_run, tol, min_len, thin_max, false)
}

/// [`rulings`] for the rows of a table, where handwriting may touch two row rulings and join
/// them into one piece: such a piece is followed ruling by ruling ([`follow_rulings`]).
pub fn row_rulings(b: &Bin, min_run: usize, tol: usize, min_len: f64) -> Vec<Line> {
    find_rulings(b, min_run, tol, min_len, 2 * tol + 6, true)
}

/// [`rulings_upto`], pieces holding several rulings followed ruling by ruling where
/// `follow_joined`.
fn find_rulings(b: &Bin, min_run: usize, tol: usize, min_len: f64, thin_max: usize, follow_joined: bool) -> Vec<Line> {
    let (w, h) = (b.w, b.h);
    // runs: (y, x0, x1 exclusive)
    let mut runs: Vec<(u32, u32, u32)> = Vec::new();
    let mut row_start = vec![0usize; h + 1];
    let mut dil = vec![0u8; w];
    for (y, rs) in row_start.iter_mut().enumerate().take(h) {
        *rs = runs.len();
        let ya = y.saturating_sub(tol);
        let yb = (y + tol).min(h - 1);
        dil.copy_from_slice(&b.d[ya * w..ya * w + w]);
        for yy in ya + 1..=yb {
            for (d, s) in dil.iter_mut().zip(&b.d[yy * w..yy * w + w]) {
                *d |= *s;
            }
        }
        let mut x = next_ink(&dil, 0);
        while x < w {
            let s = x;
            // (gaps of up to GAP pixels are bridged: faint rulings binarize as dashes)
            let mut end = next_blank(&dil, x);
            let mut next = next_ink(&dil, end);
            while next < w && next - end <= GAP {
                end = next_blank(&dil, next);
                next = next_ink(&dil, end);
            }
            if end - s >= min_run {
                runs.push((y as u32, s as u32, end as u32));
            }
            x = next;
        }
    }
    row_start[h] = runs.len();
    // union-find over overlapping runs on adjacent rows
    let mut parent: Vec<usize> = (0..runs.len()).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for y in 0..h.saturating_sub(1) {
        let (mut i, ie) = (row_start[y], row_start[y + 1]);
        let (mut j, je) = (row_start[y + 1], row_start[y + 2]);
        while i < ie && j < je {
            let (_, a0, a1) = runs[i];
            let (_, b0, b1) = runs[j];
            if a0 < b1 && b0 < a1 {
                let (ri, rj) = (find(&mut parent, i), find(&mut parent, j));
                if ri != rj {
                    parent[ri] = rj;
                }
            }
            if a1 < b1 {
                i += 1;
            } else {
                j += 1;
            }
        }
    }
    // (pieces in order of their root run, not a hash map's order: two pieces with the same
    // middle keep one order from run to run, and the page reads the same each time)
    let mut groups: std::collections::BTreeMap<usize, Vec<usize>> = std::collections::BTreeMap::new();
    for i in 0..runs.len() {
        let r = find(&mut parent, i);
        groups.entry(r).or_default().push(i);
    }
    let thin_max = thin_max as u32;
    let mut segs = Vec::new();
    let mut cnt = vec![0u32; w];
    let mut sumy = vec![0u64; w];
    for (_, members) in groups {
        let x0 = members.iter().map(|&i| runs[i].1).min().unwrap_or(0) as usize;
        let x1 = members.iter().map(|&i| runs[i].2).max().unwrap_or(0) as usize;
        if ((x1 - x0) as f64) < min_len {
            continue;
        }
        for x in x0..x1 {
            cnt[x] = 0;
            sumy[x] = 0;
        }
        for &i in &members {
            let (y, a, bb) = runs[i];
            for x in a as usize..bb as usize {
                cnt[x] += 1;
                sumy[x] += y as u64;
            }
        }
        // (a piece holding two rulings or more, joined by handwriting that touches both, is
        // followed along each of them: the mean of its rows at each x lies between the rulings)
        if follow_joined {
            let crossings = thin_crossings(&runs, &members, x0, x1, thin_max);
            if holds_several_rulings(&crossings, x1 - x0) {
                // (followed, at least two rulings run along half the piece: else the second is
                // handwriting along one ruling, and the piece one ruling as before)
                let half_width = 0.5 * (x1 - x0) as f64;
                let followed: Vec<Line> = follow_rulings(&crossings)
                    .iter()
                    .filter_map(|track| line_through(track, min_len.max(half_width)))
                    .collect();
                if followed.len() >= 2 {
                    segs.extend(followed);
                    continue;
                }
            }
        }
        let pts: Vec<(f64, f64)> = (x0..x1)
            .filter(|&x| cnt[x] > 0 && cnt[x] <= thin_max)
            .map(|x| (x as f64, sumy[x] as f64 / cnt[x] as f64))
            .collect();
        if (pts.len() as f64) < 0.4 * (x1 - x0) as f64 || pts.len() < 8 {
            continue;
        }
        let Some((a, bs)) = fit_with_inliers(&pts) else { continue };
        segs.push(Line { intercept: a, slope: bs, start: x0 as f64, end: x1 as f64 });
    }
    crate::sort::by_key(&mut segs, |p| p.mid());
    segs
}

/// A straight line fitted to `pts`, and fitted again to the points within 2.5 px of it where
/// those are at least half.
fn fit_with_inliers(pts: &[(f64, f64)]) -> Option<(f64, f64)> {
    let (a, slope) = fit(pts)?;
    let inliers: Vec<(f64, f64)> = pts.iter().copied().filter(|&(x, y)| (y - a - slope * x).abs() < 2.5).collect();
    if inliers.len() >= pts.len() / 2 { fit(&inliers).or(Some((a, slope))) } else { Some((a, slope)) }
}

/// Where a piece of the rulings' binary crosses one column: the column `x` and the middle row `y`
/// of one unbroken run of its pixels down that column, no thicker than a ruling.
#[derive(Clone, Copy, Debug)]
struct Crossing {
    x: u32,
    y: f64,
}

/// The thin crossings of the piece made of `members` (indices of `runs`, in row order), which
/// spans columns `x0..x1`, column by column, in order of x then y.
fn thin_crossings(runs: &[(u32, u32, u32)], members: &[usize], x0: usize, x1: usize, thin_max: u32) -> Vec<Crossing> {
    // (each column's open stretch of rows: its first and last row)
    let mut open: Vec<Option<(u32, u32)>> = vec![None; x1 - x0];
    let mut crossings = Vec::new();
    let mut close = |x: usize, (first, last): (u32, u32)| {
        if last + 1 - first <= thin_max {
            crossings.push(Crossing { x: x as u32, y: 0.5 * (first + last) as f64 });
        }
    };
    for &i in members {
        let (y, a, b) = runs[i];
        for x in a as usize..b as usize {
            let stretch = &mut open[x - x0];
            match stretch {
                Some((_, last)) if *last + 1 == y => *last = y,
                _ => {
                    if let Some(done) = stretch.replace((y, y)) {
                        close(x, done);
                    }
                }
            }
        }
    }
    for (dx, stretch) in open.into_iter().enumerate() {
        if let Some(done) = stretch {
            close(x0 + dx, done);
        }
    }
    crate::sort::by_key(&mut crossings, |c| c.x as f64 * 1e6 + c.y);
    crossings
}

/// The least distance (pixels) between two rulings of one piece: closer crossings are one
/// ruling's (a double rule, a ruling and the print on it).
const LEAST_RULING_DISTANCE: f64 = 8.0;
/// The share of a piece's columns that must cross two rulings or more for it to be followed
/// ruling by ruling.
const SEVERAL_RULINGS_SHARE: f64 = 0.3;

/// Whether the piece of those `crossings`, `width` columns wide, holds several rulings: at
/// [`SEVERAL_RULINGS_SHARE`] of its columns it is crossed twice, [`LEAST_RULING_DISTANCE`] apart.
fn holds_several_rulings(crossings: &[Crossing], width: usize) -> bool {
    let mut columns_crossed_twice = 0usize;
    for column in crossings.chunk_by(|a, b| a.x == b.x) {
        if column.last().map_or(0.0, |c| c.y) - column[0].y >= LEAST_RULING_DISTANCE {
            columns_crossed_twice += 1;
        }
    }
    columns_crossed_twice as f64 >= SEVERAL_RULINGS_SHARE * width as f64
}

/// The widest gap (columns) a ruling is followed across, where handwriting crossing it makes
/// its column thick.
const FOLLOW_GAP: u32 = 64;
/// The most a ruling's row moves from one crossing to the next (pixels), and per column of gap.
const FOLLOW_STEP: f64 = 1.5;
const FOLLOW_SLOPE: f64 = 0.05;

/// The rulings of a piece crossed at `crossings` (in order of x): each crossing continues the
/// ruling whose last crossing lies nearest in the columns just before, else starts one.
fn follow_rulings(crossings: &[Crossing]) -> Vec<Vec<Crossing>> {
    let mut tracks: Vec<Vec<Crossing>> = Vec::new();
    for column in crossings.chunk_by(|a, b| a.x == b.x) {
        let mut extended: Vec<usize> = Vec::new();
        for &c in column {
            let nearest = tracks
                .iter()
                .enumerate()
                .filter(|(i, t)| {
                    !extended.contains(i) && t.last().is_some_and(|l| l.x < c.x && c.x - l.x <= FOLLOW_GAP)
                })
                .map(|(i, t)| {
                    let last = t.last().expect("tracks are never empty");
                    (i, (last.y - c.y).abs(), FOLLOW_STEP + FOLLOW_SLOPE * (c.x - last.x - 1) as f64)
                })
                .filter(|&(_, distance, reach)| distance <= reach)
                .min_by(|a, b| a.1.total_cmp(&b.1));
            match nearest {
                Some((i, _, _)) => {
                    tracks[i].push(c);
                    extended.push(i);
                }
                None => {
                    extended.push(tracks.len());
                    tracks.push(vec![c]);
                }
            }
        }
    }
    tracks
}

/// The ruling through one followed `track`, where it is at least `min_len` long and crossed at
/// 40 % of its columns (8 at least).
fn line_through(track: &[Crossing], min_len: f64) -> Option<Line> {
    let (start, end) = (track.first()?.x as f64, track.last()?.x as f64 + 1.0);
    if end - start < min_len || (track.len() as f64) < 0.4 * (end - start) || track.len() < 8 {
        return None;
    }
    let pts: Vec<(f64, f64)> = track.iter().map(|c| (c.x as f64, c.y)).collect();
    let (intercept, slope) = fit_with_inliers(&pts)?;
    Some(Line { intercept, slope, start, end })
}

/// The first ink pixel of `row` at or after `from` (`row.len()` where none is): blank pixels are
/// skipped eight at a time, most of a binary being blank.
pub(super) fn next_ink(row: &[u8], from: usize) -> usize {
    let mut x = from;
    while x + 8 <= row.len() && u64::from_ne_bytes(row[x..x + 8].try_into().expect("eight bytes")) == 0 {
        x += 8;
    }
    x + row[x..].iter().position(|&v| v != 0).unwrap_or(row.len() - x)
}

/// The first blank pixel of `row` at or after `from` (`row.len()` where none is).
fn next_blank(row: &[u8], from: usize) -> usize {
    from + row[from..].iter().position(|&v| v == 0).unwrap_or(row.len() - from)
}

fn fit(pts: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n = pts.len() as f64;
    let (sx, sy) = pts.iter().fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y));
    let (mx, my) = (sx / n, sy / n);
    let (mut sxx, mut sxy) = (0.0, 0.0);
    for &(x, y) in pts {
        sxx += (x - mx) * (x - mx);
        sxy += (x - mx) * (y - my);
    }
    if sxx < 1e-9 {
        return None;
    }
    let b = sxy / sxx;
    Some((my - b * mx, b))
}

/// Skew angle in degrees (within `[-max_deg, max_deg]`, 0.1 degree resolution) that makes the
/// ink's horizontal projection profile sharpest, and that sharpness. Rotating the page by
/// `-angle` straightens it.
pub fn skew(b: &Bin, max_deg: f64) -> (f64, f64) {
    // sample ink pixels that belong to horizontal runs (>= 3) to favour lines, and to thin
    // vertical runs: the dark band along a paper edge against the background is thick
    let mut thick = vec![false; b.w * b.h];
    // (row by row, each column's current vertical run kept: the image is read in memory order)
    let mut run_start = vec![0usize; b.w];
    for y in 0..=b.h {
        for x in 0..b.w {
            let inked = y < b.h && b.d[y * b.w + x] != 0;
            if inked {
                continue;
            }
            // (a run of ink ends above this pixel: rows run_start[x]..y)
            let s = run_start[x];
            if y - s > 4 {
                for t in s..y {
                    thick[t * b.w + x] = true;
                }
            }
            run_start[x] = y + 1;
        }
    }
    let mut pts: Vec<(f32, f32)> = Vec::new();
    for y in 0..b.h {
        let row = &b.d[y * b.w..(y + 1) * b.w];
        let mut x = 0;
        while x < b.w {
            if row[x] != 0 {
                let s = x;
                while x < b.w && row[x] != 0 {
                    x += 1;
                }
                if x - s >= 3 {
                    let mut t = s;
                    while t < x {
                        if !thick[y * b.w + t] {
                            pts.push((t as f32, y as f32));
                        }
                        t += 2;
                    }
                }
            } else {
                x += 1;
            }
        }
    }
    if pts.len() < 100 {
        return (0.0, 0.0);
    }
    let diag = ((b.w * b.w + b.h * b.h) as f64).sqrt();
    let nb = (2.0 * diag) as usize + 4;
    let mut hist = vec![0u32; nb];
    let mut score = |deg: f64| -> f64 {
        let (s, c) = deg.to_radians().sin_cos();
        let (s, c) = (s as f32, c as f32);
        hist.iter_mut().for_each(|v| *v = 0);
        let off = diag as f32 + 2.0;
        for &(x, y) in &pts {
            let v = y * c - x * s + off;
            hist[v as usize] += 1;
        }
        hist.iter().map(|&v| (v as f64) * (v as f64)).sum::<f64>()
    };
    let mut best = (0.0, f64::MIN);
    let steps = (max_deg / 0.5).round() as i64;
    for i in -steps..=steps {
        let d = i as f64 * 0.5;
        let s = score(d);
        if s > best.1 {
            best = (d, s);
        }
    }
    let c = best.0;
    for i in -5..=5 {
        let d = c + i as f64 * 0.1;
        let s = score(d);
        if s > best.1 {
            best = (d, s);
        }
    }
    let n = pts.len() as f64;
    ((best.0 * 10.0).round() / 10.0, best.1 / (n * n))
}

/// Joins pieces of one ruling broken by a faint or damaged print: pieces whose lines agree within
/// `tol` pixels at the gap between them and whose gap is at most `max_gap` become one ruling,
/// fitted to all pieces (weighted by length).
pub fn join_broken(mut segs: Vec<Line>, tol: f64, max_gap: f64) -> Vec<Line> {
    crate::sort::by_key(&mut segs, |p| p.start);
    // (segment, weighted sums for the fit: w, t, y, tt, ty)
    let mut out: Vec<(Line, [f64; 5])> = Vec::new();
    let sums = |s: &Line| {
        let mut acc = [0.0; 5];
        let w = s.len().max(1.0) / 3.0;
        for t in [s.start, 0.5 * (s.start + s.end), s.end] {
            let y = s.at(t);
            acc[0] += w;
            acc[1] += w * t;
            acc[2] += w * y;
            acc[3] += w * t * t;
            acc[4] += w * t * y;
        }
        acc
    };
    for s in segs {
        let hit = out.iter_mut().find(|(m, _)| {
            let gap = s.start - m.end;
            gap <= max_gap
                && s.end > m.end
                && (m.at(s.start) - s.at(s.start)).abs() < tol
                && (m.at(m.end) - s.at(m.end)).abs() < tol
                && (m.slope - s.slope).abs() < 0.02
        });
        match hit {
            Some((m, acc)) => {
                let add = sums(&s);
                for (a, b) in acc.iter_mut().zip(add) {
                    *a += b;
                }
                let (w, t, y, tt, ty) = (acc[0], acc[1], acc[2], acc[3], acc[4]);
                let den = w * tt - t * t;
                if den.abs() > 1e-9 {
                    let b = (w * ty - t * y) / den;
                    *m = Line { intercept: (y - b * t) / w, slope: b, start: m.start, end: s.end };
                } else {
                    m.end = s.end;
                }
            }
            None => {
                let acc = sums(&s);
                out.push((s, acc));
            }
        }
    }
    let mut segs: Vec<Line> = out.into_iter().map(|(s, _)| s).collect();
    crate::sort::by_key(&mut segs, |p| p.mid());
    segs
}

/// How a found ruling lies in the binary it was found in (`b` in the ruling's own orientation:
/// horizontal rulings in the page, vertical ones in the transposed page): mean width of the ink
/// run it crosses at each position and mean distance of that run's centre from the fitted line,
/// over the positions where it has ink, and the share of positions with ink. A printed ruling is thin and straight; a stack of printed
/// digits touching the row rulings (which can read as a vertical ruling) is wide and ragged.
pub fn profile(b: &Bin, s: &Line) -> (f64, f64, f64) {
    let (mut n, mut wsum, mut dsum, mut all) = (0usize, 0.0, 0.0, 0usize);
    let t0 = s.start.max(0.0) as usize;
    let t1 = (s.end as usize).min(b.w.saturating_sub(1));
    for t in t0..=t1 {
        let c = s.at(t as f64 + 0.5);
        if c < 0.0 || c >= b.h as f64 {
            continue;
        }
        let ci = c as usize;
        all += 1;
        // nearest ink within 2 px
        let Some(y) =
            (0..=2usize).flat_map(|d| [ci.checked_sub(d), Some(ci + d)]).flatten().find(|&y| y < b.h && b.get(t, y))
        else {
            continue;
        };
        let (mut lo, mut hi) = (y, y);
        while lo > 0 && b.get(t, lo - 1) && y - lo < 12 {
            lo -= 1;
        }
        while hi + 1 < b.h && b.get(t, hi + 1) && hi - y < 12 {
            hi += 1;
        }
        n += 1;
        wsum += (hi - lo + 1) as f64;
        dsum += ((lo + hi) as f64 * 0.5 + 0.5 - c).abs();
    }
    if n == 0 {
        return (f64::MAX, f64::MAX, 0.0);
    }
    (wsum / n as f64, dsum / n as f64, n as f64 / all.max(1) as f64)
}

/// Share of the positions `t0..t1` along a ruling where `b` (in the ruling's own orientation, see
/// [`profile`]) has ink within a pixel of the line.
pub fn cover(b: &Bin, s: &Line, t0: f64, t1: f64) -> f64 {
    cover_band(b, s, t0, t1, 1)
}

/// [`cover`] with ink looked for within `band` pixels of the line.
pub fn cover_band(b: &Bin, s: &Line, t0: f64, t1: f64, band: usize) -> f64 {
    let (mut n, mut all) = (0usize, 0usize);
    for t in t0.max(0.0) as usize..(t1.max(0.0) as usize).min(b.w) {
        let c = s.at(t as f64 + 0.5);
        if c < 0.0 || c >= b.h as f64 {
            continue;
        }
        all += 1;
        let ci = c as usize;
        if (ci.saturating_sub(band)..=(ci + band).min(b.h - 1)).any(|y| b.get(t, y)) {
            n += 1;
        }
    }
    n as f64 / all.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 60 x 40 page of grey 230 with a column shaded 170 over x 10..20, a thin ruling of 150 at
    /// x 30 and a bold one 3 px wide at x 45..48.
    fn page_with_shade_and_rulings() -> GrayImage {
        GrayImage::from_fn(60, 40, |x, _| {
            let v = match x {
                10..20 => 170,
                30 => 150,
                45..48 => 60,
                _ => 230,
            };
            image::Luma([v])
        })
    }

    fn columns_marked(b: &Bin, y: usize) -> Vec<usize> {
        (0..b.w).filter(|&x| b.get(x, y)).collect()
    }

    #[test]
    fn a_shaded_columns_edges_are_steps_and_rulings_are_not() {
        let steps = vertical_steps(&page_with_shade_and_rulings());
        for y in 0..40 {
            let marked = columns_marked(&steps, y);
            // (one pixel at each edge of the shade, beside the pixel where the grey changes)
            assert_eq!(marked.len(), 2, "row {y}: {marked:?}");
            assert!((8..=10).contains(&marked[0]) && (19..=21).contains(&marked[1]), "row {y}: {marked:?}");
        }
    }

    #[test]
    fn the_edges_of_rows_shaded_every_other_row_come_out_as_row_rulings() {
        // a 120 x 160 page of grey 235 whose rows, 20 px high, are shaded 205 every other row
        // (y 20..40, 60..80, ...), no ruling printed
        let page = GrayImage::from_fn(120, 160, |_, y| image::Luma([if (y / 20) % 2 == 1 { 205 } else { 235 }]));
        let binary = binarize_with_shaded_rows(&page, 8, 85, 12);
        let inked_across = |y: usize| (20..100).filter(|&x| binary.get(x, y)).count();
        for edge in [20, 40, 60, 80, 100, 120, 140] {
            let marked = (edge - 1..=edge + 1).map(inked_across).max().unwrap_or(0);
            assert!(marked >= 76, "edge at y {edge}: {marked} of 80 pixels");
        }
        for middle in [10, 30, 50, 70, 90, 110, 130] {
            assert_eq!(inked_across(middle), 0, "row middle at y {middle}");
        }
    }

    #[test]
    fn flat_paper_has_no_steps() {
        let steps = vertical_steps(&GrayImage::from_pixel(40, 20, image::Luma([200])));
        assert!(steps.d.iter().all(|&p| p == 0));
    }

    #[test]
    fn a_shaded_column_comes_out_as_its_two_edges_and_a_photos_dark_background_as_it_binarizes() {
        // paper at 235; a number column shaded 130, x 100..120, y 20..180 (narrower than the
        // binary's window, so it binarizes solid); rows ruled at 60 every 20 px across x 60..280;
        // left of the page's edge at x 50, the dark background of a photo (100), and the white
        // a straightened image is padded with at x 0..8
        let page = GrayImage::from_fn(300, 200, |x, y| {
            let level = match (x, y) {
                (0..8, _) => 255,
                (8..50, _) => 100,
                (60..280, _) if y % 20 < 2 => 60,
                (100..120, 20..180) => 130,
                _ => 235,
            };
            image::Luma([level])
        });
        let binary = binarize_with_shade_edges(&page, 15, 90, 8);
        let plain = binarize_with(&page, 15, 90, 8);
        for y in (25..175).step_by(20) {
            assert!(plain.get(110, y), "row {y}: the shade binarizes in the plain binary");
            assert!(!binary.get(110, y), "row {y}: the shade's middle is no ruling");
            for edge in [100..103, 117..120] {
                assert!(edge.clone().any(|x| binary.get(x, y)), "row {y}: no ink at the edge {edge:?}");
            }
            assert!((44..50).any(|x| binary.get(x, y)), "row {y}: the background along the page's edge");
        }
    }

    #[test]
    fn a_faint_dotted_row_ruling_comes_out_whole_in_the_dotted_rulings_binary() {
        // paper at 233-235 (a little grain); a row ruling at y 19..=21 of dots 2 px long every
        // 4 px, 14 levels darker: 7 levels under the paper on average along the row, as a
        // synthetic scan's dotted rows are, each dot too faint for the plain ridges; and a dash
        // of ink 8 px long, 60 levels darker
        let page = GrayImage::from_fn(120, 40, |x, y| {
            let grain = ((x * 7 + y * 13) % 5) as u8;
            let dot = (19..=21).contains(&y) && x % 4 < 2;
            let dash = y == 32 && (40..48).contains(&x);
            let level = match (dash, dot) {
                (true, _) => 175,
                (false, true) => 221,
                (false, false) => 233 + grain / 2,
            };
            image::Luma([level])
        });
        let binary = binarize_dotted_rulings(&page, 8, 85, 12);
        let longest_run_in_row = |y: usize| {
            let (mut best, mut run) = (0, 0);
            for x in 0..binary.w {
                run = if binary.get(x, y) { run + 1 } else { 0 };
                best = best.max(run);
            }
            best
        };
        assert!(
            (19..=21).any(|y| longest_run_in_row(y) >= 100),
            "{:?}",
            (18..=22).map(longest_run_in_row).collect::<Vec<_>>()
        );
        let elsewhere: Vec<usize> = (0..15).chain(26..40).map(longest_run_in_row).collect();
        // (the dash comes out longer by the run it is averaged over, far short of a ruling)
        assert!(elsewhere.iter().all(|&run| run <= 8 + 2 * DOT_RUN), "{elsewhere:?}");
    }

    /// A 300 x 60 binary with row rulings 2 px thick at y 20 and 35 over x 10..290, and ink
    /// 30 px wide (a move crossed out) down y 17..40 at x 140 touching both: its rows are runs
    /// long enough for a ruling's, so the two rulings and the ink are one piece.
    fn two_rulings_joined_by_ink() -> Bin {
        let mut b = Bin::new(300, 60);
        for x in 10..290 {
            for y in [20, 21, 35, 36] {
                b.d[y * 300 + x] = 1;
            }
        }
        for y in 17..40 {
            for x in 140..170 {
                b.d[y * 300 + x] = 1;
            }
        }
        b
    }

    #[test]
    fn two_row_rulings_joined_by_ink_come_out_as_two_lines() {
        let b = two_rulings_joined_by_ink();
        let rows = row_rulings(&b, 20, 1, 40.0);
        let at: Vec<String> = rows.iter().map(|l| format!("y {:.1} x {}..{}", l.mid(), l.start, l.end)).collect();
        assert_eq!(rows.len(), 2, "{at:?}");
        assert!((rows[0].mid() - 20.5).abs() < 0.6 && (rows[1].mid() - 35.5).abs() < 0.6, "{at:?}");
        assert!(rows.iter().all(|l| l.start <= 12.0 && l.end >= 288.0), "{at:?}");
        // (taken as one piece, the two are fitted as one line between them)
        let one_piece = rulings(&b, 20, 1, 40.0);
        assert!(one_piece.len() == 1 && (one_piece[0].mid() - 28.0).abs() < 1.0, "{one_piece:?}");
    }

    #[test]
    fn pieces_at_one_height_come_out_left_to_right_every_time() {
        // eight row rulings 30 px long, 10 px apart, all at y 10 and 11: their middles are equal,
        // so only the order the pieces are gathered in sets their order
        let mut b = Bin::new(340, 24);
        for piece in 0..8 {
            for x in 10 + 40 * piece..40 + 40 * piece {
                for y in [10, 11] {
                    b.d[y * 340 + x] = 1;
                }
            }
        }
        let starts = |rulings: Vec<Line>| rulings.iter().map(|l| l.start as usize).collect::<Vec<_>>();
        let left_to_right: Vec<usize> = (0..8).map(|piece| 10 + 40 * piece).collect();
        for _ in 0..20 {
            assert_eq!(starts(rulings(&b, 20, 1, 20.0)), left_to_right);
            assert_eq!(starts(row_rulings(&b, 20, 1, 20.0)), left_to_right);
        }
    }
}
