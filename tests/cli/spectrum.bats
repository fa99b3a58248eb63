#!/usr/bin/env bats
# spectrum.bats - kpca spectrum, --bessel, and fit --components FRACTION.

load ../helper

setup() {
    common_setup
    head_rows "$DATA/zip.train.gz" 400 "$TMP/fit.txt"
}

@test "spectrum: one row per kept eigenvalue, explained = mu / trace, cumulative rises to the kept share" {
    run --separate-stderr "$KPCA" fit -q -d 2 "$TMP/fit.txt" -o "$TMP/m.h5"
    assert_status 0
    run --separate-stderr "$KPCA" spectrum --csv - "$TMP/m.h5"
    assert_status 0
    printf '%s\n' "$output" >"$TMP/s.csv"
    [ "$(head -n 1 "$TMP/s.csv")" = "component,eigenvalue,variance,explained,cumulative" ] || fail "header"
    k=$("$KPCA" info "$TMP/m.h5" | awk '$1 == "components" { print $2 }')
    trace=$("$KPCA" info "$TMP/m.h5" | awk '$1 == "trace" { print $2 }')
    explained=$("$KPCA" info "$TMP/m.h5" | awk '$1 == "explained" { print $2 }')
    [ "$(($(wc -l <"$TMP/s.csv") - 1))" -eq "$k" ] || fail "rows != $k components"
    # variance = mu / 400; explained = mu / trace; cumulative = running sum,
    # descending eigenvalues, and the last cumulative is info's explained
    awk -F, -v tr="$trace" -v ex="$explained" 'NR > 1 {
        if ($1 != NR - 1) { print "component " $1 " at row " NR; bad = 1 }
        if (NR > 2 && $2 > prev) { print "not descending at " $1; bad = 1 }
        prev = $2
        if (($3 - $2 / 400) ^ 2 > (1e-12 * $2) ^ 2) { print "variance " $3 " != mu/M at " $1; bad = 1 }
        if (($4 - $2 / tr) ^ 2 > 1e-18) { print "explained " $4 " at " $1; bad = 1 }
        cum += $2 / tr
        if (($5 - cum) ^ 2 > 1e-16) { print "cumulative " $5 " != " cum " at " $1; bad = 1 }
        last = $5
    } END { if ((last - ex) ^ 2 > 1e-10) { print "last cumulative " last " != info explained " ex; bad = 1 }
            exit bad }' "$TMP/s.csv" || fail "spectrum table inconsistent"
}

@test "spectrum --bessel scales the variance column by M / (M - 1) and changes nothing else; no other command takes it" {
    run --separate-stderr "$KPCA" fit -q -d 3 -k 30 "$TMP/fit.txt" -o "$TMP/m.h5"
    assert_status 0
    "$KPCA" spectrum -q --csv "$TMP/plain.csv" "$TMP/m.h5" >/dev/null
    "$KPCA" spectrum -q --bessel --csv "$TMP/bessel.csv" "$TMP/m.h5" >/dev/null
    paste -d, "$TMP/plain.csv" "$TMP/bessel.csv" | awk -F, 'NR > 1 {
        if ($1 != $6 || $2 != $7 || $4 != $9 || $5 != $10) { print "row " NR " differs outside variance"; bad = 1 }
        r = $8 / $3
        if ((r - 400 / 399) ^ 2 > 1e-24) { print "ratio " r " at row " NR; bad = 1 }
    } END { exit bad }' || fail "--bessel changed more than the variance scale"
    # --bessel is a reporting option: no other command has it
    run --separate-stderr "$KPCA" transform --bessel "$TMP/m.h5" "$TMP/fit.txt" -o "$OUT/f.h5"
    assert_status 2
}

@test "spectrum tables: CSV, Markdown and JSON with the same columns; the plain table too" {
    run --separate-stderr "$KPCA" fit -q -d 2 -k 12 "$TMP/fit.txt" -o "$TMP/m.h5"
    assert_status 0
    run --separate-stderr "$KPCA" spectrum --csv "$OUT/s.csv" --markdown "$OUT/s.md" --json "$OUT/s.json" "$TMP/m.h5"
    assert_status 0
    assert_stdout_contains "component" "eigenvalue" "variance" "explained" "cumulative"
    assert_stderr_contains "12 components kept" "% of trace(K~)"
    [ "$(head -n 1 "$OUT/s.md")" = "| component | eigenvalue | variance | explained | cumulative |" ] || fail "md header"
    [ "$(grep -c '"component"' "$OUT/s.json")" -eq 12 ] || fail "json rows"
    [ "$(($(wc -l <"$OUT/s.csv") - 1))" -eq 12 ] || fail "csv rows"
    if [ -x "$PY" ]; then
        "$PY" -c 'import json, sys; t = json.load(open(sys.argv[1])); assert len(t) == 12 and list(t[0]) == ["component", "eigenvalue", "variance", "explained", "cumulative"]' "$OUT/s.json" || fail "json"
    fi
}

