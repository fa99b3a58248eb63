#!/usr/bin/env bats
# precision.bats - --precision through scripts/run-grid.sh (passed on to fit,
# transform and eval, said in the provenance, a cache of its own), McNemar's
# exact p of scripts/lib.sh, and scripts/precision.sh on a tiny grid.
#
# The grids run on precision_kpca, a stand-in for kpca with --precision:
# it logs every command line, drops `--precision P` before running the real
# kpca and reports P as a model's "precision" in `kpca info`; a "single"
# model's eigenvalues and CSV projections carry known errors.

load ../helper

GRID_SH="$REPO/scripts/run-grid.sh"
PREC_SH="$REPO/scripts/precision.sh"

# precision_kpca: $TMP/kpca-prec.  Appends each command line to
# $TMP/argv.log; `fit --help` lists --precision; a fit given --precision P
# writes P to MODEL.prec, which `info MODEL` prints as "precision P"; an
# eval given --precision single gets $SINGLE_EVAL appended (another
# classifier, so that the two precisions give different predictions).
# The known errors of a single model (MODEL.prec says single):
# `spectrum --csv -` gives eigenvalue k as mu_k (1 + k 1e-7); a transform
# into CSV gives component k as z_k (1 + 1e-2) projected in double
# (--precision double) and z_k (1 + 1e-2) (1 + k 1e-5) in single.
precision_kpca() {
    cat >"$TMP/kpca-prec" <<EOF
#!/bin/bash
printf '%s\n' "\$*" >>"$TMP/argv.log"
prec="" out="" args=()
while [ \$# -gt 0 ]; do
    case "\$1" in
    --precision) prec=\$2; shift 2; continue ;;
    -o) out=\$2 ;;
    esac
    args+=("\$1")
    shift
done
set -- "\${args[@]}"
case "\$1" in
fit)
    if [ "\${2:-}" = --help ]; then "$KPCA" "\$@"; echo "      --precision P          single or double"; exit 0; fi
    "$KPCA" "\$@" || exit
    if [ -n "\$prec" ]; then echo "\$prec" >"\$out.prec"; else rm -f "\$out.prec"; fi ;;
info)
    "$KPCA" "\$@" || exit
    [ ! -f "\$2.prec" ] || echo "precision \$(cat "\$2.prec")" ;;
eval)
    # shellcheck disable=SC2086
    if [ "\$prec" = single ]; then exec "$KPCA" "\$@" \${SINGLE_EVAL:-}; fi
    exec "$KPCA" "\$@" ;;
spectrum)
    if [ "\$(cat "\${@: -1}.prec" 2>/dev/null)" = single ]; then
        "$KPCA" "\$@" | awk -F, -v OFS=, 'NR > 1 && NF > 1 { \$2 = sprintf("%.17g", \$2 * (1 + \$1 * 1e-7)) } 1'
        exit "\${PIPESTATUS[0]}"
    fi
    exec "$KPCA" "\$@" ;;
transform)
    model=""
    for a in "\$@"; do [ ! -f "\$a.prec" ] || model=\$a; done
    "$KPCA" "\$@" || exit
    if [ -n "\$model" ] && [ "\$(cat "\$model.prec")" = single ] && [ "\${out%.csv}" != "\$out" ]; then
        g=0; [ "\${prec:-single}" = double ] || g=1e-5
        awk -F, -v OFS=, -v g="\$g" 'NR > 1 { for (k = 2; k <= NF; k++) \$k = sprintf("%.17g", \$k * (1 + 1e-2) * (1 + (k - 1) * g)) } 1' \\
            "\$out" >"\$out.err" && mv "\$out.err" "\$out"
    fi ;;
*) exec "$KPCA" "\$@" ;;
esac
EOF
    chmod +x "$TMP/kpca-prec"
}

tiny_grid() {
    KPCA="$TMP/kpca-prec" run --separate-stderr sh "$GRID_SH" --degrees 2 --components 8,16 --subset 300 \
        --eval "-c 1" --name tiny --out "$OUT" --work "$TMP/work" "$@"
}

