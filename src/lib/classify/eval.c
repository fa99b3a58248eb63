/* eval.c - test error over feature prefixes (see eval.h): the training Gram
 * matrix grown from one prefix to the next, C by cross-validation, and the
 * one dispatch between the classifiers of svmtrain.h and lda.h. */
#include "classify/eval.h"

#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "support/clock.h"
#include "io/dataset.h"
#include "support/blas.h"
#include "core/gram.h"
#include "support/mem.h"
#include "support/progress.h"
#include "support/rng.h"
#include "classify/lda.h"
#include "classify/svmtrain.h"

kpca_eval_params kpca_eval_defaults(void)
{
    kpca_eval_params p = {.classifier = KPCA_CLF_SVM, .scale = KPCA_SCALE_NORM, .costs = NULL, .ncost = 0,
                          .folds = 5, .svm = kpca_svm_defaults(), .precision = KPCA_PRECISION_DEFAULT};
    return p;
}

kpca_status kpca_eval_check(const kpca_eval_params *p, kpca_error *err)
{
    if ((unsigned)p->classifier > KPCA_CLF_LDA)
        return kpca_fail(err, KPCA_EUSAGE, "invalid classifier");
    if ((unsigned)p->scale > KPCA_SCALE_STD)
        return kpca_fail(err, KPCA_EUSAGE, "invalid scaling");
    if ((unsigned)p->precision > KPCA_PRECISION_SINGLE)
        return kpca_fail(err, KPCA_EUSAGE, "invalid precision");
    if (p->classifier != KPCA_CLF_SVM)
        return KPCA_OK;
    for (size_t i = 0; i < p->ncost; i++)
        if (!isfinite(p->costs[i]) || p->costs[i] <= 0.0)
            return kpca_fail(err, KPCA_EUSAGE, "C must be a finite number > 0, got %g", p->costs[i]);
    if (p->ncost >= 2 && p->folds < 2)
        return kpca_fail(err, KPCA_EUSAGE, "cross-validation needs at least 2 folds, got %d", p->folds);
    return kpca_svm_check(&p->svm, err);
}

void kpca_cv_folds(size_t n, int folds, uint64_t seed, size_t *perm, int *fold)
{
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    kpca_rng_shuffle(&seed, perm, n);
    for (size_t i = 0; i < n; i++)
        fold[perm[i]] = (int)(i % (size_t)folds);
}

/* The training features of one evaluation, as every training run reads
 * them: x (stride ld), labels y, and for the GRAM backend the Gram matrix g
 * or, in single precision, gs (entry (i, j), i <= j, at g[goff[i] + j]; row
 * r of x at gpos[r]); ws: the SVMs' buffers, kept across prefixes and
 * folds. */
typedef struct {
    const double *x;
    size_t ld;
    const int *y;
    const double *g;
    const float *gs;
    const size_t *goff, *gpos;
    kpca_svm_scratch *ws;
    int threads; /* the SVM workers: p->svm.threads, or fewer when the budget holds fewer */
} train_set;

/* Trains the classifier p->classifier says on the rows rows[0..n-1] (all
 * when NULL) of t, first k columns; C: the SVMs' cost.  The library's one
 * choice between LDA and the SVMs. */
static kpca_status train(const train_set *t, size_t k, const size_t *rows, size_t n, double factor,
                         const kpca_eval_params *p, double C, kpca_classifier *out, kpca_error *err)
{
    if (p->classifier == KPCA_CLF_LDA)
        return kpca_lda_train(t->x, t->ld, k, t->y, rows, n, out, err);
    kpca_svm_params sp = p->svm;
    sp.C = C;
    sp.threads = t->threads;
    return kpca_svm_train_rows(t->x, t->ld, k, t->y, t->g, t->gs, t->goff, t->gpos, rows, n, factor, &sp, t->ws, out,
                               err);
}

/* NORM scaling: the factor making the mean squared norm of the rows (their
 * first k columns) 1: from the Gram diagonal when there is one, else from x. */
