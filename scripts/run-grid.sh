#!/bin/sh
# run-grid.sh - the paper's experiment: kernel PCA + linear SVM error grid.
#
# For each degree d: `kpca fit` on 3000 training digits (K), `kpca transform`
# of all 7291 training and the 2007 test digits, one `kpca eval` for every
# component count.  One fit per degree serves all component counts.  Writes
# NAME.csv, NAME.md, NAME.json and NAME.png into the output directory.
#
# usage: scripts/run-grid.sh [options]
#   --full            the paper's whole table: also d = 7 and 32 components
#   --force           recompute every step (default: reuse finished ones)
#   --degrees "D..."  degrees (default: 1 2 3 4 5 6)
#   --components L    component counts (default: 64,128,256,512,1024,2048)
#   --subset M        fit points (default: 3000)
#   --seed S          0: the first M training digits (default; kpca fit
#                     --sample first); else a uniform random subset drawn
#                     with seed S (--sample random --seed S)
#   --smooth SIGMA    blur the digits by a Gaussian of SIGMA pixels before
#                     fit and transform (kpca --smooth; default: none)
#   --eval "OPTS"     options for kpca eval (default: the headline protocol)
#   --precision P     single or double: the arithmetic of kpca fit's
#                     eigensolver, transform's projection and eval's Gram
#                     products (kpca --precision; default: double, kpca's
#                     own default, which is then not passed on).  Each
#                     precision has its own cache directory
#   --train FILE      the digits K is fitted from (--subset of them) and that
#                     are projected to train the classifier (default:
#                     data/zip.train.gz, 7291 digits)
#   --test FILE       the test digits (default: data/zip.test.gz, 2007)
#   --name NAME       result file name (default: usps-poly-svm)
#   --out DIR         where results go (default: results)
#   --work DIR        cache of models, features and cells (default: build/grid)
#   --title TEXT      the Markdown title
#   --jobs N          run the degrees as N independent jobs at once through
#                     GNU parallel (Debian package parallel), then write the
#                     tables from their cached steps: the same cells as a
#                     sequential run (scripts/slurm-grid.sh does the same on
#                     a Slurm cluster, a job array task per degree)
#
# Also writes NAME-predictions.csv: each test digit's label and the label
# predicted by every cell (column dD_kK; from kpca eval --predictions), for
# paired comparisons between cells (scripts/paper-claims.sh).  Every cell
# gets a 95 % Wilson interval over the test digits; the Markdown marks the
# cells whose paper value lies outside it.
#
# Resumable: every step writes its file atomically and is skipped when the
# file exists, so an interrupted run loses no finished cell.
set -eu
cd "$(dirname "$0")/.."
KPCA=${KPCA:-build/kpca}
. scripts/lib.sh

# The headline protocol, kpca eval's defaults (headline_eval in scripts/lib.sh; see docs/reproducing.md, "Protocol", and results/protocol-study.md):
# one-vs-one, components scaled by one factor (norm), C = 10 - the scheme,
# scaling and C with the lowest 5-fold cross-validation error on the training
# features of the reference cell (d = 3, 256 components), the same for every
# cell.  The test digits played no part in the choice.

degrees="1 2 3 4 5 6"
comps="64,128,256,512,1024,2048"
subset=3000
seed=0
smooth=""
precision="" # empty: kpca's default, double
evalopts=
evalopts_given=0
train=data/zip.train.gz
test=data/zip.test.gz
name=usps-poly-svm
out=results
work=build/grid
force=0
jobs=1
title="USPS test error (%) of linear SVMs on polynomial kernel PCA components"
cmdline=${GRID_CMDLINE:-"scripts/run-grid.sh $*"} # the assembling run of --jobs keeps the user's
while [ $# -gt 0 ]; do
    case "$1" in
    --full) degrees="1 2 3 4 5 6 7"; comps="32,64,128,256,512,1024,2048" ;;
    --force) force=1 ;;
    --degrees) degrees=$(optval "$@"); shift ;;
    --components) comps=$(optval "$@"); shift ;;
    --subset) subset=$(optval "$@"); shift ;;
    --seed) seed=$(optval "$@"); shift ;;
    --smooth) smooth=$(optval "$@"); shift ;;
    --eval) evalopts=$(optval "$@"); evalopts_given=1; shift ;;
    --precision) precision=$(optval "$@"); shift ;;
    --train) train=$(optval "$@"); shift ;;
    --test) test=$(optval "$@"); shift ;;
    --name) name=$(optval "$@"); shift ;;
    --out) out=$(optval "$@"); shift ;;
    --work) work=$(optval "$@"); shift ;;
    --title) title=$(optval "$@"); shift ;;
    --jobs) jobs=$(optval "$@"); shift ;;
    -h|--help) usage; exit 0 ;;
    *) bad_option "$1" ;;
    esac
    shift
