#!/bin/sh
# scaling.sh - how kpca's cost grows with the data: `kpca fit` against the
# number of fit points M for each solver, and Nystrom's fit and transform
# streamed over 10^4 .. 10^7 rows on one machine and over MPI ranks.
#
# Fit against M: kernel (x.y)^3, k = 256 components, for each solver:
#   exact       M = 500 .. 7291 (the first M USPS training digits)
#   randomized  M = 1000 .. 29164
#   nystrom     M = 1000 .. 29164 (1000 landmarks)
# M above 7291 takes the first M digits of USPS with one-pixel shifted
# copies (scripts/shifted-usps.sh --copies 4).  Each fit runs alone with one
# OpenBLAS thread.  A least-squares line through log(cost) against log(M),
# over M >= 2000, gives each curve's exponent; the RSS curve, extended, says
# where each solver stops fitting in the machine's memory.
#
# Rows: n = 10^4, 10^5, 10^6 and 10^7 USPS-like digits (tools/uspsgen: a
# training digit drawn at random, shifted by up to two pixels each way, with
# Gaussian noise of 0.1; a float32 .npy in --work, made once, 1 KB a row),
# kernel (x.y)^3, 1000 uniform landmarks, 256 components: `kpca fit --solver
# nystrom` and `kpca transform` onto the first 32 components (an .npy) on
# one machine (OpenBLAS's threads), then `kpca-mpi fit --solver nystrom` and
# `kpca-mpi transform` (of the one-machine model) on 1, 2 and 4 ranks of one
# OpenBLAS thread each.  The ranks' models are compared with the one-machine
# model (the largest relative difference of an eigenvalue), their features
# with one rank's, byte for byte.  The targets (issue 33): 10^7 rows fit and
# transformed in under 2 GB of RSS per process; CPU time per row flat within
# 20 % from 10^5 to 10^7; per row no slower than the in-memory fit and
# transform of an earlier kpca at 10^5 (--baseline).  Then a projection to
# 10^8 rows on 16 nodes from the measured costs per row.
#
# Every run is measured by GNU time, every rank of kpca-mpi on its own: CPU
# seconds (user + system, summed over the ranks: the work done, which another
# job on a shared machine does not inflate the way it inflates wall time),
# wall seconds and the peak RSS of the largest process.  Writes scaling.csv,
# scaling.md and scaling.png.  The full run takes about 1.5 hours on 2 cores,
# most of it the fits of 10^7 rows, and 16 GB of disk in --work (the 10^7-row
# input, 10 GB, and two feature files of 2.6 GB).
#
# usage: scripts/scaling.sh [--out DIR] [--work DIR] [--quick] [--force]
#                           [--rows LIST] [--ranks LIST] [--baseline KPCA]
#   --out DIR        where results go (default: results)
#   --work DIR       data, models and measurements (default: build/scaling)
#   --quick          small sizes only (for the tests)
#   --force          measure every point again (default: reuse those in --work)
#   --rows LIST      the row counts (default: "10000 100000 1000000 10000000")
#   --ranks LIST     kpca-mpi's rank counts (default: "1 2 4" when
#                    $KPCA_MPI, default build/kpca-mpi, and mpirun exist; "": none)
#   --baseline KPCA  an earlier kpca (e.g. commit 77e5655, whose fit and
#                    transform held every row): its fit and transform at
#                    10^5 rows, for the comparison per row
set -eu
cd "$(dirname "$0")/.."
. scripts/lib.sh
KPCA=${KPCA:-build/kpca}
KPCA_MPI=${KPCA_MPI:-build/kpca-mpi}
USPSGEN=${USPSGEN:-build/tools/uspsgen}
TIME=${TIME_BIN:-/usr/bin/time}
out=results
work=build/scaling
quick=0
force=0
rows_list=
ranks_list=default
baseline=
cmdline="scripts/scaling.sh${*:+ $*}"
while [ $# -gt 0 ]; do
    case "$1" in
    --out) out=$(optval "$@"); shift ;;
    --work) work=$(optval "$@"); shift ;;
    --quick) quick=1 ;;
    --force) force=1 ;;
    --rows) rows_list=$(optval "$@"); shift ;;
    --ranks) ranks_list=$(optval "$@"); shift ;;
    --baseline) baseline=$(optval "$@"); shift ;;
    -h|--help) usage; exit 0 ;;
    *) bad_option "$1" ;;
    esac
    shift
