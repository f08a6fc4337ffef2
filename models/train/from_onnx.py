"""Recovers a PyTorch checkpoint from an exported float model (export.py's ONNX), so that a shipped
model can be fine-tuned without its training checkpoints:

    python models/train/from_onnx.py models/recognizer.onnx /tmp/shipped.pt
    python models/train/train.py ... --init /tmp/shipped.pt --freeze-bn ...

The exporter folds each batch norm into its convolution (weights scaled, a bias added). The
checkpoint keeps the folded convolution and puts an identity batch norm after it (mean 0,
variance 1 - eps, scale 1, shift = the folded bias), so the network computes what the ONNX model
does; fine-tune it with `train.py --freeze-bn` (batch statistics would replace the identity).
The LSTM's gates are reordered from ONNX's (input, output, forget, cell) to PyTorch's (input,
forget, cell, output). The checkpoint is checked against the ONNX model before it is written.
"""
import argparse
import os
import sys

import numpy as np
import onnx
import torch
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Alphabet  # noqa: E402
from model import CRNN  # noqa: E402

# Positions of the convolutions and their batch norms in CRNN.cnn.
CONVS = [0, 4, 8, 11, 15]
BNS = [1, 5, 9, 12, 16]


def onnx_gates_to_torch(x, hidden):
    """Rows [i, o, f, c] (ONNX) to [i, f, c, o] (PyTorch) along the first axis."""
    i, o, f, c = (x[k * hidden:(k + 1) * hidden] for k in range(4))
    return np.concatenate([i, f, c, o])


def checkpoint_from_onnx(path):
    m = onnx.load(path)
    init = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    nodes = list(m.graph.node)
    convs = [n for n in nodes if n.op_type == "Conv"]
    lstms = [n for n in nodes if n.op_type == "LSTM"]
    matmuls = [n for n in nodes if n.op_type == "MatMul"]
    if len(convs) != len(CONVS) or not lstms or len(matmuls) != 2:
        raise SystemExit(f"{path}: not a float CRNN as export.py writes it "
                         f"({len(convs)} Conv, {len(lstms)} LSTM, {len(matmuls)} MatMul)")
    channels = [int(init[n.input[1]].shape[0]) for n in convs]
    hidden = int(init[lstms[0].input[2]].shape[2])
    config = {"channels": channels, "hidden": hidden, "layers": len(lstms)}
    classes = int(init[matmuls[1].input[1]].shape[1])
    if classes != Alphabet().num_classes:
        raise SystemExit(f"{path}: {classes} classes, the alphabet has {Alphabet().num_classes}")
    model = CRNN(classes, **config)
    state = model.state_dict()
    put = lambda k, v: state[k].copy_(torch.from_numpy(np.array(v, dtype=np.float32)))  # noqa: E731
    for n, ci, bi in zip(convs, CONVS, BNS):
        put(f"cnn.{ci}.weight", init[n.input[1]])
        bn = model.cnn[bi]
        c = init[n.input[1]].shape[0]
        put(f"cnn.{bi}.weight", np.ones(c, np.float32))
        put(f"cnn.{bi}.bias", init[n.input[2]])
        put(f"cnn.{bi}.running_mean", np.zeros(c, np.float32))
        put(f"cnn.{bi}.running_var", np.full(c, 1.0 - bn.eps, np.float32))
    put("proj.0.weight", init[matmuls[0].input[1]].T)
    put("proj.0.bias", init["proj.0.bias"])
    for layer, n in enumerate(lstms):
        w, r, b = (init[n.input[k]] for k in (1, 2, 3))
        for d, suffix in enumerate(["", "_reverse"]):
            put(f"rnn.weight_ih_l{layer}{suffix}", onnx_gates_to_torch(w[d], hidden))
            put(f"rnn.weight_hh_l{layer}{suffix}", onnx_gates_to_torch(r[d], hidden))
            put(f"rnn.bias_ih_l{layer}{suffix}", onnx_gates_to_torch(b[d][:4 * hidden], hidden))
            put(f"rnn.bias_hh_l{layer}{suffix}", onnx_gates_to_torch(b[d][4 * hidden:], hidden))
    put("out.weight", init[matmuls[1].input[1]].T)
    put("out.bias", init["out.bias"])
    model.load_state_dict(state)
    return model, config


def check(model, path, tol=1e-4):
    """Largest difference between the checkpoint's and the ONNX model's log-probabilities."""
    import onnxruntime as ort

    runner = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(1)
    worst = 0.0
    model.eval()
    for width in (32, 96, 200):
        x = rng.random((3, 1, 32, width), dtype=np.float32)
        with torch.no_grad():
            mine = model(torch.from_numpy(x)).numpy()
        theirs = runner.run(None, {"image": x})[0]
        worst = max(worst, float(np.abs(mine - theirs).max()))
    if worst > tol:
        raise SystemExit(f"{path}: the recovered model differs from the ONNX model by {worst:.2e}")
    return worst


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("onnx", help="a float model written by export.py (not the int8 one)")
    ap.add_argument("out", help="the checkpoint to write (train.py --init)")
    a = ap.parse_args()
    model, config = checkpoint_from_onnx(a.onnx)
    worst = check(model, a.onnx)
    torch.save({"config": config, "state": model.state_dict(), "from_onnx": os.path.basename(a.onnx)}, a.out)
    print(f"wrote {a.out} ({config}; largest difference from the ONNX model {worst:.1e})")
