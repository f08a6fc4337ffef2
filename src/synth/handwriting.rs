//! A writer's hand: font, size, slant, spacing, baseline wander, per-glyph jitter, stroke weight and
//! ink, all chosen once per writer; every word written comes out a little different.

use rand::Rng;
use serde::Serialize;

use super::fonts::LoadedFont;
use super::raster::{Affine, Canvas, Mask, Placed, Polygon, polyline, rasterize};

/// Ink colours: ballpoint blues and blacks.
const INKS: [[u8; 3]; 5] = [[22, 38, 120], [30, 50, 150], [40, 45, 95], [25, 25, 30], [45, 40, 40]];

/// The pens a form is filled in with (the writer's pen is drawn once a sheet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Inks {
    /// Blue and black ballpoints, as [`Hand::random`] draws them.
    Ballpoint,
    /// Any pen players bring: ballpoints, blue or green gel and felt tips, red, pencil.
    Any,
    /// The copy of a carbonless pair: the writing comes through soft, blue-grey and spread.
    Carbon,
}

/// A pen for [`Inks::Any`]: its ink, opacity range, stroke weight added, and how often it is
/// drawn (shares of 100).
struct Pen {
    ink: [u8; 3],
    opacity: (f32, f32),
    weight: f32,
    share: u32,
}

const ANY_PENS: [Pen; 8] = [
    Pen { ink: [22, 38, 120], opacity: (0.8, 1.0), weight: 0.0, share: 22 }, // blue ballpoint
    Pen { ink: [20, 60, 190], opacity: (0.75, 0.95), weight: 0.2, share: 14 }, // blue gel
    Pen { ink: [25, 25, 30], opacity: (0.8, 1.0), weight: 0.0, share: 16 },  // black
    Pen { ink: [20, 110, 60], opacity: (0.75, 0.95), weight: 0.1, share: 14 }, // green
    Pen { ink: [30, 130, 120], opacity: (0.7, 0.9), weight: 0.2, share: 8 }, // teal felt tip
    Pen { ink: [170, 30, 35], opacity: (0.75, 0.95), weight: 0.0, share: 6 }, // red
    Pen { ink: [95, 95, 100], opacity: (0.5, 0.75), weight: -0.3, share: 12 }, // pencil
    Pen { ink: [60, 40, 110], opacity: (0.75, 0.95), weight: 0.1, share: 8 }, // violet
];

impl Inks {
    /// Gives `hand` a pen of this kind (Ballpoint keeps the hand's own, drawing nothing).
    pub fn apply<R: Rng>(self, hand: &mut Hand, rng: &mut R) {
        match self {
            Inks::Ballpoint => {}
            Inks::Any => {
                let total: u32 = ANY_PENS.iter().map(|p| p.share).sum();
                let mut pick = rng.gen_range(0..total);
                let mut pen = &ANY_PENS[0];
                for p in &ANY_PENS {
                    if pick < p.share {
                        pen = p;
                        break;
                    }
                    pick -= p.share;
                }
                hand.ink = pen.ink;
                hand.opacity = rng.gen_range(pen.opacity.0..pen.opacity.1);
                hand.weight = (hand.weight + pen.weight).max(0.0);
            }
            Inks::Carbon => {
                let tone = rng.gen_range(0..3);
                hand.ink = [[60, 70, 130], [70, 70, 90], [45, 55, 110]][tone];
                hand.opacity = rng.gen_range(0.5..0.75);
                hand.weight += rng.gen_range(0.3..0.8);
            }
        }
    }
}

/// One writer's hand.
#[derive(Clone, Serialize)]
pub struct Hand {
    #[serde(serialize_with = "font_name")]
    /// The handwriting font.
    pub font: &'static LoadedFont,
    /// Digit height in pixels, before per-word variation.
    pub size: f32,
    /// Slant: x shift per pixel of height (positive leans right).
    pub slant: f32,
    /// Letter spacing factor on the font's advances.
    pub spacing: f32,
    /// Per-glyph position jitter (fraction of size).
    pub jitter_pos: f32,
    /// Per-glyph rotation jitter, radians.
    pub jitter_rot: f32,
    /// Per-glyph scale jitter.
    pub jitter_scale: f32,
    /// Baseline wander amplitude (fraction of size).
    pub wander: f32,
    /// The angle spread of whole words.
    pub word_angle: f32,
    /// Stroke thickening 0..1.
    pub weight: f32,
    /// Ink colour.
    pub ink: [u8; 3],
    /// Ink opacity.
    pub opacity: f32,
    /// Where in the cell the word starts: 0 = tight left, 1 = centred.
    pub centring: f32,
    /// Baseline position as a fraction of the cell height.
    pub baseline: f32,
}

