"""Derives the runtime model from the float export: the LSTM's and the linear layers' weights as
8-bit integers (ONNX Runtime's dynamic quantization: weights int8 per tensor, activations
quantized on the fly per batch), the convolutions left in float. The file the Rust recognizer
loads by default is this one; alphabet.json and preprocess.json are the float model's.

    python models/train/quantize.py models/recognizer.onnx models/recognizer.int8.onnx

Needs: onnxruntime==1.31.1, onnx. Why only these layers: quantizing the convolutions too (static,
calibrated on HCS training cells) is faster still but reads the games worse (see models/MODEL_CARD.md).
"""
import argparse

from onnxruntime.quantization import QuantType, quantize_dynamic


def quantize(src, dst):
    quantize_dynamic(src, dst, weight_type=QuantType.QInt8, op_types_to_quantize=["LSTM", "MatMul", "Gemm"])


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("src", help="the float model (export.py's output)")
    ap.add_argument("dst", help="the quantized model to write")
    a = ap.parse_args()
    quantize(a.src, a.dst)
    print("wrote", a.dst)
