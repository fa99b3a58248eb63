#!/usr/bin/python3
"""sklearn_careful.py - the headline grid's protocol as a careful user writes
it with numpy, scipy and scikit-learn, timed phase by phase.

usage: sklearn_careful.py [--data DIR] [--degrees 1,2,3,4] [--components LIST]
                          [--subset 3000] [-c 10] [--eig evd|evr]

For each degree d, with the paper's kernel (x.y)^d:
  kernel      K = (X X^T)^d of the first M training digits (one GEMM), centred
              in feature space in place (K - 1K - K1 + 1K1);
  eigh        one dense scipy.linalg.eigh of the centred K: driver 'evd' (all
              eigenpairs, then the largest kept) or 'evr' with
              subset_by_index (only the largest); eigenvalues at or below
              M * eps * max(largest, trace of the uncentred K) are dropped, as
              kpca fit does, and alpha = u / sqrt(mu);
  projection  the 7291 training and 2007 test digits: their kernel rows
              against the fit points (one GEMM each), centred with the fit's
              column means and grand mean (as kpca transform), times alpha
              (one GEMM each);
  gram        the Gram matrix of the training features grown prefix by
              prefix, G_k = G_k' + Z[:, k':k] Z[:, k':k]^T (BLAS dsyrk, in
              place, then mirrored), and the test-train one the same way
              (dgemm, in place); each cell's kernel is f G_k with f the `kpca
              eval --scale norm` factor, n / trace(G_k) (mean squared
              training norm 1);
  svm         SVC(kernel='precomputed', C, decision_function_shape='ovo') on
              f G_k, then its decision values on f Gt_k and the one-vs-one
              vote with LIBSVM's rule for ties (the class seen first in the
              training labels; sklearn's predict picks the smallest label,
              which moves a few digits of each cell).
Prints one CSV line per cell (degree,components,error_pct,errors,total), a
comment line per degree with its wall time, then the time of every phase
and the total.  Run it with Debian's /usr/bin/python3 (python3-sklearn).
"""
import os
import sys
import time

import numpy as np

from sklearn_grid import grid_arguments, read_esl


class Clock:
    """Seconds per phase, summed over the degrees."""

    def __init__(self):
        self.sec = {}
        self.t = time.perf_counter()

    def lap(self, phase):
        now = time.perf_counter()
        self.sec[phase] = self.sec.get(phase, 0.0) + now - self.t
        self.t = now


def kernel(a, b, d):
    """(a b^T)^d, one GEMM and an in-place power."""
    k = a @ b.T
    if d != 1:
        np.power(k, d, out=k)
    return k


def fit(xfit, d, kmax, eig, clock):
    """alpha (M x k, mu alpha.alpha = 1), the column means of the uncentred K
    and their mean; k <= kmax after dropping the rounding noise.  Laps the
    clock after the kernel and after the eigensolver."""
    from scipy.linalg import eigh
    m = xfit.shape[0]
    k = kernel(xfit, xfit, d)
    raw_trace = np.trace(k)
    colmean = k.mean(axis=0)
    grand = colmean.mean()
    k -= colmean[None, :]
    k -= colmean[:, None]
    k += grand
    clock.lap("kernel")
    kmax = min(kmax, m)
    if eig == "evr":
        mu, u = eigh(k, driver="evr", subset_by_index=[m - kmax, m - 1], overwrite_a=True, check_finite=False)
    else:
        mu, u = eigh(k, driver="evd", overwrite_a=True, check_finite=False)
    mu, u = mu[::-1][:kmax], u[:, ::-1][:, :kmax]
    keep = mu > m * np.finfo(float).eps * max(mu[0], raw_trace)
    mu, u = mu[keep], u[:, keep]
    clock.lap("eigh")
    return u / np.sqrt(mu), colmean, grand


def project(x, xfit, d, alpha, colmean, grand):
    """The features of x: kernel rows centred with the fit's means, times alpha."""
    kt = kernel(x, xfit, d)
    rowmean = kt.mean(axis=1)
    kt -= colmean[None, :]
    kt -= (rowmean - grand)[:, None]
    return kt @ alpha


