//! Prints a form onto a canvas (or a window of one): rules, shading, headings, move numbers,
//! labels, result choices, frames and side tables; and header values printed by software.

use std::collections::BTreeMap;

use super::fonts::{self, LoadedFont};
use super::forms::{self, Align, Block, Column, FieldLine, Form, FormStyle, ResultMarks, RowLine, Side, Table};
use super::raster::{Canvas, Placed, polyline, printed_text, printed_width, rasterize};

/// Printed text at (`x`, baseline `y`); `light` paints it (light on dark) instead of inking it.
#[allow(clippy::too_many_arguments)]
fn text(canvas: &mut Canvas, font: &LoadedFont, s: &str, size: f32, x: f32, y: f32, color: [u8; 3], light: bool) {
    let w = printed_width(font, s, size);
    if !canvas.sees([x, y - size * 1.4, x + w, y + size * 0.5]) {
        return;
    }
    let (glyphs, _): (Vec<Placed>, f32) = printed_text(font, s, size, x, y);
    let m = rasterize(&glyphs, &[], 1);
    if light {
        canvas.paint(&m, color);
    } else {
        canvas.ink(&m, color, 1.0);
    }
}

/// Text centred in the box [x0, y0, x1, y1], shrunk to fit its width; light on a dark `fill`.
#[allow(clippy::too_many_arguments)]
fn centred(
    canvas: &mut Canvas,
    font: &LoadedFont,
    s: &str,
    size: f32,
    b: [f32; 4],
    ink: [u8; 3],
    fill: Option<[u8; 3]>,
) {
    let mut size = size;
    let mut tw = printed_width(font, s, size);
    if tw > b[2] - b[0] - 4.0 {
        size *= (b[2] - b[0] - 6.0).max(4.0) / tw;
        tw = printed_width(font, s, size);
    }
    let dark = fill.is_some_and(forms::is_dark);
    let color = if dark { [245, 245, 245] } else { ink };
    text(canvas, font, s, size, b[0] + (b[2] - b[0] - tw) / 2.0, (b[1] + b[3]) / 2.0 + size * 0.5, color, dark);
}

/// The bold face of a printed font.
fn bold_of(font: &str) -> &'static LoadedFont {
    fonts::printed_named(if font.contains("serif") { "dejavu-serif-bold" } else { "dejavu-sans-bold" })
}

/// A row's rule: solid, dotted or dashed.
fn row_rule(canvas: &mut Canvas, x0: f32, x1: f32, y: f32, t: f32, color: [u8; 3], kind: RowLine) {
    match kind {
        RowLine::Solid => canvas.hline(x0, x1, y, t, color),
        RowLine::Dotted => {
            let dot = t.max(1.5);
            canvas.broken_hline(x0, x1, y, dot, color, dot, dot * 1.8);
        }
        RowLine::Dashed => canvas.broken_hline(x0, x1, y, t, color, 9.0, 5.0),
    }
}

fn outline(canvas: &mut Canvas, r: [f32; 4], t: f32, color: [u8; 3]) {
    canvas.hline(r[0], r[2], r[1], t, color);
    canvas.hline(r[0], r[2], r[3], t, color);
    canvas.vline(r[0], r[1], r[3], t, color);
    canvas.vline(r[2], r[1], r[3], t, color);
}

