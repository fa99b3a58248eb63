/* atomic.h - all-or-nothing output files.
 *
 * kpca_atomic_begin creates a temporary file beside the destination
 * (".NAME.tmp.XXXXXX" in the same directory, so rename is atomic);
 * kpca_atomic_commit flushes, closes and renames it into place;
 * kpca_atomic_abort closes and removes it.  A destination of "-" means
 * standard output (text formats only): commit flushes it, abort does nothing.
 */
#ifndef KPCA_ATOMIC_H
#define KPCA_ATOMIC_H

#include <stdio.h>

#include "error.h"

typedef struct {
    char *final;  /* destination path (owned copy) */
    char *tmp;    /* temporary path (owned), NULL for stdout */
    FILE *fp;     /* open stream, or NULL when the caller writes tmp itself */
} kpca_atomic;

/* With want_stream, fp is an open "w" stream on the temporary file; without,
 * the temporary file exists but is closed, for libraries (HDF5) that open
 * files by name. */
kpca_status kpca_atomic_begin(kpca_atomic *a, const char *path, int want_stream, kpca_error *err);
kpca_status kpca_atomic_commit(kpca_atomic *a, kpca_error *err);
void kpca_atomic_abort(kpca_atomic *a);

/* The temporary path of the output in progress, if any (for signal
 * handlers that must remove it); NULL when none. */
const char *kpca_atomic_pending(void);

#endif
