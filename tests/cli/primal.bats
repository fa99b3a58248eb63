#!/usr/bin/env bats
# primal.bats - kpca fit of a linear or degree-1 kernel with fewer values per
# point than fit points goes through the D x D covariance; --no-primal keeps
# the M x M kernel matrix; both give the same projections.  kpca transform
# of such a model multiplies the points by the D x K primal weights (-v:
# "primal weights"); its --no-primal keeps the kernel rows; the same features.

load ../helper

setup() {
    common_setup
    head_rows "$DATA/zip.train.gz" 400 "$TMP/fit.txt"
    head_rows "$DATA/zip.test.gz" 150 "$TMP/new.txt"
}

# compare A.csv B.csv: the largest |a - b| over the components, relative to
# the largest |b|, is at most 1e-10; the labels and the shapes are equal
compare() {
    awk -F, 'FNR == NR { n1 = FNR; f1 = NF; for (j = 1; j <= NF; j++) a[FNR, j] = $j; next }
        FNR == 1 { if (NF != f1) { print "columns " f1 " vs " NF; exit 1 } next }
        { if ($1 != a[FNR, 1]) { print "label of row " FNR; exit 1 }
          for (j = 2; j <= NF; j++) { d = a[FNR, j] - $j; d = d < 0 ? -d : d; if (d > dev) dev = d
                                      x = $j < 0 ? -$j : $j; if (x > big) big = x } }
        END { if (FNR != n1) { print "rows " n1 " vs " FNR; exit 1 }
              if (!(big > 0) || dev > 1e-10 * big) { print "projections differ by " dev " (largest " big ")"; exit 1 } }' \
        "$1" "$2"
}

@test "fit -d 1: the covariance path and --no-primal give the same kept count, eigenvalues and projections" {
    run --separate-stderr "$KPCA" fit -d 1 -k 300 "$TMP/fit.txt" -o "$TMP/p.h5"
    assert_status 0
    assert_stderr_contains "kept 256 of 300 components" "exact evd primal"
    run --separate-stderr "$KPCA" fit -d 1 -k 300 --no-primal "$TMP/fit.txt" -o "$TMP/k.h5"
    assert_status 0
    assert_stderr_contains "kept 256 of 300 components"
    [[ "$stderr" != *primal* ]] || fail "--no-primal took the covariance path: $stderr"
    [ "$("$KPCA" info "$TMP/p.h5" | awk '$1 == "solver"')" = "solver exact evd primal" ] || fail "info: solver"
    [ "$("$KPCA" info "$TMP/k.h5" | awk '$1 == "solver"')" = "solver exact evd" ] || fail "info: solver"
    # everything info prints but the solver: equal up to rounding
    "$KPCA" info "$TMP/p.h5" | grep -v '^solver' >"$TMP/p.info"
    "$KPCA" info "$TMP/k.h5" | grep -v '^solver' >"$TMP/k.info"
    awk 'FNR == NR { line[FNR] = $0; next }
        $0 != line[FNR] { split(line[FNR], a, " ")
            if (a[1] != $1 || NF != 2 || $2 !~ /^[-+.0-9eE]+$/ || (a[2] - $2) ^ 2 > 1e-20 * $2 ^ 2) {
                print "info: " line[FNR] " vs " $0; bad = 1 } }
        END { exit bad }' "$TMP/p.info" "$TMP/k.info" || fail "info differs"
    "$KPCA" spectrum --csv "$TMP/p.csv" "$TMP/p.h5" >/dev/null
    "$KPCA" spectrum --csv "$TMP/k.csv" "$TMP/k.h5" >/dev/null
    compare "$TMP/p.csv" "$TMP/k.csv" || fail "spectra differ"
    for m in p k; do
        "$KPCA" transform -q "$TMP/$m.h5" "$TMP/new.txt" -o "$TMP/$m.new.csv"
        "$KPCA" transform -q "$TMP/$m.h5" "$TMP/fit.txt" -o "$TMP/$m.fit.csv"
    done
    compare "$TMP/p.new.csv" "$TMP/k.new.csv" || fail "projections of new digits differ"
    compare "$TMP/p.fit.csv" "$TMP/k.fit.csv" || fail "projections of the fit digits differ"
}

