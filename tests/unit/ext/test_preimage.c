/* test_preimage.c - pre-images (lib/ext/preimage.h) against independent
 * references: PCA reconstruction from LAPACK for the linear kernel, and the
 * objective |Phi(z) - P Phi(x)|^2 computed with plain loops over
 * kpca_kernel_eval for the others. */
#include "testutil.h"

#include <float.h>
#include <lapacke.h>

static void fit_model(const kpca_dataset *ds, kpca_kernel kern, size_t comps, kpca_model *md)
{
    kpca_fit_params p = kpca_fit_defaults(1);
    p.kernel = kern;
    p.components = comps;
    kpca_error err;
    if (kpca_model_fit(ds, &p, md, NULL, &err) != KPCA_OK)
        fail_msg("fit: %s", err.msg);
}

static void preimage_ok(const kpca_model *md, const double *x, size_t n, size_t k, const kpca_preimage_params *p,
                        double *z, size_t *iters, kpca_preimage_info *info)
{
    kpca_error err;
    if (kpca_preimage(md, x, n, md->dim, k, p, z, iters, info, &err) != KPCA_OK)
        fail_msg("preimage: %s", err.msg);
    for (size_t i = 0; i < n * md->dim; i++)
        assert_true(isfinite(z[i]));
}

static double mse(const double *a, const double *b, size_t count)
{
    double s = 0.0;
    for (size_t i = 0; i < count; i++)
        s += (a[i] - b[i]) * (a[i] - b[i]);
    return s / (double)count;
}

/* ---- the plain-loop reference: gamma and the objective ------------------------ */

typedef struct {
    size_t m, dim, k;
    double *K;       /* uncentred m x m kernel matrix */
    double *colmean; /* its column means */
    double grand;
} reference;

static void ref_build(const kpca_model *md, size_t k, reference *r)
{
    const size_t m = md->m, dim = md->dim;
    r->m = m;
    r->dim = dim;
    r->k = k;
    r->K = malloc(m * m * sizeof(double));
    r->colmean = calloc(m, sizeof(double));
    assert_true(r->K && r->colmean);
    r->grand = 0.0;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++) {
            r->K[i * m + j] = kpca_kernel_eval(&md->kernel, md->fitx + i * dim, md->fitx + j * dim, dim);
            r->colmean[j] += r->K[i * m + j] / (double)m;
        }
    for (size_t j = 0; j < m; j++)
        r->grand += r->colmean[j] / (double)m;
}

static void ref_free(reference *r)
{
    free(r->K);
    free(r->colmean);
}

/* gamma_i = sum_c beta_c (alpha_ci - mean_j alpha_cj) + 1/m, beta from the
 * centred kernel row of x (all plain loops) */
static void ref_gamma(const kpca_model *md, const reference *r, const double *x, double *gamma)
{
    const size_t m = r->m, dim = r->dim;
    double *kx = malloc(m * sizeof *kx);
    assert_non_null(kx);
    double mean = 0.0;
    for (size_t i = 0; i < m; i++) {
        kx[i] = kpca_kernel_eval(&md->kernel, md->fitx + i * dim, x, dim);
        mean += kx[i] / (double)m;
    }
    for (size_t i = 0; i < m; i++) {
        kx[i] += -r->colmean[i] - mean + r->grand;
        gamma[i] = 1.0 / (double)m;
    }
    for (size_t c = 0; c < r->k; c++) {
        const double *a = md->alpha + c * m;
        double beta = 0.0, amean = 0.0;
        for (size_t i = 0; i < m; i++) {
            beta += a[i] * kx[i];
            amean += a[i] / (double)m;
        }
        for (size_t i = 0; i < m; i++)
            gamma[i] += beta * (a[i] - amean);
    }
    free(kx);
}

