#!/usr/bin/env bats
# compressed.bats - text compressed with gzip, bzip2, xz or zstd is read as
# the plain text is, by every command, whole and by blocks, the compression
# found from the content whatever the name; concatenated streams read as one
# text; a cut, a damaged byte or bytes after the last stream are refused,
# naming the file and the compression, with no output (after gzip's last
# member, zero bytes to the end are read past, as gzip reads them).  Each
# file is made here by Debian's gzip, bzip2, xz-utils and zstd.

load ../helper

# packs SRC: SRC.gz, SRC.bz2, SRC.xz, SRC.zst beside it
packs() {
    gzip -c "$1" >"$1.gz"
    bzip2 -c "$1" >"$1.bz2"
    xz -c "$1" >"$1.xz"
    zstd -q -c "$1" >"$1.zst"
}

setup() {
    common_setup
    local t
    for t in bzip2 xz zstd; do
        command -v "$t" >/dev/null || { [ "${CI:-}" != true ] || fail "CI=true and no $t"; skip "no $t ('make deps' installs it)"; }
    done
    head_rows "$DATA/zip.train.gz" 400 "$TMP/train.txt"
    head_rows "$DATA/zip.test.gz" 300 "$TMP/test.txt"
    "$KPCA" fit -q -d 2 -k 8 "$TMP/train.txt" -o "$TMP/m.h5"
    "$KPCA" transform -q "$TMP/m.h5" "$TMP/test.txt" -o "$TMP/want.csv"
}

@test "ESL text in gzip, bzip2, xz and zstd: fit, transform, eval and info as the plain text, whole and by blocks" {
    packs "$TMP/train.txt"
    packs "$TMP/test.txt"
    # eval of LIBSVM features, plain and compressed
    "$KPCA" transform -q "$TMP/m.h5" "$TMP/train.txt" -o "$TMP/ftrain.svm"
    "$KPCA" transform -q "$TMP/m.h5" "$TMP/test.txt" -o "$TMP/ftest.svm"
    packs "$TMP/ftrain.svm"
    packs "$TMP/ftest.svm"
    "$KPCA" eval -k 4,8 "$TMP/ftrain.svm" "$TMP/ftest.svm" --csv "$TMP/want_eval.csv" >/dev/null
    local c
    for c in gz bz2 xz zst; do
        run --separate-stderr "$KPCA" fit -q -d 2 -k 8 "$TMP/train.txt.$c" -o "$OUT/m.$c.h5"
        assert_status 0
        "$KPCA" transform -q "$OUT/m.$c.h5" "$TMP/test.txt" -o "$OUT/fit.$c.csv"
        cmp "$TMP/want.csv" "$OUT/fit.$c.csv" || fail "the model of train.txt.$c projects otherwise"
        # by blocks of 7 rows: the streamed read's windows over the decompressed text
        run --separate-stderr "$KPCA" transform -q --block 7 "$TMP/m.h5" "$TMP/test.txt.$c" -o "$OUT/z.$c.csv"
        assert_status 0
        cmp "$TMP/want.csv" "$OUT/z.$c.csv" || fail "transform of test.txt.$c differs from the plain text's"
        run --separate-stderr "$KPCA" eval -k 4,8 "$TMP/ftrain.svm.$c" "$TMP/ftest.svm.$c" --csv "$OUT/e.csv"
        assert_status 0
        # (every column but the seconds the SVMs took)
        cmp <(cut -d, -f1-7 "$TMP/want_eval.csv") <(cut -d, -f1-7 "$OUT/e.csv") ||
            fail "eval of LIBSVM features in .$c differs"
    done
    for c in bz2 xz zst; do
        local name
        name=$(case $c in bz2) echo bzip2 ;; zst) echo zstd ;; *) echo $c ;; esac)
        run --separate-stderr "$KPCA" info "$TMP/test.txt.$c"
        assert_stderr_contains "holds ESL text data ($name, 300 x 256)"
    done
}

