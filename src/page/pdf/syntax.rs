//! PDF's object syntax (ISO 32000-1, 7.2-7.3): numbers, strings, names, arrays, dictionaries,
//! references and streams, read from bytes. Every reader here is bounded by its input and by
//! a nesting limit, and reports malformed syntax as an error.

use std::ops::Range;

use super::Malformed;

/// Deepest nesting of arrays and dictionaries accepted; real files nest a few levels.
const MAX_NESTING: usize = 64;

/// A PDF object. Strings and names are kept as raw bytes; the generation of a reference is
/// dropped, since a file's cross-reference data maps each object number to one definition.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Object {
    Null,
    Bool(bool),
    Int(i64),
    Real(f64),
    Name(Vec<u8>),
    String(Vec<u8>),
    Array(Vec<Object>),
    Dict(Dict),
    Stream(Stream),
    Ref(u32),
}

/// A dictionary, in the order its keys are written.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Dict(pub Vec<(Vec<u8>, Object)>);

impl Dict {
    /// The value of `key` as written (a reference is not followed); of a repeated key, the last.
    pub fn get(&self, key: &[u8]) -> Option<&Object> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The value of `key` if it is the name `name`.
    pub fn has_name(&self, key: &[u8], name: &[u8]) -> bool {
        matches!(self.get(key), Some(Object::Name(n)) if n == name)
    }

    /// The value of `key` if it is a direct integer.
    pub fn int(&self, key: &[u8]) -> Option<i64> {
        match self.get(key) {
            Some(Object::Int(n)) => Some(*n),
            _ => None,
        }
    }
}

/// A stream: its dictionary and where its (still encoded) data lies in the file.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Stream {
    /// The number and generation of the object it is: an encrypted file's key for its data.
    pub id: ObjectId,
    pub dict: Dict,
    pub data: Range<usize>,
}

/// An object's number and generation (the low 16 bits, all that a key is made from).
pub(super) type ObjectId = (u32, u16);

