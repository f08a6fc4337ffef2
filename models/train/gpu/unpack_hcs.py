"""Decodes the bundle's HCS cells (shrunk to 64 px high, WebP q90) to PNG under DST/{train,blank}."""
import os
import sys
from concurrent.futures import ThreadPoolExecutor

import cv2
import numpy as np

src, dst = sys.argv[1], sys.argv[2]


def dec(path):
    img = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    if img is None:
        from PIL import Image
        img = np.asarray(Image.open(path).convert("L"))
    return img


n = 0
for split in ("train", "blank"):
    os.makedirs(os.path.join(dst, split), exist_ok=True)
    lines = open(os.path.join(src, split, "labels.tsv"), encoding="utf-8").read()
    open(os.path.join(dst, split, "labels.tsv"), "w", encoding="utf-8").write(lines)
    names = [l.split("\t")[0] for l in lines.split("\n") if l]

    def one(name):
        img = dec(os.path.join(src, split, name[:-4] + ".webp"))
        cv2.imwrite(os.path.join(dst, split, name), img, [cv2.IMWRITE_PNG_COMPRESSION, 1])

    with ThreadPoolExecutor(16) as ex:
        list(ex.map(one, names))
    n += len(names)
print("hcs cells decoded:", n)
