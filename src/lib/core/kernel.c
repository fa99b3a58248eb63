#include "core/kernel.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/gram.h"
#include "support/mem.h"
#include "support/names.h"

kpca_kernel kpca_kernel_poly(int degree)
{
    kpca_kernel k = {KPCA_KERNEL_POLY, degree, 1.0, 0.0, 0.0};
    return k;
}

kpca_kernel kpca_kernel_rbf(double sigma)
{
    kpca_kernel k = {KPCA_KERNEL_RBF, 1, 1.0, 0.0, sigma};
    return k;
}

kpca_kernel kpca_kernel_sigmoid(double gamma, double coef0)
{
    kpca_kernel k = {KPCA_KERNEL_SIGMOID, 1, gamma, coef0, 0.0};
    return k;
}

kpca_kernel kpca_kernel_linear(void)
{
    kpca_kernel k = {KPCA_KERNEL_LINEAR, 1, 1.0, 0.0, 0.0};
    return k;
}

static const char *const kernel_names[] = {"poly", "rbf", "sigmoid", "linear"};
#define NKERNELS (sizeof kernel_names / sizeof kernel_names[0])

const char *kpca_kernel_name(kpca_kernel_type t)
{
    return kpca_name_of(kernel_names, NKERNELS, (unsigned)t);
}

int kpca_kernel_parse(const char *name, kpca_kernel_type *out)
{
    int i = kpca_name_index(kernel_names, NKERNELS, name);
    if (i >= 0)
        *out = (kpca_kernel_type)i;
    return i >= 0 ? 0 : -1;
}

char *kpca_kernel_describe(const kpca_kernel *k, char *buf, size_t cap)
{
    switch (k->type) {
    case KPCA_KERNEL_POLY: snprintf(buf, cap, "(%g x.y + %g)^%d", k->gamma, k->coef0, k->degree); break;
    case KPCA_KERNEL_RBF: snprintf(buf, cap, "exp(-|x-y|^2 / (2 * %g^2))", k->sigma); break;
    case KPCA_KERNEL_SIGMOID: snprintf(buf, cap, "tanh(%g x.y + %g)", k->gamma, k->coef0); break;
    case KPCA_KERNEL_LINEAR: snprintf(buf, cap, "x.y"); break;
    default: snprintf(buf, cap, "unknown kernel %d", (int)k->type);
    }
    return buf;
}

double kpca_kernel_default_sigma(const double *x, size_t m, size_t dim)
{
    if (m == 0)
        return 1.0;
    double total = 0.0;
    for (size_t j = 0; j < dim; j++) {
        /* two passes per coordinate: mean, then squared deviations */
        double mean = 0.0, ss = 0.0;
        for (size_t i = 0; i < m; i++)
            mean += x[i * dim + j];
        mean /= (double)m;
        for (size_t i = 0; i < m; i++) {
            double d = x[i * dim + j] - mean;
            ss += d * d;
        }
        total += ss / (double)m;
    }
    return total > 0.0 && isfinite(total) ? sqrt(total) : 1.0;
}

kpca_status kpca_kernel_check(const kpca_kernel *k, kpca_error *err)
{
    return kpca_kernel_check_param(k, NULL, err);
}

kpca_status kpca_kernel_check_param(const kpca_kernel *k, const char **param, kpca_error *err)
{
    const char *dummy;
    if (param == NULL)
        param = &dummy;
    *param = NULL;
    switch (k->type) {
    case KPCA_KERNEL_POLY:
        if ((*param = "degree", k->degree < 1 || k->degree > KPCA_MAX_DEGREE))
            return kpca_fail(err, KPCA_EUSAGE, "degree %d out of range (expected 1..%d)", k->degree,
                             KPCA_MAX_DEGREE);
        if ((*param = "gamma", !isfinite(k->gamma) || k->gamma <= 0.0))
            return kpca_fail(err, KPCA_EUSAGE, "gamma %g out of range (expected a finite number > 0)", k->gamma);
        if ((*param = "coef0", !isfinite(k->coef0) || k->coef0 < 0.0))
            return kpca_fail(err, KPCA_EUSAGE, "coef0 %g out of range (expected a finite number >= 0: a negative offset "
                             "breaks positive semi-definiteness)", k->coef0);
        *param = NULL;
        return KPCA_OK;
    case KPCA_KERNEL_RBF:
        *param = "sigma";
        if (!isfinite(k->sigma) || k->sigma <= 0.0)
            return kpca_fail(err, KPCA_EUSAGE, "sigma %g out of range (expected a finite number > 0)", k->sigma);
        const double s = 1.0 / (2.0 * k->sigma * k->sigma); /* the scale every rbf evaluation uses */
        if (!isfinite(s) || !(s > 0.0))
            return kpca_fail(err, KPCA_EUSAGE, "sigma %g out of range (its square over- or underflows)", k->sigma);
        *param = NULL;
        return KPCA_OK;
    case KPCA_KERNEL_SIGMOID:
        if ((*param = "gamma", !isfinite(k->gamma) || k->gamma <= 0.0))
            return kpca_fail(err, KPCA_EUSAGE, "gamma %g out of range (expected a finite number > 0)", k->gamma);
        if ((*param = "coef0", !isfinite(k->coef0)))
            return kpca_fail(err, KPCA_EUSAGE, "coef0 %g out of range (expected a finite number)", k->coef0);
        *param = NULL;
        return KPCA_OK;
    case KPCA_KERNEL_LINEAR:
        *param = NULL;
        return KPCA_OK;
    }
    *param = "kernel";
    return kpca_fail(err, KPCA_EUSAGE, "unknown kernel type %d", (int)k->type);
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
    switch (k->type) {
    case KPCA_KERNEL_RBF:
        for (size_t i = 0; i < dim; i++)
            s += (a[i] - b[i]) * (a[i] - b[i]);
        return exp(-s / (2.0 * k->sigma * k->sigma));
    case KPCA_KERNEL_SIGMOID:
        for (size_t i = 0; i < dim; i++)
            s += a[i] * b[i];
        return tanh(k->gamma * s + k->coef0);
    case KPCA_KERNEL_LINEAR:
        for (size_t i = 0; i < dim; i++)
            s += a[i] * b[i];
        return s;
    default:
        for (size_t i = 0; i < dim; i++)
            s += a[i] * b[i];
        return ipow(k->gamma * s + k->coef0, k->degree);
    }
}

