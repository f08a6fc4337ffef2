//! Helpers the command-line integration tests share: the binary, the tiny test model, a scratch
//! folder and synthetic sheets without their truth files.
#![allow(dead_code)] // each test file uses its own share of them

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `scoresheet` binary under test.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_scoresheet"))
}

/// The `scoresheet-dev` binary (synth, eval) under test.
pub fn dev_bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_scoresheet-dev"))
}

/// The tiny recognizer model of the tests (it reads nothing well: for checking batches).
pub fn tiny_model() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tiny_model/tiny.onnx")
}

/// An empty folder `name` under cargo's temporary folder for tests.
pub fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::remove_dir_all(&d).ok();
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `count` clean English HCS-form sheets of `seed` in `out`, images only (their truth files
/// removed, as a user's folder of scans holds none).
pub fn synth_images(out: &Path, seed: u64, count: usize) {
    let status = dev_bin()
        .args(["synth", "--form", "hcs", "--damage", "none", "--lang", "en", "--seed"])
        .arg(seed.to_string())
        .arg("--count")
        .arg(count.to_string())
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    for f in std::fs::read_dir(out).unwrap() {
        let p = f.unwrap().path();
        if p.extension().is_some_and(|e| e == "json") {
            std::fs::remove_file(p).unwrap();
        }
    }
}
