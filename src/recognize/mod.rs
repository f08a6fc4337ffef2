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
pub mod ctc;
mod error;
pub mod model;
pub mod preprocess;
pub mod runtime;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use image::GrayImage;
use serde::Serialize;

pub use alphabet::Alphabet;
pub use ctc::LogProbs;
pub use error::RecognizeError;
pub use preprocess::{CellTensor, Preprocess};

use model::OnnxModel;

/// Cells per ONNX Runtime call.
const MAX_BATCH: usize = 64;

/// Beam width of the prefix beam search behind [`CellScores::top`].
pub const BEAM_WIDTH: usize = 16;

/// The folder name the models built into the binary stand under: not a folder on disk. A model
/// path in it ([`embedded_model_path`]) loads the built-in model of that file name, with the
/// built-in `alphabet.json` and `preprocess.json`.
pub const EMBEDDED_DIR: &str = "<embedded>";

/// The models built into the binary, by file name: the files of `models/` that the default read
/// loads (the shipped model and the partner model `preprocess.json`'s `view_models` names), so
/// that an installed binary needs no checkout. They are built in deflated (`build.rs`: about
/// 420 kB less binary) and inflated once, when first loaded ([`embedded_model_bytes`]).
const EMBEDDED_MODELS: [(&str, &[u8]); 2] = [
    ("recognizer.int8.onnx", include_bytes!(concat!(env!("OUT_DIR"), "/recognizer.int8.onnx.deflate"))),
    ("recognizer-b.int8.onnx", include_bytes!(concat!(env!("OUT_DIR"), "/recognizer-b.int8.onnx.deflate"))),
];

/// Largest size a built-in model inflates to.
const EMBEDDED_MODEL_LIMIT: usize = 64 << 20;

/// The model the tool reads with, built into the binary: the shipped model's LSTM and linear
/// weights as 8-bit integers (`models/recognizer.int8.onnx`, made from [`float_model_path`] by
/// `models/train/quantize.py`): the same readings at about three quarters of the time
/// (`models/README.md`).
pub fn embedded_model_path() -> PathBuf {
    Path::new(EMBEDDED_DIR).join(EMBEDDED_MODELS[0].0)
}

/// The model read with when no `--model` is given: the file `$SCORESHEET_MODEL` names, else the
/// built-in one ([`embedded_model_path`]).
pub fn default_model_path() -> PathBuf {
    std::env::var_os("SCORESHEET_MODEL")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(embedded_model_path)
}

/// The shipped model as trained and exported (`models/recognizer.onnx`, float32, standard ONNX
/// operators only), in the source checkout: what [`embedded_model_path`] is quantized from. Not
/// built in; for tests and development tools.
pub fn float_model_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models").join("recognizer.onnx")
}

/// One reading of a cell: folded text and its log-probability (natural log).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reading {
    /// The text, folded (see [`Alphabet::fold_str`]).
    pub text: String,
    /// Its log-probability (natural log).
    pub logp: f32,
}

/// The model's output for one cell, with the questions the decoder asks of it.
///
/// A cell is read at one or more views ([`Preprocess::views`]); every score is the mean of the
/// string's log-probabilities over the views (a geometric mean of the views' probabilities).
#[derive(Clone, Debug)]
pub struct CellScores {
    views: Vec<LogProbs>,
    alphabet: Arc<Alphabet>,
    /// Per view, the prefixes scored so far by [`CellScores::score_above_cached`].
    prefixes: Vec<ctc::PrefixScorer>,
}

impl CellScores {
    /// Wraps per-frame log-probabilities of one view (classes must match the alphabet).
    pub fn new(logprobs: LogProbs, alphabet: Arc<Alphabet>) -> CellScores {
        CellScores::from_views(vec![logprobs], alphabet)
    }

    /// Wraps per-frame log-probabilities of the views of one cell (at least one; classes must
    /// match the alphabet).
    pub fn from_views(views: Vec<LogProbs>, alphabet: Arc<Alphabet>) -> CellScores {
        assert!(!views.is_empty(), "CellScores: no view");
        for lp in &views {
            assert_eq!(lp.classes(), alphabet.num_classes(), "CellScores: classes do not match the alphabet");
        }
        let prefixes = vec![ctc::PrefixScorer::default(); views.len()];
        CellScores { views, alphabet, prefixes }
    }

