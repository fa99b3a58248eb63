/* test_model.c - kernel PCA fit and projection (core/model.h), checked
 * against an independent plain-loop implementation of the paper's formulas
 * and, for the linear kernel, against ordinary PCA.  The model file:
 * test_model_io*.c; errors and the progress hook: test_model_errors.c;
 * approximate solvers through the fit: test_model_approx.c. */
#include "testutil.h"

#include "lib/file/h5util.h"

#include <dirent.h>
#include <hdf5.h>
#include <lapacke.h>
#include <sys/stat.h>

#include "model_fixture.h"

/* ---- the independent reference (plain loops, kpca_kernel_eval) ----------- */

typedef struct {
    size_t m, dim;
    double *K;       /* centred kernel matrix, m x m */
    double *colmean; /* column means of the uncentred K */
    double grand;
    double kmax;     /* largest |uncentred K| (the rounding scale) */
    double raw_trace; /* trace of the uncentred K */
    double trace;
} reference;

static void ref_build(const kpca_kernel *k, const kpca_dataset *ds, reference *r)
{
    const size_t m = ds->n, dim = ds->dim;
    r->m = m;
    r->dim = dim;
    r->K = malloc(m * m * sizeof(double));
    r->colmean = calloc(m, sizeof(double));
    assert_true(r->K && r->colmean);
    r->kmax = 0.0;
    r->raw_trace = 0.0;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++) {
            double v = kpca_kernel_eval(k, ds->x + i * dim, ds->x + j * dim, dim);
            r->K[i * m + j] = v;
            r->kmax = fmax(r->kmax, fabs(v));
            if (i == j)
                r->raw_trace += v;
        }
    double g = 0.0;
    for (size_t j = 0; j < m; j++) {
        for (size_t i = 0; i < m; i++)
            r->colmean[j] += r->K[i * m + j];
        r->colmean[j] /= (double)m;
        g += r->colmean[j];
    }
    g /= (double)m;
    r->grand = g;
    /* K~ = K - 1K - K1 + 1K1 (K symmetric: row mean i = column mean i) */
    r->trace = 0.0;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++) {
            r->K[i * m + j] += -r->colmean[j] - r->colmean[i] + g;
            if (i == j)
                r->trace += r->K[i * m + j];
        }
}

static void ref_free(reference *r)
{
    free(r->K);
    free(r->colmean);
}

/* The paper's projection: z_c(x) = sum_i alpha_c[i] k~(x_i, x), with
 * k~(x_i, x) = k(x_i, x) - colmean_i - mean_j k(x_j, x) + grand. */
static void ref_project(const kpca_kernel *k, const reference *r, const kpca_dataset *fitds, const double *alpha,
                        size_t ncomp, const double *x, size_t n, double *z)
{
    const size_t m = r->m, dim = r->dim;
    double *kx = malloc(m * sizeof *kx);
    assert_non_null(kx);
    for (size_t p = 0; p < n; p++) {
        double mean = 0.0;
        for (size_t i = 0; i < m; i++) {
            kx[i] = kpca_kernel_eval(k, fitds->x + i * dim, x + p * dim, dim);
            mean += kx[i];
        }
        mean /= (double)m;
        for (size_t i = 0; i < m; i++)
            kx[i] = kx[i] - r->colmean[i] - mean + r->grand;
        for (size_t c = 0; c < ncomp; c++) {
            double s = 0.0;
            for (size_t i = 0; i < m; i++)
                s += alpha[c * m + i] * kx[i];
            z[p * ncomp + c] = s;
        }
    }
    free(kx);
}

/* ---- fit and projection ------------------------------------------------------- */

/* the noise floor of model.h: tol * max(mu_1, trace of the uncentred K) */
static double floor_mu_of(const kpca_fit_info *info, double mu1, double raw_trace)
{
    return info->tol * fmax(mu1, raw_trace);
}

