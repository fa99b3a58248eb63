#!/usr/bin/env bats
# streams.bats - standard input ("-"), pipes, process substitution and
# FIFOs as inputs: each read once, whole, into a spool on disk
# (src/lib/file/source.h), so every format and every size reads as the same
# file would; messages name the stream as given ("<stdin>" for "-"), never
# the spool.  Every command that could wait on a stream is bounded by
# `timeout`.

load ../helper

setup_file() {
    local d k="${KPCA:-$BATS_TEST_DIRNAME/../../build/kpca}"
    d="$(file_tmp)"
    # 30000 rows of 5 values and a label column named in the header: about
    # 1.1 MB, far more than the 12 KiB a reopened stream used to lose
    awk 'BEGIN { s = 12345; print "label,a,b,c,d,e"
                 for (i = 0; i < 30000; i++) { line = (i % 3)
                     for (j = 0; j < 5; j++) { s = (s * 1103515245 + 12345) % 2147483648
                                               line = line "," sprintf("%.4f", s / 2147483648 - 0.5 + (i % 3)) }
                     print line } }' >"$d/x.csv"
    head -n 101 "$d/x.csv" >"$d/small.csv" # under 12 KiB
    "$k" fit -q -m 400 -k 4 "$d/x.csv" -o "$d/m.h5"
    "$k" transform -q "$d/m.h5" "$d/x.csv" -o "$d/want.csv"
}

setup() {
    common_setup
    FIX="$(file_tmp)"
    [ -s "$FIX/want.csv" ] || fail "setup_file could not make the fixtures"
}

# features M DATA [OPTIONS...]: kpca transform M DATA to stdout as CSV
features() {
    local m="$1" data="$2"
    shift 2
    timeout 60 "$KPCA" transform -q "$@" "$m" "$data" -f csv -o -
}

@test "30000 rows piped into transform '-' give 30000 rows, byte-identical to reading the file" {
    run --separate-stderr bash -c "cat '$FIX/x.csv' | timeout 60 '$KPCA' transform -q '$FIX/m.h5' - -o '$OUT/p.csv'"
    assert_status 0
    [ "$(wc -l <"$OUT/p.csv")" -eq 30001 ] || fail "$(($(wc -l <"$OUT/p.csv") - 1)) rows out of 30000"
    cmp "$FIX/want.csv" "$OUT/p.csv"
    # /dev/stdin, as the issue's user wrote it
    run --separate-stderr bash -c "cat '$FIX/x.csv' | timeout 60 '$KPCA' transform -q '$FIX/m.h5' /dev/stdin -o '$OUT/q.csv'"
    assert_status 0
    cmp "$FIX/want.csv" "$OUT/q.csv"
}

@test "fit - reads 30000 piped rows: the model of the file, its source recorded as <stdin>" {
    run --separate-stderr bash -c "cat '$FIX/x.csv' | timeout 60 '$KPCA' fit -m 400 -k 4 - -o '$OUT/m.h5'"
    assert_status 0
    assert_stderr_contains "from '<stdin>'"
    [[ "$stderr" != *kpca-spool* ]] || { show_run; fail "a message names the spool"; }
    cmp "$FIX/want.csv" <(features "$OUT/m.h5" "$FIX/x.csv")
    run "$KPCA" info "$OUT/m.h5"
    assert_stdout_contains "source <stdin>: stratified by label 400 of 30000 rows, seed 1"
}

@test "gzip through process substitution reads as the gzip file" {
    gzip -c "$FIX/x.csv" >"$TMP/x.csv.gz"
    cmp "$FIX/want.csv" <(features "$FIX/m.h5" <(gzip -c "$FIX/x.csv"))
    cmp "$FIX/want.csv" <(gzip -c "$FIX/x.csv" | features "$FIX/m.h5" -)
    cmp <(features "$FIX/m.h5" "$TMP/x.csv.gz") <(features "$FIX/m.h5" <(cat "$TMP/x.csv.gz"))
}

@test "an input under 12 KiB from a pipe reads whole" {
    [ "$(wc -c <"$FIX/small.csv")" -lt 12288 ]
    cmp <(features "$FIX/m.h5" "$FIX/small.csv") <(cat "$FIX/small.csv" | features "$FIX/m.h5" -)
    [ "$(cat "$FIX/small.csv" | features "$FIX/m.h5" - | wc -l)" -eq 101 ]
}

@test "a named FIFO is read once, without hanging" {
    mkfifo "$TMP/fifo"
    cat "$FIX/x.csv" >"$TMP/fifo" &
    run --separate-stderr timeout 60 "$KPCA" transform -q "$FIX/m.h5" "$TMP/fifo" -o "$OUT/f.csv"
    wait
    assert_status 0
    cmp "$FIX/want.csv" "$OUT/f.csv"
    # the same FIFO named twice is one stream, read once
    cat "$FIX/small.csv" >"$TMP/fifo" &
    run --separate-stderr timeout 60 "$KPCA" eval -q -k 2 "$TMP/fifo" "$TMP/fifo"
    wait
    assert_status 0
    assert_stdout_contains "components"
}

