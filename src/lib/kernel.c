#include "kernel.h"

#include <cblas.h>
#include <math.h>

kpca_kernel kpca_kernel_poly(int degree)
{
    kpca_kernel k = {KPCA_KERNEL_POLY, degree, 1.0, 0.0};
    return k;
}

kpca_status kpca_kernel_check(const kpca_kernel *k, kpca_error *err)
{
    if (k->type != KPCA_KERNEL_POLY)
        return kpca_fail(err, KPCA_EUSAGE, "unknown kernel type %d", (int)k->type);
    if (k->degree < 1 || k->degree > KPCA_MAX_DEGREE)
        return kpca_fail(err, KPCA_EUSAGE, "degree %d out of range (expected 1..%d)", k->degree, KPCA_MAX_DEGREE);
    if (!isfinite(k->gamma) || k->gamma <= 0.0)
        return kpca_fail(err, KPCA_EUSAGE, "gamma %g out of range (expected a finite number > 0)", k->gamma);
    if (!isfinite(k->coef0) || k->coef0 < 0.0)
        return kpca_fail(err, KPCA_EUSAGE, "coef0 %g out of range (expected a finite number >= 0)", k->coef0);
    return KPCA_OK;
}

static double ipow(double v, int d)
{
    double r = 1.0;
    while (d > 0) {
        if (d & 1)
            r *= v;
        v *= v;
        d >>= 1;
    }
    return r;
}

double kpca_kernel_eval(const kpca_kernel *k, const double *a, const double *b, size_t dim)
{
    double s = 0.0;
    for (size_t i = 0; i < dim; i++)
        s += a[i] * b[i];
    return ipow(k->gamma * s + k->coef0, k->degree);
}

void kpca_kernel_apply(const kpca_kernel *k, double *g, size_t n)
{
    const double gm = k->gamma, c = k->coef0;
    switch (k->degree) { /* unrolled for the paper's degrees */
    case 1:
        if (gm != 1.0 || c != 0.0)
            for (size_t i = 0; i < n; i++)
                g[i] = gm * g[i] + c;
        return;
    case 2:
        for (size_t i = 0; i < n; i++) {
            double v = gm * g[i] + c;
            g[i] = v * v;
        }
        return;
    case 3:
        for (size_t i = 0; i < n; i++) {
            double v = gm * g[i] + c;
            g[i] = v * v * v;
        }
        return;
    default:
        for (size_t i = 0; i < n; i++)
            g[i] = ipow(gm * g[i] + c, k->degree);
    }
}

void kpca_kernel_gram(const kpca_kernel *k, const double *x, size_t m, size_t dim, double *K)
{
    if (m == 0)
        return;
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, (int)m, (int)dim, 1.0, x, (int)dim, 0.0, K, (int)m);
    for (size_t i = 0; i < m; i++)
        kpca_kernel_apply(k, K + i * m + i, m - i);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < i; j++)
            K[i * m + j] = K[j * m + i];
}

void kpca_kernel_cross(const kpca_kernel *k, const double *a, size_t na, const double *b, size_t nb,
                       size_t dim, double *out)
{
    if (na == 0 || nb == 0)
        return;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)na, (int)nb, (int)dim, 1.0, a, (int)dim, b,
                (int)dim, 0.0, out, (int)nb);
    kpca_kernel_apply(k, out, na * nb);
}

void kpca_kernel_gram_ref(const kpca_kernel *k, const double *x, size_t m, size_t dim, double *K)
{
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++)
            K[i * m + j] = kpca_kernel_eval(k, x + i * dim, x + j * dim, dim);
}

void kpca_kernel_cross_ref(const kpca_kernel *k, const double *a, size_t na, const double *b, size_t nb,
                           size_t dim, double *out)
{
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            out[i * nb + j] = kpca_kernel_eval(k, a + i * dim, b + j * dim, dim);
}

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
