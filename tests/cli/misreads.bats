#!/usr/bin/env bats
# misreads.bats - files a user brings, made by the programs that make them
# (scikit-learn's bundled data, pandas, a spreadsheet's exports), each of
# which an earlier kpca read wrong with exit status 0: a feature taken for
# the labels, a row or a column lost or gained, a row index used as a
# feature.  Each is read right now, or refused with the option that reads
# it.

load ../helper

SK=/usr/lib/python3/dist-packages/sklearn/datasets/data

setup_file() {
    local d
    d="$(file_tmp)"
    $PY - "$d" <<'PYEOF' || true
import sys
import numpy as np
import pandas as pd
from sklearn.datasets import load_iris
d = sys.argv[1]
iris = load_iris(as_frame=True).frame            # sorted by class
iris.to_csv(d + '/index.csv')                    # the row index first, unnamed
iris.to_csv(d + '/plain.csv', index=False)
iris.to_csv(d + '/bom.csv', index=False, encoding='utf-8-sig')
iris.drop(columns='target').to_csv(d + '/bom_noheader.csv', index=False, header=False, encoding='utf-8-sig')
iris.drop(columns='target').to_csv(d + '/noheader.csv', index=False, header=False)
iris.to_csv(d + '/comma.csv', index=False, sep=';', decimal=',')
ided = iris.copy()
ided.insert(0, 'id', ['flower%03d' % i for i in range(len(iris))])
ided.to_csv(d + '/id.csv', index=False)
with open(d + '/r.csv', 'w') as f:                # R's write.csv: quoted names, row names "1", "2", ... first
    f.write(','.join('"%s"' % c for c in [''] + list(iris.columns)) + '\n')
    for i, row in enumerate(iris.itertuples(index=False)):
        f.write('"%d",' % (i + 1) + ','.join(repr(v) for v in row[:-1]) + ',%d\n' % row[-1])
PYEOF
}

setup() {
    common_setup
    D="$(file_tmp)"
    [ -s "$D/plain.csv" ] || skip "$PY cannot import pandas and sklearn (Debian packages python3-pandas, python3-sklearn)"
}

# read_summary FILE [options]: the summary line `kpca fit` prints of FILE
read_summary() {
    local file="$1"
    shift
    run --separate-stderr "$KPCA" fit -k 2 "$@" "$file" -o "$OUT/m.h5"
    assert_status 0
    summary=$(printf '%s\n' "$stderr" | grep "^read ")
}

@test "scikit-learn's digits.csv.gz (no header, the digit last, pixel 1 always 0): 65 values, no labels, --label 65 named" {
    read_summary "$SK/digits.csv.gz"
    [ "$summary" = "read '$SK/digits.csv.gz': 1797 rows x 65 values, no labels" ] || fail "$summary"
    assert_stderr_contains "note: value 65 holds 10 distinct integers, like class labels; if it holds the labels, give --label 65"
    "$KPCA" info "$OUT/m.h5" | grep -qx 'dim 65'
    # the earlier reading: column 1 (always 0) the labels, every point in class 0
    read_summary "$SK/digits.csv.gz" --label last
    [ "$summary" = "read '$SK/digits.csv.gz': 1797 rows x 64 values, labels from column 65 (10 classes)" ] || fail "$summary"
    "$KPCA" transform -q "$OUT/m.h5" "$SK/digits.csv.gz" --label last -o "$OUT/z.csv"
    [ "$(cut -d, -f1 "$OUT/z.csv" | sort -u | wc -l)" -eq 11 ] # a header and 10 classes
}

@test "scikit-learn's diabetes_data_raw (blank-separated, age first): 10 values, no labels" {
    read_summary "$SK/diabetes_data_raw.csv.gz"
    [ "$summary" = "read '$SK/diabetes_data_raw.csv.gz': 442 rows x 10 values, no labels" ] || fail "$summary"
    "$KPCA" transform -q "$OUT/m.h5" "$SK/diabetes_data_raw.csv.gz" -o "$OUT/z.csv"
    [ "$(head -n 1 "$OUT/z.csv")" = "z1,z2" ]
    [ "$(wc -l <"$OUT/z.csv")" -eq 443 ]
}

