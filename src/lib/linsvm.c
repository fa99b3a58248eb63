#include "linsvm.h"

#include <cblas.h>
#include <libsvm/svm.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "dataset.h"
#include "mem.h"
#include "progress.h"

kpca_svm_params kpca_svm_defaults(void)
{
    kpca_svm_params p;
    p.C = 1.0;
    p.costs = NULL;
    p.ncost = 0;
    p.folds = 5;
    p.scheme = KPCA_MC_OVO;
    p.backend = KPCA_SVM_GRAM;
    p.scale = KPCA_SCALE_NORM;
    p.classifier = KPCA_CLF_SVM;
    p.eps = 1e-3;
    p.cache_mb = 200.0;
    p.threads = 0;
    return p;
}

kpca_status kpca_svm_check(const kpca_svm_params *p, kpca_error *err)
{
    if (!isfinite(p->C) || p->C <= 0.0)
        return kpca_fail(err, KPCA_EUSAGE, "C must be a finite number > 0, got %g", p->C);
    if (!isfinite(p->eps) || p->eps <= 0.0)
        return kpca_fail(err, KPCA_EUSAGE, "the SVM tolerance must be > 0, got %g", p->eps);
    if (!isfinite(p->cache_mb) || p->cache_mb <= 0.0)
        return kpca_fail(err, KPCA_EUSAGE, "the SVM cache size must be > 0, got %g", p->cache_mb);
    for (size_t i = 0; i < p->ncost; i++)
        if (!isfinite(p->costs[i]) || p->costs[i] <= 0.0)
            return kpca_fail(err, KPCA_EUSAGE, "C must be a finite number > 0, got %g", p->costs[i]);
    if (p->ncost >= 2 && p->folds < 2)
        return kpca_fail(err, KPCA_EUSAGE, "cross-validation needs at least 2 folds, got %d", p->folds);
    if (p->threads < 0)
        return kpca_fail(err, KPCA_EUSAGE, "the thread count must be >= 0, got %d", p->threads);
    if ((unsigned)p->classifier > KPCA_CLF_LDA)
        return kpca_fail(err, KPCA_EUSAGE, "invalid classifier");
    if ((unsigned)p->scheme > KPCA_MC_OVR || (unsigned)p->backend > KPCA_SVM_SPARSE ||
        (unsigned)p->scale > KPCA_SCALE_STD)
        return kpca_fail(err, KPCA_EUSAGE, "invalid SVM parameters");
    return KPCA_OK;
}

