# helper.bash - shared setup and assertions for the kpca command-line tests.
#
# Load it first in every .bats file:   load helper
# Run the suite from the repository root:   bats tests/cli
#
# Every test gets a fresh, empty directory $TMP (BATS_TEST_TMPDIR, or a
# mktemp directory removed in teardown) with an empty output directory
# $OUT inside it; $KPCA is the binary under test and $DATA the USPS copy
# made by `make` (zip.train.gz, zip.test.gz, usps.h5).

bats_require_minimum_version 1.5.0
# Beware: in bats 1.8, `run` with a flag (--separate-stderr, -N) sets a
# global variable `i` (bats_version_lt); do not loop over `i` around it.

KPCA="${KPCA:-$BATS_TEST_DIRNAME/../../build/kpca}"
DATA="$BATS_TEST_DIRNAME/../../data"
REPO="$BATS_TEST_DIRNAME/../.."
# Debian's python with numpy, h5py and sklearn (a `python3` on PATH may be
# a pyenv one without them)
PY=/usr/bin/python3

# common_setup: what every test needs; a file that defines its own setup()
# calls it first.
common_setup() {
    [ -x "$KPCA" ] || skip "no $KPCA: run 'make' first"
    [ -r "$DATA/zip.train.gz" ] && [ -r "$DATA/zip.test.gz" ] || skip "no USPS in $DATA: run 'make data' first"
    if [ -n "${BATS_TEST_TMPDIR:-}" ]; then
        TMP="$BATS_TEST_TMPDIR"
        KPCA_OWN_TMP=
    else
        TMP="$(mktemp -d "${TMPDIR:-/tmp}/kpca-cli.XXXXXX")"
        KPCA_OWN_TMP="$TMP"
    fi
    OUT="$TMP/out"
    mkdir -p "$OUT"
}

setup() {
    common_setup
}

teardown() {
    if [ -n "${KPCA_OWN_TMP:-}" ]; then
        chmod -R u+w "$KPCA_OWN_TMP" 2>/dev/null || true
        rm -rf "$KPCA_OWN_TMP"
    fi
}

# A per-file scratch directory for fixtures shared by the tests of one file.
file_tmp() {
    local d="${BATS_FILE_TMPDIR:-${BATS_RUN_TMPDIR:-${TMPDIR:-/tmp}}/kpca-cli-file.$$}"
    mkdir -p "$d"
    printf '%s\n' "$d"
}

# mpirun_t ARGS...: mpirun ARGS, killed after two minutes.  Under ASan
# (make asan) without leak detection: OpenMPI does not free what it
# allocates in MPI_Init; kpca's own allocations are checked by the other
# tests of the same library code.  The ranks share one machine, so they
# talk through shared memory (pml ob1, btl self and vader), and neither
# UCX's network probe nor hwloc's look for X displays (the gl component)
# delays their start: a third less wall time a run on the 2-core VM, and
# mpi.bats starts some hundred of them.
mpirun_t() {
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader \
        OMPI_MCA_osc=^ucx HWLOC_COMPONENTS=-gl timeout 120 mpirun --oversubscribe "$@"
}

# mpi2 ARGS...: kpca-mpi ($KPCA_MPI, default build/kpca-mpi) ARGS on 2
# ranks, bounded by mpirun_t; skips the test without mpirun or kpca-mpi
mpi2() {
    local k="${KPCA_MPI:-$BATS_TEST_DIRNAME/../../build/kpca-mpi}"
    command -v mpirun >/dev/null && [ -x "$k" ] || skip "no mpirun or $k ('make mpi')"
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1 mpirun_t -n 2 "$k" "$@"
}

