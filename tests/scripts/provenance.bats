#!/usr/bin/env bats
# provenance.bats - the machine's measured load in the results' provenance:
# load_words (scripts/lib.sh) gives the words, denoise.sh writes them on a
# small run, and the scripts too long to run here (bench/run.sh,
# protocol-study.sh, distributed.sh without MPI) are read for the call.

load ../helper

# the results-writing scripts that give the load average at start and end
LOAD_SCRIPTS="scripts/run-grid.sh scripts/approx.sh scripts/denoise.sh scripts/figures.sh scripts/kth.sh
scripts/pictures.sh scripts/reduce.sh scripts/scaling.sh scripts/spectrum.sh scripts/iris.sh
scripts/paper-claims.sh scripts/protocol-study.sh scripts/distributed.sh bench/run.sh"

# line_of PATTERN FILE: the number of FILE's first line matching the ERE
# PATTERN (last with a third argument "last"); empty when none does
line_of() {
    grep -nE "$1" "$2" | cut -d: -f1 | if [ "${3:-}" = last ]; then tail -n 1; else head -n 1; fi
}

@test "load_words: the two load_stamp readings in the provenance's words; load_stamp reads three numbers" {
    run sh -c '. "$1"/scripts/lib.sh && load_words "0.52 0.61 0.70" "1.98 1.20 0.85"' sh "$REPO"
    [ "$status" -eq 0 ] || { show_run; fail "load_words failed"; }
    [ "$output" = "load average 0.52 0.61 0.70 at the start and 1.98 1.20 0.85 at the end" ] || fail "got: $output"
    [ -r /proc/loadavg ] || skip "no /proc/loadavg"
    run sh -c '. "$1"/scripts/lib.sh && load_stamp' sh "$REPO"
    [[ "$output" =~ ^[0-9]+\.[0-9]+\ [0-9]+\.[0-9]+\ [0-9]+\.[0-9]+$ ]] || fail "load_stamp: $output"
}

@test "denoise.sh on a few digits: denoise.md gives the load average at start and end" {
    KPCA="$KPCA" run sh "$REPO/scripts/denoise.sh" --subset 100 --points 10 --components 4,16 \
        --out "$OUT" --work "$TMP/work"
    [ "$status" -eq 0 ] || { show_run; fail "denoise.sh failed"; }
    grep -q '^- machine: .*, load average ' "$OUT/denoise.md" || fail "no load average on the machine line"
    assert_load_words "$OUT/denoise.md"
    assert_no_tmp "$OUT"
}

@test "every results-writing script gives the load in load_words' words, none spells them itself" {
    local f
    for f in $LOAD_SCRIPTS; do
        grep -q 'load_words "\$load0" "\$\{0,1\}' "$REPO/$f" || fail "$f: no load_words \"\$load0\" ..."
    done
    # the words have one home
    run grep -l 'at the start and' "$REPO"/scripts/*.sh "$REPO"/bench/*.sh
    [ "$output" = "$REPO/scripts/lib.sh" ] || fail "the words spelled outside lib.sh: $output"
}

@test "bench/run.sh (make bench; too long to run here): the load read before its first step and after its last" {
    local b="$REPO/bench/run.sh" l0 l1 first last
    grep -q '^\. scripts/lib\.sh' "$b" || fail "bench/run.sh does not source scripts/lib.sh"
    grep -q '"\$(load_words "\$load0" "\$load1")' "$b" || fail "bench.md's text does not call load_words"
    l0=$(line_of '^load0=\$\(load_stamp\)$' "$b")
    l1=$(line_of '^load1=\$\(load_stamp\)$' "$b")
    first=$(line_of 'build/bench/bench_phases ' "$b")
    last=$(line_of 'sh bench/read\.sh' "$b" last) # the reading section, the last step
    [ -n "$l0" ] && [ -n "$l1" ] && [ -n "$first" ] && [ -n "$last" ] || fail "lines: $l0 $l1 $first $last"
    [ "$l0" -lt "$first" ] || fail "the start load (line $l0) is read after the first step (line $first)"
    [ "$l1" -gt "$last" ] || fail "the end load (line $l1) is read before the last step (line $last)"
}

@test "protocol-study.sh and distributed.sh (too long to run here): the start load read before their first step" {
    local f l0 first
    # code lines (indented, not comments) that start a grid or an MPI run
    for f in protocol-study:'^[[:space:]]+[^#]*scripts/run-grid\.sh --' distributed:'^[[:space:]]+[^#]*mpirun --oversubscribe'; do
        l0=$(line_of '^load0=\$\(load_stamp\)$' "$REPO/scripts/${f%%:*}.sh")
        first=$(line_of "${f#*:}" "$REPO/scripts/${f%%:*}.sh")
        [ -n "$l0" ] && [ -n "$first" ] || fail "${f%%:*}: lines: $l0 $first"
        [ "$l0" -lt "$first" ] || fail "${f%%:*}: the start load (line $l0) is read after the first step (line $first)"
    done
}
