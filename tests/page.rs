//! Tests of the `page` stage on forms drawn here (several layouts, numbering, orientations),
//! on real HCS pages (tests/data), and on bad input.

use image::{DynamicImage, GrayImage, Luma};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use scoresheet::page::{self, PageError, Side};

/// 3x5 bitmap digits, drawn scaled: a printed font unlike any real one.
const DIGITS: [[u8; 5]; 10] = [
    [7, 5, 5, 5, 7],
    [2, 6, 2, 2, 7],
    [7, 1, 7, 4, 7],
    [7, 1, 7, 1, 7],
    [5, 5, 7, 1, 1],
    [7, 4, 7, 1, 7],
    [7, 4, 7, 5, 7],
    [7, 1, 1, 2, 2],
    [7, 5, 7, 5, 7],
    [7, 5, 7, 1, 7],
];

fn rect(img: &mut GrayImage, x0: i64, y0: i64, x1: i64, y1: i64, v: u8) {
    for y in y0.max(0)..y1.min(img.height() as i64) {
        for x in x0.max(0)..x1.min(img.width() as i64) {
            img.put_pixel(x as u32, y as u32, Luma([v]));
        }
    }
}

fn number(img: &mut GrayImage, x: i64, y: i64, n: u32, s: i64) {
    number_in(img, x, y, n, s, 30);
}

/// [`number`] printed in grey `level`.
fn number_in(img: &mut GrayImage, x: i64, y: i64, n: u32, s: i64, level: u8) {
    for (i, ch) in n.to_string().bytes().enumerate() {
        let g = DIGITS[(ch - b'0') as usize];
        for (r, bits) in g.iter().enumerate() {
            for b in 0..3 {
                if bits & (4 >> b) != 0 {
                    let px = x + (i as i64 * 4 + b) * s;
                    rect(img, px, y + r as i64 * s, px + s, y + (r as i64 + 1) * s, level);
                }
            }
        }
    }
}

/// A form with `blocks` columns of blocks (number, white, black), `rows` rows each, numbered from
/// `first`, with a header row, some handwriting-like scribbles in the first `written` moves.
/// Returns the image and the true boxes `(move, side, [x0, y0, x1, y1])`.
fn form(blocks: u32, rows: u32, first: u32, written: u32, seed: u64) -> (GrayImage, Vec<(u32, Side, [f64; 4])>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (nw, mw, rh) = (50i64, 150i64, 30i64);
    let bw = nw + 2 * mw;
    let gap = 30i64;
    let (mx, my) = (60i64, 120i64);
    let w = mx * 2 + blocks as i64 * bw + (blocks as i64 - 1) * gap;
    let h = my * 2 + (rows as i64 + 1) * rh;
    let mut img = GrayImage::from_pixel(w as u32, h as u32, Luma([235]));
    let mut truth = Vec::new();
    // title text block (ignored header)
    rect(&mut img, mx, 40, mx + 300, 44, 40);
    let mut mv = first;
    for b in 0..blocks as i64 {
        let x0 = mx + b * (bw + gap);
        let top = my;
        for r in 0..=rows as i64 + 1 {
            let y = top + r * rh;
            rect(&mut img, x0, y - 1, x0 + bw + 1, y + 1, 20);
        }
        for x in [x0, x0 + nw, x0 + nw + mw, x0 + bw] {
            rect(&mut img, x - 1, top, x + 1, top + (rows as i64 + 1) * rh + 1, 20);
        }
        // header row: dark fill over the move columns
        rect(&mut img, x0 + nw + mw, top, x0 + bw, top + rh, 60);
        for r in 0..rows as i64 {
            let y = top + (r + 1) * rh;
            number(&mut img, x0 + 6, y + 7, mv, 3);
            for (k, side) in [(0, Side::White), (1, Side::Black)] {
                let cx = x0 + nw + k * mw;
                truth.push((mv, side, [cx as f64, y as f64, (cx + mw) as f64, (y + rh) as f64]));
                if mv < first + written {
                    // scribble: a few strokes, some crossing the rulings
                    for _ in 0..4 {
                        let sx = cx + rng.gen_range(15..mw - 40);
                        let sy = y + rng.gen_range(-6..rh - 8);
                        rect(&mut img, sx, sy, sx + 3, sy + rng.gen_range(10..22), 50);
                        rect(&mut img, sx, sy + 8, sx + rng.gen_range(8..25), sy + 11, 50);
                    }
                }
            }
            mv += 1;
        }
    }
    (img, truth)
}

fn iou(a: [f64; 4], b: [f64; 4]) -> f64 {
    let iw = (a[2].min(b[2]) - a[0].max(b[0])).max(0.0);
    let ih = (a[3].min(b[3]) - a[1].max(b[1])).max(0.0);
    let i = iw * ih;
    i / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - i)
}

fn check(img: &GrayImage, truth: &[(u32, Side, [f64; 4])]) -> page::Sheet {
    let sheet = page::segment_gray(img).expect("table found");
    assert_eq!(sheet.cells.len(), truth.len(), "cell count");
    for (m, s, b) in truth {
        let c = sheet.cell(*m, *s).unwrap_or_else(|| panic!("no cell {m} {s:?}"));
        let bb = c.box_in_input.map(|v| v as f64);
        assert!(iou(bb, *b) >= 0.7, "cell {m} {s:?}: box {bb:?} vs {b:?}");
    }
    sheet
}

/// The first move number of each block found, in reading order.
fn first_moves(sheet: &page::Sheet) -> Vec<u32> {
    sheet.blocks.iter().map(|b| b.first_move).collect()
}

#[test]
fn two_blocks_of_thirty() {
    let (img, truth) = form(2, 30, 1, 25, 1);
    let sheet = check(&img, &truth);
    assert!(!sheet.cell(3, Side::White).unwrap().blank);
    assert!(sheet.cell(40, Side::Black).unwrap().blank);
}

