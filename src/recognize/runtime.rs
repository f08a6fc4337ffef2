//! Finding the ONNX Runtime shared library, fetching it once if the machine has none.
//!
//! `ort` loads the library at run time (its `load-dynamic` feature). The library is looked up in
//! this order:
//!
//! 1. `ORT_DYLIB_PATH`, if set (it must name an existing file);
//! 2. the cache: `$SCORESHEET_CACHE`, else `$XDG_CACHE_HOME/scoresheet`, else
//!    `~/.cache/scoresheet`, then `onnxruntime-1.31.1/libonnxruntime.so.1.31.1`;
//! 3. the `onnxruntime` 1.31.1 Python package, if `python3` has it installed;
//! 4. else it is fetched into the cache: `python3 -m pip download` of the `onnxruntime==1.31.1`
//!    wheel from PyPI, and the library alone taken out of it, with one line on stderr saying so.
//!
//! The cache comes before the Python package because it is a plain file check, where asking
//! Python costs a process start on every run. Test runs start many processes at once: the fetch
//! holds a lock file, and the library appears in the cache by a rename, whole or not at all.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::RecognizeError;

/// The ONNX Runtime version the recognizer runs on (the version `ort` is built against).
pub const ORT_VERSION: &str = "1.31.1";

/// The library's file name inside the wheel's `onnxruntime/capi/` folder, and in the cache.
#[cfg(target_os = "macos")]
pub const LIBRARY_FILE: &str = "libonnxruntime.1.31.1.dylib";
#[cfg(windows)]
pub const LIBRARY_FILE: &str = "onnxruntime.dll";
/// The ONNX Runtime library's file name on this platform.
#[cfg(not(any(target_os = "macos", windows)))]
pub const LIBRARY_FILE: &str = "libonnxruntime.so.1.31.1";

/// What a user can do when the library is missing.
pub const INSTALL_HINT: &str = "run `python3 -m pip install onnxruntime==1.31.1`, or set ORT_DYLIB_PATH to a \
                                libonnxruntime.so.1.31.1";

/// Pythons to ask, in order.
const PYTHONS: [&str; 2] = ["python3", "python"];

/// Where the ONNX Runtime shared library is; fetches it into the cache if nothing else has it.
pub fn find_runtime_library() -> Result<PathBuf, RecognizeError> {
    if let Some(path) = std::env::var_os("ORT_DYLIB_PATH").filter(|p| !p.is_empty()) {
        let path = PathBuf::from(path);
        if path.is_file() {
            return Ok(path);
        }
        return Err(RecognizeError::Runtime(format!(
            "ORT_DYLIB_PATH is {} but there is no such file; unset it, or {INSTALL_HINT}",
            path.display()
        )));
    }
    let cached = cache_dir().map(|dir| dir.join(format!("onnxruntime-{ORT_VERSION}")));
    if let Some(lib) = cached.as_ref().map(|dir| dir.join(LIBRARY_FILE)).filter(|lib| lib.is_file()) {
        return Ok(lib);
    }
    if let Some(lib) = python_package_library() {
        return Ok(lib);
    }
    let Some(dir) = cached else {
        return Err(RecognizeError::Runtime(format!(
            "cannot find the ONNX Runtime library, and there is no cache folder to fetch it into (HOME is \
             not set); set SCORESHEET_CACHE to a folder, or {INSTALL_HINT}"
        )));
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        return Err(RecognizeError::Runtime(format!(
            "cannot find the ONNX Runtime library, and cannot create the cache folder to fetch it into: {}: {e}; \
             set SCORESHEET_CACHE to a folder that can be written, or {INSTALL_HINT}",
            dir.display()
        )));
    }
    fetch_into(&dir).map_err(|why| {
        RecognizeError::Runtime(format!(
            "cannot find the ONNX Runtime library, and fetching it failed: {why}. Run the command again \
             where PyPI is reachable (the library is fetched once, into {}), or {INSTALL_HINT}",
            dir.display()
        ))
    })
}

/// The folder scoresheet caches downloads in: `$SCORESHEET_CACHE`, else
/// `$XDG_CACHE_HOME/scoresheet`, else `~/.cache/scoresheet`; `None` without a home folder.
pub fn cache_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = var("SCORESHEET_CACHE") {
        return Some(dir);
    }
    // The XDG rules ignore a relative XDG_CACHE_HOME.
    if let Some(dir) = var("XDG_CACHE_HOME").filter(|d| d.is_absolute()) {
        return Some(dir.join("scoresheet"));
    }
    let home = var("HOME").or_else(|| var("USERPROFILE"))?;
    Some(home.join(".cache").join("scoresheet"))
}

/// The library of an installed `onnxruntime` Python package of the pinned version.
fn python_package_library() -> Option<PathBuf> {
    PYTHONS.iter().find_map(|python| {
        let out = Command::new(python)
            // find_spec locates the package without importing it (importing costs ~0.3 s).
            .args(["-c", "import importlib.util as u; print(u.find_spec('onnxruntime').submodule_search_locations[0])"])
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()
            .filter(|out| out.status.success())?;
        let lib = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("capi").join(LIBRARY_FILE);
        lib.is_file().then_some(lib)
    })
}

