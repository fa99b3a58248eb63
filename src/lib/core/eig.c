#include "core/eig.h"

#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "support/mem.h"
#include "support/names.h"

static const char *const names[] = {"auto", "evd", "evr", "elpa"};
#define NNAMES (sizeof names / sizeof names[0])

const char *kpca_eig_method_name(kpca_eig_method m)
{
    return kpca_name_of(names, NNAMES, (unsigned)m);
}

int kpca_eig_method_parse(const char *name, kpca_eig_method *out)
{
    int i = kpca_name_index(names, NNAMES, name);
    if (i >= 0)
        *out = (kpca_eig_method)i;
    return i >= 0 ? 0 : -1;
}

int kpca_eig_evd_fits(size_t n)
{
    return (double)n * (double)n + 4.0 * (double)n + 1.0 <= 2147483647.0;
}

kpca_eig_method kpca_eig_resolve(kpca_eig_method m, size_t n, size_t k)
{
    if (m == KPCA_EIG_ELPA)
        return m;
    if (!kpca_eig_evd_fits(n))
        return KPCA_EIG_EVR;
    if (m != KPCA_EIG_AUTO)
        return m;
    return (double)k <= KPCA_EIG_EVR_MAX_FRACTION * (double)n ? KPCA_EIG_EVR : KPCA_EIG_EVD;
}

int kpca_eig_fix_sign(double *v, size_t n, size_t stride)
{
    size_t arg = 0;
    double best = -1.0;
    for (size_t i = 0; i < n; i++) {
        double a = fabs(v[i * stride]);
        if (a > best) {
            best = a;
            arg = i;
        }
    }
    if (!(v[arg * stride] < 0.0))
        return 0;
    for (size_t i = 0; i < n; i++)
        v[i * stride] = -v[i * stride];
    return 1;
}

kpca_status kpca_eig_lapack_status(int info, const char *driver, kpca_error *err)
{
    if (info == LAPACK_WORK_MEMORY_ERROR || info == LAPACK_TRANSPOSE_MEMORY_ERROR)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory in %s", driver);
    if (info < 0)
        return kpca_fail(err, KPCA_EINTERNAL, "%s: argument %d was illegal", driver, -info);
    return kpca_fail(err, KPCA_ENUMERIC, "%s failed to converge (info %d)", driver, info);
}

/* dsyevd's own three stages - Householder tridiagonalisation (dsytrd),
 * divide and conquer on the tridiagonal matrix (dstedc), back-transformation
 * (dormtr) - but the back-transformation only for the k eigenvectors
 * wanted: dsyevd transforms all n.  With choose != NULL, k is chosen from
 * all n eigenvalues (descending) once dstedc has them. */
kpca_status kpca_eig_evd_check(size_t n, kpca_error *err)
{
    if (!kpca_eig_evd_fits(n))
        return kpca_fail(err, KPCA_EUSAGE,
                         "a %zu x %zu matrix is too large for the EVD driver (LAPACK's 32-bit workspace sizes); "
                         "ask for a number of components",
                         n, n);
    return KPCA_OK;
}

static kpca_status evd_top(double *a, size_t n, size_t k, kpca_eig_chooser choose, void *ctx, size_t *kout,
                           double *evals, double *evecs, kpca_error *err)
{
    if (kpca_eig_evd_check(n, err) != KPCA_OK)
        return KPCA_EUSAGE;
    /* dstedc's workspaces (COMPZ = 'I') from kpca's allocator, not LAPACKE's */
    const size_t lwork = 1 + 4 * n + n * n, liwork = 3 + 5 * n;
    double *d = kpca_alloc_array(n, 1, sizeof(double));
    double *e = kpca_alloc_array(n, 1, sizeof(double));
    double *tau = kpca_alloc_array(n, 1, sizeof(double));
    double *z = kpca_alloc_array(n, n, sizeof(double));
    double *work = kpca_alloc_array(lwork, 1, sizeof(double));
    lapack_int *iwork = kpca_alloc_array(liwork, 1, sizeof(lapack_int));
    kpca_status st = KPCA_OK;
    if (d == NULL || e == NULL || tau == NULL || z == NULL || work == NULL || iwork == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
        goto done;
    }
    lapack_int info = LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'L', (lapack_int)n, a, (lapack_int)n, d, e, tau);
    if (info != 0) {
        st = kpca_eig_lapack_status((int)info, "dsytrd", err);
        goto done;
    }
    info = LAPACKE_dstedc_work(LAPACK_COL_MAJOR, 'I', (lapack_int)n, d, e, z, (lapack_int)n, work, (lapack_int)lwork,
                               iwork, (lapack_int)liwork);
    if (info != 0) {
        st = kpca_eig_lapack_status((int)info, "dstedc", err);
        goto done;
    }
    if (choose != NULL) {
        for (size_t j = 0; j < n; j++) /* ascending -> descending */
            evals[j] = d[n - 1 - j];
        k = choose(evals, n, ctx);
        if (k == 0 || k > n) {
            st = kpca_fail(err, KPCA_EINTERNAL, "eigenpair chooser returned %zu of %zu", k, n);
            goto done;
        }
    }
    /* eigenvalues ascend: the wanted vectors are the last k columns */
    double *zk = z + (n - k) * n;
    info = LAPACKE_dormtr(LAPACK_COL_MAJOR, 'L', 'L', 'N', (lapack_int)n, (lapack_int)k, a, (lapack_int)n, tau, zk,
                          (lapack_int)n);
    if (info != 0) {
        st = kpca_eig_lapack_status((int)info, "dormtr", err);
        goto done;
    }
    for (size_t j = 0; j < k; j++) { /* ascending -> descending */
        size_t src = n - 1 - j;
        evals[j] = d[src];
        memcpy(evecs + j * n, z + src * n, n * sizeof(double));
        kpca_eig_fix_sign(evecs + j * n, n, 1);
    }
    if (kout != NULL)
        *kout = k;
