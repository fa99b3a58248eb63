#!/usr/bin/env bats
# labelrule.bats - the label column decided by a rule, never by
# integer-ness alone (docs/own-data.md): whitespace text's first column is
# labels only when set apart from the others by value; labels that are not
# classes (a missing label: 'NA', 'nan', '?', an empty field, as
# pandas.read_csv reads them) are refused with the count and the first
# lines; names that are not UTF-8 are refused; a header naming a column
# twice makes an option naming it ambiguous.  Each file is made here.

load ../helper

# refused_both FILE MESSAGE...: fit and transform (the whole read and the
# streamed one) refuse FILE (a, b and a label column) with exit 3, stderr
# holding each MESSAGE, and write nothing
refused_both() {
    local file="$1"
    shift
    run --separate-stderr "$KPCA" fit -k 1 "$file" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "$@"
    assert_no_output "$OUT/m.h5"
    printf 'a,b,class\n1,2,0\n3,4,1\n5,6,2\n' >"$TMP/ok.csv"
    "$KPCA" fit -q -k 1 "$TMP/ok.csv" -o "$OUT/ok.h5"
    run --separate-stderr "$KPCA" transform "$OUT/ok.h5" "$file" -o "$OUT/z.csv"
    assert_status 3
    assert_stderr_contains "$@"
    assert_no_output "$OUT/z.csv"
}

@test "'NA' in a label column is no class: refused with the count and the lines, whole and by blocks, no output" {
    printf 'a,b,target\n1,2,0\n3,4,1\n5,6,NA\n7,8,2\n9,1,NA\n2,2,0\n4,4,nan\n' >"$TMP/na.csv"
    refused_both "$TMP/na.csv" \
        "'$TMP/na.csv' line 4, column 3: the label is missing ('NA'); 3 labels are missing in all, on lines 4, 6, 8" \
        "df.dropna"
    # class names with a '?' among them, an empty label
    printf 'a,b,class\n1,2,setosa\n3,4,?\n5,6,virginica\n' >"$TMP/q.csv"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/q.csv" -o "$OUT/m2.h5"
    assert_status 3
    assert_stderr_contains "line 3, column 3: the label is missing ('?'); 1 label is missing in all, on line 3"
    printf 'a,b,class\n1,2,setosa\n3,4,\n5,6,virginica\n' >"$TMP/e.csv"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/e.csv" -o "$OUT/m2.h5"
    assert_status 3
    assert_stderr_contains "line 3, column 3: the label is missing (an empty field)"
    assert_no_output "$OUT/m2.h5"
    # the rows dropped, the file reads
    grep -v ',NA$\|,nan$' "$TMP/na.csv" >"$TMP/dropped.csv"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/dropped.csv" -o "$OUT/m3.h5"
    assert_status 0
    assert_stderr_contains "4 rows x 2 values, labels from column 3 'target' (3 classes)"
}

@test "a labels file with 'None' in it: refused naming its line, the advice for a labels file" {
    printf '1.5,2.5\n3.5,4.5\n5.5,6.5\n7.5,8.5\n' >"$TMP/v.csv"
    printf 'setosa\nNone\nvirginica\nsetosa\n' >"$TMP/lab.txt"
    run --separate-stderr "$KPCA" fit -k 1 --labels "$TMP/lab.txt" "$TMP/v.csv" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/lab.txt' line 2: the label is missing ('None'); 1 label is missing in all, on line 2" \
        "leave --labels out"
    assert_no_output "$OUT/m.h5"
}

@test "names that are not UTF-8 (a Latin-1 file): refused naming the line and iconv; UTF-8 names read and h5py reads them back" {
    printf 'a,b,class\n1,2,caf\xe9\n3,4,th\xe9\n5,6,caf\xe9\n' >"$TMP/l1.csv"
    refused_both "$TMP/l1.csv" "'$TMP/l1.csv' line 2, column 3: the class name 'caf\\xE9' is not UTF-8" \
        "iconv -f latin1 -t utf-8"
    printf 'a,b\xe9,class\n1,2,x\n3,4,y\n5,6,x\n' >"$TMP/l2.csv"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/l2.csv" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "line 1, column 2: the column name 'b\\xE9' is not UTF-8"
    # the same names in UTF-8: read, written, read back by h5py as text
    iconv -f latin1 -t utf-8 "$TMP/l1.csv" >"$TMP/u.csv"
    "$KPCA" fit -q -k 1 "$TMP/u.csv" -o "$OUT/u.h5"
    "$KPCA" transform -q "$OUT/u.h5" "$TMP/u.csv" -o "$OUT/zu.h5"
    run "$PY" -c "import h5py, sys; f = h5py.File(sys.argv[1]); print(list(f['class_names'].asstr()[()]))" "$OUT/zu.h5"
    assert_status 0
    [ "$output" = "['café', 'thé']" ] || fail "names read back: $output"
}

