#!/usr/bin/env bash
# GPU-machine side of one training run: unpack (or reuse the data still in $W from an earlier run), render the synthetic sets on all cores, train in two
# stages (from scratch, then a lower learning rate), export. Everything lands in $W, results in $OUT.
# Run from anywhere as `bash models/train/gpu/run.sh`; the bundle is $BUNDLE (default .gpu at the repository root).
set -uo pipefail
cd "$(dirname "$0")/../../.."   # the repository root
BUNDLE=${BUNDLE:-.gpu}      # the packed data (models/train/gpu/pack.sh), relative to the repository root or absolute
source models/train/gpu/prepare.sh
OVER=55   # estimated seconds per stage outside the training loop (imports, loading, validation, export)
AVAIL=$(( END - G - 2 * OVER ))
M1=$(python3 -c "print(round(0.6 * $AVAIL / 60, 2))")
echo "[$(el) s] stage 1: $M1 min, batch $BATCH, lr $LR1"
S1=$(date +%s)
train_stage "$M1" "$LR1" stage1 || exit 1
cp "$W/stage1.onnx" "$OUT/" 2>/dev/null
O1=$(python3 -c "print(max(30, $(date +%s) - $S1 - $M1 * 60))")
M2=$(python3 -c "print(round(($END - $(el) - $O1 - 5) / 60, 2))")
echo "[$(el) s] stage 1 overhead ${O1} s; stage 2: $M2 min, lr $LR2"
train_stage "$M2" "$LR2" recognizer_gpu --init "$OUT/stage1.pt" || exit 1
cp "$W/recognizer_gpu.onnx" "$OUT/"
echo "[$(el) s] done"
