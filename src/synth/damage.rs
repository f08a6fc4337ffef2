//! What scanners and phone cameras do to a page: `scan` (small rotation, paper tone, blur, noise,
//! JPEG), `photo` (perspective, background around the page, uneven light and shadow, defocus).
//!
//! Every kind is a projective map from page to image ([`Homography`]), so cell boxes in the final
//! image are the boxes around the mapped cell corners.

// Pixel code indexes colour channels of parallel arrays; iterators would not read better.
#![allow(clippy::needless_range_loop)]

use rand::Rng;
use serde::Serialize;

use super::raster::Canvas;

/// The damage kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Damage {
    /// The clean rendering.
    None,
    /// A flatbed scan.
    Scan,
    /// A phone photo.
    Photo,
}

impl Damage {
    /// The kind's name, as `--damage` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Damage::None => "none",
            Damage::Scan => "scan",
            Damage::Photo => "photo",
        }
    }
}

/// The page stage's plane projective transform, used here to warp pages.
pub use crate::page::geom::Homography;

/// The damaged image, the page-to-image map and the JPEG quality to save it with (None: PNG).
pub struct Damaged {
    /// The damaged image.
    pub image: Canvas,
    /// Page pixels to image pixels.
    pub map: Homography,
    /// The JPEG quality to save it with (None: PNG).
    pub jpeg_quality: Option<u8>,
}

/// Small deterministic hash noise in [-1, 1) for pixel `i` (cheaper than an RNG call a pixel).
#[inline]
fn hash_noise(i: u32, seed: u32) -> f32 {
    let mut x = i.wrapping_mul(0x9E37_79B9) ^ seed;
    x ^= x >> 16;
    x = x.wrapping_mul(0x7FEB_352D);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846C_A68B);
    x ^= x >> 16;
    (x >> 8) as f32 / (1u32 << 23) as f32 - 1.0
}

/// Applies `kind` to the clean page.
pub fn apply<R: Rng>(page: Canvas, kind: Damage, rng: &mut R) -> Damaged {
    match kind {
        Damage::None => Damaged { image: page, map: Homography::IDENTITY, jpeg_quality: None },
        Damage::Scan => scan(page, rng),
        Damage::Photo => photo(page, rng),
    }
}

fn paper_tone<R: Rng>(page: &mut Canvas, rng: &mut R) {
    let tone = [rng.gen_range(0.95..1.0f32), rng.gen_range(0.94..0.99), rng.gen_range(0.9..0.98)];
    let gain = tone.map(|t| (t * 256.0) as u32);
    for p in page.px.chunks_exact_mut(3) {
        for ch in 0..3 {
            p[ch] = ((p[ch] as u32 * gain[ch]) >> 8) as u8;
        }
    }
}

