/* dataset_text.c - ESL and LIBSVM text readers (plain or gzip, via zlib). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "io/dataset_text.h"
#include "io/labels.h"
#include "text/lines.h"
#include "text/textfile.h"
#include "text/textnum.h"
#include "support/mem.h"

/* The readers' one out-of-memory message: KPCA_ENOMEM naming file and line. */
static kpca_status oom_at(kpca_error *err, const char *path, size_t lineno)
{
    return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s' line %zu", path, lineno);
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

/* A LIBSVM label: an integer */
static int parse_label(const char **pp, int *label)
{
    double d;
    return parse_value(pp, '\0', &d) == 0 && kpca_label_of_double(d, label) ? 0 : -1;
}

/* Whitespace text, a row at a time: every line the same count of numbers.
 * The first column is the labels (ESL, "label v1 ... vD") when, over the
 * first KPCA_ESL_DECIDE_ROWS rows, it is set apart from the others by value
 * (kpca_labels_esl_like: integers of few distinct values, the other columns
 * not all integers); else every column is a value and the data is
 * unlabelled; a first column that is labels but for a few values is
 * refused.  Rows after the decision must keep an integer in a label
 * column.  The rows before the decision are held (ncol numbers each). */
struct kpca_esl_rows {
    kpca_lines lr;
    char *path;
    size_t ncol, first_line, classes;
    int decided, labelled, ints_so_far; /* ints_so_far: the first column holds integers */
    size_t nonint_line;                 /* the line where it first did not */
    double *head;                       /* the rows read before the decision */
    size_t head_n, head_cap, head_at;   /* head_at: the next of them to hand out */
    unsigned long long head_byte;       /* the byte after them, on line head_line + 1 */
    size_t head_line;
    unsigned long long start_byte;      /* the byte after the lines --skip-rows skips, */
    size_t start_line;                  /* on this line */
    double *row;                        /* one row's ncol numbers, after the decision */
    size_t n;                           /* rows parsed */
    kpca_status failed;                 /* the error a read stopped at (KPCA_OK: none) */
    char msg[KPCA_ERRMSG_MAX];          /* and its message */
};

void kpca_esl_rows_close(kpca_esl_rows *r)
{
    if (r == NULL)
        return;
    kpca_lines_close(&r->lr);
    kpca_free(r->head);
    kpca_free(r->row);
    kpca_free(r->path);
    kpca_free(r);
}

/* Keeps the error st (its message in err, when there is one) for the
 * reads after it */
static void esl_failed(kpca_esl_rows *r, kpca_status st, const kpca_error *err)
{
    r->failed = st;
    snprintf(r->msg, sizeof r->msg, "%s", err != NULL ? err->msg : "");
}

/* 1 when a line (p, blanks skipped) has fields and none is a number or a
 * missing value's mark: a header row of names (one name: a one-column
 * file's, which --label first would leave with no value) */
static int words_only(const char *p)
{
    size_t fields = 0;
    for (const char *q = p; *q != '\0'; q = skip_blanks(q)) {
        double v;
        const char *at = q;
        if (parse_value(&q, '\0', &v) == 0)
            return 0;
        char word[16] = ""; /* a missing value's mark (nan, NA, ?...) is no name */
        for (q = at; *q != '\0' && !is_blank(*q);)
            q++;
        if ((size_t)(q - at) < sizeof word) {
            memcpy(word, at, (size_t)(q - at));
            if (kpca_labels_missing_mark(word))
                return 0;
        }
        fields++;
    }
    return fields >= 1;
}

/* Parses the next non-blank line into out (room for ncol numbers; for the
 * first line, out is grown as the line is counted).  1: a row, 0: the end,
 * -1: an error (err set). */
static int esl_line(kpca_esl_rows *r, double **out, size_t *cap, kpca_error *err)
{
    const char *path = r->path;
    char tok[64];
    int got;
    const char *p = NULL;
    /* blank lines and comment lines ('#' first, as numpy.loadtxt skips
     * them: numpy.savetxt's header and footer) are no rows */
    while ((got = kpca_lines_next(&r->lr, err)) == 1 && (*(p = skip_blanks(r->lr.line)) == '\0' || kpca_text_comment(*p, ' ')))
        ;
    if (got <= 0) {
        if (got < 0)
            esl_failed(r, r->lr.status, err);
        return got;
    }
    size_t count = 0;
    kpca_status st = KPCA_OK;
    for (const char *q = p; *q != '\0' && !kpca_text_comment(*q, ' '); q = skip_blanks(q)) { /* a comment (text/textnum.h) */
        double v;
        const char *at = q;
        if (parse_value(&q, '\0', &v) != 0) {
            if (kpca_text_complex(at))
                st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected a number, found '%s', %s", path,
                               r->lr.lineno, token_at(at, tok, sizeof tok), kpca_text_mark_hint(at, ' ', '.'));
            else if (count == 0 && r->n == 0 && words_only(p))
                st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected a number, found '%s': a header row of "
                               "names? give --header yes (whitespace text with a header is read as delimited text)",
                               path, r->lr.lineno, token_at(at, tok, sizeof tok));
            else if (count == 0)
                st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected a number, found '%s' (if the first "
                               "column holds class names, give --label first)", path, r->lr.lineno,
                               token_at(at, tok, sizeof tok));
            else
                st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: value %zu: expected a finite number, found '%s'",
                               path, r->lr.lineno, count + (r->labelled || !r->decided ? 0 : 1),
                               token_at(at, tok, sizeof tok));
            break;
        }
        if (r->ncol != 0 && count == r->ncol) { /* more than the first row: count them for the message */
            count++;
            for (q = skip_blanks(q); *q != '\0' && !kpca_text_comment(*q, ' '); q = skip_blanks(q)) {
                while (*q != '\0' && !is_blank(*q))
                    q++;
                count++;
            }
            break;
        }
        if (count == *cap) {
            double *nx = kpca_grow(*out, cap, count + 1, sizeof **out, 256);
            if (nx == NULL) {
                st = oom_at(err, path, r->lr.lineno);
                break;
            }
            *out = nx;
        }
        (*out)[count++] = v;
    }
    if (st == KPCA_OK && r->ncol == 0) {
        r->ncol = count;
        r->first_line = r->lr.lineno;
    } else if (st == KPCA_OK && count != r->ncol) {
        if (r->ints_so_far && (!r->decided || r->labelled))
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected %zu values after the label, found %zu", path,
                           r->lr.lineno, r->ncol - 1, count > 0 ? count - 1 : 0);
        else
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: %zu numbers, expected %zu as on line %zu", path,
                           r->lr.lineno, count, r->ncol, r->first_line);
    }
    if (st == KPCA_OK && r->decided && r->labelled && !kpca_label_of_double((*out)[0], NULL))
        st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected an integer label (as in the first column of "
                       "the lines before), found '%s'", path, r->lr.lineno, token_at(p, tok, sizeof tok));
    if (st != KPCA_OK) {
        esl_failed(r, st, err);
        return -1;
    }
    if (r->ints_so_far && !kpca_label_of_double((*out)[0], NULL))
        r->nonint_line = r->lr.lineno; /* the first label that is no integer, for the rule's message */
    r->ints_so_far = r->ints_so_far && kpca_label_of_double((*out)[0], NULL);
    r->n++;
    return 1;
}

