/* nystrom.h - Nyström kernel PCA (kpca fit --solver nystrom).
 *
 * Williams & Seeger 2001: with l landmarks z_1..z_l, the explicit feature
 * map phi(x) = Lambda^{-1/2} U^T k_L(x), k_L(x) = (k(z_j, x))_j and
 * K_LL = U Lambda U^T, has phi(x).phi(y) = k_L(x)^T K_LL^+ k_L(y), the
 * projection of k onto the span of the landmarks' feature vectors.  Linear
 * PCA of the n centred phi(x_i) is then kernel PCA of that approximate
 * kernel: O(n l^2 + l^3) work and O(n l) memory instead of O(n^2 m).
 *
 * A Nyström model (centring NYSTROM, model.h) keeps the landmarks as its m
 * points, the centring folded into alpha = A and colmean = kbar below: a
 * point projects to z = alpha (k_L(x) - kbar).  The landmarks come from
 * landmark.h (uniform rows or k-means centres).
 */
#ifndef KPCA_NYSTROM_H
#define KPCA_NYSTROM_H

#include <stddef.h>

#include "core/model.h"
#include "io/dataset.h"
#include "support/error.h"

/* ---- the reduction: every Nyström fit is made of these ----------------------
 *
 * A fit is a sum over its rows taken a block at a time.  The landmark basis
 * W turns a block's kernel rows k_L(x) into features phi(x) = W k_L(x); an
 * accumulator keeps the rows' count, the mean of their k_L(x) (kbar), the
 * mean of their features and the centred r x r scatter M2 = sum (phi -
 * mean)(phi - mean)^T.  A block is centred by its own means and merged into
 * the running totals by the pairwise update of Chan, Golub & LeVeque
 * (1979): for counts na, nb, means ma, mb and scatters Ma, Mb, with
 * n = na + nb and d = mb - ma,
 *     mean = ma + d nb / n,    M2 = Ma + Mb + d d^T na nb / n,
 * so that no raw sum of squares is formed and the centring loses no digits
 * however many rows there are.  Two accumulators (MPI ranks, the partial
 * files of kpca merge) merge the same way: the numbers do not depend on how
 * the rows were split, up to rounding.  kpca_nys_finish turns an
 * accumulator into the model's numbers, and a second pass over the rows
 * (kpca_nys_signs_*) signs the components. */

/* The landmark basis: K_LL = U Lambda U^T, its r eigenpairs with
 * lambda > tol * lambda_1 kept (tol < 0: l * DBL_EPSILON, a pseudo-inverse's
 * cut-off), W = Lambda_r^{-1/2} U_r^T (r x l, row-major): phi(x) = W k_L(x),
 * and phi(x).phi(y) = k_L(x)^T K_LL^+ k_L(y). */
typedef struct {
    size_t l, r;
    double tol; /* the tolerance used (the default resolved) */
    double *w;  /* r x l (owned) */
} kpca_nys_basis;

/* The basis of kll = K_LL (l x l, symmetric, both triangles; not modified).
 * Cost: one eigendecomposition (kpca_eig_top), about 3 l^2 doubles while it
 * runs.  Errors: KPCA_EUSAGE for l == 0 or l beyond BLAS's int;
 * KPCA_ENUMERIC when K_LL has no positive eigenvalue or LAPACK fails;
 * KPCA_ENOMEM.  *b is empty after a failure; kpca_nys_basis_free frees it
 * (safe on an empty or zeroed one). */
kpca_status kpca_nys_basis_make(const double *kll, size_t l, double tol, kpca_nys_basis *b, kpca_error *err);
void kpca_nys_basis_free(kpca_nys_basis *b);

