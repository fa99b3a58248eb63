#!/usr/bin/env bats
# determinism.bats - the same inputs (and thread count) give byte-identical
# models, features and tables; eval's tables do not depend on --threads.
# The one field that may differ is eval's train_seconds (a timing) in --csv.

load ../helper

setup_file() {
    local d
    d="$(file_tmp)"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.train.gz" | head -n 600 >"$d/train.txt"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.test.gz" | head -n 200 >"$d/test.txt"
}

setup() {
    common_setup
    FIX="$(file_tmp)"
}

@test "fit twice, with a random subset too: byte-identical models" {
    local a
    for a in "-m 300" "-m 300 -s 7"; do
        # shellcheck disable=SC2086
        "$KPCA" fit -q -d 3 $a -k 20 "$FIX/train.txt" -o "$OUT/a.h5"
        sleep 1.1 # a second later: a time stamp in the file would show
        # shellcheck disable=SC2086
        "$KPCA" fit -q -d 3 $a -k 20 "$FIX/train.txt" -o "$OUT/b.h5"
        cmp "$OUT/a.h5" "$OUT/b.h5" || fail "models differ ($a)"
    done
}

@test "transform twice, every format: byte-identical features" {
    "$KPCA" fit -q -d 3 -m 300 -k 20 "$FIX/train.txt" -o "$OUT/m.h5"
    local f
    for f in h5 svm csv; do
        "$KPCA" transform -q "$OUT/m.h5" "$FIX/test.txt" -o "$OUT/a.$f"
        [ "$f" != h5 ] || sleep 1.1
        "$KPCA" transform -q "$OUT/m.h5" "$FIX/test.txt" -o "$OUT/b.$f"
        cmp "$OUT/a.$f" "$OUT/b.$f" || fail "$f features differ"
    done
}

@test "eval with 1, 2 and 3 threads, SVM and cross-validation: identical tables" {
    "$KPCA" fit -q -d 3 -m 300 -k 20 "$FIX/train.txt" -o "$OUT/m.h5"
    "$KPCA" transform -q "$OUT/m.h5" "$FIX/train.txt" -o "$OUT/tr.h5"
    "$KPCA" transform -q "$OUT/m.h5" "$FIX/test.txt" -o "$OUT/te.h5"
    local t
    for t in 1 2 3; do
        "$KPCA" eval -q -t "$t" -k 5,10,20 -c 1,10 --folds 3 "$OUT/tr.h5" "$OUT/te.h5" \
            --csv "$OUT/t$t.csv" --markdown "$OUT/t$t.md" >"$OUT/t$t.txt"
        # drop the timing column, whichever it is
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "train_seconds") c = i }
                 { out = ""; for (i = 1; i <= NF; i++) if (i != c) out = out (out == "" ? "" : ",") $i; print out }' \
            "$OUT/t$t.csv" >"$OUT/t$t.notime.csv"
    done
    for t in 2 3; do
        cmp "$OUT/t1.txt" "$OUT/t$t.txt" || fail "the printed table differs with $t threads"
        cmp "$OUT/t1.notime.csv" "$OUT/t$t.notime.csv" || fail "the CSV differs with $t threads"
        # the Markdown table without its train_seconds column (the 8th)
        diff <(awk -F'|' -v OFS='|' '{ $9 = ""; print }' "$OUT/t1.md") \
             <(awk -F'|' -v OFS='|' '{ $9 = ""; print }' "$OUT/t$t.md") || fail "the Markdown table differs with $t threads"
    done
    [ "$(wc -l <"$OUT/t1.notime.csv")" -eq 4 ] || fail "expected a header and 3 rows"
}
