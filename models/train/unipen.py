"""UNIPEN real handwriting as move cells: isolated characters of 319 writers (pen strokes recorded on
tablets), composed into whole chess moves in one writer's hand and rendered like the cells the page
stage cuts (rulings, neighbour rows' ink, blank and crossed-out cells, scan and photo damage). Writes
the cell folder layout of cells.py: OUT/labels.tsv (FILE<TAB>TEXT) and OUT/*.png (grey).

    python models/train/unipen.py render OUT --count 30000 --seed 31                # training writers
    python models/train/unipen.py render OUT --count 3000 --seed 99 --writers heldout --blanks 0
    python models/train/unipen.py pack OUT.jsonl.gz     # training writers' glyphs, normalised (GPU bundle)
    python models/train/unipen.py writers heldout       # the writers of one split, one a line
    python models/train/unipen.py selftest              # a check on made-up strokes (no data needed)

--glyphs FILE is the UNIPEN export (default ../shared/data/unipen/glyphs.jsonl.gz beside the
repository) or a file written by `pack`.

Writer split: a writer (`contributor:writer-id`) is held out when int(SHA-1(writer id), 16) % 100 < 15
(`is_heldout`): 47 of the 319 writers, 13 of them with every character of a pawn move; the rest train.
Held-out writers are for evaluation only; `pack` writes training writers only.

Normalisation (`normalise_glyph`): y flipped to point down, each glyph scaled by its own bounding box
(its longer side becomes 1), repeated points dropped. Outliers (`drop_outliers`): a glyph whose aspect
ratio or ink length (per box side) is far from its character's median, or whose box is far from the
size of the other glyphs in its source file (stray strokes, mis-segmented characters).

Moves: the texts of synth_cells.py (`move_text`) in the languages whose piece letters UNIPEN has:
English (K Q R B N), German and Scandinavian/Slovenian/Croatian (K D T L S) and Finnish (K D T L R);
pawn moves, captures, checks, mates, promotions (=), long form (-) and castling (O-O, 0-0); and
English descriptive notation ("P-K4", "NxQBP", "Q-KR5ch"; Spanish descriptive needs A and C, which
UNIPEN lacks). A text is
written by a writer chosen among those who wrote every character of it, with that writer's habits
(`Hand`: size, capital height, letter gaps, pen width and pressure, slant, baseline drift, fixed per
writer), glyphs drawn at random from that writer's samples of each character.

Licence: UNIPEN train_r01_v07 is CC BY 4.0 (doi 10.5281/zenodo.1195803). Attribution: I. Guyon,
L. Schomaker, R. Plamondon, M. Liberman and S. Janet, "UNIPEN project of on-line data exchange and
recognizer benchmarks", Proc. 12th ICPR, Jerusalem, 1994, pp. 29-33; Unipen consortium (1999), Unipen
data set of on-line (vectorial) handwriting, train_r01_v07, Zenodo, doi 10.5281/zenodo.1195803.
"""
import argparse
import gzip
import hashlib
import json
import math
import os
import random
import sys
from collections import defaultdict
from dataclasses import dataclass

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import augment  # noqa: E402
from common import REPO, Alphabet  # noqa: E402

DEFAULT_GLYPHS = os.path.join(os.path.dirname(REPO), "shared", "data", "unipen", "glyphs.jsonl.gz")
PACKED_FORMAT = "scoresheet-unipen-normalised-1"
PACK_UNITS = 500  # packed coordinates: integers in units of 1/500 of a glyph's longer box side
HELDOUT_PERCENT = 15
FOLD = Alphabet().fold_map

# Piece letters per language whose letters UNIPEN has (the keys are synth_cells.LANGS' languages;
# "de" stands for every K D T L S language: German, Slovenian, Norwegian, Danish, Swedish, Croatian).
LANG_WEIGHTS = {"en": 6, "de": 3, "fi": 1, "en-desc": 2}


# ---------------------------------------------------------------------------------------------------
# Writers and glyphs


