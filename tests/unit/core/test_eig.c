/* test_eig.c - the top-k symmetric eigensolver (dsyevd / dsyevr). */
#include "testutil.h"

#include <lapacke.h>

/* A random symmetric n x n matrix (both triangles). */
static double *rand_sym(size_t n, uint64_t seed)
{
    double *a = malloc(n * n * sizeof *a);
    assert_non_null(a);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j <= i; j++)
            a[i * n + j] = a[j * n + i] = tu_rand(&seed);
    return a;
}

/* A PSD matrix of the given rank (B B^T, B n x rank): many zero eigenvalues,
 * like a centred kernel matrix. */
static double *rand_lowrank(size_t n, size_t rank, uint64_t seed)
{
    double *b = malloc(n * rank * sizeof *b), *a = calloc(n * n, sizeof *a);
    assert_true(b && a);
    for (size_t i = 0; i < n * rank; i++)
        b[i] = tu_rand(&seed);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double s = 0.0;
            for (size_t r = 0; r < rank; r++)
                s += b[i * rank + r] * b[j * rank + r];
            a[i * n + j] = s;
        }
    free(b);
    return a;
}

/* All eigenvalues of a (ascending), computed here with dsyevd 'N'. */
static double *all_eigenvalues(const double *a, size_t n)
{
    double *c = malloc(n * n * sizeof *c), *w = malloc(n * sizeof *w);
    assert_true(c && w);
    memcpy(c, a, n * n * sizeof *c);
    assert_int_equal(LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'N', 'U', (lapack_int)n, c, (lapack_int)n, w), 0);
    free(c);
    return w;
}

/* Checks one solver's output against A (the untouched original). */
static void check_pairs(const double *A, size_t n, size_t k, const double *evals, const double *U,
                        const double *ref_asc, double norm, const char *what)
{
    for (size_t j = 0; j < k; j++) {
        /* descending, and the k largest */
        if (j > 0 && !(evals[j] <= evals[j - 1]))
            fail_msg("%s n=%zu k=%zu: eigenvalue %zu (%g) above %zu (%g)", what, n, k, j, evals[j], j - 1,
                     evals[j - 1]);
        double want = ref_asc[n - 1 - j];
        if (!(fabs(evals[j] - want) <= 1e-10 * norm))
            fail_msg("%s n=%zu k=%zu: eigenvalue %zu is %.17g, all-pairs solver says %.17g", what, n, k, j, evals[j],
                     want);
        const double *u = U + j * n;
        /* residual ||A u - mu u|| */
        double r2 = 0.0;
        for (size_t i = 0; i < n; i++) {
            double s = 0.0;
            for (size_t l = 0; l < n; l++)
                s += A[i * n + l] * u[l];
            s -= evals[j] * u[i];
            r2 += s * s;
        }
        if (!(sqrt(r2) <= 1e-10 * norm))
            fail_msg("%s n=%zu k=%zu: residual of pair %zu is %g (||A|| %g)", what, n, k, j, sqrt(r2), norm);
        /* sign: the (first) entry of largest magnitude is positive */
        size_t arg = 0;
        for (size_t i = 1; i < n; i++)
            if (fabs(u[i]) > fabs(u[arg]))
                arg = i;
        if (!(u[arg] > 0.0))
            fail_msg("%s n=%zu k=%zu: vector %zu has its largest entry %g negative", what, n, k, j, u[arg]);
    }
    /* orthonormal rows: U U^T = I */
    for (size_t a = 0; a < k; a++)
        for (size_t b = 0; b <= a; b++) {
            double s = 0.0;
            for (size_t i = 0; i < n; i++)
                s += U[a * n + i] * U[b * n + i];
            double e = fabs(s - (a == b ? 1.0 : 0.0));
            if (!(e < 1e-10))
                fail_msg("%s n=%zu k=%zu: (U U^T - I)[%zu][%zu] = %g", what, n, k, a, b, e);
        }
}

