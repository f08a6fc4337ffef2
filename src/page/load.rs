//! Loading page images (PNG, JPEG, GIF, BMP, WebP, TIFF with every page of a multi-page TIFF) with
//! decoding limits.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use image::{DynamicImage, GrayImage, ImageFormat, ImageReader, Limits, RgbImage, RgbaImage};

use super::PageError;

/// Largest accepted width or height, in pixels.
pub const MAX_SIDE: u32 = 20_000;
/// Largest accepted decoded size, in bytes.
pub const MAX_BYTES: u64 = 512 * 1024 * 1024;

/// Loads every page of the image file at `path` (one for PNG, JPEG, GIF, BMP and WebP, each page
/// of a TIFF).
///
/// Decoding is limited to [`MAX_SIDE`] pixels a side and [`MAX_BYTES`] bytes: a huge or malformed
/// file is an error naming the file, never an out-of-memory abort or a panic.
pub fn load(path: &Path) -> Result<Vec<DynamicImage>, PageError> {
    let file = |e: std::io::Error| PageError::Io { path: path.to_path_buf(), source: e };
    let reader = ImageReader::open(path).map_err(file)?.with_guessed_format().map_err(file)?;
    let format = reader.format().ok_or_else(|| PageError::Decode {
        path: path.to_path_buf(),
        reason: "not a recognised image format (PNG, JPEG, GIF, BMP, WebP or TIFF expected)".into(),
    })?;
    match format {
        ImageFormat::Tiff => load_tiff(path),
        ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Gif | ImageFormat::Bmp | ImageFormat::WebP => {
            let mut reader = reader;
            let mut limits = Limits::default();
            limits.max_image_width = Some(MAX_SIDE);
            limits.max_image_height = Some(MAX_SIDE);
            limits.max_alloc = Some(MAX_BYTES);
            reader.limits(limits);
            let img =
                reader.decode().map_err(|e| PageError::Decode { path: path.to_path_buf(), reason: e.to_string() })?;
            check_size(path, img.width(), img.height())?;
            Ok(vec![img])
        }
        other => Err(PageError::Decode {
            path: path.to_path_buf(),
            reason: format!("unsupported image format {other:?} (PNG, JPEG, GIF, BMP, WebP or TIFF expected)"),
        }),
    }
}

fn check_size(path: &Path, w: u32, h: u32) -> Result<(), PageError> {
    if w < 32 || h < 32 {
        return Err(PageError::Decode {
            path: path.to_path_buf(),
            reason: format!("image is only {w}x{h} pixels, too small for a scoresheet"),
        });
    }
    Ok(())
}

fn load_tiff(path: &Path) -> Result<Vec<DynamicImage>, PageError> {
    use tiff::ColorType;
    use tiff::decoder::{Decoder, DecodingResult, Limits as TLimits};
    let bad = |e: tiff::TiffError| PageError::Decode { path: path.to_path_buf(), reason: e.to_string() };
    let f = File::open(path).map_err(|e| PageError::Io { path: path.to_path_buf(), source: e })?;
    let mut limits = TLimits::default();
    limits.decoding_buffer_size = MAX_BYTES as usize;
    let mut dec = Decoder::new(BufReader::new(f)).map_err(bad)?.with_limits(limits);
    let mut pages = Vec::new();
    loop {
        let (w, h) = dec.dimensions().map_err(bad)?;
        if w > MAX_SIDE || h > MAX_SIDE {
            return Err(PageError::Decode {
                path: path.to_path_buf(),
                reason: format!("TIFF page {} is {w}x{h} pixels, more than {MAX_SIDE} a side", pages.len() + 1),
            });
        }
        check_size(path, w, h)?;
        let ct = dec.colortype().map_err(bad)?;
        let n = (w as usize) * (h as usize);
        let unsupported = || PageError::Decode {
            path: path.to_path_buf(),
            reason: format!("TIFF page {} has an unsupported colour type {ct:?}", pages.len() + 1),
        };
        let short = || PageError::Decode {
            path: path.to_path_buf(),
            reason: format!("TIFF page {} has truncated pixel data", pages.len() + 1),
        };
        let data = dec.read_image().map_err(bad)?;
        let bytes: Vec<u8> = match data {
            DecodingResult::U8(v) => v,
            DecodingResult::U16(v) => v.into_iter().map(|x| (x >> 8) as u8).collect(),
            _ => return Err(unsupported()),
        };
        let img = match ct {
            ColorType::Gray(_) => {
                let v = bytes.get(..n).ok_or_else(short)?.to_vec();
                DynamicImage::ImageLuma8(GrayImage::from_raw(w, h, v).ok_or_else(short)?)
            }
            ColorType::RGB(_) => {
                let v = bytes.get(..n * 3).ok_or_else(short)?.to_vec();
                DynamicImage::ImageRgb8(RgbImage::from_raw(w, h, v).ok_or_else(short)?)
            }
            ColorType::RGBA(_) => {
                let v = bytes.get(..n * 4).ok_or_else(short)?.to_vec();
                DynamicImage::ImageRgba8(RgbaImage::from_raw(w, h, v).ok_or_else(short)?)
            }
            ColorType::GrayA(_) => {
                let v = bytes.get(..n * 2).ok_or_else(short)?;
                let g: Vec<u8> = v.chunks_exact(2).map(|c| c[0]).collect();
                DynamicImage::ImageLuma8(GrayImage::from_raw(w, h, g).ok_or_else(short)?)
            }
            _ => return Err(unsupported()),
        };
        pages.push(img);
        if !dec.more_images() {
            break;
        }
        dec.next_image().map_err(bad)?;
    }
    Ok(pages)
}
