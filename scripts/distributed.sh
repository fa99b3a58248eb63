#!/bin/sh
# distributed.sh - kpca-mpi fit on P = 1, 2, 4 ranks of this machine: time and
# peak RSS per rank, on USPS and on USPS with one-pixel shifted copies
# (scripts/shifted-usps.sh).  Writes distributed.csv and distributed.md (with
# provenance and the cost model's measured constants) into the output
# directory.
#
# Each run: mpirun --oversubscribe -n P kpca-mpi fit -v -d 3 -k K --eig EIG
# DATA, every rank under /usr/bin/time (its peak RSS), OPENBLAS_NUM_THREADS=1
# per rank.  Every other model is checked against the P = 1 model of the same
# data with the default eigensolver, else with its own (largest relative
# eigenvalue difference).
#
# usage: scripts/distributed.sh [--out DIR] [--work DIR] [--sizes "M..."]
#                               [--ranks "P..."] [-k K] [--budget SECONDS]
#   --sizes "M..."   data set sizes: 7291 (USPS), 14582 (x2), 29164 (x4), or
#                    fewer than 7291 (the first M digits) (default: "7291 14582")
#   --ranks "P..."   default "1 2 4"
#   --runs "M:P[:EIG]..."  instead of every size on every rank count, these
#                    pairs (or triples, with their own eigensolver)
#   --eig EIG        eigensolver: auto (pdsyevr/pdsyevd by k/M), evr, evd,
#                    elpa (default auto)
#   -k K             components (default 256)
#   --budget S       skip the runs that would start after S seconds (default 1500)
#   --stop-after S   stop a fit that runs longer than S seconds and report the
#                    peak RSS its ranks reached so far (default: none)
#   --note TEXT      a paragraph for the report (e.g. what was not measured and why)
#   --force          rerun every fit (default: reuse a run whose model, log
#                    and RSS reports are in --work from an earlier call)
set -eu
cd "$(dirname "$0")/.."
. scripts/lib.sh
KPCA=${KPCA:-build/kpca}
KPCA_MPI=${KPCA_MPI:-build/kpca-mpi}
out=results
work=build/distributed
sizes="7291 14582"
ranks="1 2 4"
k=256
eig=auto
budget=1500
runs=
stop_after=0
note=
force=0
cmdline="scripts/distributed.sh"
while [ $# -gt 0 ]; do
    # the command line for the report; the note is printed below it
    case "$1" in
    --note) cmdline="$cmdline --note TEXT" ;;
    --force|-h|--help) cmdline="$cmdline $1" ;;
    *) cmdline="$cmdline $1 '${2-}'" ;;
    esac
    case "$1" in
    --out) out=$(optval "$@"); shift ;;
    --work) work=$(optval "$@"); shift ;;
    --sizes) sizes=$(optval "$@"); shift ;;
    --ranks) ranks=$(optval "$@"); shift ;;
    -k) k=$(optval "$@"); shift ;;
    --eig) eig=$(optval "$@"); shift ;;
    --budget) budget=$(optval "$@"); shift ;;
    --runs) runs=$(optval "$@"); shift ;;
    --force) force=1 ;;
    --note) note=$(optval "$@"); shift ;;
    --stop-after) stop_after=$(optval "$@"); shift ;;
    -h|--help) usage; exit 0 ;;
    *) bad_option "$1" ;;
    esac
    shift
done
for t in "$KPCA" "$KPCA_MPI"; do
    [ -x "$t" ] || { echo "distributed.sh: $t not built: run make distributed" >&2; exit 2; }
done
command -v mpirun >/dev/null || { echo "distributed.sh: no mpirun: run make mpi" >&2; exit 2; }
[ -f data/zip.train.gz ] || { echo "distributed.sh: USPS missing: run make data" >&2; exit 2; }
mkdir -p "$work" "$out"
# the cluster of the paper estimate: M points on TN machines of TMEM GiB, TCORES cores each
TM=100000 TN=16 TMEM=24 TCORES=2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
lib_traps # a signal stops the fit under way (lib_spawn) and removes the temporaries
start=$(date +%s)

data_for() {
    case "$1" in
    7291) echo data/zip.train.gz ;;
    14582) [ -s "$work/usps-x2.txt" ] || sh scripts/shifted-usps.sh --copies 2 --out "$work/usps-x2.txt"
           echo "$work/usps-x2.txt" ;;
    29164) [ -s "$work/usps-x4.txt" ] || sh scripts/shifted-usps.sh --copies 4 --out "$work/usps-x4.txt"
           echo "$work/usps-x4.txt" ;;
    *) [ "$1" -lt 7291 ] 2>/dev/null || { echo "distributed.sh: no data set of $1 points (7291, 14582, 29164 or fewer than 7291)" >&2; exit 2; }
       echo data/zip.train.gz ;; # the first M digits (fit -m M --sample first)
    esac
}

