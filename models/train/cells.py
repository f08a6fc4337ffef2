"""Cell folders: directories of cell images with `labels.tsv` (FILE<TAB>TEXT per line), read without
torch (evaluate.py and the renderers need no torch).

`scoresheet-dev synth --cells`, `cut_hcs.py`, `synth_cells.py` and `unipen.py` write this layout.
"""
import os

import cv2

KEEP_HEIGHT = 64  # raw cells are kept in memory at most this tall (augmentation runs on them)


def read_gray(path):
    img = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    if img is None:
        raise ValueError(f"{path}: cannot read the image")
    return img


def shrink(img, height=KEEP_HEIGHT):
    h, w = img.shape
    if h <= height:
        return img
    return cv2.resize(img, (max(1, round(w * height / h)), height), interpolation=cv2.INTER_AREA)


def load_dir(path, alphabet, limit=None, keep_height=KEEP_HEIGHT, blanks=False, threads=1):
    """[(image uint8, labels, folded text, file)] of one labels.tsv directory; unknown characters are skipped,
    and so are blank cells (label "") unless `blanks`. `threads`: images read in parallel (same items, same
    order)."""
    todo, skipped = [], 0
    with open(os.path.join(path, "labels.tsv"), encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if l.strip("\n")]
    for line in lines[:limit] if limit else lines:
        name, _, text = line.partition("\t")
        labels = alphabet.encode(text)
        if labels is None or (not labels and not blanks):
            skipped += 1
            continue
        todo.append((os.path.join(path, name), labels, alphabet.fold(text)))

    def read(file):
        try:
            return shrink(read_gray(file), keep_height)
        except ValueError:
            return None

    if threads > 1:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(threads) as ex:
            imgs = list(ex.map(read, (t[0] for t in todo)))
    else:
        imgs = [read(t[0]) for t in todo]
    items = []
    for (file, labels, folded), img in zip(todo, imgs):
        if img is None:
            skipped += 1
            continue
        items.append((img, labels, folded, file))
    return items, skipped
