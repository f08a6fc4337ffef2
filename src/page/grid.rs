//! From rulings on a straightened binary page to labelled move cells.

use std::collections::HashMap;

use image::GrayImage;

use super::Side;
use super::lines::{self, Bin, Line, join_broken, row_rulings, rulings};

mod zones;

use zones::{add_number_zones, part_columns_between_number_columns, part_columns_holding_black_and_the_next_white};

/// A labelled cell in the straightened frame of the analysis (small scale).
#[derive(Clone, Debug)]
pub struct GCell {
    pub mv: u32,
    /// The block (index into [`Grid::Found`]'s blocks) and its row the cell lies in.
    pub block: usize,
    pub row: usize,
    pub side: Side,
    /// `[x0, y0, x1, y1]` in the analysed binary's coordinates.
    pub bx: [f64; 4],
    pub ink: f64,
    /// Ink share of the cell's window moved down by each of [`super::LOW_OFFSETS`].
    pub ink_low: [f64; 2],
}

/// One block of the form: a move-number column followed by white and black columns.
#[derive(Clone, Debug)]
pub struct GBlock {
    pub first: u32,
    pub rows: u32,
    pub bx: [f64; 4],
    /// The number cell of each row, top to bottom.
    pub number_cells: Vec<[f64; 4]>,
    /// The cells of each row in another column that may hold the printed numbers
    /// ([`BlockColumns::other_number`]); empty where none does.
    pub other_number_cells: Vec<[f64; 4]>,
    /// Whether each row lies where the block's column rulings run (false for a row they leave, a
    /// result or signature line ruled across the table only; true throughout where the columns
    /// are not ruled).
    pub ruled_rows: Vec<bool>,
    /// The first row is of another height than the move rows and holds a title centred in each
    /// move cell, both on one baseline: a heading row ("N. | Bianco | Nero") where its number
    /// cell reads no number continuing the rows below (`numbering::leave_out_titled_headings`),
    /// else a first move row written centred.
    pub titled_top: bool,
    /// The first rows and the last, whose printed numbers no binary showed at the analysed size,
    /// taken where the number column's rulings run ([`BlockRowsFinder::number_lost_to_the_binary`]):
    /// kept only where their numbers read at the page's resolution
    /// (`numbering::leave_out_rows_whose_numbers_do_not_read`).
    pub rows_numbers_unseen: RowsAtTheEnds,
}

/// A count of rows at each end of a block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RowsAtTheEnds {
    pub first: usize,
    pub last: usize,
}

/// What the grid analysis found.
#[derive(Debug)]
pub enum Grid {
    Found {
        cells: Vec<GCell>,
        blocks: Vec<GBlock>,
        pitch: f64,
        /// The x extent of the row rulings across the blocks' rows, half as long as the longest
        /// and longer: the table's ruled width, which blocks lost to rulings too faint for this
        /// binary leave partly uncovered.
        ruled_span: (f64, f64),
    },
    /// Number columns lie right of the move columns: the page is upside down.
    Flipped,
    /// No move table: why.
    NotFound(String),
}

/// A table row: its top and bottom rulings.
type Row = (Line, Line);

struct Column {
    left: Line,
    right: Line,
    /// indexes of the left and right vertical rulings
    left_ruling: usize,
    right_ruling: usize,
    rows: Vec<Row>,
}

impl Column {
    /// Whether `other` stands right beside this column: it shares this column's left or right
    /// ruling.
    fn shares_a_ruling_with(&self, other: &Column) -> bool {
        other.right_ruling == self.left_ruling || other.left_ruling == self.right_ruling
    }

    /// Whether this column is one of `gap_columns`, the gaps between blocks made columns (their
    /// left and right x, as [`add_block_gap_borders`] returns them).
    fn is_gap_between_blocks(&self, gap_columns: &[(f64, f64)]) -> bool {
        let (left, right) = (self.left.intercept, self.right.intercept);
        gap_columns.iter().any(|&(l, r)| (left - l).abs() < 0.5 && (right - r).abs() < 0.5)
    }

    fn width(&self) -> f64 {
        let y = 0.5 * (self.rows[0].0.mid() + self.rows[self.rows.len() - 1].1.mid());
        self.right.at(y) - self.left.at(y)
    }
    fn centre_x(&self, y: f64) -> f64 {
        0.5 * (self.left.at(y) + self.right.at(y))
    }
    /// The ruling of this column's rows at `s` (within 0.3 pitch where `s` was found), or `s`.
    fn own(&self, s: &Line, pitch: f64) -> Line {
        let x = s.mid_t();
        let y = s.at(x);
        self.rows
            .iter()
            .flat_map(|r| [r.0, r.1])
            .map(|r| ((r.at(x) - y).abs(), r))
            .filter(|(d, _)| *d < 0.3 * pitch)
            .min_by(|p, q| p.0.total_cmp(&q.0))
            .map_or(*s, |(_, r)| r)
    }
    /// The box [x0, y0, x1, y1] of this column in the row between rulings `t` and `bo`, each side
    /// taken at the row's middle.
    fn cell(&self, t: &Line, bo: &Line) -> [f64; 4] {
        let yc = 0.5 * (t.mid() + bo.mid());
        let xc = self.centre_x(yc);
        [self.left.at(yc), t.at(xc), self.right.at(yc), bo.at(xc)]
    }
}

fn mode(vals: &[f64], lo: f64, hi: f64) -> Option<f64> {
    let n = (hi.ceil() as usize) + 2;
    let mut hist = vec![0f64; n + 2];
    for &v in vals {
        if v >= lo && v <= hi {
            hist[v.round() as usize] += 1.0;
        }
    }
    let mut best = (0usize, 0.0);
    for i in 1..n {
        let s = hist[i - 1] * 0.5 + hist[i] + hist[i + 1] * 0.5;
        if s > best.1 {
            best = (i, s);
        }
    }
    if best.1 < 2.0 {
        return None;
    }
    // refine: mean of values within +-1.5 of the mode
    let near: Vec<f64> = vals.iter().copied().filter(|v| (v - best.0 as f64).abs() <= 1.5).collect();
    Some(near.iter().sum::<f64>() / near.len().max(1) as f64)
}

/// The middle value of `v` (the upper one of an even count); `v` is not empty.
pub(super) fn median(mut v: Vec<f64>) -> f64 {
    v.sort_unstable_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Ink components inside a cell (shrunk by a few pixels so rulings stay out), as
/// `(x0, y0, x1, y1, pixels)` in the binary's coordinates (inclusive ends), with components
/// touching the left or right edge of the searched area dropped.
pub fn components(b: &Bin, bx: [f64; 4]) -> Vec<(usize, usize, usize, usize, usize)> {
    components_in(b, bx, true)
}

/// The pixels [`components`] searches in a cell's box `bx`: the box less 3 px at the left and
/// top and 2 px at the right and bottom, within the binary, as `[x0, y0, x1, y1]` (ends
/// exclusive).
fn searched_area(b: &Bin, bx: [f64; 4]) -> [usize; 4] {
    [
        (bx[0] + 3.0).max(0.0) as usize,
        (bx[1] + 3.0).max(0.0) as usize,
        ((bx[2] - 2.0).max(0.0) as usize).min(b.w),
        ((bx[3] - 2.0).max(0.0) as usize).min(b.h),
    ]
}

/// [`components`], keeping those that touch the left or right edge when `drop_edge` is false.
fn components_in(b: &Bin, bx: [f64; 4], drop_edge: bool) -> Vec<(usize, usize, usize, usize, usize)> {
    let [x0, y0, x1, y1] = searched_area(b, bx);
    let mut out = Vec::new();
    if x1 <= x0 + 2 || y1 <= y0 + 2 {
        return out;
    }
    let (w, h) = (x1 - x0, y1 - y0);
    let mut lab = vec![false; w * h];
    let mut stack = Vec::new();
    for sy in 0..h {
        let row = &b.d[(y0 + sy) * b.w + x0..(y0 + sy) * b.w + x1];
        // (blank pixels skipped eight at a time: most of a box is blank)
        let mut next = lines::next_ink(row, 0);
        while next < w {
            let sx = next;
            next = lines::next_ink(row, sx + 1);
            if lab[sy * w + sx] {
                continue;
            }
            lab[sy * w + sx] = true;
            stack.push((sx, sy));
            let (mut minx, mut maxx, mut miny, mut maxy, mut n) = (sx, sx, sy, sy, 0usize);
            while let Some((x, y)) = stack.pop() {
                n += 1;
                minx = minx.min(x);
                maxx = maxx.max(x);
                miny = miny.min(y);
                maxy = maxy.max(y);
                for dy in -1i64..=1 {
                    for dx in -1i64..=1 {
                        let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                        if nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64 {
                            continue;
                        }
                        let (nx, ny) = (nx as usize, ny as usize);
                        if !lab[ny * w + nx] && b.get(x0 + nx, y0 + ny) {
                            lab[ny * w + nx] = true;
                            stack.push((nx, ny));
                        }
                    }
                }
            }
            if drop_edge && (minx == 0 || maxx == w - 1) {
                continue;
            }
            out.push((x0 + minx, y0 + miny, x0 + maxx, y0 + maxy, n));
        }
    }
    out
}

/// Counts printed characters (digits) in a cell: ink components at least a third of the cell high,
/// merged when they overlap horizontally.
pub fn count_glyphs(b: &Bin, bx: [f64; 4]) -> usize {
    let h = bx[3] - bx[1] - 5.0;
    let w = bx[2] - bx[0] - 5.0;
    let mut spans: Vec<(usize, usize, usize)> = components(b, bx)
        .into_iter()
        .filter(|c| (c.3 - c.1 + 1) as f64 >= 0.3 * h && c.4 >= 4 && ((c.2 - c.0) as f64) < 0.5 * w + 2.0)
        .map(|c| (c.0, c.2, c.3 - c.1 + 1))
        .collect();
    spans.sort_unstable();
    // merged spans (x0, x1, height); a span much wider than one digit holds touching digits
    let mut merged: Vec<(usize, usize, usize)> = Vec::new();
    for (a, bb, hh) in spans {
        match merged.last_mut() {
            Some(m) if a <= m.1 => {
                m.1 = m.1.max(bb);
                m.2 = m.2.max(hh);
            }
            _ => merged.push((a, bb, hh)),
        }
    }
    merged.iter().map(|&(a, bb, hh)| (((bb - a + 1) as f64 / (0.7 * hh as f64)).round() as usize).clamp(1, 3)).sum()
}

/// The digits in a number cell's marks of the printed digits' height `digit_height` (within
/// 15 % and a pixel) however wide: each mark's width over 0.7 of its height, 1 to 3, as
/// [`count_glyphs`] counts touching digits.
fn glyphs_in_touching_digits(b: &Bin, bx: [f64; 4], digit_height: f64) -> usize {
    components(b, bx)
        .into_iter()
        .filter(|c| c.4 >= 4)
        .map(|c| ((c.2 - c.0 + 1) as f64, (c.3 - c.1 + 1) as f64))
        .filter(|&(_, height)| (height - digit_height).abs() <= 0.15 * digit_height + 1.0)
        .map(|(width, height)| ((width / (0.7 * height)).round() as usize).clamp(1, 3))
        .sum()
}

/// Width of the printed number in a cell: the extent of its glyph-like ink components (as in
/// [`count_glyphs`]). Digits of one font have about one width, so the widths of the rows' numbers
/// tell their digit counts apart even where blurred digits touch or break.
fn number_width(b: &Bin, bx: [f64; 4]) -> Option<f64> {
    let h = bx[3] - bx[1] - 5.0;
    let w = bx[2] - bx[0] - 5.0;
    // (a digit printed close to the number cell's ruling touches the searched area's edge: kept,
    // unless it is no glyph of the numbers' height)
    let comps: Vec<_> = components_in(b, bx, false)
        .into_iter()
        .filter(|c| {
            let ch = (c.3 - c.1 + 1) as f64;
            ch >= 0.3 * h && ch < 0.9 * h && c.4 >= 4 && ((c.2 - c.0) as f64) < 0.6 * w + 2.0
        })
        .collect();
    let mut x0 = comps.iter().map(|c| c.0).min()?;
    let mut x1 = comps.iter().map(|c| c.2).max()?;
    // (a small digit of a blurred photo breaks into pieces below a glyph's height, e.g. the bar and
    // the bowl of a "5": pieces within the glyphs' band and next to them count too)
    let (y0, y1) = (comps.iter().map(|c| c.1).min()?, comps.iter().map(|c| c.3).max()?);
    let gap = (0.3 * (y1 - y0 + 1) as f64).max(2.0) as usize;
    let pieces: Vec<_> =
        components_in(b, bx, false).into_iter().filter(|c| c.4 >= 2 && c.1 + 1 >= y0 && c.3 <= y1 + 1).collect();
    loop {
        let near = pieces.iter().filter(|c| c.0 <= x1 + gap && c.2 + gap >= x0 && (c.0 < x0 || c.2 > x1));
        let (a, z) = near.fold((x0, x1), |(a, z), c| (a.min(c.0), z.max(c.2)));
        if (a, z) == (x0, x1) {
            break;
        }
        (x0, x1) = (a, z);
    }
    Some((x1 - x0 + 1) as f64)
}

/// Whether a mark `width` x `height` is like a printed digit of `digit_height`: of that height
/// (within a quarter) and no wider than it is high. [`count_glyphs`] and [`number_width`] measure
/// marks against the cell's height and miss a short digit ("1" in old-style figures, as high as
/// the lower-case letters) in a row printed taller than the rest, as a form's first row under its
/// heading can be.
fn digit_like_mark(width: f64, height: f64, digit_height: f64) -> bool {
    (height - digit_height).abs() <= 0.25 * digit_height + 1.0 && width <= digit_height
}

/// Height of the tallest glyph-like component in a cell.
fn glyph_height(b: &Bin, bx: [f64; 4]) -> Option<f64> {
    tallest_glyph_where(b, bx, |_, _| true)
}

/// Height of the tallest glyph-like component in a cell (at least 0.3 of its inner height and 4
/// pixels) that `accept` takes, given its width and height.
fn tallest_glyph_where(b: &Bin, bx: [f64; 4], accept: impl Fn(usize, f64) -> bool) -> Option<f64> {
    let h = bx[3] - bx[1] - 5.0;
    components(b, bx)
        .into_iter()
        .map(|c| (c.2 - c.0 + 1, (c.3 - c.1 + 1) as f64, c.4))
        .filter(|&(width, height, pixels)| height >= 0.3 * h && pixels >= 4 && accept(width, height))
        .map(|(_, height, _)| height)
        .max_by(f64::total_cmp)
}

/// The narrowest number column, in row pitches (two digits of a printed number; HCS's and the
/// real forms' number columns are 0.9 pitch and wider).
const MIN_NUMBER_COLUMN: f64 = 0.6;

/// The widest number column, in row pitches (the forms' are about 3 pitches wide and less, three
/// digits taking about one; wider is a move column).
const MAX_NUMBER_COLUMN: f64 = 4.0;
/// The widest strip between two column rulings, in row pitches, that takes the rows of the
/// column beside it where it shows none of its own ([`borrow_rows_for_unruled_strips`]): a
/// number column of three digits and a dot, narrower than [`MAX_NUMBER_COLUMN`], which a narrow
/// block's move column can be.
const WIDEST_STRIP_TAKING_ROWS: f64 = 3.0;
/// The share of a cell's area inked where it holds something (a printed number, a stroke).
const INKED_CELL: f64 = 0.02;

/// The widest clock column standing between a number column and White's, in row pitches (the
/// forms' are 2 pitches wide and less; a move column is wider).
const MAX_CLOCK_COLUMN: f64 = 3.0;
/// A number or clock column beside move columns is under this share of their width (forms print
/// moves 3 row pitches wide and more, numbers and times 1-2.2 pitches).
const NARROWER_THAN_MOVES: f64 = 0.85;

/// The share of a column's rows whose printed number reads one more than the row's above, at
/// which the column is a number column whatever its width ([`consecutive_numbers_share`]: a
/// writer's moves and times never read so; a form's numbers read so in 0.5-1 of the rows at the
/// analysed size, shading and small print losing some).
const READ_AS_NUMBER_COLUMN: f64 = 0.4;

/// The value below which a `share` of `v` lies (`v` is not empty).
fn quantile(mut v: Vec<f64>, share: f64) -> f64 {
    v.sort_unstable_by(f64::total_cmp);
    v[((v.len() as f64 * share) as usize).min(v.len() - 1)]
}

/// Fraction of ink pixels in the inner part of a cell.
pub fn ink_fraction(b: &Bin, bx: [f64; 4]) -> f64 {
    let (w, h) = (bx[2] - bx[0], bx[3] - bx[1]);
    let mx = 0.04 * w + 2.5;
    let my = 0.12 * h + 2.0;
    let (x0, x1) = ((bx[0] + mx) as i64, (bx[2] - mx) as i64);
    let (y0, y1) = ((bx[1] + my) as i64, (bx[3] - my) as i64);
    if x1 <= x0 || y1 <= y0 {
        return 0.0;
    }
    b.count(x0, y0, x1, y1) as f64 / ((x1 - x0) * (y1 - y0)) as f64
}

/// Ink share of a cell's window moved down by `offset` of the row height (a writer whose moves
/// sit across the row's lower ruling): the inner part of the moved window as in
/// [`ink_fraction`], less the band of the ruling it now crosses.
pub fn ink_fraction_lowered(b: &Bin, bx: [f64; 4], offset: f64) -> f64 {
    let (w, h) = (bx[2] - bx[0], bx[3] - bx[1]);
    let mx = 0.04 * w + 2.5;
    let my = 0.12 * h + 2.0;
    let dy = offset * h;
    let (x0, x1) = ((bx[0] + mx) as i64, (bx[2] - mx) as i64);
    let (y0, y1) = ((bx[1] + dy + my) as i64, (bx[3] + dy - my) as i64);
    // the ruling's band: the same margin on either side of the cell's lower edge
    let (r0, r1) = (((bx[3] - my) as i64).max(y0), ((bx[3] + my) as i64).min(y1));
    let area = (x1 - x0) * ((y1 - y0) - (r1 - r0).max(0));
    if x1 <= x0 || area <= 0 {
        return 0.0;
    }
    let n = if r1 > r0 { b.count(x0, y0, x1, r0) + b.count(x0, r1, x1, y1) } else { b.count(x0, y0, x1, y1) };
    n as f64 / area as f64
}

/// How many rows' printed-number widths fit the numbering from `s`: widths proportional to the
/// digit counts, with the width of one digit the one that fits the most rows (not the median over
/// the rows: a three-digit reading of the last row alone would shift the median and let blurred
/// widths of 8-11 fit one numbering better than another).
fn wscore(ws: &[Option<f64>], s: u32) -> i64 {
    let r: Vec<(f64, f64)> =
        ws.iter().enumerate().filter_map(|(i, w)| w.map(|w| (w, digits(s + i as u32) as f64))).collect();
    r.iter()
        .map(|&(w, d)| {
            let k = w / d;
            r.iter().filter(|&&(w, d)| (w - k * d).abs() <= 0.3 * k).count() as i64
        })
        .max()
        .unwrap_or(0)
}

/// The first move number of each block (in reading order) that maximizes the blocks' summed
/// `values[block][start - 1]`, each block gaining `bonus[block]` where it continues the one before
/// it (the first where it starts at 1), and each starting after the rows of the one before it
/// (`rows`). Ties go to the smaller start.
fn choose_starts(values: &[Vec<i64>], bonus: &[i64], rows: &[usize]) -> Vec<u32> {
    let k = values.len();
    if k == 0 {
        return Vec::new();
    }
    let m = values[0].len();
    // best[b][s]: the best total of blocks 0..=b with block b starting at s + 1; from[b][s]: the
    // start index of block b - 1 it came from
    let mut best: Vec<Vec<i64>> = vec![vec![i64::MIN; m]; k];
    let mut from: Vec<Vec<usize>> = vec![vec![0; m]; k];
    for s in 0..m {
        best[0][s] = values[0][s] + if s == 0 { bonus[0] } else { 0 };
    }
    for b in 1..k {
        let r = rows[b - 1];
        // the best earlier start strictly before s - r (prefix maximum, ties to the smaller)
        let mut pre: (i64, usize) = (i64::MIN, 0);
        for s in 0..m {
            if s > r && best[b - 1][s - r - 1] > pre.0 {
                pre = (best[b - 1][s - r - 1], s - r - 1);
            }
            let cont = if s >= r && best[b - 1][s - r] > i64::MIN {
                (best[b - 1][s - r] + bonus[b], s - r)
            } else {
                (i64::MIN, 0)
            };
            let (v, f) = if cont.0 >= pre.0 { cont } else { pre };
            if v > i64::MIN {
                best[b][s] = v + values[b][s];
                from[b][s] = f;
            }
        }
    }
    let mut s = (0..m).fold(0, |a, s| if best[k - 1][s] > best[k - 1][a] { s } else { a });
    if best[k - 1][s] == i64::MIN {
        // (more rows than starts considered: each block continues the one before)
        return rows.iter().scan(1u32, |next, &r| Some(std::mem::replace(next, *next + r as u32))).collect();
    }
    let mut out = vec![0u32; k];
    for b in (0..k).rev() {
        out[b] = s as u32 + 1;
        if b > 0 {
            s = from[b][s];
        }
    }
    out
}

/// Whether `v` is a short stroke of handwriting beside rulings as long as `long`: under 0.4 of
/// that length and not straight (a piece of a faint ruling is as straight as a printed line).
fn short_stroke(t: &Bin, v: &Line, long: f64) -> bool {
    v.len() < 0.4 * long && super::lines::profile(t, v).1 > 0.5
}

/// Whether two blocks spanning `a` and `b` (top and bottom) stand side by side: they overlap
/// vertically by more than two rows.
fn side_by_side(a: (f64, f64), b: (f64, f64), pitch: f64) -> bool {
    a.0.max(b.0) < a.1.min(b.1) - 2.0 * pitch
}

/// Share of a block's width that a faint ruling, binarized as dashes, still covers.
const FAINT_COVER: f64 = 0.4;

/// The share of the printed digits' height under which the marks in a number cell are pieces of
/// a number lost to the binary, not a title's letters ([`BlockRowsFinder::number_lost_to_the_binary`]).
const LOST_NUMBER_MARK_HEIGHT: f64 = 0.75;

/// [`FAINT_COVER`] for a ruling under the rows found, above a printed number like the block's
/// (a light grey ruling over a patterned background; the heading rows are above the block).
const FAINT_COVER_BELOW: f64 = 0.3;

/// Share of a block's width a ruling under the rows found covers where it stands for the number
/// column's own rulings: a faint form's column rulings are found over part of their length, its
/// row rulings still across most of the block.
const CLEAR_COVER_BELOW: f64 = 0.6;

/// How far to either side of a row ruling seen only in the grey
/// [`BlockRowsFinder::faint_ruling_below`] measures the paper, in row pitches: past a ruling
/// blurred over a third of the row, short of the next one.
const FAINT_ROW_BESIDE: f64 = 0.33;

/// The least depth of such a ruling: 2 grey levels and a 60th (1.7 %) of its level (a light grey
/// ruling photographed out of focus: 3-4 levels under paper at 121, blurred over 10 pixels of 30).
const FAINT_ROW_MIN_LEVELS: f64 = 2.0;
const FAINT_ROW_DEPTH_DIVISOR: f64 = 60.0;

/// The grey along the line `line` from x `x0` to `x1`: the mean of its middle half (its darkest
/// quarter, handwriting or print crossing it, and its lightest left out); `None` where the line
/// leaves the image.
fn grey_across(grey: &GrayImage, line: &Line, x0: f64, x1: f64) -> Option<f64> {
    let (w, h) = (grey.width() as i64, grey.height() as i64);
    let (x0, x1) = (x0.round().max(0.0) as i64, (x1.round() as i64).min(w - 1));
    let mut levels = Vec::with_capacity((x1 - x0 + 1).max(0) as usize);
    for x in x0..=x1 {
        let y = line.at(x as f64);
        let above = y.floor() as i64;
        if above < 0 || above + 1 >= h {
            return None;
        }
        let below_share = y - above as f64;
        let level = |y: i64| f64::from(grey.get_pixel(x as u32, y as u32).0[0]);
        levels.push(level(above) * (1.0 - below_share) + level(above + 1) * below_share);
    }
    if levels.len() < 4 {
        return None;
    }
    levels.sort_unstable_by(f64::total_cmp);
    let middle = &levels[levels.len() / 4..3 * levels.len() / 4];
    Some(middle.iter().sum::<f64>() / middle.len() as f64)
}

/// The digits `n` is written with.
pub(super) fn digits(n: u32) -> usize {
    n.checked_ilog10().map_or(1, |l| l as usize + 1)
}

/// How many binaries of one name a page's analysis saves at most: every rulings' binary (plain,
/// faint, shade edges, dotted, shaded rows) at each analysed size, in its four quarter turns,
/// on the paper and on the whole photo.
const DEBUG_BINARIES_PER_NAME: usize = 64;

/// Saves `bin` as a picture (ink black) as `NAME.png` in the debug directory, if one is set
/// ([`super::set_debug_dir`]); later frames analysed (a perspective warp, another turn, the faint
/// rulings' pass) go to `NAME.2.png`, `NAME.3.png`, ... up to [`DEBUG_BINARIES_PER_NAME`].
fn save_debug_binary(name: &str, bin: &Bin) {
    let Some(dir) = super::debug_dir() else { return };
    let mut path = dir.join(format!("{name}.png"));
    let mut k = 1;
    while path.exists() {
        k += 1;
        if k > DEBUG_BINARIES_PER_NAME {
            return;
        }
        path = dir.join(format!("{name}.{k}.png"));
    }
    let img = image::GrayImage::from_fn(bin.w as u32, bin.h as u32, |x, y| {
        image::Luma([if bin.get(x as usize, y as usize) { 0 } else { 255 }])
    });
    if let Err(e) = super::save_png(&img, &path) {
        log::warn!("cannot write {}: {e}", path.display());
    }
}

/// A block's move rows as found: its columns, its rows (top and bottom ruling of each), the glyph
/// count of each row's number cell, and its box.
struct FoundBlock {
    columns: BlockColumns,
    rows: Vec<Row>,
    glyphs: Vec<usize>,
    /// the block's box [x0, y0, x1, y1]
    bounds: [f64; 4],
    /// top of a heading row dropped above the rows, if any
    heading_top: Option<f64>,
    /// the first row's height differs from the others' (a heading that did not read as one)
    odd_top: bool,
    /// the middle of the first row as found where it is of odd height and holds a title centred
    /// in each move cell ([`GBlock::titled_top`])
    titled_top: Option<f64>,
    /// the top ruling's middle of the row where the printed numbers seen start, and the bottom
    /// ruling's middle of the row where they end, where rows beyond were taken with their numbers
    /// unseen ([`GBlock::rows_numbers_unseen`])
    numbers_seen_from: Option<f64>,
    numbers_seen_to: Option<f64>,
    /// whether each row lies where the block's column rulings run ([`GBlock::ruled_rows`])
    ruled_rows: Vec<bool>,
    /// White's and Black's moves' part of their columns, where a clock column stands unruled
    /// beside them ([`find_unruled_clock_columns`])
    move_parts: [Option<MovePart>; 2],
}

/// The part of a move column its moves take, beside a clock column printed with no ruling
/// between them: from and to, measured from the column's left side.
#[derive(Clone, Copy, Debug, PartialEq)]
struct MovePart {
    from: f64,
    to: f64,
}

/// Horizontal rulings in the rulings' binary `lb` of a page `page_w` wide: every piece at least a
/// 25th of the page's width (16 px at least; short pieces are kept for joining broken rulings),
/// the pieces long enough for a row ruling (2.5 times that), and that least length.
fn find_row_rulings(lb: &Bin, page_w: usize) -> (Vec<Line>, Vec<Line>, f64) {
    let min_piece_len = (page_w / 25).max(16);
    let pieces: Vec<Line> = row_rulings(lb, (min_piece_len / 2).max(10), 1, min_piece_len as f64);
    let min_row_len = 2.5 * min_piece_len as f64;
    let row_rulings: Vec<Line> = pieces.iter().copied().filter(|s| s.len() >= min_row_len).collect();
    (pieces, row_rulings, min_row_len)
}

/// The row pitch: the most common spacing of consecutive horizontal rulings overlapping in x
/// (6 px to a quarter of the page's height `page_h`).
fn row_pitch(row_rulings: &[Line], page_h: usize) -> Option<f64> {
    let mut diffs = Vec::new();
    for (i, s) in row_rulings.iter().enumerate() {
        if let Some(t) = row_rulings[i + 1..].iter().find(|t| {
            let ov = s.end.min(t.end) - s.start.max(t.start);
            ov > 0.5 * s.len().min(t.len()) && t.mid() - s.mid() > 4.0
        }) {
            diffs.push(t.mid() - s.mid());
        }
    }
    mode(&diffs, 6.0, page_h as f64 / 4.0)
}

/// The widest (pixels, in the analysis image) a line found in the rulings' binary is and still
/// measures the table's rulings' length (a bold border is 3-4 px).
const MAX_RULING_WIDTH: f64 = 5.0;

/// The vertical (column) rulings, as lines along y: straight, well-inked lines of the rulings'
/// binary (`lb_transposed`, transposed), double rulings blurred into one thick line, and faint
/// rulings found as long, straight, unbroken ridges of the grey page (`vr_transposed`: the
/// vertical ridges, transposed) that are not far fainter than the row rulings they cross;
/// duplicates merged, ragged lines ending inside the table dropped.
fn find_column_rulings(
    lb_transposed: &Bin,
    vr_transposed: &Bin,
    grey: &GrayImage,
    row_rulings: &[Line],
    pitch: f64,
) -> Vec<Line> {
    let min_run = ((2.0 * pitch) as usize).max(12);
    let double = |v: &Line, off: f64, cover: f64| {
        // (the double ruling between blocks printed close together, blurred in a photo into one
        // line found between its two: each of the two is straight on its own; the two need not
        // be equally thick, so each is looked for within a pixel of the mean offset)
        off < 0.25 * pitch
            && cover >= 0.75
            && [-1.0, 1.0].iter().all(|&sg| {
                [0.0, -1.0, 1.0].iter().any(|&e| {
                    let (pw, o, c) = super::lines::profile(lb_transposed, &v.shifted(sg * (off + e)));
                    o <= 1.0 && c >= 0.75 && pw < 2.0 * off
                })
            })
    };
    // (a stack of printed digits touching the row rulings can read as a vertical ruling: its ink
    // wanders about the fitted line and leaves gaps between the digits)
    let printed = |v: &Line| {
        let (_, off, cover) = super::lines::profile(lb_transposed, v);
        (off <= 1.7 && cover >= 0.75) || double(v, off, cover)
    };
    let mut vsegs: Vec<Line> =
        rulings(lb_transposed, min_run, 1, 3.0 * pitch).into_iter().filter(|v| printed(v)).collect();
    // (a double ruling blurred into one line is thicker than a ruling: looked for on its own, where
    // no ruling was found)
    let doubles: Vec<Line> =
        super::lines::rulings_upto(lb_transposed, min_run, 1, 3.0 * pitch, ((0.6 * pitch) as usize).max(8))
            .into_iter()
            .filter(|v| {
                // (its ink wanders more than a ruling's about the fitted line: printed only as a
                // double ruling)
                let (_, off, cover) = super::lines::profile(lb_transposed, v);
                off > 1.7
                    && double(v, off, cover)
                    && !vsegs
                        .iter()
                        .any(|m| (m.at(v.mid_t()) - v.mid()).abs() < 0.3 * pitch && m.start < v.end && m.end > v.start)
            })
            .collect();
    vsegs.extend(doubles);
    // (a faint column ruling binarizes as dashes too short for a ruling; in the vertical ridges
    // of the grey page, averaged down the column, it comes out whole or in long pieces, joined
    // across gaps well under a row pitch: not across the gap between blocks stacked on the page;
    // taken only where it is long (6 row pitches and 40 % of the longest column ruling), straight
    // and nearly unbroken: handwriting lines up in ridges over a few rows, and the curved border of
    // a bent page is no straight line)
    // (the longest ruling's length, of lines as thin as printed rulings: the dark band along the
    // edge of a photographed page runs the page's height and would make every ruling of the
    // table short)
    let vmax = vsegs
        .iter()
        .filter(|v| super::lines::profile(lb_transposed, v).0 < MAX_RULING_WIDTH)
        .map(|v| v.len())
        .fold(0.0, f64::max);
    let ridges: Vec<Line> = join_broken(rulings(vr_transposed, (pitch as usize).max(10), 1, pitch), 2.0, 0.75 * pitch)
        .into_iter()
        .filter(|v| v.len() >= (6.0 * pitch).max(0.4 * vmax) && straight_unbroken_ridge(vr_transposed, v))
        .collect();
    let (faint, faint_ridges) = faint_column_rulings(grey, &vsegs, &ridges, row_rulings, pitch, vmax);
    // (each row ruling's depth, measured once: every ridge crossing it is weighed against it)
    let row_depths: Vec<f64> = if ridges.is_empty() && faint.is_empty() {
        Vec::new()
    } else {
        row_rulings.iter().map(|r| lines::ruling_depth(grey, r, false)).collect()
    };
    if log::log_enabled!(log::Level::Debug) {
        for v in &ridges {
            let (pw, pd, pc) = super::lines::profile(vr_transposed, v);
            log::debug!(
                "  ridge x={:.1} y {:.0}..{:.0} width {pw:.2} off {pd:.2} cover {pc:.2} depth {:.0} rows' {:?}",
                v.mid(),
                v.start,
                v.end,
                lines::ruling_depth(grey, v, true),
                depth_of_rows_crossed(row_rulings, &row_depths, v),
            );
        }
    }
    // (the back page's rulings showing through thin paper are ridges too, far fainter than the
    // front's row rulings they cross; a form's own column rulings are printed like its rows)
    let printed_like_the_rows = |v: &Line| {
        depth_of_rows_crossed(row_rulings, &row_depths, v)
            .is_none_or(|rows| lines::ruling_depth(grey, v, true) >= SHOW_THROUGH_DEPTH * rows)
    };
    let ridges: Vec<Line> = ridges.into_iter().filter(printed_like_the_rows).collect();
    let faint: Vec<Line> = faint.into_iter().filter(printed_like_the_rows).collect();
    // (the faint rulings taken count as ridges from here on: as straight and whole as any)
    let mut with_faint_ridges;
    let vr_transposed = if faint.is_empty() {
        vr_transposed
    } else {
        with_faint_ridges = vr_transposed.clone();
        for v in &faint {
            log::debug!("  faint column ruling x={:.1} y {:.0}..{:.0}", v.mid(), v.start, v.end);
            copy_ink_along(&faint_ridges, v, &mut with_faint_ridges);
        }
        &with_faint_ridges
    };
    let ridge_printed = |v: &Line| straight_unbroken_ridge(vr_transposed, v);
    vsegs.extend(ridges);
    vsegs.extend(faint);
    let merged = merge_duplicate_rulings(vsegs, true);
    // (large handwriting whose letters line up at the left of a column reads as a ruling over many
    // rows, ragged or with gaps, and ends inside the table: such a line is kept only where it runs
    // nearly the table's height (a ruling of a bent page) or its vertical ridge is straight and
    // nearly unbroken, and it is at most one and a half times as wide as the long rulings; or
    // where it is a double ruling)
    // (the long rulings' usual width: handwriting stems lined up make a line nearly twice as wide
    // or more, the stems side by side, over a few rows or, where writers start every move at one
    // place, down nearly the whole column)
    let long_widths: Vec<f64> = merged
        .iter()
        .map(|m| &m.line)
        .filter(|v| v.len() >= 0.8 * vmax)
        .map(|v| super::lines::profile(lb_transposed, v).0)
        .collect();
    let long_width = if long_widths.is_empty() { f64::MAX } else { median(long_widths) };
    // (straight: its ridge, or its ink in the binary (`off`, `cover`), within a pixel of its line
    // and nearly unbroken)
    let straight = |v: &Line, off: f64, cover: f64| ridge_printed(v) || (off <= 1.2 && cover >= 0.9);
    let keep = |v: &Line| {
        let (width, off, cover) = super::lines::profile(lb_transposed, v);
        if straight(v, off, cover) {
            return true;
        }
        let (_, roff, rcover) = super::lines::profile(vr_transposed, v);
        let whole = (v.len() >= 0.8 * vmax || (roff <= 1.2 && rcover >= 0.85)) && width <= 1.5 * long_width;
        (off <= 1.7 && cover >= 0.75 && whole) || double(v, off, cover)
    };
    // (a line joined from pieces one above the other that is no ruling is taken apart again, and
    // its straight pieces kept: the table's border and the border of a box of fields above it, a
    // few pixels apart, join into a line straight neither way)
    let mut kept: Vec<Line> = Vec::new();
    for m in merged {
        if keep(&m.line) {
            kept.push(m.line);
        } else if m.joined_apart {
            kept.extend(merge_duplicate_rulings(m.pieces, false).into_iter().map(|p| p.line).filter(|v| {
                let (_, off, cover) = super::lines::profile(lb_transposed, v);
                straight(v, off, cover)
            }));
        }
    }
    let kept = split_double_width_columns(kept, grey, pitch);
    drop_stacked_numbers(kept, vr_transposed, grey, row_rulings, pitch)
}

/// Column rulings printed so faint, a few grey levels darker than the paper, that their ridges
/// against the paper 2-3 px away ([`lines::vertical_ridges`]) are broken up by its grain: the
/// ridges of the grey page averaged over a third of a row pitch down the column
/// ([`lines::faint_vertical_ridges`]) show them whole. A line there is taken where it runs
/// nearly as long as the longest ruling found (`longest`, 6 row pitches at least), straight and
/// unbroken, half a pitch from every line found (`found`, `ridges`), crossed by a row ruling in
/// most of the rows it runs down, and 0.8 pitch from every other such line: handwriting and
/// printed digits line up over some rows, not down a whole table, the grain of a table the page
/// lies on crosses no rows, and the rows of a page turned a quarter lie closer together than
/// columns. With the faint ridges (transposed).
fn faint_column_rulings(
    grey: &GrayImage,
    found: &[Line],
    ridges: &[Line],
    row_rulings: &[Line],
    pitch: f64,
    longest: f64,
) -> (Vec<Line>, Bin) {
    let half_run = ((FAINT_RUN_PITCHES * pitch) as usize).max(2);
    let faint_ridges = lines::faint_vertical_ridges(grey, half_run).transpose();
    let apart_from_found =
        |v: &Line| found.iter().chain(ridges).all(|f| distance_alongside(f, v).is_none_or(|d| d >= 0.5 * pitch));
    let candidates: Vec<Line> =
        join_broken(rulings(&faint_ridges, (pitch as usize).max(10), 1, pitch), 2.0, 0.75 * pitch)
            .into_iter()
            .filter(|v| {
                v.len() >= (6.0 * pitch).max(0.8 * longest)
                    && straight_unbroken_ridge(&faint_ridges, v)
                    && apart_from_found(v)
                    && rows_crossed(v, row_rulings) as f64 >= ROWS_CROSSED_BY_A_FAINT_RULING * v.len() / pitch
            })
            .collect();
    // (lines under 0.8 pitch apart side by side are a comb, no columns: the rows of a page
    // looked at a quarter turned, whose columns stand in for its rows)
    let in_a_comb =
        |v: &Line| candidates.iter().any(|o| distance_alongside(o, v).is_some_and(|d| d > 0.0 && d < 0.8 * pitch));
    let lines = candidates.iter().filter(|v| !in_a_comb(v)).copied().collect();
    (lines, faint_ridges)
}

/// Half the run down a column over which [`faint_column_rulings`] averages the grey, in row
/// pitches.
const FAINT_RUN_PITCHES: f64 = 0.15;
/// The least share of the rows a faint column ruling runs down that row rulings cross it in.
const ROWS_CROSSED_BY_A_FAINT_RULING: f64 = 0.6;

/// How many of `row_rulings` cross the column line `v` (as found in the transposed page:
/// `x = v.at(y)`) between its ends.
fn rows_crossed(v: &Line, row_rulings: &[Line]) -> usize {
    row_rulings.iter().filter(|r| row_crosses(r, v)).count()
}

/// Whether the row ruling `row` crosses the column line `v` (as found in the transposed page:
/// `x = v.at(y)`) between the ends of both.
fn row_crosses(row: &Line, v: &Line) -> bool {
    let x = v.at(row.mid());
    row.start < x && row.end > x && row.mid() > v.start && row.mid() < v.end
}

/// How far apart two column lines (as found in the transposed page) lie, measured at the middle
/// of `v`, where they run alongside each other; `None` where one ends before the other starts.
fn distance_alongside(other: &Line, v: &Line) -> Option<f64> {
    let overlap = other.end.min(v.end) - other.start.max(v.start);
    (overlap > 0.0).then(|| (other.at(0.5 * (v.start + v.end)) - v.mid()).abs())
}

/// Whether a ridge in the binary `ridges` (transposed) runs along the line `v` straight, within a
/// pixel of it on average, and unbroken, along 93 % of it.
fn straight_unbroken_ridge(ridges: &Bin, v: &Line) -> bool {
    let (_, off, cover) = lines::profile(ridges, v);
    off <= 1.0 && cover >= 0.93
}

/// Copies into `to` the ink of `from` (both transposed, see [`lines::profile`]) within a pixel of
/// the line `v`.
fn copy_ink_along(from: &Bin, v: &Line, to: &mut Bin) {
    let (t0, t1) = (v.start.max(0.0) as usize, (v.end as usize).min(from.w.saturating_sub(1)));
    for t in t0..=t1 {
        let c = v.at(t as f64 + 0.5);
        if c < 1.0 || c + 2.0 >= from.h as f64 {
            continue;
        }
        for y in c as usize - 1..=c as usize + 1 {
            if from.get(t, y) {
                to.d[y * to.w + t] = 1;
            }
        }
    }
}

/// A column ruling found once or more (in the binary, the ridges, as a double ruling), merged.
struct MergedRuling {
    line: Line,
    /// The lines merged into it, as found.
    pieces: Vec<Line>,
    /// Whether pieces one above the other were joined into it.
    joined_apart: bool,
}

/// `vsegs` (column rulings, along y) with each ruling found twice merged into one: lines within 4
/// px of each other where they overlap, and, where `join_apart`, pieces one above the other whose
/// nearest ends lie within 4 px (the line through their centres).
fn merge_duplicate_rulings(mut vsegs: Vec<Line>, join_apart: bool) -> Vec<MergedRuling> {
    crate::sort::by_key(&mut vsegs, |p| p.mid());
    let mut merged: Vec<MergedRuling> = Vec::new();
    for s in vsegs {
        let apart = |m: &Line| s.start > m.end || s.end < m.start;
        let near = |m: &Line| {
            let t = if s.start > m.end {
                s.start
            } else if s.end < m.start {
                s.end
            } else {
                s.mid_t()
            };
            (m.at(t) - s.at(t)).abs() < 4.0 && (join_apart || !apart(m))
        };
        if let Some(m) = merged.iter_mut().find(|m| near(&m.line)) {
            let line = &mut m.line;
            let (t0, t1) = (line.start.min(s.start), line.end.max(s.end));
            let (p, q) = ((line.mid_t(), line.mid()), (s.mid_t(), s.mid()));
            if (q.0 - p.0).abs() > 0.5 * (line.len() + s.len()) {
                // disjoint pieces: the line through both centres
                let b = (q.1 - p.1) / (q.0 - p.0);
                *line = Line { intercept: p.1 - b * p.0, slope: b, start: t0, end: t1 };
                m.joined_apart = true;
            } else {
                let keep = if s.len() > line.len() { s } else { *line };
                *line = Line { start: t0, end: t1, ..keep };
            }
            m.pieces.push(s);
        } else {
            merged.push(MergedRuling { line: s, pieces: vec![s], joined_apart: false });
        }
    }
    merged
}

/// The widths, in row pitches, of a column between two column rulings taken for two columns
/// whose ruling between was lost (a move column is 3 to 7 row pitches wide).
const DOUBLE_COLUMN_PITCHES: std::ops::RangeInclusive<f64> = 8.5..=15.0;

/// `rulings` (column rulings, along y) with the ruling between two columns read as one added,
/// where it is found as a blurred ridge ([`lines::blurred_vertical_ridges`]): in the middle
/// two fifths of a column [`DOUBLE_COLUMN_PITCHES`] wide, straight, nearly unbroken, and
/// as long as half the shorter of the two rulings beside it. A faint ruling out of focus in a
/// photo is no ridge against neighbours 2-3 px away; its two columns read as one, and the table
/// as White's column beside Black's where each block is one.
fn split_double_width_columns(mut column_rulings: Vec<Line>, grey: &GrayImage, pitch: f64) -> Vec<Line> {
    crate::sort::by_key(&mut column_rulings, |v| v.mid());
    let overlapping = |a: &Line, b: &Line| a.end.min(b.end) - a.start.max(b.start) > 0.5 * a.len().min(b.len());
    let wide: Vec<(Line, Line)> = column_rulings
        .iter()
        .enumerate()
        .filter_map(|(i, left)| {
            let right = column_rulings[i + 1..].iter().find(|r| overlapping(left, r))?;
            DOUBLE_COLUMN_PITCHES.contains(&((right.mid() - left.mid()) / pitch)).then_some((*left, *right))
        })
        .collect();
    if wide.is_empty() {
        return column_rulings;
    }
    let blurred = lines::blurred_vertical_ridges(grey).transpose();
    let straight = |v: &Line| straight_unbroken_ridge(&blurred, v);
    let candidates: Vec<Line> = join_broken(rulings(&blurred, (pitch as usize).max(10), 1, pitch), 2.0, 0.75 * pitch)
        .into_iter()
        .filter(|v| v.len() >= 6.0 * pitch && straight(v))
        .collect();
    for (left, right) in wide {
        let (x0, x1) = (left.mid(), right.mid());
        let middle = 0.5 * (x0 + x1);
        let between = candidates
            .iter()
            .filter(|v| {
                (v.mid() - middle).abs() <= 0.2 * (x1 - x0)
                    && v.len() >= 0.5 * left.len().min(right.len())
                    && overlapping(v, &left)
            })
            .min_by(|a, b| (a.mid() - middle).abs().total_cmp(&(b.mid() - middle).abs()));
        if let Some(v) = between {
            log::debug!("  column ruling x={:.1} found blurred between x {x0:.1} and {x1:.1}", v.mid());
            column_rulings.push(*v);
        }
    }
    crate::sort::by_key(&mut column_rulings, |v| v.mid());
    column_rulings
}

/// The faintest column ruling, as a share of the depth of the row rulings it crosses
/// ([`lines::ruling_depth`]), taken from the grey page alone: the back page's rulings showing
/// through at 8-15 % of their darkness measure 0.06-0.15 of the front's black rows; the column
/// rulings of real forms and synthetic ones 0.24 and more (a 1909 form's 0.27, thumbnails').
const SHOW_THROUGH_DEPTH: f64 = 0.18;

/// The median depth of the row rulings that cross the column line `v` (as found in the
/// transposed page: `x = v.at(y)`), each row's depth in `row_depths` ([`lines::ruling_depth`]);
/// `None` where none crosses it.
fn depth_of_rows_crossed(row_rulings: &[Line], row_depths: &[f64], v: &Line) -> Option<f64> {
    let depths: Vec<f64> =
        row_rulings.iter().zip(row_depths).filter(|(r, _)| row_crosses(r, v)).map(|(_, &depth)| depth).collect();
    (!depths.is_empty()).then(|| median(depths))
}

/// The ridge cover of a column ruling kept as printed whatever ink lies along it.
const WHOLE_RIDGE: f64 = 0.9;
/// The ridge cover of a column ruling kept unless it is dark only in the rows it crosses with
/// nothing beside their rulings ([`NOTHING_BESIDE_ROWS`]): digits stacked row by row can line up
/// into a ridge this nearly whole.
const NEARLY_WHOLE_RIDGE: f64 = 0.75;
/// The darkness (grey levels) beside the row rulings under which a line shows nothing there: a
/// scan's grain measures 0-4, faint printed rulings 5 and more.
const NOTHING_BESIDE_ROWS: f64 = 5.0;

/// Drops a line found inside a number column between its two rulings: two-digit numbers printed
/// down a narrow column line up their strokes (blurred in a photo) into what binarizes as one more
/// ruling, splitting the column in two. Such a line is dark only in the middle of the rows it
/// crosses ([`dark_only_in_rows`]), or its vertical ridge on the grey page is broken where
/// the nearest whole rulings either side of it (at most 1.6 row pitches apart) are whole.
fn drop_stacked_numbers(
    vsegs: Vec<Line>,
    vr_transposed: &Bin,
    grey: &GrayImage,
    row_rulings: &[Line],
    pitch: f64,
) -> Vec<Line> {
    let ridge_cover: Vec<f64> = vsegs.iter().map(|v| super::lines::profile(vr_transposed, v).2).collect();
    let beside = |i: usize, j: usize| {
        let (a, b) = (&vsegs[i], &vsegs[j]);
        j != i && side_by_side((a.start, a.end), (b.start, b.end), pitch)
    };
    let keep: Vec<bool> = (0..vsegs.len())
        .map(|i| {
            if ridge_cover[i] >= WHOLE_RIDGE {
                return true;
            }
            let (t, x) = (vsegs[i].mid_t(), vsegs[i].mid());
            let nearest_where = |left: bool, whole: bool| {
                (0..vsegs.len())
                    .filter(|&j| {
                        beside(i, j) && (!whole || ridge_cover[j] >= WHOLE_RIDGE) && (vsegs[j].at(t) < x) == left
                    })
                    .min_by(|&j, &k| (vsegs[j].at(t) - x).abs().total_cmp(&(vsegs[k].at(t) - x).abs()))
            };
            // (a line with no other line on one side is kept: in an open layout, the digits'
            // stacked edge is the only boundary the numbers have; unless the rows run on beyond
            // it over blank paper, where it bounds nothing: the outer edge of left-aligned
            // numbers printed a little in from the rows' start)
            // (nor does a line along under half the rows that cross it: the numbers' boundary
            // runs down the whole column, a few digits lined up do not)
            let stacked_edge = || {
                let (line_left, line_right) =
                    (nearest_where(true, false).is_some(), nearest_where(false, false).is_some());
                let bounds_nothing = |dir: f64| rows_run_on_over_blank_paper(grey, &vsegs[i], row_rulings, pitch, dir);
                let along_few_rows = || along_under_half_the_rows(&vsegs[i], row_rulings);
                (line_left && line_right)
                    || (!line_left && (bounds_nothing(-1.0) || along_few_rows()))
                    || (!line_right && (bounds_nothing(1.0) || along_few_rows()))
            };
            // (a ridge nearly unbroken is digits only where nothing at all shows beside the row
            // rulings: a faint printed ruling, far lighter than the handwriting beside it, does)
            let nearly_whole = ridge_cover[i] >= NEARLY_WHOLE_RIDGE;
            let digits =
                darkness_in_and_beside_rows(grey, &vsegs[i], row_rulings, pitch).is_some_and(|(middle, beside)| {
                    dark_only_in_rows(middle, beside) && (!nearly_whole || beside < NOTHING_BESIDE_ROWS)
                });
            // (the strip beyond the line is looked at only for digits: it costs more)
            if digits && stacked_edge() {
                log::debug!("  digits stacked at x {x:.1}: no ruling");
                return false;
            }
            if nearly_whole {
                return true;
            }
            let nearest = |left: bool| nearest_where(left, true);
            // (the nearest whole rulings: right-aligned digits can stack into two such lines)
            match (nearest(true), nearest(false)) {
                (Some(l), Some(r)) => vsegs[r].at(t) - vsegs[l].at(t) > 1.6 * pitch,
                _ => true,
            }
        })
        .collect();
    vsegs.into_iter().zip(keep).filter(|(_, k)| *k).map(|(v, _)| v).collect()
}

/// Whether the line `v` runs along under half the span of the row rulings that cross it (four
/// at least).
fn along_under_half_the_rows(v: &Line, row_rulings: &[Line]) -> bool {
    match crossing_heights(v.mid(), row_rulings).as_slice() {
        ys @ [top, .., bottom] if ys.len() >= 4 => v.len() < 0.5 * (bottom - top),
        _ => false,
    }
}

/// The heights at which the row rulings that reach across `x` cross it, top to bottom.
fn crossing_heights(x: f64, row_rulings: &[Line]) -> Vec<f64> {
    let mut ys: Vec<f64> = row_rulings.iter().filter(|r| r.start <= x && r.end >= x).map(|r| r.at(x)).collect();
    ys.sort_unstable_by(f64::total_cmp);
    ys
}

/// The grey of `grey` at (x, y), the nearest pixel inside the image where it lies outside.
fn grey_clamped(grey: &GrayImage, x: i64, y: i64) -> f64 {
    let (w, h) = (i64::from(grey.width()), i64::from(grey.height()));
    f64::from(grey.get_pixel(x.clamp(0, w - 1) as u32, y.clamp(0, h - 1) as u32).0[0])
}

/// Whether the row rulings crossing the line `v` run on beyond it to the side `dir` (-1 left, +1
/// right) by 0.3 pitch and more in most rows, over blank paper: nothing darker than the paper by
/// 40 grey levels in the middle of those rows between the line and the rows' end.
fn rows_run_on_over_blank_paper(grey: &GrayImage, v: &Line, row_rulings: &[Line], pitch: f64, dir: f64) -> bool {
    let x = v.mid();
    let mut crossing: Vec<&Line> = row_rulings.iter().filter(|r| r.start <= x && r.end >= x).collect();
    crate::sort::by_key(&mut crossing, |r| r.at(x));
    let reach = |r: &Line| if dir < 0.0 { x - r.start } else { r.end - x };
    let running_on = crossing.iter().filter(|r| reach(r) >= 0.3 * pitch).count();
    if crossing.len() < 4 || (running_on as f64) < 0.8 * crossing.len() as f64 {
        return false;
    }
    let px = |x: i64, y: i64| grey_clamped(grey, x, y);
    let (mut rows, mut inked_rows) = (0, 0);
    for pair in crossing.windows(2) {
        let (top, bottom) = (pair[0].at(x), pair[1].at(x));
        if bottom - top > 1.5 * pitch || reach(pair[0]).min(reach(pair[1])) < 0.3 * pitch {
            continue;
        }
        let (y0, y1) = ((top + 0.3 * pitch) as i64, (bottom - 0.3 * pitch) as i64);
        let near = (v.at(0.5 * (top + bottom)) + dir * 3.0).round() as i64;
        let far = (v.at(0.5 * (top + bottom)) + dir * reach(pair[0]).min(reach(pair[1]))).round() as i64;
        let (xa, xb) = (near.min(far), near.max(far));
        if xb <= xa || y1 <= y0 {
            continue;
        }
        let (darkest, paper) = (y0..=y1)
            .flat_map(|y| (xa..=xb).map(move |x| (x, y)))
            .map(|(x, y)| px(x, y))
            .fold((f64::MAX, 0.0f64), |(darkest, paper), grey| (darkest.min(grey), paper.max(grey)));
        rows += 1;
        if paper - darkest >= 40.0 {
            inked_rows += 1;
        }
    }
    rows >= 4 && (inked_rows as f64) <= 0.1 * rows as f64
}

/// Whether a line's darkness in the middle of the rows and beside their rulings
/// ([`darkness_in_and_beside_rows`]) is that of digits stacked row by row: dark only in the middle
/// of the rows (printed numbers stand there, about half a pitch high at most, so a band beside
/// each row ruling holds none), where a printed ruling is as dark beside the row rulings as
/// between them and a dashed one breaks anywhere.
fn dark_only_in_rows(middle: f64, beside: f64) -> bool {
    middle >= 10.0 && beside < 0.3 * middle
}

/// The line `v`'s mean darkness against the paper a few pixels either side of it, in the middle
/// of the rows it crosses and beside their rulings (0.1-0.22 pitch off them); None where it
/// crosses under four rows.
fn darkness_in_and_beside_rows(grey: &GrayImage, v: &Line, row_rulings: &[Line], pitch: f64) -> Option<(f64, f64)> {
    let x = v.mid();
    let ys = crossing_heights(x, row_rulings);
    if ys.len() < 4 {
        return None;
    }
    let px = |x: i64, y: i64| grey_clamped(grey, x, y);
    let (mut middle, mut beside) = (Vec::new(), Vec::new());
    let last_y = i64::from(grey.height()) - 1;
    let (t0, t1) = (v.start.max(ys[0]).max(0.0) as i64, (v.end.min(ys[ys.len() - 1]) as i64).min(last_y));
    for y in t0..=t1 {
        let nearest = ys.partition_point(|&r| r < y as f64);
        let distance = [nearest.checked_sub(1), Some(nearest)]
            .into_iter()
            .flatten()
            .filter_map(|k| ys.get(k))
            .map(|r| (r - y as f64).abs())
            .fold(f64::MAX, f64::min);
        let c = v.at(y as f64).round() as i64;
        let line = (c - 1..=c + 1).map(|x| px(x, y)).fold(f64::MAX, f64::min);
        let paper = px(c - 4, y).max(px(c + 4, y));
        let darkness = (paper - line).max(0.0);
        if distance > 0.1 * pitch && distance < 0.22 * pitch {
            beside.push(darkness);
        } else if distance > 0.3 * pitch {
            middle.push(darkness);
        }
    }
    if middle.len() < 10 || beside.len() < 5 {
        return None;
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    Some((mean(&middle), mean(&beside)))
}

/// Virtual outer borders where the rows run beyond the last vertical ruling (cropped edges): at the
/// outer ends of the long row rulings, moved out to a faint border within half a pitch, added to
/// `vsegs` (`lb` the rulings' binary).
fn add_virtual_borders(lb: &Bin, hsegs: &[Line], vsegs: &mut Vec<Line>, pitch: f64) {
    // virtual outer borders where rows run beyond the last vertical ruling (cropped edges)
    let hmax = hsegs.iter().map(|s| s.len()).fold(0.0, f64::max);
    let long: Vec<&Line> = hsegs.iter().filter(|s| s.len() >= 0.5 * hmax).collect();
    if long.len() >= 3 {
        let mut l: Vec<f64> = long.iter().map(|s| s.start).collect();
        let mut r: Vec<f64> = long.iter().map(|s| s.end).collect();
        l.sort_unstable_by(f64::total_cmp);
        r.sort_unstable_by(f64::total_cmp);
        // (outer ends of the table: side-by-side blocks each have their own ends, so not medians)
        let (lm, rm) = (l[l.len() / 5], r[r.len() * 4 / 5]);
        let ys: Vec<f64> = long.iter().map(|s| s.mid()).collect();
        let (y0, y1) = (ys.iter().copied().fold(f64::MAX, f64::min), ys.iter().copied().fold(f64::MIN, f64::max));
        for (xm, dir) in [(lm + 1.0, -1.0), (rm - 1.0, 1.0)] {
            let ym = 0.5 * (y0 + y1);
            // (only where no vertical ruling lies at or beyond the rows' ends: rulings broken
            // near the border leave the true border further out)
            if !vsegs.iter().any(|v| dir * (v.at(ym) - xm) > -0.5 * pitch && v.start < ym && v.end > ym) {
                // a faint border just beyond the rows' ends (the rulings fade before it): the
                // nearest column of ink down most of the rows' height, within half a pitch
                let cover = |x: i64| {
                    let n = (y0 as i64..y1 as i64)
                        .filter(|&y| (x - 1..=x + 1).any(|xx| xx >= 0 && lb.count(xx, y, xx + 1, y + 1) > 0))
                        .count();
                    n as f64 / (y1 - y0).max(1.0)
                };
                let x = (0..(0.5 * pitch) as i64).map(|d| xm as i64 + dir as i64 * d).find(|&x| cover(x) >= 0.6);
                let xm = x.map_or(xm, |x| x as f64);
                vsegs.push(Line { intercept: xm, slope: 0.0, start: y0, end: y1 });
            }
        }
    }
}

/// The table's outer sides where its blocks are parted by gaps (`gaps`, from [`block_gaps`]): rows
/// ruled block by block as underlines have no ruling down the table's sides either, so a virtual
/// ruling goes where the rows crossing the gaps start and end (aligned within a tenth of a pitch),
/// unless a column ruling runs there (within half a pitch).
fn add_outer_borders_of_gapped_rows(
    gaps: &[(f64, f64, f64, f64)],
    row_rulings: &[Line],
    column_rulings: &mut Vec<Line>,
    pitch: f64,
) {
    let top = gaps.iter().map(|g| g.2).fold(f64::MAX, f64::min);
    let bottom = gaps.iter().map(|g| g.3).fold(f64::MIN, f64::max);
    let rows: Vec<&Line> = row_rulings
        .iter()
        .filter(|r| r.mid() >= top - 0.5 * pitch && r.mid() <= bottom + 0.5 * pitch)
        .filter(|r| gaps.iter().any(|g| r.start < g.0 && r.end > g.1))
        .collect();
    if rows.len() < 4 {
        return;
    }
    let ym = 0.5 * (top + bottom);
    for end in [|r: &Line| r.start, |r: &Line| r.end] {
        let x = median(rows.iter().map(|r| end(r)).collect());
        let aligned = median(rows.iter().map(|r| (end(r) - x).abs()).collect()) <= 0.12 * pitch + 1.0;
        let ruled = column_rulings.iter().any(|v| v.start < ym && v.end > ym && (v.at(ym) - x).abs() < 0.5 * pitch);
        if aligned && !ruled {
            log::debug!("  outer side of blocks parted by gaps x {x:.0} y {top:.0}..{bottom:.0}");
            column_rulings.push(Line { intercept: x, slope: 0.0, start: top - pitch, end: bottom });
        }
    }
}

/// The gaps between blocks printed side by side without a column ruling between them: the row
/// rulings of each block end at its sides, so most rows break at the same place (as `(left, right,
/// top, bottom)`: the gap's median ends and the rows it runs down). `pieces` are the row rulings'
/// pieces before joining, `row_rulings` the joined ones, `glyphs` the glyphs' binary.
fn block_gaps(glyphs: &Bin, pieces: &[Line], row_rulings: &[Line], pitch: f64) -> Vec<(f64, f64, f64, f64)> {
    // (each joined ruling's breaks: gaps of an eighth of a pitch to four pitches between its pieces)
    let mut breaks: Vec<(f64, f64, f64)> = Vec::new(); // (left, right, y)
    for row in row_rulings {
        let mut own: Vec<&Line> = pieces
            .iter()
            .filter(|p| {
                p.start >= row.start - 1.0
                    && p.end <= row.end + 1.0
                    && (p.at(p.mid_t()) - row.at(p.mid_t())).abs() < 2.0
            })
            .collect();
        crate::sort::by_key(&mut own, |p| p.start);
        let mut reach = f64::MIN;
        for p in own {
            if reach > f64::MIN && p.start - reach >= (0.12 * pitch).max(3.0) && p.start - reach <= 4.0 * pitch {
                breaks.push((reach, p.start, row.mid()));
            }
            reach = reach.max(p.end);
        }
    }
    // (and each ruling that ends where another begins a little to its right, at about its height
    // but not joined to it: blocks side by side whose rows do not line up, on a bowed or curled
    // page or a form whose blocks are printed apart)
    for row in row_rulings {
        let next_piece = row_rulings
            .iter()
            .filter(|o| {
                let gap = o.start - row.end;
                gap >= (0.12 * pitch).max(3.0)
                    && gap <= 4.0 * pitch
                    && (o.at(o.start) - row.at(row.end)).abs() < 0.4 * pitch
            })
            .min_by(|a, b| a.start.total_cmp(&b.start));
        if let Some(next) = next_piece {
            breaks.push((row.end, next.start, 0.5 * (row.at(row.end) + next.at(next.start))));
        }
    }
    crate::sort::by_key(&mut breaks, |p| p.0 + p.1);
    let mut gaps = Vec::new();
    let mut i = 0;
    while i < breaks.len() {
        let centre = |k: usize| 0.5 * (breaks[k].0 + breaks[k].1);
        let mut j = i + 1;
        while j < breaks.len() && centre(j) - centre(j - 1) < 0.5 * pitch {
            j += 1;
        }
        let group = &breaks[i..j];
        let x = centre(i + group.len() / 2);
        // (a gap between blocks breaks most of the rows that run across it; a dashed ruling's
        // gaps or a stain's break few, or lie everywhere)
        let across = row_rulings.iter().filter(|r| r.start < x && r.end > x).count();
        if group.len() >= 4 && group.len() as f64 >= 0.6 * across as f64 {
            let left = median(group.iter().map(|g| g.0).collect());
            let right = median(group.iter().map(|g| g.1).collect());
            // (printed rows end where the block ends, all alike; a dotted or faint ruling lost in
            // places breaks anywhere)
            let spread =
                |end: f64, of: fn(&(f64, f64, f64)) -> f64| median(group.iter().map(|g| (of(g) - end).abs()).collect());
            let aligned = spread(left, |g| g.0) <= 0.12 * pitch + 1.0 && spread(right, |g| g.1) <= 0.12 * pitch + 1.0;
            let top = group.iter().map(|g| g.2).fold(f64::MAX, f64::min);
            let bottom = group.iter().map(|g| g.2).fold(f64::MIN, f64::max);
            // (and the gap is paper between the blocks, not part of a column written in)
            let rows = ((bottom - top) / pitch).round().max(1.0) as usize;
            // (its left part: the printed numbers of a block whose rows are not ruled across its
            // number column stand in the gap's right part)
            let paper_end = left + (right - left).min(pitch.max(0.4 * (right - left)));
            let blank_rows = (0..rows)
                .filter(|&r| {
                    let y = top + (r as f64 + 0.5) * pitch;
                    ink_fraction(glyphs, [left, y - 0.5 * pitch, paper_end, y + 0.5 * pitch]) < INKED_CELL
                })
                .count();
            if aligned && blank_rows as f64 >= 0.7 * rows as f64 {
                gaps.push((left, right, top, bottom));
            }
        }
        i = j;
    }
    // (more than a few aligned gaps are a dashed ruling's pattern, not blocks)
    if gaps.len() > 5 {
        gaps.clear();
    }
    gaps
}

/// Virtual column rulings at both sides of each gap between blocks ([`block_gaps`]) where no
/// column ruling runs, added to `column_rulings`: the gap becomes a narrow column of its own, and
/// the blocks beside it their own columns. Returns the gaps so made columns (left and right x).
fn add_block_gap_borders(
    glyphs: &Bin,
    pieces: &[Line],
    row_rulings: &[Line],
    column_rulings: &mut Vec<Line>,
    pitch: f64,
) -> Vec<(f64, f64)> {
    let gaps = block_gaps(glyphs, pieces, row_rulings, pitch);
    let mut gap_columns = Vec::new();
    add_outer_borders_of_gapped_rows(&gaps, row_rulings, column_rulings, pitch);
    for (left, right, top, bottom) in gaps {
        let ym = 0.5 * (top + bottom);
        let ruled = column_rulings
            .iter()
            .any(|v| v.start < ym && v.end > ym && v.at(ym) > left - 0.5 * pitch && v.at(ym) < right + 0.5 * pitch);
        if ruled {
            continue;
        }
        log::debug!("  gap between blocks x {left:.0}..{right:.0} y {top:.0}..{bottom:.0}");
        // (rows ruled as underlines leave the first row without a ruling above it: the gap runs
        // a row higher than the first break)
        for x in [left, right] {
            column_rulings.push(Line { intercept: x, slope: 0.0, start: top - pitch, end: bottom });
        }
        gap_columns.push((left, right));
    }
    gap_columns
}

/// Narrow columns (under 3 row pitches) that no row ruling crosses in ink: the space between two
/// blocks each ruled on its own, bounded by their outer rulings (row rulings joined across it are
/// no ink there), where a number column has its rows ruled across. Returns their left and right x,
/// as [`add_block_gap_borders`] does.
fn narrow_columns_no_row_crosses(lb: &Bin, cols: &[Column], pitch: f64) -> Vec<(f64, f64)> {
    let crossed_in_ink = |c: &Column, ruling: &Line| {
        let y = ruling.at(0.5 * (c.left.mid() + c.right.mid()));
        let (from, to) = (c.left.at(y) + 2.0, c.right.at(y) - 2.0);
        to > from && super::lines::cover_band(lb, ruling, from, to, 2) >= 0.3
    };
    cols.iter()
        .filter(|c| c.width() < 3.0 * pitch)
        .filter(|c| {
            let crossed = c.rows.iter().filter(|(top, _)| crossed_in_ink(c, top)).count();
            (crossed as f64) < 0.2 * c.rows.len() as f64
        })
        .map(|c| {
            log::debug!("  no row ruling crosses x {:.0}..{:.0}: a gap between blocks", c.left.mid(), c.right.mid());
            (c.left.intercept, c.right.intercept)
        })
        .collect()
}

/// Adds virtual column rulings to `vsegs` (kept in order of position) and builds the columns
/// again; nothing where there are none.
fn add_virtual_rulings(
    virtual_rulings: Vec<Line>,
    hsegs: &[Line],
    vsegs: &mut Vec<Line>,
    cols: &mut Vec<Column>,
    pitch: f64,
    lb_transposed: &Bin,
) {
    if !virtual_rulings.is_empty() {
        vsegs.extend(virtual_rulings);
        crate::sort::by_key(vsegs, |p| p.mid());
        *cols = build_cols(hsegs, vsegs, pitch, lb_transposed);
    }
}

/// Finds the move table in a straightened page: `b` the glyphs' binary, `lb` the rulings'
/// binary, `grey` the grey page they were binarized from.
pub fn analyze(b: &Bin, lb: &Bin, grey: &GrayImage) -> Grid {
    let (w, h) = (b.w, b.h);
    save_debug_binary("rulings", lb);
    save_debug_binary("glyphs", b);
    let (pieces, row_rulings, min_row_len) = find_row_rulings(lb, w);
    if row_rulings.len() < 4 {
        return Grid::NotFound("no ruled rows found".into());
    }
    let Some(pitch) = row_pitch(&row_rulings, h) else {
        return Grid::NotFound("no regularly spaced rows found".into());
    };
    // rulings broken by a faint or damaged print (gaps up to 4 row pitches)
    let row_rulings: Vec<Line> =
        join_broken(pieces.clone(), 2.0, 4.0 * pitch).into_iter().filter(|s| s.len() >= min_row_len).collect();
    let lb_transposed = lb.transpose();
    let vr_transposed = lines::vertical_ridges(grey).transpose();
    let mut column_rulings = find_column_rulings(&lb_transposed, &vr_transposed, grey, &row_rulings, pitch);
    add_virtual_borders(lb, &row_rulings, &mut column_rulings, pitch);
    let mut gap_columns = add_block_gap_borders(b, &pieces, &row_rulings, &mut column_rulings, pitch);
    crate::sort::by_key(&mut column_rulings, |p| p.mid());

    let mut cols = build_cols(&row_rulings, &column_rulings, pitch, &lb_transposed);
    let shaded_columns_read = glyphs_in_shaded_columns(b, grey, &cols, pitch);
    let b = shaded_columns_read.as_ref().unwrap_or(b);
    gap_columns.extend(narrow_columns_no_row_crosses(lb, &cols, pitch));
    part_columns_holding_black_and_the_next_white(
        b,
        &lb_transposed,
        &row_rulings,
        &mut column_rulings,
        &mut cols,
        pitch,
    );
    add_number_zones(b, grey, lb, &lb_transposed, &row_rulings, &mut column_rulings, &mut cols, &gap_columns, pitch);
    part_columns_between_number_columns(b, &lb_transposed, &row_rulings, &mut column_rulings, &mut cols, pitch);
    if log::log_enabled!(log::Level::Debug) {
        log::debug!("size {w}x{h} pitch {pitch:.1} hsegs {} vsegs {}", row_rulings.len(), column_rulings.len());
        for s in &row_rulings {
            log::debug!("  h y={:.1} x {:.0}..{:.0}", s.mid(), s.start, s.end);
        }
        // (a line with no ink on it, a virtual ruling, has no width nor offset: "-")
        let measured = |x: f64| if x == f64::MAX { "-".to_string() } else { format!("{x:.2}") };
        for v in &column_rulings {
            let (pw, pd, pc) = super::lines::profile(&lb_transposed, v);
            let (rw, rd, rc) = super::lines::profile(&vr_transposed, v);
            log::debug!(
                "  v x={:.1} y {:.0}..{:.0} width {} off {} cover {pc:.2} ridge {} {} {rc:.2}",
                v.mid(),
                v.start,
                v.end,
                measured(pw),
                measured(pd),
                measured(rw),
                measured(rd)
            );
        }
        for c in &cols {
            log::debug!(
                "  col {:.1}..{:.1} w {:.1} rows {} first {:.1} last {:.1}",
                c.left.mid(),
                c.right.mid(),
                c.width(),
                c.rows.len(),
                c.rows[0].0.mid(),
                c.rows[c.rows.len() - 1].1.mid()
            );
        }
    }
    if cols.is_empty() {
        return Grid::NotFound("no ruled columns found".into());
    }
    let (subs, flipped) = find_subs(b, grey, &lb_transposed, &cols, &gap_columns, pitch);
    if subs.is_empty() {
        if flipped > 0 {
            return Grid::Flipped;
        }
        return Grid::NotFound("no move-number column next to two move columns found".into());
    }
    if flipped > subs.len() {
        return Grid::Flipped;
    }
    // data rows of each sub-block: from the first to the last row with printed digits
    let mut blocks_found: Vec<FoundBlock> = Vec::new();
    let runs = block_rows(&cols, subs, pitch);
    for (sub, run) in runs {
        if let Some(blk) = find_block(b, lb, grey, &cols, sub, &run, pitch) {
            blocks_found.push(blk);
        }
    }
    drop_repeated_blocks(&mut blocks_found, pitch);
    drop_end_rows_beyond_beside(&mut blocks_found, pitch);
    drop_shared_headings(&mut blocks_found, pitch);
    share_rows_side_by_side(&cols, &lb_transposed, &mut blocks_found, pitch);
    // (pieces of one column's rows, apart before, can each take the rows of the block beside)
    drop_repeated_blocks(&mut blocks_found, pitch);
    if blocks_found.is_empty() {
        return Grid::NotFound("no printed move numbers found".into());
    }
    drop_unnumbered_first_rows(b, &cols, &mut blocks_found, pitch);
    narrow_move_columns_run_on(&mut cols, &blocks_found, pitch);
    widen_move_columns_cut_short(&lb_transposed, &mut cols, &blocks_found, w as f64);
    mark_rows_the_columns_leave(&lb_transposed, &cols, &mut blocks_found);
    let mut order = reading_order(blocks_found, pitch);
    find_unruled_clock_columns(b, lb, &lb_transposed, grey, &cols, &mut order, pitch);
    let starts = provisional_starts(b, &cols, &order);
    let (cells, blocks) = cut_cells(b, &cols, &order, &starts, pitch);
    let ruled_span = ruled_span_across(&row_rulings, &blocks, pitch);
    Grid::Found { cells, blocks, pitch, ruled_span }
}

/// The glyphs' binary `b` with the columns that a shade fills made out again against the
/// shade's own grey (`None` where no column is filled): a column shaded grey as wide as a
/// number column binarizes solid beside white paper, as the paper raises the local mean the
/// binary compares with, and the numbers printed in it are lost in the shade.
///
/// A column is filled where over half of its cells' area is inked, and taken for a shade where
/// its median grey is at least [`LEAST_SHADE_LEVEL`]; in it, a pixel is ink where it is darker
/// than that grey by [`SHADE_INK_SHARE`] of it and [`SHADE_INK_LEVELS`] grey levels.
fn glyphs_in_shaded_columns(b: &Bin, grey: &GrayImage, cols: &[Column], pitch: f64) -> Option<Bin> {
    let number_wide = |c: &Column| (MIN_NUMBER_COLUMN * pitch..=MAX_NUMBER_COLUMN * pitch).contains(&c.width());
    let mut read_again: Option<Bin> = None;
    for column in cols.iter().filter(|c| c.rows.len() >= 3 && number_wide(c)) {
        // (each cell's pixels, a pixel in from the column's sides, where a ruling's edge lies)
        let cells: Vec<[usize; 4]> = column
            .rows
            .iter()
            .map(|(top, bottom)| {
                let [x0, y0, x1, y1] = column.cell(top, bottom);
                let clamp = |v: f64, limit: usize| (v.max(0.0) as usize).min(limit);
                [clamp(x0 + 1.0, b.w), clamp(y0 + 1.0, b.h), clamp(x1 - 1.0, b.w), clamp(y1 - 1.0, b.h)]
            })
            .collect();
        let pixels =
            || cells.iter().flat_map(|&[x0, y0, x1, y1]| (y0..y1).flat_map(move |y| (x0..x1).map(move |x| (x, y))));
        let area = pixels().count();
        let inked = pixels().filter(|&(x, y)| b.get(x, y)).count();
        if area == 0 || (inked as f64) < FILLED_COLUMN_INK * area as f64 {
            continue;
        }
        let mut levels: Vec<u8> = pixels().map(|(x, y)| grey.get_pixel(x as u32, y as u32).0[0]).collect();
        let middle = levels.len() / 2;
        let shade = f64::from(*levels.select_nth_unstable(middle).1);
        // (a column filled near black is print or a dark bar, not a shade print shows on)
        if shade < LEAST_SHADE_LEVEL {
            continue;
        }
        let under = (SHADE_INK_SHARE * shade).max(SHADE_INK_LEVELS);
        log::debug!(
            "  column x {:.0}..{:.0} filled by a shade at grey {shade:.0}: its glyphs made out against it",
            column.left.mid(),
            column.right.mid()
        );
        let glyphs = read_again.get_or_insert_with(|| b.clone());
        for (x, y) in pixels() {
            let ink = f64::from(grey.get_pixel(x as u32, y as u32).0[0]) <= shade - under;
            glyphs.d[y * glyphs.w + x] = u8::from(ink);
        }
    }
    read_again
}

/// The share of a number-wide column's cells inked in the glyphs' binary at and over which a
/// shade fills it ([`glyphs_in_shaded_columns`]): printed numbers ink a tenth of their cells.
const FILLED_COLUMN_INK: f64 = 0.5;
/// How much darker than a shade a pixel in it is to be ink: a fifth of the shade's level and 12
/// levels (grain in a synthetic scan's shade: 10 levels either side; print in it: half the
/// shade's level and darker).
const SHADE_INK_SHARE: f64 = 0.2;
const SHADE_INK_LEVELS: f64 = 12.0;
/// The darkest grey a column's fill is taken for a shade at ([`glyphs_in_shaded_columns`]): a
/// quarter of white; darker, the column is print or a dark bar, and anything printed on it is
/// printed white.
const LEAST_SHADE_LEVEL: f64 = 64.0;

/// The x extent of the row rulings lying across the blocks' rows (from half a pitch above the
/// highest block to half a pitch below the lowest) that are half as long as the longest of them.
fn ruled_span_across(row_rulings: &[Line], blocks: &[GBlock], pitch: f64) -> (f64, f64) {
    let top = blocks.iter().map(|b| b.bx[1]).fold(f64::MAX, f64::min) - 0.5 * pitch;
    let bottom = blocks.iter().map(|b| b.bx[3]).fold(f64::MIN, f64::max) + 0.5 * pitch;
    let across: Vec<&Line> = row_rulings.iter().filter(|r| (top..=bottom).contains(&r.mid())).collect();
    let longest = across.iter().map(|r| r.len()).fold(0.0, f64::max);
    across
        .iter()
        .filter(|r| r.len() >= 0.5 * longest)
        .fold((f64::MAX, f64::MIN), |(start, end), r| (start.min(r.start), end.max(r.end)))
}

/// The row runs of each block found in the columns: of its three columns, the rows of the one with
/// the most rows, a gap of one row filled; a column running through blocks stacked on the page
/// gives one run for each block.
fn block_rows(cols: &[Column], subs: Vec<BlockColumns>, pitch: f64) -> Vec<(BlockColumns, Vec<Row>)> {
    // rows: of the three columns, the one with the most rows (rulings can be faint in one); a
    // column running through blocks stacked on the page has its rows in separate runs, one block
    // each
    let mut runs: Vec<(BlockColumns, Vec<Row>)> = Vec::new();
    for s in subs {
        let nc = &cols[s.number];
        let all =
            [s.number, s.white, s.black].iter().map(|&i| &cols[i].rows).max_by_key(|r| r.len()).unwrap_or(&nc.rows);
        // (a single row whose rulings were both lost leaves a gap of one pitch: it is filled)
        let mut run: Vec<Row> = Vec::new();
        for (i, r) in all.iter().enumerate() {
            let gap = if i == 0 { 0.0 } else { r.0.mid() - all[i - 1].1.mid() };
            if gap > 0.7 * pitch && gap < 1.35 * pitch {
                run.push((all[i - 1].1, r.0));
            } else if gap.abs() > 0.3 * pitch {
                runs.push((s, std::mem::take(&mut run)));
            }
            run.push(*r);
        }
        runs.push((s, run));
    }
    runs
}

/// A block's move rows in one run of rows of its columns: from the first to the last row with
/// printed digits in the number cell, a heading row at either end dropped, then extended row by
/// row while the number cell beyond holds a number like those of the block and a ruling is seen
/// one pitch on (`b` the glyphs' binary, `lb` the rulings' binary). None where fewer than three
/// rows hold ink in their number cells.
fn find_block(
    b: &Bin,
    lb: &Bin,
    grey: &GrayImage,
    cols: &[Column],
    s: BlockColumns,
    ref_rows: &[Row],
    pitch: f64,
) -> Option<FoundBlock> {
    let (rows, glyphs) = inked_number_rows(b, &cols[s.number], ref_rows)?;
    let mut finder = BlockRowsFinder::new(b, lb, grey, cols, s, &rows, pitch);
    let mut found = RowsFound {
        rows,
        glyphs,
        heading_top: None,
        cut_top: false,
        cut_bottom: false,
        numbers_seen_from: None,
        numbers_seen_to: None,
    };
    finder.drop_odd_height_headings(&mut found);
    finder.digit_height = printed_digit_height(b, finder.numbers, &found.rows);
    finder.drop_move_height_heading(&mut found);
    if !found.cut_top {
        finder.extend_up(&mut found);
    }
    if !found.cut_bottom {
        finder.extend_down(&mut found);
    }
    Some(finder.into_block(found))
}

/// The rows from the first to the last whose number cell holds ink, with the glyph count of each
/// number cell; None where they are fewer than three.
fn inked_number_rows(b: &Bin, numbers: &Column, ref_rows: &[Row]) -> Option<(Vec<Row>, Vec<usize>)> {
    let glyphs: Vec<usize> = ref_rows.iter().map(|(t, bo)| count_glyphs(b, numbers.cell(t, bo))).collect();
    let inked: Vec<bool> = ref_rows
        .iter()
        .zip(&glyphs)
        .map(|((t, bo), &g)| g > 0 || ink_fraction(b, numbers.cell(t, bo)) > INKED_CELL)
        .collect();
    let (first, last) = (inked.iter().position(|&g| g)?, inked.iter().rposition(|&g| g)?);
    if last + 1 - first < 3 {
        return None;
    }
    Some((ref_rows[first..=last].to_vec(), glyphs[first..=last].to_vec()))
}

/// The median height of the tallest glyph in the rows' number cells (0 where none holds one).
/// A thin stroke from the cell's top to its bottom is the side of a rounded or inset cell box, no
/// digit (printed digits are at most [`MAX_NUMBER_HEIGHT`] of a pitch high).
fn printed_digit_height(b: &Bin, numbers: &Column, rows: &[Row]) -> f64 {
    let tallest_glyph = |bx: [f64; 4]| {
        let inner = bx[3] - bx[1] - 5.0;
        tallest_glyph_where(b, bx, |width, height| !(width <= 3 && height >= 0.9 * inner))
    };
    let mut heights: Vec<f64> = rows.iter().filter_map(|(t, bo)| tallest_glyph(numbers.cell(t, bo))).collect();
    heights.sort_unstable_by(f64::total_cmp);
    heights.get(heights.len() / 2).copied().unwrap_or(0.0)
}

/// A block's rows while they are found: the rows (top and bottom ruling), the glyph count of each
/// number cell, and the heading rows dropped.
struct RowsFound {
    rows: Vec<Row>,
    glyphs: Vec<usize>,
    /// top of a heading row dropped above the rows, if any
    heading_top: Option<f64>,
    cut_top: bool,
    cut_bottom: bool,
    /// see [`FoundBlock::numbers_seen_from`]
    numbers_seen_from: Option<f64>,
    numbers_seen_to: Option<f64>,
}

impl RowsFound {
    fn drop_first(&mut self) {
        self.heading_top = Some(self.rows[0].0.mid());
        self.rows.remove(0);
        self.glyphs.remove(0);
        self.cut_top = true;
    }
}

/// The most glyphs in the first three number cells of `glyphs`.
fn most_glyphs_of_next_three(glyphs: &[usize]) -> usize {
    glyphs.iter().take(3).copied().max().unwrap_or(0)
}

/// A window of a number cell without its top and bottom 0.15 pitch (the rulings and what touches
/// them).
fn inner_window(bx: [f64; 4], pitch: f64) -> [f64; 4] {
    [bx[0], bx[1] + 0.15 * pitch, bx[2], bx[3] - 0.15 * pitch]
}

/// What [`find_block`]'s steps measure once on a block's first rows and share: its columns, the
/// rows' usual height, the cells' usual ink and the printed digits' height.
struct BlockRowsFinder<'a> {
    glyph_bin: &'a Bin,
    ruling_bin: &'a Bin,
    /// the analysed grey page, where row rulings too faint for the rulings' binary are seen
    grey: &'a GrayImage,
    columns: BlockColumns,
    numbers: &'a Column,
    white: &'a Column,
    black: &'a Column,
    leftmost: &'a Column,
    pitch: f64,
    /// the median row height
    row_height: f64,
    /// the median ink of the number, White's and Black's cells
    median_ink: [f64; 3],
    /// the printed digits' median height over the first rows found, headings included
    first_digit_height: f64,
    /// the printed digits' median height once the headings of odd height are dropped
    digit_height: f64,
}

impl<'a> BlockRowsFinder<'a> {
    fn new(
        b: &'a Bin,
        lb: &'a Bin,
        grey: &'a GrayImage,
        cols: &'a [Column],
        columns: BlockColumns,
        rows: &[Row],
        pitch: f64,
    ) -> BlockRowsFinder<'a> {
        let numbers = &cols[columns.number];
        let (white, black) = (&cols[columns.white], &cols[columns.black]);
        let median_ink = |c: &Column| median(rows.iter().map(|r| ink_fraction(b, c.cell(&r.0, &r.1))).collect());
        let mut finder = BlockRowsFinder {
            glyph_bin: b,
            ruling_bin: lb,
            grey,
            columns,
            numbers,
            white,
            black,
            leftmost: &cols[columns.left()],
            pitch,
            row_height: 0.0,
            median_ink: [median_ink(numbers), median_ink(white), median_ink(black)],
            first_digit_height: printed_digit_height(b, numbers, rows),
            digit_height: 0.0,
        };
        finder.row_height = median(rows.iter().map(|r| finder.height_of(r)).collect());
        finder
    }

    /// A row's height at the number column.
    fn height_of(&self, r: &Row) -> f64 {
        let x = self.numbers.centre_x(r.0.mid());
        r.1.at(x) - r.0.at(x)
    }

    /// Whether a row's height differs from the usual by more than `share` of it.
    fn odd_height(&self, r: &Row, share: f64) -> bool {
        (self.height_of(r) - self.row_height).abs() > share * self.row_height
    }

    /// Two titles centred in the move cells, printed in one font on one baseline: the two
    /// titles' ink spans the same rows.
    fn titles_centred(&self, r: &Row) -> bool {
        let span_if_centred = |c: &Column| {
            let bx = c.cell(&r.0, &r.1);
            // (a scan's specks, under an eighth of the largest glyph's ink, are no part of a title,
            // nor are the tops of a writer's strokes reaching up from the row below into the
            // cell's lowest quarter, nor flat pieces of a ruling's edge left inside the cell; an
            // i's dot left out lies within the title anyway)
            let mut comps = components(self.glyph_bin, bx);
            let largest = comps.iter().map(|q| q.4).max().unwrap_or(0);
            let tallest = comps.iter().map(|q| q.3 - q.1 + 1).max().unwrap_or(0);
            let lowest_quarter = bx[1] + 0.75 * (bx[3] - bx[1]);
            let ruling_piece = |q: &(usize, usize, usize, usize, usize)| {
                let (width, height) = (q.2 - q.0 + 1, q.3 - q.1 + 1);
                5 * height < tallest && width >= 3 * height
            };
            comps.retain(|q| 8 * q.4 >= largest && (q.1 as f64) < lowest_quarter && !ruling_piece(q));
            let x0 = comps.iter().map(|q| q.0).min()? as f64;
            let x1 = comps.iter().map(|q| q.2).max()? as f64;
            let y0 = comps.iter().map(|q| q.1).min()? as f64;
            let y1 = comps.iter().map(|q| q.3).max()? as f64;
            let w = bx[2] - bx[0];
            let centred = ((x0 + x1) * 0.5 - (bx[0] + bx[2]) * 0.5).abs() < 0.08 * w && x1 - x0 < 0.8 * w;
            centred.then_some((y0, y1))
        };
        match (span_if_centred(self.white), span_if_centred(self.black)) {
            (Some(p), Some(q)) => {
                (p.0 - q.0).abs() <= 1.5 && (p.1 - q.1).abs() <= 1.5 && p.1 - p.0 < 0.6 * self.row_height
            }
            _ => false,
        }
    }

    /// Whether a row is printed as a heading: a cell filled dark (light print on dark), or a
    /// number cell holding more characters than the numbers next to it ("No" above 1, 2, 3:
    /// `glyphs` in this row, `glyphs_next` in the next rows, `above` where the row lies above
    /// them), or an empty number cell beside two centred titles printed on one baseline.
    fn is_heading(&self, r: &Row, glyphs: usize, glyphs_next: usize, above: bool) -> bool {
        let b = self.glyph_bin;
        let filled = self.shaded_like_a_heading(r);
        // letters of mixed heights ("No") rather than digits of one height
        // (each mark's width and height)
        let marks: Vec<(f64, f64)> = components(b, self.numbers.cell(&r.0, &r.1))
            .iter()
            .filter(|q| q.4 >= 4)
            .map(|q| ((q.2 - q.0 + 1) as f64, (q.3 - q.1 + 1) as f64))
            .collect();
        let hs: Vec<f64> = marks.iter().map(|&(_, height)| height).collect();
        let (hmin, hmax) = hs.iter().fold((f64::MAX, 0.0f64), |(a, c), &h| (a.min(h), c.max(h)));
        let text = hs.len() >= 2 && hmax > 1.3 * hmin && hmin >= 0.15 * self.row_height;
        // (more glyphs than the number below: a heading, unless the row is of the move rows'
        // height and its glyphs are separate pieces each of the printed digits' height, e.g.
        // a faint "10" whose "0" broke in two)
        let digit_height = self.first_digit_height;
        let digit_like = !self.odd_height(r, 0.07)
            && digit_height > 0.0
            && hs.len() >= glyphs
            && hs.iter().all(|&h| (h - digit_height).abs() <= 0.15 * digit_height + 1.0);
        let bad_number = above && glyphs > glyphs_next && glyphs_next > 0 && !digit_like;
        // (an inked number cell above printed numbers that holds no digit-like glyph: a blurred
        // "No" merges into one mark wider than a digit; only rows of odd height get here)
        let no_digit = above
            && glyphs == 0
            && glyphs_next > 0
            && digit_height > 0.0
            && hmax >= 0.5 * digit_height
            && !marks.iter().any(|&(width, height)| digit_like_mark(width, height, digit_height));
        let centred = self.titles_centred(r);
        log::debug!(
            "  title? filled {filled} bad number {bad_number} ({glyphs} vs {glyphs_next}) no digit {no_digit} text {text} {hs:?} centred {centred}"
        );
        filled || bad_number || no_digit || ((glyphs == 0 || text) && centred)
    }

    /// Drops a heading row of another height than the move rows at either end.
    fn drop_odd_height_headings(&self, found: &mut RowsFound) {
        let next = most_glyphs_of_next_three(&found.glyphs[1..]);
        if found.rows.len() > 3
            && self.odd_height(&found.rows[0], 0.07)
            && self.is_heading(&found.rows[0], found.glyphs[0], next, true)
        {
            found.drop_first();
        }
        let l = found.rows.len();
        log::debug!(
            "  block rows {l} rh {:.1} top h {:.1} cut {} bottom h {:.1} glyphs {:?}",
            self.row_height,
            self.height_of(&found.rows[0]),
            found.cut_top,
            self.height_of(&found.rows[l - 1]),
            found.glyphs
        );
        if l > 3
            && self.odd_height(&found.rows[l - 1], 0.07)
            && self.is_heading(&found.rows[l - 1], found.glyphs[l - 1], 0, false)
        {
            found.rows.pop();
            found.glyphs.pop();
            found.cut_bottom = true;
        }
    }

    /// Whether the tallest glyph of a window is of the printed digits' height within `share`
    /// (and `plus` pixels).
    fn digit_high_in(&self, bin: &Bin, bx: [f64; 4], share: f64, plus: f64) -> bool {
        glyph_height(bin, bx).is_some_and(|gh| (gh - self.digit_height).abs() <= share * self.digit_height + plus)
    }

    /// Whether a number cell's mark is nearly of the printed digits' height.
    fn near_digit_in(&self, bin: &Bin, bx: [f64; 4]) -> bool {
        self.digit_high_in(bin, bx, 0.1, 0.5)
    }

    /// Drops a heading row of the move rows' height at the top: its number cell holds a mark
    /// ("#", "No") of another height than the printed numbers below it, or its titles are centred
    /// on one baseline beside a mark not quite of the digits' height (or none).
    fn drop_move_height_heading(&self, found: &mut RowsFound) {
        if found.cut_top || found.rows.len() <= 3 || self.digit_height <= 0.0 {
            return;
        }
        let b = self.glyph_bin;
        let number_cell = |r: &Row| self.numbers.cell(&r.0, &r.1);
        let off_height =
            |r: &Row| glyph_height(b, number_cell(r)).is_some() && !self.digit_high_in(b, number_cell(r), 0.25, 1.0);
        let (first, second) = (&found.rows[0], &found.rows[1]);
        if off_height(first) && !off_height(second) {
            log::debug!("  heading of another height: {:?}", glyph_height(b, number_cell(first)));
            found.drop_first();
            return;
        }
        if self.titles_centred(first)
            && !self.near_digit_in(b, number_cell(first))
            && !self.near_digit_in(self.ruling_bin, inner_window(number_cell(first), self.pitch))
            && self.near_digit_in(b, number_cell(second))
        {
            log::debug!("  heading with centred titles");
            found.drop_first();
        }
    }

    /// Whether a mark of the printed digits' size at least half, shorter than the window (no
    /// column ruling), is cut by the window's right side.
    fn print_runs_past(&self, bin: &Bin, bx: [f64; 4]) -> bool {
        let right = searched_area(bin, bx)[2];
        let window_height = bx[3] - bx[1];
        components_in(bin, bx, false).iter().any(|q| {
            let height = (q.3 - q.1 + 1) as f64;
            q.4 >= 4 && q.2 + 1 >= right && height >= 0.5 * self.digit_height && height < window_height - 5.0
        })
    }

    /// Whether a ruling of the number column runs through the middle of a window.
    fn number_column_ruled(&self, bx: [f64; 4]) -> bool {
        let yc = 0.5 * (bx[1] + bx[3]);
        [self.numbers.left, self.numbers.right].iter().any(|v| v.start <= yc && v.end >= yc)
    }

    /// The glyph count of a row's number cell where it holds a printed number like the block's
    /// (one to three glyphs of the digits' height, within one of `glyphs_beside`, the number
    /// column ruled there or, `row_ruled`, a ruling across the block under the row), and the
    /// binary it was read in: a thin digit under a dark heading can lose its ink in the glyphs'
    /// binary, whose local threshold the heading lowers, so a row of the move rows' height is
    /// read in the rulings' more permissive binary too; a row of odd height (a heading's "#",
    /// faint in the glyphs' binary) is not.
    fn number_like(&self, r: &Row, glyphs_beside: usize, row_ruled: bool) -> Option<(usize, &'a Bin)> {
        let cell = self.numbers.cell(&r.0, &r.1);
        let bx = inner_window(cell, self.pitch);
        let regular = !self.odd_height(r, 0.1);
        [self.glyph_bin, self.ruling_bin].into_iter().take(if regular { 2 } else { 1 }).find_map(|bin| {
            let g = count_glyphs(bin, bx);
            // (measured in the whole cell too: a digit printed low, or descending below the
            // line as old-style figures do, is cut short by the inner window)
            let tall = self.digit_high_in(bin, bx, 0.2, 1.0) || self.digit_high_in(bin, cell, 0.2, 1.0);
            let like = g > 0 && g <= 3 && g.abs_diff(glyphs_beside) <= 1;
            // (where the column's own rulings are not seen, a word printed across the row, a
            // results line's "RESULT:", runs on past the number cell's side: no number does)
            let ruled = self.number_column_ruled(bx) || (row_ruled && !self.print_runs_past(bin, bx));
            (like && ruled && self.digit_height > 0.0 && tall).then_some((g, bin))
        })
    }

    /// The ruling one pitch beyond `r` (`dir` -1 up, +1 down), moved to the line of ink across
    /// the block within a quarter pitch that covers most of the block's width (a faint ruling
    /// binarizes as dashes too short to be found as a ruling): the ruling and its coverage.
    fn ruling_beyond(&self, r: &Line, dir: f64) -> (Line, f64) {
        let guess = r.shifted(dir * self.pitch);
        let (x0, x1) = (self.leftmost.left.at(guess.mid()), self.black.right.at(guess.mid()));
        let reach = (0.25 * self.pitch) as i64;
        let (mut best, mut best_cover) = (guess, -1.0);
        // (nearest first, alternating down and up)
        for d in (0..=2 * reach).map(|i| if i % 2 == 0 { i / 2 } else { -(i + 1) / 2 }) {
            let candidate = guess.shifted(d as f64);
            let cover = super::lines::cover(self.ruling_bin, &candidate, x0, x1);
            if cover > best_cover + 0.02 {
                (best, best_cover) = (candidate, cover);
            }
        }
        (best, best_cover)
    }

    /// The row ruling one pitch below the row ruling `r` seen in the grey page where the
    /// rulings' binary lost it (a ruling printed light grey and photographed out of focus,
    /// blurred over a third of the row and a few grey levels deep): of the lines within a quarter
    /// pitch of the guess, the one darkest across the block, where it is darker than the lines a
    /// third of a pitch to either side by [`FAINT_ROW_MIN_LEVELS`] and 1 /
    /// [`FAINT_ROW_DEPTH_DIVISOR`] of its level. Across the whole block the paper's grain evens
    /// out; handwriting crossing the line is left out of its grey ([`grey_across`]).
    fn faint_ruling_below(&self, r: &Line) -> Option<Line> {
        let guess = r.shifted(self.pitch);
        let (x0, x1) = (self.leftmost.left.at(guess.mid()), self.black.right.at(guess.mid()));
        let reach = (0.25 * self.pitch).round() as i64;
        let beside = (FAINT_ROW_BESIDE * self.pitch).round() as i64;
        let across = |d: i64| grey_across(self.grey, &guess.shifted(d as f64), x0, x1);
        let (offset, level) = (-reach..=reach)
            .filter_map(|d| Some((d, across(d)?)))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.abs().cmp(&b.0.abs())))?;
        let lighter_side = across(offset - beside)?.min(across(offset + beside)?);
        let depth = lighter_side - level;
        log::debug!(
            "  faint ruling below at {:.1}: depth {depth:.1} under {lighter_side:.1}",
            guess.mid() + offset as f64
        );
        (depth >= FAINT_ROW_MIN_LEVELS.max(level / FAINT_ROW_DEPTH_DIVISOR)).then(|| guess.shifted(offset as f64))
    }

    /// The ruling one pitch below the last row `r` and its cover in the rulings' binary:
    /// [`Self::ruling_beyond`] where it covers [`FAINT_COVER_BELOW`] of the block's width, else
    /// [`Self::faint_ruling_below`] (no cover: seen in the grey only); `None` where neither
    /// shows one. (Above the first row a ruling seen in the grey only is not looked for: a
    /// heading ruled like the move rows, its top ruling faint, is found as the underlined first
    /// row and left out once the printed numbers are read.)
    fn ruling_seen_below(&self, r: &Line) -> Option<(Line, Option<f64>)> {
        let (line, cover) = self.ruling_beyond(r, 1.0);
        if cover >= FAINT_COVER_BELOW {
            return Some((line, Some(cover)));
        }
        log::debug!("  no ruling below in the rulings' binary: cover {cover:.2} at {:.1}", line.mid());
        self.faint_ruling_below(r).map(|line| (line, None))
    }

    /// Adds rows above the first while a ruling is seen one pitch up and the number cell between
    /// holds a number like the block's and no heading (a first row whose outer ruling was missed),
    /// or one the binaries lost ([`Self::number_lost_to_the_binary`]).
    fn extend_up(&self, found: &mut RowsFound) {
        for _ in 0..60 {
            let (top, _) = found.rows[0];
            let (above, cover) = self.ruling_beyond(&top, -1.0);
            if cover < FAINT_COVER {
                if let Some((row, g)) = self.underlined_first_row(found) {
                    found.rows.insert(0, row);
                    found.glyphs.insert(0, g);
                }
                break;
            }
            let candidate = (above, top);
            let bx = self.numbers.cell(&candidate.0, &candidate.1);
            let number = self.number_like(&candidate, found.glyphs[0], false);
            log::debug!(
                "  extend up {bx:?} cover {cover:.2} g {:?} adj {} ruled {} h {:?} hmed {}",
                number.map(|g| g.0),
                found.glyphs[0],
                self.number_column_ruled(bx),
                glyph_height(self.glyph_bin, bx),
                self.digit_height
            );
            // (a heading of the move rows' height whose "#" is nearly as tall as the digits: its
            // titles are centred on one baseline, and its mark, read in the binary its digits
            // were read in, is not quite of the digits' height)
            let heading =
                |bin: &Bin| self.titles_centred(&candidate) && !self.near_digit_in(bin, inner_window(bx, self.pitch));
            let next = most_glyphs_of_next_three(&found.glyphs);
            let within_the_page = bx[1] >= -0.3 * self.pitch;
            match number {
                Some((g, bin)) if within_the_page && !heading(bin) && !self.is_heading(&candidate, g, next, true) => {
                    found.rows.insert(0, candidate);
                    found.glyphs.insert(0, g);
                }
                None if within_the_page && self.number_lost_to_the_binary(&candidate, bx) => {
                    found.numbers_seen_from.get_or_insert(top.mid());
                    found.rows.insert(0, candidate);
                    found.glyphs.insert(0, 0);
                }
                _ => break,
            }
        }
    }

    /// Whether a row beyond the rows found (its number cell `bx`) may be a move row whose printed
    /// number the binaries lost, print too light for them at the analysed size: of the move rows'
    /// height, the number column's ruling running through it, no mark in its number cell as tall
    /// as [`LOST_NUMBER_MARK_HEIGHT`] of the digits' in the glyphs' binary (a title's letters
    /// stand as tall as digits), no titles centred in its move cells and none of them shaded.
    /// The printed numbers, read at the page's resolution, decide whether it stays
    /// ([`GBlock::rows_numbers_unseen`]).
    fn number_lost_to_the_binary(&self, candidate: &Row, bx: [f64; 4]) -> bool {
        let lost = |bin: &Bin| {
            glyph_height(bin, inner_window(bx, self.pitch))
                .is_none_or(|height| height < LOST_NUMBER_MARK_HEIGHT * self.digit_height)
        };
        self.digit_height > 0.0
            && !self.odd_height(candidate, 0.1)
            && self.number_column_ruled(bx)
            && lost(self.glyph_bin)
            && !self.titles_centred(candidate)
            && !self.shaded_like_a_heading(candidate)
    }

    /// Whether a cell of row `r` is inked like a shaded heading: over a third of it, and 1.8
    /// times its column's median.
    fn shaded_like_a_heading(&self, r: &Row) -> bool {
        [self.numbers, self.white, self.black].iter().zip(&self.median_ink).any(|(c, &m)| {
            let ink = ink_fraction(self.glyph_bin, c.cell(&r.0, &r.1));
            ink > 0.35 && ink > 1.8 * m
        })
    }

    /// The row above the first where nothing is ruled a pitch up, on a form that rules a line
    /// under each row: its first row has no ruling above it. Taken where its number cell holds
    /// glyphs like the first rows' numbers: as many (within one), each of the printed digits'
    /// height, standing as high above the row's underline as theirs; and no heading ("No", "#"
    /// and centred titles above the rows are none of these).
    fn underlined_first_row(&self, found: &RowsFound) -> Option<(Row, usize)> {
        if self.digit_height <= 0.0 || found.rows.len() < 3 {
            return None;
        }
        let (top, _) = found.rows[0];
        let candidate = (top.shifted(-self.row_height), top);
        let bx = self.numbers.cell(&candidate.0, &candidate.1);
        if bx[1] < -0.3 * self.pitch {
            return None;
        }
        let b = self.glyph_bin;
        // (the glyphs' heights and how far their foot stands above the row's lower ruling)
        let digits = |bx: [f64; 4]| -> Vec<(f64, f64)> {
            let h = bx[3] - bx[1] - 5.0;
            components(b, bx)
                .into_iter()
                .filter(|q| q.4 >= 4 && (q.3 - q.1 + 1) as f64 >= 0.3 * h)
                .map(|q| ((q.3 - q.1 + 1) as f64, bx[3] - q.3 as f64))
                .collect()
        };
        let digit_high = |h: f64| (h - self.digit_height).abs() <= 0.15 * self.digit_height + 1.0;
        let glyphs = digits(bx);
        // (bold digits blurred together make one mark wider than half the number cell, which
        // `count_glyphs` takes for no digit: its width tells how many it holds)
        let glyphs_of = |bx: [f64; 4], counted: usize| match counted {
            0 => glyphs_in_touching_digits(b, bx, self.digit_height),
            g => g,
        };
        let g = glyphs_of(bx, count_glyphs(b, bx));
        let below = glyphs_of(self.numbers.cell(&top, &found.rows[0].1), found.glyphs[0]);
        let like = g > 0 && g <= 3 && g.abs_diff(below) <= 1 && glyphs.iter().all(|&(h, _)| digit_high(h));
        let foot_below: Vec<f64> = found.rows[..3]
            .iter()
            .flat_map(|r| digits(self.numbers.cell(&r.0, &r.1)))
            .filter(|&(h, _)| digit_high(h))
            .map(|(_, foot)| foot)
            .collect();
        if foot_below.is_empty() {
            return None;
        }
        let usual_foot = median(foot_below);
        let standing = glyphs.iter().all(|&(_, foot)| (foot - usual_foot).abs() <= 0.15 * self.row_height);
        let next = most_glyphs_of_next_three(&found.glyphs);
        log::debug!("  underlined first row? {bx:?} g {g} glyphs {glyphs:?} like {like} foot {usual_foot:.1}");
        (like && standing && !self.titles_centred(&candidate) && !self.is_heading(&candidate, g, next, true))
            .then_some((candidate, g))
    }

    /// Adds rows below the last while a ruling is seen one pitch down, in the rulings' binary or
    /// faint in the grey ([`Self::ruling_seen_below`]), and the number cell between holds a
    /// number like the block's (only where a ruling is seen: a footer's text below the last row
    /// reads like digits) or one the binaries lost ([`Self::number_lost_to_the_binary`]).
    fn extend_down(&self, found: &mut RowsFound) {
        for _ in 0..60 {
            let (_, bottom) = found.rows[found.rows.len() - 1];
            let Some((below, cover)) = self.ruling_seen_below(&bottom) else {
                break;
            };
            let candidate = (bottom, below);
            let bx = self.numbers.cell(&candidate.0, &candidate.1);
            // (a ruling seen only in the grey runs across the block)
            let ruled_across = cover.is_none_or(|cover| cover >= CLEAR_COVER_BELOW);
            let number = self.number_like(&candidate, found.glyphs[found.glyphs.len() - 1], ruled_across);
            log::debug!(
                "  extend down {bx:?} cover {cover:.2?} g {:?} ruled {} h {:?} hmed {}",
                number.map(|g| g.0),
                self.number_column_ruled(bx),
                glyph_height(self.glyph_bin, bx),
                self.digit_height
            );
            let within_the_page = bx[3] <= self.glyph_bin.h as f64 + 0.3 * self.pitch;
            match number {
                Some((g, _)) if within_the_page && !self.is_heading(&candidate, g, 0, false) => {
                    found.rows.push(candidate);
                    found.glyphs.push(g);
                }
                None if within_the_page && self.number_lost_to_the_binary(&candidate, bx) => {
                    found.numbers_seen_to.get_or_insert(bottom.mid());
                    found.rows.push(candidate);
                    found.glyphs.push(0);
                }
                _ => break,
            }
        }
    }

    /// The block of the rows found, with its box.
    fn into_block(self, found: RowsFound) -> FoundBlock {
        let rows = found.rows;
        let (y0, y1) = (rows[0].0.mid(), rows[rows.len() - 1].1.mid());
        let bx = [self.leftmost.left.at(y0), y0, self.black.right.at(y1), y1];
        let odd_top = !found.cut_top && rows.len() > 3 && self.odd_height(&rows[0], 0.07);
        let titled_top = (odd_top && self.titles_centred(&rows[0])).then(|| rows[0].0.mid());
        FoundBlock {
            columns: self.columns,
            rows,
            glyphs: found.glyphs,
            bounds: bx,
            heading_top: found.heading_top,
            odd_top,
            titled_top,
            numbers_seen_from: found.numbers_seen_from,
            numbers_seen_to: found.numbers_seen_to,
            ruled_rows: Vec::new(),
            move_parts: [None; 2],
        }
    }
}

/// Drops a block's end rows (up to two at each end) of odd height or without a printed number
/// that lie beyond the rows of the blocks beside it: side-by-side blocks share their rows.
fn drop_end_rows_beyond_beside(blks: &mut [FoundBlock], pitch: f64) {
    // side-by-side blocks share their rows: an end row of odd height (a strip between the last
    // ruling and the page edge or a footer line) beyond the rows of the blocks beside it is no
    // move row
    let spans: Vec<(f64, f64)> = blks.iter().map(|k| (k.rows[0].0.mid(), k.rows[k.rows.len() - 1].1.mid())).collect();
    let whites: Vec<usize> = blks.iter().map(|k| k.columns.white).collect();
    for (i, k) in blks.iter_mut().enumerate() {
        let mut hs: Vec<f64> = k.rows.iter().map(|r| r.1.mid() - r.0.mid()).collect();
        hs.sort_unstable_by(f64::total_cmp);
        let rh = hs[hs.len() / 2];
        let beside = |y0: f64, y1: f64| {
            spans.iter().enumerate().filter(move |&(j, &o)| j != i && side_by_side(o, (y0, y1), pitch))
        };
        let (y0, y1) = spans[i];
        // (beyond the rows of a block beside, unless another piece of that block's columns
        // reaches the row: a column's rows found in two pieces)
        let beyond_beside = |beyond: &dyn Fn((f64, f64)) -> bool| {
            beside(y0, y1).any(|(j, &span)| {
                beyond(span) && !beside(y0, y1).any(|(other, &piece)| whites[other] == whites[j] && !beyond(piece))
            })
        };
        // (also a row without a printed number there: a filled heading cell)
        for _ in 0..2 {
            let l = k.rows.len();
            if l <= 3 {
                break;
            }
            let last = k.rows[l - 1];
            let c = 0.5 * (last.0.mid() + last.1.mid());
            let odd = ((last.1.mid() - last.0.mid()) - rh).abs() > 0.2 * rh || k.glyphs[l - 1] == 0;
            if odd && beyond_beside(&|(_, b)| b < c) {
                k.rows.pop();
                k.glyphs.pop();
                k.bounds[3] = k.rows[l - 2].1.mid();
            } else {
                break;
            }
        }
        for _ in 0..2 {
            if k.rows.len() <= 3 {
                break;
            }
            let first = k.rows[0];
            let c = 0.5 * (first.0.mid() + first.1.mid());
            let odd = ((first.1.mid() - first.0.mid()) - rh).abs() > 0.2 * rh || k.glyphs[0] == 0;
            if odd && beyond_beside(&|(a, _)| a > c) {
                k.rows.remove(0);
                k.glyphs.remove(0);
                k.bounds[1] = k.rows[0].0.mid();
            } else {
                break;
            }
        }
    }
}

/// The least share of a column ruling's length that ink covers where it is printed: a side of
/// a column found where no ruling is printed (at the rows' ends, [`add_virtual_borders`]) is
/// covered only where the rows' rulings and the writers' strokes cross it.
const PRINTED_RULING_COVER: f64 = 0.6;

/// A move column at least this many times as wide as the block's other move column has run on
/// into the column beyond it ([`narrow_move_columns_run_on`]).
const RUN_ON_WIDTH: f64 = 1.3;

/// How alike two columns' widths are for [`narrow_move_columns_run_on`]: the narrower at least
/// this share of the wider.
const ALIKE_WIDTHS: f64 = 0.9;

/// Cuts a move column that has run on into the column beyond it back to the width another block
/// prints it: a block's outer move column at least [`RUN_ON_WIDTH`] times as wide as its other
/// move column. A faint ruling lost between Black's moves and the clock column after them (or
/// between White's and a clock column before them), or one broken by writing against it, joins
/// the two into one column, and the block's cells then hold the written times beside the moves;
/// the forms' blocks repeat, so a block beside tells the column's width. Where another block
/// prints a clock column on that side whose width and its move column's together make the
/// run-on column's (within [`RUN_ON_MATCH`]), the clock column's width is cut off; else, where
/// another block's two move columns are alike and the narrower one is as wide as theirs, the
/// column is cut to that block's width.
fn narrow_move_columns_run_on(cols: &mut [Column], blocks: &[FoundBlock], pitch: f64) {
    let alike = |a: f64, b: f64| a.min(b) >= ALIKE_WIDTHS * a.max(b);
    let widths =
        |cols: &[Column], block: &FoundBlock| (cols[block.columns.white].width(), cols[block.columns.black].width());
    // (a clock column beside a block's move column on its outer side: it shares the move column's
    // ruling, is not the block's number column, is narrower than the moves and a pitch wide at
    // least, as a written time is: the gap between two blocks, ruled as a narrow column, is less)
    let clock_beside = |cols: &[Column], block: &FoundBlock, side: Side| {
        let (white, black) = (block.columns.white, block.columns.black);
        let (moves, clock) = match side {
            Side::White => (white, white.checked_sub(1)?),
            Side::Black => (black, Some(black + 1).filter(|&c| c < cols.len())?),
        };
        let c = &cols[clock];
        let narrow = c.width() < NARROWER_THAN_MOVES * cols[white].width().min(cols[black].width())
            && c.width() >= MIN_CLOCK_COLUMN * pitch;
        (cols[moves].shares_a_ruling_with(c) && narrow && clock != block.columns.number).then(|| c.width())
    };
    let clock_cut = |cols: &[Column], index: usize, side: Side, run_on: f64| {
        blocks.iter().enumerate().find_map(|(other, o)| {
            let (o_white, o_black) = widths(cols, o);
            let o_moves = if side == Side::White { o_white } else { o_black };
            let clock = clock_beside(cols, o, side)?;
            let not_run_on = o_white.max(o_black) < RUN_ON_WIDTH * o_white.min(o_black);
            (other != index && not_run_on && (run_on - (o_moves + clock)).abs() <= RUN_ON_MATCH * run_on)
                .then_some(clock)
        })
    };
    for (index, block) in blocks.iter().enumerate() {
        let (white, black) = widths(cols, block);
        let (side, run_on) = if black >= RUN_ON_WIDTH * white {
            (Side::Black, black)
        } else if white >= RUN_ON_WIDTH * black {
            (Side::White, white)
        } else {
            continue;
        };
        // (the width another block prints this side's move column at, where its two are alike)
        let printed_alike = blocks.iter().enumerate().find_map(|(other, o)| {
            let (o_white, o_black) = widths(cols, o);
            (other != index && alike(o_white, o_black) && alike(white.min(black), o_white.min(o_black)))
                .then_some(if side == Side::White { o_white } else { o_black })
        });
        let Some(cut) = clock_cut(cols, index, side, run_on).or(printed_alike.map(|printed| run_on - printed)) else {
            continue;
        };
        if side == Side::Black {
            let column = &mut cols[block.columns.black];
            column.right.intercept -= cut;
            log::debug!("  Black's column cut back to x {:.0}: it ran on past the moves", column.right.intercept);
        } else {
            let column = &mut cols[block.columns.white];
            column.left.intercept += cut;
            log::debug!("  White's column cut back to x {:.0}: it ran on past the moves", column.left.intercept);
        }
    }
}

/// The narrowest clock column [`narrow_move_columns_run_on`] cuts by, in row pitches (the
/// forms' are 1.4 pitches wide and wider).
const MIN_CLOCK_COLUMN: f64 = 1.0;

/// How closely a run-on move column's width matches another block's move column and the clock
/// column beside it together, as a share of its width ([`narrow_move_columns_run_on`]).
const RUN_ON_MATCH: f64 = 0.1;

/// Widens a block's outer move column (White's on the left, Black's on the right) whose outer
/// side is no printed ruling and which is narrower than the other move column, printed between
/// two rulings, to that column's width: forms print White's and Black's columns alike, and a table
/// with no ruling down its outer side has its side taken where most rows' rulings end, which
/// handwriting across those rulings moves inwards (`lb_transposed`: the rulings' binary,
/// transposed; `page_width` bounds the widened column).
fn widen_move_columns_cut_short(lb_transposed: &Bin, cols: &mut [Column], blocks: &[FoundBlock], page_width: f64) {
    let printed = |ruling: &Line| lines::profile(lb_transposed, ruling).2 >= PRINTED_RULING_COVER;
    for block in blocks {
        let (white, black) = (block.columns.white, block.columns.black);
        let black_width = cols[black].width();
        // (a number printed at the inner end of White's cell, with no ruling between them, is
        // parted from it as the number column: White's cell is both)
        let number_in_whites_cell = block.columns.number == white + 1 && !printed(&cols[white].right);
        let white_width = if number_in_whites_cell {
            cols[white].width() + cols[block.columns.number].width()
        } else {
            cols[white].width()
        };
        // (White's side is the table's only where no number column stands left of it)
        if block.columns.left() == white
            && white_width < 0.9 * black_width
            && !printed(&cols[white].left)
            && printed(&cols[black].left)
            && printed(&cols[black].right)
        {
            let column = &mut cols[white];
            // (within the page: a tilted side's leftmost end at x 0 at most)
            let lean = column.left.at(column.left.start).min(column.left.at(column.left.end)) - column.left.intercept;
            column.left.intercept = (column.left.intercept - (black_width - white_width)).max(-lean);
            log::debug!("  White's column widened to x {:.0}: no ruling down its outer side", column.left.intercept);
        }
        if black_width < 0.9 * white_width
            && !printed(&cols[black].right)
            && printed(&cols[white].left)
            && printed(&cols[white].right)
        {
            let column = &mut cols[black];
            let lean =
                column.right.at(column.right.start).max(column.right.at(column.right.end)) - column.right.intercept;
            column.right.intercept =
                (column.right.intercept + (white_width - black_width)).min(page_width - 1.0 - lean);
            log::debug!("  Black's column widened to x {:.0}: no ruling down its outer side", column.right.intercept);
        }
    }
}

/// Marks the rows of each block that its column rulings leave ([`GBlock::ruled_rows`]): where the
/// ruling right of White's column runs down nearly all of the block's rows, a row it does not
/// cross (a result line, a signature line, ruled across the table only) is marked
/// (`lb_transposed`: the rulings' binary, transposed). The numbering decides with the row's
/// printed number whether it is a move row.
fn mark_rows_the_columns_leave(lb_transposed: &Bin, cols: &[Column], blks: &mut [FoundBlock]) {
    for k in blks.iter_mut() {
        let ruling = cols[k.columns.white].right;
        // (the ruling looked for near its fitted line, which a bent page leaves at the block's ends;
        // letters of a result line crossing the line cover part of the row only)
        let cover = |row: &Row| {
            let (top, bottom) = (row.0.at(ruling.at(row.0.mid())), row.1.at(ruling.at(row.1.mid())));
            let inset = 0.15 * (bottom - top);
            let reach = (0.25 * (bottom - top)).ceil() as i64;
            (-reach..=reach)
                .map(|dx| {
                    let shifted = ruling.shifted(dx as f64);
                    super::lines::cover_band(lb_transposed, &shifted, top + inset, bottom - inset, 1)
                })
                .fold(0.0, f64::max)
        };
        let covers: Vec<f64> = k.rows.iter().map(cover).collect();
        if log::log_enabled!(log::Level::Debug) {
            let v: Vec<String> = covers.iter().map(|c| format!("{c:.2}")).collect();
            log::debug!("  column ruling x {:.0} down the rows: {}", ruling.mid(), v.join(" "));
        }
        let mut sorted = covers.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        // (a ruling printed solid covers nearly every row whole, and a row it covers under 0.9
        // is left; one printed faint or broken, or binarized in pieces beside shaded rows, covers
        // less of every row, and a row it covers under half as much as a quarter of the rows is
        // left)
        let quarter = if sorted.len() >= 4 { sorted[sorted.len() / 4] } else { 0.0 };
        let least = if quarter >= 0.97 { 0.9 } else { 0.5 * quarter };
        let ruled = quarter >= 0.5;
        k.ruled_rows = covers.iter().map(|&c| !ruled || c >= least).collect();
    }
}

/// A column's rows broken into runs (rulings lost over a few rows) give one block a run, and each
/// grows back over the others' rows: of blocks in the same columns whose rows mostly overlap, the
/// one with the most rows stays.
fn drop_repeated_blocks(blks: &mut Vec<FoundBlock>, pitch: f64) {
    let span = |k: &FoundBlock| (k.rows[0].0.mid(), k.rows[k.rows.len() - 1].1.mid());
    let same_columns = |a: &FoundBlock, b: &FoundBlock| {
        a.columns.number == b.columns.number && a.columns.white == b.columns.white && a.columns.black == b.columns.black
    };
    let mut order: Vec<usize> = (0..blks.len()).collect();
    crate::sort::by_key_descending(&mut order, |&i| blks[i].rows.len());
    let mut kept: Vec<usize> = Vec::new();
    for i in order {
        let (top, bottom) = span(&blks[i]);
        let repeats = kept.iter().any(|&k| {
            let (kt, kb) = span(&blks[k]);
            same_columns(&blks[i], &blks[k]) && bottom.min(kb) - top.max(kt) > 0.5 * (bottom - top).max(pitch)
        });
        if !repeats {
            kept.push(i);
        }
    }
    kept.sort_unstable();
    let mut index = 0;
    blks.retain(|_| {
        let keep = kept.contains(&index);
        index += 1;
        keep
    });
}

/// Headings run across side-by-side blocks: a block whose odd first row lies where another
/// block's heading was dropped loses it too.
fn drop_shared_headings(blks: &mut [FoundBlock], pitch: f64) {
    // headings run across side-by-side blocks: a block whose odd first row lies where another
    // block's heading was dropped loses it too
    let cuts: Vec<f64> = blks.iter().filter_map(|k| k.heading_top).collect();
    for k in blks.iter_mut() {
        if k.odd_top && cuts.iter().any(|&y| (y - k.rows[0].0.mid()).abs() < 0.5 * pitch) {
            k.rows.remove(0);
            k.glyphs.remove(0);
            k.bounds[1] = k.rows[0].0.mid();
        }
    }
}

/// Side-by-side blocks share their rows: a block whose own row rulings were lost at its ends takes
/// the rows of the longest block beside it where its outer column rulings run (`lb_transposed`:
/// the rulings' binary, transposed).
fn share_rows_side_by_side(cols: &[Column], lb_transposed: &Bin, blks: &mut [FoundBlock], pitch: f64) {
    // side-by-side blocks share their rows: a block whose own row rulings were lost at its ends
    // (broken print, crowded handwriting) takes the rows of the longest block beside it, where its
    // outer column rulings run
    type Rows = Vec<Row>;
    let snapshot: Vec<(f64, f64, Rows)> =
        blks.iter().map(|k| (k.rows[0].0.mid(), k.rows[k.rows.len() - 1].1.mid(), k.rows.clone())).collect();
    for (i, k) in blks.iter_mut().enumerate() {
        let (y0, y1) = (snapshot[i].0, snapshot[i].1);
        let Some((_, _, orows)) = snapshot
            .iter()
            .enumerate()
            .filter(|&(j, o)| j != i && side_by_side((o.0, o.1), (y0, y1), pitch))
            .map(|(_, o)| o)
            .max_by_key(|o| o.2.len())
        else {
            continue;
        };
        let (xa, xb) = (cols[k.columns.left()].left, cols[k.columns.black].right);
        // (a column ruling found short, its end faint or bent away from the fitted line, still
        // runs where ink lies along its line)
        let ruled = |y: f64| {
            [xa, xb].iter().all(|v| {
                (v.start <= y + 0.2 * pitch && v.end >= y - 0.2 * pitch)
                    || super::lines::cover_band(lb_transposed, v, y - 0.5 * pitch, y + 0.5 * pitch, 2) >= 0.7
            })
        };
        let mid = |r: &Row| 0.5 * (r.0.mid() + r.1.mid());
        let above: Vec<Row> =
            orows.iter().filter(|r| r.1.mid() <= y0 + 0.3 * pitch && ruled(r.0.mid())).copied().collect();
        for r in above.iter().rev() {
            if (r.1.mid() - k.rows[0].0.mid()).abs() > 0.3 * pitch || !ruled(mid(r)) {
                break;
            }
            k.rows.insert(0, *r);
            k.glyphs.insert(0, 0);
            k.bounds[1] = r.0.mid();
        }
        let below: Vec<Row> =
            orows.iter().filter(|r| r.0.mid() >= y1 - 0.3 * pitch && ruled(r.1.mid())).copied().collect();
        for r in &below {
            if (r.0.mid() - k.rows[k.rows.len() - 1].1.mid()).abs() > 0.3 * pitch || !ruled(mid(r)) {
                break;
            }
            k.rows.push(*r);
            k.glyphs.push(0);
            k.bounds[3] = r.1.mid();
        }
    }
}

/// Drops the first row of a block that starts a row above the block beside it, with no printed
/// number in that row where its next two rows have one: that row is a heading (the writer's ink
/// reaching into it).
fn drop_unnumbered_first_rows(b: &Bin, cols: &[Column], blks: &mut [FoundBlock], pitch: f64) {
    // a block that starts a row above the block beside it, with no printed number in that row
    // where its next rows have one: that row is a heading (the writer's ink reaching into it)
    let tops: Vec<(f64, f64)> = blks.iter().map(|k| (k.rows[0].0.mid(), k.rows[k.rows.len() - 1].1.mid())).collect();
    for (i, k) in blks.iter_mut().enumerate() {
        if k.rows.len() <= 5 {
            continue;
        }
        let nc = &cols[k.columns.number];
        let width = |r: &Row| number_width(b, nc.cell(&r.0, &r.1));
        let beside_starts_lower = tops.iter().enumerate().any(|(j, &(t, e))| {
            j != i && side_by_side((t, e), tops[i], pitch) && (t - k.rows[1].0.mid()).abs() < 0.3 * pitch
        });
        if beside_starts_lower
            && width(&k.rows[0]).is_none()
            && width(&k.rows[1]).is_some()
            && width(&k.rows[2]).is_some()
        {
            log::debug!("  unnumbered first row above the block beside: dropped");
            k.rows.remove(0);
            k.glyphs.remove(0);
            k.bounds[1] = k.rows[0].0.mid();
        }
    }
}

/// The provisional first move number of each block (in reading order): each block continues the
/// previous one (the first starts at 1) unless the count and width of the glyphs in its number
/// cells fit another start ([`choose_starts`] over every block's start).
fn provisional_starts(b: &Bin, cols: &[Column], order: &[FoundBlock]) -> Vec<u32> {
    // move numbers: each block continues the previous one (the first starts at 1) unless the
    // count of printed digits per row clearly says otherwise (continuation pages, e.g. 61-120)
    // (counts can be off by one in every row, e.g. a margin mark or a ruling inside the number
    // cell: the pattern of the counts matters, so one extra glyph in every row is allowed)
    // (only where the extra glyph is read across the block: in each run of at least 3 rows of one
    // digit count (1-9, 10-99, ...), more rows read one glyph more than the number's digits than
    // read its digits; else blurred two-digit numbers read as one or two glyphs fit a start at 1
    // as well as 41, the first nine rows' two glyphs taken for a digit and a mark)
    let gscore = |gl: &[usize], s: u32| -> i64 {
        // per digit count: rows, rows read with the digits, rows read with one glyph more
        let mut by_digits = [[0i64; 3]; 4];
        for (i, &g) in gl.iter().enumerate() {
            let d = digits(s + i as u32);
            let c = &mut by_digits[d.min(3)];
            c[0] += 1;
            c[1] += (g == d) as i64;
            c[2] += (g == d + 1) as i64;
        }
        let (fit, extra) = by_digits.iter().fold((0, 0), |(f, e), c| (f + c[1], e + c[2]));
        let everywhere = by_digits.iter().all(|c| c[0] < 3 || c[2] > c[1]);
        if everywhere { fit.max(extra) } else { fit }
    };
    // each block's value of every start (1..=MAX_START), in hundredths of a fitting row: the fit,
    // less a row for a start within a first page's rows, plus a row for a start after whole pages,
    // and a tie-breaker for a start of a decade; and the bonus of continuing the block before
    const MAX_START: usize = 400;
    let mut values: Vec<Vec<i64>> = Vec::new();
    let mut bonus: Vec<i64> = Vec::new();
    for bk in order {
        let nc = &cols[bk.columns.number];
        let ws: Vec<Option<f64>> = bk.rows.iter().map(|(t, bo)| number_width(b, nc.cell(t, bo))).collect();
        if log::log_enabled!(log::Level::Debug) {
            let v: Vec<String> = ws.iter().map(|w| w.map_or("-".into(), |w| format!("{w:.0}"))).collect();
            log::debug!("  widths {} glyphs {:?}", v.join(" "), bk.glyphs);
        }
        // (the widths of the printed numbers, where most rows have one, are steadier than glyph
        // counts: blurred digits touch or break, but a two-digit number stays twice as wide as a
        // one-digit one)
        let by_width = ws.iter().flatten().count() * 2 >= ws.len();
        // (both measures together, each a count of fitting rows)
        // (the widths' fit depends on the start only through how many rows have one, two and
        // three digits: found once for each such split)
        let rows = bk.rows.len() as u32;
        let mut width_fit_of_split: HashMap<[u32; 3], i64> = HashMap::new();
        let mut width_fit = |s: u32| {
            let split = [10, 100, 1000].map(|below: u32| below.saturating_sub(s).min(rows));
            *width_fit_of_split.entry(split).or_insert_with(|| wscore(&ws, s))
        };
        let mut score =
            |gl: &[usize], s: u32| -> i64 { if by_width { width_fit(s) + gscore(gl, s) } else { 2 * gscore(gl, s) } };
        // a start within this block's first page's rows (2..=rows: neither a first page nor one
        // continuing whole pages) counts one row less (a first number that lost a digit fits 9-48
        // one row better than 41-80); among equally good starts prefer one that follows whole
        // pages of this block's rows (41 after 40 rows), then one that starts a decade (11, 21,
        // ...)
        // (and a start after whole pages wins over one that fits by one measure in one row more:
        // the last row's number read with a stray mark as three digits fits 61-100 better than
        // 41-80 by the glyph count, not by the width)
        let n = bk.rows.len() as u32;
        values.push(
            (1..=MAX_START as u32)
                .map(|s| {
                    let inside = (s > 1 && s <= n) as i64;
                    let page = (s - 1).is_multiple_of(n) as i64;
                    100 * (score(&bk.glyphs, s) - 2 * inside + page) + 10 * page + (s % 10 == 1) as i64
                })
                .collect(),
        );
        // (glyph counts are noisy: touching digits read as one, stray ink as one more; the
        // widths less so)
        let margin = if by_width { (n as i64 / 8).max(2) + 2 } else { 2 * (n as i64 / 8).max(2) };
        bonus.push(100 * margin + 99);
    }
    // the starts of all blocks together (move numbers are not repeated on a page: a later block
    // starts after the earlier ones), so that a later block's numbers also tell where an earlier
    // one starts: a block whose digits are hidden under the writer's ink is numbered by the block
    // after it
    let starts = choose_starts(&values, &bonus, &order.iter().map(|bk| bk.rows.len()).collect::<Vec<_>>());
    if log::log_enabled!(log::Level::Debug) {
        for (bk, s) in order.iter().zip(&starts) {
            log::debug!("  block at x {:.0} y {:.0}: start {s}", bk.bounds[0], bk.bounds[1]);
        }
    }
    starts
}

/// The blocks in reading order: bands of vertically overlapping blocks top to bottom, left to
/// right within a band.
fn reading_order(mut blks: Vec<FoundBlock>, pitch: f64) -> Vec<FoundBlock> {
    crate::sort::by_key(&mut blks, |p| p.bounds[1]);
    let mut bands: Vec<Vec<FoundBlock>> = Vec::new();
    for bk in blks {
        if let Some(band) = bands.iter_mut().find(|band| {
            band.iter().any(|o| side_by_side((o.bounds[1], o.bounds[3]), (bk.bounds[1], bk.bounds[3]), pitch))
        }) {
            band.push(bk);
        } else {
            bands.push(vec![bk]);
        }
    }
    let mut order: Vec<FoundBlock> = Vec::new();
    for mut band in bands {
        crate::sort::by_key(&mut band, |p| p.bounds[0]);
        order.extend(band);
    }
    order
}

/// Finds, in each block's White and Black columns, a clock column printed beside the moves with
/// no ruling between them, from the heading above the block: the heading's words in the column
/// (up to the heading row's top, or 1.5 pitches above the first row) make two groups side by side
/// ([`heading_word_groups`]; where that is one group, with a box beside it shaded too light for
/// the binary that `grey` shows, [`light_shaded_boxes`]), and a boundary leaves each group
/// centred in its part, as printed headings are (within 15 % of the column's width). The wider
/// part, at least 2.5 pitches, is the moves'; the narrower, 0.8 pitch to three quarters of it,
/// the clock's. One word, more than two
/// groups, or words centred across the column, part nothing; nor does a block whose first row
/// holds one printed word centred across the column (a heading row taken for a move row).
/// Where the heading above names no clock, a heading row ruled as the block's first row may: its
/// words, printed under half a pitch high, part both White's and Black's columns, or neither.
/// A column whose heading shows two groups but names no clock, or one word where an alike
/// block's clock word stands, is parted as that block's ([`part_alike_blocks_alike`]).
/// `lb` and `lb_transposed`: the rulings' binary, and transposed (whether the heading row's top
/// and the column's sides are printed).
fn find_unruled_clock_columns(
    b: &Bin,
    lb: &Bin,
    lb_transposed: &Bin,
    grey: &GrayImage,
    cols: &[Column],
    blocks: &mut [FoundBlock],
    pitch: f64,
) {
    // (per block, what each move column's heading shows)
    let mut headings_shown: Vec<[HeadingShown; 2]> = vec![Default::default(); blocks.len()];
    for (index, block) in blocks.iter_mut().enumerate() {
        let Some(&(first_row_top, first_row_bottom)) = block.rows.first() else { continue };
        let Some(&(_, last_row_bottom)) = block.rows.last() else { continue };
        // (each move column's part as named by the heading above the first row, and as named by
        // the first row's own words; each column's left side at the first row, where the parts
        // are measured from)
        let mut named_above: [Option<MovePart>; 2] = [None; 2];
        let mut named_in_first_row: [Option<MovePart>; 2] = [None; 2];
        // (whether the first row holds one printed word centred across the column: a heading row)
        let mut first_row_names_the_column = [false; 2];
        let mut lefts = [0.0; 2];
        for (side, ci) in [block.columns.white, block.columns.black].into_iter().enumerate() {
            let c = &cols[ci];
            let top = first_row_top.at(0.5 * (c.left.mid() + c.right.mid()));
            let (left, right) = (c.left.at(top), c.right.at(top));
            lefts[side] = left;
            if right - left < 3.5 * pitch {
                continue;
            }
            // (a heading row taken for the first row, its "No" read as the glyphs of a number:
            // one printed word centred across the column in it names the whole column, and the
            // words above it are another field's; a printed word is at least 1.5 pitches wide
            // and at most half a pitch high, where a move written in the first row is taller)
            let bottom = first_row_bottom.at(0.5 * (left + right));
            let mut first_row_words = heading_word_groups(b, [left, top, right, bottom], pitch);
            // (a shorter word, a pitch wide at least, printed small, still names its column where
            // the other column's heading row names a clock beside its moves)
            if let [word] = first_row_words.as_slice() {
                let off_centre = (0.5 * (word[0] + word[2]) - 0.5 * (left + right)).abs();
                let centred_and_low =
                    off_centre <= CENTRED_HEADING * (right - left) && word[3] - word[1] <= 0.5 * pitch;
                let width = word[2] - word[0];
                first_row_names_the_column[side] = centred_and_low && width >= pitch;
                if centred_and_low && width >= 1.5 * pitch {
                    continue;
                }
            }
            // (below the heading's top ruling, which a clock drawn against it would join; a
            // heading row dropped from the rows whose top no ruling shows, placed by the pitch,
            // can cut through the heading's words)
            let heading_top = block
                .heading_top
                .filter(|&y| y < top - 0.5 * pitch)
                .filter(|&y| heading_top_ruled(lb, &first_row_top, y, left, right, pitch))
                .map_or(top - 1.5 * pitch, |y| y + 0.1 * pitch)
                .max(top - 3.0 * pitch);
            let heading = [left, heading_top, right, top];
            let words = heading_word_groups(b, heading, pitch);
            // (a heading row with no ruling over it, taken for the first row, stands where the
            // pitch puts a row only roughly: its words can cross the row's top, and neither box
            // then holds them whole, the row only the few glyphs that stay under its top; the row
            // reaching half a pitch higher holds them, more groups and longer ones, where a band
            // shaded above the row joins the row's words into one)
            if words.is_empty() {
                let reached = heading_word_groups(b, [left, top - UNRULED_HEADING_REACH * pitch, right, bottom], pitch);
                let run = |groups: &[WordGroup]| groups.iter().map(|g| g[2] - g[0]).sum::<f64>();
                if reached.len() > first_row_words.len() && run(&reached) > run(&first_row_words) {
                    first_row_words = reached;
                }
            }
            // (two groups reaching both sides of a heading the grey shows shaded across the whole
            // column are the pieces of its band the binary broke, whatever their height: no words;
            // unless the grey shows each group printed dark in the band: "Schwarz" and a clock
            // against its sides are words)
            let words_printed_dark = groups_printed_dark(grey, &words, pitch);
            if let [first, second] = words.as_slice()
                && first[0] - left <= BAND_EDGE_REACH * pitch
                && right - second[2] <= BAND_EDGE_REACH * pitch
                && !words_printed_dark
                && band_shaded_across(grey, heading, &words, pitch)
            {
                log::debug!("  heading x {left:.0}..{right:.0} shaded across: its two groups are its band");
                continue;
            }
            // (a heading row taken for the first row is often taller than the rows below it, its
            // words printed larger with it: its printed words are measured against its own
            // height, where a move row's is the pitch)
            let first_row_height = (bottom - top).max(pitch);
            // (the words that name the parts: a narrow group against one of the column's sides,
            // as high as a band, in a heading the grey page shows shaded across the column, is
            // the band's edge the binary kept, no word)
            let band_edge = |g: &WordGroup| {
                let at_a_side = g[0] - left <= BAND_EDGE_REACH * pitch || right - g[2] <= BAND_EDGE_REACH * pitch;
                at_a_side && g[3] - g[1] >= BAND_PIECE_HEIGHT * pitch && g[2] - g[0] < pitch
            };
            let naming_words: Vec<WordGroup> =
                if words.iter().any(band_edge) && band_shaded_across(grey, heading, &words, pitch) {
                    log::debug!("  heading x {left:.0}..{right:.0}: a shaded band's edge left out of its words");
                    words.iter().filter(|g| !band_edge(g)).copied().collect()
                } else {
                    words.clone()
                };
            headings_shown[index][side] = HeadingShown {
                two_groups: shows_two_word_groups(&naming_words, &first_row_words, pitch, first_row_height),
                word_centres: specks_left_out(&naming_words, pitch)
                    .iter()
                    .map(|g| 0.5 * (g[0] + g[2]) - left)
                    .collect(),
            };
            if let [first, second] = words.as_slice()
                && letters_between(b, heading, first, second, pitch)
            {
                continue;
            }
            let (first_y, last_y) = (top, last_row_bottom.at(0.5 * (left + right)));
            let printed = |side: &Line| super::lines::cover(lb_transposed, side, first_y, last_y) >= 0.5;
            let sides = PrintedSides { left: printed(&c.left), right: printed(&c.right) };
            let shaded = |words: &[WordGroup], i: usize| words.get(i).is_some_and(|g| shaded_box_group(b, g, pitch));
            let part_named_by = |words: &[WordGroup]| {
                let words = specks_left_out(words, pitch);
                move_part_beside_a_clock(&words, [shaded(&words, 0), shaded(&words, 1)], left, right, sides, pitch)
            };
            // (groups spanning the column, the first from its left side, in a heading the grey
            // shows shaded across it: pieces of a light band the binary broke, the band's word
            // among them; only the words printed dark in the band are words)
            let band_across = |words: &[WordGroup]| {
                span_of_groups(words).filter(|band| band[2] - band[0] >= BAND_ACROSS_THE_COLUMN * (right - left))
            };
            let broken_band = band_across(&words).filter(|_| {
                words.len() >= 2
                    && !words_printed_dark
                    && words[0][0] - left <= BAND_EDGE_REACH * pitch
                    && band_shaded_across(grey, heading, &words, pitch)
            });
            if let Some(band) = broken_band {
                let dark_words = specks_left_out(&words_printed_dark_in(grey, band, pitch), pitch);
                log::debug!("  heading x {left:.0}..{right:.0}: a light band broken in pieces, words {dark_words:?}");
                named_above[side] = move_part_beside_a_clock(&dark_words, [false, false], left, right, sides, pitch);
                continue;
            }
            // (a box shaded so light behind the column word, printed white in it, that the
            // glyphs' binary loses it: the clock's word beside it stands alone there, clear of
            // the box the grey shows)
            named_above[side] = part_named_by(&naming_words)
                .or_else(|| {
                    let [word] = naming_words.as_slice() else { return None };
                    let [shade] = light_shaded_boxes(grey, heading, pitch)[..] else { return None };
                    if overlaps_across(word, &shade) {
                        return None;
                    }
                    let (pair, shaded) = if shade[0] < word[0] {
                        ([shade, *word], [true, false])
                    } else {
                        ([*word, shade], [false, true])
                    };
                    log::debug!("  heading word beside a light shaded box: {pair:?}");
                    move_part_beside_a_clock(&pair, shaded, left, right, sides, pitch)
                })
                .or_else(|| {
                    // (a band shaded across the column, its words printed dark in it: the binary
                    // keeps the band whole and its words in it, and the grey tells them apart)
                    let [band] = naming_words.as_slice() else { return None };
                    if band[2] - band[0] < BAND_ACROSS_THE_COLUMN * (right - left) {
                        return None;
                    }
                    let dark_words = specks_left_out(&words_printed_dark_in(grey, *band, pitch), pitch);
                    log::debug!("  words printed dark in a shaded band: {dark_words:?}");
                    move_part_beside_a_clock(&dark_words, [false, false], left, right, sides, pitch)
                });
            // (a heading row ruled like the rows below it is the block's first row until the
            // printed numbers leave it out: where the heading above names no clock, the first
            // row's own words may, a printed word standing at most PRINTED_WORD_HEIGHT of the
            // row's height where a move written in the row stands taller)
            if named_above[side].is_none() && printed_word_among(&first_row_words, first_row_height) {
                named_in_first_row[side] = part_named_by(&first_row_words);
            }
        }
        // (a first row naming a clock beside the moves in one column only is a move row whose
        // writer's ink came apart: a heading row names one beside White's and Black's moves, or
        // beside one side's, the other's heading one word centred across its column, its clock
        // column ruled apart)
        let first_row_is_a_heading_row =
            (0..2).all(|side| named_in_first_row[side].is_some() || first_row_names_the_column[side]);
        for side in 0..2 {
            let part = named_above[side].or(named_in_first_row[side].filter(|_| first_row_is_a_heading_row));
            if let Some(part) = part {
                let left = lefts[side];
                log::debug!(
                    "  unruled clock column beside the moves from x {left:.0}: moves x {:.0}..{:.0}",
                    left + part.from,
                    left + part.to
                );
                block.move_parts[side] = Some(part);
            }
        }
    }
    part_alike_blocks_alike(cols, blocks, &headings_shown, pitch);
}

/// The least share of a column's width along a heading row's top that the rulings' binary inks
/// where a ruling is printed there: the words a heading row placed by the pitch cuts through ink
/// less, a dotted ruling more.
const HEADING_TOP_RULED: f64 = 0.6;

/// Whether a ruling is printed along a heading row's top at `y` (its middle) across the column
/// `left..right`, parallel to the first row's top `first_row_top`, in the rulings' binary `lb`.
fn heading_top_ruled(lb: &Bin, first_row_top: &Line, y: f64, left: f64, right: f64, pitch: f64) -> bool {
    let line = first_row_top.shifted(y - first_row_top.mid());
    let band = (0.1 * pitch).round().max(1.0) as usize;
    let cover = super::lines::cover_band(lb, &line, left, right, band);
    log::debug!("  heading top y {y:.0} x {left:.0}..{right:.0}: ruled across {cover:.2}");
    cover >= HEADING_TOP_RULED
}

/// Whether a move column's heading shows two word groups, specks left out: the heading above
/// the first row (its groups `above`), or the first row (`first_row`, `first_row_height` high,
/// the pitch at least) where one of its groups stands no higher than a printed word
/// ([`PRINTED_WORD_HEIGHT`]): a heading row ruled as the first row. A move written in a move
/// row often makes two groups too.
fn shows_two_word_groups(above: &[WordGroup], first_row: &[WordGroup], pitch: f64, first_row_height: f64) -> bool {
    specks_left_out(above, pitch).len() == 2
        || (printed_word_among(first_row, first_row_height) && specks_left_out(first_row, pitch).len() == 2)
}

/// Whether one of a first row's word groups stands no higher than a printed word
/// ([`PRINTED_WORD_HEIGHT`] of the row's height, the pitch at least): a move written in a row
/// stands taller.
fn printed_word_among(words: &[WordGroup], row_height: f64) -> bool {
    words.iter().any(|g| g[3] - g[1] <= PRINTED_WORD_HEIGHT * row_height)
}

/// How alike two move columns' widths are for [`part_alike_blocks_alike`]: the narrower at
/// least this share of the wider.
const ALIKE_PARTED_WIDTHS: f64 = 0.9;

/// How near, in row pitches, a heading's one word stands to where an alike block's clock word
/// stands for [`part_alike_blocks_alike`] to take it for that word.
const ALIKE_CLOCK_WORD_REACH: f64 = 0.25;

/// What a move column's heading shows, for [`part_alike_blocks_alike`].
#[derive(Clone, Debug, Default)]
struct HeadingShown {
    /// whether it shows two word groups ([`shows_two_word_groups`])
    two_groups: bool,
    /// the centres of its word groups above the first row, specks left out, from the column's
    /// left side
    word_centres: Vec<f64>,
}

/// Parts a block's move column that named no clock as another block parts its alike column (as
/// wide within [`ALIKE_PARTED_WIDTHS`], the same side), where its heading shows two word groups,
/// or one word standing where the alike column's clock word stands (within
/// [`ALIKE_CLOCK_WORD_REACH`], its width scaled): the forms' blocks repeat, and a heading's words
/// placed a little off centre in one block leave the boundary that centres them out of bounds
/// there, or a writer's stroke reaching up from the first row joins the moves' word to the row's
/// ruling, and the binary keeps the clock's word alone.
fn part_alike_blocks_alike(
    cols: &[Column],
    blocks: &mut [FoundBlock],
    headings_shown: &[[HeadingShown; 2]],
    pitch: f64,
) {
    let width = |block: &FoundBlock, side: usize| {
        cols[if side == 0 { block.columns.white } else { block.columns.black }].width()
    };
    for index in 0..blocks.len() {
        for side in 0..2 {
            let shown = &headings_shown[index][side];
            if blocks[index].move_parts[side].is_some() || (!shown.two_groups && shown.word_centres.len() != 1) {
                continue;
            }
            let own_width = width(&blocks[index], side);
            let parted = blocks.iter().zip(headings_shown).find_map(|(other, other_shown)| {
                let other_width = width(other, side);
                let alike = own_width.min(other_width) >= ALIKE_PARTED_WIDTHS * own_width.max(other_width);
                let part = other.move_parts[side].filter(|_| alike)?;
                let scale = own_width / other_width;
                // (the one word shown stands where the alike column's clock word stands)
                let clock_word_alike =
                    || {
                        let in_clock_part = |centre: f64| centre < part.from || centre > part.to;
                        other_shown[side].word_centres.iter().filter(|&&centre| in_clock_part(centre)).any(|&centre| {
                            (shown.word_centres[0] - centre * scale).abs() <= ALIKE_CLOCK_WORD_REACH * pitch
                        })
                    };
                (shown.two_groups || clock_word_alike()).then_some((part, scale))
            });
            if let Some((part, scale)) = parted {
                let part = MovePart { from: part.from * scale, to: part.to * scale };
                log::debug!(
                    "  clock column parted as the alike block's: moves {:.0}..{:.0} of its width",
                    part.from,
                    part.to
                );
                blocks[index].move_parts[side] = Some(part);
            }
        }
    }
}

/// A heading's word groups without the specks among them: a group under half a pitch both wide
/// and high is a writer's stroke reaching into the heading, or dirt, where a printed word or a
/// clock pictogram is half a pitch across at least.
fn specks_left_out(words: &[WordGroup], pitch: f64) -> Vec<WordGroup> {
    let speck = |g: &WordGroup| g[2] - g[0] < 0.5 * pitch && g[3] - g[1] < 0.5 * pitch;
    words.iter().filter(|g| !speck(g)).copied().collect()
}

/// Whether two boxes overlap across (in x).
fn overlaps_across(a: &WordGroup, b: &WordGroup) -> bool {
    a[0] < b[2] && a[2] > b[0]
}

/// The boxes shaded light grey in a heading's box `heading`, found in the grey page: runs of
/// columns whose grey near the heading's top and near its foot (a fifth of its height in from
/// each, where a word printed on the paper leaves paper) lies [`LIGHT_SHADE_MIN_LEVELS`] and
/// 1 / [`LIGHT_SHADE_DEPTH_DIVISOR`] of the paper's level under the paper (the lightest tenth
/// of the heading's columns), their median no more than [`LIGHT_SHADE_MOST_DEPTH`] of it (print
/// inside the shade is part of the run), edged by steps up to the paper ([`shade_edges_sharp`]:
/// a photo's light fading towards the paper's edge is no box), a pitch wide at least and short of
/// [`BAND_ACROSS_THE_COLUMN`] of the heading's width (a band across the whole column is its
/// background, no word's box). Each box spans the heading's height. None
/// where the heading reaches past the image.
fn light_shaded_boxes(grey: &GrayImage, heading: [f64; 4], pitch: f64) -> Vec<WordGroup> {
    let Some((x0, margins)) = heading_margins(grey, heading) else { return Vec::new() };
    let (top, bottom) = (heading[1], heading[3]);
    let paper = quantile(margins.clone(), 0.9);
    let shade_under = LIGHT_SHADE_MIN_LEVELS.max(paper / LIGHT_SHADE_DEPTH_DIVISOR);
    // (the runs of shaded columns, print inside the shade counted in: a word printed dark in a
    // band shaded across the column does not cut the band in two boxes)
    let mut boxes = Vec::new();
    let mut run_start: Option<usize> = None;
    for (i, &level) in margins.iter().chain(std::iter::once(&f64::MAX)).enumerate() {
        match (level <= paper - shade_under, run_start) {
            (true, None) => run_start = Some(i),
            (false, Some(start)) => {
                let (from, to) = ((x0 + start as i64) as f64, (x0 + i as i64) as f64);
                // (a shade more than a fifth under the paper binarizes: the binary's words show it)
                let shade = median(margins[start..i].to_vec());
                let light = shade >= paper * (1.0 - LIGHT_SHADE_MOST_DEPTH);
                let edged = shade_edges_sharp(&margins, start..i, paper - shade, pitch);
                if light
                    && edged
                    && to - from >= pitch
                    && to - from < BAND_ACROSS_THE_COLUMN * (heading[2] - heading[0])
                {
                    boxes.push([from, top, to, bottom]);
                }
                run_start = None;
            }
            _ => {}
        }
    }
    boxes
}

/// How far, in row pitches, a printed shade's edge rises from the shade to the paper at most
/// ([`shade_edges_sharp`]): print and a scan's blur leave a step a few pixels wide.
const SHADE_EDGE_WIDTH: f64 = 0.15;

/// Whether the run `run` of a heading's column levels `margins` ends in steps up to the paper on
/// each side that lies within the heading: a printed shade's edge, where most of the shade's
/// `depth` is climbed within [`SHADE_EDGE_WIDTH`] of a pitch (3 pixels at least). A photo's
/// light, falling off towards the paper's edge, dims a heading by as many levels over many
/// pitches and has no such edge.
fn shade_edges_sharp(margins: &[f64], run: std::ops::Range<usize>, depth: f64, pitch: f64) -> bool {
    let width = ((SHADE_EDGE_WIDTH * pitch).round() as usize).max(3);
    let mean = |from: usize, to: usize| margins[from..to].iter().sum::<f64>() / (to - from).max(1) as f64;
    // (the mean over `width` columns each side of the edge: out on the paper, in on the shade)
    let left_sharp = run.start < width
        || mean(run.start - width, run.start) - mean(run.start, (run.start + width).min(run.end)) >= 0.5 * depth;
    let right_sharp = run.end + width > margins.len()
        || mean(run.end, run.end + width) - mean(run.end.saturating_sub(width).max(run.start), run.end) >= 0.5 * depth;
    left_sharp && right_sharp
}

/// The words printed dark in a heading's shaded band `band`, which the binary keeps as one piece:
/// the runs of pixel columns whose grey lies well under the band's own level (half way from it to
/// the band's darkest print, where that print stands [`DARK_PRINT_IN_A_BAND`] levels under it at
/// least), in the band's middle rows (its edges left out), joined where under half a pitch apart.
/// A clock pictogram and the column's word beside it are two groups.
fn words_printed_dark_in(grey: &GrayImage, band: WordGroup, pitch: f64) -> Vec<WordGroup> {
    let (w, h) = (grey.width() as i64, grey.height() as i64);
    let margin = 0.15 * (band[3] - band[1]);
    let (x0, x1) = ((band[0].ceil() as i64).max(0), (band[2].floor() as i64).min(w));
    let (y0, y1) = (((band[1] + margin).ceil() as i64).max(0), ((band[3] - margin).floor() as i64).min(h));
    if x1 - x0 < 2 || y1 - y0 < 2 {
        return Vec::new();
    }
    let levels: Vec<f64> =
        (y0..y1).flat_map(|y| (x0..x1).map(move |x| (x, y))).map(|(x, y)| grey_clamped(grey, x, y)).collect();
    let band_level = median(levels.clone());
    let darkest = quantile(levels, 0.01);
    if band_level - darkest < DARK_PRINT_IN_A_BAND {
        return Vec::new();
    }
    let ink_under = 0.5 * (band_level + darkest);
    // (a pixel column holds print where two of its pixels are that dark: one is grain)
    let print_rows = |x: i64| -> Vec<i64> { (y0..y1).filter(|&y| grey_clamped(grey, x, y) < ink_under).collect() };
    let printed_columns: Vec<WordGroup> = (x0..x1)
        .filter_map(|x| {
            let rows = print_rows(x);
            let (&top, &foot) = (rows.first()?, rows.last()?);
            (rows.len() >= 2).then(|| [x as f64, top as f64, x as f64 + 1.0, foot as f64 + 1.0])
        })
        .collect();
    glyphs_joined(&printed_columns, 0.5 * pitch)
}

/// Whether each of a heading's word groups `groups`, two at least, holds print the grey shows
/// dark in the band they span ([`words_printed_dark_in`] over the box from the first's left to
/// the last's right, the highest top to the lowest foot): words printed dark in a light band,
/// where the pieces a binary broke a band into hold a word in one piece at most.
fn groups_printed_dark(grey: &GrayImage, groups: &[WordGroup], pitch: f64) -> bool {
    let Some(band) = span_of_groups(groups).filter(|_| groups.len() >= 2) else { return false };
    let dark = specks_left_out(&words_printed_dark_in(grey, band, pitch), pitch);
    groups.iter().all(|group| dark.iter().any(|word| overlaps_across(group, word)))
}

/// The box a heading's word groups `groups` (left to right) span: from the first's left to the
/// last's right, the highest top to the lowest foot. `None` where there are none.
fn span_of_groups(groups: &[WordGroup]) -> Option<WordGroup> {
    let (first, last) = (groups.first()?, groups.last()?);
    let top = groups.iter().map(|g| g[1]).fold(f64::MAX, f64::min);
    let foot = groups.iter().map(|g| g[3]).fold(f64::MIN, f64::max);
    Some([first[0], top, last[2], foot])
}

/// How many grey levels under a shaded band's own level its darkest print lies at least for
/// [`words_printed_dark_in`] to read words in it (less is the band's grain).
const DARK_PRINT_IN_A_BAND: f64 = 40.0;

/// The rows of the heading's box `heading` that its word groups `groups` reach, from the highest
/// group's top to the lowest group's foot: a band shaded under a heading's top, its pieces the
/// groups, is looked for in them, where the box's own top can stand on paper above the band.
fn rows_of_groups(heading: [f64; 4], groups: &[WordGroup]) -> [f64; 4] {
    let Some(span) = span_of_groups(groups) else { return heading };
    let (top, foot) = (span[1].max(heading[1]), span[3].min(heading[3]));
    if foot <= top {
        return heading;
    }
    [heading[0], top, heading[2], foot]
}

/// Whether the grey page shows the heading's box `heading` shaded across the column: near its top
/// and near its foot (a fifth of its height in from each, where a word printed on paper leaves
/// paper), [`BAND_ACROSS_THE_COLUMN`] of its columns lie [`LIGHT_SHADE_MIN_LEVELS`] and
/// 1 / [`LIGHT_SHADE_DEPTH_DIVISOR`] of the paper's level under the paper, the lightest tenth of
/// the page around the heading (3 pitches to either side and below it).
fn shaded_across_the_column(grey: &GrayImage, heading: [f64; 4], pitch: f64) -> bool {
    shaded_across_at_least(grey, heading, pitch, 0.0)
}

/// Whether the grey page shows a heading `heading`, whose word groups are `groups`, shaded across
/// the column: its box ([`shaded_across_the_column`]), or the rows its groups reach
/// ([`rows_of_groups`]) shaded lightly, their grey [`BAND_LEAST_LEVEL`] of the paper's at least:
/// a band shaded under the heading's top leaves paper in the box above it, and the binary keeps
/// the band's pieces as the groups, where words printed on paper are darker than a band.
fn band_shaded_across(grey: &GrayImage, heading: [f64; 4], groups: &[WordGroup], pitch: f64) -> bool {
    shaded_across_the_column(grey, heading, pitch)
        || shaded_across_at_least(grey, rows_of_groups(heading, groups), pitch, BAND_LEAST_LEVEL)
}

/// The least grey of a band shaded lightly, as a share of the paper's level ([`band_shaded_across`]).
const BAND_LEAST_LEVEL: f64 = 0.5;

/// [`shaded_across_the_column`], each shaded column's grey `least_share` of the paper's at least.
fn shaded_across_at_least(grey: &GrayImage, heading: [f64; 4], pitch: f64, least_share: f64) -> bool {
    let Some((_, margins)) = heading_margins(grey, heading) else { return false };
    let (w, h) = (grey.width() as i64, grey.height() as i64);
    let (top, bottom) = (heading[1], heading[3]);
    let around_x = ((heading[0] - 3.0 * pitch).max(0.0) as i64, ((heading[2] + 3.0 * pitch) as i64).min(w));
    let around_y = (top.max(0.0) as i64, ((bottom + 3.0 * pitch) as i64).min(h));
    let around: Vec<f64> = (around_y.0..around_y.1)
        .step_by(2)
        .flat_map(|y| (around_x.0..around_x.1).step_by(2).map(move |x| (x, y)))
        .map(|(x, y)| grey_clamped(grey, x, y))
        .collect();
    if around.is_empty() {
        return false;
    }
    let paper = quantile(around, 0.9);
    let shade_under = LIGHT_SHADE_MIN_LEVELS.max(paper / LIGHT_SHADE_DEPTH_DIVISOR);
    let shaded = margins.iter().filter(|&&level| level <= paper - shade_under && level >= least_share * paper).count();
    shaded as f64 >= BAND_ACROSS_THE_COLUMN * margins.len() as f64
}

/// The grey of a heading's box `heading` near its top and near its foot, column by column from its
/// first whole pixel column (returned with them): the lighter of the mean greys of two strips of
/// rows, a tenth of its height each, a fifth and seven tenths of its height down, where a word
/// printed on paper leaves paper. `None` where the box is under 4 px wide or 5 px high, or reaches
/// past the image (the scan's edge there, no print).
fn heading_margins(grey: &GrayImage, heading: [f64; 4]) -> Option<(i64, Vec<f64>)> {
    let (w, h) = (grey.width() as i64, grey.height() as i64);
    let (x0, x1) = (heading[0].ceil().max(0.0) as i64, (heading[2].floor() as i64).min(w));
    let (top, bottom) = (heading[1], heading[3]);
    let height = bottom - top;
    if x1 - x0 < 4 || height < 5.0 || top < 0.0 || bottom > h as f64 {
        return None;
    }
    // (the mean grey of a strip of rows a tenth of the heading's height, its top `at` shares down)
    let strip = |x: i64, at: f64| {
        let (from, to) = ((top + at * height).round() as i64, (top + (at + 0.1) * height).round() as i64);
        let levels: Vec<f64> = (from..to.max(from + 1)).map(|y| grey_clamped(grey, x, y)).collect();
        levels.iter().sum::<f64>() / levels.len() as f64
    };
    Some((x0, (x0..x1).map(|x| strip(x, 0.2).max(strip(x, 0.7))).collect()))
}

/// The least depth of a light shaded box under the paper ([`light_shaded_boxes`]): 10 grey levels
/// and a 25th (4 %) of the paper's level (a box shaded at a fifth of black's contrast: 10 and
/// more levels; a photo's uneven light leaves steps of a few levels across a heading).
const LIGHT_SHADE_MIN_LEVELS: f64 = 10.0;
const LIGHT_SHADE_DEPTH_DIVISOR: f64 = 25.0;

/// The most depth of a light shaded box under the paper, as a share of the paper's level (the
/// glyphs' binary takes what lies 10 % under its neighbourhood for ink).
const LIGHT_SHADE_MOST_DEPTH: f64 = 0.2;

/// Whether ink between two word groups runs from as high as their letters down to the heading
/// box's foot: one word whose middle letters a writer's strokes from the first row touch, left
/// out of the groups with the strokes ("Negras" over a move written up into the heading), not
/// two words a space apart, where nothing lies between, or only the low tops of such strokes,
/// or a printed mark clear of the box's foot; nor the band shaded behind both ([`shaded_box`]).
fn letters_between(b: &Bin, heading: [f64; 4], first: &WordGroup, second: &WordGroup, pitch: f64) -> bool {
    let word_height = (first[3] - first[1]).min(second[3] - second[1]);
    let letters_top = first[1].max(second[1]) + 0.3 * word_height;
    let last_row = searched_area(b, heading)[3].saturating_sub(1);
    components_in(b, heading, false).into_iter().any(|q| {
        let middle = 0.5 * (q.0 + q.2 + 1) as f64;
        let between = middle > first[2] && middle < second[0];
        between && q.4 >= 4 && (q.1 as f64) <= letters_top && q.3 == last_row && !shaded_box(&q, pitch)
    })
}

/// The tallest a printed heading word stands (share of the row pitch): capitals a third of the
/// pitch high, and over half of it on a compact form, where a move written in a row mostly
/// stands taller (a heading row names a clock in both move columns, which a move row's ink
/// seldom mimics).
const PRINTED_WORD_HEIGHT: f64 = 0.6;

/// How far off a column's centre (share of its width) a printed heading word centred across the
/// column stands at most: a move written in a moves' part beside a clock stands a tenth and more
/// off it.
const CENTRED_HEADING: f64 = 0.06;

/// A group of printed glyphs in a heading: its box [x0, y0, x1, y1].
type WordGroup = [f64; 4];

/// Where under a heading box's foot, in row pitches, a piece against that foot is looked at for
/// ink that runs on from it ([`runs_on_below`]): past the ruling (3 px at least), within the
/// first row's top.
const RUN_ON_FROM: f64 = 0.12;
const RUN_ON_TO: f64 = 0.4;

/// Whether the piece `q` ((x0, y0, x1, y1, pixels), against the foot of a heading box whose foot
/// lies at `foot`) runs on under the box: in a quarter of its foot's inked pixel columns at
/// least (two at least), ink lies straight under it, within a pixel across, between
/// [`RUN_ON_FROM`] and [`RUN_ON_TO`] of a pitch under the foot. The top of a move written tall in
/// the first row crosses the ruling between them and goes on down; a word printed down to the
/// ruling ends on it.
fn runs_on_below(b: &Bin, q: &(usize, usize, usize, usize, usize), foot: f64, pitch: f64) -> bool {
    let from = (q.3 + 1).max((foot + (RUN_ON_FROM * pitch).max(3.0)) as usize);
    let to = ((foot + RUN_ON_TO * pitch) as usize).min(b.h);
    let inked_under =
        |x: usize| (from..to).any(|y| (x.saturating_sub(1)..=(x + 1).min(b.w - 1)).any(|xx| b.get(xx, y)));
    let foot_columns: Vec<usize> = (q.0..=q.2).filter(|&x| b.get(x, q.3)).collect();
    let running_on = foot_columns.iter().filter(|&&x| inked_under(x)).count();
    running_on >= 2 && 4 * running_on >= foot_columns.len()
}

/// The groups of printed glyphs in a heading's box `bx`, left to right: glyphs of a printed word's
/// height (0.15 to 1.5 pitches), under half a pitch apart, are one group. A glyph against the
/// column's side counts where it is half a pitch wide (a clock drawn against the ruling), not a
/// narrower piece (of the ruling, or of the heading beside cut by the column's side); one against
/// the box's top or bottom where it is half a pitch wide and high (a clock drawn against the
/// heading's rulings), not a smaller piece (of a writer's stroke reaching up from the first row,
/// of a ruling or shading), or against the bottom where it is wider than high, a quarter pitch
/// high and clear of the column's sides (a word printed down to the first row's ruling), and ends
/// there ([`runs_on_below`]: the top of a move written up into the heading runs on). A group
/// under a quarter pitch high is none. A shaded box is a group of its own; one shaded across the
/// column is the heading's background, and the letters printed white in it are the glyphs
/// ([`letters_printed_white_in`]).
fn heading_word_groups(b: &Bin, bx: [f64; 4], pitch: f64) -> Vec<WordGroup> {
    // (the first and last pixel columns and rows `components_in` searches)
    let [left, first_row, x_end, y_end] = searched_area(b, bx);
    let (right, last_row) = (x_end.saturating_sub(1), y_end.saturating_sub(1));
    let (box_like, mut pieces): (Vec<_>, Vec<_>) = components_in(b, bx, false)
        .into_iter()
        .filter(|q| {
            let (width, height) = ((q.2 - q.0 + 1) as f64, (q.3 - q.1 + 1) as f64);
            let at_a_side = q.0 == left || q.2 == right;
            // (against the top, a piece of the heading's ruling or shading is flat; against the
            // bottom, a piece of a writer's stroke is small and no wider than high, where a
            // printed word standing on the ruling below lies along it, a quarter pitch high,
            // clear of the column's sides, which a shaded heading's edge reaches)
            let (at_top, at_bottom) = (q.1 == first_row, q.3 == last_row);
            let big = width >= 0.5 * pitch && height >= 0.5 * pitch;
            let word_on_the_ruling =
                !at_a_side && width > height && height >= 0.25 * pitch && !runs_on_below(b, q, bx[3], pitch);
            let clear =
                (!at_a_side || width >= 0.5 * pitch) && (!at_top || big) && (!at_bottom || big || word_on_the_ruling);
            clear && q.4 >= 4 && height >= 0.15 * pitch && height <= 1.5 * pitch
        })
        .partition(|q| shaded_box(q, pitch));
    let to_box = |q: &(usize, usize, usize, usize, usize)| [q.0 as f64, q.1 as f64, q.2 as f64 + 1.0, q.3 as f64 + 1.0];
    // (a shaded box printed behind one column's heading word, its letters left white, is a word
    // group of its own: a word printed beside it against its edge, "Black | Time", is another)
    // (a piece of that fill whose top and foot are inked together across under half its width is
    // a word printed bold, its letters' ink touching, not a box: of "Zwart", the Z alone)
    let mut shaded_boxes: Vec<WordGroup> = Vec::new();
    for q in box_like {
        let piece = to_box(&q);
        let edged = box_between_its_edges(b, piece);
        if edged[2] - edged[0] >= 0.5 * (piece[2] - piece[0]) {
            shaded_boxes.push(edged);
        } else {
            pieces.push(q);
        }
    }
    crate::sort::by_key(&mut shaded_boxes, |g| g[0]);
    // (the pieces of one band its white letters cut apart, or a band askew in a photo whose
    // edges leave the box rows, overlap or touch: one box)
    let mut shaded_boxes = glyphs_joined(&shaded_boxes, 0.25 * pitch);
    let mut glyphs: Vec<WordGroup> = pieces.iter().map(to_box).collect();
    // (a band shaded across the whole column is the heading's background: its words are the
    // letters printed white in it, thin strokes the binary keeps in pieces, each piece a glyph:
    // the groups they join into are judged by their height; where those groups run along most
    // of the band, the holes are the grain of a grey band the binary broke up, its words printed
    // dark and lost in it, and the band stays one box)
    let column_width = (x_end - left) as f64;
    shaded_boxes.retain(|band| {
        let band_width = band[2] - band[0];
        if band_width < BAND_ACROSS_THE_COLUMN * column_width {
            return true;
        }
        let letters = letters_printed_white_in(b, *band, pitch);
        let words = glyphs_joined(&letters, 0.5 * pitch);
        let run: f64 = words.iter().map(|g| g[2] - g[0]).sum();
        if run > LETTERS_ALONG_A_BAND * band_width {
            return true;
        }
        // (a word has a letter, or a piece of one, a tenth of a pitch high at least; the grain of a
        // band's dark middle makes specks)
        let within = |letter: &WordGroup, word: &WordGroup| letter[0] >= word[0] && letter[2] <= word[2];
        let words: Vec<&WordGroup> =
            words.iter().filter(|word| letters.iter().any(|l| within(l, word) && l[3] - l[1] >= 0.1 * pitch)).collect();
        glyphs.extend(letters.iter().filter(|l| words.iter().any(|word| within(l, word))));
        false
    });
    crate::sort::by_key(&mut glyphs, |g| g[0]);
    let mut groups = glyphs_joined(&glyphs, 0.5 * pitch);
    // (two words printed a space apart, nearer than half a pitch: the one gap far wider than
    // any other between the glyphs, a tenth of a pitch at least, parts them)
    if groups.len() == 1 {
        let gaps: Vec<(usize, f64)> = (1..glyphs.len())
            .map(|i| (i, glyphs[i][0] - glyphs[..i].iter().map(|g| g[2]).fold(f64::MIN, f64::max)))
            .collect();
        let widest = gaps.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((at, gap)) = widest {
            let next_widest = gaps.iter().filter(|g| g.0 != at).map(|g| g.1).fold(0.0, f64::max);
            if gap >= 0.1 * pitch && gap >= 2.0 * next_widest {
                groups = [&glyphs[..at], &glyphs[at..]].iter().flat_map(|part| glyphs_joined(part, f64::MAX)).collect();
            }
        }
    }
    // (a row of low pieces is a dotted ruling or its shadow: a printed word stands a quarter
    // pitch high at least)
    groups.retain(|group| group[3] - group[1] >= 0.25 * pitch);
    // (a group a shaded box overlaps is part of the box: a piece of the band less inked, where
    // its letters or the light of a photo thin it)
    groups.retain(|group| {
        let Some(shade) = shaded_boxes.iter_mut().find(|shade| overlaps_across(group, shade)) else {
            return true;
        };
        *shade = [shade[0].min(group[0]), shade[1].min(group[1]), shade[2].max(group[2]), shade[3].max(group[3])];
        false
    });
    groups.extend(shaded_boxes);
    crate::sort::by_key(&mut groups, |g| g[0]);
    log::debug!("  heading word groups in x {:.0}..{:.0} y {:.0}..{:.0}: {groups:?}", bx[0], bx[2], bx[1], bx[3]);
    groups
}

/// The share of a heading column's width a shaded box spans at least to be the heading's
/// background band, its words printed white in it, rather than a box behind one word.
const BAND_ACROSS_THE_COLUMN: f64 = 0.8;

/// The share of a heading band's width its white letters' groups run along at most (headings'
/// words take a third of it and less; a grey band broken into grain by the binary has holes
/// from end to end).
const LETTERS_ALONG_A_BAND: f64 = 0.6;

/// The letters printed white in a shaded band `band` (a heading's dark background): the pieces
/// of paper inside it that reach none of its sides, two pixels and more (a clock drawn white is
/// a ring), but for pieces wider than a pitch, and solid patches half a pitch wide (three fifths
/// of their box blank): a tall band's dark middle, lighter than its edges to a binary that adapts
/// to its neighbourhood, comes out as paper where no letter is.
fn letters_printed_white_in(b: &Bin, band: WordGroup, pitch: f64) -> Vec<WordGroup> {
    let (x0, y0) = (band[0].max(0.0) as usize, band[1].max(0.0) as usize);
    let (x1, y1) = ((band[2].max(0.0) as usize).min(b.w), (band[3].max(0.0) as usize).min(b.h));
    if x1 <= x0 + 2 || y1 <= y0 + 2 {
        return Vec::new();
    }
    let (w, h) = (x1 - x0, y1 - y0);
    let paper = |x: usize, y: usize| !b.get(x0 + x, y0 + y);
    let mut seen = vec![false; w * h];
    let mut letters = Vec::new();
    let mut stack = Vec::new();
    for start_y in 0..h {
        for start_x in 0..w {
            if seen[start_y * w + start_x] || !paper(start_x, start_y) {
                continue;
            }
            seen[start_y * w + start_x] = true;
            stack.push((start_x, start_y));
            let (mut min_x, mut max_x, mut min_y, mut max_y) = (start_x, start_x, start_y, start_y);
            let (mut pixels, mut reaches_a_side) = (0usize, false);
            while let Some((x, y)) = stack.pop() {
                pixels += 1;
                (min_x, max_x, min_y, max_y) = (min_x.min(x), max_x.max(x), min_y.min(y), max_y.max(y));
                reaches_a_side |= x == 0 || y == 0 || x + 1 == w || y + 1 == h;
                let neighbours = [(x.wrapping_sub(1), y), (x + 1, y), (x, y.wrapping_sub(1)), (x, y + 1)];
                for (nx, ny) in neighbours {
                    if nx < w && ny < h && !seen[ny * w + nx] && paper(nx, ny) {
                        seen[ny * w + nx] = true;
                        stack.push((nx, ny));
                    }
                }
            }
            let (width, height) = (max_x + 1 - min_x, max_y + 1 - min_y);
            let solid_patch = width as f64 >= 0.5 * pitch && pixels as f64 >= 0.6 * (width * height) as f64;
            if !reaches_a_side && pixels >= 2 && !solid_patch && width as f64 <= pitch {
                letters.push([
                    (x0 + min_x) as f64,
                    (y0 + min_y) as f64,
                    (x0 + max_x + 1) as f64,
                    (y0 + max_y + 1) as f64,
                ]);
            }
        }
    }
    crate::sort::by_key(&mut letters, |l| l[0]);
    letters
}

/// Whether a piece of a heading is a shaded box printed behind a word: a solid block (three
/// fifths of its box inked, the word's letters the holes in it) half a pitch high at least and
/// wider than one and a half pitches, where a printed or written word's strokes cover far less of
/// their box.
fn shaded_box(piece: &(usize, usize, usize, usize, usize), pitch: f64) -> bool {
    let (width, height) = ((piece.2 - piece.0 + 1) as f64, (piece.3 - piece.1 + 1) as f64);
    width >= 1.5 * pitch && height >= 0.5 * pitch && piece.4 as f64 >= 0.6 * width * height
}

/// A shaded box's piece `bx` cut to the box: the pixel columns inked at both its top and its foot
/// (a letter of the word beside, printed against the box's edge, joins the piece but reaches
/// neither).
fn box_between_its_edges(b: &Bin, bx: WordGroup) -> WordGroup {
    let (top, foot) = (bx[1] as usize, (bx[3] as usize).saturating_sub(1));
    // (the row itself or one beside it, within the page: a box's edge can lean by a pixel)
    let inked_at = |x: usize, y: usize| (y.saturating_sub(1)..=(y + 1).min(b.h - 1)).any(|y| b.get(x, y));
    let edged = |x: &usize| inked_at(*x, top) && inked_at(*x, foot);
    let columns = bx[0] as usize..bx[2] as usize;
    match (columns.clone().find(edged), columns.rev().find(edged)) {
        (Some(first), Some(last)) => [first as f64, bx[1], last as f64 + 1.0, bx[3]],
        _ => bx,
    }
}

/// Whether a heading's word group is a shaded box (see [`shaded_box`]): three fifths of its
/// inner window ([`ink_fraction`]) inked.
fn shaded_box_group(b: &Bin, group: &WordGroup, pitch: f64) -> bool {
    let (width, height) = (group[2] - group[0], group[3] - group[1]);
    width >= 1.5 * pitch && height >= 0.5 * pitch && ink_fraction(b, *group) >= 0.6
}

/// Glyphs (sorted by their left ends) joined into groups where each stands at most `gap` right of
/// the group before it.
fn glyphs_joined(glyphs: &[WordGroup], gap: f64) -> Vec<WordGroup> {
    let mut groups: Vec<WordGroup> = Vec::new();
    for g in glyphs {
        match groups.last_mut() {
            Some(last) if g[0] <= last[2] + gap => {
                *last = [last[0], last[1].min(g[1]), last[2].max(g[2]), last[3].max(g[3])];
            }
            _ => groups.push(*g),
        }
    }
    groups
}

/// Which sides of a column are printed rulings (the others virtual: a number zone's reach, a
/// gap's edge).
#[derive(Clone, Copy, Debug)]
struct PrintedSides {
    left: bool,
    right: bool,
}

/// How far above the first row's top, in row pitches, the words of a heading row with no ruling
/// over it may stand ([`find_unruled_clock_columns`]).
const UNRULED_HEADING_REACH: f64 = 0.5;

/// How near a column's side, in row pitches, a heading's word group reaching it stands
/// ([`move_part_beside_a_clock`]).
const BAND_EDGE_REACH: f64 = 0.25;

/// The least height, in row pitches, of a piece of a heading band's outline: a band spans the
/// heading's height, printed words about half a pitch ([`move_part_beside_a_clock`]).
const BAND_PIECE_HEIGHT: f64 = 0.8;

/// The moves' part of a column `left..right` whose heading's word groups `words` name a clock
/// column beside the moves (see [`find_unruled_clock_columns`]): two groups, each at least half a
/// pitch wide, on one line (overlapping by half the lower one's height), of one print size (the
/// taller at most 2.5 times as tall: a clock drawn beside a word; any height where one is a
/// shaded box, `shaded`), not both reaching a side of the column, within [`BAND_EDGE_REACH`],
/// and [`BAND_PIECE_HEIGHT`] high (a shaded band's edges the binary broke in two). Where the
/// boundary that centres both groups leaves the clock's part too wide and only one side of the
/// column is printed, the boundary is the one that centres the group beside the printed side: a
/// virtual side can stand where the form's column does not end (a number zone's reach short of
/// the clock column's start).
fn move_part_beside_a_clock(
    words: &[WordGroup],
    shaded: [bool; 2],
    left: f64,
    right: f64,
    sides: PrintedSides,
    pitch: f64,
) -> Option<MovePart> {
    let [first, second] = words else { return None };
    let wide = |g: &WordGroup| g[2] - g[0] >= 0.5 * pitch;
    let overlap = first[3].min(second[3]) - first[1].max(second[1]);
    let (lower, taller) = {
        let (a, b) = (first[3] - first[1], second[3] - second[1]);
        (a.min(b), a.max(b))
    };
    // (a clock drawn as a pictogram stands up to two and a half times as tall as a word's
    // capitals; a shaded box stands taller than the word printed beside it by the shading's
    // margins)
    let of_one_size = taller <= 2.5 * lower || shaded.contains(&true);
    if !wide(first) || !wide(second) || overlap < 0.5 * lower || !of_one_size {
        return None;
    }
    // (two groups reaching both sides of the column as high as a band, neither a shaded box,
    // are the edges of one band shaded across the column that the binary broke in two: printed
    // words, half a pitch high, reach the sides only in a cramped column)
    let reach = BAND_EDGE_REACH * pitch;
    let reaches_the_sides = first[0] - left <= reach && right - second[2] <= reach;
    if reaches_the_sides && lower >= BAND_PIECE_HEIGHT * pitch && !shaded.contains(&true) {
        return None;
    }
    let width = right - left;
    let part_at = |at: f64| {
        let between = first[2] - 0.25 * pitch <= at && at <= second[0] + 0.25 * pitch;
        let (left_part, right_part) = (at - left, right - at);
        let (moves, clock) = (left_part.max(right_part), left_part.min(right_part));
        if !between || moves < 2.5 * pitch || clock < 0.8 * pitch || clock > 0.75 * moves {
            return None;
        }
        Some(if left_part > right_part {
            MovePart { from: 0.0, to: left_part }
        } else {
            MovePart { from: left_part, to: width }
        })
    };
    let centre = |g: &WordGroup| 0.5 * (g[0] + g[2]);
    // (the boundary that centres the first group between the column's left side and it, and the
    // one that centres the second between it and the right side)
    let (by_first, by_second) = (2.0 * centre(first) - left, 2.0 * centre(second) - right);
    if (by_first - by_second).abs() > 0.15 * width {
        // (a column with neither side printed, an open form's, has its sides where the number
        // zone's reach and the rows' ends put them, not where the form's columns end: the
        // boundary is then the middle of the gap between the words)
        if sides.left || sides.right {
            return None;
        }
        return part_at(0.5 * (first[2] + second[0]));
    }
    // (the boundary centring both groups; where that leaves the clock's part too wide for one
    // and only one side is printed, the one centring the group beside the printed side)
    let from_printed_side = match (sides.left, sides.right) {
        (false, true) => Some(by_second),
        (true, false) => Some(by_first),
        _ => None,
    };
    part_at(0.5 * (by_first + by_second)).or_else(|| from_printed_side.and_then(part_at))
}

/// The move cells of the blocks in reading order, numbered from each block's start, and the
/// blocks with their number cells: each cell takes the row rulings as found in its own column.
fn cut_cells(b: &Bin, cols: &[Column], order: &[FoundBlock], starts: &[u32], pitch: f64) -> (Vec<GCell>, Vec<GBlock>) {
    let mut cells = Vec::new();
    let mut blocks = Vec::new();
    for (block, (bk, &start)) in order.iter().zip(starts).enumerate() {
        // (each row's cell in column `c`, between the row's rulings as found in that column)
        let cells_in = |c: usize| -> Vec<[f64; 4]> {
            let column = &cols[c];
            bk.rows.iter().map(|(t, bo)| column.cell(&column.own(t, pitch), &column.own(bo, pitch))).collect()
        };
        let number_cells = cells_in(bk.columns.number);
        let other_number_cells = bk.columns.other_number.map_or(Vec::new(), cells_in);
        let ruled_rows = bk.ruled_rows.clone();
        // (the first row found as titled, not a row above or below it taken since)
        let titled_top =
            bk.titled_top.zip(bk.rows.first()).is_some_and(|(y, row)| (row.0.mid() - y).abs() < 0.3 * pitch);
        // (the rows beyond where the printed numbers seen start and end, as the rows stand now)
        let rows_numbers_unseen = RowsAtTheEnds {
            first: bk
                .numbers_seen_from
                .map_or(0, |y| bk.rows.iter().take_while(|row| row.1.mid() < y + 0.3 * pitch).count()),
            last: bk
                .numbers_seen_to
                .map_or(0, |y| bk.rows.iter().rev().take_while(|row| row.0.mid() > y - 0.3 * pitch).count()),
        };
        blocks.push(GBlock {
            first: start,
            rows: bk.rows.len() as u32,
            bx: bk.bounds,
            number_cells,
            other_number_cells,
            ruled_rows,
            titled_top,
            rows_numbers_unseen,
        });
        for (row, (mv, (t, bo))) in (start..).zip(bk.rows.iter()).enumerate() {
            for (ci, side, part) in
                [(bk.columns.white, Side::White, bk.move_parts[0]), (bk.columns.black, Side::Black, bk.move_parts[1])]
            {
                // (the row's rulings as found in this column: a piece of a ruling broken in
                // another column, extended to this one, can be pitched off by part of a row)
                let c = &cols[ci];
                let mut bx = c.cell(&c.own(t, pitch), &c.own(bo, pitch));
                if let Some(part) = part {
                    let left = bx[0];
                    bx[0] = left + part.from;
                    bx[2] = bx[2].min(left + part.to);
                }
                cells.push(GCell {
                    mv,
                    block,
                    row,
                    side,
                    bx,
                    ink: ink_fraction(b, bx),
                    ink_low: super::LOW_OFFSETS.map(|o| ink_fraction_lowered(b, bx, o)),
                });
            }
        }
    }
    (cells, blocks)
}

impl Grid {
    /// Move rows in blocks of at least 5 rows that do not overlap a longer one (0 when no table
    /// was found).
    pub fn rows(&self) -> u32 {
        match self {
            Grid::Found { blocks, .. } => {
                // (blocks overlapping one another are a misreading, e.g. a number column found in
                // a slanted move column: only the longest of them counts)
                let mut bs: Vec<&GBlock> = blocks.iter().filter(|b| b.rows >= 5).collect();
                crate::sort::by_key_descending(&mut bs, |b| b.rows as usize);
                let mut kept: Vec<&GBlock> = Vec::new();
                for b in bs {
                    let over = |o: &&GBlock| {
                        let ox = b.bx[2].min(o.bx[2]) - b.bx[0].max(o.bx[0]);
                        let oy = b.bx[3].min(o.bx[3]) - b.bx[1].max(o.bx[1]);
                        ox > 0.25 * (b.bx[2] - b.bx[0]).min(o.bx[2] - o.bx[0]) && oy > 0.0
                    };
                    if !kept.iter().any(over) {
                        kept.push(b);
                    }
                }
                kept.iter().map(|b| b.rows).sum()
            }
            _ => 0,
        }
    }
}

/// A block found in the ruled columns: indexes of its number, white and black columns.
#[derive(Clone, Copy)]
struct BlockColumns {
    number: usize,
    white: usize,
    black: usize,
    /// Another column left of White's whose glyphs look as much like printed numbers (the
    /// numbers, where a clock column's written times were taken for them): read where the
    /// number column's numbers do not read.
    other_number: Option<usize>,
}

impl BlockColumns {
    /// The block's leftmost column: its number column, or White's where the number stands
    /// between the moves.
    fn left(&self) -> usize {
        self.number.min(self.white)
    }
}

/// Groups neighbouring columns that share a ruling and their rows, and finds in each group the
/// sub-blocks: two wide move columns of about the same width, White's and Black's, with the narrow
/// number column left of White's or between the two; narrow clock columns may stand beside the
/// move columns. Where several narrow columns could be the number column, the one whose cells hold
/// glyphs of one printed height in the most rows is. Also counts groups that read as upside down
/// (two wide columns, then a narrow one at the end). A gap between blocks (`gap_columns`, as
/// [`add_block_gap_borders`] returns them) is no move column, however near a move column's width;
/// nor is a column whose printed numbers, read in the grey page `grey`, go up by one from row to
/// row ([`consecutive_numbers_share`]): it is the number column of the moves beside it however
/// wide it is printed, where it is narrower than they are.
fn find_subs(
    b: &Bin,
    grey: &GrayImage,
    lb_transposed: &Bin,
    cols: &[Column],
    gap_columns: &[(f64, f64)],
    pitch: f64,
) -> (Vec<BlockColumns>, usize) {
    // group neighbouring columns that share a ruling and their rows
    let same_rows =
        |a: &Column, c: &Column| rows_shared(a, c, pitch) as f64 >= 0.6 * a.rows.len().min(c.rows.len()) as f64;
    // (of several runs a column continues, the one whose last column shares the most rows with
    // it, the earliest on a tie (hence `rev` before `max_by_key`, which keeps the last maximum):
    // a heading box's wide column ending on the same ruling shares a few rows only)
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (ci, c) in cols.iter().enumerate() {
        let continued = groups
            .iter_mut()
            .rev()
            .filter(|g| {
                let last = &cols[*g.last().unwrap_or(&0)];
                last.right_ruling == c.left_ruling && same_rows(last, c)
            })
            .max_by_key(|g| rows_shared(&cols[*g.last().unwrap_or(&0)], c, pitch));
        if let Some(g) = continued {
            g.push(ci);
        } else {
            groups.push(vec![ci]);
        }
    }
    let mut subs: Vec<BlockColumns> = Vec::new();
    let mut unseen_between: Vec<BlockColumns> = Vec::new();
    let mut flipped = 0;
    let pair = |a: f64, c: f64| a.min(c) > 0.6 * a.max(c);
    for g in &groups {
        if g.len() < 3 {
            continue;
        }
        let w: Vec<f64> = g.iter().map(|&c| cols[c].width()).collect();
        // (narrow: under 0.65 of a move column beside it)
        let narrow_beside = |i: usize, wide: f64| w[i] < 0.65 * wide;
        // (narrower: under NARROWER_THAN_MOVES of the moves' width; beside moves only 3 row
        // pitches wide a number or clock column 2 pitches wide is not narrow)
        let narrower_beside = |i: usize, wide: f64| w[i] < NARROWER_THAN_MOVES * wide;
        // a group of blocks of two wide columns each followed by a narrow one is a table turned
        // upside down (number columns right of their moves), not blocks with the number between
        // the moves of neighbouring blocks
        let turned = g.len() % 3 == 0
            && (0..g.len() / 3)
                .all(|k| pair(w[3 * k], w[3 * k + 1]) && narrow_beside(3 * k + 2, w[3 * k].min(w[3 * k + 1])));
        if turned {
            flipped += g.len() / 3;
            continue;
        }
        // (how alike two columns' widths are: 1 for equal widths)
        let alike_widths = |a: usize, c: usize| w[a].min(w[c]) / w[a].max(w[c]);
        // (a column whose printed numbers read one after another is the block's number column,
        // however wide the form prints it: beside clock columns it can be nearly as wide as
        // the moves; read only where the widths leave it in doubt, as reading costs)
        let widest = w.iter().copied().fold(0.0, f64::max);
        let read_as_printed_numbers = |k: usize| {
            printed_share(b, &cols[g[k]]) >= 0.5
                && consecutive_numbers_share(grey, &cols[g[k]]) >= READ_AS_NUMBER_COLUMN
        };
        let reads_numbers: Vec<bool> = (0..g.len())
            .map(|k| w[k] >= 0.65 * widest && w[k] <= MAX_NUMBER_COLUMN * pitch && read_as_printed_numbers(k))
            .collect();
        // (such a column still narrower than the moves beside it: a column of numbers wider
        // than a pair of columns is no number column of theirs)
        let numbers_narrower = |k: usize, wide: f64| reads_numbers[k] && w[k] < wide;
        let mut i = 0;
        while i + 1 < g.len() {
            if reads_numbers[i] {
                i += 1;
                continue;
            }
            // (a clock column nearly as wide as the move column beside it pairs with it; where that
            // move column pairs more closely with the next, and both are wider than the clock
            // column by half, the clock column is no move column)
            if i + 2 < g.len()
                && pair(w[i + 1], w[i + 2])
                && alike_widths(i + 1, i + 2) > alike_widths(i, i + 1)
                && narrow_beside(i, w[i + 1].min(w[i + 2]))
            {
                i += 1;
                continue;
            }
            // White's column at i, Black's at j: the next column of about its width, with at most
            // one narrow column between
            // (where the number is printed inside White's cell, White's column is the cell less
            // the number zone split from it, with no ruling between: the two together pair with
            // Black's)
            let unruled = |c: &Column| super::lines::profile(lb_transposed, &c.left).2 < 0.5;
            let numbers_split_off = |j: usize| {
                i > 0
                    && j == i + 1
                    && narrow_beside(i - 1, w[j])
                    && cols[g[i - 1]].right_ruling == cols[g[i]].left_ruling
                    && unruled(&cols[g[i]])
                    && pair(w[i] + w[i - 1], w[j])
                    && printed_share(b, &cols[g[i - 1]]) >= 0.5
            };
            // (a column between White's and Black's as wide as the one after Black's is White's
            // clock column; one two thirds as wide as the moves is still narrower than them)
            let clock_between = |k: usize, j: usize| {
                narrower_beside(k, w[i].min(w[j])) && j + 1 < g.len() && alike_widths(k, j + 1) >= 0.9
            };
            // (a gap between blocks, no row ruled across it in ink, is paper, never a move column)
            let gap = |c: usize| cols[g[c]].is_gap_between_blocks(gap_columns);
            if gap(i) {
                i += 1;
                continue;
            }
            let Some(mut j) = (i + 1..(i + 3).min(g.len())).find(|&j| {
                !gap(j)
                    && !reads_numbers[j]
                    && (pair(w[i], w[j]) || numbers_split_off(j))
                    && (i + 1..j).all(|k| {
                        // (a gap between blocks parts two blocks, never one block's White from
                        // its Black)
                        !gap(k)
                            && (narrow_beside(k, w[i].min(w[j]))
                                || clock_between(k, j)
                                || numbers_narrower(k, w[i].min(w[j])))
                    })
            }) else {
                i += 1;
                continue;
            };
            // (such a clock column also pairs with White's beside it by width, and so does a
            // number column between the moves a little over 0.6 of their width, its glyphs read
            // as consecutive printed numbers: where the column after it is closer to White's
            // width, that column is Black's)
            if j == i + 1
                && i + 2 < g.len()
                && pair(w[i], w[i + 2])
                && alike_widths(i, i + 2) > alike_widths(i, i + 1)
                && (clock_between(i + 1, i + 2)
                    || (!gap(i + 2) && !reads_numbers[i + 2] && read_as_printed_numbers(i + 1)))
            {
                j = i + 2;
            }
            // (White's and Black's columns are of one width, within a tenth; where the column
            // beside this one pairs that closely with a column after it, and more closely than
            // with this one, narrower than both, this one is a number or clock column nearly as
            // wide as the moves, beside the block's White; a White column narrower than its
            // Black across the number between them, Black's as wide as the next block's White,
            // is not one, unless it is under three quarters of Black's width: the paper between
            // the page's edge and the table, the table's number column after it)
            let pairs_closer_onward = || {
                (j + 1..(j + 3).min(g.len())).any(|after| {
                    alike_widths(j, after) >= 0.9
                        && alike_widths(j, after) > alike_widths(i, j) + 0.1
                        && narrower_beside(i, w[j].min(w[after]))
                        && (j + 1..after).all(|k| narrow_beside(k, w[j].min(w[after])))
                })
            };
            let beside_or_far_narrower = j == i + 1 || (j == i + 2 && alike_widths(i, j) < 0.75);
            if beside_or_far_narrower && alike_widths(i, j) < 0.85 && !numbers_split_off(j) && pairs_closer_onward() {
                i += 1;
                continue;
            }
            let wide = w[i].min(w[j]);
            // the number column: between the two, or in the run of narrow columns left of White's
            // (a column standing between the number and White's is a clock column, narrower than
            // a move column; where the column between the moves is a clock column, told by its
            // width alone, the numbers are left of White's; a column as wide whose glyphs read as
            // consecutive printed numbers is the number column, beside clock columns outside)
            let clock_told_by_width = (i + 1..j).any(|k| !narrow_beside(k, wide) && !reads_numbers[k]);
            let mut candidates: Vec<usize> = if clock_told_by_width { Vec::new() } else { (i + 1..j).collect() };
            // (where the column between the moves is White's clock column, as wide as the one after
            // Black's, the numbers stand left of White's, however wide the form prints them: beside
            // clock columns a number column can be nearly as wide as the moves, its small print
            // unread at the analysed size)
            let numbers_left_of_clocked_moves =
                |c: usize| j == i + 2 && c + 1 == i && clock_between(i + 1, j) && w[c] < wide;
            let mut k = i;
            let mut left_run = Vec::new();
            while k > 0
                && (narrower_beside(k - 1, wide)
                    || numbers_narrower(k - 1, wide)
                    || numbers_left_of_clocked_moves(k - 1))
                && i - (k - 1) <= 2
                && (k == i || cols[g[k]].width() <= MAX_CLOCK_COLUMN * pitch)
            {
                k -= 1;
                left_run.push(k);
            }
            // (on a tie the later candidate is chosen: the run left of White's goes in farthest
            // first, so of two columns of printed numbers the nearer is the one)
            candidates.extend(left_run.into_iter().rev());
            // (a column under 0.6 pitch holds no printed number: the gap between two blocks; one
            // over 4 pitches is a move column)
            let number_width =
                |c: usize| (MIN_NUMBER_COLUMN * pitch..=MAX_NUMBER_COLUMN * pitch).contains(&cols[g[c]].width());
            // (a narrow column left of White's with no ink in its cells is no number column
            // either: the gap between two blocks, its rows ruled across it, beside a block whose
            // numbers are printed inside White's cells)
            let inked = |c: usize| {
                let col = &cols[g[c]];
                col.rows.iter().filter(|(t, bo)| ink_fraction(b, col.cell(t, bo)) > INKED_CELL).count() >= 3
            };
            let nearest_left = (i > 0
                && (narrow_beside(i - 1, wide) || numbers_narrower(i - 1, wide))
                && number_width(i - 1)
                && inked(i - 1))
            .then(|| i - 1);
            candidates.retain(|&c| number_width(c));
            let mut printed: Vec<(usize, f64)> =
                candidates.iter().map(|&c| (c, printed_share(b, &cols[g[c]]))).collect();
            // (a column between the moves as wide as a narrow column right of Black's is White's
            // clock column, the other Black's: where a column left of White's, not of that width,
            // shows glyphs too, the numbers are there, not in the times a writer put in the clock
            // column; a column of that width left of White's is the clock, and the numbers
            // between the moves, as the next block's clock column right of Black's shows)
            let clock_after_black = |c: usize| {
                j + 1 < g.len() && narrow_beside(j + 1, wide) && (w[c] - w[j + 1]).abs() <= 0.1 * w[c].max(w[j + 1])
            };
            if printed.iter().any(|&(c, share)| c < i && share >= 0.5 && !clock_after_black(c)) {
                printed.retain(|&(c, _)| !(c > i && c < j && clock_after_black(c)));
            } else if printed.iter().any(|&(c, share)| c > i && c < j && share >= 0.5 && !clock_after_black(c)) {
                printed.retain(|&(c, _)| !(c < i && clock_after_black(c)));
            }
            // (of several columns with glyphs of one height, a clock column's written times are
            // the less regular: printed numbers share their top and bottom row after row)
            let num = printed
                .iter()
                .filter(|p| p.1 >= 0.5)
                .map(|p| (p.0, p.1.min(printed_alignment(b, &cols[g[p.0]], pitch))))
                .max_by(|p, q| p.1.total_cmp(&q.1))
                .map(|p| p.0)
                .or(nearest_left.filter(|_| j == i + 1));
            // (printed numbers right after the pair, where those found left of it stand apart from
            // White's column and are no more regular: the table is upside down, the numbers of the
            // block beside taken; a clock column right of Black's, its times written row after
            // row, shows glyphs of one height too, but they wander where printed numbers do not)
            let share_right =
                if j + 1 < g.len() && narrow_beside(j + 1, wide) { printed_share(b, &cols[g[j + 1]]) } else { 0.0 };
            let numbers_right = share_right >= 0.5;
            let regular = |c: usize, share: f64| share.min(printed_alignment(b, &cols[g[c]], pitch));
            let share_of = |n: usize| printed.iter().find(|p| p.0 == n).map_or(0.0, |p| p.1);
            if log::log_enabled!(log::Level::Trace) {
                let column = |c: usize| cols[g[c]].left.mid();
                let shown: Vec<String> = printed
                    .iter()
                    .map(|&(c, share)| format!("x {:.0} {share:.2}/{:.2}", column(c), regular(c, share)))
                    .collect();
                log::trace!(
                    "  moves x {:.0}, {:.0}: number columns {} chosen {:?}; right {share_right:.2}/{:.2}",
                    column(i),
                    column(j),
                    shown.join(", "),
                    num.map(column),
                    if j + 1 < g.len() { regular(j + 1, share_right) } else { 0.0 }
                );
            }
            let num =
                num.filter(|&n| !(numbers_right && n + 1 < i && regular(j + 1, share_right) > regular(n, share_of(n))));
            match num {
                Some(n) => {
                    // (where no other column left of White's shows printed glyphs, the other
                    // column of the run left of it is still read where the numbers taken do not
                    // read: a form printed light grey loses its printed numbers in the glyphs'
                    // binary, and the writer's times in the clock column beside are what show)
                    let other_number = printed
                        .iter()
                        .filter(|&&(c, share)| c != n && c < i && share >= 0.5)
                        .max_by(|p, q| regular(p.0, p.1).total_cmp(&regular(q.0, q.1)))
                        .or_else(|| printed.iter().filter(|&&(c, _)| c != n && c < i).min_by_key(|p| i - p.0))
                        .map(|p| g[p.0]);
                    subs.push(BlockColumns { number: g[n], white: g[i], black: g[j], other_number });
                    i = j + 1;
                }
                None => {
                    // (a pair of move columns with a column of printed numbers right after it:
                    // the table is upside down)
                    if j == i + 1 && numbers_right {
                        flipped += 1;
                    }
                    // (one narrow column between two move columns whose numbers were not seen,
                    // e.g. printed on a dark shading: kept in case another block has its shape)
                    if j == i + 2 {
                        unseen_between.push(BlockColumns {
                            number: g[i + 1],
                            white: g[i],
                            black: g[j],
                            other_number: None,
                        });
                    }
                    i += 1;
                }
            }
        }
    }
    // blocks repeat across the page: a pair of move columns with one narrow column between them,
    // whose numbers were not seen, is a block where a block found has its columns' widths
    let alike = |a: f64, b: f64| (a - b).abs() <= 0.08 * a.max(b);
    let shaped_like = |u: &BlockColumns, s: &BlockColumns| {
        alike(cols[u.number].width(), cols[s.number].width())
            && alike(cols[u.white].width(), cols[s.white].width())
            && alike(cols[u.black].width(), cols[s.black].width())
    };
    let taken = |u: &BlockColumns, subs: &[BlockColumns]| {
        subs.iter().any(|s| [s.number, s.white, s.black].iter().any(|c| [u.number, u.white, u.black].contains(c)))
    };
    for u in unseen_between {
        if subs
            .iter()
            .any(|s| s.number != s.white && shaped_like(&u, s) && cols[s.number].left.mid() > cols[s.white].left.mid())
            && !taken(&u, &subs)
        {
            subs.push(u);
        }
    }
    crate::sort::by_key(&mut subs, |a| cols[a.white].left.mid());
    if log::log_enabled!(log::Level::Debug) {
        for s in &subs {
            log::debug!(
                "  block columns: number x {:.0}, White x {:.0}..{:.0}, Black x {:.0}..{:.0}",
                cols[s.number].left.mid(),
                cols[s.white].left.mid(),
                cols[s.white].right.mid(),
                cols[s.black].left.mid(),
                cols[s.black].right.mid()
            );
        }
    }
    (drop_subs_sharing_columns(subs, cols), flipped)
}

/// Of two blocks that share a column (the clock columns of neighbouring blocks paired across the
/// number column between them, beside the blocks of move columns; a column is shared where both
/// take it, as one column or as two runs of its rows), the one whose move columns are the
/// narrower is dropped; where their narrower move columns are of one width (within 2 %: the
/// shared column is the narrower of both), the one whose White and Black are the less alike in
/// width (one block's Black paired with the next block's White across that block's number
/// column, beside the block it belongs to).
fn drop_subs_sharing_columns(subs: Vec<BlockColumns>, cols: &[Column]) -> Vec<BlockColumns> {
    let columns = |s: &BlockColumns| [s.number, s.white, s.black];
    // (one column, or two runs of its rows between pieces of the same rulings: they overlap by
    // more than half the narrower's width)
    let same_column = |a: usize, c: usize| {
        let (a, c) = (&cols[a], &cols[c]);
        let overlap = a.right.mid().min(c.right.mid()) - a.left.mid().max(c.left.mid());
        overlap > 0.5 * a.width().min(c.width())
    };
    let (white, black) = (|s: &BlockColumns| cols[s.white].width(), |s: &BlockColumns| cols[s.black].width());
    let move_width = |s: &BlockColumns| white(s).min(black(s));
    let alike = |s: &BlockColumns| move_width(s) / white(s).max(black(s));
    let wider_or_more_alike = |o: &BlockColumns, s: &BlockColumns| {
        let (wo, ws) = (move_width(o), move_width(s));
        if (wo - ws).abs() <= 0.02 * wo.max(ws) { alike(o) > alike(s) } else { wo > ws }
    };
    let keep: Vec<bool> = subs
        .iter()
        .map(|s| {
            !subs.iter().any(|o| {
                !std::ptr::eq(o, s)
                    && columns(o).iter().any(|&c| columns(s).iter().any(|&d| same_column(c, d)))
                    && wider_or_more_alike(o, s)
            })
        })
        .collect();
    subs.into_iter().zip(keep).filter(|(_, k)| *k).map(|(s, _)| s).collect()
}

/// Share of a column's rows whose printed number, read at the analysed size, is one more than
/// the number of the row above: a column of printed move numbers, however wide it is printed.
fn consecutive_numbers_share(grey: &GrayImage, c: &Column) -> f64 {
    let numbers: Vec<Option<u32>> =
        c.rows.iter().map(|(top, bottom)| super::digits::read_number(grey, c.cell(top, bottom)).best()).collect();
    let consecutive = numbers.windows(2).filter(|pair| matches!(pair, [Some(a), Some(b)] if *b == a + 1)).count();
    consecutive as f64 / c.rows.len().saturating_sub(1).max(1) as f64
}

/// How many of column `a`'s rows start where one of column `c`'s does (within 0.35 pitch).
fn rows_shared(a: &Column, c: &Column, pitch: f64) -> usize {
    a.rows.iter().filter(|r| c.rows.iter().any(|q| (q.0.mid() - r.0.mid()).abs() < 0.35 * pitch)).count()
}

/// Share of a column's rows whose cell holds glyphs of one printed height: a number column's
/// printed numbers (a clock column holds none, or a writer's figures of every size). Where under
/// half the rows show such glyphs, glyphs touching the cell's sides count too: two-digit numbers
/// filling a narrow number column from ruling to ruling (41-80 printed in a column a pitch wide).
fn printed_share(b: &Bin, c: &Column) -> f64 {
    let inside = share_of_one_height(c, |cell| glyph_height(b, cell));
    if inside >= 0.5 {
        return inside;
    }
    inside.max(share_of_one_height(c, |cell| glyph_height_to_the_sides(b, cell)))
}

/// Share of a column's rows whose cell's glyph height (`height_in`) lies within 15 % of the
/// median one.
fn share_of_one_height(c: &Column, height_in: impl Fn([f64; 4]) -> Option<f64>) -> f64 {
    let heights: Vec<f64> = c.rows.iter().filter_map(|(t, bo)| height_in(c.cell(t, bo))).collect();
    if heights.is_empty() || c.rows.is_empty() {
        return 0.0;
    }
    let median = median(heights.clone());
    let alike = heights.iter().filter(|&&h| (h - median).abs() <= 0.15 * median + 1.0).count();
    alike as f64 / c.rows.len() as f64
}

/// [`glyph_height`] with glyphs touching the searched area's sides kept, those of nearly the
/// cell's height left out (a ruling).
fn glyph_height_to_the_sides(b: &Bin, bx: [f64; 4]) -> Option<f64> {
    let h = bx[3] - bx[1] - 5.0;
    components_in(b, bx, false)
        .into_iter()
        .map(|c| ((c.3 - c.1 + 1) as f64, c.4))
        .filter(|&(ch, pixels)| ch >= 0.3 * h && ch < 0.9 * h && pixels >= 4)
        .map(|(ch, _)| ch)
        .max_by(f64::total_cmp)
}

/// Share of a column's rows whose glyphs' top and bottom lie where most rows' do (within a tenth
/// of a pitch and a pixel): printed numbers stand on one line, a writer's figures wander.
fn printed_alignment(b: &Bin, c: &Column, pitch: f64) -> f64 {
    let spans: Vec<(f64, f64)> = c
        .rows
        .iter()
        .filter_map(|(t, bo)| {
            let cell = c.cell(t, bo);
            let h = cell[3] - cell[1] - 5.0;
            let glyphs: Vec<_> =
                components(b, cell).into_iter().filter(|q| (q.3 - q.1 + 1) as f64 >= 0.3 * h && q.4 >= 4).collect();
            let top = glyphs.iter().map(|q| q.1).min()? as f64 - cell[1];
            let bottom = glyphs.iter().map(|q| q.3).max()? as f64 - cell[1];
            Some((top, bottom))
        })
        .collect();
    if spans.is_empty() {
        return 0.0;
    }
    let top = median(spans.iter().map(|s| s.0).collect());
    let bottom = median(spans.iter().map(|s| s.1).collect());
    let tol = 0.1 * pitch + 1.0;
    let aligned = spans.iter().filter(|s| (s.0 - top).abs() <= tol && (s.1 - bottom).abs() <= tol).count();
    aligned as f64 / c.rows.len() as f64
}

/// Columns between neighbouring vertical rulings, each with its regular rows.
fn build_cols(hsegs: &[Line], vsegs: &[Line], pitch: f64, t: &Bin) -> Vec<Column> {
    let mut cols: Vec<Column> = Vec::new();
    // (narrow strips between two rulings with no rows of their own)
    let mut unruled: Vec<(usize, usize, f64, f64)> = Vec::new();
    for i in 0..vsegs.len() {
        let vi = vsegs[i];
        for (j, vj) in vsegs.iter().enumerate().skip(i + 1) {
            let (ya, yb) = (vi.start.max(vj.start), vi.end.min(vj.end));
            if yb - ya < 2.5 * pitch {
                continue;
            }
            if short_stroke(t, vj, vi.len()) {
                // a short stroke (handwriting along a column) between two long rulings (a piece of
                // a faint ruling is as straight as a printed line)
                continue;
            }
            let ym = 0.5 * (ya + yb);
            let (xa, xb) = (vi.at(ym), vj.at(ym));
            if xb - xa < (0.4 * pitch).max(5.0) {
                // two rulings close together (a double line, the gap between two blocks): no
                // column starts at the left one
                break;
            }
            let cw = xb - xa;
            // (a row ruling spans the column but for a quarter of its width at either end; in a
            // narrow number column, where bold digits beside a thick border lower the local
            // threshold so that a faint ruling fades near the border, but for 40 %)
            let end = if cw < 3.0 * pitch { 0.4 * cw } else { 0.25 * cw };
            let mut ys: Vec<Line> = hsegs
                .iter()
                .filter(|s| {
                    let y = s.at(0.5 * (xa + xb));
                    s.start <= xa + end && s.end >= xb - end && y >= ya - 1.2 * pitch && y <= yb + 1.2 * pitch
                })
                .copied()
                .collect();
            crate::sort::by_key(&mut ys, |p| p.mid());
            let xc = 0.5 * (xa + xb);
            let mut dedup: Vec<Line> = Vec::new();
            for s in ys {
                match dedup.last() {
                    Some(l) if s.at(xc) - l.at(xc) < 0.3 * pitch => {}
                    _ => dedup.push(s),
                }
            }
            let mut rows = Vec::new();
            let row = |d: f64| d >= 0.7 * pitch && d <= 1.35 * pitch;
            let mut r = 0;
            while r + 1 < dedup.len() {
                let p = [dedup[r], dedup[r + 1]];
                let d = p[1].at(xc) - p[0].at(xc);
                r += 1;
                if d < 0.7 * pitch
                    && let Some(k) = (r + 1..dedup.len()).find(|&k| dedup[k].at(xc) - p[0].at(xc) >= 0.7 * pitch)
                    && ((dedup[k].at(xc) - p[0].at(xc)) / pitch - 1.0).abs() <= 0.12
                    && (k + 1 >= dedup.len() || row(dedup[k + 1].at(xc) - dedup[k].at(xc)))
                {
                    // a stray line inside a row (a long pen stroke): skipped when the rows
                    // around it come out regular without it
                    rows.push((p[0], dedup[k]));
                    r = k;
                    continue;
                }
                if row(d) {
                    rows.push((p[0], p[1]));
                } else if d > 1.7 * pitch
                    && d < 8.4 * pitch
                    && (d / pitch - (d / pitch).round()).abs() < 0.3
                    && [&vi, vj].iter().any(|v| {
                        // (a printed column ruling runs on through the gap; between two blocks
                        // stacked on the page, it does not)
                        super::lines::cover(t, v, p[0].at(v.at(p[0].mid())), p[1].at(v.at(p[1].mid()))) >= 0.3
                    })
                {
                    // a ruling was missed (faint, broken): split evenly
                    let n = (d / pitch).round() as usize;
                    let lerp = |f: f64| Line {
                        intercept: p[0].intercept + f * (p[1].intercept - p[0].intercept),
                        slope: p[0].slope + f * (p[1].slope - p[0].slope),
                        start: p[0].start.max(p[1].start),
                        end: p[0].end.min(p[1].end),
                    };
                    for k in 0..n {
                        rows.push((lerp(k as f64 / n as f64), lerp((k + 1) as f64 / n as f64)));
                    }
                }
            }
            if rows.len() >= 3 {
                cols.push(Column { left: vi, right: *vj, left_ruling: i, right_ruling: j, rows });
            } else if cw <= WIDEST_STRIP_TAKING_ROWS * pitch {
                unruled.push((i, j, ya, yb));
            }
            break;
        }
    }
    let borrowed = borrow_rows_for_unruled_strips(&cols, vsegs, &unruled, pitch);
    cols.extend(borrowed);
    crate::sort::by_key(&mut cols, |c| c.left_ruling as f64);
    cols
}

/// Columns for narrow strips between two column rulings that show no rows of their own: a number
/// column shaded as dark as its faint row rulings (or printed over them) loses them in the
/// binary, and without it the block would take a clock column beside it for its numbers. The
/// strip takes the rows of the column beside it that shares one of its rulings, where both its
/// rulings run down those rows (`unruled`: the strips' ruling indexes and common extent).
fn borrow_rows_for_unruled_strips(
    cols: &[Column],
    vsegs: &[Line],
    unruled: &[(usize, usize, f64, f64)],
    pitch: f64,
) -> Vec<Column> {
    let mut out = Vec::new();
    for &(i, j, ya, yb) in unruled {
        let beside = cols.iter().filter(|c| c.left_ruling == j || c.right_ruling == i).max_by_key(|c| c.rows.len());
        let Some(beside) = beside else { continue };
        let xc = beside.left.at(0.5 * (ya + yb));
        let rows: Vec<Row> = beside
            .rows
            .iter()
            .filter(|r| r.0.at(xc) >= ya - 0.5 * pitch && r.1.at(xc) <= yb + 0.5 * pitch)
            .copied()
            .collect();
        if rows.len() >= 3 && rows.len() + 1 >= beside.rows.len() {
            out.push(Column { left: vsegs[i], right: vsegs[j], left_ruling: i, right_ruling: j, rows });
        }
    }
    out
}

impl Line {
    fn mid_t(&self) -> f64 {
        0.5 * (self.start + self.end)
    }
}

#[cfg(test)]
mod tests {
    use super::zones::*;
    use super::*;

    fn h(a: f64, b: f64, t0: f64, t1: f64) -> Line {
        Line { intercept: a, slope: b, start: t0, end: t1 }
    }

    /// Values of every start 1..=400 for a block: `fits` rows at the given starts, `rest` at others.
    fn block_values(fits: &[(u32, i64)], rest: i64) -> Vec<i64> {
        (1..=400u32).map(|s| 100 * fits.iter().find(|f| f.0 == s).map_or(rest, |f| f.1)).collect()
    }

    /// The lines `drop_stacked_numbers` keeps of vertical lines at `lines` (x, broken) on a page
    /// 100 px wide and 400 px high, a broken line inked over the first `inked` pixels of every
    /// `pitch` (its transposed ridge binary), with no grey page and no row rulings to go by.
    fn kept_of_stacked_numbers(lines: &[(usize, bool)], inked: usize, pitch: usize) -> Vec<f64> {
        let mut ridges = Bin::new(400, 100);
        for &(x, broken) in lines {
            for t in (0..400).filter(|t| !broken || t % pitch < inked) {
                ridges.d[x * 400 + t] = 1;
            }
        }
        let vsegs = lines.iter().map(|&(x, _)| h(x as f64, 0.0, 0.0, 399.0)).collect();
        let kept = drop_stacked_numbers(vsegs, &ridges, &GrayImage::new(100, 400), &[], pitch as f64);
        kept.iter().map(|v| v.intercept).collect()
    }

    #[test]
    fn a_broken_line_inside_a_narrow_number_column_is_dropped() {
        // whole rulings at x 30 and 45 (a number column 15 px wide at a 13 px pitch), the
        // numbers' strokes lined up at x 39 (ink on half of each row), and the same broken line
        // at x 80 beside a ruling at x 60 (a column 35 px wide: handwriting, left to the other
        // checks)
        let lines = [(30, false), (39, true), (45, false), (60, false), (80, true)];
        assert_eq!(kept_of_stacked_numbers(&lines, 6, 13), vec![30.0, 45.0, 60.0, 80.0]);
    }

    #[test]
    fn a_shaded_number_column_that_lost_its_row_rulings_takes_the_rows_beside_it() {
        // column rulings at x 20 (the table's border), 80, 300 and 520 from y 100 to 600; the
        // rows (25 px) are ruled from x 80 on only: in the number column, shaded as dark as its
        // faint row rulings, they are lost. A wider strip (x 520 to 640, 4.8 pitches) without
        // rows of its own is no number column and takes none.
        let line = |x: f64| h(x, 0.0, 100.0, 600.0);
        let vsegs = [20.0, 80.0, 300.0, 520.0, 640.0].map(line).to_vec();
        let hsegs: Vec<Line> = (0..=20).map(|k| h(100.0 + 25.0 * k as f64, 0.0, 80.0, 520.0)).collect();
        let mut rulings = Bin::new(700, 700);
        for v in &vsegs {
            for y in 100..600 {
                rulings.d[y * 700 + v.intercept as usize] = 1;
            }
        }
        let cols = build_cols(&hsegs, &vsegs, 25.0, &rulings.transpose());
        let spans: Vec<(f64, f64, usize)> =
            cols.iter().map(|c| (c.left.intercept, c.right.intercept, c.rows.len())).collect();
        assert_eq!(spans, vec![(20.0, 80.0, 20), (80.0, 300.0, 20), (300.0, 520.0, 20)]);
    }

    #[test]
    fn a_gap_between_blocks_nearly_as_wide_as_the_moves_is_no_move_column() {
        // two blocks White | No | Black at a 20 px pitch, rows y 100..500: White 20..85, numbers
        // 85..110, Black 110..170, the gap 170..211 (two thirds of a move column), then White
        // 211..276, numbers 276..301, Black 301..361. The second block's numbers print; the
        // first's are lost on a shading but for a few blots, so its number column, inked, stands
        // left of Black's column as beside a pair of move columns.
        let xs = [20.0, 85.0, 110.0, 170.0, 211.0, 276.0, 301.0, 361.0];
        let vsegs: Vec<Line> = xs.iter().map(|&x| h(x, 0.0, 100.0, 500.0)).collect();
        let hsegs: Vec<Line> = (0..=20).map(|k| h(100.0 + 20.0 * k as f64, 0.0, 20.0, 361.0)).collect();
        let mut rulings = Bin::new(400, 600);
        for &x in &xs {
            fill(&mut rulings, x as usize, 100, x as usize + 1, 500);
        }
        let mut glyphs = Bin::new(400, 600);
        for row in 0..20 {
            let top = 100 + 20 * row;
            fill(&mut glyphs, 284, top + 5, 293, top + 15);
            if row % 5 == 0 {
                fill(&mut glyphs, 88, top + 2, 107, top + 18);
            }
        }
        let cols = build_cols(&hsegs, &vsegs, 20.0, &rulings.transpose());
        assert_eq!(cols.len(), 7);
        let (subs, _) =
            find_subs(&glyphs, &GrayImage::new(400, 600), &rulings.transpose(), &cols, &[(170.0, 211.0)], 20.0);
        let mut found: Vec<(usize, usize, usize)> = subs.iter().map(|s| (s.number, s.white, s.black)).collect();
        found.sort_unstable();
        // (the first block shaped like the second, its columns taken alike)
        assert_eq!(found, [(1, 0, 2), (5, 4, 6)]);
    }

    #[test]
    fn a_gap_between_blocks_never_stands_between_one_blocks_white_and_black() {
        // three blocks White | No | Black at a 40 px pitch, rows y 100..900, gaps 30 px wide
        // between them; the middle block's number column is 0.65 of its White's width, so that
        // White pairs with it. Its Black, the numbers left of it, and the next block's White
        // across the gap made a block wider than the next block's own, which lost to it.
        let xs = [20.0, 200.0, 305.0, 480.0, 510.0, 680.0, 790.0, 975.0, 1005.0, 1190.0, 1295.0, 1470.0];
        let vsegs: Vec<Line> = xs.iter().map(|&x| h(x, 0.0, 100.0, 900.0)).collect();
        let blocks = [(20.0, 480.0), (510.0, 975.0), (1005.0, 1470.0)];
        let hsegs: Vec<Line> =
            (0..=20).flat_map(|k| blocks.map(|(from, to)| h(100.0 + 40.0 * k as f64, 0.0, from, to))).collect();
        let mut rulings = Bin::new(1500, 1000);
        for &x in &xs {
            fill(&mut rulings, x as usize, 100, x as usize + 1, 900);
        }
        let mut glyphs = Bin::new(1500, 1000);
        for row in 0..20 {
            let top = 100 + 40 * row;
            for number_column in [200, 680, 1190] {
                fill(&mut glyphs, number_column + 40, top + 12, number_column + 62, top + 30);
            }
        }
        let cols = build_cols(&hsegs, &vsegs, 40.0, &rulings.transpose());
        assert_eq!(cols.len(), 11);
        let gaps = [(480.0, 510.0), (975.0, 1005.0)];
        let (subs, _) = find_subs(&glyphs, &GrayImage::new(1500, 1000), &rulings.transpose(), &cols, &gaps, 40.0);
        let found: Vec<(usize, usize, usize)> = subs.iter().map(|s| (s.number, s.white, s.black)).collect();
        assert!(found.contains(&(9, 8, 10)), "{found:?}");
        assert!(
            found.iter().all(|&(_, white, black)| !(white < 7 && black > 7) && !(white < 3 && black > 3)),
            "{found:?}"
        );
    }

    #[test]
    fn a_line_along_a_few_of_the_rows_crossing_it_is_told_from_one_down_the_whole_column() {
        // 21 row rulings from y 100 to 500 across x 0 to 200; vertical lines at x 50
        let rows: Vec<Line> = (0..=20).map(|k| h(100.0 + 20.0 * k as f64, 0.0, 0.0, 200.0)).collect();
        let down = |from: f64, to: f64| h(50.0, 0.0, from, to);
        assert!(along_under_half_the_rows(&down(160.0, 330.0), &rows));
        assert!(!along_under_half_the_rows(&down(100.0, 500.0), &rows));
        assert!(!along_under_half_the_rows(&down(120.0, 360.0), &rows));
        // (crossed by under four rows: nothing to tell)
        assert!(!along_under_half_the_rows(&down(160.0, 200.0), &rows[..3]));
    }

    #[test]
    fn digits_stacked_row_by_row_are_told_from_solid_and_dashed_rulings() {
        // rows 20 px apart from y 100 to 500 on paper of grey 240; at x 30 a stack of digits
        // (dark from 6 to 14 px below each row ruling), at x 60 a solid ruling, at x 90 a dashed
        // one (3 px on, 4 px off, whatever the rows)
        let mut grey = GrayImage::from_pixel(120, 600, image::Luma([240]));
        for y in 100..=500u32 {
            if (y - 100) % 20 == 0 {
                for x in 0..120 {
                    grey.put_pixel(x, y, image::Luma([120]));
                }
            }
            if (6..14).contains(&((y - 100) % 20)) {
                grey.put_pixel(30, y, image::Luma([60]));
            }
            grey.put_pixel(60, y, image::Luma([120]));
            if y % 7 < 3 {
                grey.put_pixel(90, y, image::Luma([120]));
            }
        }
        let rows: Vec<Line> = (0..=20).map(|k| h(100.0 + 20.0 * k as f64, 0.0, 0.0, 119.0)).collect();
        let column = |x: f64| h(x, 0.0, 100.0, 500.0);
        let darkness = |x: f64| darkness_in_and_beside_rows(&grey, &column(x), &rows, 20.0).expect("rows crossed");
        let digits = |x: f64| {
            let (middle, beside) = darkness(x);
            dark_only_in_rows(middle, beside)
        };
        assert!(digits(30.0));
        assert!(!digits(60.0));
        assert!(!digits(90.0));
        // nothing beside the rows at the digits; a faint ruling (grey 230) under handwriting
        // (grey 60) in the middle of the rows is dark only there too, and shows beside them
        assert!(darkness(30.0).1 < NOTHING_BESIDE_ROWS);
        let mut faint = grey.clone();
        for y in 100..=500u32 {
            let handwriting = (4..16).contains(&((y - 100) % 20));
            faint.put_pixel(105, y, image::Luma([if handwriting { 60 } else { 230 }]));
        }
        let (middle, beside) = darkness_in_and_beside_rows(&faint, &column(105.0), &rows, 20.0).expect("rows crossed");
        assert!(dark_only_in_rows(middle, beside) && beside >= NOTHING_BESIDE_ROWS, "{middle} {beside}");
    }

    #[test]
    fn the_outer_edge_of_numbers_printed_in_from_the_rows_start_bounds_nothing() {
        // rows 20 px apart from x 10 to 300; left-aligned digits from x 30 (dark 6-14 px below
        // each row ruling): blank paper between the rows' start and the digits' edge
        let mut grey = GrayImage::from_pixel(320, 600, image::Luma([240]));
        for y in 100..=500u32 {
            if (y - 100) % 20 == 0 {
                for x in 10..=300 {
                    grey.put_pixel(x, y, image::Luma([120]));
                }
            }
            if (6..14).contains(&((y - 100) % 20)) {
                for x in 30..35 {
                    grey.put_pixel(x, y, image::Luma([60]));
                }
            }
        }
        let rows: Vec<Line> = (0..=20).map(|k| h(100.0 + 20.0 * k as f64, 0.0, 10.0, 300.0)).collect();
        let edge = h(30.0, 0.0, 100.0, 500.0);
        assert!(rows_run_on_over_blank_paper(&grey, &edge, &rows, 20.0, -1.0));
        // the rows run on to the right over the digits themselves
        assert!(!rows_run_on_over_blank_paper(&grey, &edge, &rows, 20.0, 1.0));
        // right-aligned digits ending at x 30 stand left of their stacked edge: it bounds them
        let mut right_aligned = GrayImage::from_pixel(320, 600, image::Luma([240]));
        for y in 100..=500u32 {
            for x in 10..=300 {
                if (y - 100) % 20 == 0 || ((6..14).contains(&((y - 100) % 20)) && (22..=30).contains(&x)) {
                    right_aligned.put_pixel(x, y, image::Luma([if (y - 100) % 20 == 0 { 120 } else { 60 }]));
                }
            }
        }
        assert!(!rows_run_on_over_blank_paper(&right_aligned, &edge, &rows, 20.0, -1.0));
        // rows starting at the digits' edge do not run on beyond it
        let short_rows: Vec<Line> = (0..=20).map(|k| h(100.0 + 20.0 * k as f64, 0.0, 28.0, 300.0)).collect();
        assert!(!rows_run_on_over_blank_paper(&grey, &edge, &short_rows, 20.0, -1.0));
    }

    #[test]
    fn the_ruled_width_is_that_of_the_long_rulings_across_the_blocks_rows() {
        // a block found at x 240-860, rows 20 px apart from y 140; the table's rulings run from
        // x 12 (the heading's and the last row's); a field box above the table is wider still,
        // and a short stroke across the rows counts for nothing
        let block = GBlock {
            first: 21,
            rows: 20,
            bx: [240.0, 140.0, 860.0, 540.0],
            number_cells: Vec::new(),
            other_number_cells: Vec::new(),
            ruled_rows: Vec::new(),
            titled_top: false,
            rows_numbers_unseen: RowsAtTheEnds::default(),
        };
        let mut rulings = vec![h(60.0, 0.0, 0.0, 900.0), h(140.0, 0.0, 12.0, 864.0), h(540.0, 0.0, 12.0, 864.0)];
        rulings.extend((1..20).map(|r| h(140.0 + 20.0 * r as f64, 0.0, 75.0, 864.0)));
        rulings.push(h(300.0, 0.0, 100.0, 160.0));
        assert_eq!(ruled_span_across(&rulings, &[block], 20.0), (12.0, 864.0));
    }

    #[test]
    fn blocks_with_no_ruling_between_one_blocks_black_and_the_next_blocks_white_are_parted() {
        // three blocks White | No | Black side by side, 10 rows each, the number columns ruled
        // (or shaded) on both sides and nothing else ruled down the table: between two number
        // columns one column holds a block's Black cells and the next block's White cells
        let ys: Vec<usize> = (0..=10).map(|r| 100 + 20 * r).collect();
        let mut lb = Bin::new(960, 400);
        rule(&mut lb, &ys, (20, 922), &[20, 920], (100, 302));
        for k in 0..3 {
            for x in [150 + 300 * k, 190 + 300 * k] {
                fill(&mut lb, x, 100, x + 2, 302);
            }
        }
        let mut b = lb.clone();
        for k in 0..3usize {
            let rows = BlockDrawing { left: 20 + 300 * k, first: 10 * k + 1, number_at: 150, digits_top: 6 };
            rows.draw(&mut b, &ys[..10], &[20, 32, 44, 190, 202, 214], 11);
        }
        let (cells, blocks) = cells_and_blocks_found(&b, &lb);
        assert_eq!(blocks, [(1, 10), (11, 10), (21, 10)]);
        assert_eq!(cells, 60);
    }

    #[test]
    fn blocks_ruled_only_between_white_and_black_with_numbers_in_whites_cells_are_parted() {
        // three blocks White (76 px, under four pitches: as narrow as a wide number column) |
        // Black (80 px), 10 rows 20 px apart ruled across the whole table, the rule between White
        // and Black the only column ruling (x 96, 252, 408); each block's numbers printed inside
        // White's cell at its left: between the rules, one column holds a block's Black cells and
        // the next block's White cells
        let ys: Vec<usize> = (0..=10).map(|r| 100 + 20 * r).collect();
        let mut lb = Bin::new(560, 400);
        rule(&mut lb, &ys, (20, 488), &[96, 252, 408], (100, 302));
        let mut b = lb.clone();
        for k in 0..3usize {
            let rows = BlockDrawing { left: 20 + 156 * k, first: 10 * k + 1, number_at: 12, digits_top: 6 };
            rows.draw(&mut b, &ys[..10], &[32, 44, 56, 92, 104, 116], 11);
        }
        let (cells, blocks) = cells_and_blocks_found(&b, &lb);
        assert_eq!(blocks, [(1, 10), (11, 10), (21, 10)]);
        assert_eq!(cells, 60);
    }

    #[test]
    fn a_clock_column_with_times_in_half_its_rows_is_no_number_column_to_part_between() {
        // No (72 px) | White (240) | clock (72) | Black (120), 10 rows 20 px apart: the clock
        // column beside White holds a writer's times, as tall as printed digits, in every other
        // row; White is one move column, not two blocks' moves between two number columns
        let ys: Vec<f64> = (0..=10).map(|r| 100.0 + 20.0 * r as f64).collect();
        let rows: Vec<Row> = ys.windows(2).map(|y| (h(y[0], 0.0, 20.0, 524.0), h(y[1], 0.0, 20.0, 524.0))).collect();
        let sides = [20.0, 92.0, 332.0, 404.0, 524.0];
        let column = |i: usize| Column {
            left: h(sides[i], 0.0, 100.0, 300.0),
            right: h(sides[i + 1], 0.0, 100.0, 300.0),
            left_ruling: i,
            right_ruling: i + 1,
            rows: rows.clone(),
        };
        let hsegs: Vec<Line> = ys.iter().map(|&y| h(y, 0.0, 20.0, 524.0)).collect();
        let parted = |times_every: usize| {
            let mut b = Bin::new(560, 340);
            for (r, &y) in ys[..10].iter().enumerate() {
                let y = y as usize;
                fill(&mut b, 50, y + 6, 54, y + 14);
                fill(&mut b, 57, y + 6, 61, y + 14);
                if r % times_every == 0 {
                    fill(&mut b, 360, y + 6, 364, y + 14);
                    fill(&mut b, 367, y + 6, 371, y + 14);
                }
            }
            let mut vsegs: Vec<Line> = sides.iter().map(|&x| h(x, 0.0, 100.0, 300.0)).collect();
            let mut cols: Vec<Column> = (0..4).map(column).collect();
            part_columns_between_number_columns(&b, &Bin::new(340, 560), &hsegs, &mut vsegs, &mut cols, 20.0);
            vsegs.len() > sides.len()
        };
        assert!(!parted(2));
        // (figures in every row of both narrow columns: two blocks' number columns, the column
        // between them parted)
        assert!(parted(1));
    }

    #[test]
    fn blocks_sharing_a_column_part_where_the_next_blocks_white_cells_begin() {
        // three blocks White | No, then Black, the rule before Black's moves their only column
        // ruling (x 182, 451, 726): the columns between hold one block's Black cells and the next
        // block's White and number cells (143 px, as the first block's)
        let rows: Vec<Row> =
            (0..10).map(|r| (h_line(100.0 + 20.0 * r as f64), h_line(120.0 + 20.0 * r as f64))).collect();
        let column = |left: f64, right: f64| Column {
            left: h(left, 0.0, 100.0, 300.0),
            right: h(right, 0.0, 100.0, 300.0),
            left_ruling: 0,
            right_ruling: 1,
            rows: rows.clone(),
        };
        let cols = [column(39.0, 182.0), column(182.0, 451.0), column(451.0, 726.0), column(726.0, 845.0)];
        let zones = [Some(30.0), Some(30.0), Some(30.0), None];
        let bounds: Vec<f64> =
            bounds_of_blocks_sharing_a_column(&cols, &zones, 20.0).iter().map(|l| l.intercept).collect();
        assert_eq!(bounds, [308.0, 583.0]);
        // blocks each ruled on their own: no column is twice as wide, nothing parted
        let ruled = [column(39.0, 182.0), column(182.0, 308.0), column(308.0, 451.0), column(451.0, 577.0)];
        let zones = [Some(30.0), None, Some(30.0), None];
        assert!(bounds_of_blocks_sharing_a_column(&ruled, &zones, 20.0).is_empty());
    }

    #[test]
    fn two_broken_lines_inside_a_number_column_are_both_dropped() {
        // right-aligned numbers "1." to "40." in a column 24 px wide at a 16 px pitch: the dots
        // and the digits' right sides stack into two broken lines, at x 38 and 43, each the
        // other's nearest neighbour; the whole rulings at x 25 and 49 bound the column
        let lines = [(25, false), (38, true), (43, true), (49, false), (90, false)];
        assert_eq!(kept_of_stacked_numbers(&lines, 9, 16), vec![25.0, 49.0, 90.0]);
    }

    #[test]
    fn a_lowered_window_sees_ink_across_the_ruling_but_not_the_ruling() {
        // a cell 100 x 40 at (0, 40), rulings 2 px thick at y 40, 80 and 120
        let mut b = Bin::new(100, 160);
        let fill = |b: &mut Bin, x0: usize, y0: usize, x1: usize, y1: usize| {
            for y in y0..y1 {
                for x in x0..x1 {
                    b.d[y * 100 + x] = 1;
                }
            }
        };
        for y in [40, 80, 120] {
            fill(&mut b, 0, y, 100, y + 2);
        }
        let bx = [0.0, 40.0, 100.0, 80.0];
        for o in [0.25, 0.5] {
            assert_eq!(ink_fraction_lowered(&b, bx, o), 0.0, "rulings alone at offset {o}");
        }
        // a word written across the cell's lower ruling (y 68-92)
        fill(&mut b, 20, 68, 60, 92);
        let own = ink_fraction(&b, bx);
        let low = ink_fraction_lowered(&b, bx, 0.5);
        assert!(low > 0.3 && low > 1.5 * own, "lowered {low}, own {own}");
    }

    #[test]
    fn a_block_whose_numbers_are_hidden_under_ink_is_numbered_by_the_block_after_it() {
        // two blocks of 40 rows; the writer's ink over the first block's numbers makes them count
        // as two-digit ones (41-80 fits 34 rows, 1-40 only 22), while the second block's numbers
        // are clean and fit 41-80 (57 rows), not 81-120 (32)
        let rows = [40, 40];
        let bonus = [1099, 1099];
        let first = block_values(&[(1, 22), (41, 34)], 15);
        let second = block_values(&[(41, 57), (81, 32)], 15);
        assert_eq!(choose_starts(&[first.clone(), second], &bonus, &rows), vec![1, 41]);
        // a continuation page whose second block also fits after the first one's 41-80 keeps both
        let second = block_values(&[(41, 30), (81, 57)], 15);
        assert_eq!(choose_starts(&[first, second], &bonus, &rows), vec![41, 81]);
        // one block: the start that fits better wins only by more than the bonus of starting at 1
        let one = block_values(&[(1, 40), (41, 50)], 15);
        assert_eq!(choose_starts(std::slice::from_ref(&one), &[799], &[40]), vec![41]);
        assert_eq!(choose_starts(&[one], &[1099], &[40]), vec![1]);
        // no start may repeat an earlier block's numbers
        let flat = block_values(&[], 10);
        let wants_one = block_values(&[(1, 60)], 10);
        assert_eq!(choose_starts(&[flat.clone(), wants_one], &bonus, &rows), vec![1, 41]);
        // blocks of more rows than the starts considered are numbered one after the other
        assert_eq!(choose_starts(&[flat.clone(), flat], &bonus, &[400, 400]), vec![1, 401]);
    }

    #[test]
    fn a_cell_takes_the_ruling_found_in_its_own_column() {
        // a black column (x 380..570) with rows ruled at y 187, 204 and 221; a piece of the 204
        // ruling found only in the number and white columns (x 141..244), fitted askew: extended
        // to the black column it lies at 192, 12 px above the ruling there
        let v = |x: f64| h(x, 0.0, 100.0, 900.0);
        let col = Column {
            left: v(380.0),
            right: v(570.0),
            left_ruling: 0,
            right_ruling: 1,
            rows: vec![
                (h(187.0, 0.0, 141.0, 570.0), h(204.2, 0.0, 243.0, 570.0)),
                (h(204.2, 0.0, 243.0, 570.0), h(221.0, 0.0, 141.0, 570.0)),
            ],
        };
        let piece = h(211.0, -0.039, 141.0, 244.0);
        assert!((piece.at(475.0) - 192.5).abs() < 1.0);
        let own = col.own(&piece, 17.0);
        assert!((own.at(475.0) - 204.2).abs() < 0.01, "{own:?}");
        // a ruling the column lacks is kept as it is
        let far = h(260.0, 0.0, 141.0, 570.0);
        assert!((col.own(&far, 17.0).intercept - 260.0).abs() < 1e-9);
    }

    /// Row rulings y = 100, 120, ... (10 rows) of two blocks side by side, each ruled across its
    /// own width: x 20..300 and 320..600 (`gap` apart) or, with `gap` 0, one ruling across.
    fn two_blocks(gap: f64) -> (Vec<Line>, Vec<Line>) {
        let ys = (0..=10).map(|r| 100.0 + 20.0 * r as f64);
        let pieces: Vec<Line> = ys
            .clone()
            .flat_map(|y| [h(y, 0.0, 20.0, 310.0 - 0.5 * gap), h(y, 0.0, 310.0 + 0.5 * gap, 600.0)])
            .collect();
        let joined = ys.map(|y| h(y, 0.0, 20.0, 600.0)).collect();
        (pieces, joined)
    }

    #[test]
    fn rows_ruled_block_by_block_leave_a_gap_between_the_blocks() {
        let glyphs = Bin::new(640, 400);
        let (pieces, joined) = two_blocks(20.0);
        let gaps = block_gaps(&glyphs, &pieces, &joined, 20.0);
        assert_eq!(gaps.len(), 1, "{gaps:?}");
        let (left, right, top, bottom) = gaps[0];
        assert_eq!((left, right, top, bottom), (300.0, 320.0, 100.0, 300.0));
        let mut columns = Vec::new();
        add_block_gap_borders(&glyphs, &pieces, &joined, &mut columns, 20.0);
        assert_eq!(columns.iter().map(|c| c.intercept).collect::<Vec<_>>(), vec![20.0, 600.0, 300.0, 320.0]);
        // (a column ruling at the gap already bounds the blocks; the table's outer sides, where
        // the rows start and end, get virtual rulings as well)
        let mut ruled = vec![h(310.0, 0.0, 90.0, 310.0)];
        add_block_gap_borders(&glyphs, &pieces, &joined, &mut ruled, 20.0);
        assert_eq!(ruled.iter().map(|c| c.intercept).collect::<Vec<_>>(), vec![310.0, 20.0, 600.0]);
    }

    #[test]
    fn a_gap_holding_the_next_blocks_numbers_in_its_right_part_parts_the_blocks() {
        // rows ruled x 20..270 and 350..600, the right block's rows not ruled across its number
        // column: its numbers stand in the gap, x 325..345 on every row
        let (pieces, joined) = two_blocks(80.0);
        let mut numbered = Bin::new(640, 400);
        for row in 0..10 {
            for y in 104 + 20 * row..116 + 20 * row {
                for x in 325..345 {
                    numbered.d[y * 640 + x] = 1;
                }
            }
        }
        let gaps = block_gaps(&numbered, &pieces, &joined, 20.0);
        assert_eq!(gaps.len(), 1, "{gaps:?}");
        assert_eq!((gaps[0].0, gaps[0].1), (270.0, 350.0));
    }

    #[test]
    fn blocks_whose_rows_do_not_line_up_leave_a_gap_between_them() {
        // the right block's rows 6 px lower (a bowed page): its rulings are not joined to the
        // left block's, and each left ruling ends where a right one begins
        let glyphs = Bin::new(640, 400);
        let rulings: Vec<Line> = (0..=10)
            .map(|r| 100.0 + 20.0 * r as f64)
            .flat_map(|y| [h(y, 0.0, 20.0, 300.0), h(y + 6.0, 0.0, 320.0, 600.0)])
            .collect();
        let gaps = block_gaps(&glyphs, &rulings, &rulings, 20.0);
        assert_eq!(gaps.len(), 1, "{gaps:?}");
        let (left, right, top, bottom) = gaps[0];
        assert_eq!((left, right), (300.0, 320.0));
        assert!(top <= 104.0 && bottom >= 296.0, "{gaps:?}");
    }

    #[test]
    fn a_faint_column_ruling_is_found_and_the_back_pages_ruling_showing_through_is_not() {
        // black rows 25 px apart and two black column rulings; between them a column ruling
        // printed light grey (80 levels under the paper) and the back page's ruling showing
        // through (20 levels under): neither binarizes, both are vertical ridges
        let width = 400;
        let mut grey = GrayImage::from_pixel(width, 400, image::Luma([245]));
        let mut lb = Bin::new(width as usize, 400);
        let mut paint = |x0: u32, y0: u32, x1: u32, y1: u32, level: u8, binarized: bool| {
            for y in y0..y1 {
                for x in x0..x1 {
                    // (inks darken one another: the darker shows where they cross)
                    let under = grey.get_pixel(x, y)[0];
                    grey.put_pixel(x, y, image::Luma([level.min(under)]));
                    if binarized {
                        lb.d[y as usize * width as usize + x as usize] = 1;
                    }
                }
            }
        };
        let row_ys: Vec<u32> = (0..=12).map(|r| 50 + 25 * r).collect();
        for &y in &row_ys {
            paint(40, y, 361, y + 1, 20, true);
        }
        for x in [40, 359] {
            paint(x, 50, x + 2, 352, 20, true);
        }
        paint(150, 50, 152, 352, 165, false);
        paint(250, 50, 252, 352, 225, false);
        let row_rulings: Vec<Line> = row_ys.iter().map(|&y| h(y as f64, 0.0, 40.0, 361.0)).collect();
        assert_eq!(lines::ruling_depth(&grey, &row_rulings[3], false), 225.0);
        let ridges = lines::vertical_ridges(&grey).transpose();
        let columns = find_column_rulings(&lb.transpose(), &ridges, &grey, &row_rulings, 25.0);
        let xs: Vec<f64> = columns.iter().map(|c| c.mid().round()).collect();
        assert_eq!(xs.len(), 3, "{xs:?}");
        assert!((xs[1] - 150.5).abs() <= 1.0, "{xs:?}");
    }

    #[test]
    fn a_box_of_fields_above_the_table_leaves_the_tables_borders_whole() {
        // a box of fields (rows 25 px apart, y 20..95) above a table (y 230..455): the box's left
        // border in line with the table's, its right border 3 px left of the table's; each pair,
        // one above the other, joins into a line across the blank between them that is no ruling
        let width = 400;
        let mut grey = GrayImage::from_pixel(width, 480, image::Luma([245]));
        let mut lb = Bin::new(width as usize, 480);
        let mut paint = |x0: u32, y0: u32, x1: u32, y1: u32| {
            for y in y0..y1 {
                for x in x0..x1 {
                    grey.put_pixel(x, y, image::Luma([20]));
                    lb.d[y as usize * width as usize + x as usize] = 1;
                }
            }
        };
        let box_ys = [20, 45, 70, 95];
        let table_ys: Vec<u32> = (0..10).map(|r| 230 + 25 * r).collect();
        for &y in &box_ys {
            paint(40, y, 358, y + 1);
        }
        for &y in &table_ys {
            paint(40, y, 361, y + 1);
        }
        for x in [40, 356] {
            paint(x, 20, x + 2, 96);
        }
        for x in [40, 200, 359] {
            paint(x, 230, x + 2, 456);
        }
        let row_rulings: Vec<Line> = table_ys.iter().map(|&y| h(y as f64, 0.0, 40.0, 361.0)).collect();
        let ridges = lines::vertical_ridges(&grey).transpose();
        let columns = find_column_rulings(&lb.transpose(), &ridges, &grey, &row_rulings, 25.0);
        let down_the_table = |x: f64| {
            columns.iter().any(|c| {
                c.start <= 235.0 && c.end >= 450.0 && (c.at(240.0) - x).abs() <= 1.0 && (c.at(450.0) - x).abs() <= 1.0
            })
        };
        let found: Vec<(f64, f64, f64)> = columns.iter().map(|c| (c.mid().round(), c.start, c.end)).collect();
        assert!(down_the_table(41.0) && down_the_table(201.0) && down_the_table(360.0), "{found:?}");
    }

    #[test]
    fn rows_broken_at_different_places_or_through_ink_are_no_gap_between_blocks() {
        let (pieces, joined) = two_blocks(20.0);
        // the same breaks over a column written in: no gap between blocks
        let mut inked = Bin::new(640, 400);
        for y in 100..300 {
            for x in 295..325 {
                inked.d[y * 640 + x] = 1;
            }
        }
        assert!(block_gaps(&inked, &pieces, &joined, 20.0).is_empty());
        // breaks wandering from row to row (a dotted ruling lost in places)
        let ragged: Vec<Line> = (0..=10)
            .flat_map(|r| {
                let (y, at) = (100.0 + 20.0 * r as f64, 250.0 + 15.0 * (r % 5) as f64);
                [h(y, 0.0, 20.0, at), h(y, 0.0, at + 20.0, 600.0)]
            })
            .collect();
        assert!(block_gaps(&Bin::new(640, 400), &ragged, &joined, 20.0).is_empty());
    }

    /// A table drawn into both binaries: a number column x 20..60, White's 60..200 and Black's
    /// 200..340, ruled 2 px thick, rows ruled at `ys` across the three, and the printed numbers
    /// `numbers` (row index, number) as glyphs 4 x 8 px in the number cells.
    struct DrawnTable {
        glyphs: Bin,
        rulings: Bin,
        /// the grey page: blank paper unless a test draws on it
        grey: GrayImage,
        columns: Vec<Column>,
        rows: Vec<Row>,
    }

    fn fill(bin: &mut Bin, x0: usize, y0: usize, x1: usize, y1: usize) {
        for y in y0..y1 {
            for x in x0..x1 {
                bin.d[y * bin.w + x] = 1;
            }
        }
    }

    /// Rules rows 2 px thick at `ys` from x `left` to `right`, and columns 2 px wide at `xs` from y
    /// `top` to `bottom`.
    fn rule(bin: &mut Bin, ys: &[usize], (left, right): (usize, usize), xs: &[usize], (top, bottom): (usize, usize)) {
        for &y in ys {
            fill(bin, left, y, right, y + 2);
        }
        for &x in xs {
            fill(bin, x, top, x + 2, bottom);
        }
    }

    /// Draws a block's rulings with its number column's left side at `left` (columns 40, 140 and
    /// 140 px wide) and its printed numbers (row index, number).
    fn draw_block(bin: &mut Bin, left: usize, ys: &[usize], numbers: &[(usize, u32)]) {
        draw_block_of_columns(bin, left, &[40, 140, 140], ys, numbers);
    }

    /// Draws a block of columns `widths` wide from `left`, its printed numbers (row index, number)
    /// in the first column.
    fn draw_block_of_columns(bin: &mut Bin, left: usize, widths: &[usize], ys: &[usize], numbers: &[(usize, u32)]) {
        let (top, bottom) = (ys[0], ys[ys.len() - 1] + 2);
        let right = left + widths.iter().sum::<usize>();
        let mut x = left;
        for w in std::iter::once(0).chain(widths.iter().copied()) {
            x += w;
            fill(bin, x, top, x + 2, bottom);
        }
        for &y in ys {
            fill(bin, left, y, right + 2, y + 2);
        }
        for &(row, number) in numbers {
            for (i, _) in number.to_string().chars().enumerate() {
                fill(bin, left + 8 + 7 * i, ys[row] + 7, left + 12 + 7 * i, ys[row] + 15);
            }
        }
    }

    fn drawn_table(ys: &[usize], numbers: &[(usize, u32)]) -> DrawnTable {
        let mut rulings = Bin::new(400, ys[ys.len() - 1] + 60);
        draw_block(&mut rulings, 20, ys, &[]);
        let mut glyphs = rulings.clone();
        draw_block(&mut glyphs, 20, ys, numbers);
        let (top, bottom) = (ys[0], ys[ys.len() - 1] + 2);
        let row_line = |y: usize| h_line(y as f64 + 1.0);
        let rows: Vec<Row> = ys.windows(2).map(|p| (row_line(p[0]), row_line(p[1]))).collect();
        let column_line = |x: usize| h(x as f64 + 1.0, 0.0, top as f64, bottom as f64);
        let columns = [20, 60, 200, 340]
            .windows(2)
            .enumerate()
            .map(|(i, p)| Column {
                left: column_line(p[0]),
                right: column_line(p[1]),
                left_ruling: i,
                right_ruling: i + 1,
                rows: rows.clone(),
            })
            .collect();
        let grey = GrayImage::from_pixel(rulings.w as u32, rulings.h as u32, image::Luma([240]));
        DrawnTable { glyphs, rulings, grey, columns, rows }
    }

    fn h_line(y: f64) -> Line {
        h(y, 0.0, 20.0, 342.0)
    }

    impl DrawnTable {
        fn find_block(&self, rows: &[Row]) -> Option<FoundBlock> {
            let columns = BlockColumns { number: 0, white: 1, black: 2, other_number: None };
            find_block(&self.glyphs, &self.rulings, &self.grey, &self.columns, columns, rows, 20.0)
        }
    }

    /// Rows 20 px apart from y 100 after `first` (a heading row's height).
    /// A block's rows drawn row by row: its printed numbers from `first`, centred `number_at`
    /// right of the block's `left` side, their digits 4x8 px, 7 px apart, `digits_top` below
    /// each row's top ruling.
    struct BlockDrawing {
        left: usize,
        first: usize,
        number_at: usize,
        digits_top: usize,
    }

    impl BlockDrawing {
        /// Draws the number and a writer's letters (6 px wide, at `letters` right of the block's
        /// side, standing 17 px below the row's top ruling, `lowest` to 4 px more high, varying
        /// from letter to letter and row to row) in each row whose top ruling is at `ys`.
        fn draw(&self, b: &mut Bin, ys: &[usize], letters: &[usize], lowest: usize) {
            for (r, &y) in ys.iter().enumerate() {
                let number = (self.first + r).to_string();
                let x0 = self.left + self.number_at - (4 + 7 * (number.len() - 1)) / 2;
                for i in 0..number.len() {
                    fill(b, x0 + 7 * i, y + self.digits_top, x0 + 4 + 7 * i, y + self.digits_top + 8);
                }
                for (i, &x) in letters.iter().enumerate() {
                    let height = lowest + (r + i) % 5;
                    fill(b, self.left + x, y + 17 - height, self.left + x + 6, y + 17);
                }
            }
        }
    }

    /// The cells and the blocks (first move, rows; in order of their first moves) that `analyze`
    /// finds in a drawn page (`b` the glyphs' binary, `lb` the rulings').
    fn cells_and_blocks_found(b: &Bin, lb: &Bin) -> (usize, Vec<(u32, u32)>) {
        let grey = GrayImage::from_pixel(b.w as u32, b.h as u32, image::Luma([255]));
        let Grid::Found { cells, blocks, .. } = analyze(b, lb, &grey) else {
            panic!("no table found");
        };
        let mut found: Vec<(u32, u32)> = blocks.iter().map(|b| (b.first, b.rows)).collect();
        found.sort_unstable();
        (cells.len(), found)
    }

    fn row_ys(first: usize, rows: usize) -> Vec<usize> {
        std::iter::once(100).chain((0..=rows).map(|r| 100 + first + 20 * r)).collect()
    }

    #[test]
    fn a_shaded_heading_row_of_its_own_height_is_no_move_row() {
        let ys = row_ys(28, 10);
        let numbers: Vec<(usize, u32)> = (1..=10).map(|n| (n as usize, n)).collect();
        let mut table = drawn_table(&ys, &numbers);
        fill(&mut table.glyphs, 22, 102, 338, 128);
        let block = table.find_block(&table.rows).expect("a block");
        assert_eq!(block.rows.len(), 10);
        assert_eq!(block.heading_top, Some(101.0));
        assert_eq!(block.glyphs, vec![1, 1, 1, 1, 1, 1, 1, 1, 1, 2]);
    }

    #[test]
    fn a_heading_row_of_the_move_rows_height_with_a_small_mark_is_no_move_row() {
        // "#" 5 x 4 px above digits 8 px high, titles in the move cells
        let ys = row_ys(20, 10);
        let numbers: Vec<(usize, u32)> = (1..=10).map(|n| (n as usize, n)).collect();
        let mut table = drawn_table(&ys, &numbers);
        fill(&mut table.glyphs, 30, 108, 35, 112);
        fill(&mut table.glyphs, 110, 106, 150, 114);
        fill(&mut table.glyphs, 250, 106, 290, 114);
        let block = table.find_block(&table.rows).expect("a block");
        assert_eq!(block.rows.len(), 10);
        assert_eq!(block.heading_top, Some(101.0));
        // the first move row's top ruling is the heading's bottom one
        assert_eq!(block.rows[0].0.intercept, 121.0);
    }

    #[test]
    fn a_heading_of_centred_titles_is_no_move_row_with_a_flat_piece_of_its_ruling_left_in_a_cell() {
        // "N." 6 px high above digits 8 px high (near their height, not quite it), titles of five
        // letters centred in the move cells, and a piece of the heading's top ruling's edge, 1 px high, left
        // inside White's cell off its centre
        let ys = row_ys(20, 10);
        let numbers: Vec<(usize, u32)> = (1..=10).map(|n| (n as usize, n)).collect();
        let mut table = drawn_table(&ys, &numbers);
        fill(&mut table.glyphs, 34, 107, 40, 113);
        for x in (0..5).map(|letter| 8 * letter) {
            fill(&mut table.glyphs, 111 + x, 106, 117 + x, 114);
            fill(&mut table.glyphs, 251 + x, 106, 257 + x, 114);
        }
        fill(&mut table.glyphs, 70, 104, 90, 105);
        let block = table.find_block(&table.rows).expect("a block");
        assert_eq!(block.rows.len(), 10);
        assert_eq!(block.rows[0].0.intercept, 121.0);
    }

    #[test]
    fn rows_whose_rulings_were_missed_are_found_again_while_printed_numbers_go_on() {
        // the column's rows lack the first two and the last (their outer rulings were not found),
        // and a footer's text stands below the table with no ruling under it
        let ys = row_ys(20, 12);
        let numbers: Vec<(usize, u32)> = (0..12).map(|r| (r, r as u32 + 1)).collect();
        let mut table = drawn_table(&ys, &numbers);
        let below = ys[ys.len() - 1] + 6;
        fill(&mut table.glyphs, 28, below, 32, below + 8);
        fill(&mut table.glyphs, 35, below, 39, below + 8);
        let block = table.find_block(&table.rows[2..11]).expect("a block");
        // (and the blank row ruled under them, its number unseen: the printed numbers decide)
        assert_eq!(block.rows.len(), 13);
        assert_eq!(block.rows[0].0.intercept, 101.0);
        assert_eq!(block.glyphs[..3], [1, 1, 1]);
        assert_eq!(block.glyphs[11], 2);
        assert_eq!(block.heading_top, None);
        assert_eq!((block.numbers_seen_from, block.numbers_seen_to), (None, Some(ys[12] as f64 + 1.0)));
    }

    #[test]
    fn rows_above_whose_printed_numbers_the_binaries_lost_are_found_again_where_the_number_column_is_ruled() {
        // 12 numbered rows whose first three numbers, printed light, come out of the binaries
        // as specks 3 px high (the digits are 8 px); the rows found start at the fourth
        let ys = row_ys(20, 12);
        let numbers: Vec<(usize, u32)> = (3..12).map(|r| (r, r as u32 + 1)).collect();
        let mut table = drawn_table(&ys, &numbers);
        for &y in &ys[..3] {
            for bin in [&mut table.glyphs, &mut table.rulings] {
                fill(bin, 30, y + 8, 32, y + 11);
                fill(bin, 34, y + 13, 36, y + 16);
            }
        }
        let block = table.find_block(&table.rows[3..11]).expect("a block");
        // (and the blank row ruled under them, its number unseen too)
        assert_eq!(block.rows.len(), 13);
        assert_eq!(block.rows[0].0.intercept, 101.0);
        assert_eq!(block.glyphs[..4], [0, 0, 0, 1]);
        assert_eq!(block.numbers_seen_from, Some(ys[3] as f64 + 1.0));
        // where the number column's rulings stop at the fourth row, the rows above are a heading's
        let numbers_column = &mut table.columns[0];
        (numbers_column.left.start, numbers_column.right.start) = (ys[3] as f64 + 1.0, ys[3] as f64 + 1.0);
        let block = table.find_block(&table.rows[3..11]).expect("a block");
        assert_eq!((block.rows.len(), block.numbers_seen_from), (10, None));
    }

    #[test]
    fn rows_go_on_under_rulings_seen_only_in_the_grey_while_printed_numbers_go_on() {
        // 15 numbered rows; from the ninth ruling down the rulings are printed light grey and
        // blurred (4 levels under paper at 121, over 10 px), lost in the rulings' binary but for
        // the columns; the paper is grainy and handwriting crosses some of the faint rulings
        let ys = row_ys(20, 14);
        let numbers: Vec<(usize, u32)> = (0..15).map(|r| (r, r as u32 + 1)).collect();
        let mut table = drawn_table(&ys, &numbers);
        let column_ruled = |x: usize| [20, 60, 200, 340].iter().any(|&c| (c..c + 2).contains(&x));
        for &y in &ys[9..] {
            for bin in [&mut table.glyphs, &mut table.rulings] {
                for x in (20..342).filter(|&x| !column_ruled(x)) {
                    bin.d[y * bin.w + x] = 0;
                    bin.d[(y + 1) * bin.w + x] = 0;
                }
            }
        }
        for (x, y, p) in table.grey.enumerate_pixels_mut() {
            let nearest = ys.iter().map(|&r| (y as f64 - (r as f64 + 0.5)).abs()).fold(f64::MAX, f64::min);
            let grain = ((x * 7 + y * 13) % 5) as f64 - 2.0;
            let faint = 4.0 * (1.0 - nearest / 5.0).max(0.0);
            p.0[0] = (121.0 - faint + grain) as u8;
        }
        for (x, y) in [(90, ys[10] - 6), (150, ys[11] - 6), (260, ys[12] - 6), (110, ys[13] - 6)] {
            for dx in 0..4 {
                for dy in 0..12 {
                    table.grey.put_pixel(x + dx, (y + dy) as u32, image::Luma([40]));
                }
            }
        }
        let block = table.find_block(&table.rows[..8]).expect("a block");
        assert_eq!(block.rows.len(), 15);
        assert_eq!(block.rows[14].1.intercept, ys[15] as f64 + 1.0);
        // on blank paper the rows stop where the rulings' binary loses them
        table.grey = GrayImage::from_pixel(table.grey.width(), table.grey.height(), image::Luma([121]));
        assert_eq!(table.find_block(&table.rows[..8]).expect("a block").rows.len(), 8);
    }

    #[test]
    fn rows_go_on_under_ruled_rows_where_the_number_columns_rulings_fade_but_stop_at_a_results_line() {
        // 13 numbered rows and a results line under them, each ruled across the block; the
        // number column's own rulings are found down to the eighth row only (faint print), and
        // the results line's word runs from the number column across into White's
        let ys = row_ys(20, 13);
        let numbers: Vec<(usize, u32)> = (0..13).map(|r| (r, r as u32 + 1)).collect();
        let mut table = drawn_table(&ys, &numbers);
        let results_top = ys[13];
        for x in [40, 49, 58, 67, 76] {
            fill(&mut table.glyphs, x, results_top + 7, x + 7, results_top + 15);
            fill(&mut table.rulings, x, results_top + 7, x + 7, results_top + 15);
        }
        let faded_at = ys[8] as f64 + 1.0;
        let numbers_column = &mut table.columns[0];
        (numbers_column.left.end, numbers_column.right.end) = (faded_at, faded_at);
        let block = table.find_block(&table.rows[..8]).expect("a block");
        assert_eq!(block.rows.len(), 13);
        assert_eq!(block.rows[12].1.intercept, ys[13] as f64 + 1.0);
    }

    #[test]
    fn digits_in_boxed_number_cells_are_measured_without_the_boxes_sides() {
        // each number printed in a box of its own inside the number column (rounded cells): the
        // box's sides run the row's height beside digits 8 px high; the last row's outer ruling
        // was not found, so the row is found again by its number
        let ys = row_ys(20, 12);
        let numbers: Vec<(usize, u32)> = (0..12).map(|r| (r, r as u32 + 1)).collect();
        let mut table = drawn_table(&ys, &numbers);
        for &y in &ys[..12] {
            fill(&mut table.glyphs, 24, y + 3, 25, y + 19);
            fill(&mut table.glyphs, 56, y + 3, 57, y + 19);
        }
        assert_eq!(printed_digit_height(&table.glyphs, &table.columns[0], &table.rows), 8.0);
        let block = table.find_block(&table.rows[..11]).expect("a block");
        // (and the blank row ruled under them, its number unseen)
        assert_eq!((block.rows.len(), block.numbers_seen_to), (13, Some(ys[12] as f64 + 1.0)));
    }

    #[test]
    fn fewer_than_three_numbered_rows_are_no_block() {
        let ys = row_ys(20, 6);
        let table = drawn_table(&ys, &[(1, 1), (2, 2)]);
        assert!(inked_number_rows(&table.glyphs, &table.columns[0], &table.rows).is_none());
        let table = drawn_table(&ys, &[(1, 1), (2, 2), (4, 4)]);
        let (rows, glyphs) = inked_number_rows(&table.glyphs, &table.columns[0], &table.rows).unwrap();
        assert_eq!((rows.len(), glyphs), (4, vec![1, 1, 0, 1]));
    }

    #[test]
    fn a_drawn_table_gives_its_row_rulings_row_pitch_and_columns() {
        // every third row ruling broken in the middle (a faint print): the pieces join again
        let ys = row_ys(20, 10);
        let mut lb = Bin::new(400, 400);
        draw_block(&mut lb, 20, &ys, &[]);
        for &y in ys.iter().step_by(3) {
            for x in 150..170 {
                lb.d[y * 400 + x] = 0;
                lb.d[(y + 1) * 400 + x] = 0;
            }
        }
        let (pieces, row_rulings, _) = find_row_rulings(&lb, 400);
        assert!(pieces.len() > ys.len());
        let pitch = row_pitch(&row_rulings, 400).expect("a pitch");
        assert!((pitch - 20.0).abs() < 0.5, "{pitch}");
        let lb_transposed = lb.transpose();
        let paper = GrayImage::from_pixel(400, 400, image::Luma([255]));
        let column_rulings = find_column_rulings(&lb_transposed, &Bin::new(400, 400), &paper, &row_rulings, pitch);
        let mut xs: Vec<f64> = column_rulings.iter().map(|v| v.mid()).collect();
        xs.sort_by(f64::total_cmp);
        assert_eq!(xs.iter().map(|x| x.round() as i64).collect::<Vec<_>>(), vec![21, 61, 201, 341]);
        let joined: Vec<Line> =
            join_broken(pieces, 2.0, 4.0 * pitch).into_iter().filter(|s| s.len() >= 100.0).collect();
        assert_eq!(joined.len(), ys.len());
        let mut sorted = column_rulings;
        sorted.sort_by(|p, q| p.mid().total_cmp(&q.mid()));
        let columns = build_cols(&joined, &sorted, pitch, &lb_transposed);
        let widths: Vec<i64> = columns.iter().map(|c| c.width().round() as i64).collect();
        assert_eq!(widths, vec![40, 140, 140]);
        assert!(columns.iter().all(|c| c.rows.len() == 11));
    }

    #[test]
    fn a_drawn_page_of_two_blocks_is_found_and_its_rows_numbered_on() {
        // two blocks of 10 move rows side by side under a shaded heading row
        let ys = row_ys(28, 10);
        let mut lb = Bin::new(800, 400);
        draw_block(&mut lb, 20, &ys, &[]);
        draw_block(&mut lb, 420, &ys, &[]);
        let mut b = lb.clone();
        draw_block(&mut b, 20, &ys, &(1..=10).map(|n| (n as usize, n)).collect::<Vec<_>>());
        draw_block(&mut b, 420, &ys, &(1..=10).map(|n| (n as usize, n + 10)).collect::<Vec<_>>());
        for left in [20, 420] {
            fill(&mut b, left + 2, 102, left + 320, 128);
        }
        let Grid::Found { cells, blocks, pitch, .. } =
            analyze(&b, &lb, &GrayImage::from_pixel(800, 400, image::Luma([255])))
        else {
            panic!("no table found");
        };
        assert!((pitch - 20.0).abs() < 0.5);
        assert_eq!(blocks.len(), 2);
        assert_eq!(cells.len(), 40);
        let firsts: Vec<(u32, Side, i64, i64)> = cells
            .iter()
            .filter(|c| c.mv == 1 || c.mv == 11)
            .map(|c| (c.mv, c.side, c.bx[0].round() as i64, c.bx[1].round() as i64))
            .collect();
        assert_eq!(
            firsts,
            vec![
                (1, Side::White, 61, 129),
                (1, Side::Black, 201, 129),
                (11, Side::White, 461, 129),
                (11, Side::Black, 601, 129)
            ]
        );
    }

    #[test]
    fn printed_numbers_in_number_columns_the_glyphs_binary_fills_with_their_shade_are_read() {
        // two blocks of 10 move rows, White | No | Black, under a heading row; each number column
        // shaded 150 on paper 240, its numbers printed at 30 in the shade; the glyphs' binary is
        // solid there, so by their glyphs no column holds numbers
        let ys = row_ys(28, 10);
        let lefts = [20, 360];
        let mut lb = Bin::new(700, 400);
        for left in lefts {
            draw_block_of_columns(&mut lb, left, &[140, 40, 140], &ys, &[]);
        }
        let mut numbered = lb.clone();
        for (k, left) in lefts.into_iter().enumerate() {
            for row in 1..=10 {
                let number = row + 10 * k;
                for i in 0..number.to_string().len() {
                    let x = left + 150 + 7 * i;
                    fill(&mut numbered, x, ys[row] + 7, x + 4, ys[row] + 15);
                }
            }
        }
        let (top, bottom) = (ys[1] + 2, ys[ys.len() - 1]);
        let in_shade = |x: usize, y: usize| {
            lefts.iter().any(|&left| (left + 142..left + 180).contains(&x)) && (top..bottom).contains(&y)
        };
        let grey = GrayImage::from_fn(700, 400, |x, y| {
            let (x, y) = (x as usize, y as usize);
            let level = match (lb.get(x, y), numbered.get(x, y), in_shade(x, y)) {
                (false, true, _) => 30,
                (false, false, true) => 150,
                _ => 240,
            };
            image::Luma([level])
        });
        let mut b = numbered.clone();
        for left in lefts {
            fill(&mut b, left + 142, top, left + 180, bottom);
        }
        let Grid::Found { cells, blocks, .. } = analyze(&b, &lb, &grey) else {
            panic!("no table found");
        };
        let mut found: Vec<(u32, u32)> = blocks.iter().map(|b| (b.first, b.rows)).collect();
        found.sort_unstable();
        assert_eq!(found, vec![(1, 10), (11, 10)]);
        assert_eq!(cells.len(), 40);
        let first_white = cells.iter().find(|c| c.mv == 1 && c.side == Side::White).map(|c| c.bx[0].round() as i64);
        assert_eq!(first_white, Some(21));
    }

    /// The White and Black cells of move 1 (left x, top y) on a page of two blocks of columns
    /// `widths` (pitch 20 px), each with its numbers in its first column.
    fn first_cells_of_two_blocks(widths: &[usize]) -> Vec<(u32, Side, i64, i64)> {
        let ys = row_ys(28, 10);
        let block_w = widths.iter().sum::<usize>() + 40;
        let mut lb = Bin::new(2 * block_w + 60, 400);
        let mut b = lb.clone();
        for (k, left) in [20, 20 + block_w].into_iter().enumerate() {
            draw_block_of_columns(&mut lb, left, widths, &ys, &[]);
            let numbers: Vec<(usize, u32)> = (1..=10).map(|n| (n as usize, n + 10 * k as u32)).collect();
            draw_block_of_columns(&mut b, left, widths, &ys, &numbers);
        }
        let grey = GrayImage::from_pixel(lb.w as u32, 400, image::Luma([255]));
        let Grid::Found { cells, .. } = analyze(&b, &lb, &grey) else {
            panic!("no table found");
        };
        cells
            .iter()
            .filter(|c| c.mv == 1)
            .map(|c| (c.mv, c.side, c.bx[0].round() as i64, c.bx[1].round() as i64))
            .collect()
    }

    #[test]
    fn a_clock_column_two_thirds_as_wide_as_the_moves_is_no_move_column() {
        // No | White | time | Black | time, moves 3 pitches wide, each clock 0.63 of that: by
        // width alone White's pairs with its clock column as well as with Black's
        let firsts = first_cells_of_two_blocks(&[40, 60, 38, 60, 38]);
        assert_eq!(firsts, vec![(1, Side::White, 61, 128), (1, Side::Black, 159, 128)]);
    }

    #[test]
    fn a_number_column_three_quarters_as_wide_as_the_moves_is_found_beyond_a_clock_column() {
        // No | time | White | Black | time, the number column 0.73 of the moves' width
        let firsts = first_cells_of_two_blocks(&[44, 38, 60, 60, 38]);
        assert_eq!(firsts, vec![(1, Side::White, 103, 129), (1, Side::Black, 163, 129)]);
    }

    #[test]
    fn two_digit_numbers_filling_a_narrow_number_column_count_as_printed() {
        // a column 15 px wide, rows 14 px high, each number's two digits from ruling to ruling
        let mut b = Bin::new(60, 200);
        let rows: Vec<Row> =
            (0..10).map(|r| (h_line(20.0 + 14.0 * r as f64), h_line(34.0 + 14.0 * r as f64))).collect();
        let column = Column {
            left: h(20.0, 0.0, 0.0, 200.0),
            right: h(35.0, 0.0, 0.0, 200.0),
            left_ruling: 0,
            right_ruling: 1,
            rows,
        };
        for r in 0..10 {
            let top = 24 + 14 * r;
            fill(&mut b, 21, top, 27, top + 7);
            fill(&mut b, 29, top, 35, top + 7);
        }
        let cell = column.cell(&column.rows[0].0, &column.rows[0].1);
        assert_eq!(glyph_height(&b, cell), None, "the digits touch the searched area's sides");
        assert_eq!(printed_share(&b, &column), 1.0);
        // a ruling down the searched area is no printed number
        let mut ruled = Bin::new(60, 200);
        fill(&mut ruled, 23, 0, 25, 200);
        assert_eq!(printed_share(&ruled, &column), 0.0);
    }

    /// Draws one ruled column per block, 320 px wide from each of `lefts` (the blocks sharing their
    /// rulings where they touch), rows at `ys`, and each row's printed number (row index, number)
    /// centred in the column, between White's move and Black's with no ruling between them.
    fn draw_blocks_numbered_in_the_middle(bin: &mut Bin, lefts: &[usize], ys: &[usize], numbers: &[(usize, u32)]) {
        let (top, bottom) = (ys[0], ys[ys.len() - 1] + 2);
        for &left in lefts {
            for x in [left, left + 320] {
                fill(bin, x, top, x + 2, bottom);
            }
            for &y in ys {
                fill(bin, left, y, left + 322, y + 2);
            }
            for &(row, number) in numbers {
                let digits = number.to_string().len();
                let x0 = left + 161 - (4 + 7 * (digits - 1)) / 2;
                for i in 0..digits {
                    fill(bin, x0 + 7 * i, ys[row] + 7, x0 + 4 + 7 * i, ys[row] + 15);
                }
            }
        }
    }

    #[test]
    fn numbers_printed_in_the_middle_of_a_column_split_it_into_white_and_black() {
        // two blocks of 10 move rows side by side under a heading row, each one ruled column with
        // the numbers in its middle; the writer's moves crowd the first block's numbers
        let ys = row_ys(28, 10);
        let mut lb = Bin::new(720, 400);
        draw_blocks_numbered_in_the_middle(&mut lb, &[20, 340], &ys, &[]);
        let mut b = lb.clone();
        let numbers = |first: u32| (1..=10).map(|r| (r as usize, first + r as u32 - 1)).collect::<Vec<_>>();
        draw_blocks_numbered_in_the_middle(&mut b, &[20], &ys, &numbers(1));
        draw_blocks_numbered_in_the_middle(&mut b, &[340], &ys, &numbers(11));
        for (r, &y) in ys[1..11].iter().enumerate() {
            // a move of letters 12-15 px high on either side of the number, Black's close to it
            let height = 12 + r % 4;
            fill(&mut b, 70, y + 17 - height, 120, y + 17);
            fill(&mut b, 196, y + 17 - height, 240, y + 17);
        }
        let Grid::Found { cells, blocks, .. } = analyze(&b, &lb, &GrayImage::from_pixel(720, 400, image::Luma([255])))
        else {
            panic!("no table found");
        };
        assert_eq!(blocks.len(), 2);
        assert_eq!(cells.len(), 40);
        let first_row: Vec<(u32, Side, i64, i64)> = cells
            .iter()
            .filter(|c| c.mv == 1 || c.mv == 11)
            .map(|c| (c.mv, c.side, c.bx[0].round() as i64, c.bx[2].round() as i64))
            .collect();
        // White's cell ends before the numbers (x 176-187 from the block's left ruling at 20),
        // within half a pitch; Black's starts after them
        for (mv, side, x0, x1) in first_row {
            let left = if mv == 1 { 20 } else { 340 };
            match side {
                Side::White => assert!(x0 == left + 1 && (146..=156).contains(&(x1 - left)), "{mv}w {x0}..{x1}"),
                Side::Black => assert!((168..=178).contains(&(x0 - left)) && x1 == left + 321, "{mv}b {x0}..{x1}"),
            }
        }
    }

    #[test]
    fn two_blocks_in_one_unruled_column_are_parted_at_their_number_zones() {
        // White | No | Black twice, 10 move rows under a heading row, in one ruled column: no
        // column ruling between the blocks nor between the numbers and the moves; every move
        // written, its first letters at the column's left
        let ys = row_ys(28, 10);
        let mut lb = Bin::new(720, 400);
        rule(&mut lb, &ys, (20, 662), &[20, 660], (ys[0], ys[ys.len() - 1] + 2));
        let mut b = lb.clone();
        for (k, left) in [20usize, 340].into_iter().enumerate() {
            let rows = BlockDrawing { left, first: 10 * k + 1, number_at: 161, digits_top: 7 };
            rows.draw(&mut b, &ys[1..11], &[40, 52, 64, 206, 218, 230], 12);
        }
        let (cells, blocks) = cells_and_blocks_found(&b, &lb);
        assert_eq!(blocks, [(1, 10), (11, 10)]);
        assert_eq!(cells, 40);
    }

    /// The first moves of the blocks found, and the count of cells, in three blocks White | No |
    /// Black side by side, each `width` px wide, 10 move rows under a heading row, in one ruled
    /// column: no column ruling between the blocks nor between the numbers and the moves; every
    /// move written as three letters 12-16 px high on either side of the number (its letters at
    /// `letters` right of the block's side, the number centred `number_at` right of it).
    fn three_blocks_in_one_unruled_column(width: usize, number_at: usize, letters: &[usize]) -> (Vec<u32>, usize) {
        let ys = row_ys(28, 10);
        let right = 20 + 3 * width;
        let mut lb = Bin::new(right + 60, 400);
        rule(&mut lb, &ys, (20, right + 2), &[20, right], (ys[0], ys[ys.len() - 1] + 2));
        let mut b = lb.clone();
        for k in 0..3 {
            let rows = BlockDrawing { left: 20 + k * width, first: 10 * k + 1, number_at, digits_top: 7 };
            rows.draw(&mut b, &ys[1..11], letters, 12);
        }
        let (cells, blocks) = cells_and_blocks_found(&b, &lb);
        (blocks.iter().map(|b| b.0).collect(), cells)
    }

    #[test]
    fn three_blocks_in_one_unruled_column_are_parted_at_their_number_zones() {
        let found = three_blocks_in_one_unruled_column(320, 161, &[40, 52, 64, 206, 218, 230]);
        assert_eq!(found, (vec![1, 11, 21], 60));
    }

    #[test]
    fn three_narrow_blocks_in_one_unruled_column_are_parted_at_their_number_zones() {
        // each block 166 px wide (8.3 pitches, a score sheet of 27 rows a block): its third of
        // the column holds two moves of 3.7 pitches and the number between
        let found = three_blocks_in_one_unruled_column(166, 83, &[10, 22, 34, 100, 112, 124]);
        assert_eq!(found, (vec![1, 11, 21], 60));
    }

    #[test]
    fn underlined_rows_of_blocks_parted_by_a_gap_are_found_from_their_first_row() {
        // two blocks of 10 rows ruled as underlines (none above the first row), 60 px apart, a
        // rule before Black's moves the only column ruling; the numbers printed at each row's
        // left, in the first block crowded by the writer's strokes in four rows (its own number
        // zone is not found: it is the second block's, across the gap)
        let underlines: Vec<usize> = (1..=10).map(|r| 100 + 20 * r).collect();
        let mut lb = Bin::new(900, 400);
        for left in [20usize, 460] {
            for &y in &underlines {
                fill(&mut lb, left, y, left + 380, y + 2);
            }
            fill(&mut lb, left + 190, 100, left + 192, 302);
        }
        let mut b = lb.clone();
        for (k, left) in [20usize, 460].into_iter().enumerate() {
            for (r, &bottom) in underlines.iter().enumerate() {
                let number = 10 * k + r + 1;
                for i in 0..number.to_string().len() {
                    fill(&mut b, left + 6 + 7 * i, bottom - 13, left + 10 + 7 * i, bottom - 4);
                }
                if k == 0 && r % 2 == 1 && r < 9 {
                    // a stroke from the number into the move
                    fill(&mut b, left + 6, bottom - 9, left + 30, bottom - 7);
                }
                for (i, x) in
                    [left + 45, left + 57, left + 69, left + 205, left + 217, left + 229].into_iter().enumerate()
                {
                    let height = 12 + (r + i) % 5;
                    fill(&mut b, x, bottom - 2 - height, x + 6, bottom - 2);
                }
            }
        }
        let Grid::Found { cells, blocks, .. } = analyze(&b, &lb, &GrayImage::from_pixel(900, 400, image::Luma([255])))
        else {
            panic!("no table found");
        };
        let mut firsts: Vec<(u32, u32)> = blocks.iter().map(|b| (b.first, b.rows)).collect();
        firsts.sort_unstable();
        assert_eq!(firsts, [(1, 10), (11, 10)]);
        assert_eq!(cells.len(), 40);
    }

    #[test]
    fn an_underlined_first_rows_number_of_bold_digits_blurred_together_is_read_as_its_digits() {
        // a block of 10 rows ruled as underlines (none above the first row), a rule before
        // Black's moves the only column ruling; its numbers 11-20 printed bold, each one solid
        // mark 9 px a digit wide and 9 px high at the row's left
        let underlines: Vec<usize> = (1..=10).map(|r| 100 + 20 * r).collect();
        let mut lb = Bin::new(500, 400);
        for &y in &underlines {
            fill(&mut lb, 20, y, 400, y + 2);
        }
        fill(&mut lb, 210, 100, 212, 302);
        let mut b = lb.clone();
        for (r, &bottom) in underlines.iter().enumerate() {
            fill(&mut b, 26, bottom - 13, 26 + 18, bottom - 4);
            for (i, x) in [65usize, 77, 89, 225, 237, 249].into_iter().enumerate() {
                let height = 12 + (r + i) % 5;
                fill(&mut b, x, bottom - 2 - height, x + 6, bottom - 2);
            }
        }
        let Grid::Found { cells, blocks, .. } = analyze(&b, &lb, &GrayImage::from_pixel(500, 400, image::Luma([255])))
        else {
            panic!("no table found");
        };
        assert_eq!(blocks.iter().map(|b| b.rows).collect::<Vec<_>>(), [10]);
        assert_eq!(cells.len(), 20);
    }

    /// Full grids of 10 rows from y 100, White | Black, at `lefts` with White's and Black's column
    /// `widths`, each number printed inside White's cell at its left; in block `crowded` the
    /// writer's strokes run from the number into the move in four rows. Returns the glyphs' and
    /// the rulings' binaries.
    fn blocks_numbered_in_whites_cell(lefts: &[usize], widths: &[(usize, usize)], crowded: usize) -> (Bin, Bin) {
        let tops: Vec<usize> = (0..=10).map(|r| 100 + 20 * r).collect();
        let mut lb = Bin::new(900, 400);
        for (&left, &(white, black)) in lefts.iter().zip(widths) {
            for &y in &tops {
                fill(&mut lb, left, y, left + white + black, y + 2);
            }
            for x in [left, left + white, left + white + black - 2] {
                fill(&mut lb, x, 100, x + 2, 302);
            }
        }
        let mut b = lb.clone();
        for (k, (&left, &(white, _))) in lefts.iter().zip(widths).enumerate() {
            for (r, &top) in tops[..10].iter().enumerate() {
                let number = 10 * k + r + 1;
                for i in 0..number.to_string().len() {
                    fill(&mut b, left + 6 + 7 * i, top + 7, left + 10 + 7 * i, top + 16);
                }
                if k == crowded && r % 2 == 1 && r < 9 {
                    fill(&mut b, left + 6, top + 11, left + 30, top + 13);
                }
                for (i, x) in [45, 57, 69, white + 15, white + 27, white + 39].into_iter().enumerate() {
                    let height = 12 + (r + i) % 5;
                    fill(&mut b, left + x, top + 18 - height, left + x + 6, top + 18);
                }
            }
        }
        (b, lb)
    }

    #[test]
    fn a_number_zone_is_copied_across_the_gap_between_blocks_ruled_each_on_its_own() {
        // two blocks 24 px apart (row rulings joined across the gap are no ink there), the second
        // block's numbers crowded: its own number zone is not found, it is the first block's
        let (b, lb) = blocks_numbered_in_whites_cell(&[20, 424], &[(190, 190), (190, 190)], 1);
        assert_eq!(cells_and_blocks_found(&b, &lb), (40, vec![(1, 10), (11, 10)]));
    }

    #[test]
    fn a_number_zone_is_copied_to_a_block_a_little_wider_where_its_numbers_show_in_some_rows() {
        // the second block, touching the first, is printed 10 % wider and its numbers crowded
        let (b, lb) = blocks_numbered_in_whites_cell(&[20, 400], &[(190, 190), (209, 209)], 1);
        assert_eq!(cells_and_blocks_found(&b, &lb), (40, vec![(1, 10), (11, 10)]));
    }

    const BOTH_PRINTED: PrintedSides = PrintedSides { left: true, right: true };

    #[test]
    fn a_clock_column_is_parted_from_the_heading_beside_the_printed_side_where_the_other_is_virtual() {
        // the form: a clock column 110..170 headed by a clock 130..150, White's moves 170..270
        // headed by "White" 195..245; the column found starts at a number zone's reach, 100
        let (clock, white) = ([130.0, 100.0, 150.0, 114.0], [195.0, 101.0, 245.0, 113.0]);
        let left_virtual = PrintedSides { left: false, right: true };
        assert_eq!(
            move_part_beside_a_clock(&[clock, white], [false; 2], 100.0, 270.0, left_virtual, 20.0),
            Some(MovePart { from: 70.0, to: 170.0 })
        );
        // measured from both sides, the clock's part comes out too wide for one
        assert_eq!(move_part_beside_a_clock(&[clock, white], [false; 2], 100.0, 270.0, BOTH_PRINTED, 20.0), None);
    }

    #[test]
    fn a_column_with_neither_side_printed_is_parted_in_the_gap_between_its_heading_words() {
        // an open form: "Negras" 161..204 over Black's moves 163..212, "Time" 208..231 over the
        // clock 212..240; the column found runs from the number zone's reach, 144, to 233
        let (black, time) = ([161.0, 245.0, 204.0, 256.0], [208.0, 246.0, 231.0, 253.0]);
        let virtual_sides = PrintedSides { left: false, right: false };
        assert_eq!(
            move_part_beside_a_clock(&[black, time], [false; 2], 144.0, 233.0, virtual_sides, 15.8),
            Some(MovePart { from: 0.0, to: 62.0 })
        );
        // where a side is printed, words off its centring estimate part nothing
        let right_printed = PrintedSides { left: false, right: true };
        assert_eq!(move_part_beside_a_clock(&[black, time], [false; 2], 144.0, 233.0, right_printed, 15.8), None);
    }

    #[test]
    fn a_clock_heading_beside_the_moves_heading_parts_the_column_where_each_is_centred() {
        // a column 100..300 headed by a clock 120..140 and "White" 205..255: the clock's part
        // 100..160, the moves' 160..300
        let clock = [120.0, 100.0, 140.0, 114.0];
        let white = [205.0, 101.0, 255.0, 113.0];
        assert_eq!(
            move_part_beside_a_clock(&[clock, white], [false; 2], 100.0, 300.0, BOTH_PRINTED, 20.0),
            Some(MovePart { from: 60.0, to: 200.0 })
        );
        // the clock at the right: the moves' part from the left side
        let black = [145.0, 101.0, 195.0, 113.0];
        let clock = [260.0, 100.0, 280.0, 114.0];
        assert_eq!(
            move_part_beside_a_clock(&[black, clock], [false; 2], 100.0, 300.0, BOTH_PRINTED, 20.0),
            Some(MovePart { from: 0.0, to: 140.0 })
        );
        // (a clock pictogram 2.3 times as tall as the word's capitals)
        let (black, tall_clock) = ([145.0, 105.0, 195.0, 115.0], [260.0, 94.0, 280.0, 117.0]);
        assert_eq!(
            move_part_beside_a_clock(&[black, tall_clock], [false; 2], 100.0, 300.0, BOTH_PRINTED, 20.0),
            Some(MovePart { from: 0.0, to: 140.0 })
        );
        // two words of one centred title, a word and a small mark, one word: nothing parted
        let (white, player) = ([150.0, 101.0, 190.0, 113.0], [200.0, 101.0, 250.0, 113.0]);
        assert_eq!(move_part_beside_a_clock(&[white, player], [false; 2], 100.0, 300.0, BOTH_PRINTED, 20.0), None);
        let mark = [126.0, 105.0, 132.0, 111.0];
        assert_eq!(
            move_part_beside_a_clock(
                &[mark, [205.0, 101.0, 255.0, 113.0]],
                [false; 2],
                100.0,
                300.0,
                BOTH_PRINTED,
                20.0
            ),
            None
        );
        assert_eq!(
            move_part_beside_a_clock(&[[175.0, 101.0, 225.0, 113.0]], [false; 2], 100.0, 300.0, BOTH_PRINTED, 20.0),
            None
        );
    }

    #[test]
    fn a_band_shaded_across_the_column_broken_in_two_names_no_clock() {
        // a column 100..260 whose heading is one shaded band, its outline broken by a scan's
        // grain into a piece 103..133 and one 138..257, both the band's height
        let (left_piece, right_piece) = ([103.0, 100.0, 133.0, 120.0], [138.0, 102.0, 257.0, 121.0]);
        assert_eq!(
            move_part_beside_a_clock(&[left_piece, right_piece], [false; 2], 100.0, 260.0, BOTH_PRINTED, 20.0),
            None
        );
        // a clock's word and the moves' word, each clear of the column's sides, part it
        let (clock, black) = ([110.0, 104.0, 130.0, 116.0], [165.0, 104.0, 225.0, 116.0]);
        assert_eq!(
            move_part_beside_a_clock(&[clock, black], [false; 2], 100.0, 260.0, BOTH_PRINTED, 20.0),
            Some(MovePart { from: 35.0, to: 160.0 })
        );
        // so do "Blancas" and "Time", half a pitch high, cramped against the sides of a narrow
        // column 100..180
        let (blancas, time) = ([103.0, 100.0, 149.0, 110.0], [152.0, 100.0, 178.0, 109.0]);
        assert_eq!(
            move_part_beside_a_clock(&[blancas, time], [false; 2], 100.0, 180.0, BOTH_PRINTED, 20.0),
            Some(MovePart { from: 0.0, to: 51.0 })
        );
    }

    /// The x spans of the word groups found in a heading box x 100..300, y 10..40 (pitch 20)
    /// holding the ink `pieces` (x0, y0, x1, y1 each).
    fn heading_word_spans(pieces: &[[usize; 4]]) -> Vec<(f64, f64)> {
        let mut b = Bin::new(320, 60);
        for &[x0, y0, x1, y1] in pieces {
            fill(&mut b, x0, y0, x1, y1);
        }
        heading_word_spans_in(&b)
    }

    /// The x spans of the word groups found in the heading box x 100..300, y 10..40 (pitch 20) of
    /// a drawn binary `b`.
    fn heading_word_spans_in(b: &Bin) -> Vec<(f64, f64)> {
        heading_word_groups(b, [100.0, 10.0, 300.0, 40.0], 20.0).iter().map(|g| (g[0], g[2])).collect()
    }

    #[test]
    fn a_clock_against_the_headings_ruling_is_a_heading_glyph_and_a_writers_stroke_reaching_up_is_none() {
        // a word, a clock drawn down to the ruling under the heading, and the top of a writer's
        // stroke from the first row
        let spans = heading_word_spans(&[[205, 20, 255, 30], [120, 22, 141, 40], [160, 33, 164, 40]]);
        assert_eq!(spans, [(120.0, 141.0), (205.0, 255.0)]);
    }

    #[test]
    fn one_heading_word_whose_middle_letters_a_writers_stroke_touches_is_no_two_words() {
        // heading box x 100..300, y 10..40 (pitch 20): groups at 120..141 and 205..235, letters
        // 20..30 high; between them a letter joined to a writer's stroke from the first row
        // (170..176, from the letters' top down to the box's foot) or only a stroke's low top
        let groups = ([120.0, 20.0, 141.0, 30.0], [205.0, 20.0, 235.0, 30.0]);
        // (the groups' letters and one more piece of ink 6 px wide at x0, y0..y1)
        let with = |x0: usize, y0: usize, y1: usize| {
            let mut b = Bin::new(320, 60);
            fill(&mut b, 120, 20, 141, 30);
            fill(&mut b, 205, 20, 235, 30);
            fill(&mut b, x0, y0, x0 + 6, y1);
            letters_between(&b, [100.0, 10.0, 300.0, 40.0], &groups.0, &groups.1, 20.0)
        };
        assert!(with(170, 20, 40));
        assert!(!with(170, 33, 40));
        // (ink beside the groups, not between them, says nothing)
        assert!(!with(260, 20, 40));
        // (a printed mark between two words, clear of the box's foot: two words)
        assert!(!with(170, 20, 30));
    }

    #[test]
    fn heading_words_printed_down_to_the_first_rows_ruling_are_heading_glyphs() {
        // "Time" and "White" printed 7 px high, their feet on the box's last searched row (a form
        // whose heading's words stand on the ruling under them), and the top of a writer's stroke
        // from the first row beside them
        let spans = heading_word_spans(&[[120, 31, 141, 40], [205, 31, 235, 40], [170, 32, 174, 40]]);
        assert_eq!(spans, [(120.0, 141.0), (205.0, 235.0)]);
    }

    #[test]
    fn of_two_blocks_sharing_a_column_the_one_whose_moves_pair_less_alike_goes() {
        // No 262 | 298 | 398 | No 497 | 531 | 633: the column 398..497 taken twice, as two runs of
        // its rows between pieces of its rulings, as block 1's Black and, across the next
        // block's number column, as White's of a block whose Black is the next block's White
        let column = |left: f64, right: f64, ruling: usize| Column {
            left: h(left, 0.0, 100.0, 600.0),
            right: h(right, 0.0, 100.0, 600.0),
            left_ruling: ruling,
            right_ruling: ruling + 1,
            rows: vec![(h_line(100.0), h_line(120.0))],
        };
        let cols = [
            column(262.0, 298.0, 0),
            column(298.0, 398.0, 1),
            column(398.0, 497.0, 2),
            column(398.0, 497.5, 7),
            column(497.0, 531.0, 3),
            column(531.0, 633.0, 4),
        ];
        let block = |number, white, black| BlockColumns { number, white, black, other_number: None };
        let kept = drop_subs_sharing_columns(vec![block(0, 1, 2), block(4, 3, 5)], &cols);
        assert_eq!(kept.iter().map(|s| (s.number, s.white, s.black)).collect::<Vec<_>>(), [(0, 1, 2)]);
        // (a clock column paired with the White beside it across the number column goes: the
        // block with the wider move columns stays, whichever comes first)
        let clock_beside =
            [column(0.0, 40.0, 0), column(40.0, 70.0, 1), column(70.0, 240.0, 2), column(240.0, 410.0, 3)];
        for subs in [vec![block(1, 0, 2), block(1, 2, 3)], vec![block(1, 2, 3), block(1, 0, 2)]] {
            let kept = drop_subs_sharing_columns(subs, &clock_beside);
            assert_eq!(kept.iter().map(|s| (s.white, s.black)).collect::<Vec<_>>(), [(2, 3)]);
        }
    }

    #[test]
    fn a_shaded_box_behind_a_heading_word_is_a_word_group_apart_from_the_word_printed_against_it() {
        // "Black" left white in a dark box 120..200, y 12..38, its letters' holes in it, and
        // "Time" printed beside it, its first letter against the box's edge
        let mut b = Bin::new(320, 60);
        fill(&mut b, 120, 12, 200, 38);
        for x in [130, 145, 160, 175] {
            for y in 18..32 {
                b.d[y * b.w + x..y * b.w + x + 8].fill(0);
            }
        }
        for x in [200, 209, 217, 225] {
            fill(&mut b, x, 20, x + 5, 30);
        }
        assert_eq!(heading_word_spans_in(&b), [(120.0, 200.0), (209.0, 230.0)]);
        // (a piece of the band its letters cut off, less inked, lying within the box's top and
        // foot and beyond, is the box's)
        let mut cut = Bin::new(320, 60);
        fill(&mut cut, 120, 12, 185, 38);
        fill(&mut cut, 185, 12, 200, 14);
        fill(&mut cut, 185, 36, 200, 38);
        for y in (17..33).step_by(3) {
            fill(&mut cut, 188, y, 250, y + 1);
        }
        fill(&mut cut, 188, 17, 189, 33);
        assert_eq!(heading_word_spans_in(&cut), [(120.0, 250.0)]);
        // (the box stands more than twice as tall as the word: a box, not a clock beside a word)
        let [shaded_box, time] = [[120.0, 12.0, 200.0, 38.0], [209.0, 20.0, 230.0, 30.0]];
        let part = |shaded| move_part_beside_a_clock(&[shaded_box, time], shaded, 115.0, 234.0, BOTH_PRINTED, 20.0);
        assert_eq!(part([true, false]), Some(MovePart { from: 0.0, to: 90.0 }));
        assert_eq!(part([false; 2]), None);
    }

    #[test]
    fn a_heading_band_shaded_across_the_column_has_its_words_in_the_letters_printed_white() {
        // a dark band 102..298 x 14..38 across the heading box 100..300 (pitch 20): "White" left
        // white at 150..183 in letters binarized in pieces, a clock drawn white (a ring) at
        // 262..278; between them the band reaches the box's foot
        let mut b = Bin::new(320, 60);
        fill(&mut b, 102, 14, 298, 38);
        let clear = |b: &mut Bin, x0: usize, y0: usize, x1: usize, y1: usize| {
            for y in y0..y1 {
                b.d[y * b.w + x0..y * b.w + x1].fill(0);
            }
        };
        for x in [150, 160, 170, 180] {
            clear(&mut b, x, 20, x + 2, 25);
            clear(&mut b, x + 1, 26, x + 3, 31);
        }
        clear(&mut b, 262, 19, 278, 21);
        clear(&mut b, 262, 30, 278, 32);
        clear(&mut b, 262, 19, 264, 32);
        clear(&mut b, 276, 19, 278, 32);
        let groups = heading_word_groups(&b, [100.0, 10.0, 300.0, 40.0], 20.0);
        assert_eq!(groups.iter().map(|g| (g[0], g[2])).collect::<Vec<_>>(), [(150.0, 183.0), (262.0, 278.0)]);
        // (the band behind both is no letter between them)
        assert!(!letters_between(&b, [100.0, 10.0, 300.0, 40.0], &groups[0], &groups[1], 20.0));
        let part = move_part_beside_a_clock(&groups, [false; 2], 100.0, 300.0, BOTH_PRINTED, 20.0);
        // (the boundary centring both: moves 100..236.5, the clock beyond)
        assert_eq!(part, Some(MovePart { from: 0.0, to: 136.5 }));
    }

    /// The cells `analyze` finds in a table No | clock, White | Black, clock ruled at x 20, 60, 300
    /// and 540 only, its rows ruled at `ys` (10 rows numbered from the second ruling), its
    /// heading's words the boxes `heading`; the times written in the clock parts (60..120 and
    /// 480..540) as well as the moves.
    fn cells_beside_unruled_clocks(ys: &[usize], heading: &[[usize; 4]]) -> Vec<GCell> {
        cells_beside_unruled_clocks_shaded(ys, heading, &[])
    }

    /// [`cells_beside_unruled_clocks`] with boxes `shaded` light grey (232 on paper at 250) in
    /// the grey page only, as a binary loses them.
    fn cells_beside_unruled_clocks_shaded(ys: &[usize], heading: &[[usize; 4]], shaded: &[[usize; 4]]) -> Vec<GCell> {
        cells_in_blocks_beside_unruled_clocks(1, ys, heading, shaded, &[])
    }

    /// [`cells_beside_unruled_clocks_shaded`] in `blocks` such tables side by side, each 540 px
    /// right of the last and numbered on from it; the heading's ink inside the boxes `light`
    /// is the shade's grey in the grey page, not print (pieces of a light band the binary kept).
    fn cells_in_blocks_beside_unruled_clocks(
        blocks: usize,
        ys: &[usize],
        heading: &[[usize; 4]],
        shaded: &[[usize; 4]],
        light: &[[usize; 4]],
    ) -> Vec<GCell> {
        let width = 60 + 540 * blocks;
        let mut lb = Bin::new(width, 400);
        for block in 0..blocks {
            let shift = 540 * block;
            let xs = [20 + shift, 60 + shift, 300 + shift, 540 + shift];
            rule(&mut lb, ys, (20 + shift, 542 + shift), &xs, (ys[0], ys[ys.len() - 1] + 2));
        }
        let mut b = lb.clone();
        for word in heading {
            fill(&mut b, word[0], word[1], word[2], word[3]);
        }
        for block in 0..blocks {
            let numbers = BlockDrawing { left: 20 + 540 * block, first: 1 + 10 * block, number_at: 20, digits_top: 6 };
            numbers.draw(&mut b, &ys[1..11], &[50, 62, 74, 110, 122, 134, 290, 302, 314, 470, 482], 10);
        }
        let mut grey = GrayImage::from_pixel(width as u32, 400, image::Luma([250]));
        for (x, y, p) in grey.enumerate_pixels_mut() {
            let (x, y) = (x as usize, y as usize);
            if shaded.iter().any(|s| (s[0]..s[2]).contains(&x) && (s[1]..s[3]).contains(&y)) {
                p.0[0] = 232;
            }
            if b.get(x, y) {
                let inside = |s: &[usize; 4]| (s[0]..s[2]).contains(&x) && (s[1]..s[3]).contains(&y);
                p.0[0] = if light.iter().any(inside) { 232 } else { 60 };
            }
        }
        let Grid::Found { cells, .. } = analyze(&b, &lb, &grey) else { panic!("no table found") };
        cells
    }

    /// Asserts that each of `cells` holds only its column's moves' part: White's 120..300,
    /// Black's 300..480.
    fn assert_moves_parts_only<'a>(cells: impl IntoIterator<Item = &'a GCell>) {
        for cell in cells {
            let (from, to) = if cell.side == Side::White { (120.0, 301.0) } else { (300.0, 480.0) };
            assert!((cell.bx[0] - from).abs() <= 4.0 && (cell.bx[2] - to).abs() <= 4.0, "{cell:?}");
        }
    }

    #[test]
    fn unruled_clock_columns_named_in_the_heading_are_left_out_of_the_move_cells() {
        // a heading row 100..130 over 10 rows 20 px high
        let ys: Vec<usize> = std::iter::once(100).chain((0..=10).map(|r| 130 + 20 * r)).collect();
        let cells = cells_beside_unruled_clocks(
            &ys,
            &[
                [30, 111, 50, 120],
                [80, 108, 100, 122],
                [185, 110, 235, 120],
                [365, 110, 415, 120],
                [500, 108, 520, 122],
            ],
        );
        assert_eq!(cells.len(), 20);
        assert_moves_parts_only(&cells);
    }

    /// A column from x `left` to `right` whose rulings run 202 px down from `top`, one row of
    /// 200 px across it (a column's width is measured at its rows' middle).
    fn ruled_column(left: f64, right: f64, top: f64) -> Column {
        Column {
            left: h(left, 0.0, top, top + 202.0),
            right: h(right, 0.0, top, top + 202.0),
            left_ruling: 0,
            right_ruling: 0,
            rows: vec![(h(top, 0.0, left, right), h(top + 200.0, 0.0, left, right))],
        }
    }

    /// The move parts `find_unruled_clock_columns` finds in a block No | White | Black of 10 rows
    /// 20 px high from y 130 under an unruled heading, its words printed at y 104..118 (White's
    /// clock 80..100 beside its word 185..235, Black's word 365..415 beside its clock 500..520),
    /// the block's heading row's top at `heading_top`, a ruling printed there where `ruled`.
    fn move_parts_under_a_heading_from(heading_top: Option<f64>, ruled: bool) -> [Option<MovePart>; 2] {
        let ys: Vec<usize> = (0..=10).map(|r| 130 + 20 * r).collect();
        let mut lb = Bin::new(600, 400);
        rule(&mut lb, &ys, (20, 542), &[20, 60, 300, 540], (130, 332));
        if let (Some(y), true) = (heading_top, ruled) {
            fill(&mut lb, 20, y as usize - 1, 542, y as usize + 1);
        }
        let mut b = lb.clone();
        for word in [[80, 104, 100, 118], [185, 106, 235, 116], [365, 106, 415, 116], [500, 104, 520, 118]] {
            fill(&mut b, word[0], word[1], word[2], word[3]);
        }
        let grey = GrayImage::from_pixel(600, 400, image::Luma([250]));
        let cols =
            vec![ruled_column(21.0, 61.0, 130.0), ruled_column(61.0, 301.0, 130.0), ruled_column(301.0, 541.0, 130.0)];
        let mut blocks = vec![FoundBlock { heading_top, ..block_of_rows(130.0, 10) }];
        find_unruled_clock_columns(&b, &lb, &lb.transpose(), &grey, &cols, &mut blocks, 20.0);
        blocks[0].move_parts
    }

    #[test]
    fn a_heading_rows_top_placed_by_the_pitch_through_its_words_cuts_none_of_them() {
        let parted = [Some(MovePart { from: 58.0, to: 240.0 }), Some(MovePart { from: 0.0, to: 178.0 })];
        assert_eq!(move_parts_under_a_heading_from(None, false), parted);
        // a heading row dropped from the rows, its top where the pitch puts it, through the
        // words, where no ruling is printed: the words stay whole
        assert_eq!(move_parts_under_a_heading_from(Some(110.0), false), parted);
        // a ruling printed there is the heading's top, and the words under it are the heading's
        assert_eq!(move_parts_under_a_heading_from(Some(100.0), true), parted);
        assert_eq!(move_parts_under_a_heading_from(Some(110.0), true), [None, None]);
    }

    #[test]
    fn a_shaded_bands_edge_the_binary_kept_beside_a_word_names_no_clock() {
        // No | White | Black (x 20, 60, 200, 340) with no column rulings, 10 rows 20 px high from
        // y 130 under a heading band shaded grey across the table (y 98..130); in the binary,
        // White's heading holds "White" at x 90..130 and, against the column's left side, a
        // piece of the band's edge 14 px wide and as high as the band
        let words = [[90, 110, 130, 121], [240, 110, 290, 121]];
        let with_edge = [words[0], words[1], [62, 102, 76, 128]];
        // (the binary's ink is print in the grey page; the band there or none)
        let parts = |heading: &[[usize; 4]], band| move_parts_under_a_shaded_heading(heading, heading, band);
        assert_eq!(parts(&words, 98..130), [None, None]);
        // (the premise: on paper, the same piece beside the word would name a clock beside the
        // moves)
        assert_eq!(parts(&with_edge, 0..0), [Some(MovePart { from: 22.0, to: 140.0 }), None]);
        // in the band, it is the band's edge
        assert_eq!(parts(&with_edge, 98..130), [None, None]);
    }

    /// The move parts `find_unruled_clock_columns` finds in a block No | White | Black (x 20, 60,
    /// 200, 340) of 10 rows 20 px high from y 130, no column rulings, under a heading whose
    /// binary holds `heading`; in the grey page the boxes `dark` are print (60), the rest of the
    /// binary's ink and the band y `band` across the table are the band's grey (200), paper 250.
    fn move_parts_under_a_shaded_heading(
        heading: &[[usize; 4]],
        dark: &[[usize; 4]],
        band: std::ops::Range<u32>,
    ) -> [Option<MovePart>; 2] {
        let ys: Vec<usize> = (0..=10).map(|r| 130 + 20 * r).collect();
        let mut lb = Bin::new(400, 400);
        rule(&mut lb, &ys, (20, 342), &[], (0, 0));
        let mut b = lb.clone();
        for word in heading {
            fill(&mut b, word[0], word[1], word[2], word[3]);
        }
        let inside = |boxes: &[[usize; 4]], x: u32, y: u32| {
            let (x, y) = (x as usize, y as usize);
            boxes.iter().any(|g| (g[0]..g[2]).contains(&x) && (g[1]..g[3]).contains(&y))
        };
        let grey = GrayImage::from_fn(400, 400, |x, y| {
            let in_band = (20..340).contains(&x) && band.contains(&y);
            image::Luma([if inside(dark, x, y) || lb.get(x as usize, y as usize) {
                60
            } else if in_band || b.get(x as usize, y as usize) {
                200
            } else {
                250
            }])
        });
        let cols =
            vec![ruled_column(21.0, 61.0, 130.0), ruled_column(61.0, 201.0, 130.0), ruled_column(201.0, 341.0, 130.0)];
        let mut blocks = vec![block_of_rows(130.0, 10)];
        find_unruled_clock_columns(&b, &lb, &lb.transpose(), &grey, &cols, &mut blocks, 20.0);
        blocks[0].move_parts
    }

    #[test]
    fn two_words_printed_dark_against_a_shaded_headings_sides_name_a_clock() {
        // Black's heading in a light band across the table (y 98..130): "Schwarz" from the
        // column's left side and a clock pictogram against its right side, both printed dark;
        // White's heading one word centred
        let (word, clock) = ([203, 108, 260, 118], [318, 104, 338, 126]);
        let heading = [[110, 108, 150, 118], word, clock];
        let parts = move_parts_under_a_shaded_heading(&heading, &heading, 98..130);
        assert_eq!(parts[0], None);
        let black = parts[1].expect("Black's clock column is left out");
        assert!(black.from <= 2.0 && black.to <= 117.0 && black.to >= 60.0, "{black:?}");
        // (the premise: two groups against the sides the grey shows no print in are the band's
        // pieces, and name nothing)
        assert_eq!(move_parts_under_a_shaded_heading(&heading, &heading[..1], 98..130), [None, None]);
    }

    #[test]
    fn a_band_shaded_under_the_headings_top_and_broken_in_two_names_no_clock() {
        // the band shaded only at y 112..130, paper above it up to the heading's top; the binary
        // keeps Black's band in two pieces from its sides, "Black" printed dark in the second
        let pieces = [[203, 113, 250, 128], [256, 113, 338, 128]];
        let word = [280, 118, 310, 123];
        assert_eq!(move_parts_under_a_shaded_heading(&pieces, &[word], 112..130), [None, None]);
    }

    #[test]
    fn a_heading_rows_words_crossing_its_top_placed_by_the_pitch_are_read_whole() {
        // a heading row 110..130 taken for the block's first row, its top placed by the pitch
        // (no ruling there) 3 px under its words' tops: only a short letter's stroke stays under
        // it; the row reaching higher holds the clock and move words whole
        let words = [
            [80, 107, 100, 121],
            [185, 107, 235, 118],
            [250, 114, 253, 118],
            [365, 107, 415, 118],
            [500, 107, 520, 121],
        ];
        assert_clocks_left_out(move_parts_under_a_first_row_holding(&words));
        // a band shaded above a heading row whose words lie whole in it (y 112..126), joined to
        // them in the binary: the row reaching higher holds one group, the row its own words
        let band = [62, 103, 538, 113];
        let words = [band, [80, 112, 100, 126], [185, 112, 235, 124], [365, 112, 415, 124], [500, 112, 520, 126]];
        assert_clocks_left_out(move_parts_under_a_first_row_holding(&words));
    }

    /// The move parts `find_unruled_clock_columns` finds in a block No | White | Black (x 20, 60,
    /// 300, 540) of 11 rows 20 px high from y 110, the first a heading row with no ruling over
    /// it, whose binary holds `words`.
    fn move_parts_under_a_first_row_holding(words: &[[usize; 4]]) -> [Option<MovePart>; 2] {
        let ys: Vec<usize> = (1..=11).map(|r| 110 + 20 * r).collect();
        let mut lb = Bin::new(600, 400);
        rule(&mut lb, &ys, (20, 542), &[20, 60, 300, 540], (130, 332));
        let mut b = lb.clone();
        for word in words {
            fill(&mut b, word[0], word[1], word[2], word[3]);
        }
        let grey = GrayImage::from_pixel(600, 400, image::Luma([250]));
        let cols =
            vec![ruled_column(21.0, 61.0, 110.0), ruled_column(61.0, 301.0, 110.0), ruled_column(301.0, 541.0, 110.0)];
        let mut blocks = vec![block_of_rows(110.0, 11)];
        find_unruled_clock_columns(&b, &lb, &lb.transpose(), &grey, &cols, &mut blocks, 20.0);
        blocks[0].move_parts
    }

    /// Asserts that White's clock (x 60..120) and Black's (x 480..540) are left out of the
    /// move parts `parts`.
    fn assert_clocks_left_out(parts: [Option<MovePart>; 2]) {
        let [white, black] = parts;
        let (white, black) = (white.expect("White's clock left out"), black.expect("Black's clock left out"));
        assert!(white.from >= 40.0 && white.to >= 235.0, "{white:?}");
        assert!(black.from <= 2.0 && black.to <= 200.0 && black.to >= 115.0, "{black:?}");
    }

    #[test]
    fn a_heading_showing_only_the_clock_word_an_alike_block_shows_is_parted_as_that_block() {
        // two blocks No | White | Black side by side, White 240 px wide: the first's heading
        // shows the moves' word centred at 90 and the clock's at 210, and names the clock
        let cols: Vec<Column> =
            [(20.0, 60.0), (60.0, 300.0), (300.0, 540.0), (560.0, 600.0), (600.0, 840.0), (840.0, 1080.0)]
                .into_iter()
                .map(|(left, right)| ruled_column(left, right, 100.0))
                .collect();
        let moves_part = MovePart { from: 0.0, to: 180.0 };
        let parted_second_block = |second_word_centres: Vec<f64>| {
            let mut first = block_of_rows(100.0, 10);
            first.move_parts[0] = Some(moves_part);
            let mut second = block_of_rows(100.0, 10);
            second.columns = BlockColumns { number: 3, white: 4, black: 5, other_number: None };
            let mut blocks = vec![first, second];
            let shown = |word_centres: Vec<f64>| HeadingShown { two_groups: false, word_centres };
            let headings =
                [[shown(vec![90.0, 210.0]), shown(Vec::new())], [shown(second_word_centres), shown(Vec::new())]];
            part_alike_blocks_alike(&cols, &mut blocks, &headings, 20.0);
            blocks[1].move_parts
        };
        // the second's heading shows one word where the first's clock word stands (its moves'
        // word joined to the first row's ruling by a writer's stroke)
        assert_eq!(parted_second_block(vec![212.0]), [Some(moves_part), None]);
        // one word where the first's moves' word stands, or a word elsewhere, parts nothing
        assert_eq!(parted_second_block(vec![90.0]), [None, None]);
        assert_eq!(parted_second_block(vec![150.0]), [None, None]);
    }

    #[test]
    fn a_first_row_shows_a_headings_two_word_groups_only_where_one_is_printed() {
        // pitch 20: a heading row's words 8 px high, a move written in two parts 14 px high
        let printed = [[40.0, 106.0, 90.0, 114.0], [150.0, 104.0, 166.0, 118.0]];
        let written = [[40.0, 103.0, 90.0, 117.0], [150.0, 103.0, 170.0, 117.0]];
        assert!(shows_two_word_groups(&[], &printed, 20.0, 20.0));
        assert!(!shows_two_word_groups(&[], &written, 20.0, 20.0));
        // the heading above shows them whatever the first row holds; one group, or a speck
        // beside one, is no two
        assert!(shows_two_word_groups(&printed, &written, 20.0, 20.0));
        assert!(!shows_two_word_groups(&printed[..1], &[], 20.0, 20.0));
        assert!(!shows_two_word_groups(&[printed[0], [120.0, 108.0, 124.0, 112.0]], &[], 20.0, 20.0));
        // a heading row 28 px high, taller than the rows, its words printed 14 px high
        assert!(shows_two_word_groups(&[], &written, 20.0, 28.0));
    }

    #[test]
    fn a_blocks_heading_words_off_centre_part_its_columns_as_the_alike_block_parts_its_own() {
        // two blocks under a heading row 100..130; in the second, White's word stands 40 px right
        // of its centre, so that no boundary centres both it and the clock beside it
        let ys: Vec<usize> = std::iter::once(100).chain((0..=10).map(|r| 130 + 20 * r)).collect();
        let first_block =
            [[30, 111, 50, 120], [80, 108, 100, 122], [185, 110, 235, 120], [365, 110, 415, 120], [500, 108, 520, 122]];
        let second_block = first_block.map(|[x0, y0, x1, y1]| [x0 + 540, y0, x1 + 540, y1]);
        let mut heading: Vec<[usize; 4]> = first_block.into_iter().chain(second_block).collect();
        heading[7] = [765, 110, 815, 120];
        let cells = cells_in_blocks_beside_unruled_clocks(2, &ys, &heading, &[], &[]);
        assert_eq!(cells.len(), 40);
        let (first, second): (Vec<&GCell>, Vec<&GCell>) = cells.iter().partition(|c| c.bx[0] < 560.0);
        assert_moves_parts_only(first);
        let shifted_back: Vec<GCell> = second
            .into_iter()
            .map(|c| GCell { bx: [c.bx[0] - 540.0, c.bx[1], c.bx[2] - 540.0, c.bx[3]], ..c.clone() })
            .collect();
        assert_moves_parts_only(&shifted_back);
    }

    #[test]
    fn a_piece_against_a_headings_foot_runs_on_where_a_moves_stroke_goes_on_under_the_ruling() {
        // a heading box over rows 20..40 (pitch 20), its searched rows 23..37; a word printed
        // down to the ruling, its foot in row 40, and the top of a written "D" against the
        // searched rows' foot too, whose stroke goes on from row 42 (the ruling's rows left out
        // of the glyphs' binary)
        let mut b = Bin::new(200, 80);
        fill(&mut b, 105, 31, 120, 41);
        fill(&mut b, 125, 32, 133, 38);
        fill(&mut b, 125, 42, 128, 60);
        fill(&mut b, 131, 42, 133, 55);
        let word = (105, 31, 119, 37, 105);
        let stroke_top = (125, 32, 132, 37, 56);
        assert!(!runs_on_below(&b, &word, 40.0, 20.0));
        assert!(runs_on_below(&b, &stroke_top, 40.0, 20.0));
    }

    #[test]
    fn a_shade_is_edged_where_it_steps_up_to_the_paper_and_not_where_the_light_fades() {
        // a heading's levels, pitch 20: paper at 240, a box shaded at 226 over columns 40..90
        let mut printed = vec![240.0; 200];
        printed[40..90].iter_mut().for_each(|level| *level = 226.0);
        // (a scan's blur: one column half way on each edge)
        (printed[39], printed[90]) = (233.0, 233.0);
        assert!(shade_edges_sharp(&printed, 40..90, 14.0, 20.0));
        // a shade against the column's side has its inner edge only
        assert!(shade_edges_sharp(&printed[40..], 0..50, 14.0, 20.0));
        // a photo's light rising from 226 at the column's side to the paper's 240 over 140 columns
        let faded: Vec<f64> = (0..200).map(|x| (226.0 + 0.1 * x as f64).min(240.0)).collect();
        assert!(!shade_edges_sharp(&faded, 0..40, 12.0, 20.0));
    }

    #[test]
    fn unruled_clock_columns_beside_column_words_in_boxes_shaded_too_light_for_the_binary_are_left_out() {
        // a heading row 100..130 over 10 rows 20 px high: clock pictograms in the binary, the
        // column words printed white in boxes shaded light grey, seen in the grey page only
        let ys: Vec<usize> = std::iter::once(100).chain((0..=10).map(|r| 130 + 20 * r)).collect();
        let (clocks, boxes) =
            ([[80, 108, 100, 122], [500, 108, 520, 122]], [[122, 101, 298, 129], [302, 101, 478, 129]]);
        let cells = cells_beside_unruled_clocks_shaded(&ys, &clocks, &boxes);
        assert_eq!(cells.len(), 20);
        assert_moves_parts_only(&cells);
        // a band shaded across each whole move column is the heading's background: nothing parted
        let bands = [[62, 101, 298, 129], [302, 101, 538, 129]];
        let cells = cells_beside_unruled_clocks_shaded(&ys, &clocks, &bands);
        assert!(cells.iter().all(|c| c.bx[2] - c.bx[0] > 230.0), "{cells:?}");
    }

    #[test]
    fn a_heading_band_the_binary_breaks_into_two_low_pieces_names_no_clock_where_the_grey_shows_it_whole() {
        // a heading row 100..130 over 10 rows 20 px high; Black's heading (column 300..540) a
        // band whose binary kept two pieces reaching the column's sides, 12 and 16 px high (under
        // the height a band's piece is known by), parted where a clock's word would part it
        let ys: Vec<usize> = std::iter::once(100).chain((0..=10).map(|r| 130 + 20 * r)).collect();
        let pieces = [[302, 106, 380, 118], [390, 104, 538, 120]];
        let black_widths = |cells: &[GCell]| -> Vec<f64> {
            cells.iter().filter(|c| c.side == Side::Black).map(|c| c.bx[2] - c.bx[0]).collect()
        };
        // the grey shows the band shaded across the column: Black's cells are whole
        let cells = cells_beside_unruled_clocks_shaded(&ys, &pieces, &[[302, 101, 538, 129]]);
        assert_eq!(cells.len(), 20);
        assert!(black_widths(&cells).iter().all(|&w| w > 230.0), "{cells:?}");
        // paper around the pieces in the grey: two words, a clock's beside the moves'
        let cells = cells_beside_unruled_clocks(&ys, &pieces);
        assert!(black_widths(&cells).iter().all(|&w| w < 200.0), "{cells:?}");
    }

    #[test]
    fn a_light_heading_band_the_binary_breaks_into_pieces_names_no_clock_but_its_dark_word() {
        // a heading row 100..130 over 10 rows 20 px high; White's heading (column 60..300) a
        // light band shaded across the column whose binary kept a piece from the column's left
        // side, holding the column's word printed dark, a speck and a low piece short of its
        // right side: two groups, read as the moves' word and a clock's beside it
        let ys: Vec<usize> = std::iter::once(100).chain((0..=10).map(|r| 130 + 20 * r)).collect();
        let band_pieces = [[62, 104, 210, 122], [236, 108, 244, 113], [262, 108, 277, 115]];
        let word = [150, 108, 200, 118];
        let heading = [band_pieces[0], band_pieces[1], band_pieces[2], word];
        let around_the_word = [[62, 104, 150, 122], [200, 104, 210, 122], [150, 104, 200, 108], [150, 118, 200, 122]];
        let light = [around_the_word.as_slice(), &band_pieces[1..]].concat();
        let white_widths = |cells: &[GCell]| -> Vec<f64> {
            cells.iter().filter(|c| c.side == Side::White).map(|c| c.bx[2] - c.bx[0]).collect()
        };
        let cells = cells_in_blocks_beside_unruled_clocks(1, &ys, &heading, &[[62, 101, 298, 129]], &light);
        assert_eq!(cells.len(), 20);
        assert!(white_widths(&cells).iter().all(|&w| w > 230.0), "{cells:?}");
    }

    /// Asserts that the move cells under a heading row 100..120, ruled like the 10 rows under it,
    /// whose printed words are the boxes `heading`, hold only their columns' moves' parts (the
    /// heading row's own cells are left to the printed numbers to leave out).
    fn assert_heading_row_parts_the_moves_from_the_clocks(heading: &[[usize; 4]]) {
        let ys: Vec<usize> = (0..=11).map(|r| 100 + 20 * r).collect();
        let cells = cells_beside_unruled_clocks(&ys, heading);
        let moves: Vec<&GCell> = cells.iter().filter(|c| c.bx[1] > 115.0).collect();
        assert_eq!(moves.len(), 20);
        assert_moves_parts_only(moves);
    }

    #[test]
    fn unruled_clock_columns_named_in_a_heading_row_ruled_as_the_first_row_are_left_out_of_the_move_cells() {
        // the words 8 px high, a clock pictogram nearly twice as tall
        assert_heading_row_parts_the_moves_from_the_clocks(&[
            [30, 106, 50, 114],
            [80, 103, 98, 118],
            [185, 106, 235, 114],
            [365, 106, 415, 114],
            [500, 103, 518, 118],
        ]);
    }

    #[test]
    fn unruled_clock_columns_named_in_a_heading_row_of_words_over_half_a_pitch_high_are_left_out() {
        // a compact form: the words 11 px high in rows 20 px apart
        assert_heading_row_parts_the_moves_from_the_clocks(&[
            [30, 104, 50, 115],
            [80, 103, 98, 118],
            [185, 104, 235, 115],
            [365, 104, 415, 115],
            [500, 103, 518, 118],
        ]);
    }

    #[test]
    fn a_writers_specks_between_the_heading_rows_words_do_not_hide_the_unruled_clock_columns() {
        // between the words in each move column a speck a quarter pitch across: a writer's
        // stroke reaching into the heading
        assert_heading_row_parts_the_moves_from_the_clocks(&[
            [30, 106, 50, 114],
            [80, 103, 98, 118],
            [140, 109, 145, 114],
            [185, 106, 235, 114],
            [365, 106, 415, 114],
            [450, 108, 455, 113],
            [500, 103, 518, 118],
        ]);
    }

    #[test]
    fn printed_numbers_in_the_middle_of_a_column_make_a_number_zone_and_a_writers_letters_none() {
        // letters of varying height and place across the middle of a wide column
        let ys = row_ys(20, 10);
        let mut b = Bin::new(400, 400);
        draw_blocks_numbered_in_the_middle(&mut b, &[20], &ys, &[]);
        for (r, &y) in ys[..10].iter().enumerate() {
            let (height, x) = (6 + (r * 3) % 9, 150 + (r * 13) % 40);
            fill(&mut b, x, y + 17 - height, x + 5, y + 17);
        }
        let rows: Vec<Row> = ys.windows(2).map(|p| (h_line(p[0] as f64 + 1.0), h_line(p[1] as f64 + 1.0))).collect();
        let column = Column {
            left: h(21.0, 0.0, 100.0, 322.0),
            right: h(341.0, 0.0, 100.0, 322.0),
            left_ruling: 0,
            right_ruling: 1,
            rows,
        };
        assert_eq!(middle_number_zone(&b, &column, 20.0), None);
        // the same column with printed numbers in its middle has a zone around them
        let mut printed = Bin::new(400, 400);
        draw_blocks_numbered_in_the_middle(
            &mut printed,
            &[20],
            &ys,
            &(0..10).map(|r| (r, r as u32 + 1)).collect::<Vec<_>>(),
        );
        let (from, to) = middle_number_zone(&printed, &column, 20.0).expect("a number zone");
        // (the numbers stand at x 155-166 from the column's left side)
        assert!(from > 145.0 && from < 155.0 && to > 166.0 && to < 176.0, "{from}..{to}");
        // blurred, each number's digits run together into one glyph 15 px wide (0.75 pitch)
        let mut blurred = Bin::new(400, 400);
        draw_blocks_numbered_in_the_middle(&mut blurred, &[20], &ys, &[]);
        for &y in &ys[..10] {
            fill(&mut blurred, 174, y + 7, 189, y + 15);
        }
        let (from, to) = middle_number_zone(&blurred, &column, 20.0).expect("a number zone");
        assert!(from > 143.0 && from < 153.0 && to > 169.0 && to < 179.0, "{from}..{to}");
    }

    /// The columns `add_number_zones` leaves in a block No | White | Black (10 rows, 20 px apart)
    /// whose writer centres every move in its cell, its printed numbers drawn in the rulings'
    /// binary only (`numbers_faint`: a form printed light grey) or nowhere.
    fn columns_beside_centred_moves(numbers_faint: bool) -> usize {
        let ys: Vec<usize> = (0..=10).map(|r| 100 + 20 * r).collect();
        let mut lb = Bin::new(400, 400);
        let numbers: Vec<(usize, u32)> = (0..10).map(|r| (r, r as u32 + 1)).collect();
        draw_block(&mut lb, 20, &ys, if numbers_faint { &numbers } else { &[] });
        let mut b = Bin::new(400, 400);
        draw_block(&mut b, 20, &ys, &[]);
        // (two letters 6 x 8 px in the middle of White's and of Black's cell, row after row)
        for bin in [&mut b, &mut lb] {
            for &y in &ys[..10] {
                for x in [120, 128, 260, 268] {
                    fill(bin, x, y + 7, x + 6, y + 15);
                }
            }
        }
        let row_line = |y: usize| h(y as f64 + 1.0, 0.0, 20.0, 342.0);
        let hsegs: Vec<Line> = ys.iter().map(|&y| row_line(y)).collect();
        let mut vsegs: Vec<Line> = [20, 60, 200, 340].iter().map(|&x| h(x as f64 + 1.0, 0.0, 100.0, 302.0)).collect();
        let lb_transposed = lb.transpose();
        let mut cols = build_cols(&hsegs, &vsegs, 20.0, &lb_transposed);
        assert_eq!(cols.len(), 3);
        add_number_zones(
            &b,
            &GrayImage::new(b.w as u32, b.h as u32),
            &lb,
            &lb_transposed,
            &hsegs,
            &mut vsegs,
            &mut cols,
            &[],
            20.0,
        );
        cols.len()
    }

    #[test]
    fn moves_centred_beside_a_faint_number_column_make_no_number_zone() {
        // without a number column, the centred moves stand like numbers printed between the moves
        // (the premise: each move column is split at them)
        assert!(columns_beside_centred_moves(false) > 3);
        // beside a number column the glyphs' binary lost, they are moves
        assert_eq!(columns_beside_centred_moves(true), 3);
    }

    /// A block in columns 0, 1, 2 with `n` rows of pitch 20 from `top`.
    fn block_of_rows(top: f64, n: usize) -> FoundBlock {
        let rows: Vec<Row> = (0..n)
            .map(|r| (h(top + 20.0 * r as f64, 0.0, 0.0, 300.0), h(top + 20.0 * (r + 1) as f64, 0.0, 0.0, 300.0)))
            .collect();
        FoundBlock {
            columns: BlockColumns { number: 0, white: 1, black: 2, other_number: None },
            glyphs: vec![1; n],
            bounds: [0.0, top, 300.0, top + 20.0 * n as f64],
            rows,
            heading_top: None,
            odd_top: false,
            titled_top: None,
            numbers_seen_from: None,
            numbers_seen_to: None,
            ruled_rows: Vec::new(),
            move_parts: [None; 2],
        }
    }

    #[test]
    fn blocks_grown_from_runs_of_one_column_are_kept_once() {
        // three runs of one column's rows, each grown back to the whole block, and a block
        // stacked below in the same columns
        let mut blocks = vec![block_of_rows(100.0, 40), block_of_rows(100.0, 38), block_of_rows(120.0, 39)];
        blocks.push(block_of_rows(1000.0, 20));
        drop_repeated_blocks(&mut blocks, 20.0);
        let spans: Vec<(f64, usize)> = blocks.iter().map(|k| (k.bounds[1], k.rows.len())).collect();
        assert_eq!(spans, vec![(100.0, 40), (1000.0, 20)]);
    }

    #[test]
    fn a_column_ruling_a_few_levels_darker_than_grainy_paper_is_found_down_the_whole_table() {
        // paper at 242 with a grain of +-4 levels, rows 25 px apart and the table's sides
        // binarized, and between the sides a column ruling 8 levels under the paper, 2 px wide:
        // the paper's grain breaks its ridges against neighbours 2-3 px away
        let grain = |x: u32, y: u32| {
            ((x.wrapping_mul(7919) ^ y.wrapping_mul(104_729)).wrapping_mul(2_654_435_761) >> 28) as i32 % 9 - 4
        };
        let row_ys: Vec<usize> = (0..=12).map(|r| 50 + 25 * r).collect();
        // (the rows printed as faint as the column ruling)
        let on_a_row =
            |x: u32, y: u32| (40..361).contains(&x) && row_ys.iter().any(|&r| (r..r + 2).contains(&(y as usize)));
        // (and a line as faint beside the table, x 380, that no row crosses: the grain of a table
        // under a photographed page)
        let faint = |x: u32, y: u32| {
            (((150..152).contains(&x) || (380..382).contains(&x)) && (50..351).contains(&y)) || on_a_row(x, y)
        };
        let grey = GrayImage::from_fn(400, 400, |x, y| {
            image::Luma([(242 + grain(x, y) - if faint(x, y) { 8 } else { 0 }) as u8])
        });
        let mut lb = Bin::new(400, 400);
        rule(&mut lb, &row_ys, (40, 361), &[40, 359], (50, 352));
        let row_rulings: Vec<Line> = row_ys.iter().map(|&y| h(y as f64 + 0.5, 0.0, 40.0, 361.0)).collect();
        let ridges = lines::vertical_ridges(&grey).transpose();
        // (the plain ridges find under half of it)
        let plain = Line { intercept: 150.5, slope: 0.0, start: 50.0, end: 350.0 };
        assert!(lines::profile(&ridges, &plain).2 < 0.5);
        let columns = find_column_rulings(&lb.transpose(), &ridges, &grey, &row_rulings, 25.0);
        let xs: Vec<f64> = columns.iter().map(|c| c.mid().round()).collect();
        assert_eq!(xs.len(), 3, "{xs:?}");
        assert!((xs[1] - 150.5).abs() <= 1.0, "{xs:?}");
    }

    #[test]
    fn a_faint_column_ruling_out_of_focus_splits_a_double_width_column() {
        // rulings at x 40 and 240 (pitch 20: a column 10 pitches wide), and between them at x 140
        // a ruling 12 levels under the paper blurred over 5 px, 300 px long
        let pitch = 20.0;
        let grey = GrayImage::from_fn(280, 400, |x, y| {
            let blurred_depth = [2.0, 6.0, 10.0, 12.0, 10.0, 6.0, 2.0];
            let offset = x as i64 - 140 + 3;
            let depth =
                if (50..350).contains(&y) && (0..7).contains(&offset) { blurred_depth[offset as usize] } else { 0.0 };
            image::Luma([(225.0 - depth) as u8])
        });
        let column = |x: f64| Line { intercept: x, slope: 0.0, start: 40.0, end: 360.0 };
        // (the plain ridges do not find it)
        let plain = lines::vertical_ridges(&grey);
        assert!((50..350).filter(|&y| plain.get(140, y)).count() < 100);
        let split = split_double_width_columns(vec![column(40.0), column(240.0)], &grey, pitch);
        let at: Vec<f64> = split.iter().map(|v| v.mid()).collect();
        assert_eq!(at.len(), 3, "{at:?}");
        assert!((at[1] - 140.0).abs() < 1.5, "{at:?}");
        // (a column twice as wide, 20 pitches, is no double move column)
        let split = split_double_width_columns(vec![column(40.0), column(240.0)], &grey, 10.0);
        assert_eq!(split.len(), 2);
    }

    /// No | time | White | Black, the times written as regularly as the numbers are printed, the
    /// numbers shown in the glyphs' binary or not (`numbers_show`): the time column is taken for
    /// the numbers and the number column kept as the other number column, read where the times
    /// do not read as numbers.
    fn assert_the_column_beyond_the_written_times_is_the_other_number_column(numbers_show: bool) {
        let ys = row_ys(28, 10);
        let widths = [30, 30, 60, 60];
        let mut lb = Bin::new(260, 400);
        draw_block_of_columns(&mut lb, 20, &widths, &ys, &[]);
        let mut b = lb.clone();
        if numbers_show {
            let numbers: Vec<(usize, u32)> = (1..=10).map(|n| (n as usize, n)).collect();
            draw_block_of_columns(&mut b, 20, &widths, &ys, &numbers);
        }
        for row in 1..=10 {
            for i in 0..2 {
                fill(&mut b, 58 + 7 * i, ys[row] + 7, 62 + 7 * i, ys[row] + 15);
            }
        }
        let grey = GrayImage::from_pixel(260, 400, image::Luma([255]));
        let Grid::Found { blocks, .. } = analyze(&b, &lb, &grey) else {
            panic!("no table found");
        };
        let centre = |bx: &[f64; 4]| 0.5 * (bx[0] + bx[2]);
        assert!(blocks[0].number_cells.iter().all(|bx| (50.0..80.0).contains(&centre(bx))), "{:?}", blocks[0]);
        assert_eq!(blocks[0].other_number_cells.len(), blocks[0].number_cells.len());
        assert!(blocks[0].other_number_cells.iter().all(|bx| (20.0..50.0).contains(&centre(bx))), "{:?}", blocks[0]);
    }

    #[test]
    fn the_numbers_beyond_a_clock_column_of_written_times_are_kept_as_the_other_number_column() {
        assert_the_column_beyond_the_written_times_is_the_other_number_column(true);
    }

    #[test]
    fn the_column_beyond_a_clock_column_is_kept_as_the_other_number_column_where_its_numbers_do_not_show() {
        // (a form printed so faint that its numbers are lost in the glyphs' binary, the times
        // written dark)
        assert_the_column_beyond_the_written_times_is_the_other_number_column(false);
    }

    #[test]
    fn a_number_zone_ends_within_three_pitches_of_its_side() {
        let zone = |reach: f64| NumberZone { reach, height: 7.0 };
        assert!(zone(26.0).fits_in(140.0, 20.0));
        // (another column's numbers, seen across a wide column whose rulings are not printed)
        assert!(!zone(128.0).fits_in(300.0, 16.0));
        assert!(!zone(70.0).fits_in(140.0, 20.0));
    }

    /// Glyph groups at a column's side, one per row: (top below the row's ruling, height, near
    /// end, far end).
    fn side_glyphs(groups: &[(f64, f64, f64, f64)]) -> Vec<SideGlyphs> {
        groups
            .iter()
            .enumerate()
            .map(|(row, &(below_ruling, height, near, reach))| SideGlyphs {
                top: 20.0 * row as f64 + below_ruling,
                below_ruling,
                height,
                near,
                reach,
            })
            .collect()
    }

    #[test]
    fn whole_numbers_are_aligned_as_printed_and_a_writers_moves_are_not() {
        // numbers 8-12 right-aligned at a column's right end, pitch 20: their near ends agree,
        // their far ends lie a digit apart
        let numbers: Vec<(f64, f64, f64, f64)> =
            (8..=12).map(|n| (7.0, 7.0, 4.0, if n < 10 { 10.0 } else { 16.0 })).collect();
        assert!(aligned_as_printed(&side_glyphs(&numbers), 7.0, 20.0));
        // a writer's moves begun at one place on one line end where each move ends
        let moves = [(7.0, 7.0, 4.0, 22.0), (7.0, 7.0, 4.0, 38.0), (7.0, 7.0, 4.0, 30.0), (7.0, 7.0, 4.0, 18.0)];
        assert!(!aligned_as_printed(&side_glyphs(&moves), 7.0, 20.0));
        // glyphs of one width that wander up and down are no printed numbers
        let wandering = [(3.0, 7.0, 4.0, 16.0), (8.0, 7.0, 4.0, 16.0), (5.0, 7.0, 4.0, 16.0), (10.0, 7.0, 4.0, 16.0)];
        assert!(!aligned_as_printed(&side_glyphs(&wandering), 7.0, 20.0));
    }

    #[test]
    fn small_bold_numbers_whose_digits_run_together_make_a_number_zone() {
        // White's cell 170 px wide with its number printed at its right end (no ruling between),
        // then Black's; pitch 20, the digits 7 px high binarized as one glyph 18 px wide
        let ys: Vec<usize> = (0..=10).map(|r| 100 + 20 * r).collect();
        let mut lb = Bin::new(460, 400);
        rule(&mut lb, &ys, (20, 362), &[20, 190, 360], (100, 302));
        let mut b = lb.clone();
        for &top in &ys[..10] {
            fill(&mut b, 166, top + 7, 184, top + 14);
            // (the moves, written at the cells' left)
            for x in [30, 200] {
                fill(&mut b, x, top + 5, x + 30, top + 17);
            }
        }
        let (cells, blocks) = cells_and_blocks_found(&b, &lb);
        assert_eq!((cells, blocks), (20, vec![(1, 10)]));
        let grey = GrayImage::from_pixel(b.w as u32, b.h as u32, image::Luma([255]));
        let Grid::Found { cells, .. } = analyze(&b, &lb, &grey) else { panic!("no table found") };
        let white = cells.iter().find(|c| c.mv == 1 && c.side == Side::White).expect("move 1 White");
        assert!(white.bx[2] < 170.0, "White's cell leaves the number out: {:?}", white.bx);
    }

    #[test]
    fn a_number_column_two_thirds_as_wide_as_the_moves_is_not_taken_for_whites() {
        // No | White | time | Black | time twice, 24 px apart, pitch 20: the number column 0.68 of
        // the moves' width, and the first block's times written in its last column. The second
        // block's number column pairs with its White column by width; White's pairs more closely
        // with Black's.
        let ys = row_ys(28, 10);
        let widths = [41, 60, 34, 57, 34];
        let block_w: usize = widths.iter().sum();
        let lefts = [20, 20 + block_w + 24];
        let mut lb = Bin::new(lefts[1] + block_w + 40, 400);
        for left in lefts {
            draw_block_of_columns(&mut lb, left, &widths, &ys, &[]);
        }
        let mut b = lb.clone();
        for (k, left) in lefts.into_iter().enumerate() {
            let numbers: Vec<(usize, u32)> = (1..=10).map(|n| (n as usize, n + 10 * k as u32)).collect();
            draw_block_of_columns(&mut b, left, &widths, &ys, &numbers);
        }
        let last_clock = lefts[0] + block_w - 34;
        for row in 1..=10 {
            for i in 0..3 {
                fill(&mut b, last_clock + 6 + 7 * i, ys[row] + 7, last_clock + 10 + 7 * i, ys[row] + 15);
            }
        }
        let grey = GrayImage::from_pixel(lb.w as u32, 400, image::Luma([255]));
        let Grid::Found { cells, .. } = analyze(&b, &lb, &grey) else { panic!("no table found") };
        let first_of_second_block: Vec<(Side, i64)> =
            cells.iter().filter(|c| c.mv == 11).map(|c| (c.side, c.bx[0].round() as i64)).collect();
        let white_left = (lefts[1] + 41) as i64;
        let black_left = (lefts[1] + 41 + 60 + 34) as i64;
        assert_eq!(first_of_second_block.len(), 2, "{first_of_second_block:?}");
        for (side, left) in first_of_second_block {
            let expected = if side == Side::White { white_left } else { black_left };
            assert!((left - expected).abs() <= 4, "{side:?} cell at x {left}, its column at {expected}");
        }
    }

    #[test]
    fn a_row_a_broken_column_ruling_leaves_is_marked_where_the_ruling_covers_the_others_alike() {
        // the ruling right of White's column at x 200 down 10 rows of pitch 20 from y 100, broken
        // in every row (a faint print binarized in pieces: 0.8 of each row), and an 11th row under
        // them, a result line ruled across the table only, which it leaves
        let mut lb = Bin::new(400, 400);
        for r in 0..10 {
            fill(&mut lb, 200, 103 + 20 * r, 202, 114 + 20 * r);
        }
        let side = |x: f64| h(x, 0.0, 100.0, 320.0);
        let column = |left: f64, right: f64| Column {
            left: side(left),
            right: side(right),
            left_ruling: 0,
            right_ruling: 1,
            rows: Vec::new(),
        };
        let cols = [column(20.0, 60.0), column(60.0, 200.0), column(200.0, 340.0)];
        let mut blocks = [block_of_rows(100.0, 11)];
        mark_rows_the_columns_leave(&lb.transpose(), &cols, &mut blocks);
        assert_eq!(blocks[0].ruled_rows, [vec![true; 10], vec![false]].concat());
    }

    #[test]
    fn two_heading_words_a_space_apart_are_two_groups_and_one_words_letters_one() {
        // pitch 20, a heading box 100..300 x 80..100: "White" as five letters 2 px apart at
        // 150..188, "Time" as four 2 px apart from 194 (a space of 6 px, under half a pitch)
        let mut b = Bin::new(400, 200);
        let letters = |b: &mut Bin, from: usize, n: usize| {
            for i in 0..n {
                fill(b, from + 8 * i, 86, from + 6 + 8 * i, 96);
            }
        };
        letters(&mut b, 150, 5);
        letters(&mut b, 194, 4);
        let heading = [100.0, 80.0, 300.0, 100.0];
        assert_eq!(
            heading_word_groups(&b, heading, 20.0),
            vec![[150.0, 86.0, 188.0, 96.0], [194.0, 86.0, 224.0, 96.0]]
        );
        // one word's letters, spaced alike, stay one group
        let mut b = Bin::new(400, 200);
        letters(&mut b, 150, 9);
        assert_eq!(heading_word_groups(&b, heading, 20.0), vec![[150.0, 86.0, 220.0, 96.0]]);
    }

    #[test]
    fn a_dotted_ruling_in_a_heading_makes_no_word() {
        // pitch 20, a heading box 100..300 x 80..100 with a dotted ruling across it at y 88
        // (dots 4 x 3 px, 3 px apart) and a break in the dots at 200..212, as a photo's shadow
        // or a writer's pen leaves one
        let mut b = Bin::new(400, 200);
        for x in (110..290).step_by(7).filter(|x| !(200..212).contains(x)) {
            fill(&mut b, x, 88, x + 4, 91);
        }
        assert_eq!(heading_word_groups(&b, [100.0, 80.0, 300.0, 100.0], 20.0), Vec::<WordGroup>::new());
    }

    /// Asserts that each move's White and Black cells (move, White's left x, Black's) start
    /// within 4 px of those x.
    fn assert_moves_start_at(cells: &[GCell], moves: &[(u32, i64, i64)]) {
        for &(mv, white, black) in moves {
            let found: Vec<(Side, i64)> =
                cells.iter().filter(|c| c.mv == mv).map(|c| (c.side, c.bx[0].round() as i64)).collect();
            assert_eq!(found.len(), 2, "move {mv}: {found:?}");
            for (side, left) in found {
                let expected = if side == Side::White { white } else { black };
                assert!((left - expected).abs() <= 4, "move {mv} {side:?} at x {left}, its column at {expected}");
            }
        }
    }

    #[test]
    fn a_white_column_narrower_than_its_black_across_the_number_between_them_keeps_its_pair() {
        // White | No | Black twice, side by side, pitch 20: White 122 px, Black 145, the next
        // block's White 141 (as wide as this Black), so that this Black pairs more closely with
        // the next White than with its own White
        let ys = row_ys(28, 10);
        let widths = [122, 28, 145, 141, 28, 128];
        let mut lb = Bin::new(700, 400);
        draw_block_of_columns(&mut lb, 20, &widths, &ys, &[]);
        let mut b = lb.clone();
        for row in 1..=10 {
            for (k, number_left) in [20 + 122, 20 + 122 + 28 + 145 + 141].into_iter().enumerate() {
                let number = row as u32 + 10 * k as u32;
                for i in 0..number.to_string().len() {
                    fill(&mut b, number_left + 6 + 7 * i, ys[row] + 7, number_left + 10 + 7 * i, ys[row] + 15);
                }
            }
        }
        let grey = GrayImage::from_pixel(700, 400, image::Luma([255]));
        let Grid::Found { cells, .. } = analyze(&b, &lb, &grey) else { panic!("no table found") };
        assert_moves_start_at(&cells, &[(1, 20, 170), (11, 315, 484)]);
    }

    #[test]
    fn paper_left_of_the_table_two_thirds_as_wide_as_black_is_no_white_column() {
        // No | White | Black three times, pitch 20, after a strip of paper 37 px wide bounded by
        // the page's edge (White 56 px, Black 60): read as White | No | Black, the strip paired
        // with the first White across the first number column
        let ys = row_ys(28, 10);
        let widths = [37, 21, 56, 60, 21, 61, 55, 21, 61, 55];
        let mut lb = Bin::new(520, 400);
        draw_block_of_columns(&mut lb, 20, &widths, &ys, &[]);
        let mut b = lb.clone();
        for row in 1..=10 {
            for (k, number_left) in [57, 194, 331].into_iter().enumerate() {
                let number = row as u32 + 10 * k as u32;
                for i in 0..number.to_string().len() {
                    fill(&mut b, number_left + 4 + 6 * i, ys[row] + 7, number_left + 8 + 6 * i, ys[row] + 15);
                }
            }
        }
        let grey = GrayImage::from_pixel(520, 400, image::Luma([255]));
        let Grid::Found { cells, .. } = analyze(&b, &lb, &grey) else { panic!("no table found") };
        assert_moves_start_at(&cells, &[(1, 78, 134), (11, 215, 276), (21, 352, 413)]);
    }

    #[test]
    fn a_first_row_printed_taller_keeps_its_short_digit_and_is_no_heading() {
        // the first row 36 px high above rows 20 px high (a form's first row under its heading),
        // its number as high as the digits below (8 px), too short a glyph for a row so tall
        let mut ys = vec![100];
        ys.extend((0..=10).map(|r| 136 + 20 * r));
        let numbers: Vec<(usize, u32)> = (1..=10).map(|n| (n, n as u32 + 1)).collect();
        let mut table = drawn_table(&ys, &numbers);
        fill(&mut table.glyphs, 28, 123, 32, 131);
        let block = table.find_block(&table.rows).expect("a block");
        assert_eq!(block.heading_top, None);
        assert_eq!(block.rows.len(), 11);
        assert_eq!(block.rows[0].0.intercept, 101.0);
    }

    /// A block's rows from `ys` (each row's top ruling, then the last row's bottom one).
    fn block_of_ruled_rows(ys: &[f64]) -> FoundBlock {
        let mut block = block_of_rows(ys[0], ys.len() - 1);
        block.rows = ys.windows(2).map(|p| (h(p[0], 0.0, 0.0, 300.0), h(p[1], 0.0, 0.0, 300.0))).collect();
        block.bounds[3] = ys[ys.len() - 1];
        block
    }

    #[test]
    fn an_end_row_beyond_a_block_beside_is_dropped_unless_another_piece_of_its_columns_reaches_it() {
        // a block whose first row is 30 px high above rows of 20
        let mut ys = vec![100.0];
        ys.extend((0..=20).map(|r| 130.0 + 20.0 * r as f64));
        let in_columns = |white: usize, block: FoundBlock| FoundBlock {
            columns: BlockColumns { number: white - 1, white, black: white + 1, other_number: None },
            ..block
        };
        // beside it one column's rows in two pieces, the first from its top: the row stays
        let mut blocks = vec![
            block_of_ruled_rows(&ys),
            in_columns(4, block_of_ruled_rows(&ys[..10])),
            in_columns(4, block_of_rows(330.0, 10)),
        ];
        drop_end_rows_beyond_beside(&mut blocks, 20.0);
        assert_eq!(blocks[0].rows.len(), 21);
        // beside it a block starting a row lower, and another from its top (both with a heading
        // row above the rows of the first): the row goes
        let mut blocks = vec![
            block_of_ruled_rows(&ys),
            in_columns(4, block_of_rows(130.0, 20)),
            in_columns(7, block_of_ruled_rows(&ys)),
        ];
        drop_end_rows_beyond_beside(&mut blocks, 20.0);
        assert_eq!(blocks[0].rows.len(), 20);
        assert_eq!(blocks[0].rows[0].0.intercept, 130.0);
    }

    /// `count` rows of pitch 20 from y 100.
    fn rows_of_pitch_20(count: usize) -> Vec<Row> {
        (0..count).map(|r| (h_line(100.0 + 20.0 * r as f64), h_line(120.0 + 20.0 * r as f64))).collect()
    }

    /// A column between upright sides at x `left` and `right`, from y 100 to 300, with `rows`.
    fn upright_column(left: f64, right: f64, rows: &[Row]) -> Column {
        let side = |x: f64| h(x, 0.0, 100.0, 300.0);
        Column { left: side(left), right: side(right), left_ruling: 0, right_ruling: 0, rows: rows.to_vec() }
    }

    #[test]
    fn a_move_column_run_on_into_the_clock_column_beyond_is_cut_back_to_the_width_another_block_prints() {
        // No | White | Black twice across the page, the second block's ruling between Black's
        // moves and the clock column after them lost: its Black column runs on to x 665
        let rows = rows_of_pitch_20(10);
        let column = |left: f64, right: f64| upright_column(left, right, &rows);
        let block = |number: usize| FoundBlock {
            columns: BlockColumns { number, white: number + 1, black: number + 2, other_number: None },
            ..block_of_rows(100.0, 10)
        };
        let mut cols = vec![
            column(60.0, 100.0),
            column(100.0, 200.0),
            column(200.0, 302.0),
            column(360.0, 400.0),
            column(400.0, 500.0),
            column(500.0, 665.0),
        ];
        narrow_move_columns_run_on(&mut cols, &[block(0), block(3)], 20.0);
        assert_eq!(cols[5].right.intercept, 602.0);
        assert_eq!((cols[2].right.intercept, cols[4].left.intercept), (302.0, 400.0));
        // blocks printed with one column wider than the other in every block stay as printed
        let mut cols = vec![
            column(60.0, 100.0),
            column(100.0, 200.0),
            column(200.0, 340.0),
            column(360.0, 400.0),
            column(400.0, 500.0),
            column(500.0, 640.0),
        ];
        narrow_move_columns_run_on(&mut cols, &[block(0), block(3)], 20.0);
        assert_eq!((cols[2].right.intercept, cols[5].right.intercept), (340.0, 640.0));
    }

    #[test]
    fn a_white_column_run_on_into_its_clock_column_is_cut_by_the_clock_column_another_block_prints() {
        // Time | White | No | Black | Time twice across the page, rows 20 px apart: the first
        // block's ruling between the clock and White's moves lost, its White 40 + 95 px wide;
        // the second block's White and Black too unlike in width (90, 105) to tell White's, its
        // clock column 40 px wide beside White's
        let rows = rows_of_pitch_20(10);
        let columns = |clock_left: f64| {
            let sides = [0.0, 135.0, 175.0, 275.0, 315.0, clock_left, 395.0, 485.0, 525.0, 630.0, 670.0];
            (0..sides.len() - 1)
                .filter(|&i| i != 4)
                .map(|i| Column {
                    left_ruling: i,
                    right_ruling: i + 1,
                    ..upright_column(sides[i], sides[i + 1], &rows)
                })
                .collect::<Vec<_>>()
        };
        let block = |number: usize, white: usize, black: usize| FoundBlock {
            columns: BlockColumns { number, white, black, other_number: None },
            ..block_of_rows(100.0, 10)
        };
        let blocks = [block(1, 0, 2), block(6, 5, 7)];
        let mut cols = columns(355.0);
        narrow_move_columns_run_on(&mut cols, &blocks, 20.0);
        assert_eq!(cols[0].left.intercept, 40.0);
        assert_eq!((cols[5].left.intercept, cols[7].right.intercept), (395.0, 630.0));
        // a column under a pitch wide beside the other block's White is the gap between blocks
        // ruled as a column, no clock column
        let mut cols = columns(380.0);
        narrow_move_columns_run_on(&mut cols, &blocks, 20.0);
        assert_eq!(cols[0].left.intercept, 0.0);
    }

    #[test]
    fn a_white_column_with_no_ruling_down_its_outer_side_is_widened_to_blacks_width() {
        // White | No | Black: rulings printed at x 200, 240 and 380, none left of White, whose
        // side was taken at x 100 where the rows' rulings end (handwriting broke them)
        let mut lb = Bin::new(400, 320);
        for x in [200, 240, 380] {
            fill(&mut lb, x, 100, x + 2, 300);
        }
        let rows = rows_of_pitch_20(10);
        let column = |left: f64, right: f64| upright_column(left + 1.0, right + 1.0, &rows);
        let mut cols = vec![column(100.0, 200.0), column(200.0, 240.0), column(240.0, 380.0)];
        let block = || FoundBlock {
            columns: BlockColumns { number: 1, white: 0, black: 2, other_number: None },
            ..block_of_rows(100.0, 10)
        };
        widen_move_columns_cut_short(&lb.transpose(), &mut cols, &[block()], 400.0);
        assert_eq!(cols[0].left.intercept, 61.0);
        assert_eq!(cols[2].right.intercept, 381.0);
        // a White column printed narrower, between two rulings, stays as printed
        fill(&mut lb, 100, 100, 102, 300);
        let mut cols = vec![column(100.0, 200.0), column(200.0, 240.0), column(240.0, 380.0)];
        widen_move_columns_cut_short(&lb.transpose(), &mut cols, &[block()], 400.0);
        assert_eq!(cols[0].left.intercept, 101.0);
    }

    #[test]
    fn a_white_column_whose_cell_holds_the_move_number_is_not_widened_past_the_rows_ends() {
        // White's cell with its number printed at its inner end, no ruling between them: rulings
        // at x 240 and 380 only, and the number parted from White's cell as a column of its own;
        // White's and the number's columns together are as wide as Black's
        let mut lb = Bin::new(400, 320);
        for x in [240, 380] {
            fill(&mut lb, x, 100, x + 2, 300);
        }
        let rows = rows_of_pitch_20(10);
        let column = |left: f64, right: f64| upright_column(left + 1.0, right + 1.0, &rows);
        let mut cols = vec![column(100.0, 205.0), column(205.0, 240.0), column(240.0, 380.0)];
        let block = FoundBlock {
            columns: BlockColumns { number: 1, white: 0, black: 2, other_number: None },
            ..block_of_rows(100.0, 10)
        };
        widen_move_columns_cut_short(&lb.transpose(), &mut cols, &[block], 400.0);
        assert_eq!(cols[0].left.intercept, 101.0);
    }
}
