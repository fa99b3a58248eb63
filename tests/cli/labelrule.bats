#!/usr/bin/env bats
# labelrule.bats - labels that are not classes: a missing label ('NA',
# 'nan', '?', an empty field, as pandas.read_csv reads them) in a label
# column or a labels file is refused with the count and the first lines,
# never read as a class of its own.  Each file is made here.

load ../helper

@test "'NA' in a label column is no class: refused with the count and the lines, whole and by blocks, no output" {
    printf 'a,b,target\n1,2,0\n3,4,1\n5,6,NA\n7,8,2\n9,1,NA\n2,2,0\n4,4,nan\n' >"$TMP/na.csv"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/na.csv" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/na.csv' line 4, column 3: the label is missing ('NA'); 3 labels are missing in all, on lines 4, 6, 8" \
        "df.dropna"
    assert_no_output "$OUT/m.h5"
    # the streamed read (transform, the Nystrom fit) says the same
    printf 'a,b,target\n1,2,0\n3,4,1\n5,6,2\n' >"$TMP/ok.csv"
    "$KPCA" fit -q -k 1 "$TMP/ok.csv" -o "$OUT/m.h5"
    run --separate-stderr "$KPCA" transform "$OUT/m.h5" "$TMP/na.csv" -o "$OUT/z.csv"
    assert_status 3
    assert_stderr_contains "line 4, column 3: the label is missing ('NA'); 3 labels are missing in all"
    assert_no_output "$OUT/z.csv"
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
