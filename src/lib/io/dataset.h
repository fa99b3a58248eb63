/* dataset.h - labelled data sets and their readers.
 *
 * A kpca_dataset owns a dense row-major matrix x (n rows of dim doubles) and
 * n integer labels y.  Readers accept three formats, detected from content:
 *
 *   ESL text   "label v1 v2 ... vD" per line, plain or gzip (the USPS
 *              zip.train.gz layout: digit labels 0..9, written 0.0000 or
 *              0); every line must have the same D.
 *   LIBSVM     "label idx:val idx:val ..." with 1-based, strictly ascending
 *              indices; plain or gzip; D is the largest index seen (or the
 *              dim given in the options; an index beyond it is an error).
 *   CSV        comma, semicolon or tab separated (io/csv.h): an optional
 *              header row, RFC 4180 quoting, a label column chosen by
 *              name or position (or none), labels integers or names.
 *   NPY        a 2-D NumPy array of numbers, no labels (io/npy.h).
 *   HDF5       a group holding `data` (n x D, any float or integer type),
 *              `target` (n, integer type) and, for class names,
 *              `class_names` (C strings that target's values index).  The
 *              group comes from the options or from a "FILE:GROUP" suffix;
 *              "/" is the default.
 *              "FILE:/path" naming a 2-D dataset reads it, without labels.
 *
 * Data without labels (NPY, an HDF5 dataset, --label none) is marked
 * unlabelled; the options' `labels` file gives it labels.
 *
 * Blank lines in text files are skipped; CR before LF is accepted; every
 * value must be a finite number and every label an integer.
 */
#ifndef KPCA_DATASET_H
#define KPCA_DATASET_H

#include <stddef.h>
#include <stdint.h>

#include "file/source.h" /* kpca_split_spec, the spool */
#include "support/error.h"
#include "support/rng.h" /* kpca_splitmix64, once declared here */

typedef enum {
    KPCA_FMT_AUTO = 0,
    KPCA_FMT_ESL,
    KPCA_FMT_LIBSVM,
    KPCA_FMT_HDF5,
    KPCA_FMT_CSV,
    KPCA_FMT_NPY,
    KPCA_FMT_MAT,  /* a MATLAB .mat file, v5 or v7.3 (file/matfile.h) */
    KPCA_FMT_ARFF  /* Weka's ARFF text (io/dataset_arff.h) */
} kpca_format;

/* Whether a CSV file's first row names the columns. */
typedef enum { KPCA_HEADER_AUTO = 0, KPCA_HEADER_YES, KPCA_HEADER_NO } kpca_header;

typedef struct {
    size_t n, dim;
    double *x;          /* n*dim, row-major, owned */
    int *y;             /* n labels, owned (all 0 when unlabelled) */
    kpca_format format; /* the format it was read from (AUTO if built in memory) */
    int unlabelled;     /* 1: the data came without labels */
    char **names;       /* class names, owned: y[i] is an index into them;
                         * NULL when the labels are integers */
    size_t nnames;
    char **colnames;    /* dim names of the value columns from a header row
                         * (owned; "" for an unnamed one); NULL when the file
                         * names none */
    size_t label_col;   /* the 1-based column of the file the labels came
                         * from; 0: not from a column (unlabelled, LIBSVM,
                         * HDF5, a --labels file) */
    char *label_name;   /* that column's header name (owned); NULL: none */
    size_t index_col;   /* the 1-based column left out as a row index (a
                         * pandas index); 0: none */
    int labels_indexed; /* a --labels file of "index,label" lines (pandas'
                         * Series.to_csv), its labels the second fields */
} kpca_dataset;

struct kpca_featinfo; /* io/featfile.h: what a kpca feature file says of itself */

typedef struct {
    kpca_format format; /* KPCA_FMT_AUTO: detect from content */
    const char *group;  /* HDF5 group; NULL: from "FILE:GROUP" or "/" */
    size_t dim;         /* expected dimension; 0: take it from the file */
    kpca_header header; /* CSV: whether the first row is a header */
    const char *label;  /* text: the label column: "first", "last", "none", a
                         * 1-based number or a header name; NULL: a header
                         * column label/target/class/y, else the first */
    const char *labels; /* a file of labels for data without them (a 1-D
                         * .npy or one label per line); NULL: none */
    const char *columns; /* text: the value columns to keep, in this order: a
                          * comma-separated list of header names or 1-based
                          * numbers; NULL: every column but the label's */
    const char *drop;    /* text: columns to leave out (the same list form);
                          * NULL: none */
    char decimal;        /* text: the decimal mark, '.' or ','; 0: '.' */
    const char *const *select; /* the value columns to keep by header name, in
                                * this order (a model's fit columns), in text
                                * with a header row; other files are read by
                                * position; NULL: none */
    size_t nselect;
    size_t skip_rows;    /* text: lines skipped at the start of the text
                          * (after decompression and a UTF-8 BOM), before
                          * the header or first row, whatever they hold
                          * (physical lines: text/textfile.h,
                          * kpca_textfile_skip); line numbers stay the
                          * file's; 0: none */
} kpca_read_opts;

