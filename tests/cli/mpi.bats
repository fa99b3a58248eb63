#!/usr/bin/env bats
# mpi.bats - kpca-mpi (make mpi) on 1, 2 and 4 MPI ranks of this machine:
# the distributed fit gives the single-process model, the distributed
# transform the very same bytes, and a failure on one rank stops every rank
# with a message and no output.  Skipped when mpirun or build/kpca-mpi is
# missing (`make mpi` installs OpenMPI + ScaLAPACK and builds it; `make check`
# does both), except under CI (CI=true, as .ci/run sets it), where a missing
# piece fails every test: CI must not pass without MPI coverage.  Every mpirun
# is bounded by `timeout`, so a hang fails a test.

load ../helper

KPCA_MPI="${KPCA_MPI:-$BATS_TEST_DIRNAME/../../build/kpca-mpi}"

# mpi_missing REASON: skip the test, or fail it under CI
mpi_missing() {
    [ "${CI:-}" != true ] || fail "CI=true and $1"
    skip "$1"
}

setup() {
    command -v mpirun >/dev/null || mpi_missing "no mpirun: 'make mpi' installs OpenMPI and ScaLAPACK"
    [ -x "$KPCA_MPI" ] || mpi_missing "no $KPCA_MPI: run 'make mpi' first"
    [ -x "$KPCA" ] || mpi_missing "no $KPCA: run 'make' first"
    common_setup
    # CI runs as root; one OpenBLAS thread per rank on a small machine
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
    # M = 300: not a multiple of the block size (64)
    head_rows "$DATA/zip.train.gz" 300 "$TMP/fit.txt"
    head_rows "$DATA/zip.test.gz" 100 "$TMP/test.txt"
}

# mpi P ARGS...: kpca-mpi ARGS on P ranks
mpi() {
    local p="$1"
    shift
    mpirun_t -n "$p" "$KPCA_MPI" "$@"
}

# same_eigenvalues A.h5 B.h5: the same count, each to 1e-10 relative
same_eigenvalues() {
    "$KPCA" info -e "$1" | awk '$1 == "eigenvalue" { print $3 }' >"$TMP/ev.a"
    "$KPCA" info -e "$2" | awk '$1 == "eigenvalue" { print $3 }' >"$TMP/ev.b"
    [ -s "$TMP/ev.a" ] || fail "no eigenvalues in $1"
    [ "$(wc -l <"$TMP/ev.a")" -eq "$(wc -l <"$TMP/ev.b")" ] || fail "$1 and $2 keep different counts"
    paste "$TMP/ev.a" "$TMP/ev.b" | awk '{ d = $1 - $2; if (d < 0) d = -d;
        if (d > 1e-10 * $1) { printf "eigenvalue %d: %s vs %s\n", NR, $1, $2; bad = 1 } } END { exit bad }' >&2 ||
        fail "eigenvalues of $1 and $2 differ by more than 1e-10 relative"
}

# same_projections A.h5 B.h5: the test digits' features of both models agree
# to 1e-8 relative to each component's largest |z|, with the same signs
same_projections() {
    "$KPCA" transform -q -f csv "$1" "$TMP/test.txt" -o "$TMP/za.csv"
    "$KPCA" transform -q -f csv "$2" "$TMP/test.txt" -o "$TMP/zb.csv"
    paste -d, "$TMP/za.csv" "$TMP/zb.csv" | awk -F, '
        NR == 1 { next }
        { n = NF / 2; rows++
          for (c = 2; c <= n; c++) {
              a = $c; b = $(c + n); d = a - b; if (d < 0) d = -d; if (d > dev[c]) dev[c] = d
              if (a < 0) a = -a; if (a > big[c]) big[c] = a
              dot[c] += $c * $(c + n) } }
        END { if (rows < 100) { print "only " rows " rows"; exit 1 }
              for (c = 2; c <= n; c++) {
                  if (dev[c] > 1e-8 * big[c]) { printf "component %d: max deviation %g of %g\n", c - 1, dev[c], big[c]; bad = 1 }
                  if (dot[c] <= 0) { printf "component %d: opposite sign\n", c - 1; bad = 1 } }
              exit bad }' >&2 || fail "projections of $1 and $2 differ"
}

@test "kpca-mpi fit on 1, 2 and 4 ranks gives the single-process model: poly, rbf, linear kernels" {
    local kernel p
    for kernel in "-d 3" "--kernel rbf" "--kernel linear"; do
        # shellcheck disable=SC2086
        "$KPCA" fit -q $kernel -k 9 "$TMP/fit.txt" -o "$TMP/one.h5"
        for p in 1 2 4; do
            # shellcheck disable=SC2086
            run --separate-stderr mpi "$p" fit -q $kernel -k 9 "$TMP/fit.txt" -o "$OUT/dist-$p.h5"
            assert_status 0
            same_eigenvalues "$TMP/one.h5" "$OUT/dist-$p.h5"
            same_projections "$TMP/one.h5" "$OUT/dist-$p.h5"
        done
    done
}

