"""Averages the weights of checkpoints of one architecture (a fine-tuned model and the model it
started from: the shipped recognizer.onnx is such an average) and exports the average.

    python models/train/average.py A.pt B.pt [C.pt ...] --out DIR/recognizer.onnx [--checkpoint AVG.pt]

Batch-norm statistics are averaged like the weights (with `train.py --freeze-bn` they are the same
in every checkpoint of one lineage).
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Alphabet  # noqa: E402
from export import export  # noqa: E402
from model import CRNN  # noqa: E402


def average(paths):
    cks = [torch.load(p, map_location="cpu") for p in paths]
    config = cks[0]["config"]
    for p, ck in zip(paths, cks):
        if ck["config"] != config:
            raise SystemExit(f"{p}: config {ck['config']} differs from {paths[0]}'s {config}")
    state = {}
    for k, v in cks[0]["state"].items():
        if v.is_floating_point():
            state[k] = sum(ck["state"][k] for ck in cks) / len(cks)
        else:
            state[k] = v
    model = CRNN(Alphabet().num_classes, **config)
    model.load_state_dict(state)
    return model, config


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("checkpoints", nargs="+")
    ap.add_argument("--out", required=True, help="ONNX file to write")
    ap.add_argument("--checkpoint", help="also write the averaged checkpoint here")
    a = ap.parse_args()
    model, config = average(a.checkpoints)
    if a.checkpoint:
        torch.save({"config": config, "state": model.state_dict(), "averaged": a.checkpoints}, a.checkpoint)
    export(model, a.out)
    print("wrote", a.out)
