/* kernel.h - kernel functions and kernel matrices, computed through BLAS.
 *
 * Kernels:
 *   poly     (gamma x.y + coef0)^degree   the paper's is gamma 1, coef0 0
 *   rbf      exp(-|x - y|^2 / (2 sigma^2))
 *   sigmoid  tanh(gamma x.y + coef0)      not positive semi-definite in
 *                                         general: kernel PCA keeps only the
 *                                         positive eigenvalues (model.h)
 *   linear   x.y                          kernel PCA = PCA
 * Every kernel is an elementwise function of the Gram matrix X X^T (rbf
 * through |x - y|^2 = |x|^2 + |y|^2 - 2 x.y), so every kernel matrix is one
 * DSYRK/DGEMM followed by an elementwise pass.  The *_ref functions are
 * plain loops over kpca_kernel_eval, kept for the tests.
 */
#ifndef KPCA_KERNEL_H
#define KPCA_KERNEL_H

#include <stddef.h>

#include "support/error.h"

typedef enum {
    KPCA_KERNEL_POLY = 0,
    KPCA_KERNEL_RBF,
    KPCA_KERNEL_SIGMOID,
    KPCA_KERNEL_LINEAR,
} kpca_kernel_type;

typedef struct {
    kpca_kernel_type type;
    int degree;   /* poly: 1..KPCA_MAX_DEGREE; 1 for the others */
    double gamma; /* poly, sigmoid: > 0 */
    double coef0; /* poly: >= 0 (keeps it positive semi-definite); sigmoid: any */
    double sigma; /* rbf: > 0 */
} kpca_kernel;

#define KPCA_MAX_DEGREE 20

/* The paper's kernel (x.y)^degree. */
kpca_kernel kpca_kernel_poly(int degree);
/* exp(-|x - y|^2 / (2 sigma^2)), tanh(gamma x.y + coef0), x.y */
kpca_kernel kpca_kernel_rbf(double sigma);
kpca_kernel kpca_kernel_sigmoid(double gamma, double coef0);
kpca_kernel kpca_kernel_linear(void);

/* "poly", "rbf", "sigmoid", "linear"; parse returns -1 for other names. */
const char *kpca_kernel_name(kpca_kernel_type t);
int kpca_kernel_parse(const char *name, kpca_kernel_type *out);

/* The kernel as a formula with its parameters, e.g. "(1 x.y + 0)^3",
 * "exp(-|x-y|^2 / (2 * 6.5^2))"; returns buf. */
char *kpca_kernel_describe(const kpca_kernel *k, char *buf, size_t cap);

/* The default rbf width for the m x dim points x: sigma^2 = the total
 * variance of the points (sum over coordinates of the population variance),
 * which is half the mean of |x_i - x_j|^2 over all pairs, so that a typical
 * pair has k(x_i, x_j) = exp(-1).  1 when the points all coincide. */
double kpca_kernel_default_sigma(const double *x, size_t m, size_t dim);

/* Checks the parameters; returns KPCA_EUSAGE with a message if invalid. */
kpca_status kpca_kernel_check(const kpca_kernel *k, kpca_error *err);
/* The same, naming the parameter at fault in *param ("degree", "gamma",
 * "coef0", "sigma"; NULL when all are valid). */
kpca_status kpca_kernel_check_param(const kpca_kernel *k, const char **param, kpca_error *err);

/* k(a, b) by definition (reference). */
double kpca_kernel_eval(const kpca_kernel *k, const double *a, const double *b, size_t dim);
/* A dot-product kernel (poly, sigmoid, linear) as a function f of s = x.y:
 * returns f(s) and writes f'(s) into *df - the one derivative of a kernel,
 * for the pre-image iteration (preimage.c) and the reduced-set gradient
 * (reduce.c).  poly: v = gamma s + coef0, p = v^(degree - 1) multiplied out
 * left to right (v v ... v: exact for degree <= 2, cheaper than pow), f = p v,
 * f' = degree gamma p (f may differ in the last bit from kpca_kernel_eval's
 * repeated squaring for degree >= 4); sigmoid: t = tanh(v),
 * f' = gamma (1 - t^2).  Not for rbf, a function of |x - y|
 * (it returns s and f' = 1, as for linear).  Pure, O(1). */
double kpca_kernel_of_dot(const kpca_kernel *k, double s, double *df);

/* Replaces each dot product g[i] (i < n) by the kernel value.  Only for the
 * dot-product kernels (poly, sigmoid, linear): rbf also needs the norms. */
void kpca_kernel_apply(const kpca_kernel *k, double *g, size_t n);

/* K = k(X, X), the full symmetric m x m matrix (row-major), X m x dim. */
void kpca_kernel_gram(const kpca_kernel *k, const double *x, size_t m, size_t dim, double *K);

/* out (na x nb, row-major) = k(A, B); A na x dim, B nb x dim. */
void kpca_kernel_cross(const kpca_kernel *k, const double *a, size_t na, const double *b, size_t nb,
                       size_t dim, double *out);

/* The check every kernel matrix gets before it is used: KPCA_OK when the n
 * kernel values v (any layout, n may be 0) are all finite; otherwise
 * KPCA_ENUMERIC with "kernel value overflow: <the kernel, as
 * kpca_kernel_describe writes it> is too large for the data's scale" (a
 * polynomial of high degree or a small sigma on unscaled data).  Reads v
 * only, stops at the first non-finite value: O(n), no allocation. */
kpca_status kpca_kernel_check_finite(const kpca_kernel *k, const double *v, size_t n, kpca_error *err);

/* Reference versions with plain loops. */
void kpca_kernel_gram_ref(const kpca_kernel *k, const double *x, size_t m, size_t dim, double *K);
void kpca_kernel_cross_ref(const kpca_kernel *k, const double *a, size_t na, const double *b, size_t nb,
                           size_t dim, double *out);

#endif
