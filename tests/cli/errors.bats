#!/usr/bin/env bats
# errors.bats - bad input files: exit 4 for files that cannot be opened, 3
# for files that are not what they should be; never a partial output.
#
# Every failing command writes into the empty directory $OUT, and each test
# checks that neither the output file nor a temporary ".NAME.tmp.XXXXXX"
# is left there.

load ../helper

setup_file() {
    local d
    d="$(file_tmp)"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.train.gz" | head -n 20 >"$d/small.txt"
    # a small model of the 256-pixel data, and features of it
    "${KPCA:-$BATS_TEST_DIRNAME/../../build/kpca}" fit -q -d 2 -m 20 -k 5 "$d/small.txt" -o "$d/model.h5"
    "${KPCA:-$BATS_TEST_DIRNAME/../../build/kpca}" transform -q "$d/model.h5" "$d/small.txt" -o "$d/feat.h5"
    "${KPCA:-$BATS_TEST_DIRNAME/../../build/kpca}" transform -q "$d/model.h5" "$d/small.txt" -o "$d/feat.svm"
}

setup() {
    common_setup
    FIX="$(file_tmp)"
    SMALL="$FIX/small.txt"
    MODEL="$FIX/model.h5"
    [ -s "$MODEL" ] || fail "setup_file could not fit $MODEL"
}

# fit_fails STATUS FILE [ARGS...]: kpca fit on FILE exits STATUS with an
# error naming FILE, and leaves no model behind
fit_fails() {
    local want="$1" file="$2"
    shift 2
    run --separate-stderr "$KPCA" fit -q -d 2 -m 5 -k 2 "$@" "$file" -o "$OUT/m.h5"
    assert_status "$want"
    assert_error_names "$file"
    assert_no_output "$OUT/m.h5"
}

# transform_fails STATUS MODEL DATA: kpca transform exits STATUS, no features
transform_fails() {
    local want="$1" model="$2" data="$3"
    local o
    for o in z.h5 z.svm z.csv; do
        run --separate-stderr "$KPCA" transform -q "$model" "$data" -o "$OUT/$o"
        assert_status "$want"
        assert_error_message
        assert_no_output "$OUT/$o"
    done
}

@test "missing input file: exit 4, \"cannot open 'x'\"" {
    cd "$TMP"
    fit_fails 4 x
    assert_stderr_contains "cannot open 'x'"
    transform_fails 4 "$MODEL" x
    assert_stderr_contains "cannot open 'x'"
    transform_fails 4 x "$SMALL"
    assert_stderr_contains "cannot open 'x'"
    run --separate-stderr "$KPCA" eval x "$FIX/feat.h5" --csv "$OUT/t.csv"
    assert_status 4
    assert_stderr_contains "cannot open 'x'"
    assert_no_output "$OUT/t.csv"
    run --separate-stderr "$KPCA" eval "$FIX/feat.h5" x --markdown "$OUT/t.md"
    assert_status 4
    assert_stderr_contains "cannot open 'x'"
    assert_no_output "$OUT/t.md"
}

@test "input that is a directory: an error, not a crash" {
    mkdir "$TMP/adir"
    run --separate-stderr "$KPCA" fit -q -m 5 "$TMP/adir" -o "$OUT/m.h5"
    [ "$status" -eq 3 ] || [ "$status" -eq 4 ] || { show_run; fail "expected exit 3 or 4"; }
    assert_error_names "$TMP/adir"
    assert_no_output "$OUT/m.h5"
}

@test "ESL file with the wrong count of values on line 3: exit 3, 'line 3'" {
    awk 'NR == 3 { $NF = "" } { print }' "$SMALL" >"$TMP/short3.txt"
    fit_fails 3 "$TMP/short3.txt"
    assert_stderr_contains "line 3"
    transform_fails 3 "$MODEL" "$TMP/short3.txt"
    assert_stderr_contains "line 3"
    # one value too many
    awk 'NR == 3 { $0 = $0 " 0.5" } { print }' "$SMALL" >"$TMP/long3.txt"
    fit_fails 3 "$TMP/long3.txt"
    assert_stderr_contains "line 3"
}

