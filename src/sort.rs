//! Stable sorts by a key, with one sort compiled for each kind of key.
//!
//! Every `sort_by` or `sort_by_key` call with a closure of its own is a copy of the standard
//! library's stable sort in the binary (about 7 kB each). These sort (key, place) pairs instead,
//! with one comparison for each kind of key whatever the elements are, and then move the
//! elements into that order: the order the stable sort gives (equal keys keep their order), with
//! the key read once for each element.
//!
//! (Where every two elements the order holds equal are alike, e.g. plain floats in `total_cmp`
//! order, whose equal values are the same bits, the callers sort unstably instead: one order is
//! possible.)

use std::cmp::Ordering;

/// A key the sorts here order by: floats in `total_cmp` order, integers in their own.
pub(crate) trait Key: Copy {
    /// The order of two keys.
    fn order(a: Self, b: Self) -> Ordering;
}

impl Key for f64 {
    fn order(a: f64, b: f64) -> Ordering {
        a.total_cmp(&b)
    }
}

impl Key for f32 {
    fn order(a: f32, b: f32) -> Ordering {
        a.total_cmp(&b)
    }
}

impl Key for usize {
    fn order(a: usize, b: usize) -> Ordering {
        a.cmp(&b)
    }
}

/// Sorts `v` by `key`, smallest first, equal keys keeping their order: the order
/// `v.sort_by(|a, b| key(a).total_cmp(&key(b)))` gives for a float key, `v.sort_by_key(key)` for
/// an integer one.
pub(crate) fn by_key<T, K: Key>(v: &mut [T], key: impl Fn(&T) -> K) {
    let places = sorted_places(v.iter().map(key).collect(), false);
    permute(v, places);
}

/// Sorts `v` by `key`, largest first, equal keys keeping their order: the order
/// `v.sort_by(|a, b| key(b).total_cmp(&key(a)))` gives for a float key,
/// `v.sort_by_key(|x| Reverse(key(x)))` for an integer one.
pub(crate) fn by_key_descending<T, K: Key>(v: &mut [T], key: impl Fn(&T) -> K) {
    let places = sorted_places(v.iter().map(key).collect(), true);
    permute(v, places);
}

/// The places of `keys` in sorted order, equal keys in the order of their places.
#[inline(never)]
fn sorted_places<K: Key>(keys: Vec<K>, descending: bool) -> Vec<usize> {
    let mut keyed: Vec<(K, usize)> = keys.into_iter().zip(0..).collect();
    // (every pair differs in its place, so the unstable sort's order is the only one)
    keyed.sort_unstable_by(|a, b| {
        let by_key = K::order(a.0, b.0);
        if descending { by_key.reverse() } else { by_key }.then(a.1.cmp(&b.1))
    });
    keyed.into_iter().map(|(_, place)| place).collect()
}

/// Moves the element at `from[i]` to place `i`, for every `i` (`from` orders the places of `v`).
fn permute<T>(v: &mut [T], mut from: Vec<usize>) {
    const DONE: usize = usize::MAX;
    for start in 0..v.len() {
        // Each cycle of the permutation: place `j` takes the element at `from[j]`, which is
        // still where it was until its own place's turn comes.
        let mut j = start;
        while from[j] != DONE {
            let k = std::mem::replace(&mut from[j], DONE);
            if k == start {
                break;
            }
            v.swap(j, k);
            j = k;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Float keys with many ties, both zeros and NaNs of both signs.
    fn float_key(rng: &mut ChaCha8Rng) -> f64 {
        match rng.gen_range(0..8) {
            0 => 0.0,
            1 => -0.0,
            2 => f64::NAN,
            3 => -f64::NAN,
            4 => f64::INFINITY,
            _ => f64::from(rng.gen_range(-3i32..3)) / 2.0,
        }
    }

    /// The orders are those of the standard library's stable sort, ascending and descending,
    /// for float and integer keys.
    #[test]
    fn orders_as_the_stable_sort() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for len in [0, 1, 2, 3, 5, 8, 20, 33, 100, 257] {
            for _ in 0..20 {
                let v: Vec<(f64, usize)> = (0..len).map(|i| (float_key(&mut rng), i)).collect();
                let bits = |x: &[(f64, usize)]| x.iter().map(|p| (p.0.to_bits(), p.1)).collect::<Vec<_>>();
                let mut want = v.clone();
                want.sort_by(|a, b| a.0.total_cmp(&b.0));
                let mut got = v.clone();
                by_key(&mut got, |p| p.0);
                assert_eq!(bits(&got), bits(&want));
                let mut want = v.clone();
                want.sort_by(|a, b| b.0.total_cmp(&a.0));
                let mut got = v.clone();
                by_key_descending(&mut got, |p| p.0);
                assert_eq!(bits(&got), bits(&want));
                let mut want = v.clone();
                want.sort_by(|a, b| (b.0 as f32).total_cmp(&(a.0 as f32)));
                let mut got = v.clone();
                by_key_descending(&mut got, |p| p.0 as f32);
                assert_eq!(bits(&got), bits(&want));

                let w: Vec<(usize, usize)> = (0..len).map(|i| (rng.gen_range(0..4), i)).collect();
                let mut want = w.clone();
                want.sort_by_key(|p| p.0);
                let mut got = w.clone();
                by_key(&mut got, |p| p.0);
                assert_eq!(got, want);
                let mut want = w.clone();
                want.sort_by_key(|p| std::cmp::Reverse(p.0));
                let mut got = w;
                by_key_descending(&mut got, |p| p.0);
                assert_eq!(got, want);
            }
        }
    }
}
