//! CTC decoding and scoring over one cell's per-frame log-probabilities.
//!
//! Everything works in log space (natural logarithms). Class 0 is the CTC blank; classes
//! `1..` are the alphabet's characters (see [`super::Alphabet`]), but this module only sees
//! class indices.
//!
//! - [`greedy`]: best path, collapsed.
//! - [`beam_search`]: prefix beam search, the top K label sequences, rescored exactly.
//! - [`log_prob`]: the exact log-probability of one label sequence (CTC forward algorithm).
//! - [`score_many`]: the exact log-probabilities of many label sequences at once, sharing the
//!   work of common prefixes through a trie (what the game decoder calls thousands of times).

use std::collections::HashMap;

/// The blank class.
pub const BLANK: usize = 0;

/// Per-frame log-probabilities of one cell: `frames` rows of `classes` values, each row a
/// log-softmax (its exponentials sum to one).
#[derive(Clone, Debug, PartialEq)]
pub struct LogProbs {
    frames: usize,
    classes: usize,
    data: Vec<f32>,
}

impl LogProbs {
    /// Wraps `frames * classes` log-probabilities, row-major (frame by frame).
    ///
    /// Panics if the length does not match or there are no classes: callers build these from
    /// model outputs whose shape they have already checked.
    pub fn new(frames: usize, classes: usize, data: Vec<f32>) -> LogProbs {
        assert!(classes > 0, "LogProbs needs at least the blank class");
        assert_eq!(data.len(), frames * classes, "LogProbs: data length is not frames * classes");
        LogProbs { frames, classes, data }
    }

    /// Applies a log-softmax to every row of raw scores (logits).
    pub fn from_logits(frames: usize, classes: usize, mut data: Vec<f32>) -> LogProbs {
        assert!(classes > 0, "LogProbs needs at least the blank class");
        assert_eq!(data.len(), frames * classes, "LogProbs: data length is not frames * classes");
        for row in data.chunks_mut(classes) {
            let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let sum: f32 = row.iter().map(|&x| (x - max).exp()).sum();
            let norm = max + sum.ln();
            for x in row.iter_mut() {
                *x -= norm;
            }
        }
        LogProbs { frames, classes, data }
    }

    /// Number of frames (time steps).
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// Number of classes, blank included.
    pub fn classes(&self) -> usize {
        self.classes
    }

    /// The log-probabilities of frame `t`.
    pub fn row(&self, t: usize) -> &[f32] {
        &self.data[t * self.classes..(t + 1) * self.classes]
    }

    /// All values, row-major.
    pub fn as_slice(&self) -> &[f32] {
        &self.data
    }

    /// The first `frames` frames only (drops frames that came from padding).
    pub fn truncated(&self, frames: usize) -> LogProbs {
        let frames = frames.min(self.frames);
        LogProbs { frames, classes: self.classes, data: self.data[..frames * self.classes].to_vec() }
    }
}

/// `ln(exp(a) + exp(b))` without overflow, exact for infinities.
#[inline]
pub fn log_add(a: f32, b: f32) -> f32 {
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    // ln(1 + e^-16) < 1.2e-7: below what an f32 sum can hold.
    if lo == f32::NEG_INFINITY || lo - hi < -16.0 {
        return hi;
    }
    hi + (lo - hi).exp().ln_1p()
}

/// The best path: the most likely class per frame, repeats merged and blanks removed.
/// Returns the labels and the log-probability of that single path (a lower bound on the
/// labels' total probability; use [`log_prob`] for the exact figure).
pub fn greedy(lp: &LogProbs) -> (Vec<usize>, f32) {
    let mut labels = Vec::new();
    let mut score = 0.0f32;
    let mut prev = BLANK;
    for t in 0..lp.frames() {
        let row = lp.row(t);
        let (best, &value) =
            row.iter().enumerate().fold((0, &f32::NEG_INFINITY), |acc, (i, v)| if *v > *acc.1 { (i, v) } else { acc });
        score += value;
        if best != BLANK && best != prev {
            labels.push(best);
        }
        prev = best;
    }
    (labels, score)
}

/// One prefix in the beam: probability of ending in blank and in its last label.
#[derive(Clone, Copy)]
struct BeamEntry {
    blank: f32,
    label: f32,
}

