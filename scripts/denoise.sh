#!/bin/sh
# denoise.sh - denoising USPS digits with linear PCA and kernel PCA
# (pre-images; Mika et al., "Kernel PCA and de-noising in feature spaces",
# NIPS 1999).
#
# Fits linear PCA, rbf kernel PCA (the default sigma) and polynomial kernel
# PCA (d = 2) on the first M training digits, adds Gaussian noise of standard
# deviation S (pixels on the [-1, 1] scale) to the first N test digits with
# `kpca denoise --noise`, reconstructs them from k components and reports the
# mean squared error per pixel to the clean digits.  Also measures the
# unguarded fixed point (`--plain`) for the polynomial kernel.  Writes
# denoise.csv, denoise.md and denoise.png (noisy / PCA / kernel PCA / clean,
# one digit per class) into the output directory.
#
# usage: scripts/denoise.sh [options]
#   --subset M        fit points (default: 3000)
#   --points N        noisy test digits (default: 300)
#   --noise S         noise standard deviation (default: 0.5)
#   --seed N          noise seed (default: 1)
#   --components L    component counts (default: 4,16,64,256,1024; linear PCA
#                     stops at 256, the pixel count)
#   --out DIR         where results go (default: results)
#   --work DIR        models and pre-images (default: build/denoise)
set -eu
cd "$(dirname "$0")/.."
KPCA=${KPCA:-build/kpca}
. scripts/lib.sh

subset=3000
npts=300
noise=0.5
seed=1
comps="4,16,64,256,1024"
out=results
work=build/denoise
cmdline="scripts/denoise.sh $*"
while [ $# -gt 0 ]; do
    case "$1" in
    --subset) subset=$(optval "$@"); shift ;;
    --points) npts=$(optval "$@"); shift ;;
    --noise) noise=$(optval "$@"); shift ;;
    --seed) seed=$(optval "$@"); shift ;;
    --components) comps=$(optval "$@"); shift ;;
    --out) out=$(optval "$@"); shift ;;
    --work) work=$(optval "$@"); shift ;;
    -h|--help) usage; exit 0 ;;
    *) bad_option "$1" ;;
    esac
    shift
done
[ -x "$KPCA" ] || { echo "denoise.sh: $KPCA not built: run make" >&2; exit 2; }
for f in data/zip.train.gz data/zip.test.gz; do
    [ -f "$f" ] || { echo "denoise.sh: $f missing: run make data" >&2; exit 2; }
done
mkdir -p "$work" "$out"
lib_traps
start=$(date +%s)
load0=$(load_stamp)

maxk=$(echo "$comps" | tr ',' '\n' | sort -n | tail -n 1)
clean="$work/test$npts.txt"
gzip -dc data/zip.test.gz | head -n "$npts" >"$clean"

# method name, kernel options, components to fit
methods="pca kpca-rbf kpca-poly2"
fitopts() {
    case "$1" in
    pca) echo "--kernel linear" ;;
    kpca-rbf) echo "--kernel rbf" ;;
    kpca-poly2) echo "--kernel poly -d 2" ;;
    esac
}
for m in $methods; do
    k=$maxk
    [ "$m" != pca ] || [ "$k" -le 256 ] || k=256
    say "== fit $m on $subset digits ($k components)"
    # shellcheck disable=SC2046
    "$KPCA" fit -q $(fitopts "$m") -m "$subset" --sample first -k "$k" data/zip.train.gz -o "$work/$m.model"
done

# one row per method and component count
csv="$out/denoise.csv"
lib_tmp "$out/denoise.csv"
echo "method,kernel,components,points,noise,seed,mse_noisy,mse_denoised,iter_mean,iter_max,converged,max_iter_hit,restarted,stalled,halvings" >"$tmp"
run_cell() { # method label k extra-options
    m=$1 label=$2 k=$3
    shift 3
    cell="$work/$label-k$k"
    "$KPCA" denoise -q "$@" "$work/$m.model" "$clean" -k "$k" --noise "$noise" --seed "$seed" \
        -o "$cell.csv" --csv "$cell.table.csv"
    kern=$(model_key "$work/$m.model" kernel)
    awk -F, -v label="$label" -v kern="$kern" 'NR == 2 {
        printf "%s,%s,%s,%s,%s,%s,%.6f,%.6f,%s,%s,%s,%s,%s,%s,%s\n", label, kern, $2, $3, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15
    }' "$cell.table.csv" >>"$tmp"
}
for m in $methods; do
    for k in $(echo "$comps" | tr ',' ' '); do
        [ "$m" != pca ] || [ "$k" -le 256 ] || continue
        say "== denoise: $m, $k components"
        run_cell "$m" "$m" "$k"
    done
