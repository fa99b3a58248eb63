#include "ext/preimage.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "support/mem.h"
#include "support/progress.h"

kpca_preimage_params kpca_preimage_defaults(void)
{
    kpca_preimage_params p;
    p.max_iter = KPCA_PREIMAGE_MAX_ITER;
    p.tol = KPCA_PREIMAGE_TOL;
    p.start = NULL;
    p.plain = 0;
    return p;
}

typedef struct {
    const kpca_model *md;
    size_t m, dim;
    double *xx;   /* rbf: m squared norms of the fit points (owned) */
    double *ac;   /* k x m: alpha with each row's mean removed (owned) */
    size_t k;
    double inv2s2; /* rbf: 1 / (2 sigma^2) */
    int rbf;
} ctx;

/* rho(z) minus its constant, from s = z's m dot products with the fit
 * points, zz = |z|^2 and the coefficients g. */
static double objective(const ctx *c, const double *g, const double *s, double zz)
{
    double acc = 0.0, df;
    if (c->rbf) {
        for (size_t i = 0; i < c->m; i++) {
            double d2 = zz + c->xx[i] - 2.0 * s[i];
            acc += g[i] * exp(-(d2 > 0.0 ? d2 : 0.0) * c->inv2s2);
        }
        return 1.0 - 2.0 * acc;
    }
    for (size_t i = 0; i < c->m; i++)
        acc += g[i] * kpca_kernel_of_dot(&c->md->kernel, s[i], &df);
    return kpca_kernel_of_dot(&c->md->kernel, zz, &df) - 2.0 * acc;
}

/* The weights w (m) of T(z) = sum_i w_i x_i / den; returns den and writes
 * sum |w_i| to *absw. */
static double weights(const ctx *c, const double *g, const double *s, double zz, double *w, double *absw)
{
    double den = 0.0, a = 0.0, df;
    for (size_t i = 0; i < c->m; i++) {
        if (c->rbf) {
            double d2 = zz + c->xx[i] - 2.0 * s[i];
            w[i] = g[i] * exp(-(d2 > 0.0 ? d2 : 0.0) * c->inv2s2);
            den += w[i];
        } else {
            (void)kpca_kernel_of_dot(&c->md->kernel, s[i], &df);
            w[i] = g[i] * df;
        }
        a += fabs(w[i]);
    }
    if (!c->rbf)
        (void)kpca_kernel_of_dot(&c->md->kernel, zz, &den);
    *absw = a;
    return den;
}

static kpca_status ctx_init(ctx *c, const kpca_model *md, size_t k, kpca_error *err)
{
    memset(c, 0, sizeof *c);
    c->md = md;
    c->m = md->m;
    c->dim = md->dim;
    c->k = k;
    c->rbf = md->kernel.type == KPCA_KERNEL_RBF;
    c->inv2s2 = c->rbf ? 1.0 / (2.0 * md->kernel.sigma * md->kernel.sigma) : 0.0;
    c->ac = kpca_alloc_array(k, md->m, sizeof(double));
    c->xx = c->rbf ? kpca_alloc_array(md->m, 1, sizeof(double)) : NULL;
    if (c->ac == NULL || (c->rbf && c->xx == NULL)) {
        kpca_free(c->ac);
        kpca_free(c->xx);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu x %zu pre-image coefficients", k, md->m);
    }
    for (size_t r = 0; r < k; r++) {
        const double *a = md->alpha + r * md->m;
        double mean = 0.0;
        for (size_t i = 0; i < md->m; i++)
            mean += a[i];
        mean /= (double)md->m;
        for (size_t i = 0; i < md->m; i++)
            c->ac[r * md->m + i] = a[i] - mean;
    }
    if (c->rbf)
        for (size_t i = 0; i < md->m; i++)
            c->xx[i] = cblas_ddot((int)md->dim, md->fitx + i * md->dim, 1, md->fitx + i * md->dim, 1);
    return KPCA_OK;
}

