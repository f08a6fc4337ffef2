#!/usr/bin/env bash
# Kills `scoresheet read --journal` with SIGKILL twice at random points and resumes it, then
# checks that the outputs equal an uninterrupted run's byte for byte, that every game is in the
# journal exactly once, and that no output file was ever visible unfinished.
#
#   scripts/resume_check.sh [COUNT] [SEED] [WORK]    (defaults: 500 sheets, seed 7, /tmp/resume-check)
#
# Uses target/release/scoresheet and scoresheet-dev (or under $CARGO_TARGET_DIR); build them first.
set -euo pipefail
count=${1:-500}
seed=${2:-7}
work=${3:-/tmp/resume-check}
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${CARGO_TARGET_DIR:-$root/target}/release/scoresheet"
dev_bin="$bin-dev"
RANDOM=$seed

rm -rf "$work" && mkdir -p "$work"
"$dev_bin" synth --count "$count" --seed "$seed" --form hcs --damage mix --lang en --out "$work/sheets" >/dev/null
rm -f "$work"/sheets/*.json

start=$(date +%s)
"$bin" read "$work/sheets" -o "$work/whole.pgn" --json "$work/whole.json" 2>"$work/whole.log"
whole_s=$(( $(date +%s) - start ))
echo "uninterrupted: $(tail -1 "$work/whole.log")"

games_in_journal() { grep -c '"kind":"game"' "$work/journal.jsonl" 2>/dev/null || true; }
for kill in 1 2; do
    # A random point in the first 60 % of what is left of the batch.
    delay=$(( whole_s * (10 + RANDOM % 50) / 100 + 1 ))
    "$bin" read "$work/sheets" -o "$work/resumed.pgn" --json "$work/resumed.json" \
        --journal "$work/journal.jsonl" 2>"$work/kill-$kill.log" &
    pid=$!
    before=$(games_in_journal)
    waited=0
    while (( waited < delay * 10 )); do
        sleep 0.1
        waited=$(( waited + 1 ))
        for out in "$work/resumed.pgn" "$work/resumed.json"; do
            if [[ -e $out ]]; then echo "FAIL: $out visible before the run finished"; exit 1; fi
        done
    done
    kill -9 "$pid"
    wait "$pid" 2>/dev/null || true
    echo "kill $kill after ${delay} s: $(( $(games_in_journal) - before )) games journaled by that run, $(games_in_journal) in all"
    ls -a "$work" | grep -q '\.tmp$' && echo "note: a temporary file was left: $(ls -a "$work" | grep '\.tmp$')"
done
"$bin" read "$work/sheets" -o "$work/resumed.pgn" --json "$work/resumed.json" \
    --journal "$work/journal.jsonl" 2>"$work/resume.log"
echo "resumed: $(tail -1 "$work/resume.log")"

status=0
cmp "$work/whole.pgn" "$work/resumed.pgn" && echo "PGN: identical" || status=1
cmp "$work/whole.json" "$work/resumed.json" && echo "JSON report: identical" || status=1
lines=$(games_in_journal)
unique=$(grep '"kind":"game"' "$work/journal.jsonl" | python3 -c 'import json,sys; print(len({json.loads(l)["id"] for l in sys.stdin}))')
echo "journal: $lines game lines, $unique distinct games, $count sheets"
[[ $lines == "$count" && $unique == "$count" ]] || status=1
(( status == 0 )) && echo "OK" || echo "FAIL"
exit $status
