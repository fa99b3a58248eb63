/* dist_out.c - kpca-mpi transform's rows and output (kpca_dist_out, dist.h):
 * each rank its run of whole projection blocks, read from its own offset of
 * DATA and written into its place in the one output file; what passes
 * between the ranks is statuses, the file's layout, the text parts' sizes
 * and the data's statistics, none of it growing with the rows. */
#include <mpi.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmd/cmd_transform.h"
#include "cli/input.h"
#include "dist.h"

static int me(void)
{
    return kpca_dist_rank();
}

static kpca_status agree(kpca_status st, kpca_error *err)
{
    return kpca_dist_agree(st, st == KPCA_OK ? NULL : err->msg, err);
}

/* the blocks [floor(B r / P), floor(B (r+1) / P)); of a text file cut
 * into parts (io/rowsrc.h), the blocks that start in this rank's part
 * (its reads run on into the next part to the end of its last block) */
static void out_rows(size_t n, const kpca_rowsrc *src, size_t *first, size_t *count)
{
    const size_t block = KPCA_TRANSFORM_BLOCK, blocks = (n + block - 1) / block;
    const size_t p = (size_t)kpca_dist_size(), r = (size_t)me();
    size_t a = blocks * r / p * block, b = blocks * (r + 1) / p * block, lo, rows;
    if (kpca_rowsrc_part(src, &lo, &rows)) {
        a = (lo + block - 1) / block * block;
        b = (lo + rows + block - 1) / block * block;
    }
    a = a < n ? a : n;
    b = b < n ? b : n;
    *first = a;
    *count = b - a;
}

static kpca_status out_open(const char *path, kpca_format fmt, size_t n, size_t k, int labelled,
                            const kpca_features_meta *meta, size_t first, size_t count, kpca_features_writer **w,
                            kpca_error *err)
{
    *w = NULL;
    kpca_dist_enter();
    kpca_status st = kpca_dist_agree(KPCA_OK, NULL, err); /* meets a rank that failed before */
    if (st != KPCA_OK)
        return st;
    kpca_features_layout lay;
    memset(&lay, 0, sizeof lay);
    /* one rank writes alone, standard output too */
    const int alone = kpca_dist_size() == 1;
    struct stat sb;
    if (!alone && strcmp(path, "-") == 0)
        st = kpca_fail(err, KPCA_EUSAGE, "kpca-mpi on %d ranks writes a file, not standard output: give -o FILE",
                       kpca_dist_size());
    else if (!alone && stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode))
        st = kpca_fail(err, KPCA_EUSAGE, "kpca-mpi on %d ranks writes a regular file, and '%s' is not one (a device "
                       "or a pipe)", kpca_dist_size(), path);
    if (st == KPCA_OK && me() == 0 && (st = kpca_features_open(path, fmt, n, k, labelled, meta, w, err)) == KPCA_OK && !alone &&
        (st = kpca_features_share(*w, count, &lay, err)) != KPCA_OK) {
        kpca_features_abort(*w);
        *w = NULL;
    }
    if ((st = agree(st, err)) != KPCA_OK || alone)
        return st; /* rank 0 removed what it began */
    MPI_Bcast(&lay, (int)sizeof lay, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (me() != 0)
        st = kpca_features_open_part(&lay, path, first, count, meta, w, err);
    if ((st = agree(st, err)) != KPCA_OK) {
        kpca_features_abort(*w);
        *w = NULL;
    }
    return st;
}

static void out_reduce(cli_data_stats *s)
{
    const int root = me() == 0;
    if (s->dim > 0) {
        MPI_Allreduce(MPI_IN_PLACE, s->lo, (int)s->dim, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, s->hi, (int)s->dim, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    if (s->out != NULL && s->dim > 0) /* the values outside the fit range, per column */
        MPI_Allreduce(MPI_IN_PLACE, s->out, (int)s->dim, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    unsigned long long rows = s->rows;
    MPI_Allreduce(MPI_IN_PLACE, &rows, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    s->rows = (size_t)rows;
    /* the head's rows: each filled by the one rank that read it, 0 elsewhere */
    if (s->nhead > 0)
        MPI_Reduce(root ? MPI_IN_PLACE : s->head, s->head, (int)(s->nhead * s->hcols), MPI_DOUBLE, MPI_SUM, 0,
                   MPI_COMM_WORLD);
    /* the distinct labels: every rank's set to rank 0, merged there */
    const int np = kpca_dist_size();
    int mine[2] = {(int)s->nlabels, s->labels_over}, *counts = NULL, *offs = NULL, *all = NULL;
    if (root) {
        counts = kpca_alloc_array((size_t)np, 2, sizeof(int));
        offs = kpca_alloc_array((size_t)np, 1, sizeof(int));
    }
    MPI_Gather(mine, 2, MPI_INT, counts, 2, MPI_INT, 0, MPI_COMM_WORLD);
    size_t total = 0;
    for (int r = 0; root && counts != NULL && r < np; r++)
        total += (size_t)counts[2 * r];
    int *lens = NULL;
    if (root && counts != NULL && offs != NULL && (lens = kpca_alloc_array((size_t)np, 1, sizeof(int))) != NULL) {
        for (int r = 0, at = 0; r < np; r++) {
            lens[r] = counts[2 * r];
            offs[r] = at;
            at += lens[r];
        }
        all = kpca_alloc_array(total ? total : 1, 1, sizeof(int));
    }
    /* (out of memory on rank 0: its count of classes stays its own) */
    MPI_Gatherv(s->labels, (int)s->nlabels, MPI_INT, all, lens, offs, MPI_INT, 0, MPI_COMM_WORLD);
    if (root && all != NULL)
        for (int r = 1; r < np; r++)
            cli_stats_merge_labels(s, all + offs[r], (size_t)lens[r], counts[2 * r + 1]);
    kpca_free(counts);
    kpca_free(offs);
    kpca_free(lens);
    kpca_free(all);
}

static kpca_status out_close(kpca_features_writer *w, kpca_status st, kpca_error *err)
{
    if (st != KPCA_OK) { /* agreed: every rank drops its part, rank 0 the file */
        kpca_features_abort(w);
        return st;
    }
    if (kpca_dist_size() == 1)
        return agree(kpca_features_commit(w, err), err);
    /* a text part's offset: the bytes of the ranks before it */
    unsigned long long bytes = 0, at = 0;
    st = kpca_features_bytes(w, &bytes, err);
    MPI_Exscan(&bytes, &at, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (me() == 0)
        at = 0;
    if ((st = agree(st, err)) != KPCA_OK) {
        kpca_features_abort(w);
        return st;
    }
    if (me() != 0) {
        st = kpca_features_place(w, at, err);
        w = NULL;
    }
    st = agree(st, err);
    if (me() == 0)
        st = st == KPCA_OK ? kpca_features_commit(w, err) : (kpca_features_abort(w), st);
    return agree(st, err);
}

const cli_transform_io kpca_dist_out = {out_rows, out_open, agree, out_reduce, out_close};
