/* test_model_approx.c - the randomized and Nystrom solvers through
 * kpca_model_fit: their exact limits and their accuracy against the exact
 * model. */
#include "testutil.h"

#include "lib/file/h5util.h"

#include <dirent.h>
#include <hdf5.h>
#include <lapacke.h>
#include <sys/stat.h>

#include "model_fixture.h"

/* ---- approximate solvers -------------------------------------------------------- */

/* max over the first k components of |a - b| / max |b| (b the exact one),
 * after aligning each component's sign; projections of n points */
static double proj_diff(const double *a, const double *b, size_t n, size_t k)
{
    double worst = 0.0;
    for (size_t c = 0; c < k; c++) {
        double dot = 0.0, bmax = 0.0, d = 0.0;
        for (size_t i = 0; i < n; i++) {
            dot += a[i * k + c] * b[i * k + c];
            bmax = fmax(bmax, fabs(b[i * k + c]));
        }
        double sg = dot < 0.0 ? -1.0 : 1.0;
        for (size_t i = 0; i < n; i++)
            d = fmax(d, fabs(sg * a[i * k + c] - b[i * k + c]));
        worst = fmax(worst, d / bmax);
    }
    return worst;
}

static void fit_with(const kpca_fit_params *p, kpca_model *md)
{
    kpca_error err;
    if (kpca_model_fit(&g_fit, p, md, NULL, &err) != KPCA_OK)
        fail_msg("fit with solver %s: %s", kpca_solver_name(p->solver), err.msg);
}

/* Nystrom with every fit point a landmark is exact kernel PCA; the
 * randomized solver with a full sketch is too; both survive the file */
static void test_approximate_solvers_exact_limits(void **state)
{
    (void)state;
    data();
    const size_t k = 20, n = 200;
    kpca_fit_params p = kpca_fit_defaults(2);
    p.components = k;
    kpca_model ex, ny, rz, back;
    fit_with(&p, &ex);
    p.solver = KPCA_SOLVER_NYSTROM;
    p.landmarks = MFIT;
    fit_with(&p, &ny);
    assert_int_equal(ny.centring, KPCA_CENTRE_NYSTROM);
    assert_int_equal(ny.m, MFIT);
    p.solver = KPCA_SOLVER_RANDOMIZED;
    p.oversample = MFIT - k; /* the sketch spans everything */
    fit_with(&p, &rz);
    assert_int_equal(rz.centring, KPCA_CENTRE_KERNEL);
    assert_non_null(strstr(rz.solver, "randomized"));
    assert_non_null(strstr(ny.solver, "nystrom uniform l=300"));
    assert_true(ny.k == k && rz.k == k);
    for (size_t c = 0; c < k; c++) {
        if (!(fabs(ny.eigval[c] - ex.eigval[c]) <= 1e-9 * ex.eigval[0]))
            fail_msg("nystrom l = M: eigenvalue %zu %.17g vs exact %.17g", c, ny.eigval[c], ex.eigval[c]);
        assert_true(fabs(rz.eigval[c] - ex.eigval[c]) <= 1e-9 * ex.eigval[0]);
    }
    assert_true(fabs(ny.trace - ex.trace) <= 1e-9 * ex.trace);
    double *ze = malloc(n * k * sizeof *ze), *za = malloc(n * k * sizeof *za);
    assert_true(ze && za);
    kpca_error err;
    assert_int_equal(kpca_model_transform(&ex, g_new.x, n, 256, k, ze, &err), KPCA_OK);
    assert_int_equal(kpca_model_transform(&ny, g_new.x, n, 256, k, za, &err), KPCA_OK);
    double d = proj_diff(za, ze, n, k);
    if (!(d <= 1e-7))
        fail_msg("nystrom l = M: projections of new points differ by %g", d);
    assert_int_equal(kpca_model_transform(&rz, g_new.x, n, 256, k, za, &err), KPCA_OK);
    d = proj_diff(za, ze, n, k);
    if (!(d <= 1e-7))
        fail_msg("randomized, full sketch: projections differ by %g", d);
    /* the Nystrom model (landmarks, centring) through the file */
    save_model(&ny);
    assert_int_equal(kpca_model_load(model_path, &back, &err), KPCA_OK);
    assert_int_equal(back.centring, KPCA_CENTRE_NYSTROM);
    assert_string_equal(back.solver, ny.solver);
    assert_models_identical(&ny, &back);
    assert_int_equal(ex.fit_n, MFIT);
    assert_int_equal(ny.fit_n, MFIT);
    assert_int_equal(back.fit_n, ny.fit_n);
    /* a Nystrom model: fit points >= landmarks (0 = unknown), grand mean 0 */
    back.fit_n = back.m - 1;
    assert_int_equal(kpca_model_validate(&back, "m", &err), KPCA_EFORMAT);
    back.fit_n = 0;
    assert_int_equal(kpca_model_validate(&back, "m", &err), KPCA_OK);
    back.grandmean = 0.5;
    assert_int_equal(kpca_model_validate(&back, "m", &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "grand mean"));
    back.grandmean = 0.0;
    back.fit_n = ny.fit_n;
    double *zb = malloc(n * k * sizeof *zb);
    assert_non_null(zb);
    assert_int_equal(kpca_model_transform(&ny, g_new.x, n, 256, k, za, &err), KPCA_OK);
    assert_int_equal(kpca_model_transform(&back, g_new.x, n, 256, k, zb, &err), KPCA_OK);
    assert_memory_equal(za, zb, n * k * sizeof *za);
    free(zb);
    free(ze);
    free(za);
    kpca_model_free(&back);
    kpca_model_free(&ex);
    kpca_model_free(&ny);
    kpca_model_free(&rz);
}

