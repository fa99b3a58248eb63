/* rowpart.h - one file read by several processes (kpca-mpi): each process
 * passes over its part of a text file only, and the row source is the
 * same on all (rowpart.c). */
#ifndef KPCA_ROWPART_H
#define KPCA_ROWPART_H

#include "io/rowsrc.h"

/* The processes that read one file together, and their collectives (each
 * called by every process, in the same order):
 *   agree   KPCA_OK when st is KPCA_OK on every process, else the first
 *           failing process's status with its message in err, on every one;
 *   gather  every process's `bytes` bytes at mine (the same count on each),
 *           in process order, into all (parts x bytes), on every process;
 *   gatherv every process's bytes (a count of its own) in process order,
 *           into *all (new, kpca_free; *len bytes) on every process, or the
 *           agreed KPCA_ENOMEM of any. */
typedef struct {
    int part, parts; /* this process, and how many */
    void *ctx;
    kpca_status (*agree)(void *ctx, kpca_status st, kpca_error *err);
    void (*gather)(void *ctx, const void *mine, size_t bytes, void *all);
    kpca_status (*gatherv)(void *ctx, const void *mine, size_t bytes, char **all, size_t *len, kpca_error *err);
} kpca_rowsrc_share;

/* kpca_rowsrc_open and kpca_rowsrc_count, collectively: every process of
 * sh opens spec, and on return the source is counted and the same
 * description on every process (or every process has the same error).
 * Delimited and whitespace text in a plain regular file (no gzip, no
 * stream, no --labels FILE) is cut into sh->parts parts at line ends near
 * equal byte offsets, and each process passes over its part only: it
 * counts its line ends and rows, checks its rows (the first error of the
 * file is the lowest part's, on its line in the whole file) and sees its
 * labels; the counts, the labels' verdict, the class names (in the order
 * they first appear in the file) and the pandas index's verdict are
 * agreed through gather and gatherv, so the source reads what
 * kpca_rowsrc_open reads, bit for bit, with the same first error.  Cost
 * per process: its part read twice (three times for class names), the
 * file's head, and O(parts) bytes exchanged (plus the names).  Other
 * files, and a text file with a quoted field across a cut (no part's
 * start is then known to be a row's), are read whole by every process, as
 * kpca_rowsrc_open and kpca_rowsrc_count read them.  KPCA_EUSAGE when the
 * processes do not see the same file (its kind or size). */
kpca_status kpca_rowsrc_open_shared(const char *spec, const kpca_read_opts *opts, const kpca_rowsrc_share *sh,
                                    kpca_rowsrc **src, kpca_error *err);

/* 1 when the source was cut into parts (kpca_rowsrc_open_shared), with
 * this process's rows [*first, *first + *count): a read from *first on
 * starts at its part's first byte (rows before it are read from the
 * file's start, as on one process); 0 otherwise. */
int kpca_rowsrc_part(const kpca_rowsrc *src, size_t *first, size_t *count);

#endif