def is_heldout(writer):
    """The writer split: about 15 % of the writers, chosen by a hash of their id, are held out."""
    return int(hashlib.sha1(writer.encode("utf-8")).hexdigest(), 16) % 100 < HELDOUT_PERCENT


def in_split(writer, split):
    return split == "all" or is_heldout(writer) == (split == "heldout")


@dataclass
class Glyph:
    ch: str
    writer: str
    strokes: list  # float32 arrays (n, 2): x right, y down, box origin at 0, longer box side 1
    width: float
    height: float


def read_records(path):
    """(header or None, iterator of JSON records) of a glyph file: the UNIPEN export or a packed file."""
    f = gzip.open(path, "rt", encoding="utf-8")
    first = f.readline()
    rec = json.loads(first)
    if rec.get("format") == PACKED_FORMAT:
        return rec, (json.loads(line) for line in f)

    def all_records():
        yield rec
        for line in f:
            yield json.loads(line)

    return None, all_records()


def drop_repeats(points):
    keep = np.ones(len(points), bool)
    keep[1:] = np.any(np.diff(points, axis=0) != 0, axis=1)
    return points[keep]


def normalise_glyph(ch, writer, raw_strokes):
    """A Glyph from raw tablet strokes (y up), or None when it has no extent."""
    strokes = [drop_repeats(np.asarray(s, np.float64)) for s in raw_strokes if len(s)]
    if not strokes:
        return None
    pts = np.concatenate(strokes)
    lo, hi = pts.min(0), pts.max(0)
    side = float(max(hi - lo))
    if side <= 0:
        return None
    out = []
    for s in strokes:
        s = (s - lo) / side
        s[:, 1] = (hi[1] - lo[1]) / side - s[:, 1]  # y down
        out.append(s.astype(np.float32))
    return Glyph(ch, writer, out, float(hi[0] - lo[0]) / side, float(hi[1] - lo[1]) / side)


def glyph_measures(raw_strokes):
    """(log box side, log aspect w/h, log ink length per box side) of raw strokes, or None."""
    strokes = [np.asarray(s, np.float64) for s in raw_strokes if len(s)]
    if not strokes:
        return None
    pts = np.concatenate(strokes)
    w, h = np.ptp(pts[:, 0]), np.ptp(pts[:, 1])
    side = max(w, h)
    if side <= 0:
        return None
    length = sum(float(np.linalg.norm(np.diff(s, axis=0), axis=1).sum()) for s in strokes)
    eps = 0.02 * side  # keeps "-" and "1" finite
    return math.log(side), math.log((w + eps) / (h + eps)), math.log((length + eps) / side)


def mad_outliers(values, floor, k=4.0):
    """Indices of the values more than max(k * MAD, floor) from their median."""
    v = np.asarray(values)
    med = np.median(v)
    tol = max(k * float(np.median(np.abs(v - med))), floor)
    return set(np.nonzero(np.abs(v - med) > tol)[0].tolist())


def drop_outliers(records):
    """The raw records that are not outliers: aspect or ink length far from the character's median
    (over all writers), or box size far from what the source file's other glyphs predict (scales
    differ between files, so sizes compare within one file)."""
    measures = [glyph_measures(r["strokes"]) for r in records]
    ok = [i for i, m in enumerate(measures) if m is not None]
    by_char = defaultdict(list)
    for i in ok:
        by_char[records[i]["ch"]].append(i)
    bad = set()
    for idx in by_char.values():
        bad |= {idx[j] for j in mad_outliers([measures[i][1] for i in idx], floor=0.8)}
        bad |= {idx[j] for j in mad_outliers([measures[i][2] for i in idx], floor=0.5)}
    # Size within a file, against the character's usual size relative to its file.
    by_src = defaultdict(list)
    for i in ok:
        by_src[records[i].get("src", records[i]["writer"])].append(i)
    rel = {}
    for idx in by_src.values():
        if len(idx) >= 5:
            med = float(np.median([measures[i][0] for i in idx]))
            rel.update({i: measures[i][0] - med for i in idx})
    char_rel = defaultdict(list)
    for i, r in rel.items():
        char_rel[records[i]["ch"]].append(r)
    char_rel = {c: float(np.median(v)) for c, v in char_rel.items()}
    bad |= {i for i, r in rel.items() if abs(r - char_rel[records[i]["ch"]]) > math.log(3)}
    return [records[i] for i in ok if i not in bad]


