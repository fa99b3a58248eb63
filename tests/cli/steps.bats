#!/usr/bin/env bats
# steps.bats - the input steps fit gives its data (--input-range, --round,
# as --smooth and --standardize) are recorded in the model (version 5) and
# given to every input of transform and denoise without the options: the
# Kaggle usps.h5's test set projected through its training set's model is
# what it was with the options repeated; another value is refused; a model
# fit without them takes them for a file on another scale; a version-4
# model (tests/ref/model-v4) records none and takes the options given.

load ../helper

setup() {
    common_setup
    [ -f "$DATA/usps.h5" ] || skip "no $DATA/usps.h5 (make data)"
    "$KPCA" fit -q -d 3 -k 16 -m 400 --input-range 0,1 --round 3 "$DATA/usps.h5:train" -o "$TMP/m.h5"
}

@test "a model fit with --input-range 0,1 --round 3 records them: transform without them gives the features with them, no warning" {
    run --separate-stderr "$KPCA" info "$TMP/m.h5"
    assert_status 0
    assert_stdout_contains "version 5" "input_range 0,1" "round 3"
    run --separate-stderr "$KPCA" transform -q "$TMP/m.h5" "$DATA/usps.h5:test" -o "$OUT/bare.csv"
    assert_status 0
    [[ "$stderr" != *warning* ]] || { show_run; fail "a warning: the model's range was not applied"; }
    run --separate-stderr "$KPCA" transform -q --input-range 0,1 --round 3 "$TMP/m.h5" "$DATA/usps.h5:test" \
        -o "$OUT/given.csv"
    assert_status 0
    cmp "$OUT/bare.csv" "$OUT/given.csv" || fail "the model's steps are not the options' steps"
}

@test "another --input-range or --round for a model that records its own: exit 2 naming both, no output; the same values pass" {
    run --separate-stderr "$KPCA" transform -q --input-range 0,255 "$TMP/m.h5" "$DATA/usps.h5:test" -o "$OUT/z.csv"
    assert_status 2
    assert_stderr_contains "option '--input-range': the model '$TMP/m.h5' maps its inputs from 0,1, not 0,255"
    assert_no_output "$OUT/z.csv"
    run --separate-stderr "$KPCA" transform -q --round 2 "$TMP/m.h5" "$DATA/usps.h5:test" -o "$OUT/z.csv"
    assert_status 2
    assert_stderr_contains "option '--round': the model '$TMP/m.h5' rounds its inputs to 3 decimals, not 2"
    assert_no_output "$OUT/z.csv"
    "$PY" -c 'import h5py, numpy as np
with h5py.File("'"$DATA"'/usps.h5", "r") as f:
    np.savetxt("'"$TMP"'/t.txt", np.asarray(f["test/data"])[:20], fmt="%.3f")'
    run --separate-stderr "$KPCA" denoise -q -k 8 --input-range 0,2 "$TMP/m.h5" "$TMP/t.txt" -o "$OUT/d.csv"
    assert_status 2
    assert_stderr_contains "maps its inputs from 0,1, not 0,2"
    assert_no_output "$OUT/d.csv"
    run --separate-stderr "$KPCA" denoise -q -k 8 "$TMP/m.h5" "$TMP/t.txt" -o "$OUT/d.csv"
    assert_status 0
}

@test "a model fit without --input-range takes one for a file on another scale: the ESL digits' model and usps.h5" {
    head_rows "$DATA/zip.train.gz" 400 "$TMP/train.txt"
    "$KPCA" fit -q -d 3 -k 16 "$TMP/train.txt" -o "$TMP/esl.h5"
    run --separate-stderr "$KPCA" info "$TMP/esl.h5"
    assert_stdout_contains "input_range none" "round none"
    run --separate-stderr "$KPCA" transform -q --input-range 0,1 --round 3 "$TMP/esl.h5" "$DATA/usps.h5:test" \
        -o "$OUT/z.csv"
    assert_status 0
    [[ "$stderr" != *warning* ]] || { show_run; fail "a warning for a file mapped onto the model's scale"; }
}

@test "a version-4 model records no steps: info says unknown, and transform applies the options given" {
    local v4="$BATS_TEST_DIRNAME/../ref/model-v4/ranged.h5"
    run --separate-stderr "$KPCA" info "$v4"
    assert_stdout_contains "version 4" "input_range unknown" "round unknown"
    gzip -dc "$DATA/zip.test.gz" | head -n 30 |
        awk '{ printf "%s", $1; for (i = 2; i <= NF; i++) printf " %.3f", ($i + 1) / 2; print "" }' >"$TMP/t01.txt"
    run --separate-stderr "$KPCA" transform -q --input-range 0,1 --round 3 "$v4" "$TMP/t01.txt" -o "$OUT/a.csv"
    assert_status 0
    [[ "$stderr" != *warning* ]] || { show_run; fail "a warning with the options given"; }
    run --separate-stderr "$KPCA" transform -q "$v4" "$TMP/t01.txt" -o "$OUT/b.csv"
    assert_status 0
    assert_stderr_contains "warning:" "--input-range"
}
