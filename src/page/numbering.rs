//! Move numbers from the printed ones.
//!
//! Every row of a block is numbered by the move numbers printed in its number cells: the block's
//! rows hold consecutive numbers, and the run that the most printed numbers agree with wins. A
//! row at a block's end without a printed number (a heading with the column titles, a result
//! line, a signature line) is no move row, nor is one whose number would come before move 1.
//! Where a block's numbers read too poorly for that but their last digits agree with continuing
//! the block before it (or being continued by the block after it) in most rows, those digits
//! place its rows. Where a block's printed numbers cannot be read, its rows are counted instead,
//! and the block says so. A page that holds two copies of a form side by side (half-page forms
//! printed two to a sheet) is numbered by its first copy; the second copy's blocks keep no rows.

use std::ops::Range;

use super::digits::PrintedNumber;
use super::grid::{self, RowsAtTheEnds};

/// A row whose printed number is not the fitted one, but close to it in shape (its digits'
/// distances to the drawings exceed the nearest ones' by less than this), half agrees with it.
const NEAR_COST: f32 = 0.02;

/// The most move numbers a form prints.
const MAX_MOVE: i64 = 400;

/// Which ends of a block's rows lie at the frame's edge: a photo that cuts the table there loses
/// the rows beyond, any number of them, and the blocks about it need not continue one another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameCut {
    /// The block's first rows may lie beyond the frame's top.
    pub top: bool,
    /// The block's last rows may lie beyond the frame's bottom.
    pub bottom: bool,
}

/// How a block's rows are numbered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockNumbers {
    /// The move number of the first kept row.
    pub first: u32,
    /// The rows (of the block's rows as found) that are move rows.
    pub rows: Range<usize>,
    /// Whether the numbers come from the printed ones (else the rows were counted).
    pub printed: bool,
}

impl BlockNumbers {
    /// The move number of `row` (one of [`BlockNumbers::rows`]).
    pub fn move_of(&self, row: usize) -> u32 {
        self.first + (row - self.rows.start) as u32
    }
}

/// How far a row's printed number agrees with move number `n`: 1 where it reads `n`, a half
/// where `n` is close in shape, else 0.
fn agreement(read: &PrintedNumber, n: i64) -> f32 {
    agreement_read_as(read, read.best(), n)
}

/// [`agreement`] for a row whose printed number reads `best` (`read.best()`, found once).
fn agreement_read_as(read: &PrintedNumber, best: Option<u32>, n: i64) -> f32 {
    if n < 1 || !matches!(read, PrintedNumber::Digits(_)) {
        return 0.0;
    }
    if best == Some(n as u32) {
        return 1.0;
    }
    match read.extra_cost(n as u32) {
        Some(c) if c < NEAR_COST => 0.5,
        _ => 0.0,
    }
}

/// How many of the block's rows agree with the rows numbered from `start` (the number of row 0),
/// for rows whose printed numbers read `bests`.
fn support(reads: &[PrintedNumber], bests: &[Option<u32>], start: i64) -> f32 {
    reads.iter().zip(bests).enumerate().map(|(i, (r, &best))| agreement_read_as(r, best, start + i as i64)).sum()
}

/// What a start costs in numbers another block holds: a form prints each move number once, so a
/// row numbered like a row of a block fitted more surely counts against the start by this much.
const HELD_COST: f32 = 0.5;

/// Any start ([`best_start`] for a block alone).
const ANY_NUMBERS: Range<i64> = i64::MIN..i64::MAX;

/// What a start costs, for each of the block's rows, out of the starts in order
/// ([`starts_in_order`]): heavy blur reads most printed numbers as 8s and 88s, and a few of them
/// then agree with a start far from the blocks around it.
const OUT_OF_ORDER_COST: f32 = 0.25;

/// The starts that number block `b` in order with the blocks fitted so far (`fits`, each block's
/// start where fitted): after the numbers of every block before it in reading order and before
/// those of every block after it; where the block just before it (or after it) is fitted, within
/// [`ROWS_LOST_BETWEEN_BLOCKS`] of continuing it (of being continued by it), unless the frame
/// cuts that block's last rows (the other block's first rows: `cut`, empty where none is cut).
/// Each way [`ROWS_LOST_BETWEEN_BLOCKS`] of overlap is let pass: the rows fitted may still hold a
/// heading or a result line, left out later.
fn starts_in_order(fits: &[Option<i64>], reads: &[Vec<PrintedNumber>], cut: &[FrameCut], b: usize) -> Range<i64> {
    let rows = |o: usize| reads[o].len() as i64;
    let cut = |o: usize| cut.get(o).copied().unwrap_or_default();
    let lost = ROWS_LOST_BETWEEN_BLOCKS as i64;
    let mut lowest = (0..b).filter_map(|o| fits[o].map(|start| start + rows(o) - lost)).max().unwrap_or(i64::MIN);
    let mut highest =
        (b + 1..fits.len()).filter_map(|o| fits[o].map(|start| start - rows(b) + lost)).min().unwrap_or(i64::MAX);
    if let Some(Some(before)) = b.checked_sub(1).map(|o| fits[o])
        && !cut(b - 1).bottom
    {
        highest = highest.min(before + rows(b - 1) + lost);
    }
    if let Some(Some(after)) = fits.get(b + 1)
        && !cut(b + 1).top
    {
        lowest = lowest.max(after - rows(b) - lost);
    }
    lowest..highest.saturating_add(1)
}

/// The start (number of row 0) most printed numbers agree with, how many do (less
/// [`HELD_COST`] for each number a range in `held` already has, and [`OUT_OF_ORDER_COST`] for each
/// row where the start is not `in_order`), and how many agree with the best other start;
/// ties go to `prefer`, then to the smaller start.
fn best_start(
    reads: &[PrintedNumber],
    prefer: Option<i64>,
    held: &[Range<i64>],
    in_order: &Range<i64>,
) -> (i64, f32, f32) {
    let n = reads.len() as i64;
    let mut best = (1, f32::MIN);
    let mut runner_up = 0f32;
    let bests: Vec<Option<u32>> = reads.iter().map(PrintedNumber::best).collect();
    for start in (1 - n)..=MAX_MOVE {
        let overlap: i64 = held.iter().map(|h| (h.end.min(start + n) - h.start.max(start)).max(0)).sum();
        let out_of_order = !in_order.contains(&start);
        let s = support(reads, &bests, start)
            - HELD_COST * overlap as f32
            - if out_of_order { OUT_OF_ORDER_COST * n as f32 } else { 0.0 };
        let better = s > best.1 + 1e-6 || ((s - best.1).abs() <= 1e-6 && Some(start) == prefer);
        if better {
            runner_up = runner_up.max(best.1);
            best = (start, s);
        } else {
            runner_up = runner_up.max(s);
        }
    }
    (best.0, best.1, runner_up)
}

