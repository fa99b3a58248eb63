#!/usr/bin/env bats
# The documentation made from the option tables (the man page) or checked
# against them (the exit codes of docs/guarantees.md), and make install.

load ../helper

# every option line of every --help, as the man page renders it
@test "the man page (kpca help --man) documents every option of every command, and renders cleanly" {
    "$KPCA" help --man >"$TMP/kpca.1"
    grep -q '^\.TH KPCA 1 ' "$TMP/kpca.1" || fail "no .TH line"
    local cmd opt n=0 cmds
    # every command kpca --help lists (not help and version, which have no
    # section of their own)
    cmds=$("$KPCA" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
        on && $1 != "help" && $1 != "version" { print $1 }')
    [[ " $(printf '%s ' $cmds)" == *" spectrum "* ]] || fail "kpca --help lists no spectrum command: $cmds"
    for cmd in $cmds; do
        grep -q "^\.SS \"kpca $cmd " "$TMP/kpca.1" || fail "no section for $cmd"
        for opt in $("$KPCA" "$cmd" --help | grep -oE '^ +(-[a-zA-Z], )?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+'); do
            local esc
            esc=$(printf '%s' "${opt#--}" | sed 's/-/\\-/g')
            grep -qF "\\fB\\-\\-$esc\\fR" "$TMP/kpca.1" || fail "$cmd: $opt missing from the man page"
            n=$((n + 1))
        done
    done
    [ "$n" -gt 30 ] || fail "only $n options found"
    if command -v groff >/dev/null; then
        run groff -man -Tutf8 -ww -z "$TMP/kpca.1"
        [ "$status" -eq 0 ] && [ -z "$output" ] || { show_run; fail "groff warnings"; }
    fi
}

@test "the man page's option text is the --help text (one source)" {
    "$KPCA" help --man >"$TMP/kpca.1"
    # the help text of eval's --memory-limit, with roff's \- for '-'
    local h
    h=$("$KPCA" eval --help | sed -n 's/^      --memory-limit SIZE  *//p')
    [ -n "$h" ] || fail "no --memory-limit line in eval --help"
    grep -qF "$(printf '%s' "$h" | sed 's/-/\\-/g')" "$TMP/kpca.1" || fail "man page text differs: $h"
}

@test "docs/guarantees.md's exit code table is the one kpca --help prints" {
    local line code meaning
    while IFS= read -r line; do
        code=$(printf '%s' "$line" | awk '{ print $1 }')
        meaning=$(printf '%s' "$line" | sed -E 's/^ +[0-9]+  //')
        grep -qF "| $code | $meaning |" "$BATS_TEST_DIRNAME/../../docs/guarantees.md" ||
            fail "docs/guarantees.md lacks exit code row: | $code | $meaning |"
    done < <("$KPCA" --help | sed -n '/^exit codes:/,$p' | grep -E '^  [0-9]+  ')
}

@test "make install and uninstall honour PREFIX and DESTDIR" {
    local root="$BATS_TEST_DIRNAME/../.." dest="$TMP/dest"
    [ -x "$root/build/kpca" ] || skip "needs the default build/ (make install installs it)"
    run make -s -C "$root" install DESTDIR="$dest" PREFIX=/opt/kp
    [ "$status" -eq 0 ] || { show_run; fail "make install failed"; }
    [ -x "$dest/opt/kp/bin/kpca" ] || fail "no binary installed"
    [ -s "$dest/opt/kp/share/man/man1/kpca.1" ] || fail "no man page installed"
    run "$dest/opt/kp/bin/kpca" --version
    [ "$status" -eq 0 ]
    run make -s -C "$root" uninstall DESTDIR="$dest" PREFIX=/opt/kp
    [ "$status" -eq 0 ] || { show_run; fail "make uninstall failed"; }
    [ ! -e "$dest/opt/kp/bin/kpca" ] && [ ! -e "$dest/opt/kp/share/man/man1/kpca.1" ] || fail "files left after uninstall"
}
