//! The ciphers and the hash of PDF's standard security handler: MD5 (RFC 1321), RC4, and AES
//! (FIPS-197) with 128- and 256-bit keys in CBC mode. Written out here because they are small
//! and the reader needs nothing else of a cryptography library; none of this protects anything,
//! it only undoes what a PDF writer did.

/// The MD5 digest of `data`.
pub(super) fn md5(data: &[u8]) -> [u8; 16] {
    const SHIFTS: [u32; 16] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
    // The RFC's table T: the integer part of 2^32 * |sin(i + 1)|, which f64 computes exactly.
    let sines: [u32; 64] = std::array::from_fn(|i| ((i as f64 + 1.0).sin().abs() * 4_294_967_296.0) as u32);
    let mut message = data.to_vec();
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&(data.len() as u64).wrapping_mul(8).to_le_bytes());
    let mut state = [0x6745_2301u32, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];
    for block in message.chunks_exact(64) {
        let words: [u32; 16] = std::array::from_fn(|i| {
            u32::from_le_bytes([block[4 * i], block[4 * i + 1], block[4 * i + 2], block[4 * i + 3]])
        });
        let [mut a, mut b, mut c, mut d] = state;
        for i in 0..64 {
            let (f, word) = match i / 16 {
                0 => ((b & c) | (!b & d), i),
                1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
                2 => (b ^ c ^ d, (3 * i + 5) % 16),
                _ => (c ^ (b | !d), (7 * i) % 16),
            };
            let turned = a.wrapping_add(f).wrapping_add(sines[i]).wrapping_add(words[word]);
            (a, d, c) = (d, c, b);
            b = b.wrapping_add(turned.rotate_left(SHIFTS[i / 16 * 4 + i % 4]));
        }
        for (s, v) in state.iter_mut().zip([a, b, c, d]) {
            *s = s.wrapping_add(v);
        }
    }
    let mut digest = [0u8; 16];
    for (out, word) in digest.chunks_exact_mut(4).zip(state) {
        out.copy_from_slice(&word.to_le_bytes());
    }
    digest
}

/// `data` through RC4 under `key` (encryption and decryption are the same). An empty key
/// leaves the cipher's state unmixed rather than failing; callers pass 5 to 16 bytes.
pub(super) fn rc4(key: &[u8], data: &[u8]) -> Vec<u8> {
    let mut state: [u8; 256] = std::array::from_fn(|i| i as u8);
    let mut j = 0u8;
    for (i, &k) in (0..256).zip(key.iter().cycle()) {
        j = j.wrapping_add(state[i]).wrapping_add(k);
        state.swap(i, usize::from(j));
    }
    let (mut i, mut j) = (0u8, 0u8);
    data.iter()
        .map(|&byte| {
            i = i.wrapping_add(1);
            j = j.wrapping_add(state[usize::from(i)]);
            state.swap(usize::from(i), usize::from(j));
            byte ^ state[usize::from(state[usize::from(i)].wrapping_add(state[usize::from(j)]))]
        })
        .collect()
}

/// The AES S-box and its inverse, built from the multiplicative inverse in GF(2^8) and the
/// affine map (FIPS-197, 5.1.1), by walking the field with generator 3 and its inverse.
const fn substitution_boxes() -> ([u8; 256], [u8; 256]) {
    let (mut forward, mut inverse) = ([0u8; 256], [0u8; 256]);
    let (mut p, mut q) = (1u8, 1u8);
    loop {
        // p times 3, q divided by 3: q stays p's inverse.
        p ^= (p << 1) ^ if p & 0x80 != 0 { 0x1b } else { 0 };
        q ^= q << 1;
        q ^= q << 2;
        q ^= q << 4;
        if q & 0x80 != 0 {
            q ^= 0x09;
        }
        let s = q ^ q.rotate_left(1) ^ q.rotate_left(2) ^ q.rotate_left(3) ^ q.rotate_left(4) ^ 0x63;
        forward[p as usize] = s;
        inverse[s as usize] = p;
        if p == 1 {
            break;
        }
    }
    // 0 has no inverse; the affine map alone sends it to 0x63.
    forward[0] = 0x63;
    inverse[0x63] = 0;
    (forward, inverse)
}

const SBOX: [u8; 256] = substitution_boxes().0;
const INV_SBOX: [u8; 256] = substitution_boxes().1;

/// Multiplication by x (that is, 2) in GF(2^8).
fn xtime(b: u8) -> u8 {
    (b << 1) ^ if b & 0x80 != 0 { 0x1b } else { 0 }
}

/// AES with a 128-, 192- or 256-bit key, one 16-byte block at a time. A block's bytes are the
/// state column by column, as FIPS-197 lays them out.
pub(super) struct Aes {
    round_keys: Vec<[u8; 16]>,
}

