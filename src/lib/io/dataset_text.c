/* dataset_text.c - ESL and LIBSVM text readers (plain or gzip, via zlib). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include "io/dataset.h"
#include "io/textnum.h"
#include "support/mem.h"

/* A line reader over a gzFile (which also reads plain files).  It reads
 * chunks with gzread and splits lines itself, so that NUL bytes and gzip
 * damage are seen wherever they are. */
typedef struct {
    gzFile gz;
    const char *path;
    char *buf;          /* chunk buffer: bytes [pos, fill) not yet returned */
    size_t cap, pos, fill;
    int eof;
    char *line;         /* the current line, NUL-terminated, inside buf */
    size_t lineno;
    kpca_status status; /* why lr_next last returned -1 (err may be NULL) */
} line_reader;

#define LR_MAX_LINE ((size_t)1 << 30)

/* The readers' one out-of-memory message: KPCA_ENOMEM naming file and line. */
static kpca_status oom_at(kpca_error *err, const char *path, size_t lineno)
{
    return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s' line %zu", path, lineno);
}

static kpca_status lr_open(line_reader *lr, const char *path, kpca_error *err)
{
    memset(lr, 0, sizeof *lr);
    lr->path = path;
    errno = 0;
    lr->gz = gzopen(path, "rb");
    if (lr->gz == NULL)
        return kpca_fail(err, errno == ENOMEM ? KPCA_ENOMEM : KPCA_EIO, "cannot open '%s': %s", path,
                         errno ? strerror(errno) : "gzopen failed");
    lr->cap = 65536;
    lr->buf = kpca_malloc(lr->cap);
    if (lr->buf == NULL) {
        gzclose(lr->gz);
        lr->gz = NULL;
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    }
    return KPCA_OK;
}

static void lr_close(line_reader *lr)
{
    if (lr->gz != NULL)
        gzclose(lr->gz);
    kpca_free(lr->buf);
    lr->gz = NULL;
    lr->buf = NULL;
}

/* Cuts the line [pos, end) out of buf, NUL-terminates it (dropping a CR
 * before the LF) and checks it for NUL bytes. */
static int lr_take(line_reader *lr, size_t end, size_t next, kpca_error *err)
{
    char *line = lr->buf + lr->pos;
    size_t len = end - lr->pos;
    lr->lineno++;
    if (memchr(line, '\0', len) != NULL) {
        lr->status = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: contains a NUL byte (binary data?)", lr->path,
                               lr->lineno);
        return -1;
    }
    if (len > 0 && line[len - 1] == '\r')
        len--;
    line[len] = '\0';
    lr->line = line;
    lr->pos = next;
    return 1;
}

/* Reads the next line into lr->line without its line end (LF or CRLF).
 * Returns 1 on a line, 0 at end of file, -1 on error (err set). */
static int lr_next(line_reader *lr, kpca_error *err)
{
    size_t scanned = lr->pos;
    for (;;) {
        char *nl = memchr(lr->buf + scanned, '\n', lr->fill - scanned);
        if (nl != NULL) {
            size_t end = (size_t)(nl - lr->buf);
            return lr_take(lr, end, end + 1, err);
        }
        if (lr->eof) {
            if (lr->pos == lr->fill)
                return 0;
            return lr_take(lr, lr->fill, lr->fill, err); /* last line, no LF */
        }
        /* keep the partial line, make room, read another chunk */
        size_t keep = lr->fill - lr->pos;
        if (lr->pos > 0) {
            memmove(lr->buf, lr->buf + lr->pos, keep);
            lr->pos = 0;
            lr->fill = keep;
        }
        scanned = keep;
        if (lr->cap - lr->fill < 4096) {
            if (lr->cap >= LR_MAX_LINE) {
                lr->status = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: line longer than 1 GiB", lr->path,
                                       lr->lineno + 1);
                return -1;
            }
            char *nb = kpca_grow(lr->buf, &lr->cap, lr->cap + 1, 1, 0); /* doubles */
            if (nb == NULL) {
                lr->status = oom_at(err, lr->path, lr->lineno + 1);
                return -1;
            }
            lr->buf = nb;
        }
        size_t room = lr->cap - lr->fill - 1; /* one byte for the final NUL */
        int got = gzread(lr->gz, lr->buf + lr->fill, (unsigned)(room > (1u << 30) ? (1u << 30) : room));
        int zerr = Z_OK;
        const char *msg = got <= 0 ? gzerror(lr->gz, &zerr) : NULL;
        if (got < 0 || (zerr != Z_OK && zerr != Z_STREAM_END)) {
            lr->status = kpca_fail(err, zerr == Z_MEM_ERROR ? KPCA_ENOMEM : KPCA_EFORMAT,
                                   "'%s' near line %zu: corrupt or truncated gzip data (%s)", lr->path,
                                   lr->lineno + 1, msg != NULL ? msg : "read error");
            return -1;
        }
        if (got == 0)
            lr->eof = 1;
        lr->fill += (size_t)got;
    }
}