impl BeamEntry {
    fn total(&self) -> f32 {
        log_add(self.blank, self.label)
    }
}

/// Prefix beam search: the `top_k` most likely label sequences with their exact
/// log-probabilities, best first.
///
/// `beam_width` prefixes survive each frame (at least `top_k`). Classes whose frame
/// log-probability is below `ln(1e-6)` are not extended from, which changes nothing measurable and
/// keeps the search fast. The survivors are rescored with the exact forward algorithm
/// ([`score_many`]) and re-sorted, so the scores are true sequence log-probabilities.
pub fn beam_search(lp: &LogProbs, beam_width: usize, top_k: usize) -> Vec<(Vec<usize>, f32)> {
    if top_k == 0 {
        return Vec::new();
    }
    let beam_width = beam_width.max(top_k).max(1);
    const PRUNE: f32 = -13.815_511; // ln(1e-6)
    let mut beam: Vec<(Vec<usize>, BeamEntry)> = vec![(Vec::new(), BeamEntry { blank: 0.0, label: f32::NEG_INFINITY })];
    let mut next: HashMap<Vec<usize>, BeamEntry> = HashMap::new();
    for t in 0..lp.frames() {
        let row = lp.row(t);
        next.clear();
        let active: Vec<usize> = (1..lp.classes()).filter(|&c| row[c] >= PRUNE).collect();
        for (prefix, entry) in &beam {
            let total = entry.total();
            // Stay: blank, or the last label repeated (merged).
            {
                let e = next
                    .entry(prefix.clone())
                    .or_insert(BeamEntry { blank: f32::NEG_INFINITY, label: f32::NEG_INFINITY });
                e.blank = log_add(e.blank, total + row[BLANK]);
                if let Some(&last) = prefix.last() {
                    e.label = log_add(e.label, entry.label + row[last]);
                }
            }
            // Extend with a new label.
            for &c in &active {
                let mut extended = prefix.clone();
                extended.push(c);
                let from = if prefix.last() == Some(&c) { entry.blank } else { total };
                let e =
                    next.entry(extended).or_insert(BeamEntry { blank: f32::NEG_INFINITY, label: f32::NEG_INFINITY });
                e.label = log_add(e.label, from + row[c]);
            }
        }
        let mut entries: Vec<(Vec<usize>, BeamEntry)> = next.drain().collect();
        // (the prefixes, a map's keys, all differ: any sort gives the one order)
        entries.sort_unstable_by(|a, b| b.1.total().total_cmp(&a.1.total()).then_with(|| a.0.cmp(&b.0)));
        entries.truncate(beam_width);
        beam = entries;
    }
    let candidates: Vec<&[usize]> = beam.iter().map(|(p, _)| p.as_slice()).collect();
    let exact = score_many(lp, &candidates);
    let mut out: Vec<(Vec<usize>, f32)> = beam.into_iter().map(|(p, _)| p).zip(exact).collect();
    // (the prefixes all differ, as above)
    out.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out.truncate(top_k);
    out
}

/// The exact log-probability of one label sequence (CTC forward algorithm).
/// `f32::NEG_INFINITY` when the sequence cannot be emitted in this many frames.
pub fn log_prob(lp: &LogProbs, labels: &[usize]) -> f32 {
    score_many(lp, &[labels])[0]
}

/// [`score_many`]'s candidates are put in a trie, so a prefix shared by many candidates ("Nf",
/// "Nxf") is computed once: the cost is `O(frames * distinct prefixes)` instead of
/// `O(frames * total length)`. Each result is what [`log_prob`] gives for that candidate. Labels
/// outside `1..classes` (blank included) make that candidate's result `f32::NEG_INFINITY`.
pub fn score_many(lp: &LogProbs, candidates: &[&[usize]]) -> Vec<f32> {
    score_many_above(lp, candidates, f32::NEG_INFINITY)
}

/// [`score_many`] for a caller that only needs the scores of candidates at or above `floor`:
/// a candidate below it gets some value below `floor` (an upper bound of its score) instead of
/// its exact score. See [`PrefixScorer`] for what is skipped.
pub fn score_many_above(lp: &LogProbs, candidates: &[&[usize]], floor: f32) -> Vec<f32> {
    let mut scorer = PrefixScorer::default();
    candidates.iter().map(|c| scorer.score(lp, c.iter().copied(), floor)).collect()
}

