/* smooth.h - Gaussian smoothing of square images (the USPS digits, 16 x 16),
 * the preprocessing of AT&T's USPS experiments of the 1990s.
 *
 * Each row of x (n rows of side*side values, row-major pixels) is blurred in
 * place by the separable Gaussian exp(-t^2 / (2 sigma^2)), t = -r..r with
 * r = ceil(3 sigma), first along the rows of the image, then along its
 * columns.  At the border the taps that fall outside the image are dropped
 * and the remaining weights renormalised to sum 1, so a constant image stays
 * constant (USPS's -1 background stays -1) and the result equals the 2-D
 * truncated, renormalised convolution.  Cost O(n side^2 r); allocates one
 * side*side scratch image (KPCA_ENOMEM on failure, x untouched).
 * KPCA_EUSAGE for sigma <= 0 or not finite, side == 0, or r > 64 * side. */
#ifndef KPCA_SMOOTH_H
#define KPCA_SMOOTH_H

#include <stddef.h>

#include "support/error.h"

kpca_status kpca_smooth_images(double *x, size_t n, size_t side, double sigma, kpca_error *err);

/* The side of a square image of dim pixels, or 0 when dim is not a square. */
size_t kpca_image_side(size_t dim);

#endif
