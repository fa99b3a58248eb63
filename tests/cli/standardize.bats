#!/usr/bin/env bats
# standardize.bats - fit --standardize (issue 32, item 5): the features of
# scikit-learn's StandardScaler + KernelPCA on wine; the model's means and
# scales, applied by transform, undone by denoise, noted by spectrum; the
# warning of columns whose spreads differ by more than 100 times; and the
# transform warning of values outside the fit range, which fires only by a
# margin that matters and names --input-range only for images.

load ../helper

setup() {
    common_setup
    [ -x "$PY" ] && "$PY" -c 'import sklearn, h5py, numpy' 2>/dev/null ||
        skip "$PY cannot import sklearn, h5py and numpy (Debian packages python3-sklearn, python3-h5py)"
    cd "$TMP"
    # wine (178 x 13, columns from 0.1 to 1680), a header and the label
    # column `target`; every third row is a test row
    "$PY" -c '
from sklearn.datasets import load_wine
d = load_wine()
rows = [",".join(repr(float(v)) for v in x) + ",%d" % y for x, y in zip(d.data, d.target)]
head = ",".join(n.replace("/", "_") for n in d.feature_names) + ",target"
open("wine.csv", "w").write("\n".join([head] + rows) + "\n")
open("train.csv", "w").write("\n".join([head] + [r for i, r in enumerate(rows) if i % 3]) + "\n")
open("test.csv", "w").write("\n".join([head] + [r for i, r in enumerate(rows) if i % 3 == 0]) + "\n")'
}

# sklearn_compare K KERNEL-ARGS...: scikit-learn's StandardScaler fit on
# train.csv, then KernelPCA (dense, K components) with the kernel whose
# arguments follow (a Python dict), against kpca's features z.train.h5 and
# z.test.h5: each component, its sign aligned by the dot product, within
# 1e-10 of its largest value.  Prints the worst relative difference.
sklearn_compare() {
    "$PY" - "$@" <<'PY'
import sys, ast, h5py, numpy as np
from sklearn.preprocessing import StandardScaler
from sklearn.decomposition import KernelPCA
k, kw = int(sys.argv[1]), ast.literal_eval(sys.argv[2])
def load(p):
    a = np.loadtxt(p, delimiter=",", skiprows=1)
    return a[:, :-1], a[:, -1]
xtr, _ = load("train.csv")
xte, _ = load("test.csv")
sc = StandardScaler().fit(xtr)
kp = KernelPCA(n_components=k, eigen_solver="dense", **kw).fit(sc.transform(xtr))
ref = np.vstack([kp.transform(sc.transform(xtr)), kp.transform(sc.transform(xte))])
got = np.vstack([h5py.File(f, "r")["data"][...] for f in ("z.train.h5", "z.test.h5")])
assert got.shape == ref.shape, (got.shape, ref.shape)
worst = 0.0
for c in range(k):
    s = 1.0 if ref[:, c] @ got[:, c] >= 0 else -1.0
    worst = max(worst, np.max(np.abs(s * got[:, c] - ref[:, c])) / np.max(np.abs(ref[:, c])))
print("worst relative difference %.3g" % worst)
sys.exit(0 if worst <= 1e-10 else 1)
PY
}

# kfit FIT-OPTIONS...: fit --standardize on train.csv, features of both parts
kfit() {
    run --separate-stderr "$KPCA" fit -q --standardize -k 8 "$@" train.csv -o m.h5
    assert_status 0
    "$KPCA" transform -q m.h5 train.csv -o z.train.h5
    "$KPCA" transform -q m.h5 test.csv -o z.test.h5
}