@test "a header naming a column twice: an option naming it is ambiguous; a model fit on the file transforms it" {
    printf 'x,x,y,x,label\n1,2,3,4,0\n2,3,4,5,1\n3,1,2,2,0\n4,4,1,3,1\n5,2,2,1,0\n' >"$TMP/dup.csv"
    local o
    for o in --columns --drop --label; do
        run --separate-stderr "$KPCA" fit -k 1 "$o" x "$TMP/dup.csv" -o "$OUT/m.h5"
        assert_status 2
        assert_stderr_contains "the header names several columns 'x'; name the one meant by its number from 1"
        assert_no_output "$OUT/m.h5"
    done
    # by number it reads; the whole file fits, and its model transforms it
    # as a model of the same file with the names made distinct does
    run --separate-stderr "$KPCA" fit -k 1 --columns 2,3 "$TMP/dup.csv" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "5 rows x 2 values"
    "$KPCA" fit -q -k 2 -d 2 "$TMP/dup.csv" -o "$OUT/dup.h5"
    "$KPCA" transform -q "$OUT/dup.h5" "$TMP/dup.csv" -o "$OUT/a.csv"
    sed '1s/.*/x1,x2,y,x3,label/' "$TMP/dup.csv" >"$TMP/distinct.csv"
    "$KPCA" fit -q -k 2 -d 2 "$TMP/distinct.csv" -o "$OUT/distinct.h5"
    "$KPCA" transform -q "$OUT/distinct.h5" "$TMP/distinct.csv" -o "$OUT/b.csv"
    cmp "$OUT/a.csv" "$OUT/b.csv" || fail "the duplicate names' model projects its file otherwise"
}

@test "two columns of a label name, or a transform input with more columns of a name than its model: refused, not the first taken" {
    # pandas writes both 'label' columns of a frame that has two; which
    # one holds the labels is unknown, and the other would be a value
    printf 'label,a,b,label\n0,1,2,1\n1,2,3,0\n0,3,1,1\n1,4,4,0\n0,5,2,1\n' >"$TMP/two.csv"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/two.csv" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "'$TMP/two.csv': the header names 2 columns 'label' (1 and 4), and any could hold the labels: give --label with the number from 1 of the one that does, or --label none if none does"
    assert_no_output "$OUT/m.h5"
    # the number picks one; the other is a value
    run --separate-stderr "$KPCA" fit -k 1 --label 4 "$TMP/two.csv" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "5 rows x 3 values"
    # a model of columns a, b; the input gives 'a' twice
    printf 'label,a,b\n0,1,2\n1,2,3\n0,3,1\n1,4,4\n0,5,2\n' >"$TMP/fit.csv"
    "$KPCA" fit -q -k 1 -d 1 "$TMP/fit.csv" -o "$OUT/ab.h5"
    printf 'label,a,b,a\n0,1,2,9\n1,2,3,9\n' >"$TMP/twoa.csv"
    run --separate-stderr "$KPCA" transform "$OUT/ab.h5" "$TMP/twoa.csv" -o "$OUT/z.csv"
    assert_status 3
    assert_stderr_contains "'$TMP/twoa.csv': the header names 2 columns 'a' (2 and 4 among them), and the model has 1 of that name: which one is meant is unknown"
    assert_no_output "$OUT/z.csv"
    # --drop of the other reads it as the model's file
    printf 'label,a,b\n0,1,2\n1,2,3\n' >"$TMP/onea.csv"
    "$KPCA" transform -q "$OUT/ab.h5" "$TMP/onea.csv" -o "$OUT/want.csv"
    "$KPCA" transform -q --drop 4 "$OUT/ab.h5" "$TMP/twoa.csv" -o "$OUT/got.csv"
    cmp "$OUT/want.csv" "$OUT/got.csv" || fail "--drop 4 read another column"
}