def load_glyphs(path, split):
    """{writer: {char: [Glyph]}} of one split ("train", "heldout" or "all"), outliers dropped."""
    header, records = read_records(path)
    if header is not None:
        if split != "train" and header.get("writers") == "train":
            sys.exit(f"unipen.py: {path} holds training writers only; use the UNIPEN export for --writers {split}")
        units = header.get("units", PACK_UNITS)
        glyphs = (Glyph(r["ch"], r["writer"], [np.asarray(s, np.float32).reshape(-1, 2) / units
                                                for s in r["strokes"]], 0.0, 0.0) for r in records)
        glyphs = [measured(g) for g in glyphs if in_split(g.writer, split)]
    else:
        kept = drop_outliers(list(records))
        glyphs = [normalise_glyph(r["ch"], r["writer"], r["strokes"]) for r in kept if in_split(r["writer"], split)]
    hands = defaultdict(lambda: defaultdict(list))
    for g in glyphs:
        if g is not None:
            hands[g.writer][g.ch].append(g)
    return hands


def measured(glyph):
    pts = np.concatenate(glyph.strokes)
    glyph.width, glyph.height = float(pts[:, 0].max()), float(pts[:, 1].max())
    return glyph


def simplify(stroke, tol=0.01):
    """The stroke's points with those closer than `tol` to the last kept one dropped (ends kept)."""
    keep, last = [0], stroke[0]
    for i in range(1, len(stroke) - 1):
        if np.abs(stroke[i] - last).max() >= tol:
            keep.append(i)
            last = stroke[i]
    if len(stroke) > 1:
        keep.append(len(stroke) - 1)
    return stroke[keep]


def pack(path, out):
    """Writes the training writers' glyphs, outliers dropped and normalised, as a compact packed file."""
    hands = load_glyphs(path, "train")
    n = 0
    with gzip.open(out, "wt", encoding="utf-8", compresslevel=9) as f:
        f.write(json.dumps({"format": PACKED_FORMAT, "writers": "train", "units": PACK_UNITS,
                            "source": "UNIPEN train_r01_v07 (CC BY 4.0, doi 10.5281/zenodo.1195803)"}) + "\n")
        for writer in sorted(hands):
            for ch in sorted(hands[writer]):
                for g in hands[writer][ch]:
                    strokes = [np.rint(simplify(s) * PACK_UNITS).astype(int).ravel().tolist() for s in g.strokes]
                    f.write(json.dumps({"ch": ch, "writer": writer, "strokes": strokes}, separators=(",", ":")) + "\n")
                    n += 1
    print(f"{out}: {n} glyphs of {len(hands)} training writers, {os.path.getsize(out) / 1e6:.1f} MB")


# ---------------------------------------------------------------------------------------------------
# A writer's hand and the composed move


@dataclass
class Hand:
    """One writer's habits, in x-heights (the height of "a"); fixed per writer."""
    size: float       # x-height as a share of the cell height
    cap: float        # capitals and digits
    ascender: float   # b d f h
    descender: float  # g below the baseline
    gap: float        # space between letters
    pen: float        # pen width
    pressure: float   # width variation along a stroke (0: none)
    slant: float      # extra shear (x shift per unit of height)
    drift: float      # baseline slope
    wave: float       # baseline waviness