@test "kpca-mpi fit with pdsyevd (--eig evd) and with many components on a 1 x 3 grid gives the single-process model" {
    local args p
    for args in "--eig evd -k 6" "-k 120"; do
        # shellcheck disable=SC2086
        "$KPCA" fit -q $args "$TMP/fit.txt" -o "$TMP/one.h5"
        for p in 3; do
            # shellcheck disable=SC2086
            run --separate-stderr mpi "$p" fit -q $args "$TMP/fit.txt" -o "$OUT/dist.h5"
            assert_status 0
            same_eigenvalues "$TMP/one.h5" "$OUT/dist.h5"
            same_projections "$TMP/one.h5" "$OUT/dist.h5"
        done
    done
}

@test "kpca-mpi --eig elpa (ELPA's two-stage solver) on 1, 2 and 4 ranks gives the single-process model" {
    local kernel p
    for kernel in "-d 3 -k 9" "--kernel rbf -k 120"; do
        # shellcheck disable=SC2086
        "$KPCA" fit -q $kernel "$TMP/fit.txt" -o "$TMP/one.h5"
        for p in 1 2 4; do
            # shellcheck disable=SC2086
            run --separate-stderr mpi "$p" fit $kernel --eig elpa "$TMP/fit.txt" -o "$OUT/elpa-$p.h5"
            assert_status 0
            assert_stderr_contains "exact elpa 2-stage"
            same_eigenvalues "$TMP/one.h5" "$OUT/elpa-$p.h5"
            same_projections "$TMP/one.h5" "$OUT/elpa-$p.h5"
        done
    done
}

@test "--eig elpa: the plain kpca refuses it before any work, kpca-mpi refuses too many ranks for the matrix" {
    run --separate-stderr "$KPCA" fit -k 5 --eig elpa "$TMP/fit.txt" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "the elpa eigensolver runs in the distributed build only"
    assert_no_output "$OUT/m.h5"
    run --separate-stderr "$KPCA" fit --components 0.9 --eig elpa "$TMP/fit.txt" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "not elpa"
    # 60 points are one block of 64: a 2 x 2 grid leaves three ranks without any
    head -n 60 "$TMP/fit.txt" >"$TMP/fit60.txt"
    run --separate-stderr mpi 4 fit -k 5 --eig elpa "$TMP/fit60.txt" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "--eig elpa needs a block of the 60 x 60 matrix on every rank"
    [ "$(grep -c '^error:' <<<"$stderr")" -eq 1 ] || { show_run; fail "expected one error line"; }
    assert_no_output "$OUT/m.h5"
}

@test "a distributed model is an ordinary model file: kpca reads it and it says how it was made" {
    run --separate-stderr mpi 4 fit -k 5 "$TMP/fit.txt" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "exact evr scalapack 2x2"
    # rank 0 alone prints: one summary line, not four
    [ "$(grep -c '^fit: 300 of 300 points' <<<"$stderr")" -eq 1 ] || { show_run; fail "more than one rank printed"; }
    run --separate-stderr "$KPCA" info "$OUT/m.h5"
    assert_status 0
    assert_stdout_contains "format kpca-model" "solver exact evr scalapack 2x2" "fit_points 300" "components 5"
    assert_no_tmp "$OUT"
}

# test_npy: $TMP/test.npy, the 2007 test digits as 50 linear features
# (unlabelled float64 rows, read by offset), and $TMP/mnpy.h5, a model of them
test_npy() {
    "$KPCA" fit -q --kernel linear -k 50 "$TMP/fit.txt" -o "$TMP/lin.h5"
    "$KPCA" transform -q "$TMP/lin.h5" "$DATA/zip.test.gz" -o "$TMP/test.npy"
    "$KPCA" fit -q -d 2 -k 6 -m 300 "$TMP/test.npy" -o "$TMP/mnpy.h5"
}