fn font_name<S: serde::Serializer>(f: &&'static LoadedFont, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(f.name)
}

impl Hand {
    /// A random writer using `font`, for cells about `row_h` pixels high.
    pub fn random<R: Rng>(rng: &mut R, font: &'static LoadedFont, row_h: f32) -> Hand {
        let ink = INKS[rng.gen_range(0..INKS.len())];
        Hand {
            font,
            size: row_h * rng.gen_range(0.55..0.85),
            slant: rng.gen_range(-0.12..0.3),
            spacing: rng.gen_range(0.92..1.25),
            jitter_pos: rng.gen_range(0.01..0.07),
            jitter_rot: rng.gen_range(0.01..0.1),
            jitter_scale: rng.gen_range(0.02..0.12),
            wander: rng.gen_range(0.02..0.1),
            word_angle: rng.gen_range(0.005..0.05),
            weight: rng.gen_range(0.0..1.1),
            ink,
            opacity: rng.gen_range(0.8..1.0),
            centring: rng.gen_range(0.0..1.0),
            baseline: rng.gen_range(0.7..0.85),
        }
    }

    /// The hand with another digit height (for header fields and long words).
    pub fn sized(&self, size: f32) -> Hand {
        Hand { size, ..self.clone() }
    }
}

/// A word laid out at the origin (pen start x = 0, baseline y = 0).
pub struct Word<'a> {
    /// The glyphs placed.
    pub glyphs: Vec<Placed<'a>>,
    /// How far the pen moved.
    pub width: f32,
}

/// Lays out `text` in `hand` at digit height `size`, each glyph jittered.
pub fn layout<'a, R: Rng>(hand: &'a Hand, text: &str, size: f32, rng: &mut R) -> Word<'a> {
    let font = hand.font;
    let s = size / font.hand_height();
    let mut pen = 0.0f32;
    let phase = rng.gen_range(0.0..std::f32::consts::TAU);
    let freq = rng.gen_range(0.02..0.06);
    let mut glyphs = Vec::with_capacity(text.len());
    for c in text.chars() {
        let Some(g) = font.glyph(c) else {
            continue;
        };
        if c == ' ' {
            pen += g.advance * s * hand.spacing * rng.gen_range(0.6..1.1);
            continue;
        }
        let k = 1.0 + rng.gen_range(-hand.jitter_scale..=hand.jitter_scale);
        let rot = rng.gen_range(-hand.jitter_rot..=hand.jitter_rot);
        let dx = rng.gen_range(-hand.jitter_pos..=hand.jitter_pos) * size;
        let dy =
            rng.gen_range(-hand.jitter_pos..=hand.jitter_pos) * size + (pen * freq + phase).sin() * hand.wander * size;
        // font units (y up) -> glyph pixels (y down), slanted, rotated about the glyph's foot, placed.
        let local = Affine::shear_x(-hand.slant).then_after(Affine::scale(s * k, -s * k));
        let map = Affine::translate(pen + dx, dy).then_after(Affine::rotate(rot).then_after(local));
        glyphs.push(Placed { shape: g, map });
        pen += g.advance * s * k * hand.spacing;
    }
    // Spacing stretches the gaps only: the last glyph's own width counts once.
    Word { glyphs, width: pen.max(1.0) }
}

/// Where and how a word goes on the page.
pub struct Stroke<'a> {
    /// The word laid out.
    pub word: Word<'a>,
    /// Pen start on the page.
    pub x: f32,
    /// The baseline on the page.
    pub y: f32,
    /// The word's rotation.
    pub angle: f32,
    /// Extra pen strokes (strike-throughs, scribbles) in page pixels.
    pub extra: Vec<Polygon>,
}

impl<'a> Stroke<'a> {
    /// Pen strokes alone (a strike-through, a cross, a signature), in page pixels.
    pub fn lines(extra: Vec<Polygon>) -> Stroke<'a> {
        Stroke { word: Word { glyphs: Vec::new(), width: 0.0 }, x: 0.0, y: 0.0, angle: 0.0, extra }
    }

    /// Rasterizes the stroke into a coverage mask with the hand's weight.
    pub fn mask(&self, hand: &Hand) -> Mask {
        let place = Affine::translate(self.x, self.y).then_after(Affine::rotate(self.angle));
        let glyphs: Vec<Placed> =
            self.word.glyphs.iter().map(|g| Placed { shape: g.shape, map: place.then_after(g.map) }).collect();
        let mut m = rasterize(&glyphs, &self.extra, 2);
        m.embolden(hand.weight);
        m
    }

    /// Draws the stroke onto `canvas`, returning the ink box.
    pub fn draw(&self, canvas: &mut Canvas, hand: &Hand, opacity: f32) -> Option<[f32; 4]> {
        let m = self.mask(hand);
        canvas.ink(&m, hand.ink, hand.opacity * opacity);
        m.ink_box()
    }
}

