/* eval.h - test error of the classifiers of classifier.h on every
 * requested prefix of the features (the first k components), with C chosen
 * by cross-validation on the training features when asked.  The one place
 * that picks the classifier kind: LDA (lda.h) or the SVMs (svmtrain.h). */
#ifndef KPCA_EVAL_H
#define KPCA_EVAL_H

#include <stdint.h>

#include "classify/classifier.h"
#include "support/precision.h"

/* What to evaluate: the classifier kind, the scaling of the features (for
 * either kind), and for the SVMs their parameters and the candidate values
 * of C.  LDA reads classifier and scale only; the other fields are neither
 * used nor checked for it. */
typedef struct {
    kpca_classifier_kind classifier;
    kpca_scale scale;
    const double *costs;      /* candidate C values chosen among by cross-validation */
    size_t ncost;             /* 0: svm.C; 1: costs[0]; >= 2: cross-validation */
    int folds;                /* cross-validation folds, >= 2 (default 5) */
    kpca_svm_params svm;      /* svm.C is ignored when ncost >= 1 */
    kpca_precision precision; /* SVMs, GRAM backend: SINGLE grows the Gram matrix in
                               * binary32 (SGEMM on the features rounded; half the
                               * memory); LIBSVM gets its entries widened to double */
} kpca_eval_params;

/* SVM, NORM scaling, no costs, 5 folds, kpca_svm_defaults(), double. */
kpca_eval_params kpca_eval_defaults(void);
/* KPCA_EUSAGE, with the reason, for a parameter out of its range (for the
 * SVM kind: kpca_svm_check too). */
kpca_status kpca_eval_check(const kpca_eval_params *p, kpca_error *err);

/* What kpca_eval allocates besides its inputs: an estimate in bytes of the
 * parts that grow with the points.  n training and t test points, d
 * features, K the widest prefix, P prefixes, s the points of the largest
 * binary SVM problem (one-vs-one: the two largest classes; one-vs-rest:
 * n), C LIBSVM's kernel cache (svm.cache_mb):
 *   fixed, held throughout:
 *     gram backend: the Gram matrix and the features in its order,
 *       8 (kpca_gram_striped_len(n) + n d) (4 with --precision single);
 *       one-vs-rest, the node rows every machine shares, 16 n (n + 2)
 *     sparse backend, one-vs-rest: the shared node rows, 16 n (K + 1)
 *     liblinear backend: LIBLINEAR's rows, 16 n (K + 2)
 *     LDA: 8 K (2 K + kpca_lda_block_rows(n, K))
 *     STD scaling: the scaled copies, 8 (n + t) d
 *     with pred: the np x t predicted labels, 4 P t
 *     always: the indices, classes and folds of the points, 48 n
 *   worker, held by each SVM worker thread (gram and sparse backends):
 *     one-vs-one, its problem's node rows, 16 s (s + 2) (gram) or
 *     16 s (K + 1) (sparse); LIBSVM's kernel cache, min(C, 4 s^2)
 * kpca_eval refuses (KPCA_ENOMEM) what needs more than the budget with
 * one worker, fixed + worker, and starts no more workers than the budget
 * holds (the table does not depend on their number). */
typedef struct {
    double fixed, worker;
    size_t largest; /* s */
    char what[112]; /* its largest part, in words, for a message */
} kpca_eval_memory;

/* The estimate for p, the n training labels y, t test points, d features,
 * the np prefixes and, with pred, the predicted labels kept.  O(n) time,
 * O(classes) memory.  KPCA_ENOMEM (for the classes) or KPCA_OK. */
kpca_status kpca_eval_memory_need(const kpca_eval_params *p, const int *y, size_t n, size_t t, size_t d,
                                  const size_t *prefixes, size_t np, int pred, kpca_eval_memory *m,
                                  kpca_error *err);

/* The seed of kpca_eval's cross-validation folds ("kpca"). */
#define KPCA_CV_SEED UINT64_C(0x6b706361)

/* Cross-validation folds of n points: the positions 0..n-1 shuffled by
 * kpca_rng_shuffle (rng.h) from `seed`, then dealt round: the point at
 * place j of the shuffle goes to fold j % folds.  fold[i] in 0..folds-1;
 * every fold holds floor(n / folds) or that + 1 points.  perm: n entries of
 * scratch, fold: n entries, both caller-owned; folds >= 1.  O(n); no
 * allocation, no failure. */
void kpca_cv_folds(size_t n, int folds, uint64_t seed, size_t *perm, int *fold);

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
 * For the SVMs with p->ncost >= 2, each prefix first picks its C among
 * p->costs by p->folds-fold cross-validation on the training features
 * alone (kpca_cv_folds with KPCA_CV_SEED; the smallest C wins ties), then
 * trains on all training features with it.  The test set is never looked
 * at.  ytest may be NULL (test points without labels): every row then
 * counts 0 errors of ntest, and only the predictions (kpca_eval_pred) say
 * anything of the test set.
 * Memory: kpca_eval_memory_need's estimate, checked against the
 * budget (KPCA_ENOMEM, the sizes named, before anything large is
 * allocated); the SVM workers are as many as p->svm.threads asks and the
 * budget holds. */
kpca_status kpca_eval(const double *xtrain, const int *ytrain, size_t ntrain, const double *xtest,
                      const int *ytest, size_t ntest, size_t dim, const size_t *prefixes, size_t np,
                      const kpca_eval_params *p, kpca_eval_row *rows, kpca_error *err);

/* kpca_eval that also hands back each test point's predicted label: with
 * pred != NULL (caller-owned, np x ntest ints), pred[i * ntest + j] is the
 * label predicted for test point j by the classifier of prefixes[i] (the
 * ones kpca_eval counts errors with).  pred == NULL is kpca_eval.  Nothing
 * more is allocated; on an error pred's contents are unspecified. */
kpca_status kpca_eval_pred(const double *xtrain, const int *ytrain, size_t ntrain, const double *xtest,
                           const int *ytest, size_t ntest, size_t dim, const size_t *prefixes, size_t np,
                           const kpca_eval_params *p, kpca_eval_row *rows, int *pred, kpca_error *err);

#endif