/* "esl", "libsvm", "hdf5", "csv", "npy", "mat", "arff"; NULL for an unknown value. */
const char *kpca_format_name(kpca_format f);
/* Parses a format name; returns 0 on success, -1 if unknown. */
int kpca_format_parse(const char *name, kpca_format *out);

void kpca_dataset_free(kpca_dataset *ds);

/* Widens every row to `dim` >= ds->dim values with zeros: LIBSVM files omit
 * zeros, so two files of one feature space can show different largest
 * indices. */
kpca_status kpca_dataset_pad(kpca_dataset *ds, size_t dim, kpca_error *err);

/* Allocates an n x dim data set with zeroed values. */
kpca_status kpca_dataset_alloc(kpca_dataset *ds, size_t n, size_t dim, kpca_error *err);

/* Copies rows idx[0..m-1] of src into *dst. */
kpca_status kpca_dataset_select(const kpca_dataset *src, const size_t *idx, size_t m,
                                kpca_dataset *dst, kpca_error *err);

/* Writes m distinct row indices of 0..n-1, ascending, into idx: the first m
 * rows when seed == 0, else a uniform random subset drawn with the given
 * seed (deterministic on every platform). */
kpca_status kpca_subset_indices(size_t n, size_t m, uint64_t seed, size_t *idx, kpca_error *err);

/* Writes m distinct row indices of 0..n-1, ascending, into idx: a sample
 * stratified by the labels y[0..n-1] (any ints; equal ints are a class).
 * Allocation: class c of n_c rows gets a_c = floor(m n_c / n) rows, then the
 * m - sum a_c rows left go one each to the classes of the largest
 * remainders m n_c mod n (ties: the smaller label); then, when m is at
 * least the number of classes, a class left with no row takes one from the
 * class holding the most (ties: the smaller label), until every class has
 * one.  Draw: one splitmix64 stream (rng.h) from `seed` (any value), one
 * number per row in order: row i of class c is taken when
 * kpca_rng_below(n_c - rows of c seen) < a_c - rows of c taken (selection
 * sampling within each class: every a_c-subset of the class equally
 * likely; with one class it is kpca_subset_indices's draw for seed != 0).
 * The same seed gives the same rows on every platform.  *nclasses (may be
 * NULL) receives the number of classes.  O(n log n); O(n) scratch
 * (KPCA_ENOMEM); KPCA_EUSAGE for m > n or n >= 2^32. */
kpca_status kpca_subset_stratified(const int *y, size_t n, size_t m, uint64_t seed, size_t *idx, size_t *nclasses,
                                   kpca_error *err);

/* Adds independent Gaussian noise of standard deviation sd to every value,
 * row by row: kpca_rng_normal_pair (rng.h) from `seed`, so the
 * same seed gives the same noise on every platform with an IEEE libm.
 * Values are not clipped. */
void kpca_dataset_add_noise(kpca_dataset *ds, double sd, uint64_t seed);
/* Maps values from [lo, hi] linearly onto [-1, 1] (lo < hi). */
void kpca_dataset_rescale(kpca_dataset *ds, double lo, double hi);
/* Rounds every value to `decimals` decimal places (0..15). */
void kpca_dataset_round(kpca_dataset *ds, int decimals);
/* The distinct labels of a labelled data set (its class names' count when
 * it has names); 0 for unlabelled data.  O(n log n), O(n) memory (0 when
 * that allocation fails). */
size_t kpca_dataset_classes(const kpca_dataset *ds);

/* Whether the double v can be a class label (an int): 1 when v is finite,
 * integral and within int's range [INT_MIN, INT_MAX], with (int)v in
 * *label (-0.0 gives 0); 0 otherwise (NaN, an infinity, a fraction, a
 * value beyond int), *label left as it was.  label may be NULL when only
 * the answer is wanted.  No other effect: each reader that asks writes its
 * own message.  Here, at the bottom of io/, so that every reader can call
 * it (npy comes before labels in io's order). */
int kpca_label_of_double(double v, int *label);

/* Smallest and largest value (0, 0 for an empty set). */
void kpca_dataset_range(const kpca_dataset *ds, double *lo, double *hi);

#endif
