//! Synthetic handwriting on a real blank form (`synth --form-image`): the form's own image is the
//! background, its move cells come from a checked cells file (`--cells-from`, the format
//! `segment --json` prints) or from the page stage run on the blank image, and each sheet is a
//! game written into those cells by the writers, hands and damage of the drawn forms
//! (`sheet::record`, `sheet::write_moves`, `sheet::finish_page`). The truth is the usual
//! one, so `segment --eval-synth` and `eval` read these sheets like any synthetic set.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use rand::Rng;

use super::SynthError;
use super::forms::{Side, Slot};
use super::games::{self, Game};
use super::handwriting::Inks;
use super::raster::Canvas;
use super::sheet::{self, Page, PageInfo, SheetSpec};

/// A blank form's image and its move cells.
pub struct FormImage {
    /// The form's name in the truth.
    pub name: String,
    /// The blank form: the background of every sheet.
    pub image: Canvas,
    /// Every move cell, in game order; `rect` is the cell's box in the image.
    pub slots: Vec<Slot>,
    /// The last move whose two cells are there with every move before it: games end before it
    /// (its cell, or the one after the last move, takes the result).
    pub last_move: u32,
    /// Median cell height, the row height the writers' hands are sized for.
    pub row_h: f32,
    /// Whether the cells come from a cells file (checked by a person); else they are the page
    /// stage's own reading of the blank form, and the truth is only as right as it.
    pub checked: bool,
}

impl fmt::Debug for FormImage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FormImage")
            .field("name", &self.name)
            .field("size", &(self.image.w, self.image.h))
            .field("cells", &self.slots.len())
            .field("last_move", &self.last_move)
            .field("checked", &self.checked)
            .finish()
    }
}

/// One cell of a cells file: `{"move": 1, "side": "white", "box": [x0, y0, x1, y1]}`, and
/// optionally `"write"`, the part of the box the writer writes in (where the cell also holds a
/// printed number).
#[derive(serde::Deserialize)]
struct CellIn {
    #[serde(rename = "move")]
    mv: u32,
    side: crate::page::Side,
    #[serde(rename = "box")]
    bx: [f32; 4],
    #[serde(default)]
    write: Option<[f32; 4]>,
}

#[derive(serde::Deserialize)]
struct CellsIn {
    cells: Vec<CellIn>,
}

/// Parses a cells file: the object `segment --json` prints for one page (`{"cells": [...]}`), a
/// one-page list of such objects, or a synthetic truth (whose cells have the same keys).
pub fn parse_cells(text: &str) -> Result<Vec<Slot>, SynthError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| SynthError::Invalid(e.to_string()))?;
    let value = match value {
        serde_json::Value::Array(mut pages) if pages.len() == 1 => pages.remove(0),
        serde_json::Value::Array(pages) => {
            return Err(SynthError::Invalid(format!(
                "the file holds the cells of {} pages: keep one page's",
                pages.len()
            )));
        }
        v => v,
    };
    let cells: CellsIn = serde_json::from_value(value).map_err(|e| SynthError::Invalid(e.to_string()))?;
    Ok(cells.cells.into_iter().map(|c| slot(c.mv, c.side, c.bx, c.write)).collect())
}

fn slot(move_no: u32, side: crate::page::Side, rect: [f32; 4], write: Option<[f32; 4]>) -> Slot {
    let side = match side {
        crate::page::Side::White => Side::White,
        crate::page::Side::Black => Side::Black,
    };
    Slot { move_no, side, rect, write: write.unwrap_or(rect), truth: rect }
}

/// The page stage's cells of the blank form `img` (boxes in the image's pixels).
pub fn page_stage_cells(img: &image::DynamicImage) -> Result<Vec<Slot>, SynthError> {
    let sheet = crate::page::segment(img).map_err(|e| SynthError::Invalid(e.to_string()))?;
    if sheet.quarter_turns != 0 {
        return Err(SynthError::Invalid(format!(
            "the page stage finds the form turned by {} degrees: give the blank form upright",
            sheet.quarter_turns * 90
        )));
    }
    Ok(sheet.cells.iter().map(|c| slot(c.mv, c.side, c.box_in_input, None)).collect())
}

impl FormImage {
    /// Loads the blank form at `image` with the cells of `cells_from` (a cells file), or else the
    /// page stage's cells of the image. `name` is the form's name in the truth (default: the
    /// image's file name without its extension).
    pub fn load(image: &Path, cells_from: Option<&Path>, name: Option<&str>) -> Result<FormImage, SynthError> {
        let img = crate::page::load(image).map_err(|e| SynthError::Invalid(e.to_string()))?.into_iter().next();
        let img = img.ok_or_else(|| SynthError::Invalid(format!("{}: no page in the file", image.display())))?;
        let slots = match cells_from {
            Some(path) => {
                let text =
                    std::fs::read_to_string(path).map_err(|e| SynthError::file(path, format!("cannot read: {e}")))?;
                parse_cells(&text).map_err(|e| SynthError::Invalid(format!("{}: {e}", path.display())))?
            }
            None => page_stage_cells(&img).map_err(|e| SynthError::Invalid(format!("{}: {e}", image.display())))?,
        };
        let rgb = img.to_rgb8();
        let canvas = Canvas { w: rgb.width() as usize, h: rgb.height() as usize, ox: 0, oy: 0, px: rgb.into_raw() };
        let name = match name {
            Some(n) => n.to_string(),
            None => image.file_stem().map_or_else(|| "form-image".to_string(), |s| s.to_string_lossy().into_owned()),
        };
        let source = match cells_from {
            Some(path) => path.display().to_string(),
            None => format!("{} (the page stage's cells)", image.display()),
        };
        FormImage::new(name, canvas, slots, cells_from.is_some())
            .map_err(|e| SynthError::Invalid(format!("{source}: {e}")))
    }

