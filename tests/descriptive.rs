//! Typed games in descriptive notation read back into the PGN they were made from.
//!
//! The games are written by a converter of its own here, made from the notation's rules (it
//! never calls the engine's speller): English "P-K4", "N-KB3", "PxP", "QxQ ch", "Kt" in old
//! books, "Castles", "P-K8(Q)", "resigns"; Spanish "P4R", "C3AR", "AxC". Each game is written in
//! its shortest unambiguous forms and in full forms ("KN-KB3", "KPxQP"), and must read back by
//! `transcribe` (in-process: `parse_game` with the notation found automatically) into exactly its
//! moves and result.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use scoresheet::notation::{LangChoice, parse_game};
use scoresheet::synth::games::random_game;
use shakmaty::san::SanPlus;
use shakmaty::{Bitboard, Chess, Color, File, Move, Position, Role, Square};

#[derive(Clone, Copy, PartialEq)]
enum Tongue {
    English,
    Spanish,
}

/// What the converter writes: which language, short or full forms, and English writers' old
/// habits ("Kt", "ch", "Castles").
#[derive(Clone, Copy)]
struct Writer {
    tongue: Tongue,
    full: bool,
    old: bool,
}

impl Writer {
    /// King, queen, rook, bishop, knight, pawn.
    fn letter(&self, role: Role) -> &'static str {
        let (en, es) = match role {
            Role::King => ("K", "R"),
            Role::Queen => ("Q", "D"),
            Role::Rook => ("R", "T"),
            Role::Bishop => ("B", "A"),
            Role::Knight => (if self.old { "Kt" } else { "N" }, "C"),
            Role::Pawn => ("P", "P"),
        };
        if self.tongue == Tongue::English { en } else { es }
    }

    fn side(&self, king: bool) -> &'static str {
        self.letter(if king { Role::King } else { Role::Queen })
    }

    /// Piece letter with a wing: English "KN", Spanish "CR".
    fn winged(&self, piece: &str, king: bool) -> String {
        match self.tongue {
            Tongue::English => format!("{}{piece}", self.side(king)),
            Tongue::Spanish => format!("{piece}{}", self.side(king)),
        }
    }

    /// The name of a file, whole or without the wing (None where it has no wing to drop).
    fn file(&self, f: File, short: bool) -> Option<String> {
        let piece = match f {
            File::A | File::H => Some(Role::Rook),
            File::B | File::G => Some(Role::Knight),
            File::C | File::F => Some(Role::Bishop),
            _ => None,
        };
        let king = f >= File::E;
        match (piece, short) {
            (None, false) => Some(self.side(king).to_string()),
            (None, true) => None,
            (Some(r), true) => Some(self.letter(r).to_string()),
            (Some(r), false) => Some(self.winged(self.letter(r), king)),
        }
    }

    fn rank(color: Color, sq: Square) -> u32 {
        if color == Color::White { sq.rank() as u32 + 1 } else { 8 - sq.rank() as u32 }
    }

    fn square(&self, color: Color, sq: Square, short: bool) -> Option<String> {
        let f = self.file(sq.file(), short)?;
        let r = Self::rank(color, sq);
        Some(if self.tongue == Tongue::English { format!("{f}{r}") } else { format!("{r}{f}") })
    }

    fn pawn_of_file(&self, f: File, short: bool) -> Option<String> {
        let name = self.file(f, short)?;
        Some(if self.tongue == Tongue::English { format!("{name}P") } else { format!("P{name}") })
    }
}

/// A description of a move: which piece, which square or which victim; a legal move fits it or
/// not.
#[derive(Clone)]
struct Description {
    text: String,
    fits: Vec<Move>,
}

/// Every description the converter knows of `mv`, plainest first, each with the legal moves it
/// fits (a fit is judged by what the words say, from the rules).
/// A spelling and the test on a square that it names.
type SquareTest = Box<dyn Fn(Square) -> bool>;

