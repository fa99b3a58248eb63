/* progress.h - a hook through which long library work reports progress.
 *
 * Like LIBSVM's print hook: the library never draws anything itself; a
 * program that wants a progress meter installs a callback.  Phases are
 * short names ("kernel", "eigensolve", "projection", "svm 64"...); done
 * runs from 0 to total within a phase, and done == total ends it.  Calls
 * may come from several threads (the SVM workers): kpca_progress()
 * serialises them, so the callback needs no locking of its own. */
#ifndef KPCA_PROGRESS_H
#define KPCA_PROGRESS_H

#include <stddef.h>

typedef void (*kpca_progress_fn)(const char *phase, size_t done, size_t total, void *user);

/* Installs fn (NULL: none, the default) with its user pointer. */
void kpca_progress_set(kpca_progress_fn fn, void *user);

/* Reports progress to the installed callback, if any. */
void kpca_progress(const char *phase, size_t done, size_t total);

#endif
