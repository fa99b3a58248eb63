/* test_project_primal.c - kpca_model_transform of a kernel gamma x.y with
 * fewer input values than model points goes through the primal weights
 * (model.h): the same features as the kernel rows (no_primal) to 1e-10 of
 * the largest, on rank-deficient random data, for every centring (exact
 * fits of both fit paths, randomized, Nystrom, reduced-set) and a smoothed
 * model; in double whatever the model's precision; the kernel rows
 * everywhere else.
 * Which path ran is seen through the progress phase "primal weights". */
#include "testutil.h"

#define DIM 25  /* 5 x 5 images, for the smoothed model */
#define RANK 7  /* of the fit points, less their offset */
#define MFIT 90 /* model points */
#define NNEW 60 /* points to project: 50 new ones, then 10 fit points */

/* counts the "primal weights" phases reported */
static void count_primal(const char *phase, size_t done, size_t total, void *user)
{
    (void)total;
    if (done == 0 && strcmp(phase, "primal weights") == 0)
        ++*(int *)user;
}

/* fit: MFIT points of rank RANK (a random MFIT x RANK matrix times a random
 * RANK x DIM one) plus an offset 2 that the centring removes, the last 5
 * rows repeating the first ones; x: NNEW - 10 random points of full rank,
 * then fit points 0, 3, .., 27 (an exact model copies their features) */
static void data(kpca_dataset *fit, double *x)
{
    kpca_error err;
    assert_int_equal(kpca_dataset_alloc(fit, MFIT, DIM, &err), KPCA_OK);
    uint64_t seed = 11;
    double a[MFIT][RANK], b[RANK][DIM];
    for (size_t i = 0; i < MFIT; i++)
        for (size_t r = 0; r < RANK; r++)
            a[i][r] = tu_rand(&seed);
    for (size_t r = 0; r < RANK; r++)
        for (size_t j = 0; j < DIM; j++)
            b[r][j] = tu_rand(&seed);
    for (size_t i = 0; i < MFIT; i++) {
        const size_t src = i < MFIT - 5 ? i : i - (MFIT - 5);
        for (size_t j = 0; j < DIM; j++) {
            double s = 2.0;
            for (size_t r = 0; r < RANK; r++)
                s += a[src][r] * b[r][j];
            fit->x[i * DIM + j] = s;
        }
        fit->y[i] = (int)(i % 4);
    }
    for (size_t i = 0; i < (NNEW - 10) * DIM; i++)
        x[i] = 2.0 + 1.5 * tu_rand(&seed);
    for (size_t i = 0; i < 10; i++)
        memcpy(x + (NNEW - 10 + i) * DIM, fit->x + 3 * i * DIM, DIM * sizeof(double));
}

static void fit_model(const kpca_dataset *fit, const kpca_fit_params *p, kpca_model *md)
{
    kpca_error err;
    if (kpca_model_fit(fit, p, md, NULL, &err) != KPCA_OK)
        fail_msg("fit: %s", err.msg);
}

/* z (NNEW x k) of x through md with no_primal as given; *primal: whether
 * the primal weights were computed */
static void project(kpca_model *md, int no_primal, const double *x, size_t k, double *z, int *primal)
{
    kpca_error err;
    *primal = 0;
    md->no_primal = no_primal;
    kpca_progress_set(count_primal, primal);
    kpca_status st = kpca_model_transform(md, x, NNEW, DIM, k, z, &err);
    kpca_progress_set(NULL, NULL);
    md->no_primal = 0;
    if (st != KPCA_OK)
        fail_msg("transform (no_primal %d): %s", no_primal, err.msg);
}

/* Both paths on the first k components: the primal weights by default, the
 * kernel rows with no_primal, features equal to tol of the largest.  The
 * primal features are returned in zp (NNEW x k) if not NULL. */
static void check_paths(kpca_model *md, const double *x, size_t k, const char *what, double tol, double *zp)
{
    assert_true(k >= 1 && k <= md->k);
    assert_int_equal(kpca_model_transform_primal(md), 1);
    double *za = tu_doubles(NNEW * k), *zb = tu_doubles(NNEW * k);
    int pa, pb;
    project(md, 0, x, k, za, &pa);
    project(md, 1, x, k, zb, &pb);
    if (pa != 1 || pb != 0)
        fail_msg("%s: primal weights computed %d times by default, %d with no_primal", what, pa, pb);
    double big = 0.0, dev = 0.0;
    for (size_t i = 0; i < NNEW * k; i++) {
        big = fmax(big, fabs(zb[i]));
        dev = fmax(dev, fabs(za[i] - zb[i]));
    }
    if (!(big > 0.0) || dev > tol * big)
        fail_msg("%s, k %zu: the paths differ by %g (largest |z| %g)", what, k, dev, big);
    if (zp != NULL)
        memcpy(zp, za, NNEW * k * sizeof(double));
    free(za);
    free(zb);
}

/* exact fits through either fit path, linear and gamma x.y kernels: the
 * paths agree on all components and on a few; a single-precision model's
 * primal features are the double model's, bit for bit */