def grow(g, gt, ztr, zte, k0, k1):
    """G += Z[:, k0:k1] Z[:, k0:k1]^T and Gt += Zte[:, k0:k1] Z[:, k0:k1]^T in place."""
    from scipy.linalg.blas import dgemm, dsyrk
    a = np.asfortranarray(ztr[:, k0:k1])
    # g.T is g's memory in Fortran order: dsyrk fills its upper triangle,
    # g's lower one, which is then mirrored by blocks
    r = dsyrk(1.0, a, beta=1.0, c=g.T, overwrite_c=1)
    assert np.shares_memory(r, g)
    n, blk = g.shape[0], 512
    for i in range(0, n, blk):
        j = min(i + blk, n)
        g[i:j, j:] = g[j:, i:j].T
        g[i:j, i:j] = np.tril(g[i:j, i:j]) + np.tril(g[i:j, i:j], -1).T
    r = dgemm(1.0, a, np.asfortranarray(zte[:, k0:k1]), beta=1.0, c=gt.T, trans_b=1, overwrite_c=1)
    assert np.shares_memory(r, gt)


def ovo_vote(dv, classes, ytrain):
    """The one-vs-one vote on sklearn's decision values dv (n x pairs, pair
    (i, j) of the sorted classes positive for i), ties to the class seen
    first in the training labels: LIBSVM's svm-predict rule, which kpca
    keeps (sklearn's predict gives ties to the smallest label)."""
    nc = len(classes)
    votes = np.zeros((dv.shape[0], nc), dtype=int)
    p = 0
    for i in range(nc):
        for j in range(i + 1, nc):
            w = dv[:, p] > 0
            votes[:, i] += w
            votes[:, j] += ~w
            p += 1
    seen = np.argsort([np.flatnonzero(ytrain == c)[0] for c in classes])  # classes by first appearance
    v = votes[:, seen]
    return classes[seen[np.argmax(v == v.max(axis=1, keepdims=True), axis=1)]]


def main():
    ap = grid_arguments()
    ap.add_argument("--eig", choices=["evd", "evr"], default="evd")
    a = ap.parse_args()
    try:
        import scipy.linalg  # noqa: F401
        from sklearn.svm import SVC
    except ImportError:
        print("sklearn_careful.py: python3-sklearn (and python3-scipy) are not installed", file=sys.stderr)
        return 3
    clock = Clock()
    xtr, ytr = read_esl(os.path.join(a.data, "zip.train.gz"))
    xte, yte = read_esl(os.path.join(a.data, "zip.test.gz"))
    xfit = xtr[: a.subset]
    clock.lap("read")
    comps = sorted(int(k) for k in a.components.split(","))
    ntr, nte = len(ytr), len(yte)
    g = np.empty((ntr, ntr))
    gt = np.empty((nte, ntr))
    kg = np.empty_like(g)  # f G, the cell's kernel
    kgt = np.empty_like(gt)
    print("degree,components,error_pct,errors,total")
    for d in [int(s) for s in a.degrees.split(",")]:
        t0 = time.perf_counter()
        alpha, colmean, grand = fit(xfit, d, max(comps), a.eig, clock)
        ztr = project(xtr, xfit, d, alpha, colmean, grand)
        zte = project(xte, xfit, d, alpha, colmean, grand)
        clock.lap("projection")
        g.fill(0.0)
        gt.fill(0.0)
        done = 0
        for k in comps:
            if k > alpha.shape[1]:
                continue
            grow(g, gt, ztr, zte, done, k)
            done = k
            f = ntr / np.trace(g)
            np.multiply(g, f, out=kg)
            np.multiply(gt, f, out=kgt)
            clock.lap("gram")
            svc = SVC(kernel="precomputed", C=a.c, decision_function_shape="ovo")
            svc.fit(kg, ytr)
            errors = int(np.sum(ovo_vote(svc.decision_function(kgt), svc.classes_, ytr) != yte))
            clock.lap("svm")
            print("%d,%d,%.4f,%d,%d" % (d, k, 100.0 * errors / nte, errors, nte), flush=True)
        print("# degree %d: %.1f s" % (d, time.perf_counter() - t0), flush=True)
    phases = ("read", "kernel", "eigh", "projection", "gram", "svm")
    print("# phases (s): " + ", ".join("%s %.1f" % (p, clock.sec.get(p, 0.0)) for p in phases))
    print("# total: %.1f s (eigh driver %s)" % (sum(clock.sec.values()), a.eig))
    return 0


if __name__ == "__main__":
    sys.exit(main())
