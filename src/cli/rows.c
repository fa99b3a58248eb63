/* rows.c - a data file read a block of rows at a time for the streamed
 * commands (rows.h: cli_rows): the row source (io/rowsrc.h) with the input
 * options applied to each block as cli_read_input applies them to a whole
 * file; and which of its rows are the fit rows (cli_draw_rows). */
#include <string.h>

#include "rows.h"
#include "cli.h"
#include "input.h"
#include "progress.h"
#include "lib/support/blas.h"
#include "lib/support/clock.h"

#define SUMMARY_ROWS 4096 /* rows the class-like note of the summary looks at */
/* the values of a block read that pay for parking OpenBLAS's workers first
 * (some 2 ms of parsing against some 0.1 ms to start them again) */
#define CLI_ROWS_PARK_VALUES ((size_t)1 << 16)

const kpca_rowsrc_share *cli_rowsrc_share = NULL;

static kpca_status rows_seek(void *ctx, size_t row, kpca_error *err)
{
    cli_rows *r = ctx;
    if (row > r->m)
        return kpca_fail(err, KPCA_EUSAGE, "row %zu is beyond the %zu fit rows", row, r->m);
    r->at = row;
    return KPCA_OK;
}

/* the input options on rows [0, rows) of x, the fit rows from r->at on */
static kpca_status prepare(cli_rows *r, double *x, size_t rows, kpca_error *err)
{
    const size_t dim = r->feed.dim;
    kpca_status st = cli_input_steps(r->in, r->lo, r->hi, x, rows, dim, err);
    if (st != KPCA_OK)
        return st;
    if (r->kernel != NULL) /* the data as read, as cli_read_input's caller checks it */
        for (size_t i = 0; i < rows; i++) {
            const size_t at = r->at + i, row = r->idx != NULL ? r->idx[at] : at;
            kpca_error why;
            if (kpca_kernel_check_rows(r->kernel, x + i * dim, 1, dim, row, &why) != KPCA_OK)
                return kpca_fail(err, KPCA_EFORMAT, "'%s': %s", r->spec, why.msg);
        }
    if (r->std_mean != NULL)
        kpca_standardize(x, rows, dim, r->std_mean, r->std_scale);
    return KPCA_OK;
}

static kpca_status rows_read(void *ctx, size_t max, double *x, int *y, size_t *got, kpca_error *err)
{
    cli_rows *r = ctx;
    const size_t dim = r->feed.dim, take = r->m - r->at < max ? r->m - r->at : max;
    /* OpenBLAS's workers, woken by the last block's products, would spin
     * through this read and take a core from its parser threads (a CSV's
     * parts): parked, they start again at the next product.  Not for a
     * block so small that restarting them costs more than its read. */
    if (take * dim >= CLI_ROWS_PARK_VALUES)
        kpca_blas_park();
    const double t0 = kpca_now(); /* the pass's reading, for -v */
    *got = 0;
    for (size_t i = 0; i < take;) {
        const size_t row = r->idx != NULL ? r->idx[r->at + i] : r->at + i;
        size_t run = 1;
        if (r->idx == NULL)
            run = take - i;
        else
            while (i + run < take && r->idx[r->at + i + run] == row + run)
                run++;
        kpca_status st = KPCA_OK;
        if (kpca_rowsrc_tell(r->src) != row)
            st = kpca_rowsrc_seek(r->src, row, err);
        size_t n = 0;
        if (st == KPCA_OK)
            st = kpca_rowsrc_read(r->src, run, x + i * dim, y != NULL ? y + i : NULL, &n, err);
        if (st == KPCA_OK && n != run)
            st = kpca_fail(err, KPCA_EFORMAT, "'%s' ended at row %zu, before the %zu rows it had", r->spec, row + n,
                           r->n);
        if (st != KPCA_OK)
            return st;
        i += run;
    }
    kpca_status st = prepare(r, x, take, err);
    cli_progress_read(kpca_now() - t0);
    if (st != KPCA_OK)
        return st;
    r->at += take;
    *got = take;
    return KPCA_OK;
}

kpca_status cli_rowsrc_open(const char *spec, const kpca_read_opts *ro, kpca_rowsrc **src, kpca_error *err)
{
    return cli_rowsrc_share != NULL ? kpca_rowsrc_open_shared(spec, ro, cli_rowsrc_share, src, err)
                                    : kpca_rowsrc_open(spec, ro, src, err);
}

int cli_rows_open(const char *spec, const cli_input *in, cli_rows *r)
{
    kpca_read_opts ro;
    double lo, hi;
    int rc = cli_read_opts(in, &ro, &lo, &hi);
    if (rc != 0)
        return rc;
    kpca_error err;
    kpca_rowsrc *src;
    kpca_progress("read", 0, 1);
    kpca_status st = cli_rowsrc_open(spec, &ro, &src, &err);
    if (st != KPCA_OK)
        return cli_fail_input(&err, spec);
    return cli_rows_adopt(spec, in, src, r);
}