/// A clock face: what some forms print over their clock columns instead of a word.
fn clock_face(canvas: &mut Canvas, b: [f32; 4], color: [u8; 3]) {
    let (cx, cy) = ((b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0);
    let r = (b[2] - b[0]).min(b[3] - b[1]) * 0.3;
    let pen = (r * 0.18).max(1.2);
    let ring: Vec<(f32, f32)> = (0..=24)
        .map(|i| {
            let a = i as f32 / 24.0 * std::f32::consts::TAU;
            (cx + r * a.cos(), cy + r * a.sin())
        })
        .collect();
    let mut polys = polyline(&ring, pen);
    polys.extend(polyline(&[(cx, cy - r * 0.65), (cx, cy), (cx + r * 0.5, cy)], pen));
    canvas.ink(&rasterize(&[], &polys, 1), color, 1.0);
}

/// Prints `form` in `style` onto `canvas`.
pub fn print_form(canvas: &mut Canvas, form: &Form, style: &FormStyle) {
    let ink = style.print;
    let bold = fonts::printed_named("dejavu-sans-bold");
    let label_font = label_font(style);
    let ts = style.text_scale;
    if !form.title.is_empty() {
        let size = 26.0 * ts;
        let w = printed_width(bold, form.title, size);
        text(canvas, bold, form.title, size, (form.width - w) / 2.0, 72.0 * ts, ink, false);
    }
    for r in &form.frames {
        outline(canvas, *r, style.thin, style.rules);
    }
    for b in &form.blocks {
        print_block(canvas, form, b, style);
    }
    for l in &form.lines {
        if l[1] == l[3] {
            canvas.hline(l[0], l[2], l[1], style.thick, style.rules);
        } else {
            canvas.vline(l[0], l[1], l[3], style.thick, style.rules);
        }
    }
    for t in &form.tables {
        print_table(canvas, t, style, label_font);
    }
    // Header fields and signature lines.
    for f in &form.fields {
        let [x0, y0, x1, y1] = f.rect;
        let size = ((y1 - y0) * 0.3).min(15.0 * ts);
        if f.line == FieldLine::Boxed {
            outline(canvas, f.rect, style.thin, style.rules);
            text(canvas, label_font, f.label, size, x0 + 6.0, y0 + size + 5.0, ink, false);
            continue;
        }
        let lw = printed_width(label_font, f.label, size);
        text(canvas, label_font, f.label, size, x0, y1 - 6.0, ink, false);
        match f.line {
            FieldLine::Underlined => canvas.hline(x0 + lw + 8.0, x1, y1 - 4.0, style.thin * 0.8, style.rules),
            FieldLine::Dotted => canvas.broken_hline(x0 + lw + 6.0, x1, y1 - 5.0, 1.6, style.rules, 1.6, 4.0),
            FieldLine::Boxed | FieldLine::Bare => {}
        }
    }
    for (label, r) in &form.result_boxes {
        let size = 16.0 * ts;
        let tw = printed_width(bold, label, size);
        let y = (r[1] + r[3]) / 2.0 + size * 0.5;
        match form.result_marks {
            ResultMarks::CheckBoxes => {
                let square = forms::check_box(*r);
                outline(canvas, square, style.thin.min(1.8), style.rules);
                text(canvas, bold, label, size, square[2] + size * 0.5, y, ink, false);
            }
            marks => {
                if marks == ResultMarks::Boxed {
                    outline(canvas, *r, style.thin, style.rules);
                }
                text(canvas, bold, label, size, (r[0] + r[2] - tw) / 2.0, y, ink, false);
            }
        }
    }
    for (label, x, y) in &form.notes {
        text(canvas, bold, label, 15.0 * ts, *x, *y, ink, false);
    }
}

/// The font of field labels and side tables: serif with serif digits, else condensed sans.
fn label_font(style: &FormStyle) -> &'static LoadedFont {
    fonts::printed_named(if style.digit_font.contains("serif") { "dejavu-serif" } else { "dejavu-sans-condensed" })
}