done
[ -x "$KPCA" ] || { say "scaling.sh: $KPCA not built: run make"; exit 2; }
[ -x "$TIME" ] || { say "scaling.sh: $TIME missing (Debian package time)"; exit 2; }
[ -x "$USPSGEN" ] || { say "scaling.sh: $USPSGEN not built: run make build/tools/uspsgen"; exit 2; }
[ -f data/zip.train.gz ] || { say "scaling.sh: USPS missing: run make data"; exit 2; }
[ -z "$baseline" ] || [ -x "$baseline" ] || { say "scaling.sh: --baseline $baseline is no program"; exit 2; }
for n in $rows_list; do
    case "$n" in ''|*[!0-9]*|0*) say "scaling.sh: --rows: '$n' is no positive row count"; exit 2 ;; esac
done
if [ "$ranks_list" = default ]; then
    ranks_list=
    if [ -x "$KPCA_MPI" ] && command -v mpirun >/dev/null 2>&1; then ranks_list="1 2 4"; fi
fi
for p in $ranks_list; do
    case "$p" in ''|*[!0-9]*|0*) say "scaling.sh: --ranks: '$p' is no positive rank count"; exit 2 ;; esac
    [ -x "$KPCA_MPI" ] || { say "scaling.sh: --ranks needs $KPCA_MPI: run make mpi"; exit 2; }
done
mkdir -p "$work" "$out"
lib_traps
[ "$force" = 0 ] || rm -f "$work/mpi-nystrom"

if [ "$quick" = 1 ]; then
    exact="300 600 1000 1500" big="600 1000 1500" k=32 L=200
    rows=${rows_list:-"2000 5000"} rL=100 rk=16 rkt=8
else
    exact="500 1000 2000 3000 5000 7291" big="1000 2000 4000 7291 14582 29164" k=256 L=1000
    rows=${rows_list:-"10000 100000 1000000 10000000"} rL=1000 rk=256 rkt=32
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

# timed TAG CMD...: CMD under GNU time into $work/time.TAG ("user sys wall
# kB"), a step that a signal to the script stops (lib_run)
timed() {
    tag=$1
    shift
    tf="$work/time.$tag"
    tmpfiles="$tmpfiles $tf"
    lib_run "$TIME" -f '%U %S %e %M' -o "$tf" "$@"
}

# timed_ranks TAG P CMD...: CMD on P ranks (one OpenBLAS thread each), each
# under GNU time into $work/time.TAG.RANK; mpirun bounded by a day
timed_ranks() {
    tag=$1 p=$2
    shift 2
    rm -f "$work/time.$tag".*
    tmpfiles="$tmpfiles $work/time.$tag.*"
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1 \
        lib_run timeout 86400 mpirun --oversubscribe -n "$p" sh -c \
        't=$1; shift; exec "$0" -f "%U %S %e %M" -o "$t.$OMPI_COMM_WORLD_RANK" "$@"' "$TIME" "$work/time.$tag" "$@"
}

# row FIELDS... AGREEMENT < time files: the CSV row of a measurement, CPU
# summed over the files, wall and RSS their largest
row() {
    awk -v pre="$1" -v agree="$2" '{ cpu += $1 + $2; if ($3 > wall) wall = $3; if ($4 > rss) rss = $4 }
        END { printf "%s,%.3f,%.3f,%.1f,%s\n", pre, cpu, wall, rss / 1024, agree }'
}

# cached NAME: the measurement's row in $work/rows/NAME.csv, when it exists and --force is not given
cached() {
    [ "$force" = 0 ] && [ -s "$work/rows/$1.csv" ]
}
keep() { # keep NAME: stdin -> $work/rows/NAME.csv, atomically, and to stdout
    mkdir -p "$work/rows"
    cat >"$work/rows/$1.csv.tmp"
    mv "$work/rows/$1.csv.tmp" "$work/rows/$1.csv"
    cat "$work/rows/$1.csv"
}