int cli_rows_adopt(const char *spec, const cli_input *in, kpca_rowsrc *src, cli_rows *r)
{
    memset(r, 0, sizeof *r);
    kpca_read_opts ro;
    int rc = cli_read_opts(in, &ro, &r->lo, &r->hi);
    if (rc != 0) {
        kpca_rowsrc_close(src);
        return rc;
    }
    r->src = src;
    r->spec = spec;
    r->in = in;
    const size_t dim = kpca_rowsrc_dim(r->src);
    if (in->smooth > 0.0 && (r->side = kpca_image_side(dim)) == 0) {
        cli_error("'%s': option '--smooth' needs square images, but the rows have %zu values", spec, dim);
        cli_rows_close(r);
        return KPCA_EUSAGE;
    }
    r->feed.dim = dim;
    r->feed.ctx = r;
    r->feed.seek = rows_seek;
    r->feed.read = rows_read;
    return 0;
}

int cli_rows_count(cli_rows *r, size_t *n)
{
    kpca_error err;
    kpca_status st = kpca_rowsrc_count(r->src, &r->n, &err);
    kpca_progress("read", 1, 1);
    if (st != KPCA_OK)
        return cli_fail_input(&err, r->spec);
    *n = r->n;
    /* the summary of cli_read_input, its class-like note from the first rows */
    const kpca_dataset *info = kpca_rowsrc_info(r->src);
    const size_t dim = r->feed.dim, head = r->n < SUMMARY_ROWS ? r->n : SUMMARY_ROWS;
    double *x = NULL;
    if (!cli_quiet && cli_rank == 0 && (info->format == KPCA_FMT_CSV || info->format == KPCA_FMT_ESL) &&
        (x = kpca_alloc_array(head ? head : 1, dim, sizeof(double))) != NULL) {
        size_t got = 0;
        st = kpca_rowsrc_seek(r->src, 0, &err);
        if (st == KPCA_OK)
            st = kpca_rowsrc_read(r->src, head, x, NULL, &got, &err);
        if (st == KPCA_OK)
            st = kpca_rowsrc_seek(r->src, 0, &err);
        if (st != KPCA_OK) {
            kpca_free(x);
            return cli_fail_input(&err, r->spec);
        }
        kpca_dataset shown = *info;
        shown.n = r->n;
        cli_read_summary(r->spec, r->in, &shown, x, got, info->names != NULL ? info->nnames : (size_t)-1);
    }
    kpca_free(x);
    return 0;
}

void cli_rows_select(cli_rows *r, const size_t *idx, size_t m)
{
    r->idx = idx;
    r->m = m;
    r->at = 0;
    r->feed.n = m;
}

void cli_rows_close(cli_rows *r)
{
    kpca_rowsrc_close(r->src);
    memset(r, 0, sizeof *r);
}

/* ---- which of a file's rows are the fit rows ----------------------------- */

const char *cli_draw_name(cli_draw d)
{
    return d == CLI_DRAW_RANDOM ? "random" : d == CLI_DRAW_STRATIFIED ? "stratified" : "first";
}

int cli_draw_parse(const char *name, cli_draw *out)
{
    for (int d = CLI_DRAW_FIRST; d <= CLI_DRAW_STRATIFIED; d++)
        if (strcmp(name, cli_draw_name((cli_draw)d)) == 0) {
            *out = (cli_draw)d;
            return 0;
        }
    return -1;
}

int cli_draw_rows(size_t n, const int *y, size_t m, cli_draw draw, long seed, size_t **idx, size_t *nclasses)
{
    kpca_error err;
    *idx = kpca_alloc_array(m ? m : 1, 1, sizeof **idx);
    kpca_status st = *idx == NULL ? kpca_fail(&err, KPCA_ENOMEM, "out of memory for %zu row indices", m) : KPCA_OK;
    if (st == KPCA_OK && draw == CLI_DRAW_FIRST)
        st = kpca_subset_indices(n, m, 0, *idx, &err);
    else if (st == KPCA_OK && draw == CLI_DRAW_RANDOM)
        st = kpca_subset_indices(n, m, (uint64_t)seed, *idx, &err);
    else if (st == KPCA_OK)
        st = kpca_subset_stratified(y, n, m, (uint64_t)seed, *idx, nclasses, &err);
    if (st != KPCA_OK) {
        kpca_free(*idx);
        *idx = NULL;
        return cli_fail(&err);
    }
    return 0;
}
