#!/usr/bin/env bats
# run.bats - a small real run on USPS: fit -d 2 -m 500 -k 64, transform
# train and test, eval -k 16,64; the same from usps.h5; determinism.

load ../helper

# esl_run: the run on the ESL files, once per file (cached in the file's
# scratch directory); sets ESL to that directory, holding model.h5,
# train.h5, test.h5, table.txt and the exit status of each step in rc.*
esl_run() {
    ESL="$(file_tmp)/esl"
    if [ ! -f "$ESL/done" ]; then
        rm -rf "$ESL"
        mkdir -p "$ESL"
        local rc=0
        "$KPCA" fit -d 2 -m 500 -k 64 "$DATA/zip.train.gz" -o "$ESL/model.h5" 2>"$ESL/fit.err" || rc=$?
        echo "$rc" >"$ESL/rc.fit"
        rc=0
        "$KPCA" transform "$ESL/model.h5" "$DATA/zip.train.gz" -o "$ESL/train.h5" 2>"$ESL/train.err" || rc=$?
        echo "$rc" >"$ESL/rc.train"
        rc=0
        "$KPCA" transform "$ESL/model.h5" "$DATA/zip.test.gz" -o "$ESL/test.h5" 2>"$ESL/test.err" || rc=$?
        echo "$rc" >"$ESL/rc.test"
        rc=0
        "$KPCA" eval -k 16,64 "$ESL/train.h5" "$ESL/test.h5" >"$ESL/table.txt" 2>"$ESL/eval.err" || rc=$?
        echo "$rc" >"$ESL/rc.eval"
        touch "$ESL/done"
    fi
}

@test "small run on zip.train.gz/zip.test.gz: exit 0, 2 table rows, 3% < error(64) < 15%" {
    esl_run
    local step
    for step in fit train test eval; do
        [ "$(cat "$ESL/rc.$step")" -eq 0 ] || { cat "$ESL/$step.err" >&2; fail "$step: exit $(cat "$ESL/rc.$step")"; }
        ! grep -q '^error:' "$ESL/$step.err" || { cat "$ESL/$step.err" >&2; fail "$step printed an error"; }
    done
    output="$(cat "$ESL/table.txt")"
    printf '%s\n' "$output" >&2
    [ "$(printf '%s\n' "$output" | wc -l)" -eq 3 ] || fail "expected a header and 2 rows"
    [ "$(printf '%s\n' "$output" | awk 'NR > 1 { printf "%s ", $1 }')" = "16 64 " ]
    [ "$(printf '%s\n' "$output" | awk 'NR > 1 { printf "%s ", $4 }')" = "2007 2007 " ]
    local e64
    e64="$(table_error_pct 64)"
    awk -v e="$e64" 'BEGIN { exit !(e > 3 && e < 15) }' || fail "error at 64 components is $e64%"
    # 64 components are no worse than 16 on this run
    awk -v a="$(table_errors 16)" -v b="$(table_errors 64)" 'BEGIN { exit !(b <= a) }'
}

@test "small run: fit and transform report what they did on stderr, quietly with -q" {
    esl_run
    grep -q "500 of 7291" "$ESL/fit.err"
    grep -q "kept 64 components" "$ESL/fit.err"
    grep -q "7291 points onto 64 components" "$ESL/train.err"
    grep -q "2007 points onto 64 components" "$ESL/test.err"
    ! grep -q '^warning:' "$ESL/train.err" "$ESL/test.err" || fail "a warning on the ESL data"
    run --separate-stderr "$KPCA" transform -q "$ESL/model.h5" "$DATA/zip.test.gz" -o "$OUT/z.svm"
    assert_status 0
    [ -z "$stderr" ]
    [ -z "$output" ]
}

