//! Cell preprocessing, defined once for training and inference.
//!
//! The constants live in `models/preprocess.json`, read both here and by the Python training code
//! (`models/train/common.py`, which implements the same steps with numpy); a unit test checks this
//! implementation against a fixture written by the Python one.
//!
//! Steps, on a grayscale cell of `w x h` pixels:
//! 1. ink = 1 - pixel / 255 (ink is bright, paper is 0);
//! 2. target width `W = clamp(round(w * height / h), min_width, max_width)`; resize to
//!    `W x height` by area averaging (each output pixel is the mean of the input area it covers,
//!    fractional pixels weighted by coverage; separable: columns first, then rows);
//! 3. contrast: `bg` = the `background_quantile` of the resized values, `hi` = the `ink_quantile`
//!    (quantile q = the sorted value at index floor(q * (n - 1))), `hi >= bg + min_contrast`;
//!    x = clamp((v - bg) / (hi - bg), 0, 1);
//! 4. pad on the right with 0 to a multiple of `width_multiple` columns.
//!
//! A cell is read at several *views* (`views`: horizontal stretches; the target width is
//! `round(w * stretch * height / h)`); a string's score is the mean of its log-probabilities
//! over the views ([`crate::recognize::CellScores`]). Training reads cells at stretch 1.
//! `view_models` may give a view to another model beside the one loaded (a two-model ensemble
//! at the cost of one model read twice).

use image::GrayImage;
use serde::Deserialize;

use super::RecognizeError;

/// The preprocessing shipped with the model.
pub const DEFAULT_JSON: &str = include_str!("../../models/preprocess.json");

/// Preprocessing constants (`preprocess.json`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Preprocess {
    /// Height every cell is scaled to, in pixels.
    pub height: usize,
    /// Narrowest a cell is scaled to (before padding).
    pub min_width: usize,
    /// Widest a cell is scaled to (before padding).
    pub max_width: usize,
    /// The padded width is a multiple of this.
    pub width_multiple: usize,
    /// Quantile of the scaled cell's darkness taken as the paper (maps to 0).
    pub background_quantile: f64,
    /// Quantile of the scaled cell's darkness taken as the ink (maps to 1).
    pub ink_quantile: f64,
    /// Least difference between ink and paper: a fainter cell is not stretched further.
    pub min_contrast: f64,
    /// The horizontal stretches a cell is read at (1: as is).
    #[serde(default = "one_view")]
    pub views: Vec<f64>,
    /// Which model reads each view: `None` the model loaded, or the file name of another model
    /// in the same folder (trained apart, same alphabet): a cell read by two models at the two
    /// views reads better than by one at both, for the same time. Empty: every view by the model
    /// loaded.
    #[serde(default)]
    pub view_models: Vec<Option<String>>,
}

fn one_view() -> Vec<f64> {
    vec![1.0]
}

/// One preprocessed cell: `height x width` values in [0, 1], row-major; `content_width` columns
/// hold the image, the rest is padding.
#[derive(Clone, Debug, PartialEq)]
pub struct CellTensor {
    /// Rows.
    pub height: usize,
    /// Columns, padding included.
    pub width: usize,
    /// Columns holding the image.
    pub content_width: usize,
    /// The values, row by row.
    pub data: Vec<f32>,
}

/// Area-averaging weights from `src` samples to `dst` samples: for each output, the first input
/// index and the weights of the inputs it covers.
fn area_weights(src: usize, dst: usize) -> Vec<(usize, Vec<f64>)> {
    let scale = src as f64 / dst as f64;
    (0..dst)
        .map(|i| {
            let lo = i as f64 * scale;
            let hi = (i + 1) as f64 * scale;
            let first = lo.floor() as usize;
            let last = (hi.ceil() as usize).min(src);
            let weights = (first..last)
                .map(|j| {
                    let overlap = (hi.min((j + 1) as f64) - lo.max(j as f64)).max(0.0);
                    overlap / scale
                })
                .collect();
            (first, weights)
        })
        .collect()
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let i = (q * (sorted.len() - 1) as f64).floor() as usize;
    sorted[i.min(sorted.len() - 1)]
}

impl Default for Preprocess {
    fn default() -> Preprocess {
        Preprocess::from_json(DEFAULT_JSON).expect("models/preprocess.json is valid")
    }
}