@test "ESL, NPY and HDF5 data through a pipe read as their files" {
    local train="$DATA/zip.train.gz"
    gzip -dc "$train" | head -n 400 >"$TMP/d.esl"
    "$KPCA" transform -q "$FIX/m.h5" "$FIX/x.csv" -o "$TMP/z.npy"
    "$KPCA" transform -q "$FIX/m.h5" "$FIX/x.csv" -o "$TMP/z.h5"
    local f
    for f in d.esl z.npy z.h5; do
        "$KPCA" fit -q -m 300 -k 3 "$TMP/$f" -o "$OUT/file.h5"
        run --separate-stderr bash -c "cat '$TMP/$f' | timeout 60 '$KPCA' fit -q -m 300 -k 3 - -o '$OUT/pipe.h5'"
        assert_status 0
        cmp <(features "$OUT/file.h5" "$TMP/$f") <(features "$OUT/pipe.h5" "$TMP/$f") || fail "$f through a pipe differs"
    done
    # an HDF5 group on standard input: -:GROUP
    "$KPCA" fit -q -m 300 -k 3 "$DATA/usps.h5:train" -o "$OUT/file.h5"
    run --separate-stderr bash -c "cat '$DATA/usps.h5' | timeout 60 '$KPCA' fit -q -m 300 -k 3 -:train -o '$OUT/pipe.h5'"
    assert_status 0
    cmp <(features "$OUT/file.h5" "$DATA/usps.h5:test") <(features "$OUT/pipe.h5" "$DATA/usps.h5:test")
}

@test "a model from a pipe: transform <(cat M), info -, spectrum -" {
    cmp "$FIX/want.csv" <(features <(cat "$FIX/m.h5") "$FIX/x.csv")
    cmp "$FIX/want.csv" <(cat "$FIX/m.h5" | features - "$FIX/x.csv")
    cmp <("$KPCA" info "$FIX/m.h5") <(cat "$FIX/m.h5" | timeout 60 "$KPCA" info -)
    cmp <("$KPCA" spectrum -q "$FIX/m.h5" --csv -) <(timeout 60 "$KPCA" spectrum -q <(cat "$FIX/m.h5") --csv -)
}

@test "eval, denoise, cluster and --labels read '-' too" {
    local t="$TMP/z.csv"
    "$KPCA" transform -q "$FIX/m.h5" "$FIX/small.csv" -o "$t"
    # the table without its timing column
    cmp <("$KPCA" eval -q -k 2,4 "$t" "$t" --csv - | cut -d, -f1-7) \
        <(cat "$t" | timeout 60 "$KPCA" eval -q -k 2,4 - "$t" --csv - | cut -d, -f1-7)
    cmp <("$KPCA" cluster -q "$t" -o -) <(cat "$t" | timeout 60 "$KPCA" cluster -q - -o -)
    cmp <("$KPCA" denoise -q -k 2 "$FIX/m.h5" "$FIX/small.csv" -o - -f csv) \
        <(cat "$FIX/small.csv" | timeout 60 "$KPCA" denoise -q -k 2 "$FIX/m.h5" - -o - -f csv)
    "$KPCA" transform -q "$FIX/m.h5" "$FIX/x.csv" -o "$TMP/z.npy"
    cut -d, -f1 "$FIX/x.csv" | tail -n +2 >"$TMP/y.txt"
    "$KPCA" fit -q -m 300 -k 2 "$TMP/z.npy" --labels "$TMP/y.txt" -o "$OUT/a.h5"
    run --separate-stderr bash -c "cat '$TMP/y.txt' | timeout 60 '$KPCA' fit -q -m 300 -k 2 '$TMP/z.npy' --labels - -o '$OUT/b.h5'"
    assert_status 0
    cmp <(features "$OUT/a.h5" "$TMP/z.npy" --labels "$TMP/y.txt") <(features "$OUT/b.h5" "$TMP/z.npy" --labels "$TMP/y.txt")
}

@test "'-' twice is refused: standard input can be read once" {
    run --separate-stderr bash -c "cat '$FIX/x.csv' | timeout 60 '$KPCA' eval - -"
    assert_status 2
    assert_error_message
    assert_stderr_contains "standard input can be read only once" "arguments 1 and 2"
    run --separate-stderr bash -c "cat '$FIX/x.csv' | timeout 60 '$KPCA' transform - - -o '$OUT/z.csv'"
    assert_status 2
    assert_no_output "$OUT/z.csv"
    run --separate-stderr bash -c "cat '$TMP/y' | timeout 60 '$KPCA' fit - --labels - -o '$OUT/m.h5'"
    assert_status 2
    assert_stderr_contains "argument 1 and option '--labels' both read standard input"
}

