#!/usr/bin/env bats
# skiprows.bats - --skip-rows N (issue 42, item 7): the first N lines of a
# text file skipped, whatever they hold, before the header or first row:
# scikit-learn's files whose first line is a line of counts (wine, breast
# cancer; Boston's, then a header).  Each read path gives what the same
# file without those lines gives: the whole read, the streamed read of a
# large file (csvpart.c), the windows of transform and of the Nystrom fit
# (csvwin.c), gzip, a pipe, whitespace text; line numbers in messages stay
# the file's; N past the end, and --skip-rows on .npy, are refused.

load ../helper

# wine-like: a preamble of counts and class names, then n rows of 5 values
# and an integer class; $1 the file, $2 the rows
wine_like() {
    "$PY" - "$1" "$2" <<'EOF'
import sys
import numpy as np
n = int(sys.argv[2])
rng = np.random.default_rng(3)
with open(sys.argv[1], "w") as f:
    f.write('%d,5,class_0,class_1,class_2\n' % n)
    for i in range(n):
        f.write(",".join("%.4f" % v for v in rng.normal(size=5) + i % 3) + ",%d\n" % (i % 3))
EOF
}

# same A B WHAT: the files A and B are equal, else fail naming WHAT
same() {
    cmp "$1" "$2" || fail "$3: differs from the read of the file without its preamble"
}

@test "the preamble hint advises --skip-rows 1, which then reads the file as the file without that line" {
    wine_like "$TMP/wine.csv" 60
    tail -n +2 "$TMP/wine.csv" >"$TMP/tail.csv"
    run --separate-stderr "$KPCA" fit -q -k 2 --label last "$TMP/wine.csv" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "line 2: 6 fields, expected 5 as in line 1; is line 1 a preamble" "skip it: --skip-rows 1"
    run --separate-stderr "$KPCA" fit -k 2 --label last --skip-rows 1 "$TMP/wine.csv" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "read '$TMP/wine.csv': 60 rows x 5 values, labels from column 6 (3 classes)"
    "$KPCA" fit -q -k 2 --label last "$TMP/tail.csv" -o "$OUT/t.h5"
    # the models project alike: transform, denoise, eval, cluster with --skip-rows as without the line
    "$KPCA" transform -q "$OUT/t.h5" --label last "$TMP/tail.csv" -o "$OUT/want.csv"
    "$KPCA" transform -q "$OUT/m.h5" --label last --skip-rows 1 "$TMP/wine.csv" -o "$OUT/got.csv"
    same "$OUT/want.csv" "$OUT/got.csv" "transform"
    "$KPCA" transform -q "$OUT/m.h5" --label last "$TMP/tail.csv" -o "$OUT/got2.csv"
    same "$OUT/want.csv" "$OUT/got2.csv" "the model of fit --skip-rows 1"
    "$KPCA" denoise -q "$OUT/t.h5" --label last "$TMP/tail.csv" -k 2 -o "$OUT/dwant.csv"
    "$KPCA" denoise -q "$OUT/t.h5" --label last --skip-rows 1 "$TMP/wine.csv" -k 2 -o "$OUT/dgot.csv"
    same "$OUT/dwant.csv" "$OUT/dgot.csv" "denoise"
    "$KPCA" eval -k 2 --label last "$TMP/tail.csv" "$TMP/tail.csv" --csv "$OUT/ewant.csv" >/dev/null
    "$KPCA" eval -k 2 --label last --skip-rows 1 "$TMP/wine.csv" "$TMP/wine.csv" --csv "$OUT/egot.csv" >/dev/null
    cmp <(cut -d, -f1-7 "$OUT/ewant.csv") <(cut -d, -f1-7 "$OUT/egot.csv") || fail "eval: differs"
    "$KPCA" cluster -q -k 3 --label last "$TMP/tail.csv" -o "$OUT/cwant.csv"
    "$KPCA" cluster -q -k 3 --label last --skip-rows 1 "$TMP/wine.csv" -o "$OUT/cgot.csv"
    same "$OUT/cwant.csv" "$OUT/cgot.csv" "cluster"
}

@test "a preamble, then a header (Boston): named as a preamble, and --skip-rows 1 finds the header" {
    { printf '5,3,,\n"A","B","C","MEDV"\n'; printf '%s\n' 1,2,3,4 2,3,5,7 3,1,4,1 5,9,2,6 5,3,5,8; } >"$TMP/boston.csv"
    run --separate-stderr "$KPCA" fit -q -k 2 "$TMP/boston.csv" -o "$OUT/m.h5"
    assert_status 3
    # (line 1, numbers then empty fields, is a data row with holes: an empty field makes no header)
    assert_stderr_contains "line 1, column 3: expected a number, found an empty field; is line 1 a preamble" \
        "skip it: --skip-rows 1"
    run --separate-stderr "$KPCA" fit -k 2 --skip-rows 1 "$TMP/boston.csv" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "read '$TMP/boston.csv': 5 rows x 4 values, no labels"
    "$KPCA" info "$OUT/m.h5" >"$OUT/info.txt" 2>&1
    grep -q "column_names yes" "$OUT/info.txt" || { cat "$OUT/info.txt"; fail "the header's names are not the model's"; }
}

