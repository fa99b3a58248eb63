/* centre.h - centring in feature space (paper, appendix A), for a model
 * whose m points are its fit points (centring KERNEL, model.h).
 *
 * Kernel PCA diagonalises the kernel matrix of the fit points' feature
 * vectors after their mean is subtracted: K~ = K - 1K - K1 + 1K1, (1)_ij =
 * 1/m.  A new point's kernel row is centred with the same mean - the
 * training column means and their grand mean - never with statistics of
 * its own batch.  (A landmark model centres differently: nystrom.h.)
 */
#ifndef KPCA_CENTRE_H
#define KPCA_CENTRE_H

#include <stddef.h>

#include "core/kernel.h"
#include "support/error.h"

/* K (m x m, row-major, symmetric, m >= 1) becomes K - 1K - K1 + 1K1 in
 * place (still symmetric, rows and columns summing to zero up to rounding);
 * writes the column means of the uncentred K to colmean (m, the caller's)
 * and their mean to *grand.  O(m^2), no allocation; cannot fail (an
 * overflowing K leaves non-finite values for the caller to check). */
void kpca_center_fit(double *K, size_t m, double *colmean, double *grand);

/* Each row r of Kt (n x m, row-major: kernel values between n points and
 * the m fit points) becomes Kt[r][i] - colmean[i] - mean(Kt[r]) + grand,
 * with colmean and grand as kpca_center_fit returned them: the rows of the
 * fit points themselves give back kpca_center_fit's K~.  In place, O(n m),
 * no allocation; cannot fail. */
void kpca_center_cross(double *Kt, size_t n, size_t m, const double *colmean, double grand);

/* The centred kernel overflowed: the one check and message of every exact
 * fit (model.c, and kpca-mpi's distributed centring).  KPCA_OK when trace
 * (of K~), grand (the grand mean) and, when K is not NULL, each of the len
 * entries of K are finite; else KPCA_ENUMERIC, "kernel values too large to
 * centre (<kernel>: overflow)".  O(len), no allocation. */
kpca_status kpca_center_check(const kpca_kernel *kernel, double trace, double grand, const double *K, size_t len,
                              kpca_error *err);

#endif
