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
 * Every pass over the points (a k-means++ draw, an assignment, a move to
 * the means) reads them a block at a time and keeps nothing per point but
 * one word: the distance to the nearest seed while seeding, then the
 * point's centre (label's own storage when label is not NULL).  A
 * re-seeding pass recomputes the distances the assignment made, keeping
 * only the k farthest points.  The Lloyd passes choose centres without
 * the points' norms; only the last pass, which gives the labels and the
 * inertia, computes distances.
 *
 * Outputs (the caller's; label and info may be NULL):
 *   centres (k x dim)  max_iter = 0 returns the k-means++ seeds (data points).
 *   label   (n)        each point's nearest returned centre, 0..k-1; also
 *                      the run's scratch, so its contents are undefined
 *                      after a failure.
 *   info               iters = the assignment passes made: < max_iter means
 *                      converged (the last pass changed nothing); inertia as
 *                      kpca_kmeans_info says, from the same distances.
 * Cost: O(n k dim) per pass (DGEMM), O(n k dim) for the seeding, and with
 * label or info one assignment pass more.  Memory besides x and the
 * outputs: KPCA_KMEANS_BLOCK (k + 2) + k (dim + 4) doubles, the squared
 * norms of at most KPCA_KMEANS_CACHED_NORMS points, and n words when label
 * is NULL: nothing else grows with n.  Deterministic for a given seed (and
 * BLAS thread count), whatever the block size up to BLAS's rounding.
 * Errors: KPCA_EUSAGE for k == 0, k > n, dim == 0, or k or dim beyond
 * BLAS's int; KPCA_ENOMEM.  The outputs are undefined after a failure. */
kpca_status kpca_kmeans(const double *x, size_t n, size_t dim, size_t k, uint64_t seed, size_t max_iter,
                        double *centres, size_t *label, kpca_kmeans_info *info, kpca_error *err);

/* kpca_kmeans run `restarts` times (>= 1), keeping the run of least inertia
 * (the first on ties): run 0 uses seed itself, so restarts == 1 is
 * kpca_kmeans; run r >= 1 the r-th number of kpca_splitmix64 started at
 * seed.  Outputs as kpca_kmeans (label and info may be NULL; info->iters is
 * the kept run's); info->run is the kept run.  The runs share label as
 * their scratch; when the kept run is not the last, one assignment pass
 * with its centres gives its labels again (the same bits: the same
 * arithmetic).  Cost: restarts times kpca_kmeans', plus k x dim doubles.
 * Errors: those of kpca_kmeans, and KPCA_EUSAGE for restarts == 0.
 * Deterministic as kpca_kmeans is. */
kpca_status kpca_kmeans_restarts(const double *x, size_t n, size_t dim, size_t k, uint64_t seed, size_t max_iter,
                                 size_t restarts, double *centres, size_t *label, kpca_kmeans_info *info,
                                 kpca_error *err);

/* Where kpca_kmeans_run finds the points, and how many it takes at once. */
typedef struct {
    size_t ld;    /* doubles from one point to the next, >= dim (0: dim):
                   * the first dim columns of a wider matrix, uncopied */
    size_t block; /* points per block (0: KPCA_KMEANS_BLOCK); memory grows
                   * with it, the result does not beyond the rounding of
                   * BLAS (the default's blocks give kpca_kmeans's bits) */
} kpca_kmeans_opts;

/* kpca_kmeans_restarts on the points x (n rows of stride opts->ld, their
 * first dim columns) in blocks of opts->block points (opts NULL: the
 * defaults).  kpca_kmeans and kpca_kmeans_restarts are this with opts NULL.
 * Errors: theirs, and KPCA_EUSAGE for ld < dim or ld or block beyond
 * BLAS's int. */
kpca_status kpca_kmeans_run(const double *x, size_t n, size_t dim, size_t k, uint64_t seed, size_t max_iter,
                            size_t restarts, const kpca_kmeans_opts *opts, double *centres, size_t *label,
                            kpca_kmeans_info *info, kpca_error *err);

/* The rule of every assignment of a k-means pass here: the nearest of the
 * k centres (k x dim, row-major; cn their squared norms |c_j|^2) to each
 * of the nb points xb (row stride ld >= dim) into near[i], by |c|^2 - 2 x.c
 * (the cross terms by one DGEMM into cross, nb x k scratch), ties to the
 * lowest index.  When d2 is not NULL it holds |x_i|^2 on entry and receives
 * the squared distance max(0, |x|^2 + |c|^2 - 2 x.c).  nb, k, dim and ld
 * within BLAS's int (the caller's to check).  O(nb k dim); no allocation. */
void kpca_kmeans_nearest(const double *xb, size_t nb, size_t ld, size_t dim, const double *centres,
                         const double *cn, size_t k, double *cross, size_t *near, double *d2);

/* Points per block in the k-means passes (bounds the assignment's memory
 * to KPCA_KMEANS_BLOCK x k doubles). */
#define KPCA_KMEANS_BLOCK 1024
/* Squared norms |x_i|^2 kept for at most this many points (2 MiB); a pass
 * over the points beyond them computes theirs again. */
#define KPCA_KMEANS_CACHED_NORMS ((size_t)1 << 18)

#endif
