#!/usr/bin/env bats
# header.bats - whether a CSV's first row is a header (docs/own-data.md):
# files whose first row the default rule (--header auto) took the wrong way
# without a word, each now read right or refused with the way out, alike
# by the whole read (fit), the read by windows (transform --block) and the
# parallel read (kpca-mpi on 2 ranks, where mpirun and build/kpca-mpi are
# there); and --label N where N is also another column's name.

load ../helper

@test "--label N, N also another column's name: refused as --columns and --drop refuse it" {
    printf '2,1,x\n1,10,100\n2,20,200\n3,30,300\n' >"$TMP/a.csv"
    for opt in --label --columns --drop; do
        run --separate-stderr "$KPCA" fit -k 1 -d 1 "$opt" 1 "$TMP/a.csv" -o "$OUT/m.h5"
        assert_status 2
        assert_stderr_contains "'$TMP/a.csv': $opt: '1' is both a column's name and another column's number"
        assert_no_output "$OUT/m.h5"
    done
    # a name is taken
    run --separate-stderr "$KPCA" fit -k 1 -d 1 --label x "$TMP/a.csv" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "3 rows x 2 values, labels from column 3 'x'"
}

# rows_read FILE ARGS...: the rows fit reads of FILE with ARGS
rows_read() {
    local f="$1"
    shift
    "$KPCA" fit -k 1 -d 1 "$@" "$f" -o "$TMP/r.h5" 2>&1 >/dev/null | sed -n "s/^read '.*': \([0-9]*\) rows.*/\1/p"
}

@test "a first line 0,1,...,D-1 or 1,...,D (pandas' default column names, np.savetxt's header): refused with --header auto, taken as --header says" {
    [ -x "$PY" ] && "$PY" -c 'import numpy, pandas' 2>/dev/null || skip "$PY cannot import numpy and pandas"
    "$PY" - "$TMP" <<'PYEOF'
import sys
import numpy as np, pandas as pd
d = sys.argv[1]
X = np.random.default_rng(0).normal(size=(12, 4))
pd.DataFrame(X).to_csv(d + '/pandas.csv', index=False)
pd.DataFrame(X).to_csv(d + '/quoted.csv', index=False, quoting=1)
np.savetxt(d + '/numbered.csv', X, delimiter=',', header='1,2,3,4', comments='')
np.savetxt(d + '/years.csv', X, delimiter=',', header='2019,2020,2021,2022', comments='')
np.savetxt(d + '/plain.csv', X, delimiter=',')
PYEOF
    "$KPCA" fit -q -k 1 -d 1 "$TMP/plain.csv" -o "$TMP/plain.h5"
    refused_everywhere "$TMP/pandas.csv" "'$TMP/pandas.csv' line 1 holds 0, 1, ..., 3: pandas' default column names? or a data row? give --header yes to take it as the header, or --header no to read it as a data row"
    refused_everywhere "$TMP/quoted.csv" "'$TMP/quoted.csv' line 1 holds 0, 1, ..., 3: pandas' default column names?"
    refused_everywhere "$TMP/numbered.csv" "'$TMP/numbered.csv' line 1 holds 1, 2, ..., 4: column numbers as names? or a data row? give --header yes"
    [ "$(rows_read "$TMP/pandas.csv" --header yes)" = 12 ] || fail "--header yes: not 12 rows"
    [ "$(rows_read "$TMP/pandas.csv" --header no)" = 13 ] || fail "--header no: not 13 rows"
    # other increasing integers above decimals (years, some columns'
    # default names): refused alike, and read as --header says
    refused_everywhere "$TMP/years.csv" "'$TMP/years.csv' line 1 holds the increasing integers 2019, 2020, 2021, ... above values that are not all integers: column names (pandas' default names of some columns, years)? or a data row? give --header yes"
    [ "$(rows_read "$TMP/years.csv" --header yes)" = 12 ] || fail "years, --header yes: not 12 rows"
    [ "$(rows_read "$TMP/years.csv" --header no)" = 13 ] || fail "years, --header no: not 13 rows"
}