fn scan<R: Rng>(mut page: Canvas, rng: &mut R) -> Damaged {
    paper_tone(&mut page, rng);
    let (w, h) = (page.w as f64, page.h as f64);
    let angle = rng.gen_range(-5.0f64..5.0).to_radians();
    // The scanner bed is a little larger than the page; the page lies rotated, off-centre.
    let margin = rng.gen_range(0.01..0.04);
    let (ow, oh) = ((w * (1.0 + 2.0 * margin)) as usize, (h * (1.0 + 2.0 * margin)) as usize);
    let (s, c) = angle.sin_cos();
    let fit = (ow as f64 / (w * c.abs() + h * s.abs())).min(oh as f64 / (w * s.abs() + h * c.abs())).min(1.0) * 0.995;
    let (cx, cy) = (w / 2.0, h / 2.0);
    let slack_x = (ow as f64 - fit * (w * c.abs() + h * s.abs())).max(0.0) / 2.0;
    let slack_y = (oh as f64 - fit * (w * s.abs() + h * c.abs())).max(0.0) / 2.0;
    let (ocx, ocy) = (
        ow as f64 / 2.0 + rng.gen_range(-1.0..1.0) * slack_x * 0.8,
        oh as f64 / 2.0 + rng.gen_range(-1.0..1.0) * slack_y * 0.8,
    );
    let map = Homography([
        fit * c,
        -fit * s,
        ocx - fit * (c * cx - s * cy),
        fit * s,
        fit * c,
        ocy - fit * (s * cx + c * cy),
        0.0,
        0.0,
        1.0,
    ]);
    let bed = if rng.gen_bool(0.7) {
        let g = rng.gen_range(225..252u8);
        [g, g, g.saturating_sub(3)]
    } else {
        let g = rng.gen_range(25..70u8);
        [g, g, g]
    };
    let mut image = warp(&page, &map, ow, oh, |_, _| bed);
    blur(&mut image, rng.gen_range(0..=1));
    let noise = rng.gen_range(2.0..7.0);
    add_noise(&mut image, noise, rng.r#gen());
    Damaged { image, map, jpeg_quality: Some(rng.gen_range(55..88)) }
}

fn photo<R: Rng>(mut page: Canvas, rng: &mut R) -> Damaged {
    paper_tone(&mut page, rng);
    let (w, h) = (page.w as f64, page.h as f64);
    let (ow, oh) = ((w * rng.gen_range(1.08..1.2)) as usize, (h * rng.gen_range(1.06..1.15)) as usize);
    // Perspective: the page seen up to ~15 degrees off square, rotated a little, somewhere in the frame.
    let tilt_x = rng.gen_range(-15.0f64..15.0).to_radians().sin() * 0.35;
    let tilt_y = rng.gen_range(-15.0f64..15.0).to_radians().sin() * 0.35;
    let rot = rng.gen_range(-6.0f64..6.0).to_radians();
    let scale = rng.gen_range(0.8..0.9) * (ow as f64 / w).min(oh as f64 / h);
    let src = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)];
    let mut dst = [(0.0, 0.0); 4];
    for (i, &(x, y)) in src.iter().enumerate() {
        let (u, v) = ((x / w - 0.5) * 2.0, (y / h - 0.5) * 2.0);
        // A tilt makes one edge nearer (larger) than the other.
        let k = 1.0 + tilt_x * u + tilt_y * v;
        let (px, py) = (u * w / 2.0 * k * scale, v * h / 2.0 * k * scale);
        let (s, c) = rot.sin_cos();
        let jitter = (rng.gen_range(-0.008..0.008) * w, rng.gen_range(-0.008..0.008) * h);
        dst[i] = (px * c - py * s + jitter.0, px * s + py * c + jitter.1);
    }
    // Centre the quadrilateral in the frame with a random offset that keeps it inside (a tilt
    // can make the near edge wider than the frame: the page is then shown a little smaller).
    let extent = |dst: &[(f64, f64); 4]| {
        let (minx, maxx) = dst.iter().fold((f64::MAX, f64::MIN), |a, p| (a.0.min(p.0), a.1.max(p.0)));
        let (miny, maxy) = dst.iter().fold((f64::MAX, f64::MIN), |a, p| (a.0.min(p.1), a.1.max(p.1)));
        (minx, maxx, miny, maxy)
    };
    let (minx, maxx, miny, maxy) = extent(&dst);
    let fits = (0.98 * ow as f64 / (maxx - minx)).min(0.98 * oh as f64 / (maxy - miny));
    if fits < 1.0 {
        for p in &mut dst {
            *p = (p.0 * fits, p.1 * fits);
        }
    }
    let (minx, maxx, miny, maxy) = extent(&dst);
    let room_x = (ow as f64 - (maxx - minx)).max(0.0);
    let room_y = (oh as f64 - (maxy - miny)).max(0.0);
    let ox = -minx + room_x * rng.gen_range(0.2..0.8);
    let oy = -miny + room_y * rng.gen_range(0.2..0.8);
    for p in &mut dst {
        p.0 += ox;
        p.1 += oy;
    }
    let map = Homography::from_points(&src, &dst).unwrap_or(Homography::IDENTITY);
    // Background: a table top (wood, dark cloth, grey desk) with a gradient and grain.
    let base: [f32; 3] = match rng.gen_range(0..4) {
        0 => [120.0, 85.0, 55.0],
        1 => [60.0, 60.0, 65.0],
        2 => [150.0, 150.0, 145.0],
        _ => [95.0, 70.0, 50.0],
    };
    // Grain along one axis (a column table shifted a little per row), plus fine noise.
    let grain_f = rng.gen_range(0.02..0.08f32);
    let grain_a = if base[0] > base[2] + 20.0 { rng.gen_range(2.0..5.0f32) } else { 0.0 };
    let gseed: u32 = rng.r#gen();
    let cols: Vec<f32> = (0..ow + 64).map(|x| (x as f32 * grain_f).sin() * grain_a).collect();
    let shift: Vec<usize> = (0..oh).map(|y| (((y as f32 * 0.004).sin() + 1.0) * 30.0) as usize).collect();
    let bg = move |x: usize, y: usize| {
        let g = cols[x + shift[y]] + hash_noise(((y as u32) << 12) ^ (x as u32), gseed) * 4.0;
        let t = y as f32 * 0.008;
        [
            (base[0] + g - t).clamp(0.0, 255.0) as u8,
            (base[1] + g - t).clamp(0.0, 255.0) as u8,
            (base[2] + g * 0.8 - t).clamp(0.0, 255.0) as u8,
        ]
    };
    let mut image = warp(&page, &map, ow, oh, bg);
    lighting(&mut image, rng);
    blur(&mut image, if rng.gen_bool(0.3) { 2 } else { 1 });
    let noise = rng.gen_range(2.0..6.0);
    add_noise(&mut image, noise, rng.r#gen());
    Damaged { image, map, jpeg_quality: Some(rng.gen_range(70..92)) }
}