impl Aes {
    /// The cipher under `key`, or `None` when the key is not 16, 24 or 32 bytes.
    pub fn new(key: &[u8]) -> Option<Aes> {
        if !matches!(key.len(), 16 | 24 | 32) {
            return None;
        }
        let key_words = key.len() / 4;
        let total = 4 * (key_words + 7);
        let mut words: Vec<[u8; 4]> = key.chunks_exact(4).map(|w| [w[0], w[1], w[2], w[3]]).collect();
        let mut round_constant = 1u8;
        for i in key_words..total {
            let mut word = words[i - 1];
            if i % key_words == 0 {
                word.rotate_left(1);
                word = word.map(|b| SBOX[usize::from(b)]);
                word[0] ^= round_constant;
                round_constant = xtime(round_constant);
            } else if key_words > 6 && i % key_words == 4 {
                word = word.map(|b| SBOX[usize::from(b)]);
            }
            let back = words[i - key_words];
            words.push(std::array::from_fn(|k| word[k] ^ back[k]));
        }
        let round_keys = words.chunks_exact(4).map(|w| std::array::from_fn(|k| w[k / 4][k % 4])).collect();
        Some(Aes { round_keys })
    }

    fn add_round_key(&self, block: &mut [u8; 16], round: usize) {
        for (b, k) in block.iter_mut().zip(self.round_keys[round]) {
            *b ^= k;
        }
    }

    pub fn encrypt_block(&self, block: &mut [u8; 16]) {
        let rounds = self.round_keys.len() - 1;
        self.add_round_key(block, 0);
        for round in 1..=rounds {
            // SubBytes and ShiftRows (row r moves r columns left).
            let before = *block;
            for (i, b) in block.iter_mut().enumerate() {
                *b = SBOX[usize::from(before[(i + 4 * (i % 4)) % 16])];
            }
            if round < rounds {
                for column in block.chunks_exact_mut(4) {
                    let all = column[0] ^ column[1] ^ column[2] ^ column[3];
                    let first = column[0];
                    for r in 0..4 {
                        let next = if r == 3 { first } else { column[r + 1] };
                        column[r] ^= all ^ xtime(column[r] ^ next);
                    }
                }
            }
            self.add_round_key(block, round);
        }
    }

    pub fn decrypt_block(&self, block: &mut [u8; 16]) {
        let rounds = self.round_keys.len() - 1;
        for round in (1..=rounds).rev() {
            self.add_round_key(block, round);
            if round < rounds {
                // InvMixColumns as a cheap premultiplication followed by MixColumns.
                for column in block.chunks_exact_mut(4) {
                    let u = xtime(xtime(column[0] ^ column[2]));
                    let v = xtime(xtime(column[1] ^ column[3]));
                    column[0] ^= u;
                    column[1] ^= v;
                    column[2] ^= u;
                    column[3] ^= v;
                    let all = column[0] ^ column[1] ^ column[2] ^ column[3];
                    let first = column[0];
                    for r in 0..4 {
                        let next = if r == 3 { first } else { column[r + 1] };
                        column[r] ^= all ^ xtime(column[r] ^ next);
                    }
                }
            }
            // InvShiftRows (row r moves r columns right) and InvSubBytes.
            let before = *block;
            for (i, b) in block.iter_mut().enumerate() {
                *b = INV_SBOX[usize::from(before[(i + 16 - 4 * (i % 4)) % 16])];
            }
        }
        self.add_round_key(block, 0);
    }

    /// `data` encrypted in CBC mode from `iv`, with no padding; `data` is whole blocks.
    pub fn cbc_encrypt(&self, iv: [u8; 16], data: &[u8]) -> Vec<u8> {
        let mut chain = iv;
        let mut out = Vec::with_capacity(data.len());
        for block in data.chunks_exact(16) {
            for (c, b) in chain.iter_mut().zip(block) {
                *c ^= b;
            }
            self.encrypt_block(&mut chain);
            out.extend_from_slice(&chain);
        }
        out
    }

    /// `data` decrypted in CBC mode from `iv`, with no padding removed.
    pub fn cbc_decrypt(&self, iv: [u8; 16], data: &[u8]) -> Result<Vec<u8>, &'static str> {
        if !data.len().is_multiple_of(16) {
            return Err("AES data that is not whole blocks");
        }
        let mut chain = iv;
        let mut out = Vec::with_capacity(data.len());
        for block in data.chunks_exact(16) {
            let mut plain: [u8; 16] = std::array::from_fn(|i| block[i]);
            self.decrypt_block(&mut plain);
            out.extend(plain.iter().zip(chain).map(|(p, c)| p ^ c));
            chain.copy_from_slice(block);
        }
        Ok(out)
    }
}