/// Unset link or offset in a [`PrefixScorer`].
const NONE: u32 = u32::MAX;

/// A prefix in a [`PrefixScorer`]'s trie.
#[derive(Clone, Debug)]
struct Prefix {
    label: u32,
    depth: u32,
    first_child: u32,
    next_sibling: u32,
    /// Where its forward rows (label row, then blank row) start in `rows`; `NONE`: not computed.
    rows: u32,
    /// Computed: its exact log-probability. Not computed: an upper bound of the probability of
    /// every label sequence that starts with it (it was under the floor of the call that met it).
    score: f32,
}

/// Exact CTC scores of label sequences over one cell's frames, remembering the forward rows of
/// every prefix computed: a later call shares the work of the earlier ones.
///
/// A prefix is computed from its parent's rows. Before that, an upper bound of the probability
/// of every label sequence that starts with it is taken: every alignment of such a sequence
/// enters the prefix's last label exactly once, from the parent's states at the frame before, so
/// that probability is at most the sum over frames of "parent's mass at t - 1 times the label's
/// probability at t". Under the caller's floor (with a margin for rounding), the prefix and all
/// its extensions get that bound and are not computed. A cheap bound of that bound (the largest
/// term, times the number of terms) is tried first. The scores of the prefixes computed do not
/// depend on what was skipped or on the order of calls: the same arithmetic as one forward pass.
#[derive(Clone, Debug, Default)]
pub struct PrefixScorer {
    /// Index 0 is the empty prefix (made on first use).
    prefixes: Vec<Prefix>,
    rows: Vec<f32>,
    frames: usize,
    /// Per frame, the mass that can enter a new label from the parent (scratch).
    entry: Vec<f32>,
}

/// Bounds within this of a floor are not trusted to be under it (rounding).
const BOUND_MARGIN: f32 = 0.01;

impl PrefixScorer {
    /// The log-probability of `labels` over `lp`'s frames (always the same `lp` for one scorer),
    /// exact when it is at least `floor`; under it, some value under `floor` that is at least
    /// the exact one. `f32::NEG_INFINITY` for a sequence that cannot be emitted in this many
    /// frames or holds a label outside `1..classes`.
    pub fn score(&mut self, lp: &LogProbs, labels: impl IntoIterator<Item = usize>, floor: f32) -> f32 {
        let frames = lp.frames();
        if self.prefixes.is_empty() {
            self.start(lp);
        }
        debug_assert_eq!(frames, self.frames, "a PrefixScorer serves one cell");
        let mut at = 0usize;
        let mut depth = 0usize;
        for c in labels {
            depth += 1;
            if c == BLANK || c >= lp.classes() || depth > frames {
                return f32::NEG_INFINITY;
            }
            let child = self.child(at, c as u32);
            let p = &self.prefixes[child];
            if p.rows == NONE {
                if p.score < floor - BOUND_MARGIN {
                    // Met before under a floor, and under this one too: no extension is computed.
                    return p.score;
                }
                self.compute(lp, at, child, floor);
                if self.prefixes[child].rows == NONE {
                    return self.prefixes[child].score;
                }
            }
            at = child;
        }
        if frames == 0 {
            return if depth == 0 { 0.0 } else { f32::NEG_INFINITY };
        }
        self.prefixes[at].score
    }

    /// The empty prefix: only the leading-blank state.
    fn start(&mut self, lp: &LogProbs) {
        let frames = lp.frames();
        self.frames = frames;
        self.rows = vec![f32::NEG_INFINITY; 2 * frames];
        let mut acc = 0.0f32;
        for t in 0..frames {
            acc += lp.row(t)[BLANK];
            self.rows[frames + t] = acc;
        }
        let score = if frames == 0 { 0.0 } else { self.rows[2 * frames - 1] };
        self.prefixes.push(Prefix {
            label: BLANK as u32,
            depth: 0,
            first_child: NONE,
            next_sibling: NONE,
            rows: 0,
            score,
        });
        self.entry = vec![f32::NEG_INFINITY; frames];
    }

