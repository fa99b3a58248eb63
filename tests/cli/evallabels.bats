#!/usr/bin/env bats
# evallabels.bats - the labels eval is given (issue 32, item 7): integer
# values written as floats with more classes than half the training points
# are refused as a likely regression target; a TEST without labels gets its
# predicted labels (--predictions) and no error table.

load ../helper

setup() {
    common_setup
    [ -x "$PY" ] && "$PY" -c 'import sklearn, h5py, numpy' 2>/dev/null ||
        skip "$PY cannot import sklearn, h5py and numpy (Debian packages python3-sklearn, python3-h5py)"
    cd "$TMP"
}

@test "diabetes: a target written as floats (151.0), more classes than half the points: refused as a likely regression target" {
    "$PY" -c '
from sklearn.datasets import load_diabetes
x, y = load_diabetes(return_X_y=True)
rows = [",".join(repr(v) for v in a) + ",%.1f" % b for a, b in zip(x, y)]
head = ",".join("x%d" % i for i in range(10)) + ",target"
open("train.csv", "w").write("\n".join([head] + rows[:300]) + "\n")
open("test.csv", "w").write("\n".join([head] + rows[300:]) + "\n")'
    grep -q ',151\.0$' train.csv || fail "no label written 151.0"
    run --separate-stderr "$KPCA" eval train.csv test.csv --csv "$OUT/t.csv" --predictions "$OUT/p.txt"
    assert_status 3
    assert_stderr_contains "'train.csv'" "distinct integer labels" "for 300 training points" "likely regression target"
    [ -z "$output" ] || { show_run; fail "a table was printed"; }
    assert_no_output "$OUT/t.csv"
    assert_no_output "$OUT/p.txt"
    # the same points with three classes (the target's terciles) are classes
    awk -F, -v OFS=, 'NR > 1 { $11 = ($11 < 100 ? 0 : $11 < 180 ? 1 : 2) ".0" } 1' train.csv >tr3.csv
    awk -F, -v OFS=, 'NR > 1 { $11 = ($11 < 100 ? 0 : $11 < 180 ? 1 : 2) ".0" } 1' test.csv >te3.csv
    run --separate-stderr "$KPCA" eval -q tr3.csv te3.csv
    assert_status 0
    assert_stdout_contains "error_pct"
}

# iris_features: Iris (names) fit on its training part; features of the
# training part, of the test part with and without its labels
iris_features() {
    "$PY" -c '
from sklearn.datasets import load_iris
d = load_iris()
rows = [",".join(map(repr, x)) + ",%s" % d.target_names[y] for x, y in zip(d.data, d.target)]
open("train.csv", "w").write("\n".join(r for i, r in enumerate(rows) if i % 3) + "\n")
open("test.csv", "w").write("\n".join(r for i, r in enumerate(rows) if i % 3 == 0) + "\n")
open("test_x.csv", "w").write("\n".join(r.rsplit(",", 1)[0] for i, r in enumerate(rows) if i % 3 == 0) + "\n")'
    "$KPCA" fit -q --kernel rbf --label last train.csv -o m.h5
    "$KPCA" transform -q --label last m.h5 train.csv -o tr.h5
    "$KPCA" transform -q --label last m.h5 test.csv -o te.h5
    "$KPCA" transform -q --label none m.h5 test_x.csv -o tex.h5
}

@test "eval of a TEST without labels: the predicted names with --predictions, no table, exit 0" {
    iris_features
    run --separate-stderr "$KPCA" eval -k 2,4 tr.h5 tex.h5 --predictions "$OUT/p.txt"
    assert_status 0
    [ -z "$output" ] || { show_run; fail "a table for a TEST without labels"; }
    assert_stderr_contains "note:" "'tex.h5' (TEST) has no labels" "$OUT/p.txt"
    [ "$(wc -l <"$OUT/p.txt")" -eq 50 ] || fail "not 50 lines"
    # the labels predicted for the same points with their labels, by name
    "$KPCA" eval -q -k 2,4 tr.h5 te.h5 --predictions "$OUT/pl.txt" >/dev/null
    cmp "$OUT/p.txt" "$OUT/pl.txt" || fail "other predictions than with the labels"
    grep -q '^setosa setosa$' "$OUT/p.txt" || fail "no class names in the predictions"
    # to standard output
    run --separate-stderr "$KPCA" eval -q -k 2,4 tr.h5 tex.h5 --predictions -
    assert_status 0
    [ "$output" = "$(cat "$OUT/pl.txt")" ] || fail "--predictions - differs"
}

@test "eval of a TEST without labels and no --predictions: refused, naming the option; an error table asked for: refused" {
    iris_features
    run --separate-stderr "$KPCA" eval tr.h5 tex.h5
    assert_status 2
    assert_stderr_contains "'tex.h5' (TEST) has no labels" "--predictions FILE writes the labels predicted"
    run --separate-stderr "$KPCA" eval tr.h5 tex.h5 --predictions "$OUT/p.txt" --csv "$OUT/t.csv"
    assert_status 2
    assert_stderr_contains "option '--csv'" "no error table"
    assert_no_output "$OUT/p.txt"
    assert_no_output "$OUT/t.csv"
    # TRAIN without labels is refused whatever the options
    run --separate-stderr "$KPCA" eval tex.h5 te.h5 --predictions "$OUT/p.txt"
    assert_status 2
    assert_stderr_contains "'tex.h5' has no labels: kpca eval trains on labelled TRAIN"
    assert_no_output "$OUT/p.txt"
}
