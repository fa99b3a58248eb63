#include "mem.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

/* The allocation-failure hook is shared by every thread (the SVM trainer
 * runs binary problems in parallel): one atomic count of allocations since
 * the last kpca_mem_fail_after(); allocation number countdown+1 and every
 * later one fail. */
static atomic_long fail_countdown = -1; /* < 0: never fail */
static atomic_long alloc_count = 0;

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

void *kpca_malloc(size_t size)
{
    if (should_fail())
        return NULL;
    return malloc(size == 0 ? 1 : size);
}

void *kpca_calloc(size_t n, size_t size)
{
    if (should_fail())
        return NULL;
    if (n == 0 || size == 0)
        return calloc(1, 1);
    return calloc(n, size);
}

void *kpca_realloc(void *p, size_t size)
{
    if (should_fail())
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

void kpca_free(void *p)
{
    free(p);
}
