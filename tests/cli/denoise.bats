#!/usr/bin/env bats
# denoise.bats - kpca denoise: pre-images from K components, seeded noise,
# the error report, output formats, determinism, errors, no partial output.

load ../helper

setup_file() {
    local d k
    d="$(file_tmp)"
    k="${KPCA:-$BATS_TEST_DIRNAME/../../build/kpca}"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.train.gz" | head -n 200 >"$d/fit.txt"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.test.gz" | head -n 30 >"$d/test.txt"
    "$k" fit -q --kernel rbf -m 200 -k 40 "$d/fit.txt" -o "$d/rbf.h5"
    "$k" fit -q --kernel linear -m 200 -k 40 "$d/fit.txt" -o "$d/lin.h5"
    "$k" fit -q -d 2 -m 200 -k 40 "$d/fit.txt" -o "$d/poly.h5"
}

setup() {
    common_setup
    FIX="$(file_tmp)"
    TEST="$FIX/test.txt"
    [ -s "$FIX/rbf.h5" ] || fail "setup_file could not fit the models"
}

# denoise_fails STATUS ARGS...: exit STATUS, an error message, no output
denoise_fails() {
    local want="$1"
    shift
    run --separate-stderr "$KPCA" denoise -q "$@" -o "$OUT/z.csv" --noisy-output "$OUT/n.csv" --csv "$OUT/t.csv"
    assert_status "$want"
    assert_error_message
    assert_no_output "$OUT/z.csv"
    assert_no_output "$OUT/n.csv"
    assert_no_output "$OUT/t.csv"
}

@test "denoise: pre-images in every format, labels and pixels kept, errors reported" {
    run --separate-stderr "$KPCA" denoise "$FIX/rbf.h5" "$TEST" -k 20 --noise 0.5 --seed 3 -o "$OUT/z.csv" \
        --noisy-output "$OUT/n.svm" --csv "$OUT/t.csv"
    assert_status 0
    assert_stderr_contains "denoise: 30 points from 20 components" "mean squared error to the clean data: noisy"
    [ "$(head -n 1 "$OUT/z.csv" | tr ',' '\n' | wc -l)" -eq 257 ] || fail "expected label + 256 columns"
    head -n 1 "$OUT/z.csv" | grep -q '^label,x1,x2,' || fail "CSV header: $(head -c 40 "$OUT/z.csv")"
    [ "$(wc -l <"$OUT/z.csv")" -eq 31 ]
    # labels are the input's
    diff <(cut -d, -f1 "$OUT/z.csv" | tail -n +2) <(awk '{ printf "%d\n", $1 }' "$TEST") || fail "labels differ"
    [ "$(wc -l <"$OUT/n.svm")" -eq 30 ]
    # the table: denoising lowered the error
    run awk -F, 'NR == 2 { print ($8 < $7) ? "lower" : "higher" }' "$OUT/t.csv"
    [ "$output" = lower ] || { cat "$OUT/t.csv"; fail "pre-images no closer to the clean digits"; }
    head -n 1 "$OUT/t.csv" | grep -q '^model,components,points,dim,noise,seed,mse_input,mse_preimage,' || fail "table header"
    # HDF5 and LIBSVM give the same numbers; the HDF5 file reads back as data
    "$KPCA" denoise -q "$FIX/rbf.h5" "$TEST" -k 20 --noise 0.5 --seed 3 -o "$OUT/z.h5"
    "$KPCA" denoise -q "$FIX/rbf.h5" "$TEST" -k 20 --noise 0.5 --seed 3 -o "$OUT/z.svm"
    "$KPCA" transform -q "$FIX/rbf.h5" "$OUT/z.h5" -o "$OUT/f1.svm"
    "$KPCA" transform -q "$FIX/rbf.h5" "$OUT/z.svm" -o "$OUT/f2.svm"
    cmp "$OUT/f1.svm" "$OUT/f2.svm" || fail "HDF5 and LIBSVM pre-images differ"
    if have_h5py; then
        run "$PY" -c 'import h5py, sys; f = h5py.File(sys.argv[1]); a = f.attrs["format"]; print(a.decode() if isinstance(a, bytes) else a, f["data"].shape, f["target"].shape)' "$OUT/z.h5"
        [ "$output" = "kpca-preimages (30, 256) (30,)" ] || fail "h5py: $output"
    fi
    # stdout
    run --separate-stderr "$KPCA" denoise -q "$FIX/rbf.h5" "$TEST" -k 20 -o - -f csv
    assert_status 0
    [ "$(printf '%s\n' "$output" | wc -l)" -eq 31 ]
}

@test "denoise: the linear kernel reconstructs exactly with every component, without noise" {
    "$KPCA" fit -q --kernel linear "$TEST" -o "$OUT/lin30.h5"
    k=$("$KPCA" info "$OUT/lin30.h5" | awk '$1 == "components" { print $2 }')
    run --separate-stderr "$KPCA" denoise "$OUT/lin30.h5" "$TEST" -k "$k" -o "$OUT/z.csv" --csv "$OUT/t.csv"
    assert_status 0
    assert_stderr_contains "mean squared error to the input"
    run awk -F, 'NR == 2 { print ($8 < 1e-20) ? "exact" : $8 }' "$OUT/t.csv"
    [ "$output" = exact ] || fail "linear, all components: mse $output"
}

