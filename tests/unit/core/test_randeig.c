/* test_randeig.c - the randomized eigensolver (randeig.h) against the
 * exact one (kpca_eig_top). */
#include "testutil.h"

#include <lapacke.h>

/* ---- helpers ------------------------------------------------------------------- */

/* n x m (m <= n), orthonormal columns, row-major: the Q of a random matrix. */
static double *rand_orth(size_t n, size_t m, uint64_t seed)
{
    double *q = tu_doubles(n * m), *tau = tu_doubles(m);
    for (size_t i = 0; i < n * m; i++)
        q[i] = tu_rand(&seed);
    assert_int_equal(LAPACKE_dgeqrf(LAPACK_ROW_MAJOR, (lapack_int)n, (lapack_int)m, q, (lapack_int)m, tau), 0);
    assert_int_equal(
        LAPACKE_dorgqr(LAPACK_ROW_MAJOR, (lapack_int)n, (lapack_int)m, (lapack_int)m, q, (lapack_int)m, tau), 0);
    free(tau);
    return q;
}

/* A = sum_i lam[i] q_i q_i^T (n x n) for r random orthonormal q_i. */
static double *with_spectrum(size_t n, const double *lam, size_t r, uint64_t seed)
{
    double *q = rand_orth(n, r, seed), *a = tu_doubles(n * n);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j <= i; j++) {
            double s = 0.0;
            for (size_t t = 0; t < r; t++)
                s += lam[t] * q[i * r + t] * q[j * r + t];
            a[i * n + j] = a[j * n + i] = s;
        }
    free(q);
    return a;
}

/* B B^T + noise * G G^T / n, B n x rank, G n x n: PSD, numerical rank `rank`. */
static double *lowrank_plus_noise(size_t n, size_t rank, double noise, uint64_t seed)
{
    double *b = tu_doubles(n * rank), *g = tu_doubles(n * n), *a = tu_doubles(n * n);
    for (size_t i = 0; i < n * rank; i++)
        b[i] = tu_rand(&seed);
    for (size_t i = 0; i < n * n; i++)
        g[i] = tu_rand(&seed);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j <= i; j++) {
            double s = 0.0, t = 0.0;
            for (size_t r = 0; r < rank; r++)
                s += b[i * rank + r] * b[j * rank + r];
            for (size_t r = 0; noise > 0.0 && r < n; r++)
                t += g[i * n + r] * g[j * n + r];
            a[i * n + j] = a[j * n + i] = s + noise * t / (double)n;
        }
    free(b);
    free(g);
    return a;
}

/* The exact top k pairs of a (kpca_eig_top on a copy). */
static void exact_top(const double *a, size_t n, size_t k, double *ev, double *u)
{
    double *w = tu_doubles(n * n);
    memcpy(w, a, n * n * sizeof *w);
    kpca_error err;
    assert_int_equal(kpca_eig_top(w, n, k, KPCA_EIG_EVD, ev, u, &err), KPCA_OK);
    free(w);
}

static void check_orthonormal_rows(const double *u, size_t k, size_t n, double tol, const char *what)
{
    for (size_t a = 0; a < k; a++)
        for (size_t b = 0; b <= a; b++) {
            double s = 0.0;
            for (size_t i = 0; i < n; i++)
                s += u[a * n + i] * u[b * n + i];
            if (!(fabs(s - (a == b ? 1.0 : 0.0)) < tol))
                fail_msg("%s: (U U^T)[%zu][%zu] = %.17g", what, a, b, s);
        }
}

typedef struct {
    double max_rel_eval; /* max_j |theta_j - lambda_j| / lambda_j */
    double min_dot;      /* min_j u_j . v_j (same sign rule: close to +1) */
} rand_err;

/* Runs kpca_eig_randomized on a and compares it with the exact solver; checks
 * what holds for any input: descending Ritz values below the eigenvalues,
 * orthonormal rows, the sign rule. */
static rand_err run_randomized(const double *a, size_t n, size_t k, size_t p, size_t q, uint64_t seed,
                               const char *what)
{
    double *ev = tu_doubles(k), *u = tu_doubles(k * n), *rev = tu_doubles(k), *ru = tu_doubles(k * n);
    double *copy = tu_doubles(n * n);
    memcpy(copy, a, n * n * sizeof *copy);
    exact_top(a, n, k, ev, u);
    kpca_error err;
    if (kpca_eig_randomized(a, n, k, p, q, seed, rev, ru, &err) != KPCA_OK)
        fail_msg("%s: %s", what, err.msg);
    assert_memory_equal(copy, a, n * n * sizeof *copy); /* a untouched */
    rand_err r = {0.0, 1.0};
    for (size_t j = 0; j < k; j++) {
        if (j > 0 && !(rev[j] <= rev[j - 1]))
            fail_msg("%s: Ritz value %zu (%g) above %zu (%g)", what, j, rev[j], j - 1, rev[j - 1]);
        if (!(rev[j] <= ev[j] + 1e-12 * ev[0])) /* interlacing */
            fail_msg("%s: Ritz value %zu is %.17g, above the eigenvalue %.17g", what, j, rev[j], ev[j]);
        r.max_rel_eval = fmax(r.max_rel_eval, fabs(rev[j] - ev[j]) / fabs(ev[j]));
        double dot = 0.0;
        for (size_t i = 0; i < n; i++)
            dot += u[j * n + i] * ru[j * n + i];
        r.min_dot = fmin(r.min_dot, dot);
        tu_check_sign_rule(ru + j * n, n, 1, what, j);
    }
    check_orthonormal_rows(ru, k, n, 1e-12, what);
    free(ev);
    free(u);
    free(rev);
    free(ru);
    free(copy);
    return r;
}