/* Every property of a fit with the kernel kern; degree names it in messages. */
static void check_kernel_model(const kpca_kernel *kern, kpca_eig_method eig, size_t comps)
{
    data();
    kpca_model md;
    kpca_fit_info info;
    const int degree = kern->degree;
    const int psd = kern->type != KPCA_KERNEL_SIGMOID;
    {
        kpca_fit_params p = kpca_fit_defaults(1);
        p.kernel = *kern;
        p.components = comps;
        p.eig = eig;
        kpca_error ferr;
        if (kpca_model_fit(&g_fit, &p, &md, &info, &ferr) != KPCA_OK)
            fail_msg("fit %s: %s", kpca_kernel_name(kern->type), ferr.msg);
    }
    assert_int_equal(md.kernel.type, kern->type);
    const size_t m = MFIT, k = md.k, dim = 256;
    size_t want = comps ? comps : m;
    assert_int_equal(md.m, m);
    assert_int_equal(md.dim, dim);
    assert_int_equal(info.requested, want);
    assert_int_equal(info.kept, k);
    assert_int_equal(info.eig_used, kpca_eig_resolve(eig, m, want));
    assert_true(k >= 1 && k <= want);
    assert_true(k <= m - 1); /* the centred K has the constant vector in its null space */
    assert_memory_equal(md.fitx, g_fit.x, m * dim * sizeof(double));
    assert_memory_equal(md.fity, g_fit.y, m * sizeof(int));
    double lo, hi;
    kpca_dataset_range(&g_fit, &lo, &hi);
    assert_true(md.input_lo == lo && md.input_hi == hi);
    kpca_error err;
    assert_int_equal(kpca_model_validate(&md, "fitted", &err), KPCA_OK);

    reference r;
    ref_build(&md.kernel, &g_fit, &r);
    const double mu1 = md.eigval[0];

    /* statistics of the centring */
    for (size_t i = 0; i < m; i++)
        assert_true(fabs(md.colmean[i] - r.colmean[i]) <= 1e-12 * r.kmax);
    assert_true(fabs(md.grandmean - r.grand) <= 1e-12 * r.kmax);
    assert_true(fabs(md.trace - r.trace) <= 1e-10 * r.trace);

    /* eigenvalues: positive, descending, the largest of the reference K~ */
    double *w = malloc(m * sizeof *w), *Kc = malloc(m * m * sizeof *Kc);
    assert_true(w && Kc);
    memcpy(Kc, r.K, m * m * sizeof *Kc);
    assert_int_equal(LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', (lapack_int)m, Kc, (lapack_int)m, w), 0);
    double sum = 0.0;
    for (size_t c = 0; c < k; c++) {
        assert_true(md.eigval[c] > 0.0);
        if (c > 0)
            assert_true(md.eigval[c] <= md.eigval[c - 1]);
        if (!(fabs(md.eigval[c] - w[m - 1 - c]) <= 1e-10 * w[m - 1]))
            fail_msg("degree %d: eigenvalue %zu is %.17g, reference %.17g", degree, c, md.eigval[c], w[m - 1 - c]);
        sum += md.eigval[c];
    }
    /* the trace sums every eigenvalue; with a PSD kernel none is negative */
    if (psd)
        assert_true(sum <= md.trace * (1.0 + 1e-10));
    if (comps == 0 && psd) /* all components: the kept ones carry the whole trace */
        assert_true(fabs(sum - md.trace) <= 1e-9 * md.trace);
    if (!psd) { /* sigmoid: the dropped eigenvalues include negative ones, counted */
        assert_true(w[0] < 0.0);
        if (comps == 0)
            assert_true(info.negative >= 1);
        size_t neg = 0;
        for (size_t c = k; c < want; c++)
            neg += w[m - 1 - c] < -floor_mu_of(&info, mu1, r.raw_trace);
        assert_int_equal(info.negative, neg);
    }
    /* kept above the noise floor, the dropped ones below it (the floor is
     * tol * max(mu_1, trace of the uncentred K), see model.h) */
    const double floor_mu = info.tol * fmax(mu1, r.raw_trace);
    assert_true(info.tol > 0.0 && info.tol < 1e-9);
    assert_true(md.eigval[k - 1] > floor_mu);
    if (k < want)
        assert_true(w[m - 1 - k] <= floor_mu * (1.0 + 1e-6) + 1e-12 * mu1);

    /* normalisation mu_c (alpha_c . alpha_c) = 1, and the eigen-equation
     * K~ u_c = mu_c u_c with u_c = sqrt(mu_c) alpha_c and the reference K~ */
    for (size_t c = 0; c < k; c++) {
        const double *a = md.alpha + c * m;
        double aa = 0.0;
        for (size_t i = 0; i < m; i++)
            aa += a[i] * a[i];
        if (!(fabs(md.eigval[c] * aa - 1.0) <= 1e-10))
            fail_msg("degree %d component %zu: mu alpha.alpha = %.17g", degree, c, md.eigval[c] * aa);
        double sq = sqrt(md.eigval[c]), res = 0.0;
        for (size_t i = 0; i < m; i++) {
            double s = 0.0;
            for (size_t j = 0; j < m; j++)
                s += r.K[i * m + j] * a[j] * sq;
            s -= md.eigval[c] * a[i] * sq;
            res += s * s;
        }
        if (!(sqrt(res) <= 1e-10 * mu1))
            fail_msg("degree %d component %zu: eigen residual %g (mu_1 %g)", degree, c, sqrt(res), mu1);
    }

    /* projections of the fit points: z_c = sqrt(mu_c) u_c = mu_c alpha_c */
    double *z = malloc(m * k * sizeof *z), *zr = malloc(m * k * sizeof *zr);
    assert_true(z && zr);
    assert_int_equal(kpca_model_transform(&md, g_fit.x, m, dim, k, z, &err), KPCA_OK);
    ref_project(&md.kernel, &r, &g_fit, md.alpha, k, g_fit.x, m, zr);
    double worst_rel = 0.0;
    for (size_t c = 0; c < k; c++) {
        const double mu = md.eigval[c];
        double alpha1 = 0.0; /* ||alpha_c||_1: the rounding scale of z_c */
        for (size_t i = 0; i < m; i++)
            alpha1 += fabs(md.alpha[c * m + i]);
        const double round_tol = 1e-13 * r.kmax * alpha1;
        double zz = 0.0, zmax = 0.0;
        for (size_t i = 0; i < m; i++) {
            double zi = z[i * k + c];
            zz += zi * zi;
            zmax = fmax(zmax, fabs(zr[i * k + c]));
            /* equals mu_c alpha_c */
            if (!(fabs(zi - mu * md.alpha[c * m + i]) <= 1e-8 * sqrt(mu) + round_tol))
                fail_msg("degree %d: z[%zu][%zu] = %.17g, mu alpha = %.17g", degree, i, c, zi,
                         mu * md.alpha[c * m + i]);
        }
        /* ||z_c||^2 = mu_c */
        if (!(fabs(zz / mu - 1.0) <= 1e-8 + 2.0 * round_tol * sqrt((double)m) / sqrt(mu)))
            fail_msg("degree %d component %zu: ||z||^2 / mu = %.17g", degree, c, zz / mu);
        /* equals the plain-loop projection (1e-8 relative, or rounding) */
        for (size_t i = 0; i < m; i++) {
            double e = fabs(z[i * k + c] - zr[i * k + c]);
            if (!(e <= 1e-8 * zmax + round_tol))
                fail_msg("degree %d: fit point %zu component %zu: %.17g vs reference %.17g", degree, i, c,
                         z[i * k + c], zr[i * k + c]);
            if (mu >= 1e-4 * mu1)
                worst_rel = fmax(worst_rel, e / zmax);
        }
    }
    if (!(worst_rel <= 1e-8))
        fail_msg("degree %d: relative error %g on the leading components", degree, worst_rel);
    /* z_c / sqrt(mu_c) orthonormal across c (the leading components) */
    size_t lead = 0;
    while (lead < k && md.eigval[lead] >= 1e-4 * mu1)
        lead++;
    assert_true(lead >= 1);
    for (size_t a = 0; a < lead; a++)
        for (size_t b = 0; b <= a; b++) {
            double s = 0.0;
            for (size_t i = 0; i < m; i++)
                s += z[i * k + a] * z[i * k + b];
            s /= sqrt(md.eigval[a] * md.eigval[b]);
            if (!(fabs(s - (a == b ? 1.0 : 0.0)) <= 1e-8))
                fail_msg("degree %d: <z_%zu, z_%zu> / sqrt(mu mu) = %.17g", degree, a, b, s);
        }
    free(z);
    free(zr);

    /* new points (across a transform block edge), fewer components */
    const size_t n = MNEW, kk = k < 40 ? k : 40;
    z = malloc(n * kk * sizeof *z);
    zr = malloc(n * kk * sizeof *zr);
    assert_true(z && zr);
    assert_int_equal(kpca_model_transform(&md, g_new.x, n, dim, kk, z, &err), KPCA_OK);
    ref_project(&md.kernel, &r, &g_fit, md.alpha, kk, g_new.x, n, zr);
    for (size_t c = 0; c < kk; c++) {
        double zmax = 0.0, alpha1 = 0.0;
        for (size_t i = 0; i < n; i++)
            zmax = fmax(zmax, fabs(zr[i * kk + c]));
        for (size_t i = 0; i < m; i++)
            alpha1 += fabs(md.alpha[c * m + i]);
        const double tol = (md.eigval[c] >= 1e-4 * mu1 ? 1e-8 * zmax : 0.0) + 1e-13 * r.kmax * alpha1;
        for (size_t i = 0; i < n; i++)
            if (!(fabs(z[i * kk + c] - zr[i * kk + c]) <= tol))
                fail_msg("degree %d: new point %zu component %zu: %.17g vs reference %.17g", degree, i, c,
                         z[i * kk + c], zr[i * kk + c]);
    }
    /* a prefix of components is a prefix of the columns */
    double *z3 = malloc(n * 3 * sizeof *z3);
    assert_non_null(z3);
    assert_int_equal(kpca_model_transform(&md, g_new.x, n, dim, 3 < kk ? 3 : kk, z3, &err), KPCA_OK);
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < (3 < kk ? 3 : kk); c++)
            assert_true(fabs(z3[i * (3 < kk ? 3 : kk) + c] - z[i * kk + c]) <= 1e-12 * (1.0 + fabs(z[i * kk + c])));
    free(z3);
    free(z);
    free(zr);
    free(w);
    free(Kc);
    ref_free(&r);
    kpca_model_free(&md);
    assert_null(md.alpha);
}

