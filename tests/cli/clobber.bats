#!/usr/bin/env bats
# clobber.bats - no output ever destroys an input: every command that writes
# refuses an output that is the same file as one of its inputs (by name,
# through a symbolic link, a hard link or another path), before any work,
# exit 2 and the input left byte for byte as it was; a directory given as
# an input is called a directory.

load ../helper

setup_file() {
    local d k="${KPCA:-$BATS_TEST_DIRNAME/../../build/kpca}"
    d="$(file_tmp)"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.train.gz" | head -n 80 >"$d/train.txt"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.test.gz" | head -n 40 >"$d/test.txt"
    "$k" fit -q -d 2 -k 4 "$d/train.txt" -o "$d/model.h5"
    "$k" transform -q "$d/model.h5" "$d/train.txt" -o "$d/train.h5"
    "$k" transform -q "$d/model.h5" "$d/test.txt" -o "$d/test.h5"
}

setup() {
    common_setup
    FIX="$(file_tmp)"
    [ -s "$FIX/test.h5" ] || fail "setup_file could not make the fixtures"
    cp "$FIX"/train.txt "$FIX"/test.txt "$FIX"/model.h5 "$FIX"/train.h5 "$FIX"/test.h5 "$TMP/"
    cd "$TMP"
    md5sum train.txt test.txt model.h5 train.h5 test.h5 >"$OUT/sums"
}

# the refusal: exit 2, a message naming the output, no input changed, no
# temporary file left
assert_refused() {
    assert_status 2
    assert_error_names "$1"
    assert_stderr_contains "destroy"
    md5sum --quiet -c "$OUT/sums" || fail "an input changed"
    assert_no_tmp "$TMP"
}

@test "fit -o DATA: refused, the data kept" {
    run --separate-stderr "$KPCA" fit -q -k 2 train.txt -o train.txt
    assert_refused train.txt
    assert_stderr_contains "is also an input"
}

@test "fit -o a hard link to DATA: refused" {
    ln train.txt hard.txt
    run --separate-stderr "$KPCA" fit -q -k 2 train.txt -o hard.txt
    assert_refused hard.txt
    assert_stderr_contains "the same file as the input 'train.txt'"
}

@test "transform -o MODEL and -o DATA (the report that filed the issue): refused" {
    run --separate-stderr "$KPCA" transform -q model.h5 test.txt -o model.h5
    assert_refused model.h5
    run --separate-stderr "$KPCA" transform -q model.h5 test.txt -o test.txt
    assert_refused test.txt
}

@test "transform -o a symbolic link to MODEL, or MODEL by another path: refused" {
    ln -s model.h5 link.h5
    run --separate-stderr "$KPCA" transform -q model.h5 test.txt -o link.h5
    assert_refused link.h5
    [ -L link.h5 ] || fail "the link was replaced"
    run --separate-stderr "$KPCA" transform -q "$TMP/model.h5" test.txt -o ./model.h5
    assert_refused ./model.h5
}

@test "transform of HDF5 data given as FILE:GROUP -o FILE: refused" {
    have_h5py || skip "no h5py"
    "$PY" -c 'import h5py, numpy, sys
x = numpy.loadtxt(sys.argv[1])
with h5py.File(sys.argv[2], "w") as d:
    g = d.create_group("g"); g["data"] = x[:, 1:]; g["target"] = x[:, 0].astype("i4")
' test.txt data.h5
    md5sum data.h5 >>"$OUT/sums"
    run --separate-stderr "$KPCA" transform -q model.h5 data.h5:g -o data.h5
    assert_refused data.h5
}

@test "eval --csv/--markdown/--json onto TRAIN or TEST: refused" {
    run --separate-stderr "$KPCA" eval -q -k 2 train.h5 test.h5 --csv train.h5
    assert_refused train.h5
    run --separate-stderr "$KPCA" eval -q -k 2 train.h5 test.h5 --markdown test.h5
    assert_refused test.h5
    ln -s test.h5 t.json
    run --separate-stderr "$KPCA" eval -q -k 2 train.h5 test.h5 --json t.json
    assert_refused t.json
}

@test "spectrum --csv/--markdown/--json onto MODEL: refused" {
    local opt
    for opt in --csv --markdown --json; do
        run --separate-stderr "$KPCA" spectrum -q model.h5 "$opt" model.h5
        assert_refused model.h5
    done
}

@test "denoise -o, --noisy-output and --csv onto MODEL or DATA: refused" {
    run --separate-stderr "$KPCA" denoise -q -k 2 model.h5 test.txt -o test.txt
    assert_refused test.txt
    run --separate-stderr "$KPCA" denoise -q -k 2 model.h5 test.txt -o out.txt --noisy-output model.h5
    assert_refused model.h5
    assert_no_output out.txt
    run --separate-stderr "$KPCA" denoise -q -k 2 model.h5 test.txt -o out.txt --csv test.txt
    assert_refused test.txt
    assert_no_output out.txt
}

@test "outputs distinct from the inputs still work (a copy of an input, a device, stdout)" {
    cp test.txt copy.txt
    run --separate-stderr "$KPCA" transform -q model.h5 test.txt -o copy.txt
    assert_status 0
    run --separate-stderr "$KPCA" transform -q model.h5 test.txt -o -
    assert_status 0
    [ -n "$output" ] || fail "no features on stdout"
    run --separate-stderr "$KPCA" spectrum -q model.h5 --csv -
    assert_status 0
}

@test "a directory given as DATA, MODEL, TRAIN or TEST: 'is a directory'" {
    mkdir dir
    run --separate-stderr "$KPCA" fit -q -k 2 dir -o m.h5
    assert_status 4
    assert_error_names dir
    assert_stderr_contains "is a directory"
    assert_no_output m.h5
    run --separate-stderr "$KPCA" transform -q dir test.txt -o f.txt
    assert_status 4
    assert_stderr_contains "'dir' is a directory"
    run --separate-stderr "$KPCA" transform -q model.h5 dir -o f.txt
    assert_status 4
    assert_stderr_contains "'dir' is a directory"
    run --separate-stderr "$KPCA" eval -q -k 2 dir test.h5
    assert_status 4
    assert_stderr_contains "'dir' is a directory"
    run --separate-stderr "$KPCA" denoise -q -k 2 model.h5 dir -o f.txt
    assert_status 4
    assert_stderr_contains "'dir' is a directory"
}
