/* featfile.c - the feature files: their layout is specified in
 * docs/file-formats.md, "Feature files". */
#include "io/featfile.h"

#include <string.h>
#include <strings.h>

#include "file/atomic.h"
#include "file/h5util.h"
#include "file/h5write.h"
#include "io/npy.h"
#include "support/version.h"

/* case-insensitive: "X.H5" is HDF5 too */
static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

kpca_format kpca_format_from_name(const char *path)
{
    if (strcmp(path, "-") == 0)
        return KPCA_FMT_LIBSVM;
    if (ends_with(path, ".h5") || ends_with(path, ".hdf5") || ends_with(path, ".he5"))
        return KPCA_FMT_HDF5;
    if (ends_with(path, ".csv"))
        return KPCA_FMT_CSV;
    if (ends_with(path, ".npy"))
        return KPCA_FMT_NPY;
    if (ends_with(path, ".libsvm") || ends_with(path, ".svm") || ends_with(path, ".txt"))
        return KPCA_FMT_LIBSVM;
    return KPCA_FMT_AUTO;
}

static kpca_status write_h5(const char *path, const double *z, size_t n, size_t k, const int *y,
                            const kpca_features_meta *meta, kpca_error *err)
{
    kpca_h5_writer w;
    kpca_status st = kpca_h5_writer_open(&w, path, err);
    if (st != KPCA_OK)
        return st;
    hid_t f = w.file;
    size_t dz[2] = {n, k}, dk[2] = {k, 0};
    st = kpca_h5_attr_write_string(f, path, "format", meta && meta->format ? meta->format : KPCA_FEATURES_FORMAT, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_string(f, path, "kpca_version", KPCA_VERSION, err);
    if (st == KPCA_OK && meta && meta->model) st = kpca_h5_attr_write_string(f, path, "model", meta->model, err);
    if (st == KPCA_OK && meta && meta->model_id)
        st = kpca_h5_attr_write_long(f, path, "model_id", (long)meta->model_id, err);
    if (st == KPCA_OK && meta && meta->source) st = kpca_h5_attr_write_string(f, path, "source", meta->source, err);
    if (st == KPCA_OK) st = kpca_h5_write_doubles(f, path, "data", dz, z, err);
    if (st == KPCA_OK && y != NULL) st = kpca_h5_write_ints(f, path, "target", n, y, err);
    if (st == KPCA_OK && y != NULL && meta && meta->names)
        st = kpca_h5_write_strings(f, path, "class_names", meta->nnames, (const char *const *)meta->names, err);
    if (st == KPCA_OK && meta && meta->eigval) st = kpca_h5_write_doubles(f, path, "eigenvalues", dk, meta->eigval, err);
    return kpca_h5_writer_close(&w, st, err);
}

void kpca_put_field(FILE *fp, const char *s, const char *special)
{
    size_t len = strlen(s);
    if (s[strcspn(s, special)] == '\0' && len > 0 && s[0] != ' ' && s[0] != '\t' && s[len - 1] != ' ' &&
        s[len - 1] != '\t') {
        fputs(s, fp);
        return;
    }
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', fp);
        fputc(*s, fp);
    }
    fputc('"', fp);
}

static kpca_status write_text(const char *path, kpca_format fmt, const double *z, size_t n, size_t k,
                              const int *y, const kpca_features_meta *meta, kpca_error *err)
{
    char column = meta && meta->column ? meta->column : 'z';
    /* CSV labels are the class names when there are some; LIBSVM's numbers */
    char *const *names = fmt == KPCA_FMT_CSV && meta ? meta->names : NULL;
    size_t nnames = names != NULL ? meta->nnames : 0;
    for (size_t i = 0; names != NULL && y != NULL && i < n; i++)
        if (y[i] < 0 || (size_t)y[i] >= nnames)
            return kpca_fail(err, KPCA_EINTERNAL, "'%s': label %d of point %zu has no class name", path, y[i], i + 1);
    kpca_atomic at;
    kpca_status st = kpca_atomic_begin(&at, path, err);
    if (st != KPCA_OK)
        return st;
    FILE *fp = at.fp;
    if (fmt == KPCA_FMT_CSV) {
        if (y != NULL)
            fputs("label", fp);
        for (size_t c = 0; c < k; c++)
            fprintf(fp, "%s%c%zu", y == NULL && c == 0 ? "" : ",", column, c + 1);
        fputc('\n', fp);
    }
    for (size_t i = 0; i < n && !ferror(fp); i++) {
        if (y != NULL && names != NULL)
            kpca_put_field(fp, names[y[i]], ",\"\r\n");
        else if (y != NULL)
            fprintf(fp, "%d", y[i]);
        const double *row = z + i * k;
        if (fmt == KPCA_FMT_CSV)
            for (size_t c = 0; c < k; c++)
                fprintf(fp, "%s%.17g", y == NULL && c == 0 ? "" : ",", row[c]);
        else
            for (size_t c = 0; c < k; c++)
                fprintf(fp, " %zu:%.17g", c + 1, row[c]);
        fputc('\n', fp);
    }
    if (ferror(fp)) {
        kpca_atomic_abort(&at);
        return kpca_fail(err, KPCA_EIO, "cannot write '%s'", path);
    }
    return kpca_atomic_commit(&at, err);
}

kpca_status kpca_features_write(const char *path, kpca_format fmt, const double *z, size_t n, size_t k,
                                const int *y, const kpca_features_meta *meta, kpca_error *err)
{
    switch (fmt) {
    case KPCA_FMT_HDF5: return write_h5(path, z, n, k, y, meta, err);
    case KPCA_FMT_NPY: return kpca_npy_write(path, z, n, k, err);
    case KPCA_FMT_LIBSVM:
        if (y == NULL)
            return kpca_fail(err, KPCA_EUSAGE, "'%s': LIBSVM lines begin with a label, and these points have "
                             "none: write .csv, .npy or .h5", path);
        /* fall through */
    case KPCA_FMT_CSV: return write_text(path, fmt, z, n, k, y, meta, err);
    default: return kpca_fail(err, KPCA_EUSAGE, "cannot write features as '%s'", kpca_format_name(fmt));
    }
}
