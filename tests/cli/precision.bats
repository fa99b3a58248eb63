#!/usr/bin/env bats
# precision.bats - --precision single|double of fit, transform and eval (the
# arithmetic is tested in tests/unit/core/test_precision.c and
# tests/unit/classify/test_eval_precision.c).  fit records the precision in
# the model (kpca info); transform projects in the model's unless told
# otherwise; eval grows the gram backend's Gram matrix in it.
#
# Tolerances, relative to the largest |z|: 1e-5 (about 80 FLT_EPSILON) for
# one model projected in either precision, 1e-4 for a single model's
# leading components against the double model's (measured here: 4e-7 and
# 4e-6).

load ../helper

setup() {
    common_setup
    head_rows "$DATA/zip.train.gz" 300 "$TMP/train.txt"
    head_rows "$DATA/zip.test.gz" 100 "$TMP/test.txt"
}

# max_rel A.csv B.csv: max |a - b| over max |b|, the feature columns of two
# CSV feature files of the same points
max_rel() {
    awk -F, 'FNR == 1 { next }
        NR == FNR { for (i = 2; i <= NF; i++) a[FNR, i] = $i; next }
        { for (i = 2; i <= NF; i++) { d = a[FNR, i] - $i; if (d < 0) d = -d; if (d > md) md = d
                                      v = $i < 0 ? -$i : $i; if (v > mz) mz = v } }
        END { printf "%.17g\n", md / mz }' "$1" "$2"
}

# within X BOUND: 0 < X <= BOUND (not identical: the other precision ran)
within() {
    awk -v x="$1" -v b="$2" 'BEGIN { exit !(x > 0 && x <= b) }' || fail "relative difference $1 not in (0, $2]"
}

@test "fit --precision: info prints the model's precision (double by default)" {
    "$KPCA" fit -q -d 2 -k 16 "$TMP/train.txt" -o "$TMP/d.h5"
    "$KPCA" fit -q -d 2 -k 16 --precision single "$TMP/train.txt" -o "$TMP/s.h5"
    "$KPCA" fit -q -d 2 -k 16 --precision double "$TMP/train.txt" -o "$TMP/d2.h5"
    run --separate-stderr "$KPCA" info "$TMP/d.h5"
    assert_status 0
    assert_stdout_contains "precision double"
    run --separate-stderr "$KPCA" info "$TMP/s.h5"
    assert_status 0
    assert_stdout_contains "precision single" "components 16"
    cmp "$TMP/d.h5" "$TMP/d2.h5" || fail "--precision double is not the default"
    # a version-3 model from before the attribute is a double one
    run --separate-stderr "$KPCA" info "$BATS_TEST_DIRNAME/../ref/model-v3-double/poly2.h5"
    assert_status 0
    assert_stdout_contains "version 3" "precision double"
}

@test "fit --precision single drops what binary32 cannot resolve, and says so" {
    # 60 points whose 4 coordinates spread by 1, 0.3, 1e-2 and 3e-5: linear
    # eigenvalues of about 1, 0.09, 1e-4 and 1e-9 of the largest; binary32
    # resolves the first three only
    awk 'BEGIN { srand(3); print "label,a,b,c,d"
                 for (i = 0; i < 60; i++) printf "%d,%.17g,%.17g,%.17g,%.17g\n", i % 3, 0.5 + (rand() - 0.5),
                     0.5 + 0.3 * (rand() - 0.5), 0.5 + 1e-2 * (rand() - 0.5), 0.5 + 3e-5 * (rand() - 0.5) }' >"$TMP/s.csv"
    # (--no-primal: the D x D fit of a linear kernel is always double)
    run --separate-stderr "$KPCA" fit --kernel linear -k 4 --precision single --no-primal "$TMP/s.csv" -o "$TMP/s.h5"
    assert_status 0
    assert_stderr_contains "kept 3 of 4 components" "x largest, single precision"
    run --separate-stderr "$KPCA" fit --kernel linear -k 4 "$TMP/s.csv" -o "$TMP/d.h5"
    assert_status 0
    assert_stderr_contains "kept 4 components"
}