@test "whitespace text of integers only (numpy.savetxt fmt='%d': USPS as 0..255 with the digit last, digits, a 0/1 matrix): no labels, the note names --label" {
    "$PY" - "$TMP" "$DATA/zip.train.gz" <<'PYEOF'
import sys, gzip
import numpy as np
d, zp = sys.argv[1], sys.argv[2]
x = np.loadtxt(gzip.open(zp, 'rt'))
pix = np.round((x[:, 1:] + 1) * 127.5).astype(int)
np.savetxt(d + '/usps255.txt', np.column_stack([pix, x[:, 0].astype(int)]), fmt='%d')
np.savetxt(d + '/usps255_nodigit.txt', pix, fmt='%d')
rng = np.random.default_rng(3)
np.savetxt(d + '/bin.txt', rng.integers(0, 2, (300, 12)), fmt='%d')
PYEOF
    run --separate-stderr "$KPCA" fit -k 2 -m 300 "$TMP/usps255.txt" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "read '$TMP/usps255.txt': 7291 rows x 257 values, no labels" "give --label 257"
    run --separate-stderr "$KPCA" fit -k 2 -m 300 --label 257 "$TMP/usps255.txt" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "7291 rows x 256 values, labels from column 257 (10 classes)"
    run --separate-stderr "$KPCA" fit -k 2 -m 300 "$TMP/usps255_nodigit.txt" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "7291 rows x 256 values, no labels"
    run --separate-stderr "$KPCA" fit -k 2 "$TMP/bin.txt" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "300 rows x 12 values, no labels"
}

@test "a damaged line in zip.train ('2.5' for a label): refused on its line, not 257 unlabelled values" {
    gzip -dc "$DATA/zip.train.gz" | awk 'NR == 123 { $1 = "2.5" } { print }' >"$TMP/zip.train"
    run --separate-stderr "$KPCA" fit -k 2 -m 300 "$TMP/zip.train" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/zip.train' line 123: the first column holds class labels (integers, 10 classes) but for 2.5 here" \
        "--label none"
    assert_no_output "$OUT/m.h5"
    run --separate-stderr "$KPCA" fit -k 2 -m 300 --label none "$TMP/zip.train" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "7291 rows x 257 values, no labels"
}

@test "labels files as pandas writes them: 'index,label' lines read as labels and said; a header line; other shapes refused" {
    "$PY" - "$TMP" <<'PYEOF'
import sys
import numpy as np
import pandas as pd
d = sys.argv[1]
np.savetxt(d + '/pts.csv', np.random.default_rng(1).normal(size=(8, 2)), delimiter=',', fmt='%.6f')
s = pd.Series([3, 1, 4, 1, 5, 9, 2, 6])
s.to_csv(d + '/hf.csv', header=False)        # 0,3 / 1,1 ...
s.to_csv(d + '/def.csv')                     # ,0 then 0,3 ...
s.to_csv(d + '/noidx.csv', index=False)      # 0 then 3 ...
s.to_csv(d + '/plain.txt', index=False, header=False)
PYEOF
    run --separate-stderr "$KPCA" fit -k 1 --labels "$TMP/hf.csv" "$TMP/pts.csv" -o "$OUT/a.h5"
    assert_status 0
    assert_stderr_contains "labels from '$TMP/hf.csv' (the second field of 'index,label' lines)"
    "$KPCA" fit -q -k 1 --labels "$TMP/def.csv" "$TMP/pts.csv" -o "$OUT/b.h5"
    "$KPCA" fit -q -k 1 --labels "$TMP/noidx.csv" "$TMP/pts.csv" -o "$OUT/c.h5"
    "$KPCA" fit -q -k 1 --labels "$TMP/plain.txt" "$TMP/pts.csv" -o "$OUT/d.h5"
    # the same labels every way (the fit points' labels, fit_y)
    run "$PY" -c "import h5py, sys; print(set(tuple(h5py.File(f)['fit_y'][()]) for f in sys.argv[1:]))" \
        "$OUT/a.h5" "$OUT/b.h5" "$OUT/c.h5" "$OUT/d.h5"
    [ "$output" = "{(3, 1, 4, 1, 5, 9, 2, 6)}" ] || fail "labels: $output"
    # 2007 'class names' such as '0,9' (it read the lines whole): now any other shape is refused
    awk '{ print NR - 1 "," NR - 1 ",x" }' "$TMP/plain.txt" >"$TMP/three.csv"
    run --separate-stderr "$KPCA" fit -k 1 --labels "$TMP/three.csv" "$TMP/pts.csv" -o "$OUT/e.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/three.csv' line 1: '0,0,x' is 3 fields: a labels file holds one label a line, or 'index,label' lines"
    awk '{ print 2 * (NR - 1) "," $1 }' "$TMP/plain.txt" >"$TMP/gaps.csv"
    run --separate-stderr "$KPCA" fit -k 1 --labels "$TMP/gaps.csv" "$TMP/pts.csv" -o "$OUT/e.h5"
    assert_status 3
    assert_stderr_contains "line 2: '2,1' is an index 2 where 1 counts the lines"
    assert_no_output "$OUT/e.h5"
}

