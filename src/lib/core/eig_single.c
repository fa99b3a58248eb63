/* eig_single.c - kpca_eig_top_single (eig.h): the top eigenpairs in binary32,
 * with the stages of eig.c's double solvers: EVD as ssytrd, sstedc (divide
 * and conquer) and sormtr on the wanted vectors only; EVR as ssyevr. */
#include "core/eig.h"

#include <lapacke.h>
#include <string.h>

#include "support/mem.h"

/* Row j of evecs (n doubles) from the binary32 column src of z, signed by
 * kpca_eig_fix_sign. */
static void take_vector(const float *z, size_t n, size_t src, double *dst)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = (double)z[src * n + i];
    kpca_eig_fix_sign(dst, n, 1);
}

static kpca_status evd_single(float *a, size_t n, size_t k, kpca_eig_chooser choose, void *ctx, size_t *kout,
                              double *evals, double *evecs, kpca_error *err)
{
    if (kpca_eig_evd_check(n, err) != KPCA_OK)
        return KPCA_EUSAGE;
    const size_t lwork = 1 + 4 * n + n * n, liwork = 3 + 5 * n;
    float *d = kpca_alloc_array(n, 1, sizeof(float));
    float *e = kpca_alloc_array(n, 1, sizeof(float));
    float *tau = kpca_alloc_array(n, 1, sizeof(float));
    float *z = kpca_alloc_array(n, n, sizeof(float));
    float *work = kpca_alloc_array(lwork, 1, sizeof(float));
    lapack_int *iwork = kpca_alloc_array(liwork, 1, sizeof(lapack_int));
    kpca_status st = KPCA_OK;
    lapack_int info;
    if (d == NULL || e == NULL || tau == NULL || z == NULL || work == NULL || iwork == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
        goto done;
    }
    info = LAPACKE_ssytrd(LAPACK_COL_MAJOR, 'L', (lapack_int)n, a, (lapack_int)n, d, e, tau);
    if (info != 0) {
        st = kpca_eig_lapack_status((int)info, "ssytrd", err);
        goto done;
    }
    info = LAPACKE_sstedc_work(LAPACK_COL_MAJOR, 'I', (lapack_int)n, d, e, z, (lapack_int)n, work, (lapack_int)lwork,
                               iwork, (lapack_int)liwork);
    if (info != 0) {
        st = kpca_eig_lapack_status((int)info, "sstedc", err);
        goto done;
    }
    if (choose != NULL) {
        for (size_t j = 0; j < n; j++) /* ascending -> descending */
            evals[j] = (double)d[n - 1 - j];
        k = choose(evals, n, ctx);
        if (k == 0 || k > n) {
            st = kpca_fail(err, KPCA_EINTERNAL, "eigenpair chooser returned %zu of %zu", k, n);
            goto done;
        }
    }
    info = LAPACKE_sormtr(LAPACK_COL_MAJOR, 'L', 'L', 'N', (lapack_int)n, (lapack_int)k, a, (lapack_int)n, tau,
                          z + (n - k) * n, (lapack_int)n);
    if (info != 0) {
        st = kpca_eig_lapack_status((int)info, "sormtr", err);
        goto done;
    }
    for (size_t j = 0; j < k; j++) {
        evals[j] = (double)d[n - 1 - j];
        take_vector(z, n, n - 1 - j, evecs + j * n);
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

static kpca_status evr_single(float *a, size_t n, size_t k, double *evals, double *evecs, kpca_error *err)
{
    float *w = kpca_alloc_array(n, 1, sizeof(float));
    float *z = kpca_alloc_array(n, k, sizeof(float));
    lapack_int *isuppz = kpca_alloc_array(2 * k, 1, sizeof(lapack_int));
    kpca_status st = KPCA_OK;
    if (w == NULL || z == NULL || isuppz == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
        goto done;
    }
    lapack_int found = 0;
    lapack_int info = LAPACKE_ssyevr(LAPACK_COL_MAJOR, 'V', 'I', 'L', (lapack_int)n, a, (lapack_int)n, 0.0f, 0.0f,
                                     (lapack_int)(n - k + 1), (lapack_int)n, 0.0f, &found, w, z, (lapack_int)n, isuppz);
    if (info != 0) {
        st = kpca_eig_lapack_status((int)info, "ssyevr", err);
    } else if ((size_t)found != k) {
        st = kpca_fail(err, KPCA_ENUMERIC, "ssyevr returned %d eigenpairs, expected %zu", (int)found, k);
    } else {
        for (size_t j = 0; j < k; j++) {
            evals[j] = (double)w[k - 1 - j];
            take_vector(z, n, k - 1 - j, evecs + j * n);
        }
    }
done:
    kpca_free(w);
    kpca_free(z);
    kpca_free(isuppz);
    return st;
}

kpca_status kpca_eig_top_single(float *a, size_t n, size_t k, kpca_eig_method method, kpca_eig_chooser choose,
                                void *ctx, size_t *kout, double *evals, double *evecs, kpca_error *err)
{
    if (n == 0 || (choose == NULL && (k == 0 || k > n)))
        return kpca_fail(err, KPCA_EUSAGE, "cannot take %zu eigenpairs of a %zu x %zu matrix", k, n, n);
    if (choose != NULL)
        return evd_single(a, n, n, choose, ctx, kout, evals, evecs, err);
    method = kpca_eig_resolve(method, n, k);
    if (method == KPCA_EIG_ELPA)
        return kpca_fail(err, KPCA_EUSAGE, "the elpa eigensolver runs in the distributed build (kpca-mpi) only");
    kpca_status st = method == KPCA_EIG_EVD ? evd_single(a, n, k, NULL, NULL, NULL, evals, evecs, err)
                                            : evr_single(a, n, k, evals, evecs, err);
    if (st == KPCA_OK && kout != NULL)
        *kout = k;
    return st;
}
