/* rowshare.c - one data file read by every rank, each its own part
 * (dist.h: kpca_dist_rowsrc): the row source's collectives (io/rowsrc.h,
 * kpca_rowsrc_share) on MPI_COMM_WORLD. */
#include <limits.h>
#include <mpi.h>

#include "dist.h"

static kpca_status share_agree(void *ctx, kpca_status st, kpca_error *err)
{
    (void)ctx; /* no kpca_dist_enter: a rank that fails alone after the open meets the others from main */
    return kpca_dist_agree(st, st == KPCA_OK ? NULL : err->msg, err);
}

static void share_gather(void *ctx, const void *mine, size_t bytes, void *all)
{
    (void)ctx;
    MPI_Allgather(mine, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
}

static kpca_status share_gatherv(void *ctx, const void *mine, size_t bytes, char **all, size_t *len, kpca_error *err)
{
    const int np = kpca_dist_size();
    *all = NULL;
    unsigned long long my = bytes, total = 0, *sizes = kpca_alloc_array((size_t)np, 1, sizeof *sizes);
    int *counts = kpca_alloc_array((size_t)np, 1, sizeof *counts), *offs = kpca_alloc_array((size_t)np, 1, sizeof *offs);
    kpca_status st = sizes == NULL || counts == NULL || offs == NULL
                         ? kpca_fail(err, KPCA_ENOMEM, "out of memory for the sizes of %d ranks", np)
                         : KPCA_OK;
    if ((st = share_agree(ctx, st, err)) == KPCA_OK) {
        MPI_Allgather(&my, 1, MPI_UNSIGNED_LONG_LONG, sizes, 1, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
        for (int r = 0; r < np; r++) {
            offs[r] = (int)(total < INT_MAX ? total : 0);
            counts[r] = (int)(sizes[r] < INT_MAX ? sizes[r] : 0);
            total += sizes[r];
        }
        if (total >= INT_MAX)
            st = kpca_fail(err, KPCA_ENOMEM, "the ranks' class names take %llu bytes, more than one MPI message "
                           "holds", total);
        else if ((*all = kpca_malloc(total ? total : 1)) == NULL)
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory for %llu bytes of class names", total);
        if ((st = share_agree(ctx, st, err)) == KPCA_OK)
            MPI_Allgatherv(mine, (int)bytes, MPI_BYTE, *all, counts, offs, MPI_BYTE, MPI_COMM_WORLD);
        else if (*all != NULL) {
            kpca_free(*all);
            *all = NULL;
        }
    }
    *len = st == KPCA_OK ? (size_t)total : 0;
    kpca_free(sizes);
    kpca_free(counts);
    kpca_free(offs);
    return st;
}

const kpca_rowsrc_share *kpca_dist_rowsrc(void)
{
    static kpca_rowsrc_share share;
    share.part = kpca_dist_rank();
    share.parts = kpca_dist_size();
    share.ctx = NULL;
    share.agree = share_agree;
    share.gather = share_gather;
    share.gatherv = share_gatherv;
    return &share;
}
