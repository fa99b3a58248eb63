#!/usr/bin/env bats
# pictures.bats - scripts/pictures.sh --fast (fits on 300 digits, 50 points
# per circle): the pictures are PNG files, the principal axes read off
# `kpca transform` are orthonormal and carry the eigenvalues as variances,
# RBF kernel PCA separates the two circles on its first component and linear
# PCA does not, and the script stops when the axes are wrong.

load ../helper

setup() {
    common_setup
    command -v gnuplot >/dev/null || skip "no gnuplot: 'make deps' installs gnuplot-nox"
}

# pictures: one --fast run per file (cached); sets P to its directory, with
# out/ (pictures, pictures.md), work/ (intermediate files), log and rc
pictures() {
    P="$(file_tmp)/pictures"
    if [ ! -f "$P/rc" ]; then
        rm -rf "$P"
        mkdir -p "$P"
        local rc=0
        KPCA="$KPCA" sh "$REPO/scripts/pictures.sh" --fast --out "$P/out" --work "$P/work" >"$P/log" 2>&1 || rc=$?
        echo "$rc" >"$P/rc"
    fi
    [ "$(cat "$P/rc")" -eq 0 ] || { cat "$P/log"; fail "pictures.sh --fast exited $(cat "$P/rc")"; }
}

# md_cell ROW COL: column COL (1-based, after the row name) of the first
# table row under "## Two concentric circles" in pictures.md whose first cell is ROW
md_cell() {
    awk -F' *[|] *' -v row="$1" -v col="$2" '/^## / { circles = /^## Two concentric circles/ } circles && $2 == row { print $(col + 2); exit }' "$P/out/pictures.md"
}

