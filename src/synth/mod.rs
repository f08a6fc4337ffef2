//! Synthetic scoresheets: realistic handwritten sheets with exact ground truth.
//!
//! A sheet is a random plausible game ([`games`]) written by a random writer (language, notation
//! style, [`handwriting`] hand) on a printed [`forms`] form, then scanned or photographed
//! ([`damage`]). Every image comes with a JSON ground truth ([`sheet::Truth`]): the game as PGN,
//! the page corners, and for every printed cell its box in the final image, what was written and
//! the move played. `--cells` renders single cells with labels instead, for training.
//! `--form-image` writes the games on a real blank form's image instead of a drawn form
//! ([`form_image`]).
//!
//! Everything is deterministic for a seed: sheet `i` draws from its own random stream, so output
//! does not depend on the number of threads.

pub mod cells;
pub mod damage;
mod error;
pub mod fonts;
pub mod form_image;
pub mod forms;
pub mod games;
pub mod handwriting;
mod options_by_name;
pub mod print;
pub mod random_layout;
pub mod raster;
pub mod sheet;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

pub use damage::Damage;
pub use error::SynthError;
pub use fonts::FontSet;
pub use options_by_name::{OptionNames, options_from_names};
pub use sheet::{CellTruth, DrawnLayout, Note, Page, SheetSpec, Truth};

use crate::notation::{self, Lang};

/// What to generate.
#[derive(Clone, Debug)]
pub struct Options {
    /// How many sheets (or cells).
    pub count: usize,
    /// The random seed: the same seed gives byte-identical output.
    pub seed: u64,
    /// One language, or None for a mix.
    pub lang: Option<&'static Lang>,
    /// One form (a name in [`forms::library`], or [`random_layout::RANDOM_LAYOUT`]: a layout
    /// drawn for every sheet), or None for a mix of `mix_forms`.
    pub form: Option<&'static str>,
    /// The forms a mix deals: [`forms::NAMES`] (the original five, as every seed's sheets have
    /// always been), [`forms::DEVELOPMENT_FORMS`] or [`forms::HELD_OUT_FORMS`].
    pub mix_forms: &'static [&'static str],
    /// One damage kind, or None for a mix.
    pub damage: Option<Damage>,
    /// Which handwriting fonts write.
    pub fonts: FontSet,
    /// Every writer puts the moves across the row's lower ruling (see [`SheetSpec::low_writing`]).
    pub low_writing: bool,
    /// Each game twice: the two players' copies, written by two writers ([`sheet::render_copies`]).
    pub copies: bool,
    /// Write every game on this real blank form's image instead of a drawn form (`form`,
    /// `mix_forms` then unused).
    pub form_image: Option<Arc<form_image::FormImage>>,
    /// Print the drawn form at this share of its contrast against the paper (0..=1), faint as
    /// forms printed grey come out (see [`SheetSpec::print_contrast`]; a form image is faded when
    /// it is loaded, [`form_image::FormImage::fade_print`]).
    pub print_contrast: Option<f32>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            count: 1,
            seed: 1,
            lang: None,
            form: None,
            mix_forms: &forms::NAMES,
            damage: None,
            fonts: FontSet::All,
            low_writing: false,
            copies: false,
            form_image: None,
            print_contrast: None,
        }
    }
}

/// An independent random stream for item `index` of purpose `stream` under `seed`.
pub fn rng_for(seed: u64, stream: u64, index: u64) -> ChaCha8Rng {
    let mut z = seed ^ stream.wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    // splitmix64 finaliser
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ChaCha8Rng::seed_from_u64(z ^ (z >> 31))
}

