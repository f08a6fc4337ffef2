//! Scanned PDF pages as images.
//!
//! Scanners and phone scanning apps write one raster image per page. We read that image as it
//! is stored (no rendering): JPEG (DCTDecode) and Flate-compressed raw pixels (gray, RGB, CMYK,
//! 1-bit), which covers what scanners produce. Pure Rust (lopdf, MIT, maintained), nothing to
//! install, no vector rendering: a PDF page made of text and drawings rather than a scan is
//! reported as having no page image.

use image::{DynamicImage, GrayImage, RgbImage};
use lopdf::{Document, Object};

/// Largest decoded image accepted, in bytes (a decompression bomb is an error, not a crash).
const MAX_DECODED: usize = 256 << 20;
/// Largest page image side accepted.
const MAX_SIDE: i64 = 20_000;

/// The scanned image of every page of a PDF held in `bytes`, in page order; a page that cannot
/// be read gives an error naming the page.
pub fn pdf_pages(bytes: &[u8]) -> Result<Vec<Result<DynamicImage, String>>, String> {
    let doc = Document::load_mem(bytes).map_err(|e| format!("not a readable PDF ({e})"))?;
    if doc.is_encrypted() {
        return Err("the PDF is encrypted".into());
    }
    let pages = doc.get_pages();
    if pages.is_empty() {
        return Err("the PDF has no pages".into());
    }
    Ok(pages
        .values()
        .enumerate()
        .map(|(i, id)| page_image(&doc, *id).map_err(|e| format!("page {}: {e}", i + 1)))
        .collect())
}

fn page_image(doc: &Document, page: lopdf::ObjectId) -> Result<DynamicImage, String> {
    let images = doc.get_page_images(page).map_err(|e| format!("cannot list its images ({e})"))?;
    let img = images
        .iter()
        .max_by_key(|i| i.width.saturating_mul(i.height))
        .ok_or("no scanned image on this page (only scanned PDFs are supported)")?;
    if img.width <= 0 || img.height <= 0 || img.width > MAX_SIDE || img.height > MAX_SIDE {
        return Err(format!("page image of {}x{} pixels is out of range", img.width, img.height));
    }
    let (w, h) = (img.width as u32, img.height as u32);
    let filters = img.filters.clone().unwrap_or_default();
    let stream = doc.get_object(img.id).and_then(Object::as_stream).map_err(|e| e.to_string())?;
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
            s.decompressed_content_with_limit(MAX_DECODED).map_err(|e| e.to_string())?
        } else {
            stream.content.clone()
        };
        let mut reader = image::ImageReader::with_format(std::io::Cursor::new(jpeg), image::ImageFormat::Jpeg);
        let mut limits = image::Limits::default();
        limits.max_alloc = Some(MAX_DECODED as u64);
        reader.limits(limits);
        return reader.decode().map_err(|e| format!("bad JPEG page image ({e})"));
    }
    if let Some(f) = filters.iter().find(|f| {
        !matches!(f.as_str(), "FlateDecode" | "LZWDecode" | "ASCII85Decode" | "ASCIIHexDecode" | "RunLengthDecode")
    }) {
        return Err(format!("page image compressed with {f}, which is not supported (save the scan as JPEG or PNG)"));
    }
    let raw = if filters.is_empty() {
        stream.content.clone()
    } else {
        stream
            .decompressed_content_with_limit(MAX_DECODED)
            .map_err(|e| format!("cannot decompress the page image ({e})"))?
    };
    let bpc = img.bits_per_component.unwrap_or(8);
    let cs = img.color_space.as_deref().unwrap_or("DeviceGray");
    let (wu, hu) = (w as usize, h as usize);
    let need = |n: usize| {
        if raw.len() < n { Err(format!("page image data too short ({} of {n} bytes)", raw.len())) } else { Ok(()) }
    };
    match (cs, bpc) {
        ("DeviceGray" | "CalGray", 8) => {
            need(wu * hu)?;
            Ok(DynamicImage::ImageLuma8(GrayImage::from_raw(w, h, raw[..wu * hu].to_vec()).ok_or("bad size")?))
        }
        ("DeviceRGB" | "CalRGB", 8) => {
            need(wu * hu * 3)?;
            Ok(DynamicImage::ImageRgb8(RgbImage::from_raw(w, h, raw[..wu * hu * 3].to_vec()).ok_or("bad size")?))
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
            Ok(DynamicImage::ImageRgb8(RgbImage::from_raw(w, h, rgb).ok_or("bad size")?))
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
        _ => Err(format!("page image colour space {cs} with {bpc} bits per component is not supported")),
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
        assert!(pages[0].as_ref().unwrap_err().contains("too short"));
        let pdf = make_pdf(&[(20, 10, "JBIG2Decode", vec![0; 50])]);
        assert!(pdf_pages(&pdf).unwrap()[0].as_ref().unwrap_err().contains("not supported"));
        let pdf = make_pdf(&[(20, 10, "DCTDecode", vec![0; 50])]);
        assert!(pdf_pages(&pdf).unwrap()[0].as_ref().unwrap_err().contains("bad JPEG"));
    }
}