/// `data` as PDF stores AES-encrypted strings and streams: a 16-byte IV, then CBC ciphertext
/// whose last block ends in PKCS#5 padding; the plain bytes without the padding.
pub(super) fn aes_cbc_decrypt_padded(key: &[u8], data: &[u8]) -> Result<Vec<u8>, &'static str> {
    let aes = Aes::new(key).ok_or("an AES key of the wrong length")?;
    if data.len() < 32 {
        return Err("AES data shorter than its IV and one block");
    }
    let (iv, ciphertext) = data.split_at(16);
    let mut plain = aes.cbc_decrypt(std::array::from_fn(|i| iv[i]), ciphertext)?;
    let pad = usize::from(plain[plain.len() - 1]);
    if !(1..=16).contains(&pad) || plain[plain.len() - pad..].iter().any(|&b| usize::from(b) != pad) {
        return Err("AES data with bad padding");
    }
    plain.truncate(plain.len() - pad);
    Ok(plain)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(text: &str) -> Vec<u8> {
        let digits: Vec<u8> = text.bytes().filter(u8::is_ascii_hexdigit).collect();
        digits.chunks(2).map(|d| u8::from_str_radix(std::str::from_utf8(d).unwrap(), 16).unwrap()).collect()
    }

    #[test]
    fn md5_matches_rfc_1321() {
        let cases = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
            (
                "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
                "57edf4a22be3c955ac49da2e2107b67a",
            ),
        ];
        for (text, digest) in cases {
            assert_eq!(md5(text.as_bytes()).to_vec(), hex(digest), "{text:?}");
        }
        // Lengths around the padding's block boundary.
        assert_eq!(md5(&[b'a'; 55]).to_vec(), hex("ef1772b6dff9a122358552954ad0df65"));
        assert_eq!(md5(&[b'a'; 56]).to_vec(), hex("3b0c8ac703f828b04c6c197006d17218"));
        assert_eq!(md5(&[b'a'; 64]).to_vec(), hex("014842d480b571495a4a0363793f7367"));
    }

    #[test]
    fn rc4_matches_published_vectors() {
        // The first bytes of RFC 6229's keystreams, for a 40-bit and a 128-bit key.
        assert_eq!(rc4(&hex("0102030405"), &[0; 16]), hex("b2396305f03dc027ccc3524a0a1118a8"));
        let key = hex("0102030405060708090a0b0c0d0e0f10");
        assert_eq!(rc4(&key, &[0; 16]), hex("9ac7cc9a609d1ef7b2932899cde41b97"));
        // The well-known text vectors.
        assert_eq!(rc4(b"Key", b"Plaintext"), hex("bbf316e8d940af0ad3"));
        assert_eq!(rc4(b"Wiki", b"pedia"), hex("1021bf0420"));
        assert_eq!(rc4(b"Secret", b"Attack at dawn"), hex("45a01f645fc35b383552544b9bf5"));
        assert_eq!(rc4(&[], b"ab").len(), 2);
    }

    #[test]
    fn aes_matches_fips_197_appendix_c() {
        let plain = hex("00112233445566778899aabbccddeeff");
        let cases = [
            ("000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"),
            ("000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"),
            ("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "8ea2b7ca516745bfeafc49904b496089"),
        ];
        for (key, cipher) in cases {
            let aes = Aes::new(&hex(key)).unwrap();
            let mut block: [u8; 16] = plain.clone().try_into().unwrap();
            aes.encrypt_block(&mut block);
            assert_eq!(block.to_vec(), hex(cipher), "encrypt under {key}");
            aes.decrypt_block(&mut block);
            assert_eq!(block.to_vec(), plain, "decrypt under {key}");
        }
        assert!(Aes::new(&[0; 15]).is_none());
    }

    #[test]
    fn aes_cbc_matches_sp_800_38a_and_checks_padding() {
        // NIST SP 800-38A, F.2.1/F.2.2 (CBC-AES128), the first two blocks.
        let aes = Aes::new(&hex("2b7e151628aed2a6abf7158809cf4f3c")).unwrap();
        let iv: [u8; 16] = hex("000102030405060708090a0b0c0d0e0f").try_into().unwrap();
        let plain = hex("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51");
        let cipher = hex("7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2");
        assert_eq!(aes.cbc_encrypt(iv, &plain), cipher);
        assert_eq!(aes.cbc_decrypt(iv, &cipher).unwrap(), plain);
        assert!(aes.cbc_decrypt(iv, &cipher[..20]).is_err());

        let key = [7u8; 32];
        let aes = Aes::new(&key).unwrap();
        let stored = |plain: &[u8]| [&[9u8; 16][..], &aes.cbc_encrypt([9; 16], plain)].concat();
        let padded = [&b"scoresheet"[..], &[6; 6]].concat();
        assert_eq!(aes_cbc_decrypt_padded(&key, &stored(&padded)).unwrap(), b"scoresheet");
        assert_eq!(aes_cbc_decrypt_padded(&key, &stored(&[16; 16])).unwrap(), b"");
        for bad in [[0u8; 16], [17; 16], [&[5u8; 15][..], &[2]].concat().try_into().unwrap()] {
            assert!(aes_cbc_decrypt_padded(&key, &stored(&bad)).is_err());
        }
        assert!(aes_cbc_decrypt_padded(&key, &[0; 31]).is_err());
        assert!(aes_cbc_decrypt_padded(&key, &[0; 33]).is_err());
        assert!(aes_cbc_decrypt_padded(&[0; 10], &[0; 32]).is_err());
    }
}
