#!/usr/bin/env bats
# matlab.bats - MATLAB MAT-files (version 5, compressed or not, and 7.3)
# read through libmatio: FILE.mat:VAR as MATLAB shows it (rows are
# points), FILE.mat alone for its one matrix, labels from a vector, and
# each refusal (several matrices, a 3-D array, complex, char, a missing
# variable, a cut or damaged file, a v7.3 file forced as HDF5).  The files
# are written here by tools/matgen (libmatio), and by scipy where it is
# installed (a second writer).

load ../helper

MATGEN="${MATGEN:-$REPO/build/tools/matgen}"

setup() {
    common_setup
    [ -x "$MATGEN" ] || fail "no $MATGEN: make build/tools/matgen (make cli-test builds it)"
    head_rows "$DATA/zip.train.gz" 300 "$TMP/tr.txt"
    cut -d' ' -f2- "$TMP/tr.txt" >"$TMP/X.txt"
    awk '{ print int($1) }' "$TMP/tr.txt" >"$TMP/y.txt"
    tr ' ' ',' <"$TMP/X.txt" >"$TMP/X.csv"
}

@test "FILE.mat:X of every version and class reads as the same data in CSV: the same model and features" {
    "$KPCA" fit -q -k 8 "$TMP/X.csv" --labels "$TMP/y.txt" -o "$OUT/csv.h5"
    "$KPCA" transform -q "$OUT/csv.h5" "$TMP/X.csv" -o "$OUT/csv.npy"
    "$KPCA" info "$OUT/csv.h5" | grep -v '^source' >"$OUT/csv.info"
    local v cls
    for v in 5 5z 7.3; do
        for cls in double single uint8; do
            "$MATGEN" "$TMP/m.mat" "$v" "X=$cls:$TMP/X.txt" "y=int32:$TMP/y.txt"
            run --separate-stderr "$KPCA" fit -q -k 8 "$TMP/m.mat:X" --labels "$TMP/m.mat:y" -o "$OUT/m.h5"
            assert_status 0
            "$KPCA" transform -q "$OUT/csv.h5" "$TMP/m.mat:X" -o "$OUT/m.npy"
            if [ "$cls" = double ]; then
                # USPS's values are not single's, nor uint8's: those give other data
                "$KPCA" info "$OUT/m.h5" | grep -v '^source' | diff - "$OUT/csv.info" || fail "v$v $cls: another model"
                cmp "$OUT/m.npy" "$OUT/csv.npy" || fail "v$v $cls: other features"
            fi
        done
    done
}

@test "rows are points: a 300 x 256 variable is 300 points of 256 values, a 256 x 300 one 256 of 300" {
    "$MATGEN" "$TMP/m.mat" 7.3 "X=double:$TMP/X.txt"
    run --separate-stderr "$KPCA" fit -k 2 "$TMP/m.mat" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "300 points"
    awk '{ for (i = 1; i <= NF; i++) c[i] = c[i] (NR > 1 ? " " : "") $i } END { for (i = 1; i <= NF; i++) print c[i] }' \
        "$TMP/X.txt" >"$TMP/Xt.txt"
    "$MATGEN" "$TMP/t.mat" 5 "Xt=double:$TMP/Xt.txt"
    run --separate-stderr "$KPCA" fit -k 2 "$TMP/t.mat" -o "$OUT/t.h5"
    assert_status 0
    assert_stderr_contains "256 points"
}

