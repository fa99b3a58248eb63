/* svmtrain.c - the binary linear SVMs of a multi-class classifier, trained
 * with LIBSVM in worker threads (see svmtrain.h). */
#include "classify/svmtrain.h"

#include <libsvm/svm.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "support/clock.h"
#include "classify/liblin.h"
#include "support/mem.h"
#include "support/progress.h"

static void quiet_print(const char *s)
{
    (void)s;
}

/* What every binary problem of one training run shares (read-only). */
typedef struct {
    const double *x;
    size_t ld, dim;
    const double *g;    /* Gram matrix, GRAM backend: entry (i, j), i <= j, at g[goff[i] + j] */
    const float *gs;    /* or the same in binary32 (g NULL) */
    const size_t *goff;
    const size_t *gpos; /* row and column of training row r in g (NULL: r) */
    double factor;
    const kpca_svm_params *p;
    char phase[32]; /* for kpca_progress: "svm 64" */
} train_ctx;

/* Node storage per row of a problem of ns points. */
static size_t node_stride(const train_ctx *t, size_t ns)
{
    return t->p->backend == KPCA_SVM_GRAM ? ns + 2 : t->dim + 1;
}

/* The PRECOMPUTED rows of the points whose places in G are gidx[0..ns-1]:
 * row r is its serial number r + 1, then factor G(gidx[r], gidx[c]) for
 * c = 0..ns-1, then the terminator.  Reads the upper triangle of G only
 * (G(i, j) with i <= j), so the caller never mirrors it: each value is read
 * once and written to both of its places, in B x B tiles so that the
 * transposed writes stay in cache.  With gidx ascending (the points of a
 * one-vs-one problem, G grouped by class) every read is a contiguous
 * stretch of a row of G. */
static void build_gram_rows(const train_ctx *t, const size_t *gidx, size_t ns, struct svm_node *nodes,
                            struct svm_node **rows)
{
    enum { B = 64 };
    const size_t stride = ns + 2, *goff = t->goff;
    const double *g = t->g, f = t->factor;
    const float *gs = t->gs;
    for (size_t r = 0; r < ns; r++) {
        struct svm_node *row = nodes + r * stride;
        rows[r] = row;
        row[0].index = 0;
        row[0].value = (double)(r + 1);
        row[ns + 1].index = -1;
        row[ns + 1].value = 0.0;
    }
    for (size_t r0 = 0; r0 < ns; r0 += B) {
        size_t r1 = r0 + B < ns ? r0 + B : ns;
        for (size_t c0 = r0; c0 < ns; c0 += B) {
            size_t c1 = c0 + B < ns ? c0 + B : ns;
            for (size_t r = r0; r < r1; r++) {
                const size_t gr = gidx[r], ro = goff[gr];
                struct svm_node *row = nodes + r * stride + 1;
                for (size_t c = c0 > r ? c0 : r; c < c1; c++) {
                    const size_t gc = gidx[c];
                    const size_t at = gr <= gc ? ro + gc : goff[gc] + gr;
                    const double v = f * (gs != NULL ? (double)gs[at] : g[at]);
                    row[c].index = (int)(c + 1);
                    row[c].value = v;
                    struct svm_node *mirror = nodes + c * stride + 1 + r;
                    mirror->index = (int)(r + 1);
                    mirror->value = v;
                }
            }
        }
    }
}

/* Fills rows[0..ns-1] (pointing into nodes) with LIBSVM's view of the
 * points idx[0..ns-1]: a row of the scaled Gram matrix (PRECOMPUTED, see
 * build_gram_rows) or the scaled feature vector (LINEAR).  gidx: scratch
 * for the points' positions in G.  kpca_eval stores G with the training
 * rows grouped by class, so that the points of a binary problem read a few
 * contiguous stretches of each row of G. */
