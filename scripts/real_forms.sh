#!/usr/bin/env bash
# Runs the page stage (`scoresheet segment`) over a directory of real scoresheet forms, one
# sub-directory per form (the layout of shared/forms/: each folder holds render*.png and the
# original photos or scans), and writes for every image the straightened page, the overlay with
# every cell's label, the cells and cells.json to OUT/FOLDER/STEM/, plus OUT/summary.tsv: one line
# per image with the cells found, the move range and how many labels occur twice (two blocks given
# the same numbers), or the error message where no table is found.
# Look at every OUT/*/*/overlay.png afterwards: docs/real-forms.md says what to check and what the
# page stage finds today.
#
#   scripts/real_forms.sh DIR OUT        (for example scripts/real_forms.sh ../shared/forms /tmp/real-forms)
#
# Images: every render*.png and *_render.png of a folder (PDF pages and converted photos) and every
# .jpg/.jpeg (the original scans and photos; some are the same picture as the folder's render.png).
# BIN=path picks another binary (default target/release/scoresheet, built if missing). Tests never
# run this script: the forms live outside the repository.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 DIR OUT" >&2; exit 2; }
dir=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
cd "$(dirname "$0")/.."
bin=${BIN:-target/release/scoresheet}
[ -x "$bin" ] || cargo build --release
summary="$out/summary.tsv"
printf 'folder\timage\tresult\twhite cells\tblack cells\tmoves\tlabels repeated\n' > "$summary"
shopt -s nullglob nocaseglob
for folder in "$dir"/*/; do
    name=$(basename "$folder")
    for image in "$folder"render*.png "$folder"*_render.png "$folder"*.jpg "$folder"*.jpeg; do
        file=$(basename "$image")
        stem=${file%.*}
        dest="$out/$name/$stem"
        rm -rf "$dest"
        mkdir -p "$dest"
        if "$bin" segment "$image" --out "$dest" --json > "$dest/cells.json" 2> "$dest/stderr.txt"; then
            # The cells' labels in the JSON's order: "MOVE side" a line.
            labels=$(tr -d ' \n' < "$dest/cells.json" | grep -o '"move":[0-9]*,"side":"[a-z]*"' |
                sed 's/"move":\([0-9]*\),"side":"\([a-z]*\)"/\1 \2/')
            white=$(grep -c ' white$' <<< "$labels" || true)
            black=$(grep -c ' black$' <<< "$labels" || true)
            moves=$(cut -d' ' -f1 <<< "$labels" | sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (NR) printf "%d-%d", lo, hi }')
            repeated=$(sort <<< "$labels" | uniq -d | wc -l)
            printf '%s\t%s\ttable found\t%s\t%s\t%s\t%s\n' "$name" "$file" "$white" "$black" "$moves" "$repeated" >> "$summary"
        else
            printf '%s\t%s\t%s\t0\t0\t\t\n' "$name" "$file" "$(tail -n 1 "$dest/stderr.txt" | sed 's/^scoresheet: .*: no scoresheet/no scoresheet/')" >> "$summary"
        fi
    done
done
column -t -s $'\t' "$summary"
echo "overlays: $out/*/*/overlay.png" >&2