def writer_hand(writer):
    r = random.Random(int(hashlib.sha1(("hand:" + writer).encode("utf-8")).hexdigest(), 16))
    cap = r.uniform(1.3, 1.9)
    return Hand(size=r.uniform(0.22, 0.4), cap=cap, ascender=cap * r.uniform(1.0, 1.15), descender=r.uniform(0.5, 0.9),
                gap=r.uniform(0.08, 0.6), pen=r.uniform(0.07, 0.16), pressure=r.choice([0.0, r.uniform(0.1, 0.45)]),
                slant=r.uniform(-0.12, 0.2), drift=r.gauss(0, 0.03), wave=r.uniform(0, 0.12))


def char_span(ch, hand):
    """(bottom, top) of a character above the baseline, in x-heights; None for the dashes, which are
    sized by width (`dash_width`)."""
    if ch in "-=":
        return None
    if ch in "acemnorsuvwxz":
        return 0.0, 1.0
    if ch in "bdfhklt":
        return 0.0, hand.ascender
    if ch in "gpqy":
        return -hand.descender, 1.0
    if ch == "+":
        return 0.1 * hand.cap, 0.85 * hand.cap
    return 0.0, hand.cap


def dash_width(ch, hand):
    return (0.7 if ch == "-" else 0.8) * hand.cap * 0.7


def glyph_for(ch, glyphs, r):
    """A random sample of `ch` from one writer's glyphs (Cyrillic look-alikes read as Latin)."""
    options = glyphs.get(ch) or glyphs.get(FOLD.get(ch, ch)) or []
    return r.choice(options) if options else None


def can_write(text, charset):
    return all(c in charset for c in text)


def compose_move(text, glyphs, hand, r):
    """The strokes of `text` in one writer's hand, each a float array (n, 2) in x-heights (x right,
    y down, baseline at 0): the writer's glyphs at their character's height, letter gaps, baseline
    drift and slant, each letter a little larger or smaller and higher or lower than the last."""
    placed = []
    x = 0.0
    phase = r.uniform(0, 2 * math.pi)
    for ch in text:
        g = glyph_for(ch, glyphs, r)
        span = char_span(ch, hand)
        size = r.uniform(0.9, 1.1)
        if span is None:
            scale = dash_width(ch, hand) * size / max(g.width, 0.05)
            centre = 0.45 * hand.cap + r.gauss(0, 0.08)
            top = centre + g.height * scale / 2
        else:
            scale = (span[1] - span[0]) * size / max(g.height, 0.05)
            scale = min(scale, 2.2 * hand.cap / max(g.width, 0.05))  # very wide samples stay in bounds
            top = span[0] + g.height * scale
        base = r.gauss(0, 0.05) + hand.drift * x + hand.wave * math.sin(phase + 0.8 * x)
        for s in g.strokes:
            pts = np.empty_like(s, dtype=np.float64)
            pts[:, 0] = x + s[:, 0] * scale
            pts[:, 1] = -(top + base) + s[:, 1] * scale
            placed.append(pts)
        x += g.width * scale + max(0.02, hand.gap * r.uniform(0.5, 1.5))
    for pts in placed:
        pts[:, 0] -= hand.slant * pts[:, 1]  # y is down: shearing right leans the tops right
    return placed


# ---------------------------------------------------------------------------------------------------
# Drawing


def smooth(points):
    """Points averaged with their neighbours (1 2 1): coarse tablets' steps and jitter softened."""
    if len(points) < 3:
        return points
    out = points.copy()
    out[1:-1] = (points[:-2] + 2 * points[1:-1] + points[2:]) / 4
    return out


