#!/usr/bin/env python3
"""Damaged copies of synthetic sheets: each sheet of IN (`scoresheet-dev synth` output) is bowed,
shown through by its back page, put out of focus, folded or enlarged, and its truth JSON is written beside
it with every cell's box and quad moved the same way, so that
`scoresheet-dev segment --eval-synth OUT` and `scoresheet-dev eval OUT` measure the page stage on
such pages.

    scripts/damaged_copies.py IN OUT KIND [--strength X]

KIND (and what --strength means, its default in brackets):
  bowed         each column of the page moved down by X (2x/w - 1)^2 of the page's height, a
                book page's or a curled sheet's bow [0.01]
  show-through  the page's mirror image darkening it by X of its darkness: the back page's
                rulings and writing seen through thin paper [0.08]
  out-of-focus  a Gaussian blur of X pixels [1.7]
  folded        two creases of a sheet folded in four, down and across the page, a shadow X grey
                levels deep with a lit band beside it [60]
  enlarged      resampled (Lanczos) to X times its size: the page as a scan at X times its
                resolution shows it (2: a sheet of about 150 dpi at 300 dpi), its print, writing,
                blur and grain as many pixels larger [2]

The damage is the same on every sheet (no randomness). Needs numpy and Pillow.
"""
import argparse
import json
import os

import numpy as np
from PIL import Image, ImageFilter

DEFAULT_STRENGTH = {"bowed": 0.01, "show-through": 0.08, "out-of-focus": 1.7, "folded": 60.0, "enlarged": 2.0}
PAPER = 235.0


def bowed(img, strength):
    """Each column moved down by strength * height * (2x/w - 1)^2; returns the image and the map
    of a point."""
    a = np.asarray(img).astype(np.float32)
    h, w = a.shape[:2]
    depth = strength * h
    ys = np.arange(h, dtype=np.float32)
    out = np.empty_like(a)
    for x in range(w):
        shift = depth * (2 * x / w - 1) ** 2
        for channel in range(a.shape[2]):
            out[:, x, channel] = np.interp(ys - shift, ys, a[:, x, channel], left=PAPER, right=PAPER)
    moved = Image.fromarray(out.clip(0, 255).astype(np.uint8))
    return moved, lambda x, y: (x, y + depth * (2 * x / w - 1) ** 2)


def show_through(img, strength):
    """The mirror image's darkness added at `strength`."""
    a = np.asarray(img).astype(np.float32)
    back = a[:, ::-1, :]
    out = a - (255.0 - back) * strength
    return Image.fromarray(out.clip(0, 255).astype(np.uint8)), lambda x, y: (x, y)


def out_of_focus(img, strength):
    return img.filter(ImageFilter.GaussianBlur(strength)), lambda x, y: (x, y)


def folded(img, strength):
    """Two creases, not quite straight nor square to the page: a shadow line with a lit band."""
    a = np.asarray(img).astype(np.float32)
    h, w = a.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    down = 0.52 * w + 0.01 * w * np.sin(ys / h * 3.0) + 0.02 * (ys - h / 2)
    across = 0.37 * h + 0.008 * h * np.sin(xs / w * 4.0) - 0.015 * (xs - w / 2)
    shade = np.zeros((h, w), np.float32)
    for distance in (xs - down, ys - across):
        shade += strength * np.exp(-((distance / 1.2) ** 2)) - 0.25 * strength * np.exp(-(((distance - 5) / 4.0) ** 2))
    out = a - shade[:, :, None]
    return Image.fromarray(out.clip(0, 255).astype(np.uint8)), lambda x, y: (x, y)


def enlarged(img, strength):
    """Resampled to `strength` times the size (Lanczos)."""
    size = (round(img.width * strength), round(img.height * strength))
    sx, sy = size[0] / img.width, size[1] / img.height
    return img.resize(size, Image.LANCZOS), lambda x, y: (x * sx, y * sy)


DAMAGES = {
    "bowed": bowed,
    "show-through": show_through,
    "out-of-focus": out_of_focus,
    "folded": folded,
    "enlarged": enlarged,
}


def move_truth(truth, point):
    """The truth's cell quads, boxes and page corners moved by `point`."""
    for cell in truth["cells"]:
        cell["quad"] = [list(point(x, y)) for x, y in cell["quad"]]
        xs = [p[0] for p in cell["quad"]]
        ys = [p[1] for p in cell["quad"]]
        cell["box"] = [min(xs), min(ys), max(xs), max(ys)]
    if "page_corners" in truth:
        truth["page_corners"] = [list(point(x, y)) for x, y in truth["page_corners"]]
    return truth


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("kind", choices=sorted(DAMAGES))
    parser.add_argument("--strength", type=float)
    args = parser.parse_args()
    strength = DEFAULT_STRENGTH[args.kind] if args.strength is None else args.strength
    os.makedirs(args.output, exist_ok=True)
    sheets = 0
    for name in sorted(os.listdir(args.input)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(args.input, name)) as f:
            truth = json.load(f)
        img = Image.open(os.path.join(args.input, truth["image"])).convert("RGB")
        damaged, point = DAMAGES[args.kind](img, strength)
        image_name = truth["image"].rsplit(".", 1)[0] + ".png"
        damaged.save(os.path.join(args.output, image_name))
        truth["image"] = image_name
        truth = move_truth(truth, point)
        truth["width"], truth["height"] = damaged.size
        with open(os.path.join(args.output, name), "w") as f:
            json.dump(truth, f)
        sheets += 1
    print(f"wrote {sheets} {args.kind} copies to {args.output}")


if __name__ == "__main__":
    main()
