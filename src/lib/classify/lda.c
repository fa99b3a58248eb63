/* lda.c - Gaussian class-conditional linear classifier, pooled covariance
 * (see lda.h and classifier.h, KPCA_CLF_LDA).  Shares kpca_classifier with the SVMs: one
 * "machine" per class, the largest decision value wins. */
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "classify/lda.h"
#include "support/mem.h"

size_t kpca_lda_block_rows(size_t n, size_t dim)
{
    size_t rows = KPCA_LDA_BLOCK_BYTES / (8 * (dim ? dim : 1));
    rows = rows > 0 ? rows : 1;
    return n < rows ? (n ? n : 1) : rows;
}

kpca_status kpca_lda_train(const double *x, size_t ld, size_t dim, const int *y, const size_t *rows, size_t n,
                           kpca_classifier *out, kpca_error *err)
{
    return kpca_lda_train_blocks(x, ld, dim, y, rows, n, 0, out, err);
}

kpca_status kpca_lda_train_blocks(const double *x, size_t ld, size_t dim, const int *y, const size_t *rows, size_t n,
                                  size_t block, kpca_classifier *out, kpca_error *err)
{
#define ROW(i) (rows != NULL ? rows[i] : (i))
    memset(out, 0, sizeof *out);
    if (n < 2 || dim == 0)
        return kpca_fail(err, KPCA_EUSAGE, "LDA needs at least 2 training points and 1 feature");
    kpca_status st = KPCA_OK;
    int *labels = kpca_alloc_array(n, 1, sizeof(int));
    int *cls = kpca_alloc_array(n, 1, sizeof(int));
    size_t *count = kpca_calloc(n, sizeof(size_t));
    if (block == 0 || block > n)
        block = kpca_lda_block_rows(n, dim);
    double *xc = kpca_alloc_array(block, dim, sizeof(double));
    double *s = kpca_alloc_array(dim, dim, sizeof(double));
    double *f = kpca_alloc_array(dim, dim, sizeof(double));
    /* LAPACK workspaces from our allocator, so that the _work calls below
     * cannot fail on an allocation of their own */
    double *work = kpca_alloc_array(dim, 3, sizeof(double));
    lapack_int *iwork = kpca_alloc_array(dim, 1, sizeof(lapack_int));
    double *mu = NULL, *w = NULL;
    if (labels == NULL || cls == NULL || count == NULL || xc == NULL || s == NULL || f == NULL || work == NULL ||
        iwork == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for LDA (%zu x %zu)", dim, dim);
        goto done;
    }
    size_t nclass = kpca_class_index(y, rows, n, labels, cls);
    for (size_t i = 0; i < n; i++)
        count[cls[i]]++;
    if (nclass < 2 || n <= nclass) {
        st = kpca_fail(err, KPCA_EFORMAT, "LDA needs at least 2 classes and more points than classes");
        goto done;
    }
    mu = kpca_calloc(nclass * dim, sizeof(double));
    w = kpca_alloc_array(dim, nclass, sizeof(double));
    if (mu == NULL || w == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for LDA");
        goto done;
    }
    for (size_t i = 0; i < n; i++) /* class means */
        cblas_daxpy((int)dim, 1.0, x + ROW(i) * ld, 1, mu + (size_t)cls[i] * dim, 1);
    for (size_t c = 0; c < nclass; c++)
        cblas_dscal((int)dim, 1.0 / (double)count[c], mu + c * dim, 1);
    /* pooled covariance, upper triangle (row-major) = lower (column-major),
     * from the within-class deviations a block of rows at a time */
    for (size_t r0 = 0; r0 < n; r0 += block) {
        size_t nb = n - r0 < block ? n - r0 : block;
        for (size_t i = 0; i < nb; i++) {
            const double *xi = x + ROW(r0 + i) * ld, *m = mu + (size_t)cls[r0 + i] * dim;
            for (size_t j = 0; j < dim; j++)
                xc[i * dim + j] = xi[j] - m[j];
        }
        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)dim, (int)nb, 1.0 / (double)(n - nclass), xc,
                    (int)dim, r0 > 0 ? 1.0 : 0.0, s, (int)dim);
    }
    double tr = 0.0;
    for (size_t j = 0; j < dim; j++)
        tr += s[j * dim + j];
    double scale = tr > 0.0 ? tr / (double)dim : 1.0;
    double eps = 0.0;
    for (;;) {
        memcpy(f, s, dim * dim * sizeof(double));
        for (size_t j = 0; j < dim; j++)
            f[j * dim + j] += eps * scale;
        double anorm = LAPACKE_dlansy_work(LAPACK_COL_MAJOR, '1', 'L', (lapack_int)dim, f, (lapack_int)dim, work);
        lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (lapack_int)dim, f, (lapack_int)dim);
        if (info == 0) {
            /* rounding can let an exactly singular S factor with a tiny
             * pivot: call S numerically singular when its reciprocal
             * condition number is below dim * machine epsilon */
            double rcond = 0.0;
            info = LAPACKE_dpocon_work(LAPACK_COL_MAJOR, 'L', (lapack_int)dim, f, (lapack_int)dim, anorm, &rcond,
                                       work, iwork);
            if (info < 0) {
                st = kpca_fail(err, KPCA_EINTERNAL, "dpocon: argument %d was illegal", (int)-info);
                goto done;
            }
            if (rcond >= (double)dim * DBL_EPSILON)
                break;
            info = 1; /* singular: regularise more */
        }
        if (info < 0) {
            st = kpca_fail(err, KPCA_EINTERNAL, "dpotrf: argument %d was illegal", (int)-info);
            goto done;
        }
        eps = eps == 0.0 ? 1e-12 : eps * 10.0;
        if (eps > 0.15) {
            st = kpca_fail(err, KPCA_ENUMERIC, "LDA: the pooled covariance stays singular even regularised");
            goto done;
        }
    }
    /* W (dim x nclass, column-major: column c = S^-1 mu_c) */
    for (size_t c = 0; c < nclass; c++)
        memcpy(w + c * dim, mu + c * dim, dim * sizeof(double));
    lapack_int info = LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', (lapack_int)dim, (lapack_int)nclass, f, (lapack_int)dim,
                                     w, (lapack_int)dim);
    if (info != 0) {
        st = kpca_fail(err, KPCA_ENUMERIC, "LDA: dpotrs failed (info %d)", (int)info);
        goto done;
    }
    out->labels = kpca_alloc_array(nclass, 1, sizeof(int));
    out->pos = kpca_alloc_array(nclass, 1, sizeof(int));
    out->neg = kpca_alloc_array(nclass, 1, sizeof(int));
    out->b = kpca_alloc_array(nclass, 1, sizeof(double));
    if (out->labels == NULL || out->pos == NULL || out->neg == NULL || out->b == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t c = 0; c < nclass; c++) {
        out->labels[c] = labels[c];
        out->pos[c] = (int)c;
        out->neg[c] = -1;
        out->b[c] = -0.5 * cblas_ddot((int)dim, mu + c * dim, 1, w + c * dim, 1) +
                    log((double)count[c] / (double)n);
    }
    out->w = w; /* column c of W is row c of a nclass x dim row-major matrix */
    w = NULL;
    out->nclass = nclass;
    out->nmach = nclass;
    out->dim = dim;
    out->ridge = eps;
done:
    kpca_free(labels);
    kpca_free(cls);
    kpca_free(count);
    kpca_free(xc);
    kpca_free(s);
    kpca_free(f);
    kpca_free(work);
    kpca_free(iwork);
    kpca_free(mu);
    kpca_free(w);
    if (st != KPCA_OK)
        kpca_classifier_free(out);
    return st;
#undef ROW
}
