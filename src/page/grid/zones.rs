//! Number zones: printed move numbers that share a column with the moves, with no ruling
//! between them (a shaded background only, or the number printed inside White's cell, at its
//! right end, or between White's move and Black's), found from printed glyphs of one height and
//! line, and the virtual rulings that split their columns (docs/page.md, step 9).

use super::*;

/// The tallest printed move numbers of a number zone, in row pitches (measured: 0.31-0.46 on HCS
/// and synthetic forms; a writer's letters at a column's side 0.63 and more).
pub(super) const MAX_NUMBER_HEIGHT: f64 = 0.55;

/// The farthest a number zone ends from its column's side, in row pitches: a number of three
/// digits and a dot, with the space about it, is under two pitches wide; glyphs of one height
/// that far in every row are another column's numbers, seen across a column whose rulings are
/// not printed.
const MAX_NUMBER_ZONE_REACH: f64 = 3.0;

/// A number zone at a column's side: how far from the side it ends, and the printed numbers'
/// height.
#[derive(Clone, Copy, Debug)]
pub(super) struct NumberZone {
    pub(super) reach: f64,
    pub(super) height: f64,
}

impl NumberZone {
    /// Whether the zone fits in a column `width` wide as numbers printed beside the moves do:
    /// under 45 % of its width, and [`MAX_NUMBER_ZONE_REACH`] pitches at most.
    pub(super) fn fits_in(&self, width: f64, pitch: f64) -> bool {
        self.reach < 0.45 * width && self.reach <= MAX_NUMBER_ZONE_REACH * pitch
    }
}

/// One glyph group nearest a column's side in a row: its top, height and far end's distance from
/// the side.
#[derive(Clone, Copy, Debug)]
pub(super) struct SideGlyphs {
    pub(super) top: f64,
    /// How far the top lies below the row's upper ruling.
    pub(super) below_ruling: f64,
    pub(super) height: f64,
    /// The near end's distance from the side.
    pub(super) near: f64,
    pub(super) reach: f64,
}

/// The widest glyph [`glyph_groups_at_side`] takes for a piece of a printed number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GlyphWidth {
    /// One digit: 0.6 row pitches.
    Digit,
    /// A whole number whose digits binarize as one glyph (bold print at the analysed size):
    /// 1.2 row pitches.
    Number,
}

/// The tallest printed digits (pixels, at the analysed size) whose spacing binarizes closed, so
/// that a number's digits come out as one glyph: about a tenth of the height apart, under 1 px.
const MERGED_DIGITS_HEIGHT: f64 = 10.0;

/// Whether the glyph groups of a number zone's `height` are aligned as printed numbers are: in
/// 70 % of the groups their tops lie as far below the row's ruling, and their near ends, far ends
/// or middles as far from the column's side, each within a pixel or a tenth of a pitch, and their
/// far ends lie within half a pitch (but for a tenth of the groups each way). A writer's moves
/// lined up at a column's side end far apart.
pub(super) fn aligned_as_printed(groups: &[SideGlyphs], height: f64, pitch: f64) -> bool {
    let zone: Vec<&SideGlyphs> = groups.iter().filter(|g| (g.height - height).abs() <= NUMBER_HEIGHT_SPREAD).collect();
    if zone.is_empty() {
        return false;
    }
    let agree = |values: Vec<f64>| {
        if values.is_empty() {
            return false;
        }
        let line = median(values.clone());
        let on_line = values.iter().filter(|v| (*v - line).abs() <= (0.1 * pitch).max(1.0)).count();
        on_line as f64 >= 0.7 * values.len() as f64
    };
    let measured = |f: fn(&SideGlyphs) -> f64| zone.iter().map(|g| f(g)).collect::<Vec<f64>>();
    // (numbers of one, two and three digits reach a digit's width or two apart; a writer's moves
    // of two to six letters farther)
    let reaches = measured(|g| g.reach);
    let reach_spread = quantile(reaches.clone(), 0.9) - quantile(reaches, 0.1);
    agree(measured(|g| g.below_ruling))
        && reach_spread <= 0.5 * pitch
        && (agree(measured(|g| g.near))
            || agree(measured(|g| g.reach))
            || agree(measured(|g| 0.5 * (g.near + g.reach))))
}

/// The number zone that the glyph groups at a column's side make, where they stand in most of its
/// `rows` rows at one height ([`printed_number_height`]).
pub(super) fn number_zone_of(groups: &[SideGlyphs], rows: usize, pitch: f64) -> Option<NumberZone> {
    let heights: Vec<f64> = groups.iter().map(|g| g.height).collect();
    let height = printed_number_height(&heights, rows, pitch)?;
    let mut reaches: Vec<f64> =
        groups.iter().filter(|g| (g.height - height).abs() <= NUMBER_HEIGHT_SPREAD).map(|g| g.reach).collect();
    reaches.sort_unstable_by(f64::total_cmp);
    let r = reaches[(reaches.len() * 9 / 10).min(reaches.len() - 1)];
    Some(NumberZone { reach: r + 0.35 * pitch, height })
}

