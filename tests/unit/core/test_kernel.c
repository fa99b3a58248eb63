/* test_kernel.c - kernel matrices (BLAS vs plain loops), PSD, the kernels
 * as functions of x.y. */
#include "testutil.h"

#include <lapacke.h>

static double *rand_matrix(size_t n, size_t dim, uint64_t seed)
{
    return tu_rand_doubles(n * dim, seed);
}

/* The kernel applied to |a|.|b|: bounds the magnitude of every term summed,
 * hence the rounding error of any evaluation order. */
static double abs_kernel(const kpca_kernel *k, const double *a, const double *b, size_t dim)
{
    double s = 0.0;
    for (size_t i = 0; i < dim; i++)
        s += fabs(a[i] * b[i]);
    return pow(k->gamma * s + fabs(k->coef0), k->degree);
}

static const double variants[][2] = {{1.0, 0.0}, {0.5, 1.0}, {2.0, 0.3}, {1.0 / 256.0, 0.0}};
#define NVAR (sizeof variants / sizeof variants[0])

static void test_gram_and_cross_match_reference(void **state)
{
    (void)state;
    const size_t sizes[][3] = {{40, 17, 13}, {9, 64, 21}, {1, 5, 1}}; /* m, dim, na */
    for (size_t s = 0; s < 3; s++) {
        const size_t m = sizes[s][0], dim = sizes[s][1], na = sizes[s][2];
        double *x = rand_matrix(m, dim, 100 + s);
        double *a = rand_matrix(na, dim, 200 + s);
        double *K = malloc(m * m * sizeof *K), *R = malloc(m * m * sizeof *R);
        double *C = malloc(na * m * sizeof *C), *CR = malloc(na * m * sizeof *CR);
        assert_true(K && R && C && CR);
        for (int d = 1; d <= 6; d++) {
            for (size_t v = 0; v < NVAR; v++) {
                kpca_kernel k = kpca_kernel_poly(d);
                k.gamma = variants[v][0];
                k.coef0 = variants[v][1];
                kpca_error err;
                assert_int_equal(kpca_kernel_check(&k, &err), KPCA_OK);
                kpca_kernel_gram(&k, x, m, dim, K);
                kpca_kernel_gram_ref(&k, x, m, dim, R);
                for (size_t i = 0; i < m; i++) {
                    for (size_t j = 0; j < m; j++) {
                        double scale = abs_kernel(&k, x + i * dim, x + j * dim, dim);
                        double e = fabs(K[i * m + j] - R[i * m + j]);
                        if (!(e <= 1e-12 * scale))
                            fail_msg("gram d=%d v=%zu (%zu,%zu): %.17g vs %.17g", d, v, i, j, K[i * m + j],
                                     R[i * m + j]);
                        /* the reference itself is the definition */
                        assert_true(R[i * m + j] == kpca_kernel_eval(&k, x + i * dim, x + j * dim, dim));
                    }
                }
                kpca_kernel_cross(&k, a, na, x, m, dim, C);
                kpca_kernel_cross_ref(&k, a, na, x, m, dim, CR);
                for (size_t i = 0; i < na; i++) {
                    for (size_t j = 0; j < m; j++) {
                        double scale = abs_kernel(&k, a + i * dim, x + j * dim, dim);
                        if (!(fabs(C[i * m + j] - CR[i * m + j]) <= 1e-12 * scale))
                            fail_msg("cross d=%d v=%zu (%zu,%zu): %.17g vs %.17g", d, v, i, j, C[i * m + j],
                                     CR[i * m + j]);
                    }
                }
                /* the cross kernel of X with itself is the Gram matrix */
                kpca_kernel_cross(&k, x, m, x, m, dim, R);
                for (size_t i = 0; i < m * m; i++) {
                    double scale = abs_kernel(&k, x + (i / m) * dim, x + (i % m) * dim, dim);
                    assert_true(fabs(R[i] - K[i]) <= 1e-12 * scale);
                }
            }
        }
        free(x);
        free(a);
        free(K);
        free(R);
        free(C);
        free(CR);
    }
}

