//! The true game behind a player's own record, for scoring a reading.
//!
//! A label is what the player wrote, which may be informal, under-specified or wrong. A ply is
//! scored right when the move read is one the label can mean in the true position. A label that
//! is illegal there is the player's own error: that ply is not counted, and the true game goes on
//! with the legal move that best explains the labels after it: the one under which the labels
//! after it can be followed furthest (to the next one that cannot); among those, the one under
//! which the most of the next labels can be followed, further errors allowed (where errors come
//! two in a row, the first measure is 0 for every move); then the one spelled closest to the
//! label. Where several
//! moves are still equal, the labels cannot tell which was played: a reading is scored along the
//! one it took ([`true_game_along`]), so that its later moves of that piece do not count wrong for
//! a pick the labels leave open ("e3" written where f3 and Be3 both fit: "Bf4" after it is the
//! bishop from c1 or from e3).

use rustc_hash::FxHashSet;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use crate::notation::{Lang, english_san, follow, parse_move};

/// One half-move of the true game.
#[derive(Clone, Debug)]
pub struct TruePly {
    /// What the player wrote.
    pub label: String,
    /// The moves the label can mean here (empty: the label is the player's own error).
    pub allowed: Vec<Move>,
    /// The move taken as played.
    pub played: Move,
}

impl TruePly {
    /// Whether this ply counts in the score (its label is legal here).
    pub fn counted(&self) -> bool {
        !self.allowed.is_empty()
    }
}

/// Levenshtein distance in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    if a.is_ascii() && b.is_ascii() {
        return levenshtein(a.as_bytes(), b.as_bytes());
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    levenshtein(&a, &b)
}

fn levenshtein<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    // Two rows; short strings (the usual case) stay on the stack.
    let mut rows = [[0usize; 32]; 2];
    let mut heap: Vec<usize>;
    let (prev, cur): (&mut [usize], &mut [usize]) = if b.len() < 32 {
        let [p, c] = &mut rows;
        (&mut p[..=b.len()], &mut c[..=b.len()])
    } else {
        heap = vec![0; 2 * (b.len() + 1)];
        heap.split_at_mut(b.len() + 1)
    };
    for (j, v) in prev.iter_mut().enumerate() {
        *v = j;
    }
    let (mut prev, mut cur) = (prev, cur);
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The true game behind `labels` (one per half-move from `start`), in `lang`'s letters. Stops
/// where the game has no legal move left.
pub fn true_game(start: &Chess, labels: &[String], lang: &Lang) -> Vec<TruePly> {
    true_game_along(start, labels, lang, &[])
}

/// [`true_game`] as it bears on a reading `read`: where several moves explain the labels after
/// them equally well (as far, and spelled as close to the label), the labels cannot tell which was
/// played, and the one read is taken. Elsewhere the same as [`true_game`], whose pick among such
/// moves falls to move order, and would count the reading's later moves of that piece wrong.
pub fn true_game_along(start: &Chess, labels: &[String], lang: &Lang, read: &[Move]) -> Vec<TruePly> {
    let refs: Vec<&str> = labels.iter().map(String::as_str).collect();
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(labels.len());
    for (i, label) in labels.iter().enumerate() {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let allowed: Vec<Move> =
            parse_move(&pos, label, lang).map(|r| r.into_iter().map(|r| r.mv).collect()).unwrap_or_default();
        let candidates: Vec<Move> = if allowed.is_empty() { legal.iter().copied().collect() } else { allowed.clone() };
        let played = if candidates.len() == 1 {
            candidates[0]
        } else {
            // The move under which the labels after it go on furthest (to the next one that
            // cannot be followed); then the one whose standard spelling is closest to what was
            // written.
            let after = |m: &Move| {
                let mut next = pos.clone();
                next.play_unchecked(*m);
                next
            };
            let key = |m: &Move| {
                let reach = follow(&after(m), &refs[i + 1..], lang, refs.len() - i);
                // (an unknown label, "", is as close to every move)
                let closeness =
                    if label.is_empty() { 0 } else { usize::MAX - edit_distance(&english_san(&pos, m), label) };
                (reach, 0, closeness)
            };
            let mut keyed: Vec<((usize, usize, usize), Move)> = candidates.iter().map(|m| (key(m), *m)).collect();
            // Where several go on equally far, the one under which the most of the labels after it
            // can be followed, each further error taken as the legal move spelled closest to it.
            let reach = keyed.iter().map(|(k, _)| k.0).max().expect("candidates are not empty");
            let tied = keyed.iter().filter(|(k, _)| k.0 == reach).count();
            if tied > 1 && i + 1 < refs.len() {
                for (k, m) in keyed.iter_mut().filter(|(k, _)| k.0 == reach) {
                    k.1 = explained(&after(m), &refs[i + 1..], lang);
                }
            }
            let best = keyed.iter().map(|(k, _)| *k).max().expect("candidates are not empty");
            match read.get(i).filter(|r| keyed.iter().any(|(k, m)| *k == best && m == *r)) {
                Some(r) => *r,
                None => keyed.iter().rev().find(|(k, _)| *k == best).expect("the best is there").1,
            }
        };
        out.push(TruePly { label: label.clone(), allowed, played });
        pos.play_unchecked(played);
    }
    out
}

