#!/bin/sh
# gpu-check.sh [--quick] [--out FILE] - kpca on the GPU against its CPU
# path and against PyTorch, on one machine, in one run (issue 43, item 5;
# `make gpu-check`).  Meant for a machine with an NVIDIA GPU, at most 8
# minutes; written for one without Debian's packages too: KPCA may be the
# wrapper of `make bundle` (kpca-bundle/kpca).
#
#   1. smoke: kpca's CUDA declarations against this machine's headers (when
#      a C compiler and /usr/local/cuda/include are there), a small fit on
#      the GPU against the CPU;
#   2. USPS (M = 7291, (x.y)^3, k = 2048): fit, transform and eval with
#      --device cuda against --device cpu: eigenvalues to 1e-10 of the
#      largest, features to 1e-8 of each component's largest after signs,
#      eval's error counts at k = 64..2048 equal;
#   3. the same with --precision single on both devices: eigenvalues to 1e-5
#      of the largest, features to 1e-4, eval's error counts equal, or within
#      one error where the CPU's own single precision moves the same cell
#      (its count differs from the CPU's double);
#   4. timings: the USPS fit on the GPU and on the machine's CPUs, the
#      eigensolve of M = 15000, 30000, 45000 points (USPS digits with noise)
#      on the GPU against torch.linalg.eigh of the same centred matrix in
#      float64, and of M = 60000 in single precision against float32.
#
# Writes OUT (default results/gpu.md) with the machine, the GPU, the driver,
# CUDA and library versions, every figure and the command; each step's
# table is written as soon as it is measured, so a run cut short keeps
# what it measured.  --quick: small sizes (600 of the first 1500 training
# digits fitted, 300 test digits), for the test against stand-in
# libraries (tests/scripts/gpu-check.bats), which checks the script's
# logic, never that a GPU computes right.  Exit 0 when every check holds,
# 1 when one does not, 2 on a usage error.
set -eu
cd "$(dirname "$0")/.."
KPCA=${KPCA:-build/kpca}
PY=${PY:-python3}
out=results/gpu.md quick=0
while [ $# -gt 0 ]; do
    case "$1" in
    --quick) quick=1 ;;
    --out) out=$2; shift ;;
    *) echo "usage: gpu-check.sh [--quick] [--out FILE]" >&2; exit 2 ;;
    esac
    shift
done
work=${GPU_CHECK_WORK:-build/gpu-check}
mkdir -p "$work" "$(dirname "$out")"
if [ "$quick" = 1 ]; then
    M=600 K=32 KS=8,16,32 SIZES="800 1000" SINGLE_SIZES=1200 TRAIN=1500 TEST=300
else
    M=7291 K=2048 KS=64,128,256,512,1024,2048 SIZES="15000 30000 45000" SINGLE_SIZES=60000 TRAIN=7291 TEST=2007
fi
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
say() { printf '%s\n' "$*" >&2; }
fails=0
fail_check() { say "gpu-check: FAILED: $*"; fails=$((fails + 1)); }

tmp_out="$out.tmp"
{
    echo "# kpca on the GPU"
    echo
    echo "Written by \`scripts/gpu-check.sh$( [ "$quick" = 1 ] && echo ' --quick')\` (\`make gpu-check\`) on $(date -u '+%Y-%m-%d %H:%M UTC'); every figure below is from this one run on this one machine."
    echo
    echo "## Machine"
    echo
    echo "- CPU: $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null), $(nproc) cores"
    if command -v nvidia-smi >/dev/null 2>&1; then
        echo "- GPU: $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | head -n 1) (name, memory, driver)"
    else
        echo "- GPU: no nvidia-smi on this machine"
    fi
    echo "- kpca: \`$("$KPCA" --version 2>&1 | tr '\n' ';' | sed 's/;$//; s/;/; /g')\`"
    echo "- commit: ${KPCA_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
    echo "- PyTorch: $("$PY" -c 'import torch; print(torch.__version__, "CUDA", torch.version.cuda, torch.cuda.get_device_name(0) if torch.cuda.is_available() else "(no GPU)")' 2>/dev/null || echo absent)"
    echo "- OPENBLAS_NUM_THREADS: ${OPENBLAS_NUM_THREADS:-unset (all cores)}"
    echo
} >"$tmp_out"
flush() { cp "$tmp_out" "$out"; }
flush

