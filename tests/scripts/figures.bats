#!/usr/bin/env bats
# figures.bats - scripts/figures.sh --fast (the paper's toy Figures 3-5 on a
# tiny configuration: 40 points, 3 seeds, a 21 x 16 grid, clusters of 10):
# the pictures and tables are written, the eigenvalue shares are shares (the
# whole spectrum sums to 1; linear PCA of 2-D data has two components, (x.y)^2
# three), the grid values are kpca transform's, the contour files exist, the
# seeded data are the same on every run, and the script stops with a message
# and no output when kpca misbehaves.

load ../helper

TOYDATA="${TOYDATA:-$BATS_TEST_DIRNAME/../../build/tools/toydata}"

setup() {
    common_setup
    command -v gnuplot >/dev/null || skip "no gnuplot: 'make deps' installs gnuplot-nox"
    [ -x "$TOYDATA" ] || skip "no $TOYDATA: run 'make build/tools/toydata'"
}

# figures: one --fast run per file (cached); sets F to its directory, with
# out/ (PNGs, paper-figures.md, .csv), work/, log and rc
figures() {
    F="$(file_tmp)/figures"
    if [ ! -f "$F/rc" ]; then
        rm -rf "$F"
        mkdir -p "$F"
        local rc=0
        KPCA="$KPCA" TOYDATA="$TOYDATA" sh "$REPO/scripts/figures.sh" --fast --out "$F/out" --work "$F/work" >"$F/log" 2>&1 || rc=$?
        echo "$rc" >"$F/rc"
    fi
    [ "$(cat "$F/rc")" -eq 0 ] || { cat "$F/log"; fail "figures.sh --fast exited $(cat "$F/rc")"; }
}

@test "figures: --fast exits 0 and writes three PNG files, paper-figures.md with provenance and the CSV" {
    figures
    local f
    for f in fig3-poly fig4-rbf fig5-sigmoid; do
        [ "$(head -c 8 "$F/out/$f.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$f.png: no PNG signature"
        [ "$(wc -c <"$F/out/$f.png")" -gt 20000 ] || fail "$f.png: only $(wc -c <"$F/out/$f.png") bytes"
    done
    grep -q '^- command: `scripts/figures.sh --fast' "$F/out/paper-figures.md"
    grep -q '^- kpca [0-9].*(commit [0-9a-f]' "$F/out/paper-figures.md"
    grep -q '^- machine: ' "$F/out/paper-figures.md"
    assert_load_words "$F/out/paper-figures.md"
    grep -q '!\[.*\](fig3-poly.png)' "$F/out/paper-figures.md"
    # the CSV: a header and the 12 shares, components 1-3 x degrees 1-4
    [ "$(head -1 "$F/out/paper-figures.csv")" = "component,degree,paper,mean,sd,seeds,points,seed_1_share" ]
    [ "$(tail -n +2 "$F/out/paper-figures.csv" | awk -F, 'NF == 8 && $6 == 3 && $7 == 40' | wc -l)" -eq 12 ]
    [ "$(tail -n +2 "$F/out/paper-figures.csv" | cut -d, -f1,2 | sort -u | wc -l)" -eq 12 ]
    assert_no_tmp "$F/out"
}

@test "figures: the shares are eigenvalue shares: (x.y)^1 has 2 non-zero, (x.y)^2 has 3, each data set's sum to 1" {
    figures
    # work/fig3-shares.txt: "seed d share1 share2 share3", 3 seeds x 4 degrees
    [ "$(wc -l <"$F/work/fig3-shares.txt")" -eq 12 ]
    run awk '{ s = $3 + $4 + $5; e = s - 1; if (e < 0) e = -e
               if ($2 <= 2 && e > 1e-9) { printf "seed %d d %d: the shares sum to %.17g\n", $1, $2, s; bad = 1 }
               if ($2 >= 3 && !(s < 1 && s > 0.9)) { printf "seed %d d %d: three shares sum to %.17g\n", $1, $2, s; bad = 1 }
               if ($2 == 1 && $5 != 0) { printf "seed %d: linear PCA has a third share %s\n", $1, $5; bad = 1 }
               if (!($3 >= $4 && $4 >= $5 && $5 >= 0)) { printf "seed %d d %d: shares not sorted\n", $1, $2; bad = 1 } }
             END { exit bad }' "$F/work/fig3-shares.txt"
    [ "$status" -eq 0 ] || fail "$output"
    # the CSV's means are those of the three seeds, and d = 1's add up to 1
    run awk -F, 'NR > 1 && $2 == 1 { s += $4 } END { e = s - 1; if (e < 0) e = -e; print s; exit !(e < 1e-5) }' "$F/out/paper-figures.csv"
    [ "$status" -eq 0 ] || fail "d = 1: the mean shares sum to $output"
    local want got
    want=$(awk '$2 == 3 { s += $3 } END { printf "%.6f", s / NR * 4 }' "$F/work/fig3-shares.txt")
    got=$(awk -F, '$1 == 1 && $2 == 3 { print $4 }' "$F/out/paper-figures.csv")
    [ "$want" = "$got" ] || fail "d = 3, component 1: CSV mean $got, seeds' mean $want"
}

