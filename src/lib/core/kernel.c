#include "core/kernel.h"

#include <cblas.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gram.h"
#include "core/standardize.h"
#include "support/mem.h"
#include "support/blas.h"
#include "support/names.h"
#include "support/parts.h"

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

kpca_kernel kpca_kernel_laplacian(double gamma)
{
    kpca_kernel k = {KPCA_KERNEL_LAPLACIAN, 1, gamma, 0.0, 0.0};
    return k;
}

kpca_kernel kpca_kernel_cosine(void)
{
    kpca_kernel k = {KPCA_KERNEL_COSINE, 1, 1.0, 0.0, 0.0};
    return k;
}

kpca_kernel kpca_kernel_chi2(double gamma)
{
    kpca_kernel k = {KPCA_KERNEL_CHI2, 1, gamma, 0.0, 0.0};
    return k;
}

kpca_kernel kpca_kernel_precomputed(void)
{
    kpca_kernel k = {KPCA_KERNEL_PRECOMPUTED, 1, 1.0, 0.0, 0.0};
    return k;
}

static const char *const kernel_names[] = {"poly",      "rbf",    "sigmoid", "linear",
                                           "laplacian", "cosine", "chi2",    "precomputed"};
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
    case KPCA_KERNEL_LAPLACIAN: snprintf(buf, cap, "exp(-%g |x-y|_1)", k->gamma); break;
    case KPCA_KERNEL_COSINE: snprintf(buf, cap, "x.y / (|x| |y|)"); break;
    case KPCA_KERNEL_CHI2: snprintf(buf, cap, "exp(-%g sum (x-y)^2 / (x+y))", k->gamma); break;
    case KPCA_KERNEL_PRECOMPUTED: snprintf(buf, cap, "precomputed"); break;
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
    if (isfinite(total))
        return total > 0.0 ? sqrt(total) : 1.0;
    /* a sum overflowed (values near DBL_MAX): each column's deviation in
     * units of its largest value, their norm kept as scale * sqrt(ssq)
     * (LAPACK's dlassq) */
    double scale = 0.0, ssq = 1.0;
    for (size_t j = 0; j < dim; j++) {
        double big = 0.0, mean, sd;
        for (size_t i = 0; i < m; i++)
            big = fmax(big, fabs(x[i * dim + j]));
        if (!(big > 0.0))
            continue;
        kpca_column_spread_scaled(x + j, m, dim, big, &mean, &sd);
        if (sd > scale) {
            ssq = 1.0 + ssq * (scale / sd) * (scale / sd);
            scale = sd;
        } else if (sd > 0.0) {
            ssq += (sd / scale) * (sd / scale);
        }
    }
    return scale > 0.0 ? scale * sqrt(ssq) : 1.0;
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
    case KPCA_KERNEL_LAPLACIAN:
    case KPCA_KERNEL_CHI2:
        if ((*param = "gamma", !isfinite(k->gamma) || k->gamma <= 0.0))
            return kpca_fail(err, KPCA_EUSAGE, "gamma %g out of range (expected a finite number > 0)", k->gamma);
        *param = NULL;
        return KPCA_OK;
    case KPCA_KERNEL_LINEAR:
    case KPCA_KERNEL_COSINE:
    case KPCA_KERNEL_PRECOMPUTED:
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

kpca_status kpca_kernel_check_data(const kpca_kernel *k, const double *x, size_t n, size_t dim, kpca_error *err)
{
    return kpca_kernel_check_rows(k, x, n, dim, 0, err);
}

kpca_status kpca_kernel_check_rows(const kpca_kernel *k, const double *x, size_t n, size_t dim, size_t row0,
                                   kpca_error *err)
{
    if (k->type != KPCA_KERNEL_CHI2)
        return KPCA_OK;
    for (size_t i = 0; i < n * dim; i++)
        if (x[i] < 0.0)
            return kpca_fail(err, KPCA_EFORMAT,
                             "the chi2 kernel needs non-negative values: row %zu, column %zu of the values is %g",
                             row0 + i / dim + 1, i % dim + 1, x[i]);
    return KPCA_OK;
}

/* |a - b|_1 and chi2's sum_i (a_i - b_i)^2 / (a_i + b_i), a term of
 * a_i + b_i = 0 counting 0 (scikit-learn's rule): the sums of the direct
 * kernels, in four interleaved partial sums (coordinates i mod 4), so that
 * the additions do not wait on one another and the compiler pairs them in
 * vector registers; kpca_kernel_eval and the matrices share them */
static double chi2_term(double x, double y)
{
    /* p = 0 only where x = y = 0 (chi2 takes non-negative values): d^2 / 1
     * is then the 0 of scikit-learn's rule, without a branch */
    double p = x + y, d = x - y;
    return d * d / (p + (double)(p == 0.0));
}

static double l1_sum(const double *a, const double *b, size_t dim)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    size_t i = 0;
    for (; i + 4 <= dim; i += 4) {
        s0 += fabs(a[i] - b[i]);
        s1 += fabs(a[i + 1] - b[i + 1]);
        s2 += fabs(a[i + 2] - b[i + 2]);
        s3 += fabs(a[i + 3] - b[i + 3]);
    }
    for (; i < dim; i++)
        s0 += fabs(a[i] - b[i]);
    return (s0 + s1) + (s2 + s3);
}