/* The running totals of a set of rows. */
typedef struct {
    size_t l, r;
    size_t n;      /* rows added */
    double *kbar;  /* l: the mean of their k_L(x) */
    double *mean;  /* r: the mean of their features */
    double *m2;    /* r x r: the centred scatter, upper triangle (i <= j) set */
    double lo, hi; /* the smallest and largest input value of the rows
                    * (kpca_nys_acc_range; +inf and -inf while none) */
    /* scratch of kpca_nys_acc_add, kept for the next block */
    double *phi, *bkbar, *bmean, *bm2;
    size_t cap; /* rows phi holds */
} kpca_nys_acc;

/* An empty accumulator for l landmarks and r features: 2 r^2 + 2 (l + r)
 * doubles.  KPCA_ENOMEM (then *a is empty); kpca_nys_acc_free frees it
 * (safe on an empty or zeroed one). */
kpca_status kpca_nys_acc_init(kpca_nys_acc *a, size_t l, size_t r, kpca_error *err);
void kpca_nys_acc_free(kpca_nys_acc *a);

/* Adds `rows` rows by their kernel rows kx (rows x l, row-major; not
 * modified): phi = kx W^T (DGEMM), the block's means and centred scatter
 * (DSYRK), merged into *a by the pairwise update.  rows == 0 does nothing.
 * Cost: 2 rows l r + rows r^2 flops; rows x r doubles of scratch (kept).
 * Errors: KPCA_EUSAGE for rows beyond BLAS's int, KPCA_ENOMEM; *a is as it
 * was after a failure. */
kpca_status kpca_nys_acc_add(kpca_nys_acc *a, const kpca_nys_basis *b, const double *kx, size_t rows,
                             kpca_error *err);

/* Widens *a's value range to hold [lo, hi]. */
void kpca_nys_acc_range(kpca_nys_acc *a, double lo, double hi);

/* Merges `from` into `into` (the same l and r), `from` holding the later
 * rows: the pairwise update, O(l + r^2), no allocation.  An empty side
 * leaves the other as it is. */
void kpca_nys_acc_merge(kpca_nys_acc *into, const kpca_nys_acc *from);

/* An accumulator as kpca_nys_acc_packed(l, r) doubles: l, r, n, lo, hi,
 * kbar (l), mean (r), the upper triangle of M2 row by row (r (r + 1) / 2);
 * for MPI and the partial files.  Unpack is its inverse into an accumulator
 * initialised with the same l and r (KPCA_EFORMAT when the buffer's sizes
 * differ, or its count is not a whole number below 2^53).
 * kpca_nys_packed_merge merges the packed `from` (later rows) into the
 * packed `into` (the same l and r) in place, as kpca_nys_acc_merge does:
 * MPI's reduction operator; 1 when their sizes differ (nothing merged),
 * else 0. */
size_t kpca_nys_acc_packed(size_t l, size_t r);
void kpca_nys_acc_pack(const kpca_nys_acc *a, double *buf);
kpca_status kpca_nys_acc_unpack(kpca_nys_acc *a, const double *buf, kpca_error *err);
int kpca_nys_packed_merge(double *into, const double *from);

/* A finished fit: the model's numbers. */
typedef struct {
    size_t l, r;
    size_t want;      /* components asked for */
    size_t kept;      /* those with S_c above the tolerance (<= want, <= r) */
    double *a;        /* want x l: A = V W, rows >= kept zero (owned) */
    double *evals;    /* want: S_c, descending, zero beyond kept (owned) */
    double *kbar;     /* l: the accumulator's kbar (owned) */
    double trace;     /* trace of the centred approximate kernel matrix: trace(M2) */
    double raw_trace; /* of the uncentred one: trace(M2) + n |mean|^2 */
} kpca_nys_result;

/* From an accumulator of n >= 2 rows: C = M2 (r x r, the approximate
 * kernel's covariance) = V S V^T, its `want` largest pairs (kpca_eig_top),
 * kept while S_c > tol * max(S_1, raw trace) (tol < 0: l * DBL_EPSILON,
 * the rounding noise of the centring, as in kpca_model_fit), A = V W.  The
 * components are not signed yet (kpca_nys_signs_*).  Cost: the r x r
 * eigenproblem, 2 kept r l flops; about 3 r^2 doubles.  Errors: KPCA_EUSAGE
 * for n < 2 or want == 0 (or beyond BLAS's int); KPCA_ENUMERIC when nothing
 * is kept ("all points coincide in feature space") or LAPACK fails;
 * KPCA_ENOMEM.  *res is empty after a failure; kpca_nys_result_free frees
 * it (safe on a zeroed one). */
