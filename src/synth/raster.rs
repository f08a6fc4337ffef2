//! Pixels: an RGB page, anti-aliased coverage masks rasterized from glyph outlines and polygons,
//! and ink laid onto paper by multiplication (ink over ink darkens, like a pen).

// Pixel code indexes colour channels of parallel arrays; iterators would not read better.
#![allow(clippy::needless_range_loop)]

use ab_glyph::OutlineCurve;
use ab_glyph_rasterizer::{Rasterizer, point};

use super::fonts::GlyphShape;

/// An affine map (x, y) -> (a x + b y + e, c x + d y + f).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Affine {
    /// The x coefficient of x'.
    pub a: f32,
    /// The y coefficient of x'.
    pub b: f32,
    /// The x coefficient of y'.
    pub c: f32,
    /// The y coefficient of y'.
    pub d: f32,
    /// The constant of x'.
    pub e: f32,
    /// The constant of y'.
    pub f: f32,
}

impl Affine {
    /// The map that changes nothing.
    pub const IDENTITY: Affine = Affine { a: 1.0, b: 0.0, c: 0.0, d: 1.0, e: 0.0, f: 0.0 };

    /// A shift by (x, y).
    pub fn translate(x: f32, y: f32) -> Affine {
        Affine { e: x, f: y, ..Affine::IDENTITY }
    }

    /// A scaling by `sx` across and `sy` down.
    pub fn scale(sx: f32, sy: f32) -> Affine {
        Affine { a: sx, d: sy, ..Affine::IDENTITY }
    }

    /// A rotation by `angle` radians.
    pub fn rotate(angle: f32) -> Affine {
        let (s, c) = angle.sin_cos();
        Affine { a: c, b: -s, c: s, d: c, e: 0.0, f: 0.0 }
    }

    /// x' = x + k y (a slant; with y pointing down, negative k leans tops to the right).
    pub fn shear_x(k: f32) -> Affine {
        Affine { b: k, ..Affine::IDENTITY }
    }

    /// `self` after `inner`: (self . inner)(p) = self(inner(p)).
    pub fn then_after(self, inner: Affine) -> Affine {
        Affine {
            a: self.a * inner.a + self.b * inner.c,
            b: self.a * inner.b + self.b * inner.d,
            c: self.c * inner.a + self.d * inner.c,
            d: self.c * inner.b + self.d * inner.d,
            e: self.a * inner.e + self.b * inner.f + self.e,
            f: self.c * inner.e + self.d * inner.f + self.f,
        }
    }

    /// The image of the point (x, y).
    pub fn apply(&self, x: f32, y: f32) -> (f32, f32) {
        (self.a * x + self.b * y + self.e, self.c * x + self.d * y + self.f)
    }
}

/// A glyph outline placed on the page by an affine map from font units.
pub struct Placed<'a> {
    /// The outline.
    pub shape: &'a GlyphShape,
    /// Font units to page pixels.
    pub map: Affine,
}

/// A coverage mask (0..1) at a pixel offset on the page.
pub struct Mask {
    /// Page x of the mask's left column.
    pub x0: i32,
    /// Page y of the mask's top row.
    pub y0: i32,
    /// Width in pixels.
    pub w: usize,
    /// Height in pixels.
    pub h: usize,
    /// The coverage, row by row.
    pub data: Vec<f32>,
}

impl Mask {
    /// A mask covering nothing.
    pub fn empty() -> Mask {
        Mask { x0: 0, y0: 0, w: 0, h: 0, data: Vec::new() }
    }

    /// Page-space bounding box of the inked pixels, if any.
    pub fn ink_box(&self) -> Option<[f32; 4]> {
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        for y in 0..self.h {
            for x in 0..self.w {
                if self.data[y * self.w + x] > 0.25 {
                    x0 = x0.min(x);
                    y0 = y0.min(y);
                    x1 = x1.max(x + 1);
                    y1 = y1.max(y + 1);
                }
            }
        }
        (x0 != usize::MAX).then(|| {
            [
                (self.x0 + x0 as i32) as f32,
                (self.y0 + y0 as i32) as f32,
                (self.x0 + x1 as i32) as f32,
                (self.y0 + y1 as i32) as f32,
            ]
        })
    }

