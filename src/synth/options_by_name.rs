//! [`Options`] from their names as people write them (`--lang de --form club --damage photo`):
//! the choices of `scoresheet-dev synth`, checked.

use std::path::PathBuf;
use std::sync::Arc;

use super::SynthError;
use super::form_image::FormImage;
use super::random_layout::RANDOM_LAYOUT;
use super::{Damage, FontSet, Options, forms};
use crate::notation;

/// The synthetic sheets wanted, each choice by its name, as [`options_from_names`] reads them.
#[derive(Debug, Clone)]
pub struct OptionNames {
    /// Number of sheets (or of cells).
    pub count: usize,
    /// Random seed: the same seed gives byte-identical output.
    pub seed: u64,
    /// Language code (en, de, ru, ...), a descriptive notation (en-descriptive, es-descriptive),
    /// or "mix" (the algebraic languages).
    pub lang: String,
    /// Form name (see docs/forms.md), or "mix", "dev-mix", "heldout-mix" or "random" (a layout
    /// drawn for every sheet); with `form_image`,
    /// the form's name in the truth ("mix": the image's file name).
    pub form: String,
    /// Damage: none, scan, photo or mix.
    pub damage: String,
    /// Handwriting fonts.
    pub fonts: FontSet,
    /// Every writer puts the moves across the rows' lower rulings.
    pub low_writing: bool,
    /// Each game twice, as the two players' copies.
    pub copies: bool,
    /// A real blank form (image) to write the games on instead of a drawn form.
    pub form_image: Option<PathBuf>,
    /// With `form_image`: the form's move cells, checked by a person (JSON as `segment --json`
    /// prints it).
    pub cells_from: Option<PathBuf>,
    /// The form printed at this share of its contrast against the paper (0..=1).
    pub print_contrast: Option<f32>,
}

/// Checks the names and builds the [`Options`] they choose (loading the form image, if any).
pub fn options_from_names(args: &OptionNames) -> Result<Options, SynthError> {
    if let Some(share) = args.print_contrast.filter(|share| !(0.0..=1.0).contains(share)) {
        return Err(SynthError::Invalid(format!("print contrast {share} is not a share from 0 to 1")));
    }
    let lang = match args.lang.as_str() {
        "mix" => None,
        code => Some(notation::lang(code).ok_or_else(|| {
            let codes: Vec<&str> = notation::all_languages().map(|l| l.code).collect();
            SynthError::Invalid(format!("unknown language '{code}' (use mix or one of {})", codes.join(", ")))
        })?),
    };
    let form_image = match &args.form_image {
        Some(path) => {
            let name = Some(args.form.as_str()).filter(|n| *n != "mix");
            let mut form = FormImage::load(path, args.cells_from.as_deref(), name)?;
            if let Some(share) = args.print_contrast {
                form.fade_print(share);
            }
            Some(Arc::new(form))
        }
        None => None,
    };
    let (form, mix_forms): (_, &'static [&'static str]) = match args.form.as_str() {
        _ if form_image.is_some() => (None, &forms::NAMES),
        "mix" => (None, &forms::NAMES),
        "dev-mix" => (None, &forms::DEVELOPMENT_FORMS),
        "heldout-mix" => (None, &forms::HELD_OUT_FORMS),
        RANDOM_LAYOUT => (Some(RANDOM_LAYOUT), &forms::NAMES),
        name => {
            let known = forms::library().find(|n| *n == name).ok_or_else(|| {
                let names: Vec<&str> = forms::library().collect();
                SynthError::Invalid(format!(
                    "unknown form '{name}' (use mix, dev-mix, heldout-mix, random or one of {})",
                    names.join(", ")
                ))
            })?;
            (Some(known), &forms::NAMES)
        }
    };
    let damage = match args.damage.as_str() {
        "mix" => None,
        "none" => Some(Damage::None),
        "scan" => Some(Damage::Scan),
        "photo" => Some(Damage::Photo),
        other => return Err(SynthError::Invalid(format!("unknown damage '{other}' (use none, scan, photo or mix)"))),
    };
    Ok(Options {
        count: args.count,
        seed: args.seed,
        lang,
        form,
        mix_forms,
        damage,
        fonts: args.fonts,
        low_writing: args.low_writing,
        copies: args.copies,
        form_image,
        print_contrast: args.print_contrast,
    })
}