@test "denoise: poly and linear models work; kernel PCA and PCA both lower the error" {
    local m
    for m in poly lin; do
        run --separate-stderr "$KPCA" denoise "$FIX/$m.h5" "$TEST" -k 20 --noise 0.5 -o "$OUT/$m.svm" --csv "$OUT/$m.csv"
        assert_status 0
        run awk -F, 'NR == 2 { print ($8 < $7 && $13 == 0 && $14 == 0) ? "ok" : $0 }' "$OUT/$m.csv"
        [ "$output" = ok ] || fail "$m: $output"
    done
}

@test "denoise: the same seed gives identical bytes, another seed other noise" {
    local f
    for f in a b; do
        "$KPCA" denoise -q "$FIX/rbf.h5" "$TEST" -k 10 --noise 0.3 --seed 7 -o "$OUT/$f.h5" --noisy-output "$OUT/$f.n.csv"
    done
    cmp "$OUT/a.h5" "$OUT/b.h5" || fail "pre-images differ between runs"
    cmp "$OUT/a.n.csv" "$OUT/b.n.csv" || fail "noise differs between runs"
    "$KPCA" denoise -q "$FIX/rbf.h5" "$TEST" -k 10 --noise 0.3 --seed 8 -o "$OUT/c.h5" --noisy-output "$OUT/c.n.csv"
    ! cmp -s "$OUT/a.n.csv" "$OUT/c.n.csv" || fail "seeds 7 and 8 gave the same noise"
}

@test "denoise: errors exit with the documented code and leave no output" {
    denoise_fails 2 "$FIX/rbf.h5" "$TEST" -k 41
    assert_stderr_contains "has 40 components: cannot reconstruct from 41"
    denoise_fails 2 "$FIX/rbf.h5" "$TEST" -k 0
    denoise_fails 2 "$FIX/rbf.h5" "$TEST" -k 5 --noise -1
    assert_stderr_contains "--noise"
    denoise_fails 2 "$FIX/rbf.h5" "$TEST" -k 5 --noise abc
    denoise_fails 2 "$FIX/rbf.h5" "$TEST" -k 5 --max-iter 0
    denoise_fails 2 "$FIX/rbf.h5" "$TEST" -k 5 --tol 0
    denoise_fails 2 "$FIX/rbf.h5" "$TEST" -k 5 -f esl
    denoise_fails 4 "$FIX/rbf.h5" "$TMP/missing.txt" -k 5
    denoise_fails 4 "$TMP/missing.h5" "$TEST" -k 5
    # dimension mismatch: 10 values per point
    awk '{ s = $1; for (i = 2; i <= 11; i++) s = s " " $i; print s }' "$TEST" >"$TMP/narrow.txt"
    denoise_fails 3 "$FIX/rbf.h5" "$TMP/narrow.txt" -k 5
    assert_stderr_contains "'$TMP/narrow.txt' has 10 values per point but the model"
    # a data file is not a model
    denoise_fails 3 "$TEST" "$TEST" -k 5
    # missing -k or -o
    run --separate-stderr "$KPCA" denoise "$FIX/rbf.h5" "$TEST" -o "$OUT/z.csv"
    assert_status 2
    assert_stderr_contains "-k K"
    assert_no_output "$OUT/z.csv"
    run --separate-stderr "$KPCA" denoise "$FIX/rbf.h5" "$TEST" -k 3
    assert_status 2
    assert_stderr_contains "-o OUT"
}

@test "denoise: an unwritable output fails with exit 4 and leaves no file" {
    run --separate-stderr "$KPCA" denoise -q "$FIX/rbf.h5" "$TEST" -k 5 -o "$TMP/nodir/z.csv"
    assert_status 4
    assert_error_message
    run --separate-stderr "$KPCA" denoise -q "$FIX/rbf.h5" "$TEST" -k 5 -o /dev/full -f csv
    assert_status 4
}

@test "denoise refuses a Nystrom model (its points are landmarks): exit 2, no output" {
    head_rows "$DATA/zip.train.gz" 200 "$TMP/fit200.txt"
    run --separate-stderr "$KPCA" fit -q -d 2 -k 5 --solver nystrom --landmarks 40 "$TMP/fit200.txt" -o "$TMP/ny.h5"
    assert_status 0
    run --separate-stderr "$KPCA" denoise -q -k 5 "$TMP/ny.h5" "$TMP/fit200.txt" -o "$OUT/z.h5"
    assert_status 2
    assert_stderr_contains "pre-images need a model of the exact or randomized solver" "nystrom uniform l=40"
    assert_no_output "$OUT/z.h5"
}
