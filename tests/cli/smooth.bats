#!/usr/bin/env bats
# smooth.bats - fit/transform/denoise --smooth SIGMA: the Gaussian blur of the
# 16 x 16 images (lib/core/smooth.h; the arithmetic is tested in
# tests/unit/core/test_smooth.c).  fit records sigma as the model's `smooth`;
# transform and denoise apply the model's own and refuse another.
#
# tests/ref/model-v2-smooth: smooth.h5 is a model of format version 2 (where
# the smoothing is written in `source` only), fitted by a kpca of that format
# on the first 12 rows of zip.train.gz with
#   kpca fit -q -d 2 -k 3 --smooth 0.75 train12.txt -o smooth.h5
# and five.csv its features of the first 5 rows of zip.test.gz written by
# that kpca with
#   kpca transform -q --smooth 0.75 smooth.h5 five.txt -o five.csv

load ../helper

setup() {
    common_setup
    head_rows "$DATA/zip.train.gz" 300 "$TMP/train.txt"
}

@test "fit --smooth: info prints the model's smooth; transform applies it with or without --smooth" {
    "$KPCA" fit -q -d 2 -m 200 -k 8 --smooth 0.75 "$TMP/train.txt" -o "$TMP/m.h5"
    run --separate-stderr "$KPCA" info "$TMP/m.h5"
    assert_status 0
    assert_stdout_contains "version 5" "smooth 0.75"
    [[ "$output" != *"smoothed"* ]] || { show_run; fail "the smoothing is written into the source text"; }
    run --separate-stderr "$KPCA" transform -q --smooth 0.75 "$TMP/m.h5" "$TMP/train.txt" -o "$OUT/a.svm"
    assert_status 0
    [ -z "$stderr" ] || { show_run; fail "a message with the model's own --smooth"; }
    run --separate-stderr "$KPCA" transform -q "$TMP/m.h5" "$TMP/train.txt" -o "$OUT/b.svm"
    assert_status 0
    [ -z "$stderr" ] || { show_run; fail "a message without --smooth"; }
    cmp "$OUT/a.svm" "$OUT/b.svm" || fail "transform without --smooth did not apply the model's smoothing"
    # a model fitted without smoothing says so
    "$KPCA" fit -q -d 2 -m 200 -k 8 "$TMP/train.txt" -o "$TMP/plain.h5"
    run --separate-stderr "$KPCA" info "$TMP/plain.h5"
    assert_status 0
    assert_stdout_contains "smooth 0"
}

@test "a --smooth that disagrees with the model is refused, naming both sigmas; the same one is accepted" {
    "$KPCA" fit -q -d 2 -m 200 -k 8 --smooth 0.75 "$TMP/train.txt" -o "$TMP/m.h5"
    "$KPCA" fit -q -d 2 -m 200 -k 8 "$TMP/train.txt" -o "$TMP/plain.h5"
    run --separate-stderr "$KPCA" transform -q --smooth 0.5 "$TMP/m.h5" "$TMP/train.txt" -o "$OUT/a.svm"
    assert_status 2
    assert_error_names "$TMP/m.h5"
    assert_stderr_contains "option '--smooth'" "sigma 0.75" "not 0.5"
    assert_no_output "$OUT/a.svm"
    run --separate-stderr "$KPCA" transform -q --smooth 0.75 "$TMP/plain.h5" "$TMP/train.txt" -o "$OUT/a.svm"
    assert_status 2
    assert_stderr_contains "option '--smooth'" "sigma 0" "0.75"
    assert_no_output "$OUT/a.svm"
    run --separate-stderr "$KPCA" denoise -q -k 4 --smooth 0.5 "$TMP/m.h5" "$TMP/train.txt" -o "$OUT/d.csv"
    assert_status 2
    assert_stderr_contains "option '--smooth'" "sigma 0.75" "not 0.5"
    assert_no_output "$OUT/d.csv"
}

