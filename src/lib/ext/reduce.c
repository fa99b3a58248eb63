/* reduce.c - reduced-set feature extraction; see reduce.h for the maths. */
#include "ext/reduce.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <lbfgs.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/landmark.h"
#include "support/clock.h"
#include "support/mem.h"
#include "support/names.h"
#include "support/progress.h"
#include "ext/reduce_eig.h"

static const char *const method_names[] = {"auto", "eig", "lbfgs"};
static const char *const init_names[] = {"subset", "kmeans"};
#define NMETHODS (sizeof method_names / sizeof method_names[0])
#define NINITS (sizeof init_names / sizeof init_names[0])

const char *kpca_reduce_method_name(kpca_reduce_method m)
{
    return kpca_name_of(method_names, NMETHODS, (unsigned)m);
}

int kpca_reduce_method_parse(const char *name, kpca_reduce_method *out)
{
    int i = kpca_name_index(method_names, NMETHODS, name);
    if (i >= 0)
        *out = (kpca_reduce_method)i;
    return i >= 0 ? 0 : -1;
}

const char *kpca_reduce_init_name(kpca_reduce_init i)
{
    return kpca_name_of(init_names, NINITS, (unsigned)i);
}

int kpca_reduce_init_parse(const char *name, kpca_reduce_init *out)
{
    int i = kpca_name_index(init_names, NINITS, name);
    if (i >= 0)
        *out = (kpca_reduce_init)i;
    return i >= 0 ? 0 : -1;
}

kpca_reduce_params kpca_reduce_defaults(void)
{
    kpca_reduce_params p;
    memset(&p, 0, sizeof p);
    p.method = KPCA_REDUCE_AUTO;
    p.init = KPCA_REDUCE_INIT_SUBSET;
    p.max_iter = KPCA_REDUCE_DEFAULT_ITER;
    p.seed = 1;
    return p;
}

kpca_status kpca_reduce_residual(const kpca_kernel *k, const double *x, size_t m, const double *a, const double *z,
                                 size_t n, const double *beta, size_t dim, double *rho, kpca_error *err)
{
    size_t big = m > n ? m : n;
    double *K = kpca_alloc_array(big, big, sizeof(double));
    if (K == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for a %zu x %zu kernel matrix", big, big);
    long double s = 0.0L;
    kpca_kernel_gram_ref(k, x, m, dim, K);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++)
            s += (long double)a[i] * a[j] * K[i * m + j];
    kpca_kernel_gram_ref(k, z, n, dim, K);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            s += (long double)beta[i] * beta[j] * K[i * n + j];
    kpca_kernel_cross_ref(k, x, m, z, n, dim, K);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            s -= 2.0L * a[i] * beta[j] * K[i * n + j];
    kpca_free(K);
    *rho = (double)s;
    return KPCA_OK;
}

/* ---- the objective: the weighted residual of z with its best beta ---- */

typedef struct {
    const kpca_kernel *kern;
    const double *x; /* M x dim fit points */
    size_t M, dim, k, mr;
    const double *a;   /* k x M centred alpha */
    const double *w;   /* k weights */
    const double *nrm; /* k: |V_c|^2 */
    double *dzx, *kzx, *P;        /* mr x M */
    double *dzz, *kzz, *chol, *Q; /* mr x mr */
    double *b, *beta, *g;         /* k x mr */
    double *rho;                  /* k: residuals (unclamped) */
    double *best_z;               /* mr x dim */
    double best_f;
    double ridge;
    size_t evals, iters, max_iter;
    kpca_status st;
    kpca_error *err;
} rctx;

static int is_dot_kernel(const kpca_kernel *k)
{
    return k->type != KPCA_KERNEL_RBF;
}

/* d k(t) / dt for the dot-product kernels k(x, y) = f(x.y) */
static double dot_kernel_deriv(const kpca_kernel *k, double t)
{
    double df;
    (void)kpca_kernel_of_dot(k, t, &df);
    return df;
}

