#!/usr/bin/env bats
# precomputed.bats - fit --kernel precomputed: a kernel matrix computed
# outside kpca (numpy, through Debian's /usr/bin/python3) gives the model,
# features and error table of the kernel itself; scikit-learn's
# KernelPCA(kernel='precomputed') agrees on a kernel kpca does not have; and
# every refusal leaves no output.

load ../helper

setup_file() {
    local d
    d="$(file_tmp)"
    head_rows "$DATA/zip.train.gz" 300 "$d/train.txt"
    head_rows "$DATA/zip.test.gz" 200 "$d/test.txt"
    $PY - "$d" <<'PYEOF'
import sys
import numpy as np
from sklearn.datasets import load_digits
d = sys.argv[1]
def esl(path):
    a = np.loadtxt(path)
    return a[:, 1:], a[:, 0].astype(int)
X, y = esl(d + '/train.txt')
T, yt = esl(d + '/test.txt')
# the paper's kernel (x.y)^3, computed by numpy
np.save(d + '/gram.npy', (X @ X.T) ** 3)
np.save(d + '/cross.npy', (T @ X.T) ** 3)
np.save(d + '/y.npy', y)
np.save(d + '/yt.npy', yt)
# the same GRAM as CSV with a header and the labels in a column
with open(d + '/gram.csv', 'w') as f:
    f.write('label,' + ','.join('k%d' % i for i in range(len(X))) + '\n')
    for row, lab in zip((X @ X.T) ** 3, y):
        f.write('%d,' % lab + ','.join(repr(v) for v in row) + '\n')
# histogram intersection of 8 x 8 digit images: sum_i min(x_i, y_i), no
# kernel of kpca's
D, dy = load_digits(return_X_y=True)
F, N = D[:300], D[300:400]
hi = lambda A, B: np.minimum(A[:, None, :], B[None, :, :]).sum(axis=2)
np.save(d + '/hi_gram.npy', hi(F, F))
np.save(d + '/hi_cross.npy', hi(N, F))
# sigmoid's matrix: indefinite; and the most negative eigenvalue of its centred form
S = np.tanh(0.02 * (X[:120] @ X[:120].T) - 0.5)
np.save(d + '/sig.npy', S)
H = np.eye(120) - 1.0 / 120
open(d + '/sig_lowest.txt', 'w').write('%.6g\n' % np.linalg.eigvalsh(H @ S @ H)[0])
PYEOF
}

setup() {
    common_setup
    have_sklearn || skip "$PY cannot import sklearn, h5py and numpy"
    D="$(file_tmp)"
    [ -s "$D/gram.npy" ] || fail "setup_file could not write the kernel matrices"
}

# ok ARGS...: kpca ARGS succeeds
ok() {
    run --separate-stderr "$KPCA" "$@"
    assert_status 0
}

# close A.h5 B.h5 DATASET...: each dataset of the two HDF5 files agrees within
# 1e-10 of its largest |value| (models: also grandmean and trace)
close() {
    local a=$1 b=$2
    shift 2
    run "$PY" - "$a" "$b" "$@" <<'PYEOF'
import sys, h5py, numpy as np
fa, fb = h5py.File(sys.argv[1], 'r'), h5py.File(sys.argv[2], 'r')
bad = 0
for name in sys.argv[3:]:
    if name in ('grandmean', 'trace'):
        x, z = np.float64(fa.attrs[name]), np.float64(fb.attrs[name])
    else:
        x, z = fa[name][...], fb[name][...]
    if x.shape != z.shape:
        print('%s: shapes %s and %s' % (name, x.shape, z.shape)); bad = 1; continue
    dev = np.abs(x - z).max() / np.abs(x).max()
    print('%s: %.3g' % (name, dev))
    bad |= not dev <= 1e-10
sys.exit(bad)
PYEOF
    printf '%s\n' "$output" >&2
    [ "$status" -eq 0 ] || fail "$a and $b differ beyond 1e-10: $output"
}

