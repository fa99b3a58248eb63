#!/usr/bin/env bats
# iris.bats - scripts/iris.sh (make iris): Fisher's Iris from Debian's
# python3-sklearn through kpca fit, spectrum, transform and cluster: the
# pictures are PNG files, iris.md has provenance, every kernel's contingency
# table counts the 150 flowers and its adjusted Rand index is in [-1, 1],
# linear PCA's first component explains more than 90 % of the variance (a
# property of Iris, about 92.5 %), and a python without sklearn stops the
# script with a message naming the Debian package.

load ../helper

KERNELS="linear poly2 rbf rbf-notes"

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
    local k
    for k in $KERNELS; do
        grep -q "^$k,1," "$I/out/iris.csv" || fail "no clusters for $k in iris.csv"
        grep -q "^$k,1," "$I/out/iris-spectrum.csv" || fail "no spectrum for $k"
    done
    [ "$(cut -d, -f1 "$I/out/iris.csv" | sed 1d | sort -u | wc -l)" -eq 4 ] || fail "kernels: $(cut -d, -f1 "$I/out/iris.csv" | sort -u)"
}

@test "iris: each kernel's contingency table counts 150 flowers, 50 a species, and its ARI is in [-1, 1] and in iris.md" {
    iris
    awk -F, 'NR > 1 {
            n[$1] += $3 + $4 + $5; s[$1] += $3; ve[$1] += $4; vi[$1] += $5
            if (($1 in ari) && ari[$1] != $7) { print $1 ": two ARIs"; bad = 1 }
            ari[$1] = $7
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
    ari=$(awk -F, '$1 == "linear" { printf "%.4f", $7; exit }' "$I/out/iris.csv")
    grep -q "^| linear PCA | .* | $ari |\$" "$I/out/iris.md" || fail "iris.md does not show linear PCA's ARI $ari"
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