@test "ESL file with a non-numeric token: exit 3, line and token named" {
    awk 'NR == 4 { $5 = "abc" } { print }' "$SMALL" >"$TMP/tok.txt"
    fit_fails 3 "$TMP/tok.txt"
    assert_stderr_contains "line 4" "'abc'"
    awk 'NR == 2 { $1 = "six" } { print }' "$SMALL" >"$TMP/label.txt"
    fit_fails 3 "$TMP/label.txt"
    assert_stderr_contains "line 2" "label"
    awk 'NR == 2 { $1 = "6.5" } { print }' "$SMALL" >"$TMP/label2.txt"
    # a fraction in the first column: no ESL labels but 257 values, said so
    run --separate-stderr "$KPCA" fit -k 2 "$TMP/label2.txt" -o "$OUT/l2.h5"
    assert_status 0
    assert_stderr_contains "x 257 values, no labels"
    awk 'NR == 4 { $7 = "0.5x" } { print }' "$SMALL" >"$TMP/tok2.txt"
    fit_fails 3 "$TMP/tok2.txt"
    assert_stderr_contains "line 4"
}

@test "ESL file with NaN or infinity: exit 3" {
    local v
    for v in nan NaN -nan inf -Infinity 1e999; do
        awk -v v="$v" 'NR == 4 { $5 = v } { print }' "$SMALL" >"$TMP/nan.txt"
        fit_fails 3 "$TMP/nan.txt"
        assert_stderr_contains "line 4"
        transform_fails 3 "$MODEL" "$TMP/nan.txt"
    done
}

@test "empty and blank files: exit 3" {
    : >"$TMP/empty.txt"
    fit_fails 3 "$TMP/empty.txt"
    printf '\n   \n\n' >"$TMP/blank.txt"
    fit_fails 3 "$TMP/blank.txt"
    printf '' | gzip >"$TMP/empty.gz"
    fit_fails 3 "$TMP/empty.gz"
}

@test "binary garbage: exit 3" {
    head -c 4096 "$MODEL" | tail -c 2048 >"$TMP/garbage.bin"
    fit_fails 3 "$TMP/garbage.bin"
}

@test "a NUL byte in a text file: exit 3, 'NUL'" {
    # the reader means to refuse binary data ("contains a NUL byte"), but
    # counts a line's length with strlen: a NUL ends the line early, the
    # rest of it is dropped and the next line is glued on
    # a NUL and junk after the last value of the last line
    { head -n 19 "$SMALL"; tail -n 1 "$SMALL" | tr -d '\n'; printf '\0junk\n'; } >"$TMP/nul_last.txt"
    fit_fails 3 "$TMP/nul_last.txt"
    assert_stderr_contains "line 20" "NUL"
    # the same in line 2
    { head -n 1 "$SMALL"; sed -n 2p "$SMALL" | tr -d '\n'; printf '\0junk\n'; tail -n +3 "$SMALL"; } >"$TMP/nul_mid.txt"
    fit_fails 3 "$TMP/nul_mid.txt"
    assert_stderr_contains "line 2" "NUL"
}

@test "truncated gzip: exit 3" {
    local size cut
    size=$(stat -c %s "$DATA/zip.test.gz")
    for cut in 20 100 5000 $((size / 2)) $((size - 8)); do
        head -c "$cut" "$DATA/zip.test.gz" >"$TMP/cut.gz"
        fit_fails 3 "$TMP/cut.gz"
        transform_fails 3 "$MODEL" "$TMP/cut.gz"
    done
}

@test "gzip with a damaged byte: exit 3" {
    cp "$DATA/zip.test.gz" "$TMP/bad.gz"
    chmod u+w "$TMP/bad.gz"
    flip_byte "$TMP/bad.gz" 200000
    fit_fails 3 "$TMP/bad.gz"
}

@test "LIBSVM file with descending indices: exit 3" {
    printf '1 1:0.5 2:0.25 3:0.125\n2 1:0.3 3:0.1 2:0.2\n' >"$TMP/desc.svm"
    fit_fails 3 "$TMP/desc.svm"
    assert_stderr_contains "line 2" "ascending"
    printf '1 1:0.5 1:0.25\n' >"$TMP/dup.svm"
    fit_fails 3 "$TMP/dup.svm"
    assert_stderr_contains "line 1"
    run --separate-stderr "$KPCA" eval "$TMP/desc.svm" "$FIX/feat.svm" --csv "$OUT/t.csv"
    assert_status 3
    assert_error_names "$TMP/desc.svm"
    assert_no_output "$OUT/t.csv"
}