static void run_case(const double *A, size_t n, size_t k, const char *label)
{
    double *ref = all_eigenvalues(A, n);
    double norm = fmax(fabs(ref[0]), fabs(ref[n - 1])); /* spectral norm */
    assert_true(norm > 0.0);
    double *work = malloc(n * n * sizeof *work);
    double *ev[2], *U[2];
    const kpca_eig_method methods[2] = {KPCA_EIG_EVD, KPCA_EIG_EVR};
    for (int m = 0; m < 2; m++) {
        ev[m] = malloc(k * sizeof(double));
        U[m] = malloc(k * n * sizeof(double));
        assert_true(work && ev[m] && U[m]);
        memcpy(work, A, n * n * sizeof *work);
        kpca_error err;
        kpca_status st = kpca_eig_top(work, n, k, methods[m], ev[m], U[m], &err);
        if (st != KPCA_OK)
            fail_msg("%s %s n=%zu k=%zu: %s", label, kpca_eig_method_name(methods[m]), n, k, err.msg);
        char what[64];
        snprintf(what, sizeof what, "%s/%s", label, kpca_eig_method_name(methods[m]));
        check_pairs(A, n, k, ev[m], U[m], ref, norm, what);
    }
    /* the drivers agree: eigenvalues, and eigenvectors where the gap allows */
    for (size_t j = 0; j < k; j++) {
        if (!(fabs(ev[0][j] - ev[1][j]) <= 1e-10 * norm))
            fail_msg("%s n=%zu k=%zu: eigenvalue %zu: evd %.17g evr %.17g", label, n, k, j, ev[0][j], ev[1][j]);
        double gap = INFINITY;
        if (j > 0)
            gap = fmin(gap, ev[0][j - 1] - ev[0][j]);
        gap = fmin(gap, ev[0][j] - ref[n - 2 - j < n ? n - 2 - j : 0]);
        if (j + 1 < n && gap > 1e-3 * norm) {
            double dot = 0.0;
            for (size_t i = 0; i < n; i++)
                dot += U[0][j * n + i] * U[1][j * n + i];
            if (!(fabs(fabs(dot) - 1.0) <= 1e-9))
                fail_msg("%s n=%zu k=%zu: vector %zu differs between drivers (|dot| = %.17g)", label, n, k, j,
                         fabs(dot));
        }
    }
    for (int m = 0; m < 2; m++) {
        free(ev[m]);
        free(U[m]);
    }
    free(work);
    free(ref);
}

static void test_random_symmetric(void **state)
{
    (void)state;
    const size_t ns[] = {50, 123, 300};
    for (size_t t = 0; t < 3; t++) {
        size_t n = ns[t];
        double *A = rand_sym(n, 1000 + n);
        const size_t ks[] = {1, 2, 7, n / 10, n / 4, n - 1, n};
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
            run_case(A, n, ks[i], "random");
        free(A);
    }
}

static void test_low_rank_psd(void **state)
{
    (void)state;
    const size_t n = 120, rank = 10;
    double *A = rand_lowrank(n, rank, 5);
    const size_t ks[] = {5, 10, 11, 30, n};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
        run_case(A, n, ks[i], "lowrank");
    free(A);
}

static void test_small_and_known(void **state)
{
    (void)state;
    /* diag(3, -1, 2) permuted: eigenvalues 3, 2, -1 with unit vectors */
    const double A[9] = {-1, 0, 0, 0, 3, 0, 0, 0, 2};
    for (int m = KPCA_EIG_AUTO; m <= KPCA_EIG_EVR; m++) {
        double work[9], ev[3], U[9];
        memcpy(work, A, sizeof A);
        kpca_error err;
        assert_int_equal(kpca_eig_top(work, 3, 3, (kpca_eig_method)m, ev, U, &err), KPCA_OK);
        assert_true(fabs(ev[0] - 3.0) < 1e-14 && fabs(ev[1] - 2.0) < 1e-14 && fabs(ev[2] + 1.0) < 1e-14);
        /* unit vectors e2, e3, e1, each signed positive */
        assert_true(fabs(U[0 * 3 + 1] - 1.0) < 1e-14);
        assert_true(fabs(U[1 * 3 + 2] - 1.0) < 1e-14);
        assert_true(fabs(U[2 * 3 + 0] - 1.0) < 1e-14);
    }
    /* a negative-definite matrix: the sign convention still holds */
    const double B[4] = {-2, -1, -1, -2}; /* eigenvalues -1 (1,-1)/sqrt2, -3 (1,1)/sqrt2 */
    for (int m = KPCA_EIG_EVD; m <= KPCA_EIG_EVR; m++) {
        double work[4], ev[2], U[4];
        memcpy(work, B, sizeof B);
        kpca_error err;
        assert_int_equal(kpca_eig_top(work, 2, 2, (kpca_eig_method)m, ev, U, &err), KPCA_OK);
        assert_true(fabs(ev[0] + 1.0) < 1e-14 && fabs(ev[1] + 3.0) < 1e-14);
        /* entries of (nearly) equal magnitude: the larger computed one, or
         * the first on an exact tie, is positive */
        for (int j = 0; j < 2; j++) {
            const double *u = U + 2 * j;
            assert_true(fabs(fabs(u[0]) - sqrt(0.5)) < 1e-14 && fabs(fabs(u[1]) - sqrt(0.5)) < 1e-14);
            assert_true(fabs(u[1]) > fabs(u[0]) ? u[1] > 0.0 : u[0] > 0.0);
        }
        assert_true(fabs(U[1] + U[0]) < 1e-14); /* (1, -1) up to sign */
        assert_true(fabs(U[3] - U[2]) < 1e-14); /* (1, 1) */
    }
}

