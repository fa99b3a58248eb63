#!/usr/bin/env bats
# labels.bats - kpca eval with labels other than 0..9 (1..10, -1/+1), and
# test labels that the training set lacks (a warning) or a test set that
# shares no label with it (an error).  Features are relabelled with awk in
# LIBSVM form, whose labels are any integers.

load ../helper

setup() {
    common_setup
    head_rows "$DATA/zip.train.gz" 400 "$TMP/train.txt"
    gzip -dc "$DATA/zip.test.gz" | head -n 300 >"$TMP/test.txt"
    "$KPCA" fit -q -d 3 -m 400 -k 16 "$TMP/train.txt" -o "$TMP/m.h5"
    "$KPCA" transform -q "$TMP/m.h5" "$TMP/train.txt" -o "$TMP/tr.svm"
    "$KPCA" transform -q "$TMP/m.h5" "$TMP/test.txt" -o "$TMP/te.svm"
}

# relabel IN OUT AWK-EXPR: each line's label $1 replaced by AWK-EXPR of it
relabel() {
    awk "{ \$1 = $3; print }" "$1" >"$2"
}

@test "eval: labels 1..10 give the errors of 0..9, and predictions one higher" {
    relabel "$TMP/tr.svm" "$TMP/tr10.svm" '$1 + 1'
    relabel "$TMP/te.svm" "$TMP/te10.svm" '$1 + 1'
    for clf in svm lda; do
        "$KPCA" eval -q -k 8,16 --classifier $clf "$TMP/tr.svm" "$TMP/te.svm" --predictions "$TMP/p0" >"$TMP/t0"
        run --separate-stderr "$KPCA" eval -q -k 8,16 --classifier $clf "$TMP/tr10.svm" "$TMP/te10.svm" \
            --predictions "$TMP/p1"
        assert_status 0
        [ -z "$stderr" ] || { show_run; fail "$clf: a message for labels 1..10"; }
        [ "$output" = "$(cat "$TMP/t0")" ] || { show_run; fail "$clf: another table for labels 1..10"; }
        awk '{ print $1 + 1, $2 + 1 }' "$TMP/p0" | cmp -s - "$TMP/p1" || fail "$clf: predictions not shifted by one"
        grep -q '^10 ' "$TMP/p1" || fail "$clf: label 10 never predicted"
    done
}

@test "eval: -1/+1 labels work like two digits" {
    awk '$1 == 3 || $1 == 8' "$TMP/tr.svm" >"$TMP/tr38.svm"
    awk '$1 == 3 || $1 == 8' "$TMP/te.svm" >"$TMP/te38.svm"
    relabel "$TMP/tr38.svm" "$TMP/trpm.svm" '($1 == 3 ? -1 : 1)'
    relabel "$TMP/te38.svm" "$TMP/tepm.svm" '($1 == 3 ? -1 : 1)'
    for clf in svm lda; do
        "$KPCA" eval -q -k 16 --classifier $clf "$TMP/tr38.svm" "$TMP/te38.svm" --predictions "$TMP/p38" >"$TMP/t38"
        run --separate-stderr "$KPCA" eval -q -k 16 --classifier $clf "$TMP/trpm.svm" "$TMP/tepm.svm" \
            --predictions "$TMP/ppm"
        assert_status 0
        [ "$output" = "$(cat "$TMP/t38")" ] || { show_run; fail "$clf: another table for -1/+1"; }
        awk '{ print ($1 == 3 ? -1 : 1) }' "$TMP/p38" | cmp -s - "$TMP/ppm" || fail "$clf: other predictions for -1/+1"
    done
}

@test "eval: test labels that training lacks are named in a warning and count as errors" {
    awk '$1 != 7 && $1 != 9' "$TMP/tr.svm" >"$TMP/tr79.svm"
    local n79
    n79=$(awk '$1 == 7 || $1 == 9' "$TMP/te.svm" | wc -l)
    [ "$n79" -gt 0 ] || skip "no 7 or 9 among the test points"
    run --separate-stderr "$KPCA" eval -q -k 16 "$TMP/tr79.svm" "$TMP/te.svm"
    assert_status 0
    assert_stderr_contains "warning: test labels 7, 9 of '$TMP/te.svm' do not occur in '$TMP/tr79.svm'" \
        "($n79) count as errors"
    # each such point is an error: at least n79 of them
    local errors
    errors=$(awk '$1 == 16 { print $3 }' <<<"$output")
    [ "$errors" -ge "$n79" ] || { show_run; fail "$errors errors, fewer than the $n79 unseen points"; }
    # -q does not silence it; all labels known: no warning
    run --separate-stderr "$KPCA" eval -q -k 16 "$TMP/tr.svm" "$TMP/te.svm"
    [[ "$stderr" != *warning* ]] || { show_run; fail "a warning with every label known"; }
}

@test "eval: train and test sharing no label is an error (exit 3), no output" {
    awk '$1 <= 4' "$TMP/tr.svm" >"$TMP/tr04.svm"
    awk '$1 >= 5' "$TMP/te.svm" >"$TMP/te59.svm"
    run --separate-stderr "$KPCA" eval -k 16 "$TMP/tr04.svm" "$TMP/te59.svm" --csv "$OUT/t.csv"
    assert_status 3
    assert_error_names "$TMP/tr04.svm"
    assert_stderr_contains "share no label" "'$TMP/te59.svm'" "training labels 0, 1, 2, 3, 4"
    [ -z "$output" ] || { show_run; fail "a table on stdout"; }
    assert_no_output "$OUT/t.csv"
}
