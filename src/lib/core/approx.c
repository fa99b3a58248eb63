#include "core/approx.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "io/dataset.h"
#include "core/eig.h"
#include "support/mem.h"
#include "support/rng.h"

/* Uniform in 0..n-1 (n >= 1); the bias, n / 2^53, is far below anything
 * observable. */
static size_t uniform_index(uint64_t *state, size_t n)
{
    size_t i = (size_t)(kpca_rng_uniform(state) * (double)n);
    return i < n ? i : n - 1;
}

/* len standard normal numbers (both of each pair are used). */
static void gaussian_fill(double *z, size_t len, uint64_t *state)
{
    for (size_t i = 0; i < len; i += 2) {
        double z1;
        kpca_rng_normal_pair(state, 1.0, &z[i], &z1);
        if (i + 1 < len)
            z[i + 1] = z1;
    }
}

/* ------------------------------------------------------------------------ */
/* randomized eigensolver                                                   */

/* The tall matrices are n x s column-major (leading dimension n): the
 * layout LAPACK works in without a transposed copy, and the column-major
 * n x k result is the row-major k x n evecs.  a is symmetric, so its
 * row-major storage is also its column-major storage. */
size_t kpca_rsvd_sketch(size_t n, size_t k, size_t oversample)
{
    size_t p = oversample ? oversample : k;
    return k + (p < n - k ? p : n - k);
}

kpca_status kpca_eig_randomized(const double *a, size_t n, size_t k, size_t oversample, size_t power_iters,
                                uint64_t seed, double *evals, double *evecs, kpca_error *err)
{
    if (k == 0 || k > n)
        return kpca_fail(err, KPCA_EUSAGE, "cannot take %zu eigenpairs of a %zu x %zu matrix", k, n, n);
    if (n > (size_t)INT_MAX)
        return kpca_fail(err, KPCA_EUSAGE, "a %zu x %zu matrix is beyond BLAS's int indices", n, n);
    const size_t s = kpca_rsvd_sketch(n, k, oversample);
    const int ni = (int)n, si = (int)s;
    double *q = kpca_alloc_array(n, s, sizeof(double));
    double *y = kpca_alloc_array(n, s, sizeof(double));
    double *b = kpca_alloc_array(s, s, sizeof(double));
    double *theta = kpca_alloc_array(s, 1, sizeof(double));
    double *tau = kpca_alloc_array(s, 1, sizeof(double));
    double *work = NULL;
    lapack_int *iwork = NULL;
    kpca_status st = KPCA_OK;
    if (q == NULL || y == NULL || b == NULL || theta == NULL || tau == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for a %zu x %zu sketch", n, s);
        goto done;
    }

    /* one workspace, from our allocator, for dgeqrf, dorgqr and dsyevd */
    double wq[3] = {0.0, 0.0, 0.0};
    lapack_int iwq = 0;
    lapack_int info = LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, ni, si, y, ni, tau, &wq[0], -1);
    if (info == 0)
        info = LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, ni, si, si, y, ni, tau, &wq[1], -1);
    if (info == 0)
        info = LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'U', si, b, si, theta, &wq[2], -1, &iwq, -1);
    if (info != 0) {
        st = kpca_eig_lapack_status((int)info, "workspace query", err);
        goto done;
    }
    size_t lwork = (size_t)fmax(fmax(wq[0], wq[1]), wq[2]);
    size_t liwork = iwq > 1 ? (size_t)iwq : 1;
    work = kpca_alloc_array(lwork ? lwork : 1, 1, sizeof(double));
    iwork = kpca_alloc_array(liwork, 1, sizeof(lapack_int));
    if (work == NULL || iwork == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for LAPACK's workspace");
        goto done;
    }

    /* range finder: Q = orth(A Omega), then Q = orth(A Q) power_iters times */
    uint64_t state = seed;
    gaussian_fill(q, n * s, &state);
    for (size_t it = 0; it <= power_iters; it++) {
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, ni, si, ni, 1.0, a, ni, q, ni, 0.0, y, ni);
        info = LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, ni, si, y, ni, tau, work, (lapack_int)lwork);
        if (info != 0) {
            st = kpca_eig_lapack_status((int)info, "dgeqrf", err);
            goto done;
        }
        info = LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, ni, si, si, y, ni, tau, work, (lapack_int)lwork);
        if (info != 0) {
            st = kpca_eig_lapack_status((int)info, "dorgqr", err);
            goto done;
        }
        double *t = q;
        q = y;
        y = t;
    }

    /* Rayleigh-Ritz: B = Q^T A Q, symmetrised against rounding */
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, ni, si, ni, 1.0, a, ni, q, ni, 0.0, y, ni);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, si, si, ni, 1.0, q, ni, y, ni, 0.0, b, si);
    for (size_t i = 0; i < s; i++)
        for (size_t j = 0; j < i; j++)
            b[i * s + j] = b[j * s + i] = 0.5 * (b[i * s + j] + b[j * s + i]);
    info = LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'U', si, b, si, theta, work, (lapack_int)lwork, iwork,
                               (lapack_int)liwork);
    if (info != 0) {
        st = kpca_eig_lapack_status((int)info, "dsyevd", err);
        goto done;
    }

    /* the top k Ritz vectors, descending (y, n x s >= s x k, is free), lifted
     * by Q into the columns of evecs (column-major n x k = row-major k x n) */
    for (size_t j = 0; j < k; j++) {
        evals[j] = theta[s - 1 - j];
        memcpy(y + j * s, b + (s - 1 - j) * s, s * sizeof(double));
    }
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, ni, (int)k, si, 1.0, q, ni, y, si, 0.0, evecs, ni);
    for (size_t j = 0; j < k; j++)
        kpca_eig_fix_sign(evecs + j * n, n, 1);
