/* test_kernel_pairwise.c - the kernels laplacian, cosine and chi2 (their
 * matrices against their definitions and against scikit-learn's
 * sklearn.metrics.pairwise), the data chi2 refuses, and what a precomputed
 * kernel matrix is checked for. */
#include "testutil.h"

#include <lapacke.h>

/* n x dim numbers in [0, 1) with about one in five exactly 0 (chi2's 0/0
 * terms), from seed */
static double *nonneg_matrix(size_t n, size_t dim, uint64_t seed)
{
    double *x = tu_rand_doubles(n * dim, seed);
    for (size_t i = 0; i < n * dim; i++)
        x[i] = x[i] < -0.6 ? 0.0 : 0.5 * (x[i] + 1.0);
    return x;
}

static const char *kname(const kpca_kernel *k)
{
    return kpca_kernel_name(k->type);
}

/* kpca_kernel_gram and _cross equal the plain loops over kpca_kernel_eval:
 * bit for bit for laplacian and chi2 (each entry is the same sum, in the
 * same order, whatever the tile or thread), to rounding for cosine (BLAS);
 * the shapes include tails of the tiles and, at 400 x 400 x 200, several
 * threads */
static void test_matrices_match_definition(void **state)
{
    (void)state;
    const size_t sizes[][3] = {{41, 17, 23}, {9, 3, 1}, {400, 200, 70}}; /* m, dim, na */
    for (size_t s = 0; s < 3; s++) {
        const size_t m = sizes[s][0], dim = sizes[s][1], na = sizes[s][2];
        double *x = nonneg_matrix(m, dim, 10 + s), *a = nonneg_matrix(na, dim, 20 + s);
        double *K = tu_doubles(m * m), *R = tu_doubles(m * m), *C = tu_doubles(na * m), *CR = tu_doubles(na * m);
        const kpca_kernel ks[] = {kpca_kernel_laplacian(0.7), kpca_kernel_laplacian(1.0 / (double)dim),
                                  kpca_kernel_chi2(1.0), kpca_kernel_chi2(0.05), kpca_kernel_cosine()};
        for (size_t v = 0; v < sizeof ks / sizeof ks[0]; v++) {
            const kpca_kernel *k = &ks[v];
            const int exact = k->type != KPCA_KERNEL_COSINE;
            kpca_kernel_gram(k, x, m, dim, K);
            kpca_kernel_gram_ref(k, x, m, dim, R);
            for (size_t i = 0; i < m * m; i++)
                if (exact ? K[i] != R[i] : !(fabs(K[i] - R[i]) <= 1e-14))
                    fail_msg("%s gram %zu x %zu (%zu,%zu): %.17g vs %.17g", kname(k), m, dim, i / m, i % m, K[i], R[i]);
            for (size_t i = 0; i < m; i++) {
                assert_true(K[i * m + i] == 1.0);
                for (size_t j = 0; j < i; j++)
                    assert_true(K[i * m + j] == K[j * m + i]);
            }
            kpca_kernel_cross(k, a, na, x, m, dim, C);
            kpca_kernel_cross_ref(k, a, na, x, m, dim, CR);
            for (size_t i = 0; i < na * m; i++)
                if (exact ? C[i] != CR[i] : !(fabs(C[i] - CR[i]) <= 1e-14))
                    fail_msg("%s cross %zu x %zu (%zu,%zu): %.17g vs %.17g", kname(k), na, m, i / m, i % m, C[i],
                             CR[i]);
        }
        free(x);
        free(a);
        free(K);
        free(R);
        free(C);
        free(CR);
    }
}

