/* labels.h - class labels from text: integers, or names mapped to codes.
 *
 * Labels are any integers (0..9, 1..10, -1/+1, ...) or, as soon as one of
 * them is not a number, names: each distinct name becomes a code 0..C-1 in
 * the order of first appearance, and the names are kept in the data set
 * (kpca_dataset.names, freed by kpca_dataset_free).
 */
#ifndef KPCA_LABELS_H
#define KPCA_LABELS_H

#include <stddef.h>

#include "io/dataset.h"

/* Fills ds->y (n entries, allocated here; ds->y must be NULL) and, for
 * names, ds->names from the label texts tok[0..n-1] (NUL-terminated,
 * surrounding blanks ignored).  line[i] (may be NULL) and col (0: none)
 * place a bad label in messages ("'PATH' line L, column C: ..."): an empty
 * label, or a number that is not an integer in int's range.  O(n) expected
 * (names through a hash table).  On failure ds is unchanged. */
kpca_status kpca_labels_from_text(const char *path, char *const *tok, const size_t *line, size_t col, size_t n,
                                  kpca_dataset *ds, kpca_error *err);

/* Whitespace text's rule for a label column (io/dataset_text.c): decided
 * on the first KPCA_ESL_DECIDE_ROWS rows (the whole file when shorter). */
#define KPCA_ESL_DECIDE_ROWS 10000
/* The most distinct values a column of n rows holds to pass for class
 * labels: max(KPCA_CLASSES_FEW, floor(sqrt(n))). */
#define KPCA_CLASSES_FEW 10
/* The most that limit can be: sqrt(KPCA_ESL_DECIDE_ROWS) */
#define KPCA_CLASSES_MAX 100

/* Whitespace text's label rule (docs/own-data.md), on the first
 * KPCA_ESL_DECIDE_ROWS of the n rows x (ncol numbers each, ncol >= 2):
 * the first column is ESL's labels (1) when it is set apart from the
 * others by value: every value an integer in int's range, 2 to
 * max(KPCA_CLASSES_FEW, sqrt(n)) distinct values, and the other columns
 * not all integers (a file of pixels, counts or 0/1 is unlabelled: 0).
 * -1 when it would be labels but for a few values that are not integers
 * (at most 1 % of the rows judged; *bad: the first one's row): a damaged
 * line, which the reader refuses.  *classes: the distinct integers of the
 * first column (up to one past the limit).  O(n (ncol + KPCA_CLASSES_MAX)),
 * no allocation. */
int kpca_labels_esl_like(const double *x, size_t n, size_t ncol, size_t *classes, size_t *bad);

/* A column of the unlabelled n x dim values x that looks like class
 * labels: integers of between 2 and max(KPCA_CLASSES_FEW, sqrt(n)) distinct
 * values, each on at least 2 rows on average; the last column is looked at
 * first, then the first; looked at on the first KPCA_ESL_DECIDE_ROWS
 * rows.  Its index from 0, or dim when neither; *classes its distinct
 * values.  For the note that suggests --label.  No allocation. */
size_t kpca_labels_class_like(const double *x, size_t n, size_t dim, size_t *classes);

/* The labels of a label column met a row at a time (io/rowsrc.h), with
 * the outcome of kpca_labels_from_text over all of them: a first pass
 * sees every label (kpca_labelmap_see), then the verdict says whether they
 * are integers (the codes are their values) or names (numbered in the
 * order they first appear), and is the error of the missing labels (an
 * empty field, 'NA', 'nan', '?'... as pandas reads them: how many and on
 * which lines first), or of the first number that is not an integer when
 * no name is among them;
 * for names, a second pass gives each label in file order to
 * kpca_labelmap_name.  kpca_labelmap_code then maps a label to its code.
 * Messages name path, the line and the column col (from 1) as
 * kpca_labels_from_text does.  Memory: the distinct names (none for
 * integer labels).  Free with kpca_labelmap_free (NULL is fine). */
typedef struct kpca_labelmap kpca_labelmap;
kpca_labelmap *kpca_labelmap_new(void);
kpca_status kpca_labelmap_see(kpca_labelmap *m, const char *path, char *tok, size_t line, size_t col,
                              kpca_error *err);
kpca_status kpca_labelmap_verdict(kpca_labelmap *m, const char *path, size_t col, int *names, kpca_error *err);
kpca_status kpca_labelmap_name(kpca_labelmap *m, const char *path, char *tok, kpca_error *err);
/* The code of tok; KPCA_EFORMAT for a label the first pass did not see so
 * (the file changed between the passes). */
kpca_status kpca_labelmap_code(kpca_labelmap *m, const char *path, char *tok, size_t line, int *code,
                               kpca_error *err);
/* The names, in code order (NULL for integer labels): borrowed. */
char **kpca_labelmap_names(const kpca_labelmap *m, size_t *n);
/* A first pass's findings in a few bytes, so that the passes of a file's
 * parts (kpca-mpi: one part a process, rowsrc.h) make the verdict of one
 * pass over the whole: the missing labels (their count, first lines and
 * mark), whether a name was seen, the line and text of the first number
 * that is no integer.
 * kpca_labelmap_seen_add merges a part's into m, parts in file order (the
 * lines counted in the whole file). */
/* 1 for a field that says its value is missing: an empty one, and what
 * pandas.read_csv reads as NaN by default ('NA', 'nan', 'NULL', 'None',
 * '#N/A'...), and '?' (UCI's and ARFF's mark); exact, no blanks around.
 * The labels' missing mark, and what does not make a CSV's first row a
 * header (csvrows.c).  O(1). */
int kpca_labels_missing_mark(const char *t);

#define KPCA_LABELS_MISSING_SHOWN 3 /* the lines of missing labels a message names */
typedef struct {
    unsigned long long first_bad;
    int names;
    char bad[48];
    unsigned long long missing;                              /* labels that say they are missing */
    unsigned long long missing_at[KPCA_LABELS_MISSING_SHOWN]; /* the lines of the first of them */
    char mark[16];                                            /* the first one's text */
    unsigned long long not_utf8, not_utf8_col;                /* the line (0: none) and column of the */
    char not_utf8_name[48];                                   /* first name that is not UTF-8 */
} kpca_labelmap_seen;
void kpca_labelmap_seen_get(const kpca_labelmap *m, kpca_labelmap_seen *seen);
void kpca_labelmap_seen_add(kpca_labelmap *m, const kpca_labelmap_seen *seen);
void kpca_labelmap_free(kpca_labelmap *m);

/* Reads the labels of an unlabelled data set of ds->n points from `path`: a
 * 1-D NumPy array of integers (or integral floats), or text with one label
 * per line or "index<sep>label" lines whose indices count the lines from 0
 * or 1 (sep ',', tab, ';' or blanks), fields unquoted by text/csvtok.h's
 * rule, after at most one header line (docs/own-data.md says which; blank
 * lines skipped; plain or compressed); a pipe or other non-regular
 * file is read once, as text.  Replaces ds->y, sets
 * ds->names for names and clears ds->unlabelled.  A count other than ds->n
 * is an error naming both counts.  On failure ds is unchanged. */
kpca_status kpca_labels_read(const char *path, kpca_dataset *ds, kpca_error *err);

#endif
