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
mkdir -p "$c/text" "$c/hdf5" "$c/model" "$c/model_sealed" "$c/csv" "$c/npy" "$c/mat"
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
# ARFF (read by the text target): OpenML's USPS layout, quoted names and
# values with CRLF and a nominal in the middle, gzip'd, and refusals
printf '%% OpenML USPS\n@RELATION usps\n@ATTRIBUTE int0 NUMERIC\n@ATTRIBUTE int1 REAL\n@ATTRIBUTE class {1,2,10}\n@DATA\n0.5,-1,1\n0.25,1e-3,10\n\n%% c\n1,1,2\n' >"$c/text/arff-usps"
printf "@relation 'a b'\r\n@attribute 'p q' numeric\r\n@attribute k {'c d',e,\"f\\\\\"g\"}\r\n@attribute two{a,b}\r\n@data\r\n1.5,'c d',a\r\n2,e,b\r\n3,\"f\\\\\"g\",a\r\n" >"$c/text/arff-quoted"
gzip -9n <"$c/text/arff-usps" >"$c/text/arff-usps.gz"
printf '@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n{0 1, 1 2}\n' >"$c/text/arff-sparse"
printf '@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,?\n2,z\n' >"$c/text/arff-missing"
printf '@relation r\n@attribute a numeric\n@attribute s string\n@attribute c {x,y}\n@attribute d {p,q}\n@data\n1,s,x,p\n' >"$c/text/arff-kinds"

# csv: a header and a label column, quoting (a doubled quote, a delimiter
# and a line break inside quotes), CRLF, semicolons, TSV, class names, no
# labels, whitespace text, a one-column file of integers (data and labels)
printf 'x1,x2,label\n0.5,1,3\n-1,2e-3,4\n' >"$c/csv/header"
printf '"a ""b""",x2,"c,d"\n1,"2","3"\n4,5,"6\n"\n' >"$c/csv/quoted"
printf 'x1,x2,class\r\n1,2,0\r\n3,4,1\r\n' >"$c/csv/crlf"
printf 'a;b;c\n1,5;2;1\n3;4;2\n' >"$c/csv/semicolon"
printf 'a\tb\ty\n1\t2\t0\n3\t4\t1\n' >"$c/csv/tsv"
printf 'sepal,petal,species\n5.1,1.4,setosa\n7.0,4.7,versicolor\n6.3,6.0,virginica\n4.9,1.5,setosa\n' >"$c/csv/names"
printf '1,2,3\n4,5,6\n' >"$c/csv/no-labels"
printf '3 0.5 1\n"a b" 1 2\n' >"$c/csv/whitespace"
printf '1\n2\n1\n' >"$c/csv/one-column"
printf 'x,y\n1,\n' >"$c/csv/empty-field"
gzip -9n <"$c/csv/names" >"$c/csv/names.gz"
# a byte-order mark (Excel's "CSV UTF-8"), decimal commas, a pandas index,
# an identifier column, UTF-16
printf '\357\273\277a,b,label\n1,2,0\n3,4,1\n' >"$c/csv/bom"
printf 'a;b;class\n5,1;-0,25;setosa\n6,3;1e-1;virginica\n' >"$c/csv/decimal-comma"
printf ',a,b,target\n0,5.1,3.5,0\n1,4.9,3.0,1\n' >"$c/csv/pandas-index"
printf 'id,a,b\ns1,1,2\ns2,3,4\n' >"$c/csv/string-id"
printf '\377\376a\0,\0b\0\n\0' >"$c/csv/utf16"

# npy: float64, float32, the integer dtypes, Fortran order, versions 2.0 and
# 3.0, an n x 1 array of labels, and refusals (big-endian, 3-D, a shape the
# file's size does not match)
/usr/bin/python3 - "$c/npy" <<'PY'
import sys, os, numpy as np
from numpy.lib import format as fmt
d = sys.argv[1]
a = np.arange(6, dtype=np.float64).reshape(2, 3) / 4
def save(name, arr, version=None):
    with open(os.path.join(d, name), "wb") as f:
        if version is None:
            np.save(f, arr)
        else:
            fmt.write_array(f, arr, version=version)
save("f8", a)
save("f4", a.astype(np.float32))
for t in ("i8", "i4", "i2", "i1", "u8", "u4", "u2", "u1"):
    save(t, (a * 4).astype(t))
save("fortran", np.asfortranarray(a))
save("v2", a, (2, 0))
save("v3", a, (3, 0))
save("labels", np.array([[1], [2], [1]], dtype=np.int64))
save("big-endian", a.astype(">f8"))
save("3d", np.zeros((2, 2, 2)))
with open(os.path.join(d, "short"), "wb") as f:
    np.save(f, a)
with open(os.path.join(d, "short"), "r+b") as f:
    f.truncate(os.path.getsize(os.path.join(d, "short")) - 8)
PY

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
# version 4's optional inputs: the columns' names (a header row), the
# standardisation (the means and scales) and the subset
printf 'a,b,c,label\n0.5,1,2,0\n-1,0.25,3,1\n0.3,-0.7,2.5,0\n0.9,0.1,1,1\n0.2,0.4,0.6,0\n' >"$t/named.csv"
"$K" fit -q --standardize --kernel rbf -m 4 -k 2 "$t/named.csv" -o "$c/model/inputs.model"
# a laplacian one (gamma of another kernel) and a precomputed one
# (gram_index in place of fit_x: 12 of 15 points of a 15 x 15 matrix)
"$K" fit -q --kernel laplacian -m 20 -k 3 data/zip.train.gz -o "$c/model/laplacian.model"
awk '{ for (j = 1; j <= 15; j++) printf "%d%s", (NR == j) + 1, j < 15 ? "," : "\n" }' "$(seq 15 >"$t/15" && echo "$t/15")" \
    >"$t/gram.csv"
"$K" fit -q --kernel precomputed --label none -m 12 -s 2 -k 3 "$t/gram.csv" -o "$c/model/precomputed.model"
# model_sealed (the loader behind the seal): the same valid models
cp "$c"/model/*.model "$c/model_sealed/"

# mat: MATLAB files written by libmatio (tools/matgen): version 5, plain and
# compressed, and 7.3; X 6 x 4 with labels y, a lone matrix, a 3-D array,
# char and complex variables, int16 and single classes
G=${MATGEN:-build/tools/matgen}
printf '1 2 3 4\n5 6 7 8\n9 10 11 12\n0.5 0.25 0 -1\n3 1 4 1\n5 9 2 6\n' >"$t/X.txt"
printf '0\n1\n0\n1\n2\n2\n' >"$t/y.txt"
seq 1 12 >"$t/flat.txt"
"$G" "$c/mat/v5" 5 "X=double:$t/X.txt" "y=int32:$t/y.txt"
"$G" "$c/mat/v5z" 5z "X=double:$t/X.txt" "y=double:$t/y.txt"
"$G" "$c/mat/v73" 7.3 "X=double:$t/X.txt" "y=uint8:$t/y.txt"
"$G" "$c/mat/lone" 5 "X=single:$t/X.txt"
"$G" "$c/mat/kinds" 5 "A=int16:$t/flat.txt:2x3x2" "s=char:hello" "Z=complex:$t/X.txt"
ls -l "$c"/*
