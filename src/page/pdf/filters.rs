//! The stream filters a scanned page's image may sit behind (ISO 32000-1, 7.4): Flate and LZW
//! with their predictors, ASCIIHex, ASCII85 and RunLength. Every decoder stops with an error
//! once its output would pass the caller's limit.

use super::syntax::{Dict, hex_value, is_space};

/// A filter the reader knows by name, with its parameters.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Filter {
    pub kind: FilterKind,
    /// The name as the file writes it, for messages.
    pub name: Vec<u8>,
    pub parms: Option<Dict>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FilterKind {
    Flate,
    Lzw,
    AsciiHex,
    Ascii85,
    RunLength,
    /// JPEG: undone by the image decoder, not here.
    Dct,
    /// Decryption by a named crypt filter: undone by the document's security handler, not here.
    Crypt,
    /// JBIG2, CCITT fax, JPEG 2000 or a name the reader does not know.
    Unsupported,
}

impl FilterKind {
    /// The filter a name stands for (the abbreviations of inline images are accepted too).
    pub fn from_name(name: &[u8]) -> FilterKind {
        match name {
            b"FlateDecode" | b"Fl" => FilterKind::Flate,
            b"LZWDecode" | b"LZW" => FilterKind::Lzw,
            b"ASCIIHexDecode" | b"AHx" => FilterKind::AsciiHex,
            b"ASCII85Decode" | b"A85" => FilterKind::Ascii85,
            b"RunLengthDecode" | b"RL" => FilterKind::RunLength,
            b"DCTDecode" | b"DCT" => FilterKind::Dct,
            b"Crypt" => FilterKind::Crypt,
            _ => FilterKind::Unsupported,
        }
    }
}

/// `data` with `filter` undone, at most `limit` bytes of it.
pub(super) fn decode(data: &[u8], filter: &Filter, limit: usize) -> Result<Vec<u8>, &'static str> {
    let decoded = match filter.kind {
        FilterKind::Flate => inflate(data, limit)?,
        FilterKind::Lzw => lzw(data, filter.parms.as_ref().and_then(|p| p.int(b"EarlyChange")) != Some(0), limit)?,
        FilterKind::AsciiHex => ascii_hex(data, limit)?,
        FilterKind::Ascii85 => ascii85(data, limit)?,
        FilterKind::RunLength => run_length(data, limit)?,
        FilterKind::Dct | FilterKind::Crypt | FilterKind::Unsupported => {
            return Err("a filter the reader does not undo");
        }
    };
    match (filter.kind, &filter.parms) {
        (FilterKind::Flate | FilterKind::Lzw, Some(parms)) => unpredict(decoded, parms),
        _ => Ok(decoded),
    }
}

const TOO_LARGE: &str = "a stream that decodes to more than the reader's limit";

/// Zlib data, or raw deflate data as some writers store it. Data cut short, or with a wrong
/// checksum, gives what it decodes to: a page image still gets its size checked.
fn inflate(data: &[u8], limit: usize) -> Result<Vec<u8>, &'static str> {
    use miniz_oxide::inflate::{TINFLStatus, decompress_to_vec_with_limit, decompress_to_vec_zlib_with_limit};
    let result = decompress_to_vec_zlib_with_limit(data, limit).or_else(|e| {
        if e.output.is_empty() && e.status == TINFLStatus::Failed {
            decompress_to_vec_with_limit(data, limit)
        } else {
            Err(e)
        }
    });
    match result {
        Ok(out) => Ok(out),
        Err(e) if e.status == TINFLStatus::HasMoreOutput => Err(TOO_LARGE),
        Err(e)
            if !e.output.is_empty()
                && matches!(e.status, TINFLStatus::FailedCannotMakeProgress | TINFLStatus::Adler32Mismatch) =>
        {
            Ok(e.output)
        }
        Err(_) => Err("corrupt FlateDecode data"),
    }
}

/// LZW data as PDF writes it: most significant bit first, 8-bit symbols, and the code width
/// growing one code early unless `/EarlyChange 0`.
fn lzw(data: &[u8], early_change: bool, limit: usize) -> Result<Vec<u8>, &'static str> {
    use weezl::{BitOrder, LzwStatus, decode::Decoder};
    let mut decoder =
        if early_change { Decoder::with_tiff_size_switch(BitOrder::Msb, 8) } else { Decoder::new(BitOrder::Msb, 8) };
    let mut out = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    let mut input = data;
    loop {
        let result = decoder.decode_bytes(input, &mut chunk);
        input = &input[result.consumed_in..];
        out.extend_from_slice(&chunk[..result.consumed_out]);
        if out.len() > limit {
            return Err(TOO_LARGE);
        }
        match result.status {
            Ok(LzwStatus::Done) | Ok(LzwStatus::NoProgress) => return Ok(out),
            Ok(LzwStatus::Ok) if input.is_empty() && result.consumed_out == 0 => return Ok(out),
            Ok(LzwStatus::Ok) => {}
            Err(_) => return Err("corrupt LZWDecode data"),
        }
    }
}