@test "spectrum of a non-model, a missing file, extra arguments: clean errors" {
    run --separate-stderr "$KPCA" spectrum "$TMP/fit.txt"
    assert_status 3
    assert_error_names "$TMP/fit.txt"
    run --separate-stderr "$KPCA" spectrum "$TMP/none.h5"
    assert_status 4
    run --separate-stderr "$KPCA" spectrum a b
    assert_status 2
    run --separate-stderr "$KPCA" fit -q -d 2 -k 5 "$TMP/fit.txt" -o "$TMP/m.h5"
    assert_status 0
    run --separate-stderr "$KPCA" spectrum --csv "$OUT/no/dir/s.csv" "$TMP/m.h5"
    assert_status 4
    assert_error_names "$OUT/no/dir/s.csv"
    assert_no_output "$OUT/no/dir/s.csv"
    # all tables or none: a good CSV path is not written when the Markdown one fails
    run --separate-stderr "$KPCA" spectrum --csv "$OUT/s.csv" --markdown "$OUT/no/dir/s.md" "$TMP/m.h5"
    assert_status 4
    assert_no_output "$OUT/s.csv"
    run --separate-stderr "$KPCA" spectrum --csv "$OUT/s.csv" --json /dev/full "$TMP/m.h5"
    [ "$status" -ne 0 ] || fail "a write error to /dev/full went unnoticed"
    assert_no_output "$OUT/s.csv"
}

@test "spectrum of a Nystrom model: variance is mu over the fit points, not the landmarks" {
    run --separate-stderr "$KPCA" fit -q -d 2 -k 10 --solver nystrom --landmarks 60 "$TMP/fit.txt" -o "$TMP/n.h5"
    assert_status 0
    run --separate-stderr "$KPCA" info "$TMP/n.h5"
    assert_stdout_contains "fit_points 400" "model_points 60"
    run --separate-stderr "$KPCA" spectrum --csv "$TMP/n.csv" "$TMP/n.h5"
    assert_status 0
    assert_stderr_contains "of at most 60, the landmarks" "M = 400 fit points"
    awk -F, 'NR > 1 { if (($3 - $2 / 400) ^ 2 > (1e-12 * $2) ^ 2) { print "variance " $3 " != mu/400"; bad = 1 } }
        END { exit bad }' "$TMP/n.csv" || fail "Nystrom variance not over the 400 fit points"
    "$KPCA" spectrum -q --bessel --csv "$TMP/nb.csv" "$TMP/n.h5" >/dev/null
    paste -d, "$TMP/n.csv" "$TMP/nb.csv" | awk -F, 'NR > 1 { r = $8 / $3; if ((r - 400 / 399) ^ 2 > 1e-24) bad = 1 }
        END { exit bad }' || fail "--bessel on a Nystrom model is not M / (M - 1) with M = 400"
}

@test "sigmoid: fit --components FRACTION refused (indefinite kernel); spectrum says what explained means" {
    run --separate-stderr "$KPCA" fit -q --kernel sigmoid -k 0.9 "$TMP/fit.txt" -o "$OUT/s.h5"
    assert_status 2
    assert_stderr_contains "positive semi-definite"
    assert_no_output "$OUT/s.h5"
    run --separate-stderr "$KPCA" fit -q --kernel sigmoid -k 20 "$TMP/fit.txt" -o "$TMP/s.h5"
    assert_status 0
    run --separate-stderr "$KPCA" spectrum "$TMP/s.h5"
    assert_status 0
    assert_stderr_contains "indefinite"
}

@test "fit --components 0.9: the fewest components that explain 90% of the trace" {
    for kern in "-d 3" "--kernel linear" "--kernel rbf"; do
        # shellcheck disable=SC2086
        run --separate-stderr "$KPCA" fit -q $kern -k 0.9 "$TMP/fit.txt" -o "$TMP/v.h5"
        assert_status 0
        # shellcheck disable=SC2086
        run --separate-stderr "$KPCA" fit -q $kern "$TMP/fit.txt" -o "$TMP/all.h5"
        assert_status 0
        k=$("$KPCA" info "$TMP/v.h5" | awk '$1 == "components" { print $2 }')
        "$KPCA" spectrum -q --csv "$TMP/all.csv" "$TMP/all.h5" >/dev/null
        # from the full spectrum: cumulative(k) >= 0.9 > cumulative(k - 1)
        awk -F, -v k="$k" 'NR > 1 { c[$1] = $5 } END {
            if (!(c[k] >= 0.9)) { print "cumulative at k=" k " is " c[k]; exit 1 }
            if (k > 1 && !(c[k - 1] < 0.9)) { print "k=" k " is not the fewest: " c[k - 1]; exit 1 } }' "$TMP/all.csv" ||
            fail "$kern: $k components"
    done
}

@test "fit --components: fractions in (0, 1) only; not with --eig evr" {
    for v in 1.0 0 -0.5 1.5 0.0 nan 95%; do
        run --separate-stderr "$KPCA" fit -q -k "$v" "$TMP/fit.txt" -o "$OUT/m.h5"
        assert_status 2
        assert_stderr_contains "option '--components'"
        assert_no_output "$OUT/m.h5"
    done
    run --separate-stderr "$KPCA" fit -q -k 0.5 --eig evr "$TMP/fit.txt" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "needs every eigenvalue"
    # beyond LAPACK's 32-bit workspace (46338 points): refused before the
    # kernel matrix, not a crash or an overflowed workspace
    awk 'BEGIN { for (i = 0; i < 46339; i++) printf "%d %.3f %.3f\n", i % 10, (i % 97) / 97, (i % 89) / 89 }' >"$TMP/big.txt"
    run --separate-stderr "$KPCA" fit -q -k 0.5 --memory-limit 0 "$TMP/big.txt" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "at most 46338 points"
    assert_no_output "$OUT/m.h5"
}