    /// Thickens strokes: each pixel takes `weight` times the strongest of its four neighbours.
    pub fn embolden(&mut self, weight: f32) {
        if weight <= 0.0 || self.w < 3 || self.h < 3 {
            return;
        }
        if weight > 1.0 {
            self.embolden(1.0);
            self.embolden(weight - 1.0);
            return;
        }
        let src = self.data.clone();
        let w = self.w;
        for y in 1..self.h - 1 {
            for x in 1..w - 1 {
                let i = y * w + x;
                let n = src[i - 1].max(src[i + 1]).max(src[i - w]).max(src[i + w]);
                self.data[i] = src[i].max(n * weight);
            }
        }
    }
}

/// A closed polygon in page pixels (a stroke of a pen, a strike-through).
pub type Polygon = Vec<(f32, f32)>;

/// A thick line from `p` to `q` as a polygon, `width` pixels wide, slightly tapered at the ends.
pub fn thick_line(p: (f32, f32), q: (f32, f32), width: f32) -> Polygon {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-3);
    let (nx, ny) = (-dy / len * width * 0.5, dx / len * width * 0.5);
    let (tx, ty) = (dx / len * width * 0.3, dy / len * width * 0.3);
    vec![
        (p.0 - tx, p.1 - ty),
        (p.0 + nx, p.1 + ny),
        (q.0 + nx, q.1 + ny),
        (q.0 + tx, q.1 + ty),
        (q.0 - nx, q.1 - ny),
        (p.0 - nx, p.1 - ny),
    ]
}

/// A polyline drawn as a chain of thick segments (each rasterized on its own).
pub fn polyline(points: &[(f32, f32)], width: f32) -> Vec<Polygon> {
    points.windows(2).map(|w| thick_line(w[0], w[1], width)).collect()
}

/// Rasterizes glyphs (accumulated, one winding) and polygons (each combined by maximum) into a mask.
pub fn rasterize(glyphs: &[Placed], polygons: &[Polygon], pad: i32) -> Mask {
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    let mut grow = |x: f32, y: f32| {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    };
    for g in glyphs {
        for c in &g.shape.curves {
            let pts: &[ab_glyph::Point] = match c {
                OutlineCurve::Line(a, b) => &[*a, *b],
                OutlineCurve::Quad(a, b, c) => &[*a, *b, *c],
                OutlineCurve::Cubic(a, b, c, d) => &[*a, *b, *c, *d],
            };
            for p in pts {
                let (x, y) = g.map.apply(p.x, p.y);
                grow(x, y);
            }
        }
    }
    for poly in polygons {
        for &(x, y) in poly {
            grow(x, y);
        }
    }
    if x0 > x1 || !x0.is_finite() || !x1.is_finite() {
        return Mask::empty();
    }
    let ox = x0.floor() as i32 - pad;
    let oy = y0.floor() as i32 - pad;
    let w = (x1.ceil() as i32 + pad - ox + 1).clamp(1, 4096) as usize;
    let h = (y1.ceil() as i32 + pad - oy + 1).clamp(1, 4096) as usize;
    let mut data = vec![0.0f32; w * h];
    let (fx, fy) = (ox as f32, oy as f32);
    if !glyphs.is_empty() {
        let mut r = Rasterizer::new(w, h);
        for g in glyphs {
            let m = g.map;
            let tp = |p: &ab_glyph::Point| {
                let (x, y) = m.apply(p.x, p.y);
                point(x - fx, y - fy)
            };
            for c in &g.shape.curves {
                match c {
                    OutlineCurve::Line(a, b) => r.draw_line(tp(a), tp(b)),
                    OutlineCurve::Quad(a, b, c) => r.draw_quad(tp(a), tp(b), tp(c)),
                    OutlineCurve::Cubic(a, b, c, d) => r.draw_cubic(tp(a), tp(b), tp(c), tp(d)),
                }
            }
        }
        r.for_each_pixel(|i, a| data[i] = a.min(1.0));
    }
    if !polygons.is_empty() {
        let mut r = Rasterizer::new(w, h);
        for poly in polygons {
            r.clear();
            for i in 0..poly.len() {
                let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
                r.draw_line(point(a.0 - fx, a.1 - fy), point(b.0 - fx, b.1 - fy));
            }
            r.for_each_pixel(|i, a| data[i] = data[i].max(a.min(1.0)));
        }
    }
    Mask { x0: ox, y0: oy, w, h, data }
}

