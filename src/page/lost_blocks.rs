//! Blocks lost to their rulings, placed again beside a block found, where their printed numbers
//! read.
//!
//! Dotted rows broken by dense handwriting, or faint rulings lost beside it, can leave a block
//! with no columns for the grid analysis ([`super::grid`]) while its printed move numbers read as
//! well as any block's. A form prints its blocks alike, side by side at the same rows: such a block
//! is a copy of a block found, moved sideways by about that block's width, to where its number
//! cells read consecutive printed numbers. The copies are placed only in the part of the table's
//! ruled width that the blocks found leave uncovered, and the page keeps one only where the
//! numbering reads its printed numbers and they continue the blocks beside it.

use super::digits::PrintedNumber;
use super::grid::{GBlock, GCell};
use super::numbering;

/// How far beside a block its neighbour's copy may lie, in the block's widths: blocks side by
/// side, or apart by a gap up to a third of a block (two pages of a form laid side by side).
const OFFSET_IN_WIDTHS: (f64, f64) = (0.8, 1.35);

/// The share of a block's width its copy may reach past the room it is placed in: into the
/// table's margin past its ruled width, or into the next block's rulings.
const OVERHANG: f64 = 0.1;

/// The steps the copy moves across by in its search, fine and coarse, in number cells' widths: a
/// printed number stays inside a number cell moved by a quarter of the cell's width.
const STEP_IN_NUMBER_WIDTHS: (f64, f64) = (0.1, 0.25);

/// How far up or down the copy is looked for, as a share of the row pitch: the blocks of two
/// pages of a form laid side by side, or of one page printed askew, lie up to half a row apart.
const ROWS_OFF_SHARE: f64 = 0.5;

/// The steps down (and up) the copy is looked for in, to [`ROWS_OFF_SHARE`] of a row.
const ROWS_OFF: i32 = 4;

/// The least sureness of a copy's printed numbers ([`numbering::reading_sureness`]), as a share
/// of its rows: a column of printed numbers reads most rows' numbers in order, where handwriting
/// or an empty margin reads a few at most.
const LEAST_SURENESS_SHARE: f32 = 0.5;

/// The share of a copy's rows whose numbers may read worse at a place less moved up or down
/// than the surest place, for the less moved one to be taken.
const SURENESS_TOLERANCE_SHARE: f32 = 0.05;

/// The fewest rows a block needs for a copy: a few rows' numbers agree with some start by chance.
const FEWEST_ROWS: usize = 5;

/// The most blocks placed on a page.
const MOST_PLACED: usize = 4;

/// A block placed beside another: the copy and its cells, in the analysed frame's coordinates.
struct Placed {
    block: GBlock,
    cells: Vec<GCell>,
}

/// Places copies of the blocks `copied` marks (blocks whose rows are numbered from their printed
/// numbers: their rows lie where the form prints them) in the part of `ruled_span` (the table's
/// ruled width, `x` in the analysed frame) that `blocks` leave uncovered, one beside another, as
/// long as one is found; each copy is inserted in `blocks` in reading order (left to right among
/// blocks side by side), its cells added to `cells` (the cells' block indexes kept right). `read`
/// reads the printed number in a box of the analysed frame. Returns the indexes of the blocks
/// placed, in `blocks`.
pub fn place_lost_blocks(
    blocks: &mut Vec<GBlock>,
    cells: &mut Vec<GCell>,
    copied: &[bool],
    ruled_span: (f64, f64),
    read: impl Fn([f64; 4]) -> PrintedNumber,
) -> Vec<usize> {
    let mut placed: Vec<usize> = Vec::new();
    let mut copied = copied.to_vec();
    // (each copy can be the next one's neighbour: a page that lost two blocks side by side)
    while placed.len() < MOST_PLACED
        && let Some(copy) = next_copy(blocks, cells, &copied, ruled_span, &read)
    {
        let at = insertion_index(blocks, &copy.block);
        copied.insert(at, true);
        for cell in cells.iter_mut().filter(|cell| cell.block >= at) {
            cell.block += 1;
        }
        for index in placed.iter_mut().filter(|index| **index >= at) {
            *index += 1;
        }
        cells.extend(copy.cells.into_iter().map(|cell| GCell { block: at, ..cell }));
        blocks.insert(at, copy.block);
        placed.push(at);
        log::debug!("lost block placed at x {:.0}..{:.0}", blocks[at].bx[0], blocks[at].bx[2]);
    }
    // (the cells in the blocks' reading order, as the grid analysis gives them)
    if !placed.is_empty() {
        crate::sort::by_key(cells, |cell| cell.block);
    }
    placed.sort_unstable();
    placed
}

