//! The handwriting recognizer: move cells to scored readings.
//!
//! A CRNN (convolutions + BiLSTM, trained with CTC; `models/train/`) runs in ONNX Runtime over
//! cells preprocessed exactly as in training ([`preprocess`]). Its per-frame log-probabilities
//! ([`ctc::LogProbs`]) answer three questions per cell ([`CellScores`]):
//! the best reading ([`CellScores::greedy`]), the top K readings ([`CellScores::top`], prefix beam
//! search) and how likely any given string is ([`CellScores::log_prob`], [`CellScores::score`]:
//! the exact CTC forward algorithm, many candidates at once through a prefix trie).
//!
//! Readings are *folded* ([`Alphabet`]): Cyrillic look-alikes come out as Latin letters and 0 as
//! O; candidate strings are folded the same way before scoring, so "Кр:е5" and "Kp:e5" score alike.

pub mod alphabet;
pub mod cli;
pub mod ctc;
pub mod model;
pub mod preprocess;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use image::GrayImage;
use serde::Serialize;

pub use alphabet::Alphabet;
pub use ctc::LogProbs;
pub use preprocess::{CellTensor, Preprocess};

use model::OnnxModel;

/// Cells per ONNX Runtime call.
const MAX_BATCH: usize = 64;

/// Beam width of the prefix beam search behind [`CellScores::top`].
pub const BEAM_WIDTH: usize = 16;

/// The model shipped in the repository (`models/recognizer.onnx`).
pub fn default_model_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models").join("recognizer.onnx")
}

/// One reading of a cell: folded text and its log-probability (natural log).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reading {
    pub text: String,
    pub logp: f32,
}

/// The model's output for one cell, with the questions the decoder asks of it.
#[derive(Clone, Debug)]
pub struct CellScores {
    logprobs: LogProbs,
    alphabet: Arc<Alphabet>,
    /// The prefixes scored so far by [`CellScores::score_above_cached`].
    prefixes: ctc::PrefixScorer,
}

impl CellScores {
    /// Wraps per-frame log-probabilities (classes must match the alphabet).
    pub fn new(logprobs: LogProbs, alphabet: Arc<Alphabet>) -> CellScores {
        assert_eq!(logprobs.classes(), alphabet.num_classes(), "CellScores: classes do not match the alphabet");
        CellScores { logprobs, alphabet, prefixes: ctc::PrefixScorer::default() }
    }

    /// The per-frame log-probabilities.
    pub fn logprobs(&self) -> &LogProbs {
        &self.logprobs
    }

    /// The alphabet.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// The best-path reading, scored exactly.
    pub fn greedy(&self) -> Reading {
        let (labels, _) = ctc::greedy(&self.logprobs);
        let logp = ctc::log_prob(&self.logprobs, &labels);
        Reading { text: self.alphabet.decode(&labels), logp }
    }

    /// The `k` most likely readings, best first, with exact log-probabilities.
    pub fn top(&self, k: usize) -> Vec<Reading> {
        ctc::beam_search(&self.logprobs, BEAM_WIDTH.max(2 * k), k)
            .into_iter()
            .map(|(labels, logp)| Reading { text: self.alphabet.decode(&labels), logp })
            .collect()
    }

    /// The exact log-probability that the cell reads `text` (folded first);
    /// `f32::NEG_INFINITY` if a character has no class or the text cannot fit.
    pub fn log_prob(&self, text: &str) -> f32 {
        self.score(&[text])[0]
    }

    /// [`CellScores::log_prob`] for many candidates at once, sharing common prefixes.
    pub fn score<S: AsRef<str>>(&self, texts: &[S]) -> Vec<f32> {
        self.score_above(texts, f32::NEG_INFINITY)
    }

    /// [`CellScores::score`] where only scores at or above `floor` matter: a text below it gets
    /// some value under `floor` (see [`ctc::score_many_above`]); much faster when most texts are
    /// far from the ink.
    pub fn score_above<S: AsRef<str>>(&self, texts: &[S], floor: f32) -> Vec<f32> {
        let encoded: Vec<Option<Vec<usize>>> = texts.iter().map(|t| self.alphabet.encode(t.as_ref())).collect();
        let valid: Vec<&[usize]> = encoded.iter().filter_map(|e| e.as_deref()).collect();
        let scores = ctc::score_many_above(&self.logprobs, &valid, floor);
        let mut it = scores.into_iter();
        encoded
            .iter()
            .map(|e| if e.is_some() { it.next().unwrap_or(f32::NEG_INFINITY) } else { f32::NEG_INFINITY })
            .collect()
    }