static void build_rows(const train_ctx *t, const size_t *idx, size_t *gidx, size_t ns, struct svm_node *nodes,
                       struct svm_node **rows)
{
    if (t->p->backend == KPCA_SVM_GRAM) {
        for (size_t r = 0; r < ns; r++)
            gidx[r] = t->gpos != NULL ? t->gpos[idx[r]] : idx[r];
        build_gram_rows(t, gidx, ns, nodes, rows);
        return;
    }
    const size_t stride = node_stride(t, ns);
    double sfac = sqrt(t->factor);
    for (size_t r = 0; r < ns; r++) {
        struct svm_node *row = nodes + r * stride;
        rows[r] = row;
        const double *xr = t->x + idx[r] * t->ld;
        for (size_t c = 0; c < t->dim; c++) {
            row[c].index = (int)(c + 1);
            row[c].value = sfac * xr[c];
        }
        row[t->dim].index = -1;
    }
}

/* Trains one binary machine on the built rows of the points idx[0..ns-1],
 * sign[r] = +-1; writes w (dim) and *b so that w.x + b > 0 means the +1
 * side, and the number of support vectors to *nsv.  Safe to run in several
 * threads at once: LIBSVM keeps no state between calls but its print hook,
 * which the caller sets beforehand; no BLAS call here. */
static kpca_status train_binary(const train_ctx *t, const size_t *idx, double *sign, size_t ns,
                                struct svm_node **rows, double *w, double *b, size_t *nsv, double *sec,
                                kpca_error *err)
{
    const int gram = t->p->backend == KPCA_SVM_GRAM;
    struct svm_problem prob;
    prob.l = (int)ns;
    prob.y = sign;
    prob.x = rows;
    struct svm_parameter par;
    memset(&par, 0, sizeof par);
    par.svm_type = C_SVC;
    par.kernel_type = gram ? PRECOMPUTED : LINEAR;
    par.cache_size = t->p->cache_mb;
    par.eps = t->p->eps;
    par.C = t->p->C;
    par.shrinking = 1;
    par.probability = 0;
    const char *msg = svm_check_parameter(&prob, &par);
    if (msg != NULL)
        return kpca_fail(err, KPCA_EUSAGE, "libsvm: %s", msg);
    double t0 = kpca_now();
    struct svm_model *model = svm_train(&prob, &par);
    *sec = kpca_now() - t0;
    if (model == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "libsvm could not train a machine (out of memory?)");
    int nsv_m = svm_get_nr_sv(model);
    int *svi = kpca_alloc_array((size_t)(nsv_m > 0 ? nsv_m : 1), 1, sizeof(int));
    if (svi == NULL) {
        svm_free_and_destroy_model(&model);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory");
    }
    svm_get_sv_indices(model, svi);
    int labels[2] = {1, -1};
    if (svm_get_nr_class(model) == 2)
        svm_get_labels(model, labels);
    double flip = labels[0] == 1 ? 1.0 : -1.0; /* LIBSVM's decision is > 0 for labels[0] */
    memset(w, 0, t->dim * sizeof(double));
    for (int s = 0; s < nsv_m; s++) {
        const double *xs = t->x + idx[svi[s] - 1] * t->ld;
        double a = flip * t->factor * model->sv_coef[0][s];
        for (size_t c = 0; c < t->dim; c++)
            w[c] += a * xs[c];
    }
    *b = nsv_m > 0 || svm_get_nr_class(model) == 2 ? -flip * model->rho[0] : 0.0;
    if (svm_get_nr_class(model) < 2) /* one class only: constant decision */
        *b = labels[0] == 1 ? 1.0 : -1.0;
    *nsv = (size_t)nsv_m;
    kpca_free(svi);
    svm_free_and_destroy_model(&model);
    return KPCA_OK;
}

/* The binary machines of one multi-class training run, handed out to
 * worker threads one at a time.  Each machine's result depends on nothing
 * but its own problem, so the classifier is identical for any thread count;
 * of several failures the one of the lowest machine is reported. */
