# Sourced by run.sh and continue.sh from the repository root, with $BUNDLE set: settings, the bundle
# unpacked into $W (or the data still there from an earlier run on the same machine), the
# synthetic sets rendered on all cores, and the training mixture $MIX and model $CFG.
T0=$(date +%s)
END=${END:-548}             # seconds after T0 by which everything must be done
W=${W:-/tmp/w}
OUT=${OUT:-/tmp/out}
BATCH=${BATCH:-256}; LR1=${LR1:-4e-3}; LR2=${LR2:-1e-3}; WORKERS=${WORKERS:-14}
RS=${RS:-30000}; SC=${SC:-30000}; MN=${MN:-20000}   # per part: 8 x RS, 4 x SC, 4 x MN
UN=${UN:-8000}; UNW=${UNW:-0.15}   # UNIPEN moves per part (4 parts) and each part's mixture weight
DS=${DS:-20000}; DSW=${DSW:-0.1}   # descriptive-notation synth cells per part (3 parts: 2 English, 1 Spanish), each part's weight
                                   # (DSW=0 renders them for a later stage on the same machine but trains without them)
SEED=${SEED:-0}                    # added to every rendering seed: a stage on new cells of the same kinds
DS_PARTS=""; [ "$DS" -gt 0 ] && DS_PARTS="0 1 2"
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
mkdir -p "$W" "$OUT"
el() { echo $(( $(date +%s) - T0 )); }
(nvidia-smi -L; nproc; free -g | head -2; python3 -c "import torch, cv2; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), 'cv2', cv2.__version__)") 2>&1
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader -l 15 > "$OUT/gpu_util.txt" 2>&1 &
fi
# UNIPEN moves only when the bundle has the glyphs (pack.sh).
if [ -s "$BUNDLE/unipen.jsonl.gz" ]; then UNIPEN_PARTS="0 1 2 3"; else UNIPEN_PARTS=""; echo "no UNIPEN glyphs in the bundle"; fi
unipen_ok() { [ -z "$UNIPEN_PARTS" ] || { [ -s "$W/unipen3/labels.tsv" ] && [ "$(wc -l < "$W/unipen3/labels.tsv")" = "$UN" ]; }; }
if [ -s "$W/synth_mnist3/labels.tsv" ] && [ "$(wc -l < "$W/synth_mnist3/labels.tsv")" = "$MN" ] && [ -s "$W/rsynth_heldout/labels.tsv" ] && { [ "$DS" = 0 ] || [ -s "$W/dsynth2/labels.tsv" ]; } && unipen_ok; then echo "data still there"; REUSE=1; else REUSE=0; fi
if [ "$REUSE" = 0 ]; then
xz -dc "$BUNDLE/scoresheet-dev.xz" > "$W/scoresheet-dev" && chmod +x "$W/scoresheet-dev"
mkdir -p "$W/fonts" && tar xJf "$BUNDLE/fonts.tar.xz" -C "$W/fonts"
export FONTS="$W/fonts"
tar xJf "$BUNDLE/mnist.tar.xz" -C "$W"
mkdir -p "$W/hcs_webp" && xz -dc "$BUNDLE/hcs.tar.xz" | tar xf - -C "$W/hcs_webp"
python3 models/train/gpu/unpack_hcs.py "$W/hcs_webp" "$W/hcs" || exit 1
echo "[$(el) s] unpacked"
fi
export FONTS="$W/fonts"
B="$W/scoresheet-dev"
pids=()
if [ "$REUSE" = 0 ]; then
for i in 0 1 2 3 4 5 6 7; do
  $B synth --out "$W/rsynth$i" --count "$RS" --cells --seed $((SEED + 21 + 1000 * i)) --lang mix --damage mix --fonts train >"$W/gen_r$i.log" 2>&1 & pids+=($!)
done
for i in $DS_PARTS; do
  lang=en-descriptive; [ "$i" = 2 ] && lang=es-descriptive
  $B synth --out "$W/dsynth$i" --count "$DS" --cells --seed $((SEED + 41 + 1000 * i)) --lang $lang --damage mix --fonts train >"$W/gen_d$i.log" 2>&1 & pids+=($!)
done
$B synth --out "$W/rsynth_heldout" --count 3000 --cells --seed 99 --lang mix --damage mix --fonts heldout >"$W/gen_rh.log" 2>&1 & pids+=($!)
for i in 0 1 2 3; do
  python3 models/train/gpu/sc.py "$W/synth$i" --count "$SC" --seed $((SEED + 11 + 1000 * i)) >"$W/gen_s$i.log" 2>&1 & pids+=($!)
  python3 models/train/gpu/sc.py "$W/synth_mnist$i" --count "$MN" --seed $((SEED + 12 + 1000 * i)) --mnist "$W/mnist" >"$W/gen_m$i.log" 2>&1 & pids+=($!)
done
for i in $UNIPEN_PARTS; do
  python3 models/train/unipen.py render "$W/unipen$i" --glyphs "$BUNDLE/unipen.jsonl.gz" --count "$UN" --seed $((SEED + 31 + 1000 * i)) >"$W/gen_u$i.log" 2>&1 & pids+=($!)
done
fail=0
for p in "${pids[@]}"; do wait "$p" || fail=1; done
head -c 300 "$W/gen_s0.log"; echo; tail -n 1 "$W/gen_r0.log"
[ "$fail" = 0 ] || { echo "data generation failed"; tail -n 5 "$W"/gen_*.log; exit 1; }
fi
G=$(el)
echo "[$G s] data generated: $(cat "$W"/rsynth?/labels.tsv | wc -l) rsynth, $(cat /dev/null "$W"/dsynth?/labels.tsv 2>/dev/null | wc -l) descriptive, $(cat "$W"/synth?/labels.tsv | wc -l) synth, $(cat "$W"/synth_mnist?/labels.tsv | wc -l) mnist, $(cat /dev/null "$W"/unipen?/labels.tsv 2>/dev/null | wc -l) unipen"
[ "${DRY:-0}" = 1 ] && exit 0
MIX=""
for i in 0 1 2 3 4 5 6 7; do MIX="$MIX --data $W/rsynth$i:0.125"; done
for i in 0 1 2 3; do MIX="$MIX --data $W/synth$i:0.05 --data $W/synth_mnist$i:0.0875"; done
[ "$DSW" != 0 ] && for i in $DS_PARTS; do MIX="$MIX --data $W/dsynth$i:$DSW"; done
for i in $UNIPEN_PARTS; do MIX="$MIX --data $W/unipen$i:$UNW"; done
MIX="$MIX --data $W/hcs/train:1.6 --data $W/hcs/blank:0.2"
CFG='{"channels":[16,32,64,64,128]}'
# One training stage of the mixture above: train_stage MINUTES LR OUT_STEM [--init CHECKPOINT]
# writes $W/OUT_STEM.onnx and $OUT/OUT_STEM.pt.
train_stage() {
  local minutes=$1 lr=$2 stem=$3
  shift 3
  python3 models/train/gpu/train_gpu.py $MIX --val "$W/rsynth_heldout" --minutes "$minutes" --lr "$lr" --batch "$BATCH" \
    --threads 2 --workers "$WORKERS" --config "$CFG" "$@" --out "$W/$stem.onnx" --checkpoint "$OUT/$stem.pt"
}