kpca_status kpca_esl_rows_open(const char *path, size_t dim, size_t skip, kpca_esl_rows **out, size_t *vdim,
                               int *labelled, kpca_error *err)
{
    *out = NULL;
    kpca_esl_rows *r = kpca_calloc(1, sizeof *r);
    if (r == NULL || (r->path = kpca_strdup(path)) == NULL) {
        kpca_free(r);
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    }
    r->ints_so_far = 1;
    kpca_status st = kpca_lines_open(&r->lr, path, err);
    for (size_t k = 0; st == KPCA_OK && k < skip; k++) { /* --skip-rows: lines, whatever they hold */
        int got = kpca_lines_next(&r->lr, err);
        if (got < 0)
            st = r->lr.status;
        else if (got == 0)
            st = kpca_textfile_skip_fail(path, k, skip, err);
    }
    r->start_byte = st == KPCA_OK ? kpca_lines_tell(&r->lr) : 0;
    r->start_line = r->lr.lineno + 1;
    /* the rows before the decision, held */
    while (st == KPCA_OK && r->head_n < KPCA_ESL_DECIDE_ROWS) {
        double *row = r->head_n == 0 ? NULL : r->head + r->head_n * r->ncol;
        size_t cap = r->head_n == 0 ? 0 : r->ncol, need = (r->head_n + 1) * (r->ncol ? r->ncol : 1);
        if (r->head_n > 0 && need > r->head_cap) {
            double *nh = kpca_grow(r->head, &r->head_cap, need, sizeof *r->head, 4096);
            if (nh == NULL) {
                st = oom_at(err, path, r->lr.lineno + 1);
                break;
            }
            r->head = nh;
            row = r->head + r->head_n * r->ncol;
        }
        int got = esl_line(r, r->head_n == 0 ? &r->head : &row, r->head_n == 0 ? &r->head_cap : &cap, err);
        if (got < 0)
            st = r->failed;
        if (got <= 0)
            break;
        r->head_n++;
    }
    if (st == KPCA_OK && r->head_n == 0)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': no data rows", path);
    if (st == KPCA_OK) {
        r->decided = 1;
        size_t bad;
        const int like = r->ncol >= 2 ? kpca_labels_esl_like(r->head, r->head_n, r->ncol, &r->classes, &bad) : 0;
        r->labelled = like == 1;
        if (like < 0)
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: the first column holds class labels (integers, %zu "
                           "classes) but for %.17g here, which is no integer: a damaged line? fix it, or give "
                           "--label none to read the first column as values", path, r->nonint_line, r->classes,
                           r->head[bad * r->ncol]);
        *vdim = r->labelled ? r->ncol - 1 : r->ncol;
        if (dim != 0 && *vdim != dim)
            st = kpca_fail(err, KPCA_EFORMAT, "'%s': rows have %zu values%s, expected %zu", path, *vdim,
                           r->labelled ? " after the label" : "", dim);
    }
    if (st == KPCA_OK && (r->row = kpca_alloc_array(r->ncol, 1, sizeof *r->row)) == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    if (st != KPCA_OK) {
        kpca_esl_rows_close(r);
        return st;
    }
    r->head_byte = kpca_lines_tell(&r->lr);
    r->head_line = r->lr.lineno;
    *labelled = r->labelled;
    *out = r;
    return KPCA_OK;
}

void kpca_esl_rows_start(const kpca_esl_rows *r, unsigned long long *byte, size_t *line)
{
    *byte = r->start_byte;
    *line = r->start_line;
}

kpca_status kpca_esl_rows_rewind(kpca_esl_rows *r, kpca_error *err)
{
    kpca_status st = kpca_esl_rows_jump(r, r->head_byte, r->head_line + 1, 0, err);
    r->head_at = 0;
    return st;
}

kpca_status kpca_esl_rows_read(kpca_esl_rows *r, size_t max, double *x, int *y, size_t *got, kpca_error *err)
{
    *got = 0;
    const size_t ncol = r->ncol, vdim = r->labelled ? ncol - 1 : ncol;
    while (*got < max) {
        const double *row;
        if (r->head_at < r->head_n) {
            row = r->head + r->head_at++ * ncol;
        } else {
            if (r->failed != KPCA_OK) /* a read that failed fails again, as the source promises */
                return kpca_fail(err, r->failed, "%s", r->msg);
            size_t cap = ncol;
            int g = esl_line(r, &r->row, &cap, err);
            if (g < 0)
                return r->failed;
            if (g == 0)
                break;
            row = r->row;
        }
        memcpy(x + *got * vdim, row + (r->labelled ? 1 : 0), vdim * sizeof *x);
        if (y != NULL)
            y[*got] = r->labelled ? (int)row[0] : 0;
        ++*got;
    }
    return KPCA_OK;
}

kpca_status kpca_esl_rows_jump(kpca_esl_rows *r, unsigned long long byte, size_t line, unsigned long long end,
                               kpca_error *err)
{
    kpca_status st = kpca_lines_jump(&r->lr, byte, line, end, err);
    if (st != KPCA_OK)
        return st;
    r->head_at = r->head_n; /* the rows held are the first rows' */
    r->failed = KPCA_OK;
    return KPCA_OK;
}

kpca_status kpca_read_esl(const char *path, size_t dim, size_t skip, kpca_dataset *ds, kpca_error *err)
{
    memset(ds, 0, sizeof *ds);
    kpca_esl_rows *r;
    size_t vdim;
    int labelled;
    kpca_status st = kpca_esl_rows_open(path, dim, skip, &r, &vdim, &labelled, err);
    if (st != KPCA_OK)
        return st;
    /* the held rows become the data's first rows, the label column cut
     * out in place; the rows after them are appended */
    size_t n = r->head_n, xcap = r->head_cap, ycap = 0, got;
    double *x = r->head;
    r->head = NULL;
    r->head_at = r->head_n = 0;
    int *y = kpca_alloc_array(n ? n : 1, 1, sizeof *y);
    if (y == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s' (%zu rows)", path, n);
    else
        ycap = n ? n : 1;
    for (size_t i = 0; st == KPCA_OK && i < n; i++) {
        y[i] = labelled ? (int)x[i * r->ncol] : 0;
        memmove(x + i * vdim, x + i * r->ncol + (labelled ? 1 : 0), vdim * sizeof *x);
    }
    while (st == KPCA_OK) {
        double *nx = kpca_grow(x, &xcap, (n + 1) * vdim, sizeof *x, 256 * vdim);
        int *ny = nx == NULL ? NULL : kpca_grow(y, &ycap, n + 1, sizeof *y, 256);
        if (nx != NULL)
            x = nx;
        if (ny == NULL) {
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s' (%zu rows)", path, n + 1);
            break;
        }
        y = ny;
        size_t room = xcap / vdim - n < ycap - n ? xcap / vdim - n : ycap - n;
        if ((st = kpca_esl_rows_read(r, room, x + n * vdim, y + n, &got, err)) != KPCA_OK || got == 0)
            break;
        n += got;
    }
    kpca_esl_rows_close(r);
    if (st != KPCA_OK) {
        kpca_free(x);
        kpca_free(y);
        return st;
    }
    ds->x = x;
    ds->y = y;
    ds->n = n;
    ds->dim = vdim;
    ds->unlabelled = !labelled;
    ds->label_col = labelled ? 1 : 0;
    return KPCA_OK;
}

/* LIBSVM: one line's label and (index, value) pairs, appended at idx/val
 * (from *nnz on, grown); its largest index raises *maxidx.  dim != 0: an
 * index beyond it is an error.  1: a line, 0: the end, -1: an error (err,
 * *status set). */
static int libsvm_line(kpca_lines *lr, size_t dim, int *label, size_t **idx, double **val, size_t *nnz,
                       size_t *cap, size_t *maxidx, kpca_status *status, kpca_error *err)
{
    const char *path = lr->path;
    char tok[64];
    const char *p = NULL;
    int r;
    /* blank lines and SVMlight's comment lines ('#' first: scikit-learn's
     * dump_svmlight_file(comment=...) writes them) are no rows */
    while ((r = kpca_lines_next(lr, err)) == 1 && (*(p = skip_blanks(lr->line)) == '\0' || *p == '#'))
        ;
    if (r <= 0) {
        *status = lr->status;
        return r;
    }
    kpca_status st = KPCA_OK;
    const char *lab_at = p;
    if (parse_label(&p, label) != 0) {
        token_at(lab_at, tok, sizeof tok);
        if (strchr(tok, ',') != NULL)
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: the labels '%s' of a multi-label point (scikit-learn's "
                           "dump_svmlight_file(multilabel=True) writes them so): kpca takes one label a point",
                           path, lr->lineno, tok);
        else if (strchr(tok, ':') != NULL)
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected an integer label, found the pair '%s': a point "
                           "without a label (multi-label data writes a point of no class so)? kpca takes one label a "
                           "point", path, lr->lineno, tok);
        else
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected an integer label, found '%s'", path,
                           lr->lineno, tok);
    }
    size_t prev = 0;
    for (const char *q = skip_blanks(p); st == KPCA_OK && *q != '\0' && *q != '#'; q = skip_blanks(q)) {
        char *end; /* (a '#' starts SVMlight's comment, to the line's end) */
        if (strncmp(q, "qid:", 4) == 0) {
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: '%s' is a query id (SVMlight's ranking data), not a "
                           "feature: kpca reads none; sed 's/ qid:[^ ]*//' removes them", path, lr->lineno,
                           token_at(q, tok, sizeof tok));
            break;
        }
        if (*q < '0' || *q > '9') {
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected index:value, found '%s'", path, lr->lineno,
                           token_at(q, tok, sizeof tok));
            break;
        }
        errno = 0;
        unsigned long long ix = strtoull(q, &end, 10);
        if (*end != ':') {
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: expected index:value, found '%s'", path, lr->lineno,
                           token_at(q, tok, sizeof tok));
        } else if (ix == 0 && errno != ERANGE) {
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: index 0 ('%s'): LIBSVM's indices start at 1, and "
                           "scikit-learn's dump_svmlight_file writes them from 0 unless given zero_based=False: dump "
                           "the data so, or add 1 to every index of the (uncompressed) text with: awk '!/^[ \\t]*#/ { "
                           "for (i = 2; i <= NF && $i !~ /^#/; i++) { split($i, f, \":\"); $i = f[1] + 1 \":\" "
                           "f[2] } } 1'",
                           path, lr->lineno, token_at(q, tok, sizeof tok));
        } else if (errno == ERANGE || ix > (unsigned long long)INT_MAX) {
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: index %s out of range (indices start at 1)", path,
                           lr->lineno, token_at(q, tok, sizeof tok));
        } else if (ix <= prev) {
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: index %llu after %zu: indices must be strictly ascending",
                           path, lr->lineno, ix, prev);
        } else if (dim != 0 && ix > dim) {
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: index %llu beyond the dimension %zu", path, lr->lineno,
                           ix, dim);
        }
        if (st != KPCA_OK)
            break;
        const char *vq = end + 1;
        double v;
        if (is_blank(*vq) || parse_value(&vq, '\0', &v) != 0) {
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: index %llu: expected a finite number, found '%s'", path,
                           lr->lineno, ix, token_at(end + 1, tok, sizeof tok));
            break;
        }
        if (*nnz == *cap) {
            size_t c1 = *cap, c2 = *cap;
            size_t *ni = kpca_grow(*idx, &c1, *nnz + 1, sizeof **idx, 256);
            if (ni != NULL)
                *idx = ni;
            double *nv = ni == NULL ? NULL : kpca_grow(*val, &c2, *nnz + 1, sizeof **val, 256);
            if (nv == NULL) {
                st = oom_at(err, path, lr->lineno);
                break;
            }
            *val = nv;
            *cap = c1;
        }
        (*idx)[*nnz] = (size_t)ix;
        (*val)[*nnz] = v;
        ++*nnz;
        prev = (size_t)ix;
        if (prev > *maxidx)
            *maxidx = prev;
        q = vq;
    }
    if (st != KPCA_OK) {
        *status = st;
        return -1;
    }
    return 1;
}