/// Whether the blocks leave room in `ruled_span` beside one of them for a copy of it.
pub fn room_left(blocks: &[GBlock], ruled_span: (f64, f64)) -> bool {
    blocks.iter().enumerate().any(|(index, block)| {
        let width = block.bx[2] - block.bx[0];
        [-1.0, 1.0].into_iter().any(|direction| holds_a_copy(room_beside(blocks, index, direction, ruled_span), width))
    })
}

/// Whether `room` (an x range) holds a copy of a block `width` wide, give or take [`OVERHANG`]
/// on either side.
fn holds_a_copy(room: (f64, f64), width: f64) -> bool {
    room.1 - room.0 >= (1.0 - 2.0 * OVERHANG) * width
}

/// The surest copy of any block into the room beside it, if one reads its numbers surely enough.
fn next_copy(
    blocks: &[GBlock],
    cells: &[GCell],
    copied: &[bool],
    ruled_span: (f64, f64),
    read: &impl Fn([f64; 4]) -> PrintedNumber,
) -> Option<Placed> {
    let mut best: Option<(f32, Placed)> = None;
    for (index, block) in blocks.iter().enumerate().filter(|&(index, _)| copied.get(index) == Some(&true)) {
        for direction in [-1.0, 1.0] {
            let room = room_beside(blocks, index, direction, ruled_span);
            let Some((sureness, copy)) = copy_beside(block, index, cells, direction, room, read) else { continue };
            if best.as_ref().is_none_or(|(surest, _)| sureness > *surest) {
                best = Some((sureness, copy));
            }
        }
    }
    best.map(|(_, copy)| copy)
}

/// The x range beside block `index` on the side `direction` (-1 left, 1 right) up to the nearest
/// block at the same rows, or to the end of the ruled span.
fn room_beside(blocks: &[GBlock], index: usize, direction: f64, ruled_span: (f64, f64)) -> (f64, f64) {
    let block = &blocks[index];
    let middle = |b: &GBlock| 0.5 * (b.bx[0] + b.bx[2]);
    let others = blocks.iter().enumerate().filter(|&(o, other)| o != index && same_rows(block, other));
    if direction > 0.0 {
        let end = others.filter(|(_, o)| middle(o) > middle(block)).map(|(_, o)| o.bx[0]).fold(ruled_span.1, f64::min);
        (block.bx[2], end)
    } else {
        let start =
            others.filter(|(_, o)| middle(o) < middle(block)).map(|(_, o)| o.bx[2]).fold(ruled_span.0, f64::max);
        (start, block.bx[0])
    }
}

/// Whether two blocks lie at the same rows (their heights overlap).
fn same_rows(a: &GBlock, b: &GBlock) -> bool {
    a.bx[1] < b.bx[3] && b.bx[1] < a.bx[3]
}

