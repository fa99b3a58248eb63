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