/// Labels after an error weighed by [`explained`].
const EXPLAIN_WINDOW: usize = 12;
/// Games kept by [`explained`]'s search.
const EXPLAIN_BEAM: usize = 8;
/// Moves tried for a label that cannot be followed: the legal moves spelled closest to it.
const EXPLAIN_ERRORS: usize = 3;

/// How many of the next [`EXPLAIN_WINDOW`] `labels` (from `pos`) some game can follow, where a
/// label that cannot be followed is taken as one of the legal moves spelled closest to it (a
/// further error of the player's). A small beam search: games ranked by labels followed, then by
/// how close the errors' spellings are.
fn explained(pos: &Chess, labels: &[&str], lang: &Lang) -> usize {
    // (labels followed, edit distance of the errors, position)
    let mut beam: Vec<(usize, usize, Chess)> = vec![(0, 0, pos.clone())];
    for label in labels.iter().take(EXPLAIN_WINDOW) {
        let mut next: Vec<(usize, usize, Chess)> = Vec::new();
        for (followed, dist, p) in &beam {
            let legal = p.legal_moves();
            if legal.is_empty() {
                next.push((*followed, *dist, p.clone()));
                continue;
            }
            let meant: Vec<Move> =
                parse_move(p, label, lang).map(|r| r.into_iter().map(|r| r.mv).collect()).unwrap_or_default();
            let children: Vec<(usize, usize, Move)> = if meant.is_empty() {
                let mut near: Vec<(usize, Move)> =
                    legal.iter().map(|m| (edit_distance(&english_san(p, m), label), *m)).collect();
                near.sort_by_key(|(d, _)| *d);
                near.into_iter().take(EXPLAIN_ERRORS).map(|(d, m)| (*followed, dist + d, m)).collect()
            } else {
                meant.into_iter().map(|m| (followed + 1, *dist, m)).collect()
            };
            for (f, d, m) in children {
                let mut q = p.clone();
                q.play_unchecked(m);
                next.push((f, d, q));
            }
        }
        next.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut seen = FxHashSet::default();
        next.retain(|(_, _, p)| seen.insert(p.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0));
        next.truncate(EXPLAIN_BEAM);
        beam = next;
    }
    beam.first().map_or(0, |b| b.0)
}

