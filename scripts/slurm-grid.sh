#!/bin/sh
#SBATCH --job-name=kpca-grid
#SBATCH --array=0-5
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
# slurm-grid.sh - the paper grid (scripts/run-grid.sh) as a Slurm job array:
# one array task per degree, each running that degree's fit, transforms and
# eval into the shared cache (--work, on a file system every node sees);
# then one assembling step writes the tables from the cached steps.  The
# cells are those of a sequential run.
#
# usage, from the repository root on the cluster's login node:
#   jid=$(sbatch --parsable scripts/slurm-grid.sh [--degrees "D..."] [run-grid options])
#   sbatch --dependency=afterok:$jid scripts/slurm-grid.sh --assemble [the same options]
# The array covers 6 degrees (0-5); with --degrees or --full give it the
# right size: sbatch --array=0-6 scripts/slurm-grid.sh --full.
#
# Each task reads SLURM_ARRAY_TASK_ID (0-based) and runs the degree at that
# place in the list; it can be run by hand the same way:
#   SLURM_ARRAY_TASK_ID=2 sh scripts/slurm-grid.sh --work build/grid
# Every other option goes to run-grid.sh unchanged (--work, --subset,
# --components, --eval, --precision, --name, --out, --force...).
set -eu
# under sbatch the script runs from a spool copy: the submit directory is
# the repository
cd "${SLURM_SUBMIT_DIR:-$(dirname "$0")/..}"
degrees="1 2 3 4 5 6"
assemble=0
work=build/grid
out=results
n=$#
i=0
# split off what this script reads; keep the rest, in order, as "$@"
while [ $i -lt $n ]; do
    a=$1
    shift
    i=$((i + 1))
    case "$a" in
    --assemble) assemble=1 ;;
    --degrees) degrees=$1; shift; i=$((i + 1)) ;;
    --full) degrees="1 2 3 4 5 6 7"; set -- "$@" --full ;;
    --work) work=$1; set -- "$@" --work "$1"; shift; i=$((i + 1)) ;;
    --out) out=$1; shift; i=$((i + 1)) ;;
    -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; /^#SBATCH/d; s/^# \{0,1\}//'; exit 0 ;;
    *) set -- "$@" "$a" ;;
    esac
done
if [ "$assemble" = 1 ]; then
    exec sh scripts/run-grid.sh --degrees "$degrees" --out "$out" "$@"
fi
task=${SLURM_ARRAY_TASK_ID:-}
case "$task" in
'' | *[!0-9]*) echo "slurm-grid.sh: SLURM_ARRAY_TASK_ID is '$task': submit with sbatch, or set it (0-based)" >&2; exit 2 ;;
esac
d=$(echo $degrees | awk -v t="$task" '{ print (t + 1 <= NF) ? $(t + 1) : "" }')
if [ -z "$d" ]; then
    echo "slurm-grid.sh: task $task has no degree (degrees: $degrees): the array is larger than the list" >&2
    exit 2
fi
echo "slurm-grid.sh: task $task: degree $d" >&2
exec sh scripts/run-grid.sh --degrees "$d" --out "$work/jobs/d$d" "$@"
