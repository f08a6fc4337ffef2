//! Printed scoresheet forms, as data: page size, blocks of move rows with their columns, headings,
//! labelled header fields, result choices, signature lines, printed frames, rules and text.
//!
//! Coordinates are page pixels (about 150 dpi; the HCS form at its photos' scale; a form printed at
//! scan resolution is larger). [`Form::vary`] makes the per-sheet variant actually printed
//! (margins, column widths, row heights); [`Look`] says how a form's printing varies, and
//! [`FormStyle`] is the printing of one sheet (line weights and colours, shading, digit font).
//! The library of named forms and what each imitates: `docs/forms.md`.

use rand::Rng;
use serde::Serialize;

use super::handwriting::Inks;

/// Which player's half-move a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White's move.
    White,
    /// Black's move.
    Black,
}

/// What a printed column of a block holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Column {
    /// The printed move numbers.
    Number,
    /// A player's moves: the move cells.
    Moves(Side),
    /// A player's clock time after the move: printed and sometimes written in, never a move cell.
    Clock(Side),
}

impl Column {
    /// The player a column belongs to (none for the numbers).
    pub fn side(self) -> Option<Side> {
        match self {
            Column::Number => None,
            Column::Moves(s) | Column::Clock(s) => Some(s),
        }
    }
}

/// A block of move rows: its columns left to right (numbers left of, between or without the
/// moves, with or without clock columns).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Block {
    /// Left of the first row (below the column headings).
    pub x: f32,
    /// Top of the first row.
    pub y: f32,
    /// Move rows.
    pub rows: u32,
    /// The move number of the first row.
    pub first_move: u32,
    /// Row height.
    pub row_h: f32,
    /// The columns left to right, each with its width.
    pub columns: Vec<(Column, f32)>,
    /// Height of the column-heading rows above the first row (0: none).
    pub heading_h: f32,
}

impl Block {
    /// The block's width: its columns' together.
    pub fn width(&self) -> f32 {
        self.columns.iter().map(|c| c.1).sum()
    }

    /// Left edge and width of the column `kind`, if the block has one.
    pub fn column(&self, kind: Column) -> Option<(f32, f32)> {
        let mut x = self.x;
        for &(k, w) in &self.columns {
            if k == kind {
                return Some((x, w));
            }
            x += w;
        }
        None
    }

    /// The box [x0, y0, x1, y1] of `side`'s move cell in row `row` (0-based).
    pub fn cell(&self, row: u32, side: Side) -> [f32; 4] {
        let (x0, w) = self.column(Column::Moves(side)).expect("every block has both players' move columns");
        let y0 = self.y + row as f32 * self.row_h;
        [x0, y0, x0 + w, y0 + self.row_h]
    }

    /// The box of a column's cell in row `row`.
    pub fn cell_of(&self, row: u32, kind: Column) -> Option<[f32; 4]> {
        let (x0, w) = self.column(kind)?;
        let y0 = self.y + row as f32 * self.row_h;
        Some([x0, y0, x0 + w, y0 + self.row_h])
    }

    /// The bottom of the last row.
    pub fn bottom(&self) -> f32 {
        self.y + self.rows as f32 * self.row_h
    }
}

/// What a handwritten header field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FieldKind {
    /// The event's name.
    Event,
    /// The date.
    Date,
    /// The round.
    Round,
    /// The board.
    Board,
    /// White's name.
    White,
    /// Black's name.
    Black,
    /// The result.
    Result,
    /// A player's signature.
    Signature,
    /// A player's rating (written as four digits, not in the truth's header).
    Rating,
    /// Anything else the form asks for (club, section, time control): left blank.
    Other,
}

/// How a header field's place to write is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FieldLine {
    /// A box, the label in its top-left corner.
    Boxed,
    /// The label, then a line to write on.
    Underlined,
    /// The label, then a dotted line ("Event: ..........").
    Dotted,
    /// The label alone (tournament software prints the value after it).
    Bare,
}

impl FieldKind {
    /// The truth header's key for what the field holds, if it is one.
    pub fn header_key(self) -> Option<&'static str> {
        match self {
            FieldKind::Event => Some("event"),
            FieldKind::Date => Some("date"),
            FieldKind::Round => Some("round"),
            FieldKind::Board => Some("board"),
            FieldKind::White => Some("white"),
            FieldKind::Black => Some("black"),
            _ => None,
        }
    }
}

/// A labelled place to write in.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Field {
    /// What the field holds.
    pub kind: FieldKind,
    /// The printed label.
    pub label: &'static str,
    /// Where it is written in: [x0, y0, x1, y1].
    pub rect: [f32; 4],
    /// How the place to write is printed.
    pub line: FieldLine,
}

/// How a form's result choices are printed (and so marked by the writer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ResultMarks {
    /// Words to circle, no box.
    Circled,
    /// A box around each choice.
    Boxed,
    /// A small square to tick before each choice.
    CheckBoxes,
}

/// The square to tick printed at the left of a check-box result choice `r`.
pub fn check_box(r: [f32; 4]) -> [f32; 4] {
    let s = (r[3] - r[1]) * 0.8;
    let cy = (r[1] + r[3]) / 2.0;
    [r[0], cy - s / 2.0, r[0] + s, cy + s / 2.0]
}

/// The words printed over a block's columns.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Headings {
    /// Over the number column.
    pub number: &'static str,
    /// Over White's moves.
    pub white: &'static str,
    /// Over Black's moves.
    pub black: &'static str,
    /// Over the clock columns; "" prints a clock face instead.
    pub clock: &'static str,
    /// A second, upper level: each player's word over their moves and clock columns; the lower
    /// level then holds `white`, `black` and `clock` ("Move", "Time").
    pub players: Option<[&'static str; 2]>,
}

impl Headings {
    /// One level: number, white and black words.
    pub const fn words(number: &'static str, white: &'static str, black: &'static str) -> Headings {
        Headings { number, white, black, clock: "", players: None }
    }

    /// The word over a column.
    pub fn word(&self, column: Column) -> &'static str {
        match column {
            Column::Number => self.number,
            Column::Moves(Side::White) => self.white,
            Column::Moves(Side::Black) => self.black,
            Column::Clock(_) => self.clock,
        }
    }
}

/// A printed table that holds no moves (a team match's board results): ruled like the moves,
/// numbered rows included, and no part of the truth.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    /// Left of the table.
    pub x: f32,
    /// Top of the table.
    pub y: f32,
    /// Row height.
    pub row_h: f32,
    /// The columns' widths, left to right.
    pub widths: Vec<f32>,
    /// Words of the first row.
    pub headings: &'static [&'static str],
    /// Words of the first column below the headings, one a row.
    pub labels: &'static [&'static str],
}

/// A printed scoresheet form.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Form {
    /// The form's name (`--form NAME`).
    pub name: &'static str,
    /// Page width in pixels.
    pub width: f32,
    /// Page height in pixels.
    pub height: f32,
    /// The printed title.
    pub title: &'static str,
    /// The blocks of move rows.
    pub blocks: Vec<Block>,
    /// The header fields.
    pub fields: Vec<Field>,
    /// Printed choices of result ("1-0", draw, "0-1", in that order), as (label, box).
    pub result_boxes: Vec<(&'static str, [f32; 4])>,
    /// How the result choices are printed.
    pub result_marks: ResultMarks,
    /// Printed lines of small text (label, x, baseline y).
    pub notes: Vec<(&'static str, f32, f32)>,
    /// The words over the blocks' columns.
    pub headings: Headings,
    /// With no number column: each row's number printed at the left of White's cell ("12."), the
    /// writing to its right. (Without either the form prints no numbers.)
    pub number_in_cell: bool,
    /// Printed rectangles: header panels, the ruled result row under the table.
    pub frames: Vec<[f32; 4]>,
    /// Printed rules [x0, y0, x1, y1] besides the blocks' own: dividers, lines for notes.
    pub lines: Vec<[f32; 4]>,
    /// Printed tables that hold no moves.
    pub tables: Vec<Table>,
    /// The header values are printed (by tournament software), not handwritten.
    pub printed_header: bool,
    /// How the printing varies from sheet to sheet.
    pub look: Look,
    /// The form printed for the moves after the last row, if any.
    pub continuation: Option<&'static str>,
}

/// One printed move cell.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Slot {
    /// The move number.
    pub move_no: u32,
    /// Whose move.
    pub side: Side,
    /// The ruled cell: [x0, y0, x1, y1].
    pub rect: [f32; 4],
    /// Where the writer writes: the cell less a number printed in it.
    pub write: [f32; 4],
    /// The cell's box in the truth: the ruled cell less a number printed in it (a reader cuts
    /// the move, not the printed number).
    pub truth: [f32; 4],
}