/* the definitions on a hand-computed pair, and their edge cases */
static void test_definitions(void **state)
{
    (void)state;
    const double p[3] = {1.0, 0.0, 0.5}, q[3] = {0.25, 0.0, 4.0};
    kpca_kernel lap = kpca_kernel_laplacian(0.5), chi = kpca_kernel_chi2(2.0), cs = kpca_kernel_cosine();
    /* |p - q|_1 = 0.75 + 0 + 3.5 */
    assert_true(kpca_kernel_eval(&lap, p, q, 3) == exp(-0.5 * 4.25));
    /* 0.75^2 / 1.25 + (0/0: 0) + 3.5^2 / 4.5 */
    const double c2 = 0.5625 / 1.25 + 12.25 / 4.5;
    assert_true(fabs(kpca_kernel_eval(&chi, p, q, 3) - exp(-2.0 * c2)) <= 1e-15);
    /* p.q = 2.25, |p| = sqrt(1.25), |q| = sqrt(16.0625) */
    assert_true(fabs(kpca_kernel_eval(&cs, p, q, 3) - 2.25 / sqrt(1.25 * 16.0625)) <= 1e-15);
    /* cosine with a zero point is 0 (scikit-learn's normalize keeps a zero row zero), also on the diagonal */
    double x[9] = {0.0, 0.0, 0.0, 1.0, -2.0, 0.5, 3.0, 1.0, 1.0}, K[9], C[3];
    assert_true(kpca_kernel_eval(&cs, x, x + 3, 3) == 0.0);
    kpca_kernel_gram(&cs, x, 3, 3, K);
    assert_true(K[0] == 0.0 && K[1] == 0.0 && K[3] == 0.0 && K[4] == 1.0 && K[8] == 1.0);
    kpca_kernel_cross(&cs, x, 1, x, 3, 3, C);
    assert_true(C[0] == 0.0 && C[1] == 0.0 && C[2] == 0.0);
    /* cosine is invariant to the scale of either point */
    double y[3] = {4.0, -8.0, 2.0};
    assert_true(fabs(kpca_kernel_eval(&cs, y, x + 6, 3) - kpca_kernel_eval(&cs, x + 3, x + 6, 3)) <= 1e-15);
    /* a precomputed kernel has no kernel function: NaN, which the finite check refuses */
    kpca_kernel pre = kpca_kernel_precomputed();
    assert_true(isnan(kpca_kernel_eval(&pre, p, q, 3)));
    kpca_kernel_gram(&pre, x, 3, 3, K);
    kpca_error err;
    assert_int_equal(kpca_kernel_check_finite(&pre, K, 9, &err), KPCA_ENUMERIC);
    kpca_kernel_cross(&pre, x, 1, x, 3, 3, C);
    assert_true(isnan(C[0]) && isnan(C[2]));
}

/* laplacian and cosine matrices are positive semi-definite, and so is chi2
 * on non-negative data */
