//! One synthetic scoresheet: a game, a writer, a printed form, the writing, the damage, and the
//! ground truth of every printed cell.

use std::collections::BTreeMap;

use rand::Rng;
use rand::seq::SliceRandom;
use serde::Serialize;
use shakmaty::{Chess, Move, Position, Role};

use super::SynthError;
use super::damage::{self, Damage, Homography};
use super::fonts::{self, FontSet};
use super::forms::{self, Column, FieldKind, FieldLine, Form, FormStyle, ResultMarks, Side, Slot};
use super::games::{self, Ending, Game};
use super::handwriting::{self, Hand, Inks, Stroke};
use super::print::{print_form, print_header};
use super::raster::{Canvas, thick_line};
use crate::notation::{self, Lang, Style};

/// What happened in a cell besides plain writing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Note {
    /// The writer wrote a move other than the one played (`text` != spelling of `san`).
    Mistake,
    /// A wrong word was struck out and the correct text written beside it (`struck` holds it).
    CrossedOut,
    /// The writing crosses the cell's border.
    OverBorder,
    /// The writer left the cell blank although a move was played.
    Skipped,
    /// The cell holds the game's result.
    Result,
}

/// Ground truth of one printed move cell.
#[derive(Clone, Debug, Serialize)]
pub struct CellTruth {
    #[serde(rename = "move")]
    /// The move number.
    pub move_no: u32,
    /// Whose move.
    pub side: Side,
    /// [x0, y0, x1, y1] in the final image's pixels: the box around the warped cell.
    #[serde(rename = "box")]
    pub bbox: [i32; 4],
    /// The cell's corners (top-left, top-right, bottom-right, bottom-left) in the final image: the
    /// exact warped cell, of which `box` is the axis-aligned bounding box (clamped to the image).
    pub quad: [[f32; 2]; 4],
    /// Exactly what was written and left standing ("" for a blank cell; the correction, not the
    /// struck word, for a crossed-out cell).
    pub text: String,
    /// The move actually played, English SAN with check marks; null past the game's end.
    pub san: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// What is unusual about the cell's writing, if anything.
    pub note: Option<Note>,
    /// The struck-out word of a crossed-out cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub struck: Option<String>,
}

/// Ground truth of one image.
#[derive(Clone, Debug, Serialize)]
pub struct Truth {
    /// The image's file name.
    pub image: String,
    /// The form's name.
    pub form: String,
    /// The language's code.
    pub lang: String,
    /// The damage kind.
    pub damage: String,
    /// The game played, as PGN.
    pub pgn: String,
    /// The result written ("1-0", "0-1", "1/2-1/2").
    pub result: String,
    /// Page corners (top-left, top-right, bottom-right, bottom-left) in image pixels.
    pub page_corners: [[f32; 2]; 4],
    /// Image width in pixels.
    pub width: usize,
    /// Image height in pixels.
    pub height: usize,
    /// 1-based page of a multi-page game.
    pub page: u32,
    /// The page count.
    pub pages: u32,
    /// The handwriting font.
    pub font: String,
    /// The header fields written, by name.
    pub header: BTreeMap<String, String>,
    /// Every printed move cell.
    pub cells: Vec<CellTruth>,
    /// The layout and printing drawn for this sheet, where its form is a random layout
    /// (`--form random`): which choices a page stage reads wrong.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layout: Option<DrawnLayout>,
}

/// A random layout as printed on one sheet.
#[derive(Clone, Debug, Serialize)]
pub struct DrawnLayout {
    /// The form, as varied for the sheet.
    pub form: Form,
    /// How it is printed.
    pub style: FormStyle,
}

/// One rendered image with its truth.
pub struct Page {
    /// The image's name (its file name without extension).
    pub name: String,
    /// The image.
    pub image: Canvas,
    /// The JPEG quality to save it with (None: PNG).
    pub jpeg_quality: Option<u8>,
    /// Its ground truth.
    pub truth: Truth,
}

