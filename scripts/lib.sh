# lib.sh - what the experiment scripts share.  Source it after cd'ing to the
# repository root:   . scripts/lib.sh
# It defines functions and constants only (no commands run), and expects
# KPCA (the binary) to be set before model_key is called.

# headline_eval: the headline protocol of `kpca eval` for the paper grid
# (docs/reproducing.md "Protocol"; chosen on training data only:
# results/protocol-study.md) as options on stdout.  It is $KPCA's own
# default (`kpca eval --print-defaults`; one home: src/cli/cmd/cmd_eval.c),
# written out so that the results name it and their caches key on it.
headline_eval() {
    "$KPCA" eval --print-defaults ||
        die "'$KPCA eval --print-defaults' failed: a kpca that knows the headline protocol is needed"
}

# The plot palette: Okabe-Ito, dark and distinguishable colours.
PALETTE="#000000 #0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9"
# palette_colour I: the I-th colour of the palette (1-based, cycling)
palette_colour() {
    printf '%s\n' "$PALETTE" | cut -d' ' -f$((($1 - 1) % 7 + 1))
}

# put TEXT: TEXT and a newline on stdout (printf, not echo: no option or
# backslash in TEXT is interpreted)
put() { printf '%s\n' "$*"; }
# Option parsing, the same in every script:
#   -h|--help) usage; exit 0 ;;          the header comment (line 2 up to
#                                        `set -eu`) is the help
#   --out) out=$(optval "$@"); shift ;;  the option's value; an option
#                                        given last exits 2 with a message
#   *) bad_option "$1" ;;                exit 2 with a message
usage() { sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
optval() {
    [ $# -ge 2 ] || { printf '%s: %s needs a value (see --help)\n' "$(basename "$0")" "$1" >&2; exit 2; }
    printf '%s' "$2"
}
bad_option() {
    printf "%s: unknown option '%s' (see --help)\n" "$(basename "$0")" "$1" >&2
    exit 2
}

# say MESSAGE: a progress line on stderr
say() { printf '%s\n' "$*" >&2; }
# die MESSAGE: "SCRIPT: MESSAGE" on stderr, then exit 1
die() {
    printf '%s: %s\n' "$(basename "$0")" "$*" >&2
    exit 1
}

# model_key MODEL KEY: the value of KEY in `kpca info MODEL`; fails when
# kpca does (a plain `$(kpca info | awk)` would hide that from set -e)
model_key() {
    _info=$("$KPCA" info "$1") && printf '%s\n' "$_info" | awk -v k="$2" '$1 == k { print $2; f = 1 } END { exit !f }'
}

# commit_stamp: the commit for a result's provenance (git describe), with
# "-dirty" when the code differs from it (results/, which the scripts
# write, does not count); "unknown" outside a git checkout
commit_stamp() {
    printf '%s%s\n' "$(git describe --always 2>/dev/null || echo unknown)" \
        "$(git diff --quiet HEAD -- . ':(exclude)results' 2>/dev/null || { [ $? -ne 1 ] || echo -dirty; })"
}

# machine_stamp: "OS arch, N cores, CPU model" for a result's provenance
machine_stamp() {
    printf '%s, %s cores, %s\n' "$(uname -sm)" "$(nproc)" \
        "$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo unknown)"
}

# load_stamp: the 1-, 5- and 15-minute load averages for a result's
# provenance ("unknown" without /proc/loadavg)
load_stamp() {
    cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown
}

# load_words START END: the load averages START and END (two load_stamp
# outputs, taken before a run's first heavy step and after its last) as
# the words every result's provenance gives them:
# "load average 0.52 0.61 0.70 at the start and 1.98 1.20 0.85 at the end"
load_words() {
    printf 'load average %s at the start and %s at the end\n' "$1" "$2"
}

# Temporary files: add each to $tmpfiles; lib_traps removes them when the
# script exits, also on SIGINT (exit 130) and SIGTERM (exit 143), after
# stopping the steps under way (lib_spawn) and calling the script's
# cleanup_hook when it defines one.
tmpfiles=""
cleanup() {
    if [ -n "$children" ]; then
        # shellcheck disable=SC2086 # a list of process ids
        kill $children 2>/dev/null || true
        # each kpca removes the output it was writing before it dies
        # shellcheck disable=SC2086
        wait $children 2>/dev/null || true
        children=""
    fi
    # shellcheck disable=SC2086 # a list of names without blanks
    [ -z "$tmpfiles" ] || rm -f $tmpfiles
    if command -v cleanup_hook >/dev/null 2>&1; then cleanup_hook; fi
}

# Steps as child processes that a signal to the script stops too.  A shell
# runs its trap only once the foreground command has finished, and kill(1)
# reaches the script alone, so a plain `kpca fit` would go on for minutes
# after `kill SCRIPT` (and a background one outlive it).  lib_spawn CMD...
# starts CMD in the background and records it ($! is its pid); lib_wait PID
# waits for it and returns its status; lib_run CMD... is the two in one, a
# foreground step the traps can interrupt.  On exit, cleanup sends SIGTERM
# to the steps still running and waits for them (kpca then removes its
# half-written output).  Background steps of a non-interactive shell ignore
# SIGINT, so Ctrl-C reaches them through this too.
children=""
lib_spawn() {
    "$@" &
    children="$children $!"
}
lib_wait() {
    _rc=0
    wait "$1" || _rc=$?
    _left=""
    for _p in $children; do [ "$_p" = "$1" ] || _left="$_left $_p"; done
    children=$_left
    return "$_rc"
}
lib_run() {
    lib_spawn "$@"
    lib_wait $!
}
# lib_tmp FILE: sets $tmp to DIR/.NAME.tmp.PID beside FILE (DIR/NAME), the
# name to write FILE under until it is complete and renamed, and adds it to
# $tmpfiles.  (Not in $(...): a subshell's $tmpfiles is lost.)
lib_tmp() {
    tmp="$(dirname "$1")/.$(basename "$1").tmp.$$"
    tmpfiles="$tmpfiles $tmp"
}
lib_traps() {
    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

# WILSON_AWK: awk functions to put before an awk program: wilson_lo(E, N)
# and wilson_hi(E, N), the 95 % Wilson score interval of E errors in N
# trials, in percent (E need not be whole: a mean error count)
# shellcheck disable=SC2034 # used by the scripts that source this file
WILSON_AWK='
function wilson_c(e, n, s,   z, p, c, h) {
    z = 1.959963984540054; p = n > 0 ? e / n : 0
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z / (1 + z * z / n) * sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return 100 * (c + s * h)
}
function wilson_lo(e, n) { return wilson_c(e, n, -1) }
function wilson_hi(e, n) { return wilson_c(e, n, 1) }
'

# MCNEMAR_AWK: an awk function to put before an awk program:
# mcnemar_p(B, C), McNemar's exact test of two classifiers on the same
# items, B of them right by the first only and C by the second only: the
# two-sided binomial probability, under no difference (each discordant item
# either way with probability 1/2), of a split at least as uneven as B : C,
# capped at 1 (1 when B + C = 0).  Sums the smaller tail in log space: exact
# to double rounding for any count.
# shellcheck disable=SC2034 # used by the scripts that source this file
MCNEMAR_AWK='
function mcnemar_p(b, c,    n, m, k, lc, s) {
    n = b + c; m = b < c ? b : c
    if (n == 0) return 1
    lc = 0; s = 0
    for (k = 0; k <= m; k++) {
        if (k > 0) lc += log(n - k + 1) - log(k)
        s += exp(lc + n * log(0.5))
    }
    s *= 2
    return s > 1 ? 1 : s
}
'

# csv_to_json CSV NUMERIC_COLUMNS: the CSV's rows after its header as a JSON
# array of objects keyed by the header's names (jq); the columns named in
# the comma-separated NUMERIC_COLUMNS become numbers (an empty cell: null),
# the others stay strings.
csv_to_json() {
    jq -R -s --arg numeric "$2" '
        ($numeric | split(",")) as $num
        | split("\n") | map(select(length > 0) | split(","))
        | .[0] as $head
        | .[1:] | map([$head, .] | transpose
              | map({key: .[0], value: (if (.[0] as $k | $num | index([$k])) then (if .[1] == "" then null else (.[1] | tonumber) end) else .[1] end)})
              | from_entries)' "$1"
}