static void test_kernel_eval_definition(void **state)
{
    (void)state;
    const double a[3] = {1.0, -2.0, 0.5}, b[3] = {0.25, 0.5, 4.0}; /* a.b = 1.25 */
    kpca_kernel k = kpca_kernel_poly(3);
    assert_int_equal(k.type, KPCA_KERNEL_POLY);
    assert_true(k.gamma == 1.0 && k.coef0 == 0.0 && k.degree == 3);
    assert_true(fabs(kpca_kernel_eval(&k, a, b, 3) - 1.953125) <= 1e-15);
    k.gamma = 2.0;
    k.coef0 = 0.5;
    k.degree = 2; /* (2 * 1.25 + 0.5)^2 = 9 */
    assert_true(fabs(kpca_kernel_eval(&k, a, b, 3) - 9.0) <= 1e-14);
    k.degree = 5; /* 3^5 */
    assert_true(fabs(kpca_kernel_eval(&k, a, b, 3) - 243.0) <= 1e-12);
    /* kpca_kernel_apply on dot products, all degree branches */
    for (int d = 1; d <= 7; d++) {
        k.degree = d;
        double g[3] = {1.25, -0.75, 0.0};
        kpca_kernel_apply(&k, g, 3);
        const double dots[3] = {1.25, -0.75, 0.0};
        for (int i = 0; i < 3; i++) {
            double want = pow(2.0 * dots[i] + 0.5, d);
            assert_true(fabs(g[i] - want) <= 1e-13 * fmax(1.0, fabs(want)));
        }
    }
}

