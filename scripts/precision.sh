#!/bin/sh
# precision.sh - the headline grid in double and in single precision, cell
# by cell.
#
# Runs scripts/run-grid.sh twice with the protocol of the whole Table 1 that
# `make experiment` computes (run-grid.sh --full: d = 1..7, 32..2048
# components, 46 cells; the headline eval), once with --precision double and
# once with --precision single, each into its own cache (WORK/double,
# WORK/single), so that no step of one serves the other.  Then compares
# every cell on the same test digits: the two error rates, their
# difference, the discordant digits (b: right in double and wrong in single,
# c: the reverse; from each grid's NAME-predictions.csv) and McNemar's exact
# two-sided p (scripts/lib.sh).  The verdict: whether any cell moves by more
# than chance (p < 0.05).  Writes NAME.md and NAME.csv into the output
# directory, with each grid's own run time and the load at start and end.
#
# And, per degree, what single precision costs in accuracy, measured on the
# two grids' own models (NAME-accuracy.csv, and a second table in NAME.md):
# the eigenvalues' relative error |mu_s - mu_d| / mu_d (kpca spectrum of
# both models), its maximum over the components k <= 64, 256, 1024, 2048;
# the components each model kept and its smallest kept eigenvalue over
# mu_1; and the largest difference of the test digits' projections,
# relative to the largest |z|, over the first 64, 256, 2048 components:
# the single model (projected in single) against the double model, and the
# single model projected in single against the same model projected in
# double (kpca transform --precision double): the single GEMM's own part.
# A bound past the components both models kept covers all of them; an
# empty cell: the previous bound covers them already.
# Needs a kpca whose fit has --precision.
#
# usage: scripts/precision.sh [options]
#   --degrees "D..."  degrees (default: run-grid.sh --full's, 1 to 7)
#   --components L    component counts (default: run-grid.sh --full's,
#                     32 to 2048)
#   --subset M        fit points (default: 3000)
#   --eval "OPTS"     options for kpca eval (default: the headline protocol)
#   --work DIR        the two grids' caches and tables (default:
#                     build/precision)
#   --out DIR         where NAME.md and NAME.csv go (default: results)
#   --name NAME       result file name (default: precision)
#   --force           recompute every step of both grids
set -eu
cd "$(dirname "$0")/.."
KPCA=${KPCA:-build/kpca}
. scripts/lib.sh

degrees="" # empty: run-grid.sh --full's
comps=""
subset=3000
evalopts="" # empty: the headline protocol (headline_eval, scripts/lib.sh)
work=build/precision
out=results
name=precision
force=""
cmdline="scripts/precision.sh $*"
while [ $# -gt 0 ]; do
    case "$1" in
    --degrees) degrees=$(optval "$@"); shift ;;
    --components) comps=$(optval "$@"); shift ;;
    --subset) subset=$(optval "$@"); shift ;;
    --eval) evalopts=$(optval "$@"); shift ;;
    --work) work=$(optval "$@"); shift ;;
    --out) out=$(optval "$@"); shift ;;
    --name) name=$(optval "$@"); shift ;;
    --force) force=--force ;;
    -h|--help) usage; exit 0 ;;
    *) bad_option "$1" ;;
    esac
    shift
done
[ -x "$KPCA" ] || { echo "precision.sh: $KPCA not built: run make" >&2; exit 2; }
"$KPCA" fit --help 2>/dev/null | grep -q -- '--precision' ||
    { echo "precision.sh: $KPCA fit has no --precision: nothing to compare" >&2; exit 2; }
[ -n "$evalopts" ] || evalopts=$(headline_eval)
mkdir -p "$work" "$out"
export KPCA # for run-grid.sh
lib_traps
load_start=$(load_stamp)
date_start=$(date -u +%Y-%m-%dT%H:%M:%SZ)

# ---- the two grids, one after the other (each uses every core) -------------
for p in double single; do
    say "== the grid in $p precision"
    # shellcheck disable=SC2086 # $force: empty or one word
    lib_run sh scripts/run-grid.sh $force --precision "$p" --full ${degrees:+--degrees "$degrees"} \
        ${comps:+--components "$comps"} --subset "$subset" --eval "$evalopts" --work "$work/$p" --out "$work/$p" --name grid \
        --title "The grid in $p precision (scripts/precision.sh)" ||
        die "the $p grid failed (see above)"