#[test]
fn a_page_of_two_copies_of_a_form_reads_the_first_and_says_so() {
    let (copy, truth) = form(2, 20, 1, 25, 11);
    let mut page = GrayImage::from_pixel(copy.width() * 2, copy.height(), Luma([235]));
    image::imageops::replace(&mut page, &copy, 0, 0);
    image::imageops::replace(&mut page, &copy, copy.width() as i64, 0);
    let sheet = check(&page, &truth);
    assert!(sheet.second_form_unread);
    // one form of four blocks is read whole
    let (img, truth) = form(4, 20, 1, 50, 12);
    assert!(!check(&img, &truth).second_form_unread);
}

#[test]
fn three_blocks_of_twenty() {
    let (img, truth) = form(3, 20, 1, 30, 2);
    check(&img, &truth);
}

#[test]
fn continuation_page_starts_at_61() {
    let (img, truth) = form(1, 40, 61, 10, 3);
    let sheet = check(&img, &truth);
    assert_eq!(sheet.blocks[0].first_move, 61);
}

#[test]
fn upside_down_sheet() {
    let (img, truth) = form(2, 25, 1, 20, 4);
    let (w, h) = (img.width() as f64, img.height() as f64);
    let turned = image::imageops::rotate180(&img);
    let truth: Vec<_> = truth.iter().map(|(m, s, b)| (*m, *s, [w - b[2], h - b[3], w - b[0], h - b[1]])).collect();
    let sheet = check(&turned, &truth);
    assert_eq!(sheet.quarter_turns, 2);
}

#[test]
fn quarter_turned_sheet() {
    let (img, truth) = form(2, 25, 1, 20, 5);
    let h = img.height() as f64;
    let turned = image::imageops::rotate270(&img); // (x, y) -> (y, w - x)... counter-clockwise
    let w = img.width() as f64;
    let truth: Vec<_> = truth.iter().map(|(m, s, b)| (*m, *s, [b[1], w - b[2], b[3], w - b[0]])).collect();
    let _ = h;
    check(&turned, &truth);
}

#[test]
fn skewed_sheet() {
    let (img, truth) = form(2, 30, 1, 30, 6);
    let deg = 2.5f64;
    let (w, h) = (img.width(), img.height());
    let (cx, cy) = (w as f64 / 2.0, h as f64 / 2.0);
    let rot = imageproc::geometric_transformations::rotate_about_center(
        &img,
        deg.to_radians() as f32,
        imageproc::geometric_transformations::Interpolation::Bilinear,
        Luma([235]),
    );
    let (s, c) = deg.to_radians().sin_cos();
    let map = |x: f64, y: f64| (cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c);
    let truth: Vec<_> = truth
        .iter()
        .map(|(m, sd, b)| {
            let pts = [map(b[0], b[1]), map(b[2], b[1]), map(b[2], b[3]), map(b[0], b[3])];
            let bx = [
                pts.iter().map(|p| p.0).fold(f64::MAX, f64::min),
                pts.iter().map(|p| p.1).fold(f64::MAX, f64::min),
                pts.iter().map(|p| p.0).fold(f64::MIN, f64::max),
                pts.iter().map(|p| p.1).fold(f64::MIN, f64::max),
            ];
            (*m, *sd, bx)
        })
        .collect();
    let sheet = check(&rot, &truth);
    assert!((sheet.skew_deg - deg).abs() <= 0.3, "skew {}", sheet.skew_deg);
}

#[test]
fn blank_page_is_an_error() {
    let img = GrayImage::from_pixel(800, 1000, Luma([240]));
    assert!(matches!(page::segment_gray(&img), Err(PageError::NoTable { .. })));
}

#[test]
fn non_scoresheet_photo_is_an_error() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut img = GrayImage::from_fn(900, 700, |x, y| Luma([(120 + (x / 7 + y / 5) % 90) as u8]));
    for _ in 0..60 {
        let (x, y) = (rng.gen_range(0..850i64), rng.gen_range(0..650i64));
        rect(&mut img, x, y, x + rng.gen_range(5..60), y + rng.gen_range(5..60), rng.gen_range(0..80));
    }
    assert!(page::segment_gray(&img).is_err());
}

#[test]
fn hcs_pages_have_120_labelled_cells() {
    for name in ["hcs_001_0.jpg", "hcs_073_0.jpg"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
        let img = page::load(&path).unwrap().remove(0);
        let sheet = page::segment(&img).unwrap();
        assert_eq!(sheet.cells.len(), 120, "{name}");
        for m in 1..=60 {
            for s in [Side::White, Side::Black] {
                let c = sheet.cell(m, s).unwrap_or_else(|| panic!("{name}: no cell {m}"));
                let b = c.box_in_input;
                // halves: moves 1-30 left of 31-60, rows go down
                if m <= 30 {
                    let right = sheet.cell(m + 30, s).unwrap().box_in_input;
                    assert!(b[2] <= right[0] + 5.0, "{name}: {m} not left of {}", m + 30);
                }
                if m > 1 && m != 31 {
                    let above = sheet.cell(m - 1, s).unwrap().box_in_input;
                    // (boxes in the input are axis-aligned around cells of a page skewed by about
                    // 1 degree: neighbours overlap by up to width x sin(skew))
                    let slack = 1.0 + 0.03 * (b[2] - b[0]);
                    assert!(above[3] <= b[1] + slack, "{name}: {m} not below {} ({above:?} {b:?} {s:?})", m - 1);
                    assert!(above[1] + above[3] + 20.0 < b[1] + b[3], "{name}: {m} not a row below {}", m - 1);
                }
            }
        }
        // game 001 page 0 is written up to move 31 (black resigned); move 50 is blank
        if name == "hcs_001_0.jpg" {
            assert!(!sheet.cell(10, Side::White).unwrap().blank);
            assert!(!sheet.cell(31, Side::Black).unwrap().blank);
            assert!(sheet.cell(50, Side::White).unwrap().blank);
        }
        let json = serde_json::to_value(&sheet).unwrap();
        assert_eq!(json["cells"][0]["move"], 1);
        assert_eq!(json["cells"][0]["side"], "white");
        assert_eq!(json["cells"][0]["box"].as_array().unwrap().len(), 4);
    }
}

