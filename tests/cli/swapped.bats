#!/usr/bin/env bats
# swapped.bats - an argument given a file of another kind (a model where
# data belongs, data or features where a model belongs, swapped arguments,
# one file twice): every command says which argument should be what and
# what the file is instead, exits 3 (a bad input file, as the man page's
# EXIT STATUS says), and leaves no output.

load ../helper

setup_file() {
    local d k="${KPCA:-$BATS_TEST_DIRNAME/../../build/kpca}"
    d="$(file_tmp)"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.train.gz" | head -n 60 >"$d/small.txt"
    gzip -c "$d/small.txt" >"$d/small.gz"
    "$k" fit -q -d 2 -m 40 -k 5 "$d/small.txt" -o "$d/m.model"
    "$k" transform -q "$d/m.model" "$d/small.txt" -o "$d/f.h5"
}

setup() {
    common_setup
    FIX="$(file_tmp)"
    SMALL="$FIX/small.txt"
    MODEL="$FIX/m.model"
    FEAT="$FIX/f.h5"
    [ -s "$FEAT" ] || fail "setup_file could not make the model and features"
}

# refused OUTPUT WORDS... -- KPCA ARGS...: the command exits 3 with one
# "error: ..." line holding every WORD, the --help hint, and no OUTPUT (""
# for a command that writes none)
refused() {
    local out="$1" words=()
    shift
    while [ "$1" != -- ]; do
        words+=("$1")
        shift
    done
    shift
    run --separate-stderr "$KPCA" "$@"
    assert_status 3
    assert_error_message
    assert_stderr_contains "${words[@]}"
    assert_stderr_contains "see 'kpca $1 --help'"
    [ "$(grep -c '^error:' <<<"$stderr")" -eq 1 ] || { show_run; fail "not one error line"; }
    [ -z "$out" ] || assert_no_output "$out"
}

@test "transform with MODEL and DATA swapped: says which is which and the data's shape" {
    refused "$OUT/x.h5" "argument 1 of transform is a MODEL (written by kpca fit)" \
        "'$FIX/small.gz' holds ESL text data (gzip, 60 x 256)" "argument 2 is a model: swapped?" \
        "usage: kpca transform [options] MODEL DATA -o FEATURES" \
        -- transform -q "$FIX/small.gz" "$MODEL" -o "$OUT/x.h5"
}

@test "transform: features as MODEL, features as DATA, the model twice" {
    refused "$OUT/x.h5" "argument 1 of transform is a MODEL" "'$FEAT' holds kpca features (60 x 5, written by kpca transform)" \
        -- transform -q "$FEAT" "$SMALL" -o "$OUT/x.h5"
    refused "$OUT/x.h5" "argument 2 of transform is DATA" "the 256 values per point of the model '$MODEL'" \
        "'$FEAT' holds kpca features (60 x 5, written by kpca transform)" \
        -- transform -q "$MODEL" "$FEAT" -o "$OUT/x.h5"
    refused "$OUT/x.h5" "argument 2 of transform is DATA" "'$MODEL' is a kpca model (written by kpca fit), the same file as argument 1" \
        -- transform -q "$MODEL" "$MODEL" -o "$OUT/x.h5"
}

@test "fit: a model as DATA" {
    refused "$OUT/m2.model" "argument 1 of fit is DATA" "'$MODEL' is a kpca model (written by kpca fit)" \
        -- fit -q -d 2 -m 10 "$MODEL" -o "$OUT/m2.model"
}

@test "eval: a model as TRAIN or TEST" {
    refused "$OUT/t.csv" "argument 1 of eval is TRAIN (features written by kpca transform, or data)" \
        "'$MODEL' is a kpca model (written by kpca fit)" -- eval -q "$MODEL" "$FEAT" --csv "$OUT/t.csv"
    refused "$OUT/t.csv" "argument 2 of eval is TEST" "'$MODEL' is a kpca model" \
        -- eval -q "$FEAT" "$MODEL" --csv "$OUT/t.csv"
    # the same features as TRAIN and TEST are allowed (training error)
    run --separate-stderr "$KPCA" eval -q "$FEAT" "$FEAT"
    assert_status 0
}

@test "info, spectrum, reduce: data or features as MODEL" {
    refused "" "argument 1 of info is a MODEL (written by kpca fit)" "'$SMALL' holds ESL text data (60 x 256)" \
        -- info "$SMALL"
    [ -z "$output" ] || fail "info printed: $output"
    refused "" "argument 1 of spectrum is a MODEL" "'$FEAT' holds kpca features (60 x 5" -- spectrum "$FEAT"
    [ -z "$output" ] || fail "spectrum printed: $output"
    refused "$OUT/r.model" "argument 1 of reduce is a MODEL" "'$FEAT' holds kpca features" \
        -- reduce -q -m 5 "$FEAT" -o "$OUT/r.model"
}

@test "denoise swapped, cluster given a model" {
    refused "$OUT/d.h5" "argument 1 of denoise is a MODEL" "'$SMALL' holds ESL text data (60 x 256)" \
        "argument 2 is a model: swapped? usage: kpca denoise" -- denoise -q -k 3 "$SMALL" "$MODEL" -o "$OUT/d.h5"
    refused "" "argument 1 of cluster is FEATURES" "'$MODEL' is a kpca model (written by kpca fit)" \
        -- cluster -q -k 3 "$MODEL"
}

@test "an empty file as MODEL; a missing one is still exit 4" {
    : >"$TMP/empty"
    refused "" "argument 1 of info is a MODEL" "'$TMP/empty' is empty" -- info "$TMP/empty"
    run --separate-stderr "$KPCA" info "$TMP/none"
    assert_status 4
    assert_stderr_contains "cannot open '$TMP/none'"
}

@test "a damaged model keeps the reader's own reason" {
    cp "$MODEL" "$TMP/bad.model"
    flip_byte "$TMP/bad.model" 2000
    run --separate-stderr "$KPCA" info "$TMP/bad.model"
    assert_status 3
    assert_error_names "$TMP/bad.model"
    assert_stderr_contains "seal"
    [[ "$stderr" != *"argument 1 of info"* ]] || { show_run; fail "a damaged model called another kind of file"; }
}
