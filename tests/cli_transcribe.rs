//! `scoresheet transcribe` as a user runs it.

use std::io::Write;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_scoresheet"))
}

fn seed(name: &str) -> String {
    format!("{}/tests/data/seed/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn prints_pgn_with_roster_language_and_draw_offer() {
    let out = bin().args(["transcribe", &seed("et.txt")]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let pgn = String::from_utf8(out.stdout).unwrap();
    for tag in ["Event", "Site", "Date", "Round", "White", "Black", "Result"] {
        assert!(pgn.contains(&format!("[{tag} ")), "{tag} missing:\n{pgn}");
    }
    assert!(pgn.contains("[Language \"et\"]"));
    assert!(pgn.contains("10. Qb3 Nxc3"));
    assert!(pgn.contains("17. a5 {draw offer (=)} *"), "{pgn}");
}

#[test]
fn reads_standard_input_and_a_fixed_language() {
    let mut child =
        bin().args(["transcribe", "-", "--lang", "fr"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all("1. e4 e5 2. Cf3 Cc6 3. Fb5 a6 4. O-O 1-0".as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let pgn = String::from_utf8(out.stdout).unwrap();
    assert!(pgn.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O 1-0"), "{pgn}");
    assert!(pgn.contains("[Language \"fr\"]"));
}

#[test]
fn unresolvable_move_is_an_error_naming_move_text_and_reason_unless_lenient() {
    let path = std::env::temp_dir().join(format!("scoresheet-bad-{}.txt", std::process::id()));
    std::fs::write(&path, "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nd4 4. Nxd4 Qh4 5. Qe2 Ke3 6. d3").unwrap();
    let out = bin().args(["transcribe"]).arg(&path).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("move 5... \"Ke3\": illegal here"), "{err}");
    assert!(err.contains(&path.display().to_string()), "{err}");
    let out = bin().args(["transcribe", "--lenient"]).arg(&path).output().unwrap();
    assert!(out.status.success());
    let pgn = String::from_utf8(out.stdout).unwrap();
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("5. Qe2 {scoresheet: stopped at move 5... \"Ke3\": illegal here} *"), "{pgn}");
    std::fs::remove_file(&path).ok();
}

#[test]
fn bad_files_and_arguments_are_clear_errors() {
    let out = bin().args(["transcribe", "/nonexistent/game.txt"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/game.txt: cannot read"));
    let out = bin().args(["transcribe", &seed("et.txt"), "--lang", "xx"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown language \"xx\""));
    let path = std::env::temp_dir().join(format!("scoresheet-bin-{}.txt", std::process::id()));
    std::fs::write(&path, [0xff, 0xfe, 0x00, 0x81]).unwrap();
    let out = bin().args(["transcribe"]).arg(&path).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not UTF-8"));
    std::fs::remove_file(&path).ok();
}
