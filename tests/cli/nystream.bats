#!/usr/bin/env bats
# nystream.bats - kpca fit --solver nystrom reads its data a block at a
# time: every format (standard input too) gives one model, the partial
# files of fit --partial merged by kpca merge give the model of the whole
# fit, merge refuses parts that do not belong together with the reason, a
# bad row deep in a file is the usual error with no output, and the peak
# memory of a fit of 10^6 rows stays below what the rows alone would take.

load ../helper

setup() {
    common_setup
    have_h5py || skip "no numpy and h5py in $PY"
    head_rows "$DATA/zip.train.gz" 1200 "$TMP/fit.txt"
}

# same_model A.h5 B.h5 [TOL [FLAGS]]: two Nyström models agree to TOL
# (default 1e-10): landmarks, labels (unless FLAGS has nolabels), range, the
# subset's text, the standardisation and column names (unless nocolumns)
# exactly; eigenvalues relative to the
# largest; trace, colmean and each component's alpha relative to their
# largest entry, with the same signs
same_model() {
    "$PY" - "$1" "$2" "${3:-1e-10}" "${4:-}" <<'EOF' >&2 || fail "models $1 and $2 differ"
import sys, h5py, numpy as np
a, b, tol = h5py.File(sys.argv[1], 'r'), h5py.File(sys.argv[2], 'r'), float(sys.argv[3])
bad = []
for k in ('m', 'k', 'dim', 'fit_points', 'kernel', 'solver', 'input_lo', 'input_hi', 'subset'):
    if a.attrs.get(k) != b.attrs.get(k):
        bad.append('%s: %s vs %s' % (k, a.attrs.get(k), b.attrs.get(k)))
for k in ('standardize_mean', 'standardize_scale', 'columns')[:2 if 'nocolumns' in sys.argv[4] else 3]:
    if (k in a) != (k in b) or (k in a and not np.array_equal(a[k][:], b[k][:])):
        bad.append(k + ' differ')
if not bad:
    for k in ('fit_x', 'fit_y')[:1 if 'nolabels' in sys.argv[4] else 2]:
        if not np.array_equal(a[k][:], b[k][:]):
            bad.append(k + ' differ')
    ea, eb = a['eigenvalues'][:], b['eigenvalues'][:]
    d = np.max(np.abs(ea - eb)) / ea[0]
    if d > tol: bad.append('eigenvalues differ by %g of the largest' % d)
    if abs(a.attrs['trace'] - b.attrs['trace']) > tol * a.attrs['trace']: bad.append('trace differs')
    ca, cb = a['colmean'][:], b['colmean'][:]
    if np.max(np.abs(ca - cb)) > tol * np.max(np.abs(ca)): bad.append('colmean differs')
    aa, ab = a['alpha'][:], b['alpha'][:]
    rel = np.max(np.abs(aa - ab), axis=1) / np.max(np.abs(aa), axis=1)
    if rel.max() > tol: bad.append('alpha of component %d differs by %g' % (rel.argmax() + 1, rel.max()))
print('\n'.join(bad))
sys.exit(1 if bad else 0)
EOF
}

