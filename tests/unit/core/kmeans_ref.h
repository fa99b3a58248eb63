/* kmeans_ref.h - the k-means of lib/core/landmark.c as it was before its
 * passes went by blocks (git 59fa40a): n-long arrays of norms, distances,
 * dot products and assignments, a copy of the labels per restart.  The
 * reference test_kmeans.c holds the blocked code to: the same seeds, the
 * same Lloyd steps, the same re-seeding of empty clusters.  Test code only
 * (plain statics, the library's allocator so that it obeys the budget). */
#ifndef KPCA_KMEANS_REF_H
#define KPCA_KMEANS_REF_H

#include <cblas.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "lib/kpca.h"
#include "lib/support/rng.h"

static size_t ref_uniform_index(uint64_t *state, size_t n)
{
    size_t i = (size_t)(kpca_rng_uniform(state) * (double)n);
    return i < n ? i : n - 1;
}

/* d[i] = min(d[i], |x_i - c|^2) for all n points (first: d[i] = |x_i - c|^2),
 * with g (n) as scratch for the dot products. */
static void ref_nearest_update(const double *x, const double *xn, size_t n, size_t dim, const double *c, double *g,
                           double *d, int first)
{
    double cn = cblas_ddot((int)dim, c, 1, c, 1);
    cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)n, (int)dim, 1.0, x, (int)dim, c, 1, 0.0, g, 1);
    for (size_t i = 0; i < n; i++) {
        double dist = fmax(0.0, xn[i] + cn - 2.0 * g[i]);
        if (first || dist < d[i])
            d[i] = dist;
    }
}

/* k-means++: the first centre uniformly, each next one a point drawn with
 * probability proportional to its squared distance to the nearest centre
 * so far (uniformly when every point sits on a centre). */
static void ref_kmeans_pp(const double *x, const double *xn, size_t n, size_t dim, size_t l, uint64_t *state,
                      double *centres, double *d, double *g)
{
    for (size_t j = 0; j < l; j++) {
        size_t pick = 0;
        double total = 0.0;
        if (j > 0)
            for (size_t i = 0; i < n; i++)
                total += d[i];
        if (total > 0.0) {
            double u = kpca_rng_uniform(state) * total, cum = 0.0;
            for (size_t i = 0; i < n; i++) {
                if (d[i] > 0.0) {
                    pick = i; /* the last candidate, should rounding leave cum <= u */
                    cum += d[i];
                    if (cum > u)
                        break;
                }
            }
        } else {
            pick = ref_uniform_index(state, n);
        }
        memcpy(centres + j * dim, x + pick * dim, dim * sizeof(double));
        ref_nearest_update(x, xn, n, dim, centres + j * dim, g, d, j == 0);
    }
}

/* One assignment pass: assign[i] = nearest centre, d[i] = its squared
 * distance; returns the number of points whose assignment changed. */
static size_t ref_kmeans_assign(const double *x, const double *xn, size_t n, size_t dim, const double *centres,
                            size_t l, double *cn, double *cross, size_t block, size_t *assign, double *d)
{
    for (size_t j = 0; j < l; j++)
        cn[j] = cblas_ddot((int)dim, centres + j * dim, 1, centres + j * dim, 1);
    size_t changes = 0;
    for (size_t r0 = 0; r0 < n; r0 += block) {
        size_t nb = n - r0 < block ? n - r0 : block;
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nb, (int)l, (int)dim, 1.0, x + r0 * dim,
                    (int)dim, centres, (int)dim, 0.0, cross, (int)l);
        for (size_t i = 0; i < nb; i++) {
            const double *row = cross + i * l;
            size_t best = 0;
            double bestv = cn[0] - 2.0 * row[0];
            for (size_t j = 1; j < l; j++) {
                double v = cn[j] - 2.0 * row[j];
                if (v < bestv) {
                    bestv = v;
                    best = j;
                }
            }
            d[r0 + i] = fmax(0.0, xn[r0 + i] + bestv);
            if (assign[r0 + i] != best) {
                assign[r0 + i] = best;
                changes++;
            }
        }
    }
    return changes;
}

/* Centres re-seeded, updates that re-seeded any, and re-seeds that passed
 * over a farther point because its cluster held it alone (the test's only
 * addition: how often each case ran). */
static size_t ref_reseeds, ref_reseed_updates, ref_reseed_skips;

/* Centres = the means of their points; an empty cluster takes the point
 * farthest from the centre it was assigned to, out of a cluster of two or
 * more (one exists while a cluster is empty, as n >= l). */