static void ctx_free(ctx *c)
{
    kpca_free(c->ac);
    kpca_free(c->xx);
}

/* gamma (nb x m) of the nb points x; beta is an nb x k workspace. */
static kpca_status gamma_block(const ctx *c, const double *x, size_t nb, double *beta, double *gamma,
                               kpca_error *err)
{
    kpca_status st = kpca_model_transform(c->md, x, nb, c->dim, c->k, beta, err);
    if (st != KPCA_OK)
        return st;
    const double inv_m = 1.0 / (double)c->m;
    for (size_t i = 0; i < nb * c->m; i++)
        gamma[i] = inv_m;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)nb, (int)c->m, (int)c->k, 1.0, beta, (int)c->k,
                c->ac, (int)c->m, 1.0, gamma, (int)c->m);
    return KPCA_OK;
}

static kpca_status check_args(const kpca_model *md, size_t dim, size_t k, kpca_error *err)
{
    /* the expansion on the model's points assumes the paper's centring: a
     * Nystrom model's points are landmarks, its mean is over other points */
    if (md->centring == KPCA_CENTRE_REDUCED)
        return kpca_fail(err, KPCA_EUSAGE, "pre-images need the full model: a reduced model (kpca reduce) keeps no "
                         "expansion on the fit points");
    if (md->centring != KPCA_CENTRE_KERNEL)
        return kpca_fail(err, KPCA_EUSAGE, "pre-images need a model of the exact or randomized solver (this one is "
                         "%s)", md->solver);
    if (md->kernel.type == KPCA_KERNEL_PRECOMPUTED)
        return kpca_fail(err, KPCA_EUSAGE, "pre-images are points of an input space, and a precomputed kernel has "
                         "none: its points are rows of a kernel matrix");
    if (md->kernel.type != KPCA_KERNEL_POLY && md->kernel.type != KPCA_KERNEL_RBF &&
        md->kernel.type != KPCA_KERNEL_SIGMOID && md->kernel.type != KPCA_KERNEL_LINEAR)
        return kpca_fail(err, KPCA_EUSAGE, "pre-images need a kernel of x.y or of |x - y|^2 (poly, rbf, sigmoid, "
                         "linear), whose fixed-point iteration kpca has; not the %s kernel",
                         kpca_kernel_name(md->kernel.type));
    if (dim != md->dim)
        return kpca_fail(err, KPCA_EFORMAT, "the data has %zu values per point but the model expects %zu", dim,
                         md->dim);
    if (k == 0 || k > md->k)
        return kpca_fail(err, KPCA_EUSAGE, "cannot reconstruct from %zu components: the model has %zu", k, md->k);
    return KPCA_OK;
}

kpca_status kpca_preimage_gamma(const kpca_model *md, const double *x, size_t n, size_t dim, size_t k,
                                double *gamma, kpca_error *err)
{
    kpca_status st = check_args(md, dim, k, err);
    if (st != KPCA_OK || n == 0)
        return st;
    ctx c;
    st = ctx_init(&c, md, k, err);
    if (st != KPCA_OK)
        return st;
    double *beta = kpca_alloc_array(n, k, sizeof(double));
    st = beta == NULL ? kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu x %zu projections", n, k)
                      : gamma_block(&c, x, n, beta, gamma, err);
    kpca_free(beta);
    ctx_free(&c);
    return st;
}

/* ---- the guarded fixed-point iteration, one block of points at a time ---- */

enum { ST_EVAL, ST_NEEDT, ST_TRY, ST_DONE };

typedef struct {
    double *beta;  /* B x k */
    double *gamma; /* B x m */
    double *s;     /* B x m: dot products of the current iterates with the fit points */
    double *w;     /* B x m: weights of T, or the trial points' dot products */
    double *t;     /* B x dim: T(z) */
    double *zb;    /* B x dim: gathered trial points, or gathered sums */
    double *rho, *rho0, *zz, *step, *den; /* B each */
    size_t *idx, *nstep;                  /* B each */
    int *state, *restarted;               /* B each */
} work;