/// What to render for one sheet.
#[derive(Clone, Debug)]
pub struct SheetSpec {
    /// The sheet's name.
    pub name: String,
    /// The form's name.
    pub form: &'static str,
    /// The layout drawn for this sheet where `form` is [`super::random_layout::RANDOM_LAYOUT`]
    /// (the sheet's own form; it has no continuation page).
    pub layout: Option<Form>,
    /// The language the moves are written in.
    pub lang: &'static Lang,
    /// The damage kind.
    pub damage: Damage,
    /// Which handwriting fonts write.
    pub fonts: FontSet,
    /// Keep the game to the first page of the form (no continuation page).
    pub single_page: bool,
    /// The writer puts each move across the row's lower ruling (baseline 1.2-1.35 row heights
    /// below the row's top instead of 0.7-0.85), as some do; the sheet is otherwise the one
    /// rendered without it.
    pub low_writing: bool,
    /// The form printed at this share of its contrast against the paper: the print (rulings,
    /// numbers, headings, shading) faded towards the paper before anything is written; the
    /// sheet is otherwise the one rendered without it.
    pub print_contrast: Option<f32>,
}

/// A move as the writer put it down.
#[derive(Clone, Debug)]
pub(crate) struct Written {
    pub text: String,
    pub san: String,
    pub note: Option<Note>,
    pub struck: Option<String>,
}

const LATIN_SURNAMES: [&str; 16] = [
    "Smith", "Jansen", "Kowalski", "Novak", "Schmidt", "Rossi", "Garcia", "Martin", "Horvat", "Nagy", "Larsen",
    "Silva", "Popescu", "Tamm", "Virtanen", "Dubois",
];
const CYRILLIC_SURNAMES: [&str; 8] =
    ["Иванов", "Петров", "Смирнова", "Коваленко", "Попов", "Соколов", "Шевченко", "Волков"];
const EVENTS: [&str; 6] = ["Club Ch.", "Open 2024", "League", "Rapid", "Spring Open", "Team match"];

/// Mutates a written move into a plausible slip of the pen: another rank, file or piece.
pub(crate) fn mutate<R: Rng>(text: &str, lang: &Lang, rng: &mut R) -> String {
    let chars: Vec<char> = text.chars().collect();
    for _ in 0..8 {
        let mut c = chars.clone();
        let i = rng.gen_range(0..c.len().max(1));
        let Some(&ch) = c.get(i) else { break };
        match ch {
            '1'..='8' => {
                let d = ch as i32 - '0' as i32 + if rng.gen_bool(0.5) { 1 } else { -1 };
                c[i] = char::from_digit(d.clamp(1, 8) as u32, 10).unwrap_or(ch);
            }
            'a'..='h' => {
                let d = ch as u8 as i32 + if rng.gen_bool(0.5) { 1 } else { -1 };
                c[i] = (d.clamp(b'a' as i32, b'h' as i32) as u8) as char;
            }
            _ if ch.is_uppercase() => {
                let letters: Vec<&str> = lang.pieces.iter().copied().filter(|l| l.chars().count() == 1).collect();
                if let Some(l) = letters.choose(rng) {
                    c[i] = l.chars().next().unwrap_or(ch);
                }
            }
            _ => continue,
        }
        let s: String = c.into_iter().collect();
        if s != text {
            return s;
        }
    }
    // Nothing to change: drop or add a capture mark.
    if text.contains('x') { text.replacen('x', "", 1) } else { format!("{text}+") }
}

/// The writer's record of the game: one entry a ply, with slips and corrections.
pub(crate) fn write_game<R: Rng>(game: &Game, lang: &Lang, style: &Style, rng: &mut R) -> Vec<Written> {
    let sloppy = rng.gen_range(0.3..1.6);
    game.plies
        .iter()
        .map(|(pos, mv)| {
            let text = notation::spell(pos, mv, lang, style);
            let san = notation::english_san(pos, mv);
            let u: f64 = rng.r#gen::<f64>() / sloppy;
            let (text, note, struck) = if u < 0.02 {
                (mutate(&text, lang, rng), Some(Note::Mistake), None)
            } else if u < 0.04 {
                let wrong = wrong_word(pos, mv, lang, style, &text, rng);
                (text, Some(Note::CrossedOut), Some(wrong))
            } else if u < 0.07 {
                (text, Some(Note::OverBorder), None)
            } else if u < 0.077 {
                (String::new(), Some(Note::Skipped), None)
            } else {
                (text, None, None)
            };
            Written { text, san, note, struck }
        })
        .collect()
}

