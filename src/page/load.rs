//! Loading page images: PNG, JPEG, GIF (its first frame), BMP, WebP, TIFF (every page of a
//! multi-page TIFF) and scanned PDFs ([`super::pdf`]), with decoding limits so that a huge or
//! malformed file is an error, never an out-of-memory abort or a panic.
//!
//! `segment`, `read` and the Python bindings all load pages here, under the same limits.

use std::fmt;
use std::io::Cursor;
use std::path::Path;

use image::{DynamicImage, GrayImage, ImageFormat, ImageReader, Limits, RgbImage, RgbaImage};

use super::PageError;
use super::pdf::{PdfError, pdf_pages};

/// Largest accepted width or height of a page, in pixels.
pub const MAX_SIDE: u32 = 20_000;
/// Largest accepted decoded page, in bytes.
pub const MAX_BYTES: u64 = 512 << 20;
/// Largest input file read, in bytes.
pub const MAX_FILE: u64 = 400 << 20;
/// Most pages read from one TIFF.
const MAX_TIFF_PAGES: usize = 500;
/// Smallest accepted width or height of a page, in pixels.
const MIN_SIDE: u32 = 16;

/// Why a file, or one page of it, cannot be loaded. The messages name no file: the caller
/// knows it ([`PageError::Load`] adds it).
#[derive(Debug)]
pub enum LoadError {
    /// The file cannot be opened.
    Open(std::io::Error),
    /// The file cannot be read.
    Read(std::io::Error),
    /// The file is empty.
    Empty,
    /// The file is larger than [`MAX_FILE`].
    FileTooLarge {
        /// The file's size in bytes.
        bytes: u64,
    },
    /// The file is neither an image nor a PDF.
    NotAnImage,
    /// An image format that pages are not read from.
    UnsupportedFormat(ImageFormat),
    /// A JPEG file that ends before its end-of-image marker.
    TruncatedJpeg,
    /// The image decoder failed (a malformed file, or one beyond the decoding limits).
    Image(image::ImageError),
    /// The TIFF decoder failed on the file as a whole.
    Tiff(tiff::TiffError),
    /// The TIFF decoder failed on one page.
    TiffPage(tiff::TiffError),
    /// A TIFF page's colour type is not one pages are read in.
    TiffColour(tiff::ColorType),
    /// A TIFF page holds fewer pixels than its size says.
    TiffTruncated,
    /// The next page of a TIFF cannot be found.
    TiffNextPage(tiff::TiffError),
    /// A TIFF of more than 500 pages.
    TooManyPages,
    /// A page larger than [`MAX_SIDE`] a side.
    PageTooLarge {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// A page too small to hold a scoresheet.
    PageTooSmall {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// A PDF, or one of its pages, cannot be read.
    Pdf(PdfError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Open(e) => write!(f, "cannot open: {e}"),
            LoadError::Read(e) => write!(f, "cannot read: {e}"),
            LoadError::Empty => write!(f, "the file is empty"),
            LoadError::FileTooLarge { bytes } => {
                write!(f, "the file is too large ({} MB; at most {} MB)", bytes >> 20, MAX_FILE >> 20)
            }
            LoadError::NotAnImage => write!(f, "not an image (PNG, JPEG, GIF, BMP, WebP, TIFF) or PDF"),
            LoadError::UnsupportedFormat(format) => {
                write!(f, "{format:?} images are not supported (use PNG, JPEG, GIF, BMP, WebP, TIFF or PDF)")
            }
            LoadError::TruncatedJpeg => {
                write!(f, "the JPEG file is truncated (it ends before its end-of-image marker)")
            }
            LoadError::Image(e) => write!(f, "cannot decode the image: {e}"),
            LoadError::Tiff(e) => write!(f, "cannot decode the TIFF: {e}"),
            LoadError::TiffPage(e) => write!(f, "{e}"),
            LoadError::TiffColour(c) => write!(f, "TIFF colour type {c:?} is not supported"),
            LoadError::TiffTruncated => write!(f, "TIFF page data is truncated"),
            LoadError::TiffNextPage(e) => write!(f, "cannot read the next TIFF page: {e}"),
            LoadError::TooManyPages => write!(f, "the TIFF has more than {MAX_TIFF_PAGES} pages"),
            LoadError::PageTooLarge { width, height } => {
                write!(f, "page of {width}x{height} pixels is too large (at most {MAX_SIDE} a side)")
            }
            LoadError::PageTooSmall { width, height } => {
                write!(f, "the image is too small ({width}x{height} pixels)")
            }
            LoadError::Pdf(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Open(e) | LoadError::Read(e) => Some(e),
            LoadError::Image(e) => Some(e),
            LoadError::Tiff(e) | LoadError::TiffPage(e) | LoadError::TiffNextPage(e) => Some(e),
            LoadError::Pdf(e) => Some(e),
            _ => None,
        }
    }
}

/// Every page of a file as loaded: the outer error means the file as a whole cannot be read; an
/// inner one, that one page cannot.
pub type Pages = Result<Vec<Result<DynamicImage, LoadError>>, LoadError>;

/// Loads every page of the image file at `path`, failing on the first page that cannot be
/// loaded; the error names the file.
pub fn load(path: &Path) -> Result<Vec<DynamicImage>, PageError> {
    let in_file = |source| PageError::Load { path: path.to_path_buf(), source };
    load_pages(path).map_err(in_file)?.into_iter().map(|page| page.map_err(in_file)).collect()
}

/// Every page image of the file at `path`: one for PNG, JPEG, GIF, BMP and WebP, one per page
/// for TIFF and PDF.
pub fn load_pages(path: &Path) -> Pages {
    let meta = std::fs::metadata(path).map_err(LoadError::Open)?;
    if meta.len() == 0 {
        return Err(LoadError::Empty);
    }
    if meta.len() > MAX_FILE {
        return Err(LoadError::FileTooLarge { bytes: meta.len() });
    }
    let bytes = std::fs::read(path).map_err(LoadError::Read)?;
    pages_from_bytes(bytes)
}

/// Every page image of a file held in memory (as [`load_pages`]).
pub fn pages_from_bytes(bytes: Vec<u8>) -> Pages {
    if bytes.is_empty() {
        return Err(LoadError::Empty);
    }
    if bytes.starts_with(b"%PDF") {
        return pdf_pages(&bytes)
            .map(|pages| pages.into_iter().map(|page| page.map_err(LoadError::Pdf).and_then(check)).collect())
            .map_err(LoadError::Pdf);
    }
    let format = image::guess_format(&bytes).map_err(|_| LoadError::NotAnImage)?;
    if format == ImageFormat::Tiff {
        return tiff_pages(bytes);
    }
    if !matches!(format, ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Gif | ImageFormat::Bmp | ImageFormat::WebP)
    {
        return Err(LoadError::UnsupportedFormat(format));
    }
    if format == ImageFormat::Jpeg && !jpeg_is_complete(&bytes) {
        // The JPEG decoder fills a cut-off file with grey instead of failing.
        return Err(LoadError::TruncatedJpeg);
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits());
    let img = reader.decode().map_err(LoadError::Image)?;
    Ok(vec![check(img)])
}

fn limits() -> Limits {
    let mut l = Limits::default();
    l.max_image_width = Some(MAX_SIDE);
    l.max_image_height = Some(MAX_SIDE);
    l.max_alloc = Some(MAX_BYTES);
    l
}

/// Whether a JPEG file holds its end-of-image marker (FF D9) near its end (some writers add a few
/// bytes after it).
fn jpeg_is_complete(bytes: &[u8]) -> bool {
    let tail = &bytes[bytes.len().saturating_sub(4096)..];
    tail.windows(2).any(|w| w == [0xFF, 0xD9])
}

/// The page if its size is within the limits.
fn check(img: DynamicImage) -> Result<DynamicImage, LoadError> {
    let (width, height) = (img.width(), img.height());
    if width < MIN_SIDE || height < MIN_SIDE {
        return Err(LoadError::PageTooSmall { width, height });
    }
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(LoadError::PageTooLarge { width, height });
    }
    Ok(img)
}

/// (The decoder reads the bytes through the reader type `image`'s own TIFF decoder uses, so that
/// the binary holds one TIFF decoder, not two.)
fn tiff_pages(bytes: Vec<u8>) -> Pages {
    use tiff::decoder::{Decoder, Limits as TiffLimits};
    let mut limits = TiffLimits::default();
    limits.decoding_buffer_size = MAX_BYTES as usize;
    limits.intermediate_buffer_size = MAX_BYTES as usize;
    let mut dec = Decoder::new(Cursor::new(bytes)).map_err(LoadError::Tiff)?.with_limits(limits);
    let mut pages = Vec::new();
    loop {
        pages.push(tiff_page(&mut dec));
        if !dec.more_images() {
            break;
        }
        if let Err(e) = dec.next_image() {
            pages.push(Err(LoadError::TiffNextPage(e)));
            break;
        }
        if pages.len() > MAX_TIFF_PAGES {
            return Err(LoadError::TooManyPages);
        }
    }
    Ok(pages)
}

/// The TIFF page the decoder stands at: 8-bit gray, gray with alpha, RGB and RGBA; 16-bit ones
/// (gray kept at 16 bits, the others cut to 8); bilevel.
fn tiff_page<R: std::io::Read + std::io::Seek>(dec: &mut tiff::decoder::Decoder<R>) -> Result<DynamicImage, LoadError> {
    use tiff::ColorType;
    use tiff::decoder::DecodingResult;
    let (w, h) = dec.dimensions().map_err(LoadError::TiffPage)?;
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(LoadError::PageTooLarge { width: w, height: h });
    }
    let color = dec.colortype().map_err(LoadError::TiffPage)?;
    let data = dec.read_image().map_err(LoadError::TiffPage)?;
    let n = (w as usize) * (h as usize);
    let img = match (color, data) {
        (ColorType::Gray(8), DecodingResult::U8(d)) => GrayImage::from_raw(w, h, d).map(DynamicImage::ImageLuma8),
        (ColorType::RGB(8), DecodingResult::U8(d)) => RgbImage::from_raw(w, h, d).map(DynamicImage::ImageRgb8),
        (ColorType::RGBA(8), DecodingResult::U8(d)) => RgbaImage::from_raw(w, h, d).map(DynamicImage::ImageRgba8),
        (ColorType::GrayA(8), DecodingResult::U8(d)) => {
            { d.get(..n * 2).and_then(|v| GrayImage::from_raw(w, h, v.chunks_exact(2).map(|c| c[0]).collect())) }
                .map(DynamicImage::ImageLuma8)
        }
        (ColorType::Gray(16), DecodingResult::U16(d)) => {
            image::ImageBuffer::from_raw(w, h, d).map(DynamicImage::ImageLuma16)
        }
        (ColorType::RGB(16), DecodingResult::U16(d)) => {
            RgbImage::from_raw(w, h, d.into_iter().map(|x| (x >> 8) as u8).collect()).map(DynamicImage::ImageRgb8)
        }
        (ColorType::RGBA(16), DecodingResult::U16(d)) => {
            RgbaImage::from_raw(w, h, d.into_iter().map(|x| (x >> 8) as u8).collect()).map(DynamicImage::ImageRgba8)
        }
        (ColorType::Gray(1), DecodingResult::U8(d)) => Some(DynamicImage::ImageLuma8(bilevel(w, h, &d))),
        (c, _) => return Err(LoadError::TiffColour(c)),
    };
    img.ok_or(LoadError::TiffTruncated).and_then(check)
}