done
[ -x "$KPCA" ] || { echo "run-grid.sh: $KPCA not built: run make" >&2; exit 2; }
[ "$evalopts_given" = 1 ] || evalopts=$(headline_eval)
for f in "$train" "$test"; do
    [ -f "$f" ] || { echo "run-grid.sh: $f missing: run make data" >&2; exit 2; }
done
case "$jobs" in ''|*[!0-9]*|0) echo "run-grid.sh: --jobs needs a positive whole number, got '$jobs'" >&2; exit 2 ;; esac
case "$precision" in ''|single|double) ;; *) echo "run-grid.sh: --precision is single or double, got '$precision'" >&2; exit 2 ;; esac
prec=${precision:-double} # what the steps compute in
lib_traps
# the load average before the first step (the assembling run of --jobs
# keeps the one taken before its jobs)
load0=${GRID_LOAD0:-$(load_stamp)}
if [ "$jobs" -gt 1 ]; then
    # Each degree is an independent chain (fit, transforms, eval) with its own
    # cache files: run the chains as jobs, each into its own scratch output,
    # then this script once more over all degrees, which finds every step
    # done and writes the tables.
    command -v parallel >/dev/null 2>&1 ||
        { echo "run-grid.sh: --jobs needs GNU parallel (Debian package parallel)" >&2; exit 2; }
    set -- --components "$comps" --subset "$subset" --seed "$seed" --eval "$evalopts" --name "$name" \
        --train "$train" --test "$test" --work "$work" --title "$title" ${smooth:+--smooth "$smooth"} \
        ${precision:+--precision "$precision"}
    # shellcheck disable=SC2046 # --force, when given, is one word
    lib_run parallel --will-cite --halt now,fail=1 -j "$jobs" -q sh scripts/run-grid.sh --degrees {} \
        --out "$work/jobs/d{}" $([ "$force" = 1 ] && echo --force) "$@" ::: $degrees ||
        { echo "run-grid.sh: a job failed (see above)" >&2; exit 1; }
    GRID_CMDLINE=$cmdline GRID_LOAD0=$load0 exec sh scripts/run-grid.sh --degrees "$degrees" --out "$out" "$@"
fi
maxk=$(echo "$comps" | tr ',' '\n' | sort -n | tail -n 1)
# one cache directory per fit setting; double keeps the name it had before
# kpca had --precision, so that its cached steps still serve
fitdir="$work/fit-m$subset-s$seed${smooth:+-smooth$smooth}$([ "$prec" = double ] || echo "-$prec")"
smoothopt=${smooth:+--smooth $smooth}
# the fit rows, drawn as named here (kpca fit's own default draw is
# stratified by label)
case "$seed" in 0) sampleopt="--sample first" ;; *) sampleopt="--sample random -s $seed" ;; esac
precopt=${precision:+--precision $precision}
# cells depend on the fit and on the eval options: one directory per pair
evaltag=$(printf '%s' "$evalopts" | tr -c 'A-Za-z0-9.,=-' '_')
celldir="$fitdir/eval-$evaltag"
mkdir -p "$fitdir" "$celldir" "$out"
# A degree's eval runs in the background while the next degree fits (the
# eigensolver's tridiagonal reduction leaves a core idle).  Every step is a
# child of lib_spawn/lib_run (lib.sh): on SIGINT or SIGTERM the steps under
# way are stopped at once, and each leaves either its whole file or none.
bg=""
# waits for the background eval; a failed one fails the run
wait_bg() {
    for p in $bg; do
        lib_wait "$p" || { bg=""; echo "run-grid.sh: a step failed (see above)" >&2; exit 1; }
    done
    bg=""
}

