//! Running the ONNX models with ONNX Runtime (`ort`, loaded dynamically).
//!
//! The runtime library is found, or fetched once, by [`super::runtime`]. One ONNX Runtime
//! environment exists per process; it is created on first use and shared.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ort::environment::Environment;
// `ort`'s module path; the type is aliased to what it does here: runs one loaded model.
use ort::session::{Session as Runner, builder::GraphOptimizationLevel, builder::SessionBuilder as RunnerBuilder};
use ort::value::Tensor;

use super::RecognizeError;
use super::ctc::LogProbs;
use super::preprocess::CellTensor;
use super::runtime::{INSTALL_HINT, find_runtime_library};

static ENVIRONMENT: OnceLock<Result<Environment, RecognizeError>> = OnceLock::new();

/// The process's ONNX Runtime environment, created on first use.
pub fn environment() -> Result<&'static Environment, RecognizeError> {
    ENVIRONMENT
        .get_or_init(|| {
            let lib = find_runtime_library()?;
            let builder = ort::init_from(&lib).map_err(|e| {
                RecognizeError::Runtime(format!(
                    "cannot load ONNX Runtime from {}: {e}; if that file is damaged, delete it (a cached copy \
                         is fetched again), or {INSTALL_HINT}",
                    lib.display()
                ))
            })?;
            builder
                .with_name("scoresheet")
                .build()
                .map_err(|e| RecognizeError::Runtime(format!("cannot start ONNX Runtime: {e}")))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// An ONNX recognition model: input `image` `[N, 1, H, W]` (preprocessed cells), output
/// `[N, W / stride, classes]` per-frame log-probabilities (log-softmax applied in the model).
pub struct OnnxModel {
    runner: Runner,
    path: PathBuf,
}

impl OnnxModel {
    /// Loads a model file; `threads` is ONNX Runtime's intra-op thread count (1 = one core).
    pub fn load(path: &Path, threads: usize) -> Result<OnnxModel, RecognizeError> {
        if !path.is_file() {
            return Err(RecognizeError::File { path: path.to_path_buf(), reason: "no such model file".into() });
        }
        OnnxModel::build(path, threads, |builder| builder.commit_from_file(path))
    }

    /// Loads a model from its bytes (a model built into the binary); `name` stands for its file
    /// in messages and in [`OnnxModel::path`].
    pub fn from_bytes(name: &Path, bytes: &[u8], threads: usize) -> Result<OnnxModel, RecognizeError> {
        OnnxModel::build(name, threads, |builder| builder.commit_from_memory(bytes))
    }

    /// Loads a model through `commit` (from a file or from bytes), with the options every model
    /// runs with.
    fn build(
        path: &Path,
        threads: usize,
        commit: impl FnOnce(&mut RunnerBuilder) -> ort::Result<Runner>,
    ) -> Result<OnnxModel, RecognizeError> {
        let failed = |reason: String| RecognizeError::Model { model: path.display().to_string(), reason };
        let env = environment()?;
        let runner = Runner::builder(env)
            .and_then(|b| b.with_optimization_level(GraphOptimizationLevel::Level3).map_err(Into::into))
            .and_then(|b| b.with_intra_threads(threads.max(1)).map_err(Into::into))
            .and_then(|b| b.with_inter_threads(1).map_err(Into::into))
            // No memory arena: every worker thread holds its own runners (two models each), and
            // the arenas' reserve costs more memory than the allocations cost time.
            .and_then(|b| {
                b.with_execution_providers([ort::ep::CPU::default().with_arena_allocator(false).build()])
                    .map_err(Into::into)
            })
            .and_then(|mut b| commit(&mut b))
            .map_err(|e| failed(format!("cannot load the model: {e}")))?;
        if runner.inputs().len() != 1 || runner.outputs().is_empty() {
            return Err(failed("expected one input (image) and a log-probability output".into()));
        }
        Ok(OnnxModel { runner, path: path.to_path_buf() })
    }

    /// The model file (for a model built into the binary, the name it stands under).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs cells that all have the same height and padded width as one batch. Returns each
    /// cell's log-probabilities, cut to the frames its content covers.
    pub fn run_batch(&mut self, cells: &[&CellTensor], classes: usize) -> Result<Vec<LogProbs>, RecognizeError> {
        let failed = |reason: String| RecognizeError::Model { model: self.path.display().to_string(), reason };
        let Some(first) = cells.first() else { return Ok(Vec::new()) };
        let (h, w) = (first.height, first.width);
        if cells.iter().any(|c| c.height != h || c.width != w) {
            return Err(failed("run_batch: cells of different sizes".into()));
        }
        let n = cells.len();
        let mut data = Vec::with_capacity(n * h * w);
        for c in cells {
            data.extend_from_slice(&c.data);
        }
        let input =
            Tensor::from_array(([n, 1, h, w], data)).map_err(|e| failed(format!("cannot build the input: {e}")))?;
        let outputs = self.runner.run(ort::inputs![input]).map_err(|e| failed(format!("inference failed: {e}")))?;
        let (shape, values) =
            outputs[0].try_extract_tensor::<f32>().map_err(|e| failed(format!("unexpected output: {e}")))?;
        let dims: Vec<i64> = shape.iter().copied().collect();
        if dims.len() != 3 || dims[0] as usize != n || dims[2] as usize != classes {
            return Err(failed(format!("output shape {dims:?}, expected [{n}, frames, {classes}]")));
        }
        let frames = dims[1] as usize;
        let per = frames * classes;
        let mut out = Vec::with_capacity(n);
        for (i, c) in cells.iter().enumerate() {
            let lp = LogProbs::new(frames, classes, values[i * per..(i + 1) * per].to_vec());
            // Frames past the content are padding; keep them only if the stride is unknown.
            let valid = (c.content_width * frames).div_ceil(w).max(1);
            out.push(lp.truncated(valid));
        }
        Ok(out)
    }
}
