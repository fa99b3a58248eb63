#!/usr/bin/env bats
# kth.bats - scripts/kth.sh (make kth) in its quick mode: 600 training and
# 300 test digits, d = 1 and 3, 128 and 512 components, two seeds.  One run
# serves every test (setup_file); the tests read its outputs.

load ../helper

setup_file() {
    local kpca="${KPCA:-$BATS_TEST_DIRNAME/../../build/kpca}"
    [ -x "$kpca" ] || return 0
    KTH_DIR="$(file_tmp)/kth"
    export KTH_DIR
    mkdir -p "$KTH_DIR"
    KPCA="$kpca" sh "$BATS_TEST_DIRNAME/../../scripts/kth.sh" --quick --out "$KTH_DIR/out" --work "$KTH_DIR/work" \
        >"$KTH_DIR/log" 2>&1 || echo failed >"$KTH_DIR/status"
}

setup() {
    common_setup
    [ ! -e "$KTH_DIR/status" ] || { cat "$KTH_DIR/log" >&2; fail "kth.sh --quick failed"; }
    R="$KTH_DIR/out"
}

@test "kth: kth.md, kth.csv (and kth.png with gnuplot), provenance, no temporary files" {
    [ -s "$R/kth.md" ] && [ -s "$R/kth.csv" ] || fail "no results"
    [ "$(head -n 1 "$R/kth.csv")" = "choice,classifier,degree,components,runs,error_pct,min_pct,max_pct,ci95_low,ci95_high,ridge_max,report,report_low,report_high,report_in_ci,note" ]
    grep -q '^- command: `scripts/kth.sh --quick' "$R/kth.md" || fail "no command"
    grep -q '^- kpca [0-9][^ ]* (commit [^ ]*), 20' "$R/kth.md" || fail "no version, commit, date"
    grep -q '^- machine: ' "$R/kth.md" || fail "no machine"
    assert_load_words "$R/kth.md"
    # every choice and classifier has its 2 x 2 cells
    [ "$(awk -F, 'NR > 1 && $1 != "tol0"' "$R/kth.csv" | wc -l)" -eq 24 ] || fail "cells: $(wc -l <"$R/kth.csv")"
    if command -v gnuplot >/dev/null; then
        [ "$(head -c 4 "$R/kth.png" | od -An -c | tr -d ' ')" = "211PNG" ] || fail "no PNG"
    fi
    [ -z "$(find "$R" "$KTH_DIR/work" -name '.*tmp*')" ] || fail "a temporary file was left"
}

@test "kth: the report's stated numbers stand beside ours" {
    # LDA d = 1 at 128 components: 8.2 % in the CSV and in the Markdown cell
    awk -F, '$1 == "first" && $2 == "lda" && $3 == 1 && $4 == 128 && $12 == "8.2" && $6 != "" { f = 1 } END { exit !f }' "$R/kth.csv" ||
        fail "no 8.2 beside the LDA d=1 cell"
    grep -q '^| 128 | [0-9.]* ([0-9.]*–[0-9.]*); report 8.2 [✓✗] |' "$R/kth.md" || fail "the LDA grid lacks the report's 8.2"
    # the 5-6 % band at 128 (d = 3), the SVM's 6.6 % at 512 (d = 1)
    awk -F, '$2 == "lda" && $3 == 3 && $4 == 128 && $12 == "5-6" && $13 == 5 && $14 == 6 { n++ } END { exit n != 3 }' "$R/kth.csv" ||
        fail "no 5-6 band in every choice"
    grep -q '^| SVM, d = 1, 512 components | 6.6 |' "$R/kth.md" || fail "no 6.6"
    grep -q '^| SVM, best degree (d > 1) at 128,512 components | 3 or 4 |' "$R/kth.md" || fail "no best degree"
    # report_in_ci says whether the figure meets the interval
    awk -F, 'NR > 1 && $15 != "" { inside = ($14 + 0 >= $9 + 0 && $13 + 0 <= $10 + 0); if (inside != $15) { print; bad = 1 } } END { exit bad }' "$R/kth.csv" ||
        fail "report_in_ci disagrees with the interval"
}

