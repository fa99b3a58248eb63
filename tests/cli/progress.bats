#!/usr/bin/env bats
# progress.bats - the progress meter (only on a terminal, silenced by -q)
# and -v's timing lines.

load ../helper

setup_file() {
    local d k="${KPCA:-$BATS_TEST_DIRNAME/../../build/kpca}"
    d="$(file_tmp)"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.train.gz" | head -n 400 >"$d/train.txt"
    "$k" fit -q -d 2 -m 300 -k 20 "$d/train.txt" -o "$d/model.h5"
    "$k" transform -q "$d/model.h5" "$d/train.txt" -o "$d/train.h5"
}

setup() {
    common_setup
    FIX="$(file_tmp)"
}

# on_tty CMD...: runs CMD with stdin, stdout and stderr on a pseudo-terminal
# (script(1)); $output is what the terminal showed
on_tty() {
    command -v script >/dev/null || skip "no script(1)"
    local q
    q=$(printf ' %q' "$@")
    run script -qec "$q" /dev/null
}

@test "-v: one timing line per phase, in order, then the total" {
    run --separate-stderr "$KPCA" fit -q -v -d 2 -m 300 -k 10 "$FIX/train.txt" -o "$OUT/m.h5"
    assert_status 0
    # "kpca fit: timing SECONDS s NAME", phases in order, the total last and
    # at least their sum
    [ "$(printf '%s\n' "$stderr" | awk '{ $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); print }' | paste -sd'|' -)" = \
        "read|kernel|centring|eigensolve|write|total" ] || { show_run; fail "fit phases"; }
    printf '%s\n' "$stderr" | awk '!/^kpca fit: timing +[0-9]+\.[0-9][0-9][0-9] s [a-z]/ { bad = 1 }
        $6 == "total" { t = $4; next } { s += $4 } END { exit bad || !(s <= t + 0.01) }' ||
        { show_run; fail "bad fit timing lines (or phases longer than the total)"; }
    run --separate-stderr "$KPCA" transform -q -v "$FIX/model.h5" "$FIX/train.txt" -o "$OUT/z.h5"
    assert_status 0
    [ "$(printf '%s\n' "$stderr" | sed 's/^kpca transform: timing *[0-9.]* s //' | paste -sd'|' -)" = \
        "load model|read|projection|write|total" ] || { show_run; fail "transform phases"; }
    run --separate-stderr "$KPCA" eval -q -v -k 5,20 "$FIX/train.h5" "$FIX/train.h5"
    assert_status 0
    # a phase name with a blank stays whole, after the seconds
    [ "$(printf '%s\n' "$stderr" | sed 's/^kpca eval: timing *[0-9.]* s //' | grep -c '^svm \(5\|20\)$')" -eq 2 ] ||
        { show_run; fail "eval svm phases"; }
    assert_stderr_contains "s total"
    [ "${#lines[@]}" -eq 3 ] || { show_run; fail "the table changed"; }
}

@test "-v: a streamed pass's reading and computing on two lines, adding up to the total" {
    run --separate-stderr "$KPCA" fit -q -v --solver nystrom --landmarks 50 -d 2 -k 5 "$FIX/train.txt" -o "$OUT/n.h5"
    assert_status 0
    # the Nystrom fit reads DATA a block at a time in each pass
    for pass in statistics accumulate signs; do
        for part in read compute; do
            printf '%s\n' "$stderr" | grep -Eq "^kpca fit: timing +[0-9]+\.[0-9]{3} s $pass: $part\$" ||
                { show_run; fail "no '$pass: $part' timing line"; }
        done
    done
    printf '%s\n' "$stderr" | awk '!/^kpca fit: timing +[0-9]+\.[0-9][0-9][0-9] s [a-z]/ { bad = 1 }
        $6 == "total" { t = $4; next } { s += $4 } END { exit bad || !(s <= t + 0.01) }' ||
        { show_run; fail "bad timing lines (or phases longer than the total)"; }
    # the in-memory fit reads once, in a phase of its own
    run --separate-stderr "$KPCA" fit -q -v -d 2 -m 300 -k 10 "$FIX/train.txt" -o "$OUT/m.h5"
    assert_status 0
    [[ "$stderr" != *": read"$'\n'* && "$stderr" != *": compute"* ]] || { show_run; fail "a split line without a pass"; }
}

@test "not a terminal: no meter (no carriage return or escape) on stderr" {
    run --separate-stderr "$KPCA" fit -d 2 -m 300 -k 10 "$FIX/train.txt" -o "$OUT/m.h5"
    assert_status 0
    [[ "$stderr" != *$'\r'* && "$stderr" != *$'\e'* ]] || { show_run; fail "meter drawn without a terminal"; }
}

@test "on a terminal: the meter names the phases and is erased; -q draws nothing" {
    on_tty "$KPCA" eval -k 5,20 "$FIX/train.h5" "$FIX/train.h5"
    assert_status 0
    [[ "$output" == *$'\r\e[Kkpca eval: svm 5 '*/45* ]] || { show_run; fail "no svm meter"; }
    [[ "$output" == *$'\r\e[Kkpca eval: read'* ]] || { show_run; fail "no read meter"; }
    on_tty "$KPCA" eval -q -k 5,20 "$FIX/train.h5" "$FIX/train.h5"
    assert_status 0
    [[ "$output" != *$'\e[K'* ]] || { show_run; fail "-q still drew the meter"; }
}
