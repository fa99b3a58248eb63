#!/usr/bin/env bats
# savetxt.bats - numpy.savetxt's files as numpy writes them: its header and
# footer are lines after '# ' (its default comment mark).  Whitespace text
# skips '#' lines and what follows a '#' on a line, as numpy.loadtxt does,
# alike in the whole read (fit), the streamed read (transform --block),
# the Nystrom fit's passes and kpca-mpi's parts, read as ESL or, with a
# text option, as delimited text; --header yes takes savetxt's one '#'
# line for the names; a CSV header after '# ' keeps its name, and the
# name without it is refused naming it; a '#' line among a CSV's rows is
# refused with the way out (docs/own-data.md).  Its blanks are
# str.split()'s (numpy.loadtxt's): space, tab, CR, VT and FF, by every path.

load ../helper

# the same 120 rows (a label 0..2 first, then 5 values) as plain.txt, and
# with numpy.savetxt's header (one line and two) and footer, and with '#'
# lines and trailing comments among the rows as numpy.loadtxt skips them;
# the CSV the same with a header, as savetxt writes it and without '# '
write_files() {
    [ -x "$PY" ] && "$PY" -c 'import numpy' 2>/dev/null || skip "$PY cannot import numpy"
    "$PY" - "$TMP" <<'PYEOF'
import sys
import numpy as np
d = sys.argv[1]
r = np.random.default_rng(3)
X = np.column_stack([r.integers(0, 3, 120), r.normal(size=(120, 5))])
np.savetxt(d + '/plain.txt', X)
np.savetxt(d + '/header.txt', X, header='label a b c d e')
np.savetxt(d + '/two.txt', X, header='made by numpy\nlabel a b c d e', footer='the end')
lines = open(d + '/plain.txt').read().splitlines()
with open(d + '/mixed.txt', 'w') as f:
    for i, l in enumerate(lines):
        if i % 17 == 3:
            f.write('   # a comment line\n')
        f.write(l + (' # why, how: "q' if i % 5 == 0 else '') + '\n')
    f.write('#\n')
with open(d + '/blanks.txt', 'w') as f:
    for i, l in enumerate(lines):
        f.write(l.replace(' ', '\v\f' if i % 2 else ' \v', 2).replace(' ', '\f') + '\n')
assert all(np.array_equal(np.loadtxt(d + '/' + n), X) for n in ('header.txt', 'two.txt', 'mixed.txt', 'blanks.txt'))
Y = X[:, [1, 2, 3, 4, 5, 0]]
np.savetxt(d + '/plain.csv', Y, delimiter=',', header='a,b,c,d,e,label', comments='')
np.savetxt(d + '/hash.csv', Y, delimiter=',', header='a,b,c,d,e,label')
np.savetxt(d + '/footer.csv', Y, delimiter=',', header='a,b,c,d,e,label', footer='the end')
PYEOF
}

