#!/bin/sh
# scaling.sh - how `kpca fit` grows with the number of fit points M.
#
# Kernel (x.y)^3, k = 256 components, for each solver and M:
#   exact       M = 500 .. 7291 (the first M USPS training digits)
#   randomized  M = 1000 .. 29164
#   nystrom     M = 1000 .. 29164 (1000 landmarks; 200 with --quick)
# M above 7291 takes the first M digits of USPS with one-pixel shifted
# copies (scripts/shifted-usps.sh --copies 4).  Each fit runs alone with one
# OpenBLAS thread and is measured by GNU time: CPU seconds (user + system:
# the work done, which another job on a shared machine does not inflate the
# way it inflates wall time), wall seconds and peak RSS.  A least-squares
# line through log(cost) against log(M), over M >= 2000, gives each curve's
# exponent; the RSS curve, extended, says where each solver stops fitting in
# the machine's memory.  Writes scaling.csv, scaling.md and scaling.png.
#
# usage: scripts/scaling.sh [--out DIR] [--work DIR] [--quick] [--force]
#   --out DIR    where results go (default: results)
#   --work DIR   data and models (default: build/scaling)
#   --quick      small M only (M <= 1500; for the tests)
#   --force      refit every point (default: reuse measurements in --work)
set -eu
cd "$(dirname "$0")/.."
. scripts/lib.sh
KPCA=${KPCA:-build/kpca}
TIME=${TIME_BIN:-/usr/bin/time}
out=results
work=build/scaling
quick=0
force=0
cmdline="scripts/scaling.sh${*:+ $*}"
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
[ -x "$KPCA" ] || { say "scaling.sh: $KPCA not built: run make"; exit 2; }
[ -x "$TIME" ] || { say "scaling.sh: $TIME missing (Debian package time)"; exit 2; }
[ -f data/zip.train.gz ] || { say "scaling.sh: USPS missing: run make data"; exit 2; }
mkdir -p "$work" "$out"
lib_traps

if [ "$quick" = 1 ]; then
    exact="300 600 1000 1500" big="600 1000 1500" k=32 L=200
else
    exact="500 1000 2000 3000 5000 7291" big="1000 2000 4000 7291 14582 29164" k=256 L=1000
fi
data_for() { # the data file that has at least M rows
    if [ "$1" -le 7291 ]; then
        echo data/zip.train.gz
    else
        f="$work/usps-x4.txt"
        [ -f "$f" ] || sh scripts/shifted-usps.sh --copies 4 --out "$f" >&2 || die "cannot make $f"
        echo "$f"
    fi
}

# measure SOLVER M: one line "solver,M,k,cpu_s,wall_s,rss_mb" into $work/SOLVER-M.csv
measure() {
    s=$1 m=$2
    row="$work/$s-$m-k$k.csv"
    if [ "$force" = 0 ] && [ -s "$row" ]; then
        cat "$row"
        return
    fi
    d=$(data_for "$m")
    case "$s" in
    exact) opts="" ;;
    randomized) opts="--solver randomized" ;;
    nystrom) opts="--solver nystrom --landmarks $L" ;;
    esac
    say "scaling.sh: fit $s, M = $m"
    model="$work/model.h5"
    tf="$work/time.$$"
    tmpfiles="$tmpfiles $tf $model"
    # shellcheck disable=SC2086
    OPENBLAS_NUM_THREADS=1 "$TIME" -f '%U %S %e %M' -o "$tf" \
        "$KPCA" fit -q -d 3 -m "$m" --sample first -k "$k" $opts "$d" -o "$model" || die "kpca fit failed ($s, M = $m)"
    awk -v s="$s" -v m="$m" -v k="$k" 'END { printf "%s,%s,%s,%.3f,%.3f,%.1f\n", s, m, k, $1 + $2, $3, $4 / 1024 }' \
        "$tf" >"$row.tmp"
    mv "$row.tmp" "$row"
    rm -f "$tf" "$model"
    cat "$row"
}

csv="$work/scaling.csv"
tmpfiles="$tmpfiles $csv.tmp"
start=$(date +%s)
load0=$(load_stamp)
{
    echo "solver,fit_points,components,cpu_seconds,wall_seconds,peak_rss_mb"
    for m in $exact; do measure exact "$m"; done
    for m in $big; do measure randomized "$m"; done
    for m in $big; do measure nystrom "$m"; done
} >"$csv.tmp"
mv "$csv.tmp" "$csv"
secs=$(($(date +%s) - start))
load1=$(load_stamp)

version=$("$KPCA" --version | awk 'NR == 1 { print $2 }')
core=$("$KPCA" --version | awk 'NR == 2 { print $2 }')
commit=$(commit_stamp)
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
memkb=$(awk '/MemTotal/ { print $2 }' /proc/meminfo 2>/dev/null || echo 0)
machine="$(machine_stamp), $(awk -v m="$memkb" 'BEGIN { printf "%.0f GiB", m / 1048576 }'), OpenBLAS $core kernels"