@test "scipy.io.savemat's files read as MATLAB shows them, labels from a vector of either orientation" {
    "$PY" -c 'import scipy.io' 2>/dev/null || skip "no scipy in $PY"
    "$PY" - "$TMP" <<'PY'
import sys, numpy as np, scipy.io
d = sys.argv[1]
x = np.loadtxt(d + "/X.txt"); y = np.loadtxt(d + "/y.txt").astype(int)
scipy.io.savemat(d + "/s.mat", {"X": x, "y": y.reshape(1, -1)}, do_compression=True)
scipy.io.savemat(d + "/col.mat", {"X": x, "y": y.reshape(-1, 1)})
PY
    "$KPCA" fit -q -k 8 "$TMP/X.csv" --labels "$TMP/y.txt" -o "$OUT/csv.h5"
    "$KPCA" transform -q "$OUT/csv.h5" "$TMP/X.csv" --labels "$TMP/y.txt" -o "$OUT/csvf.h5"
    "$KPCA" eval -q -c 8 "$OUT/csvf.h5" "$OUT/csvf.h5" >"$OUT/csv.tab"
    local f
    for f in s col; do
        run --separate-stderr "$KPCA" transform -q "$OUT/csv.h5" "$TMP/$f.mat:X" --labels "$TMP/$f.mat:y" -o "$OUT/${f}f.h5"
        assert_status 0
        "$KPCA" eval -q -c 8 "$OUT/csvf.h5" "$OUT/${f}f.h5" >"$OUT/$f.tab"
        diff "$OUT/$f.tab" "$OUT/csv.tab" || fail "$f.mat: another error table"
    done
}

@test "FILE.mat with several matrices lists them, with the FILE:NAME and --labels that read them" {
    "$MATGEN" "$TMP/two.mat" 5 "X=double:$TMP/X.txt" "y=double:$TMP/y.txt" "s=char:hello"
    refused_fit "$TMP/two.mat" "'$TMP/two.mat' holds several numeric matrices" "'X' (300 x 256 double)" \
        "'y' (300 x 1 double)" "'s' (1 x 5 char)" "'$TMP/two.mat:NAME'" "--labels '$TMP/two.mat:NAME'"
    refused_fit "$TMP/two.mat:Z" "'$TMP/two.mat' has no variable 'Z'; it holds 'X' (300 x 256 double)"
    refused_fit "$TMP/two.mat:s" "variable 's' (1 x 5 char) is not numeric"
    # what the message says works
    run --separate-stderr "$KPCA" fit -q -k 2 "$TMP/two.mat:X" --labels "$TMP/two.mat:y" -o "$OUT/ok.h5"
    assert_status 0
    # labels must be integers, as many as the points
    awk '{ print $1 + 0.5 }' "$TMP/y.txt" >"$TMP/yh.txt"
    "$MATGEN" "$TMP/h.mat" 5 "X=double:$TMP/X.txt" "y=double:$TMP/yh.txt"
    run --separate-stderr "$KPCA" fit -q -k 2 "$TMP/h.mat:X" --labels "$TMP/h.mat:y" -o "$OUT/bad.h5"
    assert_status 3
    assert_stderr_contains "variable 'y' element 1 is" "not an integer label"
    run --separate-stderr "$KPCA" fit -q -k 2 "$TMP/h.mat:X" --labels "$TMP/h.mat:X" -o "$OUT/bad.h5"
    assert_status 3
    assert_stderr_contains "variable 'X' (300 x 256) is not a vector of labels"
}

@test "a 3-D array (Roweis' usps_all.mat) is refused with its shape and reshapes that work; complex refused" {
    seq 1 24 >"$TMP/flat.txt"
    "$MATGEN" "$TMP/a3.mat" 7.3 "data=uint8:$TMP/flat.txt:2x3x4"
    refused_fit "$TMP/a3.mat" "variable 'data' is an array of 2 x 3 x 4, not a matrix" \
        "X = double(reshape(data, size(data, 1), [])')" "d.reshape(d.shape[0], -1, order='F').T"
    "$MATGEN" "$TMP/a5.mat" 5 "data=double:$TMP/flat.txt:2x3x4"
    run --separate-stderr "$KPCA" fit -q -k 1 "$TMP/a5.mat" -o "$OUT/bad.h5"
    assert_status 3
    if "$PY" -c 'import scipy.io' 2>/dev/null; then # the message's numpy line, run: 12 points of 2 values
        local line
        line=$(sed -n "s/.*or in Python: \(.*\)$/\1/p" <<<"$stderr")
        [ -n "$line" ] || fail "no Python line in: $stderr"
        (cd "$TMP" && "$PY" -c "import numpy, scipy.io; $line")
        run --separate-stderr "$KPCA" fit -k 1 "$TMP/x.npy" -o "$OUT/r.h5"
        assert_status 0
        assert_stderr_contains "12 points"
        # points are MATLAB's data(:, j, k): 1 2, 3 4, ... in that order
        "$PY" -c "import numpy; x = numpy.load('$TMP/x.npy'); assert (x[:, 0] == numpy.arange(1, 24, 2)).all(), x"
    fi
    "$MATGEN" "$TMP/cx.mat" 5 "Z=complex:$TMP/X.txt"
    refused_fit "$TMP/cx.mat" "variable 'Z' (300 x 256) holds complex values"
}

