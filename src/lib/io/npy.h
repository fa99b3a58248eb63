/* npy.h - NumPy .npy files: 2-D arrays of numbers in, float64 out.
 *
 * Reads format versions 1.0, 2.0 and 3.0 with dtypes float64, float32,
 * int64/32/16/8 and uint64/32/16/8, little-endian (or one byte), in C or
 * Fortran order, straight from the file.  Refused, with the reason:
 * big-endian data, object, structured, string, bool, complex or half
 * dtypes, ranks other than the one asked for, and a header whose shape
 * does not match the file's size (so a header cannot make kpca allocate
 * more than the file holds).  Values must be finite.
 */
#ifndef KPCA_NPY_H
#define KPCA_NPY_H

#include <stddef.h>

#include "io/dataset.h"

/* 1 when `path` starts with the NumPy magic "\x93NUMPY", else 0. */
int kpca_npy_is(const char *path);

/* Reads a 2-D array (n points x D values) into *ds, unlabelled (y all 0),
 * format KPCA_FMT_NPY.  dim != 0: the number of columns expected.  O(n D)
 * time, the values read by one thread per CPU (support/parts.h); n D
 * doubles of memory, plus the file's size for a dtype other than float64
 * or a Fortran-order array.  On failure *ds is left empty. */
kpca_status kpca_read_npy(const char *path, size_t dim, kpca_dataset *ds, kpca_error *err);

/* A 2-D array read by rows (io/rowsrc.h): the header read and checked as
 * kpca_read_npy checks it (the same messages), then any rows read with
 * pread, converted to float64, and checked finite (kpca_read_npy's message,
 * with the row's number in the file). */
typedef struct kpca_npy_rows kpca_npy_rows;

/* Opens path; *n and *d: the array's shape.  dim != 0: the columns
 * expected.  Close with kpca_npy_rows_close.  O(1) besides the header. */
kpca_status kpca_npy_rows_open(const char *path, size_t dim, kpca_npy_rows **r, size_t *n, size_t *d,
                               kpca_error *err);
/* Rows [row0, row0 + rows) into x (rows x d).  Memory: rows x d values of
 * the file's type for a type other than float64 or a Fortran-order array,
 * one buffer kept for the reads (freed by close).  KPCA_EIO when the file cannot be read,
 * KPCA_EFORMAT for a value that is not finite, KPCA_ENOMEM. */
kpca_status kpca_npy_rows_read(kpca_npy_rows *r, size_t row0, size_t rows, double *x, kpca_error *err);
void kpca_npy_rows_close(kpca_npy_rows *r);

/* Reads a 1-D array (or n x 1) of integers or integral floats as labels:
 * *y newly allocated (kpca_free), *n its length. */
kpca_status kpca_npy_read_labels(const char *path, int **y, size_t *n, kpca_error *err);

/* The header of a version 1.0 .npy of n x k float64 values in C order into
 * head (padded to 64 bytes, the last a newline); returns its length, after
 * which the values follow. */
#define KPCA_NPY_HEADER_MAX 128
size_t kpca_npy_header(size_t n, size_t k, char head[KPCA_NPY_HEADER_MAX]);

/* Writes x (n x k, row-major) as a version 1.0 .npy of float64, C order,
 * atomically (file/atomic.h; "-" is standard output). */
kpca_status kpca_npy_write(const char *path, const double *x, size_t n, size_t k, kpca_error *err);

#endif
