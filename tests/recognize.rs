//! The recognizer through ONNX Runtime: a tiny model exported by the training code
//! (tests/data/tiny_model, untrained-quality, only shapes and consistency are checked), the shipped
//! model on a few real HCS cells, and the `recognize` command.

use std::path::{Path, PathBuf};
use std::process::Command;

use image::GrayImage;
use scoresheet::recognize::{Recognizer, ViewReaders, ctc, embedded_model_path, float_model_path, load_cell};

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(rel)
}

fn tiny() -> Recognizer {
    Recognizer::load(&data("tiny_model/tiny.onnx")).expect("tiny model loads")
}

fn cells() -> Vec<(PathBuf, String)> {
    let text = std::fs::read_to_string(data("cells/labels.tsv")).unwrap();
    text.lines().filter_map(|l| l.split_once('\t')).map(|(f, t)| (data("cells").join(f), t.to_string())).collect()
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_scoresheet"))
}

#[test]
fn tiny_model_scores_are_consistent() {
    let mut r = tiny();
    let images: Vec<GrayImage> = cells().iter().map(|(p, _)| load_cell(p).unwrap()).collect();
    let scores = r.recognize(&images).unwrap();
    assert_eq!(scores.len(), images.len());
    for s in &scores {
        let lp = s.logprobs();
        assert_eq!(lp.classes(), r.alphabet().num_classes());
        assert!(lp.frames() >= 8);
        for t in 0..lp.frames() {
            let sum: f32 = lp.row(t).iter().map(|v| v.exp()).sum();
            assert!((sum - 1.0).abs() < 1e-3, "frame {t} sums to {sum}");
        }
        let top = s.top(5);
        assert!(!top.is_empty());
        for w in top.windows(2) {
            assert!(w[0].logp >= w[1].logp);
        }
        let texts: Vec<&str> = top.iter().map(|t| t.text.as_str()).collect();
        let exact = s.score(&texts);
        for (t, e) in top.iter().zip(&exact) {
            assert!((t.logp - e).abs() < 1e-4, "{t:?} vs {e}");
        }
        let g = s.greedy();
        assert!(g.logp <= 0.0 && g.logp.is_finite());
        assert_eq!(s.log_prob("Nf3€"), f32::NEG_INFINITY);
        assert_eq!(s.log_prob("Кр:е5"), s.log_prob("Kp:e5"));
    }
}

#[test]
fn batching_does_not_change_results() {
    let mut r = tiny();
    let list = cells();
    let images: Vec<GrayImage> = list.iter().map(|(p, _)| load_cell(p).unwrap()).collect();
    // Two copies of every cell, shuffled into one call, against one call per cell.
    let mut doubled = images.clone();
    doubled.extend(images.iter().rev().cloned());
    let together = r.recognize(&doubled).unwrap();
    for (i, img) in images.iter().enumerate() {
        let alone = r.recognize(std::slice::from_ref(img)).unwrap();
        let a = alone[0].logprobs().as_slice();
        for other in [&together[i], &together[doubled.len() - 1 - i]] {
            let b = other.logprobs().as_slice();
            assert_eq!(a.len(), b.len());
            let worst = a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0f32, f32::max);
            assert!(worst < 1e-4, "cell {i}: differs by {worst}");
        }
    }
}

#[test]
fn many_candidates_score_like_one_at_a_time() {
    let mut r = tiny();
    let (path, _) = &cells()[0];
    let s = r.recognize_file(path).unwrap();
    let cands = ["e4", "e5", "exd5", "exd5+", "Nf3", "Nxf3", "Nbd2", "O-O", "0-0", "O-O-O", "Кр:е5", "d4"];
    let many = s.score(&cands);
    for (c, m) in cands.iter().zip(&many) {
        let labels = s.alphabet().encode(c).unwrap();
        assert_eq!(ctc::log_prob(s.logprobs(), &labels), *m, "{c}");
    }
    assert_eq!(many[7], many[8]);
}

