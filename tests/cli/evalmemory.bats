#!/usr/bin/env bats
# evalmemory.bats - kpca eval within the memory budget: the default backend
# is gram while its Gram matrix and LIBSVM's rows of it fit, else liblinear
# with a note (the table is --backend liblinear's, byte for byte); a gram
# backend asked for that does not fit is refused, naming liblinear; on USPS
# the default stays gram, and the crossover is the budget formula of
# docs/guarantees.md.
#
# Small data: 1000 training and 500 test digits on 16 components of a
# -d 3 -m 300 model; USPS: all 7291 training digits on the same model.

load ../helper

setup_file() {
    local d k="${KPCA:-$BATS_TEST_DIRNAME/../../build/kpca}"
    d="$(file_tmp)"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.train.gz" >"$d/all.txt"
    head -n 1000 "$d/all.txt" >"$d/train.txt"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.test.gz" | head -n 500 >"$d/test.txt"
    "$k" fit -q -d 3 -m 300 -k 16 "$d/train.txt" -o "$d/model.h5"
    "$k" transform -q "$d/model.h5" "$d/train.txt" -o "$d/train.h5"
    "$k" transform -q "$d/model.h5" "$d/test.txt" -o "$d/test.h5"
    "$k" transform -q "$d/model.h5" "$d/all.txt" -o "$d/usps.h5"
}

setup() {
    common_setup
    FIX="$(file_tmp)"
    [ -s "$FIX/usps.h5" ] || fail "setup_file could not make the features"
}

# the 1000 x 1000 Gram matrix alone takes 6 MiB: 4M holds the data and
# LIBLINEAR's rows (16 x 18 bytes a point), not the gram backend
@test "eval: a Gram matrix over --memory-limit falls back to liblinear with a note; the table is --backend liblinear's" {
    run --separate-stderr "$KPCA" eval --memory-limit 4M "$FIX/train.h5" "$FIX/test.h5" --csv "$OUT/auto.csv"
    assert_status 0
    local auto="$output" note
    note=$(grep '^note: ' <<<"$stderr")
    [ "$(grep -c '^note: ' <<<"$stderr")" -eq 1 ] || { show_run; fail "not one note"; }
    [[ "$note" == *"default backend, gram, would need about "*" MiB (the 1000 x 1000 training Gram matrix and LIBSVM's rows of it), more than the memory budget of 4.0 MiB: training with liblinear instead (about "*"); --backend chooses"* ]] ||
        { show_run; fail "the note does not name the sizes and --backend: '$note'"; }
    assert_stderr_contains "backend liblinear"
    run --separate-stderr "$KPCA" eval --memory-limit 4M --backend liblinear "$FIX/train.h5" "$FIX/test.h5" --csv "$OUT/lin.csv"
    assert_status 0
    [ "$auto" = "$output" ] || { show_run; fail "the fallback's table is not --backend liblinear's"; }
    [[ "$stderr" != *note:* ]] || { show_run; fail "a note for a backend asked for"; }
    # the CSV too, but for the train_seconds column
    cmp <(cut -d, -f1-7,9- "$OUT/auto.csv") <(cut -d, -f1-7,9- "$OUT/lin.csv") || fail "the CSV tables differ"
    # and without a budget it is liblinear's too (the machines do not depend on it)
    run --separate-stderr "$KPCA" eval -q --memory-limit 0 --backend liblinear "$FIX/train.h5" "$FIX/test.h5"
    [ "$auto" = "$output" ] || fail "liblinear under no budget gives another table"
    # -q does not hide the note: the backend changed
    run --separate-stderr "$KPCA" eval -q --memory-limit 4M "$FIX/train.h5" "$FIX/test.h5"
    assert_status 0
    [ "$auto" = "$output" ] || fail "-q changed the table"
    assert_stderr_contains "note: the default backend, gram, would need"
    # the gram backend's own table differs (another solver): the fallback did happen
    run --separate-stderr "$KPCA" eval -q --memory-limit 0 "$FIX/train.h5" "$FIX/test.h5"
    [ "$auto" != "$output" ] || fail "gram and liblinear gave the same table: the test cannot tell them apart"
}

@test "eval --backend gram over the budget is refused: exit 6, both sizes and --backend liblinear named, no output" {
    run --separate-stderr "$KPCA" eval --memory-limit 4M --backend gram "$FIX/train.h5" "$FIX/test.h5" \
        --csv "$OUT/t.csv" --predictions "$OUT/p.txt"
    assert_status 6
    assert_stderr_contains "error: --backend gram needs about " \
        "(the 1000 x 1000 training Gram matrix and LIBSVM's rows of it), more than the memory budget of 4.0 MiB; --backend liblinear needs about" \
        "hint: the memory budget is 4.0 MiB: --memory-limit"
    [ -z "$output" ] || { show_run; fail "a table on stdout"; }
    assert_no_output "$OUT/t.csv"
    assert_no_output "$OUT/p.txt"
    # --precision single asks for the gram backend as well
    run --separate-stderr "$KPCA" eval --memory-limit 4M --precision single "$FIX/train.h5" "$FIX/test.h5"
    assert_status 6
    assert_stderr_contains "error: --precision single (the gram backend's) needs about" "--backend liblinear needs about"
}

