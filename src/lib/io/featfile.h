/* featfile.h - writing projected features (kpca transform's output).
 *
 * HDF5: datasets `data` (n x k, float64) and `target` (n, int32) at the root
 * (so every kpca reader reads them back), `eigenvalues` (k), and attributes
 * format ("kpca-features"), kpca_version, model, model_id (the model's
 * fingerprint, so that eval can refuse features of two models), source.
 * LIBSVM: "label 1:z1 2:z2 ... k:zk" (all k values, %.17g).
 * CSV: a header "label,z1,...,zk" then one row per point (%.17g).
 * The same writer serves other per-point vectors (kpca denoise's pre-images:
 * format "kpca-preimages", CSV columns x1..xD) through the meta fields.
 * Numbers are written with printf: a program linking libkpca must keep
 * LC_NUMERIC at "C" (the kpca CLI never changes it).  Files appear atomically.
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

/* The output format a file name asks for, ignoring case: .h5/.hdf5/.he5
 * -> HDF5, .csv -> CSV, .libsvm/.svm/.txt and "-" (standard output) ->
 * LIBSVM; any other name -> KPCA_FMT_AUTO (unknown: the caller asks for the
 * format rather than guess). */
kpca_format kpca_format_from_name(const char *path);

/* The suffixes kpca_format_from_name knows, for messages. */
#define KPCA_FEATURE_SUFFIXES ".h5 (or .hdf5), .csv or .libsvm (or .svm, .txt)"

#endif