@test "messages name the stream as given, never the spool" {
    run --separate-stderr bash -c "printf 'a,b\n1,2\n3,x\n' | timeout 60 '$KPCA' fit - -o '$OUT/m.h5'"
    assert_status 3
    assert_error_names "<stdin>"
    assert_stderr_contains "line 3"
    [[ "$stderr" != *kpca-spool* && "$stderr" != */proc/self* ]] || { show_run; fail "a message names the spool"; }
    run --separate-stderr bash -c "timeout 60 '$KPCA' fit <(printf 'a,b\n1,2\n3,x\n') -o '$OUT/m.h5'"
    assert_status 3
    [[ "$stderr" =~ \'/dev/fd/[0-9]+\' ]] || { show_run; fail "the message does not name /dev/fd/N"; }
    # a model where data belongs, from standard input
    run --separate-stderr bash -c "cat '$FIX/m.h5' | timeout 60 '$KPCA' fit - -o '$OUT/m.h5'"
    assert_status 3
    assert_stderr_contains "argument 1 of fit is DATA" "'<stdin>' is a kpca model"
    assert_no_output "$OUT/m.h5"
    run --separate-stderr bash -c "printf '' | timeout 60 '$KPCA' fit - -o '$OUT/m.h5'"
    assert_status 3
    assert_error_names "<stdin>"
}

@test "an unwritable TMPDIR is a clear error naming it; no spool is ever left behind" {
    run --separate-stderr bash -c "cat '$FIX/small.csv' | TMPDIR='$TMP/none' timeout 60 '$KPCA' fit - -o '$OUT/m.h5'"
    assert_status 4
    assert_error_message
    assert_stderr_contains "TMPDIR '$TMP/none'" "'<stdin>'" "set TMPDIR to a writable directory"
    assert_no_output "$OUT/m.h5"
    mkdir "$TMP/t"
    run --separate-stderr bash -c "cat '$FIX/small.csv' | TMPDIR='$TMP/t' timeout 60 '$KPCA' fit -q -k 2 - -o '$OUT/m.h5'"
    assert_status 0
    run --separate-stderr bash -c "printf '1,x\n' | TMPDIR='$TMP/t' timeout 60 '$KPCA' fit -q -k 2 - -o '$OUT/n.h5'"
    assert_status 3
    [ -z "$(ls -A "$TMP/t")" ] || fail "left in TMPDIR: $(ls -A "$TMP/t")"
}

@test "SIGTERM while a stream is read: the spool is removed, exit 143" {
    mkdir "$TMP/t"
    mkfifo "$TMP/fifo"
    TMPDIR="$TMP/t" timeout 60 "$KPCA" fit -q "$TMP/fifo" -o "$OUT/m.h5" 2>"$TMP/err" &
    local pid=$! n
    exec 5>"$TMP/fifo" # the writer stays: the read waits for more
    head -c 100000 "$FIX/x.csv" >&5
    for n in $(seq 100); do
        [ -z "$(ls -A "$TMP/t")" ] || break
        sleep 0.1
    done
    [ -n "$(ls -A "$TMP/t")" ] || fail "no spool appeared in TMPDIR"
    kill -TERM "$(pgrep -P "$pid" || echo "$pid")"
    local rc=0
    wait "$pid" || rc=$?
    exec 5>&-
    [ "$rc" -eq 143 ] || fail "exit $rc, expected 143: $(cat "$TMP/err")"
    [ -z "$(ls -A "$TMP/t")" ] || fail "left in TMPDIR: $(ls -A "$TMP/t")"
    assert_no_output "$OUT/m.h5"
}

@test "outputs: '-' is standard output for every command that writes one" {
    run --separate-stderr bash -c "timeout 60 '$KPCA' fit -q -m 300 -k 3 '$FIX/x.csv' -o - | timeout 60 '$KPCA' info -"
    assert_status 0
    assert_stdout_contains "format kpca-model"
    "$KPCA" reduce -q -m 10 "$FIX/m.h5" -o - >"$OUT/r.h5"
    "$KPCA" info "$OUT/r.h5" >/dev/null
    # /dev/stdout on a pipe is written in place, as '-'
    cmp "$FIX/want.csv" <("$KPCA" transform -q "$FIX/m.h5" "$FIX/x.csv" -f csv -o /dev/stdout | cat)
}

@test "kpca-mpi refuses a stream: every rank reads the inputs" {
    [ -n "${KPCA_MPI:-}" ] && [ -x "$KPCA_MPI" ] || skip "no KPCA_MPI"
    command -v mpirun >/dev/null || skip "no mpirun"
    # under ASan (make asan) without leak detection: OpenMPI does not free
    # what it allocates (as mpi.bats runs it)
    run --separate-stderr bash -c "cat '$FIX/small.csv' | OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        OPENBLAS_NUM_THREADS=1 ASAN_OPTIONS='${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0' \
        timeout 120 mpirun --oversubscribe -n 2 '$KPCA_MPI' fit -k 2 - -o '$OUT/m.h5'"
    assert_status 2
    assert_stderr_contains "kpca-mpi reads its inputs on every rank"
    assert_no_output "$OUT/m.h5"
}