fn descriptions(w: &Writer, pos: &Chess, mv: &Move) -> Vec<Description> {
    let color = pos.turn();
    let legal = pos.legal_moves();
    let role = mv.role();
    let from = mv.from().unwrap();
    let to = mv.to();
    let half = |sq: Square| sq.file() >= File::E;
    let short_files = |f: File| -> [File; 2] {
        match f {
            File::A | File::H => [File::A, File::H],
            File::B | File::G => [File::B, File::G],
            File::C | File::F => [File::C, File::F],
            other => [other, other],
        }
    };
    // Mover specs: (text, test on the origin square).
    let mut movers: Vec<(String, SquareTest)> = vec![(w.letter(role).to_string(), Box::new(|_| true))];
    if role == Role::Pawn {
        if let Some(s) = w.pawn_of_file(from.file(), true) {
            let files = short_files(from.file());
            movers.push((s, Box::new(move |sq: Square| files.contains(&sq.file()))));
        }
        let f = from.file();
        movers.push((w.pawn_of_file(f, false).unwrap(), Box::new(move |sq: Square| sq.file() == f)));
    } else if matches!(role, Role::Rook | Role::Knight | Role::Bishop) {
        let k = half(from);
        movers.push((w.winged(w.letter(role), k), Box::new(move |sq: Square| half(sq) == k)));
    }
    if role != Role::Pawn && role != Role::King {
        let at = w.square(color, from, false).unwrap();
        movers.push((format!("{}({at})", w.letter(role)), Box::new(move |sq: Square| sq == from)));
    }
    let mut out = Vec::new();
    let same_piece = |m: &Move| m.role() == role && !m.is_castle() && m.promotion() == mv.promotion();
    match mv.capture() {
        None => {
            // Target specs: short square first, then the whole square.
            let mut targets: Vec<(String, Vec<Square>)> = Vec::new();
            if let Some(s) = w.square(color, to, true) {
                let files = short_files(to.file());
                targets.push((s, files.iter().map(|f| Square::from_coords(*f, to.rank())).collect()));
            }
            targets.push((w.square(color, to, false).unwrap(), vec![to]));
            for (mt, mtest) in &movers {
                for (tt, squares) in &targets {
                    let sep = if w.tongue == Tongue::English { "-" } else { "" };
                    let fits: Vec<Move> = legal
                        .iter()
                        .filter(|m| {
                            same_piece(m) && !m.is_capture() && mtest(m.from().unwrap()) && squares.contains(&m.to())
                        })
                        .copied()
                        .collect();
                    out.push(Description { text: format!("{mt}{sep}{tt}"), fits });
                }
            }
        }
        Some(victim) => {
            // Victim specs: the piece, then by wing or file, then with its square.
            let mut victims: Vec<(String, SquareTest)> = vec![(w.letter(victim).to_string(), Box::new(|_| true))];
            if victim == Role::Pawn {
                if let Some(s) = w.pawn_of_file(to.file(), true) {
                    let files = short_files(to.file());
                    victims.push((s, Box::new(move |sq: Square| files.contains(&sq.file()))));
                }
                let f = to.file();
                victims.push((w.pawn_of_file(f, false).unwrap(), Box::new(move |sq: Square| sq.file() == f)));
            } else if matches!(victim, Role::Rook | Role::Knight | Role::Bishop) {
                let k = half(to);
                victims.push((w.winged(w.letter(victim), k), Box::new(move |sq: Square| half(sq) == k)));
            }
            let at = w.square(color, to, false).unwrap();
            victims.push((format!("{}({at})", w.letter(victim)), Box::new(move |sq: Square| sq == to)));
            for (mt, mtest) in &movers {
                for (vt, vtest) in &victims {
                    let fits: Vec<Move> = legal
                        .iter()
                        .filter(|m| {
                            same_piece(m) && m.capture() == Some(victim) && mtest(m.from().unwrap()) && vtest(m.to())
                        })
                        .copied()
                        .collect();
                    out.push(Description { text: format!("{mt}x{vt}"), fits });
                }
            }
        }
    }
    out
}

/// How the converter writes `mv` in `pos`.
fn write_move(w: &Writer, pos: &Chess, mv: &Move, rng: &mut ChaCha8Rng) -> String {
    let mut after = pos.clone();
    after.play_unchecked(*mv);
    let mark = if after.is_checkmate() {
        if w.tongue == Tongue::English && w.old { " mate" } else { "#" }
    } else if after.is_check() {
        match (w.tongue, w.old) {
            (Tongue::English, true) => [" ch", "ch", " dis ch"][rng.gen_range(0..2) + usize::from(discovered(pos, mv))],
            _ => "+",
        }
    } else {
        ""
    };
    if let Move::Castle { king, rook } = *mv {
        let long = rook.file() < king.file();
        let text = match (w.old, long, w.tongue) {
            (true, false, Tongue::English) => "Castles",
            (true, true, Tongue::English) => "Castles QR",
            (_, false, _) => "O-O",
            (_, true, _) => "O-O-O",
        };
        return format!("{text}{mark}");
    }
    let unique: Vec<Description> = descriptions(w, pos, mv).into_iter().filter(|d| d.fits == [*mv]).collect();
    let chosen = if w.full {
        // The fullest description that does not name the origin square, where one is unique.
        unique.iter().rev().find(|d| !d.text.contains('(')).or(unique.first())
    } else {
        unique.iter().min_by_key(|d| d.text.chars().count())
    };
    let mut text = chosen.expect("some description names the move").text.clone();
    if let Some(p) = mv.promotion() {
        let piece = w.letter(p);
        text.push_str(&match (w.tongue, rng.gen_range(0..3)) {
            (Tongue::English, 0) => format!("({piece})"),
            (Tongue::English, 1) => piece.to_string(),
            (_, 2) => format!("({piece})"),
            _ => format!("={piece}"),
        });
    }
    if matches!(mv, Move::EnPassant { .. }) && rng.gen_bool(0.5) {
        text.push_str(" e.p.");
    }
    format!("{text}{mark}")
}

