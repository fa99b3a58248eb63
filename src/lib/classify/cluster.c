#include "classify/cluster.h"

#include <cblas.h>
#include <limits.h>
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

/* One pass's blocks: rows as the feed gives them (dim values each), their
 * labels, norms, cross terms and nearest centres. */
typedef struct {
    size_t dim, ncomp, k;
    double *x, *xn, *cn, *cross;
    int *y;
    size_t *near;
} feed_ws;

static void feed_ws_free(feed_ws *w)
{
    kpca_free(w->x);
    kpca_free(w->xn);
    kpca_free(w->cn);
    kpca_free(w->cross);
    kpca_free(w->y);
    kpca_free(w->near);
    memset(w, 0, sizeof *w);
}

static kpca_status feed_ws_init(feed_ws *w, const kpca_rowfeed *f, size_t ncomp, size_t k, kpca_error *err)
{
    memset(w, 0, sizeof *w);
    if (ncomp == 0 || ncomp > f->dim)
        return kpca_fail(err, KPCA_EUSAGE, "cannot cluster on %zu components of %zu", ncomp, f->dim);
    if (k == 0 || k > f->n)
        return kpca_fail(err, KPCA_EUSAGE, "cannot make %zu clusters of %zu points", k, f->n);
    if (f->dim > (size_t)INT_MAX || k > (size_t)INT_MAX)
        return kpca_fail(err, KPCA_EUSAGE, "k-means with %zu centres of dimension %zu is beyond BLAS's int indices",
                         k, f->dim);
    const size_t b = KPCA_KMEANS_BLOCK;
    w->dim = f->dim;
    w->ncomp = ncomp;
    w->k = k;
    w->x = kpca_alloc_array(b, f->dim, sizeof(double));
    w->xn = kpca_alloc_array(b, 1, sizeof(double));
    w->cn = kpca_alloc_array(k, 1, sizeof(double));
    w->cross = kpca_alloc_array(b, k, sizeof(double));
    w->y = kpca_alloc_array(b, 1, sizeof(int));
    w->near = kpca_alloc_array(b, 1, sizeof(size_t));
    if (w->x == NULL || w->xn == NULL || w->cn == NULL || w->cross == NULL || w->y == NULL || w->near == NULL) {
        feed_ws_free(w);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for k-means blocks of %zu rows of %zu values", b,
                         f->dim);
    }
    return KPCA_OK;
}

/* One pass over the feed with the centres: with sums (k x ncomp) and count
 * (k), the sums and sizes of the centres' rows; with inertia, the sum of
 * the squared distances; each (may be NULL) gets every block's clusters. */
static kpca_status feed_pass(kpca_rowfeed *f, feed_ws *w, const double *centres, double *sums, size_t *count,
                             int labels, kpca_cluster_each each, void *ctx, double *inertia, kpca_error *err)
{
    const size_t k = w->k, nc = w->ncomp, dim = w->dim;
    for (size_t j = 0; j < k; j++)
        w->cn[j] = cblas_ddot((int)nc, centres + j * nc, 1, centres + j * nc, 1);
    if (sums != NULL) {
        memset(sums, 0, k * nc * sizeof(double));
        memset(count, 0, k * sizeof(size_t));
    }
    kpca_status st = f->seek(f->ctx, 0, err);
    size_t seen = 0;
    double total = 0.0;
    while (st == KPCA_OK) {
        size_t got = 0;
        st = f->read(f->ctx, KPCA_KMEANS_BLOCK, w->x, labels ? w->y : NULL, &got, err);
        if (st != KPCA_OK || got == 0)
            break;
        for (size_t i = 0; inertia != NULL && i < got; i++)
            w->xn[i] = cblas_ddot((int)nc, w->x + i * dim, 1, w->x + i * dim, 1);
        kpca_kmeans_nearest(w->x, got, dim, nc, centres, w->cn, k, w->cross, w->near,
                            inertia != NULL ? w->xn : NULL);
        for (size_t i = 0; i < got; i++) {
            if (sums != NULL) {
                count[w->near[i]]++;
                cblas_daxpy((int)nc, 1.0, w->x + i * dim, 1, sums + w->near[i] * nc, 1);
            }
            if (inertia != NULL)
                total += w->xn[i];
        }
        if (each != NULL)
            st = each(ctx, w->near, labels ? w->y : NULL, got, err);
        seen += got;
    }
    if (st == KPCA_OK && seen != f->n)
        st = kpca_fail(err, KPCA_EFORMAT, "the data ended after %zu of its %zu rows", seen, f->n);
    if (st == KPCA_OK && inertia != NULL)
        *inertia = total;
    return st;
}

