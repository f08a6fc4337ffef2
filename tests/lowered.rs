//! Writers who put each move across the row's lower ruling: the shipped model reads the page in
//! windows moved down when the game found there fits the ink better, and says so in the report.

mod common;

use std::path::{Path, PathBuf};

use common::{bin, dev_bin, scratch};

/// One clean HCS-form sheet of seed 2, its writer writing low or not.
fn sheet(dir: &Path, low: bool) -> PathBuf {
    let mut c = dev_bin();
    c.args(["synth", "--count", "1", "--seed", "2", "--form", "hcs", "--damage", "none", "--lang", "en", "--out"])
        .arg(dir);
    if low {
        c.arg("--low-writing");
    }
    let out = c.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    dir.join("sheet-00000.png")
}

/// `eval` on the folder with `--lower how`: (half-moves right, half-moves in truth).
fn mra(dir: &Path, how: &str) -> (usize, usize) {
    let out = dev_bin().arg("eval").arg(dir).args(["--lower", how]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let line = text.lines().find(|l| l.starts_with("synthetic sheets")).expect("a summary line");
    let inner = &line[line.find('(').unwrap() + 1..line.find(" half-moves)").unwrap()];
    let (a, b) = inner.split_once(" of ").unwrap();
    (a.parse().unwrap(), b.parse().unwrap())
}

/// `read --json` on one sheet: the report's game.
fn report(image: &Path, dir: &Path, extra: &[&str]) -> serde_json::Value {
    let json = dir.join("report.json");
    let out = bin().arg("read").arg(image).arg("--json").arg(&json).arg("--force").args(extra).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let games = v.get("games").unwrap_or(&v);
    games.as_array().expect("a list of games")[0].clone()
}

#[test]
fn moves_written_across_the_lower_ruling_are_read_in_lowered_windows() {
    let dir = scratch("lowered-low");
    let image = sheet(&dir, true);
    let (auto_right, n) = mra(&dir, "auto");
    let (off_right, _) = mra(&dir, "off");
    // read in the cells' own windows, each window holds halves of two moves and the game is lost
    assert!(off_right * 2 < n, "own windows: {off_right} of {n}");
    assert!(auto_right * 100 >= 95 * n, "lowered windows: {auto_right} of {n}");
    let game = report(&image, &dir, &[]);
    let lowered = game["lowered"].as_array().expect("the report names the lowered sheet");
    assert_eq!(lowered.len(), 1);
    assert!([0.25, 0.5].contains(&lowered[0]["offset"].as_f64().unwrap()), "{lowered:?}");
    // the boxes are the windows read: below the cells' own
    let own = report(&image, &dir, &["--lower", "off"]);
    let top = |g: &serde_json::Value| g["moves"][4]["cells"][0]["box"][1].as_f64().unwrap();
    assert!(top(&game) > top(&own) + 5.0, "{} vs {}", top(&game), top(&own));
}

#[test]
fn a_writer_who_keeps_to_the_rows_is_read_in_the_cells_own_windows() {
    let dir = scratch("lowered-normal");
    let image = sheet(&dir, false);
    let (right, n) = mra(&dir, "auto");
    assert!(right * 100 >= 95 * n, "{right} of {n}");
    let game = report(&image, &dir, &[]);
    assert!(game.get("lowered").is_none(), "{:?}", game.get("lowered"));
}

#[test]
fn a_lowering_that_is_not_offered_is_refused_with_the_choices() {
    let out = bin().args(["read", "nowhere.png", "--lower", "0.3"]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("0.25") && err.contains("0.5") && err.contains("auto"), "{err}");
}