/* |Phi(z) - sum_i gamma_i Phi(x_i)|^2 */
static double ref_objective(const kpca_model *md, const reference *r, const double *gamma, const double *z)
{
    const size_t m = r->m, dim = r->dim;
    double v = kpca_kernel_eval(&md->kernel, z, z, dim);
    for (size_t i = 0; i < m; i++) {
        v -= 2.0 * gamma[i] * kpca_kernel_eval(&md->kernel, z, md->fitx + i * dim, dim);
        for (size_t j = 0; j < m; j++)
            v += gamma[i] * gamma[j] * r->K[i * m + j];
    }
    return v;
}

/* points on a closed curve in `dim` dimensions (4 used), t in [0, 2 pi) */
static void curve_point(double t, double *x, size_t dim)
{
    memset(x, 0, dim * sizeof *x);
    x[0] = cos(t);
    x[1] = sin(t);
    x[2] = 0.5 * cos(2.0 * t);
    x[3] = 0.5 * sin(2.0 * t);
}

/* ---- tests ----------------------------------------------------------------------- */

/* linear kernel: the pre-image is the PCA reconstruction mean + V V^T (x - mean),
 * with V the top k eigenvectors of the covariance (LAPACK dsyev) */
static void test_linear_is_pca(void **state)
{
    (void)state;
    enum { M = 60, DIM = 7, N = 25 };
    kpca_dataset fit, pts;
    tu_random_dataset(&fit, M, DIM, 3, 11);
    tu_random_dataset(&pts, N, DIM, 3, 12);
    for (size_t i = 0; i < M; i++) /* anisotropic, so the components are well separated */
        for (size_t d = 0; d < DIM; d++)
            fit.x[i * DIM + d] *= (double)(DIM - d);
    kpca_model md;
    fit_model(&fit, kpca_kernel_linear(), 0, &md);
    assert_int_equal(md.k, DIM);

    double mean[DIM] = {0}, cov[DIM * DIM] = {0}, ev[DIM];
    for (size_t i = 0; i < M; i++)
        for (size_t d = 0; d < DIM; d++)
            mean[d] += fit.x[i * DIM + d] / M;
    for (size_t i = 0; i < M; i++)
        for (size_t a = 0; a < DIM; a++)
            for (size_t b = 0; b < DIM; b++)
                cov[a * DIM + b] += (fit.x[i * DIM + a] - mean[a]) * (fit.x[i * DIM + b] - mean[b]) / M;
    assert_int_equal(LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'V', 'U', DIM, cov, DIM, ev), 0);

    for (size_t k = 1; k <= DIM; k++) {
        double z[N * DIM], want[N * DIM];
        size_t iters[N];
        kpca_preimage_info info;
        kpca_preimage_params p = kpca_preimage_defaults();
        preimage_ok(&md, pts.x, N, k, &p, z, iters, &info);
        for (size_t r = 0; r < N; r++) {
            const double *x = pts.x + r * DIM;
            for (size_t d = 0; d < DIM; d++)
                want[r * DIM + d] = mean[d];
            for (size_t c = 0; c < k; c++) { /* dsyev: ascending, column DIM-1-c */
                size_t col = DIM - 1 - c;
                double proj = 0.0;
                for (size_t d = 0; d < DIM; d++)
                    proj += (x[d] - mean[d]) * cov[d * DIM + col];
                for (size_t d = 0; d < DIM; d++)
                    want[r * DIM + d] += proj * cov[d * DIM + col];
            }
            assert_true(iters[r] <= 1); /* one step; none when x is its own reconstruction */
        }
        for (size_t i = 0; i < N * DIM; i++)
            if (fabs(z[i] - want[i]) > 1e-9)
                fail_msg("k = %zu: value %zu is %.17g, PCA gives %.17g", k, i, z[i], want[i]);
        assert_int_equal(info.converged, N);
        assert_int_equal(info.halvings, 0);
    }
    kpca_model_free(&md);
    kpca_dataset_free(&fit);
    kpca_dataset_free(&pts);
}

/* rbf with every component: P Phi(x_j) = Phi(x_j) for a fit point, so the
 * iteration started near x_j comes back to it */
