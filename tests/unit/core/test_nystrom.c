/* test_nystrom.c - Nyström kernel PCA (nystrom.h) against the exact
 * solvers (kpca_model_fit, kpca_model_transform). */
#include "testutil.h"

typedef struct {
    size_t n, l, k, kept;
    double *kll, *knl, *proj, *kbar, *evals, *zfit;
} nys;

/* Nyström on the fit points fit (n x dim) with landmarks lm (l x dim). */
static nys nystrom(const kpca_kernel *kern, const double *fit, size_t n, const double *lm, size_t l, size_t dim,
                   size_t k)
{
    nys r = {n, l, k, 0, tu_doubles(l * l), tu_doubles(n * l), tu_doubles(k * l), tu_doubles(l), tu_doubles(k), tu_doubles(n * k)};
    kpca_kernel_gram(kern, lm, l, dim, r.kll);
    kpca_kernel_cross(kern, fit, n, lm, l, dim, r.knl);
    kpca_error err;
    if (kpca_nystrom_pca(r.kll, r.knl, n, l, k, -1.0, r.proj, r.kbar, r.evals, r.zfit, &r.kept, NULL, &err) != KPCA_OK)
        fail_msg("nystrom n=%zu l=%zu k=%zu: %s", n, l, k, err.msg);
    return r;
}

static void nys_free(nys *r)
{
    free(r->kll);
    free(r->knl);
    free(r->proj);
    free(r->kbar);
    free(r->evals);
    free(r->zfit);
}

/* z (m x k) = A (k_L(x) - kbar) for the m points whose kernel rows are kx (m x l). */
static double *nys_project(const nys *r, const double *kx, size_t m)
{
    double *z = tu_doubles(m * r->k);
    for (size_t i = 0; i < m; i++)
        for (size_t c = 0; c < r->k; c++) {
            double s = 0.0;
            for (size_t j = 0; j < r->l; j++)
                s += r->proj[c * r->l + j] * (kx[i * r->l + j] - r->kbar[j]);
            z[i * r->k + c] = s;
        }
    return z;
}

/* Checks the fit projections: the sign rule, Z^T Z = diag(evals), zero
 * beyond kept, and that A reproduces them from K_nL. */
static void check_nys_self(const nys *r, const char *what)
{
    for (size_t c = 0; c < r->k; c++) {
        if (c < r->kept) {
            tu_check_sign_rule(r->zfit + c, r->n, r->k, what, c);
            assert_true(r->evals[c] > 0.0);
            if (c > 0)
                assert_true(r->evals[c] <= r->evals[c - 1]);
        } else {
            assert_true(r->evals[c] == 0.0);
        }
        for (size_t d = 0; d <= c; d++) {
            double s = 0.0;
            for (size_t i = 0; i < r->n; i++)
                s += r->zfit[i * r->k + c] * r->zfit[i * r->k + d];
            double want = c == d ? r->evals[c] : 0.0;
            if (!(fabs(s - want) < 1e-9 * r->evals[0]))
                fail_msg("%s: (Z^T Z)[%zu][%zu] = %.17g, expected %.17g", what, c, d, s, want);
        }
    }
    double *z = nys_project(r, r->knl, r->n);
    double zmax = sqrt(r->evals[0]);
    for (size_t i = 0; i < r->n * r->k; i++)
        if (!(fabs(z[i] - r->zfit[i]) < 1e-9 * zmax))
            fail_msg("%s: A (k_L(x_%zu) - kbar) = %.17g but zfit says %.17g", what, i / r->k, z[i], r->zfit[i]);
    free(z);
}

/* Nyström with all fit points as landmarks is exact kernel PCA: eigenvalues,
 * fit projections and projections of new points (up to sign) as
 * kpca_model_fit / kpca_model_transform give them. */
