/* standardize.c - per-column statistics and the standardisation (see
 * standardize.h).  The passes go along the rows, as the data lies. */
#include "core/standardize.h"

#include <math.h>

void kpca_column_stats(const double *x, size_t n, size_t dim, double *mean, double *sd, double *lo, double *hi)
{
    for (size_t j = 0; j < dim; j++) {
        mean[j] = 0.0;
        sd[j] = 0.0;
        lo[j] = hi[j] = x[j];
    }
    for (size_t i = 0; i < n; i++) {
        const double *r = x + i * dim;
        for (size_t j = 0; j < dim; j++) {
            mean[j] += r[j];
            lo[j] = r[j] < lo[j] ? r[j] : lo[j];
            hi[j] = r[j] > hi[j] ? r[j] : hi[j];
        }
    }
    for (size_t j = 0; j < dim; j++)
        mean[j] /= (double)n;
    for (size_t i = 0; i < n; i++) {
        const double *r = x + i * dim;
        for (size_t j = 0; j < dim; j++) {
            double d = r[j] - mean[j];
            sd[j] += d * d;
        }
    }
    for (size_t j = 0; j < dim; j++) {
        sd[j] = lo[j] == hi[j] ? 0.0 : sqrt(sd[j] / (double)n);
        if (!isfinite(mean[j]) || !isfinite(sd[j])) /* a sum overflowed: again, in units of the largest value */
            kpca_column_spread_scaled(x + j, n, dim, fmax(fabs(lo[j]), fabs(hi[j])), &mean[j], &sd[j]);
    }
}

void kpca_column_spread_scaled(const double *x, size_t n, size_t stride, double s, double *mean, double *sd)
{
    double m = 0.0, ss = 0.0;
    for (size_t i = 0; i < n; i++)
        m += x[i * stride] / s / (double)n; /* each term at most 1/n: no overflow */
    for (size_t i = 0; i < n; i++) {
        const double d = x[i * stride] / s - m; /* at most 2 */
        ss += d * d;
    }
    *mean = m * s;
    *sd = sqrt(ss / (double)n) * s; /* at most the largest |value| */
}

double kpca_spread_norm(const double *v, size_t dim)
{
    double big = 0.0, sum = 0.0;
    for (size_t j = 0; j < dim; j++)
        big = fmax(big, fabs(v[j]));
    if (!(big > 0.0) || !isfinite(big))
        return big;
    for (size_t j = 0; j < dim; j++)
        sum += (v[j] / big) * (v[j] / big);
    return big * sqrt(sum);
}

size_t kpca_standardize_fit(const double *x, size_t n, size_t dim, double *mean, double *scale, double *lo,
                            double *hi, unsigned char *const_col)
{
    kpca_column_stats(x, n, dim, mean, scale, lo, hi);
    size_t nconst = 0;
    for (size_t j = 0; j < dim; j++) {
        int c = lo[j] == hi[j] || !(scale[j] > 0.0 && isfinite(scale[j]));
        if (lo[j] == hi[j])
            mean[j] = lo[j];
        if (c) {
            scale[j] = 1.0;
            nconst++;
        }
        if (const_col != NULL)
            const_col[j] = (unsigned char)c;
    }
    return nconst;
}

void kpca_standardize(double *x, size_t n, size_t dim, const double *mean, const double *scale)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < dim; j++)
            x[i * dim + j] = (x[i * dim + j] - mean[j]) / scale[j];
}

void kpca_unstandardize(double *x, size_t n, size_t dim, const double *mean, const double *scale)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < dim; j++)
            x[i * dim + j] = x[i * dim + j] * scale[j] + mean[j];
}
