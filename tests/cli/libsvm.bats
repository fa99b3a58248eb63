#!/usr/bin/env bats
# libsvm.bats - interoperability with LIBSVM's own tools: features written
# by kpca transform in LIBSVM format, trained with Debian's svm-train -t 0
# (linear kernel, C = 1, one-vs-one) and tested with svm-predict, make as
# many test errors as `kpca eval --scale none` with either backend.
#
# 32 components of a -d 2 -m 500 model; the first 2000 training rows (on
# all 7291 unscaled rows LIBSVM reaches its iteration limit and each
# training takes half a minute).

load ../helper

SVM_TRAIN=/usr/bin/svm-train
SVM_PREDICT=/usr/bin/svm-predict

setup_file() {
    local d k="${KPCA:-$BATS_TEST_DIRNAME/../../build/kpca}"
    d="$(file_tmp)"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.train.gz" | head -n 2000 >"$d/train.txt"
    "$k" fit -q -d 2 -m 500 -k 32 "$BATS_TEST_DIRNAME/../../data/zip.train.gz" -o "$d/model.h5"
    "$k" transform -q "$d/model.h5" "$d/train.txt" -o "$d/train.svm"
    "$k" transform -q "$d/model.h5" "$BATS_TEST_DIRNAME/../../data/zip.test.gz" -o "$d/test.svm"
}

setup() {
    common_setup
    FIX="$(file_tmp)"
    [ -s "$FIX/test.svm" ] || fail "setup_file could not make the features"
}

# libsvm_errors: trains and predicts with LIBSVM's tools, prints the number
# of test errors from svm-predict's "Accuracy = x% (a/b)"
libsvm_errors() {
    "$SVM_TRAIN" -q -s 0 -t 0 -c 1 "$FIX/train.svm" "$TMP/svm.model" >&2
    "$SVM_PREDICT" "$FIX/test.svm" "$TMP/svm.model" "$TMP/pred.txt" >"$TMP/predict.out"
    cat "$TMP/predict.out" >&2
    sed -n 's/^Accuracy = [0-9.]*% (\([0-9]*\)\/\([0-9]*\)).*/\1 \2/p' "$TMP/predict.out" |
        awk 'NF == 2 { print $2 - $1; found = 1 } END { exit !found }'
}

@test "LIBSVM's svm-train/svm-predict on kpca's LIBSVM features: as many errors as kpca eval --scale none" {
    [ -x "$SVM_TRAIN" ] && [ -x "$SVM_PREDICT" ] || skip "no $SVM_TRAIN / $SVM_PREDICT (Debian package libsvm-tools)"
    local want
    want="$(libsvm_errors)" || fail "could not read svm-predict's accuracy line"
    [ "$(wc -l <"$TMP/pred.txt")" -eq 2007 ]
    echo "svm-train/svm-predict: $want errors of 2007" >&2

    run --separate-stderr "$KPCA" eval -q -c 1 --backend sparse --scale none "$FIX/train.svm" "$FIX/test.svm"
    assert_status 0
    printf '%s\n' "$output" >&2
    [ "$(table_errors 32)" = "$want" ] || fail "kpca eval --backend sparse: $(table_errors 32) errors, LIBSVM: $want"

    run --separate-stderr "$KPCA" eval -q -c 1 --scale none "$FIX/train.svm" "$FIX/test.svm"
    assert_status 0
    printf '%s\n' "$output" >&2
    [ "$(table_errors 32)" = "$want" ] || fail "kpca eval (gram): $(table_errors 32) errors, LIBSVM: $want"
}

@test "svm-train accepts kpca's LIBSVM features" {
    [ -x "$SVM_TRAIN" ] || skip "no $SVM_TRAIN (Debian package libsvm-tools)"
    # LIBSVM's own parser exits non-zero on a line it cannot read
    run "$SVM_TRAIN" -q -t 0 -v 2 "$FIX/test.svm" "$TMP/cv.model"
    assert_status 0
    [[ "$output" == *"Cross Validation Accuracy"* ]] || { show_run; fail "no cross-validation result"; }
}

@test "eval reads sparse LIBSVM lines: a left-out index is a zero" {
    # every even index but the last left out, and the same values written as 0
    awk '{ printf "%s", $1; for (c = 2; c <= NF; c++) if (c % 2 == 0 || c == NF) printf " %s", $c; print "" }' \
        "$FIX/test.svm" >"$TMP/sparse.svm"
    awk '{ printf "%s", $1; for (c = 2; c <= NF; c++) { split($c, p, ":"); printf " %s:%s", p[1], (c % 2 == 0 || c == NF) ? p[2] : "0" } print "" }' \
        "$FIX/test.svm" >"$TMP/zeros.svm"
    run --separate-stderr "$KPCA" eval -q -k 8,32 "$FIX/train.svm" "$TMP/zeros.svm"
    assert_status 0
    local dense="$output"
    run --separate-stderr "$KPCA" eval -q -k 8,32 "$FIX/train.svm" "$TMP/sparse.svm"
    assert_status 0
    [ "$output" = "$dense" ]
}