# ---- fit against M, per solver ------------------------------------------------

measure_m() { # measure_m SOLVER M
    s=$1 m=$2 name="m-$1-$2-k$k"
    if cached "$name"; then cat "$work/rows/$name.csv"; return; fi
    d=$(data_for "$m")
    case "$s" in
    exact) opts="" l=0 ;;
    randomized) opts="--solver randomized" l=0 ;;
    nystrom) opts="--solver nystrom --landmarks $L" l=$L ;;
    esac
    say "scaling.sh: fit $s, M = $m"
    model="$work/model.h5"
    tmpfiles="$tmpfiles $model"
    # shellcheck disable=SC2086
    OPENBLAS_NUM_THREADS=1 timed fit "$KPCA" fit -q -d 3 -m "$m" --sample first -k "$k" $opts "$d" -o "$model" ||
        die "kpca fit failed ($s, M = $m)"
    row "M,fit,$s,kpca,1,1,$m,$l,$k" "-" <"$work/time.fit" | keep "$name"
    rm -f "$work/time.fit" "$model"
}

# ---- Nystrom at n rows: one machine, then ranks -------------------------------

rows_data() { # rows_data N: $work/rows-N.npy, made once
    f="$work/rows-$1.npy"
    if [ ! -s "$f" ]; then
        say "scaling.sh: making $f ($1 rows)"
        lib_tmp "$f"
        gzip -dc data/zip.train.gz | "$USPSGEN" "$1" 1 >"$tmp" || die "uspsgen failed ($1 rows)"
        mv "$tmp" "$f"
    fi
    echo "$f"
}

# the largest relative difference of the eigenvalues of two models
eig_agreement() {
    "$KPCA" info -e "$1" | awk '$1 == "eigenvalue" { print $3 }' >"$work/ev.a"
    "$KPCA" info -e "$2" | awk '$1 == "eigenvalue" { print $3 }' >"$work/ev.b"
    tmpfiles="$tmpfiles $work/ev.a $work/ev.b"
    paste "$work/ev.a" "$work/ev.b" | awk '{ d = ($1 - $2) / $1; if (d < 0) d = -d; if (d > m) m = d; n++ }
        END { if (n == 0) print "none"; else printf "%.1e\n", m }'
}

# mpi_nystrom: 0 when kpca-mpi fits Nystrom models (a tiny fit on one rank;
# the answer kept in $work/mpi-nystrom)
mpi_nystrom() {
    if [ ! -s "$work/mpi-nystrom" ]; then
        gzip -dc data/zip.train.gz | head -n 50 >"$work/probe.txt"
        tmpfiles="$tmpfiles $work/probe.txt $work/probe.h5 $work/probe.log"
        if OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1 timeout 300 \
            mpirun --oversubscribe -n 1 "$KPCA_MPI" fit -q --solver nystrom --landmarks 10 -k 2 "$work/probe.txt" \
            -o "$work/probe.h5" >"$work/probe.log" 2>&1; then
            echo yes >"$work/mpi-nystrom"
        else
            say "scaling.sh: $KPCA_MPI does not fit Nystrom models ($(grep -m 1 error: "$work/probe.log")): its fits are not measured"
            echo no >"$work/mpi-nystrom"
        fi
    fi
    [ "$(cat "$work/mpi-nystrom")" = yes ]
}

