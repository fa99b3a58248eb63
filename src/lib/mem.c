#include "mem.h"

#include <stdint.h>
#include <stdlib.h>

static long fail_countdown = -1; /* < 0: never fail */
static long alloc_count = 0;

static int should_fail(void)
{
    alloc_count++;
    if (fail_countdown < 0)
        return 0;
    if (fail_countdown == 0)
        return 1;
    fail_countdown--;
    return 0;
}

long kpca_mem_fail_after(long n)
{
    long c = alloc_count;
    alloc_count = 0;
    fail_countdown = n;
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
