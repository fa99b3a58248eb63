#!/usr/bin/env bats
# header.bats - whether a CSV's first row is a header (docs/own-data.md):
# files whose first row the default rule (--header auto) took the wrong way
# without a word, each now read right or refused with the way out, alike
# by the whole read (fit), the read by windows (transform --block) and the
# parallel read (kpca-mpi on 2 ranks, where mpirun and build/kpca-mpi are
# there); and --label N where N is also another column's name.

load ../helper

KPCA_MPI="${KPCA_MPI:-$BATS_TEST_DIRNAME/../../build/kpca-mpi}"

# mpi2 ARGS...: kpca-mpi ARGS on 2 ranks, bounded by timeout; skips the
# test without mpirun or kpca-mpi
mpi2() {
    command -v mpirun >/dev/null && [ -x "$KPCA_MPI" ] || skip "no mpirun or $KPCA_MPI ('make mpi')"
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1 \
        timeout 120 mpirun --oversubscribe -n 2 "$KPCA_MPI" "$@"
}

@test "--label N, N also another column's name: refused as --columns and --drop refuse it" {
    printf '2,1,x\n1,10,100\n2,20,200\n3,30,300\n' >"$TMP/a.csv"
    for opt in --label --columns --drop; do
        run --separate-stderr "$KPCA" fit -k 1 -d 1 "$opt" 1 "$TMP/a.csv" -o "$OUT/m.h5"
        assert_status 2
        assert_stderr_contains "'$TMP/a.csv': $opt: '1' is both a column's name and another column's number"
        assert_no_output "$OUT/m.h5"
    done
    # a name is taken
    run --separate-stderr "$KPCA" fit -k 1 -d 1 --label x "$TMP/a.csv" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "3 rows x 2 values, labels from column 3 'x'"
}
