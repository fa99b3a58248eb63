/* project.c - projection onto a model's components (kpca_model_transform,
 * model.h): each point's kernel row against the model points (a
 * precomputed kernel's: the row's columns at the model points' indices),
 * centred as the model says, times alpha (in the model's precision), or for
 * a kernel gamma x.y the point times the primal weights; an exact model's
 * fit points copied. */
#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/centre.h"
#include "core/kernel.h"
#include "core/nystrom.h"
#include "core/primal.h"
#include "core/project.h"
#include "support/mem.h"
#include "core/model.h"
#include "support/progress.h"

/* The fit point whose row is bit for bit x (dim values), or SIZE_MAX: an
 * open-addressing table of the fit rows' hashes, built once per transform
 * (O(m dim)); NULL table: none. */
typedef struct {
    size_t cap; /* a power of two > 2 m */
    size_t *slot; /* fit point + 1, 0 empty */
} fit_index;

/* four interleaved lanes (coordinates c mod 4), so that each multiply does
 * not wait on the one before: one pass over the input at memory speed */
static uint64_t mix(uint64_t h, const double *v)
{
    uint64_t b;
    memcpy(&b, v, sizeof b);
    h = (h ^ b) * 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 31);
}

static uint64_t row_hash(const double *x, size_t dim)
{
    uint64_t h0 = 0x9E3779B97F4A7C15ULL, h1 = h0 + 1, h2 = h0 + 2, h3 = h0 + 3;
    size_t c = 0;
    for (; c + 4 <= dim; c += 4) {
        h0 = mix(h0, &x[c]);
        h1 = mix(h1, &x[c + 1]);
        h2 = mix(h2, &x[c + 2]);
        h3 = mix(h3, &x[c + 3]);
    }
    for (; c < dim; c++)
        h0 = mix(h0, &x[c]);
    uint64_t h = h0;
    h = (h ^ h1) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ h2) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ h3) * 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 31);
}

static int fit_index_build(const kpca_model *md, fit_index *fi)
{
    fi->cap = 16;
    while (fi->cap < 2 * md->m + 1)
        fi->cap *= 2;
    fi->slot = kpca_calloc(fi->cap, sizeof(size_t));
    if (fi->slot == NULL)
        return -1;
    for (size_t j = 0; j < md->m; j++) {
        size_t s = (size_t)row_hash(md->fitx + j * md->dim, md->dim) & (fi->cap - 1);
        while (fi->slot[s] != 0)
            s = (s + 1) & (fi->cap - 1);
        fi->slot[s] = j + 1;
    }
    return 0;
}

static size_t fit_index_find(const kpca_model *md, const fit_index *fi, const double *x)
{
    size_t s = (size_t)row_hash(x, md->dim) & (fi->cap - 1);
    for (; fi->slot[s] != 0; s = (s + 1) & (fi->cap - 1)) {
        size_t j = fi->slot[s] - 1;
        if (memcmp(md->fitx + j * md->dim, x, md->dim * sizeof(double)) == 0)
            return j;
    }
    return SIZE_MAX;
}

/* Single precision: the first k rows of alpha as floats (k x m), and room
 * for a block's centred kernel rows and features as floats. */
typedef struct {
    float *alpha, *kt, *z;
} single_bufs;

static int single_bufs_alloc(const kpca_model *md, size_t block, size_t k, single_bufs *sb)
{
    sb->alpha = kpca_alloc_array(k, md->m, sizeof(float));
    sb->kt = kpca_alloc_array(block ? block : 1, md->m, sizeof(float));
    sb->z = kpca_alloc_array(block ? block : 1, k, sizeof(float));
    if (sb->alpha == NULL || sb->kt == NULL || sb->z == NULL)
        return -1;
    for (size_t i = 0; i < k * md->m; i++)
        sb->alpha[i] = (float)md->alpha[i];
    return 0;
}

static void single_bufs_free(single_bufs *sb)
{
    kpca_free(sb->alpha);
    kpca_free(sb->kt);
    kpca_free(sb->z);
}

/* zs (no x k) = kt (no x m, centred) alpha', in the model's precision:
 * DGEMM, or the rows rounded to floats, SGEMM, and the result widened. */