static void test_exact(void **state)
{
    (void)state;
    kpca_dataset fit;
    double x[NNEW * DIM];
    data(&fit, x);
    kpca_kernel poly = {KPCA_KERNEL_POLY, 1, 0.5, 0.0, 0.0};
    for (int primal_fit = 0; primal_fit <= 1; primal_fit++)
        for (int lin = 0; lin <= 1; lin++) {
            kpca_fit_params p = kpca_fit_defaults(1);
            if (lin)
                p.kernel.type = KPCA_KERNEL_LINEAR;
            else
                p.kernel = poly;
            p.primal = primal_fit;
            kpca_model md;
            fit_model(&fit, &p, &md);
            /* the rank deficiency: RANK components at most */
            assert_true(md.k >= 1 && md.k <= RANK);
            assert_int_equal(md.centring, KPCA_CENTRE_KERNEL);
            double *zd = tu_doubles(NNEW * md.k), *zs = tu_doubles(NNEW * md.k);
            check_paths(&md, x, md.k, lin ? "exact linear" : "exact 0.5 x.y", 1e-10, zd);
            check_paths(&md, x, 2, lin ? "exact linear" : "exact 0.5 x.y", 1e-10, NULL);
            /* the kernel rows in binary32 (SGEMM): a float's tolerance */
            md.precision = KPCA_PRECISION_SINGLE;
            check_paths(&md, x, md.k, "exact, single precision", 1e-4, zs);
            assert_memory_equal(zd, zs, NNEW * md.k * sizeof(double));
            free(zd);
            free(zs);
            kpca_model_free(&md);
        }
    kpca_dataset_free(&fit);
}

/* the randomized and Nystrom solvers, a reduced-set model (centring
 * REDUCED: z = alpha (k_Z(x) - colmean), here a fitted model's points with
 * other coefficients and column means) and a smoothed model: the
 * projection is affine in x for each, and the paths agree */
static void test_other_models(void **state)
{
    (void)state;
    kpca_dataset fit;
    double x[NNEW * DIM];
    data(&fit, x);
    kpca_fit_params p = kpca_fit_defaults(1);
    p.kernel.type = KPCA_KERNEL_LINEAR;
    p.components = 5;
    kpca_model md;

    p.solver = KPCA_SOLVER_RANDOMIZED;
    fit_model(&fit, &p, &md);
    check_paths(&md, x, md.k, "randomized", 1e-10, NULL);
    kpca_model_free(&md);

    p.solver = KPCA_SOLVER_NYSTROM;
    p.landmarks = 40; /* > DIM */
    fit_model(&fit, &p, &md);
    assert_int_equal(md.centring, KPCA_CENTRE_NYSTROM);
    assert_int_equal(md.m, 40);
    check_paths(&md, x, md.k, "nystrom", 1e-10, NULL);
    kpca_model_free(&md);

    p.solver = KPCA_SOLVER_EXACT;
    fit_model(&fit, &p, &md);
    md.centring = KPCA_CENTRE_REDUCED;
    uint64_t seed = 5;
    for (size_t i = 0; i < md.m; i++)
        md.colmean[i] = 10.0 * tu_rand(&seed);
    for (size_t i = 0; i < md.k * md.m; i++) /* rows that do not sum to 0, as beta's need not */
        md.alpha[i] = 0.1 + tu_rand(&seed);
    md.grandmean = 0.0;
    check_paths(&md, x, md.k, "reduced", 1e-10, NULL);
    kpca_model_free(&md);

    /* smoothed: the fit points and the inputs are blurred before the model
     * meets them (the caller's step), the model records sigma */
    kpca_error err;
    assert_int_equal(kpca_smooth_images(fit.x, fit.n, 5, 0.8, &err), KPCA_OK);
    assert_int_equal(kpca_smooth_images(x, NNEW, 5, 0.8, &err), KPCA_OK);
    fit_model(&fit, &p, &md);
    md.smooth = 0.8;
    check_paths(&md, x, md.k, "smoothed", 1e-10, NULL);
    kpca_model_free(&md);
    kpca_dataset_free(&fit);
}

/* kernels that are not gamma x.y, or no fewer values than model points:
 * the kernel rows, no primal weights */
static void test_kernel_rows_elsewhere(void **state)
{
    (void)state;
    kpca_dataset fit, few;
    double x[NNEW * DIM];
    data(&fit, x);
    const kpca_kernel kernels[] = {
        {KPCA_KERNEL_POLY, 1, 1.0, 1.0, 0.0}, /* an offset */
        {KPCA_KERNEL_POLY, 2, 1.0, 0.0, 0.0},
        {KPCA_KERNEL_RBF, 1, 1.0, 0.0, 3.0},
        {KPCA_KERNEL_LINEAR, 1, 1.0, 0.0, 0.0}, /* on DIM points: D = M */
    };
    size_t idx[DIM];
    for (size_t i = 0; i < DIM; i++)
        idx[i] = i;
    kpca_error err;
    assert_int_equal(kpca_dataset_select(&fit, idx, DIM, &few, &err), KPCA_OK);
    for (size_t t = 0; t < sizeof kernels / sizeof kernels[0]; t++) {
        kpca_fit_params p = kpca_fit_defaults(1);
        p.kernel = kernels[t];
        p.components = 3;
        kpca_model md;
        fit_model(t == 3 ? &few : &fit, &p, &md);
        assert_int_equal(kpca_model_transform_primal(&md), 0);
        double *z = tu_doubles(NNEW * md.k);
        int primal;
        project(&md, 0, x, md.k, z, &primal);
        if (primal != 0)
            fail_msg("kernel %zu: primal weights computed", t);
        free(z);
        kpca_model_free(&md);
    }
    kpca_dataset_free(&few);
    kpca_dataset_free(&fit);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact),
        cmocka_unit_test(test_other_models),
        cmocka_unit_test(test_kernel_rows_elsewhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