done
# the unguarded fixed point of the polynomial kernel, for the guard's reason (docs/method.md)
for k in $(echo "$comps" | tr ',' ' '); do
    say "== denoise: kpca-poly2, $k components, plain fixed point"
    run_cell kpca-poly2 kpca-poly2-plain "$k" --plain
done
"$KPCA" denoise -q "$work/pca.model" "$clean" -k 4 --noise "$noise" --seed "$seed" -o /dev/null \
    --noisy-output "$work/noisy.csv"
mv "$tmp" "$csv"
end=$(date +%s)
load1=$(load_stamp)

# the best component count of each method (lowest error)
best() {
    awk -F, -v m="$1" '$1 == m && (b == "" || $8 + 0 < e) { b = $3; e = $8 + 0 } END { print b }' "$csv"
}
bpca=$(best pca)
brbf=$(best kpca-rbf)
bpoly=$(best kpca-poly2)

version=$("$KPCA" --version | awk 'NR == 1 { print $2 }')
blas=$("$KPCA" --version | awk 'NR == 2 { print $2 }')
commit=$(commit_stamp)
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
machine=$(machine_stamp)
sigma=$(model_key "$work/kpca-rbf.model" sigma)

# ---- Markdown -------------------------------------------------------------------
md="$out/denoise.md"
lib_tmp "$out/denoise.md"
awk -F, -v comps="$comps" -v cmd="$cmdline" -v ver="$version" -v blas="$blas" -v commit="$commit" -v date="$date" \
    -v machine="$machine" -v load="$(load_words "$load0" "$load1")" -v secs="$((end - start))" -v subset="$subset" -v npts="$npts" -v noise="$noise" \
    -v seed="$seed" -v sigma="$sigma" '
    NR == 1 { next }
    { e[$1 "," $3] = $8; it[$1 "," $3] = $9; conv[$1 "," $3] = $11 "/" $4; noisy = $7 }
    END {
        printf "# Denoising USPS test digits: linear PCA and kernel PCA pre-images\n\n"
        printf "Mean squared error per pixel (pixels in [-1, 1]) between the reconstruction of a noisy digit from its first k components and the clean digit; the noisy digits themselves: **%.4f**.\n\n", noisy
        printf "- command: `%s`\n- kpca %s (commit %s, OpenBLAS %s), %s\n- machine: %s, %s\n- run time: %d s\n", cmd, ver, commit, blas, date, machine, load, secs
        printf "- fit: the first %s training digits; linear PCA (`--kernel linear`), rbf kernel PCA with the default sigma (%s), polynomial kernel PCA (x.y)^2\n", subset, sigma
        printf "- noise: `kpca denoise --noise %s --seed %s` (Gaussian, standard deviation %s, not clipped) on the first %s test digits\n", noise, seed, noise, npts
        printf "- pre-images: `kpca denoise` defaults (start at the noisy digit, at most 100 steps, tol 1e-6); \"plain\": the unguarded fixed point (`--plain`)\n\n"
        n = split(comps, K, ",")
        printf "| components | linear PCA | kernel PCA, rbf | kernel PCA, (x.y)^2 | (x.y)^2, plain fixed point |\n|---:|---:|---:|---:|---:|\n"
        for (i = 1; i <= n; i++) {
            k = K[i]
            printf "| %s | %s | %s | %s | %s |\n", k, cell("pca", k), cell("kpca-rbf", k), cell("kpca-poly2", k), cell("kpca-poly2-plain", k)
        }
        printf "\nSteps per digit (mean) and digits converged:\n\n"
        printf "| components | kernel PCA, rbf | kernel PCA, (x.y)^2 | (x.y)^2, plain fixed point |\n|---:|---:|---:|---:|\n"
        for (i = 1; i <= n; i++) {
            k = K[i]
            printf "| %s | %s | %s | %s |\n", k, steps("kpca-rbf", k), steps("kpca-poly2", k), steps("kpca-poly2-plain", k)
        }
        printf "\n![noisy, PCA, kernel PCA, clean](denoise.png)\n"
    }
    function cell(m, k) { return ((m "," k) in e) ? sprintf("%.4f", e[m "," k]) : "–" }
    function steps(m, k) { return ((m "," k) in it) ? sprintf("%.1f, %s", it[m "," k], conv[m "," k]) : "–" }
