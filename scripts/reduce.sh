#!/bin/sh
# reduce.sh - reduced-set feature extraction (kpca reduce) on USPS.
#
# For d = 2, 3, 4: the grid's model (kernel (x.y)^d, the first 3000
# training digits, 2048 components); for k = 256 and 2048 components and
# every reduced-set size M_RED: `kpca reduce` (L-BFGS from a subset of the
# fit points; auto picks it, as the exact eigen-expansion of d = 2 needs far
# more than 3000 vectors here), the residuals rho_c = |V_c - V~_c|^2 (mean
# and largest over the k components; |V_c| = 1), the test error of the
# headline protocol (all 7291 training digits projected, `kpca eval -k K
# --multiclass ovo --scale norm -c 10`, the 2007 test digits) and the
# projection time of the 7291 training digits (the 'projection' phase of
# `kpca transform -v`), against the full model; for d = 3, Nystrom models
# (`kpca fit --solver nystrom`, uniform landmarks) with as many landmarks as
# reduced-set vectors, i.e. the same kernel evaluations per point.
# Writes reduced-set.csv, reduced-set.md and reduced-set.png (gnuplot).
#
# usage: scripts/reduce.sh [--out DIR] [--work DIR] [--sizes LIST] [--quick]
#   --out DIR     where results go (default: results)
#   --work DIR    models and features (default: build/reduce)
#   --sizes LIST  reduced-set sizes (default: 64,200,600,1500)
#   --quick       d = 3 only, M = 500, k = 16 and 64, sizes 16,64 (for trying it)
#   --replot      only redraw reduced-set.png from reduced-set.csv in --out
set -eu
cd "$(dirname "$0")/.."
KPCA=${KPCA:-build/kpca}
. scripts/lib.sh
out=results
work=build/reduce
sizes=64,200,600,1500
degrees="2 3 4"
ks="256 2048"
subset=3000
quick=0
replot=0
cmdline="scripts/reduce.sh${*:+ $*}"
while [ $# -gt 0 ]; do
    case "$1" in
    --out) out=$(optval "$@"); shift ;;
    --work) work=$(optval "$@"); shift ;;
    --sizes) sizes=$(optval "$@"); shift ;;
    --quick) quick=1 ;;
    --replot) replot=1 ;;
    -h|--help) usage; exit 0 ;;
    *) bad_option "$1" ;;
    esac
    shift
done
# the plot: test error against kernel evaluations per point, a line per
# (d, K) over the reduced sets, the full models as filled points at M
draw() {
    command -v gnuplot >/dev/null 2>&1 || return 0
    csv="$out/reduced-set.csv"
    png="$out/reduced-set.png"
    plot=""
    for d in $degrees; do for k in $ks; do
        plot="$plot '$csv' using ((\$1 == $d && \$2 == $k && (strcol(3) eq \"reduced\")) ? \$4 : 1/0):11 with linespoints lw 2 title 'd = $d, K = $k (reduced)',"
    done; done
    plot="$plot '$csv' using ((strcol(3) eq \"full\") ? \$4 : 1/0):11 with points pt 7 ps 1.5 lc rgb 'black' title 'full models (d = 2, 3, 4; K = 256, 2048)',"
    plot="$plot '$csv' using ((strcol(3) eq \"nystrom\") ? \$4 : 1/0):11 with points pt 6 ps 2 lc rgb 'black' title 'Nystrom, d = 3, L = vectors'"
    lib_tmp "$png"
    gnuplot <<EOF
set terminal pngcairo size 900,600
set output '$tmp'
set datafile separator ','
set logscale x
set xlabel 'kernel evaluations per point (reduced-set vectors, landmarks, or the $subset fit points)'
set ylabel 'USPS test error (%)'
set title 'Reduced-set kernel PCA features (kpca reduce)'
set key top right
set grid
plot $plot
EOF
    mv "$tmp" "$png"
}

