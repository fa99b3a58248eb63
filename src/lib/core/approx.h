/* approx.h - approximate kernel PCA: a randomized eigensolver, landmark
 * selection, and Nyström kernel PCA on caller-supplied kernel matrices.
 *
 * Randomized eigensolver (Halko, Martinsson & Tropp 2011, "Finding
 * structure with randomness", Algorithms 4.4 and 5.3): the range of a
 * symmetric A is sketched with s = k + oversample Gaussian vectors, refined
 * by subspace iteration, and A is then solved exactly on that subspace
 * (Rayleigh-Ritz).  Cost: (power_iters + 2) products of A with an n x s
 * block - (power_iters + 2) * 2 n^2 s flops, all in DGEMM - plus O(n s^2)
 * for the QRs; memory 2 n s + O(s^2) doubles besides A.
 *
 * Nyström (Williams & Seeger 2001): with l landmarks z_1..z_l, the explicit
 * feature map phi(x) = Lambda^{-1/2} U^T k_L(x), k_L(x) = (k(z_j, x))_j and
 * K_LL = U Lambda U^T, has phi(x).phi(y) = k_L(x)^T K_LL^+ k_L(y), the
 * projection of k onto the span of the landmarks' feature vectors.  Linear
 * PCA of the n centred phi(x_i) is then kernel PCA of that approximate
 * kernel: O(n l^2 + l^3) work and O(n l) memory instead of O(n^2 m).
 *
 * Random numbers come from kpca_splitmix64 (rng.h), so results depend
 * only on the seed - and, through BLAS's summation order, on the number of
 * OpenBLAS threads.
 */
#ifndef KPCA_APPROX_H
#define KPCA_APPROX_H

#include <stddef.h>
#include <stdint.h>

#include "support/error.h"

/* The defaults of kpca_eig_randomized, which kpca fit --solver randomized
 * uses too (kpca_fit_defaults; the help text prints them from here):
 * as many extra sketch vectors as eigenpairs wanted (oversample 0 means
 * p = k) and 4 subspace iterations, a sketch of A^5 Omega.  The relative
 * error of the k-th eigenvalue falls roughly as
 * (lambda_{s+1} / lambda_k)^(2 (power_iters + 1)), s = k + oversample: each
 * iteration multiplies the error by that ratio squared, at the cost of one
 * more n x n x s product.  Centred polynomial kernels on USPS decay slowly:
 * bench/bench_approx at M = 1000, degree 3, k = 16 measured a relative error
 * of 4e-2 on the 16th eigenvalue with p = 10 and 2 iterations (Halko et al.
 * section 4.2's p = 5 or 10 assumes a decaying spectrum), 4e-7 with p = 64
 * and 4 iterations (0.05 s against 0.13 s for kpca_eig_top) - hence these
 * larger defaults; size them for the accuracy wanted. */
#define KPCA_RSVD_OVERSAMPLE 0
#define KPCA_RSVD_POWER_ITERS 4

/* The sketch size s = min(k + p, n), p = oversample, or k when oversample
 * is 0. */
size_t kpca_rsvd_sketch(size_t n, size_t k, size_t oversample);

/* The k largest (algebraic) eigenvalues of the symmetric n x n matrix a
 * (row-major, both triangles set; NOT modified), approximately, into evals
 * (k, descending) and unit eigenvectors into the rows of evecs (k x n,
 * row-major), each signed like kpca_eig_top's (eig.h): its entry of largest
 * magnitude, the first such, is positive.  The rows are orthonormal to
 * rounding.
 *
 * Method: s = kpca_rsvd_sketch(n, k, oversample); Omega n x s standard Gaussian (from
 * seed: splitmix64 + Box-Muller); Q = orth(A Omega); then power_iters times
 * Q = orth(A Q) - one product with A per iteration, so power_iters = 2q is
 * Halko's q of Algorithm 4.4 (which multiplies by A^T and A per step); orth
 * is a Householder QR (dgeqrf + dorgqr).  Finally B = Q^T A Q (s x s),
 * B = V Theta V^T (dsyevd) and the top k pairs (theta, Q v).  The Ritz
 * values theta never exceed the true eigenvalues (Cauchy interlacing); the
 * method is meant for PSD matrices such as a centred kernel matrix, where
 * the largest eigenvalues are also the largest in magnitude and the
 * subspace iteration converges to them.  With s = n the result is exact up
 * to rounding.
 *
 * Deterministic for a given seed (and number of BLAS threads).  Errors:
 * KPCA_EUSAGE for k == 0, k > n or n beyond BLAS's int; KPCA_ENOMEM (all
 * memory, LAPACK's workspaces included, comes from mem.h); KPCA_ENUMERIC
 * when LAPACK fails (KPCA_EINTERNAL if it calls an argument illegal).
 * evals and evecs are the caller's, and undefined after a failure. */
kpca_status kpca_eig_randomized(const double *a, size_t n, size_t k, size_t oversample, size_t power_iters,
                                uint64_t seed, double *evals, double *evecs, kpca_error *err);

/* l distinct row indices of 0..n-1, drawn uniformly without replacement with
 * the given seed, ascending, into idx (l).  Every seed, 0 included, draws a
 * random subset (unlike kpca_subset_indices, where 0 means the first rows;
 * the seed is passed through splitmix64 first).  KPCA_EUSAGE for l == 0 or
 * l > n. */
kpca_status kpca_landmarks_uniform(size_t n, size_t l, uint64_t seed, size_t *idx, kpca_error *err);

/* k-means centres of the n points x (n x dim, row-major) into centres
 * (l x dim, row-major): k-means++ seeding (Arthur & Vassilvitskii 2007)
 * from seed, then Lloyd iterations - assign each point to its nearest
 * centre (squared distances |x|^2 + |c|^2 - 2 x.c, the cross terms by DGEMM
 * in blocks of KPCA_KMEANS_BLOCK points; ties go to the lowest index), move
 * each centre to its points' mean - until an assignment changes nothing or
 * max_iter assignments have been made.  A cluster left empty is re-seeded
 * with the point farthest from the centre it was last assigned to (taken
 * from a cluster of two or more points), so every returned centre is the
 * mean of at least one point.  *iters_done (may be NULL) = the assignment passes made:
 * < max_iter means converged (the last pass changed nothing); max_iter = 0
 * returns the k-means++ seeds.  Deterministic for a given seed (and BLAS
 * thread count).  KPCA_EUSAGE for l == 0, l > n or dim == 0; KPCA_ENOMEM. */
kpca_status kpca_landmarks_kmeans(const double *x, size_t n, size_t dim, size_t l, uint64_t seed, size_t max_iter,
                                  double *centres, size_t *iters_done, kpca_error *err);

/* Points per DGEMM block in the k-means assignment (bounds its memory to
 * KPCA_KMEANS_BLOCK x l doubles). */
#define KPCA_KMEANS_BLOCK 1024

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

#endif
