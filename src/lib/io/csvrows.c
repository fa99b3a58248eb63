/* csvrows.c - the rows of delimited text (see csvrows.h). */
#include "io/csvrows.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "io/csvcols.h"
#include "io/labels.h"
#include "text/csvtok.h"
#include "text/textnum.h"
#include "support/mem.h"
#include "support/parts.h"


static int add_field(csv_state *s, char *field, size_t line)
{
    if (s->nf == s->capf) {
        size_t c2 = s->capf;
        char **nf = kpca_grow(s->f, &s->capf, s->nf + 1, sizeof *s->f, 64);
        if (nf == NULL)
            return -1;
        s->f = nf;
        size_t *nl = kpca_grow(s->fline, &c2, s->nf + 1, sizeof *s->fline, 64);
        if (nl == NULL)
            return -1;
        s->fline = nl;
    }
    s->f[s->nf] = field;
    s->fline[s->nf++] = line;
    return 0;
}

/* s->p to the byte after the line end at or after s->p (the text's end
 * when none): a comment's rest skipped */
static void skip_line(csv_state *s)
{
    char *nl = memchr(s->p, '\n', (size_t)(s->end - s->p));
    s->p = nl != NULL ? nl + 1 : s->end;
    s->line += nl != NULL;
}

/* Reads the next non-blank row into s->f.  In whitespace text a '#' that
 * starts a field starts a comment to the line's end (text/csvtok.h): a
 * line of one is no row (but for s->keep_hash's first), and one after a
 * row's fields ends the row.  1: a row; 0: end; -1: error. */
static int next_row(csv_state *s, kpca_error *err)
{
    for (;;) { /* skip blank lines and comment lines */
        char *q = s->p;
        while (q < s->end && kpca_text_blank(*q))
            q++;
        if (q < s->end && *q == '\n') {
            s->p = q + 1;
            s->line++;
            continue;
        }
        if (q < s->end && kpca_text_comment(*q, s->delim) && !s->keep_hash) {
            skip_line(s);
            continue;
        }
        if (q == s->end)
            return 0;
        break;
    }
    s->nf = 0;
    s->row_line = s->line;
    for (;;) {
        if (s->delim == ' ')
            while (s->p < s->end && kpca_text_blank(*s->p))
                s->p++;
        if (s->nf > 0 && s->p < s->end && kpca_text_comment(*s->p, s->delim)) {
            skip_line(s);
            return 1;
        }
        char *q = s->p;
        size_t line = s->line;
        char *field = q;
        char c;
        if (q < s->end && *q == '"') { /* a quoted field (text/csvtok.h) */
            const char *close = kpca_csvtok_close(q, s->end);
            if (close == NULL) {
                s->status = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu, column %zu: a quoted field is not closed", s->path,
                          line, s->nf + 1);
                return -1;
            }
            s->line += kpca_csvtok_unquote(q, close); /* the text, "" as one quote, in place */
            char *r = q + (close - q) + 1;
            /* blanks up to the delimiter; in whitespace text the blank is
             * the delimiter, and the run is skipped below */
            while (s->delim != ' ' && r < s->end && kpca_text_blank(*r) && *r != s->delim)
                r++;
            c = r < s->end ? *r : '\0';
            if (r < s->end && c != s->delim && c != '\n' && !(s->delim == ' ' && kpca_text_blank(c))) {
                s->status = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu, column %zu: text after a closing quote", s->path,
                          s->line, s->nf + 1);
                return -1;
            }
            q = r;
        } else {
            while (q < s->end && *q != '\n' && *q != s->delim && !(s->delim == ' ' && kpca_text_blank(*q)))
                q++;
            c = q < s->end ? *q : '\0';
            if (q > field && q[-1] == '\r' && c != s->delim)
                q[-1] = '\0';
            *q = '\0';
        }
        if (add_field(s, field, line) != 0) {
            s->status = kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s' line %zu", s->path, line);
            return -1;
        }
        s->p = q < s->end ? q + 1 : s->end;
        if (s->delim == ' ' && kpca_text_blank(c)) { /* a run of blanks: the row may end here */
            while (s->p < s->end && kpca_text_blank(*s->p))
                s->p++;
            c = s->p < s->end ? *s->p : '\0';
            if (c == '\n')
                s->p++;
        }
        if (c == '\n') {
            s->line++;
            return 1;
        }
        if (c == '\0' || s->p >= s->end)
            return 1;
    }
}

