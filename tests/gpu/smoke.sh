#!/bin/sh
# smoke.sh - the first step of a check on a GPU (issue 43, item 5): kpca's
# CUDA declarations against that machine's headers (make gpu-decl-check,
# when they are there), then kpca fit of M USPS digits with --device cuda
# against --device cpu: the eigenvalues to 1e-10 of the largest, the
# features of the test digits to 1e-8 of the largest feature (the sign rule
# is the same code on both), and the time of each fit, process start to
# model written.  Exit 0 when they agree, 1 when not, 4 without a usable GPU.
#
#   sh tests/gpu/smoke.sh [M [K]]      (default: 2000 digits, 256 components)
#
# KPCA (build/kpca), DATA (data/zip.train.gz) and TEST (data/zip.test.gz)
# name the binary and the digits; WORK (a temporary folder) the outputs.
# Without a GPU it runs the glue against the stand-ins of the unit tests:
# KPCA_CUDA_PATH=build/tests/gpu/fake/ok sh tests/gpu/smoke.sh (their pairs
# are LAPACK's, so that checks the script, not a GPU).
set -eu
M="${1:-2000}"
K="${2:-256}"
KPCA="${KPCA:-build/kpca}"
DATA="${DATA:-data/zip.train.gz}"
TEST="${TEST:-data/zip.test.gz}"
WORK="${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/kpca-gpu.XXXXXX")}"
mkdir -p "$WORK"

[ ! -f /usr/local/cuda/include/cusolverDn.h ] || make -s gpu-decl-check
"$KPCA" --version | tail -n 1

now() { date +%s.%N; }
fit() { # fit DEVICE: the model and its time in $WORK
    t0=$(now)
    "$KPCA" fit -q --device "$1" -m "$M" -k "$K" "$DATA" -o "$WORK/$1.h5" || return $?
    t1=$(now)
    echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }' >"$WORK/$1.sec"
    "$KPCA" info -e "$WORK/$1.h5" | awk '$1 == "eigenvalue" { print $3 }' >"$WORK/$1.ev"
    "$KPCA" transform -q "$WORK/$1.h5" "$TEST" -o "$WORK/$1.csv"
}
rc=0
fit cuda || rc=$?
[ "$rc" -eq 0 ] || { echo "smoke: kpca fit --device cuda failed (exit $rc)" >&2; exit "$rc"; }
fit cpu

# the largest relative difference of two columns of numbers, against the
# largest magnitude of the second
reldiff() {
    paste -d ' ' "$1" "$2" | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d;
        a = $2 < 0 ? -$2 : $2; if (a > b) b = a; n++ }
        END { if (n == 0 || b == 0) print "nan"; else printf "%.3g\n", m / b }'
}
tail -n +2 "$WORK/cuda.csv" | cut -d, -f2- | tr ',' '\n' >"$WORK/cuda.f"
tail -n +2 "$WORK/cpu.csv" | cut -d, -f2- | tr ',' '\n' >"$WORK/cpu.f"
ev=$(reldiff "$WORK/cuda.ev" "$WORK/cpu.ev")
ft=$(reldiff "$WORK/cuda.f" "$WORK/cpu.f")
nev=$(wc -l <"$WORK/cuda.ev")
ncpu=$(wc -l <"$WORK/cpu.ev")
echo "M = $M, k = $K: fit $(cat "$WORK/cuda.sec") s on the GPU, $(cat "$WORK/cpu.sec") s on the CPU"
echo "components kept: $nev on the GPU, $ncpu on the CPU"
echo "eigenvalues: largest difference $ev of the largest (limit 1e-10)"
echo "features: largest difference $ft of the largest (limit 1e-8)"
echo "$nev $ncpu $ev $ft" | awk '{ exit !($1 == $2 && $3 != "nan" && $3 <= 1e-10 && $4 != "nan" && $4 <= 1e-8) }' ||
    { echo "smoke: the GPU's fit differs from the CPU's (files in $WORK)" >&2; exit 1; }
echo "smoke: agree (files in $WORK)"