start=$(date +%s)
reused=0 # 1 when any step came from the cache: the run time is then partial

for d in $degrees; do
    model="$fitdir/d$d.model"
    # refit when forced, missing, unreadable (damaged, or from an older kpca),
    # or of another precision (a model without the key is double)
    if [ $force = 1 ] || [ ! -f "$model" ] || ! info=$("$KPCA" info "$model" 2>/dev/null) ||
        [ "$(printf '%s\n' "$info" | awk '$1 == "precision" { p = $2 } END { print p == "" ? "double" : p }')" != "$prec" ]; then
        say "== d=$d: fit on $subset digits"
        # shellcheck disable=SC2086
        lib_run "$KPCA" fit -q $smoothopt $precopt -d "$d" -m "$subset" $sampleopt -k "$maxk" "$train" -o "$model"
        rm -f "$fitdir/d$d.train.h5" "$fitdir/d$d.test.h5" "$celldir/d$d.csv"
    else
        reused=1
    fi
    for part in train test; do # both at once
        f="$fitdir/d$d.$part.h5"
        if [ $force = 1 ] || [ ! -f "$f" ]; then
            say "== d=$d: transform the $part digits"
            eval "src=\$$part"
            # shellcheck disable=SC2086
            lib_spawn "$KPCA" transform -q $smoothopt $precopt "$model" "$src" -o "$f"
            tbg="${tbg:-} $!"
        else
            reused=1
        fi
    done
    # the model's component count, read while the transforms run
    kept=$("$KPCA" info "$model" | awk '$1 == "components" { print $2 }')
    for p in ${tbg:-}; do
        lib_wait "$p" || { tbg=""; stop_fail=1; }
    done
    tbg=""
    [ -z "${stop_fail:-}" ] || { wait_bg; echo "run-grid.sh: transform failed" >&2; exit 1; }
    # the component counts this degree has (d = 1 stops at 256)
    ks=$(echo "$comps" | tr ',' '\n' | awk -v k="$kept" '$1 <= k' | paste -sd, -)
    cells="$celldir/d$d.csv"
    pred="$celldir/d$d.pred" # column i: the prediction of the cells file's row i
    have=""
    [ -f "$cells" ] && [ -f "$pred" ] && have=$(awk -F, 'NR > 1 { print $1 }' "$cells" | sort -n | paste -sd, -)
    # a cells file with more components than asked serves (the --full table
    # holds the 33-cell grid's); else the union is evaluated, so that the two
    # tables do not undo each other's cache
    lacking=$(echo "$ks" | tr ',' '\n' | awk -v have=",$have," '!index(have, "," $1 ",")' | paste -sd, -)
    if [ $force = 1 ] || [ -n "$lacking" ]; then
        [ $force = 1 ] && have=""
        ks=$(printf '%s\n%s\n' "$ks" "$have" | tr ',' '\n' | awk 'NF && !seen[$1]++' | sort -n | paste -sd, -)
        say "== d=$d: eval at $ks components ($evalopts)"
        wait_bg # one eval at a time
        # shellcheck disable=SC2086
        lib_spawn "$KPCA" eval -q -k "$ks" $precopt $evalopts "$fitdir/d$d.train.h5" "$fitdir/d$d.test.h5" --csv "$cells" \
            --predictions "$pred" >/dev/null
        bg=$!
    else
        reused=1
    fi
done
wait_bg
end=$(date +%s)
load1=$(load_stamp)

