/* svmtrain.h - training the linear SVMs of classifier.h with LIBSVM: one
 * binary C-SVC per pair of classes (OVO) or per class (OVR), trained in
 * worker threads, each collapsed to w.x + b. */
#ifndef KPCA_SVMTRAIN_H
#define KPCA_SVMTRAIN_H

#include "classifier.h"

/* Trains on the first `dim` columns of x (n rows, stride ld), with the
 * SPARSE backend or, for GRAM, from the Gram matrix g (n x n, both triangles
 * filled) of those columns.  `factor` multiplies every kernel value (the NORM
 * scaling); the returned weights apply to the unscaled columns. */
kpca_status kpca_classifier_train(const double *x, size_t n, size_t ld, size_t dim, const int *y,
                                  const double *g, double factor, const kpca_svm_params *p,
                                  kpca_classifier *out, kpca_error *err);

/* Trains (SVM or LDA, as p->classifier says) on the rows rows[0..n-1] of x
 * (stride ld, first dim columns), y and, for the GRAM backend, g (leading
 * dimension ldg; training row r sits at row and column gpos[r] of g, or r
 * when gpos is NULL); all n rows when rows is NULL. */
kpca_status kpca_classifier_train_rows(const double *x, size_t ld, size_t dim, const int *y, const double *g,
                                       size_t ldg, const size_t *gpos, const size_t *rows, size_t n, double factor,
                                       const kpca_svm_params *p, kpca_classifier *out, kpca_error *err);

#endif