[ $quick = 1 ] && { degrees=3; ks="16 64"; subset=500; sizes=16,64; }
lib_traps
if [ $replot = 1 ]; then draw; echo "reduce.sh: redrew $out/reduced-set.png" >&2; exit 0; fi
[ -x "$KPCA" ] || { echo "reduce.sh: $KPCA not built: run make" >&2; exit 2; }
mkdir -p "$out" "$work"
maxk=$(echo $ks | tr ' ' '\n' | sort -n | tail -n 1)
EVAL=$(headline_eval) # scripts/lib.sh
start=$(date +%s)
load0=$(load_stamp)
# the code measured: the commit at the start ("-dirty": code, not results/, differs from it)
commit=$(commit_stamp)
rows="$work/rows.csv"
: >"$rows"

# projection seconds of MODEL on the training digits (features to $2)
project() {
    "$KPCA" transform -v ${3:+-k $3} "$1" data/zip.train.gz -o "$2" 2>&1 >/dev/null |
        awk '/timing/ && /projection/ { print $4 }'
}
# test error (%) at K components of train/test features $1 $2
evaluate() {
    "$KPCA" eval -q -k "$3" $EVAL "$1" "$2" | awk 'NR == 2 { print $2 }'
}

for d in $degrees; do
    model="$work/d$d.h5"
    say "d=$d: fit on $subset digits, $maxk components"
    lib_run "$KPCA" fit -q -d "$d" -m "$subset" --sample first -k "$maxk" data/zip.train.gz -o "$model"
    for k in $ks; do
        lib_run "$KPCA" transform -q -k "$k" "$model" data/zip.test.gz -o "$work/d$d.test.h5"
        ptime=$(project "$model" "$work/d$d.train.h5" "$k")
        err=$(evaluate "$work/d$d.train.h5" "$work/d$d.test.h5" "$k")
        say "d=$d k=$k full: error $err %, projection $ptime s"
        echo "$d,$k,full,$subset,0,0,0,0,$ptime,$err" >>"$rows"
        for m in $(echo "$sizes" | tr ',' ' '); do
            [ "$m" -le "$subset" ] || continue
            iter=20
            [ "$m" -gt 1000 ] && iter=10
            small="$work/d$d-k$k-m$m.h5"
            t0=$(date +%s.%N)
            lib_run "$KPCA" reduce -q -k "$k" -m "$m" --iter $iter "$model" -o "$small"
            t1=$(date +%s.%N)
            rsec=$(echo "$t1 $t0" | awk '{ printf "%.1f", $1 - $2 }')
            rho=$("$KPCA" info "$small" | awk '$1 == "residual_mean" { m = $2 } $1 == "residual_max" { x = $2 } END { print m "," x }')
            ptime=$(project "$small" "$work/r.train.h5")
            lib_run "$KPCA" transform -q "$small" data/zip.test.gz -o "$work/r.test.h5"
            err=$(evaluate "$work/r.train.h5" "$work/r.test.h5" "$k")
            say "d=$d k=$k M_RED=$m: rho $rho, error $err %, projection $ptime s, reduce $rsec s"
            echo "$d,$k,reduced,$m,$iter,$rho,$rsec,$ptime,$err" >>"$rows"
        done
    done