@test "whitespace text with numpy.savetxt's header and footer, '#' comments among the rows, VT and FF for blanks: read as numpy.loadtxt reads it, by every path" {
    write_files
    "$KPCA" fit -q -k 3 -d 2 "$TMP/plain.txt" -o "$TMP/m.h5"
    "$KPCA" transform -q "$TMP/m.h5" "$TMP/plain.txt" -o "$TMP/z.csv"
    "$KPCA" fit -q -k 3 -d 2 --solver nystrom --landmarks 40 "$TMP/plain.txt" -o "$TMP/n.h5"
    "$KPCA" transform -q "$TMP/n.h5" "$TMP/plain.txt" -o "$TMP/zn.csv"
    for f in header two mixed blanks; do
        run --separate-stderr "$KPCA" fit -k 3 -d 2 "$TMP/$f.txt" -o "$OUT/m-$f.h5"
        assert_status 0
        assert_stderr_contains "read '$TMP/$f.txt': 120 rows x 5 values, labels from column 1 (3 classes)"
        "$KPCA" transform -q "$OUT/m-$f.h5" "$TMP/plain.txt" -o "$OUT/z-$f.csv"
        cmp "$TMP/z.csv" "$OUT/z-$f.csv" || fail "the model fit on $f.txt differs"
        run --separate-stderr "$KPCA" transform --block 7 "$TMP/m.h5" "$TMP/$f.txt" -o "$OUT/zb-$f.csv"
        assert_status 0
        cmp "$TMP/z.csv" "$OUT/zb-$f.csv" || fail "transform --block 7 of $f.txt differs"
        "$KPCA" fit -q -k 3 -d 2 --solver nystrom --landmarks 40 "$TMP/$f.txt" -o "$OUT/n-$f.h5"
        "$KPCA" transform -q "$OUT/n-$f.h5" "$TMP/plain.txt" -o "$OUT/zn-$f.csv"
        cmp "$TMP/zn.csv" "$OUT/zn-$f.csv" || fail "the Nystrom fit's passes over $f.txt differ"
        run --separate-stderr mpi2 transform "$TMP/m.h5" "$TMP/$f.txt" -o "$OUT/zm-$f.csv"
        assert_status 0
        cmp "$TMP/z.csv" "$OUT/zm-$f.csv" || fail "kpca-mpi's parts of $f.txt differ"
        # a text option: the delimited reader, its comments the same
        run --separate-stderr "$KPCA" fit -k 3 -d 2 --label 1 "$TMP/$f.txt" -o "$OUT/l-$f.h5"
        assert_status 0
        assert_stderr_contains "read '$TMP/$f.txt': 120 rows x 5 values, labels from column 1 (3 classes)"
        "$KPCA" transform -q "$OUT/l-$f.h5" "$TMP/plain.txt" -o "$OUT/zl-$f.csv"
        cmp "$TMP/z.csv" "$OUT/zl-$f.csv" || fail "the model fit on $f.txt with --label 1 differs"
        "$KPCA" transform -q --block 7 --label 1 "$TMP/m.h5" "$TMP/$f.txt" -o "$OUT/zlb-$f.csv"
        cmp "$TMP/z.csv" "$OUT/zlb-$f.csv" || fail "transform --block 7 --label 1 of $f.txt differs"
        run --separate-stderr mpi2 transform --label 1 "$TMP/m.h5" "$TMP/$f.txt" -o "$OUT/zlm-$f.csv"
        assert_status 0
        cmp "$TMP/z.csv" "$OUT/zlm-$f.csv" || fail "kpca-mpi's parts of $f.txt with --label 1 differ"
    done
}

@test "numpy.savetxt's header of 6000 names, past the first 64 KiB: the format told from the first row after it (ESL, CSV, gzip), as the plain file; comments alone refused as such" {
    [ -x "$PY" ] && "$PY" -c 'import numpy' 2>/dev/null || skip "$PY cannot import numpy"
    "$PY" - "$TMP" <<'PYEOF'
import sys
import numpy as np
d = sys.argv[1]
X = np.random.default_rng(5).normal(size=(6, 6000))
names = ['feature_%05d' % i for i in range(6000)]  # 78 KB of header
np.savetxt(d + '/plain.txt', X)
np.savetxt(d + '/long.txt', X, header=' '.join(names))
np.savetxt(d + '/long.csv', X, delimiter=',', header=','.join(names))
open(d + '/many.txt', 'w').write('# a comment\n' * 8000 + open(d + '/plain.txt').read())
open(d + '/only.txt', 'w').write('# a comment\n' * 8000)
PYEOF
    gzip -k "$TMP/long.txt"
    "$KPCA" fit -q -k 1 -d 1 "$TMP/plain.txt" -o "$TMP/m.h5"
    "$KPCA" transform -q "$TMP/m.h5" "$TMP/plain.txt" -o "$TMP/z.csv"
    for f in long.txt long.txt.gz long.csv many.txt; do
        run --separate-stderr "$KPCA" fit -k 1 -d 1 "$TMP/$f" -o "$OUT/m.h5"
        assert_status 0
        assert_stderr_contains "read '$TMP/$f': 6 rows x 6000 values"
        run --separate-stderr "$KPCA" transform --block 2 "$TMP/m.h5" "$TMP/$f" -o "$OUT/z.csv"
        assert_status 0
        cmp "$TMP/z.csv" "$OUT/z.csv" || fail "transform of $f differs from the plain file's"
    done
    run --separate-stderr "$KPCA" fit -k 1 -d 1 "$TMP/only.txt" -o "$OUT/o.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/only.txt': no data (the file holds only blank lines and '#' comments)"
    assert_no_output "$OUT/o.h5"
    # after --skip-rows the window is not looked past: said so, with the way out
    run --separate-stderr "$KPCA" fit -k 1 -d 1 --skip-rows 1 "$TMP/many.txt" -o "$OUT/s.h5"
    assert_status 2
    assert_stderr_contains "after --skip-rows 1, the next 64 KiB of the text, where kpca tells its format, hold only blank lines and '#' comments: give --format csv (or esl)"
    [ "$(OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-} "$KPCA" fit -k 1 -d 1 --skip-rows 1 --format esl "$TMP/many.txt" -o "$OUT/s.h5" 2>&1 | sed -n "s/^read .*: \([0-9]*\) rows.*/\1/p")" = 6 ] || fail "--skip-rows 1 --format esl: not 6 rows"
    # a gzip file cut after its comments: the damage is said, not "only comments"
    head -c 60000 "$TMP/long.txt.gz" >"$TMP/cut.txt.gz"
    run --separate-stderr "$KPCA" fit -k 1 -d 1 "$TMP/cut.txt.gz" -o "$OUT/c.h5"
    assert_status 3
    assert_stderr_contains "corrupt or truncated gzip data"
}

