/* test_rng.c - kpca_rng_shuffle: a permutation of its input, named by the
 * seed, every order about equally often, nothing drawn for 0 or 1 items. */
#include "testutil.h"

#include "lib/support/rng.h"

static void test_shuffle_permutes(void **state)
{
    (void)state;
    enum { N = 200 };
    size_t a[N], b[N], seen[N];
    for (size_t i = 0; i < N; i++)
        a[i] = b[i] = 3 * i + 1; /* any values, not only 0..n-1 */
    uint64_t s1 = 99, s2 = 99;
    kpca_rng_shuffle(&s1, a, N);
    kpca_rng_shuffle(&s2, b, N);
    assert_memory_equal(a, b, sizeof a); /* the same seed, the same order */
    assert_true(s1 == s2 && s1 != 99);
    memset(seen, 0, sizeof seen);
    size_t fixed = 0;
    for (size_t i = 0; i < N; i++) {
        assert_true(a[i] % 3 == 1 && a[i] / 3 < N);
        seen[a[i] / 3]++;
        fixed += a[i] == 3 * i + 1;
    }
    for (size_t i = 0; i < N; i++)
        assert_int_equal(seen[i], 1);
    assert_true(fixed < N / 10); /* a random permutation fixes about one point */
    s2 = 100;
    for (size_t i = 0; i < N; i++)
        b[i] = 3 * i + 1;
    kpca_rng_shuffle(&s2, b, N);
    assert_memory_not_equal(a, b, sizeof a);
    /* 0 and 1 items: nothing moves, nothing is drawn */
    uint64_t s = 5;
    size_t one = 42;
    kpca_rng_shuffle(&s, NULL, 0);
    kpca_rng_shuffle(&s, &one, 1);
    assert_true(s == 5 && one == 42);
}

/* The 24 orders of 4 items over 48000 shuffles: each expected 2000 times,
 * standard deviation about 44; a modulo-biased or off-by-one shuffle
 * (e.g. j drawn below i - 1, Sattolo's cycles) misses orders entirely. */
static void test_shuffle_uniform(void **state)
{
    (void)state;
    enum { T = 48000 };
    size_t count[256] = {0};
    uint64_t s = 7;
    for (size_t t = 0; t < T; t++) {
        size_t a[4] = {0, 1, 2, 3};
        kpca_rng_shuffle(&s, a, 4);
        count[a[0] * 64 + a[1] * 16 + a[2] * 4 + a[3]]++;
    }
    size_t orders = 0;
    for (size_t c = 0; c < 256; c++) {
        if (count[c] == 0)
            continue;
        orders++;
        if (count[c] < 2000 - 250 || count[c] > 2000 + 250)
            fail_msg("order %zx drawn %zu times of %d", c, count[c], T);
    }
    assert_int_equal(orders, 24);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shuffle_permutes),
        cmocka_unit_test(test_shuffle_uniform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
