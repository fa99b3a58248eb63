#!/usr/bin/env bats
# formats.bats - feature files in HDF5, LIBSVM and CSV, to a file or to
# standard output; eval reads each and writes its table as CSV/Markdown.

load ../helper

K=12

setup_file() {
    local d k="${KPCA:-$BATS_TEST_DIRNAME/../../build/kpca}"
    d="$(file_tmp)"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.train.gz" | head -n 600 >"$d/train.txt"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.test.gz" | head -n 200 >"$d/test.txt"
    "$k" fit -q -d 2 -m 200 -k "$K" "$d/train.txt" -o "$d/model.h5"
}

setup() {
    common_setup
    FIX="$(file_tmp)"
    MODEL="$FIX/model.h5"
    [ -s "$MODEL" ] || fail "setup_file could not fit $MODEL"
}

# transform_all DATA: features of DATA in $OUT/z.h5, z.svm, z.csv, z.txt
# (LIBSVM by -f, name without suffix) and z.stdout (-f libsvm -o -)
transform_all() {
    local o
    for o in z.h5 z.svm z.csv; do
        run --separate-stderr "$KPCA" transform -q "$MODEL" "$1" -o "$OUT/$o"
        assert_status 0
        [ -s "$OUT/$o" ] || fail "no $OUT/$o"
    done
    run --separate-stderr "$KPCA" transform -q -f libsvm "$MODEL" "$1" -o "$OUT/z.txt"
    assert_status 0
    "$KPCA" transform -q -f libsvm "$MODEL" "$1" -o - >"$OUT/z.stdout"
    assert_no_tmp "$OUT"
}

@test "transform: the output format follows the suffix; HDF5 is the kpca seal, then the HDF5 signature at 512" {
    transform_all "$FIX/test.txt"
    [ "$(head -c 12 "$OUT/z.h5")" = 'kpca-seal 1 ' ]
    head -n 1 "$OUT/z.h5" | grep -Eq "^kpca-seal 1 length=$(stat -c %s "$OUT/z.h5") crc32=[0-9a-f]{8}\$" ||
        fail "bad seal line: $(head -n 1 "$OUT/z.h5")"
    [ "$(tail -c +513 "$OUT/z.h5" | head -c 4 | od -An -c | tr -d ' ')" = '211HDF' ]
    [ "$(head -c 6 "$OUT/z.csv")" = "label," ]
    head -n 1 "$OUT/z.svm" | grep -Eq '^-?[0-9]+ 1:'
    # suffixes in any case; no compressed output under a .gz name
    "$KPCA" transform -q "$MODEL" "$FIX/test.txt" -o "$OUT/Z.H5" && cmp -s "$OUT/Z.H5" "$OUT/z.h5" || fail ".H5 is not HDF5"
    "$KPCA" transform -q "$MODEL" "$FIX/test.txt" -o "$OUT/Z.CSV" && cmp -s "$OUT/Z.CSV" "$OUT/z.csv" || fail ".CSV is not CSV"
    run --separate-stderr "$KPCA" transform -q "$MODEL" "$FIX/test.txt" -o "$OUT/z.svm.gz"
    assert_status 2
    assert_stderr_contains "does not write compressed files"
    assert_no_output "$OUT/z.svm.gz"
}

@test "transform: the CSV header is 'label,z1,...,zK' and every row has K+1 fields" {
    transform_all "$FIX/test.txt"
    local want="label" c
    for ((c = 1; c <= K; c++)); do want="$want,z$c"; done
    [ "$(head -n 1 "$OUT/z.csv")" = "$want" ] || fail "header: $(head -n 1 "$OUT/z.csv")"
    [ "$(wc -l <"$OUT/z.csv")" -eq 201 ]
    awk -F, -v k="$K" 'NR > 1 && (NF != k + 1 || $1 !~ /^-?[0-9]+$/) { print "bad row " NR ": " $0; bad = 1 }
                       END { exit bad }' "$OUT/z.csv"
}