static void full_landmarks_case(const kpca_kernel *kern, size_t n, size_t dim, size_t k, size_t expect_kept,
                                uint64_t seed)
{
    kpca_dataset fit, test;
    tu_random_dataset(&fit, n, dim, 2, seed);
    tu_random_dataset(&test, 15, dim, 2, seed + 1);
    kpca_fit_params p = kpca_fit_defaults(kern->degree);
    p.kernel = *kern;
    p.components = k;
    kpca_model model;
    kpca_error err;
    assert_int_equal(kpca_model_fit(&fit, &p, &model, NULL, &err), KPCA_OK);
    nys r = nystrom(kern, fit.x, n, fit.x, n, dim, k);
    char what[96];
    snprintf(what, sizeof what, "full landmarks, degree %d coef0 %g, n=%zu dim=%zu", kern->degree, kern->coef0, n,
             dim);
    if (r.kept != model.k || (expect_kept && r.kept != expect_kept))
        fail_msg("%s: kept %zu components, the exact model %zu (expected %zu)", what, r.kept, model.k, expect_kept);
    check_nys_self(&r, what);
    const double mu1 = model.eigval[0];
    for (size_t c = 0; c < r.kept; c++)
        if (!(fabs(r.evals[c] - model.eigval[c]) < 1e-9 * mu1))
            fail_msg("%s: eigenvalue %zu is %.17g, exact %.17g", what, c, r.evals[c], model.eigval[c]);

    size_t kk = r.kept;
    double *zf = tu_doubles(n * kk), *zt = tu_doubles(test.n * kk), *kt = tu_doubles(test.n * n);
    assert_int_equal(kpca_model_transform(&model, fit.x, n, dim, kk, zf, &err), KPCA_OK);
    assert_int_equal(kpca_model_transform(&model, test.x, test.n, dim, kk, zt, &err), KPCA_OK);
    kpca_kernel_cross(kern, test.x, test.n, fit.x, n, dim, kt);
    double *zn = nys_project(&r, kt, test.n);
    for (size_t c = 0; c < kk; c++) {
        /* components with a clear eigengap only */
        double gap = INFINITY;
        if (c > 0)
            gap = fmin(gap, model.eigval[c - 1] - model.eigval[c]);
        if (c + 1 < kk)
            gap = fmin(gap, model.eigval[c] - model.eigval[c + 1]);
        if (!(gap > 1e-3 * mu1))
            continue;
        double dot = 0.0; /* up to sign */
        for (size_t i = 0; i < n; i++)
            dot += zf[i * kk + c] * r.zfit[i * k + c];
        double sgn = dot < 0.0 ? -1.0 : 1.0;
        for (size_t i = 0; i < n; i++)
            if (!(fabs(sgn * r.zfit[i * k + c] - zf[i * kk + c]) < 1e-7 * sqrt(mu1)))
                fail_msg("%s: component %zu of fit point %zu is %.17g, exact %.17g", what, c, i, r.zfit[i * k + c],
                         zf[i * kk + c]);
        for (size_t i = 0; i < test.n; i++)
            if (!(fabs(sgn * zn[i * k + c] - zt[i * kk + c]) < 1e-7 * sqrt(mu1)))
                fail_msg("%s: component %zu of new point %zu is %.17g, exact %.17g", what, c, i, zn[i * k + c],
                         zt[i * kk + c]);
    }
    free(zf);
    free(zt);
    free(kt);
    free(zn);
    nys_free(&r);
    kpca_model_free(&model);
    kpca_dataset_free(&fit);
    kpca_dataset_free(&test);
}

static void test_nystrom_all_landmarks_exact(void **state)
{
    (void)state;
    /* (x.y)^2 on 6 values: 21 monomials, so the centred K has rank 21 < n */
    kpca_kernel k2 = kpca_kernel_poly(2);
    full_landmarks_case(&k2, 40, 6, 30, 21, 101);
    /* (x.y + 1)^2: 28 monomials, one of them constant, which the centring
     * removes: K_LL has rank 28, the centred features 27 */
    k2.coef0 = 1.0;
    full_landmarks_case(&k2, 40, 6, 35, 27, 104);
    /* (x.y + 1)^3 on 10 values: full rank */
    kpca_kernel k3 = kpca_kernel_poly(3);
    k3.coef0 = 1.0;
    full_landmarks_case(&k3, 50, 10, 12, 12, 202);
}

/* Sum over the first k exact eigenvalues of mu_c - S_c (S_c = 0 beyond kept),
 * after checking S_c <= mu_c. */
