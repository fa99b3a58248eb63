#!/usr/bin/env bats
# forms.bats - one data set in every input form kpca reads gives the same
# model, bit for bit: ESL, LIBSVM, CSV with and without a header, the label
# first, last or named, TSV, gzip, NumPy float64, float32 and uint8 in C and
# Fortran order (with --labels), HDF5.  scikit-learn's digits (integers
# 0..16, exact in every dtype) are the data; every model projects one test
# file, and the projections must agree byte for byte.  Then kpca's
# projections of Iris, read from a CSV with a header and species names,
# against scikit-learn's KernelPCA, an independent implementation.

load ../helper

setup_file() {
    local d
    d="$(file_tmp)"
    have_sklearn || return 0
    $PY - "$d" <<'PYEOF'
import gzip, sys
import h5py
import numpy as np
from sklearn.datasets import load_digits, load_iris
d = sys.argv[1]
X, y = load_digits(return_X_y=True)
T, ty = X[300:400], y[300:400]
X, y = X[:300], y[:300]
num = lambda a, sep: sep.join('%g' % v for v in a)
def write(name, rows, newline='\n', opener=open):
    with opener(d + '/' + name, 'wt') as f:
        for r in rows:
            f.write(r + newline)
write('train.esl', ('%d ' % b + num(a, ' ') for a, b in zip(X, y)))
write('test.esl', ('%d ' % b + num(a, ' ') for a, b in zip(T, ty)))
# LIBSVM leaves zeros out; index 64 is written always, so that every
# form has 64 columns
write('train.svm', ('%d ' % b + ' '.join('%d:%g' % (j + 1, v) for j, v in enumerate(a) if v != 0 or j == 63)
                    for a, b in zip(X, y)))
names = ['p%d' % j for j in range(64)]
write('header.csv', ['label,' + ','.join(names)] + ['%d,' % b + num(a, ',') for a, b in zip(X, y)])
write('noheader.csv', ('%d,' % b + num(a, ',') for a, b in zip(X, y)))
write('last.csv', (num(a, ',') + ',%d' % b for a, b in zip(X, y)), newline='\r\n')
write('named.csv', [','.join(names[:10] + ['digit'] + names[10:])] +
      [num(a[:10], ',') + ',%d,' % b + num(a[10:], ',') for a, b in zip(X, y)])
write('tab.tsv', ['"class"\t' + '\t'.join(names)] + ['%d\t' % b + num(a, '\t') for a, b in zip(X, y)])
write('semi.csv.gz', [';'.join(names) + ';digit'] + [num(a, ';') + ';%d' % b for a, b in zip(X, y)],
      opener=gzip.open)
np.save(d + '/y.npy', y)
np.savetxt(d + '/y.txt', y, fmt='%d')
for dt in ('f8', 'f4', 'u1'):
    np.save(d + '/C_%s.npy' % dt, np.ascontiguousarray(X.astype(dt)))
    np.save(d + '/F_%s.npy' % dt, np.asfortranarray(X.astype(dt)))
with h5py.File(d + '/train.h5', 'w') as f:
    f['data'] = X
    f['target'] = y
# the check can fail: one value in 19200 one higher
Z = X.copy()
Z[150, 30] += 1
write('changed.csv', ('%d,' % b + num(a, ',') for a, b in zip(Z, y)))
iris = load_iris()
write('iris.csv', ['sepal length,sepal width,petal length,petal width,species'] +
      [num(a, ',') + ',%s' % iris.target_names[b] for a, b in zip(iris.data, iris.target)])
PYEOF
}

setup() {
    common_setup
    have_sklearn || skip "$PY cannot import sklearn, h5py and numpy (Debian packages python3-sklearn, python3-h5py)"
    D="$(file_tmp)"
    [ -s "$D/train.h5" ] || fail "setup_file could not write the data"
}

# project NAME FILE [OPTIONS]: fits a model of FILE (degree 3, its first 200 rows,
# k = 12) and projects the one test file with it to $OUT/NAME.csv (ESL of
# integer pixels, every column integral: its labels named, --label first); the
# model's description, without the lines naming its source and saying whether
# a header named its columns, to $OUT/NAME.info
project() {
    local name="$1" file="$2"
    shift 2
    "$KPCA" fit -q -d 3 -m 200 --sample first -k 12 "$@" "$file" -o "$OUT/$name.h5"
    "$KPCA" transform -q --label first "$OUT/$name.h5" "$D/test.esl" -o "$OUT/$name.csv"
    "$KPCA" info "$OUT/$name.h5" | grep -v -e '^source ' -e '^column_names ' >"$OUT/$name.info"
}