/// The sheet the page stage reads from `tests/data/NAME`, and its blocks: (first move, rows,
/// numbered from printed numbers).
fn blocks_of_test_image(name: &str) -> (page::Sheet, Vec<(u32, u32, bool)>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
    let img = page::load(&path).unwrap().remove(0);
    let sheet = page::segment(&img).unwrap();
    let blocks = sheet.blocks.iter().map(|b| (b.first_move, b.rows, b.printed_numbers)).collect();
    (sheet, blocks)
}

#[test]
fn blocks_lost_to_their_rulings_are_placed_beside_a_block_found_where_their_numbers_read() {
    // (the 1970 Olympiad sheet: two pages side by side, 1-20 | 21-40 and 41-60 | 61-80, dotted
    // rows; the rows of 21-40 and 41-60 are broken by dense handwriting, which lies across the
    // printed numbers 41-60 in cyan ink; the right page lies askew, 41-60 half a row higher than
    // 61-80 beside it)
    let (sheet, blocks) = blocks_of_test_image("olympiad1970_filled.jpg");
    assert_eq!(blocks, [(1, 20, true), (21, 20, true), (41, 20, true), (61, 20, true)]);
    assert_eq!(sheet.cells.len(), 160);
    let cell = |m: u32, side: Side| sheet.cell(m, side).unwrap_or_else(|| panic!("no cell {m} {side:?}")).box_in_input;
    let middle_y = |b: [f32; 4]| 0.5 * (b[1] + b[3]);
    for m in 1..=20 {
        for (left, right) in [(m, m + 20), (m + 40, m + 60)] {
            let (a, b) = (cell(left, Side::Black), cell(right, Side::White));
            assert!(a[2] <= b[0] + 5.0, "{left} left of {right}");
            // (the blocks of one page side by side, row by row, within the page's tilt)
            let height = a[3] - a[1];
            assert!((middle_y(a) - middle_y(b)).abs() < 0.75 * height, "{left} and {right} in one row: {a:?} {b:?}");
        }
    }
    // (the cells in reading order, as every page's)
    let order: Vec<u32> = sheet.cells.iter().map(|c| c.mv).collect();
    assert!(order.windows(2).all(|pair| pair[0] <= pair[1]), "{order:?}");
}

#[test]
fn a_form_printed_in_old_style_figures_is_read_from_its_first_row_to_its_last() {
    // (the 1909 Rice Chess Club sheet: WHITE | No | BLACK twice, 1-35 | 36-70, no ruling down the
    // table's left side and faint row rulings broken by the handwriting; the first row under each
    // heading printed taller than the rest, its numbers in old-style figures, "1" as short as a
    // lower-case letter and "35" descending below the line)
    let (sheet, blocks) = blocks_of_test_image("rice_club_1909_filled.jpg");
    assert_eq!(blocks, [(1, 35, true), (36, 35, true)]);
    // (White's cells as wide as Black's: the WHITE column runs to the page's left edge)
    for m in [1, 20, 35] {
        let width = |side: Side| {
            let b = sheet.cell(m, side).unwrap().box_in_input;
            b[2] - b[0]
        };
        let (white, black) = (width(Side::White), width(Side::Black));
        assert!((white - black).abs() < 0.1 * black, "move {m}: White {white} px wide, Black {black}");
    }
}

#[test]
fn a_form_printed_lightest_on_tinted_paper_is_read_from_its_print_image() {
    // (a `us-tournament` sheet of our generator, printed at 0.15 of its contrast on yellowish
    // paper and scanned: the rulings about 10 grey levels under the paper, the scan's grain as
    // large; neither binary of the grey page shows a row of it)
    let (sheet, blocks) = blocks_of_test_image("us_tournament_faint_tinted_scan.jpg");
    assert_eq!(blocks, [(1, 25, true), (26, 25, true)]);
    assert_eq!(sheet.cells.len(), 100);
    // (the generator's true boxes of the four corner cells)
    let truth = [
        (1, Side::White, [213.0, 558.0, 514.0, 615.0]),
        (25, Side::Black, [521.0, 1853.0, 849.0, 1910.0]),
        (26, Side::White, [971.0, 553.0, 1293.0, 610.0]),
        (50, Side::Black, [1300.0, 1848.0, 1606.0, 1905.0]),
    ];
    for (m, side, expected) in truth {
        let found = sheet.cell(m, side).unwrap_or_else(|| panic!("no cell {m} {side:?}")).box_in_input;
        let found = found.map(|v| v as f64);
        assert!(iou(found, expected) >= 0.7, "cell {m} {side:?}: {found:?} vs {expected:?}");
    }
}

#[test]
fn a_score_books_continuation_heading_is_no_move_row() {
    // (a `scorebook-p2` sheet of our generator, scanned: moves 31-60 under a heading row
    // "N. | Bianco | Nero" taller than the move rows, its titles centred in the move cells and
    // its "N." read as a number, which the rows below would number 30)
    let (sheet, blocks) = blocks_of_test_image("scorebook_continuation_scan.jpg");
    assert_eq!(blocks, [(31, 30, true)]);
    assert_eq!(sheet.cells.len(), 60);
    // (the generator's true boxes of the first and last cells)
    let truth = [(31, Side::White, [193.0, 134.0, 509.0, 167.0]), (60, Side::Black, [515.0, 971.0, 810.0, 1003.0])];
    for (m, side, expected) in truth {
        let found = sheet.cell(m, side).unwrap_or_else(|| panic!("no cell {m} {side:?}")).box_in_input;
        let found = found.map(|v| v as f64);
        assert!(iou(found, expected) >= 0.7, "cell {m} {side:?}: {found:?} vs {expected:?}");
    }
}