/// Resamples the page through `map` (page -> image) onto a `ow` x `oh` image (bilinear).
fn warp(page: &Canvas, map: &Homography, ow: usize, oh: usize, bg: impl Fn(usize, usize) -> [u8; 3]) -> Canvas {
    let inv = map.inverse().unwrap_or(Homography::IDENTITY).0;
    let mut out = Canvas { w: ow, h: oh, ox: 0, oy: 0, px: vec![0; ow * oh * 3] };
    let (pw, ph) = (page.w as i64, page.h as i64);
    let inv = inv.map(|v| v as f32);
    for y in 0..oh {
        let yf = y as f32 + 0.5;
        let (bx, by, bw) = (inv[1] * yf + inv[2], inv[4] * yf + inv[5], inv[7] * yf + inv[8]);
        let row = &mut out.px[y * ow * 3..(y + 1) * ow * 3];
        for x in 0..ow {
            let xf = x as f32 + 0.5;
            let wz = 1.0 / (inv[6] * xf + bw);
            let sx = (inv[0] * xf + bx) * wz - 0.5;
            let sy = (inv[3] * xf + by) * wz - 0.5;
            let o = x * 3;
            let (x0, y0) = (sx.floor() as i64, sy.floor() as i64);
            if x0 < -1 || y0 < -1 || x0 >= pw || y0 >= ph {
                row[o..o + 3].copy_from_slice(&bg(x, y));
                continue;
            }
            let (fx, fy) = (sx - x0 as f32, sy - y0 as f32);
            if x0 >= 0 && y0 >= 0 && x0 + 1 < pw && y0 + 1 < ph {
                let i00 = (y0 as usize * page.w + x0 as usize) * 3;
                let i10 = i00 + page.w * 3;
                let p = &page.px;
                for ch in 0..3 {
                    let top = p[i00 + ch] as f32 * (1.0 - fx) + p[i00 + 3 + ch] as f32 * fx;
                    let bot = p[i10 + ch] as f32 * (1.0 - fx) + p[i10 + 3 + ch] as f32 * fx;
                    row[o + ch] = (top * (1.0 - fy) + bot * fy) as u8;
                }
                continue;
            }
            let b = bg(x, y);
            let get = |xx: i64, yy: i64, ch: usize| -> f32 {
                if xx < 0 || yy < 0 || xx >= pw || yy >= ph {
                    b[ch] as f32
                } else {
                    page.px[(yy as usize * page.w + xx as usize) * 3 + ch] as f32
                }
            };
            for ch in 0..3 {
                let top = get(x0, y0, ch) * (1.0 - fx) + get(x0 + 1, y0, ch) * fx;
                let bot = get(x0, y0 + 1, ch) * (1.0 - fx) + get(x0 + 1, y0 + 1, ch) * fx;
                row[o + ch] = (top * (1.0 - fy) + bot * fy) as u8;
            }
        }
    }
    out
}

