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
# pgn-extract prints one summary line ("N games matched out of N."); anything else is a warning.
if grep -v "games matched out of" "$log" | grep -q .; then
  cat "$log"; rm -f "$log"; exit 1
fi
grep "games matched" "$log" | sed 's/^/pgn-extract: /'
rm -f "$log"