def draw_strokes(strokes, hand, xh_px, origin, shape, r, supersample=3):
    """Ink coverage (float32 0..1, `shape`) of the strokes drawn with the pen: its width varies with a
    slow pressure wave and the pen's speed and tapers at the stroke ends."""
    S = supersample
    canvas = np.zeros((shape[0] * S, shape[1] * S), np.uint8)
    pen_px = max(0.8, hand.pen * xh_px * r.uniform(0.85, 1.15))
    shift = 4  # sub-pixel precision of the drawn lines (1/16 px)
    for s in strokes:
        pts = smooth(s) * xh_px + origin
        pts = pts + np.array([r.gauss(0, 0.15), r.gauss(0, 0.15)])  # each stroke a little off its place
        if len(pts) == 1:
            pts = np.vstack([pts, pts + 0.3])
        seg = np.linalg.norm(np.diff(pts, axis=0), axis=1)
        t = np.concatenate([[0], np.cumsum(seg)])
        total = max(t[-1], 1e-6)
        med = max(float(np.median(seg)), 1e-6)
        phase, freq = r.uniform(0, 2 * math.pi), r.uniform(0.5, 2.0)
        u = t[:-1] / total
        width = pen_px * (1 + hand.pressure * np.sin(phase + 2 * math.pi * freq * u))
        width *= np.clip(1.15 - 0.15 * seg / med, 0.7, 1.2)  # faster, thinner
        width *= 0.65 + 0.35 * np.minimum(1.0, np.minimum(8 * u, 8 * (1 - u)))  # tapered ends
        thick = np.maximum(1, np.rint(width * S)).astype(int)
        fixed = np.rint(pts * S * (1 << shift)).astype(np.int32)
        # Runs of segments of one thickness drawn as one polyline.
        cuts = np.concatenate([[0], np.nonzero(np.diff(thick))[0] + 1, [len(thick)]])
        for a, b in zip(cuts[:-1], cuts[1:]):
            cv2.polylines(canvas, [fixed[a: b + 1].reshape(-1, 1, 2)], False, 255, int(thick[a]), cv2.LINE_AA, shift)
    ink = cv2.resize(canvas, (shape[1], shape[0]), interpolation=cv2.INTER_AREA)
    return ink.astype(np.float32) / 255


def strokes_box(strokes):
    pts = np.concatenate(strokes)
    return pts.min(0), pts.max(0)


def paper(shape, rng):
    """Paper grey with a slow shading and a fine grain."""
    h, w = shape
    level = rng.uniform(200, 252)
    img = np.full(shape, level, np.float32)
    gx = np.linspace(rng.uniform(-12, 0), rng.uniform(0, 12), w, dtype=np.float32)[None, :]
    gy = np.linspace(rng.uniform(-8, 0), rng.uniform(0, 8), h, dtype=np.float32)[:, None]
    img += gx + gy
    img += rng.normal(0, rng.uniform(0.5, 4), shape).astype(np.float32)
    return img


def rulings(img, rng):
    """Printed lines of the cell's frame: the row rulings near the top and bottom edges (the page
    stage's window takes a little of them), now and then the column rulings at the sides."""
    h, w = img.shape
    dark = rng.uniform(30, 160)
    thick = int(rng.integers(1, 4))
    for y, p in ((rng.uniform(0.0, 0.14) * h, 0.75), (rng.uniform(0.84, 1.0) * h, 0.8)):
        if rng.random() < p:
            tilt = rng.uniform(-0.012, 0.012) * w
            cv2.line(img, (0, int(y)), (w, int(y + tilt)), dark, thick, cv2.LINE_AA)
    for x, p in ((rng.uniform(0.0, 0.05) * w, 0.3), (rng.uniform(0.95, 1.0) * w, 0.3)):
        if rng.random() < p:
            cv2.line(img, (int(x), 0), (int(x + rng.uniform(-2, 2)), h), dark, thick, cv2.LINE_AA)
    return img


def printed_number(img, rng):
    """A printed move number at the cell's left (HCS's white column has them); returns its right edge."""
    h, w = img.shape
    text = str(int(rng.integers(1, 80)))
    scale = h / 60 * rng.uniform(0.5, 0.8)
    thick = max(1, int(scale * 1.5 + 0.5))
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    x = int(rng.uniform(0.01, 0.04) * w)
    y = int(h / 2 + th / 2 + rng.uniform(-0.1, 0.1) * h)
    mask = np.zeros(img.shape, np.uint8)  # putText draws on 8 bits; the paper is float
    cv2.putText(mask, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, 255, thick, cv2.LINE_AA)
    m = mask.astype(np.float32) / 255
    img *= 1 - m
    img += rng.uniform(10, 90) * m
    return x + tw


