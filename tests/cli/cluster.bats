#!/usr/bin/env bats
# cluster.bats - kpca cluster: k-means on leading features, the contingency
# table and the adjusted Rand index against the labels, the -o file (the
# arithmetic is tested in tests/unit/classify/test_cluster.c).

load ../helper

setup() {
    common_setup
    head_rows "$DATA/zip.train.gz" 300 "$TMP/train.txt"
    gzip -dc "$DATA/zip.test.gz" | head -n 200 >"$TMP/test.txt"
    "$KPCA" fit -q -d 3 -m 300 -k 12 "$TMP/train.txt" -o "$TMP/m.h5"
    "$KPCA" transform -q "$TMP/m.h5" "$TMP/test.txt" -o "$TMP/f.h5"
}

@test "cluster prints the inertia, the contingency table and an ARI in [-1, 1]" {
    run --separate-stderr "$KPCA" cluster -q -k 10 --components 8 "$TMP/f.h5"
    assert_status 0
    assert_stdout_contains "inertia: " "contingency" "adjusted Rand index: "
    local ari
    ari=$(awk -F': ' '/^adjusted Rand index/ { print $2 }' <<<"$output")
    awk -v a="$ari" 'BEGIN { exit !(a != "" && a >= -1 && a <= 1) }' || { show_run; fail "ARI '$ari' not in [-1, 1]"; }
    # the table: a row per cluster, and its counts add up to the 200 points
    local rows total
    rows=$(awk '/^contingency/ { t = 1; next } t && $1 ~ /^[0-9]+$/ { n++ } END { print n }' <<<"$output")
    [ "$rows" -eq 10 ] || { show_run; fail "$rows table rows, not 10"; }
    total=$(awk '/^contingency/ { t = 1; next } t && $1 ~ /^[0-9]+$/ { for (j = 2; j <= NF; j++) s += $j } END { print s }' <<<"$output")
    [ "$total" -eq 200 ] || { show_run; fail "the table counts $total points, not 200"; }
}

@test "cluster -o writes a cluster per point, 0..C-1; the same seed gives the same bytes" {
    "$KPCA" cluster -q -k 5 -s 7 "$TMP/f.h5" -o "$OUT/a.txt" >"$TMP/a.out"
    "$KPCA" cluster -q -k 5 -s 7 "$TMP/f.h5" -o "$OUT/b.txt" >"$TMP/b.out"
    [ "$(wc -l <"$OUT/a.txt")" -eq 200 ] || fail "$(wc -l <"$OUT/a.txt") lines, not 200"
    awk '!/^[0-4]$/ { bad = 1 } END { exit bad }' "$OUT/a.txt" || fail "a line that is not a cluster 0..4"
    cmp "$OUT/a.txt" "$OUT/b.txt" || fail "the same seed gave other clusters"
    cmp "$TMP/a.out" "$TMP/b.out" || fail "the same seed gave another report"
    # -o - : the clusters alone on standard output
    run --separate-stderr "$KPCA" cluster -q -k 5 -s 7 "$TMP/f.h5" -o -
    assert_status 0
    [ "$output" = "$(cat "$OUT/a.txt")" ] || { show_run; fail "-o - differs from the file"; }
}

@test "cluster: bad -k or --components is refused with exit 2 and no output" {
    for k in 0 -3 abc 1.5; do
        run --separate-stderr "$KPCA" cluster -k "$k" "$TMP/f.h5" -o "$OUT/c.txt"
        assert_status 2
        assert_stderr_contains "--clusters"
    done
    run --separate-stderr "$KPCA" cluster "$TMP/f.h5" -o "$OUT/c.txt"
    assert_status 2
    assert_stderr_contains "-k C"
    run --separate-stderr "$KPCA" cluster -k 201 "$TMP/f.h5" -o "$OUT/c.txt"
    assert_status 2
    assert_error_names "$TMP/f.h5"
    assert_stderr_contains "201 clusters" "200 points"
    run --separate-stderr "$KPCA" cluster -k 3 --components 13 "$TMP/f.h5" -o "$OUT/c.txt"
    assert_status 2
    assert_stderr_contains "13 components" "12 features"
    assert_no_output "$OUT/c.txt"
}

@test "cluster -o refuses to overwrite its input" {
    cp "$TMP/f.h5" "$OUT/f.h5"
    run --separate-stderr "$KPCA" cluster -k 3 "$OUT/f.h5" -o "$OUT/f.h5"
    assert_status 2
    cmp -s "$OUT/f.h5" "$TMP/f.h5" || fail "the input was changed"
}

@test "cluster on well separated labels recovers them: ARI 1" {
    # two blobs far apart in the first feature, labels -1 and +1 (LIBSVM)
    awk 'BEGIN { for (i = 0; i < 40; i++) printf "%d 1:%d 2:%g\n", i % 2 ? 1 : -1, i % 2 ? 100 : 1, (i % 5 + 1) / 10 }' \
        >"$TMP/blobs.svm"
    run --separate-stderr "$KPCA" cluster -q -k 2 "$TMP/blobs.svm"
    assert_status 0
    assert_stdout_contains "adjusted Rand index: 1.000000" "      -1       1"
}

@test "cluster on features without labels: the inertia alone, and a note saying why; --labels adds the comparison" {
    "$KPCA" transform -q -k 4 "$TMP/m.h5" "$TMP/test.txt" -o "$TMP/f.npy"
    run --separate-stderr "$KPCA" cluster -k 3 "$TMP/f.npy"
    assert_status 0
    assert_stdout_contains "inertia: "
    [[ "$output" != *contingency* ]] || { show_run; fail "a table without labels"; }
    assert_stderr_contains "has no labels: no contingency table or adjusted Rand index"
    cut -d' ' -f1 "$TMP/test.txt" >"$TMP/y.txt"
    run --separate-stderr "$KPCA" cluster -q -k 3 "$TMP/f.npy" --labels "$TMP/y.txt"
    assert_status 0
    assert_stdout_contains "contingency" "adjusted Rand index: "
}
