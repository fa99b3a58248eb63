#!/usr/bin/env bats
# results.bats - scripts/results.sh (make results): it covers every make
# target results/README.md names, refuses to run on uncommitted code (the
# commit in each file must be the code that made it) and names a wrong
# target.  The run itself takes hours and is not made here.

load ../helper

# the targets results.sh runs, one a line
script_targets() {
    sed -n '/^all="/,/"$/p' "$REPO/scripts/results.sh" | tr ' "' '\n\n' | sed -n 's/^\([a-z]*\):.*/\1/p' | sort -u
}

@test "results.sh runs every make target that results/README.md names (claims is make experiment's last step)" {
    named=$(grep -o '`make [a-z]*`' "$REPO/results/README.md" | tr -d '`' | awk '{ print $2 }' | sort -u | grep -v -x -e results -e claims)
    [ -n "$named" ]
    missing=$(comm -23 <(echo "$named") <(script_targets))
    [ -z "$missing" ] || { echo "results.sh lacks: $missing"; false; }
    grep -q 'make claims' "$REPO/Makefile"
    sed -n '/^experiment:/,/^$/p' "$REPO/Makefile" | grep -q 'MAKE) claims'
    # and make bench runs last, with the machine to itself
    [ "$(sed -n '/^all="/,/"$/p' "$REPO/scripts/results.sh" | tr ' "' '\n\n' | sed -n 's/^\([a-z]*\):.*/\1/p' | tail -n 1)" = bench ]
}

@test "results.sh refuses uncommitted changes outside results/ and a target it does not know" {
    dir="$BATS_TEST_TMPDIR/clone"
    git clone -q "$REPO" "$dir"
    echo "// edit" >>"$dir/src/cli/main.c"
    run sh "$dir/scripts/results.sh" --only iris
    [ "$status" -eq 1 ]
    [[ "$output" == *"uncommitted changes outside results/"* ]]
    [[ "$output" == *"commit them first"* ]]
    [ ! -e "$dir/build/results.log" ]
    git -C "$dir" checkout -q src/cli/main.c
    run sh "$dir/scripts/results.sh" --only "iris plots"
    [ "$status" -eq 2 ]
    [[ "$output" == *"'plots' is not one of the targets: experiment"* ]]
    [ ! -e "$dir/build/results.log" ]
}