/* LIBSVM sparse text: one pass into a buffer of (index, value) pairs, then
 * the dense rows. */
kpca_status kpca_read_libsvm(const char *path, size_t dim, kpca_dataset *ds, kpca_error *err)
{
    kpca_lines lr;
    memset(ds, 0, sizeof *ds);
    kpca_status st = kpca_lines_open(&lr, path, err);
    if (st != KPCA_OK)
        return st;
    size_t *rowstart = NULL, *idx = NULL;
    double *val = NULL;
    int *lab = NULL;
    size_t nrows = 0, rows_cap = 0, nnz = 0, nnz_cap = 0, maxidx = 0;
    for (;;) {
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
        rowstart[nrows] = nnz;
        int r = libsvm_line(&lr, dim, &lab[nrows], &idx, &val, &nnz, &nnz_cap, &maxidx, &st, err);
        if (r < 0)
            goto fail;
        if (r == 0)
            break;
        nrows++;
    }
    st = KPCA_OK;
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
fail:
    kpca_lines_close(&lr);
    kpca_free(rowstart);
    kpca_free(idx);
    kpca_free(val);
    kpca_free(lab);
    return st;
}

/* LIBSVM read a row at a time: a first pass checks every line and finds
 * the dimension (the largest index, or dim), a second hands out the rows. */
