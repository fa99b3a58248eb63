/* test_model.c - kernel PCA fit, projection and the model file, checked
 * against an independent plain-loop implementation of the paper's formulas
 * and, for the linear kernel, against ordinary PCA. */
#include "testutil.h"

#include "lib/io/h5util.h"

#include <dirent.h>
#include <hdf5.h>
#include <lapacke.h>
#include <sys/stat.h>

#define MFIT 300
#define MNEW 1100 /* more than KPCA_TRANSFORM_BLOCK, to cross a block edge */

static kpca_dataset g_fit, g_new; /* loaded once (see data()) */
static int g_loaded = 0;

static void data(void)
{
    if (!g_loaded) {
        tu_usps(&g_fit, "zip.train.gz", MFIT);
        tu_usps(&g_new, "zip.test.gz", MNEW);
        g_loaded = 1;
    }
    assert_int_equal(g_fit.n, MFIT);
    assert_int_equal(g_fit.dim, 256);
    assert_int_equal(g_new.n, MNEW);
}

static int teardown_all(void **state)
{
    (void)state;
    if (g_loaded) {
        kpca_dataset_free(&g_fit);
        kpca_dataset_free(&g_new);
    }
    return 0;
}

static void ensure_out(void)
{
    mkdir("tests", 0777);
    mkdir("tests/out", 0777);
}

static void fit(const kpca_dataset *ds, int degree, size_t comps, kpca_eig_method eig, kpca_model *md,
                kpca_fit_info *info)
{
    kpca_fit_params p = kpca_fit_defaults(degree);
    p.components = comps;
    p.eig = eig;
    kpca_error err;
    kpca_status st = kpca_model_fit(ds, &p, md, info, &err);
    if (st != KPCA_OK)
        fail_msg("fit degree %d: %s", degree, err.msg);
}

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

/* ---- the model file ------------------------------------------------------------ */

static const char *model_path = "tests/out/model_d2.h5";

static void save_model(kpca_model *md)
{
    ensure_out();
    kpca_error err;
    kpca_status st = kpca_model_save(md, model_path, &err);
    if (st != KPCA_OK)
        fail_msg("save: %s", err.msg);
}

static void assert_models_identical(const kpca_model *a, const kpca_model *b)
{
    assert_int_equal(a->kernel.type, b->kernel.type);
    assert_int_equal(a->kernel.degree, b->kernel.degree);
    assert_memory_equal(&a->kernel.gamma, &b->kernel.gamma, sizeof(double));
    assert_memory_equal(&a->kernel.coef0, &b->kernel.coef0, sizeof(double));
    if (a->kernel.type == KPCA_KERNEL_RBF)
        assert_memory_equal(&a->kernel.sigma, &b->kernel.sigma, sizeof(double));
    assert_int_equal(a->m, b->m);
    assert_int_equal(a->dim, b->dim);
    assert_int_equal(a->k, b->k);
    assert_memory_equal(a->fitx, b->fitx, a->m * a->dim * sizeof(double));
    assert_memory_equal(a->fity, b->fity, a->m * sizeof(int));
    assert_memory_equal(a->alpha, b->alpha, a->k * a->m * sizeof(double));
    assert_memory_equal(a->eigval, b->eigval, a->k * sizeof(double));
    assert_memory_equal(a->colmean, b->colmean, a->m * sizeof(double));
    assert_memory_equal(&a->grandmean, &b->grandmean, sizeof(double));
    assert_memory_equal(&a->trace, &b->trace, sizeof(double));
    assert_memory_equal(&a->input_lo, &b->input_lo, sizeof(double));
    assert_memory_equal(&a->input_hi, &b->input_hi, sizeof(double));
    assert_string_equal(a->source, b->source);
}

static int no_temp_files(void)
{
    DIR *d = opendir("tests/out");
    assert_non_null(d);
    struct dirent *e;
    int clean = 1;
    while ((e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".tmp.") != NULL)
            clean = 0;
    closedir(d);
    return clean;
}

