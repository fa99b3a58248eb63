/* csvcols.h - which columns of delimited text are values, and in what
 * order: --columns, --drop and a model's columns by header name (csvcols.c). */
#ifndef KPCA_CSVCOLS_H
#define KPCA_CSVCOLS_H

#include <stddef.h>
#include <stdint.h>

#include "io/dataset.h"

/* No column: a label column, a pandas index that is not there. */
#define NO_COLUMN SIZE_MAX

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

/* The first column (from 0) of the header hdr (ncols names; NULL: none)
 * named s[0..len), exactly, else ignoring case; NO_COLUMN when none.
 * *count: how many columns bear that name (in the pass that found it):
 * more than 1 makes an option that names it ambiguous. */
size_t kpca_csv_find_name(char **hdr, size_t ncols, const char *s, size_t len, size_t *count);

/* The label column (from 0; NO_COLUMN: none) that the --label option opt
 * places among the ncols columns of the header hdr (NULL: none): "none",
 * "first", "last", a number from 1, a header name (exactly, else ignoring
 * case); NULL: the first column named label, target, class or y, else
 * none.  KPCA_EUSAGE for a number out of range, a name with no header or
 * that names no column or several, and for a number that is another
 * column's name (as --columns refuses it).  O(ncols).  (The ARFF reader,
 * io/dataset_arff.c, places --label by it too.) */
kpca_status kpca_csv_label_column(const char *path, const char *opt, char **hdr, size_t ncols, size_t *col,
                                  kpca_error *err);

/* 1 for a usual name of the label column's header field (label, target,
 * class, y, ignoring case and blanks around it; field trimmed in place). */
int kpca_csv_usual_name(char *field);

/* 1 when the --label option opt places the column without a header: NULL
 * (none when no header names one), none, first, last, a number. */
int kpca_csv_label_by_position(const char *opt);

/* The columns --drop leaves out by number (from 1), known before the
 * header is (an identifier column, as messages advise): out[j] = 1 for
 * each of the ncols columns left out (ncols bytes); all 0 when the list
 * names a column (known only from a header), holds a number out of range
 * (kpca_csv_columns refuses it), or a model's names select the columns.
 * (--columns keeps columns: those it leaves out may be named in a header
 * whose kept names are numbers.)  O(ncols + the list). */
void kpca_csv_left_out(const kpca_read_opts *opts, size_t ncols, unsigned char *out);

/* --header auto's decision on a first row with no name in the columns it
 * looks at (fields f but those skip marks: the columns --drop leaves out,
 * kpca_csv_left_out; skip[0] is changed and put back), the text after it
 * in [next, end):
 * - an empty first field and increasing integers from 0 or 1 after it:
 *   pandas' to_csv() with its index and its columns' default names (or
 *   some of them): *header 1;
 * - a name in a column --drop leaves out (named; NO_COLUMN: none) and
 *   numbers in the rest: a header or a data row, refused (KPCA_EFORMAT);
 * - the integers 0..D-1 or 1..D (plain digits, D >= 2; *numbered 1):
 *   pandas' default names, column numbers, or data;
 * - three or more other increasing integers above a line with the decimal
 *   mark: some columns' default names, years, or data;
 * either of the last two refused (KPCA_EFORMAT, naming --header yes and
 * --header no) when a line follows; else data (*header 0).  O(D + the
 * next line). */
kpca_status kpca_csv_numbers_row(const char *path, size_t line, char **f, size_t ncols, unsigned char *skip,
                                 size_t named, const char *next, const char *end, char mark, int *header,
                                 int *numbered, kpca_error *err);

/* 1 when the fields f of a first row, but the label column's (lcol;
 * NO_COLUMN: none), are the model's column names (opts->select, nselect),
 * exactly and in order: the header the model was fitted with (transform's
 * and denoise's read, where a row of numbers may be one); 0 without
 * select.  O(D). */
int kpca_csv_fitted_header(const kpca_read_opts *opts, char **f, size_t ncols, size_t lcol);

/* The header of whitespace text on a '#' line of `line` (--header yes,
 * whose first line the row reader keeps): numpy.savetxt's header after its
 * comment mark, "# a b c" or "#a b c", the '#' no part of a name: f[0]
 * moves past it, or, a field of its own, is dropped (f and fline shift
 * down, *ncols one less).  Refused when the next line (in next, up to end)
 * begins with '#' too (savetxt's header of two lines): which one names the
 * columns is for --skip-rows to say.  O(D) and the blanks before the next
 * line. */
kpca_status kpca_csv_hash_header(const char *path, size_t line, char **f, size_t *fline, size_t *ncols,
                                 const char *next, const char *end, kpca_error *err);

#endif