@test "LIBSVM file with bad indices or values: exit 3" {
    printf '1 0:0.5 1:0.25\n' >"$TMP/zero.svm"
    fit_fails 3 "$TMP/zero.svm"
    printf '1 1:0.5 2:abc\n' >"$TMP/val.svm"
    fit_fails 3 "$TMP/val.svm"
    printf '1 1:0.5 2:nan\n2 1:1\n' >"$TMP/nan.svm"
    fit_fails 3 "$TMP/nan.svm"
    printf '1 1:0.5 x:1\n' >"$TMP/idx.svm"
    fit_fails 3 "$TMP/idx.svm"
}

@test "a model file that is not a model: exit 3" {
    # features written by kpca transform
    transform_fails 3 "$FIX/feat.h5" "$SMALL"
    assert_stderr_contains "'$FIX/feat.h5'"
    # a text file
    transform_fails 3 "$SMALL" "$SMALL"
    assert_stderr_contains "'$SMALL'"
    transform_fails 3 "$FIX/feat.svm" "$SMALL"
    # a data file in HDF5
    if [ -r "$DATA/usps.h5" ]; then
        transform_fails 3 "$DATA/usps.h5" "$SMALL"
        assert_stderr_contains "'$DATA/usps.h5'"
    fi
    # an empty file
    : >"$TMP/empty.h5"
    transform_fails 3 "$TMP/empty.h5" "$SMALL"
}

@test "a model file with a flipped byte in its middle: exit 3" {
    local size
    cp "$MODEL" "$TMP/m.h5"
    size=$(stat -c %s "$TMP/m.h5")
    flip_byte "$TMP/m.h5" $((size / 2))
    ! cmp -s "$MODEL" "$TMP/m.h5" || fail "flip_byte changed nothing"
    transform_fails 3 "$TMP/m.h5" "$SMALL"
    assert_stderr_contains "'$TMP/m.h5'"
}

@test "a model file with a flipped byte anywhere in its arrays: exit 3" {
    # a few offsets spread over the data part of the file
    local size off
    size=$(stat -c %s "$MODEL")
    for off in $((size / 5)) $((size / 3)) $((size / 2 + 1)) $((2 * size / 3)) $((4 * size / 5)); do
        cp "$MODEL" "$TMP/m.h5"
        flip_byte "$TMP/m.h5" "$off"
        run --separate-stderr "$KPCA" transform -q "$TMP/m.h5" "$SMALL" -o "$OUT/z.svm"
        assert_status 3
        assert_no_output "$OUT/z.svm"
    done
}

@test "a truncated model file: exit 3" {
    local size
    size=$(stat -c %s "$MODEL")
    head -c $((size / 2)) "$MODEL" >"$TMP/m.h5"
    transform_fails 3 "$TMP/m.h5" "$SMALL"
    head -c 100 "$MODEL" >"$TMP/m.h5"
    transform_fails 3 "$TMP/m.h5" "$SMALL"
}

# the seal (h5util.h): every HDF5 file kpca writes is checked whole before
# libhdf5 parses it
@test "a flipped byte in any part of a model (seal, header, arrays, last byte): exit 3, no HDF5 parse" {
    local size off
    size=$(stat -c %s "$MODEL")
    for off in 20 600 2000 $((size / 2)) $((size - 1)); do
        cp "$MODEL" "$TMP/m.h5"
        flip_byte "$TMP/m.h5" "$off"
        run --separate-stderr "$KPCA" info "$TMP/m.h5"
        assert_status 3
        [[ "$stderr" == *"kpca seal"* ]] || { show_run; fail "byte $off: not caught by the seal"; }
    done
}

@test "a model without the seal (older kpca, or its first 512 bytes lost): exit 3, says so" {
    tail -c +513 "$MODEL" >"$TMP/m.h5"
    run --separate-stderr "$KPCA" info "$TMP/m.h5"
    assert_status 3
    assert_stderr_contains "no kpca seal"
    # the same bytes with a blank user block: valid HDF5, but no seal
    { head -c 512 /dev/zero; tail -c +513 "$MODEL"; } >"$TMP/z.h5"
    run --separate-stderr "$KPCA" info "$TMP/z.h5"
    assert_status 3
    assert_stderr_contains "no kpca seal"
}

