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
#include "io/labels.h"
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
    const char *wide = lr->lineno == 1 ? kpca_text_wide((const unsigned char *)line, len) : NULL;
    if (wide != NULL) {
        lr->status = kpca_text_wide_fail(lr->path, wide, err);
        return -1;
    }
    if (memchr(line, '\0', len) != NULL) {
        lr->status = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: contains a NUL byte (binary data?)", lr->path,
                               lr->lineno);
        return -1;
    }
    if (len > 0 && line[len - 1] == '\r')
        len--;
    line[len] = '\0';
    if (lr->lineno == 1) { /* a UTF-8 byte-order mark is no part of the text */
        size_t bom = kpca_text_bom(line, len);
        line += bom;
    }
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

/* 1 when v is an integer in int's range (a label ESL can hold) */
static int int_valued(double v)
{
    return v == floor(v) && v >= INT_MIN && v <= INT_MAX;
}

/* A LIBSVM label: an integer */
static int parse_label(const char **pp, int *label)
{
    double d;
    if (parse_value(pp, '\0', &d) != 0 || !int_valued(d))
        return -1;
    *label = (int)d;
    return 0;
}

/* Whitespace text: every line the same count of numbers.  The first column
 * is the labels (ESL, "label v1 ... vD") when, over the first
 * KPCA_ESL_DECIDE_ROWS rows, it holds integers of few distinct values
 * (kpca_labels_esl_like); else every column is a value and the data is
 * unlabelled.  Rows after the
 * decision must keep an integer in a label column.  The rows are read
 * whole (ncol numbers each) and the label column cut out at the end. */
kpca_status kpca_read_esl(const char *path, size_t dim, kpca_dataset *ds, kpca_error *err)
{
    line_reader lr;
    memset(ds, 0, sizeof *ds);
    kpca_status st = lr_open(&lr, path, err);
    if (st != KPCA_OK)
        return st;
    double *x = NULL;          /* n rows of ncol numbers */
    size_t n = 0, xcap = 0, ncol = 0, first_line = 0, classes = 0;
    int decided = 0, labelled = 0, ints_so_far = 1; /* the first column holds integers */
    char tok[64];
    int r;
    while ((r = lr_next(&lr, err)) == 1) {
        const char *p = skip_blanks(lr.line);
        if (*p == '\0')
            continue;
        size_t count = 0;
        for (const char *q = p; *q != '\0'; q = skip_blanks(q)) {
            double v;
            const char *at = q;
            if (parse_value(&q, '\0', &v) != 0) {
                if (count == 0)
                    st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected a number, found '%s' (if the first "
                                   "column holds class names, give --label first)", path, lr.lineno,
                                   token_at(at, tok, sizeof tok));
                else
                    st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: value %zu: expected a finite number, found '%s'",
                                   path, lr.lineno, count + (labelled || !decided ? 0 : 1), token_at(at, tok, sizeof tok));
                goto fail;
            }
            if (ncol != 0 && count == ncol) { /* more than the first row: count them for the message */
                count++;
                for (q = skip_blanks(q); *q != '\0'; q = skip_blanks(q)) {
                    while (*q != '\0' && !is_blank(*q))
                        q++;
                    count++;
                }
                break;
            }
            double *nx = kpca_grow(x, &xcap, n * (ncol ? ncol : 1) + count + 1, sizeof *x, 4096);
            if (nx == NULL) {
                st = oom_at(err, path, lr.lineno);
                goto fail;
            }
            x = nx;
            x[n * ncol + count++] = v;
        }
        if (ncol == 0) {
            ncol = count;
            first_line = lr.lineno;
        } else if (count != ncol) {
            if (ints_so_far && (!decided || labelled))
                st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected %zu values after the label, found %zu",
                               path, lr.lineno, ncol - 1, count > 0 ? count - 1 : 0);
            else
                st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: %zu numbers, expected %zu as on line %zu", path,
                               lr.lineno, count, ncol, first_line);
            goto fail;
        }
        double lab = x[n * ncol];
        if (decided && labelled && !int_valued(lab)) {
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected an integer label (as in the first column of "
                           "the lines before), found '%s'", path, lr.lineno, token_at(p, tok, sizeof tok));
            goto fail;
        }
        ints_so_far = ints_so_far && int_valued(lab);
        n++;
        if (!decided && n == KPCA_ESL_DECIDE_ROWS) {
            decided = 1;
            labelled = ncol >= 2 && kpca_labels_esl_like(x, n, ncol, &classes);
        }
    }
    if (r < 0) {
        st = lr.status;
        goto fail;
    }
    if (n == 0) {
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': no data rows", path);
        goto fail;
    }
    if (!decided)
        labelled = ncol >= 2 && kpca_labels_esl_like(x, n, ncol, &classes);
    size_t vdim = labelled ? ncol - 1 : ncol;
    if (dim != 0 && vdim != dim) {
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': rows have %zu values%s, expected %zu", path, vdim,
                       labelled ? " after the label" : "", dim);
        goto fail;
    }
    lr_close(&lr);
    ds->y = kpca_calloc(n, sizeof *ds->y);
    if (ds->y == NULL) {
        kpca_free(x);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s' (%zu rows)", path, n);
    }
    if (labelled) { /* the labels out, the values moved up in place */
        for (size_t i = 0; i < n; i++) {
            ds->y[i] = (int)x[i * ncol];
            memmove(x + i * vdim, x + i * ncol + 1, vdim * sizeof *x);
        }
        ds->label_col = 1;
    } else {
        ds->unlabelled = 1;
    }
    ds->x = x;
    ds->n = n;
    ds->dim = vdim;
    return KPCA_OK;
fail:
    lr_close(&lr);
    kpca_free(x);
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
