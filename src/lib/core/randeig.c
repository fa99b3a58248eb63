#include "core/randeig.h"

#include <cblas.h>
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "core/eig.h"
#include "support/mem.h"
#include "support/rng.h"

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

/* The tall matrices are n x s column-major (leading dimension n): the
 * layout LAPACK works in without a transposed copy, and the column-major
 * n x k result is the row-major k x n evecs.  a is symmetric, so its
 * row-major storage is also its column-major storage. */
size_t kpca_rsvd_sketch(size_t n, size_t k, size_t oversample)
{
    size_t p = oversample ? oversample : k > KPCA_RSVD_MIN_OVERSAMPLE ? k : KPCA_RSVD_MIN_OVERSAMPLE;
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
