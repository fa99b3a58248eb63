/* csvrows.h - the rows of delimited text (csvrows.c): the row parser, by
 * text/csvtok.h's quoting rule (the one-pass path, fast_row, and the
 * general one, next_row, which says what is wrong); the first row (header,
 * label column, pandas index, value columns); the rows assembled, and
 * handed to a data set.  Not an API: the CSV readers of io share it
 * (csv.c, csvpart.c, csvwin.c, rowsrc.c). */
#ifndef KPCA_CSVROWS_H
#define KPCA_CSVROWS_H

#include "io/csvcols.h"
#include "io/dataset.h"

typedef struct {
    const char *path;
    char *p, *end;
    size_t line; /* line number at p */
    char delim;  /* ' ': runs of blanks */
    char mark;   /* the decimal mark: '.' or ',' */
    const int *dest; /* per column: the value's index in a row, or -1 for a
                      * column left out; NULL: every column but the label's,
                      * in file order */
    char **f;    /* the current row's fields (NUL-terminated, in the buffer) */
    size_t *fline;
    size_t nf, capf;
    size_t row_line;
    int keep_hash;      /* whitespace text: the first row read may be a '#' line (a header) */
    kpca_status status; /* why next_row returned -1 */
} csv_state;

/* The rows read so far and where they go: x (n rows of dim values, room for
 * xcap values), and for a label column its fields and their lines. */
typedef struct {
    double *x;
    char **labtok;
    size_t *labline;
    size_t n, xcap, lcap;
    size_t ncols, col, dim; /* col: the label column, NO_COLUMN for none */
    char **hdr;             /* the header's names (NULL: none) */
    int *dest;              /* owned: what csv_state.dest points to */
    size_t index;           /* a column that may be a pandas index (an empty
                             * first header name): its value index, dropped
                             * if all its values are integers; NO_COLUMN: none */
    const char *opt;        /* the --label option (NULL: default) */
    size_t first_line;      /* the line of the first row (the field count's model) */
    int numbered;           /* the first row, a data row, holds 0,1,... or 1,2,...
                             * (a header to --header yes), refused with more rows */
    size_t taken;           /* rows read before x's first (a reader by windows) */
} csv_rows;

/* The value columns' names (R->hdr in the order of the values, dim of
 * them) and the label column's into ds (colnames, label_name); nothing
 * without a header.  0, or -1 when out of memory. */
int kpca_csv_names(const csv_rows *R, size_t dim, kpca_dataset *ds);

/* The row parser: reads the next row of s's text (blank lines skipped)
 * into s->f (s->nf fields, NUL-terminated in the text, quotes undone) and
 * leaves s->p after it.  1: a row; 0: the end of the text; -1: an error
 * (err, s->status): a quoted field not closed, text after a closing
 * quote, no memory.  Fields follow text/csvtok.h's quoting rule. */
int kpca_csv_next_row(csv_state *s, kpca_error *err);

/* The common row read in one pass: unquoted fields without blanks, each
 * number ending right at the delimiter, the row at a newline (CRLF) or at
 * s->end.  1 with the row's values in row and *lab at its label field
 * (NUL-terminated in the text); 0 for any other row, the text untouched. */
int kpca_csv_fast_row(csv_state *s, size_t ncols, size_t col, double *row, char **lab);

/* Reads rows from s->p to s->end onto R, the one-pass path where it can
 * (fast), the general one otherwise, which names what is wrong.  have:
 * s->f holds a row not yet taken.  KPCA_OK at the end of the text. */
kpca_status kpca_csv_read_rows(csv_state *s, csv_rows *R, int have, int fast, kpca_error *err);

/* The first pass's row read (kpca_csv_scan_rows), in text without a
 * quote: the row at s->p found at memchr's pace, with ncols fields, its
 * label field at *lab (NUL-terminated in the text) and, with a pandas
 * index (value `index`, the file's first column; NO_COLUMN: none), its
 * value in row[index] (NaN when it is no number); s->p and s->line after
 * it: 1.  0 for any other row (a wrong field count, a blank line), the
 * text untouched. */
int kpca_csv_scan_row(csv_state *s, size_t ncols, size_t col, size_t index, char **lab, double *row);

/* The rows from s->p to s->end as kpca_csv_read_rows finds them, their
 * values not parsed: R->n rows, their label fields (labtok, labline) and,
 * where R->index names a pandas index, its value in x (row i's at
 * x[i * dim + index]; NaN when it is no number; the rest of x not
 * written).  A quoted field not closed or a wrong field count is its
 * error; a value that is no number is not (the parse's, which reads the
 * same rows).  Fields without quotes are found at memchr's pace: the
 * first pass of a read by windows (csvwin.h), which looks at the labels
 * only. */
kpca_status kpca_csv_scan_rows(csv_state *s, csv_rows *R, int have, kpca_error *err);

/* The first row of s's text: a header (*header 1; its names in R->hdr,
 * pointing into the text) or the first data row (*header 0; in s->f, not
 * yet taken); the label column, the dimension and the field count into R,
 * checked against opts.  s->p is left after the row. */
kpca_status kpca_csv_first_row(csv_state *s, csv_rows *R, const kpca_read_opts *opts, int *header,
                               kpca_error *err);

/* Hands R's rows to ds: the labels from their fields (or none), x moved
 * (R->x NULL after).  An error when there are no rows. */
kpca_status kpca_csv_finish(const char *path, csv_rows *R, kpca_dataset *ds, kpca_error *err);

/* Frees R's arrays and zeroes it. */
void kpca_csv_rows_free(csv_rows *R);

#endif