@test "line numbers stay the file's; N past the end is refused with the file's lines; .npy refuses --skip-rows" {
    printf 'a preamble line, "with a quote\nu,v\n1,2\n3,zz\n' >"$TMP/bad.csv"
    run --separate-stderr "$KPCA" fit -q -k 1 --skip-rows 1 "$TMP/bad.csv" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/bad.csv' line 4, column 2 ('v'): expected a number, found 'zz'"
    assert_no_output "$OUT/m.h5"
    for n in 4 9; do
        run --separate-stderr "$KPCA" fit -q -k 1 --skip-rows $n "$TMP/bad.csv" -o "$OUT/m.h5"
        assert_status 2
        assert_stderr_contains "'$TMP/bad.csv' has only 4 lines: --skip-rows $n leaves no data to read"
        assert_no_output "$OUT/m.h5"
        # the same through the row source (transform reads by blocks)
        printf 'u,v\n1,2\n3,4\n' >"$TMP/ok.csv"
        "$KPCA" fit -q -k 1 "$TMP/ok.csv" -o "$OUT/ok.h5"
        run --separate-stderr "$KPCA" transform -q "$OUT/ok.h5" --skip-rows $n "$TMP/bad.csv" -o "$OUT/z.csv"
        assert_status 2
        assert_stderr_contains "has only 4 lines: --skip-rows $n leaves no data to read"
        assert_no_output "$OUT/z.csv"
    done
    "$PY" -c "import numpy as np; np.save('$TMP/x.npy', np.arange(12.0).reshape(4, 3))"
    run --separate-stderr "$KPCA" fit -q -k 1 --skip-rows 1 "$TMP/x.npy" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "--skip-rows applies to CSV and whitespace text, not to npy"
}

@test "gzip, a pipe and whitespace text: --skip-rows reads each as the text without those lines" {
    wine_like "$TMP/wine.csv" 40
    tail -n +2 "$TMP/wine.csv" >"$TMP/tail.csv"
    "$KPCA" fit -q -k 2 --label last "$TMP/tail.csv" -o "$OUT/t.h5"
    "$KPCA" transform -q "$OUT/t.h5" --label last "$TMP/tail.csv" -o "$OUT/want.csv"
    gzip -c "$TMP/wine.csv" >"$TMP/wine.csv.gz"
    "$KPCA" fit -q -k 2 --label last --skip-rows 1 "$TMP/wine.csv.gz" -o "$OUT/gz.h5"
    "$KPCA" transform -q "$OUT/gz.h5" --label last --skip-rows 1 "$TMP/wine.csv.gz" -o "$OUT/gz.csv"
    same "$OUT/want.csv" "$OUT/gz.csv" "gzip"
    "$KPCA" fit -q -k 2 --label last --skip-rows 1 - -o "$OUT/p.h5" <"$TMP/wine.csv"
    "$KPCA" transform -q "$OUT/p.h5" --label last --skip-rows 1 - -o "$OUT/p.csv" <"$TMP/wine.csv"
    same "$OUT/want.csv" "$OUT/p.csv" "standard input"
    # whitespace text: two lines of anything, then ESL rows (read as with any text option: --label names the labels)
    head_rows "$DATA/zip.test.gz" 80 "$TMP/t.txt"
    { printf 'USPS test, 80 rows\n"256 pixels: a b c\n'; cat "$TMP/t.txt"; } >"$TMP/pre.txt"
    "$KPCA" fit -q -k 3 --label first "$TMP/t.txt" -o "$OUT/e.h5"
    "$KPCA" transform -q "$OUT/e.h5" --label first "$TMP/t.txt" -o "$OUT/ewant.csv"
    "$KPCA" fit -q -k 3 --label first --skip-rows 2 "$TMP/pre.txt" -o "$OUT/e2.h5"
    "$KPCA" transform -q "$OUT/e2.h5" --label first --skip-rows 2 "$TMP/pre.txt" -o "$OUT/egot.csv"
    same "$OUT/ewant.csv" "$OUT/egot.csv" "whitespace text"
    "$KPCA" transform -q --block 7 "$OUT/e2.h5" --label first --skip-rows 2 "$TMP/pre.txt" -o "$OUT/eblk.csv"
    same "$OUT/ewant.csv" "$OUT/eblk.csv" "whitespace text by blocks"
}

