#!/bin/sh
# bats-skips.sh REPORT.tap... - how many tests the bats reports (bats
# --report-formatter tap) skipped, and why: one line
#   N tests skipped: REASON (COUNT); REASON (COUNT)...
# reasons in order of first appearance.  A missing report is an error (exit 2):
# a run that wrote none has not run.
set -eu
[ $# -gt 0 ] || { echo "usage: tests/bats-skips.sh REPORT.tap..." >&2; exit 2; }
for f in "$@"; do
    [ -r "$f" ] || { echo "bats-skips.sh: no report $f" >&2; exit 2; }
done
awk '
    /^ok [0-9]+ .* # skip( |$)/ {
        r = $0; sub(/^.* # skip ?/, "", r)
        if (r == "") r = "no reason given"
        if (!(r in count)) order[++kinds] = r
        count[r]++; n++
    }
    END {
        line = (n + 0) " test" (n == 1 ? "" : "s") " skipped"
        for (k = 1; k <= kinds; k++)
            line = line (k == 1 ? ": " : "; ") order[k] " (" count[order[k]] ")"
        print line
    }' "$@"
