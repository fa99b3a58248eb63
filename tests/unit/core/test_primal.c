/* test_primal.c - the covariance fit (primal.h) gives the kernel matrix's
 * model: the same kept count, eigenvalues, centring statistics and
 * projections, on random data with fewer values than points, duplicate
 * points and a rank below the dimension; kpca_model_fit takes it only
 * where it applies, and its errors are the kernel path's. */
#include "testutil.h"

#include "lib/core/primal.h"

/* m points of dim values and rank `rank` (a random m x rank matrix times a
 * random rank x dim one, plus an offset of 3 that the centring removes);
 * the last `dups` rows repeat the first ones. */
static void low_rank(kpca_dataset *ds, size_t m, size_t dim, size_t rank, size_t dups, uint64_t seed)
{
    kpca_error err;
    assert_int_equal(kpca_dataset_alloc(ds, m, dim, &err), KPCA_OK);
    double *a = tu_rand_doubles(m * rank, seed), *b = tu_rand_doubles(rank * dim, seed + 1);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < dim; j++) {
            double s = 3.0;
            for (size_t r = 0; r < rank; r++)
                s += a[i * rank + r] * b[r * dim + j];
            ds->x[i * dim + j] = s;
        }
    for (size_t i = 0; i < dups; i++)
        memcpy(ds->x + (m - dups + i) * dim, ds->x + i * dim, dim * sizeof(double));
    for (size_t i = 0; i < m; i++)
        ds->y[i] = (int)(i % 3);
    free(a);
    free(b);
}

static void fit(const kpca_dataset *ds, kpca_kernel kernel, size_t comps, double variance, kpca_eig_method eig,
                int primal, kpca_model *md, kpca_fit_info *info)
{
    kpca_fit_params p = kpca_fit_defaults(1);
    p.kernel = kernel;
    p.components = comps;
    p.variance = variance;
    p.eig = eig;
    p.primal = primal;
    kpca_error err;
    if (kpca_model_fit(ds, &p, md, info, &err) != KPCA_OK)
        fail_msg("fit (primal %d): %s", primal, err.msg);
}

/* the largest |a - b| over n values, relative to the largest |b| */
static double rel_diff(const double *a, const double *b, size_t n)
{
    double big = 0.0, dev = 0.0;
    for (size_t i = 0; i < n; i++) {
        big = fmax(big, fabs(b[i]));
        dev = fmax(dev, fabs(a[i] - b[i]));
    }
    return big > 0.0 ? dev / big : dev;
}

