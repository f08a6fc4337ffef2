//! The fonts the generator draws with, embedded in the binary (see `assets/fonts/README.md`).
//!
//! Handwriting fonts are split into [`TRAIN`] and [`HELD_OUT`]: the held-out font (Latin and
//! Cyrillic) is never used for training cells, so a recognizer can be tested on a hand it never saw.

use std::collections::HashMap;
use std::sync::OnceLock;

use ab_glyph::{Font as _, FontRef, OutlineCurve};

/// One embedded font file.
pub struct FontFile {
    /// The file's name.
    pub name: &'static str,
    /// The file's bytes.
    pub data: &'static [u8],
}

macro_rules! font {
    ($name:literal, $file:literal) => {
        FontFile { name: $name, data: include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/fonts/", $file)) }
    };
}

/// Handwriting fonts used for training data.
pub static TRAIN: &[FontFile] = &[
    font!("caveat", "caveat.ttf"),
    font!("bad-script", "bad-script.ttf"),
    font!("neucha", "neucha.ttf"),
    font!("architects-daughter", "architects-daughter.ttf"),
    font!("indie-flower", "indie-flower.ttf"),
    font!("kalam", "kalam.ttf"),
    font!("patrick-hand", "patrick-hand.ttf"),
    font!("shadows-into-light", "shadows-into-light.ttf"),
];

/// The held-out handwriting font(s): Latin and Cyrillic, never used with [`FontSet::Train`].
pub static HELD_OUT: &[FontFile] = &[font!("pangolin", "pangolin.ttf")];

/// Printed fonts for form headings and move numbers.
pub static PRINTED: &[FontFile] = &[
    font!("dejavu-serif", "DejaVuSerif.ttf"),
    font!("dejavu-serif-bold", "DejaVuSerif-Bold.ttf"),
    font!("dejavu-sans-bold", "DejaVuSans-Bold.ttf"),
    font!("dejavu-sans-condensed", "DejaVuSansCondensed.ttf"),
];

/// Which handwriting fonts a run may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FontSet {
    /// Training fonts only.
    Train,
    /// The held-out font only.
    #[value(name = "heldout")]
    HeldOut,
    /// Every handwriting font.
    #[default]
    All,
}

/// A glyph outline in font units (y up), with its advance.
pub struct GlyphShape {
    /// How far the pen moves after the glyph, in font units.
    pub advance: f32,
    /// The outline.
    pub curves: Vec<OutlineCurve>,
}

/// A parsed font with the outlines of every character it covers, cached.
pub struct LoadedFont {
    /// The font's name.
    pub name: &'static str,
    /// Whether the font is held out of training.
    pub held_out: bool,
    /// Font units per em.
    pub units_per_em: f32,
    /// Height of the digit "4" (handwriting) or of "8" (printed) in font units: the size reference.
    pub digit_height: f32,
    /// Height of "x" in font units.
    pub x_height: f32,
    /// Height of the tallest piece letter or ascender in font units (handwriting capitals may be tall).
    pub tall_height: f32,
    glyphs: HashMap<char, GlyphShape>,
}

impl LoadedFont {
    fn load(file: &FontFile, held_out: bool) -> LoadedFont {
        let font = FontRef::try_from_slice(file.data).expect("embedded font parses");
        let mut glyphs = HashMap::new();
        let chars = (' '..='~').chain('\u{00A0}'..='\u{017F}').chain('\u{0400}'..='\u{045F}');
        for c in chars {
            let id = font.glyph_id(c);
            if id.0 == 0 {
                continue;
            }
            let curves = font.outline(id).map(|o| o.curves).unwrap_or_default();
            if curves.is_empty() && c != ' ' && c != '\u{00A0}' {
                continue;
            }
            glyphs.insert(c, GlyphShape { advance: font.h_advance_unscaled(id), curves });
        }
        let units_per_em = font.units_per_em().unwrap_or(1000.0);
        let digit_height = ['4', '8', 'H']
            .iter()
            .filter_map(|&c| font.outline(font.glyph_id(c)))
            .map(|o| o.bounds.max.y - o.bounds.min.y)
            .find(|h| *h > 0.0)
            .unwrap_or(units_per_em * 0.7);
        let x_height = font
            .outline(font.glyph_id('x'))
            .map(|o| o.bounds.max.y - o.bounds.min.y)
            .filter(|h| *h > 0.0)
            .unwrap_or(digit_height * 0.6);
        let tall_height = "KQRBNTDLSCFAHVbdfhkl"
            .chars()
            .filter_map(|c| font.outline(font.glyph_id(c)))
            .map(|o| o.bounds.max.y - o.bounds.min.y)
            .fold(digit_height, f32::max);
        LoadedFont { name: file.name, held_out, units_per_em, digit_height, x_height, tall_height, glyphs }
    }

    /// The height handwriting sizes refer to: the digit height, or more for fonts whose small
    /// letters are small next to their digits (people write small letters big).
    pub fn hand_height(&self) -> f32 {
        self.digit_height.max(1.7 * self.x_height)
    }

    /// The outline of `c`, if this font has it.
    pub fn glyph(&self, c: char) -> Option<&GlyphShape> {
        self.glyphs.get(&c)
    }

    /// Whether the font can draw every character of `text` (spaces included).
    pub fn covers(&self, text: &str) -> bool {
        text.chars().all(|c| self.glyphs.contains_key(&c))
    }
}

struct Loaded {
    hands: Vec<LoadedFont>,
    printed: Vec<LoadedFont>,
}

fn loaded() -> &'static Loaded {
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    LOADED.get_or_init(|| Loaded {
        hands: TRAIN
            .iter()
            .map(|f| LoadedFont::load(f, false))
            .chain(HELD_OUT.iter().map(|f| LoadedFont::load(f, true)))
            .collect(),
        printed: PRINTED.iter().map(|f| LoadedFont::load(f, false)).collect(),
    })
}

/// The handwriting fonts of `set` that can draw every character of `charset`.
pub fn hands(set: FontSet, charset: &str) -> Vec<&'static LoadedFont> {
    loaded()
        .hands
        .iter()
        .filter(|f| match set {
            FontSet::Train => !f.held_out,
            FontSet::HeldOut => f.held_out,
            FontSet::All => true,
        })
        .filter(|f| f.covers(charset))
        .collect()
}

/// Every printed font.
pub fn printed() -> &'static [LoadedFont] {
    &loaded().printed
}

/// A printed font by name (falls back to the first).
pub fn printed_named(name: &str) -> &'static LoadedFont {
    let p = printed();
    p.iter().find(|f| f.name == name).unwrap_or(&p[0])
}
