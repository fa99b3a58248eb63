/* fit_rows.c - kpca fit --solver nystrom on DATA read a block at a time
 * (cli.h: cli_fit_rows): the fit itself, on one process or kpca-mpi's
 * ranks, and --partial's accumulator of a range of the rows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

#define VARIANCE_BLOCK 4096 /* rows per block of the pass for rbf's sigma */

/* rbf's default sigma (kpca_kernel_default_sigma) by a pass over the fit
 * rows: each column's count, mean and centred sum of squares per block,
 * merged by the pairwise update; with comm, each process its rows, the
 * processes' columns merged in rank order (each in its slot of a sum). */
static kpca_status default_sigma(kpca_rowfeed *f, const kpca_nys_comm *comm, double *sigma, kpca_error *err)
{
    const size_t dim = f->dim, procs = comm != NULL ? (size_t)comm->size : 1, slot = 1 + 2 * dim;
    size_t lo, hi;
    kpca_nys_range(f->n, comm, &lo, &hi);
    double *x = kpca_alloc_array(VARIANCE_BLOCK, dim, sizeof(double));
    double *all = kpca_calloc(procs * slot, sizeof(double));
    kpca_status st = x == NULL || all == NULL ? kpca_fail(err, KPCA_ENOMEM, "out of memory") : KPCA_OK;
    double *mine = all + (comm != NULL ? (size_t)comm->rank : 0) * slot, *mean = mine + 1, *m2 = mine + 1 + dim;
    if (st == KPCA_OK && lo < hi)
        st = f->seek(f->ctx, lo, err);
    for (size_t at = lo; st == KPCA_OK && at < hi;) {
        size_t got = 0;
        st = f->read(f->ctx, hi - at < VARIANCE_BLOCK ? hi - at : VARIANCE_BLOCK, x, NULL, &got, err);
        if (st == KPCA_OK && got == 0)
            st = kpca_fail(err, KPCA_EFORMAT, "the data ended at row %zu of %zu", at, f->n);
        for (size_t j = 0; st == KPCA_OK && j < dim; j++) {
            double bm = 0.0, bs = 0.0;
            for (size_t i = 0; i < got; i++)
                bm += x[i * dim + j];
            bm /= (double)got;
            for (size_t i = 0; i < got; i++)
                bs += (x[i * dim + j] - bm) * (x[i * dim + j] - bm);
            const double na = mine[0], nb = (double)got, d = bm - mean[j];
            m2[j] += bs + d * d * na * nb / (na + nb);
            mean[j] += d * nb / (na + nb);
        }
        mine[0] += (double)got;
        at += got;
    }
    if (comm != NULL) {
        st = comm->agree(comm->ctx, st, err);
        if (st == KPCA_OK)
            comm->sum(comm->ctx, all, procs * slot);
        for (size_t p = 1; st == KPCA_OK && p < procs; p++) { /* into slot 0, in rank order */
            const double *o = all + p * slot;
            const double na = all[0], nb = o[0];
            for (size_t j = 0; nb > 0.0 && j < dim; j++) {
                const double d = o[1 + j] - all[1 + j];
                all[1 + dim + j] += o[1 + dim + j] + d * d * na * nb / (na + nb);
                all[1 + j] += d * nb / (na + nb);
            }
            all[0] += nb;
        }
    }
    if (st == KPCA_OK) {
        double total = 0.0;
        for (size_t j = 0; j < dim && all[0] > 0.0; j++)
            total += all[1 + dim + j] / all[0];
        *sigma = total > 0.0 && isfinite(total) ? sqrt(total) : 1.0;
    }
    kpca_free(x);
    kpca_free(all);
    return st;
}

void cli_fit_rows_close(cli_fit_rows *fr)
{
    cli_rows_close(&fr->rows);
    kpca_free(fr->idx);
    memset(fr, 0, sizeof *fr);
}