@test "eval: a LIBSVM TEST file whose last feature is zero throughout takes TRAIN's dimension" {
    # LIBSVM files do not state their dimension: svm-predict reads a test
    # file whose highest index is below the training file's as is
    awk '{ NF = NF - 1; print }' "$FIX/test.svm" >"$TMP/short.svm"
    run --separate-stderr "$KPCA" eval -q -k 8 "$FIX/train.svm" "$TMP/short.svm"
    assert_status 0
    [ "$(table_errors 8 | wc -l)" -eq 1 ]
}

# libsvm_pixels ESL OUT [keep-last]: the rows of ESL as LIBSVM data in
# [0,1] ((x+1)/2, as in usps.h5), zeros left out as LIBSVM tools write
# them; with keep-last the 256th pixel is always written
libsvm_pixels() {
    awk -v keep="${3:-}" '{
        printf "%s", $1
        for (c = 2; c <= NF; c++) { v = ($c + 1) / 2; if (v != 0 || (keep != "" && c == NF)) printf " %d:%.6g", c - 1, v }
        print ""
    }' "$1" >"$2"
}

# background_rows OUT: 100 test rows whose last pixel is background (-1)
background_rows() {
    gzip -dc "$DATA/zip.test.gz" | awk '$257 + 0 == -1' | head -n 100 >"$1"
    [ "$(wc -l <"$1")" -eq 100 ]
}

@test "transform reads pixels in LIBSVM format ([0,1], zeros left out): the ESL features exactly" {
    background_rows "$TMP/rows.txt"
    libsvm_pixels "$TMP/rows.txt" "$TMP/rows.svm" keep-last
    "$KPCA" transform -q "$FIX/model.h5" "$TMP/rows.txt" -o "$TMP/esl.svm"
    run --separate-stderr "$KPCA" transform -q --input-range 0,1 --round 3 "$FIX/model.h5" "$TMP/rows.svm" -o "$OUT/z.svm"
    assert_status 0
    cmp "$TMP/esl.svm" "$OUT/z.svm"
}

@test "transform: LIBSVM pixels whose last pixels are zero in every row take the model's dimension" {
    # the highest index in the file is 254: a LIBSVM file does not state its
    # dimension, the model does (256)
    background_rows "$TMP/rows.txt"
    libsvm_pixels "$TMP/rows.txt" "$TMP/rows.svm"
    "$KPCA" transform -q "$FIX/model.h5" "$TMP/rows.txt" -o "$TMP/esl.svm"
    run --separate-stderr "$KPCA" transform -q --input-range 0,1 --round 3 "$FIX/model.h5" "$TMP/rows.svm" -o "$OUT/z.svm"
    assert_status 0
    cmp "$TMP/esl.svm" "$OUT/z.svm"
}

@test "SVMlight comments (scikit-learn's dump_svmlight_file(comment=...), '# ...' after a line's values) are skipped; query ids are refused by name" {
    "$PY" - "$TMP" <<'PYEOF'
import sys
import numpy as np
from sklearn.datasets import dump_svmlight_file
rng = np.random.default_rng(0)
X = rng.normal(size=(30, 5))
X[X < 0.3] = 0
y = rng.integers(0, 3, 30)
d = sys.argv[1]
dump_svmlight_file(X, y, d + '/plain.svm', zero_based=False)
dump_svmlight_file(X, y, d + '/comment.svm', zero_based=False, comment='made by a test, with: a colon\nand a second line')
dump_svmlight_file(X, y, d + '/qid.svm', zero_based=False, query_id=np.arange(30) // 10)
PYEOF
    grep -q '^# made by a test' "$TMP/comment.svm" || fail "scikit-learn wrote no comment"
    sed '3s/$/ # a comment after the values/' "$TMP/plain.svm" >"$TMP/tail.svm"
    # a first line with a comma or semicolon, or twenty without a colon, do not make it CSV or ESL
    { printf '# made by hand; with a comma, and no colon\n'; for i in $(seq 20); do echo '#'; done; cat "$TMP/plain.svm"; } >"$TMP/first.svm"
    "$KPCA" fit -q -d 2 -k 3 "$TMP/plain.svm" -o "$OUT/m.h5"
    "$KPCA" transform -q "$OUT/m.h5" "$TMP/plain.svm" -o "$OUT/want.csv"
    local f
    for f in comment tail first; do
        run --separate-stderr "$KPCA" fit -d 2 -k 3 "$TMP/$f.svm" -o "$OUT/$f.h5"
        assert_status 0
        assert_stderr_contains "30 of 30 points x 5 values"
        "$KPCA" transform -q "$OUT/$f.h5" "$TMP/$f.svm" -o "$OUT/$f.csv"
        cmp "$OUT/want.csv" "$OUT/$f.csv" || fail "$f.svm: not the features of the file without comments"
    done
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/qid.svm" -o "$OUT/q.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/qid.svm' line 1: 'qid:0' is a query id (SVMlight's ranking data), not a feature: kpca reads none; sed 's/ qid:[^ ]*//' removes them"
    assert_no_output "$OUT/q.h5"
}