fn ascii_hex(data: &[u8], limit: usize) -> Result<Vec<u8>, &'static str> {
    let mut out = Vec::with_capacity((data.len() / 2).min(limit));
    let mut high: Option<u8> = None;
    for &b in data {
        if b == b'>' {
            break;
        }
        if is_space(b) {
            continue;
        }
        let digit = hex_value(b).ok_or("bad digit in ASCIIHexDecode data")?;
        match high.take() {
            Some(h) => out.push(h << 4 | digit),
            None => high = Some(digit),
        }
    }
    out.extend(high.map(|h| h << 4));
    if out.len() > limit { Err(TOO_LARGE) } else { Ok(out) }
}

fn ascii85(data: &[u8], limit: usize) -> Result<Vec<u8>, &'static str> {
    let data = data.strip_prefix(b"<~").unwrap_or(data);
    let mut out = Vec::with_capacity((data.len() / 5 * 4).min(limit));
    let mut group = [0u8; 5];
    let mut filled = 0;
    for &b in data {
        match b {
            b'~' => break,
            b'z' if filled == 0 => out.extend_from_slice(&[0; 4]),
            b'!'..=b'u' => {
                group[filled] = b - b'!';
                filled += 1;
                if filled == 5 {
                    out.extend_from_slice(&ascii85_group(&group)?);
                    filled = 0;
                }
            }
            _ if is_space(b) => {}
            _ => return Err("bad character in ASCII85Decode data"),
        }
        if out.len() > limit {
            return Err(TOO_LARGE);
        }
    }
    match filled {
        0 => {}
        1 => return Err("ASCII85Decode data ends in a lone character"),
        _ => {
            // A final group of n characters, padded with the highest digit, gives n - 1 bytes.
            group[filled..].fill(84);
            out.extend_from_slice(&ascii85_group(&group)?[..filled - 1]);
        }
    }
    Ok(out)
}

fn ascii85_group(digits: &[u8; 5]) -> Result<[u8; 4], &'static str> {
    let value = digits.iter().fold(0u64, |v, &d| v * 85 + u64::from(d));
    u32::try_from(value).map(u32::to_be_bytes).map_err(|_| "an ASCII85Decode group beyond 32 bits")
}

fn run_length(data: &[u8], limit: usize) -> Result<Vec<u8>, &'static str> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&length) = data.get(i) {
        match length {
            128 => break,
            0..=127 => {
                let run = data.get(i + 1..i + 2 + usize::from(length)).ok_or("RunLengthDecode data cut short")?;
                out.extend_from_slice(run);
                i += 2 + usize::from(length);
            }
            _ => {
                let &byte = data.get(i + 1).ok_or("RunLengthDecode data cut short")?;
                out.resize(out.len() + 257 - usize::from(length), byte);
                i += 2;
            }
        }
        if out.len() > limit {
            return Err(TOO_LARGE);
        }
    }
    Ok(out)
}

/// Undoes the predictor `parms` names: PNG (10-15, each row says its own) or TIFF (2).
fn unpredict(data: Vec<u8>, parms: &Dict) -> Result<Vec<u8>, &'static str> {
    let predictor = parms.int(b"Predictor").unwrap_or(1);
    if predictor < 2 {
        return Ok(data);
    }
    let field = |key: &[u8], default: i64| parms.int(key).unwrap_or(default);
    let (colors, bits, columns) = (field(b"Colors", 1), field(b"BitsPerComponent", 8), field(b"Columns", 1));
    if !(1..=32).contains(&colors) || ![1, 2, 4, 8, 16].contains(&bits) || columns < 1 {
        return Err("predictor parameters out of range");
    }
    let bits_per_pixel = (colors * bits) as usize;
    let pixel_bytes = bits_per_pixel.div_ceil(8);
    let row_bytes = usize::try_from(columns)
        .ok()
        .and_then(|c| c.checked_mul(bits_per_pixel))
        .map(|b| b.div_ceil(8))
        .ok_or("predictor parameters out of range")?;
    match predictor {
        2 if bits == 8 => Ok(tiff_unpredict(data, row_bytes, pixel_bytes)),
        2 => Err("TIFF predictor on other than 8 bits per component"),
        10..=15 => png_unpredict(&data, row_bytes, pixel_bytes),
        _ => Err("unknown predictor"),
    }
}

/// Each byte was stored less the byte one pixel to its left.
fn tiff_unpredict(mut data: Vec<u8>, row_bytes: usize, pixel_bytes: usize) -> Vec<u8> {
    for row in data.chunks_mut(row_bytes) {
        for i in pixel_bytes..row.len() {
            row[i] = row[i].wrapping_add(row[i - pixel_bytes]);
        }
    }
    data
}

