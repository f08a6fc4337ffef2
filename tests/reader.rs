//! The library's front door, [`scoresheet::Reader`], reads as `scoresheet read` does.

use std::path::Path;
use std::process::Command;

use scoresheet::{Reader, ReaderOptions};

fn sample(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/hcs").join(name)
}

/// A PGN's move text: its lines after the tags.
fn movetext(pgn: &str) -> String {
    pgn.lines().filter(|l| !l.starts_with('[') && !l.trim().is_empty()).collect::<Vec<_>>().join("\n")
}

#[test]
fn a_game_from_both_copies_reads_as_the_command_line_reads_it() {
    let reader = Reader::new(ReaderOptions::default()).unwrap();
    let pages: Vec<_> = ["001_0.jpg", "001_1.jpg"].iter().map(|n| image::open(sample(n)).unwrap()).collect();
    let game = reader.read_game(&pages).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_scoresheet"))
        .arg("read")
        .arg(sample("001_0.jpg"))
        .arg(sample("001_1.jpg"))
        .arg("--copies")
        .env_remove("SCORESHEET_MODEL")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(movetext(&game.to_pgn()), movetext(&String::from_utf8_lossy(&out.stdout)));
}

#[test]
fn a_file_reads_as_its_image_and_bad_files_are_errors_naming_them() {
    let reader = Reader::new(ReaderOptions::default()).unwrap();
    let from_file = reader.read_file(&sample("024_0.jpg")).unwrap();
    let from_image = reader.read_sheet(&image::open(sample("024_0.jpg")).unwrap()).unwrap();
    assert_eq!(movetext(&from_file.to_pgn()), movetext(&from_image.to_pgn()));
    let e = reader.read_file(Path::new("/nonexistent/sheet.png")).unwrap_err().to_string();
    assert!(e.contains("/nonexistent/sheet.png") && e.contains("cannot open"), "{e}");
    let blank = image::DynamicImage::new_luma8(400, 300);
    let e = reader.read_sheet(&blank).unwrap_err().to_string();
    assert!(e.starts_with("page 1: no scoresheet move table found"), "{e}");
}
