/* dataset.c - the data set: format names, allocation, subsets and transforms. */
#include "io/dataset.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/mem.h"
#include "support/names.h"
#include "support/rng.h"

static const char *const format_names[] = {"auto", "esl", "libsvm", "hdf5", "csv", "npy", "mat", "arff"};

#define NFORMATS (sizeof format_names / sizeof format_names[0])

const char *kpca_format_name(kpca_format f)
{
    return (unsigned)f < NFORMATS ? kpca_name_of(format_names, NFORMATS, (unsigned)f) : NULL;
}

int kpca_format_parse(const char *name, kpca_format *out)
{
    int i = kpca_name_index(format_names, NFORMATS, name);
    if (i < 0 && strcmp(name, "h5") == 0) /* an alias */
        i = KPCA_FMT_HDF5;
    if (i < 0)
        return -1;
    *out = (kpca_format)i;
    return 0;
}

void kpca_dataset_free(kpca_dataset *ds)
{
    if (ds == NULL)
        return;
    kpca_free(ds->x);
    kpca_free(ds->y);
    for (size_t i = 0; i < ds->nnames; i++)
        kpca_free(ds->names[i]);
    kpca_free(ds->names);
    kpca_free_strings(ds->colnames, ds->colnames != NULL ? ds->dim : 0);
    kpca_free(ds->label_name);
    memset(ds, 0, sizeof *ds);
}

