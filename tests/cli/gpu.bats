#!/usr/bin/env bats
# gpu.bats - --device cpu|cuda|auto and KPCA_DEVICE without a GPU
# (docs/gpu.md): the refusals with their exit codes (4: no usable GPU,
# naming what is missing; 6: the GPU's memory too small; 2: a device or an
# option the GPU does not take), KPCA_DEVICE ignored by the other commands,
# kpca --version's cuda: line, kpca-mpi's refusal.  The runs that reach the
# eigensolve use the stand-in CUDA libraries of the unit tests
# ($GPU_FAKE: build/tests/gpu/fake, tests/gpu/fake_cuda.c, LAPACK behind
# the real sonames): they test the glue from the command line, never a GPU.

load ../helper

GPU_FAKE="${GPU_FAKE:-$BATS_TEST_DIRNAME/../../build/tests/gpu/fake}"
KPCA_MPI="${KPCA_MPI:-$BATS_TEST_DIRNAME/../../build/kpca-mpi}"

setup() {
    common_setup
    unset KPCA_DEVICE KPCA_CUDA_PATH
    head_rows "$DATA/zip.train.gz" 300 "$TMP/fit.txt"
}

# no_gpu_here: skip when a real GPU is usable on this machine
no_gpu_here() {
    "$KPCA" --version | grep -q '^cuda: none' || skip "a GPU is usable here: the refusal cannot be shown"
}

# stand_ins: skip without the stand-in libraries (make build/tests/gpu/test_cuew builds them)
stand_ins() {
    [ -r "$GPU_FAKE/ok/libcusolver.so.12" ] || skip "no stand-in CUDA libraries in $GPU_FAKE: make the gpu unit tests first"
}

@test "gpu: kpca --version ends with a cuda: line" {
    run --separate-stderr "$KPCA" --version
    assert_status 0
    [[ "${lines[-1]}" == cuda:* ]] || fail "last line: ${lines[-1]}"
}

@test "gpu: --device cuda without a driver is refused before any work, exit 4, naming the paths tried" {
    no_gpu_here
    mkdir "$TMP/empty"
    KPCA_CUDA_PATH="$TMP/empty" run --separate-stderr "$KPCA" fit --device cuda "$TMP/fit.txt" -o "$OUT/m.h5"
    assert_status 4
    assert_stderr_contains "no NVIDIA driver"
    assert_stderr_contains "$TMP/empty/libcuda.so.1"
    [[ "$stderr" != *"read '"* ]] || fail "the data were read first: $stderr"
    assert_no_output "$OUT/m.h5"
    # the same from KPCA_DEVICE, and for transform
    KPCA_DEVICE=cuda run --separate-stderr "$KPCA" fit "$TMP/fit.txt" -o "$OUT/m.h5"
    assert_status 4
    "$KPCA" fit -q -k 5 "$TMP/fit.txt" -o "$TMP/m.h5"
    run --separate-stderr "$KPCA" transform --device cuda "$TMP/m.h5" "$TMP/fit.txt" -o "$OUT/f.csv"
    assert_status 4
    assert_no_output "$OUT/f.csv"
}

@test "gpu: the stub libcuda, a driver without the libraries, an unsupported major: exit 4, each named" {
    stand_ins
    KPCA_CUDA_PATH="$GPU_FAKE/stubs" run --separate-stderr "$KPCA" fit --device cuda "$TMP/fit.txt" -o "$OUT/m.h5"
    assert_status 4
    assert_stderr_contains "stub libcuda"
    # the loader's path and /usr/local/cuda/lib64, searched after
    # KPCA_CUDA_PATH, must hold no cuBLAS (test_cuew covers both cases)
    no_gpu_here
    ! ls /usr/local/cuda/lib64/libcublas.so.1[23] >/dev/null 2>&1 || skip "/usr/local/cuda/lib64 holds cuBLAS"
    KPCA_CUDA_PATH="$GPU_FAKE/driver" run --separate-stderr "$KPCA" fit --device cuda "$TMP/fit.txt" -o "$OUT/m.h5"
    assert_status 4
    assert_stderr_contains "no cuBLAS and cuSOLVER of CUDA 12 or 13"
    assert_stderr_contains "$GPU_FAKE/driver/libcublas.so.13"
    KPCA_CUDA_PATH="$GPU_FAKE/old" run --separate-stderr "$KPCA" fit --device cuda "$TMP/fit.txt" -o "$OUT/m.h5"
    assert_status 4
    assert_stderr_contains "libcublas.so.11 is of a CUDA major kpca does not support"
}

