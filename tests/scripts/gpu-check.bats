#!/usr/bin/env bats
# gpu-check.bats - scripts/gpu-check.sh --quick (make gpu-check's script)
# against the stand-in CUDA libraries of the unit tests (tests/gpu/
# fake_cuda.c: their eigenpairs are LAPACK's): it runs every step, its
# checks pass where the GPU path agrees with the CPU's and fail where it
# does not, and it writes the report with the machine and every table.
# This checks the script's logic only, never that a GPU computes right.

load ../helper

setup() {
    common_setup
    FAKE="${GPU_FAKE:-$REPO/build/tests/gpu/fake}/ok"
    [ -f "$FAKE/libcusolver.so.12" ] || fail "no stand-ins in $FAKE (make cli-test or make script-test builds them)"
}

@test "gpu-check --quick: every step against the stand-ins, the checks hold, the report has each table" {
    run --separate-stderr env PY="$PY" KPCA_CUDA_PATH="$FAKE" KPCA="$KPCA" GPU_CHECK_WORK="$TMP/work" \
        sh "$REPO/scripts/gpu-check.sh" --quick --out "$OUT/gpu.md"
    [ "$status" -eq 0 ] || { echo "$stderr"; fail "gpu-check.sh --quick failed ($status)"; }
    local f="$OUT/gpu.md"
    grep -q '^## Machine' "$f" && grep -q '^## Smoke' "$f" && grep -q '^## USPS: the GPU against the CPU' "$f" &&
        grep -q '^## USPS in single precision: the GPU against the CPU' "$f" &&
        grep -q '^## The eigensolve at larger M' "$f" || fail "a section is missing: $(cat "$f")"
    grep -q 'Checks failed: 0\.' "$f" || fail "checks failed: $(cat "$f")"
    # the eval rows: the same error counts on both devices, a count per k
    grep -E '^\| eval.s error counts, k = 8,16,32 \| 8 [0-9]+ 16 [0-9]+ 32 [0-9]+ ' "$f" || fail "no error counts: $(cat "$f")"
    # the larger sizes were fitted (the torch column is empty without PyTorch)
    grep -Eq '^\| 800 \| [0-9.]+ s \|' "$f" && grep -Eq '^\| 1000 \| [0-9.]+ s \|' "$f" || fail "no timing rows: $(cat "$f")"
    # single precision: its checks' rows, and the large-M eigensolve (60000 on a GPU)
    grep -Eq '^\| eigenvalues, largest difference over the largest \| [0-9.e+-]+ \| 1e-5 \|' "$f" &&
        grep -Eq '^\| eval.s error counts, k = 8,16,32 \| 8 [0-9]+ 16 [0-9]+ 32 [0-9]+ .*CPU, double' "$f" ||
        fail "no single-precision checks: $(cat "$f")"
    grep -Eq '^\| 1200 \| [0-9.]+ s \|' "$f" || fail "no single-precision timing row: $(cat "$f")"
    grep -q "kpca: \`kpca" "$f" || fail "no kpca version in the report"
}

# disagreeing PATTERN: gpu-check.sh --quick with a kpca whose fits that
# match the case pattern PATTERN are other models (of fewer points)
disagreeing() {
    cat >"$TMP/kpca" <<SH
#!/bin/sh
case " \$* " in
$1) exec "$KPCA" "\$@" --subset 250 ;;
esac
exec "$KPCA" "\$@"
SH
    chmod +x "$TMP/kpca"
    run --separate-stderr env PY="$PY" KPCA_CUDA_PATH="$FAKE" KPCA="$TMP/kpca" GPU_CHECK_WORK="$TMP/work" \
        sh "$REPO/scripts/gpu-check.sh" --quick --out "$OUT/gpu.md"
}

@test "gpu-check --quick: a GPU path that disagrees with the CPU fails the run, and says which check" {
    # a kpca whose cuda fit is another model: the stand-ins with the CPU's
    # model swapped for one of fewer points
    disagreeing '*" fit "*"--device cuda"*'
    assert_status 1
    assert_stderr_contains "gpu-check: FAILED: small fit: eigenvalues differ"
    grep -Eq 'Checks failed: [1-9]' "$OUT/gpu.md" || fail "the report does not count the failures"
}

@test "gpu-check --quick: a single-precision GPU path that disagrees with the CPU's fails the run, naming the check" {
    # the GPU's single-precision fit swapped for one of fewer points; the
    # double-precision runs agree
    disagreeing '*" fit "*"--precision single --device cuda"*'
    assert_status 1
    assert_stderr_contains "gpu-check: FAILED: USPS single precision: eigenvalues differ"
    [[ "$stderr" != *"small fit"* && "$stderr" != *"FAILED: USPS eigenvalues"* ]] || fail "a double check failed: $stderr"
}