# ---- 1. smoke ---------------------------------------------------------------
cuda_inc=${CUDA_INCLUDE:-/usr/local/cuda/include}
decl="skipped (no C compiler or no $cuda_inc/cusolverDn.h)"
if command -v cc >/dev/null 2>&1 && [ -f "$cuda_inc/cusolverDn.h" ] && [ -f tests/gpu/decl_check.c ]; then
    if cc -std=c11 -D_XOPEN_SOURCE=700 -Isrc -Isrc/lib -isystem "$cuda_inc" -Werror=incompatible-pointer-types \
        -fsyntax-only tests/gpu/decl_check.c 2>"$work/decl.log"; then
        decl="agrees with $cuda_inc"
    else
        decl="DISAGREES with $cuda_inc: $(head -c 300 "$work/decl.log" | tr '\n' ' ')"
        fail_check "kpca's declarations against $cuda_inc"
    fi
fi
gzip -dc data/zip.train.gz | head -n "$TRAIN" >"$work/train.txt"
gzip -dc data/zip.test.gz | head -n "$TEST" >"$work/test.txt"
head -n 300 "$work/train.txt" >"$work/small.txt"
"$KPCA" fit -q -d 3 -k 16 --device cpu "$work/small.txt" -o "$work/small-cpu.model"
"$KPCA" fit -q -d 3 -k 16 --device cuda "$work/small.txt" -o "$work/small-gpu.model"
"$KPCA" spectrum "$work/small-cpu.model" >"$work/small-cpu.spec"
"$KPCA" spectrum "$work/small-gpu.model" >"$work/small-gpu.spec"

# compare.py: the eigenvalue and feature checks, and torch's timings
cat >"$work/compare.py" <<'PY'
import sys, time
import numpy as np

def spectrum(path):
    ev = []
    for line in open(path):
        f = line.split()
        if len(f) == 5 and f[0].isdigit():
            ev.append(float(f[1]))
    return np.array(ev)

def evals(a, b):
    x, y = spectrum(a), spectrum(b)
    if len(x) != len(y) or len(x) == 0:
        print("count %d %d" % (len(x), len(y)))
        return
    print("%.3e" % (np.max(np.abs(x - y)) / np.max(np.abs(x))))

def features(a, b, bound="1e-8"):
    x, y = np.load(a), np.load(b)
    if x.shape != y.shape:
        print("shape %s %s" % (x.shape, y.shape))
        return
    worst, bad = 0.0, 0
    for j in range(x.shape[1]):
        s = np.sign(x[np.argmax(np.abs(x[:, j])), j]) * np.sign(y[np.argmax(np.abs(x[:, j])), j])
        d = np.max(np.abs(x[:, j] - s * y[:, j])) / max(np.max(np.abs(x[:, j])), 1e-300)
        worst = max(worst, d)
        bad += d > float(bound)
    print("%.3e %d" % (worst, bad))

def make(n, out):
    n = int(n)
    # USPS digits, then noisy copies of them (sd 0.05, within [-1, 1])
    rng = np.random.default_rng(7)
    base = np.vstack([np.loadtxt("data/zip.train.gz")[:, 1:], np.loadtxt("data/zip.test.gz")[:, 1:]])
    rows = [base]
    while sum(len(r) for r in rows) < n:
        rows.append(np.clip(base + rng.normal(0, 0.05, base.shape), -1, 1))
    np.save(out, np.vstack(rows)[:n])

def torch_eigh(path, dtype):
    import torch
    x = torch.from_numpy(np.load(path)).cuda().to(torch.float64)
    k = (x @ x.T) ** 3
    m = k.mean(0)
    k = (k - m[None, :] - m[:, None] + m.mean()).to(getattr(torch, dtype))
    torch.cuda.synchronize()
    t = time.perf_counter()
    torch.linalg.eigh(k)
    torch.cuda.synchronize()
    print("%.2f" % (time.perf_counter() - t))

globals()[sys.argv[1]](*sys.argv[2:])
PY
small=$("$PY" "$work/compare.py" evals "$work/small-cpu.spec" "$work/small-gpu.spec")
awk -v e="$small" 'BEGIN { exit !(e + 0 <= 1e-10 && e ~ /e/) }' || fail_check "small fit: eigenvalues differ by $small of the largest"
{
    echo "## Smoke"
    echo
    echo "- kpca's CUDA declarations: $decl"
    echo "- 300 digits, (x.y)^3, 16 components: GPU eigenvalues against the CPU's, largest difference $small of the largest (at most 1e-10)"
    echo
} >>"$tmp_out"
flush