/// What sheet `index` is: with "mix" choices, forms, damage kinds and languages are dealt in turn
/// from seed-shuffled decks, so any run of 15 sheets shows every damage kind and 15 languages, and
/// every form of a deck of up to 15.
pub fn sheet_spec(opts: &Options, index: usize) -> SheetSpec {
    let mut deck = rng_for(opts.seed, 0xDEC4, 0);
    let mut form_deck = opts.mix_forms.to_vec();
    form_deck.shuffle(&mut deck);
    let mut damage_deck = [Damage::None, Damage::Scan, Damage::Photo];
    damage_deck.shuffle(&mut deck);
    let mut lang_deck: Vec<&'static Lang> = notation::languages().iter().collect();
    lang_deck.shuffle(&mut deck);
    let form = opts.form.unwrap_or(form_deck[index % form_deck.len()]);
    let layout = (form == random_layout::RANDOM_LAYOUT)
        .then(|| random_layout::random_layout(&mut rng_for(opts.seed, 0x1A40, index as u64)));
    SheetSpec {
        name: format!("sheet-{index:05}"),
        form,
        layout,
        lang: opts.lang.unwrap_or(lang_deck[index % lang_deck.len()]),
        damage: opts.damage.unwrap_or(damage_deck[index % damage_deck.len()]),
        fonts: opts.fonts,
        single_page: false,
        low_writing: opts.low_writing,
        print_contrast: opts.print_contrast,
    }
}

/// Renders sheet `index` of a run (one page, or more for a game continued on another page; with
/// `copies`, the second player's copy after them).
pub fn render_sheet(opts: &Options, index: usize) -> Result<Vec<Page>, SynthError> {
    render_spec(opts, &sheet_spec(opts, index), index)
}

/// Renders sheet `index` as `spec` says (its first copy is the sheet rendered without `copies`).
fn render_spec(opts: &Options, spec: &SheetSpec, index: usize) -> Result<Vec<Page>, SynthError> {
    let mut rng = rng_for(opts.seed, 1, index as u64);
    if let Some(form) = &opts.form_image {
        let mut other = opts.copies.then(|| rng_for(opts.seed, 3, index as u64));
        return form_image::render(form, spec, &mut rng, other.as_mut());
    }
    if opts.copies {
        sheet::render_copies(spec, &mut rng, &mut rng_for(opts.seed, 3, index as u64))
    } else {
        sheet::render(spec, &mut rng)
    }
}

/// Encodes a page's image: JPEG at the damage's quality, else PNG.
pub fn encode_image(page: &Page) -> Result<Vec<u8>, SynthError> {
    use image::ImageEncoder;
    let img = &page.image;
    let mut buf = Vec::new();
    if let Some(q) = page.jpeg_quality {
        if img.w > u16::MAX as usize || img.h > u16::MAX as usize {
            return Err(SynthError::Invalid(format!("{} is too large for JPEG", page.name)));
        }
        let mut enc = jpeg_encoder::Encoder::new(&mut buf, q);
        enc.set_sampling_factor(jpeg_encoder::SamplingFactor::R_4_2_0);
        enc.encode(&img.px, img.w as u16, img.h as u16, jpeg_encoder::ColorType::Rgb)
            .map_err(|e| SynthError::Encode { name: page.name.clone(), reason: e.to_string() })?;
        return Ok(buf);
    }
    let r = image::codecs::png::PngEncoder::new_with_quality(
        &mut buf,
        image::codecs::png::CompressionType::Fast,
        image::codecs::png::FilterType::Sub,
    )
    .write_image(&img.px, img.w as u32, img.h as u32, image::ExtendedColorType::Rgb8);
    r.map_err(|e| SynthError::Encode { name: page.name.clone(), reason: e.to_string() })?;
    Ok(buf)
}

/// Encodes a grey cell image as PNG.
pub fn encode_cell(cell: &cells::CellImage) -> Result<Vec<u8>, SynthError> {
    use image::ImageEncoder;
    let mut buf = Vec::new();
    image::codecs::png::PngEncoder::new_with_quality(
        &mut buf,
        image::codecs::png::CompressionType::Fast,
        image::codecs::png::FilterType::Sub,
    )
    .write_image(&cell.gray, cell.w as u32, cell.h as u32, image::ExtendedColorType::L8)
    .map_err(|e| SynthError::Encode { name: "a cell".into(), reason: e.to_string() })?;
    Ok(buf)
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), SynthError> {
    fs::write(path, bytes).map_err(|e| SynthError::file(path, format!("cannot write: {e}")))
}