static double norm_factor(const double *g, const size_t *goff, const size_t *gpos, const double *x, size_t ld, size_t k,
                          const size_t *rows, size_t n)
{
    double trace = 0.0;
    for (size_t i = 0; i < n; i++) {
        size_t r = rows != NULL ? rows[i] : i;
        size_t q = gpos != NULL ? gpos[r] : r;
        trace += g != NULL ? g[goff[q] + q] : cblas_ddot((int)k, x + r * ld, 1, x + r * ld, 1);
    }
    return trace > 0.0 ? (double)n / trace : 1.0;
}

/* Cross-validation error (count) of the SVMs with cost C on the first k
 * columns of the n training rows of t.  The validation rows are gathered
 * KPCA_PREDICT_BLOCK at a time, each gathering one block of
 * kpca_classifier_predict: the DGEMMs of predicting them all at once. */
static kpca_status cv_errors(const train_set *t, size_t n, size_t k, const int *fold, const kpca_eval_params *p,
                             double C, size_t *errors, kpca_error *err)
{
    const size_t dim = t->ld, B = KPCA_PREDICT_BLOCK;
    size_t *tr = kpca_alloc_array(n, 1, sizeof(size_t));
    size_t *va = kpca_alloc_array(n, 1, sizeof(size_t));
    double *xv = kpca_alloc_array(B, k, sizeof(double));
    int *pred = kpca_alloc_array(B, 1, sizeof(int));
    kpca_status st = KPCA_OK;
    if (tr == NULL || va == NULL || xv == NULL || pred == NULL) {
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for cross-validation");
        goto done;
    }
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
        double factor = p->scale == KPCA_SCALE_NORM ? norm_factor(t->g, t->goff, t->gpos, t->x, dim, k, tr, ntr) : 1.0;
        kpca_classifier cl;
        st = train(t, k, tr, ntr, factor, p, C, &cl, err);
        if (st != KPCA_OK)
            break;
        for (size_t v0 = 0; v0 < nva && st == KPCA_OK; v0 += B) {
            size_t nb = nva - v0 < B ? nva - v0 : B;
            for (size_t i = 0; i < nb; i++)
                memcpy(xv + i * k, t->x + va[v0 + i] * dim, k * sizeof(double));
            st = kpca_classifier_predict(&cl, xv, nb, k, pred, err);
            for (size_t i = 0; i < nb && st == KPCA_OK; i++)
                *errors += pred[i] != t->y[va[v0 + i]];
        }
        kpca_classifier_free(&cl);
    }
done:
    kpca_free(tr);
    kpca_free(va);
    kpca_free(xv);
    kpca_free(pred);
    return st;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* The number of distinct labels of y (n) and the two largest counts, by a
 * sorted table of the labels seen (O(classes) memory). */
