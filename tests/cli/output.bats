#!/usr/bin/env bats
# output.bats - outputs that cannot be written: a full device, a directory
# that cannot be written, a file-size limit.  Non-zero exit, no partial file.
#
# Never point -o at the real /dev/full (or /dev/null) when running as root:
# kpca writes a temporary file next to the output and renames it over the
# target, and root may do that in /dev, replacing the device node with a
# regular file.  As root these tests use a private copy of the device.

load ../helper

setup_file() {
    local d k="${KPCA:-$BATS_TEST_DIRNAME/../../build/kpca}"
    d="$(file_tmp)"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.train.gz" | head -n 300 >"$d/train.txt"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.test.gz" | head -n 100 >"$d/test.txt"
    "$k" fit -q -d 2 -m 100 -k 8 "$d/train.txt" -o "$d/model.h5"
    "$k" transform -q "$d/model.h5" "$d/train.txt" -o "$d/train.h5"
    "$k" transform -q "$d/model.h5" "$d/test.txt" -o "$d/test.h5"
}

setup() {
    common_setup
    FIX="$(file_tmp)"
    [ -s "$FIX/test.h5" ] || fail "setup_file could not make the fixtures"
}

# full_device: prints a path that behaves as /dev/full and is safe to pass
# to -o: /dev/full itself for an ordinary user (who cannot create files in
# /dev), else a private character device 1,7 in $TMP (or a symbolic link to
# /dev/full where mknod is not allowed)
full_device() {
    if [ "$(id -u)" -ne 0 ]; then
        [ ! -w /dev ] || skip "/dev is writable: not safe to write to /dev/full"
        printf '/dev/full\n'
        return
    fi
    mkdir -p "$TMP/dev"
    if mknod "$TMP/dev/full" c 1 7 2>/dev/null && [ -c "$TMP/dev/full" ]; then
        chmod 666 "$TMP/dev/full"
    else
        ln -s /dev/full "$TMP/dev/full"
    fi
    printf '%s\n' "$TMP/dev/full"
}

# check_full_device PATH: PATH still is what full_device made
check_full_device() {
    [ "$1" = /dev/full ] && return 0
    [ -c "$1" ] || [ -L "$1" ] || fail "'$1' (a device) was replaced by a $(stat -c %F "$1"); exit status $status"
    assert_no_tmp "$(dirname "$1")"
}

@test "transform -o - into a full device (stdout is /dev/full): exit 4" {
    run --separate-stderr bash -c '"$1" transform -q "$2" "$3" -o - >/dev/full' _ "$KPCA" "$FIX/model.h5" "$FIX/test.txt"
    assert_status 4
    assert_error_message
    assert_stderr_contains "standard output"
}

@test "eval into a full device (stdout is /dev/full): exit 4" {
    run --separate-stderr bash -c '"$1" eval -q "$2" "$3" >/dev/full' _ "$KPCA" "$FIX/train.h5" "$FIX/test.h5"
    assert_status 4
    assert_stderr_contains "standard output"
}

@test "--version and --help into a full device: exit non-zero" {
    run bash -c '"$1" --version >/dev/full' _ "$KPCA"
    assert_failure
    run bash -c '"$1" fit --help >/dev/full' _ "$KPCA"
    assert_failure
}

@test "transform -o /dev/full (libsvm, csv, hdf5): non-zero exit" {
    local dev fmt
    dev="$(full_device)"
    for fmt in libsvm csv hdf5; do
        run --separate-stderr "$KPCA" transform -q -f "$fmt" "$FIX/model.h5" "$FIX/test.txt" -o "$dev"
        check_full_device "$dev"
        assert_failure
        assert_error_message
    done
}

@test "fit -o /dev/full: non-zero exit" {
    local dev
    dev="$(full_device)"
    run --separate-stderr "$KPCA" fit -q -d 2 -m 20 -k 2 "$FIX/test.txt" -o "$dev"
    check_full_device "$dev"
    assert_failure
    assert_error_message
}

@test "eval --csv /dev/full and --markdown /dev/full: non-zero exit" {
    local dev
    dev="$(full_device)"
    run --separate-stderr "$KPCA" eval -q "$FIX/train.h5" "$FIX/test.h5" --csv "$dev"
    check_full_device "$dev"
    assert_failure
    run --separate-stderr "$KPCA" eval -q "$FIX/train.h5" "$FIX/test.h5" --markdown "$dev"
    check_full_device "$dev"
    assert_failure
}

