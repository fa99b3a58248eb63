#!/bin/sh
# figures.sh - the paper's toy figures (Schölkopf, Smola & Müller 1998,
# Figures 3-5), made with the kpca command line, tools/toydata, awk and gnuplot:
#
#   fig3-poly.png     a noisy parabola (x uniform in [-1, 1], y = x^2 + xi, xi
#                     normal with sd 0.2); kernel (x.y)^d, d = 1..4 across, the
#                     first three components down, contour lines of constant
#                     component value over [-1, 1] x [-0.5, 1], each panel
#                     titled with its eigenvalue share (eigenvalue / trace of
#                     the centred kernel matrix: the eigenvalues rescaled to
#                     sum to 1) beside the paper's
#   fig4-rbf.png      three Gaussian clusters (sd 0.1), k = exp(-|x-y|^2/0.1)
#                     (kpca's rbf with sigma = sqrt(0.05)), first 8 components
#   fig5-sigmoid.png  the same data, k = tanh(2 x.y + 1), first 3 components
#   paper-figures.md  the shares over --seeds data sets beside the paper's,
#                     the check of what the paper says of Figures 4 and 5,
#                     with provenance; paper-figures.csv the 12 shares
#
# Component values on the plotting grid come from `kpca transform` of the
# grid points; the contour lines are gnuplot's (work/*-contours-*.dat).  The
# script stops when kpca fails, when a model's eigenvalues do not add up to
# its trace (relative 1e-9), or when a transform has the wrong shape.
#
# usage: scripts/figures.sh [options]
#   --fast           a tiny configuration for the tests (40 points, 3 seeds,
#                    21 x 16 grid, 10 points per cluster, no scan; a few
#                    seconds); output by default in build/figures/fast
#   --points N       Figure 3's points (default: 1000; docs/reproducing.md says why)
#   --seeds S        data sets for the shares' mean and sd (default: 20)
#   --seed S         the data set drawn in the figures (default: 1)
#   --cluster-size N points per cluster of Figures 4-5 (default: 30)
#   --grid G         grid points across x (default: 81, a step of 0.025)
#   --scan "N..."    other numbers of points whose shares are reported
#                    (default: "20 50 100 300"; "" for none)
#   --out DIR        where the PNGs, .md and .csv go (default: results)
#   --work DIR       data, models and intermediate files (default: build/figures)
set -eu
cd "$(dirname "$0")/.."
. scripts/lib.sh
KPCA=${KPCA:-build/kpca}
TOYDATA=${TOYDATA:-build/tools/toydata}

points=1000
seeds=20
seed=1
csize=30
grid=81
scan="20 50 100 300"
out=""
work=""
fast=0
cmdline="scripts/figures.sh $*"
while [ $# -gt 0 ]; do
    case "$1" in
    --fast) fast=1; points=40; seeds=3; grid=21; csize=10; scan="" ;;
    --points) points=$(optval "$@"); shift ;;
    --seeds) seeds=$(optval "$@"); shift ;;
    --seed) seed=$(optval "$@"); shift ;;
    --cluster-size) csize=$(optval "$@"); shift ;;
    --grid) grid=$(optval "$@"); shift ;;
    --scan) scan=$(optval "$@"); shift ;;
    --out) out=$(optval "$@"); shift ;;
    --work) work=$(optval "$@"); shift ;;
    -h|--help) usage; exit 0 ;;
    *) bad_option "$1" ;;
    esac
    shift
done
for v in "$points" "$seeds" "$seed" "$csize" "$grid" $scan; do
    case "$v" in ''|*[!0-9]*) put "figures.sh: '$v' is not a whole number" >&2; exit 2 ;; esac