done:
    kpca_free(d);
    kpca_free(e);
    kpca_free(tau);
    kpca_free(z);
    kpca_free(work);
    kpca_free(iwork);
    return st;
}

kpca_status kpca_eig_top_chosen(double *a, size_t n, kpca_eig_chooser choose, void *ctx, size_t *k, double *evals,
                                double *evecs, kpca_error *err)
{
    if (n == 0 || choose == NULL)
        return kpca_fail(err, KPCA_EUSAGE, "no matrix or no chooser for the eigenpairs");
    return evd_top(a, n, n, choose, ctx, k, evals, evecs, err);
}

kpca_status kpca_eig_top(double *a, size_t n, size_t k, kpca_eig_method method, double *evals,
                         double *evecs, kpca_error *err)
{
    if (k == 0 || k > n)
        return kpca_fail(err, KPCA_EUSAGE, "cannot take %zu eigenpairs of a %zu x %zu matrix", k, n, n);
    method = kpca_eig_resolve(method, n, k);
    if (method == KPCA_EIG_ELPA)
        return kpca_fail(err, KPCA_EUSAGE, "the elpa eigensolver runs in the distributed build (kpca-mpi) only");
    /* The matrix is symmetric, so its row-major storage is also valid
     * column-major storage: call LAPACK column-major and avoid a transpose. */
    if (method == KPCA_EIG_EVD)
        return evd_top(a, n, k, NULL, NULL, NULL, evals, evecs, err);
    double *w = kpca_alloc_array(n, 1, sizeof(double));
    double *z = kpca_alloc_array(n, k, sizeof(double));
    lapack_int *isuppz = kpca_alloc_array(2 * k, 1, sizeof(lapack_int));
    if (w == NULL || z == NULL || isuppz == NULL) {
        kpca_free(w);
        kpca_free(z);
        kpca_free(isuppz);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory");
    }
    lapack_int found = 0;
    lapack_int info = LAPACKE_dsyevr(LAPACK_COL_MAJOR, 'V', 'I', 'L', (lapack_int)n, a, (lapack_int)n, 0.0, 0.0,
                                     (lapack_int)(n - k + 1), (lapack_int)n, 0.0, &found, w, z, (lapack_int)n, isuppz);
    kpca_status st = KPCA_OK;
    if (info != 0) {
        st = kpca_eig_lapack_status((int)info, "dsyevr", err);
    } else if ((size_t)found != k) {
        st = kpca_fail(err, KPCA_ENUMERIC, "dsyevr returned %d eigenpairs, expected %zu", (int)found, k);
    } else {
        for (size_t j = 0; j < k; j++) {
            size_t src = k - 1 - j;
            evals[j] = w[src];
            memcpy(evecs + j * n, z + src * n, n * sizeof(double));
            kpca_eig_fix_sign(evecs + j * n, n, 1);
        }
    }
    kpca_free(w);
    kpca_free(z);
    kpca_free(isuppz);
    return st;
}

kpca_status kpca_eig_lowest(const double *a, size_t n, double tol, double *lowest, kpca_error *err)
{
    *lowest = 0.0;
    if (n == 0)
        return KPCA_OK;
    double diag = 0.0, fro = 0.0;
    for (size_t i = 0; i < n; i++)
        diag += fabs(a[i * n + i]);
    for (size_t i = 0; i < n * n; i++)
        fro += a[i] * a[i];
    const double shift = tol * fmax(diag, sqrt(fro));
    double *c = kpca_alloc_array(n, n, sizeof(double));
    if (c == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for a copy of a %zu x %zu matrix", n, n);
    memcpy(c, a, n * n * sizeof(double));
    for (size_t i = 0; i < n; i++)
        c[i * n + i] += shift;
    /* symmetric: the row-major storage is column-major storage too */
    lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (lapack_int)n, c, (lapack_int)n);
    kpca_status st = KPCA_OK;
    if (info > 0) { /* not positive definite: the smallest eigenvalue */
        memcpy(c, a, n * n * sizeof(double));
        double z[1];
        lapack_int found = 0, isuppz[2];
        double *wall = kpca_alloc_array(n, 1, sizeof(double)); /* dsyevr writes n eigenvalue slots */
        if (wall == NULL) {
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
        } else {
            info = LAPACKE_dsyevr(LAPACK_COL_MAJOR, 'N', 'I', 'L', (lapack_int)n, c, (lapack_int)n, 0.0, 0.0, 1, 1,
                                  0.0, &found, wall, z, 1, isuppz);
            if (info != 0)
                st = kpca_eig_lapack_status((int)info, "dsyevr", err);
            else if (found == 1 && wall[0] < -shift)
                *lowest = wall[0];
            kpca_free(wall);
        }
    } else if (info < 0) {
        st = kpca_eig_lapack_status((int)info, "dpotrf", err);
    }
    kpca_free(c);
    return st;
}