/// Why the library could not be fetched: the step that failed and its cause.
#[derive(Debug)]
struct FetchFailure(String);

impl std::fmt::Display for FetchFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Fetches the library into `dir` (the versioned cache folder, which exists) unless another
/// process did while this one waited for the lock. Returns the library's path, or why it could
/// not be fetched.
fn fetch_into(dir: &Path) -> Result<PathBuf, FetchFailure> {
    let lock_path = dir.join(".fetch.lock");
    let lock = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| FetchFailure(format!("cannot create {}: {e}", lock_path.display())))?;
    // A file system without locks only costs duplicate downloads: the rename below still puts
    // one whole library in place.
    lock.lock().ok();
    let target = dir.join(LIBRARY_FILE);
    if target.is_file() {
        return Ok(target);
    }
    eprintln!(
        "scoresheet: fetching the ONNX Runtime library once: the onnxruntime=={ORT_VERSION} wheel from PyPI \
         (about 24 MB), its {LIBRARY_FILE} kept in {}",
        dir.display()
    );
    let work = dir.join(format!(".fetch-{}", std::process::id()));
    let result = download_and_extract(&work).and_then(|lib| {
        std::fs::rename(&lib, &target)
            .map_err(|e| FetchFailure(format!("cannot move the library to {}: {e}", target.display())))
    });
    std::fs::remove_dir_all(&work).ok();
    result.map(|()| target)
}

/// Downloads the wheel into `work` and extracts the library there; returns its path.
fn download_and_extract(work: &Path) -> Result<PathBuf, FetchFailure> {
    std::fs::remove_dir_all(work).ok();
    std::fs::create_dir_all(work).map_err(|e| FetchFailure(format!("cannot create {}: {e}", work.display())))?;
    let python = PYTHONS
        .iter()
        .copied()
        .find(|p| Command::new(p).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok())
        .ok_or_else(|| FetchFailure("Python 3 with pip fetches it, and there is no python3 on the PATH".into()))?;
    let requirement = format!("onnxruntime=={ORT_VERSION}");
    // The library inside does not depend on the Python version: one wheel version is asked for
    // whatever Python runs pip, so that a Python without a wheel of its own still works. The
    // platform is this machine's.
    let out = Command::new(python)
        .args(["-m", "pip", "download", &requirement, "--no-deps", "--only-binary=:all:", "--python-version", "3.12"])
        .args(["--disable-pip-version-check", "--quiet", "--dest"])
        .arg(work)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| FetchFailure(format!("cannot run {python} -m pip: {e}")))?;
    if !out.status.success() {
        let command = format!("`{python} -m pip download {requirement}`");
        // pip says the same whether PyPI cannot be reached or has no wheel for this platform.
        if String::from_utf8_lossy(&out.stderr).contains("No matching distribution") {
            return Err(FetchFailure(format!(
                "{command} found no wheel (PyPI cannot be reached, or has no wheel for this platform)"
            )));
        }
        return Err(FetchFailure(format!("{command} failed: {}", last_error(&out.stderr))));
    }
    let wheel = std::fs::read_dir(work)
        .map_err(|e| FetchFailure(format!("cannot list {}: {e}", work.display())))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .ok_or_else(|| FetchFailure(format!("pip download left no wheel in {}", work.display())))?;
    let member = format!("onnxruntime/capi/{LIBRARY_FILE}");
    let lib = work.join(LIBRARY_FILE);
    const EXTRACT: &str = "import os, shutil, sys, zipfile\n\
                           wheel, member, out = sys.argv[1:]\n\
                           with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(out, 'wb') as dst:\n    \
                           shutil.copyfileobj(src, dst)\n    \
                           dst.flush()\n    \
                           os.fsync(dst.fileno())\n";
    let out = Command::new(python)
        .args(["-c", EXTRACT])
        .arg(&wheel)
        .arg(&member)
        .arg(&lib)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| FetchFailure(format!("cannot run {python}: {e}")))?;
    if !out.status.success() || !lib.is_file() {
        return Err(FetchFailure(format!(
            "cannot take {member} out of {}: {}",
            wheel.display(),
            last_error(&out.stderr)
        )));
    }
    Ok(lib)
}

/// The last non-empty line of a tool's error output (pip and Python end with the cause).
fn last_error(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    text.lines().map(str::trim).rfind(|l| !l.is_empty()).unwrap_or("no error output").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_name_carries_the_pinned_version() {
        #[cfg(not(windows))]
        assert!(LIBRARY_FILE.contains(ORT_VERSION), "{LIBRARY_FILE}");
        assert!(INSTALL_HINT.contains(&format!("onnxruntime=={ORT_VERSION}")));
    }

    #[test]
    fn the_last_error_line_is_the_cause() {
        let stderr = b"WARNING: retrying\nERROR: No matching distribution found for onnxruntime==1.31.1\n\n";
        assert_eq!(last_error(stderr), "ERROR: No matching distribution found for onnxruntime==1.31.1");
        assert_eq!(last_error(b""), "no error output");
    }
}