#[test]
fn small_scans_are_read_enlarged_with_boxes_in_their_own_pixels() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hcs_073_0.jpg");
    let full_size = page::load(&path).unwrap().remove(0).to_luma8();
    let full = page::segment_gray(&full_size).unwrap();
    // (300 to 380 px wide: rows 10 to 13 px apart, the printed numbers 5 or 6 px high)
    for w in [300, 340, 380] {
        let h = full_size.height() * w / full_size.width();
        let small = image::imageops::resize(&full_size, w, h, image::imageops::FilterType::Triangle);
        let sheet = page::segment_gray(&small).unwrap_or_else(|e| panic!("{w} px: {e}"));
        assert_eq!(sheet.cells.len(), 120, "{w} px");
        assert!(sheet.cells.iter().all(|c| !c.numbering_guessed), "{w} px: rows numbered from their printed numbers");
        let shrink = w as f64 / full_size.width() as f64;
        for cell in &sheet.cells {
            let in_small = cell.box_in_input.map(|v| v as f64);
            assert!(in_small[2] <= w as f64 && in_small[3] <= h as f64, "{in_small:?} outside the small image");
            let expected = full.cell(cell.mv, cell.side).unwrap().box_in_input.map(|v| v as f64 * shrink);
            assert!(iou(in_small, expected) >= 0.7, "cell {} {:?}: {in_small:?} vs {expected:?}", cell.mv, cell.side);
            // (the input-to-page transform takes the small image's pixels)
            let (cx, cy) = sheet.to_page.apply(0.5 * (in_small[0] + in_small[2]), 0.5 * (in_small[1] + in_small[3]));
            let straight = cell.box_straight.map(|v| v as f64);
            assert!(straight[0] <= cx && cx <= straight[2] && straight[1] <= cy && cy <= straight[3]);
        }
    }
}

