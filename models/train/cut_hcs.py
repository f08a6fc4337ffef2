"""Cuts HCS cells with our own `page` stage (`scoresheet segment PAGE --out DIR`) and labels them
from training_tags.txt. Writes OUT/train/labels.tsv (all games but the 17 test games) and
OUT/test/labels.tsv (the 17 test games, both pages), OUT/dev/labels.tsv (the decoder's development
games: number ending in 6, outside the test split), and OUT/blank/labels.tsv (blank cells of training
pages, label ""). No test or development page ever enters OUT/train or OUT/blank.

    python models/train/cut_hcs.py --bin target/release/scoresheet DATA/hcs OUT

DATA/hcs is the HCS dataset folder (its page images, training_tags.txt and testing_tags.txt).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

TEST_GAMES = {"001", "005", "008", "017", "019", "021", "022", "023", "024", "025", "027", "029", "033", "034",
              "035", "039", "040"}


def is_dev(game):
    """The decoder's development games (tuning and confidence calibration): never trained on either."""
    return game not in TEST_GAMES and int(game) % 10 == 6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("hcs")
    ap.add_argument("out")
    ap.add_argument("--bin", default="target/release/scoresheet")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--blanks", type=int, default=1, help="also keep blank training cells labelled \"\" (1/0)")
    a = ap.parse_args()
    tags = {}
    for line in open(os.path.join(a.hcs, "training_tags.txt"), encoding="utf-8"):
        parts = line.split(None, 1)
        if len(parts) == 2:
            tags[parts[0]] = parts[1].strip()
    pages = sorted({n.rsplit("_", 2)[0] for n in tags})  # GGG_P
    tmp = tempfile.mkdtemp(prefix="hcs_cut_")

    def cut(page):
        src = os.path.join(a.hcs, page + ".jpg")
        if not os.path.exists(src):
            return page, "missing page"
        d = os.path.join(tmp, page)
        r = subprocess.run([a.bin, "segment", src, "--out", d, "--json"], capture_output=True, text=True)
        if r.returncode == 0:
            with open(os.path.join(d, "cells.json"), "w") as f:
                f.write(r.stdout)
        return page, None if r.returncode == 0 else r.stderr.strip()[:200]

    failed = []
    with ThreadPoolExecutor(a.jobs) as ex:
        for page, err in ex.map(cut, pages):
            if err:
                failed.append((page, err))
    counts = {"train": 0, "test": 0, "dev": 0}
    missing = 0
    files = {}
    for split in counts:
        os.makedirs(os.path.join(a.out, split), exist_ok=True)
        files[split] = open(os.path.join(a.out, split, "labels.tsv"), "w", encoding="utf-8")
    for name, label in sorted(tags.items()):
        g, p, m, colour = name[:-4].split("_")
        cell = os.path.join(tmp, f"{g}_{p}", f"{m}_{colour}.png")
        if not os.path.exists(cell):
            missing += 1
            continue
        split = "test" if g in TEST_GAMES else "dev" if is_dev(g) else "train"
        shutil.copy(cell, os.path.join(a.out, split, name))
        files[split].write(f"{name}\t{label}\n")
        counts[split] += 1
    # Blank cells for training: on a training page, a cell after the page's last labelled move that
    # the page stage also finds blank is labelled "" (the model must learn to read nothing there).
    # They go to OUT/blank (their own mixture weight: there are almost as many as written cells).
    blanks = 0
    if a.blanks:
        os.makedirs(os.path.join(a.out, "blank"), exist_ok=True)
        files["blank"] = open(os.path.join(a.out, "blank", "labels.tsv"), "w", encoding="utf-8")
        last = {}
        for name in tags:
            g, p, m, _ = name[:-4].split("_")
            last[(g, p)] = max(last.get((g, p), 0), int(m))
        for (g, p), m_last in sorted(last.items()):
            if g in TEST_GAMES or is_dev(g):
                continue
            js = os.path.join(tmp, f"{g}_{p}", "cells.json")
            if not os.path.exists(js):
                continue
            for c in json.load(open(js))["cells"]:
                cell = os.path.join(tmp, f"{g}_{p}", f"{c['move']}_{c['side']}.png")
                if c["move"] > m_last and c["blank"] and os.path.exists(cell):
                    name = f"{g}_{p}_{c['move']}_{c['side']}.png"
                    shutil.copy(cell, os.path.join(a.out, "blank", name))
                    files["blank"].write(f"{name}\t\n")
                    blanks += 1
    for f in files.values():
        f.close()
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(pages)} pages, {len(failed)} failed to segment, cells: {counts}, {missing} labelled cells not cut, "
          f"{blanks} blank training cells")
    for page, err in failed[:20]:
        print("  ", page, err, file=sys.stderr)


if __name__ == "__main__":
    main()
