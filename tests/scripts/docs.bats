#!/usr/bin/env bats
# docs.bats - the documentation against the tree: the README stays short;
# every make target and repository path that README.md, docs/*.md and
# results/README.md name exists; results/README.md lists exactly the files
# in results/; the README's table lists every command; and the README's
# quick start runs as written and prints what the README shows.

load ../helper

DOCS="README.md docs/*.md results/README.md"

# mk ARGS...: make ARGS in the repository root, free of the flags and
# variables of a make this test runs under (make test, make asan)
mk() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BUILD make -C "$REPO" "$@"
}

# code_spans: the text of every `code span`, indented code line and fenced
# code line of the documents, one a line
code_spans() {
    (cd "$REPO" && for f in $DOCS; do
        awk '/^```/ { fence = !fence; next }
             fence || /^    / { print; next }
             { while (match($0, /`[^`]+`/)) { print substr($0, RSTART + 1, RLENGTH - 2); $0 = substr($0, RSTART + RLENGTH) } }' "$f"
    done)
}

# make_targets: the target of every `make ...` in code: the first word after
# make that is neither an option nor a VAR=value assignment
make_targets() {
    code_spans | grep -oE '(^|[ ;(&|])make( [^ `;:)&|]+)*' | while read -r _ args; do
        for w in $args; do
            case "$w" in
            -*|*=*) ;;
            \#*) break ;;
            *) printf '%s\n' "$w"; break ;;
            esac
        done
    done | sort -u
}

@test "docs: README.md has at most 250 lines" {
    local n
    n=$(wc -l <"$REPO/README.md")
    [ "$n" -le 250 ] || fail "README.md has $n lines, more than 250: move the detail into docs/"
}

@test "docs: every make target the README and docs/ name exists (make -n TARGET)" {
    local t bad="" n=0
    for t in $(make_targets); do
        n=$((n + 1))
        mk -n -s "$t" >/dev/null 2>"$TMP/err" || bad="$bad $t ($(head -c 200 "$TMP/err"))"
    done
    [ "$n" -ge 10 ] || fail "only $n make targets found in the documents: $(make_targets | tr '\n' ' ')"
    [ -z "$bad" ] || fail "make targets named in the documentation that make does not know:$bad"
}

@test "docs: the make target check is a check of this test (a wrong name fails)" {
    run mk -n -s no-such-target-in-kpca
    [ "$status" -ne 0 ] || fail "make -n accepts an unknown target"
}

# repo_paths FILE: every repository path FILE names (src/, tests/, scripts/,
# docs/, results/, bench/, tools/, .ci/ and Makefile), trailing punctuation
# dropped; placeholders (<name>) end a path
repo_paths() {
    grep -oE '(^|[^A-Za-z0-9_./-])(src|tests|scripts|docs|results|bench|tools|\.ci)/[A-Za-z0-9_./*-]*' "$1" |
        sed -E 's/^[^a-z.]//; s/[.]+$//' | sort -u
}

@test "docs: every repository path the README and docs/ name exists" {
    local f p bad="" n=0
    cd "$REPO"
    for f in $DOCS; do
        for p in $(repo_paths "$f"); do
            n=$((n + 1))
            # shellcheck disable=SC2086 # a glob such as tests/scripts/*.bats
            compgen -G "$p" >/dev/null || bad="$bad $f:$p"
        done
    done
    [ "$n" -ge 40 ] || fail "only $n paths found"
    [ -z "$bad" ] || fail "paths named that do not exist:$bad"
}

@test "docs: every relative link of the README and docs/ leads to a file" {
    local f l bad="" n=0
    cd "$REPO"
    for f in $DOCS; do
        for l in $(grep -oE '\]\([^)#]+' "$f" | cut -c3- | grep -v '^[a-z]*://'); do
            n=$((n + 1))
            [ -e "$(dirname "$f")/$l" ] || bad="$bad $f:$l"
        done
    done
    [ "$n" -ge 20 ] || fail "only $n links found"
    [ -z "$bad" ] || fail "links to nothing:$bad"
}

@test "docs: the path check is a check (a missing path fails)" {
    printf 'see `scripts/no-such-script.sh` and src/lib/core/model.h.\n' >"$TMP/x.md"
    run repo_paths "$TMP/x.md"
    [ "$output" = "$(printf 'scripts/no-such-script.sh\nsrc/lib/core/model.h')" ] || fail "paths found: $output"
    cd "$REPO"
    ! compgen -G scripts/no-such-script.sh >/dev/null
}

# listed_results: the file names `in code` in results/README.md (no path)
listed_results() {
    grep -oE '`[A-Za-z0-9_.-]+\.(md|csv|json|png)`' "$REPO/results/README.md" | tr -d '`' | sort -u
}

