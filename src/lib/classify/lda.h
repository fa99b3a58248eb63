/* lda.h - the Gaussian linear classifier with one pooled covariance
 * (KPCA_CLF_LDA in classifier.h): training. */
#ifndef KPCA_LDA_H
#define KPCA_LDA_H

#include "classify/classifier.h"

/* Trains LDA on rows rows[0..n-1] (all when NULL) of x (stride ld), the
 * first dim columns, labels y indexed like x. */
kpca_status kpca_lda_train(const double *x, size_t ld, size_t dim, const int *y, const size_t *rows, size_t n,
                           kpca_classifier *out, kpca_error *err);

#endif