/// Printed move numbers sharing a column with the moves (no ruling between them, e.g. only a
/// shaded background) stand in most rows as a glyph group of the same printed height and top in
/// the left part of the cell (or, `from_right`, in its right part: a number printed at the right
/// end of White's cell, just left of the rule between the players). Returns the glyph group
/// nearest the side in each row, within the 45 % of the cell next to it, of a printed digit's
/// height and at most as wide as `glyph_width` lets a glyph be; [`number_zone_of`] tells whether
/// they make a number zone.
pub(super) fn glyph_groups_at_side(
    b: &Bin,
    lb_transposed: &Bin,
    c: &Column,
    pitch: f64,
    from_right: bool,
    glyph_width: GlyphWidth,
) -> Vec<SideGlyphs> {
    // (the widest glyph taken, and the widest space between glyphs of one number: a whole number
    // is joined by its dot or comma alone, and a writer's move may stand as near as its digits'
    // spacing)
    let (widest, joined_across) = match glyph_width {
        GlyphWidth::Digit => (0.6 * pitch, 0.35 * pitch),
        GlyphWidth::Number => (1.2 * pitch, 0.15 * pitch),
    };
    // (whether a ruling is printed along the zone's side, down the column's rows)
    let (first_row, last_row) = (c.rows[0].0.mid(), c.rows[c.rows.len() - 1].1.mid());
    let side = if from_right { &c.right } else { &c.left };
    let side_ruled = super::lines::cover(lb_transposed, side, first_row, last_row) >= 0.5;
    let mut found: Vec<SideGlyphs> = Vec::new();
    for (t, bo) in &c.rows {
        let yc = 0.5 * (t.mid() + bo.mid());
        let xc = c.centre_x(yc);
        let (xa, xb) = (c.left.at(yc), c.right.at(yc));
        let cw = xb - xa;
        let bx = if from_right {
            [xb - 0.45 * cw, t.at(xc), xb, bo.at(xc)]
        } else {
            [xa, t.at(xc), xa + 0.45 * cw, bo.at(xc)]
        };
        // (components as seen from the zone's side: their near and far ends' distances from it;
        // a number at the right end of White's cell is printed against the ruling between the
        // players and touches the searched area's edge there: kept, while one cut by the zone's
        // far edge is handwriting reaching in; at a column's left, the remnants of a printed
        // ruling at the edge are no digits, while beside an unprinted border they are)
        let [inner_left, _, inner_right, _] = searched_area(b, bx);
        let at_an_edge_left_out = |q: &(usize, usize, usize, usize, usize)| {
            if from_right { q.0 == inner_left } else { (q.0 == inner_left && side_ruled) || q.2 + 1 == inner_right }
        };
        let mut comps: Vec<(f64, f64, usize, usize)> = components_in(b, bx, false)
            .into_iter()
            .filter(|q| !at_an_edge_left_out(q))
            .filter(|q| {
                let hh = (q.3 - q.1 + 1) as f64;
                hh >= 0.2 * pitch && hh <= 0.75 * pitch && ((q.2 - q.0 + 1) as f64) <= widest && q.4 >= 4
            })
            .map(|q| {
                let (near, far) =
                    if from_right { (xb - q.2 as f64, xb - q.0 as f64) } else { (q.0 as f64 - xa, q.2 as f64 - xa) };
                (near, far, q.1, q.3)
            })
            .collect();
        crate::sort::by_key(&mut comps, |p| p.0);
        let Some(first) = comps.first().copied() else { continue };
        // (faint print breaks digits into pieces: the group's extent counts, not one piece's)
        let (mut reach, mut top, mut bot) = (first.1, first.2, first.3);
        for q in &comps[1..] {
            let band = (q.2 as f64) >= first.2 as f64 - 0.3 * pitch && (q.3 as f64) <= first.3 as f64 + 0.3 * pitch;
            if q.0 <= reach + joined_across && band {
                reach = reach.max(q.1);
                top = top.min(q.2);
                bot = bot.max(q.3);
            }
        }
        let below_ruling = top as f64 - t.at(xc);
        found.push(SideGlyphs { top: top as f64, below_ruling, height: (bot - top + 1) as f64, near: first.0, reach });
    }
    if log::log_enabled!(log::Level::Debug) {
        let v: Vec<String> = found.iter().map(|f| format!("{:.0}/{:.0}/{:.0}", f.top, f.height, f.reach)).collect();
        log::debug!(
            "  number zone? x {:.0} {}: {} of {} rows: {}",
            c.left.mid(),
            if from_right { "right" } else { "left" },
            found.len(),
            c.rows.len(),
            v.join(" ")
        );
    }
    found
}

/// The share of a column's rows that must show glyphs like a number zone's printed numbers for
/// the zone to be copied to it from a block whose width differs by more than 6 %.
const NUMBERS_SEEN_SHARE: f64 = 0.33;

/// How far (pixels) a printed number's height may lie from the numbers' median height.
pub(super) const NUMBER_HEIGHT_SPREAD: f64 = 1.5;