@test "run-grid.sh --precision: passed on to fit, transform and eval; in the provenance; its own cache" {
    precision_kpca
    tiny_grid
    [ "$status" -eq 0 ] || { show_run; fail "the default grid failed"; }
    # not asked for: not passed on, and the table says double
    ! grep -q -- --precision "$TMP/argv.log" || fail "--precision passed though not asked for"
    grep -qx -- '- precision: double (.*' "$OUT/tiny.md" || fail "no precision line in the Markdown"
    [ "$(jq -r .protocol.precision "$OUT/tiny.json")" = double ] || fail "no precision in the JSON"
    cp "$OUT/tiny-predictions.csv" "$TMP/double.csv"
    : >"$TMP/argv.log"
    tiny_grid --precision single
    [ "$status" -eq 0 ] || { show_run; fail "the single grid failed"; }
    # every step computed anew, each given the precision
    [ "$(grep -c '^fit .*--precision single' "$TMP/argv.log")" -eq 1 ] || { cat "$TMP/argv.log"; fail "fit"; }
    [ "$(grep -c '^transform .*--precision single' "$TMP/argv.log")" -eq 2 ] || { cat "$TMP/argv.log"; fail "transform"; }
    [ "$(grep -c '^eval .*--precision single' "$TMP/argv.log")" -eq 1 ] || { cat "$TMP/argv.log"; fail "eval"; }
    grep -qx -- '- precision: single (.*' "$OUT/tiny.md" || fail "the Markdown does not say single"
    [ "$(jq -r .protocol.precision "$OUT/tiny.json")" = single ]
    # two cache directories, each with its own model
    [ -f "$TMP/work/fit-m300-s0/d2.model" ] && [ -f "$TMP/work/fit-m300-s0-single/d2.model" ] ||
        fail "the precisions do not have cache directories of their own: $(ls "$TMP/work")"
    [ "$(cat "$TMP/work/fit-m300-s0-single/d2.model.prec")" = single ]
    [ ! -e "$TMP/work/fit-m300-s0/d2.model.prec" ] || fail "the double cache holds a single model"
    # the double grid again: all from its own cache, untouched by the single run
    : >"$TMP/argv.log"
    tiny_grid --precision double
    [ "$status" -eq 0 ] || { show_run; fail "the double grid failed"; }
    ! grep -q '^\(fit\|transform\|eval\) ' "$TMP/argv.log" || { cat "$TMP/argv.log"; fail "a double step was recomputed"; }
    cmp -s "$TMP/double.csv" "$OUT/tiny-predictions.csv" || fail "the double predictions changed"
}

@test "run-grid.sh --precision: a cached model of another precision is refitted; a bad value is refused before any work" {
    precision_kpca
    tiny_grid --precision single
    [ "$status" -eq 0 ] || { show_run; fail "the single grid failed"; }
    # a double model where the single cache expects a single one
    rm "$TMP/work/fit-m300-s0-single/d2.model.prec"
    : >"$TMP/argv.log"
    tiny_grid --precision single
    [ "$status" -eq 0 ] || { show_run; fail "the second single grid failed"; }
    grep -q '^fit .*--precision single' "$TMP/argv.log" || { cat "$TMP/argv.log"; fail "the double model was used"; }
    : >"$TMP/argv.log"
    tiny_grid --precision half --name bad
    [ "$status" -eq 2 ] || { show_run; fail "--precision half: exit $status"; }
    [[ "$stderr" == *"--precision is single or double, got 'half'"* ]] || { show_run; fail "message"; }
    [ ! -s "$TMP/argv.log" ] && [ ! -e "$OUT/bad.csv" ] || fail "work done for a bad --precision"
}

@test "run-grid.sh --jobs 2 --precision single: every job gets it" {
    command -v parallel >/dev/null || skip "no GNU parallel (Debian package parallel)"
    precision_kpca
    KPCA="$TMP/kpca-prec" run --separate-stderr sh "$GRID_SH" --jobs 2 --degrees "1 2" --components 8 --subset 300 \
        --eval "-c 1" --name tiny --out "$OUT" --work "$TMP/work" --precision single
    [ "$status" -eq 0 ] || { show_run; fail "the grid failed"; }
    [ "$(grep -c '^fit .*--precision single' "$TMP/argv.log")" -eq 2 ] || { cat "$TMP/argv.log"; fail "fits"; }
    ! grep -q '^\(fit\|transform\|eval\) ' <(grep -v -- '--precision single' "$TMP/argv.log") ||
        { cat "$TMP/argv.log"; fail "a step without --precision single"; }
    grep -qx -- '- precision: single (.*' "$OUT/tiny.md"
}

