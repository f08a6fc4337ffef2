//! Scanned PDF pages as images.
//!
//! Scanners and phone scanning apps write one raster image per page. We read that image as it
//! is stored (no rendering): JPEG (DCTDecode) and Flate-compressed raw pixels (gray, RGB, CMYK,
//! 1-bit), which covers what scanners produce. Pure Rust (lopdf, MIT, maintained), nothing to
//! install, no vector rendering: a PDF page made of text and drawings rather than a scan is
//! reported as having no page image.

use std::fmt;

use image::{DynamicImage, GrayImage, RgbImage};
use lopdf::{Document, Object};

use super::load::MAX_SIDE;

/// Largest decoded image accepted, in bytes (a decompression bomb is an error, not a crash).
const MAX_DECODED: usize = 256 << 20;

/// Why a PDF, or one of its pages, cannot be read.
#[derive(Debug)]
pub enum PdfError {
    /// The file is not a PDF lopdf can parse.
    Unreadable(lopdf::Error),
    /// The PDF is encrypted.
    Encrypted,
    /// The PDF has no pages.
    NoPages,
    /// One page cannot be read (`page` counts from 1).
    Page {
        /// The page's number, from 1.
        page: usize,
        /// Why.
        source: Box<PdfError>,
    },
    /// The page's images cannot be listed.
    ListImages(lopdf::Error),
    /// The page holds no raster image (a PDF of text and drawings, not a scan).
    NoScannedImage,
    /// The page image's size is zero, negative or beyond the loader's limit.
    SizeOutOfRange {
        /// Width in pixels, as the PDF states it.
        width: i64,
        /// Height in pixels, as the PDF states it.
        height: i64,
    },
    /// The page image's stream cannot be found.
    Stream(lopdf::Error),
    /// The JPEG filters in front of the image cannot be undone.
    JpegFilters(lopdf::Error),
    /// The page image's JPEG cannot be decoded.
    Jpeg(image::ImageError),
    /// A compression filter the reader does not undo.
    UnsupportedFilter(String),
    /// The page image cannot be decompressed.
    Decompress(lopdf::Error),
    /// The page image holds fewer bytes than its size needs.
    TooShort {
        /// Bytes found.
        found: usize,
        /// Bytes needed.
        needed: usize,
    },
    /// A colour space and depth the reader does not convert.
    UnsupportedColour {
        /// The colour space's name.
        space: String,
        /// Bits per component.
        bits: i64,
    },
}

impl fmt::Display for PdfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdfError::Unreadable(e) => write!(f, "not a readable PDF ({e})"),
            PdfError::Encrypted => write!(f, "the PDF is encrypted"),
            PdfError::NoPages => write!(f, "the PDF has no pages"),
            PdfError::Page { page, source } => write!(f, "page {page}: {source}"),
            PdfError::ListImages(e) => write!(f, "cannot list its images ({e})"),
            PdfError::NoScannedImage => {
                write!(f, "no scanned image on this page (only scanned PDFs are supported)")
            }
            PdfError::SizeOutOfRange { width, height } => {
                write!(f, "page image of {width}x{height} pixels is out of range")
            }
            PdfError::Stream(e) | PdfError::JpegFilters(e) => write!(f, "{e}"),
            PdfError::Jpeg(e) => write!(f, "bad JPEG page image ({e})"),
            PdfError::UnsupportedFilter(name) => {
                write!(f, "page image compressed with {name}, which is not supported (save the scan as JPEG or PNG)")
            }
            PdfError::Decompress(e) => write!(f, "cannot decompress the page image ({e})"),
            PdfError::TooShort { found, needed } => {
                write!(f, "page image data too short ({found} of {needed} bytes)")
            }
            PdfError::UnsupportedColour { space, bits } => {
                write!(f, "page image colour space {space} with {bits} bits per component is not supported")
            }
        }
    }
}

impl std::error::Error for PdfError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PdfError::Unreadable(e)
            | PdfError::ListImages(e)
            | PdfError::Stream(e)
            | PdfError::JpegFilters(e)
            | PdfError::Decompress(e) => Some(e),
            PdfError::Page { source, .. } => Some(source.as_ref()),
            PdfError::Jpeg(e) => Some(e),
            _ => None,
        }
    }
}