struct kpca_libsvm_rows {
    kpca_lines lr;
    size_t d;
    size_t *idx;
    double *val;
    size_t cap;
    kpca_status failed;
    char msg[KPCA_ERRMSG_MAX];
};

void kpca_libsvm_rows_close(kpca_libsvm_rows *r)
{
    if (r == NULL)
        return;
    kpca_lines_close(&r->lr);
    kpca_free(r->idx);
    kpca_free(r->val);
    kpca_free(r);
}

kpca_status kpca_libsvm_rows_open(const char *path, size_t dim, kpca_libsvm_rows **out, size_t *n, size_t *d,
                                  kpca_error *err)
{
    *out = NULL;
    kpca_libsvm_rows *r = kpca_calloc(1, sizeof *r);
    if (r == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    kpca_status st = kpca_lines_open(&r->lr, path, err);
    size_t rows = 0, maxidx = 0;
    while (st == KPCA_OK) {
        int label;
        size_t nnz = 0;
        int g = libsvm_line(&r->lr, dim, &label, &r->idx, &r->val, &nnz, &r->cap, &maxidx, &st, err);
        if (g <= 0)
            break;
        rows++;
    }
    if (st == KPCA_OK && rows == 0)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': no data rows", path);
    size_t dd = dim != 0 ? dim : maxidx;
    if (st == KPCA_OK && dd == 0)
        st = kpca_fail(err, KPCA_EFORMAT, "'%s': no feature values in any row", path);
    kpca_lines_close(&r->lr);
    if (st == KPCA_OK)
        st = kpca_lines_open(&r->lr, path, err);
    if (st != KPCA_OK) {
        kpca_libsvm_rows_close(r);
        return st;
    }
    r->d = dd;
    *n = rows;
    *d = dd;
    *out = r;
    return KPCA_OK;
}

kpca_status kpca_libsvm_rows_rewind(kpca_libsvm_rows *r, kpca_error *err)
{
    const char *path = r->lr.path;
    kpca_lines_close(&r->lr);
    r->failed = KPCA_OK;
    return kpca_lines_open(&r->lr, path, err);
}

kpca_status kpca_libsvm_rows_read(kpca_libsvm_rows *r, size_t max, double *x, int *y, size_t *got,
                                  kpca_error *err)
{
    *got = 0;
    if (r->failed != KPCA_OK)
        return kpca_fail(err, r->failed, "%s", r->msg);
    while (*got < max) {
        int label;
        size_t nnz = 0, maxidx = 0;
        kpca_status st = KPCA_OK;
        int g = libsvm_line(&r->lr, r->d, &label, &r->idx, &r->val, &nnz, &r->cap, &maxidx, &st, err);
        if (g < 0) {
            r->failed = st;
            snprintf(r->msg, sizeof r->msg, "%s", err != NULL ? err->msg : "");
            return st;
        }
        if (g == 0)
            break;
        double *row = x + *got * r->d;
        memset(row, 0, r->d * sizeof *row);
        for (size_t j = 0; j < nnz; j++)
            row[r->idx[j] - 1] = r->val[j];
        if (y != NULL)
            y[*got] = label;
        ++*got;
    }
    return KPCA_OK;
}
