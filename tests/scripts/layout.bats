#!/usr/bin/env bats
# layout.bats - the source tree's own rules (docs/hacking.md, Layout): the library's
# layers include only their own and lower ones (support < file < text < io <
# core < {ext, classify}), the public header kpca.h pulls in no plumbing, no folder
# under src/ holds more than 15 .c files, and no source, test or script file
# grows past 700 lines.

load ../helper

setup() {
    REPO="$BATS_TEST_DIRNAME/../.."
}

# layer_rank NAME: 0..5, or nothing for a name that is not a layer
layer_rank() {
    case "$1" in
    support) echo 0 ;; file) echo 1 ;; text) echo 2 ;; io) echo 3 ;; core) echo 4 ;; ext | classify) echo 5 ;;
    esac
}

@test "layout: each library layer includes only its own and lower layers" {
    local bad="" f d r t tr
    for f in "$REPO"/src/lib/*/*.[ch]; do
        d=$(basename "$(dirname "$f")")
        r=$(layer_rank "$d")
        [ -n "$r" ] || { bad="$bad ${f#"$REPO"/} (not in a layer)"; continue; }
        for t in $(sed -n 's|^#include "\([a-z]*\)/.*|\1|p' "$f"); do
            tr=$(layer_rank "$t")
            [ -n "$tr" ] || continue
            if [ "$tr" -gt "$r" ] || { [ "$tr" -eq "$r" ] && [ "$t" != "$d" ]; }; then
                bad="$bad ${f#"$REPO"/}->$t"
            fi
        done
    done
    [ -z "$bad" ] || fail "includes against the layering:$bad"
}

@test "layout: kpca.h, the public API, includes no plumbing (atomic, clobber, blas, clock, gram)" {
    run grep -E '#include "(file/atomic|file/clobber|support/blas|support/clock|core/gram)\.h"' "$REPO/src/lib/kpca.h"
    [ "$status" -ne 0 ] || fail "kpca.h includes: $output"
}

@test "layout: no folder under src/ holds more than 15 .c files" {
    local bad="" d n
    for d in $(find "$REPO/src" -type d); do
        n=$(find "$d" -maxdepth 1 -name '*.c' | wc -l)
        [ "$n" -le 15 ] || bad="$bad ${d#"$REPO"/}($n)"
    done
    [ -z "$bad" ] || fail "folders with more than 15 .c files:$bad"
}

@test "layout: no source, test or script file past 700 lines" {
    local bad
    bad=$(cd "$REPO" && git ls-files 'src/*.[ch]' 'tests/*.[ch]' 'tests/*.bats' 'tests/*.bash' 'tests/*.sh' \
        'scripts/*.sh' 'bench/*.[ch]' 'bench/*.sh' 'tools/*.c' | xargs wc -l | awk '$2 != "total" && $1 > 700 { print $2 "(" $1 ")" }')
    [ -z "$bad" ] || fail "files past 700 lines: $bad"
}
