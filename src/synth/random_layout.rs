//! Layouts no one designed: a form drawn at random from the choices printed forms make (page size,
//! one to four blocks, where the numbers stand, clock columns, heading rows and their words in
//! one of a dozen languages, how rows and columns are ruled, faint or coloured print, shading,
//! result boxes and signature lines under the table).
//!
//! The named forms of [`super::forms`] imitate forms players get; the page stage is tuned on
//! fifteen of them. `--form random` deals a new layout for every sheet, so a figure on it says
//! how the page stage does on layouts it has never met, not on the ones it was tuned on.

use rand::Rng;
use rand::seq::SliceRandom;

use super::forms::{
    Align, Block, Column, Field, FieldKind, FieldLine, Form, HeadingShade, Headings, Look, ResultMarks, RowLine,
    Ruling, Side,
};

/// The form name that deals a random layout per sheet.
pub const RANDOM_LAYOUT: &str = "random";

const NO: Column = Column::Number;
const W: Column = Column::Moves(Side::White);
const B: Column = Column::Moves(Side::Black);
const TW: Column = Column::Clock(Side::White);
const TB: Column = Column::Clock(Side::Black);

/// Page sizes in pixels with their resolution relative to 150 dpi.
const PAGES: [((f32, f32), f32); 6] = [
    ((1240.0, 1754.0), 1.0),  // A4
    ((1275.0, 1650.0), 1.0),  // US letter
    ((874.0, 1240.0), 1.0),   // A5
    ((1754.0, 1240.0), 1.0),  // A4 landscape
    ((1700.0, 2200.0), 1.33), // US letter scanned at 200 dpi
    ((1654.0, 2339.0), 1.33), // A4 scanned at 200 dpi
];

/// Words over the number, White's and Black's columns, and the title, in the languages forms
/// print.
const WORDINGS: [(&str, &str, &str, &str); 14] = [
    ("No", "White", "Black", "SCORE SHEET"),
    ("#", "WHITE", "BLACK", "OFFICIAL SCORESHEET"),
    ("", "White", "Black", "Chess Score"),
    ("Nr", "Weiß", "Schwarz", "Partieformular"),
    ("N°", "Blancs", "Noirs", "Feuille de partie"),
    ("Nº", "Blancas", "Negras", "Planilla"),
    ("N.", "Bianco", "Nero", "Formulario"),
    ("Zet", "Wit", "Zwart", "Partijformulier"),
    ("Nr", "Białe", "Czarne", "Zapis partii"),
    ("№", "Белые", "Черные", "Бланк записи партии"),
    ("Nr", "Valge", "Must", "Partii"),
    ("Št.", "Beli", "Črni", "Zapis"),
    ("Nr", "Hvit", "Svart", "Partiskjema"),
    ("Nº", "Brancas", "Pretas", "Súmula"),
];

/// Print colours of coloured forms: green, brown, blue, red, grey.
const PRINT_COLOURS: &[[u8; 3]] = &[[20, 80, 50], [90, 50, 30], [30, 40, 110], [110, 30, 40], [70, 70, 70]];

/// Tinted papers.
const PAPER_TINTS: &[[u8; 3]] = &[[255, 246, 200], [228, 240, 252], [234, 248, 232], [255, 235, 238]];

/// Where a block's columns put the numbers.
#[derive(Clone, Copy)]
enum Arrangement {
    /// Numbers left of White's moves.
    NumbersLeft,
    /// Numbers between White's and Black's moves.
    NumbersBetween,
    /// Numbers between the moves, both clock columns outside them.
    NumbersBetweenClocksOutside,
    /// Numbers left, a clock column right of each player's moves.
    ClocksAfterMoves,
    /// Numbers left, both clock columns outside the moves.
    ClocksOutside,
    /// No number column: "12." printed inside White's cell.
    NumberInCell,
}

impl Arrangement {
    fn has_clocks(self) -> bool {
        matches!(self, Self::ClocksAfterMoves | Self::ClocksOutside | Self::NumbersBetweenClocksOutside)
    }

    fn numbers_between(self) -> bool {
        matches!(self, Self::NumbersBetween | Self::NumbersBetweenClocksOutside)
    }

    /// The same numbers without the clock columns.
    fn without_clocks(self) -> Self {
        match self {
            Self::ClocksAfterMoves | Self::ClocksOutside => Self::NumbersLeft,
            Self::NumbersBetweenClocksOutside => Self::NumbersBetween,
            other => other,
        }
    }
}

