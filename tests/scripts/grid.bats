#!/usr/bin/env bats
# grid.bats - scripts/run-grid.sh on a tiny grid: outputs, provenance,
# resumption, and that each cell is what kpca fit/transform/eval give by hand.

load ../helper

GRID_SH="$BATS_TEST_DIRNAME/../../scripts/run-grid.sh"

grid_args() {
    args=(--degrees "1 2" --components 8,16,300 --subset 300 --eval "-c 1" --name tiny --out "$OUT" --work "$TMP/work")
}

grid() {
    local args
    grid_args
    KPCA="$KPCA" "$GRID_SH" "${args[@]}" "$@"
}

@test "grid: CSV, Markdown, JSON (and PNG with gnuplot) with every cell and provenance" {
    run grid
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    # d=1 has at most 256 components: 300 is dropped for d=1 and d=2 (300 fit points, 299 components)
    [ "$(awk -F, 'NR > 1' "$OUT/tiny.csv" | wc -l)" -eq 4 ]
    [ "$(head -n 1 "$OUT/tiny.csv")" = "degree,components,error_pct,errors,total,C,cv_error_pct,paper_error_pct,diff_pp,ci95_low,ci95_high,paper_outside_ci" ]
    awk -F, 'NR > 1 && ($5 != 2007 || $3 < 0 || $3 > 100) { exit 1 }' "$OUT/tiny.csv"
    grep -q '^- command: `scripts/run-grid.sh' "$OUT/tiny.md"
    grep -q "^- kpca [0-9]" "$OUT/tiny.md"
    grep -q "N.A." "$OUT/tiny.md"
    grep -q '^- run time: [0-9]* s (every step computed)' "$OUT/tiny.md"
    grep -q '^- machine: .*, load average ' "$OUT/tiny.md" || fail "no load average on the machine line"
    assert_load_words "$OUT/tiny.md"
    if [ -x /usr/bin/python3 ]; then
        /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["cells"]) == 4; assert d["provenance"]["kpca_version"]; assert d["provenance"]["steps_reused"] is False' "$OUT/tiny.json"
        # the load averages at start and end: three numbers each
        /usr/bin/python3 -c 'import json,re,sys; p=json.load(open(sys.argv[1]))["provenance"]; [re.fullmatch(r"[0-9]+\.[0-9]+ [0-9]+\.[0-9]+ [0-9]+\.[0-9]+", p[k]) or sys.exit(k + ": " + p[k]) for k in ("load_average_start", "load_average_end")]' "$OUT/tiny.json"
    fi
    if command -v gnuplot >/dev/null; then
        [ "$(head -c 4 "$OUT/tiny.png" | od -An -c | tr -d ' ')" = "211PNG" ]
    fi
    assert_no_tmp "$OUT"
}

@test "grid: a second run reuses every finished step; --force recomputes" {
    grid >/dev/null 2>&1
    run grid
    [ "$status" -eq 0 ]
    ! printf '%s\n' "$output" | grep -q '^== d=' || { echo "$output"; false; }
    grep -q '^- run time: .*reused from an earlier run' "$OUT/tiny.md"
    run grid --force
    [ "$status" -eq 0 ]
    printf '%s\n' "$output" | grep -q '^== d=2: fit'
}

@test "grid: a cell equals kpca fit/transform/eval run by hand" {
    grid >/dev/null 2>&1
    "$KPCA" fit -q -d 2 -m 300 --sample first -k 300 "$DATA/zip.train.gz" -o "$TMP/m.h5"
    "$KPCA" transform -q "$TMP/m.h5" "$DATA/zip.train.gz" -o "$TMP/tr.h5"
    "$KPCA" transform -q "$TMP/m.h5" "$DATA/zip.test.gz" -o "$TMP/te.h5"
    run --separate-stderr "$KPCA" eval -q -c 1 -k 16 "$TMP/tr.h5" "$TMP/te.h5"
    [ "$(printf '%s\n' "$output" | awk 'NR == 2 { print $3 }')" = "$(awk -F, '$1 == 2 && $2 == 16 { print $4 }' "$OUT/tiny.csv")" ]
}

