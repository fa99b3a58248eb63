/* fuzz_common.h - shared by the libFuzzer targets in tests/fuzz/.
 *
 * The readers take file names, so each input is written to one temporary
 * file per process (created once, rewritten for every input) and read back
 * through the public API.  A target must never crash, leak, hang or return
 * KPCA_OK with an invalid result; an error status is the expected answer to
 * most inputs.  The same targets are linked with replay.c (any compiler, no
 * libFuzzer) so that `make check` re-runs the committed corpus. */
#ifndef KPCA_FUZZ_COMMON_H
#define KPCA_FUZZ_COMMON_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include "lib/kpca.h"

#include "../unit/io/parts_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The temporary file holding the current input; exits the process (a setup
 * failure, not a finding) when it cannot be written. */
static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
    static char path[64];
    if (path[0] == '\0') {
        snprintf(path, sizeof path, "/tmp/kpca-fuzz-%ld%s", (long)getpid(), suffix);
        /* as `kpca` on a small machine: a file that claims a huge data set
         * is refused by the memory budget, not attempted */
        kpca_mem_set_budget((size_t)1 << 30);
    }
    FILE *f = fopen(path, "wb");
    if (f == NULL || (size > 0 && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
    return path;
}

/* Checks what a reader returned: a valid data set on success, an empty one
 * and a message on failure.  abort()s (a finding) otherwise. */
static inline void fuzz_check_read(kpca_status st, kpca_dataset *ds, const kpca_error *err)
{
    if (st != KPCA_OK) {
        if (ds->x != NULL || ds->y != NULL || err->msg[0] == '\0')
            abort();
        return;
    }
    if (ds->n == 0 || ds->dim == 0 || ds->x == NULL || ds->y == NULL)
        abort();
    /* labels: codes into the class names when there are names, all 0 and
     * no names for unlabelled data */
    if ((ds->nnames == 0) != (ds->names == NULL) || (ds->unlabelled && ds->nnames != 0))
        abort();
    /* labels from a column are labels; every value column has a name when one has */
    if ((ds->label_col != 0 && ds->unlabelled) || (ds->label_name != NULL && ds->label_col == 0))
        abort();
    for (size_t j = 0; ds->colnames != NULL && j < ds->dim; j++)
        if (ds->colnames[j] == NULL)
            abort();
    for (size_t i = 0; i < ds->nnames; i++)
        if (ds->names[i] == NULL)
            abort();
    for (size_t i = 0; i < ds->n; i++)
        if ((ds->nnames > 0 && (ds->y[i] < 0 || (size_t)ds->y[i] >= ds->nnames)) || (ds->unlabelled && ds->y[i] != 0))
            abort();
    for (size_t i = 0; i < ds->n * ds->dim; i++)
        if (!isfinite(ds->x[i]))
            abort(); /* NaN or infinity accepted (1.3e308 is finite: .npy holds any double) */
    kpca_dataset_free(ds);
}

/* Reads `path` as kpca_dataset_read does with the given format and group,
 * and checks the answer with fuzz_check_read. */
static inline void fuzz_read(const char *path, kpca_format fmt, const char *group)
{
    kpca_read_opts opts = {.format = fmt, .group = group};
    kpca_dataset ds;
    kpca_error err;
    memset(&ds, 0, sizeof ds);
    memset(&err, 0, sizeof err);
    kpca_status st = kpca_dataset_read(path, &opts, &ds, &err);
    fuzz_check_read(st, &ds, &err);
}

/* The row source (io/rowsrc.h) reads what kpca_dataset_read reads: when
 * the whole read succeeds, blocks of 3 rows give its rows, labels and class
 * names bit for bit; when it fails, the source fails too (at open or at a
 * read; with several faults in a file the first one named may differ).
 * Aborts otherwise. */
static inline void fuzz_rowsrc_same(const char *path, const kpca_read_opts *opts)
{
    kpca_dataset ds;
    kpca_error err;
    memset(&ds, 0, sizeof ds);
    kpca_status st = kpca_dataset_read(path, opts, &ds, &err);
    kpca_rowsrc *src = NULL;
    kpca_status ss = kpca_rowsrc_open(path, opts, &src, &err);
    size_t n = 0, got = 0;
    size_t rows = 0;
    if (ss == KPCA_OK)
        ss = kpca_rowsrc_count(src, &rows, &err);
    if (ss == KPCA_OK) {
        /* blocks of 3 rows, or fewer: no more than the whole read holds,
         * under the target's memory budget */
        const size_t d = kpca_rowsrc_dim(src), b = rows < 3 ? (rows ? rows : 1) : 3;
        double *x = kpca_alloc_array(b, d ? d : 1, sizeof *x);
        int y[3];
        if (x == NULL) {
            if (st == KPCA_OK)
                abort();
            kpca_rowsrc_close(src);
            return;
        }
        if (st == KPCA_OK && (d != ds.dim || kpca_rowsrc_labelled(src) == ds.unlabelled ||
                              kpca_rowsrc_info(src)->nnames != ds.nnames))
            abort();
        while ((ss = kpca_rowsrc_read(src, b, x, y, &got, &err)) == KPCA_OK && got > 0) {
            if (st == KPCA_OK && (n + got > ds.n || memcmp(x, ds.x + n * d, got * d * sizeof *x) != 0 ||
                                  memcmp(y, ds.y + n, got * sizeof *y) != 0))
                abort();
            n += got;
        }
        kpca_free(x);
        for (size_t c = 0; st == KPCA_OK && ss == KPCA_OK && c < ds.nnames; c++)
            if (strcmp(kpca_rowsrc_info(src)->names[c], ds.names[c]) != 0)
                abort();
    }
    kpca_rowsrc_close(src);
    if ((st == KPCA_OK) != (ss == KPCA_OK) || (st == KPCA_OK && n != ds.n))
        abort();
    if (st == KPCA_OK)
        kpca_dataset_free(&ds);
}

/* The file read as kpca-mpi's ranks read it, by 2, 3 and 5 threads
 * (kpca_rowsrc_open_shared: a plain text file cut into parts), must read
 * what one source reads (kpca_rowsrc_open and kpca_rowsrc_count, then
 * every row): the same status and message on every part, and the same
 * rows, labels, codes and names, end to end (else abort).  An
 * out-of-memory of the budget is no finding. */
static inline void fuzz_parts_same(const char *path, const kpca_read_opts *opts)
{
    kpca_error e1;
    kpca_rowsrc *src = NULL;
    size_t n = 0, d = 0, got = 0;
    kpca_status s1 = kpca_rowsrc_open(path, opts, &src, &e1);
    if (s1 == KPCA_OK)
        s1 = kpca_rowsrc_count(src, &n, &e1);
    double *x = NULL;
    int *y = NULL;
    if (s1 == KPCA_OK) {
        d = kpca_rowsrc_dim(src);
        x = kpca_alloc_array(n ? n : 1, d ? d : 1, sizeof *x);
        y = kpca_alloc_array(n ? n : 1, 1, sizeof *y);
        s1 = x == NULL || y == NULL ? KPCA_ENOMEM : kpca_rowsrc_read(src, n, x, y, &got, &e1);
        if (s1 == KPCA_OK && got != n)
            abort();
    }
    static const int counts[] = {2, 3, 5};
    for (size_t k = 0; s1 != KPCA_ENOMEM && k < sizeof counts / sizeof counts[0]; k++) {
        world w;
        proc ps[MAXP];
        run_parts(path, opts, counts[k], &w, ps);
        size_t next = 0;
        for (int q = 0; q < counts[k]; q++) {
            const proc *p = &ps[q];
            if (p->open_st == KPCA_ENOMEM || p->st == KPCA_ENOMEM)
                break;
            if (p->st != s1 || (s1 != KPCA_OK && strcmp(p->err.msg, e1.msg) != 0))
                abort();
            if (s1 != KPCA_OK)
                continue;
            const kpca_dataset *info = kpca_rowsrc_info(src);
            if (p->n != n || p->dim != d || p->first != next || p->nnames != info->nnames ||
                memcmp(p->x, x + p->first * d, p->count * d * sizeof *x) != 0 ||
                memcmp(p->y, y + p->first, p->count * sizeof *y) != 0)
                abort();
            for (size_t c = 0; c < info->nnames; c++)
                if (strcmp(p->names[c], info->names[c]) != 0)
                    abort();
            next += p->count;
        }
        free_parts(ps, counts[k]);
    }
    kpca_free(x);
    kpca_free(y);
    kpca_rowsrc_close(src);
}

/* Reads `path` with the given options (format, header, label column,
 * labels file, dimension), checks the answer with fuzz_check_read and
 * returns the status. */
static inline kpca_status fuzz_read_opts(const char *path, const kpca_read_opts *opts)
{
    kpca_dataset ds;
    kpca_error err;
    memset(&ds, 0, sizeof ds);
    memset(&err, 0, sizeof err);
    kpca_status st = kpca_dataset_read(path, opts, &ds, &err);
    fuzz_check_read(st, &ds, &err);
    return st;
}

/* abort()s when kpca left any HDF5 object (file, group, dataset, type,
 * space, attribute) open: a handle leak, which LeakSanitizer cannot tell
 * from libhdf5's own caches */
static inline void fuzz_check_hdf5_closed(void)
{
    if (H5Fget_obj_count((hid_t)H5F_OBJ_ALL, H5F_OBJ_ALL) != 0)
        abort();
}

#endif