static void test_save_load_roundtrip(void **state)
{
    (void)state;
    data();
    kpca_model md, back;
    fit(&g_fit, 2, 0, KPCA_EIG_AUTO, &md, NULL);
    snprintf(md.source, sizeof md.source, "zip.train.gz rows 1-%d", MFIT);
    save_model(&md);
    save_model(&md); /* replacing an existing file works too */
    assert_true(no_temp_files());
    kpca_error err;
    kpca_status st = kpca_model_load(model_path, &back, &err);
    if (st != KPCA_OK)
        fail_msg("load: %s", err.msg);
    assert_models_identical(&md, &back);

    const size_t n = 300, k = md.k;
    double *z1 = malloc(n * k * sizeof *z1), *z2 = malloc(n * k * sizeof *z2);
    assert_true(z1 && z2);
    assert_int_equal(kpca_model_transform(&md, g_new.x, n, 256, k, z1, &err), KPCA_OK);
    assert_int_equal(kpca_model_transform(&back, g_new.x, n, 256, k, z2, &err), KPCA_OK);
    assert_memory_equal(z1, z2, n * k * sizeof *z1);
    free(z1);
    free(z2);
    kpca_model_free(&back);

    /* an invalid model is not written */
    double saved = md.eigval[0];
    md.eigval[0] = -1.0;
    assert_int_equal(kpca_model_save(&md, "tests/out/model_bad.h5", &err), KPCA_EFORMAT);
    struct stat sb;
    assert_int_not_equal(stat("tests/out/model_bad.h5", &sb), 0);
    md.eigval[0] = saved;
    /* nor one into a missing directory */
    assert_int_equal(kpca_model_save(&md, "tests/out/no/such/dir/m.h5", &err), KPCA_EIO);
    assert_true(no_temp_files());
    kpca_model_free(&md);

    /* every kernel survives the file with its own parameters */
    const kpca_kernel ks[] = {kpca_kernel_rbf(7.25), kpca_kernel_sigmoid(0.01, -0.5), kpca_kernel_linear()};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        kpca_fit_params p = kpca_fit_defaults(1);
        p.kernel = ks[i];
        p.components = 12;
        assert_int_equal(kpca_model_fit(&g_fit, &p, &md, NULL, &err), KPCA_OK);
        save_model(&md);
        st = kpca_model_load(model_path, &back, &err);
        if (st != KPCA_OK)
            fail_msg("load %s: %s", kpca_kernel_name(ks[i].type), err.msg);
        assert_models_identical(&md, &back);
        kpca_model_free(&back);
        kpca_model_free(&md);
    }
}

/* Loading path fails with code, and the message is the one of the check
 * expected to fire (it contains `fired`): a test of the loader's own checks
 * must not pass because the seal stopped the file first. */
static void expect_load_fails(const char *path, kpca_status code, const char *fired, const char *what)
{
    kpca_model md;
    kpca_error err;
    kpca_error_clear(&err);
    kpca_status st = kpca_model_load(path, &md, &err);
    if (st != code)
        fail_msg("%s: load gave %d (%s), expected %d", what, (int)st, err.msg, (int)code);
    assert_true(err.msg[0] != '\0');
    assert_non_null(strstr(err.msg, path));
    if (strstr(err.msg, fired) == NULL)
        fail_msg("%s: the wrong check fired: '%s', expected one saying '%s'", what, err.msg, fired);
    assert_null(md.alpha);
    assert_null(md.fitx);
    assert_int_equal(md.k, 0);
}

/* File offset of a contiguous dataset's raw data. */
static haddr_t dataset_offset(const char *path, const char *name, size_t *bytes)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    assert_true(d >= 0);
    haddr_t off = H5Dget_offset(d);
    *bytes = (size_t)H5Dget_storage_size(d);
    H5Dclose(d);
    H5Fclose(f);
    assert_true(off != HADDR_UNDEF);
    return off;
}