' "$csv" >"$tmp"
printf '\nBest component count: linear PCA %s, rbf kernel PCA %s, (x.y)^2 kernel PCA %s (the picture uses these).\n' \
    "$bpca" "$brbf" "$bpoly" >>"$tmp"
mv "$tmp" "$md"

# ---- picture: one digit per class, a row per method -------------------------------
if command -v gnuplot >/dev/null 2>&1; then
    png="$out/denoise.png"
    mat="$work/grid.txt"
    # the first test digit of each class 0..9 (row numbers in the clean file)
    rows=$(awk '{ c = int($1) } !(c in seen) { seen[c] = NR } END { for (c = 0; c <= 9; c++) printf "%s ", seen[c] }' "$clean")
    # tiles: CSV files (label,x1..x256) but the clean one, which is ESL text
    set -- "$work/noisy.csv" "$work/pca-k$bpca.csv" "$work/kpca-rbf-k$brbf.csv" "$work/kpca-poly2-k$bpoly.csv" "$clean"
    awk -v rows="$rows" -v nfiles=$# '
        BEGIN { nc = split(rows, R, " "); for (j = 1; j <= nc; j++) want[R[j]] = j; gap = 2; tile = 16 + gap }
        FNR == 1 { f++ }
        {
            line = FNR
            if (FILENAME ~ /\.csv$/) { if (FNR == 1) next; line = FNR - 1; n = split($0, v, ","); off = 1 }
            else { n = split($0, v, " "); off = 1 }
            if (!(line in want)) next
            j = want[line]
            for (p = 0; p < 256; p++) img[f, j, p] = v[off + 1 + p]
        }
        END {
            H = nfiles * tile + gap; W = nc * tile + gap
            for (y = 0; y < H; y++) {
                s = ""
                for (x = 0; x < W; x++) {
                    val = -0.75 # the light grey between tiles
                    fy = int((y - gap) / tile); fx = int((x - gap) / tile)
                    py = (y - gap) % tile; px = (x - gap) % tile
                    if (y >= gap && x >= gap && py < 16 && px < 16) val = img[fy + 1, fx + 1, py * 16 + px]
                    s = s (x ? " " : "") val
                }
                print s
            }
        }' "$@" >"$mat"
    tmp="$out/.denoise.tmp.$$.png"
    tmpfiles="$tmpfiles $tmp"
    ytics=""
    i=0
    for name in "noisy (S = $noise)" "linear PCA, k = $bpca" "kernel PCA rbf, k = $brbf" "kernel PCA (x.y)^2, k = $bpoly" "clean"; do
        ytics="$ytics\"$name\" $((i * 18 + 10)),"
        i=$((i + 1))
    done
    gnuplot <<GP
set terminal pngcairo size 900,470 font ",12"
set output '$tmp'
unset colorbox
set palette gray negative
set cbrange [-1:1]
set yrange [$((5 * 18 + 1)).5:-0.5]
set xrange [-0.5:$((10 * 18 + 1)).5]
set size ratio -1
set lmargin 26
set ytics (${ytics%,}) scale 0
set xtics ($(i=0; for c in 0 1 2 3 4 5 6 7 8 9; do printf '"%s" %s,' "$c" $((i * 18 + 10)); i=$((i + 1)); done | sed 's/,$//')) scale 0
set title "USPS test digits with Gaussian noise (sd $noise): reconstructions from k components"
plot '$mat' matrix with image notitle
GP
    mv "$tmp" "$png"
fi
say "results: $csv $md${png:+ $png} ($((end - start)) s)"
