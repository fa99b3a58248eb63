#!/usr/bin/env bats
# spectrum.bats - scripts/spectrum.sh (make spectrum) on a subset.

load ../helper

setup() {
    common_setup
}

@test "scripts/spectrum.sh --subset 120: one block per kernel, cumulative rises to the kept share, provenance" {
    KPCA="$KPCA" run sh "$REPO/scripts/spectrum.sh" --subset 120 --out "$OUT" --work "$TMP/w"
    [ "$status" -eq 0 ] || { show_run; fail "spectrum.sh failed"; }
    [ -s "$OUT/usps-spectrum.csv" ] && [ -s "$OUT/usps-spectrum.md" ] || fail "no results"
    grep -q '^Provenance: `scripts/spectrum.sh --subset 120' "$OUT/usps-spectrum.md" || fail "no provenance"
    assert_load_words "$OUT/usps-spectrum.md"
    [ "$(cut -d, -f1 "$OUT/usps-spectrum.csv" | sed 1d | sort -u | paste -sd' ' -)" = "d1 d2 d3 d4 d5 d6 rbf" ] ||
        fail "kernels: $(cut -d, -f1 "$OUT/usps-spectrum.csv" | sort -u | paste -sd' ' -)"
    awk -F, 'NR > 1 {
        if ($1 != prev) { if ($2 != 1) { print $1 " starts at " $2; bad = 1 }; last = 0 }
        if (!($5 >= last) || $5 > 1 + 1e-9) { print "cumulative " $5 " at " $1 " " $2; bad = 1 }
        prev = $1; last = $5
    } END { exit bad }' "$OUT/usps-spectrum.csv" || fail "spectrum table"
    # a model that cannot be fitted stops the script with an error, no table
    printf 'x\n' >"$TMP/w/d1-m120.h5"
    KPCA="$KPCA" run sh "$REPO/scripts/spectrum.sh" --subset 120 --out "$OUT/again" --work "$TMP/w"
    [ "$status" -ne 0 ] || fail "a broken cached model went unnoticed"
    [[ "$output" == *"d1-m120.h5"* ]] || { show_run; fail "the error does not name the model"; }
    [ ! -e "$OUT/again/usps-spectrum.csv" ] || fail "a table was written"
    [ -z "$(find "$OUT/again" -name '.*tmp*' 2>/dev/null)" ] || fail "a temporary file was left"
}