@test "fit --standardize: the features of StandardScaler + KernelPCA (rbf) within 1e-10 on wine" {
    kfit --kernel rbf --sigma 2.5
    run sklearn_compare 8 "{'kernel': 'rbf', 'gamma': 0.08}" # 1 / (2 sigma^2)
    echo "# rbf: $output" >&3
    assert_status 0
    # without --standardize the same kernel is another model: the comparison can fail
    "$KPCA" fit -q -k 8 --kernel rbf --sigma 2.5 train.csv -o m.h5 2>/dev/null
    "$KPCA" transform -q m.h5 train.csv -o z.train.h5
    "$KPCA" transform -q m.h5 test.csv -o z.test.h5
    run sklearn_compare 8 "{'kernel': 'rbf', 'gamma': 0.08}" # 1 / (2 sigma^2)
    assert_status 1
}

@test "fit --standardize: the features of StandardScaler + KernelPCA (poly) within 1e-10 on wine" {
    kfit --kernel poly -d 3 --gamma 0.1 --coef0 1
    run sklearn_compare 8 "{'kernel': 'poly', 'degree': 3, 'gamma': 0.1, 'coef0': 1}"
    echo "# poly: $output" >&3
    assert_status 0
}

@test "the model records the fit rows' means and population standard deviations; info and spectrum say so" {
    "$KPCA" fit -q --standardize train.csv -o m.h5
    run "$KPCA" info m.h5
    assert_stdout_contains "standardize yes"
    "$KPCA" info -c m.h5 | awk '$1 == "standardize" && NF == 4 { print $3, $4 }' >got.txt
    [ "$(wc -l <got.txt)" -eq 13 ] || fail "not 13 'standardize J MEAN SCALE' lines"
    "$PY" -c '
import numpy as np
a = np.loadtxt("train.csv", delimiter=",", skiprows=1)[:, :-1]
g = np.loadtxt("got.txt")
assert np.allclose(g[:, 0], a.mean(axis=0), rtol=1e-14, atol=0), "means"
assert np.allclose(g[:, 1], a.std(axis=0, ddof=0), rtol=1e-13, atol=0), "scales"' || fail "the means or scales are not numpy's"
    run --separate-stderr "$KPCA" spectrum m.h5
    assert_status 0
    assert_stderr_contains "standardised"
    "$KPCA" fit -q train.csv -o plain.h5 2>/dev/null
    run "$KPCA" info plain.h5
    assert_stdout_contains "standardize no"
}

@test "fit --solver nystrom --standardize: means, scales and range of 9000 rows (three blocks of the statistics' pass) are numpy's" {
    # the streamed fit's column pass merges blocks of 4096 rows: a wrong
    # merge of the blocks' means or sums of squares shows here, not in
    # files of one block
    "$PY" -c '
import numpy as np
r = np.random.default_rng(7)
x = r.normal(size=(9000, 4)) * [1, 10, 100, 0.1] + [5, -3, 1000, 0]
x[:, 0] += np.linspace(0, 3, 9000)  # the blocks means differ
x = np.hstack([x, np.full((9000, 1), 0.1)])  # constant: its range says so, whatever rounding leaves in its spread
np.savetxt("big.csv", x, delimiter=",", fmt="%.17g")'
    "$KPCA" fit -q --solver nystrom --standardize --landmarks 40 -k 2 -d 1 big.csv -o n.h5
    "$KPCA" info -c n.h5 | awk '$1 == "standardize" && NF == 4 { print $3, $4 }' >got.txt
    "$KPCA" info n.h5 | awk '$1 == "input_lo" || $1 == "input_hi" { print $2 }' >range.txt
    [ "$(wc -l <got.txt)" -eq 5 ] || fail "not 5 'standardize J MEAN SCALE' lines"
    "$PY" -c '
import numpy as np
a = np.loadtxt("big.csv", delimiter=",")
g = np.loadtxt("got.txt")
lo, hi = np.loadtxt("range.txt")
assert np.allclose(g[:4, 0], a[:, :4].mean(axis=0), rtol=1e-13, atol=1e-15), "means"
assert np.allclose(g[:4, 1], a[:, :4].std(axis=0, ddof=0), rtol=1e-12, atol=0), "scales"
assert g[4, 0] == 0.1 and g[4, 1] == 1.0, "the constant column: mean its value, scale 1"
z = (a - g[:, 0]) / g[:, 1]
assert abs(lo - z.min()) <= 1e-12 * abs(z.min()) and abs(hi - z.max()) <= 1e-12 * abs(z.max()), "range"' ||
        fail "the means, scales or range are not numpy's"
}

