#!/usr/bin/env bats
# jobs.bats - the grid as independent jobs: run-grid.sh --jobs N (GNU
# parallel) and scripts/slurm-grid.sh's per-task command (run here with
# SLURM_ARRAY_TASK_ID set) give the cells of a sequential run.

load ../helper

@test "run-grid.sh --jobs 2 and the Slurm array's tasks give the sequential run's cells" {
    command -v parallel >/dev/null || skip "no GNU parallel (Debian package parallel)"
    local g="$REPO/scripts/run-grid.sh" s="$REPO/scripts/slurm-grid.sh"
    KPCA="$KPCA" run sh "$g" --degrees "1 2" --components 8,16 --subset 300 --eval "-c 1" --name tiny \
        --out "$TMP/seq" --work "$TMP/w-seq"
    [ "$status" -eq 0 ] || { show_run; fail "sequential run failed"; }
    KPCA="$KPCA" run sh "$g" --jobs 2 --degrees "1 2" --components 8,16 --subset 300 --eval "-c 1" --name tiny \
        --out "$TMP/par" --work "$TMP/w-par"
    [ "$status" -eq 0 ] || { show_run; fail "--jobs 2 failed"; }
    # each degree ran as its own job, into its own scratch output
    [ -f "$TMP/w-par/jobs/d1/tiny.csv" ] && [ -f "$TMP/w-par/jobs/d2/tiny.csv" ] || fail "no per-job outputs"
    grep -q '^- command: `scripts/run-grid.sh --jobs 2' "$TMP/par/tiny.md" || fail "provenance lost the command"
    assert_load_words "$TMP/par/tiny.md"
    cmp -s "$TMP/seq/tiny.csv" "$TMP/par/tiny.csv" || fail "--jobs 2 changed a cell"
    cmp -s "$TMP/seq/tiny-predictions.csv" "$TMP/par/tiny-predictions.csv" || fail "--jobs 2 changed a prediction"
    # the Slurm array: task 0 and task 1, then the assembling step
    for t in 0 1; do
        SLURM_ARRAY_TASK_ID=$t KPCA="$KPCA" run sh "$s" --degrees "1 2" --components 8,16 --subset 300 \
            --eval "-c 1" --name tiny --work "$TMP/w-slurm"
        [ "$status" -eq 0 ] || { show_run; fail "slurm task $t failed"; }
    done
    [ -f "$TMP/w-slurm/jobs/d2/tiny.csv" ] || fail "task 1 did not run degree 2"
    KPCA="$KPCA" run sh "$s" --assemble --degrees "1 2" --components 8,16 --subset 300 --eval "-c 1" \
        --name tiny --work "$TMP/w-slurm" --out "$TMP/slurm"
    [ "$status" -eq 0 ] || { show_run; fail "assembling failed"; }
    cmp -s "$TMP/seq/tiny.csv" "$TMP/slurm/tiny.csv" || fail "the Slurm tasks changed a cell"
}

@test "slurm-grid.sh: no task id, or a task beyond the degrees, is refused with a message; --jobs 0 too" {
    run sh "$REPO/scripts/slurm-grid.sh" --degrees "1 2"
    [ "$status" -eq 2 ] && [[ "$output" == *"SLURM_ARRAY_TASK_ID"* ]] || { show_run; fail "no task id accepted"; }
    SLURM_ARRAY_TASK_ID=5 run sh "$REPO/scripts/slurm-grid.sh" --degrees "1 2"
    [ "$status" -eq 2 ] && [[ "$output" == *"task 5 has no degree"* ]] || { show_run; fail "task 5 accepted"; }
    KPCA="$KPCA" run sh "$REPO/scripts/run-grid.sh" --jobs 0 --out "$OUT" --work "$TMP/w"
    [ "$status" -eq 2 ] && [[ "$output" == *"--jobs needs a positive whole number"* ]] || { show_run; fail "--jobs 0"; }
}

@test "run-grid.sh --jobs 2: SIGTERM stops every job's step under way at once" {
    command -v parallel >/dev/null || skip "no GNU parallel (Debian package parallel)"
    slow_kpca '*" fit "*" -d 2 "*'
    local pid step
    KPCA="$TMP/kpca-slow" sh "$REPO/scripts/run-grid.sh" --jobs 2 --degrees "1 2" --components 8,16 --subset 300 \
        --eval "-c 1" --name tiny --out "$OUT" --work "$TMP/w" >/dev/null 2>&1 3>&- &
    pid=$!
    await_file "$TMP/slow.pid" "$pid" # degree 2's job is fitting
    step=$(cat "$TMP/slow.pid")
    signal_and_reap TERM "$pid" "$step"
    [ "$status" -eq 143 ] || fail "exit status $status"
    [ ! -e "$OUT/tiny.csv" ] || fail "a table was written"
    assert_no_tmp "$OUT"
}
