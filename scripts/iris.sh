#!/bin/sh
# iris.sh - Fisher's Iris with kpca alone: linear PCA and kernel PCA of the
# 150 flowers, their spectra (a scree plot), the first two scores of each
# flower and k-means with 3 clusters on those two scores.
#
# The data come from Debian's python3-sklearn, which ships Iris offline:
# sklearn.datasets.load_iris() reads its iris.csv (whose first row,
# "150,4,setosa,versicolor,virginica", gives the shape and the class names,
# not column names) and the script writes it as a plain CSV with a header,
# sepal_length,sepal_width,petal_length,petal_width,species (cm; species
# setosa, versicolor, virginica).  Then, for each kernel (linear, poly d = 2,
# rbf with the default sigma and rbf with the course notes' sigma^2 = m):
# `kpca fit --label species` on all 150 flowers keeping every component,
# `kpca spectrum --csv`, `kpca transform -k 2` and `kpca cluster -k 3
# --components 2` (inertia, contingency table, adjusted Rand index).
# Writes iris.md (tables, pictures, provenance), iris.csv (per kernel and
# cluster: the contingency counts, inertia and ARI), iris-spectrum.csv
# (kernel, component, eigenvalue, explained, cumulative), iris-scree.png
# and iris-scores.png (gnuplot; the scores coloured by species and by
# cluster).  A few seconds.
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

# name|label|fit options
kernels="linear|linear PCA|--kernel linear
poly2|poly d = 2|-d 2
rbf|rbf, default sigma|--kernel rbf
rbf-notes|rbf, sigma^2 = m|--kernel rbf --sigma $(awk -v m=$m 'BEGIN { printf "%.17g", sqrt(m) }')"
names=$(echo "$kernels" | cut -d'|' -f1)

spec="$out/iris-spectrum.csv"
lib_tmp "$spec"
spectmp=$tmp
echo "kernel,component,eigenvalue,explained,cumulative" >"$spectmp"
csv="$out/iris.csv"
lib_tmp "$csv"
csvtmp=$tmp
echo "kernel,cluster,setosa,versicolor,virginica,inertia,ari" >"$csvtmp"
# Each step writes a file, not a pipe, so that set -e sees kpca fail.
echo "$kernels" | while IFS='|' read -r name label opts; do
    say "iris.sh: $label ($opts)"
    # shellcheck disable=SC2086 # the options are words
    "$KPCA" fit -q $opts --label species "$data" -o "$work/$name.h5"
    "$KPCA" spectrum -q --csv "$work/$name.spectrum.csv" "$work/$name.h5" >/dev/null
    awk -F, -v k="$name" 'NR > 1 { printf "%s,%d,%.8g,%.8g,%.8g\n", k, $1, $2, $4, $5 }' \
        "$work/$name.spectrum.csv" >>"$spectmp"
    "$KPCA" transform -q -k 2 --label species "$work/$name.h5" "$data" -o "$work/$name.features.csv"
    "$KPCA" cluster -q -k 3 --components 2 -o "$work/$name.clusters.txt" \
        "$work/$name.features.csv" >"$work/$name.cluster.txt"
    # species, z1, z2, cluster (1-based) of each flower, in the data's order
    sed 1d "$work/$name.features.csv" >"$work/$name.scores.csv"
    sed 1d "$data" | cut -d, -f5 | paste -d, - "$work/$name.scores.csv" "$work/$name.clusters.txt" |
        awk -F, '{ printf "%s,%s,%s,%d\n", $1, $3, $4, $5 + 1 }' >"$work/$name.points.csv"
    [ "$(wc -l <"$work/$name.points.csv")" -eq $m ] || die "$name: not $m points in the features"
    # kpca cluster's table: its label columns are the class names, or the
    # codes 0, 1, 2 of the names in the order they first appear
    awk -v k="$name" -v names="$species" '
        BEGIN { split(names, nm, " ") }
        $1 == "inertia:" { inertia = $2 }
        $1 == "cluster" { for (j = 2; j <= NF; j++) col[j] = ($j ~ /^[0-2]$/ ? nm[$j + 1] : $j); head = 1; next }
        /^adjusted Rand index:/ { ari = $4; head = 0 }
        head && $1 ~ /^[0-9]+$/ { c = $1 + 1; rows[c] = 1; for (j = 2; j <= NF; j++) count[c, col[j]] = $j }
        END {
            if (inertia == "" || ari == "") { print "iris.sh: " k ": no inertia or ARI from kpca cluster" > "/dev/stderr"; exit 1 }
            for (c = 1; c in rows; c++)
                printf "%s,%d,%d,%d,%d,%s,%s\n", k, c, count[c, nm[1]], count[c, nm[2]], count[c, nm[3]], inertia, ari
        }' "$work/$name.cluster.txt" >>"$csvtmp"
    # the pictures' points must give kpca's table
    awk -F, -v k="$name" '{ n[$4, $1]++; if ($4 > c) c = $4 }
        END { for (i = 1; i <= c; i++) printf "%s,%d,%d,%d,%d\n", k, i, n[i, "setosa"], n[i, "versicolor"], n[i, "virginica"] }' \
        "$work/$name.points.csv" >"$work/$name.counts.csv"
    grep "^$name," "$csvtmp" | cut -d, -f1-5 | cmp -s - "$work/$name.counts.csv" ||
        die "$name: the clusters of '$work/$name.clusters.txt' do not give kpca cluster's contingency table"