done
# Nystrom at the same number of kernel evaluations per point (d = 3)
nd=3
done_ny=" "
for m in $(echo "$sizes" | tr ',' ' '); do
    for k in $ks; do
        kk=$k
        [ "$kk" -le "$m" ] || kk=$m
        [ "$m" -ge 2 ] && [ "$m" -le "$subset" ] || continue
        case "$done_ny" in *" $m:$kk "*) continue ;; esac
        done_ny="$done_ny$m:$kk "
        nm="$work/ny-d$nd-l$m-k$kk.h5"
        t0=$(date +%s.%N)
        lib_run "$KPCA" fit -q -d $nd -m "$subset" --sample first --solver nystrom --landmarks "$m" -k "$kk" data/zip.train.gz -o "$nm"
        t1=$(date +%s.%N)
        rsec=$(echo "$t1 $t0" | awk '{ printf "%.1f", $1 - $2 }')
        got=$("$KPCA" info "$nm" | awk '$1 == "components" { print $2 }')
        ptime=$(project "$nm" "$work/n.train.h5")
        lib_run "$KPCA" transform -q "$nm" data/zip.test.gz -o "$work/n.test.h5"
        err=$(evaluate "$work/n.train.h5" "$work/n.test.h5" "$got")
        say "d=$nd nystrom l=$m k=$got: error $err %, projection $ptime s"
        echo "$nd,$k,nystrom,$m,0,,,$rsec,$ptime,$err,$got" >>"$rows"
    done
done
end=$(date +%s)
load1=$(load_stamp)

csv="$out/reduced-set.csv"
lib_tmp "$csv"
{
    echo "degree,k,model,vectors,iterations,rho_mean,rho_max,make_s,projection_s,speedup,test_error_pct,components_used"
    awk -F, '$3 == "full" { full[$1 "," $2] = $9 }
        { f = full[$1 "," $2]; sp = ($9 > 0 && f != "") ? sprintf("%.2f", f / $9) : ""
          printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, sp, $10, ($11 == "" ? $2 : $11) }' "$rows"
} >"$tmp" && mv "$tmp" "$csv"

version=$("$KPCA" --version | awk 'NR == 1 { print $2 }')
blas=$("$KPCA" --version | awk 'NR == 2 { print $2 }')
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
md="$out/reduced-set.md"
lib_tmp "$md"
awk -F, -v cmd="$cmdline" -v ver="$version" -v commit="$commit" -v date="$date" -v blas="$blas" \
    -v machine="$(machine_stamp)" -v load="$(load_words "$load0" "$load1")" -v secs=$((end - start)) -v subset=$subset -v evalopts="$EVAL" '
NR == 1 { next }
{ row[NR] = $0; n = NR }
END {
    print "# Reduced-set feature extraction (kpca reduce) on USPS, kernel (x.y)^d\n"
    printf "Provenance: `%s`, kpca %s (%s), %s, %s, OpenBLAS kernels %s, %s, %d s. ", cmd, ver, commit, date, machine, blas, load, secs
    print "The seconds are wall time, which other jobs on the machine inflate: compare ratios within one run only.\n"
    printf "Models: the first %d training digits, `kpca fit -d D -k 2048`; reduced with `kpca reduce -k K -m M_RED --iter N` ", subset
    print "(L-BFGS from a seeded subset of the fit points, 20 iterations, 10 above 1000 vectors). rho: the residual |V_c - V~_c|^2 of a component (|V_c| = 1), mean and largest over the K components. "
    print "Test error: all 7291 training digits projected, `kpca eval -k K " evalopts "`, 2007 test digits. "
    print "Projection: seconds of the projection phase of `kpca transform -v` on the 7291 training digits; speed-up = full model / this one. "
    print "A reduced set of all " subset " fit points is the full model itself (rho = 0): the `full` rows stand for it. "
    print "Nystrom (d = 3): `kpca fit --solver nystrom --landmarks L` with L = M_RED uniform landmarks, the same kernel evaluations per point, and at most L components.\n"
    print "| d | K | model | vectors | rho mean | rho max | make s | projection s | speed-up | test error % |"
    print "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|"
    for (i = 2; i <= n; i++) {
        split(row[i], f, ",")
        name = f[3]; if (f[3] == "nystrom") name = "nystrom (" f[12] " comp.)"
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", f[1], f[2], name, f[4], f[6], f[7], f[8], f[9], f[10], f[11]
    }
}' "$csv" >"$tmp" && mv "$tmp" "$md"

draw
say "wrote $csv, $md and the plot"