@test "fit --kernel linear, --components FRACTION: both paths keep the same components" {
    for opt in "" --no-primal; do
        # shellcheck disable=SC2086 # "" is no option
        run --separate-stderr "$KPCA" fit --kernel linear -k 0.9 $opt "$TMP/fit.txt" -o "$TMP/m$opt.h5"
        assert_status 0
        "$KPCA" transform -q "$TMP/m$opt.h5" "$TMP/new.txt" -o "$TMP/z$opt.csv"
    done
    [ "$(head -n 1 "$TMP/z.csv")" = "$(head -n 1 "$TMP/z--no-primal.csv")" ] || fail "kept counts differ"
    compare "$TMP/z.csv" "$TMP/z--no-primal.csv" || fail "projections differ"
}

@test "fit: the covariance path only where it gives the kernel matrix's model" {
    # D >= M, an offset, degree 2, rbf: the kernel matrix
    head_rows "$DATA/zip.train.gz" 200 "$TMP/small.txt"
    for args in "-d 1 -k 5 $TMP/small.txt" "-d 1 --coef0 1 -k 5 $TMP/fit.txt" "-d 2 -k 5 $TMP/fit.txt" \
        "--kernel rbf -k 5 $TMP/fit.txt" "-d 1 -k 5 --solver randomized $TMP/fit.txt"; do
        # shellcheck disable=SC2086
        run --separate-stderr "$KPCA" fit $args -o "$TMP/m.h5"
        assert_status 0
        [[ "$stderr" != *primal* ]] || fail "covariance path for: $args"
    done
    # --gamma: still gamma x.y
    run --separate-stderr "$KPCA" fit -d 1 --gamma 0.5 -k 5 "$TMP/fit.txt" -o "$TMP/m.h5"
    assert_status 0
    assert_stderr_contains "primal"
}

@test "fit --no-primal belongs to the exact solver" {
    run --separate-stderr "$KPCA" fit -d 1 -k 5 --solver randomized --no-primal "$TMP/fit.txt" -o "$TMP/m.h5"
    assert_failure
    assert_error_message
    assert_stderr_contains "'--no-primal' does not apply to --solver randomized"
    assert_no_output "$TMP/m.h5"
    run --separate-stderr "$KPCA" fit --help
    assert_status 0
    [[ "$output" == *"--no-primal"* ]] || fail "--help lacks --no-primal"
}

@test "fit -d 1 --precision single: the covariance path solves in double and the model says so" {
    run --separate-stderr "$KPCA" fit -d 1 -k 300 --precision single "$TMP/fit.txt" -o "$TMP/s.h5"
    assert_status 0
    assert_stderr_contains "exact evd primal"
    [ "$("$KPCA" info "$TMP/s.h5" | awk '$1 == "precision" { print $2 }')" = double ] ||
        fail "a primal fit recorded a precision it did not use"
    run --separate-stderr "$KPCA" fit -d 1 -k 300 --precision single --no-primal "$TMP/fit.txt" -o "$TMP/s2.h5"
    assert_status 0
    [ "$("$KPCA" info "$TMP/s2.h5" | awk '$1 == "precision" { print $2 }')" = single ] ||
        fail "--no-primal --precision single recorded another precision"
}

# transform -v MODEL DATA OUT [OPTION...]: the features in OUT; fails unless
# the primal weights were computed exactly when no --no-primal is given
transform_path() {
    local model=$1 data=$2 out=$3
    shift 3
    run --separate-stderr "$KPCA" transform -v "$@" "$model" "$data" -o "$out"
    assert_status 0
    if [[ " $* " == *" --no-primal "* ]]; then
        [[ "$stderr" != *"primal weights"* ]] || fail "--no-primal computed the primal weights: $stderr"
    else
        assert_stderr_contains "primal weights"
    fi
}

