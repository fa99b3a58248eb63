#!/bin/sh
# pictures.sh - the gallery, made with the kpca command line, awk and gnuplot:
#
#   eigendigits.png  the mean training digit and the first 19 principal axes
#                    of linear PCA as 16x16 images, each with its share of
#                    the variance (eigenvalue / trace)
#   usps-2d.png      the 2007 test digits on the first two components of
#                    linear PCA, polynomial (d = 3) and RBF kernel PCA,
#                    coloured by class
#   circles.png      two noisy concentric circles (labels 0 and 1), their
#                    first two linear PCA components and their first two RBF
#                    kernel PCA components
#   pictures.md      the numbers behind the pictures, with provenance
#
# The principal axes come from `kpca transform` alone: for the linear kernel
# z_c(x) = v_c.(x - mean), so with b = (-1, ..., -1) and b_j = b + 2 e_j,
# v_c[j] = (z_c(b_j) - z_c(b)) / 2.  The script stops unless the axes are
# orthonormal within 1e-9 and reproduce kpca's projections of test digits.
#
# usage: scripts/pictures.sh [options]
#   --fast        small versions for the tests (fit on 300 digits, 50 points
#                 per circle; a few seconds); output by default in
#                 build/pictures/fast, never in results/
#   --subset M    training digits that fit the USPS models (default: 3000)
#   --points N    points per circle (default: 200)
#   --sigma S     RBF width for the circles (default: 0.4)
#   --seed S      seed of the circles' noise (Park-Miller; default: 1)
#   --out DIR     where the pictures and pictures.md go (default: results)
#   --work DIR    models and intermediate files (default: build/pictures)
set -eu
cd "$(dirname "$0")/.."
KPCA=${KPCA:-build/kpca}
. scripts/lib.sh

subset=3000
npts=200
sigma=0.4
seed=1
out=""
work=""
fast=0
cmdline="scripts/pictures.sh $*"
while [ $# -gt 0 ]; do
    case "$1" in
    --fast) fast=1; subset=300; npts=50 ;;
    --subset) subset=$(optval "$@"); shift ;;
    --points) npts=$(optval "$@"); shift ;;
    --sigma) sigma=$(optval "$@"); shift ;;
    --seed) seed=$(optval "$@"); shift ;;
    --out) out=$(optval "$@"); shift ;;
    --work) work=$(optval "$@"); shift ;;
    -h|--help) usage; exit 0 ;;
    *) bad_option "$1" ;;
    esac
    shift
done
[ -n "$work" ] || { work=build/pictures; [ $fast = 0 ] || work=build/pictures/fast; }
[ -n "$out" ] || { out=results; [ $fast = 0 ] || out=$work; }
[ -x "$KPCA" ] || { put "pictures.sh: $KPCA not built: run make" >&2; exit 2; }
for f in data/zip.train.gz data/zip.test.gz; do
    [ -f "$f" ] || { put "pictures.sh: $f missing: run make data" >&2; exit 2; }