fn prepare_dir(out: &Path) -> Result<(), SynthError> {
    fs::create_dir_all(out).map_err(|e| SynthError::file(out, format!("cannot create output directory: {e}")))?;
    if !out.is_dir() {
        return Err(SynthError::Invalid(format!("{} is not a directory", out.display())));
    }
    Ok(())
}

/// Renders and writes `opts.count` sheets (images and JSON) into `out`; returns the files written.
pub fn write_sheets(opts: &Options, out: &Path) -> Result<Vec<PathBuf>, SynthError> {
    prepare_dir(out)?;
    // `count` is the number of page images: a game continued on a second page uses two. Sheets
    // are rendered in parallel a batch at a time and written in order; a sheet that would run
    // past `count` is rendered again kept to one page. The output depends only on the seed.
    let mut files = Vec::new();
    let mut images = 0;
    let mut next = 0;
    while images < opts.count {
        let batch: Vec<usize> = (next..next + (opts.count - images)).collect();
        next += batch.len();
        let rendered: Result<Vec<Vec<Page>>, SynthError> = batch.par_iter().map(|&i| render_sheet(opts, i)).collect();
        for (i, mut pages) in batch.into_iter().zip(rendered?) {
            if images >= opts.count {
                break;
            }
            if images + pages.len() > opts.count {
                pages = render_spec(opts, &SheetSpec { single_page: true, ..sheet_spec(opts, i) }, i)?;
            }
            for page in &pages {
                let img_path = out.join(&page.truth.image);
                write_file(&img_path, &encode_image(page)?)?;
                let json_path = out.join(format!("{}.json", page.name));
                let json = serde_json::to_string_pretty(&page.truth).map_err(|e| SynthError::Invalid(e.to_string()))?;
                write_file(&json_path, json.as_bytes())?;
                files.push(img_path);
                files.push(json_path);
            }
            images += pages.len();
        }
    }
    Ok(files)
}

/// Cells rendered from one writer before the next is drawn.
pub const CELLS_PER_WRITER: usize = 24;

/// The language of writer `index` in cells mode: the fixed one, or a mix with English at about 30 %.
fn cell_lang(opts: &Options, rng: &mut ChaCha8Rng) -> &'static Lang {
    use rand::Rng;
    opts.lang.unwrap_or_else(|| {
        let all = notation::languages();
        if rng.gen_bool(0.3) { &all[0] } else { &all[rng.gen_range(0..all.len())] }
    })
}

/// Renders `opts.count` single-cell images, grouped by writer, in order.
pub fn render_cells(opts: &Options, writer: usize) -> Result<Vec<cells::CellImage>, SynthError> {
    let mut rng = rng_for(opts.seed, 2, writer as u64);
    let lang = cell_lang(opts, &mut rng);
    let n = CELLS_PER_WRITER.min(opts.count - writer * CELLS_PER_WRITER);
    cells::writer_cells(&mut rng, lang, opts.fonts, n)
}

/// Writes `opts.count` cell images `cell-NNNNNN.png` and `labels.tsv` (`FILE<TAB>TEXT`) into `out`.
pub fn write_cells(opts: &Options, out: &Path) -> Result<usize, SynthError> {
    prepare_dir(out)?;
    let writers = opts.count.div_ceil(CELLS_PER_WRITER);
    let labels: Result<Vec<Vec<String>>, SynthError> = (0..writers)
        .into_par_iter()
        .map(|wi| {
            let mut lines = Vec::new();
            for (k, cell) in render_cells(opts, wi)?.iter().enumerate() {
                let name = format!("cell-{:06}.png", wi * CELLS_PER_WRITER + k);
                write_file(&out.join(&name), &encode_cell(cell)?)?;
                lines.push(format!("{name}\t{}", cell.label));
            }
            Ok(lines)
        })
        .collect();
    let labels = labels?;
    let path = out.join("labels.tsv");
    let mut f = fs::File::create(&path).map_err(|e| SynthError::file(&path, format!("cannot write: {e}")))?;
    let mut n = 0;
    for line in labels.iter().flatten() {
        writeln!(f, "{line}").map_err(|e| SynthError::file(&path, format!("cannot write: {e}")))?;
        n += 1;
    }
    Ok(n)
}
