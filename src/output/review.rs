//! The review page: one self-contained HTML file (no server, no network) per batch.
//!
//! Per game: the sheet with every cell box coloured by confidence, and the moves, flagged first,
//! each with its cell crop(s) beside the move read, its confidence and alternatives; clicking a
//! move shows the board before and after it (an SVG diagram drawn by a few lines of script from
//! the FEN).

use std::fmt::Write as _;
use std::io::Cursor;

use base64::Engine as _;
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
use image::{DynamicImage, GenericImageView, ImageFormat, RgbImage, imageops::FilterType};

use super::report::{FileError, GameOutput};

/// Width of the sheet overview in the page, in pixels.
const OVERVIEW_WIDTH: u32 = 760;
/// Height of a cell crop in the page.
const CROP_HEIGHT: u32 = 44;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn data_url(img: &DynamicImage, format: ImageFormat) -> String {
    let mut bytes = Vec::new();
    let img = if format == ImageFormat::Jpeg { DynamicImage::ImageRgb8(img.to_rgb8()) } else { img.clone() };
    // (the format's encoder named: `write_to` would link every format's encoder into the binary)
    let mut w = Cursor::new(&mut bytes);
    let written = if format == ImageFormat::Jpeg {
        img.write_with_encoder(JpegEncoder::new(&mut w))
    } else {
        img.write_with_encoder(PngEncoder::new(&mut w))
    };
    if written.is_err() {
        return String::new();
    }
    let mime = if format == ImageFormat::Jpeg { "image/jpeg" } else { "image/png" };
    format!("data:{mime};base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// Colour for a confidence: green when sure (calibrated confidences of 0.95 and more were right
/// about 96 % of the time on the development games), amber, red when flagged.
fn colour(confidence: f32, flagged: bool) -> &'static str {
    if flagged {
        "#d62728"
    } else if confidence < 0.95 {
        "#ff9f1a"
    } else {
        "#2ca02c"
    }
}

fn crop(img: &RgbImage, b: [f32; 4]) -> Option<DynamicImage> {
    let (w, h) = img.dimensions();
    let pad_x = (b[2] - b[0]) * 0.06;
    let pad_y = (b[3] - b[1]) * 0.12;
    let x0 = (b[0] - pad_x).max(0.0) as u32;
    let y0 = (b[1] - pad_y).max(0.0) as u32;
    let x1 = ((b[2] + pad_x).min(w as f32) as u32).max(x0 + 1).min(w);
    let y1 = ((b[3] + pad_y).min(h as f32) as u32).max(y0 + 1).min(h);
    if x1 <= x0 || y1 <= y0 {
        return None;
    }
    let c = DynamicImage::ImageRgb8(img.view(x0, y0, x1 - x0, y1 - y0).to_image());
    let scale = CROP_HEIGHT as f32 / c.height() as f32;
    Some(c.resize_exact(((c.width() as f32 * scale).round() as u32).max(1), CROP_HEIGHT, FilterType::Triangle))
}

const STYLE: &str = r#"
body{font-family:system-ui,sans-serif;margin:0;background:#f4f4f4;color:#222}
header{background:#263238;color:#fff;padding:10px 18px}
h1{font-size:20px;margin:0}
section.game{background:#fff;margin:14px;padding:12px;border-radius:6px;box-shadow:0 1px 3px #0003}
h2{font-size:17px;margin:4px 0 10px}
.cols{display:flex;gap:16px;align-items:flex-start;flex-wrap:wrap}
.sheet{position:relative;flex:none}
.sheet img{display:block}
.sheet svg{position:absolute;left:0;top:0}
.moves{flex:1;min-width:420px;max-height:900px;overflow:auto}
table{border-collapse:collapse;width:100%}
td{padding:3px 6px;border-bottom:1px solid #eee;vertical-align:middle}
tr.move{cursor:pointer}
tr.move:hover,tr.sel{background:#e3f2fd}
tr.flag td.san{color:#d62728;font-weight:bold}
td.san{font-size:17px;font-family:monospace}
td.conf{font-size:12px;color:#555}
.crop{height:44px;border:1px solid #ccc;margin-right:4px}
.boards{display:flex;gap:12px;margin:8px 0}
.boards figure{margin:0;text-align:center;font-size:12px}
.errors li{color:#b00}
.warning{color:#8a5a00;margin:.2em 0}
.legend span{display:inline-block;padding:0 6px;margin-right:6px;color:#fff;border-radius:3px}
"#;

const SCRIPT: &str = r#"
const G={K:'\u2654',Q:'\u2655',R:'\u2656',B:'\u2657',N:'\u2658',P:'\u2659',k:'\u265A',q:'\u265B',r:'\u265C',b:'\u265D',n:'\u265E',p:'\u265F'};
function board(fen){const rows=fen.split(' ')[0].split('/');let s='<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 8 8">';
for(let r=0;r<8;r++){let f=0;for(const ch of rows[r]){if(/\d/.test(ch)){for(let i=0;i<+ch;i++,f++)s+=sq(r,f);}else{s+=sq(r,f)+'<text x="'+(f+0.5)+'" y="'+(r+0.8)+'" font-size="0.85" text-anchor="middle">'+G[ch]+'</text>';f++;}}}
return s+'</svg>';}
function sq(r,f){return '<rect x="'+f+'" y="'+r+'" width="1" height="1" fill="'+((r+f)%2?'#b58863':'#f0d9b5')+'"/>';}
function show(tr){const box=document.getElementById(tr.dataset.game+'-boards');
document.querySelectorAll('tr.sel').forEach(e=>e.classList.remove('sel'));tr.classList.add('sel');
box.innerHTML='<figure>'+board(tr.dataset.before)+'<figcaption>before '+tr.dataset.label+'</figcaption></figure><figure>'+board(tr.dataset.after)+'<figcaption>after</figcaption></figure>';}
document.addEventListener('click',e=>{const tr=e.target.closest('tr.move');if(tr)show(tr);});
function saveFixes(){const lines=[];document.querySelectorAll('input.fix').forEach(i=>{if(i.value.trim())lines.push(i.dataset.key+'='+i.value.trim());});
if(!lines.length){alert('No corrections typed yet.');return;}
const a=document.createElement('a');a.href='data:text/plain;charset=utf-8,'+encodeURIComponent(lines.join('\n')+'\n');a.download='corrections.txt';document.body.appendChild(a);a.click();a.remove();}
if(location.hash==='#click'){const tr=document.querySelector('tr.move');if(tr)show(tr);}
"#;

/// One game for the page, with its sheet images (aligned with `game.sheets`; `None` where the
/// image is not at hand).
pub struct ReviewGame<'a> {
    /// The game read.
    pub game: &'a GameOutput,
    /// Its sheets' page images.
    pub images: Vec<Option<&'a RgbImage>>,
}

/// The review page of a batch.
pub fn review_html(title: &str, games: &[ReviewGame<'_>], errors: &[FileError]) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{t}</title><style>{STYLE}</style></head><body>\
         <header><h1>{t}</h1><div class=\"legend\"><span style=\"background:#2ca02c\">sure</span>\
         <span style=\"background:#ff9f1a\">likely</span><span style=\"background:#d62728\">check</span>\
         {n} games; click a move to see the board; type a correction (e.g. Nf6) beside a move and \
         <button onclick=\"saveFixes()\">save corrections</button> for <code>scoresheet read ... --fixes-file corrections.txt</code></div></header>",
        t = escape(title),
        n = games.len()
    );
    if !errors.is_empty() {
        h.push_str("<section class=\"game errors\"><h2>Files not read</h2><ul>");
        for e in errors {
            let _ = write!(h, "<li>{}: {}</li>", escape(&e.file), escape(&e.error));
        }
        h.push_str("</ul></section>");
    }
    for (gi, rg) in games.iter().enumerate() {
        let g = rg.game;
        let gid = format!("g{gi}");
        let flagged = g.game.moves.iter().filter(|m| m.flagged).count();
        let _ = write!(
            h,
            "<section class=\"game\" id=\"{gid}\"><h2>{} &mdash; {} moves, {} flagged, result {}, language {}</h2><div class=\"cols\">",
            escape(&g.id),
            g.game.moves.len(),
            flagged,
            escape(&g.game.result),
            g.game.lang.code
        );
        for sheet in g.sheets.iter().filter(|s| s.numbering_guessed) {
            let _ = write!(
                h,
                "<p class=\"warning\">{} (page {}): the printed move numbers could not be read, so the rows were counted; the move numbers are a guess there.</p>",
                escape(&sheet.file),
                sheet.page + 1
            );
        }
        for sheet in g.sheets.iter().filter(|s| s.second_form_unread) {
            let _ = write!(
                h,
                "<p class=\"warning\">{} (page {}): the page holds a second copy of the form beside the one read; that copy is not read.</p>",
                escape(&sheet.file),
                sheet.page + 1
            );
        }
        // Sheet overviews with coloured boxes.
        for (si, sheet) in g.sheets.iter().enumerate() {
            let Some(Some(img)) = rg.images.get(si) else { continue };
            let scale = OVERVIEW_WIDTH as f32 / img.width().max(1) as f32;
            let small = DynamicImage::ImageRgb8((*img).clone()).resize(
                OVERVIEW_WIDTH,
                (img.height() as f32 * scale).round() as u32,
                FilterType::Triangle,
            );
            let _ = write!(
                h,
                "<div class=\"sheet\"><img src=\"{}\" width=\"{}\" height=\"{}\" alt=\"{}\"><svg width=\"{}\" height=\"{}\">",
                data_url(&small, ImageFormat::Jpeg),
                small.width(),
                small.height(),
                escape(&sheet.file),
                small.width(),
                small.height()
            );
            for (ply, m) in g.game.moves.iter().enumerate() {
                if let Some(Some(b)) = sheet.boxes.get(ply) {
                    let _ = write!(
                        h,
                        "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{c}\" fill-opacity=\"0.18\" stroke=\"{c}\" stroke-width=\"1.5\"><title>{} {}</title></rect>",
                        b[0] * scale,
                        b[1] * scale,
                        (b[2] - b[0]) * scale,
                        (b[3] - b[1]) * scale,
                        m.number,
                        escape(&m.san),
                        c = colour(m.confidence, m.flagged)
                    );
                }
            }
            h.push_str("</svg></div>");
        }
        // The moves, flagged first, then in game order.
        let fens = g.fens();
        let mut order: Vec<usize> = (0..g.game.moves.len()).collect();
        crate::sort::by_key(&mut order, |&i| usize::from(!g.game.moves[i].flagged));
        let _ = write!(h, "<div class=\"moves\"><div class=\"boards\" id=\"{gid}-boards\"></div><table>");
        for i in order {
            let m = &g.game.moves[i];
            let label = format!("{}{} {}", m.number, if i % 2 == 0 { "." } else { "..." }, m.san);
            let _ = write!(
                h,
                "<tr class=\"move{}\" data-game=\"{gid}\" data-before=\"{}\" data-after=\"{}\" data-label=\"{}\"><td>{}{}</td><td>",
                if m.flagged { " flag" } else { "" },
                escape(&fens[i]),
                escape(&fens[i + 1]),
                escape(&label),
                m.number,
                if i % 2 == 0 { "." } else { "..." }
            );
            for (si, sheet) in g.sheets.iter().enumerate() {
                if let (Some(Some(img)), Some(Some(b))) = (rg.images.get(si), sheet.boxes.get(i))
                    && let Some(c) = crop(img, *b)
                {
                    let _ = write!(h, "<img class=\"crop\" src=\"{}\" alt=\"cell\">", data_url(&c, ImageFormat::Jpeg));
                }
            }
            let alts: Vec<String> = m
                .alternatives
                .iter()
                .filter(|(_, p)| *p >= 0.005)
                .map(|(s, p)| format!("{} {:.0}%", escape(s), p * 100.0))
                .collect();
            let _ = write!(
                h,
                "</td><td class=\"san\">{}</td><td class=\"conf\">{:.0}%{}</td><td><input class=\"fix\" size=\"6\" placeholder=\"fix\" data-key=\"{}:{}{}\"></td></tr>",
                escape(&m.san),
                m.confidence * 100.0,
                if alts.is_empty() { String::new() } else { format!("<br>or {}", alts.join(", ")) },
                escape(&g.id),
                m.number,
                if i % 2 == 0 { "w" } else { "b" }
            );
        }
        h.push_str("</table></div></div></section>");
    }
    let _ = write!(h, "<script>{SCRIPT}</script></body></html>");
    h
}
