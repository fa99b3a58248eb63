#!/usr/bin/env bats
# named.bats - files kpca does not read, refused with what they are and the
# way to a file it reads, not a byte dump or a parse error on line 1: a
# MATLAB MAT-file, a Python pickle, an ARFF file, gzip inside gzip, text
# with classic-Mac line ends (CR alone), HDF5 with other datasets than
# `data` at its root.  Each file is made here.

load ../helper

# refused FILE TEXT...: fit of FILE exits 3 naming TEXT, with no model
refused() {
    local f="$1"
    shift
    run --separate-stderr "$KPCA" fit -q -k 2 "$f" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "$@"
    assert_no_output "$OUT/m.h5"
}

@test "a MATLAB MAT-file and a Python pickle: named, with the NumPy or CSV they can be saved as" {
    "$PY" -c 'import scipy.io' 2>/dev/null || skip "no scipy in $PY"
    "$PY" - "$TMP" <<'EOF2'
import sys, pickle, numpy as np, scipy.io
x = np.random.default_rng(0).normal(size=(50, 4))
scipy.io.savemat(sys.argv[1] + "/a.mat", {"X": x})
pickle.dump(x, open(sys.argv[1] + "/a.pkl", "wb"))
EOF2
    refused "$TMP/a.mat" "'$TMP/a.mat' is a MATLAB 5.0 MAT-file" "numpy.save('x.npy', scipy.io.loadmat("
    refused "$TMP/a.pkl" "'$TMP/a.pkl' is a Python pickle" "numpy.save('x.npy', x)"
}

@test "an ARFF file (OpenML): named, with the CSV it can be written as" {
    printf '%% OpenML USPS\n%%\n@RELATION usps\n@ATTRIBUTE int0 NUMERIC\n@ATTRIBUTE int1 NUMERIC\n@ATTRIBUTE class {1,2}\n@DATA\n0.5,0.25,1\n0.25,0.5,2\n' \
        >"$TMP/u.arff"
    refused "$TMP/u.arff" "'$TMP/u.arff' is an ARFF file" "scipy.io.arff.loadarff"
}

@test "gzip inside gzip, and CR-only line ends: named, with the command that makes them readable" {
    head_rows "$DATA/zip.test.gz" 50 "$TMP/t.txt"
    gzip -c "$TMP/t.txt" | gzip -c >"$TMP/twice.gz"
    refused "$TMP/twice.gz" "'$TMP/twice.gz' is gzip data inside gzip" "gzip -dc"
    printf 'a,b\r1,2\r3,4\r5,6\r' >"$TMP/mac.csv"
    refused "$TMP/mac.csv" "'$TMP/mac.csv' ends its lines with CR alone" "tr '\\r' '\\n'"
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
    refused "$TMP/xy.h5" "the root has no dataset 'data'" "it holds X (40 x 3), y (40)" "give $TMP/xy.h5:/NAME"
    run --separate-stderr "$KPCA" fit -q -k 2 "$TMP/xy.h5:/X" -o "$OUT/m.h5"
    assert_status 0
}