@test "pandas' default column names of some columns, with and without the index: the header, or refused; never a data row" {
    [ -x "$PY" ] && "$PY" -c 'import numpy, pandas' 2>/dev/null || skip "$PY cannot import numpy and pandas"
    "$PY" - "$TMP" <<'PYEOF'
import sys
import numpy as np, pandas as pd
d = sys.argv[1]
r = np.random.default_rng(1)
X = r.normal(size=(12, 4))
np.savetxt(d + '/plain.csv', X, delimiter=',')
pd.DataFrame(X).to_csv(d + '/indexed.csv')  # ,0,1,2,3: pandas' default, with its index
f = pd.DataFrame(r.normal(size=(12, 5))).drop(columns=[2])
f.to_csv(d + '/some.csv', index=False)  # 0,1,3,4
f.to_csv(d + '/some_indexed.csv')  # ,0,1,3,4
pd.DataFrame(X).iloc[:, 1:].to_csv(d + '/tail.csv', index=False)  # 1,2,3: 1..D, the rule before
m = pd.DataFrame(r.normal(size=(12, 3)), columns=list('abc'))
m.index = pd.MultiIndex.from_product([[0, 1, 2], [0, 1, 2, 3]])
m.to_csv(d + '/multi.csv')  # ,,a,b,c
PYEOF
    "$KPCA" fit -q -k 1 -d 1 "$TMP/plain.csv" -o "$TMP/plain.h5"
    # the index and the names: the header (as data, the empty field is refused)
    for f in indexed some_indexed; do
        run --separate-stderr "$KPCA" fit -k 1 -d 1 "$TMP/$f.csv" -o "$OUT/$f.h5"
        assert_status 0
        assert_stderr_contains "read '$TMP/$f.csv': 12 rows x 4 values, no labels; column 1, unnamed and all integers, left out as a row index"
        run --separate-stderr "$KPCA" transform --block 5 "$TMP/plain.h5" "$TMP/$f.csv" -o "$OUT/$f.npy"
        assert_status 0
        assert_stderr_contains "read '$TMP/$f.csv': 12 rows x 4 values"
    done
    refused_everywhere "$TMP/some.csv" "'$TMP/some.csv' line 1 holds the increasing integers 0, 1, 3, ... above values that are not all integers"
    [ "$(rows_read "$TMP/some.csv" --header yes)" = 12 ] || fail "0,1,3,4 with --header yes: not 12 rows"
    refused_everywhere "$TMP/tail.csv" "'$TMP/tail.csv' line 1 holds 1, 2, ..., 3: column numbers as names?"
    # a pandas MultiIndex: both unnamed columns named in the refusal, whose way out reads the values
    run --separate-stderr "$KPCA" fit -k 1 -d 1 "$TMP/multi.csv" -o "$OUT/mi.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/multi.csv' line 1: columns 1 and 2 have no name: the levels of a pandas MultiIndex"
    assert_no_output "$OUT/mi.h5"
    [ "$(rows_read "$TMP/multi.csv" --drop 1,2)" = 12 ] || fail "--drop 1,2: not 12 rows"
}

