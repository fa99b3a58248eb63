"""read_bench.py - the data and the Python side of bench/run.sh's reading section.

usage: read_bench.py make CSV NPY [ROWS COLS]
           a CSV of ROWS points (default 20000) of a label 0..9 and COLS values
           (default 1000), uniform in [-1, 1] with six decimals ("-0.211234",
           as a scaled measurement file writes them), no header; and NPY, the
           same values (without the labels) as float64, C order (numpy.save)
       read_bench.py loadtxt CSV | pandas CSV
           the seconds numpy.loadtxt (or pandas.read_csv, C engine, header=None)
           takes to read CSV, timed in process (interpreter start and imports not
           counted), then the array's shape
Seeded: the same files on every machine with the same numpy.
"""
import sys
import time

import numpy as np


def make(csv, npy, rows, cols):
    rng = np.random.default_rng(20231)
    y = rng.integers(0, 10, rows)
    x = rng.integers(-1000000, 1000001, (rows, cols)) / 1e6
    with open(csv, "w") as f:
        for i in range(rows):
            f.write(str(y[i]) + "," + ",".join("%.6f" % v for v in x[i]) + "\n")
    np.save(npy, x)


def main():
    what = sys.argv[1]
    if what == "make":
        rows = int(sys.argv[4]) if len(sys.argv) > 4 else 20000
        cols = int(sys.argv[5]) if len(sys.argv) > 5 else 1000
        make(sys.argv[2], sys.argv[3], rows, cols)
        return
    if what == "pandas":
        import pandas
        t = time.perf_counter()
        a = pandas.read_csv(sys.argv[2], header=None, engine="c").to_numpy()
    else:
        t = time.perf_counter()
        a = np.loadtxt(sys.argv[2], delimiter=",")
    print("%.3f %d %d" % (time.perf_counter() - t, a.shape[0], a.shape[1]))


if __name__ == "__main__":
    main()
