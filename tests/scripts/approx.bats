#!/usr/bin/env bats
# approx.bats - scripts/approx.sh's measurements of the approximate solvers
# (quick mode).

load ../helper

setup() {
    common_setup
}

@test "approx.sh --quick: exact rows are the reference, approximations close and improving with landmarks" {
    local cmp=${APPROX_COMPARE:-$REPO/build/bench/approx_compare}
    [ -x "$cmp" ] || skip "$cmp not built (make approx)"
    KPCA="$KPCA" CMP="$cmp" run sh "$REPO/scripts/approx.sh" --quick --out "$OUT" --work "$TMP/work"
    [ "$status" -eq 0 ] || { show_run; fail "approx.sh failed"; }
    [ -s "$OUT/approx.md" ] && [ -s "$OUT/approx.csv" ] || fail "no results"
    grep -q "^Provenance: \`scripts/approx.sh --quick" "$OUT/approx.md" || fail "no provenance"
    assert_load_words "$OUT/approx.md"
    # part,fit_points,solver,k,fit_seconds,peak_rss_mb,eig_max,eig_mean,sin_max,sin_mean,test_error
    awk -F, 'NR > 1 {
        if (NF != 11 || $7 == "" || $10 == "") { print "missing field: " $0; bad = 1 }
        if ($11 == "" || $11 < 0 || $11 > 100) { print "bad test error: " $0; bad = 1 }
        if ($3 ~ /^exact/ && ($7 != 0 || $9 != 0)) { print "exact not its own reference: " $0; bad = 1 }
        if ($3 ~ /^randomized/ && !($7 < 0.05 && $10 < 0.05)) { print "randomized too far: " $0; bad = 1 }
        if ($3 ~ /^Nystrom uniform/ && $4 == 16) e[$3] = $7
        if ($3 ~ /^exact/) ex[$4] = $11; else if ($11 - ex[$4] > 3) { print "test error far off: " $0; bad = 1 }
    } END {
        if (!(e["Nystrom uniform l=400"] < e["Nystrom uniform l=200"])) { print "more landmarks not better"; bad = 1 }
        exit bad }' "$OUT/approx.csv" || fail "approx.csv: $(cat "$OUT/approx.csv")"
}