@test "features with a flipped byte or cut short: eval exits 3 naming the file" {
    cp "$FIX/feat.h5" "$TMP/f.h5"
    flip_byte "$TMP/f.h5" 3000
    run --separate-stderr "$KPCA" eval -q "$FIX/feat.h5" "$TMP/f.h5"
    assert_status 3
    assert_stderr_contains "'$TMP/f.h5': checksum mismatch (kpca seal)"
    head -c 3000 "$FIX/feat.h5" >"$TMP/f.h5"
    run --separate-stderr "$KPCA" eval -q "$FIX/feat.h5" "$TMP/f.h5"
    assert_status 3
    assert_stderr_contains "the file is truncated or damaged"
}

@test "dimension mismatch between model and data: exit 3" {
    # 255 values per row instead of the model's 256
    awk '{ $NF = ""; print }' "$SMALL" >"$TMP/d255.txt"
    transform_fails 3 "$MODEL" "$TMP/d255.txt"
    assert_stderr_contains "'$TMP/d255.txt'" "'$MODEL'" "255" "256"
    # HDF5 features (5 values per point) are not pixels; (a LIBSVM file may
    # omit trailing zeros, so a narrower one is padded, not refused)
    transform_fails 3 "$MODEL" "$FIX/feat.h5"
    assert_stderr_contains "256"
}

@test "eval: train and test with different numbers of features: exit 3" {
    run --separate-stderr "$KPCA" eval "$FIX/feat.h5" "$SMALL" --csv "$OUT/t.csv"
    assert_status 3
    assert_error_names "$SMALL"
    assert_no_output "$OUT/t.csv"
}

@test "eval: features of two different models, or features against raw data: exit 3, no table" {
    run --separate-stderr "$KPCA" fit -q -d 3 -m 20 -k 5 "$SMALL" -o "$TMP/d3.h5"
    assert_status 0
    "$KPCA" transform -q "$TMP/d3.h5" "$SMALL" -o "$TMP/d3.feat.h5"
    run --separate-stderr "$KPCA" eval -q "$FIX/feat.h5" "$TMP/d3.feat.h5" --csv "$OUT/t.csv"
    assert_status 3
    assert_stderr_contains "two different models" "'$FIX/feat.h5'" "'$TMP/d3.feat.h5'"
    assert_no_output "$OUT/t.csv"
    # the same model: accepted (a copy of the features, another transform)
    "$KPCA" transform -q "$MODEL" "$SMALL" -o "$TMP/again.h5"
    run --separate-stderr "$KPCA" eval -q "$FIX/feat.h5" "$TMP/again.h5"
    assert_status 0
    # features against pixels, either way round, ESL or HDF5 pixels
    run --separate-stderr "$KPCA" eval -q "$FIX/feat.h5" "$SMALL"
    assert_status 3
    assert_stderr_contains "'$FIX/feat.h5' holds kpca features but '$SMALL' holds raw data"
    if have_h5py; then
        "$PY" - "$SMALL" "$TMP/px.h5" <<'PY'
import sys, h5py, numpy
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
with h5py.File(sys.argv[2], "w") as f:
    f["data"] = numpy.array([r[1:6] for r in rows])
    f["target"] = numpy.array([int(r[0]) for r in rows], dtype="int32")
PY
        run --separate-stderr "$KPCA" eval -q "$TMP/px.h5" "$FIX/feat.h5"
        assert_status 3
        assert_stderr_contains "holds raw data"
    fi
}

@test "eval: a LIBSVM file is padded only against another LIBSVM file, and says so" {
    "$KPCA" transform -q -k 3 "$MODEL" "$SMALL" -o "$TMP/k3.svm"
    # against dense features (HDF5): refused, not padded (the 5-component
    # row would be the 3-component error)
    run --separate-stderr "$KPCA" eval -q "$TMP/k3.svm" "$FIX/feat.h5"
    assert_status 3
    assert_stderr_contains "features per point"
    # against a wider LIBSVM file: padded, with a warning that -q keeps
    run --separate-stderr "$KPCA" eval -q "$TMP/k3.svm" "$FIX/feat.svm"
    assert_status 0
    assert_stderr_contains "warning: '$TMP/k3.svm': 3 features, padded with zeros to the 5 of '$FIX/feat.svm'"
}

