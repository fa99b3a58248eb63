#!/usr/bin/env bats
# predictions.bats - kpca eval --predictions: a line per test point, a
# column per --components value; with one value, the file svm-predict
# writes (and the same labels as svm-predict on kpca's LIBSVM features);
# written all or nothing, never over an input.
#
# Small data: 16 components of a -d 2 -m 300 model, 1000 training rows.

load ../helper

SVM_TRAIN=/usr/bin/svm-train
SVM_PREDICT=/usr/bin/svm-predict

setup_file() {
    local d k="${KPCA:-$BATS_TEST_DIRNAME/../../build/kpca}"
    d="$(file_tmp)"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.train.gz" | head -n 1000 >"$d/train.txt"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.test.gz" | head -n 500 >"$d/test.txt"
    "$k" fit -q -d 2 -m 300 -k 16 "$d/train.txt" -o "$d/model.h5"
    "$k" transform -q "$d/model.h5" "$d/train.txt" -o "$d/train.svm"
    "$k" transform -q "$d/model.h5" "$d/test.txt" -o "$d/test.svm"
}

setup() {
    common_setup
    FIX="$(file_tmp)"
    [ -s "$FIX/test.svm" ] || fail "setup_file could not make the features"
}

@test "eval --predictions: a line per test point, a column per prefix in -k's order, errors as the table counts them" {
    run --separate-stderr "$KPCA" eval -q -k 16,4 "$FIX/train.svm" "$FIX/test.svm" --predictions "$OUT/pred.txt"
    assert_status 0
    [ "$(wc -l <"$OUT/pred.txt")" -eq 500 ] || fail "$(wc -l <"$OUT/pred.txt") lines, want 500"
    awk 'NF != 2 || $1 !~ /^[0-9]$/ || $2 !~ /^[0-9]$/ { bad = 1 } END { exit bad }' "$OUT/pred.txt" ||
        fail "a line is not two digit labels"
    local col k want got
    for col in 1 2; do
        k=$([ $col = 1 ] && echo 16 || echo 4)
        want="$(table_errors $k)"
        got="$(cut -d' ' -f1 "$FIX/test.txt" | awk '{ printf "%d\n", $1 }' | paste -d' ' - "$OUT/pred.txt" |
            awk -v c=$((col + 1)) '$1 != $c { e++ } END { print e + 0 }')"
        [ "$got" = "$want" ] || fail "column $col (k = $k): $got errors against the labels, the table says $want"
    done
    # the two prefixes are different classifiers: their columns differ somewhere
    awk '$1 != $2 { d = 1 } END { exit !d }' "$OUT/pred.txt" || fail "columns for 16 and 4 components identical"
}

@test "eval --predictions with one prefix: svm-predict's file, the same labels as svm-train/svm-predict" {
    [ -x "$SVM_TRAIN" ] && [ -x "$SVM_PREDICT" ] || skip "no $SVM_TRAIN / $SVM_PREDICT (Debian package libsvm-tools)"
    "$SVM_TRAIN" -q -s 0 -t 0 -c 1 "$FIX/train.svm" "$TMP/svm.model"
    "$SVM_PREDICT" "$FIX/test.svm" "$TMP/svm.model" "$TMP/libsvm.pred" >/dev/null
    run --separate-stderr "$KPCA" eval -q -c 1 --backend sparse --scale none "$FIX/train.svm" "$FIX/test.svm" \
        --predictions "$OUT/kpca.pred"
    assert_status 0
    # the same solver, parameters and data: byte for byte the same file
    local differ
    differ=$(paste -d' ' "$TMP/libsvm.pred" "$OUT/kpca.pred" | awk '$1 != $2 { n++ } END { print n + 0 }')
    cmp -s "$TMP/libsvm.pred" "$OUT/kpca.pred" || fail "not svm-predict's file: $differ of 500 labels differ"
}

@test "eval --predictions refuses to overwrite an input, through a link too; nothing written" {
    cp "$FIX/test.svm" "$TMP/test.svm"
    ln -s "$TMP/test.svm" "$TMP/link.svm"
    local before
    before=$(cksum <"$TMP/test.svm")
    run --separate-stderr "$KPCA" eval -q -k 4 "$FIX/train.svm" "$TMP/test.svm" --predictions "$TMP/link.svm" \
        --csv "$OUT/t.csv"
    assert_status 2
    assert_error_message
    assert_stderr_contains "$TMP/link.svm" "is the same file as the input" "destroy"
    [ "$(cksum <"$TMP/test.svm")" = "$before" ] || fail "the input changed"
    assert_no_output "$OUT/t.csv"
    run --separate-stderr "$KPCA" eval -q -k 4 "$FIX/train.svm" "$TMP/test.svm" --csv "$TMP/test.svm"
    assert_status 2
    assert_stderr_contains "$TMP/test.svm" "is also an input" "destroy"
    [ "$(cksum <"$TMP/test.svm")" = "$before" ] || fail "the input changed"
}

@test "eval --predictions is all or nothing with the tables" {
    [ -w /dev/full ] || skip "no /dev/full"
    # a table that cannot be written: no predictions file
    run --separate-stderr "$KPCA" eval -q -k 4 "$FIX/train.svm" "$FIX/test.svm" --predictions "$OUT/p.txt" \
        --csv /dev/full
    assert_failure
    assert_error_message
    assert_no_output "$OUT/p.txt"
    # predictions that cannot be written: no table
    run --separate-stderr "$KPCA" eval -q -k 4 "$FIX/train.svm" "$FIX/test.svm" --predictions /dev/full \
        --csv "$OUT/t.csv"
    assert_failure
    assert_error_message
    assert_no_output "$OUT/t.csv"
}

@test "eval --predictions - goes to standard output alone; with a table there too it is refused" {
    run --separate-stderr "$KPCA" eval -q -k 4,8 "$FIX/train.svm" "$FIX/test.svm" --predictions -
    assert_status 0
    [ "$(printf '%s\n' "$output" | wc -l)" -eq 500 ] || fail "stdout is not the 500 prediction lines"
    run --separate-stderr "$KPCA" eval -q -k 4 "$FIX/train.svm" "$FIX/test.svm" --predictions - --csv -
    assert_status 2
    assert_error_message
    assert_stderr_contains "standard output"
}