static void test_rbf_all_components_fit_point(void **state)
{
    (void)state;
    enum { M = 30, DIM = 5 };
    kpca_dataset fit;
    tu_random_dataset(&fit, M, DIM, 2, 21);
    kpca_model md;
    fit_model(&fit, kpca_kernel_rbf(kpca_kernel_default_sigma(fit.x, M, DIM)), 0, &md);
    assert_int_equal(md.k, M - 1);
    double start[M * DIM], z[M * DIM];
    uint64_t s = 5;
    for (size_t i = 0; i < M * DIM; i++)
        start[i] = fit.x[i] + 0.05 * tu_rand(&s);
    kpca_preimage_params p = kpca_preimage_defaults();
    p.tol = 1e-12;
    p.max_iter = 500;
    p.start = start;
    kpca_preimage_info info;
    preimage_ok(&md, fit.x, M, md.k, &p, z, NULL, &info);
    for (size_t i = 0; i < M * DIM; i++)
        if (fabs(z[i] - fit.x[i]) > 1e-6)
            fail_msg("point %zu value %zu: %.10g, fit point %.10g (from %.10g)", i / DIM, i % DIM, z[i], fit.x[i],
                     start[i]);
    /* and started at the fit point itself, it stays there */
    p.start = NULL;
    preimage_ok(&md, fit.x, M, md.k, &p, z, NULL, &info);
    for (size_t i = 0; i < M * DIM; i++)
        assert_true(fabs(z[i] - fit.x[i]) < 1e-8);
    kpca_model_free(&md);
    kpca_dataset_free(&fit);
}

/* gamma matches the plain loops; the objective never increases from the
 * start to the result, for every kernel (poly of even and odd degree too) */
static void check_objective(kpca_kernel kern, size_t k, double noise)
{
    enum { M = 50, DIM = 6, N = 12 };
    kpca_dataset fit, pts;
    tu_random_dataset(&fit, M, DIM, 2, 31);
    tu_random_dataset(&pts, N, DIM, 2, 32);
    for (size_t i = 0; i < N * DIM; i++) /* near the fit points, plus noise */
        pts.x[i] = fit.x[i] + noise * pts.x[i];
    kpca_model md;
    fit_model(&fit, kern, 0, &md);
    reference ref;
    ref_build(&md, k, &ref);
    double gamma[N * M], g1[M], z[N * DIM];
    kpca_error err;
    assert_int_equal(kpca_preimage_gamma(&md, pts.x, N, DIM, k, gamma, &err), KPCA_OK);
    kpca_preimage_params p = kpca_preimage_defaults();
    kpca_preimage_info info;
    preimage_ok(&md, pts.x, N, k, &p, z, NULL, &info);
    for (size_t r = 0; r < N; r++) {
        ref_gamma(&md, &ref, pts.x + r * DIM, g1);
        double sum = 0.0, scale = 0.0;
        for (size_t i = 0; i < M; i++) {
            sum += gamma[r * M + i];
            scale = fmax(scale, fabs(g1[i]));
        }
        assert_true(fabs(sum - 1.0) < 1e-9);
        for (size_t i = 0; i < M; i++)
            if (fabs(gamma[r * M + i] - g1[i]) > 1e-9 * fmax(1.0, scale))
                fail_msg("%s: gamma[%zu][%zu] = %.17g, plain loops %.17g", kpca_kernel_name(kern.type), r, i,
                         gamma[r * M + i], g1[i]);
        double before = ref_objective(&md, &ref, g1, pts.x + r * DIM);
        double after = ref_objective(&md, &ref, g1, z + r * DIM);
        double kzz = fabs(kpca_kernel_eval(&kern, pts.x + r * DIM, pts.x + r * DIM, DIM));
        if (!(after <= before + 1e-10 * fmax(1.0, kzz)))
            fail_msg("%s, k = %zu, point %zu: objective %.17g at the start, %.17g at the result",
                     kpca_kernel_name(kern.type), k, r, before, after);
        /* a squared distance, except for sigmoid (not positive semi-definite) */
        if (kern.type != KPCA_KERNEL_SIGMOID && !(after >= -1e-9 * fmax(1.0, kzz)))
            fail_msg("%s: objective %.17g < 0", kpca_kernel_name(kern.type), after);
    }
    assert_int_equal(info.points, N);
    assert_int_equal(info.converged + info.max_iter_hit + info.stalled, N);
    ref_free(&ref);
    kpca_model_free(&md);
    kpca_dataset_free(&fit);
    kpca_dataset_free(&pts);
}