/// Rows that may be lost between two blocks' numbers: a block's last rows at the photo's edge,
/// or the next block's first rows.
const ROWS_LOST_BETWEEN_BLOCKS: u32 = 2;

/// How far beyond a block's end row, in row pitches, a row of a block beside it still belongs to
/// the heading (or footer) that block left out: a heading of two rows, one lost in that block.
const HEADING_ROWS_BEYOND: u32 = 2;

/// How far below the foot of a numbered block, in row pitches, a row of a block beside it that
/// does not read its number is taken for what lies under the table: a blank line and a results
/// line under it, from [`FOOT_ROWS_FROM`] to this.
const FOOT_ROWS_BEYOND: f64 = 2.5;

/// How far below the foot of a numbered block, in row pitches, a row of a block beside it lies
/// at least to be under the table: blocks side by side on a page photographed askew or curved
/// stand up to a third of a row apart (HCS 023_0: the second block 20 px above the first, its
/// rows 57 px apart).
const FOOT_ROWS_FROM: f64 = 0.65;

/// Whether each block numbered from its printed numbers continues the block before it where that
/// one is so numbered too, as a form's blocks do (1-30 | 31-60): its first number is the other's
/// last + 1, or up to [`ROWS_LOST_BETWEEN_BLOCKS`] more.
pub fn blocks_continue(blocks: &[BlockNumbers]) -> bool {
    let numbered = |b: &BlockNumbers| b.printed && !b.rows.is_empty();
    blocks.windows(2).filter(|pair| numbered(&pair[0]) && numbered(&pair[1])).all(|pair| {
        let after = pair[0].first + pair[0].rows.len() as u32;
        (after..=after + ROWS_LOST_BETWEEN_BLOCKS).contains(&pair[1].first)
    })
}

/// How surely a block's printed numbers (`reads`, one per row) read: the rows that agree with
/// the start most agree with, less those that agree with the best other start. Of two readings
/// of a block, the surer is kept.
pub fn reading_sureness(reads: &[PrintedNumber]) -> f32 {
    let (_, agree, runner_up) = best_start(reads, None, &[], &ANY_NUMBERS);
    agree - runner_up
}

/// [`best_start`] where the reading is trusted over counting: enough rows agree with it, four
/// and a fifth of the rows that show a number, and clearly more than with any other start
/// (printed numbers read poorly still agree by chance with one start in a few rows only). A
/// start that continues the block before it, numbered from its printed numbers (`continuing`,
/// the number after its last row; up to [`ROWS_LOST_BETWEEN_BLOCKS`] more), needs no fifth: the
/// rows agreeing by chance with a start where the form puts the block are few, and small print
/// read poorly in most rows (a 1909 form's 7 px digits) still tells which rows the block lost.
fn trusted_start(
    rows: &[PrintedNumber],
    prefer: Option<i64>,
    continuing: Option<i64>,
    held: &[Range<i64>],
    in_order: &Range<i64>,
) -> Option<i64> {
    let numbered = rows_showing_a_number(rows);
    let (start, agree, runner_up) = best_start(rows, prefer, held, in_order);
    let continues = continuing.is_some_and(|after| (after..=after + ROWS_LOST_BETWEEN_BLOCKS as i64).contains(&start));
    let trusted = agree >= 4.0 && (continues || agree as f64 >= numbered as f64 / 5.0) && agree >= runner_up + 2.0;
    trusted.then_some(start)
}

/// How many of a block's rows show a number (one to three digits) in their number cells.
fn rows_showing_a_number(rows: &[PrintedNumber]) -> usize {
    rows.iter().filter(|r| matches!(r, PrintedNumber::Digits(_))).count()
}

/// Whether the blocks numbered `second` repeat those numbered `first` one for one, as a second
/// copy of the form on the page does (two half-page forms printed side by side, 1-20 | 21-40
/// and 1-20 | 21-40 again): the first blocks of both numbered from their printed numbers alike,
/// and every other pair alike where both are.
fn repeats_the_form(first: &[BlockNumbers], second: &[BlockNumbers]) -> bool {
    let alike = |a: &BlockNumbers, b: &BlockNumbers| a.first == b.first && !a.rows.is_empty() && !b.rows.is_empty();
    let (Some(a), Some(b)) = (first.first(), second.first()) else { return false };
    first.len() == second.len()
        && a.printed
        && b.printed
        && alike(a, b)
        && first.iter().zip(second).all(|(a, b)| !(a.printed && b.printed) || alike(a, b))
}

/// The numbering of a page's blocks ([`number_page`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PageNumbers {
    /// Each block's numbering, in reading order; the blocks of a second copy of the form keep no
    /// rows.
    pub blocks: Vec<BlockNumbers>,
    /// The page holds a second copy of the form, from this block on, which is not read.
    pub second_form_from: Option<usize>,
}

/// Numbers the rows of every block of a page, in reading order, as [`number_blocks`] does; where
/// the page holds two copies of a form (its second half of blocks numbered alone repeats the
/// first one for one), the first copy alone: the second is another game's, or the other
/// player's copy, and is not numbered into this one.
pub fn number_page(
    reads: &[Vec<PrintedNumber>],
    faint: &[Vec<bool>],
    ruled: &[Vec<bool>],
    counted: &[u32],
    rows_y: &[Vec<f64>],
    cut: &[FrameCut],
    pitch: f64,
) -> PageNumbers {
    if reads.len() >= 2 && reads.len() % 2 == 0 {
        let half = reads.len() / 2;
        let part = |v: &[Vec<bool>], range: Range<usize>| v.get(range).map_or(Vec::new(), <[_]>::to_vec);
        let number_half = |range: Range<usize>| {
            let (faint, ruled, counted, rows_y) = (
                part(faint, range.clone()),
                part(ruled, range.clone()),
                &counted[range.clone()],
                &rows_y[range.clone()],
            );
            let cut = cut.get(range.clone()).unwrap_or(&[]);
            number_blocks(&reads[range], &faint, &ruled, counted, rows_y, cut, pitch)
        };
        let (mut first, second) = (number_half(0..half), number_half(half..reads.len()));
        if repeats_the_form(&first, &second) {
            first.extend(second.iter().map(|_| BlockNumbers { first: 1, rows: 0..0, printed: false }));
            return PageNumbers { blocks: first, second_form_from: Some(half) };
        }
    }
    PageNumbers { blocks: number_blocks(reads, faint, ruled, counted, rows_y, cut, pitch), second_form_from: None }
}