impl Preprocess {
    /// Parses `preprocess.json` text and checks the values make sense.
    pub fn from_json(text: &str) -> Result<Preprocess, RecognizeError> {
        let p: Preprocess = serde_json::from_str(text)
            .map_err(|e| RecognizeError::Malformed(format!("not a preprocessing file: {e}")))?;
        if p.height == 0 || p.min_width == 0 || p.width_multiple == 0 || p.max_width < p.min_width {
            return Err(RecognizeError::Malformed(
                "preprocessing: sizes must be positive and max_width >= min_width".into(),
            ));
        }
        if !(0.0..=1.0).contains(&p.background_quantile) || !(0.0..=1.0).contains(&p.ink_quantile) {
            return Err(RecognizeError::Malformed("preprocessing: quantiles must lie in [0, 1]".into()));
        }
        if p.min_contrast <= 0.0 {
            return Err(RecognizeError::Malformed("preprocessing: min_contrast must be positive".into()));
        }
        if p.views.is_empty() || p.views.iter().any(|&v| !(0.25..=4.0).contains(&v)) {
            return Err(RecognizeError::Malformed("preprocessing: views must be stretches between 0.25 and 4".into()));
        }
        if !p.view_models.is_empty() && p.view_models.len() != p.views.len() {
            return Err(RecognizeError::Malformed(
                "preprocessing: view_models must name a model (or null) for each view".into(),
            ));
        }
        if p.view_models.iter().flatten().any(|m| m.is_empty() || m.contains(['/', '\\'])) {
            return Err(RecognizeError::Malformed(
                "preprocessing: view_models must be file names in the model's folder".into(),
            ));
        }
        Ok(p)
    }

