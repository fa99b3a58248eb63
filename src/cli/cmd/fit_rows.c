/* fit_rows.c - kpca fit --solver nystrom on DATA read a block at a time
 * (fit_rows.h: cli_fit_rows): the fit itself, on one process or kpca-mpi's
 * ranks, and --partial's accumulator of a range of the rows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd/fit_rows.h"
#include "cli/cli.h"
#include "cli/input.h"
#include "cli/opt.h"
#include "cli/partial.h"
#include "cli/rows.h"
#include "cli/spool.h"
#include "lib/core/standardize.h"

#define STATS_BLOCK 4096 /* rows per block of the statistics and labels passes */

const kpca_nys_comm *cli_nys_comm = NULL;

/* A block of got rows x (dim values each, row after row) into slot s of
 * column_pass: per column, the block's mean and centred sum of squares
 * (bm, bs: dim each, scratch), merged into s's count s[0], means s[1..] and
 * sums of squares s[1 + dim..] by the pairwise update, and its -lo and hi
 * (s[1 + 2 dim..], s[1 + 3 dim..]).  Row by row, so that x is read at
 * memory speed (a pass down each column read a cache line a value); each
 * column's sums add its rows in order, as that pass did (the same bits),
 * and a NaN leaves a range as fmax did. */
static void block_stats(const double *restrict x, size_t got, size_t dim, double *restrict s, double *restrict bm,
                        double *restrict bs)
{
    double *restrict nl = s + 1 + 2 * dim, *restrict nh = s + 1 + 3 * dim;
    for (size_t j = 0; j < dim; j++)
        bm[j] = bs[j] = 0.0;
    for (size_t i = 0; i < got; i++) {
        const double *restrict v = x + i * dim;
        for (size_t j = 0; j < dim; j++) {
            bm[j] += v[j];
            nl[j] = -v[j] > nl[j] ? -v[j] : nl[j];
            nh[j] = v[j] > nh[j] ? v[j] : nh[j];
        }
    }
    for (size_t j = 0; j < dim; j++)
        bm[j] /= (double)got;
    for (size_t i = 0; i < got; i++) {
        const double *restrict v = x + i * dim;
        for (size_t j = 0; j < dim; j++)
            bs[j] += (v[j] - bm[j]) * (v[j] - bm[j]);
    }
    const double na = s[0], nb = (double)got;
    for (size_t j = 0; j < dim; j++) {
        const double d = bm[j] - s[1 + j];
        s[1 + dim + j] += bs[j] + d * d * na * nb / (na + nb);
        s[1 + j] += d * nb / (na + nb);
    }
}

/* The column statistics of the fit rows by a pass: each column's count,
 * mean and centred sum of squares per block, merged by the pairwise update;
 * with comm, each process its rows, the processes' columns merged in rank
 * order (each in its slot of a sum).  mean, m2 (dim each): the totals; lo,
 * hi: the ranges. */