@test "precomputed: numpy's (x.y)^3 of 300 digits gives the model, features and error table of --kernel poly -d 3" {
    ok fit -q -d 3 -k 40 "$D/train.txt" -o "$TMP/poly.h5"
    ok fit -q --kernel precomputed -k 40 --labels "$D/y.npy" "$D/gram.npy" -o "$TMP/pre.h5"
    close "$TMP/poly.h5" "$TMP/pre.h5" eigenvalues alpha colmean grandmean trace
    ok transform -q "$TMP/poly.h5" "$D/train.txt" -o "$TMP/a_train.h5"
    ok transform -q "$TMP/poly.h5" "$D/test.txt" -o "$TMP/a_test.h5"
    ok transform -q --labels "$D/y.npy" "$TMP/pre.h5" "$D/gram.npy" -o "$TMP/b_train.h5"
    ok transform -q --labels "$D/yt.npy" "$TMP/pre.h5" "$D/cross.npy" -o "$TMP/b_test.h5"
    close "$TMP/a_train.h5" "$TMP/b_train.h5" data
    close "$TMP/a_test.h5" "$TMP/b_test.h5" data
    ok eval -q -k 5,10,20,40 --csv "$TMP/a.csv" "$TMP/a_train.h5" "$TMP/a_test.h5"
    ok eval -q -k 5,10,20,40 --csv "$TMP/b.csv" "$TMP/b_train.h5" "$TMP/b_test.h5"
    # components, error_pct, errors, total: the same table
    [ "$(cut -d, -f1-4 "$TMP/a.csv")" = "$(cut -d, -f1-4 "$TMP/b.csv")" ] ||
        fail "the error tables differ: $(paste -d'|' "$TMP/a.csv" "$TMP/b.csv")"
    [ "$(wc -l <"$TMP/a.csv")" -eq 5 ] || fail "a table of 4 rows expected"
    # GRAM as CSV with a label column: the same model
    ok fit -q --kernel precomputed -k 40 "$D/gram.csv" -o "$TMP/csv.h5"
    close "$TMP/pre.h5" "$TMP/csv.h5" eigenvalues alpha colmean
    run --separate-stderr "$KPCA" info "$TMP/pre.h5"
    assert_stdout_contains $'kernel precomputed\n' $'dim 300\n' $'model_points 300\n' $'components 40\n'
    [[ "$output" != *gamma* && "$output" != *degree* ]] || fail "a precomputed kernel has no parameters: $output"
}

@test "precomputed: --subset, the randomized and the Nystrom solvers give the kernel's models; CROSS stays n x M" {
    local opts
    for opts in "-m 120 -s 7 -k 12" "--solver randomized -k 8" "--solver nystrom --landmarks 150 -k 10" \
        "-m 200 -s 3 --solver nystrom --landmarks 90 -k 10"; do
        # shellcheck disable=SC2086
        ok fit -q -d 3 $opts "$D/train.txt" -o "$TMP/poly.h5"
        # shellcheck disable=SC2086
        ok fit -q --kernel precomputed $opts --labels "$D/y.npy" "$D/gram.npy" -o "$TMP/pre.h5"
        ok transform -q "$TMP/poly.h5" "$D/test.txt" -o "$TMP/a.h5"
        ok transform -q --labels "$D/yt.npy" "$TMP/pre.h5" "$D/cross.npy" -o "$TMP/b.h5"
        close "$TMP/a.h5" "$TMP/b.h5" data
        close "$TMP/poly.h5" "$TMP/pre.h5" eigenvalues colmean
    done
    run --separate-stderr "$KPCA" info "$TMP/pre.h5"
    assert_stdout_contains $'model_points 90\n' $'fit_points 200\n' $'dim 300\n' "solver nystrom uniform l=90"
}