/// Uneven light: a broad gradient, a soft shadow band (a hand or phone), a slight colour cast.
fn lighting<R: Rng>(img: &mut Canvas, rng: &mut R) {
    let (w, h) = (img.w as f32, img.h as f32);
    let gx = rng.gen_range(-0.25..0.25f32);
    let gy = rng.gen_range(-0.25..0.25f32);
    let base = rng.gen_range(0.85..1.05f32);
    let cast = [rng.gen_range(0.95..1.05f32), 1.0, rng.gen_range(0.88..1.02)];
    // Shadow: a half-plane with soft edge.
    let shadow = rng.gen_bool(0.6);
    let ang = rng.gen_range(0.0..std::f32::consts::TAU);
    let (nx, ny) = (ang.cos(), ang.sin());
    let off = rng.gen_range(0.25..0.5) * (w.min(h));
    let depth = rng.gen_range(0.15..0.4f32);
    let soft = rng.gen_range(0.03..0.12) * w;
    let (cx, cy) = (w / 2.0, h / 2.0);
    // Work on a coarse grid and interpolate rows: light varies slowly.
    let step = 8usize;
    let gw = img.w / step + 2;
    let gh = img.h / step + 2;
    let mut grid = vec![0.0f32; gw * gh];
    for j in 0..gh {
        for i in 0..gw {
            let (x, y) = ((i * step) as f32, (j * step) as f32);
            let mut l = base + gx * (x / w - 0.5) + gy * (y / h - 0.5);
            let r2 = ((x - cx) / w).powi(2) + ((y - cy) / h).powi(2);
            l *= 1.0 - 0.35 * r2; // vignette
            if shadow {
                let d = (x - cx) * nx + (y - cy) * ny - off;
                let t = (d / soft).clamp(-1.0, 1.0) * 0.5 + 0.5;
                l *= 1.0 - depth * t;
            }
            grid[j * gw + i] = l;
        }
    }
    for y in 0..img.h {
        let (j, fy) = (y / step, (y % step) as f32 / step as f32);
        for x in 0..img.w {
            let (i, fx) = (x / step, (x % step) as f32 / step as f32);
            let a = grid[j * gw + i] * (1.0 - fx) + grid[j * gw + i + 1] * fx;
            let b = grid[(j + 1) * gw + i] * (1.0 - fx) + grid[(j + 1) * gw + i + 1] * fx;
            let l = a * (1.0 - fy) + b * fy;
            let o = (y * img.w + x) * 3;
            for ch in 0..3 {
                img.px[o + ch] = (img.px[o + ch] as f32 * l * cast[ch]).min(255.0) as u8;
            }
        }
    }
}

/// Separable box blur of radius `r` (0: none), twice for a softer, Gaussian-like kernel when r > 1.
pub fn blur(img: &mut Canvas, r: usize) {
    if r == 0 {
        return;
    }
    let passes = if r > 1 { 2 } else { 1 };
    let r = if r > 1 { r - 1 } else { r };
    for _ in 0..passes {
        box_pass(img, r, true);
        box_pass(img, r, false);
    }
}

