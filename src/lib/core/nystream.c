/* nystream.c - the Nyström fit over rows read a block at a time (see
 * nystream.h): landmarks, the accumulating pass, the finish and the sign
 * pass, on one process or many. */
#include "core/nystream.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/eig.h"
#include "core/kernel.h"
#include "core/landmark.h"
#include "support/clock.h"
#include "support/mem.h"
#include "support/progress.h"

/* k-means landmarks are chosen from a uniform sample of this many rows per
 * landmark (all rows when there are no more) */
#define KMEANS_SAMPLE_PER_LANDMARK 20

/* ---- the feed of an in-memory data set ------------------------------------------ */

static kpca_status ds_seek(void *ctx, size_t row, kpca_error *err)
{
    kpca_rowfeed *f = ctx;
    if (row > f->n)
        return kpca_fail(err, KPCA_EUSAGE, "row %zu is beyond the %zu rows of the data", row, f->n);
    f->at = row;
    return KPCA_OK;
}

static kpca_status ds_read(void *ctx, size_t max, double *x, int *y, size_t *got, kpca_error *err)
{
    (void)err;
    kpca_rowfeed *f = ctx;
    const size_t take = f->n - f->at < max ? f->n - f->at : max;
    memcpy(x, f->ds->x + f->at * f->dim, take * f->dim * sizeof(double));
    if (y != NULL)
        memcpy(y, f->ds->y + f->at, take * sizeof(int));
    f->at += take;
    *got = take;
    return KPCA_OK;
}

void kpca_rowfeed_dataset(kpca_rowfeed *f, const kpca_dataset *ds)
{
    memset(f, 0, sizeof *f);
    f->n = ds->n;
    f->dim = ds->dim;
    f->ctx = f;
    f->seek = ds_seek;
    f->read = ds_read;
    f->ds = ds;
}

/* ---- the processes ----------------------------------------------------------------- */

void kpca_nys_range(size_t n, const kpca_nys_comm *comm, size_t *lo, size_t *hi)
{
    if (comm == NULL || comm->size <= 1 || comm->ranged) {
        *lo = comm != NULL && comm->ranged ? comm->lo : 0;
        *hi = comm != NULL && comm->ranged ? comm->hi : n;
        return;
    }
    /* n rank / size without overflow for any n below 2^64 / size */
    const size_t p = (size_t)comm->size, r = (size_t)comm->rank;
    *lo = n / p * r + n % p * r / p;
    *hi = n / p * (r + 1) + n % p * (r + 1) / p;
}

static kpca_status agree(const kpca_nys_comm *c, kpca_status st, kpca_error *err)
{
    return c != NULL ? c->agree(c->ctx, st, err) : st;
}

/* ---- step 1: landmarks and basis ------------------------------------------------------ */

void kpca_nys_setup_free(kpca_nys_setup *s)
{
    if (s == NULL)
        return;
    kpca_free(s->x);
    kpca_free(s->gram_index);
    kpca_free(s->y);
    kpca_nys_basis_free(&s->basis);
    memset(s, 0, sizeof *s);
}

/* The rows idx[0..count) (ascending) that lie in [lo, hi) into x (count x
 * dim) and their labels into y (count, as doubles); the others are left as
 * they are.  A run of consecutive rows is one read. */
static kpca_status fetch_rows(kpca_rowfeed *f, const size_t *idx, size_t count, size_t lo, size_t hi, double *x,
                              double *y, int *yscratch, size_t cap, kpca_error *err)
{
    size_t j = 0;
    while (j < count && idx[j] < lo)
        j++;
    while (j < count && idx[j] < hi) {
        size_t run = 1;
        while (j + run < count && run < cap && idx[j + run] == idx[j] + run && idx[j + run] < hi)
            run++;
        kpca_status st = f->seek(f->ctx, idx[j], err);
        size_t got = 0;
        if (st == KPCA_OK)
            st = f->read(f->ctx, run, x + j * f->dim, yscratch, &got, err);
        if (st == KPCA_OK && got != run)
            st = kpca_fail(err, KPCA_EFORMAT, "the data ended at row %zu of the %zu it had", idx[j] + got, f->n);
        if (st != KPCA_OK)
            return st;
        for (size_t t = 0; t < run; t++)
            y[j + t] = (double)yscratch[t];
        j += run;
    }
    return KPCA_OK;
}