# ---- 2. USPS: the GPU against the CPU, end to end ---------------------------
ev_line() { sed -n 's/.*timing *\([0-9.]*\) s eigensolve.*/\1/p' "$1"; }
tot_line() { sed -n 's/.*timing *\([0-9.]*\) s total.*/\1/p' "$1"; }
# usps_runs TAG [FIT OPTIONS]: fit, transform and eval on each device, into
# files named with TAG (usps$TAG-cuda.model, test$TAG-cpu.npy, ...) and
# the fit's wall time into wall${TAG}_cuda and wall${TAG}_cpu
usps_runs() {
    tag=$1
    shift
    for dev in cuda cpu; do
        t=$(now)
        "$KPCA" fit -v -d 3 -m "$M" -k "$K" --sample first "$@" --device "$dev" "$work/train.txt" \
            -o "$work/usps$tag-$dev.model" 2>"$work/fit$tag-$dev.log"
        eval "wall${tag}_$dev=$(since "$t")"
        "$KPCA" spectrum "$work/usps$tag-$dev.model" >"$work/usps$tag-$dev.spec"
        for part in train test; do
            "$KPCA" transform -q --device "$dev" "$work/usps$tag-$dev.model" "$work/$part.txt" -o "$work/$part$tag-$dev.h5"
        done
        "$KPCA" transform -q --device "$dev" "$work/usps$tag-$dev.model" "$work/test.txt" -o "$work/test$tag-$dev.npy"
        "$KPCA" eval -q -k "$KS" "$work/train$tag-$dev.h5" "$work/test$tag-$dev.h5" >"$work/eval$tag-$dev.txt"
    done
}
usps_runs ""
# fit_rows TAG: the timing rows of usps_runs TAG's two fits
fit_rows() {
    eval "wall_gpu=\$wall${1}_cuda wall_host=\$wall${1}_cpu"
    echo "| --device cuda | $(ev_line "$work/fit$1-cuda.log") s | $(tot_line "$work/fit$1-cuda.log") s | $wall_gpu s |"
    echo "| --device cpu, $(nproc) cores | $(ev_line "$work/fit$1-cpu.log") s | $(tot_line "$work/fit$1-cpu.log") s | $wall_host s |"
}
ev_rel=$("$PY" "$work/compare.py" evals "$work/usps-cpu.spec" "$work/usps-cuda.spec")
set -- $("$PY" "$work/compare.py" features "$work/test-cpu.npy" "$work/test-cuda.npy")
feat_rel=$1 feat_bad=$2
awk -v e="$ev_rel" 'BEGIN { exit !(e + 0 <= 1e-10 && e ~ /e/) }' || fail_check "USPS eigenvalues differ by $ev_rel"
[ "$feat_bad" = 0 ] || fail_check "USPS features: $feat_bad components differ by more than 1e-8 (worst $feat_rel)"
errs() { awk '$1 ~ /^[0-9]+$/ && NF == 4 { print $1, $3 }' "$1"; }
errs "$work/eval-cpu.txt" >"$work/err-cpu"
errs "$work/eval-cuda.txt" >"$work/err-cuda"
[ -s "$work/err-cpu" ] || fail_check "no error table from eval"
cmp -s "$work/err-cpu" "$work/err-cuda" || fail_check "eval's error counts differ between the GPU's and the CPU's features"
{
    echo "## USPS: the GPU against the CPU"
    echo
    echo "\`kpca fit -d 3 -m $M -k $K\` on the first $TRAIN training digits, \`transform\` of them and of the first $TEST test digits, \`eval -k $KS\`."
    echo
    echo "| check | result | bound |"
    echo "|---|---|---|"
    echo "| eigenvalues, largest difference over the largest | $ev_rel | 1e-10 |"
    echo "| test features, largest difference over each component's largest, after signs | $feat_rel ($feat_bad components over) | 1e-8 |"
    echo "| eval's error counts, k = $KS | $(tr '\n' ' ' <"$work/err-cuda") (GPU) against $(tr '\n' ' ' <"$work/err-cpu") (CPU) | equal |"
    echo
    echo "| fit, M = $M, k = $K | eigensolve | whole fit (kpca -v) | wall, process start to model written |"
    echo "|---|---|---|---|"
    fit_rows ""
    echo
    echo "GPU against CPU, whole fit: $(awk -v a="$wall_cpu" -v b="$wall_cuda" 'BEGIN { printf "%.1fx", a / b }') faster (target: at least 8x, and under 1.5 s)."
    echo
} >>"$tmp_out"
flush

# ---- 3. USPS in single precision: the GPU against the CPU -------------------
usps_runs 32 --precision single
ev32=$("$PY" "$work/compare.py" evals "$work/usps32-cpu.spec" "$work/usps32-cuda.spec")
set -- $("$PY" "$work/compare.py" features "$work/test32-cpu.npy" "$work/test32-cuda.npy" 1e-4)
feat32=$1 feat32_bad=$2
awk -v e="$ev32" 'BEGIN { exit !(e + 0 <= 1e-5 && e ~ /e/) }' ||
    fail_check "USPS single precision: eigenvalues differ by $ev32"
[ "$feat32_bad" = 0 ] ||
    fail_check "USPS single precision: features: $feat32_bad components differ by more than 1e-4 (worst $feat32)"