@test "grid: SIGINT or SIGTERM stops the step under way at once, leaves no partial file; the next run completes" {
    slow_kpca '*" fit "*" -d 2 "*'
    local args sig pid step
    grid_args
    for sig in INT TERM; do
        rm -f "$TMP/slow.pid"
        # the script itself gets the signal (a background function would be a
        # subshell), with SIGINT as from a terminal (a background job of a
        # script starts with SIGINT ignored, which no trap can undo)
        KPCA="$TMP/kpca-slow" env --default-signal=INT "$GRID_SH" "${args[@]}" >/dev/null 2>&1 3>&- &
        pid=$!
        await_file "$TMP/slow.pid" "$pid" # d = 1 is done and d = 2's fit is under way
        step=$(cat "$TMP/slow.pid")
        # the script exits within seconds, not when its ten-minute step ends
        signal_and_reap "$sig" "$pid" "$step"
        [ "$status" -eq $((128 + $(kill -l "$sig"))) ] || fail "SIG$sig: exit status $status"
        assert_no_tmp "$OUT"
        assert_no_tmp "$TMP/work/fit-m300-s0"
        [ ! -e "$OUT/tiny.csv" ] || fail "SIG$sig: a table was written"
    done
    run grid
    [ "$status" -eq 0 ]
    [ "$(awk -F, 'NR > 1' "$OUT/tiny.csv" | wc -l)" -eq 4 ]
}

@test "grid: SIGINT or SIGTERM keeps every finished step and cell; the next run reuses them" {
    grid --degrees 1 >/dev/null 2>&1
    local work="$TMP/work" f sig args
    grid_args
    mkdir -p "$TMP/before"
    for f in $(cd "$work" && find . -type f | sort); do
        mkdir -p "$TMP/before/$(dirname "$f")"
        cp -p "$work/$f" "$TMP/before/$f"
    done
    for sig in INT TERM; do
        # the script itself gets the signal (a background function would be a subshell)
        KPCA="$KPCA" env --default-signal=INT "$GRID_SH" "${args[@]}" --degrees "1 2" >/dev/null 2>&1 3>&- &
        local pid=$!
        sleep 1
        kill -"$sig" "$pid" 2>/dev/null || true
        wait "$pid" || true
        assert_no_tmp "$OUT"
        # every file of the finished degree is still there, byte for byte
        for f in $(cd "$TMP/before" && find . -type f); do
            cmp -s "$TMP/before/$f" "$work/$f" || fail "SIG$sig: finished step $f lost or changed"
        done
    done
    run grid --degrees "1 2"
    [ "$status" -eq 0 ]
    ! printf '%s\n' "$output" | grep -q '^== d=1: fit' || { echo "$output"; fail "d = 1 was refitted"; }
    [ "$(awk -F, 'NR > 1' "$OUT/tiny.csv" | wc -l)" -eq 4 ]
}