static void check_model(int degree, kpca_eig_method eig, size_t comps)
{
    kpca_kernel k = kpca_kernel_poly(degree);
    check_kernel_model(&k, eig, comps);
}

static void test_fit_degree2(void **state)
{
    (void)state;
    check_model(2, KPCA_EIG_AUTO, 0);
}

/* the other kernels pass every check of the paper's (rbf with the default
 * width, a small one, sigmoid with its negative eigenvalues, linear) */
static void test_fit_other_kernels(void **state)
{
    (void)state;
    data();
    kpca_kernel k = kpca_kernel_rbf(kpca_kernel_default_sigma(g_fit.x, g_fit.n, g_fit.dim));
    check_kernel_model(&k, KPCA_EIG_AUTO, 0);
    k = kpca_kernel_rbf(3.0);
    check_kernel_model(&k, KPCA_EIG_EVR, 25);
    k = kpca_kernel_sigmoid(1.0 / 256.0, 1.0);
    check_kernel_model(&k, KPCA_EIG_AUTO, 0);
    k = kpca_kernel_linear();
    check_kernel_model(&k, KPCA_EIG_AUTO, 0);
}

static void test_fit_degree3(void **state)
{
    (void)state;
    check_model(3, KPCA_EIG_AUTO, 0);
}