fn wrong_word<R: Rng>(pos: &Chess, mv: &Move, lang: &Lang, style: &Style, text: &str, rng: &mut R) -> String {
    // Either another legal move (the one the writer first thought was played) or a slip.
    let legal = pos.legal_moves();
    if rng.gen_bool(0.5) && legal.len() > 1 {
        let other: Vec<&Move> = legal.iter().filter(|m| *m != mv && m.role() != Role::King).collect();
        if let Some(o) = other.choose(rng) {
            return notation::spell(pos, o, lang, style);
        }
    }
    mutate(text, lang, rng)
}

fn result_text<R: Rng>(result: &str, rng: &mut R) -> String {
    match result {
        "1/2-1/2" => ["1/2-1/2", "1/2", "½-½", "remis"][rng.gen_range(0..4)].to_string(),
        r => r.to_string(),
    }
}

/// The forms a game runs over: the first and, while moves remain, its continuations.
fn pages_for(spec: &SheetSpec, plies: usize) -> Vec<Form> {
    if let Some(layout) = &spec.layout {
        return vec![layout.clone()];
    }
    let mut out = Vec::new();
    let mut name = Some(spec.form.to_string());
    while let Some(n) = name {
        let Some(f) = forms::form(&n) else { break };
        let more = (f.last_move() as usize) * 2 < plies + 1;
        name = if more { f.continuation.map(str::to_string) } else { None };
        out.push(f);
    }
    out
}

/// How many full moves a game on `spec`'s form (with its continuations) may have, leaving a cell
/// for the result.
fn capacity(spec: &SheetSpec) -> u32 {
    // (a game longer than any form holds runs over every continuation page)
    pages_for(spec, usize::MAX / 2).last().map_or(0, Form::last_move)
}

/// Renders one sheet (one image, or more for a game running onto a continuation page).
pub fn render<R: Rng>(spec: &SheetSpec, rng: &mut R) -> Result<Vec<Page>, SynthError> {
    let game = random_game_for(spec, rng);
    render_game(spec, &game, rng)
}

/// The two players' copies of one game: the first is the sheet [`render`] makes with `rng`
/// (its pages named as `spec` says), the second the same game written by another writer, on the
/// same form in the same language, with its own style, hand, mistakes and damage drawn from
/// `other` (pages named `{name}_c2`, `{name}_c2_p2`).
pub fn render_copies<R: Rng>(spec: &SheetSpec, rng: &mut R, other: &mut R) -> Result<Vec<Page>, SynthError> {
    let game = random_game_for(spec, rng);
    let mut pages = render_game(spec, &game, rng)?;
    let second = SheetSpec { name: format!("{}_c2", spec.name), ..spec.clone() };
    pages.extend(render_game(&second, &game, other)?);
    Ok(pages)
}

/// A game that fits `spec`'s form (its first page alone, with `single_page`).
fn random_game_for<R: Rng>(spec: &SheetSpec, rng: &mut R) -> games::Game {
    let pages_allowed =
        if spec.single_page { pages_for(spec, 0).first().map_or(0, Form::last_move) } else { capacity(spec) };
    let max_moves = pages_allowed.saturating_sub(1).min(80);
    games::random_game(rng, 20.min(max_moves), max_moves)
}

/// One writer's record of a game, before any page: the moves as written (slips and corrections
/// included), the header fields, the result as written, the PGN and a font that can write it all.
pub(crate) struct Record {
    pub written: Vec<Written>,
    pub header: BTreeMap<String, String>,
    pub result_written: String,
    pub pgn: String,
    pub font: &'static fonts::LoadedFont,
}

