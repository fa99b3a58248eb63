/* featfile.c - the feature files: their layout is specified in
 * docs/file-formats.md, "Feature files". */
#include "io/featfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "file/atomic.h"
#include "file/h5util.h"
#include "file/h5write.h"
#include "io/npy.h"
#include "support/mem.h"
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


struct kpca_features_writer {
    kpca_format fmt;
    char *path;          /* the destination as the caller named it (owned) */
    size_t n, k;         /* the file's rows and values per row */
    size_t first, rows;  /* this writer's rows: [first, first + rows) */
    size_t at;           /* of them, written */
    int labelled, part;
    char column;         /* CSV column names: label,<column>1,... */
    char *const *names;  /* CSV: the class names the labels index (borrowed) */
    size_t nnames;
    kpca_h5_writer h5;   /* HDF5: the file (h5_live) */
    int h5_live;
    int fd;              /* raw writes: the detached HDF5 file, or a part's shared file; -1: none */
    unsigned long long data_at, label_at; /* NPY, HDF5: where row 0's values and label go */
    kpca_atomic out;     /* NPY and text (a text part: its own file) */
    int out_live;
    char *shared;        /* a text part: the file its bytes go into (owned) */
    unsigned char *le;   /* a block's values little-endian, on a big-endian host */
    size_t le_cap;
};