    /// The child of `parent` for label `c` (made, not computed, if new).
    fn child(&mut self, parent: usize, c: u32) -> usize {
        let mut k = self.prefixes[parent].first_child;
        while k != NONE {
            if self.prefixes[k as usize].label == c {
                return k as usize;
            }
            k = self.prefixes[k as usize].next_sibling;
        }
        let id = self.prefixes.len();
        let depth = self.prefixes[parent].depth + 1;
        let next_sibling = self.prefixes[parent].first_child;
        self.prefixes.push(Prefix {
            label: c,
            depth,
            first_child: NONE,
            next_sibling,
            rows: NONE,
            score: f32::INFINITY,
        });
        self.prefixes[parent].first_child = id as u32;
        id
    }

    /// Computes prefix `id` from its parent's rows, unless a bound puts it and its extensions
    /// under `floor` (then its score is that bound).
    fn compute(&mut self, lp: &LogProbs, parent: usize, id: usize, floor: f32) {
        let frames = self.frames;
        let (c, d) = (self.prefixes[id].label as usize, self.prefixes[id].depth as usize);
        let same_as_parent = parent != 0 && self.prefixes[parent].label as usize == c;
        let po = self.prefixes[parent].rows as usize;
        // The earliest frame at which this prefix can have been emitted.
        let start = d - 1;
        {
            let (parent_label, parent_blank) = (&self.rows[po..po + frames], &self.rows[po + frames..po + 2 * frames]);
            // The cheap bound: the largest entry term (the parent's mass bounded by twice its
            // larger state), times the number of terms.
            let mut most = f32::NEG_INFINITY;
            for t in start..frames {
                let into = if t == 0 {
                    0.0
                } else if same_as_parent {
                    parent_blank[t - 1]
                } else {
                    parent_blank[t - 1].max(parent_label[t - 1]) + std::f32::consts::LN_2
                };
                most = most.max(into + lp.row(t)[c]);
            }
            let cheap = most + ((frames - start) as f32).ln();
            if cheap < floor - BOUND_MARGIN {
                self.prefixes[id].score = cheap;
                return;
            }
            // The entry bound itself (and the entry mass per frame, kept for the forward pass).
            let mut terms_max = f32::NEG_INFINITY;
            for t in start..frames {
                let into = if t == 0 {
                    0.0
                } else {
                    let p = t - 1;
                    if same_as_parent { parent_blank[p] } else { log_add(parent_blank[p], parent_label[p]) }
                };
                self.entry[t] = into;
                terms_max = terms_max.max(into + lp.row(t)[c]);
            }
            if terms_max == f32::NEG_INFINITY {
                self.prefixes[id].score = f32::NEG_INFINITY;
                return;
            }
            let sum: f32 = (start..frames).map(|t| (self.entry[t] + lp.row(t)[c] - terms_max).exp()).sum();
            let bound = terms_max + sum.ln();
            if bound < floor - BOUND_MARGIN {
                self.prefixes[id].score = bound;
                return;
            }
        }
        // The forward pass: label row (last label emitted at t) and blank row (a blank after it).
        let o = self.rows.len();
        self.rows.resize(o + 2 * frames, f32::NEG_INFINITY);
        let (label, blank) = self.rows[o..].split_at_mut(frames);
        for t in start..frames {
            let row = lp.row(t);
            let from = if t == 0 { 0.0 } else { log_add(label[t - 1], self.entry[t]) };
            label[t] = from + row[c];
            if t > 0 {
                blank[t] = log_add(blank[t - 1], label[t - 1]) + row[BLANK];
            }
        }
        self.prefixes[id].score = log_add(label[frames - 1], blank[frames - 1]);
        self.prefixes[id].rows = o as u32;
    }
}