@test "gpu: --device cuda on the stand-ins fits the model the CPU fits (the glue, not a GPU)" {
    stand_ins
    "$KPCA" fit -q -k 20 "$TMP/fit.txt" -o "$TMP/cpu.h5"
    KPCA_CUDA_PATH="$GPU_FAKE/ok" run --separate-stderr "$KPCA" fit --device cuda -k 20 "$TMP/fit.txt" -o "$OUT/gpu.h5"
    assert_status 0
    assert_stderr_contains "device: cuda, the eigensolve on kpca stand-in GPU (asked for)"
    assert_stderr_contains "exact cusolver 12.0.0 driver 13.0 on kpca stand-in GPU"
    # the model records the device, the cuSOLVER and the driver, and info shows them
    run "$KPCA" info "$OUT/gpu.h5"
    assert_stdout_contains "exact cusolver 12.0.0 driver 13.0 on kpca stand-in GPU"
    "$KPCA" info -e "$TMP/cpu.h5" | awk '$1 == "eigenvalue"' >"$TMP/cpu.ev"
    "$KPCA" info -e "$OUT/gpu.h5" | awk '$1 == "eigenvalue"' >"$TMP/gpu.ev"
    [ -s "$TMP/cpu.ev" ] && cmp "$TMP/cpu.ev" "$TMP/gpu.ev" || fail "eigenvalues differ"
    # a variance fraction: all pairs on the GPU, the count chosen from them
    KPCA_CUDA_PATH="$GPU_FAKE/ok" KPCA_DEVICE=cuda run --separate-stderr "$KPCA" fit -k 0.5 "$TMP/fit.txt" -o "$OUT/v.h5"
    assert_status 0
    assert_stderr_contains "the fewest that reach --components"
}

@test "gpu: --device cuda --precision single on the stand-ins: binary32 on the GPU, the model says single" {
    stand_ins
    "$KPCA" fit -q --precision single -k 20 "$TMP/fit.txt" -o "$TMP/cpu.h5"
    KPCA_CUDA_PATH="$GPU_FAKE/ok" run --separate-stderr "$KPCA" fit --device cuda --precision single -k 20 \
        "$TMP/fit.txt" -o "$OUT/gpu.h5"
    assert_status 0
    assert_stderr_contains "device: cuda, the eigensolve on kpca stand-in GPU (asked for)"
    run "$KPCA" info "$OUT/gpu.h5"
    assert_stdout_contains "precision single"
    assert_stdout_contains "exact cusolver 12.0.0 driver 13.0 on kpca stand-in GPU"
    # the stand-in's ssyevr against the CPU's: the eigenvalues to 1e-5 of the largest
    "$KPCA" info -e "$TMP/cpu.h5" | awk '$1 == "eigenvalue" { print $3 }' >"$TMP/cpu.ev"
    "$KPCA" info -e "$OUT/gpu.h5" | awk '$1 == "eigenvalue" { print $3 }' >"$TMP/gpu.ev"
    [ "$(wc -l <"$TMP/cpu.ev")" -eq 20 ] && [ "$(wc -l <"$TMP/gpu.ev")" -eq 20 ] || fail "not 20 eigenvalues each"
    paste "$TMP/cpu.ev" "$TMP/gpu.ev" | awk 'NR == 1 { top = $1 } { d = $1 - $2; if (d < 0) d = -d; if (d > 1e-5 * top) bad++ }
        END { exit bad > 0 }' || fail "eigenvalues differ by more than 1e-5 of the largest"
    # all pairs: the single-precision tolerance drops what the CPU's drops
    "$KPCA" fit --precision single "$TMP/fit.txt" -o "$TMP/cpu-all.h5" 2>"$TMP/cpu.err"
    KPCA_CUDA_PATH="$GPU_FAKE/ok" run --separate-stderr "$KPCA" fit --device cuda --precision single \
        "$TMP/fit.txt" -o "$OUT/all.h5"
    assert_status 0
    assert_stderr_contains "$(grep '^kept' "$TMP/cpu.err")"
    assert_stderr_contains "x largest, single precision)"
    # a variance fraction: all pairs in binary32, the count chosen from them
    KPCA_CUDA_PATH="$GPU_FAKE/ok" run --separate-stderr "$KPCA" fit --device cuda --precision single -k 0.5 \
        "$TMP/fit.txt" -o "$OUT/v.h5"
    assert_status 0
    assert_stderr_contains "the fewest that reach --components"
}

# points: N rows of two numbers into FILE (a fit past LAPACK's 46338 points)
points() {
    awk -v n="$1" 'BEGIN { for (i = 1; i <= n; i++) print i % 7, (i * 13) % 11 }' >"$2"
}