@test "transform of a single model agrees with the double model's to a float tolerance" {
    "$KPCA" fit -q -d 2 -k 16 "$TMP/train.txt" -o "$TMP/d.h5"
    "$KPCA" fit -q -d 2 -k 16 --precision single "$TMP/train.txt" -o "$TMP/s.h5"
    "$KPCA" transform -q "$TMP/d.h5" "$TMP/test.txt" -o "$OUT/d.csv"
    "$KPCA" transform -q "$TMP/s.h5" "$TMP/test.txt" -o "$OUT/s.csv"
    within "$(max_rel "$OUT/s.csv" "$OUT/d.csv")" 1e-4
    # the same model in the other precision: the product alone
    "$KPCA" transform -q --precision double "$TMP/s.h5" "$TMP/test.txt" -o "$OUT/sd.csv"
    within "$(max_rel "$OUT/sd.csv" "$OUT/s.csv")" 1e-5
    "$KPCA" transform -q --precision single "$TMP/d.h5" "$TMP/test.txt" -o "$OUT/ds.csv"
    within "$(max_rel "$OUT/ds.csv" "$OUT/d.csv")" 1e-5
    "$KPCA" transform -q --precision double "$TMP/d.h5" "$TMP/test.txt" -o "$OUT/dd.csv"
    cmp "$OUT/dd.csv" "$OUT/d.csv" || fail "--precision double changed a double model's features"
}

@test "eval --precision single: the gram backend's table; refused where there is no Gram matrix" {
    "$KPCA" fit -q -d 2 -k 16 "$TMP/train.txt" -o "$TMP/d.h5"
    "$KPCA" transform -q "$TMP/d.h5" "$TMP/train.txt" -o "$OUT/tr.h5"
    "$KPCA" transform -q "$TMP/d.h5" "$TMP/test.txt" -o "$OUT/te.h5"
    run --separate-stderr "$KPCA" eval -q -k 4,16 --precision single "$OUT/tr.h5" "$OUT/te.h5"
    assert_status 0
    [ -n "$(table_errors 16)" ] || { show_run; fail "no row for 16 components"; }
    for opts in "--backend sparse" "--backend liblinear" "--classifier lda"; do
        # shellcheck disable=SC2086
        run --separate-stderr "$KPCA" eval -q --precision single $opts "$OUT/tr.h5" "$OUT/te.h5"
        assert_status 2
        assert_stderr_contains "option '--precision single' applies to the Gram matrix of --backend gram"
    done
}

@test "--precision: anything but single or double is a usage error, before any output" {
    "$KPCA" fit -q -d 2 -k 4 "$TMP/train.txt" -o "$TMP/d.h5"
    for v in float Single "" half; do
        run --separate-stderr "$KPCA" fit -q --precision "$v" "$TMP/train.txt" -o "$OUT/m.h5"
        assert_status 2
        assert_stderr_contains "option '--precision': expected single or double, got '$v'"
        assert_no_output "$OUT/m.h5"
        run --separate-stderr "$KPCA" transform -q --precision "$v" "$TMP/d.h5" "$TMP/test.txt" -o "$OUT/z.csv"
        assert_status 2
        assert_stderr_contains "expected single or double"
        assert_no_output "$OUT/z.csv"
        run --separate-stderr "$KPCA" eval -q --precision "$v" "$TMP/train.txt" "$TMP/test.txt" --csv "$OUT/t.csv"
        assert_status 2
        assert_stderr_contains "expected single or double"
        assert_no_output "$OUT/t.csv"
    done
    run --separate-stderr "$KPCA" fit -q --precision single --solver nystrom "$TMP/train.txt" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "option '--precision single'" "exact solver"
    assert_no_output "$OUT/m.h5"
}

@test "--help shows --precision with its default for fit, transform and eval" {
    for c in fit eval; do
        run "$KPCA" "$c" --help
        assert_status 0
        assert_stdout_contains "--precision P" "single or double" "(default: double)"
    done
    run "$KPCA" transform --help
    assert_stdout_contains "--precision P" "(default: the model's, kpca info)"
}