    /// The per-frame log-probabilities of the first view.
    pub fn logprobs(&self) -> &LogProbs {
        &self.views[0]
    }

    /// The per-frame log-probabilities of every view.
    pub fn views(&self) -> &[LogProbs] {
        &self.views
    }

    /// The alphabet.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// The mean over views of the exact log-probability of `labels`.
    fn mean_log_prob(&self, labels: &[usize]) -> f32 {
        self.views.iter().map(|lp| ctc::log_prob(lp, labels)).sum::<f32>() / self.views.len() as f32
    }

    /// The best-path reading (the best of the views' best paths), scored exactly.
    pub fn greedy(&self) -> Reading {
        let mut best: Option<(Vec<usize>, f32)> = None;
        for lp in &self.views {
            let (labels, _) = ctc::greedy(lp);
            if best.as_ref().is_some_and(|(b, _)| *b == labels) {
                continue;
            }
            let logp = self.mean_log_prob(&labels);
            if best.as_ref().is_none_or(|(_, b)| logp > *b) {
                best = Some((labels, logp));
            }
        }
        let (labels, logp) = best.expect("at least one view");
        Reading { text: self.alphabet.decode(&labels), logp }
    }

    /// The `k` most likely readings, best first, with exact log-probabilities: each view's top
    /// `k` (prefix beam search), scored over all views.
    pub fn top(&self, k: usize) -> Vec<Reading> {
        let mut seen: Vec<Vec<usize>> = Vec::new();
        for lp in &self.views {
            for (labels, _) in ctc::beam_search(lp, BEAM_WIDTH.max(2 * k), k) {
                if !seen.contains(&labels) {
                    seen.push(labels);
                }
            }
        }
        let mut out: Vec<Reading> = seen
            .into_iter()
            .map(|labels| Reading { logp: self.mean_log_prob(&labels), text: self.alphabet.decode(&labels) })
            .collect();
        crate::sort::by_key_descending(&mut out, |a| a.logp);
        out.truncate(k);
        out
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
        // Log-probabilities are at most 0, so a mean at or above `floor` needs every view at or
        // above `n * floor`; a view under that puts the mean under `floor`.
        let n = self.views.len() as f32;
        let mut sums = vec![0f32; valid.len()];
        for lp in &self.views {
            for (s, v) in sums.iter_mut().zip(ctc::score_many_above(lp, &valid, n * floor)) {
                *s += v;
            }
        }
        let mut it = sums.into_iter().map(|s| s / n);
        encoded
            .iter()
            .map(|e| if e.is_some() { it.next().unwrap_or(f32::NEG_INFINITY) } else { f32::NEG_INFINITY })
            .collect()
    }

    /// [`CellScores::score_above`], remembering the work on every prefix for later calls
    /// ([`ctc::PrefixScorer`]): what the game decoder calls at every half-move. The scores are
    /// the same.
    pub fn score_above_cached<S: AsRef<str>>(&mut self, texts: &[S], floor: f32) -> Vec<f32> {
        let (views, alphabet, prefixes) = (&self.views, &self.alphabet, &mut self.prefixes);
        let n = views.len();
        let target = n as f32 * floor;
        let mut bound = vec![0f32; n];
        let mut exact = vec![false; n];
        texts
            .iter()
            .map(|t| {
                let labels = || t.as_ref().chars().map(|c| alphabet.class_of(c).unwrap_or(usize::MAX));
                // `bound[j]`: view j's score if `exact[j]`, else an upper bound on it (0 before it
                // is scored). The mean reaches `floor` only if view j reaches `target` less the
                // other views' bounds, its need. A view is first scored against the tighter of
                // its need and `floor` (views mostly agree, and a tight floor prunes most texts
                // early), then, if that left only a bound, against its need.
                bound.fill(0.0);
                exact.fill(false);
                for pass in 0..2 {
                    for j in 0..n {
                        if exact[j] {
                            continue;
                        }
                        let others: f32 = bound.iter().sum::<f32>() - bound[j];
                        let need = target - others;
                        let against = if pass == 0 { need.max(floor) } else { need };
                        let v = prefixes[j].score(&views[j], labels(), against);
                        bound[j] = v;
                        exact[j] = v >= against || against == f32::NEG_INFINITY;
                        if others + v < target {
                            return (others + v) / n as f32;
                        }
                    }
                }
                bound.iter().sum::<f32>() / n as f32
            })
            .collect()
    }
}

