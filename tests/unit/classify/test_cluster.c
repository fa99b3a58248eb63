/* test_cluster.c - k-means on leading components, the contingency table and
 * the adjusted Rand index (lib/classify/cluster.h), and the restarts of the
 * library's k-means (kpca_kmeans_restarts, lib/core/landmark.h). */
#include "testutil.h"

/* |got - want| <= 1e-15, reporting both */
static void assert_near(double got, double want)
{
    if (!(fabs(got - want) <= 1e-15))
        fail_msg("got %.17g, want %.17g", got, want);
}

/* The ARI of two labelings, through kpca_contingency. */
static double ari_of(const size_t *a, size_t k, const int *b, size_t n)
{
    kpca_error err;
    int *cls;
    size_t nc, *t;
    assert_int_equal(kpca_contingency(a, k, b, n, &cls, &nc, &t, &err), KPCA_OK);
    double v = kpca_adjusted_rand(t, k, nc);
    kpca_free(cls);
    kpca_free(t);
    return v;
}

static void test_ari_identical(void **state)
{
    (void)state;
    /* the same partition under other names: ARI 1, whatever the names */
    const size_t a[] = {0, 0, 1, 2, 1, 2, 2, 0, 1, 1};
    const int b[] = {7, 7, -3, 10, -3, 10, 10, 7, -3, -3};
    assert_true(ari_of(a, 3, b, 10) == 1.0);
    /* one block each, or all singletons each: the same partition, 1 */
    const size_t one[] = {0, 0, 0, 0};
    const int same[] = {5, 5, 5, 5};
    assert_true(ari_of(one, 1, same, 4) == 1.0);
    const size_t sing[] = {0, 1, 2, 3};
    const int sing2[] = {9, 8, 7, 6};
    assert_true(ari_of(sing, 4, sing2, 4) == 1.0);
}

/* Hand-computed values: sum_ij C(n_ij,2), row and column pair sums A and B,
 * E = A B / C(n,2), ARI = (sum_ij - E) / ((A + B)/2 - E).  The labelings
 * are the examples of R's mclust::adjustedRandIndex, which implements
 * Hubert & Arabie's formula; the values below are worked out from the
 * tables, not copied. */
static void test_ari_known(void **state)
{
    (void)state;
    /* a = 3 2 3 3 2 3 1 2 2, b = A A B A B C C B B: table (rows a = 1,2,3;
     * columns A,B,C) [0 0 1; 1 3 0; 2 1 1]; sum_ij = C(3,2) + C(2,2) = 4;
     * rows 1,4,4: A = 12; columns 3,4,2: B = 10; C(9,2) = 36; E = 10/3;
     * ARI = (4 - 10/3) / (11 - 10/3) = 2/23 */
    const size_t a[] = {2, 1, 2, 2, 1, 2, 0, 1, 1};
    const int b[] = {0, 0, 1, 0, 1, 2, 2, 1, 1};
    assert_near(ari_of(a, 3, b, 9), 2.0 / 23.0);
    /* a = 1 2 3 repeated 4 times, b = A B C D repeated 3 times: every
     * (a, b) pair once, a 3 x 4 table of ones; sum_ij = 0; A = 3 C(4,2) =
     * 18; B = 4 C(3,2) = 12; C(12,2) = 66; E = 216/66 = 36/11;
     * ARI = -(36/11) / (15 - 36/11) = -12/43, below chance */
    size_t a2[12];
    int b2[12];
    for (size_t i = 0; i < 12; i++) {
        a2[i] = i % 3;
        b2[i] = (int)(i % 4);
    }
    assert_near(ari_of(a2, 3, b2, 12), -12.0 / 43.0);
    /* the table's transpose (the partitions swapped) gives the same */
    const size_t t[] = {0, 0, 1, 1, 3, 0, 2, 1, 1}, tt[] = {0, 1, 2, 0, 3, 1, 1, 0, 1};
    assert_near(kpca_adjusted_rand(t, 3, 3), kpca_adjusted_rand(tt, 3, 3));
    /* two clusters of 2 against their crossing: [1 1; 1 1], sum_ij = 0,
     * A = B = 2, C(4,2) = 6, E = 2/3: ARI = -(2/3) / (2 - 2/3) = -1/2 */
    const size_t cross[] = {1, 1, 1, 1};
    assert_near(kpca_adjusted_rand(cross, 2, 2), -0.5);
}

