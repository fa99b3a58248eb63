#!/bin/sh
# iris.sh - Fisher's Iris with kpca alone: linear PCA and kernel PCA of the
# 150 flowers, their spectra (a scree plot), the first two scores of each
# flower and k-means with 2 and with 3 clusters on those two scores, to
# test the course notes' two claims (linear PCA and 2-means: two flowers
# wrongly clustered with I. setosa; the Gaussian kernel with sigma^2 = m:
# setosa against the rest without an error) and a scan over sigma^2.
#
# The data come from Debian's python3-sklearn, which ships Iris offline:
# sklearn.datasets.load_iris() reads its iris.csv (whose first row,
# "150,4,setosa,versicolor,virginica", gives the shape and the class names,
# not column names) and the script writes it as a plain CSV with a header,
# sepal_length,sepal_width,petal_length,petal_width,species (cm; species
# setosa, versicolor, virginica).  Then one protocol for every run: linear,
# poly d = 2, rbf with the default sigma, rbf with the notes' sigma^2 = m
# and rbf with sigma^2 = m * 2^j, j = -10..6 (the scan): `kpca fit --label
# species` on all 150 flowers keeping every component, `kpca spectrum
# --csv`, `kpca transform -k 2` and `kpca cluster -k C --components 2` for
# C = 2 and 3 (inertia, contingency table, adjusted Rand index).
# Writes iris.md (verdicts, tables, pictures, provenance), iris.csv (per
# run, C and cluster: the contingency counts, inertia and ARI),
# iris-summary.csv (per run: the 2-cluster setosa-vs-rest errors and which
# species end up with setosa, the 3-cluster ARI), iris-spectrum.csv (run,
# component, eigenvalue, explained, cumulative), iris-scree.png and
# iris-scores.png (gnuplot; the scores coloured by species and by cluster).
# Seconds.
#
# usage: scripts/iris.sh [--data FILE] [--out DIR] [--work DIR]
#   --data FILE  where the Iris CSV is written (default: data/iris.csv)
#   --out DIR    where results go (default: results)
#   --work DIR   models, features and clusters (default: build/iris)
# PYTHON (default /usr/bin/python3, Debian's) is the python with sklearn.
set -eu
cd "$(dirname "$0")/.."
KPCA=${KPCA:-build/kpca}
PYTHON=${PYTHON:-/usr/bin/python3}
. scripts/lib.sh
data=data/iris.csv
out=results
work=build/iris
cmdline="scripts/iris.sh${*:+ $*}"
while [ $# -gt 0 ]; do
    case "$1" in
    --data) data=$(optval "$@"); shift ;;
    --out) out=$(optval "$@"); shift ;;
    --work) work=$(optval "$@"); shift ;;
    -h|--help) usage; exit 0 ;;
    *) bad_option "$1" ;;
    esac
    shift
done
[ -x "$KPCA" ] || { put "iris.sh: $KPCA not built: run make" >&2; exit 2; }
command -v "$PYTHON" >/dev/null 2>&1 ||
    die "no python at $PYTHON: Iris comes from Debian's python3-sklearn (apt-get install python3-sklearn)"
"$PYTHON" -c 'import sklearn.datasets' 2>/dev/null ||
    die "$PYTHON cannot import sklearn: Iris comes from Debian's python3-sklearn (apt-get install python3-sklearn)"
mkdir -p "$(dirname "$data")" "$work" "$out"
lib_traps
load0=$(load_stamp)
start=$(date +%s)

# The data, through sklearn's own reader; repr() keeps each measurement as
# the file gives it (5.1, not 5.1000000000000005).
lib_tmp "$data"
"$PYTHON" -c '
import csv, sys
from sklearn.datasets import load_iris
iris = load_iris()
w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(["sepal_length", "sepal_width", "petal_length", "petal_width", "species"])
for x, y in zip(iris.data, iris.target):
    w.writerow([repr(float(v)) for v in x] + [iris.target_names[y]])
