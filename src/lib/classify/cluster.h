/* cluster.h - k-means on leading components, and comparing a clustering
 * with class labels (kpca cluster).
 *
 * The k-means is the library's one (kpca_kmeans_run, core/landmark.h):
 * k-means++ seeding, Lloyd iterations, the best of several runs by inertia.
 * The comparison is the contingency table (clusters x classes) and the
 * adjusted Rand index of Hubert & Arabie (1985): the Rand index corrected
 * for chance under the hypergeometric model, 1 for identical partitions,
 * 0 on average for independent ones, negative below chance.
 */
#ifndef KPCA_CLUSTER_H
#define KPCA_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "core/landmark.h"
#include "core/nystream.h"
#include "support/error.h"

/* k-means of the n points x (n x dim, row-major) restricted to their first
 * ncomp coordinates (1..dim): k clusters, the best of `restarts` runs of
 * kpca_kmeans from `seed` with at most max_iter assignment passes each.
 * label (n, the caller's) receives each point's cluster 0..k-1; info (may
 * be NULL) the kept run's inertia, passes and index.  Cost: restarts x
 * O(n k ncomp) per pass; memory k x ncomp doubles besides kpca_kmeans_run's
 * (the leading columns are read in place, label is the runs' scratch):
 * nothing that grows with n.  Errors: KPCA_EUSAGE for ncomp outside
 * 1..dim, k outside 1..n, restarts == 0; KPCA_ENOMEM. */
kpca_status kpca_cluster(const double *x, size_t n, size_t dim, size_t ncomp, size_t k, uint64_t seed,
                         size_t restarts, size_t max_iter, size_t *label, kpca_kmeans_info *info,
                         kpca_error *err);

/* Points the k-means of kpca_cluster_feed starts from by default. */
#define KPCA_CLUSTER_SAMPLE ((size_t)65536)

/* What kpca_cluster_feed reports. */
typedef struct {
    size_t sample;         /* the points the starts were made on */
    kpca_kmeans_info runs; /* the kept run on them (its passes, its
                            * inertia over the sample, its index) */
    size_t passes;         /* Lloyd passes over all the points */
    int converged;         /* 1: the last pass left the centres as they were */
} kpca_cluster_feed_info;

/* k-means of the rows of a feed (core/nystream.h: a file read a block at a
 * time, or a data set in memory), restricted to their first ncomp values
 * (1..feed->dim), in memory independent of the number of rows n =
 * feed->n: k-means++ and `restarts` runs of kpca_kmeans_restarts (seed,
 * max_iter passes each) on a uniform sample of s = min(n, sample) rows
 * (kpca_landmarks_uniform with seed; every row when s = n), then Lloyd
 * passes over all n rows from the kept run's centres, a block of
 * KPCA_KMEANS_BLOCK rows at a time: each row to its nearest centre
 * (kpca_kmeans_nearest), each centre to its rows' mean (a centre left
 * without a row stays where it was), until a pass leaves every centre as it
 * was, bit for bit (then no row changes its centre on a further pass), or
 * max_iter passes.  centres (k x ncomp, the caller's) receives them.
 * Memory: s x ncomp doubles for the sample and s words, KPCA_KMEANS_BLOCK x
 * (dim + k + 2) doubles, 3 k ncomp doubles: nothing that grows with n.
 * Cost: the runs on the sample, and a read of the rows and O(n k ncomp) per
 * pass.  Deterministic for a seed and a BLAS thread count.  Errors:
 * KPCA_EUSAGE for ncomp outside 1..dim, k outside 1..n, restarts or
 * sample == 0; the feed's; KPCA_EFORMAT when it ends before n rows;
 * KPCA_ENOMEM. */
kpca_status kpca_cluster_feed(kpca_rowfeed *feed, size_t ncomp, size_t k, uint64_t seed, size_t restarts,
                              size_t max_iter, size_t sample, double *centres, kpca_cluster_feed_info *info,
                              kpca_error *err);

/* Receives a block of nb rows' clusters (0..k-1) and labels (y: NULL when
 * the pass reads none), in the rows' order; a status other than KPCA_OK
 * stops the pass with it. */
typedef kpca_status (*kpca_cluster_each)(void *ctx, const size_t *cluster, const int *y, size_t nb,
                                         kpca_error *err);

/* One pass over the feed's rows with the k centres (k x ncomp): each row's
 * nearest centre (kpca_kmeans_nearest), handed a block at a time to each
 * (may be NULL) with the rows' labels when labels is 1, and *inertia (may
 * be NULL) the sum of the squared distances in the rows' order.  Memory as
 * kpca_cluster_feed's blocks.  Errors: as kpca_cluster_feed's, and each's. */
kpca_status kpca_cluster_feed_assign(kpca_rowfeed *feed, size_t ncomp, size_t k, const double *centres,
                                     int labels, kpca_cluster_each each, void *ctx, double *inertia,
                                     kpca_error *err);

/* The contingency table of a clustering (cluster[i] in 0..k-1) against
 * class labels y (any ints), n points.  *classes receives the distinct
 * labels, ascending (*nclasses of them), and *table the counts, k rows x
 * *nclasses columns, row-major: table[c * nclasses + j] = the points of
 * cluster c with label classes[j].  Both newly allocated (kpca_free);
 * NULL on failure.  Cost O(n log n).  Errors: KPCA_EUSAGE for n == 0, k ==
 * 0 or a cluster >= k; KPCA_ENOMEM. */
kpca_status kpca_contingency(const size_t *cluster, size_t k, const int *y, size_t n, int **classes,
                             size_t *nclasses, size_t **table, kpca_error *err);

/* The adjusted Rand index of two partitions given by their contingency
 * table (r x c counts, row-major, every count a point):
 *   ARI = (sum_ij C(n_ij,2) - E) / ((sum_i C(a_i,2) + sum_j C(b_j,2)) / 2 - E),
 *   E = sum_i C(a_i,2) sum_j C(b_j,2) / C(n,2),
 * a_i, b_j the row and column sums.  When the denominator is 0 (both
 * partitions one block, or both all singletons, or n < 2) the partitions
 * agree and the value is 1.  In [-1, 1].  O(r c), in doubles. */
double kpca_adjusted_rand(const size_t *table, size_t r, size_t c);

#endif