/// Writes `text` into the cell `rect` the way `hand` does; `over` pushes it across a border.
/// Returns the stroke (not yet drawn).
pub fn in_cell<'a, R: Rng>(hand: &'a Hand, text: &str, rect: [f32; 4], over: bool, rng: &mut R) -> Stroke<'a> {
    let (w, h) = (rect[2] - rect[0], rect[3] - rect[1]);
    // Tall capitals stay within about the row: the hand shrinks in narrow rows.
    let tallest = h * 1.0 * hand.font.hand_height() / hand.font.tall_height;
    let mut size = (hand.size * rng.gen_range(0.9..1.1)).min(h * 0.85).min(tallest);
    // Over a border: written too big (running past the right or top line), too low or too high.
    let how = if over { rng.gen_range(0..3) } else { 3 };
    if how == 0 {
        size = size.max(h * 0.5) * rng.gen_range(1.25..1.5);
    }
    let mut word = layout(hand, text, size, rng);
    let room = w * 0.9;
    if word.width > room && !over {
        size *= room / word.width;
        word = layout(hand, text, size, rng);
    }
    let free = (w - word.width).max(0.0);
    let x = rect[0] + free * (0.08 + 0.42 * hand.centring) + rng.gen_range(-0.06..0.06) * free;
    let y = match how {
        0 => rect[1] + h * 0.8,
        1 => rect[3] + size * rng.gen_range(0.0..0.25),
        2 => rect[1] + size * rng.gen_range(0.7..0.9),
        _ => rect[1] + h * hand.baseline + rng.gen_range(-0.05..0.05) * h,
    };
    let angle = rng.gen_range(-hand.word_angle..=hand.word_angle);
    Stroke { word, x, y, angle, extra: Vec::new() }
}

/// A strike-through over the page-space box `b`: one or two wavy lines, or a zig-zag scribble.
pub fn strike<R: Rng>(b: [f32; 4], pen: f32, rng: &mut R) -> Vec<Polygon> {
    let (x0, y0, x1, y1) = (b[0] - 2.0, b[1], b[2] + 2.0, b[3]);
    let hh = y1 - y0;
    match rng.gen_range(0..3) {
        0 | 1 => {
            let n = rng.gen_range(1..=2);
            let mut out = Vec::new();
            for i in 0..n {
                let yc = y0 + hh * (0.45 + 0.15 * i as f32) + rng.gen_range(-2.0..2.0);
                let tilt = rng.gen_range(-0.1..0.1) * (x1 - x0);
                let mid = (x0 + x1) / 2.0;
                let pts = [(x0, yc - tilt * 0.5), (mid, yc + rng.gen_range(-2.0..2.0)), (x1, yc + tilt * 0.5)];
                out.extend(polyline(&pts, pen));
            }
            out
        }
        _ => {
            let steps = ((x1 - x0) / (hh * 0.35).max(4.0)).ceil().max(3.0) as usize;
            let pts: Vec<(f32, f32)> = (0..=steps)
                .map(|i| {
                    let t = i as f32 / steps as f32;
                    let y = if i % 2 == 0 { y0 + hh * 0.15 } else { y1 - hh * 0.1 };
                    (x0 + t * (x1 - x0), y + rng.gen_range(-1.5..1.5))
                })
                .collect();
            polyline(&pts, pen)
        }
    }
}

/// A signature-like scribble along a line from (x, y), `w` wide and `h` high: a run of loops of
/// varying height (a cursive name), sometimes underlined.
pub fn signature<R: Rng>(x: f32, y: f32, w: f32, h: f32, pen: f32, rng: &mut R) -> Vec<Polygon> {
    let loops = rng.gen_range(4.0..9.0f32);
    let back = rng.gen_range(0.6..1.4) * w / (loops * std::f32::consts::TAU);
    let n = (loops * 14.0) as usize;
    let heights: Vec<f32> = (0..=loops as usize + 1).map(|_| rng.gen_range(0.35..1.0)).collect();
    let pts: Vec<(f32, f32)> = (0..=n)
        .map(|i| {
            let t = i as f32 / n as f32;
            let a = t * loops * std::f32::consts::TAU;
            let k = heights[(t * loops) as usize];
            (x + w * t - back * a.sin(), y - h * k * 0.5 * (1.0 - a.cos()) + t * h * 0.2)
        })
        .collect();
    let mut out = polyline(&pts, pen);
    if rng.gen_bool(0.5) {
        let yy = y + rng.gen_range(0.1..0.3) * h;
        out.extend(polyline(&[(x - w * 0.05, yy + 2.0), (x + w * rng.gen_range(0.8..1.05), yy - h * 0.1)], pen));
    }
    out
}