@test "kpca-mpi transform on 1, 2 and 4 ranks writes the very bytes of kpca transform (every format; text, named, npy input)" {
    "$KPCA" fit -q -k 7 "$TMP/fit.txt" -o "$TMP/m.h5"
    local f p
    # 2007 test digits: two blocks of 1024 rows, so that 4 ranks leave rank 0
    # (which writes the file's head) and rank 2 without rows
    for f in csv libsvm h5 npy; do
        "$KPCA" transform -q "$TMP/m.h5" "$DATA/zip.test.gz" -o "$TMP/one.$f"
        for p in 1 2 4; do
            run --separate-stderr mpi "$p" transform -q "$TMP/m.h5" "$DATA/zip.test.gz" -o "$OUT/dist-$p.$f"
            assert_status 0
            cmp "$TMP/one.$f" "$OUT/dist-$p.$f" || fail "$f on $p ranks differs from kpca transform"
        done
    done
    # 6021 rows of CSV with named classes (a name with a comma, quoted): six blocks
    gzip -dc "$DATA/zip.test.gz" | awk 'BEGIN { split("zero|one|two|three|four|five|six|seven|eight|nine, last", w, "|") }
        { l = w[int($1) + 1]; if (l ~ /,/) l = "\"" l "\""; printf "%s", l; for (j = 2; j <= NF; j++) printf ",%s", $j; print "" }' \
        >"$TMP/one.csv.in"
    { printf 'label'; seq -f ',p%g' 256 | tr -d '\n'; echo; cat "$TMP/one.csv.in" "$TMP/one.csv.in" "$TMP/one.csv.in"; } \
        >"$TMP/named.csv"
    for f in csv h5 libsvm; do
        "$KPCA" transform -q "$TMP/m.h5" "$TMP/named.csv" -o "$TMP/one-named.$f" 2>/dev/null
        for p in 2 4; do
            run --separate-stderr mpi "$p" transform -q "$TMP/m.h5" "$TMP/named.csv" -o "$OUT/named-$p.$f"
            assert_status 0
            cmp "$TMP/one-named.$f" "$OUT/named-$p.$f" || fail "named classes to $f on $p ranks differ"
        done
    done
    test_npy
    for f in npy h5; do
        "$KPCA" transform -q "$TMP/mnpy.h5" "$TMP/test.npy" -o "$TMP/one-npy.$f"
        for p in 2 4; do
            run --separate-stderr mpi "$p" transform -q "$TMP/mnpy.h5" "$TMP/test.npy" -o "$OUT/npy-$p.$f"
            assert_status 0
            cmp "$TMP/one-npy.$f" "$OUT/npy-$p.$f" || fail ".npy input to $f on $p ranks differs"
        done
    done
    assert_no_tmp "$OUT"
}

@test "one rank that cannot read DATA stops every rank: a message naming the rank, exit 4, no model" {
    run --separate-stderr mpirun_t -n 2 "$KPCA_MPI" fit -k 5 "$TMP/fit.txt" -o "$OUT/m.h5" \
        : -n 1 "$KPCA_MPI" fit -k 5 "$TMP/missing.txt" -o "$OUT/m.h5"
    assert_status 4
    assert_stderr_contains "error: rank 2 of 3: cannot open '$TMP/missing.txt'"
    assert_no_output "$OUT/m.h5"
}

@test "one rank over its memory budget stops every rank before the kernel matrix: exit 6, no model" {
    # 1000 points: the last rank can read them within 3 MiB, not hold its
    # 500 x 500 blocks of K and of the eigenvectors (4 MiB)
    head_rows "$DATA/zip.train.gz" 1000 "$TMP/fit1000.txt"
    run --separate-stderr mpirun_t -n 3 "$KPCA_MPI" fit -k 5 "$TMP/fit1000.txt" -o "$OUT/m.h5" \
        : -n 1 "$KPCA_MPI" fit -k 5 --memory-limit 3M "$TMP/fit1000.txt" -o "$OUT/m.h5"
    assert_status 6
    assert_stderr_contains "error: rank 3 of 4: kernel PCA on 1000 points over 4 ranks (2 x 2 grid) needs about" \
        "more than the memory budget of 3.0 MiB"
    [[ "$stderr" != *"hint: the memory budget"* ]] || { show_run; fail "rank 0 hints at its own budget"; }
    assert_no_output "$OUT/m.h5"
}

@test "--eig elpa counts ELPA's own workspace in the budget: a limit that pdsyevr fits refuses ELPA, exit 6" {
    # 1000 points on a 2 x 2 grid: 500 x 500 local blocks (2 MiB each);
    # pdsyevr's estimate is about 7 MiB, ELPA's about 12 MiB
    head_rows "$DATA/zip.train.gz" 1000 "$TMP/fit1000.txt"
    run --separate-stderr mpi 4 fit -k 5 --memory-limit 10M "$TMP/fit1000.txt" -o "$OUT/ok.h5"
    assert_status 0
    run --separate-stderr mpi 4 fit -k 5 --eig elpa --memory-limit 10M "$TMP/fit1000.txt" -o "$OUT/m.h5"
    assert_status 6
    assert_stderr_contains "kernel PCA on 1000 points over 4 ranks (2 x 2 grid) needs about" \
        "more than the memory budget of 10.0 MiB"
    assert_no_output "$OUT/m.h5"
}

