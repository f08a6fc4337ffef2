//! The binary away from its checkout (issue #27): an installed `scoresheet` reads with the models
//! built into it and the ONNX Runtime library it finds or fetches itself; `--model` and
//! `SCORESHEET_MODEL` choose another model; without the runtime library it says what to run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex, Weak};

fn checkout() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The built binary and one sample sheet (`024_0.jpg`) copied into a folder outside the checkout
/// (the test target folder lies inside it); the folder goes when the last test using it ends.
struct Install {
    dir: PathBuf,
    bin: PathBuf,
}

impl Drop for Install {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.dir).ok();
    }
}

/// The process's [`Install`], made once and shared while tests use it: a binary being copied
/// while another test thread starts a process can be left open for writing in that process, and
/// then fails to run ("text file busy"); no test starts a process while the copy is made.
fn installed() -> Arc<Install> {
    static SHARED: Mutex<Weak<Install>> = Mutex::new(Weak::new());
    let mut shared = SHARED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(install) = shared.upgrade() {
        return install;
    }
    let dir = std::env::temp_dir().join(format!("scoresheet-install-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    assert!(!dir.starts_with(checkout()), "the temporary folder {} is inside the checkout", dir.display());
    let bin = dir.join("scoresheet");
    std::fs::copy(env!("CARGO_BIN_EXE_scoresheet"), &bin).unwrap();
    std::fs::copy(checkout().join("samples/hcs/024_0.jpg"), dir.join("024_0.jpg")).unwrap();
    let install = Arc::new(Install { dir, bin });
    *shared = Arc::downgrade(&install);
    install
}

/// Whether this machine lets a process hide the checkout from itself (a private mount namespace).
fn can_hide_folders() -> bool {
    Command::new("unshare")
        .args(["--mount", "--user", "--map-root-user", "sh", "-c", r#"mount -t tmpfs none "$0""#])
        .arg(checkout())
        .output()
        .is_ok_and(|out| out.status.success())
}

/// Runs `bin args` in `dir`; where the machine allows, with an empty folder mounted over the
/// checkout for that process alone, so that a file read from the checkout fails.
fn run_without_checkout(bin: &Path, dir: &Path, args: &[&str]) -> (Output, bool) {
    let hidden = can_hide_folders();
    let mut command = if hidden {
        let mut c = Command::new("unshare");
        c.args(["--mount", "--user", "--map-root-user", "sh", "-c", r#"mount -t tmpfs none "$0" && exec "$@""#])
            .arg(checkout())
            .arg(bin);
        c
    } else {
        eprintln!("this machine cannot hide the checkout (no unshare); the binary runs beside it");
        Command::new(bin)
    };
    let out = command.args(args).current_dir(dir).env_remove("SCORESHEET_MODEL").output().unwrap();
    (out, hidden)
}

/// The movetext of a PGN without its comments, on one line.
fn moves_of(pgn: &str) -> String {
    let mut out = String::new();
    let mut in_comment = false;
    for c in pgn.chars() {
        match c {
            '{' => in_comment = true,
            '}' => in_comment = false,
            _ if !in_comment => out.push(if c == '\n' { ' ' } else { c }),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_copied_binary_reads_a_sample_without_the_checkout() {
    let install = installed();
    let (bin, dir) = (&install.bin, &install.dir);
    let (out, hidden) = run_without_checkout(bin, dir, &["read", "024_0.jpg"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "exit {:?}\n{stderr}", out.status.code());
    // The game opens 1. e4 d6 2. Nf3 Nf6 (samples/hcs/024.truth.pgn); flagged moves carry comments.
    assert!(moves_of(&stdout).contains("1. e4 d6 2. Nf3"), "no game read:\n{stdout}\n{stderr}");
    assert!(stdout.contains("[Source \"024_0.jpg\"]"), "{stdout}");
    if hidden {
        // The checkout really was out of reach: the same run asked to read a checkout file fails.
        let sample = checkout().join("samples/hcs/024_0.jpg");
        let (out, _) = run_without_checkout(bin, dir, &["recognize", sample.to_str().unwrap()]);
        assert!(!out.status.success(), "the checkout was still visible");
    }
}

#[test]
fn the_model_is_chosen_by_flag_then_environment_then_built_in() {
    let install = installed();
    let (bin, dir) = (&install.bin, &install.dir);
    let cell = checkout().join("tests/data/cells/002_0_1_white.png");
    let recognize = |model_env: Option<&str>, model_flag: Option<&Path>| {
        let mut c = Command::new(bin);
        c.arg("recognize").arg(&cell).current_dir(dir).env_remove("SCORESHEET_MODEL");
        if let Some(m) = model_env {
            c.env("SCORESHEET_MODEL", m);
        }
        if let Some(m) = model_flag {
            c.arg("--model").arg(m);
        }
        c.output().unwrap()
    };
    let built_in = recognize(None, None);
    assert!(built_in.status.success(), "{}", text(&built_in.stderr));
    assert!(text(&built_in.stdout).contains("1. d4"), "{}", text(&built_in.stdout));

    let missing = "/nonexistent/scoresheet-model.onnx";
    let from_env = recognize(Some(missing), None);
    assert!(!from_env.status.success());
    assert!(text(&from_env.stderr).contains("/nonexistent/"), "{}", text(&from_env.stderr));

    // --model wins over the variable: the checkout's copy of the shipped model reads the same.
    let from_flag = recognize(Some(missing), Some(&checkout().join("models/recognizer.int8.onnx")));
    assert!(from_flag.status.success(), "{}", text(&from_flag.stderr));
    assert_eq!(text(&from_flag.stdout), text(&built_in.stdout));
}

#[test]
fn without_the_runtime_library_the_message_says_what_to_run() {
    let install = installed();
    let bin = &install.bin;
    let dir = install.dir.join("no-runtime");
    let cell = checkout().join("tests/data/cells/002_0_1_white.png");
    // An empty cache and no Python on the PATH: nothing to find, nothing to fetch with.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = Command::new(bin)
        .arg("recognize")
        .arg(&cell)
        .env_remove("ORT_DYLIB_PATH")
        .env("SCORESHEET_CACHE", dir.join("cache"))
        .env("PATH", &empty)
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("python3 -m pip install onnxruntime==1.31.1"), "{stderr}");
    assert!(stderr.contains("ORT_DYLIB_PATH"), "{stderr}");
    assert!(stderr.contains("no python3"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    // ORT_DYLIB_PATH wins, and a wrong one is named.
    let out =
        Command::new(bin).arg("recognize").arg(&cell).env("ORT_DYLIB_PATH", "/nonexistent/libort.so").output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("ORT_DYLIB_PATH is /nonexistent/libort.so but there is no such file"), "{stderr}");
}

/// The issue's own check, slow (a release build): install from a clone with `cargo install`,
/// move the clone away, and read a sample from another folder. Run with
/// `cargo test --test install -- --ignored`.
#[test]
#[ignore]
fn cargo_install_from_a_clone_reads_with_the_clone_moved() {
    // Held from the start: the shared copy is made before this test starts a process.
    let install = installed();
    let dir = install.dir.join("cargo-install");
    let clone = dir.join("clone");
    let status = Command::new("git").arg("clone").arg("--quiet").arg(checkout()).arg(&clone).status().unwrap();
    assert!(status.success(), "git clone failed");
    let root = dir.join("root");
    let status = Command::new(env!("CARGO"))
        .args(["install", "--quiet", "--path"])
        .arg(&clone)
        .arg("--root")
        .arg(&root)
        .status()
        .unwrap();
    assert!(status.success(), "cargo install failed");
    std::fs::rename(&clone, dir.join("clone-moved")).unwrap();
    std::fs::copy(checkout().join("samples/hcs/024_0.jpg"), dir.join("024_0.jpg")).unwrap();
    let out = Command::new(root.join("bin/scoresheet"))
        .args(["read", "024_0.jpg"])
        .current_dir(&dir)
        .env_remove("SCORESHEET_MODEL")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(moves_of(&text(&out.stdout)).contains("1. e4 d6 2. Nf3"), "{}", text(&out.stdout));
}
