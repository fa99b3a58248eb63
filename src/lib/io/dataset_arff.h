/* dataset_arff.h - Weka's ARFF text (OpenML's data sets), dense.
 *
 * The header: `% comment` lines, blank lines, then, keywords in any case,
 * `@relation NAME`, one `@attribute NAME TYPE` a column and `@data`;
 * a name is quoted with ' or " when it holds blanks (a backslash escapes
 * the next character inside quotes).  TYPE: numeric, real or integer (the
 * values); a nominal `{a,b,'c d'}`; string and date (read only to be left
 * out with --drop); relational is refused.  The data: one row a line, the
 * attributes' values separated by commas, quoted as the names are.
 *
 * The labels: the one nominal attribute, wherever it stands; with several,
 * --label names the labels' one and the others must be left out (their
 * values are not numbers); --label may also name a numeric attribute of
 * integer labels (as a CSV file's label column), or none.  A nominal whose
 * declared values are all integers gives labels of those values (the CSV
 * reader's rule for a column of integers); any other gives class names in
 * the declared order, so that two files declaring one list (a train and a
 * test file) map their labels alike, and a declared value that no row
 * holds is still a class.  Value columns: every other attribute, or those
 * --columns and --drop name by attribute name or number (io/csvcols.h);
 * their names become the data set's column names.
 *
 * Refused, by name: sparse rows (`{0 1.5, 3 2}`), a string, date or
 * relational attribute among the values, a missing value '?' (kpca needs
 * every value), a value that is no number, a nominal value that was not
 * declared, a row with too few or too many values; each naming the file,
 * line and column ("'x.arff' line 7, column 3 ('p3'): expected a number,
 * found 'NA'").  No printing. */
#ifndef KPCA_DATASET_ARFF_H
#define KPCA_DATASET_ARFF_H

#include <stddef.h>

#include "io/dataset.h"

/* Reads the ARFF file at path (plain or compressed, through
 * text/textfile.h) into *ds: n x dim values, labels and class names as
 * above, colnames from the value attributes' names, label_col (from 1)
 * and label_name from the labels' attribute; unlabelled when there is
 * none.  opts (may be NULL) gives --label, --columns, --drop, a model's
 * columns (select) and the expected dim; --header and --decimal are for
 * CSV (refused by kpca_read_format, io/read.h).  O(the file's size) time;
 * memory: the text, plus n x dim doubles.  KPCA_EFORMAT for the refusals
 * above, KPCA_EUSAGE for options that name no attribute, KPCA_ENOMEM,
 * text/bytes.h's errors.  On failure *ds is left empty. */
kpca_status kpca_read_arff(const char *path, const kpca_read_opts *opts, kpca_dataset *ds, kpca_error *err);

/* 1 when the text's first len bytes (decompressed) start, after blank and
 * `%` comment lines and a UTF-8 byte-order mark, with `@relation` in any
 * case: an ARFF file, for format detection (io/read.c).  O(len). */
int kpca_arff_head(const char *text, size_t len);

#endif