#[test]
fn bad_files_are_errors_naming_the_file() {
    let dir = std::env::temp_dir().join(format!("scoresheet-page-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let garbage = dir.join("garbage.png");
    std::fs::write(&garbage, b"\x89PNG\r\n\x1a\nthis is not a png").unwrap();
    let e = page::load(&garbage).unwrap_err();
    assert!(e.to_string().contains("garbage.png"), "{e}");
    let missing = dir.join("missing.jpg");
    let e = page::load(&missing).unwrap_err();
    assert!(e.to_string().contains("missing.jpg"), "{e}");
    let text = dir.join("notes.txt");
    std::fs::write(&text, "hello").unwrap();
    assert!(page::load(&text).unwrap_err().to_string().contains("notes.txt"));
    // a PNG header claiming a huge image is refused by the limits, not decoded
    let huge = dir.join("huge.png");
    let mut png = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut png, 1, 1);
        enc.set_color(png::ColorType::Grayscale);
        enc.write_header().unwrap().write_image_data(&[0]).unwrap();
    }
    // patch the IHDR width/height to 100000 x 100000 (CRC now wrong: still an error, not an OOM)
    png[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    png[20..24].copy_from_slice(&100_000u32.to_be_bytes());
    std::fs::write(&huge, &png).unwrap();
    assert!(page::load(&huge).unwrap_err().to_string().contains("huge.png"));
    // multi-page TIFF: every page
    let tif = dir.join("two.tif");
    {
        let f = std::fs::File::create(&tif).unwrap();
        let mut enc = tiff::encoder::TiffEncoder::new(f).unwrap();
        let a = vec![200u8; 64 * 48];
        enc.write_image::<tiff::encoder::colortype::Gray8>(64, 48, &a).unwrap();
        enc.write_image::<tiff::encoder::colortype::Gray8>(64, 48, &a).unwrap();
    }
    let pages = page::load(&tif).unwrap();
    assert_eq!(pages.len(), 2);
    assert!(matches!(pages[0], DynamicImage::ImageLuma8(_)));
    let _ = std::fs::remove_dir_all(&dir);
}

/// How [`grid_form`] draws a form.
#[derive(Clone, Copy, Default)]
struct Style {
    /// heading row above each block: a small mark ("#", smaller than the numbers) in the number
    /// cell and a grey fill over the move columns
    heading_mark: bool,
    /// gaps cut into every row ruling (broken, faint print)
    broken: bool,
    /// a long pen stroke through the middle of some move rows
    strokes: bool,
    /// gap between blocks side by side (a narrow white strip between two border lines)
    gap: i64,
    /// row rulings (the bottom border included) lost at the foot of the first block
    lost_foot: i64,
    /// heading row above each block without fill: a "#" nearly as tall as the numbers and a title
    /// centred in each move cell, both titles on one baseline
    tall_mark: bool,
    /// the first row rulings below the heading printed faint, binarizing as short dashes (the top
    /// of a photo out of focus)
    dashed_top: i64,
    /// the first block's first two numbers too faint to read and its right ruling broken just
    /// below the heading (found only from there down)
    faint_head: bool,
    /// a line of text below the first block, unruled, its first letters in the number column
    /// (of the digits' height), and the block's left ruling running on down beside it
    footer: bool,
    /// a heading filled dark over the whole block, and the first number printed thin and light
    /// (a photo's blur)
    dark_heading: bool,
    /// the first row's two moves written alike, centred in their cells on one baseline
    centred_first: bool,
    /// the column rulings inside each block printed as dashes 6 px long, 2 px apart (a faint
    /// ruling of a photo binarizes so): no piece is long enough for a ruling
    dashed_columns: bool,
    /// the border between blocks side by side a double line, 3 and 4 px thick, 2 px apart (blurred
    /// into one thick line)
    double_border: bool,
    /// large handwriting in the first block's white column: in rows 3-22 a letter's stem at one
    /// place, give or take 2 px, touching both row rulings (the stems line up into a ragged line,
    /// its ink within 1.7 px of its line on average)
    stems: bool,
    /// stems in rows 1-29 of 30, two side by side touching: the ragged line runs nearly the
    /// column's length, twice as wide as a ruling
    long_stems: bool,
    /// with `long_stems`, the second letter's stem 1 px wide: the two under twice a ruling's width
    narrow_long_stems: bool,
    /// the row rulings inside the number columns fade out over their left 13 px (of 40; a faint
    /// ruling beside bold digits and a thick border in a scan)
    faded_number_rulings: bool,
    /// a heading row 4 px lower than the move rows, its number cell holding "No" printed as one
    /// blob wider than a digit, its titles not centred
    no_heading: bool,
}

/// A form of `cols` x `stacks` blocks (number, white, black), `rows` rows each, numbered in
/// reading order (the top band of blocks left to right, then the next band) from 1.
fn grid_form(cols: u32, stacks: u32, rows: u32, style: Style, seed: u64) -> (GrayImage, Vec<(u32, Side, [f64; 4])>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (nw, mw, rh) = (40i64, 130i64, 30i64);
    let bw = nw + 2 * mw;
    let gap = if style.gap > 0 { style.gap } else { 30 };
    let vgap = 90i64;
    let (mx, my) = (60i64, 120i64);
    let bh = (rows as i64 + 1) * rh;
    let w = mx * 2 + cols as i64 * bw + (cols as i64 - 1) * gap;
    let h = my * 2 + stacks as i64 * bh + (stacks as i64 - 1) * vgap;
    let mut img = GrayImage::from_pixel(w as u32, h as u32, Luma([235]));
    let mut truth = Vec::new();
    rect(&mut img, mx, 40, mx + 300, 44, 40);
    let mut mv = 1;
    for sy in 0..stacks as i64 {
        for b in 0..cols as i64 {
            let x0 = mx + b * (bw + gap);
            let top = my + sy * (bh + vgap);
            // (a lower heading: its top ruling 4 px down)
            let head = if style.no_heading { 4 } else { 0 };
            for r in 0..=rows as i64 + 1 {
                let y = top + r * rh + if r == 0 { head } else { 0 };
                rect(&mut img, x0, y - 1, x0 + bw + 1, y + 1, 20);
                if r >= 2 && r < 2 + style.dashed_top {
                    // dashes 8 px long, 6 px apart, far shorter than a ruling is looked for
                    for gx in (x0 + 2..x0 + bw - 1).step_by(14) {
                        rect(&mut img, gx + 8, y - 1, (gx + 14).min(x0 + bw - 1), y + 1, 235);
                    }
                }
                if style.faded_number_rulings && r >= 1 && r <= rows as i64 {
                    rect(&mut img, x0 + 2, y - 1, x0 + 15, y + 1, 235);
                }
                if style.broken && r > 1 {
                    for _ in 0..2 {
                        let gx = x0 + rng.gen_range(5..bw - 30);
                        rect(&mut img, gx, y - 1, gx + rng.gen_range(8..25), y + 1, 235);
                    }
                }
            }
            if sy == 0 && b == 0 {
                for r in rows as i64 + 2 - style.lost_foot..=rows as i64 + 1 {
                    let y = top + r * rh;
                    rect(&mut img, x0 - 2, y - 1, x0 + bw + 2, y + 1, 235);
                }
            }
            for (i, x) in [x0, x0 + nw, x0 + nw + mw, x0 + bw].into_iter().enumerate() {
                if style.dashed_columns && (i == 1 || i == 2) {
                    for y in (top + head..top + bh + 1).step_by(8) {
                        rect(&mut img, x - 1, y, x + 1, (y + 6).min(top + bh + 1), 20);
                    }
                } else if style.double_border && ((i == 3 && b + 1 < cols as i64) || (i == 0 && b > 0)) {
                    // (the two lines of the double border: the right one 4 px thick, the left 3)
                    if i == 3 {
                        rect(&mut img, x - 1, top + head, x + 2, top + bh + 1, 20);
                    } else {
                        rect(&mut img, x - 2, top + head, x + 2, top + bh + 1, 20);
                    }
                } else {
                    rect(&mut img, x - 1, top + head, x + 1, top + bh + 1, 20);
                }
            }
            if style.no_heading {
                // "No" run together: one blob 24 x 11 px
                rect(&mut img, x0 + 7, top + head + 8, x0 + 31, top + head + 19, 30);
                rect(&mut img, x0 + 10, top + head + 10, x0 + 17, top + head + 17, 235);
                rect(&mut img, x0 + 21, top + head + 12, x0 + 28, top + head + 17, 235);
                // titles at the left of the move cells, not centred
                for k in 0..2 {
                    let cx = x0 + nw + k * mw + 8;
                    for i in 0..4 {
                        rect(&mut img, cx + i * 10, top + head + 8, cx + i * 10 + 7, top + head + 18 - 3 * k, 40);
                    }
                }
            }
            if style.footer && sy == 0 && b == 0 {
                rect(&mut img, x0 - 1, top + bh, x0 + 1, top + bh + 3 * rh, 20);
                for (i, n) in [13, 18, 88, 31, 8].into_iter().enumerate() {
                    number(&mut img, x0 + 7 + 30 * i as i64, top + bh + 7, n, 3);
                }
            }
            let faint_head = style.faint_head && sy == 0 && b == 0;
            if faint_head {
                rect(&mut img, x0 + bw - 1, top + rh + 3, x0 + bw + 1, top + rh + 10, 235);
            }
            if style.heading_mark {
                rect(&mut img, x0 + nw + 2, top + 2, x0 + bw - 1, top + rh - 1, 190);
                // "#": smaller than the printed numbers
                rect(&mut img, x0 + 16, top + 10, x0 + 18, top + 20, 30);
                rect(&mut img, x0 + 22, top + 10, x0 + 24, top + 20, 30);
                rect(&mut img, x0 + 13, top + 12, x0 + 27, top + 14, 30);
                rect(&mut img, x0 + 13, top + 16, x0 + 27, top + 18, 30);
            }
            if style.dark_heading {
                rect(&mut img, x0, top, x0 + bw, top + rh, 30);
            }
            if style.tall_mark {
                // "#" 12 px high beside numbers 15 px high
                rect(&mut img, x0 + 12, top + 9, x0 + 15, top + 21, 30);
                rect(&mut img, x0 + 20, top + 9, x0 + 23, top + 21, 30);
                rect(&mut img, x0 + 9, top + 11, x0 + 27, top + 13, 30);
                rect(&mut img, x0 + 9, top + 16, x0 + 27, top + 18, 30);
                for k in 0..2 {
                    let cx = x0 + nw + k * mw + mw / 2;
                    for i in 0..5 {
                        rect(&mut img, cx - 25 + i * 10, top + 10, cx - 25 + i * 10 + 7, top + 19, 40);
                    }
                }
            }
            for r in 0..rows as i64 {
                let y = top + (r + 1) * rh;
                if style.dark_heading && r == 0 && sy == 0 && b == 0 {
                    // "1" thin and light grey: ink in the rulings' binary only
                    rect(&mut img, x0 + 9, y + 9, x0 + 11, y + 24, 204);
                } else if faint_head && r < 2 {
                    // printed light: lost at the analysis scale, read at full resolution
                    number_in(&mut img, x0 + 5, y + 7, mv, 3, 185);
                } else {
                    number(&mut img, x0 + 5, y + 7, mv, 3);
                }
                for (k, side) in [(0, Side::White), (1, Side::Black)] {
                    let cx = x0 + nw + k * mw;
                    truth.push((mv, side, [cx as f64, y as f64, (cx + mw) as f64, (y + rh) as f64]));
                    if style.centred_first && r == 0 {
                        for i in 0..3 {
                            rect(
                                &mut img,
                                cx + mw / 2 - 25 + i * 18,
                                y + 10,
                                cx + mw / 2 - 25 + i * 18 + 12,
                                y + 20,
                                50,
                            );
                        }
                    }
                    let stem_rows = if style.long_stems { 1..rows as i64 } else { 3..23 };
                    if (style.stems || style.long_stems) && sy == 0 && b == 0 && k == 0 && stem_rows.contains(&r) {
                        const JITTER: [i64; 20] = [0, 2, -2, 1, -1, 2, 0, -2, 1, 2, -1, 0, -2, 2, 1, -1, 0, 2, -2, 1];
                        let sx = cx + 40 + JITTER[(r as usize + 17) % 20];
                        rect(&mut img, sx, y - 1, sx + 3, y + rh + 1, 45);
                        if style.long_stems {
                            // (a second letter's stem beside it, the two a line twice a ruling's width)
                            let second = if style.narrow_long_stems { 1 } else { 5 };
                            rect(&mut img, sx + 3, y - 1, sx + 3 + second, y + rh + 1, 45);
                        }
                        rect(&mut img, sx, y + 12, sx + 14, y + 15, 45);
                    }
                    if style.strokes && k == 0 && r % 5 == 2 {
                        // a long, thin pen stroke through the middle of the row
                        rect(&mut img, cx + 20, y + 14, cx + mw - 15, y + 16, 45);
                    }
                }
                mv += 1;
            }
        }
    }
    (img, truth)
}

#[test]
fn three_blocks_side_by_side_with_headings() {
    // narrow strips between the blocks, a heading row with a small "#" above every number column
    let style = Style { heading_mark: true, gap: 8, ..Style::default() };
    let (img, truth) = grid_form(3, 1, 20, style, 11);
    assert_eq!(first_moves(&check(&img, &truth)), [1, 21, 41]);
}

#[test]
fn stacked_blocks_read_in_bands() {
    // two bands of two blocks: numbering runs left to right, then down
    let (img, truth) = grid_form(2, 2, 15, Style { heading_mark: true, ..Style::default() }, 12);
    assert_eq!(first_moves(&check(&img, &truth)), [1, 16, 31, 46]);
}

#[test]
fn broken_rulings_and_pen_strokes_keep_every_row() {
    let style = Style { broken: true, strokes: true, ..Style::default() };
    let (img, truth) = grid_form(2, 1, 30, style, 13);
    check(&img, &truth);
}

#[test]
fn photographed_sheet_with_perspective() {
    // the drawn form photographed at an angle: a keystone warp onto a dark table, so the paper's
    // edge is the strongest line on the picture
    let (img, truth) = grid_form(2, 1, 30, Style::default(), 14);
    let (w, h) = (img.width() as f64, img.height() as f64);
    let (ow, oh) = ((w * 1.25) as u32, (h * 1.2) as u32);
    // paper corners in the photo: top edge narrower (tilted away), a slight rotation
    let dst = [(0.16 * w, 0.10 * h), (1.06 * w, 0.13 * h), (1.13 * w, 1.10 * h), (0.08 * w, 1.07 * h)];
    let src = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)];
    let fwd = page::Homography::from_points(&src, &dst).unwrap();
    let back = fwd.inverse().unwrap();
    let photo = GrayImage::from_fn(ow, oh, |x, y| {
        let (sx, sy) = back.apply(x as f64 + 0.5, y as f64 + 0.5);
        if sx < 0.0 || sy < 0.0 || sx >= w || sy >= h { Luma([40]) } else { *img.get_pixel(sx as u32, sy as u32) }
    });
    let truth: Vec<_> = truth
        .iter()
        .map(|(m, s, b)| {
            let pts = [fwd.apply(b[0], b[1]), fwd.apply(b[2], b[1]), fwd.apply(b[2], b[3]), fwd.apply(b[0], b[3])];
            let bx = [
                pts.iter().map(|p| p.0).fold(f64::MAX, f64::min),
                pts.iter().map(|p| p.1).fold(f64::MAX, f64::min),
                pts.iter().map(|p| p.0).fold(f64::MIN, f64::max),
                pts.iter().map(|p| p.1).fold(f64::MIN, f64::max),
            ];
            (*m, *s, bx)
        })
        .collect();
    let sheet = check(&photo, &truth);
    assert!(sheet.perspective);
}