static kpca_status column_pass(kpca_rowfeed *f, const kpca_nys_comm *comm, double *mean, double *m2, double *lo,
                               double *hi, kpca_error *err)
{
    const size_t dim = f->dim, procs = comm != NULL ? (size_t)comm->size : 1, slot = 1 + 4 * dim;
    size_t from, to;
    kpca_nys_range(f->n, comm, &from, &to);
    const size_t block = to - from < STATS_BLOCK ? (to > from ? to - from : 1) : STATS_BLOCK;
    double *x = kpca_alloc_array(block, dim, sizeof(double));
    double *all = kpca_calloc(procs * slot, sizeof(double));
    double *bm = kpca_alloc_array(dim, 2, sizeof(double)), *bs = bm != NULL ? bm + dim : NULL;
    kpca_status st = x == NULL || all == NULL || bm == NULL
                         ? kpca_fail(err, KPCA_ENOMEM, "out of memory for a block of %zu rows of %zu values (the "
                                     "columns' statistics)", block, dim)
                         : KPCA_OK;
    double *mine = all + (comm != NULL ? (size_t)comm->rank : 0) * slot;
    for (size_t j = 0; st == KPCA_OK && j < dim; j++) { /* -lo and hi, so that a sum of one slot keeps them */
        mine[1 + 2 * dim + j] = -INFINITY;
        mine[1 + 3 * dim + j] = -INFINITY;
    }
    if (st == KPCA_OK && from < to)
        st = f->seek(f->ctx, from, err);
    kpca_progress("statistics", 0, to - from);
    for (size_t at = from; st == KPCA_OK && at < to;) {
        size_t got = 0;
        st = f->read(f->ctx, to - at < block ? to - at : block, x, NULL, &got, err);
        if (st == KPCA_OK && got == 0)
            st = kpca_fail(err, KPCA_EFORMAT, "the data ended at row %zu of %zu", at, f->n);
        if (st == KPCA_OK)
            block_stats(x, got, dim, mine, bm, bs);
        mine[0] += (double)got;
        at += got;
        kpca_progress("statistics", at - from, to - from);
    }
    if (comm != NULL) {
        st = comm->agree(comm->ctx, st, err);
        if (st == KPCA_OK) /* the others' slots are 0 here */
            comm->sum(comm->ctx, all, procs * slot);
    }
    for (size_t p = 1; st == KPCA_OK && p < procs; p++) { /* into slot 0, in rank order */
        const double *o = all + p * slot;
        const double na = all[0], nb = o[0];
        for (size_t j = 0; nb > 0.0 && j < dim; j++) {
            const double d = o[1 + j] - all[1 + j];
            all[1 + dim + j] += o[1 + dim + j] + d * d * na * nb / (na + nb);
            all[1 + j] += d * nb / (na + nb);
            all[1 + 2 * dim + j] = fmax(all[1 + 2 * dim + j], o[1 + 2 * dim + j]);
            all[1 + 3 * dim + j] = fmax(all[1 + 3 * dim + j], o[1 + 3 * dim + j]);
        }
        all[0] += nb;
    }
    for (size_t j = 0; st == KPCA_OK && j < dim; j++) {
        mean[j] = all[1 + j];
        m2[j] = all[1 + dim + j];
        lo[j] = -all[1 + 2 * dim + j];
        hi[j] = all[1 + 3 * dim + j];
    }
    kpca_free(x);
    kpca_free(all);
    kpca_free(bm);
    return st;
}

void cli_fit_rows_close(cli_fit_rows *fr)
{
    const size_t dim = fr->rows.feed.dim;
    cli_rows_close(&fr->rows);
    kpca_free(fr->idx);
    kpca_free_strings(fr->colnames, fr->colnames != NULL ? dim : 0);
    kpca_free(fr->mean);
    kpca_free(fr->flag);
    kpca_free(fr->std_mean);
    kpca_free(fr->std_scale);
    memset(fr, 0, sizeof *fr);
}

int cli_fit_rows_open(cli_fit_rows *fr, const char *data, const cli_input *in)
{
    memset(fr, 0, sizeof *fr);
    fr->data = data;
    int r = cli_rows_open(data, in, &fr->rows);
    if (r != 0)
        return r;
    if ((r = cli_rows_count(&fr->rows, &fr->nall)) != 0) {
        cli_fit_rows_close(fr);
        return r;
    }
    const kpca_dataset *info = kpca_rowsrc_info(fr->rows.src);
    fr->unlabelled = !kpca_rowsrc_labelled(fr->rows.src);
    const size_t dim = fr->rows.feed.dim;
    if (info->colnames != NULL && (fr->colnames = kpca_strings_dup(info->colnames, dim)) == NULL) {
        cli_error("out of memory for the names of %zu columns", dim);
        cli_fit_rows_close(fr);
        return KPCA_ENOMEM;
    }
    return 0;
}