def neighbour_ink(ink, other, rng):
    """Ink of the rows above and below reaching into the cell (augment.neighbours on coverage)."""
    def as_image(coverage):
        return (255 * (1 - coverage)).astype(np.uint8)

    out = augment.neighbours(as_image(ink), as_image(other), rng)
    return 1 - out.astype(np.float32) / 255


def crossed_out_beside(img, ink, rng):
    """A crossed-out scribble (augment.crossed_out) in a margin, kept only where it misses the move's
    ink: the label stays the move that was kept."""
    h, w = img.shape
    scribble = augment.crossed_out(np.full((h, w), 255, np.uint8), rng)
    marks = cv2.dilate((scribble < 250).astype(np.uint8), np.ones((5, 5), np.uint8))
    if np.any(marks.astype(bool) & (ink > 0.1)):
        return img
    return np.minimum(img, scribble)


def ink_level(rng):
    """Grey of the ink: black or blue ballpoint, felt tip, pencil."""
    return float(rng.choice([rng.uniform(0, 50), rng.uniform(40, 110), rng.uniform(90, 150)], p=[0.45, 0.4, 0.15]))


def scan_damage(img, rng):
    """Scan and photo damage: augment.py's photometric changes and elastic warp, low resolution, JPEG."""
    if rng.random() < 0.25:
        img = augment.elastic(img, rng, alpha=rng.uniform(0.3, 1.2) * img.shape[0] / 40)
    if rng.random() < 0.2:
        h, w = img.shape
        f = rng.uniform(0.4, 0.8)
        small = cv2.resize(img, (max(8, int(w * f)), max(8, int(h * f))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.6:
        img = augment.photometric(img, rng)
    if rng.random() < 0.3:
        _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 85))])
        img = cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE)
    return img


def layout(strokes, hand, cell_h, cell_w, rng, left):
    """(x-height in px, cell width, origin) placing the move in the cell: the writer's size, the
    cell widened when the move needs it, the move left-aligned or centred, a little high or low;
    `left`: the ink-free margin in px (a printed number's)."""
    lo, hi = strokes_box(strokes)
    ink_w, ink_h = hi[0] - lo[0], hi[1] - lo[1]
    xh = hand.size * cell_h * rng.uniform(0.85, 1.15)
    xh = min(xh, 0.85 * cell_h / max(ink_h, 1e-3))  # the move fits the cell's height
    left = max(left, 0.03 * cell_w)  # the first letter's pen width stays inside
    room = cell_w - left - 0.04 * cell_w
    if ink_w * xh > room:
        xh = max(xh * 0.75, room / ink_w)
        cell_w = max(cell_w, int(left + ink_w * xh + 0.05 * cell_w))
        room = cell_w - left - 0.04 * cell_w
    spare = max(0.0, room - ink_w * xh)
    x0 = left + (spare * rng.uniform(0, 0.25) if rng.random() < 0.6 else spare * rng.uniform(0.25, 0.8))
    y0 = (cell_h - ink_h * xh) / 2 + rng.uniform(-0.12, 0.12) * cell_h
    y0 = min(max(y0, 0.03 * cell_h), cell_h - ink_h * xh - 0.03 * cell_h)
    return xh, cell_w, np.array([x0 - lo[0] * xh, y0 - lo[1] * xh])


@dataclass
class Shares:
    """Shares of the cells with each kind of trouble."""
    blank: float = 0.05
    crossed: float = 0.08  # tried beside the move; about half land on its ink and are left out
    neighbours: float = 0.5
    number: float = 0.12


