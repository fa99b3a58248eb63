#!/usr/bin/env bats
# smooth.bats - fit/transform --smooth SIGMA: the Gaussian blur of the
# 16 x 16 images (lib/core/smooth.h; the arithmetic is tested in
# tests/unit/core/test_smooth.c), recorded in the model and checked by transform.

load ../helper

setup() {
    common_setup
    head_rows "$DATA/zip.train.gz" 300 "$TMP/train.txt"
}

@test "fit --smooth: the model records sigma; transform with the same is quiet, without it warns" {
    "$KPCA" fit -q -d 2 -m 200 -k 8 --smooth 0.75 "$TMP/train.txt" -o "$TMP/m.h5"
    run --separate-stderr "$KPCA" info "$TMP/m.h5"
    assert_status 0
    assert_stdout_contains "smoothed sigma=0.75"
    run --separate-stderr "$KPCA" transform -q --smooth 0.75 "$TMP/m.h5" "$TMP/train.txt" -o "$OUT/a.svm"
    assert_status 0
    [ -z "$stderr" ] || { show_run; fail "a warning with the same --smooth"; }
    run --separate-stderr "$KPCA" transform -q "$TMP/m.h5" "$TMP/train.txt" -o "$OUT/b.svm"
    assert_status 0
    assert_stderr_contains "warning:" "smoothed with sigma 0.75" "--smooth 0"
    # the same data, smoothed or not, project differently
    ! cmp -s "$OUT/a.svm" "$OUT/b.svm" || fail "smoothing changed nothing"
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
