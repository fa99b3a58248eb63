#!/usr/bin/env bats
# iris.bats - scripts/iris.sh (make iris): Fisher's Iris from Debian's
# python3-sklearn through kpca fit, spectrum, transform and cluster: the
# pictures are PNG files, iris.md has provenance, every run's 2- and
# 3-cluster contingency tables count the 150 flowers and its adjusted Rand
# index is in [-1, 1], the setosa-vs-rest errors of iris-summary.csv are
# those of the flowers' own clusters, the scan table has every sigma^2,
# iris.md's verdicts on the course notes' two claims follow the counts,
# linear PCA's first component explains more than 90 % of the variance (a
# property of Iris, about 92.5 %), and a python without sklearn stops the
# script with a message naming the Debian package.

load ../helper

KERNELS="linear poly2 rbf rbf-notes"
# the scan: sigma^2 = m * 2^j, j = -10..6 (j = 0 is rbf-notes)
SCAN="-10 -9 -8 -7 -6 -5 -4 -3 -2 -1 1 2 3 4 5 6"

setup() {
    common_setup
}

# iris: one run per file (cached); sets I to its directory, with data/
# (iris.csv), out/ (results), work/, log and rc
iris() {
    "$PY" -c 'import sklearn.datasets' 2>/dev/null || skip "no sklearn in $PY: 'make deps' installs python3-sklearn"
    I="$(file_tmp)/iris"
    if [ ! -f "$I/rc" ]; then
        rm -rf "$I"
        mkdir -p "$I"
        local rc=0
        KPCA="$KPCA" PYTHON="$PY" sh "$REPO/scripts/iris.sh" --data "$I/data/iris.csv" --out "$I/out" --work "$I/work" \
            >"$I/log" 2>&1 || rc=$?
        echo "$rc" >"$I/rc"
    fi
    [ "$(cat "$I/rc")" -eq 0 ] || { cat "$I/log"; fail "iris.sh exited $(cat "$I/rc")"; }
}

@test "iris: the data are 150 flowers x 4 measurements with species names; iris.md has provenance and every kernel" {
    iris
    [ "$(head -1 "$I/data/iris.csv")" = "sepal_length,sepal_width,petal_length,petal_width,species" ] ||
        fail "header: $(head -1 "$I/data/iris.csv")"
    [ "$(sed 1d "$I/data/iris.csv" | cut -d, -f5 | sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }')" = \
        "setosa=50 versicolor=50 virginica=50 " ] || fail "species: $(sed 1d "$I/data/iris.csv" | cut -d, -f5 | sort | uniq -c)"
    local p
    p=$(grep '^Provenance: ' "$I/out/iris.md") || fail "no provenance line"
    [[ "$p" == *'`scripts/iris.sh --data '* ]] || fail "no command in: $p"
    [[ "$p" =~ kpca\ [0-9]+\.[0-9]+\.[0-9]+\ \(.+\),\ [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z,\ .+\ cores,\ .*load\ average ]] ||
        fail "no version, commit, date, machine and load in: $p"
    assert_load_words "$I/out/iris.md"
    local k
    local j all=$KERNELS
    for j in $SCAN; do all="$all rbf-scan$(printf '%+d' "$j")"; done
    for k in $all; do
        awk -F, -v k="$k" '$1 == k && $3 == 2 && $4 == 1 { two = 1 } $1 == k && $3 == 3 && $4 == 1 { three = 1 } END { exit !(two && three) }' \
            "$I/out/iris.csv" || fail "no 2 and 3 clusters for $k in iris.csv"
        grep -q "^$k,1," "$I/out/iris-spectrum.csv" || fail "no spectrum for $k"
        grep -q "^$k," "$I/out/iris-summary.csv" || fail "no summary for $k"
    done
    [ "$(cut -d, -f1 "$I/out/iris.csv" | sed 1d | sort -u | wc -l)" -eq 20 ] || fail "runs: $(cut -d, -f1 "$I/out/iris.csv" | sort -u)"
}

@test "iris: each run's 2- and 3-cluster tables count 150 flowers, 50 a species, and the ARI is in [-1, 1] and in iris.md" {
    iris
    awk -F, 'NR > 1 {
            r = $1 " k=" $3; if ($3 != 2 && $3 != 3) { print r ": clusters"; bad = 1 }
            if ($4 > $3) { print r ": cluster " $4; bad = 1 }
            n[r] += $5 + $6 + $7; s[r] += $5; ve[r] += $6; vi[r] += $7
            if ((r in ari) && ari[r] != $9) { print r ": two ARIs"; bad = 1 }
            ari[r] = $9
        }
        END {
            for (k in n) {
                if (n[k] != 150 || s[k] != 50 || ve[k] != 50 || vi[k] != 50) { print k ": " n[k] " flowers, " s[k] "/" ve[k] "/" vi[k]; bad = 1 }
                if (!(ari[k] >= -1 && ari[k] <= 1)) { print k ": ARI " ari[k]; bad = 1 }
            }
            exit bad
        }' "$I/out/iris.csv" || fail "contingency tables"
    # the summary table shows the ARI of iris.csv (4 decimals)
    local ari
    [ "$(sed 1d "$I/out/iris.csv" | wc -l)" -eq $((20 * 5)) ] || fail "not 2 + 3 cluster rows for each of 20 runs"
    ari=$(awk -F, '$1 == "linear" && $3 == 3 { printf "%.4f", $9; exit }' "$I/out/iris.csv")
    grep -q "^| linear PCA | .* | $ari |\$" "$I/out/iris.md" || fail "iris.md does not show linear PCA's ARI $ari"
}

