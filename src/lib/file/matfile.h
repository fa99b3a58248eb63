/* matfile.h - MATLAB MAT-files, version 5 (v6, v7) and 7.3, through
 * Debian's libmatio.
 *
 * A variable reads as MATLAB shows it: an r x c matrix is r points of c
 * values (MATLAB stores columns first; the values come out row-major, as
 * kpca holds data).  Numeric classes (double, single, int8..uint64) and
 * logical read as doubles; complex, sparse, char, cell, struct and object
 * variables, and arrays of more than two dimensions, are refused by name
 * and shape, with what to do.  libmatio's own messages are caught (the
 * library prints nothing) and HDF5's error stack is silenced (h5util.h).
 * Not thread-safe: libmatio's logger is process-wide.
 *
 * A file of version 4 (no header) is not looked for: kpca finds MATLAB
 * files by the text header of versions 5 and 7.3 (file/magic.h). */
#ifndef KPCA_MATFILE_H
#define KPCA_MATFILE_H

#include <stddef.h>

#include "support/error.h"

/* 1 when head (n bytes) starts a MATLAB 5 or 7.3 MAT-file: the text
 * "MATLAB 5.0 MAT-file" or "MATLAB 7.3 MAT-file" of its 128-byte header.
 * O(1). */
int kpca_mat_is(const unsigned char *head, size_t n);

/* 1 when path is a regular file that begins with such a header (a
 * stream is not opened: it could be read only once).  One open and a read
 * of 32 bytes. */
int kpca_mat_file(const char *path);

typedef struct {
    char *name;        /* owned */
    int rank;          /* its number of dimensions (2 or more) */
    size_t dims[4];    /* the first four of them (MATLAB's order) */
    const char *cls;   /* "double", "single", "int8".., "logical", "char",
                        * "cell", "struct", "sparse", "object"... (static) */
    int complex;       /* 1: complex values */
    int matrix;        /* 1: real, dense, numeric or logical, of rank 2 */
} kpca_mat_var;

/* The variables of the file at path, in the file's order, into *vars
 * (newly allocated, *n of them; kpca_mat_vars_free).  Reads each
 * variable's header, not its data: O(variables) for version 7.3, O(the
 * file) for a compressed version 5 file (each variable inflated once).
 * Errors: KPCA_EIO (cannot open), KPCA_EFORMAT (not a MAT-file libmatio
 * reads, damaged), KPCA_ENOMEM. */
kpca_status kpca_mat_list(const char *path, kpca_mat_var **vars, size_t *n, kpca_error *err);
void kpca_mat_vars_free(kpca_mat_var *vars, size_t n);

/* The shape "2000 x 256" (or "256 x 1100 x 10") of v into buf (cap
 * bytes); returns buf. */
const char *kpca_mat_shape(const kpca_mat_var *v, char *buf, size_t cap);

/* Reads variable `name` ("/NAME" too) of the file at path (NULL: the file's one numeric
 * matrix; with none or several, refused listing every variable and its
 * shape, with the FILE:NAME that reads one) into *x (rows x cols doubles,
 * row-major, newly allocated: kpca_free), *name_out (the variable read,
 * newly allocated; may be NULL).  Every value must be finite (refused
 * naming the row and column).  O(rows x cols) time; the variable is held
 * twice while converting.  Errors: KPCA_EIO, KPCA_EFORMAT (no such
 * variable, not a real dense numeric matrix, an array of more dimensions
 * (with a reshape that makes it one), a value not finite, damaged),
 * KPCA_ENOMEM; on failure *x is NULL. */
kpca_status kpca_mat_read(const char *path, const char *name, double **x, size_t *rows, size_t *cols,
                          char **name_out, kpca_error *err);

#endif