/// The copy of `block` (index `index`, whose cells are among `cells`) moved by about its width on
/// the side `direction` to where its number cells read surest, inside `room` (give or take
/// [`OVERHANG`]), with that sureness; `None` where no place reads surely enough.
fn copy_beside(
    block: &GBlock,
    index: usize,
    cells: &[GCell],
    direction: f64,
    room: (f64, f64),
    read: &impl Fn([f64; 4]) -> PrintedNumber,
) -> Option<(f32, Placed)> {
    let rows = block.number_cells.len();
    let width = block.bx[2] - block.bx[0];
    let number_width = block.number_cells.first().map(|c| c[2] - c[0])?;
    if rows < FEWEST_ROWS || width <= 0.0 || number_width <= 0.0 || !holds_a_copy(room, width) {
        return None;
    }
    let pitch = (block.bx[3] - block.bx[1]) / rows as f64;
    let fits_the_room =
        |dx: f64| block.bx[0] + dx >= room.0 - OVERHANG * width && block.bx[2] + dx <= room.1 + OVERHANG * width;
    let sureness_at = |dx: f64, dy: f64| {
        let reads: Vec<PrintedNumber> = block.number_cells.iter().map(|&c| read(moved(c, dx, dy))).collect();
        let sureness = numbering::reading_sureness(&reads);
        if log::log_enabled!(log::Level::Trace) {
            let read: Vec<String> = reads.iter().map(|r| r.best().map_or("?".into(), |v| v.to_string())).collect();
            log::trace!("    by {dx:.1}, {dy:.1}: {sureness:.1} {}", read.join(" "));
        }
        sureness
    };
    // (coarse steps across and down first, then fine steps across about the surest; of places
    // that read within a misread or two of the surest, the one least moved up or down: blocks
    // side by side share their rows, and a misread number decides nothing)
    let close_enough = (SURENESS_TOLERANCE_SHARE * rows as f32).max(1.0);
    let surest = |offsets: &mut dyn Iterator<Item = (f64, f64)>| {
        let read: Vec<(f32, f64, f64)> =
            offsets.filter(|&(dx, _)| fits_the_room(dx)).map(|(dx, dy)| (sureness_at(dx, dy), dx, dy)).collect();
        let surest = read.iter().map(|&(sureness, _, _)| sureness).fold(f32::MIN, f32::max);
        read.into_iter()
            .filter(|&(sureness, _, _)| sureness >= surest - close_enough)
            .min_by(|a, b| a.2.abs().total_cmp(&b.2.abs()).then(b.0.total_cmp(&a.0)))
    };
    let coarse = STEP_IN_NUMBER_WIDTHS.1 * number_width;
    let fine = (STEP_IN_NUMBER_WIDTHS.0 * number_width).max(0.5);
    let across = |from: f64, to: f64, step: f64| {
        (0..).map(move |i| from + i as f64 * step).take_while(move |&offset| offset <= to)
    };
    // (nearest the block's own rows first: of places that read alike, the least moved wins)
    let downs: Vec<f64> = (0..=2 * ROWS_OFF)
        .map(|i| if i % 2 == 0 { -(i / 2) } else { i / 2 + 1 })
        .map(|step| f64::from(step) * ROWS_OFF_SHARE * pitch / f64::from(ROWS_OFF))
        .collect();
    let (from, to) = (OFFSET_IN_WIDTHS.0 * width, OFFSET_IN_WIDTHS.1 * width);
    let (_, dx, dy) =
        surest(&mut across(from, to, coarse).flat_map(|offset| downs.iter().map(move |&dy| (direction * offset, dy))))?;
    // (the middle of the fine steps that read surest: the number cells centred on the numbers)
    let fine_steps: Vec<(f64, f32)> = across(dx.abs() - coarse, dx.abs() + coarse, fine)
        .map(|offset| direction * offset)
        .filter(|&dx| fits_the_room(dx))
        .map(|dx| (dx, sureness_at(dx, dy)))
        .collect();
    let surest_fine = fine_steps.iter().map(|&(_, sureness)| sureness).fold(f32::MIN, f32::max);
    let first = fine_steps.iter().position(|&(_, sureness)| sureness == surest_fine)?;
    let run = fine_steps[first..].iter().take_while(|&&(_, sureness)| sureness == surest_fine).count();
    let (sureness, dx) = (surest_fine, fine_steps[first + run / 2].0);
    log::debug!("  copy of block {index} by {dx:.1}, {dy:.1}: sureness {sureness:.1} of {rows} rows");
    if sureness < LEAST_SURENESS_SHARE * rows as f32 {
        return None;
    }
    let copy = GBlock {
        bx: moved(block.bx, dx, dy),
        number_cells: block.number_cells.iter().map(|&c| moved(c, dx, dy)).collect(),
        // (a column beside the numbers that may hold them is the found block's own finding)
        other_number_cells: Vec::new(),
        ..block.clone()
    };
    let cells = cells
        .iter()
        .filter(|cell| cell.block == index)
        .map(|cell| GCell { bx: moved(cell.bx, dx, dy), ink: 0.0, ink_low: [0.0; 2], ..cell.clone() })
        .collect();
    Some((sureness, Placed { block: copy, cells }))
}

