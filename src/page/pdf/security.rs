//! The standard security handler (ISO 32000-2, 7.6.4) opened with the empty user password.
//!
//! Scanners and phone scanning apps often encrypt a PDF only to set its permissions: it opens
//! without asking for a password, and its strings and streams are encrypted all the same, with
//! RC4 (revisions 2 to 4), AES-128 (revision 4) or AES-256 (revisions 5 and 6). The reader
//! derives the file's key from the empty password, checks it against the file's `/U` entry, and
//! decrypts each object's strings and streams with that object's key. A file that needs a
//! password to open is refused.

use sha2::{Digest, Sha256, Sha384, Sha512};

use super::crypt::{Aes, aes_cbc_decrypt_padded, md5, rc4};
use super::syntax::{Dict, Object, ObjectId};
use super::{Malformed, PdfError};

/// The padding that stands for an empty password in revisions 2 to 4 (Algorithm 2, step a).
pub(super) const PADDING: [u8; 32] = [
    0x28, 0xBF, 0x4E, 0x5E, 0x4E, 0x75, 0x8A, 0x41, 0x64, 0x00, 0x4E, 0x56, 0xFF, 0xFA, 0x01, 0x08, 0x2E, 0x2E, 0x00,
    0xB6, 0xD0, 0x68, 0x3E, 0x80, 0x2F, 0x0C, 0xA9, 0xFE, 0x64, 0x53, 0x69, 0x7A,
];

/// How a crypt filter encrypts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cipher {
    Identity,
    Rc4,
    Aes128,
    Aes256,
}

/// The decryption of an encrypted PDF opened with the empty user password.
pub(super) struct Security {
    file_key: Vec<u8>,
    strings: Cipher,
    streams: Cipher,
    /// The crypt filters of `/CF` by name, for a stream's `/Crypt` filter that names one.
    named: NamedCiphers,
}

type NamedCiphers = Vec<(Vec<u8>, Cipher)>;

impl Security {
    /// Opens the encryption dictionary `encrypt` with the empty user password; `file_id` is the
    /// first element of the trailer's `/ID`.
    pub fn open(encrypt: &Dict, file_id: &[u8]) -> Result<Security, PdfError> {
        let malformed = |what| PdfError::Unreadable(Malformed { what, offset: None });
        let unsupported = |what: String| PdfError::UnsupportedEncryption(what);
        if !encrypt.has_name(b"Filter", b"Standard") {
            let name = match encrypt.get(b"Filter") {
                Some(Object::Name(name)) => String::from_utf8_lossy(name).into_owned(),
                _ => "(none)".into(),
            };
            return Err(unsupported(format!("the security handler /{name}")));
        }
        let string = |key: &[u8]| match encrypt.get(key) {
            Some(Object::String(s)) => s.as_slice(),
            _ => &[],
        };
        let (owner, user) = (string(b"O"), string(b"U"));
        let (strings, streams, named) = match encrypt.int(b"V") {
            Some(1 | 2) => (Cipher::Rc4, Cipher::Rc4, Vec::new()),
            Some(4 | 5) => crypt_filters(encrypt)?,
            version => return Err(unsupported(format!("encryption version /V {}", version.unwrap_or(0)))),
        };
        let revision = encrypt.int(b"R").unwrap_or(0);
        let file_key = match revision {
            2..=4 => {
                if owner.len() < 32 || user.len() < 32 {
                    return Err(malformed("an encryption dictionary whose /O or /U is short"));
                }
                let bits = match (revision, encrypt.int(b"Length")) {
                    (2, _) => 40,
                    (_, Some(bits)) => bits,
                    // AES-128 needs 128 bits; RC4 defaults to 40.
                    (_, None) if streams == Cipher::Aes128 || strings == Cipher::Aes128 => 128,
                    (_, None) => 40,
                };
                if !(40..=128).contains(&bits) || bits % 8 != 0 {
                    return Err(malformed("an encryption key length (/Length) out of range"));
                }
                let permissions = encrypt.int(b"P").ok_or(malformed("an encryption dictionary without /P"))?;
                let encrypt_metadata = !matches!(encrypt.get(b"EncryptMetadata"), Some(Object::Bool(false)));
                let key =
                    rc4_file_key(&owner[..32], permissions, file_id, revision, bits as usize / 8, encrypt_metadata);
                if !opens_with_empty_password(&key, &user[..32], file_id, revision) {
                    return Err(PdfError::Encrypted);
                }
                key
            }
            5 | 6 => aes256_file_key(user, string(b"UE"), revision)?,
            _ => return Err(unsupported(format!("revision /R {revision} of the standard security handler"))),
        };
        Ok(Security { file_key, strings, streams, named })
    }

