/* test_kmeans.c - the k-means passes by blocks (kpca_kmeans_run,
 * landmark.h) against the k-means they replaced (kmeans_ref.h: n-long
 * arrays, a copy of the labels per restart): block sizes 1, 7, the
 * default and n give the same seeds, Lloyd steps, re-seeded empty
 * clusters, labels and inertia; a stride reads the leading columns in
 * place; and nothing allocated grows with the points. */
#include "testutil.h"

#include "kmeans_ref.h"

/* a and b agree to 1e-12 relative (1e-12 absolute below 1) */
static void assert_close(const double *a, const double *b, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabs(a[i] - b[i]) <= 1e-12 * fmax(1.0, fabs(b[i]))))
            fail_msg("%s: value %zu is %.17g, the reference %.17g", what, i, a[i], b[i]);
}

/* kpca_kmeans_run with `block` points per block (0: the default) against
 * ref_kmeans_restarts: the same labels, passes and kept run; centres and
 * inertia to 1e-12, or bit for bit when `exact` */
static void check_blocks(const double *x, size_t n, size_t dim, size_t k, uint64_t seed, size_t max_iter,
                         size_t restarts, size_t block, int exact, const char *name)
{
    double *c = tu_doubles(k * dim), *cr = tu_doubles(k * dim);
    size_t *l = malloc(n * sizeof *l), *lr = malloc(n * sizeof *lr);
    assert_true(l != NULL && lr != NULL);
    kpca_error err;
    kpca_kmeans_info info, ref;
    assert_int_equal(ref_kmeans_restarts(x, n, dim, k, seed, max_iter, restarts, cr, lr, &ref, &err), KPCA_OK);
    const kpca_kmeans_opts opts = {0, block};
    if (kpca_kmeans_run(x, n, dim, k, seed, max_iter, restarts, &opts, c, l, &info, &err) != KPCA_OK)
        fail_msg("%s, block %zu: %s", name, block, err.msg);
    char what[96];
    snprintf(what, sizeof what, "%s, block %zu", name, block);
    for (size_t i = 0; i < n; i++)
        if (l[i] != lr[i])
            fail_msg("%s: point %zu in cluster %zu, the reference's %zu", what, i, l[i], lr[i]);
    assert_int_equal(info.iters, ref.iters);
    assert_int_equal(info.run, ref.run);
    if (exact) {
        assert_memory_equal(c, cr, k * dim * sizeof *c);
        assert_memory_equal(&info.inertia, &ref.inertia, sizeof info.inertia);
    } else {
        assert_close(c, cr, k * dim, what);
        assert_close(&info.inertia, &ref.inertia, 1, what);
    }
    /* the labels and inertia asked for change nothing in the centres */
    double *c2 = tu_doubles(k * dim);
    assert_int_equal(kpca_kmeans_run(x, n, dim, k, seed, max_iter, restarts, &opts, c2, NULL, NULL, &err), KPCA_OK);
    assert_memory_equal(c, c2, k * dim * sizeof *c);
    free(c2);
    free(c);
    free(cr);
    free(l);
    free(lr);
}

/* every block size on one data set: the default bit for bit, 1, 7 and n
 * to 1e-12 (DGEMM and DGEMV on other shapes may round otherwise) */
static void check_all_blocks(const double *x, size_t n, size_t dim, size_t k, uint64_t seed, size_t max_iter,
                             size_t restarts, const char *name)
{
    check_blocks(x, n, dim, k, seed, max_iter, restarts, 0, 1, name);
    check_blocks(x, n, dim, k, seed, max_iter, restarts, KPCA_KMEANS_BLOCK, 1, name);
    const size_t blocks[] = {1, 7, n};
    for (size_t b = 0; b < 3; b++)
        check_blocks(x, n, dim, k, seed, max_iter, restarts, blocks[b], 0, name);
}

static void test_blocks_random(void **state)
{
    (void)state;
    /* uniform noise (many Lloyd steps) in 5 and in 40 dimensions, off the
     * origin; max_iter 0 (the seeds), a few, and to convergence */
    enum { N = 600 };
    const size_t dims[] = {5, 40}, ks[] = {12, 9};
    for (size_t t = 0; t < 2; t++) {
        size_t dim = dims[t];
        double *x = tu_doubles(N * dim);
        uint64_t s = 41 + t;
        for (size_t i = 0; i < N * dim; i++)
            x[i] = 2.0 + tu_rand(&s);
        char name[48];
        for (uint64_t seed = 1; seed <= 3; seed++) {
            snprintf(name, sizeof name, "dim %zu, seed %llu", dim, (unsigned long long)seed);
            check_all_blocks(x, N, dim, ks[t], seed, 300, 1, name);
        }
        snprintf(name, sizeof name, "dim %zu, max_iter 0", dim);
        check_all_blocks(x, N, dim, ks[t], 5, 0, 1, name);
        snprintf(name, sizeof name, "dim %zu, max_iter 3", dim);
        check_all_blocks(x, N, dim, ks[t], 5, 3, 1, name);
        free(x);
    }
}

