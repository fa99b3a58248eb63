/* csvpart.h - inside the CSV reader: its row state, and the read in parts.
 *
 * Not an API: io/csv.c and io/csvpart.c share these.  csv.c parses rows
 * (the one-pass path, fast_row, and the general one, read_rows, which says
 * what is wrong); csvpart.c cuts large text into parts, one thread each,
 * with the rows, the labels and the first error of a read in one part. */
#ifndef KPCA_CSVPART_H
#define KPCA_CSVPART_H

#include <stdint.h>
#include <zlib.h>

#include "io/csv.h"

#define NO_COLUMN SIZE_MAX

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
    size_t taken;           /* rows read before x's first (a reader by windows) */
} csv_rows;

/* In csvcols.c. */

/* The roles of columns while they are chosen. */
enum { CSV_ROLE_VALUE = 1, CSV_ROLE_SKIP, CSV_ROLE_LABEL };

/* Which of the ncols columns are values, and in what order, from opts
 * (columns: keep these, in this order; drop: leave these out; select: a
 * model's columns by header name, in this order), the label column col
 * (NO_COLUMN: none) and the header hdr (NULL: none).  List items are header
 * names (exact, else ignoring case) or column numbers from 1; a number that
 * is another column's name is refused as ambiguous.  *dest is NULL when
 * every column but the label's is a value, in file order (nothing
 * allocated); else ncols entries (the value's index, or -1: left out; free
 * with kpca_free).  *dim: the values per row.  KPCA_EUSAGE naming every
 * list item that names no column, a column named twice or the label's, and
 * nothing left; KPCA_EFORMAT listing the model's columns the file lacks.
 * O(ncols * items). */
kpca_status kpca_csv_columns(const char *path, const kpca_read_opts *opts, char **hdr, size_t ncols, size_t col,
                             int **dest, size_t *dim, kpca_error *err);

/* In csv.c. */

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

/* In csvpart.c. */

/* How many parts the text after the first row is read in
 * (kpca_parts_plan: up to `parts`, 0 for one per online CPU, of at least
 * min_part bytes); 1 for whitespace text and text with quotes, whose rows
 * may span a cut. */
size_t kpca_csv_plan(const csv_state *s, size_t parts, size_t min_part);

/* Cuts [s->p, s->end) at line ends into `parts` parts: part k is
 * [cut[k], cut[k+1]) with nl[k] line ends.  Returns the line ends in all:
 * the one pass over the text that sizes the arrays and places the parts. */
size_t kpca_csv_cut(const csv_state *s, size_t parts, char **cut, size_t *nl);

/* Reads the rows after the first (have: s->f holds it, not yet taken) into
 * R in the parts kpca_csv_cut made (parts >= 2), concurrently, with the
 * rows, labels and first error of a read in one part; lines: the rows
 * there can be. */
kpca_status kpca_csv_read_parts(csv_state *s, csv_rows *R, int have, size_t parts, char *const *cut, const size_t *nl,
                                size_t lines, kpca_error *err);

/* The read of a large plain file without holding its text: 1 with *ds
 * filled when every row after the first is one the one-pass path takes
 * (kpca_csv_fast_row) and labels are at most KPCA_CSV_LABEL_MAX bytes; 0
 * otherwise (*ds empty, err unspecified), and the caller reads the file
 * in memory, which finds the same rows or says what is wrong.  The file
 * is read twice from the page cache, in stretches of `stretch` bytes (0:
 * 1 MiB) by kpca_parts_plan(size, parts, min_part) threads: once to count
 * the line ends of each part (rows land where they stay), once to parse.
 * Memory: the result, and two stretches per thread. */
int kpca_csv_stream(const char *path, char delim, const kpca_read_opts *opts, size_t parts, size_t min_part,
                    size_t stretch, kpca_dataset *ds, kpca_error *err);

#define KPCA_CSV_LABEL_MAX 15

/* In csvwin.c: delimited text read by windows of about 1 MiB of the
 * file, each cut at the end of a whole row (quotes counted) and parsed by
 * kpca_csv_read_rows; memory a window and its rows, whatever the file's
 * size. */
typedef struct {
    gzFile gz;
    const char *path;
    char *buf;      /* the window: bytes [0, len), NUL after them */
    size_t cap, len;
    int eof;
    csv_state s;    /* s.p .. s.end: the rows of the window not yet parsed */
    csv_rows R;     /* the layout, and the rows of the last parse (R.x, R.n) */
    char **hdr;     /* the header's names, owned (R.hdr points at them) */
    int have;       /* s.f holds the first row, not yet taken */
    unsigned long long base; /* the file's byte at buf[0] */
    int limited;    /* read no more than `left` bytes more of the file */
    unsigned long long left;
} csv_win;

/* Opens path (plain or gzip) and reads its first row, the header or the
 * first data row (then in s.f, taken by the first next): the layout in R,
 * as the whole read finds it (delim 0: sniffed; opts: the read options).
 * The whole read's messages for a wide encoding, a NUL byte, damaged gzip.
 * Close with kpca_csv_win_close, also after a failure. */
kpca_status kpca_csv_win_open(csv_win *w, const char *path, char delim, const kpca_read_opts *opts, kpca_error *err);
/* Parses the next window's rows into R (R.n of them, R.taken before them);
 * *more 0 at the end of the file.  The label tokens point into the window
 * until the next call. */
kpca_status kpca_csv_win_next(csv_win *w, int *more, kpca_error *err);
void kpca_csv_win_close(csv_win *w);
/* The file's byte after the rows parsed so far (after the first row, once
 * opened). */
unsigned long long kpca_csv_win_tell(const csv_win *w);
/* Reads no byte at or after `end` of the file: the text ends there (a row
 * cut there is read as the file's last). */
void kpca_csv_win_limit(csv_win *w, unsigned long long end);
/* Goes on from byte `byte` of the file, a row's start on line `line`
 * after `before` data rows, with the layout of the open (a plain file: a
 * seek; gzip: read up to it): the next kpca_csv_win_next parses the rows
 * from there.  KPCA_EIO when the file cannot seek. */
kpca_status kpca_csv_win_jump(csv_win *w, unsigned long long byte, size_t line, size_t before, kpca_error *err);

#endif