done:
    kpca_free(q);
    kpca_free(y);
    kpca_free(b);
    kpca_free(theta);
    kpca_free(tau);
    kpca_free(work);
    kpca_free(iwork);
    return st;
}

/* ------------------------------------------------------------------------ */
/* landmarks                                                                */

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

/* d[i] = min(d[i], |x_i - c|^2) for all n points (first: d[i] = |x_i - c|^2),
 * with g (n) as scratch for the dot products. */
static void nearest_update(const double *x, const double *xn, size_t n, size_t dim, const double *c, double *g,
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
static void kmeans_pp(const double *x, const double *xn, size_t n, size_t dim, size_t l, uint64_t *state,
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
            pick = uniform_index(state, n);
        }
        memcpy(centres + j * dim, x + pick * dim, dim * sizeof(double));
        nearest_update(x, xn, n, dim, centres + j * dim, g, d, j == 0);
    }
}

/* One assignment pass: assign[i] = nearest centre, d[i] = its squared
 * distance; returns the number of points whose assignment changed. */
static size_t kmeans_assign(const double *x, const double *xn, size_t n, size_t dim, const double *centres,
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

/* Centres = the means of their points; an empty cluster takes the point
 * farthest from the centre it was assigned to, out of a cluster of two or
 * more (one exists while a cluster is empty, as n >= l). */
static void kmeans_update(const double *x, size_t n, size_t dim, size_t l, size_t *assign, size_t *count, double *d,
                          double *centres)
{
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
    }
}

