#!/usr/bin/env bats
# scripts.bats - the experiment scripts' shared command line (scripts/lib.sh:
# usage, optval, bad_option): --help, an unknown option, an option given
# without its value; and every option a script parses is in its --help.

load ../helper

# the scripts with a usage header
scripts_with_usage() {
    grep -l '^# usage: scripts/' "$REPO"/scripts/*.sh
}

# the options script $1 parses: "-x" or "--xy" from its case labels
parsed_options() {
    sed -n 's/^    \(-[-a-z0-9|]*\)) .*/\1/p' "$1" | tr '|' '\n' | grep -v '^-h$\|^--help$'
}

# the options of script $1 that take a value (parsed with optval)
value_options() {
    sed -n 's/^    \(-[-a-z0-9]*\)) [a-z_]*=$(optval "$@"); shift ;;$/\1/p' "$1"
}

@test "scripts: --help prints the usage and exits 0; an unknown option exits 2 with a message, before any work" {
    local s name n=0
    for s in $(scripts_with_usage); do
        name=$(basename "$s")
        run --separate-stderr sh "$s" --help
        [ "$status" -eq 0 ] || fail "$name --help: exit $status"
        [[ "$output" == *"usage: scripts/$name"* ]] || fail "$name --help: no usage line"
        run --separate-stderr sh "$s" --no-such-option
        [ "$status" -eq 2 ] || fail "$name --no-such-option: exit $status"
        [ "$stderr" = "$name: unknown option '--no-such-option' (see --help)" ] || fail "$name: message '$stderr'"
        n=$((n + 1))
    done
    [ "$n" -ge 12 ] || fail "only $n scripts found"
}

@test "scripts: an option given without its value exits 2 naming the option" {
    local s name o n=0
    for s in $(scripts_with_usage); do
        name=$(basename "$s")
        for o in $(value_options "$s"); do
            run --separate-stderr sh "$s" "$o"
            [ "$status" -eq 2 ] || fail "$name $o: exit $status"
            [ "$stderr" = "$name: $o needs a value (see --help)" ] || fail "$name $o: message '$stderr'"
            n=$((n + 1))
        done
    done
    [ "$n" -ge 50 ] || fail "only $n value options found"
}

@test "scripts: every option a script parses is described in its --help" {
    local s name o
    for s in $(scripts_with_usage); do
        name=$(basename "$s")
        [ -n "$(parsed_options "$s")" ] || fail "$name: no options found"
        for o in $(parsed_options "$s"); do
            sh "$s" --help | grep -q -- "$o\b" || fail "$name: $o is parsed but not in --help"
        done
    done
}