/// Draws a writer of `game` in `lang`: style, slips, player names and header, the result's
/// spelling, and a font of `set` with every character they write.
pub(crate) fn record<R: Rng>(
    lang: &'static Lang,
    set: FontSet,
    game: &Game,
    rng: &mut R,
) -> Result<Record, SynthError> {
    let style = Style::random(rng);
    let written = write_game(game, lang, &style, rng);
    let cyr = lang.is_cyrillic();
    let surnames: &[&str] = if cyr { &CYRILLIC_SURNAMES } else { &LATIN_SURNAMES };
    let initial = |rng: &mut R| -> char {
        if cyr { ['А', 'В', 'Н', 'С', 'П'][rng.gen_range(0..5)] } else { (b'A' + rng.gen_range(0..26u8)) as char }
    };
    let white = format!("{} {}.", surnames.choose(rng).unwrap_or(&"X"), initial(rng));
    let black = format!("{} {}.", surnames.choose(rng).unwrap_or(&"Y"), initial(rng));
    let mut header = BTreeMap::new();
    header.insert("white".to_string(), white.clone());
    header.insert("black".to_string(), black.clone());
    header.insert("event".to_string(), EVENTS.choose(rng).unwrap_or(&"").to_string());
    header.insert(
        "date".to_string(),
        format!("{:02}.{:02}.20{:02}", rng.gen_range(1..29), rng.gen_range(1..13), rng.gen_range(10..26)),
    );
    header.insert("round".to_string(), rng.gen_range(1..10).to_string());
    header.insert("board".to_string(), rng.gen_range(1..40).to_string());
    let result_written = result_text(game.result, rng);

    // A font that can draw everything this writer will write.
    let mut charset: String = written.iter().map(|w| w.text.as_str()).collect();
    for w in &written {
        if let Some(s) = &w.struck {
            charset.push_str(s);
        }
    }
    charset.extend(header.values().flat_map(|v| v.chars()));
    charset.push_str(&result_written);
    charset.retain(|c| c != ' ');
    let mut candidates = fonts::hands(set, &charset);
    if candidates.is_empty() {
        return Err(SynthError::Invalid(format!(
            "no handwriting font in the chosen set can write language {}",
            lang.code
        )));
    }
    candidates.sort_by_key(|f| f.name);
    let font = candidates[rng.gen_range(0..candidates.len())];
    let pgn = games::pgn(game, &white, &black);
    Ok(Record { written, header, result_written, pgn, font })
}

/// The writer's hand for rows `row_h` high, with a pen of `inks`.
pub(crate) fn hand_for<R: Rng>(record: &Record, row_h: f32, inks: Inks, low_writing: bool, rng: &mut R) -> Hand {
    let mut hand = Hand::random(rng, record.font, row_h);
    inks.apply(&mut hand, rng);
    if low_writing {
        hand.baseline += 0.5;
    }
    hand
}

/// Writes the record's moves into `slots` (and, with `result_cell` on the game's last page, the
/// result into the cell after the last move); returns each slot's cell and its truth (boxes
/// still in page coordinates) and whether the result went into a cell.
pub(crate) fn write_moves<R: Rng>(
    canvas: &mut Canvas,
    hand: &Hand,
    slots: &[Slot],
    record: &Record,
    result_cell: bool,
    rng: &mut R,
) -> (Vec<([f32; 4], CellTruth)>, bool) {
    let written = &record.written;
    let mut cells = Vec::new();
    let mut result_in_cell = false;
    for slot in slots {
        let ply = ((slot.move_no - 1) * 2 + (slot.side == Side::Black) as u32) as usize;
        let mut cell = CellTruth {
            move_no: slot.move_no,
            side: slot.side,
            bbox: [0; 4],
            quad: [[0.0; 2]; 4],
            text: String::new(),
            san: None,
            note: None,
            struck: None,
        };
        if let Some(w) = written.get(ply) {
            cell.san = Some(w.san.clone());
            cell.note = w.note;
            cell.struck = w.struck.clone();
            cell.text = w.text.clone();
            write_cell(canvas, hand, slot, w, rng);
        } else if ply == written.len() && result_cell {
            let w = Written {
                text: record.result_written.clone(),
                san: String::new(),
                note: Some(Note::Result),
                struck: None,
            };
            write_cell(canvas, hand, slot, &w, rng);
            cell.text = record.result_written.clone();
            cell.note = Some(Note::Result);
            result_in_cell = true;
        }
        cells.push((slot.truth, cell));
    }
    (cells, result_in_cell)
}

/// What a page's truth says besides its cells and geometry.
pub(crate) struct PageInfo<'a> {
    pub name: String,
    pub form: &'a str,
    pub lang: &'a Lang,
    pub damage: Damage,
    pub result: &'a str,
    pub page: u32,
    pub pages: u32,
    pub header: BTreeMap<String, String>,
    /// The page's width and height on the canvas (its corners in the truth).
    pub size: [f32; 2],
    /// The random layout drawn, if any.
    pub layout: Option<DrawnLayout>,
}

