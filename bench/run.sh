#!/bin/sh
# bench/run.sh - `make bench`: the performance figures, measured on this
# machine in one run, written to results/bench.md (and printed).  Every
# target is a ratio against something measured in the same run.
#
#  1. every phase of one grid column in process (bench/bench_phases.c), for
#     d = 3 (k = 2048, as d = 2..6) and d = 1 (k = 256), with the floor of
#     each phase: its flops at the machine's best measured DGEMM rate,
#     LAPACKE_dsyevd for the eigensolver, LIBSVM's own solver time;
#  2. `kpca fit` (M = 3000, k = 2048, d = 3) end to end against
#     LAPACKE_dsyevd on the same matrix, and `kpca transform` of the 7291
#     training digits against its GEMM floor plus reading and writing;
#  3. the 33-cell headline grid end to end (scripts/run-grid.sh --force), wall
#     time and the peak RSS of its largest step;
#  4. the alternative eigensolvers of the distributed build (kpca-mpi, when
#     `make mpi` built it): ELPA's two-stage solver and ScaLAPACK's pdsyevd
#     on the same fit, on 1 rank (all cores to OpenBLAS) and on one rank per
#     core, against LAPACKE_dsyevd;
#  5. the same protocol with scikit-learn (Debian's python3-sklearn; skipped
#     with a message when missing) on the cells with d <= 4, against kpca's
#     run of those cells: the speed-up over a newcomer's pipeline
#     (bench/sklearn_grid.py: KernelPCA, a linear SVC per cell) and over a
#     careful one (bench/sklearn_careful.py: one scipy eigh per degree, the
#     projections as GEMMs, a precomputed Gram matrix grown prefix by
#     prefix); kpca in double, and in single (--precision single) where
#     `kpca fit --help` lists the option;
#  6. reading your own data (bench/read.sh, which runs alone too: make
#     bench-read): the whole read of a ~190 MB CSV against numpy.loadtxt
#     (and pandas.read_csv where Debian's python3-pandas is installed), and
#     of the same values as a ~160 MB .npy against `cat FILE >/dev/null`
#     from the page cache; the streamed read that transform and the Nystrom
#     fit's passes make, and those commands, against the same yardsticks.
#
# usage: bench/run.sh [--no-sklearn]
set -eu
cd "$(dirname "$0")/.."
KPCA=build/kpca
. scripts/lib.sh # load_stamp, load_words
work=build/bench
out=results/bench.md
mkdir -p "$work" results
sk=1
[ "${1:-}" = --no-sklearn ] && sk=0
for f in data/zip.train.gz data/zip.test.gz; do
    [ -f "$f" ] || { echo "bench: $f missing: run make data" >&2; exit 2; }
done
now() { date +%s.%N; }
since() { echo "$(now) $1" | awk -v f="%.${2:-1}f" '{ printf f, $1 - $2 }'; } # since T [DECIMALS]
# median3 CMD...: runs CMD three times; prints the median seconds, then the
# three runs ("2.41 (2.39, 2.41, 2.57)"): one slow or lucky run of a 2 s
# command must not decide a ratio
median3() {
    m3=""
    for i in 1 2 3; do
        t=$(now)
        "$@" || return 1
        m3="$m3 $(since "$t" 2)"
    done
    med3 $m3
}
medn() { # medn A B C ...: the median (an odd count), then all of them
    printf '%s\n' "$@" | sort -g | awk -v all="$*" '{ v[NR] = $1 } END { m = v[(NR + 1) / 2]; gsub(/ /, ", ", all); printf "%s (%s)\n", m, all }'
}
med3() { # med3 A B C: the median, then the three
    echo "$@" | awk '{ x = $1; y = $2; z = $3
        m = x <= y ? (y <= z ? y : (x <= z ? z : x)) : (x <= z ? x : (y <= z ? z : y))
        printf "%s (%s, %s, %s)\n", m, x, y, z }'
}
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

# the OpenBLAS kernels kpca runs with (lib/support/blas.h); the sklearn run gets the same
core=$("$KPCA" --version | awk 'NR == 2 { print $2 }')
load0=$(load_stamp)
say "== phases and floors (bench_phases), d = 3 and d = 1"
build/bench/bench_phases 3 3000 2048 "$work/floors3" >"$work/phases.md"
cat "$work/phases.md" >&2
build/bench/bench_phases 1 3000 256 "$work/floors1" >"$work/phases1.md"
# key FILE: a value from bench_phases' KEY=VALUE file
key() { awk -F= -v k="$1" '$1 == k { print $2 }' "$2"; }
ratio() { echo "$1 $2" | awk '{ printf "%.2f", $1 / $2 }'; }
dsyevd=$(key dsyevd "$work/floors3")