static void test_psd(void **state)
{
    (void)state;
    const size_t m = 60, dim = 12;
    double *x = nonneg_matrix(m, dim, 5), *K = tu_doubles(m * m), *w = tu_doubles(m);
    const kpca_kernel ks[] = {kpca_kernel_laplacian(0.3), kpca_kernel_chi2(1.0), kpca_kernel_cosine()};
    for (size_t v = 0; v < 3; v++) {
        kpca_kernel_gram(&ks[v], x, m, dim, K);
        assert_int_equal(LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', (lapack_int)m, K, (lapack_int)m, w), 0);
        if (!(w[0] >= -1e-12 * w[m - 1]))
            fail_msg("%s: smallest eigenvalue %g, largest %g", kname(&ks[v]), w[0], w[m - 1]);
    }
    free(x);
    free(K);
    free(w);
}

static void test_names_params_data(void **state)
{
    (void)state;
    const char *names[] = {"laplacian", "cosine", "chi2", "precomputed"};
    const kpca_kernel_type types[] = {KPCA_KERNEL_LAPLACIAN, KPCA_KERNEL_COSINE, KPCA_KERNEL_CHI2,
                                      KPCA_KERNEL_PRECOMPUTED};
    for (int i = 0; i < 4; i++) {
        kpca_kernel_type t;
        assert_int_equal(kpca_kernel_parse(names[i], &t), 0);
        assert_int_equal(t, types[i]);
        assert_string_equal(kpca_kernel_name(t), names[i]);
    }
    char buf[96];
    kpca_kernel k = kpca_kernel_laplacian(0.5);
    assert_string_equal(kpca_kernel_describe(&k, buf, sizeof buf), "exp(-0.5 |x-y|_1)");
    k = kpca_kernel_chi2(2);
    assert_string_equal(kpca_kernel_describe(&k, buf, sizeof buf), "exp(-2 sum (x-y)^2 / (x+y))");
    k = kpca_kernel_cosine();
    assert_string_equal(kpca_kernel_describe(&k, buf, sizeof buf), "x.y / (|x| |y|)");
    k = kpca_kernel_precomputed();
    assert_string_equal(kpca_kernel_describe(&k, buf, sizeof buf), "precomputed");

    /* gamma > 0 and finite for laplacian and chi2; cosine and precomputed have no parameter */
    kpca_error err;
    const double bad[] = {0.0, -1.0, NAN, INFINITY};
    for (size_t i = 0; i < 4; i++) {
        const char *param = NULL;
        k = kpca_kernel_laplacian(bad[i]);
        assert_int_equal(kpca_kernel_check_param(&k, &param, &err), KPCA_EUSAGE);
        assert_string_equal(param, "gamma");
        k = kpca_kernel_chi2(bad[i]);
        assert_int_equal(kpca_kernel_check(&k, &err), KPCA_EUSAGE);
        assert_non_null(strstr(err.msg, "gamma"));
    }
    k = kpca_kernel_laplacian(1e-9);
    assert_int_equal(kpca_kernel_check(&k, &err), KPCA_OK);
    k = kpca_kernel_cosine();
    assert_int_equal(kpca_kernel_check(&k, &err), KPCA_OK);
    k = kpca_kernel_precomputed();
    assert_int_equal(kpca_kernel_check(&k, &err), KPCA_OK);

    /* chi2 refuses the first negative value by row and column; zeros pass */
    double x[6] = {0.0, 1.0, 2.0, 3.0, -0.5, -7.0};
    k = kpca_kernel_chi2(1.0);
    assert_int_equal(kpca_kernel_check_data(&k, x, 2, 3, &err), KPCA_EFORMAT);
    assert_string_equal(err.msg, "the chi2 kernel needs non-negative values: row 2, column 2 of the values is -0.5");
    assert_int_equal(kpca_kernel_check_data(&k, x, 1, 3, &err), KPCA_OK);
    const kpca_kernel others[] = {kpca_kernel_laplacian(1.0), kpca_kernel_cosine(), kpca_kernel_rbf(1.0),
                                  kpca_kernel_poly(2), kpca_kernel_precomputed()};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        assert_int_equal(kpca_kernel_check_data(&others[i], x, 2, 3, &err), KPCA_OK);
}

/* kpca_kernel_gather picks the columns; kpca_kernel_check_matrix refuses a
 * matrix that is not square, not finite or not symmetric within the
 * tolerance, naming the largest asymmetry; kpca_kernel_symmetrize averages */
static void test_precomputed_matrix(void **state)
{
    (void)state;
    double g[12] = {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23}, out[6];
    const size_t idx[2] = {3, 1};
    kpca_kernel_gather(g, 3, 4, idx, 2, out);
    const double want[6] = {3, 1, 13, 11, 23, 21};
    for (int i = 0; i < 6; i++)
        assert_true(out[i] == want[i]);

    kpca_error err;
    assert_int_equal(kpca_kernel_check_matrix(g, 3, 4, 1e-6, &err), KPCA_EFORMAT);
    assert_string_equal(err.msg, "a precomputed kernel matrix is square (M x M): this one is 3 x 4");
    double K[9] = {4, 1, 2, 1, 5, 3, 2, 3, 6};
    assert_int_equal(kpca_kernel_check_matrix(K, 3, 3, 1e-6, &err), KPCA_OK);
    K[5] = 3.0 + 1e-6; /* 1e-6 * max 6 is within */
    assert_int_equal(kpca_kernel_check_matrix(K, 3, 3, 1e-6, &err), KPCA_OK);
    K[1] = 1.5;  /* (1, 2) against (2, 1): 0.5, the largest */
    K[5] = 3.25; /* (2, 3) against (3, 2): 0.25 */
    assert_int_equal(kpca_kernel_check_matrix(K, 3, 3, 1e-6, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "not symmetric within 1e-06: row 1, column 2 is 1.5 but row 2, column 1 is 1 "));
    assert_int_equal(kpca_kernel_check_matrix(K, 3, 3, 0.1, &err), KPCA_OK); /* 0.5 <= 0.1 * 6 */
    kpca_kernel_symmetrize(K, 3);
    assert_true(K[1] == 1.25 && K[3] == 1.25 && K[5] == 3.125 && K[7] == 3.125 && K[0] == 4.0);
    assert_int_equal(kpca_kernel_check_matrix(K, 3, 3, 0.0, &err), KPCA_OK);
    K[7] = NAN;
    assert_int_equal(kpca_kernel_check_matrix(K, 3, 3, 1e-6, &err), KPCA_EFORMAT);
    assert_string_equal(err.msg, "row 3, column 2 is not finite (nan)");
    K[7] = -INFINITY;
    assert_int_equal(kpca_kernel_check_matrix(K, 3, 3, 1e-6, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "row 3, column 2 is not finite"));
}

/* kpca_eig_lowest: 0 for a positive semi-definite matrix (its rounding-level
 * negative eigenvalues included), the smallest eigenvalue (dsyevd's) when it
 * lies below -tol max(sum |a_ii|, |a|_F); the matrix is left as it was */
static void test_eig_lowest(void **state)
{
    (void)state;
    const size_t n = 50, dim = 6;
    double *x = tu_rand_doubles(n * dim, 3), *K = tu_doubles(n * n), *c = tu_doubles(n * n), *w = tu_doubles(n);
    kpca_kernel lin = kpca_kernel_linear(); /* rank 6: 44 zero eigenvalues */
    kpca_kernel_gram(&lin, x, n, dim, K);
    memcpy(c, K, n * n * sizeof *c);
    assert_int_equal(LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', (lapack_int)n, c, (lapack_int)n, w), 0);
    kpca_error err;
    double lowest = 1.0;
    assert_int_equal(kpca_eig_lowest(K, n, 50 * 2.2e-16, &lowest, &err), KPCA_OK);
    assert_true(lowest == 0.0);
    /* an indefinite one: K - 0.3 I, its smallest eigenvalue -0.3 up to rounding */
    for (size_t i = 0; i < n; i++)
        K[i * n + i] -= 0.3;
    memcpy(c, K, n * n * sizeof *c);
    assert_int_equal(kpca_eig_lowest(K, n, 50 * 2.2e-16, &lowest, &err), KPCA_OK);
    for (size_t i = 0; i < n * n; i++)
        assert_true(K[i] == c[i]);
    assert_int_equal(LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', (lapack_int)n, c, (lapack_int)n, w), 0);
    if (!(fabs(lowest - w[0]) <= 1e-12))
        fail_msg("lowest %.17g, dsyevd %.17g", lowest, w[0]);
    assert_true(fabs(lowest + 0.3) <= 1e-12);
    /* a tolerance past the negative part (0.3 < tol max(sum |a_ii|, |a|_F)): 0 */
    double sumabs = 0.0, fro = 0.0;
    for (size_t i = 0; i < n; i++)
        sumabs += fabs(K[i * n + i]);
    for (size_t i = 0; i < n * n; i++)
        fro += K[i] * K[i];
    const double scale = fmax(sumabs, sqrt(fro));
    assert_int_equal(kpca_eig_lowest(K, n, 0.31 / scale, &lowest, &err), KPCA_OK);
    assert_true(lowest == 0.0);
    assert_int_equal(kpca_eig_lowest(K, n, 0.29 / scale, &lowest, &err), KPCA_OK);
    assert_true(fabs(lowest + 0.3) <= 1e-12);
    free(x);
    free(K);
    free(c);
    free(w);
}

/* ---- against scikit-learn's sklearn.metrics.pairwise, through Debian's python ---- */

/* Writes the n x dim values (%.17g) to tests/out/NAME */
static void write_matrix(const char *name, const double *x, size_t n, size_t dim)
{
    char path[256];
    snprintf(path, sizeof path, TEST_OUT "/%s", name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < dim; j++)
            fprintf(f, "%.17g%c", x[i * dim + j], j + 1 < dim ? ' ' : '\n');
    assert_int_equal(fclose(f), 0);
}

/* scikit-learn's kernel FN(A, B, **ARGS) of tests/out/pw_a.txt and
 * pw_b.txt into out (na x nb), through tests/out/pw_k.npy; 0 when python,
 * numpy or sklearn is missing */
static int sklearn_kernel(const char *call, size_t na, size_t nb, double *out)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "/usr/bin/python3 -c 'import numpy as np; import sklearn.metrics.pairwise as P; "
             "A = np.loadtxt(\"" TEST_OUT "/pw_a.txt\", ndmin=2); B = np.loadtxt(\"" TEST_OUT "/pw_b.txt\", ndmin=2); "
             "np.save(\"" TEST_OUT "/pw_k.npy\", P.%s)' 2>/dev/null",
             call);
    if (system(cmd) != 0)
        return 0;
    kpca_dataset ds;
    kpca_error err;
    kpca_read_opts ro = {.format = KPCA_FMT_NPY};
    assert_int_equal(kpca_dataset_read(TEST_OUT "/pw_k.npy", &ro, &ds, &err), KPCA_OK);
    assert_int_equal(ds.n, na);
    assert_int_equal(ds.dim, nb);
    memcpy(out, ds.x, na * nb * sizeof(double));
    kpca_dataset_free(&ds);
    return 1;
}

static void test_sklearn_pairwise(void **state)
{
    (void)state;
    const size_t na = 23, nb = 41, dim = 17;
    double *a = nonneg_matrix(na, dim, 71), *b = nonneg_matrix(nb, dim, 72);
    for (size_t j = 0; j < dim; j++)
        b[5 * dim + j] = 0.0; /* a zero point: cosine 0 */
    write_matrix("pw_a.txt", a, na, dim);
    write_matrix("pw_b.txt", b, nb, dim);
    double *K = tu_doubles(na * nb), *R = tu_doubles(nb * nb), *G = tu_doubles(nb * nb); /* R: k(A, B) or k(B, B) */
    const struct {
        kpca_kernel k;
        const char *call;
    } cases[] = {
        {kpca_kernel_laplacian(0.3), "laplacian_kernel(A, B, gamma=0.3)"},
        {kpca_kernel_laplacian(1.0 / 17.0), "laplacian_kernel(A, B)"}, /* its default: 1 / dim */
        {kpca_kernel_chi2(KPCA_CHI2_DEFAULT_GAMMA), "chi2_kernel(A, B)"},
        {kpca_kernel_chi2(0.25), "chi2_kernel(A, B, gamma=0.25)"},
        {kpca_kernel_cosine(), "cosine_similarity(A, B)"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        if (!sklearn_kernel(cases[c].call, na, nb, R)) {
            print_message("skipping: /usr/bin/python3 with numpy and sklearn is needed\n");
            skip();
        }
        kpca_kernel_cross(&cases[c].k, a, na, b, nb, dim, K);
        for (size_t i = 0; i < na * nb; i++)
            if (!(fabs(K[i] - R[i]) <= 1e-12))
                fail_msg("%s (%zu,%zu): kpca %.17g, sklearn %.17g", cases[c].call, i / nb, i % nb, K[i], R[i]);
        /* the kernel matrix of B alone against sklearn's k(B, B) */
        write_matrix("pw_a.txt", b, nb, dim);
        assert_true(sklearn_kernel(cases[c].call, nb, nb, R));
        kpca_kernel_gram(&cases[c].k, b, nb, dim, G);
        for (size_t i = 0; i < nb * nb; i++)
            if (!(fabs(G[i] - R[i]) <= 1e-12))
                fail_msg("%s gram (%zu,%zu): kpca %.17g, sklearn %.17g", cases[c].call, i / nb, i % nb, G[i], R[i]);
        write_matrix("pw_a.txt", a, na, dim);
    }
    /* the check can fail: another gamma is far off */
    assert_true(sklearn_kernel("laplacian_kernel(A, B, gamma=0.31)", na, nb, R));
    kpca_kernel k = kpca_kernel_laplacian(0.3);
    kpca_kernel_cross(&k, a, na, b, nb, dim, K);
    double worst = 0.0;
    for (size_t i = 0; i < na * nb; i++)
        worst = fmax(worst, fabs(K[i] - R[i]));
    assert_true(worst > 1e-6);
    free(a);
    free(b);
    free(K);
    free(R);
    free(G);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrices_match_definition),
        cmocka_unit_test(test_definitions),
        cmocka_unit_test(test_psd),
        cmocka_unit_test(test_names_params_data),
        cmocka_unit_test(test_precomputed_matrix),
        cmocka_unit_test(test_eig_lowest),
        cmocka_unit_test(test_sklearn_pairwise),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
