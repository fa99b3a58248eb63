#!/usr/bin/env bats
# approx.bats - fit --solver randomized / nystrom from the command line

load ../helper

setup() {
    common_setup
    head_rows "$DATA/zip.train.gz" 400 "$TMP/fit.txt"
    head_rows "$DATA/zip.test.gz" 100 "$TMP/test.txt"
}

@test "fit --solver randomized and nystrom: models say how they were made, transform uses them" {
    run --separate-stderr "$KPCA" fit -d 3 -k 12 --solver randomized "$TMP/fit.txt" -o "$TMP/r.h5"
    assert_status 0
    assert_stderr_contains "randomized s=24 q=4 seed=1"
    run --separate-stderr "$KPCA" info "$TMP/r.h5"
    assert_stdout_contains "solver randomized s=24 q=4 seed=1" "centring kernel" "fit_points 400"
    # fewer than 10 components: the sketch still has 10 extra vectors
    run --separate-stderr "$KPCA" fit -d 3 -k 4 --solver randomized "$TMP/fit.txt" -o "$TMP/r4.h5"
    assert_status 0
    assert_stderr_contains "randomized s=14 q=4 seed=1"
    for how in uniform kmeans; do
        run --separate-stderr "$KPCA" fit -q -d 3 -k 12 --solver nystrom --landmarks 90 --landmark-method "$how" \
            "$TMP/fit.txt" -o "$TMP/n.h5"
        assert_status 0
        run --separate-stderr "$KPCA" info "$TMP/n.h5"
        assert_stdout_contains "solver nystrom $how l=90 seed=1" "centring nystrom" "fit_points 400" "model_points 90" "components 12"
        run --separate-stderr "$KPCA" transform -q --output-format csv "$TMP/n.h5" "$TMP/test.txt" -o "$OUT/z.csv"
        assert_status 0
        [ "$(wc -l <"$OUT/z.csv")" -ge 100 ] || fail "features of 100 points"
        ! grep -qiwE 'nan|[+-]?inf(inity)?' "$OUT/z.csv" || fail "non-finite feature"
    done
}

@test "the default landmark count is 1000, capped by the fit points; --solver-seed changes the model, not its size" {
    run --separate-stderr "$KPCA" fit -q -d 2 -k 5 --solver nystrom "$TMP/fit.txt" -o "$TMP/a.h5"
    assert_status 0
    "$KPCA" info "$TMP/a.h5" | grep -qx "model_points 400" || fail "landmarks not capped at M"
    run --separate-stderr "$KPCA" fit -q -d 2 -k 5 --solver nystrom --landmarks 50 "$TMP/fit.txt" -o "$TMP/s1.h5"
    run --separate-stderr "$KPCA" fit -q -d 2 -k 5 --solver nystrom --landmarks 50 "$TMP/fit.txt" -o "$TMP/s1b.h5"
    run --separate-stderr "$KPCA" fit -q -d 2 -k 5 --solver nystrom --landmarks 50 --solver-seed 7 "$TMP/fit.txt" -o "$TMP/s7.h5"
    assert_status 0
    cmp -s "$TMP/s1.h5" "$TMP/s1b.h5" || fail "the same seed gave different models"
    ! cmp -s "$TMP/s1.h5" "$TMP/s7.h5" || fail "--solver-seed 7 changed nothing"
}

@test "solver options: unknown names, options of another solver, impossible sizes: exit 2, no model" {
    bad() {
        run --separate-stderr "$KPCA" fit -q "$@" "$TMP/fit.txt" -o "$OUT/m.h5"
        assert_status 2
        assert_error_message
        assert_no_output "$OUT/m.h5"
    }
    bad --solver lanczos
    assert_stderr_contains "option '--solver'" "'lanczos'"
    bad --solver randomized
    assert_stderr_contains "needs the number of components"
    bad --solver randomized -k 0.9
    bad --oversample 5 -k 10
    assert_stderr_contains "option '--oversample' does not apply to --solver exact"
    bad --power-iters 2 --solver nystrom
    bad --landmarks 50 --solver randomized -k 5
    assert_stderr_contains "option '--landmarks' does not apply to --solver randomized"
    bad --landmark-method kmeans
    bad --solver-seed 3
    bad --solver nystrom --eig evd
    bad --solver nystrom --landmark-method random
    assert_stderr_contains "option '--landmark-method'" "uniform or kmeans"
    bad --solver nystrom --landmarks 401
    assert_stderr_contains "option '--landmarks 401'" "more landmarks than the 400 fit points"
    bad --solver nystrom --landmarks 30 -k 31
    assert_stderr_contains "option '--components 31'" "more components than the 30 landmarks"
    bad --solver nystrom --landmarks 1
    bad --solver randomized -k 5 --power-iters -1
    bad --solver randomized -k 5 --oversample 0
}
