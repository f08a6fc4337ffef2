//! A PDF file's objects, trailer and pages.
//!
//! Objects are found where the cross-reference data puts them: tables and cross-reference
//! streams, followed through `/Prev` to older updates (the newest definition wins), and object
//! streams. When that data is missing, broken or points at the wrong bytes, the whole file is
//! scanned for `N G obj` and a later definition replaces an earlier one, as an incremental
//! update does; the trailer is then the last `trailer` dictionary or cross-reference stream
//! that names a catalog, or failing that the object of type `/Catalog`. An encrypted file's
//! strings are decrypted as its objects are read, and its streams as they are decoded.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use super::filters::{self, Filter, FilterKind};
use super::security::Security;
use super::syntax::{
    Dict, Object, ObjectId, Parser, Stream, find, indirect_object, indirect_object_and_reach, is_regular, is_space,
    rfind,
};
use super::{MAX_DECODED, Malformed, PdfError};

/// Most cross-reference sections followed through `/Prev`: more than any real file's updates.
const MAX_XREF_SECTIONS: usize = 256;
/// Bytes of the file read for an object header (`N G obj`) or an indirect `/Length`: each is a
/// few tokens, and a bound keeps many of them pointing into one long run of bytes cheap.
const SHORT_OBJECT_WINDOW: usize = 256;
/// Most `trailer` dictionaries tried, from the last, when the cross-reference data is broken.
const MAX_TRAILER_CANDIDATES: usize = 16;
/// Deepest page tree walked; real trees are a few levels deep.
const MAX_TREE_DEPTH: usize = 64;
/// Longest chain of references followed to reach an object.
const MAX_REFERENCE_CHAIN: usize = 32;

/// Where the cross-reference data puts an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Location {
    /// At this byte offset in the file.
    Offset(usize),
    /// Inside the object stream with this number.
    InStream(u32),
}

/// Why a stream's data cannot be decoded.
#[derive(Debug)]
pub(super) enum DecodeError {
    /// A filter the reader does not undo, by its name in the file.
    Unsupported(Vec<u8>),
    Malformed(Malformed),
}

/// An object as found: read, or why it cannot be.
type Found = Result<Object, Malformed>;

/// A page, as far as the reader needs it: its resources, as written on it or inherited from the
/// page tree.
pub(super) struct Page<'d> {
    pub resources: Option<&'d Object>,
}

/// A PDF file's objects by number, and its trailer.
pub(super) struct Document<'a> {
    bytes: &'a [u8],
    /// Every object found; one that was found but cannot be read holds why.
    objects: HashMap<u32, Found>,
    pub trailer: Dict,
    /// Decrypts strings and streams when the file is encrypted.
    security: Option<Security>,
}

/// How many bytes of `len` bytes of objects are parsed at most: objects do not overlap in a real
/// file, so they read about its length once; reading stops at a few times that, so that
/// overlapping ones cannot make it quadratic.
fn overlapping_read_budget(len: usize) -> usize {
    len.saturating_mul(4).saturating_add(1 << 20)
}

/// The error of an object past [`overlapping_read_budget`].
const OVERLAPPING: &str = "objects overlapping beyond what can be read";