@test "transform: LIBSVM lines are 'label 1:v 2:v ... K:v' with the data's labels" {
    transform_all "$FIX/test.txt"
    [ "$(wc -l <"$OUT/z.svm")" -eq 200 ]
    awk -v k="$K" '{
        if (NF != k + 1 || $1 !~ /^-?[0-9]+$/) { print "bad line " NR ": " $0; bad = 1; next }
        for (i = 2; i <= NF; i++) {
            split($i, p, ":")
            if (p[1] != i - 1 || p[2] == "" || p[2] !~ /^[-+0-9.eE]+$/) { print "bad pair " NR ": " $i; bad = 1 }
        }
    } END { exit bad }' "$OUT/z.svm"
    # the labels are those of the data, in order
    diff <(awk '{ print $1 }' "$OUT/z.svm") <(awk '{ print $1 + 0 }' "$FIX/test.txt")
}

@test "transform -f libsvm: to a file without suffix and to standard output, byte-identical" {
    transform_all "$FIX/test.txt"
    cmp "$OUT/z.svm" "$OUT/z.txt"
    cmp "$OUT/z.svm" "$OUT/z.stdout"
}

@test "transform -o - without -q: features alone on stdout, messages on stderr" {
    run --separate-stderr "$KPCA" transform -f csv "$MODEL" "$FIX/test.txt" -o -
    assert_status 0
    [[ "$output" == label,z1,* ]] || { show_run; fail "stdout does not start with the CSV header"; }
    [ "$(printf '%s\n' "$output" | wc -l)" -eq 201 ]
    [[ "$stderr" == *transform* ]]
}

@test "transform: CSV and LIBSVM hold the same numbers (1e-12 relative)" {
    transform_all "$FIX/test.txt"
    # csv row i+1 <-> svm line i; compare value by value
    paste -d ' ' <(tail -n +2 "$OUT/z.csv" | tr ',' ' ') "$OUT/z.svm" | awk -v k="$K" '
        function rel(a, b) { d = a - b; if (d < 0) d = -d; m = (a < 0 ? -a : a); if ((b < 0 ? -b : b) > m) m = (b < 0 ? -b : b); return m > 0 ? d / m : d }
        {
            if ($1 != $(k + 2)) { print "label differs on row " NR; bad = 1 }
            for (c = 1; c <= k; c++) {
                split($(k + 2 + c), p, ":")
                r = rel($(1 + c) + 0, p[2] + 0)
                if (r > 1e-12) { print "row " NR " z" c ": " $(1 + c) " vs " p[2]; bad = 1 }
                n++
            }
        } END { if (n != NR * k) { print "compared " n " values"; bad = 1 }; exit bad }'
}

@test "transform: HDF5 holds the same numbers and labels as CSV and LIBSVM (1e-12 relative)" {
    have_h5py || skip "no h5py for $PY"
    transform_all "$FIX/test.txt"
    run "$PY" - "$OUT/z.h5" "$OUT/z.svm" "$OUT/z.csv" "$OUT/z.stdout" "$K" <<'EOF'
import sys
import h5py
import numpy as np

h5, svm, csv, out, k = sys.argv[1:6]
k = int(k)
with h5py.File(h5, "r") as f:
    z = np.asarray(f["data"][...], dtype=np.float64)
    y = np.asarray(f["target"][...])
assert z.shape == (200, k), z.shape


def read_svm(path):
    ys, rows = [], []
    for line in open(path):
        t = line.split()
        ys.append(int(t[0]))
        pairs = [p.split(":") for p in t[1:]]
        assert [int(i) for i, _ in pairs] == list(range(1, k + 1)), line[:80]
        rows.append([float(v) for _, v in pairs])
    return np.array(ys), np.array(rows)


with open(csv) as f:
    header = f.readline().strip()
    assert header == ",".join(["label"] + ["z%d" % (c + 1) for c in range(k)]), header
    m = np.loadtxt(f, delimiter=",", ndmin=2)
others = {"libsvm": read_svm(svm), "stdout": read_svm(out), "csv": (m[:, 0].astype(int), m[:, 1:])}
bad = 0
for name, (yy, zz) in others.items():
    if not np.array_equal(yy, y):
        print("labels differ: hdf5 vs", name)
        bad = 1
    rel = np.abs(zz - z) / np.maximum(np.maximum(np.abs(z), np.abs(zz)), 1e-300)
    print("%s: worst relative difference %.3g" % (name, rel.max()))
    if rel.max() > 1e-12:
        bad = 1
sys.exit(bad)
EOF
    [ "$status" -eq 0 ] || { show_run; fail "the outputs differ"; }
}

