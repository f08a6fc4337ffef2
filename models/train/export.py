"""Exports a checkpoint to ONNX (opset 17, dynamic batch and width, one file)."""
import argparse
import os
import shutil

import torch

from common import MODELS, Alphabet
from model import CRNN


def export(model, path, height=32):
    model.eval()
    dummy = torch.zeros(2, 1, height, 96)
    torch.onnx.export(model, dummy, path, opset_version=17, dynamo=False, input_names=["image"],
                      output_names=["logprobs"],
                      dynamic_axes={"image": {0: "batch", 3: "width"}, "logprobs": {0: "batch", 1: "frames"}})
    d = os.path.dirname(os.path.abspath(path))
    for name in ("alphabet.json", "preprocess.json"):
        if os.path.abspath(os.path.join(d, name)) != os.path.join(MODELS, name):
            shutil.copy(os.path.join(MODELS, name), os.path.join(d, name))


def load_checkpoint(path):
    ck = torch.load(path, map_location="cpu")
    model = CRNN(Alphabet().num_classes, **ck["config"])
    model.load_state_dict(ck["state"])
    return model


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("checkpoint")
    ap.add_argument("out")
    a = ap.parse_args()
    export(load_checkpoint(a.checkpoint), a.out)
    print("wrote", a.out)