kpca_status kpca_nys_finish(const kpca_nys_acc *acc, const kpca_nys_basis *b, size_t want, double tol,
                            kpca_nys_result *res, kpca_error *err);
void kpca_nys_result_free(kpca_nys_result *res);

/* The projections z = A (k_L(x) - kbar) of `rows` points by their kernel
 * rows kx (rows x l; centred in place: kx holds k_L(x) - kbar afterwards)
 * into z (rows x ldz, the first res->kept columns written).  2 rows l kept
 * flops, no allocation. */
void kpca_nys_project(const kpca_nys_result *res, double *kx, size_t rows, double *z, size_t ldz);

/* The sign rule of a Nyström model, kept over a pass: each component is
 * signed so that the fit point whose projection has the largest magnitude
 * (the first such in row order) projects positively - kpca_eig_fix_sign's
 * rule on the fit points' projections, without holding them. */
typedef struct {
    size_t k;
    double *best; /* k: the largest |z_c| so far (-1: none yet) */
    double *neg;  /* k: 1 when that z_c is negative, else 0 */
    double *row;  /* k: its row (a whole number) */
} kpca_nys_signs;

/* Room for k components (3 k doubles, one block: best, neg, row follow
 * each other, so kpca_nys_signs_packed(k) doubles from best on are the
 * packed form).  KPCA_ENOMEM; kpca_nys_signs_free (safe on a zeroed one). */
kpca_status kpca_nys_signs_init(kpca_nys_signs *s, size_t k, kpca_error *err);
void kpca_nys_signs_free(kpca_nys_signs *s);
/* The rows row0, row0 + 1, ... with projections z (rows x ldz, the first
 * s->k columns read).  O(rows k). */
void kpca_nys_signs_add(kpca_nys_signs *s, const double *z, size_t rows, size_t ldz, size_t row0);
/* The packed form's size (3 k) and the merge of a packed `from` into a
 * packed `into` (the same k): per component the larger magnitude, on a tie
 * the lower row; MPI's reduction operator. */
size_t kpca_nys_signs_packed(size_t k);
void kpca_nys_signs_packed_merge(double *into, const double *from, size_t k);
/* Negates the rows of res->a whose component's chosen projection is
 * negative; returns how many. */
size_t kpca_nys_signs_apply(const kpca_nys_signs *s, kpca_nys_result *res);

/* Rows per block of the Nyström passes when the caller names none: about
 * KPCA_NYS_BLOCK_BYTES of input rows, kernel rows and features (dim + l + r
 * doubles a row), between 256 and 8192 rows. */
#define KPCA_NYS_BLOCK_BYTES ((size_t)32 << 20)
size_t kpca_nys_block_rows(size_t l, size_t r, size_t dim);

