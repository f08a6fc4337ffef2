#!/usr/bin/env bash
# One command from data to a shipped model: cut HCS cells with our page stage, render synthetic
# cells, train, export to models/recognizer.onnx, evaluate (figures to models/results.json).
#
#   models/train/recipe.sh            # CPU, about 90 minutes on 2 cores
#   MINUTES=20 models/train/recipe.sh # shorter
#
# Needs: Python 3.11 with torch, numpy, opencv-python-headless, fonttools, pillow, onnxruntime
# (PY=/path/to/python); HCS at $HCS (default /work/shared/data/hcs); handwriting fonts under
# /usr/share/fonts (Debian: fonts-sjfonts fonts-dkg-handwriting fonts-breip fonts-kristi
# fonts-tlwg-purisa-ttf fonts-dancingscript fonts-comic-neue fonts-ecolier-court fonts-staypuft
# fonts-rufscript fonts-kaushanscript fonts-tomsontalks).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PY:-python3}
HCS=${HCS:-/work/shared/data/hcs}
WORK=${WORK:-/tmp/scoresheet-train}
MINUTES=${MINUTES:-75}
mkdir -p "$WORK"

# 1. HCS cells, cut by our own page stage (test games go to $WORK/hcs/test only).
if [ "${CRUDE_CUT:-0}" = 1 ]; then
  $PY models/train/crude_cut_hcs.py "$HCS" "$WORK/hcs"
else
  cargo build --release
  $PY models/train/cut_hcs.py --bin target/release/scoresheet "$HCS" "$WORK/hcs"
fi

# 2. Synthetic cells in all languages; the held-out font only in the evaluation set.
$PY models/train/synth_cells.py "$WORK/synth" --count 60000 --seed 11
$PY models/train/synth_cells.py "$WORK/synth_heldout" --count 3000 --seed 99 --fonts heldout

# 3. Train (CPU: 1 thread + 1 data worker) and export ONNX with alphabet.json, preprocess.json.
$PY models/train/train.py --data "$WORK/synth:1" --data "$WORK/hcs/train:1.2" --val "$WORK/synth_heldout" \
  --minutes "$MINUTES" --threads 1 --workers 1 --config '{"channels":[16,32,64,64,128]}' \
  --out models/recognizer.onnx --checkpoint "$WORK/recognizer.pt"

# 4. Figures: HCS test split (17 games, both pages) and the held-out font.
$PY models/train/evaluate.py --model models/recognizer.onnx "$WORK/hcs/test" "$WORK/synth_heldout" \
  --json models/results.json