@test "the same run on usps.h5 with --input-range 0,1 --round 3: byte-identical table" {
    [ -r "$DATA/usps.h5" ] || skip "no $DATA/usps.h5"
    esl_run
    [ -s "$ESL/table.txt" ] || fail "the ESL run made no table"
    local r=(--input-range 0,1 --round 3)
    run --separate-stderr "$KPCA" fit -q -d 2 -m 500 -k 64 "${r[@]}" "$DATA/usps.h5:train" -o "$TMP/model.h5"
    assert_status 0
    run --separate-stderr "$KPCA" transform "${r[@]}" "$TMP/model.h5" "$DATA/usps.h5:train" -o "$TMP/train.h5"
    assert_status 0
    [[ "$stderr" != *warning* ]] || { show_run; fail "a warning with --input-range"; }
    run --separate-stderr "$KPCA" transform -q "${r[@]}" "$TMP/model.h5" "$DATA/usps.h5:test" -o "$TMP/test.h5"
    assert_status 0
    "$KPCA" eval -k 16,64 "$TMP/train.h5" "$TMP/test.h5" >"$TMP/table.txt" 2>/dev/null
    cmp "$ESL/table.txt" "$TMP/table.txt" || { diff "$ESL/table.txt" "$TMP/table.txt" >&2; fail "tables differ"; }
    # the features themselves agree to the last bit
    "$KPCA" transform -q "${r[@]}" "$TMP/model.h5" "$DATA/usps.h5:test" -o "$TMP/test.svm"
    "$KPCA" transform -q "$ESL/model.h5" "$DATA/zip.test.gz" -o "$TMP/test_esl.svm"
    cmp "$TMP/test.svm" "$TMP/test_esl.svm"
}

@test "usps.h5 without --input-range: transform warns, naming --input-range" {
    [ -r "$DATA/usps.h5" ] || skip "no $DATA/usps.h5"
    esl_run
    run --separate-stderr "$KPCA" transform "$ESL/model.h5" "$DATA/usps.h5:test" -o "$TMP/test.svm"
    assert_status 0
    assert_stderr_contains "warning:" "--input-range"
    # -q does not hide the warning
    run --separate-stderr "$KPCA" transform -q "$ESL/model.h5" "$DATA/usps.h5:test" -o "$TMP/test2.svm"
    assert_status 0
    assert_stderr_contains "warning:" "--input-range"
}

@test "determinism: fitting twice gives byte-identical transform outputs" {
    local rep
    for rep in 1 2; do
        run --separate-stderr "$KPCA" fit -q -d 2 -m 300 -k 16 "$DATA/zip.train.gz" -o "$TMP/m$rep.h5"
        assert_status 0
        run --separate-stderr "$KPCA" transform -q "$TMP/m$rep.h5" "$DATA/zip.test.gz" -o "$TMP/z$rep.svm"
        assert_status 0
    done
    cmp "$TMP/z1.svm" "$TMP/z2.svm"
    # and transforming twice with one model
    "$KPCA" transform -q "$TMP/m1.h5" "$DATA/zip.test.gz" -o - >"$TMP/z3.svm"
    cmp "$TMP/z1.svm" "$TMP/z3.svm"
}

@test "determinism: a random subset (--seed) is the same each time, and differs from the first rows" {
    local rep
    for rep in 1 2; do
        run --separate-stderr "$KPCA" fit -q -d 2 -m 200 -k 8 -s 42 "$DATA/zip.train.gz" -o "$TMP/m$rep.h5"
        assert_status 0
        "$KPCA" transform -q "$TMP/m$rep.h5" "$DATA/zip.test.gz" -o "$TMP/z$rep.svm"
    done
    cmp "$TMP/z1.svm" "$TMP/z2.svm"
    "$KPCA" fit -q -d 2 -m 200 --sample first -k 8 "$DATA/zip.train.gz" -o "$TMP/m0.h5"
    "$KPCA" transform -q "$TMP/m0.h5" "$DATA/zip.test.gz" -o "$TMP/z0.svm"
    ! cmp -s "$TMP/z0.svm" "$TMP/z1.svm" || fail "--seed 42 gave the first rows"
    "$KPCA" fit -q -d 2 -m 200 -k 8 "$DATA/zip.train.gz" -o "$TMP/m9.h5"
    "$KPCA" transform -q "$TMP/m9.h5" "$DATA/zip.test.gz" -o "$TMP/z9.svm"
    ! cmp -s "$TMP/z9.svm" "$TMP/z1.svm" || fail "--seed 42 gave the default seed's rows"
}

