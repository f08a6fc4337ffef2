#!/usr/bin/env bash
# Checks that python-chess and pgn-extract read a PGN file with no errors or warnings.
# Usage: scripts/check_pgn.sh games.pgn   (needs `pip install chess` and Debian's pgn-extract)
set -euo pipefail
file=$1
python3 - "$file" <<'PY'
import sys, chess.pgn
n = 0
with open(sys.argv[1]) as f:
    while (g := chess.pgn.read_game(f)) is not None:
        n += 1
        if g.errors:
            sys.exit(f"python-chess: game {n}: {g.errors}")
print(f"python-chess: {n} games, no errors")
PY
extract=$(command -v pgn-extract || echo /usr/games/pgn-extract)
log=$(mktemp)
"$extract" -r "$file" >/dev/null 2>"$log" || true
# With -r pgn-extract lists each game and ends with "N game(s) matched out of M."; errors and
# warnings name a line number ("File X: Line number: N") or say what failed.
if grep -qiE "line number|failed|warning|error|unknown|missing|illegal|no .* move possible" "$log" \
   || ! grep -qE "^([0-9]+) games? matched out of \1\.$" "$log"; then
  cat "$log"; rm -f "$log"; exit 1
fi
grep -E "games? matched" "$log" | sed 's/^/pgn-extract: /'
rm -f "$log"
