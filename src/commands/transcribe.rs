//! `scoresheet transcribe`: a typed-up game in any language to PGN.

use std::io::Read;
use std::path::PathBuf;

use clap::Args;

use scoresheet::notation::{LangChoice, all_languages, lang, parse_game};
use scoresheet::output::pgn::write_pgn;

/// Arguments of `scoresheet transcribe`.
#[derive(Args, Debug)]
pub struct TranscribeArgs {
    /// A text file with one game (move numbers, moves, result), or "-" for standard input.
    pub file: PathBuf,
    /// The language of the piece letters: "auto" (try all, keep the one under which the game is
    /// legal) or a code such as en, de, et, ru; en-descriptive and es-descriptive read descriptive
    /// notation ("P-K4", "N-KB3"; "P4R", "C3AR"), which "auto" finds too.
    #[arg(long, default_value = "auto")]
    pub lang: String,
    /// Keep going past a move that cannot be resolved, as far as the game can be followed, and
    /// mark the problem in a comment (the exit code is still 0).
    #[arg(long)]
    pub lenient: bool,
}

/// Runs `transcribe`: prints PGN on success, returns the error message otherwise.
pub fn run(args: &TranscribeArgs) -> Result<String, Box<dyn std::error::Error>> {
    let name = args.file.display().to_string();
    let text = if name == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map_err(|e| format!("<stdin>: cannot read: {e}"))?;
        s
    } else {
        let bytes = std::fs::read(&args.file).map_err(|e| format!("{name}: cannot read: {e}"))?;
        String::from_utf8(bytes).map_err(|_| format!("{name}: not UTF-8 text"))?
    };
    let choice = if args.lang.eq_ignore_ascii_case("auto") {
        LangChoice::Auto
    } else {
        match lang(&args.lang) {
            Some(l) => LangChoice::Fixed(l),
            None => {
                let codes: Vec<&str> = all_languages().map(|l| l.code).collect();
                return Err(
                    format!("unknown language \"{}\"; use auto or one of: {}", args.lang, codes.join(" ")).into()
                );
            }
        }
    };
    let game = parse_game(&text, choice, args.lenient).map_err(|e| format!("{name}: {e}"))?;
    Ok(write_pgn(&game.to_pgn_game()))
}
