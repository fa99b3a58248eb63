/* nystrom_ref.h - the Nyström fit of lib/core/nystrom.c as it was before
 * it went by blocks (git 77e5655): the n x l kernel block K_nL and the
 * n x r features held whole, centred by their mean, C = Phi_c^T Phi_c by one
 * DSYRK, the fit projections Z = Phi_c V^T for the signs, and k-means
 * landmarks on every fit point.  test_nystream.c holds the streamed fit to
 * it (the models of the commit before it).  Test code only (plain statics,
 * the library's allocator so that it obeys the budget). */
#ifndef KPCA_NYSTROM_REF_H
#define KPCA_NYSTROM_REF_H

#include <cblas.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/kpca.h"
#include "lib/support/clock.h"

static kpca_status ref_nystrom_pca(const double *kll, const double *knl, size_t n, size_t l, size_t k, double tol,
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

/* A precomputed kernel's K_nL and K_LL: the columns of the fit rows (n x M)
 * at the landmarks' indices in GRAM (gram_index, l), and of K_nL the
 * landmarks' rows (idx, l); K_LL checked symmetric within
 * KPCA_PRECOMPUTED_SYMMETRY_TOL and made exactly so, and its clearly
 * negative part reported in *lowest (kpca_eig_lowest) */
static kpca_status ref_precomputed_kernels(const kpca_dataset *fit, const size_t *gram_index, const size_t *idx, size_t l,
                                       double tol, double *kll, double *knl, double *lowest, kpca_error *err)
{
    kpca_kernel_gather(fit->x, fit->n, fit->dim, gram_index, l, knl);
    for (size_t a = 0; a < l; a++)
        memcpy(kll + a * l, knl + idx[a] * l, l * sizeof(double));
    kpca_error why;
    if (kpca_kernel_check_matrix(kll, l, l, KPCA_PRECOMPUTED_SYMMETRY_TOL, &why) != KPCA_OK)
        return kpca_fail(err, KPCA_EFORMAT, "the kernel matrix of the %zu landmarks (numbered as they are): %s", l,
                         why.msg);
    kpca_kernel_symmetrize(kll, l);
    return kpca_eig_lowest(kll, l, tol, lowest, err);
}

static kpca_status ref_nystrom_fit(const kpca_dataset *fit, const kpca_fit_params *p, kpca_model *model,
                             kpca_fit_info *info, kpca_error *err)
{
    const size_t n = fit->n, dim = fit->dim, l = p->landmarks;
    size_t want = p->components ? p->components : l; /* kpca_fit_check: l in 2..n, want <= l */
    char what[128];
    snprintf(what, sizeof what, "Nystrom kernel PCA with %zu landmarks on %zu points", l, n);
    const double pts = p->kernel.type == KPCA_KERNEL_PRECOMPUTED ? 0.0 : (double)l * (double)dim; /* the landmarks */
    kpca_status st =
        kpca_mem_check(8.0 * ((double)n * (double)(2 * l + 2 * want) + 4.0 * (double)l * (double)l + pts), what, err);
    if (st != KPCA_OK)
        return st;
    kpca_fit_info inf;
    memset(&inf, 0, sizeof inf);
    inf.requested = want;
    inf.tol = p->tol >= 0.0 ? p->tol : (double)l * DBL_EPSILON;
    double *kll = kpca_alloc_array(l, l, sizeof(double));
    double *knl = kpca_alloc_array(n, l, sizeof(double));
    double *proj = kpca_alloc_array(want, l, sizeof(double));
    double *ev = kpca_alloc_array(want, 1, sizeof(double));
    size_t *idx = kpca_alloc_array(l, 1, sizeof(size_t));
    const int pre = p->kernel.type == KPCA_KERNEL_PRECOMPUTED; /* the model keeps indices, not points */
    if (pre)
        model->gram_index = kpca_alloc_array(l, 1, sizeof(size_t));
    else
        model->fitx = kpca_alloc_array(l, dim, sizeof(double));
    model->fity = kpca_alloc_array(l, 1, sizeof(int));
    model->colmean = kpca_alloc_array(l, 1, sizeof(double));
    if (kll == NULL || knl == NULL || proj == NULL || ev == NULL || idx == NULL ||
        (pre ? model->gram_index == NULL : model->fitx == NULL) || model->fity == NULL || model->colmean == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for %s", what);
        goto done;
    }
    double t0 = kpca_now();
    kpca_progress("landmarks", 0, 1);
    if (p->landmark_method == KPCA_LANDMARKS_KMEANS) {
        st = kpca_kmeans(fit->x, n, dim, l, p->seed, p->kmeans_iter, model->fitx, NULL, NULL, err);
        for (size_t j = 0; j < l; j++)
            model->fity[j] = -1; /* centres, not digits */
    } else {
        st = kpca_landmarks_uniform(n, l, p->seed, idx, err);
        for (size_t j = 0; st == KPCA_OK && j < l; j++) {
            if (pre)
                model->gram_index[j] = p->gram_index != NULL ? p->gram_index[idx[j]] : idx[j];
            else
                memcpy(model->fitx + j * dim, fit->x + idx[j] * dim, dim * sizeof(double));
            model->fity[j] = fit->y[idx[j]];
        }
    }
    kpca_progress("landmarks", 1, 1);
    if (st != KPCA_OK)
        goto done;
    double t1 = kpca_now();
    kpca_progress("kernel", 0, 1);
    if (pre) {
        st = ref_precomputed_kernels(fit, model->gram_index, idx, l, inf.tol, kll, knl, &inf.lowest, err);
    } else {
        kpca_kernel_gram(&p->kernel, model->fitx, l, dim, kll);
        kpca_kernel_cross(&p->kernel, fit->x, n, model->fitx, l, dim, knl);
        st = kpca_kernel_check_finite(&p->kernel, knl, n * l, err);
    }
    kpca_progress("kernel", 1, 1);
    if (st != KPCA_OK)
        goto done;
    double t2 = kpca_now();
    kpca_progress("eigensolve", 0, 1);
    size_t kept = 0;
    double trace = 0.0;
    st = ref_nystrom_pca(kll, knl, n, l, want, p->tol, proj, model->colmean, ev, NULL, &kept, &trace, err);
    kpca_progress("eigensolve", 1, 1);
    if (st != KPCA_OK)
        goto done;
    double t3 = kpca_now();
    model->alpha = kpca_alloc_array(kept, l, sizeof(double));
    model->eigval = kpca_alloc_array(kept, 1, sizeof(double));
    if (model->alpha == NULL || model->eigval == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
        goto done;
    }
    memcpy(model->alpha, proj, kept * l * sizeof(double));
    memcpy(model->eigval, ev, kept * sizeof(double));
    model->kernel = p->kernel;
    model->centring = KPCA_CENTRE_NYSTROM;
    model->fit_n = n;
    snprintf(model->solver, sizeof model->solver, "nystrom %s l=%zu seed=%llu",
             kpca_landmark_method_name(p->landmark_method), l, (unsigned long long)p->seed);
    model->m = l;
    model->dim = dim;
    model->k = kept;
    model->grandmean = 0.0;
    model->trace = trace;
    kpca_dataset_range(fit, &model->input_lo, &model->input_hi);
    inf.kept = kept;
    inf.eig_used = KPCA_EIG_AUTO;
    inf.sec_kernel = (t1 - t0) + (t2 - t1);
    inf.sec_eig = t3 - t2;
    if (info != NULL)
        *info = inf;
done:
    kpca_free(kll);
    kpca_free(knl);
    kpca_free(proj);
    kpca_free(ev);
    kpca_free(idx);
    if (st != KPCA_OK)
        kpca_model_free(model);
    return st;
}

#endif