int cli_fit_rows_labels(cli_fit_rows *fr, int **y)
{
    const size_t n = fr->nall, dim = fr->rows.feed.dim;
    kpca_error err;
    const size_t block = n < STATS_BLOCK ? (n ? n : 1) : STATS_BLOCK;
    double *x = kpca_alloc_array(block, dim, sizeof(double));
    *y = kpca_alloc_array(n ? n : 1, 1, sizeof(int));
    kpca_status st = x == NULL || *y == NULL ? kpca_fail(&err, KPCA_ENOMEM, "out of memory for %zu labels", n)
                                             : kpca_rowsrc_seek(fr->rows.src, 0, &err);
    kpca_progress("labels", 0, n);
    for (size_t at = 0; st == KPCA_OK && at < n;) {
        size_t got = 0;
        st = kpca_rowsrc_read(fr->rows.src, n - at < block ? n - at : block, x, *y + at, &got, &err);
        if (st == KPCA_OK && got == 0)
            st = kpca_fail(&err, KPCA_EFORMAT, "'%s' ended at row %zu of %zu", fr->data, at, n);
        at += got;
        kpca_progress("labels", at, n);
    }
    kpca_free(x);
    if (st != KPCA_OK) {
        kpca_free(*y);
        *y = NULL;
        return cli_fail(&err);
    }
    return 0;
}

