#!/bin/sh
# check-kernels.sh - `make check-kernels`: the tests that compare computed
# numbers with a stored file or constant, run again under a second BLAS,
# so that a test that holds only on the kernels of the machine it was
# written on fails here, before it lands (docs/hacking.md, "Tests that
# compare numbers").
#
#   tests/check-kernels.sh OWN_CORE KPCA REFBLAS_KPCA UNIT_BIN...
#
# OWN_CORE is the OpenBLAS core kpca runs here (kpca --version), KPCA the
# build to test, REFBLAS_KPCA kpca built on the reference BLAS (make
# unit-refblas builds it), UNIT_BIN the unit tests of KPCA's build.  The
# second BLAS is:
#   Haswell (AVX2)       where OWN_CORE is SkylakeX or Cooperlake (AVX-512);
#   SkylakeX (AVX-512)   else where the CPU has AVX-512 (an AMD Zen 4 or 5,
#                        on which Debian 12's OpenBLAS runs Haswell's kernels);
#   the reference BLAS   else (REFBLAS_KPCA; its unit tests are make
#                        unit-refblas's, run by make test).
# About a minute and a half on two cores.
set -eu
own="$1" kpca="$2" refkpca="$3"
shift 3
here="$(cd "$(dirname "$0")" && pwd)"

# the bats tests that compare numbers with a stored file or constant
BATS_FILES="cli/subsets.bats cli/stream.bats cli/smooth.bats scripts/docs.bats"
BATS_FILTER='sample first gives the model|streamed transform: (every model kind|an HDF5 file)|version-2 model|quick start runs|own-data.md.s commands'

avx512() { grep -qw avx512f /proc/cpuinfo 2>/dev/null; }
case "$own" in
SkylakeX | Cooperlake) second=Haswell ;;
*) if [ "$own" != "not" ] && avx512; then second=SkylakeX; else second=reference; fi ;;
esac

files=""
for f in $BATS_FILES; do files="$files $here/$f"; done
if [ "$second" = reference ]; then
    echo "check-kernels: OpenBLAS runs $own here; the second BLAS is the reference one ($refkpca)"
    "$refkpca" --version | sed -n 2p | grep -q '^BLAS: not OpenBLAS' ||
        { echo "check-kernels: $refkpca is not the reference build" >&2; exit 1; }
    # shellcheck disable=SC2086
    KPCA="$refkpca" bats -f "$BATS_FILTER" $files
    exit 0
fi
got="$(OPENBLAS_CORETYPE=$second "$kpca" --version | sed -n 2p)"
[ "$got" = "OpenBLAS $second" ] || { echo "check-kernels: asked for $second, kpca runs '$got'" >&2; exit 1; }
echo "check-kernels: OpenBLAS runs $own here; the tests again under $second"
export OPENBLAS_CORETYPE="$second"
for t in "$@"; do
    echo "== $t (OPENBLAS_CORETYPE=$second)"
    "$t"
done
# shellcheck disable=SC2086
KPCA="$kpca" bats -f "$BATS_FILTER" $files