    /// Reads a `preprocess.json` file.
    pub fn load(path: &std::path::Path) -> Result<Preprocess, RecognizeError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| RecognizeError::File { path: path.to_path_buf(), reason: format!("cannot read: {e}") })?;
        Preprocess::from_json(&text).map_err(|e| e.in_file(path))
    }

    /// The width (before padding) a `w x h` cell is scaled to.
    pub fn target_width(&self, w: usize, h: usize) -> usize {
        self.stretched_width(w, h, 1.0)
    }

    /// The width (before padding) a `w x h` cell is scaled to in the view `stretch`.
    pub fn stretched_width(&self, w: usize, h: usize, stretch: f64) -> usize {
        let scaled = (w as f64 * stretch * self.height as f64 / h.max(1) as f64).round() as usize;
        scaled.clamp(self.min_width, self.max_width)
    }

    /// Preprocesses one grayscale cell as training does (stretch 1). Errors on an empty image.
    pub fn apply(&self, image: &GrayImage) -> Result<CellTensor, RecognizeError> {
        self.apply_stretched(image, 1.0)
    }

    /// Preprocesses one grayscale cell in the view `stretch`. Errors on an empty image.
    pub fn apply_stretched(&self, image: &GrayImage, stretch: f64) -> Result<CellTensor, RecognizeError> {
        let (w, h) = (image.width() as usize, image.height() as usize);
        if w == 0 || h == 0 {
            return Err(RecognizeError::EmptyImage { width: image.width(), height: image.height() });
        }
        let raw = image.as_raw();
        let out_w = self.stretched_width(w, h, stretch);
        let out_h = self.height;
        // Columns first: h rows of out_w.
        let wx = area_weights(w, out_w);
        let mut tmp = vec![0f64; h * out_w];
        for y in 0..h {
            let row = &raw[y * w..(y + 1) * w];
            for (x, (first, weights)) in wx.iter().enumerate() {
                let mut s = 0.0;
                for (k, wt) in weights.iter().enumerate() {
                    s += wt * (1.0 - row[first + k] as f64 / 255.0);
                }
                tmp[y * out_w + x] = s;
            }
        }
        // Then rows.
        let wy = area_weights(h, out_h);
        let mut resized = vec![0f64; out_h * out_w];
        for (y, (first, weights)) in wy.iter().enumerate() {
            for (k, wt) in weights.iter().enumerate() {
                let src = &tmp[(first + k) * out_w..(first + k + 1) * out_w];
                let dst = &mut resized[y * out_w..(y + 1) * out_w];
                for (d, s) in dst.iter_mut().zip(src) {
                    *d += wt * s;
                }
            }
        }
        let mut sorted = resized.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        let bg = quantile(&sorted, self.background_quantile);
        let hi = quantile(&sorted, self.ink_quantile).max(bg + self.min_contrast);
        let width = out_w.div_ceil(self.width_multiple) * self.width_multiple;
        let mut data = vec![0f32; out_h * width];
        for y in 0..out_h {
            for x in 0..out_w {
                let v = (resized[y * out_w + x] - bg) / (hi - bg);
                data[y * width + x] = v.clamp(0.0, 1.0) as f32;
            }
        }
        Ok(CellTensor { height: out_h, width, content_width: out_w, data })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Fixture {
        width: u32,
        height: u32,
        #[serde(default = "one_view_stretch")]
        stretch: f64,
        pixels: Vec<u8>,
        out_width: usize,
        out_content_width: usize,
        out: Vec<f32>,
    }

    fn one_view_stretch() -> f64 {
        1.0
    }

    #[test]
    fn shipped_constants_parse() {
        let p = Preprocess::default();
        assert_eq!(p.height, 32);
        assert!(Preprocess::from_json("{}").is_err());
        assert!(!p.views.is_empty());
        let no_views = DEFAULT_JSON.replace("\"views\"", "\"unused\"").replace("\"view_models\"", "\"unused2\"");
        let one = Preprocess::from_json(&no_views).unwrap();
        assert_eq!((one.views, one.view_models), (vec![1.0], vec![]));
        let bad = DEFAULT_JSON.replace("\"views\": [", "\"views\": [0, ");
        assert!(Preprocess::from_json(&bad).is_err());
        // A model for each view, or none named at all; names are files beside the model.
        assert_eq!(p.view_models.len(), p.views.len());
        let short = DEFAULT_JSON.replace("\"view_models\": [", "\"view_models\": [null, ");
        assert!(Preprocess::from_json(&short).unwrap_err().to_string().contains("view_models"));
        let path = DEFAULT_JSON.replace("\"recognizer-b", "\"../recognizer-b");
        assert!(Preprocess::from_json(&path).unwrap_err().to_string().contains("file names"));
    }

    #[test]
    fn area_weights_sum_to_one() {
        for (src, dst) in [(100, 32), (7, 32), (32, 32), (33, 5), (1, 4)] {
            for (_, w) in area_weights(src, dst) {
                let s: f64 = w.iter().sum();
                assert!((s - 1.0).abs() < 1e-9, "{src}->{dst}: {s}");
            }
        }
    }

    #[test]
    fn matches_the_python_definition() {
        let text = include_str!("../../tests/data/preprocess_fixture.json");
        let cases: Vec<Fixture> = serde_json::from_str(text).unwrap();
        let p = Preprocess::default();
        for case in cases {
            let img = GrayImage::from_raw(case.width, case.height, case.pixels).unwrap();
            let t = p.apply_stretched(&img, case.stretch).unwrap();
            assert_eq!(t.width, case.out_width);
            assert_eq!(t.content_width, case.out_content_width);
            assert_eq!(t.data.len(), case.out.len());
            let worst = t.data.iter().zip(&case.out).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
            assert!(worst < 1e-4, "{}x{}: differs by {worst}", case.width, case.height);
        }
    }

    #[test]
    fn blank_and_tiny_images_do_not_fail() {
        let p = Preprocess::default();
        let white = GrayImage::from_pixel(100, 30, image::Luma([255]));
        let t = p.apply(&white).unwrap();
        assert!(t.data.iter().all(|&v| v == 0.0));
        let dot = GrayImage::from_pixel(1, 1, image::Luma([0]));
        let t = p.apply(&dot).unwrap();
        assert_eq!((t.height, t.width), (32, 32));
        assert!(p.apply(&GrayImage::new(0, 5)).is_err());
    }

    #[test]
    fn width_follows_aspect_and_is_clamped() {
        let p = Preprocess::default();
        assert_eq!(p.target_width(200, 50), 128);
        assert_eq!(p.target_width(10, 50), 32);
        assert_eq!(p.target_width(5000, 50), 384);
        assert_eq!(p.stretched_width(200, 50, 1.15), 147);
        assert_eq!(p.stretched_width(200, 50, 0.85), 109);
    }
}
