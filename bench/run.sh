#!/bin/sh
# bench/run.sh - `make bench`: the performance figures of issue 4, measured
# on this machine, written to results/bench.md (and printed).
#
#  1. every phase of one grid column in process (bench/bench_phases.c);
#  2. `kpca fit` (M = 3000, k = 2048, d = 3) against the fastest LAPACK
#     eigensolver on the same matrix;
#  3. the 33-cell headline grid end to end (scripts/run-grid.sh --force), wall
#     time and the peak RSS of its largest step;
#  4. the same protocol with scikit-learn (bench/sklearn_grid.py, Debian's
#     python3-sklearn; skipped with a message when missing) on the cells with
#     d <= 4, against kpca's run of those cells: the speed-up.
#
# usage: bench/run.sh [--no-sklearn]
set -eu
cd "$(dirname "$0")/.."
KPCA=build/kpca
work=build/bench
out=results/bench.md
mkdir -p "$work" results
sk=1
[ "${1:-}" = --no-sklearn ] && sk=0
for f in data/zip.train.gz data/zip.test.gz; do
    [ -f "$f" ] || { echo "bench: $f missing: run make data" >&2; exit 2; }
done
say() { printf '%s\n' "$*" >&2; }
now() { date +%s.%N; }
since() { echo "$(now) $1" | awk '{ printf "%.1f", $1 - $2 }'; }
# peak RSS (MB) of the largest process a command runs, where GNU time exists
peak() { # peak FILE CMD...
    f=$1
    shift
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f %M -o "$f" "$@"
    else
        echo "" >"$f"
        "$@"
    fi
}
mb() { awk '{ if ($1 != "") printf "%.0f MB", $1 / 1024; else printf "n/a (no /usr/bin/time)" }' "$1"; }

# the OpenBLAS kernels kpca runs with (lib/blas.h); the sklearn run gets the same
core=$("$KPCA" --version | awk 'NR == 2 { print $2 }')
say "== phases (bench_phases)"
build/bench/bench_phases 3 3000 2048 >"$work/phases.md"
cat "$work/phases.md" >&2
fastest=$(awk -F'|' '/LAPACKE_dsyev/ { s = $3 + 0; if (best == "" || s < best) best = s } END { print best }' "$work/phases.md")

say "== kpca fit, M = 3000, k = 2048, d = 3"
t=$(now)
"$KPCA" fit -q -d 3 -m 3000 -k 2048 data/zip.train.gz -o "$work/fit.model"
fit_s=$(since "$t")
fit_ratio=$(echo "$fit_s $fastest" | awk '{ printf "%.2f", $1 / $2 }')

say "== the headline grid, 33 cells, end to end"
t=$(now)
peak "$work/grid.rss" sh scripts/run-grid.sh --force --work "$work/grid" --out "$work/out" 2>"$work/grid.log"
grid_s=$(since "$t")

say "== kpca on the cells with d <= 4"
t=$(now)
sh scripts/run-grid.sh --force --degrees "1 2 3 4" --work "$work/grid4" --out "$work/out4" 2>"$work/grid4.log"
grid4_s=$(since "$t")

sk_line="scikit-learn: not run (--no-sklearn)"
sk_s=""
if [ $sk = 1 ]; then
    if /usr/bin/python3 -c 'import sklearn' 2>/dev/null; then
        say "== scikit-learn on the cells with d <= 4 (a few minutes)"
        t=$(now)
        # numpy and scipy load the same libopenblas: give them the kernels kpca uses
        OPENBLAS_CORETYPE=$core /usr/bin/python3 bench/sklearn_grid.py --degrees 1,2,3,4 -c 10 >"$work/sklearn.csv"
        sk_s=$(since "$t")
        sk_line="scikit-learn $(/usr/bin/python3 -c 'import sklearn; print(sklearn.__version__)')"
    else
        sk_line="scikit-learn: skipped, python3-sklearn is not installed (apt-get install python3-sklearn)"
        say "bench: $sk_line"
    fi
fi

cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo unknown)
memg=$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null || echo unknown)
blas=$(dpkg-query -W -f '${Version}' libopenblas0-pthread 2>/dev/null || echo unknown)
svmv=$(dpkg-query -W -f '${Version}' libsvm3 2>/dev/null || echo unknown)
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
{
    echo "# Benchmarks"
    echo
    echo "Made by \`make bench\` (bench/run.sh): kpca $("$KPCA" --version | awk 'NR == 1 { print $2 }'), commit"
    echo "$(git describe --always 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- . ':(exclude)results' 2>/dev/null || { [ $? -ne 1 ] || echo -dirty; }), $(date -u +%Y-%m-%dT%H:%M:%SZ)."
    echo "Machine: $(uname -sm), $(nproc) cores, $cpu, $memg; OpenBLAS $blas (pthreads, $core kernels, for scikit-learn too), LIBSVM $svmv."
    echo
    echo "## Targets"
    echo
    echo "| target | measured | goal |"
    echo "|---|---|---|"
    echo "| headline grid, 33 cells, end to end (\`scripts/run-grid.sh --force\`) | $grid_s s | ≤ 60 s |"
    echo "| peak RSS of any step of that grid | $(mb "$work/grid.rss") | ≤ 2 GB |"
    echo "| \`kpca fit -d 3 -m 3000 -k 2048\` against the fastest LAPACK eigensolver ($fastest s) | $fit_s s, ${fit_ratio}× | ≤ 1.3× |"
    if [ -n "$sk_s" ]; then
        echo "| scikit-learn, same protocol, the 21 cells with d ≤ 4 | $sk_s s against kpca's $grid4_s s: $(echo "$sk_s $grid4_s" | awk '{ printf "%.1f", $1 / $2 }')× faster | ≥ 10× |"
    else
        echo "| scikit-learn comparison | $sk_line | ≥ 10× |"
    fi
    echo
    echo "## Phases of one grid column (d = 3), in process"
    echo
    cat "$work/phases.md"
    echo
    echo "Each phase runs alone on the whole machine. The grid runs each degree's"
    echo "eval in the background while the next degree fits, and the training and"
    echo "test projections at once."
    if [ -n "$sk_s" ]; then
        echo
        echo "## Same cells, kpca and scikit-learn"
        echo
        echo "$sk_line, \`bench/sklearn_grid.py\`: KernelPCA (dense eigensolver) on the first"
        echo "3000 digits, one-vs-one SVC(kernel='linear', C = 10) on components scaled to mean squared"
        echo "norm 1: the headline protocol. Test error (%) of each cell:"
        echo
        echo "| d | components | kpca | scikit-learn |"
        echo "|---|---|---|---|"
        awk -F, 'FNR == 1 { next } FILENAME ~ /sklearn/ { if ($1 !~ /^#/) s[$1 "," $2] = $3; next }
                 { printf "| %s | %s | %.2f | %s |\n", $1, $2, $3, (($1 "," $2) in s ? sprintf("%.2f", s[$1 "," $2]) : "–") }' \
            "$work/sklearn.csv" "$work/out4/usps-poly-svm.csv"
        echo
        grep '^#' "$work/sklearn.csv" | sed 's/^# /- scikit-learn /'
    fi
} >"$tmp"
mv "$tmp" "$out"
cat "$out"