/// An RGB image, row-major, 3 bytes a pixel.
#[derive(Clone)]
pub struct Canvas {
    /// Width in pixels.
    pub w: usize,
    /// Height in pixels.
    pub h: usize,
    /// Page x of the canvas's top-left pixel (non-zero for a window onto a page).
    pub ox: i32,
    /// Page y of the canvas's top-left pixel.
    pub oy: i32,
    /// The pixels, row by row, RGB.
    pub px: Vec<u8>,
}

impl Canvas {
    /// A `w` x `h` canvas of the colour `paper`.
    pub fn new(w: usize, h: usize, paper: [u8; 3]) -> Canvas {
        let mut px = Vec::with_capacity(w * h * 3);
        for _ in 0..w * h {
            px.extend_from_slice(&paper);
        }
        Canvas { w, h, ox: 0, oy: 0, px }
    }

    /// A `w` x `h` window onto a page whose top-left pixel is page pixel (`ox`, `oy`).
    pub fn window(ox: i32, oy: i32, w: usize, h: usize, paper: [u8; 3]) -> Canvas {
        Canvas { ox, oy, ..Canvas::new(w, h, paper) }
    }

    /// Whether the page-space box [x0, y0, x1, y1] touches the canvas.
    pub fn sees(&self, b: [f32; 4]) -> bool {
        b[2] >= self.ox as f32
            && b[3] >= self.oy as f32
            && b[0] <= (self.ox + self.w as i32) as f32
            && b[1] <= (self.oy + self.h as i32) as f32
    }

    /// Lays ink of colour `ink` with strength `opacity` through `mask` (multiplicative).
    pub fn ink(&mut self, mask: &Mask, ink: [u8; 3], opacity: f32) {
        let f = [1.0 - ink[0] as f32 / 255.0, 1.0 - ink[1] as f32 / 255.0, 1.0 - ink[2] as f32 / 255.0];
        for my in 0..mask.h {
            let y = mask.y0 + my as i32 - self.oy;
            if y < 0 || y >= self.h as i32 {
                continue;
            }
            let row = &mask.data[my * mask.w..(my + 1) * mask.w];
            for (mx, &a) in row.iter().enumerate() {
                if a <= 0.003 {
                    continue;
                }
                let x = mask.x0 + mx as i32 - self.ox;
                if x < 0 || x >= self.w as i32 {
                    continue;
                }
                let i = (y as usize * self.w + x as usize) * 3;
                let k = a * opacity;
                for ch in 0..3 {
                    let v = self.px[i + ch] as f32 * (1.0 - k * f[ch]);
                    self.px[i + ch] = v as u8;
                }
            }
        }
    }

