/* datarows.h - a model's DATA read a block of rows at a time (datarows.c). */
#ifndef KPCA_CLI_DATAROWS_H
#define KPCA_CLI_DATAROWS_H

#include <stddef.h>

#include "input.h"
#include "lib/kpca.h"

/* DATA for MODEL read a block of rows at a time (transform):
 * cli_model_rows_open opens it as a row source with the options of `in`
 * and the model's smoothing, counts its rows (n; text: one pass, which
 * finds a bad row anywhere before any is projected) and checks its
 * dimension (cli_check_model_dims; a LIBSVM file narrower than the model is
 * widened); 0 or an exit code (reported), *mr then closed.
 * cli_model_rows_read reads the next rows from the position (kpca_rowsrc_seek
 * on mr->src moves it), at most max, into x (max x mr->dim) and y (labels;
 * may be NULL), applies the input steps and the kernel's check (chi2's
 * non-negative values, rows named from the file's start) and adds them to
 * mr->stats; *got 0 at the end; errors: the reader's, the check's
 * (KPCA_EFORMAT), KPCA_ENOMEM.  cli_model_rows_say says what
 * cli_load_model_data would have said of the data (cli_say_read,
 * cli_warn_range) from mr->stats.  Memory: the source's window, the
 * statistics, and for widened rows one block of the file's rows. */
typedef struct {
    kpca_rowsrc *src;
    const kpca_dataset *info; /* the source's description (kpca_rowsrc_info) */
    const kpca_model *model;
    const char *model_path, *data_path;
    cli_input in;             /* as fitted: the model's smoothing */
    double lo, hi;            /* --input-range */
    size_t n, fdim, dim;      /* rows; values per row in the file and for the model */
    double *raw;              /* a block of narrower rows (LIBSVM) */
    size_t raw_rows;
    cli_data_stats stats;
} cli_model_rows;
int cli_model_rows_open(const char *model_path, const char *data_path, const cli_input *in, const kpca_model *model,
                        cli_model_rows *mr);
kpca_status cli_model_rows_read(cli_model_rows *mr, size_t max, double *x, int *y, size_t *got, kpca_error *err);
void cli_model_rows_say(const cli_model_rows *mr);
void cli_model_rows_close(cli_model_rows *mr);

#endif
