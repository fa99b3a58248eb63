/* madvise and MADV_HUGEPAGE are Linux's, outside POSIX */
#define _DEFAULT_SOURCE
#include "support/mem.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The allocation-failure hook is shared by every thread (the SVM trainer
 * runs binary problems in parallel): one atomic count of allocations since
 * the last kpca_mem_fail_after(); allocation number countdown+1 and every
 * later one fail. */
static atomic_long fail_countdown = -1; /* < 0: never fail */
static atomic_long alloc_count = 0;
static atomic_size_t budget = 0; /* 0: none */

void kpca_mem_set_budget(size_t bytes)
{
    atomic_store(&budget, bytes);
}

size_t kpca_mem_budget(void)
{
    return atomic_load(&budget);
}

const char *kpca_mem_human(double bytes, char *buf, size_t cap)
{
    if (bytes >= 1073741824.0)
        snprintf(buf, cap, "%.1f GiB", bytes / 1073741824.0);
    else if (bytes >= 1048576.0)
        snprintf(buf, cap, "%.1f MiB", bytes / 1048576.0);
    else
        snprintf(buf, cap, "%.0f bytes", bytes);
    return buf;
}

kpca_status kpca_mem_check(double bytes, const char *what, kpca_error *err)
{
    size_t b = kpca_mem_budget();
    if (b == 0 || bytes <= (double)b)
        return KPCA_OK;
    char need[32], have[32];
    return kpca_fail(err, KPCA_ENOMEM, "%s needs about %s, more than the memory budget of %s", what,
                     kpca_mem_human(bytes, need, sizeof need), kpca_mem_human((double)b, have, sizeof have));
}

static int over_budget(size_t size)
{
    size_t b = atomic_load(&budget);
    if (b != 0 && size > b) {
        errno = ENOMEM;
        return 1;
    }
    return 0;
}

static int should_fail(void)
{
    long i = atomic_fetch_add(&alloc_count, 1);
    long c = atomic_load(&fail_countdown);
    return c >= 0 && i >= c;
}

long kpca_mem_fail_after(long n)
{
    long c = atomic_exchange(&alloc_count, 0);
    atomic_store(&fail_countdown, n);
    return c;
}

/* Large blocks (kernel matrices, Gram matrices, features) start on a 2 MiB
 * boundary and ask for transparent huge pages: one page fault per 2 MiB
 * instead of per 4 KiB, and fewer TLB misses in BLAS and LIBSVM.  Where the
 * kernel does not do huge pages (or not on request), madvise fails and
 * nothing else changes. */
static void *alloc_large(size_t size)
{
    void *p = NULL;
    if (posix_memalign(&p, KPCA_HUGE_ALIGN, size) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, size, MADV_HUGEPAGE);
#endif
    return p;
}

void *kpca_malloc(size_t size)
{
    if (should_fail() || over_budget(size))
        return NULL;
    if (size >= KPCA_HUGE_MIN)
        return alloc_large(size);
    return malloc(size == 0 ? 1 : size);
}

void *kpca_calloc(size_t n, size_t size)
{
    if (should_fail())
        return NULL;
    if (size != 0 && n > SIZE_MAX / size)
        return NULL;
    if (over_budget(n * size))
        return NULL;
    if (n == 0 || size == 0)
        return calloc(1, 1);
    return calloc(n, size);
}

void *kpca_realloc(void *p, size_t size)
{
    if (should_fail() || over_budget(size))
        return NULL;
    return realloc(p, size == 0 ? 1 : size);
}

void *kpca_alloc_array(size_t n, size_t m, size_t size)
{
    if (m != 0 && n > SIZE_MAX / m)
        return NULL;
    if (size != 0 && n * m > SIZE_MAX / size)
        return NULL;
    return kpca_malloc(n * m * size);
}

void *kpca_grow(void *p, size_t *cap, size_t need, size_t elem, size_t first)
{
    if (need == 0)
        need = 1;
    if (p != NULL && need <= *cap)
        return p;
    size_t nc = *cap != 0 ? *cap : (first != 0 ? first : 1);
    while (nc < need)
        nc = nc > SIZE_MAX / 2 ? need : 2 * nc;
    if (elem != 0 && nc > SIZE_MAX / elem)
        return NULL;
    void *q = kpca_realloc(p, nc * elem);
    if (q == NULL)
        return NULL;
    *cap = nc;
    return q;
}

void kpca_free(void *p)
{
    free(p);
}

char *kpca_strdup(const char *s)
{
    if (s == NULL)
        return NULL;
    size_t len = strlen(s);
    char *c = kpca_malloc(len + 1);
    if (c != NULL)
        memcpy(c, s, len + 1);
    return c;
}

char **kpca_strings_dup(char *const *a, size_t n)
{
    if (a == NULL)
        return NULL;
    char **c = kpca_calloc(n ? n : 1, sizeof *c);
    for (size_t i = 0; c != NULL && i < n; i++)
        if (a[i] != NULL && (c[i] = kpca_strdup(a[i])) == NULL) {
            kpca_free_strings(c, i);
            c = NULL;
        }
    return c;
}

void kpca_free_strings(char **a, size_t n)
{
    if (a == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        kpca_free(a[i]);
    kpca_free(a);
}
