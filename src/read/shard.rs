//! `read --shard K/N`: a stable share of a batch's games, for running one batch as N processes
//! (a Kubernetes Indexed Job, a Slurm array). A game belongs to a shard by a hash of its name
//! alone, so every shard makes the same split however its files are listed or mounted, and a
//! game added to the batch does not move the others.

use super::ReadError;
use sha2::{Digest, Sha256};

/// Share `index` (1 to `count`) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which share, from 1.
    pub index: usize,
    /// How many shares.
    pub count: usize,
}

impl Shard {
    /// Whether the game named `id` is in this share.
    pub fn contains(&self, id: &str) -> bool {
        shard_of(id, self.count) == self.index
    }
}

/// The share (1 to `count`) the game named `id` belongs to: the first 8 bytes of the name's
/// SHA-256, as a number, modulo `count`.
pub fn shard_of(id: &str, count: usize) -> usize {
    let digest = Sha256::digest(id.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    (u64::from_be_bytes(first) % count.max(1) as u64) as usize + 1
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = ReadError;

    /// `K/N` with 1 <= K <= N.
    fn from_str(s: &str) -> Result<Shard, ReadError> {
        let bad = || {
            ReadError::Invalid(format!(
                "bad shard \"{s}\": write K/N, e.g. 2/8 for the second of eight shares (1 <= K <= N)"
            ))
        };
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_parses_k_of_n() {
        assert_eq!("2/3".parse::<Shard>().ok(), Some(Shard { index: 2, count: 3 }));
        assert_eq!("1/1".parse::<Shard>().ok(), Some(Shard { index: 1, count: 1 }));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", ""] {
            let err = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(err.contains("K/N"), "{err}");
        }
    }

    #[test]
    fn every_game_is_in_exactly_one_share_and_the_split_is_stable() {
        let ids: Vec<String> = (0..300).map(|i| format!("sheet-{i:04}")).collect();
        let mut sizes = [0usize; 3];
        for id in &ids {
            let owners: Vec<usize> = (1..=3).filter(|&k| Shard { index: k, count: 3 }.contains(id)).collect();
            assert_eq!(owners.len(), 1, "{id}");
            sizes[owners[0] - 1] += 1;
        }
        assert!(sizes.iter().all(|&s| s > 70), "{sizes:?}");
        // The split is a property of the name alone, pinned so that shares run by different
        // versions agree (the first 8 bytes of SHA-256, big-endian, modulo N, plus one).
        assert_eq!((shard_of("sheet-0000", 3), shard_of("sheet-0000", 8)), (3, 8));
        assert_eq!((shard_of("board 7", 3), shard_of("board 7", 8)), (3, 6));
        assert_eq!(shard_of("", 1), 1);
    }
}