static void project_block(const kpca_model *md, const single_bufs *sb, const double *kt, size_t no, size_t k,
                          double *zs)
{
    const size_t m = md->m;
    if (sb->alpha == NULL) {
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)no, (int)k, (int)m, 1.0, kt, (int)m, md->alpha,
                    (int)m, 0.0, zs, (int)k);
        return;
    }
    for (size_t i = 0; i < no * m; i++)
        sb->kt[i] = (float)kt[i];
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)no, (int)k, (int)m, 1.0f, sb->kt, (int)m, sb->alpha,
                (int)m, 0.0f, sb->z, (int)k);
    for (size_t i = 0; i < no * k; i++)
        zs[i] = (double)sb->z[i];
}

int kpca_model_transform_primal(const kpca_model *model)
{
    return !model->no_primal && kpca_primal_applies(&model->kernel, model->m, model->dim);
}

/* The primal form of a kernel gamma x.y's projection.  Each centring's
 * k~(x_i, x) is affine in x: KERNEL's g x_i.x - colmean_i - g xbar.x +
 * grandmean = g (x_i - xbar).x + (grandmean - colmean_i) (the row mean
 * of the kernel row is g xbar.x), NYSTROM's and REDUCED's g x_i.x -
 * colmean_i; so z_c(x) = sum_i alpha_ci k~(x_i, x) = (x - xbar).w_c + b_c
 * with w_c = g sum_i alpha_ci (x_i - s xbar) (s = 1 for KERNEL, else 0)
 * and b_c = sum_i alpha_ci (s grandmean - colmean_i) + xbar.w_c.  The
 * stored colmean and grandmean enter as the kernel rows' path uses them.
 * Shifting x by xbar is for rounding only: for KERNEL, colmean_i =
 * g x_i.xbar and b_c is then rounding, where x.w_c and its constant would
 * cancel. */
typedef struct {
    double *mean; /* dim: xbar, the mean model point */
    double *w;    /* dim x k */
    double *b;    /* k */
    double *xc;   /* block x dim: a block's rows less xbar */
} primal_bufs;

/* Fills pb for the first k components (2 m dim k flops in DGEMM); -1 when
 * out of memory (pb's blocks then for primal_bufs_free). */
static int primal_bufs_alloc(const kpca_model *md, size_t block, size_t k, primal_bufs *pb)
{
    const size_t m = md->m, d = md->dim;
    const int shift = md->centring == KPCA_CENTRE_KERNEL;
    const double g = kpca_primal_gamma(&md->kernel);
    pb->mean = kpca_calloc(d, sizeof(double));
    pb->w = kpca_alloc_array(d, k, sizeof(double));
    pb->b = kpca_alloc_array(k, 1, sizeof(double));
    pb->xc = kpca_alloc_array(block ? block : 1, d, sizeof(double));
    double *xs = kpca_alloc_array(m, d, sizeof(double)); /* X - s 1 xbar', then the m constants */
    if (pb->mean == NULL || pb->w == NULL || pb->b == NULL || pb->xc == NULL || xs == NULL) {
        kpca_free(xs);
        return -1;
    }
    for (size_t i = 0; i < m; i++)
        cblas_daxpy((int)d, 1.0, md->fitx + i * d, 1, pb->mean, 1);
    cblas_dscal((int)d, 1.0 / (double)m, pb->mean, 1);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < d; j++)
            xs[i * d + j] = md->fitx[i * d + j] - (shift ? pb->mean[j] : 0.0);
    /* W = g Xs' alpha' (alpha: k x m rows) */
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasTrans, (int)d, (int)k, (int)m, g, xs, (int)d, md->alpha, (int)m, 0.0,
                pb->w, (int)k);
    for (size_t i = 0; i < m; i++)
        xs[i] = (shift ? md->grandmean : 0.0) - md->colmean[i];
    cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)k, (int)m, 1.0, md->alpha, (int)m, xs, 1, 0.0, pb->b, 1);
    cblas_dgemv(CblasRowMajor, CblasTrans, (int)d, (int)k, 1.0, pb->w, (int)k, pb->mean, 1, 1.0, pb->b, 1);
    kpca_free(xs);
    return 0;
}

static void primal_bufs_free(primal_bufs *pb)
{
    kpca_free(pb->mean);
    kpca_free(pb->w);
    kpca_free(pb->b);
    kpca_free(pb->xc);
}

/* out = a - b (n values), four at a time on arrays that do not overlap,
 * so that the compiler pairs them in vector registers */
static void sub_row(double *restrict out, const double *restrict a, const double *restrict b, size_t n)
{
    size_t j = 0;
    for (; j + 4 <= n; j += 4)
        for (size_t t = j; t < j + 4; t++)
            out[t] = a[t] - b[t];
    for (; j < n; j++)
        out[j] = a[j] - b[j];
}

