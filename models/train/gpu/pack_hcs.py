"""Shrinks the cut HCS cells of the train and blank splits to 64 px high (cells no higher are kept as
they are) and writes them as WebP q90 with their labels.tsv: the form unpack_hcs.py expects.

    python3 models/train/gpu/pack_hcs.py CUT DST [--jobs N]

CUT is the output of models/train/cut_hcs.py (CUT/{train,blank}/labels.tsv and PNGs); DST gets
DST/{train,blank}/labels.tsv and NAME.webp for every NAME.png listed. The height is the one that
train_gpu.py keeps when it loads cells (KEEP_HEIGHT), so training sees the same pixels up to WebP.
"""
import argparse
import os
from concurrent.futures import ThreadPoolExecutor

import cv2

KEEP_HEIGHT = 64
QUALITY = 90


def shrink(img, keep_height=KEEP_HEIGHT):
    h, w = img.shape
    if h <= keep_height:
        return img
    return cv2.resize(img, (max(1, round(w * keep_height / h)), keep_height), interpolation=cv2.INTER_AREA)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cut")
    ap.add_argument("dst")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quality", type=int, default=QUALITY, help="WebP quality, 1-100")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    n = 0
    for split in ("train", "blank"):
        os.makedirs(os.path.join(a.dst, split), exist_ok=True)
        with open(os.path.join(a.cut, split, "labels.tsv"), encoding="utf-8") as f:
            lines = f.read()
        with open(os.path.join(a.dst, split, "labels.tsv"), "w", encoding="utf-8") as f:
            f.write(lines)
        names = [l.split("\t")[0] for l in lines.split("\n") if l]

        def one(name):
            img = cv2.imread(os.path.join(a.cut, split, name), cv2.IMREAD_GRAYSCALE)
            if img is None:
                raise SystemExit(f"cannot read {os.path.join(a.cut, split, name)}")
            ok, buf = cv2.imencode(".webp", shrink(img), [cv2.IMWRITE_WEBP_QUALITY, a.quality])
            if not ok:
                raise SystemExit(f"cannot encode {name}")
            with open(os.path.join(a.dst, split, name[:-4] + ".webp"), "wb") as f:
                f.write(buf.tobytes())

        with ThreadPoolExecutor(max(1, a.jobs)) as ex:
            list(ex.map(one, names))
        n += len(names)
    print("hcs cells packed:", n)


if __name__ == "__main__":
    main()
