#!/usr/bin/env bash
# Fills every blank real form of shared/forms/ with synthetic handwriting and reads it back: for
# each form, `scoresheet-dev synth --form-image` writes COUNT sheets (seed SEED for the first form,
# SEED+1 for the next, ...; the page stage's cells of the blank form are the truth), then
# `segment --eval-synth` gives the cells labelled right and `eval` the half-moves read right.
# Prints one line per form and writes each form's sheets and reports to OUT/FORM/ (synth's
# warning that the truth is the page stage's own reading of the blank form goes to
# OUT/FORM/synth.txt: docs/real-forms.md shows each blank form's overlay, checked by eye).
#
#   scripts/blank_forms.sh FORMS OUT SEED [DAMAGE [PRINT_CONTRAST]]
#
# DAMAGE is synth's `--damage` (none, scan, photo or mix; default mix) and PRINT_CONTRAST its
# `--print-contrast` (default: the form as it is). For example, the forms printed light grey
# (a quarter of their contrast) on scans:
#
#   scripts/blank_forms.sh ../shared/forms /tmp/blank-forms 12224 scan 0.25
#
# COUNT=N sheets a form (default 6), in mixed languages. BIN=DIR picks the directory of the
# `scoresheet-dev` binary (default target/release, built if missing). A figure to report comes
# from a seed made and run once. Tests never run this script: the forms live outside the
# repository.
set -euo pipefail
[ $# -ge 3 ] && [ $# -le 5 ] || { echo "usage: $0 FORMS OUT SEED [DAMAGE [PRINT_CONTRAST]]" >&2; exit 2; }
forms=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
seed=$3
damage=${4:-mix}
fade=()
[ $# -lt 5 ] || fade=(--print-contrast "$5")
count=${COUNT:-6}
cd "$(dirname "$0")/.."
bin=${BIN:-target/release}
[ -x "$bin/scoresheet-dev" ] || cargo build --release --bins
# The blank forms and the image of each that is filled (docs/real-forms.md): one layout each.
images=(
    boylston_p1/render_move1-1.png
    coldeportes_ajedrez_co/render.png
    conner_aruco/render-1.png
    gambito_guadalajara/render-1.png
    jakob_partieformular/render_rot.png
    polish_zapis/render.png
    rmarabini_v1/render-1.png
    rmarabini_v2/render-1.png
    rmarabini_v3/render-1.png
    schach_fuer_kids/render.png
    tonymorris_tex/render-1.png
)
printf '%-24s %6s  %-28s %s\n' form seed "cells labelled right" "half-moves right"
for image in "${images[@]}"; do
    form=$(dirname "$image")
    dest="$out/$form"
    rm -rf "$dest"
    mkdir -p "$dest"
    "$bin/scoresheet-dev" synth --form-image "$forms/$image" --count "$count" --seed "$seed" --damage "$damage" \
        --lang mix "${fade[@]}" --out "$dest/sheets" > /dev/null 2> "$dest/synth.txt" ||
        { cat "$dest/synth.txt" >&2; exit 1; }
    "$bin/scoresheet-dev" segment --eval-synth "$dest/sheets" > "$dest/segment.txt" 2>&1 || true
    "$bin/scoresheet-dev" eval "$dest/sheets" > "$dest/eval.txt" 2>&1 || true
    cells=$(grep -o '[0-9]*/[0-9]* true cells matched ([0-9.]* %)' "$dest/segment.txt" | sed 's/ true cells matched//' || true)
    moves=$(grep -o 'MRA [0-9.]*% ([0-9]* of [0-9]* half-moves)' "$dest/eval.txt" | sed 's/^MRA //' || true)
    printf '%-24s %6s  %-28s %s\n' "$form" "$seed" "${cells:-failed}" "${moves:-failed}"
    seed=$((seed + 1))
done
echo "reports: $out/*/segment.txt, $out/*/eval.txt" >&2
