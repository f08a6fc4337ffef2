//! Loading scans: PNG, JPEG, GIF (its first frame), BMP, WebP, TIFF (every page of a multi-page
//! TIFF) and scanned PDFs, with decoding limits so that a huge or malformed file is an error, not an out-of-memory.

use std::io::{BufReader, Cursor};
use std::path::Path;

use image::{DynamicImage, ImageFormat, ImageReader, Limits};

/// Largest image side accepted, in pixels.
pub const MAX_SIDE: u32 = 16_000;
/// Largest decoded image accepted, in bytes.
pub const MAX_BYTES: u64 = 512 << 20;
/// Largest input file read, in bytes.
pub const MAX_FILE: u64 = 400 << 20;

fn limits() -> Limits {
    let mut l = Limits::default();
    l.max_image_width = Some(MAX_SIDE);
    l.max_image_height = Some(MAX_SIDE);
    l.max_alloc = Some(MAX_BYTES);
    l
}

/// Every page image of the file at `path`: one for PNG, JPEG, GIF, BMP and WebP, one per page
/// for TIFF and PDF.
/// The outer error means the file as a whole cannot be read; an inner one, that one page cannot.
pub fn load_pages(path: &Path) -> Result<Vec<Result<DynamicImage, String>>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot open: {e}"))?;
    if meta.len() == 0 {
        return Err("the file is empty".into());
    }
    if meta.len() > MAX_FILE {
        return Err(format!("the file is too large ({} MB; at most {} MB)", meta.len() >> 20, MAX_FILE >> 20));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    pages_from_bytes(bytes)
}

/// Every page image of a file held in memory (as [`load_pages`]).
pub fn pages_from_bytes(bytes: Vec<u8>) -> Result<Vec<Result<DynamicImage, String>>, String> {
    if bytes.is_empty() {
        return Err("the file is empty".into());
    }
    if bytes.starts_with(b"%PDF") {
        return super::pdf::pdf_pages(&bytes);
    }
    let format =
        image::guess_format(&bytes).map_err(|_| "not an image (PNG, JPEG, GIF, BMP, WebP, TIFF) or PDF".to_string())?;
    if format == ImageFormat::Tiff {
        return tiff_pages(&bytes);
    }
    if !matches!(format, ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Gif | ImageFormat::Bmp | ImageFormat::WebP)
    {
        return Err(format!("{format:?} images are not supported (use PNG, JPEG, GIF, BMP, WebP, TIFF or PDF)"));
    }
    if format == ImageFormat::Jpeg && !jpeg_is_complete(&bytes) {
        // The JPEG decoder fills a cut-off file with grey instead of failing.
        return Err("the JPEG file is truncated (it ends before its end-of-image marker)".into());
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits());
    let img = reader.decode().map_err(|e| format!("cannot decode the image: {e}"))?;
    Ok(vec![check(img)])
}

/// Whether a JPEG file holds its end-of-image marker (FF D9) near its end (some writers add a few
/// bytes after it).
fn jpeg_is_complete(bytes: &[u8]) -> bool {
    let tail = &bytes[bytes.len().saturating_sub(4096)..];
    tail.windows(2).any(|w| w == [0xFF, 0xD9])
}

fn check(img: DynamicImage) -> Result<DynamicImage, String> {
    if img.width() < 16 || img.height() < 16 {
        return Err(format!("the image is too small ({}x{} pixels)", img.width(), img.height()));
    }
    Ok(img)
}

