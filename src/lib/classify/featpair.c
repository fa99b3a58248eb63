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

/* TRAIN's names sorted, as pointers into its table */
static int cmp_name_ptr(const void *a, const void *b)
{
    return strcmp(**(char **const *)a, **(char **const *)b);
}

/* the index of s among the n names that by[0..n-1] point to, sorted; -1 */
static long find_name(char **const *by, size_t n, char *const *names, const char *s)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(*by[mid], s);
        if (c == 0)
            return (long)(by[mid] - (char **)names);
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

kpca_status kpca_labels_match_names(const kpca_dataset *tr, const char *tr_name, kpca_dataset *te,
                                    const char *te_name, kpca_error *err)
{
    if (tr->names == NULL && te->names == NULL)
        return KPCA_OK;
    if (tr->names == NULL || te->names == NULL) {
        const kpca_dataset *named = tr->names != NULL ? tr : te;
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s' has class names ('%.40s', ...) but '%s' has integer labels: classes are matched by "
                         "name, so give both files names or both integers",
                         named == tr ? tr_name : te_name, named->names[0], named == tr ? te_name : tr_name);
    }
    size_t ntr = tr->nnames, nte = te->nnames;
    char ***by = kpca_alloc_array(ntr ? ntr : 1, 1, sizeof *by);
    long *code = kpca_alloc_array(nte ? nte : 1, 1, sizeof *code);
    char **merged = kpca_calloc(ntr + nte ? ntr + nte : 1, sizeof *merged);
    size_t nmerged = ntr;
    kpca_status st = by && code && merged ? KPCA_OK
                                          : kpca_fail(err, KPCA_ENOMEM, "out of memory for the class names of "
                                                      "'%s' and '%s'", tr_name, te_name);
    for (size_t c = 0; st == KPCA_OK && c < ntr; c++)
        by[c] = &tr->names[c];
    if (st == KPCA_OK)
        qsort(by, ntr, sizeof *by, cmp_name_ptr);
    /* TRAIN's names keep their codes; a name only TEST has gets the next one */
    for (size_t c = 0; st == KPCA_OK && c < nte; c++) {
        code[c] = find_name(by, ntr, tr->names, te->names[c]);
        if (code[c] < 0)
            code[c] = (long)nmerged++;
    }
    for (size_t c = 0; st == KPCA_OK && c < nmerged; c++) {
        const char *s = c < ntr ? tr->names[c] : NULL;
        for (size_t j = 0; s == NULL && j < nte; j++)
            if (code[j] == (long)c)
                s = te->names[j];
        if ((merged[c] = kpca_malloc(strlen(s) + 1)) == NULL)
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the class names of '%s'", te_name);
        else
            strcpy(merged[c], s);
    }
    for (size_t i = 0; st == KPCA_OK && i < te->n; i++)
        if (te->y[i] < 0 || (size_t)te->y[i] >= nte)
            st = kpca_fail(err, KPCA_EINTERNAL, "'%s': label %d of point %zu has no class name", te_name, te->y[i],
                           i + 1);
    if (st == KPCA_OK) {
        for (size_t i = 0; i < te->n; i++)
            te->y[i] = (int)code[te->y[i]];
        for (size_t c = 0; c < nte; c++)
            kpca_free(te->names[c]);
        kpca_free(te->names);
        te->names = merged;
        te->nnames = nmerged;
        merged = NULL;
    }
    for (size_t c = 0; merged != NULL && c < nmerged; c++)
        kpca_free(merged[c]);
    kpca_free(merged);
    kpca_free(code);
    kpca_free(by);
    return st;
}
