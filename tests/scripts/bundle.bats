#!/usr/bin/env bats
# bundle.bats - `make bundle` (scripts/bundle.sh): kpca and the shared
# libraries a machine without Debian's packages lacks, under 60 MiB, that
# runs unpacked anywhere with nothing but the host's C library and C++
# runtime: every library the bundled kpca loads comes from the bundle's lib/
# or is one of those, and a fit runs through the wrapper.

load ../helper

BUNDLE="${BUNDLE:-$(dirname "$KPCA")/kpca-bundle.tar.xz}"

setup() {
    common_setup
    [ -f "$BUNDLE" ] || sh "$REPO/scripts/bundle.sh" "$KPCA" "$BUNDLE" >/dev/null
}

@test "bundle: under 60 MiB, compressed" {
    local kib
    kib=$(du -k "$BUNDLE" | cut -f1)
    [ "$kib" -lt $((60 * 1024)) ] || fail "$BUNDLE is $kib KiB, over 60 MiB"
}

@test "bundle: unpacked elsewhere, kpca loads its libraries from the bundle or the host's C and C++ runtime only" {
    tar -C "$TMP" -xJf "$BUNDLE"
    local b="$TMP/kpca-bundle"
    [ -x "$b/kpca" ] && [ -x "$b/bin/kpca" ] || fail "no kpca-bundle/kpca or bin/kpca in $BUNDLE"
    # the loader's own list of what it maps, with the bundle's lib/ first
    run env LD_TRACE_LOADED_OBJECTS=1 LD_LIBRARY_PATH="$b/lib" "$b/bin/kpca"
    assert_status 0
    local bad
    bad=$(awk -v lib="$b/lib/" '$2 == "=>" {
            if ($3 == "not") { print $1 " (not found)"; next }
            if (index($3, lib) == 1) next
            if ($1 ~ /^(libc|libm|libpthread|libdl|librt|libresolv|libutil|libstdc\+\+|libgcc_s)\./) next
            print $1 " from " $3 }' <<<"$output")
    [ -z "$bad" ] || fail "libraries from outside the bundle: $bad"
    # and it runs: version, a small fit and transform through the wrapper
    run env -u LD_LIBRARY_PATH "$b/kpca" --version
    assert_status 0
    head_rows "$DATA/zip.train.gz" 300 "$TMP/tr.txt"
    run env -u LD_LIBRARY_PATH "$b/kpca" fit -q -k 4 "$TMP/tr.txt" -o "$OUT/b.h5"
    assert_status 0
    "$KPCA" fit -q -k 4 "$TMP/tr.txt" -o "$OUT/k.h5"
    "$KPCA" info "$OUT/b.h5" | grep -v '^source' >"$OUT/b.info"
    "$KPCA" info "$OUT/k.h5" | grep -v '^source' | diff - "$OUT/b.info" || fail "the bundle's model differs from kpca's"
}
