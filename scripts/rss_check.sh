#!/usr/bin/env bash
# Peak resident memory of `scoresheet read` over a small and a large batch of synthetic sheets
# (/usr/bin/time -v): memory must not grow with the batch (results stream to the journal and
# the outputs). The large batch repeats the small batch's distinct sheets under new names.
#
#   scripts/rss_check.sh [SMALL] [LARGE] [WORK]    (defaults: 100, 2000, /tmp/rss-check)
#
# Uses target/release/scoresheet and scoresheet-dev (or under $CARGO_TARGET_DIR); build them first.
set -euo pipefail
small=${1:-100}
large=${2:-2000}
work=${3:-/tmp/rss-check}
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${CARGO_TARGET_DIR:-$root/target}/release/scoresheet"
dev_bin="$bin-dev"

rm -rf "$work" && mkdir -p "$work"
"$dev_bin" synth --count "$small" --seed 3 --form hcs --damage none --lang en --out "$work/distinct" >/dev/null
rm -f "$work"/distinct/*.json
mkdir -p "$work/small" "$work/large"
distinct=("$work"/distinct/*.png)
for (( i = 0; i < small; i++ )); do ln "${distinct[i % ${#distinct[@]}]}" "$work/small/s$i.png"; done
for (( i = 0; i < large; i++ )); do ln "${distinct[i % ${#distinct[@]}]}" "$work/large/s$i.png"; done

peak() { grep 'Maximum resident' "$1" | awk '{print $NF}'; }
for batch in small large; do
    /usr/bin/time -v "$bin" read "$work/$batch" -o "$work/$batch.pgn" --json "$work/$batch.json" \
        --journal "$work/$batch.jsonl" 2>"$work/$batch.log"
    echo "$batch: $(ls "$work/$batch" | wc -l) sheets, peak RSS $(peak "$work/$batch.log") KiB, $(grep 'sheets read' "$work/$batch.log")"
done
python3 - "$(peak "$work/small.log")" "$(peak "$work/large.log")" <<'PY'
import sys
small, large = map(int, sys.argv[1:])
growth = (large - small) / small * 100
print(f"growth {growth:+.1f} % (bar: within 10 %)")
sys.exit(0 if abs(growth) <= 10 else 1)
PY