/// (plies right, plies counted) of a reading against the true game.
pub fn score(read: &[Move], truth: &[TruePly]) -> (usize, usize) {
    let mut right = 0;
    let mut counted = 0;
    for (i, t) in truth.iter().enumerate() {
        if !t.counted() {
            continue;
        }
        counted += 1;
        if read.get(i).is_some_and(|m| t.allowed.contains(m)) {
            right += 1;
        }
    }
    (right, counted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::lang;

    #[test]
    fn edit_distances() {
        let d = edit_distance;
        assert_eq!(d("e5xd5", "e5xd4"), 1);
        assert_eq!(d("", "Nf3"), 3);
        assert_eq!(d("Nf3", ""), 3);
        assert_eq!(d("kitten", "sitting"), 3);
        assert_eq!(d("Кр:е2", "Кре2"), 1);
        let long = "a".repeat(40);
        assert_eq!(d(&long, "ab"), 39);
        assert_eq!(d("ab", &long), 39);
    }

    fn labels(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn illegal_labels_are_left_out_and_the_game_resyncs() {
        let en = lang("en").unwrap();
        // 3. Bb5 written as "Bc5" (illegal for white): the game goes on with the bishop move
        // that lets "a6 Ba4 Nf6" follow.
        let t = true_game(&Chess::default(), &labels("e4 e5 Nf3 Nc6 Bc5 a6 Ba4 Nf6 O-O"), en);
        assert_eq!(t.len(), 9);
        assert!(!t[4].counted());
        assert_eq!(
            english_san(
                &{
                    let mut p = Chess::default();
                    for x in &t[..4] {
                        p.play_unchecked(x.played);
                    }
                    p
                },
                &t[4].played
            ),
            "Bb5"
        );
        assert!(t.iter().enumerate().all(|(i, x)| i == 4 || x.counted()));
        let read: Vec<Move> = t.iter().map(|x| x.played).collect();
        assert_eq!(score(&read, &t), (8, 8));
        assert_eq!(score(&read[..5], &t), (4, 8));
    }

    #[test]
    fn where_the_labels_cannot_tell_moves_apart_the_one_read_is_taken() {
        let en = lang("en").unwrap();
        // 3. "e3" is illegal (the e-pawn stands on e4). Be3 and the pawn moves a3, b3, c3, f3,
        // g3, h3, e5 are spelled as close to it, and all let "Nc6 Bf4 Nf6" follow; but "Bf4" is
        // then the bishop from e3 or from c1.
        let l = labels("e4 e5 d4 exd4 e3 Nc6 Bf4 Nf6");
        let play = |moves: &[Move]| {
            let mut p = Chess::default();
            for m in moves {
                p.play_unchecked(*m);
            }
            p
        };
        let fixed = true_game(&Chess::default(), &l, en);
        assert!(!fixed[4].counted() && fixed.iter().filter(|x| x.counted()).count() == 7);
        let before = play(&fixed.iter().map(|x| x.played).collect::<Vec<_>>()[..4]);
        assert_eq!(english_san(&before, &fixed[4].played), "Be3", "the last of the equals in move order");
        // A reading of f3, then the bishop from c1.
        let mut read: Vec<Move> = fixed.iter().map(|x| x.played).collect();
        read[4] = parse_move(&before, "f3", en).unwrap()[0].mv;
        let after = play(&read[..6]);
        read[6] = parse_move(&after, "Bf4", en).unwrap()[0].mv;
        assert_ne!(read[6], fixed[6].played);
        assert_eq!(score(&read, &fixed), (6, 7), "the fixed truth's bishop comes from e3");
        let along = true_game_along(&Chess::default(), &l, en, &read);
        assert_eq!(along[4].played, read[4]);
        assert_eq!(score(&read, &along), (7, 7));
        // A reading of Bd3 is not followed: it is spelled further from "e3".
        let mut read_d3 = read.clone();
        read_d3[4] = parse_move(&before, "Bd3", en).unwrap()[0].mv;
        assert_eq!(true_game_along(&Chess::default(), &l, en, &read_d3)[4].played, fixed[4].played);
    }

    #[test]
    fn after_two_errors_in_a_row_the_move_that_explains_the_labels_after_them_is_taken() {
        let en = lang("en").unwrap();
        // 3. Bb5 written "Bd4", then 3... a6 written "Ka6": no move lets the label after it be
        // followed, and Bd3, Bc4 and d4 are spelled closer to "Bd4" than Bb5 is; but only after
        // Bb5 can "Ba4" follow, and with it "Nf6 O-O Be7".
        let t = true_game(&Chess::default(), &labels("e4 e5 Nf3 Nc6 Bd4 Ka6 Ba4 Nf6 O-O Be7"), en);
        let mut pos = Chess::default();
        let sans: Vec<String> = t
            .iter()
            .map(|x| {
                let san = english_san(&pos, &x.played);
                pos.play_unchecked(x.played);
                san
            })
            .collect();
        assert_eq!(sans[4], "Bb5", "{sans:?}");
        assert_eq!(sans[6..], ["Ba4", "Nf6", "O-O", "Be7"]);
        assert_eq!(t.iter().filter(|x| x.counted()).count(), 8);
    }

    #[test]
    fn informal_and_underspecified_labels_allow_every_move_they_can_mean() {
        let en = lang("en").unwrap();
        let t = true_game(&Chess::default(), &labels("e4 d5 PxP Qxd5 Nf3 e5 d3 Nc6 Nd2"), en);
        assert_eq!(t[2].allowed.len(), 1);
        assert_eq!(t[8].allowed.len(), 2, "Nd2: the knights on b1 and f3");
        assert!(t.iter().all(TruePly::counted));
    }
}
