/* kernel.h - kernel functions and kernel matrices.
 *
 * Kernels:
 *   poly        (gamma x.y + coef0)^degree   the paper's is gamma 1, coef0 0
 *   rbf         exp(-|x - y|^2 / (2 sigma^2))
 *   sigmoid     tanh(gamma x.y + coef0)      not positive semi-definite in
 *                                            general: kernel PCA keeps only the
 *                                            positive eigenvalues (model.h)
 *   linear      x.y                          kernel PCA = PCA
 *   laplacian   exp(-gamma |x - y|_1)        |.|_1 the sum of |x_i - y_i|
 *   cosine      x.y / (|x| |y|)              0 when x or y is zero
 *   chi2        exp(-gamma sum_i (x_i - y_i)^2 / (x_i + y_i))
 *                                            non-negative data only
 *                                            (kpca_kernel_check_data); a term
 *                                            with x_i + y_i = 0 counts 0
 *   precomputed the caller's kernel values    no function of points: a point
 *                                            is its row of kernel values
 *                                            against the M points of a kernel
 *                                            matrix GRAM (kpca_kernel_gather)
 * laplacian, cosine and chi2 are scikit-learn's laplacian_kernel,
 * cosine_similarity and chi2_kernel (sklearn.metrics.pairwise).
 *
 * How the matrices are computed.  poly, sigmoid, linear, rbf and cosine are
 * elementwise functions of the Gram matrix X X^T and its diagonal (rbf
 * through |x - y|^2 = |x|^2 + |y|^2 - 2 x.y, cosine through x.y / (|x| |y|)),
 * so each of their kernel matrices is one DSYRK/DGEMM followed by an
 * elementwise pass.  laplacian and chi2 are sums over the coordinates of
 * terms that no product gives: their matrices are evaluated directly,
 * O(na nb dim) work, in tiles of rows of both sides that stay in the cache,
 * the row tiles shared among threads (as many as OpenBLAS would use:
 * OPENBLAS_NUM_THREADS when set, else one per online CPU, at most
 * KPCA_PARTS_MAX; one for small matrices).  precomputed has no kernel
 * function: kpca_kernel_eval, _gram and _cross write NaN for it.  The *_ref
 * functions are plain loops over kpca_kernel_eval, kept for the tests.
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
    KPCA_KERNEL_LAPLACIAN,
    KPCA_KERNEL_COSINE,
    KPCA_KERNEL_CHI2,
    KPCA_KERNEL_PRECOMPUTED,
} kpca_kernel_type;

typedef struct {
    kpca_kernel_type type;
    int degree;   /* poly: 1..KPCA_MAX_DEGREE; 1 for the others */
    double gamma; /* poly, sigmoid, laplacian, chi2: > 0; 1 for the others */
    double coef0; /* poly: >= 0 (keeps it positive semi-definite); sigmoid: any */
    double sigma; /* rbf: > 0 */
} kpca_kernel;

#define KPCA_MAX_DEGREE 20

/* chi2's default gamma, scikit-learn's (chi2_kernel).  laplacian's default,
 * 1 / dim, depends on the data: the caller sets it (kpca fit). */
#define KPCA_CHI2_DEFAULT_GAMMA 1.0

/* The paper's kernel (x.y)^degree. */
kpca_kernel kpca_kernel_poly(int degree);
/* exp(-|x - y|^2 / (2 sigma^2)), tanh(gamma x.y + coef0), x.y */
kpca_kernel kpca_kernel_rbf(double sigma);
kpca_kernel kpca_kernel_sigmoid(double gamma, double coef0);
kpca_kernel kpca_kernel_linear(void);
/* exp(-gamma |x - y|_1), x.y / (|x| |y|), exp(-gamma sum (x_i - y_i)^2 / (x_i + y_i)) */
kpca_kernel kpca_kernel_laplacian(double gamma);
kpca_kernel kpca_kernel_cosine(void);
kpca_kernel kpca_kernel_chi2(double gamma);
/* the caller's kernel matrix (kpca_kernel_gather) */
kpca_kernel kpca_kernel_precomputed(void);

/* "poly", "rbf", "sigmoid", "linear", "laplacian", "cosine", "chi2",
 * "precomputed"; parse returns -1 for other names. */
const char *kpca_kernel_name(kpca_kernel_type t);
int kpca_kernel_parse(const char *name, kpca_kernel_type *out);

/* The kernel as a formula with its parameters, e.g. "(1 x.y + 0)^3",
 * "exp(-|x-y|^2 / (2 * 6.5^2))", "exp(-0.5 |x-y|_1)"; "precomputed" for the
 * caller's kernel matrix; returns buf. */
char *kpca_kernel_describe(const kpca_kernel *k, char *buf, size_t cap);

/* The default rbf width for the m x dim points x: sigma^2 = the total
 * variance of the points (sum over coordinates of the population variance),
 * which is half the mean of |x_i - x_j|^2 over all pairs, so that a typical
 * pair has k(x_i, x_j) = exp(-1).  1 when the points all coincide.
 * Values near DBL_MAX, whose squares overflow, get their true spread
 * (computed in units of each column's largest value); +inf only where that
 * spread itself is beyond DBL_MAX. */
double kpca_kernel_default_sigma(const double *x, size_t m, size_t dim);

/* Checks the parameters; returns KPCA_EUSAGE with a message if invalid. */
kpca_status kpca_kernel_check(const kpca_kernel *k, kpca_error *err);
/* The same, naming the parameter at fault in *param ("degree", "gamma",
 * "coef0", "sigma"; NULL when all are valid).  Only the parameters the
 * kernel has are checked (cosine, linear and precomputed have none). */
