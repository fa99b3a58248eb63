/* h5util.h - reading HDF5 files: opening one behind its seal (h5seal.h),
 * datasets and attributes, for the data reader, the model file and the
 * feature reader (writing: h5write.h).  All of them silence HDF5's own error
 * printing (the library never prints) and report through kpca_error. */
#ifndef KPCA_H5UTIL_H
#define KPCA_H5UTIL_H

#include <hdf5.h>
#include <stddef.h>

#include "support/error.h"
#include "file/h5seal.h"

/* Turns off HDF5's automatic error stack printing (idempotent). */
void kpca_h5_quiet(void);

typedef enum {
    KPCA_SEAL_IF_PRESENT = 0, /* check a seal if the file has one (data, features) */
    KPCA_SEAL_REQUIRED        /* refuse a file without one (models) */
} kpca_seal_mode;

/* Opens `path` read-only after checking its seal as `mode` says; a missing
 * file is KPCA_EIO, a non-HDF5, unsealed (when required) or damaged one
 * KPCA_EFORMAT.  A stream ("-", a pipe, a FIFO: file/source.h) is read once
 * into a spool that is removed once libhdf5 has it open; its errors too. */
kpca_status kpca_h5_open_read(const char *path, kpca_seal_mode mode, hid_t *file, kpca_error *err);
/* The same, saying whether the file carried a (valid) seal: only then may a
 * reader look further than it must (libhdf5 1.10.8 has memory-safety bugs on
 * damaged files, e.g. in H5Aexists, that a seal keeps away). */
kpca_status kpca_h5_open_read_sealed(const char *path, kpca_seal_mode mode, hid_t *file, int *sealed,
                                     kpca_error *err);

/* Reads dataset `name` under `loc` as doubles (rank 1 or 2, float or integer
 * class).  dims[1] is 1 for rank 1.  *out is allocated with kpca_malloc. */
kpca_status kpca_h5_read_doubles(hid_t loc, const char *path, const char *name, int want_rank,
                                 size_t dims[2], double **out, kpca_error *err);
/* Reads an integer-class dataset of rank 1 (or n x 1) as ints, range-
 * checked; floats: a float-class one too, when every value is an integer
 * (h5py's targets written as 1.0: labels as the CSV reader reads "1.0"),
 * else the first that is not is the error. */
/* Row ranges of a dataset, for the readers by blocks (io/rowsrc.h).
 * kpca_h5_open_numbers opens a numeric dataset of rank want_rank with the
 * checks and messages of kpca_h5_read_doubles, and kpca_h5_open_ints an
 * integer vector (rank 1, or n x 1) with those of kpca_h5_read_ints
 * (floats that are integers taken),
 * neither reading its values nor checking the memory budget: *d is open
 * (H5Dclose it), dims[] / *n its shape.  kpca_h5_read_rows reads rows
 * [row0, row0 + rows) of such an open dataset of ncols columns (1 for a
 * vector) into buf as doubles, kpca_h5_read_int_rows as ints range-checked
 * as kpca_h5_read_ints checks them (its message, the row numbered in the
 * file).  KPCA_EFORMAT when libhdf5 cannot read them (a damaged file). */
kpca_status kpca_h5_open_numbers(hid_t loc, const char *path, const char *name, int want_rank, hid_t *d,
                                 size_t dims[2], kpca_error *err);
kpca_status kpca_h5_open_ints(hid_t loc, const char *path, const char *name, hid_t *d, size_t *n, kpca_error *err);
kpca_status kpca_h5_read_rows(hid_t d, const char *path, const char *name, size_t row0, size_t rows, size_t ncols,
                              double *buf, kpca_error *err);
kpca_status kpca_h5_read_int_rows(hid_t d, const char *path, const char *name, size_t row0, size_t rows, int *buf,
                                  kpca_error *err);
kpca_status kpca_h5_read_ints(hid_t loc, const char *path, const char *name, int floats, size_t *n,
                              int **out, kpca_error *err);
/* Reads a rank-1 dataset of strings (fixed or variable length) into *out,
 * *n newly allocated NUL-terminated copies (kpca_free each and the array);
 * a string stops at its first NUL. */
kpca_status kpca_h5_read_strings(hid_t loc, const char *path, const char *name, size_t *n, char ***out,
                                 kpca_error *err);

kpca_status kpca_h5_attr_read_double(hid_t loc, const char *path, const char *name, double *v, kpca_error *err);
kpca_status kpca_h5_attr_read_long(hid_t loc, const char *path, const char *name, long *v, kpca_error *err);
/* Reads a fixed-length string attribute into buf; KPCA_EFORMAT if it does
 * not fit cap - 1 characters or holds a control character. */
kpca_status kpca_h5_attr_read_string(hid_t loc, const char *path, const char *name, char *buf, size_t cap,
                                     kpca_error *err);
/* The same for free text (provenance): control characters become '?', so
 * that a file written before they were refused still reads. */
kpca_status kpca_h5_attr_read_text(hid_t loc, const char *path, const char *name, char *buf, size_t cap,
                                   kpca_error *err);

#endif