static void test_gram_symmetric_psd(void **state)
{
    (void)state;
    const size_t m = 60, dim = 12;
    double *x = rand_matrix(m, dim, 7);
    double *K = malloc(m * m * sizeof *K), *w = malloc(m * sizeof *w);
    assert_true(K && w);
    for (int d = 1; d <= 6; d++) {
        for (size_t v = 0; v < NVAR; v++) {
            kpca_kernel k = kpca_kernel_poly(d);
            k.gamma = variants[v][0];
            k.coef0 = variants[v][1];
            kpca_kernel_gram(&k, x, m, dim, K);
            for (size_t i = 0; i < m; i++)
                for (size_t j = 0; j < i; j++)
                    assert_true(K[i * m + j] == K[j * m + i]);
            assert_int_equal(LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', (lapack_int)m, K, (lapack_int)m, w), 0);
            double lo = w[0], hi = w[m - 1];
            assert_true(hi > 0.0);
            if (!(lo >= -1e-10 * hi))
                fail_msg("degree %d variant %zu: smallest eigenvalue %g, largest %g", d, v, lo, hi);
        }
    }
    free(x);
    free(K);
    free(w);
}

static void test_kernel_check(void **state)
{
    (void)state;
    kpca_error err;
    kpca_kernel k;
    for (int d = 1; d <= KPCA_MAX_DEGREE; d++) {
        k = kpca_kernel_poly(d);
        assert_int_equal(kpca_kernel_check(&k, &err), KPCA_OK);
    }
    k = kpca_kernel_poly(2);
    k.gamma = 1e-6;
    k.coef0 = 3.0;
    assert_int_equal(kpca_kernel_check(&k, &err), KPCA_OK);

    struct {
        int degree;
        double gamma, coef0;
    } bad[] = {
        {0, 1.0, 0.0},       {21, 1.0, 0.0},      {-1, 1.0, 0.0},     {2, 0.0, 0.0},
        {2, -1.0, 0.0},      {2, NAN, 0.0},       {2, INFINITY, 0.0}, {2, 1.0, NAN},
        {2, 1.0, -0.5},      {2, 1.0, -1e-300},   {2, 1.0, INFINITY}, {2, -0.0, 1.0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        k = kpca_kernel_poly(bad[i].degree);
        k.gamma = bad[i].gamma;
        k.coef0 = bad[i].coef0;
        kpca_error_clear(&err);
        if (kpca_kernel_check(&k, &err) != KPCA_EUSAGE)
            fail_msg("case %zu (degree %d gamma %g coef0 %g) accepted", i, bad[i].degree, bad[i].gamma,
                     bad[i].coef0);
        assert_int_equal(err.code, KPCA_EUSAGE);
        assert_true(err.msg[0] != '\0');
        assert_int_equal(kpca_kernel_check(&k, NULL), KPCA_EUSAGE);
    }
    k = kpca_kernel_poly(2);
    k.type = (kpca_kernel_type)99;
    assert_int_equal(kpca_kernel_check(&k, &err), KPCA_EUSAGE);

    /* the other kernels: their own parameters only */
    k = kpca_kernel_rbf(3.5);
    assert_int_equal(kpca_kernel_check(&k, &err), KPCA_OK);
    const double bad_sigma[] = {0.0, -1.0, NAN, INFINITY, -0.0, 1e-200, 1e200, 1.2e154};
    for (size_t i = 0; i < sizeof bad_sigma / sizeof bad_sigma[0]; i++) {
        k = kpca_kernel_rbf(bad_sigma[i]);
        assert_int_equal(kpca_kernel_check(&k, &err), KPCA_EUSAGE);
        assert_non_null(strstr(err.msg, "sigma"));
    }
    k = kpca_kernel_sigmoid(0.01, -2.0); /* a negative offset is legal for sigmoid */
    assert_int_equal(kpca_kernel_check(&k, &err), KPCA_OK);
    k = kpca_kernel_sigmoid(0.0, 0.0);
    assert_int_equal(kpca_kernel_check(&k, &err), KPCA_EUSAGE);
    k = kpca_kernel_sigmoid(1.0, NAN);
    assert_int_equal(kpca_kernel_check(&k, &err), KPCA_EUSAGE);
    k = kpca_kernel_linear();
    assert_int_equal(kpca_kernel_check(&k, &err), KPCA_OK);
}

/* rbf, sigmoid and linear through BLAS equal their definitions */
static void test_other_kernels_match_reference(void **state)
{
    (void)state;
    const size_t m = 37, dim = 64, na = 11;
    double *x = rand_matrix(m, dim, 31), *a = rand_matrix(na, dim, 32);
    double *K = malloc(m * m * sizeof *K), *R = malloc(m * m * sizeof *R), *w = malloc(m * sizeof *w);
    double *C = malloc(na * m * sizeof *C), *CR = malloc(na * m * sizeof *CR);
    assert_true(K && R && C && CR && w);
    const kpca_kernel ks[] = {kpca_kernel_rbf(0.7),           kpca_kernel_rbf(2.5),
                              kpca_kernel_rbf(40.0),          kpca_kernel_sigmoid(0.1, -0.5),
                              kpca_kernel_sigmoid(0.02, 0.3), kpca_kernel_linear()};
    for (size_t v = 0; v < sizeof ks / sizeof ks[0]; v++) {
        const kpca_kernel *k = &ks[v];
        /* values of rbf and sigmoid lie in [-1, 1]; linear ones up to dim */
        double tol = k->type == KPCA_KERNEL_LINEAR ? 1e-12 * (double)dim : 1e-12;
        kpca_kernel_gram(k, x, m, dim, K);
        kpca_kernel_gram_ref(k, x, m, dim, R);
        for (size_t i = 0; i < m * m; i++)
            if (!(fabs(K[i] - R[i]) <= tol))
                fail_msg("%s gram (%zu,%zu): %.17g vs %.17g", kpca_kernel_name(k->type), i / m, i % m, K[i], R[i]);
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < i; j++)
                assert_true(K[i * m + j] == K[j * m + i]);
        if (k->type == KPCA_KERNEL_RBF) {
            for (size_t i = 0; i < m; i++)
                assert_true(K[i * m + i] == 1.0);
            /* rbf is positive definite on distinct points */
            memcpy(R, K, m * m * sizeof *R);
            assert_int_equal(LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', (lapack_int)m, R, (lapack_int)m, w), 0);
            assert_true(w[0] >= -1e-12 * w[m - 1]);
        }
        kpca_kernel_cross(k, a, na, x, m, dim, C);
        kpca_kernel_cross_ref(k, a, na, x, m, dim, CR);
        for (size_t i = 0; i < na * m; i++)
            if (!(fabs(C[i] - CR[i]) <= tol))
                fail_msg("%s cross (%zu,%zu): %.17g vs %.17g", kpca_kernel_name(k->type), i / m, i % m, C[i], CR[i]);
        kpca_kernel_cross(k, x, m, x, m, dim, R);
        for (size_t i = 0; i < m * m; i++)
            assert_true(fabs(R[i] - K[i]) <= tol);
    }
    /* the definitions themselves on a hand-computed pair: a.b = 1.25, |a-b|^2 = 19.0625 */
    const double p[3] = {1.0, -2.0, 0.5}, q[3] = {0.25, 0.5, 4.0};
    kpca_kernel r = kpca_kernel_rbf(2.0), sg = kpca_kernel_sigmoid(0.5, -0.25), li = kpca_kernel_linear();
    assert_true(fabs(kpca_kernel_eval(&r, p, q, 3) - exp(-19.0625 / 8.0)) <= 1e-15);
    assert_true(fabs(kpca_kernel_eval(&sg, p, q, 3) - tanh(0.375)) <= 1e-15);
    assert_true(kpca_kernel_eval(&li, p, q, 3) == 1.25);
    free(x);
    free(a);
    free(K);
    free(R);
    free(C);
    free(CR);
    free(w);
}

/* sigma^2 = the total variance = half the mean squared distance over all
 * ordered pairs (i, j), by brute force; also where the squares overflow */
static void test_default_sigma(void **state)
{
    (void)state;
    const size_t m = 50, dim = 9;
    double *x = rand_matrix(m, dim, 77);
    for (size_t i = 0; i < m * dim; i++)
        x[i] = 3.0 * x[i] + 10.0; /* an offset must not matter */
    double sum = 0.0;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++)
            for (size_t c = 0; c < dim; c++)
                sum += (x[i * dim + c] - x[j * dim + c]) * (x[i * dim + c] - x[j * dim + c]);
    double want = sqrt(sum / (double)(m * m) / 2.0);
    double got = kpca_kernel_default_sigma(x, m, dim);
    if (!(fabs(got - want) <= 1e-12 * want))
        fail_msg("default sigma %.17g, expected %.17g", got, want);
    /* the same points scaled by 1e150: their variances overflow (the width
     * was then 1); it scales with them, as the definition says */
    for (size_t i = 0; i < m * dim; i++)
        x[i] *= 1e150;
    got = kpca_kernel_default_sigma(x, m, dim);
    if (!(fabs(got - 1e150 * want) <= 1e-12 * 1e150 * want))
        fail_msg("default sigma %.17g of the scaled points, expected %.17g", got, 1e150 * want);
    for (size_t i = 0; i < m * dim; i++)
        x[i] = 0.5; /* all points equal: no width to derive */
    assert_true(kpca_kernel_default_sigma(x, m, dim) == 1.0);
    free(x);
}

static void test_kernel_names(void **state)
{
    (void)state;
    const char *names[] = {"poly", "rbf", "sigmoid", "linear"};
    for (int i = 0; i < 4; i++) {
        kpca_kernel_type t;
        assert_int_equal(kpca_kernel_parse(names[i], &t), 0);
        assert_string_equal(kpca_kernel_name(t), names[i]);
    }
    kpca_kernel_type t;
    assert_int_equal(kpca_kernel_parse("gaussian", &t), -1);
    assert_int_equal(kpca_kernel_parse("RBF", &t), -1);
    char buf[96];
    kpca_kernel k = kpca_kernel_poly(3);
    assert_string_equal(kpca_kernel_describe(&k, buf, sizeof buf), "(1 x.y + 0)^3");
    k = kpca_kernel_rbf(6.5);
    assert_string_equal(kpca_kernel_describe(&k, buf, sizeof buf), "exp(-|x-y|^2 / (2 * 6.5^2))");
    k = kpca_kernel_sigmoid(0.5, -1);
    assert_string_equal(kpca_kernel_describe(&k, buf, sizeof buf), "tanh(0.5 x.y + -1)");
}

/* kpca_kernel_of_dot (the pre-images' kernel) agrees with kpca_kernel_eval
 * and its derivative with a central difference. */
static void test_kernel_of_dot(void **state)
{
    (void)state;
    const kpca_kernel ks[] = {kpca_kernel_poly(1), kpca_kernel_poly(3), kpca_kernel_poly(5),
                              kpca_kernel_sigmoid(0.3, -0.2), kpca_kernel_linear()};
    const double a[3] = {0.5, -0.25, 0.75}, b[3] = {0.2, 0.4, -0.6};
    const double s = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        double df, dp, dm, h = 1e-5;
        double f = kpca_kernel_of_dot(&ks[i], s, &df);
        double want = kpca_kernel_eval(&ks[i], a, b, 3);
        if (fabs(f - want) > 1e-14 * (1.0 + fabs(want)))
            fail_msg("kernel %zu: f(x.y) = %.17g, k(x, y) = %.17g", i, f, want);
        double fd = (kpca_kernel_of_dot(&ks[i], s + h, &dp) - kpca_kernel_of_dot(&ks[i], s - h, &dm)) / (2 * h);
        if (fabs(fd - df) > 1e-8 * (1.0 + fabs(df)))
            fail_msg("kernel %zu: f'(s) = %.17g, central difference %.17g", i, df, fd);
    }
}

