/* dataset_text.h - whitespace text (ESL, or values only) and LIBSVM
 * text, read whole or a row at a time (dataset_text.c).  Not an API:
 * io/read.c and the row source (rowsrc.c, rowpart.c) call them. */
#ifndef KPCA_DATASET_TEXT_H
#define KPCA_DATASET_TEXT_H

#include <stddef.h>

#include "io/dataset.h"

/* The whole reads (io/read.c dispatches to them); skip: the lines
 * --skip-rows skips first (kpca_esl_rows_open). */
kpca_status kpca_read_esl(const char *path, size_t dim, size_t skip, kpca_dataset *ds, kpca_error *err);
kpca_status kpca_read_libsvm(const char *path, size_t dim, kpca_dataset *ds, kpca_error *err);
/* Whitespace text (ESL, or values only) read a row at a time
 * (io/rowsrc.h); kpca_read_esl reads it so to its end.  Open skips the
 * file's first `skip` lines (--skip-rows: physical lines, as
 * kpca_textfile_skip counts them; KPCA_EUSAGE by kpca_textfile_skip_fail
 * when the file has no more), then reads the first KPCA_ESL_DECIDE_ROWS
 * rows (io/labels.h) to decide whether the
 * first column holds labels, and holds them: *vdim (the values per row,
 * checked against dim != 0) and *labelled are known from then on.  Each
 * read hands out up to max rows (x: max x vdim; y, when not NULL: their
 * labels, 0 when unlabelled); *got 0 at the end.  After an error every
 * read fails.  Memory: the held rows and one line. */
typedef struct kpca_esl_rows kpca_esl_rows;
kpca_status kpca_esl_rows_open(const char *path, size_t dim, size_t skip, kpca_esl_rows **r, size_t *vdim,
                               int *labelled, kpca_error *err);
/* Where the text after the lines skipped starts: its byte (0 without
 * --skip-rows) into *byte, and the number of its first line into *line. */
void kpca_esl_rows_start(const kpca_esl_rows *r, unsigned long long *byte, size_t *line);
kpca_status kpca_esl_rows_read(kpca_esl_rows *r, size_t max, double *x, int *y, size_t *got, kpca_error *err);
/* Goes on from byte `byte` of the file, the start of line `line`, the
 * layout decided at open (the rows held are not handed out again), and
 * reads no byte at or after `end` (0: to the end of the file).  KPCA_EIO
 * when the file cannot seek. */
kpca_status kpca_esl_rows_jump(kpca_esl_rows *r, unsigned long long byte, size_t line, unsigned long long end,
                               kpca_error *err);
/* Back to the first row, the layout and the rows held kept (no second
 * decision): costs a seek, where a new open parses the held rows again.
 * KPCA_EIO when the file cannot seek. */
kpca_status kpca_esl_rows_rewind(kpca_esl_rows *r, kpca_error *err);
void kpca_esl_rows_close(kpca_esl_rows *r);

/* LIBSVM text read a row at a time (io/rowsrc.h): open reads the whole
 * file once, with kpca_read_libsvm's checks and messages, for its row
 * count *n and its dimension *d (the largest index, or dim when given);
 * reads then hand out dense rows of d values (y: the labels).  Memory: one
 * line's pairs. */
typedef struct kpca_libsvm_rows kpca_libsvm_rows;
kpca_status kpca_libsvm_rows_open(const char *path, size_t dim, kpca_libsvm_rows **r, size_t *n, size_t *d,
                                  kpca_error *err);
kpca_status kpca_libsvm_rows_read(kpca_libsvm_rows *r, size_t max, double *x, int *y, size_t *got,
                                  kpca_error *err);
/* Back to the first row, the count and dimension of open kept (no second
 * pass over the file). */
kpca_status kpca_libsvm_rows_rewind(kpca_libsvm_rows *r, kpca_error *err);
void kpca_libsvm_rows_close(kpca_libsvm_rows *r);

#endif