@test "a headerless CSV of numbers is unlabelled: no column lost; USPS (ESL) keeps its labels" {
    read_summary "$D/noheader.csv"
    [ "$summary" = "read '$D/noheader.csv': 150 rows x 4 values, no labels" ] || fail "$summary"
    read_summary "$DATA/zip.test.gz"
    [ "$summary" = "read '$DATA/zip.test.gz': 2007 rows x 256 values, labels from column 1 (10 classes)" ] || fail "$summary"
}

@test "a byte-order mark (CSV UTF-8): no row lost, the first header name found" {
    read_summary "$D/bom.csv" --label target
    [ "$summary" = "read '$D/bom.csv': 150 rows x 4 values, labels from column 5 'target' (3 classes)" ] || fail "$summary"
    read_summary "$D/bom.csv" --columns 'sepal length (cm),petal width (cm)'
    [ "$summary" = "read '$D/bom.csv': 150 rows x 2 values, labels from column 5 'target' (3 classes)" ] || fail "$summary"
    # without a header: 150 rows, the first a number (not a header of one odd name)
    read_summary "$D/bom_noheader.csv"
    [ "$summary" = "read '$D/bom_noheader.csv': 150 rows x 4 values, no labels" ] || fail "$summary"
    "$KPCA" transform -q "$OUT/m.h5" "$D/bom_noheader.csv" -o "$OUT/a.csv"
    "$KPCA" transform -q "$OUT/m.h5" "$D/noheader.csv" -o "$OUT/b.csv"
    cmp "$OUT/a.csv" "$OUT/b.csv"
}

@test "UTF-16 (a spreadsheet's Unicode text) is refused by name, no output" {
    iconv -f UTF-8 -t UTF-16 "$D/plain.csv" >"$TMP/u16.csv"
    run --separate-stderr "$KPCA" fit -k 2 "$TMP/u16.csv" -o "$OUT/u.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/u16.csv' is UTF-16LE text: kpca reads UTF-8 or ASCII text; convert it first, e.g. iconv -f UTF-16 -t UTF-8"
    assert_no_output "$OUT/u.h5"
    # given as CSV, read by the streamed reader of transform: named too, not
    # "line 1: contains a NUL byte" (the whole read and the windows check
    # the file's first bytes alike: text/textfile.h)
    "$KPCA" fit -q -k 2 "$D/plain.csv" -o "$TMP/m.h5"
    for cmd in fit transform; do
        if [ $cmd = fit ]; then
            run --separate-stderr "$KPCA" fit -k 2 --format csv "$TMP/u16.csv" -o "$OUT/u.h5"
        else
            run --separate-stderr "$KPCA" transform --format csv "$TMP/m.h5" "$TMP/u16.csv" -o "$OUT/u.h5"
        fi
        assert_status 3
        assert_stderr_contains "'$TMP/u16.csv' is UTF-16LE text"
        assert_no_output "$OUT/u.h5"
    done
}

@test "pandas to_csv() with its index, R's write.csv with its row names: left out and said, never a feature" {
    local f
    for f in index r; do
        read_summary "$D/$f.csv"
        [ "$summary" = "read '$D/$f.csv': 150 rows x 4 values, labels from column 6 'target' (3 classes); column 1, unnamed and all integers, left out as a row index (pandas' index, R's row names)" ] || fail "$summary"
        "$KPCA" transform -q "$OUT/m.h5" "$D/$f.csv" -o "$OUT/a.csv"
        "$KPCA" transform -q "$OUT/m.h5" "$D/plain.csv" -o "$OUT/b.csv"
        cmp "$OUT/a.csv" "$OUT/b.csv" || fail "$f.csv: not the features of plain.csv"
    done
}