kpca_status kpca_dataset_pad(kpca_dataset *ds, size_t dim, kpca_error *err)
{
    if (dim < ds->dim)
        return kpca_fail(err, KPCA_EUSAGE, "cannot narrow a data set from %zu to %zu values", ds->dim, dim);
    if (dim == ds->dim)
        return KPCA_OK;
    double *x = kpca_alloc_array(ds->n, dim, sizeof(double));
    if (x == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for a %zu x %zu data set", ds->n, dim);
    for (size_t i = 0; i < ds->n; i++) {
        memcpy(x + i * dim, ds->x + i * ds->dim, ds->dim * sizeof(double));
        memset(x + i * dim + ds->dim, 0, (dim - ds->dim) * sizeof(double));
    }
    kpca_free(ds->x);
    ds->x = x;
    ds->dim = dim;
    return KPCA_OK;
}

kpca_status kpca_dataset_alloc(kpca_dataset *ds, size_t n, size_t dim, kpca_error *err)
{
    memset(ds, 0, sizeof *ds);
    ds->x = kpca_alloc_array(n, dim, sizeof(double));
    ds->y = kpca_alloc_array(n, 1, sizeof(int));
    if (ds->x == NULL || ds->y == NULL) {
        kpca_dataset_free(ds);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for a %zu x %zu data set", n, dim);
    }
    if (n * dim > 0)
        memset(ds->x, 0, n * dim * sizeof(double));
    if (n > 0)
        memset(ds->y, 0, n * sizeof(int));
    ds->n = n;
    ds->dim = dim;
    return KPCA_OK;
}

kpca_status kpca_dataset_select(const kpca_dataset *src, const size_t *idx, size_t m,
                                kpca_dataset *dst, kpca_error *err)
{
    kpca_status st = kpca_dataset_alloc(dst, m, src->dim, err);
    if (st != KPCA_OK)
        return st;
    for (size_t i = 0; i < m; i++) {
        if (idx[i] >= src->n) {
            kpca_dataset_free(dst);
            return kpca_fail(err, KPCA_EUSAGE, "row index %zu out of range (%zu rows)", idx[i], src->n);
        }
        memcpy(dst->x + i * src->dim, src->x + idx[i] * src->dim, src->dim * sizeof(double));
        dst->y[i] = src->y[idx[i]];
    }
    dst->unlabelled = src->unlabelled;
    dst->label_col = src->label_col;
    dst->index_col = src->index_col;
    if ((src->colnames != NULL && (dst->colnames = kpca_strings_dup(src->colnames, src->dim)) == NULL) ||
        (src->label_name != NULL && (dst->label_name = kpca_strdup(src->label_name)) == NULL)) {
        kpca_dataset_free(dst);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu column names", src->dim);
    }
    if (src->nnames > 0) {
        dst->names = kpca_calloc(src->nnames, sizeof(char *));
        for (size_t c = 0; dst->names != NULL && c < src->nnames; c++) {
            dst->names[c] = kpca_malloc(strlen(src->names[c]) + 1);
            dst->nnames = c + 1;
            if (dst->names[c] == NULL)
                break;
            strcpy(dst->names[c], src->names[c]);
        }
        if (dst->names == NULL || dst->names[src->nnames - 1] == NULL) {
            kpca_dataset_free(dst);
            return kpca_fail(err, KPCA_ENOMEM, "out of memory for %zu class names", src->nnames);
        }
    }
    return KPCA_OK;
}

kpca_status kpca_subset_indices(size_t n, size_t m, uint64_t seed, size_t *idx, kpca_error *err)
{
    if (m > n)
        return kpca_fail(err, KPCA_EUSAGE, "subset of %zu rows requested but the data has only %zu", m, n);
    if (seed == 0) {
        for (size_t i = 0; i < m; i++)
            idx[i] = i;
        return KPCA_OK;
    }
    /* Selection sampling (Knuth's Algorithm S): one pass, output ascending. */
    uint64_t s = seed;
    size_t chosen = 0;
    for (size_t i = 0; i < n && chosen < m; i++) {
        if (kpca_rng_below(&s, (uint64_t)(n - i)) < (uint64_t)(m - chosen))
            idx[chosen++] = i;
    }
    return KPCA_OK;
}

static int cmp_stratum(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}

/* a class's place in the order of its allocation's remainder: larger
 * remainders first, then smaller labels (classes are sorted by label) */
typedef struct {
    uint64_t rem;
    size_t c;
} class_rem;

static int cmp_rem(const void *a, const void *b)
{
    const class_rem *x = a, *y = b;
    if (x->rem != y->rem)
        return x->rem > y->rem ? -1 : 1;
    return x->c < y->c ? -1 : x->c > y->c;
}

kpca_status kpca_subset_stratified(const int *y, size_t n, size_t m, uint64_t seed, size_t *idx, size_t *nclasses,
                                   kpca_error *err)
{
    if (m > n)
        return kpca_fail(err, KPCA_EUSAGE, "subset of %zu rows requested but the data has only %zu", m, n);
    if ((uint64_t)n > UINT32_MAX) /* m n_c below must fit 64 bits */
        return kpca_fail(err, KPCA_EUSAGE, "a stratified subset of %zu rows: at most 2^32 - 1 rows", n);
    int *label = kpca_alloc_array(n ? n : 1, 1, sizeof(int));
    size_t *cls = kpca_alloc_array(n ? n : 1, 1, sizeof(size_t));
    /* per class: rows, rows allocated, rows seen, rows taken */
    size_t *count = kpca_alloc_array(n ? n : 1, 4, sizeof(size_t));
    class_rem *order = kpca_alloc_array(n ? n : 1, 1, sizeof(class_rem));
    if (label == NULL || cls == NULL || count == NULL || order == NULL) {
        kpca_free(label);
        kpca_free(cls);
        kpca_free(count);
        kpca_free(order);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory for a stratified subset of %zu rows", n);
    }
    memcpy(label, y, n * sizeof(int));
    qsort(label, n, sizeof(int), cmp_stratum);
    size_t nc = 0;
    for (size_t i = 0; i < n; i++)
        if (nc == 0 || label[i] != label[nc - 1])
            label[nc++] = label[i];
    size_t *rows = count, *alloc = count + nc, *seen = count + 2 * nc, *taken = count + 3 * nc;
    memset(count, 0, 4 * nc * sizeof(size_t));
    for (size_t i = 0; i < n; i++) {
        const int *at = bsearch(&y[i], label, nc, sizeof(int), cmp_stratum);
        cls[i] = (size_t)(at - label);
        rows[cls[i]]++;
    }
    /* largest remainders (m n_c <= n^2 < 2^64) */
    size_t given = 0;
    for (size_t c = 0; c < nc; c++) {
        uint64_t q = (uint64_t)m * (uint64_t)rows[c];
        alloc[c] = (size_t)(q / n);
        order[c].rem = q % n;
        order[c].c = c;
        given += alloc[c];
    }
    qsort(order, nc, sizeof(class_rem), cmp_rem);
    for (size_t r = 0; given < m; r++, given++)
        alloc[order[r].c]++;
    /* every class one row, when there are rows enough */
    for (size_t c = 0; m >= nc && c < nc; c++) {
        if (alloc[c] > 0)
            continue;
        size_t big = 0;
        for (size_t d = 1; d < nc; d++)
            if (alloc[d] > alloc[big])
                big = d;
        alloc[big]--;
        alloc[c] = 1;
    }
    uint64_t s = seed;
    size_t chosen = 0;
    for (size_t i = 0; i < n; i++) {
        size_t c = cls[i];
        if (kpca_rng_below(&s, (uint64_t)(rows[c] - seen[c])) < (uint64_t)(alloc[c] - taken[c])) {
            idx[chosen++] = i;
            taken[c]++;
        }
        seen[c]++;
    }
    if (nclasses != NULL)
        *nclasses = nc;
    kpca_free(label);
    kpca_free(cls);
    kpca_free(count);
    kpca_free(order);
    return KPCA_OK;
}

void kpca_dataset_add_noise(kpca_dataset *ds, double sd, uint64_t seed)
{
    uint64_t s = seed;
    size_t total = ds->n * ds->dim;
    for (size_t i = 0; i < total; i += 2) {
        double z0, z1;
        kpca_rng_normal_pair(&s, sd, &z0, &z1);
        ds->x[i] += z0;
        if (i + 1 < total)
            ds->x[i + 1] += z1;
    }
}

void kpca_dataset_rescale(kpca_dataset *ds, double lo, double hi)
{
    double a = 2.0 / (hi - lo), b = -1.0 - a * lo;
    size_t total = ds->n * ds->dim;
    for (size_t i = 0; i < total; i++)
        ds->x[i] = a * ds->x[i] + b;
}

void kpca_dataset_round(kpca_dataset *ds, int decimals)
{
    double scale = pow(10.0, decimals);
    size_t total = ds->n * ds->dim;
    for (size_t i = 0; i < total; i++) {
        double r = round(ds->x[i] * scale) / scale;
        ds->x[i] = r == 0.0 ? 0.0 : r; /* no negative zeros */
    }
}

void kpca_dataset_range(const kpca_dataset *ds, double *lo, double *hi)
{
    size_t total = ds->n * ds->dim;
    double a = total ? ds->x[0] : 0.0, b = a;
    for (size_t i = 1; i < total; i++) {
        if (ds->x[i] < a)
            a = ds->x[i];
        if (ds->x[i] > b)
            b = ds->x[i];
    }
    *lo = a;
    *hi = b;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int kpca_label_of_double(double v, int *label)
{
    if (!(v == floor(v) && v >= INT_MIN && v <= INT_MAX)) /* (NaN: every comparison false) */
        return 0;
    if (label != NULL)
        *label = (int)v;
    return 1;
}

size_t kpca_dataset_classes(const kpca_dataset *ds)
{
    if (ds->unlabelled || ds->n == 0)
        return 0;
    if (ds->names != NULL)
        return ds->nnames;
    int *y = kpca_alloc_array(ds->n, 1, sizeof *y);
    if (y == NULL)
        return 0;
    memcpy(y, ds->y, ds->n * sizeof *y);
    qsort(y, ds->n, sizeof *y, cmp_int);
    size_t c = 0;
    for (size_t i = 0; i < ds->n; i++)
        c += i == 0 || y[i] != y[i - 1];
    kpca_free(y);
    return c;
}