static void work_free(work *w)
{
    kpca_free(w->beta);
    kpca_free(w->gamma);
    kpca_free(w->s);
    kpca_free(w->w);
    kpca_free(w->t);
    kpca_free(w->zb);
    kpca_free(w->rho);
    kpca_free(w->rho0);
    kpca_free(w->zz);
    kpca_free(w->step);
    kpca_free(w->den);
    kpca_free(w->idx);
    kpca_free(w->nstep);
    kpca_free(w->state);
    kpca_free(w->restarted);
}

static int work_alloc(work *w, size_t b, size_t m, size_t dim, size_t k)
{
    memset(w, 0, sizeof *w);
    w->beta = kpca_alloc_array(b, k, sizeof(double));
    w->gamma = kpca_alloc_array(b, m, sizeof(double));
    w->s = kpca_alloc_array(b, m, sizeof(double));
    w->w = kpca_alloc_array(b, m, sizeof(double));
    w->t = kpca_alloc_array(b, dim, sizeof(double));
    w->zb = kpca_alloc_array(b, dim, sizeof(double));
    w->rho = kpca_alloc_array(b, 1, sizeof(double));
    w->rho0 = kpca_alloc_array(b, 1, sizeof(double));
    w->zz = kpca_alloc_array(b, 1, sizeof(double));
    w->step = kpca_alloc_array(b, 1, sizeof(double));
    w->den = kpca_alloc_array(b, 1, sizeof(double));
    w->idx = kpca_alloc_array(b, 1, sizeof(size_t));
    w->nstep = kpca_alloc_array(b, 1, sizeof(size_t));
    w->state = kpca_alloc_array(b, 1, sizeof(int));
    w->restarted = kpca_alloc_array(b, 1, sizeof(int));
    return w->beta && w->gamma && w->s && w->w && w->t && w->zb && w->rho && w->rho0 && w->zz && w->step &&
           w->den && w->idx && w->nstep && w->state && w->restarted;
}

static int all_finite(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

/* T is undefined for point r: restart once from sum_i gamma_i x_i when it
 * has not moved yet, else stop where it is. */
static void undefined_step(const ctx *c, work *w, size_t r, double *z, kpca_preimage_info *info)
{
    const size_t m = c->m, dim = c->dim;
    if (w->nstep[r] == 0 && !w->restarted[r]) {
        w->restarted[r] = 1;
        info->restarted++;
        cblas_dgemv(CblasRowMajor, CblasTrans, (int)m, (int)dim, 1.0, c->md->fitx, (int)dim, w->gamma + r * m, 1,
                    0.0, z + r * dim, 1);
        w->state[r] = all_finite(z + r * dim, dim) ? ST_EVAL : ST_DONE;
        if (w->state[r] == ST_DONE) { /* not kept: run_block restores the start */
            w->rho[r] = INFINITY;
            info->stalled++;
        }
    } else {
        w->state[r] = ST_DONE;
        info->stalled++;
    }
}

/* Phase 1 of a round: T(z) for every point in ST_NEEDT. */
static void compute_targets(const ctx *c, work *w, size_t nb, double *z, kpca_preimage_info *info)
{
    const size_t m = c->m, dim = c->dim;
    size_t na = 0;
    double absw;
    for (size_t r = 0; r < nb; r++)
        if (w->state[r] == ST_NEEDT) {
            w->den[r] = weights(c, w->gamma + r * m, w->s + r * m, w->zz[r], w->w + na * m, &absw);
            /* rbf: a sum of signed terms that cancels is as undefined as 0 */
            if (c->rbf && !(w->den[r] > 1e-12 * absw))
                w->den[r] = 0.0;
            w->idx[na++] = r;
        }
    if (na == 0)
        return;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)na, (int)dim, (int)m, 1.0, w->w, (int)m,
                c->md->fitx, (int)dim, 0.0, w->zb, (int)dim);
    for (size_t j = 0; j < na; j++) {
        size_t r = w->idx[j];
        double den = w->den[r];
        double *tr = w->t + r * dim;
        if (den > 0.0) {
            for (size_t d = 0; d < dim; d++)
                tr[d] = w->zb[j * dim + d] / den;
        }
        if (den > 0.0 && all_finite(tr, dim)) {
            w->state[r] = ST_TRY;
            w->step[r] = 1.0;
        } else {
            undefined_step(c, w, r, z, info);
        }
    }
}