int kpca_csv_next_row(csv_state *s, kpca_error *err)
{
    return next_row(s, err);
}

/* The common row read in one pass: unquoted fields without blanks, each
 * number ending right at the delimiter, the row at a newline (CRLF, or the
 * end of the text).  Parses its values into row and points *lab at its
 * label field (NUL-terminated here), as next_row and parse_field would;
 * returns 1.  Any other row, or a field that does not parse: returns 0
 * with the text untouched, and next_row reads the row again (and says
 * what is wrong). */
/* kpca_csv_fast_row's body, inlined twice: with dest NULL and mark '.'
 * as constants (the common file), and with the state's */
static inline __attribute__((always_inline)) int fast_row(csv_state *s, size_t ncols, size_t col, double *row,
                                                         char **lab, const int *dest, char mark)
{
    char *p = s->p, *labend = NULL;
    for (size_t j = 0, k = 0; j < ncols; j++) {
        if (j == col) {
            *lab = p;
            while (*p != s->delim && *p != '\n' && *p != '"' && *p != '\0' && !kpca_text_blank(*p))
                p++;
            if (p == *lab)
                return 0;
            labend = p;
        } else if (dest != NULL && dest[j] < 0) { /* a column left out: any unquoted text */
            while (*p != s->delim && *p != '\n' && *p != '"' && *p != '\0')
                p++;
            if (*p == '"' || (*p == '\0' && p != s->end))
                return 0;
            if (j + 1 == ncols && p > s->p && p[-1] == '\r')
                p--;
        } else {
            char c = *p;
            if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == mark)) /* strtod would skip blanks */
                return 0;
            const char *q = p;
            double *at = &row[dest != NULL ? (size_t)dest[j] : k++];
            char stop = j + 1 < ncols ? s->delim : '\n';
            if ((mark == '.' ? kpca_parse_number(&q, stop, at) : kpca_parse_number_mark(&q, stop, mark, at)) != 0)
                return 0;
            p = (char *)q;
        }
        if (j + 1 < ncols) {
            if (*p++ != s->delim)
                return 0;
            continue;
        }
        if (*p == '\r')
            p++;
        if (*p == '\n') {
            s->line++;
            p++;
        } else if (p != s->end) {
            return 0;
        }
    }
    if (labend != NULL)
        *labend = '\0';
    s->p = p;
    return 1;
}

int kpca_csv_fast_row(csv_state *s, size_t ncols, size_t col, double *row, char **lab)
{
    if (s->dest == NULL && s->mark == '.')
        return fast_row(s, ncols, col, row, lab, NULL, '.');
    return fast_row(s, ncols, col, row, lab, s->dest, s->mark);
}

/* 1 when the field is a number (surrounding blanks allowed). */
static int parse_field(const char *field, char mark, double *v, int *why)
{
    const char *p = field;
    while (kpca_text_blank(*p))
        p++;
    *why = *p == '\0' ? 0 : -1;
    if (*p == '\0')
        return 0;
    int r = kpca_parse_number_mark(&p, '\0', mark, v);
    while (r == 0 && kpca_text_blank(*p))
        p++;
    if (r == 0 && *p == '\0')
        return 1;
    *why = r == -2 ? -2 : -1;
    return 0;
}

/* 1 when field f of a first row is a name, which makes the row a header:
 * neither a number nor a missing value (empty, nan, inf, NA, #N/A, ?...:
 * a data row with a hole, refused on its line as any row's). */
static int name_field(char *f, char mark)
{
    double v;
    int why;
    return !parse_field(f, mark, &v, &why) && why == -1 && !kpca_labels_missing_mark(kpca_text_trim(f));
}

/* 1 when every header name but column j's is a number: the first row
 * was taken for a header for want of numbers in column j alone, and may
 * be data */
static int header_data_like(char **hdr, size_t ncols, size_t j, char mark)
{
    for (size_t c = 0; c < ncols; c++) {
        double v;
        int why;
        if (c != j && !parse_field(hdr[c], mark, &v, &why))
            return 0;
    }
    return 1;
}

/* A field of a value column that is not a number, with what to do about
 * it: a text in the first data row may be the labels (--label) or an
 * identifier (--drop); a decimal comma needs --decimal; an empty last
 * column (a delimiter at the end of every line) can be left out. */