@test "a cut or damaged MAT-file is refused, never read as what the buffer held" {
    "$MATGEN" "$TMP/m5.mat" 5 "X=double:$TMP/X.txt"
    "$MATGEN" "$TMP/mz.mat" 5z "X=double:$TMP/X.txt"
    "$MATGEN" "$TMP/m73.mat" 7.3 "X=double:$TMP/X.txt"
    head -c 3000 "$TMP/m5.mat" >"$TMP/cut5.mat"
    refused_fit "$TMP/cut5.mat" "'$TMP/cut5.mat' is cut short: its MAT-file element at byte 128"
    head -c 20000 "$TMP/mz.mat" >"$TMP/cutz.mat"
    refused_fit "$TMP/cutz.mat" "is cut short"
    cp "$TMP/mz.mat" "$TMP/dmgz.mat"
    flip_byte "$TMP/dmgz.mat" 10000
    refused_fit "$TMP/dmgz.mat" "compressed MAT-file element at byte 128 does not inflate whole"
    head -c 3000 "$TMP/m73.mat" >"$TMP/cut73.mat"
    refused_fit "$TMP/cut73.mat" "'$TMP/cut73.mat': libmatio cannot read this MAT-file"
    head -c 100 "$TMP/m5.mat" >"$TMP/head.mat"
    refused_fit "$TMP/head.mat" "less than a MAT-file's header"
}

@test "a v7.3 file forced as HDF5 is refused, never read transposed; info and streams say what it is" {
    "$MATGEN" "$TMP/m73.mat" 7.3 "X=double:$TMP/X.txt" "y=double:$TMP/y.txt"
    run --separate-stderr "$KPCA" fit -q -k 2 --format hdf5 "$TMP/m73.mat:/X" -o "$OUT/bad.h5"
    assert_status 3
    assert_stderr_contains "dataset '/X' is a MATLAB variable (it carries MATLAB_class)" "'$TMP/m73.mat:X' without --format hdf5"
    run --separate-stderr "$KPCA" fit -q -k 2 --format hdf5 "$TMP/m73.mat" -o "$OUT/bad.h5"
    assert_status 3
    assert_stderr_contains "is a MATLAB 7.3 MAT-file, whose variables HDF5 shows transposed"
    run --separate-stderr "$KPCA" info "$TMP/m73.mat"
    assert_failure
    assert_stderr_contains "'$TMP/m73.mat' is a MATLAB MAT-file"
    # FILE:/X, as an HDF5 path is written, names the variable X
    run --separate-stderr "$KPCA" fit -q -k 2 "$TMP/m73.mat:/X" -o "$OUT/slash.h5"
    assert_status 0
    # from a pipe: spooled, then read as the file
    run --separate-stderr bash -c "cat '$TMP/m73.mat' | '$KPCA' fit -q -k 2 -:X -o '$OUT/p.h5'"
    assert_status 0
    # text options do not apply
    run --separate-stderr "$KPCA" fit -q -k 2 --header yes "$TMP/m73.mat:X" -o "$OUT/bad.h5"
    assert_status 2
    assert_stderr_contains "--header applies to CSV and whitespace text, not to mat"
}
