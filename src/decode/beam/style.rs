//! A writer's style, learnt from a first reading of their cells: how often they use each move
//! form, capture mark and check mark, and pawn captures by files alone ("ed", "exd"). A writer
//! keeps one style, so once a sheet shows long algebraic ("Ng1-f3") or colons for captures
//! ("e:d5"), those cost nothing more than short algebraic and "x" do on another sheet, and the
//! forms the writer never uses cost more.
//!
//! The learnt log-prior of a habit is its share among the writer's readings, smoothed towards
//! the fixed priors ([`super::form_prior`], [`super::capture_prior`],
//! [`super::pawn_files_prior`], [`super::check_prior`]) as
//! if `PSEUDO` readings had been seen at their rates; the writer's commonest habit scores 0, so
//! that no spelling scores above its ink (the decoder's floors rely on priors <= 0).

use shakmaty::{Chess, Position};

use super::{ScoredLine, capture_prior, check_prior, form_prior, pawn_files_prior};
use crate::decode::CellReading;
use crate::notation::{CaptureMark, MoveForm, Variant};

const FORMS: [MoveForm; 4] =
    [MoveForm::Short, MoveForm::Long { hyphen: true }, MoveForm::Long { hyphen: false }, MoveForm::Coordinate];
const CAPTURES: [CaptureMark; 4] = [CaptureMark::X, CaptureMark::Omitted, CaptureMark::Colon, CaptureMark::ColonAfter];

/// How many readings the fixed priors weigh as.
const PSEUDO: f32 = 4.0;
/// No habit's learnt log-prior goes under this.
const LOWEST: f32 = -6.0;

/// One copy's style: what to add to [`super::variant_prior`] for each form, capture mark (on
/// captures), pawn capture by files or not (on pawn captures) and check mark (on checks,
/// written or left out). Zero everywhere: the fixed priors.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Style {
    form: [f32; 4],
    capture: [f32; 4],
    pawn_files: [f32; 2],
    check: [f32; 2],
}

fn form_index(f: MoveForm) -> usize {
    FORMS.iter().position(|g| *g == f).unwrap_or(0)
}

fn capture_index(c: CaptureMark) -> usize {
    CAPTURES.iter().position(|d| *d == c).unwrap_or(0)
}

/// The adjustments that turn the fixed log-priors `fixed` into the learnt ones, given how many
/// of the writer's readings showed each habit.
fn learnt<const N: usize>(counts: [f32; N], fixed: [f32; N]) -> [f32; N] {
    let top = fixed.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let base: Vec<f32> = fixed.iter().map(|p| (p - top).exp()).collect();
    let z: f32 = base.iter().sum();
    let n: f32 = counts.iter().sum();
    let post: Vec<f32> = counts.iter().zip(&base).map(|(c, b)| ((c + PSEUDO * b / z) / (n + PSEUDO)).ln()).collect();
    let best = post.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut out = [0.0; N];
    for i in 0..N {
        out[i] = (post[i] - best).max(LOWEST) - fixed[i];
    }
    out
}

impl Style {
    /// What to add to the fixed prior of a spelling with `variant` of a move that captures
    /// (`capture`) and gives check or mate (`check`).
    pub(crate) fn adjust(&self, variant: &Variant, capture: bool, pawn_capture: bool, check: bool) -> f32 {
        let mut a = self.form[form_index(variant.form)];
        if capture {
            a += self.capture[capture_index(variant.capture)];
        }
        if pawn_capture {
            a += self.pawn_files[usize::from(variant.pawn_files)];
        }
        if check {
            a += self.check[usize::from(variant.check_omitted)];
        }
        a
    }