/// A random layout drawn from `rng`: every choice a printed form makes, drawn independently.
pub fn random_layout<R: Rng>(rng: &mut R) -> Form {
    let &((width, height), dpi) = PAGES.choose(rng).expect("PAGES is not empty");
    let landscape = width > height;
    let (number_word, white_word, black_word, title) = *WORDINGS.choose(rng).expect("WORDINGS is not empty");

    let margin = rng.gen_range(30.0..110.0) * dpi;
    let table_top = if landscape { rng.gen_range(180.0..320.0) } else { rng.gen_range(230.0..470.0) } * dpi;
    let has_result_row = rng.gen_bool(0.55);
    let has_signatures = rng.gen_bool(0.6);
    let bottom_room = (rng.gen_range(60.0..120.0)
        + if has_result_row { 80.0 } else { 0.0 }
        + if has_signatures { 90.0 } else { 0.0 })
        * dpi;

    let n_blocks: u32 = match (landscape, width < 1000.0) {
        (true, _) => rng.gen_range(2..=4),
        (false, true) => rng.gen_range(1..=2),
        (false, false) => *[1, 2, 2, 2, 3, 3].choose(rng).expect("not empty"),
    };
    let gap = if rng.gen_bool(0.35) { 0.0 } else { rng.gen_range(15.0..70.0) * dpi };
    let block_w = (width - 2.0 * margin - gap * (n_blocks - 1) as f32) / n_blocks as f32;

    // Rows: a total of moves the form holds, shared by the blocks, at a row height forms use.
    let heading_share = if rng.gen_bool(0.12) { 0.0 } else { rng.gen_range(0.8..1.5) };
    let target_moves = *[40u32, 50, 60, 60, 70, 75, 80, 90, 100, 120].choose(rng).expect("not empty");
    let room = height - table_top - bottom_room;
    let mut rows = target_moves.div_ceil(n_blocks);
    let mut row_h = room / (rows as f32 + heading_share);
    let (min_row, max_row) = (30.0 * dpi, rng.gen_range(36.0..54.0) * dpi);
    if row_h < min_row {
        row_h = min_row;
        rows = ((room / row_h) - heading_share).floor() as u32;
    }
    row_h = row_h.min(max_row);
    // A game of at least 20 moves, and a cell for the result, must fit.
    rows = rows.max(22u32.div_ceil(n_blocks)).max(12);
    let mut arrangement = match rng.gen_range(0..100) {
        0..=49 => Arrangement::NumbersLeft,
        50..=60 => Arrangement::NumbersBetween,
        61..=66 => Arrangement::NumbersBetweenClocksOutside,
        67..=76 => Arrangement::ClocksAfterMoves,
        77..=84 => Arrangement::ClocksOutside,
        _ => Arrangement::NumberInCell,
    };
    // (a clock column is named in the heading: a form without a heading row prints none, as
    // nothing on an open form would tell a clock column from the moves' space)
    if heading_share == 0.0 {
        arrangement = arrangement.without_clocks();
    }
    // Number and clock columns as wide as their print needs, in row heights; the moves share
    // the rest. A move cell is at least MIN_MOVE_CELL row heights wide ("Nbxd7+" written at
    // the row's height): where the block is too narrow for that, the rows are lower, and where
    // they would be lower than forms print, the clock columns go.
    let (number_k, clock_k) = (rng.gen_range(0.9..2.2), rng.gen_range(1.4..2.8));
    let mut columns = block_columns(arrangement, block_w, row_h * number_k, row_h * clock_k);
    let mut move_w = move_width(&columns);
    if move_w < MIN_MOVE_CELL * row_h {
        row_h = move_w / MIN_MOVE_CELL;
        if row_h < 26.0 * dpi && arrangement.has_clocks() {
            arrangement = arrangement.without_clocks();
            row_h = row_h.max(26.0 * dpi);
        }
        columns = block_columns(arrangement, block_w, row_h * number_k, row_h * clock_k);
        move_w = move_width(&columns);
        row_h = row_h.min(move_w / MIN_MOVE_CELL);
    }
    let heading_h = row_h * heading_share;
    let y = table_top + heading_h;
    let blocks: Vec<Block> = (0..n_blocks)
        .map(|i| Block {
            x: margin + i as f32 * (block_w + gap),
            y,
            rows,
            first_move: 1 + i * rows,
            row_h,
            columns: columns.clone(),
            heading_h,
        })
        .collect();
    let table_bottom = y + rows as f32 * row_h;
    let right = width - margin;

    let mut form = Form {
        name: RANDOM_LAYOUT,
        width,
        height,
        title,
        blocks,
        fields: header_fields(rng, margin, right, 100.0 * dpi, table_top - 20.0 * dpi),
        result_boxes: vec![],
        result_marks: ResultMarks::Boxed,
        notes: vec![],
        headings: Headings {
            clock: if rng.gen_bool(0.5) { "" } else { "Time" },
            ..Headings::words(number_word, white_word, black_word)
        },
        number_in_cell: matches!(arrangement, Arrangement::NumberInCell),
        frames: vec![],
        lines: vec![],
        tables: vec![],
        printed_header: false,
        look: random_look(rng, arrangement.numbers_between()),
        continuation: None,
    };

    // Under the table: a result row (check boxes, boxed or circled words), signature lines.
    let mut below = table_bottom + rng.gen_range(15.0..40.0) * dpi;
    if has_result_row && below + 60.0 * dpi < height {
        let h = rng.gen_range(36.0..56.0) * dpi;
        let marks =
            *[ResultMarks::CheckBoxes, ResultMarks::Boxed, ResultMarks::Circled].choose(rng).expect("not empty");
        if rng.gen_bool(0.5) {
            form.frames.push([margin, below, right, below + h]);
        }
        form.notes.push(("Result:", margin + 12.0 * dpi, below + h * 0.7));
        let span = (right - margin - 160.0 * dpi) / 3.0;
        for (k, label) in ["1-0", "½-½", "0-1"].into_iter().enumerate() {
            let x0 = margin + 160.0 * dpi + k as f32 * span;
            form.result_boxes.push((label, [x0, below + h * 0.2, x0 + span * 0.6, below + h * 0.8]));
        }
        form.result_marks = marks;
        below += h + rng.gen_range(20.0..40.0) * dpi;
    } else if below + 45.0 * dpi < height {
        let rect = [margin, below, margin + (right - margin) * 0.4, below + 40.0 * dpi];
        form.fields.push(Field { kind: FieldKind::Result, label: "Result", rect, line: FieldLine::Underlined });
        below += 60.0 * dpi;
    }
    if has_signatures && below + 50.0 * dpi < height {
        let half = (right - margin) / 2.0;
        for k in 0..2 {
            let x0 = margin + k as f32 * half;
            let rect = [x0, below, x0 + half * 0.85, below + 45.0 * dpi];
            form.fields.push(Field {
                kind: FieldKind::Signature,
                label: "Signature",
                rect,
                line: FieldLine::Underlined,
            });
        }
    }
    form
}