@test "output in a directory that does not exist: exit 4, no file" {
    run --separate-stderr "$KPCA" fit -q -d 2 -m 20 -k 2 "$FIX/test.txt" -o "$OUT/nodir/m.h5"
    assert_status 4
    assert_error_names "$OUT/nodir/m.h5"
    local o
    for o in z.h5 z.svm z.csv; do
        run --separate-stderr "$KPCA" transform -q "$FIX/model.h5" "$FIX/test.txt" -o "$OUT/nodir/$o"
        assert_status 4
        assert_error_names "$OUT/nodir/$o"
    done
    run --separate-stderr "$KPCA" eval -q "$FIX/train.h5" "$FIX/test.h5" --csv "$OUT/nodir/t.csv"
    assert_status 4
    assert_error_names "$OUT/nodir/t.csv"
    [ ! -e "$OUT/nodir" ]
    assert_no_tmp "$OUT"
}

@test "an output that cannot be written is refused before the work: the error names it, not a later input" {
    # the inputs do not exist either: a check after the work would name them
    run --separate-stderr "$KPCA" fit -q -d 2 "$TMP/missing.txt" -o "$OUT/nodir/m.h5"
    assert_status 4
    assert_error_names "$OUT/nodir/m.h5"
    run --separate-stderr "$KPCA" transform -q "$TMP/missing.h5" "$FIX/test.txt" -o "$OUT/nodir/z.h5"
    assert_status 4
    assert_error_names "$OUT/nodir/z.h5"
    run --separate-stderr "$KPCA" eval -q "$TMP/missing.h5" "$FIX/test.h5" --json "$OUT/nodir/t.json"
    assert_status 4
    assert_error_names "$OUT/nodir/t.json"
    run --separate-stderr "$KPCA" denoise -q -k 2 "$TMP/missing.h5" "$FIX/test.txt" -o "$OUT/z.csv" --csv "$OUT/nodir/e.csv"
    assert_status 4
    assert_error_names "$OUT/nodir/e.csv"
    [ ! -e "$OUT/nodir" ] && [ ! -e "$OUT/z.csv" ] || fail "something was written"
    assert_no_tmp "$OUT"
}

@test "output under a path whose directory is a regular file: exit 4" {
    : >"$OUT/afile"
    run --separate-stderr "$KPCA" fit -q -d 2 -m 20 -k 2 "$FIX/test.txt" -o "$OUT/afile/m.h5"
    assert_status 4
    assert_error_names "$OUT/afile/m.h5"
    run --separate-stderr "$KPCA" transform -q "$FIX/model.h5" "$FIX/test.txt" -o "$OUT/afile/z.svm"
    assert_status 4
    [ -f "$OUT/afile" ]
    [ ! -s "$OUT/afile" ]
    assert_no_tmp "$OUT"
}

@test "output in a read-only directory: exit 4, no file" {
    [ "$(id -u)" -ne 0 ] || skip "running as root: a mode-555 directory is writable"
    mkdir "$OUT/ro"
    chmod 555 "$OUT/ro"
    run --separate-stderr "$KPCA" fit -q -d 2 -m 20 -k 2 "$FIX/test.txt" -o "$OUT/ro/m.h5"
    chmod 755 "$OUT/ro"
    assert_status 4
    assert_error_names "$OUT/ro/m.h5"
    assert_no_output "$OUT/ro/m.h5"
}

@test "output that is a directory: non-zero exit, directory kept" {
    mkdir "$OUT/adir"
    run --separate-stderr "$KPCA" transform -q "$FIX/model.h5" "$FIX/test.txt" -o "$OUT/adir"
    assert_failure
    assert_error_names "$OUT/adir"
    [ -d "$OUT/adir" ]
    assert_no_tmp "$OUT"
}

@test "empty output name: exit 2" {
    run --separate-stderr "$KPCA" transform -q "$FIX/model.h5" "$FIX/test.txt" -o ""
    assert_failure
    assert_error_message
}

@test "hdf5 to standard output is a complete HDF5 file" {
    "$KPCA" transform -q -f hdf5 "$FIX/model.h5" "$FIX/test.txt" -o - > "$OUT/stdout.h5"
    "$KPCA" transform -q "$FIX/model.h5" "$FIX/test.txt" -o "$OUT/file.h5"
    cmp "$OUT/stdout.h5" "$OUT/file.h5" || fail "standard output and file differ"
    run --separate-stderr "$KPCA" eval -q "$OUT/stdout.h5" "$OUT/file.h5"
    assert_status 0
}

# limited CMD...: runs CMD with a 64 KiB file-size limit (writes beyond it
# fail with EFBIG, as on a full disk; SIGXFSZ ignored)
limited() {
    run --separate-stderr bash -c 'trap "" XFSZ; ulimit -f 64; exec "$@"' _ "$@"
}

