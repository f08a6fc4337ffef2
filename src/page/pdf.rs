//! Scanned PDF pages as images.
//!
//! Scanners and phone scanning apps write one raster image per page. We read that image as it
//! is stored, with no rendering: of the images a page draws (itself or through a form), the one
//! with the most pixels. Read: JPEG (DCTDecode), and raw pixels stored plain or behind Flate or
//! LZW (with PNG or TIFF predictors), ASCIIHex, ASCII85 or RunLength, in gray, RGB or CMYK
//! (device, calibrated or ICC-based) at 8 bits, gray at 1, 2 or 4 bits, or indexed colour.
//! Encrypted files are read when they open without a password (the standard security
//! handler's empty user password, with RC4 or AES: the `security` submodule). Refused with an
//! error: a file that needs a password, images in JBIG2, CCITT fax or JPEG 2000, other colour
//! spaces and depths, and a page of text and drawings with no scan on it.
//!
//! The file's structure is read by a small reader of its own (the `document` and `syntax`
//! submodules): objects, cross-reference tables and streams, object streams and incremental
//! updates, and a scan of the whole file for its objects when the cross-reference data is
//! broken. It is pure Rust with nothing to install, and every malformed input is an error, never
//! a crash or an unbounded allocation.

mod crypt;
mod document;
mod filters;
mod security;
mod syntax;

use std::collections::HashSet;
use std::fmt;

use image::{DynamicImage, GrayImage, RgbImage};

use super::load::{MAX_BYTES, MAX_SIDE};
use document::{DecodeError, Document, Page};
use filters::FilterKind;
use syntax::{Dict, Object, Stream};

/// Largest decoded image accepted, in bytes (a decompression bomb is an error, not a crash).
const MAX_DECODED: usize = 256 << 20;

/// Deepest nesting of forms searched for a page's image; scanning apps nest one or two.
const MAX_FORM_DEPTH: usize = 4;

/// What is malformed in a PDF, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Malformed {
    /// What the reader found, or expected and did not find.
    pub what: &'static str,
    /// The byte offset in the file where it is, when the reader knows it (inside compressed
    /// data: the offset of that data).
    pub offset: Option<usize>,
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(offset) => write!(f, "{} at byte {offset}", self.what),
            None => f.write_str(self.what),
        }
    }
}

impl std::error::Error for Malformed {}

/// Why a PDF, or one of its pages, cannot be read.
#[derive(Debug)]
pub enum PdfError {
    /// The file's structure cannot be read as a PDF.
    Unreadable(Malformed),
    /// The PDF is encrypted with a user password: it does not open without one.
    Encrypted,
    /// The PDF is encrypted in a way the reader does not undo (named in the message).
    UnsupportedEncryption(String),
    /// The PDF has no pages.
    NoPages,
    /// One page cannot be read (`page` counts from 1).
    Page {
        /// The page's number, from 1.
        page: usize,
        /// Why.
        source: Box<PdfError>,
    },
    /// The page, or its images, cannot be listed.
    ListImages(Malformed),
    /// The page holds no raster image (a PDF of text and drawings, not a scan).
    NoScannedImage,
    /// The page image's size is zero, negative or beyond the loader's limit.
    SizeOutOfRange {
        /// Width in pixels, as the PDF states it.
        width: i64,
        /// Height in pixels, as the PDF states it.
        height: i64,
    },
    /// The page image's stream names its filters wrongly.
    Stream(Malformed),
    /// The filters in front of the page image's JPEG cannot be undone.
    JpegFilters(Malformed),
    /// The page image's JPEG cannot be decoded.
    Jpeg(image::ImageError),
    /// A compression filter the reader does not undo.
    UnsupportedFilter(String),
    /// The page image cannot be decompressed.
    Decompress(Malformed),
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
            PdfError::Encrypted => {
                write!(f, "the PDF needs a password to open (save a copy without the password and read that)")
            }
            PdfError::UnsupportedEncryption(what) => {
                write!(f, "the PDF is encrypted with {what}, which is not supported")
            }
            PdfError::NoPages => write!(f, "the PDF has no pages"),
            PdfError::Page { page, source } => write!(f, "page {page}: {source}"),
            PdfError::ListImages(e) => write!(f, "cannot list its images ({e})"),
            PdfError::NoScannedImage => {
                write!(f, "no scanned image on this page (only scanned PDFs are supported)")
            }
            PdfError::SizeOutOfRange { width, height } => {
                write!(f, "page image of {width}x{height} pixels is out of range")
            }
            PdfError::Stream(e) => write!(f, "cannot read the page image's filters ({e})"),
            PdfError::JpegFilters(e) => write!(f, "cannot undo the filters in front of the page image's JPEG ({e})"),
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
    let doc = Document::load(bytes)?;
    let pages = doc.pages().map_err(PdfError::Unreadable)?;
    if pages.is_empty() {
        return Err(PdfError::NoPages);
    }
    Ok(pages
        .iter()
        .enumerate()
        .map(|(i, page)| {
            let image = match page {
                Ok(page) => page_image(&doc, page),
                Err(e) => Err(PdfError::ListImages(*e)),
            };
            image.map_err(|e| PdfError::Page { page: i + 1, source: Box::new(e) })
        })
        .collect())
}

