#include "core/model.h"

#include <cblas.h>
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/centre.h"
#include "core/nystrom.h"
#include "core/primal.h"
#include "core/randeig.h"
#include "gpu/eig_gpu.h"
#include "support/clock.h"
#include "support/mem.h"
#include "support/names.h"
#include "support/progress.h"

static const char *const solver_names[] = {"exact", "randomized", "nystrom"};
static const char *const landmark_names[] = {"uniform", "kmeans"};

#define NSOLVERS (sizeof solver_names / sizeof solver_names[0])
#define NLANDMARK (sizeof landmark_names / sizeof landmark_names[0])

const char *kpca_solver_name(kpca_solver s)
{
    return kpca_name_of(solver_names, NSOLVERS, (unsigned)s);
}

int kpca_solver_parse(const char *name, kpca_solver *out)
{
    int i = kpca_name_index(solver_names, NSOLVERS, name);
    if (i >= 0)
        *out = (kpca_solver)i;
    return i >= 0 ? 0 : -1;
}

const char *kpca_landmark_method_name(kpca_landmark_method m)
{
    return kpca_name_of(landmark_names, NLANDMARK, (unsigned)m);
}

int kpca_landmark_method_parse(const char *name, kpca_landmark_method *out)
{
    int i = kpca_name_index(landmark_names, NLANDMARK, name);
    if (i >= 0)
        *out = (kpca_landmark_method)i;
    return i >= 0 ? 0 : -1;
}

kpca_fit_params kpca_fit_defaults(int degree)
{
    kpca_fit_params p;
    memset(&p, 0, sizeof p); /* every field a default below leaves unset is 0 */
    p.kernel = kpca_kernel_poly(degree);
    p.solver = KPCA_SOLVER_EXACT;
    p.oversample = KPCA_RSVD_OVERSAMPLE;
    p.power_iters = KPCA_RSVD_POWER_ITERS;
    p.landmarks = KPCA_DEFAULT_LANDMARKS;
    p.landmark_method = KPCA_LANDMARKS_UNIFORM;
    p.kmeans_iter = KPCA_DEFAULT_KMEANS_ITER;
    p.seed = 1;
    p.components = 0;
    p.variance = 0.0;
    p.tol = -1.0;
    p.eig = KPCA_EIG_AUTO;
    p.primal = 1;
    p.precision = KPCA_PRECISION_DEFAULT;
    p.gram_index = NULL;
    p.block = 0;
    return p;
}

void kpca_model_free(kpca_model *model)
{
    if (model == NULL)
        return;
    kpca_free(model->fitx);
    kpca_free(model->gram_index);
    kpca_free(model->fity);
    kpca_free(model->alpha);
    kpca_free(model->eigval);
    kpca_free(model->colmean);
    kpca_free(model->rho);
    kpca_free_strings(model->colnames, model->colnames != NULL ? model->dim : 0);
    kpca_free(model->std_mean);
    kpca_free(model->std_scale);
    memset(model, 0, sizeof *model);
}