# refused_everywhere FILE MESSAGE: fit, transform by windows of 7 rows
# (the model $TMP/plain.h5) and kpca-mpi's fit on 2 ranks (mpi2) refuse
# FILE with MESSAGE (exit 3), no output
refused_everywhere() {
    run --separate-stderr "$KPCA" fit -k 1 -d 1 "$1" -o "$OUT/m.h5"
    assert_status 3
    assert_stderr_contains "$2"
    assert_no_output "$OUT/m.h5"
    run --separate-stderr "$KPCA" transform --block 7 "$TMP/plain.h5" "$1" -o "$OUT/z.npy"
    assert_status 3
    assert_stderr_contains "$2"
    assert_no_output "$OUT/z.npy"
    run --separate-stderr mpi2 fit -k 1 -d 1 "$1" -o "$OUT/mm.h5"
    [ "$status" -ne 0 ] || fail "kpca-mpi read $1"
    assert_stderr_contains "$2"
    assert_no_output "$OUT/mm.h5"
}

fail() {
    printf '%s\n' "$@" >&2
    return 1
}

# Prints what the last `run` produced: shown only when a test fails.
show_run() {
    printf 'status: %s\n' "$status" >&2
    printf -- '--- stdout:\n%s\n' "$output" >&2
    [ -z "${stderr+x}" ] || printf -- '--- stderr:\n%s\n' "$stderr" >&2
}

assert_status() {
    [ "$status" -eq "$1" ] || { show_run; fail "expected exit status $1, got $status"; }
}

assert_failure() {
    [ "$status" -ne 0 ] || { show_run; fail "expected a non-zero exit status"; }
}

# assert_stderr_contains TEXT...: each TEXT occurs (fixed string) in $stderr
assert_stderr_contains() {
    local s
    for s in "$@"; do
        [[ "$stderr" == *"$s"* ]] || { show_run; fail "stderr lacks: $s"; }
    done
}

assert_stdout_contains() {
    local s
    for s in "$@"; do
        [[ "$output" == *"$s"* ]] || { show_run; fail "stdout lacks: $s"; }
    done
}

