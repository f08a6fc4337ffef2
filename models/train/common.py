"""Shared definitions: the alphabet and the cell preprocessing (same as src/recognize/preprocess.rs).

Both read models/alphabet.json and models/preprocess.json; tests/data/preprocess_fixture.json,
written by `python models/train/common.py --fixture`, is checked by the Rust unit tests.
"""
import json
import math
import os
import sys

import numpy as np

MODELS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(MODELS)


def load_json(name):
    with open(os.path.join(MODELS, name), encoding="utf-8") as f:
        return json.load(f)


class Alphabet:
    def __init__(self, path=None):
        d = json.load(open(path, encoding="utf-8")) if path else load_json("alphabet.json")
        self.classes = d["classes"]
        self.fold_map = d.get("fold", {})
        self.index = {c: i + 1 for i, c in enumerate(self.classes)}

    @property
    def num_classes(self):
        return len(self.classes) + 1

    def fold(self, text):
        return "".join(self.fold_map.get(c, c) for c in text)

    def encode(self, text):
        """Class indices of the folded text, or None if a character has no class."""
        out = []
        for c in self.fold(text):
            i = self.index.get(c)
            if i is None:
                return None
            out.append(i)
        return out

    def decode(self, labels):
        return "".join(self.classes[i - 1] for i in labels if 1 <= i <= len(self.classes))


PRE = load_json("preprocess.json")


def area_weights(src, dst):
    """Dense (dst, src) area-averaging matrix, as in preprocess.rs."""
    m = np.zeros((dst, src), dtype=np.float64)
    scale = src / dst
    for i in range(dst):
        lo, hi = i * scale, (i + 1) * scale
        first, last = int(math.floor(lo)), min(int(math.ceil(hi)), src)
        for j in range(first, last):
            m[i, j] = max(min(hi, j + 1) - max(lo, j), 0.0) / scale
    return m


_WCACHE = {}


def _weights(src, dst):
    key = (src, dst)
    w = _WCACHE.get(key)
    if w is None:
        if len(_WCACHE) > 20000:
            _WCACHE.clear()
        w = _WCACHE[key] = area_weights(src, dst)
    return w


def target_width(w, h, pre=PRE, stretch=1.0):
    # Rust's f64::round rounds half away from zero; so does this.
    scaled = int(math.floor(w * stretch * pre["height"] / max(h, 1) + 0.5))
    return max(pre["min_width"], min(pre["max_width"], scaled))


def views(pre=PRE):
    """The horizontal stretches a cell is read at (training reads it at 1 only): a string's score is
    the mean of its log-probabilities over these views."""
    return pre.get("views", [1.0])


def view_models(pre=PRE):
    """For each view, the file name of the model that reads it (None: the model loaded), as
    `view_models` in preprocess.json (src/recognize/preprocess.rs)."""
    return pre.get("view_models") or [None] * len(views(pre))


def preprocess(gray, pre=PRE, stretch=1.0):
    """gray: uint8 array (h, w); stretch: the view's horizontal scale (1: as is).
    Returns (float32 array (height, padded width), content width)."""
    h, w = gray.shape
    if h == 0 or w == 0:
        raise ValueError("empty image")
    out_w = target_width(w, h, pre, stretch)
    out_h = pre["height"]
    ink = 1.0 - gray.astype(np.float64) / 255.0
    resized = _weights(h, out_h) @ (ink @ _weights(w, out_w).T)
    flat = np.sort(resized, axis=None)
    n = flat.size

    def q(x):
        return flat[min(int(math.floor(x * (n - 1))), n - 1)]

    bg = q(pre["background_quantile"])
    hi = max(q(pre["ink_quantile"]), bg + pre["min_contrast"])
    x = np.clip((resized - bg) / (hi - bg), 0.0, 1.0)
    m = pre["width_multiple"]
    width = -(-out_w // m) * m
    out = np.zeros((out_h, width), dtype=np.float32)
    out[:, :out_w] = x
    return out, out_w


def write_fixture(path):
    rng = np.random.default_rng(1)
    cases = []
    for (w, h, stretch) in [(57, 23, 1.0), (150, 40, 1.0), (12, 60, 1.0), (300, 20, 1.0), (33, 32, 1.0), (57, 23, 0.85),
                            (150, 40, 1.15)]:
        img = rng.integers(0, 256, size=(h, w)).astype(np.uint8)
        img[:, : w // 3] = 255  # paper
        img[h // 3 : h // 2, :] //= 4  # a dark stroke
        out, cw = preprocess(img, stretch=stretch)
        cases.append({"width": w, "height": h, "stretch": stretch, "pixels": img.ravel().tolist(), "out_width": int(out.shape[1]),
                      "out_content_width": int(cw), "out": [round(float(v), 7) for v in out.ravel()]})
    with open(path, "w") as f:
        json.dump(cases, f, separators=(",", ":"))


if __name__ == "__main__":
    if "--fixture" in sys.argv:
        write_fixture(os.path.join(REPO, "tests", "data", "preprocess_fixture.json"))
        print("wrote tests/data/preprocess_fixture.json")
