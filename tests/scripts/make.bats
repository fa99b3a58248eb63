#!/usr/bin/env bats
# make.bats - the Makefile against its own `make help`: every target the help
# names has a rule, and every .PHONY target is either in the help or one of
# the internal ones below; the skip summary of `make test`
# (tests/bats-skips.sh); tests/cli/mpi.bats failing, not skipping, under
# CI=true when kpca-mpi is missing; and make on a bare Debian, before
# `make deps`: no error while make reads the Makefile, one line with the fix.

load ../helper

# The phony targets `make help` does not list: `all` is the bare `make`;
# help and FORCE (a prerequisite that forces a rebuild) are plumbing;
# cli-test, script-test and fuzz-replay are the parts of `make test`; and
# mpi-if-available is a step of cli-test and bench; build-deps is the check
# before the first object that the compiler and libraries are there;
# test-build, san-build and unit-build are the builds make check and make
# asan run on every core before their tests.
INTERNAL="all help FORCE cli-test script-test fuzz-replay mpi-if-available build-deps test-build san-build unit-build"

# mk ARGS...: make ARGS in the repository root, free of the flags and
# variables of a make this test runs under (make test, make asan)
mk() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BUILD make -C "$REPO" "$@"
}

# make_db MAKEFILE: make's database of MAKEFILE (nothing built or run)
make_db() {
    mk -f "$1" -pRrq : 2>/dev/null || true
}

# help_targets MAKEFILE: the targets its `make help` names, one a line: the
# word after each "make " (also after "; make "), and the default goal for
# the bare "make" line
help_targets() {
    local goal
    goal=$(make_db "$1" | sed -n 's/^\.DEFAULT_GOAL := //p')
    mk -s -f "$1" help | awk -v goal="$goal" '
        /^make  / { print goal }
        $1 == "make" && !/^make  / { print $2 }
        { s = $0; while (match(s, /; make [a-z][-a-z]*/)) {
              print substr(s, RSTART + 7, RLENGTH - 7); s = substr(s, RSTART + RLENGTH) } }' | sort -u
}