say "== kpca fit, M = 3000, k = 2048, d = 3, end to end"
fit_runs=$(median3 "$KPCA" fit -q -d 3 -m 3000 --sample first -k 2048 data/zip.train.gz -o "$work/fit.model")
fit_s=${fit_runs%% *}
fit_ratio=$(ratio "$fit_s" "$dsyevd")

# eigensolve seconds of a kpca-mpi fit: mpi_eig EIG RANKS
mpi_eig() {
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=$(($(nproc) / $2)) \
        timeout 900 mpirun --oversubscribe -n "$2" build/kpca-mpi fit -v -d 3 -m 3000 --sample first -k 2048 --eig "$1" \
        data/zip.train.gz -o "$work/mpi.model" 2>"$work/mpi.log" || { cat "$work/mpi.log" >&2; return 1; }
    rm -f "$work/mpi.model"
    awk '$3 == "timing" && $5 == "s" && $6 == "eigensolve" { print $4 }' "$work/mpi.log"
}
elpa_rows=""
if [ -x build/kpca-mpi ] && command -v mpirun >/dev/null; then
    say "== kpca-mpi: ELPA's two-stage solver and pdsyevd on the same fit"
    P=$(nproc)
    for run in "elpa 1" "elpa $P" "evd 1" "evd $P"; do
        set -- $run
        name=$([ "$1" = elpa ] && echo "ELPA 2-stage (\`--eig elpa\`)" || echo "ScaLAPACK pdsyevd (\`--eig evd\`)")
        if s=$(mpi_eig "$1" "$2") && [ -n "$s" ]; then
            elpa_rows="$elpa_rows| $name | $2 | $(($(nproc) / $2)) | $s | $(ratio "$s" "$dsyevd")× |
"
        else
            elpa_rows="$elpa_rows| $name | $2 | $(($(nproc) / $2)) | failed (build/bench/mpi.log) | |
"
        fi
    done
fi

say "== kpca transform of the 7291 training digits, end to end"
tr_runs=$(median3 "$KPCA" transform -q "$work/fit.model" data/zip.train.gz -o "$work/train.h5")
tr_s=${tr_runs%% *}
tr_floor=$(echo "$(key proj_train_floor "$work/floors3") $(key read_train "$work/floors3") $(key write_train "$work/floors3")" |
    awk '{ printf "%.3f", $1 + $2 + $3 }')
tr_ratio=$(ratio "$tr_s" "$tr_floor")
rm -f "$work/train.h5"

# The grid's floor: per degree, the eigensolver (dsyevd), the projection of
# train and test, the SVM Gram matrix, LIBSVM's solver and the prediction,
# plus reading the digits; d = 1 measured as itself, d = 2..6 as d = 3.
dfloor() { # dfloor FILE
    echo "$(key dsyevd "$1") $(key proj_floor "$1") $(key gram_floor "$1") $(key svm_floor "$1") $(key predict "$1") $(key read "$1")" |
        awk '{ printf "%.3f", $1 + $2 + $3 + $4 + $5 + $6 }'
}
f1=$(dfloor "$work/floors1")
f3=$(dfloor "$work/floors3")
grid_floor=$(echo "$f1 $f3" | awk '{ printf "%.1f", $1 + 5 * $2 }')
grid4_floor=$(echo "$f1 $f3" | awk '{ printf "%.1f", $1 + 3 * $2 }')

say "== the headline grid, 33 cells, end to end"
t=$(now)
peak "$work/grid.rss" sh scripts/run-grid.sh --force --work "$work/grid" --out "$work/out" 2>"$work/grid.log"
grid_s=$(since "$t")

say "== kpca on the cells with d <= 4"
t=$(now)
sh scripts/run-grid.sh --force --degrees "1 2 3 4" --work "$work/grid4" --out "$work/out4" 2>"$work/grid4.log"
grid4_s=$(since "$t")
grid4s_s=""
if "$KPCA" fit --help | grep -q -- '--precision'; then
    say "== kpca on the cells with d <= 4, --precision single"
    t=$(now)
    sh scripts/run-grid.sh --force --precision single --degrees "1 2 3 4" --work "$work/grid4s" --out "$work/out4s" \
        2>"$work/grid4s.log"
    grid4s_s=$(since "$t")
fi

