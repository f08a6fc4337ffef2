//! Printed scoresheet forms, as data: page size, blocks of move rows with their column layout,
//! labelled header fields, result boxes, signature lines and printed text.
//!
//! Coordinates are page pixels (about 150 dpi; the HCS form at its photos' scale). [`Form::vary`]
//! makes the per-sheet variant actually printed (margins, column widths, row heights), and
//! [`FormStyle`] the printing itself (line weights, shading, digit font).

use rand::Rng;
use serde::Serialize;

/// Which player's half-move a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

/// A block of move rows: columns move number, white, black.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Block {
    /// Left and top of the first row (below the column headings).
    pub x: f32,
    pub y: f32,
    pub rows: u32,
    pub first_move: u32,
    pub row_h: f32,
    /// Widths of the number, white and black columns.
    pub cols: [f32; 3],
    /// Height of the column-heading row above the first row (0: none).
    pub heading_h: f32,
}

impl Block {
    pub fn width(&self) -> f32 {
        self.cols.iter().sum()
    }

    /// The box [x0, y0, x1, y1] of `side`'s cell in row `row` (0-based).
    pub fn cell(&self, row: u32, side: Side) -> [f32; 4] {
        let y0 = self.y + row as f32 * self.row_h;
        let x0 = match side {
            Side::White => self.x + self.cols[0],
            Side::Black => self.x + self.cols[0] + self.cols[1],
        };
        let w = if side == Side::White { self.cols[1] } else { self.cols[2] };
        [x0, y0, x0 + w, y0 + self.row_h]
    }
}

/// What a handwritten header field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FieldKind {
    Event,
    Date,
    Round,
    Board,
    White,
    Black,
    Result,
    Signature,
}

/// A labelled place to write in: the label is printed at its left, the writing goes on its line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Field {
    pub kind: FieldKind,
    pub label: &'static str,
    pub rect: [f32; 4],
    /// Drawn as a box (true) or as a line under the writing (false).
    pub boxed: bool,
}

/// A printed scoresheet form.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Form {
    pub name: &'static str,
    pub width: f32,
    pub height: f32,
    pub title: &'static str,
    pub blocks: Vec<Block>,
    pub fields: Vec<Field>,
    /// Printed choices of result to circle or tick ("1-0", "1/2-1/2", "0-1"), as (label, box).
    pub result_boxes: Vec<(&'static str, [f32; 4])>,
    /// Printed lines of small text (label, x, baseline y).
    pub notes: Vec<(&'static str, f32, f32)>,
    /// Column heading texts: number, white, black.
    pub headings: [&'static str; 3],
    /// The form printed for the moves after the last row, if any.
    pub continuation: Option<&'static str>,
}

/// One printed move cell.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Slot {
    pub move_no: u32,
    pub side: Side,
    pub rect: [f32; 4],
}

impl Form {
    /// Every move cell, in game order.
    pub fn slots(&self) -> Vec<Slot> {
        let mut out = Vec::new();
        for b in &self.blocks {
            for r in 0..b.rows {
                for side in [Side::White, Side::Black] {
                    out.push(Slot { move_no: b.first_move + r, side, rect: b.cell(r, side) });
                }
            }
        }
        out.sort_by_key(|s| (s.move_no, s.side == Side::Black));
        out
    }

    pub fn first_move(&self) -> u32 {
        self.blocks.iter().map(|b| b.first_move).min().unwrap_or(1)
    }

    pub fn last_move(&self) -> u32 {
        self.blocks.iter().map(|b| b.first_move + b.rows - 1).max().unwrap_or(0)
    }

    /// The page's own variant of the form: margins, column widths and row heights move a little,
    /// the way the same form differs between printers and print runs.
    pub fn vary<R: Rng>(&self, rng: &mut R) -> Form {
        let mut f = self.clone();
        let sx = rng.gen_range(0.975..1.02);
        let sy = rng.gen_range(0.98..1.015);
        let dx = (self.width * (1.0 - sx)) * rng.gen_range(0.2..0.8);
        let dy = (self.height * (1.0 - sy)) * rng.gen_range(0.2..0.8);
        let tx = |x: f32| x * sx + dx;
        let ty = |y: f32| y * sy + dy;
        let num_k = rng.gen_range(0.85..1.2);
        for b in &mut f.blocks {
            let total = b.width();
            let num = (b.cols[0] * num_k).min(total * 0.3);
            let white_share = rng.gen_range(0.47..0.53);
            b.cols = [num, (total - num) * white_share, (total - num) * (1.0 - white_share)];
            for c in &mut b.cols {
                *c *= sx;
            }
            b.x = tx(b.x);
            b.y = ty(b.y);
            b.row_h *= sy;
            b.heading_h *= sy;
        }
        let trect = |r: [f32; 4]| [tx(r[0]), ty(r[1]), tx(r[2]), ty(r[3])];
        for fl in &mut f.fields {
            fl.rect = trect(fl.rect);
        }
        for rb in &mut f.result_boxes {
            rb.1 = trect(rb.1);
        }
        for n in &mut f.notes {
            n.1 = tx(n.1);
            n.2 = ty(n.2);
        }
        f
    }
}

/// How a form is printed on one sheet.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FormStyle {
    /// Thin (row) and thick (outline) rule weights in pixels.
    pub thin: f32,
    pub thick: f32,
    /// Shade the move-number column.
    pub shade_numbers: bool,
    /// Column headings printed light on dark.
    pub dark_headings: bool,
    /// Printed font for digits and labels (name in [`super::fonts::PRINTED`]).
    pub digit_font: &'static str,
    /// Printed digit height relative to the row height.
    pub digit_size: f32,
    /// Digits centred in the number column (else left-aligned).
    pub centre_digits: bool,
    /// Colour of the printing.
    pub print: [u8; 3],
}

