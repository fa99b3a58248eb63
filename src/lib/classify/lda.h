/* lda.h - the Gaussian linear classifier with one pooled covariance
 * (KPCA_CLF_LDA in classifier.h): training. */
#ifndef KPCA_LDA_H
#define KPCA_LDA_H

#include "classify/classifier.h"

/* The rows of one block of within-class deviations: all n while they
 * take at most KPCA_LDA_BLOCK_BYTES (dim doubles a row), else as many as
 * do (at least 1). */
#define KPCA_LDA_BLOCK_BYTES ((size_t)256 << 20)
size_t kpca_lda_block_rows(size_t n, size_t dim);

/* Trains LDA on rows rows[0..n-1] (all when NULL) of x (stride ld), the
 * first dim columns, labels y indexed like x.  The pooled covariance is
 * summed by DSYRK over the within-class deviations of kpca_lda_block_rows
 * rows at a time (one block, so one DSYRK, up to 256 MiB of them): memory
 * 8 dim (2 dim + kpca_lda_block_rows) bytes besides O(n) integers and the
 * model, whatever n. */
kpca_status kpca_lda_train(const double *x, size_t ld, size_t dim, const int *y, const size_t *rows, size_t n,
                           kpca_classifier *out, kpca_error *err);

/* kpca_lda_train with `block` rows of deviations at a time (0: the
 * default); the classifier is the same up to the rounding of the sums. */
kpca_status kpca_lda_train_blocks(const double *x, size_t ld, size_t dim, const int *y, const size_t *rows, size_t n,
                                  size_t block, kpca_classifier *out, kpca_error *err);

#endif