measure_rows() { # measure_rows N
    n=$1
    nopt="--solver nystrom --landmarks $rL -d 3 -k $rk"
    model="$work/nys-$n.h5"
    if ! cached "rows-fit-one-$n" || [ ! -s "$model" ]; then
        d=$(rows_data "$n")
        say "scaling.sh: kpca fit, $n rows"
        # shellcheck disable=SC2086
        timed fit "$KPCA" fit -q $nopt "$d" -o "$model" || die "kpca fit failed ($n rows)"
        row "rows,fit,nystrom,kpca,1,$(nproc),$n,$rL,$rk" "-" <"$work/time.fit" | keep "rows-fit-one-$n"
    else
        cat "$work/rows/rows-fit-one-$n.csv"
    fi
    if ! cached "rows-transform-one-$n"; then
        d=$(rows_data "$n")
        say "scaling.sh: kpca transform, $n rows"
        timed tr "$KPCA" transform -q -k "$rkt" "$model" "$d" -o "$work/z.npy" || die "kpca transform failed ($n rows)"
        rm -f "$work/z.npy"
        row "rows,transform,nystrom,kpca,1,$(nproc),$n,$rL,$rkt" "-" <"$work/time.tr" | keep "rows-transform-one-$n"
    else
        cat "$work/rows/rows-transform-one-$n.csv"
    fi
    first=
    for p in $ranks_list; do
        if ! cached "rows-fit-$p-$n" && mpi_nystrom; then
            d=$(rows_data "$n")
            say "scaling.sh: kpca-mpi fit, $n rows, $p ranks"
            # shellcheck disable=SC2086
            timed_ranks fit "$p" "$KPCA_MPI" fit -q $nopt "$d" -o "$work/nys-$n-$p.h5" ||
                die "kpca-mpi fit failed ($n rows, $p ranks)"
            cat "$work/time.fit".* | row "rows,fit,nystrom,kpca-mpi,$p,1,$n,$rL,$rk" "$(eig_agreement "$model" "$work/nys-$n-$p.h5")" |
                keep "rows-fit-$p-$n"
            rm -f "$work/nys-$n-$p.h5"
        elif cached "rows-fit-$p-$n"; then
            cat "$work/rows/rows-fit-$p-$n.csv"
        fi
        if ! cached "rows-transform-$p-$n"; then
            d=$(rows_data "$n")
            say "scaling.sh: kpca-mpi transform, $n rows, $p ranks"
            timed_ranks tr "$p" "$KPCA_MPI" transform -q -k "$rkt" "$model" "$d" -o "$work/z-$p.npy" ||
                die "kpca-mpi transform failed ($n rows, $p ranks)"
            if [ -z "$first" ]; then
                first=$p agree="-"
            elif [ -s "$work/z-$first.npy" ]; then
                agree=$(cmp -s "$work/z-$first.npy" "$work/z-$p.npy" && echo "identical ($first rank)" ||
                    echo "differs ($first rank)")
            else
                agree="-"
            fi
            [ "$p" = "$first" ] || rm -f "$work/z-$p.npy"
            cat "$work/time.tr".* | row "rows,transform,nystrom,kpca-mpi,$p,1,$n,$rL,$rkt" "$agree" | keep "rows-transform-$p-$n"
        else
            first=${first:-$p}
            cat "$work/rows/rows-transform-$p-$n.csv"
        fi
    done
    rm -f "$work"/z-*.npy
    # the earlier kpca, which held every row, at 10^5 rows
    if [ -n "$baseline" ] && [ "$n" = 100000 ]; then
        for step in fit transform; do
            if ! cached "rows-$step-base-$n"; then
                d=$(rows_data "$n")
                say "scaling.sh: $step by the baseline $baseline, $n rows"
                if [ "$step" = fit ]; then
                    # shellcheck disable=SC2086
                    timed base "$baseline" fit -q $nopt "$d" -o "$work/base.h5" || die "the baseline's fit failed"
                    kk=$rk
                else
                    timed base "$baseline" transform -q -k "$rkt" "$model" "$d" -o "$work/z.npy" ||
                        die "the baseline's transform failed"
                    kk=$rkt
                fi
                rm -f "$work/base.h5" "$work/z.npy"
                row "rows,$step,nystrom,baseline,1,$(nproc),$n,$rL,$kk" "-" <"$work/time.base" | keep "rows-$step-base-$n"
            else
                cat "$work/rows/rows-$step-base-$n.csv"
            fi
        done
    fi
}

