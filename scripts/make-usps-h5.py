#!/usr/bin/env python3
"""make-usps-h5.py TRAIN.gz TEST.gz OUT.h5 - build usps.h5 from the ESL text files.

Layout as the common download: groups /train and /test, each with `data`
(float32, N x 256, pixels (x+1)/2 in [0,1]) and `target` (int32, N)."""
import gzip
import sys

import h5py
import numpy as np


def load(path):
    rows = [line.split() for line in gzip.open(path, "rt") if line.strip()]
    y = np.array([int(float(r[0])) for r in rows], dtype=np.int32)
    x = np.array([[float(v) for v in r[1:]] for r in rows], dtype=np.float64)
    return ((x + 1.0) / 2.0).astype(np.float32), y


with h5py.File(sys.argv[3], "w") as f:
    for name, path in (("train", sys.argv[1]), ("test", sys.argv[2])):
        x, y = load(path)
        g = f.create_group(name)
        g.create_dataset("data", data=x)
        g.create_dataset("target", data=y)
