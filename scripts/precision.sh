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

# ---- every cell: rates, discordant digits, McNemar -------------------------
csv="$out/$name.csv"
md="$out/$name.md"
lib_tmp "$csv"
tcsv=$tmp
lib_tmp "$md"
tmd=$tmp
verdict=$(awk -F, -v csvf="$tcsv" -v md="$tmd" -v cmd="$cmdline" -v ver="$("$KPCA" --version | awk 'NR == 1 { print $2 }')" \
    -v commit="$(commit_stamp)" -v date="$date_start" -v machine="$(machine_stamp)" -v load0="$load_start" \
    -v load1="$load_end" -v tdouble="$tdouble" -v tsingle="$tsingle" -v subset="$subset" -v evalopts="$evalopts" \
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
    printf "- load average (1, 5, 15 min): %s at the start, %s at the end\n", load0, load1 >md
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
    printf "if the precisions differed only by noise.\n" >md
    print (nmove == 0 ? "no cell moves by more than chance" : nmove " cells move by more than chance (p < 0.05)")
}' "$pd" "$ps")
mv "$tcsv" "$csv"
mv "$tmd" "$md"
say "verdict: $verdict"
say "results: $md $csv"