@test "scikit-learn's zero-based indices (dump_svmlight_file's default) and multi-label points: refused by name everywhere, no output; the awk the message gives reads as the one-based dump" {
    "$PY" - "$TMP" <<'PYEOF'
import sys
import numpy as np
from sklearn.datasets import dump_svmlight_file
rng = np.random.default_rng(1)
X = rng.normal(size=(30, 5))
X[X < 0.3] = 0
X[:, 0] = 1.0
y = rng.integers(0, 3, 30)
d = sys.argv[1]
dump_svmlight_file(X, y, d + '/one.svm', zero_based=False)
dump_svmlight_file(X, y, d + '/zero.svm', comment='zero-based, as scikit-learn writes by default')
dump_svmlight_file(X, np.eye(3, dtype=int)[y] | np.eye(3, dtype=int)[(y + 1) % 3], d + '/multi.svm', multilabel=True,
                   zero_based=False)
Y = np.eye(3, dtype=int)[y]
Y[4] = 0
dump_svmlight_file(X, Y, d + '/none.svm', multilabel=True, zero_based=False)
PYEOF
    grep -q '^[0-9]* 0:' "$TMP/zero.svm" || fail "scikit-learn wrote no index 0"
    grep -q '^[0-9],[0-9] ' "$TMP/multi.svm" || fail "scikit-learn wrote no multi-label line"
    "$KPCA" fit -q -k 1 -d 1 "$TMP/one.svm" -o "$TMP/plain.h5"
    local first
    first=$(grep -n -m1 '^[0-9]* 0:' "$TMP/zero.svm" | cut -d: -f1)
    refused_everywhere "$TMP/zero.svm" "'$TMP/zero.svm' line $first: index 0 ('0:1'): LIBSVM's indices start at 1, and scikit-learn's dump_svmlight_file writes them from 0 unless given zero_based=False"
    refused_everywhere "$TMP/multi.svm" "'$TMP/multi.svm' line 1: the labels '"
    assert_stderr_contains "' of a multi-label point (scikit-learn's dump_svmlight_file(multilabel=True) writes them so): kpca takes one label a point"
    sed '1s/$/ # a comment, with; marks/' "$TMP/multi.svm" >"$TMP/multic.svm"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/multic.svm" -o "$OUT/mc.h5"
    assert_status 3
    assert_stderr_contains "' of a multi-label point (scikit-learn's dump_svmlight_file(multilabel=True) writes them so)"
    sed -n 5p "$TMP/none.svm" | grep -q '^ 1:1 ' || fail "scikit-learn wrote no point of no class on line 5"
    refused_everywhere "$TMP/none.svm" "'$TMP/none.svm' line 5: expected an integer label, found the pair '1:1': a point without a label (multi-label data writes a point of no class so)? kpca takes one label a point"
    # the way out the message names, run as it stands
    run --separate-stderr "$KPCA" fit -k 2 -d 2 "$TMP/zero.svm" -o "$OUT/m.h5"
    local fix=${stderr#*add 1 to every index of the (uncompressed) text with: }
    [ "$fix" != "$stderr" ] || fail "no command in: $stderr"
    eval "$fix" '"$TMP/zero.svm"' >"$TMP/fixed.svm"
    "$KPCA" fit -q -k 2 -d 2 "$TMP/one.svm" -o "$OUT/one.h5"
    "$KPCA" fit -q -k 2 -d 2 "$TMP/fixed.svm" -o "$OUT/fixed.h5"
    "$KPCA" transform -q "$OUT/one.h5" "$TMP/one.svm" -o "$OUT/one.csv"
    "$KPCA" transform -q "$OUT/fixed.h5" "$TMP/fixed.svm" -o "$OUT/fixed.csv"
    cmp "$OUT/one.csv" "$OUT/fixed.csv" || fail "the fixed file reads not as the one-based dump"
}
