/* kernel.h - kernel functions and kernel matrices, computed through BLAS.
 *
 * The polynomial kernel k(x, y) = (gamma x.y + coef0)^degree is an
 * elementwise function of the Gram matrix X X^T, so every kernel matrix is
 * one DSYRK/DGEMM followed by kpca_kernel_apply.  The *_ref functions are
 * plain loops over kpca_kernel_eval, kept for the tests.
 */
#ifndef KPCA_KERNEL_H
#define KPCA_KERNEL_H

#include <stddef.h>

#include "error.h"

typedef enum { KPCA_KERNEL_POLY = 0 } kpca_kernel_type;

typedef struct {
    kpca_kernel_type type;
    int degree;   /* 1..KPCA_MAX_DEGREE */
    double gamma; /* > 0 */
    double coef0; /* >= 0 keeps the kernel positive semi-definite */
} kpca_kernel;

#define KPCA_MAX_DEGREE 20

/* The paper's kernel (x.y)^degree. */
kpca_kernel kpca_kernel_poly(int degree);

/* Checks the parameters; returns KPCA_EUSAGE with a message if invalid. */
kpca_status kpca_kernel_check(const kpca_kernel *k, kpca_error *err);

/* k(a, b) by definition (reference). */
double kpca_kernel_eval(const kpca_kernel *k, const double *a, const double *b, size_t dim);

/* Replaces each dot product g[i] (i < n) by the kernel value. */
void kpca_kernel_apply(const kpca_kernel *k, double *g, size_t n);

/* K = k(X, X), the full symmetric m x m matrix (row-major), X m x dim. */
void kpca_kernel_gram(const kpca_kernel *k, const double *x, size_t m, size_t dim, double *K);

/* out (na x nb, row-major) = k(A, B); A na x dim, B nb x dim. */
void kpca_kernel_cross(const kpca_kernel *k, const double *a, size_t na, const double *b, size_t nb,
                       size_t dim, double *out);

/* Reference versions with plain loops. */
void kpca_kernel_gram_ref(const kpca_kernel *k, const double *x, size_t m, size_t dim, double *K);
void kpca_kernel_cross_ref(const kpca_kernel *k, const double *a, size_t na, const double *b, size_t nb,
                           size_t dim, double *out);

/* Centring in feature space (paper, appendix A).
 * kpca_center_fit: K (m x m, symmetric) becomes K - 1K - K1 + 1K1 in place;
 * writes the column means of the uncentred K to colmean (m) and their mean
 * to *grand.  kpca_center_cross: each row r of Kt (n x m, kernel values
 * between n points and the m fit points) becomes
 * Kt[r][i] - colmean[i] - mean(Kt[r]) + grand. */
void kpca_center_fit(double *K, size_t m, double *colmean, double *grand);
void kpca_center_cross(double *Kt, size_t n, size_t m, const double *colmean, double grand);

#endif