@test "transform -k: the first K' components of the full projection" {
    run --separate-stderr "$KPCA" transform -q "$MODEL" "$FIX/test.txt" -o "$OUT/all.svm"
    assert_status 0
    run --separate-stderr "$KPCA" transform -q -k 3 "$MODEL" "$FIX/test.txt" -o "$OUT/k3.svm"
    assert_status 0
    # the same numbers up to rounding (the products are summed in another order)
    [ "$(wc -l <"$OUT/k3.svm")" -eq 200 ]
    paste -d ' ' "$OUT/all.svm" "$OUT/k3.svm" | awk -v k="$K" '
        function abs(x) { return x < 0 ? -x : x }
        {
            if (NF != k + 1 + 4 || $1 != $(k + 2)) { print "bad line " NR; bad = 1; next }
            for (c = 1; c <= 3; c++) {
                split($(1 + c), a, ":"); split($(k + 2 + c), b, ":")
                if (a[1] != c || b[1] != c || abs(a[2] - b[2]) > 1e-12 * (abs(a[2]) > abs(b[2]) ? abs(a[2]) : abs(b[2]))) {
                    print "line " NR " z" c ": " $(1 + c) " vs " $(k + 2 + c); bad = 1
                }
            }
        } END { exit bad }'
    run --separate-stderr "$KPCA" transform -q -k $((K + 1)) "$MODEL" "$FIX/test.txt" -o "$OUT/k.svm"
    assert_status 2
    assert_error_names "$MODEL"
    assert_no_output "$OUT/k.svm"
}

# features TRAIN TEST SUFFIX: $OUT/tr.SUFFIX and $OUT/te.SUFFIX
features() {
    "$KPCA" transform -q "$MODEL" "$FIX/train.txt" -o "$OUT/tr.$1"
    "$KPCA" transform -q "$MODEL" "$FIX/test.txt" -o "$OUT/te.$1"
}

@test "eval reads HDF5 and LIBSVM feature files and prints the same table" {
    features h5
    features svm
    run --separate-stderr "$KPCA" eval -q -k 4,8,$K "$OUT/tr.h5" "$OUT/te.h5"
    assert_status 0
    local h5="$output"
    [ "$(printf '%s\n' "$h5" | wc -l)" -eq 4 ]
    [[ "$(printf '%s\n' "$h5" | head -n 1)" =~ ^\ *components\ +error_pct\ +errors\ +total$ ]] || { show_run; fail "bad header"; }
    run --separate-stderr "$KPCA" eval -q -k 4,8,$K "$OUT/tr.svm" "$OUT/te.svm"
    assert_status 0
    [ "$output" = "$h5" ] || { printf 'hdf5:\n%s\nlibsvm:\n%s\n' "$h5" "$output" >&2; fail "tables differ"; }
    # mixed: HDF5 train, LIBSVM test
    run --separate-stderr "$KPCA" eval -q -k 4,8,$K "$OUT/tr.h5" "$OUT/te.svm"
    assert_status 0
    [ "$output" = "$h5" ]
    # each row: components, a percentage, errors and total 200, consistent
    printf '%s\n' "$h5" | awk 'NR > 1 {
        if ($4 != 200 || $3 < 0 || $3 > 200) { print "bad row: " $0; bad = 1 }
        pct = sprintf("%.2f", 100 * $3 / $4); if (pct != $2) { print "pct " $2 " vs " pct; bad = 1 }
    } END { exit bad }'
    [ "$(printf '%s\n' "$h5" | awk 'NR > 1 { printf "%s ", $1 }')" = "4 8 $K " ]
}

