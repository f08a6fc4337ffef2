"""Evaluates an ONNX model on labels.tsv directories: exact match of the top reading, label among
the top 5, character error rate. Labels and readings are compared folded (see alphabet.json).

    python models/train/evaluate.py --model models/recognizer.onnx DIR [DIR ...] [--json OUT] [--alone]

Each view of preprocess.json is read by its model (view_models), as the tool reads cells; --alone
reads every view with --model.
"""
import argparse
import json
import math
import os
import sys
import time
from collections import defaultdict

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Alphabet, preprocess, view_models, views  # noqa: E402


def log_add(a, b):
    if a < b:
        a, b = b, a
    if b == -math.inf:
        return a
    return a + math.log1p(math.exp(b - a))


def beam_search(lp, beam=16, k=5, prune=math.log(1e-6)):
    """Prefix beam search (same as ctc::beam_search in Rust, without the exact rescoring)."""
    beams = {(): (0.0, -math.inf)}
    for t in range(lp.shape[0]):
        row = lp[t]
        active = [c for c in np.nonzero(row >= prune)[0].tolist() if c != 0]
        nxt = defaultdict(lambda: [-math.inf, -math.inf])
        for prefix, (pb, pl) in beams.items():
            total = log_add(pb, pl)
            e = nxt[prefix]
            e[0] = log_add(e[0], total + row[0])
            if prefix:
                e[1] = log_add(e[1], pl + row[prefix[-1]])
            for c in active:
                ext = prefix + (c,)
                src = pb if prefix and prefix[-1] == c else total
                e2 = nxt[ext]
                e2[1] = log_add(e2[1], src + row[c])
        items = sorted(nxt.items(), key=lambda kv: -log_add(*kv[1]))[:beam]
        beams = {p: tuple(v) for p, v in items}
    out = sorted(beams.items(), key=lambda kv: -log_add(*kv[1]))[:k]
    return [(list(p), log_add(*v)) for p, v in out]


def log_prob(lp, labels):
    """Exact CTC log-probability of `labels` (the forward algorithm, as ctc::log_prob in Rust)."""
    ext = [0]
    for c in labels:
        ext += [c, 0]
    n, frames = len(ext), lp.shape[0]
    if frames == 0:
        return 0.0 if not labels else -math.inf
    alpha = np.full(n, -np.inf)
    alpha[0] = lp[0, 0]
    if n > 1:
        alpha[1] = lp[0, ext[1]]
    for t in range(1, frames):
        prev = alpha
        alpha = np.full(n, -np.inf)
        for s in range(n):
            a = prev[s]
            if s >= 1:
                a = np.logaddexp(a, prev[s - 1])
            if s >= 2 and ext[s] != 0 and ext[s] != ext[s - 2]:
                a = np.logaddexp(a, prev[s - 2])
            alpha[s] = a + lp[t, ext[s]]
    return float(np.logaddexp(alpha[-1], alpha[-2]) if n > 1 else alpha[-1])


def top_readings(view_lps, k=5):
    """The k likeliest readings of one cell read at several views: the top k of each view's beam
    search, scored by the mean of their exact log-probabilities over the views (as CellScores in Rust)."""
    cands = {tuple(p) for lp in view_lps for p, _ in beam_search(lp, beam=16, k=k)}
    scored = [(list(c), float(np.mean([log_prob(lp, list(c)) for lp in view_lps]))) for c in cands]
    scored.sort(key=lambda x: -x[1])
    return scored[:k]


def edit_distance(a, b):
    d = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, d[0] = d[0], i
        for j, cb in enumerate(b, 1):
            cur = min(d[j] + 1, d[j - 1] + 1, prev + (ca != cb))
            prev, d[j] = d[j], cur
    return d[len(b)]


def run_model(runner, alphabet, images, batch=64, stretch=1.0):
    """Per-cell log-probabilities, cells of equal width batched together; `stretch`: the view."""
    pre = [preprocess(img, stretch=stretch) for img in images]
    groups = defaultdict(list)
    for i, (t, _) in enumerate(pre):
        groups[t.shape[1]].append(i)
    out = [None] * len(images)
    for width, idx in groups.items():
        for s in range(0, len(idx), batch):
            chunk = idx[s : s + batch]
            x = np.stack([pre[i][0] for i in chunk])[:, None]
            y = runner.run(None, {"image": x})[0]
            for j, i in enumerate(chunk):
                frames = y.shape[1]
                valid = max(1, -(-pre[i][1] * frames // width))
                out[i] = y[j, :valid]
    return out


def evaluate(model_path, dirs, limit=None, threads=1, show=0, alone=False):
    import onnxruntime as ort
    from cells import load_dir

    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    runner = ort.InferenceSession(model_path, so, providers=["CPUExecutionProvider"])
    # Each view read by its model (preprocess.json's view_models: other models beside this one), or
    # every view by this model with `alone`.
    partners = {}
    for name in [] if alone else view_models():
        if name and name not in partners:
            partners[name] = ort.InferenceSession(os.path.join(os.path.dirname(os.path.abspath(model_path)), name), so,
                                                  providers=["CPUExecutionProvider"])
    readers = [partners[n] if n else runner for n in ([None] * len(views()) if alone else view_models())]
    alphabet = Alphabet()
    results = {}
    for d in dirs:
        items, skipped = load_dir(d, alphabet, limit=limit, keep_height=10_000)
        t0 = time.time()
        per_view = [run_model(m, alphabet, [it[0] for it in items], stretch=v) for m, v in zip(readers, views())]
        secs = time.time() - t0
        exact = top5 = 0
        errs = chars = 0
        bad = []
        for i, (img, labels, text, file) in enumerate(items):
            top = top_readings([lps[i] for lps in per_view], k=5)
            texts = [alphabet.decode(p) for p, _ in top]
            best = texts[0] if texts else ""
            exact += best == text
            top5 += text in texts
            errs += edit_distance(best, text)
            chars += len(text)
            if best != text and len(bad) < show:
                bad.append((os.path.basename(file), text, texts[:3]))
        n = max(len(items), 1)
        r = {"cells": len(items), "skipped": skipped, "exact": exact / n, "top5": top5 / n, "cer": errs / max(chars, 1),
             "ms_per_cell_model": 1000 * secs / n}
        results[d] = r
        print(f"{d}: {len(items)} cells ({skipped} skipped): exact {100*r['exact']:.1f} %, top-5 {100*r['top5']:.1f} %, "
              f"CER {100*r['cer']:.1f} %, {r['ms_per_cell_model']:.2f} ms/cell", flush=True)
        for b in bad:
            print("   ", *b)
    return results


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--show", type=int, default=0, help="print this many misread cells per directory")
    ap.add_argument("--alone", action="store_true", help="read every view with --model (no view_models partners)")
    ap.add_argument("--json")
    a = ap.parse_args()
    res = evaluate(a.model, a.dirs, a.limit, a.threads, a.show, a.alone)
    if a.json:
        json.dump(res, open(a.json, "w"), indent=1)