@test "HDF5 data: a missing group: exit 3; no group: exit 2; a group of a text file: exit 2" {
    [ -r "$DATA/usps.h5" ] || skip "no $DATA/usps.h5"
    run --separate-stderr "$KPCA" fit -q -m 5 "$DATA/usps.h5:nosuchgroup" -o "$OUT/m.h5"
    assert_status 3
    assert_error_names "$DATA/usps.h5"
    assert_stderr_contains "nosuchgroup"
    assert_no_output "$OUT/m.h5"
    run --separate-stderr "$KPCA" fit -q -m 5 "$DATA/usps.h5" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "train" "test"
    assert_no_output "$OUT/m.h5"
    run --separate-stderr "$KPCA" fit -q -m 5 "$SMALL:train" -o "$OUT/m.h5"
    assert_status 2
    assert_no_output "$OUT/m.h5"
}

@test "a failure leaves an existing output file as it was" {
    printf 'precious\n' >"$OUT/z.svm"
    awk 'NR == 3 { $NF = "" } { print }' "$SMALL" >"$TMP/short3.txt"
    run --separate-stderr "$KPCA" transform -q "$MODEL" "$TMP/short3.txt" -o "$OUT/z.svm"
    assert_status 3
    [ "$(cat "$OUT/z.svm")" = precious ]
    assert_no_tmp "$OUT"
}

@test "kernel values that overflow when centred: exit 5, no model" {
    printf '1 10000\n2 10000\n1 9000\n' >"$TMP/big.txt"
    run --separate-stderr "$KPCA" fit -q -d 1 --gamma 1e300 "$TMP/big.txt" -o "$OUT/m.h5"
    assert_status 5
    assert_stderr_contains "overflow"
    assert_no_output "$OUT/m.h5"
}

@test "output through a dangling symbolic link: exit 4, the link untouched" {
    ln -s "$TMP/no/such/dir/m.h5" "$OUT/link.h5"
    run --separate-stderr "$KPCA" fit -q -d 2 -m 10 -k 3 "$SMALL" -o "$OUT/link.h5"
    assert_status 4
    [ -L "$OUT/link.h5" ]
    assert_no_tmp "$OUT"
}

@test "an unreadable model is an i/o error (exit 4), not a format error" {
    [ "$(id -u)" -ne 0 ] || skip "root reads any file"
    cp "$MODEL" "$OUT/m.h5"
    chmod 000 "$OUT/m.h5"
    run --separate-stderr "$KPCA" info "$OUT/m.h5"
    assert_status 4
}

# ---- the memory budget (--memory-limit; default: the memory available) -----

@test "a fit on 200000 points is refused before it allocates: exit 6, sizes named, no model" {
    awk 'BEGIN { for (i = 0; i < 200000; i++) printf "%d 1:%.3f 2:%.3f\n", i % 10, (i % 97) / 97, (i % 13) / 13 }' >"$OUT/big.svm"
    run --separate-stderr "$KPCA" fit -q -d 2 "$OUT/big.svm" -o "$OUT/m.h5"
    assert_status 6
    assert_stderr_contains "kernel PCA on 200000 points needs about" "GiB, more than the memory budget" "--memory-limit"
    assert_no_output "$OUT/m.h5"
}