/// Prints one block: headings, shading, rules, move numbers, clock marks.
fn print_block(canvas: &mut Canvas, form: &Form, b: &Block, style: &FormStyle) {
    let ink = style.print;
    let digits = fonts::printed_named(style.digit_font);
    let (x0, x1) = (b.x, b.x + b.width());
    let (y0, y1) = (b.y, b.y + b.rows as f32 * b.row_h);
    let hy = y0 - b.heading_h;
    if b.heading_h > 0.0 {
        print_headings(canvas, form, b, style);
    }
    // Shading under the rules.
    if style.shade_numbers
        && let Some((nx, nw)) = b.column(Column::Number)
    {
        canvas.fill_rect(nx, y0, nx + nw, y1, style.number_fill, 1.0);
    }
    if let Some(fill) = style.black_fill {
        for kind in [Column::Moves(Side::Black), Column::Clock(Side::Black)] {
            if let Some((cx, w)) = b.column(kind) {
                canvas.fill_rect(cx, y0, cx + w, y1, fill, 1.0);
            }
        }
    }
    if let Some(fill) = style.alternate_fill {
        for r in (1..b.rows).step_by(2) {
            let ry = y0 + r as f32 * b.row_h;
            canvas.fill_rect(x0, ry, x1, ry + b.row_h, fill, 1.0);
        }
    }
    // Rules: rows, columns, outline.
    let rules = style.rules;
    let top = if b.heading_h > 0.0 { hy } else { y0 };
    if style.ruling.grid {
        for r in 0..=b.rows {
            let y = y0 + r as f32 * b.row_h;
            if r == 0 || r == b.rows {
                canvas.hline(x0, x1, y, style.thick, rules);
            } else {
                row_rule(canvas, x0, x1, y, style.thin, rules, style.ruling.rows);
            }
        }
        if b.heading_h > 0.0 {
            canvas.hline(x0, x1, hy, style.thick, rules);
        }
        let two_level = form.headings.players.is_some() && b.heading_h > 0.0;
        if two_level {
            // The rule between the players' words and the column words, under each player's span.
            for side in [Side::White, Side::Black] {
                if let Some((sx0, sx1)) = side_span(b, side) {
                    canvas.hline(sx0, sx1, hy + b.heading_h / 2.0, style.thin, rules);
                }
            }
        }
        let mut cx = x0;
        for (i, &(kind, w)) in b.columns.iter().enumerate() {
            // Within one player's columns the rule starts under the player's word.
            let same_player = i > 0 && kind.side().is_some() && b.columns[i - 1].0.side() == kind.side();
            let from = if two_level && same_player { hy + b.heading_h / 2.0 } else { top };
            if i == 0 || !number_unruled_at(b, style, i) {
                canvas.vline(cx, from, y1, if i == 0 { style.thick } else { style.thin }, rules);
            }
            cx += w;
        }
        canvas.vline(x1, top, y1, style.thick, rules);
    } else {
        // Open: each row ruled across, one rule before Black's moves, no frame.
        if b.heading_h > 0.0 {
            canvas.hline(x0, x1, y0, style.thick, rules);
        }
        for r in 1..=b.rows {
            let kind = if r == b.rows { RowLine::Solid } else { style.ruling.rows };
            row_rule(canvas, x0, x1, y0 + r as f32 * b.row_h, style.thin, rules, kind);
        }
        let black = b.columns.iter().position(|c| c.0 == Column::Moves(Side::Black));
        if let (Some((bx, _)), Some(i)) = (b.column(Column::Moves(Side::Black)), black)
            && !number_unruled_at(b, style, i)
        {
            canvas.vline(bx, top, y1, style.thin, rules);
        }
    }
    // Move numbers.
    let size = (b.row_h * style.digit_size).max(11.0);
    let number_place = match b.column(Column::Number) {
        Some(col) => Some((col, size)),
        None if form.number_in_cell => b.column(Column::Moves(Side::White)).map(|(wx, ww)| {
            let room = forms::number_room(b.row_h, ww);
            ((wx + room * 0.06, room * 0.94), size.min(room * 0.34))
        }),
        None => None,
    };
    if let Some(((nx, nw), size)) = number_place {
        let align =
            if form.number_in_cell && b.column(Column::Number).is_none() { Align::Left } else { style.number_align };
        for r in 0..b.rows {
            let move_no = b.first_move + r;
            let n = format!("{move_no}{}", style.number_suffix);
            let ry = y0 + r as f32 * b.row_h;
            if !canvas.sees([nx, ry, nx + nw, ry + b.row_h]) {
                continue;
            }
            let font =
                if style.bold_every_fifth && move_no.is_multiple_of(5) { bold_of(style.digit_font) } else { digits };
            let tw = printed_width(font, &n, size);
            let x = match align {
                Align::Centre => nx + (nw - tw) / 2.0,
                Align::Left => nx + nw * 0.12,
                Align::Right => nx + nw - tw - nw * 0.12,
            };
            text(canvas, font, &n, size, x, ry + b.row_h * 0.5 + size * 0.5, ink, false);
        }
    }
    if style.clock_colons {
        for side in [Side::White, Side::Black] {
            for r in 0..b.rows {
                if let Some(c) = b.cell_of(r, Column::Clock(side)) {
                    centred(canvas, digits, ":", size, c, ink, None);
                }
            }
        }
    }
}

/// Whether the rule at the left of column `i` is left out: it borders the number column and the
/// form prints its numbers unruled, between the moves.
fn number_unruled_at(b: &Block, style: &FormStyle, i: usize) -> bool {
    let borders_numbers = b.columns[i].0 == Column::Number || (i > 0 && b.columns[i - 1].0 == Column::Number);
    !style.ruling.number_ruled && borders_numbers
}

/// Left and right of a player's columns (moves and clock) in a block.
fn side_span(b: &Block, side: Side) -> Option<(f32, f32)> {
    let mut x = b.x;
    let mut span: Option<(f32, f32)> = None;
    for &(kind, w) in &b.columns {
        if kind.side() == Some(side) {
            span = Some(span.map_or((x, x + w), |(a, _)| (a, x + w)));
        }
        x += w;
    }
    span
}