/// The narrowest move cell, in row heights.
const MIN_MOVE_CELL: f32 = 2.8;

/// A block's columns for `arrangement` in a block `block_w` wide, with number and clock columns
/// of the widths given (at most a fifth and a seventh of the block).
fn block_columns(arrangement: Arrangement, block_w: f32, number_w: f32, clock_w: f32) -> Vec<(Column, f32)> {
    let number_w = number_w.min(block_w * 0.2);
    let clock_w = clock_w.min(block_w * 0.15);
    match arrangement {
        Arrangement::NumbersLeft => {
            let moves = (block_w - number_w) / 2.0;
            vec![(NO, number_w), (W, moves), (B, moves)]
        }
        Arrangement::NumbersBetween => {
            let moves = (block_w - number_w) / 2.0;
            vec![(W, moves), (NO, number_w), (B, moves)]
        }
        Arrangement::ClocksAfterMoves => {
            let moves = (block_w - number_w - 2.0 * clock_w) / 2.0;
            vec![(NO, number_w), (W, moves), (TW, clock_w), (B, moves), (TB, clock_w)]
        }
        Arrangement::ClocksOutside => {
            let moves = (block_w - number_w - 2.0 * clock_w) / 2.0;
            vec![(NO, number_w), (TW, clock_w), (W, moves), (B, moves), (TB, clock_w)]
        }
        Arrangement::NumbersBetweenClocksOutside => {
            let moves = (block_w - number_w - 2.0 * clock_w) / 2.0;
            vec![(TW, clock_w), (W, moves), (NO, number_w), (B, moves), (TB, clock_w)]
        }
        Arrangement::NumberInCell => vec![(W, block_w / 2.0), (B, block_w / 2.0)],
    }
}

/// The width of White's move column.
fn move_width(columns: &[(Column, f32)]) -> f32 {
    columns.iter().find(|c| c.0 == W).map_or(0.0, |c| c.1)
}