# exponents: least squares of log(y) on log(M) over M >= 2000 (all M with --quick);
# where RSS reaches the machine's memory, by the RSS line
md="$work/scaling.md"
tmpfiles="$tmpfiles $md.tmp"
awk -F, -v quick="$quick" -v memkb="$memkb" -v cmd="$cmdline" -v ver="$version" -v commit="$commit" \
    -v date="$date" -v machine="$machine" -v load="$(load_words "$load0" "$load1")" -v secs="$secs" -v k="$k" '
    NR == 1 { next }
    { s = $1; m = $2 + 0; n[s]++; M[s, n[s]] = m; C[s, n[s]] = $4; W[s, n[s]] = $5; R[s, n[s]] = $6
      if (!(s in seen)) { seen[s] = 1; order[++ns] = s } }
    function fit(s, A, lo,    i, x, y, sx, sy, sxx, sxy, c) {
        sx = sy = sxx = sxy = c = 0
        for (i = 1; i <= n[s]; i++) {
            if (M[s, i] < lo) continue
            x = log(M[s, i]); y = log(A[s, i] > 0 ? A[s, i] : 1e-3)
            sx += x; sy += y; sxx += x * x; sxy += x * y; c++
        }
        if (c < 2) { slope = 0; icpt = 0; return 0 }
        slope = (c * sxy - sx * sy) / (c * sxx - sx * sx); icpt = (sy - slope * sx) / c
        return 1
    }
    END {
        lo = quick ? 0 : 2000
        print "# How `kpca fit` grows with the number of fit points\n"
        printf "Kernel (x.y)^3, %d components, one OpenBLAS thread per fit; CPU seconds are user + system time\n", k
        print "(the work done; wall time also counts other jobs on the machine), peak RSS from GNU time."
        print "M above 7291: USPS training digits with one-pixel shifted copies (scripts/shifted-usps.sh).\n"
        print "| solver | M | CPU s | wall s | peak RSS (MB) |\n|---|---:|---:|---:|---:|"
        for (o = 1; o <= ns; o++) { s = order[o]
            for (i = 1; i <= n[s]; i++) printf "| %s | %d | %.2f | %.2f | %.0f |\n", s, M[s, i], C[s, i], W[s, i], R[s, i] }
        print "\n## Growth\n"
        printf "Least-squares exponents of cost ~ M^e over M >= %d. Where each solver stops fitting in the machine'"'"'s\n", lo
        printf "%.0f GiB: its memory'"'"'s leading term (c M^2 for the M x M kernel matrix of the exact and randomized\n", memkb / 1048576
        print "solvers, c M for Nystrom'"'"'s n x L blocks at fixed L), c from the largest M measured; the power-law line"
        print "through the points (last column) undershoots where constant overheads still weigh at small M.\n"
        print "| solver | CPU time exponent | RSS exponent | stops fitting at M | by the RSS line |\n|---|---:|---:|---:|---:|"
        for (o = 1; o <= ns; o++) { s = order[o]
            fit(s, C, lo); et = slope
            ok = fit(s, R, lo); er = slope; ir = icpt
            mline = (ok && er > 0) ? exp((log(memkb / 1024) - ir) / er) : 0
            lead = s == "nystrom" ? 1 : 2; last = n[s]
            mlead = M[s, last] * exp(log(memkb / 1024 / R[s, last]) / lead)
            printf "| %s | %.2f | %.2f | %s | %s |\n", s, et, er, (mlead > 1e7 ? "> 10^7" : sprintf("%.0f", mlead)),
                (mline <= 0 ? "-" : mline > 1e7 ? "> 10^7" : sprintf("%.0f", mline)) }
        print "\nProvenance: `" cmd "`, kpca " ver " (" commit "), " date ", " machine ", " load ", " secs " s."
    }' "$csv" >"$md.tmp"
mv "$md.tmp" "$md"

# the plot: CPU time and RSS against M, log-log, one line per solver
png="$work/scaling.png"
if command -v gnuplot >/dev/null 2>&1; then
    for s in exact randomized nystrom; do
        awk -F, -v s="$s" '$1 == s { print $2, $4, $6 }' "$csv" >"$work/$s.dat"
    done
    gnuplot <<EOF || die "gnuplot failed"
set terminal pngcairo size 1100,450 font "sans,10"
set output "$png.tmp"
set multiplot layout 1,2 title "kpca fit, (x.y)^3, $k components, one thread ($core kernels)"
set logscale xy
set xlabel "fit points M"
set grid
set key top left
set ylabel "CPU seconds"
plot "$work/exact.dat" using 1:2 with linespoints lw 2 title "exact", \
     "$work/randomized.dat" using 1:2 with linespoints lw 2 title "randomized", \
     "$work/nystrom.dat" using 1:2 with linespoints lw 2 title "Nystrom ($L landmarks)"
set ylabel "peak RSS (MB)"
plot "$work/exact.dat" using 1:3 with linespoints lw 2 title "exact", \
     "$work/randomized.dat" using 1:3 with linespoints lw 2 title "randomized", \
     "$work/nystrom.dat" using 1:3 with linespoints lw 2 title "Nystrom ($L landmarks)"
unset multiplot
EOF
    mv "$png.tmp" "$png"
    cp "$png" "$out/scaling.png"
fi
cp "$csv" "$out/scaling.csv"
cp "$md" "$out/scaling.md"
echo "scaling.sh: wrote $out/scaling.md, scaling.csv${png:+, scaling.png}" >&2