@test "--memory-limit refuses a fit and an eval that need more; 0 lifts it" {
    # 1500 points of 2 values: 24 KiB to read, 34 MiB for the fit
    awk 'BEGIN { for (i = 0; i < 1500; i++) printf "%d 1:%.3f 2:%.3f\n", i % 10, (i % 97) / 97, (i % 13) / 13 }' >"$OUT/mid.svm"
    run --separate-stderr "$KPCA" fit -q -d 2 --memory-limit 4M "$OUT/mid.svm" -o "$OUT/m.h5"
    assert_status 6
    assert_stderr_contains "kernel PCA on 1500 points needs about" "more than the memory budget of 4.0 MiB"
    assert_no_output "$OUT/m.h5"
    run --separate-stderr "$KPCA" eval -q --memory-limit 4M --backend gram "$OUT/mid.svm" "$OUT/mid.svm"
    assert_status 6
    # its upper triangle in stripes of 512 rows, 1500432 doubles, + 1500 x 2
    # features; LIBSVM's rows of two classes of 150, 16 x 300 x 302 bytes,
    # and its cache, 4 x 300^2; 48 bytes a point: 13 909 056 bytes
    assert_stderr_contains "--backend gram needs about 13.3 MiB (the 1500 x 1500 training Gram matrix and LIBSVM's rows of it)"
    # a budget too small even to read the file: the error and the budget said
    run --separate-stderr "$KPCA" fit -q -d 2 --memory-limit 10K "$OUT/mid.svm" -o "$OUT/m.h5"
    assert_status 6
    assert_stderr_contains "out of memory reading '$OUT/mid.svm'" "hint: the memory budget is 10240 bytes: --memory-limit"
    assert_no_output "$OUT/m.h5"
    run --separate-stderr "$KPCA" fit -q -d 2 -m 20 --memory-limit 0 "$SMALL" -o "$OUT/m.h5"
    assert_status 0
    [ -s "$OUT/m.h5" ]
}

@test "--memory-limit takes 64000K, 62.5M, 2G, 1T, 8GiB, 1e9, 3000000000B; refuses 1x, -5, empty, 0.5, 5iB" {
    local v
    for v in 64000K 62.5M 2G 1T 8GiB 1e9 3000000000B; do
        run --separate-stderr "$KPCA" fit -q -d 2 -m 20 --memory-limit "$v" "$SMALL" -o "$OUT/m.h5"
        assert_status 0
    done
    for v in 1x -5 "" " 5" 1e400 0.5 5iB 0.0001K; do
        run --separate-stderr "$KPCA" fit -q -d 2 -m 20 --memory-limit "$v" "$SMALL" -o "$OUT/n.h5"
        assert_status 2
        assert_stderr_contains "option '--memory-limit'"
        assert_no_output "$OUT/n.h5"
    done
}

@test "an HDF5 file that claims 10^9 x 256 values (none stored) is refused by the budget: exit 6" {
    /usr/bin/python3 -c 'import h5py' 2>/dev/null || skip "python3-h5py missing"
    /usr/bin/python3 - "$OUT/claims.h5" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "w") as f:
    f.create_dataset("data", shape=(10**9, 256), dtype="f4", chunks=(1024, 256))
    f.create_dataset("target", shape=(10**9,), dtype="i8", chunks=(4096,))
PY
    [ "$(stat -c %s "$OUT/claims.h5")" -lt 100000 ]
    run --separate-stderr "$KPCA" fit -q -d 2 --memory-limit 8G "$OUT/claims.h5" -o "$OUT/m.h5"
    assert_status 6
    assert_stderr_contains "dataset 'data' in" "(1000000000 x 256) needs about 2861.0 GiB, more than the memory budget of 8.0 GiB"
    assert_no_output "$OUT/m.h5"
}

# ---- the remaining cases of issue 5's list --------------------------------

@test "whitespace text: labels first only when they are few distinct integers (ESL), said; a word is refused" {
    printf '1.5 0.5 0.25\n2 0.5 0.25\n' >"$TMP/l.txt"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/l.txt" -o "$OUT/m1.h5"
    assert_status 0
    assert_stderr_contains "read '$TMP/l.txt': 2 rows x 3 values, no labels"
    printf '1 0.5 0.25\nx 0.5 0.25\n' >"$TMP/l.txt"
    fit_fails 3 "$TMP/l.txt"
    assert_stderr_contains "line 2: expected a number, found 'x' (if the first column holds class names, give --label first)"
    printf '12 0.5 0.25\n-1 0.25 0.5\n' >"$TMP/l.txt"
    run --separate-stderr "$KPCA" fit -k 1 "$TMP/l.txt" -o "$OUT/m2.h5"
    assert_status 0
    assert_stderr_contains "read '$TMP/l.txt': 2 rows x 2 values, labels from column 1 (2 classes)"
}

@test "ESL: a truncated last line (no newline, values missing): exit 3, its line named" {
    head -n 5 "$SMALL" >"$TMP/t.txt"
    sed -n 6p "$SMALL" | awk '{ for (i = 1; i <= 101; i++) printf "%s%s", $i, (i < 101 ? " " : "") }' >>"$TMP/t.txt"
    fit_fails 3 "$TMP/t.txt"
    assert_stderr_contains "line 6: expected 256 values after the label, found 100"
}