done
mv "$spectmp" "$spec"
mv "$csvtmp" "$csv"
end=$(date +%s)

version=$("$KPCA" --version | awk 'NR == 1 { print $2 }')
commit=$(commit_stamp)
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
machine=$(machine_stamp)
load=$(load_stamp)
sigma=$(printf '%.4g' "$(model_key "$work/rbf.h5" sigma)")
sigman=$(printf '%.4g' "$(model_key "$work/rbf-notes.h5" sigma)")

md="$out/iris.md"
lib_tmp "$md"
{
    put "# Fisher's Iris: linear and kernel PCA, k-means on two scores"
    put ""
    put "Provenance: \`$cmdline\`, kpca $version ($commit), $date, $machine, load average $load0 at the start and $load at the end, $((end - start)) s."
    put ""
    put "The data: Fisher's Iris, 150 flowers x 4 measurements in cm (sepal length and width, petal length"
    put "and width), 50 of each species I. setosa, I. versicolor and I. virginica, from Debian's"
    put "python3-sklearn through \`sklearn.datasets.load_iris()\` (its iris.csv starts with the row"
    put "\"150,4,setosa,versicolor,virginica\": the shape and the class names, not column names), written as"
    put "\`$data\` with the header sepal_length,sepal_width,petal_length,petal_width,species. Each kernel:"
    put "\`kpca fit --label species\` on all 150 flowers (unscaled, every component with a non-zero"
    put "eigenvalue), \`kpca spectrum\`, \`kpca transform -k 2\` and \`kpca cluster -k 3 --components 2\`"
    put "(k-means++ starts, best of 10 runs, seed 1). rbf uses kpca's default sigma = $sigma (the square"
    put "root of the flowers' total variance) and the course notes' rule of thumb sigma^2 = m = $m"
    put "(sigma = $sigman)."
    put ""
    put "| kernel | explained by z1 | by z2 | z1 + z2 | components | k-means inertia | off their cluster's species | adjusted Rand index |"
    put "|---|---:|---:|---:|---:|---:|---:|---:|"
    echo "$kernels" | while IFS='|' read -r name label opts; do
        awk -F, -v k="$name" -v label="$label" '
            FILENAME ~ /spectrum/ && $1 == k { n++; if ($2 == 1) e1 = $4; if ($2 == 2) { e2 = $4; c2 = $5 } }
            FILENAME !~ /spectrum/ && $1 == k { inertia = $6; ari = $7
                top = $3; if ($4 > top) top = $4; if ($5 > top) top = $5; off += $3 + $4 + $5 - top }
            END { printf "| %s | %.4f | %.4f | %.4f | %d | %.4g | %d | %.4f |\n", label, e1, e2, c2, n, inertia, off, ari }' \
            "$spec" "$csv"
    done
    put ""
    put "\"explained\" is the eigenvalue's share of trace(K~), the variance in feature space; for linear PCA"
    put "it is the share of the total variance of the four measurements. \"off their cluster's species\""
    put "counts the flowers whose species is not the most common one of their k-means cluster. The"
    put "contingency tables (rows: k-means clusters on z1, z2; columns: species):"
    put ""
    echo "$kernels" | while IFS='|' read -r name label opts; do
        put "**$label**"
        put ""
        put "| cluster | setosa | versicolor | virginica |"
        put "|---:|---:|---:|---:|"
        awk -F, -v k="$name" '$1 == k { printf "| %d | %d | %d | %d |\n", $2, $3, $4, $5 }' "$csv"
        put ""
    done
    put "![Iris scree plot](iris-scree.png)"
    put ""
    put "![Iris: the first two scores by species and by k-means cluster](iris-scores.png)"
    put ""
    put "The numbers: \`iris.csv\` (contingency counts, inertia and ARI per kernel and cluster) and"
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
        bys="" byc="" i=1
        for s in $species; do
            i=$((i + 1))
            bys="$bys '$p' using (strcol(1) eq '$s' ? \$2 : 1/0):3 with points pt 7 ps 0.8 lc rgb '$(palette_colour "$i")' title '$s',"
        done
        for c in 1 2 3; do
            byc="$byc '$p' using (\$4 == $c ? \$2 : 1/0):3 with points pt $((c + 4)) ps 0.9 lc rgb '$(palette_colour "$((c + 4))")' title 'cluster $c',"
        done
        plots="${plots}set title '$label: species'
plot ${bys%,}
set title '$label: k-means, 3 clusters'
plot ${byc%,}
"
    done
    png2="$out/iris-scores.png"
    gnuplot_png "$png2" 1000,1800 10 <<GP
set multiplot layout 4,2 title "Iris: the first two scores z1, z2 of each flower"
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
echo "results: $csv $spec $md${png:+ $png $png2} ($((end - start)) s)"