/// Which models read a cell's views.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ViewReaders {
    /// Each view by its model (`preprocess.json`'s `view_models`).
    #[default]
    Partnered,
    /// Every view by the model loaded: for moves its partners were not trained on (descriptive
    /// notation, see `models/MODEL_CARD.md`).
    LoadedModel,
}

/// A loaded recognizer: model, alphabet and preprocessing.
pub struct Recognizer {
    /// The model loaded, then the other models `preprocess.json`'s `view_models` names.
    models: Vec<OnnxModel>,
    /// For each view, the index in `models` of the model that reads it.
    view_model: Vec<usize>,
    alphabet: Arc<Alphabet>,
    preprocess: Preprocess,
}

impl Recognizer {
    /// Loads `model.onnx` with the `alphabet.json` and `preprocess.json` beside it, running
    /// on one core. A path in [`EMBEDDED_DIR`] loads the models built into the binary.
    pub fn load(model_path: &Path) -> Result<Recognizer, RecognizeError> {
        Recognizer::load_with_threads(model_path, 1)
    }

    /// [`Recognizer::load`] with `threads` ONNX Runtime threads.
    pub fn load_with_threads(model_path: &Path, threads: usize) -> Result<Recognizer, RecognizeError> {
        let dir = model_path.parent().unwrap_or(Path::new("."));
        let embedded = dir == Path::new(EMBEDDED_DIR);
        let (alphabet, preprocess) = if embedded {
            (Alphabet::shipped(), Preprocess::default())
        } else {
            (Alphabet::load(&dir.join("alphabet.json"))?, Preprocess::load(&dir.join("preprocess.json"))?)
        };
        let load_model =
            |path: &Path| if embedded { load_embedded(path, threads) } else { OnnxModel::load(path, threads) };
        let mut models = vec![load_model(model_path)?];
        let mut view_model = Vec::with_capacity(preprocess.views.len());
        for v in 0..preprocess.views.len() {
            let Some(name) = preprocess.view_models.get(v).and_then(|m| m.as_deref()) else {
                view_model.push(0);
                continue;
            };
            let path = dir.join(name);
            // Models after the first are found again by their file (the first is the one loaded,
            // whatever `view_models` names).
            match models.iter().skip(1).position(|m| m.path() == path) {
                Some(k) => view_model.push(k + 1),
                None => {
                    models.push(load_model(&path)?);
                    view_model.push(models.len() - 1);
                }
            }
        }
        Ok(Recognizer { models, view_model, alphabet: Arc::new(alphabet), preprocess })
    }

    /// The alphabet.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// The preprocessing.
    pub fn preprocess(&self) -> &Preprocess {
        &self.preprocess
    }

    /// Whether other models than the one loaded read some of the views.
    pub fn has_partners(&self) -> bool {
        self.models.len() > 1
    }

    /// Reads cells (a page's worth at a time is best): cells of equal preprocessed width run
    /// together in batches. Results are in input order and independent of batching.
    /// Each cell is read at every view of [`Preprocess::views`], each view by its model
    /// ([`Preprocess::view_models`]).
    pub fn recognize(&mut self, cells: &[GrayImage]) -> Result<Vec<CellScores>, RecognizeError> {
        self.recognize_with(cells, ViewReaders::Partnered)
    }