@test "CSV with a header and class names, compressed: the Nystrom fit's passes and transform read as the plain file" {
    "$PY" - "$TMP/d.csv" <<'EOF'
import sys, random
random.seed(4)
with open(sys.argv[1], "w") as f:
    f.write("a,b,c,cls\n")
    for i in range(30000):
        f.write("%.5f,%.5f,%d,%s\n" % (random.random(), random.gauss(0, 1), i % 13, "xyz"[i % 3]))
EOF
    packs "$TMP/d.csv"
    "$KPCA" fit -q --solver nystrom --landmarks 40 -d 2 -k 4 --label cls "$TMP/d.csv" -o "$TMP/n.h5"
    "$KPCA" transform -q "$TMP/n.h5" "$TMP/d.csv" --label cls -o "$TMP/nz.csv"
    local c
    for c in gz bz2 xz zst; do
        run --separate-stderr "$KPCA" fit -q --solver nystrom --landmarks 40 -d 2 -k 4 --label cls "$TMP/d.csv.$c" \
            -o "$OUT/n.$c.h5"
        assert_status 0
        "$KPCA" transform -q "$OUT/n.$c.h5" "$TMP/d.csv" --label cls -o "$OUT/a.csv"
        cmp "$TMP/nz.csv" "$OUT/a.csv" || fail "the Nystrom model of d.csv.$c differs"
        run --separate-stderr "$KPCA" transform -q "$TMP/n.h5" "$TMP/d.csv.$c" --label cls -o "$OUT/b.csv"
        assert_status 0
        cmp "$TMP/nz.csv" "$OUT/b.csv" || fail "transform of d.csv.$c differs"
    done
}

@test "the compression is found from the content: bzip2 named .txt, xz named .gz, plain text named .zst" {
    bzip2 -c "$TMP/test.txt" >"$TMP/looks-plain.txt"
    xz -c "$TMP/test.txt" >"$TMP/looks-gzip.gz"
    cp "$TMP/test.txt" "$TMP/looks-zstd.zst"
    local f
    for f in looks-plain.txt looks-gzip.gz looks-zstd.zst; do
        run --separate-stderr "$KPCA" transform -q "$TMP/m.h5" "$TMP/$f" -o "$OUT/z.csv"
        assert_status 0
        cmp "$TMP/want.csv" "$OUT/z.csv" || fail "$f read otherwise"
    done
    # and through a pipe (spooled first, then found from its bytes)
    run --separate-stderr bash -c "zstd -q -c '$TMP/test.txt' | '$KPCA' transform -q '$TMP/m.h5' - -o '$OUT/p.csv'"
    assert_status 0
    cmp "$TMP/want.csv" "$OUT/p.csv" || fail "a zstd pipe read otherwise"
}

@test "streams one after the other read as one text, as the tools read them" {
    head -n 100 "$TMP/test.txt" >"$TMP/a.txt"
    tail -n +101 "$TMP/test.txt" >"$TMP/b.txt"
    { gzip -c "$TMP/a.txt"; gzip -c "$TMP/b.txt"; } >"$TMP/ab.gz"
    { bzip2 -c "$TMP/a.txt"; bzip2 -c "$TMP/b.txt"; } >"$TMP/ab.bz2"
    { xz -c "$TMP/a.txt"; xz -c "$TMP/b.txt"; } >"$TMP/ab.xz"
    { zstd -q -c "$TMP/a.txt"; zstd -q -c "$TMP/b.txt"; } >"$TMP/ab.zst"
    local f
    for f in ab.gz ab.bz2 ab.xz ab.zst; do
        run --separate-stderr "$KPCA" transform -q "$TMP/m.h5" "$TMP/$f" -o "$OUT/z.csv"
        assert_status 0
        cmp "$TMP/want.csv" "$OUT/z.csv" || fail "$f: not the 300 rows of both streams"
    done
}

@test "cut short, a damaged byte, bytes after the last stream: exit 3 naming the file and the compression, no output" {
    packs "$TMP/test.txt"
    local c name size
    for c in bz2 xz zst; do
        name=$(case $c in bz2) echo bzip2 ;; zst) echo zstd ;; *) echo $c ;; esac)
        size=$(stat -c %s "$TMP/test.txt.$c")
        head -c $((size - 20)) "$TMP/test.txt.$c" >"$TMP/cut.$c"
        run --separate-stderr "$KPCA" transform -q "$TMP/m.h5" "$TMP/cut.$c" -o "$OUT/z.csv"
        assert_status 3
        # (near the line of the damage where text before it decompresses:
        # bzip2 gives none of a block of 900 kB until its end)
        assert_stderr_contains "'$TMP/cut.$c'" "corrupt or truncated $name data"
        assert_no_output "$OUT/z.csv"
        run --separate-stderr "$KPCA" fit -q -k 2 "$TMP/cut.$c" -o "$OUT/m.h5"
        assert_status 3
        assert_stderr_contains "corrupt or truncated $name data"
        assert_no_output "$OUT/m.h5"
        cp "$TMP/test.txt.$c" "$TMP/bad.$c"
        chmod u+w "$TMP/bad.$c"
        flip_byte "$TMP/bad.$c" $((size / 2))
        run --separate-stderr "$KPCA" transform -q "$TMP/m.h5" "$TMP/bad.$c" -o "$OUT/z.csv"
        assert_status 3
        assert_stderr_contains "corrupt or truncated $name data"
        assert_no_output "$OUT/z.csv"
        { cat "$TMP/test.txt.$c"; printf 'trailing words\n'; } >"$TMP/more.$c"
        run --separate-stderr "$KPCA" transform -q "$TMP/m.h5" "$TMP/more.$c" -o "$OUT/z.csv"
        assert_status 3
        assert_stderr_contains "corrupt or truncated $name data"
        assert_no_output "$OUT/z.csv"
    done
}

