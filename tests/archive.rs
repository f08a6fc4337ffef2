//! `scoresheet read` over archives: a batch resumed from its journal (after a kill, or with a
//! torn last line) and a batch read in shares and merged give the outputs of one uninterrupted
//! run. The recognizer is the tiny test model: these tests check the batch, not the reading.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{bin, scratch, synth_images, tiny_model};

/// `count` synthetic sheets (images only) and one file that is not an image, in `dir/sheets`.
fn sheets(dir: &Path, count: usize) -> PathBuf {
    let sheets = dir.join("sheets");
    synth_images(&sheets, 21, count);
    std::fs::write(sheets.join("notes.jpg"), b"pairings, not a picture").unwrap();
    sheets
}

/// `read` with the tiny model over `inputs`, writing `name.pgn` and `name.json` into `dir`.
fn read(dir: &Path, inputs: &Path, name: &str, extra: &[&str]) -> Output {
    bin()
        .arg("read")
        .arg("--model")
        .arg(tiny_model())
        .arg(inputs)
        .arg("-o")
        .arg(dir.join(format!("{name}.pgn")))
        .arg("--json")
        .arg(dir.join(format!("{name}.json")))
        .args(extra)
        .output()
        .unwrap()
}

fn same_outputs(dir: &Path, a: &str, b: &str) {
    for ext in ["pgn", "json"] {
        let left = std::fs::read(dir.join(format!("{a}.{ext}"))).unwrap();
        let right = std::fs::read(dir.join(format!("{b}.{ext}"))).unwrap();
        assert!(left == right, "{a}.{ext} and {b}.{ext} differ");
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_batch_resumed_from_a_torn_journal_reads_only_the_rest_and_writes_the_same_outputs() {
    let dir = scratch("archive-resume");
    let inputs = sheets(&dir, 4);
    let whole = read(&dir, &inputs, "whole", &[]);
    assert_eq!(whole.status.code(), Some(2), "{}", stderr(&whole));

    let journal = dir.join("journal.jsonl");
    let first = read(&dir, &inputs, "first", &["--journal", journal.to_str().unwrap()]);
    assert_eq!(first.status.code(), Some(2), "{}", stderr(&first));
    same_outputs(&dir, "whole", "first");

    // A kill while writing the third game's line: the listing, two games, half a line, and no
    // outputs yet.
    let text = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let games: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].contains("\"kind\":\"game\"")).collect();
    assert_eq!(games.len(), 5, "four sheets and the bad file");
    let third = lines[games[2]];
    let mut torn: String = lines[..games[2]].iter().map(|l| format!("{l}\n")).collect();
    torn.push_str(&third[..third.len() / 2]);
    std::fs::write(&journal, torn).unwrap();
    std::fs::remove_file(dir.join("first.pgn")).unwrap();
    std::fs::remove_file(dir.join("first.json")).unwrap();

    let resumed = read(&dir, &inputs, "first", &["--journal", journal.to_str().unwrap()]);
    let err = stderr(&resumed);
    assert_eq!(resumed.status.code(), Some(2), "{err}");
    assert!(err.contains("unfinished last line"), "{err}");
    assert!(err.contains("(2 games taken from the journal)"), "{err}");
    same_outputs(&dir, "whole", "first");

    // Everything done: nothing is read again, and the run's own outputs are replaced without
    // --force; a file the journal did not write is not.
    let again = read(&dir, &inputs, "first", &["--journal", journal.to_str().unwrap()]);
    assert!(stderr(&again).contains("(5 games taken from the journal)"), "{}", stderr(&again));
    same_outputs(&dir, "whole", "first");
    std::fs::write(dir.join("mine.pgn"), "my games").unwrap();
    let refused = read(&dir, &inputs, "mine", &["--journal", journal.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(stderr(&refused).contains("mine.pgn: already exists (use --force"), "{}", stderr(&refused));
    assert_eq!(std::fs::read_to_string(dir.join("mine.pgn")).unwrap(), "my games");
}

#[test]
fn a_batch_killed_mid_way_and_resumed_writes_the_same_outputs() {
    let dir = scratch("archive-kill");
    let inputs = sheets(&dir, 3);
    let whole = read(&dir, &inputs, "whole", &["--jobs", "1"]);
    assert_eq!(whole.status.code(), Some(2), "{}", stderr(&whole));

    let journal = dir.join("journal.jsonl");
    let mut child = bin()
        .arg("read")
        .arg("--model")
        .arg(tiny_model())
        .arg(&inputs)
        .arg("-o")
        .arg(dir.join("resumed.pgn"))
        .arg("--json")
        .arg(dir.join("resumed.json"))
        .args(["--jobs", "1", "--journal"])
        .arg(&journal)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // SIGKILL once the first game is in the journal (or at the end, if it finishes first).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while std::time::Instant::now() < deadline {
        let games = std::fs::read_to_string(&journal).unwrap_or_default().matches("\"kind\":\"game\"").count();
        if games >= 1 || child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().ok();
    child.wait().unwrap();
    for ext in ["pgn", "json"] {
        let out = dir.join(format!("resumed.{ext}"));
        assert!(
            !out.exists() || std::fs::read(&out).unwrap() == std::fs::read(dir.join(format!("whole.{ext}"))).unwrap()
        );
    }
    let resumed = read(&dir, &inputs, "resumed", &["--jobs", "1", "--journal", journal.to_str().unwrap()]);
    assert_eq!(resumed.status.code(), Some(2), "{}", stderr(&resumed));
    same_outputs(&dir, "whole", "resumed");
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut ids: Vec<&str> = text.lines().filter(|l| l.contains("\"kind\":\"game\"")).collect();
    let all = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!((all, ids.len()), (4, 4), "each game in the journal once");
}

#[test]
fn three_shares_merged_equal_the_whole_batch() {
    let dir = scratch("archive-shards");
    let inputs = sheets(&dir, 4);
    let whole = read(&dir, &inputs, "whole", &[]);
    assert_eq!(whole.status.code(), Some(2), "{}", stderr(&whole));
    let mut journals = Vec::new();
    let mut shared = 0;
    for k in 1..=3 {
        let journal = dir.join(format!("share-{k}.jsonl"));
        let share = format!("{k}/3");
        let out =
            read(&dir, &inputs, &format!("share-{k}"), &["--shard", &share, "--journal", journal.to_str().unwrap()]);
        assert!(out.status.code().is_some_and(|c| c == 0 || c == 2), "{}", stderr(&out));
        shared += std::fs::read_to_string(&journal).unwrap().matches("\"kind\":\"game\"").count();
        journals.push(journal);
    }
    assert_eq!(shared, 5, "every game in exactly one share");

    let merge = |journals: &[PathBuf], name: &str| {
        bin()
            .arg("merge")
            .args(journals)
            .arg("-o")
            .arg(dir.join(format!("{name}.pgn")))
            .arg("--json")
            .arg(dir.join(format!("{name}.json")))
            .output()
            .unwrap()
    };
    let merged = merge(&[journals[2].clone(), journals[0].clone(), journals[1].clone()], "merged");
    assert_eq!(merged.status.code(), Some(2), "{}", stderr(&merged));
    same_outputs(&dir, "whole", "merged");

    let partial = merge(&journals[..2], "partial");
    let err = stderr(&partial);
    assert_eq!(partial.status.code(), Some(1), "{err}");
    assert!(err.contains("in none of the journals"), "{err}");
    assert!(!dir.join("partial.pgn").exists());
}