#[test]
fn errors_name_the_file() {
    let e = Recognizer::load(Path::new("/nonexistent/model.onnx")).err().unwrap().to_string();
    assert!(e.contains("/nonexistent/"), "{e}");
    let e = Recognizer::load(&data("cells/labels.tsv")).err().unwrap().to_string();
    assert!(e.contains("alphabet.json") || e.contains("labels.tsv"), "{e}");
    let e = load_cell(&data("cells/labels.tsv")).unwrap_err().to_string();
    assert!(e.contains("labels.tsv"), "{e}");
    // A file that is not a model, beside a valid alphabet.
    let dir = std::env::temp_dir().join(format!("scoresheet-recognize-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["alphabet.json", "preprocess.json"] {
        std::fs::copy(data("tiny_model").join(f), dir.join(f)).unwrap();
    }
    std::fs::write(dir.join("bad.onnx"), b"not a model").unwrap();
    let e = Recognizer::load(&dir.join("bad.onnx")).err().unwrap().to_string();
    assert!(e.contains("bad.onnx"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shipped_model_reads_real_cells() {
    let mut r = Recognizer::load(&embedded_model_path()).unwrap();
    let list = cells();
    let images: Vec<GrayImage> = list.iter().map(|(p, _)| load_cell(p).unwrap()).collect();
    let scores = r.recognize(&images).unwrap();
    let mut in_top5 = 0;
    for ((path, label), s) in list.iter().zip(&scores) {
        let top: Vec<String> = s.top(5).into_iter().map(|t| t.text).collect();
        let folded = s.alphabet().fold_str(label);
        eprintln!("{}: {label} -> {top:?}", path.display());
        in_top5 += top.contains(&folded) as usize;
    }
    assert!(in_top5 * 2 >= list.len(), "only {in_top5} of {} labels among the top 5", list.len());
}

#[test]
fn quantized_model_reads_like_the_float_export() {
    let (q, f) = (embedded_model_path(), float_model_path());
    if !f.is_file() {
        eprintln!("no float export at {}", f.display());
        return;
    }
    let images: Vec<GrayImage> = cells().iter().map(|(p, _)| load_cell(p).unwrap()).collect();
    let quantized = Recognizer::load(&q).unwrap().recognize(&images).unwrap();
    let float = Recognizer::load(&f).unwrap().recognize(&images).unwrap();
    for ((path, label), (a, b)) in cells().iter().zip(quantized.iter().zip(&float)) {
        let (ta, tb) = (a.top(3), b.top(3));
        assert_eq!(ta[0].text, tb[0].text, "{}: {ta:?} against {tb:?}", path.display());
        // The label's score and the top readings' scores move by a fraction of a nat.
        let texts: Vec<&str> = tb.iter().map(|t| t.text.as_str()).chain([label.as_str()]).collect();
        for (x, y) in a.score(&texts).iter().zip(b.score(&texts)) {
            assert!((x - y).abs() < 0.5 || (*x < -20.0 && y < -20.0), "{}: {texts:?} {x} against {y}", path.display());
        }
    }
}

#[test]
fn command_prints_json() {
    let list = cells();
    let out = bin()
        .args(["recognize", "--top", "3", "--json", "--model"])
        .arg(data("tiny_model/tiny.onnx"))
        .arg(&list[0].0)
        .arg(&list[1].0)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let arr = v.as_array().unwrap();
    assert_eq!(arr.len(), 2);
    assert_eq!(arr[0]["image"].as_str().unwrap(), list[0].0.display().to_string());
    let top = arr[0]["top"].as_array().unwrap();
    assert!(!top.is_empty() && top.len() <= 3);
    assert!(top[0]["text"].is_string() && top[0]["logp"].is_number());
}

#[test]
fn command_reports_bad_images() {
    let out = bin()
        .args(["recognize", "--model"])
        .arg(data("tiny_model/tiny.onnx"))
        .arg(data("cells/labels.tsv"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("labels.tsv") && err.contains("cannot read the image"), "{err}");
    let out = bin().args(["recognize", "/nonexistent/cell.png"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/cell.png"));
}

/// `view_models` in preprocess.json gives a view to another model in the same folder: naming the
/// loaded model itself reads exactly as no `view_models`; naming a missing file fails with its name.
#[test]
fn views_read_by_the_models_preprocess_names() {
    let dir = std::env::temp_dir().join(format!("scoresheet-view-models-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tiny_dir = data("tiny_model");
    std::fs::copy(tiny_dir.join("tiny.onnx"), dir.join("tiny.onnx")).unwrap();
    std::fs::copy(tiny_dir.join("alphabet.json"), dir.join("alphabet.json")).unwrap();
    let base: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tiny_dir.join("preprocess.json")).unwrap()).unwrap();
    let write = |views: serde_json::Value, models: Option<serde_json::Value>| {
        let mut p = base.clone();
        p["views"] = views;
        match models {
            Some(m) => p["view_models"] = m,
            None => {
                p.as_object_mut().unwrap().remove("view_models");
            }
        }
        std::fs::write(dir.join("preprocess.json"), p.to_string()).unwrap();
    };
    let images: Vec<GrayImage> = cells().iter().take(6).map(|(p, _)| load_cell(p).unwrap()).collect();
    let texts = ["e4", "Nf3", "O-O", "exd5", ""];
    write(serde_json::json!([0.85, 1.15]), None);
    let plain: Vec<Vec<f32>> = Recognizer::load(&dir.join("tiny.onnx"))
        .unwrap()
        .recognize(&images)
        .unwrap()
        .iter()
        .map(|s| s.score(&texts))
        .collect();
    write(serde_json::json!([0.85, 1.15]), Some(serde_json::json!([null, "tiny.onnx"])));
    let mut routed = Recognizer::load(&dir.join("tiny.onnx")).unwrap();
    let scores = routed.recognize(&images).unwrap();
    assert!(scores.iter().all(|s| s.views().len() == 2));
    let routed: Vec<Vec<f32>> = scores.iter().map(|s| s.score(&texts)).collect();
    for (a, b) in plain.iter().flatten().zip(routed.iter().flatten()) {
        assert!((a - b).abs() < 1e-4, "{a} vs {b}");
    }
    write(serde_json::json!([0.85, 1.15]), Some(serde_json::json!([null, "partner.onnx"])));
    let err = Recognizer::load(&dir.join("tiny.onnx")).err().expect("a missing partner model fails").to_string();
    assert!(err.contains("partner.onnx"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Read by the loaded model alone (as descriptive sheets are), the shipped pair's first view reads
/// as before and its second view as the loaded model reads it, not as the partner does.
#[test]
fn the_loaded_model_alone_reads_every_view() {
    let mut r = Recognizer::load(&embedded_model_path()).unwrap();
    assert!(r.has_partners());
    let images: Vec<GrayImage> = cells().iter().take(6).map(|(p, _)| load_cell(p).unwrap()).collect();
    let partnered = r.recognize_with(&images, ViewReaders::Partnered).unwrap();
    let alone = r.recognize_with(&images, ViewReaders::LoadedModel).unwrap();
    for (p, a) in partnered.iter().zip(&alone) {
        assert_eq!(p.views()[0], a.views()[0]);
    }
    let second_view_differs = partnered.iter().zip(&alone).any(|(p, a)| p.views()[1] != a.views()[1]);
    assert!(second_view_differs, "the partner model reads the second view in both");
}