done
load_end=$(load_stamp)
pd="$work/double/grid-predictions.csv"
ps="$work/single/grid-predictions.csv"
[ "$(head -n 1 "$pd")" = "$(head -n 1 "$ps")" ] || die "the two grids have different cells"
# each grid's own run time, and whether it reused cached steps
gridtime() { jq -r '"\(.provenance.seconds) s" + (if .provenance.steps_reused then " (some steps reused from the cache: partial)" else " (every step computed)" end)' "$1"; }
tdouble=$(gridtime "$work/double/grid.json")
tsingle=$(gridtime "$work/single/grid.json")

# ---- per degree: eigenvalues and projections of the two grids' models ------
# Each grid's models, in run-grid.sh's cache (seed 0: its default)
model_of() { printf '%s/%s/fit-m%s-s0%s/d%s.model\n' "$work" "$1" "$subset" "$([ "$1" = double ] || echo "-$1")" "$2"; }
# The bounds on k of the eigenvalue and projection maxima
EIG_LEVELS=64,256,1024,2048
PROJ_LEVELS=64,256,2048
# LEVELS_AWK: levels_init(LIST, N) sets nl and bound[1..nl], where the
# running maximum over k = 1.. of the comma-separated LIST's bounds is read
# with N components to compare: min(L, N), or 0 where the previous bound
# already reaches N (nothing more to compare: an empty cell).
LEVELS_AWK='
function levels_init(list, n,    i, prev) {
    nl = split(list, lev, ","); prev = 0
    for (i = 1; i <= nl; i++) { bound[i] = prev >= n ? 0 : (lev[i] + 0 < n ? lev[i] + 0 : n); prev = lev[i] + 0 }
}
# cell(NUM, DEN, I): NUM / DEN for bound I, or "" where it has none
function cell(num, den, i) { return !bound[i] ? "" : den > 0 ? sprintf("%.6g", num / den) : num > 0 ? "inf" : 0 }
'
acc="$out/$name-accuracy.csv"
lib_tmp "$acc"
tacc=$tmp
lib_tmp "$work/accuracy"
tz=$tmp # the projections, one degree at a time
tmpfiles="$tmpfiles $tz.d.csv $tz.s.csv $tz.sd.csv $tz.spd $tz.sps"
col() { put "$1" | awk -v l="$2" '{ n = split(l, a, ","); for (i = 1; i <= n; i++) printf ",%s_k%s", $0, a[i] }'; }
{
    printf 'degree,precision_single_model,components_double,components_single,smallest_kept_double,smallest_kept_single'
    col eig_relerr "$EIG_LEVELS"; col proj_models "$PROJ_LEVELS"; col proj_gemm "$PROJ_LEVELS"; echo
} >"$tacc"
for d in $(head -n 1 "$pd" | tr ',' '\n' | sed -n 's/^d\([0-9]*\)_k.*/\1/p' | uniq); do
    say "== d=$d: eigenvalues and test projections of the double and the single model"
    mdd=$(model_of double "$d")
    mds=$(model_of single "$d")
    kd=$(model_key "$mdd" components) || die "cannot read $mdd"
    ks=$(model_key "$mds" components) || die "cannot read $mds"
    # what the single grid's fit computed in (a linear kernel's D x D fit:
    # double); the last such line, none: double
    ps1=$(model_key "$mds" precision | tail -n 1)
    ps1=${ps1:-double}
    lib_run "$KPCA" spectrum -q --csv - "$mdd" >"$tz.spd" || die "kpca spectrum failed on $mdd"
    lib_run "$KPCA" spectrum -q --csv - "$mds" >"$tz.sps" || die "kpca spectrum failed on $mds"
    n=$((kd < ks ? kd : ks))
    [ "$n" -ge 1 ] || die "a d=$d model kept no component"
    m=$(printf '%s\n' "$PROJ_LEVELS" | awk -F, -v n="$n" '{ print $NF + 0 < n ? $NF : n }')
    # the test digits of run-grid.sh (its default --test)
    lib_run "$KPCA" transform -q -k "$m" "$mdd" data/zip.test.gz -o "$tz.d.csv" || die "kpca transform failed on $mdd"
    lib_run "$KPCA" transform -q -k "$m" "$mds" data/zip.test.gz -o "$tz.s.csv" || die "kpca transform failed on $mds"
    lib_run "$KPCA" transform -q -k "$m" --precision double "$mds" data/zip.test.gz -o "$tz.sd.csv" ||
        die "kpca transform --precision double failed on $mds"
    # eigenvalues: component,eigenvalue,... of the double, then the single model
    eig=$(awk -F, -v n="$n" -v levels="$EIG_LEVELS" "$LEVELS_AWK"'
        FNR == 1 { f++; next }
        { mu[f, $1] = $2; last[f] = $1 }
        END {
            levels_init(levels, n); i = 1; e = 0
            for (k = 1; k <= n; k++) {
                r = mu[2, k] - mu[1, k]; r = (r < 0 ? -r : r) / mu[1, k]
                if (r > e) e = r
                for (; i <= nl && bound[i] == k; i++) v[i] = e
            }
            printf "%.6g,%.6g", mu[1, last[1]] / mu[1, 1], mu[2, last[2]] / mu[2, 1]
            for (i = 1; i <= nl; i++) printf ",%s", cell(v[i], 1, i)
        }' "$tz.spd" "$tz.sps") || die "the d=$d spectra"
    # projections: label,z1..zm of the double model, the single model, the
    # single model in double, side by side
    proj=$(paste -d, "$tz.d.csv" "$tz.s.csv" "$tz.sd.csv" | awk -F, -v m="$m" -v levels="$PROJ_LEVELS" "$LEVELS_AWK"'
        NR == 1 { if (NF != 3 * (m + 1)) { print "precision.sh: the projections have " NF " columns, not " 3 * (m + 1) > "/dev/stderr"; exit 1 }; levels_init(levels, m); next }
        $1 != $(m + 2) || $1 != $(2 * m + 3) { print "precision.sh: the projections label test digit " NR - 1 " differently" > "/dev/stderr"; exit 1 }
        {
            dm = 0; zd = 0; dg = 0; zg = 0; i = 1
            for (k = 2; k <= m + 1; k++) {
                a = $k; b = $(k + m + 1); c = $(k + 2 * m + 2)
                t = b - a; if (t < 0) t = -t; if (t > dm) dm = t
                t = a < 0 ? -a : a; if (t > zd) zd = t
                t = b - c; if (t < 0) t = -t; if (t > dg) dg = t
                t = c < 0 ? -c : c; if (t > zg) zg = t
                for (; i <= nl && bound[i] == k - 1; i++) {
                    if (dm > DM[i]) DM[i] = dm; if (zd > ZD[i]) ZD[i] = zd
                    if (dg > DG[i]) DG[i] = dg; if (zg > ZG[i]) ZG[i] = zg
                }
            }
        }
        END {
            if (NR < 2) { print "precision.sh: no projections" > "/dev/stderr"; exit 1 }
            for (i = 1; i <= nl; i++) printf ",%s", cell(DM[i], ZD[i], i)
            for (i = 1; i <= nl; i++) printf ",%s", cell(DG[i], ZG[i], i)
        }') || die "the d=$d projections"
    rm -f "$tz.d.csv" "$tz.s.csv" "$tz.sd.csv" "$tz.spd" "$tz.sps"
    printf '%s,%s,%s,%s,%s%s\n' "$d" "$ps1" "$kd" "$ks" "$eig" "$proj" >>"$tacc"
done

# ---- every cell: rates, discordant digits, McNemar -------------------------
csv="$out/$name.csv"
md="$out/$name.md"
lib_tmp "$csv"
tcsv=$tmp
lib_tmp "$md"
tmd=$tmp
verdict=$(awk -F, -v csvf="$tcsv" -v md="$tmd" -v cmd="$cmdline" -v ver="$("$KPCA" --version | awk 'NR == 1 { print $2 }')" \
    -v commit="$(commit_stamp)" -v date="$date_start" -v machine="$(machine_stamp)" -v loadw="$(load_words "$load_start" "$load_end")" \
    -v tdouble="$tdouble" -v tsingle="$tsingle" -v subset="$subset" -v evalopts="$evalopts" \
    "$MCNEMAR_AWK"'
function fmtp(p) { return p < 0.0001 ? "< 0.0001" : sprintf("%.4f", p) }
FNR == 1 { if (NR == 1) { nc = NF; for (j = 2; j <= NF; j++) name[j] = $j }; next }
NR == FNR { n++; lab[n] = $1; for (j = 2; j <= nc; j++) okd[j, n] = ($j == $1); next }
{
    m++
    if ($1 != lab[m]) { print "precision.sh: the two grids label test digit " m " differently" > "/dev/stderr"; bad = 1; exit 1 }
    for (j = 2; j <= nc; j++) oks[j, m] = ($j == $1)
}
END {
    if (bad) exit 1
    if (m != n) { print "precision.sh: the two grids have " n " and " m " test digits" > "/dev/stderr"; exit 1 }
    print "degree,components,error_pct_double,error_pct_single,diff_pp,errors_double,errors_single,double_right_single_wrong,double_wrong_single_right,mcnemar_p" >csvf
    printf "# The headline grid in double and in single precision\n\n" >md
    printf "Every cell of the grid computed twice, with `--precision double` and with `--precision single` (kpca\n" >md
    printf "fit'"'"'s eigensolver, transform'"'"'s projection and eval'"'"'s Gram products), each grid in its own\n" >md
    printf "cache; both classify the same %d test digits. b = digits right in double and wrong in single,\n", n >md
    printf "c = the reverse; p = McNemar'"'"'s exact two-sided test (binomial on the b + c discordant digits).\n\n" >md
    printf "- command: `%s`\n- kpca %s (commit %s), %s\n- machine: %s\n", cmd, ver, commit, date, machine >md
    printf "- %s\n", loadw >md
    printf "- run time of the double grid: %s; of the single grid: %s\n", tdouble, tsingle >md
    printf "- protocol: K from the first %s training digits; `kpca eval %s`\n\n", subset, evalopts >md
    printf "| d | components | double %% | single %% | single − double (pp) | b / c | p |\n|---|---|---|---|---|---|---|\n" >md
    nmove = 0; minp = 2; ndisc = 0; maxdisc = 0; maxdiff = 0
    for (j = 2; j <= nc; j++) {
        s = name[j]; sub(/^d/, "", s); split(s, a, "_k")
        ed = 0; es = 0; b = 0; c = 0
        for (i = 1; i <= n; i++) {
            ed += !okd[j, i]; es += !oks[j, i]
            if (okd[j, i] && !oks[j, i]) b++
            else if (!okd[j, i] && oks[j, i]) c++
        }
        p = mcnemar_p(b, c)
        diff = 100 * (es - ed) / n
        printf "%d,%d,%.2f,%.2f,%.2f,%d,%d,%d,%d,%.6g\n", a[1], a[2], 100 * ed / n, 100 * es / n, diff, ed, es, b, c, p >csvf
        printf "| %d | %d | %.2f | %.2f | %+.2f | %d / %d | %s |\n", a[1], a[2], 100 * ed / n, 100 * es / n, diff, b, c, fmtp(p) >md
        cells++
        if (b + c > 0) ndisc++
        if (b + c > maxdisc) maxdisc = b + c
        if ((diff < 0 ? -diff : diff) > maxdiff) maxdiff = (diff < 0 ? -diff : diff)
        if (p < minp) { minp = p; mincell = "d = " a[1] ", " a[2] " components (b / c = " b " / " c ")" }
        if (p < 0.05) { nmove++; moved = moved (moved == "" ? "" : "; ") "d = " a[1] ", " a[2] " components: " sprintf("%.2f", 100 * ed / n) " % -> " sprintf("%.2f", 100 * es / n) " %, b / c = " b " / " c ", p " (p < 0.0001 ? "< 0.0001" : sprintf("= %.4f", p)) }
    }
    printf "\n## Verdict\n\n" >md
    if (nmove == 0)
        printf "No cell moves by more than chance: p >= 0.05 in all %d cells (smallest p %s, at %s).\n", cells, fmtp(minp), mincell >md
    else
        printf "%d of %d cells move by more than chance (p < 0.05): %s.\n", nmove, cells, moved >md
    printf "%d of %d cells have any discordant digit, at most %d digits in one cell; the largest change of an\n", ndisc, cells, maxdisc >md
    printf "error rate is %.2f pp. With %d cells tested at 0.05, about %.1f would fall below it by chance alone\n", maxdiff, cells, 0.05 * cells >md
    printf "if the precisions differed only by noise. The default stays double: the double path is the one whose\n" >md
    printf "projections agree with scikit-learn'"'"'s KernelPCA to 1e-6 of each component'"'"'s largest value\n" >md
    printf "(tests/cli/sklearn.bats); what single costs in accuracy is measured below.\n" >md
    print (nmove == 0 ? "no cell moves by more than chance" : nmove " cells move by more than chance (p < 0.05)")
}' "$pd" "$ps")
# the accuracy table, from NAME-accuracy.csv
awk -F, -v elev="$EIG_LEVELS" -v plev="$PROJ_LEVELS" '
function group(pre, l,    n, a, i, s, v) {
    n = split(l, a, ",")
    for (i = 1; i <= n; i++) {
        v = $(col[pre "_k" a[i]]); s = s (i > 1 ? " / " : "") (v == "" ? "–" : sprintf("%.1e", v))
        if (v != "" && v + 0 > worst[pre]) { worst[pre] = v + 0; at[pre] = "d = " $1 ", k <= " a[i] }
    }
    return s
}
NR == 1 {
    for (j = 1; j <= NF; j++) col[$j] = j
    printf "\n## What single precision costs in accuracy\n\n"
    printf "Per degree, from the two grids'"'"' own models: the relative error of the single model'"'"'s eigenvalues,\n"
    printf "max |mu_s - mu_d| / mu_d over the components k <= each bound (`kpca spectrum` of both models); the\n"
    printf "components each model kept and its smallest kept eigenvalue over mu_1 (double / single); and the\n"
    printf "largest difference of the projections of the test digits over the first k components, relative to\n"
    printf "the largest |z| there: the single model projected in single against the double model (all of\n"
    printf "single'"'"'s price), and the same single model projected in single against in double (`kpca transform\n"
    printf "--precision double`: the price of the single GEMM alone). A bound past the components both models\n"
    printf "kept covers all of them; – : the previous bound covers them already.\n\n"
    e = elev; p = plev; gsub(/,/, " / ", e); gsub(/,/, " / ", p)
    printf "| d | kept | smallest mu / mu_1 | eigenvalues, k <= %s | single vs double model, k <= %s | single vs double GEMM, k <= %s |\n", e, p, p
    printf "|---|---|---|---|---|---|\n"
    next
}
{
    n++
    if ($2 != "single") indouble = indouble (indouble == "" ? "" : ", ") $1
    printf "| %s | %s / %s | %.2e / %.2e | %s | %s | %s |\n", $1, $3, $4, $5, $6, group("eig_relerr", elev), group("proj_models", plev), group("proj_gemm", plev)
}
END {
    if (!n) exit 1
    if (indouble != "")
        printf "\nThe single grid'"'"'s model of d = %s records precision double (`kpca info`): its fit solved in double\nwhatever --precision said (a linear kernel'"'"'s D x D fit, docs/method.md), and transform projects in\nthe model'"'"'s precision, so these rows compare double with double.\n", indouble
    printf "\nOver all %d degrees, the single eigenvalues are within %.1e of the double ones (relative; largest at %s);\n", n, worst["eig_relerr"], at["eig_relerr"]
    printf "the single model'"'"'s projections are within %.1e of the largest |z| of the double model'"'"'s (at %s),\n", worst["proj_models"], at["proj_models"]
    printf "of which the single GEMM alone accounts for up to %.1e (at %s).\n", worst["proj_gemm"], at["proj_gemm"]
}' "$tacc" >>"$tmd" || die "no degree to tabulate in $tacc"
mv "$tcsv" "$csv"
mv "$tacc" "$acc"
mv "$tmd" "$md"
say "verdict: $verdict"
say "results: $md $csv $acc"
