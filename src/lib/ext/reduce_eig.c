/* reduce_eig.c - the exact eigen-expansion of (gamma x.y)^2 (see
 * reduce_eig.h). */
#include "ext/reduce_eig.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/mem.h"
#include "support/progress.h"

typedef struct {
    double score; /* w_c l^2 */
    size_t c, j;  /* component, eigenvalue index (LAPACK's ascending order) */
} eig_term;

static int term_cmp(const void *pa, const void *pb)
{
    const eig_term *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score < b->score ? 1 : -1;
    if (a->c != b->c)
        return a->c < b->c ? -1 : 1;
    return a->j < b->j ? -1 : (a->j > b->j);
}

/* S = X' diag(a) X (dim x dim) and its eigenvalues (and vectors, rows of S
 * on return, with want_vectors) */
static kpca_status quad_eig(const double *x, size_t M, size_t dim, const double *a, double *y, double *S, double *lam,
                            int want_vectors, kpca_error *err)
{
    for (size_t i = 0; i < M; i++)
        for (size_t t = 0; t < dim; t++)
            y[i * dim + t] = a[i] * x[i * dim + t];
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)dim, (int)dim, (int)M, 1.0, x, (int)dim, y, (int)dim,
                0.0, S, (int)dim);
    /* symmetric: column-major 'L' of S is row-major 'U'; eigenvectors come
     * back as the columns of the column-major S = the rows of row-major S */
    lapack_int info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, want_vectors ? 'V' : 'N', 'L', (lapack_int)dim, S,
                                     (lapack_int)dim, lam);
    if (info != 0)
        return kpca_fail(err, KPCA_ENUMERIC, "the eigensolver failed on a component's quadratic form (info %d)",
                         (int)info);
    return KPCA_OK;
}

kpca_status kpca_reduce_eig_start(const kpca_model *full, const double *a, const double *w, size_t k, size_t want,
                                  int only_exact, double **z_out, double **beta_out, size_t *mr_out, kpca_error *err)
{
    const size_t M = full->m, dim = full->dim;
    const double g2 = full->kernel.gamma * full->kernel.gamma;
    double *y = kpca_alloc_array(M, dim, sizeof(double));
    double *S = kpca_alloc_array(dim, dim, sizeof(double));
    double *lam = kpca_alloc_array(k, dim, sizeof(double));
    eig_term *terms = kpca_alloc_array(k, dim, sizeof(eig_term));
    double *z = NULL, *beta = NULL;
    kpca_status st = KPCA_OK;
    if (!y || !S || !lam || !terms) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the quadratic forms of %zu components", k);
        goto done;
    }
    size_t nterms = 0;
    for (size_t c = 0; c < k && st == KPCA_OK; c++) {
        kpca_progress("eigen-expansion", c, 2 * k);
        st = quad_eig(full->fitx, M, dim, a + c * M, y, S, lam + c * dim, 0, err);
        double top = 0.0;
        for (size_t j = 0; j < dim; j++)
            top = fmax(top, fabs(lam[c * dim + j]));
        for (size_t j = 0; j < dim; j++) {
            double l = lam[c * dim + j];
            if (fabs(l) > (double)dim * DBL_EPSILON * top)
                terms[nterms++] = (eig_term){w[c] * g2 * l * l, c, j};
        }
    }
    if (st != KPCA_OK)
        goto done;
    if (only_exact && nterms > want) {
        *mr_out = 0;
        goto done;
    }
    qsort(terms, nterms, sizeof *terms, term_cmp);
    size_t mr = nterms < want ? nterms : want;
    if (mr == 0) {
        st = kpca_fail(err, KPCA_ENUMERIC, "every component's quadratic form is zero");
        goto done;
    }
    z = kpca_alloc_array(mr, dim, sizeof(double));
    beta = kpca_calloc(k * mr, sizeof(double));
    if (!z || !beta) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu reduced-set vectors", mr);
        goto done;
    }
    /* the kept terms in (component, index) order, so that z is the same
     * whatever order qsort left equal scores in */
    for (size_t t = 0; t < mr; t++)
        terms[t].score = 0.0;
    qsort(terms, mr, sizeof *terms, term_cmp);
    size_t t = 0;
    for (size_t c = 0; c < k && st == KPCA_OK; c++) {
        kpca_progress("eigen-expansion", k + c, 2 * k);
        if (t >= mr || terms[t].c != c)
            continue;
        st = quad_eig(full->fitx, M, dim, a + c * M, y, S, lam + c * dim, 1, err);
        for (; st == KPCA_OK && t < mr && terms[t].c == c; t++) {
            memcpy(z + t * dim, S + terms[t].j * dim, dim * sizeof(double));
            beta[c * mr + t] = lam[c * dim + terms[t].j];
        }
    }
    kpca_progress("eigen-expansion", 2 * k, 2 * k);
    if (st == KPCA_OK) {
        *z_out = z;
        *beta_out = beta;
        *mr_out = mr;
        z = beta = NULL;
    }
done:
    kpca_free(y);
    kpca_free(S);
    kpca_free(lam);
    kpca_free(terms);
    kpca_free(z);
    kpca_free(beta);
    return st;
}

