/* test_gram.c - the tiled symmetric rank-k product (gram.h) against plain
 * loops: values, beta accumulation, exact symmetry of the diagonal tiles,
 * nothing written below them, the mirror, the striped storage. */
#include "testutil.h"

#include <float.h>

/* sum_p a[i,p] a[j,p] in long double, and the sum of |terms|, which bounds
 * the rounding error of any summation order */
static void dot_ref(const double *a, size_t lda, size_t k, size_t i, size_t j, double *v, double *mag)
{
    long double s = 0.0L, m = 0.0L;
    for (size_t p = 0; p < k; p++) {
        s += (long double)a[i * lda + p] * a[j * lda + p];
        m += fabsl((long double)a[i * lda + p] * a[j * lda + p]);
    }
    *v = (double)s;
    *mag = (double)m;
}

static void check_gram(size_t n, size_t k, size_t lda, size_t ldc, double beta)
{
    const double sentinel = 12345.0;
    uint64_t seed = 0x9a3d + n * 31 + k;
    double *a = malloc(n * lda * sizeof *a), *c = malloc(n * ldc * sizeof *c), *c0 = malloc(n * ldc * sizeof *c0);
    assert_non_null(a);
    assert_non_null(c);
    assert_non_null(c0);
    for (size_t i = 0; i < n * lda; i++)
        a[i] = tu_rand(&seed);
    for (size_t i = 0; i < n; i++) /* a symmetric start, and a sentinel in the padding */
        for (size_t j = 0; j < ldc; j++)
            c[i * ldc + j] = j < n ? 0.25 * (double)((i + j) % 7) : sentinel;
    memcpy(c0, c, n * ldc * sizeof *c);
    kpca_gram_upper(n, k, a, lda, beta, c, ldc);
    const size_t T = KPCA_GRAM_TILE;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = n; j < ldc; j++)
            assert_true(c[i * ldc + j] == sentinel); /* beyond column n: untouched */
        for (size_t j = 0; j < n; j++) {
            int same_tile = i / T == j / T;
            if (j < i && !same_tile) { /* strictly below the diagonal tiles: untouched */
                assert_true(c[i * ldc + j] == c0[i * ldc + j]);
                continue;
            }
            double v, mag;
            dot_ref(a, lda, k, i, j, &v, &mag);
            double want = beta * c0[i * ldc + j] + v;
            double tol = 4.0 * (double)k * DBL_EPSILON * (mag + fabs(beta * c0[i * ldc + j])) + 1e-300;
            if (fabs(c[i * ldc + j] - want) > tol)
                fail_msg("n=%zu k=%zu: C[%zu,%zu] = %.17g, expected %.17g (tol %.3g)", n, k, i, j, c[i * ldc + j],
                         want, tol);
            if (same_tile) /* exactly symmetric within the diagonal tiles */
                assert_true(c[i * ldc + j] == c[j * ldc + i]);
        }
    }
    kpca_gram_mirror(c, n, ldc);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            assert_true(c[i * ldc + j] == c[j * ldc + i]);
    free(a);
    free(c);
    free(c0);
}

/* n below, at and across the tile edge (not a multiple of it), padding in
 * both leading dimensions, beta 0 and 1 */
static void test_gram_matches_reference(void **state)
{
    (void)state;
    static const size_t ns[] = {1, 2, 17, KPCA_GRAM_TILE, KPCA_GRAM_TILE + 1, 2 * KPCA_GRAM_TILE + 77};
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        check_gram(ns[t], 13, 13, ns[t], 0.0);
        check_gram(ns[t], 5, 9, ns[t] + 3, 1.0);
    }
}

/* the incremental use of eval.c: C grown column block by column block
 * equals C computed at once, within rounding */
static void test_gram_grows_by_blocks(void **state)
{
    (void)state;
    const size_t n = KPCA_GRAM_TILE + 40, k = 24;
    uint64_t seed = 77;
    double *a = malloc(n * k * sizeof *a), *c1 = calloc(n * n, sizeof *c1), *c2 = calloc(n * n, sizeof *c2);
    assert_non_null(a);
    assert_non_null(c1);
    assert_non_null(c2);
    for (size_t i = 0; i < n * k; i++)
        a[i] = tu_rand(&seed);
    kpca_gram_upper(n, k, a, k, 0.0, c1, n);
    kpca_gram_upper(n, 8, a, k, 0.0, c2, n);
    kpca_gram_upper(n, 16, a + 8, k, 1.0, c2, n);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i; j < n; j++)
            assert_true(fabs(c1[i * n + j] - c2[i * n + j]) <= 1e-13 * (double)k);
    free(a);
    free(c1);
    free(c2);
}

/* Striped storage (eval.c's): the same values as the full-storage product,
 * bit for bit, at every (i, j) with i <= j, after a start (beta 0) and a
 * growth (beta 1); offsets stay inside the kpca_gram_striped_len(n) doubles,
 * which hold no more than n(n + T)/2 + T; nothing past them is written. */
static void test_gram_striped_matches_full(void **state)
{
    (void)state;
    static const size_t ns[] = {1, 5, KPCA_GRAM_TILE, KPCA_GRAM_TILE + 1, 2 * KPCA_GRAM_TILE + 77};
    const size_t k = 12, T = KPCA_GRAM_TILE;
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        const size_t n = ns[t], len = kpca_gram_striped_len(n);
        assert_true(len >= n * (n + 1) / 2 && len <= n * (n + T) / 2 + T);
        uint64_t seed = 4242 + n;
        double *a = malloc(n * k * sizeof *a), *full = malloc(n * n * sizeof *full);
        double *st = malloc((len + 1) * sizeof *st);
        size_t *off = malloc(n * sizeof *off);
        assert_non_null(a);
        assert_non_null(full);
        assert_non_null(st);
        assert_non_null(off);
        for (size_t i = 0; i < n * k; i++)
            a[i] = tu_rand(&seed);
        st[len] = 12345.0;
        kpca_gram_striped_offsets(n, off);
        kpca_gram_upper(n, 5, a, k, 0.0, full, n);
        kpca_gram_striped(n, 5, a, k, 0.0, st);
        kpca_gram_upper(n, 7, a + 5, k, 1.0, full, n);
        kpca_gram_striped(n, 7, a + 5, k, 1.0, st);
        for (size_t i = 0; i < n; i++)
            for (size_t j = i; j < n; j++) {
                size_t at = off[i] + j;
                assert_true(at < len);
                if (memcmp(&st[at], &full[i * n + j], sizeof(double)) != 0)
                    fail_msg("n=%zu: striped (%zu,%zu) = %.17g, full %.17g", n, i, j, st[at], full[i * n + j]);
            }
        assert_true(st[len] == 12345.0);
        free(a);
        free(full);
        free(st);
        free(off);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gram_matches_reference),
        cmocka_unit_test(test_gram_grows_by_blocks),
        cmocka_unit_test(test_gram_striped_matches_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
