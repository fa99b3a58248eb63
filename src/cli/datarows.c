/* datarows.c - a model's DATA read a block of rows at a time (kpca
 * transform, kpca-mpi transform): the row source (io/rowsrc.h), the input
 * options of cli_read_input applied to each block (input.c), the checks of
 * cli_check_model_data made as the rows pass, and what is said of the data
 * from the statistics gathered on the way (cli_data_stats). */
#include <string.h>

#include "datarows.h"
#include "cli.h"
#include "input.h"
#include "modeldata.h"
#include "rows.h"

/* ---- a model's DATA by blocks ---------------------------------------------- */

int cli_model_rows_open(const char *model_path, const char *data_path, const cli_input *in, const kpca_model *model,
                        cli_model_rows *mr)
{
    memset(mr, 0, sizeof *mr);
    mr->model = model;
    mr->model_path = model_path;
    mr->data_path = data_path;
    mr->in = *in;
    cli_input_as_fitted(&mr->in, model); /* the model's steps and columns are the ones its inputs get */
    kpca_read_opts ro;
    int r = cli_read_opts(&mr->in, &ro, &mr->lo, &mr->hi);
    if (r != 0)
        return r;
    kpca_error err;
    kpca_progress("read", 0, 1);
    kpca_status st = cli_rowsrc_open(data_path, &ro, &mr->src, &err);
    if (st == KPCA_OK)
        st = kpca_rowsrc_count(mr->src, &mr->n, &err);
    if (st != KPCA_OK) {
        kpca_rowsrc_close(mr->src);
        mr->src = NULL;
        return cli_fail_input(&err, data_path);
    }
    mr->info = kpca_rowsrc_info(mr->src);
    mr->fdim = mr->info->dim;
    /* LIBSVM omits zeros, trailing ones too: its rows are widened */
    mr->dim = mr->info->format == KPCA_FMT_LIBSVM && mr->fdim < model->dim ? model->dim : mr->fdim;
    kpca_dataset shape = *mr->info;
    shape.n = mr->n;
    shape.dim = mr->dim;
    shape.x = NULL;
    if ((r = cli_check_model_dims(model, model_path, &shape, data_path)) == 0)
        r = cli_input_check(data_path, &mr->in, mr->dim);
    if (r == 0 && cli_stats_init(&mr->stats, mr->fdim, mr->dim, mr->n, model, &err) != KPCA_OK)
        r = cli_fail(&err);
    if (r != 0)
        cli_model_rows_close(mr);
    return r;
}

kpca_status cli_model_rows_read(cli_model_rows *mr, size_t max, double *x, int *y, size_t *got, kpca_error *err)
{
    *got = 0;
    const size_t fdim = mr->fdim, dim = mr->dim, first = kpca_rowsrc_tell(mr->src);
    double *raw = x;
    if (fdim < dim) { /* read narrower rows, then widen them */
        if (max > mr->raw_rows) {
            kpca_free(mr->raw);
            mr->raw_rows = 0;
            if ((mr->raw = kpca_alloc_array(max, fdim ? fdim : 1, sizeof(double))) == NULL)
                return kpca_fail(err, KPCA_ENOMEM, "out of memory for a block of %zu rows", max);
            mr->raw_rows = max;
        }
        raw = mr->raw;
    }
    kpca_progress("read", first, mr->n);
    kpca_status st = kpca_rowsrc_read(mr->src, max, raw, y, got, err);
    if (st != KPCA_OK)
        return st;
    const size_t rows = *got;
    cli_stats_raw(&mr->stats, first, raw, kpca_rowsrc_labelled(mr->src) ? y : NULL, rows);
    if (raw != x)
        for (size_t r = rows; r-- > 0;) {
            memmove(x + r * dim, raw + r * fdim, fdim * sizeof(double));
            memset(x + r * dim + fdim, 0, (dim - fdim) * sizeof(double));
        }
    if ((st = cli_input_steps(&mr->in, mr->lo, mr->hi, x, rows, dim, err)) != KPCA_OK)
        return st;
    if ((st = kpca_kernel_check_rows(&mr->model->kernel, x, rows, dim, first, err)) != KPCA_OK) {
        char why[KPCA_ERRMSG_MAX];
        snprintf(why, sizeof why, "%s", err->msg);
        return kpca_fail(err, st, "'%s': %.900s", mr->data_path, why);
    }
    cli_stats_values(&mr->stats, x, rows);
    cli_standardize(mr->model, x, rows); /* as the fit data was, after what is said of it */
    return KPCA_OK;
}

void cli_model_rows_say(const cli_model_rows *mr)
{
    cli_say_read(mr->data_path, &mr->in, mr->info, &mr->stats);
    cli_warn_range(mr->model, &mr->stats, mr->info->colnames, mr->data_path);
}

void cli_model_rows_close(cli_model_rows *mr)
{
    kpca_rowsrc_close(mr->src);
    kpca_free(mr->raw);
    cli_stats_free(&mr->stats);
    memset(mr, 0, sizeof *mr);
}
