#!/bin/sh
# protocol-study.sh - what the paper leaves unsaid, measured: one-vs-one or
# one-vs-rest, raw or scaled components, C fixed or cross-validated, and
# which 3000 digits fit K.  Each variant is a whole grid (scripts/run-grid.sh,
# cached steps shared); writes results/protocol-study.md.
# usage: scripts/protocol-study.sh [--force]
set -eu
cd "$(dirname "$0")/.."
. scripts/lib.sh
force=""
[ "${1:-}" = --force ] && force=--force
out=build/study
mkdir -p "$out" results
start=$(date +%s)

# slug|label|run-grid options (eval options in --eval)
variants='ovo-norm-c1|one-vs-one, norm, C = 1|--eval "--multiclass ovo --scale norm -c 1"
ovo-norm-c10|one-vs-one, norm, C = 10 (headline)|--eval "--multiclass ovo --scale norm -c 10"
ovo-norm-c100|one-vs-one, norm, C = 100|--eval "--multiclass ovo --scale norm -c 100"
ovo-norm-cv|one-vs-one, norm, C per cell by 5-fold CV in {1, 10, 100}|--eval "--multiclass ovo --scale norm -c 1,10,100 --folds 5"
ovr-norm-c1|one-vs-rest, norm, C = 1|--eval "--multiclass ovr --scale norm -c 1"
ovr-norm-c10|one-vs-rest, norm, C = 10|--eval "--multiclass ovr --scale norm -c 10"
ovr-norm-c100|one-vs-rest, norm, C = 100|--eval "--multiclass ovr --scale norm -c 100"
ovo-std-c1|one-vs-one, std (each component unit variance), C = 1|--eval "--multiclass ovo --scale std -c 1"
ovo-raw-c1|one-vs-one, raw components, C = 1 (d = 1, 2 only)|--degrees "1 2" --eval "--multiclass ovo --scale none -c 1"
seed1|one-vs-one, norm, C = 10, K from random subset seed 1|--seed 1 --eval "--multiclass ovo --scale norm -c 10"
seed2|one-vs-one, norm, C = 10, K from random subset seed 2|--seed 2 --eval "--multiclass ovo --scale norm -c 10"
seed3|one-vs-one, norm, C = 10, K from random subset seed 3|--seed 3 --eval "--multiclass ovo --scale norm -c 10"'

echo "$variants" | while IFS='|' read -r slug label opts; do
    echo "== $slug: $label" >&2
    eval "set -- $opts"
    scripts/run-grid.sh $force "$@" --name "$slug" --out "$out" --title "$label" >&2
done

# The headline's choices, made on training data only: at the reference cell
# (d = 3, 256 components, first 3000 digits) 5-fold cross-validation on the
# 7291 training features compares the multi-class schemes and the scalings,
# each with its best C in {1, 10, 100}.  The "test" file handed to eval is the
# training file itself: the test digits are never read here.
ref=build/grid/fit-m3000-s0/d3.train.h5
[ -f "$ref" ] || { echo "protocol-study.sh: $ref missing (the grid runs first)" >&2; exit 2; }
for mc in ovo ovr; do
    for sc in norm std; do
        f="$out/select-$mc-$sc.csv"
        if [ -n "$force" ] || [ ! -f "$f" ]; then
            echo "== selection: $mc, $sc, 5-fold CV at d=3, 256 components" >&2
            build/kpca eval -q -k 256 --multiclass "$mc" --scale "$sc" -c 1,10,100 --folds 5 "$ref" "$ref" --csv "$f" >/dev/null
        fi
    done
done

