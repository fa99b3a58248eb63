#include "classify/featpair.h"

#include <stdlib.h>
#include <string.h>

#include "support/mem.h"

/* raw data: ESL text, or HDF5 that is not a kpca feature file */
static int is_raw(const kpca_dataset *ds, int features)
{
    return ds->format == KPCA_FMT_ESL || (ds->format == KPCA_FMT_HDF5 && !features);
}

kpca_status kpca_featpair(kpca_dataset *tr, const kpca_featinfo *tr_file, const char *tr_name, kpca_dataset *te,
                          const kpca_featinfo *te_file, const char *te_name, kpca_featpair_info *info,
                          kpca_error *err)
{
    kpca_featpair_info none;
    if (info == NULL)
        info = &none;
    memset(info, 0, sizeof *info);
    static const kpca_featinfo plain = {0, 0};
    const kpca_featinfo *a = tr_file ? tr_file : &plain, *b = te_file ? te_file : &plain;
    if (a->model_id && b->model_id && a->model_id != b->model_id)
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s' and '%s' hold the features of two different models (ids %lu and %lu): project both "
                         "with the same model",
                         tr_name, te_name, a->model_id, b->model_id);
    if ((a->features && is_raw(te, b->features)) || (b->features && is_raw(tr, a->features)))
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s' holds kpca features but '%s' holds raw data (or HDF5 without kpca's seal): project it "
                         "with 'kpca transform' first",
                         a->features ? tr_name : te_name, a->features ? te_name : tr_name);
    if (te->dim != tr->dim && tr->format == KPCA_FMT_LIBSVM && te->format == KPCA_FMT_LIBSVM) {
        kpca_dataset *narrow = te->dim < tr->dim ? te : tr;
        size_t from = narrow->dim, wide = te->dim < tr->dim ? tr->dim : te->dim;
        kpca_status st = kpca_dataset_pad(narrow, wide, err);
        if (st != KPCA_OK)
            return st;
        info->padded = narrow == tr ? 1 : 2;
        info->from = from;
        info->to = wide;
    }
    if (te->dim != tr->dim)
        return kpca_fail(err, KPCA_EFORMAT, "'%s' has %zu features per point but '%s' has %zu", te_name, te->dim,
                         tr_name, tr->dim);
    return KPCA_OK;
}

static int cmp_int(const void *a, const void *b)
{
    int u = *(const int *)a, v = *(const int *)b;
    return (u > v) - (u < v);
}

/* sorts v (n) and keeps its distinct values; returns their number */
static size_t sort_unique(int *v, size_t n)
{
    qsort(v, n, sizeof(int), cmp_int);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || v[i] != v[m - 1])
            v[m++] = v[i];
    return m;
}

kpca_status kpca_labels_unseen(const int *ytr, size_t ntr, const int *yte, size_t nte, int **unseen,
                               size_t *nunseen, size_t *npoints, kpca_error *err)
{
    *unseen = NULL;
    *nunseen = 0;
    *npoints = 0;
    int *tr = kpca_alloc_array(ntr ? ntr : 1, 1, sizeof(int));
    int *miss = kpca_alloc_array(nte ? nte : 1, 1, sizeof(int));
    if (tr == NULL || miss == NULL) {
        kpca_free(tr);
        kpca_free(miss);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for the labels of %zu and %zu points", ntr, nte);
    }
    memcpy(tr, ytr, ntr * sizeof(int));
    const size_t mtr = sort_unique(tr, ntr);
    size_t nm = 0;
    for (size_t i = 0; i < nte; i++)
        if (bsearch(&yte[i], tr, mtr, sizeof(int), cmp_int) == NULL)
            miss[nm++] = yte[i];
    kpca_free(tr);
    *npoints = nm;
    if (nm == 0) {
        kpca_free(miss);
        return KPCA_OK;
    }
    *nunseen = sort_unique(miss, nm);
    *unseen = miss;
    return KPCA_OK;
}
