#!/usr/bin/env bats
# named.bats - files kpca does not read, refused with what they are and the
# way to a file it reads, not a byte dump or a parse error on line 1: a
# Python pickle, gzip inside gzip, text
# with classic-Mac line ends (CR alone), HDF5 with other datasets than
# `data` at its root.  Each file is made here.  (ARFF, once refused here,
# is read: arff.bats; so are MATLAB files: matlab.bats.)

load ../helper

@test "a Python pickle: named, with the NumPy or CSV it can be saved as" {
    "$PY" -c 'import numpy' 2>/dev/null || skip "no numpy in $PY"
    "$PY" - "$TMP" <<'EOF2'
import sys, pickle, numpy as np
x = np.random.default_rng(0).normal(size=(50, 4))
pickle.dump(x, open(sys.argv[1] + "/a.pkl", "wb"))
EOF2
    refused_fit "$TMP/a.pkl" "'$TMP/a.pkl' is a Python pickle" "numpy.save('x.npy', x)"
}

@test "gzip inside gzip, and CR-only line ends: named, with the command that makes them readable" {
    head_rows "$DATA/zip.test.gz" 50 "$TMP/t.txt"
    gzip -c "$TMP/t.txt" | gzip -c >"$TMP/twice.gz"
    refused_fit "$TMP/twice.gz" "'$TMP/twice.gz' is gzip data inside gzip" "gzip -dc"
    printf 'a,b\r1,2\r3,4\r5,6\r' >"$TMP/mac.csv"
    refused_fit "$TMP/mac.csv" "'$TMP/mac.csv' ends its lines with CR alone" "tr '\\r' '\\n'"
    # and what the commands say makes them readable
    gzip -dc "$TMP/twice.gz" >"$TMP/once.gz"
    run --separate-stderr "$KPCA" fit -q -k 2 "$TMP/once.gz" -o "$OUT/m.h5"
    assert_status 0
    tr '\r' '\n' <"$TMP/mac.csv" >"$TMP/mac.txt"
    run --separate-stderr "$KPCA" fit -q -k 2 "$TMP/mac.txt" -o "$OUT/m2.h5"
    assert_status 0
}

@test "HDF5 with X and y at its root, no data: the datasets listed with the FILE:/NAME that reads one" {
    have_h5py || skip "python3-h5py missing"
    "$PY" -c 'import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "w") as f:
    f["X"] = np.random.default_rng(1).normal(size=(40, 3)); f["y"] = np.arange(40) % 2' "$TMP/xy.h5"
    refused_fit "$TMP/xy.h5" "the root has no dataset 'data'" "it holds X (40 x 3), y (40)" "give $TMP/xy.h5:/NAME"
    run --separate-stderr "$KPCA" fit -q -k 2 "$TMP/xy.h5:/X" -o "$OUT/m.h5"
    assert_status 0
}

@test "a header on whitespace text, a preamble line of counts, labels shifted by one: each named with what works" {
    printf 'Chins Situps Jumps\n5 162 60\n2 110 60\n12 101 101\n13 105 37\n' >"$TMP/linnerud.txt"
    refused_fit "$TMP/linnerud.txt" "found 'Chins': a header row of names? give --header yes"
    run --separate-stderr "$KPCA" fit -q -k 2 --header yes "$TMP/linnerud.txt" -o "$OUT/lin.h5"
    assert_status 0
    printf '3,2,class_0\n1.5,2,3,0\n2.5,1,4,1\n3.5,0,6,0\n' >"$TMP/wine.csv"
    refused_fit "$TMP/wine.csv" "line 2: 4 fields, expected 3 as in line 1; is line 1 a preamble" "skip it: --skip-rows 1"
    run --separate-stderr "$KPCA" fit -q -k 1 --skip-rows 1 "$TMP/wine.csv" -o "$OUT/w.h5"
    assert_status 0
    # LIBSVM's 1..10 against ESL's 0..9
    head_rows "$DATA/zip.train.gz" 200 "$TMP/tr.txt"
    head_rows "$DATA/zip.test.gz" 100 "$TMP/te.txt"
    awk '{ $1 = $1 + 1; printf "%s", $1; for (i = 2; i <= NF; i++) printf " %d:%s", i - 1, $i; print "" }' \
        "$TMP/tr.txt" >"$TMP/tr.svm"
    "$KPCA" fit -q -k 8 "$TMP/tr.svm" -o "$TMP/lm.h5"
    "$KPCA" transform -q "$TMP/lm.h5" "$TMP/tr.svm" -o "$TMP/ftr.svm"
    "$KPCA" transform -q "$TMP/lm.h5" "$TMP/te.txt" -o "$TMP/fte.svm"
    run --separate-stderr "$KPCA" eval -k 4,8 "$TMP/ftr.svm" "$TMP/fte.svm"
    assert_stderr_contains "note: the labels look shifted by one: '$TMP/ftr.svm' has 1..10, '$TMP/fte.svm' 0..9"
}

@test "--labels with every label on one line, by commas or blanks: named, with the tr that writes one a line" {
    head_rows "$DATA/zip.test.gz" 60 "$TMP/t.txt"
    cut -d' ' -f2- "$TMP/t.txt" >"$TMP/x.txt"
    cut -d' ' -f1 "$TMP/t.txt" | paste -sd, - >"$TMP/comma.txt"
    cut -d' ' -f1 "$TMP/t.txt" | paste -sd' ' - >"$TMP/blank.txt"
    run --separate-stderr "$KPCA" fit -q -k 2 --labels "$TMP/comma.txt" "$TMP/x.txt" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/comma.txt' line 1 holds all its labels, separated by commas" "tr -s ','"
    assert_no_output "$OUT/m.h5"
    run --separate-stderr "$KPCA" fit -q -k 2 --labels "$TMP/blank.txt" "$TMP/x.txt" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "separated by blanks" "tr -s ' '"
    tr -s ',' '\n' <"$TMP/comma.txt" >"$TMP/labels.txt"
    run --separate-stderr "$KPCA" fit -q -k 2 --labels "$TMP/labels.txt" "$TMP/x.txt" -o "$OUT/m.h5"
    assert_status 0
}