csv="$work/distributed.csv"
echo "fit_points,ranks,grid,wall_seconds,kernel_seconds,centring_seconds,eigensolve_seconds,rss_max_mib,rss_min_mib,eig_max_relerr_vs_p1,status,rss_per_rank_mib,eigensolver" >"$csv"
load0=$(load_stamp)
skipped=""
if [ -z "$runs" ]; then
    for m in $sizes; do
        for p in $ranks; do runs="$runs $m:$p"; done
    done
fi
for mp in $runs; do
    m=${mp%%:*} rest=${mp#*:}
    p=${rest%%:*} e=$eig
    [ "$rest" = "$p" ] || e=${rest#*:}
    data=$(data_for "$m")
    now=$(date +%s)
    if [ $((now - start)) -gt "$budget" ]; then
        say "skip M=$m P=$p: the time budget of $budget s is spent"
        skipped="$skipped M=$m/P=$p"
        echo "$m,$p,,,,,,,,,skipped (time budget),,$e" >>"$csv"
        continue
    fi
    run="$work/fit-$m-$p-k$k"
    [ "$e" = auto ] || run="$run-$e"
    if [ "$force" = 0 ] && [ -s "$run.h5" ] && [ -s "$run.wall" ] && [ -s "$run.rank0" ]; then
        say "M=$m P=$p: reuse the run in $work"
        st=ok
    elif [ "$force" = 0 ] && [ -s "$run.stopped" ] && [ -s "$run.rank0" ]; then
        say "M=$m P=$p: reuse the stopped run in $work"
        st=$(cat "$run.stopped")
    else
        rm -f "$run".rank* "$run".hwm.* "$run.h5" "$run.wall" "$run.stopped"
        say "M=$m P=$p: fit -d 3 -k $k --eig $e"
        t0=$(date +%s.%N)
        # every rank under /usr/bin/time, its report named by its rank
        # shellcheck disable=SC2016
        lib_spawn mpirun --oversubscribe -n "$p" sh -c 'exec /usr/bin/time -f "%M %e" -o "$0.rank$OMPI_COMM_WORLD_RANK" "$@"' \
            "$run" "$KPCA_MPI" fit -v -d 3 -k "$k" -m "$m" --eig "$e" --sample first "$data" -o "$run.h5" 2>"$run.log"
        mpid=$!
        stopped=0
        if [ "$stop_after" -gt 0 ]; then
            # sample the ranks' peak RSS (VmHWM) until the fit ends or is stopped
            while kill -0 "$mpid" 2>/dev/null; do
                for pid in $(pgrep -f -- "fit -v -d 3 -k $k -m $m --eig $e .* -o $run.h5" 2>/dev/null); do
                    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = kpca-mpi ] || continue
                    awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null >"$run.hwm.$pid" || true
                done
                if [ "$(echo "$t0 $(date +%s.%N)" | awk '{ print int($2 - $1) }')" -ge "$stop_after" ]; then
                    kill "$mpid" 2>/dev/null || true
                    stopped=1
                    break
                fi
                sleep 5
            done
        fi
        if lib_wait "$mpid" && [ "$stopped" = 0 ]; then
            st=ok
            t1=$(date +%s.%N)
            echo "$t0 $t1" | awk '{ printf "%.1f\n", $2 - $1 }' >"$run.wall"
        elif [ "$stopped" = 1 ]; then
            st="stopped after $stop_after s (--stop-after): peak RSS so far"
            i=0
            for f in "$run".hwm.*; do
                [ -s "$f" ] && awk '{ print $1, 0 }' "$f" >"$run.rank$i" && i=$((i + 1))
            done
            echo "" >"$run.wall"
            echo "$st" >"$run.stopped"
        else
            st="failed (see $run.log)"
            echo "" >"$run.wall"
        fi
    fi
    wall=$(cat "$run.wall")
    phase() { awk -v ph="$1" '$3 == "timing" && $6 == ph { printf "%.1f", $4 }' "$run.log"; }
    # the grid kpca-mpi forms (dist.h: kpca_dist_grid_shape)
    grid=$(awk -v p="$p" 'BEGIN { r = int(sqrt(p)); while (r > 1 && p % r) r--; printf "%dx%d", r, p / r }')
    rss=$(cat "$run".rank* 2>/dev/null | awk '{ v = $1 / 1024; if (NR == 1 || v > mx) mx = v; if (NR == 1 || v < mn) mn = v }
        END { printf "%.0f,%.0f", mx, mn }')
    err=
    # against P = 1 with the default eigensolver, else P = 1 with this one
    against="$work/fit-$m-1-k$k.h5"
    [ -s "$against" ] || against="$work/fit-$m-1-k$k-$e.h5"
    if [ "$st" = ok ] && [ "$run.h5" != "$against" ] && [ -s "$against" ]; then
        err=$("$KPCA" info -e "$against" | awk '$1 == "eigenvalue" { print $3 }' >"$run.ev1"
              "$KPCA" info -e "$run.h5" | awk '$1 == "eigenvalue" { print $3 }' | paste "$run.ev1" - |
              awk '{ d = ($1 - $2) / $1; if (d < 0) d = -d; if (d > mx) mx = d } END { printf "%.1e", mx }')
    fi
    each=$(r=0; while [ -s "$run.rank$r" ]; do awk '{ printf "%.0f ", $1 / 1024 }' "$run.rank$r"; r=$((r + 1)); done)
    echo "$m,$p,$grid,$wall,$(phase kernel),$(phase centring),$(phase eigensolve),$rss,$err,$st,${each% },$e" >>"$csv"
    say "M=$m P=$p --eig $e: $wall s, rss max,min $rss MiB ($st)"
done

# ---- the report --------------------------------------------------------------
commit=$(commit_stamp)
cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo unknown)
blas=$("$KPCA" --version | awk 'NR == 2 { print $2 }')
ver=$("$KPCA" --version | head -1)
mpiver=$(mpirun --version 2>/dev/null | head -1)
load=$(load_stamp)
md="$out/distributed.md"
lib_tmp "$md"
{
    echo "# Exact kernel PCA over MPI ranks (kpca-mpi, ScaLAPACK and ELPA)"
    echo
    echo "Made by \`$cmdline\` (make distributed) with $ver, commit $commit, $(date -u +%Y-%m-%dT%H:%M:%SZ);"
    echo "$(nproc) cores ($cpu), OpenBLAS $blas kernels, one OpenBLAS thread per rank, $mpiver,"
    echo "ScaLAPACK $(dpkg-query -W -f '${Version}' libscalapack-openmpi2.2 2>/dev/null || echo '?') (Debian libscalapack-openmpi), ELPA $(dpkg-query -W -f '${Version}' libelpa19 2>/dev/null || echo '?') (--eig elpa), block size 64."
    echo "Kernel (x.y)^3, k = $k components; $(load_words "$load0" "$load")"
    echo "(1-, 5-, 15-minute; this script's own ranks count): above about 2 on these $(nproc) cores, other jobs"
    echo "shared the machine and the times are upper bounds.  P = 4 runs four ranks on two cores"
    echo "(--oversubscribe): it shows memory per rank, not speed."
    echo
    echo "| M | P | grid | --eig | wall s | kernel s | centring s | eigensolver s | peak RSS of ranks 0, 1, ..., MiB | 16 M^2 / P, MiB | eigenvalues vs P = 1 |"
    echo "|---:|---:|:---:|:---:|---:|---:|---:|---:|---:|---:|---:|"
    awk -F, 'NR > 1 { if ($11 ~ /^stopped/) { printf "| %s | %s | %s | %s | (%s) | | | | %s | %.0f | |\n", $1, $2, $3, $13, $11, $12, 16 * $1 * $1 / $2 / 1048576; next }
        if ($11 != "ok") { printf "| %s | %s | | %s | | | | | %s | | |\n", $1, $2, $13, $11; next }
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f | %s |\n", $1, $2, $3, $13, $4, $5, $6, $7, $12,
            16 * $1 * $1 / $2 / 1048576, ($10 == "" ? "-" : $10) }' "$csv"
    echo
    echo "16 M^2 / P bytes is K and the eigenvector matrix Z, each M^2/P doubles per rank, as allocated (and"
    echo "checked against the budget); pdsyevr writes only the wanted columns of Z, so few of its pages become"
    echo "resident.  The rest of a rank's memory is the input (every rank reads all of it), the gathered k vectors"
    echo "(8 M k bytes) and ScaLAPACK's workspace: for pdsyevr mostly PDSYNTRD's, (M/floor(sqrt P))^2 doubles,"
    echo "as large as M^2 for P = 1 and 2 (so 2 ranks save less than half) and M^2/P for square P; it is used"
    echo "unevenly, hence rank 0's larger peak at P = 2.  ELPA (--eig elpa) allocates its own workspace, about"
    echo "1.4 times K + Z more (the ratios below), evenly over the ranks."
    if [ -n "$note" ]; then
        echo
        echo "$note"
    fi
    if [ -n "$skipped" ]; then
        echo
        echo "Not measured (time budget of $budget s spent):$skipped."
    fi
    echo
    echo "## Measured constants"
    echo
    awk -F, 'NR > 1 && $11 == "ok" && $2 == 1 {
        m = $1; printf "- M = %d, one rank, --eig %s: kernel %.2f ns per entry of K (%.1f s), eigensolver %.3g s / M^3 = %.3g ns per M^3 (%.1f s)\n",
            m, $13, 1e9 * $5 / (m * m), $5, $7 / (m * m * m), 1e9 * $7 / (m * m * m), $7 }' "$csv"
    awk -F, 'NR > 1 && $11 == "ok" { m = $1; printf "- M = %d, P = %d, --eig %s: largest peak RSS of a rank / (16 M^2 / P) = %.2f\n", m, $2, $13, $8 * 1048576 / (16 * m * m / $2) }' "$csv"
    echo
    echo "## Cost model, extrapolated on paper to M = $TM on $TN machines of $TMEM GiB"
    echo
    awk -F, -v TM="$TM" -v TN="$TN" -v TMEM="$TMEM" -v TC="$TCORES" -v k="$k" -v d=256 '
        NR > 1 && $11 == "ok" && $2 == 1 && $13 == "auto" && $1 >= m1 { m1 = $1; ck = $5 / ($1 * $1); ce = $7 / ($1 * $1 * $1) }
        END {
            if (m1 == 0) { print "(no P = 1 run: no constants)"; exit }
            gib = 1073741824; m = TM; p = TN; cores = TN * TC
            q = int(sqrt(p)); w = m / q
            memr = (16 * m * m / p + 8 * w * w + 8 * m * d + 24 * m * k) / gib
            memd = (32 * m * m / p + 8 * m * d + 24 * m * k) / gib
            printf "Measured on one rank (M = %d, the default eigensolver): kernel %.3g s per entry of K, eigensolver\n", m1, ck
            printf "%.3g s per M^3 (pdsyevr, k = %d: the Householder tridiagonalisation dominates).\n\n", ce, k
            printf "- **Memory per machine** (one rank per machine, P = %d, grid %s): K and Z take 8 (2 M^2/P) bytes, the\n", p, (p == 16 ? "4 x 4" : "near square")
            printf "  pdsyevr workspace (for PDSYNTRD) 8 (M/floor(sqrt P))^2, the data 8 M d, the gathered vectors and the model\n"
            printf "  about 24 M k: %.1f GiB with pdsyevr (k <= M/4), %.1f GiB with pdsyevd (K, Z and a workspace of 2 M^2/P),\n", memr, memd
            printf "  against %d GiB per machine; K and Z on one machine would take %.0f GiB.  Resident memory is lower: pdsyevr\n", TMEM, 16 * m * m / gib
            printf "  writes only the wanted columns of Z.\n"
            printf "- **Time**: kernel %.0f s (M^2/P entries per rank), eigensolver %.0f s = %.1f h, if the %d cores (%d per\n", ck * m * m / cores, ce * m * m * m / cores, ce * m * m * m / cores / 3600, cores, TC
            printf "  machine, like this one) ran at the measured one-core rate with perfect strong scaling: a lower bound for\n"
            printf "  this CPU (half of PDSYTRD is matrix-vector work, bound by memory and network, so it scales less).\n"
            printf "- **Network volume** (not measured: every rank here is on one machine): each machine reads the data once\n"
            printf "  (8 M d = %.2f GB); the centring reduces 8 M bytes (%.1f MB); gathering the k vectors moves 8 M k = %.2f GB to\n", 8 * m * d / 1e9, 8 * m / 1e6, 8 * m * k / 1e9
            printf "  rank 0 and broadcasts them back (%.1f GB in all); the eigensolver (PDSYTRD, PDORMTR) moves of the order of\n", 8 * m * k * p / 1e9
            printf "  8 M^2/sqrt(P) = %.0f GB per machine (each of the M Householder steps broadcasts and reduces vectors of M/sqrt(P)\n", 8 * m * m / sqrt(p) / 1e9
            printf "  entries along process rows and columns), a few times that with the tree broadcasts: minutes on 10 Gbit/s,\n"
            printf "  small beside the compute time above.\n"
        }' "$csv"
} >"$tmp"
mv "$tmp" "$md"
cp "$csv" "$out/distributed.csv"
say "wrote $md and $out/distributed.csv"
