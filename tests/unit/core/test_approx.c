/* test_approx.c - randomized eigensolver, landmarks (uniform, k-means) and
 * Nyström kernel PCA, against the exact solvers (kpca_eig_top,
 * kpca_model_fit). */
#include "testutil.h"

#include <lapacke.h>

/* ---- helpers ------------------------------------------------------------------- */

static double *xmalloc(size_t n)
{
    double *p = malloc((n ? n : 1) * sizeof(double));
    assert_non_null(p);
    return p;
}

/* n x m (m <= n), orthonormal columns, row-major: the Q of a random matrix. */
static double *rand_orth(size_t n, size_t m, uint64_t seed)
{
    double *q = xmalloc(n * m), *tau = xmalloc(m);
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
    double *q = rand_orth(n, r, seed), *a = xmalloc(n * n);
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
    double *b = xmalloc(n * rank), *g = xmalloc(n * n), *a = xmalloc(n * n);
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
    double *w = xmalloc(n * n);
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

/* The first entry of largest magnitude of v (n entries, stride apart) is positive. */
static void check_sign_rule(const double *v, size_t n, size_t stride, const char *what, size_t j)
{
    size_t arg = 0;
    for (size_t i = 1; i < n; i++)
        if (fabs(v[i * stride]) > fabs(v[arg * stride]))
            arg = i;
    if (!(v[arg * stride] > 0.0))
        fail_msg("%s: vector %zu has its largest entry %g negative", what, j, v[arg * stride]);
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
    double *ev = xmalloc(k), *u = xmalloc(k * n), *rev = xmalloc(k), *ru = xmalloc(k * n);
    double *copy = xmalloc(n * n);
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
        check_sign_rule(ru + j * n, n, 1, what, j);
    }
    check_orthonormal_rows(ru, k, n, 1e-12, what);
    free(ev);
    free(u);
    free(rev);
    free(ru);
    free(copy);
    return r;
}

/* ---- randomized eigensolver ------------------------------------------------------ */

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
    double *a = xmalloc(n * n), ev[40], u[1600], rev[40], ru[1600];
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

/* ---- landmarks ------------------------------------------------------------------- */

static void test_uniform_landmarks(void **state)
{
    (void)state;
    kpca_error err;
    const size_t n = 50;
    size_t idx[50], idx2[50], hits[50] = {0};
    const size_t ls[] = {1, 10, 49, 50};
    for (size_t t = 0; t < 4; t++)
        for (uint64_t seed = 0; seed < 20; seed++) {
            size_t l = ls[t];
            assert_int_equal(kpca_landmarks_uniform(n, l, seed, idx, &err), KPCA_OK);
            for (size_t i = 0; i < l; i++) {
                assert_true(idx[i] < n);
                if (i > 0)
                    assert_true(idx[i] > idx[i - 1]); /* ascending, so distinct */
            }
            assert_int_equal(kpca_landmarks_uniform(n, l, seed, idx2, &err), KPCA_OK);
            assert_memory_equal(idx, idx2, l * sizeof *idx);
        }
    /* seed 0 draws too (kpca_subset_indices would give the first rows) */
    assert_int_equal(kpca_landmarks_uniform(n, 10, 0, idx, &err), KPCA_OK);
    assert_true(idx[9] != 9);
    assert_int_equal(kpca_landmarks_uniform(n, 10, 1, idx2, &err), KPCA_OK);
    assert_true(memcmp(idx, idx2, 10 * sizeof *idx) != 0);
    /* uniform: each index drawn about 2000 * 10 / 50 = 400 times (sd 18) */
    for (uint64_t seed = 0; seed < 2000; seed++) {
        assert_int_equal(kpca_landmarks_uniform(n, 10, seed, idx, &err), KPCA_OK);
        for (size_t i = 0; i < 10; i++)
            hits[idx[i]]++;
    }
    for (size_t i = 0; i < n; i++)
        if (hits[i] < 310 || hits[i] > 490)
            fail_msg("index %zu drawn %zu times of an expected 400", i, hits[i]);
    kpca_error_clear(&err);
    assert_int_equal(kpca_landmarks_uniform(n, 0, 1, idx, &err), KPCA_EUSAGE);
    assert_true(err.msg[0] != '\0');
    assert_int_equal(kpca_landmarks_uniform(n, n + 1, 1, idx, NULL), KPCA_EUSAGE);
}

/* Index of the centre nearest to p (first on ties). */
static size_t nearest(const double *c, size_t l, size_t dim, const double *p)
{
    size_t best = 0;
    double bd = INFINITY;
    for (size_t j = 0; j < l; j++) {
        double d = 0.0;
        for (size_t t = 0; t < dim; t++)
            d += (c[j * dim + t] - p[t]) * (c[j * dim + t] - p[t]);
        if (d < bd) {
            bd = d;
            best = j;
        }
    }
    return best;
}