@test "transform of a gamma x.y model: the primal weights and --no-primal's kernel rows give the same features" {
    "$KPCA" fit -q -d 1 -k 300 "$TMP/fit.txt" -o "$TMP/p.h5"
    "$KPCA" fit -q -d 1 --gamma 0.5 -k 20 --solver nystrom --landmarks 300 "$TMP/fit.txt" -o "$TMP/ny.h5"
    "$KPCA" fit -q --kernel linear -k 20 --smooth 0.8 "$TMP/fit.txt" -o "$TMP/sm.h5"
    # new digits, then fit digits (an exact model copies their features)
    cat "$TMP/new.txt" "$TMP/fit.txt" >"$TMP/mix.txt"
    for m in p ny sm; do
        for k in "" "-k 7"; do
            # shellcheck disable=SC2086 # "" is no option
            transform_path "$TMP/$m.h5" "$TMP/mix.txt" "$TMP/a.csv" $k
            # shellcheck disable=SC2086
            transform_path "$TMP/$m.h5" "$TMP/mix.txt" "$TMP/b.csv" $k --no-primal
            compare "$TMP/a.csv" "$TMP/b.csv" || fail "$m $k: the paths differ"
        done
    done
    # --precision single: the primal weights stay double, the kernel rows do not
    transform_path "$TMP/p.h5" "$TMP/new.txt" "$TMP/d.csv"
    transform_path "$TMP/p.h5" "$TMP/new.txt" "$TMP/s.csv" --precision single
    cmp "$TMP/d.csv" "$TMP/s.csv" || fail "--precision single changed the primal features"
    transform_path "$TMP/p.h5" "$TMP/new.txt" "$TMP/s.csv" --precision single --no-primal
    ! cmp -s "$TMP/d.csv" "$TMP/s.csv" || fail "--precision single --no-primal gave the double features"
}

@test "transform: the kernel rows where the primal weights do not apply; --no-primal is then a no-op" {
    head_rows "$DATA/zip.train.gz" 200 "$TMP/small.txt"
    for args in "-d 2 -k 5 $TMP/fit.txt" "-d 1 --coef0 1 -k 5 $TMP/fit.txt" "-d 1 -k 5 $TMP/small.txt"; do
        # shellcheck disable=SC2086
        "$KPCA" fit -q $args -o "$TMP/m.h5"
        run --separate-stderr "$KPCA" transform -v "$TMP/m.h5" "$TMP/new.txt" -o "$TMP/a.csv"
        assert_status 0
        [[ "$stderr" != *"primal weights"* ]] || fail "primal weights for: $args"
        "$KPCA" transform -q --no-primal "$TMP/m.h5" "$TMP/new.txt" -o "$TMP/b.csv"
        cmp "$TMP/a.csv" "$TMP/b.csv" || fail "--no-primal changed the features of: $args"
    done
    run --separate-stderr "$KPCA" transform --help
    assert_status 0
    [[ "$output" == *"--no-primal"* ]] || fail "--help lacks --no-primal"
}

@test "fit -d 1 --tol 0: the kernel matrix, whose rounding-noise eigenvalues past rank D only it has" {
    run --separate-stderr "$KPCA" fit -d 1 -k 300 --tol 0 "$TMP/fit.txt" -o "$TMP/t0.h5"
    assert_status 0
    [[ "$stderr" != *primal* ]] || fail "an explicit --tol took the D x D fit: $stderr"
    local k
    k=$("$KPCA" info "$TMP/t0.h5" | awk '$1 == "components" { print $2 }')
    [ "$k" -gt 256 ] || fail "--tol 0 kept $k components: no rounding-noise ones past the 256 pixels"
}