@test "mcnemar_p: exact two-sided binomial values" {
    cd "$REPO"
    . scripts/lib.sh
    # mcnemar B C -> p, by the awk function
    mcnemar() { awk -v b="$1" -v c="$2" "$MCNEMAR_AWK"'BEGIN { printf "%.10g\n", mcnemar_p(b, c) }'; }
    # known by hand: 2 * (1/2)^5; a tie; nothing discordant; 2 * (1 + 10) / 2^10
    [ "$(mcnemar 0 5)" = 0.0625 ] || fail "0 5: $(mcnemar 0 5)"
    [ "$(mcnemar 5 0)" = 0.0625 ] || fail "5 0: $(mcnemar 5 0)"
    [ "$(mcnemar 1 1)" = 1 ] || fail "1 1: $(mcnemar 1 1)"
    [ "$(mcnemar 0 0)" = 1 ] || fail "0 0: $(mcnemar 0 0)"
    [ "$(mcnemar 1 9)" = 0.021484375 ] || fail "1 9: $(mcnemar 1 9)"
    # against scipy's binomtest (two-sided, p = 1/2) where it is installed
    if "$PY" -c 'from scipy.stats import binomtest' 2>/dev/null; then
        local bc want got
        for bc in "3 12" "20 50" "40 0" "7 8" "100 130" "0 1"; do
            set -- $bc
            want=$("$PY" -c "from scipy.stats import binomtest; print(binomtest($1, $1 + $2, 0.5).pvalue)")
            got=$(mcnemar "$1" "$2")
            awk -v w="$want" -v g="$got" 'BEGIN { exit !((g - w) ^ 2 <= (1e-9 * w) ^ 2) }' ||
                fail "mcnemar $1 $2: $got, scipy $want"
        done
    fi
}

@test "precision.sh: --help; a bad option, or a kpca without --precision, stops it before any work" {
    run --separate-stderr sh "$PREC_SH" --help
    [ "$status" -eq 0 ] && [[ "$output" == *"usage: scripts/precision.sh"* ]] || { show_run; fail "--help"; }
    run --separate-stderr sh "$PREC_SH" --bogus
    [ "$status" -eq 2 ] && [ "$stderr" = "precision.sh: unknown option '--bogus' (see --help)" ] || { show_run; fail "--bogus"; }
    run --separate-stderr sh "$PREC_SH" --work
    [ "$status" -eq 2 ] && [ "$stderr" = "precision.sh: --work needs a value (see --help)" ] || { show_run; fail "--work"; }
    # a kpca whose fit has no --precision
    printf '#!/bin/sh\n[ "$2" = --help ] && { echo "usage: kpca fit"; exit 0; }\necho "$*" >>"%s/ran"\n' "$TMP" >"$TMP/kpca-old"
    chmod +x "$TMP/kpca-old"
    KPCA="$TMP/kpca-old" run --separate-stderr sh "$PREC_SH" --work "$TMP/w" --out "$OUT"
    [ "$status" -eq 2 ] && [[ "$stderr" == *"fit has no --precision"* ]] || { show_run; fail "old kpca"; }
    [ ! -e "$TMP/ran" ] && [ ! -e "$TMP/w" ] && [ -z "$(ls -A "$OUT")" ] || fail "work done without --precision"
}