kpca_status kpca_landmarks_kmeans(const double *x, size_t n, size_t dim, size_t l, uint64_t seed, size_t max_iter,
                                  double *centres, size_t *iters_done, kpca_error *err)
{
    if (l == 0 || l > n || dim == 0)
        return kpca_fail(err, KPCA_EUSAGE, "cannot place %zu k-means centres among %zu points of dimension %zu", l,
                         n, dim);
    if (n > (size_t)INT_MAX || dim > (size_t)INT_MAX)
        return kpca_fail(err, KPCA_EUSAGE, "%zu points of dimension %zu are beyond BLAS's int indices", n, dim);
    const size_t block = n < KPCA_KMEANS_BLOCK ? n : KPCA_KMEANS_BLOCK;
    double *xn = kpca_alloc_array(n, 1, sizeof(double));
    double *d = kpca_alloc_array(n, 1, sizeof(double));
    double *g = kpca_alloc_array(n, 1, sizeof(double));
    double *cn = kpca_alloc_array(l, 1, sizeof(double));
    double *cross = kpca_alloc_array(block, l, sizeof(double));
    size_t *assign = kpca_alloc_array(n, 1, sizeof(size_t));
    size_t *count = kpca_alloc_array(l, 1, sizeof(size_t));
    kpca_status st = KPCA_OK;
    if (xn == NULL || d == NULL || g == NULL || cn == NULL || cross == NULL || assign == NULL || count == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for k-means with %zu centres", l);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        xn[i] = cblas_ddot((int)dim, x + i * dim, 1, x + i * dim, 1);
    uint64_t state = seed;
    kmeans_pp(x, xn, n, dim, l, &state, centres, d, g);
    for (size_t i = 0; i < n; i++)
        assign[i] = SIZE_MAX;
    size_t it = 0;
    while (it < max_iter) {
        size_t changes = kmeans_assign(x, xn, n, dim, centres, l, cn, cross, block, assign, d);
        it++;
        if (changes == 0)
            break;
        kmeans_update(x, n, dim, l, assign, count, d, centres);
    }
    if (iters_done != NULL)
        *iters_done = it;
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

/* ------------------------------------------------------------------------ */
/* Nyström kernel PCA                                                       */

kpca_status kpca_nystrom_pca(const double *kll, const double *knl, size_t n, size_t l, size_t k, double tol,
                             double *proj, double *kbar, double *evals, double *zfit, size_t *kept,
                             double *trace, kpca_error *err)
{
    if (n < 2 || l == 0 || k == 0)
        return kpca_fail(err, KPCA_EUSAGE, "Nyström kernel PCA needs 2 or more points, landmarks and components "
                         "(got %zu, %zu, %zu)", n, l, k);
    if (n > (size_t)INT_MAX || l > (size_t)INT_MAX || k > (size_t)INT_MAX)
        return kpca_fail(err, KPCA_EUSAGE, "%zu points and %zu landmarks are beyond BLAS's int indices", n, l);
    if (tol < 0.0)
        tol = (double)l * DBL_EPSILON;
    *kept = 0;
    double *lam = kpca_alloc_array(l, 1, sizeof(double));
    double *w = kpca_alloc_array(l, l, sizeof(double));
    double *c = kpca_alloc_array(l, l, sizeof(double));
    double *phi = NULL, *s = NULL, *v = NULL, *zown = NULL;
    kpca_status st = KPCA_OK;
    if (lam == NULL || w == NULL || c == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for a %zu x %zu landmark kernel", l, l);
        goto done;
    }

    /* K_LL = U Lambda U^T; W = Lambda_r^{-1/2} U_r^T (r x l, in place) */
    memcpy(c, kll, l * l * sizeof(double));
    st = kpca_eig_top(c, l, l, KPCA_EIG_AUTO, lam, w, err);
    if (st != KPCA_OK)
        goto done;
    if (!(lam[0] > 0.0) || !isfinite(lam[0])) {
        st = kpca_fail(err, KPCA_ENUMERIC, "the landmark kernel matrix has no positive eigenvalue (largest %g)",
                       lam[0]);
        goto done;
    }
    size_t r = 0;
    while (r < l && lam[r] > tol * lam[0])
        r++;
    for (size_t j = 0; j < r; j++)
        cblas_dscal((int)l, 1.0 / sqrt(lam[j]), w + j * l, 1);

    /* Phi = K_nL W^T (n x r), centred; kbar = mean row of K_nL */
    const size_t kk = k < r ? k : r;
    phi = kpca_alloc_array(n, r, sizeof(double));
    s = kpca_alloc_array(kk, 1, sizeof(double));
    v = kpca_alloc_array(kk, r, sizeof(double));
    if (zfit == NULL)
        zfit = zown = kpca_alloc_array(n, k, sizeof(double));
    if (phi == NULL || s == NULL || v == NULL || zfit == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu x %zu Nyström features", n, r);
        goto done;
    }
    const int ni = (int)n, li = (int)l, ri = (int)r;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, ni, ri, li, 1.0, knl, li, w, li, 0.0, phi, ri);
    memset(kbar, 0, l * sizeof(double));
    for (size_t i = 0; i < n; i++)
        cblas_daxpy(li, 1.0, knl + i * l, 1, kbar, 1);
    cblas_dscal(li, 1.0 / (double)n, kbar, 1);
    double raw_trace = 0.0; /* trace of the uncentred K~ */
    for (size_t t = 0; t < n * r; t++)
        raw_trace += phi[t] * phi[t];
    double *mean = lam; /* lam[0..r) is done with: reuse it for the mean feature */
    memset(mean, 0, r * sizeof(double));
    for (size_t i = 0; i < n; i++)
        cblas_daxpy(ri, 1.0, phi + i * r, 1, mean, 1);
    cblas_dscal(ri, 1.0 / (double)n, mean, 1);
    for (size_t i = 0; i < n; i++)
        cblas_daxpy(ri, -1.0, mean, 1, phi + i * r, 1);
    if (trace != NULL) {
        double t2 = 0.0;
        for (size_t t = 0; t < n * r; t++)
            t2 += phi[t] * phi[t];
        *trace = t2;
    }

    /* C = Phi_c^T Phi_c (r x r, in c) = V S V^T */
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, ri, ni, 1.0, phi, ri, 0.0, c, ri);
    for (size_t i = 0; i < r; i++)
        for (size_t j = 0; j < i; j++)
            c[i * r + j] = c[j * r + i];
    st = kpca_eig_top(c, r, kk, KPCA_EIG_AUTO, s, v, err);
    if (st != KPCA_OK)
        goto done;
    size_t nk = 0;
    const double floor_s = tol * fmax(s[0], raw_trace);
    if (isfinite(s[0]))
        while (nk < kk && s[nk] > floor_s)
            nk++;
    if (nk == 0) {
        st = kpca_fail(err, KPCA_ENUMERIC, "the centred Nyström features are zero: all points coincide in feature "
                       "space");
        goto done;
    }

    /* fit projections Z = Phi_c V^T (n x nk, leading dimension k), signed */
    const int ki = (int)k, nki = (int)nk;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, ni, nki, ri, 1.0, phi, ri, v, ri, 0.0, zfit, ki);
    for (size_t cc = 0; cc < nk; cc++)
        if (kpca_eig_fix_sign(zfit + cc, n, k))
            cblas_dscal(ri, -1.0, v + cc * r, 1);
    for (size_t i = 0; i < n; i++)
        for (size_t cc = nk; cc < k; cc++)
            zfit[i * k + cc] = 0.0;

    /* A = V W (nk x l); the rest zero */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, nki, li, ri, 1.0, v, ri, w, li, 0.0, proj, li);
    memset(proj + nk * l, 0, (k - nk) * l * sizeof(double));
    for (size_t cc = 0; cc < k; cc++)
        evals[cc] = cc < nk ? s[cc] : 0.0;
    *kept = nk;
done:
    kpca_free(lam);
    kpca_free(w);
    kpca_free(c);
    kpca_free(phi);
    kpca_free(s);
    kpca_free(v);
    kpca_free(zown);
    return st;
}
