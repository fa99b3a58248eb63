#!/usr/bin/env bats
# spool.bats - a stream is copied to disk (the spool, src/lib/file/source.h)
# only while it fits a cap: the free space of TMPDIR less 1 GiB, or
# --spool-limit SIZE / KPCA_SPOOL_LIMIT; past it, exit 6 with the sizes. A
# stream whose first block is neither text nor a format kpca reads is
# refused at once (exit 3), and a process killed for a file too large
# (SIGXFSZ, ulimit -f) leaves no spool behind.  Each bounded by `timeout`.

load ../helper

setup() {
    common_setup
    export TMPDIR="$TMP/spool"
    mkdir -p "$TMPDIR"
    # about 2 MB of CSV
    awk 'BEGIN { for (i = 0; i < 40000; i++) printf "%d,%.5f,%.5f,%.5f,%.5f\n", i % 3, i * 1e-5, -i * 1e-5, (i % 7) / 7, (i % 11) / 11 }' \
        >"$TMP/x.csv"
}

@test "kpca fit /dev/zero: refused at once as neither text nor a known format, exit 3, no spool, no output" {
    run --separate-stderr timeout 20 "$KPCA" fit -q /dev/zero -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "'/dev/zero' starts with bytes 00 00 00 00" "neither text nor a format kpca reads"
    assert_no_output "$OUT/m.h5"
    [ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
    # binary formats kpca reads still go through a pipe: a .npy
    "$KPCA" fit -q -k 2 -m 300 --label first "$TMP/x.csv" -o "$TMP/m.h5"
    "$KPCA" transform -q --label first "$TMP/m.h5" "$TMP/x.csv" -o "$TMP/z.npy"
    "$KPCA" fit -q -k 1 -m 300 "$TMP/z.npy" -o "$TMP/m2.h5"
    "$KPCA" transform -q "$TMP/m2.h5" "$TMP/z.npy" -o "$TMP/want.csv"
    run --separate-stderr bash -c "cat '$TMP/z.npy' | timeout 20 '$KPCA' transform -q '$TMP/m2.h5' - -o '$OUT/z.csv'"
    assert_status 0
    cmp "$TMP/want.csv" "$OUT/z.csv" || fail "a .npy through a pipe read otherwise"
}

@test "a stream past --spool-limit or KPCA_SPOOL_LIMIT: exit 6 naming the cap, no spool, no output; within it, read" {
    run --separate-stderr bash -c "cat '$TMP/x.csv' | timeout 20 '$KPCA' fit -q -k 2 --label first --spool-limit 1M - -o '$OUT/m.h5'"
    assert_status 6
    assert_stderr_contains "'<stdin>' is more than a stream may take on disk: 1048576 bytes" "--spool-limit"
    [[ "$stderr" != *"memory budget"* ]] || { show_run; fail "the memory budget's hint for a disk cap"; }
    assert_no_output "$OUT/m.h5"
    run --separate-stderr bash -c "cat '$TMP/x.csv' | KPCA_SPOOL_LIMIT=512K timeout 20 '$KPCA' fit -q -k 2 --label first - -o '$OUT/m.h5'"
    assert_status 6
    assert_stderr_contains "524288 bytes"
    assert_no_output "$OUT/m.h5"
    [ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
    run --separate-stderr bash -c "cat '$TMP/x.csv' | KPCA_SPOOL_LIMIT=lots timeout 20 '$KPCA' fit -q -k 2 - -o '$OUT/m.h5'"
    assert_status 2
    assert_stderr_contains "KPCA_SPOOL_LIMIT: expected a size"
    run --separate-stderr bash -c "cat '$TMP/x.csv' | timeout 20 '$KPCA' fit -q -k 2 -m 300 --label first --spool-limit 4M - -o '$OUT/m.h5'"
    assert_status 0
    run --separate-stderr bash -c "cat '$TMP/x.csv' | timeout 20 '$KPCA' fit -q -k 2 -m 300 --label first --spool-limit 0 - -o '$OUT/m0.h5'"
    assert_status 0
}

@test "killed by SIGXFSZ (ulimit -f) while spooling: no spool left behind" {
    run bash -c "cat '$TMP/x.csv' | (ulimit -f 100; exec timeout 20 '$KPCA' fit -q -k 2 --label first - -o '$OUT/m.h5')"
    [ "$status" -ne 0 ] || fail "the fit passed a 50 KB file-size limit"
    [ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
    assert_no_output "$OUT/m.h5"
}
