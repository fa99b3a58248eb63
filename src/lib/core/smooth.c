/* smooth.c - separable Gaussian blur of square images (see smooth.h). */
#include "core/smooth.h"

#include <math.h>
#include <string.h>

#include "support/mem.h"

size_t kpca_image_side(size_t dim)
{
    size_t s = (size_t)llround(sqrt((double)dim));
    return s > 0 && s * s == dim ? s : 0;
}

/* out[i] = sum_t w[t] in[i + t] over the taps inside 0..len-1, renormalised;
 * in and out are strided views of one image line. */
static void blur_line(const double *in, double *out, size_t len, size_t stride, const double *w, long r)
{
    for (long i = 0; i < (long)len; i++) {
        double s = 0.0, z = 0.0;
        long lo = i - r < 0 ? -i : -r, hi = i + r >= (long)len ? (long)len - 1 - i : r;
        for (long t = lo; t <= hi; t++) {
            s += w[t + r] * in[(size_t)(i + t) * stride];
            z += w[t + r];
        }
        out[(size_t)i * stride] = s / z;
    }
}

kpca_status kpca_smooth_images(double *x, size_t n, size_t side, double sigma, kpca_error *err)
{
    if (!(sigma > 0.0) || !isfinite(sigma) || side == 0)
        return kpca_fail(err, KPCA_EUSAGE, "cannot smooth with sigma %g on %zu x %zu images: sigma must be > 0",
                         sigma, side, side);
    double rr = ceil(3.0 * sigma);
    if (rr > 64.0 * (double)side)
        return kpca_fail(err, KPCA_EUSAGE, "smoothing sigma %g is far wider than the %zu x %zu image", sigma, side,
                         side);
    long r = (long)rr;
    double *w = kpca_alloc_array((size_t)(2 * r + 1), 1, sizeof(double));
    double *tmp = kpca_alloc_array(side, side, sizeof(double));
    if (w == NULL || tmp == NULL) {
        kpca_free(w);
        kpca_free(tmp);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for smoothing");
    }
    for (long t = -r; t <= r; t++)
        w[t + r] = exp(-(double)(t * t) / (2.0 * sigma * sigma));
    for (size_t p = 0; p < n; p++) {
        double *img = x + p * side * side;
        for (size_t row = 0; row < side; row++) /* along each image row: img -> tmp */
            blur_line(img + row * side, tmp + row * side, side, 1, w, r);
        for (size_t c = 0; c < side; c++) /* along each column: tmp -> img */
            blur_line(tmp + c, img + c, side, side, w, r);
    }
    kpca_free(w);
    kpca_free(tmp);
    return KPCA_OK;
}