/// A bilevel TIFF page: it comes unpacked as 0/1 per pixel, or packed by rows.
fn bilevel(w: u32, h: u32, d: &[u8]) -> GrayImage {
    let (wu, hu) = (w as usize, h as usize);
    if d.len() >= wu * hu {
        let pixels = d[..wu * hu].iter().map(|&v| if v > 0 { 255 } else { 0 }).collect();
        return GrayImage::from_raw(w, h, pixels).unwrap_or_else(|| GrayImage::new(w, h));
    }
    let row = wu.div_ceil(8);
    GrayImage::from_fn(w, h, |x, y| {
        let byte = d.get(y as usize * row + x as usize / 8).copied().unwrap_or(0);
        image::Luma([if (byte >> (7 - x % 8)) & 1 == 1 { 255 } else { 0 }])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let p = std::env::temp_dir().join(format!("scoresheet-load-{}-{name}", std::process::id()));
        std::fs::write(&p, bytes).unwrap();
        p
    }

    fn error_text(path: &Path) -> String {
        load_pages(path).unwrap_err().to_string()
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
        assert!(error_text(&p).contains("empty"));
        let p2 = tmp("text.png", b"hello, this is not an image at all");
        assert!(error_text(&p2).contains("not an image"));
        let mut b = Vec::new();
        DynamicImage::ImageLuma8(image::GrayImage::new(64, 48))
            .write_to(&mut Cursor::new(&mut b), ImageFormat::Png)
            .unwrap();
        let p3 = tmp("trunc.png", &b[..b.len() / 2]);
        assert!(error_text(&p3).contains("cannot decode"));
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
        assert!(error_text(&p5).contains("truncated"));
        assert!(error_text(Path::new("/nonexistent.png")).contains("cannot open"));
        for p in [p, p2, p3, p4, p5] {
            std::fs::remove_file(p).ok();
        }
    }

    /// The one size limit: a page just over [`MAX_SIDE`] is refused, by the TIFF reader as by
    /// the others, and [`load`] names the file.
    #[test]
    fn one_size_limit_for_every_format() {
        let mut b = Vec::new();
        {
            let mut enc = tiff::encoder::TiffEncoder::new(Cursor::new(&mut b)).unwrap();
            let wide = MAX_SIDE + 1;
            enc.write_image::<tiff::encoder::colortype::Gray8>(wide, 16, &vec![0; wide as usize * 16]).unwrap();
        }
        let p = tmp("wide.tif", &b);
        let pages = load_pages(&p).unwrap();
        assert!(matches!(pages[0], Err(LoadError::PageTooLarge { width: 20_001, height: 16 })));
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains("wide.tif") && e.contains("too large"), "{e}");
        std::fs::remove_file(p).ok();
    }
}