def render_cell(text, glyphs, hand, r, rng, shares):
    """One grey cell (uint8) with `text` in the writer's hand; "" renders a blank cell. The cell is
    3.2 to 5.2 times as wide as high (as the page stage's windows), wider for a long move."""
    cell_h = int(rng.integers(48, 97))
    img = paper((cell_h, int(cell_h * rng.uniform(3.2, 5.2))), rng)
    left = 0.0
    if rng.random() < shares.number:
        left = printed_number(img, rng) + 0.03 * img.shape[1]
    if text:
        strokes = compose_move(text, glyphs, hand, r)
        xh, cell_w, origin = layout(strokes, hand, cell_h, img.shape[1], rng, left)
        if cell_w > img.shape[1]:  # a long move: more of the same paper
            img = np.pad(img, ((0, 0), (0, cell_w - img.shape[1])), mode="symmetric")
        ink = draw_strokes(strokes, hand, xh, origin, img.shape, r)
    else:
        ink = np.zeros(img.shape, np.float32)
    if rng.random() < shares.neighbours:
        other = [c for c in glyphs if c in "abcdefgh12345678"]
        if other:
            words = "".join(r.choice(other) for _ in range(r.randint(2, 4)))
            ostrokes = compose_move(words, glyphs, hand, r)
            oxh, _, oorigin = layout(ostrokes, hand, cell_h, img.shape[1], rng, 0.0)
            ink = neighbour_ink(ink, draw_strokes(ostrokes, hand, oxh, oorigin, img.shape, r), rng)
    img = rulings(img, rng)
    level = ink_level(rng)
    img = img * (1 - ink) + level * ink
    img = np.clip(img, 0, 255).astype(np.uint8)
    if text and rng.random() < shares.crossed:
        img = crossed_out_beside(img, ink, rng)
    return scan_damage(img, rng)


# ---------------------------------------------------------------------------------------------------
# Cell folders


def move_texts(r):
    """Endless move texts in the languages whose piece letters UNIPEN has (synth_cells.move_text)."""
    from synth_cells import move_text

    langs = list(LANG_WEIGHTS)
    weights = [LANG_WEIGHTS[l] for l in langs]
    while True:
        yield move_text(r, r.choices(langs, weights)[0])


def render_folder(out, hands, count, seed, shares):
    """Writes `count` cells to OUT/labels.tsv and OUT/NNNNNN.png; each move by one writer who wrote
    every character of it (texts nobody can write are drawn again)."""
    r = random.Random(seed)
    rng = np.random.default_rng(seed)
    writers = sorted(hands)
    charsets = {w: set(hands[w]) for w in writers}
    styles = {w: writer_hand(w) for w in writers}
    texts = move_texts(r)
    os.makedirs(out, exist_ok=True)
    used = defaultdict(int)
    with open(os.path.join(out, "labels.tsv"), "w", encoding="utf-8") as f:
        for n in range(count):
            if r.random() < shares.blank:
                text, writer = "", r.choice(writers)
            else:
                while True:
                    text = next(texts)
                    able = [w for w in writers if can_write(text, charsets[w])]
                    if able:
                        break
                writer = r.choice(able)
            used[writer] += 1
            img = render_cell(text, hands[writer], styles[writer], r, rng, shares)
            name = f"{n:06d}.png"
            cv2.imwrite(os.path.join(out, name), img)
            f.write(f"{name}\t{text}\n")
    print(f"{out}: {count} cells by {len(used)} writers")


# ---------------------------------------------------------------------------------------------------
# Self check


