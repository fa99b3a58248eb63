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

/* A feature file written a block of rows at a time, all or nothing: the
 * layout of kpca_features_write, byte for byte, whatever the blocks.
 * kpca_features_open starts `path` (file/atomic.h; "-", a device or a FIFO
 * written in place) for n rows of k values, with labels when `labelled`
 * (LIBSVM needs them: KPCA_EUSAGE, no file, when they are missing) and
 * meta (may be NULL; its class names are borrowed until commit or abort):
 * NPY's header, CSV's header row, HDF5's attributes and datasets, their
 * storage allocated (so an HDF5 file to a regular file takes no memory per
 * row; to standard output, a device or a FIFO it is built in memory, n k
 * doubles).  kpca_features_put writes the next `rows` rows (z: rows x k;
 * y: their labels, the codes of meta->names; NULL when not labelled).
 * kpca_features_commit checks that all n rows came and puts the file in
 * place; kpca_features_abort removes what was written.  Commit and abort
 * free the writer, which any failure of put leaves for abort.  Text is
 * written a row at a time through stdio (so to standard output as it
 * comes); NPY and HDF5 rows go straight to their place in the file.
 * Errors: KPCA_EUSAGE (format), KPCA_EIO (the file, a full disk),
 * KPCA_ENOMEM, KPCA_EINTERNAL (more or fewer rows than n, labels that
 * meta->names does not name). */
typedef struct kpca_features_writer kpca_features_writer;
kpca_status kpca_features_open(const char *path, kpca_format fmt, size_t n, size_t k, int labelled,
                               const kpca_features_meta *meta, kpca_features_writer **w, kpca_error *err);
kpca_status kpca_features_put(kpca_features_writer *w, const double *z, const int *y, size_t rows, kpca_error *err);
kpca_status kpca_features_commit(kpca_features_writer *w, kpca_error *err);
void kpca_features_abort(kpca_features_writer *w);

/* Writes z (n x k, row-major) with labels y to path in format fmt (HDF5,
 * LIBSVM, CSV or NPY; "-" is standard output): the writer above with one
 * block. */
kpca_status kpca_features_write(const char *path, kpca_format fmt, const double *z, size_t n, size_t k,
                                const int *y, const kpca_features_meta *meta, kpca_error *err);

/* One feature file written by several processes (kpca-mpi transform), each
 * its own run of rows, with no rows passed between them.  The process that
 * opened the file (kpca_features_open) keeps its first `rows` rows and
 * describes the file to the others (kpca_features_share: *lay, plain
 * bytes to send as they are); each other process opens a part,
 * kpca_features_open_part (rows [first, first + rows), its own meta), and
 * puts its rows as above.  NPY and HDF5 parts write their rows straight
 * into the shared temporary file at their offsets; a text part writes its
 * own temporary file beside path.  Then every writer's
 * kpca_features_bytes (text: the bytes it wrote, the opener's header
 * included; 0 for NPY and HDF5) gives each text part its offset, the sum
 * of those before it; kpca_features_place (collectively, after every put)
 * completes a part: text copied into the shared file at `at` and its own
 * file removed, NPY and HDF5 synced; then the opener commits (or aborts),
 * and the file is the one a single writer of all the rows writes.  A part
 * that fails is aborted (its own file removed; its rows in the shared file
 * go with the opener's abort).  The processes share the directory of path
 * on a file system that shows each one's writes to the others once written
 * and synced (a local disk, Lustre, GPFS, BeeGFS).  Errors of share:
 * KPCA_EUSAGE for an output that is no regular file (standard output, a
 * device, a FIFO) or a path too long, KPCA_EIO for an HDF5 file built in
 * memory because its file system cannot reserve blocks; the others' as
 * above. */
typedef struct {
    kpca_format fmt;
    size_t n, k;
    int labelled;
    unsigned long long data_at, label_at; /* NPY, HDF5: the offsets of row 0's values and label */
    char tmp[4096];                       /* the shared temporary file */
} kpca_features_layout;
kpca_status kpca_features_share(kpca_features_writer *w, size_t rows, kpca_features_layout *lay, kpca_error *err);
kpca_status kpca_features_open_part(const kpca_features_layout *lay, const char *path, size_t first, size_t rows,
                                    const kpca_features_meta *meta, kpca_features_writer **w, kpca_error *err);
kpca_status kpca_features_bytes(kpca_features_writer *w, unsigned long long *bytes, kpca_error *err);
kpca_status kpca_features_place(kpca_features_writer *w, unsigned long long at, kpca_error *err);

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