#[test]
fn block_missing_its_last_rulings_takes_the_rows_beside_it() {
    // the last three row rulings and the bottom border of the left block are lost
    let (img, truth) = grid_form(2, 1, 30, Style { lost_foot: 4, ..Style::default() }, 15);
    check(&img, &truth);
}

#[test]
fn heading_with_a_mark_as_tall_as_the_numbers() {
    // a heading row of the move rows' height, unfilled, whose "#" is nearly as tall as the digits,
    // with centred titles: no move row (the labels would run one row off)
    let style = Style { tall_mark: true, gap: 8, ..Style::default() };
    let (img, truth) = grid_form(3, 1, 20, style, 16);
    assert_eq!(first_moves(&check(&img, &truth)), [1, 21, 41]);
}

#[test]
fn continuation_page_with_touching_digits_starts_at_41() {
    // a page of 40 rows numbered 41-80 whose printed digits run together (blurred print): the
    // numbers' widths, all alike, tell it from a first page (1-9 half as wide)
    let (mut img, truth) = form(1, 40, 41, 10, 3);
    // close the gap between the digits: a bar joining them in every number cell
    for r in 0..40i64 {
        let y = 120 + (r + 1) * 30;
        rect(&mut img, 60 + 6 + 8, y + 7 + 6, 60 + 6 + 13, y + 7 + 9, 30);
    }
    let sheet = check(&img, &truth);
    assert_eq!(sheet.blocks[0].first_move, 41);
}

