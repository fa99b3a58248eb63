#!/usr/bin/python3
"""sklearn_ref.py - check kpca's features against scikit-learn's KernelPCA.

usage: sklearn_ref.py [--data DIR] [--kernel poly|rbf|sigmoid|linear]
                      [-d D] [--gamma G] [--coef0 C] [--sigma S] -m M -k K
                      [--test-rows N] [--rtol R]
                      TRAIN_FEATURES.h5 TEST_FEATURES.h5

Reads DIR/zip.train.gz and DIR/zip.test.gz itself (gzip + numpy, no kpca
code), fits sklearn.decomposition.KernelPCA(eigen_solver='dense',
n_components=K) with the kernel asked for (default: kernel='poly',
degree=D, gamma=1, coef0=0, the paper's; rbf with sigma S is sklearn's
gamma = 1 / (2 S^2)) on the first M training rows and transforms those M
rows and the first N (default 500) test rows.  TRAIN_FEATURES.h5 and TEST_FEATURES.h5 are written by
`kpca transform` (dataset 'data'); their first M and N rows are compared.

For each component the sign is aligned by the dot product of the two
columns (fit and test rows together), then the maximum absolute difference
must be <= R (default 1e-6) times the largest absolute value of sklearn's
component.  The labels ('target') must match too.

Exit status: 0 on agreement, 1 on a disagreement (with a per-component
report), 2 on a usage or input problem.  Run it with Debian's
/usr/bin/python3, which has python3-sklearn and python3-h5py.
"""
import argparse
import gzip
import os
import sys

import numpy as np


def load_esl(path, nrows):
    """First nrows rows of an ESL text file: label v1 .. v256 per line."""
    ys, xs = [], []
    with gzip.open(path, "rt") as f:
        for line in f:
            if not line.strip():
                continue
            t = line.split()
            ys.append(int(float(t[0])))
            xs.append(np.array(t[1:], dtype=np.float64))
            if len(ys) == nrows:
                break
    if len(ys) < nrows:
        raise SystemExit("error: '%s' has %d rows, %d needed" % (path, len(ys), nrows))
    return np.vstack(xs), np.array(ys, dtype=np.int64)


def load_features(path, nrows, k):
    import h5py

    with h5py.File(path, "r") as f:
        if "data" not in f:
            raise SystemExit("error: '%s' has no dataset 'data'" % path)
        z = np.asarray(f["data"][...], dtype=np.float64)
        y = np.asarray(f["target"][...], dtype=np.int64) if "target" in f else None
    if z.ndim != 2 or z.shape[0] < nrows or z.shape[1] < k:
        raise SystemExit("error: '%s' holds %s features, need at least %d x %d" % (path, z.shape, nrows, k))
    return z[:nrows, :k], (y[:nrows] if y is not None else None)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data"),
                    help="directory with zip.train.gz and zip.test.gz (default: the repository's data/)")
    ap.add_argument("--kernel", default="poly", choices=["poly", "rbf", "sigmoid", "linear"])
    ap.add_argument("-d", "--degree", type=int, default=3)
    ap.add_argument("--gamma", type=float, default=1.0, help="poly, sigmoid: the scale of x.y")
    ap.add_argument("--coef0", type=float, default=0.0, help="poly, sigmoid: the offset")
    ap.add_argument("--sigma", type=float, default=None, help="rbf width (required for rbf)")
    ap.add_argument("-m", "--subset", type=int, required=True, help="fit on the first M training rows")
    ap.add_argument("-k", "--components", type=int, required=True)
    ap.add_argument("--test-rows", type=int, default=500)
    ap.add_argument("--rtol", type=float, default=1e-6)
    ap.add_argument("train_features")
    ap.add_argument("test_features")
    a = ap.parse_args()

    from sklearn.decomposition import KernelPCA

    xtr, ytr = load_esl(os.path.join(a.data, "zip.train.gz"), a.subset)
    xte, yte = load_esl(os.path.join(a.data, "zip.test.gz"), a.test_rows)

    if a.kernel == "rbf":
        if a.sigma is None:
            raise SystemExit("error: --kernel rbf needs --sigma")
        args = dict(gamma=1.0 / (2.0 * a.sigma * a.sigma))
        what = "rbf, sigma=%.17g" % a.sigma
    elif a.kernel == "linear":
        args = {}
        what = "linear"
    elif a.kernel == "sigmoid":
        args = dict(gamma=a.gamma, coef0=a.coef0)
        what = "sigmoid, gamma=%g, coef0=%g" % (a.gamma, a.coef0)
    else:
        args = dict(degree=a.degree, gamma=a.gamma, coef0=a.coef0)
        what = "poly, degree=%d, gamma=%g, coef0=%g" % (a.degree, a.gamma, a.coef0)
    kp = KernelPCA(n_components=a.components, kernel=a.kernel, eigen_solver="dense", **args)
    kp.fit(xtr)
    ref = np.vstack([kp.transform(xtr), kp.transform(xte)])

    ztr, ltr = load_features(a.train_features, a.subset, a.components)
    zte, lte = load_features(a.test_features, a.test_rows, a.components)
    got = np.vstack([ztr, zte])

    ok = True
    if ltr is not None and not np.array_equal(ltr, ytr):
        print("labels of the fit rows differ from zip.train.gz")
        ok = False
    if lte is not None and not np.array_equal(lte, yte):
        print("labels of the test rows differ from zip.test.gz")
        ok = False

    lam = getattr(kp, "eigenvalues_", None)
    worst, worst_c = 0.0, -1
    lines = []
    for c in range(a.components):
        r, g = ref[:, c], got[:, c]
        sign = -1.0 if np.dot(r, g) < 0 else 1.0
        scale = np.max(np.abs(r))
        diff = np.max(np.abs(r - sign * g))
        rel = diff / scale if scale > 0 else (0.0 if diff == 0 else np.inf)
        bad = not (rel <= a.rtol)
        if rel > worst or worst_c < 0:
            worst, worst_c = rel, c
        lines.append("  z%-3d eigenvalue %-12.6g sign %+d  max|z| %-12.6g max diff %-10.3g rel %.3g%s"
                     % (c + 1, lam[c] if lam is not None else float("nan"), int(sign), scale, diff, rel,
                        "  <-- FAIL" if bad else ""))
        ok = ok and not bad

    print("sklearn KernelPCA(%s) on %d fit rows, %d components, %d + %d rows compared"
          % (what, a.subset, a.components, a.subset, a.test_rows))
    print("worst relative difference %.3g (component z%d), tolerance %.3g" % (worst, worst_c + 1, a.rtol))
    if not ok:
        print("per component:")
        print("\n".join(lines))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
