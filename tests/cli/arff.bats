#!/usr/bin/env bats
# arff.bats - ARFF files (Weka, OpenML's USPS): read as the same data in
# ESL or CSV text is, by fit, transform (whole and by blocks) and eval, the
# nominal attribute the labels and the attribute names the columns' names;
# detected from content, compressed too; a refusal named with its line;
# scipy.io.arff reads the same numbers and classes.  Each file is made here
# from USPS by awk.

load ../helper

# to_arff ESL OUT [QUOTED]: the ESL rows of ESL as OpenML's USPS lays
# them out: 256 numeric attributes int0..int255, then the class, nominal
# {0,...,9}; with QUOTED, the names quoted with blanks in them ('pixel 0'),
# the classes named and quoted too ('c 0'...'c 9'), comments among the
# rows and CRLF line ends
to_arff() {
    awk -v q="${3:-}" 'BEGIN {
            eol = q ? "\r\n" : "\n"
            printf "%% USPS, as OpenML writes it%s@RELATION usps%s%s", eol, eol, eol
            for (j = 0; j < 256; j++)
                if (q) printf "@attribute \047pixel %d\047 real%s", j, eol
                else printf "@ATTRIBUTE int%d NUMERIC%s", j, eol
            printf "@ATTRIBUTE class {"
            for (c = 0; c < 10; c++) printf (q ? "%s\047c %d\047" : "%s%d"), c ? "," : "", c
            printf "}%s@DATA%s", eol, eol
        }
        {
            if (q && NR % 50 == 1) printf "%% row %d%s", NR, eol
            for (j = 2; j <= NF; j++) printf "%s,", $j
            printf (q ? "\047c %d\047%s" : "%d%s"), $1 + 0, eol
        }' "$1" >"$2"
}

setup() {
    common_setup
    head_rows "$DATA/zip.train.gz" 300 "$TMP/train.txt"
    head_rows "$DATA/zip.test.gz" 200 "$TMP/test.txt"
    to_arff "$TMP/train.txt" "$TMP/train.arff"
    to_arff "$TMP/test.txt" "$TMP/test.arff"
}

@test "USPS as ARFF: fit, transform (whole and by blocks) and eval give the ESL text's numbers" {
    "$KPCA" fit -q -d 3 -k 8 "$TMP/train.txt" -o "$TMP/esl.h5"
    "$KPCA" transform -q "$TMP/esl.h5" "$TMP/test.txt" -o "$TMP/want.csv"
    "$KPCA" transform -q "$TMP/esl.h5" "$TMP/train.txt" -o "$TMP/wtrain.h5"
    "$KPCA" transform -q "$TMP/esl.h5" "$TMP/test.txt" -o "$TMP/wtest.h5"
    "$KPCA" eval -k 4,8 "$TMP/wtrain.h5" "$TMP/wtest.h5" --csv "$TMP/want_eval.csv" >/dev/null

    run --separate-stderr "$KPCA" fit -q -d 3 -k 8 "$TMP/train.arff" -o "$OUT/a.h5"
    assert_status 0
    # the same spectrum: info's eigenvalues, every digit
    cmp <("$KPCA" info "$TMP/esl.h5" | grep -E '^(eigenvalues|trace|components)') \
        <("$KPCA" info "$OUT/a.h5" | grep -E '^(eigenvalues|trace|components)') || fail "the ARFF fit's spectrum differs"
    "$KPCA" info "$OUT/a.h5" | grep -qx 'column_names yes' || fail "the attribute names are not the model's columns"
    run --separate-stderr "$KPCA" transform -q "$OUT/a.h5" "$TMP/test.arff" -o "$OUT/t.csv"
    assert_status 0
    # the features, to the last digit (the header names no columns: features are c1..)
    cmp "$TMP/want.csv" "$OUT/t.csv" || fail "transform of test.arff differs from the ESL text's"
    # by blocks of 7 rows: the row source serves the file read whole
    run --separate-stderr "$KPCA" transform -q --block 7 "$OUT/a.h5" "$TMP/test.arff" -o "$OUT/b.csv"
    assert_status 0
    cmp "$TMP/want.csv" "$OUT/b.csv" || fail "transform by blocks of test.arff differs"
    # eval of the ARFF files' features: the labels are the class attribute's
    "$KPCA" transform -q "$OUT/a.h5" "$TMP/train.arff" -o "$OUT/ftrain.h5"
    "$KPCA" transform -q "$OUT/a.h5" "$TMP/test.arff" -o "$OUT/ftest.h5"
    run --separate-stderr "$KPCA" eval -k 4,8 "$OUT/ftrain.h5" "$OUT/ftest.h5" --csv "$OUT/e.csv"
    assert_status 0
    cmp <(cut -d, -f1-7 "$TMP/want_eval.csv") <(cut -d, -f1-7 "$OUT/e.csv") || fail "eval of the ARFF features differs"
}