@test "numpy.savetxt of a complex array, whitespace and CSV: refused as complex numbers, naming the real and imaginary columns" {
    [ -x "$PY" ] && "$PY" -c 'import numpy' 2>/dev/null || skip "$PY cannot import numpy"
    "$PY" -c '
import sys
import numpy as np
z = np.array([[1 + 2j, 3 - 4j], [5 + 0j, -1.5j], [2 - 1j, 0.5 + 0.5j]])
np.savetxt(sys.argv[1] + "/z.txt", z)
np.savetxt(sys.argv[1] + "/z.csv", z, delimiter=",")' "$TMP"
    for f in z.txt z.csv; do
        run --separate-stderr "$KPCA" fit -k 1 "$TMP/$f" -o "$OUT/m.h5"
        assert_status 3
        assert_stderr_contains "a complex number (numpy.savetxt of a complex array): kpca reads real values; save the real and imaginary parts as columns"
        assert_no_output "$OUT/m.h5"
    done
}

@test "numpy.savetxt's header as names: '# a b c' with --header yes; two '#' lines refused; a CSV's '# a' kept, 'a' refused naming it" {
    write_files
    run --separate-stderr "$KPCA" fit -k 2 -d 1 --header yes --label label --columns a,c "$TMP/header.txt" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "120 rows x 2 values, labels from column 1 'label' (3 classes)"
    run --separate-stderr "$KPCA" fit -k 2 -d 1 --header yes "$TMP/two.txt" -o "$OUT/t.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/two.txt' line 1 begins with '#', and so does the next line: which one names the columns (--header yes)? give --skip-rows N to start at it"
    assert_no_output "$OUT/t.h5"
    run --separate-stderr "$KPCA" fit -k 2 -d 1 --header yes --skip-rows 1 --columns a,c "$TMP/two.txt" -o "$OUT/t.h5"
    assert_status 0
    assert_stderr_contains "120 rows x 2 values, labels from column 1 'label' (3 classes)"
    "$KPCA" fit -q -k 2 -d 1 --columns a,c "$TMP/plain.csv" -o "$TMP/p.h5"
    "$KPCA" transform -q "$TMP/p.h5" "$TMP/plain.csv" -o "$TMP/z.csv"
    run --separate-stderr "$KPCA" fit -k 2 -d 1 --columns a,c "$TMP/hash.csv" -o "$OUT/h.h5"
    assert_status 2
    assert_stderr_contains "'$TMP/hash.csv': --columns: no column 'a' (the first column is named '# a', as numpy.savetxt writes its header after '# ': name it so, or by number, or save with comments='')"
    assert_no_output "$OUT/h.h5"
    run --separate-stderr "$KPCA" fit -k 2 -d 1 --columns '# a,c' "$TMP/hash.csv" -o "$OUT/h.h5"
    assert_status 0
    assert_stderr_contains "120 rows x 2 values, labels from column 6 'label' (3 classes)"
    "$KPCA" transform -q "$OUT/h.h5" "$TMP/hash.csv" -o "$OUT/z.csv"
    cmp "$TMP/z.csv" "$OUT/z.csv" || fail "the features of hash.csv's columns differ"
}

@test "a '#' line among a CSV's rows (numpy.savetxt's footer): refused on its line with the way out, by every path, no output" {
    write_files
    "$KPCA" fit -q -k 1 -d 1 "$TMP/hash.csv" -o "$TMP/plain.h5"
    refused_everywhere "$TMP/footer.csv" "'$TMP/footer.csv' line 122: 1 fields, expected 6 as in line 1; a comment (numpy.savetxt writes its header and footer after '#')? delimited text has none: delete the line (grep -v '^#')"
}