@test "kpca-mpi transform: one rank that cannot read DATA stops every rank, no features" {
    "$KPCA" fit -q -k 5 "$TMP/fit.txt" -o "$TMP/m.h5"
    run --separate-stderr mpirun_t -n 1 "$KPCA_MPI" transform "$TMP/m.h5" "$TMP/test.txt" \
        -o "$OUT/z.csv" : -n 1 "$KPCA_MPI" transform "$TMP/m.h5" "$TMP/nothere.txt" -o "$OUT/z.csv"
    assert_status 4
    assert_stderr_contains "error: rank 1 of 2: cannot open '$TMP/nothere.txt'"
    assert_no_output "$OUT/z.csv"
}

@test "kpca-mpi --version and help print once, from rank 0" {
    run --separate-stderr mpi 3 --version
    assert_status 0
    [ "$(grep -c '^kpca ' <<<"$output")" -eq 1 ] || { show_run; fail "expected one version line"; }
    run --separate-stderr mpi 2 help fit
    assert_status 0
    [ "$(grep -c '^usage: kpca fit' <<<"$output")" -eq 1 ] || { show_run; fail "expected one usage line"; }
}

@test "kpca-mpi: an unwritable output, a bad option and a non-distributed solver fail on every rank with one message" {
    run --separate-stderr mpi 2 fit -k 5 "$TMP/fit.txt" -o "$OUT/no/such/dir/m.h5"
    assert_failure
    assert_error_message
    [ "$(grep -c '^error:' <<<"$stderr")" -eq 1 ] || { show_run; fail "expected one error line"; }
    run --separate-stderr mpi 2 fit -k 5 --kernel nope "$TMP/fit.txt" -o "$OUT/m.h5"
    assert_status 2
    [ "$(grep -c '^error:' <<<"$stderr")" -eq 1 ] || { show_run; fail "expected one error line"; }
    run --separate-stderr mpi 2 fit -k 5 --solver randomized "$TMP/fit.txt" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "the distributed build runs the exact solver"
    assert_no_output "$OUT/m.h5"
}

@test "kpca-mpi: laplacian, cosine and chi2 give the single-process model; a precomputed kernel is refused, no model" {
    local kernel p
    # chi2 needs non-negative values: the pixels mapped from [-1, 1] onto [0, 1]
    for f in fit test; do
        awk '{ printf "%s", $1; for (i = 2; i <= NF; i++) printf " %.4f", ($i + 1) / 2; print "" }' "$TMP/$f.txt" \
            >"$TMP/$f.pos"
    done
    for kernel in "--kernel laplacian" "--kernel cosine" "--kernel chi2 --gamma 0.1"; do
        # shellcheck disable=SC2086
        "$KPCA" fit -q $kernel -k 9 "$TMP/fit.pos" -o "$TMP/one.h5"
        for p in 1 2; do
            # shellcheck disable=SC2086
            run --separate-stderr mpi "$p" fit -q $kernel -k 9 "$TMP/fit.pos" -o "$OUT/dist-$p.h5"
            assert_status 0
            same_eigenvalues "$TMP/one.h5" "$OUT/dist-$p.h5"
            cp "$TMP/test.pos" "$TMP/test.txt"
            same_projections "$TMP/one.h5" "$OUT/dist-$p.h5"
        done
    done
    awk '{ for (j = 1; j <= 40; j++) printf "%d%s", (NR == j) + 1, j < 40 ? "," : "\n" }' <(seq 40) >"$TMP/gram.csv"
    run --separate-stderr mpi 2 fit -k 5 --kernel precomputed --label none "$TMP/gram.csv" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "the distributed build computes its kernel matrix from points: run kpca on one machine"
    assert_no_output "$OUT/m.h5"
}

@test "kpca-mpi transform: a value one rank refuses stops every rank, no output and no part left" {
    test_npy
    # row 1900 (rank 3 of 4's rows) not finite: NaN, little-endian
    printf '\000\000\000\000\000\000\370\177' |
        dd of="$TMP/test.npy" bs=1 seek=$((128 + 1899 * 400)) conv=notrunc status=none
    local f
    for f in csv npy h5; do
        run --separate-stderr mpi 4 transform "$TMP/mnpy.h5" "$TMP/test.npy" -o "$OUT/z.$f"
        assert_status 3
        assert_stderr_contains "error: rank 3 of 4: '$TMP/test.npy': row 1900, column 1 is not a finite number"
        [ "$(grep -c '^error:' <<<"$stderr")" -eq 1 ] || { show_run; fail "expected one error line"; }
        assert_no_output "$OUT/z.$f"
    done
}

@test "kpca-mpi transform writes standard output on one rank only" {
    "$KPCA" fit -q -k 5 "$TMP/fit.txt" -o "$TMP/m.h5"
    "$KPCA" transform -q "$TMP/m.h5" "$TMP/test.txt" -f csv -o - >"$TMP/one.csv"
    mpi 1 transform -q "$TMP/m.h5" "$TMP/test.txt" -f csv -o - >"$OUT/dist.csv"
    cmp "$TMP/one.csv" "$OUT/dist.csv" || fail "one rank to standard output differs"
    run --separate-stderr mpi 2 transform -q "$TMP/m.h5" "$TMP/test.txt" -f csv -o -
    assert_status 2
    assert_stderr_contains "error: kpca-mpi on 2 ranks writes a file, not standard output: give -o FILE"
    [ -z "$output" ] || { show_run; fail "features on standard output"; }
}