static void test_kmeans_separated(void **state)
{
    (void)state;
    /* 5 clusters of 40 points, centres 10 apart along the axes, noise 0.1,
     * interleaved in the data */
    enum { NC = 5, PER = 40, N = NC * PER, DIM = 3 };
    double x[N * DIM], truth[NC * DIM] = {0}, mean[NC * DIM] = {0}, c[NC * DIM], c2[NC * DIM];
    uint64_t s = 5;
    for (size_t j = 0; j < NC; j++) {
        truth[j * DIM + j % DIM] = 10.0 * (double)(j + 1);
        truth[j * DIM + (j + 1) % DIM] = -5.0 * (double)j;
    }
    for (size_t i = 0; i < N; i++)
        for (size_t t = 0; t < DIM; t++) {
            x[i * DIM + t] = truth[(i % NC) * DIM + t] + 0.1 * tu_rand(&s);
            mean[(i % NC) * DIM + t] += x[i * DIM + t] / PER;
        }
    kpca_error err;
    for (uint64_t seed = 0; seed < 8; seed++) {
        size_t iters = 0;
        assert_int_equal(kpca_landmarks_kmeans(x, N, DIM, NC, seed, 100, c, &iters, &err), KPCA_OK);
        assert_true(iters >= 1 && iters < 100); /* converged */
        /* each centre is one cluster's mean: a one-to-one match */
        int used[NC] = {0};
        for (size_t j = 0; j < NC; j++) {
            size_t m = nearest(mean, NC, DIM, c + j * DIM);
            assert_false(used[m]);
            used[m] = 1;
            for (size_t t = 0; t < DIM; t++)
                if (!(fabs(c[j * DIM + t] - mean[m * DIM + t]) < 1e-12))
                    fail_msg("seed %llu: centre %zu is not the mean of cluster %zu", (unsigned long long)seed, j, m);
        }
        assert_int_equal(kpca_landmarks_kmeans(x, N, DIM, NC, seed, 100, c2, NULL, &err), KPCA_OK);
        assert_memory_equal(c, c2, sizeof c);
    }
    /* max_iter = 0: the k-means++ seeds, which are data points */
    size_t iters = 99;
    assert_int_equal(kpca_landmarks_kmeans(x, N, DIM, NC, 3, 0, c, &iters, &err), KPCA_OK);
    assert_int_equal(iters, 0);
    for (size_t j = 0; j < NC; j++) {
        int found = 0;
        for (size_t i = 0; i < N && !found; i++)
            found = memcmp(c + j * DIM, x + i * DIM, DIM * sizeof(double)) == 0;
        assert_true(found);
    }
}

static void test_kmeans_fixed_point(void **state)
{
    (void)state;
    /* random data: at convergence every centre is the mean of the points
     * nearest to it, and none is empty */
    enum { N = 300, DIM = 4, L = 20 };
    double *x = xmalloc(N * DIM), c[L * DIM], sum[L * DIM];
    size_t cnt[L];
    uint64_t s = 17;
    for (size_t i = 0; i < N * DIM; i++)
        x[i] = tu_rand(&s);
    kpca_error err;
    size_t iters;
    assert_int_equal(kpca_landmarks_kmeans(x, N, DIM, L, 4, 500, c, &iters, &err), KPCA_OK);
    assert_true(iters < 500);
    memset(sum, 0, sizeof sum);
    memset(cnt, 0, sizeof cnt);
    for (size_t i = 0; i < N; i++) {
        size_t j = nearest(c, L, DIM, x + i * DIM);
        cnt[j]++;
        for (size_t t = 0; t < DIM; t++)
            sum[j * DIM + t] += x[i * DIM + t];
    }
    for (size_t j = 0; j < L; j++) {
        assert_true(cnt[j] > 0);
        for (size_t t = 0; t < DIM; t++)
            assert_true(fabs(sum[j * DIM + t] / (double)cnt[j] - c[j * DIM + t]) < 1e-12);
    }
    free(x);
}

static void test_kmeans_empty_clusters(void **state)
{
    (void)state;
    /* 3 distinct points, 10 copies each, 5 centres: k-means++ must repeat a
     * point, ties then empty a cluster, and re-seeding keeps every centre on
     * a data point (an empty cluster's centre would be left at zero) */
    enum { N = 30, DIM = 2, L = 5 };
    const double loc[3][DIM] = {{1, 2}, {-3, 1}, {4, -4}};
    double x[N * DIM], c[L * DIM];
    for (size_t i = 0; i < N; i++)
        memcpy(x + i * DIM, loc[i % 3], sizeof loc[0]);
    kpca_error err;
    for (uint64_t seed = 1; seed < 6; seed++) {
        size_t iters;
        assert_int_equal(kpca_landmarks_kmeans(x, N, DIM, L, seed, 20, c, &iters, &err), KPCA_OK);
        int covered[3] = {0};
        for (size_t j = 0; j < L; j++) {
            int on = -1;
            for (int m = 0; m < 3; m++)
                if (c[j * DIM] == loc[m][0] && c[j * DIM + 1] == loc[m][1])
                    on = m;
            if (on < 0)
                fail_msg("seed %llu: centre %zu at (%g, %g) is on no data point", (unsigned long long)seed, j,
                         c[j * DIM], c[j * DIM + 1]);
            covered[on] = 1;
        }
        assert_true(covered[0] && covered[1] && covered[2]);
    }
    /* l = n: every point its own centre */
    double c30[N * DIM];
    assert_int_equal(kpca_landmarks_kmeans(x, N, DIM, N, 1, 10, c30, NULL, &err), KPCA_OK);
}

