#!/usr/bin/env bats
# distributed.bats - scripts/distributed.sh (make distributed) on 1 and 2
# ranks and with ELPA.  Skipped without mpirun or build/kpca-mpi, except
# under CI (CI=true), where that fails, as in tests/cli/mpi.bats.

load ../helper

KPCA_MPI="${KPCA_MPI:-$BATS_TEST_DIRNAME/../../build/kpca-mpi}"

setup() {
    local why=""
    command -v mpirun >/dev/null || why="no mpirun: 'make mpi' installs OpenMPI and ScaLAPACK"
    [ -x "$KPCA_MPI" ] || why="no $KPCA_MPI: run 'make mpi' first"
    if [ -n "$why" ]; then
        [ "${CI:-}" != true ] || fail "CI=true and $why"
        skip "$why"
    fi
    common_setup
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
}

@test "distributed.sh: runs on 1 and 2 ranks and with ELPA, each checked against P = 1, in a table with its provenance" {
    # bounded like every mpirun here; under ASan without leak detection (see mpirun_t)
    run --separate-stderr env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" KPCA="$KPCA" \
        KPCA_MPI="$KPCA_MPI" timeout 300 sh "$BATS_TEST_DIRNAME/../../scripts/distributed.sh" \
        --out "$OUT/res" --work "$TMP/work" --runs "300:1 300:2 300:2:elpa" -k 5
    assert_status 0
    local csv="$OUT/res/distributed.csv"
    [ "$(wc -l <"$csv")" -eq 4 ] || fail "expected 3 runs in $csv"
    # every run ok, a peak RSS per rank, the P = 2 runs within 1e-10 of P = 1
    awk -F, 'NR > 1 { if ($11 != "ok" || $8 <= 0 || split($12, r, " ") != $2) bad = 1
                      if ($2 == 2 && ($10 == "" || $10 + 0 > 1e-10)) bad = 1 }
             END { exit bad }' "$csv" || { cat "$csv"; fail "a run failed or differs from P = 1"; }
    [ "$(cut -d, -f13 "$csv" | tr '\n' ' ')" = "eigensolver auto auto elpa " ] || fail "eigensolver column"
    grep -q "commit" "$OUT/res/distributed.md" || fail "no provenance"
    assert_load_words "$OUT/res/distributed.md"
    grep -q '| 300 | 2 | 1x2 | elpa |' "$OUT/res/distributed.md" || fail "no ELPA row in the table"
}
