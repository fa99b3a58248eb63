/* mem.h - the library's allocator.
 *
 * Every allocation in libkpca goes through kpca_malloc/kpca_calloc so that
 * tests can make the Nth allocation fail (SQLite style) and check that each
 * failure path returns KPCA_ENOMEM and leaks nothing.  Sizes are checked for
 * overflow: kpca_alloc_array(n, m, size) returns NULL if n*m*size overflows.
 *
 * A process-wide memory budget (default: none) bounds what the library asks
 * for: any single allocation larger than the budget fails (returns NULL) and
 * the big steps (a fit's kernel matrix, an eval's Gram matrix, an HDF5 data
 * set) first compare their estimated total with it through kpca_mem_check(),
 * so a job that cannot fit is refused with a message before it allocates.
 *
 * Blocks of KPCA_HUGE_MIN bytes or more are aligned to KPCA_HUGE_ALIGN and
 * asked to be backed by transparent huge pages (madvise; Linux's default
 * "madvise" mode honours it): a 425 MB matrix then costs 200 page
 * faults, not 100 000.  kpca_free and kpca_realloc handle them as any other.
 */
#ifndef KPCA_MEM_H
#define KPCA_MEM_H

#include <stddef.h>

#include "support/error.h"

#define KPCA_HUGE_MIN ((size_t)4 << 20)
#define KPCA_HUGE_ALIGN ((size_t)2 << 20)

void *kpca_malloc(size_t size);
void *kpca_calloc(size_t n, size_t size);
void *kpca_realloc(void *p, size_t size);
void *kpca_alloc_array(size_t n, size_t m, size_t size); /* n*m elements, uninitialised */
void kpca_free(void *p);

/* A copy of the string s (NULL for s NULL or when out of memory). */
char *kpca_strdup(const char *s);
/* A copy of the array of n strings (each copied; NULL entries stay NULL);
 * NULL when a is NULL or when out of memory (nothing is left allocated).
 * Free it with kpca_free_strings. */
char **kpca_strings_dup(char *const *a, size_t n);
/* Frees the n strings of a and a itself; NULL is fine. */
void kpca_free_strings(char **a, size_t n);

/* kpca_grow: the block p (NULL, or from this allocator) made to hold at
 * least `need` elements of `elem` bytes, given that it holds *cap now.  When
 * *cap < need the capacity doubles, from `first` when *cap is 0 (at least
 * need), so that appending n elements one by one costs O(n) in all.
 * Returns the block: p itself when it is large enough (*cap unchanged),
 * else the reallocated block with *cap its new capacity.  NULL when the
 * allocation fails or the size overflows: p is then untouched and still the
 * caller's, *cap unchanged.  A need of 0 counts as 1, so NULL always means
 * failure.  Two arrays of one capacity: grow each from a copy of *cap (the
 * same arguments give the same new capacity) and store it once both grew. */
void *kpca_grow(void *p, size_t *cap, size_t need, size_t elem, size_t first);

/* The budget in bytes; 0 means none (the default).  Process-wide, atomic. */
void kpca_mem_set_budget(size_t bytes);
size_t kpca_mem_budget(void);

/* KPCA_OK when `bytes` (an estimate, hence a double) fits the budget, else
 * KPCA_ENOMEM with "WHAT needs about X GiB, more than the memory budget of
 * Y GiB" in err. */
kpca_status kpca_mem_check(double bytes, const char *what, kpca_error *err);

/* "1.5 GiB", "12.0 MiB", "512 bytes" into buf (cap >= 32). */
const char *kpca_mem_human(double bytes, char *buf, size_t cap);

/* Test hook: after `n` more successful allocations, every allocation fails
 * (n < 0 disables).  Returns the number of allocations made since the last
 * call, so a test can loop N = 0..count. Not thread-safe; tests only. */
long kpca_mem_fail_after(long n);

#endif
