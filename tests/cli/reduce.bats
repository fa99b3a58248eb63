#!/usr/bin/env bats
# reduce.bats - kpca reduce: reduced-set models from the command line, what
# info and transform do with them, what spectrum and denoise refuse, and the
# bad inputs (exit codes, messages, no partial output).

load ../helper

setup() {
    common_setup
    head_rows "$DATA/zip.train.gz" 200 "$TMP/fit.txt"
    head_rows "$DATA/zip.test.gz" 50 "$TMP/test.txt"
    "$KPCA" fit -q -d 3 -k 10 "$TMP/fit.txt" -o "$TMP/full.h5"
}

@test "reduce: a reduced model says how it was made; info and transform use it; byte-reproducible" {
    run --separate-stderr "$KPCA" reduce "$TMP/full.h5" -m 30 --iter 5 -o "$TMP/small.h5"
    assert_status 0
    assert_stderr_contains "10 components of 200 fit points on 30 vectors (lbfgs)"
    run --separate-stderr "$KPCA" info -e "$TMP/small.h5"
    assert_stdout_contains "centring reduced" "model_points 30" "fit_points 200" "components 10" \
        "reduction lbfgs: 5 iterations (at most 5), start subset seed 1, equal weights, from 200 fit points" \
        "residual_mean " "residual_max " "residual 10 "
    run --separate-stderr "$KPCA" transform -q -f csv "$TMP/small.h5" "$TMP/test.txt" -o "$OUT/z.csv"
    assert_status 0
    [ "$(wc -l <"$OUT/z.csv")" -eq 51 ] || fail "features of 50 points and a header"
    ! grep -qiwE 'nan|[+-]?inf(inity)?' "$OUT/z.csv" || fail "non-finite feature"
    "$KPCA" reduce -q "$TMP/full.h5" -m 30 --iter 5 -o "$TMP/again.h5"
    cmp -s "$TMP/small.h5" "$TMP/again.h5" || fail "the same reduction gave different files"
    "$KPCA" reduce -q "$TMP/full.h5" -m 30 --iter 5 --seed 2 -o "$TMP/seed2.h5"
    ! cmp -s "$TMP/small.h5" "$TMP/seed2.h5" || fail "--seed 2 changed nothing"
}

@test "reduce: the exact expansion of (x.y)^2 projects like the full model" {
    # 100 points in 4 dimensions: each component is exact on at most 4 vectors
    awk 'BEGIN { srand(3); for (i = 0; i < 130; i++) { printf "%d", i % 3; for (j = 1; j <= 4; j++) printf " %d:%.6f", j, 2 * rand() - 1; printf "\n" } }' >"$TMP/all.svm"
    head -n 100 "$TMP/all.svm" >"$TMP/fit4.svm"
    tail -n 30 "$TMP/all.svm" >"$TMP/test4.svm"
    "$KPCA" fit -q -d 2 -k 3 "$TMP/fit4.svm" -o "$TMP/d2.h5"
    run --separate-stderr "$KPCA" reduce "$TMP/d2.h5" -m 20 -o "$TMP/d2r.h5"
    assert_status 0
    assert_stderr_contains "on 12 vectors (eig)"
    "$KPCA" info "$TMP/d2r.h5" | awk '$1 == "residual_max" { ok = $2 < 1e-12 } END { exit !ok }' || fail "not exact"
    "$KPCA" transform -q -f csv "$TMP/d2.h5" "$TMP/test4.svm" -o "$OUT/f.csv"
    "$KPCA" transform -q -f csv "$TMP/d2r.h5" "$TMP/test4.svm" -o "$OUT/r.csv"
    [ "$(wc -l <"$OUT/r.csv")" -eq 31 ] || fail "features of 30 points and a header"
    paste -d, "$OUT/f.csv" "$OUT/r.csv" | awk -F, 'NR > 1 { for (c = 2; c <= 4; c++) { d = $c - $(c + 4); if (d < 0) d = -d; if (d > 1e-8) bad = 1 } } END { exit bad }' ||
        fail "projections differ by more than 1e-8"
    # too few vectors for the exact expansion: L-BFGS, and a residual
    run --separate-stderr "$KPCA" reduce "$TMP/d2.h5" -m 5 -o "$TMP/d2s.h5"
    assert_status 0
    assert_stderr_contains "on 5 vectors (lbfgs)"
}

@test "reduce: bad inputs exit 2 with a message and leave no output" {
    bad() {
        run --separate-stderr "$KPCA" reduce -q "$@"
        assert_status 2
        assert_error_message
        assert_no_output "$OUT/s.h5"
    }
    bad "$TMP/full.h5" -m 0 -o "$OUT/s.h5"
    bad "$TMP/full.h5" -m -3 -o "$OUT/s.h5"
    bad "$TMP/full.h5" -m 201 -o "$OUT/s.h5"
    assert_stderr_contains "1 to 200"
    bad "$TMP/full.h5" -o "$OUT/s.h5"
    assert_stderr_contains "-m M_RED"
    bad "$TMP/full.h5" -m 10 -k 11 -o "$OUT/s.h5"
    bad "$TMP/full.h5" -m 10 --method nope -o "$OUT/s.h5"
    bad "$TMP/full.h5" -m 10 --method eig -o "$OUT/s.h5"
    assert_stderr_contains "(gamma x.y)^2"
    bad "$TMP/full.h5" -m 10 --init nope -o "$OUT/s.h5"
    "$KPCA" fit -q -d 3 -k 5 --solver nystrom --landmarks 50 "$TMP/fit.txt" -o "$TMP/ny.h5"
    bad "$TMP/ny.h5" -m 10 -o "$OUT/s.h5"
    assert_stderr_contains "Nystrom"
    "$KPCA" reduce -q "$TMP/full.h5" -m 10 --iter 1 -o "$TMP/small.h5"
    bad "$TMP/small.h5" -m 5 -o "$OUT/s.h5"
    assert_stderr_contains "already reduced"
    "$KPCA" fit -q --kernel sigmoid -k 5 "$TMP/fit.txt" -o "$TMP/sig.h5"
    bad "$TMP/sig.h5" -m 10 -o "$OUT/s.h5"
    assert_stderr_contains "sigmoid"
    # the output is the input: refused, the model left as it was
    cp "$TMP/full.h5" "$OUT/copy.h5"
    run --separate-stderr "$KPCA" reduce -q "$TMP/full.h5" -m 10 -o "$TMP/full.h5"
    assert_status 2
    assert_stderr_contains "is the input model"
    cmp -s "$TMP/full.h5" "$OUT/copy.h5" || fail "the input model was changed"
    ln -s "$TMP/full.h5" "$TMP/link.h5"
    run --separate-stderr "$KPCA" reduce -q "$TMP/full.h5" -m 10 -o "$TMP/link.h5"
    assert_status 2
    cmp -s "$TMP/full.h5" "$OUT/copy.h5" || fail "the input model was changed through a link"
}

@test "reduce: spectrum and denoise refuse a reduced model" {
    "$KPCA" reduce -q "$TMP/full.h5" -m 20 --iter 1 -o "$TMP/small.h5"
    run --separate-stderr "$KPCA" spectrum "$TMP/small.h5"
    assert_status 2
    assert_stderr_contains "reduced model"
    run --separate-stderr "$KPCA" denoise -q -k 5 "$TMP/small.h5" "$TMP/test.txt" -o "$OUT/z.csv"
    assert_status 2
    assert_stderr_contains "reduced model"
    assert_no_output "$OUT/z.csv"
}