/// Damages the written page (`canvas`) and maps every cell into the
/// final image: the finished image with its truth.
pub(crate) fn finish_page<R: Rng>(
    canvas: Canvas,
    cells: Vec<([f32; 4], CellTruth)>,
    record: &Record,
    info: PageInfo<'_>,
    rng: &mut R,
) -> Page {
    let [page_w, page_h] = info.size;
    let damaged = damage::apply(canvas, info.damage, rng);
    let (w, h) = (damaged.image.w, damaged.image.h);
    let ext = if damaged.jpeg_quality.is_some() { "jpg" } else { "png" };
    let cells = cells.into_iter().map(|(r, mut c)| {
        c.bbox = warped_box(&damaged.map, r, w, h);
        c.quad = [(r[0], r[1]), (r[2], r[1]), (r[2], r[3]), (r[0], r[3])].map(|(x, y)| {
            let (u, v) = damaged.map.apply(x as f64, y as f64);
            [((u * 10.0).round() / 10.0) as f32, ((v * 10.0).round() / 10.0) as f32]
        });
        c
    });
    let corners = [(0.0, 0.0), (page_w, 0.0), (page_w, page_h), (0.0, page_h)].map(|(x, y)| {
        let (u, v) = damaged.map.apply(x as f64, y as f64);
        [((u * 10.0).round() / 10.0) as f32, ((v * 10.0).round() / 10.0) as f32]
    });
    let truth = Truth {
        image: format!("{}.{ext}", info.name),
        form: info.form.to_string(),
        lang: info.lang.code.to_string(),
        damage: info.damage.name().to_string(),
        pgn: record.pgn.clone(),
        result: info.result.to_string(),
        page_corners: corners,
        width: w,
        height: h,
        page: info.page,
        pages: info.pages,
        font: record.font.name.to_string(),
        header: info.header,
        cells: cells.collect(),
        layout: info.layout,
    };
    Page { name: info.name, image: damaged.image, jpeg_quality: damaged.jpeg_quality, truth }
}

/// Fades everything on `canvas` towards `paper`: each channel's difference from the paper times
/// `share` (a printed form printed at `share` of its contrast).
fn fade_towards(canvas: &mut Canvas, paper: [u8; 3], share: f32) {
    for pixel in canvas.px.chunks_exact_mut(3) {
        for (v, p) in pixel.iter_mut().zip(paper) {
            *v = (f32::from(p) + (f32::from(*v) - f32::from(p)) * share).round().clamp(0.0, 255.0) as u8;
        }
    }
}

/// Renders `game` on `spec`'s form as one writer wrote it (style, mistakes, hand, damage from
/// `rng`): per page, the form is printed, then the header, moves, clock times, result and
/// signature are written, then the page is damaged.
fn render_game<R: Rng>(spec: &SheetSpec, game: &games::Game, rng: &mut R) -> Result<Vec<Page>, SynthError> {
    let record = record(spec.lang, spec.fonts, game, rng)?;
    let pages = pages_for(spec, game.plies.len());
    let row_h = pages[0].blocks[0].row_h;
    let hand = hand_for(&record, row_h, pages[0].look.inks, spec.low_writing, rng);
    let n_pages = pages.len() as u32;

    let mut out = Vec::new();
    for (pi, base) in pages.iter().enumerate() {
        let form = base.vary(rng);
        let fstyle = FormStyle::random(&form, rng);
        let mut paper = {
            let g = rng.gen_range(244..=255u8);
            [g, g, g.saturating_sub(rng.gen_range(0..6))]
        };
        if let Some(tint) = fstyle.paper_tint {
            paper = [0, 1, 2].map(|c| (paper[c] as u32 * tint[c] as u32 / 255) as u8);
        }
        let mut canvas = Canvas::new(form.width as usize, form.height as usize, paper);
        print_form(&mut canvas, &form, &fstyle);
        if pi == 0 && form.printed_header {
            print_header(&mut canvas, &form, &fstyle, &record.header);
        }
        if let Some(share) = spec.print_contrast {
            fade_towards(&mut canvas, paper, share);
        }
        let last_page = pi + 1 == pages.len();
        if pi == 0 {
            write_header(&mut canvas, &form, &fstyle, &hand, &record.header, rng);
        }
        let want_result_cell = rng.gen_bool(0.6) || (form.result_boxes.is_empty() && !has_result_field(&form));
        let (cells, result_in_cell) =
            write_moves(&mut canvas, &hand, &form.slots(), &record, last_page && want_result_cell, rng);
        if form.has_clocks() && rng.gen_bool(0.6) {
            write_clock_times(&mut canvas, &form, &hand, record.written.len(), rng);
        }
        if last_page {
            write_result(&mut canvas, &form, &hand, &record.result_written, game.result, result_in_cell, rng);
        }
        if pi == 0 || rng.gen_bool(0.3) {
            sign(&mut canvas, &form, &hand, rng);
        }
        let info = PageInfo {
            name: if pi == 0 { spec.name.clone() } else { format!("{}_p{}", spec.name, pi + 1) },
            form: form.name,
            lang: spec.lang,
            damage: spec.damage,
            result: game.result,
            page: pi as u32 + 1,
            pages: n_pages,
            header: if pi == 0 { record.header.clone() } else { BTreeMap::new() },
            size: [form.width, form.height],
            layout: spec.layout.is_some().then(|| DrawnLayout { form: form.clone(), style: fstyle.clone() }),
        };
        out.push(finish_page(canvas, cells, &record, info, rng));
    }
    let _ = Ending::Checkmate;
    Ok(out)
}

