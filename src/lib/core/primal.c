/* primal.c - see primal.h. */
#include "core/primal.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/centre.h"
#include "core/eig.h"
#include "core/gram.h"
#include "support/clock.h"
#include "support/mem.h"
#include "support/progress.h"

int kpca_primal_applies(const kpca_kernel *kernel, size_t m, size_t dim)
{
    const int dot = kernel->type == KPCA_KERNEL_LINEAR ||
                    (kernel->type == KPCA_KERNEL_POLY && kernel->degree == 1 && kernel->coef0 == 0.0);
    return dot && dim < m;
}

double kpca_primal_gamma(const kpca_kernel *kernel)
{
    return kernel->type == KPCA_KERNEL_LINEAR ? 1.0 : kernel->gamma;
}

/* the end of one phase and the start of the next (either NULL: none), as
 * kpca_progress reports them; returns kpca_now() */
static double phase(const char *done, const char *next)
{
    if (done != NULL)
        kpca_progress(done, 1, 1);
    if (next != NULL)
        kpca_progress(next, 0, 1);
    return kpca_now();
}

/* the fewest leading positive eigenvalues whose sum reaches *ctx (at least 1) */
static size_t reach_sum(const double *mu, size_t n, void *ctx)
{
    const double goal = *(const double *)ctx;
    double sum = 0.0;
    size_t k = 0;
    while (k < n && mu[k] > 0.0 && sum < goal)
        sum += mu[k++];
    return k ? k : 1;
}

/* The uncentred kernel's statistics from the points: colmean_i = g x_i.xbar,
 * grandmean = g |xbar|^2, raw_trace = sum_i |g |x_i|^2|; xbar into mean. */
static kpca_status kernel_stats(const kpca_dataset *fit, double g, double *mean, kpca_exact_job *job,
                                kpca_error *err)
{
    const size_t m = fit->n, d = fit->dim;
    memset(mean, 0, d * sizeof *mean);
    for (size_t i = 0; i < m; i++)
        cblas_daxpy((int)d, 1.0, fit->x + i * d, 1, mean, 1);
    cblas_dscal((int)d, 1.0 / (double)m, mean, 1);
    double raw = 0.0;
    for (size_t i = 0; i < m; i++) {
        const double *xi = fit->x + i * d;
        double kii = g * cblas_ddot((int)d, xi, 1, xi, 1);
        kpca_status st = kpca_kernel_check_finite(&job->kernel, &kii, 1, err);
        if (st != KPCA_OK) /* |k(x_i, x_j)| <= max(k(x_i, x_i), k(x_j, x_j)): the diagonal decides */
            return st;
        raw += fabs(kii);
        job->colmean[i] = g * cblas_ddot((int)d, xi, 1, mean, 1);
    }
    /* the kernel path's centring sums kernel values; their sum must stay
     * finite here too (the drop rule scales with it) */
    kpca_status st = kpca_kernel_check_finite(&job->kernel, &raw, 1, err);
    if (st != KPCA_OK)
        return st;
    job->raw_trace = raw;
    job->grandmean = g * cblas_ddot((int)d, mean, 1, mean, 1);
    return KPCA_OK;
}