# The house style of errors: a line "error: ..." on stderr that starts in
# lower case (or with a quoted name), and nothing that looks like an error
# on stdout.
assert_error_message() {
    local line first=
    while IFS= read -r line; do
        case "$line" in error:*) first="$line"; break ;; esac
    done <<<"$stderr"
    [ -n "$first" ] || { show_run; fail "no 'error: ...' line on stderr"; }
    [[ "$first" =~ ^error:\ [a-z\'\(-] ]] || { show_run; fail "error message does not start in lower case: $first"; }
    [[ "$output" != *"error:"* ]] || { show_run; fail "error message on stdout"; }
}

# assert_error_names FILE: the error line names FILE in single quotes
assert_error_names() {
    assert_error_message
    [[ "$stderr" == *"'$1'"* ]] || { show_run; fail "error message does not name '$1'"; }
}

# assert_no_output FILE: FILE does not exist and its directory holds no
# temporary ".NAME.tmp.XXXXXX" files (no partial output after a failure)
assert_no_output() {
    local f="$1" dir left
    dir="$(dirname "$f")"
    [ ! -e "$f" ] || fail "output '$f' exists after a failure"
    left="$(ls -A "$dir" | grep -E '^\..*\.tmp\.' || true)"
    [ -z "$left" ] || fail "temporary files left in $dir: $left"
}

# assert_no_tmp DIR: no temporary ".NAME.tmp.XXXXXX" files in DIR
assert_no_tmp() {
    local left
    left="$(ls -A "$1" | grep -E '^\..*\.tmp\.' || true)"
    [ -z "$left" ] || fail "temporary files left in $1: $left"
}

# assert_load_words FILE: FILE's provenance gives the load averages measured
# at the start and the end of the run, as numbers (load_words, scripts/lib.sh)
assert_load_words() {
    grep -qE 'load average [0-9]+\.[0-9]+ [0-9]+\.[0-9]+ [0-9]+\.[0-9]+ at the start and [0-9]+\.[0-9]+ [0-9]+\.[0-9]+ [0-9]+\.[0-9]+ at the end' "$1" ||
        fail "no measured load average (start and end) in $1"
}

# slow_command NAME REAL PATTERN: $TMP/NAME-slow, the command REAL except
# that a command line matching the shell case PATTERN (matched against
# " ARGS ", e.g. '*" fit "*" -d 2 "*') writes its pid to $TMP/slow.pid and
# then sleeps ten minutes instead: a step under way for the scripts' signal
# tests.  slow_kpca PATTERN is slow_command kpca "$KPCA" PATTERN.
slow_command() {
    cat >"$TMP/$1-slow" <<EOF
#!/bin/sh
case " \$* " in
$3) echo \$\$ >"$TMP/slow.pid.tmp" && mv "$TMP/slow.pid.tmp" "$TMP/slow.pid"; exec sleep 600 3>&- ;;
esac
exec "$2" "\$@"
EOF
    chmod +x "$TMP/$1-slow"
}
slow_kpca() {
    slow_command kpca "$KPCA" "$1"
}

# signal_and_reap SIG PID STEP: sends SIG to the script PID (a background
# child of the test, started with 3>&-) and waits for it.  Fails when the
# script still runs 20 s later, or when STEP, the pid of its step under way,
# is still alive 2 s after the script ended (the stray is killed).
# Otherwise sets $status to the script's exit status.
signal_and_reap() {
    local sig="$1" pid="$2" step="$3" watchdog i
    kill -"$sig" "$pid"
    (sleep 20 && kill -KILL "$pid") >/dev/null 2>&1 3>&- &
    watchdog=$!
    status=0
    wait "$pid" || status=$?
    kill "$watchdog" 2>/dev/null || true
    [ "$status" -ne 137 ] || { kill "$step" 2>/dev/null; fail "SIG$sig: the script still ran 20 s after the signal"; }
    for i in $(seq 20); do
        kill -0 "$step" 2>/dev/null || return 0
        sleep 0.1
    done
    kill "$step"
    fail "SIG$sig: the step under way (pid $step) outlived the script"
}

# await_file F [PID]: wait up to a minute for F to appear; fails at once
# when the process PID (the script meant to make F) has ended
await_file() {
    local i
    for i in $(seq 600); do
        [ -e "$1" ] && return 0
        # ended: gone, or a zombie (kill -0 still reaches a child not yet reaped)
        if [ -n "${2:-}" ] && { ! kill -0 "$2" 2>/dev/null ||
            [ "$(sed 's/.*) //' "/proc/$2/stat" 2>/dev/null | cut -d' ' -f1)" = Z ]; }; then
            wait "$2" || fail "$1 never appeared: the script ended first (exit $?)"
            fail "$1 never appeared: the script ended first (exit 0)"
        fi
        sleep 0.1
    done
    fail "$1 did not appear within a minute"
}

# head_rows GZ N OUT: the first N rows of a gzip'd ESL file as plain text
head_rows() {
    gzip -dc "$1" | head -n "$2" >"$3"
}

# refused_fit FILE TEXT...: `kpca fit` of FILE exits 3 naming every TEXT
# on standard error, and writes no model
refused_fit() {
    local f="$1"
    shift
    run --separate-stderr "$KPCA" fit -q -k 2 "$f" -o "$OUT/refused.h5"
    assert_status 3
    assert_stderr_contains "$@"
    assert_no_output "$OUT/refused.h5"
}

# flip_byte FILE OFFSET: inverts all bits of one byte in place
flip_byte() {
    local b
    b=$(od -An -tu1 -j "$2" -N 1 "$1" | tr -d ' \n')
    [ -n "$b" ] || fail "flip_byte: offset $2 beyond the end of $1"
    # shellcheck disable=SC2059
    printf "$(printf '\\%03o' $((b ^ 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# table_errors COMPONENTS: the 'errors' column of kpca eval's table row
# for COMPONENTS, read from $output
table_errors() {
    awk -v k="$1" '$1 == k && NF == 4 { print $3 }' <<<"$output"
}

# table_error_pct COMPONENTS: the 'error_pct' column, read from $output
table_error_pct() {
    awk -v k="$1" '$1 == k && NF == 4 { print $2 }' <<<"$output"
}

have_h5py() {
    [ -x "$PY" ] && "$PY" -c 'import h5py, numpy' 2>/dev/null
}

have_sklearn() {
    [ -x "$PY" ] && "$PY" -c 'import sklearn, h5py, numpy' 2>/dev/null
}
