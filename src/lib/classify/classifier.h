/* classifier.h - linear multi-class classifiers: their kinds, the SVMs'
 * parameters, the trained model (w, b per binary machine) and prediction.
 * Training: svmtrain.h (the SVMs, with LIBSVM) and lda.h; evaluation over
 * feature prefixes, which picks the kind and the scaling: eval.h.
 *
 * The SVM is a multi-class C-SVC with the linear kernel.  Multi-class schemes:
 *   OVO  LIBSVM's one-vs-one: a machine per pair of classes, majority vote,
 *        ties to the class seen first in the training labels (as svm-predict);
 *   OVR  one-vs-rest: a machine per class, the largest decision value wins.
 * Backends (same mathematics, different arithmetic):
 *   GRAM    LIBSVM with a precomputed linear kernel built by BLAS (DSYRK),
 *           grown from one prefix to the next;
 *   SPARSE  LIBSVM's own linear kernel on svm_node vectors (the reference;
 *           identical to Debian's svm-train -t 0 on the same features);
 *   LIBLINEAR  LIBLINEAR's dual coordinate descent (liblin.h): the same
 *           hinge-loss objective but with a regularised bias, so slightly
 *           different machines; no kernel matrix, much faster.
 * Scaling (one rule for every prefix, computed on training features only;
 * applied by eval.h to the features of every classifier kind):
 *   NONE  raw components;
 *   NORM  all components divided by one factor so that the training
 *         features' mean squared norm is 1 (equivalent to rescaling C);
 *   STD   each component divided by its training standard deviation.
 * Every binary machine is collapsed to w.x + b, so prediction is one GEMM.
 */
#ifndef KPCA_CLASSIFIER_H
#define KPCA_CLASSIFIER_H

#include <stddef.h>

#include "support/error.h"

typedef enum { KPCA_MC_OVO = 0, KPCA_MC_OVR } kpca_multiclass;
typedef enum { KPCA_SVM_GRAM = 0, KPCA_SVM_SPARSE, KPCA_SVM_LIBLINEAR } kpca_svm_backend;
typedef enum { KPCA_SCALE_NONE = 0, KPCA_SCALE_NORM, KPCA_SCALE_STD } kpca_scale;
/* SVM: the soft-margin linear SVMs above.  LDA: a Gaussian class-conditional
 * classifier with one pooled covariance (MATLAB's `classify`, 'linear'):
 * class means mu_c, pooled within-class covariance S (divided by n - classes),
 * priors n_c/n; decision_c(x) = x.S^-1 mu_c - mu_c.S^-1 mu_c / 2 + log prior.
 * When S is not positive definite (more components than the data support),
 * S + eps (trace S / k) I is used with the smallest eps in 1e-12, 1e-11, ...,
 * 1e-1 for which the Cholesky factorisation succeeds and its reciprocal
 * condition number (dpocon) is at least k * DBL_EPSILON: rounding can let an
 * exactly singular S factor with a tiny pivot (reported as `ridge`).
 * The kind is an evaluation's choice (kpca_eval_params, eval.h), which
 * trains with lda.h or svmtrain.h accordingly. */
typedef enum { KPCA_CLF_SVM = 0, KPCA_CLF_LDA } kpca_classifier_kind;

/* The SVMs' parameters (KPCA_CLF_SVM); nothing here concerns LDA. */
typedef struct {
    double C;                 /* > 0 */
    kpca_multiclass scheme;
    kpca_svm_backend backend;
    double eps;               /* LIBSVM stopping tolerance (default 1e-3) */
    double cache_mb;          /* LIBSVM kernel cache, MB, per thread */
    int threads;              /* binary machines trained at once; 0: one per online CPU.
                                 The result does not depend on it. */
} kpca_svm_params;

/* C = 1, OVO, GRAM, eps 1e-3, cache 200 MB, threads 0. */
kpca_svm_params kpca_svm_defaults(void);
/* KPCA_EUSAGE, with the reason, for a parameter out of its range. */
kpca_status kpca_svm_check(const kpca_svm_params *p, kpca_error *err);

const char *kpca_multiclass_name(kpca_multiclass m);
int kpca_multiclass_parse(const char *s, kpca_multiclass *out);
const char *kpca_scale_name(kpca_scale s);
int kpca_scale_parse(const char *s, kpca_scale *out);
const char *kpca_backend_name(kpca_svm_backend b);
int kpca_backend_parse(const char *s, kpca_svm_backend *out);
const char *kpca_classifier_name(kpca_classifier_kind k);
int kpca_classifier_parse(const char *s, kpca_classifier_kind *out);

/* A trained linear multi-class classifier: decision_j(x) = w_j.x + b_j. */
typedef struct {
    size_t nclass, nmach, dim;
    int *labels;  /* nclass class labels, in order of first appearance */
    int *pos;     /* nmach: class index of the positive side */
    int *neg;     /* nmach: class index of the negative side, -1 for "rest" */
    double *w;    /* nmach x dim */
    double *b;    /* nmach */
    size_t nsv;   /* support vectors over all machines (SVM) */
    double ridge; /* eps added to the pooled covariance (LDA), else 0 */
    double sec_solver; /* SVM: seconds spent inside LIBSVM's svm_train, summed
                          over the machines (thread-seconds) */
} kpca_classifier;

void kpca_classifier_free(kpca_classifier *c);

/* The classes of the points y[rows[i]] (rows NULL: y[i]), i < n, in order of
 * first appearance (LIBSVM's order, which its one-vs-one votes break ties
 * by): labels[0..nclass-1] receives the class labels, cls[i] point i's
 * class index; both hold n entries, caller-owned.  Returns nclass.  O(n
 * nclass). */
size_t kpca_class_index(const int *y, const size_t *rows, size_t n, int *labels, int *cls);

/* Predicts labels for n points (rows of x with stride ld >= c->dim), by
 * one DGEMM per KPCA_PREDICT_BLOCK points: memory KPCA_PREDICT_BLOCK x
 * nmach doubles. */
#define KPCA_PREDICT_BLOCK 1024
kpca_status kpca_classifier_predict(const kpca_classifier *c, const double *x, size_t n, size_t ld, int *pred,
                                    kpca_error *err);

#endif
