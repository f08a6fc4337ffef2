//! Single-cell images for training the recognizer at volume: a window onto a synthetic sheet around
//! one cell, with the cell's ruling lines, a little of the neighbours' ink, and mild damage.

use rand::Rng;
use rand::seq::SliceRandom;

use super::SynthError;
use super::damage;
use super::fonts::{self, FontSet};
use super::forms::{self, FormStyle, Side};
use super::games;
use super::handwriting::Hand;
use super::print::print_form;
use super::raster::Canvas;
use super::sheet::{Note, Written, write_cell, write_game};
use crate::notation::{Lang, Style};

/// A grey single-cell image and its label (what is written in the cell).
pub struct CellImage {
    /// Width in pixels.
    pub w: usize,
    /// Height in pixels.
    pub h: usize,
    /// The pixels, row by row.
    pub gray: Vec<u8>,
    /// What is written in the cell.
    pub label: String,
}

/// Renders `n` cells from one writer: one game on one form in `lang`, cells picked at random.
pub fn writer_cells<R: Rng>(
    rng: &mut R,
    lang: &'static Lang,
    set: FontSet,
    n: usize,
) -> Result<Vec<CellImage>, SynthError> {
    let names = forms::NAMES;
    let base =
        forms::form(names[rng.gen_range(0..names.len())]).ok_or_else(|| SynthError::Invalid("unknown form".into()))?;
    let form = base.vary(rng);
    let fstyle = FormStyle::random(&form, rng);
    let game = games::random_game(rng, 20, 80);
    let style = Style::random(rng);
    let mut written = write_game(&game, lang, &style, rng);
    let result = if game.result == "1/2-1/2" && rng.gen_bool(0.5) { "½-½" } else { game.result };
    written.push(Written { text: result.to_string(), san: String::new(), note: Some(Note::Result), struck: None });
    let mut charset: String = written.iter().map(|w| w.text.as_str()).collect();
    for w in &written {
        if let Some(s) = &w.struck {
            charset.push_str(s);
        }
    }
    charset.retain(|c| c != ' ');
    let mut candidates = fonts::hands(set, &charset);
    if candidates.is_empty() {
        // The result's "½" may be what no font has: fall back to the plain form.
        if let Some(w) = written.last_mut() {
            w.text = game.result.to_string();
        }
        charset.retain(|c| c != '½');
        candidates = fonts::hands(set, &charset);
    }
    if candidates.is_empty() {
        return Err(SynthError::Invalid(format!(
            "no handwriting font in the chosen set can write language {}",
            lang.code
        )));
    }
    candidates.sort_by_key(|f| f.name);
    let font = candidates[rng.gen_range(0..candidates.len())];
    let slots = form.slots();
    let row_h = form.blocks[0].row_h;
    let hand = Hand::random(rng, font, row_h);
    let paper = {
        let g = rng.gen_range(235..=255u8);
        [g, g, g.saturating_sub(rng.gen_range(0..8))]
    };
    let ply_of = |move_no: u32, side: Side| ((move_no - 1) * 2 + (side == Side::Black) as u32) as usize;
    // The cells with something in them (and a few past the end, blank).
    let usable: Vec<usize> = (0..slots.len())
        .filter(|&i| {
            let p = ply_of(slots[i].move_no, slots[i].side);
            p < written.len() || (p < written.len() + 4)
        })
        .collect();
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let &si = usable.choose(rng).ok_or_else(|| SynthError::Invalid("form without cells".into()))?;
        let slot = slots[si];
        let r = slot.rect;
        let (cw, ch) = (r[2] - r[0], r[3] - r[1]);
        // The window a page stage would cut: the cell with a little of its surroundings, unevenly.
        let ml = cw * rng.gen_range(0.0..0.1);
        let mr = cw * rng.gen_range(0.0..0.1);
        let mt = ch * rng.gen_range(0.0..0.3);
        let mb = ch * rng.gen_range(0.0..0.3);
        let (ox, oy) = ((r[0] - ml).floor() as i32, (r[1] - mt).floor() as i32);
        let (w, h) = (((cw + ml + mr).ceil() as usize).max(8), ((ch + mt + mb).ceil() as usize).max(8));
        let mut canvas = Canvas::window(ox, oy, w, h, paper);
        print_form(&mut canvas, &form, &fstyle);
        // Neighbours first, then the cell itself.
        let view = [ox as f32 - cw, oy as f32 - ch, ox as f32 + w as f32 + cw, oy as f32 + h as f32 + ch];
        for (j, s) in slots.iter().enumerate() {
            if j == si || s.rect[2] < view[0] || s.rect[0] > view[2] || s.rect[3] < view[1] || s.rect[1] > view[3] {
                continue;
            }
            if let Some(wr) = written.get(ply_of(s.move_no, s.side)) {
                write_cell(&mut canvas, &hand, s, wr, rng);
            }
        }
        let label = match written.get(ply_of(slot.move_no, slot.side)) {
            Some(wr) => {
                write_cell(&mut canvas, &hand, &slot, wr, rng);
                if wr.note == Some(Note::Skipped) { String::new() } else { wr.text.clone() }
            }
            None => String::new(),
        };
        canvas.ox = 0;
        canvas.oy = 0;
        damage::blur(&mut canvas, usize::from(rng.gen_bool(0.35)));
        damage::add_noise(&mut canvas, rng.gen_range(0.0..8.0), rng.r#gen());
        let (gain, lift) = (rng.gen_range(0.75..1.0f32), rng.gen_range(0.0..25.0f32));
        let gray = canvas
            .px
            .chunks_exact(3)
            .map(|p| {
                let l = 0.299 * p[0] as f32 + 0.587 * p[1] as f32 + 0.114 * p[2] as f32;
                (l * gain + lift).min(255.0) as u8
            })
            .collect();
        out.push(CellImage { w, h, gray, label });
    }
    Ok(out)
}