double kpca_kernel_of_dot(const kpca_kernel *k, double s, double *df)
{
    switch (k->type) {
    case KPCA_KERNEL_POLY: {
        double v = k->gamma * s + k->coef0, p = 1.0;
        for (int e = 1; e < k->degree; e++) /* v^(degree - 1), left to right */
            p *= v;
        *df = k->degree * k->gamma * p;
        return p * v;
    }
    case KPCA_KERNEL_SIGMOID: {
        double t = tanh(k->gamma * s + k->coef0);
        *df = k->gamma * (1.0 - t * t);
        return t;
    }
    default: /* linear (rbf is not a function of x.y alone) */
        *df = 1.0;
        return s;
    }
}

/* rbf from dot products: g[i][j] = x_i.y_j becomes
 * exp(-(na[i] + nb[j] - 2 g) / (2 sigma^2)), the squared distance clamped at
 * 0 against rounding. */
static void rbf_apply(double sigma, double *g, size_t rows, size_t cols, size_t ld, const double *na,
                      const double *nb)
{
    const double s = -1.0 / (2.0 * sigma * sigma);
    for (size_t i = 0; i < rows; i++) {
        double *row = g + i * ld;
        for (size_t j = 0; j < cols; j++) {
            double d2 = na[i] + nb[j] - 2.0 * row[j];
            row[j] = exp((d2 > 0.0 ? d2 : 0.0) * s);
        }
    }
}

void kpca_kernel_apply(const kpca_kernel *k, double *g, size_t n)
{
    const double gm = k->gamma, c = k->coef0;
    if (k->type == KPCA_KERNEL_SIGMOID) {
        for (size_t i = 0; i < n; i++)
            g[i] = tanh(gm * g[i] + c);
        return;
    }
    if (k->type != KPCA_KERNEL_POLY)
        return; /* linear: the dot products themselves */
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
    kpca_gram_upper(m, dim, x, dim, 0.0, K, m);
    if (k->type == KPCA_KERNEL_RBF) {
        /* the squared norms are K's diagonal; park them in K's last row,
         * whose entries left of the diagonal belong to the lower triangle
         * (filled from the upper one below) and whose last entry is the
         * diagonal itself */
        double *nrm = K + (m - 1) * m;
        for (size_t i = 0; i + 1 < m; i++)
            nrm[i] = K[i * m + i];
        const double s = -1.0 / (2.0 * k->sigma * k->sigma);
        for (size_t i = 0; i + 1 < m; i++) {
            double *row = K + i * m;
            double ni = nrm[i];
            for (size_t j = i + 1; j < m; j++) {
                double d2 = ni + nrm[j] - 2.0 * row[j];
                row[j] = exp((d2 > 0.0 ? d2 : 0.0) * s);
            }
            row[i] = 1.0;
        }
        K[(m - 1) * m + (m - 1)] = 1.0;
    } else {
        for (size_t i = 0; i < m; i++)
            kpca_kernel_apply(k, K + i * m + i, m - i);
    }
    kpca_gram_mirror(K, m, m);
}

void kpca_kernel_cross(const kpca_kernel *k, const double *a, size_t na, const double *b, size_t nb,
                       size_t dim, double *out)
{
    if (na == 0 || nb == 0)
        return;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)na, (int)nb, (int)dim, 1.0, a, (int)dim, b,
                (int)dim, 0.0, out, (int)nb);
    if (k->type != KPCA_KERNEL_RBF) {
        kpca_kernel_apply(k, out, na * nb);
        return;
    }
    double *nrm = kpca_alloc_array(na + nb, 1, sizeof(double));
    if (nrm == NULL) { /* rare: fall back to the reference loops */
        kpca_kernel_cross_ref(k, a, na, b, nb, dim, out);
        return;
    }
    for (size_t i = 0; i < na; i++)
        nrm[i] = cblas_ddot((int)dim, a + i * dim, 1, a + i * dim, 1);
    for (size_t j = 0; j < nb; j++)
        nrm[na + j] = cblas_ddot((int)dim, b + j * dim, 1, b + j * dim, 1);
    rbf_apply(k->sigma, out, na, nb, nb, nrm, nrm + na);
    kpca_free(nrm);
}

kpca_status kpca_kernel_check_finite(const kpca_kernel *k, const double *v, size_t n, kpca_error *err)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) {
            char kd[96];
            return kpca_fail(err, KPCA_ENUMERIC, "kernel value overflow: %s is too large for the data's scale",
                             kpca_kernel_describe(k, kd, sizeof kd));
        }
    return KPCA_OK;
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