static double underestimate(const nys *r, const double *mu, size_t k, const char *what)
{
    double e = 0.0;
    for (size_t c = 0; c < k; c++) {
        double sc = c < r->kept ? r->evals[c] : 0.0;
        if (!(sc <= mu[c] * (1.0 + 1e-10) + 1e-12 * mu[0]))
            fail_msg("%s: Nyström eigenvalue %zu is %.17g, above the exact %.17g", what, c, sc, mu[c]);
        e += mu[c] - sc;
    }
    return e;
}

static void test_nystrom_fewer_landmarks(void **state)
{
    (void)state;
    enum { N = 90, DIM = 8, K = 10 };
    kpca_kernel kern = kpca_kernel_poly(3);
    kern.coef0 = 1.0;
    kpca_dataset fit;
    tu_random_dataset(&fit, N, DIM, 2, 303);
    kpca_fit_params p = kpca_fit_defaults(3);
    p.kernel = kern;
    p.components = K;
    kpca_model model;
    kpca_error err;
    assert_int_equal(kpca_model_fit(&fit, &p, &model, NULL, &err), KPCA_OK);
    assert_int_equal(model.k, K);
    /* nested landmark sets (the data are i.i.d., so the first l points are a
     * uniform sample): the approximation only improves as l grows */
    const size_t ls[] = {4, 8, 15, 30, 60, N};
    double prev = INFINITY, first = 0.0;
    for (size_t t = 0; t < sizeof ls / sizeof ls[0]; t++) {
        char what[64];
        snprintf(what, sizeof what, "first %zu points as landmarks", ls[t]);
        nys r = nystrom(&kern, fit.x, N, fit.x, ls[t], DIM, K);
        assert_true(r.kept <= ls[t]);
        check_nys_self(&r, what);
        double e = underestimate(&r, model.eigval, K, what);
        if (!(e <= prev + 1e-10 * model.eigval[0]))
            fail_msg("%s: eigenvalue deficit %g, more than %g with fewer landmarks", what, e, prev);
        if (t == 0)
            first = e;
        prev = e;
        nys_free(&r);
    }
    assert_true(first > 0.1 * model.eigval[0]); /* 4 landmarks: a visible deficit */
    assert_true(prev < 1e-9 * model.eigval[0]);  /* all of them: none */

    /* landmarks that are not fit points (uniform subset, k-means centres):
     * still never above the exact eigenvalues */
    size_t idx[30];
    double lm[30 * DIM];
    assert_int_equal(kpca_landmarks_uniform(N, 30, 8, idx, &err), KPCA_OK);
    for (size_t j = 0; j < 30; j++)
        memcpy(lm + j * DIM, fit.x + idx[j] * DIM, DIM * sizeof(double));
    nys u = nystrom(&kern, fit.x, N, lm, 30, DIM, K);
    check_nys_self(&u, "uniform landmarks");
    double eu = underestimate(&u, model.eigval, K, "uniform landmarks");
    assert_int_equal(kpca_kmeans(fit.x, N, DIM, 30, 8, 100, lm, NULL, NULL, &err), KPCA_OK);
    nys km = nystrom(&kern, fit.x, N, lm, 30, DIM, K);
    check_nys_self(&km, "k-means landmarks");
    double ek = underestimate(&km, model.eigval, K, "k-means landmarks");
    assert_true(eu < first && ek < first);
    nys_free(&u);
    nys_free(&km);
    kpca_model_free(&model);
    kpca_dataset_free(&fit);
}