/// An image XObject and its size as its dictionary states it.
struct ImageXObject<'d> {
    stream: &'d Stream,
    width: i64,
    height: i64,
}

fn page_image(doc: &Document, page: &Page) -> Result<DynamicImage, PdfError> {
    let mut largest = None;
    largest_image(doc, page.resources, 0, &mut HashSet::new(), &mut largest).map_err(PdfError::ListImages)?;
    let ImageXObject { stream, width, height } = largest.ok_or(PdfError::NoScannedImage)?;
    let max = i64::from(MAX_SIDE);
    if width <= 0 || height <= 0 || width > max || height > max {
        return Err(PdfError::SizeOutOfRange { width, height });
    }
    let (w, h) = (width as u32, height as u32);
    let unsupported = |name: Vec<u8>| PdfError::UnsupportedFilter(String::from_utf8_lossy(&name).into_owned());
    let filters = doc.filters(&stream.dict).map_err(PdfError::Stream)?;
    if let Some((last, before)) = filters.split_last()
        && last.kind == FilterKind::Dct
    {
        // JPEG, possibly behind other filters.
        let jpeg = doc.decode(stream, before, MAX_DECODED).map_err(|e| match e {
            DecodeError::Unsupported(name) => unsupported(name),
            DecodeError::Malformed(e) => PdfError::JpegFilters(e),
        })?;
        let mut reader = image::ImageReader::with_format(std::io::Cursor::new(jpeg), image::ImageFormat::Jpeg);
        let mut limits = image::Limits::default();
        limits.max_alloc = Some(MAX_DECODED as u64);
        reader.limits(limits);
        return reader.decode().map_err(PdfError::Jpeg);
    }
    let raw = doc.decode(stream, &filters, MAX_DECODED).map_err(|e| match e {
        DecodeError::Unsupported(name) => unsupported(name),
        DecodeError::Malformed(e) => PdfError::Decompress(e),
    })?;
    let dict = &stream.dict;
    let mask = matches!(doc.get(dict, b"ImageMask"), Ok(Some(Object::Bool(true))));
    let (colour, bits) =
        if mask { (Colour::Gray, 1) } else { (colour(doc, dict), doc.int(dict, b"BitsPerComponent").unwrap_or(8)) };
    // `/Decode [1 0]` on a gray image (or a mask) swaps black and white.
    let inverted =
        matches!(doc.get(dict, b"Decode"), Ok(Some(Object::Array(d))) if matches!(d.first(), Some(Object::Int(1))));
    to_image(&raw, w, h, colour, bits, inverted)
}

/// Finds the image XObject with the most pixels among `resources`, and among those of the forms
/// they hold (each form once); a tie goes to the later image.
fn largest_image<'d>(
    doc: &'d Document,
    resources: Option<&'d Object>,
    depth: usize,
    forms_seen: &mut HashSet<u32>,
    largest: &mut Option<ImageXObject<'d>>,
) -> Result<(), Malformed> {
    let Some(resources) = resources else { return Ok(()) };
    let resources = match doc.resolve(resources)? {
        Object::Dict(resources) => resources,
        Object::Null => return Ok(()),
        _ => return Err(Malformed { what: "/Resources that is not a dictionary", offset: None }),
    };
    let Some(Object::Dict(xobjects)) = doc.get(resources, b"XObject")? else { return Ok(()) };
    for (_, value) in &xobjects.0 {
        // An entry that cannot be read is passed over: the page's scan may be another.
        let Ok(Object::Stream(stream)) = doc.resolve(value) else { continue };
        let dict = &stream.dict;
        if dict.has_name(b"Subtype", b"Image") {
            let (Some(width), Some(height)) = (doc.int(dict, b"Width"), doc.int(dict, b"Height")) else { continue };
            if largest.as_ref().is_none_or(|l| width.saturating_mul(height) >= l.width.saturating_mul(l.height)) {
                *largest = Some(ImageXObject { stream, width, height });
            }
        } else if dict.has_name(b"Subtype", b"Form")
            && depth < MAX_FORM_DEPTH
            && let Object::Ref(number) = value
            && forms_seen.insert(*number)
        {
            // A form whose resources cannot be read holds no image for this page.
            let _ = largest_image(doc, dict.get(b"Resources"), depth + 1, forms_seen, largest);
        }
    }
    Ok(())
}

/// An image's colour space, as far as the reader converts it.
enum Colour {
    Gray,
    Rgb,
    Cmyk,
    /// Indices into a palette of colours in `base`, each `base`'s components at 8 bits.
    Indexed {
        base: Box<Colour>,
        palette: Vec<u8>,
    },
    /// Any other, by name.
    Other(String),
}

impl Colour {
    fn name(&self) -> String {
        match self {
            Colour::Gray => "DeviceGray".into(),
            Colour::Rgb => "DeviceRGB".into(),
            Colour::Cmyk => "DeviceCMYK".into(),
            Colour::Indexed { .. } => "Indexed".into(),
            Colour::Other(name) => name.clone(),
        }
    }

    fn components(&self) -> usize {
        match self {
            Colour::Rgb => 3,
            Colour::Cmyk => 4,
            _ => 1,
        }
    }
}

/// The colour space of the image `dict` describes (gray when it names none).
fn colour(doc: &Document, dict: &Dict) -> Colour {
    match doc.get(dict, b"ColorSpace") {
        Ok(Some(space)) => colour_of(doc, space, true),
        Ok(None) => Colour::Gray,
        Err(_) => Colour::Other("(unreadable)".into()),
    }
}