# same_nystrom A.h5 B.h5: two Nyström models agree to 1e-10: landmarks and
# labels exactly, eigenvalues relative to the largest, colmean, trace and
# each component's alpha relative to their largest entry
same_nystrom() {
    "$PY" - "$1" "$2" <<'PYEOF' >&2 || fail "Nystrom models $1 and $2 differ"
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1], 'r'), h5py.File(sys.argv[2], 'r')
bad = [k for k in ('m', 'k', 'dim', 'fit_points', 'solver', 'input_lo', 'input_hi') if a.attrs[k] != b.attrs[k]]
bad += [k for k in ('fit_x', 'fit_y') if not np.array_equal(a[k][:], b[k][:])]
if not bad:
    ea, eb = a['eigenvalues'][:], b['eigenvalues'][:]
    if np.max(np.abs(ea - eb)) > 1e-10 * ea[0]: bad.append('eigenvalues')
    if abs(a.attrs['trace'] - b.attrs['trace']) > 1e-10 * a.attrs['trace']: bad.append('trace')
    if np.max(np.abs(a['colmean'][:] - b['colmean'][:])) > 1e-10 * np.max(np.abs(a['colmean'][:])): bad.append('colmean')
    aa, ab = a['alpha'][:], b['alpha'][:]
    rel = np.max(np.abs(aa - ab), axis=1) / np.max(np.abs(aa), axis=1)
    if rel.max() > 1e-10: bad.append('alpha of component %d by %g' % (rel.argmax() + 1, rel.max()))
print(' '.join(bad))
sys.exit(1 if bad else 0)
PYEOF
}

@test "kpca-mpi fit --solver nystrom on 1, 2 and 4 ranks is kpca fit's model, and kpca merge's of partial files" {
    "$PY" -c 'import h5py' 2>/dev/null || mpi_missing "no h5py in $PY"
    local kernel p
    for kernel in "-d 3" "--kernel rbf"; do
        # shellcheck disable=SC2086
        "$KPCA" fit -q $kernel --solver nystrom --landmarks 80 -k 12 "$TMP/fit.txt" -o "$TMP/one.h5"
        for p in 1 2 4; do
            # shellcheck disable=SC2086
            run --separate-stderr mpi "$p" fit $kernel --solver nystrom --landmarks 80 -k 12 "$TMP/fit.txt" \
                -o "$OUT/nys-$p.h5"
            assert_status 0
            [ "$(grep -c '^fit: 300 of 300 points' <<<"$stderr")" -eq 1 ] || { show_run; fail "more than one rank printed"; }
            same_nystrom "$TMP/one.h5" "$OUT/nys-$p.h5"
        done
        for p in 0 1 2; do
            # shellcheck disable=SC2086
            "$KPCA" fit -q $kernel --solver nystrom --landmarks 80 -k 12 --partial --rows "$p/3" "$TMP/fit.txt" \
                -o "$TMP/part$p"
        done
        "$KPCA" merge -q "$TMP"/part? -o "$OUT/merged.h5"
        same_nystrom "$OUT/nys-4.h5" "$OUT/merged.h5"
        rm -f "$OUT/merged.h5"
    done
}

@test "kpca-mpi fit --solver nystrom: a rank that cannot read DATA, or its budget, stops every rank; --partial is refused" {
    run --separate-stderr mpirun_t -n 2 "$KPCA_MPI" fit --solver nystrom --landmarks 50 "$TMP/fit.txt" -o "$OUT/m.h5" \
        : -n 1 "$KPCA_MPI" fit --solver nystrom --landmarks 50 "$TMP/missing.txt" -o "$OUT/m.h5"
    assert_status 4
    assert_stderr_contains "error: rank 2 of 3: cannot open '$TMP/missing.txt'"
    assert_no_output "$OUT/m.h5"
    run --separate-stderr mpirun_t -n 1 "$KPCA_MPI" fit --solver nystrom --landmarks 200 "$TMP/fit.txt" -o "$OUT/m.h5" \
        : -n 1 "$KPCA_MPI" fit --solver nystrom --landmarks 200 --memory-limit 1M "$TMP/fit.txt" -o "$OUT/m.h5"
    assert_status 6
    assert_stderr_contains "error: rank 1 of 2: Nystrom kernel PCA with 200 landmarks" "more than the memory budget"
    assert_no_output "$OUT/m.h5"
    run --separate-stderr mpi 2 fit --solver nystrom --landmarks 50 --partial "$TMP/fit.txt" -o "$OUT/p.part"
    assert_status 2
    assert_stderr_contains "option '--partial' applies to kpca fit --solver nystrom, on one process"
    [ "$(grep -c '^error:' <<<"$stderr")" -eq 1 ] || { show_run; fail "expected one error line"; }
    assert_no_output "$OUT/p.part"
}

