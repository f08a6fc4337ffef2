#!/usr/bin/env bash
# GPU-machine side of a continuation: unpack (or reuse the data still in $W from an earlier run on the
# same machine), render the synthetic sets on all cores, train one stage from the checkpoint $INIT
# (default $BUNDLE/init.pt, e.g. the recognizer_gpu.pt that run.sh returned) at lr $LR2, export.
# With INIT_ONNX=models/recognizer-b.onnx it starts from a shipped float model instead: from_onnx.py
# recovers its checkpoint there and the stage trains with --freeze-bn (its batch norms are folded).
# Everything lands in $W, results in $OUT.
set -uo pipefail
cd "$(dirname "$0")/../../.."   # the repository root
BUNDLE=${BUNDLE:-.gpu}      # the packed data (models/train/gpu/pack.sh), relative to the repository root or absolute
INIT=${INIT:-$BUNDLE/init.pt}
source models/train/gpu/prepare.sh
STEM=${STEM:-recognizer_gpu3}   # the output: $W/$STEM.onnx, $OUT/$STEM.pt and .onnx (two stages side by side need two stems)
FREEZE=()
if [ -n "${INIT_ONNX:-}" ]; then
  python3 models/train/from_onnx.py "$INIT_ONNX" "$W/init_$STEM.pt" || exit 1
  INIT=$W/init_$STEM.pt; FREEZE=(--freeze-bn)
fi
OVER=${OVER:-90}
M3=$(python3 -c "print(round(($END - $(el) - $OVER) / 60, 2))")
echo "[$(el) s] stage 3 (warm restart from the returned model): $M3 min, batch $BATCH, lr $LR2"
train_stage "$M3" "$LR2" "$STEM" --init "$INIT" "${FREEZE[@]}" || exit 1
cp "$W/$STEM.onnx" "$OUT/"
echo "[$(el) s] done"
