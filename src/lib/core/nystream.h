/* nystream.h - the Nyström fit over rows read a block at a time: on one
 * process from memory or a file (kpca fit --solver nystrom), over MPI ranks
 * (kpca-mpi fit --solver nystrom, through kpca_nys_comm), and in row ranges
 * written to partial files and merged (kpca fit --partial, kpca merge).
 *
 * Every Nyström fit runs the same steps on the reduction of nystrom.h:
 *   1. landmarks (kpca_nys_setup_make): uniform - kpca_landmarks_uniform(n,
 *      l, seed) row indices, fetched in one pass (a seek per run of rows) -
 *      or k-means - kpca_kmeans on a uniform sample of min(n, 20 l) rows
 *      (all rows, in order, when n <= 20 l); then K_LL and the basis W;
 *   2. a pass over the rows (kpca_nys_accumulate): each block's kernel rows
 *      k_L(x) into an accumulator;
 *   3. kpca_nys_complete: the accumulators merged (over ranks or files),
 *      kpca_nys_finish, a second pass over the rows for the signs (only
 *      k_L(x) and each component's running extreme), the model.
 * Memory: the landmarks (l dim doubles; a k-means sample 20 l dim while
 * they are chosen), W, the accumulator's r x r scatter and its block's
 * (about 3 l^2 doubles through the passes; the eigensolves of K_LL and of
 * the r x r covariance about 3 l^2 more for a moment), and one block of
 * rows (dim + 2 l doubles a row): nothing grows with n. */
#ifndef KPCA_NYSTREAM_H
#define KPCA_NYSTREAM_H

#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "core/nystrom.h"
#include "io/dataset.h"
#include "support/error.h"

/* The fit rows, read in blocks and from any row again: n rows of dim
 * values, in a fixed order (a row's number is its place in it).  seek(ctx,
 * row) positions the next read at row (0..n); read(ctx, max, x, y, got)
 * reads the next rows, at most max, into x (max x dim) and their labels
 * into y (may be NULL), *got 0 at the end.  Both return KPCA_OK or an error
 * in err (the file's, named in the user's terms).  The rows a feed hands
 * out are the fit's as they are: any rescaling is the feed's. */
typedef struct kpca_rowfeed {
    size_t n, dim;
    void *ctx;
    kpca_status (*seek)(void *ctx, size_t row, kpca_error *err);
    kpca_status (*read)(void *ctx, size_t max, double *x, int *y, size_t *got, kpca_error *err);
    /* kpca_rowfeed_dataset's own state */
    const kpca_dataset *ds;
    size_t at;
} kpca_rowfeed;

/* A feed of the rows of ds (in memory; borrowed while f is in use). */
void kpca_rowfeed_dataset(kpca_rowfeed *f, const kpca_dataset *ds);

/* The processes of a distributed fit (NULL everywhere: one process).
 * Process `rank` of `size` reads the fit rows [n rank / size, n (rank + 1)
 * / size), or with `ranged` the rows [lo, hi) (the processes' ranges
 * tiling [0, n) in rank order: a text file's parts, io/rowsrc.h)
 * (kpca_nys_range).  Every callback is collective:
 *   agree   KPCA_OK when st is KPCA_OK on every process, else the first
 *           failing process's status with its message in err, on every one
 *           (called before every exchange, so that a process that failed
 *           stops the others there instead of leaving them waiting);
 *   sum     buf (count doubles) summed elementwise over the processes, on
 *           every one;
 *   bcast   process 0's buf (count doubles) on every one;
 *   reduce_acc    the packed accumulators (kpca_nys_acc_pack, count
 *           doubles) merged in rank order (kpca_nys_packed_merge) into
 *           process 0's buf;
 *   reduce_signs  the packed signs (kpca_nys_signs_packed(k) doubles)
 *           merged (kpca_nys_signs_packed_merge) into process 0's buf. */
typedef struct {
    int rank, size;
    size_t max_pack; /* the largest count reduce_acc takes (0: any) */
    void *ctx;
    kpca_status (*agree)(void *ctx, kpca_status st, kpca_error *err);
    void (*sum)(void *ctx, double *buf, size_t count);
    void (*bcast)(void *ctx, double *buf, size_t count);
    void (*reduce_acc)(void *ctx, double *buf, size_t count);
    void (*reduce_signs)(void *ctx, double *buf, size_t k);
    int ranged;    /* this process's rows are [lo, hi) */
    size_t lo, hi;
} kpca_nys_comm;

/* This process's fit rows [*lo, *hi) of n (all of them when comm is NULL). */
void kpca_nys_range(size_t n, const kpca_nys_comm *comm, size_t *lo, size_t *hi);

