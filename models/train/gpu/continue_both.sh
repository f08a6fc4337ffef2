#!/usr/bin/env bash
# GPU-machine side: one stage more for both shipped models at once, side by side on the one GPU,
# from their float exports (models/recognizer.onnx and models/recognizer-b.onnx), on one rendering
# of the mixture. Each half gets WORKERS data workers; everything ends END seconds after the start.
# Results: $OUT/a/recognizer_a.onnx (replaces models/recognizer.onnx) and $OUT/b/recognizer_b.onnx
# (replaces models/recognizer-b.onnx), their checkpoints and logs beside them.
#
#   set -o pipefail; END=550 WORKERS=7 LR2=5e-4 UN=10000 UNW=0.2 OUT=out bash models/train/gpu/continue_both.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."   # the repository root
START=$(date +%s)
END=${END:-550}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT/a" "$OUT/b"
# Render the data once (continue.sh stops after the data with DRY=1; both stages then reuse it).
DRY=1 OUT="$OUT" bash models/train/gpu/continue.sh > "$OUT/data.log" 2>&1 || { tail -n 20 "$OUT/data.log"; exit 1; }
tail -n 3 "$OUT/data.log"
LEFT=$(( END - ($(date +%s) - START) ))
echo "data ready after $(( $(date +%s) - START )) s; $LEFT s left for both stages"
END=$LEFT STEM=recognizer_b INIT_ONNX=models/recognizer-b.onnx OUT="$OUT/b" \
  bash models/train/gpu/continue.sh > "$OUT/b/log.txt" 2>&1 &
B=$!
END=$LEFT STEM=recognizer_a INIT_ONNX=models/recognizer.onnx OUT="$OUT/a" \
  bash models/train/gpu/continue.sh > "$OUT/a/log.txt" 2>&1
A_STATUS=$?
wait "$B"; B_STATUS=$?
tail -n 4 "$OUT/a/log.txt" "$OUT/b/log.txt"
echo "model A: exit $A_STATUS, model B: exit $B_STATUS, $(( $(date +%s) - START )) s in all"
[ "$A_STATUS" = 0 ] && [ "$B_STATUS" = 0 ]