csv="$work/scaling.csv"
tmpfiles="$tmpfiles $csv.tmp"
start=$(date +%s)
load0=$(load_stamp)
{
    echo "experiment,step,solver,program,ranks,threads,rows,landmarks,components,cpu_seconds,wall_seconds,peak_rss_mb,agreement"
    for m in $exact; do measure_m exact "$m"; done
    for m in $big; do measure_m randomized "$m"; done
    for m in $big; do measure_m nystrom "$m"; done
    for n in $rows; do measure_rows "$n"; done
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

md="$work/scaling.md"
tmpfiles="$tmpfiles $md.tmp"
awk -F, -v quick="$quick" -v memkb="$memkb" -v cmd="$cmdline" -v ver="$version" -v commit="$commit" \
    -v date="$date" -v machine="$machine" -v load="$(load_words "$load0" "$load1")" -v secs="$secs" -v k="$k" \
    -v rL="$rL" -v rk="$rk" -v rkt="$rkt" '
    NR == 1 { next }
    $1 == "M" { s = $3; m = $7 + 0; n[s]++; M[s, n[s]] = m; C[s, n[s]] = $10; W[s, n[s]] = $11; R[s, n[s]] = $12
      if (!(s in seen)) { seen[s] = 1; order[++ns] = s } }
    $1 == "rows" { nr++; for (j = 1; j <= NF; j++) F[nr, j] = $j
      cpu[$2, $4, $5, $7] = $10; rss[$2, $4, $5, $7] = $12; if ($7 + 0 > big) big = $7 + 0
      if ($4 == "kpca-mpi") { if ($2 == "fit") ranks_fit++; else ranks_tr++ } }
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
    function who(prog, p) {
        return prog == "kpca" ? "kpca, one machine" : prog == "baseline" ? "in memory (--baseline)" : \
            "kpca-mpi, " p " rank" (p == 1 ? "" : "s")
    }
    # the spread of CPU time per row over the sizes >= 10^5 (-1: fewer than two)
    function spread(step, prog, p,    r, lo, hi, c, v) {
        lo = hi = 0; c = 0
        for (r = 1; r <= nr; r++) {
            if (F[r, 2] != step || F[r, 4] != prog || F[r, 5] != p || F[r, 7] + 0 < 100000) continue
            v = F[r, 10] / F[r, 7]; c++
            if (c == 1 || v < lo) lo = v
            if (c == 1 || v > hi) hi = v
        }
        return c < 2 ? -1 : 100 * (hi / lo - 1)
    }
    END {
        lo = quick ? 0 : 2000
        print "# How kpca grows with the data\n"
        print "## `kpca fit` against the number of fit points\n"
        printf "Kernel (x.y)^3, %d components, one OpenBLAS thread per fit; CPU seconds are user + system time\n", k
        print "(the work done; wall time also counts other jobs on the machine), peak RSS from GNU time."
        print "M above 7291: USPS training digits with one-pixel shifted copies (scripts/shifted-usps.sh).\n"
        print "| solver | M | CPU s | wall s | peak RSS (MB) |\n|---|---:|---:|---:|---:|"
        for (o = 1; o <= ns; o++) { s = order[o]
            for (i = 1; i <= n[s]; i++) printf "| %s | %d | %.2f | %.2f | %.0f |\n", s, M[s, i], C[s, i], W[s, i], R[s, i] }
        print "\n### Growth\n"
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
        if (nr > 0) rows_report()
        print "\nProvenance: `" cmd "`, kpca " ver " (" commit "), " date ", " machine ", " load ", " secs " s."
    }
    function rows_report(    r, worst, key, done, sp, st, step, b, c, c1, src, per, from, mem, ranks, bw, rows, tin, tout, tred, tf, tt) {
        print "\n## Nystrom streamed over n rows, on one machine and on MPI ranks\n"
        print "USPS-like digits (tools/uspsgen: a training digit at random, shifted up to two pixels each way, noise of"
        printf "0.1; a float32 .npy), kernel (x.y)^3, %d uniform landmarks; fit: %d components; transform: onto the\n", rL, rk
        printf "first %d, an .npy. One machine: kpca with OpenBLAS'"'"'s threads; ranks: kpca-mpi, one thread each. CPU:\n", rkt
        print "user + system summed over threads and ranks; RSS: the largest process'"'"'s peak. Agreement: the largest"
        print "relative difference of an eigenvalue from the one-machine model (fit); the features against one rank'"'"'s,"
        print "byte for byte (transform; every rank count projects the one-machine model).\n"
        if (ranks_fit == 0 && ranks_tr > 0)
            print "kpca-mpi of this build does not fit Nystrom models: the ranks'"'"' fits are not measured.\n"
        print "| step | program | rows | CPU s | wall s | CPU µs per row | peak RSS per process (MB) | agreement |"
        print "|---|---|---:|---:|---:|---:|---:|---|"
        for (r = 1; r <= nr; r++)
            printf "| %s | %s | %d | %.2f | %.2f | %.1f | %.0f | %s |\n", F[r, 2], who(F[r, 4], F[r, 5]), F[r, 7], F[r, 10],
                F[r, 11], 1e6 * F[r, 10] / F[r, 7], F[r, 12], F[r, 13]
        print "\n### Targets\n"
        worst = 0
        for (r = 1; r <= nr; r++)
            if (F[r, 7] + 0 == big && F[r, 4] != "baseline" && F[r, 12] + 0 > worst) worst = F[r, 12] + 0
        printf "- At %d rows (%d landmarks) the largest process peaked at %.0f MB (target at 10^7 rows and 1000\n", big, rL, worst
        printf "  landmarks: under 2048 MB per process): %s.\n",
            big < 10000000 || rL != 1000 ? "not measured at that size here" : worst < 2048 ? "met" : "missed"
        for (r = 1; r <= nr; r++) {
            key = F[r, 2] " " F[r, 4] " " F[r, 5]
            if (F[r, 4] == "baseline" || (key in done)) continue
            done[key] = 1; sp = spread(F[r, 2], F[r, 4], F[r, 5])
            printf "- CPU time per row, %s, %s, from 10^5 to %d rows: %s\n", F[r, 2], who(F[r, 4], F[r, 5]), big,
                sp < 0 ? "fewer than two sizes of 10^5 rows or more" : sprintf("spread %.0f %% (target: within 20 %%)", sp)
        }
        for (st = 1; st <= 2; st++) {
            step = st == 1 ? "fit" : "transform"
            b = cpu[step, "baseline", 1, 100000]; c = cpu[step, "kpca", 1, 100000]
            if (b > 0 && c > 0)
                printf "- At 10^5 rows, %s: %.1f µs of CPU a row streamed, %.1f µs in memory (--baseline): %.2f× (target: at most 1); %.0f MB, %.0f MB.\n",
                    step, 1e6 * c / 100000, 1e6 * b / 100000, c / b, rss[step, "kpca", 1, 100000], rss[step, "baseline", 1, 100000]
        }
        # per-row CPU of one rank (one thread) at the largest size, else of one machine
        print "\n### 10^8 rows on 16 nodes, projected\n"
        for (st = 1; st <= 2; st++) {
            step = st == 1 ? "fit" : "transform"
            c1 = cpu[step, "kpca-mpi", 1, big]; src = "kpca-mpi on 1 rank"
            if (!(c1 > 0)) { c1 = cpu[step, "kpca", 1, big]; src = "kpca on one machine" }
            per[step] = c1 / big; from[step] = src; mem[step] = 0
            for (r = 1; r <= nr; r++)
                if (F[r, 2] == step && F[r, 7] + 0 == big && F[r, 12] + 0 > mem[step]) mem[step] = F[r, 12] + 0
        }
        ranks = 16 * 32; bw = 10e9; rows = 1e8
        tin = rows * 1024 / bw; tout = rows * 8 * rkt / bw
        tred = 9 * 8 * (rL * rL + 2 * rL + 1) / bw
        tf = per["fit"] * rows / ranks + 3 * tin + tred; tt = per["transform"] * rows / ranks + tin + tout
        print "Assumptions: 16 nodes of 32 cores, one rank per core (512 ranks, one OpenBLAS thread each), each core"
        printf "as fast as one of this machine'"'"'s; the CPU time per row measured at %d rows (fit: %.1f µs, from %s;\n",
            big, 1e6 * per["fit"], from["fit"]
        printf "transform: %.1f µs, from %s) stays flat to 10^8 rows (the spreads above); the rows are read from\n",
            1e6 * per["transform"], from["transform"]
        print "a parallel file system at 10 GB/s in all (1 KB a row of float32; the fit reads an .npy three times:"
        print "the columns'"'"' statistics, the pass and the sign pass, docs/method.md) and the features written at that rate"
        printf "(%d bytes a row); the fit'"'"'s reduction of L^2 + 2L + 1 doubles (L = %d) takes log2(512) = 9 steps of\n", 8 * rkt, rL
        print "that size at 10 GB/s; the landmarks and the L x L eigenproblem cost what they cost at the sizes measured.\n"
        print "| step | compute | I/O | reduction | total | memory per rank |\n|---|---:|---:|---:|---:|---:|"
        printf "| fit | %.0f s | %.0f s | %.3f s | %.0f s | %.0f MB |\n", per["fit"] * rows / ranks, 3 * tin, tred, tf, mem["fit"]
        printf "| transform | %.0f s | %.0f s | - | %.0f s | %.0f MB |\n", per["transform"] * rows / ranks, tin + tout, tt,
            mem["transform"]
        print "\nThe memory per rank is the largest process measured here: it does not grow with the rows."
    }' "$csv" >"$md.tmp"
mv "$md.tmp" "$md"

# the plot: fit against M (CPU time, RSS), and against n rows (CPU time per
# row, RSS per process), log-log
png="$work/scaling.png"
if command -v gnuplot >/dev/null 2>&1; then
    for s in exact randomized nystrom; do
        awk -F, -v s="$s" '$1 == "M" && $3 == s { print $7, $10, $12 }' "$csv" >"$work/$s.dat"
    done
    curves=
    for st in fit transform; do
        for w in kpca:1 $(for p in $ranks_list; do echo "kpca-mpi:$p"; done); do
            f="$work/$st-${w%%:*}-${w#*:}.dat"
            awk -F, -v st="$st" -v prog="${w%%:*}" -v p="${w#*:}" '$1 == "rows" && $2 == st && $4 == prog && $5 == p {
                print $7, 1e6 * $10 / $7, $12 }' "$csv" >"$f"
            tmpfiles="$tmpfiles $f"
            if [ -s "$f" ]; then
                t="$st, $([ "${w%%:*}" = kpca ] && echo "one machine" || echo "${w#*:} rank(s)")"
                curves="$curves${curves:+, }\"$f\" using 1:COL with linespoints lw 2 title \"$t\""
            fi
        done
    done
    tmpfiles="$tmpfiles $work/exact.dat $work/randomized.dat $work/nystrom.dat $png.tmp"
    {
        cat <<PLOT
set terminal pngcairo size 1100,850 font "sans,10"
set output "$png.tmp"
set multiplot layout 2,2 title "kpca, (x.y)^3 ($core kernels)"
set logscale xy
set grid
set key top left
set xlabel "fit points M"
set ylabel "CPU seconds (one thread)"
plot "$work/exact.dat" using 1:2 with linespoints lw 2 title "exact", \\
     "$work/randomized.dat" using 1:2 with linespoints lw 2 title "randomized", \\
     "$work/nystrom.dat" using 1:2 with linespoints lw 2 title "Nystrom ($L landmarks)"
set ylabel "peak RSS (MB)"
plot "$work/exact.dat" using 1:3 with linespoints lw 2 title "exact", \\
     "$work/randomized.dat" using 1:3 with linespoints lw 2 title "randomized", \\
     "$work/nystrom.dat" using 1:3 with linespoints lw 2 title "Nystrom ($L landmarks)"
PLOT
        if [ -n "$curves" ]; then
            echo "set xlabel \"rows n (Nystrom, $rL landmarks)\""
            echo 'set ylabel "CPU microseconds per row (all threads and ranks)"'
            echo "plot $(echo "$curves" | sed 's/COL/2/g')"
            echo 'set ylabel "peak RSS per process (MB)"'
            echo "plot $(echo "$curves" | sed 's/COL/3/g')"
        fi
        echo "unset multiplot"
    } | gnuplot || die "gnuplot failed"
    mv "$png.tmp" "$png"
    cp "$png" "$out/scaling.png"
fi
cp "$csv" "$out/scaling.csv"
cp "$md" "$out/scaling.md"
echo "scaling.sh: wrote $out/scaling.md, scaling.csv${png:+, scaling.png}" >&2