/* Kernel values, best beta (Cholesky of K_zz + ridge I) and residuals at z;
 * with grad != NULL also the gradient of the objective over z.  Returns the
 * objective sum_c w_c (rho_c + ridge |beta_c|^2), or NAN with c->st set. */
static double objective(rctx *c, const double *z, double *grad)
{
    const size_t mr = c->mr, M = c->M, dim = c->dim, k = c->k;
    c->evals++;
    kpca_kernel_cross(c->kern, z, mr, c->x, M, dim, c->kzx);
    kpca_kernel_gram(c->kern, z, mr, dim, c->kzz);
    double tr = 0.0;
    for (size_t j = 0; j < mr; j++)
        tr += c->kzz[j * mr + j];
    int finite = isfinite(tr);
    for (size_t i = 0; finite && i < mr * M; i++)
        finite = isfinite(c->kzx[i]);
    if (!finite) {
        c->st = kpca_fail(c->err, KPCA_ENUMERIC, "kernel value overflow at the reduced-set vectors");
        return NAN;
    }
    /* b_c = K_zx a_c */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)k, (int)mr, (int)M, 1.0, c->a, (int)M, c->kzx, (int)M,
                0.0, c->b, (int)mr);
    double ridge = 1e-12 * (tr > 0.0 ? tr : 1.0) / (double)mr;
    int info = 1;
    for (int attempt = 0; attempt < 12 && info != 0; attempt++, ridge *= 100.0) {
        memcpy(c->chol, c->kzz, mr * mr * sizeof(double));
        for (size_t j = 0; j < mr; j++)
            c->chol[j * mr + j] += ridge;
        info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (lapack_int)mr, c->chol, (lapack_int)mr);
    }
    if (info != 0) {
        c->st = kpca_fail(c->err, KPCA_ENUMERIC, "the kernel matrix of the reduced-set vectors cannot be factored");
        return NAN;
    }
    ridge /= 100.0;
    c->ridge = ridge;
    memcpy(c->beta, c->b, k * mr * sizeof(double));
    LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', (lapack_int)mr, (lapack_int)k, c->chol, (lapack_int)mr, c->beta,
                   (lapack_int)mr);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)k, (int)mr, (int)mr, 1.0, c->beta, (int)mr, c->kzz,
                (int)mr, 0.0, c->g, (int)mr);
    double f = 0.0;
    for (size_t q = 0; q < k; q++) {
        const double *bq = c->beta + q * mr;
        double bb = cblas_ddot((int)mr, bq, 1, c->b + q * mr, 1);
        double bkb = cblas_ddot((int)mr, bq, 1, c->g + q * mr, 1);
        double nb = cblas_ddot((int)mr, bq, 1, bq, 1);
        c->rho[q] = c->nrm[q] - 2.0 * bb + bkb;
        f += c->w[q] * (c->rho[q] + ridge * nb);
    }
    if (grad == NULL)
        return f;
    /* envelope theorem: the gradient at fixed (optimal) beta.
     * P = beta' W A (mr x M), Q = beta' W beta (mr x mr) */
    for (size_t q = 0; q < k; q++)
        for (size_t j = 0; j < mr; j++)
            c->g[q * mr + j] = c->w[q] * c->beta[q * mr + j];
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)mr, (int)M, (int)k, 1.0, c->g, (int)mr, c->a, (int)M,
                0.0, c->P, (int)M);
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)mr, (int)mr, (int)k, 1.0, c->g, (int)mr, c->beta,
                (int)mr, 0.0, c->Q, (int)mr);
    if (is_dot_kernel(c->kern)) {
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)mr, (int)M, (int)dim, 1.0, z, (int)dim, c->x,
                    (int)dim, 0.0, c->dzx, (int)M);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)mr, (int)mr, (int)dim, 1.0, z, (int)dim, z,
                    (int)dim, 0.0, c->dzz, (int)mr);
        for (size_t i = 0; i < mr * M; i++)
            c->P[i] *= dot_kernel_deriv(c->kern, c->dzx[i]);
        for (size_t i = 0; i < mr * mr; i++)
            c->Q[i] *= dot_kernel_deriv(c->kern, c->dzz[i]);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)mr, (int)dim, (int)M, -2.0, c->P, (int)M, c->x,
                    (int)dim, 0.0, grad, (int)dim);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)mr, (int)dim, (int)mr, 2.0, c->Q, (int)mr, z,
                    (int)dim, 1.0, grad, (int)dim);
    } else { /* rbf: grad_z k(z, y) = k(z, y) (y - z) / sigma^2 */
        const double s2 = c->kern->sigma * c->kern->sigma;
        for (size_t i = 0; i < mr * M; i++)
            c->P[i] *= c->kzx[i];
        for (size_t i = 0; i < mr * mr; i++)
            c->Q[i] *= c->kzz[i];
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)mr, (int)dim, (int)M, -2.0 / s2, c->P, (int)M,
                    c->x, (int)dim, 0.0, grad, (int)dim);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)mr, (int)dim, (int)mr, 2.0 / s2, c->Q, (int)mr,
                    z, (int)dim, 1.0, grad, (int)dim);
        for (size_t j = 0; j < mr; j++) {
            double sp = 0.0, sq = 0.0;
            for (size_t i = 0; i < M; i++)
                sp += c->P[j * M + i];
            for (size_t l = 0; l < mr; l++)
                sq += c->Q[j * mr + l];
            cblas_daxpy((int)dim, (2.0 * sp - 2.0 * sq) / s2, z + j * dim, 1, grad + j * dim, 1);
        }
    }
    return f;
}

