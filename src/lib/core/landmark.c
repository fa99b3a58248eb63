#include "core/landmark.h"

#include <cblas.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/dataset.h"
#include "support/mem.h"
#include "support/rng.h"

/* Uniform in 0..n-1 (n >= 1); the bias, n / 2^53, is far below anything
 * observable. */
static size_t uniform_index(uint64_t *state, size_t n)
{
    size_t i = (size_t)(kpca_rng_uniform(state) * (double)n);
    return i < n ? i : n - 1;
}

kpca_status kpca_landmarks_uniform(size_t n, size_t l, uint64_t seed, size_t *idx, kpca_error *err)
{
    if (l == 0 || l > n)
        return kpca_fail(err, KPCA_EUSAGE, "cannot draw %zu landmarks from %zu points", l, n);
    /* kpca_subset_indices draws uniformly for any seed but 0; map every
     * seed to a non-zero one */
    uint64_t state = seed;
    uint64_t sub = kpca_splitmix64(&state);
    return kpca_subset_indices(n, l, sub ? sub : 1, idx, err);
}

/* A re-seeding candidate: point i at squared distance d. */
typedef struct {
    double d;
    size_t i;
} cand;

/* One k-means run's data and scratch.  w holds a word per point: while
 * seeding, the squared distance to the nearest seed (a double's bits, see
 * wget/wput); from the first assignment on, the point's centre.  Nothing
 * else is per point: the passes take the points `block` at a time. */
typedef struct {
    const double *x;
    size_t n, dim, ld, k, block;
    double *xn;    /* block: |x_i|^2 of the block's points */
    double *xnc;   /* ncached: |x_i|^2 of the first ncached points, kept */
    size_t ncached;
    double *cn;    /* k: |c_j|^2 */
    double *cross; /* block x k: x_i.c_j of the block (seeding: block x 1) */
    size_t *near;  /* block: the nearest centre of each of the block's points */
    double *next;  /* k x dim: the centres an update makes */
    size_t *count; /* k */
    cand *cand;    /* k: the farthest points, for re-seeding */
    size_t *w;     /* n */
} kmeans_ws;

_Static_assert(sizeof(double) == sizeof(size_t), "a point's word holds a double while seeding");

/* The seeding's distance of point i, kept in its word (memcpy: the word is
 * a size_t, and may be the caller's label array). */
static double wget(const size_t *w, size_t i)
{
    double v;
    memcpy(&v, w + i, sizeof v);
    return v;
}

static void wput(size_t *w, size_t i, double v)
{
    memcpy(w + i, &v, sizeof v);
}

/* |x_i|^2, by the one formula every pass uses. */
static double row_norm(const kmeans_ws *m, size_t i)
{
    const double *xi = m->x + i * m->ld;
    return cblas_ddot((int)m->dim, xi, 1, xi, 1);
}

/* The rows r0.. of the block: nb of them; with norms, |x_i|^2 into m->xn
 * (the kept ones copied, the others computed again). */
static const double *block_rows(const kmeans_ws *m, size_t r0, int norms, size_t *nb)
{
    *nb = m->n - r0 < m->block ? m->n - r0 : m->block;
    for (size_t i = 0; norms && i < *nb; i++)
        m->xn[i] = r0 + i < m->ncached ? m->xnc[r0 + i] : row_norm(m, r0 + i);
    return m->x + r0 * m->ld;
}

/* d_i = min(d_i, |x_i - c|^2) for every point (first: d_i = |x_i - c|^2),
 * d_i in the points' words. */
static void nearest_update(const kmeans_ws *m, const double *c, int first)
{
    double cn = cblas_ddot((int)m->dim, c, 1, c, 1);
    for (size_t r0 = 0; r0 < m->n; r0 += m->block) {
        size_t nb;
        const double *xb = block_rows(m, r0, 1, &nb);
        cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)nb, (int)m->dim, 1.0, xb, (int)m->ld, c, 1, 0.0, m->cross,
                    1);
        for (size_t i = 0; i < nb; i++) {
            double dist = fmax(0.0, m->xn[i] + cn - 2.0 * m->cross[i]);
            if (first || dist < wget(m->w, r0 + i))
                wput(m->w, r0 + i, dist);
        }
    }
}

/* k-means++: the first centre uniformly, each next one a point drawn with
 * probability proportional to its squared distance to the nearest centre
 * so far (uniformly when every point sits on a centre). */
