//! PGN writing: the Seven Tag Roster, standard English SAN, NAGs and comments, 80-column lines.

use std::fmt::Write as _;

/// One half-move as PGN writes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnMove {
    /// Standard English SAN with check and mate marks ("Nf3", "exd6", "O-O+", "e8=Q#").
    pub san: String,
    /// Numeric annotation glyphs ($1 "!", $2 "?", ...).
    pub nags: Vec<u8>,
    /// Comments after the move.
    pub comments: Vec<String>,
}

/// A game ready to be written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tags beyond the Seven Tag Roster, or values for its tags (which then replace the "?").
    pub headers: Vec<(String, String)>,
    /// A comment before the first move.
    pub intro: Vec<String>,
    /// Full-move number of the first move and whether black moves first.
    pub first_move: (u32, bool),
    /// The half-moves, in order.
    pub moves: Vec<PgnMove>,
    /// "1-0", "0-1", "1/2-1/2" or "*".
    pub result: String,
}

const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace(['\n', '\r'], " ")
}

fn clean_comment(c: &str) -> String {
    // A "}" would end the comment early.
    c.replace('}', ")").replace('{', "(").replace(['\n', '\r'], " ")
}

/// Writes one game as PGN text, ending with a blank line.
pub fn write_pgn(game: &PgnGame) -> String {
    let mut out = String::new();
    let lookup = |name: &str| game.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    for (name, default) in ROSTER {
        let value = if name == "Result" { Some(game.result.as_str()) } else { lookup(name) };
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value.unwrap_or(default)));
    }
    for (k, v) in &game.headers {
        if !ROSTER.iter().any(|(n, _)| n == k) {
            let key: String = k.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            let _ = writeln!(out, "[{key} \"{}\"]", escape(v));
        }
    }
    out.push('\n');
    let mut tokens: Vec<String> = Vec::new();
    for c in &game.intro {
        tokens.push(format!("{{{}}}", clean_comment(c)));
    }
    let (mut number, mut black) = game.first_move;
    let mut need_number = true;
    for m in &game.moves {
        if !black {
            tokens.push(format!("{number}."));
        } else if need_number {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.san.clone());
        need_number = false;
        for n in &m.nags {
            tokens.push(format!("${n}"));
        }
        for c in &m.comments {
            tokens.push(format!("{{{}}}", clean_comment(c)));
            need_number = true;
        }
        if black {
            number += 1;
        }
        black = !black;
    }
    tokens.push(game.result.clone());
    let mut line = String::new();
    for t in tokens {
        // Comments may be long: they are split at spaces like everything else.
        for word in t.split(' ') {
            if !line.is_empty() && line.len() + 1 + word.len() > 79 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roster_moves_and_wrapping() {
        let mut g = PgnGame { result: "1-0".into(), first_move: (1, false), ..Default::default() };
        g.headers.push(("White".into(), "A \"B\"".into()));
        g.headers.push(("Language".into(), "et".into()));
        for i in 0..40 {
            g.moves.push(PgnMove { san: if i % 2 == 0 { "Nf3".into() } else { "Nf6".into() }, ..Default::default() });
        }
        g.moves[3].nags.push(1);
        g.moves[3].comments.push("draw offer (=)".into());
        let pgn = write_pgn(&g);
        assert!(pgn.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"));
        assert!(pgn.contains("[White \"A \\\"B\\\"\"]"));
        assert!(
            pgn.contains("[Result \"1-0\"]\n[Language \"et\"]\n\n1. Nf3 Nf6 2. Nf3 Nf6 $1 {draw offer (=)} 3. Nf3")
        );
        assert!(pgn.lines().all(|l| l.len() <= 79));
        assert!(pgn.trim_end().ends_with("1-0"));
    }

    #[test]
    fn black_first_and_comment_resumes_numbering() {
        let g = PgnGame {
            result: "*".into(),
            first_move: (12, true),
            moves: vec![
                PgnMove { san: "Nf6".into(), comments: vec!["x}y".into()], ..Default::default() },
                PgnMove { san: "e4".into(), ..Default::default() },
                PgnMove { san: "e5".into(), ..Default::default() },
            ],
            ..Default::default()
        };
        let pgn = write_pgn(&g);
        assert!(pgn.contains("12... Nf6 {x)y} 13. e4 e5 *"), "{pgn}");
    }
}