    /// [`Recognizer::recognize`] with the views read by `readers`.
    pub fn recognize_with(
        &mut self,
        cells: &[GrayImage],
        readers: ViewReaders,
    ) -> Result<Vec<CellScores>, RecognizeError> {
        let views = self.preprocess.views.clone();
        let mut per_cell: Vec<Vec<LogProbs>> = vec![Vec::with_capacity(views.len()); cells.len()];
        for (v, &stretch) in views.iter().enumerate() {
            let tensors = cells
                .iter()
                .enumerate()
                .map(|(index, c)| {
                    self.preprocess
                        .apply_stretched(c, stretch)
                        .map_err(|e| RecognizeError::Cell { index, source: Box::new(e) })
                })
                .collect::<Result<Vec<_>, RecognizeError>>()?;
            let model = match readers {
                ViewReaders::Partnered => self.view_model[v],
                ViewReaders::LoadedModel => 0,
            };
            for (cell, lp) in per_cell.iter_mut().zip(self.run_tensors(model, &tensors)?) {
                cell.push(lp);
            }
        }
        Ok(per_cell.into_iter().map(|v| CellScores::from_views(v, Arc::clone(&self.alphabet))).collect())
    }

    /// The model's log-probabilities per tensor, tensors of equal size run together in batches.
    fn run_tensors(&mut self, model: usize, tensors: &[CellTensor]) -> Result<Vec<LogProbs>, RecognizeError> {
        let mut groups: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
        for (i, t) in tensors.iter().enumerate() {
            groups.entry((t.height, t.width)).or_default().push(i);
        }
        let classes = self.alphabet.num_classes();
        let mut out: Vec<Option<LogProbs>> = vec![None; tensors.len()];
        for indices in groups.values() {
            for chunk in indices.chunks(MAX_BATCH) {
                let batch: Vec<&CellTensor> = chunk.iter().map(|&i| &tensors[i]).collect();
                for (&i, lp) in chunk.iter().zip(self.models[model].run_batch(&batch, classes)?) {
                    out[i] = Some(lp);
                }
            }
        }
        Ok(out.into_iter().map(|lp| lp.expect("every cell was run")).collect())
    }

    /// Reads one image file (any format the `image` crate reads; converted to grayscale).
    pub fn recognize_file(&mut self, path: &Path) -> Result<CellScores, RecognizeError> {
        let img = load_cell(path)?;
        let mut v = self.recognize(std::slice::from_ref(&img)).map_err(|e| e.in_file(path))?;
        Ok(v.remove(0))
    }
}

/// Loads the built-in model `path` names ([`EMBEDDED_DIR`]/file name).
fn load_embedded(path: &Path, threads: usize) -> Result<OnnxModel, RecognizeError> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let Some(index) = EMBEDDED_MODELS.iter().position(|(file, _)| *file == name) else {
        let built_in: Vec<&str> = EMBEDDED_MODELS.iter().map(|(file, _)| *file).collect();
        let reason = format!("no such model built in (built in: {})", built_in.join(", "));
        return Err(RecognizeError::File { path: path.to_path_buf(), reason });
    };
    let bytes = embedded_model_bytes(path, index)?;
    OnnxModel::from_bytes(path, bytes, threads)
}

/// The built-in model `index` of [`EMBEDDED_MODELS`] (`path` names it in an error), inflated on
/// first use and kept for the process (every worker's recognizer loads from the same bytes).
fn embedded_model_bytes(path: &Path, index: usize) -> Result<&'static [u8], RecognizeError> {
    use miniz_oxide::inflate::{DecompressError, TINFLStatus};
    // A failure keeps only the inflater's status: the partly inflated bytes are of no use.
    static INFLATED: [std::sync::OnceLock<Result<Vec<u8>, TINFLStatus>>; EMBEDDED_MODELS.len()] =
        [const { std::sync::OnceLock::new() }; EMBEDDED_MODELS.len()];
    let inflated = INFLATED[index].get_or_init(|| {
        miniz_oxide::inflate::decompress_to_vec_with_limit(EMBEDDED_MODELS[index].1, EMBEDDED_MODEL_LIMIT)
            .map_err(|e| e.status)
    });
    inflated.as_deref().map_err(|&status| RecognizeError::Model {
        model: path.display().to_string(),
        reason: format!("cannot inflate the built-in model: {}", DecompressError { status, output: Vec::new() }),
    })
}