    /// Prints the form at `share` of its contrast against white: each channel's darkness (255
    /// less its level) times `share`, so black print comes out grey and the paper stays.
    pub fn fade_print(&mut self, share: f32) {
        for v in &mut self.image.px {
            *v = 255 - (f32::from(255 - *v) * share).round() as u8;
        }
    }

    /// A form image from its cells: checks that every cell lies in the image (boxes a pixel or two
    /// past its edge are clamped to it), that no move cell is listed twice and that the cells start
    /// at move 1.
    pub fn new(name: String, image: Canvas, mut slots: Vec<Slot>, checked: bool) -> Result<FormImage, SynthError> {
        let (w, h) = (image.w as f32, image.h as f32);
        for s in &mut slots {
            let [x0, y0, x1, y1] = s.rect;
            // A box may run a pixel or two past the image's edge (clamped); not more.
            if !(x0 < x1 && y0 < y1 && x0 >= -2.0 && y0 >= -2.0 && x1 <= w + 2.0 && y1 <= h + 2.0) {
                return Err(SynthError::Invalid(format!(
                    "the cell of move {} {} ({x0} {y0} {x1} {y1}) is not a box inside the {w}x{h} image",
                    s.move_no,
                    side_name(s.side)
                )));
            }
            let clamp = |b: [f32; 4]| [b[0].max(0.0), b[1].max(0.0), b[2].min(w), b[3].min(h)];
            s.rect = clamp(s.rect);
            s.write = clamp(s.write);
            s.truth = clamp(s.truth);
            let wr = s.write;
            if !(wr[0] < wr[2] && wr[1] < wr[3]) {
                return Err(SynthError::Invalid(format!(
                    "the writing box of move {} {} is empty",
                    s.move_no,
                    side_name(s.side)
                )));
            }
        }
        slots.sort_by_key(|s| (s.move_no, s.side == Side::Black));
        if let Some(d) = slots.windows(2).find(|p| p[0].move_no == p[1].move_no && p[0].side == p[1].side) {
            return Err(SynthError::Invalid(format!(
                "the cell of move {} {} is listed twice: correct the cells (--cells-from)",
                d[0].move_no,
                side_name(d[0].side)
            )));
        }
        let has = |m: u32, side: Side| slots.iter().any(|s| s.move_no == m && s.side == side);
        let mut last_move = 0;
        while has(last_move + 1, Side::White) && has(last_move + 1, Side::Black) {
            last_move += 1;
        }
        if last_move < 2 {
            return Err(SynthError::Invalid(
                "the cells do not hold moves 1 and 2 for both players: a form image starts at move 1".into(),
            ));
        }
        let mut heights: Vec<f32> = slots.iter().map(|s| s.rect[3] - s.rect[1]).collect();
        heights.sort_by(f32::total_cmp);
        let row_h = heights[heights.len() / 2];
        Ok(FormImage { name, image, slots, last_move, row_h, checked })
    }

    /// The most moves a game on this form has: one cell is left for the result, at most 80.
    pub fn max_moves(&self) -> u32 {
        (self.last_move - 1).min(80)
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// Renders one sheet on the form image: a game written by one writer (with `copies`, the same
/// game again by a second writer drawn from `other`, page named `{name}_c2`).
pub fn render<R: Rng>(
    form: &FormImage,
    spec: &SheetSpec,
    rng: &mut R,
    other: Option<&mut R>,
) -> Result<Vec<Page>, SynthError> {
    let max = form.max_moves();
    let game = games::random_game(rng, 20.min(max), max);
    let mut pages = vec![render_game(form, spec, &spec.name, &game, rng)?];
    if let Some(other) = other {
        pages.push(render_game(form, spec, &format!("{}_c2", spec.name), &game, other)?);
    }
    Ok(pages)
}

/// Writes `game` into the form image's cells as one writer (any pen), the result in the cell after
/// the last move, then damages the page. Nothing is written outside the move cells.
fn render_game<R: Rng>(
    form: &FormImage,
    spec: &SheetSpec,
    name: &str,
    game: &Game,
    rng: &mut R,
) -> Result<Page, SynthError> {
    let record = sheet::record(spec.lang, spec.fonts, game, rng)?;
    let hand = sheet::hand_for(&record, form.row_h, Inks::Any, spec.low_writing, rng);
    let mut canvas = form.image.clone();
    let (cells, _) = sheet::write_moves(&mut canvas, &hand, &form.slots, &record, true, rng);
    let info = PageInfo {
        name: name.to_string(),
        form: &form.name,
        lang: spec.lang,
        damage: spec.damage,
        result: game.result,
        page: 1,
        pages: 1,
        header: BTreeMap::new(),
        size: [form.image.w as f32, form.image.h as f32],
        layout: None,
    };
    Ok(sheet::finish_page(canvas, cells, &record, info, rng))
}