done
command -v gnuplot >/dev/null 2>&1 || { put "pictures.sh: gnuplot missing: run make deps" >&2; exit 2; }
mkdir -p "$work" "$out"
export LC_ALL=C
# plot() runs in a pipeline's subshell, so its temporary PNGs (named with
# this shell's $$, which subshells share) are removed by pattern
cleanup_hook() { rm -f "$out"/*.tmp.$$.png; }
lib_traps
start=$(date +%s)
load0=$(load_stamp)

# plot OUTPUT.png: gnuplot reads its script from stdin and draws into a
# temporary file that replaces OUTPUT only when complete
plot() {
    tmp="$1.tmp.$$.png"
    if { printf "set terminal pngcairo size %s font ',11'\nset output '%s'\n" "$2" "$tmp"; cat; } | gnuplot &&
        [ -s "$tmp" ]; then
        mv "$tmp" "$1"
    else
        rm -f "$tmp"
        die "gnuplot could not draw $1"
    fi
}

# threshold_acc CSV COL: the best accuracy of one threshold on feature COL
# of a kpca transform CSV (label,z1,...): points above it are one class,
# below it the other; prints "accuracy threshold"
threshold_acc() {
    awk -F, -v c="$2" 'NR > 1 { print $(c + 1), $1 }' "$1" | sort -g | awk '
        { z[NR] = $1; y[NR] = $2; ones += ($2 == 1) }
        END {
            n = NR; best = 0; below1 = 0
            for (i = 0; i <= n; i++) {
                if (i > 0) below1 += (y[i] == 1)
                # "above the threshold is class 1": zeros below + ones above
                a = ((i - below1) + (ones - below1)) / n
                if (1 - a > a) a = 1 - a
                if (a > best + 1e-12) {
                    best = a
                    t = (i == 0) ? z[1] - 1 : (i == n) ? z[n] + 1 : (z[i] + z[i + 1]) / 2
                }
            }
            printf "%.4f %.6g\n", best, t
        }'
}

# ---- 1. eigen-digits --------------------------------------------------------
nax=19 # the mean digit and 19 axes fill a 4 x 5 grid
say "== eigen-digits: linear PCA on the first $subset training digits"
lin="$work/linear-m$subset.model"
"$KPCA" fit -q --kernel linear -m "$subset" --sample first -k "$nax" data/zip.train.gz -o "$lin"
"$KPCA" info -e "$lin" >"$work/linear.info"
# the background b and b + 2 e_j for every pixel j, ESL text with label 0
# (a constant label column, so named: --label first)
awk 'BEGIN { for (j = 0; j <= 256; j++) { printf "0"; for (i = 1; i <= 256; i++) printf " %d", (i == j ? 1 : -1); printf "\n" } }' \
    >"$work/basis.txt"
"$KPCA" transform -q --label first "$lin" "$work/basis.txt" -o "$work/basis.csv"
# axes.txt: row c is v_c (256 values)
awk -F, -v k="$nax" 'NR == 2 { for (c = 1; c <= k; c++) b[c] = $(c + 1); next }
    NR > 2 { for (c = 1; c <= k; c++) v[c, NR - 2] = ($(c + 1) - b[c]) / 2 }
    END { for (c = 1; c <= k; c++) { for (j = 1; j <= 256; j++) printf "%s%.17g", (j > 1 ? " " : ""), v[c, j]; printf "\n" } }' \
    "$work/basis.csv" >"$work/axes.txt"
# mean.txt: the mean of the fit digits (the first $subset rows)
gzip -dc data/zip.train.gz | head -n "$subset" | awk '{ for (j = 2; j <= NF; j++) s[j - 1] += $j }
    END { for (j = 1; j <= 256; j++) printf "%s%.17g", (j > 1 ? " " : ""), s[j] / NR; printf "\n" }' >"$work/mean.txt"
# checks: |v_a.v_b - delta_ab| and |z_c(x) - v_c.(x - mean)| for the first
# 20 test digits (relative to 1 + |z|) must stay within 1e-9
gzip -dc data/zip.test.gz | head -n 20 >"$work/test20.txt"
"$KPCA" transform -q "$lin" "$work/test20.txt" -o "$work/test20.csv"
checks=$(awk -v k="$nax" '
    FNR == 1 { f++ }
    f == 1 { for (j = 1; j <= 256; j++) v[FNR, j] = $j; next } # axes
    f == 2 { for (j = 1; j <= 256; j++) m[j] = $j; next }      # mean
    f == 3 { for (j = 1; j <= 256; j++) x[FNR, j] = $(j + 1) - m[j]; next }
    FNR > 1 { # test20.csv
        split($0, z, ","); i = FNR - 1
        for (c = 1; c <= k; c++) {
            s = 0; for (j = 1; j <= 256; j++) s += v[c, j] * x[i, j]
            e = s - z[c + 1]; e = (e < 0 ? -e : e) / (1 + (z[c + 1] < 0 ? -z[c + 1] : z[c + 1]))
            if (e > perr) perr = e
        }
    }
    END {
        for (a = 1; a <= k; a++) for (b = a; b <= k; b++) {
            s = 0; for (j = 1; j <= 256; j++) s += v[a, j] * v[b, j]
            e = s - (a == b); if (e < 0) e = -e; if (e > oerr) oerr = e
        }
        printf "%.2g %.2g\n", oerr, perr
    }' "$work/axes.txt" "$work/mean.txt" "$work/test20.txt" "$work/test20.csv")
orth_err=${checks% *}
proj_err=${checks#* }
awk -v o="$orth_err" -v p="$proj_err" 'BEGIN { exit !(o <= 1e-9 && p <= 1e-9) }' ||
    die "the principal axes are wrong: max |v_a.v_b - delta_ab| = $orth_err, projection error $proj_err (limit 1e-9)"
say "   axes orthonormal within $orth_err, projections reproduced within $proj_err"
# explained.txt: "c eigenvalue percent cumulative" for the shown axes
awk -v k="$nax" '$1 == "trace" { tr = $2 } $1 == "eigenvalue" && $2 <= k { cum += $3; printf "%d %.10g %.2f %.2f\n", $2, $3, 100 * $3 / tr, 100 * cum / tr }' \
    "$work/linear.info" >"$work/explained.txt"
# images.dat: 16 x 16 blocks (mean, then the axes), two blank lines apart
awk '{ for (r = 0; r < 16; r++) { for (c = 1; c <= 16; c++) printf "%s%s", (c > 1 ? " " : ""), $(16 * r + c); printf "\n" } printf "\n\n" }' \
    "$work/mean.txt" "$work/axes.txt" >"$work/images.dat"
{
    put "set multiplot layout 4,5 title \"USPS: the mean digit and the principal axes of linear PCA (first $subset training digits)\\nblack = +, white = -, grey = 0 (axes); the sign of an axis is arbitrary\" font ',13'"
    put "unset tics; unset border; unset colorbox; unset key; set size ratio -1"
    put "set xrange [-0.5:15.5]; set yrange [15.5:-0.5]"
    put "set palette defined (0 'white', 1 'black')"
    put "set cbrange [-1:1]; set title 'mean digit'"
    put "plot '$work/images.dat' index 0 matrix with image"
    awk '{ m = 0; for (j = 1; j <= NF; j++) { a = $j < 0 ? -$j : $j; if (a > m) m = a } print m }' "$work/axes.txt" |
        paste -d' ' "$work/explained.txt" - | while read -r c _ pct _ amax; do
            put "set cbrange [-$amax:$amax]; set title '$c: $pct %'"
            put "plot '$work/images.dat' index $c matrix with image"
        done
    put "unset multiplot"
} | plot "$out/eigendigits.png" 1000,900

# ---- 2. the test digits in 2-D --------------------------------------------
# slug|kpca fit options|panel title
projections='linear|--kernel linear|linear PCA
poly3|--kernel poly -d 3|kernel PCA, polynomial d = 3
rbf|--kernel rbf|kernel PCA, RBF, default σ'
put "$projections" | while IFS='|' read -r slug opts title; do
    say "== 2-D: $title, fit on the first $subset training digits"
    # shellcheck disable=SC2086
    "$KPCA" fit -q $opts -m "$subset" --sample first -k 2 data/zip.train.gz -o "$work/$slug-2d.model"
    "$KPCA" transform -q "$work/$slug-2d.model" data/zip.train.gz -o "$work/$slug-2d.train.csv"
    "$KPCA" transform -q "$work/$slug-2d.model" data/zip.test.gz -o "$work/$slug-2d.test.csv"
done
# nearest class mean in the plane (means of the training digits' projections):
# how much of the class structure two components hold
nearest_mean() {
    awk -F, 'FNR == 1 { f++; next }
        f == 1 { n[$1]++; sx[$1] += $2; sy[$1] += $3; next }
        { best = -1; for (c in n) { d = ($2 - sx[c] / n[c]) ^ 2 + ($3 - sy[c] / n[c]) ^ 2; if (best < 0 || d < bd) { bd = d; best = c } }
          t++; ok += (best == $1) }
        END { printf "%.1f\n", 100 * ok / t }' "$1" "$2"
}
sigma_usps=$(model_key "$work/rbf-2d.model" sigma)
sigma_usps=$(printf '%.2f' "$sigma_usps")
{
    put "set multiplot layout 1,3 title \"USPS: the 2007 test digits on the first two components (fit on the first $subset training digits)\" font ',13' margins 0.05,0.94,0.1,0.88 spacing 0.05"
    put "set datafile separator ','"
    put "colours = '#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf'"
    put "do for [c = 1:10] { set linetype c lc rgb word(colours, c) }"
    put "set grid; set format xy '%g'; set key off"
    put "set xlabel 'component 1'; set ylabel 'component 2'"
    put "$projections" | while IFS='|' read -r slug opts title; do
        [ "$slug" != rbf ] || title="kernel PCA, RBF, default σ = $sigma_usps"
        [ "$slug" != rbf ] || put "set key at screen 0.995,0.86 title 'digit' box opaque"
        put "set title '$title'"
        put "plot '$work/$slug-2d.test.csv' skip 1 using 2:3:(\$1 + 1) with points pt 7 ps 0.45 lc variable notitle, for [c = 0:9] NaN with points pt 7 ps 1.2 lc c + 1 title sprintf('%d', c)"
    done
    put "unset multiplot"
} | plot "$out/usps-2d.png" 1650,600

# ---- 3. two concentric circles ---------------------------------------------
say "== circles: $npts points per circle, seed $seed; RBF kernel PCA with sigma $sigma"
circ="$work/circles.txt"
# radii 0.3 and 1, evenly spaced angles, Gaussian noise of standard deviation
# 0.05 on each coordinate: Box-Muller on the Park-Miller generator
# (x <- 16807 x mod 2^31 - 1, exact in any awk's doubles), not awk's rand,
# whose numbers for one srand seed differ between mawk and gawk
awk -v n="$npts" -v seed="$seed" 'function uniform() { x = (16807 * x) % 2147483647; return x / 2147483647 }
    function gauss() { return sqrt(-2 * log(uniform())) * cos(2 * pi * uniform()) }
    BEGIN { x = seed % 2147483646 + 1; pi = atan2(0, -1)
        for (c = 0; c < 2; c++) for (i = 0; i < n; i++) {
            r = c ? 1 : 0.3; t = 2 * pi * i / n
            printf "%d %.6f %.6f\n", c, r * cos(t) + 0.05 * gauss(), r * sin(t) + 0.05 * gauss()
        } }' >"$circ"
"$KPCA" fit -q --kernel linear "$circ" -o "$work/circles-linear.model"
"$KPCA" transform -q "$work/circles-linear.model" "$circ" -o "$work/circles-linear.csv"
"$KPCA" fit -q --kernel rbf --sigma "$sigma" -k 2 "$circ" -o "$work/circles-rbf.model"
"$KPCA" transform -q "$work/circles-rbf.model" "$circ" -o "$work/circles-rbf.csv"
lin_acc=$(threshold_acc "$work/circles-linear.csv" 1)
rbf_acc=$(threshold_acc "$work/circles-rbf.csv" 1)
lin_acc2=$(threshold_acc "$work/circles-linear.csv" 2)
rbf_acc2=$(threshold_acc "$work/circles-rbf.csv" 2)
# the same accuracy for other widths, and kpca's default width
sigmas="0.1 0.2 0.3 0.4 0.5 0.7 1 default"
[ $fast = 0 ] || sigmas=""
: >"$work/sigma-scan.txt"
for s in $sigmas; do
    if [ "$s" = default ]; then set --; else set -- --sigma "$s"; fi
    "$KPCA" fit -q --kernel rbf "$@" -k 2 "$circ" -o "$work/scan.model"
    "$KPCA" transform -q "$work/scan.model" "$circ" -o "$work/scan.csv"
    sv=$(model_key "$work/scan.model" sigma)
    a1=$(threshold_acc "$work/scan.csv" 1)
    a2=$(threshold_acc "$work/scan.csv" 2)
    [ -n "$a1" ] && [ -n "$a2" ] || die "no threshold accuracy for sigma $s"
    put "$s $(printf '%.3g' "$sv") ${a1%% *} ${a2%% *}" >>"$work/sigma-scan.txt"
done
{
    put "set multiplot layout 1,3 title \"Two concentric circles (radii 0.3 and 1, $npts points each, noise 0.05): linear PCA cannot separate them, RBF kernel PCA can\" font ',13' margins 0.05,0.98,0.12,0.86 spacing 0.06"
    put "set grid; set format xy '%g'"
    put "set linetype 1 lc rgb '$(palette_colour 2)'; set linetype 2 lc rgb '$(palette_colour 3)'"
    put "set key top right box opaque"
    put "set title 'input space'; set xlabel 'x_1'; set ylabel 'x_2'; set size ratio -1"
    put "plot '$circ' using (\$1 == 0 ? \$2 : 1/0):3 with points pt 7 ps 0.6 lt 1 title 'inner (r = 0.3)', '' using (\$1 == 1 ? \$2 : 1/0):3 with points pt 7 ps 0.6 lt 2 title 'outer (r = 1)'"
    put "set size noratio; unset key; set datafile separator ','"
    put "set xlabel 'component 1'; set ylabel 'component 2'"
    for kind in linear rbf; do
        if [ $kind = linear ]; then a=$lin_acc; t="linear PCA"; else a=$rbf_acc; t="RBF kernel PCA, σ = $sigma"; fi
        put "set title \"$t\\nbest threshold on component 1 (dashed): ${a% *} accuracy\""
        put "set arrow 1 from first ${a#* }, graph 0 to first ${a#* }, graph 1 nohead dt 2 lw 1.5 lc rgb '#444444'"
        put "plot '$work/circles-$kind.csv' skip 1 using (\$1 == 0 ? \$2 : 1/0):3 with points pt 7 ps 0.6 lt 1, '' skip 1 using (\$1 == 1 ? \$2 : 1/0):3 with points pt 7 ps 0.6 lt 2"
    done
    put "unset multiplot"
} | plot "$out/circles.png" 1650,600

# ---- pictures.md --------------------------------------------------------------
version=$("$KPCA" --version | head -1)
commit=$(commit_stamp)
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
machine=$(machine_stamp)
secs=$(($(date +%s) - start))
load1=$(load_stamp)
md="$out/pictures.md"
tmp="$md.tmp.$$"
tmpfiles="$tmpfiles $tmp"
{
    put "# Pictures: eigen-digits, the test digits in 2-D, two circles"
    put
    put "Made by \`scripts/pictures.sh\` (\`make pictures\`) with the kpca command line, awk and gnuplot."
    put
    put "- command: \`$cmdline\`"
    put "- $version (commit $commit), $date"
    put "- machine: $machine, $(load_words "$load0" "$load1")"
    put "- run time: $secs s"
    put
    put "## Eigen-digits: \`eigendigits.png\`"
    put
    put "![the mean digit and the first $nax principal axes of linear PCA](eigendigits.png)"
    put
    put "The mean of the first $subset training digits and the first $nax principal axes"
    put "of linear PCA (\`kpca fit --kernel linear -m $subset --sample first\`), each titled with its"
    put "eigenvalue's share of the trace. The axes were read off \`kpca transform\`:"
    put "v_c[j] = (z_c(b + 2 e_j) − z_c(b)) / 2 with b the all −1 (blank) digit."
    put
    put "- orthonormality: max |v_a·v_b − δ_ab| over the $nax axes = $orth_err (the script stops above 1e-9)"
    put "- projections: max |z_c(x) − v_c·(x − mean)| / (1 + |z_c(x)|) over the first 20 test digits = $proj_err (limit 1e-9)"
    put
    put "| axis | eigenvalue | % of the trace | cumulative % |"
    put "|---|---|---|---|"
    awk '{ printf "| %d | %.6g | %.2f | %.2f |\n", $1, $2, $3, $4 }' "$work/explained.txt"
    put
    put "## The test digits in 2-D: \`usps-2d.png\`"
    put
    put "![the 2007 test digits on two components: linear PCA, polynomial and RBF kernel PCA](usps-2d.png)"
    put
    put "The 2007 test digits on the first two components of linear PCA, of the paper's"
    put "polynomial kernel PCA (d = 3) and of RBF kernel PCA (kpca's default σ, $sigma_usps),"
    put "each fitted on the first $subset training digits. The RBF panel shows the classes"
    put "best: 0 and 1 at two corners, 7 and 9 at the top, 6 below the middle, the rest"
    put "between. Linear PCA draws much the same picture (an RBF kernel this wide is"
    put "close to linear); the cubic kernel pulls the 1s far out and crowds 2, 3, 4,"
    put "5, 6 and 8 into one corner."
    put "Two components hold only part of the class structure; the paper's gains come"
    put "with hundreds of components. How much: each test digit assigned to the"
    put "nearest class mean of the projected 7291 training digits, in the plane:"
    put
    put "| projection | kpca fit options | nearest class mean, test accuracy % |"
    put "|---|---|---|"
    put "$projections" | while IFS='|' read -r slug opts title; do
        acc=$(nearest_mean "$work/$slug-2d.train.csv" "$work/$slug-2d.test.csv")
        [ -n "$acc" ] || die "no nearest-mean accuracy for $slug"
        put "| $title | \`$opts -m $subset --sample first -k 2\` | $acc |"
    done
    put
    put "## Two concentric circles: \`circles.png\`"
    put
    put "![two circles in input space, on linear PCA and on RBF kernel PCA components](circles.png)"
    put
    put "Radii 0.3 and 1, $npts points each at evenly spaced angles, Gaussian noise of"
    put "standard deviation 0.05 on each coordinate (Park-Miller generator, seed $seed, in awk); \`$circ\`"
    put "holds them as ESL text (label 0 inner, 1 outer). Linear PCA only centres and rotates"
    put "the plane, so no threshold on a component separates the circles; on the first RBF"
    put "kernel PCA component (σ = $sigma) one threshold does. Accuracy of the best single"
    put "threshold on a component (0.5 is chance, 1 is perfect separation):"
    put
    put "| projection | component 1 | component 2 |"
    put "|---|---|---|"
    put "| linear PCA | ${lin_acc% *} | ${lin_acc2% *} |"
    put "| RBF kernel PCA, σ = $sigma | ${rbf_acc% *} | ${rbf_acc2% *} |"
    if [ -s "$work/sigma-scan.txt" ]; then
        sep=$(awk '$3 == 1 { printf "%s%s", (n++ ? ", " : ""), $2 }' "$work/sigma-scan.txt")
        put
        put "Why σ = $sigma: the circles are 0.7 apart, and σ must be small enough that"
        put "the two circles look unlike each other (k ≲ exp(−0.7²/(2σ²)) = $(awk -v s="$sigma" 'BEGIN { printf "%.2f", exp(-0.49 / (2 * s * s)) }')"
        put "here) yet large enough that neighbours on one circle look alike. The same"
        put "accuracy for other widths: the first component separates the circles for"
        put "σ = ${sep:-none of them}; kpca's default σ (the square root of the points'"
        put "total variance) is wider:"
        put
        put "| σ | component 1 | component 2 |"
        put "|---|---|---|"
        awk '{ printf "| %s%s | %s | %s |\n", $2, ($1 == "default" ? " (default)" : ""), $3, $4 }' "$work/sigma-scan.txt"
    fi
} >"$tmp"
mv "$tmp" "$md"
say "results: $out/eigendigits.png $out/usps-2d.png $out/circles.png $md (${secs}s)"