# parts_csv FILE ROWS: CSV with a header, 8 values and a label column of
# class names, one of them ("late one") first met in the last tenth, so that
# its code is the whole file's order, not a rank's
parts_csv() {
    awk -v n="$2" 'BEGIN { srand(5); split("setosa|\"versi, color\"|virginica", w, "|")
        printf "label"; for (j = 1; j <= 8; j++) printf ",v%d", j; print ""
        for (i = 0; i < n; i++) {
            l = (i >= n - n / 10 && i % 3 == 0) ? "late one" : w[int(rand() * 3) + 1]
            printf "%s", l; for (j = 1; j <= 8; j++) printf ",%.6f", rand(); print "" } }' >"$1"
}

@test "kpca-mpi cuts a text file into one part a rank: the model is kpca fit's and the features kpca transform's bytes" {
    "$PY" -c 'import h5py' 2>/dev/null || mpi_missing "no h5py in $PY"
    parts_csv "$TMP/parts.csv" 9000
    head_rows "$DATA/zip.train.gz" 3000 "$TMP/parts.txt"
    local data f p
    for data in "$TMP/parts.csv" "$TMP/parts.txt"; do
        rm -f "$TMP"/one.h5 "$TMP"/feat.* "$OUT"/*
        "$KPCA" fit -q --kernel rbf --solver nystrom --landmarks 60 -k 6 "$data" -o "$TMP/one.h5"
        for f in csv h5 libsvm; do
            "$KPCA" transform -q "$TMP/one.h5" "$data" -o "$TMP/feat.$f" 2>/dev/null
        done
        for p in 2 3 4; do
            run --separate-stderr mpi "$p" fit -q --kernel rbf --solver nystrom --landmarks 60 -k 6 "$data" \
                -o "$OUT/nys-$p.h5"
            assert_status 0
            same_nystrom "$TMP/one.h5" "$OUT/nys-$p.h5"
            for f in csv h5 libsvm; do
                run --separate-stderr mpi "$p" transform -q "$TMP/one.h5" "$data" -o "$OUT/z-$p.$f"
                assert_status 0
                cmp "$TMP/feat.$f" "$OUT/z-$p.$f" || fail "$data to $f on $p ranks differs from kpca transform"
            done
        done
        [ "$data" != "$TMP/parts.csv" ] || grep -q '^late one,' "$OUT/z-4.csv" || fail "no class 'late one' in the features"
    done
    assert_no_tmp "$OUT"
}

@test "kpca-mpi reads a text file a part a rank: no rank reads the whole file (strace), each about 3/P of it" {
    command -v strace >/dev/null || mpi_missing "no strace: 'make deps' installs it"
    # 120000 rows of 32 values, no labels: about 32 MB
    awk 'BEGIN { srand(9); printf "v1"; for (j = 2; j <= 32; j++) printf ",v%d", j; print ""
        for (i = 0; i < 120000; i++) { printf "%.6f", rand(); for (j = 2; j <= 32; j++) printf ",%.6f", rand(); print "" } }' \
        >"$TMP/big.csv"
    local size p=4 f
    size=$(stat -c %s "$TMP/big.csv")
    "$KPCA" fit -q --solver nystrom --landmarks 40 -k 4 --subset 5000 --sample first "$TMP/big.csv" -o "$TMP/m.h5"
    "$KPCA" transform -q "$TMP/m.h5" "$TMP/big.csv" -o "$TMP/one.npy"
    mkdir "$TMP/trace"
    # a trace a rank, its threads' reads in it (the parts of a window are
    # each read by a thread of its own: src/lib/io/csvpart.c)
    run --separate-stderr mpirun_t -n "$p" sh -c 'exec strace -f -y -e trace=read,pread64 -o "$0/t.$$" "$@"' \
        "$TMP/trace" "$KPCA_MPI" transform -q "$TMP/m.h5" "$TMP/big.csv" -o "$OUT/z.npy"
    assert_status 0
    cmp "$TMP/one.npy" "$OUT/z.npy" || fail "features on $p ranks differ from kpca transform"
    # the bytes of big.csv each rank read: its part counted, parsed and
    # projected, the file's head (64 KiB, and as much again to sniff the
    # format), and a window (4 MiB: src/lib/io/csvwin.c) past its part
    local ranks=0 bytes
    for f in "$TMP"/trace/t.*; do
        # (a call two threads make at once is cut in two lines: "pread64(3</...big.csv>, ...
        # <unfinished ...>", then "<... pread64 resumed> ...) = N" without the path)
        bytes=$(awk -v csv="$TMP/big.csv>" '
            / resumed>/ { if (open[$1]) s += $NF; open[$1] = 0; next }
            index($0, csv) && /<unfinished/ { open[$1] = 1; next }
            index($0, csv) && $NF + 0 > 0 { s += $NF }
            END { print s + 0 }' "$f")
        [ "$bytes" -gt 0 ] || continue
        ranks=$((ranks + 1))
        [ "$bytes" -le $((3 * size / p + 4 * 1048576 + 256 * 1024)) ] ||
            fail "a rank read $bytes bytes of a $size-byte file: more than 3/$p of it, 4 MiB and 256 KiB"
    done
    [ "$ranks" -eq "$p" ] || fail "$ranks processes read the file, expected $p"
}

@test "kpca-mpi on a text file in parts: the first bad row is the whole file's, on its line; a quoted line break is read right" {
    parts_csv "$TMP/parts.csv" 4000
    awk 'NR == 3701 { $0 = "setosa,1,2,3,oops,5,6,7,8" } { print }' "$TMP/parts.csv" >"$TMP/bad.csv"
    awk 'NR == 3801 { sub(/^[^,]*/, "") } { print }' "$TMP/parts.csv" >"$TMP/nolabel.csv"
    local data want cmd
    "$KPCA" fit -q --solver nystrom --landmarks 30 -k 3 "$TMP/parts.csv" -o "$TMP/m.h5"
    for data in bad nolabel; do
        run --separate-stderr "$KPCA" fit --solver nystrom --landmarks 30 -k 3 "$TMP/$data.csv" -o "$OUT/m.h5"
        [ "$status" -eq 3 ] || { show_run; fail "kpca fit took $data.csv"; }
        want="${stderr%%$'\n'*}"
        want="${want#error: }"
        for cmd in "fit --solver nystrom --landmarks 30 -k 3 $TMP/$data.csv -o $OUT/m.h5" \
            "transform $TMP/m.h5 $TMP/$data.csv -o $OUT/z.csv"; do
            # shellcheck disable=SC2086
            run --separate-stderr mpi 4 $cmd
            assert_status 3
            assert_stderr_contains "$want"
            [ "$(grep -c '^error:' <<<"$stderr")" -eq 1 ] || { show_run; fail "expected one error line"; }
        done
        assert_no_output "$OUT/m.h5"
        assert_no_output "$OUT/z.csv"
    done
    # a class name in quotes with 400 line breaks across the middle of the
    # file: no cut there; the file is read whole by each rank, and right
    { head -n 40 "$TMP/parts.csv"; printf '"a name'; seq 400 | tr -dc '\n'; echo '",1,2,3,4,5,6,7,8'
      sed -n '41,80p' "$TMP/parts.csv"; } >"$TMP/quoted.csv"
    "$KPCA" fit -q --solver nystrom --landmarks 30 -k 3 "$TMP/quoted.csv" -o "$TMP/one.h5"
    "$KPCA" transform -q "$TMP/one.h5" "$TMP/quoted.csv" -o "$TMP/one.csv"
    run --separate-stderr mpi 2 fit -q --solver nystrom --landmarks 30 -k 3 "$TMP/quoted.csv" -o "$OUT/m.h5"
    assert_status 0
    same_eigenvalues "$TMP/one.h5" "$OUT/m.h5"
    run --separate-stderr mpi 3 transform -q "$TMP/one.h5" "$TMP/quoted.csv" -o "$OUT/z.csv"
    assert_status 0
    cmp "$TMP/one.csv" "$OUT/z.csv" || fail "a quoted line break: features on 3 ranks differ"
    # ranks that see different files stop, naming both sizes, before any cut
    rm -f "$OUT/z.csv"
    head -n 2000 "$TMP/parts.csv" >"$TMP/short.csv"
    run --separate-stderr mpirun_t -n 1 "$KPCA_MPI" transform -q "$TMP/m.h5" "$TMP/parts.csv" -o "$OUT/z.csv" \
        : -n 1 "$KPCA_MPI" transform -q "$TMP/m.h5" "$TMP/short.csv" -o "$OUT/z.csv"
    assert_status 2
    assert_stderr_contains "is not the same file for every process (process 1 reads it in parts, of" \
        "give every process the same DATA"
    assert_no_output "$OUT/z.csv"
}