' >"$tmp"
[ "$(sed 1d "$tmp" | wc -l)" -eq 150 ] || die "sklearn's Iris does not have 150 rows"
mv "$tmp" "$data"
species="setosa versicolor virginica"
m=150
# sigma_of V: the sigma of sigma^2 = V, to 17 digits
sigma_of() { awk -v v="$1" 'BEGIN { printf "%.17g", sqrt(v) }'; }

# name|label|fit options: the four runs of the pictures, then the scan over
# sigma^2 = m * 2^j, j = -10..6 (j = 0 is rbf-notes; down to m/1024 so
# that the stretch without errors ends on both sides)
kernels="linear|linear PCA|--kernel linear
poly2|poly d = 2|-d 2
rbf|rbf, default sigma|--kernel rbf
rbf-notes|rbf, sigma^2 = m|--kernel rbf --sigma $(sigma_of $m)"
names=$(echo "$kernels" | cut -d'|' -f1)
runs="$kernels"
for j in -10 -9 -8 -7 -6 -5 -4 -3 -2 -1 1 2 3 4 5 6; do
    v=$(awk -v m=$m -v j="$j" 'BEGIN { printf "%.17g", m * 2 ^ j }')
    f=$(awk -v j="$j" 'BEGIN { printf (j < 0 ? "m/%d" : "%d m"), 2 ^ (j < 0 ? -j : j) }')
    runs="$runs
rbf-scan$(printf '%+d' "$j")|rbf, sigma^2 = $f|--kernel rbf --sigma $(sigma_of "$v")"
done
echo "$runs" >"$work/runs.txt"

spec="$out/iris-spectrum.csv"
lib_tmp "$spec"
spectmp=$tmp
echo "kernel,component,eigenvalue,explained,cumulative" >"$spectmp"
csv="$out/iris.csv"
lib_tmp "$csv"
csvtmp=$tmp
echo "kernel,sigma2,clusters,cluster,setosa,versicolor,virginica,inertia,ari" >"$csvtmp"
# Each step writes a file, not a pipe, so that set -e sees kpca fail.
echo "$runs" | while IFS='|' read -r name label opts; do
    say "iris.sh: $label ($opts)"
    # shellcheck disable=SC2086 # the options are words
    "$KPCA" fit -q $opts --label species "$data" -o "$work/$name.h5"
    s2=""
    case "$opts" in
    *rbf*) s=$(model_key "$work/$name.h5" sigma)
           s2=$(awk -v s="$s" 'BEGIN { printf "%.6g", s * s }') ;;
    esac
    "$KPCA" spectrum -q --csv "$work/$name.spectrum.csv" "$work/$name.h5" >/dev/null
    awk -F, -v k="$name" 'NR > 1 { printf "%s,%d,%.8g,%.8g,%.8g\n", k, $1, $2, $4, $5 }' \
        "$work/$name.spectrum.csv" >>"$spectmp"
    "$KPCA" transform -q -k 2 --label species "$work/$name.h5" "$data" -o "$work/$name.features.csv"
    for c in 2 3; do
        "$KPCA" cluster -q -k $c --components 2 -o "$work/$name.clusters$c.txt" \
            "$work/$name.features.csv" >"$work/$name.cluster$c.txt"
        # kpca cluster's table: its label columns are the class names, or
        # the codes 0, 1, 2 of the names in the order they first appear
        awk -v k="$name" -v s2="$s2" -v c=$c -v names="$species" '
            BEGIN { split(names, nm, " ") }
            $1 == "inertia:" { inertia = $2 }
            $1 == "cluster" { for (j = 2; j <= NF; j++) col[j] = ($j ~ /^[0-2]$/ ? nm[$j + 1] : $j); head = 1; next }
            /^adjusted Rand index:/ { ari = $4; head = 0 }
            head && $1 ~ /^[0-9]+$/ { i = $1 + 1; rows[i] = 1; for (j = 2; j <= NF; j++) count[i, col[j]] = $j }
            END {
                if (inertia == "" || ari == "") { print "iris.sh: " k ": no inertia or ARI from kpca cluster" > "/dev/stderr"; exit 1 }
                for (i = 1; i in rows; i++)
                    printf "%s,%s,%d,%d,%d,%d,%d,%s,%s\n", k, s2, c, i, count[i, nm[1]], count[i, nm[2]], count[i, nm[3]], inertia, ari
            }' "$work/$name.cluster$c.txt" >"$work/$name.table$c.csv"
        cat "$work/$name.table$c.csv" >>"$csvtmp"
    done
    # species, z1, z2, 2-means cluster, 3-means cluster (from 1) of each
    # flower, in the data's order
    sed 1d "$work/$name.features.csv" >"$work/$name.scores.csv"
    sed 1d "$data" | cut -d, -f5 |
        paste -d, - "$work/$name.scores.csv" "$work/$name.clusters2.txt" "$work/$name.clusters3.txt" |
        awk -F, '{ printf "%s,%s,%s,%d,%d\n", $1, $3, $4, $5 + 1, $6 + 1 }' >"$work/$name.points.csv"
    [ "$(wc -l <"$work/$name.points.csv")" -eq $m ] || die "$name: not $m points in the features"
    # the pictures' points must give kpca's tables
    for c in 2 3; do
        awk -F, -v c=$c -v col=$((c + 2)) '{ n[$col, $1]++ }
            END { for (i = 1; i <= c; i++) printf "%d,%d,%d,%d\n", i, n[i, "setosa"], n[i, "versicolor"], n[i, "virginica"] }' \
            "$work/$name.points.csv" >"$work/$name.counts$c.csv"
        cut -d, -f4-7 "$work/$name.table$c.csv" | cmp -s - "$work/$name.counts$c.csv" ||
            die "$name: the clusters of '$work/$name.clusters$c.txt' do not give kpca cluster's contingency table"
    done
