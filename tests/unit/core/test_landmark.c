/* test_landmark.c - landmark choice: uniform rows and k-means
 * (landmark.h). */
#include "testutil.h"

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
        kpca_kmeans_info info = {0, NAN, 0};
        assert_int_equal(kpca_kmeans(x, N, DIM, NC, seed, 100, c, NULL, &info, &err), KPCA_OK);
        assert_true(info.iters >= 1 && info.iters < 100); /* converged */
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
        assert_int_equal(kpca_kmeans(x, N, DIM, NC, seed, 100, c2, NULL, NULL, &err), KPCA_OK);
        assert_memory_equal(c, c2, sizeof c);
    }
    /* max_iter = 0: the k-means++ seeds, which are data points */
    kpca_kmeans_info info = {99, NAN, 99};
    assert_int_equal(kpca_kmeans(x, N, DIM, NC, 3, 0, c, NULL, &info, &err), KPCA_OK);
    assert_int_equal(info.iters, 0);
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
    double *x = tu_doubles(N * DIM), c[L * DIM], sum[L * DIM];
    size_t cnt[L];
    uint64_t s = 17;
    for (size_t i = 0; i < N * DIM; i++)
        x[i] = tu_rand(&s);
    kpca_error err;
    kpca_kmeans_info info;
    assert_int_equal(kpca_kmeans(x, N, DIM, L, 4, 500, c, NULL, &info, &err), KPCA_OK);
    assert_true(info.iters < 500);
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
        kpca_kmeans_info info;
        assert_int_equal(kpca_kmeans(x, N, DIM, L, seed, 20, c, NULL, &info, &err), KPCA_OK);
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
    assert_int_equal(kpca_kmeans(x, N, DIM, N, 1, 10, c30, NULL, NULL, &err), KPCA_OK);
}

/* Squared distance of a and b (dim values). */
static double sqdist(const double *a, const double *b, size_t dim)
{
    double d = 0.0;
    for (size_t t = 0; t < dim; t++)
        d += (a[t] - b[t]) * (a[t] - b[t]);
    return d;
}

/* The labels are the nearest centres and the inertia their summed squared
 * distances, both recomputed directly (|x - c|^2, not kpca_kmeans's
 * |x|^2 + |c|^2 - 2 x.c): returns the recomputed inertia. */
static double check_labels_inertia(const double *x, size_t n, size_t dim, const double *c, size_t k,
                                   const size_t *label, const kpca_kmeans_info *info, const char *what)
{
    double inertia = 0.0;
    for (size_t i = 0; i < n; i++) {
        assert_true(label[i] < k);
        double best = sqdist(x + i * dim, c + nearest(c, k, dim, x + i * dim) * dim, dim);
        double mine = sqdist(x + i * dim, c + label[i] * dim, dim);
        if (!(mine <= best + 1e-12 * (1.0 + best)))
            fail_msg("%s: point %zu labelled %zu at %.17g, a centre at %.17g is nearer", what, i, label[i], mine,
                     best);
        inertia += best;
    }
    if (!(fabs(info->inertia - inertia) <= 1e-10 * inertia))
        fail_msg("%s: inertia %.17g, recomputed %.17g", what, info->inertia, inertia);
    return inertia;
}

static void test_kmeans_inertia_non_increasing(void **state)
{
    (void)state;
    /* random data, one seed: max_iter = 0 (the k-means++ seeds), 1, 2, ...
     * are the prefixes of one Lloyd run, and no Lloyd step (an assignment,
     * a move to the means, a re-seeded empty cluster) raises the inertia */
    enum { N = 400, DIM = 5, K = 12, TMAX = 200 };
    double *x = tu_doubles(N * DIM), c[K * DIM];
    size_t *label = malloc(N * sizeof *label);
    assert_non_null(label);
    uint64_t s = 23;
    for (size_t i = 0; i < N * DIM; i++)
        x[i] = 3.0 + tu_rand(&s); /* off the origin, where a wrong update shows */
    kpca_error err;
    double prev = INFINITY, first = 0.0, last = 0.0;
    size_t t = 0, steps = 0;
    for (; t < TMAX; t++) {
        kpca_kmeans_info info;
        assert_int_equal(kpca_kmeans(x, N, DIM, K, 9, t, c, label, &info, &err), KPCA_OK);
        char what[48];
        snprintf(what, sizeof what, "max_iter %zu", t);
        double inertia = check_labels_inertia(x, N, DIM, c, K, label, &info, what);
        if (!(inertia <= prev * (1.0 + 1e-12)))
            fail_msg("%s: inertia %.17g, above %.17g one iteration earlier", what, inertia, prev);
        if (t == 0)
            first = inertia;
        steps += inertia < prev;
        prev = last = inertia;
        if (info.iters < t) /* converged: later runs repeat this one */
            break;
        assert_int_equal(info.iters, t);
    }
    assert_true(t < TMAX);
    assert_true(steps >= 4);          /* several Lloyd steps took part */
    assert_true(last < 0.95 * first); /* and improved on the seeds */
    free(x);
    free(label);
}

