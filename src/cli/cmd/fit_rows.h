/* fit_rows.h - kpca fit's streamed Nyström path (fit_rows.c). */
#ifndef KPCA_CLI_FIT_ROWS_H
#define KPCA_CLI_FIT_ROWS_H

#include <stddef.h>

#include "cli/input.h"
#include "cli/rows.h"
#include "lib/kpca.h"

/* The processes of kpca-mpi's Nyström fit (src/mpi/: every rank reads its
 * own rows); NULL in the plain kpca. */
extern const kpca_nys_comm *cli_nys_comm;

/* The streamed Nyström fit of kpca fit (fit_rows.c): DATA read a block at
 * a time through cli_rows, the fit rows drawn by index.  The steps, in
 * order: open (DATA and its row count; in borrowed), labels (every row's,
 * for a stratified draw: one pass, n ints), select (the fit rows: idx
 * taken over, m of them, checked against kernel's data rule as they are
 * read), stats (a pass over the fit rows, each process its own with
 * cli_nys_comm: every column's mean, population sd, range; with
 * `standardize` the standardisation of kpca_standardize_fit, which the
 * rows get from then on, and rbf's default sigma of the rows as the fit
 * sees them), then run or partial, and close.  Each returns 0 or the exit
 * code once reported. */
typedef struct {
    cli_rows rows;
    size_t *idx;          /* the fit rows among DATA's (owned) */
    size_t nall, m;       /* DATA's rows, the fit rows */
    int unlabelled;       /* DATA has no labels */
    const char *data;     /* DATA as given (a spool's path for a stream) */
    char **colnames;      /* the value columns' names (owned; NULL: none) */
    double *mean, *sd, *lo, *hi; /* the fit rows' column statistics (dim each, one block, owned) */
    unsigned char *flag;  /* standardize: the constant columns (dim, owned) */
    size_t nconst;        /* their number */
    double *std_mean, *std_scale; /* standardize: the standardisation (owned; NULL: none) */
    double sigma;         /* rbf's default sigma of the fit rows */
    int ranged;           /* DATA was cut into parts: comm is cli_nys_comm with this rank's fit rows */
    kpca_nys_comm comm;
} cli_fit_rows;
int cli_fit_rows_open(cli_fit_rows *fr, const char *data, const cli_input *in);
int cli_fit_rows_labels(cli_fit_rows *fr, int **y);
/* The fit rows idx[0..m) (ascending, distinct; owned by fr from then on);
 * the first m rows keep no index (idx is freed): nothing a row. */
void cli_fit_rows_select(cli_fit_rows *fr, size_t *idx, size_t m, const kpca_kernel *kernel);
int cli_fit_rows_stats(cli_fit_rows *fr, int standardize, const kpca_nys_comm *comm);
/* The fit on the rows (kpca_nystrom_fit_rows; kpca-mpi: each rank its
 * rows, through cli_nys_comm): *model and *info as kpca_model_fit leaves
 * them. */
int cli_fit_rows_run(cli_fit_rows *fr, const kpca_fit_params *p, kpca_model *model, kpca_fit_info *info);
/* kpca fit --partial: the accumulator of the fit rows `range` ("A:B",
 * 0-based from A up to B, either end left out for the first or the last
 * row; or "I/P": part I of P equal parts, from 0; NULL: all) written to
 * the partial file `output` (cli_partial_write) with the landmarks and
 * basis of the whole fit and how its rows were drawn (subset: the model's
 * text of it; draw and seed). */
int cli_fit_rows_partial(cli_fit_rows *fr, const kpca_fit_params *p, const char *range, const cli_input *in,
                         const char *subset, cli_draw draw, long seed, const char *output);
void cli_fit_rows_close(cli_fit_rows *fr);

#endif