static double chi2_sum(const double *a, const double *b, size_t dim)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    size_t i = 0;
    for (; i + 4 <= dim; i += 4) {
        s0 += chi2_term(a[i], b[i]);
        s1 += chi2_term(a[i + 1], b[i + 1]);
        s2 += chi2_term(a[i + 2], b[i + 2]);
        s3 += chi2_term(a[i + 3], b[i + 3]);
    }
    for (; i < dim; i++)
        s0 += chi2_term(a[i], b[i]);
    return (s0 + s1) + (s2 + s3);
}

double kpca_kernel_eval(const kpca_kernel *k, const double *a, const double *b, size_t dim)
{
    double s = 0.0;
    switch (k->type) {
    case KPCA_KERNEL_LAPLACIAN:
        return exp(-k->gamma * l1_sum(a, b, dim));
    case KPCA_KERNEL_CHI2:
        return exp(-k->gamma * chi2_sum(a, b, dim));
    case KPCA_KERNEL_COSINE: {
        double aa = 0.0, bb = 0.0;
        for (size_t i = 0; i < dim; i++) {
            s += a[i] * b[i];
            aa += a[i] * a[i];
            bb += b[i] * b[i];
        }
        return aa > 0.0 && bb > 0.0 ? s / (sqrt(aa) * sqrt(bb)) : 0.0;
    }
    case KPCA_KERNEL_PRECOMPUTED:
        return NAN;
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

/* ---- the direct kernels (laplacian, chi2): no product form ---- */

/* Tiles: DIRECT_TA rows of A against DIRECT_TB rows of B, both in the cache
 * (B's tile is 128 KiB at 256 values per row).  A thread takes every
 * nt-th row tile, so that the triangle of a kernel matrix is shared out
 * evenly; one thread for fewer than DIRECT_MIN_WORK terms per thread. */
#define DIRECT_TA 8
#define DIRECT_TB 64
#define DIRECT_MIN_WORK ((size_t)1 << 22)

typedef struct {
    const kpca_kernel *k;
    const double *a, *b;
    size_t na, nb, dim;
    double *out; /* na x nb */
    int sym;     /* a == b: each row tile from its diagonal rightwards */
    size_t first, step;
    pthread_t tid;
    int started;
} direct_part;

static void direct_tile(const direct_part *d, size_t i0, size_t i1)
{
    const size_t dim = d->dim, nb = d->nb;
    const int chi2 = d->k->type == KPCA_KERNEL_CHI2;
    const double g = -d->k->gamma;
    for (size_t j0 = d->sym ? i0 : 0; j0 < nb; j0 += DIRECT_TB) {
        const size_t j1 = nb - j0 < DIRECT_TB ? nb : j0 + DIRECT_TB;
        for (size_t i = i0; i < i1; i++) {
            const double *ai = d->a + i * dim;
            double *row = d->out + i * nb;
            for (size_t j = j0; j < j1; j++) {
                const double *bj = d->b + j * dim;
                row[j] = exp(g * (chi2 ? chi2_sum(ai, bj, dim) : l1_sum(ai, bj, dim)));
            }
        }
    }
}

static void *direct_run(void *arg)
{
    const direct_part *d = arg;
    for (size_t i0 = d->first * DIRECT_TA; i0 < d->na; i0 += d->step * DIRECT_TA)
        direct_tile(d, i0, d->na - i0 < DIRECT_TA ? d->na : i0 + DIRECT_TA);
    return NULL;
}

/* out = k(A, B) for laplacian and chi2; sym (A == B, na == nb): the upper
 * triangle and the diagonal tiles only.  A thread that cannot start has its
 * tiles done by the caller. */
static void direct_eval(const kpca_kernel *k, const double *a, size_t na, const double *b, size_t nb, size_t dim,
                        double *out, int sym)
{
    const size_t tiles = (na + DIRECT_TA - 1) / DIRECT_TA;
    const double work = (double)na * (double)nb * (double)(dim ? dim : 1) / (sym ? 2.0 : 1.0);
    size_t nt = kpca_parts_plan(work > 1e18 ? (size_t)1e18 : (size_t)work, (size_t)kpca_blas_threads(),
                                DIRECT_MIN_WORK);
    if (nt > tiles)
        nt = tiles ? tiles : 1;
    direct_part part[KPCA_PARTS_MAX];
    for (size_t t = 0; t < nt; t++) {
        direct_part d = {k, a, b, na, nb, dim, out, sym, t, nt, (pthread_t)0, 0};
        part[t] = d;
    }
    for (size_t t = 1; t < nt; t++)
        part[t].started = pthread_create(&part[t].tid, NULL, direct_run, &part[t]) == 0;
    direct_run(&part[0]);
    for (size_t t = 1; t < nt; t++) {
        if (part[t].started)
            pthread_join(part[t].tid, NULL);
        else
            direct_run(&part[t]);
    }
}

static int is_direct(kpca_kernel_type t)
{
    return t == KPCA_KERNEL_LAPLACIAN || t == KPCA_KERNEL_CHI2;
}

static void fill_nan(double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        v[i] = NAN;
}

/* 1 / |x| from the squared norm, 0 for a zero point (cosine then 0, as
 * scikit-learn's normalize leaves a zero row zero) */
static double inv_norm(double sq)
{
    return sq > 0.0 ? 1.0 / sqrt(sq) : 0.0;
}

void kpca_kernel_gram(const kpca_kernel *k, const double *x, size_t m, size_t dim, double *K)
{
    if (m == 0)
        return;
    if (k->type == KPCA_KERNEL_PRECOMPUTED) {
        fill_nan(K, m * m);
        return;
    }
    if (is_direct(k->type)) {
        direct_eval(k, x, m, x, m, dim, K, 1);
        for (size_t i = 0; i < m; i++)
            K[i * m + i] = 1.0; /* exp(-gamma 0) */
        kpca_gram_mirror(K, m, m);
        return;
    }
    kpca_gram_upper(m, dim, x, dim, 0.0, K, m);
    if (k->type == KPCA_KERNEL_RBF || k->type == KPCA_KERNEL_COSINE) {
        /* the squared norms are K's diagonal; park them in K's last row,
         * whose entries left of the diagonal belong to the lower triangle
         * (filled from the upper one below) and whose last entry is the
         * diagonal itself */
        double *nrm = K + (m - 1) * m;
        for (size_t i = 0; i + 1 < m; i++)
            nrm[i] = K[i * m + i];
        if (k->type == KPCA_KERNEL_COSINE) { /* x.y / (|x| |y|): the inverse norms */
            for (size_t i = 0; i < m; i++)
                nrm[i] = inv_norm(nrm[i]);
            for (size_t i = 0; i + 1 < m; i++) {
                double *row = K + i * m;
                const double ni = nrm[i];
                for (size_t j = i + 1; j < m; j++)
                    row[j] *= ni * nrm[j];
                row[i] = ni > 0.0 ? 1.0 : 0.0;
            }
            K[(m - 1) * m + (m - 1)] = nrm[m - 1] > 0.0 ? 1.0 : 0.0;
        } else {
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
        }
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
    if (k->type == KPCA_KERNEL_PRECOMPUTED) {
        fill_nan(out, na * nb);
        return;
    }
    if (is_direct(k->type)) {
        direct_eval(k, a, na, b, nb, dim, out, 0);
        return;
    }
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)na, (int)nb, (int)dim, 1.0, a, (int)dim, b,
                (int)dim, 0.0, out, (int)nb);
    if (k->type != KPCA_KERNEL_RBF && k->type != KPCA_KERNEL_COSINE) {
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
    if (k->type == KPCA_KERNEL_RBF) {
        rbf_apply(k->sigma, out, na, nb, nb, nrm, nrm + na);
    } else {
        for (size_t i = 0; i < na + nb; i++)
            nrm[i] = inv_norm(nrm[i]);
        for (size_t i = 0; i < na; i++)
            for (size_t j = 0; j < nb; j++)
                out[i * nb + j] *= nrm[i] * nrm[na + j];
    }
    kpca_free(nrm);
}

void kpca_kernel_gather(const double *g, size_t n, size_t M, const size_t *idx, size_t m, double *out)
{
    for (size_t r = 0; r < n; r++) {
        const double *row = g + r * M;
        double *o = out + r * m;
        for (size_t j = 0; j < m; j++)
            o[j] = row[idx[j]];
    }
}

kpca_status kpca_kernel_check_matrix(const double *K, size_t rows, size_t cols, double tol, kpca_error *err)
{
    if (rows != cols)
        return kpca_fail(err, KPCA_EFORMAT, "a precomputed kernel matrix is square (M x M): this one is %zu x %zu",
                         rows, cols);
    const size_t n = rows;
    double big = 0.0;
    for (size_t i = 0; i < n * n; i++) {
        if (!isfinite(K[i]))
            return kpca_fail(err, KPCA_EFORMAT, "row %zu, column %zu is not finite (%g)", i / n + 1, i % n + 1, K[i]);
        big = fmax(big, fabs(K[i]));
    }
    double worst = 0.0;
    size_t wi = 0, wj = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            double d = fabs(K[i * n + j] - K[j * n + i]);
            if (d > worst) {
                worst = d;
                wi = i;
                wj = j;
            }
        }
    if (worst > tol * big)
        return kpca_fail(err, KPCA_EFORMAT,
                         "not symmetric within %g: row %zu, column %zu is %.17g but row %zu, column %zu is %.17g (a "
                         "difference of %.3g times the largest |value| %g); a kernel matrix is symmetric: "
                         "symmetrize it, e.g. (K + K.T) / 2",
                         tol, wi + 1, wj + 1, K[wi * n + wj], wj + 1, wi + 1, K[wj * n + wi], worst / big, big);
    return KPCA_OK;
}

void kpca_kernel_symmetrize(double *K, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            double v = 0.5 * (K[i * n + j] + K[j * n + i]);
            K[i * n + j] = K[j * n + i] = v;
        }
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