static void test_objective_decreases(void **state)
{
    (void)state;
    kpca_kernel poly2 = kpca_kernel_poly(2), poly3 = kpca_kernel_poly(3), poly4c = kpca_kernel_poly(4);
    poly4c.coef0 = 1.0;
    poly4c.gamma = 0.5;
    const size_t ks[] = {1, 3, 10};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        check_objective(kpca_kernel_rbf(1.5), ks[i], 0.3);
        check_objective(poly2, ks[i], 0.3);
        check_objective(poly3, ks[i], 0.3);
        check_objective(poly4c, ks[i], 0.3);
        check_objective(kpca_kernel_sigmoid(0.2, 0.5), ks[i], 0.3);
        check_objective(kpca_kernel_linear(), ks[i] < 6 ? ks[i] : 6, 0.3);
    }
}

/* noisy points of a curve: reconstruction from a few rbf components is
 * closer to the clean points than the noisy points are; so is linear PCA
 * onto the curve's 4-dimensional span, and kernel PCA beats it */
static void test_denoise_curve(void **state)
{
    (void)state;
    enum { M = 200, DIM = 10, N = 60 };
    kpca_dataset fit;
    kpca_error err;
    assert_int_equal(kpca_dataset_alloc(&fit, M, DIM, &err), KPCA_OK);
    for (size_t i = 0; i < M; i++)
        curve_point(6.283185307179586 * (double)i / M, fit.x + i * DIM, DIM);
    kpca_dataset pts;
    assert_int_equal(kpca_dataset_alloc(&pts, N, DIM, &err), KPCA_OK);
    double clean[N * DIM], z[N * DIM];
    uint64_t s = 77;
    for (size_t r = 0; r < N; r++)
        curve_point(3.14159265358979 * (tu_rand(&s) + 1.0), clean + r * DIM, DIM);
    memcpy(pts.x, clean, sizeof clean);
    kpca_dataset_add_noise(&pts, 0.1, 4);
    double noisy = mse(pts.x, clean, N * DIM);
    assert_true(noisy > 0.005 && noisy < 0.02); /* sd 0.1: mse about 0.01 */

    kpca_model rbf, lin;
    fit_model(&fit, kpca_kernel_rbf(kpca_kernel_default_sigma(fit.x, M, DIM)), 16, &rbf);
    fit_model(&fit, kpca_kernel_linear(), 4, &lin);
    kpca_preimage_params p = kpca_preimage_defaults();
    kpca_preimage_info info;
    preimage_ok(&lin, pts.x, N, 4, &p, z, NULL, &info);
    double lin_mse = mse(z, clean, N * DIM);
    preimage_ok(&rbf, pts.x, N, 16, &p, z, NULL, &info);
    double rbf_mse = mse(z, clean, N * DIM);
    print_message("curve: noisy %.5f, linear PCA (4) %.5f, rbf kernel PCA (16) %.5f, steps mean %.1f\n", noisy,
                  lin_mse, rbf_mse, info.iter_mean);
    assert_true(lin_mse < 0.6 * noisy);
    assert_true(rbf_mse < lin_mse);
    assert_int_equal(info.stalled, 0);
    kpca_model_free(&rbf);
    kpca_model_free(&lin);
    kpca_dataset_free(&fit);
    kpca_dataset_free(&pts);
}

/* T undefined at the start: a point so far away that every rbf kernel value
 * underflows, and z = 0 for (x.y)^2 (f'(0) = 0): restart from sum gamma_i x_i,
 * a finite result, never worse than the start */
