"""Fallback HCS cell cutter with fixed grid fractions (no page analysis), for smoke tests without a
built `scoresheet` binary (cut_hcs.py cuts with the page stage). Writes OUT/{train,test}/labels.tsv.

    python models/train/crude_cut_hcs.py DATA/hcs OUT
"""
import os
import sys

import cv2

TEST_GAMES = {"001", "005", "008", "017", "019", "021", "022", "023", "024", "025", "027", "029", "033", "034",
              "035", "039", "040"}
# Column edges as fractions of the page width: number | white | black, twice.
COLS = {("white", 0): (0.031, 0.256), ("black", 0): (0.256, 0.499), ("white", 1): (0.531, 0.743),
        ("black", 1): (0.743, 1.0)}
TOP, BOTTOM = 0.014, 0.983


def main(hcs, out):
    pages = {}
    tags = [l.split(None, 1) for l in open(os.path.join(hcs, "training_tags.txt"), encoding="utf-8") if l.strip()]
    files = {s: open(os.path.join(out, s, "labels.tsv"), "w", encoding="utf-8") for s in ("train", "test")
             if not os.makedirs(os.path.join(out, s), exist_ok=True)}
    for name, label in tags:
        label = label.strip()
        g, p, m, colour = name[:-4].split("_")
        key = f"{g}_{p}"
        if key not in pages:
            img = cv2.imread(os.path.join(hcs, key + ".jpg"), cv2.IMREAD_GRAYSCALE)
            pages[key] = img
        img = pages[key]
        if img is None:
            continue
        h, w = img.shape
        m = int(m)
        half = 0 if m <= 30 else 1
        row = (m - 1) % 30
        rh = (BOTTOM - TOP) * h / 30
        y0 = int(TOP * h + (row - 0.2) * rh)
        y1 = int(TOP * h + (row + 1.15) * rh)
        c0, c1 = COLS[(colour, half)]
        x0, x1 = int(c0 * w), int(c1 * w)
        cell = img[max(0, y0) : min(h, y1), max(0, x0) : min(w, x1)]
        split = "test" if g in TEST_GAMES else "train"
        fn = f"{g}_{p}_{m}_{colour}.png"
        cv2.imwrite(os.path.join(out, split, fn), cell)
        files[split].write(f"{fn}\t{label}\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