md=results/protocol-study.md
tmp="$md.tmp.$$"
tmpfiles=$tmp
lib_traps
{
    echo "# Protocol study: what the paper does not state"
    echo
    echo "Made by \`scripts/protocol-study.sh\` (kpca $(build/kpca --version | awk 'NR == 1 { print $2 }'), commit"
    echo "$(commit_stamp), $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores,"
    echo "$(($(date +%s) - start)) s with cached steps). Every variant is the whole grid: K from 3000"
    echo "training digits, all 7291 projected to train, the 2007 test digits for the error; only"
    echo "the named factor changes. The standard error of an error rate p on 2007 digits is"
    echo "sqrt(p(1-p)/2007): 0.5 pp at 5 %, 0.6 pp at 8 %, so differences under about 1 pp"
    echo "between two cells are within noise; averages over 33 cells are steadier."
    echo
    echo "## Summary"
    echo
    echo "| variant | cells | mean error % | MAD from paper (pp) | largest deviation (pp) | best cell |"
    echo "|---|---|---|---|---|---|"
    echo "$variants" | while IFS='|' read -r slug label opts; do
        awk -F, -v label="$label" 'NR > 1 { n++; s += $3; if ($8 != "") { m++; d = $9 < 0 ? -$9 : $9; mad += d; if (d > mx) mx = d }
            if (best == "" || $3 + 0 < best + 0) { best = $3; bc = "d=" $1 ", " $2 } }
            END { printf "| %s | %d | %.2f | %.2f | %.2f | %s%% (%s) |\n", label, n, s / n, mad / m, mx, best, bc }' "$out/$slug.csv"
    done
    echo
    echo "## How the headline protocol was chosen (training data only)"
    echo
    echo "5-fold cross-validation on the 7291 training features of the reference cell (d = 3,"
    echo "256 components, K from the first 3000 digits), each scheme and scaling with its best"
    echo "C in {1, 10, 100}. The test digits are not read. The rule: take the lowest CV error."
    echo
    echo "| multi-class | scaling | best C | CV error % |"
    echo "|---|---|---|---|"
    for mc in ovo ovr; do
        for sc in norm std; do
            awk -F, -v mc="$mc" -v sc="$sc" 'NR == 2 { printf "| %s | %s | %s | %.2f |\n", (mc == "ovo" ? "one-vs-one" : "one-vs-rest"), sc, $5, $6 }' "$out/select-$mc-$sc.csv"
        done
    done
    echo
    echo "Lowest: $(for mc in ovo ovr; do for sc in norm std; do awk -F, -v t="$mc, $sc" 'NR == 2 { print $6, t ", C = " $5 }' "$out/select-$mc-$sc.csv"; done; done | sort -n | head -n 1 | awk '{ $1 = ""; sub(/^ /, ""); print }')."
    echo "The headline (\`scripts/run-grid.sh\`, HEADLINE_EVAL in scripts/lib.sh: \`$HEADLINE_EVAL\`) uses that"
    echo "scheme, scaling and C for every cell (the row marked \"headline\" below). Choosing C per"
    echo "cell by the same cross-validation is measured too; it costs 16 SVM trainings per cell and"
    echo "changes the mean error by a few hundredths of a point."
    echo
    echo "## Which 3000 digits fit K: first 3000 against random subsets"
    echo
    echo "Spread of each cell over the four fits (first 3000; seeds 1, 2, 3), one-vs-one, norm, C = 10:"
    echo
    awk -F, 'FNR == 1 { next } { k = $1 "," $2; n[k]++; s[k] += $3; q[k] += $3 * $3; if (!(k in lo) || $3 < lo[k]) lo[k] = $3; if (!(k in hi) || $3 > hi[k]) hi[k] = $3; if (!(k in seen)) { seen[k] = 1; order[++m] = k } }
        END { print "| degree | components | mean % | sd (pp) | min | max |"; print "|---|---|---|---|---|---|"
              for (i = 1; i <= m; i++) { k = order[i]; split(k, a, ","); mu = s[k] / n[k]; v = q[k] / n[k] - mu * mu; if (v < 0) v = 0
                printf "| %s | %s | %.2f | %.2f | %.2f | %.2f |\n", a[1], a[2], mu, sqrt(v), lo[k], hi[k] } }' \
        "$out/ovo-norm-c10.csv" "$out/seed1.csv" "$out/seed2.csv" "$out/seed3.csv"
    echo
    echo "## Every variant, cell by cell"
    echo "$variants" | while IFS='|' read -r slug label opts; do
        echo
        echo "### $label"
        echo
        echo "Options: \`$opts\`. Each cell: ours (paper)."
        echo
        awk '/^\| components \|/ { on = 1 } on && /^$/ { exit } on' "$out/$slug.md"
    done
} >"$tmp"
mv "$tmp" "$md"
echo "wrote $md" >&2