/// Whether the check `mv` gives comes from another piece than the one moved.
fn discovered(pos: &Chess, mv: &Move) -> bool {
    let mut after = pos.clone();
    after.play_unchecked(*mv);
    (after.checkers() & !Bitboard::from_square(mv.to())).any()
}

/// A PGN movetext ("1. e4 e5 2. Nf3 ...") written in descriptive notation, with the result
/// written as "resigns" or a draw where the writer is old-fashioned.
fn convert(w: &Writer, sans: &[String], result: &str, rng: &mut ChaCha8Rng) -> String {
    let mut pos = Chess::default();
    let mut text = String::new();
    for (i, san) in sans.iter().enumerate() {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        let mv = san.parse::<SanPlus>().unwrap().san.to_move(&pos).unwrap();
        text.push_str(&write_move(w, &pos, &mv, rng));
        text.push(' ');
        pos.play_unchecked(mv);
    }
    let mover_won =
        (!sans.len().is_multiple_of(2) && result == "1-0") || (sans.len().is_multiple_of(2) && result == "0-1");
    let ending = match (w.old, result) {
        (true, "1/2-1/2") => if w.tongue == Tongue::English { "Drawn" } else { "Tablas" }.to_string(),
        (true, "1-0" | "0-1") if mover_won && !pos.is_checkmate() => {
            if w.tongue == Tongue::English { "Resigns" } else { "abandona" }.to_string()
        }
        (_, r) => r.to_string(),
    };
    text.push_str(&ending);
    text
}

/// Reads `count` random games through every writer; returns (games right, games, failures).
fn measure(count: usize, seed: u64) -> (usize, usize, Vec<String>) {
    let writers = [
        Writer { tongue: Tongue::English, full: false, old: false },
        Writer { tongue: Tongue::English, full: true, old: false },
        Writer { tongue: Tongue::English, full: false, old: true },
        Writer { tongue: Tongue::English, full: true, old: true },
        Writer { tongue: Tongue::Spanish, full: false, old: false },
        Writer { tongue: Tongue::Spanish, full: true, old: true },
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut right, mut total, mut failures) = (0, 0, Vec::new());
    for _ in 0..count {
        let game = random_game(&mut rng, 10, 80);
        let sans: Vec<String> =
            game.plies.iter().map(|(pos, mv)| SanPlus::from_move(pos.clone(), *mv).to_string()).collect();
        for w in &writers {
            let text = convert(w, &sans, game.result, &mut rng);
            total += 1;
            match parse_game(&text, LangChoice::Auto, false) {
                Ok(g)
                    if g.moves.iter().map(|m| m.san.clone()).collect::<Vec<_>>() == sans && g.result == game.result =>
                {
                    right += 1
                }
                Ok(g) => failures.push(format!(
                    "{text}\n  read as {} ({}): {:?}",
                    g.language_tag(),
                    g.result,
                    g.moves.iter().map(|m| m.san.clone()).collect::<Vec<_>>()
                )),
                Err(e) => failures.push(format!("{text}\n  {e}")),
            }
        }
    }
    (right, total, failures)
}

#[test]
fn typed_descriptive_games_read_into_their_pgn() {
    let (right, total, failures) = measure(40, 30);
    assert!(
        right * 100 >= total * 99,
        "{right}/{total} right; first failures:\n{}",
        failures[..failures.len().min(5)].join("\n")
    );
}

/// The bar over many games: `cargo test --test descriptive -- --ignored --nocapture`.
#[test]
#[ignore]
fn typed_descriptive_games_bar() {
    let (right, total, failures) = measure(500, 3030);
    println!("{right}/{total} games read into exactly their PGN ({:.2} %)", 100.0 * right as f64 / total as f64);
    for f in failures.iter().take(10) {
        println!("{f}");
    }
    assert!(right * 100 >= total * 99);
}

#[test]
fn a_typed_game_transcribes_from_the_command_line() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("descriptive-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    std::fs::write(&file, "1 P-K4 P-K4 2 Kt-KB3 Kt-QB3 3 B-Kt5 P-QR3 4 BxKt QPxB 5 Castles B-KKt5 Resigns\n").unwrap();
    let out =
        std::process::Command::new(env!("CARGO_BIN_EXE_scoresheet")).arg("transcribe").arg(&file).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let pgn = String::from_utf8(out.stdout).unwrap();
    assert!(pgn.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O Bg4 0-1"), "{pgn}");
    assert!(pgn.contains("[Language \"en-descriptive\"]"), "{pgn}");
}