static void test_blocks_empty_clusters(void **state)
{
    (void)state;
    /* few distinct points, many copies, more centres than make sense:
     * k-means++ repeats points, ties empty clusters, and several are
     * re-seeded in one update (the reference counts them) */
    enum { N = 60, DIM = 2 };
    const double loc[6][DIM] = {{1, 2}, {-3, 1}, {4, -4}, {0.5, 0.25}, {-2, -2}, {3, 3}};
    double x[N * DIM];
    for (size_t i = 0; i < N; i++)
        memcpy(x + i * DIM, loc[(i * 7) % 6], sizeof loc[0]);
    ref_reseeds = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        char name[48];
        snprintf(name, sizeof name, "duplicates, k 5, seed %llu", (unsigned long long)seed);
        check_all_blocks(x, 30, DIM, 5, seed, 20, 1, name); /* the first 30: 3 of the 6 points repeated */
        snprintf(name, sizeof name, "duplicates, k 11, seed %llu", (unsigned long long)seed);
        check_all_blocks(x, N, DIM, 11, seed, 20, 1, name);
    }
    assert_true(ref_reseeds >= 10); /* the re-seeding took part, more than once per update */
    assert_true(ref_reseed_updates < ref_reseeds);
    /* a re-seed where the farthest point is alone in its cluster and is
     * passed over (rare: found by a search over small random sets) */
    const double lone[10 * 2] = {
        -0x1.d8e40728f6be5p+3, 2,  -0x1.0e21a6f019e27p+3, -2, 0x1.d22e98067e956p-2, 2, 0x1.a7ee39d8ccc0fp-7, 0,
        0x1.feaf39f205f59p-1,  -1, 0x1.f3781a39ae9dep-7,  -4, -0x1.9b08167561ce6p+4, -1, -0x1.40aef34f47749p+3, 0,
        0x1.cf02d6ce08c48p-5,  2,  -0x1.113a73718b865p+0, -2,
    };
    ref_reseed_skips = 0;
    check_all_blocks(lone, 10, 2, 4, 2455570, 50, 1, "a lone far point");
    assert_true(ref_reseed_skips > 0);
}

static void test_blocks_restarts(void **state)
{
    (void)state;
    /* the kept run's labels when it is not the last run: from one more
     * assignment pass, the same as the reference's copy of them */
    enum { N = 400, DIM = 3, K = 8 };
    double *x = tu_doubles(N * DIM);
    uint64_t s = 77;
    for (size_t i = 0; i < N * DIM; i++)
        x[i] = tu_rand(&s);
    int kept_early = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        char name[48];
        snprintf(name, sizeof name, "6 restarts, seed %llu", (unsigned long long)seed);
        check_all_blocks(x, N, DIM, K, seed, 100, 6, name);
        kpca_kmeans_info info;
        double c[K * DIM];
        kpca_error err;
        assert_int_equal(kpca_kmeans_restarts(x, N, DIM, K, seed, 100, 6, c, NULL, &info, &err), KPCA_OK);
        kept_early += info.run < 5;
    }
    assert_true(kept_early > 0); /* the case above was met */
    free(x);
}

static void test_blocks_beyond_cached_norms(void **state)
{
    (void)state;
    /* more points than KPCA_KMEANS_CACHED_NORMS: the norms of the rest are
     * computed again in each pass, the same bits */
    const size_t n = KPCA_KMEANS_CACHED_NORMS + 40000, dim = 3, k = 5;
    double *x = tu_doubles(n * dim);
    uint64_t s = 3;
    for (size_t i = 0; i < n; i++)
        for (size_t t = 0; t < dim; t++)
            x[i * dim + t] = (double)(i % 4 == t) * 3.0 + 0.5 * tu_rand(&s);
    check_blocks(x, n, dim, k, 9, 8, 1, 0, 1, "beyond the kept norms");
    check_blocks(x, n, dim, k, 9, 8, 1, 5000, 0, "beyond the kept norms");
    free(x);
}

