#!/usr/bin/env bats
# scaling.bats - scripts/scaling.sh (make scaling) in its quick mode: every
# solver and M measured; Nystrom's fit and transform at two row counts on
# one machine and, with kpca-mpi, on 1 and 2 ranks, their agreement, the
# targets and the projection; provenance; a failing step leaves no report.

load ../helper

USPSGEN="${USPSGEN:-$BATS_TEST_DIRNAME/../../build/tools/uspsgen}"
KPCA_MPI="${KPCA_MPI:-$BATS_TEST_DIRNAME/../../build/kpca-mpi}"

setup() {
    common_setup
    [ -x /usr/bin/time ] || skip "no /usr/bin/time"
    [ -x "$USPSGEN" ] || skip "no $USPSGEN: make build/tools/uspsgen"
    export USPSGEN
    # kpca-mpi's ranks where it is built (as make scaling runs them)
    ranks=""
    if [ -x "$KPCA_MPI" ] && command -v mpirun >/dev/null; then ranks="1 2"; fi
    export KPCA_MPI
}

@test "scaling.sh --quick: rows per solver and M, Nystrom over rows and ranks, targets, projection, provenance, plot" {
    # under ASan without leak detection, as mpi.bats runs kpca-mpi (OpenMPI does not free what it allocates)
    KPCA="$KPCA" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        run sh "$REPO/scripts/scaling.sh" --quick --ranks "$ranks" --out "$OUT" --work "$TMP/work"
    [ "$status" -eq 0 ] || { show_run; fail "scaling.sh failed"; }
    csv="$OUT/scaling.csv"
    [ "$(head -n 1 "$csv")" = \
        "experiment,step,solver,program,ranks,threads,rows,landmarks,components,cpu_seconds,wall_seconds,peak_rss_mb,agreement" ] ||
        fail "CSV header"
    for s in exact randomized nystrom; do
        [ "$(grep -c "^M,fit,$s,kpca,1,1," "$csv")" -ge 3 ] || fail "fewer than 3 rows for $s"
    done
    # every measurement is a time and an RSS of at least a few MB
    awk -F, 'NR > 1 && !($10 >= 0 && $11 > 0 && $12 >= 4) { bad = 1 } END { exit bad }' "$csv" || fail "implausible row"
    local st n p mpifit=no
    # a kpca-mpi that does not fit Nystrom models (the script says so) has its transforms measured only
    [ -z "$ranks" ] || mpifit="$(cat "$TMP/work/mpi-nystrom")"
    if [ "$mpifit" = no ] && [ -n "$ranks" ]; then
        grep -q "^kpca-mpi of this build does not fit Nystrom models" "$OUT/scaling.md" || fail "no note of the missing fits"
    fi
    for st in fit transform; do
        for n in 2000 5000; do
            grep -q "^rows,$st,nystrom,kpca,1,[0-9]*,$n,100," "$csv" || fail "no one-machine $st at $n rows"
            for p in $ranks; do
                [ "$st" = transform ] || [ "$mpifit" = yes ] || continue
                grep -q "^rows,$st,nystrom,kpca-mpi,$p,1,$n,100," "$csv" || fail "no $st on $p ranks at $n rows"
            done
        done
    done
    if [ -n "$ranks" ]; then
        # the ranks' models agree with the one machine's; their features are one rank's, byte for byte
        awk -F, '$1 == "rows" && $2 == "fit" && $4 == "kpca-mpi" && !($13 + 0 <= 1e-10) { bad = 1 } END { exit bad }' "$csv" ||
            fail "a distributed model differs from the one-machine model by more than 1e-10"
        [ "$(grep -c '^rows,transform,nystrom,kpca-mpi,2,.*,identical (1 rank)$' "$csv")" -eq 2 ] ||
            fail "2 ranks' features are not 1 rank's"
    fi
    md="$OUT/scaling.md"
    grep -q "^| exact | 300 |" "$md" || fail "no table row"
    grep -q "^| randomized | -*[0-9.]* | -*[0-9.]* |" "$md" || fail "no exponent row"
    grep -q "^| transform | kpca, one machine | 5000 |" "$md" || fail "no row of the streamed transform"
    grep -q "^- At 5000 rows (100 landmarks) the largest process peaked at [0-9]* MB" "$md" || fail "no memory target"
    grep -q "^| fit | [0-9]* s | [0-9]* s | [0-9.]* s | [0-9]* s | [0-9]* MB |$" "$md" || fail "no projection"
    grep -q "^Provenance: \`scripts/scaling.sh --quick" "$md" || fail "no provenance"
    assert_load_words "$md"
    if command -v gnuplot >/dev/null; then [ -s "$OUT/scaling.png" ] || fail "no plot"; fi
    # a second run reuses the measurements: same CSV
    cp "$csv" "$TMP/first.csv"
    KPCA="$KPCA" run sh "$REPO/scripts/scaling.sh" --quick --ranks "$ranks" --out "$OUT" --work "$TMP/work"
    [ "$status" -eq 0 ] || { show_run; fail "second run failed"; }
    cmp -s "$csv" "$TMP/first.csv" || fail "the reused measurements changed"
}

@test "scaling.sh --baseline: the earlier kpca at 10^5 rows, and the streamed per-row cost against it" {
    # a baseline that is this kpca under another name: the comparison's rows and line
    KPCA="$KPCA" run sh "$REPO/scripts/scaling.sh" --quick --ranks "" --rows 100000 --baseline "$KPCA" \
        --out "$OUT" --work "$TMP/work"
    [ "$status" -eq 0 ] || { show_run; fail "scaling.sh failed"; }
    grep -q "^rows,fit,nystrom,baseline,1,[0-9]*,100000," "$OUT/scaling.csv" || fail "no baseline fit"
    grep -q "^rows,transform,nystrom,baseline,1,[0-9]*,100000," "$OUT/scaling.csv" || fail "no baseline transform"
    grep -q "^- At 10^5 rows, transform: [0-9.]* µs of CPU a row streamed, [0-9.]* µs in memory (--baseline): [0-9.]*×" \
        "$OUT/scaling.md" || fail "no per-row comparison"
}

@test "scaling.sh: a fit that fails stops the run with its message and writes no report" {
    printf '#!/bin/sh\n[ "$1" = fit ] && { echo "error: broken" >&2; exit 3; }\nexec "%s" "$@"\n' "$KPCA" >"$TMP/kpca"
    chmod +x "$TMP/kpca"
    KPCA="$TMP/kpca" run sh "$REPO/scripts/scaling.sh" --quick --ranks "" --out "$OUT" --work "$TMP/work"
    [ "$status" -ne 0 ] || fail "exit 0 with a broken fit"
    [[ "$output" == *"kpca fit failed (exact, M = 300)"* ]] || { show_run; fail "no message"; }
    [ ! -e "$OUT/scaling.md" ] && [ ! -e "$OUT/scaling.csv" ] || fail "a report was written"
}

@test "scaling.sh: a bad --rows or --ranks is a usage error" {
    KPCA="$KPCA" run sh "$REPO/scripts/scaling.sh" --quick --rows "10 x" --out "$OUT" --work "$TMP/work"
    [ "$status" -eq 2 ] && [[ "$output" == *"--rows: 'x' is no positive row count"* ]] || { show_run; fail "--rows x"; }
    KPCA="$KPCA" run sh "$REPO/scripts/scaling.sh" --quick --ranks "0" --out "$OUT" --work "$TMP/work"
    [ "$status" -eq 2 ] && [[ "$output" == *"--ranks: '0' is no positive rank count"* ]] || { show_run; fail "--ranks 0"; }
}