/// How much of White's cell a number printed in it takes, for rows `row_h` high.
pub fn number_room(row_h: f32, cell_w: f32) -> f32 {
    (row_h * 1.1).min(cell_w * 0.3)
}

impl Form {
    /// Every move cell, in game order.
    pub fn slots(&self) -> Vec<Slot> {
        let mut out = Vec::new();
        for b in &self.blocks {
            for r in 0..b.rows {
                for side in [Side::White, Side::Black] {
                    let rect = b.cell(r, side);
                    let mut write = rect;
                    let mut truth = rect;
                    if self.number_in_cell && side == Side::White {
                        write[0] += number_room(b.row_h, rect[2] - rect[0]);
                        // (the printed number takes about half the room left for it)
                        truth[0] += 0.5 * number_room(b.row_h, rect[2] - rect[0]);
                    }
                    out.push(Slot { move_no: b.first_move + r, side, rect, write, truth });
                }
            }
        }
        out.sort_by_key(|s| (s.move_no, s.side == Side::Black));
        out
    }

    /// The first move number the form holds.
    pub fn first_move(&self) -> u32 {
        self.blocks.iter().map(|b| b.first_move).min().unwrap_or(1)
    }

    /// The last move number the form holds.
    pub fn last_move(&self) -> u32 {
        self.blocks.iter().map(|b| b.first_move + b.rows - 1).max().unwrap_or(0)
    }

    /// Whether any block has clock columns.
    pub fn has_clocks(&self) -> bool {
        self.blocks.iter().any(|b| b.columns.iter().any(|c| matches!(c.0, Column::Clock(_))))
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
            // The number column widens or narrows, clocks keep their width, the moves share the rest.
            let total = b.width();
            let number = b.column(Column::Number).map_or(0.0, |c| c.1);
            let num = (number * num_k).min(total * 0.3);
            let clocks: f32 = b.columns.iter().filter(|c| matches!(c.0, Column::Clock(_))).map(|c| c.1).sum();
            let moves = total - num - clocks;
            let white_share = rng.gen_range(0.47..0.53);
            for (kind, w) in &mut b.columns {
                *w = match kind {
                    Column::Number => num,
                    Column::Moves(Side::White) => moves * white_share,
                    Column::Moves(Side::Black) => moves * (1.0 - white_share),
                    Column::Clock(_) => *w,
                } * sx;
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
        for r in f.frames.iter_mut().chain(f.lines.iter_mut()) {
            *r = trect(*r);
        }
        for t in &mut f.tables {
            t.x = tx(t.x);
            t.y = ty(t.y);
            t.row_h *= sy;
            for w in &mut t.widths {
                *w *= sx;
            }
        }
        f
    }
}

/// How the rows of a block are ruled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RowLine {
    /// Solid rules.
    Solid,
    /// Dotted rules.
    Dotted,
    /// Dashed rules.
    Dashed,
}

/// A block's ruling: a full grid (every row, every column edge, a frame), or open: rows ruled
/// across, one rule before Black's moves, no frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Ruling {
    /// How the rows are ruled.
    pub rows: RowLine,
    /// A full grid (else open).
    pub grid: bool,
    /// Rules part a number column between the moves from them (else the number stands in the
    /// middle of one ruled column with White's and Black's moves, as on many club forms).
    pub number_ruled: bool,
}

/// How the column headings are shaded.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HeadingShade {
    /// As the original forms: the number heading light grey, the players' headings light grey
    /// with shaded numbers or light on dark with dark headings.
    Original,
    /// No shading.
    Plain,
    /// One band over every column, the print colour faded towards the paper by a fraction drawn
    /// from the range (light grey near 0.8, dark below 0.45, where the words print light).
    Band(f32, f32),
}

/// Text alignment of the printed move numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Align {
    /// Left-aligned.
    Left,
    /// Centred.
    Centre,
    /// Right-aligned.
    Right,
}

/// How a form's printing varies from sheet to sheet: what [`FormStyle::random`] draws from.
///
/// Choices left at their [`Look::ORIGINAL`] value draw nothing, so the five original forms print
/// as they always have for a seed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Look {
    /// Chance that the number column is shaded.
    pub shaded_numbers: f64,
    /// The chance of light-on-dark headings.
    pub dark_headings: f64,
    /// Dark headings darken both players' headings (else Black's alone).
    pub dark_white_heading: bool,
    /// The digit font the form is usually printed in, and how often.
    pub usual_digit_font: Option<(&'static str, f64)>,
    /// How the column headings are shaded.
    pub headings: HeadingShade,
    /// How the blocks are ruled.
    pub ruling: Ruling,
    /// Range of the thin rules' weight in pixels (None: 1-2.6, thick rules 0.5-2.5 more).
    pub thin_rules: Option<(f32, f32)>,
    /// Rulings faded towards the paper by a fraction in this range: faint grey or tinted rules
    /// under darker text.
    pub faded_rules: Option<(f32, f32)>,
    /// Print colours to draw from (empty: near-black).
    pub print_colours: &'static [[u8; 3]],
    /// Fade range of a shaded number column (None: grey 205).
    pub number_shade: Option<(f32, f32)>,
    /// Chance to shade Black's columns.
    pub shaded_black: f64,
    /// The chance of shading every other row.
    pub alternate_rows: f64,
    /// Every fifth move number in bold.
    pub bold_every_fifth: bool,
    /// Alignment of the move numbers (None: centred or left, drawn).
    pub number_align: Option<Align>,
    /// Printed after each move number (".").
    pub number_suffix: &'static str,
    /// A colon printed in every clock cell ("  :  ").
    pub clock_colons: bool,
    /// Size of the printed text (title, headings, labels) relative to a 150 dpi A4 form.
    pub text_scale: f32,
    /// Paper tints to draw from (empty: white or cream).
    pub paper_tints: &'static [[u8; 3]],
    /// The pens the form is filled in with.
    pub inks: Inks,
}

impl Look {
    /// The original forms' look (the chances are per form).
    pub const ORIGINAL: Look = Look {
        shaded_numbers: 0.45,
        dark_headings: 0.4,
        dark_white_heading: true,
        usual_digit_font: None,
        headings: HeadingShade::Original,
        ruling: Ruling { rows: RowLine::Solid, grid: true, number_ruled: true },
        thin_rules: None,
        faded_rules: None,
        print_colours: &[],
        number_shade: None,
        shaded_black: 0.0,
        alternate_rows: 0.0,
        bold_every_fifth: false,
        number_align: None,
        number_suffix: "",
        clock_colons: false,
        text_scale: 1.0,
        paper_tints: &[],
        inks: Inks::Ballpoint,
    };

    /// A starting point for the library's forms: unshaded headings, any pen.
    pub const PLAIN: Look = Look {
        shaded_numbers: 0.0,
        dark_headings: 0.0,
        headings: HeadingShade::Plain,
        inks: Inks::Any,
        ..Look::ORIGINAL
    };
}

/// Fades `c` towards white by `k` (0: `c`, 1: white).
pub fn fade(c: [u8; 3], k: f32) -> [u8; 3] {
    c.map(|v| (v as f32 + (255.0 - v as f32) * k).round().clamp(0.0, 255.0) as u8)
}

/// Whether a fill is dark enough that words on it print light.
pub fn is_dark(c: [u8; 3]) -> bool {
    (0.299 * c[0] as f32 + 0.587 * c[1] as f32 + 0.114 * c[2] as f32) < 128.0
}

