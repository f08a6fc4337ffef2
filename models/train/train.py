"""Trains the CRNN with CTC on labels.tsv directories, within a time budget, and exports ONNX.

    python models/train/train.py --data DIR:WEIGHT [--data DIR:WEIGHT ...] --val DIR \
        --minutes 90 --out models/recognizer.onnx

Runs on CPU (2 threads) unless a CUDA device is present.
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Alphabet  # noqa: E402
from data import Mixture, load_dir  # noqa: E402
from export import export  # noqa: E402
from model import CRNN, count_params  # noqa: E402


def greedy_texts(logp, lengths, alphabet):
    best = logp.argmax(-1).cpu().numpy()
    out = []
    for row, n in zip(best, lengths.tolist()):
        labels, prev = [], 0
        for c in row[:n]:
            if c != 0 and c != prev:
                labels.append(int(c))
            prev = c
        out.append(alphabet.decode(labels))
    return out


def train_mode(model, freeze_bn):
    """Training mode; with `freeze_bn` the batch norms keep their running statistics (a model
    recovered by from_onnx.py, whose batch norms are identities after folded convolutions)."""
    model.train()
    if freeze_bn:
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.eval()


def validate(model, items, alphabet, device, batch=64):
    from data import collate
    from common import preprocess

    model.eval()
    exact = 0
    with torch.no_grad():
        for s in range(0, len(items), batch):
            chunk = items[s : s + batch]
            x, _, lengths, _ = collate([preprocess(it[0]) for it in chunk], [it[1] for it in chunk])
            texts = greedy_texts(model(x.to(device)), lengths, alphabet)
            exact += sum(t == it[2] for t, it in zip(texts, chunk))
    return exact / max(len(items), 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", action="append", required=True, help="DIR:WEIGHT (weight default 1)")
    ap.add_argument("--val", action="append", default=[])
    ap.add_argument("--minutes", type=float, default=90)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--aug", type=float, default=1.0)
    ap.add_argument("--limit", type=int, help="at most this many cells per directory (smoke tests)")
    ap.add_argument("--config", default="{}", help="JSON of CRNN keyword arguments")
    ap.add_argument("--out", required=True, help="ONNX file to write")
    ap.add_argument("--checkpoint", help="where to keep the PyTorch checkpoint (default: OUT.pt)")
    ap.add_argument("--init", help="start from this checkpoint")
    ap.add_argument("--freeze-bn", action="store_true",
                    help="keep the batch norms' running statistics (fine-tuning a checkpoint from from_onnx.py)")
    a = ap.parse_args()

    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    alphabet = Alphabet()
    sources, weights = [], []
    for spec in a.data:
        d, _, w = spec.partition(":")
        items, skipped = load_dir(d, alphabet, a.limit, blanks=True)
        print(f"{d}: {len(items)} cells, {skipped} skipped", flush=True)
        if items:
            sources.append(items)
            weights.append(float(w or 1))
    val = []
    for d in a.val:
        items, _ = load_dir(d, alphabet, a.limit)
        val.extend(items)
    config = json.loads(a.config)
    model = CRNN(alphabet.num_classes, **config).to(device)
    if a.init:
        model.load_state_dict(torch.load(a.init, map_location="cpu")["state"])
    print(f"CRNN: {count_params(model)} parameters, device {device}", flush=True)
    train_mode(model, a.freeze_bn)

    loader = torch.utils.data.DataLoader(Mixture(sources, weights, a.batch, a.seed, a.aug), batch_size=None,
                                         num_workers=a.workers, prefetch_factor=4 if a.workers else None)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    ctc = torch.nn.CTCLoss(blank=0, zero_infinity=True)
    budget = a.minutes * 60
    start = time.time()
    step, seen, avg = 0, 0, None
    last_log = start
    for x, targets, in_len, tgt_len in loader:
        frac = (time.time() - start) / budget
        if frac >= 1:
            break
        lr = a.lr * min(1.0, frac / 0.03) * (0.5 * (1 + math.cos(math.pi * frac)) * 0.97 + 0.03)
        for g in opt.param_groups:
            g["lr"] = lr
        logp = model(x.to(device))
        loss = ctc(logp.permute(1, 0, 2), targets, in_len, tgt_len)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        step += 1
        seen += x.shape[0]
        avg = loss.item() if avg is None else 0.98 * avg + 0.02 * loss.item()
        if time.time() - last_log > 60:
            last_log = time.time()
            el = last_log - start
            print(f"{el/60:5.1f} min  step {step}  {seen} cells ({seen/el:.0f}/s)  loss {avg:.3f}  lr {lr:.2e}", flush=True)
    el = time.time() - start
    print(f"trained {el/60:.1f} min, {step} steps, {seen} cells", flush=True)
    ck = a.checkpoint or os.path.splitext(a.out)[0] + ".pt"
    torch.save({"config": config, "state": model.state_dict(), "steps": step, "cells": seen, "minutes": el / 60}, ck)
    model = model.cpu()
    if val:
        print(f"validation exact (greedy): {100*validate(model, val, alphabet, 'cpu'):.1f} % of {len(val)}", flush=True)
    export(model, a.out)
    print("wrote", a.out, flush=True)


if __name__ == "__main__":
    main()