@test "every format, standard input and a pipe give the model of the ESL text, read a block at a time" {
    "$KPCA" fit -q --solver nystrom --landmarks 150 -k 20 "$TMP/fit.txt" -o "$TMP/esl.h5"
    "$PY" - "$TMP/fit.txt" "$TMP" <<'EOF'
import sys, numpy as np, h5py
a = np.loadtxt(sys.argv[1])
np.save(sys.argv[2] + '/fit.npy', a[:, 1:])
np.savetxt(sys.argv[2] + '/fit.csv', a, delimiter=',', fmt='%.17g',
           header='label,' + ','.join('p%d' % j for j in range(a.shape[1] - 1)), comments='')
with h5py.File(sys.argv[2] + '/fit.h5', 'w') as f:
    f['train/data'] = a[:, 1:]
    f['train/target'] = a[:, 0].astype(np.int32)
EOF
    gzip -c "$TMP/fit.txt" >"$TMP/fit.txt.gz"
    local f
    for f in fit.txt.gz fit.csv fit.npy fit.h5:train; do
        run --separate-stderr "$KPCA" fit --solver nystrom --landmarks 150 -k 20 "$TMP/$f" -o "$OUT/m.h5"
        assert_status 0
        assert_stderr_contains "read in blocks" "the sign pass"
        same_model "$TMP/esl.h5" "$OUT/m.h5" 0 "$([ "$f" != fit.npy ] || echo nolabels) nocolumns"
        rm -f "$OUT/m.h5"
    done
    run --separate-stderr "$KPCA" fit -q --solver nystrom --landmarks 150 -k 20 - -o "$OUT/stdin.h5" <"$TMP/fit.txt"
    assert_status 0
    same_model "$TMP/esl.h5" "$OUT/stdin.h5" 0
    run --separate-stderr "$KPCA" fit -q --solver nystrom --landmarks 150 -k 20 <(cat "$TMP/fit.txt") -o "$OUT/pipe.h5"
    assert_status 0
    same_model "$TMP/esl.h5" "$OUT/pipe.h5" 0
}

@test "fit --partial over three row ranges, merged in any order, is the single-process model (subset, options, standardised)" {
    local args="--solver nystrom --landmarks 120 -k 15 -m 1000 -s 7 --input-range -1,1 --round 2 --standardize"
    # shellcheck disable=SC2086
    "$KPCA" fit -q $args "$TMP/fit.txt" -o "$TMP/one.h5"
    # shellcheck disable=SC2086
    run --separate-stderr "$KPCA" fit $args --partial --rows 0:300 "$TMP/fit.txt" -o "$OUT/a.part"
    assert_status 0
    assert_stderr_contains "partial: rows 0:300 of 1000 fit rows"
    # shellcheck disable=SC2086
    "$KPCA" fit -q $args --partial --rows 300:301 "$TMP/fit.txt" -o "$OUT/b.part"
    # shellcheck disable=SC2086
    "$KPCA" fit -q $args --partial --rows 301: "$TMP/fit.txt" -o "$OUT/c.part"
    run --separate-stderr "$KPCA" merge "$OUT/c.part" "$OUT/a.part" "$OUT/b.part" -o "$OUT/merged.h5"
    assert_status 0
    assert_stderr_contains "merge: 3 parts, 1000 fit rows"
    same_model "$TMP/one.h5" "$OUT/merged.h5"
    [ "$("$PY" -c 'import h5py, sys; print(h5py.File(sys.argv[1]).attrs["source"].decode())' "$OUT/merged.h5")" = \
      "$TMP/fit.txt: stratified by label 1000 of 1200 rows, seed 7" ] || fail "the merged model's source differs"
    # part I of P: the ranges of P equal parts
    local p
    for p in 0 1 2 3; do
        # shellcheck disable=SC2086
        "$KPCA" fit -q $args --partial --rows "$p/4" "$TMP/fit.txt" -o "$OUT/q$p.part"
    done
    run --separate-stderr "$KPCA" merge -q "$OUT"/q?.part -o "$OUT/quarters.h5"
    assert_status 0
    same_model "$TMP/one.h5" "$OUT/quarters.h5"
}

