"""Python stand-in for `scoresheet synth --cells`: renders move cells with handwriting fonts in all
languages of the notation engine, writing OUT/labels.tsv (FILE<TAB>TEXT) and OUT/*.png.

    python models/train/synth_cells.py OUT --count 40000 --seed 1 [--fonts train|heldout]

The held-out font (SteveHand, which also has Cyrillic) is never used with --fonts train.
"""
import argparse
import glob
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
    a = ap.parse_args()
    r = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    fs = fonts(a.fonts)
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
            img = render(text, r.choice(ok), r)
            name = f"{n:06d}.png"
            img.save(os.path.join(a.out, name))
            f.write(f"{name}\t{text}\n")
            n += 1


if __name__ == "__main__":
    main()