@test "kth: d = 1 past its components is n.a., with what kpca kept" {
    kept=$("$KPCA" info "$KTH_DIR/work/first/fit-m600-s0/d1.model" | awk '$1 == "components" { print $2 }')
    [ "$kept" -le 256 ] || fail "d = 1 kept $kept components"
    for ch in first train pool; do
        for clf in lda svm; do
            awk -F, -v ch=$ch -v clf=$clf -v kept="$kept" '$1 == ch && $2 == clf && $3 == 1 && $4 == 512 && $5 == 0 && $6 == "" &&
                $16 == "n.a.: d = 1 has " kept " components (the non-zero eigenvalues of K~)" { f = 1 } END { exit !f }' "$R/kth.csv" ||
                fail "$ch $clf: d=1 at 512 not marked n.a."
        done
    done
    grep -q '^| 512 | n.a.; report 6.6 |' "$R/kth.md" || fail "the SVM grid does not mark d=1 at 512"
    # the same cells of degree 3 exist (600 digits: 599 components)
    awk -F, '$3 == 3 && $4 == 512 && $1 != "tol0" && $5 > 0 { n++ } END { exit n != 6 }' "$R/kth.csv" || fail "d=3 at 512 missing"
}

@test "kth: Wilson intervals hold the point estimates; draws span their min and max" {
    awk -F, 'NR > 1 && $5 > 0 {
        if (!($9 <= $6 && $6 <= $10 && $9 >= 0 && $10 <= 100)) { print "interval", $0; bad = 1 }
        if (!($7 <= $6 && $6 <= $8)) { print "min/max", $0; bad = 1 }
        if ($1 == "first" && $7 != $8) { print "one run, two values", $0; bad = 1 }
    } END { exit bad }' "$R/kth.csv" || fail "an interval misses its estimate"
    # the interval of the first split's LDA d = 1 cell, recomputed from its error count
    e=$(awk -F, 'NR > 1 && $1 == 1 && $2 == 128 { print $4 }' "$KTH_DIR/work/first/out/lda.csv")
    lo=$(awk -v e="$e" 'BEGIN { z = 1.959963984540054; n = 300; p = e / n
        printf "%.2f", 100 * ((p + z * z / (2 * n)) - z * sqrt(p * (1 - p) / n + z * z / (4 * n * n))) / (1 + z * z / n) }')
    awk -F, -v lo="$lo" '$1 == "first" && $2 == "lda" && $3 == 1 && $4 == 128 && $9 == lo { f = 1 } END { exit !f }' "$R/kth.csv" ||
        fail "Wilson low bound is not $lo"
}

@test "kth: the splits are reproducible, of the stated sizes, and the pooled ones disjoint" {
    w="$KTH_DIR/work"
    [ "$(gzip -dc "$w/first/train.gz" | cksum)" = "$(gzip -dc "$DATA/zip.train.gz" | head -n 600 | cksum)" ] || fail "first: not the first 600"
    [ "$(gzip -dc "$w/first/test.gz" | cksum)" = "$(gzip -dc "$DATA/zip.test.gz" | head -n 300 | cksum)" ] || fail "first: not the first 300"
    for sp in train-s1 pool-s1 train-s2 pool-s2; do
        [ "$(gzip -dc "$w/$sp/train.gz" | wc -l)" -eq 600 ] && [ "$(gzip -dc "$w/$sp/test.gz" | wc -l)" -eq 300 ] || fail "$sp: sizes"
        grep -q "$sp $(gzip -dc "$w/$sp/train.gz" | cksum | cut -d' ' -f1) " "$R/kth.md" || fail "$sp: checksum not in kth.md"
    done
    [ "$(gzip -dc "$w/train-s1/train.gz" | cksum)" != "$(gzip -dc "$w/train-s2/train.gz" | cksum)" ] || fail "seeds draw alike"
    # pooled: training and test digits are different rows of the 9298
    [ -z "$(gzip -dc "$w/pool-s1/train.gz" "$w/pool-s1/test.gz" "$DATA/zip.train.gz" "$DATA/zip.test.gz" | sort | uniq -c | awk '$1 > 2')" ] ||
        fail "pool-s1: a row drawn twice"
    # a fresh draw with the same seed gives the same digits
    KPCA="$KPCA" run sh "$REPO/scripts/kth.sh" --quick --seeds 1 --out "$OUT" --work "$TMP/w"
    [ "$status" -eq 0 ] || { echo "$output"; fail "second run failed"; }
    cmp -s <(gzip -dc "$TMP/w/pool-s1/train.gz") <(gzip -dc "$w/pool-s1/train.gz") || fail "seed 1 drew other digits"
}

@test "kth: a bad option or --seeds value exits 2 with a message" {
    run sh "$REPO/scripts/kth.sh" --bogus
    [ "$status" -eq 2 ] && [[ "$output" == *"unknown option '--bogus'"* ]] || { echo "$output"; false; }
    run sh "$REPO/scripts/kth.sh" --seeds x
    [ "$status" -eq 2 ] && [[ "$output" == *"--seeds needs a whole number"* ]] || { echo "$output"; false; }
}
