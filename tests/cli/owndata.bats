#!/usr/bin/env bats
# owndata.bats - data sets that are not USPS: scikit-learn's digits and
# Iris as CSV (header, class names, CRLF, gzip), NumPy .npy with --labels,
# labels 1..10, unlabelled data, and the mistakes users make.

load ../helper

PY=/usr/bin/python3

setup_file() {
    local d
    d="$(file_tmp)"
    $PY - "$d" <<'PYEOF'
import sys, gzip
import numpy as np
from sklearn.datasets import load_digits, load_iris
d = sys.argv[1]
X, y = load_digits(return_X_y=True)
X, y = X[:400], y[:400]
np.save(d + '/digits.npy', X)
np.save(d + '/digits_f32_F.npy', np.asfortranarray(X.astype(np.float32)))
np.save(d + '/digits_u8.npy', X.astype(np.uint8))
np.save(d + '/digits_y.npy', y)
np.savetxt(d + '/digits_y.txt', y, fmt='%d')
row = lambda a: ','.join('%g' % v for v in a)
with open(d + '/digits.esl', 'w') as f:
    for a, b in zip(X, y): f.write('%d ' % b + ' '.join('%g' % v for v in a) + '\n')
with open(d + '/digits_header.csv', 'w') as f:
    f.write('label,' + ','.join('p%d' % i for i in range(64)) + '\n')
    for a, b in zip(X, y): f.write('%d,' % b + row(a) + '\n')
with open(d + '/digits_last.csv', 'w') as f:
    for a, b in zip(X, y): f.write(row(a) + ',%d\r\n' % b)
with gzip.open(d + '/digits_semi.csv.gz', 'wt') as f:
    f.write(';'.join('p%d' % i for i in range(64)) + ';digit\n')
    for a, b in zip(X, y): f.write(';'.join('%g' % v for v in a) + ';%d\n' % b)
with open(d + '/digits10.txt', 'w') as f:
    for a, b in zip(X, y): f.write('%d ' % (b + 1) + ' '.join('%g' % v for v in a) + '\n')
iris = load_iris()
with open(d + '/iris.csv', 'w') as f:
    f.write('sepal length,sepal width,petal length,petal width,species\n')
    for a, b in zip(iris.data, iris.target): f.write(row(a) + ',"%s"\n' % iris.target_names[b])
PYEOF
}

setup() {
    common_setup
    D="$(file_tmp)"
    [ -s "$D/digits.npy" ] || fail "setup_file could not write the data (python3 with numpy and sklearn)"
}

# features FILE [options]: a model of FILE's data, then FILE's features as CSV on stdout
features() {
    local file="$1"
    shift
    # no stale output can stand in for a failed step: each call starts clean
    # and its status is that of the first failing step
    rm -f "$OUT/m.h5" "$OUT/z.csv"
    "$KPCA" fit -q -m 200 -k 5 "$@" "$file" -o "$OUT/m.h5" &&
        "$KPCA" transform -q "$@" "$OUT/m.h5" "$file" -o "$OUT/z.csv" &&
        cat "$OUT/z.csv"
}

@test "digits in every input form give the same features" {
    local want
    # ESL of integer pixels: every column integral, so its labels are named (docs/own-data.md)
    want=$(features "$D/digits.esl" --label first)
    [ "$(features "$D/digits_header.csv")" = "$want" ]
    [ "$(features "$D/digits_last.csv" --label last)" = "$want" ]
    [ "$(features "$D/digits_semi.csv.gz" --label digit)" = "$want" ]
    [ "$(features "$D/digits.npy" --labels "$D/digits_y.txt")" = "$want" ]
    [ "$(features "$D/digits_u8.npy" --labels "$D/digits_y.npy")" = "$want" ]
    [ "$(features "$D/digits_f32_F.npy" --labels "$D/digits_y.npy")" = "$want" ]
}

@test "--labels from a pipe (process substitution) is read once, as text" {
    "$KPCA" fit -q -m 200 -k 5 "$D/digits.npy" --labels <(cat "$D/digits_y.txt") -o "$OUT/p.h5"
    "$KPCA" transform -q "$OUT/p.h5" "$D/digits.npy" --labels <(cat "$D/digits_y.txt") -o "$OUT/p.csv"
    [ "$(cat "$OUT/p.csv")" = "$(features "$D/digits.npy" --labels "$D/digits_y.txt")" ]
}

@test "npy without labels: fit and transform work, features carry no labels; eval refuses" {
    run "$KPCA" fit -q -m 200 -k 5 "$D/digits.npy" -o "$OUT/m.h5"
    assert_status 0
    run "$KPCA" transform -q "$OUT/m.h5" "$D/digits.npy" -o "$OUT/z.csv"
    assert_status 0
    [ "$(head -n 1 "$OUT/z.csv")" = "z1,z2,z3,z4,z5" ]
    run "$KPCA" transform -q "$OUT/m.h5" "$D/digits.npy" -o "$OUT/z.h5"
    assert_status 0
    run --separate-stderr "$KPCA" transform -q "$OUT/m.h5" "$D/digits.npy" -o "$OUT/z.svm"
    assert_status 2
    assert_stderr_contains "has no labels, and LIBSVM lines begin with one"
    assert_no_output "$OUT/z.svm"
    run --separate-stderr "$KPCA" eval -q "$OUT/z.h5" "$OUT/z.h5"
    assert_status 2
    assert_stderr_contains "'$OUT/z.h5' has no labels: kpca eval trains on labelled TRAIN"
}