static int is_blank(char c)
{
    return kpca_text_blank(c);
}

static const char *skip_blanks(const char *p)
{
    while (is_blank(*p))
        p++;
    return p;
}

/* Copies the token at p (up to a blank) into out for messages. */
static const char *token_at(const char *p, char *out, size_t cap)
{
    size_t i = 0;
    while (p[i] != '\0' && !is_blank(p[i]) && i + 1 < cap && i < 40) {
        out[i] = p[i];
        i++;
    }
    out[i] = '\0';
    if (p[i] != '\0' && !is_blank(p[i]))
        snprintf(out + i, cap - i, "...");
    return out;
}

/* Parses a finite double ending at a blank, end of line or `stop` char. */
static int parse_value(const char **pp, char stop, double *v)
{
    return kpca_parse_number(pp, stop, v);
}

static int parse_label(const char **pp, int *label)
{
    double d;
    int r = parse_value(pp, '\0', &d);
    if (r != 0)
        return -1;
    if (d != floor(d) || d < INT_MIN || d > INT_MAX)
        return -1;
    *label = (int)d;
    return 0;
}

/* Growable arrays for rows of unknown count. */
typedef struct {
    double *x;
    int *y;
    size_t n, cap_rows, dim;
} row_buf;

static int rows_reserve(row_buf *rb, size_t rows)
{
    if (rows <= rb->cap_rows)
        return 0;
    size_t cap = rb->cap_rows ? rb->cap_rows : 256;
    while (cap < rows)
        cap *= 2;
    double *nx = kpca_alloc_array(cap, rb->dim ? rb->dim : 1, sizeof(double));
    int *ny = kpca_alloc_array(cap, 1, sizeof(int));
    if (nx == NULL || ny == NULL) {
        kpca_free(nx);
        kpca_free(ny);
        return -1;
    }
    if (rb->n) {
        memcpy(nx, rb->x, rb->n * rb->dim * sizeof(double));
        memcpy(ny, rb->y, rb->n * sizeof(int));
    }
    kpca_free(rb->x);
    kpca_free(rb->y);
    rb->x = nx;
    rb->y = ny;
    rb->cap_rows = cap;
    return 0;
}

