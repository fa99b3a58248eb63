/* featfile.h - writing projected features (kpca transform's output) in
 * HDF5, LIBSVM or CSV, laid out as docs/file-formats.md, "Feature files",
 * specifies.  The same writer serves other per-point vectors (kpca denoise's
 * pre-images) through the meta fields.  Numbers are written with printf: a
 * program linking libkpca must keep LC_NUMERIC at "C" (the kpca CLI never
 * changes it).  Files appear atomically.
 */
#ifndef KPCA_FEATFILE_H
#define KPCA_FEATFILE_H

#include <stddef.h>

#include "io/dataset.h"
#include "support/error.h"

typedef struct {
    const char *model;     /* model path, for provenance (may be NULL) */
    const char *source;    /* data path, for provenance (may be NULL) */
    const double *eigval;  /* k eigenvalues (may be NULL) */
    const char *format;    /* HDF5 `format` attribute; NULL: "kpca-features" */
    char column;           /* CSV column names: label,<column>1,...; 0: 'z' */
    unsigned long model_id; /* HDF5 `model_id`: kpca_model_fingerprint (0: none) */
} kpca_features_meta;

/* Writes z (n x k, row-major) with labels y to path in format fmt (HDF5,
 * LIBSVM or CSV; "-" is standard output for the text formats). */
kpca_status kpca_features_write(const char *path, kpca_format fmt, const double *z, size_t n, size_t k,
                                const int *y, const kpca_features_meta *meta, kpca_error *err);

/* Guesses the output format from a file name, ignoring case: .h5/.hdf5/.he5
 * -> HDF5, .csv -> CSV, anything else (.svm, .libsvm, .txt, "-") -> LIBSVM. */
kpca_format kpca_format_from_name(const char *path);

#endif