@test "eval: when liblinear does not fit either, both sizes are named: exit 6" {
    # 1500 points of 256 values: 3 MiB to read, 6 MiB of LIBLINEAR rows
    awk 'BEGIN { for (i = 0; i < 1500; i++) { printf "%d", i % 10; for (j = 1; j <= 256; j++) printf " %d:%.2f", j, ((i * j) % 101) / 101; printf "\n" } }' >"$TMP/wide.svm"
    run --separate-stderr "$KPCA" eval --memory-limit 5M "$TMP/wide.svm" "$TMP/wide.svm" --csv "$OUT/t.csv"
    assert_status 6
    assert_stderr_contains "error: no backend fits the memory budget of 5.0 MiB: gram needs about " \
        "(the 1500 x 1500 training Gram matrix and LIBSVM's rows of it), liblinear about 6.0 MiB (LIBLINEAR's copy of 1500 training points)"
    assert_no_output "$OUT/t.csv"
    # the first 16 components fit: liblinear, with the note
    run --separate-stderr "$KPCA" eval -q --memory-limit 5M -k 16 "$TMP/wide.svm" "$TMP/wide.svm"
    assert_status 0
    assert_stderr_contains "note: the default backend, gram, would need about"
}

@test "eval: --predictions and --scale std count in the budget; over it they are refused clearly" {
    # 2048 prefixes: their predictions take 4 MiB for 500 test points
    local ks
    ks=$(seq -s, 1 16)
    for _ in 1 2 3 4 5 6 7; do ks="$ks,$ks"; done
    run --separate-stderr "$KPCA" eval --memory-limit 4M --backend liblinear -k "$ks" "$FIX/train.h5" "$FIX/test.h5" \
        --predictions "$OUT/p.txt"
    assert_status 6
    assert_stderr_contains "error: eval with the liblinear backend needs about 4." "more than the memory budget of 4.0 MiB"
    assert_no_output "$OUT/p.txt"
    run --separate-stderr "$KPCA" eval -q --memory-limit 4M --backend liblinear -k "$ks" "$FIX/train.h5" "$FIX/test.h5"
    assert_status 0
    # --scale std: scaled copies of TRAIN and TEST, 8 x 256 bytes a point
    awk 'BEGIN { for (i = 0; i < 1500; i++) { printf "%d", i % 10; for (j = 1; j <= 256; j++) printf " %d:%.2f", j, ((i * j) % 101) / 101; printf "\n" } }' >"$TMP/wide.svm"
    run --separate-stderr "$KPCA" eval --memory-limit 5M --backend liblinear -k 16 --scale std "$TMP/wide.svm" "$TMP/wide.svm"
    assert_status 6
    assert_stderr_contains "error: eval with the liblinear backend needs about 6." "more than the memory budget of 5.0 MiB"
    run --separate-stderr "$KPCA" eval -q --memory-limit 5M --backend liblinear -k 16 "$TMP/wide.svm" "$TMP/wide.svm"
    assert_status 0
}

# The gram backend's estimate (docs/guarantees.md) for n training points of
# d features whose two largest classes hold s: the striped upper triangle
# and the features in class order, 8 (len + n d); LIBSVM's rows of the
# largest one-vs-one problem and its kernel cache, 16 s (s + 2) +
# min(200 MiB, 4 s^2); the points' indices, 48 n.
gram_need() {
    awk -v n="$1" -v d="$2" -v s="$3" 'BEGIN {
        for (i0 = 0; i0 < n; i0 += 512) len += (n - i0 < 512 ? n - i0 : 512) * (n - i0)
        c = 4 * s * s; if (c > 200 * 1048576) c = 200 * 1048576
        printf "%.0f\n", 8 * (len + n * d) + 16 * s * (s + 2) + c + 48 * n }'
}

@test "eval on USPS's 7291 training digits: gram by default, and the crossover is the budget formula" {
    # the headline protocol is unchanged...
    run --separate-stderr "$KPCA" eval --print-defaults
    [ "$output" = "--multiclass ovo --scale norm -c 10" ] || fail "--print-defaults printed '$output'"
    # ...and, with the default budget (the memory available), trains LIBSVM on the Gram matrix
    run --separate-stderr "$KPCA" eval "$FIX/usps.h5" "$FIX/test.h5"
    assert_status 0
    local gram="$output"
    assert_stderr_contains "eval: 7291 training and 500 test points, C = 10, ovo, scale norm, backend gram"
    [[ "$stderr" != *note:* ]] || { show_run; fail "a note on USPS"; }
    # the crossover: s = the two largest digits of the training set
    local s need
    s=$(gzip -dc "$DATA/zip.train.gz" | awk '{ c[$1 + 0]++ } END { for (k in c) print c[k] }' | sort -nr |
        head -n 2 | awk '{ t += $1 } END { print t }')
    [ "$s" -eq 2199 ] || fail "the two largest digits hold $s, not 1194 + 1005"
    need=$(gram_need 7291 16 "$s")
    run --separate-stderr "$KPCA" eval --memory-limit "$((need + need / 100))" "$FIX/usps.h5" "$FIX/test.h5"
    assert_status 0
    assert_stderr_contains "backend gram"
    [ "$output" = "$gram" ] || fail "another table under a budget that holds it"
    run --separate-stderr "$KPCA" eval --memory-limit "$((need - need / 100))" "$FIX/usps.h5" "$FIX/test.h5"
    assert_status 0
    assert_stderr_contains "note: the default backend, gram, would need about" "backend liblinear"
}