kpca_status kpca_read_esl(const char *path, size_t dim, kpca_dataset *ds, kpca_error *err)
{
    line_reader lr;
    memset(ds, 0, sizeof *ds);
    kpca_status st = lr_open(&lr, path, err);
    if (st != KPCA_OK)
        return st;
    row_buf rb = {NULL, NULL, 0, 0, dim};
    double *tmp = NULL; /* first line, before dim is known */
    size_t tmp_cap = 0;
    char tok[64];
    int r;
    while ((r = lr_next(&lr, err)) == 1) {
        const char *p = skip_blanks(lr.line);
        if (*p == '\0')
            continue;
        int label;
        const char *lab_at = skip_blanks(p);
        if (parse_label(&p, &label) != 0) {
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected an integer label, found '%s'",
                           path, lr.lineno, token_at(lab_at, tok, sizeof tok));
            goto fail;
        }
        if (rb.dim == 0) { /* first row: count its values */
            size_t count = 0;
            for (const char *q = skip_blanks(p); *q != '\0'; q = skip_blanks(q)) {
                double v;
                int pr = parse_value(&q, '\0', &v);
                if (pr != 0) {
                    st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: value %zu: expected a finite number, found '%s'",
                                   path, lr.lineno, count + 1, token_at(q, tok, sizeof tok));
                    goto fail;
                }
                if (count == tmp_cap) {
                    double *nt = kpca_grow(tmp, &tmp_cap, count + 1, sizeof *tmp, 512);
                    if (nt == NULL) {
                        st = oom_at(err, path, lr.lineno);
                        goto fail;
                    }
                    tmp = nt;
                }
                tmp[count++] = v;
            }
            if (count == 0) {
                st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: a label but no values", path, lr.lineno);
                goto fail;
            }
            rb.dim = count;
            if (rows_reserve(&rb, 1) != 0) {
                st = oom_at(err, path, lr.lineno);
                goto fail;
            }
            memcpy(rb.x, tmp, count * sizeof(double));
            rb.y[0] = label;
            rb.n = 1;
            continue;
        }
        if (rows_reserve(&rb, rb.n + 1) != 0) {
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s' (%zu rows)", path, rb.n + 1);
            goto fail;
        }
        double *row = rb.x + rb.n * rb.dim;
        size_t count = 0;
        for (const char *q = skip_blanks(p); *q != '\0'; q = skip_blanks(q)) {
            double v;
            int pr = parse_value(&q, '\0', &v);
            if (pr != 0) {
                st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: value %zu: expected a finite number, found '%s'",
                               path, lr.lineno, count + 1, token_at(q, tok, sizeof tok));
                goto fail;
            }
            if (count == rb.dim) {
                count++;
                while (*skip_blanks(q) != '\0') {
                    q = skip_blanks(q);
                    while (*q != '\0' && !is_blank(*q))
                        q++;
                    count++;
                }
                break;
            }
            row[count++] = v;
        }
        if (count != rb.dim) {
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected %zu values after the label, found %zu",
                           path, lr.lineno, rb.dim, count);
            goto fail;
        }
        rb.y[rb.n++] = label;
    }
    if (r < 0) {
        st = lr.status;
        goto fail;
    }
    if (rb.n == 0) {
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': no data rows", path);
        goto fail;
    }
    if (dim != 0 && rb.dim != dim) {
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': rows have %zu values, expected %zu", path, rb.dim, dim);
        goto fail;
    }
    lr_close(&lr);
    kpca_free(tmp);
    ds->x = rb.x;
    ds->y = rb.y;
    ds->n = rb.n;
    ds->dim = rb.dim;
    return KPCA_OK;
fail:
    lr_close(&lr);
    kpca_free(tmp);
    kpca_free(rb.x);
    kpca_free(rb.y);
    return st;
}