/* Nyström kernel PCA from kernel matrices the caller computed (any kernel):
 * kll = K_LL (l x l, symmetric, both triangles) between the l landmarks,
 * knl = K_nL (n x l, row-major) between the n fit points and the landmarks;
 * neither is modified.  The reduction above in blocks of
 * kpca_nys_block_rows rows: the basis, the accumulator, kpca_nys_finish,
 * then a pass for the projections of the n rows and their signs.
 *
 * The eigenvalues S are those of the centred approximate kernel matrix
 * H K~ H (n x n, K~ = K_nL K_LL^+ K_Ln), on the same scale as exact kernel
 * PCA's mu; Nyström never overestimates them: K~ <= K, so S_c <= mu_c.
 *
 * Outputs (the caller's buffers, sized for k components):
 *   evals  (k)      S_c, descending.
 *   proj   (k x l)  row-major A, and
 *   kbar   (l)      the mean of the rows of K_nL, so that the projection of
 *                   any point x onto component c is z_c(x) = A_c . (k_L(x) - kbar).
 *                   The fit points project to Phi_c v_c, of squared norm S_c
 *                   (like exact kernel PCA's sqrt(mu_c) u_c).
 *   zfit   (n x k)  row-major, those projections of the fit points; may be
 *                   NULL.
 *   *trace          (may be NULL) the trace of the centred approximate kernel
 *                   matrix, |Phi_c|_F^2: the sum of all its eigenvalues, the
 *                   total that the kept ones are a share of.
 *   *kept           the components available, <= min(k, r): those with
 *                   S_c above tol * max(S_1, trace of K~).
 * Entries for components c >= *kept are set to zero.  Sign: the rule of
 * kpca_nys_signs - with l = n landmarks at the fit points this gives
 * exactly kpca_model_fit's components (eig.h's sign rule on u_c).
 *
 * Errors: KPCA_EUSAGE for n < 2, l == 0, k == 0 or sizes beyond BLAS's int;
 * KPCA_ENUMERIC when K_LL has no positive eigenvalue, the centred features
 * are all zero (every point the same in feature space), or LAPACK fails;
 * KPCA_ENOMEM.  Memory besides the inputs and outputs: about 5 l^2 doubles
 * and a block.  evals, proj, kbar and zfit are the caller's, and undefined
 * after a failure. */
kpca_status kpca_nystrom_pca(const double *kll, const double *knl, size_t n, size_t l, size_t k, double tol,
                             double *proj, double *kbar, double *evals, double *zfit, size_t *kept,
                             double *trace, kpca_error *err);

/* kpca_model_fit's Nyström path (call kpca_model_fit, which checks p with
 * kpca_fit_check first: 2 <= p->landmarks <= fit->n, p->components <=
 * p->landmarks): kpca_nystrom_fit_rows (nystream.h) on the rows of fit, a
 * block at a time, one process.  Landmarks (p->landmark_method: uniform
 * rows, labels kept, or kpca_kmeans centres of a uniform sample of
 * min(n, 20 l) rows, labels -1), the basis, a pass accumulating the rows,
 * kpca_nys_finish with p->tol, a pass for the signs.  A precomputed kernel
 * (model.h): the landmarks are uniform fit rows, k_L(x) a row's columns at
 * their indices in GRAM and K_LL the landmarks' rows of it (checked
 * symmetric, KPCA_EFORMAT, and made exactly so; its clearly negative part
 * reported in info->lowest); the model keeps the indices (gram_index), not
 * points.  *model is overwritten: its m points are the l landmarks, alpha
 * the kept rows of A, colmean kbar, centring NYSTROM, fit_n = fit->n; free
 * it with kpca_model_free (already freed on failure).  info (may be NULL)
 * gets the phases' times.  Memory is checked against the budget first
 * (kpca_mem_check of kpca_nys_mem: about 8 (l dim + 6 l^2) bytes and a
 * block, nothing that grows with n besides fit itself).  Errors: those of
 * kpca_mem_check, the landmark choice and kpca_nys_finish; KPCA_ENOMEM. */
kpca_status kpca_nystrom_fit(const kpca_dataset *fit, const kpca_fit_params *p, kpca_model *model,
                             kpca_fit_info *info, kpca_error *err);

/* The centring of a landmark model's kernel rows: each of the n rows of kt
 * (n x l, row-major, k_L(x) of n points) becomes k_L(x) - kbar, kbar (l)
 * the model's colmean.  kpca_model_transform applies it to NYSTROM models
 * and to REDUCED ones, whose z = alpha (k_Z(x) - colmean) has the same form
 * (model.h).  In place, O(n l), cannot fail. */
void kpca_nystrom_centre_rows(double *kt, size_t n, size_t l, const double *kbar);

#endif
