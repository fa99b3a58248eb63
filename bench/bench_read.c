/* bench_read.c - time kpca's read of one file alone (any format kpca
 * reads, found from the content as the commands do): no fit, no output.
 *
 * usage: bench_read [--rows[=BLOCK]] FILE [LABEL]
 * Without --rows, the whole read (kpca_dataset_read: what fit reads);
 * with it, the read a block of BLOCK rows at a time (default 1024,
 * KPCA_TRANSFORM_BLOCK) through kpca_rowsrc, at bounded memory: what
 * `kpca transform` and the Nystrom fit's passes read.
 * LABEL: the label column of a text file, as --label takes it (default: the
 * file's own rule).  Prints one line: "SECONDS N DIM HASH CPU OPEN", where
 * SECONDS is the wall time of the read (the process start, freeing and
 * hashing not counted), CPU the process's CPU seconds in it (every
 * thread's), and HASH a 64-bit FNV-1a hash of the n x dim doubles as read,
 * so that two reads of the same data, in two forms or by the two paths,
 * can be compared bit for bit; OPEN, last, is the wall time of
 * kpca_rowsrc_open within SECONDS (0 for the whole read).
 * Exit status 1, with the reader's message, when the file does not read. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/kpca.h"
#include "lib/support/clock.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t fnv(uint64_t h, const void *x, size_t bytes)
{
    const unsigned char *p = x;
    for (size_t i = 0; i < bytes; i++)
        h = (h ^ p[i]) * 1099511628211u;
    return h;
}

int main(int argc, char **argv)
{
    size_t block = 0;
    int a = 1;
    if (a < argc && strncmp(argv[a], "--rows", 6) == 0) {
        block = argv[a][6] == '=' ? strtoul(argv[a] + 7, NULL, 10) : KPCA_TRANSFORM_BLOCK;
        if (block == 0 || (argv[a][6] != '=' && argv[a][6] != '\0')) {
            fprintf(stderr, "bench_read: --rows=BLOCK takes a row count\n");
            return 2;
        }
        a++;
    }
    if (argc - a != 1 && argc - a != 2) {
        fprintf(stderr, "usage: bench_read [--rows[=BLOCK]] FILE [LABEL]\n");
        return 2;
    }
    kpca_error err;
    kpca_read_opts opts = {.format = KPCA_FMT_AUTO, .label = argc - a == 2 ? argv[a + 1] : NULL};
    uint64_t h = 14695981039346656037u;
    size_t n = 0, dim = 0;
    double opened = 0; /* --rows: the wall seconds of kpca_rowsrc_open (its passes) */
    double t = kpca_now(), c = cpu_now();
    if (block == 0) {
        kpca_dataset ds;
        if (kpca_dataset_read(argv[a], &opts, &ds, &err) != KPCA_OK) {
            fprintf(stderr, "bench_read: %s\n", err.msg);
            return 1;
        }
        t = kpca_now() - t;
        c = cpu_now() - c;
        n = ds.n;
        dim = ds.dim;
        h = fnv(h, ds.x, n * dim * sizeof(double));
        kpca_dataset_free(&ds);
    } else {
        kpca_rowsrc *src;
        if (kpca_rowsrc_open(argv[a], &opts, &src, &err) != KPCA_OK) {
            fprintf(stderr, "bench_read: %s\n", err.msg);
            return 1;
        }
        opened = kpca_now() - t;
        dim = kpca_rowsrc_dim(src);
        double *x = malloc(block * (dim ? dim : 1) * sizeof *x);
        int *y = malloc(block * sizeof *y);
        double spent = 0, spent_cpu = 0; /* the hash's time left out */
        size_t got = 1;
        while (x != NULL && y != NULL && got > 0) {
            if (kpca_rowsrc_read(src, block, x, y, &got, &err) != KPCA_OK) {
                fprintf(stderr, "bench_read: %s\n", err.msg);
                return 1;
            }
            spent += kpca_now() - t;
            spent_cpu += cpu_now() - c;
            h = fnv(h, x, got * dim * sizeof(double));
            n += got;
            t = kpca_now();
            c = cpu_now();
        }
        if (x == NULL || y == NULL) {
            fprintf(stderr, "bench_read: out of memory\n");
            return 1;
        }
        kpca_rowsrc_close(src);
        free(x);
        free(y);
        t = spent;
        c = spent_cpu;
    }
    printf("%.3f %zu %zu %016llx %.3f %.3f\n", t, n, dim, (unsigned long long)h, c, opened);
    return 0;
}