/// The colour space `space` names (`allow_indexed` is false for an indexed space's base).
fn colour_of(doc: &Document, space: &Object, allow_indexed: bool) -> Colour {
    let (family, params): (&[u8], &[Object]) = match doc.resolve(space) {
        Ok(Object::Name(name)) => (name, &[]),
        Ok(Object::Array(array)) => match array.split_first() {
            Some((first, params)) => match doc.resolve(first) {
                Ok(Object::Name(name)) => (name, params),
                _ => return Colour::Other("(unreadable)".into()),
            },
            None => return Colour::Other("(unreadable)".into()),
        },
        _ => return Colour::Other("(unreadable)".into()),
    };
    let resolved = |i: usize| params.get(i).and_then(|p| doc.resolve(p).ok());
    match family {
        b"DeviceGray" | b"CalGray" | b"G" => Colour::Gray,
        b"DeviceRGB" | b"CalRGB" | b"RGB" => Colour::Rgb,
        b"DeviceCMYK" | b"CMYK" => Colour::Cmyk,
        // An ICC profile's colour is read by its number of components.
        b"ICCBased" => match resolved(0) {
            Some(Object::Stream(profile)) => match doc.int(&profile.dict, b"N") {
                Some(1) => Colour::Gray,
                Some(3) => Colour::Rgb,
                Some(4) => Colour::Cmyk,
                _ => Colour::Other("ICCBased".into()),
            },
            _ => Colour::Other("ICCBased".into()),
        },
        b"Indexed" | b"I" if allow_indexed => {
            let base = params.first().map_or(Colour::Other("Indexed".into()), |b| colour_of(doc, b, false));
            let palette = match resolved(2) {
                Some(Object::String(bytes)) => Some(bytes.clone()),
                Some(Object::Stream(s)) => doc.filters(&s.dict).ok().and_then(|f| doc.decode(s, &f, 1 << 16).ok()),
                _ => None,
            };
            match (base, palette) {
                (base @ (Colour::Gray | Colour::Rgb | Colour::Cmyk), Some(palette)) => {
                    Colour::Indexed { base: Box::new(base), palette }
                }
                _ => Colour::Other("Indexed".into()),
            }
        }
        other => Colour::Other(String::from_utf8_lossy(other).into_owned()),
    }
}

/// The image of `raw` samples, `bits` to a component, rows padded to whole bytes.
fn to_image(raw: &[u8], w: u32, h: u32, colour: Colour, bits: i64, inverted: bool) -> Result<DynamicImage, PdfError> {
    let supported = match colour {
        Colour::Gray | Colour::Indexed { .. } => matches!(bits, 1 | 2 | 4 | 8),
        Colour::Rgb | Colour::Cmyk => bits == 8,
        Colour::Other(_) => false,
    };
    if !supported {
        return Err(PdfError::UnsupportedColour { space: colour.name(), bits });
    }
    let (wu, hu, bits) = (w as usize, h as usize, bits as usize);
    let row = (wu * colour.components() * bits).div_ceil(8);
    let needed = row * hu;
    if raw.len() < needed {
        return Err(PdfError::TooShort { found: raw.len(), needed });
    }
    let components = match &colour {
        Colour::Indexed { base, .. } => base.components(),
        other => other.components(),
    };
    // The image as decoded must fit the loader's limit too (a small 1-bit image stretches
    // eightfold, an indexed one to its palette's colours).
    if wu * hu * components.min(3) > MAX_BYTES as usize {
        return Err(PdfError::SizeOutOfRange { width: i64::from(w), height: i64::from(h) });
    }
    let samples = unpack(&raw[..needed], row, bits, wu * colour.components());
    let short = || PdfError::TooShort { found: raw.len(), needed };
    match colour {
        Colour::Gray => {
            // Samples below 8 bits stretch to 0-255.
            let scale = (255 / ((1u32 << bits) - 1)) as u8;
            let flip = if inverted { 255 } else { 0 };
            let gray = samples.into_iter().map(|s| (s * scale) ^ flip).collect();
            Ok(DynamicImage::ImageLuma8(GrayImage::from_raw(w, h, gray).ok_or_else(short)?))
        }
        Colour::Rgb => Ok(DynamicImage::ImageRgb8(RgbImage::from_raw(w, h, samples).ok_or_else(short)?)),
        Colour::Cmyk => {
            let rgb: Vec<u8> = samples
                .chunks_exact(4)
                .flat_map(|p| {
                    let k = 255 - p[3] as u32;
                    [0, 1, 2].map(|i| ((255 - p[i] as u32) * k / 255) as u8)
                })
                .collect();
            Ok(DynamicImage::ImageRgb8(RgbImage::from_raw(w, h, rgb).ok_or_else(short)?))
        }
        Colour::Indexed { base, palette } => {
            let n = base.components();
            // An index past the palette's end reads as zeros.
            let colours: Vec<u8> = samples
                .iter()
                .flat_map(|&i| (0..n).map(move |c| usize::from(i) * n + c))
                .map(|at| palette.get(at).copied().unwrap_or(0))
                .collect();
            to_image(&colours, w, h, *base, 8, false)
        }
        Colour::Other(_) => Err(PdfError::UnsupportedColour { space: colour.name(), bits: bits as i64 }),
    }
}

