#include "dist.h"

#include <elpa/elpa.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* BLACS and ScaLAPACK (Fortran symbols; Debian ships no C header).  The
 * single-character arguments are passed without Fortran's hidden lengths,
 * as ScaLAPACK's own C examples do. */
void Cblacs_pinfo(int *mypnum, int *nprocs);
void Cblacs_get(int icontxt, int what, int *val);
void Cblacs_gridinit(int *icontxt, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int icontxt, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int icontxt);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrcproc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb, const int *irsrc,
               const int *icsrc, const int *ictxt, const int *lld, int *info);
void pdsyevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *ia, const int *ja,
              const int *desca, double *w, double *z, const int *iz, const int *jz, const int *descz, double *work,
              const int *lwork, int *iwork, const int *liwork, int *info);
void pdsyevr_(const char *jobz, const char *range, const char *uplo, const int *n, double *a, const int *ia,
              const int *ja, const int *desca, const double *vl, const double *vu, const int *il, const int *iu,
              int *m, int *nz, double *w, double *z, const int *iz, const int *jz, const int *descz, double *work,
              const int *lwork, int *iwork, const int *liwork, int *info);
void pdgemr2d_(const int *m, const int *n, const double *a, const int *ia, const int *ja, const int *desca, double *b,
               const int *ib, const int *jb, const int *descb, const int *ictxt);

static int me = 0, np = 1, entered = 0;

void kpca_dist_init(void)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
}

int kpca_dist_rank(void)
{
    return me;
}

int kpca_dist_size(void)
{
    return np;
}

int kpca_dist_entered(void)
{
    return entered;
}

void kpca_dist_enter(void)
{
    entered = 1;
}

kpca_status kpca_dist_agree(kpca_status st, const char *msg, kpca_error *err)
{
    int mine = st == KPCA_OK ? np : me, first = np;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == np)
        return KPCA_OK;
    int code = (int)st;
    char text[KPCA_ERRMSG_MAX];
    memset(text, 0, sizeof text);
    if (me == first)
        snprintf(text, sizeof text, "%s", msg != NULL && msg[0] ? msg : kpca_status_name(st));
    MPI_Bcast(&code, 1, MPI_INT, first, MPI_COMM_WORLD);
    MPI_Bcast(text, KPCA_ERRMSG_MAX, MPI_CHAR, first, MPI_COMM_WORLD);
    text[KPCA_ERRMSG_MAX - 1] = '\0';
    if (me == first)
        return kpca_fail(err, (kpca_status)code, "%s", text);
    kpca_fail(err, (kpca_status)code, "rank %d of %d: %.900s", first, np, text);
    if (err != NULL)
        err->relayed = 1;
    return (kpca_status)code;
}

/* kpca_dist_agree on a library status whose message is in err */
static kpca_status agree(kpca_status st, kpca_error *err)
{
    return kpca_dist_agree(st, st == KPCA_OK ? NULL : err->msg, err);
}

void kpca_dist_grid_shape(int p, int *nprow, int *npcol)
{
    int r = (int)sqrt((double)p);
    while (r > 1 && p % r != 0)
        r--;
    *nprow = r < 1 ? 1 : r;
    *npcol = p / *nprow;
}

/* ---- the BLACS grid and the descriptors of the fit, in one place ---------- */

typedef struct {
    int ctxt, nprow, npcol, myrow, mycol;
    int n, nb, mloc, nloc, lld;
    int desc[9]; /* of the n x n matrices (K and the eigenvectors) */
} grid;