/* Phase 2 of a round: evaluate the new start points (ST_EVAL) and the trial
 * steps (ST_TRY) with one GEMM; accept, halve or stop.  Returns the number
 * of points evaluated. */
static size_t try_steps(const ctx *c, const kpca_preimage_params *p, work *w, size_t nb, double *z,
                        kpca_preimage_info *info)
{
    const size_t m = c->m, dim = c->dim;
    size_t na = 0;
    for (size_t r = 0; r < nb; r++) {
        double *zr = z + r * dim, *zbj = w->zb + na * dim;
        if (w->state[r] == ST_EVAL) {
            memcpy(zbj, zr, dim * sizeof(double));
        } else if (w->state[r] == ST_TRY) {
            const double *tr = w->t + r * dim;
            double len2 = 0.0, t = w->step[r];
            for (size_t d = 0; d < dim; d++)
                len2 += (tr[d] - zr[d]) * (tr[d] - zr[d]);
            double znorm = cblas_dnrm2((int)dim, zr, 1);
            if (t * sqrt(len2) <= p->tol * fmax(znorm, DBL_MIN)) {
                /* no step longer than tol |z| lowers rho: stationary */
                w->state[r] = ST_DONE;
                info->converged++;
                continue;
            }
            if (t == 1.0)
                memcpy(zbj, tr, dim * sizeof(double));
            else
                for (size_t d = 0; d < dim; d++)
                    zbj[d] = zr[d] + t * (tr[d] - zr[d]);
        } else {
            continue;
        }
        w->idx[na++] = r;
    }
    if (na == 0)
        return 0;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)na, (int)m, (int)dim, 1.0, w->zb, (int)dim,
                c->md->fitx, (int)dim, 0.0, w->w, (int)m);
    for (size_t j = 0; j < na; j++) {
        size_t r = w->idx[j];
        const double *zbj = w->zb + j * dim, *sj = w->w + j * m;
        double zz = cblas_ddot((int)dim, zbj, 1, zbj, 1);
        double rho = objective(c, w->gamma + r * m, sj, zz);
        int eval = w->state[r] == ST_EVAL;
        if (!eval && !p->plain && !(rho <= w->rho[r])) {
            w->step[r] *= 0.5;
            info->halvings++;
            continue;
        }
        if (!isfinite(rho)) { /* a start point, or a plain step, that overflows */
            if (eval) /* a restart point that overflows is not kept (run_block) */
                w->rho[r] = INFINITY;
            w->state[r] = ST_DONE;
            info->stalled++;
            continue;
        }
        double *zr = z + r * dim, moved2 = 0.0;
        for (size_t d = 0; d < dim; d++)
            moved2 += (zbj[d] - zr[d]) * (zbj[d] - zr[d]);
        memcpy(zr, zbj, dim * sizeof(double));
        memcpy(w->s + r * m, sj, m * sizeof(double));
        w->zz[r] = zz;
        w->rho[r] = rho;
        if (eval) {
            if (!w->restarted[r])
                w->rho0[r] = rho;
            w->state[r] = ST_NEEDT;
            continue;
        }
        w->nstep[r]++;
        if (sqrt(moved2) <= p->tol * fmax(sqrt(zz), DBL_MIN)) {
            w->state[r] = ST_DONE;
            info->converged++;
        } else if (w->nstep[r] >= p->max_iter) {
            w->state[r] = ST_DONE;
            info->max_iter_hit++;
        } else {
            w->state[r] = ST_NEEDT;
        }
    }
    return na;
}