/// Rows of PNG-filtered bytes, each after a byte naming its filter. A last row cut short is
/// kept as far as it goes.
fn png_unpredict(data: &[u8], row_bytes: usize, pixel_bytes: usize) -> Result<Vec<u8>, &'static str> {
    // The row buffers need no more than the data holds, whatever `/Columns` claims.
    let width = row_bytes.min(data.len());
    let mut out = Vec::with_capacity(data.len());
    let mut above = vec![0u8; width];
    let mut row = vec![0u8; width];
    for line in data.chunks(row_bytes.saturating_add(1)) {
        let (&kind, stored) = line.split_first().unwrap_or((&0, &[]));
        for (i, &byte) in stored.iter().enumerate() {
            let left = if i >= pixel_bytes { row[i - pixel_bytes] } else { 0 };
            let up = above[i];
            let up_left = if i >= pixel_bytes { above[i - pixel_bytes] } else { 0 };
            let guess = match kind {
                0 => 0,
                1 => left,
                2 => up,
                3 => ((u16::from(left) + u16::from(up)) / 2) as u8,
                4 => paeth(left, up, up_left),
                _ => return Err("unknown PNG predictor in a row"),
            };
            row[i] = byte.wrapping_add(guess);
        }
        out.extend_from_slice(&row[..stored.len()]);
        above[..stored.len()].copy_from_slice(&row[..stored.len()]);
    }
    Ok(out)
}

fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let p = i16::from(a) + i16::from(b) - i16::from(c);
    let (pa, pb, pc) = ((p - i16::from(a)).abs(), (p - i16::from(b)).abs(), (p - i16::from(c)).abs());
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::pdf::syntax::Object;

    fn filter(kind: FilterKind, parms: &[(&[u8], i64)]) -> Filter {
        let parms =
            (!parms.is_empty()).then(|| Dict(parms.iter().map(|(k, v)| (k.to_vec(), Object::Int(*v))).collect()));
        Filter { kind, name: Vec::new(), parms }
    }

    #[test]
    fn ascii_filters() {
        let hex = filter(FilterKind::AsciiHex, &[]);
        assert_eq!(decode(b"48 656c6C6f 7>", &hex, 100), Ok(b"Hellop".to_vec()));
        assert!(decode(b"4x", &hex, 100).is_err());
        let a85 = filter(FilterKind::Ascii85, &[]);
        assert_eq!(decode(b"<~87cURD]j7BEbo80~>", &a85, 100), Ok(b"Hello world!".to_vec()));
        assert_eq!(decode(b"z87cUR~>", &a85, 100), Ok(b"\0\0\0\0Hell".to_vec()));
        assert_eq!(decode(b"87cURDZ~>", &a85, 100), Ok(b"Hello".to_vec()));
        assert!(decode(b"s8W-\"~>", &a85, 100).is_err());
        assert!(decode(b"zzzz", &a85, 10).is_err());
    }

    #[test]
    fn run_length_and_its_limit() {
        let rl = filter(FilterKind::RunLength, &[]);
        assert_eq!(decode(&[2, b'a', b'b', b'c', 254, b'x', 128, 9], &rl, 100), Ok(b"abcxxx".to_vec()));
        assert!(decode(&[5, b'a'], &rl, 100).is_err());
        assert!(decode(&[129; 100], &rl, 1000).is_err());
    }

    #[test]
    fn flate_with_png_and_tiff_predictors() {
        // Rows of three bytes under the Up, Up, Sub and Paeth predictors.
        let rows = [2u8, 1, 2, 3, 2, 1, 1, 1, 1, 1, 1, 1, 4, 0, 0, 0];
        let zlib = miniz_oxide::deflate::compress_to_vec_zlib(&rows, 6);
        let png = filter(FilterKind::Flate, &[(b"Predictor", 12), (b"Columns", 3)]);
        assert_eq!(decode(&zlib, &png, 100), Ok(vec![1, 2, 3, 2, 3, 4, 1, 2, 3, 1, 2, 3]));
        let png = filter(FilterKind::Flate, &[(b"Predictor", 15), (b"Columns", 1), (b"Colors", 3)]);
        assert_eq!(decode(&zlib, &png, 100).unwrap().len(), 12);
        let tiff = filter(FilterKind::Flate, &[(b"Predictor", 2), (b"Columns", 3)]);
        let zlib = miniz_oxide::deflate::compress_to_vec_zlib(&[1, 1, 1, 5, 250, 10], 6);
        assert_eq!(decode(&zlib, &tiff, 100), Ok(vec![1, 2, 3, 5, 255, 9]));
        // A decompression bomb stops at the limit.
        let bomb = miniz_oxide::deflate::compress_to_vec_zlib(&vec![0; 1 << 20], 9);
        assert!(decode(&bomb, &filter(FilterKind::Flate, &[]), 1000).is_err());
        assert!(decode(b"not zlib at all", &filter(FilterKind::Flate, &[]), 1000).is_err());
        let bad = filter(FilterKind::Flate, &[(b"Predictor", 12), (b"Columns", 1 << 62)]);
        assert!(decode(&miniz_oxide::deflate::compress_to_vec_zlib(&[0, 1], 6), &bad, 100).is_err());
    }

    #[test]
    fn lzw_with_early_change() {
        // The PDF reference's example: "-----A---B" with early change.
        let data = [0x80, 0x0B, 0x60, 0x50, 0x22, 0x0C, 0x0C, 0x85, 0x01];
        assert_eq!(decode(&data, &filter(FilterKind::Lzw, &[]), 100), Ok(b"-----A---B".to_vec()));
    }
}
