#!/bin/sh
# spectrum.sh - the kernel PCA spectra of USPS: eigenvalues, explained
# variance and a scree plot, for the paper's polynomial kernels and rbf.
#
# For each kernel: `kpca fit` on the first M training digits keeping every
# component with a non-zero eigenvalue, `kpca spectrum --csv`.  Writes
# usps-spectrum.csv (kernel, component, eigenvalue, explained, cumulative),
# usps-spectrum.md (components needed for 50/90/95/99 % of trace(K~), with
# provenance) and usps-spectrum.png (scree plot and cumulative share).
#
# usage: scripts/spectrum.sh [--subset M] [--out DIR] [--work DIR]
#   --subset M   fit points (default: 3000, the paper's)
#   --out DIR    where results go (default: results)
#   --work DIR   models and per-kernel tables (default: build/spectrum)
set -eu
cd "$(dirname "$0")/.."
KPCA=${KPCA:-build/kpca}
. scripts/lib.sh
subset=3000
out=results
work=build/spectrum
cmdline="scripts/spectrum.sh${*:+ $*}"
while [ $# -gt 0 ]; do
    case "$1" in
    --subset) subset=$(optval "$@"); shift ;;
    --out) out=$(optval "$@"); shift ;;
    --work) work=$(optval "$@"); shift ;;
    -h|--help) usage; exit 0 ;;
    *) bad_option "$1" ;;
    esac
    shift
done
[ -x "$KPCA" ] || { echo "spectrum.sh: $KPCA not built: run make" >&2; exit 2; }
[ -f data/zip.train.gz ] || { echo "spectrum.sh: data/zip.train.gz missing: run make data" >&2; exit 2; }
mkdir -p "$work" "$out"
lib_traps

# name|fit options
kernels="d1|-d 1
d2|-d 2
d3|-d 3
d4|-d 4
d5|-d 5
d6|-d 6
rbf|--kernel rbf"


start=$(date +%s)
load0=$(load_stamp)
csv="$out/usps-spectrum.csv"
lib_tmp "$out/usps-spectrum.csv"
echo "kernel,component,eigenvalue,explained,cumulative" >"$tmp"
echo "$kernels" | while IFS='|' read -r name opts; do
    model="$work/$name-m$subset.h5"
    if [ ! -f "$model" ]; then
        echo "spectrum.sh: fit $name ($opts) on $subset digits" >&2
        # shellcheck disable=SC2086
        "$KPCA" fit -q $opts -m "$subset" --sample first data/zip.train.gz -o "$model"
    fi
    # through a file, not a pipe: set -e sees kpca spectrum fail
    "$KPCA" spectrum -q --csv "$work/$name-m$subset.spectrum.csv" "$model" >/dev/null
    awk -F, -v k="$name" 'NR > 1 { printf "%s,%d,%.8g,%.8g,%.8g\n", k, $1, $2, $4, $5 }' \
        "$work/$name-m$subset.spectrum.csv"
done >>"$tmp"
mv "$tmp" "$csv"
end=$(date +%s)
load1=$(load_stamp)

version=$("$KPCA" --version | awk 'NR == 1 { print $2 }')
commit=$(commit_stamp)
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
machine=$(machine_stamp)
sigma=$(model_key "$work/rbf-m$subset.h5" sigma)
sigma=$(printf '%.4g' "$sigma")

md="$out/usps-spectrum.md"
lib_tmp "$out/usps-spectrum.md"
awk -F, -v cmd="$cmdline" -v ver="$version" -v commit="$commit" -v date="$date" -v machine="$machine" \
    -v load="$(load_words "$load0" "$load1")" -v secs="$((end - start))" -v m="$subset" -v sigma="$sigma" '
    NR == 1 { next }
    !($1 in seen) { seen[$1] = 1; order[++n] = $1 }
    { kept[$1] = $2; share[$1] = $5
      for (t = 1; t <= 4; t++) if (!(($1, t) in need) && $5 >= goal[t]) need[$1, t] = $2 }
    BEGIN { goal[1] = 0.5; goal[2] = 0.9; goal[3] = 0.95; goal[4] = 0.99 }
    END {
        print "# Kernel PCA spectra of USPS (" m " training digits)\n"
        print "Provenance: `" cmd "`, kpca " ver " (" commit "), " date ", " machine ", " load ", " secs " s.\n"
        print "Components needed to explain a share of the variance in feature space, trace(K~) (the sum of"
        print "all eigenvalues of the centred kernel matrix); `kept` counts the non-zero eigenvalues. d = 1 is"
        print "linear PCA (at most 256 components). rbf uses the default sigma = " sigma ".\n"
        print "| kernel | 50 % | 90 % | 95 % | 99 % | kept | share kept |"
        print "|---|---:|---:|---:|---:|---:|---:|"
        for (i = 1; i <= n; i++) {
            k = order[i]; line = "| " (k ~ /^d/ ? "poly d = " substr(k, 2) : k)
            for (t = 1; t <= 4; t++) line = line " | " ((k, t) in need ? need[k, t] : "-")
            printf "%s | %d | %.6f |\n", line, kept[k], share[k]
        }
        print "\nThe higher the degree, the flatter the spectrum: d = 6 needs far more components than d = 2 for"
        print "the same share of the variance."
        print "`kpca fit --components 0.95` keeps the fewest components for a share; `kpca spectrum` prints"
        print "the table for any model (see docs/experiments.md, \"The spectrum\")."
    }' "$csv" >"$tmp"
mv "$tmp" "$md"

if command -v gnuplot >/dev/null 2>&1; then
    png="$out/usps-spectrum.png"
    tmp="$out/.usps-spectrum.tmp.$$.png"
    tmpfiles="$tmpfiles $tmp"
    scree="" cum="" i=0
    for name in d1 d2 d3 d4 d5 d6 rbf; do
        i=$((i + 1))
        c=$(palette_colour "$i")
        label=$(echo "$name" | sed 's/^d/d = /')
        scree="$scree '$csv' using (strcol(1) eq '$name' ? \$2 : 1/0):4 with lines lw 2 lc rgb '$c' title '$label',"
        cum="$cum '$csv' using (strcol(1) eq '$name' ? \$2 : 1/0):(100*\$5) with lines lw 2 lc rgb '$c' title '$label',"
    done
    gnuplot <<GP
set terminal pngcairo size 1100,480 font ",11"
set output '$tmp'
set datafile separator ","
set multiplot layout 1,2 title "USPS kernel PCA spectra ($subset training digits; rbf sigma = $sigma)"
set logscale xy
set grid
set xlabel "component"
set ylabel "explained share mu / trace(K~)"
set format y "10^{%T}"
set key top right
set title "scree plot"
plot ${scree%,}
unset logscale y
set format y "%g"
set ylabel "cumulative share (%)"
set yrange [0:100]
set key bottom right
set title "cumulative explained variance"
plot ${cum%,}
unset multiplot
GP
    mv "$tmp" "$png"
fi
echo "results: $csv $md${png:+ $png} ($((end - start)) s)"
