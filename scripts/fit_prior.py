#!/usr/bin/env python3
"""Fits the decoder's move prior (src/decode/prior.rs, WEIGHTS): a conditional logit over each
position's legal moves, by Newton's method with an L2 penalty, on the features
`cargo run --release --example prior_data -- HCS_DIR` writes (the HCS training games). With
--check, also scores the development games' features (`prior_data HCS_DIR --dev`): mean
log-probability of the move played, against a uniform choice among the legal moves.

    python3 scripts/fit_prior.py TRAIN.tsv [--check DEV.tsv] [--l2 1.0]
"""
import argparse

import numpy as np


def load(path):
    keys, ys, xs = [], [], []
    with open(path) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            keys.append((p[0], int(p[1])))
            ys.append(int(p[2]))
            xs.append([float(v) for v in p[3:]])
    # Group index per row: rows of one position are consecutive.
    group = np.zeros(len(keys), dtype=np.int64)
    g = 0
    for i in range(1, len(keys)):
        if keys[i] != keys[i - 1]:
            g += 1
        group[i] = g
    return np.array(xs), np.array(ys, dtype=np.float64), group


def probs(x, group, w):
    """Each move's probability in its position, and each position's log normalizer."""
    s = x @ w
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    m = np.maximum.reduceat(s, starts)
    e = np.exp(s - m[group])
    z = np.add.reduceat(e, starts)
    return e / z[group], np.log(z) + m


def objective(x, y, group, w, l2):
    """Negative log-likelihood of the moves played, plus the L2 penalty."""
    _, lz = probs(x, group, w)
    return -(x[y > 0] @ w).sum() + lz.sum() + 0.5 * l2 * w @ w


def fit(x, y, group, l2):
    """Newton's method with step halving."""
    k = x.shape[1]
    w = np.zeros(k)
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    f = objective(x, y, group, w, l2)
    for _ in range(100):
        p, _ = probs(x, group, w)
        mean = np.add.reduceat(x * p[:, None], starts)
        grad = mean.sum(0) - x[y > 0].sum(0) + l2 * w
        d = x - mean[group]
        hess = (d * p[:, None]).T @ d + l2 * np.eye(k)
        step = np.linalg.solve(hess, grad)
        t = 1.0
        while t > 1e-6:
            nw = w - t * step
            nf = objective(x, y, group, nw, l2)
            if nf <= f:
                break
            t /= 2
        w, f = nw, nf
        if np.abs(t * step).max() < 1e-7:
            break
    return w


def mean_logp(x, y, group, w):
    p, _ = probs(x, group, w)
    chosen = y > 0
    counts = np.bincount(group)
    return np.log(p[chosen]).mean(), -np.log(counts[group[chosen]]).mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("train")
    ap.add_argument("--check")
    ap.add_argument("--l2", type=float, default=1.0)
    a = ap.parse_args()
    x, y, g = load(a.train)
    w = fit(x, y, g, a.l2)
    fitted, uniform = mean_logp(x, y, g, w)
    print(f"train: {g.max() + 1} positions, mean log-prob of the move played {fitted:.3f} (uniform {uniform:.3f})")
    if a.check:
        xd, yd, gd = load(a.check)
        fitted, uniform = mean_logp(xd, yd, gd, w)
        print(f"check: {gd.max() + 1} positions, mean log-prob of the move played {fitted:.3f} (uniform {uniform:.3f})")
    print("pub const WEIGHTS: [f32; FEATURES] = [")
    for i in range(0, len(w), 6):
        print("    " + " ".join(f"{v:.4f}," for v in w[i : i + 6]))
    print("];")


if __name__ == "__main__":
    main()
