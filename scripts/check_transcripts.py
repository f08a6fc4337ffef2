#!/usr/bin/env python3
"""Bar check for `scoresheet transcribe`: every seed transcript gives PGN that python-chess reads
with no errors, with the expected half-move count and language.

Usage: python3 scripts/check_transcripts.py [path/to/scoresheet]   (needs `pip install chess`)
"""
import io
import os
import subprocess
import sys

import chess.pgn

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
exe = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "target", "debug", "scoresheet")
seed = os.path.join(root, "tests", "data", "seed")
failures = 0
for line in open(os.path.join(seed, "expected.tsv")):
    name, plies, code = line.rstrip("\n").split("\t")
    out = subprocess.run([exe, "transcribe", os.path.join(seed, name)], capture_output=True, text=True)
    if out.returncode != 0:
        print(f"FAIL {name}: exit {out.returncode}: {out.stderr.strip()}")
        failures += 1
        continue
    game = chess.pgn.read_game(io.StringIO(out.stdout))
    n = len(list(game.mainline_moves()))
    lang = game.headers.get("Language", "")
    ok = not game.errors and n == int(plies) and code in lang.split()
    failures += not ok
    print(f"{'ok  ' if ok else 'FAIL'} {name}: {n} half-moves (expected {plies}), "
          f"Language \"{lang}\" (expected {code}), python-chess errors: {game.errors or 'none'}")
sys.exit(1 if failures else 0)