static kpca_status grid_open(grid *g, int n, kpca_error *err)
{
    memset(g, 0, sizeof *g);
    int pnum = 0, nprocs = 0, zero = 0, info = 0;
    Cblacs_pinfo(&pnum, &nprocs);
    kpca_dist_grid_shape(nprocs, &g->nprow, &g->npcol);
    Cblacs_get(-1, 0, &g->ctxt);
    Cblacs_gridinit(&g->ctxt, "Row", g->nprow, g->npcol);
    Cblacs_gridinfo(g->ctxt, &g->nprow, &g->npcol, &g->myrow, &g->mycol);
    g->n = n;
    g->nb = KPCA_DIST_NB;
    g->mloc = numroc_(&g->n, &g->nb, &g->myrow, &zero, &g->nprow);
    g->nloc = numroc_(&g->n, &g->nb, &g->mycol, &zero, &g->npcol);
    g->lld = g->mloc > 1 ? g->mloc : 1;
    descinit_(g->desc, &g->n, &g->n, &g->nb, &g->nb, &zero, &zero, &g->ctxt, &g->lld, &info);
    if (info != 0)
        return kpca_fail(err, KPCA_EINTERNAL, "descinit: argument %d was illegal", -info);
    return KPCA_OK;
}

/* the global index (0-based) of local row (or column) l of a block-cyclic
 * dimension: ScaLAPACK's INDXL2G with the source process 0 */
static int global_index(int l, int nb, int p, int np_dim)
{
    return ((l / nb) * np_dim + p) * nb + l % nb;
}

/* The `cols` columns of the distributed n x n matrix z from column jz (1-based)
 * onto rank 0 (pdgemr2d to a 1 x 1 grid), then to every rank: out is n x cols
 * column-major. */