static void test_contingency(void **state)
{
    (void)state;
    kpca_error err;
    const size_t a[] = {1, 0, 1, 1, 0};
    const int y[] = {10, -1, 10, 3, 10};
    int *cls;
    size_t nc, *t;
    assert_int_equal(kpca_contingency(a, 2, y, 5, &cls, &nc, &t, &err), KPCA_OK);
    assert_int_equal(nc, 3);
    assert_int_equal(cls[0], -1);
    assert_int_equal(cls[1], 3);
    assert_int_equal(cls[2], 10);
    const size_t want[] = {1, 0, 1, /* cluster 0 */ 0, 1, 2 /* cluster 1 */};
    assert_memory_equal(t, want, sizeof want);
    kpca_free(cls);
    kpca_free(t);
    const size_t bad[] = {0, 2};
    assert_int_equal(kpca_contingency(bad, 2, y, 2, &cls, &nc, &t, &err), KPCA_EUSAGE);
    assert_null(cls);
    assert_null(t);
    assert_int_equal(kpca_contingency(a, 2, y, 0, &cls, &nc, &t, &err), KPCA_EUSAGE);
}

/* n points in three blobs (radius 0.1, centres 10 apart) in the first two
 * coordinates; coordinates 3..dim are noise of amplitude `noise`. */
static void blobs(double *x, int *truth, size_t n, size_t dim, double noise, uint64_t seed)
{
    const double c[3][2] = {{0, 0}, {10, 0}, {0, 10}};
    for (size_t i = 0; i < n; i++) {
        truth[i] = (int)(i % 3);
        x[i * dim] = c[i % 3][0] + 0.1 * tu_rand(&seed);
        x[i * dim + 1] = c[i % 3][1] + 0.1 * tu_rand(&seed);
        for (size_t t = 2; t < dim; t++)
            x[i * dim + t] = noise * tu_rand(&seed);
    }
}

static void test_cluster_blobs(void **state)
{
    (void)state;
    enum { N = 90, DIM = 6 };
    double x[N * DIM];
    int truth[N];
    size_t label[N];
    kpca_error err;
    kpca_kmeans_info info;
    blobs(x, truth, N, DIM, 0.0, 3);
    assert_int_equal(kpca_cluster(x, N, DIM, DIM, 3, 1, 5, 100, label, &info, &err), KPCA_OK);
    assert_true(ari_of(label, 3, truth, N) == 1.0);
    assert_true(info.inertia < N * 2 * 0.01); /* every point within 0.1 per coordinate of its mean */
    /* the noise coordinates (amplitude 100) swamp the blobs: clustering on
     * the first two alone still recovers them, on all six it does not */
    blobs(x, truth, N, DIM, 100.0, 3);
    assert_int_equal(kpca_cluster(x, N, DIM, 2, 3, 1, 5, 100, label, &info, &err), KPCA_OK);
    assert_true(ari_of(label, 3, truth, N) == 1.0);
    assert_int_equal(kpca_cluster(x, N, DIM, DIM, 3, 1, 5, 100, label, &info, &err), KPCA_OK);
    assert_true(ari_of(label, 3, truth, N) < 0.5);
}

static void test_cluster_reproducible(void **state)
{
    (void)state;
    enum { N = 200, DIM = 4 };
    double x[N * DIM];
    size_t l1[N], l2[N];
    kpca_error err;
    kpca_kmeans_info i1, i2;
    uint64_t s = 11;
    for (size_t i = 0; i < N * DIM; i++)
        x[i] = tu_rand(&s);
    assert_int_equal(kpca_cluster(x, N, DIM, 3, 6, 42, 4, 50, l1, &i1, &err), KPCA_OK);
    assert_int_equal(kpca_cluster(x, N, DIM, 3, 6, 42, 4, 50, l2, &i2, &err), KPCA_OK);
    assert_memory_equal(l1, l2, sizeof l1);
    assert_memory_equal(&i1.inertia, &i2.inertia, sizeof(double));
    /* another seed draws other starts: some run differs on uniform noise */
    int differs = 0;
    for (uint64_t seed = 43; seed < 48 && !differs; seed++) {
        assert_int_equal(kpca_cluster(x, N, DIM, 3, 6, seed, 1, 50, l2, &i2, &err), KPCA_OK);
        differs = memcmp(l1, l2, sizeof l1) != 0;
    }
    assert_true(differs);
}

