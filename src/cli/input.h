/* input.h - a command's data read whole (input.c): the input options, the
 * input steps, what is said of the data read, and statistics of data read a
 * block at a time. */
#ifndef KPCA_CLI_INPUT_H
#define KPCA_CLI_INPUT_H

#include <stddef.h>

#include "lib/kpca.h"

/* Input options shared by fit and transform. */
typedef struct {
    const char *format; /* NULL: auto */
    const char *range;  /* "LO,HI" mapped onto [-1,1]; NULL: none (or range_set) */
    int range_set;      /* range NULL: [range_lo, range_hi] mapped onto [-1, 1]
                         * (a model's record, cli_input_as_fitted) */
    double range_lo, range_hi;
    long round;         /* decimals after rescaling; -1: none */
    double smooth;      /* Gaussian blur sigma in pixels of the square images; 0: none */
    const char *header; /* --header yes|no|auto; NULL: auto */
    const char *label;  /* --label COL; NULL: the default column */
    const char *labels; /* --labels FILE; NULL: none */
    const char *const *select; /* the value columns to read by header name, in
                                * this order (a model's fit columns: kpca_read_opts
                                * select); NULL: none */
    size_t nselect;
    const char *columns; /* --columns LIST; NULL: all */
    const char *drop;    /* --drop LIST; NULL: none */
    const char *decimal; /* --decimal MARK; NULL: '.' */
    size_t skip_rows;    /* --skip-rows N: lines skipped before the header or first row */
} cli_input;

/* The read options of the input options in (format, header, labels,
 * columns, decimal mark, lines skipped) into *ro, and --input-range's LO,HI into *lo,
 * *hi (0, 0 without it).  0, or KPCA_EUSAGE once reported. */
int cli_read_opts(const cli_input *in, kpca_read_opts *ro, double *lo, double *hi);
/* The summary line of a text data set read (CSV, ESL; others: nothing),
 * with its label column's number of classes (SIZE_MAX: not known, left
 * out) and the note of a value column that looks like the labels, which it
 * looks for in x (xrows rows of ds->dim values). */
void cli_read_summary(const char *spec, const cli_input *in, const kpca_dataset *ds, const double *x, size_t xrows,
                      size_t classes);
/* Reads a data set and applies the input options; 0 or an exit code.  A
 * LIBSVM file narrower than pad_dim is first widened with zeros.  file (may
 * be NULL) receives what a kpca feature file says of itself. */
int cli_read_input(const char *spec, const cli_input *in, size_t pad_dim, kpca_dataset *ds, kpca_featinfo *file);
/* 0 when the input steps of `in` apply to rows of dim values (--smooth needs
 * square images); else KPCA_EUSAGE, reported, naming spec. */
int cli_input_check(const char *spec, const cli_input *in, size_t dim);
/* The input steps of `in`, in place on n rows x of dim values, row by row
 * (so a block at a time gives the same values): --input-range's map from
 * [lo, hi] onto [-1, 1], --round, --smooth (cli_input_check first).
 * Errors: the smoothing's (KPCA_ENOMEM). */
kpca_status cli_input_steps(const cli_input *in, double lo, double hi, double *x, size_t n, size_t dim,
                            kpca_error *err);

/* 1 when data of dim columns with these per-column ranges [lo[j], hi[j]]
 * look like images: dim a square of side >= 4 (16 values or more), and the
 * columns sharing one value range: at least half of them span at least
 * half of the overall range min lo .. max hi (pixels of one scale, such as
 * USPS's [-1, 1] or 0..255; tabular data, whose columns each have their own
 * range and unit, does not pass).  0 otherwise. */
int cli_image_like(size_t dim, const double *lo, const double *hi);
/* What is said of a data set read a block at a time, from statistics of a
 * size independent of its rows (kpca-mpi reduces them over the ranks).
 * cli_stats_raw takes rows as the file holds them (fdim values; their
 * labels, or NULL) starting at row `first` of the file: the first
 * KPCA_ESL_DECIDE_ROWS rows' first and last value (for the note of a
 * column that looks like labels) and the distinct labels (up to
 * CLI_LABELS_MAX); cli_stats_values takes the rows as the model sees them
 * (dim values, after the input steps): each column's smallest and largest
 * value. */
#define CLI_LABELS_MAX (1 << 16)
typedef struct {
    size_t fdim, dim;  /* values per row in the file, and as the model sees them */
    size_t n, rows;    /* the data's rows; of them, given to cli_stats_values */
    double *lo, *hi;   /* dim each (then room for a block's own lo and hi) */
    size_t nhead;      /* min(n, KPCA_ESL_DECIDE_ROWS) */
    size_t hcols;      /* 2, or 1 when fdim is 1 */
    double *head;      /* nhead x hcols: row r's first and last value (0 until seen) */
    int *labels;       /* the distinct labels seen, ascending */
    size_t nlabels;
    int labels_over;   /* 1: more than CLI_LABELS_MAX */
    /* with a model that has input points (cli_warn_range; else NULL): */
    double *mlo, *mhi; /* the model points' range per column, in DATA's units */
    int image;         /* the model points look like images (cli_image_like) */
    double flo, fhi;   /* the fit data's overall range, in DATA's units */
    double *band_lo, *band_hi; /* mlo, mhi widened by half their width each way */
    unsigned long long *out; /* per column: values outside [band_lo, band_hi] */
} cli_data_stats;
/* model (may be NULL): the model DATA is checked against (cli_warn_range);
 * n: DATA's rows. */
kpca_status cli_stats_init(cli_data_stats *s, size_t fdim, size_t dim, size_t n, const kpca_model *model,
                           kpca_error *err);
void cli_stats_raw(cli_data_stats *s, size_t first, const double *x, const int *y, size_t rows);
void cli_stats_values(cli_data_stats *s, const double *x, size_t rows);
/* adds n distinct labels v (another process's), over: that it saw more */
void cli_stats_merge_labels(cli_data_stats *s, const int *v, size_t n, int over);
void cli_stats_free(cli_data_stats *s);
/* For text data (CSV, ESL): "read 'SPEC': N rows x D values, labels from
 * ..." (unless -q), and a note when unlabelled data has a value column that
 * looks like class labels; ds describes the data (its format, labels and
 * columns; its rows are not looked at). */
void cli_say_read(const char *spec, const cli_input *in, const kpca_dataset *ds, const cli_data_stats *s);

/* Reports err, the failure to read the input `path`, in the user's terms
 * when path is one of the command's positional arguments and holds another
 * kind of file than that argument takes (io/read.h): "argument 1 of
 * transform is a MODEL (written by kpca fit); 'zip.test.gz' holds ESL text
 * data (gzip, 2007 x 256)", naming another argument that is the same file or
 * is the model (swapped arguments); KPCA_EFORMAT then.  Otherwise, and
 * always for KPCA_EIO and KPCA_ENOMEM, cli_fail(err).  Sniffing reads the
 * file: an error path only. */
int cli_fail_input(const kpca_error *err, const char *path);

#endif
