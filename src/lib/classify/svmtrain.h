/* svmtrain.h - training the linear SVMs of classifier.h with LIBSVM (or
 * LIBLINEAR, liblin.h): one binary C-SVC per pair of classes (OVO) or per
 * class (OVR), trained in worker threads, each collapsed to w.x + b.  SVMs
 * only: LDA is lda.h, and the choice between them is eval.h's. */
#ifndef KPCA_SVMTRAIN_H
#define KPCA_SVMTRAIN_H

#include "classify/classifier.h"

/* Trains on the first `dim` columns of x (n rows, stride ld), with the
 * SPARSE backend or, for GRAM, from the Gram matrix g (n x n) of those
 * columns, of which only the upper triangle g[i n + j], i <= j, is read.  `factor` multiplies every kernel value (the NORM
 * scaling); the returned weights apply to the unscaled columns. */
kpca_status kpca_svm_train(const double *x, size_t n, size_t ld, size_t dim, const int *y, const double *g,
                           double factor, const kpca_svm_params *p, kpca_classifier *out, kpca_error *err);

/* Buffers for the binary problems (node rows: up to (n_a + n_b)^2 LIBSVM
 * nodes per worker thread), kept from one training run to the next by a
 * caller that trains many times (kpca_eval: once per prefix and fold):
 * fresh pages cost a page fault and the kernel's zeroing every time.
 * Owned by the caller; not to be shared by two runs at once. */
typedef struct kpca_svm_scratch kpca_svm_scratch;

/* An empty scratch (it grows on use), or NULL when out of memory. */
kpca_svm_scratch *kpca_svm_scratch_new(void);
void kpca_svm_scratch_free(kpca_svm_scratch *ws);

/* The worker threads a training run of nmach binary machines starts:
 * p->threads (0: one per online CPU), at most nmach, at least 1. */
size_t kpca_svm_workers(const kpca_svm_params *p, size_t nmach);

/* Trains the SVMs on the rows rows[0..n-1] of x
 * (stride ld, first dim columns), y and, for the GRAM backend, g or, in
 * binary32 (kpca eval --precision single), gs: exactly one of them (leading
 * upper triangle read: entry (i, j), i <= j, at g[goff[i] + j], e.g. the
 * striped storage of gram.h; training row r sits at row and column gpos[r]
 * of g, or r when gpos is NULL); all n rows when rows is NULL.  scratch: buffers to
 * reuse (NULL: the call makes and frees its own). */
kpca_status kpca_svm_train_rows(const double *x, size_t ld, size_t dim, const int *y, const double *g,
                                const float *gs, const size_t *goff, const size_t *gpos, const size_t *rows, size_t n,
                                double factor, const kpca_svm_params *p, kpca_svm_scratch *scratch, kpca_classifier *out,
                                kpca_error *err);

#endif