/* the fit rows among idx[0..m) (ascending; NULL: the first m) before the file's row `row` */
static size_t fit_rows_before(const size_t *idx, size_t m, size_t row)
{
    if (idx == NULL)
        return row < m ? row : m;
    size_t lo = 0, hi = m;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (idx[mid] < row)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* the processes with this one's fit rows: those of its part of a text
 * file cut into parts, else comm's rule */
static const kpca_nys_comm *fit_comm(const cli_fit_rows *fr, const kpca_nys_comm *comm)
{
    return comm != NULL && fr->ranged ? &fr->comm : comm;
}

void cli_fit_rows_select(cli_fit_rows *fr, size_t *idx, size_t m, const kpca_kernel *kernel)
{
    kpca_free(fr->idx);
    if (idx != NULL && m > 0 && idx[m - 1] == m - 1) { /* ascending and distinct: the first m rows */
        kpca_free(idx);
        idx = NULL; /* no index a row: the memory stays independent of the rows */
    }
    fr->idx = idx;
    fr->m = m;
    cli_rows_select(&fr->rows, idx, m);
    fr->rows.kernel = kernel; /* chi2: non-negative values, checked as the rows are read */
    size_t first, count;
    fr->ranged = cli_nys_comm != NULL && kpca_rowsrc_part(fr->rows.src, &first, &count);
    if (fr->ranged) { /* this rank's fit rows: those in its part of the file */
        fr->comm = *cli_nys_comm;
        fr->comm.ranged = 1;
        fr->comm.lo = fit_rows_before(idx, m, first);
        fr->comm.hi = fit_rows_before(idx, m, first + count);
    }
}

int cli_fit_rows_stats(cli_fit_rows *fr, int standardize, const kpca_nys_comm *comm)
{
    const size_t dim = fr->rows.feed.dim;
    fr->mean = kpca_alloc_array(dim, 5, sizeof(double));
    fr->flag = kpca_calloc(dim, 1);
    if (standardize) {
        fr->std_mean = kpca_alloc_array(dim, 1, sizeof(double));
        fr->std_scale = kpca_alloc_array(dim, 1, sizeof(double));
    }
    if (fr->mean == NULL || fr->flag == NULL || (standardize && (fr->std_mean == NULL || fr->std_scale == NULL))) {
        cli_error("out of memory for the statistics of %zu columns", dim);
        return KPCA_ENOMEM;
    }
    fr->sd = fr->mean + dim;
    fr->lo = fr->mean + 2 * dim;
    fr->hi = fr->mean + 3 * dim;
    double *m2 = fr->mean + 4 * dim;
    kpca_error err;
    if (column_pass(&fr->rows.feed, fit_comm(fr, comm), fr->mean, m2, fr->lo, fr->hi, &err) != KPCA_OK)
        return cli_fail(&err);
    const double n = (double)fr->m;
    for (size_t j = 0; j < dim; j++)
        if (!isfinite(fr->mean[j]) || !isfinite(m2[j])) { /* the pass's sums overflowed */
            cli_error("'%s': column %zu%s%s%s: its values (from %g to %g) are so large that their spread overflows "
                      "double precision: divide the column by a power of ten first",
                      fr->data, j + 1, fr->colnames != NULL ? " ('" : "", fr->colnames != NULL ? fr->colnames[j] : "",
                      fr->colnames != NULL ? "')" : "", fr->lo[j], fr->hi[j]);
            return KPCA_EFORMAT;
        }
    double total = 0.0; /* the rows' total variance as the fit sees them */
    for (size_t j = 0; j < dim; j++) {
        /* kpca_standardize_fit's rule: a constant column is exactly 0 */
        fr->sd[j] = fr->lo[j] == fr->hi[j] || !(n > 0.0) ? 0.0 : sqrt(m2[j] / n);
        double scale = 1.0;
        if (standardize) {
            const int c = fr->lo[j] == fr->hi[j] || !(fr->sd[j] > 0.0 && isfinite(fr->sd[j]));
            fr->std_mean[j] = fr->lo[j] == fr->hi[j] ? fr->lo[j] : fr->mean[j];
            fr->std_scale[j] = scale = c ? 1.0 : fr->sd[j];
            fr->flag[j] = (unsigned char)c;
            fr->nconst += (size_t)c;
        }
        if (fr->lo[j] != fr->hi[j])
            total += m2[j] / n / (scale * scale);
    }
    if (!isfinite(total)) { /* each column's finite, their sum not: the norm of their deviations, scaled */
        double *v = fr->mean + 4 * dim; /* m2, no longer needed */
        for (size_t j = 0; j < dim; j++)
            v[j] = fr->lo[j] == fr->hi[j] ? 0.0 : sqrt(v[j] / n) / (standardize ? fr->std_scale[j] : 1.0);
        fr->sigma = kpca_spread_norm(v, dim);
    } else {
        fr->sigma = total > 0.0 ? sqrt(total) : 1.0;
    }
    fr->rows.std_mean = fr->std_mean; /* the rows are standardised from now on */
    fr->rows.std_scale = fr->std_scale;
    return 0;
}

int cli_fit_rows_run(cli_fit_rows *fr, const kpca_fit_params *p, kpca_model *model, kpca_fit_info *info)
{
    kpca_error err;
    kpca_status st = kpca_nystrom_fit_rows(&fr->rows.feed, p, fit_comm(fr, cli_nys_comm), model, info, &err);
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
                         const char *subset, cli_draw draw, long seed, const char *output)
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
    pt.draw = draw;
    pt.seed = draw == CLI_DRAW_FIRST ? 0 : seed;
    snprintf(pt.subset, sizeof pt.subset, "%s", subset);
    pt.std_mean = fr->std_mean; /* borrowed for the write */
    pt.std_scale = fr->std_scale;
    char skip[32] = "";
    if (in->skip_rows > 0)
        snprintf(skip, sizeof skip, "%zu", in->skip_rows);
    const char *given[CLI_PARTIAL_NOPTS] = {in->format,  in->header, in->label,   in->labels, in->columns,
                                           in->drop,    in->decimal, in->range,  skip};
    for (size_t i = 0; i < CLI_PARTIAL_NOPTS; i++)
        snprintf(pt.opts[i], sizeof pt.opts[i], "%s", given[i] != NULL ? given[i] : "");
    pt.round = in->round;
    pt.smooth = in->smooth;
    cli_info("partial: rows %zu:%zu of %zu fit rows, %zu landmarks, %zu features", pt.lo, pt.hi, fr->m, l,
             pt.setup.basis.r);
    r = cli_partial_write(output, &pt);
    pt.std_mean = pt.std_scale = NULL;
    cli_partial_free(&pt);
    return r;
}
