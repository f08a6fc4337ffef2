//! Plane geometry: 3x3 homographies, point mapping, warping.

use image::GrayImage;

/// A plane projective transform (row-major 3x3 matrix) mapping `(x, y)` to
/// `((m0 x + m1 y + m2) / w, (m3 x + m4 y + m5) / w)` with `w = m6 x + m7 y + m8`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Homography(pub [f64; 9]);

impl Homography {
    /// The identity transform.
    pub const IDENTITY: Homography = Homography([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);

    /// Uniform scaling by `s`.
    pub fn scale(s: f64) -> Homography {
        Homography([s, 0.0, 0.0, 0.0, s, 0.0, 0.0, 0.0, 1.0])
    }

    /// Translation by `(dx, dy)`.
    pub fn translate(dx: f64, dy: f64) -> Homography {
        Homography([1.0, 0.0, dx, 0.0, 1.0, dy, 0.0, 0.0, 1.0])
    }

    /// Rotation by `deg` degrees (counter-clockwise in image coordinates with y down means
    /// clockwise on screen) about the origin.
    pub fn rotate_deg(deg: f64) -> Homography {
        let (s, c) = deg.to_radians().sin_cos();
        Homography([c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0])
    }

    /// `self` after `first`: the transform mapping `p` to `self(first(p))`.
    pub fn after(&self, first: &Homography) -> Homography {
        let a = &self.0;
        let b = &first.0;
        let mut m = [0.0; 9];
        for r in 0..3 {
            for c in 0..3 {
                m[r * 3 + c] = (0..3).map(|k| a[r * 3 + k] * b[k * 3 + c]).sum();
            }
        }
        Homography(m)
    }

    /// Maps one point.
    pub fn apply(&self, x: f64, y: f64) -> (f64, f64) {
        let m = &self.0;
        let w = m[6] * x + m[7] * y + m[8];
        let w = if w.abs() < 1e-12 { 1e-12 } else { w };
        ((m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w)
    }

    /// The inverse transform, or `None` when singular.
    pub fn inverse(&self) -> Option<Homography> {
        let m = &self.0;
        let det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
            + m[2] * (m[3] * m[7] - m[4] * m[6]);
        if det.abs() < 1e-15 {
            return None;
        }
        let inv = [
            (m[4] * m[8] - m[5] * m[7]) / det,
            (m[2] * m[7] - m[1] * m[8]) / det,
            (m[1] * m[5] - m[2] * m[4]) / det,
            (m[5] * m[6] - m[3] * m[8]) / det,
            (m[0] * m[8] - m[2] * m[6]) / det,
            (m[2] * m[3] - m[0] * m[5]) / det,
            (m[3] * m[7] - m[4] * m[6]) / det,
            (m[1] * m[6] - m[0] * m[7]) / det,
            (m[0] * m[4] - m[1] * m[3]) / det,
        ];
        Some(Homography(inv))
    }

    /// The transform taking the four points `src` onto `dst`, or `None` when degenerate.
    pub fn from_points(src: &[(f64, f64); 4], dst: &[(f64, f64); 4]) -> Option<Homography> {
        let mut a = [[0.0f64; 9]; 8];
        for i in 0..4 {
            let (x, y) = src[i];
            let (u, v) = dst[i];
            a[2 * i] = [x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y, u];
            a[2 * i + 1] = [0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y, v];
        }
        // Gaussian elimination with partial pivoting on the 8x8 system.
        for col in 0..8 {
            let piv = (col..8).max_by(|&p, &q| a[p][col].abs().total_cmp(&a[q][col].abs()))?;
            if a[piv][col].abs() < 1e-12 {
                return None;
            }
            a.swap(col, piv);
            for r in 0..8 {
                if r != col {
                    let f = a[r][col] / a[col][col];
                    if f != 0.0 {
                        let pivot_row = a[col];
                        for (x, p) in a[r].iter_mut().zip(pivot_row.iter()).skip(col) {
                            *x -= f * p;
                        }
                    }
                }
            }
        }
        let mut m = [0.0; 9];
        for i in 0..8 {
            m[i] = a[i][8] / a[i][i];
        }
        m[8] = 1.0;
        Some(Homography(m))
    }
}

/// Axis-aligned bounding box `[x0, y0, x1, y1]` of the quadrilateral `[x0,y0,x1,y1]` mapped by `h`.
pub fn map_box(h: &Homography, b: [f64; 4]) -> [f64; 4] {
    let pts = [(b[0], b[1]), (b[2], b[1]), (b[2], b[3]), (b[0], b[3])];
    let mut out = [f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY];
    for (x, y) in pts {
        let (u, v) = h.apply(x, y);
        out[0] = out[0].min(u);
        out[1] = out[1].min(v);
        out[2] = out[2].max(u);
        out[3] = out[3].max(v);
    }
    out
}

/// Bits of fraction in the fixed-point source positions of [`row_positions`].
pub const FRACTION_BITS: u32 = 16;

/// Output pixels between the source positions [`row_positions`] maps exactly; those between
/// follow a straight line (a photo's perspective bends it by a few thousandths of a pixel over
/// this span).
const EXACT_EVERY: i64 = 1 << EXACT_EVERY_BITS;
const EXACT_EVERY_BITS: u32 = 4;

/// The source positions `to_src` maps the output pixels `(x + offset, y + offset)` of row `y`
/// to, `x` in `0..w`, in fixed point with [`FRACTION_BITS`] bits of fraction, into `out`.
/// Exact every 16 pixels (`EXACT_EVERY`) and interpolated between: warping then needs no division
/// a pixel.
pub fn row_positions(to_src: &Homography, y: usize, offset: f64, w: usize, out: &mut Vec<(i64, i64)>) {
    out.clear();
    out.resize(w, (0, 0));
    // (clamped far outside any image, so that the steps between cannot overflow)
    let fixed = |v: f64| (v * (1u64 << FRACTION_BITS) as f64).clamp(-1e15, 1e15) as i64;
    let exact = |x: usize| {
        let (sx, sy) = to_src.apply(x as f64 + offset, y as f64 + offset);
        (fixed(sx), fixed(sy))
    };
    let mut from = exact(0);
    for (span, positions) in out.chunks_mut(EXACT_EVERY as usize).enumerate() {
        let to = exact((span + 1) * EXACT_EVERY as usize);
        // (in 16ths of the fixed point: the steps add up to the next exact position; the shift
        // divides rounding down, as `div_euclid` by a power of two does)
        let (mut x, mut y) = (from.0 * EXACT_EVERY, from.1 * EXACT_EVERY);
        let (step_x, step_y) = (to.0 - from.0, to.1 - from.1);
        for position in positions {
            *position = (x >> EXACT_EVERY_BITS, y >> EXACT_EVERY_BITS);
            x += step_x;
            y += step_y;
        }
        from = to;
    }
}

/// Warps `src` into a `w` x `h` image: output pixel `p` takes the bilinear sample of `src` at
/// `to_src(p)`; outside samples are white.
pub fn warp_gray(src: &GrayImage, to_src: &Homography, w: u32, h: u32) -> GrayImage {
    let (sw, sh) = (src.width() as usize, src.height() as usize);
    let data = src.as_raw();
    let (w, h) = (w as usize, h as usize);
    let mut out = vec![255u8; w * h];
    let mut positions = Vec::with_capacity(w);
    for (y, row) in out.chunks_exact_mut(w.max(1)).enumerate().take(h) {
        row_positions(to_src, y, 0.0, w, &mut positions);
        for (px, &(sx, sy)) in row.iter_mut().zip(&positions) {
            if sx < 0 || sy < 0 {
                continue;
            }
            let (x0, y0) = ((sx >> FRACTION_BITS) as usize, (sy >> FRACTION_BITS) as usize);
            if x0 + 1 >= sw || y0 + 1 >= sh {
                if x0 < sw && y0 < sh {
                    *px = data[y0 * sw + x0];
                }
                continue;
            }
            // (the sample's place between its four pixels, in the positions' fixed point: the
            // sums are exact, as they would be in floating point)
            let fraction = (1i64 << FRACTION_BITS) - 1;
            let (ax, ay) = (sx & fraction, sy & fraction);
            let i = y0 * sw + x0;
            let (upper, lower) = (&data[i..i + 2], &data[i + sw..i + sw + 2]);
            let lerp = |a: u8, b: u8, t: i64| ((a as i64) << FRACTION_BITS) + (b as i64 - a as i64) * t;
            let (top, bottom) = (lerp(upper[0], upper[1], ax), lerp(lower[0], lower[1], ax));
            let value = (top << FRACTION_BITS) + (bottom - top) * ay;
            *px = ((value + (1 << (2 * FRACTION_BITS - 1))) >> (2 * FRACTION_BITS)) as u8;
        }
    }
    GrayImage::from_raw(w as u32, h as u32, out).expect("buffer of w x h pixels")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_positions_follow_a_perspective_within_a_hundredth_of_a_pixel() {
        let src = [(10.0, 20.0), (700.0, 5.0), (720.0, 900.0), (0.0, 870.0)];
        let dst = [(0.0, 0.0), (725.0, 0.0), (725.0, 880.0), (0.0, 880.0)];
        let to_src = Homography::from_points(&dst, &src).unwrap();
        let mut positions = Vec::new();
        for y in [0, 437, 879] {
            row_positions(&to_src, y, 0.5, 725, &mut positions);
            assert_eq!(positions.len(), 725);
            for (x, &(sx, sy)) in positions.iter().enumerate() {
                let (ex, ey) = to_src.apply(x as f64 + 0.5, y as f64 + 0.5);
                let one = (1u64 << FRACTION_BITS) as f64;
                assert!((sx as f64 / one - ex).abs() < 0.01 && (sy as f64 / one - ey).abs() < 0.01, "{x},{y}");
            }
        }
    }

    #[test]
    fn warping_samples_between_pixels_and_leaves_outside_white() {
        let src = GrayImage::from_fn(8, 8, |x, y| image::Luma([(x * 20 + y * 10) as u8]));
        assert_eq!(warp_gray(&src, &Homography::IDENTITY, 8, 8), src);
        // half a pixel right: the mean of two neighbours, 70 and 90 at (2, 3) and (3, 3); a
        // quarter down as well: a quarter of the way to the row below's 80 and 100
        let half_right = warp_gray(&src, &Homography::translate(0.5, 0.0), 7, 8);
        assert_eq!(half_right.get_pixel(2, 3)[0], 80);
        let and_down = warp_gray(&src, &Homography::translate(0.5, 0.25), 7, 7);
        assert_eq!(and_down.get_pixel(2, 3)[0], 83);
        let shifted_out = warp_gray(&src, &Homography::translate(-3.0, 0.0), 8, 8);
        assert_eq!(shifted_out.get_pixel(1, 1)[0], 255);
        assert_eq!(shifted_out.get_pixel(5, 1)[0], src.get_pixel(2, 1)[0]);
    }

    #[test]
    fn four_point_homography_round_trips() {
        let src = [(10.0, 20.0), (300.0, 30.0), (310.0, 400.0), (5.0, 380.0)];
        let dst = [(0.0, 0.0), (300.0, 0.0), (300.0, 400.0), (0.0, 400.0)];
        let h = Homography::from_points(&src, &dst).unwrap();
        for i in 0..4 {
            let (u, v) = h.apply(src[i].0, src[i].1);
            assert!((u - dst[i].0).abs() < 1e-6 && (v - dst[i].1).abs() < 1e-6);
        }
        let inv = h.inverse().unwrap();
        let (x, y) = inv.apply(150.0, 200.0);
        let (u, v) = h.apply(x, y);
        assert!((u - 150.0).abs() < 1e-6 && (v - 200.0).abs() < 1e-6);
    }
}