done
mv "$spectmp" "$spec"
mv "$csvtmp" "$csv"

# Per run: 2 clusters against "setosa vs the rest" (the setosa cluster is
# the one with the most I. setosa; wrong are the other species in it and
# the I. setosa outside it) and the 3-cluster inertia, count of flowers off
# their cluster's most common species, and ARI.
summary="$out/iris-summary.csv"
lib_tmp "$summary"
awk -F, -v m=$m 'NR > 1 {
        k = $1
        if (!(k in s2)) { order[++n] = k; s2[k] = $2 }
        if ($3 == 2) {
            if (!(k in bs) || $5 > bs[k]) { bs[k] = $5; ve[k] = $6; vi[k] = $7 }
            set[k] += $5; ari2[k] = $9
        } else {
            top = $5; if ($6 > top) top = $6; if ($7 > top) top = $7
            off3[k] += $5 + $6 + $7 - top; in3[k] = $8; ari3[k] = $9
        }
    }
    END {
        print "kernel,sigma2,sigma2_over_m,setosa_vs_rest_errors,versicolor_with_setosa,virginica_with_setosa,setosa_apart,ari_2,inertia_3,off_3,ari_3"
        for (i = 1; i <= n; i++) {
            k = order[i]; apart = set[k] - bs[k]
            printf "%s,%s,%s,%d,%d,%d,%d,%s,%s,%d,%s\n", k, s2[k], (s2[k] == "" ? "" : sprintf("%.6g", s2[k] / m)),
                ve[k] + vi[k] + apart, ve[k], vi[k], apart, ari2[k], in3[k], off3[k], ari3[k]
        }
    }' "$csv" >"$tmp"
mv "$tmp" "$summary"
end=$(date +%s)

version=$("$KPCA" --version | awk 'NR == 1 { print $2 }')
commit=$(commit_stamp)
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
machine=$(machine_stamp)
load=$(load_stamp)
sigma=$(printf '%.4g' "$(model_key "$work/rbf.h5" sigma)")
sigman=$(printf '%.4g' "$(model_key "$work/rbf-notes.h5" sigma)")

