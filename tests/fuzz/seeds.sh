#!/bin/sh
# seeds.sh - (re)makes the seed inputs of the fuzz corpus from USPS and kpca:
# small valid files of every format the targets read, plus a few broken ones.
# usage (repository root, after make): sh tests/fuzz/seeds.sh
# Crash reproducers found by `make fuzz` are added to the corpus by hand
# (named crash-*) and are kept when this script runs again.
set -eu
cd "$(dirname "$0")/../.."
K=${KPCA:-build/kpca}
c=tests/fuzz/corpus
mkdir -p "$c/text" "$c/hdf5" "$c/model" "$c/model_sealed"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# text: ESL (3 digits), the same gzip'd, with CRLF, LIBSVM, broken lines
zcat data/zip.train.gz | head -3 >"$c/text/esl3"
gzip -9n <"$c/text/esl3" >"$c/text/esl3.gz"
sed 's/$/\r/' "$c/text/esl3" >"$c/text/esl3-crlf"
zcat data/zip.train.gz | head -2 | awk '{ printf "%d", $1; for (i = 2; i <= 9; i++) if ($i != -1) printf " %d:%s", i - 1, $i; print "" }' >"$c/text/libsvm2"
printf '1 1:0.5 3:-1 7:2e-3\n0 2:1\n\n2 1:1 2:2 3:3\n' >"$c/text/libsvm-small"
printf '3 0.5 -1 1e-3\n4 1 2\n' >"$c/text/esl-short-line"
printf '1 3:1 2:1\n' >"$c/text/libsvm-descending"
printf 'nan 1 2\n' >"$c/text/esl-nan"

# hdf5: features written by kpca (data + target at the root), a group copy
"$K" fit -q -d 2 -m 20 -k 4 "$c/text/esl3.gz" -o "$t/tiny.model" 2>/dev/null ||
    "$K" fit -q -d 2 -m 20 -k 4 data/zip.train.gz -o "$t/tiny.model"
zcat data/zip.test.gz | head -5 >"$t/five"
"$K" transform -q "$t/tiny.model" "$t/five" -o "$c/hdf5/features.h5"
# and a usps.h5-like file: groups train/test with float32 data, int64 target
/usr/bin/python3 - "$c/hdf5/groups.h5" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "w") as f:
    for g, n in (("train", 4), ("test", 2)):
        grp = f.create_group(g)
        grp["data"] = np.linspace(0, 1, n * 6, dtype=np.float32).reshape(n, 6)
        grp["target"] = np.arange(n, dtype=np.int64)
PY
# class names: features of named data (class_names, fixed-length strings,
# sealed) and h5py's variable-length strings (unsealed)
printf 'a,b,label\n1,2,cat\n3,1,dog\n0,4,cat\n' >"$t/named.csv"
"$K" fit -q -d 1 -k 2 "$t/named.csv" -o "$t/named.model"
"$K" transform -q "$t/named.model" "$t/named.csv" -o "$c/hdf5/named-features.h5"
/usr/bin/python3 - "$c/hdf5/named-vlen.h5" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "w") as f:
    f["data"] = np.arange(8, dtype=np.float64).reshape(4, 2)
    f["target"] = np.array([1, 0, 1, 2], dtype=np.int32)
    f["class_names"] = ["cat", "dog", "emu"]
PY

# model (the format version kpca writes; the *-v2.model seeds are files of
# version 2, which the loader reads too, kept as they are): a small fit (20
# digits, 4 components) and a linear one on LIBSVM data
cp "$t/tiny.model" "$c/model/poly2.model"
printf '1 1:0.5 2:1\n2 1:-1 2:0.25\n1 1:0.3 2:-0.7\n2 1:0.9 2:0.1\n' >"$t/lin.txt"
"$K" fit -q -d 1 -k 2 "$t/lin.txt" -o "$c/model/linear.model"
# the other kernels and solvers: rbf (sigma attribute), Nystrom (landmarks,
# centring and solver attributes)
"$K" fit -q --kernel rbf -m 20 -k 3 data/zip.train.gz -o "$c/model/rbf.model"
"$K" fit -q --kernel sigmoid -m 20 -k 3 data/zip.train.gz -o "$c/model/sigmoid.model"
"$K" fit -q -d 2 -m 30 -k 3 --solver nystrom --landmarks 8 data/zip.train.gz -o "$c/model/nystrom.model"
# a smoothed one (the smooth attribute) and a reduced one (centring reduced,
# reduction, rho)
"$K" fit -q -d 2 -m 20 -k 3 --smooth 0.75 data/zip.train.gz -o "$c/model/smooth.model"
"$K" reduce -q -m 5 "$c/model/poly2.model" -o "$c/model/reduced.model"
# model_sealed (the loader behind the seal): the same valid models
cp "$c"/model/*.model "$c/model_sealed/"
ls -l "$c"/*