static kpca_status class_counts(const int *y, size_t n, size_t *nclass, size_t *top1, size_t *top2, kpca_error *err)
{
    int *lab = NULL;
    size_t *cnt = NULL, cap = 0, m = 0;
    *nclass = *top1 = *top2 = 0;
    for (size_t i = 0; i < n; i++) {
        size_t lo = 0, hi = m; /* the first label >= y[i] */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (lab[mid] < y[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == m || lab[lo] != y[i]) {
            if (m == cap) {
                size_t c2 = cap, c3 = cap;
                int *l2 = kpca_grow(lab, &c2, m + 1, sizeof *lab, 16);
                if (l2 != NULL)
                    lab = l2;
                size_t *n2 = l2 != NULL ? kpca_grow(cnt, &c3, m + 1, sizeof *cnt, 16) : NULL;
                if (n2 == NULL) {
                    kpca_free(lab);
                    kpca_free(cnt);
                    return kpca_fail(err, KPCA_ENOMEM, "out of memory counting the classes");
                }
                cnt = n2;
                cap = c2;
            }
            memmove(lab + lo + 1, lab + lo, (m - lo) * sizeof *lab);
            memmove(cnt + lo + 1, cnt + lo, (m - lo) * sizeof *cnt);
            lab[lo] = y[i];
            cnt[lo] = 0;
            m++;
        }
        cnt[lo]++;
    }
    for (size_t j = 0; j < m; j++) {
        if (cnt[j] > *top1) {
            *top2 = *top1;
            *top1 = cnt[j];
        } else if (cnt[j] > *top2) {
            *top2 = cnt[j];
        }
    }
    *nclass = m;
    kpca_free(lab);
    kpca_free(cnt);
    return KPCA_OK;
}

kpca_status kpca_eval_memory_need(const kpca_eval_params *p, const int *y, size_t n, size_t t, size_t d,
                                  const size_t *prefixes, size_t np, int pred, kpca_eval_memory *m,
                                  kpca_error *err)
{
    memset(m, 0, sizeof *m);
    size_t kmax = 0;
    for (size_t i = 0; i < np; i++)
        kmax = prefixes[i] > kmax ? prefixes[i] : kmax;
    const double N = (double)n, T = (double)t, D = (double)d, K = (double)kmax;
    m->fixed = 48.0 * N;
    if (p->scale == KPCA_SCALE_STD)
        m->fixed += 8.0 * (N + T) * D;
    if (pred)
        m->fixed += 4.0 * (double)np * T;
    if (p->classifier == KPCA_CLF_LDA) {
        m->fixed += 8.0 * K * (2.0 * K + (double)kpca_lda_block_rows(n, kmax));
        snprintf(m->what, sizeof m->what, "LDA's covariance of %zu components and a block of its deviations", kmax);
        return KPCA_OK;
    }
    size_t nclass, top1, top2;
    kpca_status st = class_counts(y, n, &nclass, &top1, &top2, err);
    if (st != KPCA_OK)
        return st;
    const int ovr = p->svm.scheme == KPCA_MC_OVR;
    const size_t s = ovr || nclass < 2 ? n : top1 + top2;
    const double S = (double)s;
    m->largest = s;
    const double cache = fmin(p->svm.cache_mb * 1048576.0, 4.0 * S * S);
    switch (p->svm.backend) {
    case KPCA_SVM_GRAM:
        m->fixed += (p->precision == KPCA_PRECISION_SINGLE ? 4.0 : 8.0) * ((double)kpca_gram_striped_len(n) + N * D);
        if (ovr)
            m->fixed += 16.0 * N * (N + 2.0);
        else
            m->worker += 16.0 * S * (S + 2.0);
        m->worker += cache;
        snprintf(m->what, sizeof m->what, "the %zu x %zu training Gram matrix and LIBSVM's rows of it", n, n);
        break;
    case KPCA_SVM_SPARSE:
        if (ovr)
            m->fixed += 16.0 * N * (K + 1.0);
        else
            m->worker += 16.0 * S * (K + 1.0);
        m->worker += cache;
        snprintf(m->what, sizeof m->what, "LIBSVM's rows of %zu training points", n);
        break;
    default:
        m->fixed += 16.0 * N * (K + 2.0);
        snprintf(m->what, sizeof m->what, "LIBLINEAR's copy of %zu training points", n);
        break;
    }
    return KPCA_OK;
}

/* The SVM workers the budget holds besides the fixed part (at least 1),
 * against what p->svm.threads asks: the threads to train with. */
static int budget_threads(const kpca_eval_params *p, const kpca_eval_memory *m)
{
    const size_t b = kpca_mem_budget();
    if (b == 0 || m->worker <= 0.0)
        return p->svm.threads;
    double fit = floor(((double)b - m->fixed) / m->worker);
    size_t want = kpca_svm_workers(&p->svm, SIZE_MAX);
    return fit >= (double)want ? p->svm.threads : (int)(fit >= 1.0 ? fit : 1.0);
}

kpca_status kpca_eval(const double *xtrain, const int *ytrain, size_t ntrain, const double *xtest,
                      const int *ytest, size_t ntest, size_t dim, const size_t *prefixes, size_t np,
                      const kpca_eval_params *p, kpca_eval_row *rows, kpca_error *err)
{
    return kpca_eval_pred(xtrain, ytrain, ntrain, xtest, ytest, ntest, dim, prefixes, np, p, rows, NULL, err);
}

kpca_status kpca_eval_pred(const double *xtrain, const int *ytrain, size_t ntrain, const double *xtest,
                           const int *ytest, size_t ntest, size_t dim, const size_t *prefixes, size_t np,
                           const kpca_eval_params *p, kpca_eval_row *rows, int *pred_out, kpca_error *err)
{
    kpca_status st = kpca_eval_check(p, err);
    if (st != KPCA_OK)
        return st;
    for (size_t i = 0; i < np; i++)
        if (prefixes[i] == 0 || prefixes[i] > dim)
            return kpca_fail(err, KPCA_EUSAGE, "cannot use %zu components: the features have %zu", prefixes[i], dim);
    kpca_eval_memory need;
    if ((st = kpca_eval_memory_need(p, ytrain, ntrain, ntest, dim, prefixes, np, pred_out != NULL, &need, err)) !=
        KPCA_OK)
        return st;
    if (kpca_mem_budget() != 0 && need.fixed + need.worker > (double)kpca_mem_budget()) {
        char a[32], b[32], who[48];
        if (p->classifier == KPCA_CLF_LDA)
            snprintf(who, sizeof who, "lda");
        else
            snprintf(who, sizeof who, "the %s backend", kpca_backend_name(p->svm.backend));
        return kpca_fail(err, KPCA_ENOMEM, "eval with %s needs about %s (%s), more than the memory budget of %s", who,
                         kpca_mem_human(need.fixed + need.worker, a, sizeof a), need.what,
                         kpca_mem_human((double)kpca_mem_budget(), b, sizeof b));
    }
    const int threads = budget_threads(p, &need);
    size_t *order = kpca_alloc_array(np, 1, sizeof(size_t));
    double *xtr = NULL, *xte = NULL, *g = NULL, *xg = NULL;
    float *gs = NULL, *xgs = NULL; /* single precision: G and the features it is grown from */
    size_t *gpos = NULL, *goff = NULL;
    int *fold = NULL;
    kpca_svm_scratch *ws = kpca_svm_scratch_new(); /* the SVMs' buffers, kept across prefixes and folds */
    int *pred = kpca_alloc_array(ntest ? ntest : 1, 1, sizeof(int));
    if (order == NULL || pred == NULL || ws == NULL) {
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
    const int svm = p->classifier == KPCA_CLF_SVM;
    const int need_gram = svm && p->svm.backend == KPCA_SVM_GRAM;
    const int single = p->precision == KPCA_PRECISION_SINGLE;
    if (svm && p->ncost >= 2) { /* fold of each training point */
        size_t *perm = kpca_alloc_array(ntrain, 1, sizeof(size_t));
        fold = kpca_alloc_array(ntrain, 1, sizeof(int));
        if (perm == NULL || fold == NULL) {
            kpca_free(perm);
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
            goto done;
        }
        kpca_cv_folds(ntrain, p->folds, KPCA_CV_SEED, perm, fold);
        kpca_free(perm);
    }
    if (need_gram) {
        /* G holds the training rows grouped by label (a stable counting
         * sort): gpos[r] is row r's place, xg the features in that order. */
        const size_t glen = kpca_gram_striped_len(ntrain); /* upper triangle, striped */
        if (single) {
            gs = kpca_alloc_array(glen, 1, sizeof(float));
            xgs = kpca_alloc_array(ntrain, dim, sizeof(float));
        } else {
            g = kpca_alloc_array(glen, 1, sizeof(double));
            xg = kpca_alloc_array(ntrain, dim, sizeof(double));
        }
        goff = kpca_alloc_array(ntrain, 1, sizeof(size_t));
        gpos = kpca_alloc_array(ntrain, 1, sizeof(size_t));
        if ((single ? gs == NULL || xgs == NULL : g == NULL || xg == NULL) || goff == NULL || gpos == NULL) {
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the %zu x %zu training Gram matrix", ntrain, ntrain);
            goto done;
        }
        kpca_gram_striped_offsets(ntrain, goff);
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
            if (single)
                for (size_t c = 0; c < dim; c++)
                    xgs[gpos[i] * dim + c] = (float)tr[i * dim + c];
            else
                memcpy(xg + gpos[i] * dim, tr + i * dim, dim * sizeof(double));
    }
    size_t done_k = 0;
    for (size_t q = 0; q < np; q++) {
        size_t k = order[q];
        if (q > 0 && k == order[q - 1])
            continue; /* duplicate prefix: its rows were filled already */
        double tg = kpca_now();
        if (need_gram && k > done_k) { /* grow G by the columns done_k..k-1 */
            kpca_progress("gram", done_k, order[np - 1]); /* order ascends: the last is the widest */
            /* upper triangle only: the SVMs' rows read nothing else (svmtrain.h) */
            if (single)
                kpca_gram_striped_single(ntrain, k - done_k, xgs + done_k, dim, done_k > 0 ? 1.0f : 0.0f, gs);
            else /* G starts unset */
                kpca_gram_striped(ntrain, k - done_k, xg + done_k, dim, done_k > 0 ? 1.0 : 0.0, g);
            kpca_progress("gram", k, order[np - 1]);
            kpca_blas_park(); /* the SVM workers come next */
        }
        done_k = k > done_k ? k : done_k;
        double sec_gram = kpca_now() - tg;
        double factor = p->scale == KPCA_SCALE_NORM ? norm_factor(g, goff, gpos, tr, dim, k, NULL, ntrain) : 1.0;
        double t0 = kpca_now();
        train_set ts = {tr, dim, ytrain, g, gs, goff, gpos, ws, threads};
        double C = p->ncost >= 1 ? p->costs[0] : p->svm.C;
        double cv_pct = -1.0;
        if (svm && p->ncost >= 2) {
            size_t best = SIZE_MAX;
            for (size_t c = 0; c < p->ncost; c++) {
                size_t e = 0;
                st = cv_errors(&ts, ntrain, k, fold, p, p->costs[c], &e, err);
                if (st != KPCA_OK)
                    goto done;
                if (e < best || (e == best && p->costs[c] < C)) {
                    best = e;
                    C = p->costs[c];
                }
            }
            cv_pct = 100.0 * (double)best / (double)ntrain;
        }
        kpca_classifier cl;
        st = train(&ts, k, NULL, ntrain, factor, p, C, &cl, err);
        if (st != KPCA_OK)
            goto done;
        double t1 = kpca_now();
        st = kpca_classifier_predict(&cl, te, ntest, dim, pred, err);
        double t2 = kpca_now();
        size_t nsv = cl.nsv;
        double sec_solver = cl.sec_solver;
        double ridge = cl.ridge;
        kpca_classifier_free(&cl);
        if (st != KPCA_OK)
            goto done;
        size_t errors = 0;
        for (size_t i = 0; ytest != NULL && i < ntest; i++)
            errors += pred[i] != ytest[i];
        for (size_t i = 0; i < np; i++) {
            if (prefixes[i] != k)
                continue;
            rows[i].components = k;
            rows[i].errors = errors;
            rows[i].total = ntest;
            rows[i].error_pct = ntest ? 100.0 * (double)errors / (double)ntest : 0.0;
            rows[i].nsv = nsv;
            rows[i].C = C;
            rows[i].cv_error_pct = cv_pct;
            rows[i].ridge = ridge;
            rows[i].sec_train = t1 - t0;
            rows[i].sec_predict = t2 - t1;
            rows[i].sec_gram = sec_gram;
            rows[i].sec_solver = sec_solver;
            if (pred_out != NULL && ntest > 0)
                memcpy(pred_out + i * ntest, pred, ntest * sizeof(int));
        }
    }
done:
    kpca_svm_scratch_free(ws);
    kpca_free(fold);
    kpca_free(order);
    kpca_free(pred);
    kpca_free(xtr);
    kpca_free(xte);
    kpca_free(g);
    kpca_free(goff);
    kpca_free(gpos);
    kpca_free(xg);
    kpca_free(gs);
    kpca_free(xgs);
    return st;
}