/* Fits both ways and compares everything the model's users see. */
static void compare(const kpca_dataset *ds, kpca_kernel kernel, size_t comps, double variance, kpca_eig_method eig,
                    size_t expect_rank)
{
    kpca_model a, b;
    kpca_fit_info ia, ib;
    fit(ds, kernel, comps, variance, eig, 1, &a, &ia);
    fit(ds, kernel, comps, variance, eig, 0, &b, &ib);
    const size_t m = ds->n, dim = ds->dim;
    /* the paths really differ: the solver text names the covariance's */
    assert_non_null(strstr(a.solver, KPCA_PRIMAL_NOTE));
    assert_null(strstr(b.solver, KPCA_PRIMAL_NOTE));
    if (a.k != b.k || ia.kept != ib.kept)
        fail_msg("m %zu dim %zu: kept %zu (covariance) vs %zu (kernel matrix)", m, dim, a.k, b.k);
    if (variance == 0.0) {
        assert_int_equal(ia.requested, ib.requested);
        assert_int_equal(a.k, expect_rank < (comps ? comps : m) ? expect_rank : comps);
    }
    assert_int_equal(ia.negative, ib.negative);
    assert_int_equal(a.m, b.m);
    assert_int_equal(a.centring, b.centring);
    assert_true(a.kernel.type == b.kernel.type && a.kernel.gamma == b.kernel.gamma);
    assert_memory_equal(a.fitx, b.fitx, m * dim * sizeof(double));
    kpca_error err;
    assert_int_equal(kpca_model_validate(&a, "covariance fit", &err), KPCA_OK);
    for (size_t c = 0; c < a.k; c++)
        if (!(fabs(a.eigval[c] - b.eigval[c]) <= 1e-10 * b.eigval[0]))
            fail_msg("eigenvalue %zu: %.17g vs %.17g", c, a.eigval[c], b.eigval[c]);
    assert_true(rel_diff(a.colmean, b.colmean, m) <= 1e-12);
    assert_true(fabs(a.grandmean - b.grandmean) <= 1e-12 * fabs(b.grandmean));
    assert_true(fabs(a.trace - b.trace) <= 1e-10 * b.trace);
    /* mu alpha.alpha = 1, as the kernel path's */
    for (size_t c = 0; c < a.k; c++) {
        double aa = 0.0;
        for (size_t i = 0; i < m; i++)
            aa += a.alpha[c * m + i] * a.alpha[c * m + i];
        assert_true(fabs(a.eigval[c] * aa - 1.0) <= 1e-10);
    }
    /* projections of new points and of the fit points themselves */
    kpca_dataset x;
    tu_random_dataset(&x, 30, dim, 2, 99);
    double *za = tu_doubles(x.n * a.k), *zb = tu_doubles(x.n * a.k);
    double *fa = tu_doubles(m * a.k), *fb = tu_doubles(m * a.k);
    assert_int_equal(kpca_model_transform(&a, x.x, x.n, dim, a.k, za, &err), KPCA_OK);
    assert_int_equal(kpca_model_transform(&b, x.x, x.n, dim, a.k, zb, &err), KPCA_OK);
    assert_int_equal(kpca_model_transform(&a, ds->x, m, dim, a.k, fa, &err), KPCA_OK);
    assert_int_equal(kpca_model_transform(&b, ds->x, m, dim, a.k, fb, &err), KPCA_OK);
    double dn = rel_diff(za, zb, x.n * a.k), df = rel_diff(fa, fb, m * a.k);
    if (!(dn <= 1e-10 && df <= 1e-10))
        fail_msg("m %zu dim %zu k %zu: projections differ by %g (new points), %g (fit points)", m, dim, a.k, dn, df);
    free(za);
    free(zb);
    free(fa);
    free(fb);
    kpca_dataset_free(&x);
    kpca_model_free(&a);
    kpca_model_free(&b);
}

static void test_primal_matches_kernel(void **state)
{
    (void)state;
    static const struct {
        size_t m, dim, rank, dups;
    } cases[] = {
        {40, 6, 6, 0},    /* full rank */
        {60, 12, 5, 10},  /* rank 5 of 12, duplicates */
        {80, 30, 30, 25}, /* full rank, many duplicates */
        {50, 49, 20, 0},  /* D = M - 1, rank deficient */
        {90, 3, 1, 40},   /* rank 1 */
    };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        kpca_dataset ds;
        low_rank(&ds, cases[t].m, cases[t].dim, cases[t].rank, cases[t].dups, 17 + t);
        /* the centred points of rank r span r dimensions (r + 1 affine points) */
        const size_t r = cases[t].rank < cases[t].dim ? cases[t].rank : cases[t].dim;
        compare(&ds, kpca_kernel_linear(), 0, 0.0, KPCA_EIG_AUTO, r);
        kpca_kernel k = kpca_kernel_poly(1);
        k.gamma = 0.25;
        compare(&ds, k, 2, 0.0, KPCA_EIG_EVR, r);
        compare(&ds, k, r, 0.0, KPCA_EIG_EVD, r);
        compare(&ds, kpca_kernel_linear(), cases[t].m - 1, 0.0, KPCA_EIG_AUTO, r);
        compare(&ds, kpca_kernel_linear(), 0, 0.9, KPCA_EIG_AUTO, r);
        kpca_dataset_free(&ds);
    }
}