@test "a filtered Series' labels (an index from 2, 5 or 100): refused naming the line and the fix, never a crash" {
    "$PY" - "$TMP" <<'PYEOF'
import sys
import numpy as np
import pandas as pd
d = sys.argv[1]
for n in (3, 4, 10):
    np.savetxt(f'{d}/d{n}.csv', np.random.default_rng(n).normal(size=(n, 2)), delimiter=',', fmt='%.6f')
    for start in (2, 5, 100):
        s = pd.Series([i % 2 for i in range(n)])
        s.index = s.index + start
        s.to_csv(f'{d}/y{n}_{start}.csv')                  # ',0' / '5,0' / '6,1' ...
        s.to_csv(f'{d}/h{n}_{start}.csv', header=False)    # '5,0' / '6,1' ...
        s.map({0: 'a', 1: 'b'}).to_csv(f'{d}/n{n}_{start}.csv')
PYEOF
    for n in 3 4 10; do
        for start in 2 5 100; do
            for y in y h n; do
                run --separate-stderr "$KPCA" fit -q -k 1 -d 1 "$TMP/d$n.csv" --labels "$TMP/$y${n}_$start.csv" -o "$OUT/m.h5"
                assert_status 3
                assert_stderr_contains "'$TMP/$y${n}_$start.csv' line" "is an index $start where 0 or 1 starts the count" \
                    "s.reset_index(drop=True).to_csv(FILE) or s.to_csv(FILE, index=False)"
                assert_no_output "$OUT/m.h5"
            done
        done
    done
    run --separate-stderr "$KPCA" fit -q -k 1 -d 1 "$TMP/d3.csv" --labels "$TMP/y3_5.csv" -o "$OUT/m.h5"
    assert_stderr_contains "'$TMP/y3_5.csv' line 2: '5,0' is an index 5 where 0 or 1 starts the count"
    # through transform too
    "$KPCA" fit -q -k 1 -d 1 "$TMP/d3.csv" -o "$OUT/ok.h5"
    run --separate-stderr "$KPCA" transform "$OUT/ok.h5" "$TMP/d3.csv" --labels "$TMP/y3_5.csv" -o "$OUT/z.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/y3_5.csv' line 2: '5,0' is an index 5 where 0 or 1 starts the count"
    assert_no_output "$OUT/z.h5"
}

