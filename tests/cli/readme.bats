#!/usr/bin/env bats
# The README's command synopses are the commands' own --help (one source).

load helper

@test "README synopses match kpca CMD --help" {
    cd "$BATS_TEST_DIRNAME/../.."
    run env KPCA="$KPCA" sh scripts/sync-readme.sh --check
    [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "the README check fails when an option is missing from README" {
    cd "$BATS_TEST_DIRNAME/../.."
    tmp=$(mktemp -d)
    cp -r README.md scripts "$tmp/"
    sed -i '/--degree D/d' "$tmp/README.md"
    run env KPCA="$KPCA" sh "$tmp/scripts/sync-readme.sh" --check
    rm -rf "$tmp"
    [ "$status" -ne 0 ]
}
