"""Runs models/train/train.py unchanged, except that load_dir reads the cell images with 16 threads
(same items, same order as data.load_dir) and OpenCV runs single-threaded in each data worker."""
import os
import sys
from concurrent.futures import ThreadPoolExecutor

import cv2

cv2.setNumThreads(1)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
KEEP_HEIGHT = 64


def _read(path, keep_height):
    img = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    if img is None:
        return None
    h, w = img.shape
    if h <= keep_height:
        return img
    return cv2.resize(img, (max(1, round(w * keep_height / h)), keep_height), interpolation=cv2.INTER_AREA)


def load_dir(path, alphabet, limit=None, keep_height=KEEP_HEIGHT, blanks=False):
    with open(os.path.join(path, "labels.tsv"), encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if l.strip("\n")]
    todo, skipped = [], 0
    for line in lines[:limit] if limit else lines:
        name, _, text = line.partition("\t")
        labels = alphabet.encode(text)
        if labels is None or (not labels and not blanks):
            skipped += 1
            continue
        todo.append((os.path.join(path, name), labels, alphabet.fold(text)))
    with ThreadPoolExecutor(16) as ex:
        imgs = list(ex.map(lambda t: _read(t[0], keep_height), todo))
    items = []
    for (file, labels, folded), img in zip(todo, imgs):
        if img is None:
            skipped += 1
            continue
        items.append((img, labels, folded, file))
    return items, skipped


if __name__ == "__main__":
    import train  # noqa: E402

    train.load_dir = load_dir
    train.main()