/// One byte per sample from rows of `row` bytes, each packing `samples_per_row` samples of
/// `bits` (1, 2, 4 or 8) and padded to a whole byte; the padding is dropped.
fn unpack(raw: &[u8], row: usize, bits: usize, samples_per_row: usize) -> Vec<u8> {
    if bits == 8 {
        return raw.to_vec();
    }
    let per_byte = 8 / bits;
    let mask = ((1u16 << bits) - 1) as u8;
    let mut out = Vec::with_capacity(raw.len() / row * samples_per_row);
    for line in raw.chunks_exact(row) {
        let start = out.len();
        for &byte in line {
            for k in 0..per_byte {
                out.push((byte >> (8 - bits * (k + 1))) & mask);
            }
        }
        out.truncate(start + samples_per_row);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::{Document as LoDocument, Object as LoObject, Stream as LoStream, dictionary};
    use proptest::prelude::*;
    use syntax::{find, rfind};

    /// A lopdf document of one page per image (JPEG bytes or raw gray pixels).
    fn make_doc(pages: &[(u32, u32, &str, Vec<u8>)]) -> LoDocument {
        let mut doc = LoDocument::with_version("1.5");
        let pages_id = doc.new_object_id();
        let mut kids = Vec::new();
        for (w, h, filter, data) in pages {
            let mut dict = dictionary! {
                "Type" => "XObject", "Subtype" => "Image", "Width" => *w as i64, "Height" => *h as i64,
                "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8,
            };
            if !filter.is_empty() {
                dict.set("Filter", LoObject::Name(filter.as_bytes().to_vec()));
            }
            let img_id = doc.add_object(LoStream::new(dict, data.clone()));
            let content =
                doc.add_object(LoStream::new(dictionary! {}, format!("q {w} 0 0 {h} 0 0 cm /Im0 Do Q").into_bytes()));
            let page = doc.add_object(dictionary! {
                "Type" => "Page", "Parent" => pages_id, "MediaBox" => vec![0.into(), 0.into(), (*w as i64).into(), (*h as i64).into()],
                "Contents" => content, "Resources" => dictionary! { "XObject" => dictionary! { "Im0" => img_id } },
            });
            kids.push(page.into());
        }
        let n = kids.len() as i64;
        doc.objects
            .insert(pages_id, LoObject::Dictionary(dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => n }));
        let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
        doc.trailer.set("Root", catalog);
        doc
    }

    /// A PDF (with a cross-reference stream, as lopdf writes by default) of the given page images.
    pub(crate) fn make_pdf(pages: &[(u32, u32, &str, Vec<u8>)]) -> Vec<u8> {
        let mut out = Vec::new();
        make_doc(pages).save_to(&mut out).unwrap();
        out
    }

    fn jpeg(w: u32, h: u32) -> Vec<u8> {
        let mut jpeg = Vec::new();
        let img = DynamicImage::ImageLuma8(GrayImage::from_fn(w, h, |x, _| image::Luma([(x * 6) as u8])));
        img.write_to(&mut std::io::Cursor::new(&mut jpeg), image::ImageFormat::Jpeg).unwrap();
        jpeg
    }

    fn gray(w: usize, h: usize) -> Vec<u8> {
        (0..w * h).map(|i| (i * 7 % 256) as u8).collect()
    }

    /// A stream object's text: `dict` (without its length) and `data`.
    fn stream(dict: &str, data: &[u8]) -> Vec<u8> {
        [format!("<<{dict} /Length {}>>\nstream\n", data.len()).as_bytes(), data, b"\nendstream"].concat()
    }

    fn image_dict(w: usize, h: usize, rest: &str) -> String {
        format!("/Type/XObject/Subtype/Image/Width {w}/Height {h}/BitsPerComponent 8{rest}")
    }

    /// The objects (numbered from 1) of a one-page PDF whose page draws object 4, `image`.
    fn one_page(image: Vec<u8>) -> Vec<Vec<u8>> {
        vec![
            b"<</Type/Catalog/Pages 2 0 R>>".to_vec(),
            b"<</Type/Pages/Kids[3 0 R]/Count 1>>".to_vec(),
            b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 9 9]/Resources<</XObject<</Im0 4 0 R>>>>>>".to_vec(),
            image,
        ]
    }

    /// `objects` (numbered from 1) written as a PDF with a cross-reference table; `trailer` is
    /// added to the trailer's entries.
    fn hand_pdf(objects: &[Vec<u8>], trailer: &str) -> Vec<u8> {
        let (mut out, offsets) = body(objects);
        let xref = out.len();
        out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).bytes());
        for at in offsets {
            out.extend(format!("{at:010} 00000 n \n").bytes());
        }
        let size = objects.len() + 1;
        out.extend(format!("trailer\n<</Size {size}/Root 1 0 R{trailer}>>\nstartxref\n{xref}\n%%EOF\n").bytes());
        out
    }

    /// The header and `objects`, and each object's offset.
    fn body(objects: &[Vec<u8>]) -> (Vec<u8>, Vec<usize>) {
        let mut out = b"%PDF-1.4\n%\xE2\xE3\xCF\xD3\n".to_vec();
        let mut offsets = Vec::new();
        for (i, object) in objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend(format!("{} 0 obj\n", i + 1).bytes());
            out.extend_from_slice(object);
            out.extend_from_slice(b"\nendobj\n");
        }
        (out, offsets)
    }

    /// `objects` written with a Flate cross-reference stream under the PNG Up predictor.
    fn hand_pdf_xref_stream(objects: &[Vec<u8>]) -> Vec<u8> {
        let (mut out, mut offsets) = body(objects);
        let xref = out.len();
        offsets.push(xref);
        let mut rows = vec![[0u8, 0, 0, 255]];
        rows.extend(offsets.iter().map(|&at| [1, (at >> 8) as u8, at as u8, 0]));
        let mut predicted = Vec::new();
        let mut above = [0u8; 4];
        for row in &rows {
            predicted.push(2);
            predicted.extend(row.iter().zip(above).map(|(b, a)| b.wrapping_sub(a)));
            above = *row;
        }
        let data = miniz_oxide::deflate::compress_to_vec_zlib(&predicted, 6);
        let dict = format!(
            "/Type/XRef/Size {}/W[1 2 1]/Root 1 0 R/Filter/FlateDecode/DecodeParms<</Predictor 12/Columns 4>>",
            rows.len()
        );
        out.extend(format!("{} 0 obj\n", objects.len() + 1).bytes());
        out.extend(stream(&dict, &data));
        out.extend(format!("\nendobj\nstartxref\n{xref}\n%%EOF\n").bytes());
        out
    }

    /// A page's width, height and pixels (gray or RGB samples), or its error's message.
    type PageRead = Result<(u32, u32, Vec<u8>), String>;

    /// Each page's width, height and 8-bit gray pixels, or its error's message.
    fn read(pdf: &[u8]) -> Vec<PageRead> {
        read_as(pdf, |page| page.to_luma8().into_raw())
    }

    /// Each page's width, height and `pixels`, or its error's message.
    fn read_as(pdf: &[u8], pixels: fn(&DynamicImage) -> Vec<u8>) -> Vec<PageRead> {
        pdf_pages(pdf)
            .unwrap()
            .into_iter()
            .map(|p| p.map(|page| (page.width(), page.height(), pixels(&page))).map_err(|e| e.to_string()))
            .collect()
    }

    fn raw_page(w: usize, h: usize) -> Vec<Vec<u8>> {
        one_page(stream(&image_dict(w, h, "/ColorSpace/DeviceGray"), &gray(w, h)))
    }

    #[test]
    fn reads_jpeg_and_raw_pages_in_order() {
        let raw: Vec<u8> = (0..20 * 10).map(|i| (i % 256) as u8).collect();
        let pdf = make_pdf(&[(40, 30, "DCTDecode", jpeg(40, 30)), (20, 10, "", raw)]);
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

    #[test]
    fn cross_reference_tables_streams_and_object_streams_read_alike() {
        let pages = [(40, 30, "DCTDecode", jpeg(40, 30)), (20, 10, "", gray(20, 10))];
        let mut table = Vec::new();
        let mut doc = make_doc(&pages);
        doc.reference_table.cross_reference_type = lopdf::xref::XrefType::CrossReferenceTable;
        doc.save_to(&mut table).unwrap();
        assert!(find(&table, b"\nxref").is_some());
        let mut modern = Vec::new();
        make_doc(&pages).save_modern(&mut modern).unwrap();
        assert!(find(&modern, b"/ObjStm").is_some());
        let expected = read(&make_pdf(&pages));
        assert_eq!(expected.len(), 2);
        assert!(expected.iter().all(Result::is_ok));
        assert_eq!(read(&table), expected);
        assert_eq!(read(&modern), expected);
        assert_eq!(read(&hand_pdf_xref_stream(&raw_page(6, 5))), read(&hand_pdf(&raw_page(6, 5), "")));
        // A broken startxref: the scan finds the objects, those in object streams too.
        let at = rfind(&modern, b"startxref").unwrap();
        let mut broken = modern[..at].to_vec();
        broken.extend_from_slice(b"startxref\n999999\n%%EOF");
        assert_eq!(read(&broken), expected);
    }

    #[test]
    fn broken_cross_reference_data_falls_back_to_a_scan() {
        let pdf = hand_pdf(&raw_page(6, 5), "");
        let expected = read(&pdf);
        assert_eq!(expected[0].as_ref().unwrap().2, gray(6, 5));
        // Every offset off by the bytes inserted after the header.
        let shifted = [&pdf[..9], b"% moved\n", &pdf[9..]].concat();
        assert_eq!(read(&shifted), expected);
        // No cross-reference table or trailer at all: the catalog is found by its type.
        let cut = &pdf[..find(&pdf, b"xref\n").unwrap()];
        assert_eq!(read(cut), expected);
        // A later definition of an object replaces an earlier one.
        let mut twice = cut.to_vec();
        twice.extend(b"4 0 obj\n".iter().chain(&stream(&image_dict(3, 2, ""), &[9; 6])).chain(b"\nendobj\n"));
        assert_eq!(read(&twice), vec![Ok((3, 2, vec![9; 6]))]);
    }

    #[test]
    fn incremental_updates_follow_prev() {
        let base = hand_pdf(&raw_page(6, 5), "");
        let prev = &base[rfind(&base, b"startxref").unwrap() + 10..];
        let prev = std::str::from_utf8(prev).unwrap().split_whitespace().next().unwrap().to_string();
        let at = base.len();
        let mut pdf = base.clone();
        pdf.extend(b"4 0 obj\n".iter().chain(&stream(&image_dict(3, 2, ""), &[9; 6])).chain(b"\nendobj\n"));
        let xref = pdf.len();
        pdf.extend(
            format!("xref\n4 1\n{at:010} 00000 n \ntrailer\n<</Size 5/Prev {prev}>>\nstartxref\n{xref}\n%%EOF\n")
                .bytes(),
        );
        assert_eq!(read(&pdf), vec![Ok((3, 2, vec![9; 6]))]);
    }

    #[test]
    fn page_tree_inherits_resources_and_survives_cycles() {
        let mut objects = raw_page(6, 5);
        objects[1] = b"<</Type/Pages/Kids[3 0 R 5 0 R 2 0 R]/Count 1/Resources<</XObject<</Im0 4 0 R>>>>>>".to_vec();
        objects[2] = b"<</Type/Page/Parent 2 0 R>>".to_vec();
        objects.push(b"<</Type/Pages/Kids[2 0 R 5 0 R 3 0 R 6 0 R]>>".to_vec());
        objects.push(b"<</Type/Page/Resources 99 0 R>>".to_vec());
        let pages = read(&hand_pdf(&objects, ""));
        assert_eq!(pages.len(), 2);
        assert_eq!(pages[0].as_ref().unwrap().2, gray(6, 5));
        assert!(pages[1].as_ref().unwrap_err().starts_with("page 2: no scanned image"));
    }

    #[test]
    fn an_image_inside_a_form_is_found() {
        let mut objects = one_page(stream(
            "/Type/XObject/Subtype/Form/BBox[0 0 1 1]/Resources<</XObject<</Im1 5 0 R/Self 4 0 R>>>>",
            b"/Im1 Do",
        ));
        objects.push(stream(&image_dict(6, 5, ""), &gray(6, 5)));
        assert_eq!(read(&hand_pdf(&objects, "")), vec![Ok((6, 5, gray(6, 5)))]);
    }

    #[test]
    fn indirect_and_wrong_lengths() {
        let data = gray(6, 5);
        let mut image = format!("<<{} /Length 5 0 R>>\nstream\n", image_dict(6, 5, "")).into_bytes();
        image.extend(&data);
        image.extend(b"\nendstream");
        let mut objects = one_page(image);
        objects.push(b"30".to_vec());
        assert_eq!(read(&hand_pdf(&objects, "")), vec![Ok((6, 5, data.clone()))]);
        objects[4] = b"12".to_vec();
        assert_eq!(read(&hand_pdf(&objects, "")), vec![Ok((6, 5, data))]);
    }

    #[test]
    fn filters_in_front_of_pixels_and_jpeg() {
        let (w, h) = (7, 4);
        let raw = gray(w, h);
        // Rows under the PNG None, Sub and Up predictors in turn.
        let mut predicted = Vec::new();
        let mut above = vec![0u8; w];
        for (y, row) in raw.chunks(w).enumerate() {
            let kind = (y % 3) as u8;
            predicted.push(kind);
            for x in 0..w {
                let guess = match kind {
                    0 => 0,
                    1 => x.checked_sub(1).map_or(0, |l| row[l]),
                    _ => above[x],
                };
                predicted.push(row[x].wrapping_sub(guess));
            }
            above = row.to_vec();
        }
        let flate = miniz_oxide::deflate::compress_to_vec_zlib(&predicted, 6);
        let parms = format!("/Filter/FlateDecode/DecodeParms<</Predictor 15/Columns {w}>>");
        let pdf = hand_pdf(&one_page(stream(&image_dict(w, h, &parms), &flate)), "");
        assert_eq!(read(&pdf), vec![Ok((w as u32, h as u32, raw.clone()))]);
        let run_length = [&[27u8][..], &raw[..28], &[128]].concat();
        let pdf = hand_pdf(&one_page(stream(&image_dict(w, h, "/Filter/RunLengthDecode"), &run_length)), "");
        assert_eq!(read(&pdf), vec![Ok((w as u32, h as u32, raw))]);

        let jpeg = jpeg(40, 30);
        let plain = read(&hand_pdf(&one_page(stream(&image_dict(40, 30, "/Filter/DCTDecode"), &jpeg)), ""));
        let hex: String = jpeg.iter().map(|b| format!("{b:02x}")).collect();
        let dict = image_dict(40, 30, "/Filter[/ASCIIHexDecode/DCTDecode]");
        assert_eq!(read(&hand_pdf(&one_page(stream(&dict, hex.as_bytes())), "")), plain);
        let dict = image_dict(40, 30, "/Filter[/A85/DCTDecode]");
        assert_eq!(read(&hand_pdf(&one_page(stream(&dict, &ascii85(&jpeg))), "")), plain);
        let dict = image_dict(40, 30, "/Filter[/JBIG2Decode/DCTDecode]");
        let pages = read(&hand_pdf(&one_page(stream(&dict, &jpeg)), ""));
        assert!(pages[0].as_ref().unwrap_err().contains("JBIG2Decode, which is not supported"));
    }

    fn ascii85(data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        for chunk in data.chunks(4) {
            let mut group = [0u8; 4];
            group[..chunk.len()].copy_from_slice(chunk);
            let mut value = u32::from_be_bytes(group);
            let mut digits = [0u8; 5];
            for d in digits.iter_mut().rev() {
                *d = (value % 85) as u8 + b'!';
                value /= 85;
            }
            out.extend_from_slice(&digits[..chunk.len() + 1]);
        }
        out.extend_from_slice(b"~>");
        out
    }

    #[test]
    fn colour_spaces() {
        let page = |dict: &str, data: &[u8], extra: Vec<Vec<u8>>| {
            let mut objects = one_page(stream(&format!("/Type/XObject/Subtype/Image/Width 2/Height 2{dict}"), data));
            objects.extend(extra);
            let pages = pdf_pages(&hand_pdf(&objects, "")).unwrap();
            pages.into_iter().map(|p| p.map(|i| i.to_rgb8().into_raw()).map_err(|e| e.to_string())).collect::<Vec<_>>()
        };
        let triples = |gray: &[u8]| vec![Ok(gray.iter().flat_map(|&g| [g, g, g]).collect::<Vec<u8>>())];
        let rgb = vec![255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255];
        assert_eq!(page("/ColorSpace/DeviceRGB/BitsPerComponent 8", &rgb, vec![]), vec![Ok(rgb.clone())]);
        let icc = vec![stream("/N 3", b"profile")];
        assert_eq!(page("/ColorSpace[/ICCBased 5 0 R]/BitsPerComponent 8", &rgb, icc), vec![Ok(rgb.clone())]);
        let cmyk = [0, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0, 128, 255, 255, 255, 0];
        assert_eq!(page("/ColorSpace/DeviceCMYK/BitsPerComponent 8", &cmyk, vec![]), triples(&[255, 0, 127, 0]));
        // 1-bit rows padded to a byte; /Decode [1 0] makes a 1 black.
        let bits = [0b1000_0000, 0b0100_0000];
        assert_eq!(page("/ColorSpace/DeviceGray/BitsPerComponent 1", &bits, vec![]), triples(&[255, 0, 0, 255]));
        assert_eq!(page("/ImageMask true/Decode[1 0]", &bits, vec![]), triples(&[0, 255, 255, 0]));
        assert_eq!(
            page("/ColorSpace/DeviceGray/BitsPerComponent 4", &[0xF0, 0x5A], vec![]),
            triples(&[255, 0, 85, 170])
        );
        let indexed = "/ColorSpace[/Indexed/DeviceRGB 1<000000FFFFFF>]/BitsPerComponent 1";
        assert_eq!(page(indexed, &bits, vec![]), triples(&[255, 0, 0, 255]));
        for unsupported in ["/ColorSpace/DeviceRGB/BitsPerComponent 16", "/ColorSpace[/Lab<<>>]/BitsPerComponent 8"] {
            let pages = page(unsupported, &[0; 32], vec![]);
            assert!(pages[0].as_ref().unwrap_err().contains("is not supported"), "{pages:?}");
        }
    }

    #[test]
    fn encrypted_and_empty_documents_are_refused() {
        let mut objects = raw_page(6, 5);
        objects.push(b"<</Filter/Standard/V 1/R 2/O(x)/U(y)/P -4>>".to_vec());
        let err = pdf_pages(&hand_pdf(&objects, "/Encrypt 5 0 R")).unwrap_err();
        assert!(err.to_string().contains("/O or /U is short"), "{err}");
        objects[4] = b"<</Filter/Adobe.PubSec/V 4>>".to_vec();
        let err = pdf_pages(&hand_pdf(&objects, "/Encrypt 5 0 R")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the PDF is encrypted with the security handler /Adobe.PubSec, which is not supported"
        );
        let mut objects = raw_page(6, 5);
        objects[1] = b"<</Type/Pages/Kids[]/Count 0>>".to_vec();
        assert!(matches!(pdf_pages(&hand_pdf(&objects, "")), Err(PdfError::NoPages)));
        let err = pdf_pages(b"%PDF-1.4\n1 0 obj <</Type/Font>> endobj").unwrap_err();
        assert_eq!(err.to_string(), "not a readable PDF (no document catalog (/Root))");
    }

    /// A file of `tests/data/pdf/` (written by `make_encrypted.py` there).
    macro_rules! test_pdf {
        ($name:literal) => {
            &include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pdf/", $name))[..]
        };
    }

    /// Each page's width, height and RGB pixels, or its error's message.
    fn rgb_pages(pdf: &[u8]) -> Vec<PageRead> {
        read_as(pdf, |page| page.to_rgb8().into_raw())
    }

    #[test]
    fn pdfs_encrypted_with_the_empty_user_password_read_as_the_plain_one() {
        let plain = rgb_pages(test_pdf!("plain.pdf"));
        assert_eq!(plain.len(), 2);
        // The second page's palette is a string: its first colour, red, is the top left pixel's.
        assert_eq!(plain[1].as_ref().unwrap().2[..3], [255, 0, 0]);
        let encrypted = [
            ("RC4-40, revision 2", test_pdf!("rc4-40.pdf")),
            ("RC4-128, revision 3", test_pdf!("rc4-128.pdf")),
            ("RC4-128, revision 4, object streams", test_pdf!("rc4-128-crypt-filters.pdf")),
            ("AES-128, revision 4, object streams", test_pdf!("aes-128.pdf")),
            ("AES-256, revision 5", test_pdf!("aes-256-r5.pdf")),
            ("AES-256, revision 6, object streams", test_pdf!("aes-256.pdf")),
        ];
        for (what, pdf) in encrypted {
            assert_eq!(rgb_pages(pdf), plain, "{what}");
        }
    }

    #[test]
    fn a_pdf_that_needs_a_password_is_refused() {
        for pdf in [test_pdf!("rc4-128-password.pdf"), test_pdf!("aes-256-password.pdf")] {
            let err = pdf_pages(pdf).unwrap_err();
            assert!(matches!(err, PdfError::Encrypted));
            assert!(err.to_string().starts_with("the PDF needs a password"), "{err}");
        }
    }

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// A one-page PDF encrypted with RC4-40 (revision 2) under the empty user password, whose
    /// image (object 4, under `dict`) holds `pixels`, encrypted when `encrypt_pixels`.
    fn rc4_40_pdf(dict: &str, pixels: &[u8], encrypt_pixels: bool) -> Vec<u8> {
        use crypt::{md5, rc4};
        let (owner, file_id, permissions) = ([b'o'; 32], b"0123456789abcdef", (-4i32).to_le_bytes());
        let file_key = md5(&[&security::PADDING[..], &owner, &permissions, file_id].concat())[..5].to_vec();
        let user = rc4(&file_key, &security::PADDING);
        let object_key = &md5(&[&file_key[..], &[4, 0, 0, 0, 0]].concat())[..10];
        let data = if encrypt_pixels { rc4(object_key, pixels) } else { pixels.to_vec() };
        let mut objects = one_page(stream(dict, &data));
        objects.push(format!("<</Filter/Standard/V 1/R 2/O<{}>/U<{}>/P -4>>", hex(&owner), hex(&user)).into_bytes());
        hand_pdf(&objects, &format!("/Encrypt 5 0 R/ID[<{0}><{0}>]", hex(file_id)))
    }

    #[test]
    fn a_crypt_filter_picks_a_stream_s_decryption() {
        let pixels = gray(6, 5);
        let plain = vec![Ok((6, 5, pixels.clone()))];
        assert_eq!(read(&rc4_40_pdf(&image_dict(6, 5, ""), &pixels, true)), plain);
        // The /Identity crypt filter leaves a stream as it is.
        let identity = image_dict(6, 5, "/Filter/Crypt/DecodeParms<</Name/Identity>>");
        assert_eq!(read(&rc4_40_pdf(&identity, &pixels, false)), plain);
        let unknown = image_dict(6, 5, "/Filter/Crypt/DecodeParms<</Name/Other>>");
        let pages = read(&rc4_40_pdf(&unknown, &pixels, false));
        assert!(pages[0].as_ref().unwrap_err().contains("a crypt filter that /CF lacks"), "{pages:?}");
    }

    #[test]
    fn a_decompression_bomb_is_an_error() {
        let bomb = miniz_oxide::deflate::compress_to_vec_zlib(&vec![0; MAX_DECODED + 1], 9);
        let pdf = hand_pdf(&one_page(stream(&image_dict(16000, 16000, "/Filter/FlateDecode"), &bomb)), "");
        let pages = read(&pdf);
        assert!(pages[0].as_ref().unwrap_err().contains("more than the reader's limit"), "{pages:?}");
    }

    #[test]
    fn overlapping_objects_read_in_linear_time() {
        // Each header lies inside the unclosed string, or the stream without endstream, of the
        // one before it: reading each to the end of the file would take quadratic time.
        for object in ["(", "<<>> stream\n"] {
            let mut pdf = b"%PDF-1.4\n".to_vec();
            for i in 1..30_000 {
                pdf.extend(format!("{i} 0 obj {object}").bytes());
            }
            let started = std::time::Instant::now();
            assert!(pdf_pages(&pdf).is_err());
            assert!(started.elapsed().as_secs() < 10);
        }
    }

    /// Small valid PDFs of every layout the reader knows.
    fn small_pdfs() -> Vec<Vec<u8>> {
        let mut modern = Vec::new();
        make_doc(&[(16, 16, "", gray(16, 16))]).save_modern(&mut modern).unwrap();
        vec![
            hand_pdf(&raw_page(16, 16), ""),
            hand_pdf_xref_stream(&raw_page(16, 16)),
            make_pdf(&[(16, 16, "DCTDecode", jpeg(16, 16))]),
            modern,
            test_pdf!("rc4-128.pdf").to_vec(),
            test_pdf!("aes-256.pdf").to_vec(),
        ]
    }

    #[test]
    fn every_prefix_of_a_pdf_returns() {
        for pdf in small_pdfs() {
            assert!(pdf_pages(&pdf).unwrap()[0].is_ok());
            for end in 0..pdf.len() {
                let _ = pdf_pages(&pdf[..end]);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn mutated_pdfs_never_panic(
            which in 0usize..6,
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..8),
        ) {
            let mut pdf = small_pdfs().swap_remove(which);
            for (at, byte, kind) in edits {
                let at = at.index(pdf.len());
                match kind {
                    0 => pdf[at] = byte,
                    1 => pdf.insert(at, byte),
                    _ => {
                        pdf.remove(at);
                    }
                }
            }
            let _ = pdf_pages(&pdf);
        }
    }
}
