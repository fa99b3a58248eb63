/* rowsrc.h - a data file read a block of rows at a time (the streamed fit
 * and transform, kpca-mpi's row ranges).
 *
 * A row source reads what kpca_dataset_read reads (dataset.h: the same
 * specs, formats found from the content, read options, labels and class
 * names, and the same first error with the same message), but hands out
 * the rows in blocks, in file order, so that a caller holding one block
 * needs memory independent of the file's row count.  The rows, labels and
 * class codes of the blocks, put end to end, are those of
 * kpca_dataset_read, bit for bit, whatever the block sizes.
 *
 * What needs the whole file is settled when the source is opened: the
 * dimension, whether the rows are labelled, and the labels' codes (class
 * names are numbered in the order they first appear in the file, so a
 * source of text with a label column reads the file's labels once at
 * open).  The row count is known at open for NPY and HDF5 and after
 * kpca_rowsrc_count (one pass) for text.  A stream ("-", a pipe) is read
 * through a spool (file/source.h), so a source can always be read again
 * from the start and from any row.
 *
 * Memory: O(block) for the rows handed out, plus O(dim) and the class
 * names; kpca_rowsrc_open itself reads at most a bounded head of a text
 * file beyond the label pass. */
#ifndef KPCA_ROWSRC_H
#define KPCA_ROWSRC_H

#include <stddef.h>

#include "io/dataset.h"
#include "support/error.h"

typedef struct kpca_rowsrc kpca_rowsrc;

/* Opens spec ("FILE", "FILE:GROUP", "-") with the read options of
 * kpca_dataset_read (opts may be NULL; opts->labels, a separate labels
 * file, is read whole at open: O(n) ints).  *src is a new source (close it
 * with kpca_rowsrc_close); NULL on failure.  Errors: those of
 * kpca_dataset_read that the file's first rows (or its header, for NPY and
 * HDF5) show, KPCA_ENOMEM; an error in a later row is reported by the read
 * that reaches it. */
kpca_status kpca_rowsrc_open(const char *spec, const kpca_read_opts *opts, kpca_rowsrc **src, kpca_error *err);

/* The values per row; the file's format (ESL, LIBSVM, CSV, NPY, HDF5). */
size_t kpca_rowsrc_dim(const kpca_rowsrc *src);
kpca_format kpca_rowsrc_format(const kpca_rowsrc *src);

/* 1 when the rows have labels (kpca_dataset.unlabelled is 0), else 0. */
int kpca_rowsrc_labelled(const kpca_rowsrc *src);

/* The description of the data set kpca_dataset_read would give, without
 * its rows: n, dim, format, unlabelled, names/nnames (the class names the
 * codes index, NULL for integer labels), colnames, label_col, label_name,
 * index_col; x and y NULL.  n is 0 until the row count is known
 * (kpca_rowsrc_count).  Borrowed: valid until kpca_rowsrc_close. */
const kpca_dataset *kpca_rowsrc_info(const kpca_rowsrc *src);

/* The row count: at once for NPY and HDF5, for delimited text (counted
 * by the labels' pass at open) and for a source already read to its end;
 * else one pass over the file (not moving the reading position).  The
 * passes over text parse no value (whitespace text: its lines with
 * anything but blanks counted), so a value that is no number is reported
 * by the read that reaches it; delimited text's pass finds the errors of
 * its rows' shape (fields, quotes).  A source opened for a part of a
 * shared read (kpca_rowsrc_open_shared) parses, and finds the first error
 * a later read would report.  Errors: the file's, KPCA_ENOMEM. */
kpca_status kpca_rowsrc_count(kpca_rowsrc *src, size_t *n, kpca_error *err);

/* Reads the next rows, at most `max` (>= 1), into x (max x dim values,
 * row-major) and, when y is not NULL, their labels (the codes of
 * kpca_dataset_read; 0 for unlabelled rows); *got: the rows read, 0 at the
 * end of the file.  A failed read leaves the source at its error: every
 * later read fails the same way.  x's rows after the *got read may be
 * written (delimited text parses a window's rows straight into x where
 * they fit).  Cost: O(rows x dim) plus the text's parsing; memory: no more
 * than a bounded window of the file besides x. */
kpca_status kpca_rowsrc_read(kpca_rowsrc *src, size_t max, double *x, int *y, size_t *got, kpca_error *err);

/* Moves the reading position to row `row` (0-based; row == n is the end):
 * O(1) for NPY and HDF5, a pass over the rows before it for text (from the
 * start, or from a row the source has passed before).  KPCA_EUSAGE for a
 * row beyond the end. */
kpca_status kpca_rowsrc_seek(kpca_rowsrc *src, size_t row, kpca_error *err);

/* The reading position: the row the next read starts at. */
size_t kpca_rowsrc_tell(const kpca_rowsrc *src);

/* Closes the source and frees everything it holds; NULL is fine. */
void kpca_rowsrc_close(kpca_rowsrc *src);

#endif