static void test_fit_few_components_evr(void **state)
{
    (void)state;
    check_model(2, KPCA_EIG_EVR, 20);
    check_model(3, KPCA_EIG_AUTO, 30); /* AUTO resolves to EVR here */
    check_model(3, KPCA_EIG_EVD, 30);
}


/* An exact model's fit points, mixed with other rows and repeated, project
 * to mu alpha exactly (no kernel values computed for them), the other rows
 * as when projected alone, and both agree with the plain-loop projection. */
static void test_transform_fit_points(void **state)
{
    (void)state;
    data();
    kpca_fit_params p = kpca_fit_defaults(3);
    p.components = 12;
    kpca_model md;
    kpca_error err;
    assert_int_equal(kpca_model_fit(&g_fit, &p, &md, NULL, &err), KPCA_OK);
    const size_t k = md.k, dim = 256, n = 1030; /* more than a block of other rows */
    static const size_t fitrow[] = {5, 0, 299, 5, 17};
    double *x = malloc(n * dim * sizeof *x), *z = malloc(n * k * sizeof *z);
    double *zo = malloc(n * k * sizeof *zo), *zr = malloc(k * sizeof *zr);
    assert_true(x && z && zo && zr);
    size_t *src = malloc(n * sizeof *src); /* fit row j as j, new row i as MFIT + i */
    assert_non_null(src);
    size_t nnew = 0;
    for (size_t r = 0; r < n; r++) {
        int fitp = r % 211 == 3 && r / 211 < 5;
        src[r] = fitp ? fitrow[r / 211] : MFIT + nnew++;
        memcpy(x + r * dim, fitp ? g_fit.x + src[r] * dim : g_new.x + (src[r] - MFIT) * dim, dim * sizeof(double));
    }
    assert_int_equal(kpca_model_transform(&md, x, n, dim, k, z, &err), KPCA_OK);
    assert_int_equal(kpca_model_transform(&md, g_new.x, nnew, dim, k, zo, &err), KPCA_OK);
    reference r;
    ref_build(&md.kernel, &g_fit, &r);
    for (size_t row = 0; row < n; row++) {
        if (src[row] < MFIT) {
            size_t j = src[row];
            for (size_t c = 0; c < k; c++)
                assert_true(z[row * k + c] == md.eigval[c] * md.alpha[c * md.m + j]);
            ref_project(&md.kernel, &r, &g_fit, md.alpha, k, g_fit.x + j * dim, 1, zr);
            for (size_t c = 0; c < k; c++)
                if (!(fabs(z[row * k + c] - zr[c]) <= 1e-9 * sqrt(md.eigval[0])))
                    fail_msg("fit point %zu, component %zu: %.17g, plain loops %.17g", j, c, z[row * k + c], zr[c]);
        } else {
            size_t i = src[row] - MFIT;
            for (size_t c = 0; c < k; c++)
                if (!(fabs(z[row * k + c] - zo[i * k + c]) <= 1e-12 * sqrt(md.eigval[0])))
                    fail_msg("row %zu (new point %zu), component %zu: %.17g alone %.17g", row, i, c, z[row * k + c],
                             zo[i * k + c]);
        }
    }
    ref_free(&r);
    free(x);
    free(z);
    free(zo);
    free(zr);
    free(src);
    kpca_model_free(&md);
}