/* LIBSVM sparse text: two passes over a buffer of (index, value) pairs. */
kpca_status kpca_read_libsvm(const char *path, size_t dim, kpca_dataset *ds, kpca_error *err)
{
    line_reader lr;
    memset(ds, 0, sizeof *ds);
    kpca_status st = lr_open(&lr, path, err);
    if (st != KPCA_OK)
        return st;
    size_t *rowstart = NULL, *idx = NULL;
    double *val = NULL;
    int *lab = NULL;
    size_t nrows = 0, rows_cap = 0, nnz = 0, nnz_cap = 0, maxidx = 0;
    char tok[64];
    int r;
    while ((r = lr_next(&lr, err)) == 1) {
        const char *p = skip_blanks(lr.line);
        if (*p == '\0')
            continue;
        if (nrows + 1 >= rows_cap) { /* rowstart has one more entry than rows */
            size_t c1 = rows_cap, c2 = rows_cap;
            size_t *nr = kpca_grow(rowstart, &c1, nrows + 2, sizeof *rowstart, 1024);
            if (nr != NULL)
                rowstart = nr;
            int *nl = nr == NULL ? NULL : kpca_grow(lab, &c2, nrows + 2, sizeof *lab, 1024);
            if (nl == NULL) {
                st = oom_at(err, path, lr.lineno);
                goto fail;
            }
            lab = nl;
            rows_cap = c1;
        }
        const char *lab_at = skip_blanks(p);
        if (parse_label(&p, &lab[nrows]) != 0) {
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected an integer label, found '%s'",
                           path, lr.lineno, token_at(lab_at, tok, sizeof tok));
            goto fail;
        }
        rowstart[nrows] = nnz;
        size_t prev = 0;
        for (const char *q = skip_blanks(p); *q != '\0'; q = skip_blanks(q)) {
            char *end;
            if (*q < '0' || *q > '9') {
                st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected index:value, found '%s'",
                               path, lr.lineno, token_at(q, tok, sizeof tok));
                goto fail;
            }
            errno = 0;
            unsigned long long ix = strtoull(q, &end, 10);
            if (*end != ':') {
                st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected index:value, found '%s'",
                               path, lr.lineno, token_at(q, tok, sizeof tok));
                goto fail;
            }
            if (errno == ERANGE || ix == 0 || ix > (unsigned long long)INT_MAX) {
                st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: index %s out of range (indices start at 1)",
                               path, lr.lineno, token_at(q, tok, sizeof tok));
                goto fail;
            }
            if (ix <= prev) {
                st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: index %llu after %zu: indices must be strictly ascending",
                               path, lr.lineno, ix, prev);
                goto fail;
            }
            if (dim != 0 && ix > dim) {
                st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: index %llu beyond the dimension %zu",
                               path, lr.lineno, ix, dim);
                goto fail;
            }
            const char *vq = end + 1;
            double v;
            if (is_blank(*vq) || parse_value(&vq, '\0', &v) != 0) {
                st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: index %llu: expected a finite number, found '%s'",
                               path, lr.lineno, ix, token_at(end + 1, tok, sizeof tok));
                goto fail;
            }
            if (nnz == nnz_cap) {
                size_t c1 = nnz_cap, c2 = nnz_cap;
                size_t *ni = kpca_grow(idx, &c1, nnz + 1, sizeof *idx, 65536);
                if (ni != NULL)
                    idx = ni;
                double *nv = ni == NULL ? NULL : kpca_grow(val, &c2, nnz + 1, sizeof *val, 65536);
                if (nv == NULL) {
                    st = oom_at(err, path, lr.lineno);
                    goto fail;
                }
                val = nv;
                nnz_cap = c1;
            }
            idx[nnz] = (size_t)ix;
            val[nnz] = v;
            nnz++;
            prev = (size_t)ix;
            if (prev > maxidx)
                maxidx = prev;
            q = vq;
        }
        nrows++;
    }
    if (r < 0) {
        st = lr.status;
        goto fail;
    }
    if (nrows == 0) {
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': no data rows", path);
        goto fail;
    }
    rowstart[nrows] = nnz;
    size_t d = dim != 0 ? dim : maxidx;
    if (d == 0) {
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': no feature values in any row", path);
        goto fail;
    }
    st = kpca_dataset_alloc(ds, nrows, d, err);
    if (st != KPCA_OK)
        goto fail;
    for (size_t i = 0; i < nrows; i++) {
        ds->y[i] = lab[i];
        for (size_t j = rowstart[i]; j < rowstart[i + 1]; j++)
            ds->x[i * d + idx[j] - 1] = val[j];
    }
    lr_close(&lr);
    kpca_free(rowstart);
    kpca_free(idx);
    kpca_free(val);
    kpca_free(lab);
    return KPCA_OK;
fail:
    lr_close(&lr);
    kpca_free(rowstart);
    kpca_free(idx);
    kpca_free(val);
    kpca_free(lab);
    return st;
}
