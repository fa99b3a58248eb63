/* test_standardize.c - core/standardize.h: column statistics against their
 * definitions, also for a column whose squares overflow (its true spread,
 * computed scaled), the standardisation (constant columns: scale 1, mapped
 * to 0) and its inverse. */
#include "testutil.h"

#include "lib/core/standardize.h"

enum { N = 37, D = 5 };

static void fill(double *x)
{
    uint64_t s = 11;
    for (size_t i = 0; i < N; i++) {
        x[i * D + 0] = 1000.0 + 300.0 * tu_rand(&s); /* wide */
        x[i * D + 1] = 0.001 * tu_rand(&s);          /* narrow */
        x[i * D + 2] = 0.1;                          /* constant; 0.1 * 37 / 37 != 0.1 in binary */
        x[i * D + 3] = (double)(i % 4);
        x[i * D + 4] = (i % 2 ? 1e200 : -1e200); /* its deviation overflows a double */
    }
}

static void test_column_stats(void **state)
{
    (void)state;
    double x[N * D], mean[D], sd[D], lo[D], hi[D];
    fill(x);
    kpca_column_stats(x, N, D, mean, sd, lo, hi);
    for (size_t j = 0; j < 4; j++) {
        double m = 0.0, v = 0.0, a = INFINITY, b = -INFINITY;
        for (size_t i = 0; i < N; i++) {
            m += x[i * D + j];
            a = fmin(a, x[i * D + j]);
            b = fmax(b, x[i * D + j]);
        }
        m /= N;
        for (size_t i = 0; i < N; i++)
            v += (x[i * D + j] - m) * (x[i * D + j] - m);
        assert_true(fabs(mean[j] - m) <= 1e-15 * fmax(1.0, fabs(m)));
        assert_true(fabs(sd[j] - sqrt(v / N)) <= 1e-13 * sqrt(v / N) || (j == 2 && sd[j] == 0.0));
        assert_true(lo[j] == a && hi[j] == b);
    }
    assert_true(sd[2] == 0.0); /* exactly, though the mean is off by rounding */
    /* +-1e200, 18 of them +: mean -1e200/37, sd 1e200 sqrt(1 - 1/37^2) (it
     * was infinite, and the column then called constant) */
    const double m4 = -1e200 / N, s4 = 1e200 * sqrt(1.0 - 1.0 / ((double)N * N));
    assert_true(fabs(mean[4] - m4) <= 1e-14 * fabs(m4));
    assert_true(isfinite(sd[4]) && fabs(sd[4] - s4) <= 1e-14 * s4);
    /* the norm of spreads, scaled: finite where the sum of squares is not */
    const double v[3] = {3e200, 4e200, 0.0};
    assert_true(fabs(kpca_spread_norm(v, 3) - 5e200) <= 1e-15 * 5e200);
    const double w[2] = {3.0, 4.0};
    assert_true(kpca_spread_norm(w, 2) == 5.0);
}

static void test_standardize_and_back(void **state)
{
    (void)state;
    double x[N * D], y[N * D], mean[D], scale[D], lo[D], hi[D], sd[D], m2[D];
    unsigned char cc[D];
    fill(x);
    memcpy(y, x, sizeof x);
    size_t nconst = kpca_standardize_fit(x, N, D, mean, scale, lo, hi, cc);
    assert_int_equal(nconst, 1);
    assert_true(cc[2] && !cc[4] && !cc[0] && !cc[1] && !cc[3]);
    assert_true(mean[2] == 0.1 && scale[2] == 1.0);
    assert_true(scale[4] > 9.9e199 && scale[4] < 1e200); /* its true spread, not 1 */
    kpca_standardize(y, N, D, mean, scale);
    /* every varying column: mean 0, population sd 1; the constant one: 0 */
    kpca_column_stats(y, N, D, m2, sd, lo, hi);
    for (size_t j = 0; j < D; j++) {
        if (j == 2) {
            assert_true(lo[j] == 0.0 && hi[j] == 0.0);
            continue;
        }
        assert_true(fabs(m2[j]) < 1e-14);
        assert_true(fabs(sd[j] - 1.0) < 1e-14);
    }
    kpca_unstandardize(y, N, D, mean, scale);
    for (size_t i = 0; i < N * D; i++)
        assert_true(fabs(y[i] - x[i]) <= 1e-14 * fmax(1.0, fabs(x[i])));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_column_stats),
        cmocka_unit_test(test_standardize_and_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