static kpca_status gather_columns(const grid *g, const double *z, int jz, int cols, double *out, kpca_error *err)
{
    int ctxt0 = 0, one = 1, zero = 0, info = 0, descb[9];
    Cblacs_get(-1, 0, &ctxt0);
    Cblacs_gridinit(&ctxt0, "Row", 1, 1); /* rank 0 alone; -1 elsewhere */
    memset(descb, 0, sizeof descb);
    descb[1] = -1;
    if (me == 0) {
        int n = g->n, lldb = g->n > 1 ? g->n : 1;
        descinit_(descb, &n, &cols, &g->nb, &g->nb, &zero, &zero, &ctxt0, &lldb, &info);
    }
    if (info == 0)
        pdgemr2d_(&g->n, &cols, z, &one, &jz, g->desc, out, &one, &one, descb, &g->ctxt);
    if (me == 0 && ctxt0 >= 0)
        Cblacs_gridexit(ctxt0);
    kpca_status st = info == 0 ? KPCA_OK : kpca_fail(err, KPCA_EINTERNAL, "descinit: argument %d was illegal", -info);
    if ((st = agree(st, err)) != KPCA_OK)
        return st;
    /* n x cols doubles in pieces that an int counts */
    const size_t total = (size_t)g->n * (size_t)cols, piece = (size_t)1 << 28;
    for (size_t off = 0; off < total; off += piece)
        MPI_Bcast(out + off, (int)(total - off < piece ? total - off : piece), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return KPCA_OK;
}

static kpca_status scalapack_fail(const char *driver, int info, kpca_error *err)
{
    if (info < 0)
        return kpca_fail(err, KPCA_EINTERNAL, "%s: argument %d was illegal", driver, -info);
    return kpca_fail(err, KPCA_ENUMERIC, "%s failed (info %d)", driver, info);
}

/* The eigensolver's workspace: a query (lwork = liwork = -1), then the
 * budget, then the allocation. */
static kpca_status eig_run(grid *g, double *a, double *zmat, int want, int evd, double *w, int *found,
                           kpca_error *err)
{
    int one = 1, info = 0, lwork = -1, liwork = -1, m = 0, nz = 0;
    /* pdsyevr gives its back-transformation (pdormtr) a workspace sized by
     * the local columns of the wanted vectors; with fewer than one block of
     * them per process column pdormtr refuses it ("parameter number 16 had
     * an illegal value") and pdsyevr returns info = 0 with the vectors of the
     * tridiagonal matrix.  Asking for at least nb x npcol pairs (the largest
     * of them are the ones wanted) keeps the workspace large enough. */
    if (!evd) {
        int least = g->nb * g->npcol < g->n ? g->nb * g->npcol : g->n;
        want = want > least ? want : least;
    }
    int il = g->n - want + 1, iu = g->n;
    double vl = 0.0, vu = 0.0, wq = 0.0;
    int iwq = 0;
    if (evd)
        pdsyevd_("V", "L", &g->n, a, &one, &one, g->desc, w, zmat, &one, &one, g->desc, &wq, &lwork, &iwq, &liwork,
                 &info);
    else
        pdsyevr_("V", "I", "L", &g->n, a, &one, &one, g->desc, &vl, &vu, &il, &iu, &m, &nz, w, zmat, &one, &one,
                 g->desc, &wq, &lwork, &iwq, &liwork, &info);
    kpca_status st = info == 0 ? KPCA_OK : scalapack_fail(evd ? "pdsyevd (workspace query)" : "pdsyevr (workspace query)", info, err);
    double lw = wq < 1.0 ? 1.0 : wq;
    if (st == KPCA_OK && (lw > 2147483647.0 || iwq < 1 || iwq > 2147483647 / 4))
        st = kpca_fail(err, KPCA_EUSAGE, "ScaLAPACK's workspace for a %d x %d matrix on %d ranks exceeds its 32-bit sizes: "
                       "use more ranks", g->n, g->n, np);
    if (st == KPCA_OK) {
        char what[96];
        snprintf(what, sizeof what, "the eigensolver's workspace (per rank)");
        st = kpca_mem_check(8.0 * lw + 4.0 * (double)iwq, what, err);
    }
    double *work = NULL;
    int *iwork = NULL;
    if (st == KPCA_OK) {
        lwork = (int)lw;
        liwork = iwq;
        work = kpca_alloc_array((size_t)lwork, 1, sizeof(double));
        iwork = kpca_alloc_array((size_t)liwork, 1, sizeof(int));
        if (work == NULL || iwork == NULL)
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory for the eigensolver's workspace (%d doubles)", lwork);
    }
    if ((st = agree(st, err)) == KPCA_OK) {
        if (evd) {
            pdsyevd_("V", "L", &g->n, a, &one, &one, g->desc, w, zmat, &one, &one, g->desc, work, &lwork, iwork,
                     &liwork, &info);
            *found = g->n;
        } else {
            pdsyevr_("V", "I", "L", &g->n, a, &one, &one, g->desc, &vl, &vu, &il, &iu, &m, &nz, w, zmat, &one, &one,
                     g->desc, work, &lwork, iwork, &liwork, &info);
        }
        st = info == 0 ? KPCA_OK : scalapack_fail(evd ? "pdsyevd" : "pdsyevr", info, err);
        if (!evd)
            *found = want;
        if (st == KPCA_OK && !evd && (m != want || nz != want))
            st = kpca_fail(err, KPCA_ENUMERIC, "pdsyevr returned %d eigenpairs (%d vectors), expected %d", m, nz,
                           want);
        st = agree(st, err);
    }
    kpca_free(work);
    kpca_free(iwork);
    return st;
}

/* ELPA's two-stage solver (Debian's libelpa: generic kernels, no OpenMP) on
 * the distributed matrix a (destroyed) for the `want` largest pairs.  ELPA
 * finds the smallest nev pairs, so it is given -K: w[0..want-1] return
 * -mu_1 <= -mu_2 <= ..., and columns 0..want-1 of zmat their vectors, in
 * descending order of mu.  ELPA takes the grid as kpca's BLACS grid places
 * the ranks, and needs a part of the matrix on every rank. */
static kpca_status elpa_run(grid *g, double *a, double *zmat, int want, double *w, kpca_error *err)
{
    kpca_status st = KPCA_OK;
    if (g->mloc < 1 || g->nloc < 1)
        st = kpca_fail(err, KPCA_EUSAGE,
                       "--eig elpa needs a block of the %d x %d matrix on every rank (%d x %d grid of %d x %d "
                       "blocks): use fewer ranks or --eig evd",
                       g->n, g->n, g->nprow, g->npcol, g->nb, g->nb);
    if ((st = agree(st, err)) != KPCA_OK)
        return st;
    if (elpa_init(ELPA_API_VERSION) != ELPA_OK)
        st = kpca_fail(err, KPCA_EINTERNAL, "the installed ELPA does not provide its API version %d",
                       ELPA_API_VERSION);
    if ((st = agree(st, err)) != KPCA_OK)
        return st;
    int e = ELPA_OK, e2 = ELPA_OK;
    elpa_t h = elpa_allocate(&e);
    if (e == ELPA_OK) {
        const struct {
            const char *name;
            int value;
        } set[] = {{"na", g->n},
                   {"nev", want},
                   {"local_nrows", g->mloc},
                   {"local_ncols", g->nloc},
                   {"nblk", g->nb},
                   {"mpi_comm_parent", (int)MPI_Comm_c2f(MPI_COMM_WORLD)},
                   {"process_row", g->myrow},
                   {"process_col", g->mycol},
                   {"blacs_context", g->ctxt}};
        for (size_t i = 0; e == ELPA_OK && i < sizeof set / sizeof set[0]; i++)
            elpa_set_integer(h, set[i].name, set[i].value, &e);
        if (e == ELPA_OK)
            e = elpa_setup(h);
        if (e == ELPA_OK)
            elpa_set_integer(h, "solver", ELPA_SOLVER_2STAGE, &e);
        if (e != ELPA_OK)
            st = kpca_fail(err, KPCA_EINTERNAL, "ELPA setup: %s", elpa_strerr(e));
    } else {
        st = kpca_fail(err, KPCA_ENOMEM, "ELPA: %s", elpa_strerr(e));
    }
    if ((st = agree(st, err)) == KPCA_OK) {
        const size_t nloc = (size_t)g->lld * (size_t)g->nloc;
        for (size_t i = 0; i < nloc; i++)
            a[i] = -a[i];
        elpa_eigenvectors_a_h_a_d(h, a, w, zmat, &e);
        st = e == ELPA_OK ? KPCA_OK : kpca_fail(err, KPCA_ENUMERIC, "ELPA's two-stage solver failed: %s",
                                                elpa_strerr(e));
        st = agree(st, err);
    }
    if (h != NULL)
        elpa_deallocate(h, &e2);
    elpa_uninit(&e2);
    return st;
}

kpca_status kpca_dist_fit(const kpca_dataset *fit, kpca_exact_job *job, kpca_error *err)
{
    entered = 1;
    kpca_status st = kpca_dist_agree(KPCA_OK, NULL, err); /* meets a rank that failed before */
    if (st != KPCA_OK)
        return st;
    const size_t m = fit->n, dim = fit->dim, want = job->want;
    if (m > 2147483647 / 2 || want > m)
        return kpca_fail(err, KPCA_EUSAGE, "%zu fit points are more than ScaLAPACK's 32-bit indices allow", m);
    const int evd = job->eig == KPCA_EIG_EVD, elpa = job->eig == KPCA_EIG_ELPA;
    grid g;
    st = agree(grid_open(&g, (int)m, err), err);
    if (st != KPCA_OK)
        return st;
    double *a = NULL, *zmat = NULL, *xr = NULL, *xc = NULL, *sums = NULL, *w = NULL, *vec = NULL;
    int *grow = NULL, *gcol = NULL;
    /* the budget per rank: K and the eigenvectors (mloc x nloc each), the
     * local rows and columns of the data, the gathered vectors; ELPA's own
     * workspace, which it allocates itself, as measured: 2.4 x (K + Z) in
     * all at M = 7291 and 14582, so 5 local matrices (ScaLAPACK's is queried
     * and checked in eig_run) */
    const double loc = (double)g.mloc * (double)g.nloc, mats = elpa ? 5.0 : 2.0;
    char what[128];
    snprintf(what, sizeof what, "kernel PCA on %zu points over %d ranks (%d x %d grid)", m, np, g.nprow, g.npcol);
    st = kpca_mem_check(8.0 * (mats * loc + (double)(g.mloc + g.nloc) * (double)dim + 2.0 * (double)m +
                               (double)m * (double)want),
                        what, err);
    if (st == KPCA_OK) {
        a = kpca_alloc_array(g.mloc ? (size_t)g.mloc : 1, g.nloc ? (size_t)g.nloc : 1, sizeof(double));
        zmat = kpca_alloc_array(g.mloc ? (size_t)g.mloc : 1, g.nloc ? (size_t)g.nloc : 1, sizeof(double));
        xr = kpca_alloc_array((size_t)g.mloc + 1, dim, sizeof(double));
        xc = kpca_alloc_array((size_t)g.nloc + 1, dim, sizeof(double));
        grow = kpca_alloc_array((size_t)g.mloc + 1, 1, sizeof(int));
        gcol = kpca_alloc_array((size_t)g.nloc + 1, 1, sizeof(int));
        sums = kpca_alloc_array(m + 2, 1, sizeof(double));
        w = kpca_alloc_array(m, 1, sizeof(double));
        vec = kpca_alloc_array(m, want, sizeof(double));
        if (a == NULL || zmat == NULL || xr == NULL || xc == NULL || grow == NULL || gcol == NULL || sums == NULL ||
            w == NULL || vec == NULL)
            st = kpca_fail(err, KPCA_ENOMEM, "out of memory for %s", what);
    }
    if ((st = agree(st, err)) != KPCA_OK)
        goto done;

    /* K: each rank its own blocks, K(rows, cols) = k(X_rows, X_cols); the
     * column-major mloc x nloc local array is the row-major nloc x mloc
     * kernel_cross(X_cols, X_rows) */
    double t0 = kpca_now();
    kpca_progress("kernel", 0, 1);
    for (int i = 0; i < g.mloc; i++) {
        grow[i] = global_index(i, g.nb, g.myrow, g.nprow);
        memcpy(xr + (size_t)i * dim, fit->x + (size_t)grow[i] * dim, dim * sizeof(double));
    }
    for (int j = 0; j < g.nloc; j++) {
        gcol[j] = global_index(j, g.nb, g.mycol, g.npcol);
        memcpy(xc + (size_t)j * dim, fit->x + (size_t)gcol[j] * dim, dim * sizeof(double));
    }
    kpca_kernel_cross(&job->kernel, xc, (size_t)g.nloc, xr, (size_t)g.mloc, dim, a);
    st = kpca_kernel_check_finite(&job->kernel, a, (size_t)g.mloc * (size_t)g.nloc, err);
    kpca_progress("kernel", 1, 1);
    if ((st = agree(st, err)) != KPCA_OK)
        goto done;

    /* centring: the column sums (= row sums, K is symmetric) of the local
     * blocks, summed over the ranks; the diagonal's traces alike */
    double t1 = kpca_now();
    kpca_progress("centring", 0, 1);
    memset(sums, 0, (m + 2) * sizeof(double));
    for (int j = 0; j < g.nloc; j++) {
        const double *col = a + (size_t)j * (size_t)g.lld;
        double s = 0.0;
        for (int i = 0; i < g.mloc; i++) {
            s += col[i];
            if (grow[i] == gcol[j])
                sums[m] += fabs(col[i]);
        }
        sums[gcol[j]] += s;
    }
    MPI_Allreduce(MPI_IN_PLACE, sums, (int)m + 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double grand = 0.0;
    for (size_t j = 0; j < m; j++) {
        job->colmean[j] = sums[j] / (double)m;
        grand += job->colmean[j];
    }
    grand /= (double)m;
    job->raw_trace = sums[m];
    double tr = 0.0;
    for (int j = 0; j < g.nloc; j++) {
        double *col = a + (size_t)j * (size_t)g.lld;
        const double cj = job->colmean[gcol[j]];
        for (int i = 0; i < g.mloc; i++) {
            col[i] -= cj + (job->colmean[grow[i]] - grand);
            if (grow[i] == gcol[j])
                tr += col[i];
        }
    }
    MPI_Allreduce(&tr, &job->trace, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    job->grandmean = grand;
    kpca_progress("centring", 1, 1);
    st = kpca_center_check(&job->kernel, job->trace, grand, NULL, 0, err);
    if (st != KPCA_OK)
        goto done; /* the same reduced numbers on every rank */

    /* the top `want` eigenpairs; eigenvalues ascend in w and in Z's columns */
    double t2 = kpca_now();
    kpca_progress("eigensolve", 0, 1);
    int found = 0;
    if (elpa) {
        st = elpa_run(&g, a, zmat, (int)want, w, err);
        found = (int)want;
    } else {
        st = eig_run(&g, a, zmat, (int)want, evd, w, &found, err);
    }
    /* ScaLAPACK: the wanted pairs are the last `want` of the `found`
     * ascending ones; ELPA: the first `want`, descending in mu */
    if (st == KPCA_OK)
        st = gather_columns(&g, zmat, elpa ? 1 : found - (int)want + 1, (int)want, vec, err);
    kpca_progress("eigensolve", 1, 1);
    if (st != KPCA_OK)
        goto done;
    for (size_t c = 0; c < want; c++) {
        size_t src = elpa ? c : want - 1 - c; /* column of vec */
        job->mu[c] = elpa ? -w[c] : w[(size_t)found - 1 - c];
        memcpy(job->u + c * m, vec + src * m, m * sizeof(double));
        kpca_eig_fix_sign(job->u + c * m, m, 1);
    }
    double t3 = kpca_now();
    job->sec_kernel = t1 - t0;
    job->sec_center = t2 - t1;
    job->sec_eig = t3 - t2;
    snprintf(job->note, sizeof job->note, "%s %dx%d", elpa ? "2-stage" : "scalapack", g.nprow, g.npcol);
done:
    kpca_free(a);
    kpca_free(zmat);
    kpca_free(xr);
    kpca_free(xc);
    kpca_free(grow);
    kpca_free(gcol);
    kpca_free(sums);
    kpca_free(w);
    kpca_free(vec);
    Cblacs_gridexit(g.ctxt);
    return st;
}

kpca_status kpca_dist_transform(const kpca_model *model, const double *x, size_t n, size_t dim, size_t k, double *z,
                                kpca_error *err)
{
    entered = 1;
    kpca_status st = kpca_dist_agree(KPCA_OK, NULL, err);
    if (st != KPCA_OK)
        return st;
    /* whole blocks of rows, as kpca_model_transform cuts them on one process,
     * so that every row's numbers come from the very same BLAS calls */
    const size_t block = KPCA_TRANSFORM_BLOCK, nblocks = (n + block - 1) / block;
    int *counts = kpca_alloc_array((size_t)np, 1, sizeof(int));
    int *offs = kpca_alloc_array((size_t)np, 1, sizeof(int));
    if (counts == NULL || offs == NULL)
        st = kpca_fail(err, KPCA_ENOMEM, "out of memory");
    else if (n > 2147483647)
        st = kpca_fail(err, KPCA_EUSAGE, "%zu points are more than one gather can count", n);
    size_t r0 = 0, r1 = 0;
    for (int r = 0; st == KPCA_OK && r < np; r++) {
        size_t a = nblocks * (size_t)r / (size_t)np * block, b = nblocks * (size_t)(r + 1) / (size_t)np * block;
        a = a < n ? a : n;
        b = b < n ? b : n;
        counts[r] = (int)(b - a);
        offs[r] = (int)a;
        if (r == me) {
            r0 = a;
            r1 = b;
        }
    }
    if (st == KPCA_OK && r1 > r0)
        st = kpca_model_transform(model, x + r0 * dim, r1 - r0, dim, k, z + r0 * k, err);
    if (st == KPCA_ENUMERIC) /* name the point in the whole input */
        for (size_t i = r0 * k; i < r1 * k; i++)
            if (!isfinite(z[i])) {
                st = kpca_fail(err, KPCA_ENUMERIC, "projection overflow at point %zu (kernel values too large)",
                               i / k + 1);
                break;
            }
    if ((st = agree(st, err)) == KPCA_OK) {
        MPI_Datatype row;
        MPI_Type_contiguous((int)k, MPI_DOUBLE, &row);
        MPI_Type_commit(&row);
        if (me == 0)
            MPI_Gatherv(MPI_IN_PLACE, 0, row, z, counts, offs, row, 0, MPI_COMM_WORLD);
        else
            MPI_Gatherv(z + r0 * k, (int)(r1 - r0), row, NULL, NULL, NULL, row, 0, MPI_COMM_WORLD);
        MPI_Type_free(&row);
    }
    kpca_free(counts);
    kpca_free(offs);
    return st;
}