/* ---- tests ------------------------------------------------------------------------ */

static void test_rand_exact_low_rank(void **state)
{
    (void)state;
    const size_t n = 200, rank = 8;
    double *a = lowrank_plus_noise(n, rank, 0.0, 11);
    /* the sketch spans the whole range as soon as k + p >= rank */
    const struct { size_t k, p, q; } cases[] = {{8, 10, 2}, {8, 0, 0}, {5, 3, 0}, {3, 10, 1}, {1, 7, 0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char what[64];
        snprintf(what, sizeof what, "rank 8, k=%zu p=%zu q=%zu", cases[c].k, cases[c].p, cases[c].q);
        rand_err r = run_randomized(a, n, cases[c].k, cases[c].p, cases[c].q, 7, what);
        if (!(r.max_rel_eval < 1e-8) || !(r.min_dot > 1.0 - 1e-8))
            fail_msg("%s: eigenvalue error %g, min u.v %.17g", what, r.max_rel_eval, r.min_dot);
    }
    free(a);
}

static void test_rand_low_rank_plus_noise(void **state)
{
    (void)state;
    const size_t n = 150, rank = 10;
    /* eigenvalues 72 .. 29 of signal, then noise from 0.61: rate at most
     * (0.61 / 29)^10 with the defaults (4 iterations) */
    double *a = lowrank_plus_noise(n, rank, 0.5, 12);
    rand_err r = run_randomized(a, n, rank, KPCA_RSVD_OVERSAMPLE, KPCA_RSVD_POWER_ITERS, 3, "low rank + noise");
    if (!(r.max_rel_eval < 1e-9) || !(r.min_dot > 1.0 - 1e-8))
        fail_msg("low rank + noise: eigenvalue error %g, min u.v %.17g", r.max_rel_eval, r.min_dot);
    free(a);
}

static void test_rand_decaying(void **state)
{
    (void)state;
    const size_t n = 250, k = 10;
    double lam[250];
    for (size_t i = 0; i < n; i++)
        lam[i] = pow(0.85, (double)i); /* slow: lam_20 / lam_10 = 0.2 */
    double *a = with_spectrum(n, lam, n, 21);
    /* the defaults (p = k = 10, 4 iterations): relative error of order
     * (lam_{k+p+1} / lam_k)^(2(q+1)) = 0.85^(10 * 10) = 9e-8 for the k-th */
    rand_err def = run_randomized(a, n, k, KPCA_RSVD_OVERSAMPLE, KPCA_RSVD_POWER_ITERS, 5, "decaying, defaults");
    if (!(def.max_rel_eval < 6e-4) || !(def.min_dot > 1.0 - 1e-3))
        fail_msg("decaying spectrum: eigenvalue error %g, min u.v %.17g", def.max_rel_eval, def.min_dot);
    /* power iterations help: plain sketch (0.13 measured) vs 6 iterations
     * (rate 0.85^(6 * 14) = 1e-6; 6e-7 measured) */
    rand_err q0 = run_randomized(a, n, k, 5, 0, 5, "decaying, q=0");
    rand_err q6 = run_randomized(a, n, k, 5, 6, 5, "decaying, q=6");
    if (!(q6.max_rel_eval < 1e-3 * q0.max_rel_eval) || !(q6.max_rel_eval < 1e-5))
        fail_msg("decaying spectrum: eigenvalue error %g without, %g with 6 power iterations", q0.max_rel_eval,
                 q6.max_rel_eval);
    /* a sketch of the whole space is exact, whatever the spectrum */
    rand_err full = run_randomized(a, n, k, n, 0, 5, "decaying, s = n");
    if (!(full.max_rel_eval < 1e-10) || !(full.min_dot > 1.0 - 1e-10))
        fail_msg("full sketch: eigenvalue error %g, min u.v %.17g", full.max_rel_eval, full.min_dot);
    free(a);
}

static void test_rand_full_sketch_indefinite(void **state)
{
    (void)state;
    /* s = n: Q is orthogonal, B similar to A, so even an indefinite matrix's
     * top (algebraic) pairs come out exact; oversample is clipped to n - k */
    const size_t n = 40, k = 40;
    double *a = tu_doubles(n * n), ev[40], u[1600], rev[40], ru[1600];
    uint64_t s = 77;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j <= i; j++)
            a[i * n + j] = a[j * n + i] = tu_rand(&s);
    exact_top(a, n, k, ev, u);
    kpca_error err;
    assert_int_equal(kpca_eig_randomized(a, n, k, SIZE_MAX, 1, 9, rev, ru, &err), KPCA_OK);
    for (size_t j = 0; j < k; j++)
        if (!(fabs(rev[j] - ev[j]) < 1e-12 * fabs(ev[0])))
            fail_msg("indefinite, s = n: eigenvalue %zu is %.17g, exact %.17g", j, rev[j], ev[j]);
    assert_true(ev[k - 1] < 0.0);
    check_orthonormal_rows(ru, k, n, 1e-12, "indefinite, s = n");
    free(a);
}