@test "--drop N of a text column, as the message advises: a name there alone makes no header but is asked about; --header says (fit, transform by windows, 2 ranks)" {
    printf 'id001,1.5,2.5\nid002,3.5,4.5\nid003,5.5,7.5\nid004,1,2\n' >"$TMP/id.csv"
    printf 'sample,400.5,401.0\ns1,0.5,0.25\ns2,0.75,0.5\n' >"$TMP/spectra.csv"
    printf '1.5,2.5,setosa\n3.5,4.5,versicolor\n5.5,7.5,setosa\n1,2,virginica\n' >"$TMP/last.csv"
    printf '0.5,0.25\n1.5,2.5\n3.5,1.5\n' >"$TMP/plain2.csv"
    "$KPCA" fit -q -k 1 -d 1 "$TMP/plain2.csv" -o "$TMP/plain2.h5"
    run --separate-stderr "$KPCA" fit -k 1 -d 1 "$TMP/id.csv" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "leave it out with --drop 1"
    # the header (spectra) and the data row (id) look alike: asked, never guessed
    for f in id spectra; do
        run --separate-stderr "$KPCA" fit -k 1 -d 1 --drop 1 "$TMP/$f.csv" -o "$OUT/m.h5"
        assert_status 3
        assert_stderr_contains "'$TMP/$f.csv' line 1: its only text, '"
        assert_stderr_contains "is in column 1, which --drop leaves out: is the line a header (give --header yes) or a data row (give --header no)?"
        assert_no_output "$OUT/m.h5"
        run --separate-stderr "$KPCA" transform --block 1 --drop 1 "$TMP/plain2.h5" "$TMP/$f.csv" -o "$OUT/z.csv"
        assert_status 3
        assert_stderr_contains "which --drop leaves out: is the line a header"
    done
    [ "$(rows_read "$TMP/id.csv" --drop 1 --header no)" = 4 ] || fail "--drop 1 --header no: not 4 rows"
    [ "$(rows_read "$TMP/spectra.csv" --drop 1 --header yes)" = 2 ] || fail "--drop 1 --header yes: not 2 rows"
    # a class name in a column --label places is a label, as before
    [ "$(rows_read "$TMP/last.csv" --label 3)" = 4 ] || fail "--label 3: not 4 rows"
    "$KPCA" fit -q -k 1 -d 1 --drop 1 --header no "$TMP/id.csv" -o "$TMP/m.h5"
    "$KPCA" transform -q --block 1 --drop 1 --header no "$TMP/m.h5" "$TMP/id.csv" -o "$OUT/z.csv"
    [ "$(grep -vc '[a-zA-Z]' "$OUT/z.csv")" = 4 ] || fail "transform --drop 1 --header no: not 4 feature rows: $(cat "$OUT/z.csv")"
    run --separate-stderr mpi2 fit -k 1 -d 1 --drop 1 --header no "$TMP/id.csv" -o "$OUT/mm.h5"
    assert_status 0
    assert_stderr_contains "4 rows x 2 values"
    # a header whose only name is the dropped column's: asked too
    printf 'id,1,2\nid001,1.5,2.5\nid002,3.5,4.5\n' >"$TMP/idh.csv"
    run --separate-stderr "$KPCA" fit -k 1 -d 1 --drop 1 "$TMP/idh.csv" -o "$OUT/m2.h5"
    assert_status 3
    assert_stderr_contains "its only text, 'id', is in column 1, which --drop leaves out"
}

@test "integers above decimals in a row wider than the first 64 KiB, and two columns: the windows decide as the whole read; two increasing integers are a data row" {
    [ -x "$PY" ] && "$PY" -c 'import numpy, pandas' 2>/dev/null || skip "$PY cannot import numpy and pandas"
    "$PY" - "$TMP" <<'PYEOF'
import sys
import numpy as np, pandas as pd
d = sys.argv[1]
r = np.random.default_rng(2)
pd.DataFrame(r.normal(size=(6, 3000))).to_csv(d + '/wide.csv', index=False, float_format='%.18e')
np.savetxt(d + '/two.csv', np.vstack([[3, 7], r.normal(size=(5, 2))]), delimiter=',', fmt='%.17g')
PYEOF
    for solver in "--solver exact" "--solver nystrom --landmarks 3"; do
        # shellcheck disable=SC2086
        run --separate-stderr "$KPCA" fit -k 1 -d 1 $solver "$TMP/wide.csv" -o "$OUT/w.h5"
        assert_status 3
        assert_stderr_contains "line 1 holds 0, 1, ..., 2999: pandas' default column names?"
    done
    [ "$(rows_read "$TMP/two.csv")" = 6 ] || fail "3,7 above decimals: not a data row"
}

@test "transform: a first line 0,1,2,3 that is the model's column names is its header, by windows and on 2 ranks" {
    [ -x "$PY" ] && "$PY" -c 'import numpy, pandas' 2>/dev/null || skip "$PY cannot import numpy and pandas"
    "$PY" - "$TMP" <<'PYEOF'
import sys
import numpy as np, pandas as pd
r = np.random.default_rng(0)
pd.DataFrame(r.normal(size=(12, 4))).to_csv(sys.argv[1] + '/a.csv', index=False)
pd.DataFrame(r.normal(size=(5, 4))).to_csv(sys.argv[1] + '/b.csv', index=False)
np.savetxt(sys.argv[1] + '/c.csv', r.normal(size=(5, 4)), delimiter=',', header='a,b,c,d', comments='')
PYEOF
    "$KPCA" fit -q -k 2 -d 1 --header yes "$TMP/a.csv" -o "$TMP/m.h5"
    run --separate-stderr "$KPCA" transform --block 2 "$TMP/m.h5" "$TMP/b.csv" -o "$OUT/z.npy"
    assert_status 0
    assert_stderr_contains "read '$TMP/b.csv': 5 rows x 4 values"
    run --separate-stderr mpi2 transform "$TMP/m.h5" "$TMP/b.csv" -o "$OUT/zm.npy"
    assert_status 0
    cmp "$OUT/z.npy" "$OUT/zm.npy" || fail "kpca-mpi's features differ"
    # a model fit without those names: refused as fit refuses it
    "$KPCA" fit -q -k 2 -d 1 --header yes "$TMP/c.csv" -o "$TMP/mc.h5"
    run --separate-stderr "$KPCA" transform --block 2 "$TMP/mc.h5" "$TMP/b.csv" -o "$OUT/z2.npy"
    assert_status 3
    assert_stderr_contains "line 1 holds 0, 1, ..., 3: pandas' default column names?"
}

