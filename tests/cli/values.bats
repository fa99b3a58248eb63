#!/usr/bin/env bats
# values.bats - values that are what they look like: a value is a decimal
# number, and a spelling that C's strtod would also take (hexadecimal) is
# text, refused naming its line and column, as inf and nan are.  Each file
# is made here.

load ../helper

@test "hexadecimal spellings are text: 0x10 in a CSV, 0x1p3 in ESL text and LIBSVM refused on their line, no output" {
    printf 'a,b\n1,0x10\n2,3\n4,5\n' >"$TMP/hex.csv"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/hex.csv" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/hex.csv' line 2, column 2 ('b'): expected a number, found '0x10'"
    assert_no_output "$OUT/m.h5"
    printf '1 0.5 0.25\n2 0.25 0x1p3\n1 1 1\n' >"$TMP/hex.txt"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/hex.txt" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/hex.txt' line 2" "'0x1p3'"
    assert_no_output "$OUT/m.h5"
    printf '1 1:0.5 2:0X1A\n2 1:1\n' >"$TMP/hex.svm"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/hex.svm" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/hex.svm' line 1" "0X1A"
    assert_no_output "$OUT/m.h5"
    # decimals with exponents stay numbers; the same file in decimal reads
    printf 'a,b\n1,16\n2,3e0\n4,.5E1\n' >"$TMP/dec.csv"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/dec.csv" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "read '$TMP/dec.csv': 3 rows x 2 values"
}

@test "a hexadecimal value in a late window of a large CSV read by blocks: transform refuses it, no output" {
    "$PY" - "$TMP/big.csv" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write("a,b,c\n")
    for i in range(60000):
        f.write("%d,%d.5,%s\n" % (i % 7, i, "0x1f" if i == 59000 else "1"))
EOF
    head -1001 "$TMP/big.csv" >"$TMP/small.csv"
    "$KPCA" fit -q -k 1 -d 1 "$TMP/small.csv" -o "$OUT/m.h5"
    run --separate-stderr "$KPCA" transform "$OUT/m.h5" "$TMP/big.csv" -o "$OUT/z.csv"
    assert_status 3
    assert_stderr_contains "line 59002, column 3 ('c'): expected a number, found '0x1f'"
    assert_no_output "$OUT/z.csv"
}

@test "a column near the largest double: --standardize scales it by its true spread; rbf's default width refused, never 1" {
    "$PY" - "$TMP/big.csv" <<'EOF2'
import sys
import numpy as np
rng = np.random.default_rng(1)
with open(sys.argv[1], "w") as f:
    f.write("a,b,c\n")
    for i in range(200):
        f.write("%.6f,%.6f,%.17g\n" % (rng.normal(), rng.normal(), (1e308 if i % 2 else -1e308) * rng.uniform(0.5, 1)))
EOF2
    # standardised, every column has spread 1: sigma^2 = 3 (the column was
    # called constant, and sigma sqrt(2), when its variance overflowed)
    run --separate-stderr "$KPCA" fit -k 2 --kernel rbf --standardize "$TMP/big.csv" -o "$OUT/m.h5"
    assert_status 0
    assert_stderr_contains "kernel exp(-|x-y|^2 / (2 * 1.73205^2))"
    [[ "$stderr" != *constant* ]] || fail "a column called constant"
    # unstandardised, the default width is the true spread, too large to square: refused (it was 1)
    run --separate-stderr "$KPCA" fit -k 2 --kernel rbf "$TMP/big.csv" -o "$OUT/m2.h5"
    assert_status 3
    assert_stderr_contains "the default rbf width, the fit points' spread (7.6" "too large to square" "--standardize"
    assert_no_output "$OUT/m2.h5"
    # the Nystrom fit's pass over the rows: refused naming the column
    run --separate-stderr "$KPCA" fit -k 2 --kernel rbf --solver nystrom --standardize "$TMP/big.csv" -o "$OUT/m3.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/big.csv': column 3 ('c'): its values" "overflows double precision"
    assert_no_output "$OUT/m3.h5"
}