static void test_restarts(void **state)
{
    (void)state;
    enum { N = 150, DIM = 3, K = 7 };
    double x[N * DIM], c1[K * DIM], c2[K * DIM];
    size_t l1[N], l2[N];
    kpca_error err;
    kpca_kmeans_info i1, i2;
    uint64_t s = 5;
    for (size_t i = 0; i < N * DIM; i++)
        x[i] = tu_rand(&s);
    /* one run is kpca_kmeans with the same seed */
    assert_int_equal(kpca_kmeans(x, N, DIM, K, 9, 100, c1, l1, &i1, &err), KPCA_OK);
    assert_int_equal(kpca_kmeans_restarts(x, N, DIM, K, 9, 100, 1, c2, l2, &i2, &err), KPCA_OK);
    assert_memory_equal(c1, c2, sizeof c1);
    assert_memory_equal(l1, l2, sizeof l1);
    assert_int_equal(i2.run, 0);
    /* more runs keep the least inertia: never above the first run's, and
     * equal to that of the run they name */
    double best = i1.inertia;
    uint64_t st = 9;
    for (size_t r = 1; r < 8; r++) {
        kpca_kmeans_info ir;
        assert_int_equal(kpca_kmeans(x, N, DIM, K, kpca_splitmix64(&st), 100, c1, NULL, &ir, &err), KPCA_OK);
        if (ir.inertia < best)
            best = ir.inertia;
    }
    assert_int_equal(kpca_kmeans_restarts(x, N, DIM, K, 9, 100, 8, c2, l2, &i2, &err), KPCA_OK);
    assert_true(i2.inertia == best);
    assert_true(i2.inertia <= i1.inertia);
    assert_true(i2.run < 8);
    assert_int_equal(kpca_kmeans_restarts(x, N, DIM, K, 9, 100, 0, c2, l2, &i2, &err), KPCA_EUSAGE);
}