@test "ESL: CRLF line ends, trailing blanks, no final newline read as the clean file" {
    sed 's/$/  \r/' "$SMALL" >"$TMP/crlf.txt"
    head -c -2 "$TMP/crlf.txt" >"$TMP/nofinal.txt"
    local f
    for f in "$SMALL" "$TMP/crlf.txt" "$TMP/nofinal.txt"; do
        "$KPCA" transform -q "$MODEL" "$f" -o "$OUT/$(basename "$f").csv"
    done
    cmp "$OUT/small.txt.csv" "$OUT/crlf.txt.csv" || fail "CRLF + trailing blanks read differently"
    cmp "$OUT/small.txt.csv" "$OUT/nofinal.txt.csv" || fail "a missing final newline read differently"
}

@test "LIBSVM: a missing colon, an index beyond the model's dimension: exit 3" {
    printf '1 1:0.5 2\n' >"$TMP/c.svm"
    fit_fails 3 "$TMP/c.svm"
    assert_stderr_contains "line 1: expected index:value, found '2'"
    printf '1 1:0.5 257:1\n' >"$TMP/wide.svm"
    transform_fails 3 "$MODEL" "$TMP/wide.svm"
    assert_stderr_contains "'$TMP/wide.svm'"
}

@test "HDF5 data: wrong rank, wrong type, data and target of different lengths: exit 3" {
    have_h5py || skip "python3-h5py missing"
    "$PY" - "$TMP" <<'PY'
import sys, h5py, numpy as np
d = sys.argv[1]
with h5py.File(d + "/rank.h5", "w") as f:
    f["data"] = np.zeros(10); f["target"] = np.zeros(10, dtype=np.int64)
with h5py.File(d + "/type.h5", "w") as f:
    f["data"] = np.array([[b"ab", b"cd"]] * 3); f["target"] = np.zeros(3, dtype=np.int64)
with h5py.File(d + "/ftarget.h5", "w") as f:
    f["data"] = np.zeros((3, 2)); f["target"] = np.array([0.0, 0.5, 1.0])  # floats: integers only
with h5py.File(d + "/shape.h5", "w") as f:
    f["data"] = np.zeros((5, 2)); f["target"] = np.zeros(4, dtype=np.int64)
PY
    fit_fails 3 "$TMP/rank.h5"
    assert_stderr_contains "'data'"
    fit_fails 3 "$TMP/type.h5"
    assert_stderr_contains "'data' has the wrong type"
    fit_fails 3 "$TMP/ftarget.h5"
    assert_stderr_contains "dataset 'target' row 2: label 0.5 is no integer (labels are classes)"
    fit_fails 3 "$TMP/shape.h5"
    assert_stderr_contains "'$TMP/shape.h5'"
}

# set_attr MODEL NAME i:INT|s:STRING: change one root attribute with h5py (a
# string as a fixed-length one, as kpca writes them; \n for a newline), then
# re-seal the file as kpca would, so that only the loader's checks can refuse it
set_attr() {
    "$PY" - "$@" <<'PY'
import sys, zlib, h5py, numpy
path, name, value = sys.argv[1:4]
with h5py.File(path, "r+") as f:
    if value.startswith("s:"):
        f.attrs[name] = numpy.bytes_(value[2:].replace("\\n", "\n").encode())
    else:
        f.attrs[name] = int(value[2:])
b = bytearray(open(path, "rb").read())
seal = b"kpca-seal 1 length=%d crc32=%08x\n" % (len(b), zlib.crc32(b[512:]))
b[:512] = seal + bytes(512 - len(seal))
open(path, "wb").write(b)
PY
}

@test "a sealed model of an unknown version, or whose dimension disagrees with its arrays: exit 3" {
    have_h5py || skip "python3-h5py missing"
    local attr
    for attr in version:6 version:1 dim:999; do
        cp "$MODEL" "$TMP/m.h5"
        set_attr "$TMP/m.h5" "${attr%%:*}" "i:${attr##*:}"
        run --separate-stderr "$KPCA" info "$TMP/m.h5"
        assert_status 3
        [[ "$stderr" != *"kpca seal"* ]] || { show_run; fail "$attr: the re-sealed file failed its seal"; }
        transform_fails 3 "$TMP/m.h5" "$SMALL"
    done
    run --separate-stderr "$KPCA" info "$TMP/m.h5"
    assert_stderr_contains "dataset 'fit_x' is 20 x 256, expected 20 x 999"
}