@test "pictures: --fast exits 0 and writes three PNG files and pictures.md with provenance" {
    pictures
    local f
    for f in eigendigits usps-2d circles; do
        [ "$(head -c 8 "$P/out/$f.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$f.png: no PNG signature"
        [ "$(wc -c <"$P/out/$f.png")" -gt 20000 ] || fail "$f.png: only $(wc -c <"$P/out/$f.png") bytes"
    done
    grep -q '^- command: `scripts/pictures.sh --fast' "$P/out/pictures.md"
    grep -q '^- kpca [0-9]' "$P/out/pictures.md"
    grep -q '^- machine: ' "$P/out/pictures.md"
    assert_load_words "$P/out/pictures.md"
    grep -q '^- run time: [0-9]* s' "$P/out/pictures.md"
    grep -q '!\[.*\](eigendigits.png)' "$P/out/pictures.md"
    assert_no_tmp "$P/out"
}

@test "pictures: the principal axes are orthonormal within 1e-9" {
    pictures
    [ "$(wc -l <"$P/work/axes.txt")" -eq 19 ]
    awk 'NF != 256 { exit 1 }' "$P/work/axes.txt" || fail "an axis without 256 values"
    run awk '{ for (j = 1; j <= NF; j++) v[NR, j] = $j }
        END { for (a = 1; a <= NR; a++) for (b = a; b <= NR; b++) {
                s = 0; for (j = 1; j <= 256; j++) s += v[a, j] * v[b, j]
                e = s - (a == b); if (e < 0) e = -e; if (e > m) m = e }
              printf "%.3g\n", m; exit !(m <= 1e-9) }' "$P/work/axes.txt"
    [ "$status" -eq 0 ] || fail "max |v_a.v_b - delta_ab| = $output"
}

@test "pictures: the axes are linear PCA's: the fit digits' variance along axis c is eigenvalue c" {
    pictures
    # sum over the 300 fit digits of (v_c.(x - mean))^2 is the eigenvalue of
    # the centred kernel matrix that kpca info reports
    "$KPCA" info -e "$P/work/linear-m300.model" | awk '$1 == "eigenvalue" { print $3 }' >"$TMP/ev"
    head_rows "$DATA/zip.train.gz" 300 "$TMP/fit.txt"
    run awk 'FNR == 1 { f++ }
        f == 1 { for (j = 1; j <= 256; j++) v[FNR, j] = $j; k = FNR; next }
        f == 2 { ev[FNR] = $1; next }
        { n++; for (j = 1; j <= 256; j++) { x[n, j] = $(j + 1); mean[j] += $(j + 1) } }
        END {
            for (j = 1; j <= 256; j++) mean[j] /= n
            for (c = 1; c <= k; c++) {
                s = 0
                for (i = 1; i <= n; i++) { z = 0; for (j = 1; j <= 256; j++) z += v[c, j] * (x[i, j] - mean[j]); s += z * z }
                e = (s - ev[c]) / ev[c]; if (e < 0) e = -e; if (e > m) m = e
            }
            printf "%.3g\n", m; exit !(m <= 1e-9) }' "$P/work/axes.txt" "$TMP/ev" "$TMP/fit.txt"
    [ "$status" -eq 0 ] || fail "largest relative difference from the eigenvalues: $output"
}

@test "pictures: RBF kernel PCA separates the circles on component 1, linear PCA does not" {
    pictures
    # the data: 50 points per circle, ESL text, labels 0 and 1
    [ "$(awk '$1 == 0 && NF == 3' "$P/work/circles.txt" | wc -l)" -eq 50 ]
    [ "$(awk '$1 == 1 && NF == 3' "$P/work/circles.txt" | wc -l)" -eq 50 ]
    local lin rbf
    lin=$(md_cell "linear PCA" 1)
    rbf=$(md_cell "RBF kernel PCA, σ = 0.4" 1)
    [ -n "$lin" ] && [ -n "$rbf" ] || fail "no accuracy rows in pictures.md"
    awk -v a="$rbf" 'BEGIN { exit !(a >= 0.99) }' || fail "RBF kernel PCA: threshold accuracy $rbf"
    awk -v a="$lin" 'BEGIN { exit !(a <= 0.75) }' || fail "linear PCA: threshold accuracy $lin"
    # and directly: the first RBF component's ranges of the two circles are disjoint
    awk -F, 'NR > 1 { c = $1; if (!(c in lo) || $2 < lo[c]) lo[c] = $2; if (!(c in hi) || $2 > hi[c]) hi[c] = $2 }
        END { exit !(hi[0] < lo[1] || hi[1] < lo[0]) }' "$P/work/circles-rbf.csv" ||
        fail "the circles overlap on the first RBF component"
}

@test "pictures: the circles are the same on every run (seeded awk rand)" {
    pictures
    local first
    first=$(cksum <"$P/work/circles.txt")
    KPCA="$KPCA" sh "$REPO/scripts/pictures.sh" --fast --out "$TMP/o2" --work "$TMP/w2" >/dev/null 2>&1
    [ "$(cksum <"$TMP/w2/circles.txt")" = "$first" ]
    cmp "$P/work/axes.txt" "$TMP/w2/axes.txt"
}

@test "pictures: the script stops when the axes are not orthonormal" {
    # a kpca that nudges one projection of the basis digits by 0.01
    cat >"$TMP/kpca" <<EOF
#!/bin/sh
"$KPCA" "\$@" || exit \$?
for a in "\$@"; do last=\$a; done
case "\$last" in
*basis.csv) awk -F, -v OFS=, 'NR == 3 { \$2 = \$2 + 0.01 } { print }' "\$last" >"\$last.x" && mv "\$last.x" "\$last" ;;
esac
EOF
    chmod +x "$TMP/kpca"
    run env KPCA="$TMP/kpca" sh "$REPO/scripts/pictures.sh" --fast --out "$OUT" --work "$TMP/work"
    [ "$status" -eq 1 ] || { show_run; fail "expected exit 1"; }
    [[ "$output" == *"the principal axes are wrong"* ]] || { show_run; fail "no message"; }
    [ ! -e "$OUT/eigendigits.png" ]
    [ ! -e "$OUT/pictures.md" ]
}
