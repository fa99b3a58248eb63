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

/* Reads a 1-D array (or n x 1) of integers or integral floats as labels:
 * *y newly allocated (kpca_free), *n its length. */
kpca_status kpca_npy_read_labels(const char *path, int **y, size_t *n, kpca_error *err);

/* Writes x (n x k, row-major) as a version 1.0 .npy of float64, C order,
 * atomically (file/atomic.h; "-" is standard output). */
kpca_status kpca_npy_write(const char *path, const double *x, size_t n, size_t k, kpca_error *err);

#endif
