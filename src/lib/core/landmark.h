/* landmark.h - choosing representative points: a uniform sample of rows,
 * and k-means (the Nyström landmarks of kpca fit --landmark-method kmeans,
 * the reduced-set start of kpca reduce --init kmeans, and any clustering of
 * points).
 *
 * Random numbers come from kpca_splitmix64 (rng.h), so results depend only
 * on the seed - and, through BLAS's summation order, on the number of
 * OpenBLAS threads.
 */
#ifndef KPCA_LANDMARK_H
#define KPCA_LANDMARK_H

#include <stddef.h>
#include <stdint.h>

#include "support/error.h"

/* l distinct row indices of 0..n-1, drawn uniformly without replacement with
 * the given seed, ascending, into idx (l).  Every seed, 0 included, draws a
 * random subset (unlike kpca_subset_indices, where 0 means the first rows;
 * the seed is passed through splitmix64 first).  KPCA_EUSAGE for l == 0 or
 * l > n. */
kpca_status kpca_landmarks_uniform(size_t n, size_t l, uint64_t seed, size_t *idx, kpca_error *err);

/* What kpca_kmeans reports besides the centres. */
typedef struct {
    size_t iters;   /* assignment passes made (see kpca_kmeans) */
    double inertia; /* sum over the points of the squared distance to their
                     * nearest returned centre */
    size_t run;     /* kpca_kmeans_restarts: the run kept, 0.. (else 0) */
} kpca_kmeans_info;

/* k-means: k centres of the n points x (n x dim, row-major) into centres
 * (k x dim, row-major).
 *
 * Method: k-means++ seeding (Arthur & Vassilvitskii 2007) from seed, then
 * Lloyd iterations - assign each point to its nearest centre (squared
 * distances |x|^2 + |c|^2 - 2 x.c, the cross terms by DGEMM in blocks of
 * KPCA_KMEANS_BLOCK points; ties go to the lowest index), move each centre
 * to its points' mean - until an assignment changes nothing or max_iter
 * assignments have been made.  A cluster left empty is re-seeded with the
 * point farthest from the centre it was last assigned to (taken from a
 * cluster of two or more points), so every returned centre is the mean of
 * at least one point.  No Lloyd step raises the inertia: over max_iter =
 * 0, 1, 2, ... (one seed) it does not increase, up to the rounding of the
 * distance formula.
 *
 * Outputs (the caller's; label and info may be NULL):
 *   centres (k x dim)  max_iter = 0 returns the k-means++ seeds (data points).
 *   label   (n)        each point's nearest returned centre, 0..k-1.
 *   info               iters = the assignment passes made: < max_iter means
 *                      converged (the last pass changed nothing); inertia as
 *                      kpca_kmeans_info says, from the same distances.
 * Cost: O(n k dim) per pass (DGEMM), and with label or info one pass more
 * when the centres moved after the last one (not converged, or max_iter 0);
 * memory O(n + k + KPCA_KMEANS_BLOCK k) besides x and the outputs.
 * Deterministic for a given seed (and BLAS thread count).  Errors:
 * KPCA_EUSAGE for k == 0, k > n, dim == 0 or sizes beyond BLAS's int;
 * KPCA_ENOMEM.  The outputs are undefined after a failure. */
kpca_status kpca_kmeans(const double *x, size_t n, size_t dim, size_t k, uint64_t seed, size_t max_iter,
                        double *centres, size_t *label, kpca_kmeans_info *info, kpca_error *err);

/* kpca_kmeans run `restarts` times (>= 1), keeping the run of least inertia
 * (the first on ties): run 0 uses seed itself, so restarts == 1 is
 * kpca_kmeans; run r >= 1 the r-th number of kpca_splitmix64 started at
 * seed.  Outputs as kpca_kmeans (label and info may be NULL; info->iters is
 * the kept run's); info->run is the kept run.  Cost: restarts times
 * kpca_kmeans', plus k x dim doubles and n size_t of scratch.  Errors: those
 * of kpca_kmeans, and KPCA_EUSAGE for restarts == 0.  Deterministic as
 * kpca_kmeans is. */
kpca_status kpca_kmeans_restarts(const double *x, size_t n, size_t dim, size_t k, uint64_t seed, size_t max_iter,
                                 size_t restarts, double *centres, size_t *label, kpca_kmeans_info *info,
                                 kpca_error *err);

/* Points per DGEMM block in the k-means assignment (bounds its memory to
 * KPCA_KMEANS_BLOCK x k doubles). */
#define KPCA_KMEANS_BLOCK 1024

#endif
