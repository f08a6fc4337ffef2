"""Runs models/train/train.py unchanged, except that load_dir reads the cell images with 16 threads
(data.load_dir's `threads`: same items, same order) and OpenCV runs single-threaded in each data worker."""
import functools
import os
import sys

import cv2

cv2.setNumThreads(1)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

if __name__ == "__main__":
    import data  # noqa: E402
    import train  # noqa: E402

    train.load_dir = functools.partial(data.load_dir, threads=16)
    train.main()
