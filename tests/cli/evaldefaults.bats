#!/usr/bin/env bats
# evaldefaults.bats - kpca eval's defaults are the headline protocol
# (one-vs-one, --scale norm, C = 10): --help and the man page show them,
# --print-defaults prints them as options, scripts/lib.sh's headline_eval
# asks for them, and an eval without the options is byte for byte the eval
# with them written out.
#
# Small data: 16 components of a -d 2 -m 300 model, 1000 training rows.

load ../helper

setup_file() {
    local d k="${KPCA:-$BATS_TEST_DIRNAME/../../build/kpca}"
    d="$(file_tmp)"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.train.gz" | head -n 1000 >"$d/train.txt"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.test.gz" | head -n 500 >"$d/test.txt"
    "$k" fit -q -d 2 -m 300 -k 16 "$d/train.txt" -o "$d/model.h5"
    "$k" transform -q "$d/model.h5" "$d/train.txt" -o "$d/train.h5"
    "$k" transform -q "$d/model.h5" "$d/test.txt" -o "$d/test.h5"
}

setup() {
    common_setup
    FIX="$(file_tmp)"
    [ -s "$FIX/test.h5" ] || fail "setup_file could not make the features"
}

HEADLINE="--multiclass ovo --scale norm -c 10"

# help_default OPTION: the "(default: X)" of --OPTION in kpca eval --help
help_default() {
    "$KPCA" eval --help | grep -E -- "--$1 " | sed -n 's/.*(default: \([^)]*\)).*/\1/p'
}

@test "eval --help shows the headline protocol as the defaults of --multiclass, --scale and --cost" {
    [ "$(help_default multiclass)" = ovo ] || fail "--multiclass default: '$(help_default multiclass)'"
    [ "$(help_default scale)" = norm ] || fail "--scale default: '$(help_default scale)'"
    [ "$(help_default cost)" = 10 ] || fail "--cost default: '$(help_default cost)'"
    run --separate-stderr "$KPCA" help --man
    assert_status 0
    [[ "$output" == *"ovr (one\\-vs\\-rest) (default: ovo)"* ]] || fail "the man page lacks --multiclass's default"
    [[ "$output" == *"cross\\-validation on TRAIN (default: 10)"* ]] || fail "the man page lacks --cost's default"
}

@test "eval --print-defaults: the defaults as options, the same as --help shows" {
    run --separate-stderr "$KPCA" eval --print-defaults
    assert_status 0
    [ "$output" = "$HEADLINE" ] || fail "printed '$output'"
    [ "$output" = "--multiclass $(help_default multiclass) --scale $(help_default scale) -c $(help_default cost)" ] ||
        fail "--print-defaults and --help disagree"
    # with the files given too it prints them and does nothing else
    run --separate-stderr "$KPCA" eval --print-defaults "$FIX/train.h5" "$FIX/test.h5" --csv "$OUT/t.csv"
    assert_status 0
    [ "$output" = "$HEADLINE" ] || fail "printed '$output'"
    assert_no_output "$OUT/t.csv"
}

@test "scripts/lib.sh headline_eval asks the binary; a kpca without --print-defaults is an error" {
    run --separate-stderr sh -c '. "$1/scripts/lib.sh"; KPCA=$2; headline_eval' sh "$REPO" "$KPCA"
    assert_status 0
    [ "$output" = "$HEADLINE" ] || fail "headline_eval printed '$output'"
    printf '#!/bin/sh\nexit 2\n' >"$TMP/oldkpca"
    chmod +x "$TMP/oldkpca"
    run --separate-stderr sh -c 'set -eu; . "$1/scripts/lib.sh"; KPCA=$2; x=$(headline_eval); echo "got $x"' sh "$REPO" "$TMP/oldkpca"
    [ "$status" -ne 0 ] || fail "an old kpca went unnoticed"
    [[ "$stderr" == *"--print-defaults"* ]] || { show_run; fail "the message does not say what failed"; }
}

# eval_all DIR OPTIONS...: eval with OPTIONS into DIR/table, t.csv and pred
eval_all() {
    local dir="$1"
    shift
    mkdir -p "$dir"
    "$KPCA" eval -q -k 4,16 "$@" "$FIX/train.h5" "$FIX/test.h5" --csv "$dir/t.csv" --predictions "$dir/pred" \
        >"$dir/table"
}

@test "eval without options equals eval with the headline options, byte for byte" {
    eval_all "$OUT/none"
    # shellcheck disable=SC2086
    eval_all "$OUT/explicit" $HEADLINE
    eval_all "$OUT/c1" -c 1
    cmp "$OUT/none/table" "$OUT/explicit/table" || fail "tables differ"
    cmp "$OUT/none/pred" "$OUT/explicit/pred" || fail "predictions differ"
    # the CSV but train_seconds (a timing)
    cmp <(cut -d, -f1-7,9 "$OUT/none/t.csv") <(cut -d, -f1-7,9 "$OUT/explicit/t.csv") || fail "CSV tables differ"
    [ "$(awk -F, 'NR > 1 { print $5 }' "$OUT/none/t.csv" | sort -u)" = 10 ] || fail "the C column is not 10"
    # C matters here: the old default (C = 1) gives other machines
    ! cmp -s "$OUT/none/pred" "$OUT/c1/pred" || ! cmp -s <(cut -d, -f7 "$OUT/none/t.csv") <(cut -d, -f7 "$OUT/c1/t.csv") ||
        fail "C = 1 and C = 10 give the same machines: the test cannot see the default"
}

@test "eval --classifier lda takes the defaults silently but refuses the SVM's options given" {
    run --separate-stderr "$KPCA" eval -q -k 4 --classifier lda "$FIX/train.h5" "$FIX/test.h5"
    assert_status 0
    run --separate-stderr "$KPCA" eval -q -k 4 --classifier lda -c 10 "$FIX/train.h5" "$FIX/test.h5"
    assert_status 2
    assert_stderr_contains "'--cost' is an SVM option"
    run --separate-stderr "$KPCA" eval -q -k 4 --classifier lda --multiclass ovo "$FIX/train.h5" "$FIX/test.h5"
    assert_status 2
    assert_stderr_contains "'--multiclass' is an SVM option"
}