/* kpca_kernel_check_finite: finite values pass whatever their size; one
 * non-finite value anywhere fails, naming the kernel; a kernel matrix that
 * really overflows is caught. */
static void test_kernel_check_finite(void **state)
{
    (void)state;
    kpca_kernel k3 = kpca_kernel_poly(3);
    kpca_error err;
    double v[6] = {0.0, -1.0, 1e308, -1e308, 5e-324, 3.0};
    assert_int_equal(kpca_kernel_check_finite(&k3, v, 6, &err), KPCA_OK);
    assert_int_equal(kpca_kernel_check_finite(&k3, v, 0, &err), KPCA_OK);
    const double bad[] = {INFINITY, -INFINITY, NAN};
    for (size_t b = 0; b < 3; b++)
        for (size_t pos = 0; pos < 6; pos++) {
            double w[6];
            memcpy(w, v, sizeof w);
            w[pos] = bad[b];
            kpca_error_clear(&err);
            assert_int_equal(kpca_kernel_check_finite(&k3, w, 6, &err), KPCA_ENUMERIC);
            assert_int_equal(err.code, KPCA_ENUMERIC);
            assert_non_null(strstr(err.msg, "kernel value overflow"));
            assert_non_null(strstr(err.msg, "(1 x.y + 0)^3"));
            /* only the first pos + 1 values are looked at when n stops short */
            assert_int_equal(kpca_kernel_check_finite(&k3, w, pos, NULL), KPCA_OK);
            assert_int_equal(kpca_kernel_check_finite(&k3, w, pos + 1, NULL), KPCA_ENUMERIC);
        }
    /* a real overflow: (x.y)^20 of points with x.y = 1e20 is 1e400 */
    enum { M = 4, DIM = 2 };
    double x[M * DIM], K[M * M];
    for (size_t i = 0; i < M * DIM; i++)
        x[i] = 1e10 * (double)(i % 3 + 1);
    kpca_kernel k20 = kpca_kernel_poly(20);
    kpca_kernel_gram(&k20, x, M, DIM, K);
    assert_int_equal(kpca_kernel_check_finite(&k20, K, M * M, &err), KPCA_ENUMERIC);
    assert_non_null(strstr(err.msg, "^20"));
    /* the same points under rbf: values in [0, 1] */
    kpca_kernel r = kpca_kernel_rbf(1e10);
    kpca_kernel_gram(&r, x, M, DIM, K);
    assert_int_equal(kpca_kernel_check_finite(&r, K, M * M, &err), KPCA_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_eval_definition),
        cmocka_unit_test(test_gram_and_cross_match_reference),
        cmocka_unit_test(test_gram_symmetric_psd),
        cmocka_unit_test(test_kernel_check),
        cmocka_unit_test(test_other_kernels_match_reference),
        cmocka_unit_test(test_default_sigma),
        cmocka_unit_test(test_kernel_names),
        cmocka_unit_test(test_kernel_of_dot),
        cmocka_unit_test(test_kernel_check_finite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