static void ref_kmeans_update(const double *x, size_t n, size_t dim, size_t l, size_t *assign, size_t *count,
                              double *d, double *centres)
{
    size_t reseeds = ref_reseeds;
    memset(centres, 0, l * dim * sizeof(double));
    memset(count, 0, l * sizeof(size_t));
    for (size_t i = 0; i < n; i++) {
        count[assign[i]]++;
        cblas_daxpy((int)dim, 1.0, x + i * dim, 1, centres + assign[i] * dim, 1);
    }
    for (size_t j = 0; j < l; j++)
        if (count[j] > 0)
            cblas_dscal((int)dim, 1.0 / (double)count[j], centres + j * dim, 1);
    for (size_t j = 0; j < l; j++) {
        if (count[j] > 0)
            continue;
        size_t far = n;
        for (size_t i = 0; i < n; i++)
            if (count[assign[i]] >= 2 && (far == n || d[i] > d[far]))
                far = i;
        for (size_t i = 0; i < n; i++)
            if (d[i] > d[far] && count[assign[i]] == 1 && assign[i] < l && i != far) {
                ref_reseed_skips++;
                break;
            }
        size_t old = assign[far];
        double *co = centres + old * dim;
        const double *xf = x + far * dim;
        double m = (double)count[old];
        for (size_t t = 0; t < dim; t++) /* remove x_far from its old mean */
            co[t] = (co[t] * m - xf[t]) / (m - 1.0);
        count[old]--;
        memcpy(centres + j * dim, xf, dim * sizeof(double));
        count[j] = 1;
        assign[far] = j;
        d[far] = 0.0;
        ref_reseeds++;
    }
    ref_reseed_updates += ref_reseeds > reseeds;
}

static kpca_status ref_kmeans(const double *x, size_t n, size_t dim, size_t k, uint64_t seed, size_t max_iter,
                        double *centres, size_t *label, kpca_kmeans_info *info, kpca_error *err)
{
    if (k == 0 || k > n || dim == 0)
        return kpca_fail(err, KPCA_EUSAGE, "cannot place %zu k-means centres among %zu points of dimension %zu", k,
                         n, dim);
    if (n > (size_t)INT_MAX || dim > (size_t)INT_MAX)
        return kpca_fail(err, KPCA_EUSAGE, "%zu points of dimension %zu are beyond BLAS's int indices", n, dim);
    const size_t block = n < KPCA_KMEANS_BLOCK ? n : KPCA_KMEANS_BLOCK;
    double *xn = kpca_alloc_array(n, 1, sizeof(double));
    double *d = kpca_alloc_array(n, 1, sizeof(double));
    double *g = kpca_alloc_array(n, 1, sizeof(double));
    double *cn = kpca_alloc_array(k, 1, sizeof(double));
    double *cross = kpca_alloc_array(block, k, sizeof(double));
    size_t *assign = kpca_alloc_array(n, 1, sizeof(size_t));
    size_t *count = kpca_alloc_array(k, 1, sizeof(size_t));
    kpca_status st = KPCA_OK;
    if (xn == NULL || d == NULL || g == NULL || cn == NULL || cross == NULL || assign == NULL || count == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for k-means with %zu centres", k);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        xn[i] = cblas_ddot((int)dim, x + i * dim, 1, x + i * dim, 1);
    uint64_t state = seed;
    ref_kmeans_pp(x, xn, n, dim, k, &state, centres, d, g);
    for (size_t i = 0; i < n; i++)
        assign[i] = SIZE_MAX;
    size_t it = 0;
    int fresh = 0; /* assign and d belong to the current centres */
    while (it < max_iter) {
        size_t changes = ref_kmeans_assign(x, xn, n, dim, centres, k, cn, cross, block, assign, d);
        it++;
        fresh = 1;
        if (changes == 0)
            break;
        ref_kmeans_update(x, n, dim, k, assign, count, d, centres);
        fresh = 0;
    }
    if ((label != NULL || info != NULL) && !fresh)
        (void)ref_kmeans_assign(x, xn, n, dim, centres, k, cn, cross, block, assign, d);
    if (label != NULL)
        memcpy(label, assign, n * sizeof *label);
    if (info != NULL) {
        double inertia = 0.0;
        for (size_t i = 0; i < n; i++)
            inertia += d[i];
        info->iters = it;
        info->inertia = inertia;
        info->run = 0;
    }
done:
    kpca_free(xn);
    kpca_free(d);
    kpca_free(g);
    kpca_free(cn);
    kpca_free(cross);
    kpca_free(assign);
    kpca_free(count);
    return st;
}

static kpca_status ref_kmeans_restarts(const double *x, size_t n, size_t dim, size_t k, uint64_t seed, size_t max_iter,
                                 size_t restarts, double *centres, size_t *label, kpca_kmeans_info *info,
                                 kpca_error *err)
{
    if (restarts == 0)
        return kpca_fail(err, KPCA_EUSAGE, "k-means needs at least one run, not 0");
    kpca_kmeans_info best, cur;
    kpca_status st = ref_kmeans(x, n, dim, k, seed, max_iter, centres, label, &best, err);
    if (st != KPCA_OK || restarts == 1)
        goto out;
    double *c2 = kpca_alloc_array(k, dim, sizeof(double));
    size_t *l2 = label != NULL ? kpca_alloc_array(n, 1, sizeof(size_t)) : NULL;
    if (c2 == NULL || (label != NULL && l2 == NULL)) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for k-means with %zu centres", k);
        restarts = 1;
    }
    uint64_t state = seed;
    for (size_t r = 1; r < restarts && st == KPCA_OK; r++) {
        st = ref_kmeans(x, n, dim, k, kpca_splitmix64(&state), max_iter, c2, l2, &cur, err);
        if (st == KPCA_OK && cur.inertia < best.inertia) {
            best = cur;
            best.run = r;
            memcpy(centres, c2, k * dim * sizeof(double));
            if (label != NULL)
                memcpy(label, l2, n * sizeof *label);
        }
    }
    kpca_free(c2);
    kpca_free(l2);
out:
    if (st == KPCA_OK && info != NULL)
        *info = best;
    return st;
}

#endif