/* zs (no x k) = (xs - 1 xbar') W + 1 b', in double; xs NULL when
 * pb->xc already holds the rows less xbar */
static void project_block_primal(const primal_bufs *pb, const double *xs, size_t no, size_t dim, size_t k,
                                 double *zs)
{
    for (size_t r = 0; r < no; r++) {
        if (xs != NULL)
            sub_row(pb->xc + r * dim, xs + r * dim, pb->mean, dim);
        memcpy(zs + r * k, pb->b, k * sizeof(double));
    }
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)no, (int)k, (int)dim, 1.0, pb->xc, (int)dim, pb->w,
                (int)k, 1.0, zs, (int)k);
}

struct kpca_projector {
    const kpca_model *model;
    size_t k, max_rows, block;
    int exact;  /* an exact model: its fit points' rows are copied */
    int primal; /* the primal weights instead of kernel rows */
    int pre;    /* a precomputed kernel: the rows hold the kernel values */
    fit_index fi;
    size_t *other;      /* rows of the block that are not fit points */
    double *xb, *zb;    /* those rows gathered, and their features */
    double *kt;         /* a block of kernel rows */
    single_bufs sb;
    primal_bufs pb;
};

void kpca_projector_free(kpca_projector *p)
{
    if (p == NULL)
        return;
    single_bufs_free(&p->sb);
    primal_bufs_free(&p->pb);
    kpca_free(p->kt);
    kpca_free(p->fi.slot);
    kpca_free(p->other);
    kpca_free(p->xb);
    kpca_free(p->zb);
    kpca_free(p);
}

kpca_status kpca_projector_new(const kpca_model *model, size_t k, size_t max_rows, kpca_projector **out,
                               kpca_error *err)
{
    *out = NULL;
    if (k == 0 || k > model->k)
        return kpca_fail(err, KPCA_EUSAGE, "cannot project onto %zu components: the model has %zu", k, model->k);
    kpca_projector *p = kpca_calloc(1, sizeof *p);
    if (p == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for a projection");
    const size_t m = model->m, dim = model->dim;
    const size_t block = max_rows < KPCA_TRANSFORM_BLOCK ? max_rows : KPCA_TRANSFORM_BLOCK;
    p->model = model;
    p->k = k;
    p->max_rows = max_rows;
    p->block = block;
    p->pre = model->kernel.type == KPCA_KERNEL_PRECOMPUTED;
    /* An exact model's fit point x_j projects to K~ alpha = mu alpha_j (its
     * eigenvectors are exact to rounding): such rows are copied; in a block
     * that has some, the other rows are gathered (xb; with the primal
     * weights, less the mean into pb.xc), projected (zb) and scattered
     * back.  (A precomputed kernel's rows are no points.) */
    p->exact = model->centring == KPCA_CENTRE_KERNEL && strncmp(model->solver, "exact", 5) == 0 && !p->pre;
    /* a kernel gamma x.y: the primal weights instead of kernel rows, in double */
    p->primal = max_rows > 0 && kpca_model_transform_primal(model);
    kpca_status st = KPCA_OK;
    if (p->primal) {
        kpca_progress("primal weights", 0, 1);
        if (primal_bufs_alloc(model, block, k, &p->pb) != 0) {
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the %zu x %zu primal weights", dim, k);
            goto done;
        }
        kpca_progress("primal weights", 1, 1);
    } else if (model->precision == KPCA_PRECISION_SINGLE && max_rows > 0 &&
               single_bufs_alloc(model, block, k, &p->sb) != 0) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for a %zu x %zu single-precision kernel block", block, m);
        goto done;
    }
    if (!p->primal && (p->kt = kpca_alloc_array(block ? block : 1, m, sizeof(double))) == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for a %zu x %zu kernel block", block, m);
        goto done;
    }
    if (p->exact && max_rows > 0 && fit_index_build(model, &p->fi) != 0) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the index of %zu fit points", m);
        goto done;
    }
    if (p->fi.slot != NULL) {
        p->other = kpca_alloc_array(block, 1, sizeof(size_t));
        p->xb = p->primal ? NULL : kpca_alloc_array(block, dim, sizeof(double)); /* primal: gathered in pb.xc */
        p->zb = kpca_alloc_array(block, k, sizeof(double));
        if (p->other == NULL || (!p->primal && p->xb == NULL) || p->zb == NULL) {
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory for a %zu-row block", block);
            goto done;
        }
    }
done:
    if (st != KPCA_OK) {
        kpca_projector_free(p);
        return st;
    }
    *out = p;
    return KPCA_OK;
}