/// The printed numbers' height in a column of `rows` rows, from the heights of the glyph groups
/// found in its rows: where they are found in 70 % of the rows and 70 % of the rows agree on one
/// height (within [`NUMBER_HEIGHT_SPREAD`]), that height; a writer's figures vary in height.
fn printed_number_height(heights: &[f64], rows: usize, pitch: f64) -> Option<f64> {
    if (heights.len() as f64) < 0.7 * rows as f64 || heights.len() < 3 {
        return None;
    }
    let height = median(heights.to_vec());
    let agree = heights.iter().filter(|h| (*h - height).abs() <= NUMBER_HEIGHT_SPREAD).count();
    // (printed numbers stand under about half the row's height, between its rulings; a writer's
    // letters lined up at a column's side fill more of it)
    if (agree as f64) < 0.7 * rows as f64 || height > MAX_NUMBER_HEIGHT * pitch {
        return None;
    }
    Some(height)
}

/// The narrowest move cell left beside a number zone found in the middle of a column, in row
/// pitches (HCS's and the real forms' move cells are 3 pitches wide and more).
pub(super) const MIN_MOVE_CELL: f64 = 2.0;

/// Printed move numbers in the middle of a column, between White's move and Black's with no ruling
/// between them (`d4  1  Nf3`): in most rows a glyph group of the printed numbers' height stands
/// near the column's middle, on one line down the column (centred, or aligned at one side: the
/// groups' centres within 0.4 pitch). Returns the zone's left and right ends, measured from the
/// column's left side; a move cell stays on either side.
pub(super) fn middle_number_zone(b: &Bin, c: &Column, pitch: f64) -> Option<(f64, f64)> {
    let mut found: Vec<(f64, f64, f64)> = Vec::new(); // (height, left end, right end)
    for (t, bo) in &c.rows {
        let yc = 0.5 * (t.mid() + bo.mid());
        let xc = c.centre_x(yc);
        let xa = c.left.at(yc);
        let strip = 0.3 * c.width();
        // (a glyph cut by the strip's sides is a move written across it: `components` leaves it out;
        // a blurred number's digits run together into one glyph up to 1.2 pitches wide)
        let glyphs: Vec<_> = components(b, [xc - strip, t.at(xc), xc + strip, bo.at(xc)])
            .into_iter()
            .filter(|q| {
                let height = (q.3 - q.1 + 1) as f64;
                height >= 0.2 * pitch && height <= 0.75 * pitch && ((q.2 - q.0 + 1) as f64) <= 1.2 * pitch && q.4 >= 4
            })
            .collect();
        let centre_of = |q: &(usize, usize, usize, usize, usize)| 0.5 * (q.0 + q.2) as f64;
        let Some(seed) = glyphs.iter().min_by(|p, q| (centre_of(p) - xc).abs().total_cmp(&(centre_of(q) - xc).abs()))
        else {
            continue;
        };
        let number = number_around(&glyphs, *seed, pitch);
        found.push(((number.3 - number.1 + 1) as f64, number.0 as f64 - xa, (number.2 + 1) as f64 - xa));
    }
    if log::log_enabled!(log::Level::Debug) {
        let v: Vec<String> = found.iter().map(|f| format!("{:.0}/{:.0}..{:.0}", f.0, f.1, f.2)).collect();
        log::debug!(
            "  number zone? x {:.0} middle: {} of {} rows: {}",
            c.left.mid(),
            found.len(),
            c.rows.len(),
            v.join(" ")
        );
    }
    let heights: Vec<f64> = found.iter().map(|f| f.0).collect();
    let height = printed_number_height(&heights, c.rows.len(), pitch)?;
    let printed: Vec<&(f64, f64, f64)> =
        found.iter().filter(|f| (f.0 - height).abs() <= NUMBER_HEIGHT_SPREAD).collect();
    let centre = median(printed.iter().map(|f| 0.5 * (f.1 + f.2)).collect());
    let aligned: Vec<&&(f64, f64, f64)> =
        printed.iter().filter(|f| (0.5 * (f.1 + f.2) - centre).abs() <= 0.4 * pitch).collect();
    log::debug!(
        "    {} of the numbers' height {height:.0}, {} of them on one line at {centre:.0}",
        printed.len(),
        aligned.len()
    );
    if (aligned.len() as f64) < 0.7 * c.rows.len() as f64 {
        return None;
    }
    let lefts: Vec<f64> = aligned.iter().map(|f| f.1).collect();
    let rights: Vec<f64> = aligned.iter().map(|f| f.2).collect();
    let left = quantile(lefts, 0.1) - 0.25 * pitch;
    let right = quantile(rights, 0.9) + 0.25 * pitch;
    let room = MIN_MOVE_CELL * pitch;
    (left >= room && c.width() - right >= room).then_some((left, right))
}

/// A virtual column ruling `dx` right of column `c`'s left side, parallel to it, over the extent
/// its two rulings share.
fn virtual_ruling(c: &Column, dx: f64) -> Line {
    Line {
        intercept: c.left.intercept + dx,
        slope: c.left.slope,
        start: c.left.start.max(c.right.start),
        end: c.left.end.min(c.right.end),
    }
}