# errors N: "1 error", "3 errors"
errors() { if [ "$1" -eq 1 ]; then echo "1 error"; else echo "$1 errors"; fi; }
# the summary's field F of run K
field() { awk -F, -v k="$1" -v f="$2" '$1 == k { print $f }' "$summary"; }
# the notes' two claims, against linear and rbf-notes
lw=$(( $(field linear 5) + $(field linear 6) ))
la=$(field linear 7)
if [ "$lw" -eq 2 ] && [ "$la" -eq 0 ]; then v1="reproduces"; else v1="does not reproduce"; fi
ne=$(field rbf-notes 4)
if [ "$ne" -eq 0 ]; then v2="reproduces"; else v2="does not reproduce"; fi
# sigma^2 / m as m/64, m, 4 m or 0.0303 m
ratio_awk='function near(x) { return x >= 0.5 && (x - int(x + 0.5)) ^ 2 < (1e-5 * x) ^ 2 }
function ratio(r) {
    if (r < 1 && near(1 / r)) return "m/" int(1 / r + 0.5)
    if (r >= 1 && near(r)) return (int(r + 0.5) == 1 ? "m" : int(r + 0.5) " m")
    return sprintf("%.3g m", r)
}'
# the rbf runs by sigma^2: sigma2,sigma2_over_m,errors,ve,vi,apart,ari3,name
awk -F, 'NR > 1 && $2 != "" { print $2 "," $3 "," $4 "," $5 "," $6 "," $7 "," $11 "," $1 }' "$summary" |
    sort -t, -k1,1g >"$work/scan.csv"
