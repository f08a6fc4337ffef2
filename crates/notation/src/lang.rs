//! National piece letters.
//!
//! Every language a scoresheet may be written in is a [`Lang`]: the letters its players use for
//! king, queen, rook, bishop and knight, and the pawn letter where one is in use ("P" in PxP).
//! Letters are written with their real script (Cyrillic for Russian, Ukrainian, Bulgarian); the
//! parser also accepts the Latin look-alikes a transcriber or a handwriting model may produce
//! (see [`skeleton`]).

use shakmaty::Role;

/// One national letter set.
#[derive(Debug, PartialEq, Eq)]
pub struct Lang {
    /// ISO 639-1 code: "en", "de", "ru", ...
    pub code: &'static str,
    /// English name of the language.
    pub name: &'static str,
    /// Letters for king, queen, rook, bishop, knight, in that order.
    pub pieces: [&'static str; 5],
    /// The pawn letter, where the language has one in use ("P" in English "PxP").
    pub pawn: Option<&'static str>,
    /// Words for "and so on" that end a transcript in this language ("usw.", "jne.");
    /// they are a clue when several languages share one letter set.
    pub etc_words: &'static [&'static str],
    /// How squares are named: algebraic "e4", or descriptive "K4" / "4R".
    pub notation: Notation,
}

/// How a language's moves name squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// "Nf3", "e4": files a to h, ranks from White's side.
    Algebraic,
    /// "N-KB3", "P-K4": files named by the pieces that stand on them at the start, ranks counted
    /// from the mover's side (White's K4 is e4, Black's K4 is e5).
    Descriptive(WordOrder),
}

/// The order of a descriptive notation's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WordOrder {
    /// English: wing before piece ("KN", "QBP"), file before rank ("KB3"), a hyphen before the
    /// square ("N-KB3").
    English,
    /// Spanish: wing after piece ("CR", "PAD"), rank before file ("3AR"), no hyphen ("C3AR").
    Spanish,
}

const ROLES: [Role; 5] = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

impl Lang {
    /// The letter this language writes for `role`; "" for a pawn.
    pub fn piece_letter(&self, role: Role) -> &'static str {
        match role {
            Role::Pawn => "",
            Role::King => self.pieces[0],
            Role::Queen => self.pieces[1],
            Role::Rook => self.pieces[2],
            Role::Bishop => self.pieces[3],
            Role::Knight => self.pieces[4],
        }
    }

    /// The pawn letter if the language has one, else "P" only where "P" is not a piece letter.
    pub fn pawn_letter(&self) -> Option<&'static str> {
        self.pawn
    }

    /// Whether the piece letters are written in Cyrillic.
    pub fn is_cyrillic(&self) -> bool {
        self.pieces.iter().any(|l| l.chars().any(is_cyrillic_char))
    }

    /// The roles and their letters, king first.
    pub fn letters(&self) -> impl Iterator<Item = (Role, &'static str)> + '_ {
        ROLES.iter().copied().zip(self.pieces.iter().copied())
    }

    /// A short description of the letter set, e.g. "K D T L S".
    pub fn letter_set(&self) -> String {
        self.pieces.join(" ")
    }

    /// Whether two languages write every move alike: the same piece letters, the same notation.
    pub fn same_letters(&self, other: &Lang) -> bool {
        self.pieces == other.pieces && self.pawn == other.pawn && self.notation == other.notation
    }

    /// The word order, where the language is a descriptive notation.
    pub fn descriptive(&self) -> Option<WordOrder> {
        match self.notation {
            Notation::Algebraic => None,
            Notation::Descriptive(order) => Some(order),
        }
    }
}

fn is_cyrillic_char(c: char) -> bool {
    ('\u{0400}'..='\u{04FF}').contains(&c)
}

macro_rules! lang {
    ($code:literal, $name:literal, [$k:literal, $q:literal, $r:literal, $b:literal, $n:literal], $pawn:expr, [$($etc:literal),*]) => {
        Lang { code: $code, name: $name, pieces: [$k, $q, $r, $b, $n], pawn: $pawn, etc_words: &[$($etc),*], notation: Notation::Algebraic }
    };
}

/// All supported languages. English first: it is the default and the PGN output language.
static LANGS: [Lang; 26] = [
    lang!("en", "English", ["K", "Q", "R", "B", "N"], Some("P"), ["etc.", "etc"]),
    lang!("de", "German", ["K", "D", "T", "L", "S"], None, ["usw.", "usw"]),
    lang!("sl", "Slovenian", ["K", "D", "T", "L", "S"], None, ["itd.", "itd"]),
    lang!("no", "Norwegian", ["K", "D", "T", "L", "S"], None, ["osv.", "osv"]),
    lang!("da", "Danish", ["K", "D", "T", "L", "S"], None, ["osv.", "mv."]),
    lang!("sv", "Swedish", ["K", "D", "T", "L", "S"], None, ["osv.", "etc."]),
    lang!("hr", "Croatian/Serbian", ["K", "D", "T", "L", "S"], None, ["itd.", "itd"]),
    lang!("nl", "Dutch", ["K", "D", "T", "L", "P"], None, ["enz.", "enz"]),
    lang!("fr", "French", ["R", "D", "T", "F", "C"], Some("P"), ["etc.", "etc"]),
    lang!("it", "Italian", ["R", "D", "T", "A", "C"], Some("P"), ["ecc.", "ecc"]),
    lang!("es", "Spanish", ["R", "D", "T", "A", "C"], Some("P"), ["etc.", "etc"]),
    lang!("pt", "Portuguese", ["R", "D", "T", "B", "C"], None, ["etc.", "etc"]),
    lang!("pl", "Polish", ["K", "H", "W", "G", "S"], None, ["itd.", "itd"]),
    lang!("cs", "Czech", ["K", "D", "V", "S", "J"], None, ["atd.", "atd"]),
    lang!("sk", "Slovak", ["K", "D", "V", "S", "J"], None, ["atď.", "atd."]),
    lang!("hu", "Hungarian", ["K", "V", "B", "F", "H"], None, ["stb.", "stb"]),
    lang!("fi", "Finnish", ["K", "D", "T", "L", "R"], None, ["jne.", "jne"]),
    lang!("et", "Estonian", ["K", "L", "V", "O", "R"], None, ["jne.", "jne"]),
    lang!("ro", "Romanian", ["R", "D", "T", "N", "C"], None, ["etc.", "etc"]),
    lang!("is", "Icelandic", ["K", "D", "H", "B", "R"], None, ["o.s.frv."]),
    lang!("tr", "Turkish", ["Ş", "V", "K", "F", "A"], None, ["vb.", "vs."]),
    lang!("ru", "Russian", ["Кр", "Ф", "Л", "С", "К"], Some("п"), ["и т.д.", "т.д."]),
    lang!("uk", "Ukrainian", ["Кр", "Ф", "Т", "С", "К"], None, ["і т.д.", "тощо"]),
    lang!("bg", "Bulgarian", ["Ц", "Д", "Т", "О", "К"], None, ["и т.н.", "т.н."]),
    lang!("lv", "Latvian", ["K", "D", "T", "L", "Z"], None, ["utt.", "utt"]),
    lang!("lt", "Lithuanian", ["K", "V", "B", "R", "Ž"], None, ["ir t.t.", "t.t."]),
];