int cli_fit_rows_open(cli_fit_rows *fr, const char *data, const cli_input *in, size_t subset, long seed,
                      size_t landmarks, int gamma_given, int sigma_given, kpca_fit_params *p)
{
    memset(fr, 0, sizeof *fr);
    fr->data = data;
    fr->seed = seed;
    int r = cli_rows_open(data, in, &fr->rows);
    if (r != 0)
        return r;
    if ((r = cli_rows_count(&fr->rows, &fr->nall)) != 0) {
        cli_fit_rows_close(fr);
        return r;
    }
    const size_t n = fr->nall, m = subset ? subset : n;
    if (m > n) {
        cli_error("'%s' has %zu rows: cannot fit on a subset of %zu", data, n, m);
        cli_fit_rows_close(fr);
        return KPCA_EUSAGE;
    }
    fr->m = m;
    kpca_error err;
    if (m < n && seed != 0) { /* the first m rows need no indices */
        fr->idx = kpca_alloc_array(m, 1, sizeof(size_t));
        kpca_status st = fr->idx == NULL ? kpca_fail(&err, KPCA_ENOMEM, "out of memory for %zu row indices", m)
                                         : kpca_subset_indices(n, m, (uint64_t)seed, fr->idx, &err);
        if (st != KPCA_OK) {
            cli_fit_rows_close(fr);
            return cli_fail(&err);
        }
    }
    cli_rows_select(&fr->rows, fr->idx, m);
    fr->rows.kernel = &p->kernel; /* chi2: non-negative values, checked as the rows are read */
    const size_t dim = fr->rows.feed.dim;
    const kpca_kernel_type kt = p->kernel.type;
    if ((kt == KPCA_KERNEL_SIGMOID || kt == KPCA_KERNEL_LAPLACIAN) && !gamma_given)
        p->kernel.gamma = 1.0 / (double)dim;
    if (kt == KPCA_KERNEL_RBF && !sigma_given && m > 0) {
        kpca_status st = default_sigma(&fr->rows.feed, cli_nys_comm, &p->kernel.sigma, &err);
        if (st != KPCA_OK) {
            cli_fit_rows_close(fr);
            return cli_fail(&err);
        }
    }
    p->landmarks = landmarks ? landmarks : (m < KPCA_DEFAULT_LANDMARKS ? m : KPCA_DEFAULT_LANDMARKS);
    return 0;
}

int cli_fit_rows_run(cli_fit_rows *fr, const kpca_fit_params *p, kpca_model *model, kpca_fit_info *info)
{
    kpca_error err;
    kpca_status st = kpca_nystrom_fit_rows(&fr->rows.feed, p, cli_nys_comm, model, info, &err);
    return st == KPCA_OK ? 0 : cli_fail(&err);
}

/* "A:B" (either end may be left out) or "I/P" of n rows into [*lo, *hi);
 * 0 or KPCA_EUSAGE (reported) */
static int parse_range(const char *s, size_t n, size_t *lo, size_t *hi)
{
    const char *colon = strchr(s, ':'), *slash = strchr(s, '/');
    char a[32] = "", b[32] = "";
    const char *sep = colon != NULL ? colon : slash;
    long va = 0, vb = (long)n;
    if (sep != NULL && (size_t)(sep - s) < sizeof a && strlen(sep + 1) < sizeof b) {
        memcpy(a, s, (size_t)(sep - s));
        strcpy(b, sep + 1);
    }
    int ok = sep != NULL && (colon == NULL || slash == NULL);
    if (ok && colon != NULL) {
        ok = (a[0] == '\0' || cli_parse_long(a, 0, 9007199254740992.0, &va) == 0) &&
             (b[0] == '\0' || cli_parse_long(b, 0, 9007199254740992.0, &vb) == 0);
        if (ok && ((size_t)va > (size_t)vb || (size_t)vb > n))
            return cli_usage("option '--rows %s': rows %ld:%ld are not within the %zu fit rows (0:%zu)", s, va, vb,
                             n, n);
    } else if (ok) {
        long i, parts;
        ok = cli_parse_long(a, 0, 1e9, &i) == 0 && cli_parse_long(b, 1, 1e9, &parts) == 0 && i < parts;
        if (ok) {
            const kpca_nys_comm part = {.rank = (int)i, .size = (int)parts};
            size_t l0, h0;
            kpca_nys_range(n, &part, &l0, &h0);
            va = (long)l0;
            vb = (long)h0;
        }
    }
    if (!ok)
        return cli_usage("option '--rows': expected A:B (the fit rows from A up to B, from 0) or I/P (part I of P, "
                         "from 0), got '%s'", s);
    *lo = (size_t)va;
    *hi = (size_t)vb;
    return 0;
}

