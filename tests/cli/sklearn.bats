#!/usr/bin/env bats
# sklearn.bats - kpca's features against scikit-learn's KernelPCA
# (tests/ref/sklearn_ref.py, run with Debian's /usr/bin/python3, which
# reads the USPS text files itself): every component agrees up to sign
# within 1e-6 of its largest value, on the M fit rows and 500 test rows.

load ../helper

REF="$BATS_TEST_DIRNAME/../ref/sklearn_ref.py"

setup() {
    common_setup
    [ -x "$PY" ] || skip "no $PY (Debian's python3 with python3-sklearn)"
    "$PY" -c 'import sklearn, h5py, numpy' 2>/dev/null ||
        skip "$PY cannot import sklearn, h5py and numpy (Debian packages python3-sklearn, python3-h5py)"
    [ -r "$REF" ] || fail "no $REF"
}

# features D M K: fit on the first M training rows, features of those rows
# and of the first 500 test rows in $TMP/train.h5 and $TMP/test.h5
features() {
    kfeatures "$2" "$3" -d "$1"
}

# compare D M K: runs the reference script, prints its report
compare() {
    run "$PY" "$REF" --data "$DATA" -d "$1" -m "$2" -k "$3" "$TMP/train.h5" "$TMP/test.h5"
    printf '%s\n' "$output" >&2
    # the worst difference in bats' own output
    printf '%s\n' "$output" | grep '^worst' | sed "s/^/# d=$1 m=$2 k=$3: /" >&3 || true
}

@test "sklearn KernelPCA agrees: degree 2, M = 1000, k = 20" {
    features 2 1000 20
    compare 2 1000 20
    assert_status 0
    assert_stdout_contains "worst relative difference"
}

@test "sklearn KernelPCA agrees: degree 3, M = 1000, k = 20" {
    features 3 1000 20
    compare 3 1000 20
    assert_status 0
    assert_stdout_contains "worst relative difference"
}

@test "sklearn KernelPCA agrees: degree 1 (linear), M = 1000, k = 20" {
    features 1 1000 20
    compare 1 1000 20
    assert_status 0
    assert_stdout_contains "worst relative difference"
}

@test "sklearn KernelPCA agrees: degree 4, M = 300, k = 40" {
    features 4 300 40
    compare 4 300 40
    assert_status 0
}

# kfeatures M K FIT-OPTIONS...: the same with any fit options (another kernel)
kfeatures() {
    local m=$1 k=$2
    shift 2
    head_rows "$DATA/zip.train.gz" "$m" "$TMP/train.txt"
    head_rows "$DATA/zip.test.gz" 500 "$TMP/test.txt"
    run --separate-stderr "$KPCA" fit -q "$@" -m "$m" --sample first -k "$k" "$DATA/zip.train.gz" -o "$TMP/model.h5"
    assert_status 0
    run --separate-stderr "$KPCA" transform -q "$TMP/model.h5" "$TMP/train.txt" -o "$TMP/train.h5"
    assert_status 0
    run --separate-stderr "$KPCA" transform -q "$TMP/model.h5" "$TMP/test.txt" -o "$TMP/test.h5"
    assert_status 0
}

# kcompare M K REF-OPTIONS...
kcompare() {
    local m=$1 k=$2
    shift 2
    run "$PY" "$REF" --data "$DATA" "$@" -m "$m" -k "$k" "$TMP/train.h5" "$TMP/test.h5"
    printf '%s\n' "$output" >&2
    printf '%s\n' "$output" | grep '^worst' | sed "s/^/# $* m=$m k=$k: /" >&3 || true
}

@test "sklearn KernelPCA agrees: rbf with the default sigma (read back from the model), M = 800, k = 20" {
    kfeatures 800 20 --kernel rbf
    sigma=$("$KPCA" info "$TMP/model.h5" | awk '$1 == "sigma" { print $2 }')
    [ -n "$sigma" ] || fail "kpca info prints no sigma"
    kcompare 800 20 --kernel rbf --sigma "$sigma"
    assert_status 0
    assert_stdout_contains "worst relative difference"
}

@test "sklearn KernelPCA agrees: rbf, sigma 4, M = 500, k = 15" {
    kfeatures 500 15 --kernel rbf --sigma 4
    kcompare 500 15 --kernel rbf --sigma 4
    assert_status 0
}

@test "sklearn KernelPCA agrees: sigmoid, gamma 0.002, coef0 -0.5, M = 600, k = 10" {
    kfeatures 600 10 --kernel sigmoid --gamma 0.002 --coef0 -0.5
    kcompare 600 10 --kernel sigmoid --gamma 0.002 --coef0 -0.5
    assert_status 0
}

@test "sklearn KernelPCA agrees: linear, M = 600, k = 20; and inhomogeneous poly (0.01 x.y + 1)^3" {
    kfeatures 600 20 --kernel linear
    kcompare 600 20 --kernel linear
    assert_status 0
    kfeatures 600 20 -d 3 --gamma 0.01 --coef0 1
    kcompare 600 20 -d 3 --gamma 0.01 --coef0 1
    assert_status 0
}

@test "the rbf reference check can fail: sigma 4 features against a sigma 5 reference" {
    kfeatures 300 10 --kernel rbf --sigma 4
    kcompare 300 10 --kernel rbf --sigma 5
    assert_status 1
    assert_stdout_contains "FAIL"
}

@test "the reference check can fail: degree-2 features against a degree-3 reference" {
    features 2 300 10
    compare 3 300 10
    assert_status 1
    assert_stdout_contains "FAIL" "per component"
}