static void run_block(const ctx *c, const kpca_preimage_params *p, work *w, const double *start, size_t nb,
                      double *z, size_t *iters, kpca_preimage_info *info)
{
    const size_t dim = c->dim;
    memcpy(z, start, nb * dim * sizeof(double));
    for (size_t r = 0; r < nb; r++) {
        w->state[r] = ST_EVAL;
        w->nstep[r] = 0;
        w->restarted[r] = 0;
    }
    /* a round ends with every point evaluated, done, or waiting for a new
     * T: none evaluated means all are done */
    do
        compute_targets(c, w, nb, z, info);
    while (try_steps(c, p, w, nb, z, info) > 0);
    for (size_t r = 0; r < nb; r++) {
        /* only a restart (or a plain step) can end above the start: keep the
         * start then, unless the plain iteration is asked for as it is */
        if (!p->plain && w->restarted[r] && !(w->rho[r] <= w->rho0[r]))
            memcpy(z + r * dim, start + r * dim, dim * sizeof(double));
        if (iters != NULL)
            iters[r] = w->nstep[r];
        if (w->nstep[r] > info->iter_max)
            info->iter_max = w->nstep[r];
        info->iter_mean += (double)w->nstep[r];
    }
}

kpca_status kpca_preimage(const kpca_model *md, const double *x, size_t n, size_t dim, size_t k,
                          const kpca_preimage_params *p, double *z, size_t *iters, kpca_preimage_info *info,
                          kpca_error *err)
{
    kpca_preimage_info inf;
    memset(&inf, 0, sizeof inf);
    inf.points = n;
    kpca_status st = check_args(md, dim, k, err);
    if (st != KPCA_OK)
        return st;
    if (p->max_iter < 1)
        return kpca_fail(err, KPCA_EUSAGE, "max_iter must be at least 1");
    if (!(p->tol > 0.0) || !isfinite(p->tol))
        return kpca_fail(err, KPCA_EUSAGE, "tol %g out of range (expected a finite number > 0)", p->tol);
    if (n == 0) {
        if (info != NULL)
            *info = inf;
        return KPCA_OK;
    }
    const size_t m = md->m, b = n < KPCA_PREIMAGE_BLOCK ? n : KPCA_PREIMAGE_BLOCK;
    st = kpca_mem_check(8.0 * (4.0 * (double)b * (double)m + (double)k * (double)m + 3.0 * (double)b * (double)dim),
                        "pre-images", err);
    if (st != KPCA_OK)
        return st;
    ctx c;
    st = ctx_init(&c, md, k, err);
    if (st != KPCA_OK)
        return st;
    work w;
    if (!work_alloc(&w, b, m, dim, k)) {
        work_free(&w);
        ctx_free(&c);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for pre-images of %zu points x %zu fit points", b, m);
    }
    const double *start = p->start != NULL ? p->start : x;
    for (size_t r0 = 0; r0 < n && st == KPCA_OK; r0 += b) {
        size_t nb = n - r0 < b ? n - r0 : b;
        st = gamma_block(&c, x + r0 * dim, nb, w.beta, w.gamma, err);
        if (st != KPCA_OK)
            break;
        kpca_progress("pre-images", r0, n);
        run_block(&c, p, &w, start + r0 * dim, nb, z + r0 * dim, iters != NULL ? iters + r0 : NULL, &inf);
    }
    kpca_progress("pre-images", n, n);
    work_free(&w);
    ctx_free(&c);
    if (st != KPCA_OK)
        return st;
    inf.iter_mean /= (double)n;
    if (info != NULL)
        *info = inf;
    return KPCA_OK;
}