static void test_stride(void **state)
{
    (void)state;
    /* the first dim columns of rows of ld values, read in place: the run on
     * a packed copy of them, bit for bit */
    enum { N = 300, DIM = 4, LD = 7, K = 6 };
    double *wide = tu_doubles(N * LD), *packed = tu_doubles(N * DIM), c1[K * DIM], c2[K * DIM];
    size_t l1[N], l2[N];
    uint64_t s = 12;
    for (size_t i = 0; i < N * LD; i++)
        wide[i] = tu_rand(&s);
    for (size_t i = 0; i < N; i++)
        memcpy(packed + i * DIM, wide + i * LD, DIM * sizeof(double));
    kpca_error err;
    kpca_kmeans_info i1, i2;
    const kpca_kmeans_opts strided = {LD, 0}, strided7 = {LD, 7};
    assert_int_equal(kpca_kmeans_run(wide, N, DIM, K, 4, 100, 3, &strided, c1, l1, &i1, &err), KPCA_OK);
    assert_int_equal(kpca_kmeans_restarts(packed, N, DIM, K, 4, 100, 3, c2, l2, &i2, &err), KPCA_OK);
    assert_memory_equal(c1, c2, sizeof c1);
    assert_memory_equal(l1, l2, sizeof l1);
    assert_memory_equal(&i1.inertia, &i2.inertia, sizeof i1.inertia);
    assert_int_equal(kpca_kmeans_run(wide, N, DIM, K, 4, 100, 3, &strided7, c1, l1, &i1, &err), KPCA_OK);
    assert_close(c1, c2, K * DIM, "stride 7, block 7");
    assert_memory_equal(l1, l2, sizeof l1);
    /* kpca_cluster on leading components is the strided run */
    assert_int_equal(kpca_cluster(wide, N, LD, DIM, K, 4, 3, 100, l1, &i1, &err), KPCA_OK);
    assert_memory_equal(l1, l2, sizeof l1);
    assert_memory_equal(&i1.inertia, &i2.inertia, sizeof i1.inertia);
    /* a stride below the dimension is refused */
    const kpca_kmeans_opts narrow = {DIM - 1, 0};
    kpca_error_clear(&err);
    assert_int_equal(kpca_kmeans_run(wide, N, DIM, K, 4, 100, 1, &narrow, c1, NULL, NULL, &err), KPCA_EUSAGE);
    assert_true(err.msg[0] != '\0');
    assert_int_equal(kpca_kmeans_run(wide, N, DIM, K, 4, 100, 0, NULL, c1, NULL, NULL, &err), KPCA_EUSAGE);
    free(wide);
    free(packed);
}

static void test_no_per_point_memory(void **state)
{
    (void)state;
    /* a memory budget below n doubles (any larger allocation fails) but
     * above the kept norms: k-means and kpca_cluster on leading components
     * run with the caller's labels, where the reference (n-long arrays) and
     * the former column copy could not; without labels the run needs its
     * n words and says so */
    const size_t n = KPCA_KMEANS_CACHED_NORMS + 60000, dim = 3, k = 4;
    double *x = tu_doubles(n * dim), c[4 * 3];
    size_t *label = malloc(n * sizeof *label);
    assert_non_null(label);
    uint64_t s = 5;
    for (size_t i = 0; i < n * dim; i++)
        x[i] = tu_rand(&s);
    const size_t budget = KPCA_KMEANS_CACHED_NORMS * sizeof(double) + 4096;
    assert_true(budget < n * sizeof(double));
    kpca_error err;
    kpca_kmeans_info info;
    kpca_mem_set_budget(budget);
    kpca_status with_labels = kpca_kmeans_restarts(x, n, dim, k, 2, 5, 2, c, label, &info, &err);
    kpca_status leading = kpca_cluster(x, n, dim, 2, k, 2, 2, 5, label, &info, &err);
    kpca_status reference = ref_kmeans(x, n, dim, k, 2, 5, c, label, &info, &err);
    kpca_status no_labels = kpca_kmeans(x, n, dim, k, 2, 5, c, NULL, NULL, &err);
    kpca_mem_set_budget(0);
    assert_int_equal(with_labels, KPCA_OK);
    assert_int_equal(leading, KPCA_OK);
    assert_int_equal(reference, KPCA_ENOMEM); /* the budget does bite */
    assert_int_equal(no_labels, KPCA_ENOMEM);
    free(x);
    free(label);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_random),
        cmocka_unit_test(test_blocks_empty_clusters),
        cmocka_unit_test(test_blocks_restarts),
        cmocka_unit_test(test_blocks_beyond_cached_norms),
        cmocka_unit_test(test_stride),
        cmocka_unit_test(test_no_per_point_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