static void test_rand_deterministic(void **state)
{
    (void)state;
    const size_t n = 120, k = 6;
    double lam[120];
    for (size_t i = 0; i < n; i++)
        lam[i] = 1.0 / (1.0 + (double)i * (double)i);
    double *a = with_spectrum(n, lam, n, 31);
    double ev1[6], ev2[6], ev3[6], u1[720], u2[720], u3[720];
    kpca_error err;
    assert_int_equal(kpca_eig_randomized(a, n, k, 4, 1, 42, ev1, u1, &err), KPCA_OK);
    assert_int_equal(kpca_eig_randomized(a, n, k, 4, 1, 42, ev2, u2, &err), KPCA_OK);
    assert_memory_equal(ev1, ev2, sizeof ev1);
    assert_memory_equal(u1, u2, sizeof u1);
    /* another seed: another sketch, close but not the same bits */
    assert_int_equal(kpca_eig_randomized(a, n, k, 4, 1, 43, ev3, u3, &err), KPCA_OK);
    assert_true(memcmp(ev1, ev3, sizeof ev1) != 0);
    for (size_t j = 0; j < k; j++)
        assert_true(fabs(ev1[j] - ev3[j]) < 1e-3 * ev1[0]);
    free(a);
}

static void test_rand_bad_k(void **state)
{
    (void)state;
    double a[9] = {2, 1, 0, 1, 2, 1, 0, 1, 2}, ev[4], u[12];
    kpca_error err;
    kpca_error_clear(&err);
    assert_int_equal(kpca_eig_randomized(a, 3, 0, 10, 2, 1, ev, u, &err), KPCA_EUSAGE);
    assert_int_equal(err.code, KPCA_EUSAGE);
    assert_true(err.msg[0] != '\0');
    assert_int_equal(kpca_eig_randomized(a, 3, 4, 10, 2, 1, ev, u, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_eig_randomized(a, 3, 4, 10, 2, 1, ev, u, NULL), KPCA_EUSAGE);
    assert_int_equal(kpca_eig_randomized(a, 0, 1, 10, 2, 1, ev, u, NULL), KPCA_EUSAGE);
    /* k = n is fine: eigenvalues 2 + sqrt 2, 2, 2 - sqrt 2 */
    assert_int_equal(kpca_eig_randomized(a, 3, 3, 0, 0, 1, ev, u, &err), KPCA_OK);
    assert_true(fabs(ev[0] - (2.0 + sqrt(2.0))) < 1e-14 && fabs(ev[1] - 2.0) < 1e-14 &&
                fabs(ev[2] - (2.0 - sqrt(2.0))) < 1e-14);
}

/* ---- allocation failures ----------------------------------------------------------- */

static kpca_status op_randomized(kpca_error *err)
{
    double a[30 * 30], x[30 * 3], ev[4], u[4 * 30];
    kpca_kernel kern = kpca_kernel_poly(2);
    uint64_t s = 61;
    for (size_t i = 0; i < 30 * 3; i++)
        x[i] = tu_rand(&s);
    kpca_kernel_gram(&kern, x, 30, 3, a);
    return kpca_eig_randomized(a, 30, 4, 5, 2, 1, ev, u, err);
}

/* the default oversampling: as many as k, never fewer than Halko et al.'s
 * 10; an explicit p is taken as given; the sketch never exceeds n */
static void test_sketch_size(void **state)
{
    (void)state;
    assert_int_equal(kpca_rsvd_sketch(1000, 4, 0), 14);
    assert_int_equal(kpca_rsvd_sketch(1000, 10, 0), 20);
    assert_int_equal(kpca_rsvd_sketch(1000, 64, 0), 128);
    assert_int_equal(kpca_rsvd_sketch(1000, 4, 3), 7);
    assert_int_equal(kpca_rsvd_sketch(12, 4, 0), 12);
    assert_int_equal(kpca_rsvd_sketch(100, 70, 0), 100);
    assert_int_equal(KPCA_RSVD_OVERSAMPLE, 0);
}

static void test_alloc_failures(void **state)
{
    (void)state;
    assert_true(tu_fail_loop("kpca_eig_randomized", op_randomized, 1) >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rand_exact_low_rank),
        cmocka_unit_test(test_rand_low_rank_plus_noise),
        cmocka_unit_test(test_rand_decaying),
        cmocka_unit_test(test_rand_full_sketch_indefinite),
        cmocka_unit_test(test_rand_deterministic),
        cmocka_unit_test(test_rand_bad_k),
        cmocka_unit_test(test_sketch_size),
        cmocka_unit_test(test_alloc_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
