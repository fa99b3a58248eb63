#!/bin/sh
# install-deps.sh - install the Debian packages kpca needs, if missing.
# Idempotent: does nothing (and needs no root) when all are present.
#   build:  gcc make pkg-config, OpenBLAS, LAPACKE, LIBSVM, LIBLINEAR, HDF5, zlib,
#           libbz2, liblzma, libzstd (compressed text)
#   tests:  cmocka, bats, libsvm-tools (svm-train), python3-sklearn, python3-h5py, python3-pandas,
#           the reference BLAS (with CBLAS) and LAPACK (make unit-refblas),
#           strace (the bytes each kpca-mpi rank reads, tests/cli/mpi.bats)
#   plots:  gnuplot-nox
#   measurements: time (/usr/bin/time: peak RSS in make bench and make approx)
#   distributed build (make mpi, build/kpca-mpi): OpenMPI, ScaLAPACK, ELPA
#   scripts: jq (run-grid.sh's JSON, scripts/lib.sh)
#            GNU parallel (run-grid.sh --jobs)
set -eu
pkgs="gcc make pkg-config libopenblas-dev liblapacke-dev libsvm-dev liblinear-dev libhdf5-dev zlib1g-dev
      libbz2-dev liblzma-dev libzstd-dev libmatio-dev
      libcmocka-dev bats libblas-dev liblapack-dev libsvm-tools python3-sklearn python3-h5py python3-numpy python3-pandas gnuplot-nox
      ca-certificates curl time liblbfgs-dev jq parallel strace
      openmpi-bin libopenmpi-dev libscalapack-openmpi-dev libelpa-dev"
missing=""
for p in $pkgs; do
    st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [ "$st" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
# shellcheck disable=SC2086
n=$(echo $missing | wc -w)
echo "install-deps.sh: $n Debian packages missing:$missing" >&2
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
        echo "install-deps.sh: need root to install:$missing" >&2; exit 1; fi
else SUDO=""; fi
export DEBIAN_FRONTEND=noninteractive
echo "install-deps.sh: apt-get update (Debian's package lists)" >&2
$SUDO apt-get update -qq
# apt says what it installs, with what they depend on, and how much (on a
# bare Debian 12 about 250 packages, 1.4 GB); then a line a package
# (-q: without the progress bars, which a log cannot show)
echo "install-deps.sh: apt-get install (a few minutes on a bare system)" >&2
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
echo "install-deps.sh: done" >&2
