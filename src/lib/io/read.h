/* read.h - what a file is and which reader reads it.
 *
 * What a file looks like: a kpca model, a kpca feature file,
 * other HDF5, text data (ESL, LIBSVM, CSV), NumPy .npy, compressed text, an
 * empty file, a directory, a missing or unreadable one.  The one place that
 * tells, for messages that say what a file given in the wrong place is
 * instead ("'d3.model' is a kpca model, not DATA").  No printing. */
#ifndef KPCA_READ_H
#define KPCA_READ_H

#include <stddef.h>

#include "io/dataset.h"
#include "text/bytes.h"

/* The HDF5 `format` attribute of a kpca model (core/model_io.c writes it). */
#define KPCA_MODEL_FORMAT "kpca-model"

typedef enum {
    KPCA_FILE_MISSING = 0, /* no such file */
    KPCA_FILE_UNREADABLE,  /* there, but it cannot be opened or read */
    KPCA_FILE_DIRECTORY,
    KPCA_FILE_EMPTY,       /* no bytes, or only blanks (decompressed too) */
    KPCA_FILE_MODEL,       /* sealed HDF5 of format KPCA_MODEL_FORMAT */
    KPCA_FILE_FEATURES,    /* sealed HDF5 of format KPCA_FEATURES_FORMAT */
    KPCA_FILE_KPCA_OTHER,  /* sealed HDF5 of another kpca format (in .tag) */
    KPCA_FILE_HDF5,        /* HDF5 that kpca did not write, or a damaged one */
    KPCA_FILE_NPY,         /* a NumPy .npy file */
    KPCA_FILE_TEXT,        /* text kpca reads as data: .format ESL, LIBSVM or CSV */
    KPCA_FILE_BINARY,      /* bytes in no format kpca reads */
    KPCA_FILE_NPZ,         /* a NumPy .npz archive (numpy.savez: a zip of .npy members) */
    KPCA_FILE_ZIP,         /* another zip archive (a spreadsheet workbook is one) */
    KPCA_FILE_MAT          /* a MATLAB MAT-file, version 5 or 7.3 (file/matfile.h) */
} kpca_file_kind;

typedef struct {
    kpca_file_kind kind;
    kpca_codec codec;    /* its compression (TEXT, EMPTY; else none) */
    kpca_format format;  /* TEXT: ESL, LIBSVM or CSV; NPY, HDF5 kinds: NPY, HDF5 */
    int has_shape;       /* 1: it reads as data of n points of dim values */
    size_t n, dim;
    char tag[32];        /* KPCA_OTHER: its `format` attribute */
    int errnum;          /* UNREADABLE: the errno */
    int damaged;         /* HDF5: 1 when it does not open (a seal that does
                          * not match, a damaged superblock...) */
    int sealed;          /* HDF5: 1 when it carries kpca's seal (h5seal.h) */
} kpca_file_info;

/* Looks at `spec` (a file name, or "FILE:GROUP" as the data readers take
 * it) and fills *out.  For a kind that reads as data (FEATURES, KPCA_OTHER,
 * HDF5, NPY, TEXT) it is read whole with the default read options to find
 * its shape: O(the file's size) time and memory, meant for an error path.
 * Never fails: a file that cannot be looked at is UNREADABLE or MISSING.
 * Attributes are read only from a sealed HDF5 file (h5seal.h). */
void kpca_file_sniff(const char *spec, kpca_file_info *out);

/* What the file is, as the end of a sentence whose subject is the file:
 * "is a kpca model (written by kpca fit or reduce)", "holds ESL text data
 * (gzip, 7291 x 256)", "is empty", "does not exist"...; into buf (cap
 * bytes, truncated).  Returns buf. */
const char *kpca_file_describe(const kpca_file_info *fi, char *buf, size_t cap);

/* The kind of a zip archive from its first bytes head[0..got) (the first
 * local header and the name of the first member: 30 + 255 bytes hold
 * them): KPCA_FILE_NPZ when that member's name ends in ".npy"
 * (numpy.savez, savez_compressed), KPCA_FILE_ZIP for another zip (an empty
 * one too), KPCA_FILE_BINARY when head is no zip.  O(1). */
kpca_file_kind kpca_zip_kind(const unsigned char *head, size_t got);

/* The same from the first bytes of the file at path (BINARY when it cannot
 * be read): one open and one read of 285 bytes. */
kpca_file_kind kpca_zip_kind_of(const char *path);

/* 1 when the kind reads as data (FEATURES, KPCA_OTHER, HDF5, NPY, TEXT, MAT). */
int kpca_file_is_data(kpca_file_kind kind);

/* Which format a data file is, and the read of it by that format's reader
 * (csv.c, dataset_text.c, dataset_h5.c, npy.c), with the read options
 * checked against the format once. */

/* Detects the format of `path` from its first bytes (HDF5 signature; else the
 * first non-blank text line, through gzip if compressed, with ':' meaning
 * LIBSVM).  The path must not carry a ":GROUP" suffix. */
kpca_status kpca_detect_format(const char *path, kpca_format *out, kpca_error *err);

/* The format of file (opts->format, else kpca_detect_format's) into *fmt,
 * and the one check of the read options against it, for the whole read
 * and the row source: a group (FILE:GROUP, --group) only for HDF5
 * (KPCA_EUSAGE); the text options (--label, --header, --columns, --drop,
 * --decimal, --skip-rows) only for CSV and whitespace text (KPCA_EUSAGE,
 * naming the first given).  *text_opts: 1 when one of them was given
 * (whitespace text is then read by the delimited reader).  The format is
 * detected from the text after the lines --skip-rows skips; when the text
 * ends within them, the refusal of kpca_textfile_skip_fail. */
kpca_status kpca_read_format(const char *file, const char *group, const kpca_read_opts *opts, kpca_format *fmt,
                             int *text_opts, kpca_error *err);

/* Reads `spec` ("FILE" or "FILE:GROUP" for HDF5) into *ds (overwritten;
 * free with kpca_dataset_free).  On failure *ds is left empty.  FILE may
 * be a stream ("-" for standard input, a pipe, a FIFO): it is read once
 * into a spool on disk (file/source.h, kpca_spool_spec) that the readers
 * open as a file, and closed before the return; messages name the stream
 * (KPCA_STDIN_NAME for "-"), and the spool's errors (TMPDIR) are these
 * functions' too. */
kpca_status kpca_dataset_read(const char *spec, const kpca_read_opts *opts,
                              kpca_dataset *ds, kpca_error *err);
/* kpca_dataset_read that also fills *info (io/featfile.h; zeroed first, NULL:
 * not looked at) from a sealed HDF5 file read at its root: whether it holds
 * kpca features and of which model.  On failure *info is zero. */
kpca_status kpca_dataset_read_info(const char *spec, const kpca_read_opts *opts, kpca_dataset *ds,
                                   struct kpca_featinfo *info, kpca_error *err);

#endif
