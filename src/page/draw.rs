//! Overlay picture: cell boxes and labels drawn on the straightened page; pictures written as PNG.

use std::io::Write as _;
use std::path::Path;

use image::codecs::png::PngEncoder;
use image::{ImageBuffer, ImageResult, Pixel, PixelWithColorType, Rgb, RgbImage};

use super::{Sheet, Side};

/// 3x5 bitmap glyphs for digits and the letters `w` and `b`.
fn glyph(c: char) -> [u8; 5] {
    match c {
        '0' => [7, 5, 5, 5, 7],
        '1' => [2, 6, 2, 2, 7],
        '2' => [7, 1, 7, 4, 7],
        '3' => [7, 1, 7, 1, 7],
        '4' => [5, 5, 7, 1, 1],
        '5' => [7, 4, 7, 1, 7],
        '6' => [7, 4, 7, 5, 7],
        '7' => [7, 1, 1, 2, 2],
        '8' => [7, 5, 7, 5, 7],
        '9' => [7, 5, 7, 1, 7],
        'w' => [0, 5, 5, 7, 5],
        'b' => [4, 4, 7, 5, 7],
        _ => [0; 5],
    }
}

fn text(img: &mut RgbImage, x: i64, y: i64, s: &str, scale: i64, col: Rgb<u8>) {
    for (i, c) in s.chars().enumerate() {
        let g = glyph(c);
        for (r, bits) in g.iter().enumerate() {
            for b in 0..3 {
                if bits & (4 >> b) != 0 {
                    for dy in 0..scale {
                        for dx in 0..scale {
                            let px = x + (i as i64 * 4 + b) * scale + dx;
                            let py = y + r as i64 * scale + dy;
                            if px >= 0 && py >= 0 && (px as u32) < img.width() && (py as u32) < img.height() {
                                img.put_pixel(px as u32, py as u32, col);
                            }
                        }
                    }
                }
            }
        }
    }
}

fn rect(img: &mut RgbImage, b: [f32; 4], col: Rgb<u8>) {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let (x0, y0, x1, y1) = (b[0] as i64, b[1] as i64, b[2] as i64, b[3] as i64);
    for t in 0..2 {
        for x in x0.max(0)..=x1.min(w - 1) {
            for y in [y0 + t, y1 - t] {
                if y >= 0 && y < h {
                    img.put_pixel(x as u32, y as u32, col);
                }
            }
        }
        for y in y0.max(0)..=y1.min(h - 1) {
            for x in [x0 + t, x1 - t] {
                if x >= 0 && x < w {
                    img.put_pixel(x as u32, y as u32, col);
                }
            }
        }
    }
}

/// Draws every cell's box (white moves blue, black moves red, blank cells thinner colours) and its
/// label (`12w`, `12b`) on a colour copy of the straightened page.
pub fn overlay(sheet: &Sheet) -> RgbImage {
    let mut img = image::DynamicImage::ImageLuma8(sheet.page.clone()).to_rgb8();
    for c in &sheet.cells {
        let col = match (c.side, c.blank) {
            (Side::White, false) => Rgb([0, 90, 255]),
            (Side::Black, false) => Rgb([230, 0, 0]),
            (Side::White, true) => Rgb([140, 190, 255]),
            (Side::Black, true) => Rgb([255, 160, 160]),
        };
        let b = c.box_straight;
        let inset = [b[0] + 3.0, b[1] + 3.0, b[2] - 3.0, b[3] - 3.0];
        rect(&mut img, inset, col);
        let scale = (((b[3] - b[1]) / 14.0).max(1.0)) as i64;
        let label = format!("{}{}", c.mv, if c.side == Side::White { 'w' } else { 'b' });
        text(&mut img, b[0] as i64 + 6, b[1] as i64 + 6, &label, scale, Rgb([0, 160, 0]));
    }
    img
}

/// Writes `img` to `path` as PNG, as `img.save(path)` does for a `.png` path. The PNG encoder is
/// named here: `save` picks the encoder by the file's extension, which links every format's
/// encoder (TIFF, WebP, GIF, BMP: about 150 kB of the user's binary) into the binary.
pub fn save_png<P>(img: &ImageBuffer<P, Vec<u8>>, path: &Path) -> ImageResult<()>
where
    P: Pixel<Subpixel = u8> + PixelWithColorType,
{
    let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
    img.write_with_encoder(PngEncoder::new(&mut file))?;
    file.flush()?;
    Ok(())
}