/// True with chance `p`, drawing nothing when `p` is 0 or 1.
fn chance<R: Rng>(rng: &mut R, p: f64) -> bool {
    p >= 1.0 || (p > 0.0 && rng.gen_bool(p))
}

/// The original forms' heading shades.
const LIGHT_HEADING: [u8; 3] = [215, 215, 215];
const DARK_HEADING: [u8; 3] = [70, 70, 75];

/// How a form is printed on one sheet.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FormStyle {
    /// Thin (row) rule weight in pixels.
    pub thin: f32,
    /// Thick (outline) rule weight in pixels.
    pub thick: f32,
    /// Shade the move-number column.
    pub shade_numbers: bool,
    /// Column headings printed light on dark.
    pub dark_headings: bool,
    /// Dark headings darken both players' headings (else Black's alone).
    pub dark_white_heading: bool,
    /// Printed font for digits and labels (name in [`super::fonts::PRINTED`]).
    pub digit_font: &'static str,
    /// Printed digit height relative to the row height.
    pub digit_size: f32,
    /// Alignment of the move numbers.
    pub number_align: Align,
    /// Colour of the printed text.
    pub print: [u8; 3],
    /// The colour of the rules.
    pub rules: [u8; 3],
    /// How the column headings are shaded.
    pub headings: HeadingShade,
    /// The heading band's colour, when [`HeadingShade::Band`].
    pub band: [u8; 3],
    /// Colour of a shaded number column.
    pub number_fill: [u8; 3],
    /// Shading of Black's columns.
    pub black_fill: Option<[u8; 3]>,
    /// Every other row's shading.
    pub alternate_fill: Option<[u8; 3]>,
    /// How the blocks are ruled.
    pub ruling: Ruling,
    /// Every fifth move number in bold.
    pub bold_every_fifth: bool,
    /// Printed after each move number.
    pub number_suffix: &'static str,
    /// Colons printed in the clock columns.
    pub clock_colons: bool,
    /// Scale of the printed text.
    pub text_scale: f32,
    /// Multiplies the paper colour (coloured paper).
    pub paper_tint: Option<[u8; 3]>,
}

impl FormStyle {
    /// Draws the printing of one sheet of `form` from its [`Look`].
    pub fn random<R: Rng>(form: &Form, rng: &mut R) -> FormStyle {
        let look = &form.look;
        let fonts = ["dejavu-serif", "dejavu-serif-bold", "dejavu-sans-bold", "dejavu-sans-condensed"];
        let thin = rng.gen_range(1.0..2.6);
        let g = rng.gen_range(0..50u8);
        let thick = thin + rng.gen_range(0.5..2.5);
        let shade_numbers = rng.gen_bool(look.shaded_numbers);
        let dark_headings = rng.gen_bool(look.dark_headings);
        let digit_font = match look.usual_digit_font {
            Some((font, p)) if rng.gen_bool(p) => font,
            _ => fonts[rng.gen_range(0..fonts.len())],
        };
        let digit_size = rng.gen_range(0.26..0.38);
        let centre_digits = rng.gen_bool(0.4);
        let print = [g, g, g + rng.gen_range(0..20)];
        let mut style = FormStyle {
            thin,
            thick,
            shade_numbers,
            dark_headings,
            dark_white_heading: look.dark_white_heading,
            digit_font,
            digit_size,
            number_align: if centre_digits { Align::Centre } else { Align::Left },
            print,
            rules: print,
            headings: look.headings,
            band: LIGHT_HEADING,
            number_fill: [205, 205, 205],
            black_fill: None,
            alternate_fill: None,
            ruling: look.ruling,
            bold_every_fifth: look.bold_every_fifth,
            number_suffix: look.number_suffix,
            clock_colons: look.clock_colons,
            text_scale: look.text_scale,
            paper_tint: None,
        };
        // The library's own choices, each drawn only where the form makes one.
        if let Some(align) = look.number_align {
            style.number_align = align;
        }
        if let Some((lo, hi)) = look.thin_rules {
            style.thin = rng.gen_range(lo..hi);
            style.thick = style.thin + rng.gen_range(0.4..1.4);
        }
        if !look.print_colours.is_empty() {
            let c = look.print_colours[rng.gen_range(0..look.print_colours.len())];
            let jitter = rng.gen_range(-12..=12i16);
            style.print = c.map(|v| (v as i16 + jitter).clamp(0, 255) as u8);
            style.rules = style.print;
        }
        if let Some((lo, hi)) = look.faded_rules {
            style.rules = fade(style.print, rng.gen_range(lo..hi));
        }
        if let HeadingShade::Band(lo, hi) = look.headings {
            style.band = fade(style.print, rng.gen_range(lo..hi));
        }
        if let Some((lo, hi)) = look.number_shade {
            style.number_fill = fade(style.print, rng.gen_range(lo..hi));
        }
        if chance(rng, look.shaded_black) {
            style.black_fill = Some(fade(style.print, rng.gen_range(0.8..0.9)));
        }
        if chance(rng, look.alternate_rows) {
            style.alternate_fill = Some(fade(style.print, rng.gen_range(0.88..0.94)));
        }
        if !look.paper_tints.is_empty() {
            style.paper_tint = Some(look.paper_tints[rng.gen_range(0..look.paper_tints.len())]);
        }
        style
    }

    /// The fill behind a column's heading, if any.
    pub fn heading_fill(&self, column: Column) -> Option<[u8; 3]> {
        match self.headings {
            HeadingShade::Plain => None,
            HeadingShade::Band(..) => Some(self.band),
            HeadingShade::Original => {
                let dark = self.dark_headings
                    && match column {
                        Column::Moves(Side::Black) => true,
                        Column::Moves(Side::White) => self.dark_white_heading,
                        _ => false,
                    };
                if dark {
                    Some(DARK_HEADING)
                } else if column == Column::Number || self.shade_numbers {
                    Some(LIGHT_HEADING)
                } else {
                    None
                }
            }
        }
    }
}

/// The form held out of the page stage's tests since the start, to show it generalizes to forms
/// it was not built around (one of [`HELD_OUT_FORMS`]).
pub const HELD_OUT_FORM: &str = "three-block";

/// The original five forms: what `--form mix` deals and cells mode draws from, so that a seed's
/// sheets and cells stay what they were before the library grew.
pub const NAMES: [&str; 5] = ["hcs", "club", "three-block", "long-column", "compact"];

/// The forms the page stage is developed on (`--form dev-mix` deals them).
pub const DEVELOPMENT_FORMS: [&str; 15] = [
    "hcs",
    "club",
    "long-column",
    "compact",
    "us-tournament",
    "fide-a4",
    "club-a5-times",
    "polish-3x20",
    "number-in-cell",
    "federation-es",
    "federation-pt",
    "club-de-landscape",
    "olympiad-dotted",
    "scorebook",
    "software-print",
];

/// The forms held out of all development: never looked at while tuning, used only to report
/// (`--form heldout-mix` deals them).
pub const HELD_OUT_FORMS: [&str; 5] =
    ["three-block", "number-between", "carbon-pair", "federation-ru", "club-de-colour"];

/// Every named form a sheet can start on (continuation pages are not listed).
pub fn library() -> impl Iterator<Item = &'static str> {
    DEVELOPMENT_FORMS.into_iter().chain(HELD_OUT_FORMS)
}

/// Continuation pages: printed for the moves after a form's last row, never started on.
pub const CONTINUATIONS: [&str; 3] = ["long-column-p2", "olympiad-dotted-p2", "scorebook-p2"];

// Column shorthands for the catalogue below.
const NO: Column = Column::Number;
const W: Column = Column::Moves(Side::White);
const B: Column = Column::Moves(Side::Black);
const TW: Column = Column::Clock(Side::White);
const TB: Column = Column::Clock(Side::Black);

/// Page sizes in pixels: at 150 dpi, and US letter at 200 dpi (a scan's resolution).
const A4: (f32, f32) = (1240.0, 1754.0);
const A4_LANDSCAPE: (f32, f32) = (1754.0, 1240.0);
const A5: (f32, f32) = (874.0, 1240.0);
const LETTER: (f32, f32) = (1275.0, 1650.0);
const LETTER_200_DPI: (f32, f32) = (1700.0, 2200.0);