    /// Fills a rectangle (pixel edges, anti-aliased at fractional edges) multiplying by `color`.
    pub fn fill_rect(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, color: [u8; 3], opacity: f32) {
        let f = [1.0 - color[0] as f32 / 255.0, 1.0 - color[1] as f32 / 255.0, 1.0 - color[2] as f32 / 255.0];
        let (x0, x1) = (x0 - self.ox as f32, x1 - self.ox as f32);
        let (y0, y1) = (y0 - self.oy as f32, y1 - self.oy as f32);
        let xs = x0.floor().max(0.0) as usize;
        let xe = (x1.ceil().max(0.0) as usize).min(self.w);
        let ys = y0.floor().max(0.0) as usize;
        let ye = (y1.ceil().max(0.0) as usize).min(self.h);
        for y in ys..ye {
            let cy = ((y as f32 + 1.0).min(y1) - (y as f32).max(y0)).clamp(0.0, 1.0);
            for x in xs..xe {
                let cx = ((x as f32 + 1.0).min(x1) - (x as f32).max(x0)).clamp(0.0, 1.0);
                let k = cx * cy * opacity;
                let i = (y * self.w + x) * 3;
                for ch in 0..3 {
                    self.px[i + ch] = (self.px[i + ch] as f32 * (1.0 - k * f[ch])) as u8;
                }
            }
        }
    }

    /// A horizontal or vertical printed rule centred on the given line.
    pub fn hline(&mut self, x0: f32, x1: f32, y: f32, t: f32, color: [u8; 3]) {
        self.fill_rect(x0 - t * 0.5, y - t * 0.5, x1 + t * 0.5, y + t * 0.5, color, 1.0);
    }

    /// A vertical printed rule centred on the given line.
    pub fn vline(&mut self, x: f32, y0: f32, y1: f32, t: f32, color: [u8; 3]) {
        self.fill_rect(x - t * 0.5, y0 - t * 0.5, x + t * 0.5, y1 + t * 0.5, color, 1.0);
    }

    /// A horizontal rule broken into pieces `dash` long, `gap` apart (dotted or dashed).
    #[allow(clippy::too_many_arguments)]
    pub fn broken_hline(&mut self, x0: f32, x1: f32, y: f32, t: f32, color: [u8; 3], dash: f32, gap: f32) {
        let mut x = x0;
        while x < x1 {
            let end = (x + dash).min(x1);
            self.fill_rect(x, y - t * 0.5, end, y + t * 0.5, color, 1.0);
            x += dash + gap;
        }
    }

    /// Replaces pixels (not multiplying) by `color` where `mask` covers, for light text on dark.
    pub fn paint(&mut self, mask: &Mask, color: [u8; 3]) {
        for my in 0..mask.h {
            let y = mask.y0 + my as i32 - self.oy;
            if y < 0 || y >= self.h as i32 {
                continue;
            }
            for mx in 0..mask.w {
                let a = mask.data[my * mask.w + mx];
                let x = mask.x0 + mx as i32 - self.ox;
                if a <= 0.003 || x < 0 || x >= self.w as i32 {
                    continue;
                }
                let i = (y as usize * self.w + x as usize) * 3;
                for ch in 0..3 {
                    let v = self.px[i + ch] as f32 * (1.0 - a) + color[ch] as f32 * a;
                    self.px[i + ch] = v as u8;
                }
            }
        }
    }
}

/// Lays out printed `text` left to right in `font` with digit height `size` px, starting at
/// (`x`, baseline `y`); returns the glyphs and the advance width.
pub fn printed_text<'a>(
    font: &'a super::fonts::LoadedFont,
    text: &str,
    size: f32,
    x: f32,
    y: f32,
) -> (Vec<Placed<'a>>, f32) {
    let s = size / font.digit_height;
    let mut pen = x;
    let mut out = Vec::new();
    for c in text.chars() {
        if let Some(g) = font.glyph(c) {
            out.push(Placed { shape: g, map: Affine { a: s, b: 0.0, c: 0.0, d: -s, e: pen, f: y } });
            pen += g.advance * s;
        }
    }
    (out, pen - x)
}

/// Width of printed `text` at digit height `size`.
pub fn printed_width(font: &super::fonts::LoadedFont, text: &str, size: f32) -> f32 {
    let s = size / font.digit_height;
    text.chars().filter_map(|c| font.glyph(c)).map(|g| g.advance * s).sum()
}