/* ---- linear kernel = ordinary PCA -------------------------------------------- */

static void test_linear_is_pca(void **state)
{
    (void)state;
    data();
    const size_t m = MFIT, d = 256;
    kpca_model md;
    kpca_fit_info info;
    fit(&g_fit, 1, m - 1, KPCA_EIG_AUTO, &md, &info);
    assert_int_equal(info.requested, m - 1);
    assert_true(md.k >= 1 && md.k <= d);

    /* PCA, independently: mean, covariance with plain loops, dsyevd */
    double *mean = calloc(d, sizeof *mean), *cov = calloc(d * d, sizeof *cov), *lam = malloc(d * sizeof *lam);
    assert_true(mean && cov && lam);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < d; j++)
            mean[j] += g_fit.x[i * d + j];
    for (size_t j = 0; j < d; j++)
        mean[j] /= (double)m;
    for (size_t i = 0; i < m; i++) {
        const double *x = g_fit.x + i * d;
        for (size_t a = 0; a < d; a++)
            for (size_t b = 0; b < d; b++)
                cov[a * d + b] += (x[a] - mean[a]) * (x[b] - mean[b]);
    }
    for (size_t i = 0; i < d * d; i++)
        cov[i] /= (double)m;
    /* column-major view of the symmetric matrix: eigenvector c is row c */
    assert_int_equal(LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'U', (lapack_int)d, cov, (lapack_int)d, lam), 0);
    const double lam1 = lam[d - 1];

    /* KPCA eigenvalues = m * covariance eigenvalues; the kept count is the rank */
    for (size_t c = 0; c < md.k; c++)
        if (!(fabs(md.eigval[c] - (double)m * lam[d - 1 - c]) <= 1e-10 * (double)m * lam1))
            fail_msg("component %zu: kpca %.17g, m * pca %.17g", c, md.eigval[c], (double)m * lam[d - 1 - c]);
    if (md.k < d)
        assert_true(lam[d - 1 - md.k] <= 1e-10 * lam1);

    /* projections (x - mean) . v agree up to sign, for fit and new points */
    const kpca_dataset *sets[2] = {&g_fit, &g_new};
    const size_t kc = 40; /* leading components, well separated */
    for (size_t c = 0; c + 1 < kc; c++)
        assert_true(lam[d - 1 - c] - lam[d - 2 - c] > 1e-6 * lam1);
    for (int s = 0; s < 2; s++) {
        const kpca_dataset *ds = sets[s];
        double *z = malloc(ds->n * kc * sizeof *z);
        assert_non_null(z);
        kpca_error err;
        assert_int_equal(kpca_model_transform(&md, ds->x, ds->n, d, kc, z, &err), KPCA_OK);
        for (size_t c = 0; c < kc; c++) {
            const double *v = cov + (d - 1 - c) * d;
            double *p = malloc(ds->n * sizeof *p);
            assert_non_null(p);
            double dot = 0.0, pmax = 0.0;
            for (size_t i = 0; i < ds->n; i++) {
                double t = 0.0;
                for (size_t j = 0; j < d; j++)
                    t += (ds->x[i * d + j] - mean[j]) * v[j];
                p[i] = t;
                dot += t * z[i * kc + c];
                pmax = fmax(pmax, fabs(t));
            }
            double sgn = dot >= 0.0 ? 1.0 : -1.0;
            for (size_t i = 0; i < ds->n; i++)
                if (!(fabs(z[i * kc + c] - sgn * p[i]) <= 1e-8 * pmax))
                    fail_msg("set %d point %zu component %zu: kpca %.17g, pca %.17g", s, i, c, z[i * kc + c],
                             sgn * p[i]);
            free(p);
        }
        free(z);
    }
    free(mean);
    free(cov);
    free(lam);
    kpca_model_free(&md);
}