@test "docs: results/README.md lists every file in results/, and every file it lists exists" {
    local f missing="" extra=""
    [ "$(listed_results | wc -l)" -ge 20 ] || fail "results/README.md lists almost nothing"
    for f in "$REPO"/results/*; do
        f=$(basename "$f")
        [ "$f" = README.md ] && continue
        listed_results | grep -qxF "$f" || missing="$missing $f"
    done
    for f in $(listed_results); do
        [ -e "$REPO/results/$f" ] || extra="$extra $f"
    done
    [ -z "$missing" ] || fail "results/ files not in results/README.md:$missing"
    [ -z "$extra" ] || fail "results/README.md lists files that do not exist:$extra"
}

@test "docs: the README's command table lists every command kpca --help lists" {
    local cmd missing=""
    for cmd in $("$KPCA" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
            on && $1 != "help" && $1 != "version" { print $1 }'); do
        grep -qE "^\| \`kpca $cmd( |\`)" "$REPO/README.md" || missing="$missing $cmd"
    done
    [ -z "$missing" ] || fail "commands missing from the README's table:$missing"
}

# quickstart_block KIND: the README's quick start, between <!-- quickstart -->
# and <!-- /quickstart -->: its first fenced block (KIND=sh: the commands) or
# its second (KIND=text: the output it shows)
quickstart_block() {
    awk -v kind="$1" '/^<!-- quickstart -->$/ { on = 1; next } /^<!-- \/quickstart -->$/ { on = 0 }
        !on { next }
        /^```/ { if (infence) { infence = 0; n++ } else infence = 1; next }
        infence && ((kind == "sh" && n == 0) || (kind == "text" && n == 1)) { print }' "$REPO/README.md"
}

@test "docs: the README's quick start runs as written and prints what the README shows" {
    local cmds want
    cmds=$(quickstart_block sh)
    want=$(quickstart_block text)
    [ -n "$cmds" ] && [ -n "$want" ] || fail "no quick start block in the README"
    # as written in a fresh clone: `make` first, then build/kpca and data/
    [ "$(printf '%s\n' "$cmds" | head -n 1)" = make ] || fail "the quick start does not start with make"
    printf '%s\n' "$cmds" | sed 1d | grep -v '^build/kpca ' && fail "a quick start command that is not build/kpca"
    mkdir -p "$TMP/clone/build"
    ln -s "$(cd "$(dirname "$KPCA")" && pwd)/$(basename "$KPCA")" "$TMP/clone/build/kpca"
    ln -s "$(cd "$DATA" && pwd)" "$TMP/clone/data"
    cd "$TMP/clone"
    printf '%s\n' "$cmds" | sed 1d >quickstart.sh
    run --separate-stderr sh -e quickstart.sh
    [ "$status" -eq 0 ] || { echo "$stderr"; fail "the quick start failed"; }
    # up to what another BLAS kernel may change (tests/textclose.py)
    printf '%s\n' "$output" >got.txt
    printf '%s\n' "$want" >want.txt
    run "$PY" "$REPO/tests/textclose.py" want.txt got.txt
    [ "$status" -eq 0 ] || fail "$output: the quick start prints
$(cat got.txt)
but the README shows
$want"
}

# blocks FILE DIR: the fenced blocks of FILE, in order, as DIR/NNN.sh
# (```sh) and DIR/NNN.text (```text)
blocks() {
    awk -v dir="$2" '/^```/ { if (infence) { infence = 0; close(out); next }
                                kind = substr($0, 4); n++; out = sprintf("%s/%03d.%s", dir, n, kind); infence = 1
                                printf "" >out; next }
        infence { print >out }' "$REPO/$1"
}

@test "docs: own-data.md's commands run as written in a fresh clone, in order, and print what it shows" {
    have_sklearn || skip "$PY cannot import sklearn (the examples write their data with it)"
    mkdir -p "$TMP/clone/build" "$TMP/blocks"
    ln -s "$(cd "$(dirname "$KPCA")" && pwd)/$(basename "$KPCA")" "$TMP/clone/build/kpca"
    ln -s "$(cd "$DATA" && pwd)" "$TMP/clone/data"
    blocks docs/own-data.md "$TMP/blocks"
    local f n=0 kinds
    kinds=$(cd "$TMP/blocks" && ls | sed 's/.*\.//' | sort -u | tr '\n' ' ')
    [ "$kinds" = "sh text " ] || fail "own-data.md's fenced blocks are of kinds '$kinds', expected sh and text"
    cd "$TMP/clone"
    for f in "$TMP"/blocks/*; do
        case "$f" in
        *.sh)
            grep -E '(^|[|;&(] *)kpca ' "$f" && fail "$(basename "$f"): kpca named as installed, not build/kpca"
            run --separate-stderr bash -e "$f"
            [ "$status" -eq 0 ] || { echo "$stderr"; cat "$f"; fail "block $(basename "$f") of own-data.md failed"; }
            n=$((n + 1)) ;;
        *.text) # up to what another BLAS kernel may change (tests/textclose.py)
            printf '%s\n' "$output" >"$TMP/got.txt"
            "$PY" "$REPO/tests/textclose.py" "$f" "$TMP/got.txt" || fail "$(basename "$f") of own-data.md shows
$(cat "$f")
but the commands before it print
$output" ;;
        esac
    done
    [ "$n" -ge 8 ] || fail "only $n command blocks in own-data.md"
    [ -s iris.model ] && [ -s hi.model ] && [ -s new-pred.txt ] || fail "the examples wrote no models or predictions"
}

@test "docs: the quick start's cells are the headline table's (results/usps-poly-svm.csv)" {
    local k pct errs total csv
    quickstart_block text | sed 1d >"$TMP/want"
    [ -s "$TMP/want" ] || fail "no quick start output in the README"
    grep -q '^d3\.model\|-d 3 ' <(quickstart_block sh) || fail "the quick start is not the d = 3 column"
    while read -r k pct errs total; do
        csv=$(awk -F, -v k="$k" '$1 == 3 && $2 == k { print $3, $4, $5 }' "$REPO/results/usps-poly-svm.csv")
        [ "$csv" = "$pct $errs $total" ] || fail "d = 3, $k components: README $pct $errs $total, results/usps-poly-svm.csv '$csv'"
    done <"$TMP/want"
}
