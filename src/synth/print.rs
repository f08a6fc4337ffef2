//! Prints a form onto a canvas (or a window of one): rules, shading, headings, move numbers, labels.

use super::fonts::{self, LoadedFont};
use super::forms::{Form, FormStyle};
use super::raster::{Canvas, Placed, printed_text, printed_width, rasterize};

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

/// Prints `form` in `style` onto `canvas`.
pub fn print_form(canvas: &mut Canvas, form: &Form, style: &FormStyle) {
    let ink = style.print;
    let digits = fonts::printed_named(style.digit_font);
    let bold = fonts::printed_named("dejavu-sans-bold");
    let label_font = fonts::printed_named(if style.digit_font.contains("serif") { "dejavu-serif" } else { "dejavu-sans-condensed" });
    if !form.title.is_empty() {
        let size = 26.0;
        let w = printed_width(bold, form.title, size);
        text(canvas, bold, form.title, size, (form.width - w) / 2.0, 72.0, ink, false);
    }
    for b in &form.blocks {
        let (x0, x1) = (b.x, b.x + b.width());
        let (y0, y1) = (b.y, b.y + b.rows as f32 * b.row_h);
        let hy = y0 - b.heading_h;
        // Headings.
        if b.heading_h > 0.0 {
            let mut cx = x0;
            for (i, &w) in b.cols.iter().enumerate() {
                let dark = style.dark_headings && (i == 2 || (form.name != "hcs" && i > 0));
                let shade = if dark { [70, 70, 75] } else { [215, 215, 215] };
                if dark || i == 0 || style.shade_numbers {
                    canvas.fill_rect(cx, hy, cx + w, y0, shade, 1.0);
                }
                let label = form.headings[i];
                if !label.is_empty() {
                    let size = (b.heading_h * 0.36).min(17.0);
                    let tw = printed_width(bold, label, size);
                    let color = if dark { [245, 245, 245] } else { ink };
                    text(canvas, bold, label, size, cx + (w - tw) / 2.0, hy + b.heading_h * 0.5 + size * 0.5, color, dark);
                }
                cx += w;
            }
        }
        if style.shade_numbers {
            canvas.fill_rect(x0, y0, x0 + b.cols[0], y1, [205, 205, 205], 1.0);
        }
        // Rules: rows, columns, outline.
        let top = if b.heading_h > 0.0 { hy } else { y0 };
        for r in 0..=b.rows {
            let y = y0 + r as f32 * b.row_h;
            let t = if r == 0 || r == b.rows { style.thick } else { style.thin };
            canvas.hline(x0, x1, y, t, ink);
        }
        if b.heading_h > 0.0 {
            canvas.hline(x0, x1, hy, style.thick, ink);
        }
        let mut cx = x0;
        for (i, &w) in b.cols.iter().enumerate() {
            canvas.vline(cx, top, y1, if i == 0 { style.thick } else { style.thin }, ink);
            cx += w;
        }
        canvas.vline(x1, top, y1, style.thick, ink);
        // Move numbers.
        let size = b.row_h * style.digit_size;
        for r in 0..b.rows {
            let n = (b.first_move + r).to_string();
            let ry = y0 + r as f32 * b.row_h;
            if !canvas.sees([x0, ry, x0 + b.cols[0], ry + b.row_h]) {
                continue;
            }
            let tw = printed_width(digits, &n, size);
            let x = if style.centre_digits { x0 + (b.cols[0] - tw) / 2.0 } else { x0 + b.cols[0] * 0.12 };
            text(canvas, digits, &n, size, x, ry + b.row_h * 0.5 + size * 0.5, ink, false);
        }
    }
    // Header fields and signature lines.
    for f in &form.fields {
        let [x0, y0, x1, y1] = f.rect;
        let size = ((y1 - y0) * 0.3).min(15.0);
        if f.boxed {
            canvas.hline(x0, x1, y0, style.thin, ink);
            canvas.hline(x0, x1, y1, style.thin, ink);
            canvas.vline(x0, y0, y1, style.thin, ink);
            canvas.vline(x1, y0, y1, style.thin, ink);
            text(canvas, label_font, f.label, size, x0 + 6.0, y0 + size + 5.0, ink, false);
        } else {
            let lw = printed_width(label_font, f.label, size);
            text(canvas, label_font, f.label, size, x0, y1 - 6.0, ink, false);
            canvas.hline(x0 + lw + 8.0, x1, y1 - 4.0, style.thin * 0.8, ink);
        }
    }
    for (label, r) in &form.result_boxes {
        let size = 16.0;
        let tw = printed_width(bold, label, size);
        let boxed = form.name != "hcs";
        if boxed {
            canvas.hline(r[0], r[2], r[1], style.thin, ink);
            canvas.hline(r[0], r[2], r[3], style.thin, ink);
            canvas.vline(r[0], r[1], r[3], style.thin, ink);
            canvas.vline(r[2], r[1], r[3], style.thin, ink);
        }
        text(canvas, bold, label, size, (r[0] + r[2] - tw) / 2.0, (r[1] + r[3]) / 2.0 + size * 0.5, ink, false);
    }
    for (label, x, y) in &form.notes {
        text(canvas, bold, label, 15.0, *x, *y, ink, false);
    }
}
