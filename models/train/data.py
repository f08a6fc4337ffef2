"""Training data: directories of cell images with `labels.tsv` (FILE<TAB>TEXT per line).

Both `scoresheet synth --cells` and `cut_hcs.py` (HCS cells cut by our own `page` stage) write
this layout.
"""
import os
import random

import cv2
import numpy as np
import torch

from augment import augment
from common import PRE, preprocess
from model import frames_for

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


def collate(tensors, labels):
    """Pads preprocessed cells to one width; returns CTC inputs."""
    width = max(t.shape[1] for t, _ in tensors)
    x = np.zeros((len(tensors), 1, PRE["height"], width), np.float32)
    lengths = []
    for i, (t, cw) in enumerate(tensors):
        x[i, 0, :, : t.shape[1]] = t
        lengths.append(frames_for(cw))
    targets = torch.tensor([c for l in labels for c in l], dtype=torch.long)
    return (torch.from_numpy(x), targets, torch.tensor(lengths, dtype=torch.long),
            torch.tensor([len(l) for l in labels], dtype=torch.long))


class Mixture(torch.utils.data.IterableDataset):
    """Endless batches drawn from several sources with weights, augmented."""

    def __init__(self, sources, weights, batch_size, seed, aug_strength=1.0):
        self.sources, self.weights = sources, weights
        self.batch_size, self.seed, self.aug = batch_size, seed, aug_strength

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        wid = info.id if info else 0
        rng = np.random.default_rng(self.seed + 1000 * wid)
        pr = random.Random(self.seed + 7 * wid)
        while True:
            tensors, labels = [], []
            for _ in range(self.batch_size):
                src = pr.choices(self.sources, self.weights)[0]
                img, lab, _, _ = src[pr.randrange(len(src))]
                if self.aug > 0:
                    other = src[pr.randrange(len(src))][0]
                    img = augment(img, rng, self.aug, other if other.size else None)
                # Read at a horizontal stretch now and then, as inference's views do.
                stretch = rng.uniform(0.8, 1.2) if self.aug > 0 and rng.random() < 0.5 * self.aug else 1.0
                tensors.append(preprocess(img, stretch=stretch))
                labels.append(lab)
            yield collate(tensors, labels)