    /// A string of object `id` decrypted.
    pub fn decrypt_string(&self, id: ObjectId, data: &[u8]) -> Result<Vec<u8>, &'static str> {
        self.decrypt(self.strings, id, data)
    }

    /// The data of stream `id` decrypted; `crypt_filter` is the name its `/Crypt` filter gives,
    /// when it has one (`/Identity` leaves the data as it is).
    pub fn decrypt_stream(
        &self,
        id: ObjectId,
        crypt_filter: Option<&[u8]>,
        data: &[u8],
    ) -> Result<Vec<u8>, &'static str> {
        let cipher = match crypt_filter {
            None => self.streams,
            Some(b"Identity") => Cipher::Identity,
            Some(name) => self
                .named
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, cipher)| *cipher)
                .ok_or("a /Crypt filter naming a crypt filter that /CF lacks")?,
        };
        self.decrypt(cipher, id, data)
    }

    fn decrypt(&self, cipher: Cipher, (number, generation): ObjectId, data: &[u8]) -> Result<Vec<u8>, &'static str> {
        // Some writers leave empty strings and streams as they are.
        if data.is_empty() {
            return Ok(Vec::new());
        }
        // Revisions 2 to 4 key each object by its number and generation (Algorithm 1); AES-256
        // uses the file's key for every object.
        let object_key = || {
            let mut input = self.file_key.clone();
            input.extend_from_slice(&number.to_le_bytes()[..3]);
            input.extend_from_slice(&generation.to_le_bytes());
            if cipher == Cipher::Aes128 {
                input.extend_from_slice(b"sAlT");
            }
            md5(&input)[..(self.file_key.len() + 5).min(16)].to_vec()
        };
        match cipher {
            Cipher::Identity => Ok(data.to_vec()),
            Cipher::Rc4 => Ok(rc4(&object_key(), data)),
            Cipher::Aes128 => aes_cbc_decrypt_padded(&object_key(), data),
            Cipher::Aes256 => aes_cbc_decrypt_padded(&self.file_key, data),
        }
    }
}

/// The ciphers of strings (`/StrF`) and streams (`/StmF`), and every crypt filter by name, of
/// a version 4 or 5 encryption dictionary.
fn crypt_filters(encrypt: &Dict) -> Result<(Cipher, Cipher, NamedCiphers), PdfError> {
    let empty = Dict::default();
    let filters = match encrypt.get(b"CF") {
        Some(Object::Dict(filters)) => filters,
        _ => &empty,
    };
    let cipher_of = |name: &[u8]| -> Result<Cipher, PdfError> {
        if name == b"Identity" {
            return Ok(Cipher::Identity);
        }
        let Some(Object::Dict(filter)) = filters.get(name) else {
            return Err(PdfError::Unreadable(Malformed { what: "a crypt filter that /CF lacks", offset: None }));
        };
        match filter.get(b"CFM") {
            None => Ok(Cipher::Identity),
            Some(Object::Name(method)) => match method.as_slice() {
                b"None" => Ok(Cipher::Identity),
                b"V2" => Ok(Cipher::Rc4),
                b"AESV2" => Ok(Cipher::Aes128),
                b"AESV3" => Ok(Cipher::Aes256),
                other => Err(PdfError::UnsupportedEncryption(format!(
                    "the crypt filter method /{}",
                    String::from_utf8_lossy(other)
                ))),
            },
            Some(_) => {
                Err(PdfError::Unreadable(Malformed { what: "a crypt filter whose /CFM is not a name", offset: None }))
            }
        }
    };
    let named_by = |key: &[u8]| match encrypt.get(key) {
        Some(Object::Name(name)) => cipher_of(name),
        _ => Ok(Cipher::Identity),
    };
    let named = filters.0.iter().filter_map(|(name, _)| Some((name.clone(), cipher_of(name).ok()?))).collect();
    Ok((named_by(b"StrF")?, named_by(b"StmF")?, named))
}

