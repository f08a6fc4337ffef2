"""Training data: the cell folders of cells.py (labels.tsv + images), mixed with weights into augmented
CTC batches.
"""
import random

import numpy as np
import torch

from augment import augment
from cells import KEEP_HEIGHT, load_dir, read_gray, shrink  # noqa: F401 (gpu/train_gpu.py uses data.load_dir)
from common import PRE, preprocess
from model import frames_for


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
