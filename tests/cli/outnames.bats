#!/usr/bin/env bats
# outnames.bats - output names: transform's (and denoise's) output format
# follows the suffix or -f, an unknown suffix without -f is refused before
# any work; fit refuses a model named like a data file.

load ../helper

setup() {
    common_setup
    head_rows "$DATA/zip.train.gz" 120 "$TMP/train.txt"
    gzip -dc "$DATA/zip.test.gz" | head -n 30 >"$TMP/test.txt"
    "$KPCA" fit -q -d 2 -m 120 -k 4 "$TMP/train.txt" -o "$TMP/m.h5"
}

# kind FILE: hdf5, csv or libsvm from FILE's first bytes (kpca's HDF5
# files start with their seal, a user block: lib/file/h5seal.h)
kind() {
    if [ "$(head -c 10 "$1")" = 'kpca-seal ' ]; then echo hdf5
    elif head -n 1 "$1" | grep -q '^label,z1,'; then echo csv
    elif head -n 1 "$1" | grep -qE '^-?[0-9]+ 1:'; then echo libsvm
    else echo unknown; fi
}

@test "transform: the format follows the suffix, in any case" {
    local f want
    for f in a.h5:hdf5 b.hdf5:hdf5 c.HDF5:hdf5 d.csv:csv e.CSV:csv g.libsvm:libsvm h.svm:libsvm i.txt:libsvm; do
        want=${f#*:}
        f=${f%%:*}
        run --separate-stderr "$KPCA" transform -q "$TMP/m.h5" "$TMP/test.txt" -o "$OUT/$f"
        assert_status 0
        [ "$(kind "$OUT/$f")" = "$want" ] || fail "$f: $(kind "$OUT/$f"), not $want"
    done
}

@test "transform -f overrides the suffix and allows any name" {
    local f
    for f in csv:x.dat hdf5:x.out libsvm:features hdf5:y.csv csv:y.svm; do
        run --separate-stderr "$KPCA" transform -q -f "${f%%:*}" "$TMP/m.h5" "$TMP/test.txt" -o "$OUT/${f#*:}"
        assert_status 0
        [ "$(kind "$OUT/${f#*:}")" = "${f%%:*}" ] || fail "-f ${f%%:*} -o ${f#*:}: $(kind "$OUT/${f#*:}")"
    done
    # devices have no suffix: text, as on standard output
    run --separate-stderr "$KPCA" transform -q "$TMP/m.h5" "$TMP/test.txt" -o /dev/null
    assert_status 0
}

@test "transform: an unknown suffix without -f is refused before any work, naming the known ones" {
    local f
    for f in x.dat x.out features x.h5x x.json; do
        # the data does not exist: the name is refused before it is read
        run --separate-stderr "$KPCA" transform -q "$TMP/m.h5" "$TMP/missing.txt" -o "$OUT/$f"
        assert_status 2
        assert_error_names "$OUT/$f"
        assert_stderr_contains ".h5" ".csv" ".libsvm" "-f"
        assert_no_output "$OUT/$f"
    done
    # denoise's outputs follow the same rule
    run --separate-stderr "$KPCA" denoise -q -k 2 "$TMP/m.h5" "$TMP/test.txt" -o "$OUT/d.dat"
    assert_status 2
    assert_error_names "$OUT/d.dat"
    assert_no_output "$OUT/d.dat"
}

@test "transform -o x.npy: NumPy output only where kpca writes it" {
    run --separate-stderr "$KPCA" transform -q "$TMP/m.h5" "$TMP/test.txt" -o "$OUT/x.npy"
    if "$KPCA" transform --help | grep -q '\.npy'; then
        assert_status 0
        [ "$(head -c 6 "$OUT/x.npy" | tail -c 5)" = NUMPY ] || fail "x.npy is not a NumPy file"
    else
        assert_status 2
        assert_error_names "$OUT/x.npy"
        assert_no_output "$OUT/x.npy"
    fi
}

@test "fit refuses a model named like a data file, with a hint; other names are fine" {
    local f
    for f in m.csv m.npy m.txt m.libsvm m.svm M.CSV; do
        run --separate-stderr "$KPCA" fit -q -d 2 -m 120 -k 4 "$TMP/train.txt" -o "$OUT/$f"
        assert_status 2
        assert_error_names "$OUT/$f"
        assert_stderr_contains "looks like a data file name" "writes an HDF5 model" "$OUT/${f%.*}.h5" "$OUT/${f%.*}.model"
        assert_no_output "$OUT/$f"
    done
    for f in m m.model m.h5 m.kpca m.csv.h5; do
        run --separate-stderr "$KPCA" fit -q -d 2 -m 120 -k 4 "$TMP/train.txt" -o "$OUT/$f"
        assert_status 0
        [ "$(kind "$OUT/$f")" = hdf5 ] || fail "$f is not HDF5"
    done
}