@test "a NaN, inf, empty or NA field makes no header: the first row of numbers with one is refused on its line, as line 3 is" {
    printf '0.5,nan,2.5\n3.5,4.5,5.5\n6.5,7.5,8.5\n' >"$TMP/nan.csv"
    printf '0.5,,2.5\n3.5,4.5,5.5\n6.5,7.5,8.5\n' >"$TMP/empty.csv"
    printf '0.5,NA,-inf\n3.5,4.5,5.5\n6.5,7.5,8.5\n' >"$TMP/na.csv"
    printf '3.5,4.5,5.5\n6.5,7.5,8.5\n0.5,nan,2.5\n' >"$TMP/nan3.csv"
    printf '1.5,2,3\n4,5,6\n7,8,9\n' >"$TMP/plain.csv"
    "$KPCA" fit -q -k 1 -d 1 "$TMP/plain.csv" -o "$TMP/plain.h5"
    refused_everywhere "$TMP/nan.csv" "'$TMP/nan.csv' line 1, column 2: expected a finite number, found 'nan'"
    refused_everywhere "$TMP/nan3.csv" "'$TMP/nan3.csv' line 3, column 2: expected a finite number, found 'nan'"
    refused_everywhere "$TMP/empty.csv" "'$TMP/empty.csv' line 1, column 2: expected a number, found an empty field"
    refused_everywhere "$TMP/na.csv" "'$TMP/na.csv' line 1, column 2: expected a number, found 'NA'"
    # a real name among them: a header, as before
    printf 'a,,c\n3.5,4.5,5.5\n6.5,7.5,8.5\n' >"$TMP/named.csv"
    [ "$(rows_read "$TMP/named.csv")" = 2 ] || fail "a,,c: not a header"
}

@test "R's write.table (a header one field short of the rows): refused naming R's layout, and the way out it names reads the values" {
    {
        printf '"a","b","c"\n'
        for i in 1 2 3 4 5 6; do printf '"%d",%d.5,%d.25,-%d\n' "$i" "$i" "$((i * i))" "$i"; done
    } >"$TMP/r.csv"
    printf '1.5,1.25,-1\n2.5,4.25,-2\n3.5,9.25,-3\n4.5,16.25,-4\n5.5,25.25,-5\n6.5,36.25,-6\n' >"$TMP/values.csv"
    "$KPCA" fit -q -k 1 -d 1 "$TMP/values.csv" -o "$TMP/v.h5"
    msg="'$TMP/r.csv' line 2: 4 fields, expected 3 as in line 1; a header one field short of the rows: R's write.table (row names without a header field)? write with row.names = FALSE, or read the values with --skip-rows 1 --header no --drop 1 (the column names lost)"
    run --separate-stderr "$KPCA" fit -k 1 -d 1 "$TMP/r.csv" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "$msg"
    [[ "$stderr" != *preamble* ]] || fail "the message names a preamble"
    run --separate-stderr "$KPCA" transform --block 7 "$TMP/v.h5" "$TMP/r.csv" -o "$OUT/z.npy"
    assert_status 3
    assert_stderr_contains "$msg"
    run --separate-stderr mpi2 fit -k 1 -d 1 "$TMP/r.csv" -o "$OUT/mm.h5"
    [ "$status" -ne 0 ] || fail "kpca-mpi read it"
    assert_stderr_contains "$msg"
    # the way out named: the values, as in values.csv
    "$KPCA" transform -q "$TMP/v.h5" "$TMP/values.csv" -o "$OUT/zv.csv"
    run --separate-stderr "$KPCA" transform --skip-rows 1 --header no --drop 1 "$TMP/v.h5" "$TMP/r.csv" -o "$OUT/zr.csv"
    assert_status 0
    assert_stderr_contains "6 rows x 3 values"
    cmp "$OUT/zv.csv" "$OUT/zr.csv" || fail "other features through the way out"
}
