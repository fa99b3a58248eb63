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

/* Reads the labels of an unlabelled data set of ds->n points from `path`: a
 * 1-D NumPy array of integers (or integral floats), or text with one label
 * per line (blank lines skipped; plain or gzip); a pipe or other non-regular
 * file is read once, as text.  Replaces ds->y, sets
 * ds->names for names and clears ds->unlabelled.  A count other than ds->n
 * is an error naming both counts.  On failure ds is unchanged. */
kpca_status kpca_labels_read(const char *path, kpca_dataset *ds, kpca_error *err);

/* Reads a whole file, through gzip when compressed, into a new
 * NUL-terminated buffer (*len bytes before the NUL).  A plain file of 8 MiB
 * and more is read by one thread per online CPU (at most 8), each into its
 * own stretch of the buffer; one that changes size meanwhile is read again
 * as a stream.  A NUL byte inside is an error naming its line ("binary
 * data?").  Free with kpca_free. */
kpca_status kpca_read_text_file(const char *path, char **buf, size_t *len, kpca_error *err);

#endif