kpca_status kpca_kernel_check_param(const kpca_kernel *k, const char **param, kpca_error *err);

/* What the kernel asks of the data besides finite values: chi2 needs
 * non-negative ones.  KPCA_OK, or KPCA_EFORMAT naming the first negative
 * value of the n x dim points x (row-major) by its 1-based row and column
 * (of the values, not counting a label column): "the chi2 kernel needs
 * non-negative values: row 3, column 7 of the values is -0.5".  Every other kernel: KPCA_OK.  O(n dim) for chi2,
 * O(1) otherwise; no allocation. */
kpca_status kpca_kernel_check_data(const kpca_kernel *k, const double *x, size_t n, size_t dim, kpca_error *err);
/* The same for rows of a larger set, x's first row being row row0 (0-based)
 * of it: the message numbers the row in the set (a block of a file read
 * a block at a time). */
kpca_status kpca_kernel_check_rows(const kpca_kernel *k, const double *x, size_t n, size_t dim, size_t row0,
                                   kpca_error *err);

/* k(a, b) by definition (reference); NaN for precomputed. */
double kpca_kernel_eval(const kpca_kernel *k, const double *a, const double *b, size_t dim);
/* A dot-product kernel (poly, sigmoid, linear) as a function f of s = x.y:
 * returns f(s) and writes f'(s) into *df - the one derivative of a kernel,
 * for the pre-image iteration (preimage.c) and the reduced-set gradient
 * (reduce.c).  poly: v = gamma s + coef0, p = v^(degree - 1) multiplied out
 * left to right (v v ... v: exact for degree <= 2, cheaper than pow), f = p v,
 * f' = degree gamma p (f may differ in the last bit from kpca_kernel_eval's
 * repeated squaring for degree >= 4); sigmoid: t = tanh(v),
 * f' = gamma (1 - t^2).  Not for the other kernels, which are no functions
 * of x.y alone (it returns s and f' = 1, as for linear).  Pure, O(1). */
double kpca_kernel_of_dot(const kpca_kernel *k, double s, double *df);

/* Replaces each dot product g[i] (i < n) by the kernel value.  Only for the
 * dot-product kernels (poly, sigmoid, linear): rbf and cosine also need the
 * norms; laplacian, chi2 and precomputed are no functions of x.y (g is then
 * left as it is). */
void kpca_kernel_apply(const kpca_kernel *k, double *g, size_t n);

/* K = k(X, X), the full symmetric m x m matrix (row-major), X m x dim:
 * exactly symmetric, the diagonal of rbf, laplacian and chi2 (and of cosine
 * for non-zero points) exactly 1.  Cost: m^2 dim flops in BLAS (DGEMM) and
 * an elementwise pass, or m^2 dim / 2 direct terms (laplacian, chi2: threads,
 * see above).  NaN for precomputed.  Cannot fail: an allocation that fails
 * (threads, rbf's and cosine's norms in kpca_kernel_cross) falls back to one
 * thread or to the reference loops. */
void kpca_kernel_gram(const kpca_kernel *k, const double *x, size_t m, size_t dim, double *K);

/* out (na x nb, row-major) = k(A, B); A na x dim, B nb x dim.  Cost as
 * kpca_kernel_gram's, na nb dim; NaN for precomputed. */
void kpca_kernel_cross(const kpca_kernel *k, const double *a, size_t na, const double *b, size_t nb,
                       size_t dim, double *out);

/* The precomputed kernel's rows: out (n x m, row-major) = the columns
 * idx[0..m-1] (each < M) of the n x M kernel values g (row-major): k(x_r,
 * model point j) = g[r][idx[j]].  O(n m), no allocation. */
void kpca_kernel_gather(const double *g, size_t n, size_t M, const size_t *idx, size_t m, double *out);

/* The check of a precomputed kernel matrix K (rows x cols, row-major):
 * square, finite, and symmetric within a relative tolerance, |K_ij - K_ji|
 * <= tol max |K|.  KPCA_OK, or KPCA_EFORMAT with the first fault found, in
 * that order: "a precomputed kernel matrix is square (M x M): this one is 5
 * x 6", "row 3, column 7 is not finite (nan)", "not symmetric within
 * 1e-06: row 2, column 9 is 0.5 but row 9, column 2 is 0.25 (a difference
 * of 0.5 times the largest |value| 0.5)" - the largest asymmetry, 1-based.
 * O(rows cols), no allocation. */
#define KPCA_PRECOMPUTED_SYMMETRY_TOL 1e-6
kpca_status kpca_kernel_check_matrix(const double *K, size_t rows, size_t cols, double tol, kpca_error *err);

/* K (n x n, row-major) = (K + K^T) / 2 in place: exactly symmetric, as the
 * eigensolvers read one triangle.  O(n^2), cannot fail. */
void kpca_kernel_symmetrize(double *K, size_t n);

/* The check every kernel matrix gets before it is used: KPCA_OK when the n
 * kernel values v (any layout, n may be 0) are all finite; otherwise
 * KPCA_ENUMERIC with "kernel value overflow: <the kernel, as
 * kpca_kernel_describe writes it> is too large for the data's scale" (a
 * polynomial of high degree or a small sigma on unscaled data).  Reads v
 * only, stops at the first non-finite value: O(n), no allocation. */
kpca_status kpca_kernel_check_finite(const kpca_kernel *k, const double *v, size_t n, kpca_error *err);

/* Reference versions with plain loops over kpca_kernel_eval. */
void kpca_kernel_gram_ref(const kpca_kernel *k, const double *x, size_t m, size_t dim, double *K);
void kpca_kernel_cross_ref(const kpca_kernel *k, const double *a, size_t na, const double *b, size_t nb,
                           size_t dim, double *out);

#endif