kpca_status kpca_model_copy_inputs(kpca_model *dst, const kpca_model *src, kpca_error *err)
{
    char **names = NULL;
    double *mean = NULL, *scale = NULL;
    if (src->colnames != NULL && (names = kpca_strings_dup(src->colnames, src->dim)) == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu column names", src->dim);
    if (src->std_mean != NULL) {
        mean = kpca_alloc_array(src->dim, 1, sizeof(double));
        scale = kpca_alloc_array(src->dim, 1, sizeof(double));
        if (mean == NULL || scale == NULL) {
            kpca_free(mean);
            kpca_free(scale);
            kpca_free_strings(names, names != NULL ? src->dim : 0);
            return kpca_fail(err, KPCA_ENOMEM, "out of memory for the standardisation of %zu columns", src->dim);
        }
        memcpy(mean, src->std_mean, src->dim * sizeof(double));
        memcpy(scale, src->std_scale, src->dim * sizeof(double));
    }
    kpca_free_strings(dst->colnames, dst->colnames != NULL ? dst->dim : 0);
    kpca_free(dst->std_mean);
    kpca_free(dst->std_scale);
    dst->colnames = names;
    dst->std_mean = mean;
    dst->std_scale = scale;
    memcpy(dst->subset, src->subset, sizeof dst->subset);
    dst->ranged = src->ranged;
    dst->range_lo = src->range_lo;
    dst->range_hi = src->range_hi;
    dst->rounded = src->rounded;
    dst->round = src->round;
    dst->steps_unknown = src->steps_unknown;
    return KPCA_OK;
}

typedef struct {
    double fraction, trace;
} variance_goal;

/* the fewest leading eigenpairs whose (positive) eigenvalues reach the
 * fraction of the trace; all positive ones when rounding keeps it short */
static size_t choose_by_variance(const double *mu, size_t n, void *ctx)
{
    const variance_goal *g = ctx;
    double sum = 0.0, goal = g->fraction * g->trace;
    size_t k = 0;
    while (k < n && mu[k] > 0.0) {
        sum += mu[k++];
        if (sum >= goal)
            break;
    }
    return k ? k : 1;
}

/* kpca_fail that also names the parameter at fault */
static kpca_status param_fail(const char **param, const char *name, kpca_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static kpca_status param_fail(const char **param, const char *name, kpca_error *err, const char *fmt, ...)
{
    if (param != NULL)
        *param = name;
    va_list ap;
    va_start(ap, fmt);
    kpca_vfail(err, KPCA_EUSAGE, fmt, ap);
    va_end(ap);
    return KPCA_EUSAGE;
}

kpca_status kpca_fit_check(const kpca_fit_params *p, size_t m, const char **param, kpca_error *err)
{
    if (param != NULL)
        *param = NULL;
    const kpca_kernel_type kt = p->kernel.type;
    /* the kernel: its data-dependent defaults are set once the data is read */
    if (m > 0 || (kt != KPCA_KERNEL_RBF && kt != KPCA_KERNEL_SIGMOID && kt != KPCA_KERNEL_LAPLACIAN)) {
        kpca_status st = kpca_kernel_check_param(&p->kernel, param, err);
        if (st != KPCA_OK)
            return st;
    }
    if (p->solver != KPCA_SOLVER_EXACT && p->solver != KPCA_SOLVER_RANDOMIZED && p->solver != KPCA_SOLVER_NYSTROM)
        return param_fail(param, "solver", err, "unknown solver %d", (int)p->solver);
    const int by_variance = p->variance != 0.0;
    if (by_variance) {
        if (!(p->variance > 0.0 && p->variance < 1.0))
            return param_fail(param, "variance", err, "variance fraction %g out of range (expected 0 < f < 1)",
                              p->variance);
        if (p->solver != KPCA_SOLVER_EXACT)
            return param_fail(param, "variance", err,
                              "a variance fraction needs every eigenvalue: the exact solver only");
        if (p->eig == KPCA_EIG_EVR || p->eig == KPCA_EIG_ELPA)
            return param_fail(param, "variance", err,
                              "a variance fraction needs every eigenvalue: the EVD driver (evd or auto), not "
                              "%s", kpca_eig_method_name(p->eig));
        if (kt == KPCA_KERNEL_SIGMOID)
            return param_fail(param, "variance", err,
                              "a variance fraction needs a positive semi-definite kernel: the sigmoid kernel's trace "
                              "mixes positive and negative eigenvalues; give a number of components");
        if (m > 0 && !kpca_eig_evd_fits(m) && p->cuda == NULL) /* cuSOLVER's 64-bit API has no such limit */
            return param_fail(param, "variance", err,
                              "a variance fraction needs every eigenvalue of the %zu x %zu kernel matrix, more than "
                              "LAPACK's 32-bit workspace sizes allow (at most 46338 points); give a number of "
                              "components", m, m);
    }
    if (p->precision != KPCA_PRECISION_DOUBLE && p->precision != KPCA_PRECISION_SINGLE)
        return param_fail(param, "precision", err, "unknown precision %d", (int)p->precision);
    if (p->cuda != NULL && p->solver != KPCA_SOLVER_EXACT)
        return param_fail(param, "device", err, "the GPU runs the exact solver only, not %s",
                          kpca_solver_name(p->solver));
    if (p->precision == KPCA_PRECISION_SINGLE && p->solver != KPCA_SOLVER_EXACT)
        return param_fail(param, "precision", err, "single precision runs the exact solver's eigensolve only, not %s",
                          kpca_solver_name(p->solver));
    if (p->solver == KPCA_SOLVER_RANDOMIZED && p->components == 0)
        return param_fail(param, "components", err,
                          "the randomized solver needs the number of components");
    if (p->solver == KPCA_SOLVER_NYSTROM && p->landmark_method == KPCA_LANDMARKS_KMEANS &&
        kt == KPCA_KERNEL_PRECOMPUTED)
        return param_fail(param, "landmark_method", err,
                          "k-means landmarks are points of an input space, which a precomputed kernel does not have: "
                          "take uniform landmarks (rows and columns of the kernel matrix)");
    if (m == 0)
        return KPCA_OK;
    if (!by_variance && p->components > m)
        return param_fail(param, "components", err, "cannot keep %zu components: more components than the %zu fit "
                          "points", p->components, m);
    if (p->solver == KPCA_SOLVER_NYSTROM) {
        if (p->landmarks < 2 || p->landmarks > m)
            return param_fail(param, "landmarks", err, "cannot take %zu landmarks: more landmarks than the %zu fit "
                              "points (or fewer than 2)", p->landmarks, m);
        if (p->components > p->landmarks)
            return param_fail(param, "components", err, "cannot keep %zu components: more components than the %zu "
                              "landmarks", p->components, p->landmarks);
    }
    return KPCA_OK;
}

static kpca_exact_solver exact_solver = NULL;

void kpca_model_set_exact_solver(kpca_exact_solver fn)
{
    exact_solver = fn;
}

/* The fit points, the kernel matrix's column means and the k x m vectors of
 * the exact solver: what every driver of the fit allocates. */
static kpca_status fit_alloc(const kpca_dataset *fit, const kpca_fit_params *p, size_t want, kpca_model *model,
                             double **u, double **mu, kpca_error *err)
{
    const size_t m = fit->n, dim = fit->dim;
    const int pre = p->kernel.type == KPCA_KERNEL_PRECOMPUTED;
    *u = kpca_alloc_array(want, m, sizeof(double));
    *mu = kpca_alloc_array(want, 1, sizeof(double));
    if (pre)
        model->gram_index = kpca_alloc_array(m, 1, sizeof(size_t));
    else
        model->fitx = kpca_alloc_array(m, dim, sizeof(double));
    model->fity = kpca_alloc_array(m, 1, sizeof(int));
    model->colmean = kpca_alloc_array(m, 1, sizeof(double));
    if (*u == NULL || *mu == NULL || (pre ? model->gram_index == NULL : model->fitx == NULL) || model->fity == NULL ||
        model->colmean == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu eigenvectors of %zu points", want, m);
    for (size_t i = 0; pre && i < m; i++)
        model->gram_index[i] = p->gram_index != NULL ? p->gram_index[i] : i;
    if (!pre)
        memcpy(model->fitx, fit->x, m * dim * sizeof(double));
    memcpy(model->fity, fit->y, m * sizeof(int));
    return KPCA_OK;
}

/* The exact solver of kpca_model_set_exact_solver (e.g. the distributed
 * one), or with primal the covariance's (primal.h): at most dim pairs, a
 * variance fraction chosen among them.  *want may change (primal). */
static kpca_status fit_hooked(const kpca_dataset *fit, const kpca_fit_params *p, int primal, size_t *want_io,
                              kpca_fit_info *inf, kpca_model *model, double **u, double **mu, double *raw_trace,
                              double *trace, char *note, kpca_error *err)
{
    const int by_variance = p->variance != 0.0;
    size_t want = primal && (by_variance || *want_io > fit->dim) ? fit->dim : *want_io;
    if (primal)
        inf->eig_used = by_variance ? KPCA_EIG_EVD : kpca_eig_resolve(p->eig, fit->dim, want);
    kpca_status st = fit_alloc(fit, p, want, model, u, mu, err);
    if (st != KPCA_OK)
        return st;
    kpca_exact_job job;
    memset(&job, 0, sizeof job);
    job.kernel = p->kernel;
    job.want = want;
    job.eig = inf->eig_used;
    job.mu = *mu;
    job.u = *u;
    job.colmean = model->colmean;
    st = primal ? kpca_primal_solve(fit, by_variance ? p->variance : 0.0, &job, err) : exact_solver(fit, &job, err);
    if (st != KPCA_OK)
        return st;
    if (by_variance)
        inf->requested = job.want;
    *want_io = job.want;
    model->grandmean = job.grandmean;
    *raw_trace = job.raw_trace;
    *trace = job.trace;
    inf->sec_kernel = job.sec_kernel;
    inf->sec_center = job.sec_center;
    inf->sec_eig = job.sec_eig;
    memcpy(note, job.note, sizeof job.note);
    note[sizeof job.note - 1] = '\0';
    return KPCA_OK;
}

/* The exact eigensolve in binary32: *K (m x m, double, centred) rounded to
 * floats and freed (*K = NULL), then kpca_eig_top_single with `want` pairs,
 * or with variance > 0 the fewest reaching that fraction of the trace
 * (*kout: the count). */
static kpca_status eig_single(double **K, size_t m, size_t want, kpca_eig_method eig, double variance, double trace,
                              size_t *kout, double *mu, double *u, kpca_error *err)
{
    float *kf = kpca_alloc_array(m, m, sizeof(float));
    if (kf == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for a %zu x %zu single-precision kernel matrix", m, m);
    const double *k = *K;
    for (size_t i = 0; i < m * m; i++)
        kf[i] = (float)k[i];
    kpca_free(*K);
    *K = NULL;
    variance_goal goal = {variance, trace};
    kpca_status st = kpca_eig_top_single(kf, m, want, eig, variance > 0.0 ? choose_by_variance : NULL, &goal, kout,
                                         mu, u, err);
    kpca_free(kf);
    return st;
}

/* A precomputed kernel's K (m x m) from the fit rows (m x M): the columns
 * gram_index, checked symmetric within KPCA_PRECOMPUTED_SYMMETRY_TOL (and
 * finite), then made exactly symmetric.  KPCA_EFORMAT names the place in
 * the fit points' numbering. */
static kpca_status precomputed_gram(const kpca_dataset *fit, const size_t *gram_index, double *K, kpca_error *err)
{
    const size_t m = fit->n;
    kpca_kernel_gather(fit->x, m, fit->dim, gram_index, m, K);
    kpca_error why;
    if (kpca_kernel_check_matrix(K, m, m, KPCA_PRECOMPUTED_SYMMETRY_TOL, &why) != KPCA_OK)
        return kpca_fail(err, KPCA_EFORMAT, "the kernel matrix of the %zu fit points (rows and columns numbered as "
                         "they are): %s", m, why.msg);
    kpca_kernel_symmetrize(K, m);
    return KPCA_OK;
}

/* The exact eigensolve on GPU 0 (gpu/eig_gpu.h) of the centred K in prec,
 * signed as kpca_eig_top signs; variance > 0: all m pairs (u m x m), the
 * count chosen from them as kpca_eig_top_chosen chooses it (*want). */
static kpca_status eig_cuda(kpca_cuda *cu, const double *K, size_t m, kpca_precision prec, double variance,
                            double trace, size_t *want, double *mu, double *u, kpca_error *err)
{
    kpca_status st = kpca_gpu_eig_top(cu, K, m, variance > 0.0 ? m : *want, prec, mu, u, err);
    if (st != KPCA_OK)
        return st;
    variance_goal goal = {variance, trace};
    if (variance > 0.0)
        *want = choose_by_variance(mu, m, &goal);
    for (size_t j = 0; j < *want; j++)
        kpca_eig_fix_sign(u + j * m, m, 1);
    return KPCA_OK;
}

/* The single-process solvers on the m x m kernel matrix: exact (a count or a
 * variance fraction) and randomized.  *want may change (variance). */
static kpca_status fit_local(const kpca_dataset *fit, const kpca_fit_params *p, int by_variance, size_t *want_io,
                             size_t *sketch_out, kpca_fit_info *inf_io, kpca_model *model, double **u_out,
                             double **mu_out, double *raw_trace_out, double *trace_out, kpca_error *err)
{
    const size_t m = fit->n, dim = fit->dim;
    size_t want = *want_io;
    kpca_fit_info inf = *inf_io;
    kpca_status st;
    double *K = NULL, *u = NULL, *mu = NULL;
    /* K, the eigensolver's workspace and vectors (EVD: z and dstedc's work,
     * m x m each; EVR and randomized: less than one m x m and the k wanted
     * vectors), the kept vectors, the fit points */
    const double md2 = (double)m * (double)m, kmd = (double)want * (double)m;
    char what[64];
    snprintf(what, sizeof what, "kernel PCA on %zu points", m);
    const int evd = inf.eig_used == KPCA_EIG_EVD && p->solver == KPCA_SOLVER_EXACT;
    const int single = p->precision == KPCA_PRECISION_SINGLE;
    const int pre = p->kernel.type == KPCA_KERNEL_PRECOMPUTED;
    /* single: K, then its floats, then (K freed) the floats, z and work;
     * the GPU: K (single: rounded a block at a time on its way up);
     * precomputed: K and the copy kpca_eig_lowest factorises, at least */
    double mats = p->cuda != NULL ? 1.0 : single ? 1.5 : evd ? 3.0 : 2.0;
    if (pre && mats < 2.0)
        mats = 2.0;
    st = p->cuda == NULL ? KPCA_OK /* the GPU's memory first, before the host's and the Gram */
                         : kpca_gpu_eig_check(p->cuda, m, by_variance ? m : want, p->precision, NULL, NULL, err);
    if (st == KPCA_OK)
        st = kpca_mem_check(8.0 * (mats * md2 + (evd ? kmd : 2.0 * kmd)) + 8.0 * (double)m * (double)dim, what, err);
    if (st != KPCA_OK)
        return st;
    st = fit_alloc(fit, p, want, model, &u, &mu, err);
    if (st != KPCA_OK)
        goto fail;
    K = kpca_alloc_array(m, m, sizeof(double));
    if (K == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for a %zu x %zu kernel matrix", m, m);
        goto fail;
    }

    double t0 = kpca_now();
    kpca_progress("kernel", 0, 1);
    if (pre) {
        st = precomputed_gram(fit, model->gram_index, K, err);
    } else {
        kpca_kernel_gram(&p->kernel, fit->x, m, dim, K);
        st = kpca_kernel_check_finite(&p->kernel, K, m * m, err);
    }
    if (st != KPCA_OK)
        goto fail;
    double t1 = kpca_now();
    kpca_progress("kernel", 1, 1);
    kpca_progress("centring", 0, 1);
    double raw_trace = 0.0;
    for (size_t i = 0; i < m; i++)
        raw_trace += fabs(K[i * m + i]);
    kpca_center_fit(K, m, model->colmean, &model->grandmean);
    double trace = 0.0;
    for (size_t i = 0; i < m; i++)
        trace += K[i * m + i];
    st = kpca_center_check(&p->kernel, trace, model->grandmean, K, m * m, err);
    if (st == KPCA_OK && pre) /* the user's matrix: is its negative part clear? */
        st = kpca_eig_lowest(K, m, inf.tol, &inf.lowest, err);
    if (st != KPCA_OK)
        goto fail;
    double t2 = kpca_now();
    kpca_progress("centring", 1, 1);
    kpca_progress("eigensolve", 0, 1);
    size_t sketch = 0;
    if (p->cuda != NULL) {
        st = eig_cuda(p->cuda, K, m, p->precision, by_variance ? p->variance : 0.0, trace, &want, mu, u, err);
        inf.requested = want;
    } else if (single) {
        st = eig_single(&K, m, want, inf.eig_used, by_variance ? p->variance : 0.0, trace, &want, mu, u, err);
        inf.requested = want;
    } else if (by_variance) {
        variance_goal goal = {p->variance, trace};
        st = kpca_eig_top_chosen(K, m, choose_by_variance, &goal, &want, mu, u, err);
        inf.requested = want;
    } else if (p->solver == KPCA_SOLVER_RANDOMIZED) {
        sketch = kpca_rsvd_sketch(m, want, p->oversample);
        st = kpca_eig_randomized(K, m, want, p->oversample, p->power_iters, p->seed, mu, u, err);
    } else {
        st = kpca_eig_top(K, m, want, inf.eig_used, mu, u, err);
    }
    double t3 = kpca_now();
    kpca_progress("eigensolve", 1, 1);
    kpca_free(K);
    K = NULL;
    if (st != KPCA_OK)
        goto fail;
    inf.sec_kernel = t1 - t0;
    inf.sec_center = t2 - t1;
    inf.sec_eig = t3 - t2;
    *want_io = want;
    *sketch_out = sketch;
    *inf_io = inf;
    *u_out = u;
    *mu_out = mu;
    *raw_trace_out = raw_trace;
    *trace_out = trace;
    return KPCA_OK;
fail:
    kpca_free(K);
    *u_out = u;
    *mu_out = mu;
    return st;
}

/* A precomputed kernel's fit rows against p->gram_index: KPCA_EFORMAT for
 * rows narrower than the fit points (GRAM holds at least them), indices out
 * of order or beyond GRAM, or no indices for rows that are not all of GRAM */
static kpca_status precomputed_check(const kpca_dataset *fit, const kpca_fit_params *p, kpca_error *err)
{
    const size_t m = fit->n, M = fit->dim;
    if (p->gram_index == NULL && M != m)
        return kpca_fail(err, KPCA_EFORMAT, "a precomputed kernel matrix is square (M x M): this one is %zu x %zu", m,
                         M);
    for (size_t i = 0; p->gram_index != NULL && i < m; i++)
        if (p->gram_index[i] >= M || (i > 0 && p->gram_index[i] <= p->gram_index[i - 1]))
            return kpca_fail(err, KPCA_EFORMAT, "fit point %zu's index %zu in the %zu x %zu kernel matrix is out of "
                             "range or out of order (expected ascending indices below %zu)", i + 1,
                             p->gram_index[i], M, M, M);
    return KPCA_OK;
}

kpca_status kpca_model_fit(const kpca_dataset *fit, const kpca_fit_params *p, kpca_model *model,
                           kpca_fit_info *info, kpca_error *err)
{
    memset(model, 0, sizeof *model);
    const size_t m = fit->n, dim = fit->dim;
    if (m < 2)
        return kpca_fail(err, KPCA_EFORMAT, "kernel PCA needs at least 2 fit points, got %zu", m);
    kpca_status st = kpca_fit_check(p, m, NULL, err);
    if (st == KPCA_OK)
        st = kpca_kernel_check_data(&p->kernel, fit->x, m, dim, err);
    if (st == KPCA_OK && p->kernel.type == KPCA_KERNEL_PRECOMPUTED)
        st = precomputed_check(fit, p, err);
    if (st != KPCA_OK)
        return st;
    const int by_variance = p->variance != 0.0;
    size_t want = p->components && !by_variance ? p->components : m;
    if (exact_solver != NULL && p->kernel.type == KPCA_KERNEL_PRECOMPUTED)
        return kpca_fail(err, KPCA_EUSAGE, "the distributed build computes its kernel matrix from points: run kpca on "
                                           "one machine for a precomputed kernel");
    /* Nystrom is no exact solve: it runs here, on this process's rows (the
     * distributed build's Nystrom fit is kpca_nystrom_fit_rows with its
     * ranks, nystream.h) */
    if (exact_solver != NULL && (by_variance || p->solver == KPCA_SOLVER_RANDOMIZED))
        return kpca_fail(err, KPCA_EUSAGE,
                         "the distributed build runs the exact solver with a number of components only (not %s): "
                         "run kpca on one machine for it",
                         by_variance ? "a variance fraction" : "--solver randomized");
    if (exact_solver == NULL && p->eig == KPCA_EIG_ELPA && p->solver == KPCA_SOLVER_EXACT)
        return kpca_fail(err, KPCA_EUSAGE,
                         "the elpa eigensolver runs in the distributed build only: mpirun -n P build/kpca-mpi fit "
                         "--eig elpa ... (make mpi)");
    if (p->solver == KPCA_SOLVER_NYSTROM)
        return kpca_nystrom_fit(fit, p, model, info, err);
    if (exact_solver != NULL && p->precision == KPCA_PRECISION_SINGLE)
        return kpca_fail(err, KPCA_EUSAGE, "the distributed build runs the exact solver in double precision only: "
                                           "run kpca on one machine for --precision single");
    /* the primal fit (a D x D problem, primal.h) is cheap and always double:
     * the model then records double, whatever was asked.  An explicit tol
     * (--tol) asks which of the M x M matrix's eigenvalues count as noise,
     * and only that matrix has the ones past rank D: it keeps the kernel
     * path. */
    const int primal = exact_solver == NULL && p->primal && p->solver == KPCA_SOLVER_EXACT && p->tol < 0.0 &&
                       kpca_primal_applies(&p->kernel, m, dim);
    const kpca_precision precision = primal ? KPCA_PRECISION_DOUBLE : p->precision;
    const int single_tol = precision == KPCA_PRECISION_SINGLE && p->tol < 0.0;
    double tol = p->tol >= 0.0 ? p->tol : single_tol ? KPCA_SINGLE_TOL_FACTOR * FLT_EPSILON : (double)m * DBL_EPSILON;

    kpca_fit_info inf;
    memset(&inf, 0, sizeof inf);
    inf.requested = want;
    inf.tol = tol;
    inf.eig_used = by_variance ? KPCA_EIG_EVD : kpca_eig_resolve(p->eig, m, want);

    double *u = NULL, *mu = NULL;
    double raw_trace = 0.0, trace = 0.0;
    size_t sketch = 0;
    char solver_note[KPCA_EXACT_NOTE_MAX] = "";
    if (exact_solver != NULL || primal) {
        st = fit_hooked(fit, p, primal, &want, &inf, model, &u, &mu, &raw_trace, &trace, solver_note, err);
    } else {
        st = fit_local(fit, p, by_variance, &want, &sketch, &inf, model, &u, &mu, &raw_trace, &trace, err);
    }
    if (st != KPCA_OK)
        goto fail;

    /* drop eigenvalues below tol * mu_1, and below tol * trace(uncentred K):
     * the rounding noise of the centring, which can exceed tol * mu_1 when
     * the points nearly coincide in feature space */
    size_t kept = 0;
    double floor_mu = tol * fmax(mu[0], raw_trace);
    if (single_tol) /* what binary32 cannot resolve: relative to mu_1 (model.h) */
        floor_mu = fmax(tol * mu[0], (double)m * DBL_EPSILON * fmax(mu[0], raw_trace));
    if (isfinite(mu[0]))
        while (kept < want && mu[kept] > floor_mu)
            kept++;
    if (kept == 0) {
        st = kpca_fail(err, KPCA_ENUMERIC,
                       "the centred kernel matrix is zero: all fit points coincide in feature space");
        goto fail;
    }
    inf.kept = kept;
    for (size_t c = kept; c < want; c++)
        inf.negative += mu[c] < -floor_mu;
    model->alpha = kpca_alloc_array(kept, m, sizeof(double));
    model->eigval = kpca_alloc_array(kept, 1, sizeof(double));
    if (model->alpha == NULL || model->eigval == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
        goto fail;
    }
    for (size_t c = 0; c < kept; c++) {
        double s = 1.0 / sqrt(mu[c]);
        model->eigval[c] = mu[c];
        for (size_t i = 0; i < m; i++)
            model->alpha[c * m + i] = u[c * m + i] * s;
    }
    kpca_free(u);
    kpca_free(mu);
    model->kernel = p->kernel;
    model->centring = KPCA_CENTRE_KERNEL;
    model->precision = precision;
    model->fit_n = m;
    if (p->solver == KPCA_SOLVER_RANDOMIZED)
        snprintf(model->solver, sizeof model->solver, "randomized s=%zu q=%zu seed=%llu", sketch, p->power_iters,
                 (unsigned long long)p->seed);
    else if (p->cuda != NULL && !primal) { /* the library, the driver and the GPU, cut to the field */
        char full[320];
        snprintf(full, sizeof full, "exact cusolver %d.%d.%d driver %d.%d on %s", p->cuda->cusolver_version[0],
                 p->cuda->cusolver_version[1], p->cuda->cusolver_version[2], p->cuda->driver_version / 1000,
                 p->cuda->driver_version % 1000 / 10, p->cuda->gpu_name);
        size_t len = strlen(full) < sizeof model->solver ? strlen(full) : sizeof model->solver - 1;
        memcpy(model->solver, full, len);
        model->solver[len] = '\0';
    }
    else if (solver_note[0] != '\0')
        snprintf(model->solver, sizeof model->solver, "exact %s %s", kpca_eig_method_name(inf.eig_used), solver_note);
    else
        snprintf(model->solver, sizeof model->solver, "exact %s", kpca_eig_method_name(inf.eig_used));
    model->m = m;
    model->dim = dim;
    model->k = kept;
    model->trace = trace;
    kpca_dataset_range(fit, &model->input_lo, &model->input_hi);
    if (info != NULL)
        *info = inf;
    return KPCA_OK;
fail:
    kpca_free(u);
    kpca_free(mu);
    kpca_model_free(model);
    return st;
}

kpca_status kpca_model_validate(const kpca_model *md, const char *path, kpca_error *err)
{
    kpca_error kerr;
    if (kpca_kernel_check(&md->kernel, &kerr) != KPCA_OK)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': invalid kernel: %s", path, kerr.msg);
    const int reduced = md->centring == KPCA_CENTRE_REDUCED;
    if (md->m < (reduced ? 1u : 2u) || md->dim < 1 || md->k < 1 || (!reduced && md->k > md->m))
        return kpca_fail(err, KPCA_EFORMAT, "'%s': inconsistent sizes (m=%zu, dim=%zu, k=%zu)", path, md->m,
                         md->dim, md->k);
    const int pre = md->kernel.type == KPCA_KERNEL_PRECOMPUTED;
    if (pre ? md->gram_index == NULL || md->fitx != NULL || reduced : md->fitx == NULL || md->gram_index != NULL)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': %s", path,
                         pre ? "a precomputed kernel's model needs the indices of its points in the kernel matrix, "
                               "and no points"
                             : "a model needs its points");
    for (size_t i = 0; pre && i < md->m; i++)
        if (md->gram_index[i] >= md->dim || (i > 0 && md->gram_index[i] <= md->gram_index[i - 1]))
            return kpca_fail(err, KPCA_EFORMAT, "'%s': model point %zu's index %zu in the %zu x %zu kernel matrix is "
                             "out of range or out of order", path, i + 1, md->gram_index[i], md->dim, md->dim);
    for (size_t i = 0; !pre && i < md->m * md->dim; i++)
        if (!isfinite(md->fitx[i]))
            return kpca_fail(err, KPCA_EFORMAT, "'%s': fit point %zu has a non-finite value", path, i / md->dim + 1);
    for (size_t i = 0; i < md->k * md->m; i++)
        if (!isfinite(md->alpha[i]))
            return kpca_fail(err, KPCA_EFORMAT, "'%s': alpha of component %zu has a non-finite value", path,
                             i / md->m + 1);
    for (size_t c = 0; c < md->k; c++) {
        double v = md->eigval[c];
        if (!isfinite(v) || v <= 0.0 || (c > 0 && v > md->eigval[c - 1]))
            return kpca_fail(err, KPCA_EFORMAT, "'%s': eigenvalue %zu (%g) is not positive and descending", path,
                             c + 1, v);
    }
    for (size_t i = 0; i < md->m; i++)
        if (!isfinite(md->colmean[i]))
            return kpca_fail(err, KPCA_EFORMAT, "'%s': column mean %zu is not finite", path, i + 1);
    for (const char *c = md->solver; *c; c++)
        if (iscntrl((unsigned char)*c))
            return kpca_fail(err, KPCA_EFORMAT, "'%s': the solver description holds a control character", path);
    if (md->centring == KPCA_CENTRE_KERNEL ? md->fit_n != md->m : (md->fit_n != 0 && md->fit_n < md->m))
        return kpca_fail(err, KPCA_EFORMAT, "'%s': %zu fit points do not fit %zu model points", path, md->fit_n, md->m);
    if (md->centring != KPCA_CENTRE_KERNEL && md->grandmean != 0.0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': a %s model has grand mean %g, expected 0", path,
                         reduced ? "reduced" : "Nystrom", md->grandmean);
    if (reduced && md->rho == NULL)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': a reduced model without its residuals", path);
    for (size_t c = 0; reduced && c < md->k; c++)
        if (!isfinite(md->rho[c]) || md->rho[c] < 0.0)
            return kpca_fail(err, KPCA_EFORMAT, "'%s': residual %zu (%g) is not a finite non-negative number", path,
                             c + 1, md->rho[c]);
    for (const char *c = md->reduction; *c; c++)
        if (iscntrl((unsigned char)*c))
            return kpca_fail(err, KPCA_EFORMAT, "'%s': the reduction description holds a control character", path);
    if (!isfinite(md->grandmean) || !isfinite(md->trace) || !isfinite(md->input_lo) || !isfinite(md->input_hi))
        return kpca_fail(err, KPCA_EFORMAT, "'%s': a scalar statistic is not finite", path);
    if (!(md->smooth == 0.0 || (md->smooth > 0.0 && isfinite(md->smooth))))
        return kpca_fail(err, KPCA_EFORMAT, "'%s': smoothing sigma %g is neither 0 (none) nor a finite positive number",
                         path, md->smooth);
    if ((md->std_mean == NULL) != (md->std_scale == NULL))
        return kpca_fail(err, KPCA_EFORMAT, "'%s': a standardisation needs both the column means and the scales", path);
    for (size_t j = 0; md->std_mean != NULL && j < md->dim; j++) {
        if (!isfinite(md->std_mean[j]))
            return kpca_fail(err, KPCA_EFORMAT, "'%s': the standardisation's mean of column %zu is not finite", path,
                             j + 1);
        if (!(md->std_scale[j] > 0.0 && isfinite(md->std_scale[j])))
            return kpca_fail(err, KPCA_EFORMAT,
                             "'%s': the standardisation's scale of column %zu (%g) is not a finite positive number",
                             path, j + 1, md->std_scale[j]);
    }
    for (size_t j = 0; md->colnames != NULL && j < md->dim; j++)
        if (md->colnames[j] == NULL)
            return kpca_fail(err, KPCA_EFORMAT, "'%s': column %zu has no name entry", path, j + 1);
    return KPCA_OK;
}

double kpca_model_explained(const kpca_model *model, size_t first, size_t count)
{
    double sum = 0.0;
    for (size_t c = first; c < first + count && c < model->k; c++)
        sum += model->eigval[c];
    return model->trace != 0.0 ? sum / model->trace : 0.0;
}
