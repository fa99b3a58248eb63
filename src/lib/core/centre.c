#include "core/centre.h"

#include <math.h>

void kpca_center_fit(double *K, size_t m, double *colmean, double *grand)
{
    double g = 0.0;
    for (size_t j = 0; j < m; j++)
        colmean[j] = 0.0;
    for (size_t i = 0; i < m; i++) {
        const double *row = K + i * m;
        for (size_t j = 0; j < m; j++)
            colmean[j] += row[j];
    }
    for (size_t j = 0; j < m; j++) {
        colmean[j] /= (double)m;
        g += colmean[j];
    }
    g /= (double)m;
    for (size_t i = 0; i < m; i++) {
        double *row = K + i * m;
        double ci = colmean[i] - g;
        for (size_t j = 0; j < m; j++)
            row[j] -= colmean[j] + ci;
    }
    *grand = g;
}

void kpca_center_cross(double *Kt, size_t n, size_t m, const double *colmean, double grand)
{
    for (size_t r = 0; r < n; r++) {
        double *row = Kt + r * m;
        double mean = 0.0;
        for (size_t i = 0; i < m; i++)
            mean += row[i];
        mean /= (double)m;
        double shift = mean - grand;
        for (size_t i = 0; i < m; i++)
            row[i] -= colmean[i] + shift;
    }
}

kpca_status kpca_center_check(const kpca_kernel *kernel, double trace, double grand, const double *K, size_t len,
                              kpca_error *err)
{
    int finite = isfinite(trace) && isfinite(grand);
    for (size_t i = 0; finite && K && i < len; i++)
        finite = isfinite(K[i]);
    if (finite)
        return KPCA_OK;
    char kd[96];
    return kpca_fail(err, KPCA_ENUMERIC, "kernel values too large to centre (%s: overflow)",
                     kpca_kernel_describe(kernel, kd, sizeof kd));
}