/* What every process (and every partial file) of one fit shares: the
 * landmarks and the basis. */
typedef struct {
    kpca_kernel kernel;
    size_t n;           /* the fit rows */
    size_t l, dim;      /* landmarks, values a row */
    kpca_landmark_method method;
    uint64_t seed;
    double *x;          /* l x dim landmarks (owned; NULL for a precomputed kernel) */
    size_t *gram_index; /* precomputed: landmark j is GRAM's point gram_index[j] (owned) */
    int *y;             /* l labels of the landmark rows, -1 for k-means centres (owned) */
    kpca_nys_basis basis;
    double lowest;      /* precomputed: K_LL's clearly negative eigenvalue, else 0 */
    double sec_landmarks, sec_basis;
} kpca_nys_setup;

/* Step 1: the landmarks of the feed's rows as p says (p->landmarks,
 * p->landmark_method, p->seed, p->kmeans_iter, p->kernel, p->tol; a
 * precomputed kernel's p->gram_index as kpca_model_fit takes it), K_LL and
 * the basis.  With comm, each process fetches the landmark (or sample)
 * rows of its own range and the sums share them; process 0 runs k-means and
 * the basis and sends them.  Errors: KPCA_EUSAGE for l < 2 or l > n;
 * the feed's; KPCA_ENUMERIC for a kernel value that overflows
 * (kpca_kernel_check_finite) and kpca_nys_basis_make's; a precomputed
 * K_LL that is not symmetric, KPCA_EFORMAT; KPCA_ENOMEM.  *s is empty
 * after a failure; kpca_nys_setup_free (safe on a zeroed one). */
kpca_status kpca_nys_setup_make(kpca_rowfeed *feed, const kpca_fit_params *p, const kpca_nys_comm *comm,
                                kpca_nys_setup *s, kpca_error *err);
void kpca_nys_setup_free(kpca_nys_setup *s);

/* The kernel rows k_L(x) (rows x l) of the rows x (rows x s->dim). */
void kpca_nys_kernel_rows(const kpca_nys_setup *s, const double *x, size_t rows, double *kx);

/* Step 2: the fit rows [lo, hi) added to acc (initialised for s->l and
 * s->basis.r), in blocks of `block` rows (0: kpca_nys_block_rows), with
 * their value range.  Errors: the feed's, KPCA_ENUMERIC for a kernel value
 * that overflows, KPCA_ENOMEM; acc holds part of the rows then. */
kpca_status kpca_nys_accumulate(kpca_rowfeed *feed, const kpca_nys_setup *s, size_t lo, size_t hi, size_t block,
                                kpca_nys_acc *acc, kpca_error *err);

/* Step 3: acc, this process's accumulator (with comm: merged over the
 * processes onto process 0), finished with `want` components and tol
 * (kpca_nys_finish), signed by a pass over this process's rows of the feed
 * (with comm: each process's extremes reduced), into *model (every field
 * of a Nyström model: the landmarks, alpha, colmean, eigenvalues, trace,
 * fit_n, the value range, the solver text; on every process).  acc's
 * scratch is freed.  info (may be NULL) gets kept, requested, tol and the
 * times of the eigensolve and the sign pass.  Errors: kpca_nys_finish's, the
 * feed's, KPCA_ENOMEM; *model is freed after a failure. */
kpca_status kpca_nys_complete(kpca_rowfeed *feed, const kpca_nys_setup *s, kpca_nys_acc *acc, size_t want,
                              double tol, size_t block, const kpca_nys_comm *comm, kpca_model *model,
                              kpca_fit_info *info, kpca_error *err);

/* The bytes a Nyström fit of l landmarks on rows of dim values holds at
 * most: 8 (l dim + 6 l^2 + block (dim + 2 l)), plus 20 l dim for the
 * k-means sample. */
double kpca_nys_mem(size_t l, size_t dim, size_t block, kpca_landmark_method method);

/* The three steps on the feed's rows (each process its range when comm is
 * not NULL): kpca_model_fit's Nyström path, and kpca fit's and kpca-mpi
 * fit's.  p as kpca_model_fit takes it (checked there: kpca_fit_check);
 * p->block the rows per block.  Memory is checked first (kpca_mem_check
 * of kpca_nys_mem).  *model as kpca_nys_complete leaves it; info (may be
 * NULL) gets the phases' times (sec_kernel: the landmarks and the first
 * pass; sec_eig: the two eigensolves; sec_signs: the second pass).
 * Errors: those of the steps and of kpca_mem_check. */
kpca_status kpca_nystrom_fit_rows(kpca_rowfeed *feed, const kpca_fit_params *p, const kpca_nys_comm *comm,
                                  kpca_model *model, kpca_fit_info *info, kpca_error *err);

#endif