static void test_undefined_step_restarts(void **state)
{
    (void)state;
    enum { M = 20, DIM = 4 };
    kpca_dataset fit;
    tu_random_dataset(&fit, M, DIM, 2, 41);
    double x[2 * DIM], z[2 * DIM];
    for (size_t d = 0; d < DIM; d++) {
        x[d] = 1e3;
        x[DIM + d] = 0.0;
    }
    const kpca_kernel kerns[] = {kpca_kernel_rbf(0.5), kpca_kernel_poly(2)};
    for (size_t j = 0; j < 2; j++) {
        kpca_model md;
        fit_model(&fit, kerns[j], 3, &md);
        const double *xj = x + j * DIM;
        kpca_preimage_params p = kpca_preimage_defaults();
        kpca_preimage_info info;
        preimage_ok(&md, xj, 1, 3, &p, z, NULL, &info);
        assert_int_equal(info.restarted, 1);
        reference ref;
        ref_build(&md, 3, &ref);
        double g[M];
        ref_gamma(&md, &ref, xj, g);
        assert_true(ref_objective(&md, &ref, g, z) <= ref_objective(&md, &ref, g, xj) + 1e-12);
        ref_free(&ref);
        kpca_model_free(&md);
    }
    kpca_dataset_free(&fit);
}

/* the plain (unguarded) fixed point of (x.y)^2 does not settle; the guarded
 * one does, with halved steps */
static void test_plain_poly_oscillates(void **state)
{
    (void)state;
    enum { M = 40, DIM = 6, N = 10 };
    kpca_dataset fit, pts;
    tu_random_dataset(&fit, M, DIM, 2, 51);
    tu_random_dataset(&pts, N, DIM, 2, 52);
    kpca_model md;
    fit_model(&fit, kpca_kernel_poly(2), 5, &md);
    double z[N * DIM];
    kpca_preimage_params p = kpca_preimage_defaults();
    kpca_preimage_info guarded, plain;
    preimage_ok(&md, pts.x, N, 5, &p, z, NULL, &guarded);
    p.plain = 1;
    preimage_ok(&md, pts.x, N, 5, &p, z, NULL, &plain);
    print_message("(x.y)^2: guarded %zu of %d converged, %zu halvings; plain %zu converged\n", guarded.converged, N,
                  guarded.halvings, plain.converged);
    assert_int_equal(guarded.converged, N);
    assert_true(guarded.halvings > 0);
    assert_int_equal(plain.halvings, 0);
    assert_true(plain.converged < N);
    kpca_model_free(&md);
    kpca_dataset_free(&fit);
    kpca_dataset_free(&pts);
}