@test "kpca-mpi reads text in bzip2, xz and zstd whole on each rank, as gzip: the features and the model of the gzip file" {
    parts_csv "$TMP/c.csv" 3000
    gzip -c "$TMP/c.csv" >"$TMP/c.gz"
    "$KPCA" fit -q --solver nystrom --landmarks 30 -k 4 "$TMP/c.csv" -o "$TMP/one.h5"
    "$KPCA" transform -q "$TMP/one.h5" "$TMP/c.csv" -o "$TMP/want.csv"
    run --separate-stderr mpi 2 fit -q --solver nystrom --landmarks 30 -k 4 "$TMP/c.gz" -o "$TMP/gz.h5"
    assert_status 0
    "$KPCA" transform -q "$TMP/gz.h5" "$TMP/c.csv" -o "$TMP/gz.csv"
    local c
    for c in "bzip2 -c" "xz -c" "zstd -q -c"; do
        command -v "${c%% *}" >/dev/null || mpi_missing "no ${c%% *} ('make deps' installs it)"
        $c "$TMP/c.csv" >"$TMP/c.packed"
        run --separate-stderr mpi 2 transform -q "$TMP/one.h5" "$TMP/c.packed" -o "$OUT/z.csv"
        assert_status 0
        cmp "$TMP/want.csv" "$OUT/z.csv" || fail "${c%% *}: features on 2 ranks differ from kpca transform's"
        run --separate-stderr mpi 2 fit -q --solver nystrom --landmarks 30 -k 4 "$TMP/c.packed" -o "$OUT/m.h5"
        assert_status 0
        "$KPCA" transform -q "$OUT/m.h5" "$TMP/c.csv" -o "$OUT/m.csv"
        cmp "$TMP/gz.csv" "$OUT/m.csv" || fail "${c%% *}: the model on 2 ranks is not the gzip file's"
    done
}

