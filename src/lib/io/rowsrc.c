/* rowsrc.c - a data file read a block of rows at a time (see rowsrc.h).
 *
 * This first implementation holds the file's rows as kpca_dataset_read
 * reads them and hands them out by blocks: the interface and its
 * guarantees (the same rows, labels and errors) are those of the streamed
 * readers that replace it, the memory is not yet. */
#include "io/rowsrc.h"

#include <string.h>

#include "support/mem.h"

struct kpca_rowsrc {
    kpca_dataset ds;   /* the rows (owned) */
    kpca_dataset info; /* ds without its rows: what kpca_rowsrc_info shows */
    size_t at;         /* the next row */
};

kpca_status kpca_rowsrc_open(const char *spec, const kpca_read_opts *opts, kpca_rowsrc **src, kpca_error *err)
{
    *src = NULL;
    kpca_rowsrc *s = kpca_calloc(1, sizeof *s);
    if (s == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", spec);
    kpca_status st = kpca_dataset_read(spec, opts, &s->ds, err);
    if (st != KPCA_OK) {
        kpca_free(s);
        return st;
    }
    s->info = s->ds;
    s->info.x = NULL;
    s->info.y = NULL;
    *src = s;
    return KPCA_OK;
}

size_t kpca_rowsrc_dim(const kpca_rowsrc *src)
{
    return src->ds.dim;
}

kpca_format kpca_rowsrc_format(const kpca_rowsrc *src)
{
    return src->ds.format;
}

int kpca_rowsrc_labelled(const kpca_rowsrc *src)
{
    return !src->ds.unlabelled;
}

const kpca_dataset *kpca_rowsrc_info(const kpca_rowsrc *src)
{
    return &src->info;
}

kpca_status kpca_rowsrc_count(kpca_rowsrc *src, size_t *n, kpca_error *err)
{
    (void)err;
    *n = src->ds.n;
    return KPCA_OK;
}

kpca_status kpca_rowsrc_read(kpca_rowsrc *src, size_t max, double *x, int *y, size_t *got, kpca_error *err)
{
    (void)err;
    size_t left = src->ds.n - src->at, take = max < left ? max : left;
    if (take > 0) {
        memcpy(x, src->ds.x + src->at * src->ds.dim, take * src->ds.dim * sizeof *x);
        if (y != NULL)
            memcpy(y, src->ds.y + src->at, take * sizeof *y);
    }
    src->at += take;
    *got = take;
    return KPCA_OK;
}

kpca_status kpca_rowsrc_seek(kpca_rowsrc *src, size_t row, kpca_error *err)
{
    if (row > src->ds.n)
        return kpca_fail(err, KPCA_EUSAGE, "row %zu is beyond the %zu rows of the data", row, src->ds.n);
    src->at = row;
    return KPCA_OK;
}

size_t kpca_rowsrc_tell(const kpca_rowsrc *src)
{
    return src->at;
}

void kpca_rowsrc_close(kpca_rowsrc *src)
{
    if (src == NULL)
        return;
    kpca_dataset_free(&src->ds);
    kpca_free(src);
}