/// `bx` moved right by `dx` and down by `dy`.
fn moved(bx: [f64; 4], dx: f64, dy: f64) -> [f64; 4] {
    [bx[0] + dx, bx[1] + dy, bx[2] + dx, bx[3] + dy]
}

/// Where `copy` goes among `blocks` in reading order: after every block left of it at the same
/// rows and every block above it.
fn insertion_index(blocks: &[GBlock], copy: &GBlock) -> usize {
    blocks
        .iter()
        .position(|other| if same_rows(copy, other) { other.bx[0] > copy.bx[0] } else { other.bx[1] > copy.bx[1] })
        .unwrap_or(blocks.len())
}

/// Whether the numbering kept every placed block: each reads its printed numbers (not counted),
/// keeps rows, and the blocks continue one another.
pub fn numbering_keeps(numbers: &[numbering::BlockNumbers], placed: &[usize]) -> bool {
    placed.iter().all(|&index| numbers.get(index).is_some_and(|n| n.printed && !n.rows.is_empty()))
        && numbering::blocks_continue(numbers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::Side;

    /// A block of `rows` rows, its number column 10 wide at `x`, White and Black 40 wide right
    /// of it, rows 10 high from y 100.
    fn block_at(x: f64, rows: usize) -> (GBlock, Vec<GCell>) {
        let row = |r: usize| 100.0 + 10.0 * r as f64;
        let number_cells = (0..rows).map(|r| [x, row(r), x + 10.0, row(r) + 10.0]).collect();
        let block = GBlock {
            first: 1,
            rows: rows as u32,
            bx: [x, row(0), x + 90.0, row(rows)],
            number_cells,
            other_number_cells: Vec::new(),
            ruled_rows: vec![true; rows],
            titled_top: false,
            rows_numbers_unseen: Default::default(),
        };
        let cells = (0..rows)
            .flat_map(|r| {
                [(Side::White, x + 10.0), (Side::Black, x + 50.0)].map(|(side, left)| GCell {
                    mv: 0,
                    block: 0,
                    row: r,
                    side,
                    bx: [left, row(r), left + 40.0, row(r) + 10.0],
                    ink: 0.5,
                    ink_low: [0.5; 2],
                })
            })
            .collect();
        (block, cells)
    }

    /// The number `n` read as printed.
    fn printed(n: u32) -> PrintedNumber {
        let digits: Vec<[f32; 10]> = n
            .to_string()
            .bytes()
            .map(|d| std::array::from_fn(|i| if i == usize::from(d - b'0') { 0.0 } else { 1.0 }))
            .collect();
        PrintedNumber::Digits(digits)
    }

    /// A page whose number columns (10 wide, rows 10 high from y 100) start at `columns`' x,
    /// numbered from their starts.
    fn page_reading(columns: Vec<(f64, u32)>) -> impl Fn([f64; 4]) -> PrintedNumber {
        move |bx: [f64; 4]| {
            let middle = 0.5 * (bx[0] + bx[2]);
            let row = ((0.5 * (bx[1] + bx[3]) - 100.0) / 10.0).floor() as u32;
            columns
                .iter()
                .find(|(x, _)| (middle - (x + 5.0)).abs() < 3.0)
                .map_or(PrintedNumber::Empty, |&(_, first)| printed(first + row))
        }
    }

    #[test]
    fn a_block_lost_beside_a_block_found_is_placed_where_its_numbers_read() {
        // (a form of three blocks 1-20 | 21-40 | 41-60, 95 apart, whose middle block was lost)
        let (first, first_cells) = block_at(0.0, 20);
        let (mut third, third_cells) = block_at(190.0, 20);
        third.first = 41;
        let mut blocks = vec![first, third];
        let mut cells = first_cells;
        cells.extend(third_cells.into_iter().map(|c| GCell { block: 1, ..c }));
        let read = page_reading(vec![(0.0, 1), (95.0, 21), (190.0, 41)]);
        let placed = place_lost_blocks(&mut blocks, &mut cells, &[true, true], (0.0, 280.0), read);
        assert_eq!(placed, vec![1]);
        assert_eq!(blocks.len(), 3);
        assert!((blocks[1].bx[0] - 95.0).abs() <= 1.5, "placed at {:?}", blocks[1].bx);
        assert_eq!(blocks[2].first, 41, "the block right of it moves on in reading order");
        let of_block = |b: usize| cells.iter().filter(|c| c.block == b).count();
        assert_eq!([of_block(0), of_block(1), of_block(2)], [40, 40, 40]);
        assert!(cells.iter().filter(|c| c.block == 2).all(|c| c.bx[0] >= 190.0));
    }

    #[test]
    fn a_block_is_placed_at_its_neighbours_rows_where_a_place_moved_down_reads_one_number_more() {
        // (blocks 1-20 | 21-40 at the same rows, whose number 28 reads only off its middle: the
        // places an eighth of a row up or down read one number more than the block's own rows)
        let (first, first_cells) = block_at(0.0, 20);
        let printed_columns = page_reading(vec![(0.0, 1), (95.0, 21)]);
        let read = |bx: [f64; 4]| {
            let middle = 0.5 * (bx[1] + bx[3]);
            if bx[0] > 50.0 && (middle - 175.0).abs() < 1.0 { PrintedNumber::Other } else { printed_columns(bx) }
        };
        let (mut blocks, mut cells) = (vec![first], first_cells);
        let placed = place_lost_blocks(&mut blocks, &mut cells, &[true], (0.0, 190.0), read);
        assert_eq!(placed, vec![1]);
        assert_eq!((blocks[1].bx[1], blocks[1].bx[3]), (100.0, 300.0));
    }

    #[test]
    fn no_block_is_placed_where_no_printed_numbers_read_or_no_room_is_left() {
        let (block, block_cells) = block_at(0.0, 20);
        // (handwriting beside the block reads a number here and there)
        let scattered = |bx: [f64; 4]| if (bx[1] as u32 / 10) % 7 == 0 { printed(3) } else { PrintedNumber::Other };
        let (mut blocks, mut cells) = (vec![block.clone()], block_cells.clone());
        assert!(place_lost_blocks(&mut blocks, &mut cells, &[true], (0.0, 190.0), scattered).is_empty());
        // (numbers that read, but past the ruled width)
        let read = page_reading(vec![(0.0, 1), (95.0, 21)]);
        let (mut blocks, mut cells) = (vec![block], block_cells);
        assert!(place_lost_blocks(&mut blocks, &mut cells, &[true], (0.0, 95.0), read).is_empty());
        assert_eq!((blocks.len(), cells.len()), (1, 40));
    }
}
