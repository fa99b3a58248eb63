/* randeig.h - the randomized eigensolver of kpca fit --solver randomized.
 *
 * Halko, Martinsson & Tropp 2011, "Finding structure with randomness",
 * Algorithms 4.4 and 5.3: the range of a symmetric A is sketched with
 * s = k + oversample Gaussian vectors, refined by subspace iteration, and A
 * is then solved exactly on that subspace (Rayleigh-Ritz).  Cost:
 * (power_iters + 2) products of A with an n x s block - (power_iters + 2) *
 * 2 n^2 s flops, all in DGEMM - plus O(n s^2) for the QRs; memory
 * 2 n s + O(s^2) doubles besides A.
 *
 * Random numbers come from kpca_splitmix64 (rng.h), so results depend only
 * on the seed - and, through BLAS's summation order, on the number of
 * OpenBLAS threads.
 */
#ifndef KPCA_RANDEIG_H
#define KPCA_RANDEIG_H

#include <stddef.h>
#include <stdint.h>

#include "support/error.h"

/* The defaults of kpca_eig_randomized, which kpca fit --solver randomized
 * uses too (kpca_fit_defaults; the help text prints them from here):
 * as many extra sketch vectors as eigenpairs wanted, and never fewer than
 * Halko et al.'s p = 10 (oversample 0 means p = max(k,
 * KPCA_RSVD_MIN_OVERSAMPLE)), and 4 subspace iterations, a sketch of
 * A^5 Omega.  The relative
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
#define KPCA_RSVD_MIN_OVERSAMPLE 10
#define KPCA_RSVD_POWER_ITERS 4

/* The sketch size s = min(k + p, n), p = oversample, or max(k,
 * KPCA_RSVD_MIN_OVERSAMPLE) when oversample is 0: for k < 10 the extra
 * vectors matter most (bench/bench_approx, USPS M = 1000, degree 3, 4
 * iterations, k = 4: largest relative eigenvalue error 6.6e-4 with p = 4,
 * 7.4e-6 with p = 10). */
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

#endif
