/* testutil.h - shared helpers for the cmocka unit tests.
 *
 * Tests run from the repository root (make unit), so USPS is at data/.
 * Every helper aborts the test (cmocka fail) rather than return errors.
 */
#ifndef KPCA_TESTUTIL_H
#define KPCA_TESTUTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <hdf5.h>

#include <dirent.h>

#include "lib/kpca.h"
/* white-box: the internal headers the tests reach as well */
#include "lib/core/gram.h"
#include "lib/file/atomic.h"
#include "lib/file/clobber.h"
#include "lib/file/h5seal.h"
#include "lib/support/blas.h"
#include "lib/support/clock.h"

/* Deterministic uniform numbers in [-1, 1) (splitmix64). */
static inline double tu_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z >> 11) / 4503599627370496.0 - 1.0;
}

/* A random n x dim data set with labels 0..nclass-1 (cycled). */
static inline void tu_random_dataset(kpca_dataset *ds, size_t n, size_t dim, int nclass, uint64_t seed)
{
    kpca_error err;
    assert_int_equal(kpca_dataset_alloc(ds, n, dim, &err), KPCA_OK);
    for (size_t i = 0; i < n * dim; i++)
        ds->x[i] = tu_rand(&seed);
    for (size_t i = 0; i < n; i++)
        ds->y[i] = (int)(i % (size_t)nclass);
}

/* The first n rows of a USPS file in data/ (skips the test if it is missing). */
static inline void tu_usps(kpca_dataset *ds, const char *file, size_t n)
{
    kpca_error err;
    kpca_dataset all;
    char path[256];
    snprintf(path, sizeof path, "data/%s", file);
    if (kpca_dataset_read(path, NULL, &all, &err) != KPCA_OK) {
        print_message("skipping: %s\n", err.msg);
        skip();
    }
    if (n == 0 || n > all.n)
        n = all.n;
    size_t *idx = malloc(n * sizeof *idx);
    assert_non_null(idx);
    assert_int_equal(kpca_subset_indices(all.n, n, 0, idx, &err), KPCA_OK);
    assert_int_equal(kpca_dataset_select(&all, idx, n, ds, &err), KPCA_OK);
    free(idx);
    kpca_dataset_free(&all);
}

/* Writes text to a file under TEST_OUT (the test's own folder, which the
 * Makefile names: tests/out/<build>/<layer>/test_x) and returns its path
 * (static buffer). */
static inline const char *tu_write_file(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, TEST_OUT "/%s", name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Reads a whole file into a malloc'd buffer (one spare byte). */
static inline unsigned char *tu_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n >= 0);
    rewind(f);
    unsigned char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Writes len bytes to path (replacing it). */
static inline void tu_write_bytes(const char *path, const unsigned char *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (len > 0)
        assert_int_equal(fwrite(buf, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* malloc'd room for n doubles (at least one). */
static inline double *tu_doubles(size_t n)
{
    double *p = malloc((n ? n : 1) * sizeof(double));
    assert_non_null(p);
    return p;
}

/* n deterministic uniform numbers in [-1, 1) from seed, malloc'd. */
static inline double *tu_rand_doubles(size_t n, uint64_t seed)
{
    double *p = tu_doubles(n);
    for (size_t i = 0; i < n; i++)
        p[i] = tu_rand(&seed);
    return p;
}

/* eig.h's sign rule: the first entry of largest magnitude of v (n entries,
 * stride apart) is positive; `what` and vector j name it in the failure. */
static inline void tu_check_sign_rule(const double *v, size_t n, size_t stride, const char *what, size_t j)
{
    size_t arg = 0;
    for (size_t i = 1; i < n; i++)
        if (fabs(v[i * stride]) > fabs(v[arg * stride]))
            arg = i;
    if (!(v[arg * stride] > 0.0))
        fail_msg("%s: vector %zu has its largest entry %g negative", what, j, v[arg * stride]);
}

/* Seals path again (as kpca_model_save does) after an edit, so that the
 * loader's own checks, behind the seal's CRC, are what the edit meets. */
static inline void tu_reseal(const char *path)
{
    size_t len;
    unsigned char *buf = tu_slurp(path, &len);
    assert_true(len > KPCA_H5_SEAL_SIZE);
    kpca_h5_seal_image(buf, len);
    tu_write_bytes(path, buf, len);
    free(buf);
}

/* How many temporaries (".tmp." in the name: kpca's atomic outputs) are
 * left in tests/out. */
static inline int tu_temp_files_left(void)
{
    DIR *d = opendir(TEST_OUT);
    assert_non_null(d);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".tmp.") != NULL)
            n++;
    closedir(d);
    return n;
}

/* SQLite-style allocation failure: for N = 0, 1, 2, ... every library
 * allocation from the (N+1)th on fails (kpca_mem_fail_after(N)) while op
 * runs; op must then succeed or return KPCA_ENOMEM (with a message when it
 * is given err; with_err 0 passes NULL), never crash or report another
 * error, never succeed after a failed allocation, and leave no HDF5 object
 * open and no temporary file in tests/out.  The loop ends when a run
 * succeeds without reaching the countdown; returns the runs.  Leaks show
 * under `make asan`. */
typedef kpca_status (*tu_alloc_op)(kpca_error *err);
static inline long tu_fail_loop(const char *name, tu_alloc_op op, int with_err)
{
    long n;
    for (n = 0;; n++) {
        kpca_error err;
        kpca_error_clear(&err);
        kpca_mem_fail_after(n);
        kpca_status st = op(with_err ? &err : NULL);
        long count = kpca_mem_fail_after(-1);
        int open = (int)H5Fget_obj_count((hid_t)H5F_OBJ_ALL, H5F_OBJ_ALL);
        if (open != 0)
            fail_msg("%s, failing after %ld: %d HDF5 objects left open (status %d)", name, n, open, (int)st);
        if (tu_temp_files_left() != 0)
            fail_msg("%s, failing after %ld: a temporary file was left in " TEST_OUT, name, n);
        if (st == KPCA_OK) {
            if (count > n)
                fail_msg("%s: succeeded although allocation %ld of %ld failed", name, n + 1, count);
            break; /* the countdown was not reached: every failure point covered */
        }
        if (st != KPCA_ENOMEM)
            fail_msg("%s, failing after %ld allocations: status %d (%s), expected out of memory", name, n, (int)st,
                     with_err ? err.msg : "no message");
        if (with_err && (err.code != KPCA_ENOMEM || err.msg[0] == '\0'))
            fail_msg("%s, failing after %ld allocations: no out-of-memory message", name, n);
        if (n > 100000)
            fail_msg("%s: no end after %ld runs", name, n);
    }
    return n;
}

#endif