/// Numbers the rows of every block of one form, in reading order. `reads` holds each block's
/// printed numbers row by row, and `faint` which of those number cells hold only ink faint
/// beside the block's print (`digits::faint_cells`; a row missing there counts as not faint);
/// `counted` each block's first number as counted from the rows (used where its printed numbers
/// cannot be read).
///
/// `rows_y` holds the middle of each block's rows on the page, and `pitch` the row pitch: a
/// counted block beside a block numbered by its printed numbers leaves out the rows the other
/// leaves out at its ends (a heading runs across the blocks side by side). `ruled` tells for each
/// row whether the block's column rulings run down it (a row missing there counts as ruled), and
/// `cut` which blocks' ends lie at the frame's edge (a block missing there is not cut).
pub fn number_blocks(
    reads: &[Vec<PrintedNumber>],
    faint: &[Vec<bool>],
    ruled: &[Vec<bool>],
    counted: &[u32],
    rows_y: &[Vec<f64>],
    cut: &[FrameCut],
    pitch: f64,
) -> Vec<BlockNumbers> {
    // first, each block by its own printed numbers, the surest first: a block read poorly is not
    // given numbers a surer block holds
    let alone: Vec<f32> = reads.iter().map(|rows| best_start(rows, None, &[], &ANY_NUMBERS).1).collect();
    let mut surest_first: Vec<usize> = (0..reads.len()).collect();
    crate::sort::by_key_descending(&mut surest_first, |&i| alone[i]);
    let mut fits: Vec<Option<i64>> = vec![None; reads.len()];
    let mut held: Vec<Range<i64>> = Vec::new();
    for &b in &surest_first {
        let rows = &reads[b];
        // (the start that continues the block before it in reading order, where that block is
        // fitted, needs fewer rows agreeing; ties go to the start that continues it, fitted or
        // counted)
        let continuing = b.checked_sub(1).and_then(|o| fits[o]).map(|start| start + reads[b - 1].len() as i64);
        let prefer = continuing.or_else(|| b.checked_sub(1).map(|o| counted[o] as i64 + reads[o].len() as i64));
        let in_order = starts_in_order(&fits, reads, cut, b);
        if let Some(start) = trusted_start(rows, prefer, continuing, &held, &in_order) {
            fits[b] = Some(start);
            held.push(start..start + rows.len() as i64);
        }
    }
    fit_blocks_by_their_units_digits(reads, &mut fits);
    // then each block's rows: the end rows that are no move rows are left out
    let mut out: Vec<BlockNumbers> = Vec::new();
    for (b, rows) in reads.iter().enumerate() {
        let Some(start) = fits[b] else {
            // counted: continuing the block before it where the count did
            let continues = b > 0 && counted[b] == counted[b - 1] + reads[b - 1].len() as u32;
            let first = if continues { out[b - 1].first + out[b - 1].rows.len() as u32 } else { counted[b] };
            out.push(BlockNumbers { first, rows: 0..rows.len(), printed: false });
            continue;
        };
        let held_elsewhere = |n: i64| {
            fits.iter().enumerate().any(|(o, f)| {
                o != b
                    && f.is_some_and(|s| {
                        let i = n - s;
                        i >= 0 && (i as usize) < reads[o].len() && agreement(&reads[o][i as usize], n) >= 1.0
                    })
            })
        };
        // (a row is no move row where its number comes before move 1, or where it does not show
        // its number and either another block prints that number, its number cell is empty or
        // holds only faint ink, or the block's column rulings leave it;
        // a cell that reads as no number is kept: a misread move number is more likely than a
        // heading that no rule above tells)
        // (the column rulings count at the block's foot only: a first row's ruling is often
        // broken where it meets the heading)
        let not_a_move_row = |i: usize, at_foot: bool| {
            let n = start + i as i64;
            let agrees = agreement(&rows[i], n) > 0.0;
            let unruled = at_foot && !ruled.get(b).and_then(|r| r.get(i)).copied().unwrap_or(true);
            let faint = faint.get(b).and_then(|r| r.get(i)).copied().unwrap_or(false);
            n < 1 || (!agrees && (held_elsewhere(n) || rows[i] == PrintedNumber::Empty || faint || unruled))
        };
        let mut keep = 0..rows.len();
        while keep.start < keep.end && not_a_move_row(keep.start, false) {
            keep.start += 1;
        }
        while keep.end > keep.start && not_a_move_row(keep.end - 1, true) {
            keep.end -= 1;
        }
        let first = (start + keep.start as i64).max(1) as u32;
        out.push(BlockNumbers { first, rows: keep, printed: true });
    }
    // a heading runs across the blocks side by side: a block leaves out the end rows another block
    // beside it leaves out, where it was counted or the row does not read its number
    for b in 0..out.len() {
        let at = |y: f64, o: usize| rows_y[o].iter().position(|&oy| (oy - y).abs() < 0.3 * pitch);
        // the rows of a numbered block beside it that it left out at its ends
        // (and the rows just beyond its end row where it left that row out: a heading two rows
        // high above a block beside one whose heading is found one row high; a block beside, its
        // rows and this block's at some heights alike, not one stacked above or below it)
        // (block `o`'s top and bottom rows' heights, where this block's rows lie beside it: some
        // of them within that span)
        let span_beside = |o: usize| {
            let (&top, &bottom) = (rows_y[o].first()?, rows_y[o].last()?);
            rows_y[b].iter().any(|&own| (top..=bottom).contains(&own)).then_some((top, bottom))
        };
        let beyond_an_end_left_out = |y: f64, o: usize| {
            let near = |gap: f64| (0.3 * pitch..HEADING_ROWS_BEYOND as f64 * pitch).contains(&gap);
            span_beside(o).is_some_and(|(top, bottom)| {
                (near(top - y) && !out[o].rows.contains(&0))
                    || (near(y - bottom) && !out[o].rows.contains(&(rows_y[o].len() - 1)))
            })
        };
        let left_out = |y: f64| {
            (0..out.len()).any(|o| {
                o != b
                    && out[o].printed
                    && (at(y, o).is_some_and(|i| !out[o].rows.contains(&i)) || beyond_an_end_left_out(y, o))
            })
        };
        // (a row below the foot of a numbered block beside it, whose last row is kept, that
        // shows no number of as many digits as its own: the table ends there, and what lies
        // under it, a blank line and a results line, is no move row; a move row whose number
        // is misread, under a block beside that lost its last row, mostly reads some number
        // of its digits)
        let below_the_foot_beside = |y: f64| {
            out[b].printed
                && (0..out.len()).any(|o| {
                    o != b
                        && out[o].printed
                        && out[o].rows.end == rows_y[o].len()
                        && span_beside(o).is_some_and(|(_, bottom)| {
                            (FOOT_ROWS_FROM * pitch..FOOT_ROWS_BEYOND * pitch).contains(&(y - bottom))
                        })
                })
        };
        let rows = out[b].rows.clone();
        let number_of = |i: usize| out[b].first as i64 + i as i64 - rows.start as i64;
        let unread = |i: usize| !out[b].printed || agreement(&reads[b][i], number_of(i)) == 0.0;
        let no_number_of_its_digits = |i: usize| reads[b][i].digit_count() != grid::digits(number_of(i).max(0) as u32);
        let mut keep = rows.clone();
        while keep.len() > 1 && unread(keep.start) && left_out(rows_y[b][keep.start]) {
            keep.start += 1;
        }
        while keep.len() > 1
            && unread(keep.end - 1)
            && (left_out(rows_y[b][keep.end - 1])
                || (no_number_of_its_digits(keep.end - 1) && below_the_foot_beside(rows_y[b][keep.end - 1])))
        {
            keep.end -= 1;
        }
        if out[b].printed {
            out[b].first = number_of(keep.start).max(1) as u32;
        }
        out[b].rows = keep;
    }
    settle_counted_blocks_before_numbered_ones(&mut out, reads, rows_y, pitch);
    out
}