/// The box around the warped cell, clamped into the image.
fn warped_box(map: &Homography, r: [f32; 4], w: usize, h: usize) -> [i32; 4] {
    let pts = [(r[0], r[1]), (r[2], r[1]), (r[2], r[3]), (r[0], r[3])].map(|(x, y)| map.apply(x as f64, y as f64));
    let x0 = pts.iter().map(|p| p.0).fold(f64::MAX, f64::min);
    let x1 = pts.iter().map(|p| p.0).fold(f64::MIN, f64::max);
    let y0 = pts.iter().map(|p| p.1).fold(f64::MAX, f64::min);
    let y1 = pts.iter().map(|p| p.1).fold(f64::MIN, f64::max);
    [
        (x0.floor() as i32).clamp(0, w as i32),
        (y0.floor() as i32).clamp(0, h as i32),
        (x1.ceil() as i32).clamp(0, w as i32),
        (y1.ceil() as i32).clamp(0, h as i32),
    ]
}

fn has_result_field(form: &Form) -> bool {
    form.fields.iter().any(|f| f.kind == FieldKind::Result)
}

/// Writes one cell's content (move, correction, result) onto the page.
pub(crate) fn write_cell<R: Rng>(canvas: &mut Canvas, hand: &Hand, slot: &Slot, w: &Written, rng: &mut R) {
    let rect = slot.write;
    match (w.note, &w.struck) {
        (Some(Note::Skipped), _) => {}
        (Some(Note::CrossedOut), Some(wrong)) => crossed_out(canvas, hand, rect, wrong, &w.text, rng),
        (note, _) => {
            if w.text.is_empty() {
                return;
            }
            let stroke = handwriting::in_cell(hand, &w.text, rect, note == Some(Note::OverBorder), rng);
            // Pressure and ink flow vary from word to word.
            stroke.draw(canvas, hand, rng.gen_range(0.82..1.0));
        }
    }
}

