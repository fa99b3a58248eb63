#!/usr/bin/env bats
# kernels.bats - the kernels laplacian, cosine and chi2 from the command
# line: their features agree with scikit-learn's KernelPCA on its pairwise
# kernels (Debian's /usr/bin/python3), their defaults are scikit-learn's,
# their options are their own, and chi2 refuses negative data.

load ../helper

setup_file() {
    local d
    d="$(file_tmp)"
    $PY - "$d" <<'PYEOF'
import sys
import numpy as np
from sklearn.datasets import load_digits
d = sys.argv[1]
X, y = load_digits(return_X_y=True)  # 8 x 8 images, counts 0..16: non-negative
np.save(d + '/fit.npy', X[:300])
np.save(d + '/new.npy', X[300:400])
np.save(d + '/fit01.npy', X[:300] / 16)  # values in [0, 1], for chi2's default gamma 1
np.save(d + '/new01.npy', X[300:400] / 16)
N = X[300:310].copy()
N[3, 6] = -0.5
np.save(d + '/neg.npy', N)
with open(d + '/neg.csv', 'w') as f:  # the labels first
    for a, b in zip(N, y[300:310]):
        f.write('%d,' % b + ','.join('%g' % v for v in a) + '\n')
PYEOF
}

setup() {
    common_setup
    have_sklearn || skip "$PY cannot import sklearn, h5py and numpy"
    D="$(file_tmp)"
    [ -s "$D/fit.npy" ] || fail "setup_file could not write the digits"
}

ok() {
    run --separate-stderr "$KPCA" "$@"
    assert_status 0
}

# features K FIT-OPTIONS...: a model of K components of $D/fit$S.npy, the
# features of it and of $D/new$S.npy in $TMP/zfit.npy and $TMP/znew.npy
# (S: "" the digits' counts, "01" the digits / 16)
S=
features() {
    local k=$1
    shift
    ok fit -q -k "$k" "$@" "$D/fit$S.npy" -o "$TMP/m.h5"
    ok transform -q -f npy "$TMP/m.h5" "$D/fit$S.npy" -o "$TMP/zfit.npy"
    ok transform -q -f npy "$TMP/m.h5" "$D/new$S.npy" -o "$TMP/znew.npy"
}

# compare K KERNEL-EXPRESSION: scikit-learn's KernelPCA of K components on
# the kernel P.KERNEL-EXPRESSION (sklearn.metrics.pairwise as P, X and Y the
# rows) as a precomputed matrix, or with kernel='cosine' for "cosine";
# every component agrees up to sign within 1e-10 of its largest |value|
compare() {
    run "$PY" - "$D" "$TMP" "$1" "$2" "$S" <<'PYEOF'
import sys
import numpy as np
import sklearn.metrics.pairwise as P
from sklearn.decomposition import KernelPCA
d, t, k, expr, s = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
F, N = np.load(d + '/fit%s.npy' % s), np.load(d + '/new%s.npy' % s)
if expr == 'cosine':
    kp = KernelPCA(n_components=k, kernel='cosine', eigen_solver='dense').fit(F)
    ref = np.vstack([kp.transform(F), kp.transform(N)])
else:
    kern = lambda X, Y: eval('P.' + expr)
    kp = KernelPCA(n_components=k, kernel='precomputed', eigen_solver='dense').fit(kern(F, F))
    ref = np.vstack([kp.transform(kern(F, F)), kp.transform(kern(N, F))])
got = np.vstack([np.load(t + '/zfit.npy'), np.load(t + '/znew.npy')])
worst = 0.0
for c in range(k):
    s = 1.0 if ref[:, c] @ got[:, c] >= 0 else -1.0
    worst = max(worst, np.abs(s * got[:, c] - ref[:, c]).max() / np.abs(ref[:, c]).max())
print('worst relative difference %.3g' % worst)
sys.exit(0 if worst <= 1e-10 else 1)
PYEOF
    printf '%s\n' "$output" >&2
}

@test "laplacian: the features of scikit-learn's laplacian_kernel, with its default gamma 1/dim and with --gamma" {
    features 8 --kernel laplacian
    run --separate-stderr "$KPCA" info "$TMP/m.h5"
    assert_stdout_contains $'kernel laplacian\ngamma 0.015625\n'
    compare 8 "laplacian_kernel(X, Y)"
    assert_status 0
    features 8 --kernel laplacian --gamma 0.004
    compare 8 "laplacian_kernel(X, Y, gamma=0.004)"
    assert_status 0
    # the check can fail: another gamma
    compare 8 "laplacian_kernel(X, Y, gamma=0.005)"
    assert_status 1
}