/// The descriptive notations: the English one of old books and score sheets ("P-K4",
/// "N-KB3") and the Spanish one ("P4R", "C3AR").
static DESCRIPTIVE: [Lang; 2] = [
    Lang {
        code: "en-descriptive",
        name: "English descriptive",
        pieces: ["K", "Q", "R", "B", "N"],
        pawn: Some("P"),
        etc_words: &["etc.", "etc"],
        notation: Notation::Descriptive(WordOrder::English),
    },
    Lang {
        code: "es-descriptive",
        name: "Spanish descriptive",
        pieces: ["R", "D", "T", "A", "C"],
        pawn: Some("P"),
        etc_words: &["etc.", "etc"],
        notation: Notation::Descriptive(WordOrder::Spanish),
    },
];

/// All supported languages in algebraic notation, English first.
pub fn languages() -> &'static [Lang] {
    &LANGS
}

/// The descriptive notations ("P-K4", "C3AR"), English first.
pub fn descriptive_languages() -> &'static [Lang] {
    &DESCRIPTIVE
}

/// Every language, algebraic first, then the descriptive notations.
pub fn all_languages() -> impl Iterator<Item = &'static Lang> {
    LANGS.iter().chain(DESCRIPTIVE.iter())
}

/// The language with this code (case-insensitive), if supported: an algebraic one ("en", "de")
/// or a descriptive notation ("en-descriptive", "es-descriptive").
pub fn lang(code: &str) -> Option<&'static Lang> {
    all_languages().find(|l| l.code.eq_ignore_ascii_case(code.trim()))
}

/// English, the language PGN is written in.
pub fn english() -> &'static Lang {
    &LANGS[0]
}

/// Maps a character to its canonical look-alike so that Latin and Cyrillic letters that look the
/// same compare equal: "Вхе5" (Cyrillic В, х, е) reads as "Bxe5", and "Kp" as "Кр".
/// Lower-case look-alikes map to Latin (files are Latin letters in every language); upper-case
/// ones map to Latin as well, so a Cyrillic letter set is compared through the same mapping.
pub fn skeleton(c: char) -> char {
    match c {
        'А' => 'A',
        'В' => 'B',
        'С' => 'C',
        'Е' => 'E',
        'Н' => 'H',
        'К' => 'K',
        'М' => 'M',
        'О' => 'O',
        'Р' => 'P',
        'Т' => 'T',
        'Х' => 'X',
        'а' => 'a',
        'с' => 'c',
        'е' => 'e',
        'о' => 'o',
        'р' => 'p',
        'х' => 'x',
        'у' => 'y',
        '×' => 'x',
        'ѕ' => 's',
        other => other,
    }
}

/// [`skeleton`] applied to a whole string.
pub(crate) fn skeleton_str(s: &str) -> String {
    s.chars().map(skeleton).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_letters_distinct_after_skeleton() {
        for (i, a) in LANGS.iter().enumerate() {
            for b in &LANGS[i + 1..] {
                assert_ne!(a.code, b.code);
            }
            let sk: Vec<String> = a.pieces.iter().map(|p| skeleton_str(p)).collect();
            for (i, x) in sk.iter().enumerate() {
                for y in &sk[i + 1..] {
                    assert_ne!(x, y, "{}: two pieces share a letter", a.code);
                }
                if let Some(p) = a.pawn {
                    assert_ne!(*x, skeleton_str(p), "{}: pawn letter is a piece letter", a.code);
                }
            }
        }
    }

    #[test]
    fn at_least_twenty_languages_with_cyrillic() {
        assert!(languages().len() >= 20);
        for code in [
            "en", "de", "fr", "it", "es", "pt", "nl", "ru", "uk", "bg", "et", "sl", "no", "da", "sv", "pl", "cs", "sk",
            "hu", "fi", "ro", "is", "tr",
        ] {
            assert!(lang(code).is_some(), "{code} missing");
        }
        assert!(lang("ru").unwrap().is_cyrillic());
        assert_eq!(lang("ru").unwrap().piece_letter(Role::King), "Кр");
        assert_eq!(lang("ET").unwrap().piece_letter(Role::Queen), "L");
        assert!(!lang("de").unwrap().is_cyrillic());
    }
}