static kpca_status value_error(const csv_state *s, const csv_rows *R, size_t j, int why, int first_row,
                               kpca_error *err)
{
    char **hdr = R->hdr;
    const char *f = s->f[j];
    const char *cut = strlen(f) > 40 ? "..." : "";
    char name[64] = "";
    if (hdr != NULL && hdr[j][0] != '\0')
        snprintf(name, sizeof name, " ('%.40s')", hdr[j]);
    if (why == -1 && s->mark != ',' && s->delim != ',' && kpca_text_decimal_comma(f, '\0'))
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s' line %zu, column %zu%s: expected a number, found '%.40s%s', written with a decimal "
                         "comma: give --decimal , to read decimal commas", s->path, s->fline[j], j + 1, name, f, cut);
    const char *mark_why = why == -1 ? kpca_text_mark_hint(f, s->delim, s->mark) : NULL; /* the other way round */
    if (mark_why != NULL)
        return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu, column %zu%s: expected a number, found '%.40s%s', %s",
                         s->path, s->fline[j], j + 1, name, f, cut, mark_why);
    size_t empty = j; /* a first row of numbers, then empty fields: a line of counts (scikit-learn's Boston)? */
    while (why == 0 && first_row && hdr == NULL && empty < R->ncols && kpca_text_trim(s->f[empty])[0] == '\0')
        empty++;
    char pre[160] = "";
    if (empty == R->ncols && j > 0 && R->ncols - j >= 2)
        snprintf(pre, sizeof pre, "; is line %zu a preamble (scikit-learn's files begin with a line of counts)? "
                 "skip it: --skip-rows %zu", s->fline[j], s->fline[j]);
    if (why == 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu, column %zu%s: expected a number, found an empty field%s%s%zu",
                         s->path, s->fline[j], j + 1, name, pre,
                         j + 1 == R->ncols ? " (a delimiter at the end of the line?); to leave the column out, give --drop "
                                           : "; to leave the column out, give --drop ", j + 1);
    size_t nums = 0; /* a first row of names only after the header: a preamble took the header's place */
    for (size_t k = 0; first_row && hdr != NULL && k < R->ncols; k++)
        nums += parse_field(s->f[k], s->mark, &(double){0}, &(int){0}) != 0;
    if (first_row && hdr != NULL && nums == 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: names, no number, after the header on line %zu; is line "
                         "%zu a preamble (scikit-learn's files begin with a line of counts)? skip it: --skip-rows %zu",
                         s->path, s->row_line, R->first_line, R->first_line, R->first_line);
    if (first_row && why != -2 && R->opt == NULL && !kpca_labels_missing_mark(kpca_text_trim(s->f[j]))) {
        char also[96] = "";
        if (hdr != NULL && hdr[j][0] != '\0' && !header_data_like(hdr, R->ncols, j, s->mark))
            snprintf(also, sizeof also, " (or '%.40s')", hdr[j]);
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s' line %zu, column %zu%s: expected a number, found '%.40s%s'; if that column holds the "
                         "labels, give --label %zu%s; if it is an identifier, leave it out with --drop %zu%s",
                         s->path, s->fline[j], j + 1, name, f, cut, j + 1, also, j + 1, also);
    }
    return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu, column %zu%s: expected a %snumber, found '%.40s%s'", s->path,
                     s->fline[j], j + 1, name, why == -2 ? "finite " : "", f, cut);
}

/* Room in R for one more row: its values (values: 0, none) and, with a
 * label column, its label field and line.  0 when out of memory. */
static int room(csv_rows *R, int values)
{
    if (values) {
        double *nx = kpca_grow(R->x, &R->xcap, (R->n + 1) * R->dim, sizeof *R->x, 4096);
        if (nx == NULL)
            return 0;
        R->x = nx;
    }
    if (R->col != NO_COLUMN && R->n == R->lcap) {
        size_t c2 = R->lcap;
        char **nt = kpca_grow(R->labtok, &R->lcap, R->n + 1, sizeof *R->labtok, 1024);
        if (nt != NULL)
            R->labtok = nt;
        size_t *nl = nt == NULL ? NULL : kpca_grow(R->labline, &c2, R->n + 1, sizeof *R->labline, 1024);
        if (nl == NULL)
            return 0;
        R->labline = nl;
    }
    return 1;
}

