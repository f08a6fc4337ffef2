"""Checks a `scoresheet-dev synth` output directory against the issue's bar.

    python scripts/check_synth.py DIR [DIR2]

- every `pgn` replays legally in python-chess and its result matches;
- every cell `san` is the move played at that point of the game;
- every box lies inside its image (image size read from the file);
- prints the forms, languages and damage kinds seen;
- with DIR2 (same command, same seed): every file is byte-identical.
Needs `pip install chess pillow`. Not run by cargo test.
"""
import glob
import io
import json
import os
import sys

import chess
import chess.pgn
from PIL import Image


def check(d):
    problems = []
    forms, langs, damages = set(), set(), set()
    jsons = sorted(glob.glob(os.path.join(d, "*.json")))
    images = [f for f in os.listdir(d) if f.endswith((".png", ".jpg"))]
    for path in jsons:
        t = json.load(open(path))
        name = os.path.basename(path)
        forms.add(t["form"].replace("-p2", ""))
        langs.add(t["lang"])
        damages.add(t["damage"])
        game = chess.pgn.read_game(io.StringIO(t["pgn"]))
        if game is None or game.errors:
            problems.append(f"{name}: pgn does not parse: {game.errors if game else 'empty'}")
            continue
        board = game.board()
        sans = []
        for mv in game.mainline_moves():
            if mv not in board.legal_moves:
                problems.append(f"{name}: illegal move {mv}")
                break
            sans.append(board.san(mv))
            board.push(mv)
        result = game.headers.get("Result")
        if board.is_checkmate():
            want = "0-1" if board.turn == chess.WHITE else "1-0"
            if result != want:
                problems.append(f"{name}: mate but result {result}")
        img = Image.open(os.path.join(d, t["image"]))
        w, h = img.size
        if (w, h) != (t["width"], t["height"]):
            problems.append(f"{name}: size {w}x{h} != json {t['width']}x{t['height']}")
        for c in t["cells"]:
            x0, y0, x1, y1 = c["box"]
            if not (0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h):
                problems.append(f"{name}: box {c['box']} outside {w}x{h}")
            ply = (c["move"] - 1) * 2 + (c["side"] == "black")
            want = sans[ply] if ply < len(sans) else None
            if c["san"] != want:
                problems.append(f"{name}: move {c['move']} {c['side']} san {c['san']} != {want}")
        for x, y in t["page_corners"]:
            if not (-1 <= x <= w + 1 and -1 <= y <= h + 1):
                problems.append(f"{name}: page corner {x},{y} outside")
    print(f"{d}: {len(images)} images, {len(jsons)} json; forms {sorted(forms)}; "
          f"{len(langs)} languages {sorted(langs)}; damage {sorted(damages)}")
    return problems


def main():
    problems = check(sys.argv[1])
    if len(sys.argv) > 2:
        a, b = sys.argv[1], sys.argv[2]
        fa, fb = sorted(os.listdir(a)), sorted(os.listdir(b))
        if fa != fb:
            problems.append("file lists differ")
        for f in fa:
            if f in fb and open(os.path.join(a, f), "rb").read() != open(os.path.join(b, f), "rb").read():
                problems.append(f"{f} differs between runs")
        print("determinism: compared", len(fa), "files")
    for p in problems[:50]:
        print("PROBLEM", p)
    print("OK" if not problems else f"{len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