/* The landmark rows or the k-means sample: the rows idx[0..count) into x
 * (count x dim) and y (count), on every process. */
static kpca_status share_rows(kpca_rowfeed *f, const size_t *idx, size_t count, const kpca_nys_comm *comm,
                              double *x, double *y, kpca_error *err)
{
    size_t lo, hi;
    kpca_nys_range(f->n, comm, &lo, &hi);
    const size_t cap = 4096;
    int *ys = kpca_alloc_array(cap, 1, sizeof(int));
    kpca_status st = ys == NULL ? kpca_fail(err, KPCA_ENOMEM, "out of memory") : KPCA_OK;
    if (st == KPCA_OK && comm != NULL) {
        memset(x, 0, count * f->dim * sizeof(double));
        memset(y, 0, count * sizeof(double));
    }
    if (st == KPCA_OK)
        st = fetch_rows(f, idx, count, lo, hi, x, y, ys, cap, err);
    kpca_free(ys);
    st = agree(comm, st, err);
    if (st == KPCA_OK && comm != NULL) {
        comm->sum(comm->ctx, x, count * f->dim);
        comm->sum(comm->ctx, y, count);
    }
    return st;
}

/* A precomputed kernel's K_LL: the landmark rows' columns at their indices
 * in GRAM, checked symmetric and made exactly so; its clearly negative
 * part into *lowest */
static kpca_status precomputed_kll(const double *rows, size_t l, size_t M, const size_t *gram_index, double tol,
                                   double *kll, double *lowest, kpca_error *err)
{
    kpca_kernel_gather(rows, l, M, gram_index, l, kll);
    kpca_error why;
    if (kpca_kernel_check_matrix(kll, l, l, KPCA_PRECOMPUTED_SYMMETRY_TOL, &why) != KPCA_OK)
        return kpca_fail(err, KPCA_EFORMAT, "the kernel matrix of the %zu landmarks (numbered as they are): %s", l,
                         why.msg);
    kpca_kernel_symmetrize(kll, l);
    return kpca_eig_lowest(kll, l, tol, lowest, err);
}

/* The landmarks (s->x or s->gram_index, s->y) on every process; for a
 * precomputed kernel, also K_LL into kll (process 0's is the one used) */