@test "a constant column: mean its value, scale 1, and a note naming it" {
    awk -F, -v OFS=, 'NR == 1 { $3 = "const" } NR > 1 { $3 = 2.5 } 1' train.csv >c.csv
    run --separate-stderr "$KPCA" fit --standardize --kernel linear c.csv -o c.h5
    assert_status 0
    assert_stderr_contains "note:" "constant in the fit rows: scale 1"
    # the column by its header name where the reader gives one, else by number
    [[ "$stderr" == *"'const' is constant"* || "$stderr" == *"column 3 is constant"* ]] || { show_run; fail "the note names no column"; }
    "$KPCA" info -c c.h5 | grep -q '^standardize 3 2.5 1$' || fail "not mean 2.5, scale 1"
}

@test "denoise with a standardised model: pre-images in the input's units (linear, every component: the input itself)" {
    "$KPCA" fit -q --standardize --kernel linear train.csv -o lin.h5
    run --separate-stderr "$KPCA" denoise -q -k 13 lin.h5 test.csv -o pre.csv
    assert_status 0
    "$PY" -c '
import numpy as np
a = np.loadtxt("test.csv", delimiter=",", skiprows=1)[:, :-1]
z = np.loadtxt("pre.csv", delimiter=",", skiprows=1)
z = z[:, -a.shape[1]:] if z.shape[1] > a.shape[1] else z
err = np.max(np.abs(z - a) / np.maximum(np.abs(a), 1))
print(err)
assert err < 1e-9, err' || fail "the pre-images are not the inputs"
}

@test "columns whose spreads differ by more than 100 times: fit warns once, naming --standardize; not with it, not for Iris or images" {
    run --separate-stderr "$KPCA" fit -q train.csv -o m.h5
    assert_status 0
    assert_stderr_contains "warning:" "--standardize"
    [ "$(grep -c -- '--standardize' <<<"$stderr")" -eq 1 ] || fail "warned more than once"
    run --separate-stderr "$KPCA" fit -q --standardize train.csv -o m.h5
    assert_status 0
    [ -z "$stderr" ] || { show_run; fail "a warning with --standardize"; }
    "$PY" -c '
from sklearn.datasets import load_iris
d = load_iris()
open("iris.csv", "w").write("".join(",".join(map(repr, x)) + ",%d\n" % y for x, y in zip(d.data, d.target)))'
    run --separate-stderr "$KPCA" fit -q --label last iris.csv -o i.h5
    assert_status 0
    [ -z "$stderr" ] || { show_run; fail "a warning for Iris"; }
    # USPS digits: pixels of one scale, some nearly constant: no advice to standardise
    run --separate-stderr "$KPCA" fit -q -m 300 "$DATA/zip.train.gz" -o u.h5
    assert_status 0
    [ -z "$stderr" ] || { show_run; fail "a warning for images"; }
}

# split NAME TEST_SIZE SEED: NAME_tr.csv and NAME_te.csv, scikit-learn's
# train_test_split of NAME.csv (header kept)
split() {
    "$PY" -c '
import sys
from sklearn.model_selection import train_test_split
lines = open(sys.argv[1] + ".csv").read().splitlines()
tr, te = train_test_split(lines[1:], test_size=float(sys.argv[2]), random_state=int(sys.argv[3]))
open(sys.argv[1] + "_tr.csv", "w").write("\n".join(lines[:1] + tr) + "\n")
open(sys.argv[1] + "_te.csv", "w").write("\n".join(lines[:1] + te) + "\n")' "$@"
}