fn box_pass(img: &mut Canvas, r: usize, horizontal: bool) {
    if horizontal { box_rows(img, r) } else { box_cols(img, r) }
}

/// Horizontal box filter, one row at a time, with a running sum.
fn box_rows(img: &mut Canvas, r: usize) {
    let w = img.w;
    let inv = (1u32 << 16) / (2 * r + 1) as u32 + 1;
    let mut buf = vec![0u8; w * 3];
    for row in img.px.chunks_exact_mut(w * 3) {
        buf.copy_from_slice(row);
        let mut acc = [0u32; 3];
        for k in 0..=2 * r {
            let kk = k.saturating_sub(r).min(w - 1) * 3;
            for ch in 0..3 {
                acc[ch] += buf[kk + ch] as u32;
            }
        }
        for k in 0..w {
            let add = (k + r + 1).min(w - 1) * 3;
            let sub = k.saturating_sub(r) * 3;
            for ch in 0..3 {
                row[k * 3 + ch] = ((acc[ch] * inv) >> 16).min(255) as u8;
                acc[ch] = acc[ch] + buf[add + ch] as u32 - buf[sub + ch] as u32;
            }
        }
    }
}

/// Vertical box filter: running sums over whole rows, so memory is read in order.
fn box_cols(img: &mut Canvas, r: usize) {
    let (w, h) = (img.w, img.h);
    let stride = w * 3;
    let inv = (1u32 << 16) / (2 * r + 1) as u32 + 1;
    let src = img.px.clone();
    let row = |y: usize| &src[y * stride..(y + 1) * stride];
    let mut acc = vec![0u32; stride];
    for k in 0..=2 * r {
        let yy = k.saturating_sub(r).min(h - 1);
        for (a, &v) in acc.iter_mut().zip(row(yy)) {
            *a += v as u32;
        }
    }
    for y in 0..h {
        let out = &mut img.px[y * stride..(y + 1) * stride];
        let (add, sub) = (row((y + r + 1).min(h - 1)), row(y.saturating_sub(r)));
        for (((o, a), &ad), &su) in out.iter_mut().zip(acc.iter_mut()).zip(add).zip(sub) {
            *o = ((*a * inv) >> 16).min(255) as u8;
            *a = *a + ad as u32 - su as u32;
        }
    }
}

/// Adds sensor noise of about `sigma` grey levels.
pub fn add_noise(img: &mut Canvas, sigma: f32, seed: u32) {
    for (i, p) in img.px.chunks_exact_mut(3).enumerate() {
        let n = hash_noise(i as u32, seed) * sigma * 1.7;
        let c = hash_noise(i as u32, seed ^ 0x5bd1_e995) * sigma * 0.4;
        p[0] = (p[0] as f32 + n + c).clamp(0.0, 255.0) as u8;
        p[1] = (p[1] as f32 + n).clamp(0.0, 255.0) as u8;
        p[2] = (p[2] as f32 + n - c).clamp(0.0, 255.0) as u8;
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;

    #[test]
    fn a_photo_shows_the_whole_page() {
        for seed in 0..300 {
            let mut rng = StdRng::seed_from_u64(seed);
            let page = Canvas::new(60, 80, [255, 255, 255]);
            let photo = photo(page, &mut rng);
            let (ow, oh) = (photo.image.w as f64, photo.image.h as f64);
            for (x, y) in [(0.0, 0.0), (60.0, 0.0), (60.0, 80.0), (0.0, 80.0)] {
                let (u, v) = photo.map.apply(x, y);
                assert!(
                    (0.0..=ow).contains(&u) && (0.0..=oh).contains(&v),
                    "seed {seed}: corner {x},{y} at {u:.1},{v:.1}"
                );
            }
        }
    }
}