@test "ARFF with quoted names, comments, CRLF and class names, gzip'd: detected, and read as the plain file" {
    to_arff "$TMP/train.txt" "$TMP/q.arff" quoted
    gzip -c "$TMP/q.arff" >"$TMP/q.gz"
    run --separate-stderr "$KPCA" info "$TMP/q.gz"
    assert_stderr_contains "'$TMP/q.gz' holds ARFF data (gzip, 300 x 256)"
    run --separate-stderr "$KPCA" info "$TMP/train.arff"
    assert_stderr_contains "'$TMP/train.arff' holds ARFF data (300 x 256)"
    "$KPCA" fit -q -d 3 -k 8 "$TMP/q.arff" -o "$TMP/q.h5"
    "$KPCA" info "$TMP/q.h5" | grep -qx 'column_names yes' || fail "no column names from the quoted attributes"
    run --separate-stderr "$KPCA" fit -q -d 3 -k 8 "$TMP/q.gz" -o "$OUT/z.h5"
    assert_status 0
    cmp <("$KPCA" info "$TMP/q.h5" | grep -v '^source') <("$KPCA" info "$OUT/z.h5" | grep -v '^source') ||
        fail "the gzip'd file fits otherwise"
    # the class names in the declared order (not the rows': the first is a 6), the labels theirs
    run --separate-stderr "$KPCA" transform -q "$TMP/q.h5" "$TMP/q.gz" -o "$OUT/f.h5"
    assert_status 0
    run "$PY" - "$OUT/f.h5" "$TMP/train.txt" <<'EOF'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
names = [n.decode() if isinstance(n, bytes) else n for n in f["class_names"][()]]
assert names == ["c %d" % c for c in range(10)], names
esl = np.loadtxt(sys.argv[2])
assert np.array_equal(f["target"][()], esl[:, 0].astype(int)), "labels differ"
print("ok")
EOF
    assert_status 0
    assert_stdout_contains "ok"
}

@test "ARFF refusals: a missing value, a second nominal attribute, sparse rows, --header: named with the line" {
    printf '@relation r\n@attribute a numeric\n@attribute b numeric\n@attribute c {x,y}\n@data\n1,2,x\n3,?,y\n' \
        >"$TMP/m.arff"
    run --separate-stderr "$KPCA" fit -q -k 1 "$TMP/m.arff" -o "$OUT/m.h5"
    assert_status 3
    assert_error_names "$TMP/m.arff"
    assert_stderr_contains "line 7, column 2 ('b'): missing value '?'; kpca needs every value"
    assert_no_output "$OUT/m.h5"
    printf '@relation r\n@attribute a numeric\n@attribute s {p,q}\n@attribute c {x,y}\n@data\n1,p,x\n3,q,y\n4,p,x\n' \
        >"$TMP/two.arff"
    run --separate-stderr "$KPCA" fit -q -k 1 "$TMP/two.arff" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "has 2 nominal attributes: 's' (column 2), 'c' (column 3)" "--label"
    # what it says to do reads the file
    run --separate-stderr "$KPCA" fit -q -k 1 --label c --drop s "$TMP/two.arff" -o "$OUT/m.h5"
    assert_status 0
    printf '@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n{0 1, 1 2}\n' >"$TMP/s.arff"
    run --separate-stderr "$KPCA" fit -q -k 1 "$TMP/s.arff" -o "$OUT/s.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/s.arff' line 5: sparse ARFF data"
    run --separate-stderr "$KPCA" fit -q -k 1 --header yes "$TMP/train.arff" -o "$OUT/s.h5"
    assert_status 2
    assert_stderr_contains "--header applies to CSV and whitespace text, not to ARFF"
}

@test "scipy.io.arff reads the numbers and classes kpca reads" {
    "$PY" -c 'import scipy.io.arff, h5py' 2>/dev/null || skip "no scipy or h5py in $PY"
    "$KPCA" fit -q -d 3 -k 8 "$TMP/train.arff" -o "$TMP/a.h5"
    "$KPCA" transform -q "$TMP/a.h5" "$TMP/test.arff" -o "$OUT/f.h5"
    # scipy's values are the ESL text's (which kpca reads as it reads the
    # ARFF file: the first test), its classes kpca's labels
    run "$PY" - "$TMP/test.arff" "$TMP/test.txt" "$OUT/f.h5" <<'EOF'
import sys, h5py, numpy as np
from scipy.io import arff
data, meta = arff.loadarff(sys.argv[1])
x = np.array([[row[n] for n in meta.names()[:-1]] for row in data])
y = np.array([int(row["class"]) for row in data])
esl = np.loadtxt(sys.argv[2])
assert meta.types()[-1] == "nominal" and meta["class"][1] == tuple(str(c) for c in range(10)), meta
assert np.array_equal(x, esl[:, 1:]), "values differ from the ESL text's"
assert np.array_equal(y, esl[:, 0].astype(int)), "classes differ from the ESL text's"
assert np.array_equal(y, h5py.File(sys.argv[3], "r")["target"][()]), "classes differ from kpca's labels"
print("same", x.shape)
EOF
    assert_status 0
    assert_stdout_contains "same (200, 256)"
}