@test "merge refuses parts that overlap, leave rows out or were made otherwise, naming them; no model" {
    local args="--solver nystrom --landmarks 100 -k 10"
    # shellcheck disable=SC2086
    for r in 0:400 400:800 800: 300:500; do "$KPCA" fit -q $args --partial --rows "$r" "$TMP/fit.txt" -o "$TMP/${r/:/-}.part"; done
    bad() {
        run --separate-stderr "$KPCA" merge "$@" -o "$OUT/m.h5"
        assert_error_message
        assert_no_output "$OUT/m.h5"
    }
    bad "$TMP/0-400.part" "$TMP/800-.part"
    assert_status 2
    assert_stderr_contains "rows 400:800 of the 1200 fit rows are in no part (after '$TMP/0-400.part')"
    bad "$TMP/400-800.part" "$TMP/800-.part"
    assert_stderr_contains "rows 0:400 of the 1200 fit rows are in no part"
    bad "$TMP/0-400.part" "$TMP/400-800.part"
    assert_stderr_contains "rows 800:1200 of the 1200 fit rows are in no part"
    bad "$TMP/0-400.part" "$TMP/300-500.part" "$TMP/400-800.part" "$TMP/800-.part"
    assert_status 2
    assert_stderr_contains "'$TMP/0-400.part' (rows 0:400) and '$TMP/300-500.part' (rows 300:500) overlap: rows 300:400"
    # shellcheck disable=SC2086
    "$KPCA" fit -q $args --solver-seed 2 --partial --rows 400:800 "$TMP/fit.txt" -o "$TMP/seed2.part"
    bad "$TMP/0-400.part" "$TMP/seed2.part" "$TMP/800-.part"
    assert_status 3
    assert_stderr_contains "'$TMP/seed2.part' does not belong with '$TMP/0-400.part'" "landmarks of seed 2"
    # shellcheck disable=SC2086
    "$KPCA" fit -q $args -d 2 --partial --rows 400:800 "$TMP/fit.txt" -o "$TMP/d2.part"
    bad "$TMP/0-400.part" "$TMP/d2.part" "$TMP/800-.part"
    assert_stderr_contains "made with kernel (1 x.y + 0)^2, not (1 x.y + 0)^3"
    # shellcheck disable=SC2086
    "$KPCA" fit -q $args --round 1 --partial --rows 400:800 "$TMP/fit.txt" -o "$TMP/r1.part"
    bad "$TMP/0-400.part" "$TMP/r1.part" "$TMP/800-.part"
    assert_stderr_contains "round 1"
    # the same landmarks, a basis one bit away (another OpenBLAS or thread
    # count), the part resealed
    cp "$TMP/400-800.part" "$TMP/ulp.part"
    "$PY" - "$TMP/ulp.part" <<'EOF2'
import sys, zlib, h5py, numpy as np
with h5py.File(sys.argv[1], 'r+') as f:
    w = f['basis'][:]
    w[0, 0] = np.nextafter(w[0, 0], np.inf)
    f['basis'][:] = w
b = open(sys.argv[1], 'rb').read()
head = ('kpca-seal 1 length=%d crc32=%08x\n' % (len(b), zlib.crc32(b[512:]) & 0xffffffff)).encode()
open(sys.argv[1], 'wb').write(head + bytes(512 - len(head)) + b[512:])
EOF2
    bad "$TMP/0-400.part" "$TMP/ulp.part" "$TMP/800-.part"
    assert_status 3
    assert_stderr_contains "'$TMP/ulp.part' was made with another basis of the same landmarks"
    bad "$TMP/0-400.part" "$TMP/400-800.part" "$TMP/800-.part" --data "$DATA/zip.test.gz"
    assert_status 3
    assert_stderr_contains "has 2007 rows of 256 values; the parts were made from 1200 rows of 256"
    head_rows "$DATA/zip.test.gz" 1200 "$TMP/other.txt"
    bad "$TMP/0-400.part" "$TMP/400-800.part" "$TMP/800-.part" --data "$TMP/other.txt"
    assert_status 3
    assert_stderr_contains "is not the data the parts were made from"
    "$KPCA" fit -q --solver nystrom --landmarks 100 -k 10 "$TMP/fit.txt" -o "$TMP/model.h5"
    bad "$TMP/0-400.part" "$TMP/model.h5"
    assert_status 3
    assert_stderr_contains "is not a partial file of kpca fit --partial (format 'kpca-model')"
    run --separate-stderr "$KPCA" merge "$TMP/0-400.part" "$TMP/400-800.part" "$TMP/800-.part" -o "$TMP/0-400.part"
    assert_status 2
    assert_error_message
    run --separate-stderr "$KPCA" merge "$TMP/0-400.part" "$TMP/400-800.part" "$TMP/800-.part" -o "$OUT/ok.h5"
    assert_status 0
}