@test "precision.sh: every cell of both grids, discordant digits and McNemar p from the predictions, a verdict" {
    precision_kpca
    # the single grid's eval uses another C: some digits change
    SINGLE_EVAL="-c 0.001" KPCA="$TMP/kpca-prec" run --separate-stderr sh "$PREC_SH" --degrees "1 2" \
        --components 8,16 --subset 300 --eval "-c 1" --work "$TMP/w" --out "$OUT"
    [ "$status" -eq 0 ] || { show_run; fail "precision.sh failed"; }
    local c="$OUT/precision.csv"
    [ "$(head -n 1 "$c")" = "degree,components,error_pct_double,error_pct_single,diff_pp,errors_double,errors_single,double_right_single_wrong,double_wrong_single_right,mcnemar_p" ]
    [ "$(tail -n +2 "$c" | cut -d, -f1,2 | paste -sd' ')" = "1,8 1,16 2,8 2,16" ] || { cat "$c"; fail "cells"; }
    # each grid ran in its precision, into its own directory
    grep -q '^fit .*--precision double' "$TMP/argv.log" && grep -q '^fit .*--precision single' "$TMP/argv.log"
    # the counts and p, recomputed from the two predictions files
    "$PY" - "$c" "$TMP/w/double/grid-predictions.csv" "$TMP/w/single/grid-predictions.csv" <<'PY' || fail "counts or p wrong"
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
d = list(csv.reader(open(sys.argv[2])))
s = list(csv.reader(open(sys.argv[3])))
assert d[0] == s[0]
for j, name in enumerate(d[0][1:], 1):
    r = rows[j - 1]
    assert name == "d%s_k%s" % (r["degree"], r["components"]), (name, r)
    okd = [x[j] == x[0] for x in d[1:]]
    oks = [x[j] == x[0] for x in s[1:]]
    b = sum(a and not z for a, z in zip(okd, oks))
    c = sum(z and not a for a, z in zip(okd, oks))
    n = b + c
    p = 1.0 if n == 0 else min(1.0, 2 * sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2 ** n)
    assert (int(r["double_right_single_wrong"]), int(r["double_wrong_single_right"])) == (b, c), (r, b, c)
    assert int(r["errors_double"]) == okd.count(False) and int(r["errors_single"]) == oks.count(False), r
    assert abs(float(r["mcnemar_p"]) - p) <= 1e-5 * p, (r, p)
    assert abs(float(r["diff_pp"]) - 100 * (oks.count(False) - okd.count(False)) / len(okd)) < 0.006, r
PY
    local moved
    moved=$("$PY" -c 'import csv, sys; print(sum(float(r["mcnemar_p"]) < 0.05 for r in csv.DictReader(open(sys.argv[1]))))' "$c")
    [ "$moved" -gt 0 ] || fail "C = 0.001 moved no cell: the test cannot tell a verdict"
    grep -q "^$moved of 4 cells move by more than chance (p < 0.05): d = " "$OUT/precision.md" || { cat "$OUT/precision.md"; fail "verdict"; }
    [[ "$stderr" == *"verdict: $moved cells move by more than chance"* ]] || { show_run; fail "verdict on stderr"; }
    # provenance: the load at start and end, and each grid's time
    assert_load_words "$OUT/precision.md"
    grep -q '^- run time of the double grid: [0-9]* s (every step computed); of the single grid: [0-9]* s (every step computed)$' "$OUT/precision.md"
    grep -q '^- kpca [0-9].* (commit ' "$OUT/precision.md"
    assert_no_tmp "$OUT"
    # the same precisions: no cell moves (rerun from the caches, single eval as double)
    rm -rf "$TMP/w/single"
    KPCA="$TMP/kpca-prec" run --separate-stderr sh "$PREC_SH" --degrees "1 2" --components 8,16 --subset 300 \
        --eval "-c 1" --work "$TMP/w" --out "$OUT"
    [ "$status" -eq 0 ] || { show_run; fail "second run failed"; }
    grep -q '^No cell moves by more than chance: p >= 0.05 in all 4 cells' "$OUT/precision.md" || { cat "$OUT/precision.md"; fail "verdict"; }
    [ "$(tail -n +2 "$c" | awk -F, '$8 + $9 > 0' | wc -l)" -eq 0 ] || { cat "$c"; fail "discordant digits between equal grids"; }
    grep -q 'the double grid: [0-9]* s (some steps reused' "$OUT/precision.md" || fail "the reuse is not said"
}