@test "a string id: refused naming --drop; --drop id reads the file as without it" {
    run --separate-stderr "$KPCA" fit -k 2 "$D/id.csv" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "line 2, column 1 ('id'): expected a number, found 'flower000'" "leave it out with --drop 1 (or 'id')"
    assert_no_output "$OUT/m.h5"
    read_summary "$D/id.csv" --drop id
    [ "$summary" = "read '$D/id.csv': 150 rows x 4 values, labels from column 6 'target' (3 classes)" ] || fail "$summary"
    "$KPCA" transform -q --drop id "$OUT/m.h5" "$D/id.csv" -o "$OUT/a.csv"
    "$KPCA" transform -q "$OUT/m.h5" "$D/plain.csv" -o "$OUT/b.csv"
    cmp "$OUT/a.csv" "$OUT/b.csv"
}

@test "decimal commas between semicolons: refused naming --decimal; with it, the numbers of the plain file" {
    run --separate-stderr "$KPCA" fit -k 2 "$D/comma.csv" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "line 2, column 1 ('sepal length (cm)'): expected a number, found '5,1', written with a decimal comma: give --decimal , to read decimal commas"
    assert_no_output "$OUT/m.h5"
    read_summary "$D/comma.csv" --decimal ,
    [ "$summary" = "read '$D/comma.csv': 150 rows x 4 values, labels from column 5 'target' (3 classes)" ] || fail "$summary"
    "$KPCA" transform -q --decimal , "$OUT/m.h5" "$D/comma.csv" -o "$OUT/a.csv"
    "$KPCA" transform -q "$OUT/m.h5" "$D/plain.csv" -o "$OUT/b.csv"
    cmp "$OUT/a.csv" "$OUT/b.csv"
    # --decimal applies to text only, and takes . or , only
    run --separate-stderr "$KPCA" fit -k 2 --decimal ';' "$D/comma.csv" -o "$OUT/m2.h5"
    assert_status 2
    assert_stderr_contains "option '--decimal': expected . or , (the decimal mark), got ';'"
}

@test "the decimal mark the other way round: tab-separated decimal commas name --decimal ,, decimal points under --decimal , name leaving it out" {
    printf '0,5\t1,25\t3\n1,5\t2,5\t4\n2,75\t3,0\t5\n' >"$TMP/tab.tsv"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/tab.tsv" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "a tab inside a field: tab-separated values with decimal commas? give --decimal ,"
    assert_no_output "$OUT/m.h5"
    run --separate-stderr "$KPCA" fit -k 1 --decimal , "$TMP/tab.tsv" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "read '$TMP/tab.tsv': 3 rows x 3 values"
    printf '0.5;1.25;3\n1.5;2.5;4\n' >"$TMP/points.csv"
    run --separate-stderr "$KPCA" fit -k 1 --decimal , "$TMP/points.csv" -o "$OUT/p.h5"
    assert_status 3
    assert_stderr_contains "found '1.5', written with a decimal point: leave out --decimal ,"
    assert_no_output "$OUT/p.h5"
    # neither hint where it would mislead: a point grouping thousands, a tab in an identifier
    printf 'a;b;c\n1.234;0,5;2\n2.345;1,5;3\n' >"$TMP/thousands.csv"
    run --separate-stderr "$KPCA" fit -k 1 --decimal , "$TMP/thousands.csv" -o "$OUT/t.h5"
    assert_status 3
    [[ "$stderr" != *"leave out --decimal"* ]] || fail "a thousands point named as a decimal point: $stderr"
    printf 'id,x,y\nfoo\tbar,1.5,2.5\nbaz\tqux,3.5,4.5\n' >"$TMP/tabid.csv"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/tabid.csv" -o "$OUT/t.h5"
    assert_status 3
    [[ "$stderr" != *"--decimal"* ]] || fail "a tab in an identifier named --decimal: $stderr"
    assert_stderr_contains "leave it out with --drop 1"
}

