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

@test "cluster on 10^6 points: the 8 blobs found, in memory independent of the points (peak RSS)" {
    [ -x /usr/bin/time ] || skip "no /usr/bin/time to measure the peak RSS"
    have_h5py || skip "no numpy in $PY"
    # 10^6 points of 4 float64 features in 8 blobs (the corners of a cube in
    # the first 3 features, 10 apart, sd 0.5); each point's blob in a file
    "$PY" - "$TMP" <<'PYEOF'
import sys, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(33)
n = 10**6
y = rng.integers(0, 8, n)
corner = np.stack([(y >> b) & 1 for b in range(3)] + [np.zeros(n, dtype=int)], axis=1)
np.save(d + "/big.npy", 10.0 * corner + 0.5 * rng.standard_normal((n, 4)))
np.savetxt(d + "/blob.txt", y, fmt="%d")
np.save(d + "/tiny.npy", rng.standard_normal((100, 4)))
PYEOF
    # the process's own floor: the same command on 100 points
    /usr/bin/time -f %M -o "$TMP/tiny.kb" "$KPCA" cluster -q -k 8 "$TMP/tiny.npy" >/dev/null
    # under ASan (make asan), no quarantine: it keeps freed blocks out of reuse
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"
    run --separate-stderr /usr/bin/time -f %M -o "$TMP/big.kb" "$KPCA" cluster -q -k 8 "$TMP/big.npy" -o "$OUT/c.txt"
    assert_status 0
    [ "$(wc -l <"$OUT/c.txt")" -eq 1000000 ] || fail "$(wc -l <"$OUT/c.txt") cluster lines, not 10^6"
    # the clusters are the blobs: each blob in one cluster, a cluster per blob
    paste -d' ' "$TMP/blob.txt" "$OUT/c.txt" | sort | uniq -c | sort -k2,2n -k1,1nr >"$TMP/pairs"
    awk '!seen[$2]++ { mode += $1; used[$3]++ } { total += $1 }
         END { for (c in used) if (used[c] > 1) exit 1; exit !(mode >= 0.999 * total) }' "$TMP/pairs" ||
        { cat "$TMP/pairs"; fail "the clusters are not the 8 blobs"; }
    # the bound: the floor and 16 MiB for the sample of 65536 points (2 MiB),
    # the k-means blocks and the reader's and stdio's buffers.  Holding the
    # features alone (8 x 4 bytes a point, 31 250 KiB) would exceed it.
    local floor big bound
    floor=$(tail -n 1 "$TMP/tiny.kb")
    big=$(tail -n 1 "$TMP/big.kb")
    bound=$((floor + 16 * 1024))
    [ "$big" -lt "$bound" ] || fail "peak RSS $big KiB, above the bound of $bound KiB (floor $floor KiB)"
    [ $((bound - floor)) -lt $((32 * 1000000 / 1024)) ] || fail "the bound would not catch the features held"
}

# blobs N FILE: N points (8 values, float64 .npy) of 3 blobs 20 apart in the
# first value, label i % 3 in FILE.labels (seeded: the same on every run)
blobs_npy() {
    "$PY" - "$1" "$2" <<'PYEOF'
import sys, numpy as np
n, path = int(sys.argv[1]), sys.argv[2]
rng = np.random.default_rng(5)
y = np.arange(n) % 3
x = rng.normal(size=(n, 8))
x[:, 0] += 20.0 * y
np.save(path, x)
np.savetxt(path + ".labels", y, fmt="%d")
PYEOF
}

@test "cluster of more points than its sample (65536): read a block at a time, every point's cluster, the blobs found, the same on a second run" {
    have_h5py || skip "no numpy in $PY"
    blobs_npy 70000 "$TMP/b.npy"
    run --separate-stderr "$KPCA" cluster -k 3 "$TMP/b.npy" --labels "$TMP/b.npy.labels" -o "$OUT/c.txt"
    assert_status 0
    assert_stderr_contains "70000 points" "a block at a time" "on a sample of 65536 points" "passes over all the points"
    [ "$(wc -l <"$OUT/c.txt")" -eq 70000 ] || fail "not a cluster for every point"
    awk '!($1 == 0 || $1 == 1 || $1 == 2) { bad = 1 } END { exit bad }' "$OUT/c.txt" || fail "a cluster outside 0..2"
    # the table counts every point once; the blobs are recovered
    total=$(awk '/^contingency/ { t = 1; next } t && $1 ~ /^[0-9]+$/ { for (j = 2; j <= NF; j++) s += $j } END { print s }' <<<"$output")
    [ "$total" -eq 70000 ] || fail "the table counts $total points"
    assert_stdout_contains "adjusted Rand index: 1.000000"
    # the table is the clusters' file against the labels
    paste -d' ' "$OUT/c.txt" "$TMP/b.npy.labels" | sort | uniq -c | sort -k2,3 >"$TMP/pairs"
    while read -r cnt c l; do
        awk -v c="$c" -v l="$l" -v want="$cnt" '/^contingency/ { t = 1; next } t && $1 == c { exit !($(l + 2) == want) }' <<<"$output" ||
            fail "cluster $c, label $l: the table does not say $cnt"
    done <"$TMP/pairs"
    # -o - gives the same clusters, and a second run the same bytes
    run --separate-stderr "$KPCA" cluster -q -k 3 "$TMP/b.npy" -o -
    assert_status 0
    [ "$output" = "$(cat "$OUT/c.txt")" ] || fail "-o - or the second run differs"
}

@test "cluster of a large CSV with a bad value at row 69000: the usual error, no output" {
    have_h5py || skip "no numpy in $PY"
    blobs_npy 70000 "$TMP/b.npy"
    "$PY" -c 'import sys, numpy as np; np.savetxt(sys.argv[2], np.load(sys.argv[1]), delimiter=",", fmt="%.6g")' \
        "$TMP/b.npy" "$TMP/b.csv"
    sed -i '69000s/^[^,]*,/1.5x,/' "$TMP/b.csv"
    run --separate-stderr "$KPCA" cluster -k 3 "$TMP/b.csv" -o "$OUT/c.txt"
    assert_status 3
    assert_stderr_contains "b.csv" "69000" "1.5x"
    assert_no_output "$OUT/c.txt"
}
