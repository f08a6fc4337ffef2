#!/usr/bin/env python3
"""Distant phone photos from synthetic sheets: each sheet of IN (`scoresheet-dev synth` output,
best with `--damage scan`) is laid on a dark table top, turned up to 25 degrees, seen at an
angle, filling a quarter to a half of the frame, slightly defocused; its truth JSON is written
beside it with every cell's box and quad mapped the same way, so that
`scoresheet-dev segment --eval-synth OUT` and `scoresheet-dev eval OUT` measure the page stage on
photos where the page is small in the frame.

    scripts/distant_photos.py IN OUT [--seed N]

Needs numpy and opencv-python (cv2).
"""
import argparse
import json
import math
import os
import random

import cv2
import numpy as np


def table_top(width, height, rng):
    """A dark table top: a base colour, a gradient and grain."""
    base = np.array(rng.choice([(40, 35, 30), (60, 60, 65), (30, 45, 70), (80, 60, 45)]), np.float32)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    gradient = (xs / width - 0.5) * rng.uniform(-30, 30) + (ys / height - 0.5) * rng.uniform(-30, 30)
    noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 4, (height, width)).astype(np.float32)
    img = base[None, None, :] + (gradient + noise)[:, :, None]
    return np.clip(img, 0, 255).astype(np.uint8)


def place(sheet, rng):
    """The sheet's corners in a new frame: turned, tilted, scaled to a share of the frame."""
    h, w = sheet.shape[:2]
    share = rng.uniform(0.25, 0.5)
    frame_w = int(w / math.sqrt(share) * rng.uniform(1.0, 1.3))
    frame_h = int(h / math.sqrt(share))
    turn = math.radians(rng.uniform(-25, 25))
    tilt = rng.uniform(0.75, 0.95)  # the far edge shortened
    src = np.float32([(0, 0), (w, 0), (w, h), (0, h)])
    pts = []
    for x, y in src:
        u, v = x - w / 2, y - h / 2
        k = tilt if v < 0 else 1.0
        u *= k
        pts.append((u * math.cos(turn) - v * math.sin(turn), u * math.sin(turn) + v * math.cos(turn)))
    pts = np.float32(pts)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    scale = min(0.9 * frame_w / (hi[0] - lo[0]), 0.9 * frame_h / (hi[1] - lo[1]), 1.0)
    pts = (pts - lo) * scale
    size = pts.max(axis=0)
    offset = np.float32([rng.uniform(0.03, 0.97) * (frame_w - size[0]), rng.uniform(0.03, 0.97) * (frame_h - size[1])])
    return src, pts + offset, (frame_w, frame_h)


def map_point(m, x, y):
    p = m @ np.array([x, y, 1.0])
    return float(p[0] / p[2]), float(p[1] / p[2])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    for name in sorted(os.listdir(args.inp)):
        if not name.endswith(".json") or name == "summary.json":
            continue
        truth = json.load(open(os.path.join(args.inp, name)))
        if "cells" not in truth:
            continue
        sheet = cv2.imread(os.path.join(args.inp, truth["image"]))
        src, dst, (fw, fh) = place(sheet, rng)
        m = cv2.getPerspectiveTransform(src, dst)
        photo = table_top(fw, fh, rng)
        warped = cv2.warpPerspective(sheet, m, (fw, fh))
        mask = cv2.warpPerspective(np.full(sheet.shape[:2], 255, np.uint8), m, (fw, fh))
        alpha = (mask.astype(np.float32) / 255.0)[:, :, None]
        photo = (warped * alpha + photo * (1 - alpha)).astype(np.uint8)
        photo = cv2.GaussianBlur(photo, (0, 0), rng.uniform(0.6, 1.4))
        stem = os.path.splitext(truth["image"])[0]
        image = stem + ".jpg"
        cv2.imwrite(os.path.join(args.out, image), photo, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(75, 92)])
        for cell in truth["cells"]:
            quad = cell.get("quad") or [
                (cell["box"][0], cell["box"][1]),
                (cell["box"][2], cell["box"][1]),
                (cell["box"][2], cell["box"][3]),
                (cell["box"][0], cell["box"][3]),
            ]
            mapped = [map_point(m, x, y) for x, y in quad]
            cell["quad"] = [[round(x, 1), round(y, 1)] for x, y in mapped]
            xs, ys = [p[0] for p in mapped], [p[1] for p in mapped]
            cell["box"] = [int(min(xs)), int(min(ys)), int(math.ceil(max(xs))), int(math.ceil(max(ys)))]
        if "page_corners" in truth:
            truth["page_corners"] = [[round(c, 1) for c in map_point(m, x, y)] for x, y in truth["page_corners"]]
        truth["image"], truth["width"], truth["height"] = image, fw, fh
        truth["damage"] = "distant-photo"
        json.dump(truth, open(os.path.join(args.out, stem + ".json"), "w"), indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