impl<'a> Document<'a> {
    /// Finds and reads the objects of the PDF held in `bytes`, decrypting an encrypted one.
    pub fn load(bytes: &'a [u8]) -> Result<Document<'a>, PdfError> {
        if find(&bytes[..bytes.len().min(1024)], b"%PDF-").is_none() {
            return Err(PdfError::Unreadable(Malformed { what: "no %PDF- header", offset: Some(0) }));
        }
        let mut doc = Document { bytes, objects: HashMap::new(), trailer: Dict::default(), security: None };
        let (mut locations, trailer, complete) = doc.cross_reference().unwrap_or_default();
        let broken = !complete
            || locations
                .iter()
                .any(|(&number, &location)| matches!(location, Location::Offset(at) if object_header(bytes, at) != Some(number)));
        if broken {
            for (number, at) in scan_for_objects(bytes) {
                let listed_and_right = match locations.get(&number) {
                    Some(&Location::Offset(listed)) => object_header(bytes, listed) == Some(number),
                    Some(Location::InStream(_)) => true,
                    None => false,
                };
                if !listed_and_right {
                    locations.insert(number, Location::Offset(at));
                }
            }
        }
        let generations = doc.read_objects_at_offsets(&locations);
        doc.trailer = trailer;
        if doc.trailer.get(b"Root").is_none() {
            doc.trailer = doc.scanned_trailer(&locations);
        }
        // The encryption dictionary lies at an offset, never in an object stream.
        doc.security = doc.open_security()?;
        if doc.security.is_some() {
            doc.decrypt_strings(&generations);
        }
        doc.read_object_streams(&locations, broken);
        Ok(doc)
    }

    /// The security handler of an encrypted file, opened with the empty user password.
    fn open_security(&self) -> Result<Option<Security>, PdfError> {
        let encrypt = match self.trailer.get(b"Encrypt") {
            None | Some(Object::Null) => return Ok(None),
            Some(encrypt) => match self.resolve(encrypt) {
                Ok(Object::Dict(encrypt)) => encrypt,
                _ => {
                    let what = "an encryption dictionary (/Encrypt) that cannot be read";
                    return Err(PdfError::Unreadable(Malformed { what, offset: None }));
                }
            },
        };
        let file_id = match self.get(&self.trailer, b"ID") {
            Ok(Some(Object::Array(id))) => match id.first().map(|first| self.resolve(first)) {
                Some(Ok(Object::String(first))) => first.as_slice(),
                _ => &[],
            },
            _ => &[],
        };
        Security::open(encrypt, file_id).map(Some)
    }

    /// Decrypts the strings of the objects read at offsets (`generations` gives each one's
    /// generation), except in the encryption dictionary and cross-reference streams, which are
    /// not encrypted. An object with a string that cannot be decrypted is an error in its place.
    fn decrypt_strings(&mut self, generations: &HashMap<u32, u16>) {
        let Some(security) = &self.security else { return };
        let encrypt_dict = match self.trailer.get(b"Encrypt") {
            Some(Object::Ref(number)) => Some(*number),
            _ => None,
        };
        for (&number, found) in &mut self.objects {
            let Ok(object) = found else { continue };
            let cross_reference = matches!(object, Object::Stream(s) if s.dict.has_name(b"Type", b"XRef"));
            if Some(number) == encrypt_dict || cross_reference {
                continue;
            }
            let id = (number, generations.get(&number).copied().unwrap_or(0));
            if let Err(what) = decrypt_strings_in(object, security, id) {
                *found = Err(Malformed { what, offset: None });
            }
        }
    }

    /// Reads the objects at offsets, and gives the generation of each.
    fn read_objects_at_offsets(&mut self, locations: &HashMap<u32, Location>) -> HashMap<u32, u16> {
        let bytes = self.bytes;
        // An indirect `/Length` is an integer object at an offset.
        let length_of = |number: u32| match locations.get(&number) {
            Some(&Location::Offset(at)) => match indirect_object(window(bytes, at), at, &|_| None) {
                Ok((_, Object::Int(n))) => Some(n),
                _ => None,
            },
            _ => None,
        };
        let mut read_budget = overlapping_read_budget(bytes.len());
        let mut generations = HashMap::new();
        for (&number, &location) in locations {
            if let Location::Offset(at) = location {
                if read_budget == 0 {
                    self.objects.insert(number, Err(Malformed { what: OVERLAPPING, offset: Some(at) }));
                    continue;
                }
                let (result, reach) = indirect_object_and_reach(bytes, at, &length_of);
                read_budget = read_budget.saturating_sub(reach - at);
                self.objects.insert(
                    number,
                    result.map(|((_, generation), object)| {
                        generations.insert(number, generation);
                        object
                    }),
                );
            }
        }
        generations
    }

    /// Reads the object streams the locations name (every object stream in the file when
    /// `scanned`, since the scan cannot see inside them) and the objects they hold.
    fn read_object_streams(&mut self, locations: &HashMap<u32, Location>, scanned: bool) {
        let mut streams: Vec<u32> = locations
            .values()
            .filter_map(|location| match location {
                Location::InStream(stream) => Some(*stream),
                Location::Offset(_) => None,
            })
            .collect();
        if scanned {
            streams.extend(self.objects.iter().filter_map(|(&number, object)| match object {
                Ok(Object::Stream(s)) if s.dict.has_name(b"Type", b"ObjStm") => Some(number),
                _ => None,
            }));
        }
        streams.sort_unstable();
        streams.dedup();
        // Object streams share one decoding budget, so that many of them cannot add up to a bomb.
        let mut budget = MAX_DECODED;
        for stream in streams {
            match self.object_stream(stream, &mut budget) {
                Ok(contents) => {
                    for (number, object) in contents {
                        let belongs = match locations.get(&number) {
                            Some(&Location::InStream(s)) => s == stream,
                            Some(Location::Offset(_)) => false,
                            None => true,
                        };
                        if belongs && !self.objects.contains_key(&number) {
                            self.objects.insert(number, object);
                        }
                    }
                }
                Err(e) => {
                    for (&number, &location) in locations {
                        if location == Location::InStream(stream) {
                            self.objects.insert(number, Err(e));
                        }
                    }
                }
            }
        }
    }

    /// The objects held in object stream `number` (`/N` pairs of object number and offset
    /// from `/First`, then the objects).
    fn object_stream(&self, number: u32, budget: &mut usize) -> Result<Vec<(u32, Found)>, Malformed> {
        let stream = match self.objects.get(&number) {
            Some(Ok(Object::Stream(s))) => s,
            Some(Err(e)) => return Err(*e),
            _ => return Err(Malformed { what: "an object stream that is missing", offset: None }),
        };
        let data = self.decode_internal(stream, *budget)?;
        *budget -= data.len();
        let offset = stream.data.start;
        let bad = Malformed { what: "an object stream whose /N or /First is out of range", offset: Some(offset) };
        let count = usize::try_from(stream.dict.int(b"N").ok_or(bad)?).map_err(|_| bad)?;
        let first = usize::try_from(stream.dict.int(b"First").ok_or(bad)?).map_err(|_| bad)?;
        if first > data.len() {
            return Err(bad);
        }
        let mut header = Parser::decoded(&data[..first], 0, offset);
        let mut contents = Vec::new();
        let mut read_budget = overlapping_read_budget(data.len());
        for _ in 0..count.min(data.len()) {
            let (Some(number), Some(at)) = (header.unsigned(), header.unsigned()) else { break };
            let Ok(number) = u32::try_from(number) else { continue };
            let at = usize::try_from(at).ok().and_then(|at| at.checked_add(first)).filter(|&at| at <= data.len());
            let object = match at {
                Some(_) if read_budget == 0 => Err(Malformed { what: OVERLAPPING, offset: Some(offset) }),
                Some(at) => {
                    let mut parser = Parser::decoded(&data, at, offset);
                    let object = parser.object();
                    read_budget = read_budget.saturating_sub(parser.pos - at);
                    object
                }
                None => Err(bad),
            };
            contents.push((number, object));
        }
        Ok(contents)
    }

    /// The cross-reference data from `startxref` back through every `/Prev`: each object's
    /// newest location, the trailers merged (newest first), and whether every section was read.
    fn cross_reference(&self) -> Result<(HashMap<u32, Location>, Dict, bool), Malformed> {
        let bytes = self.bytes;
        let at = rfind(bytes, b"startxref").ok_or(Malformed { what: "no startxref", offset: None })?;
        let mut p = Parser::new(bytes, at + b"startxref".len());
        let start = p.unsigned().ok_or_else(|| p.error("no offset after startxref"))?;
        let mut offset = usize::try_from(start).map_err(|_| p.error("startxref beyond the file"))?;
        let (mut locations, mut trailer) = (HashMap::new(), Dict::default());
        let mut seen = HashSet::new();
        let mut complete = true;
        for section in 0..MAX_XREF_SECTIONS {
            if !seen.insert(offset) {
                break;
            }
            let (entries, section_trailer) = match self.xref_section(offset) {
                Ok(read) => read,
                Err(e) if section == 0 => return Err(e),
                Err(_) => {
                    complete = false;
                    break;
                }
            };
            let mut add = |entries: Vec<(u32, Location)>| {
                for (number, location) in entries {
                    locations.entry(number).or_insert(location);
                }
            };
            add(entries);
            // A hybrid file lists its compressed objects in a stream beside the table.
            if let Some(stream_at) = section_trailer.int(b"XRefStm").and_then(|n| usize::try_from(n).ok()) {
                match self.xref_section(stream_at) {
                    Ok((entries, _)) => add(entries),
                    Err(_) => complete = false,
                }
            }
            let prev = section_trailer.int(b"Prev");
            for (key, value) in section_trailer.0 {
                if trailer.get(&key).is_none() {
                    trailer.0.push((key, value));
                }
            }
            match prev.and_then(|n| usize::try_from(n).ok()) {
                Some(prev) => offset = prev,
                None => break,
            }
        }
        Ok((locations, trailer, complete))
    }

    /// The entries and trailer of the cross-reference table or stream at `offset`.
    fn xref_section(&self, offset: usize) -> Result<(Vec<(u32, Location)>, Dict), Malformed> {
        let mut p = Parser::new(self.bytes, offset);
        if p.keyword(b"xref") {
            return xref_table(p);
        }
        match indirect_object(self.bytes, offset, &|_| None)? {
            (_, Object::Stream(stream)) => self.xref_stream(&stream),
            _ => Err(p.error("no cross-reference table or stream where startxref points")),
        }
    }

    /// A cross-reference stream's entries (`/W` field widths, `/Index` ranges), and its
    /// dictionary, which serves as the trailer.
    fn xref_stream(&self, stream: &Stream) -> Result<(Vec<(u32, Location)>, Dict), Malformed> {
        let bad = Malformed {
            what: "a cross-reference stream whose /W or /Index is malformed",
            offset: Some(stream.data.start),
        };
        let data = self.decode_internal(stream, MAX_DECODED)?;
        let widths: Vec<usize> = match stream.dict.get(b"W") {
            Some(Object::Array(w)) if w.len() == 3 => w
                .iter()
                .map(|n| match n {
                    Object::Int(n @ 0..=8) => Ok(*n as usize),
                    _ => Err(bad),
                })
                .collect::<Result<_, _>>()?,
            _ => return Err(bad),
        };
        let row_len: usize = widths.iter().sum();
        if row_len == 0 {
            return Err(bad);
        }
        let ranges: Vec<i64> = match stream.dict.get(b"Index") {
            Some(Object::Array(index)) => index
                .iter()
                .map(|n| if let Object::Int(n) = n { Ok(*n) } else { Err(bad) })
                .collect::<Result<_, _>>()?,
            _ => vec![0, stream.dict.int(b"Size").ok_or(bad)?],
        };
        let mut rows = data.chunks_exact(row_len);
        let mut entries = Vec::new();
        'ranges: for range in ranges.chunks_exact(2) {
            let (Ok(first), Ok(count)) = (u32::try_from(range[0]), u64::try_from(range[1])) else { return Err(bad) };
            for i in 0..count {
                let Some(row) = rows.next() else { break 'ranges };
                let mut fields = [0u64; 3];
                let mut at = 0;
                for (field, &width) in fields.iter_mut().zip(&widths) {
                    *field = row[at..at + width].iter().fold(0, |v, &b| v << 8 | u64::from(b));
                    at += width;
                }
                // A missing type field means type 1, an object at an offset.
                let kind = if widths[0] == 0 { 1 } else { fields[0] };
                let Some(number) = u32::try_from(i).ok().and_then(|i| first.checked_add(i)) else { break 'ranges };
                match kind {
                    1 => entries.extend(usize::try_from(fields[1]).ok().map(|at| (number, Location::Offset(at)))),
                    2 => entries.extend(u32::try_from(fields[1]).ok().map(|s| (number, Location::InStream(s)))),
                    _ => {}
                }
            }
        }
        Ok((entries, stream.dict.clone()))
    }

    /// The trailer when the cross-reference data gives none with a catalog: the last `trailer`
    /// dictionary naming a catalog, else the cross-reference stream furthest into the file that
    /// names one.
    fn scanned_trailer(&self, locations: &HashMap<u32, Location>) -> Dict {
        let mut end = self.bytes.len();
        // The last few: a file of many broken trailers is not read over and over.
        for _ in 0..MAX_TRAILER_CANDIDATES {
            let Some(at) = rfind(&self.bytes[..end], b"trailer") else { break };
            if let Ok(Object::Dict(trailer)) = Parser::new(self.bytes, at + b"trailer".len()).object()
                && trailer.get(b"Root").is_some()
            {
                return trailer;
            }
            end = at;
        }
        let mut at_offsets: Vec<(usize, u32)> = locations
            .iter()
            .filter_map(|(&number, &location)| match location {
                Location::Offset(at) => Some((at, number)),
                Location::InStream(_) => None,
            })
            .collect();
        at_offsets.sort_unstable_by(|a, b| b.cmp(a));
        at_offsets
            .iter()
            .find_map(|(_, number)| match self.objects.get(number) {
                Some(Ok(Object::Stream(s))) if s.dict.has_name(b"Type", b"XRef") && s.dict.get(b"Root").is_some() => {
                    Some(s.dict.clone())
                }
                _ => None,
            })
            .unwrap_or_default()
    }

    /// The object `object` stands for: itself, or what its reference (chain) points at; a
    /// reference to no object is null, as the format says.
    pub fn resolve<'d>(&'d self, object: &'d Object) -> Result<&'d Object, Malformed> {
        let mut object = object;
        for _ in 0..MAX_REFERENCE_CHAIN {
            let Object::Ref(number) = object else { return Ok(object) };
            object = match self.objects.get(number) {
                Some(Ok(found)) => found,
                Some(Err(e)) => return Err(*e),
                None => return Ok(&Object::Null),
            };
        }
        Err(Malformed { what: "a chain of references that does not end", offset: None })
    }

    /// The value of `key` in `dict` with references followed; `None` when absent or null.
    pub fn get<'d>(&'d self, dict: &'d Dict, key: &[u8]) -> Result<Option<&'d Object>, Malformed> {
        match dict.get(key) {
            None => Ok(None),
            Some(value) => self.resolve(value).map(|v| (*v != Object::Null).then_some(v)),
        }
    }

    /// The integer value of `key` in `dict`, references followed.
    pub fn int(&self, dict: &Dict, key: &[u8]) -> Option<i64> {
        match self.get(dict, key) {
            Ok(Some(Object::Int(n))) => Some(*n),
            _ => None,
        }
    }

    /// The document catalog: the trailer's `/Root`, or the object of type `/Catalog` when the
    /// trailer is lost.
    fn catalog(&self) -> Result<&Dict, Malformed> {
        if let Ok(Some(Object::Dict(root))) = self.get(&self.trailer, b"Root") {
            return Ok(root);
        }
        self.objects
            .iter()
            .filter_map(|(number, object)| match object {
                Ok(Object::Dict(d)) if d.has_name(b"Type", b"Catalog") => Some((number, d)),
                _ => None,
            })
            .max_by_key(|(number, _)| **number)
            .map(|(_, d)| d)
            .ok_or(Malformed { what: "no document catalog (/Root)", offset: None })
    }

    /// The pages in order, walking the page tree from the catalog; a branch of the tree that
    /// cannot be read is an error in the place of its pages.
    pub fn pages(&self) -> Result<Vec<Result<Page<'_>, Malformed>>, Malformed> {
        let catalog = self.catalog()?;
        let tree = match self.get(catalog, b"Pages")? {
            Some(Object::Dict(tree)) => tree,
            _ => return Err(Malformed { what: "the catalog has no page tree (/Pages)", offset: None }),
        };
        let mut visited = HashSet::new();
        if let Some(Object::Ref(number)) = catalog.get(b"Pages") {
            visited.insert(*number);
        }
        let mut pages = Vec::new();
        self.walk(tree, None, 0, &mut visited, &mut pages);
        Ok(pages)
    }

    /// Adds the pages under `node` to `pages`; each node is visited once, so a cycle in the
    /// tree ends.
    fn walk<'d>(
        &'d self,
        node: &'d Dict,
        inherited: Option<&'d Object>,
        depth: usize,
        visited: &mut HashSet<u32>,
        pages: &mut Vec<Result<Page<'d>, Malformed>>,
    ) {
        let resources = node.get(b"Resources").or(inherited);
        let kids = match self.get(node, b"Kids") {
            _ if node.has_name(b"Type", b"Page") => None,
            Ok(Some(Object::Array(kids))) => Some(kids),
            Ok(_) if node.has_name(b"Type", b"Pages") => return,
            Ok(_) => None,
            Err(e) => return pages.push(Err(e)),
        };
        let Some(kids) = kids else { return pages.push(Ok(Page { resources })) };
        if depth >= MAX_TREE_DEPTH {
            return pages.push(Err(Malformed { what: "a page tree nested too deep", offset: None }));
        }
        for kid in kids {
            if let Object::Ref(number) = kid
                && !visited.insert(*number)
            {
                continue;
            }
            match self.resolve(kid) {
                Ok(Object::Dict(kid)) => self.walk(kid, resources, depth + 1, visited, pages),
                Ok(_) => pages.push(Err(Malformed { what: "a page that is not a dictionary", offset: None })),
                Err(e) => pages.push(Err(e)),
            }
        }
    }

