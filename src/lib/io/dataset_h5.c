/* dataset_h5.c - HDF5 reader: GROUP/data (n x D), GROUP/target (n, optional)
 * and GROUP/class_names (the names of target's codes, optional), or any 2-D
 * dataset FILE:/path without labels. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/dataset_h5.h"
#include "io/featfile.h"
#include "file/h5util.h"
#include "file/matfile.h"
#include "support/mem.h"

/* Collects the names of the root's groups, comma-separated, for messages. */
static herr_t collect_group(hid_t g, const char *name, const H5L_info_t *info, void *data)
{
    (void)info;
    char *buf = data;
    hid_t o = H5Oopen(g, name, H5P_DEFAULT);
    int is_group = o >= 0 && H5Iget_type(o) == H5I_GROUP;
    if (o >= 0)
        H5Oclose(o);
    if (is_group) {
        size_t len = strlen(buf);
        if (len + strlen(name) + 3 < 256)
            snprintf(buf + len, 256 - len, "%s%s", len ? ", " : "", name);
    }
    return 0;
}

/* H5Literate: a dataset's name and shape appended to the text at data
 * (512 bytes), comma-separated */
static herr_t collect_dataset(hid_t g, const char *name, const H5L_info_t *info, void *data)
{
    (void)info;
    char *buf = data, shape[64] = "";
    hid_t o = H5Oopen(g, name, H5P_DEFAULT);
    if (o >= 0 && H5Iget_type(o) == H5I_DATASET) {
        hid_t sp = H5Dget_space(o);
        hsize_t d[3] = {0, 0, 0};
        const int rank = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
        if (rank >= 1 && rank <= 3 && H5Sget_simple_extent_dims(sp, d, NULL) >= 0)
            snprintf(shape, sizeof shape, rank == 1 ? " (%llu)" : rank == 2 ? " (%llu x %llu)" : " (%llu x %llu x %llu)",
                     (unsigned long long)d[0], (unsigned long long)d[1], (unsigned long long)d[2]);
        if (sp >= 0)
            H5Sclose(sp);
        const size_t len = strlen(buf);
        if (len + strlen(name) + strlen(shape) + 3 < 512)
            snprintf(buf + len, 512 - len, "%s%s%s", len ? ", " : "", name, shape);
    }
    if (o >= 0)
        H5Oclose(o);
    return 0;
}

/* The error of a group without `data`: what it holds, and the FILE:PATH
 * form that reads one of them */
static kpca_status group_lacks_data(hid_t g, const char *path, const char *group, kpca_error *err)
{
    char held[512] = "";
    H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, NULL, collect_dataset, held);
    const int root = group[0] == '\0' || strcmp(group, "/") == 0;
    const char *name = group[0] == '/' ? group + 1 : group;
    char where[300];
    snprintf(where, sizeof where, root ? "the root" : "group '%.256s'", name);
    if (held[0] == '\0')
        return kpca_fail(err, KPCA_EFORMAT, "'%s': %s holds no dataset (kpca reads GROUP/data, and its labels "
                         "from GROUP/target)", path, where);
    if (kpca_mat_file(path)) /* a v7.3 MAT-file read as HDF5 */
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s' is a MATLAB 7.3 MAT-file, whose variables HDF5 shows transposed (%s): read one as "
                         "MATLAB shows it, as '%s:NAME' without --format hdf5",
                         path, held, path);
    return kpca_fail(err, KPCA_EFORMAT,
                     "'%s': %s has no dataset 'data' (kpca reads GROUP/data, and its labels from "
                     "GROUP/target); it holds %s: give %s:/%s%sNAME to read one of them, without labels",
                     path, where, held, path, root ? "" : name, root ? "" : "/");
}

static int is_dataset(hid_t f, const char *name)
{
    hid_t o = H5Oopen(f, name, H5P_DEFAULT);
    int is = o >= 0 && H5Iget_type(o) == H5I_DATASET;
    if (o >= 0)
        H5Oclose(o);
    return is;
}