@test "precomputed: scikit-learn's KernelPCA(kernel='precomputed') agrees within 1e-10 on a histogram-intersection kernel" {
    ok fit -q --kernel precomputed -k 10 "$D/hi_gram.npy" -o "$TMP/hi.h5"
    ok transform -q -f npy "$TMP/hi.h5" "$D/hi_gram.npy" -o "$TMP/fit.npy"
    ok transform -q -f npy "$TMP/hi.h5" "$D/hi_cross.npy" -o "$TMP/new.npy"
    # compare GRAM Z_FIT Z_NEW: kpca's features against sklearn's, each
    # component up to sign within 1e-10 of its largest |value|
    compare() {
        run "$PY" - "$D/hi_gram.npy" "$D/hi_cross.npy" "$1" "$2" <<'PYEOF'
import sys, numpy as np
from sklearn.decomposition import KernelPCA
G, C = np.load(sys.argv[1]), np.load(sys.argv[2])
kp = KernelPCA(n_components=10, kernel='precomputed', eigen_solver='dense').fit(G)
ref = np.vstack([kp.transform(G), kp.transform(C)])
got = np.vstack([np.load(sys.argv[3]), np.load(sys.argv[4])])
worst = 0.0
for c in range(10):
    s = 1.0 if ref[:, c] @ got[:, c] >= 0 else -1.0
    worst = max(worst, np.abs(s * got[:, c] - ref[:, c]).max() / np.abs(ref[:, c]).max())
print('worst relative difference %.3g' % worst)
sys.exit(0 if worst <= 1e-10 else 1)
PYEOF
    }
    compare "$TMP/fit.npy" "$TMP/new.npy"
    printf '%s\n' "$output" >&2
    assert_status 0
    # the check can fail: the features of another kernel (the matrix squared elementwise)
    "$PY" -c "import numpy as np, sys; np.save(sys.argv[2], np.load(sys.argv[1]) ** 2)" "$D/hi_gram.npy" "$TMP/sq.npy"
    ok fit -q --kernel precomputed -k 10 "$TMP/sq.npy" -o "$TMP/sq.h5"
    ok transform -q -f npy "$TMP/sq.h5" "$TMP/sq.npy" -o "$TMP/fit2.npy"
    compare "$TMP/fit2.npy" "$TMP/new.npy"
    assert_status 1
}

@test "precomputed: an indefinite matrix is fitted on its positive part, with a warning naming its most negative eigenvalue" {
    run --separate-stderr "$KPCA" fit --kernel precomputed -k 5 "$D/sig.npy" -o "$TMP/sig.h5"
    assert_status 0
    assert_stderr_contains "warning: '$D/sig.npy' is not positive semi-definite" \
        "the most negative eigenvalue of the fit points' centred kernel matrix is $(cat "$D/sig_lowest.txt");" \
        "the negative part is dropped"
    run --separate-stderr "$KPCA" info -e "$TMP/sig.h5"
    assert_stdout_contains $'components 5\n'
    # a positive semi-definite one: no warning
    run --separate-stderr "$KPCA" fit --kernel precomputed -k 5 "$D/gram.npy" -o "$TMP/ok.h5"
    assert_status 0
    [[ "$stderr" != *warning* ]] || fail "a warning for a positive semi-definite matrix: $stderr"
}

# refused FILE CODE ARGS...: kpca ARGS exits CODE, names the problem in an
# error line and writes nothing (FILE: the output that must not exist)
refused() {
    local out=$1 code=$2
    shift 2
    run --separate-stderr "$KPCA" "$@"
    assert_status "$code"
    assert_error_message
    assert_no_output "$out"
}

