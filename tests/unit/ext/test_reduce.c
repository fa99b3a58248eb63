/* test_reduce.c - reduced-set models (lib/ext/reduce.h): the residual formula
 * against an explicit feature map of (gamma x.y)^2, the exact eigen-expansion
 * of d = 2 against the full model, the centring (the Cauchy-Schwarz bound
 * |z~ - z| <= sqrt(rho) |Phi(x) - Phi_bar|, with Phi_bar from plain loops),
 * monotone residuals, determinism, the model file, bad arguments. */
#include "testutil.h"

#include <sys/stat.h>

/* |a - b| <= tol, with the numbers in the failure message */
#define assert_close(a, b, tol)                                                                                  \
    do {                                                                                                         \
        double a_ = (a), b_ = (b), t_ = (tol);                                                                   \
        if (!(fabs(a_ - b_) <= t_))                                                                              \
            fail_msg("%s = %.17g, %s = %.17g: differ by %.3g > %.3g", #a, a_, #b, b_, fabs(a_ - b_), t_);       \
    } while (0)

/* Phi(x) = gamma vec(x x') for k(x, y) = (gamma x.y)^2: <Phi(x), Phi(y)> =
 * gamma^2 sum_ij x_i x_j y_i y_j */
static void phi2(const double *x, size_t dim, double gamma, double *out)
{
    for (size_t i = 0; i < dim; i++)
        for (size_t j = 0; j < dim; j++)
            out[i * dim + j] = gamma * x[i] * x[j];
}

/* |sum_i a_i Phi(x_i) - sum_j b_j Phi(z_j)|^2 by the explicit map */
static double explicit_residual(const double *x, size_t m, const double *a, const double *z, size_t n,
                                const double *b, size_t dim, double gamma)
{
    const size_t D = dim * dim;
    double *v = calloc(D, sizeof *v), *p = malloc(D * sizeof *p);
    assert_true(v && p);
    for (size_t i = 0; i < m; i++) {
        phi2(x + i * dim, dim, gamma, p);
        for (size_t t = 0; t < D; t++)
            v[t] += a[i] * p[t];
    }
    for (size_t j = 0; j < n; j++) {
        phi2(z + j * dim, dim, gamma, p);
        for (size_t t = 0; t < D; t++)
            v[t] -= b[j] * p[t];
    }
    double s = 0.0;
    for (size_t t = 0; t < D; t++)
        s += v[t] * v[t];
    free(v);
    free(p);
    return s;
}

static void fit_model(const kpca_dataset *ds, kpca_kernel kern, size_t comps, kpca_model *md)
{
    kpca_fit_params p = kpca_fit_defaults(2);
    p.kernel = kern;
    p.components = comps;
    kpca_error err;
    if (kpca_model_fit(ds, &p, md, NULL, &err) != KPCA_OK)
        fail_msg("fit: %s", err.msg);
}

static void reduce_ok(const kpca_model *full, const kpca_reduce_params *p, kpca_model *out, kpca_reduce_info *info)
{
    kpca_error err;
    if (kpca_reduce(full, p, out, info, &err) != KPCA_OK)
        fail_msg("reduce: %s", err.msg);
    assert_int_equal(out->centring, KPCA_CENTRE_REDUCED);
    assert_non_null(out->rho);
}

static void centred_alpha(const kpca_model *md, size_t c, double *a)
{
    double s = 0.0;
    for (size_t i = 0; i < md->m; i++)
        s += md->alpha[c * md->m + i];
    for (size_t i = 0; i < md->m; i++)
        a[i] = md->alpha[c * md->m + i] - s / (double)md->m;
}

/* the library's residual formula against the explicit map, gamma 1 and 0.7 */
static void test_residual_formula_explicit_d2(void **state)
{
    (void)state;
    const size_t m = 7, n = 4, dim = 3;
    uint64_t s = 11;
    double x[7 * 3], z[4 * 3], a[7], b[4];
    for (size_t i = 0; i < m * dim; i++)
        x[i] = tu_rand(&s);
    for (size_t i = 0; i < n * dim; i++)
        z[i] = tu_rand(&s);
    for (size_t i = 0; i < m; i++)
        a[i] = tu_rand(&s);
    for (size_t j = 0; j < n; j++)
        b[j] = tu_rand(&s);
    const double gammas[2] = {1.0, 0.7};
    for (int g = 0; g < 2; g++) {
        kpca_kernel k = kpca_kernel_poly(2);
        k.gamma = gammas[g];
        double rho, want = explicit_residual(x, m, a, z, n, b, dim, gammas[g]);
        kpca_error err;
        assert_int_equal(kpca_reduce_residual(&k, x, m, a, z, n, b, dim, &rho, &err), KPCA_OK);
        assert_true(want > 0.1); /* not a trivial case */
        assert_close(rho, want, 1e-12 * want);
    }
}

/* the residuals a reduction stores are |V_c - V~_c|^2 by the explicit map */
static void test_stored_rho_is_explicit_residual(void **state)
{
    (void)state;
    kpca_dataset ds;
    tu_random_dataset(&ds, 25, 4, 2, 5);
    kpca_model full, small;
    fit_model(&ds, kpca_kernel_poly(2), 6, &full);
    kpca_reduce_params p = kpca_reduce_defaults();
    p.vectors = 5;
    p.method = KPCA_REDUCE_LBFGS;
    p.max_iter = 5;
    reduce_ok(&full, &p, &small, NULL);
    double a[25];
    for (size_t c = 0; c < small.k; c++) {
        centred_alpha(&full, c, a);
        double want = explicit_residual(full.fitx, full.m, a, small.fitx, small.m, small.alpha + c * small.m,
                                        full.dim, 1.0);
        assert_true(want > 1e-6); /* 5 vectors cannot hold 6 components exactly */
        assert_close(small.rho[c], want, 1e-9);
    }
    kpca_model_free(&small);
    kpca_model_free(&full);
    kpca_dataset_free(&ds);
}

/* (x.y)^2: the eigen-expansion is exact and projects like the full model */
static void test_exact_d2_matches_full(void **state)
{
    (void)state;
    const size_t dim = 5, k = 4;
    kpca_dataset ds, test;
    tu_random_dataset(&ds, 40, dim, 2, 21);
    tu_random_dataset(&test, 15, dim, 2, 22);
    kpca_model full;
    fit_model(&ds, kpca_kernel_poly(2), k, &full);
    const kpca_reduce_method methods[2] = {KPCA_REDUCE_EIG, KPCA_REDUCE_AUTO};
    for (int t = 0; t < 2; t++) {
        kpca_model small;
        kpca_reduce_params p = kpca_reduce_defaults();
        p.vectors = 40; /* at least k * dim = 20: room for the exact expansion */
        p.method = methods[t];
        kpca_reduce_info info;
        reduce_ok(&full, &p, &small, &info);
        assert_int_equal(info.method, KPCA_REDUCE_EIG);
        assert_true(small.m <= k * dim);
        for (size_t c = 0; c < k; c++)
            assert_true(small.rho[c] < 1e-12);
        double *zf = malloc(test.n * k * sizeof(double)), *zr = malloc(test.n * k * sizeof(double));
        assert_true(zf && zr);
        kpca_error err;
        assert_int_equal(kpca_model_transform(&full, test.x, test.n, dim, k, zf, &err), KPCA_OK);
        assert_int_equal(kpca_model_transform(&small, test.x, test.n, dim, k, zr, &err), KPCA_OK);
        double scale = 0.0;
        for (size_t i = 0; i < test.n * k; i++)
            scale = fmax(scale, fabs(zf[i]));
        assert_true(scale > 0.1);
        for (size_t i = 0; i < test.n * k; i++)
            assert_close(zr[i], zf[i], 1e-8);
        /* the fit points too (their reduced features keep mean zero) */
        double *ff = malloc(ds.n * k * sizeof(double)), *fr = malloc(ds.n * k * sizeof(double));
        assert_true(ff && fr);
        assert_int_equal(kpca_model_transform(&full, ds.x, ds.n, dim, k, ff, &err), KPCA_OK);
        assert_int_equal(kpca_model_transform(&small, ds.x, ds.n, dim, k, fr, &err), KPCA_OK);
        for (size_t i = 0; i < ds.n * k; i++)
            assert_close(fr[i], ff[i], 1e-8);
        free(ff);
        free(fr);
        free(zf);
        free(zr);
        kpca_model_free(&small);
    }
    /* with too few vectors it is not exact, and says so by its residuals */
    kpca_model small;
    kpca_reduce_params p = kpca_reduce_defaults();
    p.vectors = 3;
    p.method = KPCA_REDUCE_EIG;
    p.max_iter = 0;
    reduce_ok(&full, &p, &small, NULL);
    double total = 0.0;
    for (size_t c = 0; c < k; c++)
        total += small.rho[c];
    assert_true(total > 1e-3);
    kpca_model_free(&small);
    kpca_model_free(&full);
    kpca_dataset_free(&ds);
    kpca_dataset_free(&test);
}

/* Centring: z~_c(x) - z_c(x) = <V~_c - V_c, Phi(x) - Phi_bar>, so
 * |z~ - z| <= sqrt(rho_c) |Phi(x) - Phi_bar|; |Phi(x) - Phi_bar|^2 =
 * k(x, x) - 2 mean_i k(x, x_i) + mean_ij k(x_i, x_j) by plain loops.  A
 * projection against another mean (e.g. the reduced set's) would break it. */
static void test_projection_error_bound(void **state)
{
    (void)state;
    const size_t dim = 6, k = 5;
    kpca_dataset ds, test;
    tu_random_dataset(&ds, 50, dim, 2, 31);
    tu_random_dataset(&test, 20, dim, 2, 32);
    kpca_kernel inhom = kpca_kernel_poly(2);
    inhom.gamma = 0.5;
    inhom.coef0 = 1.0;
    const kpca_kernel kerns[3] = {kpca_kernel_rbf(1.5), kpca_kernel_poly(3), inhom};
    for (int t = 0; t < 3; t++) {
        kpca_model full, small;
        fit_model(&ds, kerns[t], k, &full);
        kpca_reduce_params p = kpca_reduce_defaults();
        p.vectors = 8;
        reduce_ok(&full, &p, &small, NULL);
        const size_t kk = small.k;
        double *zf = malloc(test.n * kk * sizeof(double)), *zr = malloc(test.n * kk * sizeof(double));
        assert_true(zf && zr);
        kpca_error err;
        assert_int_equal(kpca_model_transform(&full, test.x, test.n, dim, kk, zf, &err), KPCA_OK);
        assert_int_equal(kpca_model_transform(&small, test.x, test.n, dim, kk, zr, &err), KPCA_OK);
        double grand = 0.0;
        for (size_t i = 0; i < ds.n; i++)
            for (size_t j = 0; j < ds.n; j++)
                grand += kpca_kernel_eval(&kerns[t], ds.x + i * dim, ds.x + j * dim, dim);
        grand /= (double)(ds.n * ds.n);
        double worst = 0.0;
        for (size_t r = 0; r < test.n; r++) {
            const double *x = test.x + r * dim;
            double mk = 0.0;
            for (size_t i = 0; i < ds.n; i++)
                mk += kpca_kernel_eval(&kerns[t], x, ds.x + i * dim, dim);
            double dist2 = kpca_kernel_eval(&kerns[t], x, x, dim) - 2.0 * mk / (double)ds.n + grand;
            for (size_t c = 0; c < kk; c++) {
                double bound = sqrt(small.rho[c]) * sqrt(fmax(dist2, 0.0));
                double diff = fabs(zr[r * kk + c] - zf[r * kk + c]);
                if (!(diff <= bound * (1.0 + 1e-6) + 1e-10))
                    fail_msg("kernel %d point %zu component %zu: |z~ - z| = %g > bound %g", t, r, c, diff, bound);
                worst = fmax(worst, diff);
            }
        }
        assert_true(worst > 0.0); /* not exact: the bound is what is tested */
        free(zf);
        free(zr);
        kpca_model_free(&small);
        kpca_model_free(&full);
    }
    kpca_dataset_free(&ds);
    kpca_dataset_free(&test);
}

static double total_rho(const kpca_model *md)
{
    double s = 0.0;
    for (size_t c = 0; c < md->k; c++)
        s += md->rho[c];
    return s;
}

/* more L-BFGS iterations never leave a larger total residual, and some help */
static void test_rho_monotone(void **state)
{
    (void)state;
    kpca_dataset ds;
    tu_random_dataset(&ds, 40, 5, 2, 41);
    const kpca_kernel kerns[2] = {kpca_kernel_poly(3), kpca_kernel_rbf(1.2)};
    for (int t = 0; t < 2; t++) {
        kpca_model full;
        fit_model(&ds, kerns[t], 6, &full);
        double prev = INFINITY, first = 0.0;
        for (size_t it = 0; it <= 8; it++) {
            kpca_reduce_params p = kpca_reduce_defaults();
            p.vectors = 6;
            p.max_iter = it;
            kpca_model small;
            kpca_reduce_info info;
            reduce_ok(&full, &p, &small, &info);
            double r = total_rho(&small);
            assert_true(info.rho_final <= info.rho_start);
            assert_close(r, info.rho_final, 1e-12 * (1.0 + r));
            assert_true(r <= prev * (1.0 + 1e-12));
            if (it == 0)
                first = r;
            prev = r;
            kpca_model_free(&small);
        }
        assert_true(prev < 0.9 * first);
        kpca_model_free(&full);
    }
    kpca_dataset_free(&ds);
}

/* same parameters, same bytes; k-means start and eigenvalue weights work */
static void test_deterministic(void **state)
{
    (void)state;
    kpca_dataset ds;
    tu_random_dataset(&ds, 30, 4, 2, 51);
    kpca_model full;
    fit_model(&ds, kpca_kernel_poly(4), 5, &full);
    for (int variant = 0; variant < 2; variant++) {
        kpca_reduce_params p = kpca_reduce_defaults();
        p.vectors = 7;
        p.max_iter = 6;
        p.seed = 9;
        p.init = variant ? KPCA_REDUCE_INIT_KMEANS : KPCA_REDUCE_INIT_SUBSET;
        p.weight_eigval = variant;
        kpca_model a, b;
        reduce_ok(&full, &p, &a, NULL);
        reduce_ok(&full, &p, &b, NULL);
        assert_int_equal(a.m, b.m);
        assert_memory_equal(a.fitx, b.fitx, a.m * a.dim * sizeof(double));
        assert_memory_equal(a.alpha, b.alpha, a.k * a.m * sizeof(double));
        assert_memory_equal(a.rho, b.rho, a.k * sizeof(double));
        assert_string_equal(a.reduction, b.reduction);
        kpca_model_free(&a);
        kpca_model_free(&b);
    }
    kpca_model_free(&full);
    kpca_dataset_free(&ds);
}

/* save and load: every field back, k > m allowed; old models still load */
static void test_file_round_trip(void **state)
{
    (void)state;
    kpca_dataset ds;
    tu_random_dataset(&ds, 30, 4, 2, 61);
    kpca_model full;
    fit_model(&ds, kpca_kernel_rbf(1.0), 6, &full);
    const size_t sizes[2] = {10, 3}; /* 3 < 6 components */
    for (int t = 0; t < 2; t++) {
        kpca_reduce_params p = kpca_reduce_defaults();
        p.vectors = sizes[t];
        p.max_iter = 3;
        kpca_model small, back;
        reduce_ok(&full, &p, &small, NULL);
        kpca_error err;
        const char *path = TEST_OUT "/reduced.h5";
        if (kpca_model_save(&small, path, &err) != KPCA_OK)
            fail_msg("save: %s", err.msg);
        if (kpca_model_load(path, &back, &err) != KPCA_OK)
            fail_msg("load: %s", err.msg);
        assert_int_equal(back.centring, KPCA_CENTRE_REDUCED);
        assert_int_equal(back.m, small.m);
        assert_int_equal(back.k, small.k);
        assert_int_equal(back.fit_n, full.m);
        assert_string_equal(back.reduction, small.reduction);
        assert_string_equal(back.solver, small.solver);
        assert_memory_equal(back.fitx, small.fitx, small.m * small.dim * sizeof(double));
        assert_memory_equal(back.alpha, small.alpha, small.k * small.m * sizeof(double));
        assert_memory_equal(back.colmean, small.colmean, small.m * sizeof(double));
        assert_memory_equal(back.rho, small.rho, small.k * sizeof(double));
        assert_memory_equal(back.eigval, small.eigval, small.k * sizeof(double));
        assert_int_equal(kpca_model_fingerprint(&back), kpca_model_fingerprint(&small));
        assert_true(kpca_model_fingerprint(&back) != kpca_model_fingerprint(&full));
        kpca_model_free(&back);
        kpca_model_free(&small);
    }
    kpca_model_free(&full);
    kpca_dataset_free(&ds);
    /* the model files of earlier versions still load, as kernel-centred models */
    const char *old[] = {"tests/ref/models-3038552/poly2.h5", "tests/ref/models-3038552/rbf.h5",
                         "tests/ref/models-3038552/nystrom.h5"};
    for (size_t i = 0; i < 3; i++) {
        kpca_model md;
        kpca_error err;
        if (kpca_model_load(old[i], &md, &err) != KPCA_OK)
            fail_msg("%s: %s", old[i], err.msg);
        assert_true(md.centring != KPCA_CENTRE_REDUCED);
        assert_null(md.rho);
        kpca_model_free(&md);
    }
}

/* bad arguments: clear refusals, nothing allocated */
static void test_bad_arguments(void **state)
{
    (void)state;
    kpca_dataset ds;
    tu_random_dataset(&ds, 20, 3, 2, 71);
    kpca_model full, small, again;
    fit_model(&ds, kpca_kernel_rbf(1.0), 4, &full);
    kpca_error err;
    kpca_reduce_params p = kpca_reduce_defaults();
    p.vectors = 0;
    assert_int_equal(kpca_reduce(&full, &p, &small, NULL, &err), KPCA_EUSAGE);
    assert_non_null(strstr(err.msg, "1 to 20"));
    p.vectors = 21;
    assert_int_equal(kpca_reduce(&full, &p, &small, NULL, &err), KPCA_EUSAGE);
    p.vectors = 5;
    p.components = 5;
    assert_int_equal(kpca_reduce(&full, &p, &small, NULL, &err), KPCA_EUSAGE);
    p.components = 0;
    p.method = KPCA_REDUCE_EIG; /* rbf */
    assert_int_equal(kpca_reduce(&full, &p, &small, NULL, &err), KPCA_EUSAGE);
    assert_non_null(strstr(err.msg, "(gamma x.y)^2"));
    p.method = KPCA_REDUCE_AUTO;
    reduce_ok(&full, &p, &small, NULL);
    assert_int_equal(kpca_reduce(&small, &p, &again, NULL, &err), KPCA_EUSAGE);
    assert_non_null(strstr(err.msg, "already reduced"));
    kpca_model_free(&small);
    kpca_model_free(&full);
    fit_model(&ds, kpca_kernel_sigmoid(0.2, 0.5), 3, &full);
    assert_int_equal(kpca_reduce(&full, &p, &small, NULL, &err), KPCA_EUSAGE);
    assert_non_null(strstr(err.msg, "sigmoid"));
    kpca_model_free(&full);
    /* Nystrom */
    kpca_fit_params fp = kpca_fit_defaults(2);
    fp.solver = KPCA_SOLVER_NYSTROM;
    fp.landmarks = 10;
    fp.components = 3;
    if (kpca_model_fit(&ds, &fp, &full, NULL, &err) != KPCA_OK)
        fail_msg("fit: %s", err.msg);
    assert_int_equal(kpca_reduce(&full, &p, &small, NULL, &err), KPCA_EUSAGE);
    assert_non_null(strstr(err.msg, "Nystrom"));
    kpca_model_free(&full);
    kpca_dataset_free(&ds);
}

/* SQLite-style: the (n+1)th library allocation and all later ones fail;
 * kpca_reduce must return KPCA_ENOMEM with *out empty, for every n, until it
 * succeeds without reaching the countdown (leaks show under ASan) */
static void test_allocation_failures(void **state)
{
    (void)state;
    kpca_dataset ds;
    tu_random_dataset(&ds, 20, 3, 2, 81);
    kpca_model fulls[2];
    fit_model(&ds, kpca_kernel_poly(2), 3, &fulls[0]); /* eig, exact */
    fit_model(&ds, kpca_kernel_rbf(1.0), 3, &fulls[1]);
    for (int t = 0; t < 2; t++) {
        kpca_reduce_params p = kpca_reduce_defaults();
        p.vectors = t == 0 ? 12 : 5;
        p.max_iter = 2;
        for (long n = 0;; n++) {
            kpca_model out;
            kpca_error err;
            kpca_mem_fail_after(n);
            kpca_status st = kpca_reduce(&fulls[t], &p, &out, NULL, &err);
            long count = kpca_mem_fail_after(-1);
            if (st == KPCA_OK) {
                if (count > n)
                    fail_msg("succeeded although allocation %ld of %ld failed", n + 1, count);
                kpca_model_free(&out);
                break;
            }
            if (st != KPCA_ENOMEM)
                fail_msg("failing after %ld allocations: %s, expected out of memory", n, err.msg);
            assert_null(out.fitx);
            assert_null(out.alpha);
            assert_null(out.rho);
        }
        kpca_model_free(&fulls[t]);
    }
    kpca_dataset_free(&ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_residual_formula_explicit_d2),
        cmocka_unit_test(test_stored_rho_is_explicit_residual),
        cmocka_unit_test(test_exact_d2_matches_full),
        cmocka_unit_test(test_projection_error_bound),
        cmocka_unit_test(test_rho_monotone),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_file_round_trip),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