kpca_status kpca_primal_solve(const kpca_dataset *fit, double variance, kpca_exact_job *job, kpca_error *err)
{
    const size_t m = fit->n, d = fit->dim;
    if (!kpca_primal_applies(&job->kernel, m, d))
        return kpca_fail(err, KPCA_EUSAGE, "the covariance fit needs a kernel gamma x.y and fewer input values "
                                           "than fit points (%zu values, %zu points)", d, m);
    if (variance == 0.0 && (job->want == 0 || job->want > d))
        return kpca_fail(err, KPCA_EUSAGE, "cannot take %zu eigenpairs of a %zu x %zu covariance", job->want, d, d);
    const double g = kpca_primal_gamma(&job->kernel);
    const size_t nvec = variance != 0.0 ? d : job->want;
    char what[80];
    snprintf(what, sizeof what, "PCA of %zu points through the %zu x %zu covariance", m, d, d);
    kpca_status st = kpca_mem_check(8.0 * ((double)m * (double)d + 5.0 * (double)d * (double)d + 3.0 * (double)d),
                                    what, err);
    if (st != KPCA_OK)
        return st;
    double *xc = kpca_alloc_array(m, d, sizeof(double));
    double *r = kpca_alloc_array(d, d, sizeof(double));
    double *b = kpca_alloc_array(d, d, sizeof(double));
    double *w = kpca_alloc_array(nvec, d, sizeof(double));
    double *ev = kpca_alloc_array(d, 1, sizeof(double));
    double *mean = kpca_alloc_array(d, 1, sizeof(double));
    double *tau = kpca_alloc_array(d, 1, sizeof(double));
    if (xc == NULL || r == NULL || b == NULL || w == NULL || ev == NULL || mean == NULL || tau == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for %s", what);
        goto done;
    }

    const double t0 = phase(NULL, "kernel");
    st = kernel_stats(fit, g, mean, job, err);
    if (st != KPCA_OK)
        goto done;
    const double t1 = phase("kernel", "centring");
    double trace = 0.0;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < d; j++) {
            double a = fit->x[i * d + j] - mean[j];
            xc[i * d + j] = a;
            trace += a * a;
        }
    trace *= g;
    /* Xc = Q R (m x D Q with orthonormal columns): LAPACK's LQ of the
     * column-major D x m matrix Xc' = R' Q', leaving R row-major in the
     * leading D x D block of xc (its upper triangle) */
    lapack_int info = LAPACKE_dgelqf(LAPACK_COL_MAJOR, (lapack_int)d, (lapack_int)m, xc, (lapack_int)d, tau);
    if (info != 0) {
        st = kpca_eig_lapack_status((int)info, "dgelqf", err);
        goto done;
    }
    for (size_t i = 0; i < d; i++)
        for (size_t j = 0; j < d; j++)
            r[i * d + j] = j >= i ? xc[i * d + j] : 0.0;
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, (int)d, (int)d, g, r, (int)d, 0.0, b, (int)d);
    kpca_gram_mirror(b, d, d);
    job->trace = trace;
    st = kpca_center_check(&job->kernel, trace, job->grandmean, b, d * d, err);
    if (st != KPCA_OK)
        goto done;
    const double t2 = phase("centring", "eigensolve");
    size_t k = job->want;
    if (variance != 0.0) {
        double goal = variance * trace;
        st = kpca_eig_top_chosen(b, d, reach_sum, &goal, &k, ev, w, err);
    } else {
        st = kpca_eig_top(b, d, k, job->eig, ev, w, err);
    }
    if (st != KPCA_OK)
        goto done;
    /* u_c = Q w_c: the rows of u, column-major the m x k matrix [W; 0], times Q */
    for (size_t c = 0; c < k; c++) {
        memcpy(job->u + c * m, w + c * d, d * sizeof(double));
        memset(job->u + c * m + d, 0, (m - d) * sizeof(double));
    }
    info = LAPACKE_dormlq(LAPACK_COL_MAJOR, 'L', 'T', (lapack_int)m, (lapack_int)k, (lapack_int)d, xc, (lapack_int)d,
                          tau, job->u, (lapack_int)m);
    if (info != 0) {
        st = kpca_eig_lapack_status((int)info, "dormlq", err);
        goto done;
    }
    for (size_t c = 0; c < k; c++) {
        kpca_eig_fix_sign(job->u + c * m, m, 1);
        job->mu[c] = ev[c];
    }
    job->want = k;
    const double t3 = phase("eigensolve", NULL);
    job->sec_kernel = t1 - t0;
    job->sec_center = t2 - t1;
    job->sec_eig = t3 - t2;
    snprintf(job->note, sizeof job->note, "%s", KPCA_PRIMAL_NOTE);
done:
    kpca_free(xc);
    kpca_free(r);
    kpca_free(b);
    kpca_free(w);
    kpca_free(ev);
    kpca_free(mean);
    kpca_free(tau);
    return st;
}