/// Leaves out a block's first row where the table's analysis saw a heading's titles in it
/// (`titled`, for each block: the row is of another height than the move rows and holds a title
/// centred in each move cell on one baseline) and its number cell reads no number continuing
/// the rows below, while the rows below read theirs: "N. | Bianco | Nero" above
/// 31, 32, ... on a score book's continuation page, its "N." read as 76, which the rows' fit
/// numbers 30. A misread first number beside a writer's centred moves stays where neither of the
/// two rows below reads its number or a shape near it.
pub fn leave_out_titled_headings(blocks: &mut [BlockNumbers], reads: &[Vec<PrintedNumber>], titled: &[bool]) {
    for (b, block) in blocks.iter_mut().enumerate() {
        let top = block.rows.start;
        // (a first row left out already is no longer the titled one)
        if !block.printed || top != 0 || block.rows.len() < 2 || !titled.get(b).copied().unwrap_or(false) {
            continue;
        }
        let Some(rows) = reads.get(b) else { continue };
        let first = block.first as i64;
        let below_agrees =
            (1..=2).any(|i| rows.get(top + i).is_some_and(|read| agreement(read, first + i as i64) > 0.0));
        if agreement(&rows[top], first) == 0.0 && below_agrees {
            block.rows.start += 1;
            block.first += 1;
        }
    }
}

/// Leaves out a block's first and last rows taken beyond the rows whose printed numbers the
/// analysis saw, where it saw none (`unseen`, for each block:
/// [`super::grid::GBlock::rows_numbers_unseen`]), unless half of those among its move rows at
/// least read, at the page's resolution, a number like theirs: numbers printed too light for
/// the analysis read there. Above the rows a number like a row's is its own, one close in shape
/// ([`agreement`]) or one of as many digits (a faint "4" read as "7"): a heading row's blank
/// number cell reads as some mark, "1" above 41-80 on a continuation page. Below them any number
/// is (a faint "20" read as "30", "24" as "114"): what lies under a table, a results line or a
/// signature, reads as letters or nothing. A block whose rows are counted leaves them out too.
pub fn leave_out_rows_whose_numbers_do_not_read(
    blocks: &mut [BlockNumbers],
    reads: &[Vec<PrintedNumber>],
    unseen: &[RowsAtTheEnds],
) {
    for (b, block) in blocks.iter_mut().enumerate() {
        let (Some(&unseen), Some(reads)) = (unseen.get(b), reads.get(b)) else { continue };
        let half_read = |rows: Range<usize>, like: &dyn Fn(&PrintedNumber, u32) -> bool| {
            let read =
                rows.clone().filter(|&row| reads.get(row).is_some_and(|read| like(read, block.move_of(row)))).count();
            block.printed && 2 * read >= rows.len()
        };
        let its_own = |read: &PrintedNumber, n: u32| {
            agreement(read, n as i64) > 0.0 || read.best().is_some_and(|m| grid::digits(m) == grid::digits(n))
        };
        let any_number = |read: &PrintedNumber, _: u32| read.best().is_some();
        let first_seen = unseen.first.min(block.rows.end);
        let keeps_first = first_seen <= block.rows.start || half_read(block.rows.start..first_seen, &its_own);
        let last_seen_end = reads.len().saturating_sub(unseen.last).max(first_seen.max(block.rows.start));
        let keeps_last = last_seen_end >= block.rows.end || half_read(last_seen_end..block.rows.end, &any_number);
        if !keeps_first {
            block.first = block.move_of(first_seen);
            block.rows.start = first_seen;
        }
        if !keeps_last {
            block.rows.end = last_seen_end;
        }
    }
}

/// How many rows of a block whose printed numbers read `reads` show the last digit of the move
/// number that the start `start` gives them, with as many digits as that number has: small bold
/// print in a narrow number column loses a number's first digit against the ruling (25-48 read
/// 15, 16, ... 19, 10, 11) and keeps its last.
fn units_agreeing(reads: &[PrintedNumber], start: i64) -> usize {
    reads
        .iter()
        .enumerate()
        .filter(|&(i, read)| {
            let n = start + i as i64;
            n >= 1
                && read.digit_count() == grid::digits(n as u32)
                && read.best().is_some_and(|best| best as i64 % 10 == n % 10)
        })
        .count()
}

/// The fewest rows whose last digits agree with a start ([`fit_blocks_by_their_units_digits`]),
/// and their least share of the rows that show a number.
const UNITS_AGREEING_MIN_ROWS: usize = 4;
const UNITS_AGREEING_MIN_SHARE: f64 = 0.6;

/// Fits the blocks that no start fits by whole numbers (`fits[b]` None) but that continue a
/// fitted block before them, or are continued by a fitted block after them, by their printed
/// numbers' last digits: of the starts within [`ROWS_LOST_BETWEEN_BLOCKS`] of continuing, the
/// one whose last digits most rows show ([`UNITS_AGREEING_MIN_ROWS`], and
/// [`UNITS_AGREEING_MIN_SHARE`] of the rows that show a number), two rows more than any other
/// start there. Neighbouring starts give every row another last digit, so the digits tell which
/// rows the block holds (a heading taken as its first row, a row lost) where counting would not;
/// the block's place among the blocks gives the tens.
fn fit_blocks_by_their_units_digits(reads: &[Vec<PrintedNumber>], fits: &mut [Option<i64>]) {
    let lost = ROWS_LOST_BETWEEN_BLOCKS as i64;
    loop {
        let mut fitted_one = false;
        for b in 0..reads.len() {
            if fits[b].is_some() {
                continue;
            }
            let rows = reads[b].len() as i64;
            let after_the_one_before =
                b.checked_sub(1).and_then(|o| fits[o]).map(|start| start + reads[b - 1].len() as i64);
            let before_the_one_after = fits.get(b + 1).copied().flatten().map(|start| start - rows);
            let Some(continuing) = after_the_one_before.or(before_the_one_after) else { continue };
            let numbered = rows_showing_a_number(&reads[b]);
            let mut agreeing: Vec<(i64, usize)> = (continuing - lost..=continuing + lost)
                .map(|start| (start, units_agreeing(&reads[b], start)))
                .collect();
            crate::sort::by_key_descending(&mut agreeing, |&(_, n)| n);
            let (start, most) = agreeing[0];
            let others = agreeing[1].1;
            let enough = most >= UNITS_AGREEING_MIN_ROWS && most as f64 >= UNITS_AGREEING_MIN_SHARE * numbered as f64;
            if enough && most >= others + 2 {
                log::debug!(
                    "  block {b} numbered from {start} by its numbers' last digits ({most} of {numbered} rows)"
                );
                fits[b] = Some(start);
                fitted_one = true;
            }
        }
        if !fitted_one {
            return;
        }
    }
}