@test "transform of an ordinary random split of Iris or wine: no range warning" {
    "$PY" -c '
from sklearn.datasets import load_iris
d = load_iris()
open("iris.csv", "w").write("a,b,c,d,target\n" + "".join(",".join(map(repr, x)) + ",%s\n" % d.target_names[y] for x, y in zip(d.data, d.target)))'
    local s
    # wine 0.2/53 and 0.5/98 drew the warning from the overall range before
    for s in "wine 0.2 53" "wine 0.5 98" "wine 0.1 7" "wine 0.3 0" "iris 0.3 0" "iris 0.2 1" "iris 0.5 2"; do
        # shellcheck disable=SC2086
        split $s
        set -- $s
        "$KPCA" fit -q --kernel rbf "$1_tr.csv" -o s.h5 2>/dev/null
        run --separate-stderr "$KPCA" transform -q s.h5 "$1_te.csv" -o z.h5
        assert_status 0
        [ -z "$stderr" ] || { show_run; fail "$s: a warning on an ordinary split"; }
        "$KPCA" fit -q --standardize --kernel rbf "$1_tr.csv" -o s.h5
        run --separate-stderr "$KPCA" transform -q s.h5 "$1_te.csv" -o z.h5
        [ -z "$stderr" ] || { show_run; fail "$s, standardised: a warning on an ordinary split"; }
    done
    # landmarks and reduced-set vectors span less than the fit points: no warning either
    split wine 0.3 0
    "$KPCA" fit -q --standardize --kernel rbf --solver nystrom --landmarks 30 -k 5 wine_tr.csv -o n.h5
    "$KPCA" fit -q --standardize --kernel rbf -k 5 wine_tr.csv -o full.h5
    "$KPCA" reduce -q -k 5 -m 20 full.h5 -o r.h5
    for s in n.h5 r.h5; do
        run --separate-stderr "$KPCA" transform -q "$s" wine_te.csv -o z.h5
        assert_status 0
        [ -z "$stderr" ] || { show_run; fail "$s: a warning on an ordinary split"; }
    done
}

@test "transform of values far outside the fit range: a warning naming the column, and no --input-range for data that are not images" {
    "$KPCA" fit -q --standardize --kernel rbf train.csv -o m.h5
    # proline (column 13) ten times too large, as from another unit
    awk -F, -v OFS=, 'NR > 1 { $13 = $13 * 10 } 1' test.csv >far.csv
    run --separate-stderr "$KPCA" transform -q m.h5 far.csv -o z.h5
    assert_status 0
    assert_stderr_contains "warning:" "far.csv" "outside the fit data's range" "extrapolates"
    # the column by its header name where the reader gives one, else by number
    [[ "$stderr" == *"'proline': 1"* || "$stderr" == *"column 13: 1"* ]] || { show_run; fail "the warning names no column"; }
    [[ "$stderr" != *"--input-range"* ]] || { show_run; fail "--input-range advised for tabular data"; }
    # Iris fit on its first 40 rows (setosa), the rest of Iris projected:
    # outside by far, but Iris is no image
    "$PY" -c '
from sklearn.datasets import load_iris
d = load_iris()
open("iris.csv", "w").write("".join(",".join(map(repr, x)) + ",%d\n" % y for x, y in zip(d.data, d.target)))'
    "$KPCA" fit -q --label last -m 40 --sample first iris.csv -o i.h5
    run --separate-stderr "$KPCA" transform -q --label last i.h5 iris.csv -o z.h5
    assert_status 0
    assert_stderr_contains "warning:" "outside the fit data's range"
    [[ "$stderr" != *"--input-range"* ]] || { show_run; fail "--input-range advised for Iris"; }
    # digits in [0, 1] against a model of digits in [-1, 1]: images, the advice stands
    head_rows "$DATA/zip.test.gz" 50 test.esl
    awk '{ printf "%s", $1; for (i = 2; i <= NF; i++) printf " %.4f", ($i + 1) / 2; print "" }' test.esl >half.esl
    "$KPCA" fit -q -m 200 "$DATA/zip.train.gz" -o u.h5
    run --separate-stderr "$KPCA" transform -q u.h5 half.esl -o z.h5
    assert_status 0
    assert_stderr_contains "warning:" "--input-range"
}
