#!/usr/bin/env bats
# columns.bats - the model records the columns it was fit on (issue 32,
# item 4, the model's side): names from a header row; transform and
# denoise read a DATA file with a header by those names (columns in
# another order, or more of them), refuse one that lacks some, and read a
# file without a header by position, its column count checked.
#
# The tests marked [reader] need the text reader to fill the dataset's
# column names and to select columns by name (kpca_read_opts colnames and
# select, src/lib/io/): they fail until it does.

load ../helper

setup() {
    common_setup
    [ -x "$PY" ] && "$PY" -c 'import sklearn, numpy' 2>/dev/null ||
        skip "$PY cannot import sklearn and numpy (Debian package python3-sklearn)"
    cd "$TMP"
    # Iris with a header; the same flowers with the columns in another order
    # and an extra column; without one of the fit columns; without a header
    "$PY" -c '
from sklearn.datasets import load_iris
d = load_iris()
names = ["sepal_length", "sepal_width", "petal_length", "petal_width"]
rows = [(list(map(repr, x)), d.target_names[y]) for x, y in zip(d.data, d.target)]
def write(path, cols, head=True, extra=False):
    with open(path, "w") as f:
        if head:
            f.write(",".join(["species"] + [names[c] for c in cols] + (["id"] if extra else [])) + "\n")
        for i, (x, y) in enumerate(rows):
            f.write(",".join([y] + [x[c] for c in cols] + (["%d" % (1000 + i)] if extra else [])) + "\n")
write("iris.csv", [0, 1, 2, 3])
write("shuffled.csv", [3, 0, 2, 1], extra=True)
write("lacking.csv", [3, 0, 1])
write("nohead.csv", [0, 1, 2, 3], head=False)
write("nohead3.csv", [0, 1, 2], head=False)'
    "$KPCA" fit -q --kernel rbf --label species iris.csv -o m.h5
    "$KPCA" transform -q --label species m.h5 iris.csv -o z.csv
}

@test "[reader] fit records the header's column names: kpca info" {
    run "$KPCA" info -c m.h5
    assert_status 0
    assert_stdout_contains "column_names yes" "column 1 sepal_length" "column 4 petal_width"
}

@test "[reader] transform reads the fit columns by name from a file with them in another order and more columns" {
    run --separate-stderr "$KPCA" transform -q --label species m.h5 shuffled.csv -o z2.csv
    assert_status 0
    cmp z.csv z2.csv || fail "other features from the reordered file"
    run --separate-stderr "$KPCA" denoise -q -k 4 m.h5 shuffled.csv -o d2.csv
    assert_status 0
    "$KPCA" denoise -q -k 4 m.h5 iris.csv -o d.csv
    cmp d.csv d2.csv || fail "other pre-images from the reordered file"
}

@test "[reader] transform of a file lacking a fit column: refused, naming it, no output" {
    run --separate-stderr "$KPCA" transform -q --label species m.h5 lacking.csv -o "$OUT/z.csv"
    assert_failure
    assert_stderr_contains "petal_length"
    assert_no_output "$OUT/z.csv"
}

@test "a file without a header is read by position, its column count checked" {
    run --separate-stderr "$KPCA" transform -q --label first m.h5 nohead.csv -o z3.csv
    assert_status 0
    cmp z.csv z3.csv || fail "other features from the file without a header"
    run --separate-stderr "$KPCA" transform -q --label first m.h5 nohead3.csv -o "$OUT/z.csv"
    assert_status 3
    assert_stderr_contains "has 3 values per point but the model 'm.h5' expects 4"
    assert_no_output "$OUT/z.csv"
}

@test "a model fit on a file without a header reads any file by position" {
    "$KPCA" fit -q --kernel rbf --label first nohead.csv -o p.h5
    run "$KPCA" info p.h5
    assert_stdout_contains "column_names no"
    "$KPCA" transform -q --label first p.h5 nohead.csv -o a.csv
    run --separate-stderr "$KPCA" transform -q --label species p.h5 iris.csv -o b.csv
    assert_status 0
    cmp a.csv b.csv || fail "the header file, read by position, gave other features"
}