static void test_damaged_model_files(void **state)
{
    (void)state;
    data();
    kpca_model md;
    fit(&g_fit, 2, 0, KPCA_EIG_AUTO, &md, NULL);
    save_model(&md);
    kpca_model_free(&md);
    size_t len;
    unsigned char *buf = tu_slurp(model_path, &len);
    const char *bad = "tests/out/model_damaged.h5";

    /* truncated copies */
    const size_t cuts[] = {0, 100, 2048, len / 2, len - 8, len - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        tu_write_bytes(bad, buf, cuts[i]);
        char what[64];
        snprintf(what, sizeof what, "truncated to %zu of %zu bytes", cuts[i], len);
        expect_load_fails(bad, KPCA_EFORMAT, cuts[i] < KPCA_H5_SEAL_SIZE ? "no kpca seal" : "where its seal says",
                          what);
    }

    /* one byte flipped in the middle of each array, and of the file */
    const char *arrays[] = {"alpha", "fit_x", "eigenvalues", "colmean", "fit_y"};
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++) {
        size_t bytes;
        haddr_t off = dataset_offset(model_path, arrays[a], &bytes);
        assert_true(off + bytes <= len);
        const size_t spots[] = {off + bytes / 2, off, off + bytes - 1};
        for (size_t s = 0; s < 3; s++) {
            unsigned char *copy = malloc(len + 1);
            assert_non_null(copy);
            memcpy(copy, buf, len);
            copy[spots[s]] ^= 0x01; /* the smallest change: one low bit */
            tu_write_bytes(bad, copy, len);
            free(copy);
            char what[96];
            snprintf(what, sizeof what, "bit flipped in '%s' at byte %zu", arrays[a], spots[s]);
            expect_load_fails(bad, KPCA_EFORMAT, "checksum mismatch (kpca seal)", what);
            /* sealed again: the model's own checksum of its arrays */
            tu_reseal(bad);
            snprintf(what, sizeof what, "bit flipped in '%s' at byte %zu, sealed again", arrays[a], spots[s]);
            expect_load_fails(bad, KPCA_EFORMAT, "checksum mismatch: the file is damaged", what);
        }
    }
    {
        unsigned char *copy = malloc(len + 1);
        assert_non_null(copy);
        memcpy(copy, buf, len);
        copy[len / 2] ^= 0xff;
        tu_write_bytes(bad, copy, len);
        free(copy);
        expect_load_fails(bad, KPCA_EFORMAT, "checksum mismatch (kpca seal)", "byte flipped in the middle of the file");
    }
    {
        unsigned char *copy = malloc(len + 1);
        assert_non_null(copy);
        memcpy(copy, buf, len);
        assert_true(len > 8);
        copy[1] ^= 0xff; /* the seal's signature */
        tu_write_bytes(bad, copy, len);
        expect_load_fails(bad, KPCA_EFORMAT, "no kpca seal", "damaged seal signature");
        copy[1] ^= 0xff;
        copy[KPCA_H5_SEAL_SIZE + 1] ^= 0xff; /* the HDF5 signature, after the user block */
        tu_write_bytes(bad, copy, len);
        free(copy);
        tu_reseal(bad);
        expect_load_fails(bad, KPCA_EFORMAT, "not an HDF5 file", "damaged HDF5 signature, sealed again");
    }
    free(buf);

    /* attributes altered through HDF5 itself (valid HDF5, wrong content) */
    struct {
        const char *name;
        double v;
    } alters[] = {{"trace", 1.0}, {"grandmean", 0.5}, {"gamma", 2.0}};
    for (size_t i = 0; i < sizeof alters / sizeof alters[0]; i++) {
        tu_write_bytes(bad, NULL, 0);
        size_t l2;
        unsigned char *b2 = tu_slurp(model_path, &l2);
        tu_write_bytes(bad, b2, l2);
        free(b2);
        hid_t f = H5Fopen(bad, H5F_ACC_RDWR, H5P_DEFAULT);
        assert_true(f >= 0);
        hid_t at = H5Aopen(f, alters[i].name, H5P_DEFAULT);
        assert_true(at >= 0);
        assert_true(H5Awrite(at, H5T_NATIVE_DOUBLE, &alters[i].v) >= 0);
        H5Aclose(at);
        H5Fclose(f);
        char what[64];
        snprintf(what, sizeof what, "attribute '%s' altered", alters[i].name);
        expect_load_fails(bad, KPCA_EFORMAT, "checksum mismatch (kpca seal)", what);
        tu_reseal(bad);
        snprintf(what, sizeof what, "attribute '%s' altered, sealed again", alters[i].name);
        expect_load_fails(bad, KPCA_EFORMAT, "checksum mismatch: the file is damaged", what);
    }
    {
        size_t l2;
        unsigned char *b2 = tu_slurp(model_path, &l2);
        tu_write_bytes(bad, b2, l2);
        free(b2);
        hid_t f = H5Fopen(bad, H5F_ACC_RDWR, H5P_DEFAULT);
        assert_true(f >= 0);
        hid_t at = H5Aopen(f, "version", H5P_DEFAULT);
        assert_true(at >= 0);
        long long v = KPCA_MODEL_VERSION + 1;
        assert_true(H5Awrite(at, H5T_NATIVE_LLONG, &v) >= 0);
        H5Aclose(at);
        H5Fclose(f);
        tu_reseal(bad);
        expect_load_fails(bad, KPCA_EFORMAT, "is not supported", "future version");
    }

    /* HDF5 files that are not models */
    expect_load_fails("data/usps.h5", KPCA_EFORMAT, "no kpca seal", "usps.h5");
    const double z[6] = {1, 2, 3, 4, 5, 6};
    const int y[3] = {0, 1, 2};
    kpca_error err;
    assert_int_equal(kpca_features_write("tests/out/features.h5", KPCA_FMT_HDF5, z, 3, 2, y, NULL, &err), KPCA_OK);
    expect_load_fails("tests/out/features.h5", KPCA_EFORMAT, "not a kpca model", "a features file");
    /* a text file, and a missing one */
    tu_write_file("not_a_model.txt", "1 2 3\n");
    expect_load_fails("tests/out/not_a_model.txt", KPCA_EFORMAT, "no kpca seal", "a text file");
    expect_load_fails("tests/out/no_such_model.h5", KPCA_EIO, "No such file", "a missing file");
}