@test "transform -o f.npy writes float64 n x k that numpy reads" {
    "$KPCA" fit -q -m 200 -k 5 "$D/digits_header.csv" -o "$OUT/m.h5"
    "$KPCA" transform -q "$OUT/m.h5" "$D/digits_header.csv" -o "$OUT/z.npy"
    "$KPCA" transform -q "$OUT/m.h5" "$D/digits_header.csv" -o "$OUT/z.csv"
    run $PY -c "
import numpy as np
a = np.load('$OUT/z.npy'); b = np.loadtxt('$OUT/z.csv', delimiter=',', skiprows=1)[:, 1:]
print(a.dtype, a.shape, np.array_equal(a, b))"
    [ "$output" = "float64 (400, 5) True" ]
}

@test "labels 1..10 and class names are labels" {
    run "$KPCA" fit -q -m 200 -k 5 "$D/digits10.txt" -o "$OUT/m.h5"
    assert_status 0
    run "$KPCA" fit -q -k 2 --kernel rbf --label species "$D/iris.csv" -o "$OUT/iris.h5"
    assert_status 0
    "$KPCA" transform -q "$OUT/iris.h5" "$D/iris.csv" --label species -o "$OUT/iris.csv"
    [ "$(cut -d, -f1 "$OUT/iris.csv" | sort -u | tr '\n' ' ')" = "label setosa versicolor virginica " ]
}

@test "the mistakes: each refused with file, line and column, no output" {
    printf 'a,b,c\n1,2,3\n4,NA,6\n' >"$TMP/x.csv"
    run --separate-stderr "$KPCA" fit -q -k 1 "$TMP/x.csv" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/x.csv' line 3, column 2 ('b'): expected a number, found 'NA'"
    printf 'a,b,c\n1,2,3\n4,5\n' >"$TMP/r.csv"
    run --separate-stderr "$KPCA" fit -q -k 1 "$TMP/r.csv" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/r.csv' line 3: 2 fields, expected 3 as in line 1"
    run --separate-stderr "$KPCA" fit -q -k 1 "$D/iris.csv" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "line 2, column 5 ('species'): expected a number, found 'setosa'; if that column holds the labels, give --label 5 (or 'species')"
    run --separate-stderr "$KPCA" fit -q -k 1 --format csv "$DATA/zip.test.gz" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "line 1: no comma, semicolon or tab to separate the values: values separated by blanks are ESL text (drop --format csv)"
    run --separate-stderr "$KPCA" fit -q -k 1 --label nope "$D/iris.csv" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "--label nope: no column of that name in the header"
    run --separate-stderr "$KPCA" fit -q -k 1 "$D/digits.npy" --labels "$D/iris.csv" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "'$D/iris.csv' line 1: 'sepal length,sepal width,petal length,pe' is 5 fields: a labels file holds one label a line"
    $PY -c "import numpy as np; np.save('$TMP/be.npy', np.zeros((3, 2), dtype='>f8'))"
    run --separate-stderr "$KPCA" fit -q -k 1 "$TMP/be.npy" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "big-endian data"
    assert_no_output "$OUT/m.h5"
}

@test "denoise of data without labels writes none: CSV without a label column, HDF5 without target" {
    "$KPCA" fit -q -m 200 -k 5 "$D/digits.npy" -o "$OUT/m.h5"
    run "$KPCA" denoise -q -k 3 "$OUT/m.h5" "$D/digits.npy" -o "$OUT/d.csv"
    assert_status 0
    [ "$(head -n 1 "$OUT/d.csv" | cut -d, -f1-2)" = "x1,x2" ]
    [ "$(wc -l <"$OUT/d.csv")" -eq 401 ]
    run "$KPCA" denoise -q -k 3 "$OUT/m.h5" "$D/digits.npy" -o "$OUT/d.h5"
    assert_status 0
    run $PY -c "
import h5py; f = h5py.File('$OUT/d.h5', 'r'); print(f['data'].shape, 'target' in f)"
    [ "$output" = "(400, 64) False" ]
    # read back, it is unlabelled data again: transform writes no labels
    "$KPCA" transform -q "$OUT/m.h5" "$OUT/d.h5" -o "$OUT/z.csv"
    [ "$(head -n 1 "$OUT/z.csv")" = "z1,z2,z3,z4,z5" ]
    # LIBSVM needs a label on every line: refused before anything is written,
    # also when only the noisy copy would be LIBSVM
    run --separate-stderr "$KPCA" denoise -q -k 3 "$OUT/m.h5" "$D/digits.npy" -o "$OUT/d.svm"
    assert_status 2
    assert_stderr_contains "has no labels, and LIBSVM lines begin with one"
    assert_no_output "$OUT/d.svm"
    run --separate-stderr "$KPCA" denoise -q -k 3 --noise 0.5 "$OUT/m.h5" "$D/digits.npy" -o "$OUT/e.csv" \
        --noisy-output "$OUT/n.svm"
    assert_status 2
    assert_stderr_contains "write '$OUT/n.svm' as csv"
    assert_no_output "$OUT/e.csv"
    assert_no_output "$OUT/n.svm"
    # labelled data keeps its labels
    "$KPCA" denoise -q -k 3 "$OUT/m.h5" "$D/digits_header.csv" -o "$OUT/l.csv"
    [ "$(head -n 1 "$OUT/l.csv" | cut -d, -f1-2)" = "label,x1" ]
}