double kpca_projector_block_flops(const kpca_projector *p)
{
    const kpca_model *model = p->model;
    const double per_row = p->primal ? (double)model->dim * (double)p->k
                                     : (double)model->m * ((double)model->dim + (double)p->k);
    return 2.0 * (double)p->block * per_row;
}

kpca_status kpca_projector_run(kpca_projector *p, const double *x, size_t n, size_t first, double *z,
                               kpca_error *err)
{
    const kpca_model *model = p->model;
    const size_t m = model->m, dim = model->dim, k = p->k, block = p->block;
    if (n > p->max_rows)
        return kpca_fail(err, KPCA_EUSAGE, "%zu rows are more than the %zu the projection was prepared for", n,
                         p->max_rows);
    kpca_status st = kpca_kernel_check_rows(&model->kernel, x, n, dim, first, err);
    if (st != KPCA_OK)
        return st;
    /* blocks of the input's rows, the same whatever rows match, so that a
     * row's features depend on its block alone (project.h) */
    for (size_t r0 = 0; r0 < n; r0 += block) {
        size_t nb = n - r0 < block ? n - r0 : block, no = nb;
        kpca_progress("projection", first + r0, first + n);
        const double *xs = x + r0 * dim;
        double *zs = z + r0 * k;
        if (p->fi.slot != NULL) {
            /* Each row looked up, and a row that is no fit point gathered
             * (less xbar, for the primal weights) while it is in the cache. */
            no = 0;
            for (size_t r = r0; r < r0 + nb; r++) {
                size_t j = fit_index_find(model, &p->fi, x + r * dim);
                if (j == SIZE_MAX) {
                    if (p->primal)
                        sub_row(p->pb.xc + no * dim, x + r * dim, p->pb.mean, dim);
                    p->other[no++] = r;
                    continue;
                }
                for (size_t c = 0; c < k; c++)
                    z[r * k + c] = model->eigval[c] * model->alpha[c * m + j];
            }
            if (no == 0)
                continue;
            if (p->primal)
                xs = NULL;
            if (no < nb) { /* the other rows gathered; their features scattered below */
                for (size_t r = 0; !p->primal && r < no; r++)
                    memcpy(p->xb + r * dim, x + p->other[r] * dim, dim * sizeof(double));
                if (!p->primal)
                    xs = p->xb;
                zs = p->zb;
            }
        }
        if (p->primal) {
            project_block_primal(&p->pb, xs, no, dim, k, zs);
        } else {
            if (p->pre)
                kpca_kernel_gather(xs, no, dim, model->gram_index, m, p->kt);
            else
                kpca_kernel_cross(&model->kernel, xs, no, model->fitx, m, dim, p->kt);
            if (model->centring != KPCA_CENTRE_KERNEL) { /* NYSTROM, REDUCED */
                kpca_nystrom_centre_rows(p->kt, no, m, model->colmean);
            } else {
                kpca_center_cross(p->kt, no, m, model->colmean, model->grandmean);
            }
            project_block(model, &p->sb, p->kt, no, k, zs);
        }
        if (zs == p->zb) /* scatter */
            for (size_t r = 0; r < no; r++)
                memcpy(z + p->other[r] * k, p->zb + r * k, k * sizeof(double));
    }
    kpca_progress("projection", first + n, first + n);
    for (size_t i = 0; i < n * k; i++)
        if (!isfinite(z[i]))
            return kpca_fail(err, KPCA_ENUMERIC, "projection overflow at point %zu (kernel values too large)",
                             first + i / k + 1);
    return KPCA_OK;
}

kpca_status kpca_model_transform(const kpca_model *model, const double *x, size_t n, size_t dim, size_t k,
                                 double *z, kpca_error *err)
{
    if (dim != model->dim)
        return kpca_fail(err, KPCA_EFORMAT, "the data has %zu values per point but the model expects %zu",
                         dim, model->dim);
    if (k == 0 || k > model->k)
        return kpca_fail(err, KPCA_EUSAGE, "cannot project onto %zu components: the model has %zu", k, model->k);
    kpca_status st = kpca_kernel_check_data(&model->kernel, x, n, dim, err);
    if (st != KPCA_OK || n == 0)
        return st;
    kpca_projector *p;
    if ((st = kpca_projector_new(model, k, n, &p, err)) != KPCA_OK)
        return st;
    st = kpca_projector_run(p, x, n, 0, z, err);
    kpca_projector_free(p);
    return st;
}
