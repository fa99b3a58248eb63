#!/usr/bin/python3
"""sklearn_grid.py - the headline grid's protocol with scikit-learn, timed.

usage: sklearn_grid.py [--data DIR] [--degrees 1,2,3,4] [--components LIST]
                       [--subset 3000] [-c 10]

For each degree: KernelPCA(kernel='poly', degree=d, gamma=1, coef0=0,
eigen_solver='dense') fitted on the first M training digits, all 7291
training and 2007 test digits transformed, then for each component count a
one-vs-one SVC(kernel='linear', C) on the leading components scaled by one
factor (mean squared training norm 1, as `kpca eval --scale norm`).  This
is the same protocol as scripts/run-grid.sh's headline, so the timings
compare like with like.  Prints one CSV line per cell
(degree,components,error_pct,errors,total) and one per degree with its
wall time (degree,seconds), then the total.  Run it with Debian's
/usr/bin/python3, which has python3-sklearn.
"""
import argparse
import gzip
import os
import sys
import time

import numpy as np


def read_esl(path):
    with gzip.open(path, "rt") as f:
        a = np.loadtxt(f)
    return a[:, 1:], a[:, 0].astype(int)


def grid_arguments():
    """The options of the bench's scikit-learn pipelines: data, cells, C."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="data")
    ap.add_argument("--degrees", default="1,2,3,4")
    ap.add_argument("--components", default="64,128,256,512,1024,2048")
    ap.add_argument("--subset", type=int, default=3000)
    ap.add_argument("-c", type=float, default=10.0)
    return ap


def main():
    a = grid_arguments().parse_args()
    try:
        from sklearn.decomposition import KernelPCA
        from sklearn.svm import SVC
    except ImportError:
        print("sklearn_grid.py: python3-sklearn is not installed", file=sys.stderr)
        return 3
    xtr, ytr = read_esl(os.path.join(a.data, "zip.train.gz"))
    xte, yte = read_esl(os.path.join(a.data, "zip.test.gz"))
    comps = [int(k) for k in a.components.split(",")]
    total = 0.0
    print("degree,components,error_pct,errors,total")
    for d in [int(s) for s in a.degrees.split(",")]:
        t0 = time.perf_counter()
        kmax = min(max(comps), 256 if d == 1 else a.subset)
        kp = KernelPCA(n_components=kmax, kernel="poly", degree=d, gamma=1.0, coef0=0.0,
                       eigen_solver="dense")
        kp.fit(xtr[: a.subset])
        ztr = kp.transform(xtr)
        zte = kp.transform(xte)
        for k in comps:
            if k > ztr.shape[1]:
                continue
            f = 1.0 / np.sqrt(np.mean(np.sum(ztr[:, :k] ** 2, axis=1)))
            svc = SVC(kernel="linear", C=a.c, decision_function_shape="ovo")
            svc.fit(f * ztr[:, :k], ytr)
            errors = int(np.sum(svc.predict(f * zte[:, :k]) != yte))
            print("%d,%d,%.4f,%d,%d" % (d, k, 100.0 * errors / len(yte), errors, len(yte)), flush=True)
        sec = time.perf_counter() - t0
        total += sec
        print("# degree %d: %.1f s" % (d, sec), flush=True)
    print("# total: %.1f s" % total)
    return 0


if __name__ == "__main__":
    sys.exit(main())