sk_line="scikit-learn: not run (--no-sklearn)"
sk_s=""
skc_s=""
if [ $sk = 1 ]; then
    if /usr/bin/python3 -c 'import sklearn' 2>/dev/null; then
        say "== scikit-learn on the cells with d <= 4 (a few minutes)"
        t=$(now)
        # numpy and scipy load the same libopenblas: give them the kernels kpca uses
        OPENBLAS_CORETYPE=$core /usr/bin/python3 bench/sklearn_grid.py --degrees 1,2,3,4 -c 10 >"$work/sklearn.csv"
        sk_s=$(since "$t")
        say "== scikit-learn, the careful pipeline, on the same cells"
        t=$(now)
        OPENBLAS_CORETYPE=$core /usr/bin/python3 bench/sklearn_careful.py --degrees 1,2,3,4 -c 10 >"$work/careful.csv"
        skc_s=$(since "$t")
        sk_line="scikit-learn $(/usr/bin/python3 -c 'import sklearn; print(sklearn.__version__)')"
    else
        sk_line="scikit-learn: skipped, python3-sklearn is not installed (apt-get install python3-sklearn)"
        say "bench: $sk_line"
    fi
fi

# reading your own data: bench/read.sh writes the rows of the targets table
# and the section's note
sh bench/read.sh "$work/read" >"$work/read.rows"
read_rows=$(sed -n '/^|/p' "$work/read.rows")
read_note=$(sed '/^|/d' "$work/read.rows")
[ -z "$read_rows" ] || read_rows="$read_rows
"
load1=$(load_stamp)

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
    echo "Machine: $(uname -sm), $(nproc) cores, $cpu, $memg; OpenBLAS $blas (pthreads, $core kernels, for scikit-learn too), LIBSVM $svmv;"
    echo "$(load_words "$load0" "$load1")."
    echo
    echo "## Targets"
    echo
    echo "Every ratio below is measured in this one run on this machine."
    echo
    echo "| target | measured | ratio | goal |"
    echo "|---|---|---|---|"
    if [ -n "$sk_s" ]; then
        echo "| scikit-learn, same protocol, the 21 cells with d ≤ 4 | scikit-learn $sk_s s, kpca $grid4_s s | $(ratio "$sk_s" "$grid4_s")× faster | ≥ 4× |"
    else
        echo "| scikit-learn comparison | $sk_line | | ≥ 4× |"
    fi
    if [ -n "$skc_s" ]; then
        echo "| careful scikit-learn pipeline (\`bench/sklearn_careful.py\`), the same 21 cells, against kpca double | careful $skc_s s, kpca $grid4_s s | $(ratio "$skc_s" "$grid4_s")× faster | ≥ 1.3× |"
    fi
    if [ -z "$grid4s_s" ]; then
        echo "| kpca single (\`--precision single\`) against the careful and the newcomer's pipelines | not measured: \`kpca fit --help\` lists no --precision | | ≥ 2×, ≥ 4× |"
    else
        [ -z "$skc_s" ] ||
            echo "| careful scikit-learn pipeline, the same 21 cells, against kpca single (\`--precision single\`) | careful $skc_s s, kpca single $grid4s_s s | $(ratio "$skc_s" "$grid4s_s")× faster | ≥ 2× |"
        [ -z "$sk_s" ] ||
            echo "| scikit-learn (\`bench/sklearn_grid.py\`), the same 21 cells, against kpca single (\`--precision single\`) | scikit-learn $sk_s s, kpca single $grid4s_s s | $(ratio "$sk_s" "$grid4s_s")× faster | ≥ 4× |"
    fi
    echo "| \`kpca fit -d 3 -m 3000 -k 2048\` end to end against LAPACKE_dsyevd on the same matrix ($dsyevd s, median of 3) | $fit_runs s, median of 3 | ${fit_ratio}× | ≤ 1.25× |"
    echo "| \`kpca transform\` of the 7291 training digits against its GEMM floor + reading + writing ($tr_floor s) | $tr_runs s, median of 3 | ${tr_ratio}× | ≤ 1.5× |"
    echo "| headline grid, 33 cells, end to end (\`scripts/run-grid.sh --force\`), against the sum of its phases' floors ($grid_floor s) | $grid_s s | $(ratio "$grid_s" "$grid_floor")× | ≤ 1.5× |"
    echo "| the 21 cells with d ≤ 4, against the sum of their floors ($grid4_floor s) | $grid4_s s | $(ratio "$grid4_s" "$grid4_floor")× | |"
    echo "| peak RSS of any step of that grid | $(mb "$work/grid.rss") | | ≤ 1 GB |"
    printf '%s' "$read_rows"
    echo
    echo "The floor of the d ≤ 4 cells bounds what any pipeline with this protocol"
    echo "(dense eigensolver, LIBSVM one-vs-one) can do here: scikit-learn's time"
    echo "over it is $(ratio "${sk_s:-0}" "$grid4_floor")×, the most a 4×-target can ask of kpca's"
    echo "$(ratio "$grid4_s" "$grid4_floor")× (see docs/performance.md)."
    echo
    echo "## Phases of one grid column (d = 3), in process, and their floors"
    echo
    cat "$work/phases.md"
    echo
    echo "### d = 1 (k = 256)"
    echo
    cat "$work/phases1.md"
    echo
    echo "## Reading your own data"
    echo
    echo "$read_note"
    echo
    echo "## Alternative eigensolvers (the distributed build)"
    echo
    if [ -n "$elpa_rows" ]; then
        echo "\`kpca-mpi fit -d 3 -m 3000 -k 2048\` (make mpi): the eigensolve phase (\`-v\`) against"
        echo "LAPACKE_dsyevd on the same matrix ($dsyevd s), which the plain \`kpca fit\` beats or matches."
        echo "Debian's ELPA has its generic kernels only and no OpenMP; it would be adopted where faster."
        echo
        echo "| eigensolver | MPI ranks | OpenBLAS threads per rank | eigensolve (s) | / dsyevd |"
        echo "|---|---:|---:|---:|---:|"
        printf '%s' "$elpa_rows"
    else
        echo "Not measured: build/kpca-mpi is not built (make mpi)."
    fi
    echo
    echo "Each phase runs alone on the whole machine. The grid runs each degree's"
    echo "eval in the background while the next degree fits, and the training and"
    echo "test projections at once."
    if [ -n "$sk_s" ]; then
        echo
        echo "## Same cells, kpca and scikit-learn"
        echo
        echo "$sk_line, \`bench/sklearn_grid.py\` (a newcomer's pipeline): KernelPCA (dense eigensolver)"
        echo "on the first 3000 digits, one-vs-one SVC(kernel='linear', C = 10) on components scaled to"
        echo "mean squared norm 1: the headline protocol. \`bench/sklearn_careful.py\` (a careful one):"
        echo "per degree one scipy.linalg.eigh (driver evd) of the centred kernel matrix, the projections"
        echo "as two GEMMs each, the training Gram matrix grown prefix by prefix (dsyrk) and the test-train"
        echo "one likewise, SVC(kernel='precomputed', C = 10, one-vs-one) on them, scaled as"
        echo "\`--scale norm\`, its votes with LIBSVM's rule for ties (the class seen first in training; the"
        echo "newcomer's predict takes the smallest label). Test error (%) of each cell (kpca single:"
        echo "\`--precision single\`):"
        echo
        echo "| d | components | kpca | kpca single | scikit-learn | careful |"
        echo "|---|---|---|---|---|---|"
        # the cells' errors (counts) of the optional files, then a row per kpca cell
        awk -F, -v sk="$work/sklearn.csv" -v ca="$work/careful.csv" -v si="$work/out4s/usps-poly-svm.csv" '
            function cell(a, key) { return (key in a) ? sprintf("%.2f", a[key]) : "–" }
            FNR == 1 || $1 ~ /^#/ { next }
            FILENAME == sk { s[$1 "," $2] = $3; next }
            FILENAME == ca { c[$1 "," $2] = $3; ce[$1 "," $2] = $4; next }
            FILENAME == si { g[$1 "," $2] = $3; next }
            {
                key = $1 "," $2
                printf "| %s | %s | %.2f | %s | %s | %s |\n", $1, $2, $3, cell(g, key), cell(s, key), cell(c, key)
                if (key in ce) { n++; dd = ce[key] - $4; dd = dd < 0 ? -dd : dd; if (dd > maxd) maxd = dd; same += dd == 0; close2 += dd <= 2 }
            }
            END { if (n) printf "\nThe careful pipeline'"'"'s error counts equal kpca'"'"'s (double) in %d of %d cells, within 2 digits in %d; the largest difference is %d digits.\n", same, n, close2, maxd }' \
            "$work/sklearn.csv" "$work/careful.csv" $([ -z "$grid4s_s" ] || echo "$work/out4s/usps-poly-svm.csv") \
            "$work/out4/usps-poly-svm.csv"
        echo
        grep '^#' "$work/sklearn.csv" | sed 's/^# /- scikit-learn /'
        grep '^#' "$work/careful.csv" | sed 's/^# /- careful pipeline, /'
    fi
} >"$tmp"
mv "$tmp" "$out"
cat "$out"