@test "kpca-mpi -v: every rank prints its passes' reading and computing times, ranks past 0 named" {
    parts_csv "$TMP/v.csv" 4000
    run --separate-stderr mpi 2 fit -q -v --solver nystrom --landmarks 20 -k 3 "$TMP/v.csv" -o "$OUT/m.h5"
    assert_status 0
    local r
    for r in "kpca fit" "kpca fit (rank 1)"; do
        printf '%s\n' "$stderr" | grep -q "^$r: timing *[0-9.]* s accumulate: read$" ||
            { show_run; fail "no accumulate pass timing from '$r'"; }
        printf '%s\n' "$stderr" | grep -q "^$r: timing *[0-9.]* s total$" || { show_run; fail "no total from '$r'"; }
    done
}

@test "kpca-mpi --skip-rows on 2 and 3 ranks: the preamble skipped before the parts are cut, the model and features of the file without it" {
    "$PY" -c 'import h5py' 2>/dev/null || mpi_missing "no h5py in $PY"
    parts_csv "$TMP/body.csv" 6000
    { printf '6000,8,setosa,"versi, color",virginica\n# a second preamble line, "quoted\n'; cat "$TMP/body.csv"; } \
        >"$TMP/pre.csv"
    "$KPCA" fit -q --kernel rbf --solver nystrom --landmarks 40 -k 4 "$TMP/body.csv" -o "$TMP/one.h5"
    "$KPCA" transform -q "$TMP/one.h5" "$TMP/body.csv" -o "$TMP/feat.csv"
    local p
    for p in 2 3; do
        run --separate-stderr mpi "$p" fit -q --kernel rbf --solver nystrom --landmarks 40 -k 4 --skip-rows 2 \
            "$TMP/pre.csv" -o "$OUT/nys-$p.h5"
        assert_status 0
        same_nystrom "$TMP/one.h5" "$OUT/nys-$p.h5"
        run --separate-stderr mpi "$p" transform -q --skip-rows 2 "$TMP/one.h5" "$TMP/pre.csv" -o "$OUT/z-$p.csv"
        assert_status 0
        cmp "$TMP/feat.csv" "$OUT/z-$p.csv" || fail "features on $p ranks differ from those of the file without its preamble"
    done
    # whitespace text without --label: ESL's parts start after the preamble, labels guessed as without it
    head_rows "$DATA/zip.test.gz" 300 "$TMP/t.txt"
    { printf 'USPS test digits\n"1 2 3\n'; cat "$TMP/t.txt"; } >"$TMP/pre.txt"
    "$KPCA" fit -q -k 3 "$TMP/t.txt" -o "$TMP/e.h5"
    "$KPCA" transform -q "$TMP/e.h5" "$TMP/t.txt" -o "$TMP/ewant.csv"
    for p in 2 3; do
        run --separate-stderr mpi "$p" transform -q --skip-rows 2 "$TMP/e.h5" "$TMP/pre.txt" -o "$OUT/e-$p.csv"
        assert_status 0
        cmp "$TMP/ewant.csv" "$OUT/e-$p.csv" || fail "whitespace text on $p ranks: not the features of the file without its preamble"
    done
    # a bad row's line is the file's own, on every rank count
    sed '3000s/,0\./,x./' "$TMP/pre.csv" >"$TMP/bad.csv"
    run --separate-stderr mpi 2 transform -q --skip-rows 2 "$TMP/one.h5" "$TMP/bad.csv" -o "$OUT/bad.csv"
    assert_failure
    assert_stderr_contains "line 3000"
    assert_no_output "$OUT/bad.csv"
}