/// A counted block followed by a block numbered from its printed numbers must end where that one
/// starts. Where the counted rows run into the numbered block's numbers, both blocks still hold a
/// heading across them: the numbered block's top row does not read its number, so the row and
/// the counted block's row beside it (at its height) are left out, until the numbers meet.
fn settle_counted_blocks_before_numbered_ones(
    out: &mut [BlockNumbers],
    reads: &[Vec<PrintedNumber>],
    rows_y: &[Vec<f64>],
    pitch: f64,
) {
    for b in 1..out.len() {
        let (counted, numbered) = (b - 1, b);
        if out[counted].printed || !out[numbered].printed {
            continue;
        }
        let overlap = |out: &[BlockNumbers]| {
            (out[counted].first as i64 + out[counted].rows.len() as i64) - out[numbered].first as i64
        };
        while overlap(out) > 0 && out[numbered].rows.len() > 1 {
            let top = out[numbered].rows.start;
            if agreement(&reads[numbered][top], out[numbered].first as i64) > 0.0 {
                break;
            }
            let y = rows_y[numbered][top];
            out[numbered].rows.start += 1;
            out[numbered].first += 1;
            let beside = out[counted].rows.start;
            if out[counted].rows.len() > 1 && (rows_y[counted][beside] - y).abs() < 0.3 * pitch {
                out[counted].rows.start += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_continue_where_each_starts_past_the_last_but_a_row_or_two() {
        let block = |first: u32, rows: usize, printed: bool| BlockNumbers { first, rows: 0..rows, printed };
        assert!(blocks_continue(&[block(1, 30, true), block(31, 30, true)]));
        // (the last row of the first block lost at the photo's edge)
        assert!(blocks_continue(&[block(1, 29, true), block(31, 29, true)]));
        // (001-030 read as 301-329)
        assert!(!blocks_continue(&[block(301, 29, true), block(31, 29, true)]));
        assert!(!blocks_continue(&[block(1, 25, true), block(20, 25, true)]));
        // (a counted block between them says nothing)
        assert!(blocks_continue(&[block(1, 20, true), block(21, 20, false), block(41, 20, true)]));
    }

    /// The middles of `n` rows of pitch 10 from `top`.
    fn rows_at(top: usize, n: usize) -> Vec<f64> {
        (0..n).map(|i| (top + 10 * i) as f64 + 5.0).collect()
    }

    #[test]
    fn a_titled_first_row_reading_no_continuing_number_is_left_out() {
        // a continuation page: "N." (read as 76) above 31-60; the fit numbers the heading 30
        let heading_above =
            |top: PrintedNumber| -> Vec<PrintedNumber> { std::iter::once(top).chain((31..=60).map(read)).collect() };
        let reads = vec![heading_above(read(76))];
        let mut got = number_blocks(&reads, &[], &[], &[1], &[rows_at(0, 31)], &[], 10.0);
        assert_eq!(got[0], BlockNumbers { first: 30, rows: 0..31, printed: true });
        leave_out_titled_headings(&mut got, &reads, &[true]);
        assert_eq!(got[0], BlockNumbers { first: 31, rows: 1..31, printed: true });
        // not titled: kept (a misread move number)
        let mut untitled = number_blocks(&reads, &[], &[], &[1], &[rows_at(0, 31)], &[], 10.0);
        leave_out_titled_headings(&mut untitled, &reads, &[false]);
        assert_eq!(untitled[0].rows, 0..31);
        // titled, but the first row reads its own number (a writer's centred moves): kept
        let reads = vec![heading_above(read(30))];
        let mut numbered = number_blocks(&reads, &[], &[], &[1], &[rows_at(0, 31)], &[], 10.0);
        leave_out_titled_headings(&mut numbered, &reads, &[true]);
        assert_eq!(numbered[0], BlockNumbers { first: 30, rows: 0..31, printed: true });
        // titled, its number misread and the two rows below too: kept
        let mut reads = vec![heading_above(read(76))];
        reads[0][1] = read(81);
        reads[0][2] = read(97);
        let mut misread = number_blocks(&reads, &[], &[], &[1], &[rows_at(0, 31)], &[], 10.0);
        leave_out_titled_headings(&mut misread, &reads, &[true]);
        assert_eq!(misread[0].rows, 0..31);
    }

    #[test]
    fn rows_taken_with_their_numbers_unseen_stay_where_their_numbers_read_at_the_pages_resolution() {
        let numbered = |rows: std::ops::Range<usize>, first: u32| BlockNumbers { first, rows, printed: true };
        let unseen = |first: usize, last: usize| [RowsAtTheEnds { first, last }];
        // a continuation page's heading row, its blank number cell read as "1", above 41-80
        let reads = vec![std::iter::once(read(1)).chain((41..=80).map(read)).collect::<Vec<_>>()];
        let mut got = [numbered(0..41, 40)];
        leave_out_rows_whose_numbers_do_not_read(&mut got, &reads, &unseen(1, 0));
        assert_eq!(got[0], numbered(1..41, 41));
        // three faint rows under 1-19 read as 30, 31 and 33: numbers of as many digits, misread
        let mut reads = vec![(1..=19).map(read).chain([30, 31, 33].map(read)).collect::<Vec<_>>()];
        let mut got = [numbered(0..22, 1)];
        leave_out_rows_whose_numbers_do_not_read(&mut got, &reads, &unseen(0, 3));
        assert_eq!(got[0], numbered(0..22, 1));
        // rows under 1-21 read as a mark, 77 and 114: numbers, of other digits, kept
        let faint: Vec<PrintedNumber> = (1..=21).map(read).chain([PrintedNumber::Other, read(77), read(114)]).collect();
        let mut got = [numbered(0..24, 1)];
        leave_out_rows_whose_numbers_do_not_read(&mut got, &[faint], &unseen(0, 3));
        assert_eq!(got[0], numbered(0..24, 1));
        // a results line and a blank row under them, its cells reading nothing: left out
        reads[0].extend([PrintedNumber::Other, PrintedNumber::Empty]);
        let mut got = [numbered(0..24, 1)];
        leave_out_rows_whose_numbers_do_not_read(&mut got, &reads, &unseen(0, 2));
        assert_eq!(got[0], numbered(0..22, 1));
        // rows counted: nothing tells them, left out
        let mut got = [BlockNumbers { first: 1, rows: 0..24, printed: false }];
        leave_out_rows_whose_numbers_do_not_read(&mut got, &reads, &unseen(0, 2));
        assert_eq!(got[0].rows, 0..22);
    }

    #[test]
    fn a_counted_block_beside_a_numbered_one_leaves_out_its_heading_too() {
        let first: Vec<PrintedNumber> = std::iter::once(PrintedNumber::Empty).chain((1..=20).map(read)).collect();
        let second = vec![PrintedNumber::Other; 21];
        let got = number_blocks(&[first, second], &[], &[], &[1, 22], &[rows_at(0, 21), rows_at(0, 21)], &[], 10.0);
        assert_eq!(got[0], BlockNumbers { first: 1, rows: 1..21, printed: true });
        assert_eq!(got[1], BlockNumbers { first: 21, rows: 1..21, printed: false });
    }

    /// A printed number read exactly (every other digit far).
    fn read(n: u32) -> PrintedNumber {
        PrintedNumber::Digits(
            n.to_string()
                .bytes()
                .map(|c| {
                    let mut d = [0.2f32; 10];
                    d[(c - b'0') as usize] = 0.01;
                    d
                })
                .collect(),
        )
    }

    #[test]
    fn a_block_whose_misread_numbers_fit_past_the_next_block_is_numbered_on_in_order() {
        // three blocks of 25 rows; the middle one blurred: most numbers read as 88s and a few as
        // 84 85 86 89, which a start of 76 (after the third block, 51-75) fits best
        let first: Vec<PrintedNumber> = (1..=25).map(read).collect();
        let third: Vec<PrintedNumber> = (51..=75).map(read).collect();
        let middle: Vec<PrintedNumber> =
            (0..25).map(|i| read(if (8..=10).contains(&i) || i == 13 { 76 + i } else { 88 })).collect();
        let rows = || rows_at(0, 25);
        let got = number_blocks(&[first, middle, third], &[], &[], &[1, 26, 51], &[rows(), rows(), rows()], &[], 10.0);
        assert_eq!(got[0].first, 1);
        assert_eq!(got[1].first, 26);
        assert_eq!(got[2].first, 51);
    }

    #[test]
    fn a_block_whose_numbers_lose_their_first_digit_is_numbered_by_their_last_digits() {
        // 1-24 | 25-48 | 49-72 in a narrow number column: the second and third blocks' first
        // digits read as 1s against the ruling (25 as 15, 30 as 10), a heading row above the
        // third, its number cell empty
        let first: Vec<PrintedNumber> = (1..=24).map(read).collect();
        let tens_lost = |n: u32| read(10 + n % 10);
        let second: Vec<PrintedNumber> = (25..=48).map(tens_lost).collect();
        let third: Vec<PrintedNumber> = std::iter::once(PrintedNumber::Empty).chain((49..=72).map(tens_lost)).collect();
        let (rows, rows_under_a_heading) = (rows_at(10, 24), rows_at(0, 25));
        let got = number_blocks(
            &[first, second, third],
            &[],
            &[],
            &[1, 25, 49],
            &[rows.clone(), rows, rows_under_a_heading],
            &[],
            10.0,
        );
        assert_eq!(got[1], BlockNumbers { first: 25, rows: 0..24, printed: true });
        assert_eq!(got[2], BlockNumbers { first: 49, rows: 1..25, printed: true });
        // last digits that agree with no start by more than chance leave the block counted
        let scattered: Vec<PrintedNumber> = (0..24).map(|i| read(10 + (i * 7 % 10))).collect();
        let got = number_blocks(
            &[(1..=24).map(read).collect(), scattered],
            &[],
            &[],
            &[1, 25],
            &[rows_at(10, 24), rows_at(10, 24)],
            &[],
            10.0,
        );
        assert_eq!(got[1], BlockNumbers { first: 25, rows: 0..24, printed: false });
    }

    #[test]
    fn a_block_beside_one_the_frame_cuts_need_not_continue_it() {
        // a photo of part of a 1-40 | 41-80 sheet: rows 16-29 of the first block, its foot cut by
        // the frame, and 56-69 of the second, whose small print reads right in 4 rows only
        let first: Vec<PrintedNumber> = (16..=29).map(read).collect();
        let second: Vec<PrintedNumber> =
            (56..=69).map(|n| if [63, 65, 67, 68].contains(&n) { read(n) } else { PrintedNumber::Other }).collect();
        let reads = [first, second];
        let rows_y = [rows_at(0, 14), rows_at(0, 14)];
        let whole = number_blocks(&reads, &[], &[], &[1, 15], &rows_y, &[], 10.0);
        assert_eq!(whole[1], BlockNumbers { first: 30, rows: 0..14, printed: false });
        let foot_cut = [FrameCut { top: false, bottom: true }, FrameCut::default()];
        let cut = number_blocks(&reads, &[], &[], &[1, 15], &rows_y, &foot_cut, 10.0);
        assert_eq!(cut[0], BlockNumbers { first: 16, rows: 0..14, printed: true });
        assert_eq!(cut[1], BlockNumbers { first: 56, rows: 0..14, printed: true });
    }

    #[test]
    fn a_block_read_poorly_that_continues_the_block_before_needs_few_rows_agreeing() {
        // 1-35 | 36-70 in small old print: the first block found from row 2 to 34 and read right,
        // the second from row 37 on, reading 41, 42, 44 and 45 in its rows 4, 5, 7 and 8 and
        // wrong or no numbers in the other 29 rows (a fifth of its numbered rows would be 5)
        let first: Vec<PrintedNumber> = (2..=34).map(read).collect();
        let second: Vec<PrintedNumber> = (0..33)
            .map(|i| match i {
                4 | 5 | 7 | 8 => read(37 + i as u32),
                _ if i % 5 == 3 => PrintedNumber::Other,
                _ => read([514, 331, 441, 11, 426, 141, 914, 116][i % 8]),
            })
            .collect();
        let got = number_blocks(&[first, second], &[], &[], &[1, 34], &[rows_at(0, 33), rows_at(0, 33)], &[], 10.0);
        assert_eq!(got[1], BlockNumbers { first: 37, rows: 0..33, printed: true });
    }

    #[test]
    fn blocks_whose_first_row_is_a_heading_are_in_order() {
        // 1-40 | 41-80, each block's first row a heading not yet left out (the first block's
        // rows fitted as 0-40, the second's as 40-80); the second block's numbers read poorly
        let heading = || std::iter::once(PrintedNumber::Other);
        let first: Vec<PrintedNumber> = heading().chain((1..=40).map(read)).collect();
        let second: Vec<PrintedNumber> =
            heading().chain((41..=80).map(|n| if n % 3 == 0 { read(n) } else { PrintedNumber::Other })).collect();
        let rows = || rows_at(0, 41);
        let got = number_blocks(&[first, second], &[], &[], &[1, 41], &[rows(), rows()], &[], 10.0);
        assert_eq!(got[0], BlockNumbers { first: 1, rows: 1..41, printed: true });
        assert_eq!(got[1], BlockNumbers { first: 41, rows: 1..41, printed: true });
    }

    #[test]
    fn a_counted_block_before_a_numbered_one_loses_the_heading_rows_they_share() {
        // Two heading rows across both blocks; the first block's numbers unread, the second's
        // headings read as stray digits (a slanted photo), so neither is left out by its own.
        let first = vec![PrintedNumber::Other; 27];
        let second: Vec<PrintedNumber> = [read(76), read(27)].into_iter().chain((26..=50).map(read)).collect();
        let got = number_blocks(&[first, second], &[], &[], &[1, 28], &[rows_at(0, 27), rows_at(0, 27)], &[], 10.0);
        assert_eq!(got[1], BlockNumbers { first: 26, rows: 2..27, printed: true });
        assert_eq!(got[0], BlockNumbers { first: 1, rows: 2..27, printed: false });
    }

    #[test]
    fn a_heading_row_above_the_printed_numbers_is_no_move_row() {
        let first: Vec<PrintedNumber> =
            std::iter::once(PrintedNumber::Empty).chain((1..=25).map(read)).chain([PrintedNumber::Other]).collect();
        let second: Vec<PrintedNumber> = std::iter::once(PrintedNumber::Other).chain((26..=50).map(read)).collect();
        let got = number_blocks(&[first, second], &[], &[], &[1, 28], &[rows_at(0, 27), rows_at(0, 26)], &[], 10.0);
        assert_eq!(got[0], BlockNumbers { first: 1, rows: 1..26, printed: true });
        assert_eq!(got[1], BlockNumbers { first: 26, rows: 1..26, printed: true });
    }

    #[test]
    fn a_second_copy_of_the_form_on_the_page_keeps_no_rows() {
        // two half-page forms, each 1-20 | 21-40 with a result row under its blocks
        let block =
            |from: u32| -> Vec<PrintedNumber> { (from..from + 20).map(read).chain([PrintedNumber::Other]).collect() };
        let reads = [block(1), block(21), block(1), block(21)];
        let rows_y = vec![rows_at(0, 21); 4];
        let got = number_page(&reads, &[], &[], &[1, 22, 43, 64], &rows_y, &[], 10.0);
        assert_eq!(got.second_form_from, Some(2));
        assert_eq!(got.blocks[0], BlockNumbers { first: 1, rows: 0..20, printed: true });
        assert_eq!(got.blocks[1], BlockNumbers { first: 21, rows: 0..20, printed: true });
        assert!(got.blocks[2].rows.is_empty() && got.blocks[3].rows.is_empty(), "{got:?}");
        // one form of four blocks is numbered whole, its third block misread as 11-30 included
        let mut third = block(41);
        third.iter_mut().take(20).enumerate().for_each(|(i, r)| *r = read(11 + i as u32));
        let got = number_page(&[block(1), block(21), third, block(61)], &[], &[], &[1, 22, 43, 64], &rows_y, &[], 10.0);
        assert_eq!(got.second_form_from, None);
        assert!(got.blocks.iter().all(|b| b.rows.len() == 20), "{got:?}");
        assert_eq!((got.blocks[0].first, got.blocks[1].first, got.blocks[3].first), (1, 21, 61));
    }

    #[test]
    fn misread_numbers_leave_the_run_the_most_agree_with() {
        let mut rows: Vec<PrintedNumber> = (41..=80).map(read).collect();
        rows[0] = read(11);
        rows[9] = read(58);
        rows[30] = PrintedNumber::Other;
        let got = number_blocks(&[rows], &[], &[], &[1], &[rows_at(0, 40)], &[], 10.0);
        assert_eq!(got[0], BlockNumbers { first: 41, rows: 0..40, printed: true });
    }

    #[test]
    fn a_footer_row_whose_number_another_block_prints_is_dropped() {
        // the row under the first block reads a mark like a 0, and the next block prints 31
        let mut first: Vec<PrintedNumber> = (1..=30).map(read).collect();
        first.push(read(8));
        let second: Vec<PrintedNumber> = (31..=60).map(read).collect();
        let got = number_blocks(&[first, second], &[], &[], &[1, 32], &[rows_at(0, 31), rows_at(0, 30)], &[], 10.0);
        assert_eq!(got[0].rows, 0..30);
        assert_eq!(got[1].first, 31);
    }

    #[test]
    fn a_heading_row_above_one_another_block_leaves_out_is_left_out_too() {
        // the second block's heading found two rows high, the first block's one row high, and
        // the first block's last two numbers misread: the second block is fitted two rows into
        // the first, and its heading rows are no moves 24 and 25
        let mut first: Vec<PrintedNumber> = std::iter::once(PrintedNumber::Other).chain((1..=25).map(read)).collect();
        first[24] = read(741);
        first[25] = read(71);
        let second: Vec<PrintedNumber> =
            [PrintedNumber::Other, PrintedNumber::Other].into_iter().chain((26..=50).map(read)).collect();
        let got = number_blocks(&[first, second], &[], &[], &[1, 28], &[rows_at(60, 26), rows_at(50, 27)], &[], 10.0);
        assert_eq!(got[0], BlockNumbers { first: 1, rows: 1..26, printed: true });
        assert_eq!(got[1], BlockNumbers { first: 26, rows: 2..27, printed: true });
    }

    #[test]
    fn a_last_row_above_the_heading_of_a_block_stacked_under_it_keeps_its_place() {
        // 1-20 above 21-40 with its heading row: the first block's last number does not read
        let mut first: Vec<PrintedNumber> = (1..=20).map(read).collect();
        first[19] = PrintedNumber::Other;
        let second: Vec<PrintedNumber> = std::iter::once(PrintedNumber::Empty).chain((21..=40).map(read)).collect();
        let got = number_blocks(&[first, second], &[], &[], &[1, 21], &[rows_at(0, 20), rows_at(205, 21)], &[], 10.0);
        assert_eq!(got[0], BlockNumbers { first: 1, rows: 0..20, printed: true });
        assert_eq!(got[1], BlockNumbers { first: 21, rows: 1..21, printed: true });
    }

    #[test]
    fn a_block_without_readable_numbers_is_counted_after_the_one_before() {
        let first: Vec<PrintedNumber> = std::iter::once(PrintedNumber::Empty).chain((1..=20).map(read)).collect();
        let second = vec![PrintedNumber::Other; 20];
        // counted: the heading taken for move 1, the second block continuing at 22
        let got = number_blocks(&[first, second], &[], &[], &[1, 22], &[rows_at(0, 21), rows_at(500, 20)], &[], 10.0);
        assert_eq!(got[0].first, 1);
        assert_eq!(got[1], BlockNumbers { first: 21, rows: 0..20, printed: false });
    }

    #[test]
    fn a_move_row_whose_printed_number_is_hidden_keeps_its_place() {
        let mut rows: Vec<PrintedNumber> = (1..=25).map(read).collect();
        rows[0] = read(7); // a writer's stroke over the "1"
        let got = number_blocks(&[rows], &[], &[], &[1], &[rows_at(0, 40)], &[], 10.0);
        assert_eq!(got[0], BlockNumbers { first: 1, rows: 0..25, printed: true });
    }

    #[test]
    fn a_last_row_the_column_rulings_leave_is_no_move_row_unless_it_reads_its_number() {
        // a result line under 26-50: no number read there, the column rulings end above it
        let rows: Vec<PrintedNumber> = (26..=50).map(read).chain([PrintedNumber::Other]).collect();
        let mut ruled = vec![true; 26];
        ruled[25] = false;
        let got =
            number_blocks(std::slice::from_ref(&rows), &[], &[ruled.clone()], &[26], &[rows_at(0, 26)], &[], 10.0);
        assert_eq!(got[0], BlockNumbers { first: 26, rows: 0..25, printed: true });
        // ruled down to it, the row is kept (a misread move number)
        let got = number_blocks(&[rows], &[], &[vec![true; 26]], &[26], &[rows_at(0, 26)], &[], 10.0);
        assert_eq!(got[0].rows, 0..26);
        // a last move row whose ruling is faint, with its number printed, is kept
        let rows: Vec<PrintedNumber> = (1..=25).map(read).collect();
        let got = number_blocks(&[rows], &[], &[ruled[1..].to_vec()], &[1], &[rows_at(0, 25)], &[], 10.0);
        assert_eq!(got[0].rows, 0..25);
    }

    #[test]
    fn end_rows_below_the_foot_of_a_block_beside_are_no_move_rows_unless_they_read_their_numbers() {
        // a results line runs under 31-60, a row below the foot of 1-30 beside it, ruled alike
        let first: Vec<PrintedNumber> = (1..=30).map(read).collect();
        let second: Vec<PrintedNumber> = (31..=60).map(read).chain([PrintedNumber::Other]).collect();
        let rows_y = [rows_at(0, 30), rows_at(0, 31)];
        let got = number_blocks(&[first.clone(), second], &[], &[], &[1, 31], &rows_y, &[], 10.0);
        assert_eq!(got[1], BlockNumbers { first: 31, rows: 0..30, printed: true });
        // a block of 31-61 beside 1-30 keeps its last row where that row reads its number
        let second: Vec<PrintedNumber> = (31..=61).map(read).collect();
        let got = number_blocks(&[first.clone(), second], &[], &[], &[1, 31], &rows_y, &[], 10.0);
        assert_eq!(got[1], BlockNumbers { first: 31, rows: 0..31, printed: true });
        // a last row reading a number of its digits, misread, beside a block that lost its last
        // row, keeps its place
        let mut misread: Vec<PrintedNumber> = (31..=60).map(read).collect();
        misread[29] = read(80);
        let lost_its_last: Vec<PrintedNumber> = (1..=29).map(read).collect();
        let rows_y = [rows_at(0, 29), rows_at(0, 30)];
        let got = number_blocks(&[lost_its_last, misread], &[], &[], &[1, 31], &rows_y, &[], 10.0);
        assert_eq!(got[1].rows, 0..30);
        // a block stacked under another, not beside it, keeps its misread last row
        let second: Vec<PrintedNumber> = (31..=60).map(read).chain([PrintedNumber::Other]).collect();
        let got = number_blocks(&[first, second], &[], &[], &[1, 31], &[rows_at(0, 30), rows_at(400, 31)], &[], 10.0);
        assert_eq!(got[1].rows, 0..31);
        // two rows under the foot beside, a blank line and the results line, neither reading a number
        let first: Vec<PrintedNumber> = (1..=20).map(read).collect();
        let second: Vec<PrintedNumber> =
            (21..=40).map(read).chain([PrintedNumber::Other, PrintedNumber::Other]).collect();
        let got = number_blocks(&[first, second], &[], &[], &[1, 21], &[rows_at(0, 20), rows_at(0, 22)], &[], 10.0);
        assert_eq!(got[1], BlockNumbers { first: 21, rows: 0..20, printed: true });
    }

    #[test]
    fn a_block_read_poorly_is_not_given_the_numbers_a_surer_block_holds() {
        // the middle block's leading "2" is lost: 21-28 read as 1-8, then 31, 33-35, 37, 38
        let first: Vec<PrintedNumber> = (1..=20).map(read).collect();
        let mut second: Vec<PrintedNumber> = (1..=8).map(read).collect();
        second.extend([PrintedNumber::Other, PrintedNumber::Other, read(31), read(3)]);
        second.extend([33, 34, 35, 16, 37, 38, 13, 11].map(read));
        let third: Vec<PrintedNumber> = (41..=60).map(read).collect();
        let got = number_blocks(
            &[first, second, third],
            &[],
            &[],
            &[1, 21, 41],
            &[rows_at(0, 20), rows_at(0, 20), rows_at(0, 20)],
            &[],
            10.0,
        );
        assert_eq!(got[1], BlockNumbers { first: 21, rows: 0..20, printed: true });
    }

    #[test]
    fn a_faint_end_row_that_does_not_read_its_number_is_no_move_row_and_a_faint_one_that_does_is() {
        // (a heading whose ruling's grey edge reads "1", a blank row under the block showing the
        // back page's "41"; and a block whose first two numbers are printed light but read)
        let rows: Vec<PrintedNumber> = [1].into_iter().chain(61..=80).chain([41]).map(read).collect();
        let mut faint = vec![false; rows.len()];
        (faint[0], faint[21]) = (true, true);
        let got = number_blocks(&[rows.clone()], &[faint], &[], &[61], &[rows_at(0, 22)], &[], 10.0);
        assert_eq!(got[0], BlockNumbers { first: 61, rows: 1..21, printed: true });
        let without = number_blocks(&[rows], &[], &[], &[61], &[rows_at(0, 22)], &[], 10.0);
        assert_eq!(without[0], BlockNumbers { first: 60, rows: 0..22, printed: true });
        let light: Vec<PrintedNumber> = (1..=20).map(read).collect();
        let mut faint = vec![false; 20];
        (faint[0], faint[1]) = (true, true);
        let got = number_blocks(&[light], &[faint], &[], &[1], &[rows_at(0, 20)], &[], 10.0);
        assert_eq!(got[0], BlockNumbers { first: 1, rows: 0..20, printed: true });
    }

    #[test]
    fn a_heading_row_beside_a_heading_another_block_leaves_out_is_left_out_too() {
        // three blocks side by side under one heading row: the first block's heading would be
        // move 0, the others' read as nothing and would be moves 20 and 40
        let block = |from: u32| -> Vec<PrintedNumber> {
            std::iter::once(PrintedNumber::Other).chain((from..from + 20).map(read)).collect()
        };
        let got = number_blocks(
            &[block(1), block(21), block(41)],
            &[],
            &[],
            &[1, 22, 43],
            &[rows_at(0, 21), rows_at(0, 21), rows_at(0, 21)],
            &[],
            10.0,
        );
        for (b, first) in [1, 21, 41].into_iter().enumerate() {
            assert_eq!(got[b], BlockNumbers { first, rows: 1..21, printed: true });
        }
    }
}
