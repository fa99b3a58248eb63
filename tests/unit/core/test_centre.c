/* test_centre.c - centring in feature space (centre.h): the fit matrix
 * against the explicit formula, and kernel rows of the fit and of new
 * points. */
#include "testutil.h"

/* The explicit formula K - 1K - K1 + 1K1 with (1)_ij = 1/m. */
static void center_explicit(const double *K, size_t m, double *out, double *colmean, double *grand)
{
    double g = 0.0;
    double *rowmean = calloc(m, sizeof *rowmean);
    assert_non_null(rowmean);
    for (size_t j = 0; j < m; j++) {
        double s = 0.0;
        for (size_t i = 0; i < m; i++)
            s += K[i * m + j];
        colmean[j] = s / (double)m;
    }
    for (size_t i = 0; i < m; i++) {
        double s = 0.0;
        for (size_t j = 0; j < m; j++)
            s += K[i * m + j];
        rowmean[i] = s / (double)m;
        g += s;
    }
    g /= (double)m * (double)m;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++)
            out[i * m + j] = K[i * m + j] - colmean[j] - rowmean[i] + g;
    *grand = g;
    free(rowmean);
}

static double max_abs(const double *a, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s = fmax(s, fabs(a[i]));
    return s;
}

static void test_center_fit(void **state)
{
    (void)state;
    const size_t sizes[][2] = {{50, 10}, {7, 30}, {2, 3}};
    for (size_t s = 0; s < 3; s++) {
        const size_t m = sizes[s][0], dim = sizes[s][1];
        double *x = tu_rand_doubles(m * dim, 300 + s);
        for (size_t i = 0; i < m * dim; i++)
            x[i] += 0.7; /* off-centre data, so the centring matters */
        for (int d = 1; d <= 4; d++) {
            kpca_kernel k = kpca_kernel_poly(d);
            double *K = malloc(m * m * sizeof *K), *Kc = malloc(m * m * sizeof *Kc);
            double *E = malloc(m * m * sizeof *E), *cm = malloc(m * sizeof *cm), *ecm = malloc(m * sizeof *ecm);
            assert_true(K && Kc && E && cm && ecm);
            kpca_kernel_gram(&k, x, m, dim, K);
            memcpy(Kc, K, m * m * sizeof *K);
            double grand = NAN, egrand;
            kpca_center_fit(Kc, m, cm, &grand);
            center_explicit(K, m, E, ecm, &egrand);
            const double scale = max_abs(K, m * m);
            assert_true(scale > 0.0);
            /* rows and columns of the centred K sum to zero */
            for (size_t i = 0; i < m; i++) {
                double rs = 0.0, cs = 0.0;
                for (size_t j = 0; j < m; j++) {
                    rs += Kc[i * m + j];
                    cs += Kc[j * m + i];
                }
                if (!(fabs(rs) <= 1e-12 * scale * (double)m && fabs(cs) <= 1e-12 * scale * (double)m))
                    fail_msg("m=%zu d=%d row/col %zu sums %g %g (scale %g)", m, d, i, rs, cs, scale);
            }
            /* equals the explicit formula; the statistics match too */
            for (size_t i = 0; i < m * m; i++)
                if (!(fabs(Kc[i] - E[i]) <= 1e-12 * scale))
                    fail_msg("m=%zu d=%d entry %zu: %.17g vs %.17g", m, d, i, Kc[i], E[i]);
            for (size_t j = 0; j < m; j++)
                assert_true(fabs(cm[j] - ecm[j]) <= 1e-13 * scale);
            assert_true(fabs(grand - egrand) <= 1e-13 * scale);
            /* still symmetric */
            for (size_t i = 0; i < m; i++)
                for (size_t j = 0; j < i; j++)
                    assert_true(fabs(Kc[i * m + j] - Kc[j * m + i]) <= 1e-13 * scale);

            /* kpca_center_cross on the fit points' own kernel rows gives back Kc */
            double *Kt = malloc(m * m * sizeof *Kt);
            assert_non_null(Kt);
            kpca_kernel_cross(&k, x, m, x, m, dim, Kt);
            kpca_center_cross(Kt, m, m, cm, grand);
            for (size_t i = 0; i < m * m; i++)
                if (!(fabs(Kt[i] - Kc[i]) <= 1e-12 * scale))
                    fail_msg("m=%zu d=%d cross entry %zu: %.17g vs %.17g", m, d, i, Kt[i], Kc[i]);
            free(Kt);

            /* new points: k~(x, x_i) = k(x, x_i) - colmean_i - mean_j k(x, x_j) + grand */
            const size_t n = 5;
            double *z = tu_rand_doubles(n * dim, 400 + s);
            double *Kz = malloc(n * m * sizeof *Kz);
            assert_non_null(Kz);
            kpca_kernel_cross(&k, z, n, x, m, dim, Kz);
            kpca_center_cross(Kz, n, m, cm, grand);
            for (size_t r = 0; r < n; r++) {
                double mean = 0.0;
                for (size_t i = 0; i < m; i++)
                    mean += kpca_kernel_eval(&k, z + r * dim, x + i * dim, dim);
                mean /= (double)m;
                for (size_t i = 0; i < m; i++) {
                    double want = kpca_kernel_eval(&k, z + r * dim, x + i * dim, dim) - ecm[i] - mean + egrand;
                    assert_true(fabs(Kz[r * m + i] - want) <= 1e-12 * fmax(scale, fabs(mean)));
                }
            }
            free(z);
            free(Kz);
            free(K);
            free(Kc);
            free(E);
            free(cm);
            free(ecm);
        }
        free(x);
    }
}

/* kpca_center_check: finite numbers pass; an infinite or NaN trace, grand
 * mean or entry fails with the one message, naming the kernel; entries are
 * looked at only when given. */
static void test_center_check(void **state)
{
    (void)state;
    kpca_error err;
    kpca_kernel k = kpca_kernel_poly(20);
    double K[4] = {1, 2, 3, 4};
    assert_int_equal(kpca_center_check(&k, 5.0, 2.5, K, 4, &err), KPCA_OK);
    assert_int_equal(kpca_center_check(&k, 5.0, 2.5, NULL, 0, &err), KPCA_OK);
    const double bad[] = {INFINITY, -INFINITY, NAN};
    for (size_t b = 0; b < 3; b++) {
        assert_int_equal(kpca_center_check(&k, bad[b], 2.5, K, 4, &err), KPCA_ENUMERIC);
        assert_non_null(strstr(err.msg, "kernel values too large to centre"));
        assert_non_null(strstr(err.msg, "20"));
        assert_int_equal(kpca_center_check(&k, 5.0, bad[b], NULL, 0, &err), KPCA_ENUMERIC);
        for (size_t i = 0; i < 4; i++) {
            double Kb[4] = {1, 2, 3, 4};
            Kb[i] = bad[b];
            assert_int_equal(kpca_center_check(&k, 5.0, 2.5, Kb, 4, &err), KPCA_ENUMERIC);
            assert_int_equal(kpca_center_check(&k, 5.0, 2.5, NULL, 0, &err), KPCA_OK);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_center_fit),
        cmocka_unit_test(test_center_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
