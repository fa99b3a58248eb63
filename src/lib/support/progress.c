/* progress.c - see progress.h. */
#include "support/progress.h"

#include <pthread.h>

static kpca_progress_fn hook = NULL;
static void *hook_user = NULL;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void kpca_progress_set(kpca_progress_fn fn, void *user)
{
    pthread_mutex_lock(&lock);
    hook = fn;
    hook_user = user;
    pthread_mutex_unlock(&lock);
}

void kpca_progress(const char *phase, size_t done, size_t total)
{
    pthread_mutex_lock(&lock);
    if (hook != NULL)
        hook(phase, done, total, hook_user);
    pthread_mutex_unlock(&lock);
}
