/* nystrom.h - Nyström kernel PCA (kpca fit --solver nystrom).
 *
 * Williams & Seeger 2001: with l landmarks z_1..z_l, the explicit feature
 * map phi(x) = Lambda^{-1/2} U^T k_L(x), k_L(x) = (k(z_j, x))_j and
 * K_LL = U Lambda U^T, has phi(x).phi(y) = k_L(x)^T K_LL^+ k_L(y), the
 * projection of k onto the span of the landmarks' feature vectors.  Linear
 * PCA of the n centred phi(x_i) is then kernel PCA of that approximate
 * kernel: O(n l^2 + l^3) work and O(n l) memory instead of O(n^2 m).
 *
 * A Nyström model (centring NYSTROM, model.h) keeps the landmarks as its m
 * points, the centring folded into alpha = A and colmean = kbar below: a
 * point projects to z = alpha (k_L(x) - kbar).  The landmarks come from
 * landmark.h (uniform rows or k-means centres).
 */
#ifndef KPCA_NYSTROM_H
#define KPCA_NYSTROM_H

#include <stddef.h>

#include "core/model.h"
#include "io/dataset.h"
#include "support/error.h"

/* Nyström kernel PCA from kernel matrices the caller computed (any kernel):
 * kll = K_LL (l x l, symmetric, both triangles) between the l landmarks,
 * knl = K_nL (n x l, row-major) between the n fit points and the landmarks;
 * neither is modified.
 *
 * K_LL = U Lambda U^T; the eigenpairs with lambda > tol * lambda_max are
 * kept (r of them; tol < 0: the default l * DBL_EPSILON, a pseudo-inverse's
 * cut-off), phi(x) = Lambda_r^{-1/2} U_r^T k_L(x), the n feature vectors are
 * centred by their mean and C = Phi_c^T Phi_c (r x r) = V S V^T.  The
 * eigenvalues S are those of the centred approximate kernel matrix
 * H K~ H (n x n, K~ = K_nL K_LL^+ K_Ln), on the same scale as exact kernel
 * PCA's mu; Nyström never overestimates them: K~ <= K, so S_c <= mu_c.
 *
 * Outputs (the caller's buffers, sized for k components):
 *   evals  (k)      S_c, descending.
 *   proj   (k x l)  row-major A, and
 *   kbar   (l)      the mean of the rows of K_nL, so that the projection of
 *                   any point x onto component c is z_c(x) = A_c . (k_L(x) - kbar).
 *                   The fit points project to Phi_c v_c, of squared norm S_c
 *                   (like exact kernel PCA's sqrt(mu_c) u_c).
 *   zfit   (n x k)  row-major, those projections of the fit points; may be
 *                   NULL (they are computed anyway, for the signs).
 *   *trace          (may be NULL) the trace of the centred approximate kernel
 *                   matrix, |Phi_c|_F^2: the sum of all its eigenvalues, the
 *                   total that the kept ones are a share of.
 *   *kept           the components available, <= min(k, r): those with
 *                   S_c above tol * max(S_1, trace of K~) (the rounding noise
 *                   of the centring, as in kpca_model_fit).
 * Entries for components c >= *kept are set to zero.  Sign: each component
 * is signed so that the fit point projection of largest magnitude (the
 * first such) is positive - with l = n landmarks at the fit points this
 * gives exactly kpca_model_fit's components (eig.h's sign rule on u_c).
 *
 * Errors: KPCA_EUSAGE for n < 2, l == 0, k == 0 or sizes beyond BLAS's int;
 * KPCA_ENUMERIC when K_LL has no positive eigenvalue, the centred features
 * are all zero (every point the same in feature space), or LAPACK fails;
 * KPCA_ENOMEM.  Memory besides the inputs and outputs: about n r + 3 l^2
 * doubles (the features, K_LL's eigenvectors and kpca_eig_top's
 * workspace), n k more when zfit is NULL.  evals, proj, kbar and zfit are
 * the caller's, and undefined after a failure. */
kpca_status kpca_nystrom_pca(const double *kll, const double *knl, size_t n, size_t l, size_t k, double tol,
                             double *proj, double *kbar, double *evals, double *zfit, size_t *kept,
                             double *trace, kpca_error *err);

/* kpca_model_fit's Nyström path (call kpca_model_fit, which checks p with
 * kpca_fit_check first: 2 <= p->landmarks <= fit->n, p->components <=
 * p->landmarks).  Landmarks (p->landmark_method: kpca_landmarks_uniform
 * rows, labels kept, or kpca_kmeans centres, labels -1), K_LL and K_nL
 * (KPCA_ENUMERIC if a kernel value overflows: kpca_kernel_check_finite),
 * then kpca_nystrom_pca with p->tol.  A precomputed kernel (model.h): the
 * landmarks are uniform fit rows, K_nL the fit rows' columns at their
 * indices in GRAM and K_LL the landmarks' rows of it (checked symmetric,
 * KPCA_EFORMAT, and made exactly so; its clearly negative part reported in
 * info->lowest); the model keeps the indices (gram_index), not points.  *model is overwritten: its m points
 * are the l landmarks, alpha the kept rows of A, colmean kbar, centring
 * NYSTROM, fit_n = fit->n; free it with kpca_model_free (already freed on
 * failure).  info (may be NULL) gets the phases' times.  Memory is checked
 * against the budget first (kpca_mem_check): about 8 (n (2 l + 2 k) + 4 l^2
 * + l dim) bytes.  Errors: those of kpca_mem_check, the landmark choice and
 * kpca_nystrom_pca; KPCA_ENOMEM. */
kpca_status kpca_nystrom_fit(const kpca_dataset *fit, const kpca_fit_params *p, kpca_model *model,
                             kpca_fit_info *info, kpca_error *err);

/* The centring of a landmark model's kernel rows: each of the n rows of kt
 * (n x l, row-major, k_L(x) of n points) becomes k_L(x) - kbar, kbar (l)
 * the model's colmean.  kpca_model_transform applies it to NYSTROM models
 * and to REDUCED ones, whose z = alpha (k_Z(x) - colmean) has the same form
 * (model.h).  In place, O(n l), cannot fail. */
void kpca_nystrom_centre_rows(double *kt, size_t n, size_t l, const double *kbar);

#endif
