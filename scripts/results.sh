#!/bin/sh
# results.sh - every file in results/ written again at one commit, from one
# full run: the caches of every make target are removed first, so that no
# step of an earlier run (or commit) is reused; then the targets run one
# after another, make bench last, each with the machine to itself.
#
# usage: scripts/results.sh [--only "TARGET..."] [--log FILE]
#   --only "T..."  these make targets only (default: all of them, in the
#                  order below); their caches are removed all the same
#   --log FILE     each target's start, end, seconds and exit status
#                  (default: build/results.log)
# SCALING_FLAGS (environment) goes to make scaling, e.g. --baseline KPCA
# for the per-row comparison with an earlier kpca's in-memory path.
# Refuses to start with uncommitted changes outside results/: the commit
# each file names must be the code that made it.  Stops at the first target
# that fails (results/ then holds the files written so far: git diff shows
# which).  About 3 hours on 2 cores: 45 minutes of it make distributed,
# whose M = 29164 run on 4 ranks takes most of it, and 1.5 hours make
# scaling, whose fits of 10^7 rows take most of it.
set -eu
cd "$(dirname "$0")/.."

# target:cache directories it reads back
all="experiment:build/grid,build/claims study:build/study precision:build/precision kth:build/kth
approx:build/approx scaling:build/scaling spectrum:build/spectrum iris:build/iris
pictures:build/pictures denoise:build/denoise reduce:build/reduce figures:build/figures
distributed:build/distributed bench:build/bench"
# make distributed's runs for results/distributed.md: every rank count at
# M = 7291 and 14582, with ScaLAPACK and ELPA, and M = 29164 on 4 ranks
dist_flags="--runs '7291:1 7291:2 7291:4 7291:2:elpa 7291:4:elpa 14582:1 14582:2 14582:4 14582:2:elpa 14582:4:elpa 29164:4' --budget 100000 --force --note 'Not run: M = 29164 on 1 and 2 ranks and with ELPA. By the M = 14582 rows its peak memory per rank would be about 4 times theirs (M^2): on one rank or a 1 x 2 grid, and with the workspace of ELPA on 4 ranks, more than a 24 GiB machine holds beside the system. That is what kpca-mpi is for: on 4 ranks with ScaLAPACK it fits in the memory per rank the last row shows.'"

. scripts/lib.sh
only=""
log=build/results.log
while [ $# -gt 0 ]; do
    case $1 in
    --only) only=$(optval "$@"); shift ;;
    --log) log=$(optval "$@"); shift ;;
    -h | --help) usage; exit 0 ;;
    *) bad_option "$1" ;;
    esac
    shift
done
for t in $only; do
    case " $(echo $all | sed 's/:[^ ]*//g') " in
    *" $t "*) ;;
    *) echo "results.sh: '$t' is not one of the targets: $(echo $all | sed 's/:[^ ]*//g')" >&2; exit 2 ;;
    esac
done
if ! git diff --quiet HEAD -- . ':!results' || [ -n "$(git ls-files --others --exclude-standard -- . ':!results')" ]; then
    echo "results.sh: uncommitted changes outside results/ (git status): commit them first, so that every file names the code that made it" >&2
    exit 1
fi
mkdir -p "$(dirname "$log")"
echo "# scripts/results.sh at $(git rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$log"
for entry in $all; do
    t=${entry%%:*}
    [ -z "$only" ] || case " $only " in *" $t "*) ;; *) continue ;; esac
    for d in $(echo "${entry#*:}" | tr , ' '); do
        rm -rf "$d"
    done
    start=$(date +%s)
    echo "== make $t ($(date -u +%H:%M:%SZ))"
    rc=0
    case $t in
    experiment) make experiment GRID_FLAGS=--force || rc=$? ;;
    distributed) make distributed DIST_FLAGS="$dist_flags" || rc=$? ;;
    scaling) make scaling SCALING_FLAGS="${SCALING_FLAGS:-}" || rc=$? ;;
    *) make "$t" || rc=$? ;;
    esac
    end=$(date +%s)
    echo "$t start $start end $end seconds $((end - start)) exit $rc" >>"$log"
    if [ $rc -ne 0 ]; then
        echo "results.sh: make $t failed (exit $rc); the files of the targets before it are written (git status results/)" >&2
        exit $rc
    fi
done
echo "results.sh: done; $log has each target's seconds"