# ---- assemble: every cell with the paper's value --------------------------
csv="$out/$name.csv"
lib_tmp "$out/$name.csv"
{
    echo "degree,components,error_pct,errors,total,C,cv_error_pct,paper_error_pct,diff_pp,ci95_low,ci95_high,paper_outside_ci"
    for d in $degrees; do
        awk -F, -v d="$d" -v comps=",$comps," "$WILSON_AWK"'
            FNR == 1 { next }
            FILENAME ~ /paper-table1/ { if ($1 !~ /^#/) paper[$1 "," $2] = $3; next }
            index(comps, "," $1 ",") {
                p = ((d "," $1) in paper) ? paper[d "," $1] : ""
                diff = p == "" ? "" : sprintf("%.2f", $2 - p)
                # 95 % Wilson score interval of errors/total, in percent
                lo = sprintf("%.2f", wilson_lo($3, $4)); hi = sprintf("%.2f", wilson_hi($3, $4))
                out = p == "" ? "" : (p + 0 < lo + 0 || p + 0 > hi + 0 ? 1 : 0)
                printf "%s,%s,%.2f,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", d, $1, $2, $3, $4, $5, ($6 == "" ? "" : sprintf("%.2f", $6)), p, diff, lo, hi, out
            }' scripts/paper-table1.csv "$celldir/d$d.csv"
    done
} >"$tmp"
mv "$tmp" "$csv"

# ---- predictions: a column per cell, in the CSV's order ---------------------
pcsv="$out/$name-predictions.csv"
lib_tmp "$out/$name-predictions.csv"
gzip -cdf "$test" | awk '{ printf "%d\n", $1 }' >"$tmp.labels"
tmpfiles="$tmpfiles $tmp.labels"
cols="label"
cp "$tmp.labels" "$tmp.body"
tmpfiles="$tmpfiles $tmp.body $tmp.col"
for d in $degrees; do
    for k in $(awk -F, -v d="$d" 'NR > 1 && $1 == d { print $2 }' "$csv"); do
        # the column of the predictions file that holds k: the cells file's row of k
        i=$(awk -F, -v k="$k" 'NR > 1 && $1 == k { print NR - 1; exit }' "$celldir/d$d.csv")
        [ -n "$i" ] || { echo "run-grid.sh: no cell d=$d, $k components in $celldir/d$d.csv" >&2; exit 1; }
        cut -d' ' -f"$i" "$celldir/d$d.pred" | paste -d, "$tmp.body" - >"$tmp.col"
        mv "$tmp.col" "$tmp.body"
        cols="$cols,d${d}_k$k"
    done
done
# every column as long as the test set, and its errors those of the table
awk -F, -v want="$(wc -l <"$tmp.labels")" 'END { if (NR != want) { print "run-grid.sh: predictions have " NR " rows, test set " want > "/dev/stderr"; exit 1 } }' "$tmp.body"
{ echo "$cols"; cat "$tmp.body"; } >"$tmp"
awk -F, 'NR == FNR { if (FNR > 1) e[$1 "," $2] = $4; next }
    FNR == 1 { for (j = 2; j <= NF; j++) { c = $j; sub(/^d/, "", c); sub(/_k/, ",", c); key[j] = c }; next }
    { for (j = 2; j <= NF; j++) n[j] += ($j != $1) }
    END { for (j in key) if (n[j] + 0 != e[key[j]] + 0) { printf "run-grid.sh: cell %s: %d prediction errors, table %d\n", key[j], n[j], e[key[j]] > "/dev/stderr"; bad = 1 }; exit bad }' \
    "$csv" "$tmp" || exit 1
rm -f "$tmp.labels" "$tmp.body"
mv "$tmp" "$pcsv"

version=$("$KPCA" --version | awk 'NR == 1 { print $2 }')
commit=$(commit_stamp)
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
secs=$((end - start))
machine=$(machine_stamp)
load=$(load_words "$load0" "$load1")
ntrain=$(gzip -cdf "$train" | wc -l)
ntest=$(gzip -cdf "$test" | wc -l)

# ---- Markdown ---------------------------------------------------------------
md="$out/$name.md"
lib_tmp "$out/$name.md"
awk -F, -v degrees="$degrees" -v comps="$comps" -v title="$title" -v cmd="$cmdline" -v ver="$version" \
    -v commit="$commit" -v date="$date" -v machine="$machine" -v load="$load" -v secs="$secs" -v evalopts="$evalopts" \
    -v subset="$subset" -v seed="$seed" -v reused="$reused" -v prec="$prec" -v smooth="$smooth" -v ntrain="$ntrain" -v ntest="$ntest" '
    NR == 1 { next }
    {
        ours[$1 "," $2] = $3; paper[$1 "," $2] = $8; diff[$1 "," $2] = $9; cc[$1 "," $2] = $6
        lo[$1 "," $2] = $10; hi[$1 "," $2] = $11; outside[$1 "," $2] = $12
        if ($8 != "") { n++; mad += ($9 < 0 ? -$9 : $9); if (($9 < 0 ? -$9 : $9) > maxd) { maxd = ($9 < 0 ? -$9 : $9); maxcell = "d = " $1 ", " $2 " components" } }
        if ($12 == 1) nout++
        # the 33 cells the user asked for (d <= 6, 64 components or more) inside a larger table
        if ($8 != "" && $1 <= 6 && $2 >= 64) { ng++; madg += ($9 < 0 ? -$9 : $9); if (($9 < 0 ? -$9 : $9) > maxg) { maxg = ($9 < 0 ? -$9 : $9); maxgcell = "d = " $1 ", " $2 " components" } }
        else if ($8 != "") extra = 1
        if (best == "" || $3 + 0 < best + 0) { best = $3; bestcell = "d = " $1 ", " $2 " components" }
    }
    END {
        nd = split(degrees, D, " "); nc = split(comps, K, ",")
        printf "# %s\n\n", title
        printf "Each cell: ours (paper); † marks a paper value outside our 95 %% Wilson interval (table below). Paper: Schölkopf, Smola & Müller (1998), Table 1.\n\n"
        printf "- command: `%s`\n- kpca %s (commit %s), %s\n- machine: %s, %s\n- run time: %d s%s\n", cmd, ver, commit, date, machine, load, secs, (reused ? " (some steps reused from an earlier run in the cache: partial)" : " (every step computed)")
        if (smooth != "") printf "- digits smoothed by a Gaussian of sigma %s pixels before fit and transform (kpca --smooth)\n", smooth
        printf "- precision: %s (the eigensolver of kpca fit, the projection of transform, the Gram products of eval)\n", prec
        printf "- protocol: K from %s training digits (%s); all %d training digits projected and used to train; %d test digits; `kpca eval %s`\n\n", subset, (seed == 0 ? "the first ones" : "random subset, seed " seed), ntrain, ntest, evalopts
        printf "| components |"; for (i = 1; i <= nd; i++) printf " d=%s |", D[i]; printf "\n|---|"; for (i = 1; i <= nd; i++) printf "---|"; printf "\n"
        for (j = 1; j <= nc; j++) {
            printf "| %s |", K[j]
            for (i = 1; i <= nd; i++) {
                key = D[i] "," K[j]
                if (key in ours) printf " %s (%s)%s |", ours[key], (paper[key] == "" ? "–" : paper[key]), (outside[key] == 1 ? " †" : "")
                else printf " N.A. |"
            }
            printf "\n"
        }
        printf "\n95 %% Wilson score intervals of our error rates over the %d test digits (%%):\n\n", ntest
        printf "| components |"; for (i = 1; i <= nd; i++) printf " d=%s |", D[i]; printf "\n|---|"; for (i = 1; i <= nd; i++) printf "---|"; printf "\n"
        for (j = 1; j <= nc; j++) {
            printf "| %s |", K[j]
            for (i = 1; i <= nd; i++) { key = D[i] "," K[j]; printf " %s |", ((key in lo) ? sprintf("%.2f–%.2f%s", lo[key], hi[key], (outside[key] == 1 ? " †" : "")) : "") }
            printf "\n"
        }
        printf "\nDifferences, ours − paper (percentage points):\n\n"
        printf "| components |"; for (i = 1; i <= nd; i++) printf " d=%s |", D[i]; printf "\n|---|"; for (i = 1; i <= nd; i++) printf "---|"; printf "\n"
        for (j = 1; j <= nc; j++) {
            printf "| %s |", K[j]
            for (i = 1; i <= nd; i++) { key = D[i] "," K[j]; printf " %s |", ((key in diff) && diff[key] != "" ? sprintf("%+.2f", diff[key]) : "") }
            printf "\n"
        }
        printf "\n- cells: %d; mean absolute deviation from the paper: %.2f pp; largest: %.2f pp (%s)\n", n, (n ? mad / n : 0), maxd, maxcell
        if (extra && ng) printf "- of these, the %d cells of the 6 x 6 grid (d = 1..6, 64..2048 components): MAD %.2f pp; largest %.2f pp (%s)\n", ng, madg / ng, maxg, maxgcell
        printf "- the paper value lies outside our 95 %% Wilson interval in %d of %d cells (†); with 95 %% intervals about 5 %% of the cells would by chance alone\n", nout, n
        printf "- best cell: %s%% at %s\n", best, bestcell
        printf "- the standard error of an error rate near 5%% on %d test digits is about %.1f pp (the Wilson intervals span about ±%.0f pp)\n", ntest, 100 * sqrt(0.05 * 0.95 / ntest), 196 * sqrt(0.05 * 0.95 / ntest)
        if (evalopts ~ /-c [^ ]*,/) {
            printf "\nC chosen by cross-validation on the training features, per cell:\n\n"
            printf "| components |"; for (i = 1; i <= nd; i++) printf " d=%s |", D[i]; printf "\n|---|"; for (i = 1; i <= nd; i++) printf "---|"; printf "\n"
            for (j = 1; j <= nc; j++) {
                printf "| %s |", K[j]
                for (i = 1; i <= nd; i++) { key = D[i] "," K[j]; printf " %s |", ((key in cc) ? cc[key] : "") }
                printf "\n"
            }
        }
    }' "$csv" >"$tmp"
mv "$tmp" "$md"

# ---- JSON -------------------------------------------------------------------
json="$out/$name.json"
lib_tmp "$out/$name.json"
jq -n --arg cmd "$cmdline" --arg ver "$version" --arg commit "$commit" --arg date "$date" --arg machine "$machine" \
    --arg load0 "$load0" --arg load1 "$load1" --argjson secs "$secs" --arg evalopts "$evalopts" --arg prec "$prec" --argjson subset "$subset" --argjson seed "$seed" \
    --argjson reused "$([ "$reused" = 1 ] && echo true || echo false)" \
    --argjson cells "$(csv_to_json "$csv" degree,components,error_pct,errors,total,C,cv_error_pct,paper_error_pct,diff_pp,ci95_low,ci95_high)" \
    '{provenance: {command: $cmd, kpca_version: $ver, commit: $commit, date: $date, machine: $machine,
                   load_average_start: $load0, load_average_end: $load1, seconds: $secs, steps_reused: $reused},
      protocol: {fit_points: $subset, subset_seed: $seed, eval_options: $evalopts, precision: $prec},
      cells: ($cells | map(.paper_outside_ci |= (if . == "" or . == null then null else . == "1" end)))}' >"$tmp"
