/* eval.c - test error over feature prefixes (see eval.h): the training Gram
 * matrix grown from one prefix to the next, C by cross-validation, the
 * classifiers of svmtrain.h and lda.h. */
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
#include "classify/svmtrain.h"

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

/* Cross-validation error (count) of C on the first k columns. */
static kpca_status cv_errors(const double *x, size_t n, size_t dim, size_t k, const int *y, const double *g,
                             const size_t *goff, const size_t *gpos, const int *fold, const kpca_svm_params *p, double C,
                             kpca_svm_scratch *ws, size_t *errors, kpca_error *err)
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
        double factor = p->scale == KPCA_SCALE_NORM ? norm_factor(g, goff, gpos, x, dim, k, tr, ntr) : 1.0;
        kpca_classifier cl;
        st = kpca_classifier_train_rows(x, dim, k, y, g, goff, gpos, tr, ntr, factor, &q, ws, &cl, err);
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

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

kpca_status kpca_eval(const double *xtrain, const int *ytrain, size_t ntrain, const double *xtest,
                      const int *ytest, size_t ntest, size_t dim, const size_t *prefixes, size_t np,
                      const kpca_svm_params *p, kpca_eval_row *rows, kpca_error *err)
{
    return kpca_eval_pred(xtrain, ytrain, ntrain, xtest, ytest, ntest, dim, prefixes, np, p, rows, NULL, err);
}

kpca_status kpca_eval_pred(const double *xtrain, const int *ytrain, size_t ntrain, const double *xtest,
                           const int *ytest, size_t ntest, size_t dim, const size_t *prefixes, size_t np,
                           const kpca_svm_params *p, kpca_eval_row *rows, int *pred_out, kpca_error *err)
{
    kpca_status st = kpca_svm_check(p, err);
    if (st != KPCA_OK)
        return st;
    for (size_t i = 0; i < np; i++)
        if (prefixes[i] == 0 || prefixes[i] > dim)
            return kpca_fail(err, KPCA_EUSAGE, "cannot use %zu components: the features have %zu", prefixes[i], dim);
    size_t *order = kpca_alloc_array(np, 1, sizeof(size_t));
    double *xtr = NULL, *xte = NULL, *g = NULL, *xg = NULL;
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
        st = kpca_mem_check(8.0 * ((double)kpca_gram_striped_len(ntrain) + (double)ntrain * (double)dim), what, err);
        if (st != KPCA_OK)
            goto done;
        /* G holds the training rows grouped by label (a stable counting
         * sort): gpos[r] is row r's place, xg the features in that order. */
        g = kpca_alloc_array(kpca_gram_striped_len(ntrain), 1, sizeof(double)); /* upper triangle, striped */
        goff = kpca_alloc_array(ntrain, 1, sizeof(size_t));
        gpos = kpca_alloc_array(ntrain, 1, sizeof(size_t));
        xg = kpca_alloc_array(ntrain, dim, sizeof(double));
        if (g == NULL || goff == NULL || gpos == NULL || xg == NULL) {
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
            kpca_gram_striped(ntrain, k - done_k, xg + done_k, dim, done_k > 0 ? 1.0 : 0.0, g); /* G starts unset */
            kpca_progress("gram", k, order[np - 1]);
            kpca_blas_park(); /* the SVM workers come next */
        }
        done_k = k > done_k ? k : done_k;
        double sec_gram = kpca_now() - tg;
        double factor = p->scale == KPCA_SCALE_NORM ? norm_factor(g, goff, gpos, tr, dim, k, NULL, ntrain) : 1.0;
        double t0 = kpca_now();
        kpca_svm_params pc = *p;
        double cv_pct = -1.0;
        if (p->ncost >= 2 && p->classifier == KPCA_CLF_SVM) {
            size_t best = SIZE_MAX;
            for (size_t c = 0; c < p->ncost; c++) {
                size_t e = 0;
                st = cv_errors(tr, ntrain, dim, k, ytrain, g, goff, gpos, fold, p, p->costs[c], ws, &e, err);
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
        st = kpca_classifier_train_rows(tr, dim, k, ytrain, g, goff, gpos, NULL, ntrain, factor, &pc, ws, &cl, err);
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
    return st;
}