static lbfgsfloatval_t lb_evaluate(void *inst, const lbfgsfloatval_t *x, lbfgsfloatval_t *g, const int n,
                                   const lbfgsfloatval_t step)
{
    (void)step;
    rctx *c = inst;
    if (c->st != KPCA_OK)
        return INFINITY;
    double f = objective(c, x, g);
    if (!isfinite(f)) {
        memset(g, 0, (size_t)n * sizeof *g);
        return INFINITY;
    }
    if (f < c->best_f) {
        c->best_f = f;
        memcpy(c->best_z, x, (size_t)n * sizeof *x);
    }
    return f;
}

static int lb_progress(void *inst, const lbfgsfloatval_t *x, const lbfgsfloatval_t *g, const lbfgsfloatval_t fx,
                       const lbfgsfloatval_t xnorm, const lbfgsfloatval_t gnorm, const lbfgsfloatval_t step, int n,
                       int k, int ls)
{
    (void)x, (void)g, (void)fx, (void)xnorm, (void)gnorm, (void)step, (void)n, (void)ls;
    rctx *c = inst;
    c->iters = (size_t)k;
    kpca_progress("reduce", (size_t)k, c->max_iter);
    return c->st != KPCA_OK;
}

static void ctx_free(rctx *c)
{
    kpca_free(c->dzx);
    kpca_free(c->kzx);
    kpca_free(c->P);
    kpca_free(c->dzz);
    kpca_free(c->kzz);
    kpca_free(c->chol);
    kpca_free(c->Q);
    kpca_free(c->b);
    kpca_free(c->beta);
    kpca_free(c->g);
    kpca_free(c->rho);
    kpca_free(c->best_z);
}

static kpca_status ctx_alloc(rctx *c, kpca_error *err)
{
    const size_t mr = c->mr, M = c->M, k = c->k, dim = c->dim;
    c->dzx = kpca_alloc_array(mr, M, sizeof(double));
    c->kzx = kpca_alloc_array(mr, M, sizeof(double));
    c->P = kpca_alloc_array(mr, M, sizeof(double));
    c->dzz = kpca_alloc_array(mr, mr, sizeof(double));
    c->kzz = kpca_alloc_array(mr, mr, sizeof(double));
    c->chol = kpca_alloc_array(mr, mr, sizeof(double));
    c->Q = kpca_alloc_array(mr, mr, sizeof(double));
    c->b = kpca_alloc_array(k, mr, sizeof(double));
    c->beta = kpca_alloc_array(k, mr, sizeof(double));
    c->g = kpca_alloc_array(k, mr, sizeof(double));
    c->rho = kpca_alloc_array(k, 1, sizeof(double));
    c->best_z = kpca_alloc_array(mr, dim, sizeof(double));
    if (!c->dzx || !c->kzx || !c->P || !c->dzz || !c->kzz || !c->chol || !c->Q || !c->b || !c->beta || !c->g ||
        !c->rho || !c->best_z)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for a reduced set of %zu vectors", mr);
    return KPCA_OK;
}