static void kmeans_pp(const kmeans_ws *m, uint64_t *state, double *centres)
{
    const size_t n = m->n, dim = m->dim;
    for (size_t j = 0; j < m->k; j++) {
        size_t pick = 0;
        double total = 0.0;
        if (j > 0)
            for (size_t i = 0; i < n; i++)
                total += wget(m->w, i);
        if (total > 0.0) {
            double u = kpca_rng_uniform(state) * total, cum = 0.0;
            for (size_t i = 0; i < n; i++) {
                double d = wget(m->w, i);
                if (d > 0.0) {
                    pick = i; /* the last candidate, should rounding leave cum <= u */
                    cum += d;
                    if (cum > u)
                        break;
                }
            }
        } else {
            pick = uniform_index(state, n);
        }
        memcpy(centres + j * dim, m->x + pick * m->ld, dim * sizeof(double));
        nearest_update(m, centres + j * dim, j == 0);
    }
}

static void centre_norms(const kmeans_ws *m, const double *centres)
{
    for (size_t j = 0; j < m->k; j++)
        m->cn[j] = cblas_ddot((int)m->dim, centres + j * m->dim, 1, centres + j * m->dim, 1);
}

void kpca_kmeans_nearest(const double *xb, size_t nb, size_t ld, size_t dim, const double *centres,
                         const double *cn, size_t k, double *cross, size_t *near, double *d2)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nb, (int)k, (int)dim, 1.0, xb, (int)ld, centres,
                (int)dim, 0.0, cross, (int)k);
    for (size_t i = 0; i < nb; i++) {
        const double *row = cross + i * k;
        size_t best = 0;
        double bestv = cn[0] - 2.0 * row[0];
        for (size_t j = 1; j < k; j++) {
            double v = cn[j] - 2.0 * row[j];
            if (v < bestv) {
                bestv = v;
                best = j;
            }
        }
        if (d2 != NULL)
            d2[i] = fmax(0.0, d2[i] + bestv);
        near[i] = best;
    }
}

/* The nearest centres of the block's nb points xb (centre_norms made the
 * centres' norms) into m->near; with dist (block_rows made the points'
 * norms), m->xn[i] the squared distance. */
static void block_nearest(const kmeans_ws *m, const double *xb, size_t nb, const double *centres, int dist)
{
    kpca_kmeans_nearest(xb, nb, m->ld, m->dim, centres, m->cn, m->k, m->cross, m->near, dist ? m->xn : NULL);
}

/* One assignment pass: each point's word = its nearest centre; with
 * inertia (may be NULL), *inertia = the sum of the squared distances, in
 * the points' order (the choice of centre needs no |x|^2, the distances
 * do).  Returns the number of points whose centre changed. */
static size_t kmeans_assign(const kmeans_ws *m, const double *centres, double *inertia)
{
    centre_norms(m, centres);
    size_t changes = 0;
    double sum = 0.0;
    for (size_t r0 = 0; r0 < m->n; r0 += m->block) {
        size_t nb;
        const double *xb = block_rows(m, r0, inertia != NULL, &nb);
        block_nearest(m, xb, nb, centres, inertia != NULL);
        for (size_t i = 0; i < nb; i++) {
            if (inertia != NULL)
                sum += m->xn[i];
            if (m->w[r0 + i] != m->near[i]) {
                m->w[r0 + i] = m->near[i];
                changes++;
            }
        }
    }
    if (inertia != NULL)
        *inertia = sum;
    return changes;
}

/* next = the means of the centres' points, count = their sizes; returns
 * the number of centres left without a point. */
static size_t kmeans_means(const kmeans_ws *m, double *next)
{
    const size_t k = m->k, dim = m->dim;
    memset(next, 0, k * dim * sizeof(double));
    memset(m->count, 0, k * sizeof(size_t));
    for (size_t i = 0; i < m->n; i++) {
        m->count[m->w[i]]++;
        cblas_daxpy((int)dim, 1.0, m->x + i * m->ld, 1, next + m->w[i] * dim, 1);
    }
    size_t empty = 0;
    for (size_t j = 0; j < k; j++) {
        if (m->count[j] > 0)
            cblas_dscal((int)dim, 1.0 / (double)m->count[j], next + j * dim, 1);
        else
            empty++;
    }
    return empty;
}

/* a is farther than b: the larger distance, or on a tie the lower index */
static int cand_before(const cand *a, const cand *b)
{
    return a->d > b->d || (a->d == b->d && a->i < b->i);
}

static int cmp_cand(const void *a, const void *b)
{
    return cand_before(a, b) ? -1 : cand_before(b, a) ? 1 : 0;
}

/* The heap h (size *len, capacity cap, its root the nearest of the kept
 * points) offered point c: it keeps the cap farthest points seen. */
