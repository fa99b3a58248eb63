#!/usr/bin/env bats
# stream.bats - kpca transform reads, projects and writes a block of rows
# at a time: for every model kind and output format, the same bytes
# whatever the block, and the numbers of the transform that held the whole
# input (kpca at 9bde02d, tests/ref/transform-9bde02d/make.sh) within a
# rounding tolerance, on any machine and BLAS kernel; memory that does not
# grow with the rows; a bad row late in the input stops it with no output.

load ../helper

REF="$BATS_TEST_DIRNAME/../ref/transform-9bde02d"

setup_file() {
    local d
    d="$(file_tmp)"
    mkdir -p "$d/m"
    cp "$REF"/*.h5 "$d/m/"
    # shellcheck source=../ref/transform-9bde02d/inputs.sh
    . "$REF/inputs.sh"
    transform_inputs "$BATS_TEST_DIRNAME/../../data" "$d"
}

setup() {
    common_setup
    FIX="$(file_tmp)"
}

# golden KIND: the model and input of a kind (as make.sh runs them)
golden() {
    case $1 in
    precomputed) model=m/precomputed.h5 in=cross.csv ;;
    named) model=m/exact.h5 in=digits.csv ;;
    columns) model=m/columns.h5 in=reversed.csv ;;
    *) model=m/$1.h5 in=digits.txt ;;
    esac
}

# same_numbers REF GOT: the features of GOT (a CSV written here) are those of
# REF (the in-memory transform's, made on another machine): the same header
# and labels, exactly, and every value within 1e-10 of its column's largest
# magnitude (1e-5 for the single-precision model).  Why that is safe: the
# models are inputs here, not refitted, so a value is a few hundred products
# summed, whose rounding under another OpenBLAS kernel or thread count moves
# it by about 1e-15 of that scale (measured: at most 9.2e-16 between the
# Haswell and SkylakeX kernels; a float32 value by at most an ulp, 6e-8);
# a wrong row, column, sign or centring moves it by 1e-3 or more.
same_numbers() {
    "$PY" - "$@" <<'PY'
import csv, gzip, sys
import numpy as np
ref, got = sys.argv[1], sys.argv[2]
tol = 1e-5 if "single" in ref else 1e-10
with gzip.open(ref, "rt", newline="") as f:
    a = list(csv.reader(f))
with open(got, newline="") as f:
    b = list(csv.reader(f))
assert a[0] == b[0], ("header", a[0], b[0])
assert len(a) == len(b), ("rows", len(a), len(b))
assert [r[0] for r in a] == [r[0] for r in b], "labels"
x = np.array([r[1:] for r in a[1:]], float)
y = np.array([r[1:] for r in b[1:]], float)
scale = np.abs(x).max(axis=0)
assert (scale > 0).all(), "a zero column in the reference"
err = (np.abs(x - y) / scale).max()
assert err <= tol, f"{got}: {err:.3g} of the column's scale from the reference (tolerance {tol:g})"
PY
}

# same_values CSV OTHER...: the .h5, .npy and .libsvm files written here
# hold the very numbers of CSV (written here): the formats differ, the
# doubles do not (exact: %.17g reads back to the same double)
same_values() {
    "$PY" - "$@" <<'PY'
import csv, sys
import h5py, numpy as np
with open(sys.argv[1], newline="") as f:
    x = np.array([r[1:] for r in list(csv.reader(f))[1:]], float)
for g in sys.argv[2:]:
    if g.endswith(".h5"):
        y = h5py.File(g, "r")["data"][...]
    elif g.endswith(".npy"):
        y = np.load(g)
    else:
        y = np.zeros(x.shape)
        for i, line in enumerate(open(g)):
            for t in line.split()[1:]:
                j, v = t.split(":")
                y[i, int(j) - 1] = float(v)
    assert y.shape == x.shape, (g, y.shape, x.shape)
    y = y.astype(float)
    assert np.array_equal(y, x), f"{g}: not the numbers of {sys.argv[1]}"
PY
}

@test "streamed transform: every model kind and format, blocks of 1, 7 and 10^4 rows, the bytes of one block and the in-memory transform's numbers" {
    local kind f b want got bad=
    cd "$FIX"
    local kinds
    kinds="$(sed -n 's/^KINDS="\(.*\)"$/\1/p' "$REF/make.sh")"
    [ "$(wc -w <<<"$kinds")" -eq 11 ] || fail "the model kinds of make.sh: '$kinds'"
    for kind in $kinds; do
        golden "$kind"
        for f in h5 npy csv libsvm; do
            # a block of 10^4 holds the whole input (2007 or 2100 rows): the
            # transform that held it all.  The same code on the same machine:
            # every block writes the very bytes of that one
            "$KPCA" transform -q --block 10000 "$model" "$in" -o "$OUT/$kind.$f" \
                2>/dev/null || fail "$kind.$f, one block: transform failed"
            want="$(sha256sum "$OUT/$kind.$f" | cut -d' ' -f1)"
            for b in 1 7 default; do
                rm -f "$OUT/z.$f"
                # shellcheck disable=SC2046
                "$KPCA" transform -q $([ "$b" = default ] || echo --block "$b") "$model" "$in" -o "$OUT/z.$f" \
                    2>/dev/null || fail "$kind.$f, block $b: transform failed"
                got="$(sha256sum "$OUT/z.$f" | cut -d' ' -f1)"
                [ "$got" = "$want" ] || bad="$bad $kind.$f/$b"
            done
        done
        # the numbers of kpca 9bde02d's in-memory transform (make.sh), within
        # a rounding tolerance; the other formats hold the CSV's numbers
        same_numbers "$REF/features/$kind.csv.gz" "$OUT/$kind.csv" || fail "$kind: not the in-memory transform's features"
        same_values "$OUT/$kind.csv" "$OUT/$kind.h5" "$OUT/$kind.npy" "$OUT/$kind.libsvm" ||
            fail "$kind: the formats disagree"
    done
    [ -z "$bad" ] || fail "a block wrote other bytes than one block of the whole input:$bad"
}

@test "streamed transform: an HDF5 file to standard output (built in memory), text to a pipe, and from standard input" {
    cd "$FIX"
    golden named
    "$KPCA" transform -q "$model" "$in" -o "$OUT/file.h5"
    "$KPCA" transform -q "$model" "$in" -o "$OUT/file.csv"
    "$KPCA" transform -q --block 7 "$model" "$in" -f hdf5 -o - >"$OUT/z.h5"
    cmp "$OUT/file.h5" "$OUT/z.h5" || fail "HDF5 on standard output differs from the file"
    # the source attribute names the input as given: a pipe's bytes are compared as CSV
    "$KPCA" transform -q --block 7 "$model" - -f csv -o - <"$in" | cat >"$OUT/z.csv"
    cmp "$OUT/file.csv" "$OUT/z.csv" || fail "CSV from standard input to a pipe differs from the file"
    same_numbers "$REF/features/named.csv.gz" "$OUT/z.csv" || fail "not the in-memory transform's features"
}

# big_npy ROWS OUT: a ROWS x 16 float64 .npy, USPS's 2007 test rows (16
# pixels each, as features of a 16-component linear model) over and over
big_npy() {
    local rows="$1" out="$2" reps hdr
    "$KPCA" fit -q --kernel linear -k 16 "$FIX/digits.txt" -o "$TMP/lin.h5"
    head -n 1000 "$FIX/digits.txt" >"$TMP/1000.txt"
    "$KPCA" transform -q "$TMP/lin.h5" "$TMP/1000.txt" -o "$TMP/1000.npy"
    reps=$((rows / 1000))
    hdr="{'descr': '<f8', 'fortran_order': False, 'shape': ($rows, 16), }"
    # version 1.0: magic, the header's length (118), the header padded to 128 bytes
    { printf '\223NUMPY\001\000\166\000%s' "$hdr"; printf '%*s\n' $((117 - ${#hdr})) ''; } >"$out"
    [ "$(wc -c <"$out")" -eq 128 ] || fail "bad .npy header"
    tail -c +129 "$TMP/1000.npy" >"$TMP/body"
    for _ in $(seq "$reps"); do cat "$TMP/body"; done >>"$out"
}

@test "streamed transform of 10^6 rows of .npy: peak memory within 32 MB of 1000 rows', where the input alone is 128 MB" {
    [ -x /usr/bin/time ] || skip "no /usr/bin/time (Debian's time)"
    big_npy 1000000 "$TMP/big.npy"
    "$KPCA" fit -q -d 2 -k 6 -m 200 --sample first "$TMP/big.npy" -o "$TMP/m.h5"
    # under ASan (make asan), no quarantine: it keeps every freed block out
    # of reuse, up to 256 MiB, and a buffer freed per block would count
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"
    # the process's own floor: the same transform of 1000 rows
    /usr/bin/time -f %M -o "$TMP/floor.kb" "$KPCA" transform -q "$TMP/m.h5" "$TMP/1000.npy" -o "$OUT/small.npy"
    run --separate-stderr /usr/bin/time -f %M -o "$TMP/big.kb" "$KPCA" transform -q "$TMP/m.h5" "$TMP/big.npy" \
        -o "$OUT/z.npy"
    assert_status 0
    # the transform that held every row needed 8 (16 + 6) bytes a row beyond
    # the floor, 171 875 KiB; the bound allows 32 MiB for the blocks, the
    # reader's and stdio's buffers
    local floor big
    floor=$(tail -n 1 "$TMP/floor.kb")
    big=$(tail -n 1 "$TMP/big.kb")
    [ "$big" -lt $((floor + 32768)) ] || fail "peak RSS $big KiB, more than 32 MiB above the floor of $floor KiB"
    [ $((8 * (16 + 6) * 1000000 / 1024)) -gt 32768 ] || fail "the bound would not catch the whole input"
    [ "$(wc -c <"$OUT/z.npy")" -eq $((128 + 1000000 * 6 * 8)) ] || fail "wrong size of the features"
    # row i is digit i mod 1000: rows 999 and 999999 have the same features
    # (to rounding: their blocks differ), rows 0 and 1 do not
    row() { tail -c +$((129 + $1 * 48)) "$OUT/z.npy" | head -c 48 | od -An -v -tf8 | tr -s ' ' '\n' | grep .; }
    paste <(row 999) <(row 999999) | awk '{ d = $1 - $2; s = ($1 < 0 ? -$1 : $1) + 1e-300
        if (d > 1e-9 * s || -d > 1e-9 * s) bad = 1; n++ } END { exit bad || n != 6 }' ||
        fail "row 999999 is not row 999's digit"
    paste <(row 0) <(row 1) | awk '{ d = $1 - $2; if (d > 1e-6 || -d > 1e-6) diff = 1 } END { exit !diff }' ||
        fail "rows 0 and 1 have the same features"
}

@test "a ragged row at row 10^5 of a CSV: the reader's error, exit 3, no output, not even on a pipe" {
    awk -F, 'NR == 1 { print; next } { r[++n] = $0 }
        END { for (i = 0; i < 200000; i++) print (i == 100000 ? "seven,1,2,3" : r[i % n + 1]) }' \
        "$FIX/digits.csv" >"$TMP/ragged.csv"
    local f
    for f in csv npy h5 libsvm; do
        run --separate-stderr "$KPCA" transform "$FIX/m/exact.h5" "$TMP/ragged.csv" -o "$OUT/z.$f"
        assert_status 3
        assert_stderr_contains "error: '$TMP/ragged.csv' line 100002: 4 fields, expected 17 as in line 1"
        assert_no_output "$OUT/z.$f"
    done
    "$KPCA" transform "$FIX/m/exact.h5" "$TMP/ragged.csv" -f csv -o - 2>/dev/null >"$TMP/piped" && fail "no error"
    [ ! -s "$TMP/piped" ] || fail "rows written before the error"
}

@test "a run of blank lines longer than the reader's window (4 MiB) in a CSV: the rows after it are read, by transform and the Nyström fit as by the whole read" {
    # 40000 rows, then 10 MB of blank lines (blanks and CRLF too), then 40000
    # more (kpca before a33987f wrote the first 40000 alone, exit 0)
    awk 'NR == 1 { print; next } { r[++n] = $0 }
        END { for (i = 0; i < 80000; i++) { print r[i % n + 1]; if (i == 39999) for (k = 0; k < 4000000; k++) printf "%s", (k % 2 ? "\n" : "  \r\n") } }' \
        "$FIX/digits.csv" >"$TMP/runs.csv"
    "$KPCA" transform "$FIX/m/exact.h5" "$TMP/runs.csv" -o "$OUT/z.csv"
    [ "$(grep -c . "$OUT/z.csv")" -eq 80001 ] || fail "$(grep -c . "$OUT/z.csv") lines of features, not a header and 80000 rows"
    grep -v '^[[:space:]]*$' "$TMP/runs.csv" >"$TMP/plain.csv"
    "$KPCA" transform "$FIX/m/exact.h5" "$TMP/plain.csv" -o "$OUT/want.csv"
    cmp "$OUT/want.csv" "$OUT/z.csv" || fail "the features differ from those of the file without its blank lines"
    "$KPCA" fit -q --solver nystrom --landmarks 30 -k 3 "$TMP/runs.csv" -o "$OUT/a.h5"
    "$KPCA" fit -q --solver nystrom --landmarks 30 -k 3 "$TMP/plain.csv" -o "$OUT/b.h5"
    "$KPCA" info "$OUT/a.h5" | grep -v "^source" | sed "s|$TMP/runs.csv|DATA|" >"$TMP/a.info"
    "$KPCA" info "$OUT/b.h5" | grep -v "^source" | sed "s|$TMP/plain.csv|DATA|" >"$TMP/b.info"
    diff "$TMP/a.info" "$TMP/b.info" || fail "the Nyström fits of the two files differ"
}

@test "a value the reader refuses late in an .npy (not finite, row 100001): exit 3, no output file" {
    big_npy 200000 "$TMP/nan.npy"
    # row 100001's first value: a NaN (little-endian 0x7ff8000000000000)
    printf '\000\000\000\000\000\000\370\177' | dd of="$TMP/nan.npy" bs=1 seek=$((128 + 100000 * 128)) conv=notrunc \
        status=none
    local f
    for f in npy h5 csv; do
        run --separate-stderr "$KPCA" transform --block 1000 "$FIX/m/exact.h5" "$TMP/nan.npy" -o "$OUT/z.$f"
        assert_status 3
        assert_stderr_contains "row 100001"
        assert_no_output "$OUT/z.$f"
    done
}