/// A struck-out word with the correction beside it (or above it when the cell is too short).
fn crossed_out<R: Rng>(canvas: &mut Canvas, hand: &Hand, rect: [f32; 4], wrong: &str, right: &str, rng: &mut R) {
    let (w, h) = (rect[2] - rect[0], rect[3] - rect[1]);
    let mut size = (hand.size * rng.gen_range(0.85..1.0)).min(h * 0.6);
    let gap = size * rng.gen_range(0.4..0.9);
    let mut a = handwriting::layout(hand, wrong, size, rng);
    let mut b = handwriting::layout(hand, right, size, rng);
    let total = a.width + gap + b.width;
    if total > w * 0.95 {
        size *= w * 0.95 / total;
        a = handwriting::layout(hand, wrong, size, rng);
        b = handwriting::layout(hand, right, size, rng);
    }
    let y = rect[1] + h * hand.baseline;
    let x = rect[0] + w * rng.gen_range(0.02..0.06);
    let bw = b.width;
    let sa = Stroke { x, y, angle: rng.gen_range(-0.03..0.03), word: a, extra: Vec::new() };
    let aw = sa.word.width;
    let ink = sa.mask(hand).ink_box();
    sa.draw(canvas, hand, 1.0);
    if let Some(bx) = ink {
        let pen = (size * 0.09).max(1.5);
        let strike = Stroke::lines(handwriting::strike(bx, pen, rng));
        strike.draw(canvas, hand, 1.0);
    }
    let bx = (x + aw + gap).min(rect[2] - bw);
    let sb = Stroke {
        x: bx,
        y: y + rng.gen_range(-2.0..2.0),
        angle: rng.gen_range(-0.03..0.03),
        word: b,
        extra: Vec::new(),
    };
    sb.draw(canvas, hand, 1.0);
}

/// Writes the header fields (names, event, date, round, board, ratings) by hand; a form whose
/// header is printed gets its ratings written only.
fn write_header<R: Rng>(
    canvas: &mut Canvas,
    form: &Form,
    style: &FormStyle,
    hand: &Hand,
    header: &BTreeMap<String, String>,
    rng: &mut R,
) {
    for f in &form.fields {
        let rating;
        let text = match f.kind.header_key() {
            Some(_) if form.printed_header => continue,
            Some(key) => {
                if rng.gen_bool(0.12) {
                    continue; // left blank
                }
                let Some(text) = header.get(key) else { continue };
                text.as_str()
            }
            None if f.kind == FieldKind::Rating => {
                if rng.gen_bool(0.35) {
                    continue;
                }
                rating = rng.gen_range(1100..2600).to_string();
                rating.as_str()
            }
            None => continue,
        };
        let [x0, y0, x1, y1] = f.rect;
        let size = ((y1 - y0) * 0.42).min(hand.size * 1.1);
        let ts = style.text_scale;
        let label_room = (f.label.chars().count() as f32 * 9.0 * ts + 16.0 * ts).min((x1 - x0) * 0.5);
        let mut word = handwriting::layout(hand, text, size, rng);
        let room = x1 - x0 - label_room - 8.0;
        if word.width > room {
            word = handwriting::layout(hand, text, size * room / word.width, rng);
        }
        let x = x0 + label_room + rng.gen_range(0.0..(room - word.width).max(1.0) * 0.3);
        let y = if f.line == FieldLine::Boxed { y1 - (y1 - y0) * 0.18 } else { y1 - 9.0 };
        Stroke { word, x, y, angle: rng.gen_range(-0.02..0.02), extra: Vec::new() }.draw(canvas, hand, 1.0);
    }
}

/// Writes or marks the result outside the move cells: circles a printed choice, fills a result field.
fn write_result<R: Rng>(
    canvas: &mut Canvas,
    form: &Form,
    hand: &Hand,
    written: &str,
    result: &str,
    in_cell: bool,
    rng: &mut R,
) {
    if in_cell && rng.gen_bool(0.5) {
        return;
    }
    let pick = match result {
        "1-0" => 0,
        "0-1" => 2,
        _ => 1,
    };
    if let Some((_, r)) = form.result_boxes.get(pick) {
        let (cx, cy) = ((r[0] + r[2]) / 2.0, (r[1] + r[3]) / 2.0);
        let (rx, ry) = ((r[2] - r[0]) / 2.0 * 1.05, (r[3] - r[1]) / 2.0 * 1.1);
        let pen = (hand.size * 0.08).max(1.5);
        let polys = if form.result_marks == ResultMarks::CheckBoxes {
            tick(forms::check_box(*r), pen, rng)
        } else if form.result_marks == ResultMarks::Circled || rng.gen_bool(0.5) {
            // A loop around the printed choice, not quite closed.
            let start = rng.gen_range(0.0..std::f32::consts::TAU);
            let n = 28;
            let pts: Vec<(f32, f32)> = (0..=n)
                .map(|i| {
                    let t = start + i as f32 / n as f32 * std::f32::consts::TAU * 1.08;
                    let k = 1.0 + 0.04 * (t * 3.0).sin();
                    (cx + rx * k * t.cos(), cy + ry * k * t.sin())
                })
                .collect();
            super::raster::polyline(&pts, pen)
        } else {
            let d = (r[3] - r[1]) * 0.35;
            vec![
                thick_line((cx - d, cy - d), (cx + d, cy + d), pen),
                thick_line((cx + d, cy - d), (cx - d, cy + d), pen),
            ]
        };
        let s = Stroke::lines(polys);
        s.draw(canvas, hand, 1.0);
        return;
    }
    if let Some(f) = form.fields.iter().find(|f| f.kind == FieldKind::Result) {
        let [x0, y0, x1, y1] = f.rect;
        let word = handwriting::layout(hand, written, ((y1 - y0) * 0.45).min(hand.size * 1.1), rng);
        let x = x0 + 90.0 + rng.gen_range(0.0..40.0);
        let _ = x1;
        Stroke { word, x, y: y1 - 9.0, angle: rng.gen_range(-0.02..0.02), extra: Vec::new() }.draw(canvas, hand, 1.0);
    }
}