/// The bounds between blocks printed White | No, then Black, side by side with the rule before
/// Black's moves the only column ruling (`right_zones`: each column's number zone at its right
/// end, measured from its right side). The narrowest column with such a zone is one block's White
/// and number cells; a column with one too, 1.6 to 2.4 times as wide, holds the block before's
/// Black cells and the next block's White and number cells: the virtual ruling between them
/// stands that narrowest width from its right side.
pub(super) fn bounds_of_blocks_sharing_a_column(cols: &[Column], right_zones: &[Option<f64>], pitch: f64) -> Vec<Line> {
    let with_zone: Vec<&Column> = cols.iter().zip(right_zones).filter(|(_, z)| z.is_some()).map(|(c, _)| c).collect();
    let Some(single) = with_zone.iter().map(|c| c.width()).min_by(f64::total_cmp) else {
        return Vec::new();
    };
    with_zone
        .iter()
        .filter(|c| {
            let ratio = c.width() / single;
            (1.6..=2.4).contains(&ratio) && c.width() - single >= MIN_MOVE_CELL * pitch
        })
        .map(|c| virtual_ruling(c, c.width() - single))
        .collect()
}

/// The least share of its rows in which a column beside a column to be parted shows glyphs of
/// one height: a printed number column shows its number in every row, a clock column only the
/// times a player wrote (measured: 0.5-0.6 on a form with a clock column right of White's and
/// Black's moves, where the clock column beside White's moves passed for a number column).
const NUMBERED_ROWS_BESIDE: f64 = 0.8;

/// Parts a column twice as wide as the table's move columns that stands between two number
/// columns of one width, each showing printed numbers in nearly every row
/// ([`NUMBERED_ROWS_BESIDE`]): blocks White | No | Black side by side with no ruling between one
/// block's Black and the next block's White. It is parted at its middle (a block's two move
/// columns are about as wide: the bound between the blocks, or, where it is one block's White
/// and Black, the rule between them); the columns are built again (`lb_transposed`: the rulings'
/// binary, transposed).
pub(super) fn part_columns_between_number_columns(
    b: &Bin,
    lb_transposed: &Bin,
    hsegs: &[Line],
    vsegs: &mut Vec<Line>,
    cols: &mut Vec<Column>,
    pitch: f64,
) {
    let widths: Vec<f64> = cols.iter().map(|c| c.width()).collect();
    let mut parts = Vec::new();
    for (i, c) in cols.iter().enumerate() {
        let w = widths[i];
        let (Some(l), Some(r)) =
            (column_beside(cols, c, ColumnSide::Left, pitch), column_beside(cols, c, ColumnSide::Right, pitch))
        else {
            continue;
        };
        let (wl, wr) = (widths[l], widths[r]);
        let numbers_beside = wl.max(wr) < 0.4 * w
            && (wl - wr).abs() <= 0.15 * wl.max(wr)
            && wl.min(wr) >= MIN_NUMBER_COLUMN * pitch
            && printed_share(b, &cols[l]) >= NUMBERED_ROWS_BESIDE
            && printed_share(b, &cols[r]) >= NUMBERED_ROWS_BESIDE;
        let half_as_wide_beside =
            cols.iter().zip(&widths).any(|(o, &wo)| (0.4..=0.6).contains(&(wo / w)) && rows_shared(o, c, pitch) >= 3);
        if numbers_beside && half_as_wide_beside && 0.5 * w >= MIN_MOVE_CELL * pitch {
            log::debug!(
                "  column {:.0}..{:.0} between number columns parted at its middle",
                c.left.mid(),
                c.right.mid()
            );
            parts.push(virtual_ruling(c, 0.5 * w));
        }
    }
    add_virtual_rulings(parts, hsegs, vsegs, cols, pitch, lb_transposed);
}