@test "--partial and --rows: the options they need, ranges beyond the fit rows; exit 2, no output" {
    bad() {
        run --separate-stderr "$KPCA" fit "$@" "$TMP/fit.txt" -o "$OUT/p.part"
        assert_status 2
        assert_error_message
        assert_no_output "$OUT/p.part"
    }
    bad --partial -k 5
    assert_stderr_contains "option '--partial' applies to kpca fit --solver nystrom"
    bad --solver nystrom --rows 0:10
    assert_stderr_contains "option '--rows' applies to --partial"
    bad --solver nystrom --landmarks 50 --partial --rows 0:1201
    assert_stderr_contains "rows 0:1201 are not within the 1200 fit rows"
    bad --solver nystrom --landmarks 50 --partial --rows 4/4
    assert_stderr_contains "expected A:B"
    bad --solver nystrom --landmarks 50 --partial --rows 5:x
}

@test "a ragged row at row 10^5 of a CSV: the usual error naming the line, exit 3, no model and no partial" {
    "$PY" - "$TMP/big.csv" <<'EOF'
import sys, numpy as np
rng = np.random.default_rng(1)
x = rng.normal(size=(100001, 4))
with open(sys.argv[1], 'w') as f:
    for i, r in enumerate(x):
        f.write(','.join('%.6f' % v for v in (r if i != 100000 else r[:3])) + '\n')
EOF
    run --separate-stderr "$KPCA" fit --solver nystrom --landmarks 50 "$TMP/big.csv" -o "$OUT/m.h5"
    assert_status 3
    assert_error_names "$TMP/big.csv"
    assert_stderr_contains "line 100001"
    assert_no_output "$OUT/m.h5"
    run --separate-stderr "$KPCA" fit --solver nystrom --landmarks 50 --partial --rows 0:10 "$TMP/big.csv" -o "$OUT/p.part"
    assert_status 3
    assert_stderr_contains "line 100001"
    assert_no_output "$OUT/p.part"
}

@test "a fit of 10^6 rows x 16 (float32 .npy) peaks below what its rows alone take in memory" {
    [ -x /usr/bin/time ] || skip "no /usr/bin/time"
    "$PY" -c 'import numpy as np, sys
rng = np.random.default_rng(2)
np.save(sys.argv[1], rng.normal(size=(1000000, 16)).astype(np.float32))' "$TMP/big.npy"
    "$PY" -c 'import numpy as np, sys
np.save(sys.argv[1], np.load(sys.argv[2])[:1000])' "$TMP/small.npy" "$TMP/big.npy"
    # under ASan (make asan) no quarantine: it keeps freed blocks out of reuse
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"
    # the process's own floor: the same fit of 1000 rows
    /usr/bin/time -f %M -o "$TMP/floor.kb" "$KPCA" fit -q --solver nystrom --landmarks 100 -k 10 "$TMP/small.npy" \
        -o "$OUT/small.h5"
    run --separate-stderr /usr/bin/time -f 'peak %M KB' "$KPCA" fit --solver nystrom --landmarks 100 -k 10 \
        "$TMP/big.npy" -o "$OUT/m.h5"
    assert_status 0
    local kb floor
    kb=$(sed -n 's/^peak \([0-9]*\) KB$/\1/p' <<<"$stderr")
    floor=$(cat "$TMP/floor.kb")
    [ -n "$kb" ] && [ -n "$floor" ] || { show_run; fail "no peak memory"; }
    # the rows as doubles: 128 MB; with the 10^6 x 100 kernel rows the
    # in-memory fit held, 928 MB; the landmarks, a few 100 x 100 matrices
    # and a block of rows take a few MB beside the fit of 1000 rows
    [ "$kb" -lt $((floor + 48000)) ] || fail "peak RSS $kb KB: not within 48 MB of 1000 rows' $floor KB"
    "$KPCA" info "$OUT/m.h5" | grep -qx "fit_points 1000000" || fail "not a fit of 10^6 points"
}