/// The scanned image of every page of a PDF held in `bytes`, in page order; a page that cannot
/// be read gives an error naming the page.
pub fn pdf_pages(bytes: &[u8]) -> Result<Vec<Result<DynamicImage, PdfError>>, PdfError> {
    let doc = Document::load_mem(bytes).map_err(PdfError::Unreadable)?;
    if doc.is_encrypted() {
        return Err(PdfError::Encrypted);
    }
    let pages = doc.get_pages();
    if pages.is_empty() {
        return Err(PdfError::NoPages);
    }
    Ok(pages
        .values()
        .enumerate()
        .map(|(i, id)| page_image(&doc, *id).map_err(|e| PdfError::Page { page: i + 1, source: Box::new(e) }))
        .collect())
}

fn page_image(doc: &Document, page: lopdf::ObjectId) -> Result<DynamicImage, PdfError> {
    let images = doc.get_page_images(page).map_err(PdfError::ListImages)?;
    let img = images.iter().max_by_key(|i| i.width.saturating_mul(i.height)).ok_or(PdfError::NoScannedImage)?;
    let max = i64::from(MAX_SIDE);
    if img.width <= 0 || img.height <= 0 || img.width > max || img.height > max {
        return Err(PdfError::SizeOutOfRange { width: img.width, height: img.height });
    }
    let (w, h) = (img.width as u32, img.height as u32);
    let filters = img.filters.clone().unwrap_or_default();
    let stream = doc.get_object(img.id).and_then(Object::as_stream).map_err(PdfError::Stream)?;
    if filters.last().is_some_and(|f| f == "DCTDecode") {
        // JPEG, possibly behind other filters.
        let mut s = stream.clone();
        let jpeg = if filters.len() > 1 {
            s.dict.set(
                "Filter",
                Object::Array(
                    filters[..filters.len() - 1].iter().map(|f| Object::Name(f.as_bytes().to_vec())).collect(),
                ),
            );
            s.decompressed_content_with_limit(MAX_DECODED).map_err(PdfError::JpegFilters)?
        } else {
            stream.content.clone()
        };
        let mut reader = image::ImageReader::with_format(std::io::Cursor::new(jpeg), image::ImageFormat::Jpeg);
        let mut limits = image::Limits::default();
        limits.max_alloc = Some(MAX_DECODED as u64);
        reader.limits(limits);
        return reader.decode().map_err(PdfError::Jpeg);
    }
    if let Some(f) = filters.iter().find(|f| {
        !matches!(f.as_str(), "FlateDecode" | "LZWDecode" | "ASCII85Decode" | "ASCIIHexDecode" | "RunLengthDecode")
    }) {
        return Err(PdfError::UnsupportedFilter(f.clone()));
    }
    let raw = if filters.is_empty() {
        stream.content.clone()
    } else {
        stream.decompressed_content_with_limit(MAX_DECODED).map_err(PdfError::Decompress)?
    };
    let bpc = img.bits_per_component.unwrap_or(8);
    let cs = img.color_space.as_deref().unwrap_or("DeviceGray");
    let (wu, hu) = (w as usize, h as usize);
    let need = |needed: usize| {
        if raw.len() < needed { Err(PdfError::TooShort { found: raw.len(), needed }) } else { Ok(()) }
    };
    // `need` has checked the length, so `from_raw` cannot fail; the fallback keeps it panic-free.
    let short = || PdfError::TooShort { found: raw.len(), needed: wu * hu };
    match (cs, bpc) {
        ("DeviceGray" | "CalGray", 8) => {
            need(wu * hu)?;
            Ok(DynamicImage::ImageLuma8(GrayImage::from_raw(w, h, raw[..wu * hu].to_vec()).ok_or_else(short)?))
        }
        ("DeviceRGB" | "CalRGB", 8) => {
            need(wu * hu * 3)?;
            Ok(DynamicImage::ImageRgb8(RgbImage::from_raw(w, h, raw[..wu * hu * 3].to_vec()).ok_or_else(short)?))
        }
        ("DeviceCMYK", 8) => {
            need(wu * hu * 4)?;
            let rgb: Vec<u8> = raw[..wu * hu * 4]
                .chunks_exact(4)
                .flat_map(|p| {
                    let k = 255 - p[3] as u32;
                    [0, 1, 2].map(|i| ((255 - p[i] as u32) * k / 255) as u8)
                })
                .collect();
            Ok(DynamicImage::ImageRgb8(RgbImage::from_raw(w, h, rgb).ok_or_else(short)?))
        }
        (_, 1) => {
            let row = wu.div_ceil(8);
            need(row * hu)?;
            let mut g = GrayImage::new(w, h);
            for (y, line) in raw.chunks_exact(row).take(hu).enumerate() {
                for x in 0..wu {
                    let bit = (line[x / 8] >> (7 - x % 8)) & 1;
                    g.put_pixel(x as u32, y as u32, image::Luma([if bit == 1 { 255 } else { 0 }]));
                }
            }
            Ok(DynamicImage::ImageLuma8(g))
        }
        _ => Err(PdfError::UnsupportedColour { space: cs.to_string(), bits: bpc }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::{Stream, dictionary};

    /// A one- or two-page PDF with the given page images (JPEG bytes or raw gray pixels).
    pub(crate) fn make_pdf(pages: &[(u32, u32, &str, Vec<u8>)]) -> Vec<u8> {
        let mut doc = Document::with_version("1.5");
        let pages_id = doc.new_object_id();
        let mut kids = Vec::new();
        for (w, h, filter, data) in pages {
            let mut dict = dictionary! {
                "Type" => "XObject", "Subtype" => "Image", "Width" => *w as i64, "Height" => *h as i64,
                "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8,
            };
            if !filter.is_empty() {
                dict.set("Filter", Object::Name(filter.as_bytes().to_vec()));
            }
            let img_id = doc.add_object(Stream::new(dict, data.clone()));
            let content =
                doc.add_object(Stream::new(dictionary! {}, format!("q {w} 0 0 {h} 0 0 cm /Im0 Do Q").into_bytes()));
            let page = doc.add_object(dictionary! {
                "Type" => "Page", "Parent" => pages_id, "MediaBox" => vec![0.into(), 0.into(), (*w as i64).into(), (*h as i64).into()],
                "Contents" => content, "Resources" => dictionary! { "XObject" => dictionary! { "Im0" => img_id } },
            });
            kids.push(page.into());
        }
        let n = kids.len() as i64;
        doc.objects
            .insert(pages_id, Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => n }));
        let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
        doc.trailer.set("Root", catalog);
        let mut out = Vec::new();
        doc.save_to(&mut out).unwrap();
        out
    }

    #[test]
    fn reads_jpeg_and_raw_pages_in_order() {
        let mut jpeg = Vec::new();
        let img = DynamicImage::ImageLuma8(GrayImage::from_fn(40, 30, |x, _| image::Luma([(x * 6) as u8])));
        img.write_to(&mut std::io::Cursor::new(&mut jpeg), image::ImageFormat::Jpeg).unwrap();
        let raw: Vec<u8> = (0..20 * 10).map(|i| (i % 256) as u8).collect();
        let pdf = make_pdf(&[(40, 30, "DCTDecode", jpeg), (20, 10, "", raw)]);
        let pages = pdf_pages(&pdf).unwrap();
        assert_eq!(pages.len(), 2);
        let p0 = pages[0].as_ref().unwrap();
        assert_eq!((p0.width(), p0.height()), (40, 30));
        let p1 = pages[1].as_ref().unwrap();
        assert_eq!((p1.width(), p1.height()), (20, 10));
        assert_eq!(p1.to_luma8().get_pixel(5, 0).0[0], 5);
    }

    #[test]
    fn broken_pdfs_are_errors() {
        assert!(pdf_pages(b"").is_err());
        assert!(pdf_pages(b"%PDF-1.4\n garbage").is_err());
        let pdf = make_pdf(&[(20, 10, "", vec![0; 50])]);
        let pages = pdf_pages(&pdf).unwrap();
        assert!(pages[0].as_ref().unwrap_err().to_string().contains("too short"));
        let pdf = make_pdf(&[(20, 10, "JBIG2Decode", vec![0; 50])]);
        assert!(pdf_pages(&pdf).unwrap()[0].as_ref().unwrap_err().to_string().contains("not supported"));
        let pdf = make_pdf(&[(20, 10, "DCTDecode", vec![0; 50])]);
        assert!(pdf_pages(&pdf).unwrap()[0].as_ref().unwrap_err().to_string().contains("bad JPEG"));
    }
}
