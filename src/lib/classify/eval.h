/* eval.h - test error of the classifiers of classifier.h on every
 * requested prefix of the features (the first k components), with C chosen
 * by cross-validation on the training features when asked. */
#ifndef KPCA_EVAL_H
#define KPCA_EVAL_H

#include "classify/classifier.h"

typedef struct {
    size_t components;
    size_t errors, total;
    double error_pct;
    double C;                 /* the C used (chosen by cross-validation if asked) */
    double cv_error_pct;      /* its cross-validation error on TRAIN; -1 without CV */
    double ridge;             /* LDA's covariance regularisation eps (0: none) */
    size_t nsv;
    double sec_train, sec_predict;
    double sec_gram;          /* growing the Gram matrix to this prefix (0 when an earlier row did) */
    double sec_solver;        /* of sec_train, thread-seconds inside LIBSVM's svm_train */
} kpca_eval_row;

/* Trains and tests for each of the np prefixes (each 1..dim, any order);
 * rows[i] answers prefixes[i].  Train and test must have the same dim.
 * With p->ncost >= 2, each prefix first picks its C among p->costs by
 * p->folds-fold cross-validation on the training features alone (folds by
 * a fixed seeded shuffle; the smallest C wins ties), then trains on all
 * training features with it.  The test set is never looked at. */
kpca_status kpca_eval(const double *xtrain, const int *ytrain, size_t ntrain, const double *xtest,
                      const int *ytest, size_t ntest, size_t dim, const size_t *prefixes, size_t np,
                      const kpca_svm_params *p, kpca_eval_row *rows, kpca_error *err);

/* kpca_eval that also hands back each test point's predicted label: with
 * pred != NULL (caller-owned, np x ntest ints), pred[i * ntest + j] is the
 * label predicted for test point j by the classifier of prefixes[i] (the
 * ones kpca_eval counts errors with).  pred == NULL is kpca_eval.  Nothing
 * more is allocated; on an error pred's contents are unspecified. */
kpca_status kpca_eval_pred(const double *xtrain, const int *ytrain, size_t ntrain, const double *xtest,
                           const int *ytest, size_t ntest, size_t dim, const size_t *prefixes, size_t np,
                           const kpca_svm_params *p, kpca_eval_row *rows, int *pred, kpca_error *err);

#endif