@test "eval without -k uses all features" {
    features h5
    run --separate-stderr "$KPCA" eval -q "$OUT/tr.h5" "$OUT/te.h5"
    assert_status 0
    [ "$(printf '%s\n' "$output" | wc -l)" -eq 2 ]
    [ "$(printf '%s\n' "$output" | awk 'NR == 2 { print $1 }')" = "$K" ]
}

@test "eval --csv and --markdown write the table with the expected headers" {
    features h5
    run --separate-stderr "$KPCA" eval -q -k 4,$K "$OUT/tr.h5" "$OUT/te.h5" --csv "$OUT/t.csv" --markdown "$OUT/t.md"
    assert_status 0
    local table="$output"
    [ "$(head -n 1 "$OUT/t.csv")" = "components,error_pct,errors,total,C,cv_error_pct,support_vectors,train_seconds,ridge" ]
    [ "$(wc -l <"$OUT/t.csv")" -eq 3 ]
    awk -F, 'NR > 1 && (NF != 9 || $4 != 200 || $5 != 10 || $6 != "") { print "bad row: " $0; bad = 1 } END { exit bad }' "$OUT/t.csv"
    [ "$(sed -n 1p "$OUT/t.md")" = "| components | error_pct | errors | total | C | cv_error_pct | support_vectors | train_seconds | ridge |" ]
    [ "$(sed -n 2p "$OUT/t.md")" = "|---:|---:|---:|---:|---:|---:|---:|---:|---:|" ]
    [ "$(wc -l <"$OUT/t.md")" -eq 4 ]
    # the three tables agree: components and errors
    diff <(printf '%s\n' "$table" | awk 'NR > 1 { print $1, $3, $4 }') \
         <(awk -F, 'NR > 1 { print $1, $3, $4 }' "$OUT/t.csv")
    diff <(printf '%s\n' "$table" | awk 'NR > 1 { printf "%s %.2f %s %s\n", $1, $2, $3, $4 }') \
         <(awk -F'|' 'NR > 2 { gsub(/ /, ""); printf "%s %.2f %s %s\n", $2, $3, $4, $5 }' "$OUT/t.md")
    assert_no_tmp "$OUT"
}

@test "eval --csv - writes the CSV table to standard output" {
    features h5
    run --separate-stderr "$KPCA" eval -q -k $K "$OUT/tr.h5" "$OUT/te.h5" --csv -
    assert_status 0
    [ "${lines[0]}" = "components,error_pct,errors,total,C,cv_error_pct,support_vectors,train_seconds,ridge" ] ||
        { show_run; fail "stdout is not pure CSV"; }
    [ "${#lines[@]}" -eq 2 ]
}

@test "eval --csv, --markdown and --json: the same columns and numbers; --json - is pure JSON" {
    features h5
    "$KPCA" eval -q -k 4,$K -c 1,10 --folds 3 "$OUT/tr.h5" "$OUT/te.h5" \
        --csv "$OUT/t.csv" --markdown "$OUT/t.md" --json "$OUT/t.json" >/dev/null
    run --separate-stderr "$KPCA" eval -q -k 4,$K -c 1,10 --folds 3 "$OUT/tr.h5" "$OUT/te.h5" --json -
    assert_status 0
    printf '%s\n' "$output" >"$OUT/stdout.json"
    "$PY" - "$OUT" <<'PY' || fail "tables disagree"
import csv, json, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/t.csv")))
js = json.load(open(d + "/t.json"))
out = json.load(open(d + "/stdout.json"))
md = [l.strip().strip("|").split("|") for l in open(d + "/t.md")]
head = [c.strip() for c in md[0]]
assert head == list(rows[0].keys()) == list(js[0].keys()), (head, rows[0].keys(), js[0].keys())
assert len(rows) == len(js) == len(md) - 2 == 2
for r, j, m in zip(rows, js, md[2:]):
    m = dict(zip(head, (c.strip() for c in m)))
    for k in head:
        if k == "train_seconds":
            continue
        if r[k] == "":  # a missing value: empty, null, "-"
            assert j[k] is None and m[k] == "-", (k, r[k], j[k], m[k])
            continue
        assert float(r[k]) == float(j[k]) == float(m[k]), (k, r[k], j[k], m[k])
for a, b in zip(js, out):
    assert {k: v for k, v in a.items() if k != "train_seconds"} == {k: v for k, v in b.items() if k != "train_seconds"}
PY
}