/* ---- errors -------------------------------------------------------------------- */

static void test_identical_points(void **state)
{
    (void)state;
    data();
    const size_t n = 25;
    kpca_dataset ds;
    kpca_error err;
    for (size_t row = 0; row < 3; row++) {
        assert_int_equal(kpca_dataset_alloc(&ds, n, 256, &err), KPCA_OK);
        for (size_t i = 0; i < n; i++) {
            memcpy(ds.x + i * 256, g_fit.x + row * 256, 256 * sizeof(double));
            ds.y[i] = (int)i % 3;
        }
        for (int d = 1; d <= 4; d++) {
            kpca_fit_params p = kpca_fit_defaults(d);
            for (int e = KPCA_EIG_AUTO; e <= KPCA_EIG_EVR; e++) {
                p.eig = (kpca_eig_method)e;
                p.components = e == KPCA_EIG_EVR ? 2 : 0;
                kpca_model md;
                kpca_error_clear(&err);
                kpca_status st = kpca_model_fit(&ds, &p, &md, NULL, &err);
                if (st != KPCA_ENUMERIC)
                    fail_msg("row %zu degree %d eig %d: status %d (%s), k = %zu", row, d, e, (int)st, err.msg,
                             st == KPCA_OK ? md.k : 0);
                assert_true(err.msg[0] != '\0');
                assert_null(md.alpha);
                assert_null(md.fitx);
            }
        }
        /* one point moved: two distinct points in feature space span one
         * centred direction, so exactly one component, whatever the degree */
        ds.x[(n - 1) * 256 + 100] += 0.5;
        for (int d = 1; d <= 4; d++) {
            kpca_model md;
            fit(&ds, d, 0, KPCA_EIG_AUTO, &md, NULL);
            assert_int_equal(md.k, 1);
            kpca_model_free(&md);
            fit(&ds, d, 3, KPCA_EIG_EVR, &md, NULL);
            assert_int_equal(md.k, 1);
            kpca_model_free(&md);
        }
        kpca_dataset_free(&ds);
    }
}