static void test_fit_check(void **state)
{
    (void)state;
    kpca_error err;
    const char *param = "unset";
    kpca_fit_params p = kpca_fit_defaults(3);
    assert_int_equal(kpca_fit_check(&p, 0, &param, &err), KPCA_OK);
    assert_null(param);
    p.components = 500; /* more than 100 points: only known with m */
    assert_int_equal(kpca_fit_check(&p, 0, &param, &err), KPCA_OK);
    assert_int_equal(kpca_fit_check(&p, 100, &param, &err), KPCA_EUSAGE);
    assert_string_equal(param, "components");
    assert_non_null(strstr(err.msg, "100 fit points"));
    p = kpca_fit_defaults(3);
    p.kernel.coef0 = -1.0;
    assert_int_equal(kpca_fit_check(&p, 0, &param, &err), KPCA_EUSAGE);
    assert_string_equal(param, "coef0");
    p = kpca_fit_defaults(3);
    p.variance = 0.9;
    assert_int_equal(kpca_fit_check(&p, 0, &param, &err), KPCA_OK);
    p.eig = KPCA_EIG_EVR;
    assert_int_equal(kpca_fit_check(&p, 0, &param, &err), KPCA_EUSAGE);
    assert_string_equal(param, "variance");
    assert_non_null(strstr(err.msg, "evr"));
    p.eig = KPCA_EIG_AUTO;
    p.solver = KPCA_SOLVER_RANDOMIZED;
    assert_int_equal(kpca_fit_check(&p, 0, &param, &err), KPCA_EUSAGE);
    assert_non_null(strstr(err.msg, "exact solver"));
    p.variance = 0.0;
    assert_int_equal(kpca_fit_check(&p, 0, &param, &err), KPCA_EUSAGE);
    assert_string_equal(param, "components");
    assert_non_null(strstr(err.msg, "needs the number of components"));
    p = kpca_fit_defaults(3);
    p.variance = 0.9;
    assert_int_equal(kpca_fit_check(&p, 46339, &param, &err), KPCA_EUSAGE);
    assert_non_null(strstr(err.msg, "46338"));
    /* on the GPU (cuSOLVER's 64-bit API) LAPACK's limit does not apply, in
     * either precision; the handle is only compared with NULL here */
    p.cuda = (struct kpca_cuda *)&p;
    assert_int_equal(kpca_fit_check(&p, 46339, &param, &err), KPCA_OK);
    p.precision = KPCA_PRECISION_SINGLE;
    assert_int_equal(kpca_fit_check(&p, 46339, &param, &err), KPCA_OK);
    p.solver = KPCA_SOLVER_RANDOMIZED;
    p.variance = 0.0;
    p.components = 5;
    assert_int_equal(kpca_fit_check(&p, 0, &param, &err), KPCA_EUSAGE);
    assert_string_equal(param, "device");
    p = kpca_fit_defaults(3);
    p.solver = KPCA_SOLVER_NYSTROM;
    p.landmarks = 50;
    assert_int_equal(kpca_fit_check(&p, 40, &param, &err), KPCA_EUSAGE);
    assert_string_equal(param, "landmarks");
    p.landmarks = 30;
    p.components = 31;
    assert_int_equal(kpca_fit_check(&p, 40, &param, &err), KPCA_EUSAGE);
    assert_string_equal(param, "components");
    assert_non_null(strstr(err.msg, "30 landmarks"));
    p.components = 30;
    assert_int_equal(kpca_fit_check(&p, 40, &param, &err), KPCA_OK);
    assert_null(param);
    /* an rbf kernel's sigma is a data-dependent default: checked with m only */
    p = kpca_fit_defaults(1);
    p.kernel = kpca_kernel_rbf(0.0);
    assert_int_equal(kpca_fit_check(&p, 0, &param, &err), KPCA_OK);
    assert_int_equal(kpca_fit_check(&p, 10, &param, &err), KPCA_EUSAGE);
    assert_string_equal(param, "sigma");
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_check),
        cmocka_unit_test(test_fit_degree2),
        cmocka_unit_test(test_fit_degree3),
        cmocka_unit_test(test_fit_few_components_evr),
        cmocka_unit_test(test_transform_fit_points),
        cmocka_unit_test(test_fit_other_kernels),
        cmocka_unit_test(test_linear_is_pca),
    };
    return cmocka_run_group_tests(tests, NULL, teardown_all);
}