@test "tables use the C locale's decimal point whatever LC_ALL says" {
    features h5
    # a German locale (decimal comma), built here so the test can fail
    command -v localedef >/dev/null || skip "no localedef"
    mkdir -p "$TMP/loc"
    localedef -i de_DE -f UTF-8 "$TMP/loc/de_DE.UTF-8" 2>/dev/null || skip "no de_DE locale source"
    [ "$(LOCPATH="$TMP/loc" LC_ALL=de_DE.UTF-8 /usr/bin/printf '%.2f' 3.5)" = "3,50" ] || skip "the locale is not in effect"
    run --separate-stderr env LOCPATH="$TMP/loc" LC_ALL=de_DE.UTF-8 "$KPCA" eval -q -k 4 "$OUT/tr.h5" "$OUT/te.h5" --csv -
    assert_status 0
    [[ "${lines[1]}" =~ ^4,[0-9]+\.[0-9]{4},[0-9]+,[0-9]+,10,,[0-9]+,[0-9]+\.[0-9]{3},$ ]] || { show_run; fail "not C-locale numbers"; }
}

@test "eval reads raw data files too (ESL as TRAIN and TEST)" {
    run --separate-stderr "$KPCA" eval -q -k 16,256 "$FIX/train.txt" "$FIX/test.txt"
    assert_status 0
    [ "$(printf '%s\n' "$output" | wc -l)" -eq 3 ]
}

@test "features of usps.h5 given with FILE:GROUP and --format" {
    [ -r "$DATA/usps.h5" ] || skip "no $DATA/usps.h5"
    run --separate-stderr "$KPCA" transform -q --format hdf5 --input-range 0,1 "$MODEL" "$DATA/usps.h5:test" -o "$OUT/z.svm"
    assert_status 0
    [ "$(wc -l <"$OUT/z.svm")" -eq 2007 ]
    run --separate-stderr "$KPCA" transform -q --format esl "$MODEL" "$DATA/usps.h5:test" -o "$OUT/y.svm"
    assert_failure
    assert_no_output "$OUT/y.svm"
}

# tests/ref/models-3038552: models written by kpca at commit 3038552 (the
# first with rbf, sigmoid and Nystrom models), before the fit_points
# attribute; a later kpca must keep reading them (their checksums included)
@test "models written by an earlier kpca (commit 3038552) still load, project and report" {
    local m
    printf '1 0.5 -0.25\n2 1 2\n' >"$TMP/two.txt"
    for m in linear poly2 rbf sigmoid nystrom; do
        run --separate-stderr "$KPCA" info "$REPO/tests/ref/models-3038552/$m.h5"
        [ "$status" -eq 0 ] || { show_run; fail "$m no longer loads"; }
        if [ "$m" = linear ]; then # fitted on 2-value points
            "$KPCA" transform -q -f csv "$REPO/tests/ref/models-3038552/$m.h5" "$TMP/two.txt" -o "$OUT/$m.csv" ||
                fail "$m does not project"
            [ "$(wc -l <"$OUT/$m.csv")" -eq 3 ] || fail "$m features"
            continue
        fi
        run --separate-stderr "$KPCA" transform -q -f csv "$REPO/tests/ref/models-3038552/$m.h5" "$FIX/test.txt" -o "$OUT/$m.csv"
        [ "$status" -eq 0 ] || { show_run; fail "$m does not project"; }
        [ "$(wc -l <"$OUT/$m.csv")" -eq 201 ] && ! grep -qiwE 'nan|[+-]?inf(inity)?' "$OUT/$m.csv" || fail "$m features"
    done
    run --separate-stderr "$KPCA" info "$REPO/tests/ref/models-3038552/nystrom.h5"
    assert_stdout_contains "centring nystrom" "fit_points unknown"
    run --separate-stderr "$KPCA" spectrum -q "$REPO/tests/ref/models-3038552/poly2.h5"
    assert_status 0
    # an old Nystrom model does not say over how many points its covariance is
    run --separate-stderr "$KPCA" spectrum -q "$REPO/tests/ref/models-3038552/nystrom.h5"
    assert_status 3
    assert_stderr_contains "does not record how many points it was fitted on" "fit it again"
}