/* The next row by next_row into s->f (have: it is there already), with
 * R's field count: 1; 0 at the end of the text (*st KPCA_OK); -1 on an
 * error (*st, err). */
static int whole_row(csv_state *s, const csv_rows *R, int have, kpca_status *st, kpca_error *err)
{
    *st = KPCA_OK;
    if (!have) {
        int r = next_row(s, err);
        if (r <= 0) {
            *st = r < 0 ? s->status : KPCA_OK;
            return r;
        }
    }
    if (s->nf != R->ncols) {
        /* the first row shorter than the one after it: a preamble line
         * (scikit-learn's files begin with a line of counts), which
         * --skip-rows skips with the lines before it */
        char hint[320] = "";
        size_t names = 0; /* a header of names one field short: R's write.table, its row names unnamed */
        for (size_t j = 0; R->hdr != NULL && j < R->ncols; j++)
            names += (size_t)name_field(R->hdr[j], s->mark);
        if (s->nf == R->ncols + 1 && names == R->ncols && s->row_line == R->first_line + 1)
            snprintf(hint, sizeof hint, "; a header one field short of the rows: R's write.table (row names without "
                     "a header field)? write with row.names = FALSE, or read the values with --skip-rows %zu "
                     "--header no --drop 1 (the column names lost)", R->first_line);
        else if (s->nf > R->ncols && s->row_line == R->first_line + 1)
            snprintf(hint, sizeof hint, "; is line %zu a preamble (scikit-learn's files begin with a line of "
                     "counts)? skip it: --skip-rows %zu", R->first_line, R->first_line);
        else if (*kpca_text_trim(s->f[0]) == '#')
            snprintf(hint, sizeof hint, "; a comment (numpy.savetxt writes its header and footer after '#')? "
                     "delimited text has none: delete the line (grep -v '^#'), or save it without a footer");
        *st = kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: %zu fields, expected %zu as in line %zu%s", s->path,
                        s->row_line, s->nf, R->ncols, R->first_line, hint);
        return -1;
    }
    return 1;
}

/* Reads rows from s->p to s->end onto R: the one-pass path where it can
 * (fast), next_row and parse_field otherwise.  have: s->f holds a row not
 * yet taken.  KPCA_OK at the end of the text; on an error, its status. */
kpca_status kpca_csv_read_rows(csv_state *s, csv_rows *R, int have, int fast, kpca_error *err)
{
    const size_t dim = R->dim, col = R->col, ncols = R->ncols;
    for (;;) {
        if (!room(R, 1))
            return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s' (%zu rows)", s->path, R->n + 1);
        double *row = R->x + R->n * dim;
        if (!have) {
            size_t line = s->line;
            char *ltok = NULL;
            if (fast && s->p < s->end && kpca_csv_fast_row(s, ncols, col, row, &ltok)) {
                if (col != NO_COLUMN) {
                    R->labtok[R->n] = ltok;
                    R->labline[R->n] = line;
                }
                R->n++;
                continue;
            }
        }
        kpca_status st;
        if (whole_row(s, R, have, &st, err) <= 0)
            return st;
        have = 0;
        for (size_t j = 0, k = 0; j < ncols; j++) {
            if (j == col) {
                R->labtok[R->n] = s->f[j];
                R->labline[R->n] = s->fline[j];
                continue;
            }
            size_t at = k++;
            if (s->dest != NULL && s->dest[j] < 0)
                continue;
            int why;
            if (!parse_field(s->f[j], s->mark, &row[s->dest != NULL ? (size_t)s->dest[j] : at], &why))
                return value_error(s, R, j, why, R->taken + R->n == 0, err);
        }
        R->n++;
    }
}


/* The fields of a row with no quote in it, from p to its line end (or
 * end), found without parsing them: 1 with column col's text at *lab and
 * column icol's at *ix (NUL-terminated in the text, the line end
 * perhaps; icol NO_COLUMN: none), s->p and s->line after the row, when the row has ncols fields and starts with
 * no blank (a line of blanks only is no row); 0 otherwise, the text
 * untouched, and next_row reads the row.  Each field's text is next_row's:
 * blanks kept, a CR dropped before the line end only. */
