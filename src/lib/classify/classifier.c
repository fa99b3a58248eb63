/* classifier.c - classifier parameters, their names, and prediction with a
 * trained linear classifier (see classifier.h). */
#include "classify/classifier.h"

#include <cblas.h>
#include <math.h>
#include <string.h>

#include "support/mem.h"
#include "support/names.h"

kpca_svm_params kpca_svm_defaults(void)
{
    kpca_svm_params p;
    p.C = 1.0;
    p.scheme = KPCA_MC_OVO;
    p.backend = KPCA_SVM_GRAM;
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
    if (p->threads < 0)
        return kpca_fail(err, KPCA_EUSAGE, "the thread count must be >= 0, got %d", p->threads);
    if ((unsigned)p->scheme > KPCA_MC_OVR || (unsigned)p->backend > KPCA_SVM_LIBLINEAR)
        return kpca_fail(err, KPCA_EUSAGE, "invalid SVM parameters");
    return KPCA_OK;
}

static const char *const mc_names[] = {"ovo", "ovr"};
static const char *const scale_names[] = {"none", "norm", "std"};
static const char *const backend_names[] = {"gram", "sparse", "liblinear"};
static const char *const clf_names[] = {"svm", "lda"};
#define NNAMES(t) (sizeof t / sizeof t[0])

const char *kpca_classifier_name(kpca_classifier_kind k) { return kpca_name_of(clf_names, NNAMES(clf_names), k); }
const char *kpca_multiclass_name(kpca_multiclass m) { return kpca_name_of(mc_names, NNAMES(mc_names), m); }
const char *kpca_scale_name(kpca_scale s) { return kpca_name_of(scale_names, NNAMES(scale_names), s); }
const char *kpca_backend_name(kpca_svm_backend b) { return kpca_name_of(backend_names, NNAMES(backend_names), b); }

/* *out = the value named s; -1 (and *out untouched) when no value has that name */
#define PARSE(fn, type, table)                                                                                         \
    int fn(const char *s, type *out)                                                                                   \
    {                                                                                                                  \
        int i = kpca_name_index(table, NNAMES(table), s);                                                              \
        if (i < 0)                                                                                                     \
            return -1;                                                                                                 \
        *out = (type)i;                                                                                                \
        return 0;                                                                                                      \
    }
PARSE(kpca_classifier_parse, kpca_classifier_kind, clf_names)
PARSE(kpca_multiclass_parse, kpca_multiclass, mc_names)
PARSE(kpca_scale_parse, kpca_scale, scale_names)
PARSE(kpca_backend_parse, kpca_svm_backend, backend_names)

size_t kpca_class_index(const int *y, const size_t *rows, size_t n, int *labels, int *cls)
{
    size_t nclass = 0;
    for (size_t i = 0; i < n; i++) {
        int yi = y[rows != NULL ? rows[i] : i];
        size_t c = 0;
        while (c < nclass && labels[c] != yi)
            c++;
        if (c == nclass)
            labels[nclass++] = yi;
        cls[i] = (int)c;
    }
    return nclass;
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

kpca_status kpca_classifier_predict(const kpca_classifier *c, const double *x, size_t n, size_t ld, int *pred,
                                    kpca_error *err)
{
    if (n == 0)
        return KPCA_OK;
    const size_t B = KPCA_PREDICT_BLOCK;
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