@test "eval --classifier lda: ridge column, no C or support vectors; agrees with scikit-learn's LDA; SVM options refused" {
    features h5
    run --separate-stderr "$KPCA" eval -q -k 4,$K --classifier lda "$OUT/tr.h5" "$OUT/te.h5" --csv -
    assert_status 0
    printf '%s\n' "$output" >"$OUT/lda.csv"
    # components,error_pct,errors,total,C,cv_error_pct,support_vectors,train_seconds,ridge
    awk -F, -v k="$K" 'NR > 1 { if ($5 != "" || $7 != "" || $9 == "" || !($2 < 50)) bad = 1; n++ }
        END { exit bad || n != 2 }' "$OUT/lda.csv" || { show_run; fail "lda table"; }
    if have_sklearn; then
        # MATLAB's classify: pooled covariance with 1/(n - classes), empirical priors
        "$PY" - "$OUT/tr.h5" "$OUT/te.h5" "$K" "$(awk -F, 'NR == 3 { print $3 }' "$OUT/lda.csv")" <<'PY' || fail "lda disagrees with scikit-learn"
import sys, h5py, numpy as np
def load(p):
    f = h5py.File(p, "r"); return np.array(f["data"]), np.array(f["target"])
xt, yt = load(sys.argv[1]); xs, ys = load(sys.argv[2]); k = int(sys.argv[3]); ours = int(sys.argv[4])
xt, xs = xt[:, :k], xs[:, :k]
# kpca scales by default (--scale norm: one factor), which LDA does not feel
cls = np.unique(yt); n = len(yt)
mu = np.array([xt[yt == c].mean(0) for c in cls])
S = sum((xt[yt == c] - mu[i]).T @ (xt[yt == c] - mu[i]) for i, c in enumerate(cls)) / (n - len(cls))
W = np.linalg.solve(S, mu.T)
b = -0.5 * np.sum(mu.T * W, 0) + np.log([np.mean(yt == c) for c in cls])
pred = cls[np.argmax(xs @ W + b, 1)]
errs = int(np.sum(pred != ys))
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
sk = int(np.sum(LinearDiscriminantAnalysis(solver="lsqr").fit(xt, yt).predict(xs) != ys))
assert abs(errs - ours) <= 1 and abs(sk - ours) <= 3, (ours, errs, sk)
PY
    fi
    local opt
    for opt in "-c 10" "--folds 3" "--multiclass ovr" "--eps 0.01" "--backend sparse"; do
        # shellcheck disable=SC2086
        run --separate-stderr "$KPCA" eval -q --classifier lda $opt "$OUT/tr.h5" "$OUT/te.h5"
        assert_status 2
        assert_stderr_contains "is an SVM option: --classifier lda takes none"
    done
    run --separate-stderr "$KPCA" eval -q --folds 3 "$OUT/tr.h5" "$OUT/te.h5"
    assert_status 2
    assert_stderr_contains "--folds" "several values"
    run --separate-stderr "$KPCA" eval -q -c 1,10,1 "$OUT/tr.h5" "$OUT/te.h5"
    assert_status 2
    assert_stderr_contains "C = 1 is listed twice"
}