/// Loads a cell image as grayscale, with an error naming the file.
pub fn load_cell(path: &Path) -> Result<GrayImage, RecognizeError> {
    let in_file = |reason: String| RecognizeError::File { path: path.to_path_buf(), reason };
    // (through the page loader, the one image loader: a file of several pages gives its first)
    let cannot_read = |e: crate::page::LoadError| in_file(format!("cannot read the image: {e}"));
    let pages = crate::page::load::load_pages(path).map_err(cannot_read)?;
    let img = pages.into_iter().next().ok_or_else(|| in_file("the file holds no page".into()))?.map_err(cannot_read)?;
    let gray = img.to_luma8();
    if gray.width() == 0 || gray.height() == 0 {
        return Err(in_file("the image is empty".into()));
    }
    Ok(gray)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random_view(rng: &mut ChaCha8Rng, frames: usize, classes: usize) -> LogProbs {
        let data: Vec<f32> = (0..frames * classes).map(|_| rng.gen_range(-4.0..4.0)).collect();
        LogProbs::from_logits(frames, classes, data)
    }

    /// The default read loads the shipped model and every model `preprocess.json` routes a view
    /// to: all of them must be built in, or an installed binary would look for a file.
    #[test]
    fn every_model_the_default_read_loads_is_built_in() {
        let shipped = embedded_model_path();
        let routed = Preprocess::default().view_models.into_iter().flatten();
        for name in std::iter::once(shipped.file_name().unwrap().to_string_lossy().into_owned()).chain(routed) {
            assert!(EMBEDDED_MODELS.iter().any(|(file, _)| *file == name), "{name} is not built in");
        }
        assert_eq!(shipped.parent(), Some(Path::new(EMBEDDED_DIR)));
    }

    /// The built-in models inflate to the files of `models/` byte for byte.
    #[test]
    fn built_in_models_inflate_to_the_model_files() {
        for (index, (name, _)) in EMBEDDED_MODELS.iter().enumerate() {
            let file = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("models").join(name)).unwrap();
            assert!(
                embedded_model_bytes(Path::new(name), index).unwrap() == file.as_slice(),
                "{name} differs from models/{name}"
            );
        }
    }

    /// Views of different widths: every score is the mean of the views' exact scores; with a
    /// floor, exact above it and under it otherwise, whatever was asked before.
    #[test]
    fn views_score_the_mean_of_their_log_probabilities() {
        let alphabet = Arc::new(Alphabet::shipped());
        let classes = alphabet.num_classes();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let chars: Vec<char> = "abcdex12345".chars().collect();
        for _ in 0..6 {
            let views: Vec<LogProbs> = [14, 18, 11].iter().map(|&f| random_view(&mut rng, f, classes)).collect();
            let mut cell = CellScores::from_views(views.clone(), Arc::clone(&alphabet));
            let mean = |text: &str| {
                let labels = alphabet.encode(text).unwrap();
                views.iter().map(|lp| ctc::log_prob(lp, &labels)).sum::<f32>() / 3.0
            };
            for _ in 0..5 {
                let texts: Vec<String> = (0..40)
                    .map(|_| (0..rng.gen_range(0..5)).map(|_| chars[rng.gen_range(0..chars.len())]).collect())
                    .collect();
                let exact: Vec<f32> = texts.iter().map(|t| mean(t)).collect();
                let mut sorted = exact.clone();
                sorted.sort_by(|a, b| b.total_cmp(a));
                let floor = sorted[rng.gen_range(0..20)];
                for (i, got) in
                    [cell.score(&texts), cell.score_above(&texts, floor), cell.score_above_cached(&texts, floor)]
                        .into_iter()
                        .enumerate()
                {
                    for ((t, e), g) in texts.iter().zip(&exact).zip(&got) {
                        if i == 0 || *e >= floor {
                            assert!((e - g).abs() < 1e-4, "{t:?} (call {i}): mean {e}, got {g}");
                        } else {
                            assert!(*g < floor, "{t:?} (call {i}): mean {e} under {floor}, got {g}");
                        }
                    }
                }
            }
            let top = cell.top(5);
            assert!(top.windows(2).all(|w| w[0].logp >= w[1].logp));
            for r in &top {
                assert!((r.logp - mean(&r.text)).abs() < 1e-4);
            }
            let g = cell.greedy();
            assert!((g.logp - mean(&g.text)).abs() < 1e-4);
            for lp in &views {
                let (labels, _) = ctc::greedy(lp);
                assert!(g.logp >= mean(&alphabet.decode(&labels)) - 1e-4, "the best of the views' best paths");
            }
        }
    }
}