@test "precomputed: not square, asymmetric, non-finite and wrong-width matrices are refused, nothing written" {
    "$PY" - "$D" "$TMP" <<'PYEOF'
import sys, numpy as np
d, t = sys.argv[1], sys.argv[2]
G = np.load(d + '/gram.npy')[:6, :6].copy()
np.save(t + '/wide.npy', np.load(d + '/gram.npy')[:6, :7])
A = G.copy(); A[2, 4] += 0.5 * abs(G).max(); A[1, 3] += 0.25 * abs(G).max()
np.save(t + '/asym.npy', A)
N = G.copy(); N[3, 1] = np.inf
np.save(t + '/inf.npy', N)
np.savetxt(t + '/plain.txt', np.load(d + '/hi_gram.npy')[:6, :6], fmt='%d')  # integer kernel values
np.save(t + '/narrow.npy', np.load(d + '/cross.npy')[:, :299])
PYEOF
    refused "$TMP/m.h5" 3 fit --kernel precomputed "$TMP/wide.npy" -o "$TMP/m.h5"
    assert_stderr_contains "error: '$TMP/wide.npy': a precomputed kernel matrix is square (M x M): this one is 6 x 7"
    refused "$TMP/m.h5" 3 fit --kernel precomputed "$TMP/asym.npy" -o "$TMP/m.h5"
    assert_stderr_contains "'$TMP/asym.npy': not symmetric within 1e-06: row 3, column 5 is" "but row 5, column 3 is" \
        "symmetrize it"
    refused "$TMP/m.h5" 3 fit --kernel precomputed "$TMP/inf.npy" -o "$TMP/m.h5"
    assert_stderr_contains "'$TMP/inf.npy': row 4, column 2 is not a finite number"
    # whitespace text of integers: no column set apart, so no labels (docs/own-data.md): 6 x 6
    ok fit -q --kernel precomputed "$TMP/plain.txt" -o "$TMP/m.h5"
    ok fit -q --kernel precomputed --label none "$TMP/plain.txt" -o "$TMP/m.h5"
    # CROSS must hold a point's values with every point of GRAM: both numbers
    ok fit -q --kernel precomputed -m 50 -k 5 "$D/gram.npy" -o "$TMP/pre.h5"
    refused "$TMP/z.h5" 3 transform "$TMP/pre.h5" "$TMP/narrow.npy" -o "$TMP/z.h5"
    assert_stderr_contains "'$TMP/narrow.npy' has 299 values per point but the model '$TMP/pre.h5' of a precomputed kernel needs 300"
}

@test "precomputed: denoise, reduce, k-means landmarks and options for points refuse it, with the reason" {
    ok fit -q --kernel precomputed -k 5 "$D/gram.npy" -o "$TMP/pre.h5"
    refused "$TMP/d.h5" 2 denoise -k 2 "$TMP/pre.h5" "$D/cross.npy" -o "$TMP/d.h5"
    assert_stderr_contains "pre-images are points of an input space, and a precomputed kernel has none"
    refused "$TMP/r.h5" 2 reduce -m 10 "$TMP/pre.h5" -o "$TMP/r.h5"
    assert_stderr_contains "a reduced set is made of points of an input space, and a precomputed kernel has none"
    refused "$TMP/n.h5" 2 fit --kernel precomputed --solver nystrom --landmark-method kmeans "$D/gram.npy" -o "$TMP/n.h5"
    assert_stderr_contains "k-means landmarks are points of an input space"
    local opt
    for opt in "--smooth 1" "--input-range 0,1" "--round 3"; do
        # shellcheck disable=SC2086
        refused "$TMP/n.h5" 2 fit --kernel precomputed $opt "$D/gram.npy" -o "$TMP/n.h5"
        assert_stderr_contains "option '${opt%% *}' does not apply to --kernel precomputed"
    done
    refused "$TMP/z.h5" 2 transform --input-range 0,1 "$TMP/pre.h5" "$D/cross.npy" -o "$TMP/z.h5"
    assert_stderr_contains "option '--input-range' does not apply to the model '$TMP/pre.h5' of a precomputed kernel"
}

@test "precomputed: a LIBSVM GRAM has its omitted zeros restored (M x M), and CROSS too" {
    # 2 on the diagonal, 1 beside it: row 1 omits columns 3 and 4
    printf '0 1:2 2:1\n1 1:1 2:2 3:1\n0 2:1 3:2 4:1\n1 3:1 4:2\n' >"$TMP/g.svm"
    printf '0 1:1 2:1\n' >"$TMP/c.svm"
    ok fit -q --kernel precomputed -k 2 "$TMP/g.svm" -o "$TMP/g.h5"
    run --separate-stderr "$KPCA" info "$TMP/g.h5"
    assert_stdout_contains $'dim 4\n' $'model_points 4\n'
    ok transform -q -f csv "$TMP/g.h5" "$TMP/c.svm" -o "$TMP/z.csv"
    [ "$(wc -l <"$TMP/z.csv")" -eq 2 ] || fail "one point's features expected: $(cat "$TMP/z.csv")"
}