/* kpca_model_fit takes the covariance only for gamma x.y with D < M */
static void test_primal_applies(void **state)
{
    (void)state;
    kpca_kernel lin = kpca_kernel_linear(), p1 = kpca_kernel_poly(1), p2 = kpca_kernel_poly(2);
    kpca_kernel off = p1, rbf = kpca_kernel_rbf(1.0), sig = kpca_kernel_sigmoid(1.0, 0.0);
    off.coef0 = 1.0;
    assert_true(kpca_primal_applies(&lin, 10, 9));
    assert_true(kpca_primal_applies(&p1, 10, 3));
    assert_false(kpca_primal_applies(&lin, 10, 10));
    assert_false(kpca_primal_applies(&p1, 3, 10));
    assert_false(kpca_primal_applies(&p2, 10, 3));
    assert_false(kpca_primal_applies(&off, 10, 3));
    assert_false(kpca_primal_applies(&rbf, 10, 3));
    assert_false(kpca_primal_applies(&sig, 10, 3));
    /* the fit's choice: its solver text */
    kpca_dataset ds;
    low_rank(&ds, 20, 4, 4, 0, 5);
    kpca_model md;
    kpca_fit_info info;
    const kpca_kernel kernels[] = {lin, p1, p2, off, rbf};
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        fit(&ds, kernels[i], 3, 0.0, KPCA_EIG_AUTO, 1, &md, &info);
        assert_int_equal(strstr(md.solver, KPCA_PRIMAL_NOTE) != NULL, i < 2);
        kpca_model_free(&md);
    }
    kpca_dataset_free(&ds);
    /* D = M: the kernel matrix */
    low_rank(&ds, 5, 5, 5, 0, 6);
    fit(&ds, lin, 2, 0.0, KPCA_EIG_AUTO, 1, &md, &info);
    assert_string_equal(md.solver, "exact evd");
    kpca_model_free(&md);
    kpca_dataset_free(&ds);
}

/* bad requests, overflow and coincident points: the kernel path's errors */
static void test_primal_errors(void **state)
{
    (void)state;
    kpca_dataset ds;
    low_rank(&ds, 12, 4, 4, 0, 8);
    double mu[4], u[4 * 12], colmean[12];
    kpca_exact_job job;
    memset(&job, 0, sizeof job);
    job.kernel = kpca_kernel_rbf(1.0);
    job.want = 2;
    job.eig = KPCA_EIG_EVD;
    job.mu = mu;
    job.u = u;
    job.colmean = colmean;
    kpca_error err;
    assert_int_equal(kpca_primal_solve(&ds, 0.0, &job, &err), KPCA_EUSAGE);
    job.kernel = kpca_kernel_linear();
    job.want = 5;
    assert_int_equal(kpca_primal_solve(&ds, 0.0, &job, &err), KPCA_EUSAGE);
    job.want = 0;
    assert_int_equal(kpca_primal_solve(&ds, 0.0, &job, &err), KPCA_EUSAGE);
    job.want = 4;
    assert_int_equal(kpca_primal_solve(&ds, 0.0, &job, &err), KPCA_OK);
    assert_string_equal(job.note, KPCA_PRIMAL_NOTE);

    kpca_fit_params p = kpca_fit_defaults(1);
    p.kernel = kpca_kernel_linear();
    char msg[2][KPCA_ERRMSG_MAX];
    /* overflow: a value whose square is not finite */
    ds.x[7] = 1e200;
    for (int primal = 0; primal < 2; primal++) {
        kpca_model md;
        p.primal = primal;
        assert_int_equal(kpca_model_fit(&ds, &p, &md, NULL, &err), KPCA_ENUMERIC);
        snprintf(msg[primal], sizeof msg[primal], "%s", err.msg);
    }
    assert_string_equal(msg[0], msg[1]);
    /* every point the same: nothing to keep */
    for (size_t i = 0; i < ds.n * ds.dim; i++)
        ds.x[i] = 0.5;
    for (int primal = 0; primal < 2; primal++) {
        kpca_model md;
        p.primal = primal;
        assert_int_equal(kpca_model_fit(&ds, &p, &md, NULL, &err), KPCA_ENUMERIC);
        snprintf(msg[primal], sizeof msg[primal], "%s", err.msg);
    }
    assert_string_equal(msg[0], msg[1]);
    assert_non_null(strstr(msg[1], "coincide"));
    kpca_dataset_free(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_primal_matches_kernel),
        cmocka_unit_test(test_primal_applies),
        cmocka_unit_test(test_primal_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
