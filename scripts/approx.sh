#!/bin/sh
# approx.sh - approximate kernel PCA solvers against the exact one on USPS.
#
# Kernel (x.y)^3, the paper's protocol.  Part 1: the first M = 3000
# training digits, exact (dense LAPACK), randomized (Halko et al.) and
# Nystrom (uniform and k-means landmarks) models; for k = 64, 256, 1024
# components: eigenvalue and subspace error against the exact model
# (bench/approx_compare on the M fit points), fit time and peak RSS, and
# the test error of the grid's cell (all 7291 training digits projected,
# linear SVM with the headline protocol, the 2007 test digits).  Part 2:
# all 7291 training digits, exact versus Nystrom.  Writes approx.csv and
# approx.md into the output directory.
#
# usage: scripts/approx.sh [--out DIR] [--work DIR] [--quick] [--force]
#   --out DIR    where results go (default: results)
#   --work DIR   models and features (default: build/approx)
#   --quick      M = 600, k = 16, 64 and no part 2 (for the tests)
#   --force      refit every model (default: reuse the models in --work,
#                with the time and RSS measured when they were fitted)
set -eu
cd "$(dirname "$0")/.."
KPCA=${KPCA:-build/kpca}
. scripts/lib.sh
CMP=${CMP:-build/bench/approx_compare}
out=results
work=build/approx
quick=0
force=0
cmdline="scripts/approx.sh${*:+ $*}"
while [ $# -gt 0 ]; do
    case "$1" in
    --out) out=$(optval "$@"); shift ;;
    --work) work=$(optval "$@"); shift ;;
    --quick) quick=1 ;;
    --force) force=1 ;;
    -h|--help) usage; exit 0 ;;
    *) bad_option "$1" ;;
    esac
    shift
done
for t in "$KPCA" "$CMP"; do
    [ -x "$t" ] || { echo "approx.sh: $t not built: run make approx" >&2; exit 2; }
done
[ -f data/zip.train.gz ] || { echo "approx.sh: USPS missing: run make data" >&2; exit 2; }
mkdir -p "$work" "$out"
lib_traps

# the grid's headline protocol
EVAL=$(headline_eval)
if [ "$quick" = 1 ]; then
    M=600 ks="16 64" kmax=64 L1=200 L2=400
else
    M=3000 ks="64 256 1024" kmax=1024 L1=1000 L2=2000
fi
klist=$(echo "$ks" | tr ' ' ',')
csv="$work/approx.csv"
echo "part,fit_points,solver,k,fit_seconds,peak_rss_mb,eig_max_relerr,eig_mean_relerr,subspace_sin_max,subspace_mean,test_error_pct" >"$csv"

# fit NAME M FIT-OPTIONS...: model $work/NAME.h5, its time and RSS in
# NAME.fit; both are reused when they exist (--force: refit).  NAME says
# M, k and the landmarks, so --quick and full runs never share a model.
fit() {
    name=$1 m=$2
    shift 2
    if [ "$force" = 0 ] && [ -s "$work/$name.h5" ] && [ -s "$work/$name.fit" ]; then
        say "reuse $name"
        return 0
    fi
    say "fit $name: $*"
    # shellcheck disable=SC2068
    /usr/bin/time -f "%e %M" -o "$work/$name.fit" "$KPCA" fit -q -d 3 -m "$m" --sample first "$@" data/zip.train.gz \
        -o "$work/$name.h5"
}

# errors NAME KLIST: test error per k of the grid cell (transform + eval)
errors() {
    "$KPCA" transform -q "$work/$1.h5" data/zip.train.gz -o "$work/$1.train.h5"
    "$KPCA" transform -q "$work/$1.h5" data/zip.test.gz -o "$work/$1.test.h5"
    # shellcheck disable=SC2086
    "$KPCA" eval -q $EVAL -k "$2" --csv "$work/$1.eval.csv" "$work/$1.train.h5" "$work/$1.test.h5" >/dev/null
    rm -f "$work/$1.train.h5" "$work/$1.test.h5"
}

