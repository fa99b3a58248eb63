/* bench_read.c - time kpca_dataset_read alone on one file (any format kpca
 * reads, found from the content as the commands do): no fit, no output.
 *
 * usage: bench_read FILE [LABEL]
 * LABEL: the label column of a text file, as --label takes it (default: the
 * file's own rule).  Prints one line: "SECONDS N DIM HASH", where SECONDS is the wall time of
 * kpca_dataset_read (the process start, freeing and hashing not counted)
 * and HASH is a 64-bit FNV-1a hash of the n x dim doubles as read, so that
 * two reads of the same data in two forms can be compared bit for bit.
 * Exit status 1, with the reader's message, when the file does not read. */
#include <stdint.h>
#include <stdio.h>

#include "lib/kpca.h"
#include "lib/support/clock.h"

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: bench_read FILE [LABEL]\n");
        return 2;
    }
    kpca_error err;
    kpca_dataset ds;
    kpca_read_opts opts = {.format = KPCA_FMT_AUTO, .label = argc == 3 ? argv[2] : NULL};
    double t = kpca_now();
    if (kpca_dataset_read(argv[1], &opts, &ds, &err) != KPCA_OK) {
        fprintf(stderr, "bench_read: %s\n", err.msg);
        return 1;
    }
    t = kpca_now() - t;
    uint64_t h = 14695981039346656037u;
    const unsigned char *p = (const unsigned char *)ds.x;
    for (size_t i = 0; i < ds.n * ds.dim * sizeof(double); i++)
        h = (h ^ p[i]) * 1099511628211u;
    printf("%.3f %zu %zu %016llx\n", t, ds.n, ds.dim, (unsigned long long)h);
    kpca_dataset_free(&ds);
    return 0;
}
