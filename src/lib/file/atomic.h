/* atomic.h - all-or-nothing output files.
 *
 * kpca_atomic_begin opens a stream on a temporary file beside the
 * destination (".NAME.tmp.XXXXXX" in the same directory, so the rename is
 * atomic); kpca_atomic_commit flushes, fsyncs, closes and renames it into
 * place, reporting any write error; kpca_atomic_abort closes and removes it.
 * Special destinations:
 *   "-"                 standard output (commit flushes it);
 *   a symbolic link     the file it points to is replaced, the link is kept;
 *   a device or FIFO    written directly (/dev/null, /dev/full, a pipe): such
 *                       a target cannot be renamed over, nor be half-written;
 *   a directory         refused.
 */
#ifndef KPCA_ATOMIC_H
#define KPCA_ATOMIC_H

#include <stdio.h>

#include "support/error.h"

typedef struct {
    char *final; /* destination path (owned) */
    char *tmp;   /* temporary path (owned); NULL when writing directly */
    FILE *fp;    /* the stream to write */
} kpca_atomic;

kpca_status kpca_atomic_begin(kpca_atomic *a, const char *path, kpca_error *err);
kpca_status kpca_atomic_commit(kpca_atomic *a, kpca_error *err);
/* The first half of commit: flush, fsync and close (reporting any write
 * error, the temporary file removed then) without the rename, so that
 * several outputs can all be complete before any is renamed into place;
 * commit then only renames.  Abort still removes the file. */
kpca_status kpca_atomic_close(kpca_atomic *a, kpca_error *err);
void kpca_atomic_abort(kpca_atomic *a);

/* Checks, before the work that will produce it, that an output can be
 * written: for a regular file (new or not) a temporary file is created
 * beside it and removed at once; "-", devices and FIFOs are not touched
 * (opening a FIFO would wait for a reader).  KPCA_EIO names the path and
 * the reason, as kpca_atomic_begin would later. */
kpca_status kpca_atomic_check(const char *path, kpca_error *err);

/* The temporary files in existence: those of the outputs in progress and
 * the spools of streams (file/source.h), at most KPCA_ATOMIC_MAX_PENDING
 * at once, for signal handlers that must remove them: slot i's path, or
 * NULL. */
#define KPCA_ATOMIC_MAX_PENDING 12
const char *kpca_atomic_pending(size_t i);
/* Adds the temporary file tmp to that list (0; -1 when it is full): the
 * path must stay valid until kpca_atomic_untrack(tmp) takes it off. */
int kpca_atomic_track(const char *tmp);
void kpca_atomic_untrack(const char *tmp);

#endif