pub(super) fn is_space(b: u8) -> bool {
    matches!(b, 0 | b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

fn is_delimiter(b: u8) -> bool {
    matches!(b, b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%')
}

pub(super) fn is_regular(b: u8) -> bool {
    !is_space(b) && !is_delimiter(b)
}

/// Where `needle` first occurs in `haystack`.
pub(super) fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Where `needle` last occurs in `haystack`.
pub(super) fn rfind(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|w| w == needle)
}

/// Reads objects from bytes, from a position on.
pub(super) struct Parser<'a> {
    bytes: &'a [u8],
    pub pos: usize,
    /// The offset errors report in place of the position, for bytes that are not the file's
    /// own (a decompressed object stream: its offset in the file).
    reported_offset: Option<usize>,
}

impl<'a> Parser<'a> {
    /// A parser of the file's bytes from `pos`.
    pub fn new(bytes: &'a [u8], pos: usize) -> Self {
        Parser { bytes, pos, reported_offset: None }
    }

    /// A parser of decoded bytes that came from the stream at `offset` in the file.
    pub fn decoded(bytes: &'a [u8], pos: usize, offset: usize) -> Self {
        Parser { bytes, pos, reported_offset: Some(offset) }
    }

    pub fn error(&self, what: &'static str) -> Malformed {
        Malformed { what, offset: Some(self.reported_offset.unwrap_or(self.pos)) }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn rest(&self) -> &'a [u8] {
        self.bytes.get(self.pos..).unwrap_or_default()
    }

    /// Skips white space and comments.
    pub fn skip_space(&mut self) {
        while let Some(b) = self.peek() {
            if is_space(b) {
                self.pos += 1;
            } else if b == b'%' {
                while self.peek().is_some_and(|b| b != b'\n' && b != b'\r') {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    /// The run of regular characters from the position (a number, a keyword), consumed.
    fn token(&mut self) -> &'a [u8] {
        let start = self.pos;
        while self.peek().is_some_and(is_regular) {
            self.pos += 1;
        }
        // Empty when the position is past the end (an offset from the file can be anything).
        self.bytes.get(start..self.pos).unwrap_or_default()
    }

    /// Consumes the keyword `word` after any white space, if it is there.
    pub fn keyword(&mut self, word: &[u8]) -> bool {
        let start = self.pos;
        self.skip_space();
        if self.token() == word {
            return true;
        }
        self.pos = start;
        false
    }

    /// Consumes an unsigned integer after any white space, if one is there.
    pub fn unsigned(&mut self) -> Option<u64> {
        let start = self.pos;
        self.skip_space();
        let token = self.token();
        let value = (!token.is_empty() && token.iter().all(u8::is_ascii_digit))
            .then(|| std::str::from_utf8(token).ok()?.parse().ok())
            .flatten();
        if value.is_none() {
            self.pos = start;
        }
        value
    }

    /// The next object (a stream's dictionary without its data: see [`indirect_object`]).
    pub fn object(&mut self) -> Result<Object, Malformed> {
        self.value(0)
    }

    fn value(&mut self, depth: usize) -> Result<Object, Malformed> {
        if depth > MAX_NESTING {
            return Err(self.error("arrays or dictionaries nested too deep"));
        }
        self.skip_space();
        let Some(b) = self.peek() else { return Err(self.error("unexpected end of data")) };
        match b {
            b'/' => {
                self.pos += 1;
                Ok(Object::Name(self.name()))
            }
            b'(' => {
                self.pos += 1;
                self.literal_string().map(Object::String)
            }
            b'<' if self.rest().starts_with(b"<<") => {
                self.pos += 2;
                self.dict_body(depth).map(Object::Dict)
            }
            b'<' => {
                self.pos += 1;
                self.hex_string().map(Object::String)
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_space();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        return Ok(Object::Array(items));
                    }
                    items.push(self.value(depth + 1)?);
                }
            }
            _ if is_regular(b) => self.number_or_keyword(),
            _ => Err(self.error("unexpected delimiter")),
        }
    }

    /// A name's characters after its slash, with `#xx` escapes decoded.
    fn name(&mut self) -> Vec<u8> {
        let token = self.token();
        let mut name = Vec::with_capacity(token.len());
        let mut i = 0;
        while i < token.len() {
            let escaped = (token[i] == b'#')
                .then(|| Some(hex_value(*token.get(i + 1)?)? << 4 | hex_value(*token.get(i + 2)?)?))
                .flatten();
            match escaped {
                Some(byte) => {
                    name.push(byte);
                    i += 3;
                }
                None => {
                    name.push(token[i]);
                    i += 1;
                }
            }
        }
        name
    }

    /// A literal string's bytes after its opening parenthesis, up to the balancing one.
    fn literal_string(&mut self) -> Result<Vec<u8>, Malformed> {
        let mut out = Vec::new();
        let mut open = 1usize;
        loop {
            let Some(b) = self.peek() else { return Err(self.error("string without its closing parenthesis")) };
            self.pos += 1;
            match b {
                b'(' => {
                    open += 1;
                    out.push(b);
                }
                b')' => {
                    open -= 1;
                    if open == 0 {
                        return Ok(out);
                    }
                    out.push(b);
                }
                b'\\' => self.escape(&mut out),
                b'\r' => {
                    // An end of line in a string reads as a line feed, whichever way it is written.
                    if self.peek() == Some(b'\n') {
                        self.pos += 1;
                    }
                    out.push(b'\n');
                }
                _ => out.push(b),
            }
        }
    }

    /// The escape after a backslash in a literal string.
    fn escape(&mut self, out: &mut Vec<u8>) {
        let Some(b) = self.peek() else { return };
        self.pos += 1;
        match b {
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'b' => out.push(8),
            b'f' => out.push(0x0C),
            b'0'..=b'7' => {
                let mut value = u32::from(b - b'0');
                for _ in 0..2 {
                    match self.peek() {
                        Some(d @ b'0'..=b'7') => {
                            value = value * 8 + u32::from(d - b'0');
                            self.pos += 1;
                        }
                        _ => break,
                    }
                }
                out.push(value as u8);
            }
            // A backslash at the end of a line continues the string on the next.
            b'\r' => {
                if self.peek() == Some(b'\n') {
                    self.pos += 1;
                }
            }
            b'\n' => {}
            _ => out.push(b),
        }
    }

    /// A hexadecimal string's bytes after its `<`, up to its `>`.
    fn hex_string(&mut self) -> Result<Vec<u8>, Malformed> {
        let mut out = Vec::new();
        let mut high: Option<u8> = None;
        loop {
            let Some(b) = self.peek() else { return Err(self.error("hexadecimal string without its '>'")) };
            self.pos += 1;
            if b == b'>' {
                // An odd final digit stands for its high half.
                out.extend(high.map(|h| h << 4));
                return Ok(out);
            }
            if is_space(b) {
                continue;
            }
            let digit = hex_value(b).ok_or_else(|| self.error("bad digit in a hexadecimal string"))?;
            match high.take() {
                Some(h) => out.push(h << 4 | digit),
                None => high = Some(digit),
            }
        }
    }

    /// A dictionary's entries after its `<<`, up to its `>>`.
    fn dict_body(&mut self, depth: usize) -> Result<Dict, Malformed> {
        let mut entries = Vec::new();
        loop {
            self.skip_space();
            if self.rest().starts_with(b">>") {
                self.pos += 2;
                return Ok(Dict(entries));
            }
            if self.peek() != Some(b'/') {
                return Err(self.error("dictionary key that is not a name"));
            }
            self.pos += 1;
            let key = self.name();
            let value = self.value(depth + 1)?;
            entries.push((key, value));
        }
    }

    /// A number, a reference (`N G R`), `true`, `false` or `null`.
    fn number_or_keyword(&mut self) -> Result<Object, Malformed> {
        let start = self.pos;
        let token = self.token();
        match token {
            b"true" => return Ok(Object::Bool(true)),
            b"false" => return Ok(Object::Bool(false)),
            b"null" => return Ok(Object::Null),
            _ => {}
        }
        let text = std::str::from_utf8(token).unwrap_or_default();
        if let Ok(n) = text.parse::<i64>() {
            if let Ok(number) = u32::try_from(n) {
                let after_number = self.pos;
                if self.unsigned().is_some_and(|generation| generation <= u64::from(u16::MAX)) && self.keyword(b"R") {
                    return Ok(Object::Ref(number));
                }
                self.pos = after_number;
            }
            return Ok(Object::Int(n));
        }
        // A number with a point, or an integer too large for 64 bits.
        let is_number = token.iter().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'+' | b'-'));
        match text.parse::<f64>() {
            Ok(x) if is_number && x.is_finite() => Ok(Object::Real(x)),
            _ => {
                self.pos = start;
                Err(self.error("unexpected keyword where an object should be"))
            }
        }
    }
}