@test "gpu: past LAPACK's 46338 points the GPU takes the matrix: cuda and auto reach the GPU's memory check" {
    stand_ins
    points 46339 "$TMP/big.txt"
    # the CPU refuses a variance fraction (every eigenvalue) of 46339 points
    run --separate-stderr "$KPCA" fit -k 0.5 "$TMP/big.txt" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "at most 46338 points"
    # cuSOLVER's 64-bit API has no such limit: the run gets to the GPU's memory
    KPCA_CUDA_PATH="$GPU_FAKE/ok" FAKE_CUDA_FREE=1000 run --separate-stderr "$KPCA" fit --device cuda -k 0.5 \
        "$TMP/big.txt" -o "$OUT/m.h5"
    assert_status 6
    assert_stderr_contains "the eigensolve of the 46339 x 46339 kernel matrix in double precision needs"
    [[ "$stderr" != *46338* ]] || fail "LAPACK's limit applied on the GPU: $stderr"
    KPCA_CUDA_PATH="$GPU_FAKE/ok" FAKE_CUDA_FREE=1000 run --separate-stderr "$KPCA" fit --device auto \
        --precision single -k 0.5 "$TMP/big.txt" -o "$OUT/m.h5"
    assert_status 6
    assert_stderr_contains "device: cuda, the eigensolve on kpca stand-in GPU (auto: a usable GPU and enough points)"
    assert_stderr_contains "kernel matrix in single precision needs"
    # auto without a usable GPU keeps the CPU's refusal
    no_gpu_here
    mkdir "$TMP/empty"
    KPCA_CUDA_PATH="$TMP/empty" run --separate-stderr "$KPCA" fit --device auto -k 0.5 "$TMP/big.txt" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "device: cpu (auto: no usable GPU"
    assert_stderr_contains "at most 46338 points"
    assert_no_output "$OUT/m.h5"
}

@test "gpu: the GPU's memory too small: exit 6, needed and free" {
    stand_ins
    KPCA_CUDA_PATH="$GPU_FAKE/ok" FAKE_CUDA_FREE=1000 run --separate-stderr "$KPCA" fit --device cuda "$TMP/fit.txt" \
        -o "$OUT/m.h5"
    assert_status 6
    assert_stderr_contains "the GPU's memory is too small"
    assert_stderr_contains "which has 1000 bytes free"
    [[ "$stderr" != *"memory budget"* ]] || fail "a hint about the host's budget: $stderr"
    assert_no_output "$OUT/m.h5"
}

@test "gpu: auto takes the CPU without a GPU or below the crossover, and says why" {
    no_gpu_here
    run --separate-stderr "$KPCA" fit --device auto -k 5 "$TMP/fit.txt" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "device: cpu (auto: no usable GPU: CUDA: no NVIDIA driver"
    stand_ins
    KPCA_CUDA_PATH="$GPU_FAKE/ok" run --separate-stderr "$KPCA" fit --device auto -k 5 "$TMP/fit.txt" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "device: cpu (auto: 300 points, fewer than the 4000 from which the GPU is taken)"
    run --separate-stderr "$KPCA" fit --device auto --solver nystrom -k 5 "$TMP/fit.txt" -o "$OUT/n.h5"
    assert_status 0
    assert_stderr_contains "device: cpu (auto: --solver nystrom runs on the CPU only)"
}

@test "gpu: transform takes --device and runs on the CPU for now, saying so" {
    stand_ins
    "$KPCA" fit -q -k 5 "$TMP/fit.txt" -o "$TMP/m.h5"
    KPCA_CUDA_PATH="$GPU_FAKE/ok" run --separate-stderr "$KPCA" transform --device cuda "$TMP/m.h5" "$TMP/fit.txt" \
        -o "$OUT/f.csv"
    assert_status 0
    assert_stderr_contains "device: cpu (transform's products run on the CPU for now)"
}

@test "gpu: a device or an option the GPU does not take: exit 2" {
    run --separate-stderr "$KPCA" fit --device gpu "$TMP/fit.txt" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "option '--device gpu': expected cpu, cuda or auto"
    KPCA_DEVICE=tpu run --separate-stderr "$KPCA" fit "$TMP/fit.txt" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "KPCA_DEVICE='tpu': expected cpu, cuda or auto"
    run --separate-stderr "$KPCA" fit --device cuda --solver randomized -k 5 "$TMP/fit.txt" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "option '--device cuda': --solver randomized runs on the CPU only"
    assert_no_output "$OUT/m.h5"
}

@test "gpu: KPCA_DEVICE is ignored by the commands without --device" {
    "$KPCA" fit -q -k 5 "$TMP/fit.txt" -o "$TMP/m.h5"
    KPCA_DEVICE=cuda run --separate-stderr "$KPCA" info "$TMP/m.h5"
    assert_status 0
    KPCA_DEVICE=nonsense run --separate-stderr "$KPCA" spectrum "$TMP/m.h5"
    assert_status 0
}

@test "gpu: kpca-mpi refuses --device cuda (exit 2) and runs auto on the CPU" {
    [ -x "$KPCA_MPI" ] || skip "no $KPCA_MPI: run 'make mpi' first"
    command -v mpirun >/dev/null || skip "no mpirun"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    run --separate-stderr timeout 120 mpirun --oversubscribe -n 1 "$KPCA_MPI" fit --device cuda -k 5 "$TMP/fit.txt" \
        -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "kpca-mpi runs on the MPI ranks' CPUs only"
    run --separate-stderr timeout 120 mpirun --oversubscribe -n 1 "$KPCA_MPI" fit --device auto -k 5 "$TMP/fit.txt" \
        -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "device: cpu (auto: kpca-mpi runs on CPUs only)"
}
