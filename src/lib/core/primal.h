/* primal.h - the exact fit of a linear kernel through the covariance.
 *
 * With k(x, y) = gamma x.y (kernel linear, gamma 1, or poly of degree 1 and
 * coef0 0) the feature space is the input space.  With X the m x D fit
 * points and Xc = X - 1 xbar' (xbar the mean point), the centred kernel
 * matrix K~ = gamma Xc Xc' (m x m) and the covariance C = gamma Xc' Xc
 * (D x D) share their non-zero eigenvalues mu; C v = mu v (v unit) gives
 * K~'s unit eigenvector u = Xc v sqrt(gamma / mu).  When D < m the D x D
 * eigenproblem replaces the m x m one (USPS, m = 3000, D = 256: the Gram
 * product shrinks by m/D, the eigensolve by (m/D)^3), and the kernel
 * matrix's own statistics have closed forms: colmean_i = gamma x_i.xbar,
 * grandmean = gamma xbar.xbar, trace(K~) = trace(C), and the uncentred
 * trace sum_i gamma |x_i|^2.
 * Computed through Xc = Q R (Householder, Q m x D orthonormal): B = gamma
 * R R' is C's twin (C = gamma R' R, the same eigenvalues), B w = mu w gives
 * u = Q w.  Xc v / sqrt(mu) would carry v's rounding (eps mu_1) into u
 * magnified by sqrt(mu_1 / mu), so that the small components' u were poor
 * eigenvectors of K~ (residual 1e-4 relative for 300 USPS digits); Q w has
 * the kernel path's accuracy: unit, residual about eps mu_1.
 * kpca_model_fit (model.h) chooses this path by itself for the exact
 * single-process solver (kpca_fit_params.primal); its model has the kernel
 * path's form and, up to rounding, its values.
 */
#ifndef KPCA_PRIMAL_H
#define KPCA_PRIMAL_H

#include <stddef.h>

#include "core/kernel.h"
#include "core/model.h"
#include "io/dataset.h"
#include "support/error.h"

/* The note kpca_primal_solve leaves in job->note: the model's solver text
 * reads "exact <driver> primal". */
#define KPCA_PRIMAL_NOTE "primal"

/* 1 when the kernel is gamma x.y (linear, or poly of degree 1 with coef0 0)
 * and the input dimension dim is below the m fit points; else 0.  An
 * additive constant (coef0 != 0), which centring cancels, still takes the
 * kernel matrix's path: its statistics carry the constant's rounding. */
int kpca_primal_applies(const kpca_kernel *kernel, size_t m, size_t dim);

/* The gamma of such a kernel gamma x.y: 1 for linear, kernel->gamma for poly. */
double kpca_primal_gamma(const kpca_kernel *kernel);

/* The exact solver's step (model.h, kpca_exact_job) through the covariance
 * C of the fit points: fills job->mu (descending), job->u (unit rows,
 * signed by kpca_eig_fix_sign), job->colmean, grandmean, trace, raw_trace,
 * the seconds and job->note (KPCA_PRIMAL_NOTE).
 * job->want: in 1..fit->dim pairs, with job->eig (EVD or EVR) solving C.
 * variance in (0, 1) instead: C is solved in full (EVD) and job->want
 * becomes the fewest leading positive eigenvalues whose sum reaches that
 * fraction of the trace (all positive ones when rounding keeps it short,
 * at least 1); job->mu and job->u must then hold fit->dim pairs.
 * Cost: about 2 m D (D + 2 want) flops in LAPACK and BLAS (the QR and
 * Q w), O(D^3) for B and its eigensolve, O(m D) more; allocates
 * m D + 3 D^2 + 3 D doubles and the workspaces of LAPACK (EVD: about 2 D^2
 * more), checked against the memory budget, and frees them on return.
 * Errors: KPCA_EUSAGE when !kpca_primal_applies or want is out of range;
 * KPCA_ENOMEM; KPCA_ENUMERIC for kernel values that overflow (the kernel
 * path's messages: kpca_kernel_check_finite, kpca_center_check) or
 * LAPACK's failure (kpca_eig_lapack_status).  The caller's buffers are then partly written. */
kpca_status kpca_primal_solve(const kpca_dataset *fit, double variance, kpca_exact_job *job, kpca_error *err);

#endif
