/* blas.c - see blas.h. */
#include "support/blas.h"

#include <cblas.h>
#include <stddef.h>

/* OpenBLAS's own functions, declared weak (GCC and Clang, ELF): with
 * OpenBLAS linked they are its own; with any other BLAS they resolve to
 * NULL, and the library neither fails to link nor calls them.
 *   openblas_get_corename: the name of the kernels it picked when it loaded;
 *   openblas_get_num_threads, openblas_set_num_threads: the threads of its
 *   parallel calls;
 *   blas_thread_shutdown_: ends its worker threads (the next parallel call
 *   starts them again); exported by libopenblas for its fork handler, in no
 *   header. */
extern char *openblas_get_corename(void) __attribute__((weak));
extern int openblas_get_num_threads(void) __attribute__((weak));
extern int blas_thread_shutdown_(void) __attribute__((weak));
extern void openblas_set_num_threads(int) __attribute__((weak));

void kpca_blas_park(void)
{
    if (blas_thread_shutdown_ != NULL)
        blas_thread_shutdown_();
}

int kpca_blas_is_openblas(void)
{
    return openblas_get_corename != NULL;
}

const char *kpca_blas_core(void)
{
    if (openblas_get_corename == NULL)
        return "unknown (not OpenBLAS)";
    const char *s = openblas_get_corename();
    return s != NULL ? s : "unknown";
}

int kpca_blas_threads(void)
{
    if (openblas_get_num_threads == NULL)
        return 0;
    int n = openblas_get_num_threads();
    return n > 0 ? n : 0;
}

int kpca_blas_set_threads(int threads)
{
    if (openblas_set_num_threads == NULL || openblas_get_num_threads == NULL)
        return 0;
    int before = openblas_get_num_threads();
    if (threads > 0 && threads != before)
        openblas_set_num_threads(threads);
    return before > 0 ? before : 0;
}