fn tiff_pages(bytes: &[u8]) -> Result<Vec<Result<DynamicImage, String>>, String> {
    use tiff::decoder::{Decoder, DecodingResult, Limits as TiffLimits};
    let mut limits = TiffLimits::default();
    limits.decoding_buffer_size = MAX_BYTES as usize;
    limits.intermediate_buffer_size = MAX_BYTES as usize;
    let mut dec = Decoder::new(BufReader::new(Cursor::new(bytes)))
        .map_err(|e| format!("cannot decode the TIFF: {e}"))?
        .with_limits(limits);
    let mut pages = Vec::new();
    loop {
        let page = (|| -> Result<DynamicImage, String> {
            let (w, h) = dec.dimensions().map_err(|e| e.to_string())?;
            if w > MAX_SIDE || h > MAX_SIDE {
                return Err(format!("page of {w}x{h} pixels is too large"));
            }
            let color = dec.colortype().map_err(|e| e.to_string())?;
            let data = dec.read_image().map_err(|e| e.to_string())?;
            let img = match (color, data) {
                (tiff::ColorType::Gray(8), DecodingResult::U8(d)) => {
                    image::GrayImage::from_raw(w, h, d).map(DynamicImage::ImageLuma8)
                }
                (tiff::ColorType::RGB(8), DecodingResult::U8(d)) => {
                    image::RgbImage::from_raw(w, h, d).map(DynamicImage::ImageRgb8)
                }
                (tiff::ColorType::RGBA(8), DecodingResult::U8(d)) => {
                    image::RgbaImage::from_raw(w, h, d).map(DynamicImage::ImageRgba8)
                }
                (tiff::ColorType::Gray(16), DecodingResult::U16(d)) => {
                    image::ImageBuffer::from_raw(w, h, d).map(DynamicImage::ImageLuma16)
                }
                (tiff::ColorType::Gray(1), DecodingResult::U8(d)) => {
                    // Bilevel pages come unpacked as 0/1 per pixel, or packed by rows.
                    let (wu, hu) = (w as usize, h as usize);
                    if d.len() >= wu * hu {
                        image::GrayImage::from_raw(
                            w,
                            h,
                            d[..wu * hu].iter().map(|&v| if v > 0 { 255 } else { 0 }).collect(),
                        )
                        .map(DynamicImage::ImageLuma8)
                    } else {
                        let row = wu.div_ceil(8);
                        let g: image::GrayImage = image::GrayImage::from_fn(w, h, |x, y| {
                            let byte = d.get(y as usize * row + x as usize / 8).copied().unwrap_or(0);
                            image::Luma([if (byte >> (7 - x % 8)) & 1 == 1 { 255 } else { 0 }])
                        });
                        Some(DynamicImage::ImageLuma8(g))
                    }
                }
                (c, _) => return Err(format!("TIFF colour type {c:?} is not supported")),
            };
            img.ok_or_else(|| "TIFF page data is truncated".to_string()).and_then(check)
        })();
        pages.push(page);
        if !dec.more_images() {
            break;
        }
        if let Err(e) = dec.next_image() {
            pages.push(Err(format!("cannot read the next TIFF page: {e}")));
            break;
        }
        if pages.len() > 500 {
            return Err("the TIFF has more than 500 pages".into());
        }
    }
    Ok(pages)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let p = std::env::temp_dir().join(format!("scoresheet-load-{}-{name}", std::process::id()));
        std::fs::write(&p, bytes).unwrap();
        p
    }

    /// GIF, BMP and WebP (lossless) files give the pixels the PNG of the same image gives.
    #[test]
    fn gif_bmp_and_webp_read_like_png() {
        let img = DynamicImage::ImageRgb8(image::RgbImage::from_fn(64, 48, |x, y| {
            let v = ((x * 3 + y * 2) % 200) as u8;
            image::Rgb([v, v, v])
        }));
        let pixels = |fmt: ImageFormat, ext: &str| {
            let mut b = Vec::new();
            img.write_to(&mut Cursor::new(&mut b), fmt).unwrap();
            let p = tmp(&format!("same.{ext}"), &b);
            let mut pages = load_pages(&p).unwrap();
            std::fs::remove_file(p).ok();
            assert_eq!(pages.len(), 1, "{ext}");
            pages.remove(0).unwrap().to_luma8()
        };
        let png = pixels(ImageFormat::Png, "png");
        for (fmt, ext) in [(ImageFormat::Gif, "gif"), (ImageFormat::Bmp, "bmp"), (ImageFormat::WebP, "webp")] {
            assert!(pixels(fmt, ext) == png, "{ext} reads other pixels than the PNG");
        }
    }

    #[test]
    fn png_jpeg_and_multipage_tiff() {
        let img = DynamicImage::ImageLuma8(image::GrayImage::from_fn(64, 48, |x, y| image::Luma([(x + y) as u8])));
        for (fmt, ext) in [(ImageFormat::Png, "png"), (ImageFormat::Jpeg, "jpg")] {
            let mut b = Vec::new();
            img.write_to(&mut Cursor::new(&mut b), fmt).unwrap();
            let p = tmp(&format!("a.{ext}"), &b);
            let pages = load_pages(&p).unwrap();
            assert_eq!(pages.len(), 1);
            assert_eq!(pages[0].as_ref().unwrap().width(), 64);
            std::fs::remove_file(p).ok();
        }
        let mut b = Vec::new();
        {
            let mut enc = tiff::encoder::TiffEncoder::new(Cursor::new(&mut b)).unwrap();
            for shade in [10u8, 200] {
                let data = vec![shade; 64 * 48];
                enc.write_image::<tiff::encoder::colortype::Gray8>(64, 48, &data).unwrap();
            }
        }
        let p = tmp("b.tif", &b);
        let pages = load_pages(&p).unwrap();
        assert_eq!(pages.len(), 2);
        assert_eq!(pages[1].as_ref().unwrap().to_luma8().get_pixel(3, 3).0[0], 200);
        std::fs::remove_file(p).ok();
    }

    #[test]
    fn bad_files_are_errors() {
        let p = tmp("empty.png", b"");
        assert!(load_pages(&p).unwrap_err().contains("empty"));
        let p2 = tmp("text.png", b"hello, this is not an image at all");
        assert!(load_pages(&p2).unwrap_err().contains("not an image"));
        let mut b = Vec::new();
        DynamicImage::ImageLuma8(image::GrayImage::new(64, 48))
            .write_to(&mut Cursor::new(&mut b), ImageFormat::Png)
            .unwrap();
        let p3 = tmp("trunc.png", &b[..b.len() / 2]);
        assert!(load_pages(&p3).unwrap_err().contains("cannot decode"));
        // A PNG header claiming 100000 x 100000 pixels.
        let mut huge = b.clone();
        huge[16..20].copy_from_slice(&100_000u32.to_be_bytes());
        huge[20..24].copy_from_slice(&100_000u32.to_be_bytes());
        let p4 = tmp("huge.png", &huge);
        assert!(load_pages(&p4).is_err());
        // A JPEG cut off half-way decodes (grey-filled) but is reported as truncated.
        let mut j = Vec::new();
        DynamicImage::ImageLuma8(image::GrayImage::from_fn(64, 48, |x, _| image::Luma([x as u8 * 3])))
            .write_to(&mut Cursor::new(&mut j), ImageFormat::Jpeg)
            .unwrap();
        let p5 = tmp("cut.jpg", &j[..j.len() / 2]);
        assert!(load_pages(&p5).unwrap_err().contains("truncated"));
        assert!(load_pages(Path::new("/nonexistent.png")).unwrap_err().contains("cannot open"));
        for p in [p, p2, p3, p4, p5] {
            std::fs::remove_file(p).ok();
        }
    }
}