static void test_bad_k(void **state)
{
    (void)state;
    const size_t n = 10;
    double *A = rand_sym(n, 3);
    double ev[11], U[11 * 10];
    for (int m = KPCA_EIG_AUTO; m <= KPCA_EIG_EVR; m++) {
        kpca_error err;
        kpca_error_clear(&err);
        assert_int_equal(kpca_eig_top(A, n, 0, (kpca_eig_method)m, ev, U, &err), KPCA_EUSAGE);
        assert_int_equal(err.code, KPCA_EUSAGE);
        assert_true(err.msg[0] != '\0');
        assert_int_equal(kpca_eig_top(A, n, n + 1, (kpca_eig_method)m, ev, U, &err), KPCA_EUSAGE);
        assert_int_equal(kpca_eig_top(A, n, n + 1, (kpca_eig_method)m, ev, U, NULL), KPCA_EUSAGE);
    }
    free(A);
}

/* a chooser that records what it saw and returns a fixed count */
typedef struct {
    size_t want, seen_n;
    double first, last;
} chooser_log;

static size_t fixed_count(const double *ev, size_t n, void *ctx)
{
    chooser_log *l = ctx;
    l->seen_n = n;
    l->first = ev[0];
    l->last = ev[n - 1];
    return l->want;
}

/* kpca_eig_top_chosen sees all n eigenvalues, descending, and then gives
 * exactly what kpca_eig_top (EVD) gives for the count it chose */
static void test_chosen_count(void **state)
{
    (void)state;
    const size_t n = 90;
    double *a = rand_lowrank(n, 40, 5), *b = malloc(n * n * sizeof *b), *all = all_eigenvalues(a, n);
    double *ev1 = malloc(n * sizeof *ev1), *ev2 = malloc(n * sizeof *ev2);
    double *u1 = malloc(n * n * sizeof *u1), *u2 = malloc(n * n * sizeof *u2);
    assert_true(b && ev1 && ev2 && u1 && u2);
    for (size_t want = 1; want <= n; want += 29) {
        chooser_log log = {want, 0, 0.0, 0.0};
        size_t k = 0;
        kpca_error err;
        memcpy(b, a, n * n * sizeof *b);
        assert_int_equal(kpca_eig_top_chosen(b, n, fixed_count, &log, &k, ev1, u1, &err), KPCA_OK);
        assert_int_equal(k, want);
        assert_int_equal(log.seen_n, n);
        assert_true(fabs(log.first - all[n - 1]) <= 1e-10 * all[n - 1]); /* the largest first */
        assert_true(fabs(log.last - all[0]) <= 1e-10 * all[n - 1]);
        memcpy(b, a, n * n * sizeof *b);
        assert_int_equal(kpca_eig_top(b, n, want, KPCA_EIG_EVD, ev2, u2, &err), KPCA_OK);
        assert_memory_equal(ev1, ev2, want * sizeof *ev1);
        assert_memory_equal(u1, u2, want * n * sizeof *u1);
    }
    /* a chooser out of range is an internal error, not a crash */
    chooser_log bad = {0, 0, 0.0, 0.0};
    size_t k = 7;
    kpca_error err;
    memcpy(b, a, n * n * sizeof *b);
    assert_int_equal(kpca_eig_top_chosen(b, n, fixed_count, &bad, &k, ev1, u1, &err), KPCA_EINTERNAL);
    bad.want = n + 1;
    memcpy(b, a, n * n * sizeof *b);
    assert_int_equal(kpca_eig_top_chosen(b, n, fixed_count, &bad, &k, ev1, u1, &err), KPCA_EINTERNAL);
    assert_int_equal(kpca_eig_top_chosen(b, n, NULL, NULL, &k, ev1, u1, &err), KPCA_EUSAGE);
    /* beyond LAPACK's int workspace: refused before the matrix is touched */
    bad.want = 1;
    assert_int_equal(kpca_eig_top_chosen(b, 46339, fixed_count, &bad, &k, ev1, u1, &err), KPCA_EUSAGE);
    assert_non_null(strstr(err.msg, "too large for the EVD driver"));
    free(a);
    free(b);
    free(all);
    free(ev1);
    free(ev2);
    free(u1);
    free(u2);
}

