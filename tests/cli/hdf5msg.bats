#!/usr/bin/env bats
# hdf5msg.bats - HDF5 files that kpca cannot read as they are, refused with
# a message that leads somewhere: a dataset compressed with a filter this
# HDF5 library lacks (h5py's LZF) is named with the fix, not "damaged
# file?"; a group without `data` lists what it holds and the FILE:PATH form
# that reads one of them.  The files are made here with h5py.

load ../helper

setup() {
    common_setup
    have_h5py || skip "python3-h5py missing"
    "$PY" - "$TMP/f.h5" <<'EOF2'
import sys, h5py, numpy as np
x = np.round(np.random.default_rng(0).normal(size=(2000, 16)), 1)  # compressible: LZF takes every chunk
with h5py.File(sys.argv[1], "w") as f:
    f.create_dataset("lzf/data", data=x, compression="lzf", chunks=(500, 16))
    f["lzf/target"] = np.arange(2000) % 3
    f.create_dataset("gz/data", data=x, compression="gzip", chunks=(500, 16))
    f["gz/target"] = np.arange(2000) % 3
    f["other/values"] = x
    f["other/y"] = np.arange(2000) % 3
EOF2
}

@test "a dataset compressed with h5py's LZF: named, with the gzip rewrite, exit 3, whole and by blocks; gzip reads" {
    run --separate-stderr "$KPCA" fit -q -k 2 -m 300 "$TMP/f.h5:lzf" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "dataset 'data' is compressed with HDF5 filter 32000 (LZF, h5py's compression='lzf')" \
        "compression='gzip'"
    [[ "$stderr" != *"damaged"* ]] || { show_run; fail "called damaged"; }
    assert_no_output "$OUT/m.h5"
    run --separate-stderr "$KPCA" fit -q -k 2 -m 300 "$TMP/f.h5:gz" -o "$OUT/m.h5"
    assert_status 0
    run --separate-stderr "$KPCA" transform -q "$OUT/m.h5" "$TMP/f.h5:lzf" -o "$OUT/z.csv"
    assert_status 3
    assert_stderr_contains "HDF5 filter 32000 (LZF"
    assert_no_output "$OUT/z.csv"
}

@test "a group without data: its datasets and shapes listed, with FILE:/GROUP/NAME; that form reads" {
    run --separate-stderr "$KPCA" fit -q -k 2 -m 300 "$TMP/f.h5:other" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "group 'other' has no dataset 'data'" "it holds values (2000 x 16), y (2000)" \
        "give $TMP/f.h5:/other/NAME"
    run --separate-stderr "$KPCA" fit -q -k 2 -m 300 "$TMP/f.h5:/other/values" -o "$OUT/m.h5"
    assert_status 0
    run --separate-stderr "$KPCA" transform -q "$OUT/m.h5" "$TMP/f.h5:other" -o "$OUT/z.csv"
    assert_status 3
    assert_stderr_contains "it holds values (2000 x 16), y (2000)"
}