static void test_deterministic_and_blocks(void **state)
{
    (void)state;
    /* more points than one block: the result of a point does not depend on
     * its block or on the others */
    enum { M = 40, DIM = 8, N = KPCA_PREIMAGE_BLOCK + 7 };
    kpca_dataset fit, pts;
    tu_random_dataset(&fit, M, DIM, 2, 61);
    tu_random_dataset(&pts, N, DIM, 2, 62);
    kpca_model md;
    fit_model(&fit, kpca_kernel_rbf(1.0), 6, &md);
    double *a = malloc(N * DIM * sizeof(double)), *b = malloc(N * DIM * sizeof(double));
    size_t *ia = malloc(N * sizeof(size_t)), *ib = malloc(N * sizeof(size_t));
    assert_true(a && b && ia && ib);
    kpca_preimage_params p = kpca_preimage_defaults();
    kpca_preimage_info info;
    preimage_ok(&md, pts.x, N, 6, &p, a, ia, &info);
    preimage_ok(&md, pts.x, N, 6, &p, b, ib, &info);
    assert_memory_equal(a, b, N * DIM * sizeof(double));
    assert_memory_equal(ia, ib, N * sizeof(size_t));
    size_t last = N - 1;
    preimage_ok(&md, pts.x + last * DIM, 1, 6, &p, b, ib, &info);
    for (size_t d = 0; d < DIM; d++)
        assert_true(fabs(a[last * DIM + d] - b[d]) <= 1e-12 * fmax(1.0, fabs(b[d])));
    assert_int_equal(ia[last], ib[0]);
    free(a);
    free(b);
    free(ia);
    free(ib);
    kpca_model_free(&md);
    kpca_dataset_free(&fit);
    kpca_dataset_free(&pts);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    enum { M = 10, DIM = 3 };
    kpca_dataset fit;
    tu_random_dataset(&fit, M, DIM, 2, 71);
    kpca_model md;
    fit_model(&fit, kpca_kernel_rbf(1.0), 4, &md);
    double z[M * DIM], g[M * M];
    kpca_error err;
    kpca_preimage_params p = kpca_preimage_defaults();
    assert_int_equal(kpca_preimage(&md, fit.x, M, DIM + 1, 2, &p, z, NULL, NULL, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "expects 3"));
    assert_int_equal(kpca_preimage(&md, fit.x, M, DIM, 0, &p, z, NULL, NULL, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_preimage(&md, fit.x, M, DIM, md.k + 1, &p, z, NULL, NULL, &err), KPCA_EUSAGE);
    assert_non_null(strstr(err.msg, "the model has 4"));
    assert_int_equal(kpca_preimage_gamma(&md, fit.x, M, DIM, md.k + 1, g, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_preimage_gamma(&md, fit.x, M, 2, 1, g, &err), KPCA_EFORMAT);
    p.max_iter = 0;
    assert_int_equal(kpca_preimage(&md, fit.x, M, DIM, 2, &p, z, NULL, NULL, &err), KPCA_EUSAGE);
    p = kpca_preimage_defaults();
    const double bad_tol[] = {0.0, -1.0, NAN, INFINITY};
    for (size_t i = 0; i < 4; i++) {
        p.tol = bad_tol[i];
        assert_int_equal(kpca_preimage(&md, fit.x, M, DIM, 2, &p, z, NULL, NULL, &err), KPCA_EUSAGE);
    }
    p = kpca_preimage_defaults();
    kpca_preimage_info info;
    assert_int_equal(kpca_preimage(&md, fit.x, 0, DIM, 2, &p, z, NULL, &info, NULL), KPCA_OK);
    assert_int_equal(info.points, 0);
    /* NULL err is allowed */
    assert_int_equal(kpca_preimage(&md, fit.x, M, DIM, 0, &p, z, NULL, NULL, NULL), KPCA_EUSAGE);
    kpca_model_free(&md);
    kpca_dataset_free(&fit);
}

static void test_noise(void **state)
{
    (void)state;
    enum { N = 1000, DIM = 101 }; /* an odd count: the last value of a pair */
    kpca_dataset a, b;
    kpca_error err;
    assert_int_equal(kpca_dataset_alloc(&a, N, DIM, &err), KPCA_OK);
    assert_int_equal(kpca_dataset_alloc(&b, N, DIM, &err), KPCA_OK);
    kpca_dataset_add_noise(&a, 0.5, 9);
    kpca_dataset_add_noise(&b, 0.5, 9);
    assert_memory_equal(a.x, b.x, N * DIM * sizeof(double));
    double s1 = 0.0, s2 = 0.0;
    for (size_t i = 0; i < N * DIM; i++) {
        assert_true(isfinite(a.x[i]));
        s1 += a.x[i];
        s2 += a.x[i] * a.x[i];
    }
    double mean = s1 / (N * DIM), sd = sqrt(s2 / (N * DIM) - mean * mean);
    assert_true(fabs(mean) < 0.01);
    assert_true(fabs(sd - 0.5) < 0.01);
    assert_true(a.x[N * DIM - 1] != 0.0);
    kpca_dataset_add_noise(&b, 0.5, 10); /* another seed: other numbers */
    assert_true(memcmp(a.x, b.x, N * DIM * sizeof(double)) != 0);
    kpca_dataset_free(&a);
    kpca_dataset_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_is_pca),
        cmocka_unit_test(test_rbf_all_components_fit_point),
        cmocka_unit_test(test_objective_decreases),
        cmocka_unit_test(test_denoise_curve),
        cmocka_unit_test(test_undefined_step_restarts),
        cmocka_unit_test(test_plain_poly_oscillates),
        cmocka_unit_test(test_deterministic_and_blocks),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_noise),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
