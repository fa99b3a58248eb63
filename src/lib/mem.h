/* mem.h - the library's allocator.
 *
 * Every allocation in libkpca goes through kpca_malloc/kpca_calloc so that
 * tests can make the Nth allocation fail (SQLite style) and check that each
 * failure path returns KPCA_ENOMEM and leaks nothing.  Sizes are checked for
 * overflow: kpca_alloc_array(n, m, size) returns NULL if n*m*size overflows.
 */
#ifndef KPCA_MEM_H
#define KPCA_MEM_H

#include <stddef.h>

void *kpca_malloc(size_t size);
void *kpca_calloc(size_t n, size_t size);
void *kpca_realloc(void *p, size_t size);
void *kpca_alloc_array(size_t n, size_t m, size_t size); /* n*m elements, uninitialised */
void kpca_free(void *p);

/* Test hook: after `n` more successful allocations, every allocation fails
 * (n < 0 disables).  Returns the number of allocations made since the last
 * call, so a test can loop N = 0..count. Not thread-safe; tests only. */
long kpca_mem_fail_after(long n);

#endif