typedef struct {
    const train_ctx *t;
    const size_t *rowmap; /* training row of point i (NULL: i) */
    const int *cls;       /* class index of point i */
    size_t n, nclass, maxns;
    kpca_classifier *out;
    size_t *nsv;                  /* per machine */
    double *sec;                  /* per machine: seconds in svm_train */
    struct svm_node **shared;     /* OVR: the rows every machine uses */
    const kpca_liblinear_rows *lrows; /* LIBLINEAR: the rows of every point */
    kpca_svm_scratch *ws;         /* a slot per worker */
    size_t slots_taken;
    pthread_mutex_t lock;
    size_t finished; /* machines trained, for kpca_progress */
    size_t next;
    size_t fail_m; /* lowest failed machine, nmach if none */
    kpca_status st;
    kpca_error err;
} pool;

/* One worker's buffers for the binary problems: capacities in points and
 * in nodes.  Kept in a kpca_svm_scratch from one training run to the next. */
typedef struct {
    size_t cap_ns, cap_nodes;
    size_t *idx, *gidx;
    double *sign;
    struct svm_node *nodes;
    struct svm_node **rows;
} slot;

struct kpca_svm_scratch {
    size_t nslot;
    slot *slot;
};

kpca_svm_scratch *kpca_svm_scratch_new(void)
{
    return kpca_calloc(1, sizeof(kpca_svm_scratch));
}

void kpca_svm_scratch_free(kpca_svm_scratch *ws)
{
    if (ws == NULL)
        return;
    for (size_t i = 0; i < ws->nslot; i++) {
        slot *b = &ws->slot[i];
        kpca_free(b->idx);
        kpca_free(b->gidx);
        kpca_free(b->sign);
        kpca_free(b->nodes);
        kpca_free(b->rows);
    }
    kpca_free(ws->slot);
    kpca_free(ws);
}

/* At least n slots (new ones empty); 0, or -1 out of memory. */
static int scratch_slots(kpca_svm_scratch *ws, size_t n)
{
    if (ws->nslot >= n)
        return 0;
    slot *s = kpca_realloc(ws->slot, n * sizeof *s);
    if (s == NULL)
        return -1;
    memset(s + ws->nslot, 0, (n - ws->nslot) * sizeof *s);
    ws->slot = s;
    ws->nslot = n;
    return 0;
}

/* Grows b to ns points and `nodes` nodes (0: no node rows); 0, or -1 out of
 * memory (b then holds nothing). */
static int slot_reserve(slot *b, size_t ns, size_t nodes)
{
    if (b->cap_ns >= ns && b->cap_nodes >= nodes)
        return 0;
    kpca_free(b->idx);
    kpca_free(b->gidx);
    kpca_free(b->sign);
    kpca_free(b->nodes);
    kpca_free(b->rows);
    memset(b, 0, sizeof *b);
    b->idx = kpca_alloc_array(ns, 1, sizeof(size_t));
    b->gidx = kpca_alloc_array(ns, 1, sizeof(size_t));
    b->sign = kpca_alloc_array(ns, 1, sizeof(double));
    b->rows = kpca_alloc_array(ns, 1, sizeof(struct svm_node *));
    b->nodes = nodes > 0 ? kpca_alloc_array(nodes, 1, sizeof(struct svm_node)) : NULL;
    if (b->idx == NULL || b->gidx == NULL || b->sign == NULL || b->rows == NULL || (nodes > 0 && b->nodes == NULL)) {
        slot_reserve(b, 0, 0); /* frees what was allocated */
        return -1;
    }
    b->cap_ns = ns;
    b->cap_nodes = nodes;
    return 0;
}