# same NAME: NAME's projection and description are the ESL model's
same() {
    cmp "$OUT/esl.csv" "$OUT/$1.csv" || fail "$1: its projection of test.esl differs from the ESL model's"
    cmp "$OUT/esl.info" "$OUT/$1.info" || fail "$1: kpca info differs from the ESL model's"
}

@test "every text form of the digits gives the ESL model, byte for byte" {
    project esl "$D/train.esl" --label first
    [ "$(wc -l <"$OUT/esl.csv")" -eq 101 ]
    grep -q '^dim 64$' "$OUT/esl.info"
    project svm "$D/train.svm"
    same svm
    project header "$D/header.csv"
    same header
    project noheader "$D/noheader.csv" --label first
    same noheader
    project first "$D/header.csv" --label first --header yes
    same first
    project last "$D/last.csv" --label last
    same last
    project named "$D/named.csv" --label digit
    same named
    project number "$D/named.csv" --label 11
    same number
    project tab "$D/tab.tsv"
    same tab
    project gz "$D/semi.csv.gz" --label digit
    same gz
}

@test "every NumPy form (float64, float32, uint8; C and Fortran order) and HDF5 give the ESL model" {
    project esl "$D/train.esl" --label first
    for dt in f8 f4 u1; do
        for order in C F; do
            project "${order}_$dt" "$D/${order}_$dt.npy" --labels "$D/y.npy"
            same "${order}_$dt"
        done
    done
    project ytxt "$D/C_f8.npy" --labels "$D/y.txt"
    same ytxt
    project h5 "$D/train.h5"
    same h5
}

@test "the comparison can fail: one value of 19200 changed gives another model" {
    project esl "$D/train.esl" --label first
    project changed "$D/changed.csv" --label first
    ! cmp -s "$OUT/esl.csv" "$OUT/changed.csv"
    ! cmp -s "$OUT/esl.info" "$OUT/changed.info"
}

# iris_ref DEGREE: scikit-learn's KernelPCA of Iris (read here from the CSV
# with numpy, kernel (x.y)^DEGREE, all 150 flowers, 3 components) against
# kpca's projection in $OUT/iris.csv: each component, its sign aligned,
# within 1e-6 of its largest value
iris_ref() {
    $PY - "$D/iris.csv" "$OUT/iris.csv" "$1" <<'PYEOF'
import sys
import numpy as np
from sklearn.decomposition import KernelPCA
X = np.loadtxt(sys.argv[1], delimiter=',', skiprows=1, usecols=range(4))
z = np.loadtxt(sys.argv[2], delimiter=',', skiprows=1, usecols=(1, 2, 3))  # column 1: the species
ref = KernelPCA(n_components=3, kernel='poly', degree=int(sys.argv[3]), gamma=1, coef0=0,
                eigen_solver='dense').fit_transform(X)
if z.shape != ref.shape:
    sys.exit('shapes differ: kpca %s, scikit-learn %s' % (z.shape, ref.shape))
worst = 0.0
for j in range(3):
    s = 1.0 if np.dot(z[:, j], ref[:, j]) >= 0 else -1.0
    worst = max(worst, np.max(np.abs(s * z[:, j] - ref[:, j])) / np.max(np.abs(ref[:, j])))
print('worst relative difference %.3g' % worst)
sys.exit(0 if worst <= 1e-6 else 1)
PYEOF
}

@test "Iris from a CSV with a header and species names: the projections agree with scikit-learn's KernelPCA" {
    "$KPCA" fit -q -d 2 -k 3 --label species "$D/iris.csv" -o "$OUT/iris.h5"
    "$KPCA" transform -q "$OUT/iris.h5" "$D/iris.csv" --label species -o "$OUT/iris.csv"
    run iris_ref 2
    printf '%s\n' "$output" >&2
    assert_status 0
    assert_stdout_contains "worst relative difference"
}

@test "the Iris reference check can fail: degree-2 projections against a degree-3 reference" {
    "$KPCA" fit -q -d 2 -k 3 --label species "$D/iris.csv" -o "$OUT/iris.h5"
    "$KPCA" transform -q "$OUT/iris.h5" "$D/iris.csv" --label species -o "$OUT/iris.csv"
    run iris_ref 3
    assert_status 1
    assert_stdout_contains "worst relative difference"
}