# row PART M NAME SOLVER K EXACT: one CSV line
row() {
    part=$1 m=$2 name=$3 solver=$4 k=$5 exact=$6
    # "SECONDS KILOBYTES" from /usr/bin/time; a missing or empty file stops the run
    read -r secs kb <"$work/$name.fit" && [ -n "$kb" ] || { say "no fit measurement in $work/$name.fit"; exit 1; }
    rss=$(awk -v k="$kb" 'BEGIN { printf "%.0f", k / 1024 }')
    if [ "$name" = "$exact" ]; then
        acc="0,0,0,0"
    else
        # not in a pipeline, so that set -e sees approx_compare fail
        acc=$("$CMP" "$work/$exact.h5" "$work/$name.h5" data/zip.train.gz "$m" "$k")
        acc=${acc#*,}
    fi
    err=$(awk -F, -v k="$k" 'NR > 1 && $1 == k { print $2 }' "$work/$name.eval.csv")
    [ -n "$err" ] && [ -n "$acc" ] || { say "no measurement for $name at k = $k"; exit 1; }
    echo "$part,$m,$solver,$k,$secs,$rss,$acc,$err" >>"$csv"
}

start=$(date +%s)
load0=$(load_stamp)
# ---- part 1: M fit points ------------------------------------------------------
ex="m$M-exact-k$kmax" nu1="m$M-nys-u-l$L1-k$L1" nk1="m$M-nys-km-l$L1-k$L1" nu2="m$M-nys-u-l$L2-k$kmax"
fit "$ex" "$M" -k "$kmax"
errors "$ex" "$klist"
for k in $ks; do row 1 "$M" "$ex" "exact (LAPACK)" "$k" "$ex"; done
for k in $ks; do
    fit "m$M-rand-k$k" "$M" --solver randomized -k "$k"
    errors "m$M-rand-k$k" "$k"
    row 1 "$M" "m$M-rand-k$k" "randomized p=k q=4" "$k" "$ex"
done
fit "$nu1" "$M" --solver nystrom --landmarks "$L1" -k "$L1"
fit "$nk1" "$M" --solver nystrom --landmarks "$L1" --landmark-method kmeans -k "$L1"
fit "$nu2" "$M" --solver nystrom --landmarks "$L2" -k "$kmax"
klist1=$(for k in $ks; do [ "$k" -le "$L1" ] && echo "$k"; done | paste -sd, -)
errors "$nu1" "$klist1"
errors "$nk1" "$klist1"
errors "$nu2" "$klist"
for k in $ks; do
    if [ "$k" -le "$L1" ]; then
        row 1 "$M" "$nu1" "Nystrom uniform l=$L1" "$k" "$ex"
        row 1 "$M" "$nk1" "Nystrom k-means l=$L1" "$k" "$ex"
    fi
    row 1 "$M" "$nu2" "Nystrom uniform l=$L2" "$k" "$ex"
done

# ---- part 2: all 7291 training digits --------------------------------------------
if [ "$quick" = 0 ]; then
    ax="m7291-exact-k$kmax" an="m7291-nys-u-l$L2-k$kmax"
    fit "$ax" 7291 -k "$kmax"
    errors "$ax" "$klist"
    fit "$an" 7291 --solver nystrom --landmarks "$L2" -k "$kmax"
    errors "$an" "$klist"
    for k in $ks; do
        row 2 7291 "$ax" "exact (LAPACK)" "$k" "$ax"
        row 2 7291 "$an" "Nystrom uniform l=$L2" "$k" "$ax"
    done
fi
end=$(date +%s)
load1=$(load_stamp)
cp "$csv" "$out/approx.csv"

version=$("$KPCA" --version | awk 'NR == 1 { print $2 }')
commit=$(commit_stamp)
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
machine=$(machine_stamp)
md="$out/approx.md"
lib_tmp "$out/approx.md"
awk -F, -v cmd="$cmdline" -v ver="$version" -v commit="$commit" -v date="$date" -v machine="$machine" \
    -v load="$(load_words "$load0" "$load1")" -v secs="$((end - start))" -v M="$M" -v ev="$EVAL" '
    NR == 1 { next }
    { line = sprintf("| %s | %s | %s | %s | %s | %s | %s | %s |", $3, $4, $5, $6, $7, $10, $9, $11)
      if ($1 == 1) p1[++n1] = line; else p2[++n2] = line }
    END {
        print "# Approximate kernel PCA solvers against the exact one (USPS, (x.y)^3)\n"
        print "Provenance: `" cmd "`, kpca " ver " (" commit "), " date ", " machine ", " load ", " secs " s.\n"
        print "Errors are against the exact model fitted on the same points: eigenvalue error"
        print "max_c |mu_c - mu~_c| / mu_c over the first k; subspace error between the spans of the"
        print "first k components (projections of the fit points; principal angles): the mean"
        print "sqrt(sum sin^2 / k) and the largest sin. Test error: the grid cell (all 7291 training"
        print "digits projected, linear SVM `" ev "`, the 2007 test digits). Fit seconds and peak RSS"
        print "(MB) are those of the whole `kpca fit` process (reading the data included).\n"
        print "## " M " fit points" (M == 3000 ? " (the paper'"'"'s M)" : "") "\n"
        print "| solver | k | fit s | peak RSS MB | eigenvalue max rel. error | subspace mean sin | subspace max sin | test error % |"
        print "|---|---:|---:|---:|---:|---:|---:|---:|"
        for (i = 1; i <= n1; i++) print p1[i]
        if (n2) {
            print "\n## All 7291 training digits\n"
            print "| solver | k | fit s | peak RSS MB | eigenvalue max rel. error | subspace mean sin | subspace max sin | test error % |"
            print "|---|---:|---:|---:|---:|---:|---:|---:|"
            for (i = 1; i <= n2; i++) print p2[i]
        }
    }' "$csv" >"$tmp"
mv "$tmp" "$md"
say "results: $md $out/approx.csv ($((end - start)) s)"