static void *train_worker(void *arg)
{
    pool *P = arg;
    const train_ctx *t = P->t;
    const size_t n = P->n, dim = t->dim;
    const int ovr = t->p->scheme == KPCA_MC_OVR;
    kpca_error err;
    kpca_error_clear(&err);
    kpca_status st = KPCA_OK;
    pthread_mutex_lock(&P->lock);
    slot *b = &P->ws->slot[P->slots_taken++];
    pthread_mutex_unlock(&P->lock);
    const int lin = P->lrows != NULL;
    int ok = slot_reserve(b, P->maxns, ovr || lin ? 0 : P->maxns * node_stride(t, P->maxns)) == 0;
    size_t *idx = b->idx, *gidx = b->gidx;
    double *sign = b->sign;
    struct svm_node *nodes = b->nodes;
    struct svm_node **rows = ovr ? P->shared : b->rows;
    size_t m = 0;
    if (!ok) {
        st = kpca_fail(&err, KPCA_ENOMEM, "out of memory for an SVM problem of %zu points", P->maxns);
        pthread_mutex_lock(&P->lock);
        m = P->next; /* blame the first machine not yet started */
        goto failed;
    }
    for (;;) {
        pthread_mutex_lock(&P->lock);
        m = P->next++;
        int stop = m >= P->out->nmach || P->st != KPCA_OK;
        pthread_mutex_unlock(&P->lock);
        if (stop)
            break;
        size_t a = (size_t)P->out->pos[m], ns = 0;
        if (lin) { /* positions in the run, not rows of x */
            size_t c = ovr ? SIZE_MAX : (size_t)P->out->neg[m];
            for (size_t i = 0; i < n; i++)
                if (ovr || (size_t)P->cls[i] == a) {
                    idx[ns] = i;
                    sign[ns++] = (size_t)P->cls[i] == a ? 1.0 : -1.0;
                }
            for (size_t i = 0; !ovr && i < n; i++)
                if ((size_t)P->cls[i] == c) {
                    idx[ns] = i;
                    sign[ns++] = -1.0;
                }
            double t0 = kpca_now();
            st = kpca_liblinear_train_binary(P->lrows, idx, sign, ns, t->p->C, t->p->eps, P->out->w + m * dim,
                                             P->out->b + m, &P->nsv[m], &err);
            P->sec[m] = kpca_now() - t0;
        } else if (ovr) {
            for (size_t i = 0; i < n; i++) {
                idx[i] = P->rowmap != NULL ? P->rowmap[i] : i;
                sign[i] = (size_t)P->cls[i] == a ? 1.0 : -1.0;
            }
            ns = n;
        } else {
            size_t c = (size_t)P->out->neg[m];
            for (size_t i = 0; i < n; i++)
                if ((size_t)P->cls[i] == a) {
                    idx[ns] = P->rowmap != NULL ? P->rowmap[i] : i;
                    sign[ns++] = 1.0;
                }
            for (size_t i = 0; i < n; i++)
                if ((size_t)P->cls[i] == c) {
                    idx[ns] = P->rowmap != NULL ? P->rowmap[i] : i;
                    sign[ns++] = -1.0;
                }
            build_rows(t, idx, gidx, ns, nodes, rows);
        }
        if (!lin)
            st = train_binary(t, idx, sign, ns, rows, P->out->w + m * dim, P->out->b + m, &P->nsv[m], &P->sec[m],
                              &err);
        if (st != KPCA_OK) {
            pthread_mutex_lock(&P->lock);
            goto failed;
        }
        /* report under the lock so the hook sees done counts in order */
        pthread_mutex_lock(&P->lock);
        size_t finished = ++P->finished;
        kpca_progress(t->phase, finished, P->out->nmach);
        pthread_mutex_unlock(&P->lock);
    }
    goto done;
failed: /* with P->lock held */
    if (P->st == KPCA_OK || m < P->fail_m) {
        P->st = st;
        P->fail_m = m;
        P->err = err;
    }
    pthread_mutex_unlock(&P->lock);
done:
    return NULL;
}

size_t kpca_svm_workers(const kpca_svm_params *p, size_t nmach)
{
    long want = p->threads > 0 ? p->threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (want < 1)
        want = 1;
    return (size_t)want < nmach ? (size_t)want : nmach > 0 ? nmach : 1;
}

