#include "classify/cluster.h"

#include <stdlib.h>
#include <string.h>

#include "support/mem.h"

kpca_status kpca_cluster(const double *x, size_t n, size_t dim, size_t ncomp, size_t k, uint64_t seed,
                         size_t restarts, size_t max_iter, size_t *label, kpca_kmeans_info *info,
                         kpca_error *err)
{
    if (ncomp == 0 || ncomp > dim)
        return kpca_fail(err, KPCA_EUSAGE, "cannot cluster on %zu components of %zu", ncomp, dim);
    if (k == 0 || k > n)
        return kpca_fail(err, KPCA_EUSAGE, "cannot make %zu clusters of %zu points", k, n);
    double *centres = kpca_alloc_array(k, ncomp, sizeof(double));
    if (centres == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu k-means centres of %zu components", k, ncomp);
    /* the first ncomp columns in place: stride dim */
    const kpca_kmeans_opts opts = {dim, 0};
    kpca_status st = kpca_kmeans_run(x, n, ncomp, k, seed, max_iter, restarts, &opts, centres, label, info, err);
    kpca_free(centres);
    return st;
}

static int cmp_int(const void *a, const void *b)
{
    int u = *(const int *)a, v = *(const int *)b;
    return (u > v) - (u < v);
}

kpca_status kpca_contingency(const size_t *cluster, size_t k, const int *y, size_t n, int **classes,
                             size_t *nclasses, size_t **table, kpca_error *err)
{
    *classes = NULL;
    *table = NULL;
    *nclasses = 0;
    if (n == 0 || k == 0)
        return kpca_fail(err, KPCA_EUSAGE, "a contingency table of %zu points in %zu clusters", n, k);
    for (size_t i = 0; i < n; i++)
        if (cluster[i] >= k)
            return kpca_fail(err, KPCA_EUSAGE, "point %zu is in cluster %zu of %zu", i, cluster[i], k);
    int *cls = kpca_alloc_array(n, 1, sizeof(int));
    if (cls == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for the labels of %zu points", n);
    memcpy(cls, y, n * sizeof(int));
    qsort(cls, n, sizeof(int), cmp_int);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || cls[i] != cls[m - 1])
            cls[m++] = cls[i];
    size_t *t = kpca_alloc_array(k, m, sizeof(size_t));
    if (t == NULL) {
        kpca_free(cls);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for a %zu x %zu contingency table", k, m);
    }
    memset(t, 0, k * m * sizeof(size_t));
    for (size_t i = 0; i < n; i++) {
        const int *hit = bsearch(&y[i], cls, m, sizeof(int), cmp_int);
        t[cluster[i] * m + (size_t)(hit - cls)]++;
    }
    *classes = cls;
    *nclasses = m;
    *table = t;
    return KPCA_OK;
}

static double pairs(double v)
{
    return v * (v - 1.0) / 2.0;
}

double kpca_adjusted_rand(const size_t *table, size_t r, size_t c)
{
    double n = 0.0, sum_ij = 0.0, sum_a = 0.0, sum_b = 0.0;
    for (size_t i = 0; i < r; i++) {
        double a = 0.0;
        for (size_t j = 0; j < c; j++) {
            a += (double)table[i * c + j];
            sum_ij += pairs((double)table[i * c + j]);
        }
        sum_a += pairs(a);
        n += a;
    }
    for (size_t j = 0; j < c; j++) {
        double b = 0.0;
        for (size_t i = 0; i < r; i++)
            b += (double)table[i * c + j];
        sum_b += pairs(b);
    }
    if (n < 2.0)
        return 1.0;
    const double expected = sum_a * sum_b / pairs(n);
    const double denom = 0.5 * (sum_a + sum_b) - expected;
    if (denom == 0.0)
        return 1.0;
    return (sum_ij - expected) / denom;
}