@test "figures: the contour files exist and the grid values are kpca transform's of the grid points" {
    figures
    local d c
    for d in 1 2 3 4; do
        for c in 1 2 3; do
            [ "$d$c" != 13 ] || continue
            [ -s "$F/work/fig3-d$d-contours-c$c.dat" ] || fail "no contours for d = $d, component $c"
        done
    done
    [ ! -e "$F/work/fig3-d1-contours-c3.dat" ] || fail "contours of a third linear component"
    for c in 1 2 3 4 5 6 7 8; do [ -s "$F/work/fig4-contours-c$c.dat" ] || fail "no fig4 contours c$c"; done
    for c in 1 2 3; do [ -s "$F/work/fig5-contours-c$c.dat" ] || fail "no fig5 contours c$c"; done
    # contour points lie in the plotted region
    run awk 'NF >= 3 && $1 !~ /^#/ { if ($1 < -1.000001 || $1 > 1.000001 || $2 < -0.500001 || $2 > 1.000001) { print; exit 1 } }' \
        "$F"/work/*-contours-c*.dat
    [ "$status" -eq 0 ] || fail "a contour point outside [-1, 1] x [-0.5, 1]: $output"
    # 21 x 16 grid points; one of them projected on its own by kpca
    [ "$(grep -c . "$F/work/fig3-d3.grid")" -eq 336 ]
    local row
    row=$(grep . "$F/work/fig3-d3.grid" | sed -n 100p)
    printf '0 %s %s\n' $(echo "$row" | cut -d' ' -f1,2) >"$TMP/one.txt"
    "$KPCA" transform -q -k 3 --label first "$F/work/fig3-d3.model" "$TMP/one.txt" -o "$TMP/one.csv"
    run awk -F, -v row="$row" 'NR == 2 { split(row, g, " ")
        for (c = 1; c <= 3; c++) { e = $(c + 1) - g[c + 2]; if (e < 0) e = -e; if (e > 1e-12 * (1 + (g[c + 2] < 0 ? -g[c + 2] : g[c + 2]))) { print c, $(c + 1), g[c + 2]; exit 1 } } }' "$TMP/one.csv"
    [ "$status" -eq 0 ] || fail "grid value differs from kpca transform: $output"
}

@test "figures: Figures 4 and 5 in numbers: components 1-2 tell the clusters apart" {
    figures
    # centres 0.5 to 0.8 apart, sd 0.1: both kernels separate them in the plane
    grep -q '^| components 1–2 separate the three clusters | .* right for 1.0000 of the points | yes |$' "$F/out/paper-figures.md" ||
        fail "Figure 4: $(grep 'separate the three' "$F/out/paper-figures.md")"
    grep -q '^| components 1–2 separate the clusters | .* right for 1.0000 of the points | yes |$' "$F/out/paper-figures.md" ||
        fail "Figure 5: $(grep 'separate the clusters' "$F/out/paper-figures.md")"
    # 8 component rows for Figure 4, 3 for Figure 5, every share in (0, 1)
    [ "$(awk '/^## Figure 4/ { f = 1 } /^## Figure 5/ { f = 0 } f && /^\| [1-8] \| 0\.[0-9]+ \|/' "$F/out/paper-figures.md" | wc -l)" -eq 8 ]
    [ "$(awk '/^## Figure 5/ { f = 1 } f && /^\| [1-3] \| 0\.[0-9]+ \|/' "$F/out/paper-figures.md" | wc -l)" -eq 3 ]
}

@test "figures: toydata is seeded: the same data on every run, other data for another seed" {
    local a b c
    a=$("$TOYDATA" parabola 50 7 | cksum)
    b=$("$TOYDATA" parabola 50 7 | cksum)
    c=$("$TOYDATA" parabola 50 8 | cksum)
    [ "$a" = "$b" ] || fail "two runs with seed 7 differ"
    [ "$a" != "$c" ] || fail "seeds 7 and 8 give the same data"
    # the distributions: x uniform in [-1, 1] (mean 0, variance 1/3), y - x^2
    # normal with sd 0.2; clusters: sd 0.1 around their centres
    run sh -c "'$TOYDATA' parabola 20000 3 | awk '{ n++; if (\$2 < -1 || \$2 > 1) bad = 1; sx += \$2; sxx += \$2 * \$2; r = \$3 - \$2 * \$2; sr += r; srr += r * r }
        END { m = sx / n; v = sxx / n - m * m; rm = sr / n; rs = sqrt(srr / n - rm * rm); print m, v, rm, rs
              exit !(!bad && m * m < 1e-4 && (v - 1/3) ^ 2 < 1e-4 && rm * rm < 1e-4 && (rs - 0.2) ^ 2 < 1e-5) }'"
    [ "$status" -eq 0 ] || fail "parabola statistics (mean x, var x, mean noise, sd noise): $output"
    run sh -c "'$TOYDATA' clusters 5000 3 | awk '{ n[\$1]++; sx[\$1] += \$2; sy[\$1] += \$3; q[\$1] += \$2 * \$2 + \$3 * \$3 }
        END { split(\"-0.5 -0.2 0 0.6 0.5 0\", c, \" \")
              for (g = 0; g <= 2; g++) { mx = sx[g] / n[g]; my = sy[g] / n[g]; sd = sqrt((q[g] / n[g] - mx * mx - my * my) / 2)
                  print g, n[g], mx, my, sd
                  if (n[g] != 5000 || (mx - c[2 * g + 1]) ^ 2 > 1e-5 || (my - c[2 * g + 2]) ^ 2 > 1e-5 || (sd - 0.1) ^ 2 > 1e-5) bad = 1 }
              exit bad }'"
    [ "$status" -eq 0 ] || fail "cluster statistics (cluster, n, mean x, mean y, sd): $output"
    run "$TOYDATA" parabola 0 1
    assert_status 2
    run "$TOYDATA" grid 3 3 1 -1 0 1
    assert_status 2
}

@test "figures: the script stops when kpca's eigenvalues do not add up to the trace" {
    # a kpca whose `info` reports a trace 1 % too large
    cat >"$TMP/kpca" <<EOF
#!/bin/sh
if [ "\$1" = info ]; then
    "$KPCA" "\$@" | awk '\$1 == "trace" { \$2 = \$2 * 1.01 } { print }'
    exit 0
fi
exec "$KPCA" "\$@"
EOF
    chmod +x "$TMP/kpca"
    run env KPCA="$TMP/kpca" TOYDATA="$TOYDATA" sh "$REPO/scripts/figures.sh" --fast --seeds 2 --out "$OUT" --work "$TMP/work"
    [ "$status" -eq 1 ] || { show_run; fail "expected exit 1"; }
    [[ "$output" == *"the eigenvalues add up to"*"the trace is"* ]] || { show_run; fail "no message"; }
    [ -z "$(ls -A "$OUT")" ] || fail "output left in $OUT: $(ls -A "$OUT")"
}

@test "figures: the script stops when kpca transform fails, and leaves no output" {
    cat >"$TMP/kpca" <<EOF
#!/bin/sh
[ "\$1" != transform ] || { echo "error: transform broken" >&2; exit 1; }
exec "$KPCA" "\$@"
EOF
    chmod +x "$TMP/kpca"
    run env KPCA="$TMP/kpca" TOYDATA="$TOYDATA" sh "$REPO/scripts/figures.sh" --fast --seeds 2 --out "$OUT" --work "$TMP/work"
    [ "$status" -eq 1 ] || { show_run; fail "expected exit 1"; }
    [[ "$output" == *"error: transform broken"* && "$output" == *"kpca transform failed"* ]] || { show_run; fail "no message"; }
    [ -z "$(ls -A "$OUT")" ] || fail "output left in $OUT: $(ls -A "$OUT")"
    run env KPCA="$TMP/kpca" TOYDATA="$TOYDATA" sh "$REPO/scripts/figures.sh" --bogus
    assert_status 2
}