static void row_means(const double *a, size_t rows, size_t cols, double *out)
{
    for (size_t j = 0; j < rows; j++) {
        double s = 0.0;
        for (size_t i = 0; i < cols; i++)
            s += a[j * cols + i];
        out[j] = s / (double)cols;
    }
}

/* L-BFGS over z (mr x dim, updated to the best point seen) from f0 = the
 * objective at z; on return c's beta, kernel values and residuals are z's. */
static kpca_status optimise(rctx *c, double *z, double f0, size_t max_iter, int *lb_status, kpca_error *err)
{
    const size_t n = c->mr * c->dim;
    c->best_f = f0;
    memcpy(c->best_z, z, n * sizeof(double));
    if (n > (size_t)0x7fffffff)
        return kpca_fail(err, KPCA_EUSAGE, "%zu x %zu reduced-set coordinates are too many for libLBFGS", c->mr,
                         c->dim);
    lbfgsfloatval_t *lx = lbfgs_malloc((int)n);
    if (lx == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for the optimiser");
    memcpy(lx, z, n * sizeof(double));
    lbfgs_parameter_t lp;
    lbfgs_parameter_init(&lp);
    lp.max_iterations = (int)(max_iter > 100000 ? 100000 : max_iter);
    lp.max_linesearch = 20;
    lp.epsilon = 1e-7;
    lbfgsfloatval_t fx = 0.0;
    *lb_status = lbfgs((int)n, lx, &fx, lb_evaluate, lb_progress, c, &lp);
    lbfgs_free(lx);
    if (c->st != KPCA_OK)
        return c->st;
    kpca_progress("reduce", max_iter, max_iter);
    /* back to the best point seen: its beta, kernel values and residuals */
    memcpy(z, c->best_z, n * sizeof(double));
    objective(c, z, NULL);
    return c->st;
}

static int quadratic_kernel(const kpca_kernel *k)
{
    return k->type == KPCA_KERNEL_POLY && k->degree == 2 && k->coef0 == 0.0;
}

kpca_status kpca_reduce(const kpca_model *full, const kpca_reduce_params *p, kpca_model *out, kpca_reduce_info *info,
                        kpca_error *err)
{
    memset(out, 0, sizeof *out);
    if (full->centring == KPCA_CENTRE_NYSTROM)
        return kpca_fail(err, KPCA_EUSAGE, "a Nystrom model cannot be reduced: its components are not expansions "
                         "on its landmarks with the paper's centring (fit with the exact or randomized solver)");
    if (full->centring == KPCA_CENTRE_REDUCED)
        return kpca_fail(err, KPCA_EUSAGE, "the model is already reduced (%s); reduce its full model instead",
                         full->reduction);
    if (full->kernel.type == KPCA_KERNEL_SIGMOID)
        return kpca_fail(err, KPCA_EUSAGE, "the sigmoid kernel is not positive semi-definite: |V - V~|^2 can be "
                         "negative and has no minimum, so a reduced set is not defined");
    if (full->kernel.type == KPCA_KERNEL_PRECOMPUTED)
        return kpca_fail(err, KPCA_EUSAGE, "a reduced set is made of points of an input space, and a precomputed "
                         "kernel has none: its points are rows of a kernel matrix");
    if (full->kernel.type != KPCA_KERNEL_POLY && full->kernel.type != KPCA_KERNEL_RBF &&
        full->kernel.type != KPCA_KERNEL_LINEAR)
        return kpca_fail(err, KPCA_EUSAGE, "a reduced set needs the gradient of a kernel of x.y or of |x - y|^2 "
                         "(poly, rbf, linear), not of the %s kernel", kpca_kernel_name(full->kernel.type));
    const size_t M = full->m, dim = full->dim;
    if (p->vectors == 0 || p->vectors > M)
        return kpca_fail(err, KPCA_EUSAGE, "cannot reduce to %zu vectors: give 1 to %zu (the model's fit points)",
                         p->vectors, M);
    const size_t k = p->components ? p->components : full->k;
    if (k > full->k)
        return kpca_fail(err, KPCA_EUSAGE, "cannot keep %zu components: the model has %zu", k, full->k);
    kpca_reduce_method method = p->method;
    /* AUTO: the eigen-expansion when it is exact within the budget (each
     * component needs a vector of its own), else L-BFGS from the start */
    int try_exact = method == KPCA_REDUCE_AUTO && quadratic_kernel(&full->kernel) && p->vectors >= k;
    if (method == KPCA_REDUCE_AUTO)
        method = try_exact ? KPCA_REDUCE_EIG : KPCA_REDUCE_LBFGS;
    if (method == KPCA_REDUCE_EIG && !quadratic_kernel(&full->kernel))
        return kpca_fail(err, KPCA_EUSAGE, "the eigen-expansion needs the kernel (gamma x.y)^2; this model's is %s "
                         "(use --method lbfgs)", kpca_kernel_name(full->kernel.type));
    if (method != KPCA_REDUCE_EIG && method != KPCA_REDUCE_LBFGS)
        return kpca_fail(err, KPCA_EUSAGE, "unknown reduction method %d", (int)method);
    const size_t want = p->vectors;
    {
        const double md = (double)want, Md = (double)M, kd = (double)k;
        char what[96];
        snprintf(what, sizeof what, "a reduced set of %zu vectors", want);
        double need = 8.0 * (3.0 * md * Md + 4.0 * md * md + 4.0 * kd * md + kd * Md + 16.0 * md * (double)dim);
        if (method == KPCA_REDUCE_EIG)
            need += 8.0 * (Md * (double)dim + kd * (double)dim * 2.0);
        kpca_status st = kpca_mem_check(need, what, err);
        if (st != KPCA_OK)
            return st;
    }
    double t0 = kpca_now();
    rctx c;
    memset(&c, 0, sizeof c);
    c.kern = &full->kernel;
    c.x = full->fitx;
    c.M = M;
    c.dim = dim;
    c.k = k;
    c.err = err;
    c.st = KPCA_OK;
    c.best_f = INFINITY;
    c.max_iter = p->max_iter;
    double *a = kpca_alloc_array(k, M, sizeof(double));
    double *w = kpca_alloc_array(k, 1, sizeof(double));
    double *nrm = kpca_alloc_array(k, 1, sizeof(double));
    double *z = NULL, *beta_eig = NULL, *rho_eig = NULL;
    double *keep_z = NULL, *keep_beta = NULL, *keep_rho = NULL, *keep_cm = NULL, *colmean = NULL;
    kpca_status st = KPCA_OK;
    int lb_status = 0;
    if (!a || !w || !nrm) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu components", k);
        goto done;
    }
    for (size_t q = 0; q < k; q++) {
        const double *al = full->alpha + q * M;
        double s = 0.0, ss = 0.0;
        for (size_t i = 0; i < M; i++)
            s += al[i];
        s /= (double)M;
        for (size_t i = 0; i < M; i++) {
            a[q * M + i] = al[i] - s;
            ss += al[i] * al[i];
        }
        nrm[q] = full->eigval[q] * ss; /* alpha' K~ alpha = |V_c|^2 */
        w[q] = p->weight_eigval ? full->eigval[q] / full->eigval[0] : 1.0;
    }
    c.a = a;
    c.w = w;
    c.nrm = nrm;
    size_t mr = want;
    if (method == KPCA_REDUCE_EIG) {
        st = kpca_reduce_eig_start(full, a, w, k, want, try_exact, &z, &beta_eig, &mr, err);
        if (st != KPCA_OK)
            goto done;
        if (mr == 0) { /* AUTO, not exact within the budget */
            method = KPCA_REDUCE_LBFGS;
            mr = want;
        }
    }
    if (method == KPCA_REDUCE_LBFGS) {
        z = kpca_alloc_array(want, dim, sizeof(double));
        if (z == NULL) {
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu reduced-set vectors", want);
            goto done;
        }
        if (p->init == KPCA_REDUCE_INIT_KMEANS) {
            kpca_progress("k-means", 0, 1);
            st = kpca_kmeans(full->fitx, M, dim, want, p->seed, KPCA_DEFAULT_KMEANS_ITER, z, NULL, NULL, err);
            kpca_progress("k-means", 1, 1);
        } else {
            size_t *idx = kpca_alloc_array(want, 1, sizeof(size_t));
            st = idx == NULL ? kpca_fail(err, KPCA_ENOMEM, "out of memory")
                             : kpca_landmarks_uniform(M, want, p->seed, idx, err);
            for (size_t j = 0; st == KPCA_OK && j < want; j++)
                memcpy(z + j * dim, full->fitx + idx[j] * dim, dim * sizeof(double));
            kpca_free(idx);
        }
        if (st != KPCA_OK)
            goto done;
    }
    c.mr = mr;
    st = ctx_alloc(&c, err);
    if (st != KPCA_OK)
        goto done;
    double f0 = objective(&c, z, NULL);
    if (c.st != KPCA_OK) {
        st = c.st;
        goto done;
    }
    double rho_start = 0.0;
    for (size_t q = 0; q < k; q++)
        rho_start += w[q] * fmax(c.rho[q], 0.0);
    if (method == KPCA_REDUCE_EIG) {
        /* per component, the eigen-expansion's own beta or the least-squares
         * one over every kept vector, whichever leaves less */
        rho_eig = kpca_alloc_array(k, 1, sizeof(double));
        if (rho_eig == NULL) {
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
            goto done;
        }
        for (size_t q = 0; q < k; q++) {
            const double *bq = beta_eig + q * mr;
            cblas_dsymv(CblasRowMajor, CblasUpper, (int)mr, 1.0, c.kzz, (int)mr, bq, 1, 0.0, c.g + q * mr, 1);
            rho_eig[q] = nrm[q] - 2.0 * cblas_ddot((int)mr, bq, 1, c.b + q * mr, 1) +
                         cblas_ddot((int)mr, bq, 1, c.g + q * mr, 1);
            if (rho_eig[q] <= c.rho[q]) {
                c.rho[q] = rho_eig[q];
                memcpy(c.beta + q * mr, bq, mr * sizeof(double));
            }
        }
        rho_start = 0.0;
        for (size_t q = 0; q < k; q++)
            rho_start += w[q] * fmax(c.rho[q], 0.0);
    }
    /* L-BFGS from the start (the eigen-expansion's vectors too, unless exact) */
    int run_lbfgs = p->max_iter > 0 && (method == KPCA_REDUCE_LBFGS || rho_start > 1e-14 * (double)k);
    if (run_lbfgs && method == KPCA_REDUCE_EIG) {
        /* keep the eigen-expansion, to come back to if L-BFGS (whose beta is
         * always the least-squares one) does not beat it */
        keep_z = kpca_alloc_array(mr, dim, sizeof(double));
        keep_beta = kpca_alloc_array(k, mr, sizeof(double));
        keep_rho = kpca_alloc_array(k, 1, sizeof(double));
        keep_cm = kpca_alloc_array(mr, 1, sizeof(double));
        if (!keep_z || !keep_beta || !keep_rho || !keep_cm) {
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
            goto done;
        }
        memcpy(keep_z, z, mr * dim * sizeof(double));
        memcpy(keep_beta, c.beta, k * mr * sizeof(double));
        memcpy(keep_rho, c.rho, k * sizeof(double));
        row_means(c.kzx, mr, M, keep_cm);
        f0 = objective(&c, z, NULL); /* the least-squares beta again */
        if (c.st != KPCA_OK) {
            st = c.st;
            goto done;
        }
    }
    if (run_lbfgs) {
        st = optimise(&c, z, f0, p->max_iter, &lb_status, err);
        if (st != KPCA_OK)
            goto done;
    }
    double rho_final = 0.0;
    for (size_t q = 0; q < k; q++)
        rho_final += w[q] * fmax(c.rho[q], 0.0);
    colmean = kpca_alloc_array(mr, 1, sizeof(double));
    if (colmean == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
        goto done;
    }
    row_means(c.kzx, mr, M, colmean);
    if (keep_z != NULL && rho_final >= rho_start) {
        memcpy(z, keep_z, mr * dim * sizeof(double));
        memcpy(c.beta, keep_beta, k * mr * sizeof(double));
        memcpy(c.rho, keep_rho, k * sizeof(double));
        memcpy(colmean, keep_cm, mr * sizeof(double));
        rho_final = rho_start;
        c.iters = 0;
    }

    /* the reduced model */
    out->fitx = z;
    z = NULL;
    out->fity = kpca_alloc_array(mr, 1, sizeof(int));
    out->alpha = kpca_alloc_array(k, mr, sizeof(double));
    out->eigval = kpca_alloc_array(k, 1, sizeof(double));
    out->colmean = colmean;
    colmean = NULL;
    out->rho = kpca_alloc_array(k, 1, sizeof(double));
    if (!out->fity || !out->alpha || !out->eigval || !out->rho) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the reduced model");
        goto done;
    }
    for (size_t j = 0; j < mr; j++)
        out->fity[j] = -1; /* not a fit point */
    memcpy(out->alpha, c.beta, k * mr * sizeof(double));
    memcpy(out->eigval, full->eigval, k * sizeof(double));
    for (size_t q = 0; q < k; q++)
        out->rho[q] = fmax(c.rho[q], 0.0);
    out->kernel = full->kernel;
    out->centring = KPCA_CENTRE_REDUCED;
    memcpy(out->solver, full->solver, sizeof out->solver);
    out->m = mr;
    out->fit_n = M;
    out->dim = dim;
    out->k = k;
    out->grandmean = 0.0;
    out->trace = full->trace;
    out->input_lo = full->input_lo;
    out->input_hi = full->input_hi;
    out->smooth = full->smooth;
    memcpy(out->source, full->source, sizeof out->source);
    st = kpca_model_copy_inputs(out, full, err); /* its inputs are the full model's */
    if (st != KPCA_OK)
        goto done;
    if (method == KPCA_REDUCE_EIG)
        snprintf(out->reduction, sizeof out->reduction,
                 "eig: %zu eigenvectors of the components' quadratic forms (of %zu asked), then %zu lbfgs "
                 "iterations (at most %zu), %s weights, from %zu fit points",
                 mr, want, c.iters, run_lbfgs ? p->max_iter : 0, p->weight_eigval ? "eigenvalue" : "equal", M);
    else
        snprintf(out->reduction, sizeof out->reduction,
                 "lbfgs: %zu iterations (at most %zu), start %s seed %llu, %s weights, from %zu fit points", c.iters,
                 p->max_iter, kpca_reduce_init_name(p->init), (unsigned long long)p->seed,
                 p->weight_eigval ? "eigenvalue" : "equal", M);
    st = kpca_model_validate(out, "reduced model", err);
    if (st != KPCA_OK)
        goto done;
    if (info != NULL) {
        info->method = method;
        info->rho_start = rho_start;
        info->rho_final = rho_final;
        info->iters = c.iters;
        info->evals = c.evals;
        info->lbfgs_status = lb_status;
        info->seconds = kpca_now() - t0;
    }
done:
    if (st != KPCA_OK)
        kpca_model_free(out);
    kpca_free(keep_z);
    kpca_free(keep_beta);
    kpca_free(keep_rho);
    kpca_free(keep_cm);
    kpca_free(colmean);
    ctx_free(&c);
    kpca_free(a);
    kpca_free(w);
    kpca_free(nrm);
    kpca_free(z);
    kpca_free(beta_eig);
    kpca_free(rho_eig);
    return st;
}
