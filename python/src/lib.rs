//! The `scoresheet` Python module's native part (`scoresheet._native`): sheets and games read
//! as the `read` command reads them, returned as JSON text that `scoresheet/__init__.py` turns
//! into dicts. The reading runs with the GIL released, so Python threads read in parallel.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use scoresheet::decode::Params;
use scoresheet::page::load::{load_pages, pages_from_bytes};
use scoresheet::read::{
    BatchOptions, GameRead, Lowering, PageCutter, ReadError, RecognizerPool, decode_reads, read_in_its_notation,
    read_pages,
};

/// One page given from Python: a file's path, or a file's bytes with a name for the report.
enum PageSource {
    Path(PathBuf),
    Bytes { name: PathBuf, bytes: Vec<u8> },
}

impl PageSource {
    fn name(&self) -> &Path {
        match self {
            PageSource::Path(p) => p,
            PageSource::Bytes { name, .. } => name,
        }
    }
}

/// A path (str or os.PathLike) or bytes; bytes are named `<bytes N>` (N from 1).
fn page_source(obj: &Bound<'_, PyAny>, position: usize) -> PyResult<PageSource> {
    if let Ok(bytes) = obj.downcast::<PyBytes>() {
        return Ok(PageSource::Bytes {
            name: PathBuf::from(format!("<bytes {}>", position + 1)),
            bytes: bytes.as_bytes().to_vec(),
        });
    }
    obj.extract::<PathBuf>()
        .map(PageSource::Path)
        .map_err(|_| PyValueError::new_err(format!("page {}: expected a path or bytes", position + 1)))
}

/// One recognizer pool per model file, kept for the life of the process.
fn pool_for(model: &Path) -> Result<Arc<RecognizerPool>, ReadError> {
    static POOLS: OnceLock<Mutex<HashMap<PathBuf, Arc<RecognizerPool>>>> = OnceLock::new();
    let pools = POOLS.get_or_init(|| Mutex::new(HashMap::new()));
    let mut pools = pools.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(pool) = pools.get(model) {
        return Ok(Arc::clone(pool));
    }
    let pool = Arc::new(RecognizerPool::new(model)?);
    pools.insert(model.to_path_buf(), Arc::clone(&pool));
    Ok(pool)
}

/// Reads one game from its pages and returns, as JSON text, `game`: the report's entry (`id`,
/// `files`, `language`, `moves` with confidences, flags and cells, ...; null when no page could
/// be read), `pgn`, `errors` (the pages that could not be read) and `report` (the entry as the
/// JSON report prints it).
fn read_pages_to_json(
    id: &str,
    pages: Vec<PageSource>,
    lang: Option<&str>,
    lower: &str,
    model: Option<PathBuf>,
    tags: Vec<(String, String)>,
) -> Result<String, ReadError> {
    let language = match lang {
        None | Some("auto") => None,
        Some(code) => Some(
            scoresheet::notation::lang(code)
                .ok_or_else(|| ReadError::Invalid(format!("unknown language \"{code}\"")))?,
        ),
    };
    let lowering: Lowering = lower.parse()?;
    let model = model.unwrap_or_else(scoresheet::recognize::default_model_path);
    let pool = pool_for(&model)?;
    let tags_of = move |_: &str, _: &[PathBuf]| tags.clone();
    let names: Vec<PathBuf> = pages.iter().map(|p| p.name().to_path_buf()).collect();
    // (a game in descriptive notation is read again with the first model at every view, as
    // `read` reads it: the pages are loaded for each reading)
    let read_with = |pool: &RecognizerPool, language| {
        let mut opts = BatchOptions::plain(&PageCutter, pool, language, Params::default());
        opts.lowering = lowering;
        opts.headers = &tags_of;
        let per_file: Vec<(&Path, Vec<_>)> = pages
            .iter()
            .zip(&names)
            .map(|(page, name)| {
                let loaded = match page {
                    PageSource::Path(path) => load_pages(path),
                    PageSource::Bytes { bytes, .. } => pages_from_bytes(bytes.clone()),
                };
                (name.as_path(), read_pages(name, loaded, &opts))
            })
            .collect();
        decode_reads(id, &names, per_file, &opts)
    };
    let read: GameRead =
        read_in_its_notation(&pool, language, read_with, |game| game.output.as_ref().map(|o| o.game.lang));
    let errors = json_text(&read.errors);
    Ok(match read.output {
        // The game's entry goes in as serde prints it (f32 numbers in their shortest form), and
        // again as the report prints it, for a batch's report assembled from games read apart.
        Some(game) => {
            let entry = game.to_json();
            let pretty = serde_json::to_string_pretty(&entry).map_err(|e| ReadError::Invalid(e.to_string()))?;
            format!(
                r#"{{"game":{},"pgn":{},"errors":{errors},"report":{}}}"#,
                json_text(&entry),
                json_text(&game.to_pgn()),
                json_text(&pretty)
            )
        }
        None => format!(r#"{{"game":null,"pgn":"","errors":{errors},"report":null}}"#),
    })
}

/// `value` as compact JSON text (the report's types always serialize; a failure becomes a JSON
/// string saying why rather than a panic).
fn json_text<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| serde_json::Value::String(e.to_string()).to_string())
}

/// The game's name when none is given: the first page's file stem (as `read` names a game).
fn default_id(pages: &[PageSource]) -> String {
    pages
        .first()
        .and_then(|p| p.name().file_stem())
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".into())
}

/// Reads a game written over `pages` (its sheets: the players' copies, continuation pages), each
/// a path or the bytes of an image or PDF. Returns the game as JSON text (see
/// [`read_pages_to_json`]).
#[pyfunction]
#[pyo3(signature = (pages, *, id=None, lang=None, lower="auto", model=None, tags=None))]
fn read_game_json(
    py: Python<'_>,
    pages: Vec<Bound<'_, PyAny>>,
    id: Option<String>,
    lang: Option<String>,
    lower: &str,
    model: Option<PathBuf>,
    tags: Option<Vec<(String, String)>>,
) -> PyResult<String> {
    if pages.is_empty() {
        return Err(PyValueError::new_err("no pages given"));
    }
    let sources = pages.iter().enumerate().map(|(i, p)| page_source(p, i)).collect::<PyResult<Vec<_>>>()?;
    let id = id.unwrap_or_else(|| default_id(&sources));
    let lower = lower.to_string();
    py.allow_threads(move || read_pages_to_json(&id, sources, lang.as_deref(), &lower, model, tags.unwrap_or_default()))
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(read_game_json, m)?)?;
    Ok(())
}
