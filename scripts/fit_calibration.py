#!/usr/bin/env python3
"""Fits the decoder's confidence calibration (src/decode/confidence.rs, CALIBRATION) by logistic
regression on the evidence `scoresheet-dev eval DIR --hcs --dev 100 --dump FILE` writes, and shows how
well calibrated the result is and what each flag threshold catches.

    python3 scripts/fit_calibration.py FILE [--l2 1.0]

FILE: one line per move read: game, half-move, features..., the half-moves that brought the moved
piece and the captured piece to their squares (-1: none), dependence, right (1/0; -1: not counted,
the player's own error or past the truth; left out here).

After the fit it sweeps the weight of the dependence on uncertain earlier moves (the confidence
is `calibrated x (1 - weight x dependence)`, src/decode/confidence.rs DEPENDENCE_WEIGHT) on the
two-fold predictions, and shows what each flag threshold catches with the weight chosen.
"""
import argparse

import numpy as np


def fit(x, y, l2):
    """Logistic regression by Newton's method with an L2 penalty (not on the bias)."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(xb.shape[1])
    reg = np.full(xb.shape[1], l2)
    reg[-1] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-xb @ w))
        g = xb.T @ (p - y) + reg * w
        h = (xb * (p * (1 - p))[:, None]).T @ xb + np.diag(reg)
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def predict(x, w):
    return 1 / (1 + np.exp(-(np.hstack([x, np.ones((len(x), 1))]) @ w)))


def report(name, p, y):
    print(f"{name}: {len(y)} moves, {100 * y.mean():.1f} % right, Brier {np.mean((p - y) ** 2):.4f}, "
          f"log-loss {-np.mean(y * np.log(p + 1e-9) + (1 - y) * np.log(1 - p + 1e-9)):.4f}")
    print("  confidence bin   moves   mean confidence   share right")
    edges = [0, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 0.99, 1.0001]
    for lo, hi in zip(edges, edges[1:]):
        m = (p >= lo) & (p < hi)
        if m.any():
            print(f"  [{lo:.2f}, {min(hi, 1):.2f})  {m.sum():7d}   {p[m].mean():15.3f}   {y[m].mean():11.3f}")
    print("  threshold   wrong moves flagged   moves flagged")
    wrong = y == 0
    for t in [0.5, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98]:
        f = p < t
        print(f"  {t:9.2f}   {100 * (f & wrong).sum() / max(wrong.sum(), 1):18.1f} %   {100 * f.mean():11.1f} %")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--features", default="0,1,3,5,6",
                    help="features used (0 own look-ahead logit, 1 cell margin, 2 off-ink, 3 off-ink around, "
                         "4 look-ahead logit around, 5 spelling's score under the cell's best reading, 6 the "
                         "recognizer's score of that reading); the neighbours' look-ahead is left out by default: "
                         "it made an ambiguous cell in a clean stretch confident")
    a = ap.parse_args()
    rows = [l.rstrip("\n").split("\t") for l in open(a.file) if l.strip()]
    rows = [r for r in rows if r[-1] != "-1"]
    games = np.array([r[0] for r in rows])
    x_all = np.array([[float(v) for v in r[2:-4]] for r in rows])
    dep = np.array([float(r[-2]) for r in rows])
    cols = [int(c) for c in a.features.split(",")]
    x = x_all[:, cols]
    y = np.array([float(r[-1]) for r in rows])
    # Before: the look-ahead probability alone (the first feature is its logit).
    report("look-ahead probability (uncalibrated)", 1 / (1 + np.exp(-x_all[:, 0])), y)
    # Honest estimate: fitted on half the games, measured on the other half, and the reverse.
    names = sorted(set(games))
    half = set(names[::2])
    a_mask = np.array([g in half for g in games])
    p_cv = np.zeros(len(y))
    for train in (a_mask, ~a_mask):
        p_cv[~train] = predict(x[~train], fit(x[train], y[train], a.l2))
    report("calibrated, two-fold by game (held-out halves)", p_cv, y)
    # The dependence weight, on the held-out predictions.
    def logloss(p):
        return -np.mean(y * np.log(p + 1e-9) + (1 - y) * np.log(1 - p + 1e-9))
    weights = [0, 0.25, 0.5, 0.75, 1]
    losses = [logloss(p_cv * (1 - wd * dep)) for wd in weights]
    print("dependence weight:", ", ".join(f"{wd}: {l:.4f}" for wd, l in zip(weights, losses)))
    best = weights[int(np.argmin(losses))]
    report(f"with the dependence weight {best}", p_cv * (1 - best * dep), y)
    w = fit(x, y, a.l2)
    full = np.zeros(x_all.shape[1] + 1)
    full[cols] = w[:-1]
    full[-1] = w[-1]
    print("CALIBRATION (fitted on all):", "[" + ", ".join(f"{v:.4f}" for v in full) + "]")
    # The flag threshold for the confidences the decoder will give with these weights.
    pf = predict(x, w) * (1 - best * dep)
    wrong = y == 0
    ok = [t for t in np.arange(0.5, 1.0, 0.01) if (pf < t).mean() <= 0.10]
    if ok:
        t = max(ok)
        print(f"highest threshold flagging at most 10 % (fitted on all, dependence weight {best}): {t:.2f} "
              f"(flags {100 * (pf < t).mean():.1f} %, catches {100 * ((pf < t) & wrong).sum() / max(wrong.sum(), 1):.1f} % "
              f"of wrong moves)")


if __name__ == "__main__":
    main()
