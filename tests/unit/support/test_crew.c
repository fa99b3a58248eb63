/* test_crew.c - a crew's rounds: each part run once a round, on its own
 * thread (part 0 on the caller's), its writes seen by the caller when the
 * round returns; more parts than helpers; rounds back to back and after the
 * helpers have gone to sleep; no crew (NULL: threads for the round) and
 * one that could not be allocated; freed awake or asleep; the crew a
 * block reader keeps (kpca_crew_for). */
#include "testutil.h"

#include <pthread.h>
#include <time.h>

#include "lib/support/crew.h"
#include "lib/support/mem.h"
#include "lib/support/parts.h"

typedef struct {
    size_t k;
    unsigned long long runs; /* rounds this part ran in */
    unsigned long long sum;  /* what it computed, read by the caller after the round */
    pthread_t by;
} part;

static void *work(void *arg)
{
    part *p = arg;
    unsigned long long s = 0;
    for (size_t i = 0; i < 1000 + 97 * p->k; i++)
        s += i * (p->k + 1);
    p->sum = s;
    p->runs++;
    p->by = pthread_self();
    return NULL;
}

static unsigned long long expected(size_t k)
{
    unsigned long long s = 0;
    for (size_t i = 0; i < 1000 + 97 * k; i++)
        s += i * (k + 1);
    return s;
}

/* rounds of `parts` parts: every part ran each round and its sum is there */
static void rounds(kpca_crew *c, size_t parts, unsigned long long n, int pause_us, pthread_t *by)
{
    part p[KPCA_PARTS_MAX];
    memset(p, 0, sizeof p);
    for (size_t k = 0; k < parts; k++)
        p[k].k = k;
    for (unsigned long long r = 1; r <= n; r++) {
        for (size_t k = 0; k < parts; k++)
            p[k].sum = 0;
        kpca_crew_run(c, p, parts, sizeof p[0], work);
        for (size_t k = 0; k < parts; k++) {
            if (p[k].runs != r || p[k].sum != expected(k))
                fail_msg("round %llu, part %zu: run %llu times, sum %llu", r, k, p[k].runs, p[k].sum);
        }
        if (pause_us > 0) {
            struct timespec t = {0, pause_us * 1000L};
            nanosleep(&t, NULL);
        }
    }
    for (size_t k = 0; k < parts; k++)
        by[k] = p[k].by;
}

static void test_rounds(void **state)
{
    (void)state;
    pthread_t by[KPCA_PARTS_MAX];
    kpca_crew *c = kpca_crew_new(3);
    assert_non_null(c);
    rounds(c, 4, 2000, 0, by); /* back to back: the helpers awake */
    assert_true(pthread_equal(by[0], pthread_self()));
    for (size_t k = 1; k < 4; k++) { /* each part on a thread of its own */
        assert_false(pthread_equal(by[k], pthread_self()));
        for (size_t j = 1; j < k; j++)
            assert_false(pthread_equal(by[k], by[j]));
    }
    /* a pause past the spin: each round finds the helpers asleep */
    rounds(c, 4, 20, 4 * KPCA_CREW_SPIN_US, by);
    /* fewer parts than helpers, then more: the rest on the caller's thread */
    rounds(c, 2, 500, 0, by);
    rounds(c, 6, 500, 0, by);
    assert_true(pthread_equal(by[4], pthread_self()));
    assert_true(pthread_equal(by[5], pthread_self()));
    rounds(c, 1, 10, 0, by);
    kpca_crew_free(c); /* helpers awake */
    c = kpca_crew_new(1);
    assert_non_null(c);
    rounds(c, 2, 10, 0, by);
    struct timespec t = {0, 20 * KPCA_CREW_SPIN_US * 1000L};
    nanosleep(&t, NULL);
    kpca_crew_free(c); /* a helper asleep */
    kpca_crew_free(NULL);
}

static void test_no_crew(void **state)
{
    (void)state;
    pthread_t by[KPCA_PARTS_MAX];
    assert_null(kpca_crew_new(0));
    rounds(NULL, 3, 5, 0, by); /* threads started for each round */
    assert_true(pthread_equal(by[0], pthread_self()));
    for (size_t k = 1; k < 3; k++)
        assert_false(pthread_equal(by[k], pthread_self()));
    kpca_mem_fail_after(0); /* its memory refused: no crew */
    kpca_crew *c = kpca_crew_new(2);
    kpca_mem_fail_after(-1);
    assert_null(c);
    c = kpca_crew_new(100); /* at most KPCA_PARTS_MAX - 1 helpers */
    assert_non_null(c);
    rounds(c, KPCA_PARTS_MAX, 50, 0, by);
    for (size_t k = 1; k < KPCA_PARTS_MAX; k++)
        assert_false(pthread_equal(by[k], pthread_self()));
    kpca_crew_free(c);
}

/* kpca_crew_for: none for one part, one at the first round in parts, the
 * same for rounds it covers, a larger one for more parts; one that could
 * not start is tried once */
static void test_crew_for(void **state)
{
    (void)state;
    kpca_crew *c = NULL;
    int tried = 0;
    assert_null(kpca_crew_for(&c, &tried, 1));
    assert_int_equal(tried, 0);
    kpca_crew *first = kpca_crew_for(&c, &tried, 3);
    assert_non_null(first);
    assert_int_equal(kpca_crew_helpers(c), 2);
    assert_ptr_equal(kpca_crew_for(&c, &tried, 2), first);
    assert_ptr_equal(kpca_crew_for(&c, &tried, 3), first);
    assert_non_null(kpca_crew_for(&c, &tried, 5));
    assert_int_equal(kpca_crew_helpers(c), 4);
    kpca_crew_free(c);
    c = NULL;
    tried = 0;
    kpca_mem_fail_after(0);
    assert_null(kpca_crew_for(&c, &tried, 3));
    kpca_mem_fail_after(-1);
    assert_int_equal(tried, 1);
    assert_null(kpca_crew_for(&c, &tried, 3)); /* not tried again */
    assert_int_equal(kpca_mem_fail_after(-1), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rounds),
        cmocka_unit_test(test_no_crew),
        cmocka_unit_test(test_crew_for),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