@test "iris: the 2-cluster setosa-vs-rest errors of iris-summary.csv are those of the flowers' own clusters" {
    iris
    local k want got n=0
    for k in $(sed 1d "$I/out/iris-summary.csv" | cut -d, -f1); do
        # per flower: the setosa cluster is the one of most I. setosa;
        # wrong: a setosa outside it or another species in it
        want=$(sed 1d "$I/data/iris.csv" | cut -d, -f5 | paste -d, - "$I/work/$k.clusters2.txt" | awk -F, '
            { sp[NR] = $1; cl[NR] = $2; if ($1 == "setosa") s[$2]++ }
            END { best = -1; for (c in s) if (best < 0 || s[c] > s[best]) best = c
                  for (i = 1; i <= NR; i++) {
                      if (sp[i] == "setosa" && cl[i] != best) apart++
                      if (sp[i] != "setosa" && cl[i] == best) with[sp[i]]++
                  }
                  printf "%d,%d,%d,%d\n", with["versicolor"] + with["virginica"] + apart, with["versicolor"], with["virginica"], apart }')
        got=$(awk -F, -v k="$k" '$1 == k { print $4 "," $5 "," $6 "," $7 }' "$I/out/iris-summary.csv")
        [ "$want" = "$got" ] || fail "$k: the flowers give errors,versicolor,virginica,apart = $want; iris-summary.csv says $got"
        [ "$(wc -l <"$I/work/$k.clusters2.txt")" -eq 150 ] || fail "$k: not 150 flowers clustered"
        n=$((n + 1))
    done
    [ "$n" -eq 20 ] || fail "$n runs in iris-summary.csv"
}

@test "iris: the scan table has every sigma^2 = m * 2^j and kpca's default, with its errors and 3-cluster ARI" {
    iris
    local j v row
    for j in $SCAN 0; do
        v=$(awk -v j="$j" 'BEGIN { printf "%.4g", 150 * 2 ^ j }')
        row=$(grep "^| $v | " "$I/out/iris.md") || fail "no scan row for sigma^2 = $v"
        [ "$(printf '%s\n' "$row" | wc -l)" -eq 1 ] || fail "two rows for sigma^2 = $v"
    done
    v=$(awk -F, '$1 == "rbf" { printf "%.4g", $2 }' "$I/out/iris-summary.csv")
    row=$(grep "^| $v | .* | rbf, default sigma | " "$I/out/iris.md") || fail "no scan row for the default sigma^2 = $v"
    # the row's errors and ARI are the summary's
    [[ "$row" == *" | $(awk -F, '$1 == "rbf" { printf "%d | %d, %d | %d | %.4f", $4, $5, $6, $7, $11 }' "$I/out/iris-summary.csv") |" ]] ||
        fail "the default's row does not show the summary's counts: $row"
    [ "$(sed -n '/^## The scan/,/^The contingency/p' "$I/out/iris.md" | grep -c '^| [0-9]')" -eq 18 ] || fail "not 18 rows in the scan table"
    # sigma^2 = m is the notes' sigma = sqrt(150)
    awk -F, '$1 == "rbf-notes" { exit !($2 == 150) }' "$I/out/iris-summary.csv" || fail "rbf-notes is not sigma^2 = 150"
}

@test "iris: iris.md states whether each of the notes' two claims reproduces, as the counts say" {
    iris
    local v1 v2 z
    v1=$(awk -F, '$1 == "linear" { print ($5 + $6 == 2 && $7 == 0 ? "reproduces" : "does not reproduce") }' "$I/out/iris-summary.csv")
    v2=$(awk -F, '$1 == "rbf-notes" { print ($4 == 0 ? "reproduces" : "does not reproduce") }' "$I/out/iris-summary.csv")
    [ "$(grep -c '\*\*Claim 1 \(does not reproduce\|reproduces\):\*\*' "$I/out/iris.md")" -eq 1 ] || fail "no single verdict on claim 1"
    [ "$(grep -c '\*\*Claim 2 \(does not reproduce\|reproduces\):\*\*' "$I/out/iris.md")" -eq 1 ] || fail "no single verdict on claim 2"
    grep -q "\*\*Claim 1 $v1:\*\*" "$I/out/iris.md" || fail "claim 1: the counts say '$v1'"
    grep -q "\*\*Claim 2 $v2:\*\*" "$I/out/iris.md" || fail "claim 2: the counts say '$v2'"
    # the smallest sigma^2 without an error starts a stretch the md names
    z=$(awk -F, 'NR > 1 && $2 != "" && $4 == 0 { print $2 }' "$I/out/iris-summary.csv" | sort -g | head -1)
    if [ -n "$z" ]; then
        grep -q "no error for sigma^2 = $(printf '%.4g' "$z") (" "$I/out/iris.md" || fail "iris.md does not name sigma^2 = $z, the smallest without an error"
    else
        grep -q '^No sigma^2 of the scan' "$I/out/iris.md" || fail "iris.md does not say that no sigma^2 is without an error"
    fi
}

@test "iris: linear PCA's first component explains more than 90 % of the variance; the shares of each kernel add up to 1" {
    iris
    local e1
    e1=$(awk -F, '$1 == "linear" && $2 == 1 { print $4 }' "$I/out/iris-spectrum.csv")
    [ -n "$e1" ] || fail "no first linear component"
    awk -v e="$e1" 'BEGIN { exit !(e > 0.9 && e < 1) }' || fail "linear PCA's first component explains $e1"
    [ "$(awk -F, '$1 == "linear"' "$I/out/iris-spectrum.csv" | wc -l)" -eq 4 ] || fail "linear PCA of 4 measurements: not 4 components"
    awk -F, 'NR > 1 { last[$1] = $5 } END { for (k in last) if (last[k] < 1 - 1e-6 || last[k] > 1 + 1e-6) { print k ": " last[k]; bad = 1 }; exit bad }' \
        "$I/out/iris-spectrum.csv" || fail "a kernel's shares do not add up to 1"
}

@test "iris: the scree plot and the scores are PNG files, linked from iris.md" {
    command -v gnuplot >/dev/null || skip "no gnuplot: 'make deps' installs gnuplot-nox"
    iris
    local f
    for f in iris-scree iris-scores; do
        [ "$(head -c 8 "$I/out/$f.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$f.png: no PNG signature"
        [ "$(wc -c <"$I/out/$f.png")" -gt 20000 ] || fail "$f.png: only $(wc -c <"$I/out/$f.png") bytes"
        grep -q "($f.png)" "$I/out/iris.md" || fail "iris.md does not show $f.png"
    done
    [ -z "$(find "$I/out" "$I/data" -name '.*tmp*')" ] || fail "a temporary file was left"
}

@test "iris: a python without sklearn stops the script naming python3-sklearn, before any output" {
    printf '#!/bin/sh\necho "ModuleNotFoundError: No module named %s" >&2\nexit 1\n' "'sklearn'" >"$TMP/python3"
    chmod +x "$TMP/python3"
    KPCA="$KPCA" PYTHON="$TMP/python3" run sh "$REPO/scripts/iris.sh" --data "$TMP/data/iris.csv" --out "$OUT" --work "$TMP/w"
    [ "$status" -eq 1 ] || { show_run; fail "exit $status"; }
    [[ "$output" == *"cannot import sklearn"*"python3-sklearn"* ]] || { show_run; fail "the message does not name python3-sklearn"; }
    [ ! -e "$TMP/data/iris.csv" ] || fail "data were written"
    [ -z "$(ls -A "$OUT")" ] || fail "results were written: $(ls -A "$OUT")"
    # no python at all
    KPCA="$KPCA" PYTHON="$TMP/no-such-python" run sh "$REPO/scripts/iris.sh" --data "$TMP/data/iris.csv" --out "$OUT" --work "$TMP/w"
    [ "$status" -eq 1 ] && [[ "$output" == *"no python at $TMP/no-such-python"*"python3-sklearn"* ]] ||
        { show_run; fail "a missing python: exit $status"; }
}