static void test_cluster_bad_args(void **state)
{
    (void)state;
    double x[12] = {0};
    size_t l[4];
    kpca_error err;
    assert_int_equal(kpca_cluster(x, 4, 3, 0, 2, 1, 1, 10, l, NULL, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_cluster(x, 4, 3, 4, 2, 1, 1, 10, l, NULL, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_cluster(x, 4, 3, 3, 0, 1, 1, 10, l, NULL, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_cluster(x, 4, 3, 3, 5, 1, 1, 10, l, NULL, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_cluster(x, 4, 3, 3, 2, 1, 0, 10, l, NULL, &err), KPCA_EUSAGE);
    assert_true(err.msg[0] != '\0');
}

static kpca_status op_cluster(kpca_error *err)
{
    double x[30 * 3];
    size_t l[30];
    int y[30];
    uint64_t s = 61;
    for (size_t i = 0; i < 30 * 3; i++)
        x[i] = tu_rand(&s);
    for (size_t i = 0; i < 30; i++)
        y[i] = (int)(i % 4);
    kpca_status st = kpca_cluster(x, 30, 3, 2, 5, 1, 3, 10, l, NULL, err);
    int *cls;
    size_t nc, *t;
    if (st == KPCA_OK && (st = kpca_contingency(l, 5, y, 30, &cls, &nc, &t, err)) == KPCA_OK) {
        kpca_free(cls);
        kpca_free(t);
    }
    return st;
}

static void test_alloc_failures(void **state)
{
    (void)state;
    assert_true(tu_fail_loop("kpca_cluster", op_cluster, 1) >= 1);
}

/* The rows' clusters that kpca_cluster_feed_assign hands out, in order. */
typedef struct {
    size_t *label, at;
} collect;

static kpca_status collect_each(void *ctx, const size_t *cluster, const int *y, size_t nb, kpca_error *err)
{
    (void)y;
    (void)err;
    collect *c = ctx;
    memcpy(c->label + c->at, cluster, nb * sizeof(size_t));
    c->at += nb;
    return KPCA_OK;
}

/* x (n x dim) as a data set in memory, for kpca_rowfeed_dataset */
static kpca_dataset as_dataset(double *x, int *y, size_t n, size_t dim)
{
    kpca_dataset ds;
    memset(&ds, 0, sizeof ds);
    ds.x = x;
    ds.y = y;
    ds.n = n;
    ds.dim = dim;
    return ds;
}

/* With a sample of every row, the streamed k-means is kpca_cluster's:
 * the same runs on the same points, then one pass that leaves the
 * converged centres as they are; the same clusters and inertia. */
static void test_feed_equals_memory(void **state)
{
    (void)state;
    enum { N = 2500, DIM = 5, NC = 3, K = 4 };
    double *x = malloc(N * DIM * sizeof(double));
    size_t *want = malloc(N * sizeof(size_t)), *got = malloc(N * sizeof(size_t));
    assert_non_null(x);
    assert_non_null(want);
    assert_non_null(got);
    uint64_t s = 17;
    for (size_t i = 0; i < N * DIM; i++)
        x[i] = tu_rand(&s);
    kpca_error err;
    kpca_kmeans_info info;
    assert_int_equal(kpca_cluster(x, N, DIM, NC, K, 5, 3, 300, want, &info, &err), KPCA_OK);
    assert_true(info.iters < 300); /* converged */
    kpca_dataset ds = as_dataset(x, NULL, N, DIM);
    kpca_rowfeed f;
    kpca_rowfeed_dataset(&f, &ds);
    double centres[K * NC], inertia;
    kpca_cluster_feed_info fi;
    assert_int_equal(kpca_cluster_feed(&f, NC, K, 5, 3, 300, N, centres, &fi, &err), KPCA_OK);
    assert_int_equal(fi.sample, N);
    assert_int_equal(fi.runs.run, info.run);
    assert_int_equal(fi.passes, 1);
    assert_true(fi.converged);
    collect c = {got, 0};
    assert_int_equal(kpca_cluster_feed_assign(&f, NC, K, centres, 0, collect_each, &c, &inertia, &err), KPCA_OK);
    assert_int_equal(c.at, N);
    assert_memory_equal(got, want, N * sizeof(size_t));
    if (!(fabs(inertia - info.inertia) <= 1e-12 * info.inertia))
        fail_msg("inertia %.17g, kpca_cluster's %.17g", inertia, info.inertia);
    free(x);
    free(want);
    free(got);
}

/* Starts made on a sample, then passes over all rows: the blobs found,
 * the inertia of kpca_cluster on every row (the same partition), and the
 * same centres on a second run. */
static void test_feed_sample(void **state)
{
    (void)state;
    enum { N = 3000, DIM = 4, K = 3, S = 150 };
    double *x = malloc(N * DIM * sizeof(double));
    int *truth = malloc(N * sizeof(int));
    size_t *got = malloc(N * sizeof(size_t)), *mem = malloc(N * sizeof(size_t));
    assert_non_null(x);
    assert_non_null(truth);
    assert_non_null(got);
    assert_non_null(mem);
    blobs(x, truth, N, DIM, 0.05, 23);
    kpca_dataset ds = as_dataset(x, truth, N, DIM);
    kpca_rowfeed f;
    kpca_rowfeed_dataset(&f, &ds);
    kpca_error err;
    double c1[K * DIM], c2[K * DIM], inertia;
    kpca_cluster_feed_info fi;
    assert_int_equal(kpca_cluster_feed(&f, DIM, K, 8, 2, 100, S, c1, &fi, &err), KPCA_OK);
    assert_int_equal(fi.sample, S);
    assert_true(fi.passes >= 1 && fi.converged);
    collect c = {got, 0};
    assert_int_equal(kpca_cluster_feed_assign(&f, DIM, K, c1, 1, collect_each, &c, &inertia, &err), KPCA_OK);
    assert_true(ari_of(got, K, truth, N) == 1.0);
    kpca_kmeans_info info;
    assert_int_equal(kpca_cluster(x, N, DIM, DIM, K, 8, 2, 100, mem, &info, &err), KPCA_OK);
    if (!(fabs(inertia - info.inertia) <= 1e-10 * info.inertia))
        fail_msg("inertia %.17g, kpca_cluster's %.17g", inertia, info.inertia);
    assert_int_equal(kpca_cluster_feed(&f, DIM, K, 8, 2, 100, S, c2, &fi, &err), KPCA_OK);
    assert_memory_equal(c1, c2, sizeof c1);
    free(x);
    free(truth);
    free(got);
    free(mem);
}

static void test_feed_bad(void **state)
{
    (void)state;
    enum { N = 40, DIM = 3 };
    double x[N * DIM], c[8 * DIM];
    uint64_t s = 3;
    for (size_t i = 0; i < N * DIM; i++)
        x[i] = tu_rand(&s);
    kpca_dataset ds = as_dataset(x, NULL, N, DIM);
    kpca_rowfeed f;
    kpca_rowfeed_dataset(&f, &ds);
    kpca_error err;
    assert_int_equal(kpca_cluster_feed(&f, 0, 2, 1, 1, 10, 20, c, NULL, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_cluster_feed(&f, DIM + 1, 2, 1, 1, 10, 20, c, NULL, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_cluster_feed(&f, DIM, 0, 1, 1, 10, 20, c, NULL, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_cluster_feed(&f, DIM, N + 1, 1, 1, 10, 20, c, NULL, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_cluster_feed(&f, DIM, 2, 1, 0, 10, 20, c, NULL, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_cluster_feed(&f, DIM, 2, 1, 1, 10, 0, c, NULL, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_cluster_feed(&f, DIM, 8, 1, 1, 10, 5, c, NULL, &err), KPCA_EUSAGE); /* sample < k */
    assert_non_null(strstr(err.msg, "sample of 5"));
    /* the rows end before the count the feed gave */
    kpca_rowfeed inner;
    kpca_rowfeed_dataset(&inner, &ds);
    kpca_rowfeed lying = inner; /* inner's reads (its context), 5 rows more said */
    lying.n = N + 5;
    assert_int_equal(kpca_cluster_feed(&lying, DIM, 2, 1, 1, 10, N + 5, c, NULL, &err), KPCA_EFORMAT);
    assert_non_null(strstr(err.msg, "ended after 40 of its 45 rows"));
    assert_int_equal(kpca_cluster_feed(&lying, DIM, 2, 1, 1, 10, 10, c, NULL, &err), KPCA_EFORMAT);
    double inertia;
    assert_int_equal(kpca_cluster_feed(&f, DIM, 2, 1, 1, 10, 10, c, NULL, &err), KPCA_OK);
    assert_int_equal(kpca_cluster_feed_assign(&lying, DIM, 2, c, 0, NULL, NULL, &inertia, &err), KPCA_EFORMAT);
}

static kpca_status op_feed(kpca_error *err)
{
    double x[60 * 3], c[4 * 3], inertia;
    int y[60];
    uint64_t s = 71;
    for (size_t i = 0; i < 60 * 3; i++)
        x[i] = tu_rand(&s);
    for (size_t i = 0; i < 60; i++)
        y[i] = (int)(i % 3);
    kpca_dataset ds = as_dataset(x, y, 60, 3);
    kpca_rowfeed f;
    kpca_rowfeed_dataset(&f, &ds);
    kpca_status st = kpca_cluster_feed(&f, 2, 4, 1, 2, 10, 25, c, NULL, err);
    if (st == KPCA_OK)
        st = kpca_cluster_feed_assign(&f, 2, 4, c, 1, NULL, NULL, &inertia, err);
    return st;
}

static void test_feed_alloc_failures(void **state)
{
    (void)state;
    assert_true(tu_fail_loop("kpca_cluster_feed", op_feed, 1) >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ari_identical),     cmocka_unit_test(test_ari_known),
        cmocka_unit_test(test_contingency),       cmocka_unit_test(test_cluster_blobs),
        cmocka_unit_test(test_cluster_reproducible), cmocka_unit_test(test_restarts),
        cmocka_unit_test(test_cluster_bad_args),  cmocka_unit_test(test_alloc_failures),
        cmocka_unit_test(test_feed_equals_memory), cmocka_unit_test(test_feed_sample),
        cmocka_unit_test(test_feed_bad),          cmocka_unit_test(test_feed_alloc_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