/* Checks a read n x D matrix: not empty, D as expected, finite values. */
static kpca_status check_matrix(const char *path, const char *name, const size_t *dims, size_t dim, const double *x,
                                kpca_error *err)
{
    if (dims[0] == 0 || dims[1] == 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': '%s' is empty (%zu x %zu)", path, name, dims[0], dims[1]);
    if (dim != 0 && dims[1] != dim)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': '%s' has %zu columns, expected %zu", path, name, dims[1], dim);
    for (size_t i = 0; i < dims[0] * dims[1]; i++)
        if (!isfinite(x[i]))
            return kpca_fail(err, KPCA_EFORMAT, "'%s': '%s' row %zu column %zu is not a finite number", path, name,
                             i / dims[1] + 1, i % dims[1] + 1);
    return KPCA_OK;
}

/* FILE:/path naming a 2-D numeric dataset: its rows, without labels. */
static kpca_status read_matrix(hid_t f, const char *path, const char *name, size_t dim, kpca_dataset *ds,
                               kpca_error *err)
{
    size_t dims[2];
    double *x = NULL;
    kpca_status st = kpca_h5_read_doubles(f, path, name, 2, dims, &x, err);
    if (st == KPCA_OK)
        st = check_matrix(path, name, dims, dim, x, err);
    if (st == KPCA_OK && (ds->y = kpca_calloc(dims[0], sizeof(int))) == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    if (st != KPCA_OK) {
        kpca_free(x);
        return st;
    }
    ds->x = x;
    ds->n = dims[0];
    ds->dim = dims[1];
    ds->unlabelled = 1;
    return KPCA_OK;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* GROUP/class_names (beside `target`): the class names, target's codes
 * indexing them.  Each name non-empty and distinct, every code an index. */
static kpca_status read_names(hid_t g, const char *path, const int *y, size_t n, kpca_dataset *ds, kpca_error *err)
{
    char **names = NULL;
    size_t nn = 0;
    kpca_status st = kpca_h5_read_strings(g, path, "class_names", &nn, &names, err);
    if (st != KPCA_OK)
        return st;
    char **sorted = nn > 0 ? kpca_alloc_array(nn, 1, sizeof(char *)) : NULL;
    if (nn == 0)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': 'class_names' is empty", path);
    else if (sorted == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the class names of '%s'", path);
    for (size_t c = 0; st == KPCA_OK && c < nn; c++)
        if (names[c][0] == '\0')
            st = kpca_fail(err, KPCA_EFORMAT, "'%s': 'class_names' entry %zu is empty", path, c + 1);
    if (st == KPCA_OK) {
        memcpy(sorted, names, nn * sizeof(char *));
        qsort(sorted, nn, sizeof(char *), cmp_name);
        for (size_t c = 1; st == KPCA_OK && c < nn; c++)
            if (strcmp(sorted[c - 1], sorted[c]) == 0)
                st = kpca_fail(err, KPCA_EFORMAT, "'%s': 'class_names' holds '%.40s' twice", path, sorted[c]);
    }
    for (size_t i = 0; st == KPCA_OK && i < n; i++)
        if (y[i] < 0 || (size_t)y[i] >= nn)
            st = kpca_fail(err, KPCA_EFORMAT,
                           "'%s': 'target' row %zu is %d, but 'class_names' names classes 0..%zu", path, i + 1,
                           y[i], nn - 1);
    kpca_free(sorted);
    if (st != KPCA_OK) {
        for (size_t c = 0; c < nn; c++)
            kpca_free(names[c]);
        kpca_free(names);
        return st;
    }
    ds->names = names;
    ds->nnames = nn;
    return KPCA_OK;
}

kpca_status kpca_read_hdf5(const char *path, const char *group, size_t dim, kpca_dataset *ds, kpca_featinfo *info,
                           kpca_error *err)
{
    memset(ds, 0, sizeof *ds);
    if (info != NULL)
        memset(info, 0, sizeof *info);
    hid_t f;
    int sealed = 0;
    kpca_status st = kpca_h5_open_read_sealed(path, KPCA_SEAL_IF_PRESENT, &f, &sealed, err);
    if (st != KPCA_OK)
        return st;
    hid_t g = -1;
    int is_root = strcmp(group, "/") == 0 || group[0] == '\0';
    int exists = !is_root && H5Lexists(f, group, H5P_DEFAULT) > 0;
    if (exists && is_dataset(f, group)) {
        st = read_matrix(f, path, group, dim, ds, err);
        H5Fclose(f);
        return st;
    }
    if (!is_root && !exists) {
        g = -1;
    } else {
        g = H5Gopen2(f, is_root ? "/" : group, H5P_DEFAULT);
    }
    if (g < 0) {
        char names[256] = "";
        H5Literate(f, H5_INDEX_NAME, H5_ITER_INC, NULL, collect_group, names);
        H5Fclose(f);
        return kpca_fail(err, KPCA_EFORMAT, "'%s': no group or dataset '%s' (groups here: %s)", path, group,
                         names[0] ? names : "none");
    }
    if (is_root && H5Lexists(g, "data", H5P_DEFAULT) <= 0) {
        char names[256] = "";
        H5Literate(f, H5_INDEX_NAME, H5_ITER_INC, NULL, collect_group, names);
        st = names[0] ? kpca_fail(err, KPCA_EUSAGE, "'%s': choose a group with FILE:GROUP (groups here: %s)", path, names)
                      : group_lacks_data(g, path, "/", err);
        H5Gclose(g);
        H5Fclose(f);
        return st;
    }
    if (!is_root && H5Lexists(g, "data", H5P_DEFAULT) <= 0) {
        st = group_lacks_data(g, path, group, err);
        H5Gclose(g);
        H5Fclose(f);
        return st;
    }
    size_t dims[2], ny = 0;
    double *x = NULL;
    int *y = NULL;
    st = kpca_h5_read_doubles(g, path, "data", 2, dims, &x, err);
    int unlabelled = st == KPCA_OK && H5Lexists(g, "target", H5P_DEFAULT) <= 0; /* data without labels */
    if (st == KPCA_OK && unlabelled) {
        ny = dims[0];
        if ((y = kpca_calloc(ny ? ny : 1, sizeof(int))) == NULL)
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    } else if (st == KPCA_OK) {
        st = kpca_h5_read_ints(g, path, "target", 1, &ny, &y, err);
    }
    /* kpca's own feature files say so and name their model (both optional);
     * they are sealed, and only a sealed file's attributes are looked at:
     * H5Aexists is one of libhdf5's unsafe calls on a damaged file */
    int features = 0;
    long model_id = 0;
    if (st == KPCA_OK && sealed && is_root && H5Aexists(f, "format") > 0) {
        char fmt[64];
        st = kpca_h5_attr_read_string(f, path, "format", fmt, sizeof fmt, err);
        features = st == KPCA_OK && strcmp(fmt, KPCA_FEATURES_FORMAT) == 0;
    }
    if (st == KPCA_OK && features && H5Aexists(f, "model_id") > 0)
        st = kpca_h5_attr_read_long(f, path, "model_id", &model_id, err);
    if (st == KPCA_OK && ny != dims[0])
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': 'data' has %zu rows but 'target' has %zu labels", path, dims[0], ny);
    if (st == KPCA_OK && !unlabelled && H5Lexists(g, "class_names", H5P_DEFAULT) > 0)
        st = read_names(g, path, y, ny, ds, err);
    H5Gclose(g);
    H5Fclose(f);
    if (st != KPCA_OK)
        goto fail;
    if ((st = check_matrix(path, "data", dims, dim, x, err)) != KPCA_OK)
        goto fail;
    ds->x = x;
    ds->y = y;
    ds->n = dims[0];
    ds->dim = dims[1];
    ds->unlabelled = unlabelled;
    if (info != NULL) {
        info->features = features;
        info->model_id = (unsigned long)model_id;
    }
    return KPCA_OK;
fail:
    kpca_free(x);
    kpca_free(y);
    kpca_dataset_free(ds);
    return st;
}

struct kpca_h5_rows {
    hid_t f, data, target; /* target < 0: unlabelled */
    char *path, *name;     /* for messages; name: the dataset's ("data" in a group) */
    size_t n, d;
    char **names;
    size_t nnames;
};

void kpca_h5_rows_close(kpca_h5_rows *r)
{
    if (r == NULL)
        return;
    if (r->target >= 0)
        H5Dclose(r->target);
    if (r->data >= 0)
        H5Dclose(r->data);
    if (r->f >= 0)
        H5Fclose(r->f);
    kpca_free_strings(r->names, r->nnames);
    kpca_free(r->path);
    kpca_free(r->name);
    kpca_free(r);
}

/* The codes of target against nn class names (nn 0: only the range of int),
 * read by blocks: the first code out of range, as read_names says it. */
static kpca_status check_target(kpca_h5_rows *r, size_t nn, kpca_error *err)
{
    int y[1024];
    for (size_t at = 0; at < r->n; at += 1024) {
        size_t take = r->n - at < 1024 ? r->n - at : 1024;
        kpca_status st = kpca_h5_read_int_rows(r->target, r->path, "target", at, take, y, err);
        for (size_t i = 0; st == KPCA_OK && nn > 0 && i < take; i++)
            if (y[i] < 0 || (size_t)y[i] >= nn)
                st = kpca_fail(err, KPCA_EFORMAT,
                               "'%s': 'target' row %zu is %d, but 'class_names' names classes 0..%zu", r->path,
                               at + i + 1, y[i], nn - 1);
        if (st != KPCA_OK)
            return st;
    }
    return KPCA_OK;
}

kpca_status kpca_h5_rows_open(const char *path, const char *group, size_t dim, kpca_h5_rows **out, size_t *n,
                              size_t *d, int *labelled, char ***names, size_t *nnames, kpca_error *err)
{
    *out = NULL;
    kpca_h5_rows *r = kpca_calloc(1, sizeof *r);
    if (r == NULL || (r->path = kpca_strdup(path)) == NULL) {
        kpca_free(r);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    }
    r->f = r->data = r->target = -1;
    int sealed = 0;
    kpca_status st = kpca_h5_open_read_sealed(path, KPCA_SEAL_IF_PRESENT, &r->f, &sealed, err);
    int is_root = strcmp(group, "/") == 0 || group[0] == '\0';
    int exists = st == KPCA_OK && !is_root && H5Lexists(r->f, group, H5P_DEFAULT) > 0;
    hid_t g = -1;
    size_t dims[2] = {0, 0};
    const char *dname = "data";
    if (st == KPCA_OK && exists && is_dataset(r->f, group)) { /* FILE:/path: a matrix without labels */
        dname = group;
        st = kpca_h5_open_numbers(r->f, path, group, 2, &r->data, dims, err);
    } else if (st == KPCA_OK) {
        if (is_root || exists)
            g = H5Gopen2(r->f, is_root ? "/" : group, H5P_DEFAULT);
        char groups[256] = "";
        if (g < 0 || (is_root && H5Lexists(g, "data", H5P_DEFAULT) <= 0))
            H5Literate(r->f, H5_INDEX_NAME, H5_ITER_INC, NULL, collect_group, groups);
        if (g < 0)
            st = kpca_fail(err, KPCA_EFORMAT, "'%s': no group or dataset '%s' (groups here: %s)", path, group,
                           groups[0] ? groups : "none");
        else if (is_root && H5Lexists(g, "data", H5P_DEFAULT) <= 0)
            st = groups[0] ? kpca_fail(err, KPCA_EUSAGE, "'%s': choose a group with FILE:GROUP (groups here: %s)",
                                       path, groups)
                           : group_lacks_data(g, path, "/", err);
        else if (!is_root && H5Lexists(g, "data", H5P_DEFAULT) <= 0)
            st = group_lacks_data(g, path, group, err);
        if (st == KPCA_OK)
            st = kpca_h5_open_numbers(g, path, "data", 2, &r->data, dims, err);
        size_t ny = dims[0];
        if (st == KPCA_OK && H5Lexists(g, "target", H5P_DEFAULT) > 0) {
            st = kpca_h5_open_ints(g, path, "target", &r->target, &ny, err);
            if (st == KPCA_OK)
                st = check_target(r, 0, err); /* int's range, as the whole read checks it first */
        }
        if (st == KPCA_OK && ny != dims[0])
            st = kpca_fail(err, KPCA_EFORMAT, "'%s': 'data' has %zu rows but 'target' has %zu labels", path, dims[0],
                           ny);
        if (st == KPCA_OK && r->target >= 0 && H5Lexists(g, "class_names", H5P_DEFAULT) > 0) {
            kpca_dataset names_only;
            memset(&names_only, 0, sizeof names_only);
            static const int none[1] = {0};
            st = read_names(g, path, none, 0, &names_only, err); /* the names' own checks */
            r->names = names_only.names;
            r->nnames = names_only.nnames;
            r->n = dims[0];
            if (st == KPCA_OK)
                st = check_target(r, r->nnames, err);
        }
        if (g >= 0)
            H5Gclose(g);
    }
    r->n = dims[0];
    r->d = dims[1];
    if (st == KPCA_OK && (dims[0] == 0 || dims[1] == 0))
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': '%s' is empty (%zu x %zu)", path, dname, dims[0], dims[1]);
    else if (st == KPCA_OK && dim != 0 && dims[1] != dim)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': '%s' has %zu columns, expected %zu", path, dname, dims[1], dim);
    if (st == KPCA_OK && (r->name = kpca_strdup(dname)) == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    if (st != KPCA_OK) {
        kpca_h5_rows_close(r);
        return st;
    }
    *n = r->n;
    *d = r->d;
    *labelled = r->target >= 0;
    *names = r->names;
    *nnames = r->nnames;
    *out = r;
    return KPCA_OK;
}

kpca_status kpca_h5_rows_read(kpca_h5_rows *r, size_t row0, size_t rows, double *x, int *y, kpca_error *err)
{
    kpca_status st = kpca_h5_read_rows(r->data, r->path, r->name, row0, rows, r->d, x, err);
    for (size_t i = 0; st == KPCA_OK && i < rows * r->d; i++)
        if (!isfinite(x[i]))
            st = kpca_fail(err, KPCA_EFORMAT, "'%s': '%s' row %zu column %zu is not a finite number", r->path, r->name,
                           row0 + i / r->d + 1, i % r->d + 1);
    if (st == KPCA_OK && y != NULL) {
        if (r->target >= 0)
            st = kpca_h5_read_int_rows(r->target, r->path, "target", row0, rows, y, err);
        else
            memset(y, 0, rows * sizeof *y);
    }
    return st;
}