def check_pack_and_load(records):
    """`pack` keeps the training writers' glyphs (no held-out writer), and they load back."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        raw, packed = os.path.join(tmp, "raw.jsonl.gz"), os.path.join(tmp, "packed.jsonl.gz")
        with gzip.open(raw, "wt", encoding="utf-8") as f:
            f.writelines(json.dumps(rec) + "\n" for rec in records)
        pack(raw, packed)
        direct = load_glyphs(raw, "train")
        back = load_glyphs(packed, "train")
    assert sorted(back) == sorted(direct) and back and not any(is_heldout(w) for w in back)
    assert any(is_heldout(rec["writer"]) for rec in records)
    assert all(len(back[w][c]) == len(direct[w][c]) for w in back for c in back[w])
    g = next(iter(next(iter(back.values())).values()))[0]
    assert abs(max(g.width, g.height) - 1) < 0.01


def selftest():
    """Checks the split rule, normalisation, outlier removal and one rendered cell on made-up strokes."""
    assert is_heldout("x:a") == (int(hashlib.sha1(b"x:a").hexdigest(), 16) % 100 < 15)
    share = np.mean([is_heldout(f"c:{i}") for i in range(2000)])
    assert 0.12 < share < 0.18, share
    g = normalise_glyph("-", "w", [[[0, 5], [10, 5], [10, 5]]])
    assert g.width == 1.0 and g.height == 0.0 and len(g.strokes[0]) == 2
    g = normalise_glyph("1", "w", [[[3, 0], [3, 20]]])
    assert g.height == 1.0 and g.strokes[0][0, 1] == 1.0  # y flipped: the first point is the bottom
    rr = random.Random(1)
    recs = [{"ch": "a", "writer": f"c:{i % 5}", "src": f"s{i % 5}",
             "strokes": [[[0, 0], [10 + rr.random(), 0], [10, 10 + rr.random()], [0, 10]]]} for i in range(60)]
    recs.append({"ch": "a", "writer": "c:0", "src": "s0", "strokes": [[[0, 0], [400, 3], [0, 5]]]})  # a stray stroke
    kept = drop_outliers(recs)
    assert len(kept) == 60, len(kept)
    held = next(f"h:{i}" for i in range(1000) if is_heldout(f"h:{i}"))
    check_pack_and_load(recs + [dict(rec, writer=held, src="sh") for rec in recs[:10]])
    hands = defaultdict(lambda: defaultdict(list))
    for rec in kept:
        gl = normalise_glyph(rec["ch"], rec["writer"], rec["strokes"])
        for ch in "abcdefgh12345678KQRBNx+#-=O":
            hands[gl.writer][ch].append(Glyph(ch, gl.writer, gl.strokes, gl.width, gl.height))
    img = render_cell("Nxe4+", hands["c:1"], writer_hand("c:1"), random.Random(2), np.random.default_rng(2), Shares())
    assert img.dtype == np.uint8 and img.shape[0] >= 48 and img.shape[1] >= 3 * img.shape[0], img.shape
    assert img.min() < 160, "no ink"
    print("unipen.py selftest: ok")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    rp = sub.add_parser("render", help="render move cells into a cell folder")
    rp.add_argument("out")
    rp.add_argument("--glyphs", default=DEFAULT_GLYPHS)
    rp.add_argument("--writers", choices=["train", "heldout"], default="train")
    rp.add_argument("--count", type=int, default=20000)
    rp.add_argument("--seed", type=int, default=1)
    rp.add_argument("--blanks", type=float, default=Shares.blank, help="share of blank cells (label \"\")")
    pp = sub.add_parser("pack", help="write the training writers' normalised glyphs (for the GPU bundle)")
    pp.add_argument("out")
    pp.add_argument("--glyphs", default=DEFAULT_GLYPHS)
    wp = sub.add_parser("writers", help="list the writers of a split")
    wp.add_argument("split", choices=["train", "heldout"])
    wp.add_argument("--glyphs", default=DEFAULT_GLYPHS)
    sub.add_parser("selftest", help="check the module on made-up strokes")
    a = ap.parse_args()
    if a.cmd == "selftest":
        selftest()
    elif a.cmd == "pack":
        pack(a.glyphs, a.out)
    elif a.cmd == "writers":
        _, records = read_records(a.glyphs)
        print("\n".join(sorted({rec["writer"] for rec in records if in_split(rec["writer"], a.split)})))
    else:
        hands = load_glyphs(a.glyphs, a.writers)
        render_folder(a.out, hands, a.count, a.seed, Shares(blank=a.blanks))


if __name__ == "__main__":
    main()
