#include "classify/featpair.h"

#include <string.h>

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
