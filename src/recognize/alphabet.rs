//! The model's character classes, stored beside the model as `alphabet.json`.
//!
//! Class 0 is the CTC blank; class `i >= 1` is `classes[i - 1]`. Text is *folded* before it is
//! encoded: Cyrillic letters that look like Latin ones (К С Р р О ...) read as their Latin twins
//! and the digit 0 as the letter O (castling), because no hand tells them apart; the sheet's
//! language restores them downstream. The fold map is [`crate::notation::lang::skeleton`] plus
//! `0 -> O` (a unit test checks the file against it).

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

use super::RecognizeError;

/// The alphabet shipped with the model.
pub const DEFAULT_JSON: &str = include_str!("../../models/alphabet.json");

#[derive(Deserialize)]
struct AlphabetFile {
    classes: Vec<String>,
    #[serde(default)]
    fold: HashMap<String, String>,
}

/// Character classes of a recognition model.
#[derive(Clone, Debug, PartialEq)]
pub struct Alphabet {
    classes: Vec<char>,
    index: HashMap<char, usize>,
    fold: HashMap<char, char>,
    /// [`Alphabet::class_of`] for ASCII characters (`NO_CLASS`: none).
    ascii: [u16; 128],
}

const NO_CLASS: u16 = u16::MAX;

fn one_char(s: &str, what: &str) -> Result<char, RecognizeError> {
    let mut it = s.chars();
    match (it.next(), it.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(RecognizeError::Malformed(format!("{what} {s:?} is not a single character"))),
    }
}

impl Alphabet {
    /// Parses `alphabet.json` text.
    pub fn from_json(text: &str) -> Result<Alphabet, RecognizeError> {
        let file: AlphabetFile =
            serde_json::from_str(text).map_err(|e| RecognizeError::Malformed(format!("not an alphabet file: {e}")))?;
        let classes = file.classes.iter().map(|s| one_char(s, "class")).collect::<Result<Vec<char>, _>>()?;
        if classes.is_empty() {
            return Err(RecognizeError::Malformed("the alphabet has no classes".into()));
        }
        let mut index = HashMap::new();
        for (i, &c) in classes.iter().enumerate() {
            if index.insert(c, i + 1).is_some() {
                return Err(RecognizeError::Malformed(format!("class {c:?} appears twice")));
            }
        }
        let mut fold = HashMap::new();
        for (from, to) in &file.fold {
            fold.insert(one_char(from, "fold key")?, one_char(to, "fold value")?);
        }
        let mut alphabet = Alphabet { classes, index, fold, ascii: [NO_CLASS; 128] };
        for b in 0..128u8 {
            let class = alphabet.index.get(&alphabet.fold(b as char)).copied();
            alphabet.ascii[b as usize] = class.and_then(|i| u16::try_from(i).ok()).unwrap_or(NO_CLASS);
        }
        Ok(alphabet)
    }

    /// Reads an `alphabet.json` file.
    pub fn load(path: &Path) -> Result<Alphabet, RecognizeError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| RecognizeError::File { path: path.to_path_buf(), reason: format!("cannot read: {e}") })?;
        Alphabet::from_json(&text).map_err(|e| e.in_file(path))
    }

    /// The alphabet shipped in `models/alphabet.json`.
    pub fn shipped() -> Alphabet {
        Alphabet::from_json(DEFAULT_JSON).expect("models/alphabet.json is valid")
    }

    /// Number of classes including the blank (the model's output width).
    pub fn num_classes(&self) -> usize {
        self.classes.len() + 1
    }

    /// The characters, in class order (class 1 first).
    pub fn chars(&self) -> &[char] {
        &self.classes
    }

    /// The class a character reads as, after folding look-alikes.
    pub fn fold(&self, c: char) -> char {
        self.fold.get(&c).copied().unwrap_or(c)
    }

    /// A whole string folded.
    pub fn fold_str(&self, s: &str) -> String {
        s.chars().map(|c| self.fold(c)).collect()
    }

    /// Class indices of a text (folded first), or `None` if a character has no class.
    pub fn encode(&self, text: &str) -> Option<Vec<usize>> {
        text.chars().map(|c| self.class_of(c)).collect()
    }

    /// The class of a character (folded first), or `None` if it has none.
    #[inline]
    pub fn class_of(&self, c: char) -> Option<usize> {
        match self.ascii.get(c as usize) {
            Some(&NO_CLASS) => None,
            Some(&i) => Some(i as usize),
            None => self.index.get(&self.fold(c)).copied(),
        }
    }

    /// The text of class indices; the blank and unknown indices are skipped.
    pub fn decode(&self, labels: &[usize]) -> String {
        labels.iter().filter_map(|&i| if i >= 1 { self.classes.get(i - 1).copied() } else { None }).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::lang::skeleton;
    use crate::notation::languages;

    #[test]
    fn fold_map_is_skeleton_plus_zero() {
        let a = Alphabet::shipped();
        for (&from, &to) in &a.fold {
            let want = if from == '0' { 'O' } else { skeleton(from) };
            assert_eq!(to, want, "fold of {from:?}");
        }
        for code in 0x400u32..0x500 {
            let c = char::from_u32(code).unwrap();
            assert_eq!(a.fold(c), skeleton(c), "{c:?} folds differently from skeleton");
        }
    }

    #[test]
    fn covers_everything_the_notation_engine_writes() {
        let a = Alphabet::shipped();
        for lang in languages() {
            for (_, letter) in lang.letters() {
                assert!(a.encode(letter).is_some(), "{}: piece letter {letter:?} has no class", lang.code);
            }
            if let Some(p) = lang.pawn_letter() {
                assert!(a.encode(p).is_some(), "{}: pawn letter {p:?}", lang.code);
            }
        }
        for s in ["O-O-O", "0-0", "exd6 e.p.", "e8=Q", "e8(Q)", "e8/Q", "a1:h8+", "Nf3#", "Qh5!?", "e4??", "g1-f3"] {
            assert!(a.encode(s).is_some(), "{s:?}");
        }
        // Descriptive notation as the decoder spells it.
        for s in ["P-K8(Q)", "QxQch", "Q-R5 ch", "KN-KB3", "R/Q1-Q2", "PxP/Q4", "KBPxP e.p.", "C3AR", "P8R=D", "AxC+"] {
            assert!(a.encode(s).is_some(), "{s:?}");
        }
        for c in '1'..='8' {
            assert!(a.encode(&c.to_string()).is_some());
        }
    }

    #[test]
    fn encode_decode_round_trip_with_folding() {
        let a = Alphabet::shipped();
        let labels = a.encode("Кр:е5").unwrap();
        assert_eq!(a.decode(&labels), "Kp:e5");
        assert_eq!(a.encode("0-0"), a.encode("O-O"));
        assert_eq!(a.encode("Nf3€"), None);
        assert!(labels.iter().all(|&i| i >= 1 && i < a.num_classes()));
    }

    #[test]
    fn bad_files_are_reported() {
        assert!(Alphabet::from_json("{").is_err());
        assert!(Alphabet::from_json(r#"{"classes": []}"#).is_err());
        assert!(Alphabet::from_json(r#"{"classes": ["ab"]}"#).unwrap_err().to_string().contains("single character"));
        assert!(Alphabet::from_json(r#"{"classes": ["a", "a"]}"#).unwrap_err().to_string().contains("twice"));
    }
}