# targets_with_rules MAKEFILE: every target with a recipe or prerequisites
targets_with_rules() {
    make_db "$1" | awk '
        /^# Files/ { files = 1; next }
        /^# files hash-table stats/ { files = 0 }
        !files { next }
        /^# Not a target:/ { nontarget = 1; next }
        /^[^#\t ][^:=]*::? / || /^[^#\t ][^:=]*::?$/ {
            name = $0; sub(/::?.*/, "", name)
            rest = $0; sub(/^[^:]*::?/, "", rest)
            if (nontarget) { name = ""; nontarget = 0; next }
            if (rest ~ /[^ ]/) print name
            next
        }
        name != "" && (/^#  recipe to execute/ || /^\t/) { print name; name = "" }
        /^$/ { name = "" }' | sort -u
}

# help_without_rule MAKEFILE: the help-listed targets with no rule
help_without_rule() {
    comm -23 <(help_targets "$1") <(targets_with_rules "$1")
}

# phony_targets MAKEFILE: the prerequisites of .PHONY, one a line
phony_targets() {
    make_db "$1" | sed -n 's/^\.PHONY: //p' | tr ' ' '\n' | grep . | sort -u
}

# without_rule MAKEFILE TARGET OUT: MAKEFILE with TARGET's rule line and
# its recipe deleted, written to OUT
without_rule() {
    awk -v t="$2" 'index($0, t ":") == 1 { skip = 1; next }
        skip && /^\t/ { next } { skip = 0; print }' "$1" >"$3"
    ! cmp -s "$1" "$3" || fail "no rule for $2 in $1"
}

@test "make help: every target it names has a rule (recipe or prerequisites)" {
    local missing
    [ "$(help_targets "$REPO/Makefile" | wc -l)" -ge 20 ] || fail "fewer than 20 targets read from make help"
    help_targets "$REPO/Makefile" | grep -qx reduce || fail "make help does not name reduce"
    missing=$(help_without_rule "$REPO/Makefile")
    [ -z "$missing" ] || fail "make help names targets without a rule:" $missing
}

@test "make help: a listed target whose rule is deleted is reported (reduce: a recipe; man: prerequisites only)" {
    local t
    for t in reduce man; do
        without_rule "$REPO/Makefile" "$t" "$TMP/Makefile.$t"
        [ "$(help_without_rule "$TMP/Makefile.$t")" = "$t" ] || fail "$t without its rule is not reported"
    done
}

@test ".PHONY: every phony target is named by make help or is internal ($INTERNAL)" {
    local t unlisted="" listed
    listed=$(help_targets "$REPO/Makefile")
    [ "$(phony_targets "$REPO/Makefile" | wc -l)" -ge 20 ] || fail "fewer than 20 .PHONY targets read"
    for t in $(phony_targets "$REPO/Makefile"); do
        grep -qx -- "$t" <<<"$listed" || [[ " $INTERNAL " == *" $t "* ]] || unlisted="$unlisted $t"
    done
    [ -z "$unlisted" ] || fail ".PHONY targets neither in make help nor internal:$unlisted"
    # the internal list names real phony targets only
    for t in $INTERNAL; do
        phony_targets "$REPO/Makefile" | grep -qx -- "$t" || fail "internal target $t is not .PHONY"
    done
}

@test "bats-skips.sh: counts the skipped tests of every report and groups their reasons" {
    printf '%s\n' '1..4' 'ok 1 a # skip no gnuplot' 'ok 2 b' 'not ok 3 c' 'ok 4 d # skip no gnuplot' >"$TMP/a.tap"
    printf '%s\n' '1..2' 'ok 1 e # skip' 'ok 2 f # skip root reads any file' >"$TMP/b.tap"
    run sh "$REPO/tests/bats-skips.sh" "$TMP/a.tap" "$TMP/b.tap"
    [ "$status" -eq 0 ] || { show_run; fail "exit $status"; }
    [ "$output" = "4 tests skipped: no gnuplot (2); no reason given (1); root reads any file (1)" ] || fail "got: $output"
    printf '%s\n' '1..1' 'ok 1 the # skip word in a name is no skip' >"$TMP/c.tap"
    run sh "$REPO/tests/bats-skips.sh" "$TMP/c.tap"
    [ "$output" = "1 test skipped: word in a name is no skip (1)" ] || fail "got: $output"
    printf '%s\n' '1..1' 'ok 1 a' >"$TMP/d.tap"
    run sh "$REPO/tests/bats-skips.sh" "$TMP/d.tap"
    [ "$output" = "0 tests skipped" ] || fail "got: $output"
    run sh "$REPO/tests/bats-skips.sh" "$TMP/d.tap" "$TMP/none.tap"
    [ "$status" -eq 2 ] || fail "a missing report: exit $status, not 2"
}

@test "mpi.bats: a missing kpca-mpi skips its tests, and fails them under CI=true" {
    run env -u CI KPCA_MPI="$TMP/no-kpca-mpi" bats --tap "$REPO/tests/cli/mpi.bats"
    [ "$status" -eq 0 ] || { show_run; fail "without CI: exit $status"; }
    [ "$(grep -c '^ok .* # skip no .*no-kpca-mpi' <<<"$output")" -ge 5 ] || { show_run; fail "without CI: not skipped"; }
    run env CI=true KPCA_MPI="$TMP/no-kpca-mpi" bats --tap "$REPO/tests/cli/mpi.bats"
    [ "$status" -ne 0 ] || { show_run; fail "under CI: exit 0"; }
    ! grep -q '# skip' <<<"$output" || { show_run; fail "under CI: a test skipped"; }
    [ "$(grep -c '^not ok' <<<"$output")" -ge 5 ] || { show_run; fail "under CI: not failed"; }
    grep -q 'CI=true and no .*no-kpca-mpi' <<<"$output" || { show_run; fail "under CI: no reason given"; }
}

@test "make test prints the skip summary from the bats reports of tests/cli and tests/scripts, each test's time in them; JOBS files side by side" {
    run mk -s -n test JOBS=1
    grep -q 'bats --timing  *--report-formatter tap --output build/bats/cli tests/cli/mpi.bats' <<<"$output" || fail "JOBS=1: not one file at a time"
    grep -q 'make --no-print-directory -j1 -O build/tests/' <<<"$output" || fail "JOBS=1: unit tests not one at a time"
    run mk -s -n test JOBS=2
    grep -q 'make --no-print-directory -j2 -O build/tests/test_alloc.run' <<<"$output" || fail "JOBS=2: unit tests not two at a time"
    grep -q 'bats --timing --jobs 2 --no-parallelize-within-files --report-formatter tap --output build/bats/cli tests/cli/mpi.bats .* tests/cli/values.bats' <<<"$output" || fail "cli-test writes no report, or runs no files side by side, mpi.bats first"
    grep -q 'bats --timing --jobs 2 --no-parallelize-within-files --report-formatter tap --output build/bats/scripts tests/scripts/grid.bats .* tests/scripts/spectrum.bats' <<<"$output" || fail "script-test writes no report, or runs no files side by side, grid.bats first"
    grep -q 'tests/bats-skips.sh build/bats/cli/report.tap build/bats/scripts/report.tap' <<<"$output" ||
        fail "make test prints no skip summary"
}

@test "make check runs the command-line tests once, under the sanitizers; the release build runs the rest" {
    run mk -s -n check-release
    ! grep -q 'output build/bats/cli tests/cli' <<<"$output" || fail "check-release runs the CLI tests"
    grep -q 'output build/bats/scripts tests/scripts' <<<"$output" || fail "check-release runs no script tests"
    run mk -s -n san-test BUILD=build-asan
    grep -q 'output build-asan/bats/cli tests/cli' <<<"$output" || fail "san-test runs no CLI tests"
    run mk -s -n check
    grep -q 'check-release' <<<"$output" && grep -q 'san-test' <<<"$output" || { show_run; fail "check runs not both"; }
}

# bare_path DIR: DIR filled with links to every program of /usr/bin and /bin
# but pkg-config and the C compilers: the PATH of a Debian before make deps
bare_path() {
    local f b
    mkdir -p "$1"
    for f in /usr/bin/* /bin/*; do
        b=${f##*/}
        case $b in pkg-config | pkgconf | *-pkg-config | cc | gcc | gcc-* | *-gcc | *-gcc-* | c99 | c89 | clang*) continue ;; esac
        [ -e "$1/$b" ] || ln -s "$f" "$1/$b"
    done
}

