#!/usr/bin/env bats
# layout.bats - the source tree's own rules (docs/hacking.md, Layout): the library's
# layers include only their own and lower ones (support < {file, gpu} < text < io <
# core < {ext, classify}), the public header kpca.h pulls in no plumbing, no folder
# under src/ holds more than 15 .c files, and no source, test or script file
# grows past 700 lines.

load ../helper

setup() {
    REPO="$BATS_TEST_DIRNAME/../.."
}

@test "layout: each library layer includes only its own and lower layers" {
    # the layers' ranks: support 0; file, gpu 1; text 2; io 3; core 4; ext,
    # classify 5 (one awk over every file: a shell loop forked per include)
    local bad
    bad=$(awk -v repo="$REPO/" '
        function rank(l) {
            if (l == "support") return 0
            if (l == "file" || l == "gpu") return 1
            if (l == "text") return 2
            if (l == "io") return 3
            if (l == "core") return 4
            if (l == "ext" || l == "classify") return 5
            return -1
        }
        FNR == 1 {
            f = substr(FILENAME, length(repo) + 1)
            n = split(FILENAME, part, "/")
            d = part[n - 1]
            r = rank(d)
            if (r < 0) printf " %s (not in a layer)", f
        }
        r >= 0 && match($0, /^#include "[a-z]*\//) {
            t = substr($0, 11, RLENGTH - 11)
            tr = rank(t)
            if (tr >= 0 && (tr > r || (tr == r && t != d))) printf " %s->%s", f, t
        }' "$REPO"/src/lib/*/*.[ch])
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

# The one-way order of the files of text/ and io/ (docs/hacking.md,
# Layout): each file uses only files before it (and itself).  A file's
# header has its name; rowsrc_in.h is the inside of rowsrc.c.
LIB_ORDER="text/textnum text/bytes text/textfile text/lines text/csvtok
    io/dataset io/npy io/labels io/featfile io/csvcols io/csvrows io/csvpart io/csvwin io/csv
    io/dataset_text io/dataset_h5 io/dataset_arff io/read io/rowsrc io/rowpart"

# lib_rank LAYER/NAME: its place in LIB_ORDER (from 1), or nothing
lib_rank() {
    local n=0 f name="${1%_in}"
    for f in $LIB_ORDER; do
        n=$((n + 1))
        [ "$f" = "$name" ] && { echo "$n"; return 0; }
    done
    return 0
}

# lib_build: the build directory of the objects the suite runs against
lib_build() {
    if [ -n "${KPCA:-}" ] && [ -d "$(dirname "$KPCA")/src/lib/io" ]; then dirname "$KPCA"; else echo "$REPO/build"; fi
}

@test "layout: text and io files include only files before them in their order" {
    local bad="" f me r t tr
    for f in "$REPO"/src/lib/text/*.[ch] "$REPO"/src/lib/io/*.[ch]; do
        me="$(basename "$(dirname "$f")")/$(basename "${f%.?}")"
        r=$(lib_rank "$me")
        [ -n "$r" ] || { bad="$bad $me(not in the order)"; continue; }
        for t in $(sed -n 's|^#include "\(text/[a-z_0-9]*\)\.h".*|\1|p; s|^#include "\(io/[a-z_0-9]*\)\.h".*|\1|p' "$f"); do
            tr=$(lib_rank "$t")
            [ -n "$tr" ] || { bad="$bad $me->$t(not in the order)"; continue; }
            [ "$tr" -le "$r" ] || bad="$bad $me->$t"
        done
    done
    [ -z "$bad" ] || fail "includes against the order of text and io:$bad"
}

@test "layout: text and io objects call only files before them in their order (nm)" {
    local b o me defs uses bad
    b=$(lib_build)
    ls "$b"/src/lib/io/*.o >/dev/null 2>&1 || skip "no objects in $b/src/lib/io (make first)"
    defs="$TMP/defs" uses="$TMP/uses"
    : >"$defs"
    : >"$uses"
    for o in "$b"/src/lib/text/*.o "$b"/src/lib/io/*.o; do
        me="$(basename "$(dirname "$o")")/$(basename "$o" .o)"
        [ -f "$REPO/src/lib/$me.c" ] || continue # a stale object of a removed file
        nm --defined-only "$o" | awk -v f="$me" '$2 ~ /^[TDBR]$/ { print $3, f }' >>"$defs"
        nm -u "$o" | awk -v f="$me" '{ print $2, f }' >>"$uses"
    done
    [ -s "$defs" ] || fail "no symbols read from $b"
    bad=$(awk 'NR == FNR { d[$1] = $2; next } ($1 in d) && d[$1] != $2 { print $2 " " d[$1] " " $1 }' "$defs" "$uses" |
        while read -r from to sym; do
            [ "$(lib_rank "$to")" -lt "$(lib_rank "$from")" ] || echo "$from->$to($sym)"
        done | sort -u | tr '\n' ' ')
    [ -z "$bad" ] || fail "calls against the order of text and io: $bad"
}

@test "layout: a src/cli file includes and calls only src/cli files ranked before it (docs/hacking.md)" {
    # The ranks of src/cli (docs/hacking.md, Layout), lowest first, one a
    # line: a file's name without .c or .h; cmds (cmds.h) declares the
    # commands.  No two files call each other.
    local ranks="progress
cli
opt
spool
coretype
man
prologue
table
input
rows
modeldata
datarows
partial
cmd/fit_rows
cmd/cmd_* cmds
main
kpca"
    local -A rank=()
    local bad="" cli="$REPO/src/cli" line=() pats=() prank=() r=0 i p f n t inc b o sym missing=""
    while read -ra line; do
        for p in "${line[@]}"; do
            pats+=("$p")
            prank+=("$r")
        done
        r=$((r + 1))
    done <<<"$ranks"
    # the names as the files have them, each given its line's number
    for f in "$cli"/*.[ch] "$cli"/cmd/*.[ch]; do
        n=${f#"$cli"/}
        n=${n%.?}
        for i in "${!pats[@]}"; do
            # shellcheck disable=SC2254
            case "$n" in ${pats[$i]}) rank[$n]=${prank[$i]} ;; esac
        done
        [ -n "${rank[$n]:-}" ] || bad="$bad
  src/cli/${f#"$cli"/} has no rank"
    done
    # docs/hacking.md writes the same order: {base} < a < ... < {cmd/cmd_* cmds} < main < kpca
    local order
    order=$(awk 'NF > 1 { $0 = "{" $0 "}" } { printf "%s%s", (NR > 1 ? " < " : ""), $0 }' <<<"$ranks")
    tr -s ' \n' '  ' <"$REPO/docs/hacking.md" | grep -qF "$order" || bad="$bad
  docs/hacking.md does not write the order $order"
    # may NAME use TARGET (0 or 1): ranked before it, or itself; a header
    # of no .c of its own (cmds.h) serves its rank
    may_use() {
        local a=${rank[$1]:-} b=${rank[$2]:-}
        [ -n "$a" ] && [ -n "$b" ] || return 0
        [ "$b" -lt "$a" ] || [ "$1" = "$2" ] ||
            { [ "$3" = include ] && [ "$a" -eq "$b" ] && [ ! -e "$cli/$2.c" ]; }
    }
    # the #include "..." lines (a quoted include: the file's folder, then -Isrc)
    for f in "$cli"/*.[ch] "$cli"/cmd/*.[ch]; do
        n=${f#"$cli"/}
        n=${n%.?}
        while read -r inc; do
            if [ -e "${f%/*}/$inc" ]; then t=${f%/*}/$inc
            elif [ -e "$REPO/src/$inc" ]; then t=$REPO/src/$inc
            else continue; fi
            case "$t" in "$cli"/*) ;; *) continue ;; esac
            t=${t#"$cli"/}
            t=${t%.?}
            may_use "$n" "$t" include || bad="$bad
  src/cli/${f#"$cli"/} includes $inc (ranked after it)"
        done < <(sed -n 's|^#include "\(.*\)".*|\1|p' "$f")
    done
    # the calls, from the objects of the build under test: a symbol that an
    # object leaves undefined and another src/cli object defines (so that a
    # call counts even through a header that declares another file's)
    b=$(dirname "${KPCA:-$REPO/build/kpca}")
    [ -d "$b/src/cli" ] || b="$REPO/build"
    local -A def=()
    local objs=()
    for f in "$cli"/*.c "$cli"/cmd/*.c; do
        n=${f#"$cli"/}
        n=${n%.c}
        [ -e "$b/src/cli/$n.o" ] || { missing="$missing $n.o"; continue; }
        objs+=("$n")
        for sym in $(nm --defined-only -g "$b/src/cli/$n.o" | awk '{ print $3 }'); do
            def[$sym]=$n
        done
    done
    if [ -n "$missing" ]; then
        [ -z "$bad" ] || fail "src/cli against its ranks:$bad"
        skip "no objects in $b/src/cli ($missing): build kpca first (make)"
    fi
    for n in "${objs[@]}"; do
        for sym in $(nm -u "$b/src/cli/$n.o" | awk '{ print $2 }'); do
            o=${def[$sym]:-}
            [ -n "$o" ] && [ "$o" != "$n" ] || continue
            may_use "$n" "$o" call || bad="$bad
  $n.o calls $o.o ($sym; ranked after it)"
        done
    done
    [ -z "$bad" ] || fail "src/cli against its ranks:$bad"
}
