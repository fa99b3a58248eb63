/* liblin.h - the LIBLINEAR backend of the linear SVMs (KPCA_SVM_LIBLINEAR).
 *
 * LIBLINEAR's dual coordinate descent for the L2-regularised L1-loss
 * (hinge) SVM, solver L2R_L1LOSS_SVC_DUAL: the objective of LIBSVM's C-SVC
 * with the linear kernel, but the bias is a constant feature (value 1) and
 * is regularised with the weights, so its machines differ a little from
 * LIBSVM's.  It never forms a kernel matrix: each pass costs one dot
 * product per training point, so a prefix of k components costs O(n k) per
 * pass instead of the Gram matrix's n^2 k.  For users who want speed; the
 * paper's reproduction stays with LIBSVM.
 *
 * LIBLINEAR visits the dual coordinates in an order drawn with the C
 * library's rand(): for results that do not depend on the thread count or
 * on earlier calls, each machine is trained under one process-wide lock
 * after srand(KPCA_LIBLINEAR_SEED), so LIBLINEAR machines train one at a
 * time and the process's rand() sequence is reset (kpca itself draws its
 * random numbers from splitmix64, never rand()).
 */
#ifndef KPCA_LIBLIN_H
#define KPCA_LIBLIN_H

#include <stddef.h>

#include "support/error.h"

#define KPCA_LIBLINEAR_SEED 1u

/* The rows of one training run in LIBLINEAR's layout: point i is row
 * rows[i] of x (i < n; rows NULL: i), its first dim columns times
 * sqrt(factor), then the bias feature.  n (dim + 2) nodes of 16 bytes.
 * Read-only once built, so every worker thread can share it. */
typedef struct kpca_liblinear_rows kpca_liblinear_rows;

/* NULL when out of memory. */
kpca_liblinear_rows *kpca_liblinear_rows_new(const double *x, size_t ld, size_t dim, const size_t *rows, size_t n,
                                             double factor);
void kpca_liblinear_rows_free(kpca_liblinear_rows *r);

/* Trains one binary machine on the points pos[0..ns-1] of r (positions
 * 0..n-1 of the run), sign[j] = +-1, with cost C and stopping tolerance
 * eps; writes w (dim, for the unscaled columns) and *b so that w.x + b > 0
 * means the +1 side, and to *nsv the points on or inside the margin (the
 * support vectors of the hinge loss).  Thread-safe once
 * kpca_liblinear_quiet() has run. */
kpca_status kpca_liblinear_train_binary(const kpca_liblinear_rows *r, const size_t *pos, const double *sign,
                                        size_t ns, double C, double eps, double *w, double *b, size_t *nsv,
                                        kpca_error *err);

/* Silences LIBLINEAR's progress output (process-wide; call before threads). */
void kpca_liblinear_quiet(void);

#endif