/// Parts the columns of blocks White | Black side by side whose only column ruling is the rule
/// between each block's White and Black, the move number printed inside White's cell (or in an
/// unruled number column before it): with no ruling at the blocks' bounds, the table's first
/// column is the first block's White, its last the last block's Black, and each column between
/// holds a block's Black and the next block's White, about as wide as the two outer ones
/// together. Where the first column shows a number zone at its left, each column between is
/// parted as far left of its numbers as the first column's numbers stand from its left side
/// (about the last column's width from its own left side: Black's), and its part after the
/// parting must show its numbers at its left; the columns are built again (`lb_transposed`: the
/// rulings' binary, transposed).
pub(super) fn part_columns_holding_black_and_the_next_white(
    b: &Bin,
    lb_transposed: &Bin,
    hsegs: &[Line],
    vsegs: &mut Vec<Line>,
    cols: &mut Vec<Column>,
    pitch: f64,
) {
    // (the column right of `c`, where it shares 60 % of `c`'s rows)
    let next = |c: &Column| {
        column_beside(cols, c, ColumnSide::Right, pitch)
            .filter(|&k| rows_shared(&cols[k], c, pitch) * 5 >= c.rows.len() * 3)
    };
    let starts_a_run = |c: &Column| !cols.iter().any(|o| o.right_ruling == c.left_ruling);
    // (how far a column's printed numbers at its left start from its side: the tenth quantile
    // of the rows' near ends, where numbers of two digits start when those of one are centred;
    // None where the glyphs at its left make no number zone)
    let numbers_near_end = |c: &Column| {
        let groups = glyph_groups_at_side(b, lb_transposed, c, pitch, false, GlyphWidth::Digit);
        let zone = number_zone_of(&groups, c.rows.len(), pitch).filter(|z| z.fits_in(c.width(), pitch))?;
        let nears = groups.iter().filter(|g| (g.height - zone.height).abs() <= NUMBER_HEIGHT_SPREAD).map(|g| g.near);
        Some(quantile(nears.collect(), 0.1))
    };
    let mut parts = Vec::new();
    for first in cols.iter().filter(|c| starts_a_run(c)) {
        let mut run = vec![first];
        while let Some(k) = next(run[run.len() - 1]) {
            if run.len() > cols.len() {
                break;
            }
            run.push(&cols[k]);
        }
        if run.len() < 3 {
            continue;
        }
        let (white, black) = (first.width(), run[run.len() - 1].width());
        let between = &run[1..run.len() - 1];
        let outer_alike = white.min(black) >= 0.8 * white.max(black) && white.min(black) >= MIN_MOVE_CELL * pitch;
        let each_holds_both = between.iter().all(|c| (c.width() - (white + black)).abs() <= 0.12 * (white + black));
        if !outer_alike || !each_holds_both {
            continue;
        }
        let Some(first_near) = numbers_near_end(first) else { continue };
        // (where each column's numbers stand: a zone in its middle, its near end padded by a
        // quarter pitch; where none is found there, Black's width from its left side)
        let parting = |c: &Column| {
            let at = middle_number_zone(b, c, pitch).map_or(black, |(left, _)| left + 0.25 * pitch - first_near);
            let numbered = (0.75 * black..=1.3 * black).contains(&at)
                && c.width() - at >= MIN_MOVE_CELL * pitch
                && numbers_near_end(&column_part(c, at, c.width() - at)).is_some();
            numbered.then_some(at)
        };
        let partings: Option<Vec<f64>> = between.iter().map(|c| parting(c)).collect();
        if let Some(partings) = partings {
            log::debug!(
                "  columns x {:.0}..{:.0} hold a block's Black and the next block's White: parted at {partings:.0?}",
                between[0].left.mid(),
                between[between.len() - 1].right.mid()
            );
            parts.extend(between.iter().zip(&partings).map(|(c, &at)| virtual_ruling(c, at)));
        }
    }
    add_virtual_rulings(parts, hsegs, vsegs, cols, pitch, lb_transposed);
}

/// A side of a column.
#[derive(Clone, Copy)]
enum ColumnSide {
    Left,
    Right,
}

/// Of the columns sharing `c`'s ruling on `side`, the one sharing most of its rows (the last of
/// those sharing as many), by its index in `cols`.
fn column_beside(cols: &[Column], c: &Column, side: ColumnSide, pitch: f64) -> Option<usize> {
    cols.iter()
        .enumerate()
        .filter(|(_, o)| match side {
            ColumnSide::Left => o.right_ruling == c.left_ruling,
            ColumnSide::Right => o.left_ruling == c.right_ruling,
        })
        .max_by_key(|(_, o)| rows_shared(o, c, pitch))
        .map(|(k, _)| k)
}

/// The part of column `c` `width` wide from `from` right of its left side, over its rows.
fn column_part(c: &Column, from: f64, width: f64) -> Column {
    Column { left: c.left.shifted(from), right: c.left.shifted(from + width), rows: c.rows.clone(), ..*c }
}

/// Where a column's middle number zone (`zone`, from its left side) is the middle one of three
/// blocks side by side in one unruled column (White | No | Black three times, no column ruling
/// between them): the virtual rulings of the outer blocks' number zones, each found in the middle
/// of an outer third of the column, and of the bounds between the blocks at the thirds; none
/// where the zone is off the column's centre, a third has no room for two moves and a number, or
/// either outer third shows no number zone of its own.
fn outer_blocks_number_zones(b: &Bin, c: &Column, zone: (f64, f64), pitch: f64) -> Vec<f64> {
    let width = c.width();
    let third = width / 3.0;
    let centre = 0.5 * (zone.0 + zone.1);
    if (centre - 0.5 * width).abs() > 0.1 * third || third < (zone.1 - zone.0) + 2.0 * MIN_MOVE_CELL * pitch {
        return Vec::new();
    }
    let part = |from: f64| column_part(c, from, third);
    let (Some(left), Some(right)) =
        (middle_number_zone(b, &part(0.0), pitch), middle_number_zone(b, &part(2.0 * third), pitch))
    else {
        return Vec::new();
    };
    vec![left.0, left.1, third, 2.0 * third, 2.0 * third + right.0, 2.0 * third + right.1]
}

/// Where a column holds two blocks side by side with no column ruling at all (White | No | Black
/// twice, rows ruled across both): the virtual rulings of each block's number zone, found in the
/// middle of each half of the column at one place in both (within a pitch: the blocks repeat),
/// and of the bound between the blocks at the column's middle; none where a half has no room
/// for two moves and a number, or either half shows no number zone.
fn two_blocks_number_zones(b: &Bin, c: &Column, pitch: f64) -> Vec<f64> {
    let half = 0.5 * c.width();
    if half < 2.0 * MIN_MOVE_CELL * pitch + MIN_NUMBER_COLUMN * pitch {
        return Vec::new();
    }
    let part = |from: f64| column_part(c, from, half);
    let (Some(left), Some(right)) =
        (middle_number_zone(b, &part(0.0), pitch), middle_number_zone(b, &part(half), pitch))
    else {
        return Vec::new();
    };
    let centre = |zone: (f64, f64)| 0.5 * (zone.0 + zone.1);
    if (centre(left) - centre(right)).abs() > pitch {
        return Vec::new();
    }
    log::debug!(
        "  two blocks in the column at x {:.0}, number zones {left:?} and {right:?} in its halves",
        c.left.mid()
    );
    vec![left.0, left.1, half, half + right.0, half + right.1]
}