# the stretches of the scan with no error, as "A (m/64) to B (m/8)"
zero=$(awk -F, "$ratio_awk"'
    function emit() { s = s (s == "" ? "" : "; ") "sigma^2 = " a " (" al ")" (a == b ? "" : " to " b " (" bl ")") }
    $3 == 0 { if (!on) { a = sprintf("%.4g", $1); al = ratio($2) }; on = 1; b = sprintf("%.4g", $1); bl = ratio($2); next }
    on { emit(); on = 0 }
    END { if (on) emit(); print s }' "$work/scan.csv")
fewest=$(sort -t, -k3,3n "$work/scan.csv" | head -1 | cut -d, -f3)

md="$out/iris.md"
lib_tmp "$md"
{
    put "# Fisher's Iris: linear and kernel PCA, k-means on two scores"
    put ""
    put "Provenance: \`$cmdline\`, kpca $version ($commit), $date, $machine, $(load_words "$load0" "$load"), $((end - start)) s."
    put ""
    put "The data: Fisher's Iris, 150 flowers x 4 measurements in cm (sepal length and width, petal length"
    put "and width), 50 of each species I. setosa, I. versicolor and I. virginica, from Debian's"
    put "python3-sklearn through \`sklearn.datasets.load_iris()\` (its iris.csv starts with the row"
    put "\"150,4,setosa,versicolor,virginica\": the shape and the class names, not column names), written as"
    put "\`$data\` with the header sepal_length,sepal_width,petal_length,petal_width,species. One protocol"
    put "for every run: \`kpca fit --label species\` on all 150 flowers (unscaled, every component with a"
    put "non-zero eigenvalue), \`kpca spectrum\`, \`kpca transform -k 2\` and \`kpca cluster -k C --components 2\`"
    put "for C = 2 and C = 3 (k-means++ starts, best of 10 runs by inertia, seed 1). rbf is"
    put "exp(-|u - v|^2 / (2 sigma^2)) with kpca's default sigma = $sigma (the square root of the flowers'"
    put "total variance), with the course notes' rule of thumb sigma^2 = m = $m (sigma = $sigman) and with"
    put "sigma^2 = m/1024 .. 64 m in powers of 2."
    put ""
    put "## The course notes' claims"
    put ""
    put "With two clusters on two scores, the setosa cluster is the one holding the most I. setosa;"
    put "a flower is wrong when it is another species in that cluster or an I. setosa outside it (\"setosa apart\")."
    put ""
    put "1. *Linear PCA to two scores, then k-means with two clusters, leaves two flowers wrongly"
    put "   clustered with I. setosa.* **Claim 1 $v1:** $lw flowers are clustered with I. setosa"
    put "   ($(field linear 5) I. versicolor, $(field linear 6) I. virginica) and $la I. setosa are outside its cluster."
    put "2. *Kernel PCA with exp(-|u - v|^2 / (2 sigma^2)), sigma^2 = m, two scores and k-means cluster every"
    put "   flower correctly (setosa against the rest).* **Claim 2 $v2:** $(errors "$ne")"
    put "   ($(field rbf-notes 5) I. versicolor and $(field rbf-notes 6) I. virginica with I. setosa, $(field rbf-notes 7) I. setosa outside its cluster)."
    put ""
    if [ -n "$zero" ]; then
        put "In the scan over sigma^2 below, setosa against the rest has no error for $zero;"
        put "kpca's default sigma^2 = $(awk -v s="$sigma" 'BEGIN { printf "%.4g", s * s }') gives $(errors "$(field rbf 4)")."
    else
        put "No sigma^2 of the scan below separates setosa from the rest without an error; the fewest errors are $fewest."
    fi
    if [ "$v2" != "reproduces" ] && [ -n "$zero" ]; then
        put "The notes' rule sigma^2 = m does not give their result on these data; the narrower kernels of"
        put "that stretch do."
    fi
    # the widest kernel of the scan against linear PCA: errors, who, ARI
    if [ "$(tail -1 "$work/scan.csv" | cut -d, -f3-7)" = "$(field linear 4),$(field linear 5),$(field linear 6),$(field linear 7),$(field linear 11)" ]; then
        put "The widest kernels give linear PCA's counts and ARI: with sigma^2 far above the flowers' squared"
        put "distances, exp(-|u - v|^2 / (2 sigma^2)) is close to 1 - |u - v|^2 / (2 sigma^2), whose centred"
        put "kernel is linear PCA's divided by sigma^2."
    fi
    put ""
    put "| kernel | explained by z1 | by z2 | z1 + z2 | components | 2 clusters: wrong | with setosa: versicolor, virginica | setosa apart | 3 clusters: k-means inertia | off their cluster's species | adjusted Rand index |"
    put "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    echo "$kernels" | while IFS='|' read -r name label opts; do
        awk -F, -v k="$name" -v label="$label" '
            FILENAME ~ /spectrum/ && $1 == k { n++; if ($2 == 1) e1 = $4; if ($2 == 2) { e2 = $4; c2 = $5 } }
            FILENAME ~ /summary/ && $1 == k { wrong = $4; ve = $5; vi = $6; apart = $7; inertia = $9; off = $10; ari = $11 }
            END { printf "| %s | %.4f | %.4f | %.4f | %d | %d | %d, %d | %d | %.4g | %d | %.4f |\n",
                label, e1, e2, c2, n, wrong, ve, vi, apart, inertia, off, ari }' \
            "$spec" "$summary"
    done
    put ""
    put "\"explained\" is the eigenvalue's share of trace(K~), the variance in feature space; for linear PCA"
    put "it is the share of the total variance of the four measurements. \"off their cluster's species\""
    put "counts the flowers whose species is not the most common one of their k-means cluster."
    put ""
    put "## The scan over sigma^2 (rbf)"
    put ""
    put "| sigma^2 | sigma^2 / m | run | z1 + z2 explained | 2 clusters: wrong | with setosa: versicolor, virginica | setosa apart | 3 clusters: adjusted Rand index |"
    put "|---:|---:|---|---:|---:|---:|---:|---:|"
    awk -F, "$ratio_awk"'
        FILENAME ~ /runs/ { split($0, p, "|"); label[p[1]] = p[2]; next }
        FILENAME ~ /spectrum/ { if ($2 == 2) c2[$1] = $5; next }
        { printf "| %.4g | %s | %s | %.4f | %d | %d, %d | %d | %.4f |\n", $1, ratio($2), label[$8], c2[$8], $3, $4, $5, $6, $7 }' \
        "$work/runs.txt" "$spec" "$work/scan.csv"
    put ""
    put "The contingency tables (rows: k-means clusters on z1, z2; columns: species):"
    put ""
    echo "$kernels" | while IFS='|' read -r name label opts; do
        put "**$label**"
        put ""
        put "| clusters | cluster | setosa | versicolor | virginica |"
        put "|---:|---:|---:|---:|---:|"
        awk -F, -v k="$name" '$1 == k { printf "| %d | %d | %d | %d | %d |\n", $3, $4, $5, $6, $7 }' "$csv"
        put ""
    done
    put "![Iris scree plot](iris-scree.png)"
    put ""
    put "![Iris: the first two scores by species and by k-means cluster](iris-scores.png)"
    put ""
    put "The numbers: \`iris.csv\` (contingency counts, inertia and ARI per run, number of clusters and"
    put "cluster), \`iris-summary.csv\` (per run: the 2-cluster errors, the 3-cluster inertia and ARI) and"
    put "\`iris-spectrum.csv\` (every eigenvalue and its share)."
} >"$tmp"
mv "$tmp" "$md"

# gnuplot_png FILE SIZE FONT: run the gnuplot script on stdin with a PNG of
# SIZE ("W,H") and FONT size as its output, written as FILE once complete
gnuplot_png() {
    lib_tmp "$1"
    { printf 'set terminal pngcairo size %s font ",%s"\nset output "%s"\nset datafile separator ","\n' "$2" "$3" "$tmp"
      cat; } | gnuplot
    mv "$tmp" "$1"
}

if command -v gnuplot >/dev/null 2>&1; then
    scree="" cum="" i=0
    for name in $names; do
        i=$((i + 1))
        c=$(palette_colour "$((i + 1))")
        label=$(echo "$kernels" | awk -F'|' -v k="$name" '$1 == k { print $2 }')
        scree="$scree '$spec' using (strcol(1) eq '$name' ? \$2 : 1/0):4 with linespoints lw 2 pt 7 lc rgb '$c' title '$label',"
        cum="$cum '$spec' using (strcol(1) eq '$name' ? \$2 : 1/0):(100*\$5) with linespoints lw 2 pt 7 lc rgb '$c' title '$label',"
    done
    png="$out/iris-scree.png"
    gnuplot_png "$png" 1100,480 11 <<GP
set multiplot layout 1,2 title "Iris (150 flowers): kernel PCA spectra"
set grid
set xrange [0.5:10.5]
set xtics 1
set xlabel "component"
set logscale y
set format y "10^{%T}"
set ylabel "explained share mu / trace(K~)"
set key top right
set title "scree plot"
plot ${scree%,}
unset logscale y
set format y "%g"
set yrange [0:100]
set ylabel "cumulative share (%)"
set key bottom right
set title "cumulative explained variance"
plot ${cum%,}
unset multiplot
GP


    plots=""
    for name in $names; do
        label=$(echo "$kernels" | awk -F'|' -v k="$name" '$1 == k { print $2 }')
        p="$work/$name.points.csv"
        bys="" i=1
        for s in $species; do
            i=$((i + 1))
            bys="$bys '$p' using (strcol(1) eq '$s' ? \$2 : 1/0):3 with points pt 7 ps 0.8 lc rgb '$(palette_colour "$i")' title '$s',"
        done
        plots="${plots}set title '$label: species'
plot ${bys%,}
"
        for c in 2 3; do
            byc=""
            for j in $(seq "$c"); do
                byc="$byc '$p' using (\$$((c + 2)) == $j ? \$2 : 1/0):3 with points pt $((j + 4)) ps 0.9 lc rgb '$(palette_colour "$((j + 4))")' title 'cluster $j',"
            done
            plots="${plots}set title '$label: k-means, $c clusters'
plot ${byc%,}
"
        done
    done
    png2="$out/iris-scores.png"
    gnuplot_png "$png2" 1500,1800 10 <<GP
set multiplot layout 4,3 title "Iris: the first two scores z1, z2 of each flower"
set grid
set xlabel "z1"
set ylabel "z2"
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
set bmargin 5.5
set key below horizontal font ",9"
$plots
unset multiplot
GP
fi
echo "results: $csv $summary $spec $md${png:+ $png $png2} ($((end - start)) s)"