@test "denoise applies the model's smoothing with or without --smooth; reduce keeps it" {
    head_rows "$DATA/zip.test.gz" 20 "$TMP/test.txt"
    "$KPCA" fit -q -d 2 -m 200 -k 8 --smooth 0.75 "$TMP/train.txt" -o "$TMP/m.h5"
    "$KPCA" denoise -q -k 4 --smooth 0.75 "$TMP/m.h5" "$TMP/test.txt" -o "$OUT/a.csv"
    run --separate-stderr "$KPCA" denoise -q -k 4 "$TMP/m.h5" "$TMP/test.txt" -o "$OUT/b.csv"
    assert_status 0
    [ -z "$stderr" ] || { show_run; fail "a message without --smooth"; }
    cmp "$OUT/a.csv" "$OUT/b.csv" || fail "denoise without --smooth did not apply the model's smoothing"
    "$KPCA" reduce -q -m 20 "$TMP/m.h5" -o "$TMP/r.h5"
    run --separate-stderr "$KPCA" info "$TMP/r.h5"
    assert_status 0
    assert_stdout_contains "centring reduced" "smooth 0.75"
}

# csv_close REF OUT: the same header and labels, and every feature within
# 1e-10 of REF's largest |value| (the reference was written on another
# machine, whose BLAS kernels round the last digits their own way)
csv_close() {
    awk -F, 'NR == FNR { ref[FNR] = $0; nref = FNR; next }
        FNR == 1 { if ($0 != ref[1]) bad = 1; next }
        { m = split(ref[FNR], r, ","); if (m != NF || $1 != r[1]) bad = 1
          for (j = 2; j <= NF; j++) { d = $j - r[j]; if (d < 0) d = -d; if (d > dmax) dmax = d
              a = r[j] < 0 ? -r[j] : r[j]; if (a > amax) amax = a } }
        END { if (bad || FNR != nref || dmax > 1e-10 * amax) {
                  printf "differ: header, labels or rows (%d), or largest difference %g against largest |value| %g\n", bad, dmax, amax; exit 1 } }' "$1" "$2"
}

@test "a version-2 model with the smoothing in its source: its sigma, its features as before" {
    local ref="$REPO/tests/ref/model-v2-smooth"
    head_rows "$DATA/zip.test.gz" 5 "$TMP/five.txt"
    run --separate-stderr "$KPCA" info "$ref/smooth.h5"
    assert_status 0
    assert_stdout_contains "version 2" "smooth 0.75" "smoothed sigma=0.75"
    "$KPCA" transform -q --smooth 0.75 "$ref/smooth.h5" "$TMP/five.txt" -o "$OUT/a.csv"
    csv_close "$ref/five.csv" "$OUT/a.csv" || fail "with --smooth: not the features the version-2 kpca wrote"
    run --separate-stderr "$KPCA" transform -q "$ref/smooth.h5" "$TMP/five.txt" -o "$OUT/b.csv"
    assert_status 0
    [ -z "$stderr" ] || { show_run; fail "a message without --smooth"; }
    cmp "$OUT/a.csv" "$OUT/b.csv" || fail "without --smooth: the smoothing in the source was not applied"
    run --separate-stderr "$KPCA" transform -q --smooth 1 "$ref/smooth.h5" "$TMP/five.txt" -o "$OUT/c.csv"
    assert_status 2
    assert_stderr_contains "sigma 0.75" "not 1"
    assert_no_output "$OUT/c.csv"
}

@test "fit --smooth changes the model; rows that are not square images are refused" {
    "$KPCA" fit -q -d 2 -m 200 -k 8 "$TMP/train.txt" -o "$TMP/plain.h5"
    "$KPCA" fit -q -d 2 -m 200 -k 8 --smooth 0.75 "$TMP/train.txt" -o "$TMP/smooth.h5"
    local e1 e2
    e1=$("$KPCA" info "$TMP/plain.h5" | awk '$1 == "eigenvalue_1" || $1 == "trace" { print $2; exit }')
    e2=$("$KPCA" info "$TMP/smooth.h5" | awk '$1 == "eigenvalue_1" || $1 == "trace" { print $2; exit }')
    [ -n "$e1" ] && [ "$e1" != "$e2" ] || fail "the smoothed model is the plain one ($e1, $e2)"
    printf '1 1:0.5 2:0.25 3:1\n2 1:0.1 2:0.2 3:0.3\n' >"$TMP/three.svm"
    run --separate-stderr "$KPCA" fit -q -d 2 -m 2 -k 1 --smooth 1 "$TMP/three.svm" -o "$OUT/x.h5"
    assert_status 2
    assert_error_names "$TMP/three.svm"
    assert_stderr_contains "square images" "3 values"
    assert_no_output "$OUT/x.h5"
    run --separate-stderr "$KPCA" fit -q -d 2 -m 2 -k 1 --smooth 0 "$TMP/train.txt" -o "$OUT/x.h5"
    assert_status 2
    assert_no_output "$OUT/x.h5"
}