#[test]
fn faint_dashed_rulings_at_the_top_keep_every_row() {
    // the ten row rulings below the heading binarize as dashes (HCS 008_1: the top of the photo
    // out of focus): the rows run on up to the heading where the number column's digits go on and
    // a ruling is seen in the dashes (the labels would run ten rows off)
    let style = Style { dashed_top: 10, ..Style::default() };
    let (img, truth) = grid_form(2, 1, 30, style, 17);
    assert_eq!(first_moves(&check(&img, &truth)), [1, 31]);
}

#[test]
fn block_with_unread_first_numbers_takes_the_rows_beside_it() {
    // the first two numbers of the left block, printed light, do not read at the analysis scale,
    // and its right ruling, broken below the heading, is found only from the second row down (HCS
    // 007_0): the rows of the block beside it are taken where ink runs on along the ruling's line
    // (the block would start at 3), and the printed numbers read at full resolution number them
    let (img, truth) = grid_form(2, 1, 30, Style { faint_head: true, ..Style::default() }, 18);
    assert_eq!(first_moves(&check(&img, &truth)), [1, 31]);
}

#[test]
fn footer_text_below_the_table_is_no_row() {
    // a footer line below the table ("CIRCLE CORRECT RESULT", HCS 047_1) whose first letters in
    // the number column read like digits, beside the form's outer frame: no row without a ruling
    // below it (the numbers of the next block would run one off)
    let (img, truth) = grid_form(2, 1, 30, Style { footer: true, ..Style::default() }, 19);
    assert_eq!(first_moves(&check(&img, &truth)), [1, 31]);
}

#[test]
fn thin_first_number_under_a_dark_heading_keeps_its_row() {
    // a single block whose first number, thin and light under a heading filled dark, is lost in
    // the glyphs' binary (long-column photo, synthetic seed 46 sheet 32): the first row is read in
    // the rulings' more permissive binary (every label would run one row off)
    let (img, truth) = grid_form(1, 1, 40, Style { dark_heading: true, ..Style::default() }, 20);
    let sheet = check(&img, &truth);
    assert_eq!(sheet.blocks[0].first_move, 1);
}

#[test]
fn continuation_page_whose_first_number_lost_a_digit_starts_at_41() {
    // a page of 40 rows numbered 41-80 whose first number lost its "4" (synthetic seed 46 sheet
    // 32_p2): 9-48 fits one row better, but 41 follows a whole page of 40 rows
    let (mut img, truth) = form(1, 40, 41, 10, 21);
    rect(&mut img, 60 + 6, 120 + 30 + 7, 60 + 6 + 9, 120 + 30 + 7 + 15, 235);
    let sheet = check(&img, &truth);
    assert_eq!(sheet.blocks[0].first_move, 41);
}

#[test]
fn thin_first_number_beside_centred_moves_keeps_its_row() {
    // as above, with the first row's two moves centred in their cells on one baseline like a
    // heading's titles (long-column photo, synthetic seed 51 sheet 21): the number read in the
    // rulings' binary is of the digits' height, so the row is no heading
    let style = Style { dark_heading: true, centred_first: true, ..Style::default() };
    let (img, truth) = grid_form(1, 1, 40, style, 23);
    let sheet = check(&img, &truth);
    assert_eq!(sheet.blocks[0].first_move, 1);
}

#[test]
fn dashed_column_rulings_are_found() {
    // the rulings between the number, white and black columns binarize as short dashes (faint
    // print in a photo, synthetic three-block photos such as seed 45 sheet 14): found in the grey
    // page's vertical ridges, so every block keeps its number column (a block would be lost)
    let (img, truth) = grid_form(3, 1, 20, Style { dashed_columns: true, ..Style::default() }, 24);
    assert_eq!(first_moves(&check(&img, &truth)), [1, 21, 41]);
}

#[test]
fn double_border_of_unequal_lines_between_blocks() {
    // the border between blocks printed close together is a double line of a 3 px and a 4 px
    // line, 2 px apart, read as one thick line (synthetic seed 60 sheet 19): each of its two lines
    // is straight within a pixel of the mean offset, so it is a border (two blocks would merge)
    let (img, truth) = grid_form(3, 1, 20, Style { double_border: true, gap: 6, ..Style::default() }, 25);
    assert_eq!(first_moves(&check(&img, &truth)), [1, 21, 41]);
}

#[test]
fn lower_heading_with_a_no_blob_is_no_row() {
    // a heading row lower than the move rows whose "No" runs together into one blob wider than a
    // digit, beside titles that are not centred (club photo, synthetic seed 58 sheet 19): no digit
    // in an inked number cell above printed numbers makes it a heading (labels one row off)
    let (img, truth) = grid_form(2, 1, 25, Style { no_heading: true, ..Style::default() }, 26);
    assert_eq!(first_moves(&check(&img, &truth)), [1, 26]);
}

#[test]
fn continuation_page_with_broken_first_digits_starts_at_41() {
    // a page of 40 rows numbered 41-80 whose "5", "6" and "7" broke in two at their middle (small
    // print in a blurred photo, synthetic seed 42 sheet 24_p2): the halves, each below a digit's
    // height, count in the number's width, so 25 rows do not read as one-digit numbers (1-40)
    let (mut img, truth) = form(1, 40, 41, 10, 27);
    for r in 0..40i64 {
        let n = 41 + r;
        if (50..75).contains(&n) {
            let y = 120 + (r + 1) * 30 + 7;
            rect(&mut img, 60 + 6, y + 6, 60 + 6 + 9, y + 9, 235);
        }
    }
    let sheet = check(&img, &truth);
    assert_eq!(sheet.blocks[0].first_move, 41);
}