static int scan_fast_row(csv_state *s, size_t ncols, size_t col, size_t icol, char **lab, char **ix)
{
    char *p = s->p, *end = s->end;
    const char delim = s->delim;
    if (p >= end || kpca_text_blank(*p) || *p == '\n')
        return 0;
    char *nl = memchr(p, '\n', (size_t)(end - p));
    char *stop = nl != NULL ? nl : end;
    if (stop > p && stop[-1] == '\r')
        stop--;
    if (kpca_csvtok_count(p, (size_t)(stop - p), delim) + 1 != ncols)
        return 0;
    char *ends[2] = {NULL, NULL}, *starts[2] = {NULL, NULL};
    const size_t want[2] = {col, icol};
    for (int k = 0; k < 2; k++) {
        if (want[k] == NO_COLUMN)
            continue;
        char *f = p, *e;
        if (want[k] <= ncols / 2) { /* from the row's start */
            for (size_t j = 0; j < want[k]; j++)
                f = (char *)memchr(f, delim, (size_t)(stop - f)) + 1;
            e = memchr(f, delim, (size_t)(stop - f));
            if (e == NULL)
                e = stop;
        } else { /* from its end */
            e = stop;
            for (size_t j = ncols - 1; j > want[k]; j--)
                while (*--e != delim)
                    ;
            f = e;
            while (f > p && f[-1] != delim)
                f--;
        }
        starts[k] = f;
        ends[k] = e;
    }
    for (int k = 0; k < 2; k++)
        if (ends[k] != NULL)
            *ends[k] = '\0';
    *lab = starts[0];
    *ix = starts[1];
    s->p = nl != NULL ? nl + 1 : end;
    s->line += nl != NULL;
    return 1;
}

int kpca_csv_scan_row(csv_state *s, size_t ncols, size_t col, size_t index, char **lab, double *row)
{
    char *ix = NULL;
    /* the pandas index is the file's first column (kpca_csv_first_row) */
    if (!scan_fast_row(s, ncols, col, index != NO_COLUMN ? 0 : NO_COLUMN, lab, &ix))
        return 0;
    int why;
    if (ix != NULL && !parse_field(ix, s->mark, &row[index], &why))
        row[index] = NAN; /* no number: the parse of the rows says so */
    return 1;
}

kpca_status kpca_csv_scan_rows(csv_state *s, csv_rows *R, int have, kpca_error *err)
{
    const size_t dim = R->dim, col = R->col, ncols = R->ncols;
    const size_t icol = R->index != NO_COLUMN ? 0 : NO_COLUMN; /* (kpca_csv_scan_row) */
    const int fast = s->delim != ' ' && memchr(s->p, '"', (size_t)(s->end - s->p)) == NULL;
    for (;;) {
        if (!room(R, icol != NO_COLUMN))
            return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s' (%zu rows)", s->path, R->n + 1);
        char *lab = NULL;
        size_t line = s->line;
        double *row = icol != NO_COLUMN ? R->x + R->n * dim : NULL;
        if (have || !fast || !kpca_csv_scan_row(s, ncols, col, R->index, &lab, row)) {
            kpca_status st;
            if (whole_row(s, R, have, &st, err) <= 0)
                return st;
            have = 0;
            lab = col != NO_COLUMN ? s->f[col] : NULL;
            line = col != NO_COLUMN ? s->fline[col] : line;
            int why;
            if (icol != NO_COLUMN && !parse_field(s->f[icol], s->mark, &row[R->index], &why))
                row[R->index] = NAN; /* no number: the parse of the rows says so */
        }
        if (col != NO_COLUMN) {
            R->labtok[R->n] = lab;
            R->labline[R->n] = line;
        }
        R->n++;
    }
}

/* 1 when the field holds two or more numbers separated by blanks: a line of
 * whitespace text read as delimited text */
static int blank_numbers(const char *field, char mark)
{
    size_t count = 0;
    for (const char *p = field;;) {
        while (kpca_text_blank(*p))
            p++;
        if (*p == '\0')
            return count >= 2;
        double v;
        if (kpca_parse_number_mark(&p, '\0', mark, &v) != 0)
            return 0;
        count++;
    }
}

