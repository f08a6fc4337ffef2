//! Running the ONNX model with ONNX Runtime (`ort`, loaded dynamically).
//!
//! The runtime library is found through `ORT_DYLIB_PATH`, else in the `onnxruntime` Python
//! wheel (`pip install onnxruntime==1.31.1`), asked from `python3`. One ONNX Runtime environment
//! exists per process; it is created on first use and shared.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use ort::environment::Environment;
use ort::session::Session;
use ort::session::builder::GraphOptimizationLevel;
use ort::value::Tensor;

use super::ctc::LogProbs;
use super::preprocess::CellTensor;

const INSTALL_HINT: &str = "install the ONNX Runtime library with `pip install onnxruntime==1.31.1`, or set ORT_DYLIB_PATH to libonnxruntime.so";

/// Where the ONNX Runtime shared library is.
pub fn find_runtime_library() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("ORT_DYLIB_PATH") {
        let path = PathBuf::from(path);
        if path.is_file() {
            return Ok(path);
        }
        return Err(format!("ORT_DYLIB_PATH is {} but there is no such file; {INSTALL_HINT}", path.display()));
    }
    for python in ["python3", "python"] {
        let Ok(out) = Command::new(python)
            // find_spec locates the package without importing it (importing costs ~0.3 s).
            .args(["-c", "import importlib.util as u; print(u.find_spec('onnxruntime').submodule_search_locations[0])"])
            .output()
        else {
            continue;
        };
        if !out.status.success() {
            continue;
        }
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("capi");
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut libs: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                    n.starts_with("libonnxruntime.so") || n.starts_with("libonnxruntime.") && n.ends_with(".dylib")
                })
            })
            .collect();
        // Prefer the fully versioned name (libonnxruntime.so.1.31.1).
        libs.sort_by_key(|p| std::cmp::Reverse(p.as_os_str().len()));
        if let Some(lib) = libs.into_iter().next() {
            return Ok(lib);
        }
    }
    Err(format!("cannot find the ONNX Runtime library; {INSTALL_HINT}"))
}

static ENVIRONMENT: OnceLock<Result<Environment, String>> = OnceLock::new();

/// The process's ONNX Runtime environment, created on first use.
pub fn environment() -> Result<&'static Environment, String> {
    ENVIRONMENT
        .get_or_init(|| {
            let lib = find_runtime_library()?;
            let builder = ort::init_from(&lib)
                .map_err(|e| format!("cannot load ONNX Runtime from {}: {e}; {INSTALL_HINT}", lib.display()))?;
            builder.with_name("scoresheet").build().map_err(|e| format!("cannot start ONNX Runtime: {e}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// An ONNX recognition model: input `image` `[N, 1, H, W]` (preprocessed cells), output
/// `[N, W / stride, classes]` per-frame log-probabilities (log-softmax applied in the model).
pub struct OnnxModel {
    session: Session,
    path: PathBuf,
}

impl OnnxModel {
    /// Loads a model file; `threads` is ONNX Runtime's intra-op thread count (1 = one core).
    pub fn load(path: &Path, threads: usize) -> Result<OnnxModel, String> {
        let name = path.display();
        if !path.is_file() {
            return Err(format!("{name}: no such model file"));
        }
        let env = environment()?;
        let session = Session::builder(env)
            .and_then(|b| b.with_optimization_level(GraphOptimizationLevel::Level3).map_err(Into::into))
            .and_then(|b| b.with_intra_threads(threads.max(1)).map_err(Into::into))
            .and_then(|b| b.with_inter_threads(1).map_err(Into::into))
            // No memory arena: every worker thread holds its own sessions (two models since
            // session 11), and the arenas' reserve cost more memory than the allocations time.
            .and_then(|b| {
                b.with_execution_providers([ort::ep::CPU::default().with_arena_allocator(false).build()])
                    .map_err(Into::into)
            })
            .and_then(|mut b| b.commit_from_file(path))
            .map_err(|e| format!("{name}: cannot load the model: {e}"))?;
        if session.inputs().len() != 1 || session.outputs().is_empty() {
            return Err(format!("{name}: expected one input (image) and a log-probability output"));
        }
        Ok(OnnxModel { session, path: path.to_path_buf() })
    }

    /// The model file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs cells that all have the same height and padded width as one batch. Returns each
    /// cell's log-probabilities, cut to the frames its content covers.
    pub fn run_batch(&mut self, cells: &[&CellTensor], classes: usize) -> Result<Vec<LogProbs>, String> {
        let Some(first) = cells.first() else { return Ok(Vec::new()) };
        let (h, w) = (first.height, first.width);
        if cells.iter().any(|c| c.height != h || c.width != w) {
            return Err("run_batch: cells of different sizes".into());
        }
        let n = cells.len();
        let mut data = Vec::with_capacity(n * h * w);
        for c in cells {
            data.extend_from_slice(&c.data);
        }
        let name = self.path.display().to_string();
        let input =
            Tensor::from_array(([n, 1, h, w], data)).map_err(|e| format!("{name}: cannot build the input: {e}"))?;
        let outputs = self.session.run(ort::inputs![input]).map_err(|e| format!("{name}: inference failed: {e}"))?;
        let (shape, values) =
            outputs[0].try_extract_tensor::<f32>().map_err(|e| format!("{name}: unexpected output: {e}"))?;
        let dims: Vec<i64> = shape.iter().copied().collect();
        if dims.len() != 3 || dims[0] as usize != n || dims[2] as usize != classes {
            return Err(format!("{name}: output shape {dims:?}, expected [{n}, frames, {classes}]"));
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
