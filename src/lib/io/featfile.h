/* featfile.h - writing projected features (kpca transform's output) in
 * HDF5, LIBSVM, CSV or NPY, laid out as docs/file-formats.md, "Feature
 * files", specifies, and what a feature file says of itself when read back.
 * Without labels (y NULL): HDF5 has no `target`, CSV no label column, NPY
 * never has one, and LIBSVM, whose lines begin with a label, is refused.
 * Class names (meta->names): HDF5 keeps them in `class_names` beside the
 * codes in `target`, CSV writes the names in its label column (quoted when
 * they need it), LIBSVM writes the codes (its labels are numbers: the
 * caller says what they stand for), NPY has no labels.
 * The same writer serves other per-point vectors (kpca denoise's pre-images)
 * through the meta fields.  Numbers are written with printf: a program
 * linking libkpca must keep LC_NUMERIC at "C" (the kpca CLI never changes
 * it).  Files appear atomically.
 */
#ifndef KPCA_FEATFILE_H
#define KPCA_FEATFILE_H

#include <stddef.h>
#include <stdio.h>

#include "io/dataset.h"
#include "support/error.h"

/* The HDF5 `format` attribute of a kpca feature file. */
#define KPCA_FEATURES_FORMAT "kpca-features"

/* What a kpca feature file says of itself, filled by the HDF5 reader
 * (kpca_dataset_read_info, io/dataset.h).  Only a sealed HDF5 file read at
 * its root is looked at; text formats cannot say it, and leave it zero. */
typedef struct kpca_featinfo {
    int features;           /* 1: kpca features (format KPCA_FEATURES_FORMAT) */
    unsigned long model_id; /* their model's fingerprint (kpca_model_fingerprint);
                             * 0: none recorded */
} kpca_featinfo;

typedef struct {
    const char *model;     /* model path, for provenance (may be NULL) */
    const char *source;    /* data path, for provenance (may be NULL) */
    const double *eigval;  /* k eigenvalues (may be NULL) */
    const char *format;    /* HDF5 `format` attribute; NULL: KPCA_FEATURES_FORMAT */
    char column;           /* CSV column names: label,<column>1,...; 0: 'z' */
    unsigned long model_id; /* HDF5 `model_id`: kpca_model_fingerprint (0: none) */
    char *const *names;     /* the class names y's codes index (kpca_dataset.names);
                             * NULL: integer labels */
    size_t nnames;
} kpca_features_meta;

/* Writes z (n x k, row-major) with labels y to path in format fmt (HDF5,
 * LIBSVM or CSV; "-" is standard output for the text formats). */
kpca_status kpca_features_write(const char *path, kpca_format fmt, const double *z, size_t n, size_t k,
                                const int *y, const kpca_features_meta *meta, kpca_error *err);

/* The output format a file name asks for, ignoring case: .h5/.hdf5/.he5
 * -> HDF5, .csv -> CSV, .npy -> NPY, .libsvm/.svm/.txt and "-" (standard
 * output) -> LIBSVM; any other name -> KPCA_FMT_AUTO (unknown: the caller
 * asks for the format rather than guess). */
kpca_format kpca_format_from_name(const char *path);

/* Writes the text s to fp as one field: as it is, or in double quotes
 * (inner quotes doubled, RFC 4180) when it is empty, holds one of the
 * characters of `special` or has a blank at either end. */
void kpca_put_field(FILE *fp, const char *s, const char *special);

/* The suffixes kpca_format_from_name knows, for messages. */
#define KPCA_FEATURE_SUFFIXES ".h5 (or .hdf5), .csv, .npy or .libsvm (or .svm, .txt)"

#endif