/// The value of a hexadecimal digit.
pub(super) fn hex_value(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// The object defined at `offset` (`N G obj ... endobj`), and its number and generation. A stream's data
/// runs for its `/Length` (`length_of` gives the value of an indirect one) when `endstream`
/// follows it there, and otherwise up to the next `endstream`.
pub(super) fn indirect_object(
    bytes: &[u8],
    offset: usize,
    length_of: &dyn Fn(u32) -> Option<i64>,
) -> Result<(ObjectId, Object), Malformed> {
    indirect_object_and_reach(bytes, offset, length_of).0
}

/// As [`indirect_object`], and how far into `bytes` reading it looked: in a hostile file
/// objects overlap (a header inside another object's unclosed string), and the caller bounds
/// the bytes read over all of them.
pub(super) fn indirect_object_and_reach(
    bytes: &[u8],
    offset: usize,
    length_of: &dyn Fn(u32) -> Option<i64>,
) -> (Result<(ObjectId, Object), Malformed>, usize) {
    let mut p = Parser::new(bytes, offset);
    let result = read_indirect(&mut p, length_of);
    (result, p.pos.max(offset))
}

fn read_indirect(p: &mut Parser<'_>, length_of: &dyn Fn(u32) -> Option<i64>) -> Result<(ObjectId, Object), Malformed> {
    let bytes = p.bytes;
    let number = p.unsigned().and_then(|n| u32::try_from(n).ok());
    let (Some(number), Some(generation), true) = (number, p.unsigned(), p.keyword(b"obj")) else {
        return Err(p.error("no object header (N G obj) where the cross-reference data points"));
    };
    let id = (number, generation as u16);
    let object = p.object()?;
    let Object::Dict(dict) = object else { return Ok((id, object)) };
    if !p.keyword(b"stream") {
        return Ok((id, Object::Dict(dict)));
    }
    // The keyword ends with CR LF or LF; a lone CR is accepted too.
    if p.rest().starts_with(b"\r\n") {
        p.pos += 2;
    } else if matches!(p.peek(), Some(b'\n' | b'\r')) {
        p.pos += 1;
    }
    let start = p.pos;
    let declared = match dict.get(b"Length") {
        Some(Object::Int(n)) => Some(*n),
        Some(Object::Ref(r)) => length_of(*r),
        _ => None,
    };
    let end = declared
        .and_then(|n| start.checked_add(usize::try_from(n).ok()?))
        .filter(|&end| end <= bytes.len() && endstream_follows(bytes, end))
        .or_else(|| endstream_before(bytes, start));
    let Some(end) = end else {
        let error = p.error("stream without endstream");
        // The search for endstream read to the end of the file.
        p.pos = bytes.len();
        return Err(error);
    };
    p.pos = end;
    Ok((id, Object::Stream(Stream { id, dict, data: start..end })))
}

/// Whether `endstream` follows `end`, after at most a line break's white space.
fn endstream_follows(bytes: &[u8], end: usize) -> bool {
    let after = &bytes[end..];
    let space = after.iter().take(4).take_while(|&&b| is_space(b)).count();
    after[space..].starts_with(b"endstream")
}

/// The end of a stream's data that starts at `start`: the next `endstream`, less the line break
/// before it.
fn endstream_before(bytes: &[u8], start: usize) -> Option<usize> {
    let mut end = start + find(bytes.get(start..)?, b"endstream")?;
    if end > start && bytes[end - 1] == b'\n' {
        end -= 1;
    }
    if end > start && bytes[end - 1] == b'\r' {
        end -= 1;
    }
    Some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &[u8]) -> Result<Object, Malformed> {
        Parser::new(text, 0).object()
    }

    fn name(n: &[u8]) -> Object {
        Object::Name(n.to_vec())
    }

    #[test]
    fn reads_every_kind_of_object() {
        assert_eq!(parse(b"  % comment\n 42"), Ok(Object::Int(42)));
        assert_eq!(parse(b"-.5"), Ok(Object::Real(-0.5)));
        assert_eq!(parse(b"+3."), Ok(Object::Real(3.0)));
        assert_eq!(parse(b"true"), Ok(Object::Bool(true)));
        assert_eq!(parse(b"null"), Ok(Object::Null));
        assert_eq!(parse(b"/A#20B#zz"), Ok(name(b"A B#zz")));
        assert_eq!(parse(b"(a (b) \\) \\101\\0612 \\\nc\r\nd)"), Ok(Object::String(b"a (b) ) A12 c\nd".to_vec())));
        assert_eq!(parse(b"<48 65 6C6c6 >"), Ok(Object::String(b"Hell`".to_vec())));
        assert_eq!(
            parse(b"[1 0 R 2 /X 3 4 R]"),
            Ok(Object::Array(vec![Object::Ref(1), Object::Int(2), name(b"X"), Object::Ref(3)]))
        );
        let Ok(Object::Dict(d)) = parse(b"<</Type/Page/Kids[5 0 R]/N 7/Sub<</A<00ff>>>>>") else { panic!() };
        assert!(d.has_name(b"Type", b"Page"));
        assert_eq!(d.int(b"N"), Some(7));
        assert_eq!(d.get(b"Kids"), Some(&Object::Array(vec![Object::Ref(5)])));
        let Some(Object::Dict(sub)) = d.get(b"Sub") else { panic!() };
        assert_eq!(sub.get(b"A"), Some(&Object::String(vec![0, 255])));
    }

    #[test]
    fn malformed_syntax_is_an_error() {
        for bad in [&b""[..], b"(open", b"<12x4>", b"<< 1 2 >>", b"[1 2", b"<</A>>", b"obj", b")", b"1.2.3"] {
            assert!(parse(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
        let deep = [b"[".repeat(100), b"]".repeat(100)].concat();
        assert!(parse(&deep).is_err());
    }

    #[test]
    fn stream_data_follows_length_or_endstream() {
        let file = b"7 2 obj <</Length 5>> stream\r\nab\ncd\nendstream endobj";
        let (id, Object::Stream(s)) = indirect_object(file, 0, &|_| None).unwrap() else { panic!() };
        assert_eq!((id, s.id, &file[s.data]), ((7, 2), (7, 2), &b"ab\ncd"[..]));
        // A wrong length: the data runs up to endstream.
        let file = b"7 0 obj <</Length 99>> stream\nab\ncd\nendstream endobj";
        let (_, Object::Stream(s)) = indirect_object(file, 0, &|_| None).unwrap() else { panic!() };
        assert_eq!(&file[s.data], b"ab\ncd");
        // An indirect length, holding the keyword's own bytes.
        let file = b"7 0 obj <</Length 8 0 R>> stream\nendstreamendstream\nendobj";
        let (_, Object::Stream(s)) = indirect_object(file, 0, &|n| (n == 8).then_some(9)).unwrap() else { panic!() };
        assert_eq!(&file[s.data], b"endstream");
        assert!(indirect_object(b"7 0 obj <</Length 3>> stream\nabc", 0, &|_| None).is_err());
        assert!(indirect_object(b"7 0 ob 5", 0, &|_| None).is_err());
    }
}