/// The header fields between `top` and `bottom`: names, event, date, round and board in one to
/// three lines, all printed one way.
fn header_fields<R: Rng>(rng: &mut R, left: f32, right: f32, top: f32, bottom: f32) -> Vec<Field> {
    use FieldKind::*;
    let line = *[FieldLine::Boxed, FieldLine::Underlined, FieldLine::Dotted].choose(rng).expect("not empty");
    let lines: [&[(FieldKind, &'static str)]; 3] = [
        &[(White, "White"), (Black, "Black")],
        &[(Event, "Event"), (Date, "Date")],
        &[(Round, "Round"), (Board, "Board")],
    ];
    let n_lines = rng.gen_range(1..=3usize);
    let h = ((bottom - top) / n_lines as f32).min(55.0);
    if h < 30.0 {
        return vec![];
    }
    let mut fields = Vec::new();
    for (i, kinds) in lines.iter().take(n_lines).enumerate() {
        let y0 = top + i as f32 * h;
        let w = (right - left) / kinds.len() as f32;
        for (k, &(kind, label)) in kinds.iter().enumerate() {
            let x0 = left + k as f32 * w;
            fields.push(Field { kind, label, rect: [x0, y0, x0 + w - 10.0, y0 + h - 8.0], line });
        }
    }
    fields
}

/// How the layout is printed: ruling, shading, colours, fonts; any pen fills it in.
fn random_look<R: Rng>(rng: &mut R, numbers_between: bool) -> Look {
    let rows = match rng.gen_range(0..100) {
        0..=71 => RowLine::Solid,
        72..=85 => RowLine::Dotted,
        _ => RowLine::Dashed,
    };
    let headings = match rng.gen_range(0..3) {
        0 => HeadingShade::Plain,
        1 => HeadingShade::Original,
        _ => {
            let lo = rng.gen_range(0.45..0.85);
            HeadingShade::Band(lo, lo + 0.08)
        }
    };
    let thin = rng.gen_range(0.8..1.6);
    Look {
        shaded_numbers: rng.gen_range(0.0..0.5),
        dark_headings: rng.gen_range(0.0..0.4),
        dark_white_heading: rng.gen_bool(0.5),
        usual_digit_font: None,
        headings,
        ruling: Ruling { rows, grid: rng.gen_bool(0.8), number_ruled: !numbers_between || rng.gen_bool(0.5) },
        thin_rules: Some((thin, thin + 0.6)),
        faded_rules: rng.gen_bool(0.45).then(|| {
            let lo = rng.gen_range(0.3..0.75);
            (lo, lo + 0.1)
        }),
        print_colours: if rng.gen_bool(0.25) { PRINT_COLOURS } else { &[] },
        number_shade: None,
        shaded_black: if rng.gen_bool(0.15) { 1.0 } else { 0.0 },
        alternate_rows: if rng.gen_bool(0.12) { 1.0 } else { 0.0 },
        bold_every_fifth: rng.gen_bool(0.15),
        number_align: Some(*[Align::Left, Align::Centre, Align::Right].choose(rng).expect("not empty")),
        number_suffix: if rng.gen_bool(0.25) { "." } else { "" },
        clock_colons: rng.gen_bool(0.3),
        text_scale: rng.gen_range(0.9..1.3),
        paper_tints: if rng.gen_bool(0.15) { PAPER_TINTS } else { &[] },
        ..Look::PLAIN
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::rng_for;

    #[test]
    fn every_random_layout_fits_its_page_and_holds_a_game() {
        for i in 0..300 {
            let form = random_layout(&mut rng_for(7, 0x1A40, i));
            assert!(form.last_move() >= 22, "layout {i} holds only {} moves", form.last_move());
            for b in &form.blocks {
                assert!(b.x >= 0.0 && b.x + b.width() <= form.width + 0.5, "layout {i}: a block leaves the page");
                assert!(b.y - b.heading_h >= 0.0 && b.bottom() <= form.height, "layout {i}: a block leaves the page");
                assert!(b.columns.iter().all(|c| c.1 > 10.0), "layout {i}: a column {:?} too narrow", b.columns);
                let moves = b.column(Column::Moves(Side::White)).map_or(0.0, |c| c.1);
                assert!(
                    moves >= MIN_MOVE_CELL * b.row_h - 0.5,
                    "layout {i}: move cells {moves} wide, rows {}",
                    b.row_h
                );
            }
            for f in &form.fields {
                assert!(f.rect[3] <= form.height && f.rect[2] <= form.width, "layout {i}: a field leaves the page");
            }
        }
    }

    #[test]
    fn layouts_differ_from_sheet_to_sheet() {
        let a = random_layout(&mut rng_for(7, 0x1A40, 0));
        let b = random_layout(&mut rng_for(7, 0x1A40, 1));
        assert_ne!(a, b);
        assert_eq!(a, random_layout(&mut rng_for(7, 0x1A40, 0)));
    }
}
