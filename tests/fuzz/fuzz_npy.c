/* fuzz_npy.c - the NumPy .npy reader: as data (detected and forced, with
 * and without an expected dimension), as a labels file (`--labels FILE`:
 * the same file, so that an n x 1 array of integers is read both ways),
 * and, for what reads, written back by the float64 writer and read again,
 * which must give the same values. */
#include "fuzz_common.h"

#include "io/npy.h"

static void round_trip(const char *path)
{
    static char out[64];
    if (out[0] == '\0')
        snprintf(out, sizeof out, "/tmp/kpca-fuzz-%ld-out.npy", (long)getpid());
    kpca_dataset ds, back;
    kpca_error err;
    memset(&err, 0, sizeof err);
    if (kpca_read_npy(path, 0, &ds, &err) != KPCA_OK)
        return;
    if (kpca_npy_write(out, ds.x, ds.n, ds.dim, &err) != KPCA_OK) {
        if (err.code != KPCA_ENOMEM)
            abort(); /* writing a valid matrix to /tmp cannot fail otherwise */
        kpca_dataset_free(&ds);
        return;
    }
    kpca_status st = kpca_read_npy(out, ds.dim, &back, &err);
    if (st == KPCA_OK) {
        if (back.n != ds.n || back.dim != ds.dim || memcmp(back.x, ds.x, ds.n * ds.dim * sizeof(double)) != 0)
            abort(); /* the writer and the reader disagree */
        kpca_dataset_free(&back);
    } else if (st != KPCA_ENOMEM) {
        abort();
    }
    kpca_dataset_free(&ds);
    unlink(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, ".npy");
    kpca_read_opts opts = {.format = KPCA_FMT_AUTO};
    fuzz_read_opts(path, &opts);
    opts.format = KPCA_FMT_NPY;
    opts.dim = 3;
    fuzz_read_opts(path, &opts);
    opts.dim = 0;
    opts.labels = path;
    fuzz_read_opts(path, &opts);

    int *y = NULL;
    size_t n = 0;
    kpca_error err;
    memset(&err, 0, sizeof err);
    if (kpca_npy_read_labels(path, &y, &n, &err) == KPCA_OK)
        kpca_free(y);
    else if (y != NULL || n != 0 || err.msg[0] == '\0')
        abort();
    round_trip(path);
    return 0;
}
