#!/usr/bin/env bats
# names.bats - class names (strings) from CSV through transform into feature
# files (HDF5 class_names, the CSV label column; LIBSVM gets the codes and a
# warning), matched by name in eval, shown by eval's predictions and cluster.

load ../helper

PY=/usr/bin/python3

setup_file() {
    local d
    d="$(file_tmp)"
    $PY - "$d" <<'PYEOF'
import sys
import h5py
import numpy as np
from sklearn.datasets import load_iris
d = sys.argv[1]
iris = load_iris()
rows = list(zip(iris.data, iris.target))
def write(name, rs, named):
    with open(d + '/' + name, 'w') as f:
        f.write('sepal length,sepal width,petal length,petal width,species\n')
        for a, t in rs:
            f.write(','.join('%g' % v for v in a) + ',' + (iris.target_names[t] if named else '%d' % t) + '\n')
write('iris.csv', rows, True)
# training in the species' order, test reversed: their names get other codes
train, test = rows[0::2], rows[1::2][::-1]
write('train.csv', train, True)
write('test.csv', test, True)
write('train_int.csv', train, False)
write('test_int.csv', test, False)
# HDF5 data as h5py writes a list of str: variable-length strings
with h5py.File(d + '/vlen.h5', 'w') as f:
    f['data'] = iris.data
    f['target'] = iris.target
    f['class_names'] = [str(s) for s in iris.target_names]
PYEOF
}

setup() {
    common_setup
    D="$(file_tmp)"
    [ -s "$D/vlen.h5" ] || fail "setup_file could not write the data (python3 with numpy, h5py and sklearn)"
}

# fit_iris FILE: an RBF model of FILE's flowers in $OUT/m.h5
fit_iris() {
    "$KPCA" fit -q -k 3 --kernel rbf --sigma 2 --label species "$1" -o "$OUT/m.h5"
}

@test "transform keeps the class names in HDF5 and CSV features, eval predicts names" {
    fit_iris "$D/iris.csv"
    "$KPCA" transform -q --label species "$OUT/m.h5" "$D/iris.csv" -o "$OUT/f.h5"
    "$KPCA" transform -q --label species "$OUT/m.h5" "$D/iris.csv" -o "$OUT/f.csv"
    run $PY -c "import h5py; f = h5py.File('$OUT/f.h5'); print([s.decode() for s in f['class_names'][:]], sorted(set(f['target'][:])))"
    assert_status 0
    [ "$output" = "['setosa', 'versicolor', 'virginica'] [0, 1, 2]" ]
    [ "$(tail -n +2 "$OUT/f.csv" | cut -d, -f1 | uniq -c | awk '{ print $1 $2 }' | tr '\n' ' ')" = "50setosa 50versicolor 50virginica " ]
    # each feature file read back carries the names: TRAIN HDF5, TEST CSV
    run "$KPCA" eval -q "$OUT/f.h5" "$OUT/f.csv" --predictions "$OUT/p"
    assert_status 0
    [ "$(sort -u "$OUT/p" | tr '\n' ' ')" = "setosa versicolor virginica " ]
    # the predictions agree with the species for all but the errors counted
    local wrong
    wrong=$(tail -n +2 "$OUT/f.csv" | cut -d, -f1 | paste -d' ' - "$OUT/p" | awk '$1 != $2' | wc -l)
    [ "$wrong" -eq "$(echo "$output" | awk 'NR == 2 { print $3 }')" ]
}

@test "TRAIN and TEST naming their classes in different orders give what integer labels give" {
    [ "$(sed -n 2p "$D/train.csv" | cut -d, -f5)" = setosa ]
    [ "$(sed -n 2p "$D/test.csv" | cut -d, -f5)" = virginica ]
    fit_iris "$D/train.csv"
    local s
    for s in train test train_int test_int; do
        "$KPCA" transform -q --label species "$OUT/m.h5" "$D/$s.csv" -o "$OUT/$s.h5"
        "$KPCA" transform -q --label species "$OUT/m.h5" "$D/$s.csv" -o "$OUT/$s.csv"
    done
    "$KPCA" eval -q -k 1,2,3 "$OUT/train_int.h5" "$OUT/test_int.h5" --csv "$OUT/int.table" --predictions "$OUT/int.p"
    # the integers' predictions as names: 0 1 2 are the species in order
    sed 's/0/setosa/g; s/1/versicolor/g; s/2/virginica/g' "$OUT/int.p" >"$OUT/want.p"
    grep -q versicolor "$OUT/want.p"
    for s in h5 csv; do
        "$KPCA" eval -q -k 1,2,3 "$OUT/train.$s" "$OUT/test.$s" --csv "$OUT/$s.table" --predictions "$OUT/$s.p"
        cmp <(cut -d, -f1-4 "$OUT/int.table") <(cut -d, -f1-4 "$OUT/$s.table")
        cmp "$OUT/want.p" "$OUT/$s.p"
    done
}

@test "a test name TRAIN lacks is named in a warning; names against integers are refused" {
    fit_iris "$D/train.csv"
    sed 's/,setosa$/,Setosa/' "$D/test.csv" >"$TMP/renamed.csv"
    run --separate-stderr "$KPCA" eval -q "$D/train.csv" "$TMP/renamed.csv" --label species
    assert_status 0
    assert_stderr_contains "test label Setosa of '$TMP/renamed.csv' does not occur in '$D/train.csv': its points (25) count as errors"
    run --separate-stderr "$KPCA" eval -q "$D/train.csv" "$D/test_int.csv" --label species --predictions "$OUT/p"
    assert_status 3
    assert_stderr_contains "'$D/train.csv' has class names ('setosa', ...) but '$D/test_int.csv' has integer labels"
    [ ! -e "$OUT/p" ]
}

@test "LIBSVM features of named data hold the codes, and a warning says what they stand for" {
    fit_iris "$D/iris.csv"
    run --separate-stderr "$KPCA" transform -q --label species "$OUT/m.h5" "$D/iris.csv" -o "$OUT/f.libsvm"
    assert_status 0
    assert_stderr_contains "class names are not kept in LIBSVM files: labels 0..2 stand for setosa, versicolor, virginica"
    [ "$(cut -d' ' -f1 "$OUT/f.libsvm" | uniq -c | awk '{ print $1 ":" $2 }' | tr '\n' ' ')" = "50:0 50:1 50:2 " ]
    # integer labels: no warning
    run --separate-stderr "$KPCA" transform -q --label species "$OUT/m.h5" "$D/train_int.csv" -o "$OUT/g.libsvm"
    assert_status 0
    [ -z "$stderr" ]
}

@test "cluster names the columns from HDF5 class names, h5py's variable-length strings too" {
    "$KPCA" fit -q -k 3 --kernel rbf --sigma 2 "$D/vlen.h5" -o "$OUT/m.h5"
    "$KPCA" transform -q "$OUT/m.h5" "$D/vlen.h5" -o "$OUT/f.h5"
    local f
    for f in "$D/vlen.h5" "$OUT/f.h5"; do
        run "$KPCA" cluster -q -k 3 "$f"
        assert_status 0
        assert_stdout_contains " cluster  setosa versicolor virginica"
    done
}
