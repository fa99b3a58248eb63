/* rowsrc_in.h - inside the row source (io/rowsrc.h): its state, and what
 * rowsrc.c (one process) and rowpart.c (a part of the file a process,
 * kpca_rowsrc_open_shared) share.  Not an API. */
#ifndef KPCA_ROWSRC_IN_H
#define KPCA_ROWSRC_IN_H

#include "file/source.h"
#include "io/csvwin.h"
#include "io/dataset_h5.h"
#include "io/dataset_text.h"
#include "io/labels.h"
#include "io/npy.h"
#include "io/rowsrc.h"

/* SRC_HELD: a format read whole (MATLAB, ARFF), its rows served from memory */
typedef enum { SRC_CSV, SRC_ESL, SRC_LIBSVM, SRC_NPY, SRC_HDF5, SRC_HELD } src_kind;

struct kpca_rowsrc {
    src_kind kind;
    kpca_spool spool;      /* a stream's spool (fd -1: none) */
    char *file;            /* what the readers open (the spool's path for a stream) */
    const char *group;     /* HDF5: the group or dataset (into spec or opts) */
    char *spec_copy;
    kpca_read_opts opts;
    kpca_dataset info;     /* what kpca_rowsrc_info shows (owns names, colnames...) */
    size_t at;             /* the next row */
    int counted;           /* info.n is the row count */
    /* the readers */
    kpca_npy_rows *npy;
    kpca_h5_rows *h5;
    kpca_esl_rows *esl;
    kpca_libsvm_rows *svm;
    kpca_dataset held;     /* SRC_HELD: every row (its names moved to info) */
    csv_win win;
    char delim;            /* CSV: given, or 0 */
    kpca_labelmap *labels; /* CSV with a label column */
    size_t index;          /* CSV: the value index left out as a pandas index; NO_COLUMN: none */
    size_t win_at;         /* CSV: the next of the window's rows */
    int *extra;            /* labels from opts.labels (n), or NULL */
    double *scratch;       /* a row for skipping */
    kpca_status failed;
    char msg[KPCA_ERRMSG_MAX];
    /* a part (rowpart.c): the rows [mark_row, mark_row + part_rows) are
     * this process's, and a read from row mark_row on starts at byte
     * mark_byte, on line mark_line, of the file */
    int part_open;         /* opened for a part: the passes are rowpart.c's */
    int shared;            /* opened for a part of a read by several processes
                            * (kpca_rowsrc_open_shared), cut or not */
    int parted;
    size_t mark_row, mark_line, part_rows;
    unsigned long long mark_byte;
};

/* In rowsrc.c. */

/* A CSV window's rows seen by the first pass (labels, the pandas index),
 * and named by the second. */
kpca_status kpca_rowsrc_see_window(kpca_rowsrc *s, csv_win *w, kpca_error *err);
kpca_status kpca_rowsrc_name_window(kpca_rowsrc *s, csv_win *w, kpca_error *err);
/* CSV opened for a part: the passes of kpca_rowsrc_open over the whole
 * file after all (the row count, the labels, the description). */
kpca_status kpca_rowsrc_csv_passes(kpca_rowsrc *s, kpca_error *err);
/* CSV: what the passes found made the source's description (names: the
 * labels are names, in s->labels). */
kpca_status kpca_rowsrc_csv_describe(kpca_rowsrc *s, int names, kpca_error *err);
/* Opens (again) the reader of a sequential format at its first row. */
kpca_status kpca_rowsrc_reader_open(kpca_rowsrc *s, kpca_error *err);
/* Reads and drops rows up to `row`; *ended 1 when the file ends first. */
kpca_status kpca_rowsrc_skip_to(kpca_rowsrc *s, size_t row, int *ended, kpca_error *err);
/* kpca_rowsrc_open; with part 1, delimited and whitespace text of a plain
 * file (no stream, no --labels FILE) is opened to its first rows only and
 * s->part_open set: the passes over the rows are the caller's. */
kpca_status kpca_rowsrc_open_as(const char *spec, const kpca_read_opts *opts, int part, kpca_rowsrc **src,
                                kpca_error *err);

/* The reader moved to the part's mark (rows before it are read from the
 * file's start): rowsrc.c's seek, which rowpart.c's passes call too. */
kpca_status kpca_rowsrc_to_mark(kpca_rowsrc *s, kpca_error *err);

#endif