@test "text features beyond a file-size limit (disk full): exit 4, no partial file" {
    # 2007 x 8 features in text are about 350 KB
    "$KPCA" transform -q "$FIX/model.h5" "$DATA/zip.test.gz" -o "$TMP/full.svm"
    [ "$(stat -c %s "$TMP/full.svm")" -gt 100000 ]
    local o
    for o in z.svm z.csv; do
        limited "$KPCA" transform -q "$FIX/model.h5" "$DATA/zip.test.gz" -o "$OUT/$o"
        assert_status 4
        assert_error_names "$OUT/$o"
        assert_no_output "$OUT/$o"
    done
}

@test "hdf5 features beyond a file-size limit (disk full): exit 4, no partial file" {
    limited "$KPCA" transform -q "$FIX/model.h5" "$DATA/zip.test.gz" -o "$OUT/z.h5"
    assert_status 4
    assert_error_names "$OUT/z.h5"
    assert_no_output "$OUT/z.h5"
}

@test "a model beyond a file-size limit (disk full): exit 4, no partial file" {
    # 300 fit points x 256 values are 600 KB
    limited "$KPCA" fit -q -d 2 -m 300 -k 8 "$FIX/train.txt" -o "$OUT/m.h5"
    assert_status 4
    assert_error_names "$OUT/m.h5"
    assert_no_output "$OUT/m.h5"
}

# A limit that lets an HDF5 file begin and stops it half-way: libhdf5
# 1.10.8 crashes at exit after a write of its own failed (SIGSEGV in
# H5F__close_cb), so kpca reserves the blocks before HDF5 writes there.
@test "HDF5 outputs that outgrow a file-size limit half-way: exit 4 (not a crash), no partial file" {
    # the model's fit points alone (300 x 256 doubles) are 600 KB
    run --separate-stderr bash -c 'trap "" XFSZ; ulimit -f 200; exec "$@"' _ \
        "$KPCA" fit -q -d 2 -m 300 -k 8 "$FIX/train.txt" -o "$OUT/m.h5"
    assert_status 4
    assert_error_names "$OUT/m.h5"
    assert_stderr_contains "File too large"
    assert_no_output "$OUT/m.h5"
    run --separate-stderr bash -c 'trap "" XFSZ; ulimit -f 100; exec "$@"' _ \
        "$KPCA" transform -q "$FIX/model.h5" "$DATA/zip.test.gz" -o "$OUT/z.h5"
    assert_status 4 # 2007 x 8 features are 128 KB
    assert_error_names "$OUT/z.h5"
    assert_no_output "$OUT/z.h5"
}

# A small file system of its own (tmpfs; root only): the disk fills while
# the data is written.
@test "HDF5 outputs onto a file system that fills up: exit 4, no partial file, the file system left empty" {
    [ "$(id -u)" -eq 0 ] || skip "mounting a small file system needs root"
    mkdir "$TMP/small"
    mount -t tmpfs -o size=256k tmpfs "$TMP/small" 2>/dev/null || skip "mount -t tmpfs is not allowed here"
    run --separate-stderr "$KPCA" fit -q -d 2 -m 300 -k 8 "$FIX/train.txt" -o "$TMP/small/m.h5"
    local left
    left="$(ls -A "$TMP/small")"
    umount "$TMP/small"
    assert_status 4
    assert_error_names "$TMP/small/m.h5"
    assert_stderr_contains "No space left on device"
    [ -z "$left" ] || fail "left on the full file system: $left"
}

@test "SIGTERM while writing: the output is complete or absent, no temporary file" {
    local i
    for i in 1 2 3; do
        "$KPCA" transform -q "$FIX/model.h5" "$FIX/train.txt" -o "$OUT/z.csv" &
        local pid=$!
        sleep 0.0$i
        kill -TERM "$pid" 2>/dev/null || true
        wait "$pid" || true
        assert_no_tmp "$OUT"
        if [ -e "$OUT/z.csv" ]; then
            [ "$(wc -l <"$OUT/z.csv")" -eq 301 ] || fail "partial output: $(wc -l <"$OUT/z.csv") lines"
            rm -f "$OUT/z.csv"
        fi
    done
}

@test "SIGPIPE while several tables are open: every temporary file removed, none committed" {
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.train.gz" | head -n 1200 >"$TMP/f.txt"
    "$KPCA" fit -q -d 2 "$TMP/f.txt" -o "$TMP/all.h5" || fail "fit"
    # ~1200 JSON rows on stdout: more than a pipe holds, so the write meets a
    # closed pipe while the CSV and Markdown temporaries are still open
    run bash -c "set -o pipefail; '$KPCA' spectrum -q --csv '$OUT/s.csv' --markdown '$OUT/s.md' --json - '$TMP/all.h5' | head -c 10 >/dev/null"
    [ "$status" -eq 141 ] || { show_run; fail "expected death by SIGPIPE (141), got $status"; }
    assert_no_tmp "$OUT"
    [ ! -e "$OUT/s.csv" ] && [ ! -e "$OUT/s.md" ] || fail "a table was committed"
}