kpca_status kpca_csv_first_row(csv_state *s, csv_rows *R, const kpca_read_opts *opts, int *header,
                               kpca_error *err)
{
    const char *path = s->path;
    kpca_status st = KPCA_OK;
    *header = 0;
    R->opt = opts != NULL ? opts->label : NULL;
    if (s->mark == ',' && s->delim == ',')
        return kpca_fail(err, KPCA_EUSAGE, "'%s': --decimal , reads decimal commas between fields separated by ';', "
                         "a tab or blanks, but this file separates its fields by commas", path);
    kpca_header hr = opts != NULL ? opts->header : KPCA_HEADER_AUTO;
    s->keep_hash = hr == KPCA_HEADER_YES; /* whitespace text's '#' first line: the header */
    int r = next_row(s, err);
    s->keep_hash = 0;
    if (r == 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': no data rows", path);
    if (r < 0)
        return s->status;
    size_t ncols = s->nf, first_line = s->row_line;
    /* a header is a first row with a name (no number, no missing value),
     * outside the label column when its position is known (names there are
     * labels, unless one of the usual header names); or the model's names */
    const char *lab = R->opt;
    size_t lcol = NO_COLUMN, col = NO_COLUMN;
    if (hr == KPCA_HEADER_AUTO && kpca_csv_label_by_position(lab) &&
        (st = kpca_csv_label_column(path, lab, NULL, ncols, &lcol, err)) != KPCA_OK)
        return st;
    /* and the columns --drop leaves out by number: names there are
     * identifiers, as in the label column (the way out messages name) */
    unsigned char *skip = hr == KPCA_HEADER_AUTO ? kpca_calloc(ncols, 1) : NULL;
    if (hr == KPCA_HEADER_AUTO && skip == NULL)
        return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    if (skip != NULL)
        kpca_csv_left_out(opts, ncols, skip);
    size_t named = NO_COLUMN; /* a name in a column --drop leaves out: the row's only text? */
    for (size_t j = 0; j < ncols && skip != NULL && !*header; j++) {
        *header = !skip[j] && j != lcol ? name_field(s->f[j], s->mark) : kpca_csv_usual_name(s->f[j]);
        named = named == NO_COLUMN && skip[j] && j != lcol && name_field(s->f[j], s->mark) ? j : named;
    }
    *header = *header || (skip != NULL && kpca_csv_fitted_header(opts, s->f, ncols, lcol));
    if (skip != NULL && !*header) /* numbers (the label column's too): pandas' names, years, or data */
        st = kpca_csv_numbers_row(path, first_line, s->f, ncols, skip, named, s->p, s->end, s->mark, header,
                                  &R->numbered, err);
    kpca_free(skip);
    if (st != KPCA_OK)
        return st;
    if (hr == KPCA_HEADER_YES)
        *header = 1;
    if (*header) {
        if (s->delim == ' ' && s->f[0][0] == '#' &&
            (st = kpca_csv_hash_header(path, s->row_line, s->f, s->fline, &ncols, s->p, s->end, err)) != KPCA_OK)
            return st;
        s->nf = ncols;
        R->hdr = kpca_alloc_array(ncols, 1, sizeof *R->hdr);
        if (R->hdr == NULL)
            return kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
        for (size_t j = 0; j < ncols; j++)
            if (!kpca_text_utf8(R->hdr[j] = kpca_text_trim(s->f[j])))
                return kpca_text_utf8_fail(path, s->fline[j], j + 1, "column name", R->hdr[j], err);
    }
    if ((st = kpca_csv_label_column(path, lab, R->hdr, ncols, &col, err)) != KPCA_OK)
        return st;
    size_t dim;
    if ((st = kpca_csv_columns(path, opts, R->hdr, ncols, col, &R->dest, &dim, err)) != KPCA_OK)
        return st;
    s->dest = R->dest;
    /* pandas' to_csv() writes the row index first, under an empty name:
     * left out when all its values are integers (kpca_csv_finish) */
    R->index = NO_COLUMN;
    if (R->hdr != NULL && R->hdr[0][0] == '\0' && col != 0 && ncols >= 2 && (R->dest == NULL || R->dest[0] >= 0) &&
        (opts == NULL || opts->columns == NULL))
        R->index = R->dest != NULL ? (size_t)R->dest[0] : 0;
    if (R->index != NO_COLUMN && R->dest == NULL && ncols >= 3 && R->hdr[1][0] == '\0')
        return kpca_fail(err, KPCA_EFORMAT, "'%s' line %zu: columns 1 and 2 have no name: the levels of a pandas "
                         "MultiIndex (to_csv() of a frame with two or more index columns)? leave them out with --drop "
                         "1,2 (each unnamed column), or save with index=False", path, first_line);
    if (ncols == 1 && s->delim != ' ' && blank_numbers(s->f[0], s->mark))
        return kpca_fail(err, KPCA_EFORMAT,
                         "'%s' line %zu: no comma, semicolon or tab to separate the values: values separated by "
                         "blanks are ESL text (drop --format csv)",
                         path, first_line);
    if (dim == 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': no value columns besides the labels", path);
    if (opts != NULL && opts->dim != 0 && dim != opts->dim)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': rows have %zu values, expected %zu", path, dim, opts->dim);
    R->ncols = ncols;
    R->col = col;
    R->dim = dim;
    R->first_line = first_line;
    return KPCA_OK;
}

/* The names of the value columns, in their order, from the header (none:
 * NULL); 0 or -1 when out of memory. */
int kpca_csv_names(const csv_rows *R, size_t dim, kpca_dataset *ds)
{
    if (R->hdr == NULL)
        return 0;
    if ((ds->colnames = kpca_calloc(dim, sizeof *ds->colnames)) == NULL)
        return -1;
    for (size_t j = 0, k = 0; j < R->ncols; j++) {
        if (j == R->col)
            continue;
        size_t at = R->dest != NULL ? (size_t)R->dest[j] : k++;
        if (R->dest != NULL && R->dest[j] < 0)
            continue;
        if ((ds->colnames[at] = kpca_strdup(R->hdr[j])) == NULL)
            return -1;
    }
    if (R->col != NO_COLUMN && (ds->label_name = kpca_strdup(R->hdr[R->col])) == NULL)
        return -1;
    return 0;
}

/* Leaves out value column `index` of the n x dim rows in x when every one
 * of its values is an integer (a row index); 1 when it did. */
static int drop_index(csv_rows *R)
{
    if (R->index == NO_COLUMN || R->dim < 2)
        return 0;
    for (size_t i = 0; i < R->n; i++) {
        double v = R->x[i * R->dim + R->index];
        if (v != (double)(long long)v || fabs(v) > 9007199254740992.0)
            return 0;
    }
    const size_t dim = R->dim, at = R->index;
    for (size_t i = 0; i < R->n; i++) { /* in place, row by row: the rows only move down */
        double *from = R->x + i * dim, *to = R->x + i * (dim - 1);
        memmove(to, from, at * sizeof *to);
        memmove(to + at, from + at + 1, (dim - at - 1) * sizeof *to);
    }
    R->dim = dim - 1;
    return 1;
}

kpca_status kpca_csv_finish(const char *path, csv_rows *R, kpca_dataset *ds, kpca_error *err)
{
    kpca_status st = KPCA_OK;
    if (R->n == 0)
        return kpca_fail(err, KPCA_EFORMAT, "'%s': no data rows (only a header)", path);
    size_t names_dim = R->dim;
    const int index = drop_index(R);
    if (R->col != NO_COLUMN) {
        st = kpca_labels_from_text(path, R->labtok, R->labline, R->col + 1, R->n, ds, err);
    } else {
        ds->y = kpca_calloc(R->n, sizeof(int));
        ds->unlabelled = 1;
        if (ds->y == NULL)
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
    }
    if (st == KPCA_OK) {
        ds->x = R->x;
        ds->n = R->n;
        ds->dim = names_dim; /* names for every value column; the index's then goes */
        R->x = NULL;
        ds->label_col = R->col != NO_COLUMN ? R->col + 1 : 0;
        if (kpca_csv_names(R, names_dim, ds) != 0)
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory reading '%s'", path);
        if (index) { /* the pandas index is always the file's first column */
            if (ds->colnames != NULL) {
                kpca_free(ds->colnames[R->index]);
                memmove(ds->colnames + R->index, ds->colnames + R->index + 1,
                        (names_dim - R->index - 1) * sizeof *ds->colnames);
            }
            ds->index_col = 1;
            ds->dim = R->dim;
        }
    }
    return st;
}

void kpca_csv_rows_free(csv_rows *R)
{
    kpca_free(R->x);
    kpca_free(R->hdr);
    kpca_free(R->dest);
    kpca_free(R->labtok);
    kpca_free(R->labline);
    memset(R, 0, sizeof *R);
}
