#!/usr/bin/env bats
# messages.bats - messages that say what a file is and what to do instead:
# a NumPy .npz archive (or another zip) where data belongs, the exact
# solver's memory refusal with its ways out, `kpca --help CMD`, and a model
# given to fit as a positional argument.

load ../helper

setup_file() {
    local d k="${KPCA:-$BATS_TEST_DIRNAME/../../build/kpca}"
    d="$(file_tmp)"
    gzip -dc "$BATS_TEST_DIRNAME/../../data/zip.train.gz" | head -n 2000 >"$d/train.txt"
    head -n 60 "$d/train.txt" >"$d/small.txt"
    "$k" fit -q -d 2 -m 40 -k 5 "$d/small.txt" -o "$d/m.model"
}

setup() {
    common_setup
    FIX="$(file_tmp)"
    [ -s "$FIX/m.model" ] || fail "setup_file could not fit the model"
}

@test "a NumPy .npz where data belongs is named, with numpy.save as the way out: exit 3" {
    $PY -c "import numpy" 2>/dev/null || skip "no numpy in $PY"
    $PY -c "
import numpy as np
np.savez('$TMP/a.npz', np.ones((5, 3)))
np.savez_compressed('$TMP/b.npz', x=np.ones((5, 3)), y=np.arange(5))"
    local f
    for f in a.npz b.npz; do
        run --separate-stderr "$KPCA" fit -q "$TMP/$f" -o "$OUT/m.h5"
        assert_status 3
        assert_error_names "$TMP/$f"
        assert_stderr_contains "is a NumPy .npz archive (a zip of arrays)" "numpy.save('x.npy', arr)"
        assert_no_output "$OUT/m.h5"
    done
    # where a model belongs, and as eval's TEST: the same words
    run --separate-stderr "$KPCA" transform -q "$TMP/a.npz" "$FIX/small.txt" -o "$OUT/z.h5"
    assert_status 3
    assert_stderr_contains "argument 1 of transform is a MODEL" "is a NumPy .npz archive" "numpy.save("
    run --separate-stderr "$KPCA" transform -q "$FIX/m.model" "$TMP/a.npz" -o "$OUT/z.h5"
    assert_status 3
    assert_stderr_contains "is a NumPy .npz archive" "numpy.save("
    assert_no_output "$OUT/z.h5"
}

@test "another zip (a spreadsheet workbook) is named a zip archive, with what to do: exit 3" {
    $PY -c "
import zipfile
with zipfile.ZipFile('$TMP/book.xlsx', 'w') as z:
    z.writestr('[Content_Types].xml', '<Types/>')"
    run --separate-stderr "$KPCA" fit -q "$TMP/book.xlsx" -o "$OUT/m.h5"
    assert_status 3
    assert_error_names "$TMP/book.xlsx"
    assert_stderr_contains "is a zip archive" "save it as CSV"
    [[ "$stderr" != *npz* ]] || { show_run; fail "a workbook called an .npz"; }
}

@test "the exact solver's memory refusal names --subset and --solver nystrom, and both fit in that budget" {
    local solver
    for solver in exact randomized; do
        run --separate-stderr "$KPCA" fit -q -k 5 --solver "$solver" --memory-limit 50M "$FIX/train.txt" -o "$OUT/m.h5"
        assert_status 6
        assert_error_message
        assert_stderr_contains "kernel PCA on 2000 points needs about" \
            "hint: the $solver solver holds the 2000 x 2000 kernel matrix" "--subset M" "--solver nystrom"
        assert_no_output "$OUT/m.h5"
    done
    run --separate-stderr "$KPCA" fit -q -k 5 --subset 500 --memory-limit 50M "$FIX/train.txt" -o "$OUT/a.h5"
    assert_status 0
    run --separate-stderr "$KPCA" fit -q -k 5 --solver nystrom --landmarks 200 --memory-limit 50M "$FIX/train.txt" -o "$OUT/b.h5"
    assert_status 0
    # the linear kernel's D x D fit holds no kernel matrix: no such hint
    run --separate-stderr "$KPCA" fit -q -k 5 --kernel linear --memory-limit 5M "$FIX/train.txt" -o "$OUT/c.h5"
    assert_status 6
    assert_stderr_contains "through the 256 x 256 covariance needs about"
    [[ "$stderr" != *"kernel matrix"* ]] || { show_run; fail "the covariance fit blamed on a kernel matrix"; }
}

@test "kpca --help CMD, kpca -h CMD and kpca help CMD show CMD's help, as kpca CMD --help" {
    local c
    for c in fit transform eval info spectrum denoise reduce cluster; do
        run --separate-stderr "$KPCA" "$c" --help
        assert_status 0
        local want="$output"
        [[ "$want" == "usage: kpca $c "* ]] || { show_run; fail "no usage line for $c"; }
        run --separate-stderr "$KPCA" --help "$c"
        assert_status 0
        [ "$output" = "$want" ] || fail "kpca --help $c differs from kpca $c --help"
        run --separate-stderr "$KPCA" -h "$c"
        [ "$output" = "$want" ] || fail "kpca -h $c differs"
        run --separate-stderr "$KPCA" help "$c"
        [ "$output" = "$want" ] || fail "kpca help $c differs"
    done
    run --separate-stderr "$KPCA" --help nosuch
    assert_status 2
    assert_stderr_contains "unknown command 'nosuch'"
    run --separate-stderr "$KPCA" --help
    assert_status 0
    assert_stdout_contains "usage: kpca <command>" "kpca --help fit"
}

@test "fit MODEL DATA, without -o: says that argument 1 is a model and that fit writes one with -o" {
    run --separate-stderr "$KPCA" fit -q "$FIX/m.model" "$FIX/small.txt"
    assert_status 3
    assert_error_message
    assert_stderr_contains "argument 1 of fit is DATA" "'$FIX/m.model' is a kpca model (written by kpca fit)" \
        "kpca fit takes one argument, DATA; it writes the model with -o" "usage: kpca fit [options] DATA -o MODEL"
    [[ "$stderr" != *"no output file"* ]] || { show_run; fail "blamed on the missing -o"; }
    # DATA MODEL: the model is the extra argument
    run --separate-stderr "$KPCA" fit -q "$FIX/small.txt" "$FIX/m.model"
    assert_status 2
    assert_stderr_contains "unexpected argument '$FIX/m.model', which is a kpca model" "it writes the model with -o"
    # no model among them: the synopsis still says what fit takes
    run --separate-stderr "$KPCA" fit -q "$FIX/small.txt" "$OUT/new.model"
    assert_status 2
    assert_stderr_contains "unexpected argument '$OUT/new.model': kpca fit takes one argument, DATA"
    assert_no_output "$OUT/new.model"
    # a stream among the arguments is not sniffed (it would be consumed): no hang
    run --separate-stderr bash -c "cat '$FIX/m.model' | timeout 20 '$KPCA' fit - '$FIX/small.txt'"
    assert_status 2
    assert_stderr_contains "unexpected argument '$FIX/small.txt'"
}
