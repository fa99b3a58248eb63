/* preimage.h - approximate pre-images: points z whose image Φ(z) is close to
 * the projection of Φ(x) onto a model's first k components (denoising).
 *
 * Projection, with the centring of model.h: the fit points x_i (i < m) have
 * mean image Φ̄ and components V_c = Σ_i α_ci (Φ(x_i) − Φ̄); x projects to
 * β_c = z_c(x) (kpca_model_transform), and
 *   P_k Φ(x) = Σ_c β_c V_c + Φ̄ = Σ_i γ_i Φ(x_i),
 *   γ_i = Σ_c β_c (α_ci − mean_j α_cj) + 1/m        (Σ_i γ_i = 1).
 * The pre-image minimises ρ(z) = |Φ(z) − P_k Φ(x)|², which up to the
 * constant Σ_ij γ_i γ_j k(x_i, x_j) is
 *   rbf:          1 − 2 Σ_i γ_i k(z, x_i)
 *   k = f(x.y):   f(z.z) − 2 Σ_i γ_i f(x_i.z)      (poly, sigmoid, linear)
 * Setting its gradient to zero gives the fixed point z = T(z):
 *   rbf (Mika et al. 1999):  T(z) = Σ γ_i k(z, x_i) x_i / Σ γ_i k(z, x_i)
 *   f(x.y) (Schölkopf, Mika et al. 1999, IEEE TNN 10(5)):
 *                            T(z) = Σ γ_i f'(x_i.z) x_i / f'(z.z)
 * and T(z) − z = −∇ρ(z) · c(z) with c(z) > 0 wherever the denominator is
 * positive: the fixed-point step is a scaled gradient step.  Every step is
 * therefore guarded: the iterate moves to z + t (T(z) − z) with t = 1 (the
 * plain fixed point) when that does not increase ρ, else t is halved until
 * it does.  ρ never increases, which makes the even-degree polynomial
 * kernels (whose plain fixed point oscillates in the norm of z) converge.
 * For the linear kernel T(z) = Σ γ_i x_i = x̄ + Σ_c β_c v_c, the PCA
 * reconstruction, whatever z: one step.
 *
 * Start: the point x itself (or params.start).  Stop when an accepted step
 * moves z by at most tol |z| (converged), when no step of length above
 * tol |z| decreases ρ (converged too: a stationary point at that
 * resolution), or after max_iter steps.  A denominator that is not positive
 * (or, for rbf, below 1e-12 Σ_i |γ_i k(z, x_i)|: cancellation), or a step
 * that is not finite, makes T undefined: at the start the point restarts
 * once from Σ_i γ_i x_i; later it stops with its last iterate.  A result
 * whose ρ exceeds that of its start is replaced by the start, so the result
 * is never worse than the start.  No NaN or infinity is ever returned.
 * Deterministic: the same inputs give the same bits.
 */
#ifndef KPCA_PREIMAGE_H
#define KPCA_PREIMAGE_H

#include <stddef.h>

#include "support/error.h"
#include "core/model.h"

typedef struct {
    size_t max_iter;     /* accepted steps per point, >= 1 (default KPCA_PREIMAGE_MAX_ITER) */
    double tol;          /* relative change that counts as converged, > 0 (default KPCA_PREIMAGE_TOL) */
    const double *start; /* n x dim starting points (borrowed); NULL: the points x */
    int plain;           /* 1: take every fixed-point step as it is (t = 1, no halving,
                          * no return to the start): the unguarded methods, for
                          * comparison; default 0 */
} kpca_preimage_params;

typedef struct {
    size_t points;       /* n */
    size_t converged;    /* points that stopped by the tolerance */
    size_t max_iter_hit; /* points that stopped after max_iter steps */
    size_t restarted;    /* points restarted from Σ γ_i x_i (undefined T at the start) */
    size_t stalled;      /* points stopped by an undefined T after the start */
    size_t halvings;     /* step halvings over all points (0: every step was the plain fixed point) */
    size_t iter_max;     /* most steps taken by one point */
    double iter_mean;    /* mean steps per point */
} kpca_preimage_info;

/* The defaults, also kpca denoise's (its help text prints these). */
#define KPCA_PREIMAGE_MAX_ITER 100
#define KPCA_PREIMAGE_TOL 1e-6
/* max_iter KPCA_PREIMAGE_MAX_ITER, tol KPCA_PREIMAGE_TOL, start NULL, plain 0. */
kpca_preimage_params kpca_preimage_defaults(void);

/* gamma (n x m, row-major) = the expansion coefficients γ of P_k Φ(x) on the
 * model's m fit points, for the n points x (n x dim). */
kpca_status kpca_preimage_gamma(const kpca_model *model, const double *x, size_t n, size_t dim, size_t k,
                                double *gamma, kpca_error *err);

/* z (n x dim, row-major, caller-owned, may not alias x) = pre-images of the n
 * points x reconstructed from their first k components; iters (n, may be
 * NULL) = steps taken by each point; info may be NULL.  Errors: KPCA_EFORMAT
 * for a dim other than the model's, KPCA_EUSAGE for k outside 1..model->k, a Nystrom model (its points are
 * landmarks, not the fit points the expansion needs) or
 * bad params, KPCA_ENOMEM, KPCA_ENUMERIC when the projection overflows.
 * Works in blocks of B = KPCA_PREIMAGE_BLOCK points: memory about
 * 8 (4 B m + k m + 3 B dim) bytes besides the model. */
kpca_status kpca_preimage(const kpca_model *model, const double *x, size_t n, size_t dim, size_t k,
                          const kpca_preimage_params *p, double *z, size_t *iters, kpca_preimage_info *info,
                          kpca_error *err);

#define KPCA_PREIMAGE_BLOCK 256

#endif