@test "grid: NAME-predictions.csv holds every cell's labels (errors as the table's), Wilson intervals hold each rate" {
    run grid
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    local p="$OUT/tiny-predictions.csv"
    [ "$(head -n 1 "$p")" = "label,d1_k8,d1_k16,d2_k8,d2_k16" ] || fail "header: $(head -n 1 "$p")"
    [ "$(wc -l <"$p")" -eq 2008 ] || fail "$(wc -l <"$p") lines, want 2008"
    # labels are the test file's, in its order
    cmp -s <(tail -n +2 "$p" | cut -d, -f1) <(gzip -dc "$DATA/zip.test.gz" | awk '{ printf "%d\n", $1 }') ||
        fail "the label column is not zip.test's"
    # each column's disagreements with the labels are the table's error count
    local col key want got
    for col in 2 3 4 5; do
        key=$(head -n 1 "$p" | cut -d, -f$col | sed 's/^d//; s/_k/,/')
        want=$(awk -F, -v k="$key" '($1 "," $2) == k { print $4 }' "$OUT/tiny.csv")
        got=$(awk -F, -v c=$col 'NR > 1 && $1 != $c { n++ } END { print n + 0 }' "$p")
        [ "$got" = "$want" ] || fail "cell $key: $got wrong labels, the table says $want"
    done
    # the Wilson interval (independently recomputed) contains the rate
    /usr/bin/python3 - "$OUT/tiny.csv" <<'PY' || fail "Wilson intervals wrong"
import csv, math, sys
z = 1.959963984540054
for r in csv.DictReader(open(sys.argv[1])):
    e, n = int(r["errors"]), int(r["total"])
    p = e / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    lo, hi = float(r["ci95_low"]), float(r["ci95_high"])
    assert abs(lo - 100 * (c - h)) <= 0.006 and abs(hi - 100 * (c + h)) <= 0.006, r
    assert lo < 100 * p < hi, r
PY
    grep -q "95 % Wilson score intervals" "$OUT/tiny.md"
    # a second run reuses the predictions too
    run grid
    [ "$status" -eq 0 ]
    ! printf '%s\n' "$output" | grep -q '^== d=' || { echo "$output"; false; }
}

@test "grid: a paper value outside the interval is marked and counted" {
    run grid --degrees 7 --components 32
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    # d = 7, 32 components: paper 10.8 %; 300 fit points give a different rate, judged by its interval
    awk -F, 'NR == 2 { lo = $10; hi = $11; out = (10.8 < lo || 10.8 > hi); if ($12 != out) exit 1 }' "$OUT/tiny.csv" ||
        fail "paper_outside_ci disagrees with the interval"
    if awk -F, 'NR == 2 { exit !($12 == 1) }' "$OUT/tiny.csv"; then grep -q '10.8) †' "$OUT/tiny.md"; fi
    grep -q "^- the paper value lies outside our 95 % Wilson interval in [01] of 1 cells" "$OUT/tiny.md"
    # no cell of the 6 x 6 grid here: no separate line for it
    ! grep -q "cells of the 6 x 6 grid" "$OUT/tiny.md"
}

@test "grid --smooth: smoothed fits in their own cache, said in the Markdown, cells unlike the plain ones" {
    run grid --degrees 2 --components 8
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    cp "$OUT/tiny.csv" "$TMP/plain.csv"
    run grid --degrees 2 --components 8 --smooth 0.75
    [ "$status" -eq 0 ] || { echo "$output"; false; }
    printf '%s\n' "$output" | grep -q '^== d=2: fit' || fail "the smoothed grid reused the plain fit"
    [ -f "$TMP/work/fit-m300-s0-smooth0.75/d2.model" ] || fail "no smoothed cache directory"
    "$KPCA" info "$TMP/work/fit-m300-s0-smooth0.75/d2.model" | grep -qx 'smooth 0.75'
    grep -q '^- digits smoothed by a Gaussian of sigma 0.75 pixels' "$OUT/tiny.md"
    ! cmp -s "$TMP/plain.csv" "$OUT/tiny.csv" || fail "smoothing changed no cell"
}

@test "protocol-study.sh: an unknown option or an --only that matches nothing stops it before any work" {
    run "$REPO/scripts/protocol-study.sh" --bogus
    [ "$status" -eq 2 ]
    [[ "$output" == *"unknown option '--bogus'"* ]]
    run "$REPO/scripts/protocol-study.sh" --only nothing-here --md "$OUT/x.md"
    [ "$status" -eq 2 ]
    [[ "$output" == *"--only matches no variant"* ]]
    [ ! -e "$OUT/x.md" ]
}