#[test]
fn handwriting_stems_lined_up_down_a_column_are_no_ruling() {
    // large handwriting whose letters' stems line up down the white column over 20 rows, touching
    // the row rulings (compact photo, synthetic seed 60 sheet 1): a ragged line that ends inside
    // the table, with no straight vertical ridge, is no ruling (the column would split in two)
    let (img, truth) = grid_form(2, 1, 30, Style { stems: true, ..Style::default() }, 28);
    assert_eq!(first_moves(&check(&img, &truth)), [1, 31]);
}

#[test]
fn handwriting_stems_lined_up_down_nearly_the_whole_column_are_no_ruling() {
    // the same stems over 29 of 30 rows (synthetic seed 780 sheets 104 and 174: writers starting
    // every move at one place): a line as long as the rulings, but twice as wide as they are
    let (img, truth) = grid_form(2, 1, 30, Style { long_stems: true, ..Style::default() }, 28);
    assert_eq!(first_moves(&check(&img, &truth)), [1, 31]);
}

#[test]
fn handwriting_stems_lined_up_down_the_whole_column_under_twice_a_rulings_width_are_no_ruling() {
    // the same with the two stems 4 px wide together, twice the rulings' 2 px: ink 1.2-1.7 px
    // off its line is a ruling printed ragged only where it is as wide as the rulings, give or
    // take a half (synthetic seed 780 sheets 33 and 72: a Black column split at a writer's stems
    // 1.85 times as wide as the rulings)
    let style = Style { long_stems: true, narrow_long_stems: true, ..Style::default() };
    let (img, truth) = grid_form(2, 1, 30, style, 28);
    assert_eq!(first_moves(&check(&img, &truth)), [1, 31]);
}

#[test]
fn number_rulings_faded_at_the_border_keep_the_number_column() {
    // the row rulings of the number column fade out beside the thick left border (a scan whose
    // faint rulings lose contrast beside bold digits, synthetic seed 55 sheet 34_p2): rulings
    // spanning the narrow column but for 40 % of its width still make its rows (the number
    // column would be lost and the page read as upside down)
    let style = Style { faded_number_rulings: true, ..Style::default() };
    let (img, truth) = grid_form(2, 1, 30, style, 29);
    assert_eq!(first_moves(&check(&img, &truth)), [1, 31]);
}

#[test]
fn faint_rulings_out_of_focus_are_found_at_half_the_size() {
    // a distant photo's table out of focus (the FIDE 2018 photo): rulings at a seventh of their
    // contrast blurred over several pixels, no ridge at the analysed size; the printed numbers
    // blurred too, so the blocks are counted
    let (img, truth) = form(2, 30, 1, 0, 30);
    let (w, h) = (img.width(), img.height());
    let enlarged = image::imageops::resize(&img, 2 * w, 2 * h, image::imageops::FilterType::Triangle);
    let faint = GrayImage::from_fn(2 * w, 2 * h, |x, y| {
        let v = enlarged.get_pixel(x, y).0[0] as f64;
        Luma([(235.0 - (235.0 - v) / 7.0).round() as u8])
    });
    let blurred = imageproc::filter::gaussian_blur_f32(&faint, 6.0);
    let truth: Vec<_> = truth.iter().map(|&(m, s, b)| (m, s, b.map(|v| 2.0 * v))).collect();
    assert_eq!(first_moves(&check(&blurred, &truth)), [1, 31]);
}

/// A form of two blocks of 20 rows, each No | White | clock | Black | clock, its number column
/// nearly as wide as the moves (76 px beside 86, as a table with clock columns in a narrow page
/// prints it), the writer's times in the clock columns, wandering up and down by a few pixels.
fn form_with_wide_number_columns() -> (GrayImage, Vec<(u32, Side, [f64; 4])>) {
    let widths = [76i64, 86, 51, 86, 51];
    let block_w: i64 = widths.iter().sum();
    let (rows, row_h, gap, margin, top) = (20i64, 30i64, 30i64, 60i64, 120i64);
    let w = 2 * margin + 2 * block_w + gap;
    let h = 2 * top + (rows + 1) * row_h;
    let mut img = GrayImage::from_pixel(w as u32, h as u32, Luma([235]));
    let mut truth = Vec::new();
    for block in 0..2i64 {
        let x0 = margin + block * (block_w + gap);
        for r in 0..=rows + 1 {
            rect(&mut img, x0, top + r * row_h - 1, x0 + block_w + 1, top + r * row_h + 1, 20);
        }
        let mut x = x0;
        let mut edges = vec![x0];
        for width in widths {
            x += width;
            edges.push(x);
        }
        for &x in &edges {
            rect(&mut img, x - 1, top, x + 1, top + (rows + 1) * row_h + 1, 20);
        }
        for r in 0..rows {
            let y = top + (r + 1) * row_h;
            let n = (block * rows + r + 1) as u32;
            number(&mut img, edges[0] + 30, y + 7, n, 3);
            for (side, column) in [(Side::White, 1), (Side::Black, 3)] {
                truth.push((n, side, [edges[column] as f64, y as f64, edges[column + 1] as f64, (y + row_h) as f64]));
            }
            if block == 0 {
                // the times left on the clock, written after each move
                let wander = [0, 3, -3, 2, -2][r as usize % 5];
                for clock in [2, 4] {
                    number(&mut img, edges[clock] + 12, y + 7 + wander, 59 - r as u32, 3);
                }
            }
        }
    }
    (img, truth)
}

#[test]
fn a_number_column_nearly_as_wide_as_the_moves_is_told_by_its_printed_numbers() {
    // (by width alone the number column pairs with White's as two move columns, and the clock
    // column between White's and Black's, its times of one height, is taken for the numbers)
    let (img, truth) = form_with_wide_number_columns();
    let sheet = check(&img, &truth);
    assert_eq!(first_moves(&sheet), [1, 21]);
    assert!(sheet.blocks.iter().all(|b| b.printed_numbers));
}