@test "a sealed model with a bad string attribute or fit_points: exit 3, says which attribute" {
    have_h5py || skip "python3-h5py missing"
    local case name value msg
    for case in "solver|s:exact\nevd|control character" "solver|s:$(printf '%070d' 0)|characters long" \
        "fit_points|i:21|checksum mismatch"; do
        IFS='|' read -r name value msg <<<"$case"
        cp "$MODEL" "$TMP/m.h5"
        set_attr "$TMP/m.h5" "$name" "$value"
        run --separate-stderr "$KPCA" info "$TMP/m.h5"
        assert_status 3
        assert_stderr_contains "$msg"
        [[ "$name" == fit_points || "$stderr" == *"'$name'"* ]] || { show_run; fail "$name not named"; }
    done
    # free-text provenance is not refused (kpca once copied file names into
    # it as they were): its control characters read as '?'; a version-2
    # model's checksum does not cover it, a version-3 model's does
    cp "$REPO/tests/ref/models-3038552/poly2.h5" "$TMP/m.h5"
    set_attr "$TMP/m.h5" source 's:small\n.txt'
    run --separate-stderr "$KPCA" info "$TMP/m.h5"
    assert_status 0
    assert_stdout_contains "version 2" "source small?.txt"
    cp "$MODEL" "$TMP/m.h5"
    set_attr "$TMP/m.h5" source 's:small\n.txt'
    run --separate-stderr "$KPCA" info "$TMP/m.h5"
    assert_status 3
    assert_stderr_contains "checksum mismatch"
}

@test "constant or duplicated fit points (a zero centred kernel): exit 5, said plainly, no model" {
    printf '1 0.5 0.25\n2 0.5 0.25\n3 0.5 0.25\n' >"$TMP/same.txt"
    run --separate-stderr "$KPCA" fit -q -d 2 "$TMP/same.txt" -o "$OUT/m.h5"
    assert_status 5
    assert_stderr_contains "the centred kernel matrix is zero: all fit points coincide in feature space"
    assert_no_output "$OUT/m.h5"
    # points that differ in input space but coincide in feature space: x and -x for d = 2
    printf '1 0.5 0.25\n2 -0.5 -0.25\n' >"$TMP/pm.txt"
    run --separate-stderr "$KPCA" fit -q -d 2 "$TMP/pm.txt" -o "$OUT/m.h5"
    assert_status 5
    assert_no_output "$OUT/m.h5"
}

@test "sigmoid (not PSD): negative eigenvalues are dropped and counted, no NaN in the model or features" {
    run --separate-stderr "$KPCA" fit --kernel sigmoid "$SMALL" -o "$OUT/s.h5"
    assert_status 0
    assert_stderr_contains "eigenvalues are negative (the sigmoid kernel is not positive semi-definite)"
    run --separate-stderr "$KPCA" info --eigenvalues "$OUT/s.h5"
    assert_status 0
    assert_stdout_contains "kernel sigmoid"
    ! printf '%s\n' "$output" | grep -qiwE 'nan|[+-]?inf(inity)?' || fail "non-finite value in: $output"
    run --separate-stderr "$KPCA" transform -q --output-format libsvm "$OUT/s.h5" "$SMALL" -o "$OUT/s.svm"
    assert_status 0
    ! grep -qiwE 'nan|[+-]?inf(inity)?' "$OUT/s.svm" || fail "non-finite feature"
}

@test "an HDF5 file whose superblock is damaged is refused before libhdf5 reads it: exit 3" {
    # found by fuzzing: libhdf5 1.10.8 spent 9 s and 3.2 GB on this 3 KB file
    local f="$BATS_TEST_DIRNAME/../fuzz/corpus/hdf5/oom-3gb-bad-superblock"
    [ -s "$f" ] || fail "the corpus file is missing"
    run --separate-stderr "$KPCA" fit -q "$f" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "damaged HDF5 superblock"
    assert_no_output "$OUT/m.h5"
}