/// The file's key in revisions 2 to 4 for the empty user password (Algorithm 2).
fn rc4_file_key(
    owner: &[u8],
    permissions: i64,
    file_id: &[u8],
    revision: i64,
    length: usize,
    encrypt_metadata: bool,
) -> Vec<u8> {
    let mut input = PADDING.to_vec();
    input.extend_from_slice(owner);
    // /P is a 32-bit value, written signed or unsigned.
    input.extend_from_slice(&(permissions as u32).to_le_bytes());
    input.extend_from_slice(file_id);
    if revision >= 4 && !encrypt_metadata {
        input.extend_from_slice(&[0xFF; 4]);
    }
    let mut hash = md5(&input);
    if revision >= 3 {
        for _ in 0..50 {
            hash = md5(&hash[..length]);
        }
    }
    hash[..length].to_vec()
}

/// Whether `key` is the one the empty user password gives, checked against `/U`'s first 32
/// bytes (Algorithms 4 and 5; revision 3 on compares 16 of them).
fn opens_with_empty_password(key: &[u8], user: &[u8], file_id: &[u8], revision: i64) -> bool {
    if revision == 2 {
        return rc4(key, &PADDING) == user;
    }
    let mut hash = rc4(key, &md5(&[&PADDING[..], file_id].concat()));
    for i in 1..=19u8 {
        let round_key: Vec<u8> = key.iter().map(|b| b ^ i).collect();
        hash = rc4(&round_key, &hash);
    }
    hash[..16] == user[..16]
}

/// The file's key in revisions 5 and 6 for the empty user password: `/U` holds the password's
/// hash and two salts, `/UE` the file's key encrypted under a hash of the key salt.
fn aes256_file_key(user: &[u8], user_key: &[u8], revision: i64) -> Result<Vec<u8>, PdfError> {
    if user.len() < 48 || user_key.len() < 32 {
        return Err(PdfError::Unreadable(Malformed {
            what: "an encryption dictionary whose /U or /UE is short",
            offset: None,
        }));
    }
    let (hash, validation_salt, key_salt) = (&user[..32], &user[32..40], &user[40..48]);
    let digest = |salt: &[u8]| match revision {
        5 => Sha256::digest(salt).to_vec(),
        _ => hardened_hash(salt).to_vec(),
    };
    if digest(validation_salt) != hash {
        return Err(PdfError::Encrypted);
    }
    let aes = Aes::new(&digest(key_salt)).expect("a SHA-256 digest is an AES-256 key");
    aes.cbc_decrypt([0; 16], &user_key[..32]).map_err(|what| PdfError::Unreadable(Malformed { what, offset: None }))
}

/// Revision 6's hash of the empty password with `salt` and no owner data (Algorithm 2.B):
/// rounds of AES-128 and SHA-2, at least 64, until the last byte of a round's output allows.
fn hardened_hash(salt: &[u8]) -> [u8; 32] {
    let mut key = Sha256::digest(salt).to_vec();
    for round in 1usize.. {
        let repeated = key.repeat(64);
        let aes = Aes::new(&key[..16]).expect("16 bytes are an AES-128 key");
        let encrypted = aes.cbc_encrypt(std::array::from_fn(|i| key[16 + i]), &repeated);
        // The first 16 bytes as a big-endian number, modulo 3, pick the next hash.
        key = match encrypted[..16].iter().map(|&b| u32::from(b)).sum::<u32>() % 3 {
            0 => Sha256::digest(&encrypted).to_vec(),
            1 => Sha384::digest(&encrypted).to_vec(),
            _ => Sha512::digest(&encrypted).to_vec(),
        };
        if round >= 64 && usize::from(encrypted[encrypted.len() - 1]) + 32 <= round {
            break;
        }
    }
    std::array::from_fn(|i| key[i])
}