static void test_kmeans_reproducible(void **state)
{
    (void)state;
    enum { N = 250, DIM = 6, K = 9 };
    double *x = tu_doubles(N * DIM), c1[K * DIM], c2[K * DIM], c3[K * DIM];
    size_t *l1 = malloc(N * sizeof *l1), *l2 = malloc(N * sizeof *l2);
    assert_true(l1 != NULL && l2 != NULL);
    uint64_t s = 29;
    for (size_t i = 0; i < N * DIM; i++)
        x[i] = tu_rand(&s);
    kpca_error err;
    kpca_kmeans_info i1, i2, i3;
    /* the same seed: the same bits, whatever else ran in between */
    assert_int_equal(kpca_kmeans(x, N, DIM, K, 1234, 50, c1, l1, &i1, &err), KPCA_OK);
    assert_int_equal(kpca_kmeans(x, N, DIM, K, 99, 50, c3, NULL, &i3, &err), KPCA_OK);
    assert_int_equal(kpca_kmeans(x, N, DIM, K, 1234, 50, c2, l2, &i2, &err), KPCA_OK);
    assert_memory_equal(c1, c2, sizeof c1);
    assert_memory_equal(l1, l2, N * sizeof *l1);
    assert_int_equal(i1.iters, i2.iters);
    assert_memory_equal(&i1.inertia, &i2.inertia, sizeof i1.inertia);
    /* the outputs asked for change nothing in the centres */
    assert_int_equal(kpca_kmeans(x, N, DIM, K, 1234, 50, c2, NULL, NULL, &err), KPCA_OK);
    assert_memory_equal(c1, c2, sizeof c1);
    /* another seed: other k-means++ seeds */
    assert_int_equal(kpca_kmeans(x, N, DIM, K, 1234, 0, c1, NULL, NULL, &err), KPCA_OK);
    assert_int_equal(kpca_kmeans(x, N, DIM, K, 99, 0, c3, NULL, NULL, &err), KPCA_OK);
    assert_true(memcmp(c1, c3, sizeof c1) != 0);
    free(x);
    free(l1);
    free(l2);
}

static void test_kmeans_distinct_on_separable(void **state)
{
    (void)state;
    /* K blobs of radius 0.05 on a line, 1 apart, listed blob by blob: k = K
     * gives K distinct centres, one per blob, and labels that split the
     * points into the blobs */
    enum { K = 7, PER = 25, N = K * PER, DIM = 2 };
    double x[N * DIM], c[K * DIM];
    size_t label[N];
    uint64_t s = 31;
    for (size_t i = 0; i < N; i++) {
        x[i * DIM] = (double)(i / PER) + 0.05 * tu_rand(&s);
        x[i * DIM + 1] = 0.05 * tu_rand(&s);
    }
    kpca_error err;
    for (uint64_t seed = 0; seed < 10; seed++) {
        kpca_kmeans_info info;
        assert_int_equal(kpca_kmeans(x, N, DIM, K, seed, 100, c, label, &info, &err), KPCA_OK);
        assert_true(info.iters < 100);
        for (size_t a = 0; a < K; a++)
            for (size_t b = 0; b < a; b++)
                if (!(sqdist(c + a * DIM, c + b * DIM, DIM) > 0.5))
                    fail_msg("seed %llu: centres %zu and %zu are %g apart", (unsigned long long)seed, a, b,
                             sqrt(sqdist(c + a * DIM, c + b * DIM, DIM)));
        size_t blob_of[K];
        for (size_t j = 0; j < K; j++)
            blob_of[j] = K;
        for (size_t i = 0; i < N; i++) {
            size_t j = label[i];
            assert_true(j < K);
            if (blob_of[j] == K)
                blob_of[j] = i / PER;
            if (blob_of[j] != i / PER)
                fail_msg("seed %llu: centre %zu holds points of blobs %zu and %zu", (unsigned long long)seed, j,
                         blob_of[j], i / PER);
        }
        char what[32];
        snprintf(what, sizeof what, "seed %llu", (unsigned long long)seed);
        double inertia = check_labels_inertia(x, N, DIM, c, K, label, &info, what);
        assert_true(inertia < (double)N * 2.0 * 0.05 * 0.05);
    }
}

static void test_kmeans_bad_args(void **state)
{
    (void)state;
    double x[6] = {0, 1, 2, 3, 4, 5}, c[8];
    kpca_error err;
    kpca_error_clear(&err);
    assert_int_equal(kpca_kmeans(x, 3, 2, 0, 1, 10, c, NULL, NULL, &err), KPCA_EUSAGE);
    assert_true(err.msg[0] != '\0');
    assert_int_equal(kpca_kmeans(x, 3, 2, 4, 1, 10, c, NULL, NULL, &err), KPCA_EUSAGE);
    assert_int_equal(kpca_kmeans(x, 3, 0, 2, 1, 10, c, NULL, NULL, NULL), KPCA_EUSAGE);
}

/* ---- allocation failures ----------------------------------------------------------- */

static kpca_status op_kmeans(kpca_error *err)
{
    double x[30 * 3], c[5 * 3];
    uint64_t s = 61;
    for (size_t i = 0; i < 30 * 3; i++)
        x[i] = tu_rand(&s);
    return kpca_kmeans(x, 30, 3, 5, 1, 10, c, NULL, NULL, err);
}

static void test_alloc_failures(void **state)
{
    (void)state;
    assert_true(tu_fail_loop("kpca_kmeans", op_kmeans, 1) >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uniform_landmarks),
        cmocka_unit_test(test_kmeans_separated),
        cmocka_unit_test(test_kmeans_fixed_point),
        cmocka_unit_test(test_kmeans_empty_clusters),
        cmocka_unit_test(test_kmeans_inertia_non_increasing),
        cmocka_unit_test(test_kmeans_reproducible),
        cmocka_unit_test(test_kmeans_distinct_on_separable),
        cmocka_unit_test(test_kmeans_bad_args),
        cmocka_unit_test(test_alloc_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