kpca_status kpca_svm_train_rows(const double *x, size_t ld, size_t dim, const int *y, const double *g,
                                const float *gs, const size_t *goff, const size_t *gpos, const size_t *rows, size_t n, double factor,
                                const kpca_svm_params *p, kpca_svm_scratch *scratch, kpca_classifier *out,
                                kpca_error *err)
{
#define ROW(i) (rows != NULL ? rows[i] : (i))
    memset(out, 0, sizeof *out);
    kpca_status st = kpca_svm_check(p, err);
    if (st != KPCA_OK)
        return st;
    if (n < 2)
        return kpca_fail(err, KPCA_EFORMAT, "need at least 2 training points, got %zu", n);
    if (p->backend == KPCA_SVM_GRAM && ((g == NULL) == (gs == NULL) || goff == NULL))
        return kpca_fail(err, KPCA_EINTERNAL, "the gram backend needs a Gram matrix");

    /* classes in order of first appearance (LIBSVM's order) */
    int *labels = kpca_alloc_array(n, 1, sizeof(int));
    int *cls = kpca_alloc_array(n, 1, sizeof(int));
    size_t *nsv = NULL, *allidx = NULL, *allg = NULL;
    double *sec = NULL;
    struct svm_node *nodes = NULL;
    struct svm_node **shared = NULL;
    pthread_t *tid = NULL;
    kpca_svm_scratch *ws = scratch;
    kpca_liblinear_rows *lrows = NULL;
    if (labels == NULL || cls == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
        goto done;
    }
    size_t nclass = kpca_class_index(y, rows, n, labels, cls);
    if (nclass < 2) {
        st = kpca_fail(err, KPCA_EFORMAT, "the training labels hold a single class (%d): nothing to classify",
                       labels[0]);
        goto done;
    }
    size_t nmach = p->scheme == KPCA_MC_OVO ? nclass * (nclass - 1) / 2 : nclass;
    out->labels = kpca_alloc_array(nclass, 1, sizeof(int));
    out->pos = kpca_alloc_array(nmach, 1, sizeof(int));
    out->neg = kpca_alloc_array(nmach, 1, sizeof(int));
    out->w = kpca_alloc_array(nmach, dim, sizeof(double));
    out->b = kpca_alloc_array(nmach, 1, sizeof(double));
    nsv = kpca_alloc_array(nmach, 1, sizeof(size_t));
    sec = kpca_alloc_array(nmach, 1, sizeof(double));
    /* points of the largest binary problem */
    size_t maxns = 0;
    if (p->scheme == KPCA_MC_OVR) {
        maxns = n;
    } else {
        size_t *count = kpca_calloc(nclass, sizeof(size_t));
        if (count == NULL) {
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
            goto done;
        }
        for (size_t i = 0; i < n; i++)
            count[cls[i]]++;
        for (size_t a = 0; a < nclass; a++)
            for (size_t c = a + 1; c < nclass; c++)
                if (count[a] + count[c] > maxns)
                    maxns = count[a] + count[c];
        kpca_free(count);
    }
    if (out->labels == NULL || out->pos == NULL || out->neg == NULL || out->w == NULL || out->b == NULL ||
        nsv == NULL || sec == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu SVM machines", nmach);
        goto done;
    }
    memcpy(out->labels, labels, nclass * sizeof(int));
    out->nclass = nclass;
    out->nmach = nmach;
    out->dim = dim;
    size_t m = 0;
    for (size_t a = 0; a < nclass; a++) {
        if (p->scheme == KPCA_MC_OVR) {
            out->pos[m] = (int)a;
            out->neg[m++] = -1;
        } else {
            for (size_t c = a + 1; c < nclass; c++) {
                out->pos[m] = (int)a;
                out->neg[m++] = (int)c;
            }
        }
    }
    train_ctx t = {x, ld, dim, g, gs, goff, gpos, factor, p, ""};
    snprintf(t.phase, sizeof t.phase, "svm %zu", dim);
    if (p->scheme == KPCA_MC_OVR && p->backend != KPCA_SVM_LIBLINEAR) { /* every machine sees all n points: build them once */
        allidx = kpca_alloc_array(n, 1, sizeof(size_t));
        allg = kpca_alloc_array(n, 1, sizeof(size_t));
        nodes = kpca_alloc_array(n, node_stride(&t, n), sizeof(struct svm_node));
        shared = kpca_alloc_array(n, 1, sizeof *shared);
        if (allidx == NULL || allg == NULL || nodes == NULL || shared == NULL) {
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the SVM problems (%zu points)", n);
            goto done;
        }
        for (size_t i = 0; i < n; i++)
            allidx[i] = ROW(i);
        build_rows(&t, allidx, allg, n, nodes, shared);
    }
    if (p->backend == KPCA_SVM_LIBLINEAR) { /* every machine reads the same rows: build them once */
        lrows = kpca_liblinear_rows_new(x, ld, dim, rows, n, factor);
        if (lrows == NULL) {
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the LIBLINEAR rows (%zu points)", n);
            goto done;
        }
        kpca_liblinear_quiet();
    }
    svm_set_print_string_function(quiet_print); /* before any thread starts */
    pool P = {&t, rows, cls, n, nclass, maxns, out, nsv, sec, shared, lrows, NULL, 0, PTHREAD_MUTEX_INITIALIZER, 0, 0, nmach, KPCA_OK,
              {KPCA_OK, "", 0, 0}};
    size_t nth = kpca_svm_workers(p, nmach);
    tid = kpca_alloc_array(nth, 1, sizeof *tid);
    ws = scratch != NULL ? scratch : kpca_svm_scratch_new();
    P.ws = ws;
    if (tid == NULL || ws == NULL || scratch_slots(ws, nth) != 0) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
        goto done;
    }
    kpca_progress(t.phase, 0, nmach);
    size_t started = 0;
    for (size_t i = 1; i < nth; i++) {
        if (pthread_create(&tid[i - 1], NULL, train_worker, &P) != 0)
            break; /* fewer helpers: the work still gets done */
        started++;
    }
    train_worker(&P);
    for (size_t i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    pthread_mutex_destroy(&P.lock);
    if (P.st != KPCA_OK) {
        st = P.st;
        if (err != NULL)
            *err = P.err;
        goto done;
    }
    for (m = 0; m < nmach; m++) {
        out->nsv += nsv[m];
        out->sec_solver += sec[m];
    }
done:
    kpca_free(labels);
    kpca_free(cls);
    kpca_free(nsv);
    kpca_free(sec);
    kpca_free(allidx);
    kpca_free(allg);
    kpca_free(nodes);
    kpca_free(shared);
    kpca_free(tid);
    if (ws != scratch)
        kpca_svm_scratch_free(ws);
    kpca_liblinear_rows_free(lrows);
    if (st != KPCA_OK)
        kpca_classifier_free(out);
    return st;
#undef ROW
}

kpca_status kpca_svm_train(const double *x, size_t n, size_t ld, size_t dim, const int *y, const double *g,
                           double factor, const kpca_svm_params *p, kpca_classifier *out, kpca_error *err)
{
    size_t *goff = NULL;
    if (g != NULL) { /* full storage: row i starts at i n */
        goff = kpca_alloc_array(n, 1, sizeof(size_t));
        if (goff == NULL)
            return kpca_fail(err, KPCA_ENOMEM, "out of memory");
        for (size_t i = 0; i < n; i++)
            goff[i] = i * n;
    }
    kpca_status st = kpca_svm_train_rows(x, ld, dim, y, g, NULL, goff, NULL, NULL, n, factor, p, NULL, out, err);
    kpca_free(goff);
    return st;
}