@test "gzip: bytes after the last member are refused (gunzip warns and drops them); zero bytes to the end read, as gzip reads them" {
    head -n 100 "$TMP/test.txt" >"$TMP/a.txt"
    tail -n +101 "$TMP/test.txt" >"$TMP/b.txt"
    gzip -c "$TMP/test.txt" >"$TMP/one.gz"
    { gzip -c "$TMP/a.txt"; gzip -c "$TMP/b.txt"; } >"$TMP/two.gz"
    { cat "$TMP/one.gz"; tail -n 5 "$TMP/test.txt"; } >"$TMP/more1.gz"
    { cat "$TMP/two.gz"; tail -n 5 "$TMP/test.txt"; } >"$TMP/more2.gz"
    local f
    for f in more1.gz more2.gz; do
        run --separate-stderr "$KPCA" fit -q -d 2 -k 8 "$TMP/$f" -o "$OUT/m.h5"
        assert_status 3
        assert_stderr_contains "'$TMP/$f'" "corrupt or truncated gzip data (bytes after the last member are not gzip data)"
        assert_no_output "$OUT/m.h5"
        run --separate-stderr "$KPCA" transform -q "$TMP/m.h5" "$TMP/$f" -o "$OUT/z.csv"
        assert_status 3
        assert_stderr_contains "'$TMP/$f'" "corrupt or truncated gzip data (bytes after the last member are not gzip data)"
        assert_no_output "$OUT/z.csv"
        # by blocks: the streamed read's windows
        run --separate-stderr "$KPCA" transform -q --block 7 "$TMP/m.h5" "$TMP/$f" -o "$OUT/z.csv"
        assert_status 3
        assert_stderr_contains "'$TMP/$f'" "corrupt or truncated gzip data"
        assert_no_output "$OUT/z.csv"
    done
    # through a pipe (spooled, then read as the file)
    run --separate-stderr bash -c "cat '$TMP/more1.gz' | '$KPCA' transform -q '$TMP/m.h5' - -o '$OUT/p.csv'"
    assert_status 3
    assert_stderr_contains "'<stdin>'" "corrupt or truncated gzip data"
    assert_no_output "$OUT/p.csv"
    # CSV with a header and class names: the Nystrom fit's passes and its row count
    { printf 'a,b,cls\n'; awk '{ print $2 "," $3 "," ($1 % 2 ? "odd" : "even") }' "$TMP/test.txt"; } >"$TMP/d.csv"
    { gzip -c "$TMP/d.csv"; printf '5,6,odd\n7,8,even\n'; } >"$TMP/d.csv.gz"
    run --separate-stderr "$KPCA" fit -q --solver nystrom --landmarks 20 -d 2 -k 2 --label cls "$TMP/d.csv.gz" -o "$OUT/n.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/d.csv.gz'" "corrupt or truncated gzip data"
    assert_no_output "$OUT/n.h5"
    # tar's padding: zero bytes to the end, after one member or two
    { cat "$TMP/one.gz"; head -c 10240 /dev/zero; } >"$TMP/pad1.gz"
    { cat "$TMP/two.gz"; head -c 300000 /dev/zero; } >"$TMP/pad2.gz"
    gzip -t "$TMP/pad1.gz" "$TMP/pad2.gz" 2>"$TMP/gzip.err" || fail "gzip -t refuses the padding: $(cat "$TMP/gzip.err")"
    for f in pad1.gz pad2.gz; do
        run --separate-stderr "$KPCA" transform -q "$TMP/m.h5" "$TMP/$f" -o "$OUT/z.csv"
        assert_status 0
        cmp "$TMP/want.csv" "$OUT/z.csv" || fail "$f: not the 300 rows"
        rm -f "$OUT/z.csv"
    done
    run --separate-stderr "$KPCA" fit -q -d 2 -k 8 "$TMP/pad1.gz" -o "$OUT/m.h5"
    assert_status 0
    # zeros, then more: gzip too calls it trailing garbage
    { cat "$TMP/pad1.gz"; printf 'x'; } >"$TMP/padx.gz"
    run --separate-stderr "$KPCA" transform -q "$TMP/m.h5" "$TMP/padx.gz" -o "$OUT/z.csv"
    assert_status 3
    assert_stderr_contains "'$TMP/padx.gz'" "corrupt or truncated gzip data"
    assert_no_output "$OUT/z.csv"
}