/* The rows idx[0..s) (ascending; NULL: all s = n), their first nc values,
 * into xs (s x nc). */
static kpca_status feed_sample(kpca_rowfeed *f, feed_ws *w, const size_t *idx, size_t s, double *xs,
                               kpca_error *err)
{
    kpca_status st = f->seek(f->ctx, 0, err);
    size_t at = 0, j = 0;
    while (st == KPCA_OK && j < s) {
        size_t got = 0;
        st = f->read(f->ctx, KPCA_KMEANS_BLOCK, w->x, NULL, &got, err);
        if (st != KPCA_OK)
            break;
        if (got == 0) {
            st = kpca_fail(err, KPCA_EFORMAT, "the data ended after %zu of its %zu rows", at, f->n);
            break;
        }
        for (; j < s && (idx != NULL ? idx[j] : j) < at + got; j++)
            memcpy(xs + j * w->ncomp, w->x + ((idx != NULL ? idx[j] : j) - at) * w->dim,
                   w->ncomp * sizeof(double));
        at += got;
    }
    return st;
}

kpca_status kpca_cluster_feed(kpca_rowfeed *feed, size_t ncomp, size_t k, uint64_t seed, size_t restarts,
                              size_t max_iter, size_t sample, double *centres, kpca_cluster_feed_info *info,
                              kpca_error *err)
{
    if (restarts == 0 || sample == 0)
        return kpca_fail(err, KPCA_EUSAGE, "k-means needs a run and a sample: %zu runs, %zu points", restarts,
                         sample);
    feed_ws w;
    kpca_status st = feed_ws_init(&w, feed, ncomp, k, err);
    if (st != KPCA_OK)
        return st;
    const size_t n = feed->n, s = n < sample ? n : sample;
    if (s < k) {
        feed_ws_free(&w);
        return kpca_fail(err, KPCA_EUSAGE, "cannot start %zu clusters from a sample of %zu points", k, s);
    }
    size_t *idx = s < n ? kpca_alloc_array(s, 1, sizeof(size_t)) : NULL;
    double *xs = kpca_alloc_array(s, ncomp, sizeof(double));
    double *next = kpca_alloc_array(k, ncomp, sizeof(double));
    size_t *count = kpca_alloc_array(k, 1, sizeof(size_t));
    kpca_cluster_feed_info out = {s, {0, 0.0, 0}, 0, 0};
    if ((s < n && idx == NULL) || xs == NULL || next == NULL || count == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for a k-means sample of %zu points of %zu values", s, ncomp);
        goto done;
    }
    if (s < n)
        st = kpca_landmarks_uniform(n, s, seed, idx, err);
    if (st == KPCA_OK)
        st = feed_sample(feed, &w, idx, s, xs, err);
    if (st == KPCA_OK)
        st = kpca_kmeans_restarts(xs, s, ncomp, k, seed, max_iter, restarts, centres, NULL, &out.runs, err);
    kpca_free(xs); /* the passes need none of it */
    xs = NULL;
    while (st == KPCA_OK && out.passes < max_iter && !out.converged) {
        st = feed_pass(feed, &w, centres, next, count, 0, NULL, NULL, NULL, err);
        if (st != KPCA_OK)
            break;
        out.passes++;
        for (size_t j = 0; j < k; j++) {
            if (count[j] > 0)
                cblas_dscal((int)ncomp, 1.0 / (double)count[j], next + j * ncomp, 1);
            else
                memcpy(next + j * ncomp, centres + j * ncomp, ncomp * sizeof(double));
        }
        out.converged = memcmp(next, centres, k * ncomp * sizeof(double)) == 0;
        memcpy(centres, next, k * ncomp * sizeof(double));
    }
    if (st == KPCA_OK && info != NULL)
        *info = out;
done:
    kpca_free(idx);
    kpca_free(xs);
    kpca_free(next);
    kpca_free(count);
    feed_ws_free(&w);
    return st;
}

kpca_status kpca_cluster_feed_assign(kpca_rowfeed *feed, size_t ncomp, size_t k, const double *centres,
                                     int labels, kpca_cluster_each each, void *ctx, double *inertia,
                                     kpca_error *err)
{
    feed_ws w;
    kpca_status st = feed_ws_init(&w, feed, ncomp, k, err);
    if (st == KPCA_OK)
        st = feed_pass(feed, &w, centres, NULL, NULL, labels, each, ctx, inertia, err);
    feed_ws_free(&w);
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