static int parse_name(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

static const char *const mc_names[] = {"ovo", "ovr"};
static const char *const scale_names[] = {"none", "norm", "std"};
static const char *const backend_names[] = {"gram", "sparse"};
static const char *const clf_names[] = {"svm", "lda"};

const char *kpca_classifier_name(kpca_classifier_kind k) { return (unsigned)k < 2 ? clf_names[k] : "?"; }

int kpca_classifier_parse(const char *s, kpca_classifier_kind *out)
{
    int i = parse_name(s, clf_names, 2);
    if (i < 0)
        return -1;
    *out = (kpca_classifier_kind)i;
    return 0;
}

const char *kpca_multiclass_name(kpca_multiclass m) { return (unsigned)m < 2 ? mc_names[m] : "?"; }
const char *kpca_scale_name(kpca_scale s) { return (unsigned)s < 3 ? scale_names[s] : "?"; }
const char *kpca_backend_name(kpca_svm_backend b) { return (unsigned)b < 2 ? backend_names[b] : "?"; }

int kpca_multiclass_parse(const char *s, kpca_multiclass *out)
{
    int i = parse_name(s, mc_names, 2);
    if (i < 0)
        return -1;
    *out = (kpca_multiclass)i;
    return 0;
}

int kpca_scale_parse(const char *s, kpca_scale *out)
{
    int i = parse_name(s, scale_names, 3);
    if (i < 0)
        return -1;
    *out = (kpca_scale)i;
    return 0;
}

int kpca_backend_parse(const char *s, kpca_svm_backend *out)
{
    int i = parse_name(s, backend_names, 2);
    if (i < 0)
        return -1;
    *out = (kpca_svm_backend)i;
    return 0;
}

void kpca_classifier_free(kpca_classifier *c)
{
    if (c == NULL)
        return;
    kpca_free(c->labels);
    kpca_free(c->pos);
    kpca_free(c->neg);
    kpca_free(c->w);
    kpca_free(c->b);
    memset(c, 0, sizeof *c);
}

static void quiet_print(const char *s)
{
    (void)s;
}

/* What every binary problem of one training run shares (read-only). */
typedef struct {
    const double *x;
    size_t ld, dim;
    const double *g;    /* n x n Gram (both triangles), GRAM backend */
    size_t n;
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

/* Fills rows[0..ns-1] (pointing into nodes) with LIBSVM's view of the
 * points idx[0..ns-1]: a row of the scaled Gram matrix (PRECOMPUTED, serial
 * number first) or the scaled feature vector (LINEAR).  gidx: scratch for
 * the points' positions in G.  kpca_eval stores G with the training rows
 * grouped by class, so that the points of a binary problem read a few
 * contiguous stretches of each row of G. */
static void build_rows(const train_ctx *t, const size_t *idx, size_t *gidx, size_t ns, struct svm_node *nodes,
                       struct svm_node **rows)
{
    const int gram = t->p->backend == KPCA_SVM_GRAM;
    if (gram)
        for (size_t r = 0; r < ns; r++)
            gidx[r] = t->gpos != NULL ? t->gpos[idx[r]] : idx[r];
    const size_t stride = node_stride(t, ns);
    double sfac = sqrt(t->factor);
    for (size_t r = 0; r < ns; r++) {
        struct svm_node *row = nodes + r * stride;
        rows[r] = row;
        if (gram) {
            const double *gr = t->g + gidx[r] * t->n;
            row[0].index = 0;
            row[0].value = (double)(r + 1);
            for (size_t c = 0; c < ns; c++) {
                row[c + 1].index = (int)(c + 1);
                row[c + 1].value = t->factor * gr[gidx[c]];
            }
            row[ns + 1].index = -1;
        } else {
            const double *xr = t->x + idx[r] * t->ld;
            for (size_t c = 0; c < t->dim; c++) {
                row[c].index = (int)(c + 1);
                row[c].value = sfac * xr[c];
            }
            row[t->dim].index = -1;
        }
    }
}

/* Trains one binary machine on the built rows of the points idx[0..ns-1],
 * sign[r] = +-1; writes w (dim) and *b so that w.x + b > 0 means the +1
 * side, and the number of support vectors to *nsv.  Safe to run in several
 * threads at once: LIBSVM keeps no state between calls but its print hook,
 * which the caller sets beforehand; no BLAS call here. */
static kpca_status train_binary(const train_ctx *t, const size_t *idx, double *sign, size_t ns,
                                struct svm_node **rows, double *w, double *b, size_t *nsv, kpca_error *err)
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
    struct svm_model *model = svm_train(&prob, &par);
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
    struct svm_node **shared;     /* OVR: the rows every machine uses */
    pthread_mutex_t lock;
    size_t finished; /* machines trained, for kpca_progress */
    size_t next;
    size_t fail_m; /* lowest failed machine, nmach if none */
    kpca_status st;
    kpca_error err;
} pool;

static void *train_worker(void *arg)
{
    pool *P = arg;
    const train_ctx *t = P->t;
    const size_t n = P->n, dim = t->dim;
    const int ovr = t->p->scheme == KPCA_MC_OVR;
    kpca_error err;
    kpca_error_clear(&err);
    kpca_status st = KPCA_OK;
    size_t *idx = kpca_alloc_array(P->maxns, 1, sizeof(size_t));
    size_t *gidx = ovr ? NULL : kpca_alloc_array(P->maxns, 1, sizeof(size_t));
    double *sign = kpca_alloc_array(P->maxns, 1, sizeof(double));
    struct svm_node *nodes = NULL;
    struct svm_node **rows = P->shared;
    if (!ovr) {
        nodes = kpca_alloc_array(P->maxns, node_stride(t, P->maxns), sizeof(struct svm_node));
        rows = kpca_alloc_array(P->maxns, 1, sizeof *rows);
    }
    size_t m = 0;
    if (idx == NULL || sign == NULL || rows == NULL || (!ovr && (nodes == NULL || gidx == NULL))) {
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
        if (ovr) {
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
        st = train_binary(t, idx, sign, ns, rows, P->out->w + m * dim, P->out->b + m, &P->nsv[m], &err);
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
    kpca_free(idx);
    kpca_free(gidx);
    kpca_free(sign);
    if (!ovr) {
        kpca_free(nodes);
        kpca_free(rows);
    }
    return NULL;
}

/* Worker threads for nmach machines: p->threads, or the online CPUs when 0. */
static size_t thread_count(const kpca_svm_params *p, size_t nmach)
{
    long want = p->threads > 0 ? p->threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (want < 1)
        want = 1;
    return (size_t)want < nmach ? (size_t)want : nmach;
}

/* Trains on the rows rows[0..n-1] of x, y and g (all rows when rows is
 * NULL); g has leading dimension ldg. */
static kpca_status train_rows(const double *x, size_t ld, size_t dim, const int *y, const double *g, size_t ldg,
                              const size_t *gpos, const size_t *rows, size_t n, double factor,
                              const kpca_svm_params *p, kpca_classifier *out, kpca_error *err)
{
#define ROW(i) (rows != NULL ? rows[i] : (i))
    if (p->classifier == KPCA_CLF_LDA)
        return kpca_lda_train(x, ld, dim, y, rows, n, out, err);
    memset(out, 0, sizeof *out);
    kpca_status st = kpca_svm_check(p, err);
    if (st != KPCA_OK)
        return st;
    if (n < 2)
        return kpca_fail(err, KPCA_EFORMAT, "need at least 2 training points, got %zu", n);
    if (p->backend == KPCA_SVM_GRAM && g == NULL)
        return kpca_fail(err, KPCA_EINTERNAL, "the gram backend needs a Gram matrix");

    /* classes in order of first appearance (LIBSVM's order) */
    int *labels = kpca_alloc_array(n, 1, sizeof(int));
    int *cls = kpca_alloc_array(n, 1, sizeof(int));
    size_t *nsv = NULL, *allidx = NULL, *allg = NULL;
    struct svm_node *nodes = NULL;
    struct svm_node **shared = NULL;
    pthread_t *tid = NULL;
    if (labels == NULL || cls == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
        goto done;
    }
    size_t nclass = 0;
    for (size_t i = 0; i < n; i++) {
        size_t c = 0;
        while (c < nclass && labels[c] != y[ROW(i)])
            c++;
        if (c == nclass)
            labels[nclass++] = y[ROW(i)];
        cls[i] = (int)c;
    }
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
        nsv == NULL) {
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
    train_ctx t = {x, ld, dim, g, ldg, gpos, factor, p, ""};
    snprintf(t.phase, sizeof t.phase, "%s %zu", p->classifier == KPCA_CLF_LDA ? "lda" : "svm", dim);
    if (p->scheme == KPCA_MC_OVR) { /* every machine sees all n points: build them once */
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
    svm_set_print_string_function(quiet_print); /* before any thread starts */
    pool P = {&t, rows, cls, n, nclass, maxns, out, nsv, shared, PTHREAD_MUTEX_INITIALIZER, 0, 0, nmach, KPCA_OK,
              {KPCA_OK, ""}};
    size_t nth = thread_count(p, nmach);
    tid = kpca_alloc_array(nth, 1, sizeof *tid);
    if (tid == NULL) {
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
    for (m = 0; m < nmach; m++)
        out->nsv += nsv[m];
done:
    kpca_free(labels);
    kpca_free(cls);
    kpca_free(nsv);
    kpca_free(allidx);
    kpca_free(allg);
    kpca_free(nodes);
    kpca_free(shared);
    kpca_free(tid);
    if (st != KPCA_OK)
        kpca_classifier_free(out);
    return st;
#undef ROW
}

kpca_status kpca_classifier_train(const double *x, size_t n, size_t ld, size_t dim, const int *y,
                                  const double *g, double factor, const kpca_svm_params *p,
                                  kpca_classifier *out, kpca_error *err)
{
    return train_rows(x, ld, dim, y, g, n, NULL, NULL, n, factor, p, out, err);
}

kpca_status kpca_classifier_predict(const kpca_classifier *c, const double *x, size_t n, size_t ld, int *pred,
                                    kpca_error *err)
{
    if (n == 0)
        return KPCA_OK;
    const size_t B = 1024;
    size_t rows = n < B ? n : B;
    double *dec = kpca_alloc_array(rows, c->nmach, sizeof(double));
    int *votes = kpca_alloc_array(c->nclass, 1, sizeof(int));
    if (dec == NULL || votes == NULL) {
        kpca_free(dec);
        kpca_free(votes);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory");
    }
    for (size_t r0 = 0; r0 < n; r0 += B) {
        size_t nb = n - r0 < B ? n - r0 : B;
        for (size_t i = 0; i < nb; i++)
            memcpy(dec + i * c->nmach, c->b, c->nmach * sizeof(double));
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)nb, (int)c->nmach, (int)c->dim, 1.0,
                    x + r0 * ld, (int)ld, c->w, (int)c->dim, 1.0, dec, (int)c->nmach);
        for (size_t i = 0; i < nb; i++) {
            const double *d = dec + i * c->nmach;
            size_t best = 0;
            if (c->neg[0] < 0) { /* one-vs-rest: largest decision value */
                for (size_t j = 1; j < c->nmach; j++)
                    if (d[j] > d[best])
                        best = j;
                pred[r0 + i] = c->labels[c->pos[best]];
            } else { /* one-vs-one: votes, ties to the first class */
                memset(votes, 0, c->nclass * sizeof(int));
                for (size_t j = 0; j < c->nmach; j++)
                    votes[d[j] > 0.0 ? c->pos[j] : c->neg[j]]++;
                for (size_t k = 1; k < c->nclass; k++)
                    if (votes[k] > votes[best])
                        best = k;
                pred[r0 + i] = c->labels[best];
            }
        }
    }
    kpca_free(dec);
    kpca_free(votes);
    return KPCA_OK;
}

/* NORM scaling: the factor making the mean squared norm of the rows (their
 * first k columns) 1: from the Gram diagonal when there is one, else from x. */
static double norm_factor(const double *g, size_t ldg, const size_t *gpos, const double *x, size_t ld, size_t k,
                          const size_t *rows, size_t n)
{
    double trace = 0.0;
    for (size_t i = 0; i < n; i++) {
        size_t r = rows != NULL ? rows[i] : i;
        size_t q = gpos != NULL ? gpos[r] : r;
        trace += g != NULL ? g[q * ldg + q] : cblas_ddot((int)k, x + r * ld, 1, x + r * ld, 1);
    }
    return trace > 0.0 ? (double)n / trace : 1.0;
}

/* Cross-validation error (count) of C on the first k columns. */
static kpca_status cv_errors(const double *x, size_t n, size_t dim, size_t k, const int *y, const double *g,
                             const size_t *gpos, const int *fold, const kpca_svm_params *p, double C, size_t *errors, kpca_error *err)
{
    size_t *tr = kpca_alloc_array(n, 1, sizeof(size_t));
    size_t *va = kpca_alloc_array(n, 1, sizeof(size_t));
    double *xv = kpca_alloc_array(n, k, sizeof(double));
    int *pred = kpca_alloc_array(n, 1, sizeof(int));
    kpca_status st = KPCA_OK;
    if (tr == NULL || va == NULL || xv == NULL || pred == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for cross-validation");
        goto done;
    }
    kpca_svm_params q = *p;
    q.C = C;
    q.ncost = 0;
    *errors = 0;
    for (int f = 0; f < p->folds && st == KPCA_OK; f++) {
        size_t ntr = 0, nva = 0;
        for (size_t i = 0; i < n; i++) {
            if (fold[i] == f)
                va[nva++] = i;
            else
                tr[ntr++] = i;
        }
        if (nva == 0)
            continue;
        double factor = p->scale == KPCA_SCALE_NORM ? norm_factor(g, n, gpos, x, dim, k, tr, ntr) : 1.0;
        kpca_classifier cl;
        st = train_rows(x, dim, k, y, g, n, gpos, tr, ntr, factor, &q, &cl, err);
        if (st != KPCA_OK)
            break;
        for (size_t i = 0; i < nva; i++)
            memcpy(xv + i * k, x + va[i] * dim, k * sizeof(double));
        st = kpca_classifier_predict(&cl, xv, nva, k, pred, err);
        kpca_classifier_free(&cl);
        for (size_t i = 0; i < nva && st == KPCA_OK; i++)
            *errors += pred[i] != y[va[i]];
    }
done:
    kpca_free(tr);
    kpca_free(va);
    kpca_free(xv);
    kpca_free(pred);
    return st;
}

/* Copies the upper triangle of the n x n row-major g onto the lower one, in
 * square tiles so that both the reads and the writes stay in cache. */
static void mirror_upper(double *g, size_t n)
{
    enum { T = 64 };
    for (size_t i0 = 0; i0 < n; i0 += T)
        for (size_t j0 = 0; j0 <= i0; j0 += T) /* tile rows i0.., columns j0.. of the lower part */
            for (size_t i = i0; i < i0 + T && i < n; i++)
                for (size_t j = j0; j < j0 + T && j < i; j++)
                    g[i * n + j] = g[j * n + i];
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

kpca_status kpca_eval(const double *xtrain, const int *ytrain, size_t ntrain, const double *xtest,
                      const int *ytest, size_t ntest, size_t dim, const size_t *prefixes, size_t np,
                      const kpca_svm_params *p, kpca_eval_row *rows, kpca_error *err)
{
    kpca_status st = kpca_svm_check(p, err);
    if (st != KPCA_OK)
        return st;
    for (size_t i = 0; i < np; i++)
        if (prefixes[i] == 0 || prefixes[i] > dim)
            return kpca_fail(err, KPCA_EUSAGE, "cannot use %zu components: the features have %zu", prefixes[i], dim);
    size_t *order = kpca_alloc_array(np, 1, sizeof(size_t));
    double *xtr = NULL, *xte = NULL, *g = NULL, *xg = NULL;
    size_t *gpos = NULL;
    int *fold = NULL;
    int *pred = kpca_alloc_array(ntest ? ntest : 1, 1, sizeof(int));
    if (order == NULL || pred == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
        goto done;
    }
    memcpy(order, prefixes, np * sizeof(size_t));
    qsort(order, np, sizeof(size_t), cmp_size);
    const double *tr = xtrain, *te = xtest;
    if (p->scale == KPCA_SCALE_STD) { /* scale copies by the training std */
        xtr = kpca_alloc_array(ntrain, dim, sizeof(double));
        xte = kpca_alloc_array(ntest ? ntest : 1, dim, sizeof(double));
        if (xtr == NULL || xte == NULL) {
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory for scaled features");
            goto done;
        }
        for (size_t c = 0; c < dim; c++) {
            double mean = 0.0, var = 0.0;
            for (size_t i = 0; i < ntrain; i++)
                mean += xtrain[i * dim + c];
            mean /= (double)ntrain;
            for (size_t i = 0; i < ntrain; i++) {
                double d = xtrain[i * dim + c] - mean;
                var += d * d;
            }
            double sd = sqrt(var / (double)ntrain);
            double f = sd > 0.0 ? 1.0 / sd : 1.0;
            for (size_t i = 0; i < ntrain; i++)
                xtr[i * dim + c] = f * xtrain[i * dim + c];
            for (size_t i = 0; i < ntest; i++)
                xte[i * dim + c] = f * xtest[i * dim + c];
        }
        tr = xtr;
        te = xte;
    }
    int need_gram = p->classifier == KPCA_CLF_SVM && p->backend == KPCA_SVM_GRAM;
    if (p->ncost >= 2) { /* fold of each training point: a seeded shuffle, dealt round */
        size_t *perm = kpca_alloc_array(ntrain, 1, sizeof(size_t));
        fold = kpca_alloc_array(ntrain, 1, sizeof(int));
        if (perm == NULL || fold == NULL) {
            kpca_free(perm);
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
            goto done;
        }
        uint64_t seed = 0x6b706361ULL; /* "kpca" */
        for (size_t i = 0; i < ntrain; i++)
            perm[i] = i;
        for (size_t i = ntrain; i > 1; i--) {
            size_t j = (size_t)(kpca_splitmix64(&seed) % i);
            size_t t = perm[i - 1];
            perm[i - 1] = perm[j];
            perm[j] = t;
        }
        for (size_t i = 0; i < ntrain; i++)
            fold[perm[i]] = (int)(i % (size_t)p->folds);
        kpca_free(perm);
    }
    if (need_gram) {
        char what[80];
        snprintf(what, sizeof what, "the %zu x %zu training Gram matrix", ntrain, ntrain);
        st = kpca_mem_check(8.0 * (double)ntrain * ((double)ntrain + (double)dim), what, err);
        if (st != KPCA_OK)
            goto done;
        /* G holds the training rows grouped by label (a stable counting
         * sort): gpos[r] is row r's place, xg the features in that order. */
        g = kpca_alloc_array(ntrain, ntrain, sizeof(double));
        gpos = kpca_alloc_array(ntrain, 1, sizeof(size_t));
        xg = kpca_alloc_array(ntrain, dim, sizeof(double));
        if (g == NULL || gpos == NULL || xg == NULL) {
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the %zu x %zu training Gram matrix", ntrain, ntrain);
            goto done;
        }
        memset(g, 0, ntrain * ntrain * sizeof(double));
        size_t placed = 0;
        for (size_t i = 0; i < ntrain; i++)
            gpos[i] = SIZE_MAX;
        for (size_t i = 0; i < ntrain; i++) {
            if (gpos[i] != SIZE_MAX)
                continue;
            for (size_t j = i; j < ntrain; j++) /* every row with i's label, in order */
                if (gpos[j] == SIZE_MAX && ytrain[j] == ytrain[i])
                    gpos[j] = placed++;
        }
        for (size_t i = 0; i < ntrain; i++)
            memcpy(xg + gpos[i] * dim, tr + i * dim, dim * sizeof(double));
    }
    size_t done_k = 0;
    for (size_t q = 0; q < np; q++) {
        size_t k = order[q];
        if (q > 0 && k == order[q - 1])
            continue; /* duplicate prefix: its rows were filled already */
        if (need_gram && k > done_k) { /* grow G by the columns done_k..k-1 */
            kpca_progress("gram", done_k, order[np - 1]); /* order ascends: the last is the widest */
            cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, (int)ntrain, (int)(k - done_k), 1.0, xg + done_k,
                        (int)dim, 1.0, g, (int)ntrain);
            mirror_upper(g, ntrain);
            kpca_progress("gram", k, order[np - 1]);
        }
        done_k = k > done_k ? k : done_k;
        double factor = p->scale == KPCA_SCALE_NORM ? norm_factor(g, ntrain, gpos, tr, dim, k, NULL, ntrain) : 1.0;
        double t0 = kpca_now();
        kpca_svm_params pc = *p;
        double cv_pct = -1.0;
        if (p->ncost >= 2 && p->classifier == KPCA_CLF_SVM) {
            size_t best = SIZE_MAX;
            for (size_t c = 0; c < p->ncost; c++) {
                size_t e = 0;
                st = cv_errors(tr, ntrain, dim, k, ytrain, g, gpos, fold, p, p->costs[c], &e, err);
                if (st != KPCA_OK)
                    goto done;
                if (e < best || (e == best && p->costs[c] < pc.C)) {
                    best = e;
                    pc.C = p->costs[c];
                }
            }
            cv_pct = 100.0 * (double)best / (double)ntrain;
        } else if (p->ncost == 1) {
            pc.C = p->costs[0];
        }
        pc.ncost = 0;
        kpca_classifier cl;
        st = train_rows(tr, dim, k, ytrain, g, ntrain, gpos, NULL, ntrain, factor, &pc, &cl, err);
        if (st != KPCA_OK)
            goto done;
        double t1 = kpca_now();
        st = kpca_classifier_predict(&cl, te, ntest, dim, pred, err);
        double t2 = kpca_now();
        size_t nsv = cl.nsv;
        double ridge = cl.ridge;
        kpca_classifier_free(&cl);
        if (st != KPCA_OK)
            goto done;
        size_t errors = 0;
        for (size_t i = 0; i < ntest; i++)
            errors += pred[i] != ytest[i];
        for (size_t i = 0; i < np; i++) {
            if (prefixes[i] != k)
                continue;
            rows[i].components = k;
            rows[i].errors = errors;
            rows[i].total = ntest;
            rows[i].error_pct = ntest ? 100.0 * (double)errors / (double)ntest : 0.0;
            rows[i].nsv = nsv;
            rows[i].C = pc.C;
            rows[i].cv_error_pct = cv_pct;
            rows[i].ridge = ridge;
            rows[i].sec_train = t1 - t0;
            rows[i].sec_predict = t2 - t1;
        }
    }
done:
    kpca_free(fold);
    kpca_free(order);
    kpca_free(pred);
    kpca_free(xtr);
    kpca_free(xte);
    kpca_free(g);
    kpca_free(gpos);
    kpca_free(xg);
    return st;
}