@test "quoted class names and a quoted header read unquoted, as pandas reads them (R's write.table, QUOTE_ALL)" {
    printf '1.5,2.5\n3.5,4.5\n5.5,6.5\n7.5,8.5\n' >"$TMP/v.csv"
    printf '"setosa"\n"versicolor"\n"setosa"\n"virginica"\n' >"$TMP/r.txt"
    printf '"label"\n"a,b"\n"say ""hi"""\n"a,b"\n"c"\n' >"$TMP/q.csv"
    printf '"","x"\n"1","setosa"\n"2","versicolor"\n"3","setosa"\n"4","virginica"\n' >"$TMP/rcsv.csv"
    printf '"x"\n"1" "setosa"\n"2" "versicolor"\n"3" "setosa"\n"4" "virginica"\n' >"$TMP/rtab.txt"
    "$KPCA" fit -q -k 1 "$TMP/v.csv" -o "$OUT/m.h5"
    for f in r.txt rcsv.csv rtab.txt q.csv; do
        "$KPCA" transform -q "$OUT/m.h5" "$TMP/v.csv" --labels "$TMP/$f" -o "$OUT/$f.h5"
    done
    run "$PY" -c "import h5py, sys; print([list(h5py.File(f)['class_names'].asstr()[()]) for f in sys.argv[1:]])" \
        "$OUT/r.txt.h5" "$OUT/rcsv.csv.h5" "$OUT/rtab.txt.h5"
    local want="['setosa', 'versicolor', 'virginica']"
    [ "$output" = "[$want, $want, $want]" ] || fail "names: $output"
    run "$PY" -c "import h5py, sys; print(list(h5py.File(sys.argv[1])['class_names'].asstr()[()]))" "$OUT/q.csv.h5"
    [ "$output" = "['a,b', 'say \"hi\"', 'c']" ] || fail "names: $output"
    printf '"setosa\n"b"x\n"c"\n"d"\n' >"$TMP/open.txt"
    run --separate-stderr "$KPCA" transform "$OUT/m.h5" "$TMP/v.csv" --labels "$TMP/open.txt" -o "$OUT/z.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/open.txt' line 1: '\"setosa' has a quoted field not closed on its line, or text after its closing quote"
}

@test "'index label' lines by blanks or ';' (numpy.savetxt) read as 'index,label'; names with blanks stay names" {
    "$PY" - "$TMP" <<'PYEOF'
import sys
import numpy as np
d = sys.argv[1]
np.save(d + '/x.npy', np.random.default_rng(0).normal(size=(10, 3)))
y = [0, 1, 1, 2, 0, 1, 2, 0, 1, 2]
np.savetxt(d + '/y.txt', np.c_[np.arange(10), y], fmt='%d')
np.savetxt(d + '/y2.csv', np.c_[np.arange(10), y], fmt='%d', delimiter=';')
np.savetxt(d + '/y3.txt', np.c_[np.arange(10) + 5, y], fmt='%d')
open(d + '/names.txt', 'w').write(''.join(['Iris setosa\n', 'Iris virginica\n'] * 5))
PYEOF
    "$KPCA" fit -q -k 2 -d 1 "$TMP/x.npy" -o "$OUT/m.h5"
    for f in y.txt y2.csv names.txt; do
        run --separate-stderr "$KPCA" transform "$OUT/m.h5" "$TMP/x.npy" --labels "$TMP/$f" -o "$OUT/$f.h5"
        assert_status 0
    done
    run "$PY" -c "import h5py, sys; print([list(h5py.File(f)['target'][()]) for f in sys.argv[1:]])" \
        "$OUT/y.txt.h5" "$OUT/y2.csv.h5"
    [ "$output" = "[[0, 1, 1, 2, 0, 1, 2, 0, 1, 2], [0, 1, 1, 2, 0, 1, 2, 0, 1, 2]]" ] || fail "labels: $output"
    run "$PY" -c "import h5py, sys; print(list(h5py.File(sys.argv[1])['class_names'].asstr()[()]))" "$OUT/names.txt.h5"
    [ "$output" = "['Iris setosa', 'Iris virginica']" ] || fail "names: $output"
    run --separate-stderr "$KPCA" transform "$OUT/m.h5" "$TMP/x.npy" --labels "$TMP/y3.txt" -o "$OUT/z.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/y3.txt' line 1: '5 0' is an index 5 where 0 or 1 starts the count"
}

@test "a labels header: a word above integer labels is skipped; above names the count names line 1 as a likely header" {
    printf '1,7\n3,4\n5,6\n' >"$TMP/d.csv"
    printf 'species\n0\n1\n1\n' >"$TMP/int.txt"
    printf 'species\nsetosa\nvirginica\nsetosa\n' >"$TMP/names.txt"
    run --separate-stderr "$KPCA" fit -k 1 -d 1 "$TMP/d.csv" --labels "$TMP/int.txt" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "labels from '$TMP/int.txt'"
    run --separate-stderr "$KPCA" fit -k 1 -d 1 "$TMP/d.csv" --labels "$TMP/names.txt" -o "$OUT/m2.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/names.txt' has 4 labels but the data has 3 points; if line 1 ('species') is a header, delete it (tail -n +2)"
    assert_no_output "$OUT/m2.h5"
}