@test "chi2: the features of scikit-learn's chi2_kernel, with its default gamma 1 and with --gamma" {
    features 8 --kernel chi2 --gamma 0.05
    run --separate-stderr "$KPCA" info "$TMP/m.h5"
    assert_stdout_contains $'kernel chi2\ngamma 0.050000000000000003\n'
    compare 8 "chi2_kernel(X, Y, gamma=0.05)"
    assert_status 0
    S=01 # gamma 1 suits values in [0, 1]
    features 8 --kernel chi2
    run --separate-stderr "$KPCA" info "$TMP/m.h5"
    assert_stdout_contains $'gamma 1\n'
    compare 8 "chi2_kernel(X, Y)"
    assert_status 0
    compare 8 "chi2_kernel(X, Y, gamma=1.1)"
    assert_status 1
}

@test "cosine: the features of scikit-learn's KernelPCA(kernel='cosine')" {
    features 10 --kernel cosine
    run --separate-stderr "$KPCA" info "$TMP/m.h5"
    assert_stdout_contains $'kernel cosine\nsolver'
    compare 10 cosine
    assert_status 0
    compare 10 "linear_kernel(X, Y)"
    assert_status 1
}

@test "the new kernels: options of another kernel refused; help and man page list them" {
    local args
    for args in "--kernel laplacian --coef0 1:--coef0:laplacian" "--kernel cosine --gamma 2:--gamma:cosine" \
        "--kernel chi2 --sigma 1:--sigma:chi2" "--kernel laplacian -d 2:--degree:laplacian"; do
        # shellcheck disable=SC2086
        run --separate-stderr "$KPCA" fit ${args%%:*} "$D/fit.npy" -o "$TMP/m.h5"
        assert_status 2
        assert_stderr_contains "option '$(echo "$args" | cut -d: -f2)' does not apply to --kernel ${args##*:}"
        assert_no_output "$TMP/m.h5"
    done
    run --separate-stderr "$KPCA" fit --kernel chi2 --gamma 0 "$D/fit.npy" -o "$TMP/m.h5"
    assert_status 2
    run --separate-stderr "$KPCA" fit --help
    assert_stdout_contains "laplacian exp(-gamma |x-y|_1)" "cosine x.y/(|x| |y|)" "chi2 exp(-gamma sum (x-y)^2/(x+y))" \
        "precomputed" "1/dim for sigmoid and laplacian"
    run --separate-stderr "$KPCA" help --man
    assert_status 0
    assert_stdout_contains "laplacian" "chi2" "precomputed"
}

@test "chi2 refuses negative values, naming the file, row and column, in fit and transform; nothing written" {
    run --separate-stderr "$KPCA" fit --kernel chi2 "$D/neg.npy" -o "$TMP/m.h5"
    assert_status 3
    assert_error_names "$D/neg.npy"
    assert_stderr_contains "the chi2 kernel needs non-negative values: row 4, column 7 of the values is -0.5"
    assert_no_output "$TMP/m.h5"
    ok fit -q --kernel chi2 -k 3 "$D/fit.npy" -o "$TMP/m.h5"
    run --separate-stderr "$KPCA" transform "$TMP/m.h5" "$D/neg.npy" -o "$TMP/z.h5"
    assert_status 3
    assert_stderr_contains "'$D/neg.npy': the chi2 kernel needs non-negative values: row 4, column 7 of the values is -0.5"
    assert_no_output "$TMP/z.h5"
    # a text file's label column is not counted: column 7 of the values is the file's column 8
    run --separate-stderr "$KPCA" fit --kernel chi2 --label first "$D/neg.csv" -o "$TMP/m2.h5"
    assert_status 3
    assert_stderr_contains "'$D/neg.csv': the chi2 kernel needs non-negative values: row 4, column 7 of the values is -0.5"
    assert_no_output "$TMP/m2.h5"
}

@test "denoise and reduce refuse the laplacian, cosine and chi2 kernels, with the reason; nothing written" {
    local k
    for k in laplacian cosine chi2; do
        ok fit -q --kernel "$k" -k 4 "$D/fit.npy" -o "$TMP/$k.h5"
        run --separate-stderr "$KPCA" denoise -k 2 "$TMP/$k.h5" "$D/new.npy" -o "$TMP/d.npy"
        assert_status 2
        assert_stderr_contains "pre-images need a kernel of x.y or of |x - y|^2" "not the $k kernel"
        assert_no_output "$TMP/d.npy"
        run --separate-stderr "$KPCA" reduce -m 5 "$TMP/$k.h5" -o "$TMP/r.h5"
        assert_status 2
        assert_stderr_contains "a reduced set needs the gradient of a kernel of x.y or of |x - y|^2" "not of the $k kernel"
        assert_no_output "$TMP/r.h5"
    done
}