/// A tick or a cross in the check box `b`, a little careless.
fn tick<R: Rng>(b: [f32; 4], pen: f32, rng: &mut R) -> Vec<super::raster::Polygon> {
    let s = b[2] - b[0];
    let j = |rng: &mut R| rng.gen_range(-0.08..0.08) * s;
    if rng.gen_bool(0.6) {
        let pts = [
            (b[0] + 0.15 * s + j(rng), b[1] + 0.55 * s + j(rng)),
            (b[0] + 0.42 * s + j(rng), b[3] - 0.1 * s + j(rng)),
            (b[2] + 0.2 * s + j(rng), b[1] - 0.25 * s + j(rng)),
        ];
        super::raster::polyline(&pts, pen)
    } else {
        let d = 0.1 * s;
        vec![
            thick_line((b[0] + d + j(rng), b[1] + d + j(rng)), (b[2] - d + j(rng), b[3] - d + j(rng)), pen),
            thick_line((b[2] - d + j(rng), b[1] + d + j(rng)), (b[0] + d + j(rng), b[3] - d + j(rng)), pen),
        ]
    }
}

/// Writes the clock times some players keep: in the clock cells of the moves made, the minutes
/// left going down, in rows here and there.
fn write_clock_times<R: Rng>(canvas: &mut Canvas, form: &Form, hand: &Hand, plies: usize, rng: &mut R) {
    let share = rng.gen_range(0.3..1.0);
    let start = [90, 120, 60][rng.gen_range(0..3)];
    let mut left = [start, start];
    let with_hours = rng.gen_bool(0.6);
    // Times go in small, beside the moves' bigger writing.
    let hand = &hand.sized(hand.size * rng.gen_range(0.55..0.75));
    for b in &form.blocks {
        for r in 0..b.rows {
            for (i, side) in [Side::White, Side::Black].into_iter().enumerate() {
                let ply = ((b.first_move + r - 1) * 2 + i as u32) as usize;
                let Some(rect) = b.cell_of(r, Column::Clock(side)) else { continue };
                if ply >= plies {
                    continue;
                }
                left[i] = (left[i] - rng.gen_range(0..4)).max(1);
                if !rng.gen_bool(share) {
                    continue;
                }
                let t = left[i];
                let text = if with_hours { format!("{}:{:02}", t / 60, t % 60) } else { t.to_string() };
                handwriting::in_cell(hand, &text, rect, false, rng).draw(canvas, hand, rng.gen_range(0.8..1.0));
            }
        }
    }
}

fn sign<R: Rng>(canvas: &mut Canvas, form: &Form, hand: &Hand, rng: &mut R) {
    for f in form.fields.iter().filter(|f| f.kind == FieldKind::Signature) {
        if rng.gen_bool(0.15) {
            continue;
        }
        let [x0, _, x1, y1] = f.rect;
        let x = x0 + (x1 - x0) * rng.gen_range(0.4..0.55);
        let w = (x1 - x0) * rng.gen_range(0.25..0.4);
        let polys = handwriting::signature(x, y1 - 8.0, w, 26.0, (hand.size * 0.07).max(1.3), rng);
        let s = Stroke::lines(polys);
        s.draw(canvas, hand, 1.0);
    }
}