static void test_kmeans_bad_args(void **state)
{
    (void)state;
    double x[6] = {0, 1, 2, 3, 4, 5}, c[8];
    kpca_error err;
    kpca_error_clear(&err);
    assert_int_equal(kpca_landmarks_kmeans(x, 3, 2, 0, 1, 10, c, NULL, &err), KPCA_EUSAGE);
    assert_true(err.msg[0] != '\0');
    assert_int_equal(kpca_landmarks_kmeans(x, 3, 2, 4, 1, 10, c, NULL, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_landmarks_kmeans(x, 3, 0, 2, 1, 10, c, NULL, NULL), KPCA_EUSAGE);
}

/* ---- Nyström ----------------------------------------------------------------------- */

typedef struct {
    size_t n, l, k, kept;
    double *kll, *knl, *proj, *kbar, *evals, *zfit;
} nys;

/* Nyström on the fit points fit (n x dim) with landmarks lm (l x dim). */
static nys nystrom(const kpca_kernel *kern, const double *fit, size_t n, const double *lm, size_t l, size_t dim,
                   size_t k)
{
    nys r = {n, l, k, 0, xmalloc(l * l), xmalloc(n * l), xmalloc(k * l), xmalloc(l), xmalloc(k), xmalloc(n * k)};
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
    double *z = xmalloc(m * r->k);
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
            check_sign_rule(r->zfit + c, r->n, r->k, what, c);
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
    double *zf = xmalloc(n * kk), *zt = xmalloc(test.n * kk), *kt = xmalloc(test.n * n);
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
    assert_int_equal(kpca_landmarks_kmeans(fit.x, N, DIM, 30, 8, 100, lm, NULL, &err), KPCA_OK);
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

typedef kpca_status (*op_fn)(kpca_error *err);

static double g_a[30 * 30], g_x[30 * 3];

static kpca_status op_randomized(kpca_error *err)
{
    double ev[4], u[4 * 30];
    return kpca_eig_randomized(g_a, 30, 4, 5, 2, 1, ev, u, err);
}

static kpca_status op_kmeans(kpca_error *err)
{
    double c[5 * 3];
    return kpca_landmarks_kmeans(g_x, 30, 3, 5, 1, 10, c, NULL, err);
}

static kpca_status op_nystrom(kpca_error *err)
{
    /* g_a as K_LL of 30 landmarks and its first 20 rows as K_nL */
    double proj[3 * 30], kbar[30], ev[3];
    size_t kept;
    return kpca_nystrom_pca(g_a, g_a, 20, 30, 3, -1, proj, kbar, ev, NULL, &kept, NULL, err);
}

/* Fails the (N+1)th allocation and every later one for N = 0, 1, ...: each
 * run must succeed or report KPCA_ENOMEM (leaks show under valgrind/ASan). */
static void fail_loop(const char *name, op_fn op)
{
    for (long n = 0;; n++) {
        kpca_error err;
        kpca_error_clear(&err);
        kpca_mem_fail_after(n);
        kpca_status st = op(&err);
        long count = kpca_mem_fail_after(-1);
        if (st == KPCA_OK) {
            assert_true(count <= n);
            assert_true(n > 0);
            return;
        }
        if (st != KPCA_ENOMEM)
            fail_msg("%s, failing after %ld allocations: %s", name, n, err.msg);
        assert_true(err.msg[0] != '\0');
        assert_true(n < 1000);
    }
}

static void test_alloc_failures(void **state)
{
    (void)state;
    kpca_kernel kern = kpca_kernel_poly(2);
    uint64_t s = 61;
    for (size_t i = 0; i < 30 * 3; i++)
        g_x[i] = tu_rand(&s);
    kpca_kernel_gram(&kern, g_x, 30, 3, g_a);
    fail_loop("kpca_eig_randomized", op_randomized);
    fail_loop("kpca_landmarks_kmeans", op_kmeans);
    fail_loop("kpca_nystrom_pca", op_nystrom);
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
        cmocka_unit_test(test_uniform_landmarks),
        cmocka_unit_test(test_kmeans_separated),
        cmocka_unit_test(test_kmeans_fixed_point),
        cmocka_unit_test(test_kmeans_empty_clusters),
        cmocka_unit_test(test_kmeans_bad_args),
        cmocka_unit_test(test_nystrom_all_landmarks_exact),
        cmocka_unit_test(test_nystrom_fewer_landmarks),
        cmocka_unit_test(test_nystrom_tolerance),
        cmocka_unit_test(test_nystrom_bad_args),
        cmocka_unit_test(test_alloc_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