/// Blocks side by side at `xs` (all at `y`), numbered on from `first_move`.
fn blocks(
    first_move: u32,
    xs: &[f32],
    y: f32,
    rows: u32,
    row_h: f32,
    columns: &[(Column, f32)],
    heading_h: f32,
) -> Vec<Block> {
    xs.iter()
        .enumerate()
        .map(|(i, &x)| Block {
            x,
            y,
            rows,
            first_move: first_move + i as u32 * rows,
            row_h,
            columns: columns.to_vec(),
            heading_h,
        })
        .collect()
}

/// The original forms' halves: number, white and black columns.
fn halves(x: [f32; 2], y: f32, rows: u32, row_h: f32, cols: [f32; 3], heading_h: f32, first: [u32; 2]) -> Vec<Block> {
    let columns = [(NO, cols[0]), (W, cols[1]), (B, cols[2])];
    (0..2).flat_map(|i| blocks(first[i], &[x[i]], y, rows, row_h, &columns, heading_h)).collect()
}

fn field(kind: FieldKind, label: &'static str, rect: [f32; 4], line: FieldLine) -> Field {
    Field { kind, label, rect, line }
}

/// A form with nothing on it yet.
fn blank(name: &'static str, (width, height): (f32, f32)) -> Form {
    Form {
        name,
        width,
        height,
        title: "",
        blocks: vec![],
        fields: vec![],
        result_boxes: vec![],
        result_marks: ResultMarks::Boxed,
        notes: vec![],
        headings: Headings::words("", "White", "Black"),
        number_in_cell: false,
        frames: vec![],
        lines: vec![],
        tables: vec![],
        printed_header: false,
        look: Look::ORIGINAL,
        continuation: None,
    }
}

/// The form called `name` (any of [`library`] or [`CONTINUATIONS`]).
pub fn form(name: &str) -> Option<Form> {
    use FieldKind::*;
    use FieldLine::*;
    let f = match name {
        // The HCS form: two halves of 30 rows, dark heading cells, shaded number column.
        "hcs" => Form {
            width: 1450.0,
            height: 1750.0,
            blocks: halves([18.0, 732.0], 78.0, 30, 51.0, [92.0, 304.0, 304.0], 46.0, [1, 31]),
            result_boxes: vec![
                ("WHITE WON", [560.0, 1652.0, 760.0, 1700.0]),
                ("DRAW", [900.0, 1652.0, 1040.0, 1700.0]),
                ("BLACK WON", [1150.0, 1652.0, 1380.0, 1700.0]),
            ],
            result_marks: ResultMarks::Circled,
            notes: vec![("CIRCLE CORRECT RESULT:", 22.0, 1688.0)],
            headings: Headings::words("", "WHITE", "BLACK"),
            look: Look {
                shaded_numbers: 0.9,
                dark_headings: 0.9,
                dark_white_heading: false,
                usual_digit_font: Some(("dejavu-serif", 0.7)),
                ..Look::ORIGINAL
            },
            ..blank("hcs", A4)
        },
        // A club form: header block, two halves of 25 rows, result boxes and signatures.
        "club" => Form {
            title: "OFFICIAL SCORESHEET",
            blocks: halves([60.0, 640.0], 370.0, 25, 45.0, [62.0, 239.0, 239.0], 40.0, [1, 26]),
            fields: vec![
                field(Event, "Event", [60.0, 120.0, 780.0, 170.0], Boxed),
                field(Date, "Date", [780.0, 120.0, 1180.0, 170.0], Boxed),
                field(Round, "Round", [60.0, 170.0, 420.0, 220.0], Boxed),
                field(Board, "Board", [420.0, 170.0, 780.0, 220.0], Boxed),
                field(White, "White", [60.0, 220.0, 620.0, 270.0], Boxed),
                field(Black, "Black", [620.0, 220.0, 1180.0, 270.0], Boxed),
                field(Signature, "White's signature", [60.0, 1660.0, 560.0, 1705.0], Underlined),
                field(Signature, "Black's signature", [680.0, 1660.0, 1180.0, 1705.0], Underlined),
            ],
            result_boxes: vec![
                ("1-0", [300.0, 1560.0, 420.0, 1610.0]),
                ("1/2-1/2", [520.0, 1560.0, 700.0, 1610.0]),
                ("0-1", [800.0, 1560.0, 920.0, 1610.0]),
            ],
            notes: vec![("Result:", 62.0, 1595.0)],
            headings: Headings::words("No", "White", "Black"),
            ..blank("club", A4)
        },
        // Three blocks side by side: 1-20, 21-40, 41-60.
        "three-block" => Form {
            title: "SCORE SHEET",
            blocks: blocks(1, &[40.0, 432.0, 824.0], 300.0, 20, 60.0, &[(NO, 48.0), (W, 166.0), (B, 166.0)], 38.0),
            fields: vec![
                field(White, "White:", [40.0, 120.0, 600.0, 165.0], Underlined),
                field(Black, "Black:", [640.0, 120.0, 1200.0, 165.0], Underlined),
                field(Event, "Tournament:", [40.0, 185.0, 800.0, 230.0], Underlined),
                field(Date, "Date:", [840.0, 185.0, 1200.0, 230.0], Underlined),
                field(Result, "Result:", [40.0, 1540.0, 500.0, 1590.0], Underlined),
            ],
            notes: vec![("Both players must sign the scoresheet.", 600.0, 1580.0)],
            headings: Headings::words("#", "White", "Black"),
            ..blank("three-block", A4)
        },
        // One long column per page; the game goes on onto "long-column-p2".
        "long-column" => Form {
            title: "GAME SCORE",
            blocks: blocks(1, &[190.0], 250.0, 40, 35.0, &[(NO, 90.0), (W, 380.0), (B, 380.0)], 40.0),
            fields: vec![
                field(White, "White", [190.0, 110.0, 640.0, 150.0], Underlined),
                field(Black, "Black", [660.0, 110.0, 1040.0, 150.0], Underlined),
                field(Event, "Event", [190.0, 160.0, 790.0, 200.0], Underlined),
                field(Round, "Rd", [810.0, 160.0, 1040.0, 200.0], Underlined),
            ],
            notes: vec![("Continued on the next page", 190.0, 1700.0)],
            headings: Headings::words("", "WHITE", "BLACK"),
            continuation: Some("long-column-p2"),
            ..blank("long-column", A4)
        },
        "long-column-p2" => Form {
            title: "GAME SCORE (continued)",
            blocks: blocks(41, &[190.0], 170.0, 40, 35.0, &[(NO, 90.0), (W, 380.0), (B, 380.0)], 40.0),
            fields: vec![field(Result, "Result", [190.0, 1620.0, 640.0, 1665.0], Underlined)],
            headings: Headings::words("", "WHITE", "BLACK"),
            ..blank("long-column-p2", A4)
        },
        // A dense form: 1-80 in two halves of 40 narrow rows, thin lines, no shading.
        "compact" => Form {
            title: "Chess Score",
            blocks: halves([50.0, 635.0], 200.0, 40, 36.0, [55.0, 250.0, 250.0], 32.0, [1, 41]),
            fields: vec![
                field(White, "White", [50.0, 100.0, 420.0, 140.0], Underlined),
                field(Black, "Black", [440.0, 100.0, 810.0, 140.0], Underlined),
                field(Date, "Date", [830.0, 100.0, 1190.0, 140.0], Underlined),
                field(Result, "Result", [830.0, 1680.0, 1190.0, 1720.0], Underlined),
            ],
            headings: Headings::words("", "White", "Black"),
            look: Look { shaded_numbers: 0.1, dark_headings: 0.1, ..Look::ORIGINAL },
            ..blank("compact", A4)
        },
        _ => return library_form(name),
    };
    Some(f)
}