static void cand_offer(cand *h, size_t *len, size_t cap, cand c)
{
    size_t at;
    if (*len < cap) { /* sift up */
        at = (*len)++;
        while (at > 0 && cand_before(&h[(at - 1) / 2], &c)) {
            h[at] = h[(at - 1) / 2];
            at = (at - 1) / 2;
        }
        h[at] = c;
        return;
    }
    if (!cand_before(&c, &h[0]))
        return;
    at = 0; /* replace the root, sift down */
    for (;;) {
        size_t l = 2 * at + 1, r = l + 1, near = at;
        const cand *v = &c;
        if (l < *len && cand_before(v, &h[l])) {
            near = l;
            v = &h[l];
        }
        if (r < *len && cand_before(v, &h[r]))
            near = r;
        if (near == at)
            break;
        h[at] = h[near];
        at = near;
    }
    h[at] = c;
}

/* Every centre j left empty by kmeans_means (in next, count) takes, in the
 * order of j, the point farthest from the centre it was assigned to (the
 * distances of the last assignment, with `centres`), out of a cluster of
 * two or more points; that point leaves its old mean.
 *
 * Scanning the points from the farthest down, a point is taken when its
 * cluster still has two or more and skipped otherwise: a skipped cluster
 * holds one point from then on, so each of the k - e non-empty clusters
 * is skipped at most once, and e points are taken: the k farthest points
 * are all the scan can reach.  One pass finds them (a heap of k), with
 * the assignment's own arithmetic, so they are the points the assignment's
 * distances name. */
static kpca_status kmeans_reseed(const kmeans_ws *m, const double *centres, double *next, kpca_error *err)
{
    const size_t k = m->k, dim = m->dim;
    size_t len = 0;
    centre_norms(m, centres);
    for (size_t r0 = 0; r0 < m->n; r0 += m->block) {
        size_t nb;
        const double *xb = block_rows(m, r0, 1, &nb);
        block_nearest(m, xb, nb, centres, 1);
        for (size_t i = 0; i < nb; i++)
            cand_offer(m->cand, &len, k, (cand){m->xn[i], r0 + i});
    }
    qsort(m->cand, len, sizeof *m->cand, cmp_cand);
    size_t p = 0;
    for (size_t j = 0; j < k; j++) {
        if (m->count[j] > 0)
            continue;
        while (p < len && m->count[m->w[m->cand[p].i]] < 2)
            p++;
        if (p == len)
            return kpca_fail(err, KPCA_EINTERNAL, "k-means: no point left to re-seed centre %zu with", j);
        size_t far = m->cand[p++].i;
        size_t old = m->w[far];
        double *co = next + old * dim;
        const double *xf = m->x + far * m->ld;
        double c = (double)m->count[old];
        for (size_t t = 0; t < dim; t++) /* remove x_far from its old mean */
            co[t] = (co[t] * c - xf[t]) / (c - 1.0);
        m->count[old]--;
        memcpy(next + j * dim, xf, dim * sizeof(double));
        m->count[j] = 1;
        m->w[far] = j;
    }
    return KPCA_OK;
}

/* One run from seed into centres.  With `final`, the points' words (their
 * centres) and info->inertia are brought up to date with the returned
 * centres by one assignment pass more (else the words may belong to the
 * centres before the last move, and the inertia is not computed): the
 * Lloyd passes skip the distances, which only the last one would need. */
static kpca_status kmeans_once(const kmeans_ws *m, uint64_t seed, size_t max_iter, int final, double *centres,
                               kpca_kmeans_info *info, kpca_error *err)
{
    uint64_t state = seed;
    kmeans_pp(m, &state, centres);
    for (size_t i = 0; i < m->n; i++)
        m->w[i] = SIZE_MAX;
    size_t it = 0;
    while (it < max_iter) {
        size_t changes = kmeans_assign(m, centres, NULL);
        it++;
        if (changes == 0)
            break;
        if (kmeans_means(m, m->next) > 0) {
            kpca_status st = kmeans_reseed(m, centres, m->next, err);
            if (st != KPCA_OK)
                return st;
        }
        memcpy(centres, m->next, m->k * m->dim * sizeof(double));
    }
    double inertia = 0.0;
    if (final)
        (void)kmeans_assign(m, centres, &inertia);
    info->iters = it;
    info->inertia = inertia;
    info->run = 0;
    return KPCA_OK;
}