errs "$work/eval32-cpu.txt" >"$work/err-32cpu"
errs "$work/eval32-cuda.txt" >"$work/err-32cuda"
# per k: the GPU's count, the CPU's in single, the CPU's in double (step 2)
cells=$(paste -d ' ' "$work/err-32cuda" "$work/err-32cpu" "$work/err-cpu" | awk '
    NF != 6 || $1 != $3 || $1 != $5 { print " (the tables do not match)"; exit }
    { d = $2 - $4; if (d < 0) d = -d }
    d > 1 || (d == 1 && $4 == $6) { bad = bad " k=" $1 }
    END { print bad }')
[ -s "$work/err-32cpu" ] || fail_check "no error table from eval in single precision"
[ -z "$cells" ] || fail_check "USPS single precision: eval's error counts differ at$cells"
{
    echo "## USPS in single precision: the GPU against the CPU"
    echo
    echo "The same runs with \`--precision single\` on both devices."
    echo
    echo "| check | result | bound |"
    echo "|---|---|---|"
    echo "| eigenvalues, largest difference over the largest | $ev32 | 1e-5 |"
    echo "| test features, largest difference over each component's largest, after signs | $feat32 ($feat32_bad components over) | 1e-4 |"
    echo "| eval's error counts, k = $KS | $(tr '\n' ' ' <"$work/err-32cuda") (GPU) against $(tr '\n' ' ' <"$work/err-32cpu") (CPU, single) and $(tr '\n' ' ' <"$work/err-cpu") (CPU, double) | equal, or within one where the CPU's single differs from its double |"
    echo
    echo "| fit, M = $M, k = $K, single | eigensolve | whole fit (kpca -v) | wall |"
    echo "|---|---|---|---|"
    fit_rows 32
    echo
} >>"$tmp_out"
flush

# ---- 4. larger M: kpca's eigensolve on the GPU against torch.linalg.eigh ----
have_torch=0
"$PY" -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null && have_torch=1
{
    echo "## The eigensolve at larger M, against torch.linalg.eigh"
    echo
    echo "USPS digits and noisy copies of them, (x.y)^3, all eigenpairs asked of torch (float64), k = $K of kpca (\`--device cuda\`)."
    [ "$have_torch" = 1 ] || echo "PyTorch with CUDA is not on this machine: its column is empty."
    echo
    echo "| M | kpca eigensolve | kpca whole fit | torch.linalg.eigh float64 | kpca against torch |"
    echo "|---|---|---|---|---|"
} >>"$tmp_out"
flush
# timed_rows DTYPE SIZES [FIT OPTIONS]: for each M of SIZES, kpca's fit on
# the GPU against torch.linalg.eigh in DTYPE, a row of the table each
timed_rows() {
    dtype=$1 sizes=$2
    shift 2
    for n in $sizes; do
        "$PY" "$work/compare.py" make "$n" "$work/m$n.npy"
        "$KPCA" fit -v -d 3 -k "$K" "$@" --device cuda "$work/m$n.npy" -o "$work/m$n.model" 2>"$work/fit-m$n.log" ||
            { fail_check "fit of $n points on the GPU $*: $(tail -n 1 "$work/fit-m$n.log")"; continue; }
        e=$(ev_line "$work/fit-m$n.log") tt=""
        [ "$have_torch" = 0 ] || tt=$("$PY" "$work/compare.py" torch_eigh "$work/m$n.npy" "$dtype" 2>/dev/null || echo "")
        r=$([ -n "$tt" ] && awk -v a="$tt" -v b="$e" 'BEGIN { printf "%.2fx", a / b }' || echo "")
        echo "| $n | $e s | $(tot_line "$work/fit-m$n.log") s | ${tt:+$tt s} | $r |" >>"$tmp_out"
        flush
        rm -f "$work/m$n.npy" "$work/m$n.model"
    done
}
timed_rows float64 "$SIZES"
{
    echo
    echo "Single precision (\`--precision single --device cuda\`, the matrix in binary32 on the GPU) against torch.linalg.eigh in float32; M past 46338, where LAPACK's divide-and-conquer driver (its 32-bit workspace sizes) stops on the CPU."
    echo
    echo "| M | kpca eigensolve, single | kpca whole fit | torch.linalg.eigh float32 | kpca against torch |"
    echo "|---|---|---|---|---|"
} >>"$tmp_out"
flush
timed_rows float32 "$SINGLE_SIZES" --precision single
{
    echo
    echo "Checks failed: $fails."
} >>"$tmp_out"
mv "$tmp_out" "$out"
say "gpu-check: wrote $out ($fails checks failed)"
[ "$fails" = 0 ]