static kpca_status choose_landmarks(kpca_rowfeed *f, const kpca_fit_params *p, const kpca_nys_comm *comm,
                                    kpca_nys_setup *s, double *kll, kpca_error *err)
{
    const size_t n = f->n, l = s->l, dim = f->dim;
    const int pre = p->kernel.type == KPCA_KERNEL_PRECOMPUTED;
    const int km = !pre && p->landmark_method == KPCA_LANDMARKS_KMEANS;
    size_t count = l;
    if (km)
        count = n / KMEANS_SAMPLE_PER_LANDMARK < l ? n : KMEANS_SAMPLE_PER_LANDMARK * l;
    size_t *idx = kpca_alloc_array(count, 1, sizeof(size_t));
    double *rows = kpca_alloc_array(count, dim, sizeof(double));
    double *ys = kpca_alloc_array(count, 1, sizeof(double));
    kpca_status st = KPCA_OK;
    if (idx == NULL || rows == NULL || ys == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu rows of %zu values (the landmarks)", count, dim);
    /* every process knows n and the seed: the same indices everywhere */
    if (st == KPCA_OK)
        st = kpca_landmarks_uniform(n, count, p->seed, idx, err);
    if (st == KPCA_OK)
        st = share_rows(f, idx, count, comm, rows, ys, err);
    else
        st = agree(comm, st, err); /* share_rows' agreement, which stops the others */
    if (st != KPCA_OK)
        goto done;
    if (km) {
        if (comm == NULL || comm->rank == 0)
            st = kpca_kmeans(rows, count, dim, l, p->seed, p->kmeans_iter, s->x, NULL, NULL, err);
        st = agree(comm, st, err);
        if (st == KPCA_OK && comm != NULL)
            comm->bcast(comm->ctx, s->x, l * dim);
        for (size_t j = 0; j < l; j++)
            s->y[j] = -1; /* centres, not digits */
    } else {
        for (size_t j = 0; j < l; j++) {
            if (pre)
                s->gram_index[j] = p->gram_index != NULL ? p->gram_index[idx[j]] : idx[j];
            else
                memcpy(s->x + j * dim, rows + j * dim, dim * sizeof(double));
            s->y[j] = (int)ys[j];
        }
        if (pre && (comm == NULL || comm->rank == 0))
            st = precomputed_kll(rows, l, dim, s->gram_index, s->basis.tol, kll, &s->lowest, err);
    }
done:
    kpca_free(idx);
    kpca_free(rows);
    kpca_free(ys);
    return st;
}

kpca_status kpca_nys_setup_make(kpca_rowfeed *feed, const kpca_fit_params *p, const kpca_nys_comm *comm,
                                kpca_nys_setup *s, kpca_error *err)
{
    memset(s, 0, sizeof *s);
    const size_t n = feed->n, l = p->landmarks, dim = feed->dim;
    const int pre = p->kernel.type == KPCA_KERNEL_PRECOMPUTED;
    if (l < 2 || l > n)
        return kpca_fail(err, KPCA_EUSAGE, "Nyström needs 2 to %zu landmarks (the fit points), got %zu", n, l);
    s->kernel = p->kernel;
    s->n = n;
    s->l = l;
    s->dim = dim;
    s->method = pre ? KPCA_LANDMARKS_UNIFORM : p->landmark_method;
    s->seed = p->seed;
    s->basis.tol = p->tol >= 0.0 ? p->tol : (double)l * DBL_EPSILON;
    if (pre)
        s->gram_index = kpca_alloc_array(l, 1, sizeof(size_t));
    else
        s->x = kpca_alloc_array(l, dim, sizeof(double));
    s->y = kpca_alloc_array(l, 1, sizeof(int));
    double *kll = kpca_alloc_array(l, l, sizeof(double));
    kpca_status st = KPCA_OK;
    if ((pre ? s->gram_index == NULL : s->x == NULL) || s->y == NULL || kll == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu landmarks of %zu values", l, dim);
    const double t0 = kpca_now();
    kpca_progress("landmarks", 0, 1);
    if (st == KPCA_OK)
        st = choose_landmarks(feed, p, comm, s, kll, err);
    else
        st = agree(comm, st, err); /* choose_landmarks' first agreement, which stops the others */
    kpca_progress("landmarks", 1, 1);
    const double t1 = kpca_now();
    if (st != KPCA_OK)
        goto done;
    /* the basis on process 0, sent to the others */
    size_t r = 0;
    if (comm == NULL || comm->rank == 0) {
        if (!pre) {
            kpca_kernel_gram(&p->kernel, s->x, l, dim, kll);
            st = kpca_kernel_check_finite(&p->kernel, kll, l * l, err);
        }
        if (st == KPCA_OK)
            st = kpca_nys_basis_make(kll, l, s->basis.tol, &s->basis, err);
        r = s->basis.r;
    }
    st = agree(comm, st, err);
    if (st == KPCA_OK && comm != NULL) {
        double rr = (double)r;
        comm->bcast(comm->ctx, &rr, 1);
        r = (size_t)rr;
        if (comm->rank != 0) {
            s->basis.l = l;
            s->basis.r = r;
            s->basis.w = kpca_alloc_array(r ? r : 1, l, sizeof(double));
            if (s->basis.w == NULL)
                st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the %zu x %zu landmark basis", r, l);
        }
        st = agree(comm, st, err);
        if (st == KPCA_OK)
            comm->bcast(comm->ctx, s->basis.w, r * l);
        double low = s->lowest;
        if (st == KPCA_OK)
            comm->bcast(comm->ctx, &low, 1);
        s->lowest = low;
    }
    s->sec_landmarks = t1 - t0;
    s->sec_basis = kpca_now() - t1;
done:
    kpca_free(kll);
    if (st != KPCA_OK)
        kpca_nys_setup_free(s);
    return st;
}

void kpca_nys_kernel_rows(const kpca_nys_setup *s, const double *x, size_t rows, double *kx)
{
    if (s->kernel.type == KPCA_KERNEL_PRECOMPUTED)
        kpca_kernel_gather(x, rows, s->dim, s->gram_index, s->l, kx);
    else
        kpca_kernel_cross(&s->kernel, x, rows, s->x, s->l, s->dim, kx);
}

/* ---- the passes ---------------------------------------------------------------------- */

/* One pass over the rows [lo, hi) in blocks: x, their kernel rows kx,
 * checked finite; then each block to `use` */
typedef kpca_status (*block_fn)(void *ctx, const double *x, double *kx, size_t rows, size_t row0, kpca_error *err);

static kpca_status pass(kpca_rowfeed *f, const kpca_nys_setup *s, size_t lo, size_t hi, size_t block,
                        const char *phase, block_fn use, void *ctx, kpca_error *err)
{
    if (block > hi - lo)
        block = hi > lo ? hi - lo : 1;
    double *x = kpca_alloc_array(block, f->dim, sizeof(double));
    double *kx = kpca_alloc_array(block, s->l, sizeof(double));
    kpca_status st = KPCA_OK;
    if (x == NULL || kx == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for a block of %zu rows", block);
    if (st == KPCA_OK && lo < hi)
        st = f->seek(f->ctx, lo, err);
    kpca_progress(phase, 0, hi - lo);
    for (size_t at = lo; st == KPCA_OK && at < hi;) {
        const size_t want = hi - at < block ? hi - at : block;
        size_t got = 0;
        st = f->read(f->ctx, want, x, NULL, &got, err);
        if (st == KPCA_OK && got != want)
            st = kpca_fail(err, KPCA_EFORMAT, "the data ended at row %zu of the %zu it had", at + got, f->n);
        if (st != KPCA_OK)
            break;
        kpca_nys_kernel_rows(s, x, got, kx);
        st = kpca_kernel_check_finite(&s->kernel, kx, got * s->l, err);
        if (st == KPCA_OK)
            st = use(ctx, x, kx, got, at, err);
        at += got;
        kpca_progress(phase, at - lo, hi - lo);
    }
    kpca_free(x);
    kpca_free(kx);
    return st;
}

typedef struct {
    const kpca_nys_setup *s;
    kpca_nys_acc *acc;
    size_t dim;
} acc_ctx;

static kpca_status acc_block(void *ctx, const double *x, double *kx, size_t rows, size_t row0, kpca_error *err)
{
    (void)row0;
    acc_ctx *c = ctx;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < rows * c->dim; i++) {
        lo = fmin(lo, x[i]);
        hi = fmax(hi, x[i]);
    }
    kpca_nys_acc_range(c->acc, lo, hi);
    return kpca_nys_acc_add(c->acc, &c->s->basis, kx, rows, err);
}

kpca_status kpca_nys_accumulate(kpca_rowfeed *feed, const kpca_nys_setup *s, size_t lo, size_t hi, size_t block,
                                kpca_nys_acc *acc, kpca_error *err)
{
    if (block == 0)
        block = kpca_nys_block_rows(s->l, s->basis.r, s->dim);
    acc_ctx c = {s, acc, s->dim};
    return pass(feed, s, lo, hi, block, "accumulate", acc_block, &c, err);
}

typedef struct {
    const kpca_nys_result *res;
    kpca_nys_signs *sg;
    double *z;
} sign_ctx;

static kpca_status sign_block(void *ctx, const double *x, double *kx, size_t rows, size_t row0, kpca_error *err)
{
    (void)x;
    (void)err;
    sign_ctx *c = ctx;
    kpca_nys_project(c->res, kx, rows, c->z, c->res->kept);
    kpca_nys_signs_add(c->sg, c->z, rows, c->res->kept, row0);
    return KPCA_OK;
}

/* acc merged onto process 0 and finished there; the result on every process */
static kpca_status finish_shared(kpca_nys_acc *acc, const kpca_nys_setup *s, size_t want, double tol,
                                 const kpca_nys_comm *comm, kpca_nys_result *res, kpca_error *err)
{
    const size_t l = s->l, r = s->basis.r;
    memset(res, 0, sizeof *res);
    if (comm == NULL)
        return kpca_nys_finish(acc, &s->basis, want, tol, res, err);
    const size_t np = kpca_nys_acc_packed(l, r), nr = 3 + want + l + want * l;
    double *buf = kpca_alloc_array(np > nr ? np : nr, 1, sizeof(double));
    kpca_status st = buf == NULL ? kpca_fail(err, KPCA_ENOMEM, "out of memory for the accumulator") : KPCA_OK;
    if (st == KPCA_OK)
        kpca_nys_acc_pack(acc, buf);
    st = agree(comm, st, err);
    if (st != KPCA_OK)
        goto done;
    comm->reduce_acc(comm->ctx, buf, np);
    if (comm->rank == 0) {
        st = kpca_nys_acc_unpack(acc, buf, err);
        if (st == KPCA_OK)
            st = kpca_nys_finish(acc, &s->basis, want, tol, res, err);
        if (st == KPCA_OK) { /* kept, trace, raw trace, evals, kbar, A */
            buf[0] = (double)res->kept;
            buf[1] = res->trace;
            buf[2] = res->raw_trace;
            memcpy(buf + 3, res->evals, want * sizeof(double));
            memcpy(buf + 3 + want, res->kbar, l * sizeof(double));
            memcpy(buf + 3 + want + l, res->a, want * l * sizeof(double));
        }
    } else {
        res->a = kpca_alloc_array(want, l, sizeof(double));
        res->evals = kpca_alloc_array(want, 1, sizeof(double));
        res->kbar = kpca_alloc_array(l, 1, sizeof(double));
        if (res->a == NULL || res->evals == NULL || res->kbar == NULL)
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu components of %zu landmarks", want, l);
    }
    st = agree(comm, st, err);
    if (st != KPCA_OK)
        goto done;
    comm->bcast(comm->ctx, buf, nr);
    if (comm->rank != 0) {
        res->l = l;
        res->r = r;
        res->want = want;
        res->kept = (size_t)buf[0];
        res->trace = buf[1];
        res->raw_trace = buf[2];
        memcpy(res->evals, buf + 3, want * sizeof(double));
        memcpy(res->kbar, buf + 3 + want, l * sizeof(double));
        memcpy(res->a, buf + 3 + want + l, want * l * sizeof(double));
    }
done:
    kpca_free(buf);
    if (st != KPCA_OK)
        kpca_nys_result_free(res);
    return st;
}

/* acc's scratch (the block's scatter and features) goes before the eigensolve */
static void trim(kpca_nys_acc *acc)
{
    kpca_free(acc->bm2);
    kpca_free(acc->phi);
    acc->bm2 = NULL;
    acc->phi = NULL;
    acc->cap = 0;
}

/* the model's fields from the signed result */
static kpca_status fill_model(const kpca_nys_setup *s, const kpca_nys_result *res, double lo, double hi,
                              kpca_model *model, kpca_error *err)
{
    const size_t l = s->l, kept = res->kept;
    memset(model, 0, sizeof *model);
    const int pre = s->kernel.type == KPCA_KERNEL_PRECOMPUTED;
    if (pre)
        model->gram_index = kpca_alloc_array(l, 1, sizeof(size_t));
    else
        model->fitx = kpca_alloc_array(l, s->dim, sizeof(double));
    model->fity = kpca_alloc_array(l, 1, sizeof(int));
    model->colmean = kpca_alloc_array(l, 1, sizeof(double));
    model->alpha = kpca_alloc_array(kept, l, sizeof(double));
    model->eigval = kpca_alloc_array(kept, 1, sizeof(double));
    if ((pre ? model->gram_index == NULL : model->fitx == NULL) || model->fity == NULL || model->colmean == NULL ||
        model->alpha == NULL || model->eigval == NULL) {
        kpca_model_free(model);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for a model of %zu landmarks", l);
    }
    if (pre)
        memcpy(model->gram_index, s->gram_index, l * sizeof(size_t));
    else
        memcpy(model->fitx, s->x, l * s->dim * sizeof(double));
    memcpy(model->fity, s->y, l * sizeof(int));
    memcpy(model->colmean, res->kbar, l * sizeof(double));
    memcpy(model->alpha, res->a, kept * l * sizeof(double));
    memcpy(model->eigval, res->evals, kept * sizeof(double));
    model->kernel = s->kernel;
    model->centring = KPCA_CENTRE_NYSTROM;
    model->fit_n = s->n;
    snprintf(model->solver, sizeof model->solver, "nystrom %s l=%zu seed=%llu", kpca_landmark_method_name(s->method),
             l, (unsigned long long)s->seed);
    model->m = l;
    model->dim = s->dim;
    model->k = kept;
    model->grandmean = 0.0;
    model->trace = res->trace;
    model->input_lo = lo;
    model->input_hi = hi;
    return KPCA_OK;
}

kpca_status kpca_nys_complete(kpca_rowfeed *feed, const kpca_nys_setup *s, kpca_nys_acc *acc, size_t want,
                              double tol, size_t block, const kpca_nys_comm *comm, kpca_model *model,
                              kpca_fit_info *info, kpca_error *err)
{
    memset(model, 0, sizeof *model);
    if (tol < 0.0)
        tol = (double)s->l * DBL_EPSILON;
    trim(acc);
    double lohi[2] = {-acc->lo, acc->hi}; /* the range, as maxima */
    const double t0 = kpca_now();
    kpca_progress("eigensolve", 0, 1);
    kpca_nys_result res;
    kpca_status st = finish_shared(acc, s, want, tol, comm, &res, err);
    kpca_progress("eigensolve", 1, 1);
    if (st != KPCA_OK)
        return st;
    if (comm != NULL && comm->rank == 0) {
        lohi[0] = -acc->lo;
        lohi[1] = acc->hi;
    }
    if (comm != NULL)
        comm->bcast(comm->ctx, lohi, 2);
    const double t1 = kpca_now();
    size_t lo, hi;
    kpca_nys_range(s->n, comm, &lo, &hi);
    if (block == 0)
        block = kpca_nys_block_rows(s->l, res.kept, s->dim);
    if (block > hi - lo)
        block = hi > lo ? hi - lo : 1;
    kpca_nys_signs sg;
    double *z = kpca_alloc_array(block, res.kept, sizeof(double));
    st = kpca_nys_signs_init(&sg, res.kept, err);
    if (st == KPCA_OK && z == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the projections of %zu rows", block);
    if (st == KPCA_OK) {
        sign_ctx c = {&res, &sg, z};
        st = pass(feed, s, lo, hi, block, "signs", sign_block, &c, err);
    }
    st = agree(comm, st, err);
    if (st == KPCA_OK && comm != NULL) {
        comm->reduce_signs(comm->ctx, sg.best, res.kept);
        comm->bcast(comm->ctx, sg.best, kpca_nys_signs_packed(res.kept));
    }
    if (st == KPCA_OK) {
        kpca_nys_signs_apply(&sg, &res);
        st = fill_model(s, &res, -lohi[0], lohi[1], model, err);
    }
    if (st == KPCA_OK && info != NULL) {
        info->requested = want;
        info->kept = res.kept;
        info->tol = tol;
        info->eig_used = KPCA_EIG_AUTO;
        info->lowest = s->lowest;
        info->sec_eig = t1 - t0;
        info->sec_signs = kpca_now() - t1;
    }
    kpca_free(z);
    kpca_nys_signs_free(&sg);
    kpca_nys_result_free(&res);
    return st;
}

double kpca_nys_mem(size_t l, size_t dim, size_t block, kpca_landmark_method method)
{
    const double L = (double)l, D = (double)dim;
    double pts = L * D;
    if (method == KPCA_LANDMARKS_KMEANS)
        pts += KMEANS_SAMPLE_PER_LANDMARK * L * D;
    return 8.0 * (pts + 6.0 * L * L + (double)block * (D + 2.0 * L));
}

kpca_status kpca_nystrom_fit_rows(kpca_rowfeed *feed, const kpca_fit_params *p, const kpca_nys_comm *comm,
                                  kpca_model *model, kpca_fit_info *info, kpca_error *err)
{
    memset(model, 0, sizeof *model);
    const size_t n = feed->n, l = p->landmarks, dim = feed->dim;
    const size_t want = p->components ? p->components : l; /* kpca_fit_check: want <= l */
    size_t block = p->block ? p->block : kpca_nys_block_rows(l, l, dim);
    if (block > n && n > 0) /* no block holds more rows than there are */
        block = n;
    char what[160];
    snprintf(what, sizeof what, "Nystrom kernel PCA with %zu landmarks of %zu values (blocks of %zu rows)", l, dim,
             block);
    kpca_status st = kpca_mem_check(kpca_nys_mem(l, dim, block, p->landmark_method), what, err);
    if (st == KPCA_OK && comm != NULL && comm->max_pack != 0 && kpca_nys_acc_packed(l, l) > comm->max_pack)
        st = kpca_fail(err, KPCA_EUSAGE, "%zu landmarks give sums of %zu numbers, more than the %zu of one message "
                       "between the processes", l, kpca_nys_acc_packed(l, l), comm->max_pack);
    if (comm != NULL) /* every process checks its own budget */
        st = agree(comm, st, err);
    if (st != KPCA_OK)
        return st;
    kpca_fit_info inf;
    memset(&inf, 0, sizeof inf);
    kpca_nys_setup s;
    kpca_nys_acc acc;
    memset(&acc, 0, sizeof acc);
    st = kpca_nys_setup_make(feed, p, comm, &s, err);
    if (st != KPCA_OK)
        return st;
    const double t0 = kpca_now();
    size_t lo, hi;
    kpca_nys_range(n, comm, &lo, &hi);
    st = kpca_nys_acc_init(&acc, l, s.basis.r, err);
    if (st == KPCA_OK)
        st = kpca_nys_accumulate(feed, &s, lo, hi, p->block, &acc, err);
    const double t1 = kpca_now();
    st = agree(comm, st, err);
    if (st == KPCA_OK)
        st = kpca_nys_complete(feed, &s, &acc, want, p->tol, p->block, comm, model, &inf, err);
    if (st == KPCA_OK && info != NULL) {
        inf.sec_kernel = s.sec_landmarks + (t1 - t0);
        inf.sec_eig += s.sec_basis;
        *info = inf;
    }
    kpca_nys_acc_free(&acc);
    kpca_nys_setup_free(&s);
    return st;
}

kpca_status kpca_nystrom_fit(const kpca_dataset *fit, const kpca_fit_params *p, kpca_model *model,
                             kpca_fit_info *info, kpca_error *err)
{
    kpca_rowfeed f;
    kpca_rowfeed_dataset(&f, fit);
    return kpca_nystrom_fit_rows(&f, p, NULL, model, info, err);
}