mv "$tmp" "$json"

# ---- plot ---------------------------------------------------------------------
if command -v gnuplot >/dev/null 2>&1; then
    png="$out/$name.png"
    tmp="$out/.$name.tmp.$$.png"
    tmpfiles="$tmpfiles $tmp"
    plot=""
    # one palette colour per degree
    i=0
    for d in $degrees; do
        i=$((i + 1))
        c=$(palette_colour "$i")
        plot="$plot '$csv' using (\$1 == $d ? \$2 : 1/0):3 with linespoints lw 2 pt 7 ps 1.2 lc rgb '$c' title 'd = $d (kpca)',"
        plot="$plot '$csv' using (\$1 == $d && strcol(8) ne \"\" ? \$2 : 1/0):8 with linespoints dt 2 lw 1.5 pt 6 ps 1.2 lc rgb '$c' title 'd = $d (paper)',"
    done
    gnuplot <<GP
set terminal pngcairo size 900,600 font ",11"
set output '$tmp'
set datafile separator ","
set logscale x 2
set xlabel "number of components"
set ylabel "test error (%)"
set title "USPS, linear SVM on polynomial kernel PCA components\n(solid: kpca; dashed, open circles: Schölkopf et al. 1998)"
set grid
set key outside right
set xtics (32, 64, 128, 256, 512, 1024, 2048)
plot ${plot%,}
GP
    mv "$tmp" "$png"
fi
say "results: $csv $md $json $pcsv${png:+ $png} (${secs}s)"
