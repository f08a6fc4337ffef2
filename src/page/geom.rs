//! Plane geometry: 3x3 homographies, point mapping, warping.

use image::{GrayImage, Luma};

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

/// Warps `src` into a `w` x `h` image: output pixel `p` takes the bilinear sample of `src` at
/// `to_src(p)`; outside samples are white.
pub fn warp_gray(src: &GrayImage, to_src: &Homography, w: u32, h: u32) -> GrayImage {
    let (sw, sh) = (src.width() as i64, src.height() as i64);
    let data = src.as_raw();
    let mut out = GrayImage::from_pixel(w, h, Luma([255]));
    let m = &to_src.0;
    let affine = m[6].abs() < 1e-12 && m[7].abs() < 1e-12;
    let buf: &mut [u8] = &mut out;
    // (an affine map whose last entry is 1 needs no division: x / 1 is x)
    let unit = affine && m[8] == 1.0;
    for y in 0..h as usize {
        let fy = y as f64;
        let row = &mut buf[y * w as usize..(y + 1) * w as usize];
        for (x, px) in row.iter_mut().enumerate() {
            let fx = x as f64;
            let (sx, sy) = if unit {
                (m[0] * fx + m[1] * fy + m[2], m[3] * fx + m[4] * fy + m[5])
            } else if affine {
                let d = m[8];
                ((m[0] * fx + m[1] * fy + m[2]) / d, (m[3] * fx + m[4] * fy + m[5]) / d)
            } else {
                to_src.apply(fx, fy)
            };
            if sx < 0.0 || sy < 0.0 {
                continue;
            }
            let x0 = sx as i64;
            let y0 = sy as i64;
            if x0 + 1 >= sw || y0 + 1 >= sh {
                if x0 < sw && y0 < sh {
                    *px = data[(y0 * sw + x0) as usize];
                }
                continue;
            }
            let ax = sx - x0 as f64;
            let ay = sy - y0 as f64;
            let i = (y0 * sw + x0) as usize;
            let p00 = data[i] as f64;
            let p01 = data[i + 1] as f64;
            let p10 = data[i + sw as usize] as f64;
            let p11 = data[i + sw as usize + 1] as f64;
            let top = p00 + (p01 - p00) * ax;
            let bot = p10 + (p11 - p10) * ax;
            *px = (top + (bot - top) * ay + 0.5) as u8;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