impl FormStyle {
    pub fn random<R: Rng>(form: &Form, rng: &mut R) -> FormStyle {
        let (shade_p, dark_p) = match form.name {
            "hcs" => (0.9, 0.9),
            "compact" => (0.1, 0.1),
            _ => (0.45, 0.4),
        };
        let fonts = ["dejavu-serif", "dejavu-serif-bold", "dejavu-sans-bold", "dejavu-sans-condensed"];
        let thin = rng.gen_range(1.0..2.6);
        let g = rng.gen_range(0..50u8);
        FormStyle {
            thin,
            thick: thin + rng.gen_range(0.5..2.5),
            shade_numbers: rng.gen_bool(shade_p),
            dark_headings: rng.gen_bool(dark_p),
            digit_font: if form.name == "hcs" && rng.gen_bool(0.7) {
                "dejavu-serif"
            } else {
                fonts[rng.gen_range(0..fonts.len())]
            },
            digit_size: rng.gen_range(0.26..0.38),
            centre_digits: rng.gen_bool(0.4),
            print: [g, g, g + rng.gen_range(0..20)],
        }
    }
}

/// The form held out of the page stage's tests, to show it generalizes to forms it was not built around.
pub const HELD_OUT_FORM: &str = "three-block";

/// Names of the forms a sheet can start on (continuation pages are not listed).
pub const NAMES: [&str; 5] = ["hcs", "club", "three-block", "long-column", "compact"];

fn halves(x: [f32; 2], y: f32, rows: u32, row_h: f32, cols: [f32; 3], heading_h: f32, first: [u32; 2]) -> Vec<Block> {
    (0..2).map(|i| Block { x: x[i], y, rows, first_move: first[i], row_h, cols, heading_h }).collect()
}

fn field(kind: FieldKind, label: &'static str, rect: [f32; 4], boxed: bool) -> Field {
    Field { kind, label, rect, boxed }
}