@test "determinism: eval prints the same table twice" {
    esl_run
    run --separate-stderr "$KPCA" eval -q -k 16 --backend sparse "$ESL/train.h5" "$ESL/test.h5"
    assert_status 0
    local first="$output"
    run --separate-stderr "$KPCA" eval -q -k 16 --backend sparse "$ESL/train.h5" "$ESL/test.h5"
    [ "$output" = "$first" ]
}

@test "small run: -c with several values picks C by cross-validation on TRAIN and says which" {
    esl_run
    run --separate-stderr "$KPCA" eval -q -k 16 -c 0.5,5 --folds 3 "$ESL/train.h5" "$ESL/test.h5" --csv "$OUT/cv.csv"
    assert_status 0
    printf '%s\n' "$output" >&2
    [ "$(printf '%s\n' "$output" | head -n 1 | awk '{ print $5, $6 }')" = "C cv_error" ]
    local c
    c="$(printf '%s\n' "$output" | awk 'NR == 2 { print $5 }')"
    [ "$c" = 0.5 ] || [ "$c" = 5 ] || fail "chosen C '$c' is not a candidate"
    # the chosen C alone gives the same test error
    run --separate-stderr "$KPCA" eval -q -k 16 -c "$c" "$ESL/train.h5" "$ESL/test.h5"
    assert_status 0
    [ "$(printf '%s\n' "$output" | awk 'NR == 2 { print $3 }')" = "$(awk -F, 'NR == 2 { print $3 }' "$OUT/cv.csv")" ]
}

@test "small run: kpca info reports the model's numbers as key value lines" {
    esl_run
    run --separate-stderr "$KPCA" info -e "$ESL/model.h5"
    assert_status 0
    [ "$(printf '%s\n' "$output" | awk '$1 == "degree" { print $2 }')" = 2 ]
    [ "$(printf '%s\n' "$output" | awk '$1 == "fit_points" { print $2 }')" = 500 ]
    [ "$(printf '%s\n' "$output" | awk '$1 == "components" { print $2 }')" = 64 ]
    [ "$(printf '%s\n' "$output" | grep -c '^eigenvalue ')" -eq 64 ]
    # eigenvalues descending and their sum below the trace
    printf '%s\n' "$output" | awk '$1 == "trace" { t = $2 } $1 == "eigenvalue" { if (n++ && $3 > prev) bad = 1; prev = $3; s += $3 }
        END { exit bad || !(s < t) }'
    run --separate-stderr "$KPCA" info "$ESL/train.h5"
    assert_status 3
}

@test "kpca info lists the parameters a model's kernel has, and no others" {
    gzip -dc "$DATA/zip.train.gz" | head -n 60 >"$TMP/f.txt"
    local kern want
    for kern in "poly:degree gamma coef0" "rbf:sigma" "sigmoid:gamma coef0" "linear:"; do
        want=${kern#*:}
        "$KPCA" fit -q --kernel "${kern%%:*}" -k 3 "$TMP/f.txt" -o "$TMP/m.h5" || fail "fit ${kern%%:*}"
        run --separate-stderr "$KPCA" info "$TMP/m.h5"
        assert_status 0
        got=$(printf '%s\n' "$output" | awk '$1 ~ /^(degree|gamma|coef0|sigma)$/ { print $1 }' | paste -sd' ' -)
        [ "$got" = "$want" ] || fail "${kern%%:*}: parameters '$got', expected '$want'"
    done
}