static int host_little(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

static void writer_free(kpca_features_writer *w)
{
    if (w->fd >= 0 && w->part)
        close(w->fd);
    kpca_free(w->path);
    kpca_free(w->shared);
    kpca_free(w->le);
    kpca_free(w);
}

void kpca_features_abort(kpca_features_writer *w)
{
    if (w == NULL)
        return;
    if (w->h5_live)
        kpca_h5_writer_close(&w->h5, KPCA_EIO, NULL);
    if (w->out_live)
        kpca_atomic_abort(&w->out);
    writer_free(w);
}

static kpca_status writer_new(const char *path, kpca_format fmt, size_t n, size_t k, int labelled,
                              const kpca_features_meta *meta, kpca_features_writer **out, kpca_error *err)
{
    *out = NULL;
    switch (fmt) {
    case KPCA_FMT_HDF5: case KPCA_FMT_NPY: case KPCA_FMT_CSV: break;
    case KPCA_FMT_LIBSVM:
        if (!labelled)
            return kpca_fail(err, KPCA_EUSAGE, "'%s': LIBSVM lines begin with a label, and these points have "
                             "none: write .csv, .npy or .h5", path);
        break;
    default: return kpca_fail(err, KPCA_EUSAGE, "cannot write features as '%s'", kpca_format_name(fmt));
    }
    kpca_features_writer *w = kpca_calloc(1, sizeof *w);
    size_t len = strlen(path) + 1;
    if (w == NULL || (w->path = kpca_malloc(len)) == NULL) {
        kpca_free(w);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory writing '%s'", path);
    }
    memcpy(w->path, path, len);
    w->fmt = fmt;
    w->n = n;
    w->k = k;
    w->rows = n;
    w->labelled = labelled;
    w->fd = -1;
    w->column = meta && meta->column ? meta->column : 'z';
    /* CSV labels are the class names when there are some; LIBSVM's numbers */
    w->names = fmt == KPCA_FMT_CSV && meta && labelled ? meta->names : NULL;
    w->nnames = w->names != NULL ? meta->nnames : 0;
    *out = w;
    return KPCA_OK;
}

/* the HDF5 file: its attributes and datasets, `data` and `target` with
 * their storage allocated for the rows to come, in the order of a whole
 * write (data, target, class_names, eigenvalues), so that the bytes are
 * the same; then, for a file HDF5 writes itself, HDF5 closed and the rows
 * written raw at their offsets */
static kpca_status open_h5(kpca_features_writer *w, const kpca_features_meta *meta, kpca_error *err)
{
    const char *path = w->path;
    kpca_status st = kpca_h5_writer_open(&w->h5, path, err);
    if (st != KPCA_OK)
        return st;
    w->h5_live = 1;
    hid_t f = w->h5.file;
    size_t dz[2] = {w->n, w->k}, dk[2] = {w->k, 0};
    st = kpca_h5_attr_write_string(f, path, "format", meta && meta->format ? meta->format : KPCA_FEATURES_FORMAT, err);
    if (st == KPCA_OK) st = kpca_h5_attr_write_string(f, path, "kpca_version", KPCA_VERSION, err);
    if (st == KPCA_OK && meta && meta->model) st = kpca_h5_attr_write_string(f, path, "model", meta->model, err);
    if (st == KPCA_OK && meta && meta->model_id)
        st = kpca_h5_attr_write_long(f, path, "model_id", (long)meta->model_id, err);
    if (st == KPCA_OK && meta && meta->source) st = kpca_h5_attr_write_string(f, path, "source", meta->source, err);
    if (st == KPCA_OK) st = kpca_h5_create_doubles(f, path, "data", dz, &w->data_at, err);
    if (st == KPCA_OK && w->labelled) st = kpca_h5_create_ints(f, path, "target", w->n, &w->label_at, err);
    if (st == KPCA_OK && w->labelled && meta && meta->names)
        st = kpca_h5_write_strings(f, path, "class_names", meta->nnames, (const char *const *)meta->names, err);
    if (st == KPCA_OK && meta && meta->eigval) st = kpca_h5_write_doubles(f, path, "eigenvalues", dk, meta->eigval, err);
    if (st == KPCA_OK && w->h5.direct) {
        st = kpca_h5_writer_detach(&w->h5, &w->fd, err);
        if (st != KPCA_OK)
            w->h5_live = 0; /* removed */
    }
    return st;
}

kpca_status kpca_features_open(const char *path, kpca_format fmt, size_t n, size_t k, int labelled,
                               const kpca_features_meta *meta, kpca_features_writer **out, kpca_error *err)
{
    kpca_features_writer *w;
    kpca_status st = writer_new(path, fmt, n, k, labelled, meta, &w, err);
    if (st != KPCA_OK)
        return st;
    if (fmt == KPCA_FMT_HDF5) {
        st = open_h5(w, meta, err);
    } else if ((st = kpca_atomic_begin(&w->out, path, err)) == KPCA_OK) {
        w->out_live = 1;
        FILE *fp = w->out.fp;
        if (fmt == KPCA_FMT_NPY) {
            char head[KPCA_NPY_HEADER_MAX];
            size_t len = kpca_npy_header(n, k, head);
            w->data_at = len;
            if (!host_little())
                st = kpca_fail(err, KPCA_EUSAGE, "'%s': .npy files are written on little-endian machines only", path);
            else if (fwrite(head, 1, len, fp) != len)
                st = kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", path, strerror(errno));
        } else if (fmt == KPCA_FMT_CSV) {
            if (labelled)
                fputs("label", fp);
            for (size_t c = 0; c < k; c++)
                fprintf(fp, "%s%c%zu", !labelled && c == 0 ? "" : ",", w->column, c + 1);
            fputc('\n', fp);
        }
    }
    if (st != KPCA_OK) {
        kpca_features_abort(w);
        return st;
    }
    *out = w;
    return KPCA_OK;
}

/* n values of `size` bytes written raw at `at` of fd, little-endian */
static kpca_status put_raw(kpca_features_writer *w, const void *v, size_t n, size_t size, unsigned long long at,
                           kpca_error *err)
{
    const unsigned char *p = v;
    if (!host_little()) {
        if (n * size > w->le_cap) {
            kpca_free(w->le);
            w->le_cap = 0;
            if ((w->le = kpca_malloc(n * size)) == NULL)
                return kpca_fail(err, KPCA_ENOMEM, "out of memory writing '%s'", w->path);
            w->le_cap = n * size;
        }
        for (size_t i = 0; i < n; i++)
            for (size_t b = 0; b < size; b++)
                w->le[i * size + b] = p[i * size + size - 1 - b];
        p = w->le;
    }
    size_t len = n * size;
    while (len > 0) {
        ssize_t put = pwrite(w->fd, p, len, (off_t)at);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", w->path, put < 0 ? strerror(errno) : "no room");
        p += put;
        at += (unsigned long long)put;
        len -= (size_t)put;
    }
    return KPCA_OK;
}

static kpca_status put_text(kpca_features_writer *w, const double *z, const int *y, size_t rows, kpca_error *err)
{
    const size_t k = w->k;
    for (size_t i = 0; w->names != NULL && i < rows; i++)
        if (y[i] < 0 || (size_t)y[i] >= w->nnames)
            return kpca_fail(err, KPCA_EINTERNAL, "'%s': label %d of point %zu has no class name", w->path, y[i],
                             w->first + w->at + i + 1);
    FILE *fp = w->out.fp;
    for (size_t i = 0; i < rows && !ferror(fp); i++) {
        if (w->names != NULL)
            kpca_put_field(fp, w->names[y[i]], ",\"\r\n");
        else if (w->labelled)
            fprintf(fp, "%d", y[i]);
        const double *row = z + i * k;
        if (w->fmt == KPCA_FMT_CSV)
            for (size_t c = 0; c < k; c++)
                fprintf(fp, "%s%.17g", !w->labelled && c == 0 ? "" : ",", row[c]);
        else
            for (size_t c = 0; c < k; c++)
                fprintf(fp, " %zu:%.17g", c + 1, row[c]);
        fputc('\n', fp);
    }
    if (ferror(fp))
        return kpca_fail(err, KPCA_EIO, "cannot write '%s'", w->path);
    return KPCA_OK;
}

kpca_status kpca_features_put(kpca_features_writer *w, const double *z, const int *y, size_t rows, kpca_error *err)
{
    if (rows > w->rows - w->at)
        return kpca_fail(err, KPCA_EINTERNAL, "'%s': %zu rows more than the %zu announced", w->path,
                         rows - (w->rows - w->at), w->rows);
    if (w->labelled && y == NULL && rows > 0)
        return kpca_fail(err, KPCA_EINTERNAL, "'%s': rows without their labels", w->path);
    const size_t row = w->first + w->at, k = w->k;
    kpca_status st = KPCA_OK;
    if (rows == 0)
        return KPCA_OK;
    if (w->fmt == KPCA_FMT_HDF5 && w->fd >= 0) {
        st = put_raw(w, z, rows * k, sizeof(double), w->data_at + (unsigned long long)row * k * sizeof(double), err);
        if (st == KPCA_OK && w->labelled) {
            int32_t *lab = (int32_t *)(void *)y; /* int is int32 where kpca builds (H5T_NATIVE_INT written as I32LE) */
            st = put_raw(w, lab, rows, sizeof(int32_t), w->label_at + (unsigned long long)row * sizeof(int32_t), err);
        }
    } else if (w->fmt == KPCA_FMT_HDF5) {
        st = kpca_h5_write_rows(w->h5.file, w->path, "data", row, rows, z, err);
        if (st == KPCA_OK && w->labelled)
            st = kpca_h5_write_rows(w->h5.file, w->path, "target", row, rows, y, err);
    } else if (w->fmt == KPCA_FMT_NPY && w->fd >= 0) {
        st = put_raw(w, z, rows * k, sizeof(double), w->data_at + (unsigned long long)row * k * sizeof(double), err);
    } else if (w->fmt == KPCA_FMT_NPY) {
        if (fwrite(z, sizeof(double), rows * k, w->out.fp) != rows * k)
            st = kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", w->path, strerror(errno));
    } else {
        st = put_text(w, z, y, rows, err);
    }
    if (st == KPCA_OK)
        w->at += rows;
    return st;
}

kpca_status kpca_features_commit(kpca_features_writer *w, kpca_error *err)
{
    kpca_status st = KPCA_OK;
    if (w->part)
        st = kpca_fail(err, KPCA_EINTERNAL, "'%s': a part is placed, not committed", w->path);
    else if (w->at != w->rows)
        st = kpca_fail(err, KPCA_EINTERNAL, "'%s': %zu rows written of %zu", w->path, w->at, w->rows);
    if (st != KPCA_OK) {
        kpca_features_abort(w);
        return st;
    }
    if (w->h5_live) {
        w->h5_live = 0;
        st = kpca_h5_writer_close(&w->h5, KPCA_OK, err);
    } else if (w->out_live) {
        w->out_live = 0;
        if (ferror(w->out.fp)) {
            kpca_atomic_abort(&w->out);
            st = kpca_fail(err, KPCA_EIO, "cannot write '%s'", w->path);
        } else {
            st = kpca_atomic_commit(&w->out, err);
        }
    }
    writer_free(w);
    return st;
}

kpca_status kpca_features_write(const char *path, kpca_format fmt, const double *z, size_t n, size_t k,
                                const int *y, const kpca_features_meta *meta, kpca_error *err)
{
    kpca_features_writer *w;
    kpca_status st = kpca_features_open(path, fmt, n, k, y != NULL, meta, &w, err);
    if (st != KPCA_OK)
        return st;
    if ((st = kpca_features_put(w, z, y, n, err)) != KPCA_OK) {
        kpca_features_abort(w);
        return st;
    }
    return kpca_features_commit(w, err);
}

/* ---- one file written by several processes (kpca-mpi) --------------------- */

kpca_status kpca_features_share(kpca_features_writer *w, size_t rows, kpca_features_layout *lay, kpca_error *err)
{
    memset(lay, 0, sizeof *lay);
    const char *tmp = w->fmt == KPCA_FMT_HDF5 ? w->h5.out.tmp : w->out.tmp;
    if (w->part || w->at != 0 || rows > w->n)
        return kpca_fail(err, KPCA_EINTERNAL, "'%s': cannot share the file now", w->path);
    if (tmp == NULL)
        return kpca_fail(err, KPCA_EUSAGE, "'%s' is no regular file (standard output, a device or a pipe): several "
                         "processes write a regular file only", w->path);
    if (w->fmt == KPCA_FMT_HDF5 && w->fd < 0)
        return kpca_fail(err, KPCA_EIO, "'%s': its file system cannot reserve an HDF5 file's blocks "
                         "(posix_fallocate), so several processes cannot write it", w->path);
    if (strlen(tmp) >= sizeof lay->tmp)
        return kpca_fail(err, KPCA_EUSAGE, "'%s': a path longer than %zu bytes", w->path, sizeof lay->tmp - 1);
    if (w->fmt == KPCA_FMT_NPY && fflush(w->out.fp) != 0) /* the header in the file before the parts' rows */
        return kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", w->path, strerror(errno));
    lay->fmt = w->fmt;
    lay->n = w->n;
    lay->k = w->k;
    lay->labelled = w->labelled;
    lay->data_at = w->data_at;
    lay->label_at = w->label_at;
    snprintf(lay->tmp, sizeof lay->tmp, "%s", tmp);
    w->rows = rows;
    return KPCA_OK;
}

kpca_status kpca_features_open_part(const kpca_features_layout *lay, const char *path, size_t first, size_t rows,
                                    const kpca_features_meta *meta, kpca_features_writer **out, kpca_error *err)
{
    kpca_features_writer *w;
    if (first > lay->n || rows > lay->n - first)
        return kpca_fail(err, KPCA_EINTERNAL, "'%s': rows %zu to %zu of %zu", path, first + 1, first + rows, lay->n);
    kpca_status st = writer_new(path, lay->fmt, lay->n, lay->k, lay->labelled, meta, &w, err);
    if (st != KPCA_OK)
        return st;
    w->part = 1;
    w->first = first;
    w->rows = rows;
    w->data_at = lay->data_at;
    w->label_at = lay->label_at;
    if (lay->fmt == KPCA_FMT_NPY || lay->fmt == KPCA_FMT_HDF5) {
        if ((w->fd = open(lay->tmp, O_WRONLY)) < 0)
            st = kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", path, strerror(errno));
    } else { /* text: a file of its own beside path, its bytes placed at the end */
        size_t len = strlen(lay->tmp) + 1;
        if ((w->shared = kpca_malloc(len)) == NULL)
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory writing '%s'", path);
        else
            memcpy(w->shared, lay->tmp, len);
        if (st == KPCA_OK && (st = kpca_atomic_begin(&w->out, path, err)) == KPCA_OK)
            w->out_live = 1;
    }
    if (st != KPCA_OK) {
        kpca_features_abort(w);
        return st;
    }
    *out = w;
    return KPCA_OK;
}

kpca_status kpca_features_bytes(kpca_features_writer *w, unsigned long long *bytes, kpca_error *err)
{
    *bytes = 0;
    if (w->fmt != KPCA_FMT_CSV && w->fmt != KPCA_FMT_LIBSVM)
        return KPCA_OK;
    off_t end = -1;
    if (fflush(w->out.fp) != 0 || ferror(w->out.fp) || (end = ftello(w->out.fp)) < 0)
        return kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", w->path, strerror(errno ? errno : EIO));
    *bytes = (unsigned long long)end;
    return KPCA_OK;
}

/* the text part's file (closed) copied into w->shared at byte `at` */
static kpca_status copy_part(kpca_features_writer *w, unsigned long long at, kpca_error *err)
{
    int in = open(w->out.tmp, O_RDONLY), outfd = open(w->shared, O_WRONLY);
    size_t cap = (size_t)1 << 20;
    char *buf = in >= 0 && outfd >= 0 ? kpca_malloc(cap) : NULL;
    kpca_status st = KPCA_OK;
    if (in < 0 || outfd < 0)
        st = kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", w->path, strerror(errno));
    else if (buf == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory writing '%s'", w->path);
    for (;;) {
        if (st != KPCA_OK)
            break;
        ssize_t got = read(in, buf, cap);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            st = kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", w->path, strerror(errno));
            break;
        }
        if (got == 0)
            break;
        w->fd = outfd;
        st = put_raw(w, buf, (size_t)got, 1, at, err);
        w->fd = -1;
        at += (unsigned long long)got;
    }
    if (st == KPCA_OK && fsync(outfd) != 0 && errno != EINVAL)
        st = kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", w->path, strerror(errno));
    kpca_free(buf);
    if (in >= 0)
        close(in);
    if (outfd >= 0 && close(outfd) != 0 && st == KPCA_OK)
        st = kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", w->path, strerror(errno));
    return st;
}

kpca_status kpca_features_place(kpca_features_writer *w, unsigned long long at, kpca_error *err)
{
    kpca_status st = KPCA_OK;
    if (!w->part)
        st = kpca_fail(err, KPCA_EINTERNAL, "'%s': the file itself is committed, not placed", w->path);
    else if (w->at != w->rows)
        st = kpca_fail(err, KPCA_EINTERNAL, "'%s': %zu rows written of %zu", w->path, w->at, w->rows);
    if (st == KPCA_OK && w->fd >= 0) { /* NPY, HDF5: the rows are in place */
        if (fsync(w->fd) != 0 && errno != EINVAL)
            st = kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", w->path, strerror(errno));
        if (close(w->fd) != 0 && st == KPCA_OK)
            st = kpca_fail(err, KPCA_EIO, "cannot write '%s': %s", w->path, strerror(errno));
        w->fd = -1;
    } else if (st == KPCA_OK && w->out_live) {
        if ((st = kpca_atomic_close(&w->out, err)) != KPCA_OK)
            w->out_live = 0; /* removed */
        else
            st = copy_part(w, at, err);
    }
    kpca_features_abort(w); /* removes a text part's own file */
    return st;
}
