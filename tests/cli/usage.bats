#!/usr/bin/env bats
# usage.bats - the command line itself: help, version, usage errors (exit 2).

load ../helper

@test "no arguments: exit 2, usage on stderr, nothing on stdout" {
    run --separate-stderr "$KPCA"
    assert_status 2
    [[ "$stderr" == "usage: kpca <command>"* ]] || { show_run; fail "no usage on stderr"; }
    assert_stderr_contains "commands:" "fit" "transform" "eval" "exit codes"
    [ -z "$output" ] || { show_run; fail "usage went to stdout"; }
}

@test "--version and version print 'kpca X.Y.Z', the OpenBLAS core and the GPU (cuda:) on stdout" {
    run --separate-stderr "$KPCA" --version
    assert_status 0
    [ "${#lines[@]}" -eq 3 ] || { show_run; fail "expected three lines"; }
    [[ "${lines[0]}" =~ ^kpca\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || { show_run; fail "bad version line"; }
    [[ "${lines[1]}" =~ ^OpenBLAS\ [A-Za-z0-9]+$ ]] || { show_run; fail "bad OpenBLAS line"; }
    [[ "${lines[2]}" == "cuda: "* ]] || { show_run; fail "bad cuda line"; }
    [ -z "$stderr" ]
    local v="$output"
    run --separate-stderr "$KPCA" version
    assert_status 0
    [ "$output" = "$v" ]
}

# Debian 12's OpenBLAS falls back to generic SSE3 kernels on CPUs newer than
# it (3-7x slower); kpca then re-executes itself with OPENBLAS_CORETYPE set.
@test "on a CPU with AVX2 + FMA, OpenBLAS does not run its generic kernels" {
    grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo || skip "no AVX2 + FMA here"
    run --separate-stderr env -u OPENBLAS_CORETYPE "$KPCA" --version
    assert_status 0
    case "${lines[1]}" in
    "OpenBLAS "Prescott | *Core2 | *Penryn | *Dunnington | *Nehalem | *Sandybridge | *Atom | *Unknown)
        show_run
        fail "generic OpenBLAS kernels on a CPU with AVX2" ;;
    esac
}

@test "a user's OPENBLAS_CORETYPE is kept as given" {
    run --separate-stderr env OPENBLAS_CORETYPE=Prescott "$KPCA" --version
    assert_status 0
    [ "${lines[1]}" = "OpenBLAS Prescott" ] || { show_run; fail "the user's core type was overridden"; }
}

@test "--help and -h print the usage on stdout, exit 0" {
    local h
    for h in --help -h help; do
        run --separate-stderr "$KPCA" $h
        assert_status 0
        [[ "$output" == "usage: kpca <command>"* ]] || { show_run; fail "$h: no usage"; }
        assert_stdout_contains "fit " "transform " "eval " "exit codes:" "  0  success" "  2  usage error" "  6  out of memory"
        [ -z "$stderr" ] || { show_run; fail "$h: output on stderr"; }
    done
}

@test "help of each command: --help, -h and 'kpca help CMD' agree" {
    local cmd
    for cmd in fit transform eval; do
        run --separate-stderr "$KPCA" "$cmd" --help
        assert_status 0
        [[ "$output" == "usage: kpca $cmd "* ]] || { show_run; fail "$cmd --help: no usage line"; }
        assert_stdout_contains "options:" "-h, --help"
        [ -z "$stderr" ] || { show_run; fail "$cmd --help: output on stderr"; }
        local help="$output"
        run --separate-stderr "$KPCA" "$cmd" -h
        assert_status 0
        [ "$output" = "$help" ] || fail "$cmd -h differs from $cmd --help"
        run --separate-stderr "$KPCA" help "$cmd"
        assert_status 0
        [ "$output" = "$help" ] || fail "kpca help $cmd differs from $cmd --help"
    done
}

@test "help texts name each command's options" {
    run "$KPCA" fit --help
    assert_stdout_contains "--degree" "--components" "--subset" "--seed" "--output" "--input-range" "--round" "--format"
    run "$KPCA" transform --help
    assert_stdout_contains "--components" "--output" "--output-format" "--input-range" "--round"
    run "$KPCA" eval --help
    assert_stdout_contains "--components" "--cost" "--multiclass" "--scale" "--backend" "--csv" "--markdown"
}

@test "--help wins over other arguments and writes nothing" {
    run --separate-stderr "$KPCA" fit --help -d 0 nosuchfile -o "$OUT/m.h5"
    assert_status 0
    [[ "$output" == "usage: kpca fit "* ]]
    assert_no_output "$OUT/m.h5"
}

@test "unknown command: exit 2" {
    run --separate-stderr "$KPCA" frobnicate
    assert_status 2
    assert_error_message
    assert_stderr_contains "unknown command 'frobnicate'" "kpca --help"
    run --separate-stderr "$KPCA" --frobnicate
    assert_status 2
    assert_stderr_contains "unknown command '--frobnicate'"
    run --separate-stderr "$KPCA" help frobnicate
    assert_status 2
    assert_stderr_contains "unknown command 'frobnicate'"
}

@test "unknown option: exit 2, 'unknown option' and a pointer to the command's help" {
    local cmd
    for cmd in fit transform eval; do
        run --separate-stderr "$KPCA" "$cmd" --frobnicate a b
        assert_status 2
        assert_error_message
        assert_stderr_contains "unknown option '--frobnicate'" "see 'kpca $cmd --help'"
        run --separate-stderr "$KPCA" "$cmd" -Z a b
        assert_status 2
        assert_stderr_contains "unknown option '-Z'" "see 'kpca $cmd --help'"
    done
}

@test "flags take no value and do not bundle" {
    run --separate-stderr "$KPCA" fit --quiet=1 "$DATA/zip.test.gz" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "'--quiet' takes no value"
    run --separate-stderr "$KPCA" fit -qd 2 "$DATA/zip.test.gz" -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "unknown option '-qd'"
    assert_no_output "$OUT/m.h5"
}

@test "an option without its value: exit 2" {
    run --separate-stderr "$KPCA" fit "$DATA/zip.test.gz" -o "$OUT/m.h5" -d
    assert_status 2
    assert_error_message
    assert_stderr_contains "'--degree' needs a value" "see 'kpca fit --help'"
    assert_no_output "$OUT/m.h5"
}

# bad_fit ARGS...: kpca fit with ARGS on the test set exits 2 with an error
# naming the option's value, and writes no model
bad_fit() {
    run --separate-stderr "$KPCA" fit -q "$@" "$DATA/zip.test.gz" -o "$OUT/m.h5"
    assert_status 2
    assert_error_message
    assert_no_output "$OUT/m.h5"
}

@test "fit --degree must be an integer in 1..20" {
    local v
    for v in 0 -1 21 2x x 2.5 "" " 2" +2 99999999999999999999; do
        bad_fit --degree "$v"
        assert_stderr_contains "option '--degree'" "got '$v'" "see 'kpca fit --help'"
    done
    bad_fit -d 0
    bad_fit -d0
    bad_fit --degree=0
    assert_stderr_contains "got '0'"
}

@test "fit --components and --subset must be positive integers" {
    bad_fit --components 0
    assert_stderr_contains "option '--components'" "got '0'"
    bad_fit -k -3
    bad_fit -k 1e3
    bad_fit --subset 1
    assert_stderr_contains "option '--subset'" "got '1'"
    bad_fit -m abc
    bad_fit -m 10.5
}

@test "fit --subset larger than the file: exit 2" {
    # zip.test.gz has 2007 rows
    bad_fit -m 2008
    assert_stderr_contains "2007 rows" "2008"
    assert_stderr_contains "'$DATA/zip.test.gz'"
}

@test "fit --components larger than --subset: exit 2" {
    bad_fit -m 50 -k 51
    assert_stderr_contains "51" "50"
}

@test "fit: bad --gamma, --coef0, --tol, --seed, --eig, --format, --round" {
    bad_fit --gamma 0
    assert_stderr_contains "option '--gamma'"
    bad_fit --gamma -1
    bad_fit --gamma nan
    bad_fit --gamma inf
    bad_fit --coef0 -0.5
    assert_stderr_contains "option '--coef0'"
    bad_fit --tol 2
    bad_fit --tol -1
    bad_fit --seed -1
    bad_fit --eig magic
    assert_stderr_contains "option '--eig'" "'magic'"
    bad_fit --format magic
    assert_stderr_contains "option '--format'" "'magic'"
    bad_fit --format npz
    assert_stderr_contains "option '--format'" "'npz'"
    bad_fit --round 16
    bad_fit --round -1
}

@test "fit --kernel: unknown names refused; options of another kernel refused, not ignored" {
    bad_fit --kernel gaussian
    assert_stderr_contains "option '--kernel'" "poly, rbf, sigmoid, linear, laplacian, cosine, chi2 or precomputed" "'gaussian'"
    bad_fit --kernel RBF
    bad_fit --kernel rbf --degree 2
    assert_stderr_contains "option '--degree' does not apply to --kernel rbf"
    bad_fit --kernel rbf --gamma 0.5
    assert_stderr_contains "option '--gamma' does not apply to --kernel rbf"
    bad_fit --kernel linear --coef0 1
    assert_stderr_contains "option '--coef0' does not apply to --kernel linear"
    bad_fit --kernel poly --sigma 2
    assert_stderr_contains "option '--sigma' does not apply to --kernel poly"
    bad_fit --kernel sigmoid --sigma 2
    bad_fit --kernel rbf --sigma 0
    assert_stderr_contains "option '--sigma'"
    bad_fit --kernel rbf --sigma -3
    bad_fit --kernel rbf --sigma nan
    bad_fit --kernel sigmoid --gamma 0
    bad_fit --kernel sigmoid --coef0 inf
}

@test "--input-range must be LO,HI with LO < HI" {
    local v
    for v in 1,0 0,0 0 ",1" "0," a,b "0;1" 0,1,2 nan,1; do
        bad_fit --input-range "$v"
        assert_stderr_contains "option '--input-range'" "got '$v'"
    done
    "$KPCA" fit -q -d 2 -m 10 -k 2 "$DATA/zip.test.gz" -o "$TMP/m.h5"
    run --separate-stderr "$KPCA" transform -q --input-range 1,0 "$TMP/m.h5" "$DATA/zip.test.gz" -o "$OUT/z.svm"
    assert_status 2
    assert_stderr_contains "option '--input-range'"
    assert_no_output "$OUT/z.svm"
}

@test "fit without -o: exit 2" {
    run --separate-stderr "$KPCA" fit -d 2 "$DATA/zip.test.gz"
    assert_status 2
    assert_error_message
    assert_stderr_contains "-o" "see 'kpca fit --help'"
}

@test "transform without -o: exit 2" {
    run --separate-stderr "$KPCA" transform model.h5 "$DATA/zip.test.gz"
    assert_status 2
    assert_error_message
    assert_stderr_contains "-o" "see 'kpca transform --help'"
}

@test "missing and extra arguments: exit 2" {
    run --separate-stderr "$KPCA" fit -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "missing argument DATA:" "see 'kpca fit --help'"
    run --separate-stderr "$KPCA" transform model.h5 -o "$OUT/z.svm"
    assert_status 2
    assert_stderr_contains "missing argument DATA:"
    run --separate-stderr "$KPCA" eval train.h5
    assert_status 2
    assert_stderr_contains "missing argument TEST:" "see 'kpca eval --help'"
    run --separate-stderr "$KPCA" fit a b -o "$OUT/m.h5"
    assert_status 2
    assert_stderr_contains "unexpected argument 'b'"
    run --separate-stderr "$KPCA" eval a b c
    assert_status 2
    assert_stderr_contains "unexpected argument 'c'"
    assert_no_output "$OUT/m.h5"
}

@test "transform: bad --components and --output-format: exit 2" {
    run --separate-stderr "$KPCA" transform -k 0 m.h5 "$DATA/zip.test.gz" -o "$OUT/z.svm"
    assert_status 2
    assert_stderr_contains "option '--components'"
    run --separate-stderr "$KPCA" transform -f esl m.h5 "$DATA/zip.test.gz" -o "$OUT/z.svm"
    assert_status 2
    assert_stderr_contains "option '--output-format'" "'esl'"
    run --separate-stderr "$KPCA" transform -f foo m.h5 "$DATA/zip.test.gz" -o "$OUT/z.svm"
    assert_status 2
    assert_error_message
    assert_no_output "$OUT/z.svm"
}

# bad_eval ARGS...: kpca eval with ARGS exits 2 before reading any file
bad_eval() {
    run --separate-stderr "$KPCA" eval -q "$@" "$DATA/zip.test.gz" "$DATA/zip.test.gz" --csv "$OUT/t.csv"
    assert_status 2
    assert_error_message
    assert_no_output "$OUT/t.csv"
}

@test "eval -c must be a positive number" {
    local v
    for v in 0 -1 -0.5 x 1x nan inf ""; do
        bad_eval -c "$v"
        assert_stderr_contains "option '--cost'" "got '$v'" "see 'kpca eval --help'"
    done
}

@test "eval -c lists: every value positive, --folds 2..100" {
    local v
    for v in "1,,2" "1,0" "1,-3" ",1" "1," "0.1,x"; do
        bad_eval -c "$v"
        assert_stderr_contains "option '--cost'" "got '$v'"
    done
    bad_eval -c 0.1,1 --folds 1
    assert_stderr_contains "option '--folds'"
}

@test "eval: bad --multiclass, --scale, --backend, --eps, -k" {
    bad_eval --multiclass foo
    assert_stderr_contains "option '--multiclass'" "'foo'"
    bad_eval --scale foo
    assert_stderr_contains "option '--scale'" "'foo'"
    bad_eval --backend foo
    assert_stderr_contains "option '--backend'" "'foo'"
    bad_eval --eps 0
    assert_stderr_contains "option '--eps'"
    local v
    for v in 0 -1 "16,,64" "16," ",16" "a" "16;64" "1.5"; do
        bad_eval -k "$v"
        assert_stderr_contains "option '--components'" "'$v'"
    done
}

@test "eval -k is read as integers: each fault is said in the user's words" {
    local case v msg
    for case in "64,,128|'64,,128': value 2 of 3 is empty" "1e3|'1e3' is not a whole number" \
        "99999999999999999999999|'99999999999999999999999' is too large" "-5|'-5' is negative" \
        "64x|'64x' is not a whole number" "0|'0' is not positive" "1000000001|'1000000001' is too large" \
        "+5|'+5' has a sign" "16,64,1.5|'16,64,1.5': '1.5' is not a whole number" "|the value is empty"; do
        IFS='|' read -r v msg <<<"$case"
        bad_eval -k "$v"
        assert_stderr_contains "option '--components': $msg" "from 1 to 1000000000"
    done
}

@test "eval -k beyond the number of features: exit 2" {
    # zip.test.gz read as data has 256 features
    bad_eval -k 16,257
    assert_stderr_contains "257" "256"
}