static void test_resolve_and_names(void **state)
{
    (void)state;
    /* the EVD driver's limit: dstedc's 1 + 4n + n^2 doubles in an int */
    assert_true(kpca_eig_evd_fits(46338));
    assert_false(kpca_eig_evd_fits(46339));
    assert_int_equal(kpca_eig_resolve(KPCA_EIG_EVD, 46338, 40000), KPCA_EIG_EVD);
    assert_int_equal(kpca_eig_resolve(KPCA_EIG_EVD, 46339, 40000), KPCA_EIG_EVR);
    /* explicit drivers are kept */
    assert_int_equal(kpca_eig_resolve(KPCA_EIG_EVD, 1000, 1), KPCA_EIG_EVD);
    assert_int_equal(kpca_eig_resolve(KPCA_EIG_EVR, 1000, 1000), KPCA_EIG_EVR);
    /* AUTO: EVR for few pairs, EVD for many */
    assert_int_equal(kpca_eig_resolve(KPCA_EIG_AUTO, 1000, 1), KPCA_EIG_EVR);
    assert_int_equal(kpca_eig_resolve(KPCA_EIG_AUTO, 1000, 32), KPCA_EIG_EVR);
    assert_int_equal(kpca_eig_resolve(KPCA_EIG_AUTO, 3000, 256), KPCA_EIG_EVR);
    assert_int_equal(kpca_eig_resolve(KPCA_EIG_AUTO, 1000, 500), KPCA_EIG_EVD);
    assert_int_equal(kpca_eig_resolve(KPCA_EIG_AUTO, 1000, 1000), KPCA_EIG_EVD);
    assert_int_equal(kpca_eig_resolve(KPCA_EIG_AUTO, 300, 299), KPCA_EIG_EVD);
    /* the crossover is the documented fraction */
    size_t n = 2000, kmax = (size_t)(KPCA_EIG_EVR_MAX_FRACTION * (double)n);
    assert_int_equal(kpca_eig_resolve(KPCA_EIG_AUTO, n, kmax), KPCA_EIG_EVR);
    assert_int_equal(kpca_eig_resolve(KPCA_EIG_AUTO, n, kmax + 1), KPCA_EIG_EVD);
    /* monotone in k: once EVD, always EVD */
    int seen_evd = 0;
    for (size_t k = 1; k <= 400; k++) {
        kpca_eig_method r = kpca_eig_resolve(KPCA_EIG_AUTO, 400, k);
        assert_true(r == KPCA_EIG_EVD || r == KPCA_EIG_EVR);
        if (r == KPCA_EIG_EVD)
            seen_evd = 1;
        else
            assert_false(seen_evd);
    }
    assert_true(seen_evd);

    const char *names[3] = {"auto", "evd", "evr"};
    for (int i = 0; i < 3; i++) {
        kpca_eig_method m;
        assert_int_equal(kpca_eig_method_parse(names[i], &m), 0);
        assert_int_equal((int)m, i);
        assert_string_equal(kpca_eig_method_name(m), names[i]);
    }
    kpca_eig_method m;
    assert_int_equal(kpca_eig_method_parse("qr", &m), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_and_known),
        cmocka_unit_test(test_random_symmetric),
        cmocka_unit_test(test_low_rank_psd),
        cmocka_unit_test(test_bad_k),
        cmocka_unit_test(test_resolve_and_names),
        cmocka_unit_test(test_chosen_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
