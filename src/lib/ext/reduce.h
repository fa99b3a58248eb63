/* reduce.h - reduced-set feature extraction (Schoelkopf, Smola & Mueller
 * 1998, section 4.3, after Burges 1996).
 *
 * A component of a model of the exact or randomized solver is a vector in
 * feature space, V_c = sum_i alpha_ci (Phi(x_i) - Phi_bar) over the M fit
 * points.  Since sum_i a_ci = 0 for a_c = alpha_c - mean(alpha_c), it is
 * V_c = sum_i a_ci Phi(x_i) exactly, and the paper's projection of x is
 *   z_c(x) = <V_c, Phi(x) - Phi_bar> = sum_i a_ci k(x_i, x) - sum_i a_ci colmean_i.
 * The reduced set replaces V_c by V~_c = sum_j beta_cj Phi(z_j) on m << M
 * vectors z_j shared by all components (each with its own beta row) and
 * projects with the same centring, against the same mean Phi_bar:
 *   z~_c(x) = <V~_c, Phi(x) - Phi_bar> = sum_j beta_cj (k(z_j, x) - kbar_j),
 *   kbar_j = mean over the fit points x_i of k(z_j, x_i),
 * so that |z~_c(x) - z_c(x)| <= sqrt(rho_c) |Phi(x) - Phi_bar| (Cauchy-Schwarz)
 * and the fit points' reduced features still have mean zero.  The residual
 *   rho_c = |V_c - V~_c|^2 = a_c' K a_c + beta_c' K_zz beta_c - 2 a_c' K_xz beta_c
 * needs kernel values only; a_c' K a_c = mu_c |alpha_c|^2 (= 1 with the
 * model's normalisation) for an eigenvector of the centred K.
 *
 * Methods:
 *   EIG    the homogeneous quadratic kernel (gamma x.y)^2 only: V_c is the
 *          symmetric matrix S_c = sum_i a_ci x_i x_i' and its eigenvectors
 *          u (eigenvalue l) give V_c = sum l Phi(u) exactly, at most dim
 *          vectors per component.  The m vectors with the largest weighted
 *          l^2 over all components are kept (all of them when there are at
 *          most m: the expansion is then exact and the model has fewer than
 *          m vectors); each component keeps whichever beta has the smaller
 *          residual, its own eigenvalues or the least-squares beta over
 *          all kept vectors.  Unless that is exact, L-BFGS then starts
 *          from these vectors as below, and its result is kept only if its
 *          total residual is smaller.
 *   LBFGS  poly, rbf, linear (any positive semi-definite kernel; the
 *          sigmoid one is refused): z starts at m fit points (a seeded uniform subset) or
 *          at k-means centres of the fit points; for given z the best beta
 *          solves K_zz beta_c = K_zx a_c (Cholesky, with a ridge of 1e-12
 *          trace(K_zz)/m, raised only if K_zz is numerically singular); the
 *          z_j then minimise the weighted sum of the rho_c (beta eliminated)
 *          by libLBFGS (Nocedal's L-BFGS, More-Thuente line search) for at
 *          most max_iter iterations.  The best point evaluated is returned,
 *          so the total residual never exceeds that of the start; with
 *          max_iter = 0 the result is the start with its best beta.
 *   AUTO   EIG for the kernel (gamma x.y)^2 when its expansion is exact
 *          within the m vectors (found after the components' eigenvalues),
 *          LBFGS otherwise: for a budget below the exact count L-BFGS from a
 *          subset of the fit points leaves much less than the eigenvectors.
 * Deterministic: the same model, parameters and seed give the same bytes
 * (for a given BLAS thread count).
 */
#ifndef KPCA_REDUCE_H
#define KPCA_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#include "support/error.h"
#include "core/kernel.h"
#include "core/model.h"

typedef enum { KPCA_REDUCE_AUTO = 0, KPCA_REDUCE_EIG, KPCA_REDUCE_LBFGS } kpca_reduce_method;
typedef enum { KPCA_REDUCE_INIT_SUBSET = 0, KPCA_REDUCE_INIT_KMEANS } kpca_reduce_init;

const char *kpca_reduce_method_name(kpca_reduce_method m);
int kpca_reduce_method_parse(const char *name, kpca_reduce_method *out);
const char *kpca_reduce_init_name(kpca_reduce_init i);
int kpca_reduce_init_parse(const char *name, kpca_reduce_init *out);

typedef struct {
    size_t vectors;            /* m: the reduced-set size, 1..fit points */
    size_t components;         /* the first k components; 0: all the model has */
    kpca_reduce_method method;
    kpca_reduce_init init;     /* LBFGS: where z starts */
    int weight_eigval;         /* minimise sum_c (mu_c / mu_1) rho_c instead of sum_c rho_c */
    size_t max_iter;           /* LBFGS: iterations at most (0: the start with its best beta) */
    uint64_t seed;             /* LBFGS: the subset or the k-means seeding */
} kpca_reduce_params;

#define KPCA_REDUCE_DEFAULT_ITER 20

typedef struct {
    kpca_reduce_method method; /* the one used (AUTO resolved) */
    double rho_start;          /* weighted total residual at the start */
    double rho_final;          /* weighted total residual of the result */
    size_t iters;              /* LBFGS iterations made */
    size_t evals;              /* objective evaluations */
    int lbfgs_status;          /* libLBFGS's return code (LBFGS only) */
    double seconds;
} kpca_reduce_info;

/* Defaults: method AUTO, init SUBSET, equal weights, KPCA_REDUCE_DEFAULT_ITER
 * iterations, seed 1; vectors must be set by the caller. */
kpca_reduce_params kpca_reduce_defaults(void);

/* *out = the reduced model of `full` (centring KPCA_CENTRE_REDUCED, m = the
 * vectors kept, alpha = beta, rho = the residuals; eigenvalues, trace,
 * solver and source copied).  *out is overwritten (free it with
 * kpca_model_free); info may be NULL.
 * Cost: LBFGS, per evaluation O(m M dim + m^2 dim + k m M + m^3/3 + k m^2)
 * flops and memory 8 (3 m M + 3 m^2 + 3 k m + 8 m dim) bytes (checked
 * against the memory budget); EIG, O(k (M dim^2 + dim^3)) flops plus one
 * least-squares solve.
 * Errors: KPCA_EUSAGE for a Nystrom or already reduced model, the sigmoid
 * kernel (not positive semi-definite: rho can be negative, unbounded below), vectors 0 or
 * above the fit points, components above the model's, EIG for another
 * kernel than (gamma x.y)^2; KPCA_ENOMEM; KPCA_ENUMERIC when a kernel value
 * overflows or K_zz cannot be factored. */
kpca_status kpca_reduce(const kpca_model *full, const kpca_reduce_params *p, kpca_model *out, kpca_reduce_info *info,
                        kpca_error *err);

/* The residual formula for one component, by its definition:
 * rho = a' K_xx a + beta' K_zz beta - 2 a' K_xz beta, a over the m points x
 * (m x dim), beta over the n vectors z (n x dim).  O((m + n)^2 dim) flops; a
 * reference for the tests.  KPCA_ENOMEM. */
kpca_status kpca_reduce_residual(const kpca_kernel *k, const double *x, size_t m, const double *a, const double *z,
                                 size_t n, const double *beta, size_t dim, double *rho, kpca_error *err);

#endif