/// The heading rows of a block: fills and words (one level, or the players' words over the
/// column words).
fn print_headings(canvas: &mut Canvas, form: &Form, b: &Block, style: &FormStyle) {
    let ink = style.print;
    let font = match style.headings {
        forms::HeadingShade::Original => fonts::printed_named("dejavu-sans-bold"),
        _ => bold_of(style.digit_font),
    };
    let (y0, hy) = (b.y, b.y - b.heading_h);
    let players = form.headings.players;
    // With two levels the column words sit in the lower half, the number's word over both.
    let word_top = if players.is_some() { hy + b.heading_h / 2.0 } else { hy };
    let level_h = y0 - word_top;
    let size = if players.is_some() {
        (level_h * 0.5).min(17.0 * style.text_scale)
    } else {
        (b.heading_h * 0.36).min(17.0 * style.text_scale)
    };
    let mut cx = b.x;
    for &(kind, w) in &b.columns {
        let mut fill = style.heading_fill(kind);
        if let Some(f) = fill {
            canvas.fill_rect(cx, hy, cx + w, y0, f, 1.0);
        }
        if kind.side() == Some(Side::Black)
            && let Some(f) = style.black_fill
        {
            canvas.fill_rect(cx, hy, cx + w, y0, f, 1.0);
            fill = fill.or(Some(f));
        }
        let label = form.headings.word(kind);
        let top = if kind == Column::Number { hy } else { word_top };
        let cell = [cx, top, cx + w, y0];
        if matches!(kind, Column::Clock(_)) && label.is_empty() {
            clock_face(canvas, cell, ink);
        } else if !label.is_empty() {
            let size = if kind == Column::Number && players.is_some() { size * 1.2 } else { size };
            if style.headings == forms::HeadingShade::Original {
                // The original forms' words: centred, never shrunk.
                let tw = printed_width(font, label, size);
                let dark = fill.is_some_and(forms::is_dark);
                let color = if dark { [245, 245, 245] } else { ink };
                let y = hy + b.heading_h * 0.5 + size * 0.5;
                text(canvas, font, label, size, cx + (w - tw) / 2.0, y, color, dark);
            } else {
                centred(canvas, font, label, size, cell, ink, fill);
            }
        }
        cx += w;
    }
    if let Some(words) = players {
        for (side, word) in [Side::White, Side::Black].into_iter().zip(words) {
            if let Some((sx0, sx1)) = side_span(b, side) {
                let fill = style.heading_fill(Column::Moves(side));
                centred(canvas, font, word, size * 1.15, [sx0, hy, sx1, word_top], ink, fill);
            }
        }
    }
}

/// A side table that holds no moves: ruled like a block, words in its first row and column.
fn print_table(canvas: &mut Canvas, t: &Table, style: &FormStyle, font: &LoadedFont) {
    let rules = style.rules;
    let width: f32 = t.widths.iter().sum();
    let rows = t.labels.len() + 1;
    for r in 0..=rows {
        let th = if r == 0 || r == rows { style.thick } else { style.thin };
        canvas.hline(t.x, t.x + width, t.y + r as f32 * t.row_h, th, rules);
    }
    let y1 = t.y + rows as f32 * t.row_h;
    let mut x = t.x;
    for (i, w) in t.widths.iter().enumerate() {
        canvas.vline(x, t.y, y1, if i == 0 { style.thick } else { style.thin }, rules);
        x += w;
    }
    canvas.vline(x, t.y, y1, style.thick, rules);
    let size = (t.row_h * 0.42).min(15.0 * style.text_scale);
    let mut x = t.x;
    for (word, w) in t.headings.iter().zip(&t.widths) {
        text(canvas, font, word, size, x + 6.0, t.y + t.row_h * 0.5 + size * 0.5, style.print, false);
        x += w;
    }
    for (r, word) in t.labels.iter().enumerate() {
        let y = t.y + (r + 1) as f32 * t.row_h + t.row_h * 0.5 + size * 0.5;
        text(canvas, font, word, size, t.x + 6.0, y, style.print, false);
    }
}

/// Prints the header values on a form whose header software fills in (the players, event,
/// round, board and date after their labels).
pub fn print_header(canvas: &mut Canvas, form: &Form, style: &FormStyle, header: &BTreeMap<String, String>) {
    let font = label_font(style);
    for f in &form.fields {
        let Some(value) = f.kind.header_key().and_then(|k| header.get(k)) else { continue };
        let [x0, y0, _, y1] = f.rect;
        let size = ((y1 - y0) * 0.3).min(15.0 * style.text_scale);
        let lw = printed_width(font, f.label, size);
        text(canvas, font, value, size * 1.1, x0 + lw + 12.0, y1 - 6.0, style.print, false);
    }
}