/// The forms added to the original five (see `docs/forms.md` for what each imitates).
fn library_form(name: &str) -> Option<Form> {
    use FieldKind::*;
    use FieldLine::*;
    let f = match name {
        // A US tournament form at scan resolution: 1-25 | 26-50, a shaded heading row inside the
        // grid (as tall as a move row), faint grey thin rulings, a ruled result row with check
        // boxes under the table, signature lines; filled in with any pen, often blue or green.
        "us-tournament" => Form {
            title: "TOURNAMENT SCORE SHEET",
            blocks: blocks(1, &[120.0, 880.0], 524.0, 25, 54.0, &[(NO, 80.0), (W, 310.0), (B, 310.0)], 54.0),
            fields: vec![
                field(Event, "Event", [120.0, 150.0, 1120.0, 205.0], Underlined),
                field(Date, "Date", [1160.0, 150.0, 1580.0, 205.0], Underlined),
                field(Other, "Section", [120.0, 220.0, 700.0, 275.0], Underlined),
                field(Round, "Round", [740.0, 220.0, 1120.0, 275.0], Underlined),
                field(Board, "Board", [1160.0, 220.0, 1580.0, 275.0], Underlined),
                field(White, "White", [120.0, 290.0, 1120.0, 345.0], Underlined),
                field(Rating, "Rating", [1160.0, 290.0, 1580.0, 345.0], Underlined),
                field(Black, "Black", [120.0, 360.0, 1120.0, 415.0], Underlined),
                field(Rating, "Rating", [1160.0, 360.0, 1580.0, 415.0], Underlined),
                field(Signature, "White's signature", [120.0, 1990.0, 800.0, 2045.0], Underlined),
                field(Signature, "Black's signature", [880.0, 1990.0, 1580.0, 2045.0], Underlined),
            ],
            frames: vec![[120.0, 1874.0, 1580.0, 1930.0]],
            result_boxes: vec![
                ("WHITE WON", [420.0, 1886.0, 640.0, 1918.0]),
                ("DRAW", [760.0, 1886.0, 940.0, 1918.0]),
                ("BLACK WON", [1060.0, 1886.0, 1280.0, 1918.0]),
            ],
            result_marks: ResultMarks::CheckBoxes,
            notes: vec![
                ("RESULT:", 136.0, 1912.0),
                ("Both players sign. Keep score in algebraic notation.", 120.0, 2110.0),
            ],
            headings: Headings::words("", "WHITE", "BLACK"),
            look: Look {
                shaded_numbers: 0.25,
                headings: HeadingShade::Band(0.72, 0.86),
                thin_rules: Some((1.0, 1.7)),
                faded_rules: Some((0.62, 0.8)),
                text_scale: 1.35,
                ..Look::PLAIN
            },
            ..blank("us-tournament", LETTER_200_DPI)
        },
        // A FIDE-rated tournament's form: boxed header, 1-30 | 31-60 numbered left, full black
        // grid, a result row of check boxes and signature boxes under the table.
        "fide-a4" => Form {
            title: "CHESS SCORESHEET",
            blocks: blocks(1, &[60.0, 630.0], 375.0, 30, 40.0, &[(NO, 60.0), (W, 245.0), (B, 245.0)], 40.0),
            fields: vec![
                field(Event, "Event", [60.0, 110.0, 860.0, 160.0], Boxed),
                field(Round, "Round", [860.0, 110.0, 1180.0, 160.0], Boxed),
                field(Date, "Date", [60.0, 160.0, 860.0, 210.0], Boxed),
                field(Board, "Board", [860.0, 160.0, 1180.0, 210.0], Boxed),
                field(White, "White", [60.0, 210.0, 620.0, 260.0], Boxed),
                field(Black, "Black", [620.0, 210.0, 1180.0, 260.0], Boxed),
                field(Rating, "FIDE rating", [60.0, 260.0, 620.0, 305.0], Boxed),
                field(Rating, "FIDE rating", [620.0, 260.0, 1180.0, 305.0], Boxed),
                field(Signature, "Signature:", [60.0, 1620.0, 620.0, 1700.0], Boxed),
                field(Signature, "Signature:", [620.0, 1620.0, 1180.0, 1700.0], Boxed),
            ],
            frames: vec![[60.0, 1575.0, 1180.0, 1620.0]],
            result_boxes: vec![
                ("White won", [260.0, 1583.0, 450.0, 1612.0]),
                ("Draw", [560.0, 1583.0, 700.0, 1612.0]),
                ("Black won", [820.0, 1583.0, 1010.0, 1612.0]),
            ],
            result_marks: ResultMarks::CheckBoxes,
            notes: vec![("Result:", 72.0, 1606.0)],
            headings: Headings::words("No", "White", "Black"),
            look: Look {
                shaded_numbers: 0.3,
                dark_headings: 0.3,
                headings: HeadingShade::Original,
                usual_digit_font: Some(("dejavu-serif-bold", 0.6)),
                ..Look::PLAIN
            },
            ..blank("fide-a4", A4)
        },
        // A club's A5 form with time columns: a two-level heading (White over Time | Move, Black
        // over Move | Time), Black's columns shaded, numbers "1." right-aligned, ":" in the
        // clock cells, 1-25 | 26-50, boxed header at the top right.
        "club-a5-times" => Form {
            blocks: blocks(
                1,
                &[67.0, 452.0],
                297.0,
                25,
                32.8,
                &[(NO, 43.0), (TW, 62.0), (W, 107.0), (B, 107.0), (TB, 66.0)],
                64.0,
            ),
            fields: vec![
                field(Event, "Event:", [278.0, 44.0, 662.0, 77.0], Boxed),
                field(Date, "Date:", [662.0, 44.0, 838.0, 77.0], Boxed),
                field(Other, "Section:", [278.0, 77.0, 662.0, 110.0], Boxed),
                field(Round, "Round:", [662.0, 77.0, 838.0, 110.0], Boxed),
                field(Other, "Time Control:", [278.0, 110.0, 662.0, 143.0], Boxed),
                field(Board, "Board:", [662.0, 110.0, 838.0, 143.0], Boxed),
                field(White, "White:", [278.0, 143.0, 662.0, 176.0], Boxed),
                field(Rating, "Rating:", [662.0, 143.0, 838.0, 176.0], Boxed),
                field(Black, "Black:", [278.0, 176.0, 662.0, 209.0], Boxed),
                field(Rating, "Rating:", [662.0, 176.0, 838.0, 209.0], Boxed),
            ],
            headings: Headings {
                number: "#",
                white: "Move",
                black: "Move",
                clock: "Time",
                players: Some(["White", "Black"]),
            },
            look: Look {
                usual_digit_font: Some(("dejavu-sans-condensed", 0.8)),
                shaded_black: 1.0,
                number_align: Some(Align::Right),
                number_suffix: ".",
                clock_colons: true,
                text_scale: 0.8,
                ..Look::PLAIN
            },
            ..blank("club-a5-times", A5)
        },
        // A Polish form: 3 x 20 (Nr | Białe | Czarne), one full grid, serif print, dotted header.
        "polish-3x20" => Form {
            title: "Zapis partii szachowej",
            blocks: blocks(1, &[40.0, 427.0, 814.0], 450.0, 20, 55.0, &[(NO, 60.0), (W, 163.0), (B, 164.0)], 50.0),
            fields: vec![
                field(Event, "Turniej:", [40.0, 110.0, 760.0, 160.0], Dotted),
                field(Round, "Runda:", [800.0, 110.0, 1200.0, 160.0], Dotted),
                field(Date, "Data:", [800.0, 175.0, 1200.0, 225.0], Dotted),
                field(White, "Białe:", [40.0, 240.0, 760.0, 290.0], Dotted),
                field(Rating, "ELO:", [800.0, 240.0, 1200.0, 290.0], Dotted),
                field(Black, "Czarne:", [40.0, 305.0, 760.0, 355.0], Dotted),
                field(Rating, "ELO:", [800.0, 305.0, 1200.0, 355.0], Dotted),
            ],
            headings: Headings::words("Nr", "Białe", "Czarne"),
            look: Look { usual_digit_font: Some(("dejavu-serif", 0.85)), thin_rules: Some((1.0, 1.8)), ..Look::PLAIN },
            ..blank("polish-3x20", A4)
        },
        // A club form with no number column: "12." printed at the left of White's cell, rows
        // ruled as underlines, one rule between the players, a grey heading band, 3 x 20.
        "number-in-cell" => Form {
            title: "CLUB DE AJEDREZ",
            blocks: blocks(1, &[20.0, 428.0, 836.0], 490.0, 20, 52.0, &[(W, 192.0), (B, 192.0)], 70.0),
            fields: vec![
                field(Event, "Event:", [40.0, 165.0, 900.0, 205.0], Underlined),
                field(Round, "Round:", [940.0, 165.0, 1200.0, 205.0], Underlined),
                field(White, "White:", [40.0, 215.0, 1200.0, 255.0], Underlined),
                field(Black, "Black:", [40.0, 265.0, 1200.0, 305.0], Underlined),
                field(Board, "Board:", [40.0, 315.0, 600.0, 355.0], Underlined),
                field(Date, "Date:", [640.0, 315.0, 1200.0, 355.0], Underlined),
            ],
            frames: vec![[20.0, 150.0, 1220.0, 375.0], [20.0, 1565.0, 880.0, 1645.0]],
            result_boxes: vec![
                ("WHITE WINS", [270.0, 1580.0, 460.0, 1630.0]),
                ("DRAW", [700.0, 1580.0, 850.0, 1630.0]),
                ("BLACK WINS", [490.0, 1580.0, 680.0, 1630.0]),
            ],
            result_marks: ResultMarks::Circled,
            notes: vec![("CIRCLE RESULT:", 35.0, 1612.0)],
            headings: Headings::words("", "WHITE", "BLACK"),
            number_in_cell: true,
            look: Look {
                usual_digit_font: Some(("dejavu-sans-bold", 1.0)),
                headings: HeadingShade::Band(0.74, 0.84),
                ruling: Ruling { rows: RowLine::Solid, grid: false, number_ruled: true },
                number_suffix: ".",
                ..Look::PLAIN
            },
            ..blank("number-in-cell", A4)
        },
        // A Spanish-speaking federation's form: 1-40 | 41-80, N° | BLANCAS | clock | NEGRAS |
        // clock (clock faces as headings), narrow rows, result and signature panel.
        "federation-es" => Form {
            title: "AJEDREZ",
            blocks: blocks(
                1,
                &[48.0, 630.0],
                320.0,
                40,
                31.5,
                &[(NO, 37.0), (W, 180.0), (TW, 85.0), (B, 180.0), (TB, 89.0)],
                30.0,
            ),
            fields: vec![
                field(Event, "Torneo:", [480.0, 95.0, 1190.0, 135.0], Boxed),
                field(Date, "Fecha:", [480.0, 145.0, 760.0, 185.0], Boxed),
                field(Other, "Lugar:", [770.0, 145.0, 1010.0, 185.0], Boxed),
                field(Board, "Tab.:", [1020.0, 145.0, 1190.0, 185.0], Boxed),
                field(White, "Blancas", [490.0, 200.0, 960.0, 232.0], Underlined),
                field(Rating, "Elo", [970.0, 200.0, 1180.0, 232.0], Underlined),
                field(Black, "Negras", [490.0, 235.0, 960.0, 267.0], Underlined),
                field(Rating, "Elo", [970.0, 235.0, 1180.0, 267.0], Underlined),
                field(Result, "Resultado", [60.0, 1615.0, 300.0, 1653.0], Underlined),
                field(Signature, "Firma:", [320.0, 1615.0, 630.0, 1653.0], Underlined),
                field(Signature, "Firma:", [320.0, 1665.0, 630.0, 1703.0], Underlined),
                field(Other, "Firma Juez:", [675.0, 1665.0, 1190.0, 1703.0], Underlined),
            ],
            frames: vec![[480.0, 195.0, 1190.0, 272.0], [48.0, 1595.0, 640.0, 1715.0], [660.0, 1595.0, 1201.0, 1715.0]],
            headings: Headings::words("N°", "BLANCAS", "NEGRAS"),
            look: Look { thin_rules: Some((1.2, 2.2)), ..Look::PLAIN },
            ..blank("federation-es", A4)
        },
        // A Galician club's form: 3 x 25, Brancas | Xog. | Negras with the numbers between the
        // moves on a grey column, a dark heading band with light words.
        "federation-pt" => Form {
            title: "Folla de partida",
            blocks: blocks(1, &[89.0, 470.0, 851.0], 414.0, 25, 40.0, &[(W, 125.0), (NO, 50.0), (B, 125.0)], 34.0),
            fields: vec![
                field(Event, "Torneo:", [360.0, 175.0, 700.0, 215.0], Underlined),
                field(Date, "Data:", [710.0, 175.0, 920.0, 215.0], Underlined),
                field(Round, "Rolda:", [930.0, 175.0, 1040.0, 215.0], Underlined),
                field(Board, "Taboleiro:", [1050.0, 175.0, 1175.0, 215.0], Underlined),
                field(White, "Xogador:", [200.0, 260.0, 600.0, 300.0], Dotted),
                field(Other, "Club:", [200.0, 305.0, 600.0, 345.0], Dotted),
                field(Black, "Xogador:", [760.0, 260.0, 1180.0, 300.0], Dotted),
                field(Other, "Club:", [760.0, 305.0, 1180.0, 345.0], Dotted),
            ],
            frames: vec![[350.0, 160.0, 1185.0, 228.0], [880.0, 55.0, 1185.0, 145.0]],
            result_boxes: vec![
                ("1-0", [895.0, 100.0, 975.0, 138.0]),
                ("½-½", [995.0, 100.0, 1085.0, 138.0]),
                ("0-1", [1100.0, 100.0, 1178.0, 138.0]),
            ],
            notes: vec![("Resultado:", 895.0, 85.0), ("Brancas", 89.0, 250.0), ("Negras", 650.0, 250.0)],
            headings: Headings::words("Xog.", "Brancas", "Negras"),
            look: Look {
                shaded_numbers: 1.0,
                number_shade: Some((0.45, 0.62)),
                headings: HeadingShade::Band(0.15, 0.35),
                number_align: Some(Align::Centre),
                ..Look::PLAIN
            },
            ..blank("federation-pt", A4)
        },
        // A German club's landscape form: 1-25 | 26-50 on the left half, 51-70 | 71-90 and a team
        // match's board-results table (rows numbered 1-8) on the right; no headings, Black's
        // column shaded, every fifth number bold, serif print, heavy rules.
        "club-de-landscape" => Form {
            blocks: [
                blocks(1, &[106.0, 456.0], 265.0, 25, 36.0, &[(NO, 60.0), (W, 144.0), (B, 143.0)], 0.0),
                blocks(51, &[952.0, 1300.0], 75.0, 20, 36.0, &[(NO, 60.0), (W, 144.0), (B, 144.0)], 0.0),
            ]
            .concat(),
            fields: vec![
                field(White, "Weiß:", [106.0, 60.0, 450.0, 95.0], Underlined),
                field(Black, "Schwarz:", [460.0, 60.0, 803.0, 95.0], Underlined),
                field(Event, "Veranstaltung:", [106.0, 105.0, 803.0, 140.0], Underlined),
                field(Round, "Runde:", [106.0, 150.0, 290.0, 185.0], Underlined),
                field(Board, "Brett Nr.:", [300.0, 150.0, 450.0, 185.0], Underlined),
                field(Other, "Partie Nr.:", [460.0, 150.0, 600.0, 185.0], Underlined),
                field(Date, "Datum:", [610.0, 150.0, 803.0, 185.0], Underlined),
                field(Other, "Züge / h + min", [106.0, 195.0, 480.0, 230.0], Underlined),
                field(Other, "Eröffnung:", [500.0, 195.0, 803.0, 230.0], Underlined),
            ],
            tables: vec![Table {
                x: 952.0,
                y: 825.0,
                row_h: 34.0,
                widths: vec![98.0, 240.0, 240.0, 120.0],
                headings: &["Brett", "Heimmannschaft", "Gastmannschaft", "Ergebnis"],
                labels: &["1", "2", "3", "4", "5", "6", "7", "8", "Summe"],
            }],
            look: Look {
                usual_digit_font: Some(("dejavu-serif", 0.9)),
                thin_rules: Some((1.6, 2.4)),
                shaded_black: 1.0,
                bold_every_fifth: true,
                number_align: Some(Align::Right),
                ..Look::PLAIN
            },
            ..blank("club-de-landscape", A4_LANDSCAPE)
        },
        // An olympiad's form of the 1970s: 1-20 | 21-40, rows as dotted lines, the number just
        // left of the one rule between the players, Weiß: / Schwarz: headings between heavy rules;
        // moves 41-80 on "olympiad-dotted-p2".
        "olympiad-dotted" => Form {
            title: "Schach-Olympiade",
            blocks: blocks(1, &[40.0, 640.0], 416.0, 20, 56.0, &[(W, 260.0), (NO, 40.0), (B, 260.0)], 56.0),
            fields: vec![
                field(Other, "Gruppe", [240.0, 120.0, 380.0, 175.0], Boxed),
                field(Other, "Partie-Nr.", [750.0, 120.0, 890.0, 175.0], Boxed),
                field(Round, "Runde", [40.0, 190.0, 380.0, 225.0], Underlined),
                field(Board, "Brett", [600.0, 190.0, 890.0, 225.0], Underlined),
                field(White, "Weiß:", [40.0, 240.0, 560.0, 280.0], Dotted),
                field(Black, "Schwarz:", [620.0, 240.0, 1200.0, 280.0], Dotted),
                field(Other, "Nation:", [40.0, 290.0, 560.0, 330.0], Dotted),
                field(Other, "Nation:", [620.0, 290.0, 1200.0, 330.0], Dotted),
            ],
            lines: vec![[40.0, 360.0, 1200.0, 360.0], [620.0, 360.0, 620.0, 1536.0]],
            headings: Headings::words("", "Weiß:", "Schwarz:"),
            look: Look {
                ruling: Ruling { rows: RowLine::Dotted, grid: false, number_ruled: true },
                number_align: Some(Align::Right),
                ..Look::PLAIN
            },
            continuation: Some("olympiad-dotted-p2"),
            ..blank("olympiad-dotted", A4)
        },
        "olympiad-dotted-p2" => Form {
            blocks: blocks(41, &[40.0, 640.0], 156.0, 20, 56.0, &[(W, 260.0), (NO, 40.0), (B, 260.0)], 56.0),
            fields: vec![
                field(Other, "Zeit von Weiß:", [40.0, 1320.0, 560.0, 1355.0], Dotted),
                field(Other, "Zeit von Schwarz:", [640.0, 1320.0, 1200.0, 1355.0], Dotted),
                field(Result, "Ergebnis:", [40.0, 1370.0, 560.0, 1405.0], Dotted),
            ],
            lines: [[40.0, 100.0, 1200.0, 100.0], [620.0, 100.0, 620.0, 1276.0]]
                .into_iter()
                .chain((0..5).map(|i| [160.0, 1470.0 + 45.0 * i as f32, 1200.0, 1470.0 + 45.0 * i as f32]))
                .collect(),
            notes: vec![("Notizen:", 40.0, 1470.0)],
            headings: Headings::words("", "Weiß:", "Schwarz:"),
            look: Look {
                ruling: Ruling { rows: RowLine::Dotted, grid: false, number_ruled: true },
                number_align: Some(Align::Right),
                ..Look::PLAIN
            },
            ..blank("olympiad-dotted-p2", A4)
        },
        // An Italian score book's A5 page: one column 1-30, dashed rows, coloured print; moves
        // 31-60 on the facing page ("scorebook-p2").
        "scorebook" => Form {
            title: "Formulario",
            blocks: blocks(1, &[95.0], 336.0, 30, 29.0, &[(NO, 70.0), (W, 310.0), (B, 310.0)], 36.0),
            fields: vec![
                field(White, "Bianco", [60.0, 110.0, 560.0, 145.0], Underlined),
                field(Rating, "Elo", [580.0, 110.0, 820.0, 145.0], Underlined),
                field(Black, "Nero", [60.0, 155.0, 560.0, 190.0], Underlined),
                field(Rating, "Elo", [580.0, 155.0, 820.0, 190.0], Underlined),
                field(Event, "Torneo", [60.0, 200.0, 560.0, 235.0], Underlined),
                field(Round, "Turno", [580.0, 200.0, 820.0, 235.0], Underlined),
                field(Date, "Data", [60.0, 245.0, 400.0, 280.0], Underlined),
            ],
            headings: Headings::words("N.", "Bianco", "Nero"),
            look: SCOREBOOK_LOOK,
            continuation: Some("scorebook-p2"),
            ..blank("scorebook", A5)
        },
        "scorebook-p2" => Form {
            blocks: blocks(31, &[95.0], 116.0, 30, 29.0, &[(NO, 70.0), (W, 310.0), (B, 310.0)], 36.0),
            fields: vec![
                field(Result, "Risultato", [95.0, 1020.0, 500.0, 1060.0], Underlined),
                field(Signature, "Firma Bianco", [95.0, 1090.0, 430.0, 1130.0], Underlined),
                field(Signature, "Firma Nero", [450.0, 1090.0, 785.0, 1130.0], Underlined),
            ],
            headings: Headings::words("N.", "Bianco", "Nero"),
            look: SCOREBOOK_LOOK,
            ..blank("scorebook-p2", A5)
        },
        // A form printed by pairing software (Dutch): the players, round and board printed, not
        // written; 1-40 | 41-80, thin mid-grey rules, a light heading band, every other row shaded.
        "software-print" => Form {
            title: "Partijformulier",
            blocks: blocks(1, &[60.0, 630.0], 298.0, 40, 32.0, &[(NO, 60.0), (W, 245.0), (B, 245.0)], 38.0),
            fields: vec![
                field(Event, "Toernooi:", [60.0, 110.0, 800.0, 145.0], Bare),
                field(Round, "Ronde:", [820.0, 110.0, 1000.0, 145.0], Bare),
                field(Board, "Bord:", [1010.0, 110.0, 1180.0, 145.0], Bare),
                field(White, "Wit:", [60.0, 155.0, 600.0, 190.0], Bare),
                field(Black, "Zwart:", [620.0, 155.0, 1180.0, 190.0], Bare),
                field(Date, "Datum:", [60.0, 200.0, 400.0, 235.0], Bare),
                field(Signature, "Handtekening wit", [60.0, 1670.0, 560.0, 1710.0], Underlined),
                field(Signature, "Handtekening zwart", [680.0, 1670.0, 1180.0, 1710.0], Underlined),
            ],
            result_boxes: vec![
                ("1-0", [300.0, 1600.0, 400.0, 1640.0]),
                ("½-½", [480.0, 1600.0, 600.0, 1640.0]),
                ("0-1", [680.0, 1600.0, 780.0, 1640.0]),
            ],
            notes: vec![("Uitslag:", 60.0, 1630.0)],
            headings: Headings::words("Zet", "Wit", "Zwart"),
            printed_header: true,
            look: Look {
                usual_digit_font: Some(("dejavu-sans-condensed", 0.9)),
                headings: HeadingShade::Band(0.78, 0.88),
                thin_rules: Some((0.8, 1.4)),
                faded_rules: Some((0.3, 0.55)),
                alternate_rows: 1.0,
                ..Look::PLAIN
            },
            ..blank("software-print", A4)
        },
        // Held out. A French form with the number between the moves and clock columns at both
        // sides (T | Blancs | N° | Noirs | T), 1-30 | 31-60 split by a heavy rule, a result row
        // of check boxes and signature boxes under the table.
        "number-between" => Form {
            title: "TOURNOI D'ÉCHECS",
            blocks: blocks(
                1,
                &[60.0, 620.0],
                328.0,
                30,
                40.0,
                &[(TW, 82.0), (W, 163.0), (NO, 70.0), (B, 163.0), (TB, 82.0)],
                38.0,
            ),
            fields: vec![
                field(Event, "Tournoi :", [60.0, 130.0, 820.0, 170.0], Dotted),
                field(Round, "Ronde :", [860.0, 130.0, 1180.0, 170.0], Dotted),
                field(Date, "Date :", [60.0, 180.0, 820.0, 220.0], Dotted),
                field(Board, "Table :", [860.0, 180.0, 1180.0, 220.0], Dotted),
                field(White, "Blancs :", [60.0, 230.0, 600.0, 270.0], Dotted),
                field(Black, "Noirs :", [630.0, 230.0, 1180.0, 270.0], Dotted),
                field(Signature, "Signature :", [60.0, 1580.0, 620.0, 1660.0], Boxed),
                field(Signature, "Signature :", [620.0, 1580.0, 1180.0, 1660.0], Boxed),
            ],
            frames: vec![[60.0, 1540.0, 1180.0, 1580.0]],
            lines: vec![[620.0, 290.0, 620.0, 1528.0]],
            result_boxes: vec![
                ("Gain des Blancs", [290.0, 1546.0, 520.0, 1574.0]),
                ("Nulle", [600.0, 1546.0, 720.0, 1574.0]),
                ("Gain des Noirs", [820.0, 1546.0, 1050.0, 1574.0]),
            ],
            result_marks: ResultMarks::CheckBoxes,
            notes: vec![("Résultat :", 72.0, 1569.0)],
            headings: Headings { number: "", white: "Blancs", black: "Noirs", clock: "T", players: None },
            look: Look { usual_digit_font: Some(("dejavu-serif-bold", 0.8)), ..Look::PLAIN },
            ..blank("number-between", A4)
        },
        // Held out. The copy of a carbonless pair from a US score book: tinted paper, the writing
        // come through soft and blue-grey; 1-30 | 31-60, a shaded heading row inside the grid,
        // a result row with check boxes.
        "carbon-pair" => Form {
            title: "CHESS SCORE SHEET",
            blocks: blocks(1, &[80.0, 645.0], 370.0, 30, 40.0, &[(NO, 60.0), (W, 245.0), (B, 245.0)], 40.0),
            fields: vec![
                field(Event, "Event", [80.0, 110.0, 800.0, 150.0], Underlined),
                field(Date, "Date", [840.0, 110.0, 1195.0, 150.0], Underlined),
                field(Round, "Round", [80.0, 160.0, 400.0, 200.0], Underlined),
                field(Board, "Board", [440.0, 160.0, 800.0, 200.0], Underlined),
                field(White, "White", [80.0, 210.0, 800.0, 250.0], Underlined),
                field(Rating, "Rating", [840.0, 210.0, 1195.0, 250.0], Underlined),
                field(Black, "Black", [80.0, 260.0, 800.0, 300.0], Underlined),
                field(Rating, "Rating", [840.0, 260.0, 1195.0, 300.0], Underlined),
            ],
            frames: vec![[80.0, 1570.0, 1195.0, 1612.0]],
            result_boxes: vec![
                ("WHITE WON", [330.0, 1577.0, 520.0, 1605.0]),
                ("DRAW", [620.0, 1577.0, 760.0, 1605.0]),
                ("BLACK WON", [860.0, 1577.0, 1050.0, 1605.0]),
            ],
            result_marks: ResultMarks::CheckBoxes,
            notes: vec![("RESULT:", 92.0, 1599.0), ("COPY", 1110.0, 60.0)],
            headings: Headings::words("", "WHITE", "BLACK"),
            look: Look {
                headings: HeadingShade::Band(0.7, 0.85),
                thin_rules: Some((1.0, 1.8)),
                paper_tints: &[[255, 246, 190], [255, 222, 228], [222, 240, 255], [250, 250, 246]],
                inks: Inks::Carbon,
                ..Look::PLAIN
            },
            ..blank("carbon-pair", LETTER)
        },
        // Held out. A Russian form: Ход | Белые | Черные, 1-30 | 31-60, a grey heading band,
        // every fifth number bold, result check boxes and signature lines.
        "federation-ru" => Form {
            title: "БЛАНК ЗАПИСИ ПАРТИИ",
            blocks: blocks(1, &[60.0, 630.0], 372.0, 30, 40.0, &[(NO, 60.0), (W, 245.0), (B, 245.0)], 42.0),
            fields: vec![
                field(Event, "Турнир", [60.0, 110.0, 820.0, 150.0], Underlined),
                field(Round, "Тур", [860.0, 110.0, 1180.0, 150.0], Underlined),
                field(Date, "Дата", [60.0, 160.0, 500.0, 200.0], Underlined),
                field(Board, "Доска", [540.0, 160.0, 820.0, 200.0], Underlined),
                field(White, "Белые", [60.0, 210.0, 820.0, 250.0], Underlined),
                field(Rating, "Рейтинг", [860.0, 210.0, 1180.0, 250.0], Underlined),
                field(Black, "Черные", [60.0, 260.0, 820.0, 300.0], Underlined),
                field(Rating, "Рейтинг", [860.0, 260.0, 1180.0, 300.0], Underlined),
                field(Signature, "Подпись белых", [60.0, 1660.0, 560.0, 1700.0], Underlined),
                field(Signature, "Подпись черных", [680.0, 1660.0, 1180.0, 1700.0], Underlined),
            ],
            result_boxes: vec![
                ("1-0", [300.0, 1596.0, 400.0, 1626.0]),
                ("½-½", [480.0, 1596.0, 600.0, 1626.0]),
                ("0-1", [680.0, 1596.0, 780.0, 1626.0]),
            ],
            result_marks: ResultMarks::CheckBoxes,
            notes: vec![("Результат:", 60.0, 1618.0)],
            headings: Headings::words("Ход", "Белые", "Черные"),
            look: Look {
                usual_digit_font: Some(("dejavu-sans-bold", 0.5)),
                headings: HeadingShade::Band(0.72, 0.85),
                thin_rules: Some((1.0, 2.0)),
                bold_every_fifth: true,
                ..Look::PLAIN
            },
            ..blank("federation-ru", A4)
        },
        // Held out. A German children's club form in colour: coloured paper and print, tinted
        // faint rulings, no headings, Black's column shaded, 1-25 | 26-50.
        "club-de-colour" => Form {
            title: "Partieformular",
            blocks: blocks(1, &[160.0, 645.0], 560.0, 25, 42.0, &[(NO, 75.0), (W, 205.0), (B, 205.0)], 0.0),
            fields: vec![
                field(White, "Spieler Weiß:", [175.0, 330.0, 640.0, 370.0], Dotted),
                field(Black, "Spieler Schwarz:", [175.0, 385.0, 640.0, 425.0], Dotted),
                field(Date, "Datum:", [730.0, 330.0, 1080.0, 370.0], Dotted),
                field(Result, "Ergebnis:", [730.0, 385.0, 1080.0, 425.0], Dotted),
            ],
            frames: vec![[160.0, 310.0, 1130.0, 445.0]],
            notes: vec![("Viel Erfolg!", 160.0, 1680.0)],
            look: Look {
                usual_digit_font: Some(("dejavu-sans-condensed", 0.8)),
                print_colours: &[[40, 40, 110], [70, 40, 120], [20, 80, 100], [30, 90, 50]],
                faded_rules: Some((0.55, 0.75)),
                shaded_black: 1.0,
                number_align: Some(Align::Right),
                paper_tints: &[[236, 233, 252], [228, 240, 252], [234, 248, 232], [255, 255, 255]],
                ..Look::PLAIN
            },
            ..blank("club-de-colour", A4)
        },
        _ => return None,
    };
    Some(f)
}

/// The score book's print: dashed rows in one coloured ink.
const SCOREBOOK_LOOK: Look = Look {
    ruling: Ruling { rows: RowLine::Dashed, grid: true, number_ruled: true },
    thin_rules: Some((1.0, 1.6)),
    print_colours: &[[20, 80, 50], [90, 50, 30], [30, 40, 110], [110, 30, 40]],
    headings: HeadingShade::Band(0.8, 0.9),
    ..Look::PLAIN
};

/// Every form, continuation pages included.
pub fn all() -> Vec<Form> {
    library().chain(CONTINUATIONS).filter_map(form).collect()
}
