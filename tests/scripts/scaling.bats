#!/usr/bin/env bats
# scaling.bats - scripts/scaling.sh (make scaling) in its quick mode: every
# solver and M measured, exponents and provenance written, a failing fit
# leaves no report.

load ../helper

@test "scaling.sh --quick: a row per solver and M, CPU time and RSS, exponents, provenance, plot" {
    [ -x /usr/bin/time ] || skip "no /usr/bin/time"
    KPCA="$KPCA" run sh "$REPO/scripts/scaling.sh" --quick --out "$OUT" --work "$TMP/work"
    [ "$status" -eq 0 ] || { show_run; fail "scaling.sh failed"; }
    csv="$OUT/scaling.csv"
    [ "$(head -n 1 "$csv")" = "solver,fit_points,components,cpu_seconds,wall_seconds,peak_rss_mb" ] || fail "CSV header"
    for s in exact randomized nystrom; do
        [ "$(grep -c "^$s," "$csv")" -ge 3 ] || fail "fewer than 3 rows for $s"
    done
    # every measurement is a positive time and an RSS of at least a few MB
    awk -F, 'NR > 1 && !($4 > 0 && $5 > 0 && $6 >= 4) { bad = 1 } END { exit bad }' "$csv" || fail "implausible row"
    grep -q "^| exact | 300 |" "$OUT/scaling.md" || fail "no table row"
    grep -q "^| randomized | -*[0-9.]* | -*[0-9.]* |" "$OUT/scaling.md" || fail "no exponent row"
    grep -q "^Provenance: \`scripts/scaling.sh --quick" "$OUT/scaling.md" || fail "no provenance"
    assert_load_words "$OUT/scaling.md"
    if command -v gnuplot >/dev/null; then [ -s "$OUT/scaling.png" ] || fail "no plot"; fi
    # a second run reuses the measurements: same CSV
    cp "$csv" "$TMP/first.csv"
    KPCA="$KPCA" run sh "$REPO/scripts/scaling.sh" --quick --out "$OUT" --work "$TMP/work"
    [ "$status" -eq 0 ] || { show_run; fail "second run failed"; }
    cmp -s "$csv" "$TMP/first.csv" || fail "the reused measurements changed"
}

@test "scaling.sh: a fit that fails stops the run with its message and writes no report" {
    printf '#!/bin/sh\n[ "$1" = fit ] && { echo "error: broken" >&2; exit 3; }\nexec "%s" "$@"\n' "$KPCA" >"$TMP/kpca"
    chmod +x "$TMP/kpca"
    KPCA="$TMP/kpca" run sh "$REPO/scripts/scaling.sh" --quick --out "$OUT" --work "$TMP/work"
    [ "$status" -ne 0 ] || fail "exit 0 with a broken fit"
    [[ "$output" == *"kpca fit failed (exact, M = 300)"* ]] || { show_run; fail "no message"; }
    [ ! -e "$OUT/scaling.md" ] && [ ! -e "$OUT/scaling.csv" ] || fail "a report was written"
}