/// The form called `name` (any of [`NAMES`], or "long-column-p2").
pub fn form(name: &str) -> Option<Form> {
    use FieldKind::*;
    let a4 = (1240.0, 1754.0);
    let f = match name {
        // The HCS form: two halves of 30 rows, dark heading cells, shaded number column.
        "hcs" => Form {
            name: "hcs",
            width: 1450.0,
            height: 1750.0,
            title: "",
            blocks: halves([18.0, 732.0], 78.0, 30, 51.0, [92.0, 304.0, 304.0], 46.0, [1, 31]),
            fields: vec![],
            result_boxes: vec![
                ("WHITE WON", [560.0, 1652.0, 760.0, 1700.0]),
                ("DRAW", [900.0, 1652.0, 1040.0, 1700.0]),
                ("BLACK WON", [1150.0, 1652.0, 1380.0, 1700.0]),
            ],
            notes: vec![("CIRCLE CORRECT RESULT:", 22.0, 1688.0)],
            headings: ["", "WHITE", "BLACK"],
            continuation: None,
        },
        // A club form: header block, two halves of 25 rows, result boxes and signatures.
        "club" => Form {
            name: "club",
            width: a4.0,
            height: a4.1,
            title: "OFFICIAL SCORESHEET",
            blocks: halves([60.0, 640.0], 370.0, 25, 45.0, [62.0, 239.0, 239.0], 40.0, [1, 26]),
            fields: vec![
                field(Event, "Event", [60.0, 120.0, 780.0, 170.0], true),
                field(Date, "Date", [780.0, 120.0, 1180.0, 170.0], true),
                field(Round, "Round", [60.0, 170.0, 420.0, 220.0], true),
                field(Board, "Board", [420.0, 170.0, 780.0, 220.0], true),
                field(White, "White", [60.0, 220.0, 620.0, 270.0], true),
                field(Black, "Black", [620.0, 220.0, 1180.0, 270.0], true),
                field(Signature, "White's signature", [60.0, 1660.0, 560.0, 1705.0], false),
                field(Signature, "Black's signature", [680.0, 1660.0, 1180.0, 1705.0], false),
            ],
            result_boxes: vec![
                ("1-0", [300.0, 1560.0, 420.0, 1610.0]),
                ("1/2-1/2", [520.0, 1560.0, 700.0, 1610.0]),
                ("0-1", [800.0, 1560.0, 920.0, 1610.0]),
            ],
            notes: vec![("Result:", 62.0, 1595.0)],
            headings: ["No", "White", "Black"],
            continuation: None,
        },
        // Three blocks side by side: 1-20, 21-40, 41-60.
        "three-block" => Form {
            name: "three-block",
            width: a4.0,
            height: a4.1,
            title: "SCORE SHEET",
            blocks: (0..3)
                .map(|i| Block {
                    x: 40.0 + i as f32 * 392.0,
                    y: 300.0,
                    rows: 20,
                    first_move: 1 + 20 * i,
                    row_h: 60.0,
                    cols: [48.0, 166.0, 166.0],
                    heading_h: 38.0,
                })
                .collect(),
            fields: vec![
                field(White, "White:", [40.0, 120.0, 600.0, 165.0], false),
                field(Black, "Black:", [640.0, 120.0, 1200.0, 165.0], false),
                field(Event, "Tournament:", [40.0, 185.0, 800.0, 230.0], false),
                field(Date, "Date:", [840.0, 185.0, 1200.0, 230.0], false),
                field(Result, "Result:", [40.0, 1540.0, 500.0, 1590.0], false),
            ],
            result_boxes: vec![],
            notes: vec![("Both players must sign the scoresheet.", 600.0, 1580.0)],
            headings: ["#", "White", "Black"],
            continuation: None,
        },
        // One long column per page; the game goes on onto "long-column-p2".
        "long-column" => Form {
            name: "long-column",
            width: a4.0,
            height: a4.1,
            title: "GAME SCORE",
            blocks: vec![Block {
                x: 190.0,
                y: 250.0,
                rows: 40,
                first_move: 1,
                row_h: 35.0,
                cols: [90.0, 380.0, 380.0],
                heading_h: 40.0,
            }],
            fields: vec![
                field(White, "White", [190.0, 110.0, 640.0, 150.0], false),
                field(Black, "Black", [660.0, 110.0, 1040.0, 150.0], false),
                field(Event, "Event", [190.0, 160.0, 790.0, 200.0], false),
                field(Round, "Rd", [810.0, 160.0, 1040.0, 200.0], false),
            ],
            result_boxes: vec![],
            notes: vec![("Continued on the next page", 190.0, 1700.0)],
            headings: ["", "WHITE", "BLACK"],
            continuation: Some("long-column-p2"),
        },
        "long-column-p2" => Form {
            name: "long-column-p2",
            width: a4.0,
            height: a4.1,
            title: "GAME SCORE (continued)",
            blocks: vec![Block {
                x: 190.0,
                y: 170.0,
                rows: 40,
                first_move: 41,
                row_h: 35.0,
                cols: [90.0, 380.0, 380.0],
                heading_h: 40.0,
            }],
            fields: vec![field(Result, "Result", [190.0, 1620.0, 640.0, 1665.0], false)],
            result_boxes: vec![],
            notes: vec![],
            headings: ["", "WHITE", "BLACK"],
            continuation: None,
        },
        // A dense form: 1-80 in two halves of 40 narrow rows, thin lines, no shading.
        "compact" => Form {
            name: "compact",
            width: a4.0,
            height: a4.1,
            title: "Chess Score",
            blocks: halves([50.0, 635.0], 200.0, 40, 36.0, [55.0, 250.0, 250.0], 32.0, [1, 41]),
            fields: vec![
                field(White, "White", [50.0, 100.0, 420.0, 140.0], false),
                field(Black, "Black", [440.0, 100.0, 810.0, 140.0], false),
                field(Date, "Date", [830.0, 100.0, 1190.0, 140.0], false),
                field(Result, "Result", [830.0, 1680.0, 1190.0, 1720.0], false),
            ],
            result_boxes: vec![],
            notes: vec![],
            headings: ["", "White", "Black"],
            continuation: None,
        },
        _ => return None,
    };
    Some(f)
}

/// Every form, continuation pages included.
pub fn all() -> Vec<Form> {
    NAMES.iter().chain(["long-column-p2"].iter()).filter_map(|n| form(n)).collect()
}
