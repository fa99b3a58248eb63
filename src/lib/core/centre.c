#include "core/centre.h"

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