/// The most of a faint number column's rows that may show glyphs of one height in the glyphs'
/// binary (a writer's stroke reaching in; measured: 0 on forms printed at 0.15 of their
/// contrast, 0.14-0.43 where a scan's back page shows through beside its numbers).
const FAINT_NUMBERS_SEEN_IN_GLYPHS: f64 = 0.1;

/// Whether a column sharing a ruling with column `i` is a number column whose printed numbers
/// only the rulings' binary `lb` shows: of a number column's width, glyphs of one height on one
/// line in half its rows in `lb` and next to none in the glyphs' binary `b` (a form printed
/// light grey, its numbers lost to the glyphs' threshold where dark handwriting sets it; a
/// writer's times in a clock column are as dark as the moves and show in both). Left of White's
/// column, or right of it on a page upside down or with the number between the moves.
fn faint_number_column_beside(b: &Bin, lb: &Bin, cols: &[Column], i: usize, pitch: f64) -> bool {
    let beside = |c: &&Column| cols[i].shares_a_ruling_with(c);
    let faint_numbers = |c: &&Column| {
        (MIN_NUMBER_COLUMN * pitch..=MAX_NUMBER_COLUMN * pitch).contains(&c.width())
            && printed_share(b, c) <= FAINT_NUMBERS_SEEN_IN_GLYPHS
            && printed_share(lb, c).min(printed_alignment(lb, c, pitch)) >= 0.5
    };
    let found = cols.iter().filter(beside).find(faint_numbers);
    if let Some(c) = found {
        log::debug!("  faint printed numbers at x {:.0}..{:.0}", c.left.mid(), c.right.mid());
    }
    found.is_some()
}

/// The printed number a glyph belongs to: the glyph and those of its height and line beside it,
/// digit by digit (under a quarter pitch apart), as `(x0, y0, x1, y1)`.
fn number_around(
    glyphs: &[(usize, usize, usize, usize, usize)],
    seed: (usize, usize, usize, usize, usize),
    pitch: f64,
) -> (usize, usize, usize, usize) {
    let (mut x0, mut y0, mut x1, mut y1) = (seed.0, seed.1, seed.2, seed.3);
    let seed_height = (seed.3 - seed.1 + 1) as f64;
    let same_line = |q: &(usize, usize, usize, usize, usize)| {
        ((q.3 - q.1 + 1) as f64 - seed_height).abs() <= 0.2 * seed_height + 1.0
            && (q.1 as f64 - seed.1 as f64).abs() <= 0.15 * pitch + 1.0
    };
    let gap = 0.25 * pitch;
    loop {
        let beside = glyphs.iter().filter(|q| {
            same_line(q) && q.0 as f64 <= x1 as f64 + gap && q.2 as f64 + gap >= x0 as f64 && (q.0 < x0 || q.2 > x1)
        });
        let grown = beside.fold((x0, y0, x1, y1), |n, q| (n.0.min(q.0), n.1.min(q.1), n.2.max(q.2), n.3.max(q.3)));
        if grown == (x0, y0, x1, y1) {
            return grown;
        }
        (x0, y0, x1, y1) = grown;
    }
}