@test "one column under a name: refused naming --header yes (not --label first, which would leave no value), which reads it" {
    printf 'height\n1.5\n2.5\n3.25\n' >"$TMP/one.csv"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/one.csv" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "line 1: expected a number, found 'height': a header row of names? give --header yes"
    assert_no_output "$OUT/m.h5"
    run --separate-stderr "$KPCA" fit -k 1 --header yes "$TMP/one.csv" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "read '$TMP/one.csv': 3 rows x 1 values"
    # a missing value's mark is no name
    printf 'nan\n1.5\n2.5\n' >"$TMP/nan.csv"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/nan.csv" -o "$OUT/n.h5"
    assert_status 3
    [[ "$stderr" != *"a header row of names"* ]] || fail "nan taken for a name: $stderr"
}

@test "a header name with a line break inside its quotes (as pandas writes it): the file is delimited text, CSV or TSV, its rows read" {
    printf '"a\nb",c,d\n1,2,3\n4,5,6\n' >"$TMP/q.csv"
    printf '"a\nb"\tc\td\n1\t2\t3\n4\t5\t6\n' >"$TMP/q.tsv"
    for f in q.csv q.tsv; do
        run --separate-stderr "$KPCA" fit -k 1 -d 1 "$TMP/$f" -o "$OUT/$f.h5"
        assert_status 0
        assert_stderr_contains "read '$TMP/$f': 2 rows x 3 values"
        run --separate-stderr "$KPCA" transform --block 1 "$OUT/$f.h5" "$TMP/$f" -o "$OUT/$f.z.csv"
        assert_status 0
        [ "$(wc -l <"$OUT/$f.z.csv")" -eq 3 ] || fail "transform of $f: not a header and 2 rows"
    done
}

@test "--columns and --drop: names and numbers, every missing name listed, no output on a mistake" {
    read_summary "$D/plain.csv" --columns '4,sepal length (cm)'
    [ "$summary" = "read '$D/plain.csv': 150 rows x 2 values, labels from column 5 'target' (3 classes)" ] || fail "$summary"
    run --separate-stderr "$KPCA" fit -k 2 --columns 'petal,1,sepal,9' "$D/plain.csv" -o "$OUT/x.h5"
    assert_status 2
    assert_stderr_contains "--columns: no column 'petal', 'sepal', '9'"
    assert_no_output "$OUT/x.h5"
    run --separate-stderr "$KPCA" fit -k 2 --drop target "$D/plain.csv" -o "$OUT/x.h5"
    assert_status 2
    assert_stderr_contains "--drop: column 5 ('target') is the label column (--label)"
}

@test "a quote inside a header name is text, as the parser reads it: a ';' file whose header is size\"in;weight has 2 columns" {
    # the delimiter sniffer used to toggle on every quote, saw one column and
    # the file was refused; it follows the parser's quoting rule now
    # (text/csvtok.h): a quote opens a field only at the field's start
    printf 'size"in;weight\n1;2\n3;4\n5;6\n' >"$TMP/q.csv"
    run --separate-stderr "$KPCA" fit --kernel linear -k 1 "$TMP/q.csv" -o "$OUT/q.h5"
    assert_status 0
    assert_stderr_contains "3 rows x 2 values"
    run "$KPCA" info "$OUT/q.h5"
    assert_stdout_contains "dim 2" "fit_points 3"
    # and the quote without a ';' in the name reads the same
    printf 'sizein;weight\n1;2\n3;4\n5;6\n' >"$TMP/p.csv"
    run --separate-stderr "$KPCA" fit --kernel linear -k 1 "$TMP/p.csv" -o "$OUT/p.h5"
    assert_status 0
    assert_stderr_contains "3 rows x 2 values"
}