/* fewer landmarks, a small sketch: eigenvalues never above the exact ones,
 * close for the leading components, errors shrink with more landmarks;
 * k-means landmarks; the same seed gives the same model */
static void test_approximate_solvers_accuracy(void **state)
{
    (void)state;
    data();
    const size_t k = 10;
    kpca_fit_params p = kpca_fit_defaults(3);
    p.components = k;
    kpca_model ex, a, b;
    fit_with(&p, &ex);
    double prev = INFINITY;
    const size_t ls[] = {50, 150, 250};
    for (size_t t = 0; t < 3; t++) {
        p.solver = KPCA_SOLVER_NYSTROM;
        p.landmarks = ls[t];
        fit_with(&p, &a);
        assert_int_equal(a.m, ls[t]);
        assert_int_equal(a.fit_n, ex.m); /* the covariance is over the fit points */
        double err1 = 0.0;
        for (size_t c = 0; c < a.k; c++) {
            if (!(a.eigval[c] <= ex.eigval[c] * (1.0 + 1e-12)))
                fail_msg("nystrom l=%zu: eigenvalue %zu above the exact one", ls[t], c);
            err1 += (ex.eigval[c] - a.eigval[c]) / ex.eigval[c];
        }
        assert_true(err1 < prev);
        prev = err1;
        kpca_model_free(&a);
    }
    p.landmark_method = KPCA_LANDMARKS_KMEANS;
    p.landmarks = 100;
    fit_with(&p, &a);
    fit_with(&p, &b);
    assert_models_identical(&a, &b); /* deterministic */
    assert_int_equal(a.fity[0], -1); /* centres carry no label */
    assert_true(fabs(a.eigval[0] - ex.eigval[0]) <= 0.05 * ex.eigval[0]);
    kpca_model_free(&a);
    kpca_model_free(&b);
    p.solver = KPCA_SOLVER_RANDOMIZED;
    p.oversample = 0; /* default: as many as k, at least 10 */
    p.power_iters = 4;
    fit_with(&p, &a);
    p.seed = 2;
    fit_with(&p, &b);
    assert_true(memcmp(a.alpha, b.alpha, a.k * a.m * sizeof(double)) != 0); /* the seed matters */
    for (size_t c = 0; c < k; c++) {
        assert_true(a.eigval[c] <= ex.eigval[c] * (1.0 + 1e-12));
        /* the sketch resolves the leading half best (the spectrum is flat) */
        if (!(a.eigval[c] >= ex.eigval[c] * (1.0 - (c < k / 2 ? 1e-4 : 1e-2))))
            fail_msg("randomized: eigenvalue %zu %.17g vs exact %.17g", c, a.eigval[c], ex.eigval[c]);
    }
    kpca_model_free(&a);
    kpca_model_free(&b);
    kpca_model_free(&ex);

    /* refused combinations */
    kpca_error err;
    p = kpca_fit_defaults(2);
    p.solver = KPCA_SOLVER_RANDOMIZED; /* without a count */
    assert_int_equal(kpca_model_fit(&g_fit, &p, &a, NULL, &err), KPCA_EUSAGE);
    p.components = 5;
    p.variance = 0.5;
    assert_int_equal(kpca_model_fit(&g_fit, &p, &a, NULL, &err), KPCA_EUSAGE);
    p = kpca_fit_defaults(2);
    p.solver = KPCA_SOLVER_NYSTROM;
    p.landmarks = MFIT + 1;
    assert_int_equal(kpca_model_fit(&g_fit, &p, &a, NULL, &err), KPCA_EUSAGE);
    p.landmarks = 20;
    p.components = 21;
    assert_int_equal(kpca_model_fit(&g_fit, &p, &a, NULL, &err), KPCA_EUSAGE);
    assert_null(a.alpha);
}

/* kpca_fit_check: each rule fires alone, names its parameter, and the
 * rules that need the data wait for m. */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_approximate_solvers_exact_limits),
        cmocka_unit_test(test_approximate_solvers_accuracy),
    };
    return cmocka_run_group_tests(tests, NULL, teardown_all);
}