@test "whitespace text without --label: --skip-rows leaves the labels' guess as without the preamble (the first column of USPS its labels, not a value)" {
    head_rows "$DATA/zip.test.gz" 200 "$TMP/t.txt"
    { printf 'USPS test digits: 200 rows of a label and 256 pixels\n"1 2 3\n\n'; cat "$TMP/t.txt"; } >"$TMP/pre.txt"
    "$KPCA" fit -q -k 3 "$TMP/t.txt" -o "$OUT/e.h5"
    "$KPCA" transform -q "$OUT/e.h5" "$TMP/t.txt" -o "$OUT/ewant.csv"
    run --separate-stderr "$KPCA" fit -k 3 --skip-rows 3 "$TMP/pre.txt" -o "$OUT/e2.h5"
    assert_status 0
    assert_stderr_contains "200 rows x 256 values, labels from column 1 (10 classes)"
    "$KPCA" info "$OUT/e2.h5" | grep -q '^dim 256$' || fail "the labels became a value: $("$KPCA" info "$OUT/e2.h5" | grep '^dim')"
    "$KPCA" transform -q "$OUT/e2.h5" --skip-rows 3 "$TMP/pre.txt" -o "$OUT/egot.csv"
    same "$OUT/ewant.csv" "$OUT/egot.csv" "whitespace text without --label"
    "$KPCA" transform -q --block 7 "$OUT/e2.h5" --skip-rows 3 "$TMP/pre.txt" -o "$OUT/eblk.csv"
    same "$OUT/ewant.csv" "$OUT/eblk.csv" "whitespace text without --label, by blocks"
    gzip -c "$TMP/pre.txt" >"$TMP/pre.txt.gz"
    "$KPCA" transform -q "$OUT/e2.h5" --skip-rows 3 "$TMP/pre.txt.gz" -o "$OUT/egz.csv"
    same "$OUT/ewant.csv" "$OUT/egz.csv" "gzip whitespace text without --label"
    "$KPCA" fit -q -k 3 --solver nystrom --landmarks 50 "$TMP/t.txt" -o "$OUT/n.h5"
    "$KPCA" fit -q -k 3 --solver nystrom --landmarks 50 --skip-rows 3 "$TMP/pre.txt" -o "$OUT/n2.h5"
    "$KPCA" info "$OUT/n2.h5" | grep -q '^dim 256$' || fail "the Nystrom fit's passes read the labels as a value"
    "$KPCA" transform -q "$OUT/n.h5" "$TMP/t.txt" -o "$OUT/nwant.csv"
    "$KPCA" transform -q "$OUT/n2.h5" "$TMP/t.txt" -o "$OUT/ngot.csv"
    same "$OUT/nwant.csv" "$OUT/ngot.csv" "the Nystrom fit of whitespace text without --label"
}

@test "a large file: the streamed whole read, transform's windows and the Nystrom fit's skip the preamble alike" {
    # about 14 MiB: several 4 MiB windows (csvwin.c), and the whole read of
    # a large plain file streamed in parts (csvpart.c); the preamble's
    # second line longer than the 1 MiB head that the streamed read looks in
    "$PY" - "$TMP/big.csv" "$TMP/tail.csv" <<'EOF'
import sys
import numpy as np
rng = np.random.default_rng(5)
rows = "".join(",".join("%.5f" % v for v in r) + "\n" for r in rng.normal(size=(160000, 6)))
open(sys.argv[2], "w").write("a,b,c,d,e,f\n" + rows)
open(sys.argv[1], "w").write("160000,6\n" + "#" * (1 << 21) + "\n" + "a,b,c,d,e,f\n" + rows)
EOF
    "$KPCA" fit -q -k 2 --subset 300 "$TMP/tail.csv" -o "$OUT/t.h5"
    "$KPCA" transform -q "$OUT/t.h5" "$TMP/tail.csv" -o "$OUT/want.csv"
    # (the format is told from the first 64 KiB: past them, --format says it)
    run --separate-stderr "$KPCA" fit -q -k 2 --subset 300 --skip-rows 2 "$TMP/big.csv" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "--skip-rows 2 skips the whole first 64 KiB of the text" "give --format csv"
    "$KPCA" fit -q -k 2 --subset 300 --skip-rows 2 --format csv "$TMP/big.csv" -o "$OUT/m.h5"
    "$KPCA" transform -q "$OUT/m.h5" --skip-rows 2 --format csv "$TMP/big.csv" -o "$OUT/got.csv"
    same "$OUT/want.csv" "$OUT/got.csv" "transform of the model of a large file"
    # a short preamble, within the streamed read's head
    { echo "160000,6"; cat "$TMP/tail.csv"; } >"$TMP/short.csv"
    "$KPCA" fit -q -k 2 --subset 300 --skip-rows 1 "$TMP/short.csv" -o "$OUT/s.h5"
    "$KPCA" transform -q "$OUT/s.h5" --skip-rows 1 "$TMP/short.csv" -o "$OUT/s.csv"
    same "$OUT/want.csv" "$OUT/s.csv" "a short preamble"
    "$KPCA" fit -q -k 2 --solver nystrom --landmarks 200 "$TMP/tail.csv" -o "$OUT/nt.h5"
    "$KPCA" fit -q -k 2 --solver nystrom --landmarks 200 --skip-rows 2 --format csv "$TMP/big.csv" -o "$OUT/nm.h5"
    "$KPCA" transform -q "$OUT/nt.h5" "$TMP/tail.csv" -o "$OUT/nwant.csv"
    "$KPCA" transform -q "$OUT/nm.h5" "$TMP/tail.csv" -o "$OUT/ngot.csv"
    same "$OUT/nwant.csv" "$OUT/ngot.csv" "the Nystrom fit"
}