    /// [`CellScores::score_above`], remembering the work on every prefix for later calls
    /// ([`ctc::PrefixScorer`]): what the game decoder calls at every half-move. The scores are
    /// the same.
    pub fn score_above_cached<S: AsRef<str>>(&mut self, texts: &[S], floor: f32) -> Vec<f32> {
        let (lp, alphabet, prefixes) = (&self.logprobs, &self.alphabet, &mut self.prefixes);
        texts
            .iter()
            .map(|t| prefixes.score(lp, t.as_ref().chars().map(|c| alphabet.class_of(c).unwrap_or(usize::MAX)), floor))
            .collect()
    }
}

/// A loaded recognizer: model, alphabet and preprocessing.
pub struct Recognizer {
    model: OnnxModel,
    alphabet: Arc<Alphabet>,
    preprocess: Preprocess,
}

impl Recognizer {
    /// Loads `model.onnx` with the `alphabet.json` and `preprocess.json` beside it, running
    /// on one core.
    pub fn load(model_path: &Path) -> Result<Recognizer, String> {
        Recognizer::load_with_threads(model_path, 1)
    }

    /// [`Recognizer::load`] with `threads` ONNX Runtime threads.
    pub fn load_with_threads(model_path: &Path, threads: usize) -> Result<Recognizer, String> {
        let dir = model_path.parent().unwrap_or(Path::new("."));
        let alphabet = Alphabet::load(&dir.join("alphabet.json"))?;
        let preprocess = Preprocess::load(&dir.join("preprocess.json"))?;
        let model = OnnxModel::load(model_path, threads)?;
        Ok(Recognizer { model, alphabet: Arc::new(alphabet), preprocess })
    }

    /// The alphabet.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// The preprocessing.
    pub fn preprocess(&self) -> &Preprocess {
        &self.preprocess
    }

    /// Reads cells (a page's worth at a time is best): cells of equal preprocessed width run
    /// together in batches. Results are in input order and independent of batching.
    pub fn recognize(&mut self, cells: &[GrayImage]) -> Result<Vec<CellScores>, String> {
        let tensors = cells
            .iter()
            .enumerate()
            .map(|(i, c)| self.preprocess.apply(c).map_err(|e| format!("cell {i}: {e}")))
            .collect::<Result<Vec<_>, String>>()?;
        self.recognize_tensors(&tensors)
    }

    /// [`Recognizer::recognize`] for cells already preprocessed.
    pub fn recognize_tensors(&mut self, tensors: &[CellTensor]) -> Result<Vec<CellScores>, String> {
        let mut groups: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
        for (i, t) in tensors.iter().enumerate() {
            groups.entry((t.height, t.width)).or_default().push(i);
        }
        let classes = self.alphabet.num_classes();
        let mut out: Vec<Option<LogProbs>> = vec![None; tensors.len()];
        for indices in groups.values() {
            for chunk in indices.chunks(MAX_BATCH) {
                let batch: Vec<&CellTensor> = chunk.iter().map(|&i| &tensors[i]).collect();
                for (&i, lp) in chunk.iter().zip(self.model.run_batch(&batch, classes)?) {
                    out[i] = Some(lp);
                }
            }
        }
        Ok(out
            .into_iter()
            .map(|lp| CellScores::new(lp.expect("every cell was run"), Arc::clone(&self.alphabet)))
            .collect())
    }

    /// Reads one image file (any format the `image` crate reads; converted to grayscale).
    pub fn recognize_file(&mut self, path: &Path) -> Result<CellScores, String> {
        let img = load_cell(path)?;
        let mut v = self.recognize(std::slice::from_ref(&img)).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(v.remove(0))
    }
}

/// Loads a cell image as grayscale, with an error naming the file.
pub fn load_cell(path: &Path) -> Result<GrayImage, String> {
    let img = image::open(path).map_err(|e| format!("{}: cannot read the image: {e}", path.display()))?;
    let gray = img.to_luma8();
    if gray.width() == 0 || gray.height() == 0 {
        return Err(format!("{}: the image is empty", path.display()));
    }
    Ok(gray)
}