static void test_nystrom_bad_args(void **state)
{
    (void)state;
    double kll[4] = {2, 1, 1, 2}, knl[6] = {1, 0, 0, 1, 1, 1}, proj[4], kbar[2], ev[2], z[6];
    size_t kept = 99;
    kpca_error err;
    kpca_error_clear(&err);
    assert_int_equal(kpca_nystrom_pca(kll, knl, 1, 2, 1, -1, proj, kbar, ev, z, &kept, NULL, &err), KPCA_EUSAGE);
    assert_true(err.msg[0] != '\0');
    assert_int_equal(kpca_nystrom_pca(kll, knl, 3, 0, 1, -1, proj, kbar, ev, z, &kept, NULL, NULL), KPCA_EUSAGE);
    assert_int_equal(kpca_nystrom_pca(kll, knl, 3, 2, 0, -1, proj, kbar, ev, z, &kept, NULL, NULL), KPCA_EUSAGE);
    /* a good call: k = 2 of rank 2, zfit may be NULL */
    assert_int_equal(kpca_nystrom_pca(kll, knl, 3, 2, 2, -1, proj, kbar, ev, NULL, &kept, NULL, &err), KPCA_OK);
    assert_int_equal(kept, 2);
    /* no positive landmark eigenvalue */
    double zero[4] = {0, 0, 0, 0}, neg[4] = {-1, 0, 0, -2};
    assert_int_equal(kpca_nystrom_pca(zero, knl, 3, 2, 1, -1, proj, kbar, ev, z, &kept, NULL, &err), KPCA_ENUMERIC);
    assert_int_equal(kpca_nystrom_pca(neg, knl, 3, 2, 1, -1, proj, kbar, ev, z, &kept, NULL, &err), KPCA_ENUMERIC);
    /* all points alike: nothing left after centring */
    double same[6] = {1, 2, 1, 2, 1, 2};
    assert_int_equal(kpca_nystrom_pca(kll, same, 3, 2, 2, -1, proj, kbar, ev, z, &kept, NULL, &err), KPCA_ENUMERIC);
    assert_true(strstr(err.msg, "coincide") != NULL);
}

static void test_nystrom_tolerance(void **state)
{
    (void)state;
    /* K_LL = diag(1, 1e-30): the second landmark direction is rounding
     * noise; the k_L(x) carry 1e-15 of it, which 1e-30^{-1/2} would blow up
     * to features of size 1 */
    const double kll[4] = {1, 0, 0, 1e-30}, knl[6] = {1, 1e-15, 2, -1e-15, 3, 0};
    double proj[4], kbar[2], ev[2], z[6];
    size_t kept;
    kpca_error err;
    /* default tol (2 DBL_EPSILON): phi = (1, 2, 3), centred (-1, 0, 1),
     * signed (1, 0, -1): on a tie the first entry decides */
    assert_int_equal(kpca_nystrom_pca(kll, knl, 3, 2, 2, -1, proj, kbar, ev, z, &kept, NULL, &err), KPCA_OK);
    assert_int_equal(kept, 1);
    assert_true(fabs(ev[0] - 2.0) < 1e-14 && ev[1] == 0.0);
    assert_true(fabs(z[0] - 1.0) < 1e-14 && fabs(z[2]) < 1e-14 && fabs(z[4] + 1.0) < 1e-14);
    assert_true(z[1] == 0.0 && z[3] == 0.0 && z[5] == 0.0);
    assert_true(fabs(kbar[0] - 2.0) < 1e-15 && fabs(proj[0] + 1.0) < 1e-14 && fabs(proj[1]) < 1e-14);
    assert_true(proj[2] == 0.0 && proj[3] == 0.0);
    /* tol = 0 keeps it, and with it a spurious component */
    assert_int_equal(kpca_nystrom_pca(kll, knl, 3, 2, 2, 0.0, proj, kbar, ev, z, &kept, NULL, &err), KPCA_OK);
    assert_int_equal(kept, 2);
    assert_true(ev[1] > 0.5);
}

/* ---- allocation failures ----------------------------------------------------------- */

static kpca_status op_nystrom(kpca_error *err)
{
    /* a 30 x 30 kernel matrix as K_LL of 30 landmarks and its first 20 rows
     * as K_nL */
    double a[30 * 30], x[30 * 3], proj[3 * 30], kbar[30], ev[3];
    kpca_kernel kern = kpca_kernel_poly(2);
    uint64_t s = 61;
    for (size_t i = 0; i < 30 * 3; i++)
        x[i] = tu_rand(&s);
    kpca_kernel_gram(&kern, x, 30, 3, a);
    size_t kept;
    return kpca_nystrom_pca(a, a, 20, 30, 3, -1, proj, kbar, ev, NULL, &kept, NULL, err);
}

static void test_alloc_failures(void **state)
{
    (void)state;
    assert_true(tu_fail_loop("kpca_nystrom_pca", op_nystrom, 1) >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nystrom_all_landmarks_exact),
        cmocka_unit_test(test_nystrom_fewer_landmarks),
        cmocka_unit_test(test_nystrom_tolerance),
        cmocka_unit_test(test_nystrom_bad_args),
        cmocka_unit_test(test_alloc_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