done
[ "$seeds" -ge 2 ] || { put "figures.sh: --seeds must be at least 2 (a standard deviation)" >&2; exit 2; }
[ "$grid" -ge 5 ] || { put "figures.sh: --grid must be at least 5" >&2; exit 2; }
[ -n "$work" ] || { work=build/figures; [ $fast = 0 ] || work=build/figures/fast; }
[ -n "$out" ] || { out=results; [ $fast = 0 ] || out=$work; }
[ -x "$KPCA" ] || { put "figures.sh: $KPCA not built: run make" >&2; exit 2; }
[ -x "$TOYDATA" ] || { put "figures.sh: $TOYDATA not built: run make $TOYDATA" >&2; exit 2; }
command -v gnuplot >/dev/null 2>&1 || { put "figures.sh: gnuplot missing: run make deps" >&2; exit 2; }
mkdir -p "$work" "$out"
export LC_ALL=C
cleanup_hook() { rm -f "$out"/*.tmp.$$.png; }
lib_traps
start=$(date +%s)
load0=$(load_stamp)

# the paper's Figure 3 shares: "d c share" (component c, degree d)
paper3='1 1 0.709
1 2 0.291
1 3 0.000
2 1 0.621
2 2 0.345
2 3 0.034
3 1 0.570
3 2 0.395
3 3 0.026
4 1 0.552
4 2 0.418
4 3 0.021'

# plot OUTPUT.png SIZE: gnuplot reads its script from stdin and draws into a
# temporary file that replaces OUTPUT only when complete
plot() {
    tmp="$1.tmp.$$.png"
    if { printf "set terminal pngcairo size %s font ',10'\nset output '%s'\n" "$2" "$tmp"; cat; } | gnuplot &&
        [ -s "$tmp" ]; then
        mv "$tmp" "$1"
    else
        rm -f "$tmp"
        die "gnuplot could not draw $1"
    fi
}

# shares MODEL K [nocheck]: the first K eigenvalues / trace, one a line (0
# for components the model does not have); stops unless the model's
# eigenvalues add up to its trace within 1e-9 (relative), which holds when
# the fit kept every component of a positive semi-definite kernel (not for
# the sigmoid kernel, whose negative eigenvalues kpca drops: "nocheck")
shares() {
    _info=$("$KPCA" info -e "$1") || die "kpca info failed on $1"
    printf '%s\n' "$_info" | awk -v k="$2" -v m="$1" -v check="${3:-check}" '
        $1 == "trace" { t = $2 } $1 == "eigenvalue" { e[$2] = $3; s += $3 }
        END {
            if (!(t > 0)) { printf "figures.sh: %s: no positive trace in kpca info\n", m > "/dev/stderr"; exit 1 }
            r = (s - t) / t; if (r < 0) r = -r
            if (check == "check" && r > 1e-9) { printf "figures.sh: %s: the eigenvalues add up to %.17g, the trace is %.17g\n", m, s, t > "/dev/stderr"; exit 1 }
            for (c = 1; c <= k; c++) printf "%.17g\n", (c in e) ? e[c] / t : 0
        }' || exit 1
}

# gridfile TRANSFORM.csv NCOMP OUT: the grid points with their component
# values ("x y z1 .. zK"), a blank line after every column of the grid
# (gnuplot's grid format); stops when the transform has the wrong shape
gridfile() {
    awk -F'[ ,]' -v ny="$gridy" -v k="$2" -v g="$work/grid.txt" '
        NR == 1 { if (NF != k + 1) { printf "figures.sh: %s: %d columns, expected %d\n", FILENAME, NF, k + 1 > "/dev/stderr"; bad = 1; exit 1 } next }
        {
            if ((getline line < g) <= 0) { bad = 1; exit 1 }
            split(line, p, " "); printf "%s %s", p[2], p[3]
            for (c = 2; c <= k + 1; c++) printf " %s", $c
            printf "\n"; if (++n % ny == 0) printf "\n"
        }
        END { if (!bad && (getline line < g) > 0) { printf "figures.sh: %s has fewer rows than the grid\n", FILENAME > "/dev/stderr"; exit 1 } }' \
        "$1" >"$3" || die "cannot read the grid values from $1"
}

# deciles GRID C: the 5th, 15th, ..., 95th percentiles of component C's
# values on the grid, comma-separated (contour levels that show the
# component everywhere, not only where the polynomials grow large)
deciles() {
    awk -v c="$2" 'NF { print $(c + 2) }' "$1" | sort -g | awk '{ v[NR] = $1 }
        END { for (q = 5; q < 100; q += 10) { i = int(q / 100 * NR) + 1; if (i > NR) i = NR
              printf "%s%.17g", (q > 5 ? "," : ""), v[i] } }'
}

# contours GRID NCOMP PREFIX: gnuplot's contour lines of every component
# into PREFIX-c<c>.dat (at the deciles of its values on the grid)
contours() {
    {
        put "set contour base; unset surface"
        c=1
        while [ "$c" -le "$2" ]; do
            put "set cntrparam levels discrete $(deciles "$1" "$c")"
            put "set table '$3-c$c.dat'"
            put "splot '$1' using 1:2:$((c + 2)) with lines notitle"
            put "unset table"
            c=$((c + 1))
        done
    } | gnuplot || die "gnuplot could not trace the contours of $1"
    c=1
    while [ "$c" -le "$2" ]; do
        [ -s "$3-c$c.dat" ] || die "no contour lines in $3-c$c.dat"
        c=$((c + 1))
    done
}

# panel GRID C CONTOURS DATA TITLE: one contour panel of component C (the
# component's values shaded, blue < 0 < red, symmetric around 0, saturated
# beyond the 90th percentile of |value| on the grid)
panel() {
    amax=$(awk -v c="$2" 'NF { a = $(c + 2); print (a < 0 ? -a : a) }' "$1" | sort -g |
        awk '{ v[NR] = $1 } END { m = v[int(0.9 * NR) + 1]; printf "%.6g", (m > 0 ? m : 1) }')
    put "set title \"$5\""
    put "set cbrange [-$amax:$amax]"
    put "plot '$1' using 1:2:$(($2 + 2)) with image notitle, '$3' using 1:2 with lines lc rgb '#222222' lw 0.8 notitle, '$4' using 2:3 with points pt 7 ps 0.25 lc rgb '#000000' notitle"
}

panel_style() {
    put "set xrange [-1:1]; set yrange [-0.5:1]; set size ratio -1"
    put "set palette defined (-1 '#6baed6', 0 '#ffffff', 1 '#fb6a4a'); unset colorbox"
    put "set tics scale 0.5 font ',8'; set xtics 0.5; set ytics 0.5"
}

gridy=$(( (grid - 1) * 3 / 4 + 1 ))
"$TOYDATA" grid "$grid" "$gridy" -1 1 -0.5 1 >"$work/grid.txt" || die "toydata failed"

# ---- Figure 3: polynomial kernels on a noisy parabola ---------------------------
# share_runs N FILE: "seed d share1 share2 share3" for seeds 1..$seeds, N points
share_runs() {
    : >"$2.part"
    tmpfiles="$tmpfiles $2.part"
    s=1
    while [ "$s" -le "$seeds" ]; do
        "$TOYDATA" parabola "$1" "$s" >"$work/parabola.txt" || die "toydata failed"
        for d in 1 2 3 4; do
            "$KPCA" fit -q --kernel poly -d "$d" --label first "$work/parabola.txt" -o "$work/parabola.model" || die "kpca fit failed (d = $d, seed $s)"
            sh3=$(shares "$work/parabola.model" 3) || exit 1
            put "$s $d $(put "$sh3" | tr '\n' ' ')" >>"$2.part"
        done
        s=$((s + 1))
    done
    mv "$2.part" "$2"
}
# summarise RUNS: "d c mean sd" for the 12 shares
summarise() {
    awk '{ for (c = 1; c <= 3; c++) { s[$2, c] += $(c + 2); q[$2, c] += $(c + 2) ^ 2 }; n[$2]++ }
        END { for (d = 1; d <= 4; d++) for (c = 1; c <= 3; c++) {
                m = s[d, c] / n[d]; v = (q[d, c] - n[d] * m * m) / (n[d] - 1); if (v < 0) v = 0
                printf "%d %d %.17g %.17g\n", d, c, m, sqrt(v) } }' "$1"
}

say "== Figure 3: $points points, seeds 1..$seeds, kernel (x.y)^d, d = 1..4"
share_runs "$points" "$work/fig3-shares.txt"
summarise "$work/fig3-shares.txt" >"$work/fig3-summary.txt"
for n in $scan; do
    [ "$n" != "$points" ] || continue
    say "== Figure 3 scan: $n points, seeds 1..$seeds"
    share_runs "$n" "$work/fig3-shares-n$n.txt"
done

# the drawn data set: seed $seed, every degree projected onto the grid
"$TOYDATA" parabola "$points" "$seed" >"$work/fig3-data.txt" || die "toydata failed"
for d in 1 2 3 4; do
    m="$work/fig3-d$d.model"
    "$KPCA" fit -q --kernel poly -d "$d" --label first "$work/fig3-data.txt" -o "$m" || die "kpca fit failed (d = $d)"
    shares "$m" 3 >"$work/fig3-d$d.shares" || exit 1
    kd=$(( d == 1 ? 2 : 3 ))
    "$KPCA" transform -q -k "$kd" --label first "$m" "$work/grid.txt" -o "$work/fig3-d$d.grid.csv" 2>"$work/fig3-d$d.grid.err" ||
        { cat "$work/fig3-d$d.grid.err" >&2; die "kpca transform failed (d = $d)"; }
    gridfile "$work/fig3-d$d.grid.csv" "$kd" "$work/fig3-d$d.grid"
    contours "$work/fig3-d$d.grid" "$kd" "$work/fig3-d$d-contours"
done
{
    put "set multiplot layout 3,4 title \"Figure 3: kernel PCA with (x·y)^d on a noisy parabola ($points points, seed $seed); contour lines of constant component value; title: eigenvalue share (paper)\" font ',12' margins 0.04,0.99,0.04,0.9 spacing 0.03,0.07"
    panel_style
    for c in 1 2 3; do
        for d in 1 2 3 4; do
            sh=$(sed -n "${c}p" "$work/fig3-d$d.shares")
            p=$(put "$paper3" | awk -v d="$d" -v c="$c" '$1 == d && $2 == c { print $3 }')
            t=$(printf 'd = %d, component %d: %.3f (%s)' "$d" "$c" "$sh" "$p")
            if [ "$d" = 1 ] && [ "$c" = 3 ]; then
                put "set title \"$t\\nlinear PCA of 2-D data: no third component\""
                put "plot '$work/fig3-data.txt' using 2:3 with points pt 7 ps 0.25 lc rgb '#000000' notitle"
            else
                panel "$work/fig3-d$d.grid" "$c" "$work/fig3-d$d-contours-c$c.dat" "$work/fig3-data.txt" "$t"
            fi
        done
    done
    put "unset multiplot"
} | plot "$out/fig3-poly.png" 1500,1000

# ---- Figures 4 and 5: three clusters, rbf and sigmoid ---------------------------
say "== Figures 4 and 5: 3 clusters of $csize points, seed $seed"
"$TOYDATA" clusters "$csize" "$seed" >"$work/clusters.txt" || die "toydata failed"
rbf_sigma=$(awk 'BEGIN { printf "%.17g", sqrt(0.05) }')
# slug|components|kpca fit options
# (every component is kept, so that the shares can be checked against the
# trace; the sigmoid kernel is not positive semi-definite: no check)
kernels="fig4|8|check|--kernel rbf --sigma $rbf_sigma
fig5|3|nocheck|--kernel sigmoid --gamma 2 --coef0 1"
put "$kernels" | while IFS='|' read -r slug k check opts; do
    # shellcheck disable=SC2086
    "$KPCA" fit -q $opts --label first "$work/clusters.txt" -o "$work/$slug.model" || die "kpca fit failed ($slug)"
    shares "$work/$slug.model" "$k" "$check" >"$work/$slug.shares" || exit 1
    # (the grid reaches beyond the data: kpca warns about the range, which
    # is what a contour plot wants; the warning is kept in the work directory)
    "$KPCA" transform -q -k "$k" --label first "$work/$slug.model" "$work/grid.txt" -o "$work/$slug.grid.csv" 2>"$work/$slug.grid.err" ||
        { cat "$work/$slug.grid.err" >&2; die "kpca transform failed ($slug)"; }
    "$KPCA" transform -q -k "$k" --label first "$work/$slug.model" "$work/clusters.txt" -o "$work/$slug.data.csv" || die "kpca transform failed ($slug)"
    gridfile "$work/$slug.grid.csv" "$k" "$work/$slug.grid"
    contours "$work/$slug.grid" "$k" "$work/$slug-contours"
done
{
    put "set multiplot layout 2,4 title \"Figure 4: kernel PCA with exp(-|x-y|^2/0.1) on three clusters (sd 0.1, $csize points each); the first 8 components; title: eigenvalue share\" font ',12' margins 0.04,0.99,0.05,0.88 spacing 0.03,0.1"
    panel_style
    c=1
    while [ $c -le 8 ]; do
        panel "$work/fig4.grid" $c "$work/fig4-contours-c$c.dat" "$work/clusters.txt" "$(printf 'component %d: %.3f' $c "$(sed -n "${c}p" "$work/fig4.shares")")"
        c=$((c + 1))
    done
    put "unset multiplot"
} | plot "$out/fig4-rbf.png" 1500,720
{
    put "set multiplot layout 1,3 title \"Figure 5: kernel PCA with tanh(2 x·y + 1) on the same clusters; the first 3 components; title: eigenvalue share\" font ',12' margins 0.04,0.99,0.08,0.84 spacing 0.03"
    panel_style
    for c in 1 2 3; do
        panel "$work/fig5.grid" $c "$work/fig5-contours-c$c.dat" "$work/clusters.txt" "$(printf 'component %d: %.3f' $c "$(sed -n "${c}p" "$work/fig5.shares")")"
    done
    put "unset multiplot"
} | plot "$out/fig5-sigmoid.png" 1200,420

# ---- the paper's statements on Figures 4 and 5, in numbers ----------------------
# components DATA.csv K: one line per component c:
#   c R2 dominant_cluster its_share_of_within_SS above_fraction gradient_angle
# R2: between-cluster share of the component's variance over the data points;
# the dominant cluster carries the largest within-cluster sum of squares;
# above_fraction: its points above the component's mean over the other two
# clusters (the level the component keeps away from the cluster); angle: the
# direction (degrees, 0..180) of the least-squares gradient of the component
# over the dominant cluster's points
components() {
    awk -F'[ ,]' -v k="$2" '
        FNR == 1 { f++ }
        f == 1 { lab[FNR] = $1; x[FNR] = $2; y[FNR] = $3; n = FNR; next }
        FNR > 1 { i = FNR - 1; if ($1 != lab[i]) { print "label mismatch" > "/dev/stderr"; exit 1 }
                  for (c = 1; c <= k; c++) z[i, c] = $(c + 1) }
        END {
            pi = atan2(0, -1)
            for (c = 1; c <= k; c++) {
                delete s; delete cnt; tot = 0; mean = 0
                for (i = 1; i <= n; i++) { s[lab[i]] += z[i, c]; cnt[lab[i]]++; mean += z[i, c] / n }
                within = 0; delete w
                for (i = 1; i <= n; i++) { d = z[i, c] - s[lab[i]] / cnt[lab[i]]; w[lab[i]] += d * d; within += d * d
                                           tot += (z[i, c] - mean) ^ 2 }
                dom = 0; for (g = 1; g <= 2; g++) if (w[g] > w[dom]) dom = g
                # level of the other clusters, fraction of dom above it
                lvl = 0; no = 0; for (i = 1; i <= n; i++) if (lab[i] != dom) { lvl += z[i, c]; no++ }
                lvl /= no; above = 0
                # least squares z = a + b1 x + b2 y over the dominant cluster
                sx = sy = sz = sxx = syy = sxy = sxz = syz = 0; m = 0
                for (i = 1; i <= n; i++) if (lab[i] == dom) {
                    m++; above += (z[i, c] > lvl)
                    sx += x[i]; sy += y[i]; sz += z[i, c]
                }
                for (i = 1; i <= n; i++) if (lab[i] == dom) {
                    u = x[i] - sx / m; v = y[i] - sy / m; t = z[i, c] - sz / m
                    sxx += u * u; syy += v * v; sxy += u * v; sxz += u * t; syz += v * t
                }
                det = sxx * syy - sxy * sxy
                b1 = (syy * sxz - sxy * syz) / det; b2 = (sxx * syz - sxy * sxz) / det
                ang = atan2(b2, b1) * 180 / pi; if (ang < 0) ang += 180; if (ang >= 180) ang -= 180
                printf "%d %.4f %d %.4f %.4f %.1f\n", c, (tot > 0 ? 1 - within / tot : 0), dom, (within > 0 ? w[dom] / within : 0), above / m, ang
            }
        }' "$work/clusters.txt" "$1"
}
# nearest_centre DATA.csv: the fraction of points whose nearest cluster mean
# in the plane of components 1 and 2 is their own cluster's
nearest_centre() {
    awk -F, 'NR == FNR { if (FNR > 1) { n[$1]++; sx[$1] += $2; sy[$1] += $3 } next }
        FNR > 1 { best = -1; for (g in n) { d = ($2 - sx[g] / n[g]) ^ 2 + ($3 - sy[g] / n[g]) ^ 2
                  if (best < 0 || d < bd) { bd = d; best = g } } t++; ok += (best == $1) }
        END { printf "%.4f\n", ok / t }' "$1" "$1"
}
components "$work/fig4.data.csv" 8 >"$work/fig4.components" || die "cannot analyse Figure 4's components"
components "$work/fig5.data.csv" 3 >"$work/fig5.components" || die "cannot analyse Figure 5's components"
nc4=$(nearest_centre "$work/fig4.data.csv")
nc5=$(nearest_centre "$work/fig5.data.csv")
# Figure 4's regions: each of components 3-5 and 6-8 is paired with its
# dominant cluster; a point's region is (its cluster, the side of its
# cluster's 3-5 component, the side of its cluster's 6-8 component), sides
# taken against the level of the other clusters as above.  Prints
# "regions smallest_region_points pairing_ok angle_list"
regions4=$(awk -F'[ ,]' '
    FILENAME ~ /components$/ { dom[$1] = $3; ang[$1] = $6; next }
    FNR == 1 { next }
    { n++; lab[n] = $1; for (c = 1; c <= 8; c++) z[n, c] = $(c + 1) }
    END {
        ok = 1
        for (g = 0; g <= 2; g++) { h[g] = q[g] = 0 }
        for (c = 3; c <= 5; c++) { if (h[dom[c]]) ok = 0; h[dom[c]] = c }
        for (c = 6; c <= 8; c++) { if (q[dom[c]]) ok = 0; q[dom[c]] = c }
        for (g = 0; g <= 2; g++) if (!h[g] || !q[g]) ok = 0
        if (!ok) { printf "0 0 0 -\n"; exit }
        for (c = 3; c <= 8; c++) { lv[c] = 0; no = 0
            for (i = 1; i <= n; i++) if (lab[i] != dom[c]) { lv[c] += z[i, c]; no++ } lv[c] /= no }
        for (i = 1; i <= n; i++) { g = lab[i]; r[g, (z[i, h[g]] > lv[h[g]]), (z[i, q[g]] > lv[q[g]])]++ }
        nr = 0; mn = -1
        for (g = 0; g <= 2; g++) for (a = 0; a <= 1; a++) for (b = 0; b <= 1; b++) {
            v = r[g, a, b] + 0; if (v > 0) nr++; if (mn < 0 || v < mn) mn = v }
        sep = ""; list = ""
        for (g = 0; g <= 2; g++) { d = ang[h[g]] - ang[q[g]]; if (d < 0) d = -d; if (d > 90) d = 180 - d
            list = list sep sprintf("%.0f", d); sep = "," }
        printf "%d %d 1 %s\n", nr, mn, list
    }' "$work/fig4.components" "$work/fig4.data.csv")
# shellcheck disable=SC2086 # four words, split on purpose
set -- $regions4
nregions=$1; minregion=$2; pairing=$3; orth=$4

# ---- paper-figures.md and .csv ---------------------------------------------------
version=$("$KPCA" --version | head -1)
blas=$("$KPCA" --version | sed -n 2p)
commit=$(git describe --always 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- . ':(exclude)results' 2>/dev/null || { [ $? -ne 1 ] || echo -dirty; })
cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || put unknown)
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
machine="$(uname -sm), $(nproc) cores, $cpu"
secs=$(($(date +%s) - start))
load1=$(load_stamp)

csv="$out/paper-figures.csv"
tmpc="$csv.tmp.$$"
tmpfiles="$tmpfiles $tmpc"
{
    put "component,degree,paper,mean,sd,seeds,points,seed_${seed}_share"
    put "$paper3" | while read -r d c p; do
        ms=$(awk -v d="$d" -v c="$c" '$1 == d && $2 == c { printf "%.6f,%.6f", $3, $4 }' "$work/fig3-summary.txt")
        put "$c,$d,$p,$ms,$seeds,$points,$(sed -n "${c}p" "$work/fig3-d$d.shares" | awk '{ printf "%.6f", $1 }')"
    done
} >"$tmpc"

md="$out/paper-figures.md"
tmp="$md.tmp.$$"
tmpfiles="$tmpfiles $tmp"
yesno() { awk "BEGIN { exit !($1) }" && put yes || put no; }
{
    put "# The paper's toy figures 3, 4 and 5"
    put
    put "Made by \`scripts/figures.sh\` (\`make figures\`) with the kpca command line, \`tools/toydata\` (the seeded"
    put "data: splitmix64 and Box-Muller), awk and gnuplot. Component values on the plotting grid"
    put "($grid × $gridy points over [−1, 1] × [−0.5, 1]) are \`kpca transform\` of the grid points."
    put
    put "- command: \`$cmdline\`"
    put "- $version (commit $commit), $date"
    put "- $blas"
    put "- machine: $machine, $(load_words "$load0" "$load1")"
    put "- run time: $secs s"
    put
    put "## Figure 3: polynomial kernels on a noisy parabola"
    put
    put "![Figure 3: contour lines of the first three components of (x·y)^d, d = 1..4](fig3-poly.png)"
    put
    put "x uniform in [−1, 1], y = x² + ξ, ξ normal with standard deviation 0.2; $points points;"
    put "\`kpca fit --kernel poly -d D\` (the paper's (x·y)^d: no offset, no scale). Share: eigenvalue /"
    put "trace of the centred kernel matrix (the eigenvalues rescaled to sum to 1; the script checks"
    put "that each model's eigenvalues add up to its trace within 1e-9). Mean and standard deviation"
    put "over the data sets of seeds 1..$seeds; the figure shows seed $seed (last column)."
    put
    put "| component | d | paper | mean | sd | paper − mean (sd) | seed $seed |"
    put "|---|---|---|---|---|---|---|"
    tail -n +2 "$tmpc" | awk -F, '{ z = ($5 > 0) ? sprintf("%+.1f", ($3 - $4) / $5) : "–"
        printf "| %d | %d | %.3f | %.3f | %.3f | %+.3f (%s) | %.3f |\n", $1, $2, $3, $4, $5, $3 - $4, z, $8 }'
    put
    put "Mean absolute difference from the paper over the 12 shares: $(tail -n +2 "$tmpc" | awk -F, '{ d = $3 - $4; s += d < 0 ? -d : d } END { printf "%.4f", s / NR }')."
    if [ -n "$scan" ]; then
        put
        put "**The number of points** (not stated in the paper). The shares' means depend on it: a"
        put "small sample over-weights the first component at high degree. Mean ± sd over seeds"
        put "1..$seeds for other numbers of points, and the mean absolute difference from the paper:"
        put
        put "| points | d=1 c1 | d=2 c1 | d=2 c2 | d=2 c3 | d=3 c1 | d=3 c2 | d=3 c3 | d=4 c1 | d=4 c2 | d=4 c3 | mean abs. diff. |"
        put "|---|---|---|---|---|---|---|---|---|---|---|---|"
        for n in $scan $points; do
            f="$work/fig3-shares-n$n.txt"; [ "$n" != "$points" ] || f="$work/fig3-shares.txt"
            [ -f "$f" ] || continue
            summarise "$f" | awk -v n="$n" -v p="$(put "$paper3" | awk '{ printf "%s ", $3 }')" '
                BEGIN { split(p, pv, " ") }
                { m[NR] = $3; s[NR] = $4; d = $3 - pv[NR]; mad += (d < 0 ? -d : d) / 12 }
                END { printf "| %d", n; for (i = 1; i <= 12; i++) if (i != 2 && i != 3) printf " | %.3f ± %.3f", m[i], s[i]
                      printf " | %.4f |\n", mad }'
        done
        put
        put "(d = 1: component 2 is 1 − component 1 and component 3 is 0, so they are left out.)"
        put
        [ "$points" != 1000 ] || {
        put "Why 1000 points (the default): the paper's shares sit at the large-sample end of"
        put "this drift (at d = 3 and 4 only samples of several hundred points or more reach its"
        put "0.570 and 0.552), so its figure was drawn from many points; at 1000 the spread over"
        put "seeds (at most 0.018) is small enough to compare degrees, and a run takes minutes."
        put "The linear shares bound the number from above: the population value of d = 1's first"
        put "share is (1/3) / (1/3 + 4/45 + 0.04) = 0.721 (var x = 1/3, var y = var x² + 0.2²),"
        put "and the paper's 0.709 is 1–2 standard deviations of a 1000-point sample away from it."
        put "This choice was made after seeing the paper's values, so the agreement at 1000 points"
        put "is not independent evidence; what the table does test is the trend across degrees"
        put "(the first share falls and the second rises with d) and the third share's size."
        }
    fi
    put
    put "## Figure 4: Gaussian kernel on three clusters"
    put
    put "![Figure 4: the first eight components of RBF kernel PCA on three clusters](fig4-rbf.png)"
    put
    put "Three clusters of $csize points (normal, standard deviation 0.1 on each coordinate) at"
    put "(−0.5, −0.2), (0, 0.6) and (0.5, 0): the centres of the authors' own toy program"
    put "(\`kpca_toy.m\`, kernel-machines.org, as kept in probml/pmtk3 \`demos/kpcaScholkopf.m\`;"
    put "the paper does not state them); seed $seed. k(x, y) = exp(−‖x − y‖²/0.1), i.e."
    put "\`kpca fit --kernel rbf --sigma $rbf_sigma\` (2σ² = 0.1), 8 components."
    put
    put "The numbers behind the paper's statements, per component over the $((3 * csize)) points:"
    put "R² = the between-cluster share of its variance (1: constant on each cluster, it only tells"
    put "the clusters apart; 0: it varies only inside clusters); the cluster carrying most of its"
    put "within-cluster variation, and that share; the fraction of that cluster's points above the"
    put "component's level on the other two clusters (about 0.5: it cuts that cluster in halves);"
    put "the direction of its least-squares gradient over that cluster (degrees)."
    put
    put "| component | share | R² | cluster | its share of within-cluster variation | fraction above | gradient direction |"
    put "|---|---|---|---|---|---|---|"
    paste -d' ' "$work/fig4.components" "$work/fig4.shares" | awk '{ printf "| %d | %.3f | %.3f | %d | %.2f | %.2f | %.0f° |\n", $1, $7, $2, $3, $4, $5, $6 }'
    put
    r2_12=$(awk '$1 <= 2 { if (m == "" || $2 < m) m = $2 } END { printf "%.3f", m }' "$work/fig4.components")
    r2_38=$(awk '$1 >= 3 { if ($2 > m) m = $2 } END { printf "%.3f", m }' "$work/fig4.components")
    half=$(awk '$1 >= 3 { a = $5 < 0.5 ? $5 : 1 - $5; if (m == "" || a < m) m = a } END { printf "%.2f", m }' "$work/fig4.components")
    conc=$(awk '$1 >= 3 { if (m == "" || $4 < m) m = $4 } END { printf "%.2f", m }' "$work/fig4.components")
    put "| the paper says | measured | holds |"
    put "|---|---|---|"
    put "| components 1–2 separate the three clusters | R² of components 1 and 2 ≥ $r2_12; nearest cluster mean in the plane of components 1–2 right for $nc4 of the points | $(yesno "$nc4 == 1") |"
    put "| components 3–5 split each cluster in halves | R² of components 3–8 ≤ $r2_38; each of 3–5 lives on one cluster (≥ $conc of its within-cluster variation), one cluster each: $( [ "$pairing" = 1 ] && put yes || put no ); smallest side ≥ $half of its cluster | $(yesno "$pairing == 1 && $r2_38 <= 0.2 && $conc >= 0.8 && $half >= 0.25") |"
    put "| components 6–8 split them again, orthogonally | angle between a cluster's 3–5 and 6–8 gradients: $orth degrees (clusters 0, 1, 2) | $( [ "$pairing" = 1 ] && put "$orth" | awk -F, '{ for (i = 1; i <= NF; i++) if ($i < 60) exit 1 }' && put yes || put no) |"
    put "| the first eight cut the data into 12 regions | $nregions non-empty regions (cluster × side of its 3–5 component × side of its 6–8 component), the smallest with $minregion points | $(yesno "$nregions == 12") |"
    put
    put "## Figure 5: sigmoid kernel on the same clusters"
    put
    put "![Figure 5: the first three components of sigmoid kernel PCA on the same clusters](fig5-sigmoid.png)"
    put
    put "The same data; k(x, y) = tanh(2 x·y + 1): \`kpca fit --kernel sigmoid --gamma 2 --coef0 1 -k 3\`."
    put "Columns as for Figure 4. The sigmoid kernel is not positive semi-definite: the centred"
    put "kernel matrix has negative eigenvalues (kpca keeps only the positive ones), so the shares"
    put "of the trace of the positive ones add up to more than 1."
    put
    put "| component | share | R² | cluster | its share of within-cluster variation | fraction above | gradient direction |"
    put "|---|---|---|---|---|---|---|"
    paste -d' ' "$work/fig5.components" "$work/fig5.shares" | awk '{ printf "| %d | %.3f | %.3f | %d | %.2f | %.2f | %.0f° |\n", $1, $7, $2, $3, $4, $5, $6 }'
    put
    above3=$(awk -F, 'FNR > 1 { n[$1]++; a[$1] += ($4 > 0) } END { for (g = 0; g <= 2; g++) printf "%s%.2f", (g ? ", " : ""), a[g] / n[g] }' "$work/fig5.data.csv")
    r2_5_12=$(awk '$1 <= 2 { if (m == "" || $2 < m) m = $2 } END { printf "%.3f", m }' "$work/fig5.components")
    r2_5_3=$(awk '$1 == 3 { printf "%.3f", $2 }' "$work/fig5.components")
    put "| the paper says | measured | holds |"
    put "|---|---|---|"
    put "| components 1–2 separate the clusters | R² of components 1 and 2 ≥ $r2_5_12; nearest cluster mean in the plane of components 1–2 right for $nc5 of the points | $(yesno "$nc5 == 1") |"
    put "| component 3 splits them in halves | R² of component 3 = $r2_5_3; fraction of each cluster above 0: $above3 | $(put "$above3" | awk -F', ' -v r="$r2_5_3" '{ ok = r <= 0.2; for (i = 1; i <= NF; i++) if ($i < 0.25 || $i > 0.75) ok = 0; print ok ? "yes" : "no" }') |"
    put
    put "The verdicts use rules fixed before the full run: to separate, every point is nearest"
    put "its own cluster's mean in the plane of components 1–2; to split inside clusters, R² ≤ 0.2,"
    put "at least 0.8 of the within-cluster variation on one cluster (components 3–8 of Figure 4),"
    put "each side at least a quarter of the cluster; orthogonal, gradients at least 60° apart. The"
    put "numbers are there to judge them."
} >"$tmp"
mv "$tmpc" "$csv"
mv "$tmp" "$md"
say "results: $out/fig3-poly.png $out/fig4-rbf.png $out/fig5-sigmoid.png $md $csv (${secs}s)"