    /// Each copy's style from its readings in `path` (a reading from `start` with every habit
    /// allowed). Under-specified spellings and castling say nothing about the form.
    pub(crate) fn learn(path: &ScoredLine, start: &Chess, copies: usize) -> Vec<Style> {
        let mut forms = vec![[0.0f32; 4]; copies];
        let mut captures = vec![[0.0f32; 4]; copies];
        let mut checks = vec![[0.0f32; 2]; copies];
        let mut files = vec![[0.0f32; 2]; copies];
        let mut pos = start.clone();
        for (mv, readings) in &path.moves {
            let capture = mv.is_capture();
            let pawn_capture = capture && mv.role() == shakmaty::Role::Pawn;
            let castle = mv.is_castle();
            pos.play_unchecked(*mv);
            let check = pos.is_check();
            for (c, r) in readings.iter().enumerate().take(copies) {
                let CellReading::Written { variant, .. } = r else { continue };
                if !variant.underspecified && !castle {
                    forms[c][form_index(variant.form)] += 1.0;
                }
                if capture {
                    captures[c][capture_index(variant.capture)] += 1.0;
                }
                if check {
                    checks[c][usize::from(variant.check_omitted)] += 1.0;
                }
                if pawn_capture {
                    files[c][usize::from(variant.pawn_files)] += 1.0;
                }
            }
        }
        (0..copies)
            .map(|c| Style {
                form: learnt(forms[c], FORMS.map(form_prior)),
                capture: learnt(captures[c], CAPTURES.map(capture_prior)),
                pawn_files: learnt(files[c], [pawn_files_prior(false), pawn_files_prior(true)]),
                check: learnt(checks[c], [check_prior(false), check_prior(true)]),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_readings_leave_the_fixed_priors() {
        let a = learnt([0.0; 4], FORMS.map(form_prior));
        assert!(a.iter().all(|x| x.abs() < 1e-5), "{a:?}");
    }

    #[test]
    fn a_writer_of_long_algebraic_pays_nothing_for_it_and_more_for_short() {
        let fixed = FORMS.map(form_prior);
        let a = learnt([0.0, 20.0, 0.0, 0.0], fixed);
        // Long with hyphens now scores 0 in all, and short algebraic costs more than it.
        assert!((fixed[1] + a[1]).abs() < 1e-5);
        assert!(fixed[0] + a[0] < -1.0);
        // Every learnt prior stays <= 0 and >= LOWEST.
        for i in 0..4 {
            assert!(fixed[i] + a[i] <= 1e-6 && fixed[i] + a[i] >= LOWEST - 1e-6);
        }
    }

    #[test]
    fn a_writer_of_short_algebraic_keeps_it_free() {
        let fixed = FORMS.map(form_prior);
        let a = learnt([25.0, 0.0, 0.0, 0.0], fixed);
        assert!(a[0].abs() < 1e-5);
        assert!(fixed[1] + a[1] < fixed[1]);
    }

    #[test]
    fn a_copy_that_writes_colons_learns_them_and_the_other_copy_keeps_x() {
        use crate::notation::{Variant, english_san};
        use shakmaty::san::San;
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        for san in ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qxa2", "Rxa2", "e5"] {
            let mv = san.parse::<San>().unwrap().to_move(&pos).unwrap();
            assert_eq!(english_san(&pos, &mv), san);
            let capture = if mv.is_capture() { CaptureMark::Colon } else { CaptureMark::X };
            let colon = Variant { capture, ..Variant::default() };
            let x = Variant::default();
            let readings = vec![
                CellReading::Written { text: String::new(), variant: colon },
                CellReading::Written { text: String::new(), variant: x },
            ];
            pos.play_unchecked(mv);
            moves.push((mv, readings));
        }
        let path = ScoredLine { moves, score: 0.0, result: None };
        let styles = Style::learn(&path, &Chess::default(), 2);
        let colon = Variant { capture: CaptureMark::Colon, ..Variant::default() };
        let x = Variant::default();
        let prior = |s: &Style, v: &Variant| super::super::variant_prior(v) + s.adjust(v, true, false, false);
        // The colon writer: a colon costs less than the fixed prior, and less than "x" now.
        assert!(prior(&styles[0], &colon) > super::super::variant_prior(&colon));
        assert!(prior(&styles[0], &colon) > prior(&styles[0], &x));
        // The other writer: "x" is free, a colon costs more than before.
        assert!(prior(&styles[1], &x).abs() < 1e-5);
        assert!(prior(&styles[1], &colon) < super::super::variant_prior(&colon));
        // A move that captures nothing is not touched by the capture marks learnt.
        assert!((styles[0].adjust(&x, false, false, false) - styles[1].adjust(&x, false, false, false)).abs() < 1e-5);
    }

    #[test]
    fn a_writer_of_pawn_captures_by_files_learns_them() {
        use crate::notation::Variant;
        use shakmaty::san::San;
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        for san in ["e4", "d5", "exd5", "e5", "dxe6", "fxe6", "d4", "c5", "dxc5", "b6", "cxb6", "axb6"] {
            let mv = san.parse::<San>().unwrap().to_move(&pos).unwrap();
            let files = mv.is_capture() && mv.role() == shakmaty::Role::Pawn;
            let variant = Variant { pawn_files: files, ..Variant::default() };
            pos.play_unchecked(mv);
            moves.push((mv, vec![CellReading::Written { text: String::new(), variant }]));
        }
        let styles = Style::learn(&ScoredLine { moves, score: 0.0, result: None }, &Chess::default(), 1);
        let files = Variant { pawn_files: true, ..Variant::default() };
        let square = Variant::default();
        let prior = |v: &Variant, pawn: bool| super::super::variant_prior(v) + styles[0].adjust(v, true, pawn, false);
        assert!(prior(&files, true) > super::super::variant_prior(&files));
        assert!(prior(&files, true) > prior(&square, true));
        // A piece's capture is not touched by it.
        assert!((prior(&square, false) - super::super::variant_prior(&square)).abs() < 1e-5);
    }
}
