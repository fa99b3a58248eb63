#!/bin/sh
# sync-readme.sh [--check] - refresh README.md's command synopses from
# `kpca CMD --help`, so the README cannot drift from the option tables.
# Blocks look like:  <!-- help:fit -->  ```text ... ```  <!-- /help -->
# and the exit code table, from `kpca --help` (the library's status codes):
#   <!-- exit-codes -->  | code | meaning | ...  <!-- /exit-codes -->
# With --check, exit 1 (and show the diff) if README.md is out of date.
set -eu
cd "$(dirname "$0")/.."
kpca=${KPCA:-build/kpca}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
awk -v kpca="$kpca" '
    /^<!-- help:[a-z]+ -->$/ {
        print
        cmd = $0; sub(/^<!-- help:/, "", cmd); sub(/ -->$/, "", cmd)
        print "```text"
        run = kpca " " cmd " --help"
        while ((run | getline line) > 0) print line
        close(run)
        print "```"
        skip = 1
        next
    }
    /^<!-- exit-codes -->$/ {
        print
        print "| code | meaning |"
        print "|---|---|"
        run = kpca " --help"
        rows = 0
        while ((run | getline line) > 0) {
            if (line ~ /^exit codes:/) { rows = 1; continue }
            if (rows && line ~ /^  [0-9]+  /) {
                code = line; sub(/^  /, "", code); sub(/  .*/, "", code)
                meaning = line; sub(/^  [0-9]+  /, "", meaning)
                print "| " code " | " meaning " |"
            }
        }
        close(run)
        skip = 1
        next
    }
    /^<!-- \/help -->$/ || /^<!-- \/exit-codes -->$/ { skip = 0 }
    !skip { print }
' README.md > "$tmp"
if [ "${1:-}" = --check ]; then
    if ! diff -u README.md "$tmp"; then
        echo "README.md is out of date: run scripts/sync-readme.sh" >&2
        exit 1
    fi
else
    cp "$tmp" README.md
fi
