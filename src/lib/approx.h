/* approx.h - approximate kernel PCA: a randomized eigensolver and landmark
 * selection (uniform, k-means).
 *
 * Randomized eigensolver (Halko, Martinsson & Tropp 2011, "Finding
 * structure with randomness", Algorithms 4.4 and 5.3): the range of a
 * symmetric A is sketched with s = k + oversample Gaussian vectors, refined
 * by subspace iteration, and A is then solved exactly on that subspace
 * (Rayleigh-Ritz).  Cost: (power_iters + 2) products of A with an n x s
 * block - (power_iters + 2) * 2 n^2 s flops, all in DGEMM - plus O(n s^2)
 * for the QRs; memory 2 n s + O(s^2) doubles besides A.
 *
 * Random numbers come from kpca_splitmix64 (dataset.h), so results depend
 * only on the seed - and, through BLAS's summation order, on the number of
 * OpenBLAS threads.
 */
#ifndef KPCA_APPROX_H
#define KPCA_APPROX_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Recommended defaults for kpca_eig_randomized: 10 extra sketch vectors
 * (Halko et al. section 4.2: p = 5 or 10 is enough when the spectrum
 * decays), and 2 subspace iterations, i.e. a sketch of A^3 Omega (Halko's
 * q = 1 in the symmetric case).  The relative error of the k-th eigenvalue
 * falls roughly as (lambda_{s+1} / lambda_k)^(2 (power_iters + 1)),
 * s = k + oversample: each iteration multiplies the error by that ratio
 * squared, at the cost of one more n x n x s product. */
#define KPCA_RSVD_OVERSAMPLE 10
#define KPCA_RSVD_POWER_ITERS 2

/* The k largest (algebraic) eigenvalues of the symmetric n x n matrix a
 * (row-major, both triangles set; NOT modified), approximately, into evals
 * (k, descending) and unit eigenvectors into the rows of evecs (k x n,
 * row-major), each signed like kpca_eig_top's (eig.h): its entry of largest
 * magnitude, the first such, is positive.  The rows are orthonormal to
 * rounding.
 *
 * Method: s = min(k + oversample, n); Omega n x s standard Gaussian (from
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

#endif