static void test_bad_arguments(void **state)
{
    (void)state;
    data();
    kpca_model md;
    kpca_error err;
    kpca_fit_params p = kpca_fit_defaults(2);
    /* too few points, too many components, a bad kernel */
    kpca_dataset one;
    tu_random_dataset(&one, 1, 4, 1, 1);
    assert_int_equal(kpca_model_fit(&one, &p, &md, NULL, &err), KPCA_EFORMAT); /* the data's fault */
    assert_non_null(strstr(err.msg, "at least 2 fit points"));
    kpca_dataset_free(&one);
    kpca_dataset small;
    tu_random_dataset(&small, 10, 4, 2, 2);
    p.components = 11;
    assert_int_equal(kpca_model_fit(&small, &p, &md, NULL, &err), KPCA_EUSAGE);
    assert_null(md.alpha);
    p.components = 0;
    p.kernel.degree = 0;
    assert_int_equal(kpca_model_fit(&small, &p, &md, NULL, &err), KPCA_EUSAGE);
    p = kpca_fit_defaults(2);
    p.kernel.gamma = -1.0;
    assert_int_equal(kpca_model_fit(&small, &p, &md, NULL, &err), KPCA_EUSAGE);
    /* a kernel value overflow is a numerical error, not garbage */
    p = kpca_fit_defaults(20);
    for (size_t i = 0; i < small.n * small.dim; i++)
        small.x[i] *= 1e30;
    assert_int_equal(kpca_model_fit(&small, &p, &md, NULL, &err), KPCA_ENUMERIC);
    kpca_dataset_free(&small);

    /* transform: wrong dim, k = 0, k > model.k */
    fit(&g_fit, 2, 10, KPCA_EIG_AUTO, &md, NULL);
    assert_int_equal(md.k, 10);
    double z[2 * 11];
    kpca_error_clear(&err);
    assert_int_equal(kpca_model_transform(&md, g_new.x, 2, 255, 5, z, &err), KPCA_EFORMAT);
    assert_true(err.msg[0] != '\0');
    assert_int_equal(kpca_model_transform(&md, g_new.x, 2, 257, 5, z, &err), KPCA_EFORMAT);
    assert_int_equal(kpca_model_transform(&md, g_new.x, 2, 256, 0, z, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_model_transform(&md, g_new.x, 2, 256, 11, z, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_model_transform(&md, g_new.x, 2, 256, 10, z, &err), KPCA_OK);
    /* no points: nothing to do */
    assert_int_equal(kpca_model_transform(&md, g_new.x, 0, 256, 10, z, &err), KPCA_OK);
    /* validate catches broken invariants */
    assert_int_equal(kpca_model_validate(&md, "m", &err), KPCA_OK);
    double keep = md.eigval[3];
    md.eigval[3] = md.eigval[2] * 2.0;
    assert_int_equal(kpca_model_validate(&md, "m", &err), KPCA_EFORMAT);
    md.eigval[3] = keep;
    md.alpha[7] = NAN;
    assert_int_equal(kpca_model_validate(&md, "m", &err), KPCA_EFORMAT);
    md.alpha[7] = 0.0;
    assert_int_equal(kpca_model_validate(&md, "m", &err), KPCA_OK);
    md.fit_n = md.m + 1; /* a kernel-centred model is fitted on its own points */
    assert_int_equal(kpca_model_validate(&md, "m", &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "fit points"));
    kpca_model_free(&md);
}

/* the progress hook sees every phase of a fit and a projection, each ending
 * with done == total, and nothing once it is removed */
static char seen[8][32];
static size_t nseen, nends;
static void count_progress(const char *phase, size_t done, size_t total, void *user)
{
    (void)user;
    assert_true(done <= total);
    if (nseen == 0 || strcmp(seen[nseen - 1], phase) != 0) {
        assert_true(nseen < 8);
        snprintf(seen[nseen++], sizeof seen[0], "%s", phase);
    }
    nends += done == total;
}

static void test_progress_hook(void **state)
{
    (void)state;
    kpca_dataset ds;
    tu_random_dataset(&ds, 50, 4, 3, 11);
    kpca_fit_params p = kpca_fit_defaults(2);
    kpca_model md;
    kpca_error err;
    nseen = nends = 0;
    kpca_progress_set(count_progress, NULL);
    assert_int_equal(kpca_model_fit(&ds, &p, &md, NULL, &err), KPCA_OK);
    double z[50 * 3];
    assert_int_equal(kpca_model_transform(&md, ds.x, 50, 4, 3, z, &err), KPCA_OK);
    kpca_progress_set(NULL, NULL);
    assert_int_equal(nseen, 4);
    assert_string_equal(seen[0], "kernel");
    assert_string_equal(seen[1], "centring");
    assert_string_equal(seen[2], "eigensolve");
    assert_string_equal(seen[3], "projection");
    assert_int_equal(nends, 4);
    assert_int_equal(kpca_model_transform(&md, ds.x, 50, 4, 3, z, &err), KPCA_OK);
    assert_int_equal(nseen, 4); /* removed: no more calls */
    kpca_model_free(&md);
    kpca_dataset_free(&ds);
}

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
    p.oversample = 0; /* default: as many as k */
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
        cmocka_unit_test(test_approximate_solvers_exact_limits),
        cmocka_unit_test(test_approximate_solvers_accuracy),
        cmocka_unit_test(test_linear_is_pca),
        cmocka_unit_test(test_save_load_roundtrip),
        cmocka_unit_test(test_damaged_model_files),
        cmocka_unit_test(test_identical_points),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_progress_hook),
    };
    return cmocka_run_group_tests(tests, NULL, teardown_all);
}