    /// The bytes of a stream's data as the file holds them.
    pub fn raw_data(&self, stream: &Stream) -> &'a [u8] {
        self.bytes.get(stream.data.clone()).unwrap_or_default()
    }

    /// The filters a stream's dictionary names, in the order they are undone, each with its
    /// parameters.
    pub fn filters(&self, dict: &Dict) -> Result<Vec<Filter>, Malformed> {
        let not_a_name = Malformed { what: "a /Filter that is not a name or an array of names", offset: None };
        let names: Vec<&Object> = match self.get(dict, b"Filter")? {
            None => Vec::new(),
            Some(Object::Array(names)) => names.iter().collect(),
            Some(name) => vec![name],
        };
        let parms: Vec<Option<&Dict>> = match self.get(dict, b"DecodeParms")? {
            Some(Object::Dict(parms)) => vec![Some(parms)],
            Some(Object::Array(list)) => list
                .iter()
                .map(|p| match self.resolve(p) {
                    Ok(Object::Dict(parms)) => Some(parms),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        names
            .iter()
            .enumerate()
            .map(|(i, name)| match self.resolve(name)? {
                Object::Name(name) => Ok(Filter {
                    kind: FilterKind::from_name(name),
                    name: name.clone(),
                    parms: parms.get(i).copied().flatten().cloned(),
                }),
                _ => Err(not_a_name),
            })
            .collect()
    }

    /// A stream's data decrypted and with `filters` undone, at most `limit` bytes after each
    /// filter.
    pub fn decode(&self, stream: &Stream, filters: &[Filter], limit: usize) -> Result<Vec<u8>, DecodeError> {
        if let Some(filter) = filters.iter().find(|f| matches!(f.kind, FilterKind::Dct | FilterKind::Unsupported)) {
            return Err(DecodeError::Unsupported(filter.name.clone()));
        }
        let mut data = Cow::Borrowed(self.raw_data(stream));
        if let Some(security) = &self.security
            && !stream.dict.has_name(b"Type", b"XRef")
        {
            // A `/Crypt` filter comes first and names the crypt filter that replaces `/StmF`.
            let crypt_filter = filters.first().filter(|f| f.kind == FilterKind::Crypt).map(|f| {
                match f.parms.as_ref().and_then(|parms| parms.get(b"Name")) {
                    Some(Object::Name(name)) => name.as_slice(),
                    _ => b"Identity".as_slice(),
                }
            });
            let decrypted = security
                .decrypt_stream(stream.id, crypt_filter, &data)
                .map_err(|what| DecodeError::Malformed(Malformed { what, offset: Some(stream.data.start) }))?;
            data = Cow::Owned(decrypted);
        }
        for filter in filters.iter().filter(|f| f.kind != FilterKind::Crypt) {
            let decoded = filters::decode(&data, filter, limit)
                .map_err(|what| DecodeError::Malformed(Malformed { what, offset: Some(stream.data.start) }))?;
            data = Cow::Owned(decoded);
        }
        Ok(data.into_owned())
    }

    /// The decoded data of a stream of the file's structure (cross-reference or object stream).
    fn decode_internal(&self, stream: &Stream, limit: usize) -> Result<Vec<u8>, Malformed> {
        let filters = self.filters(&stream.dict)?;
        self.decode(stream, &filters, limit).map_err(|e| match e {
            DecodeError::Malformed(e) => e,
            DecodeError::Unsupported(_) => Malformed {
                what: "a cross-reference or object stream behind a filter the reader does not undo",
                offset: Some(stream.data.start),
            },
        })
    }
}

/// Decrypts every string in `object` (of object `id`), in place.
fn decrypt_strings_in(object: &mut Object, security: &Security, id: ObjectId) -> Result<(), &'static str> {
    match object {
        Object::String(bytes) => *bytes = security.decrypt_string(id, bytes)?,
        Object::Array(items) => items.iter_mut().try_for_each(|item| decrypt_strings_in(item, security, id))?,
        Object::Dict(dict) | Object::Stream(Stream { dict, .. }) => {
            dict.0.iter_mut().try_for_each(|(_, value)| decrypt_strings_in(value, security, id))?
        }
        _ => {}
    }
    Ok(())
}

/// A cross-reference table's in-use entries and its trailer, read after its `xref` keyword.
fn xref_table(mut p: Parser<'_>) -> Result<(Vec<(u32, Location)>, Dict), Malformed> {
    let mut entries = Vec::new();
    loop {
        if p.keyword(b"trailer") {
            return match p.object()? {
                Object::Dict(trailer) => Ok((entries, trailer)),
                _ => Err(p.error("a trailer that is not a dictionary")),
            };
        }
        let (Some(first), Some(count)) = (p.unsigned(), p.unsigned()) else {
            return Err(p.error("a malformed cross-reference table"));
        };
        // Each entry is read from the file, so a false count ends at the file's end.
        for i in 0..count {
            let (Some(at), Some(_generation)) = (p.unsigned(), p.unsigned()) else {
                return Err(p.error("a malformed cross-reference entry"));
            };
            let in_use = if p.keyword(b"n") {
                true
            } else if p.keyword(b"f") {
                false
            } else {
                return Err(p.error("a cross-reference entry neither in use (n) nor free (f)"));
            };
            let number = first.checked_add(i).and_then(|n| u32::try_from(n).ok());
            if let (true, Some(number), Ok(at)) = (in_use, number, usize::try_from(at)) {
                entries.push((number, Location::Offset(at)));
            }
        }
    }
}

/// The file up to a short object's end at most, for an object that starts at `at`.
fn window(bytes: &[u8], at: usize) -> &[u8] {
    &bytes[..bytes.len().min(at.saturating_add(SHORT_OBJECT_WINDOW))]
}

/// The number of the object whose header (`N G obj`) starts at `at`, if one does.
fn object_header(bytes: &[u8], at: usize) -> Option<u32> {
    let mut p = Parser::new(window(bytes, at), at);
    let number = p.unsigned()?;
    p.unsigned()?;
    p.keyword(b"obj").then_some(())?;
    u32::try_from(number).ok()
}

/// Every object header (`N G obj`) in the file: each object number's offset, a later
/// definition replacing an earlier one.
fn scan_for_objects(bytes: &[u8]) -> HashMap<u32, usize> {
    let mut found = HashMap::new();
    let mut from = 0;
    while let Some(at) = find(&bytes[from..], b"obj").map(|i| from + i) {
        from = at + 3;
        if bytes.get(at + 3).is_some_and(|&b| is_regular(b)) {
            continue;
        }
        // Back over ` G ` and `N`, each a run of digits after white space.
        let mut start = at;
        let mut runs_ok = true;
        for _ in 0..2 {
            let spaces = bytes[..start].iter().rev().take_while(|&&b| is_space(b)).count();
            let digits = bytes[..start - spaces].iter().rev().take_while(|b| b.is_ascii_digit()).count();
            if spaces == 0 || digits == 0 {
                runs_ok = false;
                break;
            }
            start -= spaces + digits;
        }
        if runs_ok
            && (start == 0 || !is_regular(bytes[start - 1]))
            && let Some(number) = object_header(bytes, start)
        {
            found.insert(number, start);
        }
    }
    found
}