int cli_fit_rows_partial(cli_fit_rows *fr, const kpca_fit_params *p, const char *range, const cli_input *in,
                         const char *output)
{
    cli_partial pt;
    memset(&pt, 0, sizeof pt);
    int r = range != NULL ? parse_range(range, fr->m, &pt.lo, &pt.hi) : 0;
    if (r != 0)
        return r;
    if (range == NULL)
        pt.hi = fr->m;
    kpca_error err;
    kpca_rowfeed *f = &fr->rows.feed;
    const size_t l = p->landmarks, rows = pt.hi - pt.lo;
    size_t block = p->block ? p->block : kpca_nys_block_rows(l, l, f->dim);
    if (block > rows && rows > 0)
        block = rows;
    char what[160];
    snprintf(what, sizeof what, "a partial Nystrom fit with %zu landmarks of %zu values", l, f->dim);
    kpca_status st = kpca_mem_check(kpca_nys_mem(l, f->dim, block, p->landmark_method), what, &err);
    if (st == KPCA_OK)
        st = kpca_nys_setup_make(f, p, NULL, &pt.setup, &err);
    kpca_nys_acc acc;
    memset(&acc, 0, sizeof acc);
    if (st == KPCA_OK)
        st = kpca_nys_acc_init(&acc, l, pt.setup.basis.r, &err);
    if (st == KPCA_OK)
        st = kpca_nys_accumulate(f, &pt.setup, pt.lo, pt.hi, p->block, &acc, &err);
    if (st == KPCA_OK && (pt.acc = kpca_alloc_array(kpca_nys_acc_packed(l, acc.r), 1, sizeof(double))) == NULL)
        st = kpca_fail(&err, KPCA_ENOMEM, "out of memory for the accumulator");
    if (st != KPCA_OK) {
        kpca_nys_acc_free(&acc);
        cli_partial_free(&pt);
        return cli_fail(&err);
    }
    kpca_nys_acc_pack(&acc, pt.acc);
    kpca_nys_acc_free(&acc);
    pt.tol = pt.setup.basis.tol;
    pt.want = p->components ? p->components : l;
    snprintf(pt.data, sizeof pt.data, "%s", cli_arg_name(fr->data));
    pt.nall = fr->nall;
    pt.subset_seed = fr->m < fr->nall ? fr->seed : 0;
    const char *given[CLI_PARTIAL_NOPTS] = {in->format,  in->header, in->label,   in->labels,
                                           in->columns, in->drop,   in->decimal, in->range};
    for (size_t i = 0; i < CLI_PARTIAL_NOPTS; i++)
        snprintf(pt.opts[i], sizeof pt.opts[i], "%s", given[i] != NULL ? given[i] : "");
    pt.round = in->round;
    pt.smooth = in->smooth;
    cli_info("partial: rows %zu:%zu of %zu fit rows, %zu landmarks, %zu features", pt.lo, pt.hi, fr->m, l,
             pt.setup.basis.r);
    r = cli_partial_write(output, &pt);
    cli_partial_free(&pt);
    return r;
}