/// [`log_add`] over a slice.
pub fn log_sum(values: &[f32]) -> f32 {
    values.iter().copied().fold(f32::NEG_INFINITY, log_add)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::collections::BTreeMap;

    fn random_lp(rng: &mut ChaCha8Rng, frames: usize, classes: usize, sharp: f32) -> LogProbs {
        let data: Vec<f32> = (0..frames * classes).map(|_| rng.gen_range(-sharp..sharp)).collect();
        LogProbs::from_logits(frames, classes, data)
    }

    /// Every path, collapsed, with its summed probability (in f64).
    fn brute_force(lp: &LogProbs) -> BTreeMap<Vec<usize>, f64> {
        let (t, c) = (lp.frames(), lp.classes());
        let mut out = BTreeMap::new();
        let total = c.pow(t as u32);
        for mut code in 0..total {
            let mut path = Vec::with_capacity(t);
            let mut p = 0.0f64;
            for f in 0..t {
                let k = code % c;
                code /= c;
                path.push(k);
                p += lp.row(f)[k] as f64;
            }
            let mut labels = Vec::new();
            let mut prev = BLANK;
            for &k in &path {
                if k != BLANK && k != prev {
                    labels.push(k);
                }
                prev = k;
            }
            *out.entry(labels).or_insert(0.0) += p.exp();
        }
        out
    }

    #[test]
    fn log_add_handles_infinities() {
        assert_eq!(log_add(f32::NEG_INFINITY, f32::NEG_INFINITY), f32::NEG_INFINITY);
        assert_eq!(log_add(-1.0, f32::NEG_INFINITY), -1.0);
        assert!((log_add(0.0, 0.0) - 2f32.ln()).abs() < 1e-6);
        assert!((log_add(-1000.0, -1000.0) - (-1000.0 + 2f32.ln())).abs() < 1e-3);
    }

    #[test]
    fn forward_matches_enumeration_of_alignments() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for &(frames, classes) in &[(1, 2), (3, 3), (5, 3), (6, 4), (4, 5)] {
            let lp = random_lp(&mut rng, frames, classes, 3.0);
            let truth = brute_force(&lp);
            let sum: f64 = truth.values().sum();
            assert!((sum - 1.0).abs() < 1e-4, "probabilities sum to {sum}");
            let keys: Vec<&Vec<usize>> = truth.keys().collect();
            let cands: Vec<&[usize]> = keys.iter().map(|k| k.as_slice()).collect();
            let many = score_many(&lp, &cands);
            for (k, got) in keys.iter().zip(&many) {
                let want = truth[*k].ln();
                assert!((*got as f64 - want).abs() < 1e-4, "{k:?}: got {got}, want {want}");
                let one = log_prob(&lp, k);
                assert!((one - got).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn impossible_and_invalid_candidates_are_minus_infinity() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let lp = random_lp(&mut rng, 3, 4, 2.0);
        // "1 1" needs a blank between: 3 frames suffice; "1 1 1" needs 5.
        assert!(log_prob(&lp, &[1, 1]).is_finite());
        assert_eq!(log_prob(&lp, &[1, 1, 1]), f32::NEG_INFINITY);
        assert_eq!(log_prob(&lp, &[1, 2, 3, 1]), f32::NEG_INFINITY);
        assert_eq!(log_prob(&lp, &[0]), f32::NEG_INFINITY);
        assert_eq!(log_prob(&lp, &[9]), f32::NEG_INFINITY);
        let empty = LogProbs::new(0, 4, vec![]);
        assert_eq!(score_many(&empty, &[&[], &[1]]), vec![0.0, f32::NEG_INFINITY]);
    }

    /// The scorer this module had before [`PrefixScorer`] (one trie per call, the parent's
    /// total as the bound), kept to check that the scores did not change.
    /// A trie node: the label, its children and the candidates that end here.
    struct Node {
        label: usize,
        children: Vec<usize>,
        ends: Vec<usize>,
    }

    fn previous_score_many_above(lp: &LogProbs, candidates: &[&[usize]], floor: f32) -> Vec<f32> {
        let mut out = vec![f32::NEG_INFINITY; candidates.len()];
        let frames = lp.frames();
        if frames == 0 {
            for (i, c) in candidates.iter().enumerate() {
                if c.is_empty() {
                    out[i] = 0.0;
                }
            }
            return out;
        }
        // Build the trie.
        let mut nodes = vec![Node { label: BLANK, children: Vec::new(), ends: Vec::new() }];
        let mut max_depth = 0;
        'cand: for (i, cand) in candidates.iter().enumerate() {
            if cand.len() > frames || cand.iter().any(|&c| c == BLANK || c >= lp.classes()) {
                continue 'cand;
            }
            max_depth = max_depth.max(cand.len());
            let mut at = 0;
            for &c in cand.iter() {
                at = match nodes[at].children.iter().copied().find(|&k| nodes[k].label == c) {
                    Some(k) => k,
                    None => {
                        nodes.push(Node { label: c, children: Vec::new(), ends: Vec::new() });
                        let k = nodes.len() - 1;
                        nodes[at].children.push(k);
                        k
                    }
                };
            }
            nodes[at].ends.push(i);
        }

        // The alpha rows of the prefix at each depth of the walk: (label, blank) per frame, kept in
        // one buffer (depth d at `d * frames`), since the walk needs only the chain above a node.
        let mut label_rows = vec![f32::NEG_INFINITY; (max_depth + 1) * frames];
        let mut blank_rows = vec![f32::NEG_INFINITY; (max_depth + 1) * frames];
        // Root: only the leading-blank state.
        let mut acc = 0.0f32;
        for (t, slot) in blank_rows[..frames].iter_mut().enumerate() {
            acc += lp.row(t)[BLANK];
            *slot = acc;
        }
        for &i in &nodes[0].ends {
            out[i] = blank_rows[frames - 1];
        }

        // Depth-first over the trie: (node, index of its next child, depth).
        let mut stack: Vec<(usize, usize, usize)> = vec![(0, 0, 0)];
        while let Some(top) = stack.last_mut() {
            let (node, next, depth) = *top;
            if next == nodes[node].children.len() {
                stack.pop();
                continue;
            }
            top.1 += 1;
            let child = nodes[node].children[next];
            let d = depth + 1;
            let c = nodes[child].label;
            let same_as_parent = node != 0 && nodes[node].label == c;
            let (done_l, rest_l) = label_rows.split_at_mut(d * frames);
            let (done_b, rest_b) = blank_rows.split_at_mut(d * frames);
            let (parent_label, parent_blank) = (&done_l[depth * frames..], &done_b[depth * frames..]);
            let label = &mut rest_l[..frames];
            let blank = &mut rest_b[..frames];
            // The earliest frame at which this prefix can have been emitted.
            let start = d - 1;
            label[..start].fill(f32::NEG_INFINITY);
            blank[..start.max(1)].fill(f32::NEG_INFINITY);
            let mut bound = f32::NEG_INFINITY;
            for t in start..frames {
                let row = lp.row(t);
                let from = if t == 0 {
                    if d == 1 { 0.0 } else { f32::NEG_INFINITY }
                } else {
                    let p = t - 1;
                    let from_parent =
                        if same_as_parent { parent_blank[p] } else { log_add(parent_blank[p], parent_label[p]) };
                    log_add(label[p], from_parent)
                };
                label[t] = from + row[c];
                bound = log_add(bound, label[t]);
                if t > 0 {
                    blank[t] = log_add(blank[t - 1], label[t - 1]) + row[BLANK];
                }
            }
            let total = log_add(label[frames - 1], blank[frames - 1]);
            for &i in &nodes[child].ends {
                out[i] = total;
            }
            if nodes[child].children.is_empty() {
                continue;
            }
            if bound < floor {
                // Every extension scores at most `bound`, under the floor: not followed.
                let mut pending = nodes[child].children.clone();
                while let Some(k) = pending.pop() {
                    for &i in &nodes[k].ends {
                        out[i] = bound;
                    }
                    pending.extend_from_slice(&nodes[k].children);
                }
                continue;
            }
            stack.push((child, 0, d));
        }
        out
    }

    /// A scorer kept over many calls (each with its own floor) gives, for every candidate at or
    /// above the call's floor, exactly (bit for bit) the score the previous scorer gave; under
    /// it, a bound under the floor.
    #[test]
    fn a_kept_scorer_matches_fresh_passes_bit_for_bit() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for _ in 0..10 {
            let lp = random_lp(&mut rng, 30, 6, 4.0);
            let mut kept = PrefixScorer::default();
            for _ in 0..8 {
                let cands: Vec<Vec<usize>> =
                    (0..40).map(|_| (0..rng.gen_range(0..6)).map(|_| rng.gen_range(1..6)).collect()).collect();
                let refs: Vec<&[usize]> = cands.iter().map(|c| c.as_slice()).collect();
                let floor = if rng.gen_bool(0.2) { f32::NEG_INFINITY } else { rng.gen_range(-30.0..-2.0) };
                let exact = previous_score_many_above(&lp, &refs, f32::NEG_INFINITY);
                let before = previous_score_many_above(&lp, &refs, floor);
                for ((c, e), b) in refs.iter().zip(&exact).zip(&before) {
                    let got = kept.score(&lp, c.iter().copied(), floor);
                    assert_eq!(score_many(&lp, &[c])[0].to_bits(), e.to_bits());
                    if *e >= floor {
                        assert_eq!(b.to_bits(), e.to_bits());
                        assert_eq!(got.to_bits(), e.to_bits(), "{c:?}: exact {e}, kept {got}");
                    } else {
                        assert!(got < floor && got + 1e-4 >= *e, "{c:?} under the floor: exact {e}, got {got}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_floor_keeps_exact_scores_above_it_and_bounds_the_rest() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for _ in 0..20 {
            let lp = random_lp(&mut rng, 25, 7, 3.0);
            let cands: Vec<Vec<usize>> =
                (0..60).map(|_| (0..rng.gen_range(1..6)).map(|_| rng.gen_range(1..7)).collect()).collect();
            let refs: Vec<&[usize]> = cands.iter().map(|c| c.as_slice()).collect();
            let exact = score_many(&lp, &refs);
            let mut sorted = exact.clone();
            sorted.sort_by(|a, b| b.total_cmp(a));
            let floor = sorted[10];
            let above = score_many_above(&lp, &refs, floor);
            for (e, a) in exact.iter().zip(&above) {
                if *e >= floor {
                    assert!((e - a).abs() < 1e-5, "exact {e}, with a floor {a}");
                } else {
                    assert!(*a < floor && *a + 1e-4 >= *e, "below the floor: exact {e}, got {a}");
                }
            }
        }
    }

    #[test]
    fn shared_prefixes_and_duplicates_score_like_single_calls() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let lp = random_lp(&mut rng, 30, 8, 4.0);
        let cands: Vec<Vec<usize>> = vec![
            vec![1, 2, 3],
            vec![1, 2],
            vec![1, 2, 3, 4],
            vec![1, 2, 3],
            vec![1, 1, 2],
            vec![],
            vec![7, 7, 7, 7],
            vec![2],
        ];
        let refs: Vec<&[usize]> = cands.iter().map(|c| c.as_slice()).collect();
        let many = score_many(&lp, &refs);
        for (c, got) in cands.iter().zip(&many) {
            // Score each alone through a trie of one.
            let alone = score_many(&lp, &[c.as_slice()])[0];
            assert!((alone - got).abs() < 1e-5);
        }
        assert_eq!(many[0], many[3]);
    }

    #[test]
    fn long_inputs_stay_finite() {
        // 400 frames of a confident model: raw probabilities would underflow f32.
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let lp = random_lp(&mut rng, 400, 10, 8.0);
        let (best, _) = greedy(&lp);
        let s = log_prob(&lp, &best);
        assert!(s.is_finite() && s < 0.0);
    }

    #[test]
    fn beam_search_finds_the_true_top_k() {
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        for _ in 0..10 {
            let lp = random_lp(&mut rng, 5, 4, 3.0);
            let truth = brute_force(&lp);
            let mut ranked: Vec<(&Vec<usize>, f64)> = truth.iter().map(|(k, v)| (k, *v)).collect();
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
            let got = beam_search(&lp, 64, 3);
            assert_eq!(got.len(), 3);
            for (g, w) in got.iter().zip(&ranked) {
                assert!((g.1 as f64 - w.1.ln()).abs() < 1e-4, "{g:?} vs {w:?}");
            }
            assert_eq!(&got[0].0, ranked[0].0);
        }
    }

    #[test]
    fn greedy_collapses_the_best_path() {
        // Frames: a a - a b b -  (classes: 0 blank, 1 a, 2 b).
        let pick = [1, 1, 0, 1, 2, 2, 0];
        let mut data = Vec::new();
        for &k in &pick {
            for c in 0..3 {
                data.push(if c == k { 0.9f32.ln() } else { 0.05f32.ln() });
            }
        }
        let lp = LogProbs::new(pick.len(), 3, data);
        let (labels, score) = greedy(&lp);
        assert_eq!(labels, vec![1, 1, 2]);
        assert!((score - 7.0 * 0.9f32.ln()).abs() < 1e-5);
        let top = beam_search(&lp, 8, 1);
        assert_eq!(top[0].0, vec![1, 1, 2]);
        assert!(top[0].1 >= score);
    }
}