@test "an HDF5 target written as floats that are integers (h5py, 1.0) reads as the CSV reader reads 1.0; 1.5 is refused" {
    "$PY" - "$TMP" <<'PYEOF'
import sys
import h5py
import numpy as np
x = np.random.default_rng(1).normal(size=(8, 2))
with h5py.File(sys.argv[1] + '/f.h5', 'w') as f:
    f['data'] = x
    f['target'] = np.array([0., 1., 2., 1., 0., 2., 1., 0.])
with h5py.File(sys.argv[1] + '/h.h5', 'w') as f:
    f['data'] = x
    f['target'] = np.array([0., 1.5, 2., 1., 0., 2., 1., 0.])
PYEOF
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/f.h5" -o "$OUT/m.h5"
    assert_status 0
    "$KPCA" transform -q "$OUT/m.h5" "$TMP/f.h5" -o "$OUT/z.csv"
    [ "$(cut -d, -f1 "$OUT/z.csv" | paste -sd' ')" = "label 0 1 2 1 0 2 1 0" ] || fail "labels: $(cut -d, -f1 "$OUT/z.csv")"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/h.h5" -o "$OUT/m2.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/h.h5': dataset 'target' row 2: label 1.5 is no integer (labels are classes)"
    run --separate-stderr "$KPCA" transform "$OUT/m.h5" "$TMP/h.h5" -o "$OUT/z2.csv"
    assert_status 3
    assert_stderr_contains "row 2: label 1.5 is no integer"
    assert_no_output "$OUT/z2.csv"
}

@test "class names with more classes than half the points (an id per row): eval refuses them as likely identifiers, as integer ones" {
    "$PY" - "$TMP/ids.csv" <<'PYEOF'
import sys
import numpy as np
rng = np.random.default_rng(2)
with open(sys.argv[1], "w") as f:
    f.write("a,b,class\n")
    for i in range(60):
        f.write("%.4f,%.4f,row%03d\n" % (rng.normal(), rng.normal(), i))
PYEOF
    "$KPCA" fit -q -k 2 "$TMP/ids.csv" -o "$OUT/m.h5"
    "$KPCA" transform -q "$OUT/m.h5" "$TMP/ids.csv" -o "$OUT/f.h5"
    run --separate-stderr "$KPCA" eval -k 2 "$OUT/f.h5" "$OUT/f.h5"
    assert_status 3
    assert_stderr_contains "60 distinct class names ('row000', 'row001', ...) for 60 training points" "likely identifier"
}

@test "a whitespace test file of one class (read without labels: one value more than the model): the error names --label first, which reads it" {
    "$KPCA" fit -q -d 2 -k 8 -m 300 "$DATA/zip.train.gz" -o "$OUT/m.h5"
    zcat "$DATA/zip.test.gz" | awk '$1 == 3' >"$TMP/threes.txt"
    run --separate-stderr "$KPCA" transform "$OUT/m.h5" "$TMP/threes.txt" -o "$OUT/z.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/threes.txt' has 257 values per point but the model '$OUT/m.h5' expects 256: one more, as when a column of labels is read as values" \
        "give --label first, last or the column's number"
    assert_no_output "$OUT/z.h5"
    run --separate-stderr "$KPCA" transform --label first "$OUT/m.h5" "$TMP/threes.txt" -o "$OUT/z.csv"
    assert_status 0
    [ "$(cut -d, -f1 "$OUT/z.csv" | sed 1d | sort -u)" = 3 ] || fail "the labels read are not all 3"
    # an .npy one value wider: --label does not apply there, and is not named
    "$PY" -c "import numpy as np, sys; np.save(sys.argv[1], np.loadtxt(sys.argv[2]))" "$TMP/threes.npy" "$TMP/threes.txt"
    run --separate-stderr "$KPCA" transform "$OUT/m.h5" "$TMP/threes.npy" -o "$OUT/z.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/threes.npy' has 257 values per point but the model '$OUT/m.h5' expects 256"
    [[ "$stderr" != *--label* ]] || fail "--label named for an .npy: $stderr"
}
