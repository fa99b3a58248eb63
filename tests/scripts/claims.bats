#!/usr/bin/env bats
# claims.bats - scripts/paper-claims.sh on made-up grid predictions whose
# McNemar counts are known, with the reference SVMs on 300 training digits.

load ../helper

# a predictions file: the test labels, and cells wrong on chosen rows
# (a wrong label is the next digit): d1_k256 wrong on rows 1-100, d2_k256
# on rows 51-120, d4_k256 on rows 1-60, d2_k2048 on rows 1-40, d4_k2048 on
# rows 1-30
make_predictions() {
    gzip -dc "$DATA/zip.test.gz" | awk '
        function w(x, lo, hi) { return (NR >= lo && NR <= hi) ? (x + 1) % 10 : x }
        BEGIN { print "label,d1_k256,d2_k256,d4_k256,d2_k2048,d4_k2048" }
        { l = $1 + 0; printf "%d,%d,%d,%d,%d,%d\n", l, w(l, 1, 100), w(l, 51, 120), w(l, 1, 60), w(l, 1, 40), w(l, 1, 30) }' >"$1"
}

claims() {
    KPCA="$KPCA" "$REPO/scripts/paper-claims.sh" --grid fake --in "$TMP" --out "$OUT" --work "$TMP/work" \
        --train-rows 300 --poly-degrees 2 --poly-costs 1 "$@"
}

@test "paper-claims: McNemar counts and exact p from the predictions; every claim has its section" {
    command -v svm-train >/dev/null || skip "no svm-train (Debian package libsvm-tools)"
    make_predictions "$TMP/fake-predictions.csv"
    run claims
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    local c="$OUT/paper-claims.csv"
    # d2_k256 vs d1_k256: right where d1 is wrong on rows 1-50 (b = 50), wrong on 101-120 (c = 20)
    grep -q '^2 nonlinear vs linear,d2_k256,d1_k256,3.49,4.98,50,20,' "$c" || { cat "$c"; fail "d2 vs d1 counts"; }
    grep -q '^2 nonlinear vs linear,d4_k256,d1_k256,2.99,4.98,40,0,' "$c" || { cat "$c"; fail "d4 vs d1 counts"; }
    # the p values: two-sided exact binomial, recomputed independently
    /usr/bin/python3 - "$c" <<'PY' || fail "McNemar p wrong"
import csv, math, sys
for r in csv.DictReader(open(sys.argv[1])):
    b, c = int(r["a_right_b_wrong"]), int(r["a_wrong_b_right"])
    n = b + c
    p = 1.0 if n == 0 else min(1.0, 2 * sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2 ** n)
    assert abs(float(r["mcnemar_p"]) - p) <= 1e-5 * max(p, 1e-300) + 1e-12, (r, p)
PY
    local md="$OUT/paper-claims.md"
    grep -q '^## 1\. "For every number of components, the best degree is around 4"' "$md"
    grep -q '^## 2\. "With only one exception' "$md"
    grep -q '^## 3\. "Nonlinear components improve further beyond 256' "$md"
    grep -q '^## 4\. "The best cell, 4.0 %' "$md"
    # claim 2: both nonlinear cells lower, both significant (p of 50:20 and 40:0 are tiny)
    grep -q 'Ours: lower in 2 of 2; significantly lower in 2,' "$md" || fail "claim 2 summary"
    # claim 3: 2048 beats 256 for d = 2 (40 vs 70 wrong) and d = 4 (30 vs 60)
    grep -q 'lower than at 256 for 2 of 2 degrees, significantly for 2' "$md" || fail "claim 3 summary"
    # the best cell is d4_k2048 (30 errors)
    grep -q '^Our best cell: d4_k2048, 1.49 %' "$md" || fail "best cell"
    grep -q '^| polynomial SVM, LIBSVM `-t 1 -d 2 ' "$md"
    # provenance: the load average measured at the start and the end, not fixed words
    assert_load_words "$md" || { head -5 "$md"; false; }
    grep -q 'loaded shared machine' "$md" && fail "fixed words instead of the measured load"
    assert_no_tmp "$OUT"
}

@test "paper-claims: no predictions file, a clear error and no output" {
    run claims
    [ "$status" -eq 2 ]
    [[ "$output" == *"fake-predictions.csv missing"* ]] || { echo "$output"; false; }
    [ ! -e "$OUT/paper-claims.md" ]
}

@test "paper-claims: SIGTERM during the cross-validation stops it at once; no temporary file, no table" {
    command -v svm-train >/dev/null || skip "no svm-train (Debian package libsvm-tools)"
    make_predictions "$TMP/fake-predictions.csv"
    # svm-train, except that the cross-validation sleeps ten minutes
    slow_command svm-train "$(command -v svm-train)" '*" -v 5 "*'
    local pid step
    SVM_TRAIN="$TMP/svm-train-slow" KPCA="$KPCA" "$REPO/scripts/paper-claims.sh" --grid fake --in "$TMP" \
        --out "$OUT" --work "$TMP/work" --train-rows 300 --poly-degrees 2 --poly-costs 1 >/dev/null 2>&1 3>&- &
    pid=$!
    await_file "$TMP/slow.pid" "$pid"
    step=$(cat "$TMP/slow.pid")
    signal_and_reap TERM "$pid" "$step"
    [ "$status" -eq 143 ] || fail "exit status $status"
    assert_no_tmp "$TMP/work"
    assert_no_tmp "$OUT"
    [ ! -e "$OUT/paper-claims.md" ] || fail "a table was written"
    # the pixel files made before the signal are whole: the next run uses them
    run claims
    [ "$status" -eq 0 ] || { show_run; fail "the next run failed"; }
}