@test "precision.sh: what single costs in accuracy, per degree, from the two grids' models: eigenvalues, kept counts, projections" {
    precision_kpca
    KPCA="$TMP/kpca-prec" run --separate-stderr sh "$PREC_SH" --degrees "1 2" --components 8,100 --subset 300 \
        --eval "-c 1" --work "$TMP/w" --out "$OUT"
    [ "$status" -eq 0 ] || { show_run; fail "precision.sh failed"; }
    local a="$OUT/precision-accuracy.csv" d m
    [ "$(head -n 1 "$a")" = "degree,precision_single_model,components_double,components_single,smallest_kept_double,smallest_kept_single,eig_relerr_k64,eig_relerr_k256,eig_relerr_k1024,eig_relerr_k2048,proj_models_k64,proj_models_k256,proj_models_k2048,proj_gemm_k64,proj_gemm_k256,proj_gemm_k2048" ] ||
        { head -n 1 "$a"; fail "header"; }
    # the stand-in's errors of the single models, recomputed from the real
    # double models' spectra and test projections
    for d in 1 2; do
        m="$TMP/w/double/fit-m300-s0/d$d.model"
        "$KPCA" spectrum -q --csv - "$m" >"$TMP/spec$d.csv"
        "$KPCA" transform -q "$m" "$DATA/zip.test.gz" -o "$TMP/z$d.csv"
    done
    "$PY" - "$a" "$TMP" <<'PY' || { cat "$a"; fail "the accuracy numbers are wrong"; }
import csv, sys
rows = {r["degree"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert sorted(rows) == ["1", "2"], rows
def close(r, key, want):
    assert abs(float(r[key]) - want) <= 1e-5 * abs(want), (r["degree"], key, r[key], want)
for d, r in rows.items():
    mu = [float(x["eigenvalue"]) for x in csv.DictReader(open(f"{sys.argv[2]}/spec{d}.csv"))]
    n = len(mu)
    assert n == 100 and r["components_double"] == r["components_single"] == "100", r
    assert r["precision_single_model"] == "single", r
    close(r, "smallest_kept_double", mu[-1] / mu[0])
    close(r, "smallest_kept_single", mu[-1] * (1 + n * 1e-7) / (mu[0] * (1 + 1e-7)))
    # the largest k 1e-7 over k <= 64, then over all 100; nothing past 100
    close(r, "eig_relerr_k64", 64e-7)
    close(r, "eig_relerr_k256", 100e-7)
    assert r["eig_relerr_k1024"] == r["eig_relerr_k2048"] == "", r
    z = [[float(v) for v in row[1:]] for row in list(csv.reader(open(f"{sys.argv[2]}/z{d}.csv")))[1:]]
    assert len(z) == 2007 and len(z[0]) == 100
    for bound, col in ((64, "k64"), (100, "k256")):
        big = max(abs(v) for row in z for v in row[:bound])
        # single model in single against the double model, over the double's largest |z|
        dm = max(abs(v * (1.01 * (1 + (k + 1) * 1e-5) - 1)) for row in z for k, v in enumerate(row[:bound]))
        close(r, "proj_models_" + col, dm / big)
        # single model in single against in double, over the latter's largest |z|
        dg = max(abs(v * 1.01 * (k + 1) * 1e-5) for row in z for k, v in enumerate(row[:bound]))
        close(r, "proj_gemm_" + col, dg / (1.01 * big))
    assert r["proj_models_k2048"] == r["proj_gemm_k2048"] == "", r
PY
    # the Markdown: a row per degree, the summary over them, the default
    local md="$OUT/precision.md"
    grep -q '^## What single precision costs in accuracy$' "$md" || { cat "$md"; fail "no accuracy section"; }
    for d in 1 2; do
        grep -q "^| $d | 100 / 100 | [0-9.e+-]* / [0-9.e+-]* | 6.4e-06 / 1.0e-05 / – / – | [0-9.e+-]* / [0-9.e+-]* / – | [0-9.e+-]* / [0-9.e+-]* / – |$" "$md" ||
            { cat "$md"; fail "no row for d = $d"; }
    done
    grep -q '^Over all 2 degrees, the single eigenvalues are within 1.0e-05 of the double ones' "$md" || { cat "$md"; fail "summary"; }
    grep -q 'The default stays double' "$md" && grep -q '(tests/cli/sklearn.bats)' "$md" || { cat "$md"; fail "no word on the default"; }
    ! grep -q 'records precision double' "$md" || fail "a single model said to be double"
    [[ "$stderr" == *"results: $md $OUT/precision.csv $a"* ]] || { show_run; fail "results line"; }
    assert_no_tmp "$OUT"
    assert_no_tmp "$TMP/w"
}