/// Number zones without a ruling (HCS: only a shaded background): found from printed glyphs of
/// constant height at the left (or right) of a column and copied to the column two steps away;
/// each splits its column with a virtual ruling, added to `vsegs`, and the columns are built
/// again (`lb_transposed`: the rulings' binary, transposed; `gap_columns`: the gaps between
/// blocks made columns by [`add_block_gap_borders`], stepped over from block to block).
pub(super) fn add_number_zones(
    b: &Bin,
    grey: &GrayImage,
    lb: &Bin,
    lb_transposed: &Bin,
    hsegs: &[Line],
    vsegs: &mut Vec<Line>,
    cols: &mut Vec<Column>,
    gap_columns: &[(f64, f64)],
    pitch: f64,
) {
    // number zones without a ruling: split the column with a virtual ruling
    let mut extra = Vec::new();
    // (only in columns that are not already part of a ruled block, and wide enough to hold a
    // number and a move)
    let (subs0, _) = find_subs(b, grey, lb_transposed, cols, gap_columns, pitch);
    let used: Vec<bool> =
        (0..cols.len()).map(|i| subs0.iter().any(|s| s.number == i || s.white == i || s.black == i)).collect();
    // (nor bounded by a short stroke of handwriting, as `build_cols` tells one: a number zone
    // found there is the writer's letters, and its virtual ruling would split a ruled column)
    let longest = vsegs.iter().map(|v| v.len()).fold(0.0, f64::max);
    let stroke = |v: &Line| short_stroke(lb_transposed, v, longest);
    // (nor in a block whose number column is printed too faint for the glyphs' binary: its move
    // cells hold the moves, and a writer's moves lined up row after row, at a side or centred,
    // can stand like printed numbers; the block's move columns are the one beside that number
    // column and the one of its width beside that)
    let wide_and_unused = |i: usize| !used[i] && cols[i].width() > 3.0 * pitch;
    let numbered_beside: Vec<bool> =
        (0..cols.len()).map(|i| wide_and_unused(i) && faint_number_column_beside(b, lb, cols, i, pitch)).collect();
    let in_faintly_numbered_block = |i: usize| {
        numbered_beside[i]
            || (0..cols.len()).any(|k| {
                numbered_beside[k]
                    && cols[i].shares_a_ruling_with(&cols[k])
                    && (cols[k].width() - cols[i].width()).abs() <= 0.15 * cols[k].width()
            })
    };
    let free = |i: usize| {
        wide_and_unused(i) && !stroke(&cols[i].left) && !stroke(&cols[i].right) && !in_faintly_numbered_block(i)
    };
    let groups_at = |from_right: bool, wanted: &dyn Fn(usize) -> bool, width: GlyphWidth| -> Vec<Vec<SideGlyphs>> {
        let groups = |(i, c): (usize, &Column)| {
            if wanted(i) { glyph_groups_at_side(b, lb_transposed, c, pitch, from_right, width) } else { Vec::new() }
        };
        cols.iter().enumerate().map(groups).collect()
    };
    let zones_of = |groups: &[Vec<SideGlyphs>]| -> Vec<Option<NumberZone>> {
        let zone = |(c, g): (&Column, &Vec<SideGlyphs>)| {
            number_zone_of(g, c.rows.len(), pitch).filter(|z| z.fits_in(c.width(), pitch))
        };
        cols.iter().zip(groups).map(zone).collect()
    };
    let left_groups = groups_at(false, &free, GlyphWidth::Digit);
    let mut zones = zones_of(&left_groups);
    // (a number printed in the middle of a column, between White's move and Black's, where no
    // zone is found at its left glyph by glyph: sought once, for the whole-number zones below and
    // for the middle zones)
    let middle_found: Vec<Option<(f64, f64)>> = (0..cols.len())
        .map(|i| {
            let wide = cols[i].width() > 2.0 * MIN_MOVE_CELL * pitch;
            if free(i) && zones[i].is_none() && wide { middle_number_zone(b, &cols[i], pitch) } else { None }
        })
        .collect();
    // (where no zone is found glyph by glyph, the digits of bold numbers may have binarized as
    // one glyph: whole numbers are taken, if they are aligned as printed numbers are, in a column
    // with no number zone in its middle)
    let add_merged_number_zones = |zones: &mut [Option<NumberZone>],
                                   from_right: bool,
                                   wanted: &dyn Fn(usize) -> bool| {
        let unfound: Vec<bool> =
            (0..cols.len()).map(|i| wanted(i) && zones[i].is_none() && middle_found[i].is_none()).collect();
        let groups = groups_at(from_right, &|i| unfound[i], GlyphWidth::Number);
        for (i, zone) in zones_of(&groups).into_iter().enumerate() {
            let merged_print =
                |z: &NumberZone| z.height <= MERGED_DIGITS_HEIGHT && aligned_as_printed(&groups[i], z.height, pitch);
            if unfound[i] && zone.is_some_and(|z| merged_print(&z)) {
                log::debug!(
                    "  number zone of whole numbers at x {:.0} {}",
                    cols[i].left.mid(),
                    if from_right { "right" } else { "left" }
                );
                zones[i] = zone;
            }
        }
    };
    add_merged_number_zones(&mut zones, false, &free);
    // (and a number printed at the right end of White's cell, where no column holds one at its
    // left: the zone's left end, measured from the column's right side)
    let right_free = |i: usize| free(i) && zones[i].is_none();
    let right_groups = groups_at(true, &right_free, GlyphWidth::Digit);
    let mut right_zones = zones_of(&right_groups);
    add_merged_number_zones(&mut right_zones, true, &right_free);
    // blocks repeat with a period of two move columns: a column two steps from one with a number
    // zone, of the same width, has one too, even where handwriting crowding the digits hid it
    // (the column beside, sharing a ruling, or else across the gap between two blocks whose rows
    // are ruled block by block: the nearest column within 4 pitches sharing rows)
    let across_gap = |i: usize, dir: f64| {
        let (x, c) = (if dir > 0.0 { cols[i].right.mid() } else { cols[i].left.mid() }, &cols[i]);
        cols.iter()
            .enumerate()
            .map(|(k, o)| (k, dir * ((if dir > 0.0 { o.left.mid() } else { o.right.mid() }) - x)))
            .filter(|&(k, gap)| gap > 0.0 && gap <= 4.0 * pitch && rows_shared(&cols[k], c, pitch) >= 3)
            .min_by(|p, q| p.1.total_cmp(&q.1))
            .map(|(k, _)| k)
    };
    let is_gap_column = |k: usize| cols[k].is_gap_between_blocks(gap_columns);
    let beside_right =
        |i: usize| cols.iter().position(|c| c.left_ruling == cols[i].right_ruling).or_else(|| across_gap(i, 1.0));
    let beside_left =
        |i: usize| cols.iter().position(|c| c.right_ruling == cols[i].left_ruling).or_else(|| across_gap(i, -1.0));
    let right_of = |i: usize| beside_right(i).and_then(|k| if is_gap_column(k) { beside_right(k) } else { Some(k) });
    let left_of = |i: usize| beside_left(i).and_then(|k| if is_gap_column(k) { beside_left(k) } else { Some(k) });
    // (of a width within 6 %, or within 15 % where glyph groups of the zone's printed height stand
    // within its reach in a third of the column's rows: numbers that a writer's moves crowd in the
    // other rows, in a block printed a little wider or narrower)
    let shaped_alike = |i: usize, j: usize, zone: &NumberZone, groups: &[Vec<SideGlyphs>]| {
        let differ = (cols[j].width() - cols[i].width()).abs() / cols[i].width();
        let numbers_seen = || {
            let alike =
                |g: &&SideGlyphs| (g.height - zone.height).abs() <= NUMBER_HEIGHT_SPREAD && g.reach <= zone.reach;
            groups[j].iter().filter(alike).count() as f64 >= NUMBERS_SEEN_SHARE * cols[j].rows.len() as f64
        };
        differ < 0.06 || (differ < 0.15 && numbers_seen())
    };
    let repeat = |zones: &mut Vec<Option<NumberZone>>, groups: &[Vec<SideGlyphs>]| {
        for _ in 0..3 {
            for i in 0..cols.len() {
                let Some(z) = zones[i] else { continue };
                // (across a move column: not across the gap between two blocks)
                let wide = |k: &usize| cols[*k].width() > 3.0 * pitch;
                let cands = [left_of(i).filter(wide).and_then(left_of), right_of(i).filter(wide).and_then(right_of)];
                for j in cands.into_iter().flatten() {
                    if zones[j].is_none() && free(j) && shaped_alike(i, j, &z, groups) {
                        zones[j] = Some(z);
                    }
                }
            }
        }
    };
    repeat(&mut zones, &left_groups);
    repeat(&mut right_zones, &right_groups);
    let zones: Vec<Option<f64>> = zones.iter().map(|z| z.map(|z| z.reach)).collect();
    let mut right_zones: Vec<Option<f64>> = right_zones.iter().map(|z| z.map(|z| z.reach)).collect();
    // (a column with a number zone at its left has none at its right)
    for (right, left) in right_zones.iter_mut().zip(&zones) {
        if left.is_some() {
            *right = None;
        }
    }
    // (a number printed in the middle of a column, between White's move and Black's, where neither
    // side holds one; blocks of one column each repeat with a period of one column)
    let mut middle_zones: Vec<Option<(f64, f64)>> = (0..cols.len())
        .map(|i| if zones[i].is_none() && right_zones[i].is_none() { middle_found[i] } else { None })
        .collect();
    for _ in 0..3 {
        for i in 0..cols.len() {
            let Some(z) = middle_zones[i] else { continue };
            for j in [left_of(i), right_of(i)].into_iter().flatten() {
                let no_zone = zones[j].is_none() && right_zones[j].is_none() && middle_zones[j].is_none();
                if no_zone && free(j) && (cols[j].width() - cols[i].width()).abs() < 0.06 * cols[i].width() {
                    middle_zones[j] = Some(z);
                }
            }
        }
    }
    // (one unruled column holding three blocks side by side, White | No | Black three times with
    // no column ruling: the number zone in its middle is the middle block's; the outer blocks'
    // zones stand in the middle of its outer thirds, and the blocks part at the thirds' bounds)
    for (c, z) in cols.iter().zip(&middle_zones) {
        let Some(zone) = z else { continue };
        extra.extend(outer_blocks_number_zones(b, c, *zone, pitch).into_iter().map(|dx| virtual_ruling(c, dx)));
    }
    // (one unruled column holding two blocks side by side, rows ruled across both: each half
    // has its number zone in its middle)
    for (i, c) in cols.iter().enumerate() {
        if free(i) && zones[i].is_none() && right_zones[i].is_none() && middle_zones[i].is_none() {
            extra.extend(two_blocks_number_zones(b, c, pitch).into_iter().map(|dx| virtual_ruling(c, dx)));
        }
    }
    for (c, z) in cols.iter().zip(&middle_zones) {
        if let Some((from, to)) = z {
            extra.extend([from, to].map(|&dx| virtual_ruling(c, dx)));
        }
    }
    for (c, z) in cols.iter().zip(&zones) {
        if let Some(dx) = z {
            extra.push(virtual_ruling(c, *dx));
        }
    }
    // (blocks White | No, then Black, side by side with no ruling between them: the column after
    // the first block's number zone holds Black's moves and the next block's White's, its number
    // at its right end; it is parted where that block's White and number cells, as wide as the
    // first block's, begin)
    extra.extend(bounds_of_blocks_sharing_a_column(cols, &right_zones, pitch));
    for (c, z) in cols.iter().zip(&right_zones) {
        if let Some(dx) = z {
            extra.push(Line {
                intercept: c.right.intercept - dx,
                slope: c.right.slope,
                start: c.left.start.max(c.right.start),
                end: c.left.end.min(c.right.end),
            });
        }
    }
    add_virtual_rulings(extra, hsegs, vsegs, cols, pitch, lb_transposed);
}