@test "make before make deps (no compiler, no pkg-config): nothing while make reads the Makefile, then the fix" {
    bare_path "$TMP/bin"
    # no compiler: make's own parse-time queries say nothing
    run --separate-stderr env PATH="$TMP/bin" MAKEFLAGS= MAKELEVEL= make -C "$REPO" BUILD="$TMP/b1" "$TMP/b1/kpca"
    assert_failure
    [[ "$stderr" != *"No such file or directory"* ]] || fail "make printed: $stderr"
    assert_stderr_contains "make: no C compiler (cc): 'make deps' installs the Debian packages"
    # a compiler but no pkg-config: the libraries are named, with the fix
    ln -s "$(command -v gcc)" "$TMP/bin/gcc"
    run --separate-stderr env PATH="$TMP/bin" MAKEFLAGS= MAKELEVEL= make -C "$REPO" BUILD="$TMP/b2" CC=gcc "$TMP/b2/kpca"
    assert_failure
    [[ "$stderr" != *"No such file or directory"* ]] || fail "make printed: $stderr"
    assert_stderr_contains "make: missing libraries (openblas lapacke hdf5 zlib liblzma libzstd matio, as pkg-config names them): 'make deps' installs"
    [ ! -e "$TMP/b1/kpca" ] && [ ! -e "$TMP/b2/kpca" ] || fail "a kpca was built"
}
