#!/usr/bin/env bats
# reduce.bats - scripts/reduce.sh (make reduce) in its quick mode: the table,
# its provenance, and a signal during a step.

load ../helper

setup() {
    common_setup
}

@test "scripts/reduce.sh --quick: every model's row, speed-ups from the projection times, provenance, no temporary" {
    KPCA="$KPCA" run "$REPO/scripts/reduce.sh" --quick --out "$OUT" --work "$TMP/work"
    [ "$status" -eq 0 ] || { show_run; fail "reduce.sh --quick failed"; }
    local c="$OUT/reduced-set.csv"
    [ "$(head -n 1 "$c")" = "degree,k,model,vectors,iterations,rho_mean,rho_max,make_s,projection_s,speedup,test_error_pct,components_used" ] ||
        fail "header: $(head -n 1 "$c")"
    # --quick: d = 3, K = 16 and 64, sizes 16 and 64: 2 full, 4 reduced, 3 Nystrom models (16 landmarks give 16 components at most)
    [ "$(awk -F, '$3 == "full"' "$c" | wc -l)" -eq 2 ] || fail "full rows"
    [ "$(awk -F, '$3 == "reduced"' "$c" | wc -l)" -eq 4 ] || fail "reduced rows"
    [ "$(awk -F, '$3 == "nystrom"' "$c" | wc -l)" -eq 3 ] || fail "Nystrom rows"
    awk -F, 'NR > 1 && ($11 < 0 || $11 > 100 || $1 != 3) { print "bad row: " $0; bad = 1 } END { exit bad }' "$c" ||
        fail "a test error outside [0, 100] or a degree other than 3"
    # residuals: 0 <= mean <= max, and 64 vectors approximate better than 16
    awk -F, '$3 == "reduced" { if ($6 < 0 || $6 > $7) bad = 1; rho[$2 "," $4] = $6 }
        END { exit bad || !(rho["16,64"] < rho["16,16"]) || !(rho["64,64"] < rho["64,16"]) }' "$c" ||
        fail "residuals not ordered: $(awk -F, '$3 == "reduced"' "$c")"
    # speed-up: the full model's projection seconds over the row's (same K)
    awk -F, 'NR > 1 && $3 == "full" { f[$2] = $9 }
        NR > 1 { row[NR] = $0 }
        END { for (i in row) { split(row[i], x, ","); want = sprintf("%.2f", f[x[2]] / x[9])
              if (x[9] > 0 && x[10] != want) { print "speed-up " x[10] " != " want ": " row[i]; bad = 1 } } exit bad }' "$c" ||
        fail "a speed-up is not full/projection"
    local md="$OUT/reduced-set.md"
    grep -q '^Provenance: `scripts/reduce.sh --quick' "$md" || fail "no provenance"
    assert_load_words "$md"
    grep -q 'machine was shared' "$md" && fail "fixed words instead of the measured load"
    grep -q -- "kpca eval -k K $("$KPCA" eval --print-defaults)\`" "$md" || fail "the eval options are not the headline protocol's"
    [ "$(grep -c '^| 3 | ' "$md")" -eq 9 ] || fail "the Markdown table does not have the 9 rows"
    if command -v gnuplot >/dev/null; then
        [ "$(head -c 4 "$OUT/reduced-set.png" | od -An -c | tr -d ' ')" = "211PNG" ] || fail "no PNG"
    fi
    assert_no_tmp "$OUT"
}

@test "scripts/reduce.sh: SIGTERM during kpca reduce stops it at once; no temporary, no table" {
    slow_kpca '*" reduce "*'
    local pid step
    KPCA="$TMP/kpca-slow" "$REPO/scripts/reduce.sh" --quick --out "$OUT" --work "$TMP/work" >/dev/null 2>&1 3>&- &
    pid=$!
    await_file "$TMP/slow.pid" "$pid"
    step=$(cat "$TMP/slow.pid")
    signal_and_reap TERM "$pid" "$step"
    [ "$status" -eq 143 ] || fail "exit status $status"
    [ ! -e "$OUT/reduced-set.csv" ] && [ ! -e "$OUT/reduced-set.md" ] || fail "a table was written"
    assert_no_tmp "$OUT"
    assert_no_tmp "$TMP/work"
}
