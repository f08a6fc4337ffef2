//! Writes the move-prior features ([`scoresheet::decode::prior`]) of every legal move at every
//! half-move of the HCS games that are neither test nor development games (page 0 of each game,
//! its labels made a legal game by `decode::truth`), for `scripts/fit_prior.py`. With `--dev`,
//! the development games instead (to check the fit on games it did not see).
//!
//! Run: cargo run --release --example prior_data -- /path/to/hcs [--dev] > prior.tsv
//! Each line: game page, half-move, 1 if the move was played else 0, the features.

use std::path::PathBuf;

use shakmaty::{Chess, Position};

use scoresheet::decode::prior::features;
use scoresheet::decode::truth::true_game;
use scoresheet::notation::english;
use scoresheet::read::eval::{HCS_TEST_GAMES, hcs_page_labels, is_hcs_dev_game};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.iter().find(|a| !a.starts_with("--")).map(PathBuf::from) else {
        eprintln!("usage: prior_data HCS_DIR [--dev]");
        std::process::exit(2);
    };
    let dev = args.iter().any(|a| a == "--dev");
    let keep = |g: &str| !HCS_TEST_GAMES.contains(&g) && is_hcs_dev_game(g) == dev;
    let pages = match hcs_page_labels(&dir, keep) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut seen = std::collections::BTreeSet::new();
    let mut out = String::new();
    let mut plies = 0;
    for (page, labels) in pages {
        let game = page.split('_').next().unwrap_or_default().to_string();
        // One page per game: both pages hold the same game.
        if labels.len() < 10 || !seen.insert(game) {
            continue;
        }
        let truth = true_game(&Chess::default(), &labels, english());
        let mut pos = Chess::default();
        for (i, t) in truth.iter().enumerate() {
            for m in pos.legal_moves() {
                let mut after = pos.clone();
                after.play_unchecked(m);
                let f = features(&pos, &m, after.is_check(), after.is_checkmate());
                let f: Vec<String> = f.iter().map(|x| format!("{x:.4}")).collect();
                out.push_str(&format!("{page}\t{i}\t{}\t{}\n", u8::from(m == t.played), f.join("\t")));
            }
            plies += 1;
            pos.play_unchecked(t.played);
        }
    }
    print!("{out}");
    eprintln!("{} games, {plies} half-moves", seen.len());
}