kpca_status kpca_kmeans_run(const double *x, size_t n, size_t dim, size_t k, uint64_t seed, size_t max_iter,
                            size_t restarts, const kpca_kmeans_opts *opts, double *centres, size_t *label,
                            kpca_kmeans_info *info, kpca_error *err)
{
    const size_t ld = opts != NULL && opts->ld != 0 ? opts->ld : dim;
    size_t block = opts != NULL && opts->block != 0 ? opts->block : KPCA_KMEANS_BLOCK;
    if (k == 0 || k > n || dim == 0)
        return kpca_fail(err, KPCA_EUSAGE, "cannot place %zu k-means centres among %zu points of dimension %zu", k,
                         n, dim);
    if (restarts == 0)
        return kpca_fail(err, KPCA_EUSAGE, "k-means needs at least one run, not 0");
    if (ld < dim)
        return kpca_fail(err, KPCA_EUSAGE, "k-means: a row stride of %zu for points of dimension %zu", ld, dim);
    if (ld > (size_t)INT_MAX || k > (size_t)INT_MAX || block > (size_t)INT_MAX)
        return kpca_fail(err, KPCA_EUSAGE, "k-means with %zu centres of dimension %zu is beyond BLAS's int indices",
                         k, ld);
    if (block > n)
        block = n;
    kmeans_ws m = {.x = x, .n = n, .dim = dim, .ld = ld, .k = k, .block = block};
    m.ncached = n < KPCA_KMEANS_CACHED_NORMS ? n : KPCA_KMEANS_CACHED_NORMS;
    m.xn = kpca_alloc_array(block, 1, sizeof(double));
    m.xnc = kpca_alloc_array(m.ncached, 1, sizeof(double));
    m.near = kpca_alloc_array(block, 1, sizeof(size_t));
    m.cn = kpca_alloc_array(k, 1, sizeof(double));
    m.cross = kpca_alloc_array(block, k, sizeof(double));
    m.next = kpca_alloc_array(k, dim, sizeof(double));
    m.count = kpca_alloc_array(k, 1, sizeof(size_t));
    m.cand = kpca_alloc_array(k, 1, sizeof(cand));
    m.w = label != NULL ? label : kpca_alloc_array(n, 1, sizeof(size_t));
    double *other = restarts > 1 ? kpca_alloc_array(k, dim, sizeof(double)) : NULL; /* a later run's centres */
    kpca_status st = KPCA_OK;
    if (m.xn == NULL || m.xnc == NULL || m.near == NULL || m.cn == NULL || m.cross == NULL || m.next == NULL || m.count == NULL ||
        m.cand == NULL || m.w == NULL || (restarts > 1 && other == NULL)) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for k-means with %zu centres", k);
        goto done;
    }
    for (size_t i = 0; i < m.ncached; i++)
        m.xnc[i] = row_norm(&m, i);
    /* every run needs its inertia when there are several to choose from */
    const int final = label != NULL || info != NULL || restarts > 1;
    kpca_kmeans_info best, cur;
    st = kmeans_once(&m, seed, max_iter, final, centres, &best, err);
    int last_kept = 1; /* the points' words are the kept run's */
    uint64_t state = seed;
    for (size_t r = 1; r < restarts && st == KPCA_OK; r++) {
        st = kmeans_once(&m, kpca_splitmix64(&state), max_iter, final, other, &cur, err);
        last_kept = st == KPCA_OK && cur.inertia < best.inertia;
        if (last_kept) {
            best = cur;
            best.run = r;
            memcpy(centres, other, k * dim * sizeof(double));
        }
    }
    if (st == KPCA_OK && label != NULL && !last_kept) { /* the kept run's labels again */
        double inertia;
        (void)kmeans_assign(&m, centres, &inertia);
    }
    if (st == KPCA_OK && info != NULL)
        *info = best;
done:
    kpca_free(m.xn);
    kpca_free(m.xnc);
    kpca_free(m.near);
    kpca_free(m.cn);
    kpca_free(m.cross);
    kpca_free(m.next);
    kpca_free(m.count);
    kpca_free(m.cand);
    if (m.w != label)
        kpca_free(m.w);
    kpca_free(other);
    return st;
}

kpca_status kpca_kmeans(const double *x, size_t n, size_t dim, size_t k, uint64_t seed, size_t max_iter,
                        double *centres, size_t *label, kpca_kmeans_info *info, kpca_error *err)
{
    return kpca_kmeans_run(x, n, dim, k, seed, max_iter, 1, NULL, centres, label, info, err);
}

kpca_status kpca_kmeans_restarts(const double *x, size_t n, size_t dim, size_t k, uint64_t seed, size_t max_iter,
                                 size_t restarts, double *centres, size_t *label, kpca_kmeans_info *info,
                                 kpca_error *err)
{
    return kpca_kmeans_run(x, n, dim, k, seed, max_iter, restarts, NULL, centres, label, info, err);
}
