//! `scoresheet read` as an organizer runs it: a folder of sheets with broken files among them.
//! The recognizer here is the tiny test model (it reads nothing well): these tests check the
//! batch itself (inputs, errors, outputs, exit codes, corrections), not reading accuracy, which
//! `scoresheet-dev eval` measures with the shipped model.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{bin, dev_bin, scratch, synth_images, tiny_model};

/// `scoresheet read --model TINY`, inputs and options to follow.
fn read_with_tiny_model() -> Command {
    let mut c = bin();
    c.arg("read").arg("--model").arg(tiny_model());
    c
}

/// Three synthetic sheets and five broken files.
fn batch_dir(name: &str) -> PathBuf {
    let dir = scratch(name);
    let sheets = dir.join("sheets");
    synth_images(&sheets, 5, 3);
    std::fs::write(sheets.join("empty.png"), b"").unwrap();
    std::fs::write(sheets.join("notes.jpg"), b"pairings for R3, not a picture").unwrap();
    let png = std::fs::read(sheets.join("sheet-00000.png")).unwrap();
    std::fs::write(sheets.join("truncated.png"), &png[..png.len() / 3]).unwrap();
    let mut huge = png.clone();
    huge[16..20].copy_from_slice(&90_000u32.to_be_bytes());
    huge[20..24].copy_from_slice(&90_000u32.to_be_bytes());
    std::fs::write(sheets.join("huge.png"), huge).unwrap();
    image::RgbImage::from_pixel(800, 600, image::Rgb([90, 140, 200])).save(sheets.join("sky.png")).unwrap();
    dir
}

#[test]
fn a_folder_with_broken_files_gives_every_game_and_a_clear_error_per_bad_file() {
    let dir = batch_dir("read-batch");
    let (pgn, json, review) = (dir.join("games.pgn"), dir.join("report.json"), dir.join("review"));
    let out = read_with_tiny_model()
        .arg(dir.join("sheets"))
        .arg("-o")
        .arg(&pgn)
        .arg("--json")
        .arg(&json)
        .arg("--review")
        .arg(&review)
        .args(["--event", "Club Open", "--round", "3"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "some files failed: exit code 2\n{stderr}");
    for bad in ["empty.png", "notes.jpg", "truncated.png", "huge.png", "sky.png"] {
        assert!(stderr.lines().any(|l| l.contains(bad)), "{bad} not reported:\n{stderr}");
    }
    assert!(stderr.contains("3 games"), "{stderr}");
    assert!(stderr.contains("5 files failed"), "{stderr}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event \"Club Open\"]").count(), 3, "{text}");
    assert_eq!(text.matches("[Round \"3\"]").count(), 3);
    assert!(text.contains("[Source \""));
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["games"].as_array().unwrap().len(), 3);
    assert_eq!(report["errors"].as_array().unwrap().len(), 5);
    let html = std::fs::read_to_string(review.join("review.html")).unwrap();
    assert!(html.contains("Files not read") && html.contains("sky.png"));

    // Nothing is overwritten without --force.
    let again = read_with_tiny_model().arg(dir.join("sheets")).arg("-o").arg(&pgn).output().unwrap();
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists (use --force"));
}

#[test]
fn a_correction_pins_a_move_and_copies_make_one_game() {
    let dir = batch_dir("read-fix");
    let sheets = dir.join("sheets");
    let good: Vec<PathBuf> = ["sheet-00000.png", "sheet-00001.png"].iter().map(|f| sheets.join(f)).collect();
    let out = read_with_tiny_model()
        .args(&good)
        .arg("--copies")
        .args(["--fix", "sheet-00000:1w=Nc3", "--fix", "sheet-00000:1b=e5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let pgn = String::from_utf8(out.stdout).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 1, "two copies, one game");
    assert!(pgn.contains("1. Nc3 e5"), "{pgn}");
    assert!(pgn.contains("sheet-00000.png") && pgn.contains("sheet-00001.png"));
    let bad = read_with_tiny_model().args(&good).args(["--fix", "nonsense"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("bad --fix"));
}

/// A sheet saved as GIF, BMP or WebP reads into the game its PNG reads into.
#[test]
fn gif_bmp_and_webp_sheets_read_like_the_png() {
    let dir = scratch("read-formats");
    let out = dev_bin()
        .args(["synth", "--count", "1", "--seed", "8", "--form", "hcs", "--damage", "none", "--lang", "en", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // (grey levels only: the GIF palette holds them all, so every format keeps the pixels)
    let img = image::DynamicImage::ImageLuma8(image::open(dir.join("sheet-00000.png")).unwrap().to_luma8());
    let png = dir.join("grey.png");
    img.save(&png).unwrap();
    let read = |file: &Path| {
        let out = read_with_tiny_model().arg(file).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout)
            .unwrap()
            .replace(&file.file_name().unwrap().to_string_lossy().to_string(), "SHEET")
    };
    let want = read(&png);
    assert!(want.contains("1."), "{want}");
    for ext in ["gif", "bmp", "webp"] {
        let file = dir.join(format!("grey.{ext}"));
        let rgb = image::DynamicImage::ImageRgb8(img.to_rgb8());
        match ext {
            "gif" => rgb.save(&file).unwrap(),
            _ => img.save(&file).unwrap(),
        }
        assert_eq!(read(&file), want, "{ext}");
    }
}
